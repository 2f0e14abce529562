"""The Advanced Game's WEAPON CHART rows (Firepower 10.7) as far as hexwar supports them:
stand-in rows in ``data/advanced/weapons.toml`` (every value ``estimated`` unless a rule discloses
it). A soldier of an Advanced scenario names his chart row in ``state.model`` (``RFL10``,
``LMG4``...), his Basic fire profile stays ``state.weapon`` (``fires_as``; docs/decisions.md
FPD-43) until the Weapon Cards' rate, range and hit columns are built.

Used so far: the Move column (Firepower 10.7 item 9: a weapon's MF change, summed with the
soldier's other changes) and the Posture columns (Firepower 10.7 item 10, Firepower 12.2.1: "-"
forbids firing from the posture, "+n" modifies the fire). The crew column (item 11) is read but
crews (Firepower 10.1) are not built. Vehicles' weapons (Option 19) add rows of the same shape.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path

from hexwar.core.errors import DataError, RulesError
from hexwar.core.provenance import Records, load_records

PATH = Path(__file__).parent / "data" / "advanced" / "weapons.toml"
POSTURES = ("stand", "crouch", "prone")


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


@cache
def chart() -> dict[str, ChartWeapon]:
    """Every stand-in row, by id; DataError naming the row for a malformed one."""
    out: dict[str, ChartWeapon] = {}
    for wid, row in records().values.items():
        if not isinstance(row, dict):
            continue
        try:
            posture = tuple(str(x) for x in row["posture"])
            if len(posture) != 3:
                raise ValueError("three Posture columns")
            out[wid] = ChartWeapon(wid, str(row["class"]), str(row["name"]),
                                   tuple(str(t) for t in row["types"]), int(row["move"]),
                                   (posture[0], posture[1], posture[2]), int(row["crew"]),
                                   str(row["fires_as"]))
        except (KeyError, ValueError, TypeError) as exc:
            raise DataError(f"weapon {wid}: {exc}", path=str(PATH)) from None
    return out


def weapon(model: str) -> ChartWeapon:
    w = chart().get(model)
    if w is None:
        raise RulesError(f"no WEAPON CHART row {model!r} (known: {', '.join(sorted(chart()))})",
                         rule="Firepower 10.7")
    return w
