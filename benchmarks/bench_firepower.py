"""Firepower Basic Game benchmark: the AI against the random AI from both sides, and AI vs AI speed.

Run: ``python benchmarks/bench_firepower.py [games_per_side] [ai_vs_ai_games]`` (defaults 20, 10).
Prints win rates (the AI must beat the random AI clearly from either side) and games/s and
decisions/s of the Basic Game Scenario played AI vs AI.
"""

from __future__ import annotations

import sys
import time
from typing import Any

from hexwar.core.engine.controllers import RandomController
from hexwar.core.engine.game import Game
from hexwar.core.scenario import Scenario
from hexwar.core.simulation.stats import wilson
from hexwar.plugins.firepower.ai import make_ai
from hexwar.plugins.firepower.plugin import HERE

SCENARIO = Scenario.load(HERE / "scenarios" / "basic.toml")


def play(seed: int, players: dict[str, str]) -> tuple[Any, int]:
    game = Game(SCENARIO, seed=seed)
    ctl: dict[str, Any] = {
        side: make_ai(side, seed) if word == "ai" else RandomController(side, seed)
        for side, word in players.items()
    }
    result = game.play(ctl)
    return result, len(game.decisions)


def versus_random(n: int) -> None:
    for ai_side in ("A", "B"):
        other = "B" if ai_side == "A" else "A"
        wins = draws = losses = 0
        vp_ai = vp_other = 0.0
        not_won: list[str] = []
        for seed in range(n):
            result, _ = play(1000 + seed, {ai_side: "ai", other: "random"})
            if result.winner == ai_side:
                wins += 1
            elif result.winner is None:
                draws += 1
            else:
                losses += 1
            if result.winner != ai_side:
                scores = result.scores
                not_won.append(f"{1000 + seed} ({'drew' if result.winner is None else 'lost'} "
                               f"{scores.get(ai_side, 0.0):g}-{scores.get(other, 0.0):g})")
            vp_ai += result.scores.get(ai_side, 0.0)
            vp_other += result.scores.get(other, 0.0)
        print(f"AI as side {ai_side} vs random: {n} games, won {wins} ({100 * wins / n:.0f}%), "
              f"drew {draws}, lost {losses}; mean VP {vp_ai / n:.1f} to {vp_other / n:.1f}")
        lo, hi = wilson(wins, n)
        print(f"  win rate 95% Wilson interval {100 * lo:.0f}-{100 * hi:.0f}%; "
              f"seeds not won: {', '.join(not_won) or 'none'}", flush=True)


def ai_vs_ai(n: int) -> None:
    if n <= 0:
        return
    decisions = 0
    outcome = {"A": 0, "B": 0, None: 0}
    vp = 0.0
    start = time.perf_counter()
    for seed in range(n):
        result, d = play(2000 + seed, {"A": "ai", "B": "ai"})
        decisions += d
        outcome[result.winner] += 1
        vp += sum(result.scores.values())
    elapsed = time.perf_counter() - start
    print(f"AI vs AI: {n} games in {elapsed:.1f} s: {n / elapsed:.2f} games/s, "
          f"{decisions / elapsed:.0f} decisions/s ({decisions / n:.0f} decisions a game); "
          f"A won {outcome['A']}, B won {outcome['B']}, draws {outcome[None]}; "
          f"mean VP of both sides together {vp / n:.1f}")


def main(argv: list[str]) -> None:
    n = int(argv[0]) if argv else 20
    m = int(argv[1]) if len(argv) > 1 else 10
    versus_random(n)
    ai_vs_ai(m)


if __name__ == "__main__":
    main(sys.argv[1:])
