"""The Firefight data generators in ``tools/firefight/`` regenerate the shipped files byte for
byte: a change to a table, a map or a scenario is made in its generator, not by hand."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[3]
TOOLS = ROOT / "tools" / "firefight"
FIREFIGHT = ROOT / "plugins" / "firefight"


def _load(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(f"firefight_tools_{name}", TOOLS / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize(("tool", "shipped", "pattern"), [
    ("build_tables", FIREFIGHT / "data" / "tables", "*.csv"),
    ("build_maps", FIREFIGHT / "data" / "maps", "*.toml"),
    ("build_scenarios", FIREFIGHT / "scenarios", "scenario*.toml"),
])
def test_generator_reproduces_the_shipped_files(tool: str, shipped: Path, pattern: str,
                                                tmp_path: Path) -> None:
    _load(tool).main(tmp_path)
    written = sorted(p.name for p in tmp_path.glob(pattern))
    assert written == sorted(p.name for p in shipped.glob(pattern)) and written
    for name in written:
        assert (tmp_path / name).read_bytes() == (shipped / name).read_bytes(), name


def test_generators_are_not_in_the_runtime_package() -> None:
    assert not list(FIREFIGHT.rglob("build_*.py"))
