"""The web table's server against bad input (unknown seats, malformed messages, illegal choices,
floods), and its undo, hot-seat screen, umpire seat and restart."""

from __future__ import annotations

import json
import warnings
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx2")

with warnings.catch_warnings():
    warnings.simplefilter("ignore", DeprecationWarning)
    from starlette.testclient import TestClient
    from starlette.websockets import WebSocketDisconnect

from hexwar.core.web import protocol
from hexwar.core.web.server import CLOSE_UNKNOWN_SEAT, create_app
from hexwar.core.web.table import SeatError, Table

from .helpers import seat_of, table


def _state(ws: Any) -> dict[str, Any]:
    message = ws.receive_json()
    while message["type"] not in ("state", "handover"):
        message = ws.receive_json()
    return message  # type: ignore[no-any-return]


def _error(ws: Any) -> str:
    message = ws.receive_json()
    assert message["type"] == "error", message
    return str(message["message"])


@pytest.fixture
def mbt(tmp_path: Path) -> Table:
    return table(tmp_path, "mbt:basic-a", {"NATO": "human", "Soviet": "human"})


def test_unknown_seat_gets_a_clear_refusal(mbt: Table) -> None:
    client = TestClient(create_app(mbt))
    page = client.get("/seat/not-a-real-token")
    assert page.status_code == 404 and "no seat" in page.text
    assert client.get(f"/seat/{seat_of(mbt, 'NATO').token}").status_code == 200
    with client.websocket_connect("/ws/not-a-real-token") as ws:
        assert "no seat" in _error(ws)
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
        assert closed.value.code == CLOSE_UNKNOWN_SEAT
    assert "hexes" not in page.text  # nothing of the game is sent to a wrong token


@pytest.mark.parametrize(("raw", "expected"), [
    ("not json", "not a JSON message"),
    ("[1, 2]", "JSON object"),
    ('{"type": "zap"}', "unknown message type"),
    ('{"type": "choose", "serial": "0", "index": 0}', "serial"),
    ('{"type": "choose", "serial": 0, "index": true}', "index"),
    ('{"type": "answer", "serial": 0}', "value"),
    ('{"type": "answer", "serial": 0, "value": ' + "[" * 20 + "]" * 20 + "}", "nested"),
    ('{"type": "ready"}', "side"),
    ('{"type": "ping", "pad": "' + "x" * 40000 + '"}', "too long"),
])
def test_malformed_messages_are_refused_in_words(mbt: Table, raw: str, expected: str) -> None:
    with pytest.raises(protocol.ProtocolError, match=expected):
        protocol.parse(raw)
    before = list(mbt.game.decisions)
    with TestClient(create_app(mbt)) as client, \
            client.websocket_connect(f"/ws/{seat_of(mbt, 'NATO').token}") as ws:
        _state(ws)
        ws.send_text(raw)
        assert expected in _error(ws)
        ws.send_json({"type": "ping"})  # the connection and the server go on
        assert ws.receive_json() == {"type": "pong"}
    assert mbt.game.decisions == before


def test_illegal_and_out_of_turn_choices_change_nothing(mbt: Table) -> None:
    pending = mbt.game.pending
    assert pending is not None
    mine = seat_of(mbt, pending.side)
    other = next(s for s in mbt.seats.values() if s is not mine)
    with TestClient(create_app(mbt)) as client, \
            client.websocket_connect(f"/ws/{mine.token}") as a, \
            client.websocket_connect(f"/ws/{other.token}") as b:
        state = _state(a)
        _state(b)
        serial = state["serial"]
        b.send_json({"type": "choose", "serial": serial, "index": 0})
        assert "not this seat's decision" in _error(b)
        a.send_json({"type": "choose", "serial": serial, "index": 999})
        assert "no choice number 999" in _error(a)
        a.send_json({"type": "choose", "serial": serial + 7, "index": 0})
        assert "already been answered" in _error(a)
        a.send_json({"type": "answer", "serial": serial, "value": "1"})
        assert "picking one of its choices" in _error(a)
        a.send_bytes(b"\x00\x01")
        assert "not binary" in _error(a)
        a.send_json({"type": "undo"})
        assert "nothing to undo" in _error(a)
    assert mbt.game.decisions == []


