"""Simulation on many processes and on a Dask cluster (issue 14): the same seeds give the same
games whatever the parallelism; a worker that dies loses no game and counts none twice; a run
killed from outside keeps its finished games and --resume goes on from them."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from hexwar.core.cli import cli
from hexwar.core.scenario import load_and_validate
from hexwar.core.simulation.backends import ProcessBackend, SerialBackend
from hexwar.core.simulation.overrides import with_parameter
from hexwar.core.simulation.records import GameRecord, read_jsonl
from hexwar.core.simulation.runner import RunPlan, Variant, run

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]
FF1 = ROOT / "plugins/firefight/scenarios/scenario1.toml"
#: enough for every claim here (two workers each play; a run killed after two games still has
#: games in flight, so 2 <= kept < GAMES), few enough that each run stays short
GAMES = 4
#: Scenario 1 cut to its first Game-Turns (docs/decisions.md CORE-113): what this module checks
#: (the same games whatever the parallelism, none lost, none twice) needs games, not long ones,
#: and it plays about thirty; a whole game of Scenario 1 is three times the CPU of a short one
TURNS = 2


@pytest.fixture(scope="module")
def short_scenario(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Scenario 1 with ``TURNS`` Game-Turns, as a file for the ``hexwar simulate`` runs."""
    sc = with_parameter(load_and_validate(FF1), "scenario.turns", str(TURNS))
    path = tmp_path_factory.mktemp("scenario") / "scenario1-short.toml"
    path.write_text(sc.text, encoding="utf-8")
    return path


def plan(path: Path, games: int = GAMES) -> RunPlan:
    sc = load_and_validate(path)
    assert sc.turns == TURNS
    return RunPlan([Variant("", sc)], games, 1, (), "ai,ai", sc)


def outcomes(records: list[GameRecord]) -> list[dict[str, Any]]:
    return [r.outcome() for r in sorted(records, key=lambda r: r.key)]


@pytest.fixture(scope="module")
def serial(short_scenario: Path) -> list[dict[str, Any]]:
    return outcomes(run(plan(short_scenario), SerialBackend()).records)


def test_two_processes_play_the_same_games_as_one(serial: list[dict[str, Any]],
                                                  short_scenario: Path) -> None:
    result = run(plan(short_scenario), ProcessBackend(2))
    assert outcomes(result.records) == serial
    assert len({r.worker for r in result.records}) == 2  # both workers played


def test_a_killed_worker_process_loses_no_game_and_counts_none_twice(
        serial: list[dict[str, Any]], short_scenario: Path) -> None:
    backend = ProcessBackend(2)
    seen: list[tuple[str, int]] = []
    killed: list[int] = []

    def kill_one(record: GameRecord) -> None:
        seen.append(record.key)
        if not killed:
            assert backend._pool is not None
            pid = next(iter(backend._pool._processes))
            os.kill(pid, signal.SIGKILL)
            killed.append(pid)

    result = run(plan(short_scenario), backend, on_record=kill_one)
    assert killed and backend.restarts >= 1
    assert sorted(seen) == [("", i) for i in range(GAMES)]  # each game once
    assert outcomes(result.records) == serial


def test_games_on_a_dask_local_cluster_are_the_same_games(serial: list[dict[str, Any]],
                                                          short_scenario: Path,
                                                          tmp_path: Path) -> None:
    distributed = pytest.importorskip("distributed")
    records = tmp_path / "games.jsonl"
    # dashboard_address ":0" (a free port; None means 8787): a second cluster on the machine, of
    # another test run, made the start-up warn "Port 8787 is already in use", an error here
    # in this process, one worker thread: quick to start, and the games are still played by
    # Dask's scheduler and worker, reached at the cluster's address as a user's would be
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=False,
                                  dashboard_address=":0",
                                  worker_dashboard_address=None) as cluster:
        result = CliRunner().invoke(cli, [
            "simulate", str(short_scenario), "--games", str(GAMES), "--scheduler",
            cluster.scheduler_address, "--records", str(records), "--json"],
            catch_exceptions=False)
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["backend"].startswith("the Dask scheduler at") and data["played"] == GAMES
    assert outcomes(read_jsonl(records)[1]) == serial


