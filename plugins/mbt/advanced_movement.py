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
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from hexwar.core.engine.decisions import Decision
from hexwar.core.engine.state import Unit
from hexwar.core.hexgrid import Hex
from hexwar.plugins.mbt import (
    buildings,
    doctrine,
    markers,
    movement_costs,
    smoke,
    suppression,
    transport,
)
from hexwar.plugins.mbt.advanced_fire import missile_race, resolve_remaining
from hexwar.plugins.mbt.initiative import side_order
from hexwar.plugins.mbt.movement import adjust_contested, move_unit, movement_allowance
from hexwar.plugins.mbt.state import Step, alive, can_move, card_of, ctx, data

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


def turret_lock(game: Game, u: Unit) -> str | None:
    """Advanced MBT 15.6.3-15.6.4: why a vehicle with path restrictions may not turn its turret
    where it stands (the rule's number), or None: inside a building never (15.6.4); in a woods or
    building hex only where the hex holds a road (15.6.3; a road and a path count as a road)."""
    if u.hex is None or not movement_costs.path_restricted(card_of(game, u)):
        return None
    if u.state.get("inb"):
        return "MBT 15.6.4"
    info = ctx(game).info
    if not movement_costs.LONG_GUN_HEXES & set(info.kinds[u.hex]):
        return None
    if "road" in game.board.features_of[u.hex] or any(u.hex in side for side in info.road):
        return None
    return "MBT 15.6.3"


def _movable(game: Game, u: Unit) -> bool:
    """A unit the Movement Step offers: M or FM orders, able to move, not a doctrine follower,
    not held by suppression (MBT 12.3.3), not an unloaded or full-cover unit (MBT 15.3.2.3, 15.5),
    and a towed unit only with its towed (1) move (MBT 15.2.1)."""
    if (u.state.get("order") not in ("M", "FM") or not can_move(u)
            or doctrine.is_follower(game, u) or suppression.order_error(game, u, "M") is not None):
        return False
    if card_of(game, u).kind == "towed":
        return bool(transport.towed_moves(game, u))
    if u.state.get("ditch") and markers.ditch_hold(game, u):
        return False  # MBT 15.1.4: a leg unit stays in the ditch it entered (MBTD-170)
    return not transport.stays_put(game, u)


def movement_phase(game: Game) -> Step:
    """MBT 11.4.1: each side in turn moves its M and FM units one at a time; missiles at a unit
    are resolved when its move is done (MBT 14.2.2.2). A carrier loads and unloads before and
    after its move (MBT 15.3.2), a vehicle may end inside buildings and a leg unit go up or down
    in them (MBT 15.4), a leg or towed unit with M orders may take full cover instead of moving
    (MBT 15.5), and a towed (1) unit moves one hex (MBT 15.2.1)."""
    for side in side_order(game):
        offered: set[str] = set()
        for u in game.state.units_of(side):
            if u.state.get("order") in ("M", "FM") and not doctrine.is_follower(game, u):
                doctrine.before_move(game, u)  # MBT 13.4.2.5: stragglers are abandoned
        while True:
            movable = [u.id for u in game.state.units_of(side)
                       if u.id not in offered and _movable(game, u)]
            cover: list[Any] = [["full_cover", i] for i in movable
                                if transport.full_cover_error(game, game.state.units[i]) is None]
            if not movable:
                break
            choice = yield Decision(side, "mbt.move_unit", options=["done", *movable, *cover],
                                    rule="MBT 11.4.1",
                                    prompt="Move which unit next? (done: end this side's moves; "
                                           "[full_cover, UNIT]: take full cover, MBT 15.5)")
            if choice == "done":
                break
            if isinstance(choice, list):
                offered.add(choice[1])
                transport.take_full_cover(game, game.state.units[choice[1]])
                continue
            offered.add(choice)
            u = game.state.units[choice]
            assert u.hex is not None
            if card_of(game, u).kind == "towed":
                yield from transport.towed_move(game, u)
                continue
            yield from move_one(game, u)


