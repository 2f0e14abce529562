"""MBT 9.0, the Basic Game Adjustment Phase: Pivot (MBT 9.1), Adjust Turrets (MBT 9.2), Adjust
Markers (MBT 9.3) and the end of the Turn (MBT 9.4.1). Victory (MBT 9.4.2-9.4.3) is
:mod:`hexwar.plugins.mbt.victory`."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from hexwar.core.engine.decisions import Decision
from hexwar.core.engine.state import Unit
from hexwar.plugins.mbt.initiative import side_order
from hexwar.plugins.mbt.orders import reveal
from hexwar.plugins.mbt.sighting import sees
from hexwar.plugins.mbt.state import Step, alive, can_move, card_of, data, enemy_of

if TYPE_CHECKING:
    from hexwar.core.engine.game import Game


def reveal_orders(game: Game) -> None:
    """MBT 9.1: every order is revealed; a unit that did not use its order takes the spotted
    marker the order would have given it (FIRED for a fire order, MOVED for a move order)."""
    for u in sorted(game.state.units.values(), key=lambda u: u.id):
        order = u.state.get("order")
        if order is None or not alive(u):
            continue
        reveal(game, u)
        if not u.state.get("used"):
            if order in ("F", "ATGM"):
                u.state["spotted"] = "FIRED"
            elif order in ("FM", "M", "CA", "OR"):
                u.state["spotted"] = "MOVED"


def pivot_phase(game: Game) -> Step:
    """MBT 9.1: reveal all orders; spotted markers for unused orders; free pivots
    (docs/decisions.md MBTD-16)."""
    reveal_orders(game)
    for side in side_order(game):
        for u in game.state.units_of(side):
            order = u.state.get("order")
            if order in ("M", "FM", "OR") and not u.state.get("moved") and can_move(u):
                choice = yield Decision(side, "mbt.pivot", options=[1, 2, 3, 4, 5, 6], rule="MBT 9.1",
                                        context={"unit": u.id, "facing": u.facing},
                                        prompt=f"Pivot {u.id}: new facing ({u.facing} = no pivot)")
                if choice != u.facing:
                    u.facing = int(choice)
                    game.emit("pivot", visible_to=[side], unit=u.id, facing=u.facing, rule="MBT 9.1")


def turret_options(game: Game, u: Unit) -> list[list[Any]]:
    """MBT 9.2: turn up to TRN hexsides either way (1 with a hull compartment hit) and flip."""
    trn = card_of(game, u).trn
    if u.state["damage"]["compartment"] == "hull":
        trn = min(trn, 1)
    cur = int(u.state["turret"])
    facings = sorted({(cur - 1 + k) % 6 + 1 for k in range(-min(trn, 3), min(trn, 3) + 1)})
    return [[f, o] for f in facings for o in ("open", "buttoned")]


def turret_phase(game: Game) -> Step:
    """MBT 9.2."""
    for side in side_order(game):
        for u in game.state.units_of(side):
            if not alive(u):
                continue
            choice = yield Decision(side, "mbt.turret", options=turret_options(game, u), rule="MBT 9.2",
                                    context={"unit": u.id, "turret": u.state["turret"],
                                             "open": u.state["open"]},
                                    prompt=f"Turret of {u.id}: [facing, open|buttoned]")
            u.state["turret"] = int(choice[0])
            u.state["open"] = choice[1] == "open"


def markers_phase(game: Game) -> Step:
    """MBT 9.3: a spotted marker goes when no enemy unit can see the unit now (docs/decisions.md
    MBTD-17)."""
    for u in game.state.units.values():
        if alive(u) and u.state.get("spotted") and not any(
                alive(e) and sees(game, e, u) for e in game.state.units_of(enemy_of(u.side))):
            u.state["spotted"] = None
    data(game)["ow_declared"] = []
    return
    yield


def end_turn_phase(game: Game) -> Step:
    """MBT 9.4.1: the Turn ends (victory is checked by the game-over hooks)."""
    game.emit("end_turn", turn=game.state.turn, rule="MBT 9.4.1")
    return
    yield
