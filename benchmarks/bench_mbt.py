"""MBT benchmark: the AI against the random player from both sides, and matchup D AI vs AI.

Run: ``/work/venv/bin/python benchmarks/bench_mbt.py [--games N] [--matchup a]``. Prints win rates
and games/s and decisions/s. Not run by pytest.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path
from typing import Any

import hexwar.plugins.mbt as mbt_pkg
from hexwar.core.engine.controllers import Controller, RandomController
from hexwar.core.engine.game import Game
from hexwar.core.scenario import Scenario
from hexwar.plugins.mbt.ai import MbtAI

SCENARIOS = Path(mbt_pkg.__file__).parent / "scenarios"


def play(key: str, seed: int, nato: str, soviet: str) -> tuple[Any, int]:
    game = Game(Scenario.load(SCENARIOS / f"basic-{key}.toml"), seed=seed)
    def make(kind: str, side: str) -> Controller:
        return MbtAI(side, seed) if kind == "ai" else RandomController(side, seed)

    result = game.play({"NATO": make(nato, "NATO"), "Soviet": make(soviet, "Soviet")})
    return result, len(game.decisions)


def versus(key: str, games: int, ai_side: str) -> None:
    wins = losses = ties = decisions = 0
    t = time.perf_counter()
    for seed in range(games):
        nato, soviet = ("ai", "random") if ai_side == "NATO" else ("random", "ai")
        result, n = play(key, 1000 + seed, nato, soviet)
        decisions += n
        if result.winner == ai_side:
            wins += 1
        elif result.winner is None:
            ties += 1
        else:
            losses += 1
    dt = time.perf_counter() - t
    print(f"matchup {key.upper()}: AI as {ai_side:<6} vs random: {wins}/{games} wins "
          f"({100 * wins / games:.0f}%), {ties} ties, {losses} losses   "
          f"[{games / dt:.2f} games/s, {decisions / dt:.0f} decisions/s]")


def matchup_d(games: int) -> None:
    decisions = 0
    results = []
    t = time.perf_counter()
    for seed in range(games):
        result, n = play("d", 2000 + seed, "ai", "ai")
        decisions += n
        results.append(result.winner or "tie")
    dt = time.perf_counter() - t
    print(f"matchup D (8 x M1A2 vs 11 x T-80A), AI vs AI: {games} games, "
          f"{games / dt:.2f} games/s, {decisions / dt:.0f} decisions/s; "
          f"results {dict((r, results.count(r)) for r in sorted(set(results)))}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--matchup", default="a", choices=list("abcd"))
    ap.add_argument("--d-games", type=int, default=5)
    args = ap.parse_args()
    versus(args.matchup, args.games, "NATO")
    versus(args.matchup, args.games, "Soviet")
    if args.d_games:
        matchup_d(args.d_games)


if __name__ == "__main__":
    main()
