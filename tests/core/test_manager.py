"""Plugin manager: manifests, requirements, conflicts, order independence, sequence edits."""

from __future__ import annotations

import random
from collections.abc import Generator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from hexwar.core.engine.controllers import RandomController
from hexwar.core.engine.game import Game
from hexwar.core.errors import PluginError
from hexwar.core.manager import Hooks, build_plugin_manager, local_plugin, resolve_rules
from hexwar.core.markers import hookimpl
from hexwar.core.scenario import Scenario
from hexwar.core.types import Modifier, PhaseSpec, PluginManifest, SequenceEdit

from .toy import toy_system
from .toy.hookspecs import ToyHooks

TOY = Path(__file__).parent / "toy" / "scenario.toml"


def rule(name: str, **kw: Any) -> ModuleType:
    """A stand-in optional rule of the toy system (a module, as an installed rule is), with hooks
    given as keyword arguments."""
    manifest = PluginManifest(name=name, system=kw.pop("system", "toy"), kind="rule", title=name,
                              summary="test rule", requires=kw.pop("requires", ()),
                              conflicts=kw.pop("conflicts", ()))
    module = ModuleType(name)
    module.PLUGIN = manifest  # type: ignore[attr-defined]
    for key, value in kw.items():
        setattr(module, key, value)
    return module


def local(*modules: object) -> list[Any]:
    return [local_plugin(m) for m in modules]


def test_unknown_rule_is_named_with_suggestions() -> None:
    with pytest.raises(PluginError, match=r"unknown optional rule 'toy\.smok'.*did you mean toy\.smoke"):
        resolve_rules("toy", ["toy.smok"], local=local(toy_system, rule("toy.smoke")))


def test_unknown_system() -> None:
    with pytest.raises(PluginError, match="unknown system 'toyy'"):
        resolve_rules("toyy", [], local=local(toy_system))


def test_rule_of_another_system_is_refused() -> None:
    with pytest.raises(PluginError, match="belongs to system 'other'"):
        resolve_rules("toy", ["other.x"], local=local(toy_system, rule("other.x", system="other")))


def test_missing_requirement_and_conflicts_are_all_reported() -> None:
    plugins = local(toy_system, rule("toy.a", requires=("toy.b",)), rule("toy.b"),
                    rule("toy.c", conflicts=("toy.d",)), rule("toy.d"))
    with pytest.raises(PluginError) as err:
        resolve_rules("toy", ["toy.a", "toy.c", "toy.d"], local=plugins)
    text = str(err.value)
    assert "'toy.a' requires 'toy.b'" in text
    assert "'toy.c' and 'toy.d' conflict" in text
    # declared on one side only, the conflict still counts from either order
    assert resolve_rules("toy", ["toy.b", "toy.a"], local=plugins) == ["toy.a", "toy.b"]


def test_a_requirement_that_is_not_installed_is_named_as_such() -> None:
    """Issue 9 item 18: not "not enabled" (enabling it would not help) but "not installed"."""
    plugins = local(toy_system, rule("toy.a", requires=("toy.ghost",)), rule("toy.b"))
    with pytest.raises(PluginError) as err:
        resolve_rules("toy", ["toy.a"], local=plugins)
    text = str(err.value)
    assert "optional rule 'toy.a' requires 'toy.ghost', which is not installed" in text
    assert "not enabled" not in text
    # installed but not enabled still says so
    plugins = local(toy_system, rule("toy.a", requires=("toy.b",)), rule("toy.b"))
    with pytest.raises(PluginError, match=r"requires 'toy\.b', which is not enabled"):
        resolve_rules("toy", ["toy.a"], local=plugins)


def make_modifier_rule(name: str, value: float) -> ModuleType:
    class Impl:
        @hookimpl
        def toy_fire_modifiers(self, game: Any, attack: dict[str, Any]) -> list[Modifier]:
            return [Modifier(name, value, f"{name} 1")]

    return rule(name, toy_fire_modifiers=Impl().toy_fire_modifiers)


