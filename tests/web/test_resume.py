"""Resuming from a snapshot at the page, agreed by every seat (docs/decisions.md CORE-104),
through the WebSocket interface: save, play on, propose, accept (the game is back at the
snapshot's state hash), refuse, withdraw, and hostile proposals refused with nothing changed."""

from __future__ import annotations

import json
import os
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

from hexwar.core.web.seats import Seat
from hexwar.core.web.server import CLOSE_UNKNOWN_SEAT, create_app
from hexwar.core.web.table import SeatError, Table

from .helpers import seat_of, table


def _next(ws: Any, kind: str) -> dict[str, Any]:
    """The next message of type ``kind`` (states sent before it skipped)."""
    while True:
        message = ws.receive_json()
        if message["type"] == kind:
            return message  # type: ignore[no-any-return]
        assert message["type"] in ("state", "hello"), message


def _view(state: dict[str, Any]) -> tuple[Any, ...]:
    """What a page shows of the game, serial numbers aside."""
    return (state["units"], state["log"], state["status"], state["side"])


class _Two:
    """Two seats, NATO and Soviet, each with its WebSocket and the last state it was sent."""

    def __init__(self, t: Table, client: TestClient) -> None:
        self.t = t
        self.ws = {s: client.websocket_connect(f"/ws/{seat_of(t, s).token}").__enter__()
                   for s in ("NATO", "Soviet")}
        self.latest = {s: _next(ws, "state") for s, ws in self.ws.items()}

    def close(self) -> None:
        for ws in self.ws.values():
            ws.__exit__(None, None, None)

    def receive(self, kind: str = "state") -> dict[str, dict[str, Any]]:
        got = {s: _next(ws, kind) for s, ws in self.ws.items()}
        if kind == "state":
            self.latest = got
        return got

    def play(self, n: int) -> None:
        for _ in range(n):
            with self.t.lock:
                d = self.t.game.pending
            assert d is not None
            self.ws[d.side].send_json({"type": "choose", "index": 0,
                                       "serial": self.latest[d.side]["serial"]})
            self.receive()

    def sync(self) -> dict[str, dict[str, Any]]:
        for ws in self.ws.values():
            ws.send_json({"type": "sync"})
        return self.receive()


@pytest.fixture
def mbt(tmp_path: Path) -> Table:
    return table(tmp_path, "mbt:basic-a", {"NATO": "human", "Soviet": "human"})


def test_two_seats_agree_and_the_game_is_back_at_the_snapshot(mbt: Table) -> None:
    with TestClient(create_app(mbt)) as client:
        two = _Two(mbt, client)
        try:
            two.play(3)
            two.ws["NATO"].send_json({"type": "save"})
            saved = _next(two.ws["NATO"], "saved")
            name, digest = saved["name"], mbt.game.state.digest()
            at_save = {s: _view(m) for s, m in two.sync().items()}
            assert saved["snapshots"][-1]["name"] == name
            assert saved["snapshots"][-1]["turn"] == mbt.game.state.turn
            two.play(4)
            assert mbt.game.state.digest() != digest
            two.ws["Soviet"].send_json({"type": "snapshots"})
            assert [s["name"] for s in _next(two.ws["Soviet"], "snapshots")["snapshots"]] == [name]
            two.ws["NATO"].send_json({"type": "propose", "snapshot": name})
            shown = two.receive()
            offer = shown["Soviet"]["proposal"]
            assert offer["by"] == "NATO" and offer["snapshot"] == name and not offer["agreed"]
            assert shown["NATO"]["proposal"]["mine"] and shown["NATO"]["proposal"]["waiting"] == [
                "Soviet"]
            assert mbt.game.state.digest() != digest  # one seat alone rolls nothing back
            two.ws["Soviet"].send_json({"type": "accept", "proposal": offer["number"]})
            resumed = two.receive("resumed")
            assert {m["snapshot"] for m in resumed.values()} == {name}
            after = two.receive()
            assert mbt.game.state.digest() == digest
            for side, state in after.items():  # each page shows its view as it was at the save
                assert _view(state) == at_save[side] and state["proposal"] is None
                assert state["log_from"] == 0
            two.play(1)  # and the game goes on from there
        finally:
            two.close()
    # the game given up was kept as a snapshot of its own; the running save is the snapshot's
    names = [s["name"] for s in mbt.snapshots()]
    assert len(names) == 2 and names[0] == name
    assert Table.resume(mbt.save_path).game.state.digest() == mbt.game.state.digest()


def test_a_refused_or_withdrawn_proposal_changes_nothing(mbt: Table) -> None:
    name = mbt.snapshot().name
    with TestClient(create_app(mbt)) as client:
        two = _Two(mbt, client)
        try:
            two.play(2)
            digest, decisions = mbt.game.state.digest(), list(mbt.game.decisions)
            two.ws["NATO"].send_json({"type": "propose", "snapshot": name})
            number = two.receive()["Soviet"]["proposal"]["number"]
            two.ws["Soviet"].send_json({"type": "withdraw", "proposal": number})
            assert "refuse it instead" in _next(two.ws["Soviet"], "error")["message"]
            two.ws["Soviet"].send_json({"type": "refuse", "proposal": number})
            notices = two.receive("notice")
            assert all("Soviet refused" in m["message"] for m in notices.values())
            assert all(m["proposal"] is None for m in two.receive().values())
            two.ws["Soviet"].send_json({"type": "accept", "proposal": number})
            assert "no open proposal" in _next(two.ws["Soviet"], "error")["message"]
            two.ws["Soviet"].send_json({"type": "propose", "snapshot": name})
            number = two.receive()["NATO"]["proposal"]["number"]
            two.ws["Soviet"].send_json({"type": "withdraw", "proposal": number})
            assert "Soviet withdrew" in two.receive("notice")["NATO"]["message"]
            two.receive()
            assert mbt.game.state.digest() == digest and mbt.game.decisions == decisions
            assert mbt.proposal is None
        finally:
            two.close()


