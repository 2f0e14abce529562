"""Issue 14: listing the fire and grenade choices screens target hexes by cheap necessary
conditions of the full check (arc, own hex, range: Firepower 6.3.2, Firepower 6.3.3, Firepower
10.7) before running it. The screened list must be exactly the unscreened one: checked here on
every fire listing of the first part of fixed-seed AI-vs-AI games of the Basic Game and both
Advanced battle scenarios."""

from __future__ import annotations

from typing import Any

import pytest

from hexwar.core.cli import _controllers, _resolve_scenario_path
from hexwar.core.engine.game import Game
from hexwar.core.errors import PluginFailure
from hexwar.core.scenario import load_and_validate
from hexwar.plugins.firepower import actions

#: listings compared per game (a whole game would take too long for the suite)
LISTINGS = 30


#: listings where every hex near the firer tests the grenade range screen (enemy hexes and their
#: neighbours rarely lie at the edge of a grenade's reach)
REACH_LISTINGS = 10


def _check_grenade_reach(game: Game, u: Any, legal: Any) -> None:
    screens = actions._screens(game, u.id)
    assert screens is not None
    m = actions.fp_map(game)
    for t in m.hexes:
        rng = u.hex.distance(t)
        if 0 < rng <= 12 and not screens[1](rng):
            choice = {"unit": u.id, "act": "grenade", "hex": m.label(t)}
            assert not legal(game, choice), f"the range screen drops a legal {choice}"


class _Enough(Exception):
    pass


def _compare(monkeypatch: pytest.MonkeyPatch, name: str, seed: int) -> dict[str, int]:
    full = actions._fire_options
    legal = actions._legal
    seen = {"listings": 0, "options": 0, "checks_screened": 0, "checks_full": 0}
    counter = {"n": 0}

    def counted(game: Game, choice: Any) -> bool:
        counter["n"] += 1
        return legal(game, choice)

    def both(game: Game, ph: dict[str, Any], u: Any, enemies: list[Any], left: int,
             screen: bool = True) -> list[Any]:
        counter["n"] = 0
        fast = full(game, ph, u, enemies, left, screen=True)
        seen["checks_screened"] += counter["n"]
        counter["n"] = 0
        slow = full(game, ph, u, enemies, left, screen=False)
        seen["checks_full"] += counter["n"]
        assert fast == slow, f"{name} seed {seed}: screened listing of {u.id} differs"
        if seen["listings"] < REACH_LISTINGS:
            _check_grenade_reach(game, u, legal)
        seen["listings"] += 1
        seen["options"] += len(slow)
        if seen["listings"] >= LISTINGS:
            raise _Enough
        return fast

    monkeypatch.setattr(actions, "_fire_options", both)
    monkeypatch.setattr(actions, "_legal", counted)
    sc = load_and_validate(_resolve_scenario_path(name))
    game = Game(sc, seed=seed)
    controllers, _ = _controllers(game, "ai,ai", seed)
    try:
        game.play(controllers)
    except PluginFailure as exc:  # the engine reports the stop as the plugin's failure
        if "_Enough" not in str(exc):
            raise
    return seen


@pytest.mark.slow
@pytest.mark.parametrize(("name", "seed"), [
    ("firepower:street-fight", 3), ("firepower:hill-assault", 5), ("firepower:basic", 2),
])
def test_screened_fire_options_are_the_full_checks(monkeypatch: pytest.MonkeyPatch, name: str,
                                                  seed: int) -> None:
    seen = _compare(monkeypatch, name, seed)
    assert seen["listings"] > 10, seen
    assert seen["options"] > 0, seen  # some fire or grenade choice was legal
    # the screen did its work: fewer full checks than pairs
    assert seen["checks_screened"] < seen["checks_full"], seen


def test_no_screen_when_a_rule_replaces_the_check_step(monkeypatch: pytest.MonkeyPatch) -> None:
    """A check step the screen does not know gets no screen (its own step decides)."""
    from hexwar.core.kit import Edit, Pipeline
    from hexwar.core.testing import make_game
    from hexwar.plugins.firepower import combat

    game = make_game("firepower:basic", seed=1)
    uid = next(iter(game.state.units))
    assert actions._screens(game, uid) is not None

    def own_check(ctx: combat.FireContext) -> None:
        pass

    def procedure(game: Game, kind: str) -> Pipeline[combat.Step]:
        return combat.procedure(kind, [Edit("replace", "check", "check",
                                                combat.Step("check", own_check))])

    monkeypatch.setattr(actions, "fire_procedure", procedure)
    assert actions._screens(game, uid) is None


def test_advanced_grenade_reach_is_the_chart_row() -> None:
    """Firepower 10.7: the Advanced screen keeps exactly the ranges the thrown item's WEAPON
    CHART row has hit numbers for (the default item of a grenade Action, Firepower 8.5)."""
    from hexwar.core.testing import make_game
    from hexwar.plugins.firepower import advanced_fire
    from hexwar.plugins.firepower.advanced_card import advanced_card

    game = make_game("firepower:street-fight", seed=3)
    card = advanced_card()
    for uid, u in game.state.units.items():
        item = advanced_fire._default_item(advanced_fire.model_of(u.state),
                                           advanced_fire.equipment_of(u.state), None)
        if item[:3] != "HGN":
            continue
        top = card.max_range(item, "G", "throw")
        assert top > 0
        fire, grenade = advanced_fire.reach(game, uid)
        assert [r for r in range(top + 3) if grenade(r)] == list(range(1, top + 1)), uid
        assert not fire("semi", 10_000)
