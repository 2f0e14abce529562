"""The data generators of tools/firepower reproduce the shipped data files byte for byte."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

from hexwar.plugins.firepower.plugin import HERE

TOOLS = Path(__file__).resolve().parents[3] / "tools" / "firepower"


def _tool(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(f"fp_tools_{name}", TOOLS / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_make_panels_regenerates_the_shipped_panels(tmp_path: Path) -> None:
    written = _tool("make_panels").main(tmp_path)
    assert sorted(p.name for p in written) == ["panel1.toml", "panel2.toml"]
    for path in written:
        shipped = HERE / "data" / "panels" / path.name
        assert path.read_bytes() == shipped.read_bytes(), f"{shipped} differs from its generator"
