"""The Firepower Advanced AI's line of sight in batch (kept line profiles, docs/decisions.md
FPD-99) against the same AI tracing every line whole.

The reference is hexwar itself with ``FirepowerRules.sight_blocks`` replaced by
``sight_blocks_traced`` (each line by ``advanced_los.line_of_sight``, one world per decision: the
AI's line of sight before FPD-99). Both play the same fixed seeds AI against AI, one after the
other in one run, after an untimed warm-up game per scenario; each pair of games must end in the
same state hash (the answers are the same). CPU time; prints decisions a second and the ratio.

Run: ``python benchmarks/bench_firepower_sight.py [seed ...]`` (default seeds 1, 2). README.md
records the figures.
"""

from __future__ import annotations

import sys
import time
from typing import Any

from hexwar.core.engine.game import Game
from hexwar.core.scenario import Scenario
from hexwar.plugins.firepower.ai import make_ai
from hexwar.plugins.firepower.knowledge import FirepowerRules
from hexwar.plugins.firepower.plugin import HERE

SCENARIOS = ("street-fight", "hill-assault")
BATCH = FirepowerRules.sight_blocks


def play(scenario: Scenario, seed: int) -> tuple[int, float, str]:
    """One AI-vs-AI game: its decisions, CPU seconds and final state hash."""
    game = Game(scenario, seed=seed)
    ctl: dict[str, Any] = {side: make_ai(side, seed) for side in game.state.sides}
    start = time.process_time()
    game.play(ctl)
    return len(game.decisions), time.process_time() - start, game.state.digest()


def main(argv: list[str]) -> None:
    seeds = [int(s) for s in argv] or [1, 2]
    for name in SCENARIOS:
        scenario = Scenario.load(HERE / "scenarios" / f"{name}.toml")
        play(scenario, 99)  # warm-up
        totals = {"traced": [0, 0.0], "batch": [0, 0.0]}
        for seed in seeds:
            hashes = {}
            for label in totals:
                FirepowerRules.sight_blocks = (  # type: ignore[method-assign]
                    FirepowerRules.sight_blocks_traced if label == "traced" else BATCH)
                try:
                    n, dt, digest = play(scenario, seed)
                finally:
                    FirepowerRules.sight_blocks = BATCH  # type: ignore[method-assign]
                totals[label][0] += n
                totals[label][1] += dt
                hashes[label] = digest
            if hashes["traced"] != hashes["batch"]:
                raise SystemExit(f"firepower:{name} seed {seed}: the batch changed the game")
        before = totals["traced"][0] / totals["traced"][1]
        after = totals["batch"][0] / totals["batch"][1]
        print(f"firepower:{name}: {totals['batch'][0]} decisions; traced {before:.0f}/s, "
              f"batch {after:.0f}/s, ratio {after / before:.2f}x", flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
