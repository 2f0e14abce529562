"""The tests a third-party plugin ships: the contract, and a game played to the end.

Run them from this folder with ``pytest`` after ``pip install -e .``.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from hexwar.core.testing import check_plugin_contract

SCENARIO = Path(__file__).resolve().parents[1] / "src" / "hexwar_skirmish" / "scenarios" / "crossroads.toml"


def test_contract() -> None:
    check_plugin_contract("skirmish")
    check_plugin_contract("skirmish.cover")


def test_a_game_ends(game_factory: Callable[..., Any], random_players: Callable[..., Any]) -> None:
    game = game_factory(SCENARIO, seed=7, options=("skirmish.cover",))
    result = game.play(random_players(game, 7))
    assert game.over
    assert result.level in {"elimination", "objective", "marginal", "draw"}
