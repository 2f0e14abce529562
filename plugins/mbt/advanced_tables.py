"""The Advanced Game charts of MBT as data (``data/advanced/``), read into plain lookups.

* ``los_chart.csv``: the LINE OF SIGHT CHART (MBT 13.2.1.4), a stand-in that keeps the line the
  text prints (``tools/mbt/build_advanced.py`` writes it);
* ``terrain_heights.csv``: the heights of trees and buildings above their ground (MBT 12.1.2,
  the STANDARD TERRAIN VALUES CHART; stand-in);
* ``ap_advanced.csv``, ``ap_grade.csv``, ``ap_sights.csv``: the Advanced AP modifiers the text
  prints (MBT 14.3.1, 14.3.2);
* ``gp_modifiers.csv``, ``gp_grade.csv``: the GP modifiers the text prints (MBT 14.4.2);
  ``ca_modifiers.csv``: the close assault modifiers (MBT 14.5.3); ``h2h_modifiers.csv`` and
  ``h2h.csv``: the hand-to-hand modifiers (MBT 14.6.3) and a stand-in HAND-TO-HAND COMBAT TABLE;
  ``gp_crt.csv``: the GP COMBAT RESULTS TABLE (MBT 14.4.4.1), a stand-in that keeps the text's
  example (``tools/mbt/build_advanced.py``);
* ``vehicles.csv``: the smoke makers of the data cards and whether they are wheeled (MBT 12.6,
  15.7, 12.4.6; stand-in);
* ``marker_costs.csv``: what terrain markers do to vehicle movement (MBT 12.4.3-12.4.6);
* ``heavy_woods.csv``: heavy woods for a vehicle whose card prints no cost for them (stand-in);
* ``leg_defense.csv``: leg units' GP defense by terrain and status (MBT 14.4.3.2; stand-in keeping
  the printed rough/NM 4); ``cards/``: the stand-in leg unit cards.

Every value carries its source (a rule, or ``estimated``), as in ``docs/data-format.md``.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from hexwar.core.errors import DataError
from hexwar.core.tables import TableSet
from hexwar.plugins.mbt.tables import Sourced

ADVANCED = Path(__file__).resolve().parent / "data" / "advanced"


@dataclass(frozen=True)
class LosLine:
    """One line of one column of the LINE OF SIGHT CHART: the ranges it holds and its cells by
    the height of the higher end over the obstacle (MBT 13.2.1.4.1-13.2.1.4.2)."""

    diff: int
    line: int
    low: int
    high: int
    cells: dict[int, tuple[int, ...]]
    source: str


def _numbers(text: str, where: str) -> tuple[int, ...]:
    try:
        return tuple(int(x) for x in text.split("-"))
    except ValueError:
        raise DataError(f"{where}: {text!r} is not numbers joined by '-' (e.g. 10-12-12)") from None


def _key(band: object) -> int:
    lo = getattr(band, "lo", None)
    if not isinstance(lo, int):
        raise DataError(f"los_chart.csv: {band!r} is not a number")
    return lo


class AdvancedCharts:
    """Lookups over the Advanced charts."""

    def __init__(self, tables: TableSet) -> None:
        self.tables = tables
        self.general: dict[str, Sourced] = {}
        for row, _col, cell in tables["ap_advanced"].cells():
            self.general[str(row.keys[0])] = Sourced(int(cell.value), cell.source)
        self._grade = tables["ap_grade"]
        self._gp_grade = tables["gp_grade"]
        self._gp_crt = tables["gp_crt"]
        self.ca: dict[str, Sourced] = {}
        for row, _col, cell in tables["ca_modifiers"].cells():
            self.ca[str(row.keys[0])] = Sourced(int(cell.value), cell.source)
        self.h2h_mods: dict[str, Sourced] = {}
        for row, _col, cell in tables["h2h_modifiers"].cells():
            self.h2h_mods[str(row.keys[0])] = Sourced(int(cell.value), cell.source)
        self.h2h: dict[tuple[str, str], Sourced] = {}
        for row, _col, cell in tables["h2h"].cells():
            self.h2h[(str(row.keys[0]), str(row.keys[1]))] = Sourced(int(cell.value), cell.source)
        self.leg_defense: dict[tuple[str, str, str], Sourced] = {}
        for row, _col, cell in tables["leg_defense"].cells():
            k = row.keys
            self.leg_defense[(str(k[0]), str(k[1]), str(k[2]))] = Sourced(int(cell.value),
                                                                           cell.source)
        self.temp_sup: dict[int, tuple[int, int, str]] = {}
        ts = tables["temp_sup"]
        for row in ts.rows:
            vals = dict(zip(ts.value_names, row.values, strict=True))
            self.temp_sup[_key(row.keys[0])] = (int(vals["ap"]), int(vals["gp"]), row.sources[0])
        self.gp: dict[str, Sourced] = {}
        for row, _col, cell in tables["gp_modifiers"].cells():
            self.gp[str(row.keys[0])] = Sourced(int(cell.value), cell.source)
        self._sights = tables["ap_sights"]
        self.obstacle: dict[str, Sourced] = {}
        for row, _col, cell in tables["terrain_heights"].cells():
            self.obstacle[str(row.keys[0])] = Sourced(int(cell.value), cell.source)
        self.smoke_ds: dict[str, int] = {}
        self.smoke_ex: dict[str, int] = {}
        self.wheeled: dict[str, bool] = {}
        veh = tables["vehicles"]
        for row in veh.rows:
            vals = dict(zip(veh.value_names, row.values, strict=True))
            self.smoke_ds[str(row.keys[0])] = int(vals["smoke_ds"])
            self.smoke_ex[str(row.keys[0])] = int(vals["smoke_ex"])
            self.wheeled[str(row.keys[0])] = bool(int(vals["wheeled"]))
        #: MBT Scenario One A.3: heavy woods beyond the card's woods cost, by drive (stand-in)
        self.heavy_woods: dict[str, int | None] = {}
        hw = tables["heavy_woods"]
        for row in hw.rows:
            text = str(dict(zip(hw.value_names, row.values, strict=True))["extra"])
            self.heavy_woods[str(row.keys[0])] = None if text == "P" else int(text)
        self.marker_costs: dict[tuple[str, str], int | None] = {}
        mc = tables["marker_costs"]
        for row in mc.rows:
            vals = dict(zip(mc.value_names, row.values, strict=True))
            for drive in ("tracked", "wheeled"):
                text = str(vals[drive])
                self.marker_costs[(str(row.keys[0]), drive)] = None if text == "P" else int(text)
        self.los: dict[int, list[LosLine]] = {}
        chart = tables["los_chart"]
        names = chart.value_names
        for row in chart.rows:
            vals = dict(zip(names, row.values, strict=True))
            diff, line = _key(row.keys[0]), _key(row.keys[1])
            where = f"los_chart.csv line {row.line}"
            rng = _numbers(str(vals["ranges"]), where)
            cells = {int(n[1:]): _numbers(str(v), where) for n, v in vals.items()
                     if n.startswith("k") and v not in (None, "")}
            self.los.setdefault(diff, []).append(
                LosLine(diff, line, rng[0], rng[-1], cells, row.sources[0]))
        for lines in self.los.values():
            lines.sort(key=lambda x: x.line)

    def grade_modifier(self, grade: str, rng: int) -> Sourced:
        """MBT 14.3.1.3: the firer grade modifier at a range."""
        got = self._grade.lookup(grade=grade, range=rng)
        return Sourced(int(got.value), got.source)

    def gp_grade_modifier(self, grade: str, rng: int) -> Sourced:
        """MBT 14.4.2.4: the firer grade modifier of GP fire at a range."""
        got = self._gp_grade.lookup(grade=grade, range=rng)
        return Sourced(int(got.value), got.source)

    def gp_thresholds(self, gp: int, defense: int) -> tuple[int, int, str]:
        """MBT 14.4.4.1: the N and S numbers of the GP COMBAT RESULTS TABLE (clamped to its
        edges) and their source."""
        row = self._gp_crt.lookup_row(gp=max(1, gp), defense=max(1, defense))
        return int(row["n"].value), int(row["s"].value), row["n"].source

    def sight_modifier(self, sight: str, rng: int) -> Sourced | None:
        """MBT 14.3.2: the modifier of a laser (L, C) or stereo (S) sight at a range; None for a
        sight without range modifiers or a range beyond the chart."""
        try:
            got = self._sights.lookup(sight=sight, range=rng)
        except LookupError:
            return None
        return Sourced(int(got.value), got.source)

    def los_cell(self, diff: int, rng: int, k: int) -> tuple[tuple[int, ...], LosLine]:
        """MBT 13.2.1.4.1-13.2.1.4.2: in column ``diff`` the line holding ``rng`` (the last line
        for longer ranges, the widest column for larger differences), then the cell of column
        ``k``. An empty cell is ``()``: nothing lies that far without blocking."""
        cols = sorted(self.los)
        col = self.los[diff] if diff in self.los else self.los[cols[-1]]
        line = next((x for x in col if x.low <= rng <= x.high), col[-1])
        return line.cells.get(k, ()), line


@lru_cache(maxsize=4)
def load_advanced(folder: str = str(ADVANCED)) -> AdvancedCharts:
    return AdvancedCharts(TableSet.load_dir(folder))
