"""Firepower's fire options screened before the full check, against the same code unscreened.

The reference is hexwar itself with the screen off (``actions._fire_options(..., screen=False)``:
every firer and target hex through the whole fire check, as before the screen). Both play the
same fixed seeds AI against AI, one after the other in one run, after an untimed warm-up game
per scenario (boards, tables and caches built once and charged to neither); each pair of games
must end in the same state hash. CPU time; prints decisions a second and the ratio.

Run: ``python benchmarks/bench_fire_options.py [seed ...]`` (default seeds 1, 2, 3). README.md
records the figures.
"""

from __future__ import annotations

import sys
import time
from typing import Any

from hexwar.core.engine.game import Game
from hexwar.core.scenario import Scenario
from hexwar.plugins.firepower import actions
from hexwar.plugins.firepower.ai import make_ai
from hexwar.plugins.firepower.plugin import HERE

SCENARIOS = ("street-fight", "hill-assault", "basic")
SCREENED = actions._fire_options


def _unscreened(*args: Any, **kwargs: Any) -> list[Any]:
    return SCREENED(*args, **{**kwargs, "screen": False})


def play(scenario: Scenario, seed: int) -> tuple[int, float, str]:
    """One AI-vs-AI game: its decisions, CPU seconds and final state hash."""
    game = Game(scenario, seed=seed)
    ctl: dict[str, Any] = {side: make_ai(side, seed) for side in game.state.sides}
    start = time.process_time()
    game.play(ctl)
    return len(game.decisions), time.process_time() - start, game.state.digest()


def main(argv: list[str]) -> None:
    seeds = [int(s) for s in argv] or [1, 2, 3]
    for name in SCENARIOS:
        scenario = Scenario.load(HERE / "scenarios" / f"{name}.toml")
        play(scenario, 99)  # warm-up
        totals = {"unscreened": [0, 0.0], "screened": [0, 0.0]}
        for seed in seeds:
            hashes = {}
            for label in totals:
                actions._fire_options = _unscreened if label == "unscreened" else SCREENED  # type: ignore[assignment]
                try:
                    n, dt, digest = play(scenario, seed)
                finally:
                    actions._fire_options = SCREENED  # type: ignore[assignment]
                totals[label][0] += n
                totals[label][1] += dt
                hashes[label] = digest
            if hashes["unscreened"] != hashes["screened"]:
                raise SystemExit(f"firepower:{name} seed {seed}: the screen changed the game")
        before = totals["unscreened"][0] / totals["unscreened"][1]
        after = totals["screened"][0] / totals["screened"][1]
        print(f"firepower:{name}: {totals['screened'][0]} decisions; unscreened {before:.0f}/s, "
              f"screened {after:.0f}/s, ratio {after / before:.2f}x", flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
