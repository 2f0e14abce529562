"""Regression tests of the issue 9 audit: counts of decisions a side could read the other
sides' secret decisions from (docs/decisions.md CORE-63), and the side log of a resumed game."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

from starlette.testclient import TestClient

from hexwar.core.cli import _controllers
from hexwar.core.engine.record import EventLog, side_events
from hexwar.core.testing import played_game
from hexwar.core.web.server import create_app
from hexwar.core.words import summarise

from .web.helpers import seat_of, table


def _play_mbt() -> Any:
    # MBT Basic A, seed 3, AI against AI, played once per process (CORE-126): both tests only
    # read its decisions, logs and summaries
    return played_game("mbt:basic-a", seed=3)


def test_a_sides_decisions_carry_no_number_whose_gaps_count_the_enemys() -> None:
    """MBT asks each unit's order, turret and fire declaration in secret: numbered decisions in
    NATO's log would count the Soviet ones (how many unseen units moved or fired)."""
    game = _play_mbt()
    full = [e for e in game.log.events if e["type"] == "decision"]
    assert all("n" in e for e in full)  # the umpire's log keeps the numbers
    for side in game.state.sides:
        mine = [e for e in side_events(game.log.events, side) if e["type"] == "decision"]
        assert mine and all(e["side"] == side for e in mine)
        assert not [e for e in mine if "n" in e or "hash" in e]
        assert [e for e in game.view(side).events() if e["type"] == "decision"] == mine


def test_a_sides_summary_counts_its_own_decisions() -> None:
    game = _play_mbt()
    assert summarise(game).decisions == len(game.decisions)
    for side in game.state.sides:
        assert summarise(game, side).decisions == sum(d["side"] == side for d in game.decisions)


def test_a_side_log_started_late_leaves_out_the_umpired_header_fields() -> None:
    """``add_side_stream`` (``resume --log-side``) writes the history with the same fields left
    out as the live records: an umpired header's ``decision.FIELD`` entries."""
    log = EventLog()
    log.open({"system": "toy", "seed": 5, "umpire_only": ["decision.kind"]})
    log.append({"type": "decision", "n": 1, "side": "red", "kind": "secret.kind", "choice": 1,
                "hash": "x"}, visible_to=("red",))
    late = io.StringIO()
    log.add_side_stream("red", late)
    log.append({"type": "decision", "n": 2, "side": "red", "kind": "secret.kind", "choice": 2,
                "hash": "y"}, visible_to=("red",))
    records = [json.loads(line) for line in late.getvalue().splitlines()]
    decisions = [r for r in records if r["type"] == "decision"]
    assert [d["choice"] for d in decisions] == [1, 2]
    assert all(set(d) == {"type", "side", "choice", "visible_to"} for d in decisions)
    assert "seed" not in records[0]


def test_a_web_snapshot_tells_a_seat_only_its_own_decisions(tmp_path: Path) -> None:
    t = table(tmp_path, "mbt:basic-a", {"NATO": "human", "Soviet": "ai"})
    t.save()
    nato = seat_of(t, "NATO")
    with TestClient(create_app(t)) as client, \
            client.websocket_connect(f"/ws/{nato.token}") as ws:
        ws.send_json({"type": "save"})
        message = ws.receive_json()
        while message["type"] != "saved":
            message = ws.receive_json()
    mine = sum(d["side"] == "NATO" for d in t.game.decisions)
    assert mine < len(t.game.decisions)  # the Soviet AI has decided in secret already
    assert message["decisions"] == mine
    assert str(len(t.game.decisions)) not in message["name"]


def _deployed_scenario_7(seed: int) -> Any:
    """Firefight Scenario 7 with face-down counters and dummies, the AIs (which keep the printed
    set-up) deciding until the first Game-Turn starts."""
    from hexwar.core.cli import _resolve_scenario_path
    from hexwar.core.engine.game import Game
    from hexwar.core.scenario import load_and_validate

    options = ("firefight.observation", "firefight.dummies")
    sc = load_and_validate(_resolve_scenario_path("firefight:scenario-7"), options=options)
    game = Game(sc, seed=seed, options=options)
    controllers, _ = _controllers(game, "ai,ai", seed)
    while game.pending is not None and game.state.turn < 1:
        d = game.pending
        game.answer(controllers[d.side].choose(d, game.view(d.side)))
    return game


