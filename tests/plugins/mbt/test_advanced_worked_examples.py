"""Worked examples of the MBT Advanced Game (MBT 10.0-16.0) that no other test computed in full,
each a test named after its MBT-n number (issue 11). The table of every Advanced worked example
and where it is tested is in docs/mbt-advanced.md, "Worked examples"."""

from __future__ import annotations

from typing import Any

import pytest

from hexwar.plugins.mbt import gp_fire, smoke, suppression, transport
from hexwar.plugins.mbt.advanced_adjustment import advanced_markers_phase
from hexwar.plugins.mbt.advanced_fire import atgm_announce_phase, missile_race, stacking_points
from hexwar.plugins.mbt.advanced_tables import load_advanced
from hexwar.plugins.mbt.ap_fire import ap_modifiers as basic_ap_modifiers
from hexwar.plugins.mbt.fire import destroy, situation
from hexwar.plugins.mbt.state import ctx, data

ADV = ["mbt.advanced"]

# MBT 7.4.2.4 and 14.4.2.1.8 name the same orders: close assault, fire, fire missile (ATGM) and
# overwatch are "not moving"; fire/move, move and overrun are "moving".
NOT_MOVING = ("F", "ATGM", "OW")
MOVING = ("FM", "M", "OR")


# -- MBT-43: overwatch modifiers (MBT 7.4.2.4, 14.4.2.1.8) ----------------------------------------


@pytest.mark.parametrize("order", NOT_MOVING + MOVING)
def test_mbt_43_overwatch_modifier_by_the_targets_orders(make_game: Any, order: str) -> None:
    """MBT-43 (MBT 7.4.2.4, MBT 14.4.2.1.8): a firer on overwatch orders at a vehicle whose orders
    are F, ATGM or OW takes AP -2 and GP -5; at one with FM, M or OR, AP -5 and GP -15. The
    target's orders alone decide (nothing is told to the code but the order)."""
    g = make_game([("S1", "T-80A", "Soviet", "9J1", 4), ("N1", "M1", "NATO", "9J6", 1)],
                  options=ADV)
    f, t = g.state.units["S1"], g.state.units["N1"]
    f.state["order"], t.state["order"] = "OW", order
    ap = [m.value for m in basic_ap_modifiers(ctx(g).charts,
                                              situation(g, f, "125mm", "APFSDS", t, overwatch=True))
          if m.rule.startswith("MBT 7.4.2.4")]
    gp = [m.value for m in gp_fire.gp_modifiers(g, f, t, overwatch=True,
                                                 target_moving=gp_fire.target_is_moving(t, None))
          if m.rule.startswith("MBT 14.4.2.1.8")]
    want = (-5, -15) if order in MOVING else (-2, -5)
    assert (ap, gp) == ([want[0]], [want[1]])


def test_mbt_43_close_assault_orders_are_not_moving_for_gp_overwatch(make_game: Any) -> None:
    """MBT-43 (MBT 14.4.2.1.8): a squad with close assault orders counts as not moving: -5 (CA is
    for leg units, MBT 13.3, so this case is a GP shot at a squad)."""
    g = make_game([("S1", "T-80A", "Soviet", "9J1", 4),
                   ("P1", "Rifle Squad", "NATO", "9J6", 1)], options=ADV)
    f, t = g.state.units["S1"], g.state.units["P1"]
    f.state["order"], t.state["order"] = "OW", "CA"
    gp = [m.value for m in gp_fire.gp_modifiers(g, f, t, overwatch=True,
                                                 target_moving=gp_fire.target_is_moving(t, None))
          if m.rule.startswith("MBT 14.4.2.1.8")]
    assert gp == [-5]


# -- MBT-80: passengers of a carrier under GP fire (MBT 14.4.3.2.5) --------------------------------


@pytest.mark.parametrize(("fc", "open_", "defense"), [(False, False, 1), (False, True, 1),
                                                      (True, True, 3), (True, False, None)])
