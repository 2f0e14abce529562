"""The Advanced AI's places around a tree, stump or well (Firepower 10.4, 10.4.1-10.4.4;
docs/decisions.md FPD-139, FPD-161).

A soldier who stops in such a hex takes the place whose covered hexsides the known enemy's fire
would come in by (each enemy weighed by the hits he could score on him), and changes places when
the threat has moved round to other hexsides far enough to pay for it. The rear place covers three
hexsides but no major personal weapon is fired from it (Firepower 10.4.2): it is taken only when
the soldier's own best shot is worth less than the cover it adds. A place another soldier of the
side holds first in the hex gives no cover (Firepower 10.4.4).
"""

from __future__ import annotations

from collections.abc import Iterable

from hexwar.core.hexgrid import Hex

#: Firepower 12.2.3: the part of the enemy's expected hits a cover (+1 on a d10) takes away, as
#: the AI counts it (an estimate, FPD-161)
COVER_SAVE = 0.3
#: what a change of place must gain to be made (it takes the soldier's Impulse, 10.4.3)
MARGIN = 0.05


def covered(h: Hex, at: str, toward: int, source: Hex) -> bool:
    """Firepower 10.4.1, 10.4.2: whether fire from ``source`` at a soldier in ``h`` at the
    place (``at``, ``toward``) comes in over one of its covered hexsides (the rules' own
    reading, ``cover_sides``: through a corner, either hexside)."""
    from hexwar.plugins.firepower.advanced_terrain import exit_sides
    from hexwar.plugins.firepower.cover_sides import hexsides_of

    if source == h:
        return False
    return bool(hexsides_of(at, toward).intersection(exit_sides(h, source)))


def places() -> list[tuple[str, int]]:
    from hexwar.plugins.firepower.cover_sides import place_kinds

    return [(at, d) for at in place_kinds() for d in range(1, 7)]


def place_value(h: Hex, at: str, toward: int, threats: Iterable[tuple[Hex, float]],
                taken: set[tuple[str, int]], shot: float) -> float:
    """The expected hits the place saves (``threats``: each enemy's hex and his expected hits
    on the soldier), nothing at a place another holds first; the rear place costs the worth
    of his best shot (``shot``: he cannot fire from there)."""
    from hexwar.plugins.firepower.cover_sides import fires_major_weapon

    if (at, toward) in taken:
        return 0.0
    saved = COVER_SAVE * sum(t for src, t in threats if covered(h, at, toward, src))
    if not fires_major_weapon(at):
        saved -= shot
    return saved


def best_place(h: Hex, current: tuple[str, int], threats: list[tuple[Hex, float]],
               taken: set[tuple[str, int]], shot: float) -> tuple[tuple[str, int], float] | None:
    """The place worth taking instead of ``current`` and what it gains (the expected hits it
    saves, more than :data:`MARGIN`), or None to stay."""
    if not threats:
        return None
    now = place_value(h, *current, threats, taken, shot)
    best, gain = None, MARGIN
    for p in places():
        if p == current:
            continue
        g = place_value(h, *p, threats, taken, shot) - now
        if g > gain + 1e-9:
            best, gain = p, g
    return (best, gain) if best is not None else None
