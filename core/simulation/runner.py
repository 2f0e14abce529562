"""Playing the games of a simulation: one game from a task (on whatever process or machine runs
it), and a run that feeds tasks to a backend and keeps each record as it arrives.

A game depends only on its task: the scenario's text, the options, the players and the seed.
Game ``i`` of a run has seed ``first_seed + i`` for its dice and its players, so a run gives the
same records however many processes or machines play it, and in whatever order they finish.
"""

from __future__ import annotations

import gc
import hashlib
import os
import socket
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from hexwar.core.errors import HexwarError
from hexwar.core.simulation import facts
from hexwar.core.simulation.records import GameRecord

if TYPE_CHECKING:
    from hexwar.core.scenario import Scenario
    from hexwar.core.simulation.records import RecordsFile

#: players a simulation cannot have: nobody sits at a terminal for a thousand games
REFUSED_PLAYERS = ("human",)
#: the most decisions one game of a simulation may take before it is called stuck
MAX_DECISIONS = 1_000_000


class SimulationError(HexwarError):
    """A simulation cannot start or go on (bad input, a game that failed, a lost cluster)."""


@dataclass(frozen=True)
class GameTask:
    """Everything a process needs to play one game, in plain values (it may travel to another
    machine). ``scenario_path`` is where the text came from, so that files it names resolve."""

    variant: str
    index: int
    seed: int
    scenario_text: str
    scenario_path: str
    options: tuple[str, ...]
    players: str

    @property
    def key(self) -> tuple[str, int]:
        return (self.variant, self.index)

    def describe(self) -> str:
        v = f" of {self.variant}" if self.variant else ""
        return f"game {self.index + 1}{v} (seed {self.seed})"


@dataclass(frozen=True)
class Variant:
    """One version of the scenario to play: the scenario as written (``label`` ``""``), or with
    one parameter set (``label`` ``"victory.margin=20"``)."""

    label: str
    scenario: Scenario


@dataclass
class RunPlan:
    """The games of a run: each variant's games ``0 .. games-1`` with seeds ``seed + index``."""

    variants: Sequence[Variant]
    games: int
    seed: int
    options: tuple[str, ...]
    players: str
    base: Scenario
    parameter: str = ""

    def tasks(self, skip: Iterable[tuple[str, int]] = ()) -> list[GameTask]:
        done = set(skip)
        # interleaved by game, so a balance run that stops early has played every value alike
        return [GameTask(v.label, i, self.seed + i, v.scenario.text, v.scenario.path,
                         self.options, self.players)
                for i in range(self.games) for v in self.variants if (v.label, i) not in done]

    def identity(self) -> dict[str, Any]:
        """What a records file must match to be continued by this run (``games`` may grow)."""
        return {
            "scenario": self.base.id, "scenario_sha256": self.base.sha256,
            "options": sorted(self.options), "players": self.players, "seed": self.seed,
            "parameter": self.parameter,
            "variants": {v.label: v.scenario.sha256 for v in self.variants},
            "games": self.games,
        }


def check_players(players: str, sides: Sequence[str]) -> None:
    words = [w.strip() for w in players.split(",") if w.strip()]
    if not words:
        raise SimulationError("--players names no player")
    for w in words:
        if w in REFUSED_PLAYERS:
            raise SimulationError(f"--players: a simulation cannot have a {w!r} player; use ai, "
                                  f"random, script:FILE or a system's own player")
        if w.startswith("script:") and not os.path.isfile(w.removeprefix("script:")):
            raise SimulationError(f"--players: the script {w.removeprefix('script:')!r} is not a "
                                  f"file")
    if len(words) not in (1, len(sides)):
        raise SimulationError(f"--players names {len(words)} player(s) but the scenario has "
                              f"{len(sides)} sides ({', '.join(sides)})")


# -- one game, in whichever process plays it ---------------------------------------------------

_SCENARIOS: dict[tuple[str, str, tuple[str, ...]], Scenario] = {}
# A Dask worker may run several tasks at once in threads; the engine's shared caches (boards,
# lines of sight) are not claimed to be thread-safe, and threads gain nothing for pure-Python
# games under the GIL, so one process plays one game at a time.
_ONE_GAME_AT_A_TIME = threading.Lock()


def _scenario_of(task: GameTask) -> Scenario:
    from hexwar.core.scenario import Scenario, ScenarioError, validate_scenario

    digest = hashlib.sha256(task.scenario_text.encode()).hexdigest()
    key = (digest, task.scenario_path, task.options)
    found = _SCENARIOS.get(key)
    if found is None:
        found = Scenario.from_text(task.scenario_text, path=task.scenario_path)
        problems = validate_scenario(found, options=task.options)
        if problems:
            raise ScenarioError(problems, task.scenario_path)
        if len(_SCENARIOS) > 32:
            _SCENARIOS.clear()
        _SCENARIOS[key] = found
    return found


