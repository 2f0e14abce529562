"""MBT 6.1, the Basic Game Sighting Step: which enemy units each unit can see.

Sighting range comes from the SIGHTING RANGES CHART (MBT 6.1.3) and line of sight from the Basic
Game rules of MBT 6.1.4 (:class:`hexwar.plugins.mbt.terrain.BasicLos`). What a unit saw in the
Sighting Step decides which orders it may take (MBT 6.2); what it sees at the moment of firing
decides whether it may fire (MBT 7.2).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from hexwar.core.engine.state import Unit
from hexwar.plugins.mbt.hookspecs import MbtHooks
from hexwar.plugins.mbt.state import SIDES, Step, alive, ctx, data, enemy_of

if TYPE_CHECKING:
    from hexwar.core.engine.game import Game


def sees(game: Game, viewer: Unit, target: Unit, *, moving: bool = False) -> bool:
    """MBT 6.1: sighting range from the SIGHTING RANGES CHART (Day, open or buttoned, the target
    hex's rightmost terrain column, VH), doubled for a MOVED marker or a unit moving now
    (MBT 7.5.2), any range for a FIRED marker (MBT 6.1.3.5); and a clear Basic line of sight
    (MBT 6.1.4)."""
    if viewer.hex is None or target.hex is None:
        return False
    rule = MbtHooks.of(game).sees(viewer, target, moving)  # Advanced MBT 13.1-13.2
    if rule is not None:
        return rule
    r = viewer.hex.distance(target.hex)
    c = ctx(game)
    if r > 0:
        spotted = target.state.get("spotted")
        if spotted != "FIRED":
            base = c.charts.sighting_range("Open" if viewer.state.get("open", True) else "Buttoned",
                                           c.info.sight_terrain[target.hex])
            if spotted == "MOVED" or moving:
                base *= 2
            if r > base:
                return False
    return c.info.los(viewer.hex, target.hex)


def seen_by_side(game: Game, side: str, target: Unit, *, moving: bool = False) -> bool:
    """MBT 6.1.2: any unit of ``side`` that sees the target (hidden information, MBT 6.1)."""
    return any(alive(v) and sees(game, v, target, moving=moving) for v in game.state.units_of(side))


def unit_height(game: Game, u: Unit) -> float:
    """MBT 6.1.4.6: a unit sits at its hex's Basic height; ``mbt_unit_height`` may say otherwise
    (Advanced MBT 12.1)."""
    h = MbtHooks.of(game).unit_height(u)
    if h is not None:
        return h
    assert u.hex is not None
    return float(ctx(game).info.height[u.hex])


def visible_units(game: Game, side: str) -> list[str]:
    """MBT 6.1: what a side knows of the map: its own units, the enemy units some unit of the side
    sees now, and wrecks (public)."""
    out = []
    for u in game.state.units.values():
        if u.side == side:
            out.append(u.id)
        elif not alive(u):
            if u.state.get("destroyed"):
                out.append(u.id)  # a wreck is public
        elif u.side == enemy_of(side) and seen_by_side(game, side, u):
            out.append(u.id)
    return sorted(out)


def sighting_phase(game: Game) -> Step:
    """MBT 6.1: which enemy units each unit sees now (the basis for F, FM and ATGM orders)."""
    sighted: dict[str, list[str]] = {}
    for side in SIDES:
        for u in game.state.units_of(side):
            if alive(u):
                sighted[u.id] = sorted(e.id for e in game.state.units_of(enemy_of(side))
                                       if alive(e) and sees(game, u, e))
        game.emit("sighting", visible_to=[side], rule="MBT 6.1",
                  sighted={k: v for k, v in sighted.items() if game.state.units[k].side == side})
    data(game)["sighted"] = sighted
    return
    yield  # a generator
