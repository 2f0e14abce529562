"""No memory kept from game to game: a finished game is freed whole, and many games in a row do
not grow the process (issue 14: simulations play thousands of games in one process)."""

from __future__ import annotations

import gc
import tracemalloc
import weakref

import pytest

from hexwar.core.cli import _controllers
from hexwar.core.engine.controllers import RandomController
from hexwar.core.engine.game import Game
from hexwar.core.testing import make_game

from .test_engine import TOY
from .toy import toy_system


def _play(name: str, seed: int, decisions: int) -> weakref.ref[Game]:
    game = make_game(name, seed=seed)
    controllers, _ = _controllers(game, "ai,ai", seed)
    for _ in range(decisions):
        pending = game.pending
        if pending is None:
            break
        game.answer(controllers[pending.side].choose(pending, game.view(pending.side)))
    return weakref.ref(game)


@pytest.mark.parametrize("name", ["firefight:scenario-1", "mbt:basic-a", "firepower:basic"])
def test_a_game_is_freed_when_it_is_dropped(name: str) -> None:
    """Nothing global (a cache, a hook registry, a board's stash) keeps a game, its state or its
    controllers alive once the caller lets go of it."""
    refs = [_play(name, seed, 25) for seed in (1, 2)]
    gc.collect()
    assert [r() is None for r in refs] == [True, True]


def test_games_in_a_row_do_not_grow_the_process() -> None:
    """Twenty toy games after thirty to warm up (caches of bounded size fill in the first few
    dozen): the memory still allocated afterwards is the same within noise, not a little more
    for every game."""
    def games(n: int, first: int) -> None:
        for seed in range(first, first + n):
            game = make_game(TOY, seed=seed, local_plugins=[toy_system])
            game.play({s: RandomController(s, seed) for s in game.state.sides})

    # Not counted: pluggy builds each hook marker's attribute name afresh ("hexwar" + "_spec")
    # and CPython's method cache keeps the last few thousand such names: bounded, not a leak.
    ignore = [tracemalloc.Filter(False, "*/pluggy/_manager.py")]

    def kept() -> int:
        gc.collect()
        snapshot = tracemalloc.take_snapshot().filter_traces(ignore)
        return sum(stat.size for stat in snapshot.statistics("filename"))

    games(20, 0)
    tracemalloc.start()  # counts only what is allocated from here on: warm up under it too
    try:
        games(10, 20)
        before = kept()
        games(20, 30)
        after = kept()
    finally:
        tracemalloc.stop()
    assert after - before < 4 * 1024, f"{(after - before) / 20:.0f} bytes kept per game"
