"""The core's default answers to the decision hooks. Registered ``trylast``: any system wins."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from hexwar.core.markers import hookimpl
from hexwar.core.types import GameResult

if TYPE_CHECKING:
    from hexwar.core.engine.game import Game
    from hexwar.core.engine.view import SideView
    from hexwar.core.los import LosRules


@hookimpl(trylast=True)
def hexwar_final_result(game: Game) -> GameResult:
    """No victory conditions: the game is a draw."""
    return GameResult(winner=None, level="draw", reasons=("no victory rule was registered",))


@hookimpl(trylast=True)
def hexwar_los_rules(game: Game | None, system: str) -> LosRules:
    """Open ground everywhere: nothing blocks or hinders."""
    from hexwar.core.los import OpenGroundLos

    return OpenGroundLos()


@hookimpl(trylast=True)
def hexwar_visible_units(game: Game, side: str) -> list[str]:
    """Open information: every unit is visible to every side."""
    return sorted(game.state.units)


@hookimpl(trylast=True)
def hexwar_unit_view(game: Game, side: str, unit_id: str) -> dict[str, Any]:
    """A visible unit is shown in full."""
    return game.state.units[unit_id].to_dict()


@hookimpl(trylast=True)
def hexwar_explain_decision(view: SideView, decision: Any) -> str:
    from hexwar.core.engine.controllers import default_explanation

    return default_explanation(decision)


@hookimpl(trylast=True)
def hexwar_describe_event(game: Game | None, record: Mapping[str, Any]) -> str:
    from hexwar.core.words import generic_description

    return generic_description(record, game)


@hookimpl(trylast=True)
def hexwar_present_decision(view: SideView, decision: Any) -> dict[str, Any]:
    from hexwar.core.web.present import generic_presentation

    return generic_presentation(view, decision)
