"""MBT 8.0, Basic Game Movement: the Movement Step, one unit at a time, and units of both sides in
one hex (MBT 8.8).

The costs and the least-cost search over (hex, facing) are :mod:`hexwar.plugins.mbt.movement_costs`;
this module offers the destinations a unit can reach, moves it hex by hex and offers the enemy
overwatch fire after each hex entered and each turn made (MBT 7.5.2).
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from hexwar.core.engine.decisions import Decision
from hexwar.core.engine.state import Unit
from hexwar.core.errors import RulesError
from hexwar.core.hexgrid import Hex, opposite
from hexwar.plugins.mbt import movement_costs
from hexwar.plugins.mbt.hookspecs import MbtHooks
from hexwar.plugins.mbt.initiative import side_order
from hexwar.plugins.mbt.orders import reveal
from hexwar.plugins.mbt.overwatch import overwatch_window
from hexwar.plugins.mbt.setup import may_exit
from hexwar.plugins.mbt.state import Step, alive, can_move, card_of, ctx, data, enemy_of, wreck_hexes

if TYPE_CHECKING:
    from hexwar.core.engine.game import Game


def next_seq(game: Game) -> int:
    d = data(game)
    d["seq"] = int(d.get("seq", 0)) + 1
    return int(d["seq"])


def move_context(game: Game, mover: Unit) -> movement_costs.MoveContext:
    """Map state a move depends on: wrecks and enemy units (road rate, MBT 8.5.2; bridges, MBT 8.6.1),
    burning wrecks (smoke, MBT 8.4.3)."""
    wrecks = wreck_hexes(game)
    enemies = frozenset(e.hex for e in game.state.units_of(enemy_of(mover.side))
                        if alive(e) and e.hex is not None)
    burning = frozenset(h for h, k in wrecks.items() if k == "burning")
    extra = MbtHooks.of(game).move_costs(mover)  # Advanced MBT 12.4 terrain markers
    turret = None
    if "mbt.advanced" in game.rules_enabled and movement_costs.path_restricted(card_of(game, mover)):
        turret = int(mover.state.get("turret", mover.facing))  # Advanced MBT 15.6
    halts: frozenset[Hex] = frozenset()
    if card_of(game, mover).kind == "leg":  # Advanced MBT 15.1.4: a ditch ends a leg unit's move
        halts = frozenset(game.board.parse(lab) for lab, k in data(game).get("markers", {}).items()
                          if k == "ditch")
    return movement_costs.MoveContext(frozenset(wrecks), burning, enemies, extra, turret, halts)


def movement_allowance(game: Game, u: Unit) -> Fraction:
    """MBT 8.2: the Normal line; FM orders: half, fractions kept (MBT 8.2.1)."""
    mf = card_of(game, u).mf
    basic = mf / 2 if u.state.get("order") == "FM" else mf
    return MbtHooks.of(game).movement_allowance(u, basic)  # Advanced MBT 12.3.3.1


def friendly_hexes(game: Game, u: Unit) -> set[Hex | None]:
    """MBT 4.3: the hexes a move may pass through but not end in (none when a rule lets units
    stack, Advanced MBT 12.2)."""
    if MbtHooks.of(game).stacking_unlimited():
        return set()
    return {x.hex for x in game.state.units_of(u.side) if alive(x) and x.id != u.id}


def destinations(game: Game, u: Unit, budget: Fraction, turned: bool, first_hex: bool) -> dict[
        tuple[Hex, int], Fraction]:
    c = ctx(game)
    assert u.hex is not None
    card = card_of(game, u)
    if card.kind == "leg" and u.state.get("ditch"):
        from hexwar.plugins.mbt.markers import ditch_hold

        if ditch_hold(game, u):  # Advanced MBT 15.1.4: it stays in the ditch it entered
            return {}
    if card.kind == "leg":  # Advanced MBT 15.1.2-15.1.3: the one-hex height rule, free turns
        found = movement_costs.leg_reach(card, c.info, (u.hex, u.facing, turned), budget,
                                         move_context(game, u), phase=leg_phase(game, u),
                                         first_hex_rule=first_hex)
    else:
        found = movement_costs.reach(card, c.info, (u.hex, u.facing, turned), budget,
                                     move_context(game, u), first_hex_rule=first_hex)
    friends = friendly_hexes(game, u)
    # MBT 4.3: only one combat unit may finish its move in a hex
    return {k: v for k, v in found.items() if k[0] not in friends and k != (u.hex, u.facing)}


def leg_phase(game: Game, u: Unit) -> int:
    """Advanced MBT 15.1.2: how far a leg unit has gone this Turn, from the hexes it left this
    Turn (``trail``, emptied each Initiative Phase) and its own."""
    assert u.hex is not None
    left = [game.board.parse(str(lab)) for lab, _e in u.state.get("trail") or []]
    return movement_costs.leg_phase(ctx(game).info, [*left, u.hex])


def plan_move(game: Game, u: Unit, turned: bool, goal: tuple[Hex, int], budget: Fraction,
              first_hex: bool) -> list[tuple[movement_costs.State, Fraction]] | None:
    """The steps of a unit's move to ``goal`` (MBT 8.1-8.5; a leg unit's, Advanced MBT 15.1.2)."""
    assert u.hex is not None
    card, info = card_of(game, u), ctx(game).info
    if card.kind == "leg":
        return movement_costs.leg_plan(card, info, (u.hex, u.facing, turned), goal, budget,
                                       move_context(game, u), phase=leg_phase(game, u),
                                       first_hex_rule=first_hex)
    return movement_costs.plan(card, info, (u.hex, u.facing, turned), goal, budget,
                               move_context(game, u), first_hex_rule=first_hex)


def movement_phase(game: Game) -> Step:
    """MBT 3.4.1, 8.0: each side in turn moves its M and FM units one at a time."""
    for side in side_order(game):
        offered: set[str] = set()
        while True:
            movable = [u.id for u in game.state.units_of(side)
                       if u.state.get("order") in ("M", "FM") and u.id not in offered
                       and can_move(u)]
            if not movable:
                break
            choice = yield Decision(side, "mbt.move_unit", options=["done", *movable], rule="MBT 8.1",
                                    prompt="Move which unit next? (done: end this side's moves)")
            if choice == "done":
                break
            offered.add(choice)
            yield from move_unit(game, game.state.units[choice])


def move_unit(game: Game, u: Unit, spent: Fraction = Fraction(0),
              between: Callable[[Fraction, bool], Step] | None = None) -> Step:
    """Move one unit (MBT 8.1-8.5), offering overwatch to the enemy after each hex entered and each
    turn made (MBT 7.5.2); a chain of overwatch fire is resolved before the mover goes on (MBT 7.5.3).
    ``spent``: movement factors already used in the starting hex (Advanced MBT 15.3.2 loading).
    ``between(spent, entered)``: what the unit may do where a move ends (Advanced MBT 15.3.2.1:
    a carrier loads or unloads there); it returns (MF it cost, whether it did anything), and if
    it did, the unit may move on with what is left.
    Returns (movement factors spent, whether a new hex was entered)."""
    budget = movement_allowance(game, u)
    turned = False
    entered_any = False
    turn_cost_spent = False
    watched: set[tuple[Hex, str]] = set()
    while alive(u) and can_move(u):
        assert u.hex is not None
        # MBT 8.4.4 (and Advanced MBT 15.3.2.1: not after movement factors spent loading)
        first_hex = (not entered_any and not turn_cost_spent and spent == 0
                     and u.state.get("order") in ("M", "OR"))
        dests = destinations(game, u, budget - spent, turned, first_hex)
        friends = friendly_hexes(game, u)
        stay_ok = u.hex not in friends or not dests
        # MBT 4.6, 8.7: a unit facing off the mapboard edge that moves that way leaves the game
        can_exit = (spent < budget or first_hex) and any(
            u.hex.neighbor(d) not in game.board.hexes and may_exit(game, u, d)
            for d in (u.facing, opposite(u.facing)))
        options: list[Any] = (["stay"] if stay_ok else []) + (["exit"] if can_exit else []) + [
            [game.board.label(h), f] for (h, f) in sorted(dests, key=lambda k: (k[0].q, k[0].r, k[1]))]
        choice = yield Decision(u.side, "mbt.move_to", options=options, rule="MBT 8.1",
                                validate=move_validator(game, u, budget - spent),
                                context={"unit": u.id, "hex": game.board.label(u.hex),
                                         "facing": u.facing, "mf_left": str(budget - spent)},
                                prompt=f"Move {u.id} to [hex, facing], or stay")
        if choice == "stay":
            break
        if choice == "exit":
            u.state.update(moved=True, used=True, exited=True)
            reveal(game, u)
            game.emit("exited", visible_to=[u.side], unit=u.id, hex=game.board.label(u.hex),
                      rule="MBT 8.7")
            u.hex = None
            break
        if not u.state.get("moved"):
            u.state["moved"] = True
            u.state["used"] = True
            reveal(game, u)
        goal = (game.board.parse(choice[0]), int(choice[1]))
        path = plan_move(game, u, turned, goal, budget - spent, first_hex)
        if path is None:  # cannot happen for a listed destination
            raise RulesError(f"{u.id} cannot reach {choice}")
        interrupted = False
        for (h, f, _t), cost in path[1:]:
            entering = h != u.hex
            spent += cost
            if entering:
                # MBT 8.8.2: the hexes left this Turn, each with how it was entered, so that a unit
                # sent back into a hex that is disputed in turn is judged as having entered it
                u.state["trail"] = [*u.state.get("trail", []),
                                    [game.board.label(u.hex), u.state.get("entered")]]
                u.state["prev"] = game.board.label(u.hex)
                u.hex = h
                u.facing = f
                turned = False
                entered_any = True
                u.state["entered"] = [game.state.turn, next_seq(game)]
                u.state["spotted"] = "MOVED"  # MBT 3.4.1: MOVED replaces FIRED
                if h in ctx(game).info.objectives:  # MBT 4.8 control: last to occupy or pass through
                    data(game).setdefault("control", {})[game.board.label(h)] = u.side
            else:
                u.facing = f
                turned = True
                if cost:
                    turn_cost_spent = True
            game.emit("moved", visible_to=[u.side], unit=u.id, hex=game.board.label(h), facing=f,
                      spent=str(spent), rule="MBT 8.1.1")
            MbtHooks.of(game).unit_moved(u)  # Advanced MBT 13.4.3.1: doctrine moves together
            key = (h, "turned" if not entering else "entered")
            if key not in watched:
                watched.add(key)
                fired = yield from overwatch_window(game, u)
                if fired:
                    interrupted = True
                    break
        if not interrupted:
            if between is None or not alive(u):
                break
            cost, acted = yield from between(spent, entered_any)
            spent += cost
            if not acted:
                break
    return spent, entered_any


def move_validator(game: Game, u: Unit, left: Fraction) -> Any:
    """Explain why a destination is refused (the legal ones are all listed)."""

    def validate(choice: Any) -> str | None:
        if not (isinstance(choice, list) and len(choice) == 2 and isinstance(choice[1], int)
                and 1 <= choice[1] <= 6):
            return 'a move is "stay" or [HEX, FACING 1-6]'
        try:
            h = game.board.parse(str(choice[0]))
        except ValueError as exc:
            return str(exc)
        if h in friendly_hexes(game, u):
            return f"{choice[0]} holds a friendly unit: a move may pass through but not end there (MBT 4.3)"
        return (f"{u.id} cannot reach {choice[0]} facing {choice[1]} with {left} MF left "
                "(MBT 8.2-8.5)")

    return validate


def adjust_contested(game: Game) -> None:
    """MBT 8.8: a hex holding both sides is kept by the side with a unit that did not move in this
    Turn, else by the side that entered first; the others go back to the hex they came from
    (docs/decisions.md MBTD-15)."""
    for _ in range(100):
        by_hex: dict[Hex, list[Unit]] = {}
        for u in game.state.units.values():
            if alive(u):
                assert u.hex is not None
                by_hex.setdefault(u.hex, []).append(u)
        contested = sorted((h for h, us in by_hex.items() if len({u.side for u in us}) > 1),
                           key=lambda h: (h.q, h.r))
        if not contested:
            return
        for h in contested:
            us = by_hex[h]
            turn = game.state.turn

            def new(u: Unit, turn: int = turn) -> bool:
                e = u.state.get("entered") or [0, 0]
                return bool(e[0] == turn)

            stayers = {u.side for u in us if not new(u)}
            if len(stayers) == 1:
                keeper = stayers.pop()
            elif stayers:  # both sides were there all Turn: cannot arise (MBT 8.8 each Turn)
                continue
            else:
                keeper = min((u for u in us if new(u)),
                             key=lambda u: int((u.state.get("entered") or [0, 0])[1])).side
            for u in us:
                if u.side == keeper:
                    continue
                trail = list(u.state.get("trail") or [])
                if trail:
                    back, entered = trail.pop()
                    u.state["trail"] = trail
                    u.state["entered"] = entered  # None: back in the hex it started the Turn in
                    u.state["prev"] = trail[-1][0] if trail else None
                elif u.state.get("prev"):
                    back = u.state["prev"]
                    u.state["prev"] = None
                    u.state["entered"] = None
                else:
                    continue
                u.hex = game.board.parse(back)
                game.emit("adjusted", unit=u.id, hex=back, rule="MBT 8.8.2")
