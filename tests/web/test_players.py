"""Several players on one side (docs/decisions.md CORE-81, MBTD-66), the umpire's typed
messages (CORE-83) and secret decisions entered at once by each seat (CORE-82).

The leak test plays an umpired MBT game (MBT 24.2) with NATO split between two players, each at
a seat of his own, through WebSocket clients, and checks that no message to one NATO player
holds the id of a unit he does not command (the other NATO player's included), the other
player's reports, messages or instructions."""

from __future__ import annotations

import json
import re
import warnings
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx2")

with warnings.catch_warnings():
    warnings.simplefilter("ignore", DeprecationWarning)
    from starlette.testclient import TestClient

from hexwar.core.engine.controllers import make_controller
from hexwar.core.engine.decisions import canonical
from hexwar.core.engine.umpire import UMPIRE, AutomaticUmpire
from hexwar.core.scenario import Scenario, validate_scenario
from hexwar.core.web.players import SeatingError, owner, parse_player_option
from hexwar.core.web.seats import Seat
from hexwar.core.web.server import create_app
from hexwar.core.web.table import SeatError, Table

from .helpers import scenario, seat_of, table

UMPIRED = ("mbt.umpired",)
SPLIT = {"NATO": {"anna": ("N1",), "ben": ("N2", "N3")}}


def _mentions(text: str, uid: str) -> bool:
    return re.search(rf"(?<![\w-]){re.escape(uid)}(?![\w-])", text) is not None


class _Choices:
    """What each side's AI (and the automatic umpire) would choose, as an index of the seat's
    form (else its first choice)."""

    def __init__(self, t: Table, ai: str) -> None:
        offered = t.game.hooks.controllers()
        self.ais = {s: make_controller(ai, s, t.game.seed, offered) for s in t.game.state.sides}
        self.umpire = AutomaticUmpire()
        self.table = t

    def index(self, seat: Seat) -> int:
        t = self.table
        d, form = t.pending_for(seat), t.presentation(seat)
        assert d is not None and form is not None
        view = t.umpire_view(t.game) if d.side == UMPIRE else t.game.view(d.side)
        ai = self.umpire if d.side == UMPIRE else self.ais[d.side]
        wanted = canonical(ai.choose(d, view))
        return next((i for i, c in enumerate(form["choices"])
                     if canonical(c["choice"]) == wanted), 0)


def _play(t: Table, choices: _Choices, *, limit: int = 3000,
          on_umpire: Any = None) -> dict[str, list[dict[str, Any]]]:
    """Play ``t`` through one WebSocket client per seat, every seat with a form answering (the
    ones not pending first: ahead); every state message each seat received."""
    seats = list(t.seats.values())
    received: dict[str, list[dict[str, Any]]] = {s.name: [] for s in seats}
    latest: dict[str, dict[str, Any]] = {}
    texts: dict[str, list[str]] = {s.name: [] for s in seats}

    def take(seat: Seat, ws: Any) -> None:
        text = ws.receive_text()
        texts[seat.name].append(text)
        message = json.loads(text)
        if message["type"] == "state":
            latest[seat.name] = message
            received[seat.name].append(message)

    with TestClient(create_app(t)) as client:
        sockets = [(s, client.websocket_connect(f"/ws/{s.token}").__enter__()) for s in seats]
        try:
            for s, ws in sockets:
                take(s, ws)  # hello
                take(s, ws)  # state
            for s, ws in sockets:
                ws.send_json({"type": "sync"})
                take(s, ws)
            for _ in range(limit):
                d = t.game.pending
                if d is None:
                    break
                asked = [(s, ws) for s, ws in sockets if latest[s.name]["decision"] is not None]
                assert asked, f"nobody is shown {d.side}'s {d.kind}"
                seat, ws = next(((s, w) for s, w in asked if t.pending_for(s) is not d),
                                asked[0])
                if seat.role == "umpire" and on_umpire is not None and on_umpire(seat, ws):
                    pass
                else:
                    ws.send_json({"type": "choose", "serial": latest[seat.name]["serial"],
                                  "index": choices.index(seat)})
                reply = json.loads(ws.receive_text())  # the seat that answered hears first
                assert reply["type"] == "state", reply
                texts[seat.name].append(json.dumps(reply))
                latest[seat.name] = reply
                received[seat.name].append(reply)
                for s, w in sockets:
                    if s is not seat:
                        take(s, w)
        finally:
            for _s, ws in sockets:
                ws.__exit__(None, None, None)
    received["_texts"] = [{"texts": texts}]
    return received


