"""Skirmish's AI controller: takes the shot with the best modified roll, moves the unit that gets
closest to the objective, otherwise passes. It decides from its side's view alone (Skirmish is a
game of open information): units from ``view.unit``, rules computations from ``view.rules``
(:class:`SkirmishRules`, given by the hook ``hexwar_side_rules``), and never calls the optional
rules' hooks, so it plays the same with any rule."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from hexwar.core.types import total
from hexwar_skirmish.fire import attack_of, base_modifiers
from hexwar_skirmish.state import PINNED
from hexwar_skirmish.victory import objectives

if TYPE_CHECKING:
    from hexwar.core.engine.decisions import Decision
    from hexwar.core.engine.game import Game
    from hexwar.core.engine.view import SideView


class SkirmishRules:
    """``view.rules`` of a Skirmish game (hook ``hexwar_side_rules``): the computations a
    controller may make, about units its side knows (in Skirmish, all of them)."""

    def __init__(self, game: Game, view: SideView) -> None:
        self._game = game
        self._view = view

    def modified_roll(self, firer: str, target: str) -> int:
        """Skirmish 5.3: the sum of the modifiers of ``firer``'s shot at ``target``."""
        f, t = self._view.unit(firer), self._view.unit(target)
        return total(base_modifiers(self._game, attack_of(self._game, f, t)))

    def objectives(self) -> list[str]:
        """The objective hexes (Skirmish 7.2)."""
        return objectives(self._game)


class SkirmishAI:
    name = "ai"

    def __init__(self, side: str, seed: int) -> None:
        self.side = side
        self.seed = seed

    def choose(self, decision: Decision, view: SideView) -> Any:
        options = list(decision.options or ["pass"])
        rules: SkirmishRules = view.rules
        if decision.kind == "fire":
            def value(opt: Any) -> float:
                if opt == "pass":
                    return -99.0
                target = view.unit(opt["target"])
                return rules.modified_roll(opt["unit"], target.id) + (
                    0.5 if target.state.get(PINNED) else 0)
            return max(options, key=value)
        if decision.kind == "move":
            goals = [view.board.parse(x) for x in rules.objectives()]
            if not goals:
                return "pass"

            def gain(opt: Any) -> tuple[int, str]:
                if opt == "pass":
                    return (0, "")
                unit = view.unit(opt["unit"])
                assert unit.hex is not None
                dest = view.board.parse(opt["to"])
                before = min(unit.hex.distance(g) for g in goals)
                after = min(dest.distance(g) for g in goals)
                return (before - after, f"{opt['unit']}{opt['to']}")
            best = max(options, key=gain)
            return best if gain(best)[0] > 0 else "pass"
        return options[0]
