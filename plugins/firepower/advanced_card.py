"""The Advanced Game Card's charts as hexwar holds them (Firepower 12; folder
``data/advanced_card``): the LINE OF SIGHT CHART (Firepower 12.1.4), the FIRING, BLAST, AND
SIGHTING MODIFIERS (Firepower 12.2), the Observation Conditions modifier (Firepower 12.2.11), the
MOVEMENT MODIFIERS CHART (Firepower 12.2.12), the BLAST DIAGRAMS (Firepower 12.3.4.1), the canister
range modifiers (Firepower 12.3.2.1) and the WEAPON CHART hit numbers (Firepower 10.7 item 6).

The card is not in the rules text: the tables are stand-ins, every value ``estimated`` except
those the text discloses (cited; :func:`disclosed` lists them for ``hexwar data check
firepower``; docs/decisions.md FPD-50..FPD-53). A user's table pack replaces any of them by name.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

from hexwar.core.errors import RulesError
from hexwar.core.tables import Band, Disclosed, TableSet

FOLDER = Path(__file__).parent / "data" / "advanced_card"
#: Firepower 12.2.11: the fire the Observation Conditions modifier applies to
OC_LETTERS = "AGHLMSUW"


@dataclass(frozen=True)
class ChartLine:
    """The LINE OF SIGHT CHART line a check used (Firepower 12.1.4.1) and the cell it read
    (Firepower 12.1.4.2)."""

    line: int
    difference: int          # the ends' height difference (the column of 12.1.4.1)
    obstacle_column: int     # the obstacle's difference from the higher end (12.1.4.2)
    max_distance: int        # the cell's highest number


@dataclass
class AdvancedCard:
    """The Advanced Game Card tables, with lookups by rule."""

    tables: TableSet
    _los: dict[tuple[int, int], tuple[int, int]] = field(default_factory=dict, repr=False)

    def __post_init__(self) -> None:
        t = self.tables["los_chart"]
        for row, _col, _cell in t.cells():
            line, diff = (int(k.lo) if isinstance(k, Band) and k.lo is not None else int(str(k))
                          for k in row.keys)
            lo = t.value("lo", line=line, height_difference=diff)
            hi = t.value("hi", line=line, height_difference=diff)
            self._los[(line, diff)] = (int(lo), int(hi))
        self.lines = max(k[0] for k in self._los)
        self.columns = max(k[1] for k in self._los)

    # -- Firepower 12.1.4 --------------------------------------------------------------------
    def los_line(self, difference: int, rng: int) -> int:
        """Firepower 12.1.4.1: down the column of the ends' height difference to the first line
        whose cell holds the range (the last line if none does; a difference beyond the chart
        reads its last column)."""
        col = min(max(difference, 1), self.columns)
        for line in range(1, self.lines + 1):
            lo, hi = self._los[(line, col)]
            if lo <= rng <= hi:
                return line
        return self.lines

    def los_check(self, difference: int, rng: int, obstacle_column: int) -> ChartLine:
        """Firepower 12.1.4.1-12.1.4.2: the line, and the highest number of the obstacle's column
        on it: the furthest the obstacle may be from the higher end without blocking."""
        line = self.los_line(difference, rng)
        col = min(max(obstacle_column, 1), self.columns)
        return ChartLine(line, difference, obstacle_column, self._los[(line, col)][1])

    # -- Firepower 12.2 ----------------------------------------------------------------------
    def mod(self, name: str) -> int:
        return int(self.tables["advanced_fire_modifiers"].value("value", modifier=name))

    def applies(self, name: str, letter: str) -> bool:
        """Firepower 12.2: a modifier applies only to the fire its letters list."""
        return letter in str(self.tables["advanced_fire_modifiers"].value("letters",
                                                                           modifier=name))

    def observation(self, oc: int) -> int:
        """Firepower 12.2.11: Observation Conditions 2 +1, 3 +2."""
        return int(self.tables["observation"].value(oc=min(max(oc, 1), 3)))

    def movement(self, firer_mf: int, target_hexes: int) -> int:
        """Firepower 12.2.12: the MOVEMENT MODIFIERS CHART cell."""
        return int(self.tables["movement_modifiers"].value(firer_mf=min(max(firer_mf, 0), 5),
                                                           target_hexes=min(target_hexes, 6)))

    # -- Firepower 12.3 ----------------------------------------------------------------------
    def blast_modifier(self, blast: int, distance: int) -> int | None:
        """Firepower 12.3.4.1: the BLAST DIAGRAM of the blast number's size; None outside the
        blast zone."""
        try:
            return int(self.tables["blast_diagrams"].value(blast=max(blast, 1), distance=distance))
        except LookupError:
            return None

    def blast_reach(self, blast: int) -> int:
        d = 0
        while self.blast_modifier(blast, d + 1) is not None:
            d += 1
        return d

    def canister(self, weapon: str, rng: int) -> int | None:
        """Firepower 12.3.2.1: the canister range modifier (PMN2 its own row); None beyond."""
        w = "PMN2" if weapon == "PMN2" else "any"
        try:
            return int(self.tables["canister_range"].value(weapon=w, range=rng))
        except LookupError:
            return None

    def hit_number(self, weapon: str, ammo: str, mode: str, rng: int) -> int:
        """Firepower 10.7 item 6: the WEAPON CHART hit number; RulesError naming the rule when the
        range is out of the weapon's reach or inside its minimum range (the chart's "-")."""
        try:
            return int(self.tables["weapon_hits"].value(weapon=weapon, ammo=ammo, mode=mode,
                                                        range=rng))
        except LookupError:
            raise RulesError(f"{weapon} has no hit number for {ammo} {mode} at range {rng} "
                             f"(out of range or inside its minimum range)",
                             rule="Firepower 10.7") from None

    def has_hits(self, weapon: str, ammo: str, mode: str) -> bool:
        t = self.tables["weapon_hits"]
        return any(r.keys[0] == weapon and r.keys[1] == ammo and r.keys[2] == mode
                   for r, _c, _v in t.cells())

    def max_range(self, weapon: str, ammo: str, mode: str) -> int:
        t = self.tables["weapon_hits"]
        his = [k.hi for r, _c, _v in t.cells() if r.keys[:3] == (weapon, ammo, mode)
               for k in (r.keys[3],) if isinstance(k, Band) and k.hi is not None]
        return max(his, default=0)


@cache
def advanced_card() -> AdvancedCard:
    return AdvancedCard(TableSet.load_dir(FOLDER))


def disclosed() -> list[Disclosed]:
    """Every Advanced Game Card number the text discloses (``hexwar data check firepower``)."""
    d: list[Disclosed] = [
        # FP-47: column 2, line 4 holds 20-24; column 1 of line 4 ends at 12
        Disclosed("los_chart", {"line": 4, "height_difference": 2}, 20, "Firepower 12.1.4.1",
                  column="lo"),
        Disclosed("los_chart", {"line": 4, "height_difference": 2}, 24, "Firepower 12.1.4.1",
                  column="hi"),
        Disclosed("los_chart", {"line": 4, "height_difference": 1}, 12, "Firepower 12.1.4.2",
                  column="hi"),
        # FP-48: column 7, line 13 holds 10-12; column 5 of line 13 holds 8-9
        Disclosed("los_chart", {"line": 13, "height_difference": 7}, 10, "Firepower 12.1.4.4",
                  column="lo"),
        Disclosed("los_chart", {"line": 13, "height_difference": 7}, 12, "Firepower 12.1.4.4",
                  column="hi"),
        Disclosed("los_chart", {"line": 13, "height_difference": 5}, 8, "Firepower 12.1.4.4",
                  column="lo"),
        Disclosed("los_chart", {"line": 13, "height_difference": 5}, 9, "Firepower 12.1.4.4",
                  column="hi"),
        Disclosed("movement_modifiers", {"firer_mf": 1, "target_hexes": 4}, 3,
                  "Firepower 12.2.12.3"),
        Disclosed("canister_range", {"weapon": "any", "range": 5}, 1, "Firepower 12.3.2.1"),
    ]
    for oc, v in ((1, 0), (2, 1), (3, 2)):
        d.append(Disclosed("observation", {"oc": oc}, v, "Firepower 12.2.11"))
    for name, v, rule in (
            ("firer_suppressed", 1, "Firepower 12.2.2"), ("firer_pinned", 2, "Firepower 12.2.2"),
            ("target_loophole", 2, "Firepower 12.2.3"), ("target_in_cover", 1, "Firepower 12.2.3"),
            ("target_concealed", 1, "Firepower 12.2.4"),
            ("target_crouching", 1, "Firepower 12.2.5"), ("target_prone", 2, "Firepower 12.2.5"),
            ("per_tree_or_hedge", 1, "Firepower 12.2.6"), ("per_smoke_fm", 3, "Firepower 12.2.7"),
            ("per_smoke_w", 2, "Firepower 12.2.7"),
            ("per_height_from_impact", 1, "Firepower 12.2.8"), ("scope", -1, "Firepower 12.2.9"),
            ("laser_sight", -2, "Firepower 12.2.9"), ("per_wall_height", -1, "Firepower 12.2.10"),
            ("body_armour", 1, "Firepower 12.4.8")):
        d.append(Disclosed("advanced_fire_modifiers", {"modifier": name}, v, rule,
                           column="value"))
    return d
