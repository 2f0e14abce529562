"""The umpire's seat (core/engine/umpire.py, docs/umpire.md): records screened by the umpire,
reports to one side, secret rolls, the umpire's decisions asked of its seat (a person or the
automatic umpire), replayed like any other, and the umpire's view of everything."""

from __future__ import annotations

from collections.abc import Generator, Sequence
from pathlib import Path
from typing import Any

import pytest

from hexwar.core.engine.controllers import RandomController
from hexwar.core.engine.decisions import Decision
from hexwar.core.engine.game import Game
from hexwar.core.engine.record import load_saved, save_game, side_events
from hexwar.core.engine.replay import rebuild
from hexwar.core.engine.umpire import (
    REPORT,
    REVEAL,
    UMPIRE,
    Answered,
    AutomaticUmpire,
    Umpire,
    UmpireDecisionKind,
    UmpireView,
    install,
    umpire_of,
)
from hexwar.core.engine.view import SideView
from hexwar.core.errors import HexwarError, RulesError
from hexwar.core.markers import hookimpl
from hexwar.core.scenario import Scenario
from hexwar.core.types import Choice, PhaseSpec, PluginManifest, SequenceEdit

from .toy import toy_system

TOY = Path(__file__).parent / "toy" / "scenario.toml"
SPOT = UmpireDecisionKind("toy.umpire.spot", "toy 9", "show a unit to the other side",
                          '"none" or a unit id', "shows b1 (the test's policy)")


class ToyUmpire(Umpire):
    """Keeps fire results to itself and tells the target's owner; shows units on request."""

    kinds = (SPOT,)

    def screen(self, event: dict[str, Any],
               visible_to: tuple[str, ...] | None) -> tuple[str, ...] | None:
        return () if event["type"] == "result" else visible_to

    def follow_up(self, event: dict[str, Any]) -> None:
        if event["type"] == "result":
            owner = self.game.unit(event["target"]).side
            self.tell(owner, "fired on", unit=event["target"], result=event["result"])

    def reveal_options(self, side: str) -> list[dict[str, Any]]:
        return [{"side": side, "unit": u.id} for u in self.game.state.units.values()
                if u.side != side]

    def reveal_unit(self, choice: dict[str, Any]) -> None:
        self.tell(str(choice["side"]), "unit shown", unit=choice["unit"])

    def policy(self, decision: Decision, view: UmpireView) -> Choice | None:
        return "b1" if decision.kind == SPOT.kind else None


def umpire_phase(game: Game) -> Generator[Any, Any, None]:
    um = umpire_of(game)
    assert um is not None
    um.roll("d6", "the umpire's secret roll", for_side="red")
    choice = yield from um.ask(SPOT.kind, options=["none", "r1", "b1"], rule="toy 9")
    if choice != "none":
        owner = game.unit(str(choice)).side
        for side in game.other_sides(owner):
            um.tell(side, "spotted", unit=choice)
    yield from um.reveal_step(list(game.state.sides), rule="toy 9")


class Umpired:
    """A local rule making the toy game umpired."""

    PLUGIN = PluginManifest(name="toy.umpired", system="toy", kind="rule", title="Umpired toy",
                            summary="The toy game with an umpire.")

    @hookimpl
    def hexwar_umpire(self, game: Game) -> Umpire | None:
        return ToyUmpire(game)

    @hookimpl
    def hexwar_sequence_edits(self, system: str) -> Sequence[SequenceEdit]:
        return [SequenceEdit("insert_before", "toy.fire",
                             PhaseSpec("toy.umpire", "Umpire", "toy 9", umpire_phase), "toy 9")]


def new_game(seed: int = 3) -> Game:
    return Game(Scenario.load(TOY), seed=seed, options=["toy.umpired"],
                local_plugins=[toy_system, Umpired()])


def sides_random(game: Game) -> dict[str, Any]:
    return {s: RandomController(s, 1) for s in game.state.sides}


class Seat:
    """A person at the umpire's seat: answers from a list, then as the automatic umpire."""

    def __init__(self, answers: list[Choice]) -> None:
        self.answers = list(answers)
        self.views: list[SideView] = []

    def choose(self, decision: Decision, view: SideView) -> Choice:
        self.views.append(view)
        assert decision.side == UMPIRE
        if self.answers:
            return self.answers.pop(0)
        return AutomaticUmpire().choose(decision, view)


