"""The HTML replay (``hexwar render LOG -o FILE.html``) steps through a game event by event, the
log in words beside the board, and a side's replay holds only what that side knew."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from hexwar.core.cli import cli
from hexwar.core.engine.record import load_log, side_events
from hexwar.core.engine.replay import rebuild
from hexwar.core.replay_html import replay_html
from hexwar.core.words import context_game, fallback_sentence

HIDDEN = ["--option", "firefight.observation", "--option", "firefight.dummies"]


#: ``side_logged`` (tests/conftest.py): a game played through the CLI (seed 3) with its logs, once
#: per process and shared with tests/test_secrets.py, which plays the same games
SideLogged = Callable[[str, tuple[str, ...]], tuple[Path, dict[str, Path]]]


@pytest.fixture(scope="module")
def ff_log(side_logged: SideLogged) -> Path:
    return side_logged("firefight:scenario-7", tuple(HIDDEN))[0]


def _data(page: str) -> dict[str, Any]:
    return json.loads(page.split("const replay = ", 1)[1].split(";\n", 1)[0])  # type: ignore[no-any-return]


@pytest.mark.parametrize("side", [None, "US", "SU"])
def test_every_record_the_reader_may_see_is_one_step_in_words(ff_log: Path, side: str | None) -> None:
    saved = load_log(ff_log)
    data = _data(replay_html(saved, side=side))
    records = side_events([{"type": "header", **saved.header}, *saved.events], side)
    steps = data["steps"]
    assert len(steps) == len(records)
    game = rebuild(saved, verify=False)  # every unit the game ever had (dummies placed in play)
    # the same records in words (a decision moved before what it caused: compare as multisets)
    assert sorted(s["x"] for s in steps) == sorted(game.hooks.describe_event(game, r)
                                                   for r in records)
    assert not any(s["x"] == fallback_sentence(r) for s, r in zip(steps, records, strict=True))
    assert not any("{'" in s["x"] or '{"' in s["x"] for s in steps), "a dict repr in the log"
    turns = [s["t"] for s in steps]
    assert turns == sorted(turns), "the steps go forward game-turn by game-turn"
    assert max(turns) >= 2 and all(0 <= s["l"] < len(data["layers"]) for s in steps)
    # the board changes as the game goes: more than one picture of the counters
    assert len({s["l"] for s in steps}) > 10


def test_a_decision_comes_before_what_it_caused(ff_log: Path) -> None:
    steps = _data(replay_html(load_log(ff_log), side="US"))["steps"]
    # the engine logs "US moves X" after the move it started; the replay shows it first
    chosen = [i for i, s in enumerate(steps) if s["k"] == "decision" and " moves " in s["x"]]
    assert chosen
    for i in chosen:
        assert steps[i + 1]["k"] == "move_start", steps[i:i + 2]
        unit = steps[i]["x"].split(" moves ", 1)[1]
        assert steps[i + 1]["x"].startswith(unit)


_DATA_ID = re.compile(r'data-id="([^"]*)"')


def test_a_sides_replay_draws_no_enemy_unit_it_could_not_name(ff_log: Path) -> None:
    """Face-down enemy counters (Firefight 11.0) are drawn under their anonymous names; a real
    enemy id is drawn only when the side's own log names that unit (it was revealed)."""
    saved = load_log(ff_log)
    game = context_game(saved.header)
    assert game is not None
    for side in ("US", "SU"):
        data = _data(replay_html(saved, side=side))
        known = json.dumps(side_events(saved.events, side))
        enemy = {u for u, unit in game.state.units.items() if unit.side != side}
        drawn = {i for piece in data["frags"] for i in _DATA_ID.findall(piece)}
        leaked = sorted(u for u in drawn & enemy if f'"{u}"' not in known)
        assert not leaked, f"{side}'s replay draws {leaked}, which its log never names"
        assert any(i.startswith("?") for i in drawn), "the anonymous counters are drawn"


def test_render_writes_the_replay(ff_log: Path, tmp_path: Path) -> None:
    out = tmp_path / "replay.html"
    result = CliRunner().invoke(cli, ["render", str(ff_log), "-o", str(out), "--side", "US"])
    assert result.exit_code == 0, result.output
    page = out.read_text(encoding="utf-8")
    assert "as US knew it" in page and "seed 3" not in page


@pytest.mark.skipif(shutil.which("chromium") is None, reason="chromium is not installed")
def test_the_page_steps_in_a_browser(ff_log: Path, tmp_path: Path) -> None:
    """Headless Chromium runs the page's script: opened at an event (``#step=N``), it shows that
    event in words, its game-turn and phase, and the counters of that moment."""
    out = tmp_path / "replay.html"
    page = replay_html(load_log(ff_log))
    out.write_text(page, encoding="utf-8")
    steps = _data(page)["steps"]
    n = next(i for i, s in enumerate(steps) if s["k"] == "result") + 1
    try:
        dom = subprocess.run(
            ["chromium", "--headless", "--no-sandbox", "--disable-gpu", "--dump-dom",
             f"file://{out}#step={n}"], capture_output=True, text=True, timeout=120).stdout
    except subprocess.TimeoutExpired:
        pytest.skip("chromium did not answer in time")
    label = re.search(r'id="label">([^<]*)<', dom)
    assert label is not None and f"event {n} of {len(steps)}" in label.group(1)
    now = re.search(r'id="now">([^<]*)<', dom)
    assert now is not None and now.group(1).replace("&gt;", ">").replace("&amp;", "&") == \
        steps[n - 1]["x"]
    overlay = dom.split('id="overlay"', 1)[1].split('id="legend"', 1)[0]
    assert 'class="unit"' in overlay


@pytest.mark.parametrize("scenario", ["mbt:basic-a", "firepower:basic"])
def test_every_system_replays_event_by_event(scenario: str, side_logged: SideLogged) -> None:
    log = side_logged(scenario, ())[0]
    saved = load_log(log)
    for side in (None, *sorted({e["side"] for e in saved.events if e["type"] == "decision"})):
        data = _data(replay_html(saved, side=side))
        records = side_events([{"type": "header", **saved.header}, *saved.events], side)
        assert len(data["steps"]) == len(records)
        assert any(s["k"] == "result" for s in data["steps"])
        assert len({s["l"] for s in data["steps"]}) > 5  # the counters move
