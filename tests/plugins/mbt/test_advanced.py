"""The MBT Advanced Game (MBT 10.0-16.0), plugin ``mbt.advanced``: each rule implemented, the
worked examples it can compute (tests named MBT-n), bad input, and a whole game."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from hexwar.core.testing import make_game as core_make_game
from hexwar.plugins.mbt import advanced_sighting as adv
from hexwar.plugins.mbt import smoke, suppression
from hexwar.plugins.mbt.advanced_adjustment import advanced_markers_phase, turret_phase
from hexwar.plugins.mbt.advanced_fire import (
    ap_modifiers,
    atgm_announce_phase,
    missile_race,
)
from hexwar.plugins.mbt.advanced_orders import advanced_validator
from hexwar.plugins.mbt.advanced_sighting import chart_verdict, hex_heights, line_of_sight
from hexwar.plugins.mbt.advanced_tables import load_advanced
from hexwar.plugins.mbt.ai import MbtAI
from hexwar.plugins.mbt.ap_fire import FireContext, HitResult, ShotResult, step_hit_location
from hexwar.plugins.mbt.fire import apply_effects, situation
from hexwar.plugins.mbt.movement import movement_allowance
from hexwar.plugins.mbt.sighting import sees
from hexwar.plugins.mbt.state import ctx, data

ADV = ["mbt.advanced"]


# -- MBT 11.0: the Advanced sequence and the mode switch ------------------------------------------


def test_advanced_sequence_of_play_mbt_11_0(make_game: Any) -> None:
    """MBT 11.0: the Advanced sequence replaces the Basic one when mbt.advanced is on; the Basic
    Game keeps MBT 3.0 exactly."""
    g = make_game([("N1", "M1", "NATO", "9A1", 4)], options=ADV)
    assert [p.name for p in g.sequence] == [
        "mbt.setup", "mbt.initiative", "mbt.sighting", "mbt.orders", "mbt.close_assault",
        "mbt.direct_fire", "mbt.atgm_announce", "mbt.overwatch_fire", "mbt.movement",
        "mbt.overrun", "mbt.pivot", "mbt.turrets", "mbt.markers", "mbt.end_turn"]
    rules = {p.name: p.rule for p in g.sequence}
    assert rules["mbt.close_assault"] == "MBT 11.3.1" and rules["mbt.overrun"] == "MBT 11.4.2"
    basic = make_game([("N1", "M1", "NATO", "9A1", 4)])
    assert [p.name for p in basic.sequence] == [
        "mbt.setup", "mbt.initiative", "mbt.sighting", "mbt.orders", "mbt.direct_fire",
        "mbt.atgm_announce", "mbt.overwatch_fire", "mbt.movement", "mbt.atgm_resolution",
        "mbt.pivot", "mbt.turrets", "mbt.markers", "mbt.end_turn"]


def test_scenario_turns_the_advanced_game_on_with_its_rules_list() -> None:
    """MBTD-50: a scenario says rules = ["mbt.advanced"]."""
    g = core_make_game("mbt:advanced-a", seed=1)
    assert "mbt.advanced" in g.rules_enabled
    assert any(p.name == "mbt.overrun" for p in g.sequence)


@pytest.mark.slow
def test_ai_plays_the_advanced_scenario_to_a_real_end() -> None:
    """A built-in Advanced scenario, AI against AI, to its last Turn or an automatic victory, the
    same way twice; every Advanced step ran each Turn."""
    g = core_make_game("mbt:advanced-a", seed=2)
    result = g.play({"NATO": MbtAI("NATO", 2), "Soviet": MbtAI("Soviet", 2)})
    assert g.over and result.level in ("victory", "tie", "automatic victory")
    assert g.state.turn == 12 or result.level == "automatic victory"
    phases = [e["phase"] for e in g.log.for_side(None) if e.get("type") == "phase"]
    full = g.state.turn - (result.level == "automatic victory")  # the last Turn may stop early
    assert phases.count("mbt.close_assault") >= full
    assert phases.count("mbt.overrun") >= full
    assert "mbt.atgm_resolution" not in phases  # MBT 15.0
    g2 = core_make_game("mbt:advanced-a", seed=2)
    g2.play({"NATO": MbtAI("NATO", 2), "Soviet": MbtAI("Soviet", 2)})
    assert [d["hash"] for d in g.decisions] == [d["hash"] for d in g2.decisions]


# -- MBT 13.2: line of sight and hull down --------------------------------------------------------


def _line(make_game: Any, heights: dict[str, int], terrain: dict[str, str] | None = None,
          far: str = "9J3") -> Any:
    return make_game([("N1", "M1", "NATO", "9J1", 4), ("S1", "T-80A", "Soviet", far, 1)],
                     options=ADV, heights=heights, terrain=terrain or {})


def test_mbt_28_obstacle_equal_to_one_end_and_higher_than_the_other_blocks(make_game: Any) -> None:
    """MBT-28 (MBT 13.2.1.2): A at +2, C at +1, woods B between them of total height +2."""
    g = _line(make_game, {"9J1": 2, "9J3": 1}, {"9J2": "woods"})  # trees 2 (stand-in)
    a, b, c = (g.board.parse(x) for x in ("9J1", "9J2", "9J3"))
    assert hex_heights(g, b) == (0, 2)
    s = line_of_sight(g, a, 2, c, 1)
    assert not s.clear and s.rule == "MBT 13.2.1.2"


@pytest.mark.parametrize(("obstacle", "ends", "rule", "clear"), [
    (3, (2, 1), "MBT 13.2.1.1", False), (1, (2, 1), "MBT 13.2.1.3", True),
    (0, (1, 1), "MBT 13.2.1.3", True)])
def test_mbt_29_higher_than_both_blocks_lower_than_both_is_clear(
        make_game: Any, obstacle: int, ends: tuple[int, int], rule: str, clear: bool) -> None:
    """MBT-29 (MBT 13.2.1.1, 13.2.1.3)."""
    g = _line(make_game, {"9J1": ends[0], "9J2": obstacle, "9J3": ends[1]})
    s = line_of_sight(g, g.board.parse("9J1"), ends[0], g.board.parse("9J3"), ends[1])
    assert (s.clear, s.rule) == (clear, rule)


def test_mbt_30_line_of_sight_chart_lookup_13_2_1_4() -> None:
    """MBT-30 (MBT 13.2.1.4.1-13.2.1.4.2): column 5, range 14 is line 4 "12-15-15"; column 4 on
    it is "10-12-12": an obstacle 12 hexes from the higher end is clear, 13 blocks."""
    numbers, line = load_advanced().los_cell(5, 14, 4)
    assert (line.line, line.low, line.high) == (4, 12, 15)
    assert numbers == (10, 12, 12)
    assert line.source == "MBT 13.2.1.4.1"
    assert chart_verdict(numbers, 12)[0] is True
    assert chart_verdict(numbers, 13)[0] is False


@pytest.mark.parametrize(("hill", "clear"), [("9J13", True), ("9J14", False)])
def test_mbt_30_in_a_game_viewer_6_target_1_obstacle_2(make_game: Any, hill: str,
                                                       clear: bool) -> None:
    """MBT-30 on a map: viewer at +6, target at +1, 14 hexes apart, a +2 hill between them 12
    hexes from the viewer (clear) or 13 (blocked)."""
    g = _line(make_game, {"9J1": 6, "9J15": 1, hill: 2}, far="9J15")
    s = line_of_sight(g, g.board.parse("9J1"), 6, g.board.parse("9J15"), 1)
    assert s.clear is clear


def test_mbt_31_hull_down_at_the_edge_of_the_chart(make_game: Any) -> None:
    """MBT-31 (MBT 13.2.2.2): the same case: obstacle at 12 is clear and hull down; at 11 not."""
    assert chart_verdict((10, 12, 12), 12) == (True, True)
    assert chart_verdict((10, 12, 12), 11) == (True, False)
    g = _line(make_game, {"9J1": 6, "9J15": 1, "9J13": 2}, far="9J15")
    n1, s1 = g.state.units["N1"], g.state.units["S1"]
    s = line_of_sight(g, g.board.parse("9J1"), 6, g.board.parse("9J15"), 1)
    assert s.clear and s.hull_down
    assert adv.hull_down(g, n1, s1) == (True, "MBT 13.2.2.2")


def test_mbt_32_cell_22_29_31() -> None:
    """MBT-32 (MBT 13.2.2.2): 29-31 hull down, 28 clear, 32 blocked, fewer numbers never."""
    cell = (22, 29, 31)
    assert [chart_verdict(cell, d) for d in (28, 29, 30, 31, 32)] == [
        (True, False), (True, True), (True, True), (True, True), (False, False)]
    assert chart_verdict((29, 31), 30) == (True, False)


def test_mbt_33_automatic_hull_down(make_game: Any) -> None:
    """MBT-33 (MBT 13.2.2.1.1-13.2.2.1.2): adjacent higher firer; improved position."""
    g = make_game([("N1", "M1", "NATO", "9J1", 4), ("S1", "T-80A", "Soviet", "9J2", 1),
                   ("S2", "T-80A", "Soviet", "9L5", 1)], options=ADV, heights={"9J1": 1},
                  terrain={"9L5": "improved_position"})
    n1, s1, s2 = (g.state.units[x] for x in ("N1", "S1", "S2"))
    assert adv.hull_down(g, n1, s1) == (True, "MBT 13.2.2.1.1")
    assert adv.hull_down(g, s1, n1) == (False, "")  # the lower firer: not automatic
    assert adv.hull_down(g, n1, s2) == (True, "MBT 13.2.2.1.2")


class _Dice:
    def __init__(self, *rolls: int) -> None:
        self.rolls = list(rolls)

    def d100(self, purpose: str) -> int:
        return self.rolls.pop(0)


@pytest.mark.parametrize(("terrain", "location"), [("improved_position", None), ("clear", "HF")])
def test_mbt_34_hull_down_turns_a_starred_location_into_a_miss(make_game: Any, terrain: str,
                                                               location: str | None) -> None:
    """MBT-34 (MBT 13.2.2.3): Front hit on an M1, location roll 63 = HF*: a miss when the M1 is
    hull down (here: in an improved position, MBT 13.2.2.1.2), HF when it is not."""
    g = make_game([("S1", "T-80A", "Soviet", "9J1", 4), ("N1", "M1", "NATO", "9J5", 1)],
                  options=ADV, terrain={"9J5": terrain})
    f, t = g.state.units["S1"], g.state.units["N1"]
    s = situation(g, f, "125mm", "APFSDS", t)
    assert s.hull_down is (location is None)
    hit = HitResult(n=1, angle="Front")
    step_hit_location(FireContext(ctx(g).charts, _Dice(63)), ShotResult(s), hit)
    if location is None:
        assert hit.done and hit.effect == "none" and "MBT 13.2.2.3" in hit.rules
    else:
        assert hit.location == location


def test_mbt_35_trees_on_a_hill(make_game: Any) -> None:
    """MBT-35 (MBT 12.1.2): +3 trees on a +2 hill: a unit there sits at +2, a line through the hex
    meets +5 (the scenario gives the trees' height, MBT 10.2.2)."""
    g = make_game([("N1", "M1", "NATO", "9J1", 4)], options=ADV, special="heights = { woods = 3 }",
                  heights={"9J1": 2}, terrain={"9J1": "woods"})
    assert hex_heights(g, g.board.parse("9J1")) == (2, 5)
    assert adv.unit_height(g, g.state.units["N1"]) == 2


def test_advanced_sighting_uses_heights_not_basic_blocking(make_game: Any) -> None:
    """MBT 13.2 replaces MBT 6.1.4: from a +3 hill over a +2 woods hex, a unit at 0 two hexes off
    is seen in the Advanced Game, though Basic woods always block."""
    units = [("N1", "M1", "NATO", "9J1", 4), ("S1", "T-80A", "Soviet", "9J3", 1)]
    g = make_game(units, options=ADV, terrain={"9J2": "woods"}, heights={"9J1": 3})
    n1, s1 = g.state.units["N1"], g.state.units["S1"]
    s1.state["spotted"] = "FIRED"
    assert sees(g, n1, s1)
    basic = make_game(units, terrain={"9J2": "woods"}, heights={"9J1": 3})
    basic.state.units["S1"].state["spotted"] = "FIRED"
    assert not sees(basic, basic.state.units["N1"], basic.state.units["S1"])


def test_sighting_conditions_13_1_1(make_game: Any) -> None:
    """MBT 13.1.1: the scenario's conditions pick the chart's line."""
    g = make_game([("N1", "M1", "NATO", "9J1", 4), ("S1", "T-80A", "Soviet", "9J12", 1)],
                  options=ADV, special='conditions = "Night"')
    night = ctx(g).charts.sighting_range("Open", "clear", "VH", "Night")
    day = ctx(g).charts.sighting_range("Open", "clear", "VH", "Day")
    assert night < 11 <= day  # stand-in chart: Night sees less than 11 hexes in the open
    assert not sees(g, g.state.units["N1"], g.state.units["S1"])


# -- MBT 12.3: suppression ------------------------------------------------------------------------


def test_mbt_23_suppressed_vehicle_sights_only_its_turret_arc(make_game: Any) -> None:
    """MBT-23 (MBT 12.3.1)."""
    g = make_game([("N1", "M1", "NATO", "9J5", 1), ("S1", "T-80A", "Soviet", "9J8", 1)],
                  options=ADV)
    n1, s1 = g.state.units["N1"], g.state.units["S1"]
    n1.state["turret"] = 1
    assert sees(g, n1, s1)
    suppression.suppress(g, n1, "test")
    assert not sees(g, n1, s1)
    n1.state["turret"] = 4
    assert sees(g, n1, s1)


def test_mbt_89_suppressed_movement_factors(make_game: Any) -> None:
    """MBT-89 (MBT 8.2, 12.3.3.1): T-80A MF 6; suppressed with M 3, with FM 1 1/2."""
    g = make_game([("S1", "T-80A", "Soviet", "9J5", 1)], options=ADV)
    u = g.state.units["S1"]
    u.state["order"] = "M"
    assert movement_allowance(g, u) == 6
    suppression.suppress(g, u, "test")
    assert movement_allowance(g, u) == 3
    u.state["order"] = "FM"
    assert movement_allowance(g, u) == Fraction(3, 2)


def test_suppression_markers_16_3_and_12_3_4(make_game: Any, run: Any, pass_all: Any) -> None:
    """MBT-158 (MBT 16.3.1-16.3.2): ON turns OFF at the end of the Turn, OFF goes at the end of the
    next; MBT 12.3.4: a new suppression replaces OFF with ON. (MBT-158's smoke, DS and temporary
    markers: test_exhaust_smoke_15_7, test_discharger_smoke_12_6, test_temporary_suppression_12_3_5.)"""
    g = make_game([("S1", "T-80A", "Soviet", "9J5", 1)], options=ADV)
    u = g.state.units["S1"]
    suppression.suppress(g, u, "test")
    run(advanced_markers_phase(g), pass_all)
    assert u.state["suppressed"] == "OFF" and suppression.suppressed(u)
    suppression.suppress(g, u, "test")
    assert u.state["suppressed"] == "ON"
    run(advanced_markers_phase(g), pass_all)
    run(advanced_markers_phase(g), pass_all)
    assert u.state["suppressed"] is None and not suppression.suppressed(u)


def test_firer_suppressed_and_crew_loss_modifiers_14_3_1_1(make_game: Any) -> None:
    """MBT 14.3.1.1.2: -10 for a suppressed firer; MBT 14.3.1.1.4: -4 per crew loss."""
    g = make_game([("S1", "T-80A", "Soviet", "9J1", 4), ("N1", "M1", "NATO", "9J5", 1)],
                  options=ADV)
    f, t = g.state.units["S1"], g.state.units["N1"]
    s = situation(g, f, "125mm", "APFSDS", t)
    assert ap_modifiers(g, s, f, t) == []
    suppression.suppress(g, f, "test")
    f.state["crew_losses"] = 2
    got = {m.rule.split(" [")[0]: m.value for m in ap_modifiers(g, s, f, t)}
    assert got == {"MBT 14.3.1.1.2": -10, "MBT 14.3.1.1.4": -8}


# -- MBT 14.3.3, 14.8: damage effects -------------------------------------------------------------


def test_mbt_63_compartment_hit_suppresses_and_costs_a_crew_loss(make_game: Any) -> None:
    """MBT-63 (MBT 14.3.3.1)."""
    g = make_game([("S1", "T-80A", "Soviet", "9J5", 1)], options=ADV)
    u = g.state.units["S1"]
    apply_effects(g, u, ["turret_compartment"])
    assert u.state["suppressed"] == "ON" and u.state["crew_losses"] == 1


def test_mbt_63_not_in_the_basic_game(make_game: Any) -> None:
    g = make_game([("S1", "T-80A", "Soviet", "9J5", 1)])
    u = g.state.units["S1"]
    apply_effects(g, u, ["turret_compartment"])
    assert not u.state.get("suppressed") and not u.state.get("crew_losses")


def test_mbt_64_brew_up_suppresses_the_hex(make_game: Any) -> None:
    """MBT-64 (MBT 14.3.3.3): every other unit in the hex, of either side."""
    g = make_game([("S1", "T-80A", "Soviet", "9J5", 1), ("S2", "T-80A", "Soviet", "9J5", 1),
                   ("S3", "T-80A", "Soviet", "9J6", 1)], options=ADV)
    apply_effects(g, g.state.units["S1"], ["BU"])
    assert g.state.units["S2"].state["suppressed"] == "ON"
    assert not g.state.units["S3"].state.get("suppressed")


def test_mbt_65_whole_crew_lost_knocks_out(make_game: Any) -> None:
    """MBT-65 (MBT 14.8): crew losses equal to the crew (T-80A: 3) knock the vehicle out."""
    g = make_game([("S1", "T-80A", "Soviet", "9J5", 1)], options=ADV)
    u = g.state.units["S1"]
    u.state["crew_losses"] = 2
    apply_effects(g, u, ["hull_compartment"])
    assert u.state["destroyed"] == "KO" and u.hex is None
    assert data(g)["wrecks"]["9J5"] == "normal"


def test_mbt_68_crowded_hex_is_clear_for_fire(make_game: Any) -> None:
    """MBT-68 (MBT 12.2.2): 11 or more stacking points in a woods hex: terrain modifier as clear
    (five T-80A of 2 points and a wreck of 2: 12); 10 keep the woods."""
    units = [(f"S{i}", "T-80A", "Soviet", "9J5", 1) for i in range(1, 6)]
    g = make_game([("N1", "M1", "NATO", "9J1", 4), *units], options=ADV,
                  terrain={"9J5": "woods"})
    f, t = g.state.units["N1"], g.state.units["S1"]
    assert situation(g, f, "105mm", "APDS", t).target_terrain == ("woods",)
    data(g)["wrecks"]["9J5"] = "normal"
    assert situation(g, f, "105mm", "APDS", t).target_terrain == ("clear",)


# -- MBT 12.7: grade ------------------------------------------------------------------------------


def test_mbt_59_ap_grade_modifiers_14_3_1_3(make_game: Any) -> None:
    """MBT-59 (MBT 14.3.1.3): crack +1 to +5 by range band; poor the same negative."""
    ranges = (5, 6, 10, 11, 15, 16, 20, 21, 25, 26, 40)
    expected = [0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5]
    adv_charts = load_advanced()
    assert [adv_charts.grade_modifier("crack", r).value for r in ranges] == expected
    assert [adv_charts.grade_modifier("poor", r).value for r in ranges] == [-x for x in expected]
    g = make_game([("S1", "T-72M1", "Soviet", "9J1", 4), ("N1", "M1", "NATO", "9J12", 1)],
                  options=ADV)
    f, t = g.state.units["S1"], g.state.units["N1"]  # T-72M1: optical sights only (stand-in)
    f.state["grade"] = "crack"
    s = situation(g, f, "125mm", "APFSDS", t)
    assert [(m.value, m.rule.split(" [")[0]) for m in ap_modifiers(g, s, f, t)] == [
        (2, "MBT 14.3.1.3")]


def test_grade_and_officer_are_checked_in_a_scenario(tmp_path: Any) -> None:
    """MBT 12.7, 12.8.2: a grade or officer the rules do not know is a scenario problem."""
    from pathlib import Path

    from hexwar.core.scenario import Scenario, validate_scenario

    text = Path(core_make_game("mbt:advanced-a").scenario.path).read_text(encoding="utf-8")
    bad = text.replace('grade = "crack", officer = "CO"', 'grade = "elite", officer = "GEN"', 1)
    problems = validate_scenario(Scenario.from_text(bad, path=str(tmp_path / "x.toml")))
    msgs = " ".join(p.message for p in problems)
    assert "MBT 12.7" in msgs and "MBT 12.8.2" in msgs


# -- MBT 12.6: smoke dischargers -------------------------------------------------------------------


def test_discharger_smoke_12_6(make_game: Any, run: Any) -> None:
    """MBT 12.6.1-12.6.3: discharged in the Close Assault Step, once a game, -10 only for shots at
    or from the covered vehicle, gone when it leaves the hex and in the Adjust Markers Step."""
    from hexwar.plugins.mbt.close_assault import close_assault_step

    g = make_game([("S1", "T-80A", "Soviet", "9J1", 4), ("N1", "M1", "NATO", "9J6", 1),
                   ("N2", "M1", "NATO", "9J6", 1)], options=ADV)
    s1, n1, n2 = (g.state.units[x] for x in ("S1", "N1", "N2"))
    _v, asked = run(close_assault_step(g), ["N1", "done", "done"])
    assert [d.kind for d in asked] == ["mbt.smoke", "mbt.smoke", "mbt.smoke"]
    assert smoke.covered(g, n1) and not smoke.covered(g, n2)
    s = situation(g, s1, "125mm", "APFSDS", n1)
    assert [m.value for m in ap_modifiers(g, s, s1, n1)] == [-10]
    s = situation(g, s1, "125mm", "APFSDS", n2)
    assert ap_modifiers(g, s, s1, n2) == []  # the other unit in the hex: no smoke
    assert "once a game" in (smoke.can_discharge(g, n1) or "")
    n1.hex = g.board.parse("9J7")
    assert not smoke.covered(g, n1)
    n1.hex = g.board.parse("9J6")
    run(advanced_markers_phase(g), lambda d: d.options[0])
    assert data(g)["smoke_ds"] == {}


def test_smoke_refused_for_a_used_discharger(make_game: Any, run: Any) -> None:
    """MBT-153 (MBT 12.6.2): dischargers once a game (exhaust smoke's three uses, MBT 15.7.2:
    test_exhaust_smoke_15_7)."""
    from hexwar.plugins.mbt.close_assault import smoke_validator

    g = make_game([("N1", "M1", "NATO", "9J6", 1)], options=ADV)
    g.state.units["N1"].state["ds_used"] = True
    assert "MBT 12.6.2" in (smoke_validator(g)("N1") or "")
    assert "not a unit" in (smoke_validator(g)("X9") or "")


# -- MBT 13.3: orders -----------------------------------------------------------------------------


def test_ca_and_or_orders_refused_with_their_rules(make_game: Any) -> None:
    """MBT 13.3: CA is for leg units; OR needs a sighted enemy leg or towed unit (MBT 14.7.1.2)."""
    g = make_game([("N1", "M1", "NATO", "9J6", 1)], options=ADV)
    u = g.state.units["N1"]
    v = advanced_validator(g, u)
    assert "MBT 13.3" in (v("CA") or "")
    assert "MBT 14.7.1.2" in (v("OR") or "")
    assert "13.3" in (v("XX") or "")


def test_bad_order_in_a_game_changes_nothing() -> None:
    g = core_make_game("mbt:advanced-a", seed=4)
    ai = {s: MbtAI(s, 4) for s in ("NATO", "Soviet")}
    while g.pending is not None and g.pending.kind != "mbt.order":
        g.answer(ai[g.pending.side].choose(g.pending, g.view(g.pending.side)))
    before = g.state.digest()
    from hexwar.core.errors import RulesError

    with pytest.raises(RulesError, match=r"MBT 13\.3"):
        g.answer("CA")
    assert g.state.digest() == before


# -- MBT 16.2: turrets ----------------------------------------------------------------------------


def test_turret_compartment_hit_forces_the_turret_open_16_2(make_game: Any, run: Any) -> None:
    g = make_game([("N1", "M1", "NATO", "9J6", 1)], options=ADV)
    u = g.state.units["N1"]
    u.state["damage"]["compartment"] = "turret"
    _v, asked = run(turret_phase(g), lambda d: d.options[0])
    assert asked and all(o[1] == "open" for o in asked[0].options)
    assert asked[0].rule == "MBT 16.2"


# -- MBT 14.2.2: missiles --------------------------------------------------------------------------


def test_missile_at_a_non_mover_resolves_at_once_14_2_2_1(make_game: Any, run: Any) -> None:
    g = make_game([("S1", "T-80A", "Soviet", "9J1", 4), ("N1", "M1", "NATO", "9J8", 1)],
                  options=ADV)
    s1, n1 = g.state.units["S1"], g.state.units["N1"]
    s1.state["order"], n1.state["order"] = "ATGM", "F"
    data(g)["sighted"] = {"S1": ["N1"]}
    run(atgm_announce_phase(g), [{"firer": "S1", "target": "N1"}])
    assert data(g)["atgm"] == []
    assert any(e.get("type") == "result" and e.get("firer") == "S1"
               for e in g.log.for_side(None))


def test_missile_at_a_mover_waits_and_races_14_2_2_2(make_game: Any, run: Any) -> None:
    """MBT 14.2.2.2: announced at a unit with M orders, the shot waits; after the move the
    missile (T-80A Songster: speeds by the hexes entered, MBT 14.2.2.2.3) catches the target at
    the hex the race gives."""
    g = make_game([("S1", "T-80A", "Soviet", "9J1", 4), ("N1", "M1", "NATO", "9J8", 4)],
                  options=ADV)
    s1, n1 = g.state.units["S1"], g.state.units["N1"]
    s1.state["order"], n1.state["order"] = "ATGM", "M"
    run(atgm_announce_phase(g), [{"firer": "S1", "target": "N1"}])
    assert data(g)["atgm"] == [{"firer": "S1", "target": "N1", "initial": "9J8"}]
    speeds = ctx(g).cards["T-80A"].missiles[0].speeds
    path = [(g.board.parse(f"9J{r}"), 4) for r in range(8, 14)]  # 5 hexes entered: the 4+ column
    n1.hex = path[-1][0]
    run(missile_race(g, n1, path), lambda d: d.options[0])
    race = [e for e in g.log.for_side(None) if e.get("type") == "atgm_race"]
    assert race and race[0]["speed"] == speeds["4+"] and race[0]["entered"] == 5
    # the missile flies speed hexes per hex the target moves, from 7 hexes away
    flown, pos = 0, 0
    while True:
        flown += speeds["4+"]
        if flown >= 7 + pos or pos == 5:
            break
        pos += 1
    assert race[0]["at"] == f"9J{8 + pos}"
    assert data(g)["atgm"] == []


@pytest.mark.parametrize(("entered", "speed"), [(3, 24), (4, 12)])
def test_mbt_112_songster_speed_by_hexes_moved_14_2_2_2_3(make_game: Any, run: Any,
                                                          entered: int, speed: int) -> None:
    """MBT-112 (MBT 14.2.2.2.3): a T-80A's Songster flies at 24 against a target that moves 3
    hexes and at 12 against one that moves 4."""
    g = make_game([("S1", "T-80A", "Soviet", "9J1", 4), ("N1", "M1", "NATO", "9J8", 4)],
                  options=ADV)
    s1, n1 = g.state.units["S1"], g.state.units["N1"]
    s1.state["order"], n1.state["order"] = "ATGM", "M"
    run(atgm_announce_phase(g), [{"firer": "S1", "target": "N1"}])
    path = [(g.board.parse(f"9J{r}"), 4) for r in range(8, 9 + entered)]
    n1.hex = path[-1][0]
    run(missile_race(g, n1, path), lambda d: d.options[0])
    race = [e for e in g.log.for_side(None) if e.get("type") == "atgm_race"]
    assert race and (race[0]["entered"], race[0]["speed"]) == (entered, speed)


def test_mbt_115_missile_race_impact_at_the_first_new_hex_14_2_2_2(make_game: Any, run: Any) -> None:
    """MBT-115 (MBT 14.2.2.2, MBTD-55's race): speed 12, target 14 hexes away moving 5 hexes
    straight away: 12 < 14, the target steps to 15; 24 >= 15, the missile strikes it in the first
    hex it entered."""
    g = make_game([("S1", "T-80A", "Soviet", "9J1", 4), ("N1", "M1", "NATO", "9J15", 4)],
                  options=ADV)
    s1, n1 = g.state.units["S1"], g.state.units["N1"]
    s1.state["order"], n1.state["order"] = "ATGM", "M"
    run(atgm_announce_phase(g), [{"firer": "S1", "target": "N1"}])
    path = [(g.board.parse(f"9J{r}"), 4) for r in range(15, 21)]
    n1.hex = path[-1][0]
    run(missile_race(g, n1, path), lambda d: d.options[0])
    race = [e for e in g.log.for_side(None) if e.get("type") == "atgm_race"]
    assert race and (race[0]["speed"], race[0]["at"]) == (12, "9J16")


# -- MBT 15.7, 12.9, 14.3.1.1.1: exhaust smoke and smoke markers -----------------------------------


def test_exhaust_smoke_15_7(make_game: Any, run: Any) -> None:
    """MBT 15.7.3: tracks are continuous runs of the hexes left (start hex included, final hex
    not); MBT 15.7.2: three uses a game; MBT 16.3: ON turns OFF, OFF goes."""
    from hexwar.plugins.mbt.advanced_movement import exhaust_smoke

    assert smoke.exhaust_tracks(["a", "b", "c"]) == [
        ["a"], ["a", "b"], ["a", "b", "c"], ["b"], ["b", "c"], ["c"]]
    g = make_game([("S1", "T-72M1", "Soviet", "9J4", 4)], options=ADV)
    u = g.state.units["S1"]
    u.state["trail"] = [["9J1", None], ["9J2", None], ["9J3", None]]
    _v, asked = run(exhaust_smoke(g, u, g.board.parse("9J1"), 0), [["9J2", "9J3"]])
    assert asked[0].kind == "mbt.exhaust" and ["9J1", "9J2", "9J3"] in asked[0].options
    assert ["9J4"] not in asked[0].options  # not the final hex
    assert data(g)["smoke"] == {"9J2": "ON", "9J3": "ON"}
    run(advanced_markers_phase(g), lambda d: d.options[0])
    assert data(g)["smoke"] == {"9J2": "OFF", "9J3": "OFF"}
    run(advanced_markers_phase(g), lambda d: d.options[0])
    assert data(g)["smoke"] == {}
    u.state["ex_used"] = 3
    assert "MBT 15.7.2" in (smoke.can_lay_exhaust(g, u) or "")
    leo = make_game([("N1", "Leopard 2", "NATO", "9J4", 4)], options=ADV)
    assert "MBT 15.7" in (smoke.can_lay_exhaust(leo, leo.state.units["N1"]) or "")


def test_smoke_on_the_line_14_3_1_1_1(make_game: Any) -> None:
    """MBT 14.3.1.1.1: -10 for each smoke hex the line leaves, enters or passes through; smoke
    never blocks the line (MBT 13.2.1); MBT 12.9.3: one marker per hex."""
    g = make_game([("S1", "T-72M1", "Soviet", "9J1", 4), ("N1", "M1", "NATO", "9J8", 1)],
                  options=ADV)
    f, t = g.state.units["S1"], g.state.units["N1"]
    data(g)["smoke"] = {"9J3": "ON", "9J5": "OFF"}
    s = situation(g, f, "125mm", "APFSDS", t)
    got = {m.rule.split(" [")[0]: m.value for m in ap_modifiers(g, s, f, t)}
    assert got["MBT 14.3.1.1.1"] == -20
    t.state["spotted"] = "FIRED"
    assert sees(g, f, t)
    data(g)["smoke"] = {"9J8": "ON"}  # the target's own hex: the line enters it
    got = {m.rule.split(" [")[0]: m.value for m in ap_modifiers(g, s, f, t)}
    assert got["MBT 14.3.1.1.1"] == -10


def test_mbt_60_sight_modifiers_14_3_2(make_game: Any) -> None:
    """MBT-60 (MBT 14.3.2): L at 5, 6, 11, 16, 21, 26, 40: 0, +1..+5, +5; S at 5, 6, 15, 16, 25,
    26: 0, +1, +1, +2, +2, +3; a laser is not used through smoke."""
    adv_charts = load_advanced()

    def val(sight: str, r: int) -> int:
        got = adv_charts.sight_modifier(sight, r)
        return got.value if got else 0

    assert [val("L", r) for r in (5, 6, 11, 16, 21, 26, 40)] == [0, 1, 2, 3, 4, 5, 5]
    assert [val("S", r) for r in (5, 6, 15, 16, 25, 26)] == [0, 1, 1, 2, 2, 3]
    g = make_game([("N1", "M1", "NATO", "9J1", 4), ("S1", "T-72M1", "Soviet", "9J12", 1)],
                  options=ADV)
    f, t = g.state.units["N1"], g.state.units["S1"]  # M1 105mm: L sight (stand-in card)
    s = situation(g, f, "105mm", "APDS", t)
    got = {m.rule.split(" [")[0]: m.value for m in ap_modifiers(g, s, f, t)}
    assert got == {"MBT 14.3.2": 2}
    data(g)["smoke"] = {"9J6": "ON"}
    got = {m.rule.split(" [")[0]: m.value for m in ap_modifiers(g, s, f, t)}
    assert got == {"MBT 14.3.1.1.1": -10}


# -- MBT 12.2: stacking; MBT 13.4: Soviet doctrine ------------------------------------------------


def test_advanced_stacking_12_2(make_game: Any) -> None:
    """MBT 12.2 (replacing MBT 4.3): a move may end in a hex holding a friendly unit."""
    from hexwar.plugins.mbt.movement import destinations

    units = [("N1", "M1", "NATO", "9J5", 4), ("N2", "M1", "NATO", "9J6", 4)]
    adv_game = make_game(units, options=ADV)
    dest = destinations(adv_game, adv_game.state.units["N1"], Fraction(4), False, True)
    assert any(h == adv_game.board.parse("9J6") for h, _f in dest)
    basic = make_game(units)
    dest = destinations(basic, basic.state.units["N1"], Fraction(4), False, True)
    assert not any(h == basic.board.parse("9J6") for h, _f in dest)


def _platoon(make_game: Any) -> Any:
    g = make_game([("101a", "T-72M1", "Soviet", "9J10", 1), ("101b", "T-72M1", "Soviet", "9J10", 1),
                   ("101c", "T-72M1", "Soviet", "9J10", 1), ("N1", "M1", "NATO", "9J4", 4)],
                  options=ADV)
    for i in ("101a", "101b", "101c"):
        g.state.units[i].state["doctrine"] = "101"
    data(g).pop("doctrine", None)
    return g


def test_doctrine_organization_is_public_and_takes_one_order_13_4(make_game: Any, run: Any) -> None:
    """MBT 13.4.2.2: the strength is public; MBT 13.4.3.2: one order for all members."""
    from hexwar.plugins.mbt import doctrine
    from hexwar.plugins.mbt.advanced_orders import orders_phase

    g = _platoon(make_game)
    assert doctrine.organizations(g) == {"101": ["101a", "101b", "101c"]}
    data(g)["sighted"] = {"101a": ["N1"], "101b": ["N1"], "101c": ["N1"], "N1": ["101a"]}
    _v, asked = run(orders_phase(g), lambda d: "F" if "F" in d.options else d.options[0])
    assert sorted(d.context["unit"] for d in asked) == ["101a", "N1"]
    assert [g.state.units[i].state["order"] for i in ("101a", "101b", "101c")] == ["F"] * 3


def test_doctrine_order_partly_impossible_for_a_member_13_4_3_2(make_game: Any, run: Any) -> None:
    """MBT 13.4.3.2: the organization's one order may be one some members cannot carry out (here
    F for a member whose gun is hit): it is offered, accepted and given to every member."""
    from hexwar.plugins.mbt.advanced_orders import orders_phase
    from hexwar.plugins.mbt.orders import legal_orders

    g = _platoon(make_game)
    members = [g.state.units[i] for i in ("101a", "101b", "101c")]
    members[1].state["damage"]["gun"] = True
    members[1].state["mg_lost"] = ["HMG TTO"]  # MBT 14.1.2.1: else its machinegun could fire
    data(g)["sighted"] = {"101a": ["N1"], "101b": ["N1"], "101c": ["N1"], "N1": ["101a"]}
    assert "F" in legal_orders(g, members[0]) and "F" not in legal_orders(g, members[1])
    _v, asked = run(orders_phase(g), lambda d: "F" if "F" in d.options else d.options[0])
    assert "F" in next(d for d in asked if d.context["unit"] == "101a").options
    assert [m.state["order"] for m in members] == ["F"] * 3


def test_doctrine_fires_together_13_4_3_2(make_game: Any) -> None:
    """MBT 13.4.3.2: a declaration is expanded to every member able to fire, with one ammunition;
    naming one sub-unit apart is refused and changes nothing."""
    from hexwar.plugins.mbt.fire import declaration_options, declaration_validator

    g = _platoon(make_game)
    for i in ("101a", "101b", "101c"):
        g.state.units[i].state["order"] = "F"
    n1 = g.state.units["N1"]
    opts = declaration_options(g, "Soviet", [n1], orders=("F", "FM"), overwatch=False)
    assert opts and all(sorted(f for f, _a in o["shots"]) == ["101a", "101b", "101c"]
                        and len({a for _f, a in o["shots"]}) == 1 for o in opts)
    v = declaration_validator(g, "Soviet", orders=("F", "FM"), overwatch=False)
    assert "MBT 13.4.3.2" in (v({"target": "N1", "shots": [["101a", "APFSDS"]]}) or "")
    mixed = {"target": "N1", "shots": [["101a", "APFSDS"], ["101b", "HEAT"], ["101c", "APFSDS"]]}
    assert "same ammunition" in (v(mixed) or "")
    assert v(opts[0]) is None


def test_doctrine_moves_together_and_abandons_stragglers_13_4_2_5(make_game: Any) -> None:
    """MBT 13.4.3.1: the members follow the leader hex by hex; MBT 13.4.2.5: one that cannot
    move is abandoned, takes no more orders, and the strength drops."""
    from hexwar.plugins.mbt import doctrine

    g = _platoon(make_game)
    a, b, c = (g.state.units[i] for i in ("101a", "101b", "101c"))
    c.state["damage"]["track"] = True
    doctrine.before_move(g, a)
    assert c.state["abandoned"] and doctrine.organizations(g)["101"] == ["101a", "101b"]
    a.hex, a.facing = g.board.parse("9J9"), 1
    doctrine.follow(g, a)
    assert (b.hex, b.facing) == (a.hex, 1) and c.hex == g.board.parse("9J10")
    assert not doctrine.is_follower(g, c) and doctrine.members(g, c) == [c]


def test_mbt_176_doctrine_sub_units_and_losses_13_4_2_3(make_game: Any) -> None:
    """MBT-176 (MBT 13.4.2.3-13.4.2.4): organization 101 of strength 3 is 101a, 101b, 101c; each
    loss lowers the strength, and after two the last one acts for itself alone."""
    from hexwar.plugins.mbt import doctrine

    g = _platoon(make_game)
    a, b, c = (g.state.units[i] for i in ("101a", "101b", "101c"))
    assert [m.id for m in doctrine.members(g, c)] == ["101a", "101b", "101c"]
    assert doctrine.is_follower(g, c)
    a.state["destroyed"] = "KO"
    assert [m.id for m in doctrine.members(g, c)] == ["101b", "101c"]
    assert doctrine.leader(g, c) is b
    b.state["destroyed"] = "BU"
    assert doctrine.members(g, c) == [c] and not doctrine.is_follower(g, c)


def test_doctrine_members_set_up_together() -> None:
    """MBT 13.4.3.1 at set-up: in mbt:advanced-a the platoon 101a-101c shares hex, facing, turret."""
    g = core_make_game("mbt:advanced-a", seed=3)
    ai = {s: MbtAI(s, 3) for s in ("NATO", "Soviet")}
    while g.state.turn == 0 and g.pending is not None:
        g.answer(ai[g.pending.side].choose(g.pending, g.view(g.pending.side)))
    ms = [g.state.units[i] for i in ("101a", "101b", "101c")]
    assert ms[0].hex is not None
    assert len({(m.hex, m.facing, m.state["turret"], m.state["open"]) for m in ms}) == 1


def test_doctrine_only_for_soviet_units(tmp_path: Any) -> None:
    from pathlib import Path

    from hexwar.core.scenario import Scenario, validate_scenario

    text = Path(core_make_game("mbt:advanced-a").scenario.path).read_text(encoding="utf-8")
    bad = text.replace('grade = "crack", officer = "CO", organization = "1st platoon"',
                       'grade = "crack", officer = "CO", doctrine = "1"', 1)
    problems = validate_scenario(Scenario.from_text(bad, path=str(tmp_path / "x.toml")))
    assert any("MBT 13.4" in p.message for p in problems)


# -- MBT 12.4: terrain markers; MBT 15.4.5: inside buildings ---------------------------------------


def test_terrain_marker_placement_is_checked_12_4(make_game: Any) -> None:
    """MBT 12.4.3: a block only where a road or path runs; MBT 12.4.5: no improved position in
    water. A bad marker stops the game at set-up with the rule named."""
    from hexwar.core.errors import HexwarError

    with pytest.raises(HexwarError, match=r"MBT 12\.4\.3"):
        make_game([("N1", "M1", "NATO", "9J1", 4)], options=ADV,
                  special='markers = [{ hex = "9J5", kind = "block" }]')
    with pytest.raises(HexwarError, match=r"MBT 12\.4\.5"):
        make_game([("N1", "M1", "NATO", "9J1", 4)], options=ADV, terrain={"9J5": "pond"},
                  special='markers = [{ hex = "9J5", kind = "improved_position" }]')
    g = make_game([("N1", "M1", "NATO", "9J1", 4)], options=ADV, roads=[("9J4", "9J5")],
                  special='markers = [{ hex = "9J5", kind = "block" }]')
    assert data(g)["markers"] == {"9J5": "block"}


def test_block_and_ditch_bar_vehicles_wire_costs_one_and_is_destroyed(make_game: Any) -> None:
    """MBT 12.4.3-12.4.4: no vehicle enters a block or ditch hex; MBT 12.4.6: a tracked vehicle
    pays +1 MF for wire and destroys it on entering."""
    from hexwar.plugins.mbt import markers
    from hexwar.plugins.mbt.movement import destinations

    g = make_game([("N1", "M1", "NATO", "9J3", 4)], options=ADV, roads=[("9I4", "9I5")],
                  special='markers = [{ hex = "9J4", kind = "ditch" }, '
                          '{ hex = "9K4", kind = "wire" }, { hex = "9I4", kind = "block" }]')
    u = g.state.units["N1"]
    dest = destinations(g, u, Fraction(6), False, False)
    hexes = {g.board.label(h) for h, _f in dest}
    assert "9J4" not in hexes and "9I4" not in hexes and "9K4" in hexes
    costs = markers.move_costs(g, u)
    assert costs[g.board.parse("9J4")] is None and costs[g.board.parse("9K4")] == 1
    u.hex = g.board.parse("9K4")
    markers.unit_moved(g, u)
    assert "9K4" not in data(g)["markers"]


def test_improved_position_marker_replaces_the_terrain_12_4_1_2(make_game: Any) -> None:
    """MBT 12.4.1.2: a woods hex with an improved position marker is an improved position for
    fire (-10, MBT 14.3.1.2) and hull down (MBT 13.2.2.1.2)."""
    g = make_game([("S1", "T-72M1", "Soviet", "9J1", 4), ("N1", "M1", "NATO", "9J5", 1)],
                  options=ADV, terrain={"9J5": "woods"},
                  special='markers = [{ hex = "9J5", kind = "improved_position" }]')
    s = situation(g, g.state.units["S1"], "125mm", "APFSDS", g.state.units["N1"])
    assert s.target_terrain == ("improved_position",) and s.hull_down


def test_vehicle_starting_inside_a_building_15_4_5(make_game: Any) -> None:
    """MBT 15.4.5: set up inside; MBT 14.3.1.2: -8 inside buildings, hull down in brick or stone
    (MBT 13.2.2.1.2); leaving the hex leaves the buildings."""
    from hexwar.core.errors import HexwarError
    from hexwar.plugins.mbt import markers

    g = make_game([("S1", "T-72M1", "Soviet", "9J1", 4), ("N1", "M1", "NATO", "9J5", 1)],
                  options=ADV, terrain={"9J5": "brick"})
    n1 = g.state.units["N1"]
    n1.state["inb"] = True
    markers.place_markers(g)
    s = situation(g, g.state.units["S1"], "125mm", "APFSDS", n1)
    assert s.target_terrain == ("inside_building",) and s.hull_down
    n1.hex = g.board.parse("9J6")
    markers.unit_moved(g, n1)
    assert not n1.state["inb"]
    g.state.units["S1"].state["inb"] = True  # S1 is in a clear hex
    with pytest.raises(HexwarError, match=r"MBT 15\.4\.1\.2"):
        markers.place_markers(g)


# -- MBT 14.4: GP point effect fire at vehicles --------------------------------------------------


def test_mbt_69_gp_factor_14_4_1(make_game: Any) -> None:
    """MBT-69 (MBT 14.4.1): T-80A 125mm GP at 18 hexes: 17 not moving, 9 moving."""
    from hexwar.plugins.mbt.gp_fire import gp_factor

    g = make_game([("S1", "T-80A", "Soviet", "9J1", 4)], options=ADV)
    u = g.state.units["S1"]
    assert gp_factor(g, u, "125mm", 18, False) == 17
    assert gp_factor(g, u, "125mm", 18, True) == 9


def test_mbt_72_and_74_gp_defense_and_results_table() -> None:
    """MBT-72 (MBT 14.4.3.1): T-80A GP defense 8. MBT-74 (MBT 14.4.4.1): GP 23 against 5, a
    modified 72 suppresses (stand-in table: N < 72 <= S)."""
    from hexwar.plugins.mbt.cards import load_cards

    assert load_cards()["T-80A"].gp_defense == 8
    n, s, _src = load_advanced().gp_thresholds(23, 5)
    assert n < 72 <= s


def test_mbt_78_gp_grade_14_4_2_4() -> None:
    """MBT-78: crack at 10, 11, 20, 21: 0, +5, +5, +10; poor the same negative."""
    a = load_advanced()
    assert [a.gp_grade_modifier("crack", r).value for r in (10, 11, 20, 21)] == [0, 5, 5, 10]
    assert [a.gp_grade_modifier("poor", r).value for r in (10, 11, 20, 21)] == [0, -5, -5, -10]


def test_gp_grade_acts_in_gp_fire_14_4_2_4(make_game: Any) -> None:
    """MBT 14.4.2.4 (MBT 12.7): the firer's grade reaches a GP shot's modifiers: crack +5 and poor
    -5 at range 11, nothing at range 10 or for an average firer."""
    from hexwar.plugins.mbt.gp_fire import gp_modifiers

    for target_hex, grade, want in (("9J15", "crack", 5), ("9J15", "poor", -5),
                                    ("9J14", "crack", 0), ("9J15", "average", 0)):
        g = make_game([("N1", "M1", "NATO", "9J4", 4), ("S1", "T-80A", "Soviet", target_hex, 1)],
                      options=ADV)
        f, t = g.state.units["N1"], g.state.units["S1"]
        f.state["grade"] = grade
        got = [m.value for m in gp_modifiers(g, f, t, overwatch=False, target_moving=False)
               if m.rule.startswith("MBT 14.4.2.4")]
        assert sum(got) == want, (target_hex, grade, got)


def test_mbt_81_gp_at_a_moving_hull_down_vehicle_in_woods(make_game: Any) -> None:
    """MBT-81 (MBT 14.4.2.2): -10 moving, -20 hull down, -10 woods: -40."""
    from hexwar.plugins.mbt.gp_fire import gp_modifiers

    g = make_game([("N1", "M1", "NATO", "9J4", 4), ("S1", "T-80A", "Soviet", "9J5", 1)],
                  options=ADV, heights={"9J4": 1}, terrain={"9J5": "woods"})
    f, t = g.state.units["N1"], g.state.units["S1"]
    t.state["order"] = "M"
    mods = gp_modifiers(g, f, t, overwatch=False, target_moving=True)
    assert sorted(m.rule.split(" [")[0] for m in mods) == [
        "MBT 14.4.2.2.2", "MBT 14.4.2.2.3", "MBT 14.4.2.2.4"]
    assert sum(m.value for m in mods) == -40


def test_mbt_70_modified_roll_and_mbt_75_effective_results(make_game: Any, dice_faces: Any) -> None:
    """MBT-70 (MBT 14.4.2): the net modifier is added to the roll. MBT-75 (MBT 14.4.4.2.3):
    M1 105mm "EF=KNK OUT if GP DEF=1-5": defense 5 knocked out, 6 not; an effective result on an
    open vehicle is a crew loss and suppression, on a buttoned one suppression."""
    from hexwar.plugins.mbt.gp_fire import explosive_result, resolve

    g = make_game([("N1", "M1", "NATO", "9J4", 4), ("S1", "T-80A", "Soviet", "9J6", 1)],
                  options=ADV)
    f, t = g.state.units["N1"], g.state.units["S1"]
    assert explosive_result(g, f, "105mm", 5) == "KO"
    assert explosive_result(g, f, "105mm", 6) is None
    f.state["grade"] = "average"
    f.state["crew_losses"] = 1  # -10 (MBT 14.4.2.1.2)
    f.state["order"] = "F"
    g.dice.force(*dice_faces(99))
    shot = resolve(g, f, t, overwatch=False, target_moving=False)
    assert shot is not None and shot.net == -10
    report = [e for e in g.log.for_side(None) if e.get("what") == "GP point effect fire"][-1]
    assert report["modified"] == 99 - 10 and report["roll"] == 99
    assert report["modified"] > shot.s  # GP 25 against 8 (stand-in): S is 88
    assert shot.result == "EF" and shot.effects == ["crew_loss", "suppress"]  # the T-80A is open
    t.state["open"] = False
    f.state["crew_losses"] = 0
    g.dice.force(*dice_faces(100))
    shot = resolve(g, f, t, overwatch=False, target_moving=False)
    assert shot is not None
    assert shot.result == "EF" and shot.effects == ["suppress"]


def test_gp_is_an_ammunition_only_in_the_advanced_game(make_game: Any, run: Any,
                                                       dice_faces: Any) -> None:
    """MBT 14.1.1.2: GP is declared as the ammunition; its results wait for the end of a
    simultaneous step (MBT 5.3) and then suppress (MBT 14.4.4.2.2)."""
    from hexwar.plugins.mbt.fire import ammo_options, commit_pending, resolve_shot

    units = [("N1", "M1", "NATO", "9J4", 4), ("S1", "T-80A", "Soviet", "9J6", 1)]
    basic = make_game(units)
    assert "GP" not in ammo_options(basic, basic.state.units["N1"])
    g = make_game(units, options=ADV)
    f, t = g.state.units["N1"], g.state.units["S1"]
    assert "GP" in ammo_options(g, f)
    f.state["order"] = "F"
    t.state["open"] = False
    g.dice.force(*dice_faces(100))
    run(resolve_shot(g, f, t, "GP", overwatch=False, simultaneous=True), lambda d: d.options[0])
    assert t.state["pending"] == ["suppress"] and not suppression.suppressed(t)
    commit_pending(g)
    assert t.state["suppressed"] == "ON"


def test_temporary_suppression_12_3_5(make_game: Any, dice_faces: Any, run: Any) -> None:
    """MBT 14.4.4.2.1: no effect on a unit whose missile is in flight gives temporary
    suppression; MBT 14.3.1.1.5: its missile shot then takes the class modifier."""
    from hexwar.plugins.mbt.gp_fire import resolve

    g = make_game([("N1", "M1", "NATO", "9J4", 4), ("S1", "T-80A", "Soviet", "9J20", 1)],
                  options=ADV)
    f, t = g.state.units["N1"], g.state.units["S1"]
    data(g)["atgm"] = [{"firer": "S1", "target": "N1", "initial": "9J4"}]
    f.state["order"] = "F"
    g.dice.force(*dice_faces(1))
    shot = resolve(g, f, t, overwatch=False, target_moving=False)
    assert shot is not None and shot.result == "N" and shot.effects == ["temp_sup"]
    apply_effects(g, t, shot.effects)
    assert t.state["temp_sup"] and not suppression.suppressed(t)
    weapon = ctx(g).cards["T-80A"].missiles[0]
    s = situation(g, t, weapon.name, "ATGM", f)
    got = {m.rule.split(" [")[0]: m.value for m in ap_modifiers(g, s, t, f)}
    assert got["MBT 14.3.1.1.5"] < 0
    run(advanced_markers_phase(g), lambda d: d.options[0])
    assert not t.state["temp_sup"]  # MBT 16.3.1


@pytest.mark.slow
def test_ai_beats_the_random_player_from_both_sides_in_the_advanced_game() -> None:
    """The AI makes legal Advanced decisions and wins most games against random play, as NATO
    and as the Soviets (fixed seeds: the same games every run)."""
    from hexwar.core.engine.controllers import RandomController

    wins = 0
    for seed, ai_side in ((11, "NATO"), (12, "NATO"), (13, "Soviet"), (14, "Soviet")):
        g = core_make_game("mbt:advanced-a", seed=seed)
        ctl = {s: MbtAI(s, seed) if s == ai_side else RandomController(s, seed)
               for s in ("NATO", "Soviet")}
        result = g.play(ctl)
        wins += result.winner == ai_side
    assert wins >= 3


def test_advanced_events_reach_only_sides_that_see_the_unit() -> None:
    """MBT 6.1, 13.1: suppression, crew losses, smoke laid, missiles raced, stragglers: a side
    hears of them only for its own units and for enemy units it sees at that moment."""
    from hexwar.plugins.mbt.sighting import seen_by_side

    kinds = {"suppressed", "crew_loss", "smoke_discharged", "exhaust_smoke", "atgm_race",
             "abandoned", "wire_destroyed", "atgm_announced"}
    leaks: list[str] = []
    counted: dict[str, int] = {}
    for seed in (1, 2, 3):
        g = core_make_game("mbt:advanced-a", seed=seed)
        real_emit = g.emit

        def emit(type: str, *, visible_to: Any = None, _g: Any = g, _emit: Any = real_emit,
                 **payload: Any) -> None:
            if type in kinds:
                counted[type] = counted.get(type, 0) + 1
                ids = [payload[k] for k in ("unit", "firer", "target") if k in payload]
                for side in (visible_to if visible_to is not None else _g.state.sides):
                    for uid in ids:
                        u = _g.state.units[uid]
                        if u.side != side and not seen_by_side(_g, side, u):
                            leaks.append(f"{side} hears {type} of unseen {uid}")
            _emit(type, visible_to=visible_to, **payload)

        g.emit = emit  # type: ignore[method-assign]
        g.play({s: MbtAI(s, seed) for s in ("NATO", "Soviet")})
    assert counted.get("suppressed") and counted.get("exhaust_smoke")
    assert leaks == []


# -- MBT 14.3.3.4, 14.3.4: non-penetrating hits and reactive armour ------------------------------


def _hit(make_game: Any, ammo: str, location: str, **state: Any) -> tuple[Any, Any, Any]:
    from hexwar.plugins.mbt.ap_fire import step_armor

    g = make_game([("S1", "T-80A", "Soviet", "9J1", 4), ("N1", "M1", "NATO", "9J5", 1)],
                  options=ADV)
    t = g.state.units["N1"]
    t.state.update(state)
    s = situation(g, g.state.units["S1"], "125mm", ammo, t)
    shot = ShotResult(s)
    hit = HitResult(n=1, angle="Above" if location in ("TT", "HD") else "Front", location=location)
    fc = FireContext(ctx(g).charts, _Dice())
    step_armor(fc, shot, hit)
    return fc, shot, hit


def test_mbt_61_reactive_armour_14_3_4(make_game: Any) -> None:
    """MBT-61: CE at TF on heavy reactive armour never penetrates; light adds 80; KE ignores it;
    a CE hit at HF ignores it (only TF, TS, HS)."""
    from hexwar.plugins.mbt.advanced_fire import step_reactive_armor

    fc, shot, hit = _hit(make_game, "HEAT", "TF", reactive="heavy")
    step_reactive_armor(fc, shot, hit)
    assert hit.done and hit.penetrated is False and "MBT 14.3.4.1" in hit.rules
    fc, shot, hit = _hit(make_game, "HEAT", "TF", reactive="light")
    before = hit.armor
    step_reactive_armor(fc, shot, hit)
    assert before is not None and hit.armor == before + 80
    for ammo, loc in (("APFSDS", "TF"), ("HEAT", "HF")):
        fc, shot, hit = _hit(make_game, ammo, loc, reactive="heavy")
        before = hit.armor
        step_reactive_armor(fc, shot, hit)
        assert hit.armor == before and not hit.done


def test_mbt_62_non_penetrating_tt_hit_on_an_open_vehicle_14_3_3_4_1(make_game: Any) -> None:
    """MBT-62: a TT hit that fails to penetrate costs an open vehicle one crew loss; a buttoned
    one nothing."""
    from hexwar.plugins.mbt.advanced_fire import step_open_crew_hit
    from hexwar.plugins.mbt.ap_fire import step_penetration

    fc, shot, hit = _hit(make_game, "APFSDS", "TT", open=True)
    assert hit.armor is not None
    hit.armor = 999  # a hit that cannot penetrate
    step_open_crew_hit(fc, shot, hit)
    step_penetration(fc, shot, hit)
    assert hit.effect == "crew_loss" and hit.done and "MBT 14.3.3.4.1" in hit.rules
    fc, shot, hit = _hit(make_game, "APFSDS", "TT", open=False)
    hit.armor = 999
    step_open_crew_hit(fc, shot, hit)
    assert hit.effect == "none"


def test_advanced_fire_procedure_has_the_advanced_steps(make_game: Any) -> None:
    """The Advanced Game's edits are in the game's fire procedure, the Basic Game's has none."""
    g = make_game([("N1", "M1", "NATO", "9J1", 4)], options=ADV)
    names = list(ctx(g).fire.names)
    assert "reactive_armor" in names and "open_crew_hit" in names
    assert names.index("open_crew_hit") < names.index("penetration")
    basic = make_game([("N1", "M1", "NATO", "9J1", 4)])
    assert "reactive_armor" not in list(ctx(basic).fire.names)


def test_scenario_one_chance_conditions(make_game: Any) -> None:
    """MBT Scenario One B.3: one die for the ground, one for visibility (9: Mud c, 10: Blowing
    Snow); blowing snow reads the chart's Night/Fog/Blowing Snow line (MBT 13.1.1) and stops laser
    sights (MBT 14.3.2)."""
    g = make_game([("N1", "M1", "NATO", "9J1", 4), ("S1", "T-72M1", "Soviet", "9J12", 1)],
                  options=ADV, special='conditions = "chance"')
    assert data(g)["conditions"] in ("Day", "Dusk", "Moonlight", "Night", "Fog", "Blowing Snow")
    del data(g)["conditions"]
    g.dice.force(9, 10)
    adv.roll_chance(g)
    assert (data(g)["ground"], data(g)["conditions"]) == ("Mud c", "Blowing Snow")
    assert adv.condition(g) == "Night"
    f, t = g.state.units["N1"], g.state.units["S1"]
    s = situation(g, f, "105mm", "APDS", t)
    assert not any(m.rule.startswith("MBT 14.3.2") for m in ap_modifiers(g, s, f, t))
    data(g)["conditions"] = "Day"
    assert any(m.rule.startswith("MBT 14.3.2") for m in ap_modifiers(g, s, f, t))


def test_scenario_one_chance_table_every_row() -> None:
    """MBT Scenario One B.3: the whole "Chance" table, ground and visibility by the die."""
    from hexwar.core.tables import TableSet
    from hexwar.plugins.mbt.advanced_tables import ADVANCED

    table = TableSet.load_dir(ADVANCED)["chance"]
    printed = {1: ("Normal", "Day"), 5: ("Normal", "Day"), 6: ("Normal", "Dusk"),
               7: ("Snow a", "Moonlight"), 8: ("Snow b", "Night"), 9: ("Mud c", "Fog"),
               10: ("Mud d", "Blowing Snow")}
    for die, want in printed.items():
        assert (table.value("weather", die=die), table.value("visibility", die=die)) == want


def test_table_side_line_of_sight_is_the_advanced_one(make_game: Any) -> None:
    """``hexwar los`` of an Advanced game explains MBT 13.2.1, not the Basic MBT 6.1.4: from a
    +3 hill over +2 trees to the ground two hexes on is clear; from the ground it is blocked
    (MBT 13.2.1.1)."""
    from hexwar.core.los import line_of_sight as core_los

    units = [("N1", "M1", "NATO", "9J1", 4)]
    g = make_game(units, options=ADV, terrain={"9J2": "woods"}, heights={"9J1": 3})
    assert isinstance(g.los_rules, adv.AdvancedLos)
    a, b = g.board.parse("9J1"), g.board.parse("9J3")
    assert core_los(g.board, a, b, g.los_rules, data=g).clear
    flat = make_game(units, options=ADV, terrain={"9J2": "woods"})
    got = core_los(flat.board, a, b, flat.los_rules, data=flat, exhaustive=True)
    assert not got.clear and got.findings[0].effect.rule == "MBT 13.2.1.1"
    basic = make_game(units, terrain={"9J2": "woods"}, heights={"9J1": 3})
    assert not core_los(basic.board, a, b, basic.los_rules, data=basic).clear


def test_table_side_gp_command() -> None:
    """``hexwar mbt gp``: MBT-81's -40 and the printed steps; a range beyond the GP line exits 2."""
    import json

    from click.testing import CliRunner

    from hexwar.plugins.mbt.cli import mbt_group as cli

    runner = CliRunner()
    got = runner.invoke(cli, ["gp", "M1", "T-80A", "--range", "2", "--woods", "--hull-down",
                              "--target-moving", "--dice", "99", "--json"])
    assert got.exit_code == 0, got.output
    out = json.loads(got.output)
    assert out["net"] == -40 and out["roll"] == 99 and out["modified"] == 59
    assert out["gp_defense"] == 8 and out["result"] in ("N", "S", "EF")
    text = runner.invoke(cli, ["gp", "M1", "T-80A", "--range", "2", "--dice", "100"])
    assert "MBT 14.4.4.1" in text.output and "Effect on an open vehicle" in text.output
    bad = runner.invoke(cli, ["gp", "M1", "T-80A", "--range", "50"])
    assert bad.exit_code == 2 and "MBT 14.4.1" in bad.output


def test_smoke_marker_over_a_burning_wreck_counts_alone_12_9_2(make_game: Any) -> None:
    """MBT 12.9.2: a hex with a burning wreck and a smoke marker gives the other-smoke -10 only,
    not the brew-up -5 as well; a burning wreck alone still gives -5 (MBT 7.4.2.3.3)."""
    g = make_game([("S1", "T-72M1", "Soviet", "9J1", 4), ("N1", "M1", "NATO", "9J8", 1)],
                  options=ADV)
    f, t = g.state.units["S1"], g.state.units["N1"]
    data(g)["wrecks"] = {"9J4": "burning", "9J6": "burning"}
    data(g)["smoke"] = {"9J4": "ON"}
    s = situation(g, f, "125mm", "APFSDS", t)
    assert s.brewup_hexes == 1
    got = {m.rule.split(" [")[0]: m.value for m in ap_modifiers(g, s, f, t)}
    assert got["MBT 14.3.1.1.1"] == -10


# -- leg units (stand-in cards): MBT 12.5, 13.1.2, 14.4.3.2, 14.4.4.2.3.4, 15.1, 16.1 ----------------


def test_mbt_73_leg_gp_defense_14_4_3_2(make_game: Any) -> None:
    """MBT-73 (MBT 14.4.3.2.1): a squad with F orders (NM) in rough: GP defense 4; with a wreck in
    the hex 5 (MBT 14.4.3.2.2)."""
    from hexwar.plugins.mbt.gp_fire import gp_defense

    g = make_game([("N1", "M1", "NATO", "9J1", 4), ("S1", "Motor Rifle Squad", "Soviet", "9J5", 1)],
                  options=ADV, terrain={"9J5": "rough"})
    f, t = g.state.units["N1"], g.state.units["S1"]
    t.state["order"] = "F"
    assert gp_defense(g, f, t, False) == 4
    assert load_advanced().leg_defense[("Motor Rifle Squad", "rough", "NM")].source == \
        "MBT 14.4.3.2.1"
    data(g)["wrecks"] = {"9J5": "normal"}
    assert gp_defense(g, f, t, False) == 5


def test_mbt_77_effective_gp_halves_a_squad_then_eliminates_it(make_game: Any) -> None:
    """MBT-77 (MBT 14.4.4.2.3.4, 12.5): an effective result halves a squad and suppresses it; on a
    half squad it eliminates it, with no wreck."""
    g = make_game([("S1", "Motor Rifle Squad", "Soviet", "9J5", 1)], options=ADV)
    u = g.state.units["S1"]
    apply_effects(g, u, ["leg_ef"])
    assert u.state["half"] and u.state["suppressed"] == "ON" and u.hex is not None
    apply_effects(g, u, ["leg_ef"])
    assert u.state["destroyed"] == "eliminated" and u.hex is None
    assert "9J5" not in data(g)["wrecks"]


def test_ap_fire_only_at_vehicles_14_1_1_2(make_game: Any) -> None:
    from hexwar.plugins.mbt.fire import fire_error

    g = make_game([("N1", "M1", "NATO", "9J1", 4), ("S1", "Motor Rifle Squad", "Soviet", "9J4", 1)],
                  options=ADV)
    f, t = g.state.units["N1"], g.state.units["S1"]
    f.state["order"] = "F"
    t.state["spotted"] = "FIRED"
    assert "MBT 14.1.1.2" in (fire_error(g, f, t, "APFSDS", orders=("F",)) or "")
    assert fire_error(g, f, t, "GP", orders=("F",)) is None


def test_mbt_76_small_arms_against_a_buttoned_vehicle(make_game: Any, dice_faces: Any) -> None:
    """MBT-76 (MBT 14.4.4.2.2.1, 14.4.4.2.3.1): small arms do nothing to a buttoned vehicle beyond
    2 hexes; at 2 hexes they suppress it."""
    from hexwar.plugins.mbt.gp_fire import effects_of, resolve, small_arms

    assert effects_of("EF", target_open=False, explosive=None, missile_in_flight=False,
                      small_arms_far=True) == []
    assert effects_of("S", target_open=False, explosive=None, missile_in_flight=False,
                      small_arms_far=False) == ["suppress"]
    g = make_game([("S1", "Motor Rifle Squad", "Soviet", "9J1", 4), ("N1", "M1", "NATO", "9J3", 1)],
                  options=ADV)
    f, t = g.state.units["S1"], g.state.units["N1"]
    assert small_arms(g, f)
    f.state["order"], t.state["open"] = "F", False
    g.dice.force(*dice_faces(100))
    shot = resolve(g, f, t, overwatch=False, target_moving=False)
    assert shot is not None and shot.result != "N" and shot.effects == ["suppress"]


def test_leg_movement_15_1(make_game: Any) -> None:
    """MBT 15.1.1-15.1.2: a squad moves 2 hexes (1 with FM orders), one MF a hex whatever the
    terrain; MBT 12.4.6, 15.1.4: never into wire."""
    from hexwar.plugins.mbt.movement import destinations, movement_allowance

    g = make_game([("S1", "Motor Rifle Squad", "Soviet", "9J5", 1)], options=ADV,
                  terrain={"9J4": "woods", "9J3": "rough"},
                  special='markers = [{ hex = "9K4", kind = "wire" }]')
    u = g.state.units["S1"]
    u.state["order"] = "M"
    assert movement_allowance(g, u) == 2
    hexes = {g.board.label(h) for h, _f in destinations(g, u, movement_allowance(g, u), False, True)}
    assert {"9J4", "9J3"} <= hexes and "9J2" not in hexes and "9K4" not in hexes
    u.state["order"] = "FM"
    assert movement_allowance(g, u) == 1


def test_mbt_107_squad_and_team_movement_15_1_1(make_game: Any) -> None:
    """MBT-107 (MBT 15.1.1): a squad moves 2 hexes with M orders and 1 with FM; a team 1 with M.
    Quickmarch is option 17.4.2: not built, so not here."""
    from hexwar.plugins.mbt.movement import movement_allowance

    g = make_game([("N1", "Rifle Squad", "NATO", "9J5", 1), ("N2", "Rifle Team", "NATO", "9J7", 1)],
                  options=ADV)
    squad, team = g.state.units["N1"], g.state.units["N2"]
    got = []
    for u, order in ((squad, "M"), (squad, "FM"), (team, "M")):
        u.state["order"] = order
        got.append(movement_allowance(g, u))
    assert got == [2, 1, 1]


def test_leg_units_sight_open_and_are_small_targets_13_1(make_game: Any) -> None:
    """MBT-22 (MBT 13.1.4), its first case: a leg unit on the ground sights on the open row (its
    second, inside a buttoned FC carrier: test_advanced_leg_units.py);
    MBT 13.1.2: it is sighted in the S column."""
    g = make_game([("S1", "Motor Rifle Squad", "Soviet", "9J5", 1), ("N1", "M1", "NATO", "9J1", 4)],
                  options=ADV)
    s1, n1 = g.state.units["S1"], g.state.units["N1"]
    s1.state["open"] = False
    assert adv.sighter_row(g, s1) == "Open" and adv.target_class(g, s1) == "S"
    assert adv.target_class(g, n1) == "VH"


def test_leg_pivot_and_suppression_16_1_12_3_3(make_game: Any, run: Any) -> None:
    """MBT 16.1: a dismounted leg unit may turn whatever its orders; MBT 12.3.3.2: not when
    suppressed; MBT 12.3.3: a suppressed leg unit takes no CA, FM or M order."""
    from hexwar.plugins.mbt.advanced_adjustment import pivot_phase
    from hexwar.plugins.mbt.orders import legal_orders

    g = make_game([("S1", "Motor Rifle Squad", "Soviet", "9J5", 1)], options=ADV)
    u = g.state.units["S1"]
    u.state["order"] = "F"
    _v, asked = run(pivot_phase(g), [4])
    assert [d.rule for d in asked] == ["MBT 16.1"] and u.facing == 4
    assert "M" in legal_orders(g, u)
    suppression.suppress(g, u, "test")
    _v, asked = run(pivot_phase(g), [])
    assert asked == []
    assert not {"M", "FM", "CA"} & set(legal_orders(g, u))


# -- MBT 14.5: close assault ---------------------------------------------------------------------


def test_mbt_85_close_assault_modifiers_14_5_3(make_game: Any) -> None:
    """MBT-85 (MBT 14.5.3): a crack squad against an open, moving vehicle one height higher:
    -10 uphill, -10 moving, +10 open, +10 crack = 0."""
    from hexwar.plugins.mbt.close_assault import ca_modifiers

    g = make_game([("S1", "Motor Rifle Squad", "Soviet", "9J5", 1), ("N1", "M1", "NATO", "9J4", 4)],
                  options=ADV, heights={"9J4": 1})
    a, t = g.state.units["S1"], g.state.units["N1"]
    a.state["grade"] = "crack"
    t.state.update(order="M", open=True)
    mods = ca_modifiers(g, a, t)
    assert sorted(m.rule.split(" [")[0] for m in mods) == [
        "MBT 14.5.3.1", "MBT 14.5.3.2", "MBT 14.5.3.3", "MBT 14.5.3.4"]
    assert sum(m.value for m in mods) == 0


@pytest.mark.parametrize(("roll", "result"), [(1, "N"), (100, "EF")])
def test_close_assault_results_14_5_4(make_game: Any, run: Any, dice_faces: Any, roll: int,
                                      result: str) -> None:
    """MBT 14.5.4: an effective close assault brews the vehicle up; MBT 14.5.1: the attacker is
    marked MOVED; MBT 13.3: the CA order is legal only next to an enemy vehicle."""
    from hexwar.plugins.mbt.close_assault import close_assault_step
    from hexwar.plugins.mbt.orders import legal_orders

    g = make_game([("S1", "Motor Rifle Squad", "Soviet", "9J5", 1), ("N1", "M1", "NATO", "9J4", 4),
                   ("S2", "Motor Rifle Squad", "Soviet", "9J9", 1)], options=ADV)
    a, t = g.state.units["S1"], g.state.units["N1"]
    assert "CA" in legal_orders(g, a) and "CA" not in legal_orders(g, g.state.units["S2"])
    a.state.update(order="CA", grade="crack")  # +10 crack, +10 the M1 is open (MBT 14.5.3)
    g.dice.force(*dice_faces(roll))
    _v, _asked = run(close_assault_step(g), lambda d: ["S1", "N1"] if d.kind == "mbt.close_assault"
                    and ["S1", "N1"] in d.options else (d.options[0] if d.kind != "mbt.close_assault"
                                                        else "pass"))
    report = [e for e in g.log.for_side(None) if e.get("what") == "close assault"]
    assert report and report[0]["result"] == result and a.state["spotted"] == "MOVED"
    if result == "EF":
        assert t.state["destroyed"] == "BU" and data(g)["wrecks"]["9J4"] == "burning"


def test_close_assaults_on_one_vehicle_are_all_announced_before_any_is_resolved_14_5_1(
        make_game: Any, run: Any, dice_faces: Any) -> None:
    """MBT 14.5.1: every attack on one unit is announced before any is resolved, each a separate
    attack; the second squad's attack on a vehicle the first brewed up falls, its squad still
    committed for the Turn (MBTD-64)."""
    from hexwar.plugins.mbt.close_assault import close_assault_step

    g = make_game([("S1", "Motor Rifle Squad", "Soviet", "9J5", 1),
                   ("S3", "Motor Rifle Squad", "Soviet", "9J3", 4),
                   ("N1", "M1", "NATO", "9J4", 4)], options=ADV)
    for sid in ("S1", "S3"):
        g.state.units[sid].state.update(order="CA", grade="crack")
    g.dice.force(*dice_faces(100))
    resolved_when_asked: list[int] = []

    def answer(d: Any) -> Any:
        if d.kind != "mbt.close_assault":
            return d.options[0]
        resolved_when_asked.append(
            len([e for e in g.log.for_side(None) if e.get("what") == "close assault"]))
        for attack in (["S1", "N1"], ["S3", "N1"]):
            if attack in d.options:
                return attack
        return "pass"

    run(close_assault_step(g), answer)
    assert resolved_when_asked[:2] == [0, 0]  # both announced with no attack yet resolved
    done = [e for e in g.log.for_side(None) if e.get("what") in ("close assault",
                                                                  "close assault falls")]
    assert [(e["what"], e["attacker"]) for e in done] == [("close assault", "S1"),
                                                          ("close assault falls", "S3")]
    assert done[0]["result"] == "EF" and g.state.units["N1"].state["destroyed"] == "BU"
    assert g.state.units["S3"].state["spotted"] == "MOVED"


def test_close_assault_out_of_reach_is_refused(make_game: Any) -> None:
    from hexwar.plugins.mbt.close_assault import assault_validator

    g = make_game([("S1", "Motor Rifle Squad", "Soviet", "9J5", 1), ("N1", "M1", "NATO", "9J8", 4)],
                  options=ADV)
    g.state.units["S1"].state["order"] = "CA"
    assert "MBT 14.5.1" in (assault_validator(g, "Soviet")(["S1", "N1"]) or "")


def test_close_assault_reach_two_heights_14_5_1(make_game: Any) -> None:
    """MBT 14.5.1: a close assault reaches a vehicle no more than two heights above or below the
    leg unit; one three heights up is refused naming the rule (squads fire all round: no arc)."""
    from hexwar.plugins.mbt.close_assault import assault_validator

    for height, ok in ((2, True), (3, False)):
        g = make_game([("S1", "Motor Rifle Squad", "Soviet", "9J5", 1),
                       ("N1", "M1", "NATO", "9J4", 4)], options=ADV, heights={"9J4": height})
        g.state.units["S1"].state["order"] = "CA"
        err = assault_validator(g, "Soviet")(["S1", "N1"])
        assert (err is None) if ok else ("two heights" in (err or "") and "MBT 14.5.1" in (err or ""))


# -- MBT 14.6: hand-to-hand combat ---------------------------------------------------------------


def _h2h(make_game: Any, **kw: Any) -> Any:
    return make_game([("S1", "Motor Rifle Squad", "Soviet", "9J5", 1),
                      ("S2", "Motor Rifle Squad", "Soviet", "9K5", 1),
                      ("S3", "Motor Rifle Squad", "Soviet", "9I5", 1),
                      ("N1", "Rifle Squad", "NATO", "9J4", 4)], options=ADV, **kw)


def test_mbt_83_hand_to_hand_grades_and_attackers_14_6_3(make_game: Any) -> None:
    """MBT-83 (MBT 14.6.3): crack attacker and crack defender: -10 + 10 = 0; three attackers:
    -20 for the two extra."""
    from hexwar.plugins.mbt.close_assault import h2h_modifiers

    g = _h2h(make_game)
    s1, n1 = g.state.units["S1"], g.state.units["N1"]
    s1.state["grade"] = n1.state["grade"] = "crack"
    assert sum(m.value for m in h2h_modifiers(g, [s1], n1)) == 0
    three = [g.state.units[i] for i in ("S1", "S2", "S3")]
    extra = [m for m in h2h_modifiers(g, three, n1) if m.rule.startswith("MBT 14.6.3.4")]
    assert [m.value for m in extra] == [-20]


def test_mbt_84_hand_to_hand_poor_attacker_uphill(make_game: Any) -> None:
    """MBT-84 (MBT 14.6.3): a poor attacker against a crack, suppressed defender uphill:
    +10 + 10 - 20 + 10 = +10."""
    from hexwar.plugins.mbt.close_assault import h2h_modifiers

    g = _h2h(make_game, heights={"9J4": 1})
    s1, n1 = g.state.units["S1"], g.state.units["N1"]
    s1.state["grade"], n1.state["grade"] = "poor", "crack"
    suppression.suppress(g, n1, "test")
    assert sum(m.value for m in h2h_modifiers(g, [s1], n1)) == 10


@pytest.mark.parametrize(("roll", "winner"), [(1, "attacker"), (100, "defender")])
def test_hand_to_hand_loser_suffers_an_effective_result_14_6_2_2(
        make_game: Any, dice_faces: Any, roll: int, winner: str) -> None:
    from hexwar.plugins.mbt.close_assault import can_assault_now, h2h_error, hand_to_hand

    g = _h2h(make_game)
    s1, n1 = g.state.units["S1"], g.state.units["N1"]
    assert can_assault_now(g, s1)
    s1.state["order"] = "CA"
    assert h2h_error(g, s1, n1) is None
    g.dice.force(*dice_faces(roll))
    assert hand_to_hand(g, s1, n1) == winner
    loser = n1 if winner == "attacker" else s1
    assert loser.state["half"] and loser.state["suppressed"] == "ON"
    assert s1.state["spotted"] == "MOVED"  # MBT 14.6.1.4
