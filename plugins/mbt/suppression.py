"""MBT 12.3, Suppression (Advanced Game): suppressed (ON) and (OFF) markers and their effects.

``unit.state["suppressed"]`` is None, ``"ON"`` or ``"OFF"`` (both mean suppressed, MBT 12.3);
``unit.state["temp_sup"]`` marks temporary suppression (MBT 12.3.5). A new suppression puts an ON
marker in place of an OFF one and adds nothing else (MBT 12.3.4). The Adjust Markers Step removes
OFF and temporary markers, then turns ON to OFF (MBT 16.3.1-16.3.2): so a unit suppressed in one
Turn stays suppressed through the next Turn.

Effects: sighting and firing only within a 60-degree arc (MBT 12.3.1,
:func:`hexwar.plugins.mbt.advanced_sighting.sighting_arc`); the firer suppressed modifier
(MBT 12.3.2, 14.3.1.1.2, :mod:`hexwar.plugins.mbt.advanced_fire`); half movement factors for a
vehicle (MBT 12.3.3.1); no CA, FM or M orders, no moving and no pivots for leg and towed units
(MBT 12.3.3, 12.3.3.2).
"""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING

from hexwar.core.engine.state import Unit
from hexwar.plugins.mbt.orders import seen_by
from hexwar.plugins.mbt.state import alive, card_of

if TYPE_CHECKING:
    from hexwar.core.engine.game import Game

LEG_OR_TOWED = ("leg", "towed")


def suppressed(u: Unit) -> bool:
    """MBT 12.3: an ON or an OFF marker."""
    return u.state.get("suppressed") in ("ON", "OFF")


def suppress(game: Game, u: Unit, rule: str) -> None:
    """MBT 12.3.4-12.3.5: place a suppressed (ON) marker (replacing an OFF or a temporary one)."""
    if not alive(u):
        return
    u.state["suppressed"] = "ON"
    u.state["temp_sup"] = False
    game.emit("suppressed", visible_to=seen_by(game, [u]), unit=u.id, marker="ON", rule=rule)


def movement_allowance(game: Game, u: Unit, allowance: Fraction) -> Fraction | None:
    """MBT 12.3.3.1: a suppressed vehicle gets half its movement factors (a quarter with FM
    orders, as ``allowance`` is already halved for FM by MBT 8.2.1)."""
    if suppressed(u) and card_of(game, u).kind == "vehicle":
        return allowance / 2
    return None


def order_error(game: Game, u: Unit, order: str) -> str | None:
    """MBT 12.3.3: a suppressed leg or towed unit may not take CA, FM or M orders."""
    if suppressed(u) and card_of(game, u).kind in LEG_OR_TOWED and order in ("CA", "FM", "M"):
        return f"{u.id} is suppressed: a leg or towed unit may not take {order} orders (MBT 12.3.3)"
    return None


def may_pivot(game: Game, u: Unit) -> bool:
    """MBT 12.3.3.2: a leg or towed unit under suppression cannot pivot."""
    return not (suppressed(u) and card_of(game, u).kind in LEG_OR_TOWED)


def adjust_markers(game: Game) -> None:
    """MBT 16.3.1-16.3.2: remove OFF and temporary markers, then turn ON to OFF."""
    for u in game.state.units.values():
        if u.state.get("temp_sup"):
            u.state["temp_sup"] = False
        if u.state.get("suppressed") == "OFF":
            u.state["suppressed"] = None
    for u in game.state.units.values():
        if u.state.get("suppressed") == "ON":
            u.state["suppressed"] = "OFF"
