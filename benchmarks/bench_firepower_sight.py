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

from firepower_ab import compare

from hexwar.plugins.firepower.knowledge import FirepowerRules

SCENARIOS = ("street-fight", "hill-assault")
BATCH = FirepowerRules.sight_blocks


def _use(label: str) -> None:
    FirepowerRules.sight_blocks = (  # type: ignore[method-assign]
        FirepowerRules.sight_blocks_traced if label == "traced" else BATCH)


def main(argv: list[str]) -> None:
    seeds = [int(s) for s in argv] or [1, 2]
    compare(SCENARIOS, seeds, ("traced", "batch"), _use, "the batch")


if __name__ == "__main__":
    main(sys.argv[1:])