def test_hostile_proposals_are_refused_and_change_nothing(mbt: Table, tmp_path: Path) -> None:
    name = mbt.snapshot().name
    folder = tmp_path / "game.snapshot-7.json"  # a folder of the right name
    folder.mkdir()
    (tmp_path / "game.snapshot-8.json").symlink_to(tmp_path / name)
    (tmp_path / "game.snapshot-9.json").write_text("{not json", encoding="utf-8")
    other = json.loads((tmp_path / name).read_text(encoding="utf-8"))
    other["header"]["seed"] = int(other["header"]["seed"]) + 1
    (tmp_path / "game.snapshot-10.json").write_text(json.dumps(other), encoding="utf-8")
    (tmp_path.parent / "game.snapshot-1.json").write_text("x", encoding="utf-8")
    files = sorted(os.listdir(tmp_path))
    digest = mbt.game.state.digest()
    assert [s["name"] for s in mbt.snapshots()] == [name]  # only this game's, readable ones
    with TestClient(create_app(mbt)) as client:
        with client.websocket_connect("/ws/not-a-seat") as ws:  # a bad token proposes nothing
            assert "no seat" in ws.receive_json()["message"]
            with pytest.raises(WebSocketDisconnect) as closed:
                ws.receive_json()
            assert closed.value.code == CLOSE_UNKNOWN_SEAT
        with client.websocket_connect(f"/ws/{seat_of(mbt, 'NATO').token}") as ws:
            _next(ws, "state")
            for bad, words in [("../game.snapshot-1.json", "no snapshot"),
                               (f"{name}/../{name}", "no snapshot"),
                               (str(tmp_path / name), "no snapshot"),
                               ("game.json", "no snapshot"),
                               ("game.snapshot-99.json", "no snapshot"),
                               ("game.snapshot-7.json", "no snapshot"),
                               ("game.snapshot-8.json", "no snapshot"),
                               ("game.snapshot-9.json", "not a readable save"),
                               ("game.snapshot-10.json", "another game"),
                               ("x" * 500, "at most 200")]:
                ws.send_json({"type": "propose", "snapshot": bad})
                message = _next(ws, "error")["message"]
                assert words in message and str(tmp_path) not in message, (bad, message)
            ws.send_json({"type": "propose", "snapshot": ["not", "a", "name"]})
            assert "'snapshot' name" in _next(ws, "error")["message"]
            for kind in ("accept", "refuse", "withdraw"):
                ws.send_json({"type": kind, "proposal": 1})
                assert "no open proposal" in _next(ws, "error")["message"]
            ws.send_json({"type": "ping"})
            assert ws.receive_json() == {"type": "pong"}
    forged = Seat("f" * 32, "NATO", "side", ("NATO",))
    with pytest.raises(SeatError, match="no seat"):
        mbt.propose(forged, name)
    assert mbt.game.state.digest() == digest and mbt.proposal is None
    assert sorted(os.listdir(tmp_path)) == files


def test_alone_against_the_computer_a_proposal_takes_effect_at_once(tmp_path: Path) -> None:
    t = table(tmp_path, "firefight:scenario-1", {"US": "human", "SU": "ai"})
    us = seat_of(t, "US")
    name, digest = t.snapshot().name, t.game.state.digest()
    t.answer(us, t.serial_of(us), index=0)
    assert t.game.state.digest() != digest
    assert t.voters() == [us]  # the computer's side agrees
    assert t.propose(us, name) == name
    assert t.game.state.digest() == digest and t.proposal is None


def test_a_snapshot_that_does_not_replay_drops_the_proposal(mbt: Table) -> None:
    nato, soviet = seat_of(mbt, "NATO"), seat_of(mbt, "Soviet")
    for _ in range(2):
        d = mbt.game.pending
        assert d is not None
        seat = seat_of(mbt, d.side)
        mbt.answer(seat, mbt.serial_of(seat), index=0)
    path = mbt.snapshot()
    doc = json.loads(path.read_text(encoding="utf-8"))
    doc["decisions"][-1]["hash"] = "0" * 64  # a tampered record: the replay's check fails
    path.write_text(json.dumps(doc), encoding="utf-8")
    digest, files = mbt.game.state.digest(), sorted(os.listdir(path.parent))
    assert mbt.propose(nato, path.name) is None and mbt.proposal is not None
    with pytest.raises(SeatError, match="does not replay") as refused:
        mbt.accept(soviet, mbt.proposal.number)
    assert str(path.parent) not in str(refused.value)
    assert mbt.proposal is None and mbt.game.state.digest() == digest
    assert sorted(os.listdir(path.parent)) == files


def test_snapshots_are_capped_the_oldest_go_first(tmp_path: Path) -> None:
    """CORE-105: at most ``max_snapshots`` snapshots of a save are kept; a new one removes the
    oldest, with its seats file, and the list shows the newest."""
    t = table(tmp_path, "firefight:scenario-1", {"US": "human", "SU": "ai"})
    t.max_snapshots = 3
    made = [t.snapshot().name for _ in range(5)]
    listed = [s["name"] for s in t.snapshots()]
    assert listed == made[2:]
    left = sorted(p.name for p in tmp_path.iterdir() if ".snapshot-" in p.name)
    assert left == sorted([*made[2:], *(f"{n}.seats" for n in made[2:])])
    with pytest.raises(SeatError, match="no snapshot"):
        t.propose(next(iter(t.voters())), made[0])