def move_one(game: Game, u: Unit) -> Step:
    """One unit's move in the Movement Step, with its loading and unloading (MBT 15.3.2), its
    buildings (MBT 15.4), exhaust smoke (MBT 15.7) and the missiles at it (MBT 14.2.2.2)."""
    assert u.hex is not None
    allowance = movement_allowance(game, u)
    carrier = transport.transport_value(card_of(game, u)) is not None
    start, before = (u.hex, u.facing), len(u.state.get("trail") or [])
    group = doctrine.members(game, u)
    pre = Fraction(0)
    if carrier:  # MBT 15.3.2.1: load or unload before leaving the hex
        pre = yield from transport.transport_step(game, u, entered=False, mf_left=allowance)
    asked: list[tuple[Hex | None, Fraction]] = []

    def between(so_far: Fraction, entered: bool) -> Step:
        # MBT 15.3.2.1: load or unload where a move ends, then move on with the MF left
        had = list(u.state.get("carrying") or [])
        cost = yield from transport.transport_step(game, u, entered=entered,
                                                   mf_left=allowance - so_far)
        asked.append((u.hex, so_far + cost))
        return cost, had != list(u.state.get("carrying") or [])

    with doctrine.bridges_one_at_a_time(game, u):  # MBT 13.4.3.1 EXCEPTION
        spent, entered = yield from move_unit(game, u, pre, between if carrier else None)
    path = path_of(game, u, start, before)
    for m in group:
        m.state["moved_done"] = True
        yield from exhaust_smoke(game, m, start[0], before)
    for m in group:
        if m.id == u.id or m.hex == u.hex:
            yield from missile_race(game, m, path)
    if u.state.get("exited"):
        for p in transport.passengers(game, u):  # MBT 8.7: the passengers leave with it
            p.state.update(exited=True)
        return
    if alive(u) and carrier and (not asked or asked[-1] != (u.hex, spent)):
        # MBT 15.3.2.1, 15.3.2.4: and after its last hex, unless just asked there
        spent += yield from transport.transport_step(game, u, entered=entered,
                                                     mf_left=allowance - spent)
    if alive(u):
        yield from buildings.building_step(game, u, allowance - spent)


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
    """MBT 11.4.2: each side in turn moves its units with OR orders one at a time and they overrun
    (MBT 14.7, :mod:`~hexwar.plugins.mbt.overrun`), with overwatch, exhaust smoke and missiles as
    in the Movement Step; then the missiles still in flight strike targets that did not move
    (MBT 14.2.2.2), and hexes holding both sides are adjusted (MBT 8.8)."""
    from hexwar.plugins.mbt.overrun import overrun_unit

    data(game)["overrun_defended"] = []  # MBT 14.7.2.1: defensive fire once per Overrun Step
    for side in side_order(game):
        offered: set[str] = set()
        while True:
            able = [u.id for u in game.state.units_of(side)
                    if u.state.get("order") == "OR" and u.id not in offered and can_move(u)
                    and not doctrine.is_follower(game, u)]  # MBT 13.4.3.2: one for all
            if not able:
                break
            choice = yield Decision(side, "mbt.move_unit", options=["done", *able],
                                    rule="MBT 11.4.2",
                                    prompt="Overrun with which unit next? (done: end)")
            if choice == "done":
                break
            offered.add(choice)
            u = game.state.units[choice]
            assert u.hex is not None
            start, before = (u.hex, u.facing), len(u.state.get("trail") or [])
            group = doctrine.members(game, u)
            yield from overrun_unit(game, u)
            for m in group:  # MBT 13.4.3.1: the organization moved as one
                m.state["moved_done"] = True
            for m in group:
                if m.hex is not None:
                    yield from exhaust_smoke(game, m, start[0], before)
            for m in group:
                if m.hex is not None:
                    yield from missile_race(game, m, path_of(game, m, start, before))
    data(game).pop("overrun_defended", None)
    yield from resolve_remaining(game)
    adjust_contested(game)
