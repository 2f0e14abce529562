"""Print the ``packages`` list and the built-in entry points that pyproject.toml must hold.

The distribution maps the folders core/, plugins/ and entry/ onto hexwar.core, hexwar.plugins and
hexwar (for ``python -m hexwar``); setuptools needs every folder that holds files named as a
package, data folders included. ``tests/test_packaging.py`` compares pyproject.toml with what this
script computes from the tree; run it after adding a folder or a plugin and paste its output.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
ROOTS = {"core": "hexwar.core", "plugins": "hexwar.plugins"}
SKIP = {"__pycache__"}


def packages() -> list[str]:
    """Every folder under core/ and plugins/ that holds a file, as a package name."""
    found = ["hexwar"]
    for folder, name in ROOTS.items():
        base = ROOT / folder
        for d in sorted([base, *(p for p in base.rglob("*") if p.is_dir())]):
            if SKIP & set(d.relative_to(ROOT).parts):
                continue
            if any(f.is_file() and f.suffix != ".pyc" for f in d.iterdir()):
                rel = d.relative_to(base).parts
                found.append(".".join((name, *rel)))
    return found


def plugin_modules() -> dict[str, str]:
    """Built-in plugin modules (a module-level ``PLUGIN = PluginManifest(name=...)``), by name."""
    out: dict[str, str] = {}
    for path in sorted((ROOT / "plugins").rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        constants = {t.id: n.value.value for n in tree.body if isinstance(n, ast.Assign)
                     and isinstance(n.value, ast.Constant) for t in n.targets
                     if isinstance(t, ast.Name)}
        for node in tree.body:
            if (isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "PLUGIN"
                                                     for t in node.targets)
                    and isinstance(node.value, ast.Call)):
                for kw in node.value.keywords:
                    if kw.arg != "name":
                        continue
                    if isinstance(kw.value, ast.Constant):
                        name = kw.value.value
                    elif isinstance(kw.value, ast.Name) and kw.value.id in constants:
                        name = constants[kw.value.id]
                    else:
                        raise SystemExit(f"{path}: PLUGIN's name is not a literal or a constant")
                    rel = path.relative_to(ROOT / "plugins").with_suffix("").parts
                    out[str(name)] = ".".join(("hexwar.plugins", *rel))
    return out


def main() -> int:
    print("packages = [")
    for p in packages():
        print(f'    "{p}",')
    print("]\n")
    print('[project.entry-points."hexwar.plugins"]')
    for name, module in sorted(plugin_modules().items()):
        print(f'"{name}" = "{module}"')
    return 0


if __name__ == "__main__":
    sys.exit(main())