def test_every_record_passes_the_umpire_and_the_owner_is_told_its_own_version() -> None:
    game = new_game()
    game.play(sides_random(game))
    results = [e for e in game.log.events if e["type"] == "result"]
    assert results and all(e["visible_to"] == [] for e in results)
    for side in game.state.sides:
        mine = side_events(game.log.events, side)
        assert not [e for e in mine if e["type"] == "result"]
        told = [e for e in mine if e["type"] == REPORT and e["what"] == "fired on"]
        expected = [e for e in results if game.unit(e["target"]).side == side]
        assert len(told) == len(expected)
        assert all(e["visible_to"] == [side] for e in told)


def test_the_umpires_rolls_are_the_umpires_alone() -> None:
    game = new_game()
    game.play(sides_random(game))
    secret = [e for e in game.log.events if e["type"] == "roll"
              and e["purpose"] == "the umpire's secret roll (for red)"]
    assert secret and all(e["visible_to"] == [] for e in secret)
    for side in game.state.sides:
        assert not [e for e in side_events(game.log.events, side)
                    if e["type"] == "roll" and "secret" in e["purpose"]]


def test_a_roll_may_be_shown_to_one_side() -> None:
    game = Game(Scenario.load(TOY), seed=1, local_plugins=[toy_system])
    game.dice.d10("red's own die", visible_to=("red",))
    game.dice.d100("nobody's", visible_to=())
    rolls = [e for e in game.log.events if e["type"] == "roll"]
    assert [e.get("visible_to") for e in rolls[-2:]] == [["red"], []]
    assert [e["purpose"] for e in side_events(game.log.events, "red")
            if e["type"] == "roll"][-1:] == ["red's own die"]
    assert not [e for e in side_events(game.log.events, "blue") if e["type"] == "roll"
                and e["purpose"] in ("red's own die", "nobody's")]


def test_the_umpires_decisions_are_asked_of_its_seat_and_logged_for_it_alone() -> None:
    game = new_game()
    game.play(sides_random(game))
    ours = [e for e in game.log.events if e["type"] == "decision" and e["side"] == UMPIRE]
    assert {e["kind"] for e in ours} == {SPOT.kind, REVEAL.kind}
    assert all(e["visible_to"] == [] for e in ours)
    for side in game.state.sides:
        assert not [e for e in side_events(game.log.events, side)
                    if e["type"] == "decision" and e["side"] == UMPIRE]


def test_the_automatic_umpire_follows_the_systems_policy_then_the_core_fallback() -> None:
    game = new_game()
    game.play(sides_random(game))
    spot = [d["choice"] for d in game.decisions if d["kind"] == SPOT.kind]
    reveal = [d["choice"] for d in game.decisions if d["kind"] == REVEAL.kind]
    turns = game.state.turn
    assert spot == ["b1"] * turns  # the policy
    assert reveal == ["done"] * turns  # no policy: "done" when offered
    told = [e for e in side_events(game.log.events, "red") if e.get("what") == "spotted"]
    assert [e["unit"] for e in told] == ["b1"] * turns


def test_the_automatic_umpire_fallback_without_a_policy() -> None:
    auto, view = AutomaticUmpire(), UmpireView(new_game())
    assert auto.choose(Decision(UMPIRE, "x", options=["a", "pass"]), view) == "pass"
    assert auto.choose(Decision(UMPIRE, "x", options=["a", "b"]), view) == "a"
    with pytest.raises(HexwarError, match="no policy"):
        auto.choose(Decision(UMPIRE, "x", validate=lambda c: None), view)


def test_a_person_umpire_reveals_a_unit_and_sends_a_message_and_replay_reproduces_it(
        tmp_path: Path) -> None:
    game = new_game()
    seat = Seat(["none", {"side": "blue", "unit": "r1"},
                 {"side": "red", "message": "radio: enemy armour north"}, "done"])
    game.play({UMPIRE: seat, **sides_random(game)})
    red, blue = side_events(game.log.events, "red"), side_events(game.log.events, "blue")
    assert [e["message"] for e in red if e.get("what") == "message"] == [
        "radio: enemy armour north"]
    assert not [e for e in blue if e.get("what") == "message"]
    assert [e["unit"] for e in blue if e.get("what") == "unit shown"] == ["r1"]
    assert all(isinstance(v, UmpireView) for v in seat.views)
    save = tmp_path / "game.json"
    save_game(game, save)
    again = rebuild(load_saved(save), verify=True, local_plugins=[toy_system, Umpired()])
    assert again.log.events == game.log.events


