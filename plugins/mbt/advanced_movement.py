"""MBT 11.4, 15.0, the Advanced Game Movement Phase: the Movement Step (MBT 11.4.1) and the
Overrun Step (MBT 11.4.2), with missiles resolved during their targets' moves (MBT 14.2.2.2)
instead of the Basic Game's ATGM Resolution Step (MBT 15.0).

A unit moves exactly as in the Basic Game (:func:`hexwar.plugins.mbt.movement.move_unit`, with
overwatch interrupts and chains, MBT 7.5.2-7.5.3; a suppressed vehicle has half its movement
factors, MBT 12.3.3.1); when its move is over, the missiles announced at it race it along the
hexes it entered (:func:`hexwar.plugins.mbt.advanced_fire.missile_race`). A vehicle leaving the
hex of its discharger smoke leaves the smoke behind (MBT 11.4.1, :mod:`hexwar.plugins.mbt.smoke`);
one with an exhaust smoke generator may lay smoke in its wake (MBT 15.7).
After the Overrun Step, missiles at targets that did not move strike where they stand, and the
hexes holding both sides are adjusted (MBT 11.4.2, 8.8).
"""

from __future__ import annotations

import itertools
from typing import TYPE_CHECKING

from hexwar.core.engine.decisions import Decision
from hexwar.core.engine.state import Unit
from hexwar.core.hexgrid import Hex
from hexwar.plugins.mbt import doctrine, smoke, suppression
from hexwar.plugins.mbt.advanced_fire import missile_race, resolve_remaining
from hexwar.plugins.mbt.initiative import side_order
from hexwar.plugins.mbt.movement import adjust_contested, move_unit
from hexwar.plugins.mbt.state import Step, can_move

if TYPE_CHECKING:
    from hexwar.core.engine.game import Game


def path_of(game: Game, u: Unit, start: tuple[Hex, int], trail_before: int) -> list[tuple[Hex, int]]:
    """MBT 14.2.2.2.1: the initial hex and each hex the unit entered in its move, with the facing
    it had there (its direction of travel; the final facing in the last hex)."""
    if u.hex is None:
        return [start]
    left = [game.board.parse(str(lab)) for lab, _e in (u.state.get("trail") or [])[trail_before:]]
    hexes = [*left, u.hex] if left else [u.hex]
    path: list[tuple[Hex, int]] = [start]
    for prev, h in itertools.pairwise(hexes):
        path.append((h, prev.direction_to(h) or u.facing))
    if path[-1][0] == u.hex:
        path[-1] = (u.hex, u.facing)
    return path


def movement_phase(game: Game) -> Step:
    """MBT 11.4.1: each side in turn moves its M and FM units one at a time; missiles at a unit
    are resolved when its move is done (MBT 14.2.2.2)."""
    for side in side_order(game):
        offered: set[str] = set()
        for u in game.state.units_of(side):
            if u.state.get("order") in ("M", "FM") and not doctrine.is_follower(game, u):
                doctrine.before_move(game, u)  # MBT 13.4.2.5: stragglers are abandoned
        while True:
            movable = [u.id for u in game.state.units_of(side)
                       if u.state.get("order") in ("M", "FM") and u.id not in offered
                       and can_move(u) and not doctrine.is_follower(game, u)
                       and suppression.order_error(game, u, "M") is None]  # MBT 12.3.3
            if not movable:
                break
            choice = yield Decision(side, "mbt.move_unit", options=["done", *movable],
                                    rule="MBT 11.4.1",
                                    prompt="Move which unit next? (done: end this side's moves)")
            if choice == "done":
                break
            offered.add(choice)
            u = game.state.units[choice]
            assert u.hex is not None
            start, before = (u.hex, u.facing), len(u.state.get("trail") or [])
            group = doctrine.members(game, u)
            yield from move_unit(game, u)
            path = path_of(game, u, start, before)
            for m in group:
                m.state["moved_done"] = True
                yield from exhaust_smoke(game, m, start[0], before)
            for m in group:
                if m.id == u.id or m.hex == u.hex:
                    yield from missile_race(game, m, path)


def exhaust_smoke(game: Game, u: Unit, start: Hex, trail_before: int) -> Step:
    """MBT 15.7: after its move, a vehicle with an exhaust smoke generator may lay smoke (ON) in a
    continuous track of the hexes it left (docs/decisions.md MBTD-57)."""
    if u.hex is None or smoke.can_lay_exhaust(game, u) is not None:
        return
    left = [str(lab) for lab, _e in (u.state.get("trail") or [])[trail_before:]]
    tracks = smoke.exhaust_tracks(left or [game.board.label(u.hex)])
    choice = yield Decision(u.side, "mbt.exhaust", options=["none", *tracks], rule="MBT 15.7.3",
                            context={"unit": u.id},
                            prompt=f"Lay exhaust smoke behind {u.id}: a track of hexes, or none")
    if choice != "none":
        smoke.lay_smoke(game, u, list(choice))


def overrun_step(game: Game) -> Step:
    """MBT 11.4.2: units with OR orders move and overrun (MBT 14.7); then the missiles still in
    flight strike targets that did not move (MBT 14.2.2.2), and hexes holding both sides are
    adjusted (MBT 8.8). No OR order can be given yet (no leg or towed unit card exists to be
    overrun, MBT 14.7.1.2), so the step moves nobody: docs/mbt-advanced.md."""
    yield from resolve_remaining(game)
    adjust_contested(game)
