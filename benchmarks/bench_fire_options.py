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
from typing import Any

from firepower_ab import compare

from hexwar.plugins.firepower import actions

SCENARIOS = ("street-fight", "hill-assault", "basic")
SCREENED = actions._fire_options


def _unscreened(*args: Any, **kwargs: Any) -> list[Any]:
    return SCREENED(*args, **{**kwargs, "screen": False})


def _use(label: str) -> None:
    actions._fire_options = _unscreened if label == "unscreened" else SCREENED  # type: ignore[assignment]


def main(argv: list[str]) -> None:
    seeds = [int(s) for s in argv] or [1, 2, 3]
    compare(SCENARIOS, seeds, ("unscreened", "screened"), _use, "the screen")


if __name__ == "__main__":
    main(sys.argv[1:])