def test_player_option_and_split_errors(tmp_path: Path) -> None:
    assert parse_player_option(["NATO:anna=N1", "NATO:ben=N2,N3"]) == \
        {"NATO": {"anna": ("N1",), "ben": ("N2", "N3")}}
    for bad in ("NATO=N1", "NATO:anna=", ":anna=N1"):
        with pytest.raises(SeatingError, match="SIDE:NAME=UNIT"):
            parse_player_option([bad])
    cases = [({"NATO": {"anna": ("N1",)}}, "N2, N3 have none"),
             ({"NATO": {"anna": ("N1", "N2"), "ben": ("N2*", "N3")}}, "given to both"),
             ({"NATO": {"anna": ("X*",), "ben": ("N*",)}}, "no unit of NATO is 'X\\*'"),
             ({"Martians": {"anna": ("N*",)}}, "no side 'Martians'")]
    for i, (split, message) in enumerate(cases):
        with pytest.raises(SeatingError, match=message):
            Table.new(scenario("mbt:basic-a"), seed=3, players={"NATO": "human"},
                      save_path=tmp_path / f"g{i}.json", split=split)
    with pytest.raises(SeatError, match="played by the computer"):
        Table.new(scenario("mbt:basic-a"), seed=3, players={"Soviet": "human"},
                  save_path=tmp_path / "ai.json", split=SPLIT)


def test_players_outside_the_umpired_game_share_the_view_and_decide_for_their_own(
        tmp_path: Path) -> None:
    """CORE-81: the two NATO players see one map; each is asked only about his own units (a
    decision naming no single player's units is the side's first player's)."""
    t = table(tmp_path, "mbt:basic-a", {"NATO": "human", "Soviet": "human"}, turns=1,
              split=SPLIT)
    assert sorted(s.name for s in t.seats.values()) == ["NATO/anna", "NATO/ben", "Soviet"]
    anna, ben = seat_of(t, "NATO/anna"), seat_of(t, "NATO/ben")
    choices = _Choices(t, "ai")
    asked: dict[str, set[str]] = {"anna": set(), "ben": set()}
    for _ in range(400):
        if t.game.pending is None:
            break
        ma, mb = t.message(anna), t.message(ben)
        assert ma["units"] == mb["units"] and ma["log"] == mb["log"]  # one shared view
        for seat in (anna, ben):
            d = t.pending_for(seat)
            if d is not None:
                unit = d.context.get("unit")
                assert unit is None or unit in seat.units, (seat.player, d.kind, unit)
                if unit is not None:
                    asked[seat.player].add(str(unit))
                assert owner(t.game, d) == seat.player
        seat = next(s for s in t.seats.values() if t.pending_for(s) is not None)
        t.answer(seat, t.serial_of(seat), index=choices.index(seat))
    assert asked == {"anna": {"N1"}, "ben": {"N2", "N3"}}


