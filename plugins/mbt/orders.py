"""MBT 6.2, the Basic Game Mark Orders Step: every unit's order, marked secretly and at once.

The Basic Game orders are F, FM, M, OW and ATGM (MBT 6.2.4); what a unit may take depends on what
it sighted (MBT 6.1) and on its damage (MBT 6.2.3; docs/decisions.md MBTD-8). An order is revealed
when it is used (MBT 7.3.1) and at the Pivot Step (MBT 9.1).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from hexwar.core.engine.decisions import Decision
from hexwar.core.engine.primitives import ask_all
from hexwar.core.engine.state import Unit
from hexwar.plugins.mbt.hookspecs import MbtHooks
from hexwar.plugins.mbt.state import (
    SIDES,
    Step,
    alive,
    can_move,
    data,
    gun_usable,
    missile_usable,
)

if TYPE_CHECKING:
    from hexwar.core.engine.game import Game

ORDERS = ("F", "FM", "M", "OW", "ATGM")
#: what the enemy sees of a unit: its counter, turret, markers and damage (MBT 6.2.1-6.2.2)
PUBLIC_STATE = ("turret", "open", "spotted", "damage", "destroyed", "wreck_at", "fired", "moved")


def guns_usable(game: Game, u: Unit) -> bool:
    """MBT 6.2.3: a working main gun, or guns a rule gives (``mbt_guns_usable``: the Advanced
    Game's working independent machineguns, MBT 14.1.2.1)."""
    return gun_usable(game, u) or MbtHooks.of(game).guns_usable(u)


def legal_orders(game: Game, u: Unit) -> list[str]:
    """MBT 6.2.3-6.2.4: the orders this unit can carry out. F, FM and ATGM need an enemy the unit
    sighted in the Sighting Step (MBT 6.1); M and FM need a unit able to move; F, FM and OW need the
    main gun (OW: main guns only in the Basic Game); ATGM needs a missile."""
    if not alive(u):
        return []
    sees_any = bool(data(game).get("sighted", {}).get(u.id))
    out = []
    gun = guns_usable(game, u)
    if gun and sees_any:
        out.append("F")
        if can_move(u):
            out.append("FM")
    if can_move(u):
        out.append("M")
    if gun:
        out.append("OW")
    if missile_usable(game, u) and sees_any:
        out.append("ATGM")
    return MbtHooks.of(game).orders(u, out)


def order_validator(game: Game, u: Unit) -> Any:
    """Explain why an order the unit cannot carry out is refused (MBT 6.2.3)."""

    def validate(choice: Any) -> str | None:
        if choice not in ORDERS:
            return f"{choice!r} is not a Basic Game order (F, FM, M, OW, ATGM; MBT 6.2.4)"
        if choice in ("M", "FM") and not can_move(u):
            return f"{u.id} cannot move (track or hull compartment hit; MBT 6.2.3)"
        if choice in ("F", "FM", "OW") and not guns_usable(game, u):
            return f"{u.id} cannot fire its main gun (MBT 6.2.3, 7.4.5.3.2, 7.4.7.2.1)"
        if choice == "ATGM" and not missile_usable(game, u):
            return f"{u.id} has no missile it can fire (MBT 6.2.4)"
        if choice in ("F", "FM", "ATGM") and not data(game).get("sighted", {}).get(u.id):
            return f"{u.id} sighted no enemy unit in the Sighting Step (MBT 6.1)"
        return f"{u.id} cannot take order {choice} (MBT 6.2.3)"

    return validate


def orders_phase(game: Game) -> Step:
    """MBT 6.2: orders are marked face down by both sides at once (ask_all: no side sees the
    other's answers, and the engine logs each choice only for its own side)."""
    decisions: list[Decision] = []
    units: list[Unit] = []
    for side in SIDES:
        for u in game.state.units_of(side):
            legal = legal_orders(game, u)
            if not legal:
                continue
            units.append(u)
            decisions.append(Decision(side, "mbt.order", options=legal, rule="MBT 6.2",
                                      validate=order_validator(game, u),
                                      context={"unit": u.id, "type": u.type},
                                      prompt=f"Order for {u.id} ({u.type})"))
    choices = yield from ask_all(decisions)
    for u, choice in zip(units, choices, strict=True):
        u.state["order"] = choice
        game.emit("order", visible_to=[u.side], unit=u.id, order=choice, rule="MBT 6.2.1")


def reveal(game: Game, u: Unit) -> None:
    """MBT 7.3.1: the order is shown when used."""
    if not u.state.get("revealed"):
        u.state["revealed"] = True
        game.emit("order_revealed", visible_to=seen_by(game, [u]), unit=u.id,
                  order=u.state.get("order"), rule="MBT 7.3.1")


def seen_by(game: Game, units: list[Unit]) -> list[str] | None:
    """The sides that may know of ``units`` now: their owners, and each other side that sees
    every one of them (MBT 6.1: hidden information; a side never hears of a unit it cannot
    see); ``None`` (everyone) when every side may."""
    from hexwar.plugins.mbt.sighting import seen_by_side

    owners = {u.side for u in units}
    sides = [s for s in game.state.sides
             if s in owners or all(seen_by_side(game, s, u) for u in units)]
    return None if len(sides) == len(game.state.sides) else sides


def unit_view(game: Game, side: str, unit_id: str) -> dict[str, Any]:
    """A unit as ``side`` sees it: all of its own; of an enemy unit, the public state, and its order
    only once revealed (MBT 6.2.1-6.2.2, 7.3.1)."""
    u = game.state.units[unit_id]
    d = u.to_dict()
    if u.side == side:
        return d
    st = {k: u.state[k] for k in PUBLIC_STATE if k in u.state}
    if u.state.get("revealed"):
        st["order"] = u.state.get("order")
    for k in ("up", "inb", "full_cover"):  # Advanced MBT 15.4.1, 15.5: location markers are public
        if u.state.get(k):
            st[k] = u.state[k]
    if u.state.get("suppressed"):  # Advanced MBT 12.3.4: a suppressed marker is on the map
        st["suppressed"] = u.state["suppressed"]  # (docs/decisions.md MBTD-109)
    if u.state.get("carrying"):  # Advanced MBT 15.3.3.3: not from a buttoned full-cover carrier
        from hexwar.plugins.mbt.transport import passengers_shown

        shown = passengers_shown(game, u)
        if shown is not None:
            st["carrying"] = shown
    d["state"] = st
    return d