def test_an_illegal_composed_answer_is_the_rules_refusal(tmp_path: Path) -> None:
    t = table(tmp_path, "firefight:scenario-1", {"US": "human", "SU": "ai"})
    seat = seat_of(t, "US")
    with TestClient(create_app(t)) as client, client.websocket_connect(f"/ws/{seat.token}") as ws:
        state = _state(ws)
        assert state["decision"]["widget"] == "placement"
        uid = state["decision"]["placement"]["units"][0]["id"]
        before = len(t.game.decisions)
        ws.send_json({"type": "answer", "serial": state["serial"], "value": {uid: "0101"}})
        assert "outside the deployment area" in _error(ws)
        ws.send_json({"type": "answer", "serial": state["serial"], "value": {"nobody": "0101"}})
        assert "not a unit of US" in _error(ws)
        assert len(t.game.decisions) == before


def test_a_flood_is_cut_short_and_the_server_goes_on(mbt: Table) -> None:
    token = seat_of(mbt, "NATO").token
    with TestClient(create_app(mbt)) as client:
        with client.websocket_connect(f"/ws/{token}") as ws:
            _state(ws)
            for _ in range(60):
                ws.send_text('{"type": "ping"}')
            replies = [ws.receive_json() for _ in range(31)]
            assert any(r["type"] == "error" and "too many messages" in r["message"]
                       for r in replies)
        with client.websocket_connect(f"/ws/{token}") as ws:
            assert _state(ws)["type"] == "state"


def test_undo_takes_back_a_secret_order_the_other_side_has_not_seen(tmp_path: Path) -> None:
    t = table(tmp_path, "mbt:basic-a", {"NATO": "human", "Soviet": "ai"})
    nato = seat_of(t, "NATO")
    # play until NATO writes its first order of turn 1 (MBT 6.2)
    while (d := t.game.pending) is not None and d.kind != "mbt.order":
        t.answer(nato, t.serial_of(nato), index=0)
    assert t.pending_for(nato) is not None
    n = len(t.game.decisions)
    t.answer(nato, t.serial_of(nato), index=0)
    assert t.game.pending is not None and t.game.pending.side == "NATO"  # more orders to write
    assert t.can_undo(nato)
    t.undo(nato)
    assert len(t.game.decisions) == n and t.game.pending.kind == "mbt.order"
    # once the other side has answered after it, NATO's decision cannot be taken back
    while t.game.pending is not None and t.game.decisions[-1]["side"] == "NATO":
        t.answer(nato, t.serial_of(nato), index=0)
    assert t.game.decisions[-1]["side"] == "Soviet"
    assert not t.can_undo(nato)
    with pytest.raises(SeatError, match="nothing to undo"):
        t.undo(nato)


def test_hot_seat_hides_the_screen_between_sides(tmp_path: Path) -> None:
    t = table(tmp_path, "mbt:basic-a", {"NATO": "human", "Soviet": "human"}, hotseat=True)
    assert [s.role for s in t.seats.values()] == ["hotseat"]
    seat = next(iter(t.seats.values()))
    first = t.game.pending
    assert first is not None
    with TestClient(create_app(t)) as client, client.websocket_connect(f"/ws/{seat.token}") as ws:
        ws.receive_json()  # hello
        screen = ws.receive_json()
        assert screen == {"type": "handover", "to": first.side, "serial": t.serial_of(seat)}
        wrong = next(s for s in t.game.state.sides if s != first.side)
        ws.send_json({"type": "ready", "side": wrong})
        assert "goes to" in _error(ws)
        ws.send_json({"type": "ready", "side": first.side})
        state = _state(ws)
        assert state["type"] == "state" and state["side"] == first.side
        # play until the other side decides: the screen is hidden again first
        while (d := t.game.pending) is not None and d.side == first.side:
            ws.send_json({"type": "choose", "serial": state["serial"], "index": 0})
            state = _state(ws)
        assert state["type"] == "handover" and set(state) == {"type", "to", "serial"}


def test_umpire_sees_every_unit_a_side_does_not(tmp_path: Path) -> None:
    t = table(tmp_path, "firefight:scenario-7", {"US": "human", "SU": "ai"}, umpire=True,
              options=("firefight.observation",))
    umpire, us = seat_of(t, "umpire"), seat_of(t, "US")
    full, mine = t.message(umpire), t.message(us)
    assert set(full["units"]) == set(t.game.state.units)
    hidden = set(t.game.state.units) - set(mine["units"])
    assert hidden and full["decision"] is None
    assert "seed" not in json.dumps(mine) and len(full["log"]) >= len(mine["log"])


