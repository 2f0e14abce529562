"""The MBT Advanced Game's towed units (MBT 15.2), transport (MBT 15.3), buildings (MBT 15.4),
full cover (MBT 15.5) and overrun (MBT 14.7): each rule, the worked examples MBT-86, 87, 88,
100, 102, 103, and bad input refused with its rule and changing nothing.

Cards used: the stand-in transports ``Transport BTR`` (3LT, MBT 15.3.3.2) and ``Transport APC``
(4L(FC)), the team ``Rifle Team`` (7 GP + an attached MG of 9, MBT 14.7.2.1.1) and the towed
``AT Gun`` (towed (1)), all in ``plugins/mbt/data/advanced/cards/``."""

from __future__ import annotations

import copy
from fractions import Fraction
from typing import Any

import pytest

from hexwar.core.engine.view import build_view
from hexwar.core.errors import HexwarError
from hexwar.plugins.mbt import buildings, overrun, suppression, transport
from hexwar.plugins.mbt.advanced_movement import movement_phase, overrun_step
from hexwar.plugins.mbt.gp_fire import ammo_error, gp_defense, leg_status
from hexwar.plugins.mbt.state import card_of, data

ADV = ["mbt.advanced"]


def _btr(make_game: Any, **kw: Any) -> Any:
    g = make_game([("B1", "Transport BTR", "Soviet", "9J10", 1),
                   ("S1", "Motor Rifle Squad", "Soviet", "9J10", 1),
                   ("S2", "Motor Rifle Squad", "Soviet", "9J10", 1),
                   ("G1", "AT Gun", "Soviet", "9J10", 1),
                   ("N1", "M1", "NATO", "9J2", 4)], options=ADV, **kw)
    for uid in ("B1", "S1", "S2", "G1"):
        g.state.units[uid].state["order"] = "M"
    return g


def _state(g: Any) -> Any:
    return copy.deepcopy({k: (u.hex, u.state) for k, u in g.state.units.items()})


# -- MBT 15.3: transport ----------------------------------------------------------------------


def test_transport_value_line_15_3_1(make_game: Any) -> None:
    g = _btr(make_game)
    tv = transport.transport_value(card_of(g, g.state.units["B1"]))
    assert tv == transport.TransportValue(3, True, True, False)
    from hexwar.plugins.mbt.cards import load_cards

    apc_tv = transport.transport_value(load_cards()["Transport APC"])
    assert apc_tv == transport.TransportValue(4, True, False, True)
    assert transport.transport_value(load_cards()["M1"]) is None


def test_mbt_100_btr_carries_a_squad_and_a_team_and_counts_two_15_3_3_2(make_game: Any) -> None:
    """MBT-100 (MBT 15.3.3.2, 15.3.1): a 3LT carrier takes a squad (2) and a team (1): 3 <= 3;
    carried units are off the map, so the hex counts only the carrier's points."""
    g = make_game([("B1", "Transport BTR", "Soviet", "9J10", 1),
                   ("S1", "Motor Rifle Squad", "Soviet", "9J10", 1),
                   ("T1", "Rifle Team", "Soviet", "9J10", 1),
                   ("S2", "Motor Rifle Squad", "Soviet", "9J10", 1)], options=ADV)
    for uid in ("B1", "S1", "T1", "S2"):
        g.state.units[uid].state["order"] = "M"
    b1 = g.state.units["B1"]
    transport.load(g, b1, g.state.units["S1"])
    transport.load(g, b1, g.state.units["T1"])
    assert transport.carried_points(g, b1) == 3
    on_map = [u for u in g.state.units.values() if u.hex == b1.hex]
    assert sum(card_of(g, u).stacking for u in on_map if u.id != "S2") == 2
    assert g.state.units["S1"].hex is None and g.state.units["S1"].state["mounted"] == "B1"


def test_loading_beyond_the_transport_value_is_refused_and_changes_nothing(make_game: Any) -> None:
    """MBT 15.3.1: a second squad (2 more points) does not fit a 3-point carrier."""
    g = _btr(make_game)
    b1 = g.state.units["B1"]
    transport.load(g, b1, g.state.units["S1"])
    before = _state(g)
    err = transport.load_error(g, b1, g.state.units["S2"])
    assert err and "MBT 15.3.1" in err and "transport value 3" in err
    with pytest.raises(HexwarError, match=r"MBT 15\.3\.1"):
        transport.load(g, b1, g.state.units["S2"])
    assert _state(g) == before
    validate = transport.transport_validator(g, b1, False, Fraction(9))
    assert "MBT 15.3.1" in (validate(["load", "S2"]) or "")


def test_a_suppressed_leg_unit_is_neither_loaded_nor_unloaded_12_3_3(make_game: Any) -> None:
    """MBT 12.3.3: suppressed leg and towed units may not load or unload, even with M orders
    given before the suppression; the refusal names the rule and changes nothing."""
    g = make_game([("C1", "Transport APC", "NATO", "9J10", 1), ("P1", "Rifle Squad", "NATO", "9J10", 1)],
                  options=ADV)
    c1, p1 = g.state.units["C1"], g.state.units["P1"]
    c1.state["order"] = p1.state["order"] = "M"
    assert transport.load_error(g, c1, p1) is None
    suppression.suppress(g, p1, "test")
    before = _state(g)
    assert "MBT 12.3.3" in (transport.load_error(g, c1, p1) or "")
    with pytest.raises(HexwarError, match=r"MBT 12\.3\.3"):
        transport.load(g, c1, p1)
    assert _state(g) == before
    p1.state["suppressed"] = None
    transport.load(g, c1, p1)
    assert transport.unload_error(g, c1, p1) is None
    p1.state["suppressed"] = "ON"  # as passengers are by a compartment hit (MBT 14.3.3.1)
    assert "MBT 12.3.3" in (transport.unload_error(g, c1, p1) or "")