@pytest.mark.slow
def test_two_players_on_one_side_of_an_umpired_game_leak_nothing(tmp_path: Path) -> None:
    """MBT 24.2 with NATO split between anna (N1) and ben (N2, N3): each sees his own units and
    what they sighted, never the other's ids, reports, messages or instructions (MBTD-66); the
    umpire types a message to ben alone (CORE-83)."""
    t = table(tmp_path, "mbt:basic-a", {"NATO": "human", "Soviet": "human"}, turns=3,
              options=UMPIRED, umpire=True, split=SPLIT)
    told: list[int] = []

    def umpire_types(seat: Seat, ws: Any) -> bool:
        d = t.pending_for(seat)
        if d is None or d.kind != "umpire.reveal" or told:
            return False
        form = t.presentation(seat)
        assert form is not None and {"side": "NATO", "player": "ben",
                                     "label": "NATO: ben"} in form["message"]["to"]
        ws.send_json({"type": "answer", "serial": t.serial_of(seat),
                      "value": {"side": "NATO", "player": "ben", "message": "hold at the ridge"}})
        told.append(1)
        return True

    received = _play(t, _Choices(t, "umpired-ai"), on_umpire=umpire_types)
    assert t.game.over and told
    game = t.game
    texts = received.pop("_texts")[0]["texts"]
    messages = [r for r in game.log.events if r.get("what") == "message"]
    assert [(r["visible_to"], r["player"], r["message"]) for r in messages] == \
        [(["NATO"], "ben", "hold at the ridge")]
    per_player = [r for r in game.log.events if r.get("what") == "sightings"
                  and "NATO" in r.get("visible_to", [])]
    assert per_player and {r["player"] for r in per_player} == {"anna", "ben"}
    for name, units in (("NATO/anna", {"N1"}), ("NATO/ben", {"N2", "N3"})):
        foreign = set(game.state.units) - units
        for text in texts[name]:
            assert '"seed"' not in text
            for uid in foreign:
                assert not _mentions(text, uid), f"{name} was sent the id {uid} (MBT 24.2)"
        for m in received[name]:
            assert set(m["units"]) <= units | {u for u in m["units"] if u.startswith("?")}
        lines = [line for m in received[name] for line in m["log"]]
        said = any("hold at the ridge" in line for line in lines)
        assert said == (name == "NATO/ben"), name
    assert not any("hold at the ridge" in x for x in texts["Soviet"])
    assert any("hold at the ridge" in x for x in texts["umpire"])


def test_secret_orders_entered_at_once_play_as_asked_in_turn(tmp_path: Path) -> None:
    """CORE-82: both sides enter their MBT orders at once (the second side's ahead of the
    first's); the game is the one the engine would play asking them one after another: same
    decisions, same state hashes, same log."""
    from hexwar.core.engine.game import Game

    t = table(tmp_path, "mbt:basic-a", {"NATO": "human", "Soviet": "human"}, turns=2)
    choices = _Choices(t, "ai")
    ahead = 0
    for _ in range(2000):
        d = t.game.pending
        if d is None:
            break
        seats = [s for s in t.seats.values() if t.pending_for(s) is not None]
        seat = next((s for s in seats if t.pending_for(s) is not d), seats[0])
        ahead += t.pending_for(seat) is not d
        t.answer(seat, t.serial_of(seat), index=choices.index(seat))
    assert t.game.over and ahead > 5
    again = Game(t.game.scenario, seed=t.game.seed)
    for record in t.game.decisions:
        assert again.pending is not None
        assert (again.pending.side, again.pending.kind) == (record["side"], record["kind"])
        again.answer(record["choice"])
        assert again.state.digest() == record["hash"]
    assert again.over and again.log.events[1:] == t.game.log.events[1:]


def asked_ahead(t: Table) -> Seat:
    """Answer the engine's decisions (the first option each) until a seat is asked one ahead of
    the engine's own (CORE-82); that seat."""
    for _ in range(200):
        d = t.game.pending
        assert d is not None
        later = [s for s in t.seats.values()
                 if t.pending_for(s) is not None and t.pending_for(s) is not d]
        if later:
            return later[0]
        seat = next(s for s in t.seats.values() if t.pending_for(s) is d)
        t.answer(seat, t.serial_of(seat), index=0)
    raise AssertionError("no seat was asked ahead in 200 decisions")


def test_an_answer_given_ahead_can_be_taken_back(tmp_path: Path) -> None:
    t = table(tmp_path, "mbt:basic-a", {"NATO": "human", "Soviet": "human"}, turns=1)
    seat = asked_ahead(t)
    first = t.pending_for(seat)
    made = len(t.game.decisions)
    t.answer(seat, t.serial_of(seat), index=0)
    assert len(t.game.decisions) == made  # kept, not played: the other side has not finished
    assert t.pending_for(seat) is not first and t.can_undo(seat)
    assert t.message(seat)["status"]["ahead"] == 1
    t.undo(seat)
    assert t.pending_for(seat) is first and t.message(seat)["status"]["ahead"] == 0
    with pytest.raises(SeatError, match="already been answered"):
        t.answer(seat, t.serial_of(seat) - 1, index=0)


