"""The Advanced Game's WEAPON CHART (Firepower 10.7): one stand-in row per weapon or item in
``data/advanced/weapons.toml`` (written by tools/firepower/make_weapon_chart.py; every value
``estimated`` unless a rule discloses it, then cited), the hit numbers by range in
``data/advanced_card/weapon_hits.csv`` (:mod:`~hexwar.plugins.firepower.advanced_card`). A
soldier of an Advanced scenario names his chart row in ``state.model`` (``RFL10``, ``LMG4``...)
and carries his items in ``state.equipment`` (``{HGN3 = 2, DMC1 = 1}``, Firepower 8.5).

Columns used: ammunition types (item 4), rates of fire per type (item 5: ``b x s``, ``n``,
``auto/semi``, ``1+L``), blast and penetration per type (items 7, 8), Move (item 9), Posture
(item 10), crew (item 11, Firepower 10.1), minimum ranges (Firepower 12.4.1.1, 12.4.2), range
lines (Firepower 6.3.2.1.1), uses (Firepower 12.3.3), notes (B bipod, T tripod, Y bayonet).
Vehicles' weapons (Option 19) add rows of the same shape.

General purpose machineguns (Firepower 10.7 items 2, 5; docs/decisions.md FPD-172): a ``GMGn``
row has two uses, ``as_L`` and ``as_M``, each with its rate of fire and the columns its mount
changes. A scenario never names ``GMGn``: it lists ``LMGn`` (the bipod use, an LMG soldier unit)
or ``MMGn`` (the tripod use, an MMG soldier unit), and :func:`chart` holds those two rows in its
place; :func:`listing_problem` names a scenario that lists ``GMGn`` itself.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from hexwar.core.errors import DataError, RulesError
from hexwar.core.provenance import Records, load_records

PATH = Path(__file__).parent / "data" / "advanced" / "weapons.toml"
POSTURES = ("stand", "crouch", "prone")
#: Firepower 10.7 item 2: a general purpose machinegun's class, and the class (and soldier unit)
#: it is listed as in each use, with that use's mount
GMG = "GMG"
GMG_USES = {"as_L": ("LMG", "bipod"), "as_M": ("MMG", "tripod")}


@dataclass(frozen=True)
class ChartWeapon:
    """One WEAPON CHART row (Firepower 10.7)."""

    id: str
    cls: str
    name: str
    types: tuple[str, ...]
    move: int
    posture: tuple[str, str, str]
    crew: int
    fires_as: str
    rof: dict[str, str] = field(default_factory=dict)
    blast: dict[str, int] = field(default_factory=dict)
    penetration: dict[str, int] = field(default_factory=dict)
    impact: str = ""
    notes: str = ""
    min_range: int = 0
    range_line: int = 0
    uses: int = 0
    modes: tuple[str, ...] = ()
    high_trajectory: bool = False
    by_hand: bool = False
    no_status: bool = False
    backblast: bool = False
    load: tuple[int, int] | None = None
    #: Firepower 12.4.1.1: a rifle grenade that must be loaded on the rifle before it is fired
    separate_load: bool = False
    #: Firepower 12.4.6: hexes a missile's control box may be from the missile unit
    separation: int = 0
    #: Firepower 10.7 item 2: the GMG row this listing (LMG2, MMG2) uses, else ""
    gmg: str = ""

    @property
    def mount(self) -> str:
        """Firepower 10.7 item 2: "tripod" (notes T), "bipod" (notes B) or ""."""
        return "tripod" if self.tripod else "bipod" if "B" in self.notes else ""

    @property
    def soldier_unit(self) -> str:
        """Firepower 10.7 item 2: the soldier unit that carries the weapon; a GMG listed as an
        LMG uses an LMG soldier unit, as an MMG an MMG soldier unit (its class here)."""
        return self.cls

    @property
    def bayonet(self) -> bool:
        """Firepower 13.6: "Y" in the notes."""
        return "Y" in self.notes

    @property
    def tripod(self) -> bool:
        return "T" in self.notes

    @property
    def grenade_launcher(self) -> bool:
        """Firepower 10.7 item 15: "G", the weapon has a rifle grenade launcher (Firepower
        12.4.1.1: a rifle with a GLR3 attached has none)."""
        return "G" in self.notes

    @property
    def is_grenade(self) -> bool:
        """Hand grenades (HGN, and HRG thrown) follow the range line (Firepower 6.3.2.1.1)."""
        return self.cls in ("HGN", "HRG")

    def rate(self, ammo: str) -> tuple[tuple[int, int] | None, int | None]:
        """Firepower 10.7 item 5: (bursts, shots) of automatic fire and the semi-automatic
        shots for ``ammo``; "1+L" loading counts as one shot once loaded."""
        text = self.rof.get(ammo, "1").split("+")[0]
        auto: tuple[int, int] | None = None
        semi: int | None = None
        for part in text.split("/"):
            if "x" in part:
                b, n = part.split("x")
                auto = (int(b), int(n))
            else:
                semi = int(part)
        return auto, semi

    def blast_of(self, ammo: str, mode: str = "") -> int:
        """Firepower 10.7 item 7: the blast hit number of ``ammo`` (a defensive grenade's own,
        Firepower 12.4.1.3)."""
        if mode == "defensive" and "defensive" in self.blast:
            return self.blast["defensive"]
        if ammo not in self.blast:
            raise RulesError(f"{self.id} has no blast for {ammo} ammunition",
                             rule="Firepower 10.7")
        return self.blast[ammo]

    def posture_entry(self, posture: str) -> str:
        """The Posture column of ``posture`` (an Up soldier uses Stand, Firepower 11.1.11)."""
        p = "stand" if posture == "up" else posture
        if p not in POSTURES:
            raise RulesError(f"no posture {posture!r}", rule="Firepower 10.5")
        return self.posture[POSTURES.index(p)]

    def may_fire(self, posture: str) -> bool:
        """Firepower 10.7 item 10: "-" means the weapon may not be fired from the posture."""
        return self.posture_entry(posture) != "-"

    def posture_modifier(self, posture: str) -> int:
        """Firepower 12.2.1: the Posture column's modifier ("X" = 0)."""
        e = self.posture_entry(posture)
        if e == "-":
            raise RulesError(f"{self.id} may not be fired {posture}", rule="Firepower 10.7")
        return 0 if e == "X" else int(e)


