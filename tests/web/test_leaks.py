"""A whole game played through the web table's WebSocket interface by two clients, one per side:
no message to one client holds anything its side's view hides (issue 10, network play): unit ids
of units it never saw, the other side's secret orders and decisions, dummy flags, the seed."""

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

from hexwar.core.web.server import create_app
from hexwar.core.web.table import Table

from .helpers import Picker, seat_of, table


#: record types that are one side's secret while it is not shown to the other
@pytest.fixture(autouse=True)
def _no_flood_control(monkeypatch: pytest.MonkeyPatch) -> None:
    """These tests answer at machine speed, far past the per-connection flood control meant for
    people (10 messages a second); a refused message would leave a client waiting for a state
    that never comes. Flood control has its own tests (test_server.py)."""
    import hexwar.core.web.server as server

    monkeypatch.setattr(server, "RATE", 1e9)


SECRET_TYPES = ("decision", "order", "dummies_placed", "target_list", "scheduled_fires")


def _mentions(text: str, uid: str, words: set[str] | None = None) -> bool:
    """Whether ``text`` names ``uid`` as a whole id (not inside a longer one). ``words``: the
    text's maximal runs of word characters and hyphens, if known; an id made only of those is
    named exactly when it is one of them (one scan of the text for every id)."""
    if words is not None and _WORD.fullmatch(uid):
        return uid in words
    return re.search(rf"(?<![\w-]){re.escape(uid)}(?![\w-])", text) is not None


_WORD = re.compile(r"[\w-]+")


def _play(t: Table) -> dict[str, list[tuple[str, set[str]]]]:
    """Play ``t`` to its end through two WebSocket clients; per side, every message received
    (its text) with what the side could know when it was sent (the ids in its view so far and
    in its own log so far)."""
    sides = list(t.game.state.sides)
    seats = {s: seat_of(t, s) for s in sides}
    picker = Picker(t)
    received: dict[str, list[tuple[str, set[str]]]] = {s: [] for s in sides}
    known: dict[str, set[str]] = {s: set() for s in sides}
    latest: dict[str, dict[str, Any]] = {}

    def take(side: str, ws: Any) -> None:
        text = ws.receive_text()
        message = json.loads(text)
        if message["type"] == "state":
            latest[side] = message
            known[side] |= set(message["units"])
        for record in t.game.log.for_side(side):
            known[side] |= {str(v) for v in record.values() if isinstance(v, str)}
            for v in record.values():
                if isinstance(v, list):
                    known[side] |= {str(x) for x in v if isinstance(x, str)}
        received[side].append((text, set(known[side])))

    # one event loop for both connections (entering the client), as under uvicorn
    with TestClient(create_app(t)) as client, \
            client.websocket_connect(f"/ws/{seats[sides[0]].token}") as a, \
            client.websocket_connect(f"/ws/{seats[sides[1]].token}") as b:
        sockets = {sides[0]: a, sides[1]: b}
        for side, ws in sockets.items():
            take(side, ws)  # hello
            take(side, ws)  # state
        # b's connection was not there when a's first state went out: bring a up to date
        a.send_json({"type": "sync"})
        take(sides[0], a)
        ahead = 0
        for _ in range(5000):
            d = t.game.pending
            if d is None:
                break
            asked = [s for s in sides if latest[s]["decision"] is not None]
            assert d.side in asked, f"{d.side} is asked but shown no form"
            for s in asked:  # each seat is shown its own decision only
                mine = t.pending_for(seats[s])
                assert mine is not None and mine.side == s
            # a side asked besides the pending one answers first: ahead (CORE-82)
            side = next((s for s in asked if s != d.side), d.side)
            ahead += side != d.side
            message = latest[side]
            sockets[side].send_json({"type": "choose", "serial": message["serial"],
                                     "index": picker.index(seats[side])})
            for s, ws in sockets.items():
                take(s, ws)
        assert ahead, "no simultaneous decision was answered ahead"
        assert t.game.over, "the game did not end"
    return received


def _check(t: Table, received: dict[str, list[tuple[str, set[str]]]]) -> None:
    game = t.game
    everything = game.log.events
    for side, messages in received.items():
        enemy_ids = {u.id for u in game.state.units.values() if u.side != side}
        secrets = {game.hooks.describe_event(game, r) for r in everything
                   if r.get("type") in SECRET_TYPES and "visible_to" in r
                   and side not in r["visible_to"]}
        for text, known in messages:
            assert '"seed"' not in text
            message = json.loads(text)
            words = set(_WORD.findall(text))
            for uid in enemy_ids - known:
                assert not _mentions(text, uid, words), f"{side} was sent {uid}, which it never saw"
            if message["type"] != "state":
                continue
            for line in message["log"]:
                assert line not in secrets, f"{side} was sent the other side's secret: {line}"
            for uid, u in message["units"].items():
                state = u.get("state") or {}
                if u.get("side") != side and "dummy" in state:
                    # only a dummy already turned over and taken off the table (Firefight 12.0)
                    assert u.get("hex") is None and state.get("removed"), \
                        f"{side} sees the dummy flag of {uid}, still on the table"
        lines: list[str] = []
        for text, _known in messages:
            m = json.loads(text)
            if m["type"] == "state":
                lines = lines[: m["log_from"]] + m["log"]
        expected = [game.hooks.describe_event(game, r) for r in game.log.for_side(side)
                    if r.get("type") not in ("header", "end")]
        assert lines == expected  # exactly the side's own log, nothing more


@pytest.mark.slow
def test_firefight_with_dummies_leaks_nothing(tmp_path: Path) -> None:
    t = table(tmp_path, "firefight:scenario-7", {"US": "human", "SU": "human"}, turns=3,
              options=("firefight.observation", "firefight.dummies"))
    received = _play(t)
    # the game had secrets to keep: dummies on the table and counters the other side never saw
    assert any(u.state.get("dummy") for u in t.game.state.units.values()) or \
        any(r.get("type") == "dummies_placed" for r in t.game.log.events)
    _check(t, received)


@pytest.mark.slow
def test_mbt_secret_orders_leak_nothing(tmp_path: Path) -> None:
    t = table(tmp_path, "mbt:basic-a", {"NATO": "human", "Soviet": "human"}, turns=3)
    received = _play(t)
    orders = [r for r in t.game.log.events if r.get("type") == "order"]
    assert orders and all(len(r["visible_to"]) == 1 for r in orders)
    _check(t, received)
