"""MBT 11.3.1, the Close Assault Step (Advanced Game): not simultaneous; each side in turn.

In this step dismounted leg units with CA orders close-assault adjacent vehicles (MBT 14.5) and
fight hand-to-hand with adjacent leg and towed units (MBT 14.6), and each side may use its
vehicles' smoke dischargers (MBT 11.3.1, 12.6.1). Close assault and hand-to-hand combat are not
built yet: no leg unit card exists, and the CA order is refused with its rule
(:mod:`hexwar.plugins.mbt.advanced_orders`); so the step offers the smoke dischargers only
(docs/mbt-advanced.md).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from hexwar.core.engine.decisions import Decision
from hexwar.plugins.mbt import smoke
from hexwar.plugins.mbt.initiative import side_order
from hexwar.plugins.mbt.state import Step

if TYPE_CHECKING:
    from hexwar.core.engine.game import Game


def smoke_validator(game: Game) -> Any:
    def validate(choice: Any) -> str | None:
        if choice == "done":
            return None
        if not isinstance(choice, str) or choice not in game.state.units:
            return f"{choice!r} is not a unit (answer a unit id or done)"
        return smoke.can_discharge(game, game.state.units[choice]) or \
            f"{choice} cannot discharge smoke now (MBT 12.6)"

    return validate


def close_assault_step(game: Game) -> Step:
    """MBT 11.3.1, 12.6.1: each side, first player first, may fire smoke dischargers."""
    for side in side_order(game):
        while True:
            able = [u.id for u in game.state.units_of(side) if smoke.can_discharge(game, u) is None]
            if not able:
                break
            choice = yield Decision(side, "mbt.smoke", options=["done", *able], rule="MBT 12.6.1",
                                    validate=smoke_validator(game),
                                    prompt="Discharge a vehicle's smoke dischargers, or done")
            if choice == "done":
                break
            smoke.discharge(game, game.state.units[choice])
