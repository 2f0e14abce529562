"""Games of every system in a row keep no objects (issue 14: "no memory growth from game to game";
docs/decisions.md CORE-117): after a few games to warm up, a few more leave the live objects,
counted by type, as they were. Short games (one turn), so that the test stays cheap."""

from __future__ import annotations

import dataclasses
import functools
import gc
from collections import Counter

import pytest

from hexwar.core.cli import _controllers, _resolve_scenario_path
from hexwar.core.engine.game import Game
from hexwar.core.scenario import Scenario, load_and_validate

#: known to fill towards a bound and then stop, not to grow with games: line-of-sight ray
#: templates, one per offset between two hexes asked (core/losgrid.py, kept per board), and weak
#: references with a built-in callback each, which CPython's own caches make during the first
#: games (measured in Firefight: 46 over games 4 to 9, none over the next 18)
BOARD_BOUNDED = ("RayTemplate", "ReferenceType", "builtin_function_or_method")


@functools.cache
def _short(name: str) -> Scenario:
    return dataclasses.replace(load_and_validate(_resolve_scenario_path(name)), turns=1)


def _play(name: str, seed: int) -> None:
    game = Game(_short(name), seed=seed)
    controllers, _ = _controllers(game, "ai,ai", seed)
    game.play(controllers)


def _live() -> Counter[str]:
    gc.collect()
    return Counter(type(o).__name__ for o in gc.get_objects())


@pytest.mark.parametrize("name", ["firefight:scenario-1", "mbt:basic-a", "firepower:basic"])
def test_games_in_a_row_keep_no_objects(name: str) -> None:
    for seed in range(1, 3):
        _play(name, seed)
    before = _live()
    for seed in range(3, 6):
        _play(name, seed)
    grown = _live() - before
    for kind in BOARD_BOUNDED:
        del grown[kind]
    # a handful is noise; a game or a cache keeping what games made leaves hundreds
    assert sum(grown.values()) <= 24, grown.most_common(8)

