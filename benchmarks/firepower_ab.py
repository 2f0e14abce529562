"""The shared loop of the Firepower A/B benchmarks (bench_fire_options.py,
bench_firepower_sight.py): the same fixed seeds played AI against AI with the old code and the
new, one after the other in one run, after an untimed warm-up game per scenario (boards, tables
and caches built once and charged to neither); each pair of games must end in the same state
hash. CPU time; prints decisions a second and the ratio."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import Any

from hexwar.core.engine.game import Game
from hexwar.core.scenario import Scenario
from hexwar.plugins.firepower.ai import make_ai
from hexwar.plugins.firepower.plugin import HERE


def play(scenario: Scenario, seed: int) -> tuple[int, float, str]:
    """One AI-vs-AI game: its decisions, CPU seconds and final state hash."""
    game = Game(scenario, seed=seed)
    ctl: dict[str, Any] = {side: make_ai(side, seed) for side in game.state.sides}
    start = time.process_time()
    game.play(ctl)
    return len(game.decisions), time.process_time() - start, game.state.digest()


def compare(scenarios: Sequence[str], seeds: Sequence[int], labels: tuple[str, str],
            use: Callable[[str], None], what: str) -> None:
    """Play every seed of every scenario with ``use(old)`` then ``use(new)`` in force (``labels``
    is (old, new); the new one stays in force afterwards) and print the ratio new : old.
    ``what`` names the change in the message when a pair of games ends apart."""
    old, new = labels
    for name in scenarios:
        scenario = Scenario.load(HERE / "scenarios" / f"{name}.toml")
        play(scenario, 99)  # warm-up
        totals = {old: [0, 0.0], new: [0, 0.0]}
        for seed in seeds:
            hashes = {}
            for label in labels:
                use(label)
                try:
                    n, dt, digest = play(scenario, seed)
                finally:
                    use(new)
                totals[label][0] += n
                totals[label][1] += dt
                hashes[label] = digest
            if hashes[old] != hashes[new]:
                raise SystemExit(f"firepower:{name} seed {seed}: {what} changed the game")
        before = totals[old][0] / totals[old][1]
        after = totals[new][0] / totals[new][1]
        print(f"firepower:{name}: {totals[new][0]} decisions; {old} {before:.0f}/s, "
              f"{new} {after:.0f}/s, ratio {after / before:.2f}x", flush=True)
