"""MBT's Umpired Game (MBT 24.0) at the web table: two side seats and the umpire's seat play an
umpired game through the WebSocket interface, and no message to a side holds what MBT 24.2 hides
from it: the id of any unit it does not control (contacts are named by their hex, never by id,
docs/umpire.md), the umpire's secret rolls and records, the other side's instructions, the seed.
The umpire's decisions (instructions carried out, overwatch moments, reveals) have readable
forms of MBT's own."""

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
from hexwar.core.web.seats import Seat
from hexwar.core.web.server import create_app
from hexwar.core.web.table import Table

from .helpers import seat_of, table

UMPIRED = ("mbt.umpired",)
JSONISH = re.compile(r'[{}\[\]"]')


def _mentions(text: str, uid: str) -> bool:
    return re.search(rf"(?<![\w-]){re.escape(uid)}(?![\w-])", text) is not None


class _Players:
    """What the umpired AI of each side and the automatic umpire would choose, as the index of
    that choice in the seat's form (so the test game goes somewhere sensible)."""

    def __init__(self, t: Table) -> None:
        offered = t.game.hooks.controllers()
        self.ais = {s: make_controller("umpired-ai", s, t.game.seed, offered)
                    for s in t.game.state.sides}
        self.umpire = AutomaticUmpire()
        self.table = t

    def index(self, seat: Seat) -> int:
        t = self.table
        d = t.pending_for(seat)
        form = t.presentation(seat)
        view = t.view(seat)
        assert d is not None and form is not None and view is not None
        ai = self.umpire if d.side == UMPIRE else self.ais[d.side]
        wanted = canonical(ai.choose(d, view))
        return next((i for i, c in enumerate(form["choices"])
                     if canonical(c["choice"]) == wanted), 0)


def _play(t: Table) -> tuple[dict[str, list[str]], set[str]]:
    """Play ``t`` to its end through three WebSocket clients (each side's and the umpire's);
    every message each received, and the decision kinds the umpire's page was shown."""
    names = [*t.game.state.sides, UMPIRE]
    seats = {n: seat_of(t, n) for n in names}
    players = _Players(t)
    received: dict[str, list[str]] = {n: [] for n in names}
    latest: dict[str, dict[str, Any]] = {}
    umpire_kinds: set[str] = set()

    def take(name: str, ws: Any) -> None:
        text = ws.receive_text()
        message = json.loads(text)
        if message["type"] == "state":
            latest[name] = message
        received[name].append(text)

    with TestClient(create_app(t)) as client, \
            client.websocket_connect(f"/ws/{seats[names[0]].token}") as a, \
            client.websocket_connect(f"/ws/{seats[names[1]].token}") as b, \
            client.websocket_connect(f"/ws/{seats[UMPIRE].token}") as u:
        sockets = {names[0]: a, names[1]: b, UMPIRE: u}
        for name, ws in sockets.items():
            take(name, ws)  # hello
            take(name, ws)  # state
        for name in names[:2]:  # the later connections were not there yet: bring these up to date
            sockets[name].send_json({"type": "sync"})
            take(name, sockets[name])
        ahead = 0
        for _ in range(3000):
            d = t.game.pending
            if d is None:
                break
            asked = [n for n in names if latest[n]["decision"] is not None]
            assert d.side in asked, f"{d.side} is asked but shown no form"
            for n in asked:  # each seat is shown its own decision only
                mine = t.pending_for(seats[n])
                assert mine is not None and mine.side == n
            # a seat asked besides the pending one answers first: ahead (CORE-82)
            name = next((n for n in asked if n != d.side), d.side)
            ahead += name != d.side
            message = latest[name]
            if name == UMPIRE:
                umpire_kinds.add(t.pending_for(seats[name]).kind)  # type: ignore[union-attr]
                form = message["decision"]
                for c in form["choices"]:
                    assert c["label"] and not JSONISH.search(c["label"]), (d.kind, c["label"])
            sockets[name].send_json({"type": "choose", "serial": message["serial"],
                                     "index": players.index(seats[name])})
            for n, ws in sockets.items():
                take(n, ws)
        assert ahead, "no simultaneous decision was answered ahead"
        assert t.game.over, "the game did not end"
    return received, umpire_kinds


