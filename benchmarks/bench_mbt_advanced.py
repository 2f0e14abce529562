"""MBT Advanced Game benchmark: the AI against the random player from both sides on
``mbt:advanced-a``, and AI against AI (games and decisions per second).

Run: ``python benchmarks/bench_mbt_advanced.py [--games N]``. Not run by pytest.
"""

from __future__ import annotations

import argparse
import time
from typing import Any

from hexwar.core.engine.controllers import Controller, RandomController
from hexwar.core.testing import make_game
from hexwar.plugins.mbt.ai import MbtAI

SCENARIO = "mbt:advanced-a"


def play(seed: int, nato: str, soviet: str) -> tuple[Any, int]:
    game = make_game(SCENARIO, seed=seed)

    def make(kind: str, side: str) -> Controller:
        return MbtAI(side, seed) if kind == "ai" else RandomController(side, seed)

    result = game.play({"NATO": make(nato, "NATO"), "Soviet": make(soviet, "Soviet")})
    return result, len(game.decisions)


def versus(games: int, ai_side: str) -> None:
    wins = ties = decisions = 0
    t = time.perf_counter()
    for seed in range(games):
        nato, soviet = ("ai", "random") if ai_side == "NATO" else ("random", "ai")
        result, n = play(1000 + seed, nato, soviet)
        decisions += n
        wins += result.winner == ai_side
        ties += result.winner is None
    dt = time.perf_counter() - t
    print(f"{SCENARIO}: AI as {ai_side:<6} vs random: {wins}/{games} wins, {ties} ties, "
          f"{games - wins - ties} losses   [{games / dt:.2f} games/s, {decisions / dt:.0f} "
          "decisions/s]")


def ai_vs_ai(games: int) -> None:
    decisions = 0
    results: list[str] = []
    t = time.perf_counter()
    for seed in range(games):
        result, n = play(2000 + seed, "ai", "ai")
        decisions += n
        results.append(result.winner or "tie")
    dt = time.perf_counter() - t
    print(f"{SCENARIO}, AI vs AI: {games} games, {games / dt:.2f} games/s, "
          f"{decisions / dt:.0f} decisions/s; results "
          f"{dict((r, results.count(r)) for r in sorted(set(results)))}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--games", type=int, default=10)
    args = ap.parse_args()
    versus(args.games, "NATO")
    versus(args.games, "Soviet")
    ai_vs_ai(args.games)


if __name__ == "__main__":
    main()
