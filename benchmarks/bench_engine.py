"""Engine overhead: decisions per second of the core loop on a trivial system, and the cost of one
hook call against a plain call.

    python benchmarks/bench_engine.py

The toy system (tests/core/toy) does almost nothing per decision, so the figure is the ceiling the
engine itself sets: recording, hashing the state, building views.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from hexwar.core.engine.controllers import RandomController  # noqa: E402
from hexwar.core.engine.game import Game  # noqa: E402
from hexwar.core.scenario import Scenario  # noqa: E402
from tests.core.toy import toy_system  # noqa: E402


def main() -> None:
    scenario = Scenario.load(ROOT / "tests" / "core" / "toy" / "scenario.toml")
    games = 200
    decisions = 0
    start = time.perf_counter()
    for seed in range(games):
        game = Game(scenario, seed=seed, local_plugins=[toy_system])
        game.play({s: RandomController(s, seed) for s in game.state.sides})
        decisions += len(game.decisions)
    elapsed = time.perf_counter() - start
    print(f"toy games: {games / elapsed:8.1f} games/s, {decisions / elapsed:9.0f} decisions/s "
          f"({decisions} decisions in {elapsed:.2f} s, game set-up included)")

    game = Game(scenario, seed=0, local_plugins=[toy_system])
    n = 20_000
    start = time.perf_counter()
    for _ in range(n):
        game.hooks.visible_units(game, "red")
    hook = (time.perf_counter() - start) / n
    start = time.perf_counter()
    for _ in range(n):
        sorted(game.state.units)
    plain = (time.perf_counter() - start) / n
    print(f"one firstresult hook call: {hook * 1e6:6.2f} µs; the same work as a plain call: "
          f"{plain * 1e6:6.2f} µs (ratio {hook / plain:.1f})")
    start = time.perf_counter()
    for _ in range(2000):
        game.state.digest()
    print(f"state hash: {(time.perf_counter() - start) / 2000 * 1e6:6.1f} µs")


if __name__ == "__main__":
    main()
