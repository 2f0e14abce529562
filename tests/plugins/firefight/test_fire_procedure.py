"""The fire procedure (Firefight 6.0) as named steps: the base order, and an optional rule that inserts,
replaces or removes a step by name through ``firefight_fire_steps``."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from hexwar.core.errors import PluginError
from hexwar.core.kit import Edit
from hexwar.core.markers import hookimpl
from hexwar.core.types import Modifier, PluginManifest
from hexwar.plugins.firefight import fire as FI
from hexwar.plugins.firefight.testing import fresh_mini_game as mini_game
from hexwar.plugins.firefight.testing import unit_spec as U

UNITS = [U("tm", "US-TM", "US", "1005"), U("t62", "SU-T62", "SU", "1008")]


def test_base_fire_steps_in_rule_order(tmp_path: Path) -> None:
    g = mini_game(tmp_path, UNITS)
    pipeline = FI.fire_pipeline(g)[0]
    assert pipeline.names == (
        "target", "weapon", "attack", "dice", "base_rating", "modifiers", "range", "final_rating",
        "terrain_filters", "crt", "result_override", "mark_fired", "apply", "report",
        "attack_done")


def _rule(edits: list[Edit[FI.FireStep]]) -> Any:
    class Rule:
        PLUGIN = PluginManifest(name="house.fire_steps", system="firefight", kind="rule",
                                title="Fire steps", summary="test", implements=("House 1.0",))

        @staticmethod
        @hookimpl
        def firefight_fire_steps(game: Any) -> list[Edit[FI.FireStep]]:
            return edits

    return Rule


def _shot(g: Any) -> dict[str, Any]:
    return FI.execute_attack(g, "SU", ["t62"], "tm", None, "direct", rolls=[7])[0]


def test_a_rule_inserts_a_step_after_the_modifiers(tmp_path: Path) -> None:
    def rattled(shot: FI.Shot) -> None:
        shot.modifiers.append(Modifier("rattled", -1, "House 1.0"))

    plain = _shot(mini_game(tmp_path, UNITS))
    rule = _rule([Edit("insert_after", "modifiers", "rattled", rattled, "House 1.0")])
    g = mini_game(tmp_path, UNITS, rules=["house.fire_steps"], local_plugins=[rule])
    assert FI.fire_pipeline(g)[0].names.index("rattled") == 6
    out = _shot(g)
    assert out["ar"] == plain["ar"] - 1 and out["modifiers"][-1]["name"] == "rattled"
    att = FI.describe_attack(g, g.state.units["t62"], g.state.units["tm"],
                             FI.choose_weapon(g, g.state.units["t62"], g.state.units["tm"], None),
                             "direct")
    assert [m.name for m in FI.attack_rating(g, att)[2]] == ["rattled"]  # the pure part too


def test_a_rule_replaces_the_dice(tmp_path: Path) -> None:
    def loaded(shot: FI.Shot) -> None:
        shot.roll = 2

    rule = _rule([Edit("replace", "dice", step=loaded, rule="House 1.0")])
    g = mini_game(tmp_path, UNITS, rules=["house.fire_steps"], local_plugins=[rule])
    out = FI.execute_attack(g, "SU", ["t62"], "tm", None, "direct")[0]
    assert out["roll"] == 2 and "dice" in FI.fire_pipeline(g)[0].names


def test_the_computing_steps_may_not_be_removed(tmp_path: Path) -> None:
    rule = _rule([Edit("remove", "range", rule="House 1.0")])
    g = mini_game(tmp_path, UNITS, rules=["house.fire_steps"], local_plugins=[rule])
    with pytest.raises(PluginError, match="range"):
        _shot(g)


def test_a_step_after_range_that_reads_the_dice_is_run_for_every_roll(tmp_path: Path) -> None:
    """FFD-50: a rule's step between ``range`` and ``crt`` may read the dice, so the AI's preview
    of all eleven totals (``resolve_attack_rolls``) then runs it once a roll: each total's record
    is the one resolving that roll alone gives. With the shipped steps alone the preview shares
    them, with the same records."""
    def jittery(shot: FI.Shot) -> None:
        assert shot.roll is not None
        shot.modifiers.append(Modifier("jitter", shot.roll % 3, "House 1.0"))

    rule = _rule([Edit("insert_after", "final_rating", "jitter", jittery, "House 1.0")])
    for g in (mini_game(tmp_path, UNITS),
              mini_game(tmp_path, UNITS, rules=["house.fire_steps"], local_plugins=[rule])):
        f, t = g.state.units["t62"], g.state.units["tm"]
        att = FI.describe_attack(g, f, t, FI.choose_weapon(g, f, t, None), "direct")
        together = FI.resolve_attack_rolls(g, att, range(2, 13))
        assert together == {r: FI.resolve_attack(g, att, r) for r in range(2, 13)}
    assert {len(together[r]["modifiers"]) for r in range(2, 13)} == {1}


def test_the_ais_results_by_roll_follow_overrides_and_inserted_steps(tmp_path: Path) -> None:
    """FFD-52: the AI's results for every two-dice total (``attack_roll_results``, one CRT
    look-up a roll) are the results of the whole procedure for each roll: with the shipped
    steps, with a rule's override of the result (here every even roll's result is weakened to
    no effect), and with a rule's step between ``crt`` and ``result_override`` (the general
    path)."""
    class Override:
        PLUGIN = PluginManifest(name="house.override", system="firefight", kind="rule",
                                title="Override", summary="test", implements=("House 2.0",))

        @staticmethod
        @hookimpl
        def firefight_result_override(game: Any, attack: Any, roll: int, result: str) -> list[str]:
            return ["-"] if roll % 2 == 0 else []

    def doubled(shot: FI.Shot) -> None:
        if shot.roll == 12:
            shot.result = "K"

    inserted = _rule([Edit("insert_after", "crt", "doubled", doubled, "House 1.0")])
    games = {"shipped": mini_game(tmp_path, UNITS),
             "override": mini_game(tmp_path, UNITS, rules=["house.override"],
                                   local_plugins=[Override]),
             "inserted": mini_game(tmp_path, UNITS, rules=["house.fire_steps"],
                                   local_plugins=[inserted])}
    results = {}
    for name, g in games.items():
        f, t = g.state.units["t62"], g.state.units["tm"]
        att = FI.describe_attack(g, f, t, FI.choose_weapon(g, f, t, None), "direct")
        want = {r: str(FI.resolve_attack(g, att, r)["result"]) for r in range(2, 13)}
        assert FI.attack_roll_results(g, att, range(2, 13)) == want, name
        results[name] = want
    assert results["override"] != results["shipped"]
    assert {results["override"][r] for r in range(2, 13, 2)} == {"-"}
    assert results["inserted"][12] == "K"
