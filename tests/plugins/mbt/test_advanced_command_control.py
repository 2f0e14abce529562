"""MBT 21.1 command points, the optional rule ``mbt.command_control`` (with ``mbt.advanced``)."""

from __future__ import annotations

from typing import Any

import pytest

from hexwar.core.errors import HexwarError
from hexwar.core.testing import make_game as core_make_game
from hexwar.plugins.mbt.ai import MbtAI
from hexwar.plugins.mbt.rules import command_control as cc
from hexwar.plugins.mbt.state import data

OPTS = ["mbt.advanced", "mbt.command_control"]


def _org(make_game: Any) -> Any:
    g = make_game([("N1", "M1", "NATO", "9J1", 4), ("N2", "M1", "NATO", "9J2", 4),
                   ("N3", "M1", "NATO", "9J3", 4), ("101a", "T-72M1", "Soviet", "9J15", 1),
                   ("101b", "T-72M1", "Soviet", "9J15", 1), ("S9", "T-72M1", "Soviet", "9K15", 1)],
                  options=OPTS)
    for uid in ("N1", "N2", "N3"):
        g.state.units[uid].state["organization"] = "1st platoon"
    for uid in ("101a", "101b", "S9"):
        g.state.units[uid].state["organization"] = "1st company"
    for uid in ("101a", "101b"):
        g.state.units[uid].state["doctrine"] = "101"
    data(g).pop("doctrine", None)
    return g


def test_command_points_21_1_1(make_game: Any) -> None:
    """MBT 21.1.1.1: by active units and lowest grade (stand-in chart); MBT 21.1.1.1.1: a doctrine
    organization counts one; MBT 21.1.1.2: an XO +1, a battalion CO +2; MBT 21.1.2.4: none the
    Turn after the CO is lost."""
    g = _org(make_game)
    g.state.turn = 3
    nato = cc.organizations(g, "NATO")["1st platoon"]
    assert cc.command_points(g, "1st platoon", nato)[0] == cc.points_chart(3, "average")
    g.state.units["N3"].state["grade"] = "poor"
    assert cc.command_points(g, "1st platoon", nato)[0] == cc.points_chart(3, "poor")
    sov = cc.organizations(g, "Soviet")["1st company"]
    pts, why = cc.command_points(g, "1st company", sov)
    assert pts == cc.points_chart(2, "average") and "2 active unit(s)" in why[0]
    g.state.units["N1"].state.update(officer="XO")
    g.state.units["N2"].state.update(officer="CO", hq="battalion")
    assert cc.command_points(g, "1st platoon", nato)[0] == cc.points_chart(3, "poor") + 3
    data(g)["co_lost"] = {"1st platoon": 2}
    assert cc.command_points(g, "1st platoon", nato)[0] == 0


def test_a_kept_marker_limits_the_orders_21_1_2(make_game: Any, run: Any) -> None:
    """MBT 21.1.2: without a command point the unit keeps its kind of marker: a move marker
    allows FM, M, OW; the refusal names the rule; a point spent frees it."""
    from hexwar.plugins.mbt.advanced_orders import advanced_validator
    from hexwar.plugins.mbt.orders import legal_orders

    g = _org(make_game)
    g.state.turn = 2
    for uid in ("N1", "N2", "N3"):
        g.state.units[uid].state["marker"] = "move"
    data(g)["sighted"] = {"N1": ["S9"], "N2": ["S9"], "N3": ["S9"]}
    _v, asked = run(cc.command_points_step(g), lambda d: ["N1"] if d.side == "NATO" else [])
    nato = [d for d in asked if d.side == "NATO"]
    assert nato and nato[0].kind == "mbt.swaps" and ["N1"] in nato[0].options
    n1, n2 = g.state.units["N1"], g.state.units["N2"]
    assert "F" in legal_orders(g, n1)
    assert "F" not in legal_orders(g, n2) and "M" in legal_orders(g, n2)
    assert "MBT 21.1.2" in (advanced_validator(g, n2)("F") or "")


def test_first_turn_is_free_and_the_sequence_has_the_steps(make_game: Any, run: Any) -> None:
    g = _org(make_game)
    g.state.turn = 1
    _v, asked = run(cc.command_points_step(g), lambda d: [])
    assert asked == []
    names = [p.name for p in g.sequence]
    assert names.index("mbt.command_points") + 1 == names.index("mbt.orders")
    assert names.index("mbt.record_markers") == names.index("mbt.orders") + 1


