"""The state-keyed view cache (docs/decisions.md CORE-129): a system that promises
``STATE_VIEWS`` (MBT) has a side's records reused while the game state's text is unchanged;
at every decision of whole AI games each side's view equals the one built afresh, and a change
made by hand to the state is shown at once."""

from __future__ import annotations

from typing import Any

import pytest

from hexwar.core.cli import _controllers
from hexwar.core.engine.game import Game
from hexwar.core.engine.view import _STATE_VIEW_CACHE, STATE_VIEWS, SideView
from hexwar.core.testing import make_game


def afresh(game: Game, side: str) -> SideView:
    """``side``'s view built without the promise (as every MBT view was before CORE-129)."""
    promise = game.stash.pop(STATE_VIEWS)
    try:
        view = SideView(game, side)
        _ = view.units, view.known_units()
    finally:
        game.stash[STATE_VIEWS] = promise
    return view


def shown(view: SideView) -> tuple[dict[str, Any], list[tuple[Any, ...]]]:
    """Everything a controller reads of a view's units, ``repr`` included (1 is not True)."""
    units = [(u.id, u.type, u.side, u.hex, u.facing, repr(u.state)) for u in view.known_units()]
    return {k: repr(v) for k, v in view.units.items()}, units


@pytest.mark.parametrize(("scenario", "decisions"), [("mbt:basic-d", 200),
                                                      ("mbt:advanced-a", 200)])
def test_views_in_play_equal_views_built_afresh(scenario: str, decisions: int) -> None:
    """AI against AI: each side's view (twice, the second from the cache) checked against one
    built afresh before every decision; the cache is used (hits) and one state a side is kept."""
    game = make_game(scenario, seed=3)
    assert game.stash.get(STATE_VIEWS)
    controllers, _ = _controllers(game, "ai,ai", 3)
    hits = 0
    for _ in range(decisions):
        pending = game.pending
        if pending is None:
            break
        for side in game.state.sides:
            first = game.view(side)
            assert shown(first) == shown(afresh(game, side)), f"{side}'s view is stale"
            again = game.view(side)
            assert shown(again) == shown(first)
            hits += again._records is first._records
        assert len(game.stash[_STATE_VIEW_CACHE]) <= len(game.state.sides)
        game.answer(controllers[pending.side].choose(pending, game.view(pending.side)))
    assert hits > 0, "the cache was never used"


def test_a_change_made_by_hand_is_shown_and_copies_are_private() -> None:
    game = make_game("mbt:basic-d", seed=1)
    side = game.state.sides[0]
    view = game.view(side)
    uid = next(k for k, u in view.units.items() if u["side"] == side)
    unit = game.state.units[uid]
    unit.state["mark"] = 1
    assert game.view(side).units[uid]["state"]["mark"] == 1
    unit.state["mark"] = True  # a change of type only: 1 and True are different states
    assert game.view(side).units[uid]["state"]["mark"] is True
    unit.facing = 1 + unit.facing % 6
    assert game.view(side).unit(uid).facing == unit.facing
    # a controller changing what it was shown changes neither the game nor the next view
    mine = game.view(side)
    mine.units[uid]["state"]["mark"] = "mine"
    mine.unit(uid).state["mark"] = "mine too"
    assert unit.state["mark"] is True
    assert game.view(side).units[uid]["state"]["mark"] is True
    assert game.view(side).unit(uid).state["mark"] is True