def test_face_down_counters_left_at_the_printed_set_up_are_not_known_by_their_hex() -> None:
    """FFD-46: the scenario text (public, and in every side's log) prints a hex for each unit,
    dummies marked; a counter left there would be identified by its hex. The attack, by the
    Soviet side on the U.S. counters (the U.S. AI keeps the printed set-up): name each face-down
    counter after the unit the scenario prints at its hex. Before the fix it named every one."""
    import tomllib

    from hexwar.core.hexgrid import Hex
    from hexwar.plugins.firefight.setup import deployment_problem

    right = tried = 0
    for seed in range(1, 5):
        game = _deployed_scenario_7(seed)
        view = game.view("SU")
        printed = {u["hex"]: u["id"] for u in tomllib.loads(view.header["scenario_text"])
                   ["units"] if u["side"] == "US" and "hex" in u}
        truth: dict[str, set[str]] = {}
        for u in game.state.units.values():
            if u.side == "US" and u.hex is not None and u.state.get("face_down"):
                truth.setdefault(game.board.label(u.hex), set()).add(u.id)
        for name, shown in view.units.items():
            if shown.get("side") == "US" and name.startswith("?"):
                where = game.board.label(Hex(*shown["hex"]))
                tried += 1
                right += printed.get(where) in truth.get(where, set())
        for side in game.state.sides:  # the shuffle is the umpire's: no side sees its rolls
            assert not [e for e in game.view(side).events()
                        if e.get("purpose") == "set-up shuffle"]
        assert [e for e in game.log.events if e.get("purpose") == "set-up shuffle"]
        # the owner is told where its counters went, and the other side is not
        told = [e for e in game.view("US").events() if e.get("type") == "setup_shuffled"]
        assert len(told) == 1 and told[0]["moved"]
        for uid, where in told[0]["moved"].items():
            assert game.board.label(game.state.units[uid].hex) == where
        assert not [e for e in view.events() if e.get("type") == "setup_shuffled"]
        for spec in game.scenario.raw["setup"]["deploy"]:
            assert deployment_problem(game, spec["side"], spec, {}) is None
    assert tried >= 12
    assert right / tried < 0.6, f"{right} of {tried} counters named by their printed hex"


def test_serve_keeps_its_fresh_seed_from_the_file_name_and_the_screen(
        tmp_path: Path, monkeypatch: Any) -> None:
    """CORE-64: the default save name is shown to every seat that saves (a snapshot's name), so
    it must not hold the seed, which keys every die; a fresh seed is as long as play's."""
    import re

    import uvicorn
    from click.testing import CliRunner

    from hexwar.core.cli import cli
    from hexwar.core.engine.record import load_save

    monkeypatch.setattr(uvicorn.Server, "run", lambda self, sockets=None: None)
    import secrets

    bounds: list[int] = []
    draw = secrets.randbelow
    monkeypatch.setattr(secrets, "randbelow", lambda n: bounds.append(n) or draw(n))
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(cli, ["serve", "mbt:basic-a", "--players", "human,ai"])
    assert bounds == [10 ** 18]
    assert result.exit_code == 0, result.output
    (save,) = tmp_path.glob("hexwar-*.json")
    seed = load_save(save).header["seed"]
    assert str(seed) not in save.name and str(seed) not in result.output
    assert re.fullmatch(r"hexwar-mbt-basic-a-[0-9a-f]{8}\.json", save.name)
    chosen = CliRunner().invoke(cli, ["serve", "mbt:basic-a", "--seed", "4", "--save",
                                      str(tmp_path / "x.json")])
    assert "seed 4" in chosen.output


def test_a_one_value_a_line_script_whose_first_value_is_an_array(tmp_path: Path) -> None:
    """Issue 9, item 12: the first value of a one-value-a-line script may be a JSON array."""
    import pytest

    from hexwar.core.engine.controllers import ScriptedController
    from hexwar.core.errors import DataError

    script = tmp_path / "s.txt"
    script.write_text('["tm-us1", "tm-us2"]\n"pass"\n{"unit": "a"}\n', encoding="utf-8")
    assert ScriptedController.from_file(script)._choices == [["tm-us1", "tm-us2"], "pass",
                                                              {"unit": "a"}]
    script.write_text('["a", "b"]\n', encoding="utf-8")  # one array: the list of choices
    assert ScriptedController.from_file(script)._choices == ["a", "b"]
    script.write_text('["a", \n', encoding="utf-8")
    with pytest.raises(DataError, match="not valid JSON"):
        ScriptedController.from_file(script)


HOSTILE = '</script><script>alert(1)</script><img src=x onerror=alert(2)>'


def test_the_web_table_carries_hostile_text_only_as_data(tmp_path: Path) -> None:
    """Issue 9, item 15, for the web table: a scenario's title, notes and side titles with
    markup reach a seat only as JSON strings (the page writes them as text); the board's SVG,
    the one thing the page inserts as markup, holds no element or handler from them; and the
    page's policy runs no inline script whatever gets through."""
    import re

    from hexwar.core.cli import _resolve_scenario_path
    from hexwar.core.scenario import Scenario
    from hexwar.core.web.table import Table

    text = _resolve_scenario_path("mbt:basic-a").read_text(encoding="utf-8")
    text = re.sub(r'(?m)^title = "NATO"', f"title = {json.dumps(HOSTILE)}", text)
    text = re.sub(r'(?m)^title = "MBT[^"]*"', f"title = {json.dumps(HOSTILE)}", text, count=1)
    text = re.sub(r'(?m)^notes = "[^"]*"', f"notes = {json.dumps(HOSTILE)}", text, count=1)
    sc = Scenario.from_text(text, path=str(tmp_path / "hostile.toml"))
    t = Table.new(sc, seed=3, options=(), players={"NATO": "human", "Soviet": "human"},
                  save_path=tmp_path / "game.json")
    for seat in t.seats.values():
        hello, state = t.hello(seat), t.message(seat)
        assert hello["scenario"]["title"] == HOSTILE  # data, written by the page as text
        svg = state.get("svg", "")
        assert "<script" not in svg and "onerror" not in svg and "<img" not in svg
    with TestClient(create_app(t)) as client:
        page = client.get(f"/seat/{next(iter(t.seats.values())).token}")
        policy = page.headers["content-security-policy"]
        assert "default-src 'self'" in policy and "script-src" not in policy
        assert "unsafe-inline" not in policy.split("style-src")[0]
        assert HOSTILE not in page.text
