"""Skirmish's AI controller: takes the shot with the best modified roll, moves the unit that gets
closest to the objective, otherwise passes. It decides from its side's view (Skirmish is a game of
open information) and never calls the optional rules' hooks, so it plays the same with any rule."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from hexwar.core.types import total
from hexwar_skirmish.fire import attack_of, base_modifiers
from hexwar_skirmish.state import PINNED
from hexwar_skirmish.victory import objectives

if TYPE_CHECKING:
    from hexwar.core.engine.decisions import Decision
    from hexwar.core.engine.view import SideView


class SkirmishAI:
    name = "ai"

    def __init__(self, side: str, seed: int) -> None:
        self.side = side
        self.seed = seed

    def choose(self, decision: Decision, view: SideView) -> Any:
        options = list(decision.options or ["pass"])
        game = view.game
        if decision.kind == "fire":
            def value(opt: Any) -> float:
                if opt == "pass":
                    return -99.0
                target = game.unit(opt["target"])
                attack = attack_of(game, game.unit(opt["unit"]), target)
                return total(base_modifiers(game, attack)) + (0.5 if target.state.get(PINNED) else 0)
            return max(options, key=value)
        if decision.kind == "move":
            goals = [game.board.parse(x) for x in objectives(game)]
            if not goals:
                return "pass"

            def gain(opt: Any) -> tuple[int, str]:
                if opt == "pass":
                    return (0, "")
                unit = game.unit(opt["unit"])
                assert unit.hex is not None
                dest = game.board.parse(opt["to"])
                before = min(unit.hex.distance(g) for g in goals)
                after = min(dest.distance(g) for g in goals)
                return (before - after, f"{opt['unit']}{opt['to']}")
            best = max(options, key=gain)
            return best if gain(best)[0] > 0 else "pass"
        return options[0]