def test_loading_needs_m_orders_an_open_full_cover_carrier_and_the_mf_15_3_2(
        make_game: Any) -> None:
    g = make_game([("A1", "Transport APC", "NATO", "9J10", 4),
                   ("R1", "Rifle Squad", "NATO", "9J10", 4),
                   ("G1", "AT Gun", "Soviet", "9J12", 1)], options=ADV)
    a1, r1 = g.state.units["A1"], g.state.units["R1"]
    a1.state["order"] = "M"
    r1.state["order"] = "F"
    assert "MBT 15.3.2.3" in (transport.load_error(g, a1, r1) or "")  # M orders
    r1.state["order"] = "M"
    a1.state["open"] = False
    assert "must be open" in (transport.load_error(g, a1, r1) or "")  # MBT 15.3.2.3, FC
    a1.state["open"] = True
    assert transport.load_error(g, a1, r1) is None
    # MBT 15.3.2.4: after entering a new hex it needs the MF; without moving it always may
    assert "MBT 15.3.2.4" in (transport.load_error(g, a1, r1, entered=True,
                                                   mf_left=Fraction(1, 2)) or "")
    assert transport.load_error(g, a1, r1, entered=False, mf_left=Fraction(0)) is None
    # MBT 15.3.1: an L carrier takes no towed unit
    gun = g.state.units["G1"]
    assert "MBT 15.3" in (transport.load_error(g, a1, gun) or "")


def test_load_cost_is_the_highest_not_the_sum_15_3_2_2(make_game: Any, run: Any) -> None:
    g = make_game([("B1", "Transport BTR", "Soviet", "9J10", 1),
                   ("T1", "Rifle Team", "Soviet", "9J10", 1),  # 1 point, cost 1
                   ("G1", "AT Gun", "Soviet", "9J10", 1)], options=ADV)  # 2 points, cost 2
    for uid in ("B1", "T1", "G1"):
        g.state.units[uid].state["order"] = "M"
    b1 = g.state.units["B1"]
    answers = [["load", "T1"], ["load", "G1"], "done"]
    spent, asked = run(transport.transport_step(g, b1, entered=False, mf_left=Fraction(9)),
                       answers)
    assert spent == 2  # the gun's 2, not 1 + 2
    assert [d.rule for d in asked] == ["MBT 15.3.2"] * 3
    assert b1.state["carrying"] == ["T1", "G1"]


def test_unloading_where_forbidden_is_refused_and_changes_nothing(make_game: Any) -> None:
    """MBT 15.3.2.3: unloading needs the carrier's M or FM orders; a unit is not unloaded into
    terrain its card prohibits (MBTD-71)."""
    g = _btr(make_game, terrain={"9J11": "pond"})
    b1 = g.state.units["B1"]
    transport.load(g, b1, g.state.units["S1"])
    b1.state["order"] = "OR"
    before = _state(g)
    with pytest.raises(HexwarError, match=r"MBT 15\.3\.2\.3"):
        transport.unload(g, b1, g.state.units["S1"])
    assert _state(g) == before
    b1.state["order"] = "M"
    b1.hex = g.board.parse("9J11")
    err = transport.unload_error(g, b1, g.state.units["S1"])
    assert err and "pond" in err and "MBT 15.3.2.3" in err


def test_a_carrier_loads_moves_and_unloads_in_the_movement_step(make_game: Any, run: Any) -> None:
    """MBT 15.3.2.1: load, move on with the MF left, unload at the end; the unloaded squad takes
    the carrier's orders and stays in its hex (not offered a move, MBT 15.3.2.3)."""
    g = _btr(make_game)

    def answer(d: Any) -> Any:
        if d.kind == "mbt.move_unit":
            return "B1" if "B1" in d.options else "done"
        if d.kind == "mbt.transport":
            if d.context["when"] == "before":
                return ["load", "S1"] if ["load", "S1"] in d.options else "done"
            return ["unload", "S1"] if ["unload", "S1"] in d.options else "done"
        if d.kind == "mbt.move_to":
            return ["9J7", 1] if ["9J7", 1] in d.options else "stay"
        return "pass" if "pass" in d.options else d.options[0]

    _v, asked = run(movement_phase(g), answer)
    s1, b1 = g.state.units["S1"], g.state.units["B1"]
    assert b1.hex == g.board.parse("9J7") and s1.hex == b1.hex
    assert s1.state["unloaded"] == g.state.turn and s1.state["order"] == "M"
    assert not b1.state["carrying"]
    moves = [d for d in asked if d.kind == "mbt.move_unit"]
    assert all("S1" not in d.options for d in moves[1:])


