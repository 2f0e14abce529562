"""MBT 13.3, the Advanced Game Mark Orders Step: as MBT 6.2, with the orders CA (close assault,
leg units only) and OR (overrun, vehicles only), and the limits suppression puts on orders
(MBT 12.3.3). Orders are marked secretly and at once by both sides (MBT 11.2).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from hexwar.core.engine.decisions import Decision
from hexwar.core.engine.primitives import ask_all
from hexwar.core.engine.state import Unit
from hexwar.plugins.mbt.orders import legal_orders, order_validator
from hexwar.plugins.mbt.state import SIDES, Step, card_of
from hexwar.plugins.mbt.suppression import order_error

if TYPE_CHECKING:
    from hexwar.core.engine.game import Game

ADVANCED_ORDERS = ("F", "FM", "M", "OW", "ATGM", "CA", "OR")  # MBT 6.2.4, 13.3


def restrict(game: Game, u: Unit, legal: list[str]) -> list[str]:
    """The ``mbt_orders`` answer of the Advanced Game: the Basic orders less those suppression
    forbids (MBT 12.3.3). CA needs a leg unit and OR a sighted enemy leg or towed unit that the
    vehicle can reach (MBT 13.3, 14.7.1.2): there are no leg or towed cards yet, so neither is
    ever legal."""
    return [o for o in legal if order_error(game, u, o) is None]


def advanced_validator(game: Game, u: Unit) -> Any:
    basic = order_validator(game, u)

    def validate(choice: Any) -> str | None:
        if choice not in ADVANCED_ORDERS:
            return (f"{choice!r} is not an order (F, FM, M, OW, ATGM, CA, OR; MBT 6.2.4, 13.3)")
        kind = card_of(game, u).kind
        if choice == "CA" and kind != "leg":
            return f"{u.id} is not a leg unit: only leg units take CA orders (MBT 13.3)"
        if choice == "OR":
            if kind != "vehicle":
                return f"{u.id} is not a vehicle: only vehicles take OR orders (MBT 13.3)"
            return (f"{u.id} sights no enemy leg or towed unit it could overrun "
                    "(MBT 14.7.1.2)")
        err = order_error(game, u, str(choice))
        return err or basic(choice)

    return validate


def orders_phase(game: Game) -> Step:
    """MBT 11.2.2, 13.3: every unit's order, secret and simultaneous."""
    decisions: list[Decision] = []
    units: list[Unit] = []
    for side in SIDES:
        for u in game.state.units_of(side):
            legal = legal_orders(game, u)
            if not legal:
                continue
            units.append(u)
            decisions.append(Decision(side, "mbt.order", options=legal, rule="MBT 13.3",
                                      validate=advanced_validator(game, u),
                                      context={"unit": u.id, "type": u.type},
                                      prompt=f"Order for {u.id} ({u.type})"))
    choices = yield from ask_all(decisions)
    for u, choice in zip(units, choices, strict=True):
        u.state["order"] = choice
        game.emit("order", visible_to=[u.side], unit=u.id, order=choice, rule="MBT 13.3")
