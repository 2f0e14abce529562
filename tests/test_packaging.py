"""The distribution is declared statically and completely: every built-in plugin module has an
entry point and every entry point a plugin module; every folder of the package is listed; a wheel
builds without one warning and carries every data file."""

from __future__ import annotations

import importlib
import shutil
import subprocess
import sys
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


def test_no_build_script_or_plugin_listing_remains() -> None:
    assert not (ROOT / "setup.py").exists()
    assert not list((ROOT / "plugins").glob("*/plugins.toml"))


@pytest.mark.slow
def test_a_wheel_builds_without_a_warning_and_carries_every_data_file(tmp_path: Path) -> None:
    # a copy of the sources, so no stale build/ folder of the checkout leaks into the wheel
    src = tmp_path / "src"
    shutil.copytree(ROOT, src, ignore=shutil.ignore_patterns(
        ".git", ".tox", ".venv", ".ci-venv", "build", "dist", "*.egg-info", "__pycache__",
        ".mypy_cache", ".ruff_cache", ".pytest_cache", ".hypothesis", "examples", "tests"))
    done = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-v",
         "--wheel-dir", str(tmp_path / "dist"), str(src)],
        capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    # -v shows what setuptools says (older pips hide its warnings otherwise); byte-compiling is
    # switched off in this environment and says so, which is not a packaging problem
    noise = [line for line in (done.stdout + done.stderr).splitlines()
             if "warn" in line.lower() and "Location 'file:" not in line
             and "byte-compiling is disabled" not in line]
    assert noise == []
    (wheel,) = (tmp_path / "dist").glob("hexwar-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    for folder, prefix in (("core", "hexwar/core"), ("plugins", "hexwar/plugins")):
        for f in (ROOT / folder).rglob("*"):
            if f.is_file() and "__pycache__" not in f.parts and f.suffix != ".pyc":
                assert f"{prefix}/{f.relative_to(ROOT / folder).as_posix()}" in names, f
    assert "hexwar/__main__.py" in names
