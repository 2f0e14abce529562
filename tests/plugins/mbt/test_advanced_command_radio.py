"""MBT 21.3 multi-player rules in the optional rule ``mbt.command_control``: personal commanders,
conferences and written radio messages between the players of one side, hidden from the enemy
and from the side's other players."""

from __future__ import annotations

import copy
import json
import re
from pathlib import Path
from typing import Any

import pytest

from hexwar.core.cli import _resolve_scenario_path
from hexwar.core.engine.decisions import canonical
from hexwar.core.engine.game import Game
from hexwar.core.errors import HexwarError
from hexwar.core.scenario import Scenario
from hexwar.plugins.mbt.ai import MbtAI
from hexwar.plugins.mbt.hookspecs import MbtHooks
from hexwar.plugins.mbt.rules import command_control as cc
from hexwar.plugins.mbt.rules import radio
from hexwar.plugins.mbt.state import data

OPTS = ("mbt.command_control",)
#: NATO split three ways: anna (the overall commander, CO with N1), cara (CO with N3), ben (CO
#: with N4)
SPLIT = {"NATO": {"anna": ["N1", "N2"], "cara": ["N3"], "ben": ["N4", "N5", "N6"]}}


def _scenario(turns: int = 3) -> Scenario:
    text = _resolve_scenario_path("mbt:advanced-a").read_text(encoding="utf-8")
    text = re.sub(r"(?m)^turns = \d+", f"turns = {turns}", text, count=1)
    text = text.replace('officer = "XO", organization = "attached"',
                        'officer = "CO", organization = "attached"')
    text = text.replace('state = { grade = "crack", organization = "1st platoon" }\n\n[[units]]\n'
                        'id = "N4"', 'state = { grade = "crack", officer = "CO", organization = '
                        '"2nd platoon" }\n\n[[units]]\nid = "N4"')
    return Scenario.from_text(text, path="<advanced-a, three NATO players>")


def _game(seed: int = 3, turns: int = 3) -> Game:
    g = Game(_scenario(turns), seed=seed, options=OPTS, seating=SPLIT)
    assert g.state.units["N3"].state.get("officer") == "CO"
    return g


def _at_orders(g: Game, turn: int = 1) -> None:
    """Play the AI up to the Command Points step of ``turn``."""
    ais = {s: MbtAI(s, 1) for s in ("NATO", "Soviet")}
    while g.pending is not None and not (g.state.turn == turn
                                         and g.state.phase == "mbt.command_points"):
        d = g.pending
        g.answer(ais[d.side].choose(d, g.view(d.side)))


def _reports(g: Game, what: str) -> list[dict[str, Any]]:
    return [r for r in g.log.events if r.get("type") == "umpire_report" and r["what"] == what]


def _cost(u: Any) -> int:
    return 1


def test_each_player_gets_a_personal_commander_of_his_highest_echelon_21_3_2() -> None:
    """MBT 21.3.2: a CO of the player's highest echelon (a battalion headquarters before a
    platoon's), told to that player alone; the side's first player is the overall commander."""
    g = _game()
    g.state.units["N6"].state.update(officer="CO", hq="battalion", organization="bn HQ")
    _at_orders(g)
    list(radio.commander_step(g))
    assert {p: radio.personal_commander(g, "NATO", p).id for p in ("anna", "ben", "cara")} == \
        {"anna": "N1", "ben": "N6", "cara": "N3"}
    assert radio.overall(g, "NATO") == "anna"
    told = _reports(g, "personal commander")
    assert {(r["player"], r["unit"]) for r in told if r.get("player")} == \
        {("anna", "N1"), ("ben", "N6"), ("cara", "N3")}
    assert all(r["visible_to"] == ["NATO"] for r in told if r.get("player"))


def test_a_tie_of_cos_is_the_players_choice_21_3_2() -> None:
    """MBT 21.3.2: two platoon COs among ben's units: ben is asked which is his."""
    from hexwar.core.web.players import owner

    g = _game()
    g.state.units["N5"].state.update(officer="CO", organization="3rd platoon")
    while g.pending is not None and g.pending.kind != radio.PERSONAL:
        d = g.pending
        g.answer(MbtAI(d.side, 1).choose(d, g.view(d.side)))
    d = g.pending
    assert d is not None and d.options == ["N4", "N5"] and d.context["player"] == "ben"
    assert owner(g, d) == "ben" and d.rule == "MBT 21.3.2"
    g.answer("N5")
    assert radio.personal_commander(g, "NATO", "ben").id == "N5"