def test_command_control_needs_the_advanced_game() -> None:
    with pytest.raises(HexwarError, match=r"mbt\.advanced"):
        core_make_game("mbt:basic-a", options=["mbt.command_control"])


@pytest.mark.slow
def test_ai_plays_with_command_control_to_the_end() -> None:
    g = core_make_game("mbt:advanced-a", seed=3, options=["mbt.command_control"])
    result = g.play({s: MbtAI(s, 3) for s in ("NATO", "Soviet")})
    assert g.over and result.level in ("victory", "tie", "automatic victory")
    kinds = [d["kind"] for d in g.decisions]
    assert "mbt.swaps" in kinds
    # each side reads only its own organizations' points
    for side in ("NATO", "Soviet"):
        orgs = {u.state.get("organization") for u in g.state.units_of(side)}
        events = [e for e in g.log.for_side(side) if e.get("type") == "command_points"]
        assert events and all(e["organization"] in orgs for e in events)


# -- MBT 21.2: radio jamming ----------------------------------------------------------------------


def test_mbt_154_jamming_points_cost_and_at_most_three_a_turn(make_game: Any) -> None:
    """MBT-154 (MBT 21.2): 2 jamming points cost 50; 4 in one Turn is refused with the rule and
    nothing changes; a point is used once a game (MBT 21.2.1)."""
    assert cc.jamming_cost(2) == 50
    g = make_game([("N1", "M1", "NATO", "9J1", 4), ("S9", "T-72M1", "Soviet", "9K15", 1)],
                  options=OPTS, special="jamming = { NATO = 5 }")
    assert cc.jamming_left(g, "NATO") == 5 and cc.jamming_left(g, "Soviet") == 0
    err = cc.jamming_error(g, "NATO", 4)
    assert err and "MBT 21.2" in err
    with pytest.raises(HexwarError, match=r"MBT 21\.2"):
        cc.jam(g, "NATO", 4)
    assert cc.jamming_left(g, "NATO") == 5 and not data(g).get("disrupted")
    assert "MBT 21.2.1" in (cc.jamming_error(g, "Soviet", 1) or "")


def test_jamming_table_is_a_marked_stand_in_21_2_1() -> None:
    for side in ("NATO", "Soviet"):
        chances = [cc.jamming_chance(side, n) for n in (1, 2, 3)]
        assert [c[0] for c in chances] == sorted(c[0] for c in chances)  # more points, more chance
        assert {c[1] for c in chances} == {"estimated"}


@pytest.mark.parametrize(("roll", "hit"), [(1, True), (100, False)])
def test_jamming_disrupts_and_swaps_then_cost_two_except_on_landlines_21_2_2(
        make_game: Any, run: Any, dice_faces: Any, roll: int, hit: bool) -> None:
    """MBT 21.2.1-21.2.2: a roll within the number disrupts the enemy: two command points a
    marker change; MBT 21.2.3: a unit still on its landline pays one."""
    g = _org(make_game)
    g.scenario.raw.setdefault("special", {})["jamming"] = {"Soviet": 3}
    g.state.turn = 1
    _v, asked = run(cc.command_points_step(g), lambda d: 0 if d.kind == "mbt.jamming" else [])
    assert [d.rule for d in asked] == ["MBT 21.2"]  # announced, none spent
    assert all(u.state["landline"] for u in g.state.units.values())
    g.state.turn = 2
    for uid in ("N1", "N2", "N3"):
        g.state.units[uid].state["marker"] = "move"
    from hexwar.plugins.mbt.hookspecs import MbtHooks

    MbtHooks.of(g).unit_moved(g.state.units["N2"])  # MBT 21.2.3: its landline ends
    MbtHooks.of(g).unit_moved(g.state.units["N3"])
    g.dice.force(*dice_faces(roll))
    _v, asked = run(cc.command_points_step(g), lambda d: 3 if d.kind == "mbt.jamming" else [])
    assert cc.jamming_left(g, "Soviet") == 0
    assert cc.disrupted(g, "NATO") is hit
    swaps = next(d for d in asked if d.kind == "mbt.swaps" and d.side == "NATO")
    pts = swaps.context["points"]
    cost = {"N1": 1, "N2": 2 if hit else 1, "N3": 2 if hit else 1}
    for option in swaps.options:
        assert sum(cost[i] for i in option) <= pts
    if hit:
        assert ["N2", "N3"] not in swaps.options or pts >= 4
