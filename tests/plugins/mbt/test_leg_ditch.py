"""MBT 15.1.4: a leg unit may enter a ditch hex freely but stays there the Turn it enters and one
Turn more (docs/decisions.md MBTD-170)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from hexwar.plugins.mbt import advanced_movement, markers, movement
from hexwar.plugins.mbt.state import data

ADV = ["mbt.advanced"]


def _squad(make_game: Any) -> Any:
    g = make_game([("S1", "Motor Rifle Squad", "Soviet", "9J10", 1),
                   ("N1", "M1", "NATO", "9A1", 4)], options=ADV)
    s1 = g.state.units["S1"]
    s1.state["order"] = "M"
    return g, s1


def _reach(g: Any, u: Any) -> set[str]:
    budget = movement.movement_allowance(g, u)
    return {g.board.label(h) for h, _f in movement.destinations(g, u, budget, False, True)}


def test_a_ditch_ends_a_leg_units_move_15_1_4(make_game: Any) -> None:
    """MBT 15.1.4 (MBT 12.4.4: leg units enter ditches without penalty): the squad may walk into
    the ditch at 9J9, but not through it to 9J8; without the ditch it reaches 9J8."""
    g, s1 = _squad(make_game)
    before = _reach(g, s1)
    assert {"9J9", "9J8"} <= before
    data(g)["markers"] = {"9J9": "ditch"}
    after = _reach(g, s1)
    assert "9J9" in after and "9J8" not in after


def test_a_leg_unit_in_a_ditch_stays_that_turn_and_the_next_15_1_4(make_game: Any) -> None:
    """MBT 15.1.4: entering the ditch on Turn 1 the squad may not leave it on Turn 1 or 2 (no
    destinations, not offered to move, the reason naming the rule); on Turn 3 it may."""
    g, s1 = _squad(make_game)
    data(g)["markers"] = {"9J9": "ditch"}
    g.state.turn = 1
    s1.hex = g.board.parse("9J9")
    markers.unit_moved(g, s1)
    assert s1.state["ditch"] == ["9J9", 1]
    for turn, held in ((1, True), (2, True), (3, False)):
        g.state.turn = turn
        why = markers.ditch_hold(g, s1)
        assert bool(why) is held and (not why or "MBT 15.1.4" in why)
        assert bool(_reach(g, s1)) is not held
        assert advanced_movement._movable(g, s1) is not held


def test_vehicles_are_not_held_by_ditches_they_cannot_enter_12_4_4(make_game: Any) -> None:
    """MBT 12.4.4: no vehicle enters a ditch hex (so none is ever held in one)."""
    g, _s1 = _squad(make_game)
    n1 = g.state.units["N1"]
    n1.state["order"] = "M"
    data(g)["markers"] = {"9A2": "ditch"}
    budget = movement.movement_allowance(g, n1)
    dests = {g.board.label(h) for h, _f in movement.destinations(g, n1, budget, False, True)}
    assert "9A2" not in dests and budget > Fraction(0)


def test_a_leg_unit_in_a_ditch_has_two_gp_defense_factors_14_4_3_2_3(make_game: Any) -> None:
    """MBT 14.4.3.2.3 (MBTD-171, stand-in numbers): in a ditch a squad's GP defense is the first
    number against fire from a greater height, the second against fire from level or below; the
    best of the hex's terrains still counts (MBT 14.4.3.2.4)."""
    from hexwar.plugins.mbt.advanced_tables import load_advanced
    from hexwar.plugins.mbt.gp_fire import gp_defense

    g = make_game([("S1", "Motor Rifle Squad", "Soviet", "9J10", 1),
                   ("N1", "M1", "NATO", "9J5", 4), ("N2", "M1", "NATO", "9F8", 4)],
                  options=ADV, heights={"9J5": 1})
    s1, high, level = (g.state.units[i] for i in ("S1", "N1", "N2"))
    table = load_advanced().leg_defense
    above = table[("Motor Rifle Squad", "ditch_above", "NM")].value
    below = table[("Motor Rifle Squad", "ditch_level", "NM")].value
    clear = table[("Motor Rifle Squad", "clear", "NM")].value
    assert clear < above < below
    assert gp_defense(g, high, s1, False) == gp_defense(g, level, s1, False) == clear
    data(g)["markers"] = {"9J10": "ditch"}
    assert gp_defense(g, high, s1, False) == above
    assert gp_defense(g, level, s1, False) == below
