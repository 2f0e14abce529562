"""Extension points for the Advanced Game and Optional Rules, and save/replay of a whole game."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from hexwar.core.engine.game import Game
from hexwar.core.engine.record import load_saved, save_game
from hexwar.core.engine.replay import rebuild
from hexwar.core.errors import RulesError
from hexwar.core.markers import hookimpl
from hexwar.core.scenario import Scenario
from hexwar.core.types import Modifier, PluginManifest
from hexwar.plugins.firepower import combat, engine
from hexwar.plugins.firepower.actions import ActionType
from hexwar.plugins.firepower.ai import make_ai
from hexwar.plugins.firepower.plugin import HERE


class StandInRule:
    """A stand-in optional rule: +2 on every shot, a step after the shots, -1 MF, phase hooks."""

    PLUGIN = PluginManifest("firepower.testrule", "firepower", "rule", "test rule", "for tests",
                            implements=("Firepower 16.3.2",))

    def __init__(self) -> None:
        self.phases: list[tuple[str, str]] = []

    @hookimpl
    def firepower_fire_modifiers(self, game: Any, ctx: Any, target: str) -> list[Modifier]:
        return [Modifier("increased fire", 2, "Firepower 16.3.2")]

    @hookimpl
    def firepower_fire_step_edits(self, kind: str) -> list[combat.StepEdit]:
        def mark(ctx: combat.FireContext) -> None:
            ctx.outcome = "marked"

        return [combat.StepEdit("insert_after", "shots", combat.Step("mark", mark))] \
            if kind == "fire" else []

    @hookimpl
    def firepower_mf_modifiers(self, game: Any, unit_id: str) -> list[Modifier]:
        return [Modifier("heavy load", -1, "Firepower 15.2")]

    @hookimpl
    def firepower_action_types(self) -> list[ActionType]:
        def check(game: Any, ph: dict[str, Any], choice: dict[str, Any]) -> dict[str, Any]:
            if choice.get("what") not in ("halt", "go"):
                raise RulesError("shout halt or go", rule="Firepower 11.1")
            return {"cost": 1, "what": choice["what"]}

        def apply(game: Any, ph: dict[str, Any], info: dict[str, Any]) -> None:
            game.state.units[info["unit"]].state["shouted"] = info["what"]

        def options(game: Any, ph: dict[str, Any], uid: str) -> list[dict[str, Any]]:
            return [{"unit": uid, "act": "shout", "what": "halt"}]

        return [ActionType("shout", check, apply, options, rule="Firepower 11.1")]

    @hookimpl
    def firepower_impulse_phase_start(self, game: Any, side: str) -> None:
        self.phases.append(("start", side))

    @hookimpl
    def firepower_impulse_phase_end(self, game: Any, side: str) -> None:
        self.phases.append(("end", side))


def test_optional_rules_hook_into_fire_mf_and_phases(fp_game: Any, tmp_path: Path) -> None:
    base = fp_game([("A1", "RFL", "A", "C2", 4), ("B1", "RFL", "B", "C9", 1)])
    rule = StandInRule()
    g = Game(base.scenario, seed=0, options=["firepower.testrule"], local_plugins=[rule])
    engine.start_impulse_phase(g, "A")
    engine.begin_impulse(g, ["A1"])
    assert engine.mf_left(g, engine.data(g)["phase"], "A1") == 3
    assert {"unit": "A1", "act": "shout", "what": "halt"} in engine.legal_actions(g)
    with pytest.raises(RulesError):
        engine.apply_action(g, {"unit": "A1", "act": "shout", "what": "boo"})
    engine.apply_action(g, {"unit": "A1", "act": "shout", "what": "go"})
    assert g.state.units["A1"].state["shouted"] == "go"
    assert engine.mf_left(g, engine.data(g)["phase"], "A1") == 2
    g.dice.force(10, 10)
    info = engine.apply_action(g, {"unit": "A1", "act": "fire", "mode": "semi",
                                   "targets": ["B1"], "after": 0})
    ctx = info["ctx"]
    assert any(m.rule == "Firepower 16.3.2" and m.value == 2 for m in ctx.modifiers["B1"])
    assert any(m.rule == "Firepower 6.3.6.2.7" and m.value == 1 for m in ctx.modifiers["B1"])
    assert ctx.outcome == "marked"
    engine.end_impulse_phase(g, "A")
    assert rule.phases == [("start", "A"), ("end", "A")]


def test_a_saved_game_replays_with_the_same_state_hashes(tmp_path: Path) -> None:
    g = Game(Scenario.load(HERE / "scenarios" / "basic.toml"), seed=7)
    g.play({"A": make_ai("A", 7), "B": make_ai("B", 8)})
    path = tmp_path / "game.json"
    save_game(g, path)
    again = rebuild(load_saved(path), verify=True)
    assert again.result == g.result
    assert again.state.digest() == g.state.digest()
