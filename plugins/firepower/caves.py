"""Caves in the fire and the line of sight (Firepower 8.8.7; docs/decisions.md FPD-149, FPD-150).

A cave (the terrain file's ``[[cave]]``: its hex and its mouth's hexside) is a hole in a hillside.
A soldier is *inside* it when he is in its hex, not on top of it (``state.on_top``) and not in a
tunnel under it (Firepower 8.8.8); a cave destroyed by fire (``cave_damage``, FPD-145) is no cave.

* Cover and concealment (Firepower 8.8.7, 12.2.3, 12.2.4): a soldier inside has cover (+1, with
  the cave's terrain value against penetration, Firepower 12.3.6) and concealment against fire
  and blasts from outside its hex (``advanced_fire.cover_of``, ``advanced_fire.concealed``).
* Fire out of the front only (Firepower 8.8.7): a soldier inside fires only at hexes within the
  mouth hexside's arc (:func:`check_firer`, run when any fire is prepared, so the Action lists
  never offer other fire); the cave's sides and back stand between him and the rest, so he sees
  and is seen only through the mouth (:func:`los_obstacles`).
* Height (Firepower 8.8.7): for those outside, the cave hex is a hill three heights above its
  own ground: a line of sight through it meets that hill, and a soldier on top of the cave stands
  on it (:func:`los_obstacles`, ``advanced_terrain._tops``, ``advanced_terrain.sight_heights``).
  A destroyed cave is the hex's own height again (Firepower 12.3.4.2.2).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from hexwar.core.errors import RulesError
from hexwar.core.hexgrid import Hex, in_arc

if TYPE_CHECKING:
    from hexwar.core.engine.game import Game
    from hexwar.core.engine.state import Unit
    from hexwar.plugins.firepower.advanced_los import Obstacle
    from hexwar.plugins.firepower.soldiers import Soldier

RULE = "Firepower 8.8.7"
#: Firepower 8.8.7: seen from outside, the cave hex is a hill this many heights higher
HILL = 3


def inside(game: Game, u: Unit) -> bool:
    """Firepower 8.8.7: ``u`` is inside a standing cave (in its hex, not on top, not below)."""
    from hexwar.plugins.firepower.advanced_terrain import adv_map, in_tunnel

    return (u.hex is not None and u.hex in adv_map(game).caves and not u.state.get("on_top")
            and not in_tunnel(u) and not u.state.get("eliminated"))


def insiders(game: Game) -> frozenset[str]:
    """The ids of the soldiers inside caves."""
    from hexwar.plugins.firepower.advanced_terrain import adv_map

    if not adv_map(game).caves:
        return frozenset()
    return frozenset(uid for uid, u in game.state.units.items() if inside(game, u))


def out_of_front(cave: Hex, mouth: int, other: Hex) -> bool:
    """``other`` lies outside the arc of the mouth hexside of ``cave`` (its own hex is not)."""
    return other != cave and not in_arc(cave, mouth, other, "front60")


def check_firer(game: Game, u: Unit, targets: Iterable[Hex]) -> None:
    """Firepower 8.8.7: a soldier inside a cave fires only out of its front (the mouth): every
    target hex must lie within the mouth hexside's arc. Raises RulesError; changes nothing."""
    from hexwar.plugins.firepower.advanced_terrain import adv_map

    if u.hex is None or not inside(game, u):
        return
    mouth = adv_map(game).caves[u.hex]
    for t in targets:
        if out_of_front(u.hex, mouth, t):
            raise RulesError(f"{u.id} is inside the cave in {game.board.label(u.hex)}: he fires "
                             f"only out of its mouth (hexside {mouth}), not at "
                             f"{game.board.label(t)}", rule=RULE)


def los_obstacles(game: Game, a: Hex, b: Hex, hexes: tuple[Hex, ...],
                  ends: tuple[Soldier | None, Soldier | None]) -> list[Obstacle]:
    """The caves on a line of sight from ``a`` to ``b``: each standing cave hex between is a
    hill three heights above its ground (Firepower 8.8.7); a soldier inside a cave at either end
    sees and is seen only within its mouth's arc (an absolute block otherwise)."""
    from hexwar.plugins.firepower.advanced_los import Obstacle
    from hexwar.plugins.firepower.advanced_terrain import adv_map, ground_of

    caves = adv_map(game).caves
    if not caves:
        return []
    out = [Obstacle(h, "hill", ground_of(game, h) + HILL, RULE) for h in hexes if h in caves]
    units = game.state.units
    for s, other in ((ends[0], b), (ends[1], a)):
        if s is None or s.id not in units or not inside(game, units[s.id]):
            continue
        mouth = caves[s.hex]
        if out_of_front(s.hex, mouth, other):
            out.append(Obstacle(s.hex, f"the rock round the cave ({s.id} inside sees out only "
                                f"by its mouth, hexside {mouth})", 0, RULE, absolute=True))
    return out
