"""Firepower's caches against fresh answers (docs/decisions.md CORE-130): at every decision of
AI games each side's view (the engine's view cache, CORE-116, with Firepower's context) equals
the view built afresh, and the kept soldiers (``soldiers_of``) equal soldiers read anew."""

from __future__ import annotations

import pytest

from hexwar.core.cli import _controllers
from hexwar.core.engine.view import _VIEW_CACHE, VIEW_CONTEXT
from hexwar.core.testing import make_game
from hexwar.plugins.firepower import soldiers as S
from tests.core.test_view_cache import afresh, shown


def fresh_soldiers(units: dict[str, object], tunnels: bool) -> dict[str, S.Soldier]:
    kept = list(S._last)
    S._last.clear()
    try:
        return S.soldiers_of(units, tunnels=tunnels)  # type: ignore[arg-type]
    finally:
        S._last[:] = kept


@pytest.mark.parametrize("scenario", ["firepower:basic", "firepower:street-fight"])
def test_views_and_soldiers_in_play_equal_fresh_ones(scenario: str) -> None:
    game = make_game(scenario, seed=2)
    assert game.stash.get(VIEW_CONTEXT) is not None
    controllers, _ = _controllers(game, "ai,ai", 2)
    for _ in range(70):
        pending = game.pending
        if pending is None:
            break
        for side in game.state.sides:
            cached = game.view(side)
            assert shown(cached) == shown(afresh(game, side)), f"{side}'s view is stale"
            assert cached._cached
        for tunnels in (False, True):
            kept = S.soldiers_of(game.state.units, tunnels=tunnels)
            assert kept == fresh_soldiers(game.state.units, tunnels)
        game.answer(controllers[pending.side].choose(pending, game.view(pending.side)))
    assert game.stash.get(_VIEW_CACHE), "no view was cached"


def test_a_soldier_changed_in_place_is_read_anew() -> None:
    game = make_game("firepower:basic", seed=1)
    controllers, _ = _controllers(game, "ai,ai", 1)
    while not S.soldiers_of(game.state.units) and game.pending is not None:  # the set-up
        pending = game.pending
        game.answer(controllers[pending.side].choose(pending, game.view(pending.side)))
    units = game.state.units
    uid = next(k for k, u in units.items() if u.hex is not None)
    before = S.soldiers_of(units)[uid]
    units[uid].state["status"] = "stunned"
    assert S.soldiers_of(units)[uid].status == "stunned" != before.status
    units[uid].state["posture"] = "prone"
    assert S.soldiers_of(units)[uid].posture == "prone"
    units[uid].state["eliminated"] = True
    assert uid not in S.soldiers_of(units)