def test_players_keep_their_seats_after_a_restart(tmp_path: Path) -> None:
    t = table(tmp_path, "mbt:basic-a", {"NATO": "human", "Soviet": "human"}, turns=1,
              options=UMPIRED, split=SPLIT)
    choices = _Choices(t, "umpired-ai")
    for _ in range(60):
        seat = next((s for s in t.seats.values() if t.pending_for(s) is not None), None)
        if seat is None:
            break
        t.answer(seat, t.serial_of(seat), index=choices.index(seat))
    again = Table.resume(t.save_path)
    assert {s.token: (s.name, s.units) for s in again.seats.values()} == \
        {s.token: (s.name, s.units) for s in t.seats.values()}
    assert again.owners == t.owners and again.owners
    for seat in t.seats.values():
        assert again.message(seat)["log"] == t.message(seat)["log"]


def test_a_scenario_names_the_players_of_a_side(tmp_path: Path) -> None:
    """CORE-81: a unit's ``state = {player = NAME}`` in the scenario splits its side of people;
    ``--player`` for that side replaces the scenario's split."""
    from hexwar.core.cli import _resolve_scenario_path
    from hexwar.core.scenario import Scenario

    text = _resolve_scenario_path("mbt:basic-a").read_text(encoding="utf-8")
    for uid, player in (("N1", "anna"), ("N2", "ben"), ("N3", "ben")):
        text = text.replace(f'id = "{uid}"\n', f'id = "{uid}"\nstate = {{player = "{player}"}}\n')
    sc = Scenario.from_text(text, path="<players>")
    t = Table.new(sc, seed=3, players={"NATO": "human", "Soviet": "human"},
                  save_path=tmp_path / "s.json")
    assert {s.name: s.units for s in t.seats.values() if s.player} == \
        {"NATO/anna": ("N1",), "NATO/ben": ("N2", "N3")}
    other = Table.new(sc, seed=3, players={"NATO": "human", "Soviet": "human"},
                      save_path=tmp_path / "o.json", split={"NATO": {"cleo": ("N*",)}})
    assert [s.name for s in other.seats.values() if s.player] == ["NATO/cleo"]
    alone = Table.new(sc, seed=3, players={"NATO": "ai", "Soviet": "human"},
                      save_path=tmp_path / "a.json")  # a computer's side is not split
    assert [s.name for s in alone.seats.values()] == ["Soviet"]


def test_an_undo_keeps_the_other_seats_answers_given_ahead(tmp_path: Path) -> None:
    """CORE-82: one side takes back its played order; the other side's order given ahead is
    still kept (the same decision is asked again after the undo) and is played in its turn."""
    t = table(tmp_path, "mbt:basic-a", {"NATO": "human", "Soviet": "human"}, turns=1)
    b = asked_ahead(t)
    a = next(s for s in t.seats.values() if t.pending_for(s) is t.game.pending)
    t.answer(b, t.serial_of(b), index=0)
    kept = next(iter(t._ahead.values()))
    t.answer(a, t.serial_of(a), index=0)
    if not t.can_undo(a):
        pytest.skip("the first answer was seen by the other side (a one-decision batch)")
    t.undo(a)
    assert t.message(b)["status"]["ahead"] == 1
    (d, choice, token), = t._ahead.values()
    assert (d.side, d.kind, choice, token) == (kept[0].side, kept[0].kind, kept[1], kept[2])
    assert d is not kept[0]  # the rebuilt game's own decision


def test_a_snapshot_resumes_with_its_seats(tmp_path: Path) -> None:
    """The page's Save (a snapshot) resumes with ``hexwar serve SNAPSHOT`` at the same seats:
    the players of a split side and the umpire's, with their URLs, not a seat per side."""
    t = table(tmp_path, "mbt:basic-a", {"NATO": "human", "Soviet": "human"}, turns=1,
              umpire=True, split=SPLIT)
    for _ in range(5):
        seat = next(s for s in t.seats.values() if t.pending_for(s) is not None)
        t.answer(seat, t.serial_of(seat), index=0)
    path = t.snapshot()
    again = Table.resume(path)
    assert {s.token: (s.name, s.units) for s in again.seats.values()} == \
        {s.token: (s.name, s.units) for s in t.seats.values()}
    assert len(again.game.decisions) == len(t.game.decisions)
    assert path.with_name(path.name + ".seats").stat().st_mode & 0o077 == 0


