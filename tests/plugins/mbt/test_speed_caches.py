"""The speed caches of the MBT movement search, sighting and AI give the answers of a fresh
computation, whatever was asked before (docs/decisions.md MBTD-186..)."""

from __future__ import annotations

import copy
from fractions import Fraction
from typing import Any

from hexwar.plugins.mbt import movement_costs
from hexwar.plugins.mbt.movement_costs import MoveContext
from hexwar.plugins.mbt.state import card_of, ctx
from hexwar.plugins.mbt.terrain import MapInfo


def _fresh(info: MapInfo) -> MapInfo:
    """The same board's facts with no search remembered."""
    own = copy.copy(info)
    own.move_succ, own.move_costs = {}, {}
    return own


def test_successor_lists_kept_between_searches_follow_each_context_8_4_8_5(make_game: Any) -> None:
    """MBT 8.4-8.5, Advanced MBT 15.6 (MBTD-186): the successor lists kept on the board's facts
    from one search do not leak into a search with an enemy, a wreck or a turret restriction, and
    those do not leak into a later search without them: each equals a search on fresh facts."""
    g = make_game([("N1", "Leopard 2", "NATO", "9J5", 1)], roads=[("9J5", "9J4"), ("9J4", "9J3")],
                  terrain={"9I5": "woods", "9K5": "woods"})
    u = g.state.units["N1"]
    card, info = card_of(g, u), ctx(g).info
    start, budget = (u.hex, u.facing, False), card.mf
    ahead, beyond = g.board.parse("9J4"), g.board.parse("9J3")
    contexts = [MoveContext(), MoveContext(enemies=frozenset({ahead})),
                MoveContext(wrecks=frozenset({beyond}), burning=frozenset({beyond})),
                MoveContext(extra={ahead: 3}), MoveContext(extra={ahead: None}),
                MoveContext(turret=2), MoveContext()]
    found = []
    for mctx in contexts:
        got = movement_costs.reach(card, info, start, budget, mctx)
        assert got == movement_costs.reach(card, _fresh(info), start, budget, mctx)
        found.append(got)
    # the contexts do change the answer, so the test would see an old one
    assert found[0] != found[1] and found[0] != found[2] and found[0] != found[3]
    assert (ahead, 1) not in found[4] and found[0] != found[5] and found[0] == found[6]
    # and in the other order: a search with an enemy first, then one without
    info2 = _fresh(info)
    movement_costs.reach(card, info2, start, budget, contexts[1])
    assert movement_costs.reach(card, info2, start, budget, MoveContext()) == found[0]


def test_fractions_of_a_search_are_exact_8_1() -> None:
    """MBT 8.1 (MBTD-187): the kept Fractions of search costs are the exact values."""
    for k in (6, 12):
        f = movement_costs._fractions(k)
        assert [f(c) for c in range(40)] == [Fraction(c, k) for c in range(40)]
