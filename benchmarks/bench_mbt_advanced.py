"""MBT Advanced Game benchmark: the AI against the random player from both sides on
``mbt:advanced-a``, and AI against AI (games and decisions per second).

Run: ``python benchmarks/bench_mbt_advanced.py [--games N] [--baseline REV]``. Not run by
pytest. ``--baseline REV``: each line is played twice on the same seeds, by the AI of git
revision REV (``mbt_baseline.py``) and by today's ("old", "new").
"""

from __future__ import annotations

import argparse
import time
from typing import Any

from hexwar.core.engine.controllers import Controller, RandomController
from hexwar.core.testing import make_game
from hexwar.plugins.mbt.ai import MbtAI

SCENARIO = "mbt:advanced-a"
AI: dict[str, Any] = {"new": MbtAI}


def play(seed: int, nato: str, soviet: str, ai: str = "new") -> tuple[Any, int]:
    game = make_game(SCENARIO, seed=seed)

    def make(kind: str, side: str) -> Controller:
        c: Controller = AI[ai](side, seed) if kind == "ai" else RandomController(side, seed)
        return c

    result = game.play({"NATO": make(nato, "NATO"), "Soviet": make(soviet, "Soviet")})
    return result, len(game.decisions)


def versus(games: int, ai_side: str, ai: str = "new") -> None:
    wins = ties = decisions = 0
    t = time.perf_counter()
    for seed in range(games):
        nato, soviet = ("ai", "random") if ai_side == "NATO" else ("random", "ai")
        result, n = play(1000 + seed, nato, soviet, ai)
        decisions += n
        wins += result.winner == ai_side
        ties += result.winner is None
    dt = time.perf_counter() - t
    print(f"[{ai}] {SCENARIO}: AI as {ai_side:<6} vs random: {wins}/{games} wins, {ties} ties, "
          f"{games - wins - ties} losses   [{games / dt:.2f} games/s, {decisions / dt:.0f} "
          "decisions/s]")


def ai_vs_ai(games: int, ai: str = "new") -> None:
    decisions = 0
    results: list[str] = []
    t = time.perf_counter()
    for seed in range(games):
        result, n = play(2000 + seed, "ai", "ai", ai)
        decisions += n
        results.append(result.winner or "tie")
    dt = time.perf_counter() - t
    print(f"[{ai}] {SCENARIO}, AI vs AI: {games} games, {games / dt:.2f} games/s, "
          f"{decisions / dt:.0f} decisions/s; results "
          f"{dict((r, results.count(r)) for r in sorted(set(results)))}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--games", type=int, default=10)
    ap.add_argument("--baseline", default=None, help="git revision of the AI to compare with")
    args = ap.parse_args()
    kinds = ["new"]
    if args.baseline:
        from mbt_baseline import baseline_ai

        AI["old"] = baseline_ai(args.baseline)
        kinds = ["old", "new"]
    for side in ("NATO", "Soviet"):
        for ai in kinds:
            versus(args.games, side, ai)
    for ai in kinds:
        ai_vs_ai(args.games, ai)


if __name__ == "__main__":
    main()