def test_the_umpires_seat_refuses_a_bad_message() -> None:
    game = new_game()
    game.answer("none")  # the spot decision: the reveal step is next
    decision = game.pending
    assert decision is not None and decision.kind == REVEAL.kind
    for bad, why in (({"side": "green", "message": "hi"}, "not a side"),
                     ({"side": "red", "message": "x" * 501}, "longer than"),
                     ({"side": "red", "message": ""}, "must be a text"),
                     ({"side": "red", "unit": "r1"}, "reveal is")):
        with pytest.raises(RulesError, match=why):
            game.answer(bad)


def test_the_umpires_view_sees_everything_and_each_sides_view() -> None:
    game = new_game()
    view = game.view(UMPIRE)
    assert isinstance(view, UmpireView) and view.side is None and view.seat == UMPIRE
    assert set(view.units) == set(game.state.units)
    assert view.state is game.state
    assert view.header["seed"] == 3
    assert view.events() == game.log.events
    red = view.side_view("red")
    assert isinstance(red, SideView) and red.side == "red"
    assert [k["kind"] for k in view.decision_kinds()] == [REVEAL.kind, SPOT.kind]
    assert view.hidden_from("red") == []  # the toy system hides nothing
    with pytest.raises(HexwarError, match="no side"):
        view.side_view("green")


def test_carry_out_answers_some_decisions_and_gives_others_to_the_umpires_seat() -> None:
    game = new_game()
    um = umpire_of(game)
    assert um is not None

    def step() -> Generator[Any, Any, Any]:
        a = yield Decision("red", "move", options=["pass", "go"])
        b = yield Decision("blue", "move", options=["pass", "go"])
        c = yield Decision("blue", "other", options=["x"])
        return [a, b, c]

    gen = um.carry_out(step(), {
        "move": lambda d: Answered("go") if d.side == "red" else um.decision("umpire.move", d)})
    first = next(gen)
    assert (first.side, first.kind, first.context["for_side"]) == (UMPIRE, "umpire.move", "blue")
    second = gen.send("pass")
    assert (second.side, second.kind) == ("blue", "other")
    with pytest.raises(StopIteration) as stop:
        gen.send("x")
    assert stop.value.value == ["go", "pass", "x"]
    bad = um.carry_out(step(), {"move": lambda d: Answered("fly")})
    with pytest.raises(RulesError, match="not a legal choice"):
        next(bad)


def test_the_umpire_tells_only_sides_of_the_game_and_rolls_only_known_dice() -> None:
    um = umpire_of(new_game())
    assert um is not None
    with pytest.raises(RulesError, match="not a side"):
        um.tell("green", "hello")
    with pytest.raises(HexwarError, match="no die"):
        um.roll("d20", "x")


def test_install_refuses_a_foreign_umpire_and_a_side_named_umpire() -> None:
    a, b = new_game(), new_game()
    with pytest.raises(HexwarError, match="belongs to the game"):
        install(a, Umpire(b))
    text = TOY.read_text(encoding="utf-8").replace("[sides.blue]", "[sides.umpire]").replace(
        'side = "blue"', 'side = "umpire"')
    scenario = Scenario.from_text(text, path=str(TOY))
    with pytest.raises(HexwarError, match="may not be called 'umpire'"):
        Game(scenario, options=["toy.umpired"], local_plugins=[toy_system, Umpired()])


def test_the_sides_logs_of_an_umpired_game_leave_out_the_umpires_header_fields() -> None:
    game = new_game()
    game.play(sides_random(game))
    header = game.log.events[0]
    assert header["umpire_only"] == list(Umpire.header_secrets)
    for side in game.state.sides:
        shown = side_events(game.log.events, side)[0]
        assert shown["format"] == "hexwar-side-log" and shown["side"] == side
        assert not {"seed", *Umpire.header_secrets} & set(shown)
        assert game.view(side).header == shown
        # a decision's number would count the other side's and the umpire's decisions
        mine = [e for e in side_events(game.log.events, side) if e["type"] == "decision"]
        assert mine and not [e for e in mine if "n" in e or "hash" in e]
        assert all("n" in e for e in game.log.events if e["type"] == "decision")
    assert game.view(UMPIRE).header == header


def test_an_unumpired_game_is_unchanged() -> None:
    plain = Game(Scenario.load(TOY), seed=3, local_plugins=[toy_system])
    assert plain.umpire is None and "umpire_only" not in plain.log.events[0]
    assert "scenario_text" in side_events(plain.log.events, "red")[0]
    plain.play(sides_random(plain))
    # no side's decision carries its number, umpired or not (CORE-63)
    assert not [e for e in side_events(plain.log.events, "red")
                if e["type"] == "decision" and "n" in e]
    assert any(e["type"] == "result" and "visible_to" not in e for e in plain.log.events)