def test_a_lost_personal_commander_is_replaced_three_turns_later_by_his_xo_21_3_2() -> None:
    """MBT 21.3.2: lost in Turn 2, ben's XO takes over in Turn 5 (not 4); meanwhile ben may not
    communicate (MBT 21.3.3)."""
    g = _game()
    g.state.units["N5"].state.update(officer="XO", organization="attached")
    _at_orders(g)
    list(radio.commander_step(g))
    n4 = g.state.units["N4"]
    g.state.turn = 2
    n4.state["destroyed"] = "KO"
    MbtHooks.of(g).after_damage(n4, ["KO"])
    assert radio.personal_commander(g, "NATO", "ben") is None
    err = radio.message_error(g, "NATO", "ben", {"to": "anna", "text": "hello"}, {}, _cost)
    assert err and "MBT 21.3.3" in err
    for turn, pc in ((4, None), (5, "N5")):
        g.state.turn = turn
        list(radio.commander_step(g))
        got = radio.personal_commander(g, "NATO", "ben")
        assert (got.id if got else None) == pc


def _ready(g: Game) -> dict[tuple[str, str], int]:
    _at_orders(g)
    list(radio.commander_step(g))
    radio._st(g)["sent"] = {}
    return {("NATO", "1st platoon"): 1, ("NATO", "attached"): 0, ("NATO", "2nd platoon"): 0}


def test_one_free_message_two_for_the_overall_commander_then_a_command_point_21_3_3_2_2(
        ) -> None:
    """MBT 21.3.3.2.2: ben's second message in a Turn needs a point his organization lacks: refused
    with the rule, nothing changed; anna's third costs her organization's one point."""
    g = _game()
    budget = _ready(g)
    msg = {"to": "anna", "text": "enemy tanks at the ridge"}
    radio.send(g, "NATO", "ben", msg, budget, _cost)
    before = copy.deepcopy(data(g)["radio"]), dict(budget)
    with pytest.raises(HexwarError, match=r"MBT 21\.3\.3\.2\.2"):
        radio.send(g, "NATO", "ben", msg, budget, _cost)
    assert (data(g)["radio"], budget) == before
    for _ in range(2):
        radio.send(g, "NATO", "anna", {"to": "cara", "text": "hold"}, budget, _cost)
    assert budget[("NATO", "1st platoon")] == 1
    radio.send(g, "NATO", "anna", {"to": "cara", "text": "hold"}, budget, _cost)
    assert budget[("NATO", "1st platoon")] == 0
    assert len(data(g)["radio"]["queue"]) == 4
    assert all(m["due"] == g.state.turn + 1 for m in data(g)["radio"]["queue"])  # 21.3.3.2.1


@pytest.mark.parametrize(("choice", "why"), [
    ({"to": "ben", "text": "x"}, "another commander"),
    ({"to": "dave", "text": "x"}, "not a player"),
    ({"to": "anna", "text": "  "}, "a text"),
    ({"to": "anna"}, "a message is"),
])
def test_a_malformed_message_is_refused_with_the_rule(choice: Any, why: str) -> None:
    g = _game()
    budget = _ready(g)
    err = radio.message_error(g, "NATO", "ben", choice, budget, _cost)
    assert err and why in err and "MBT 21.3.3.2" in err


