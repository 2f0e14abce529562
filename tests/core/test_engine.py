"""The turn engine: decisions, secret simultaneous choices, alternation, deferred results,
the record of every decision, saves, and replay with state hashes."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from hexwar.core.engine.controllers import RandomController, ScriptedController
from hexwar.core.engine.game import Game
from hexwar.core.engine.record import load_saved, save_game, write_atomic
from hexwar.core.engine.replay import rebuild
from hexwar.core.errors import DataError, HexwarError, ReplayMismatch, RulesError
from hexwar.core.markers import hookimpl
from hexwar.core.scenario import Scenario

from .toy import toy_system

TOY = Path(__file__).parent / "toy" / "scenario.toml"


def new_game(seed: int = 3, **kw: object) -> Game:
    return Game(Scenario.load(TOY), seed=seed, local_plugins=[toy_system], **kw)  # type: ignore[arg-type]


def players(game: Game, seed: int = 0) -> dict[str, RandomController]:
    return {s: RandomController(s, seed) for s in game.state.sides}


def test_game_plays_to_an_end_and_records_every_decision() -> None:
    game = new_game()
    result = game.play(players(game))
    assert result.level in {"win", "draw", "elimination"}
    assert game.pending is None
    assert game.decisions and all("hash" in d for d in game.decisions)
    header = game.log.events[0]
    assert header["type"] == "header" and header["seed"] == 3 and header["system"] == "toy"
    assert header["scenario_sha256"] == Scenario.load(TOY).sha256


def test_same_seed_and_players_give_the_same_game() -> None:
    a, b = new_game(7), new_game(7)
    a.play(players(a, 1))
    b.play(players(b, 1))
    assert [d["hash"] for d in a.decisions] == [d["hash"] for d in b.decisions]
    assert a.result == b.result


def test_simultaneous_choices_are_asked_of_both_sides_before_either_applies() -> None:
    game = new_game()
    first = game.pending
    assert first is not None and first.kind == "fire" and first.side == "red"
    before = game.state.digest()
    game.answer("pass")
    second = game.pending
    assert second is not None and second.kind == "fire" and second.side == "blue"
    assert game.state.digest() == before  # nothing applied until both have chosen
    # red's secret choice is not in blue's log
    blue_events = game.view("blue").events()
    assert not any(e["type"] == "decision" and e["side"] == "red" for e in blue_events)
    assert any(e["type"] == "decision" and e["side"] == "red" for e in game.view("red").events())


def test_deferred_hits_apply_when_the_step_ends() -> None:
    # seed chosen so both shots are rolled; a killed unit's own shot was still resolved
    for seed in range(40):
        game = new_game(seed)
        game.answer("b1")
        game.answer("r1")
        fire = [e for e in game.log.events if e["type"] == "result" and e["what"] == "fire"]
        if [e["result"] for e in fire] == ["hit", "hit"]:
            assert game.unit("r1").state.get("dead") and game.unit("b1").state.get("dead")
            assert game.result is not None and game.result.level == "elimination"
            return
    pytest.fail("no seed in 0..39 gave two hits")


def test_an_illegal_choice_is_refused_and_changes_nothing() -> None:
    game = new_game()
    before = (game.state.digest(), len(game.decisions), game.pending)
    with pytest.raises(RulesError, match="not a legal choice"):
        game.answer("nobody")
    with pytest.raises(RulesError, match="JSON value"):
        game.answer({1, 2})
    assert (game.state.digest(), len(game.decisions), game.pending) == before


def test_alternation_ends_when_both_sides_pass_in_a_row() -> None:
    game = new_game()
    game.answer("pass")
    game.answer("pass")
    assert game.pending is not None and game.pending.kind == "move"
    assert game.pending.side == "red"
    game.answer("pass")
    assert game.pending.side == "blue"
    game.answer({"unit": "b1", "to": game.board.label(game.board.neighbors_of[game.unit("b1").hex][0])})  # type: ignore[index]
    assert game.pending.side == "red" and game.pending.kind == "move"  # blue acted: red asked again
    game.answer("pass")
    game.answer("pass")
    assert game.pending.kind == "fire" and game.state.turn == 2


def test_modifiers_from_an_extra_plugin_are_logged_with_their_rule() -> None:
    game = new_game(extra_plugins=[("toy.plus1", toy_system.Plus1())])
    game.answer("b1")
    game.answer("pass")
    fire = next(e for e in game.log.events if e["type"] == "result")
    assert fire["modifiers"] == [{"name": "sharpshooter", "value": 1, "rule": "toy 4", "stage": 0}]
    assert any(e["type"] == "roll" and e["dice"] == "d6" for e in game.log.events)


def test_save_resume_and_replay_verify(tmp_path: Path) -> None:
    game = new_game(5)
    game.answer("pass")
    game.answer("pass")  # nobody is hit, so the game goes on into the move step
    ctl = players(game, 2)
    for _ in range(2):
        d = game.pending
        assert d is not None
        game.answer(ctl[d.side].choose(d, game.view(d.side)))
    save = tmp_path / "game.json"
    save_game(game, save, players={"red": "random", "blue": "random"})
    resumed = rebuild(load_saved(save), verify=True, local_plugins=[toy_system])
    assert resumed.state.digest() == game.state.digest()
    assert resumed.pending is not None and resumed.pending.kind == game.pending.kind  # type: ignore[union-attr]
    # a tampered hash is caught at the step where it diverges
    doc = json.loads(save.read_text())
    doc["decisions"][2]["hash"] = "0" * 16
    save.write_text(json.dumps(doc))
    with pytest.raises(ReplayMismatch, match="after decision 3"):
        rebuild(load_saved(save), verify=True, local_plugins=[toy_system])


def test_log_file_replays(tmp_path: Path) -> None:
    path = tmp_path / "game.jsonl"
    from hexwar.core.engine.record import EventLog

    with path.open("w") as stream:
        game = new_game(11, log=EventLog(stream))
        game.play(players(game, 4))
    replayed = rebuild(load_saved(path), verify=True, local_plugins=[toy_system])
    assert replayed.result == game.result
    assert replayed.state.digest() == game.state.digest()


@pytest.mark.parametrize("content, message", [
    ("", "empty"),
    ("{not json", "not valid JSON"),
    ('{"format": "other"}', "not a hexwar save"),
    ('{"type": "roll"}\n{"type": "x"}\n', "starts with its header"),
])
def test_corrupt_saves_are_refused_with_a_clear_error(tmp_path: Path, content: str, message: str) -> None:
    path = tmp_path / "bad.json"
    path.write_text(content)
    with pytest.raises(DataError, match=message):
        load_saved(path)


def test_atomic_write_keeps_the_old_save_when_writing_fails(tmp_path: Path) -> None:
    path = tmp_path / "save.json"
    write_atomic(path, "old")


    with pytest.raises(TypeError):
        write_atomic(path, 42)  # type: ignore[arg-type]
    assert path.read_text() == "old"
    assert [p.name for p in tmp_path.iterdir()] == ["save.json"]


def test_scripted_controller_reads_choices_and_reports_running_out(tmp_path: Path) -> None:
    script = tmp_path / "red.txt"
    script.write_text('# red passes at first\n"pass"\n')
    game = new_game()
    ctl = {"red": ScriptedController.from_file(script), "blue": RandomController("blue", 0)}
    with pytest.raises(HexwarError, match="ran out of choices"):
        game.play(ctl)


def test_a_choice_matches_its_option_whatever_the_json_shape() -> None:
    from hexwar.core.engine.decisions import Decision

    d = Decision("red", "move", options=[{"unit": "a", "to": (1, 2)}, "pass"])
    d.check({"to": [1, 2], "unit": "a"})  # a list where the option has a tuple; keys reordered
    with pytest.raises(RulesError):
        d.check({"unit": "a", "to": [2, 1]})


def test_a_human_at_the_terminal_is_asked_again_after_an_illegal_choice() -> None:
    import io

    from hexwar.core.engine.controllers import TerminalController

    game = new_game()
    decision = game.pending
    assert decision is not None
    out = io.StringIO()
    human = TerminalController("red", stdin=io.StringIO('"nobody"\n2\n'), stdout=out)
    choice = human.choose(decision, game.view("red"))
    assert choice == list(decision.options or [])[1]
    assert "not legal" in out.getvalue() and "fire" in out.getvalue()


class Explainer:
    """A system-like explanation of the toy's fire decision, numbering options from 1."""

    @hookimpl
    def hexwar_explain_decision(self, view: Any, decision: Any) -> str | None:
        if decision.kind != "fire":
            return None
        return "\n".join(["Fire (toy 1): choose a target",
                          *(f"  {i}. {o}" for i, o in enumerate(decision.options, start=1))])


