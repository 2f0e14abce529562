"""The Game Card charts of the Basic Game as data (MBT 1.4), read into plain dicts.

The CSV files in ``data/tables/`` carry a source per value (a rule reference, or ``estimated``). A user's
table pack (``HEXWAR_MBT_TABLES``, ``--tables``, or a scenario's ``[special] tables``) replaces
shipped tables by name; :func:`disclosed` lists every number the rulebook prints so
``hexwar data check mbt`` can compare a pack with the text.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from hexwar.core.tables import Disclosed, TableLookupError, TableSet

TABLES = Path(__file__).resolve().parent / "data" / "tables"


@dataclass(frozen=True)
class Sourced:
    value: int
    source: str


class Charts:
    """Fast lookups over a :class:`TableSet` of the MBT charts."""

    def __init__(self, tables: TableSet) -> None:
        self.tables = tables
        self.sight: dict[tuple[str, str, str, str], int] = {}
        for row, _col, cell in tables["sighting"].cells():
            k = row.keys
            self.sight[(str(k[0]), str(k[1]), str(k[2]), str(k[3]))] = int(cell.value)
        self.ap_terrain: dict[str, Sourced] = {}
        for row, _col, cell in tables["ap_terrain"].cells():
            self.ap_terrain[str(row.keys[0])] = Sourced(int(cell.value), cell.source)
        self.ap_movement: dict[tuple[str, str, str], Sourced] = {}
        for row, _col, cell in tables["ap_movement"].cells():
            k = row.keys
            self.ap_movement[(str(k[0]), str(k[1]), str(k[2]))] = Sourced(int(cell.value), cell.source)
        self.general: dict[str, Sourced] = {}
        for row, _col, cell in tables["ap_general"].cells():
            self.general[str(row.keys[0])] = Sourced(int(cell.value), cell.source)
        self.terrain: dict[str, tuple[int, str, int]] = {}
        te = tables["terrain_effects"]
        for row in te.rows:
            name = str(row.keys[0])
            vals = dict(zip(te.value_names, row.values, strict=True))
            self.terrain[name] = (int(vals["sight_column"]), str(vals["basic_los"]),
                                  int(vals["basic_height"]))
        self._hit_table = tables["ap_hit"]
        self._nhits_table = tables["number_of_hits"]
        self._hit: dict[tuple[int, int], Sourced] = {}
        self._nhits: dict[tuple[int, int], dict[int, int]] = {}

    def hit_number(self, ap: int, modifier: int) -> Sourced:
        """MBT 7.4.3: the hit number for an AP factor and a net modifier (clamped to the chart's
        edges when off it)."""
        key = (ap, modifier)
        got = self._hit.get(key)
        if got is None:
            cell = self._hit_table.lookup_clamped(ap=ap, modifier=modifier)
            got = self._hit[key] = Sourced(int(cell.value), cell.source)
        return got

    def hit_thresholds(self, hit: int, rof: int) -> dict[int, int]:
        """MBT 7.4.4.2: upper roll for each number of hits k >= 2 (k -> threshold)."""
        key = (hit, rof)
        got = self._nhits.get(key)
        if got is None:
            got = {}
            try:
                row = self._nhits_table.lookup_row(hit=hit, rof=rof)
            except TableLookupError:
                row = self._nhits_table.lookup_row(hit=max(1, min(99, hit)), rof=max(2, min(5, rof)))
            for k in (5, 4, 3, 2):
                cell = row.get(f"hits_{k}")
                if cell is not None and cell.value is not None:
                    got[k] = int(cell.value)
            self._nhits[key] = got
        return got

    def sighting_range(self, sighter: str, terrain: str, target: str = "VH",
                       condition: str = "Day") -> int:
        """MBT 6.1.3: the SIGHTING RANGES CHART entry."""
        return self.sight[(condition, sighter, terrain, target)]


def table_dirs_from_env() -> tuple[str, ...]:
    raw = os.environ.get("HEXWAR_MBT_TABLES", "")
    return tuple(p for p in raw.split(os.pathsep) if p)


@lru_cache(maxsize=8)
def _charts(packs: tuple[str, ...], stamps: tuple[tuple[str, int, int], ...]) -> Charts:
    tables = TableSet.load_dir(TABLES)
    for p in packs:
        tables = tables.with_pack(p)
    return Charts(tables)


def load_charts(packs: tuple[str, ...] = ()) -> Charts:
    """The charts, with user packs applied in order (then ``HEXWAR_MBT_TABLES``); cached while the
    pack files are unchanged."""
    dirs = tuple(str(Path(p).resolve()) for p in packs) + table_dirs_from_env()
    stamps = tuple((str(f), f.stat().st_mtime_ns, f.stat().st_size)
                   for d in dirs for f in sorted(Path(d).glob("*")) if f.is_file())
    return _charts(dirs, stamps)


def disclosed() -> list[Disclosed]:
    """Every Game Card number the rulebook text discloses (Basic Game charts)."""
    D = Disclosed
    out = [
        D("sighting", {"condition": "Day", "sighter": "Open", "terrain": "scrub", "target": "VH"}, 7,
          "MBT 6.1.3.4"),
        D("sighting", {"condition": "Day", "sighter": "Buttoned", "terrain": "scrub", "target": "VH"},
          10, "MBT 6.1.3.4"),
        D("sighting", {"condition": "Day", "sighter": "Open", "terrain": "woods", "target": "VH"}, 5,
          "MBT 7.4.8"),
        D("sighting", {"condition": "Day", "sighter": "Open", "terrain": "improved_position",
                       "target": "VH"}, 3, "MBT 17.6.1.1"),
        D("ap_terrain", {"terrain": "scrub"}, -2, "MBT 7.4.2"),
        D("ap_terrain", {"terrain": "rough"}, -4, "MBT 7.4.2.1"),
        D("ap_terrain", {"terrain": "woods"}, -6, "MBT 7.4.8"),
        D("ap_terrain", {"terrain": "improved_position"}, -10, "MBT 14.3.1.2"),
        D("ap_terrain", {"terrain": "inside_building"}, -8, "MBT 14.3.1.2"),
        D("ap_movement", {"firer": "stab-2", "firer_moving": "MV", "target_moving": "MV"}, -5,
          "MBT 7.4.2.2"),
        D("ap_general", {"name": "acquisition_per_turn"}, 2, "MBT 7.4.2.3.1"),
        D("ap_general", {"name": "brewup_smoke_per_hex"}, -5, "MBT 7.4.2.3.3"),
        D("ap_general", {"name": "overwatch_target_nm"}, -2, "MBT 7.4.2.4"),
        D("ap_general", {"name": "overwatch_target_mv"}, -5, "MBT 7.4.2.4"),
        D("ap_hit", {"ap": 14, "modifier": -3}, 56, "MBT 7.4.3"),
        D("ap_hit", {"ap": 18, "modifier": -6}, 59, "MBT 7.4.8"),
        D("number_of_hits", {"hit": 65, "rof": 4}, 10, "MBT 7.4.4.2", column="hits_4"),
        D("number_of_hits", {"hit": 65, "rof": 4}, 20, "MBT 7.4.4.2", column="hits_3"),
        D("number_of_hits", {"hit": 65, "rof": 4}, 29, "MBT 7.4.4.2", column="hits_2"),
    ]
    for line in ("stab-0", "stab-1", "stab-2", "stab-3", "class-1", "class-2", "class-3"):
        out.append(D("ap_movement", {"firer": line, "firer_moving": "NM", "target_moving": "NM"}, 0,
                     "MBT 7.4.8"))
    return out
