"""Memory from game to game: play many AI-vs-AI games of each system in one process and print how
much memory and how many objects stay allocated after each game (issue 14: none should).

    python benchmarks/bench_memory.py [--games 200] [--scenario NAME ...] [--trace]

After every game the garbage collector runs and the live Python objects (``gc.get_objects``) and
allocated memory blocks (``sys.getallocatedblocks``) are counted; the growth per game is the slope
of a least-squares line through the second half of the games (the first half fills caches of
bounded size: boards, tables, the interpreter's method cache). ``--trace`` also runs tracemalloc
and prints where the memory kept by the last half was allocated (much slower).
"""

from __future__ import annotations

import argparse
import gc
import sys
import time
import tracemalloc
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from hexwar.core.cli import _controllers, _resolve_scenario_path  # noqa: E402
from hexwar.core.engine.game import Game  # noqa: E402
from hexwar.core.scenario import load_and_validate  # noqa: E402

DEFAULT = ("firefight:scenario-1", "mbt:basic-a", "firepower:basic")


def slope(ys: list[int]) -> float:
    n = len(ys)
    if n < 2:
        return 0.0
    mx, my = (n - 1) / 2, sum(ys) / n
    return sum((x - mx) * (y - my) for x, y in enumerate(ys)) / sum((x - mx) ** 2 for x in range(n))


def measure(name: str, games: int, trace: bool) -> None:
    scenario = load_and_validate(_resolve_scenario_path(name))
    objects: list[int] = []
    blocks: list[int] = []
    snapshot = None
    start = time.process_time()
    for seed in range(1, games + 1):
        game = Game(scenario, seed=seed)
        controllers, _ = _controllers(game, "ai,ai", seed)
        game.play(controllers)
        del game, controllers
        gc.collect()
        objects.append(len(gc.get_objects()))
        blocks.append(sys.getallocatedblocks())
        if trace and seed == games // 2:
            tracemalloc.start(12)
            snapshot = tracemalloc.take_snapshot()
    elapsed = time.process_time() - start
    half = games // 2
    print(f"{name:<22} {games:4d} games in {elapsed:6.1f} s: after the first {half}, "
          f"{slope(objects[half:]):+8.2f} objects and {slope(blocks[half:]):+8.2f} blocks a game "
          f"(objects {objects[half]} -> {objects[-1]})")
    if snapshot is not None:
        gc.collect()
        for stat in tracemalloc.take_snapshot().compare_to(snapshot, "traceback")[:5]:
            print(f"    {stat.size_diff / 1024:+8.1f} KB {stat.count_diff:+6d} objects, allocated at")
            for line in stat.traceback.format()[-8:]:
                print("       ", line)
        tracemalloc.stop()


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--scenario", action="append")
    ap.add_argument("--trace", action="store_true")
    args = ap.parse_args(argv)
    for name in args.scenario or DEFAULT:
        measure(name, args.games, args.trace)


if __name__ == "__main__":
    main()