def test_mbt_80_passengers_share_the_carriers_gp_roll(make_game: Any, dice_faces: Any, fc: bool,
                                                      open_: bool, defense: int | None) -> None:
    """MBT-80 (MBT 14.4.3.2.5.1-14.4.3.2.5.3): a GP shot at a carrier also attacks its passengers,
    with the same roll: at defense 1 in a non-FC carrier (open or buttoned), 3 in an open FC one,
    not at all in a buttoned FC one. The carrier's hex holds a wreck: a leg unit on the ground there
    gets +1 (MBT 14.4.3.2.2), the passengers do not."""
    card, side, leg = (("Transport APC", "NATO", "Rifle Squad") if fc
                       else ("Transport BTR", "Soviet", "Motor Rifle Squad"))
    enemy, gun = ("Soviet", "T-80A") if fc else ("NATO", "M1")
    g = make_game([("C1", card, side, "9J10", 1), ("P1", leg, side, "9J10", 1),
                   ("P2", leg, side, "9J10", 1), ("F1", gun, enemy, "9J2", 4)], options=ADV)
    c1, p1, f1 = g.state.units["C1"], g.state.units["P1"], g.state.units["F1"]
    p2 = g.state.units["P2"]
    c1.state["order"] = p1.state["order"] = p2.state["order"] = "M"
    f1.state["order"] = "F"
    transport.load(g, c1, p1)
    c1.state["open"] = open_
    on_the_ground = gp_fire.gp_defense(g, f1, p2, True)
    data(g)["wrecks"] = {"9J10": "normal"}
    assert gp_fire.gp_defense(g, f1, p2, True) == on_the_ground + 1
    g.dice.force(*dice_faces(50))
    shot = gp_fire.resolve(g, f1, c1, overwatch=False, target_moving=None)
    assert shot is not None
    report = [e for e in g.log.for_side(None) if e.get("what") == "GP point effect fire"][-1]
    carried = report.get("passengers", [])
    if defense is None:
        assert carried == []
        return
    assert [(p["unit"], p["gp_defense"]) for p in carried] == [("P1", defense)]
    n, s, _src = load_advanced().gp_thresholds(shot.factor, defense)
    assert (carried[0]["n"], carried[0]["s"]) == (n, s)
    # the one roll: the passenger's result is that roll with the shot's non-vehicle modifiers
    net_legs = sum(m.value for m in shot.modifiers if "MBT 14.4.2.2." not in m.rule)
    assert carried[0]["result"] == gp_fire.outcome(report["roll"] + net_legs, n, s)


# -- MBT-101: stacking points (MBT 12.2.1) ----------------------------------------------------------


def test_mbt_101_t80a_is_two_points_and_a_wreck_marker_two_whatever_it_holds(
        make_game: Any) -> None:
    """MBT-101 (MBT 12.2.1): a T-80A is 2 stacking points; a wreck marker is 2, burning or not,
    however many wrecks it stands for."""
    g = make_game([("S1", "T-80A", "Soviet", "9J10", 1), ("S2", "T-80A", "Soviet", "9J10", 1),
                   ("S3", "T-80A", "Soviet", "9J10", 1), ("S4", "T-80A", "Soviet", "9J10", 1)],
                  options=ADV)
    h = g.board.parse("9J10")
    assert stacking_points(g, h) == 8
    destroy(g, g.state.units["S1"], "KO")
    assert stacking_points(g, h) == 3 * 2 + 2
    destroy(g, g.state.units["S2"], "KO")  # two wrecks, one marker (MBT 7.4.7.3)
    assert stacking_points(g, h) == 2 * 2 + 2
    destroy(g, g.state.units["S3"], "BU")  # the marker burns: still 2
    assert data(g)["wrecks"] == {"9J10": "burning"}
    assert stacking_points(g, h) == 2 + 2


# -- MBT-113: a missile whose firer is destroyed before impact (MBT 14.2.2) -----------------------


@pytest.mark.parametrize("how", ["KO", "BU"])
def test_mbt_113_missile_misses_when_its_firer_is_destroyed_before_impact(
        make_game: Any, run: Any, how: str) -> None:
    """MBT-113 (MBT 14.2.2, the Advanced Game's replacement for MBT 7.2.2.1): a missile announced at
    a target that is going to move waits for the move; its firer knocked out or brewed up in the
    meantime makes it an automatic miss, and no AP shot is resolved."""
    g = make_game([("S1", "T-80A", "Soviet", "9J1", 4), ("N1", "M1", "NATO", "9J8", 4)],
                  options=ADV)
    s1, n1 = g.state.units["S1"], g.state.units["N1"]
    s1.state["order"], n1.state["order"] = "ATGM", "M"
    run(atgm_announce_phase(g), [{"firer": "S1", "target": "N1"}])
    assert data(g)["atgm"] == [{"firer": "S1", "target": "N1", "initial": "9J8"}]
    destroy(g, s1, how)
    path = [(g.board.parse(f"9J{r}"), 4) for r in range(8, 11)]
    n1.hex = path[-1][0]
    run(missile_race(g, n1, path), lambda d: d.options[0])
    log = g.log.for_side(None)
    misses = [e for e in log if e.get("type") == "result" and e.get("firer") == "S1"
              and "automatic miss" in str(e.get("result"))]
    assert misses and "MBT 14.2.2" in misses[0]["rules"]
    assert not any(e.get("what") == "AP point effect fire" and e.get("firer") == "S1"
                   for e in log if e.get("type") == "result")
    assert n1.state["destroyed"] is None and n1.hex == path[-1][0]


