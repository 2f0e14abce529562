"""MBT 21.1.3 officer transfers and MBT 21.2.3 landlines, in the optional rule
``mbt.command_control`` (with ``mbt.advanced``)."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from hexwar.core.errors import HexwarError
from hexwar.core.scenario import Scenario, validate_scenario
from hexwar.plugins.mbt.ai import MbtAI
from hexwar.plugins.mbt.hookspecs import MbtHooks
from hexwar.plugins.mbt.rules import command_control as cc
from hexwar.plugins.mbt.rules import command_control_officers as officers
from hexwar.plugins.mbt.state import data
from hexwar.plugins.mbt.suppression import suppress

OPTS = ["mbt.advanced", "mbt.command_control"]
TREE = 'command = { "A HQ" = ["1st platoon"] }'


def _company(make_game: Any, special: str = TREE) -> Any:
    """N1 carries the company CO of "A HQ"; N2, N4 are its 1st platoon (N4 elsewhere); N3 is
    of a platoon not under it."""
    g = make_game([("N1", "M1", "NATO", "9J1", 4), ("N2", "M1", "NATO", "9J1", 4),
                   ("N3", "M1", "NATO", "9J1", 4), ("N4", "M1", "NATO", "9J5", 4),
                   ("S9", "T-72M1", "Soviet", "9K15", 1)], options=OPTS, special=special)
    orgs = {"N1": "A HQ", "N2": "1st platoon", "N3": "2nd platoon", "N4": "1st platoon",
            "S9": "1st company"}
    for uid, org in orgs.items():
        g.state.units[uid].state["organization"] = org
    g.state.units["N1"].state.update(officer="CO", hq="company")
    return g


def _move(officer: str, src: str, dst: str) -> dict[str, str]:
    return {"officer": officer, "from": src, "to": dst}


def test_an_officer_moves_to_a_unit_in_his_hex_under_his_command_21_1_3(make_game: Any) -> None:
    """MBT 21.1.3: the CO of A HQ moves to N2 (same hex, a platoon under A HQ: MBT 12.8.2.2);
    the notation is rewritten on N2 and the side alone is told."""
    g = _company(make_game)
    officers.transfer(g, "NATO", _move("CO", "N1", "N2"))
    n1, n2 = g.state.units["N1"], g.state.units["N2"]
    assert "officer" not in n1.state and "hq" not in n1.state
    assert (n2.state["officer"], n2.state["officer_org"], n2.state["hq"]) == ("CO", "A HQ",
                                                                              "company")
    rec = [r for r in g.log.events if r.get("type") == "officer transferred"]
    assert rec and rec[-1]["visible_to"] == ["NATO"] and rec[-1]["rule"] == "MBT 21.1.3"
    assert not [r for r in g.log.for_side("Soviet") if r.get("type") == "officer transferred"]


@pytest.mark.parametrize(("choice", "why"), [
    (_move("CO", "N1", "N3"), "under the command"),  # 2nd platoon: not under A HQ
    (_move("CO", "N1", "N4"), "hex"),  # under A HQ but in another hex
    (_move("XO", "N1", "N2"), "carries no XO"),
    (_move("CO", "N2", "N1"), "carries no CO"),
    (_move("CO", "N1", "N1"), "already with"),
    (_move("CO", "N1", "S9"), "not a unit of NATO"),
    ({"officer": "CO", "to": "N2"}, "a transfer is"),
])
def test_a_transfer_the_rule_forbids_is_refused_and_changes_nothing_21_1_3(
        make_game: Any, choice: dict[str, str], why: str) -> None:
    g = _company(make_game)
    before = copy.deepcopy({u.id: dict(u.state) for u in g.state.units.values()})
    with pytest.raises(HexwarError, match=r"MBT 21\.1\.3|MBT 12\.8") as err:
        officers.transfer(g, "NATO", choice)
    assert why in str(err.value)
    assert {u.id: dict(u.state) for u in g.state.units.values()} == before


def test_from_an_inactive_unit_to_an_active_one_only_21_1_3(make_game: Any) -> None:
    """MBT 21.1.3: an officer with an abandoned (inactive) unit may leave it; no officer goes to
    an abandoned unit, and none leaves a knocked-out one (he was lost with it, MBTD-98)."""
    g = _company(make_game)
    g.state.units["N2"].state["abandoned"] = True
    assert "not an active unit" in (officers.transfer_error(g, "NATO", _move("CO", "N1", "N2"))
                                    or "")
    g.state.units["N2"].state["abandoned"] = False
    g.state.units["N1"].state["abandoned"] = True
    assert officers.transfer_error(g, "NATO", _move("CO", "N1", "N2")) is None
    g.state.units["N1"].state["destroyed"] = "KO"
    assert "lost" in (officers.transfer_error(g, "NATO", _move("CO", "N1", "N2")) or "")


def test_two_officers_ride_one_unit_21_1_3_mbtd_167(make_game: Any) -> None:
    """MBT 21.1.3 (MBTD-167, replacing MBTD-99's refusal): the CO of A HQ may join N2, which
    carries the 1st platoon's XO; both are with N2, the CO as a second officer with his
    echelon, and each still gives his own bonus to his own organization (MBT 21.1.1.2)."""
    g = _company(make_game)
    n1, n2 = g.state.units["N1"], g.state.units["N2"]
    n2.state["officer"] = "XO"
    assert officers.transfer_error(g, "NATO", _move("CO", "N1", "N2")) is None
    officers.transfer(g, "NATO", _move("CO", "N1", "N2"))
    assert "officer" not in n1.state and "hq" not in n1.state
    assert officers.carried(n2) == [
        {"officer": "XO", "org": "1st platoon", "hq": None},
        {"officer": "CO", "org": "A HQ", "hq": "company"}]
    assert n2.state["officer"] == "XO" and n2.state["riders"] == [
        {"officer": "CO", "officer_org": "A HQ", "hq": "company"}]
    got = {(org, pts) for _u, org, pts, _how in cc.bonuses(g, "NATO")}
    assert got == {("1st platoon", 1), ("A HQ", 1)}
    # the CO leaves again: the XO stays, the riders are gone
    officers.transfer(g, "NATO", _move("CO", "N2", "N1"))
    assert officers.carried(n2) == [{"officer": "XO", "org": "1st platoon", "hq": None}]
    assert "riders" not in n2.state and n1.state["hq"] == "company"


def test_the_first_officer_leaves_and_the_second_stays_21_1_3(make_game: Any) -> None:
    """MBT 21.1.3 (MBTD-167): with two officers on N2, moving the first one (the XO) leaves
    the CO as N2's officer, with his organization and echelon."""
    g = _company(make_game)
    n2, n4 = g.state.units["N2"], g.state.units["N4"]
    n2.state["officer"] = "XO"
    officers.transfer(g, "NATO", _move("CO", "N1", "N2"))
    n4.hex = n2.hex
    officers.transfer(g, "NATO", _move("XO", "N2", "N4"))
    assert officers.carried(n2) == [{"officer": "CO", "org": "A HQ", "hq": "company"}]
    assert (n2.state["officer"], n2.state["officer_org"], n2.state["hq"]) == ("CO", "A HQ",
                                                                              "company")
    assert officers.carried(n4) == [{"officer": "XO", "org": "1st platoon", "hq": None}]


def test_two_cos_on_one_unit_are_told_apart_by_organization_21_1_3(make_game: Any) -> None:
    """MBT 21.1.3 (MBTD-167): a unit with the COs of two organizations: a transfer naming only
    "CO" is refused, naming the rule and changing nothing; with "org" it moves that one; the
    offered transfers name the organization."""
    g = _company(make_game, special='command = { "A HQ" = ["1st platoon", "2nd platoon"] }')
    n1 = g.state.units["N1"]
    n1.state["riders"] = [{"officer": "CO", "officer_org": "2nd platoon"}]
    before = copy.deepcopy(dict(n1.state))
    with pytest.raises(HexwarError, match=r"MBT 21\.1\.3") as err:
        officers.transfer(g, "NATO", _move("CO", "N1", "N3"))
    assert '"org"' in str(err.value) and dict(n1.state) == before
    offered = officers.transfers(g, "NATO")
    assert offered and all("org" in c for c in offered)
    officers.transfer(g, "NATO", {**_move("CO", "N1", "N3"), "org": "2nd platoon"})
    assert officers.carried(n1) == [{"officer": "CO", "org": "A HQ", "hq": "company"}]
    assert officers.carried(g.state.units["N3"])[0]["org"] == "2nd platoon"


def test_a_unit_lost_with_two_officers_loses_both_21_1_2_4(make_game: Any) -> None:
    """MBT 21.1.2.4 with MBTD-167, MBTD-98: a knocked-out unit carrying two COs stops both
    organizations the next Turn."""
    g = _company(make_game, special='command = { "A HQ" = ["1st platoon", "2nd platoon"] }')
    g.state.turn = 2
    n1 = g.state.units["N1"]
    n1.state["riders"] = [{"officer": "CO", "officer_org": "2nd platoon"}]
    n1.state["destroyed"] = "KO"
    MbtHooks.of(g).after_damage(n1, ["KO"])
    assert data(g)["co_lost"] == {"A HQ": 2, "2nd platoon": 2}


def test_bad_riders_are_refused_by_validate_12_8_2() -> None:
    """MBT 12.8.2 (MBTD-167): a rider must be CO, XO or SP, on a unit with a first officer."""
    from hexwar.plugins.mbt.grade import state_problems

    assert state_problems({"officer": "CO", "riders": [{"officer": "XO"}]}) == []
    assert any("MBT 12.8.2" in m for m in state_problems({"officer": "CO",
                                                          "riders": [{"officer": "GEN"}]}))
    assert any("first officer" in m for m in state_problems({"riders": [{"officer": "XO"}]}))


def test_the_bonus_and_the_co_lost_rule_follow_the_officer_21_1_1_2_21_1_2_4(
        make_game: Any) -> None:
    """MBT 21.1.1.2.2 (company CO +1) after the CO moves to a 1st-platoon tank: still A HQ's,
    not the platoon's; MBT 21.1.2.4: when that tank is knocked out, A HQ and the 1st platoon
    under it (MBT 12.8.2.2) change no marker the next Turn; the 2nd platoon still may."""
    g = _company(make_game)
    g.state.turn = 2
    hq = cc.organizations(g, "NATO")["A HQ"]
    platoon = cc.organizations(g, "NATO")["1st platoon"]
    assert cc.command_points(g, "A HQ", hq)[0] == cc.points_chart(1, "average") + 1
    officers.transfer(g, "NATO", _move("CO", "N1", "N2"))
    assert cc.command_points(g, "A HQ", hq)[0] == cc.points_chart(1, "average") + 1
    assert cc.command_points(g, "1st platoon", platoon)[0] == cc.points_chart(2, "average")
    n2 = g.state.units["N2"]
    n2.state["destroyed"] = "KO"
    MbtHooks.of(g).after_damage(n2, ["KO"])
    assert data(g)["co_lost"] == {"A HQ": 2}
    g.state.turn = 3
    platoon = cc.organizations(g, "NATO")["1st platoon"]
    pts, why = cc.command_points(g, "1st platoon", platoon)
    assert pts == 0 and "MBT 21.1.2.4" in why[0]
    second = cc.organizations(g, "NATO")["2nd platoon"]
    assert cc.command_points(g, "2nd platoon", second)[0] > 0


def test_the_transfer_step_is_in_the_adjust_markers_step_and_lists_the_sensible_one_first(
        make_game: Any, run: Any) -> None:
    """MBT 21.1.3, 16.3: the step follows the Adjust Markers Step; an officer with an inactive
    unit is offered his way out first (what the AI takes), an active one "done" first; each
    officer moves once a step."""
    g = _company(make_game)
    names = [p.name for p in g.sequence]
    assert names.index("mbt.transfer_officers") == names.index("mbt.markers") + 1
    _v, asked = run(officers.transfer_step(g), lambda d: d.options[0])
    assert [d.options[0] for d in asked] == ["done"]
    assert g.state.units["N1"].state["officer"] == "CO"
    g.state.units["N1"].state["abandoned"] = True
    ai = MbtAI("NATO", 1)
    _v, asked = run(officers.transfer_step(g), lambda d: ai.choose(d, g.view("NATO")))
    assert asked[0].options[0] == _move("CO", "N1", "N2")
    assert g.state.units["N2"].state["officer"] == "CO"
    assert len(asked) == 1  # moved once: nothing more to offer that officer this step
    form = officers.present(asked[0])
    assert form is not None and form["choices"][0]["unit"] == "N2"
    assert "MBT 21.1.3" in form["choices"][0]["label"]


def test_an_officer_written_in_by_hand_moves_once_a_step_too(make_game: Any) -> None:
    """MBT 21.1.3: the step's check refuses a second move of an officer who has moved, not only
    its list of options."""
    g = _company(make_game)
    officers.transfer(g, "NATO", _move("CO", "N1", "N2"))
    back = _move("CO", "N2", "N1")
    assert officers._validator(g, "NATO", set())(back) is None
    moved = {officers._key(officers.carried(g.state.units["N2"])[0])}
    assert "moved once" in (officers._validator(g, "NATO", moved)(back) or "")


def test_a_bad_command_tree_is_refused_by_the_scenario_check(tmp_path: Any) -> None:
    """MBT 12.8.3: an organization is grouped under one headquarters."""
    from hexwar.core.cli import _resolve_scenario_path

    text = _resolve_scenario_path("mbt:advanced-a").read_text(encoding="utf-8")
    bad = text.replace('conditions = "Day"', 'conditions = "Day"\ncommand = { "X" = '
                       '["1st platoon"], "Y" = ["1st platoon"] }')
    sc = Scenario.from_text(bad, path="<bad>")
    problems = validate_scenario(sc, options=("mbt.command_control",))
    assert any("MBT 12.8.3" in p.message for p in problems)
    good = text.replace('conditions = "Day"', 'conditions = "Day"\ncommand = { "X" = '
                        '["1st platoon"] }')
    assert not validate_scenario(Scenario.from_text(good, path="<good>"),
                                 options=("mbt.command_control",))


# -- MBT 21.2.3: landlines --------------------------------------------------------------------


def test_landlines_are_for_units_on_the_map_at_the_start_21_2_3(make_game: Any) -> None:
    """MBT 21.2.3: a unit on the map at the first Command Points step is hooked up; one the
    scenario says is not, or one not yet on the map (it enters later), never is."""
    g = _company(make_game)
    g.state.units["N3"].state["landline"] = False
    g.state.units["N4"].hex = None
    cc.hook_up(g)
    assert [g.state.units[u].state["landline"] for u in ("N1", "N3", "N4")] == [True, False,
                                                                                 False]


@pytest.mark.parametrize(("rule", "cut"), [("MBT 19.3", True), ("MBT 20.1.3", True),
                                          ("MBT 17.1.3", True), ("MBT 14.3.3.1", False)])
def test_artillery_or_bomb_suppression_cuts_a_landline_for_good_21_2_3(
        make_game: Any, run: Any, rule: str, cut: bool) -> None:
    """MBT 21.2.3: suppression by artillery (MBT 17.1, 19.0) or aircraft bombs (MBT 20.1) cuts
    the landline, and a unit cut off pays two points a marker change under disruption; direct
    fire's suppression does not cut it."""
    g = _company(make_game)
    g.state.turn = 1
    run(cc.command_points_step(g), lambda d: d.options[0])
    n2 = g.state.units["N2"]
    assert n2.state["landline"] is True
    suppress(g, n2, rule)
    g.state.turn = 2
    run(cc.command_points_step(g), lambda d: [] if d.kind == "mbt.swaps" else d.options[0])
    assert n2.state["landline"] is (not cut)
    told = [r for r in g.log.events if r.get("type") == "landline cut"]
    assert bool(told) is cut
    data(g)["disrupted"] = {"NATO": 2}
    assert cc.swap_cost(g, n2) == (2 if cut else 1)
    n2.state["suppressed"] = None
    g.state.turn = 3
    run(cc.command_points_step(g), lambda d: [] if d.kind == "mbt.swaps" else d.options[0])
    assert n2.state["landline"] is (not cut)  # never hooked up again


def test_a_bonus_point_goes_to_an_organization_the_officer_commands_21_1_1_2(
        make_game: Any, run: Any) -> None:
    """MBT 21.1.1.2: the company CO's bonus point may be given to the 1st platoon under him
    (MBT 12.8.2.2), not to the 2nd platoon; its swaps then have one point more, A HQ's one
    less."""
    g = _company(make_game)
    g.state.turn = 2
    for uid in ("N1", "N2", "N3", "N4"):
        g.state.units[uid].state["marker"] = "move"

    def answer(d: Any) -> Any:
        return ["1st platoon"] if d.kind == cc.BONUS else []

    _v, asked = run(cc.command_points_step(g), answer)
    bonus = [d for d in asked if d.kind == cc.BONUS]
    assert len(bonus) == 1 and bonus[0].options == [["A HQ"], ["1st platoon"]]
    assert bonus[0].rule == "MBT 21.1.1.2" and bonus[0].context["unit"] == "N1"
    swaps = {d.context["organization"]: d.context["points"] for d in asked
             if d.kind == "mbt.swaps"}
    assert swaps["1st platoon"] == cc.points_chart(2, "average") + 1
    assert swaps.get("A HQ", 0) == cc.points_chart(1, "average")
    assert swaps["2nd platoon"] == cc.points_chart(1, "average")
    told = [r for r in g.log.events if r.get("type") == "command_points"
            and r["organization"] == "1st platoon"]
    assert "MBT 21.1.1.2" in told[-1]["counted"][-1]


def test_no_bonus_choice_without_a_command_tree(make_game: Any, run: Any) -> None:
    g = _company(make_game, special="")
    g.state.turn = 2
    _v, asked = run(cc.command_points_step(g), lambda d: [])
    assert not [d for d in asked if d.kind == cc.BONUS]


def test_no_bonus_point_goes_to_an_organization_whose_co_was_lost_last_turn_21_1_2_4(
        make_game: Any, run: Any) -> None:
    """MBT 21.1.2.4 with 21.1.1.2 (MBTD-103): the 1st platoon's own CO was lost last Turn, so
    the company CO above it cannot hand it a bonus point to change markers with: no choice is
    offered and the platoon changes nothing."""
    g = _company(make_game)
    g.state.turn = 2
    data(g)["co_lost"] = {"1st platoon": 1}
    for uid in ("N1", "N2", "N3", "N4"):
        g.state.units[uid].state["marker"] = "move"
    _v, asked = run(cc.command_points_step(g), lambda d: d.options[-1])
    assert not [d for d in asked if d.kind == cc.BONUS]
    swaps = {d.context["organization"] for d in asked if d.kind == "mbt.swaps"}
    assert "1st platoon" not in swaps and "A HQ" in swaps


def test_an_officer_with_an_inactive_unit_gives_no_bonus_21_1_1_2_1(make_game: Any) -> None:
    """MBT 21.1.1.2.1: the bonus comes from an officer "with an active unit"; on an abandoned
    vehicle (inactive) the XO gives none (he may still transfer, MBT 21.1.3)."""
    g = _company(make_game)
    g.state.units["N3"].state["officer"] = "XO"
    assert [(u.id, pts) for u, _o, pts, _h in cc.bonuses(g, "NATO")] == [("N1", 1), ("N3", 1)]
    g.state.units["N3"].state["abandoned"] = True
    assert [(u.id, pts) for u, _o, pts, _h in cc.bonuses(g, "NATO")] == [("N1", 1)]


def test_a_force_with_two_officers_in_its_only_tank_seats_both_12_8_2() -> None:
    """MBT 12.8.2 with MBTD-167: a headquarters of one T-80A whose scenario puts the CO and the
    XO in the tank: the CO is its officer, the XO rides it as a second officer (before, the XO
    was dropped)."""
    from hexwar.plugins.mbt import forces

    sc = Scenario.from_text("""
[scenario]
id = "mbt:two-officers"
system = "mbt"
rules = ["mbt.advanced"]
turns = 1
[sides.NATO]
[sides.Soviet]
[[sides.Soviet.forces]]
id = "A"
nation = "USSR"
organization = "Tank Company Headquarters"
variant = "c"
grade = "average"
officers = { CO = "T-80A", XO = "T-80A" }
[board]
panels = []
""", path="two-officers.toml")
    (_uid, _t, _s, state), = forces.expand(sc)
    assert state["officer"] == "CO" and state["riders"] == [{"officer": "XO"}]