def test_a_players_count_of_decisions_is_his_own(tmp_path: Path) -> None:
    """CORE-63, CORE-81: the count a seat is told on saving is of its own decisions; a player of
    a split side is not told how many his side's other player made (one instruction a unit, so
    how many units the other commands, MBT 24.2)."""
    t = table(tmp_path, "mbt:basic-a", {"NATO": "human", "Soviet": "human"}, turns=1,
              options=UMPIRED, split=SPLIT)
    choices = _Choices(t, "umpired-ai")
    for _ in range(60):
        seat = next((s for s in t.seats.values() if t.pending_for(s) is not None), None)
        if seat is None:
            break
        t.answer(seat, t.serial_of(seat), index=choices.index(seat))
    anna, ben = seat_of(t, "NATO/anna"), seat_of(t, "NATO/ben")
    mine = {p: sum(1 for n, d in enumerate(t.game.decisions, start=1)
                   if d["side"] == "NATO" and t.owners.get(n) == p) for p in ("anna", "ben")}
    assert mine["anna"] != mine["ben"]
    soviet = seat_of(t, "Soviet")
    told = {}
    with TestClient(create_app(t)) as client:
        for seat in (anna, ben, soviet):
            with client.websocket_connect(f"/ws/{seat.token}") as ws:
                ws.receive_text()  # hello
                ws.receive_text()  # state
                ws.send_json({"type": "save"})
                reply = json.loads(ws.receive_text())
                assert reply["type"] == "saved", reply
                told[seat.name] = reply["decisions"]
    assert told == {"NATO/anna": mine["anna"], "NATO/ben": mine["ben"],
                    "Soviet": sum(d["side"] == "Soviet" for d in t.game.decisions)}


def test_a_players_move_instructions_do_not_outline_the_other_players_units(
        tmp_path: Path) -> None:
    """MBT 24.2, MBTD-66, MBTD-67: anna is not shown ben's units; her unit's move instructions
    must not leave out the hex one of them stands in (a hole in the reachable hexes would show
    her where it is). The umpire applies MBT 4.3 when the unit gets there (MBTD-32, MBTD-67)."""
    from hexwar.plugins.mbt.rules.umpired import known_destinations

    t = table(tmp_path, "mbt:basic-a", {"NATO": "human", "Soviet": "human"}, turns=1,
              options=UMPIRED, split=SPLIT)
    anna = seat_of(t, "NATO/anna")
    choices = _Choices(t, "umpired-ai")
    for _ in range(200):
        d = t.pending_for(anna)
        if d is not None and d.kind == "mbt.umpired.instruction":
            break
        seat = next(s for s in t.seats.values() if t.pending_for(s) is not None)
        t.answer(seat, t.serial_of(seat), index=choices.index(seat))
    else:
        raise AssertionError("anna was never asked for an instruction")
    game = t.game
    n1, n2 = game.state.units["N1"], game.state.units["N2"]
    reach = {h for h, _f in known_destinations(game, n1, "M")}
    assert n1.hex is not None
    # ben's N2 put in a hex next to anna's N1 that N1 can reach, where anna does not see it
    spot = next(n for n in n1.hex.neighbors() if game.board.label(n) in reach
                and not any(u.hex == n for u in game.state.units.values()))
    n2.hex = spot
    view = t.view(anna)
    assert view is not None and "N2" not in view.units
    assert game.board.label(spot) in {h for h, _f in known_destinations(game, n1, "M")}