# -- MBT-153: smoke makers' uses (MBT 12.6.2, 15.7.2) ----------------------------------------------


def test_mbt_153_dischargers_once_exhaust_smoke_three_times(make_game: Any) -> None:
    """MBT-153 (MBT 12.6.2, MBT 15.7.2): a vehicle's smoke dischargers work once a game, its
    exhaust smoke generator three times."""
    g = make_game([("S1", "T-80A", "Soviet", "9J10", 1)], options=ADV)
    u = g.state.units["S1"]
    assert smoke.can_discharge(g, u) is None
    smoke.discharge(g, u)
    assert "MBT 12.6.2" in (smoke.can_discharge(g, u) or "")
    for use in range(3):
        assert smoke.can_lay_exhaust(g, u) is None, use
        smoke.lay_smoke(g, u, [f"9J{9 - use}"])
    assert u.state["ex_used"] == 3
    assert "MBT 15.7.2" in (smoke.can_lay_exhaust(g, u) or "")


# -- MBT-158: the Advanced Adjust Markers Step (MBT 12.3.4, 16.3) ----------------------------------


def test_mbt_158_adjust_markers_and_a_second_suppression(make_game: Any, run: Any,
                                                        pass_all: Any) -> None:
    """MBT-158 (MBT 12.3.4, MBT 16.3.1-16.3.2): suppressed (OFF) suppressed again is ON; in the
    Adjust Markers Step ON turns OFF and OFF goes, smoke ON turns OFF and OFF goes, smoke (DS) and
    temporary suppression go."""
    g = make_game([("S1", "T-80A", "Soviet", "9J10", 1), ("S2", "T-80A", "Soviet", "9J12", 1),
                   ("S3", "T-80A", "Soviet", "9J14", 1)], options=ADV)
    s1, s2, s3 = (g.state.units[i] for i in ("S1", "S2", "S3"))
    suppression.suppress(g, s1, "test")
    s2.state["temp_sup"] = True
    smoke.discharge(g, s3)
    data(g)["smoke"] = {"9J5": "ON", "9J6": "OFF"}
    run(advanced_markers_phase(g), pass_all)
    assert s1.state["suppressed"] == "OFF" and suppression.suppressed(s1)
    assert not s2.state["temp_sup"]
    assert data(g)["smoke_ds"] == {} and not smoke.covered(g, s3)
    assert data(g)["smoke"] == {"9J5": "OFF"}
    suppression.suppress(g, s1, "test")  # MBT 12.3.4
    assert s1.state["suppressed"] == "ON"
    run(advanced_markers_phase(g), pass_all)
    assert s1.state["suppressed"] == "OFF" and data(g)["smoke"] == {}
    run(advanced_markers_phase(g), pass_all)
    assert s1.state["suppressed"] is None and not suppression.suppressed(s1)


# -- MBT-62: non-penetrating hits on an open vehicle (MBT 14.3.3.4.1) ------------------------------


@pytest.mark.parametrize(("location", "is_open", "effect"), [
    ("TT", True, "crew_loss"), ("HD", True, "crew_loss"), ("HF", True, "none"),
    ("TT", False, "none"), ("HD", False, "none")])
def test_mbt_62_non_penetrating_tt_or_hd_hit_on_an_open_vehicle(
        make_game: Any, location: str, is_open: bool, effect: str) -> None:
    """MBT-62 (MBT 14.3.3.4.1): a hit that fails to penetrate at TT or at HD (the rule names both;
    the other test of MBT-62 takes TT only) costs an open vehicle one crew loss, a buttoned one
    nothing; elsewhere (HF) no crew loss. The machinegun part (MBT 14.3.3.4.2) is not here."""
    from hexwar.plugins.mbt.advanced_fire import step_open_crew_hit
    from hexwar.plugins.mbt.ap_fire import (
        FireContext,
        HitResult,
        ShotResult,
        step_armor,
        step_penetration,
    )

    g = make_game([("S1", "T-80A", "Soviet", "9J1", 4), ("N1", "M1", "NATO", "9J5", 1)],
                  options=ADV)
    t = g.state.units["N1"]
    t.state["open"] = is_open
    shot = ShotResult(situation(g, g.state.units["S1"], "125mm", "APFSDS", t))
    hit = HitResult(n=1, angle="Above" if location in ("TT", "HD") else "Front", location=location)
    fc = FireContext(ctx(g).charts, g.dice)
    step_armor(fc, shot, hit)
    assert hit.armor is not None
    hit.armor = 999  # a hit that cannot penetrate
    step_open_crew_hit(fc, shot, hit)
    step_penetration(fc, shot, hit)
    assert hit.effect == effect
    assert ("MBT 14.3.3.4.1" in hit.rules) == (effect == "crew_loss")
