"""hexwar core: hexes, maps, quantities, dice, the turn engine and the plugin host.

The public names below are imported lazily, so ``from hexwar.core import hookimpl`` in a plugin
does not pull in pint or pyproj.
"""

from __future__ import annotations

import importlib
from typing import Any

from hexwar.core.markers import hookimpl, hookspec

_LAZY = {
    "Hex": "hexwar.core.hexgrid",
    "trace": "hexwar.core.hexgrid",
    "in_arc": "hexwar.core.hexgrid",
    "Board": "hexwar.core.board",
    "Panel": "hexwar.core.board",
    "PanelPlacement": "hexwar.core.board",
    "line_of_sight": "hexwar.core.los",
    "ureg": "hexwar.core.units",
    "Q_": "hexwar.core.units",
    "Scale": "hexwar.core.units",
    "GeoReference": "hexwar.core.geo",
    "Table": "hexwar.core.tables",
    "TableSet": "hexwar.core.tables",
    "Disclosed": "hexwar.core.tables",
    "Dice": "hexwar.core.dice",
    "Game": "hexwar.core.engine.game",
    "Decision": "hexwar.core.engine.decisions",
    "Simultaneous": "hexwar.core.engine.decisions",
    "Unit": "hexwar.core.engine.state",
    "Scenario": "hexwar.core.scenario",
    "Modifier": "hexwar.core.types",
    "PhaseSpec": "hexwar.core.types",
    "PluginManifest": "hexwar.core.types",
    "SystemInfo": "hexwar.core.types",
    "UnitType": "hexwar.core.types",
    "TerrainType": "hexwar.core.types",
    "DataSource": "hexwar.core.types",
    "GameResult": "hexwar.core.types",
    "HexwarError": "hexwar.core.errors",
    "DataError": "hexwar.core.errors",
    "RulesError": "hexwar.core.errors",
    "PluginError": "hexwar.core.errors",
}

__all__ = ["hookimpl", "hookspec", *sorted(_LAZY)]


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'hexwar.core' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value
