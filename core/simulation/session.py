"""One simulation as the command line asks for it: check everything before the first game, play
the games on the chosen backend, keep the records, and summarise (``hexwar simulate``,
``hexwar balance``). The command line only reads options and prints."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from hexwar.core.simulation import stats
from hexwar.core.simulation.records import GameRecord, RecordsFile, journal_path
from hexwar.core.simulation.runner import (
    RunPlan,
    SimulationError,
    Variant,
    check_players,
    run,
)


@dataclass
class Request:
    scenario_path: Path
    games: int
    seed: int = 1
    options: tuple[str, ...] = ()
    players: str = "ai,ai"
    jobs: int = 1
    scheduler: str | None = None
    records: str | None = None
    resume: bool = False
    parameter: str | None = None  # KEY=V1,V2,... for a balance run
    connect_timeout: float = 10.0


@dataclass
class Outcome:
    plan: RunPlan
    values: list[str]
    summaries: dict[str, dict[str, Any]]
    records: list[GameRecord]
    resumed: int
    played: int
    seconds: float
    backend: str
    workers: int
    interrupted: bool
    records_path: str | None
    restarts: int = 0

    @property
    def games_per_second(self) -> float:
        return self.played / self.seconds if self.seconds > 0 else 0.0


def prepare(request: Request) -> tuple[RunPlan, list[str]]:
    """The run's plan, every input checked: the scenario (and each parameter value) playable,
    the players possible in a simulation. Nothing is played."""
    from hexwar.core.scenario import load_and_validate
    from hexwar.core.simulation.overrides import parse_parameter, with_parameter

    if request.games < 1:
        raise SimulationError(f"--games must be at least 1, not {request.games}")
    if request.jobs < 1:
        raise SimulationError(f"--jobs must be at least 1, not {request.jobs}")
    if request.resume and request.records is None:
        raise SimulationError("--resume continues a run's --records FILE: name the file")
    base = load_and_validate(request.scenario_path, options=request.options)
    check_players(request.players, base.side_names())
    key, values = "", [""]
    variants = [Variant("", base)]
    if request.parameter is not None:
        key, values = parse_parameter(request.parameter)
        variants = [Variant(f"{key}={v}", with_parameter(base, key, v, options=request.options))
                    for v in values]
    plan = RunPlan(variants, request.games, request.seed, tuple(request.options),
                   request.players, base, parameter=key)
    return plan, values


def execute(request: Request, *,
            on_start: Callable[[int, int], None] | None = None,
            on_record: Callable[[GameRecord], None] | None = None) -> Outcome:
    """Play the run. ``on_start(total, already)`` is told how many games the run has and how
    many a resumed records file already holds; ``on_record`` each game as it finishes. Ctrl-C
    (KeyboardInterrupt) ends the run early: the outcome then covers the finished games and
    says ``interrupted``."""
    from hexwar.core.simulation.backends import backend_for

    plan, values = prepare(request)
    if request.records is not None:
        target = Path(request.records)
        if target.resolve() == request.scenario_path.resolve() or \
                journal_path(target).resolve() == request.scenario_path.resolve():
            raise SimulationError(f"--records {target} is the scenario file; it would be "
                                  f"overwritten")
    backend = backend_for(request.jobs, request.scheduler, timeout=request.connect_timeout)
    try:
        records = (RecordsFile(request.records, plan.identity(), resume=request.resume)
                   if request.records is not None else None)
    except BaseException:
        backend.close()
        raise
    collected: dict[tuple[str, int], GameRecord] = dict(records.done) if records else {}
    total = plan.games * len(plan.variants)
    wanted = {(v.label, i) for v in plan.variants for i in range(plan.games)}
    already = sum(1 for k in collected if k in wanted)
    interrupted = False
    played = 0
    restarts = 0
    start = time.perf_counter()

    def keep(r: GameRecord) -> None:
        collected[r.key] = r
        if on_record is not None:
            on_record(r)

    try:
        if on_start is not None:
            on_start(total, already)
        try:
            outcome = run(plan, backend, records, on_record=keep)  # closes the backend
            played, restarts = outcome.played, outcome.restarts
        except KeyboardInterrupt:
            interrupted = True
            played = sum(1 for k in collected if k in wanted) - already
    finally:
        backend.close()
        if records is not None:
            records.close(complete=not interrupted and wanted <= collected.keys())
    kept = [r for k, r in sorted(collected.items(), key=lambda kv: (kv[0][1], kv[0][0]))
            if k in wanted]
    labels = [v.label for v in plan.variants]
    summaries = {k: dict(v) for k, v in
                 stats.summarise_run(kept, plan.base.side_names(), labels).items()}
    return Outcome(plan, values, summaries, kept, already, played, time.perf_counter() - start,
                   backend.name, backend.workers, interrupted, request.records, restarts)


def as_json(outcome: Outcome) -> dict[str, Any]:
    plan = outcome.plan
    head: dict[str, Any] = {
        "scenario": plan.base.id, "title": plan.base.title, "games": plan.games,
        "seed": plan.seed, "options": list(plan.options), "players": plan.players,
        "backend": outcome.backend, "workers": outcome.workers,
        "played": outcome.played, "resumed": outcome.resumed,
        "seconds": round(outcome.seconds, 3),
        "games_per_second": round(outcome.games_per_second, 3),
        "complete": not outcome.interrupted, "records": outcome.records_path,
        "worker_restarts": outcome.restarts,
    }
    if plan.parameter:
        head["parameter"] = plan.parameter
        head["values"] = [{"value": v, "summary": outcome.summaries[label.label]}
                          for v, label in zip(outcome.values, plan.variants, strict=True)]
    else:
        head["summary"] = outcome.summaries[""]
    return head


def variant_summaries(outcome: Outcome) -> Sequence[dict[str, Any]]:
    return [outcome.summaries[v.label] for v in outcome.plan.variants]