def test_a_player_is_offered_only_what_his_own_units_sighted(tmp_path: Path) -> None:
    """MBT 24.2 with the split in the game's record (docs/decisions.md CORE-102, MBTD-88): in
    game-turn 2 of basic-a only anna's N1 sights S2. Ben's instructions (destinations, targets)
    and what his seat is sent must not depend on that sighting; and the save replays with its
    split."""
    import json as _json

    from hexwar.plugins.mbt.rules import umpired as U

    t = table(tmp_path, "mbt:basic-a", {"NATO": "human", "Soviet": "human"}, turns=2,
              options=UMPIRED, split=SPLIT)
    assert t.game.log.events[0]["seating"] == [
        {"side": "NATO", "player": "anna", "units": ["N1"]},
        {"side": "NATO", "player": "ben", "units": ["N2", "N3"]}]
    choices = _Choices(t, "umpired-ai")
    ben = seat_of(t, "NATO/ben")
    checked = 0
    for _ in range(400):
        d = t.game.pending
        if d is None:
            break
        if d.kind == U.INSTRUCTION and d.context.get("unit") in ("N2", "N3") \
                and t.game.state.turn == 2:
            game = t.game
            side = U.contacts(game, "NATO")
            assert "S2" in side  # anna's N1 sights it ...
            mine = U.ustate(game)["player_reports"]["NATO"]
            assert "S2" not in mine["ben"]  # ... ben's units do not
            alias = side["S2"]["id"]
            u = game.state.units[str(d.context["unit"])]
            # the same options whatever anna's sighting says: S2 told to the side (and anna) as
            # standing in any hex ben's unit could move to (an enemy there stops road movement,
            # MBT 8.5.2, so a report that reached his options would cut his routes)
            kept = side["S2"], mine["anna"].get("S2")
            labels = sorted({str(o["to"][0]) for o in d.options if "to" in o})
            try:
                for label in labels:
                    h = game.board.parse(label)
                    for report in (side, mine["anna"]):
                        report["S2"] = {**kept[0], "hex": [h.q, h.r]}
                    moved = U.instruction_options(game, u)
                    assert _json.dumps(d.options, sort_keys=True) == \
                        _json.dumps(moved, sort_keys=True), (u.id, label)
            finally:
                side["S2"] = kept[0]
                if kept[1] is not None:
                    mine["anna"]["S2"] = kept[1]
                else:
                    del mine["anna"]["S2"]
            assert alias not in _json.dumps(d.options)
            sent = _json.dumps(t.message(ben))
            assert alias not in sent.replace(_json.dumps(t.board_svg(ben)), "")
            checked += 1
        seat = next(s for s in t.seats.values() if t.pending_for(s) is not None)
        t.answer(seat, t.serial_of(seat), index=choices.index(seat))
    assert checked == 2
    again = Table.resume(t.save_path)  # replayed with its hashes checked, the split recorded
    assert again.game.state.digest() == t.game.state.digest()
    assert U.ustate(again.game)["player_reports"] == U.ustate(t.game)["player_reports"]


def test_answers_given_ahead_survive_a_restart(tmp_path: Path) -> None:
    """CORE-106: an answer given ahead (CORE-82) is kept beside the save, owner-only; a
    restarted table has it still (the seat need not answer again), sends it to no other seat,
    and plays it in the engine's order when its turn comes."""
    t = table(tmp_path, "mbt:basic-a", {"NATO": "human", "Soviet": "human"}, turns=1)
    seat = asked_ahead(t)
    first = t.pending_for(seat)
    assert first is not None
    t.answer(seat, t.serial_of(seat), index=0)
    kept = t.save_path.with_name(t.save_path.name + ".ahead")
    assert kept.is_file() and kept.stat().st_mode & 0o077 == 0
    again = Table.resume(t.save_path)  # the server restarted
    mine = again.seat(seat.token)
    assert mine is not None and again.message(mine)["status"]["ahead"] == 1
    nxt = again.pending_for(mine)
    assert nxt is None or (nxt.kind, nxt.context) != (first.kind, first.context)
    others = [s for s in again.seats.values() if s.token != seat.token]
    for other in others:
        assert again.message(other)["status"]["ahead"] == 0
    made = len(again.game.decisions)
    for _ in range(200):  # the others answer: the kept answer is played in its turn
        if again.game.pending is None or not any(
                token == seat.token for _d, _c, token in again._ahead.values()):
            break
        s = next(x for x in again.seats.values() if again.pending_for(x) is again.game.pending)
        again.answer(s, again.serial_of(s), index=0)
    assert again.message(mine)["status"]["ahead"] == 0 and not kept.exists()
    assert any(r["side"] == first.side and r["kind"] == first.kind
               for r in again.game.decisions[made:])


