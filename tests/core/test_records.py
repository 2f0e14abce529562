"""Logs and saves that survive a crash and say what they are (issue 9, items 5, 8 and 4)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from hexwar.core.engine.controllers import RandomController
from hexwar.core.engine.game import Game
from hexwar.core.engine.record import EventLog, load_saved, save_game, write_atomic
from hexwar.core.engine.replay import rebuild
from hexwar.core.errors import DataError
from hexwar.core.scenario import Scenario

from .toy import toy_system

TOY = Path(__file__).parent / "toy" / "scenario.toml"


def toy_game(seed: int = 11, **kw: object) -> Game:
    return Game(Scenario.load(TOY), seed=seed, local_plugins=[toy_system], **kw)  # type: ignore[arg-type]


def play_logged(path: Path, seed: int = 11) -> Game:
    with path.open("w", encoding="utf-8") as stream:
        log = EventLog(stream)
        game = toy_game(seed, log=log)
        game.play({s: RandomController(s, 4) for s in game.state.sides})
        if hasattr(log, "close"):
            log.close()
    return game


# -- item 5: a log flushed per record, read up to a torn last line -----------------------------


def test_every_record_is_on_disk_as_soon_as_it_is_logged(tmp_path: Path) -> None:
    path = tmp_path / "live.jsonl"
    with path.open("w", encoding="utf-8") as stream:
        game = toy_game(log=EventLog(stream))
        ctl = {s: RandomController(s, 4) for s in game.state.sides}
        for _ in range(3):
            d = game.pending
            assert d is not None
            game.answer(ctl[d.side].choose(d, game.view(d.side)))
            on_disk = path.read_text(encoding="utf-8")
            assert on_disk.endswith("\n")
            assert [json.loads(line) for line in on_disk.splitlines()] == game.log.events


def test_a_log_with_a_torn_last_line_is_read_up_to_that_line(tmp_path: Path) -> None:
    path = tmp_path / "game.jsonl"
    game = play_logged(path)
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    decision_lines = [i for i, line in enumerate(lines) if '"type": "decision"' in line]
    cut = decision_lines[-2]  # cut in the middle of the last-but-one decision
    path.write_text("".join(lines[:cut]) + lines[cut][: len(lines[cut]) // 2], encoding="utf-8")
    saved = load_saved(path)
    assert len(saved.decisions) == len(game.decisions) - 2
    assert saved.torn and any(f"line {cut + 1} is incomplete" in n for n in saved.notes)
    replayed = rebuild(saved, verify=True, local_plugins=[toy_system])
    assert replayed.decisions[-1]["hash"] == game.decisions[-3]["hash"]


def test_a_bad_line_in_the_middle_is_still_an_error(tmp_path: Path) -> None:
    path = tmp_path / "game.jsonl"
    play_logged(path)
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    lines[3] = lines[3][:10] + "\n"
    path.write_text("".join(lines), encoding="utf-8")
    with pytest.raises(DataError, match=":4: not a JSON line"):
        load_saved(path)


def test_a_failed_save_leaves_no_temporary_file(tmp_path: Path) -> None:
    path = tmp_path / "save.json"
    write_atomic(path, "old")
    with pytest.raises(TypeError):
        write_atomic(path, 42)  # type: ignore[arg-type]
    assert [p.name for p in tmp_path.iterdir()] == ["save.json"]


def test_a_save_killed_mid_write_leaves_at_most_one_temporary_which_the_next_save_replaces(
        tmp_path: Path) -> None:
    path = tmp_path / "save.json"
    write_atomic(path, "one")
    # what a kill -9 mid-write leaves: the temporary beside the save
    from hexwar.core.engine import record

    stale = record._temporary_for(path.resolve())
    stale.write_text("half a sa", encoding="utf-8")
    write_atomic(path, "two")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["save.json"]
    assert path.read_text() == "two"


def test_a_game_killed_mid_way_leaves_a_readable_log(tmp_path: Path) -> None:
    log, save = tmp_path / "game.jsonl", tmp_path / "game.json"
    proc = subprocess.Popen(
        [sys.executable, "-m", "hexwar.core", "play", "firefight:scenario-9", "--seed", "3",
         "--log", str(log), "--save", str(save)],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and proc.poll() is None:
            if log.exists() and log.stat().st_size > 150_000:
                break
            time.sleep(0.02)
        if proc.poll() is not None:
            pytest.skip("the game ended before it could be killed")
        os.kill(proc.pid, signal.SIGKILL)
    finally:
        proc.wait()
    saved = load_saved(log)
    assert saved.decisions, "the log lost every decision"
    assert saved.torn or saved.notes  # it says the game was cut short
    game = rebuild(saved, verify=True)
    assert len(game.decisions) == len(saved.decisions)
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []


# -- item 8: format markers -------------------------------------------------------------------


def test_a_log_holding_only_its_header_is_a_log(tmp_path: Path) -> None:
    full = tmp_path / "full.jsonl"
    play_logged(full)
    header_only = tmp_path / "header.jsonl"
    header_only.write_text(full.read_text(encoding="utf-8").splitlines()[0] + "\n", encoding="utf-8")
    saved = load_saved(header_only)
    assert saved.decisions == [] and saved.header["format"] == "hexwar-log"
    assert getattr(saved, "kind", None) == "log"


@pytest.mark.parametrize("indent", [None, 0, 4])
def test_a_re_indented_save_is_a_save(tmp_path: Path, indent: int | None) -> None:
    game = toy_game()
    game.play({s: RandomController(s, 4) for s in game.state.sides})
    path = tmp_path / "game.json"
    save_game(game, path)
    path.write_text(json.dumps(json.loads(path.read_text()), indent=indent), encoding="utf-8")
    saved = load_saved(path)
    assert getattr(saved, "kind", None) == "save"
    assert len(saved.decisions) == len(game.decisions)


def test_each_loader_refuses_the_other_kind(tmp_path: Path) -> None:
    from hexwar.core.engine import record

    log, save = tmp_path / "game.jsonl", tmp_path / "game.json"
    game = play_logged(log)
    save_game(game, save)
    with pytest.raises(DataError, match="this is a hexwar log, not a hexwar save"):
        record.load_save(log)
    with pytest.raises(DataError, match="this is a hexwar save, not a hexwar log"):
        record.load_log(save)
    assert json.loads(save.read_text())["format"] == "hexwar-save"
    assert json.loads(log.read_text().splitlines()[0])["format"] == "hexwar-log"


def test_a_log_of_an_unknown_version_is_refused(tmp_path: Path) -> None:
    log = tmp_path / "game.jsonl"
    play_logged(log)
    lines = log.read_text().splitlines()
    header = json.loads(lines[0])
    header["version"] = 99
    log.write_text("\n".join([json.dumps(header), *lines[1:]]) + "\n")
    with pytest.raises(DataError, match="log format version 99 is not supported"):
        load_saved(log)
