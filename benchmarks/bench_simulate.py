"""Simulation scaling: the same games of Firefight Scenario 1 (AI against AI) played with
``--jobs 1`` and ``--jobs 2``, wall time from the first game asked to the last record kept
(worker start-up included), and the ratio.

    python benchmarks/bench_simulate.py [--games 40] [--jobs 2] [--scenario firefight:scenario-1]

The records of the two runs are compared: the same seeds must give the same games. The machine's
cores and load average are printed beside the figures, and the CPU seconds each run used (this
process and its workers): CPU over wall time says how many cores a run really had, since other
work on the machine takes cores from the workers.
"""

from __future__ import annotations

import argparse
import os
import resource
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from hexwar.core.simulation.session import Outcome, Request, execute  # noqa: E402


def _scenario(name: str) -> Path:
    from hexwar.core.manager import Hooks, discovery_manager

    sources = {s.name: s for s in Hooks(discovery_manager()).data_sources("scenario")}
    return Path(sources[name].path) if name in sources else Path(name)


def _cpu() -> float:
    """CPU seconds used by this process and its finished children (the worker processes)."""
    me, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime


def _timed(path: Path, games: int, jobs: int) -> tuple[Outcome, float, float]:
    cpu, start = _cpu(), time.perf_counter()
    outcome = execute(Request(path, games, seed=1, jobs=jobs))
    return outcome, time.perf_counter() - start, _cpu() - cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--scenario", default="firefight:scenario-1")
    args = parser.parse_args()
    path = _scenario(args.scenario)
    load = os.getloadavg()
    print(f"{args.scenario}, {args.games} games AI vs AI; {os.cpu_count()} cores, load average "
          f"{load[0]:.2f} {load[1]:.2f} {load[2]:.2f} at the start")
    one, t1, c1 = _timed(path, args.games, 1)
    many, tn, cn = _timed(path, args.games, args.jobs)
    same = [r.outcome() for r in one.records] == [r.outcome() for r in many.records]
    # CPU seconds over wall seconds: how many cores the run had on average
    pad = " " * (len(str(args.jobs)) - 1)
    print(f"--jobs 1:{pad} {t1:7.2f} s  {args.games / t1:6.2f} games/s  {c1:7.2f} CPU s "
          f"({c1 / t1:.2f} cores busy)")
    print(f"--jobs {args.jobs}: {tn:7.2f} s  {args.games / tn:6.2f} games/s  {cn:7.2f} CPU s "
          f"({cn / tn:.2f} cores busy)")
    print(f"ratio (jobs 1 time / jobs {args.jobs} time): {t1 / tn:.2f}; the same games: {same}")
    load = os.getloadavg()
    print(f"load average at the end: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")
    if not same:
        sys.exit(1)


if __name__ == "__main__":
    main()
