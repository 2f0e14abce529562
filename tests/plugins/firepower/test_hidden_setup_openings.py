"""Firepower 8.2.5: the defender's doors and windows at set-up (``hidden_setup.check_openings``)."""

from __future__ import annotations

import pytest

from hexwar.core.errors import RulesError
from hexwar.plugins.firepower.advanced_terrain import adv_map
from hexwar.plugins.firepower.hidden_setup import attacker_buildings, check_openings, opening_name
from tests.plugins.firepower.test_terrain import _game


def test_the_attackers_buildings_start_with_every_door_and_window_open() -> None:
    """Firepower 8.2.5: the defender may close any door or window, but not one of a building the
    attacker holds (A1, side A the attacker, stands in 4AA5 of building A): refused naming the
    rule, while one of another building is accepted."""
    game = _game([("A1", "RFL", "A", "AA5", 2, {}), ("B1", "RFL", "B", "C5", 2, {})])
    m = adv_map(game)
    held = attacker_buildings(game)
    assert held == {m.building_of[game.board.parse("4AA5")]}
    ours = next(o for o in m.openings.values() if m.building_of[o.inside] in held)
    other = next(o for o in m.openings.values() if m.building_of[o.inside] not in held)
    assert check_openings(game, {"closed": [opening_name(game, other)]}) == [other]
    with pytest.raises(RulesError) as exc:
        check_openings(game, {"closed": [opening_name(game, ours)]})
    assert exc.value.rule == "Firepower 8.2.5" and "attacker holds" in str(exc.value)