def human_at(game: Game, side: str, typed: str, monkeypatch: pytest.MonkeyPatch) -> tuple[Any, str]:
    """What a ``--players human`` controller answers to ``game``'s pending decision when the
    person types ``typed``, and what the terminal showed."""
    import io

    from hexwar.core.engine.controllers import make_controller

    out = io.StringIO()
    monkeypatch.setattr("sys.stdin", io.StringIO(typed))
    monkeypatch.setattr("sys.stdout", out)
    human = make_controller("human", side, 1, game.hooks.controllers())
    decision = game.pending
    assert decision is not None and decision.side == side
    choice = human.choose(decision, game.view(side))
    return choice, out.getvalue()


def test_the_human_controller_shows_the_systems_explanation(monkeypatch: pytest.MonkeyPatch) -> None:
    game = new_game(extra_plugins=[("toy.explainer", Explainer())])
    choice, shown = human_at(game, "red", "2\n", monkeypatch)
    assert "Fire (toy 1): choose a target\n  1. pass\n  2. b1" in shown
    assert choice == "b1"  # the number the explanation showed for it


def test_the_core_explanation_numbers_options_as_the_terminal_reads_them(
        monkeypatch: pytest.MonkeyPatch) -> None:
    game = new_game()
    choice, shown = human_at(game, "red", "1\n", monkeypatch)
    assert '    1. pass\n    2. b1' in shown
    assert choice == "pass"


