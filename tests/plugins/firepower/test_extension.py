"""Extension points for the Advanced Game and Optional Rules: each of the six ``firepower_`` hooks
is called through ``FirepowerHooks`` and takes effect; fire procedures are kit pipelines with the
kit's edit order; save/replay of a whole game."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from hexwar.core.engine.record import load_saved, save_game
from hexwar.core.engine.replay import rebuild
from hexwar.core.errors import PluginError, RulesError
from hexwar.core.kit import Edit
from hexwar.core.markers import hookimpl
from hexwar.core.testing import make_game
from hexwar.core.types import Modifier, PluginManifest
from hexwar.plugins.firepower import actions, combat, impulses, state
from hexwar.plugins.firepower.actions import ActionType
from hexwar.plugins.firepower.ai import make_ai
from hexwar.plugins.firepower.hookspecs import FirepowerHooks
from hexwar.plugins.firepower.plugin import HERE, hexwar_register_systems

BASIC = HERE / "scenarios" / "basic.toml"


def _mark(ctx: combat.FireContext) -> None:
    ctx.outcome = "marked"


class StandInRule:
    """A stand-in optional rule implementing all six hooks: +2 on every shot and throw, a step
    after the shots, -1 MF, a new Action, and the Impulse Phase start and end."""

    PLUGIN = PluginManifest("firepower.testrule", "firepower", "rule", "test rule", "for tests",
                            implements=("Firepower 16.3.2",))

    def __init__(self) -> None:
        self.phases: list[tuple[str, str]] = []
        self.targets: list[str] = []

    @hookimpl
    def firepower_fire_modifiers(self, game: Any, ctx: Any, target: str) -> list[Modifier]:
        self.targets.append(target)
        return [Modifier("increased fire", 2, "Firepower 16.3.2")]

    @hookimpl
    def firepower_fire_steps(self, game: Any, kind: str) -> list[combat.FireEdit]:
        step = combat.Step("mark", _mark, "Firepower 16.3.2")
        return [Edit("insert_after", "shots", step=step)] if kind == "fire" else []

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


UNITS = [("A1", "RFL", "A", "C2", 4), ("B1", "RFL", "B", "C9", 1)]


BASIC_SIX = frozenset({
    "firepower_fire_modifiers", "firepower_fire_steps", "firepower_action_types",
    "firepower_mf_modifiers", "firepower_impulse_phase_start", "firepower_impulse_phase_end"})


def test_optional_rules_hook_into_fire_mf_actions_and_phases(fp_game: Any) -> None:
    rule = StandInRule()
    g = fp_game(UNITS, options=("firepower.testrule",), local_plugins=(rule,))
    assert FirepowerHooks.of(g).implemented() == BASIC_SIX                 # all six are live
    impulses.start_impulse_phase(g, "A")
    assert rule.phases == [("start", "A")]                        # firepower_impulse_phase_start
    impulses.begin_impulse(g, ["A1"])
    assert actions.mf_left(g, state.data(g)["phase"], "A1") == 3  # firepower_mf_modifiers
    assert {"unit": "A1", "act": "shout", "what": "halt"} in actions.legal_actions(g)
    with pytest.raises(RulesError):                               # firepower_action_types
        actions.apply_action(g, {"unit": "A1", "act": "shout", "what": "boo"})
    actions.apply_action(g, {"unit": "A1", "act": "shout", "what": "go"})
    assert g.state.units["A1"].state["shouted"] == "go"
    assert actions.mf_left(g, state.data(g)["phase"], "A1") == 2
    g.dice.force(10, 10)
    info = actions.apply_action(g, {"unit": "A1", "act": "fire", "mode": "semi",
                                    "targets": ["B1"], "after": 0})
    ctx = info["ctx"]                                             # firepower_fire_modifiers
    assert any(m.rule == "Firepower 16.3.2" and m.value == 2 for m in ctx.modifiers["B1"])
    assert any(m.rule == "Firepower 6.3.6.2.7" and m.value == 1 for m in ctx.modifiers["B1"])
    assert "B1" in rule.targets
    assert ctx.outcome == "marked"                                # firepower_fire_steps
    assert ctx.rules[-3:] == ["Firepower 6.3.6.3.1", "Firepower 16.3.2", "Firepower 6.4.1"]
    impulses.end_impulse_phase(g, "A")
    assert rule.phases == [("start", "A"), ("end", "A")]          # firepower_impulse_phase_end


def test_without_the_rule_enabled_no_hook_takes_effect(fp_game: Any) -> None:
    rule = StandInRule()
    g = fp_game(UNITS, local_plugins=(rule,))                     # offered, not enabled
    assert FirepowerHooks.of(g).implemented() == frozenset()
    impulses.start_impulse_phase(g, "A")
    impulses.begin_impulse(g, ["A1"])
    assert actions.mf_left(g, state.data(g)["phase"], "A1") == 4
    assert not any(isinstance(o, dict) and o.get("act") == "shout"
                   for o in actions.legal_actions(g))
    assert rule.phases == [] and rule.targets == []


def test_a_grenade_throw_takes_the_rules_modifiers(fp_game: Any) -> None:
    rule = StandInRule()
    g = fp_game([("A1", "RFL", "A", "C2", 4), ("B1", "RFL", "B", "C5", 1)],
                options=("firepower.testrule",), local_plugins=(rule,))
    impulses.start_impulse_phase(g, "A")
    impulses.begin_impulse(g, ["A1"])
    info = actions.check_action(g, {"unit": "A1", "act": "grenade", "hex": "1C5"})
    ctx = info["ctx"]
    combat.step_grenade_hit(ctx)
    assert [m.value for m in ctx.modifiers["throw"] if m.rule == "Firepower 16.3.2"] == [2]
    assert rule.targets == ["A1"]                                 # the thrower's id


def test_the_system_names_its_facade() -> None:
    (info,) = hexwar_register_systems()
    assert info.hooks is FirepowerHooks
    assert FirepowerHooks.called() == BASIC_SIX | {
        # the Advanced Game's (Firepower 12, 13): fire contexts, effects, obstacles, melee
        "firepower_prepare_fire", "firepower_fire_applied", "firepower_los_obstacles",
        "firepower_melee_modifiers", "firepower_melee_defenders"}


# -- fire procedures as kit pipelines (docs/decisions.md FPD-25) -----------------------------------

def _step(name: str) -> combat.Step:
    return combat.Step(name, lambda ctx: None)


def test_fire_steps_can_be_edited_by_name() -> None:
    steps = combat.procedure("fire", [Edit("insert_after", "check", step=_step("double_check")),
                                      Edit("remove", "suppression")])
    assert steps.names == ("check", "double_check", "hit_number", "modifiers", "shots")
    assert combat.procedure("grenade").names == ("check", "hit_number", "throw", "blast")


def test_two_inserts_after_one_anchor_keep_name_order() -> None:
    # the kit's documented order: [a, x1, x2] whatever order the edits come in
    edits = [Edit("insert_after", "shots", step=_step("x2")),
             Edit("insert_after", "shots", step=_step("x1"))]
    assert combat.procedure("fire", edits).names == (
        "check", "hit_number", "modifiers", "shots", "x1", "x2", "suppression")
    before = [Edit("insert_before", "shots", step=_step("x2")),
              Edit("insert_before", "shots", step=_step("x1"))]
    assert combat.procedure("fire", before).names[3:6] == ("x1", "x2", "shots")


class _Insert:
    def __init__(self, name: str) -> None:
        self.PLUGIN = PluginManifest(f"firepower.{name}", "firepower", "rule", name, "for tests")
        self.name = name

    @hookimpl
    def firepower_fire_steps(self, game: Any, kind: str) -> list[combat.FireEdit]:
        return [Edit("insert_after", "shots", step=_step(self.name), rule=self.PLUGIN.name)]


def test_two_rules_inserting_at_one_anchor_in_a_game(fp_game: Any) -> None:
    rules = (_Insert("x2"), _Insert("x1"))
    g = fp_game(UNITS, options=("firepower.x1", "firepower.x2"), local_plugins=rules)
    assert actions.fire_procedure(g, "fire").names == (
        "check", "hit_number", "modifiers", "shots", "x1", "x2", "suppression")


def test_an_edit_naming_no_step_is_an_error_listing_the_steps() -> None:
    with pytest.raises(PluginError, match="shots"):
        combat.procedure("fire", [Edit("insert_after", "volley", step=_step("x"), rule="r")])


# -- save and replay -------------------------------------------------------------------------------

def test_a_saved_game_replays_with_the_same_state_hashes(tmp_path: Path) -> None:
    g = make_game(BASIC, seed=7)
    g.play({"A": make_ai("A", 7), "B": make_ai("B", 8)})
    path = tmp_path / "game.json"
    save_game(g, path)
    again = rebuild(load_saved(path), verify=True)
    assert again.result == g.result
    assert again.state.digest() == g.state.digest()


class _SteadyAim:
    """A stand-in rule raising the hit number by one with a step after ``hit_number``."""

    PLUGIN = PluginManifest("firepower.steady", "firepower", "rule", "steady", "for tests")

    @staticmethod
    def _steady(ctx: combat.FireContext) -> None:
        ctx.hit += 1

    @hookimpl
    def firepower_fire_steps(self, game: Any, kind: str) -> list[combat.FireEdit]:
        return [Edit("insert_after", "hit_number", step=combat.Step("steady", self._steady))]


def test_the_terminal_shows_what_optional_rules_do_to_a_shot(fp_game: Any) -> None:
    from hexwar.core.engine.decisions import Decision
    from hexwar.plugins.firepower.explain import explain_decision

    def words(*rules: object) -> str:
        names = tuple(r.PLUGIN.name for r in rules)  # type: ignore[attr-defined]
        g = fp_game(UNITS, options=names, local_plugins=rules)
        impulses.start_impulse_phase(g, "A")
        impulses.begin_impulse(g, ["A1"])
        d = Decision("A", "action", options=actions.legal_actions(g), prompt="act")
        return explain_decision(g, d)

    assert "fire semi at B1 +0, range 7, hit number 5" in words()
    assert "fire semi at B1 +2, range 7, hit number 5" in words(StandInRule())
    assert "fire semi at B1 +0, range 7, hit number 6" in words(_SteadyAim())
