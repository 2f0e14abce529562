"""Two doubts of the audit (docs/decisions.md FPD-114): a missile unit in a cave hex (Firepower
12.4.6) and a melee against a bunker hex with defenders inside and outside it (Firepower 8.8.4,
13, 6.5.1)."""

from __future__ import annotations

from typing import Any

import pytest

from hexwar.core.errors import RulesError
from hexwar.plugins.firepower import advanced, defenses
from hexwar.plugins.firepower.advanced_impulses import check_advanced_action
from tests.plugins.firepower.test_defenses import GameFactory, _game, _impulse
from tests.plugins.firepower.test_defenses_more import _refused
from tests.plugins.firepower.test_terrain import _game as _panel_game

CAVE = "4Y13"  # a cave of stand-in panel 4 (tests/plugins/firepower/test_tunnels.py)


def _missile(hexlabel: str) -> list[dict[str, Any]]:
    return [{"id": "W5", "model": "MSL1", "side": "A", "hex": hexlabel, "facing": 1}]


def test_a_missile_unit_is_not_placed_in_a_cave_hex() -> None:
    game = _panel_game([("A1", "RFL", "A", "Z12", 5, {})])
    with pytest.raises(RulesError, match=r"weapon_units\[0\].*cave hex") as exc:
        defenses.check_missile_places(game, _missile(CAVE))
    assert exc.value.rule == "Firepower 12.4.6"


def test_the_set_up_refuses_the_cave_missile_before_placing_anything() -> None:
    game = _panel_game([("A1", "RFL", "A", "Z12", 5, {})])
    game.scenario.raw.setdefault("special", {})["weapon_units"] = _missile(CAVE)
    before = game.state.digest()
    with pytest.raises(RulesError, match="cave hex"):
        advanced.hexwar_setup_game(game)
    assert game.state.digest() == before


def test_beside_the_cave_the_missile_is_placed() -> None:
    game = _panel_game([("A1", "RFL", "A", "Z12", 5, {})])
    defenses.check_missile_places(game, _missile("4Z12"))  # no cave there
    # an LCW is no missile: the cave does not refuse it here
    defenses.check_missile_places(game, [{"id": "W6", "model": "LCW1", "side": "A",
                                          "hex": CAVE, "facing": 1}])


def test_a_melee_over_a_loophole_side_is_refused_with_defenders_inside_and_out(
        fp_game: GameFactory) -> None:
    # FPD-114: B1 is in the bunker, B2 in its hex outside it; A1 crosses hexside 1 (a loophole
    # side): the melee would reach B1 through the walls, so it is refused
    g = _game(fp_game, [("A1", "RFL", "A", "C4", 4, {"model": "RFL10"}),
                        ("A2", "RFL", "A", "C6", 1, {"model": "RFL10"}),
                        ("B1", "RFL", "B", "C5", 1, {"model": "RFL10", "in_defence": "BKR"}),
                        ("B2", "RFL", "B", "C5", 1, {"model": "RFL10"})],
              [{"type": "BKR", "hex": "1C5", "door": 4}])
    _impulse(g, "A", "A1", "A2")
    _refused(g, {"act": "melee", "units": ["A1"], "hex": "1C5"}, "Firepower 8.8.4",
             "meets those inside it too")
    # through the door (C6 -> C5 crosses hexside 4) the melee meets both
    info = check_advanced_action(g, {"act": "melee", "units": ["A2"], "hex": "1C5"})
    assert info["defenders"] == ["B1", "B2"]


def test_with_nobody_inside_the_bunker_any_hexside_will_do(fp_game: GameFactory) -> None:
    g = _game(fp_game, [("A1", "RFL", "A", "C4", 4, {"model": "RFL10"}),
                        ("B2", "RFL", "B", "C5", 1, {"model": "RFL10"})],
              [{"type": "BKR", "hex": "1C5", "door": 4}])
    _impulse(g, "A", "A1")
    check_advanced_action(g, {"act": "melee", "units": ["A1"], "hex": "1C5"})
