"""CORE-107: the MBT line-of-sight caches stay bounded and forgetting changes no answer."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from hexwar.plugins.mbt import advanced_sighting as adv
from hexwar.plugins.mbt import terrain
from hexwar.plugins.mbt.tables import load_charts


def test_advanced_los_cache_is_bounded_and_answers_do_not_change(
        make_game: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """MBT 13.2.1 lines asked again after the cache was cleared give the same answers."""
    g = make_game([("N1", "M1", "NATO", "9J1", 4), ("S1", "T-80A", "Soviet", "9J5", 1)],
                  options=["mbt.advanced"], heights={"9J1": 2, "9J3": 3}, terrain={"9J2": "woods"})
    a = g.board.parse("9J1")
    targets = [g.board.parse(x) for x in ("9J2", "9J3", "9J4", "9J5")]
    first = [(adv.line_of_sight(g, a, 2, b, 0).clear, adv.line_of_sight(g, a, 2, b, 0).rule)
             for b in targets]
    monkeypatch.setattr(adv, "LOS_CACHE_LIMIT", 2)
    g.stash[adv.LOS_CACHE].clear()
    again = []
    for b in targets:
        s = adv.line_of_sight(g, a, 2, b, 0)
        again.append((s.clear, s.rule))
        assert len(g.stash[adv.LOS_CACHE]) <= 2
    assert again == first
    assert not first[1][0]  # the 9J3 hill above both ends blocks: the test sees a real answer


def test_map_info_keeps_at_most_the_limit_of_chart_sets(make_game: Any) -> None:
    g = make_game([("N1", "M1", "NATO", "9J1", 4), ("S1", "T-80A", "Soviet", "9J5", 1)])
    board = g.board
    base = load_charts()
    made = [copy.copy(base) for _ in range(terrain.MAP_INFO_LIMIT + 3)]
    infos = [terrain.map_info(board, ch) for ch in made]
    per = board.stash[terrain.MAP_INFO]
    assert len(per) <= terrain.MAP_INFO_LIMIT
    assert terrain.map_info(board, made[-1]) is infos[-1]  # the newest is kept