def test_passengers_of_a_buttoned_full_cover_carrier_never_reach_the_enemy_15_3_3_3(
        make_game: Any) -> None:
    g = make_game([("A1", "Transport APC", "NATO", "9J10", 4),
                   ("R1", "Rifle Squad", "NATO", "9J10", 4),
                   ("S9", "T-72M1", "Soviet", "9J8", 1)], options=ADV)
    a1, r1 = g.state.units["A1"], g.state.units["R1"]
    a1.state["order"] = r1.state["order"] = "M"
    transport.load(g, a1, r1)
    a1.state["open"] = False
    soviet = build_view(g, "Soviet")
    assert "R1" not in soviet.units
    assert "carrying" not in soviet.units["A1"]["state"]
    seen = len([e for e in g.log.for_side("Soviet") if "R1" in str(e)])
    from hexwar.plugins.mbt.gp_fire import resolve

    s9 = g.state.units["S9"]
    s9.state["order"] = "F"
    resolve(g, s9, a1, overwatch=False, target_moving=False)  # MBT 14.4.3.2.5.1: not hit either
    assert len([e for e in g.log.for_side("Soviet") if "R1" in str(e)]) == seen
    from hexwar.plugins.mbt.fire import apply_effects

    a1.state["open"] = True  # an open carrier shows what it carries
    assert build_view(g, "Soviet").units["A1"]["state"]["carrying"] == ["R1"]
    assert "R1" in build_view(g, "NATO").units
    a1.state["open"] = False  # knocked out buttoned: its passengers die unseen (MBT 14.3.3.2)
    apply_effects(g, a1, ["KO"])
    assert g.state.units["R1"].state["destroyed"] == "eliminated"
    assert len([e for e in g.log.for_side("Soviet") if "R1" in str(e)]) == seen


def test_a_knocked_out_carrier_takes_its_passengers_14_3_3_2(make_game: Any) -> None:
    from hexwar.plugins.mbt.fire import apply_effects

    g = _btr(make_game)
    b1 = g.state.units["B1"]
    transport.load(g, b1, g.state.units["S1"])
    apply_effects(g, b1, ["KO"])
    assert g.state.units["S1"].state["destroyed"] == "eliminated"
    assert b1.state["carrying"] == []


@pytest.mark.parametrize(("fc", "open_", "defense"), [(False, False, 1), (True, True, 3),
                                                      (True, False, None)])
def test_passenger_gp_defense_14_4_3_2_5(make_game: Any, fc: bool, open_: bool,
                                         defense: int | None) -> None:
    """MBT-80 (MBT 14.4.3.2.5): passengers of a non-FC carrier defend at 1, of an open FC carrier
    at 3, of a buttoned FC carrier not at all (one roll for all: the next test)."""
    card = "Transport APC" if fc else "Transport BTR"
    side = "NATO" if fc else "Soviet"
    leg = "Rifle Squad" if fc else "Motor Rifle Squad"
    g = make_game([("C1", card, side, "9J10", 1), ("P1", leg, side, "9J10", 1)], options=ADV)
    c1 = g.state.units["C1"]
    c1.state["order"] = g.state.units["P1"].state["order"] = "M"
    transport.load(g, c1, g.state.units["P1"])
    c1.state["open"] = open_
    assert transport.passenger_defense(g, c1) == defense


def test_gp_fire_at_a_carrier_hits_its_passengers_with_the_same_roll(
        make_game: Any, dice_faces: Any) -> None:
    from hexwar.plugins.mbt.gp_fire import resolve

    g = _btr(make_game)
    b1 = g.state.units["B1"]
    transport.load(g, b1, g.state.units["S1"])
    n1 = g.state.units["N1"]
    n1.state["order"] = "F"
    g.dice.force(*dice_faces(100))
    shot = resolve(g, n1, b1, overwatch=False, target_moving=False)
    assert shot is not None
    report = [e for e in g.log.for_side(None) if e.get("what") == "GP point effect fire"][-1]
    assert report["passengers"][0]["unit"] == "S1" and report["passengers"][0]["gp_defense"] == 1
    assert report["passengers"][0]["result"] == "EF"
    assert g.state.units["S1"].state["half"]



def test_a_passengers_loss_is_told_as_its_carrier_is_seen_6_1(
        make_game: Any, dice_faces: Any, monkeypatch: Any) -> None:
    """MBT 6.1 with 14.4.3.2.5: what befalls the passengers (halved, eliminated, suppressed) is
    told to the sides that see their carrier; here, as if only the owner saw it, NATO hears
    nothing of the half squad eliminated inside."""
    from hexwar.plugins.mbt.gp_fire import resolve

    g = _btr(make_game)
    b1 = g.state.units["B1"]
    s1 = g.state.units["S1"]
    transport.load(g, b1, s1)
    s1.state["half"] = True  # an effective result eliminates a half squad (MBT 14.4.4.2.3.4)
    g.state.units["N1"].state["order"] = "F"
    monkeypatch.setattr(transport, "seen_by_enemy", lambda game, carrier: ["Soviet"])
    g.dice.force(*dice_faces(100))
    assert resolve(g, g.state.units["N1"], b1, overwatch=False, target_moving=False) is not None
    assert s1.state["destroyed"] == "eliminated"
    assert any(e.get("type") == "damage" and e.get("unit") == "S1" for e in g.log.for_side("Soviet"))
    assert not any(e.get("type") == "damage" and e.get("unit") == "S1"
                   for e in g.log.for_side("NATO"))

# -- MBT 15.2: towed units ---------------------------------------------------------------------