def _road_table(tmp_path: Path, soviet_at: str, *, woods: tuple[str, ...] = (),
                turns: int = 1) -> Table:
    """A small umpired position (MBT 24.2): a road up column J of the all-clear test panel, ben's
    N2 on it at J16, the Soviet S1 in a woods hex ``soviet_at`` (sighted only within 5 hexes),
    anna's N1 at I9, ben's N3 far off at A20; NATO split as SPLIT."""
    from tests.plugins.mbt.conftest import TEST_PANEL

    panel = TEST_PANEL + "".join(
        f'\n[[hexside]]\nbetween = ["J{r}", "J{r - 1}"]\nfeatures = ["road"]\n'
        for r in range(20, 1, -1))
    tmp_path.mkdir(exist_ok=True)
    (tmp_path / "panel9.toml").write_text(panel, encoding="utf-8")
    lines = ["[scenario]", 'id = "mbt:test"', 'system = "mbt"', f"turns = {turns}", "",
             "[sides.NATO]", "", "[sides.Soviet]", "", "[board]",
             'panels = [{ file = "panel9.toml" }]',
             "terrain = { " + ", ".join(f'"{h}" = "woods"' for h in (soviet_at, *woods)) + " }",
             ""]
    for uid, typ, side, at, facing in (("N1", "M1A1", "NATO", "9I9", 1),
                                       ("N2", "M1A1", "NATO", "9J16", 1),
                                       ("N3", "M1A1", "NATO", "9A20", 1),
                                       ("S1", "T-64B", "Soviet", soviet_at, 4)):
        lines += ["[[units]]", f'id = "{uid}"', f'type = "mbt:{typ}"', f'side = "{side}"',
                  f'hex = "{at}"', f"facing = {facing}", ""]
    path = tmp_path / "road.toml"
    text = "\n".join(lines)
    path.write_text(text, encoding="utf-8")
    sc = Scenario.from_text(text, path=str(path))
    assert not validate_scenario(sc, options=UMPIRED)
    return Table.new(sc, seed=3, options=UMPIRED, players={"NATO": "human", "Soviet": "human"},
                     save_path=tmp_path / "game.json", split=SPLIT)


def _to_instruction(t: Table, unit: str) -> Any:
    from hexwar.plugins.mbt.rules import umpired as U

    for _ in range(50):
        d = t.game.pending
        assert d is not None
        if d.kind == U.INSTRUCTION and d.context.get("unit") == unit:
            return d
        seat = next(s for s in t.seats.values() if t.pending_for(s) is not None)
        t.answer(seat, t.serial_of(seat), index=0)
    raise AssertionError(f"{unit} was never given an instruction")


