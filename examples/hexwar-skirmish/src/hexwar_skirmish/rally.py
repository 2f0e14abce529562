"""Skirmish 6.0 Rally."""

from __future__ import annotations

from typing import TYPE_CHECKING

from hexwar.core.engine.primitives import Step
from hexwar_skirmish.state import PINNED, live_units
from hexwar_skirmish.tables import tables

if TYPE_CHECKING:
    from hexwar.core.engine.game import Game


def rally_result(roll: int) -> str:
    """Skirmish 6.1: ``rallied`` or ``pinned``."""
    result: str = tables()["rally"].value(roll=roll)
    return result


def rally_phase(game: Game) -> Step:
    """Skirmish 6.1: every pinned unit rolls to rally (a phase that asks nothing)."""
    for unit in live_units(game):
        if unit.state.get(PINNED):
            roll = game.dice.d6(f"{unit.id} rallies")
            result = rally_result(roll)
            if result == "rallied":
                unit.state.pop(PINNED, None)
            game.report("rally", result=result, rules=["Skirmish 6.1"], unit=unit.id, roll=roll)
    yield from ()
