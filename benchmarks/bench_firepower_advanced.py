"""Firepower Advanced Game benchmark: each Advanced scenario (``firepower:advanced-meeting``,
``firepower:street-fight``, ``firepower:hill-assault``) played by the AI against the random AI
from both sides, and AI vs AI speed (games and decisions per second), as ``bench_firepower.py``
does for the Basic Game.

Run: ``python benchmarks/bench_firepower_advanced.py [games_per_side] [ai_vs_ai_games]
[scenario ...]`` (defaults 10, 5, every Advanced scenario). README.md records the figures.
"""

from __future__ import annotations

import sys

import bench_firepower

from hexwar.core.scenario import Scenario
from hexwar.plugins.firepower.plugin import HERE

SCENARIOS = ("advanced-meeting", "street-fight", "hill-assault")


def main(argv: list[str]) -> None:
    n = int(argv[0]) if argv else 10
    m = int(argv[1]) if len(argv) > 1 else 5
    names = argv[2:] or list(SCENARIOS)
    for name in names:
        print(f"== firepower:{name}")
        bench_firepower.SCENARIO = Scenario.load(HERE / "scenarios" / f"{name}.toml")
        bench_firepower.versus_random(n)
        bench_firepower.ai_vs_ai(m)


if __name__ == "__main__":
    main(sys.argv[1:])
