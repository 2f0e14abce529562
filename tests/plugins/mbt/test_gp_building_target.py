"""MBT 14.4.2.1.9: the GP modifier for firing at a building hex, by its buildings' height."""

from __future__ import annotations

from typing import Any

import pytest

from hexwar.plugins.mbt import gp_fire

ADV = ["mbt.advanced"]


def _game(make_game: Any, special: str = "") -> Any:
    return make_game([("N1", "M1", "NATO", "9J1", 4), ("S1", "T-80A", "Soviet", "9J6", 1)],
                     options=ADV, terrain={"9J6": "brick", "9J8": "stone", "9J9": "woods"},
                     special=special)


def _rules(mods: list[Any]) -> dict[str, int]:
    return {m.rule.split(" [")[0]: m.value for m in mods}


def test_mbt_71_building_two_heights_high_is_minus_20(make_game: Any) -> None:
    """MBT-71 (MBT 14.4.2.1.9): buildings 2 heights high give -20 (-10 a height); 3 give -30."""
    assert _rules(gp_fire.modifiers_of(gp_fire.GpSituation(
        range=5, target_vehicle=False, building_heights=2)))["MBT 14.4.2.1.9"] == -20
    g = _game(make_game, special="heights = { brick = 2, stone = 3 }")
    f = g.state.units["N1"]
    assert gp_fire.building_target_heights(g, g.board.parse("9J6")) == 2
    assert _rules(gp_fire.building_target_modifiers(g, f, g.board.parse("9J6"))) == {
        "MBT 14.4.2.1.9": -20}
    assert _rules(gp_fire.building_target_modifiers(g, f, g.board.parse("9J8"))) == {
        "MBT 14.4.2.1.9": -30}


def test_building_target_height_from_the_standard_chart_12_1_2(make_game: Any) -> None:
    """Without a scenario's heights, the STANDARD TERRAIN VALUES CHART (stand-in: brick 2)."""
    g = _game(make_game)
    assert gp_fire.building_target_heights(g, g.board.parse("9J6")) == 2
    assert gp_fire.building_target_heights(g, g.board.parse("9J9")) == 0  # trees are no buildings


def test_units_in_a_building_hex_are_not_a_building_target_14_4_2_1_9(make_game: Any) -> None:
    """MBT 14.4.2.1.9: not when firing at the units in the building hex (a vehicle there has the
    building-hex modifier of MBT 14.4.2.2.1 instead)."""
    g = _game(make_game)
    f, t = g.state.units["N1"], g.state.units["S1"]
    got = _rules(gp_fire.gp_modifiers(g, f, t, overwatch=False, target_moving=False))
    assert "MBT 14.4.2.1.9" not in got and got["MBT 14.4.2.2.1"] == -10


def test_a_hex_without_buildings_is_refused_14_4_2_1_9(make_game: Any) -> None:
    g = _game(make_game)
    with pytest.raises(ValueError, match=r"9J9 is not a building hex.*MBT 14\.4\.2\.1\.9"):
        gp_fire.building_target_modifiers(g, g.state.units["N1"], g.board.parse("9J9"))
