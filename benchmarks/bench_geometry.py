"""Benchmark: Dijkstra movement against naive reference code.

Run: ``python benchmarks/bench_geometry.py`` (about 10 s). Builds a 60 x 50 board (3,000 hexes)
with random terrain and heights (fixed seed), then times movement:
:func:`hexwar.core.movement.reachable_hexes` beside repeated relaxation (Bellman-Ford style) over
the networkx graph with per-call attribute lookups. The results must be identical.

Line of sight is measured by ``bench_los.py``, against a reference written for speed (the
reference this script used to time, with networkx look-ups and pint heights, was not one).
"""

from __future__ import annotations

import random
import sys
import time
from collections.abc import Callable
from typing import Any

from hexwar.core.board import Board, Panel
from hexwar.core.hexgrid import Hex
from hexwar.core.movement import reachable_hexes

SEED = 1976
COLS, ROWS = 60, 50
TERRAIN = ("clear", "clear", "clear", "clear", "woods", "town", "rough")
MOVE_COST = {"clear": 1.0, "rough": 2.0, "woods": 2.0, "town": 3.0}


def build_board() -> Board:
    rng = random.Random(SEED)
    hexes = []
    for c in range(COLS):
        for r in range(1, ROWS + 1):
            t = rng.choice(TERRAIN)
            h = rng.choice((440, 440, 460, 460, 480, 500))
            hexes.append({"at": f"{c:02d}{r:02d}", "terrain": t, "height": h})
    panel = Panel.from_dict(
        {"panel": {"id": "B", "map": "B", "labels": "column-row", "columns": [0, COLS - 1],
                   "rows": [1, ROWS], "hex_size_m": 50.0}, "hex": hexes},
        source="bench",
    )
    return Board.assemble([panel])


# -- naive reference code ------------------------------------------------------------------------


def naive_reachable(board: Board, start: Hex, budget: float) -> dict[Hex, float]:
    g = board.graph
    best = {start: 0.0}
    changed = True
    while changed:
        changed = False
        for h in list(best):
            for n in g.neighbors(h):
                c = best[h] + MOVE_COST[g.nodes[n]["terrain"]]
                if c <= budget and c < best.get(n, float("inf")):
                    best[n] = c
                    changed = True
    return best


def timed(fn: Callable[[], Any]) -> tuple[float, Any]:
    t0 = time.perf_counter()
    out = fn()
    return time.perf_counter() - t0, out


def main() -> int:
    t_build, board = timed(build_board)
    print(f"board: {len(board.hexes)} hexes, {board.graph.number_of_edges()} hexsides, "
          f"built in {t_build:.2f} s")
    rng = random.Random(SEED)
    cells = sorted(board.hexes)
    starts = [rng.choice(cells) for _ in range(150)]
    budget = 8.0

    def cost(b: Board, s: Hex, d: Hex) -> float:
        return MOVE_COST[b.terrain_of[d]]

    t_fast_m, fast_m = timed(lambda: [reachable_hexes(board, s, budget, cost) for s in starts])
    t_naive_m, naive_m = timed(lambda: [naive_reachable(board, s, budget) for s in starts])
    assert fast_m == naive_m, "movement results differ"
    mean_size = sum(len(x) for x in fast_m) / len(fast_m)
    print(f"\nmovement, {len(starts)} starts, budget {budget:g}, mean {mean_size:.0f} hexes "
          "reachable (identical results)")
    print(f"    hexwar Dijkstra (precomputed neighbours): {t_fast_m:.3f} s")
    print(f"    naive relaxation over networkx:           {t_naive_m:.3f} s")
    print(f"    speed-up x{t_naive_m / t_fast_m:.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
