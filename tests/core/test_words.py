"""The core's words for log records (hexwar_describe_event): its own records' sentences, the
fallback for any other, and the end-of-game summary."""

from __future__ import annotations

from typing import TYPE_CHECKING

from hexwar.core.manager import Hooks, build_plugin_manager
from hexwar.core.words import cite, fallback_sentence, generic_description, words

if TYPE_CHECKING:
    from hexwar.core.engine.game import Game


def test_a_record_without_system_words_reads_as_its_type_and_fields() -> None:
    text = generic_description({"type": "unit_moved", "turn": 2, "phase": "movement",
                                "unit": "t62-su1", "path": ["0304", "0305"]})
    assert text == "unit moved: unit t62-su1, path 0304, 0305"
    assert text == fallback_sentence({"type": "unit_moved", "unit": "t62-su1",
                                      "path": ["0304", "0305"]})


def test_a_decision_names_its_side_kind_and_choice() -> None:
    text = generic_description({"type": "decision", "n": 3, "side": "us", "kind": "fire_target",
                                "choice": "t62-su1"})
    assert text == "us decides fire target: t62-su1"
    table = generic_description({"type": "decision", "side": "SU", "kind": "firefight.deploy",
                                 "choice": {"t62-su4": "2247"}})
    assert table == "SU decides deploy: t62-su4 2247"


def test_the_core_records_read_as_sentences() -> None:
    assert generic_description({"type": "roll", "purpose": "fire t62-su1 die 1", "dice": "d6",
                                "faces": [4], "value": 4}) == "roll d6 for fire t62-su1 die 1: 4"
    assert generic_description({"type": "roll", "purpose": "to hit", "dice": "d100",
                                "faces": [4, 2], "value": 42}) == \
        "roll d100 for to hit: 42 (faces 4, 2)"
    assert generic_description({"type": "roll", "purpose": "fire", "dice": "2d6",
                                "faces": [4, 2], "value": 6}) == "roll 2d6 for fire: 6 (4+2)"
    assert generic_description({"type": "turn", "turn": 3}) == "game-turn 3 begins"
    assert generic_description({"type": "roll_off", "purpose": "MBT 5.1 initiative",
                                "rolls": {"NATO": 3, "Soviet": 7}, "winner": "Soviet"}) == \
        "roll-off for MBT 5.1 initiative: NATO 3, Soviet 7; Soviet wins"
    over = generic_description({"type": "game_over", "result": {
        "winner": "US", "level": "victory", "scores": {"US": 9}, "reasons": ["9 units passed"]}})
    assert over == "game over: US wins (victory); scores US 9; 9 units passed"
    assert generic_description({"type": "phase", "phase": "firefight.direct_fire",
                                "rule": "Firefight 4.1A"}) == "direct fire begins [Firefight 4.1A]"


def test_values_read_as_prose_not_reprs() -> None:
    assert words({"gun": True, "hull_hits": 2}) == "gun yes; hull hits 2"
    assert words([1, "a", None]) == "1, a, none"
    assert cite("Firefight 6.0", ["Firefight 6.7", "Firefight 6.0"], "") == \
        " [Firefight 6.0, Firefight 6.7]"
    assert cite() == ""


def test_the_manager_answers_with_the_core_default_when_no_system_does() -> None:
    hooks = Hooks(build_plugin_manager("firefight"))
    assert hooks.describe_event(None, {"type": "unknown_thing", "dice": [3, 4]}) == \
        "unknown thing: dice 3, 4"


def _played(name: str, seed: int = 1) -> Game:
    # the golden game of ``name`` (seed 1, AI against AI), played once per process and shared
    # with tests/test_golden_games.py and tests/plugins/test_words.py (CORE-126): the summary
    # tests only read it
    from hexwar.core.testing import played_game

    game: Game = played_game(name, seed=seed)
    return game


def test_the_summary_tells_the_result_losses_objectives_and_key_events() -> None:
    from hexwar.core.words import summarise

    game = _played("mbt:basic-a")
    summary = summarise(game)
    assert game.result is not None and summary.winner == game.result.winner
    destroyed = {u for u, unit in game.state.units.items() if unit.state.get("destroyed")}
    named = {name.split()[-1] for lost in summary.casualties.values() for name in lost}
    assert named == destroyed and destroyed
    assert summary.strength == {"NATO": 3, "Soviet": 4}
    assert summary.objectives and "objective terrain stone" in summary.objectives[0]
    assert any("knocked out" in e or "brewed up" in e for e in summary.key_events)
    over = next(r for r in game.log.events if r["type"] == "game_over")
    assert summary.key_events[-1].endswith(game.hooks.describe_event(game, over))
    text = "\n".join(summary.lines())
    assert f"{summary.winner} wins" in text and "lost" in text and "key events" in text
    assert "{" not in text  # words, not reprs


def test_a_sides_summary_holds_only_what_it_may_know() -> None:
    from hexwar.core.words import summarise

    game = _played("mbt:basic-a")
    full = summarise(game)
    for side in game.state.sides:
        mine = summarise(game, side)
        assert mine.seed is None and set(mine.strength) == {side}
        assert mine.casualties[side] == full.casualties[side]
        for other, lost in mine.casualties.items():
            assert set(lost) <= set(full.casualties[other])
        shown = [game.hooks.describe_event(game, r) for r in game.log.for_side(side)]
        assert all(e.split(": ", 1)[1] in shown for e in mine.key_events)