@pytest.mark.slow
def test_umpired_mbt_game_through_the_web_table_leaks_nothing(tmp_path: Path) -> None:
    """MBT 24.2: a side learns no unit's id but its own; the umpire's rolls and records, and the
    other side's instructions (MBT 24.3.2), never reach its page."""
    from hexwar.plugins.mbt.rules.umpired import controls

    t = table(tmp_path, "mbt:basic-a", {"NATO": "human", "Soviet": "human"}, turns=4,
              options=UMPIRED, umpire=True)
    assert t.umpire_controller is None  # a person sits in the umpire's seat
    received, umpire_kinds = _play(t)
    game = t.game
    # the umpire's page was asked its own decisions: reveals and overwatch moments
    assert {"umpire.reveal", "mbt.umpired.overwatch"} <= umpire_kinds, umpire_kinds
    hidden = [r for r in game.log.events if r.get("visible_to") == []]
    assert any(r.get("type") == "roll" for r in hidden), "no secret roll to keep"
    instructions = [r for r in game.log.events if r.get("type") == "decision"
                    and r.get("kind") == "mbt.umpired.instruction"]
    assert instructions
    for side in game.state.sides:
        foreign = {u.id for u in game.state.units.values() if not controls(side, u)}
        secrets = {game.hooks.describe_event(game, r) for r in game.log.events
                   if "visible_to" in r and side not in r["visible_to"]}
        expected = [game.hooks.describe_event(game, r) for r in game.log.for_side(side)
                    if r.get("type") not in ("header", "end")]
        secrets -= set(expected)  # the same words told to each side ("nothing in sight")
        lines: list[str] = []
        for text in received[side]:
            assert '"seed"' not in text
            for uid in foreign:
                assert not _mentions(text, uid), f"{side} was sent the id {uid} (MBT 24.2)"
            m = json.loads(text)
            if m["type"] == "state":
                assert all(controls(side, game.state.units[uid]) for uid in m["units"]
                           if uid in game.state.units), f"{side} shown a unit by its id"
                for line in m["log"]:
                    assert line not in secrets, f"{side} was sent a secret: {line}"
                lines = lines[: m["log_from"]] + m["log"]
        assert lines == expected  # exactly the side's own log, nothing more
    # the umpire saw every unit by its id
    last = next(json.loads(x) for x in reversed(received[UMPIRE])
                if json.loads(x)["type"] == "state")
    assert set(last["units"]) == set(game.state.units)


def test_umpired_instructions_have_readable_forms(tmp_path: Path) -> None:
    """MBT 24.3.2: each unit's instructions for the turn, in words, moves and targets on the
    map (a contact by its hex)."""
    t = table(tmp_path, "mbt:basic-a", {"NATO": "human", "Soviet": "human"}, turns=1,
              options=UMPIRED)
    players = _Players(t)
    forms = 0
    for _ in range(400):
        d = t.game.pending
        if d is None or forms >= 3:
            break
        seat = seat_of(t, d.side)
        form = t.presentation(seat)
        assert form is not None
        if d.kind == "mbt.umpired.instruction":
            forms += 1
            assert "MBT 24.3.2" in form["notes"][0]
            for c in form["choices"]:
                assert not JSONISH.search(c["label"]), c["label"]
                o = c["choice"]
                if o.get("order") == "M":
                    assert c["hex"] == o["to"][0] == c["group"]
                    assert c["label"].startswith(f"Move to {o['to'][0]}")
                if o.get("order") in ("F", "ATGM"):
                    assert o["target"].startswith("?") and c["hex"] == o["target"][1:]
                    assert c["label"].endswith(f"contact in {o['target'][1:]}")
                if o.get("order") == "OW":
                    assert c["label"].startswith("Overwatch: fire")
        t.answer(seat, t.serial_of(seat), index=players.index(seat))
    assert forms == 3
