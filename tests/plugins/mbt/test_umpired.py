"""MBT 24.0 The Umpired Game (plugins/mbt/rules/umpired.py): one test per rule, each failing if
the rule were broken. Games are built on the test panel with units placed (conftest.make_game)."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from hexwar.core.engine.decisions import Decision
from hexwar.core.engine.game import Game
from hexwar.core.engine.record import side_events
from hexwar.core.engine.umpire import UMPIRE, AutomaticUmpire, UmpireView
from hexwar.core.manager import options_of
from hexwar.core.testing import check_plugin_contract
from hexwar.core.types import Choice
from hexwar.plugins.mbt.fire import apply_effects, destroy
from hexwar.plugins.mbt.rules.umpired import (
    HIT_ANGLE,
    INSTRUCTION,
    OVERWATCH,
    MbtUmpire,
    contacts,
    identification,
    level_seen,
    sighting_report,
)

NATO, SOV = "NATO", "Soviet"
OPT = ["mbt.umpired"]
SCRUB = {f"9{c}{r}": "scrub" for c in "GHIJKLM" for r in range(3, 21)}


def keep_turret(d: Decision) -> Choice:
    return [d.context["turret"], "open" if d.context["open"] else "buttoned"]


def steer(g: Game, orders: dict[str, Choice], *, stop: Callable[[Decision], bool] | None = None,
          umpire_log: list[Decision] | None = None) -> Decision | None:
    """Play on: the umpire's seat automatic, turrets kept, units given ``orders`` (else an
    overwatch at anything, or the first listed instruction), until ``stop`` says so."""
    auto = AutomaticUmpire()
    while (d := g.pending) is not None:
        if stop is not None and stop(d):
            return d
        if d.side == UMPIRE:
            if umpire_log is not None:
                umpire_log.append(d)
            g.answer(auto.choose(d, g.view(UMPIRE)))
        elif d.kind == "mbt.turret":
            g.answer(keep_turret(d))
        elif d.kind == INSTRUCTION:
            uid = d.context["unit"]
            hold = {"order": "OW", "when": "any"}
            g.answer(orders.get(uid, hold if hold in (d.options or []) else (d.options or [])[0]))
        elif d.kind == "mbt.pivot":
            g.answer(d.context["facing"])
        else:
            g.answer((d.options or ["pass"])[0])
    return None


def at(kind: str, turn: int | None = None) -> Callable[[Decision], bool]:
    return lambda d: d.kind == kind


def results(g: Game, firer: str) -> list[dict[str, Any]]:
    return [e for e in g.log.events if e["type"] == "result" and e.get("firer") == firer
            and e.get("what") == "AP point effect fire"]


# -- the plugin --------------------------------------------------------------------------------


def test_the_umpired_game_is_an_optional_rule_of_mbt_meeting_the_contract() -> None:
    assert "mbt.umpired" in options_of("mbt")
    report = check_plugin_contract("mbt.umpired")
    assert "implements only hooks its system calls" in report


def test_mbt_24_0_the_umpire_takes_the_game(make_game: Any) -> None:
    g = make_game([("A", "M1A1", NATO, "9J2", 4), ("B", "T-72M1", SOV, "9J9", 1)], options=OPT)
    assert isinstance(g.umpire, MbtUmpire)
    view = g.view(UMPIRE)
    assert isinstance(view, UmpireView)
    kinds = {k["kind"] for k in view.decision_kinds()}
    assert {INSTRUCTION, OVERWATCH, HIT_ANGLE, "umpire.reveal"} <= kinds
    assert g.pending is not None and g.pending.side == UMPIRE  # the Command Phase reveal
    plain = make_game([("A", "M1A1", NATO, "9J2", 4), ("B", "T-72M1", SOV, "9J9", 1)])
    assert plain.umpire is None


def test_mbt_24_1_the_scenario_is_the_umpires(make_game: Any) -> None:
    g = make_game([("A", "M1A1", NATO, "9J2", 4), ("B", "T-72M1", SOV, "9J19", 1)], options=OPT)
    for side in (NATO, SOV):
        header = g.view(side).header
        assert header["scenario"] == "mbt:test"
        assert not {"scenario_text", "scenario_sha256", "seed"} & set(header)
        assert side_events(g.log.events, side)[0] == header
    full = g.log.events[0]
    assert "T-72M1" in full["scenario_text"] and full["umpire_only"] == [
        "scenario_text", "scenario_sha256", "decision.n"]
    plain = make_game([("A", "M1A1", NATO, "9J2", 4), ("B", "T-72M1", SOV, "9J19", 1)])
    assert "scenario_text" in plain.view(NATO).header  # the Basic Game's scenario is public


# -- MBT 24.2.2 identification by range -------------------------------------------------------


def test_mbt_24_2_2_identification_by_range(make_game: Any) -> None:
    g = make_game([("A", "M1A1", NATO, "9J2", 4), ("B", "T-72M1", SOV, "9J9", 1),
                   ("C", "T-72M1", SOV, "9J12", 1), ("D", "T-72M1", SOV, "9J17", 1)],
                  terrain=SCRUB, options=OPT)
    a, b, c, d = (g.state.units[k] for k in "ABCD")
    assert level_seen(g, a, b) == "identified"  # range 7: the chart range (open, scrub)
    assert level_seen(g, a, c) is None  # range 10, no marker: not seen at all
    c.state["spotted"] = "MOVED"
    assert level_seen(g, a, c) == "type"  # seen only through the doubled range
    c.state["spotted"] = "FIRED"
    assert level_seen(g, a, c) == "type"  # within twice the chart range
    d.state["spotted"] = "MOVED"
    assert level_seen(g, a, d) is None  # 15 > 14
    d.state["spotted"] = "FIRED"
    assert level_seen(g, a, d) == "fired"  # beyond twice: something fired from there
    report = sighting_report(g, NATO)
    shown_b, shown_c, shown_d = report["B"], report["C"], report["D"]
    assert shown_b["id"] == "?9J9" and shown_b["type"] == "mbt:T-72M1" and shown_b["side"] == SOV
    assert "type" not in shown_c and shown_c["side"] == SOV
    assert shown_c["state"]["kind"] == "vehicle" and shown_c["state"]["nation"]
    assert set(shown_d) == {"id", "hex", "state"} and shown_d["state"] == {
        "level": "fired", "label": "9J17"}


def test_mbt_24_2_2_the_best_sighting_of_the_side_counts(make_game: Any) -> None:
    g = make_game([("A", "M1A1", NATO, "9J2", 4), ("E", "M1A1", NATO, "9J10", 4),
                   ("C", "T-72M1", SOV, "9J12", 1)], terrain=SCRUB, options=OPT)
    c = g.state.units["C"]
    assert level_seen(g, g.state.units["A"], c) is None
    assert identification(g, NATO, c) == "identified"  # E is two hexes away


# -- MBT 24.1.1, 24.2, 24.2.1: each side's copy of the map -------------------------------------


def test_mbt_24_2_friendly_units_not_under_the_players_command_are_hidden_until_sighted(
        make_game: Any) -> None:
    g2 = make_game([("A", "M1A1", NATO, "9J2", 4), ("F", "M1A1", NATO, "9J12", 1),
                    ("G", "M1A1", NATO, "9J6", 1), ("S", "T-72M1", SOV, "9A20", 1)],
                   terrain=SCRUB, options=OPT, turns=2)
    # under the umpire's command from now: turn 2's report is the first to know it
    for uid in "FG":
        g2.state.units[uid].state["controlled_by"] = UMPIRE
    umpire_asks: list[Decision] = []
    steer(g2, {}, stop=lambda d: g2.state.turn == 2 and d.kind == INSTRUCTION,
          umpire_log=umpire_asks)
    view = g2.view(NATO)
    shown = {k: u for k, u in view.units.items() if k != "A" and u.get("side") == NATO}
    assert list(shown) == ["?9J6"]  # G sighted at range 4 (identified), F at 10 in scrub not
    assert shown["?9J6"]["type"] == "mbt:M1A1"
    assert not any(k in view.units for k in "FG")
    # their instructions are the umpire's (MBT 24.2: the player does not control them)
    mine = [d for d in umpire_asks if d.kind == INSTRUCTION]
    assert {d.context["unit"] for d in mine} >= {"F", "G"}


def test_mbt_24_1_1_and_24_2_1_a_side_sees_its_units_and_contacts_never_another_id(make_game: Any) -> None:
    g = make_game([("A", "M1A1", NATO, "9J2", 4), ("B", "T-72M1", SOV, "9J5", 1)], options=OPT)
    view = g.view(NATO)
    assert set(view.units) == {"A", "?9J5"}
    assert '"B"' not in json.dumps(view.units)
    assert view.system_state["first"] is None and view.system_state["victory_points"] is None
    full = g.view(None)
    assert set(full.units) == {"A", "B"}  # the umpire knows


# -- MBT 24.3.1 ---------------------------------------------------------------------------------


def test_mbt_24_3_1_the_umpire_rolls_the_initiative_in_secret(make_game: Any) -> None:
    g = make_game([("A", "M1A1", NATO, "9J2", 4), ("B", "T-72M1", SOV, "9J9", 1)], options=OPT)
    secret = [e for e in g.log.events if e["type"] in ("roll", "roll_off", "initiative")]
    assert {e["type"] for e in secret} == {"roll", "roll_off", "initiative"}
    assert all(e["visible_to"] == [] for e in secret)
    winner = next(e["winner"] for e in secret if e["type"] == "roll_off")
    assert next(e["first"] for e in secret if e["type"] == "initiative") == winner  # MBTD-28
    assert not [d for d in g.decisions if d["kind"] == "mbt.initiative"]
    for side in (NATO, SOV):
        assert not [e for e in side_events(g.log.events, side)
                    if e["type"] in ("roll", "roll_off", "initiative")]


# -- MBT 24.3.2 ---------------------------------------------------------------------------------


def test_mbt_24_3_2_instructions_are_written_secretly_and_at_once(make_game: Any) -> None:
    g = make_game([("A", "M1A1", NATO, "9J2", 4), ("B", "T-72M1", SOV, "9J9", 1),
                   ("C", "T-72M1", SOV, "9J15", 1)], terrain=SCRUB, options=OPT)
    first = steer(g, {}, stop=at(INSTRUCTION))
    assert first is not None
    pending = list(g._pending)
    assert {d.side for d in pending} == {NATO, SOV} and g._simultaneous
    a_opts = next(d.options for d in pending if d.context["unit"] == "A")
    assert a_opts is not None
    targets = {o["target"] for o in a_opts if "target" in o}
    assert targets == {"?9J9"}  # only what NATO was told of (C, 13 hexes off in scrub: unseen)
    assert '"B"' not in json.dumps(a_opts) and '"C"' not in json.dumps(a_opts)
    g.answer({"order": "F", "target": "?9J9"})
    assert g.state.units["A"].state["order"] is None  # nothing applies before every answer
    steer(g, {}, stop=lambda d: d.kind != INSTRUCTION)
    assert g.state.units["A"].state["order"] == "F"
    records = [e for e in g.log.events if e["type"] == "decision" and e["kind"] == INSTRUCTION]
    assert all(e["visible_to"] == [e["side"]] for e in records)


def test_mbt_24_3_2_1_fire_is_carried_out_at_the_instructed_contact(make_game: Any) -> None:
    g = make_game([("A", "M1A1", NATO, "9J2", 4), ("B", "T-72M1", SOV, "9J5", 1),
                   ("C", "T-72M1", SOV, "9K5", 1)], options=OPT)
    steer(g, {"A": {"order": "F", "target": "?9K5"}}, stop=lambda d: g.state.turn == 2)
    assert [e["target"] for e in results(g, "A")] == ["C"]


def test_mbt_24_3_2_2_a_unit_moves_where_it_was_told(make_game: Any) -> None:
    g = make_game([("A", "M1A1", NATO, "9J2", 4), ("S", "T-72M1", SOV, "9A20", 1)], options=OPT)
    d = steer(g, {}, stop=lambda d: d.kind == INSTRUCTION and d.context["unit"] == "A")
    assert d is not None
    moves = [o for o in d.options or [] if o["order"] == "M"]
    goal = next(o for o in moves if o["to"][0] == "9J6")
    steer(g, {"A": goal}, stop=lambda d: g.state.turn == 2)
    a = g.state.units["A"]
    assert g.board.label(a.hex) == "9J6" and a.facing == goal["to"][1]


def test_mbt_24_3_2_3_overwatch_only_at_identified_targets(make_game: Any) -> None:
    # S moves up column J in scrub: seen moving (the doubled range, 14) but never within 7 of A
    units = [("A", "M1A1", NATO, "9J6", 4), ("S", "T-72M1", SOV, "9J20", 1)]
    g = make_game(units, terrain=SCRUB, options=OPT)
    watch = {"order": "OW", "when": "identified"}
    d = steer(g, {"A": watch}, stop=lambda d: d.kind == INSTRUCTION and d.context["unit"] == "S")
    assert d is not None
    go = min((o for o in d.options or [] if o["order"] == "M" and o["to"][0].startswith("9J")),
             key=lambda o: int(o["to"][0][2:]))
    end = int(go["to"][0][2:])
    assert 13 < end < 20  # never within A's chart range of 7
    asked: list[Decision] = []
    steer(g, {"A": watch, "S": go}, stop=lambda d: g.state.turn == 2, umpire_log=asked)
    assert g.board.label(g.state.units["S"].hex) == go["to"][0]
    assert not [x for x in asked if x.kind == OVERWATCH]
    # the same move against an overwatch at any target: the umpire is asked (MBT 24.3.3.2)
    g = make_game(units, terrain=SCRUB, options=OPT)
    steer(g, {"A": {"order": "OW", "when": "any"}, "S": go}, stop=lambda d: g.state.turn == 2,
          umpire_log=asked)
    ow = [x for x in asked if x.kind == OVERWATCH]
    assert ow and all(x.side == UMPIRE and x.context["for_side"] == NATO for x in ow)


def test_mbt_24_3_2_3_an_overwatch_range_limit(make_game: Any) -> None:
    g = make_game([("A", "M1A1", NATO, "9J2", 4), ("S", "T-72M1", SOV, "9J20", 1)], options=OPT)
    watch = {"order": "OW", "when": "any", "range": 5}
    d = steer(g, {"A": watch}, stop=lambda d: d.kind == INSTRUCTION and d.context["unit"] == "S")
    assert d is not None
    go = next(o for o in d.options or [] if o["order"] == "M" and o["to"][0] == "9J14")
    asked: list[Decision] = []
    steer(g, {"A": watch, "S": go},
          stop=lambda d: g.state.turn == 2, umpire_log=asked)
    assert g.board.label(g.state.units["S"].hex) == "9J14"
    assert not [x for x in asked if x.kind == OVERWATCH]  # S stays 12 or more hexes away
    g = make_game([("A", "M1A1", NATO, "9J2", 4), ("S", "T-72M1", SOV, "9J20", 1)], options=OPT)
    steer(g, {"A": {"order": "OW", "when": "any", "range": 20}, "S": go},
          stop=lambda d: g.state.turn == 2, umpire_log=asked)
    assert [x for x in asked if x.kind == OVERWATCH]


# -- MBT 24.3.3 ---------------------------------------------------------------------------------


def test_mbt_24_3_3_1_fire_at_a_knocked_out_unit_goes_to_the_closest_in_action(
        make_game: Any) -> None:
    g = make_game([("A", "M1A1", NATO, "9J2", 4), ("B", "T-72M1", SOV, "9J5", 1),
                   ("C", "T-72M1", SOV, "9J8", 1), ("D", "T-72M1", SOV, "9J12", 1)], options=OPT)
    d = steer(g, {}, stop=at(INSTRUCTION))
    assert d is not None
    assert d.context["unit"] == "A"
    g.answer({"order": "F", "target": "?9J5"})
    destroy(g, g.state.units["B"], "KO")  # knocked out before the Fire Phase
    while g.pending is not None and g.pending.kind == INSTRUCTION:
        g.answer({"order": "OW", "when": "any"})
    steer(g, {}, stop=lambda d: g.state.turn == 2)
    assert [e["target"] for e in results(g, "A")] == ["C"]
    moved = [e for e in g.log.events if e["type"] == "retargeted"]
    assert moved and moved[0]["visible_to"] == [] and moved[0]["target"] == "C"


def test_mbt_24_3_3_1_a_tie_is_settled_by_a_secret_roll(make_game: Any) -> None:
    g = make_game([("A", "M1A1", NATO, "9J2", 4), ("B", "T-72M1", SOV, "9J5", 1),
                   ("C", "T-72M1", SOV, "9I8", 1), ("D", "T-72M1", SOV, "9K8", 1)], options=OPT)
    steer(g, {}, stop=at(INSTRUCTION))
    g.answer({"order": "F", "target": "?9J5"})
    destroy(g, g.state.units["B"], "KO")
    while g.pending is not None and g.pending.kind == INSTRUCTION:
        g.answer({"order": "OW", "when": "any"})
    a = g.state.units["A"]
    assert a.hex is not None
    c, d = g.state.units["C"], g.state.units["D"]
    assert c.hex is not None and d.hex is not None
    assert a.hex.distance(c.hex) == a.hex.distance(d.hex)
    steer(g, {}, stop=lambda d: g.state.turn == 2)
    draws = [e for e in g.log.events if e["type"] == "roll" and "target for A" in e["purpose"]]
    assert draws and all(e["visible_to"] == [] for e in draws)
    assert [e["target"] for e in results(g, "A")] in (["C"], ["D"])


def test_mbt_24_3_3_the_hit_angle_is_the_umpires(make_game: Any) -> None:
    g = make_game([("A", "M1A1", NATO, "9J2", 4), ("B", "T-72M1", SOV, "9J9", 1)], options=OPT)
    um = g.umpire
    assert isinstance(um, MbtUmpire)
    d = Decision(SOV, "mbt.hit_angle", options=["Front", "Front-Side"], context={"firer": "A"})
    from hexwar.plugins.mbt.rules.umpired import hit_angle_decision

    asked = hit_angle_decision(g, d)
    assert asked.side == UMPIRE and asked.kind == HIT_ANGLE and asked.context["for_side"] == SOV
    assert um.policy(asked, UmpireView(g)) == "Front"  # the more frontal (MBTD-35)


def test_mbt_24_3_3_2_the_umpire_decides_when_overwatch_fires(make_game: Any) -> None:
    units = [("A", "M1A1", NATO, "9J2", 4), ("S", "T-72M1", SOV, "9J9", 1)]
    g = make_game(units, options=OPT)
    watch = {"order": "OW", "when": "any"}
    d = steer(g, {"A": watch}, stop=lambda d: d.kind == INSTRUCTION and d.context["unit"] == "S")
    assert d is not None
    go = next(o for o in d.options or [] if o["order"] == "M" and o["to"][0] == "9J5")
    asked: list[Decision] = []
    steer(g, {"A": watch, "S": go}, stop=lambda d: g.state.turn == 2, umpire_log=asked)
    windows = [x for x in asked if x.kind == OVERWATCH]
    assert windows and windows[0].side == UMPIRE and windows[0].context["mover"] == "S"
    assert results(g, "A")  # the automatic umpire fired at the approaching tank (MBTD-34)
    # a person umpire who never fires: no overwatch shot at all
    g = make_game(units, options=OPT)
    auto = AutomaticUmpire()
    while (p := g.pending) is not None and g.state.turn == 1:
        if p.side == UMPIRE:
            g.answer("pass" if p.kind == OVERWATCH else auto.choose(p, g.view(UMPIRE)))
        elif p.kind == INSTRUCTION:
            g.answer(go if p.context["unit"] == "S" else watch)
        else:
            g.answer(keep_turret(p))
    assert not results(g, "A")


# -- MBT 24.3.4 ---------------------------------------------------------------------------------


def test_mbt_24_3_4_pivots_and_turrets_wait_for_the_next_command_phase(make_game: Any) -> None:
    g = make_game([("A", "M1A1", NATO, "9J2", 4), ("F", "M1A1", NATO, "9A2", 4),
                   ("S", "T-72M1", SOV, "9A20", 1)], options=OPT, turns=2)
    names = [p.name for p in g.sequence]
    assert "mbt.turrets" not in names and names.index("mbt.pivot") > names.index("mbt.movement")
    d = steer(g, {}, stop=lambda d: d.kind == INSTRUCTION and d.context["unit"] == "A")
    assert d is not None
    stay = next(o for o in d.options or [] if o["order"] == "M")
    # told to move to a hex a friend then takes: it does not move, so MBT 9.1 lets it pivot
    g.state.units["F"].hex = g.board.parse(stay["to"][0])
    asked: list[tuple[int, str, Decision]] = []

    def note(x: Decision) -> bool:
        asked.append((g.state.turn, g.state.phase, x))
        return False

    steer(g, {"A": stay}, stop=lambda d: note(d) or g.state.turn == 2)
    assert g.board.label(g.state.units["A"].hex) == "9J2"
    steer(g, {}, stop=note)
    pivots = [(t, p) for t, p, x in asked if x.kind == "mbt.pivot" and x.context["unit"] == "A"]
    # asked once: in turn 2's Command Phase, not in turn 1's Adjustment Phase
    assert pivots == [(2, "mbt.orders")]
    turrets = {(t, p) for t, p, x in asked if x.kind == "mbt.turret"}
    assert turrets == {(2, "mbt.orders")}  # turn 1's were before the notes began


# -- MBT 24.4.1 ---------------------------------------------------------------------------------


def test_mbt_24_4_1_a_side_hears_a_result_only_when_it_sees_the_hex(make_game: Any) -> None:
    # A fires at C, seen only through its FIRED marker 10 hexes off in scrub: no result told
    g = make_game([("A", "M1A1", NATO, "9J2", 4), ("C", "T-72M1", SOV, "9J12", 1),
                   ("B", "T-72M1", SOV, "9K4", 1)], terrain=SCRUB, options=OPT)
    g.state.units["C"].state["spotted"] = "FIRED"
    g.state.data["mbt"]["sighted"] = {"A": ["C"]}
    um = g.umpire
    assert isinstance(um, MbtUmpire)
    shot = {"type": "result", "what": "AP point effect fire", "firer": "A", "target": "C",
            "result": {"hits": 1, "effects": ["track"]}}
    um.follow_up(shot)
    nato = [e for e in side_events(g.log.events, NATO) if e["type"] == "umpire_report"]
    assert nato[-1]["what"] == "fire not observed" and "effects" not in nato[-1]
    assert nato[-1]["target"] == "?9J12"
    sov = [e for e in side_events(g.log.events, SOV) if e["type"] == "umpire_report"]
    assert sov[-1]["what"] == "fired on" and sov[-1]["effects"] == ["track"]
    assert sov[-1]["source"] is not None  # C sees A: the owner hears where the fire came from
    shot["target"] = "B"  # two hexes away: the result is seen
    um.follow_up(shot)
    nato = [e for e in side_events(g.log.events, NATO) if e["type"] == "umpire_report"]
    assert nato[-1]["what"] == "fire observed" and nato[-1]["effects"] == ["track"]


def test_mbt_24_4_1_a_brew_up_is_seen_by_everyone_a_knock_out_only_nearby(
        make_game: Any) -> None:
    g = make_game([("A", "M1A1", NATO, "9J2", 4), ("C", "T-72M1", SOV, "9J14", 1),
                   ("D", "T-72M1", SOV, "9J16", 1), ("B", "T-72M1", SOV, "9K4", 1)],
                  terrain=SCRUB, options=OPT)
    apply_effects(g, g.state.units["C"], ["KO"])
    apply_effects(g, g.state.units["D"], ["BU"])
    apply_effects(g, g.state.units["B"], ["KO"])
    told = [e for e in side_events(g.log.events, NATO) if e["type"] == "umpire_report"
            and e["what"] != "sightings"]
    assert [(e["what"], e["hex"]) for e in told] == [("a vehicle brews up", "9J16"),
                                                    ("damage observed", "9K4")]
    assert not [e for e in side_events(g.log.events, NATO) if e["type"] == "damage"]
    assert len([e for e in side_events(g.log.events, SOV) if e["type"] == "damage"]) == 3
    assert set(g.view(NATO).system_state["wrecks"]) == {"9J16", "9K4"}
    assert contacts(g, NATO) is not None


def test_the_umpires_reports_in_words(make_game: Any) -> None:
    g = make_game([("A", "M1A1", NATO, "9J2", 4), ("B", "T-72M1", SOV, "9J5", 1)], options=OPT)
    report = next(e for e in side_events(g.log.events, NATO) if e.get("what") == "sightings")
    assert g.hooks.describe_event(g, report) == (
        "umpire: sightings: T-72M1 (Soviet) at 9J5 [MBT 24.3.2]")
    fired = {"type": "umpire_report", "what": "fired on", "unit": "A", "source": "?9J5",
             "hits": 1, "effects": ["track"], "rule": "MBT 24.4.1"}
    assert g.hooks.describe_event(g, fired) == (
        "umpire: A was fired on from 9J5: 1 hit(s), track [MBT 24.4.1]")
    order = {"type": "instruction", "unit": "A", "rule": "MBT 24.3.2",
             "instruction": {"order": "OW", "when": "identified", "range": 5}}
    assert g.hooks.describe_event(g, order) == (
        "A: overwatch at identified targets within 5 hexes [MBT 24.3.2]")


def test_mbt_24_2_the_umpire_may_tell_a_side_of_a_unit_its_units_do_not_see(
        make_game: Any) -> None:
    # MBT 24.2: information "supplied from others on the same side" comes through the umpire
    g = make_game([("A", "M1A1", NATO, "9J2", 4), ("S", "T-72M1", SOV, "9J20", 1)],
                  terrain=SCRUB, options=OPT)
    d = g.pending
    assert d is not None and d.kind == "umpire.reveal" and d.side == UMPIRE
    assert "S" not in contacts(g, NATO)
    reveal = {"side": NATO, "unit": "S", "level": "type"}
    assert reveal in (d.options or [])
    g.answer(reveal)
    shown = g.view(NATO).units["?9J20"]
    assert shown["state"]["level"] == "type" and "type" not in shown
    told = [e for e in side_events(g.log.events, NATO) if e.get("what") == "contact"]
    assert told and told[-1]["contact"]["id"] == "?9J20"
    assert not [e for e in side_events(g.log.events, SOV) if e.get("what") == "contact"]
    g.answer("done")
    assert g.pending is not None and g.pending.kind != "umpire.reveal"