def test_radio_needs_both_radios_unless_the_commanders_confer_in_one_hex_21_3_3_1() -> None:
    """MBT 21.3.3.2: no radio with ben's commander, no message; MBT 21.3.3.1: once in anna's
    hex they confer: told at once, free."""
    g = _game()
    budget = _ready(g)
    n4 = g.state.units["N4"]
    n4.state["radio"] = False
    msg = {"to": "anna", "text": "come here"}
    err = radio.message_error(g, "NATO", "ben", msg, budget, _cost)
    assert err and "MBT 21.3.3.1-21.3.3.2" in err
    n4.hex = g.state.units["N1"].hex
    radio.send(g, "NATO", "ben", msg, budget, _cost)
    radio.send(g, "NATO", "ben", msg, budget, _cost)  # conferences are not counted
    talks = _reports(g, "conference")
    assert len(talks) == 2 and talks[0]["player"] == "anna" and talks[0]["message"] == "come here"
    assert not data(g)["radio"]["queue"]


@pytest.mark.parametrize(("roll", "result"), [(7, "received"), (8, "delayed"), (9, "delayed"),
                                              (10, "lost")])
def test_mbt_156_message_receipt_roll(roll: int, result: str) -> None:
    """MBT-156 (MBT 21.3.3.2.4): 1-7 received (the text told to the addressee), 8-9 delayed to the
    next Turn (rolled again then), 10 lost."""
    g = _game()
    budget = _ready(g)
    radio.send(g, "NATO", "ben", {"to": "anna", "text": "short"}, budget, _cost)
    g.state.turn += 1
    g.dice.force(roll % 10)
    radio.deliver_step(g)
    told = _reports(g, f"radio message {result}")
    assert len(told) == 1 and told[0]["player"] == "anna" and told[0]["roll"] == roll
    assert ("message" in told[0]) is (result == "received")
    queue = data(g)["radio"]["queue"]
    assert (len(queue) == 1 and queue[0]["due"] == g.state.turn + 1) if result == "delayed" \
        else not queue
    if result == "delayed":
        g.state.turn += 1
        g.dice.force(1)
        radio.deliver_step(g)
        assert _reports(g, "radio message received")


@pytest.mark.parametrize(("words", "own", "enemy", "intercepted"), [
    (25, 4, 8, True), (25, 4, 7, False), (21, 4, 8, True), (20, None, None, False)])
def test_mbt_155_a_long_message_may_be_intercepted(words: int, own: int | None,
                                                   enemy: int | None, intercepted: bool) -> None:
    """MBT-155 (MBT 21.3.3.2.3): 25 words, the sender's overall commander rolls 4 and the
    enemy's 8: intercepted, the text told to the enemy; 7: not; 21 words is already in the clear;
    20 words: in code, no roll."""
    g = _game()
    budget = _ready(g)
    text = " ".join(["word"] * words)
    radio.send(g, "NATO", "ben", {"to": "anna", "text": text}, budget, _cost)
    g.state.turn += 1
    g.dice.force(*([own % 10, enemy % 10] if own and enemy else []), 1)
    radio.deliver_step(g)
    got = _reports(g, "radio intercepted")
    assert bool(got) is intercepted
    if intercepted:
        assert got[0]["visible_to"] == ["Soviet"] and got[0]["message"] == text
    if words <= 20:  # the text's bound, not the constant, so a wrong constant fails here
        assert not _reports(g, "radio not intercepted")
    soviet = json.dumps(g.log.for_side("Soviet"))
    assert (text in soviet) is intercepted
    assert _reports(g, "radio message received")  # and then received by anna (roll 1)


def test_no_interception_by_a_side_without_its_overall_commander_21_3_3_2_3() -> None:
    g = _game()
    budget = _ready(g)
    radio.send(g, "NATO", "ben", {"to": "anna", "text": " ".join(["w"] * 30)}, budget, _cost)
    soviet_pc = radio.personal_commander(g, "Soviet", "Soviet")
    assert soviet_pc is not None
    soviet_pc.state["radio"] = False
    g.state.turn += 1
    g.dice.force(1)
    radio.deliver_step(g)
    assert not _reports(g, "radio intercepted") and not _reports(g, "radio not intercepted")