@cache
def records() -> Records:
    return load_records(PATH)


def _gmg_uses(wid: str, row: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """Firepower 10.7 items 2, 5: the rows a GMG row stands for, by listing (``GMG2`` ->
    ``LMG2`` used as L with a bipod, ``MMG2`` used as M with a tripod)."""
    number = wid[len(GMG):]
    out: dict[str, dict[str, Any]] = {}
    for key, (cls, mount) in GMG_USES.items():
        use = row.get(key)
        if not isinstance(use, dict):
            raise DataError(f"weapon {wid}: a GMG row needs {key} (its use as {cls}, "
                            "Firepower 10.7 item 5)", path=str(PATH))
        rate = str(use.get("rof", ""))
        listed = {k: v for k, v in row.items() if k not in GMG_USES}
        listed.update({k: v for k, v in use.items() if k != "rof"})
        listed.update({"class": cls, "name": f"{row.get('name')} ({mount})", "gmg": wid,
                       "rof": {str(t): rate for t in row.get("types", ())}})
        out[cls + number] = listed
    return out


@cache
def general_purpose() -> dict[str, tuple[str, ...]]:
    """Firepower 10.7 item 2: each GMG row's id and the listings a scenario uses for it."""
    return {wid: tuple(_gmg_uses(wid, row)) for wid, row in records().values.items()
            if isinstance(row, dict) and row.get("class") == GMG}


def listing_problem(model: str) -> str | None:
    """Firepower 10.7 item 2: a scenario lists a GMG as an LMG or an MMG, never as itself."""
    uses = general_purpose().get(model)
    if uses is None:
        return None
    return (f"{model} is a general purpose machinegun: list it as {' or '.join(uses)} "
            "(bipod or tripod mount), never as " + model + " (Firepower 10.7)")


@cache
def chart() -> dict[str, ChartWeapon]:
    """Every stand-in row, by id (a GMG row by its two listings); DataError naming the row for
    a malformed one."""
    rows: dict[str, dict[str, Any]] = {}
    for wid, row in records().values.items():
        if not isinstance(row, dict):
            continue
        if row.get("class") != GMG:
            rows[wid] = row
            continue
        for lid, listed in _gmg_uses(wid, row).items():
            if lid in records().values:
                raise DataError(f"weapon {lid} is both a row and {wid}'s listing "
                                "(Firepower 10.7 item 2)", path=str(PATH))
            rows[lid] = listed
    out: dict[str, ChartWeapon] = {}
    for wid, row in rows.items():
        try:
            posture = tuple(str(x) for x in row["posture"])
            if len(posture) != 3:
                raise ValueError("three Posture columns")
            load = row.get("load")
            out[wid] = ChartWeapon(
                wid, str(row["class"]), str(row["name"]), tuple(str(t) for t in row["types"]),
                int(row["move"]), (posture[0], posture[1], posture[2]), int(row["crew"]),
                str(row["fires_as"]),
                rof={str(k): str(v) for k, v in (row.get("rof") or {}).items()},
                blast={str(k): int(v) for k, v in (row.get("blast") or {}).items()},
                penetration={str(k): int(v) for k, v in (row.get("penetration") or {}).items()},
                impact=str(row.get("impact", "")), notes=str(row.get("notes", "")),
                min_range=int(row.get("min_range", 0)), range_line=int(row.get("range_line", 0)),
                uses=int(row.get("uses", 0)), modes=tuple(str(x) for x in row.get("modes", ())),
                high_trajectory=bool(row.get("high_trajectory", False)),
                by_hand=bool(row.get("by_hand", False)),
                no_status=bool(row.get("no_status", False)),
                backblast=bool(row.get("backblast", False)),
                load=(int(load[0]), int(load[1])) if load else None,
                separate_load=bool(row.get("separate_load", False)),
                separation=int(row.get("separation", 0)), gmg=str(row.get("gmg", "")))
        except (KeyError, ValueError, TypeError) as exc:
            raise DataError(f"weapon {wid}: {exc}", path=str(PATH)) from None
    return out


#: a soldier who has discarded his major personal weapon (``state.model`` = "", Firepower
#: 11.1.6.1): fires nothing, from no posture, moves as normal
UNARMED = ChartWeapon("", "", "no major personal weapon", (), 0, ("-", "-", "-"), 1, "")


def weapon(model: str) -> ChartWeapon:
    if model == "":
        return UNARMED
    w = chart().get(model)
    if w is None:
        problem = listing_problem(model)
        if problem is not None:
            raise RulesError(problem, rule="Firepower 10.7")
        raise RulesError(f"no WEAPON CHART row {model!r} (known: {', '.join(sorted(chart()))})",
                         rule="Firepower 10.7")
    return w
