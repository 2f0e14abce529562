"""Suite-wide settings that make the run cheaper without changing what any test checks."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import settings

# Property tests check answers, not speed: on a loaded machine hypothesis's default 200 ms
# deadline per example fails tests that are right (a CI run shares its cores)
settings.register_profile("hexwar", deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "hexwar"))


def _bytecode_cache() -> None:
    # CORE-111: with PYTHONDONTWRITEBYTECODE set (as on the shared machine) every run, every
    # xdist worker and every `hexwar` subprocess a test starts recompiled the whole package and
    # re-ran pytest's assertion rewriting of each test module (about 11 s of CPU per process).
    # Byte code goes to a cache outside the source tree instead, so the tree stays clean and
    # the cache is only ever a speed-up (Python checks each entry against its source's mtime).
    if not sys.dont_write_bytecode and not os.environ.get("PYTHONDONTWRITEBYTECODE"):
        return
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    prefix = os.environ.get("PYTHONPYCACHEPREFIX") or str(Path(base) / "hexwar" / "pycache")
    try:
        Path(prefix).mkdir(parents=True, exist_ok=True)
    except OSError:
        return  # no writable cache: run as before, only slower
    sys.pycache_prefix = prefix
    sys.dont_write_bytecode = False
    os.environ["PYTHONPYCACHEPREFIX"] = prefix  # the subprocesses the tests start
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)


_bytecode_cache()


def _check_state_hashes() -> None:
    # CORE-133: every state hash in the suite (and in the `hexwar` subprocesses it starts) is
    # checked against one made from scratch, so a rule that changes a unit unseen fails its tests
    os.environ["HEXWAR_CHECK_STATE"] = "1"
    from hexwar.core.engine import state

    state.CHECK_STATE = True


_check_state_hashes()


# CORE-114: where each xdist worker starts. pytest-xdist's worksteal gives each of N workers one
# contiguous 1/N of the collection, and a worker that runs dry takes the second half of another
# one's queue (never its last two tests). In plain collection order the heavy modules sit
# wherever their names put them (the golden games and the browser tests near the end), so a
# worker could end on a long test while the other stood idle. The modules below go, whole (their
# module fixtures run once), to the front of the N slices, shared out heaviest first so each
# slice starts with about the same weight; every other test keeps its order. A module in one
# group shares what its neighbour played (played_game, the logs of test_logs): the group stays
# together. Seconds are CPU figures of one run on the idle machine; only their order matters,
# and a module missing from here is only scheduled as before.
HEAVY: tuple[tuple[float, tuple[str, ...]], ...] = (
    # CORE-126: the modules that read the golden games (played_game: Firefight Scenario 1 and MBT
    # Basic A with seed 1) or MBT Basic A with seed 3 (test_resume reads both)
    (56.0, ("tests/test_golden_games.py", "tests/plugins/test_words.py", "tests/core/test_words.py",
            "tests/core/test_resume.py", "tests/test_secrets_audit.py",
            "tests/plugins/mbt/test_play.py")),
    (30.0, ("tests/web/test_browser.py",)),
    (20.0, ("tests/test_secrets.py", "tests/core/test_replay_html.py")),
    (16.0, ("tests/core/test_simulation_parallel.py",)),
    (13.0, ("tests/plugins/mbt/test_advanced.py",)),
    (13.0, ("tests/plugins/firepower/test_terrain.py",)),
    (12.0, ("tests/web/test_leaks.py",)),
    (10.0, ("tests/web/test_players.py",)),
    (8.0, ("tests/web/test_present.py",)),
    (5.0, ("tests/web/test_umpired.py",)),
)


def spread_heavy_modules(items: list[pytest.Item], workers: int) -> list[pytest.Item]:
    """``items`` with the HEAVY modules at the front of each of ``workers`` equal slices."""
    group_of = {path: i for i, (_, paths) in enumerate(HEAVY) for path in paths}

    def group(item: pytest.Item) -> int | None:
        return group_of.get(item.nodeid.split("::", 1)[0])

    heavy: dict[int, list[pytest.Item]] = {}
    light: list[pytest.Item] = []
    for item in items:
        g = group(item)
        (light if g is None else heavy.setdefault(g, [])).append(item)
    bins: list[list[pytest.Item]] = [[] for _ in range(workers)]
    weight = [0.0] * workers
    for g in sorted(heavy, key=lambda g: -HEAVY[g][0]):
        lightest = weight.index(min(weight))
        bins[lightest].extend(heavy[g])
        weight[lightest] += HEAVY[g][0]
    # worksteal cuts the queue at len(pending) // remaining for each worker in turn
    out: list[pytest.Item] = []
    left = len(items)
    for i, chunk in enumerate(bins):
        size = left // (workers - i)
        fill = max(0, size - len(chunk))
        out += chunk + light[:fill]
        light = light[fill:]
        left -= max(size, len(chunk))
    return out + light


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    workerinput = getattr(config, "workerinput", None)
    if workerinput is None:  # one process: the usual order
        return
    # every worker computes the same order (xdist checks that the collections agree); made for
    # worksteal (the addopts), harmless under the other modes, which keep modules whole or not
    workers = int(workerinput.get("workercount", 1))
    if workers > 1:
        items[:] = spread_heavy_modules(items, workers)


#: the seed of the games :func:`side_logged` plays
LOG_SEED = 3


@pytest.fixture(scope="session")
def side_logged(tmp_path_factory: pytest.TempPathFactory
                ) -> Callable[[str, tuple[str, ...]], tuple[Path, dict[str, Path]]]:
    """``side_logged(scenario, extra)``: ``scenario`` played AI against AI through the CLI with
    seed ``LOG_SEED`` and the play arguments ``extra``, writing the full log and one log per side;
    returns their paths. Played once per process (CORE-115) for every test that only reads the
    logs (the side-log tests, the HTML replay): read them, never write to them."""
    from click.testing import CliRunner

    from hexwar.core.cli import _resolve_scenario_path, cli
    from hexwar.core.scenario import load_and_validate

    played: dict[tuple[str, tuple[str, ...]], tuple[Path, dict[str, Path]]] = {}

    def play(scenario: str, extra: tuple[str, ...] = ()) -> tuple[Path, dict[str, Path]]:
        key = (scenario, tuple(extra))
        if key not in played:
            sc = load_and_validate(_resolve_scenario_path(scenario))
            where = tmp_path_factory.mktemp(scenario.replace(":", "_"))
            full = where / "full.log"
            sides = {s: where / f"{s}.log" for s in sc.side_names()}
            args = ["play", scenario, "--seed", str(LOG_SEED), "--log", str(full), *extra]
            for side, path in sides.items():
                args += ["--log-side", f"{side}={path}"]
            result = CliRunner().invoke(cli, args)
            assert result.exit_code == 0, result.output
            played[key] = full, sides
        return played[key]

    return play
