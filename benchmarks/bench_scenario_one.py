"""MBT Scenario One ("Meeting Engagements", matchups 1-3) benchmark: matchup 3 AI against AI
(games and decisions per second, game length), and the MBT AI against the random player from
both sides in every matchup.

Run: ``python benchmarks/bench_scenario_one.py [--games N] [--matchups 1,1b,2,3]
[--sides NATO,Soviet] [--baseline REV]``. Not run by pytest. Each game is a whole game: 15 Turns
or an automatic victory. Each cell prints the AI's wins with their 95% Wilson interval
(``core/simulation``). ``--sides``: only those sides for the AI. ``--baseline REV``: every cell
is played twice on the same seeds, by the AI of git revision REV (``mbt_baseline.py``) and by
today's, one line each ("old", "new").
"""

from __future__ import annotations

import argparse
import time
from collections import Counter
from typing import Any

from hexwar.core.engine.controllers import Controller, RandomController
from hexwar.core.simulation.stats import wilson
from hexwar.core.testing import make_game
from hexwar.plugins.mbt.ai import MbtAI

AI: dict[str, Any] = {"new": MbtAI}


def play(scenario: str, seed: int, nato: str, soviet: str,
         ai: str = "new") -> tuple[Any, int, int, float]:
    """One game: its result, decisions, last Turn and CPU-clock seconds."""
    t = time.process_time()
    game = make_game(scenario, seed=seed)

    def make(kind: str, side: str) -> Controller:
        c: Controller = AI[ai](side, seed) if kind == "ai" else RandomController(side, seed)
        return c

    result = game.play({"NATO": make(nato, "NATO"), "Soviet": make(soviet, "Soviet")})
    return result, len(game.decisions), game.state.turn, time.process_time() - t


def ai_vs_ai(scenario: str, games: int, ai: str = "new") -> None:
    decisions = turns = 0
    seconds = 0.0
    results: Counter[str] = Counter()
    wall = time.perf_counter()
    for seed in range(games):
        result, n, turn, dt = play(scenario, 3000 + seed, "ai", "ai", ai)
        decisions += n
        turns += turn
        seconds += dt
        results[result.winner or "tie"] += 1
    wall = time.perf_counter() - wall
    print(f"[{ai}] {scenario}, AI vs AI: {games} games, {games / seconds:.2f} games/s, "
          f"{decisions / seconds:.0f} decisions/s (CPU time; wall {wall:.1f} s), "
          f"{decisions / games:.0f} decisions and {turns / games:.1f} Turns a game; "
          f"results {dict(sorted(results.items()))}")


def versus(scenario: str, games: int, ai_side: str, ai: str = "new") -> None:
    wins = ties = 0
    margins: list[float] = []
    for seed in range(games):
        nato, soviet = ("ai", "random") if ai_side == "NATO" else ("random", "ai")
        result, _n, _turn, _dt = play(scenario, 1000 + seed, nato, soviet, ai)
        wins += result.winner == ai_side
        ties += result.winner is None
        other = "Soviet" if ai_side == "NATO" else "NATO"
        margins.append(result.scores.get(ai_side, 0.0) - result.scores.get(other, 0.0))
    lo, hi = wilson(wins, games)  # the 95% Wilson interval of the AI's share of wins
    print(f"[{ai}] {scenario}: AI as {ai_side:<6} vs random: {wins}/{games} wins "
          f"(95% Wilson {lo:.2f}-{hi:.2f}), {ties} ties, "
          f"{games - wins - ties} losses, mean VP lead {sum(margins) / games:+.0f}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--games", type=int, default=12)
    ap.add_argument("--matchups", default="1,1b,2,3")
    ap.add_argument("--baseline", default=None, help="git revision of the AI to compare with")
    ap.add_argument("--no-ai-vs-ai", action="store_true", help="skip the AI-vs-AI speed line")
    ap.add_argument("--sides", default="NATO,Soviet", help="the sides the AI plays against random")
    args = ap.parse_args()
    kinds = ["new"]
    if args.baseline:
        from mbt_baseline import baseline_ai

        AI["old"] = baseline_ai(args.baseline)
        kinds = ["old", "new"]
    if not args.no_ai_vs_ai:
        for ai in kinds:
            ai_vs_ai("mbt:scenario-one-3", args.games, ai)
    for key in args.matchups.split(","):
        for side in args.sides.split(","):
            for ai in kinds:
                versus(f"mbt:scenario-one-{key}", args.games, side, ai)


if __name__ == "__main__":
    main()
