"""Wooden buildings (MBT 15.4.3 VEHICLE'S INTO BUILDINGS TABLE, MBT 13.2.2.1.2, MBT 14.4.3.3.2-
14.4.3.3.3): a brick building hex with the feature ``wooden`` (docs/decisions.md MBTD-169); the
stand-in panel 4 carries eight."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from hexwar.core.scenario import Scenario
from hexwar.core.testing import make_game as scenario_game
from hexwar.plugins.mbt import advanced_sighting as adv
from hexwar.plugins.mbt import buildings, gp_terrain
from hexwar.plugins.mbt.markers import markers, target_terrain
from hexwar.plugins.mbt.state import ctx, data

ADV = ["mbt.advanced"]
WOODEN = {"terrain": {"9J10": "brick"}, "features": {"9J10": ["wooden"]}}
PANEL4 = ("R4", "R7", "S4", "S6", "S7", "T4", "T6", "U5")
SCENARIOS = Path(__file__).resolve().parents[3] / "plugins/mbt/scenarios"


def _tank_in(make_game: Any, wooden: bool) -> Any:
    kw = WOODEN if wooden else {"terrain": {"9J10": "brick"}}
    g = make_game([("N1", "M1", "NATO", "9J10", 1), ("S1", "T-80A", "Soviet", "9J14", 4)],
                  options=ADV, **kw)
    return g, g.state.units["N1"], g.state.units["S1"]


def test_the_stand_in_panel_4_has_wooden_buildings() -> None:
    """MBTD-169: panel 4 (a stand-in) marks eight of its town's hexes wooden; they read as
    buildings of kind wooden."""
    text = (SCENARIOS / "scenario-one-3.toml").read_text()
    g = scenario_game(Scenario.from_text(text, path=str(SCENARIOS / "scenario-one-3.toml")), seed=1)
    wooden = sorted(g.board.label(h) for h in g.board.hexes if "wooden" in ctx(g).info.kinds[h])
    assert [lab[1:] for lab in wooden] == list(PANEL4) and {lab[0] for lab in wooden} == {"4"}
    assert all("brick" in ctx(g).info.kinds[g.board.parse(lab)] for lab in wooden)


@pytest.mark.parametrize(("wooden", "inside", "track", "gun"),
                         [(True, True, False, True), (False, False, True, True)])
def test_mbt_103_in_a_game_the_wooden_column_is_read_15_4_3_2_2(
        make_game: Any, dice_faces: Any, wooden: bool, inside: bool, track: bool,
        gun: bool) -> None:
    """MBT 15.4.3.2-15.4.3.2.2 (MBT-103 on the map): an M1 (CA defense 7, +35) going inside on
    a roll of 10 makes 45: in a wooden building no track hit (40 or less) and a main gun hit
    (forward), so it is inside; in a brick one (stand-in bands to 55 and 70) a track hit too, so
    it stays out (MBT 15.4.3.2.4)."""
    g, n1, _s1 = _tank_in(make_game, wooden)
    n1.state["order"] = "M"
    assert buildings.building_kind(g, n1) == ("wooden" if wooden else "brick")
    g.dice.force(*dice_faces(10))
    res = buildings.go_inside(g, n1)
    assert (res.modified, res.track, res.gun) == (45, track, gun)
    assert bool(n1.state.get("inb")) is inside


@pytest.mark.parametrize("wooden", [True, False])
def test_inside_a_wooden_building_is_not_hull_down_13_2_2_1_2(make_game: Any,
                                                                wooden: bool) -> None:
    """MBT 13.2.2.1.2, 14.3.1.2: a vehicle inside buildings takes the inside modifier in any
    building, but is hull down only inside a brick or stone one, not a wooden one."""
    g, n1, s1 = _tank_in(make_game, wooden)
    n1.state["inb"] = True
    n1.state["inb_hex"] = "9J10"
    assert target_terrain(g, n1) == ("inside_building",)
    assert adv.hull_down(g, s1, n1)[0] is not wooden


def test_a_wooden_building_is_not_destroyed_by_direct_fire_14_4_3_3_2(make_game: Any) -> None:
    """MBT 14.4.3.3.2 (MBTD-147): a wooden building hex, like any building, is no target of
    direct GP fire; the refusal names the rule."""
    g, _n1, _s1 = _tank_in(make_game, True)
    err = gp_terrain.target_error(g, "9J10", "building")
    assert err is not None and "MBT 14.4.3.3.2" in err


def test_a_destroyed_wooden_building_becomes_a_permanent_block_14_4_3_3_3(
        make_game: Any) -> None:
    """MBT 14.4.3.3.3 (for the artillery, bombs and assault infantry of MBT 14.4.3.3.2): the
    wooden building hex gets a block that is never removed, and the units in it are eliminated
    (no wreck)."""
    g, n1, _s1 = _tank_in(make_game, True)
    gp_terrain.destroy_building(g, "9J10", "MBT 14.4.3.3.3")
    assert markers(g)["9J10"] == "block" and "9J10" in data(g)["permanent_blocks"]
    assert n1.state.get("destroyed")
    err = gp_terrain.target_error(g, "9J10", "block")
    assert err is not None and re.search(r"MBT 14\.4\.3\.3\.3", err)


def test_going_inside_a_wooden_building_needs_movement_orders_15_4_1(make_game: Any) -> None:
    """MBT 15.4.1, 15.4.3: going inside a wooden building, as any, needs movement orders and one
    MF; refused with the rule otherwise."""
    from fractions import Fraction

    g, n1, _s1 = _tank_in(make_game, True)
    err = buildings.inside_error(g, n1, Fraction(2))
    assert err is not None and "MBT 15.4.1" in err  # no orders yet
    n1.state["order"] = "M"
    assert buildings.inside_error(g, n1, Fraction(2)) is None
    err = buildings.inside_error(g, n1, Fraction(0))
    assert err is not None and "MBT 15.4.3" in err
