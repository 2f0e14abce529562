"""Soldiers as the rules functions see them: one counter, one man (Firepower 1.2.1, Firepower 4.3-4.7).

A soldier's markers live in ``Unit.state`` as JSON values:

* ``weapon``: major personal weapon code (``LMG``, ``PST``, ``RFL``), Firepower 1.2.1;
* ``posture``: ``stand`` / ``crouch`` / ``prone`` (no marker = Standing), Firepower 4.4;
* ``speed``: ``normal`` / ``running``, Firepower 4.5;
* ``status``: ``None`` / ``suppressed`` / ``stunned``, Firepower 4.6;
* ``side``: in a fence or hedge hex, a hexside number on the part of the hex he occupies
  (the direction unit, Firepower 4.7); ``None`` elsewhere;
* ``eliminated``: true once removed from play.

Facing is ``Unit.facing``: always a hexside, never a hex angle (Firepower 4.3).
"""

from __future__ import annotations

import operator
from collections.abc import Mapping
from dataclasses import dataclass, fields, replace
from typing import TYPE_CHECKING, Any

from hexwar.core.engine.state import UNIT_REVISION
from hexwar.core.hexgrid import Hex

if TYPE_CHECKING:
    from hexwar.core.engine.state import Unit

#: MF allowance of a soldier (Firepower 6.2)
BASE_MF = 4
#: new hexes in one Impulse that make a soldier Running (Firepower 4.5, Firepower 6.2.1)
RUNNING_HEXES = 4


@dataclass(frozen=True)
class Soldier:
    """A plain, immutable view of one soldier for the pure rules functions."""

    id: str
    side: str
    hex: Hex
    facing: int = 1
    weapon: str = "RFL"
    posture: str = "stand"
    speed: str = "normal"
    status: str | None = None
    fence_side: int | None = None

    @property
    def running(self) -> bool:
        return self.speed == "running"

    @property
    def suppressed(self) -> bool:
        return self.status == "suppressed"

    @property
    def stunned(self) -> bool:
        return self.status == "stunned"

    def with_(self, **kw: Any) -> Soldier:
        """A copy with the fields ``kw`` changed (what :func:`dataclasses.replace` gives, without
        its generic work: the AI's plans make thousands of these a decision; FPD-193)."""
        if not kw.keys() <= _SOLDIER_FIELDS:
            return replace(self, **kw)  # its TypeError names the unknown field
        new = object.__new__(type(self))
        d = dict(self.__dict__)
        d.update(kw)
        object.__setattr__(new, "__dict__", d)
        return new


_SOLDIER_FIELDS = frozenset(f.name for f in fields(Soldier))


def mf_allowance(status: str | None, base: int = BASE_MF) -> int:
    """Firepower 6.2.8: Stunned soldiers may spend no MF; Suppressed soldiers lose one."""
    if status == "stunned":
        return 0
    if status == "suppressed":
        return base - 1
    return base


def soldier_of(unit: Unit) -> Soldier:
    assert unit.hex is not None, f"{unit.id} is not on the board"
    s = unit.state
    return Soldier(unit.id, unit.side, unit.hex, unit.facing, str(s.get("weapon", "RFL")),
                   str(s.get("posture", "stand")), str(s.get("speed", "normal")),
                   s.get("status"), s.get("side"))


def soldiers_of(units: Mapping[str, Unit], *, tunnels: bool = False) -> dict[str, Soldier]:
    """Every soldier still on the board (a new dict; the soldiers are immutable views); a
    soldier in a tunnel (Advanced Game, Firepower 8.8.8) is under it, not on it, and is left out
    unless ``tunnels``.

    The AI asks for every soldier thousands of times a turn, mostly with nothing changed in
    between: the views of the last call are kept with what they were made of (each unit's id,
    side, hex, facing and its revision, which every write to the unit or a key of its state
    renews, docs/decisions.md CORE-133: FPD-200, in place of the ``repr`` of the state entries
    a view reads, which was a tenth of an Advanced game) and handed back while that is the
    same."""
    made_of = (tunnels, list(units), list(map(_FIELDS, units.values())),
               list(map(UNIT_REVISION, units.values())))
    if _last and _last[0] == made_of:
        return dict(_last[1])
    got = {k: soldier_of(u) for k, u in units.items()
           if u.hex is not None and not u.state.get("eliminated")
           and (tunnels or not u.state.get("tunnel"))}
    _last[:] = [made_of, got]
    return dict(got)


_FIELDS = operator.attrgetter("id", "side", "hex", "facing")
#: the last call of :func:`soldiers_of`: [what it was made of, the soldiers]
_last: list[Any] = []


def initial_state(weapon: str, posture: str = "stand") -> dict[str, Any]:
    """No markers: Standing (Firepower 4.4), Normal speed (Firepower 4.5), no status
    (Firepower 4.6), no direction (Firepower 4.7); Firepower 1.2.1 gives the weapon."""
    return {"weapon": weapon, "posture": posture, "speed": "normal", "status": None,
            "side": None, "eliminated": False}