def play(order: list[Any], seed: int) -> list[str]:
    scenario = Scenario.load(TOY)
    names = [m.PLUGIN.name for m in order]
    game = Game(scenario, seed=seed, options=names, local_plugins=[toy_system, *order])
    game.play({s: RandomController(s, seed) for s in game.state.sides})
    return [d["hash"] for d in game.decisions] + [repr(e) for e in game.log.results()]


def test_results_do_not_depend_on_registration_order() -> None:
    rules = [make_modifier_rule(f"toy.m{i}", v) for i, v in enumerate((0.1, 0.2, -0.3, 1, 0.7))]
    reference = play(rules, seed=4)
    rng = random.Random(0)
    for _ in range(4):
        shuffled = rules[:]
        rng.shuffle(shuffled)
        assert play(shuffled, seed=4) == reference


def test_modifiers_come_back_in_canonical_order() -> None:
    rules = [make_modifier_rule(n, 1) for n in ("toy.zz", "toy.aa", "toy.mm")]
    game = Game(Scenario.load(TOY), seed=1, options=[r.PLUGIN.name for r in rules],
                local_plugins=[toy_system, *rules])
    mods = ToyHooks.of(game).fire_modifiers({"target": "b1"})
    assert [m.name for m in mods] == ["toy.aa", "toy.mm", "toy.zz"]


def _phase(name: str) -> PhaseSpec:
    def run(game: Any) -> Generator[Any, Any, None]:
        yield from ()

    return PhaseSpec(name, name, "test", run)


def test_sequence_edits_insert_replace_remove_by_name_in_any_order() -> None:
    edits = {
        "toy.r1": [SequenceEdit("insert_after", "toy.fire", _phase("toy.b-after-fire"))],
        "toy.r2": [SequenceEdit("insert_after", "toy.fire", _phase("toy.a-after-fire"))],
        "toy.r3": [SequenceEdit("insert_before", "toy.fire", _phase("toy.before-fire"))],
        "toy.r4": [SequenceEdit("replace", "toy.move", _phase("toy.new-move"))],
    }

    def make(name: str) -> ModuleType:
        class Impl:
            @hookimpl
            def hexwar_sequence_edits(self, system: str) -> list[SequenceEdit]:
                return edits[name]

        return rule(name, hexwar_sequence_edits=Impl().hexwar_sequence_edits)

    expected = ["toy.before-fire", "toy.fire", "toy.a-after-fire", "toy.b-after-fire", "toy.new-move"]
    for order in (["toy.r1", "toy.r2", "toy.r3", "toy.r4"], ["toy.r4", "toy.r2", "toy.r3", "toy.r1"]):
        plugins = [make(n) for n in order]
        pm = build_plugin_manager("toy", order, local=local(toy_system, *plugins))
        assert [p.name for p in Hooks(pm).sequence("toy")] == expected


def test_an_edit_naming_a_missing_phase_fails_clearly() -> None:
    class Impl:
        @hookimpl
        def hexwar_sequence_edits(self, system: str) -> list[SequenceEdit]:
            return [SequenceEdit("remove", "toy.nope")]

    bad = rule("toy.bad", hexwar_sequence_edits=Impl().hexwar_sequence_edits)
    pm = build_plugin_manager("toy", ["toy.bad"], local=local(toy_system, bad))
    with pytest.raises(PluginError, match=r"names 'toy\.nope', which is not a phase of toy here "
                                          r"\(toy\.fire, toy\.move\)"):
        Hooks(pm).sequence("toy")


def test_a_misspelled_hook_is_caught_at_registration() -> None:
    class Impl:
        @hookimpl
        def toy_fire_modifer(self, game: Any) -> None:  # typo
            return None

    bad = rule("toy.typo", toy_fire_modifer=Impl().toy_fire_modifer)
    with pytest.raises(Exception, match="unknown hook 'toy_fire_modifer'"):
        build_plugin_manager("toy", ["toy.typo"], local=local(toy_system, bad))