def test_towed_one_moves_straight_ahead_or_back_15_2_1(make_game: Any) -> None:
    g = make_game([("G1", "AT Gun", "Soviet", "9J10", 1)], options=ADV,
                  heights={"9J11": 2})
    gun = g.state.units["G1"]
    gun.state["order"] = "M"
    # ahead (direction 1, 9J9) allowed; behind (9J11) two heights up: refused (MBT 15.2.1)
    assert transport.towed_moves(g, gun) == ["9J9"]
    gun.state["order"] = "F"
    assert transport.towed_moves(g, gun) == []


def test_towed_units_take_gp_fire_only_and_an_effective_result_eliminates(
        make_game: Any) -> None:
    from hexwar.plugins.mbt.advanced_fire import after_damage

    g = make_game([("G1", "AT Gun", "Soviet", "9J10", 1), ("N1", "M1", "NATO", "9J4", 4)],
                  options=ADV)
    gun, n1 = g.state.units["G1"], g.state.units["N1"]
    n1.state["order"] = "F"
    assert ammo_error(g, n1, gun, "GP") is None
    assert "MBT 14.1.1.2" in (ammo_error(g, n1, gun, "APFSDS") or "")
    assert gp_defense(g, n1, gun, False) == 2  # leg_defense.csv: AT Gun, clear, NM
    after_damage(g, gun, ["leg_ef"])
    assert gun.state["destroyed"] == "eliminated"


# -- MBT 15.5: full cover ----------------------------------------------------------------------


def test_full_cover_15_5(make_game: Any, run: Any) -> None:
    from hexwar.plugins.mbt.advanced_adjustment import advanced_markers_phase

    g = make_game([("S1", "Motor Rifle Squad", "Soviet", "9J10", 1),
                   ("N1", "M1", "NATO", "9J2", 4)], options=ADV)
    s1 = g.state.units["S1"]
    s1.state["order"] = "M"
    _v, asked = run(movement_phase(g), lambda d: ["full_cover", "S1"]
                    if d.kind == "mbt.move_unit" and ["full_cover", "S1"] in d.options
                    else ("done" if "done" in d.options else d.options[0]))
    assert s1.state["full_cover"] and leg_status(s1, False) == "FC"
    assert s1.state["spotted"] is None and not s1.state["moved"]  # no MOVED marker
    assert transport.stays_put(g, s1)
    assert "MBT 15.5" in (transport.full_cover_error(g, s1) or "")
    _v, asked = run(advanced_markers_phase(g), lambda d: "S1" if d.kind == "mbt.full_cover_off"
                    else d.options[0])
    assert [d.rule for d in asked if d.kind == "mbt.full_cover_off"] == ["MBT 15.5"]
    assert not s1.state["full_cover"]


# -- MBT 15.4: buildings -----------------------------------------------------------------------


def test_mbt_102_into_buildings_modifier_15_4_3_1() -> None:
    """MBT-102 (MBT 15.4.3.1): close assault defense 7 (the M1's) gives +35."""
    assert buildings.into_buildings("brick", 10, 7, True).modifier == 35


def test_mbt_103_wooden_building_gun_forward_roll_15_15_4_3_2_2() -> None:
    """MBT-103 (MBT 15.4.3.2.2): CA defense 6, gun forward, wooden, roll 15: 45, no track
    damage (that needs 40 or less), a main gun hit."""
    r = buildings.into_buildings("wooden", 15, 6, True)
    assert (r.modified, r.track, r.gun, r.gun_line) == (45, False, True, "GN_forward")


def test_gun_facing_decides_the_line_15_4_3_2_1(make_game: Any) -> None:
    g = make_game([("N1", "M1", "NATO", "9J10", 1)], options=ADV)
    u = g.state.units["N1"]
    for turret, fwd in ((1, True), (2, True), (6, True), (3, False), (4, False), (5, False)):
        u.state["turret"] = turret
        assert buildings.gun_faces_forward(u, reverse=False) is fwd
        assert buildings.gun_faces_forward(u, reverse=True) is not fwd


@pytest.mark.parametrize(("roll", "inside"), [(1, False), (99, True)])
def test_going_inside_a_building_in_a_game_15_4_3(make_game: Any, dice_faces: Any, roll: int,
                                                    inside: bool) -> None:
    """MBT 15.4.3: a low roll is a track hit (no INB, MBT 15.4.3.2.4); a high one gets inside."""
    from hexwar.plugins.mbt.markers import target_terrain

    g = make_game([("N1", "M1", "NATO", "9J10", 1)], options=ADV, terrain={"9J10": "brick"})
    u = g.state.units["N1"]
    u.state["order"] = "M"
    assert buildings.inside_error(g, u, Fraction(0)) is not None  # MBT 15.4.3: 1 MF
    assert buildings.inside_error(g, u, Fraction(1)) is None
    g.dice.force(*dice_faces(roll))
    res = buildings.go_inside(g, u)
    assert res.track is not inside and bool(u.state.get("inb")) is inside
    assert u.state["damage"]["track"] is res.track
    if inside:
        assert target_terrain(g, u) == ("inside_building",)


