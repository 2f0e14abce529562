"""Run mypy on hexwar.core and hexwar.plugins from the source tree.

The folders core/ and plugins/ install as hexwar.core and hexwar.plugins, a mapping mypy cannot
follow in an editable install. This script lays out a temporary hexwar/ folder of symbolic links
to them (and to entry/__main__.py) and checks the packages by their import names.
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def main(argv: list[str]) -> int:
    with tempfile.TemporaryDirectory(prefix="hexwar-mypy-") as tmp:
        pkg = Path(tmp) / "hexwar"
        pkg.mkdir()
        (pkg / "core").symlink_to(ROOT / "core", target_is_directory=True)
        (pkg / "plugins").symlink_to(ROOT / "plugins", target_is_directory=True)
        (pkg / "__main__.py").symlink_to(ROOT / "entry" / "__main__.py")
        targets = argv or ["-p", "hexwar.core", "-p", "hexwar.plugins", "-m", "hexwar.__main__"]
        cmd = [sys.executable, "-m", "mypy", "--config-file", str(ROOT / "pyproject.toml"), *targets]
        return subprocess.call(cmd, cwd=tmp)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
