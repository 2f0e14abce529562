"""MBT 14.4.3.2.3: a leg unit in a ditch hex has two GP defense values, one for fire from a
greater height than its own, one for fire from an equal or lower height (stand-in values,
``data/advanced/leg_defense.csv`` rows ``ditch_above`` / ``ditch_level``, docs/decisions.md
MBTD-171)."""

from __future__ import annotations

from typing import Any

from hexwar.plugins.mbt.advanced_tables import load_advanced
from hexwar.plugins.mbt.gp_fire import ditch_row, gp_defense

ADV = ["mbt.advanced"]
DITCH = 'markers = [{ hex = "9J5", kind = "ditch" }]'


def _value(terrain: str, status: str = "NM") -> int:
    return load_advanced().leg_defense[("Motor Rifle Squad", terrain, status)].value


def _game(make_game: Any, **kw: Any) -> Any:
    g = make_game([("N1", "M1", "NATO", "9J1", 4), ("N2", "M1", "NATO", "9J9", 1),
                   ("S1", "Motor Rifle Squad", "Soviet", "9J5", 1)],
                  options=ADV, special=DITCH, **kw)
    g.state.units["S1"].state["order"] = "F"
    return g


def test_the_two_ditch_values_differ_and_are_estimated_14_4_3_2_3() -> None:
    """The stand-in keeps the order the rule implies: fire from above finds less cover."""
    table = load_advanced().leg_defense
    for status in ("FC", "NM", "MV"):
        above = table[("Motor Rifle Squad", "ditch_above", status)]
        level = table[("Motor Rifle Squad", "ditch_level", status)]
        assert above.value < level.value
        assert above.source == level.source == "estimated"


def test_ditch_defense_from_a_higher_firer_14_4_3_2_3(make_game: Any) -> None:
    """MBT 14.4.3.2.3, first value: the M1 on a hill (height 1) fires down at the squad in the
    ditch at height 0; the M1 at height 0 on the other side gets the second value."""
    g = _game(make_game, heights={"9J1": 1})
    up, level, t = g.state.units["N1"], g.state.units["N2"], g.state.units["S1"]
    assert ditch_row(g, up, t) == "ditch_above"
    assert gp_defense(g, up, t, False) == _value("ditch_above")
    assert gp_defense(g, level, t, False) == _value("ditch_level")


def test_ditch_defense_from_an_equal_or_lower_firer_14_4_3_2_3(make_game: Any) -> None:
    """MBT 14.4.3.2.3, second value: equal height, and a firer lower than the ditch (the ditch
    hex on a rise of 1, the M1 at 0), both get the second value; moving status still counts."""
    g = _game(make_game)
    f, t = g.state.units["N1"], g.state.units["S1"]
    assert ditch_row(g, f, t) == "ditch_level"
    assert gp_defense(g, f, t, False) == _value("ditch_level")
    assert gp_defense(g, f, t, True) == _value("ditch_level", "MV")
    g2 = _game(make_game, heights={"9J5": 1})
    assert gp_defense(g2, g2.state.units["N1"], g2.state.units["S1"], False) == \
        _value("ditch_level")


def test_no_ditch_marker_no_ditch_value(make_game: Any) -> None:
    """Without the marker the squad has its clear-terrain value (MBT 14.4.3.2.1)."""
    g = make_game([("N1", "M1", "NATO", "9J1", 4), ("S1", "Motor Rifle Squad", "Soviet", "9J5", 1)],
                  options=ADV, heights={"9J1": 1})
    g.state.units["S1"].state["order"] = "F"
    assert gp_defense(g, g.state.units["N1"], g.state.units["S1"], False) == _value("clear")


def test_a_ditch_in_woods_keeps_the_best_value_of_the_hex_mbtd_181(make_game: Any) -> None:
    """MBTD-171 with MBT 12.4.1.1, 14.4.3.2.4: the ditch adds to the woods of its hex; the squad
    defends with the better of the two."""
    g = _game(make_game, heights={"9J1": 1}, terrain={"9J5": "woods"})
    f, t = g.state.units["N1"], g.state.units["S1"]
    assert gp_defense(g, f, t, False) == max(_value("woods"), _value("ditch_above"))
    assert gp_defense(g, g.state.units["N2"], t, False) == max(_value("woods"),
                                                               _value("ditch_level"))