def test_dice_of_the_radio_are_the_umpires_and_a_split_game_gets_the_pass_through_umpire(
        ) -> None:
    """MBTD-100: a split side without an umpire gets the pass-through one; the receipt roll is
    in no side's log."""
    g = _game()
    assert isinstance(g.umpire, radio.RadioUmpire)
    budget = _ready(g)
    radio.send(g, "NATO", "ben", {"to": "anna", "text": "short"}, budget, _cost)
    g.state.turn += 1
    radio.deliver_step(g)
    rolls = [r for r in g.log.events if r.get("type") == "roll"
             and "radio message receipt" in str(r.get("purpose"))]
    assert rolls and all(r["visible_to"] == [] for r in rolls)
    plain = Game(_scenario(), seed=3, options=OPTS)
    assert plain.umpire is None  # one player a side: no multi-player rules


def test_an_extra_message_costs_the_swaps_points_of_its_organization(run: Any) -> None:
    """MBT 21.3.3.2.2 with MBT 21.1.2: points spent on messages are not there for marker
    changes that Turn."""
    g = _game()
    _at_orders(g, turn=2)
    assert g.state.phase == "mbt.command_points"
    ais = {s: MbtAI(s, 1) for s in ("NATO", "Soviet")}
    anna_texts = 0
    swaps: list[Any] = []
    while g.state.phase == "mbt.command_points" and g.pending is not None:
        d = g.pending
        if d.kind == radio.MESSAGE and d.context["player"] == "anna" and anna_texts < 3:
            anna_texts += 1
            g.answer({"to": "ben", "text": f"order {anna_texts}"})
            continue
        if d.kind == "mbt.swaps":
            swaps.append(d)
        g.answer(ais[d.side].choose(d, g.view(d.side)))
    points = [r for r in g.log.events if r.get("type") == "command_points" and r["turn"] == 2
              and r["organization"] == "1st platoon" and r["visible_to"] == ["NATO"]]
    assert points and "spent on radio messages (MBT 21.3.3.2.2)" in points[-1]["counted"][-1]
    assert anna_texts == 3


# -- what each player is shown -------------------------------------------------------------------


def _play_table(tmp_path: Path, turns: int = 3) -> Any:
    from hexwar.core.engine.controllers import make_controller
    from hexwar.core.web.table import Table

    t = Table.new(_scenario(turns), seed=3, options=OPTS,
                  players={"NATO": "human", "Soviet": "ai"}, save_path=tmp_path / "game.json",
                  split=SPLIT)
    offered = t.game.hooks.controllers()
    ai = make_controller("ai", "NATO", t.game.seed, offered)
    for _ in range(2000):
        seat = next((s for s in t.seats.values() if t.pending_for(s) is not None), None)
        if seat is None:
            break
        d = t.pending_for(seat)
        assert d is not None
        form = t.presentation(seat)
        assert form is not None
        choice = ai.choose(d, t.game.view(d.side))
        if form["widget"] == "text":  # a radio message is typed (MBT 21.3.3.2)
            assert d.kind == radio.MESSAGE
            t.answer(seat, t.serial_of(seat), value=json.dumps(choice), has_value=True)
            continue
        index = next((i for i, c in enumerate(form["choices"])
                      if canonical(c["choice"]) == canonical(choice)), 0)
        t.answer(seat, t.serial_of(seat), index=index)
    return t


def test_radio_messages_reach_only_their_addressee_through_seat_log_and_save(
        tmp_path: Path) -> None:
    """MBT 21.3.3.2, CORE-81: ben's and cara's reports to anna are in anna's seat (view and log)
    once received, in each sender's own seat, and in no other: not cara's for ben's, not the
    Soviet side's; a game resumed from the save shows each seat the same."""
    from hexwar.core.web.table import Table

    t = _play_table(tmp_path)
    g = t.game
    assert g.over
    received = _reports(g, "radio message received")
    assert received, "the AI sent reports and some arrived"
    sent = [d for d in g.decisions if d["kind"] == radio.MESSAGE and isinstance(d["choice"], dict)]
    assert sent and {d["choice"]["to"] for d in sent} == {"anna"}

    def texts_of(who: str) -> set[str]:
        return {str(d["choice"]["text"]) for d in sent
                if d["choice"]["text"].split(" ")[2].rstrip(":") == who}

    ben, cara = texts_of("ben"), texts_of("cara")
    assert ben and cara

    def shown(table: Any, name: str) -> str:
        seat = next(s for s in table.seats.values() if s.name == name)
        view = table.view(seat)
        return json.dumps([table.message(seat), view.events(), view.units,
                           view.system_state], default=str)

    for table in (t, Table.resume(t.save_path)):
        seen = {name: shown(table, name) for name in ("NATO/anna", "NATO/ben", "NATO/cara")}
        soviet = json.dumps(table.game.log.for_side("Soviet"), default=str)
        delivered = {r["message"] for r in _reports(table.game, "radio message received")}
        for text in ben:
            assert text in seen["NATO/ben"]
            assert text not in seen["NATO/cara"], "cara read ben's message to anna"
            assert (text in seen["NATO/anna"]) is (text in delivered)
            assert text not in soviet
        for text in cara:
            assert text not in seen["NATO/ben"], "ben read cara's message to anna"
            assert text not in soviet
    assert any(t2 in json.dumps(g.log.events) for t2 in ben)  # the umpire's full log has them