def _full_text(state: Any) -> str:
    from hexwar.core.engine.state import _reject

    return json.dumps(state.to_dict(), sort_keys=True, separators=(",", ":"), default=_reject)


def test_the_cached_state_text_is_the_whole_state_encoded_at_once() -> None:
    """The state hash re-encodes only the parts that changed (GameState.canonical_text); after
    every decision of a game its text is the one json.dumps gives for the whole state."""
    game = new_game()
    seen: list[int] = []

    def check(g: Game) -> None:
        assert g.state.canonical_text() == _full_text(g.state)
        seen.append(1)

    game.play(players(game), on_decision=check)
    assert len(seen) == len(game.decisions) > 5


@pytest.mark.parametrize(("change", "same_json"), [
    (lambda u, d: u.state.__setitem__("n", True), False),  # 1 -> True: equal in Python only
    (lambda u, d: u.state.__setitem__("n", 1.0), False),   # 1 -> 1.0
    (lambda u, d: (u.state["list"].append(3), u.touch()), False),  # changed in place, told
    (lambda u, d: u.state.__setitem__("list", (1, 2)), True),  # a tuple of the same items
    (lambda u, d: d["toy"]["deep"]["x"].append("y"), False),   # below the split levels
    (lambda u, d: d["toy"].__setitem__("new", {"a": 1}), False),  # a new entry
    (lambda u, d: d.pop("toy"), False),                    # an entry removed
    (lambda u, d: setattr(u, "facing", 4), False),
])
def test_the_state_hash_follows_every_change(change: Any, same_json: bool) -> None:
    from hexwar.core.engine.state import GameState

    game = new_game()
    unit = next(iter(game.state.units.values()))
    unit.state.update(n=1, list=[1, 2])
    unit.facing = 1
    game.state.data["toy"] = {"deep": {"x": ["a"]}, "flat": 2}
    before = game.state.digest()  # fills the cache
    change(unit, game.state.data)
    assert game.state.canonical_text() == _full_text(game.state)
    uncached = GameState(game.state.units, game.state.sides, game.state.turn,
                         game.state.phase, game.state.data)
    assert game.state.digest() == uncached.digest()
    assert (game.state.digest() == before) is same_json
