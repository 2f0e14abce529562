"""Firepower Advanced Game benchmark (``firepower:advanced-meeting``): the AI against the random AI
from both sides, and AI vs AI speed, as ``bench_firepower.py`` does for the Basic Game.

Run: ``python benchmarks/bench_firepower_advanced.py [games_per_side] [ai_vs_ai_games]``
(defaults 10, 5).
"""

from __future__ import annotations

import sys

import bench_firepower

from hexwar.core.scenario import Scenario
from hexwar.plugins.firepower.plugin import HERE


def main(argv: list[str]) -> None:
    bench_firepower.SCENARIO = Scenario.load(HERE / "scenarios" / "advanced-meeting.toml")
    n = int(argv[0]) if argv else 10
    m = int(argv[1]) if len(argv) > 1 else 5
    bench_firepower.versus_random(n)
    bench_firepower.ai_vs_ai(m)


if __name__ == "__main__":
    main(sys.argv[1:])