def test_leg_units_go_up_one_mf_a_height_15_4_2(make_game: Any) -> None:
    from hexwar.plugins.mbt.advanced_sighting import unit_height
    from hexwar.plugins.mbt.markers import unit_moved

    g = make_game([("S1", "Motor Rifle Squad", "Soviet", "9J10", 1)], options=ADV,
                  terrain={"9J10": "brick"})
    s1 = g.state.units["S1"]
    s1.state["order"] = "M"
    ground = unit_height(g, s1)
    assert buildings.floors(g, s1, Fraction(2)) == [1, 2]  # brick buildings stand 2 high
    assert buildings.floors(g, s1, Fraction(1)) == [1]
    with pytest.raises(HexwarError, match=r"MBT 15\.4\.2"):
        buildings.climb(g, s1, 2, Fraction(1))
    assert buildings.climb(g, s1, 2, Fraction(2)) == 2
    assert unit_height(g, s1) == ground + 2
    from hexwar.plugins.mbt.orders import unit_view

    assert unit_view(g, "NATO", "S1")["state"]["up"] == 2  # MBT 15.4.1.1: not secret
    s1.hex = g.board.parse("9J9")
    unit_moved(g, s1)
    assert s1.state["up"] == 0


# -- MBT 14.7: overrun -------------------------------------------------------------------------


def _overrun(make_game: Any, **kw: Any) -> Any:
    g = make_game([("N1", "M1", "NATO", "9J5", 4), ("T1", "Rifle Team", "Soviet", "9J8", 1),
                   ("S1", "Motor Rifle Squad", "Soviet", "9J15", 1)], options=ADV, **kw)
    data(g)["sighted"] = {"N1": ["T1", "S1"]}
    return g


def test_mbt_86_team_with_mg_defensive_fire_is_16_14_7_2_1_1(make_game: Any) -> None:
    """MBT-86 (MBT 14.7.2.1.1, 14.7.2.1.1.1): 7 (team) + 9 (its MG) = 16 with the attacker's hex
    in the MG's arc; the MG is not usable from outside its arc, nor just unloaded."""
    g = _overrun(make_game)
    t1 = g.state.units["T1"]
    front = t1.hex.neighbor(t1.facing)
    back = t1.hex.neighbor((t1.facing + 2) % 6 + 1)
    assert overrun.defensive_factor(g, t1, front)[0] == 16
    assert overrun.defensive_factor(g, t1, back)[0] == 7
    t1.state["unloaded"] = g.state.turn
    assert overrun.defensive_factor(g, t1, front)[0] == 7  # MBT 14.7.2.1.1.2


def test_or_order_only_with_a_reachable_sighted_target_and_out_of_reach_refused(
        make_game: Any) -> None:
    """MBT 13.3, 14.7.1.2: OR for a vehicle that sighted a leg or towed unit it can reach; one
    out of reach is refused naming the rule, and nothing changes."""
    from hexwar.plugins.mbt.advanced_orders import restrict

    g = _overrun(make_game)
    n1 = g.state.units["N1"]
    n1.state["order"] = "OR"
    assert [t.id for t in overrun.overrun_targets(g, n1, sighted_now=False)] == ["T1"]
    assert "OR" in restrict(g, n1, ["F", "M", "OW"])
    before = _state(g)
    err = overrun.overrun_error(g, n1, g.state.units["S1"], sighted_now=False)
    assert err and "MBT 14.7.1.2" in err and "out of" in err
    with pytest.raises(HexwarError, match=r"MBT 14\.7\.1\.2"):
        list(overrun.overrun(g, n1, g.state.units["S1"]))
    assert _state(g) == before
    data(g)["sighted"] = {"N1": []}
    assert "OR" not in restrict(g, n1, ["F", "M", "OW"])


@pytest.mark.parametrize("fired", [False, True])
def test_mbt_87_and_88_first_fire_then_overrun_fire_plus_20(
        make_game: Any, run: Any, dice_faces: Any, fired: bool) -> None:
    """MBT-87 (MBT 14.7.2.1.2): a defender that has not fired and is not suppressed fires first;
    one that fired already fires at the same time as the overrun. MBT-88 (MBT 14.7.2.2.2): the
    overrun fire has +20 on top of the normal GP modifiers; MBT 14.7.2.2.1 the M1's MV GP at
    one hex. MBT 14.7.3, 8.8: afterwards the hex is adjusted (the defender stays)."""
    g = _overrun(make_game)
    n1, t1 = g.state.units["N1"], g.state.units["T1"]
    n1.state["order"] = "OR"
    t1.state["fired"] = fired
    g.dice.force(*dice_faces(1, 50))
    _v, _asked = run(overrun_step(g), lambda d: "N1" if d.kind == "mbt.move_unit" and "N1" in
                    d.options else ("T1" if d.kind == "mbt.overrun" else
                                    ("done" if "done" in d.options else
                                     ("stay" if "stay" in d.options else
                                      ("pass" if "pass" in d.options else d.options[0])))))
    log = [e for e in g.log.for_side(None) if e.get("what") in ("overrun defensive fire",
                                                                 "overrun fire")]
    assert [e["what"] for e in log] == ["overrun defensive fire", "overrun fire"]
    assert log[0]["first_fire"] is (not fired) and log[0]["gp_factor"] == 16
    plus = [m for m in log[1]["modifiers"] if m["rule"].startswith("MBT 14.7.2.2.2")]
    assert [m["value"] for m in plus] == [20]
    weapon = card_of(g, n1).main_gun
    assert weapon is not None
    from hexwar.plugins.mbt.gp_fire import card_gp_factor
    from hexwar.plugins.mbt.machineguns import machineguns

    # MBT 14.7.2.2.1: every useable gun, the independent machineguns too (MBT 14.1.2)
    guns = [weapon.name, *(m.name for m in machineguns(card_of(g, n1)))]
    assert log[1]["gp_factor"] == sum(card_gp_factor(card_of(g, n1), w, 1, True) or 0
                                      for w in guns)
    assert n1.hex != t1.hex  # MBT 8.8: the defender held its hex


