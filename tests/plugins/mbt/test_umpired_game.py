"""A whole umpired MBT game (MBT 24.0), AI against AI with the automatic umpire, played to its real
end, replayed exactly; and at every decision of a side, nothing MBT 24.2 hides from it is in its
view, its decision or its log (the per-side log machinery: ``side_events``, ``visible_to``)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from hexwar.core.cli import cli
from hexwar.core.engine.decisions import Decision
from hexwar.core.engine.game import Game
from hexwar.core.engine.record import load_saved, save_game, side_events
from hexwar.core.engine.replay import rebuild
from hexwar.core.engine.umpire import UMPIRE, UmpireView
from hexwar.core.engine.view import SideView
from hexwar.core.testing import make_game
from hexwar.plugins.mbt.rules.umpired import LEVELS, controls, identification, sighting_report
from hexwar.plugins.mbt.rules.umpired_ai import UmpiredAI

#: records a side's log never holds in the umpired game (MBT 24.3.1, 24.3.3, 24.4.1)
NEVER = {"roll", "roll_off", "initiative", "result", "declared", "atgm_announced", "retargeted"}


class Watched:
    """A side's AI, checking at each of its decisions that it knows nothing MBT 24.2 hides."""

    def __init__(self, game: Game, side: str, seed: int) -> None:
        self.game, self.side = game, side
        self.ai = UmpiredAI(side, seed)
        self.checked = 0
        self.contacts_seen = 0

    def hidden_ids(self) -> list[str]:
        """MBT 24.2.1: the ids of every unit this side does not control (only the umpire knows
        identities)."""
        return [u.id for u in self.game.state.units.values() if not controls(self.side, u)]

    def choose(self, decision: Decision, view: SideView) -> Any:
        assert decision.side == self.side and view.side == self.side
        assert not isinstance(view, UmpireView)
        text = json.dumps([view.units, view.system_state, view.events(), view.header,
                           list(decision.options or []), decision.context], sort_keys=True)
        for uid in self.hidden_ids():
            assert f'"{uid}"' not in text, f"{self.side} can read {uid} at {decision.kind}"
        assert not {"seed", "scenario_text", "scenario_sha256"} & set(view.header)  # MBT 24.1
        assert not [e for e in view.events() if e["type"] in NEVER]
        mine = [e for e in view.events() if e["type"] == "decision"]
        assert all(e["side"] == self.side and "n" not in e and "hash" not in e for e in mine)
        assert view.system_state["first"] is None and view.system_state["victory_points"] is None
        for alias, shown in view.units.items():
            if not alias.startswith("?"):
                assert controls(self.side, self.game.state.units[alias])
                continue
            self.contacts_seen += 1
            level = shown["state"]["level"]
            assert level in LEVELS
            if level != "identified":
                assert "type" not in shown and "facing" not in shown  # MBT 24.2.2
            if level == "fired":
                assert "side" not in shown and set(shown["state"]) == {"level", "label"}
        if decision.kind == "mbt.turret" and self.game.state.phase == "mbt.orders":
            # the report was made in this Command Phase and nothing has moved since: what the
            # side was told is exactly what its own units sight now (MBT 24.2, 24.2.2)
            now = sighting_report(self.game, self.side)
            told = {uid: c for uid, c in self.game.state.data["mbt.umpired"]["reports"][
                self.side].items()}
            assert {u: c["state"]["level"] for u, c in told.items()} == {
                u: c["state"]["level"] for u, c in now.items()}
            for uid, c in told.items():
                assert identification(self.game, self.side, self.game.state.units[uid]) == \
                    c["state"]["level"]
        self.checked += 1
        return self.ai.choose(decision, view)


def play(seed: int) -> tuple[Game, dict[str, Watched]]:
    game = make_game("mbt:basic-a", seed=seed, options=["mbt.umpired"])
    players = {s: Watched(game, s, seed) for s in game.state.sides}
    game.play(players)
    return game, players


# seeds whose games run for several turns (seed 1's ends in an automatic victory on turn 5)
@pytest.mark.parametrize("seed", [2, 3])
def test_an_umpired_game_plays_to_its_end_and_no_side_learns_what_is_hidden(seed: int) -> None:
    game, players = play(seed)
    assert game.result is not None and game.over
    assert game.result.level in ("victory", "tie", "automatic victory")
    assert game.state.turn == game.scenario.turns or game.result.level == "automatic victory"
    assert all(p.checked > 30 for p in players.values())
    assert sum(p.contacts_seen for p in players.values()) > 0  # the sides did meet
    umpire = [d for d in game.decisions if d["side"] == UMPIRE]
    assert umpire and {d["kind"] for d in umpire} >= {"umpire.reveal"}
    shots = [e for e in game.log.events if e["type"] == "result"
             and e.get("what") == "AP point effect fire"]
    assert shots  # fire was carried out by the umpire
    for side in game.state.sides:
        mine = side_events(game.log.events, side)
        assert not [e for e in mine if e["type"] in NEVER]
        hidden = [u.id for u in game.state.units.values() if not controls(side, u)]
        text = json.dumps(mine)
        assert not [u for u in hidden if re.search(rf'"{u}"', text)]
    # the umpire's log holds everything
    assert {e["type"] for e in game.log.events} >= NEVER - {"retargeted", "atgm_announced"}


def test_an_umpired_game_replays_exactly_from_its_save(tmp_path: Path) -> None:
    game, _players = play(3)
    path = tmp_path / "umpired.json"
    save_game(game, path)
    again = rebuild(load_saved(path), verify=True)
    assert again.log.events == game.log.events
    assert again.state.digest() == game.state.digest()


def test_the_umpires_seat_from_the_command_line(tmp_path: Path) -> None:
    log = tmp_path / "game.log"
    nato = tmp_path / "nato.log"
    result = CliRunner().invoke(cli, [
        "play", "mbt:basic-a", "--option", "mbt.umpired", "--players", "umpired-ai",
        "--umpire", "random", "--seed", "4", "--log", str(log), "--log-side", f"NATO={nato}"],
        catch_exceptions=False)
    assert result.exit_code == 0, result.output
    records = [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]
    seat = [r for r in records if r["type"] == "decision" and r["side"] == UMPIRE]
    assert seat and all(r["visible_to"] == [] for r in seat)
    side_records = [json.loads(line) for line in nato.read_text(encoding="utf-8").splitlines()]
    assert not [r for r in side_records if r.get("side") == UMPIRE]
    assert not [r for r in side_records if r["type"] in NEVER]
    replay = CliRunner().invoke(cli, ["replay", str(log), "--verify"], catch_exceptions=False)
    assert replay.exit_code == 0, replay.output