#: whether this process has left its long-lived objects out of the collector's scans (CORE-137)
_SETTLED = [False]


def freeze_long_lived() -> None:
    """Once a process, before its first game: collect, then move every object alive (modules,
    plugins, the unit registry, the loaded scenario and its board) to the collector's permanent
    generation, so that the full collections a long run of games sets off no longer walk them
    (docs/decisions.md CORE-137). Objects made later, the games' among them, are collected as
    before."""
    if not _SETTLED[0]:
        _SETTLED[0] = True
        gc.collect()
        gc.freeze()


def play_one(task: GameTask) -> GameRecord:
    """Play the game of ``task`` to its end and describe it."""
    from hexwar.core.engine.controllers import make_controller
    from hexwar.core.engine.game import Game

    with _ONE_GAME_AT_A_TIME:
        start = time.perf_counter()
        scenario = _scenario_of(task)
        freeze_long_lived()
        game = Game(scenario, seed=task.seed, options=task.options)
        sides = tuple(game.state.sides)
        words = [w.strip() for w in task.players.split(",") if w.strip()]
        if len(words) == 1:
            words = words * len(sides)
        offered = game.hooks.controllers(game.scenario.system)
        controllers = {side: make_controller(w, side, task.seed, offered)
                       for side, w in zip(sides, words, strict=True)}
        result = game.play(controllers, max_decisions=MAX_DECISIONS)
        scores = {str(k): float(v) for k, v in result.scores.items()}
        return GameRecord(
            variant=task.variant, index=task.index, seed=task.seed, winner=result.winner,
            level=result.level, scores=scores, margin=facts.margin(sides, scores),
            reasons=tuple(result.reasons), decisions=len(game.decisions), turns=game.state.turn,
            casualties=facts.casualties(game), objectives=facts.objectives(game),
            seconds=round(time.perf_counter() - start, 4),
            worker=f"{socket.gethostname()}:{os.getpid()}",
        )


def play_task(task: GameTask) -> dict[str, Any]:
    """The function a worker process runs: the record as plain values. A game that fails is
    reported with its seed, so that it can be played again alone (``hexwar play --seed``)."""
    try:
        return play_one(task).to_dict()
    except HexwarError as exc:
        raise SimulationError(f"{task.describe()} failed: {exc}") from None
    except Exception as exc:  # a bug: named with its seed, and it travels back as plain text
        raise SimulationError(f"{task.describe()} failed: {type(exc).__name__}: {exc} (play it "
                              f"alone with `hexwar play SCENARIO --seed {task.seed}` to see where)"
                              ) from None


# -- a run -------------------------------------------------------------------------------------


class Backend(Protocol):
    """Where games are played. ``run`` yields each task's record (as plain values) as it finishes,
    each exactly once, in any order; a backend that loses a worker plays its games again."""

    name: str
    workers: int

    def run(self, tasks: Sequence[GameTask]) -> Iterator[Mapping[str, Any]]: ...

    def close(self) -> None: ...


@dataclass
class RunOutcome:
    records: list[GameRecord]
    played: int
    seconds: float
    complete: bool
    restarts: int = 0


def run(plan: RunPlan, backend: Backend, records: RecordsFile | None = None, *,
        on_record: Callable[[GameRecord], None] | None = None) -> RunOutcome:
    """Play every game of ``plan`` that ``records`` does not already hold, keeping each as it
    finishes. An interruption (Ctrl-C) propagates after the backend is closed; every game that
    finished before it is in ``records``."""
    done: dict[tuple[str, int], GameRecord] = dict(records.done) if records is not None else {}
    tasks = plan.tasks(skip=done)
    wanted = {t.key for t in tasks}
    start = time.perf_counter()
    played = 0
    try:
        for raw in backend.run(tasks):
            record = GameRecord.from_dict(raw)
            if record.key not in wanted or record.key in done:
                continue  # a late duplicate from a re-run game: counted once
            done[record.key] = record
            played += 1
            if records is not None:
                records.add(record)
            if on_record is not None:
                on_record(record)
    finally:
        backend.close()
    keys = {(v.label, i) for v in plan.variants for i in range(plan.games)}
    kept = [r for k, r in sorted(done.items()) if k in keys]
    missing = keys - done.keys()
    if missing:
        first = min(missing, key=lambda k: (k[1], k[0]))
        raise SimulationError(f"the backend {backend.name} ended with {len(missing)} game(s) "
                              f"unplayed (first: game {first[1] + 1}); the finished games are "
                              f"kept")
    return RunOutcome(kept, played, time.perf_counter() - start, complete=True,
                      restarts=int(getattr(backend, "restarts", 0)))