def test_overrun_effective_result_eliminates_a_squad_mbt_77(make_game: Any) -> None:
    """MBT-77 (MBT 14.7.2.2.2): an effective overrun result eliminates a squad outright."""
    from hexwar.plugins.mbt.advanced_fire import after_damage

    g = _overrun(make_game)
    s1 = g.state.units["S1"]
    after_damage(g, s1, ["leg_elim"])
    assert s1.state["destroyed"] == "eliminated" and not s1.state.get("half")


def test_carried_units_cannot_be_overrun_14_7_1_4(make_game: Any) -> None:
    g = make_game([("N1", "M1", "NATO", "9J5", 4), ("B1", "Transport BTR", "Soviet", "9J8", 1),
                   ("S1", "Motor Rifle Squad", "Soviet", "9J8", 1)], options=ADV)
    for uid in ("B1", "S1"):
        g.state.units[uid].state["order"] = "M"
    transport.load(g, g.state.units["B1"], g.state.units["S1"])
    err = overrun.overrun_error(g, g.state.units["N1"], g.state.units["S1"])
    assert err and "MBT 14.7.1.4" in err


# -- the AI with transports, full cover and overrun ---------------------------------------------

_RIDERS = """
[[units]]
id = "NA1"
type = "mbt:Transport APC"
side = "NATO"

[[units]]
id = "NR1"
type = "mbt:Rifle Squad"
side = "NATO"
state = { carried_by = "NA1" }

[[units]]
id = "NR2"
type = "mbt:Rifle Squad"
side = "NATO"
state = { carried_by = "NA1" }

[[units]]
id = "SB1"
type = "mbt:Transport BTR"
side = "Soviet"

[[units]]
id = "SR1"
type = "mbt:Motor Rifle Squad"
side = "Soviet"
state = { carried_by = "SB1" }

[[units]]
id = "SG1"
type = "mbt:AT Gun"
side = "Soviet"
"""


def _riders_scenario(tmp_path: Any, turns: int) -> Any:
    from pathlib import Path

    import hexwar.plugins.mbt as mbt_pkg

    text = (Path(mbt_pkg.__file__).parent / "scenarios" / "advanced-a.toml").read_text("utf-8")
    text = text.replace('id = "mbt:advanced-a"', 'id = "mbt:test-riders"')
    text = text.replace("turns = 12", f"turns = {turns}") + _RIDERS
    path = tmp_path / "riders.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_units_start_carried_and_a_bad_start_is_refused(tmp_path: Any) -> None:
    """MBT 15.3.2.6: ``carried_by`` sets a unit up in its carrier, within the transport value."""
    from hexwar.core.testing import make_game as core_make_game
    from hexwar.plugins.mbt.ai import MbtAI

    path = _riders_scenario(tmp_path, 1)
    g = core_make_game(path, seed=5)
    g.play({s: MbtAI(s, 5) for s in ("NATO", "Soviet")})
    started = {e["unit"]: e["carrier"] for e in g.log.for_side(None)
               if e.get("type") == "loaded" and e.get("rule") == "MBT 15.3.2.6"}
    assert started == {"NR1": "NA1", "NR2": "NA1", "SR1": "SB1"}
    placed = {e["unit"] for e in g.log.for_side(None) if e.get("type") == "placed"}
    assert "NA1" in placed and not placed & set(started)
    bad = path.read_text("utf-8").replace('id = "SG1"\ntype = "mbt:AT Gun"\nside = "Soviet"',
                                          'id = "SG1"\ntype = "mbt:AT Gun"\nside = "Soviet"\n'
                                          'state = { carried_by = "SB1" }')
    path.write_text(bad, encoding="utf-8")
    g2 = core_make_game(path, seed=5)
    with pytest.raises(HexwarError, match=r"MBT 15\.3\.1"):
        g2.play({s: MbtAI(s, 5) for s in ("NATO", "Soviet")})


def test_ai_carries_squads_forward_and_dismounts_them(tmp_path: Any) -> None:
    """The AI (view API only) plays transports: squads start carried, ride forward and get off
    (MBT 15.3.2); every Advanced decision it takes is legal; the game ends."""
    from hexwar.core.testing import make_game as core_make_game
    from hexwar.plugins.mbt.ai import MbtAI

    # seed 8: with the leg height rule (MBT 15.1.2, MBTD-122) seed 7's game no longer comes
    # near the enemy within 5 Turns; seeds 1-5 and 8 all show the unloading
    g = core_make_game(_riders_scenario(tmp_path, 5), seed=8)
    g.play({s: MbtAI(s, 8) for s in ("NATO", "Soviet")})
    assert g.over
    kinds = {d["kind"] for d in g.decisions}
    assert "mbt.transport" in kinds
    placed = {e["unit"]: e["hex"] for e in g.log.for_side(None) if e.get("type") == "placed"}
    unloaded = [e for e in g.log.for_side(None) if e.get("type") == "unloaded"]
    # carried forward: got off away from the hex their carrier was set up in
    assert any(e["hex"] != placed[e["carrier"]] for e in unloaded)
    # hidden information: the Soviet side never hears of a NATO passenger while it rides
    for e in g.log.for_side("Soviet"):
        if e.get("type") == "loaded":
            assert e["unit"] not in ("NR1", "NR2")