def test_the_game_survives_a_server_restart(tmp_path: Path) -> None:
    t = table(tmp_path, "mbt:basic-a", {"NATO": "human", "Soviet": "ai"})
    nato = seat_of(t, "NATO")
    for _ in range(5):
        t.answer(nato, t.serial_of(nato), index=0)
    digest, decisions = t.game.state.digest(), len(t.game.decisions)
    again = Table.resume(t.save_path)  # a new server process reads the save and the seats
    assert again.game.state.digest() == digest and len(again.game.decisions) == decisions
    assert set(again.seats) == set(t.seats)
    with TestClient(create_app(again)) as client, \
            client.websocket_connect(f"/ws/{nato.token}") as ws:
        state = _state(ws)
        assert state["decision"] is not None and state["status"]["turn"] == t.game.state.turn
    seats_file = t.save_path.with_name(t.save_path.name + ".seats")
    assert seats_file.stat().st_mode & 0o077 == 0  # the tokens are the owner's alone


def test_a_failing_form_falls_back_to_the_list(mbt: Table, monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(view: Any, decision: Any) -> dict[str, Any]:
        raise AttributeError("a system's bug")

    monkeypatch.setattr(mbt.game.hooks, "present_decision", broken)
    seat = seat_of(mbt, mbt.game.pending.side)  # type: ignore[union-attr]
    form = mbt.presentation(seat)
    assert form is not None and form["choices"] and "failed" in form["notes"][-1]


def test_an_unexpected_error_costs_one_message(mbt: Table, monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(seat: Any) -> None:
        raise RuntimeError("a bug")

    monkeypatch.setattr(mbt, "undo", broken)
    with TestClient(create_app(mbt)) as client, \
            client.websocket_connect(f"/ws/{seat_of(mbt, 'NATO').token}") as ws:
        _state(ws)
        ws.send_json({"type": "undo"})
        assert "could not do that (RuntimeError)" in _error(ws)
        ws.send_json({"type": "ping"})
        assert ws.receive_json() == {"type": "pong"}


def test_composed_answers_are_played(tmp_path: Path) -> None:
    """A placement inside the set-up zone (Firefight 9.13) and dummies picked on the map
    (Firefight 12.0), answered as the page's widgets send them."""
    t = table(tmp_path, "firefight:scenario-7", {"US": "human", "SU": "human"},
              options=("firefight.observation", "firefight.dummies"))
    for _ in range(50):
        d = t.game.pending
        assert d is not None
        seat = seat_of(t, d.side)
        form = t.presentation(seat)
        assert form is not None
        if form["widget"] == "hexes" and d.kind == "firefight.place_dummies":
            own = next(u for u in t.game.state.units_of(d.side) if u.hex is not None)
            t.answer(seat, t.serial_of(seat), value=[t.game.board.label(own.hex)], has_value=True)
            assert any(u.state.get("dummy") and u.side == d.side
                       for u in t.game.state.units.values())
        elif form["widget"] == "placement":
            unit = form["placement"]["units"][0]
            spot = next(z for z in form["placement"]["zone"] if z != unit["hex"])
            t.answer(seat, t.serial_of(seat), value={unit["id"]: spot}, has_value=True)
            assert t.game.board.label(t.game.state.units[unit["id"]].hex) == spot
            return
        else:
            t.answer(seat, t.serial_of(seat), index=0)
    raise AssertionError("no deployment was asked")


def test_the_umpire_seat_answers_the_umpires_decisions(tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """A decision of the side ``umpire`` (an umpire role's) goes to the umpire's seat, shown with
    the umpire's view, and to no side's seat."""
    from hexwar.core.engine.decisions import Decision
    from hexwar.core.engine.game import Game
    from hexwar.core.web.table import UMPIRE_SIDE

    t = table(tmp_path, "mbt:basic-a", {"NATO": "human", "Soviet": "human"}, umpire=True)
    asked = Decision(UMPIRE_SIDE, "umpire.reveal", options=["nothing", "S1"], rule="MBT 24.2",
                     prompt="Reveal a unit to NATO?")
    answered: list[object] = []
    monkeypatch.setattr(Game, "pending", property(lambda self: asked))
    monkeypatch.setattr(Game, "waiting", property(lambda self: [asked]))
    monkeypatch.setattr(Game, "answer", lambda self, choice: answered.append(choice))
    umpire, nato = seat_of(t, "umpire"), seat_of(t, "NATO")
    assert t.message(nato)["decision"] is None
    form = t.message(umpire)["decision"]
    assert form is not None and [c["label"] for c in form["choices"]] == ["nothing", "S1"]
    with pytest.raises(SeatError):
        t.answer(nato, t.serial_of(nato), index=1)
    t.answer(umpire, t.serial_of(umpire), index=1)
    assert answered == ["S1"]
