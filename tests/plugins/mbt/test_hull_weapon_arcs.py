"""MBT 14.2.1: weapons not in a turret fire in the arc their card's TRN column names (60, 60R,
120, 360), measured from the unit's front, not from a turret."""

from __future__ import annotations

from typing import Any

from hexwar.core.hexgrid import in_arc
from hexwar.plugins.mbt.fire import fire_error, weapon_arc

ADV = ["mbt.advanced"]
SQUAD = "Squad Standard Infantry [PZF-44]"


def test_hull_weapons_use_the_card_arc_from_the_unit_front_14_2_1(make_game: Any) -> None:
    """The squad's small arms fire all round (360), its PZF-44 in 60 degrees from its front;
    a turret's state never turns them."""
    g = make_game([("N1", SQUAD, "NATO", "9J10", 1), ("S1", "T-80A", "Soviet", "9J12", 1)],
                  options=ADV)
    n1 = g.state.units["N1"]
    n1.state["turret"] = 4
    assert weapon_arc(g, n1, "Small arms") == ("360", 1)
    assert weapon_arc(g, n1, "PZF-44") == ("60", 1)
    arc, facing = weapon_arc(g, n1, "PZF-44")
    assert in_arc(n1.hex, facing, g.board.parse("9J6"), arc)
    assert not in_arc(n1.hex, facing, g.board.parse("9J12"), arc)  # behind the squad


def test_a_target_behind_is_in_a_360_arc_but_not_in_a_turned_away_turret(make_game: Any) -> None:
    """MBT 14.2.1 against MBT 7.2.1: GP fire from the squad's small arms at a tank behind it is
    in arc; the same target is outside a tank's turret arc when the turret faces away."""
    g = make_game([("N1", SQUAD, "NATO", "9J10", 1), ("N2", "M1", "NATO", "9K10", 1),
                   ("S1", "T-80A", "Soviet", "9J11", 1)], options=ADV)
    for uid in ("N1", "N2"):
        g.state.units[uid].state["order"] = "F"
    g.state.units["N2"].state["turret"] = 1
    s1 = g.state.units["S1"]
    s1.state["spotted"] = "FIRED"
    assert fire_error(g, g.state.units["N1"], s1, "GP", orders=("F",)) is None
    err = fire_error(g, g.state.units["N2"], s1, "GP", orders=("F",))
    assert err is not None and "firing arc" in err and "MBT 7.2.1" in err