def test_ai_overruns_an_exposed_squad_when_it_pays(make_game: Any, run: Any) -> None:
    """The AI gives OR to a tank that sighted a squad in the open within reach, and announces
    it in the Overrun Step (MBT 13.3, 14.7.1.2); the overrun fire is resolved."""
    from hexwar.plugins.mbt.advanced_orders import orders_phase
    from hexwar.plugins.mbt.ai import MbtAI

    g = make_game([("N1", "M1", "NATO", "9J5", 4), ("S1", "Motor Rifle Squad", "Soviet", "9J8", 1)],
                  options=ADV)
    data(g)["sighted"] = {"N1": ["S1"], "S1": ["N1"]}
    ai = {s: MbtAI(s, 1) for s in ("NATO", "Soviet")}

    def answer(d: Any) -> Any:
        return ai[d.side].choose(d, build_view(g, d.side))

    _v, asked = run(orders_phase(g), answer)
    assert g.state.units["N1"].state["order"] == "OR"
    _v, asked = run(overrun_step(g), answer)
    assert [d.kind for d in asked][:2] == ["mbt.move_unit", "mbt.overrun"]
    assert any(e.get("what") == "overrun fire" for e in g.log.for_side(None))


NEW_KINDS = {"mbt.transport", "mbt.overrun", "mbt.inside", "mbt.floor", "mbt.towed_move",
             "mbt.full_cover_off", "mbt.jamming", "mbt.move_unit"}


def test_new_decisions_read_in_words_at_the_table_and_the_terminal(tmp_path: Any) -> None:
    """Each new decision kind has a web form offering exactly its options, labelled in words,
    and a terminal explanation naming no option as JSON."""
    import re

    from hexwar.core.engine.decisions import canonical
    from hexwar.core.testing import make_game as core_make_game
    from hexwar.core.web.present import finish
    from hexwar.plugins.mbt.ai import MbtAI
    from hexwar.plugins.mbt.explain import explain_decision

    jsonish = re.compile(r'[{}\[\]"]')
    path = _riders_scenario(tmp_path, 3)
    text = path.read_text("utf-8").replace("[victory]", 'jamming = { NATO = 2, Soviet = 1 }\n\n'
                                           "[victory]")
    path.write_text(text, encoding="utf-8")
    opts = ["mbt.command_control"]
    g = core_make_game(path, seed=7, options=opts)
    ai = {s: MbtAI(s, 7) for s in ("NATO", "Soviet")}
    seen: set[str] = set()
    for _ in range(3000):
        d = g.pending
        if d is None:
            break
        view = g.view(d.side)
        if d.kind in NEW_KINDS:
            seen.add(d.kind)
            form = finish(view, d, g.hooks.present_decision(view, d))
            assert sorted(canonical(c["choice"]) for c in form["choices"]) == sorted(
                canonical(o) for o in d.options or ())
            for c in form["choices"]:
                assert c["label"] and not jsonish.search(c["label"]), (d.kind, c["label"])
            for line in explain_decision(view, d).splitlines()[1:]:
                assert not jsonish.search(line), (d.kind, line)
        g.answer(ai[d.side].choose(d, view))
    assert {"mbt.transport", "mbt.jamming", "mbt.move_unit"} <= seen, seen


def test_mf_spent_loading_take_away_the_first_hex_rule_15_3_2_1(make_game: Any, run: Any) -> None:
    """MBT 15.3.2.1: only the movement factors left after loading move the carrier; MBT 8.4.4's
    one hex whatever it costs does not apply once some were spent loading."""
    from hexwar.plugins.mbt.movement import move_unit

    g = make_game([("B1", "Transport BTR", "Soviet", "9J10", 1),
                   ("G1", "AT Gun", "Soviet", "9J10", 1)], options=ADV,
                  terrain={"9J9": "pond", "9J8": "rough"})
    b1 = g.state.units["B1"]
    for uid in ("B1", "G1"):
        g.state.units[uid].state["order"] = "M"
    allowance = card_of(g, b1).mf
    _v, asked = run(move_unit(g, b1, allowance - Fraction(1, 2)), lambda d: d.options[0])
    first = asked[0]
    assert first.kind == "mbt.move_to"
    assert {o[0] for o in first.options if isinstance(o, list)} <= {"9J10"}  # turns only
    b1.state.update(moved=False)
    _v, asked = run(move_unit(g, b1), lambda d: d.options[0])  # nothing spent: MBT 8.4.4
    assert {o[0] for o in asked[0].options if isinstance(o, list)} - {"9J10"}


