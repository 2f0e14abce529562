"""Resuming a game reproduces the uninterrupted game exactly (issue 9 item 7): the AI's memory is
rebuilt by asking it every replayed decision of its side."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from hexwar.core.cli import _controllers, _resolve_scenario_path, cli
from hexwar.core.engine.game import Game
from hexwar.core.engine.record import save_game
from hexwar.core.scenario import load_and_validate
from hexwar.core.testing import played_game


def fresh(name: str, seed: int) -> Game:
    return Game(load_and_validate(_resolve_scenario_path(name)), seed=seed)


@pytest.mark.parametrize("name, seed, cut", [
    ("firefight:scenario-1", 1, 120),
    ("firefight:scenario-1", 2, 400),
    ("mbt:basic-a", 1, 40),
    ("mbt:basic-a", 3, 90),
])
def test_resuming_an_ai_game_reproduces_the_uninterrupted_game(
        tmp_path: Path, name: str, seed: int, cut: int) -> None:
    # the uninterrupted game: played once per process (CORE-126) and only read here; the same
    # scenario, seed and AI players as ``fresh`` and _controllers give (played_game builds it so)
    whole: Game = played_game(name, seed=seed)
    assert len(whole.decisions) > cut

    part = fresh(name, seed)
    controllers = _controllers(part, "ai,ai", seed)[0]
    for _ in range(cut):
        decision = part.pending
        assert decision is not None
        part.answer(controllers[decision.side].choose(decision, part.view(decision.side)))
    save = tmp_path / "game.json"
    save_game(part, save, players={s: "ai" for s in part.state.sides})

    result = CliRunner().invoke(cli, ["resume", str(save), "--json"], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    resumed = json.loads(save.read_text())
    assert len(resumed["decisions"]) == len(whole.decisions)
    first_difference = next((i + 1 for i, (a, b) in enumerate(
        zip(resumed["decisions"], whole.decisions, strict=False)) if a["hash"] != b["hash"]), None)
    assert first_difference is None, f"the resumed game diverges at decision {first_difference}"
    assert resumed["hash"] == whole.state.digest()
