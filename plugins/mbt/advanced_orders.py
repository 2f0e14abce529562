"""MBT 13.3, the Advanced Game Mark Orders Step: as MBT 6.2, with the orders CA (close assault,
leg units only) and OR (overrun, vehicles only), and the limits suppression puts on orders
(MBT 12.3.3). Orders are marked secretly and at once by both sides (MBT 11.2).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from hexwar.core.engine.decisions import Decision
from hexwar.core.engine.primitives import ask_all
from hexwar.core.engine.state import Unit
from hexwar.plugins.mbt import doctrine
from hexwar.plugins.mbt.orders import legal_orders, order_validator
from hexwar.plugins.mbt.state import SIDES, Step, card_of, gun_usable, missile_usable
from hexwar.plugins.mbt.suppression import order_error

if TYPE_CHECKING:
    from hexwar.core.engine.game import Game

ADVANCED_ORDERS = ("F", "FM", "M", "OW", "ATGM", "CA", "OR")  # MBT 6.2.4, 13.3


def restrict(game: Game, u: Unit, legal: list[str]) -> list[str]:
    """The ``mbt_orders`` answer of the Advanced Game: the Basic orders less those suppression
    forbids (MBT 12.3.3), and CA for a dismounted, unsuppressed leg unit next to an enemy vehicle it
    could close-assault (MBT 13.3, 14.5.1), and OR for a vehicle that sighted an enemy leg or towed
    unit it can reach and overrun (MBT 13.3, 14.7.1.2). OW is open to a unit whose gun cannot fire
    but whose missile can: its overwatch shot is then the missile (MBT 13.3 OW, 14.1.4.3;
    docs/decisions.md MBTD-8, MBTD-134)."""
    from hexwar.plugins.mbt.close_assault import can_assault_now
    from hexwar.plugins.mbt.overrun import overrun_targets

    out = [o for o in legal if order_error(game, u, o) is None]
    if "OW" not in out and missile_usable(game, u) and order_error(game, u, "OW") is None:
        out.insert(len([o for o in out if o in ("F", "FM", "M")]), "OW")  # MBT 14.1.4.3
    if can_assault_now(game, u):  # MBT 13.3, 14.5.1
        out.append("CA")
    if card_of(game, u).kind == "vehicle" and overrun_targets(game, u, sighted_now=False):
        out.append("OR")  # MBT 13.3, 14.7.1.2: a sighted leg or towed unit it can reach
    return out


def advanced_validator(game: Game, u: Unit) -> Any:
    basic = order_validator(game, u)

    def validate(choice: Any) -> str | None:
        if choice not in ADVANCED_ORDERS:
            return (f"{choice!r} is not an order (F, FM, M, OW, ATGM, CA, OR; MBT 6.2.4, 13.3)")
        kind = card_of(game, u).kind
        if choice == "CA" and kind != "leg":
            return f"{u.id} is not a leg unit: only leg units take CA orders (MBT 13.3)"
        if choice == "CA":
            return (f"{u.id} has no enemy it could close-assault or fight hand to hand: "
                    "adjacent, in its arc, within two heights (MBT 14.5.1, 14.6.1)")
        if choice == "OR":
            if kind != "vehicle":
                return f"{u.id} is not a vehicle: only vehicles take OR orders (MBT 13.3)"
            return (f"{u.id} sights no enemy leg or towed unit it could overrun "
                    "(MBT 14.7.1.2)")
        locked = u.state.get("marker_locked")  # optional MBT 21.1.2 (rules/command_control.py)
        if locked:
            from hexwar.plugins.mbt.rules.command_control import marker_of

            if marker_of(str(choice), locked) != locked:
                return (f"{u.id} keeps its {locked} marker: changing it costs a command point "
                        "(MBT 21.1.2)")
        err = order_error(game, u, str(choice))
        if err is None and choice == "OW" and not gun_usable(game, u) \
                and not missile_usable(game, u):
            return (f"{u.id} has neither a main gun nor a missile it can fire: OW orders need one "
                    "(MBT 6.2.3, 13.3, 14.1.4.3)")
        return err or basic(choice)

    return validate


def orders_phase(game: Game) -> Step:
    """MBT 11.2.2, 13.3: every unit's order, secret and simultaneous; a Soviet doctrine
    organization takes one order for all its members, which may be partly impossible for some
    of them (MBT 13.4.3.2); abandoned units take none (MBT 13.4.2.5)."""
    decisions: list[Decision] = []
    units: list[list[Unit]] = []
    for side in SIDES:
        for u in game.state.units_of(side):
            if u.state.get("abandoned") or doctrine.is_follower(game, u):
                continue
            group = doctrine.members(game, u)
            legal_sets = [legal_orders(game, m) for m in group]
            legal = [o for o in ADVANCED_ORDERS if any(o in ls for ls in legal_sets)]
            if not legal:
                continue
            units.append(group)
            validate = advanced_validator(game, u) if len(group) == 1 else \
                group_validator(game, group)
            decisions.append(Decision(side, "mbt.order", options=legal, rule="MBT 13.3",
                                      validate=validate,
                                      context={"unit": u.id, "type": u.type,
                                               "members": [m.id for m in group]},
                                      prompt=f"Order for {u.id} ({u.type})"))
    choices = yield from ask_all(decisions)
    for group, choice in zip(units, choices, strict=True):
        for u in group:
            u.state["order"] = choice
            game.emit("order", visible_to=[u.side], unit=u.id, order=choice, rule="MBT 13.3")
            for p in u.state.get("carrying") or []:  # MBT 15.3.3.1: passengers share it
                game.state.units[p].state["order"] = choice


def group_validator(game: Game, group: list[Unit]) -> Any:
    """MBT 13.4.3.2: an organization's order is refused only when no member could carry it out."""
    checks = [advanced_validator(game, m) for m in group]

    def validate(choice: Any) -> str | None:
        errors = [c(choice) for c in checks]
        return errors[0] if all(errors) else None

    return validate
