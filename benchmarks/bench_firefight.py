"""Firefight benchmark: the AI against the random AI, and AI-vs-AI speed.

Run: python benchmarks/bench_firefight.py [--games N]
Prints the AI's win rate on Scenarios 1, 2 and 3 (``--scenarios``) playing each side against
the random controller, then games/s and decisions/s for full AI-vs-AI games of Scenarios 1 and 5.
``--rules firefight.mines,firefight.smoke,...`` plays every game with those optional rules
(``--rules all``: mines, dedicated battery, smoke, suppressive fire, overrun, mounted combat).
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from hexwar.core.engine.controllers import RandomController
from hexwar.core.engine.game import Game
from hexwar.core.scenario import Scenario
from hexwar.plugins.firefight.ai import FirefightAI

SCN = Path(__file__).resolve().parents[1] / "plugins" / "firefight" / "scenarios"
ALL = ["firefight.mines", "firefight.dedicated_battery", "firefight.smoke",
       "firefight.suppressive_fire", "firefight.overrun", "firefight.mounted_combat"]
RULES: list[str] = []


def play(n: int, seed: int, ai_side: str | None) -> tuple[str | None, int, float]:
    g = Game(Scenario.load(SCN / f"scenario{n}.toml"), seed=seed, options=RULES)
    ctl = {}
    for s in ("US", "SU"):
        if ai_side is None or s == ai_side:
            ctl[s] = FirefightAI(s, seed)
        else:
            ctl[s] = RandomController(s, seed)  # type: ignore[assignment]
    t = time.perf_counter()
    r = g.play(ctl)
    return r.winner, len(g.decisions), time.perf_counter() - t


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=4, help="games per scenario and side")
    ap.add_argument("--scenarios", default="1,2,3", help="scenarios for AI vs random")
    ap.add_argument("--rules", default="", help="optional rules (comma list, or 'all')")
    ap.add_argument("--vs-ai", default="1,5", help="scenarios for AI vs AI ('' for none)")
    args = ap.parse_args()
    RULES[:] = ALL if args.rules == "all" else [x for x in args.rules.split(",") if x]
    if RULES:
        print("optional rules:", ", ".join(RULES))
    print("AI vs random (win rate of the AI side)")
    for n in (int(x) for x in args.scenarios.split(",")):
        for side in ("US", "SU"):
            wins = 0
            for seed in range(args.games):
                w, _, _ = play(n, seed, side)
                wins += w == side
            print(f"  scenario {n}: AI as {side}: {wins}/{args.games} = {wins / args.games:.0%}")
    print("AI vs AI")
    for n in (int(x) for x in args.vs_ai.split(",") if x):
        games = decisions = 0
        secs = 0.0
        results: dict[str | None, int] = {}
        for seed in range(args.games):
            w, d, s = play(n, seed, None)
            games += 1
            decisions += d
            secs += s
            results[w] = results.get(w, 0) + 1
        print(f"  scenario {n}: {games} games in {secs:.1f} s: {games / secs:.2f} games/s, "
              f"{decisions / secs:.0f} decisions/s; winners {results}")


if __name__ == "__main__":
    main()
