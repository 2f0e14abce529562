"""Blast damage to buildings (Firepower 12.3.4.2.7; :mod:`hexwar.plugins.firepower.building_damage`,
the stand-in values of ``data/advanced/building_values.toml``)."""

from __future__ import annotations

from hexwar.core.provenance import load_records
from hexwar.plugins.firepower import advanced_terrain as at
from hexwar.plugins.firepower import building_damage as bd
from hexwar.plugins.firepower import confined_fire as cf
from hexwar.plugins.firepower.actions import apply_effects
from hexwar.plugins.firepower.state import data
from hexwar.plugins.firepower.weapon_chart import weapon
from tests.plugins.firepower.test_fire_openings import _setup, _throw
from tests.plugins.firepower.test_terrain import _game

# panel 4: 4AA5 is in building A (two stories); its ground-floor window faces 4Z4


def test_the_values_are_stand_ins_weakest_first() -> None:
    recs = load_records(bd.TABLE)
    assert all(recs.sources[f"default.{k}"] == "estimated" for k in bd.values())
    v = bd.values()
    assert v["window"] < v["door"] < v["roof"] < v["wall"]


def test_damage_adds_up_openings_then_roof_then_walls_and_the_floor_collapses() -> None:
    """Firepower 12.3.4.2.7: windows break open for good, then the roof goes (a mortar may fire
    from under the sky, 12.4.2), then the walls: the upper floor collapses and its soldiers are
    eliminated; the walls no longer block a line of sight."""
    g = _game([("UP", "RFL", "B", "AA5", 5, {"floor": 2}), ("IN", "RFL", "B", "AA5", 6,
                                                             {"posture": "prone"}),
               ("OUT", "RFL", "A", "W3", 2, {})])
    h = g.board.parse("4AA5")
    m = at.adv_map(g)
    win = next(o for o in m.openings_of(h) if o.inside == h and o.floor == 1)
    data(g)["openings"] = {win.key: "closed"}
    assert bd.damage(g, h, 1) == []
    assert sorted(bd.damage(g, h, 1)) == ["window", "window"]  # 2: both floors' windows
    assert at.opening_state(g, win) == "broken"
    g.state.units["IN"].state["model"] = "MRT6"
    assert cf.place(g, g.state.units["IN"]) == ("building A", True)
    assert bd.damage(g, h, 4) == ["roof"]  # 6
    assert cf.place(g, g.state.units["IN"]) == ("building A", False)
    cf.check(g, "IN", weapon("MRT6"), "semi")  # no roof over him now
    u = g.state.units
    assert at.blocked_between(g, u["IN"], u["OUT"]) is not None  # Prone under the sill
    assert bd.damage(g, h, 4) == ["walls"]  # 10
    assert u["UP"].state.get("eliminated") and not u["IN"].state.get("eliminated")
    assert at.blocked_between(g, u["IN"], u["OUT"]) is None
    assert data(g)["destroyed"]["4AA5"] == "rubble"


def test_a_grenade_in_a_building_hex_damages_it() -> None:
    """Firepower 12.3.4.2, 12.3.4.2.7: the grenade passes the window and goes off in 4AA5: its
    penetration counts; one that hits the wall outside does not damage 4AA5."""
    g = _setup()
    ctx, _ = _throw(g, [1, 2, 9])
    apply_effects(g, ctx)
    pen = weapon("HGN3").penetration["G"]
    assert data(g)[bd.DAMAGE] == {"4AA5": pen}
    g2 = _setup()
    ctx2, _ = _throw(g2, [1, 9, 9])
    apply_effects(g2, ctx2)
    assert not data(g2).get(bd.DAMAGE)


def test_a_and_h_do_no_damage_and_nothing_outside_buildings() -> None:
    """Firepower 12.3.1.2: no permanent damage from A; a hex outside buildings is not counted."""
    g = _game([("OUT", "RFL", "A", "W3", 2, {})])
    assert bd.damage(g, g.board.parse("4W3"), 5) == []
    assert not data(g).get(bd.DAMAGE)


def test_those_on_a_destroyed_roof_or_up_a_destroyed_wall_are_eliminated() -> None:
    """Firepower 12.3.4.2.7 (FPD-156): the roof going eliminates the soldiers on it; the walls
    going eliminate those part way up an outer wall of the hex from outside, not a climber on
    another building's wall, nor a soldier on the ground floor."""
    from hexwar.plugins.firepower.advanced_terrain import direction

    g = _game([("ROOF", "RFL", "B", "AA5", 5, {"floor": 3, "roof": "A"}),
               ("IN", "RFL", "B", "AA5", 6, {}),
               ("WALL", "RFL", "A", "Z4", 1, {}), ("AWAY", "RFL", "A", "W3", 2, {})])
    u, h = g.state.units, g.board.parse("4AA5")
    out = g.board.parse("4Z4")
    side = direction(out, h)
    u["WALL"].state.update(climb={"side": side, "step": 1, "total": 4, "kind": "roof",
                                  "floor": 1}, up=4, posture="stand")
    u["AWAY"].state.update(climb={"side": 1, "step": 1, "total": 4, "kind": "roof",
                                  "floor": 1}, up=4, posture="stand")
    assert "roof" in bd.damage(g, h, bd.values()["roof"])
    assert u["ROOF"].state.get("eliminated")
    assert not u["WALL"].state.get("eliminated") and not u["IN"].state.get("eliminated")
    assert "walls" in bd.damage(g, h, bd.values()["wall"])
    assert u["WALL"].state.get("eliminated")
    assert not u["AWAY"].state.get("eliminated") and not u["IN"].state.get("eliminated")
