"""The kept search of a move (docs/decisions.md CORE-131): the path read from the tree of
:func:`reachable_tree` is the very path :func:`least_cost_path` finds, ties and zero-cost steps
included, and MBT's plan of a listed destination equals the plan searched afresh."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

from hexwar.core.cli import _controllers
from hexwar.core.movement import least_cost_path, reachable, reachable_tree, tree_path
from hexwar.core.testing import make_game
from hexwar.plugins.mbt import movement_costs
from hexwar.plugins.mbt.movement import move_context
from hexwar.plugins.mbt.state import alive, card_of, ctx


@pytest.mark.parametrize("seed", range(30))
def test_tree_path_is_least_cost_path(seed: int) -> None:
    rng = random.Random(seed)
    n = 40
    # small integer costs with many ties and zero-cost steps: the tie-breaking must agree
    edges = {i: [(rng.randrange(n), rng.choice((0, 1, 1, 2, 3))) for _ in range(rng.randint(0, 4))]
             for i in range(n)}
    budget = rng.randint(2, 9)
    tree = reachable_tree(0, budget, edges.__getitem__)
    assert tree[0] == reachable(0, budget, edges.__getitem__)
    for a in range(n):
        for b in (a, (a + 7) % n):
            goals = {a, b}
            expected = least_cost_path(0, goals.__contains__, edges.__getitem__, budget=budget)
            assert tree_path(tree, goals) == expected


@pytest.mark.parametrize("scenario", ["mbt:basic-d", "mbt:advanced-a"])
def test_mbt_plan_of_a_listed_move_equals_a_fresh_search(scenario: str) -> None:
    game = make_game(scenario, seed=1)
    controllers, _ = _controllers(game, "ai,ai", 1)
    while game.pending is not None and game.pending.kind != "mbt.move_unit":  # to the moves
        pending = game.pending
        game.answer(controllers[pending.side].choose(pending, game.view(pending.side)))
    info = ctx(game).info
    units = [u for u in game.state.units.values() if alive(u) and u.hex is not None]
    checked = 0
    for u in units[:6]:
        card = card_of(game, u)
        assert u.hex is not None
        start = (u.hex, u.facing, False)
        mctx = move_context(game, u)
        budget = Fraction(card.mf)
        found = movement_costs.reach(card, info, start, budget, mctx, first_hex_rule=True)
        for goal in sorted(found, key=lambda k: (k[0].q, k[0].r, k[1]))[::3]:
            kept = movement_costs.plan(card, info, start, goal, budget, mctx, first_hex_rule=True)
            last = list(movement_costs._LAST_SEARCH)
            movement_costs._LAST_SEARCH.clear()
            fresh = movement_costs.plan(card, info, start, goal, budget, mctx, first_hex_rule=True)
            movement_costs._LAST_SEARCH[:] = last
            assert kept == fresh, (u.id, goal)
            checked += 1
    assert checked > 20
