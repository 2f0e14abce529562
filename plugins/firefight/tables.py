"""Firefight data, loaded once into plain dicts for the hot paths.

Tables (``data/tables/*.csv``, core.tables long format, per-cell provenance) and unit types
(``data/units.toml``). :func:`ff_data` caches one :class:`FFData`; :func:`disclosed` lists every
number the text discloses, for ``hexwar data check`` and the tests.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from hexwar.core.tables import Band, Disclosed, TableSet

DATA = Path(__file__).parent / "data"
TABLES = DATA / "tables"
MAX_RANGE = 60  # the Height/LOS Display's range lines stop at 60 (docs/decisions.md FFD-3)
BANDS_LIMIT = 60

SIDES = ("US", "SU")
SIDE_NAMES = {"US": "U.S.", "SU": "Soviet"}


@dataclass(frozen=True)
class UnitData:
    """One unit type (Firefight 3.3) (``name`` unqualified, e.g. ``US-M60A1``)."""

    name: str
    side: str
    title: str
    cls: str  # personnel | apc | tank
    ma: float = 0.0
    men: int = 0
    capacity: int = 0
    weapons: tuple[str, ...] = ()
    at_weapons: tuple[str, ...] = ()
    missile: bool = False
    source: dict[str, str] = field(default_factory=dict)

    @property
    def is_vehicle(self) -> bool:
        return self.cls != "personnel"


@dataclass(frozen=True)
class IFData:
    """One Indirect Fire unit type (Indirect Fire Data Table, Firefight 8.31, 8.54)."""

    name: str
    side: str
    tubes: int
    on_call: int
    too: int
    pattern: tuple[int, int, int]


@dataclass
class FFData:
    tables: TableSet
    units: dict[str, UnitData]
    if_units: dict[str, dict[str, Any]]
    #: (line, target class) -> AR by range index 0..MAX_RANGE (None beyond the line's range)
    fire: dict[tuple[str, str], list[int | None]]
    #: crt name -> (ar, roll) -> (result, frozenset of terrains where it is ignored, Firefight 6.7)
    crt: dict[str, dict[tuple[int, int], tuple[str, frozenset[str]]]]
    crt_max: dict[str, int]
    if_crt: dict[tuple[str, int, int], str]
    if_crt_max: int
    if_data: dict[str, IFData]
    scatter: dict[int, int]
    hex_cost: dict[str, float]
    feature_cost: dict[str, float]


def _lo(key: Band | str) -> int:
    """The value of a one-value band key (an AR column, a dice roll)."""
    if isinstance(key, Band) and key.lo is not None:
        return int(key.lo)
    return int(str(key))


def _load() -> FFData:
    ts = TableSet.load_dir(TABLES)
    raw = tomllib.loads((DATA / "units.toml").read_text(encoding="utf-8"))
    units: dict[str, UnitData] = {}
    for name, d in raw["types"].items():
        units[name] = UnitData(
            name=name, side=d["side"], title=d["title"], cls=d["class"],
            ma=float(d.get("ma", 0)), men=int(d.get("men", 0)),
            capacity=int(d.get("capacity", 0)), weapons=tuple(d.get("weapons", ())),
            at_weapons=tuple(d.get("at_weapons", ())), missile=bool(d.get("missile", False)),
            source=dict(d.get("source", {})),
        )
    fire: dict[tuple[str, str], list[int | None]] = {}
    for tname in ("fire_us", "fire_soviet"):
        t = ts[tname]
        for row in t.rows:
            line, target = str(row.keys[0]), str(row.keys[1])
            fire.setdefault((line, target), [None] * (MAX_RANGE + 1))
        # the ranges some row covers: a range beyond the line's last band is no lookup (a miss
        # builds a long error message, about 1,200 of them on every start otherwise)
        at = [k.name for k in t.schema.keys].index("range")
        bands: dict[tuple[str, str], list[Any]] = {}
        for row in t.rows:
            bands.setdefault((str(row.keys[0]), str(row.keys[1])), []).append(row.keys[at])
        for (line, target), arr in fire.items():
            if not line.startswith("US-" if tname == "fire_us" else "SU-"):
                continue
            for r in range(1, MAX_RANGE + 1):
                if not any(r in band for band in bands.get((line, target), ())):
                    arr[r] = None
                    continue
                try:
                    arr[r] = int(t.value(line=line, target=target, range=r))
                except Exception:
                    arr[r] = None
            arr[0] = arr[1]  # same hex (Overrun uses range 1, Firefight 28.0)
    crt: dict[str, dict[tuple[int, int], tuple[str, frozenset[str]]]] = {}
    crt_max: dict[str, int] = {}
    for name in ("anti_armor", "anti_personnel"):
        t = ts[f"crt_{name}"]
        cells: dict[tuple[int, int], tuple[str, frozenset[str]]] = {}
        for row in t.rows:
            ign = row.values[1] or ""
            cells[(_lo(row.keys[0]), _lo(row.keys[1]))] = (str(row.values[0]),
                                                         frozenset(str(ign).split()))
        crt[name] = cells
        crt_max[name] = max(a for a, _ in cells)
    if_crt: dict[tuple[str, int, int], str] = {}
    for row in ts["if_crt"].rows:
        if_crt[(str(row.keys[0]), _lo(row.keys[1]), _lo(row.keys[2]))] = str(row.values[0])
    if_data: dict[str, IFData] = {}
    for row in ts["if_data"].rows:
        v = dict(zip(ts["if_data"].value_names, row.values, strict=True))
        name = str(row.keys[0])
        if_data[name] = IFData(name, str(v["side"]), int(v["tubes"]), int(v["on_call"]),
                               int(v["too"]),
                               (int(v["impact"]), int(v["adjacent"]), int(v["two_away"])))
    scatter = {d: int(ts["scatter"].value(die=d)) for d in range(1, 7)}
    hex_cost = {str(r.keys[0]): float(r.values[0]) for r in ts["terrain_effects"].rows}
    feature_cost = {str(r.keys[0]): float(r.values[0]) for r in ts["movement_costs"].rows}
    return FFData(ts, units, dict(raw.get("if_units", {})), fire, crt, crt_max, if_crt,
                  max(a for _, a, _ in if_crt), if_data, scatter, hex_cost, feature_cost)


@lru_cache(maxsize=1)
def ff_data() -> FFData:
    """The shipped Firefight data (cached)."""
    return _load()


def disclosed() -> list[Disclosed]:
    """Every table number the rulebook text discloses, with its case [hexwar data check]."""
    d = Disclosed
    out = [
        d("fire_us", {"line": "US-TM+", "target": "personnel", "range": 3}, 8,
          "Firefight 6.32 example"),
        d("if_data", {"unit": "81mm"}, 1, "Firefight 3.3", "tubes"),
        d("if_data", {"unit": "4.2in"}, 2, "Firefight 3.3", "tubes"),
        d("if_data", {"unit": "155mm"}, 3, "Firefight 3.3", "tubes"),
        d("if_data", {"unit": "120mm"}, 2, "Firefight 3.3", "tubes"),
        d("if_data", {"unit": "122mm"}, 3, "Firefight 3.3", "tubes"),
        d("if_data", {"unit": "152mm"}, 3, "Firefight 3.3", "tubes"),
        d("if_data", {"unit": "81mm"}, 2, "Firefight 8.0 example C", "on_call"),
        d("if_data", {"unit": "4.2in"}, 3, "Firefight 8.0 example D", "on_call"),
        d("if_data", {"unit": "4.2in"}, 4, "Firefight 8.0 example D", "too"),
        d("if_data", {"unit": "4.2in"}, 8, "Firefight 8.7", "impact"),
        d("if_data", {"unit": "4.2in"}, 4, "Firefight 8.7", "adjacent"),
        d("if_data", {"unit": "4.2in"}, 2, "Firefight 8.7", "two_away"),
        d("if_data", {"unit": "155mm"}, 12, "Firefight 21.23", "impact"),
        d("if_data", {"unit": "155mm"}, 6, "Firefight 21.23", "adjacent"),
        d("if_data", {"unit": "155mm"}, 3, "Firefight 21.23", "two_away"),
        d("terrain_effects", {"terrain": "clear"}, 1.0, "Firefight TEC", "move_cost"),
        d("terrain_effects", {"terrain": "forest"}, 2.0, "Firefight TEC; Firefight 5.1", "move_cost"),
        d("terrain_effects", {"terrain": "town"}, 3.0, "Firefight TEC; Firefight 5.1", "move_cost"),
        d("terrain_effects", {"terrain": "forest"}, "yes", "Firefight 5.1", "blocks_los"),
        d("terrain_effects", {"terrain": "town"}, "yes", "Firefight 5.1", "blocks_los"),
        d("movement_costs", {"feature": "stream"}, 1.0, "Firefight TEC", "cost"),
        d("movement_costs", {"feature": "road"}, 0.5, "Firefight TEC; Firefight 7.1", "cost"),
        d("movement_costs", {"feature": "trail"}, 1.0, "Firefight TEC", "cost"),
        d("movement_costs", {"feature": "exit"}, 1.0, "Firefight 7.26", "cost"),
    ]
    return out


#: Unit-type values the text discloses (type, field, value, rule); checked by the tests.
DISCLOSED_UNITS: tuple[tuple[str, str, Any, str], ...] = (
    ("SU-T62", "ma", 3.0, "Firefight 7.23"),
    ("US-M60A1", "ma", 3.0, "Firefight 7.0"),
    ("US-M113Z", "ma", 3.0, "Firefight 27.11"),
    ("US-MICV", "ma", 4.0, "Firefight 27.21"),
    ("US-XM1", "ma", 5.0, "Firefight 27.31"),
    ("SU-XMBT", "ma", 5.0, "Firefight 27.41"),
    ("US-M113", "capacity", 8, "Firefight 7.43"),
    ("SU-BMP", "capacity", 8, "Firefight 7.43"),
    ("US-MICV", "capacity", 8, "Firefight 7.43"),
    ("US-VehX", "capacity", 4, "Firefight 7.43"),
    ("US-TM", "men", 4, "Firefight 3.3"),
    ("US-TM+", "men", 4, "Firefight 3.3"),
    ("US-MG", "men", 2, "Firefight 3.3"),
    ("US-MG+", "men", 3, "Firefight 3.3"),
    ("SU-TM", "men", 4, "Firefight 3.3"),
    ("SU-MG", "men", 2, "Firefight 3.3"),
    ("SU-MG+", "men", 3, "Firefight 3.3"),
)
