"""The system kit (hexwar.core.kit): pipelines with one edit order, the typed stash, the hook
facade base, and host-system dispatch."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from types import ModuleType, SimpleNamespace
from typing import Any

import pluggy
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hexwar.core.errors import PluginError
from hexwar.core.kit import Edit, Pipeline, Stash, StashKey, SystemHooks, collect, plugin_system
from hexwar.core.manager import Hooks, build_plugin_manager, local_plugin
from hexwar.core.markers import PROJECT, hookimpl, hookspec
from hexwar.core.types import GameResult, PhaseSpec, PluginManifest, Problem, SequenceEdit

# -- Pipeline ------------------------------------------------------------------------------------

BASE = [("a", "A"), ("b", "B"), ("c", "C")]


def names(edits: Sequence[Edit[str]], base: Sequence[tuple[str, str]] = BASE) -> list[str]:
    return list(Pipeline(base, edits).names)


def test_two_inserts_after_one_anchor_keep_name_order_after_it() -> None:
    edits = [Edit("insert_after", "a", "x2", "X2"), Edit("insert_after", "a", "x1", "X1")]
    assert names(edits) == ["a", "x1", "x2", "b", "c"]


def test_two_inserts_before_one_anchor_keep_name_order_before_it() -> None:
    edits = [Edit("insert_before", "a", "x2", "X2"), Edit("insert_before", "a", "x1", "X1")]
    assert names(edits) == ["x1", "x2", "a", "b", "c"]


def test_inserts_on_both_sides_of_one_anchor() -> None:
    edits = [Edit("insert_after", "b", "y", "Y"), Edit("insert_before", "b", "x", "X")]
    assert names(edits) == ["a", "x", "b", "y", "c"]


def test_remove() -> None:
    pipeline = Pipeline(BASE, [Edit("remove", "b")])
    assert pipeline.names == ("a", "c")
    assert pipeline.steps == ("A", "C")
    assert "b" not in pipeline


def test_two_rules_removing_one_step_remove_it_once() -> None:
    assert names([Edit("remove", "b", rule="r1"), Edit("remove", "b", rule="r2")]) == ["a", "c"]


def test_replace_keeps_the_slot_name_unless_the_step_brings_its_own() -> None:
    kept = Pipeline(BASE, [Edit("replace", "b", step="B2")])
    assert kept.names == ("a", "b", "c") and kept["b"] == "B2"
    renamed = Pipeline(BASE, [Edit("replace", "b", "b2", "B2")])
    assert renamed.names == ("a", "b2", "c") and renamed.steps == ("A", "B2", "C")


def test_an_edit_may_anchor_on_a_step_another_edit_inserts_whatever_the_names() -> None:
    # "a0" sorts before "c": applied in one pass by name, the chain would not find its anchor
    edits = [Edit("insert_after", "a0", "z", "Z"), Edit("insert_after", "c", "a0", "A0")]
    assert names(edits) == ["a", "b", "c", "a0", "z"]
    assert names([Edit("insert_before", "x", "w", "W"), Edit("insert_after", "a", "x", "X")]) == [
        "a", "w", "x", "b", "c"]


def test_an_unknown_anchor_names_the_steps_there_are() -> None:
    with pytest.raises(PluginError) as err:
        Pipeline(BASE, [Edit("insert_after", "nope", "x", "X", rule="Toy 9.1")], what="fire step")
    assert str(err.value) == ("fire step edit insert_after 'x' (by Toy 9.1) names 'nope', which is "
                              "not a fire step here (a, b, c)")


def test_an_anchor_that_was_removed_says_so() -> None:
    edits = [Edit("remove", "b", rule="Toy 1"), Edit("insert_after", "b", "x", "X", rule="Toy 2")]
    with pytest.raises(PluginError, match=r"names 'b', which is not a step here \(it is removed "
                                          r"\(by Toy 1\)\) \(a, c\)"):
        Pipeline(BASE, edits)


def test_clashing_edits_are_errors_not_a_silent_choice() -> None:
    with pytest.raises(PluginError, match=r"2 edits replace the step 'b' \(r1, r2\); enable one"):
        Pipeline(BASE, [Edit("replace", "b", step="B2", rule="r2"),
                        Edit("replace", "b", step="B1", rule="r1")])
    with pytest.raises(PluginError, match=r"'b' is removed \(by r1\) and replaced \(by r2\)"):
        Pipeline(BASE, [Edit("replace", "b", step="B2", rule="r2"), Edit("remove", "b", rule="r1")])
    with pytest.raises(PluginError, match=r"brings 'c', which is already a step"):
        Pipeline(BASE, [Edit("insert_after", "a", "c", "C2")])
    with pytest.raises(PluginError, match=r"brings 'c', which is already a step"):
        Pipeline(BASE, [Edit("replace", "a", "c", "C2")])
    with pytest.raises(PluginError, match=r"the step names 'a' appear twice"):
        Pipeline([("a", "A"), ("a", "A2")])
    with pytest.raises(PluginError, match=r"insert_after at 'a' brings no step"):
        Pipeline(BASE, [Edit("insert_after", "a", "x")])
    with pytest.raises(PluginError, match=r"unknown step edit 'append'"):
        Pipeline(BASE, [Edit("append", "a", "x", "X")])  # type: ignore[arg-type]


def test_a_cycle_of_anchors_is_an_error() -> None:
    with pytest.raises(PluginError, match="edit insert_after 'y' names 'x', which is not a step"):
        Pipeline(BASE, [Edit("insert_after", "x", "y", "Y"), Edit("insert_after", "y", "x", "X")])


def test_pipeline_access() -> None:
    pipeline = Pipeline(BASE)
    assert len(pipeline) == 3 and list(pipeline) == BASE and pipeline["c"] == "C"
    assert repr(pipeline) == "Pipeline(a, b, c)"
    with pytest.raises(KeyError):
        pipeline["z"]


OPS = ("remove", "replace", "insert_before", "insert_after")


@st.composite
def edit_lists(draw: st.DrawFn) -> list[Edit[str]]:
    """Edits of a base [a, b, c, d], some anchored on steps other edits bring, some clashing."""
    count = draw(st.integers(0, 7))
    brought = [f"n{i}" for i in range(count)]
    anchors = ["a", "b", "c", "d"] * 3 + brought  # mostly the base steps
    edits: list[Edit[str]] = []
    for i, name in enumerate(brought):
        op = draw(st.sampled_from([*OPS, "insert_before", "insert_after"]))
        anchor = draw(st.sampled_from(anchors))
        rule = f"rule {i}"
        if op == "remove":
            edits.append(Edit("remove", anchor, rule=rule))
        elif op == "replace":
            edits.append(Edit("replace", anchor, draw(st.sampled_from(["", name])), name.upper(), rule))
        else:
            edits.append(Edit(op, anchor, name, name.upper(), rule))
    return edits


def outcome(edits: Sequence[Edit[str]]) -> object:
    try:
        return list(Pipeline([("a", "A"), ("b", "B"), ("c", "C"), ("d", "D")], edits))
    except PluginError as exc:
        return str(exc)


@settings(max_examples=300, deadline=None)
@given(edits=edit_lists(), data=st.data())
def test_the_order_edits_are_registered_in_never_matters(edits: list[Edit[str]],
                                                         data: st.DataObject) -> None:
    shuffled = data.draw(st.permutations(edits))
    assert outcome(shuffled) == outcome(edits)


# -- Stash ---------------------------------------------------------------------------------------


def test_stash_keys_are_distinct_by_identity_and_typed() -> None:
    first, second = StashKey[int]("count"), StashKey[int]("count")
    stash = Stash()
    stash[first] = 1
    assert first in stash and second not in stash
    assert stash.get(second) is None and stash.get(second, 7) == 7
    assert stash.setdefault(second, 2) == 2 and stash.setdefault(second, 3) == 2
    assert stash[first] == 1 and len(stash) == 2
    del stash[first]
    assert first not in stash
    assert stash.pop(second) == 2 and stash.pop(second) is None
    with pytest.raises(KeyError):
        stash[first]
    stash[first] = 4
    stash.clear()
    assert len(stash) == 0
    assert repr(first) == "StashKey('count')" and repr(StashKey()).startswith("StashKey(at 0x")


def test_a_game_has_its_own_stash(toy_game: Any) -> None:
    key = StashKey[list[str]]()
    toy_game.stash.setdefault(key, []).append("x")
    assert toy_game.stash[key] == ["x"]
    assert key not in toy_game.board.stash


# -- SystemHooks ---------------------------------------------------------------------------------


def spec_module(name: str, *specs: str) -> ModuleType:
    """A hookspecs module declaring ``specs`` (each a hook taking ``game`` and returning a list)."""
    module = ModuleType(name)
    for spec in specs:
        def fn(game: Any) -> list[Any]:
            raise NotImplementedError
        fn.__name__ = spec
        setattr(module, spec, hookspec(fn))
    module.not_a_hook = lambda: None  # type: ignore[attr-defined]
    return module


SPECS = spec_module("demo_specs", "demo_alpha", "demo_beta")


class DemoHooks(SystemHooks):
    specs = SPECS
    prefix = "demo_"

    def alpha(self) -> list[Any]:
        hook = self.hook.demo_alpha
        if hook not in self.live:
            return []
        return collect(hook(game=self.game))

    def beta(self) -> list[Any]:
        return collect(self.hook.demo_beta(game=self.game))

    def _helper(self) -> None:
        """Private helpers are allowed."""


def test_a_facade_missing_a_spec_method_is_refused_at_class_definition() -> None:
    with pytest.raises(TypeError, match="has no method for hook\\(s\\) demo_beta"):
        class Missing(SystemHooks):
            specs = SPECS
            prefix = "demo_"

            def alpha(self) -> None: ...


def test_a_facade_with_a_stray_method_is_refused_at_class_definition() -> None:
    with pytest.raises(TypeError, match="has method\\(s\\) gamma for no hook of demo_specs"):
        class Stray(SystemHooks):
            specs = SPECS
            prefix = "demo_"

            def alpha(self) -> None: ...
            def beta(self) -> None: ...
            def gamma(self) -> None: ...


def test_a_facade_needs_specs_and_a_prefix_that_names_hooks() -> None:
    with pytest.raises(TypeError, match="needs both 'specs'"):
        class NoPrefix(SystemHooks):
            specs = SPECS
    with pytest.raises(TypeError, match="specifies no hook named other_"):
        class WrongPrefix(SystemHooks):
            specs = SPECS
            prefix = "other_"


def test_a_facade_may_be_extended_by_a_subclass() -> None:
    class More(DemoHooks):
        pass

    assert More.called() == DemoHooks.called()


def test_called_names_every_specified_hook() -> None:
    assert DemoHooks.called() == frozenset({"demo_alpha", "demo_beta"})


def demo_game(*plugins: object) -> SimpleNamespace:
    pm = pluggy.PluginManager(PROJECT)
    pm.add_hookspecs(SPECS)
    for i, plugin in enumerate(plugins):
        pm.register(plugin, name=f"p{i}")
    return SimpleNamespace(pm=pm, stash=Stash())


class Alpha:
    @hookimpl
    def demo_alpha(self, game: Any) -> list[str]:
        return ["alpha"]


def test_live_and_implemented_reflect_the_registered_implementations() -> None:
    bare = DemoHooks(demo_game())  # type: ignore[arg-type]
    assert bare.live == frozenset() and bare.implemented() == frozenset()
    assert bare.alpha() == [] and bare.beta() == []
    hooks = DemoHooks(demo_game(Alpha()))  # type: ignore[arg-type]
    assert hooks.implemented() == frozenset({"demo_alpha"})
    assert hooks.hook.demo_alpha in hooks.live and hooks.hook.demo_beta not in hooks.live
    assert hooks.alpha() == ["alpha"]


def test_of_builds_the_facade_once_per_game() -> None:
    game, other = demo_game(Alpha()), demo_game()
    facade = DemoHooks.of(game)  # type: ignore[arg-type]
    assert DemoHooks.of(game) is facade  # type: ignore[arg-type]
    assert DemoHooks.of(other) is not facade  # type: ignore[arg-type]
    assert DemoHooks.of(other).implemented() == frozenset()  # type: ignore[arg-type]


def test_collect_flattens_list_results_and_skips_none() -> None:
    assert collect([[1, 2], None, [], (3,)]) == [1, 2, 3]


# -- host-system dispatch ------------------------------------------------------------------------


def manifest(name: str, kind: str = "system", system: str | None = None,
             bridges: tuple[str, ...] = ()) -> PluginManifest:
    return PluginManifest(name=name, system=system or name, kind=kind,  # type: ignore[arg-type]
                          title=name, summary="test plugin", bridges=bridges)


class Answers:
    """Implements every host-dispatched core hook, recording who was asked."""

    def __init__(self, who: str, calls: list[tuple[str, str]], *, answer: bool = True) -> None:
        self.who = who
        self.calls = calls
        self.answer = answer

    def _seen(self, hook: str, value: Any) -> Any:
        self.calls.append((self.who, hook))
        return value if self.answer else None

    @hookimpl
    def hexwar_register_phases(self, system: str) -> list[PhaseSpec]:
        run: Any = lambda game: iter(())  # noqa: E731
        return self._seen("register_phases", [PhaseSpec(f"{self.who}.p", "P", "", run)]) or []

    @hookimpl
    def hexwar_sequence_edits(self, system: str) -> list[SequenceEdit]:
        return self._seen("sequence_edits", []) or []

    @hookimpl
    def hexwar_validate_scenario(self, scenario: Any) -> list[Problem]:
        return self._seen("validate_scenario", [Problem(self.who)]) or []

    @hookimpl
    def hexwar_setup_game(self, game: Any) -> None:
        self._seen("setup_game", None)

    @hookimpl
    def hexwar_turn_start(self, game: Any) -> None:
        self._seen("turn_start", None)

    @hookimpl
    def hexwar_turn_end(self, game: Any) -> None:
        self._seen("turn_end", None)

    @hookimpl
    def hexwar_phase_start(self, game: Any, phase: Any) -> None:
        self._seen("phase_start", None)

    @hookimpl
    def hexwar_phase_end(self, game: Any, phase: Any) -> None:
        self._seen("phase_end", None)

    @hookimpl
    def hexwar_game_over(self, game: Any) -> GameResult | None:
        return self._seen("game_over", GameResult(self.who, "win"))  # type: ignore[no-any-return]

    @hookimpl
    def hexwar_final_result(self, game: Any) -> GameResult | None:
        return self._seen("final_result", GameResult(self.who, "win"))  # type: ignore[no-any-return]

    @hookimpl
    def hexwar_los_rules(self, game: Any, system: str) -> Any:
        return self._seen("los_rules", self.who)

    @hookimpl
    def hexwar_visible_units(self, game: Any, side: str) -> list[str] | None:
        return self._seen("visible_units", [self.who])  # type: ignore[no-any-return]

    @hookimpl
    def hexwar_unit_view(self, game: Any, side: str, unit_id: str) -> dict[str, Any] | None:
        return self._seen("unit_view", {"who": self.who})  # type: ignore[no-any-return]

    @hookimpl
    def hexwar_describe_state(self, game: Any, side: str | None) -> dict[str, Any] | None:
        return self._seen("describe_state", {"who": self.who})  # type: ignore[no-any-return]

    @hookimpl
    def hexwar_explain_decision(self, view: Any, decision: Any) -> str | None:
        return self._seen("explain_decision", self.who)  # type: ignore[no-any-return]


def plugin(name: str, mf: PluginManifest, impl: Answers) -> ModuleType:
    """A stand-in plugin module: the manifest and every hook method of ``impl``."""
    module = ModuleType(name)
    module.PLUGIN = mf  # type: ignore[attr-defined]
    for attr in dir(impl):
        if attr.startswith("hexwar_"):
            setattr(module, attr, getattr(impl, attr))
    return module


def two_systems(calls: list[tuple[str, str]], *, others_answer: bool = False) -> Hooks:
    """A manager holding systems ``one`` and ``two``, a rule of each, an adapter bridging them
    and a plain object without a manifest."""
    plugins = [
        plugin("one", manifest("one"), Answers("one", calls)),
        plugin("two", manifest("two"), Answers("two", calls)),
        plugin("one.r", manifest("one.r", "rule", "one"), Answers("one.r", calls, answer=False)),
        plugin("two.r", manifest("two.r", "rule", "two"), Answers("two.r", calls, answer=False)),
        plugin("one-two", manifest("one-two", "adapter", "one", ("one", "two")),
               Answers("adapter", calls, answer=others_answer)),
    ]
    pm = build_plugin_manager("one", ["one.r", "two.r", "one-two"], guests=["two"],
                              local=[local_plugin(p) for p in plugins],
                              extra=[("plain", Answers("plain", calls, answer=others_answer))])
    return Hooks(pm)


def fake_game(system: str) -> Any:
    return SimpleNamespace(scenario=SimpleNamespace(system=system))


CALLS: dict[str, Any] = {
    "register_phases": lambda h, s: [p.name for p in h.sequence(s)],
    "validate_scenario": lambda h, s: [p.message for p in h.validate_scenario(fake_game(s).scenario)],
    "setup_game": lambda h, s: h.setup_game(fake_game(s)),
    "turn_start": lambda h, s: h.turn_start(fake_game(s)),
    "turn_end": lambda h, s: h.turn_end(fake_game(s)),
    "phase_start": lambda h, s: h.phase_start(fake_game(s), None),
    "phase_end": lambda h, s: h.phase_end(fake_game(s), None),
    "game_over": lambda h, s: h.game_over(fake_game(s)).winner,
    "final_result": lambda h, s: h.final_result(fake_game(s)).winner,
    "los_rules": lambda h, s: h.los_rules(fake_game(s), s),
    "visible_units": lambda h, s: sorted(h.visible_units(fake_game(s), "x")),
    "unit_view": lambda h, s: h.unit_view(fake_game(s), "x", "u")["who"],
    # the batch form a view uses: the same answers, in pluggy's order, first non-None wins
    "unit_views": lambda h, s: next(v["who"] for _, v in h.unit_views(fake_game(s), "x", ["u"])),
    "describe_state": lambda h, s: h.describe_state(fake_game(s), None)["who"],
    "explain_decision": lambda h, s: h.explain_decision(SimpleNamespace(game=fake_game(s)), None),
}
ANSWERS = {
    "register_phases": lambda s: [f"{s}.p"],
    "validate_scenario": lambda s: [s],
    "game_over": lambda s: s, "final_result": lambda s: s, "los_rules": lambda s: s,
    "visible_units": lambda s: [s], "unit_view": lambda s: s, "unit_views": lambda s: s,
    "describe_state": lambda s: s,
    "explain_decision": lambda s: s,
}


@pytest.mark.parametrize("hook", sorted(CALLS))
@pytest.mark.parametrize("system", ["one", "two"])
def test_a_system_answers_only_for_its_own_games(hook: str, system: str) -> None:
    calls: list[tuple[str, str]] = []
    result = CALLS[hook](two_systems(calls), system)
    if hook in ANSWERS:
        assert result == ANSWERS[hook](system)
    # the other system and its rule are never asked; adapters and plain objects always are
    asked = RECORDED_AS.get(hook, hook)
    assert {who for who, h in calls if h == asked} == {system, f"{system}.r", "adapter", "plain"}


#: the hook a batch form asks (the implementations record the hook they implement)
RECORDED_AS = {"unit_views": "unit_view"}

FIRSTRESULT = ["final_result", "game_over", "los_rules", "unit_view", "unit_views",
               "describe_state", "explain_decision", "visible_units"]


@pytest.mark.parametrize("hook", FIRSTRESULT)
def test_an_adapter_or_plain_object_may_answer_for_every_system(hook: str) -> None:
    for system in ("one", "two"):
        calls: list[tuple[str, str]] = []
        result = CALLS[hook](two_systems(calls, others_answer=True), system)
        assert result == ANSWERS[hook]("plain")  # registered last, so asked first


def test_plugin_system() -> None:
    assert plugin_system(SimpleNamespace(PLUGIN=manifest("one.r", "rule", "one"))) == "one"
    assert plugin_system(SimpleNamespace(PLUGIN=manifest("a", "adapter", "one", ("one", "two")))) is None
    assert plugin_system(object()) is None


def test_an_unhashable_plugin_is_refused_with_a_clear_message() -> None:
    unhashable = SimpleNamespace(PLUGIN=manifest("one"))
    with pytest.raises(PluginError, match="'one' is a SimpleNamespace, which is not hashable"):
        build_plugin_manager("one", local=[local_plugin(unhashable)])


@pytest.fixture
def toy_game() -> Any:
    from hexwar.core.testing import make_game

    from .toy import toy_system

    return make_game(Path(__file__).parent / "toy" / "scenario.toml", local_plugins=[toy_system])