def test_towed_gun_fires_in_its_arc_pivots_with_any_orders_and_not_while_carried(
        make_game: Any, run: Any) -> None:
    """MBT 14.2.1: the towed gun fires AP in its card's 60-degree arc; MBT 15.2.2: it pivots in
    the Pivot Step whatever its orders; MBT 15.3.4.1: not fired while carried."""
    from hexwar.plugins.mbt.advanced_adjustment import pivot_phase
    from hexwar.plugins.mbt.fire import fire_error

    g = make_game([("G1", "AT Gun", "Soviet", "9J10", 1), ("B1", "Transport BTR", "Soviet",
                                                           "9J10", 1),
                   ("N1", "M1", "NATO", "9J5", 4), ("N2", "M1", "NATO", "9J15", 1)], options=ADV)
    gun, b1 = g.state.units["G1"], g.state.units["B1"]
    gun.state["order"] = "F"
    ahead, behind = g.state.units["N1"], g.state.units["N2"]
    assert fire_error(g, gun, ahead, "APFSDS", orders=("F",)) is None
    assert "arc" in (fire_error(g, gun, behind, "APFSDS", orders=("F",)) or "")
    _v, asked = run(pivot_phase(g), lambda d: 4 if d.context.get("unit") == "G1" else
                    d.options[0] if d.kind != "mbt.pivot" else d.context["facing"])
    assert "MBT 16.1" in {d.rule for d in asked if d.context.get("unit") == "G1"}
    assert gun.facing == 4
    gun.state["order"] = b1.state["order"] = "M"
    transport.load(g, b1, gun)
    gun.state["order"] = "F"
    assert fire_error(g, gun, ahead, "APFSDS", orders=("F",)) is not None


def test_overrun_fire_factor_is_the_mv_gp_of_working_guns_and_firing_passengers(
        make_game: Any) -> None:
    """MBT 14.7.2.2.1: the vehicle's MV GP at one hex, plus passengers that can fire (not from a
    buttoned full-cover carrier, MBT 15.3.4.2); nothing from a machinegun lost with its turret
    compartment (MBT 14.3.3.1, 14.7.2.2.1 "useable")."""
    from hexwar.plugins.mbt.gp_fire import card_gp_factor

    g = make_game([("B1", "Transport BTR", "Soviet", "9J10", 1),
                   ("S1", "Motor Rifle Squad", "Soviet", "9J10", 1)], options=ADV)
    b1, s1 = g.state.units["B1"], g.state.units["S1"]
    hmg = card_gp_factor(card_of(g, b1), "HMG", 1, True)
    arms = card_gp_factor(card_of(g, s1), "Small arms", 1, True)
    assert hmg and arms
    assert overrun.attack_factor(g, b1)[0] == hmg
    b1.state["order"] = s1.state["order"] = "M"
    transport.load(g, b1, s1)
    assert overrun.attack_factor(g, b1)[0] == hmg + arms
    b1.state["damage"]["gun"] = True  # its HMG is a machinegun, not a main gun (MBTD-150)
    assert overrun.attack_factor(g, b1)[0] == hmg + arms
    b1.state["damage"]["compartment"] = "turret"  # MBT 14.3.3.1: the turret's HMG is lost
    assert overrun.attack_factor(g, b1)[0] == arms


def test_a_unit_unloaded_in_a_contested_hex_goes_back_with_its_carrier_8_8(make_game: Any) -> None:
    from hexwar.plugins.mbt.movement import adjust_contested

    g = _btr(make_game)
    b1, s1 = g.state.units["B1"], g.state.units["S1"]
    transport.load(g, b1, s1)
    g.state.units["N1"].hex = g.board.parse("9J9")  # an enemy there all Turn
    b1.hex = g.board.parse("9J9")
    b1.state.update(trail=[["9J10", None]], prev="9J10", entered=[g.state.turn, 7])
    transport.unload(g, b1, s1)
    adjust_contested(g)
    assert b1.hex == s1.hex == g.board.parse("9J10")


def test_a_carrier_picks_up_a_squad_on_its_way_and_moves_on_15_3_2_1(make_game: Any,
                                                                       run: Any) -> None:
    """MBT 15.3.2.1: a carrier enters a hex, loads the squad waiting there (the MF it costs come
    after entering, MBT 15.3.2.4), then moves on with what is left; docs/decisions.md MBTD-91."""
    g = make_game([("B1", "Transport BTR", "Soviet", "9J10", 1),
                   ("S1", "Motor Rifle Squad", "Soviet", "9J8", 1),
                   ("N1", "M1", "NATO", "9J2", 4)], options=ADV)
    for uid in ("B1", "S1"):
        g.state.units[uid].state["order"] = "M"
    stops = iter([["9J8", 1], ["9J7", 1]])

    def answer(d: Any) -> Any:
        if d.kind == "mbt.move_unit":
            return "B1" if "B1" in d.options else "done"
        if d.kind == "mbt.transport":
            return ["load", "S1"] if ["load", "S1"] in d.options else "done"
        if d.kind == "mbt.move_to":
            want = next(stops, "stay")
            return want if want in d.options else "stay"
        return "pass" if "pass" in d.options else d.options[0]

    _v, asked = run(movement_phase(g), answer)
    s1, b1 = g.state.units["S1"], g.state.units["B1"]
    assert b1.hex == g.board.parse("9J7"), "moved on after loading"
    assert s1.hex is None and s1.state["mounted"] == "B1" and b1.state["carrying"] == ["S1"]
    loads = [d for d in asked if d.kind == "mbt.transport"]
    assert any(d.context["hex"] == "9J8" and d.context["entered"] for d in loads)
