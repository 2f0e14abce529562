"""The data files of Skirmish: unit and terrain records with provenance, the fire and rally tables.

Data files are found from this module (``Path(__file__).parent``), never from the current folder,
and are listed as package data in pyproject.toml so an installed copy has them.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

from hexwar.core.provenance import Records, load_records
from hexwar.core.tables import TableSet

HERE = Path(__file__).parent
DATA = HERE / "data"
TABLES = DATA / "tables"
SCENARIOS = HERE / "scenarios"


@cache
def unit_records() -> Records:
    """Unit type data with provenance (Skirmish 2.2, 2.3, 5.3)."""
    return load_records(DATA / "units.toml")


@cache
def terrain_records() -> Records:
    """Terrain data with provenance (Skirmish 4.2, 4.4, 5.2, 5.3)."""
    return load_records(DATA / "terrain.toml")


@cache
def tables() -> TableSet:
    """The fire and rally tables (Skirmish 5.4, 6.1)."""
    return TableSet.load_dir(TABLES)


def unit_data(unit_type: str) -> dict[str, Any]:
    """Data of a unit type, qualified (``skirmish:rifles``) or short."""
    values: dict[str, Any] = unit_records().values[unit_type.split(":", 1)[-1]]
    return values


def terrain_data(name: str) -> dict[str, Any]:
    """Data of a terrain type by its short name (``woods``)."""
    values: dict[str, Any] = terrain_records().values[name]
    return values


def hexside_cost() -> dict[str, int]:
    """Extra cost of crossing each hexside feature (Skirmish 4.4)."""
    costs: dict[str, int] = terrain_records().values["hexsides"]
    return costs
