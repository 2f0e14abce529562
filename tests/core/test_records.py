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


# -- item 4: verification that means something ------------------------------------------------


def cli_run(*args: str, env: dict[str, str] | None = None) -> tuple[int, str]:
    from click.testing import CliRunner

    from hexwar.core.cli import cli

    result = CliRunner().invoke(cli, list(args), catch_exceptions=False, env=env)
    return result.exit_code, result.output


@pytest.fixture(scope="module")
def fp_log(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A finished Firepower game's log, played from the command line."""
    path = tmp_path_factory.mktemp("fp") / "game.jsonl"
    code, out = cli_run("play", "firepower:basic", "--seed", "2", "--players", "random,random",
                        "--log", str(path))
    assert code == 0, out
    return path


def records(path: Path) -> list[dict[str, object]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def write_records(path: Path, recs: list[dict[str, object]]) -> None:
    path.write_text("".join(json.dumps(r, sort_keys=True) + "\n" for r in recs), encoding="utf-8")


def test_the_log_ends_with_a_closing_record(fp_log: Path) -> None:
    recs = records(fp_log)
    assert recs[-1] == {"type": "end", "records": len(recs) - 1}
    code, out = cli_run("replay", str(fp_log), "--verify", "--json")
    assert code == 0, out
    assert json.loads(out)["verified"] and json.loads(out)["complete"]


def test_a_log_cut_at_a_line_boundary_fails_verification(fp_log: Path, tmp_path: Path) -> None:
    cut = tmp_path / "cut.jsonl"
    recs = records(fp_log)
    last_decision = max(i for i, r in enumerate(recs) if r["type"] == "decision")
    write_records(cut, recs[: last_decision - 5])
    code, out = cli_run("replay", str(cut), "--verify")
    assert code == 1 and "the log is incomplete" in out


def test_a_closing_record_that_miscounts_is_refused(fp_log: Path, tmp_path: Path) -> None:
    cut = tmp_path / "cut.jsonl"
    recs = records(fp_log)
    write_records(cut, [*recs[:-6], recs[-1]])
    code, out = cli_run("replay", str(cut), "--verify")
    assert code == 2 and "the closing record counts" in out


@pytest.mark.parametrize("kind, field, forged", [
    ("result", "result", "forged"),
    ("roll", "value", 99),
])
def test_a_forged_result_or_die_roll_is_detected(fp_log: Path, tmp_path: Path, kind: str,
                                                 field: str, forged: object) -> None:
    bad = tmp_path / "forged.jsonl"
    recs = records(fp_log)
    index = next(i for i, r in enumerate(recs) if r["type"] == kind and field in r)
    recs[index] = {**recs[index], field: forged}
    write_records(bad, recs)
    code, out = cli_run("replay", str(bad), "--verify")
    assert code == 1, out
    assert f"forged.jsonl:{index + 1}: the recorded '{kind}' record differs" in out
    assert field in out


def test_a_log_without_its_hashes_fails_verification(fp_log: Path, tmp_path: Path) -> None:
    bad = tmp_path / "nohash.jsonl"
    recs = [{k: v for k, v in r.items() if k != "hash"} for r in records(fp_log)]
    write_records(bad, recs)
    code, out = cli_run("replay", str(bad), "--verify")
    assert code == 1 and "has no state hash" in out


def test_a_scenario_without_its_checksum_fails_verification(fp_log: Path, tmp_path: Path) -> None:
    bad = tmp_path / "nosha.jsonl"
    recs = records(fp_log)
    recs[0] = {k: v for k, v in recs[0].items() if k != "scenario_sha256"}
    write_records(bad, recs)
    code, out = cli_run("replay", str(bad), "--verify")
    assert code == 1 and "lacks the scenario's hash" in out


def test_a_save_cut_short_fails_verification(tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    code, out = cli_run("play", "firepower:basic", "--seed", "2", "--players", "random,random",
                        "--save", str(save))
    assert code == 0, out
    doc = json.loads(save.read_text())
    doc["decisions"] = doc["decisions"][: len(doc["decisions"]) // 3]
    save.write_text(json.dumps(doc, indent=1))
    code, out = cli_run("replay", str(save), "--verify")
    assert code == 1 and "decisions are missing or were changed" in out


def _signed_game(path: Path, key: bytes | None, players_seed: int) -> None:
    from hexwar.core.cli import _resolve_scenario_path
    from hexwar.core.scenario import load_and_validate

    sc = load_and_validate(_resolve_scenario_path("firepower:basic"))
    with path.open("w", encoding="utf-8") as stream:
        log = EventLog(stream, signing_key=key)
        game = Game(sc, seed=2, log=log)
        game.play({s: RandomController(s, players_seed) for s in game.state.sides})
        log.close()


def test_a_signed_log_verifies_with_its_key_and_a_forgery_does_not(tmp_path: Path) -> None:
    key = tmp_path / "key"
    key.write_text("s3cret\n")
    real, forged = tmp_path / "real.jsonl", tmp_path / "forged.jsonl"
    _signed_game(real, b"s3cret", players_seed=1)
    code, out = cli_run("replay", str(real), "--verify", "--sign-key-file", str(key), "--json")
    assert code == 0, out
    assert json.loads(out)["signed"]
    code, out = cli_run("replay", str(real), "--verify", "--json",
                        env={"HEXWAR_SIGNING_KEY": "s3cret"})
    assert code == 0 and json.loads(out)["signed"]
    code, out = cli_run("replay", str(real), "--verify", env={"HEXWAR_SIGNING_KEY": "wrong"})
    assert code == 1 and "signature does not match" in out
    # another game of the same scenario and seed, its hashes and events all re-derived by the
    # engine, wearing the real game's signature: consistent, so only the key can tell
    _signed_game(forged, None, players_seed=5)
    recs = records(forged)
    assert [r.get("choice") for r in recs] != [r.get("choice") for r in records(real)]
    recs[-1] = {**recs[-1], "signature": records(real)[-1]["signature"]}
    write_records(forged, recs)
    assert cli_run("replay", str(forged), "--verify")[0] == 0
    code, out = cli_run("replay", str(forged), "--verify", "--sign-key-file", str(key))
    assert code == 1 and "signature does not match" in out
    # an unsigned log checked with a key is refused
    unsigned = tmp_path / "unsigned.jsonl"
    _signed_game(unsigned, None, players_seed=1)
    code, out = cli_run("replay", str(unsigned), "--verify", "--sign-key-file", str(key))
    assert code == 1 and "not signed" in out


def test_a_signed_save_detects_a_forged_decision(tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    env = {"HEXWAR_SIGNING_KEY": "k"}
    code, out = cli_run("play", "firepower:basic", "--seed", "2", "--players", "random,random",
                        "--save", str(save), env=env)
    assert code == 0, out
    assert cli_run("replay", str(save), "--verify", env=env)[0] == 0
    doc = json.loads(save.read_text())
    doc["players"] = {"A": "human"}
    save.write_text(json.dumps(doc, indent=1))
    code, out = cli_run("replay", str(save), "--verify", env=env)
    assert code == 1 and "signature does not match" in out


def test_replay_of_a_torn_log_says_where_it_stopped(fp_log: Path, tmp_path: Path) -> None:
    torn = tmp_path / "torn.jsonl"
    text = fp_log.read_text(encoding="utf-8")
    torn.write_text(text[: len(text) // 2], encoding="utf-8")
    code, out = cli_run("replay", str(torn), "--json")
    assert code == 0, out
    assert "is incomplete (the game was cut short while writing it)" in out
    code, out = cli_run("replay", str(torn), "--verify")
    assert code == 1 and "its last line is torn" in out
