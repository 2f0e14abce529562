"""MBT decisions in words at the terminal (``explain.py``): every kind of decision a game asks is
explained with its options numbered from 1 in the order the terminal reads them, none as JSON."""

from __future__ import annotations

import re
from typing import Any

from hexwar.core.cli import _controllers, _resolve_scenario_path
from hexwar.core.engine.game import Game
from hexwar.core.engine.view import game_of
from hexwar.core.scenario import load_and_validate
from hexwar.plugins.mbt.explain import DESCRIBE


class Watching:
    """Plays as the AI does, and explains every decision first."""

    def __init__(self, ai: Any, seen: dict[str, str]) -> None:
        self.ai, self.seen = ai, seen

    def choose(self, decision: Any, view: Any) -> Any:
        text = game_of(view).hooks.explain_decision(view, decision)
        numbered = [int(m) for m in re.findall(r"^\s+(\d+)\. ", text, flags=re.M)]
        assert numbered == list(range(1, len(decision.options or []) + 1)), text
        assert "[" not in "".join(text.splitlines()[1:]).replace("[MBT", ""), text  # no JSON
        self.seen.setdefault(decision.kind, text)
        return self.ai.choose(decision, view)


def test_every_mbt_decision_of_a_game_is_explained_in_words() -> None:
    game = Game(load_and_validate(_resolve_scenario_path("mbt:basic-d")), seed=2)
    ais, _ = _controllers(game, "ai,ai", 2)
    seen: dict[str, str] = {}
    game.play({s: Watching(c, seen) for s, c in ais.items()})
    assert {"mbt.edge", "mbt.place", "mbt.turret", "mbt.order", "mbt.move_unit",
            "mbt.move_to", "mbt.fire"} <= set(seen)
    assert set(seen) <= set(DESCRIBE)
    assert "range " in seen["mbt.fire"] and "M: move" in seen["mbt.order"]
