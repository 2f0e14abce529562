"""The distribution is declared statically and completely: every built-in plugin module has an
entry point and every entry point a plugin module; every folder of the package is listed; the only
build script declares the optional C extension and nothing else (CORE-123); a wheel, from the tree
and from the sdist, builds without one warning and carries every data file and, where a compiler
is, the extension."""

from __future__ import annotations

import ast
import importlib
import shutil
import subprocess
import sys
import sysconfig
import tarfile
import tomllib
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
sys.path.insert(0, str(ROOT / "tools"))
import package_list  # noqa: E402

sys.path.remove(str(ROOT / "tools"))


def test_every_plugin_module_has_an_entry_point_and_every_entry_point_a_module() -> None:
    declared = PYPROJECT["project"]["entry-points"]["hexwar.plugins"]
    assert declared == package_list.plugin_modules(), (
        "pyproject.toml's entry points differ from the plugin modules in plugins/: "
        "run python tools/package_list.py")
    for name, module in declared.items():
        manifest = importlib.import_module(module).PLUGIN
        assert manifest.name == name


def test_every_package_folder_is_listed() -> None:
    assert PYPROJECT["tool"]["setuptools"]["packages"] == package_list.packages(), (
        "pyproject.toml's package list differs from the folders of core/ and plugins/: "
        "run python tools/package_list.py")


def test_the_build_script_only_declares_the_optional_extension() -> None:
    """setup.py holds no metadata (pyproject.toml does): one setup() call with ext_modules only,
    each Extension optional, so that an install without a C compiler still succeeds."""
    tree = ast.parse((ROOT / "setup.py").read_text(encoding="utf-8"))
    calls = [n for n in ast.walk(tree) if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)]
    (setup,) = [c for c in calls if c.func.id == "setup"]  # type: ignore[attr-defined]
    assert [k.arg for k in setup.keywords] == ["ext_modules"] and not setup.args
    extensions = [c for c in calls if c.func.id == "Extension"]  # type: ignore[attr-defined]
    assert extensions
    for ext in extensions:
        optional = [k.value for k in ext.keywords if k.arg == "optional"]
        assert len(optional) == 1 and isinstance(optional[0], ast.Constant) and \
            optional[0].value is True
    assert not list((ROOT / "plugins").glob("*/plugins.toml"))


def _can_compile() -> bool:
    cc = str(sysconfig.get_config_var("CC") or "").split()
    return bool(cc) and shutil.which(cc[0]) is not None and \
        (Path(sysconfig.get_paths()["include"]) / "Python.h").exists()


def _warnings(output: str) -> list[str]:
    # -v shows what setuptools says (older pips hide its warnings otherwise); byte-compiling is
    # switched off in this environment and says so, which is not a packaging problem
    return [line for line in output.splitlines()
            if "warn" in line.lower() and "Location 'file:" not in line
            and "byte-compiling is disabled" not in line]


def _sources(tmp_path: Path) -> Path:
    # a copy of the sources, so no stale build/ folder or built extension of the checkout leaks
    # into the wheel
    src = tmp_path / "src"
    shutil.copytree(ROOT, src, ignore=shutil.ignore_patterns(
        ".git", ".tox", ".venv", ".ci-venv", "build", "dist", "*.egg-info", "__pycache__",
        ".mypy_cache", ".ruff_cache", ".pytest_cache", ".hypothesis", "examples", "tests",
        "*.so", "*.pyd"))
    return src


def _wheel(source: Path, out: Path) -> set[str]:
    """Build a wheel of ``source`` (a tree or an sdist) without a warning; its file names."""
    done = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-v",
         "--wheel-dir", str(out), str(source)],
        capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    assert _warnings(done.stdout + done.stderr) == []
    (wheel,) = out.glob("hexwar-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    built = [n for n in names if n.startswith("hexwar/core/_losc.") and n.endswith((".so", ".pyd"))]
    if _can_compile():
        assert len(built) == 1, "the wheel should carry the compiled C query (setup.py)"
    return names


@pytest.mark.slow
def test_a_wheel_builds_without_a_warning_and_carries_every_data_file(tmp_path: Path) -> None:
    names = _wheel(_sources(tmp_path), tmp_path / "dist")
    for folder, prefix in (("core", "hexwar/core"), ("plugins", "hexwar/plugins")):
        for f in (ROOT / folder).rglob("*"):
            if f.is_file() and "__pycache__" not in f.parts and f.suffix not in (".pyc", ".so",
                                                                                  ".pyd"):
                assert f"{prefix}/{f.relative_to(ROOT / folder).as_posix()}" in names, f
    assert "hexwar/__main__.py" in names


@pytest.mark.slow
def test_the_sdist_carries_the_c_source_and_builds_the_extension(tmp_path: Path) -> None:
    src = _sources(tmp_path)
    done = subprocess.run(
        [sys.executable, "-c", "import sys; from setuptools import build_meta as b; "
         "print(b.build_sdist(sys.argv[1]))", str(tmp_path / "sdist")],
        cwd=src, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    assert _warnings(done.stdout + done.stderr) == []
    sdist = tmp_path / "sdist" / done.stdout.split()[-1]
    with tarfile.open(sdist) as tar:
        members = tar.getnames()
    assert any(m.endswith("/core/_losc.c") for m in members)
    assert any(m.endswith("/setup.py") for m in members)
    names = _wheel(sdist, tmp_path / "dist")
    assert "hexwar/core/losgrid.py" in names
