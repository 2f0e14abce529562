"""The Advanced AI's doors and windows in its movement plans (Firepower 8.2.5, 11.1.3, 11.1.9;
docs/decisions.md FPD-160), at set-up (FPD-180) and closed against the enemy's fire (FPD-182).

A plan may open a closed door or window of the hex a soldier is in (from inside, on his floor:
Firepower 11.1.9) to see and fire out of it, and may open a closed door or window on the ground
floor and go through it into the next hex (Firepower 11.1.3: the crossing and the entering both
paid) and walk on. From outside a closed opening is broken open (Firepower 11.1.10), a roll the
plans do not count on. These helpers read only public terrain and the openings' markers.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from hexwar.core.hexgrid import Hex

if TYPE_CHECKING:
    from hexwar.plugins.firepower.advanced_terrain import AdvMap, Opening

#: Firepower 11.1.3: soldiers who may cross one window in an Impulse Phase (buildings.py's)
WINDOW_CROSSINGS = 4


def door_mf() -> int:
    """The MF of opening a door or window (the LEG chart's stand-in, FPD-62)."""
    from hexwar.plugins.firepower.buildings import MF

    return int(MF["door"])


def openable(am: AdvMap, h: Hex, floor: int, is_open: Callable[[str], bool],
             opened: frozenset[str] = frozenset()) -> list[tuple[int, Opening]]:
    """Firepower 11.1.9: the closed doors and windows a soldier in building hex ``h`` on
    ``floor`` may open (those of his hex, on his floor, he being inside), with their hexsides;
    ``opened`` are already counted open by the plan."""
    from hexwar.plugins.firepower.advanced_terrain import direction

    if am.building(h) is None:
        return []
    out = []
    for o in am.openings_of(h):
        if o.inside == h and o.floor == floor and o.key not in opened and not is_open(o.key):
            out.append((direction(h, o.outside), o))
    return sorted(out, key=lambda x: x[0])


@dataclass(frozen=True)
class Crossing:
    """A plan's step through a door or window into the next hex (Firepower 11.1.3)."""

    opening: Opening
    opens: bool  # closed now: opened first, one more Action (Firepower 11.1.9)


def crossing(am: AdvMap, a: Hex, b: Hex, floor: int, is_open: Callable[[str], bool],
             opened: frozenset[str], windows: dict[str, int]) -> Crossing | None:
    """Whether a soldier in ``a`` on ``floor`` may go through a door or window into adjacent
    ``b`` (open, or closed and he inside to open it), None when he may not: no opening there,
    not on the ground floor (Firepower 11.1.11, FPD-176: out of an upper floor's window is a
    climb down the wall, which the AI does not make, FPD-177), closed seen from outside
    (Firepower 11.1.10: broken open, not opened), or a window four soldiers crossed this
    Impulse Phase (Firepower 11.1.3)."""
    if floor != 1:
        return None
    o = am.opening(a, b, 1)
    if o is None:
        return None
    closed = o.key not in opened and not is_open(o.key)
    if closed and o.inside != a:
        return None
    if o.kind == "window" and int(windows.get(o.key, 0)) >= WINDOW_CROSSINGS:
        return None
    return Crossing(o, closed)


def faces_enemy(o: Opening, progress: Callable[[Hex], float], enemies: list[Hex]) -> bool:
    """Firepower 8.2.5 (FPD-180): whether door or window ``o`` faces the enemy's side: its
    outside hex lies further toward the enemy's board side than its inside hex (``progress``:
    the side's columns toward the enemy's side); on a wall along the columns, nearer the
    enemy's soldiers on the board (their mean distance)."""
    a, b = progress(o.inside), progress(o.outside)
    if a != b:
        return b > a
    if not enemies:
        return False
    return sum(o.outside.distance(e) for e in enemies) < sum(o.inside.distance(e)
                                                               for e in enemies)


def crosses(o: Opening, source: Hex) -> bool:
    """Whether the line from ``source`` to a soldier in ``o``'s building hex comes in over the
    opening's hexside (through a corner, either of its two hexsides)."""
    from hexwar.plugins.firepower.advanced_terrain import direction, exit_sides

    return source != o.inside and direction(o.inside, o.outside) in exit_sides(o.inside,
                                                                                 source)