def test_a_message_decision_belongs_to_its_sender(tmp_path: Path) -> None:
    """CORE-81: a message is asked of the sender's seat (its unit is his personal
    commander's)."""
    from hexwar.core.web.players import owner

    g = _game()
    _at_orders(g)
    ais = {s: MbtAI(s, 1) for s in ("NATO", "Soviet")}
    seen = set()
    while g.pending is not None and g.state.phase == "mbt.command_points":
        d = g.pending
        if d.kind == radio.MESSAGE:
            assert owner(g, d) == d.context["player"]
            seen.add(d.context["player"])
        g.answer(ais[d.side].choose(d, g.view(d.side)))
    assert seen == {"anna", "ben", "cara"}
    # anna's personal commander now rides ben's N5 (a transfer, MBT 21.1.3): still her decision
    n1, n5 = g.state.units["N1"], g.state.units["N5"]
    n1.state.pop("officer")
    n5.state.update(officer="CO", officer_org="1st platoon")
    assert radio.personal_commander(g, "NATO", "anna") is n5
    d = next(x for x in radio.writing_step(g, {}, _cost))
    assert d.context["player"] == "anna" and owner(g, d) == "anna"


def test_the_reports_read_as_sentences_and_a_message_is_typed_at_the_web_table() -> None:
    """Words for the umpire's reports (MBT 21.3.2-21.3.3.2.4); the message form is a text field
    naming the addressees and the free messages left."""
    g = _game()
    budget = _ready(g)
    radio.send(g, "NATO", "ben", {"to": "anna", "text": "hold the bridge"}, budget, _cost)
    g.state.turn += 1
    g.dice.force(1)
    radio.deliver_step(g)
    for what, words in (("radio message received", "hold the bridge"),
                        ("personal commander", "N1"), ("radio message sent", "due in Turn")):
        text = g.hooks.describe_event(g, _reports(g, what)[0])
        assert words in text and "MBT 21.3" in text, text
    d = next(x for x in radio.writing_step(g, budget, _cost))
    form = radio.present(d)
    assert form is not None and form["widget"] == "text" and "MBT 21.3.3.2.2" in form["notes"][0]


def test_command_control_without_a_split_has_no_messages() -> None:
    g = Game(_scenario(), seed=3, options=OPTS)
    _at_orders(g, turn=2)
    kinds = {d["kind"] for d in g.decisions}
    assert radio.MESSAGE not in kinds and not radio.active_in(g)
    assert cc.PLUGIN.implements[-1] == "MBT 21.3"


def test_the_words_of_a_sent_message_give_the_command_points_it_cost() -> None:
    # MBT 21.3.3.2.2 with 21.2.2: under disruption a message beyond the free ones costs two
    from hexwar.plugins.mbt.rules.radio import describe

    base = {"type": "umpire_report", "what": "radio message sent", "to": "ben", "due": 3,
            "words": 4, "in_code": True, "rule": "MBT 21.3.3.2.1"}
    assert describe({**base, "command_points": 0}) == (
        "radio message to ben sent, due in Turn 3 (4 words, in code) (MBT 21.3.3.2.1)")
    assert "1 command point)" in str(describe({**base, "command_points": 1}))
    assert "2 command points)" in str(describe({**base, "command_points": 2}))