def test_a_scheduler_without_workers_is_a_clear_error() -> None:
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=0, processes=False, dashboard_address=":0",
                                  worker_dashboard_address=None) as cluster:
        result = CliRunner().invoke(cli, [
            "simulate", "firefight:scenario-1", "--games", "2", "--scheduler",
            cluster.scheduler_address, "--connect-timeout", "1"], catch_exceptions=False)
    assert result.exit_code == 2
    assert "has no worker after 1s; start one with `dask worker" in result.output


def test_a_dask_worker_that_dies_has_its_games_played_elsewhere(
        serial: list[dict[str, Any]], short_scenario: Path) -> None:
    distributed = pytest.importorskip("distributed")
    import psutil

    from hexwar.core.simulation.backends import DaskBackend

    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=":0", worker_dashboard_address=None,
                                  silence_logs=50) as cluster:
        backend = DaskBackend(cluster.scheduler_address, timeout=60)
        backend.client.wait_for_workers(2, timeout=120)
        killed: list[int] = []

        def kill_one(record: GameRecord) -> None:
            if killed:
                return
            others = [w for w in backend.client.scheduler_info()["workers"].values()
                      if w.get("pid") and w["pid"] != int(record.worker.rsplit(":", 1)[1])]
            pid = others[0]["pid"] if others else int(record.worker.rsplit(":", 1)[1])
            psutil.Process(pid).kill()  # its nanny starts another; its games go elsewhere
            killed.append(pid)

        result = run(plan(short_scenario), backend, on_record=kill_one)
    assert killed
    assert outcomes(result.records) == serial


def _hexwar(*args: str) -> subprocess.Popen[str]:
    return subprocess.Popen([sys.executable, "-m", "hexwar", *args], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)


def _wait_for_games(path: Path, n: int, proc: subprocess.Popen[str], limit: float = 120) -> None:
    end = time.monotonic() + limit
    while time.monotonic() < end:
        if path.exists() and path.read_text().count('"type": "game"') >= n:
            return
        if proc.poll() is not None:
            pytest.fail(f"the run ended early: {proc.communicate()}")
        time.sleep(0.02)  # a short game ends soon after the second: look often
    pytest.fail("no games were recorded in time")


@pytest.mark.parametrize("how", [signal.SIGKILL, signal.SIGTERM])
def test_a_run_killed_from_outside_resumes_without_replaying_a_game(
        how: signal.Signals, tmp_path: Path, serial: list[dict[str, Any]],
        short_scenario: Path) -> None:
    import psutil

    records = tmp_path / "games.jsonl"
    args = ("simulate", str(short_scenario), "--games", str(GAMES), "--records", str(records))
    proc = _hexwar(*args, "--jobs", "2")
    _wait_for_games(records, 2, proc)
    workers = psutil.Process(proc.pid).children(recursive=True)
    assert workers
    proc.send_signal(how)
    _, err = proc.communicate(timeout=60)
    if how == signal.SIGTERM:  # ended as by Ctrl-C: told how to go on
        assert proc.returncode == 130 and "add --resume to go on" in err
    # the worker processes end with the run, even one killed outright
    _, alive = psutil.wait_procs(workers, timeout=20)
    assert not alive
    kept = [r.index for r in read_jsonl(records)[1]]
    assert 2 <= len(kept) < GAMES and len(set(kept)) == len(kept)
    again = _hexwar(*args, "--resume", "--json")  # and on in one process
    out, err = again.communicate(timeout=300)
    assert again.returncode == 0, err
    data = json.loads(out)
    assert data["resumed"] == len(kept) and data["played"] == GAMES - len(kept)
    assert outcomes(read_jsonl(records)[1]) == serial
