"""The Basic Game Card as data: movement costs, firing charts, grenade spread and blast, weapons.

Every value carries its provenance (a Firepower rule, ``transcription: Basic Game Card OCR
(unverified)`` as docs/decisions.md FPD-1 explains, or ``estimated``); see ``data/tables/*.csv``
and ``data/weapons.toml``. The rules functions read the plain dicts of :class:`BasicCard` (built
once, cached), never pint quantities or hook calls.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from hexwar.core.errors import DataError, RulesError
from hexwar.core.provenance import Records, Sourced, load_records
from hexwar.core.tables import Band, Disclosed, TableSet

DATA = Path(__file__).parent / "data"
TABLES = DATA / "tables"

#: posture names (Firepower 4.4)
POSTURES = ("stand", "crouch", "prone")
#: posture order for line of sight: Stand higher than Crouch higher than Prone (Firepower 6.3.4.4)
POSTURE_RANK = {"prone": 0, "crouch": 1, "stand": 2}


@dataclass(frozen=True)
class Weapon:
    """One weapon as data: rates of fire and ranges (Firepower 6.3.2, Firepower 6.3.5)."""

    code: str
    name: str
    modes: tuple[str, ...]
    max_range: int
    #: automatic rate "b X s": (bursts, shots per burst), Firepower 6.3.5.1
    automatic: tuple[int, int] | None = None
    #: semi-automatic shots, Firepower 6.3.5.2
    semi: int | None = None
    #: thrown: shots per Impulse, Firepower 6.3.5.3
    throw: int | None = None
    range_line: int | None = None
    blast_hit: int | None = None

    def rate_text(self) -> str:
        parts = []
        if self.automatic:
            parts.append(f"{self.automatic[0]}X{self.automatic[1]}")
        if self.semi:
            parts.append(str(self.semi))
        if self.throw:
            parts.append(str(self.throw))
        return "/".join(parts)


class BasicCard:
    """The loaded Basic Game Card tables (a user's table pack may replace them)."""

    def __init__(self, tables: TableSet, weapons: Records) -> None:
        self.tables = tables
        self.weapons_records = weapons
        self.mf = tables["basic_mf"]
        self.fire = tables["basic_fire"]
        self.blast = tables["grenade_blast"]
        self.spread = tables["grenade_spread"]
        self.modifiers_table = tables["basic_fire_modifiers"]
        #: BASIC GAME FIRING MODIFIERS by name (Firepower 6.3.6.2)
        self.mod: dict[str, int] = {
            str(row.keys[0]): int(row.values[0]) for row in self.modifiers_table.rows}
        self.weapons: dict[str, Weapon] = {}
        for code, w in weapons.values.items():
            auto = w.get("automatic")
            self.weapons[code] = Weapon(
                code=code, name=str(w["name"]), modes=tuple(w["modes"]),
                max_range=int(w["max_range"]),
                automatic=(int(auto[0]), int(auto[1])) if auto else None,
                semi=w.get("semi"), throw=w.get("throw"), range_line=w.get("range_line"),
                blast_hit=w.get("blast_hit"),
            )
        # plain dicts for the hot paths
        self._mf: dict[tuple[str, str], int] = {}
        for row in self.mf.rows:
            self._mf[(str(row.keys[0]), str(row.keys[1]))] = int(row.values[0])
        self._hit: dict[tuple[str, str, int], int] = {}
        for code, w in self.weapons.items():
            for mode in w.modes:
                for rng in range(1, w.max_range + 1):
                    try:
                        self._hit[(code, mode, rng)] = int(
                            self.fire.value(weapon=code, mode=mode, range=rng))
                    except LookupError:
                        continue
        self._blast = {_band_lo(row.keys[0]): int(row.values[0]) for row in self.blast.rows}
        self._spread: dict[int, tuple[int, ...]] = {}
        for row in self.spread.rows:
            self._spread[_band_lo(row.keys[0])] = tuple(int(x) for x in str(row.values[0]).split())

    # -- movement ----------------------------------------------------------------------------------
    def mf_cost(self, action: str, posture: str) -> int:
        """MF to perform ``action`` in ``posture`` (Firepower 6.2, BASIC GAME MF CHART)."""
        try:
            return self._mf[(action, posture)]
        except KeyError:
            raise RulesError(f"a soldier may not {action} while {posture} (no chart entry)",
                             rule="Firepower 6.2") from None

    def mf_source(self, action: str, posture: str) -> str:
        return str(self.mf.lookup(action=action, posture=posture).source)

    # -- fire --------------------------------------------------------------------------------------
    def hit_number(self, weapon: str, mode: str, rng: int) -> int:
        """Hit number from the BASIC GAME FIRING CHARTS (Firepower 6.3.6.1); RulesError if the range
        has no number (Firepower 6.3.2)."""
        try:
            return self._hit[(weapon, mode, rng)]
        except KeyError:
            if weapon not in self.weapons:
                raise RulesError(f"unknown weapon {weapon!r}", rule="Firepower 1.2.1") from None
            if mode not in self.weapons[weapon].modes:
                raise RulesError(f"{weapon} has no {mode} rate of fire",
                                 rule="Firepower 6.3.5") from None
            raise RulesError(f"{weapon} cannot fire at range {rng} (no number on the chart)",
                             rule="Firepower 6.3.2") from None

    def hit_source(self, weapon: str, mode: str, rng: int) -> Sourced[Any]:
        return self.fire.lookup(weapon=weapon, mode=mode, range=rng)

    def in_range(self, weapon: str, mode: str, rng: int) -> bool:
        """Firepower 6.3.2: a range is in reach when the chart holds a number for it."""
        return (weapon, mode, rng) in self._hit

    def blast_modifier(self, distance: int) -> int | None:
        """GRENADE BLAST DIAGRAM modifier (Firepower 6.3.6.3.2.2); None beyond the blast zone."""
        return self._blast.get(distance)

    def spread_path(self, roll: int) -> tuple[int, ...]:
        """GRENADE SPREAD DIAGRAM (Firepower 6.3.6.3.2.1, stand-in data): hexside turns from
        the entry hexside leading from the target hex to the hex numbered ``roll``."""
        return self._spread[roll]


@cache
def card() -> BasicCard:
    """The shipped Basic Game Card data (cached)."""
    return BasicCard(TableSet.load_dir(TABLES), load_records(DATA / "weapons.toml"))


def card_with_pack(pack_dir: str | Path) -> BasicCard:
    """The Basic Game Card with a user's table pack replacing shipped tables by name."""
    return BasicCard(TableSet.load_dir(TABLES).with_pack(pack_dir),
                     load_records(DATA / "weapons.toml"))


def disclosed() -> list[Disclosed]:
    """Every Basic Game Card number the rules text discloses (checked by ``hexwar data check``)."""
    d: list[Disclosed] = []

    def mf(action: str, posture: str, value: int, rule: str) -> None:
        d.append(Disclosed("basic_mf", {"action": action, "posture": posture}, value, rule))

    mf("to_prone", "stand", 1, "Firepower 6.2.4")
    mf("to_stand", "prone", 2, "Firepower 6.2.4")
    mf("enter", "stand", 1, "Firepower 6.2.7.1")
    mf("turn", "stand", 1, "Firepower 6.2.7.1")
    mf("cross", "stand", 1, "Firepower 6.2.7.2")
    for p in POSTURES:
        mf("fire", p, 2, "Firepower 6.3.5")

    def hit(weapon: str, mode: str, rng: int, value: int, rule: str) -> None:
        d.append(Disclosed("basic_fire", {"weapon": weapon, "mode": mode, "range": rng}, value,
                           rule))

    for rng in range(13, 21):
        hit("LMG", "auto", rng, 3, "Firepower 6.3.6.1")
    hit("LMG", "auto", 30, 3, "Firepower 6.3.6.3.1")
    for rng in (3, 4, 5):
        hit("HGN", "throw", rng, 5, "Firepower 6.3.2.1.1")
    for rng in (6, 7, 8):
        hit("HGN", "throw", rng, 2, "Firepower 6.3.2.1.1")
    for name, value, rule in (
            ("firer_suppressed", 1, "Firepower 6.3.6.2.1"),
            ("target_in_cover", 1, "Firepower 6.3.6.2.2"),
            ("target_concealed", 1, "Firepower 6.3.6.2.3"),
            ("target_crouching", 1, "Firepower 6.3.6.2.4"),
            ("target_prone", 2, "Firepower 6.3.6.2.4"),
            ("per_tree_or_hedge", 1, "Firepower 6.3.6.2.5"),
            ("target_running", 2, "Firepower 6.3.6.2.6"),
            ("per_firer_mf", 1, "Firepower 6.3.6.2.7")):
        d.append(Disclosed("basic_fire_modifiers", {"modifier": name}, value, rule))
    for dist, value in ((0, 0), (1, 3), (2, 4)):
        d.append(Disclosed("grenade_blast", {"distance": dist}, value, "Firepower 6.3.6.3.2.2"))
    return d


def disclosed_weapons() -> list[tuple[str, Any, str]]:
    """Weapon values the text discloses: (dotted key in weapons.toml, value, rule)."""
    return [
        ("LMG.automatic", [3, 4], "Firepower 6.3.5.1"),
        ("RFL.automatic", [2, 3], "Firepower 6.3.5.2"),
        ("RFL.semi", 2, "Firepower 6.3.5.2"),
        ("PST.max_range", 8, "Firepower 6.3.2"),
        ("PST.modes", ["semi"], "Firepower 6.3.5.3"),
        ("HGN.throw", 1, "Firepower 6.3.5.3"),
        ("HGN.max_range", 8, "Firepower 6.3.2.1.1"),
        ("HGN.range_line", 5, "Firepower 6.3.2.1.1"),
        ("HGN.blast_hit", 5, "Firepower 6.3.6.3.2.2"),
    ]


def table_names() -> list[str]:
    return sorted(TableSet.load_dir(TABLES))


def _band_lo(key: Band | str) -> int:
    if isinstance(key, Band) and key.lo is not None:
        return key.lo
    raise DataError(f"expected a one-number band, got {key!r}")