def test_a_road_past_an_enemy_only_his_teammate_sights_is_open_to_a_player(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """MBT 24.2, 8.5.2 with the split in the record (MBTD-88): S1 stands on the road ben's N2
    would take, in woods where only anna's N1 sights it. An enemy there bars the road rate, so a
    side-wide report would shorten ben's moves and tell him where S1 is; ben's instructions must
    be those of the same position with S1 out of everyone's sight, and his seat is never sent
    S1 nor its hex's contact."""
    from hexwar.plugins.mbt.rules import umpired as U

    t = _road_table(tmp_path / "a", "9J8")
    d = _to_instruction(t, "N2")
    game = t.game
    assert "S1" in U.contacts(game, "NATO")
    reports = U.ustate(game)["player_reports"]["NATO"]
    assert "S1" in reports["anna"] and "S1" not in reports["ben"]
    away = _road_table(tmp_path / "b", "9S2")  # the control: nobody sights S1
    d0 = _to_instruction(away, "N2")
    assert "S1" not in U.contacts(away.game, "NATO")
    assert canonical(d.options) == canonical(d0.options)
    # the position bites: told from the side's report, ben's moves would change (MBT 8.5.2)
    n2 = game.state.units["N2"]
    monkeypatch.setattr(U, "known_to", lambda g, u: U.contacts(g, U.controller(u)))
    assert canonical(U.instruction_options(game, n2)) != canonical(d.options)
    monkeypatch.undo()
    alias = U.contacts(game, "NATO")["S1"]["id"]
    assert alias == "?9J8"
    seen: dict[str, str] = {}
    with TestClient(create_app(t)) as client:
        for name in ("NATO/ben", "NATO/anna"):
            with client.websocket_connect(f"/ws/{seat_of(t, name).token}") as ws:
                texts = [ws.receive_text(), ws.receive_text()]  # hello, state
                ws.send_json({"type": "sync"})
                texts.append(ws.receive_text())
                seen[name] = "".join(texts)
    assert '"?9J8"' in seen["NATO/anna"]  # anna's seat names the contact: the check can fail
    assert '"?9J8"' not in seen["NATO/ben"] and not _mentions(seen["NATO/ben"], "S1")


def _hold(t: Table, seat: Seat) -> int:
    """A form's index of the overwatch instruction (nobody moves), else its first choice."""
    form = t.presentation(seat)
    assert form is not None
    return next((i for i, c in enumerate(form["choices"])
                 if c["choice"] == {"order": "OW", "when": "any"}), 0)


def test_a_player_knows_only_the_wrecks_his_own_units_see(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """MBT 24.4.1, 8.5.2 with the split in the record (MBTD-89): a wreck on ben's road in a
    woods hex only anna's N1 sees. Ben's Turn 2 report names no wreck and his moves are those
    of the same position with no wreck; anna's report names it."""
    from hexwar.plugins.mbt.rules import umpired as U
    from hexwar.plugins.mbt.state import data

    def turn_two(t: Table, wreck: bool) -> Any:
        for _ in range(100):
            d = t.game.pending
            assert d is not None
            if t.game.state.turn == 2 and d.kind == U.INSTRUCTION \
                    and d.context.get("unit") == "N2":
                return d
            if wreck and t.game.state.turn == 1:
                data(t.game).setdefault("wrecks", {})["9J8"] = "wreck"
            seat = next(s for s in t.seats.values() if t.pending_for(s) is not None)
            t.answer(seat, t.serial_of(seat), index=_hold(t, seat))
        raise AssertionError("no Turn 2 instruction for N2")

    t = _road_table(tmp_path / "a", "9S2", woods=("9J8",), turns=2)
    d = turn_two(t, True)
    game = t.game
    assert "9J8" in U.ustate(game)["told"]["NATO"]
    told = {r["player"]: r["wrecks"] for r in game.log.events
            if r.get("what") == "sightings" and r.get("turn") == 2 and r.get("player")}
    assert told == {"anna": {"9J8": "wreck"}, "ben": {}}
    control = _road_table(tmp_path / "b", "9S2", woods=("9J8",), turns=2)
    assert canonical(d.options) == canonical(turn_two(control, False).options)
    assert U.ustate(game)["player_told"]["NATO"] == {"anna": ["9J8"], "ben": []}
    # what each seat's page is sent of the side's state (MBT 24.1): ben's names no wreck
    sent = {name: t.message(seat_of(t, name)) for name in ("NATO/ben",)}
    assert "9J8" in json.dumps(t.view(seat_of(t, "NATO/anna")).system_state)
    assert "9J8" not in json.dumps(t.view(seat_of(t, "NATO/ben")).system_state)
    # (his form names 9J8 as a hex to move to, a hex like any other: the rest must not)
    rest = {k: v for k, v in sent["NATO/ben"].items() if k not in ("decision", "svg")}
    assert "9J8" not in json.dumps(rest)
    # the side's wrecks would have cut ben's road (MBT 8.5.2): the test can fail
    monkeypatch.setattr(U, "player_wrecks", lambda g, side: None)
    assert canonical(U.instruction_options(game, game.state.units["N2"])) != \
        canonical(d.options)


def test_a_player_fired_on_is_told_the_source_only_when_his_own_units_sight_it(
        tmp_path: Path) -> None:
    """MBT 24.4.1 with NATO split (MBTD-89): S1 in woods is sighted by anna's N1 alone. Fired
    on, ben's N2 hears of no source; anna's N1 hears S1's hex; each report goes to his player."""
    from hexwar.plugins.mbt.rules import umpired as U

    t = _road_table(tmp_path, "9J8")
    _to_instruction(t, "N2")
    game = t.game
    um = U.umpire(game)
    shot = {"type": "result", "what": "AP point effect fire", "firer": "S1",
            "result": {"hits": 0, "effects": []}}
    for target, player, source in (("N2", "ben", None), ("N1", "anna", "?9J8")):
        um._report_shot({**shot, "target": target})
        said = next(r for r in reversed(game.log.events) if r.get("what") == "fired on")
        assert (said["unit"], said.get("player"), said["source"]) == (target, player, source)
