"""The Basic Game rules on the engine: sighting, LOS, orders, fire steps, overwatch, movement, units
of both sides in one hex (MBT 8.8), adjustment, victory. Tests of a worked case keep its number
(test_mbt_<n>_...)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from hexwar.core.errors import RulesError
from hexwar.core.hexgrid import Hex
from hexwar.plugins.mbt import movement_costs
from hexwar.plugins.mbt.adjustment import markers_phase, pivot_phase, turret_options
from hexwar.plugins.mbt.fire import atgm_announce_phase, direct_fire_phase
from hexwar.plugins.mbt.movement import adjust_contested, move_unit
from hexwar.plugins.mbt.orders import legal_orders, orders_phase
from hexwar.plugins.mbt.overwatch import overwatch_fire_phase
from hexwar.plugins.mbt.sequence import atgm_resolution_step
from hexwar.plugins.mbt.sighting import sees, sighting_phase
from hexwar.plugins.mbt.state import card_of, ctx, data
from hexwar.plugins.mbt.victory import final, victory_points

NATO, SOV = "NATO", "Soviet"


def order(game: Any, **orders: str) -> None:
    for uid, o in orders.items():
        game.state.units[uid].state["order"] = o


# -- sighting and LOS (MBT 6.1) --------------------------------------------------------------------


def test_mbt_16_17_sighting_ranges_scrub(make_game: Any) -> None:
    g = make_game([("A", "M1A1", NATO, "9J2", 4), ("B", "T-72M1", SOV, "9J9", 1),
                   ("C", "T-72M1", SOV, "9J12", 1), ("D", "T-72M1", SOV, "9J17", 1)],
                  terrain={"9J9": "scrub", "9J12": "scrub", "9J17": "scrub"})
    a, b, c, d = (g.state.units[k] for k in "ABCD")
    assert a.state["open"] is True
    assert sees(g, a, b)  # range 7 = open limit
    assert not sees(g, a, c)  # range 10
    a.state["open"] = False
    assert sees(g, a, c)  # buttoned: 10 (as printed, MBT 6.1.3.4)
    a.state["open"] = True
    c.state["spotted"] = "MOVED"
    assert sees(g, a, c)  # doubled: 14
    assert not sees(g, a, d)  # range 15
    d.state["spotted"] = "FIRED"
    assert sees(g, a, d)  # any range


def test_mbt_18_woods_five_hexes(make_game: Any) -> None:
    g = make_game([("A", "T-72M1", SOV, "9J2", 4), ("B", "Leopard 1A4", NATO, "9J7", 1),
                   ("C", "Leopard 1A4", NATO, "9J8", 1)], terrain={"9J7": "woods", "9J8": "woods"})
    a, b, c = (g.state.units[k] for k in "ABC")
    assert sees(g, a, b)  # range 5: the open limit for a vehicle in woods
    assert not sees(g, a, c)  # range 6 (and J7's woods block the line as well)
    a.state["open"] = False
    assert not sees(g, a, b)  # buttoned: the stand-in 4


def test_mbt_20_moving_units_count_as_moved(make_game: Any) -> None:
    g = make_game([("A", "M1A1", NATO, "9J2", 4), ("B", "T-72M1", SOV, "9J16", 1),
                   ("C", "T-72M1", SOV, "9J17", 1)], terrain={"9J16": "scrub", "9J17": "scrub"})
    a, b, c = (g.state.units[k] for k in "ABC")
    assert not sees(g, a, b) and sees(g, a, b, moving=True)  # 14 = 7 x 2
    assert not sees(g, a, c, moving=True)  # 15


def test_mbt_24_25_los_woods_and_adjacent(make_game: Any) -> None:
    g = make_game([("A", "M1A1", NATO, "9J2", 4), ("B", "T-72M1", SOV, "9J6", 1),
                   ("C", "T-72M1", SOV, "9J5", 1)], terrain={"9J4": "woods", "9J5": "woods"})
    info = ctx(g).info
    p = g.board.parse
    assert not info.los(p("9J2"), p("9J6"))  # woods between (MBT 6.1.4.5)
    assert info.los(p("9J4"), p("9J5"))  # adjacent: always (MBT 6.1.4)
    assert info.los(p("9J3"), p("9J4"))


def test_mbt_26_hills(make_game: Any) -> None:
    g = make_game([("A", "M1A1", NATO, "9J2", 4)], heights={"9J2": 1, "9J4": 1, "9J6": 2})
    info = ctx(g).info
    p = g.board.parse
    assert not info.los(p("9J3"), p("9J5"))  # clear -> clear over a hill: blocked
    assert info.los(p("9J2"), p("9J6"))  # hill -> hill over a hill: clear (heights ignored)


def test_mbt_27_depressions(make_game: Any) -> None:
    g = make_game([("A", "M1A1", NATO, "9J2", 4)], heights={"9J2": -1, "9J6": 1, "9J8": -1,
                                                             "9J10": -1, "9J9": -1},
                  terrain={"9J7": "woods"})
    info = ctx(g).info
    p = g.board.parse
    assert not info.los(p("9J2"), p("9J4"))  # depression -> clear over clear: blocked
    assert info.los(p("9J2"), p("9J6"))  # depression -> hill over clear: clear
    assert not info.los(p("9J8"), p("9J6"))  # depression -> hill over woods (J7): blocked
    assert info.los(p("9J8"), p("9J10"))  # depression -> depression over a depression: clear
    assert not info.los(p("9J8"), p("9J12"))  # depression -> clear over depressions: J10 ok, J11 no


# -- orders (MBT 6.2) ---------------------------------------------------------------------------


def test_orders_need_a_seen_enemy_for_fire_and_a_working_unit(make_game: Any, run: Any) -> None:
    g = make_game([("A", "T-80A", SOV, "9J2", 4), ("B", "M1A1", NATO, "9J6", 1),
                   ("C", "M1A1", NATO, "9A20", 1)], terrain={"9A19": "woods", "9B19": "woods"})
    run(sighting_phase(g), [])
    a, c = g.state.units["A"], g.state.units["C"]
    assert set(legal_orders(g, a)) == {"F", "FM", "M", "OW", "ATGM"}
    assert data(g)["sighted"]["C"] == [] and set(legal_orders(g, c)) == {"M", "OW"}
    a.state["damage"]["track"] = True  # MBT 6.2.3: no move orders for an immobile unit
    assert set(legal_orders(g, a)) == {"F", "OW", "ATGM"}
    a.state["damage"]["gun"] = True
    assert set(legal_orders(g, a)) == {"ATGM"}


def test_orders_are_secret_and_simultaneous(make_game: Any) -> None:
    from hexwar.core.engine.decisions import Simultaneous

    g = make_game([("A", "T-80A", SOV, "9J2", 4), ("B", "M1A1", NATO, "9J6", 1)])
    run_gen = orders_phase(g)
    data(g)["sighted"] = {"A": ["B"], "B": ["A"]}
    item = run_gen.send(None)
    assert isinstance(item, Simultaneous)
    assert [d.side for d in item.decisions] == [NATO, SOV]
    with pytest.raises(StopIteration):
        run_gen.send(["OW", "F"])
    assert g.state.units["B"].state["order"] == "OW"
    # the other side's view never shows an unrevealed order
    view = g.view(SOV)
    assert "order" not in view.units["B"]["state"]
    assert view.own_units()["A"]["state"]["order"] == "F"
    assert all(not (e.get("type") == "order" and e.get("unit") == "B") for e in view.events())


def test_bad_order_is_rejected_and_changes_nothing(make_game: Any) -> None:
    g = make_game([("A", "T-80A", SOV, "9J2", 4), ("B", "M1A1", NATO, "9J6", 1)])
    g.state.units["A"].state["damage"]["track"] = True
    sighting_phase(g).close()
    data(g)["sighted"] = {"A": ["B"], "B": ["A"]}
    gen = orders_phase(g)
    item = gen.send(None)
    before = g.state.digest()
    with pytest.raises(RulesError, match=r"A cannot move \(track or hull compartment hit; MBT 6\.2\.3\)"):
        item.decisions[1].check("M")
    with pytest.raises(RulesError, match="not a Basic Game order"):
        item.decisions[1].check("CA")
    assert g.state.digest() == before


def test_units_not_seen_are_not_in_the_enemy_view(make_game: Any) -> None:
    g = make_game([("A", "T-80A", SOV, "9J2", 4), ("B", "M1A1", NATO, "9J6", 1),
                   ("C", "M1A1", NATO, "9J9", 1)], terrain={"9J8": "woods"})
    view = g.view(SOV)
    assert "B" in view.units and "C" not in view.units


# -- fire steps (MBT 5.3, 7.1-7.3) ----------------------------------------------------------------


def test_mbt_180_unit_hit_in_direct_fire_step_still_fires(make_game: Any, run: Any,
                                                           dice_faces: Any) -> None:
    g = make_game([("A", "M1A1", NATO, "9J2", 4), ("B", "T-72M1", SOV, "9J5", 1)])
    order(g, A="F", B="F")
    # A (first side, ROF 2): roll 01 = 2 hits, both TF (05), damage 50 = KO twice;
    # B: roll 01 hit, location 40 (HF), damage 50 = KO
    g.dice.force(*dice_faces(1, 5, 50, 5, 50, 1, 40, 50))
    decl_a = {"target": "B", "shots": [["A", "APFSDS"]]}
    decl_b = {"target": "A", "shots": [["B", "APFSDS"]]}
    run(direct_fire_phase(g), [decl_a, decl_b])
    a, b = g.state.units["A"], g.state.units["B"]
    assert b.state["fired"] and b.state["pending"] == ["KO", "KO"]  # hit, yet it fired (MBT 5.3)
    assert a.state["pending"] == ["KO"]
    assert a.hex is not None and b.hex is not None  # nothing applied until the step ends
    g.apply_deferred()
    assert a.state["destroyed"] == "KO" and b.state["destroyed"] == "KO"
    assert data(g)["wrecks"] == {"9J2": "normal", "9J5": "normal"}


def test_mbt_181_declared_shots_at_a_knocked_out_target_are_wasted(make_game: Any, run: Any,
                                                                    dice_faces: Any) -> None:
    g = make_game([("A", "T-72M1", SOV, "9J2", 4), ("B", "T-72M1", SOV, "9K2", 4),
                   ("C", "T-72M1", SOV, "9I2", 4), ("T", "Leopard 1A4", NATO, "9J5", 1)])
    data(g)["first"] = SOV
    order(g, A="F", B="F", C="F", T="OW")
    g.dice.force(*dice_faces(1, 5, 50))
    decl = {"target": "T", "shots": [["A", "APFSDS"], ["B", "APFSDS"]]}
    _, asked = run(direct_fire_phase(g), [decl, "pass"])
    assert g.state.units["B"].state["fired"]
    wasted = [e for e in g.log.for_side(None) if e.get("what") == "shot wasted"]
    assert [e["firer"] for e in wasted] == ["B"]
    # C may not fire at T any more in this step (MBT 7.3.2)
    bad = asked[-1]
    assert bad.validate is not None
    assert "already been fired at" in (bad.validate({"target": "T", "shots": [["C", "APFSDS"]]}) or "")


def test_shot_out_of_arc_or_sight_is_rejected(make_game: Any, run: Any) -> None:
    g = make_game([("A", "T-72M1", SOV, "9J2", 1), ("T", "Leopard 1A4", NATO, "9J6", 1),
                   ("U", "Leopard 1A4", NATO, "9J12", 1), ("B", "T-72M1", SOV, "9K2", 4)],
                  terrain={"9J10": "woods"})
    order(g, A="F", B="F")
    gen = direct_fire_phase(g)
    d = gen.send(None)
    assert d.validate is not None
    assert "arc" in (d.validate({"target": "T", "shots": [["A", "APFSDS"]]}) or "")
    g.state.units["A"].state["turret"] = 4
    assert d.validate({"target": "T", "shots": [["A", "APFSDS"]]}) is None
    assert "cannot see" in (d.validate({"target": "U", "shots": [["A", "APFSDS"]]}) or "")
    before = g.state.digest()
    with pytest.raises(RulesError):
        d.check({"target": "U", "shots": [["A", "APFSDS"]]})
    assert g.state.digest() == before


def test_overwatch_fire_step_only_at_units_that_fired(make_game: Any, run: Any,
                                                      dice_faces: Any) -> None:
    g = make_game([("A", "M1A1", NATO, "9J2", 4), ("B", "T-72M1", SOV, "9J6", 1),
                   ("C", "T-72M1", SOV, "9K6", 1)])
    order(g, A="OW", B="F", C="OW")
    g.state.units["B"].state["fired"] = True
    g.dice.force(*dice_faces(99))
    _, asked = run(overwatch_fire_phase(g), lambda d: (
        {"target": "B", "shots": [["A", "APFSDS"]]} if d.side == NATO and
        {"target": "B", "shots": [["A", "APFSDS"]]} in list(d.options or []) else "pass"))
    targets = {o["target"] for d in asked if d.side == NATO for o in d.options if isinstance(o, dict)}
    assert targets == {"B"}  # C did not fire
    # C (OW) may now fire at A, which just fired (MBT 7.5.1 chains in the step)
    sov = [d for d in asked if d.side == SOV]
    assert sov and any(isinstance(o, dict) and o["target"] == "A" for o in sov[0].options)
    assert g.state.units["A"].state["fired"]


# -- ATGM (MBT 7.2.2) ---------------------------------------------------------------------------


def test_mbt_113_114_atgm_resolution(make_game: Any, run: Any, dice_faces: Any) -> None:
    g = make_game([("A", "T-80A", SOV, "9J2", 4), ("B", "M1A1", NATO, "9J8", 1),
                   ("C", "T-80A", SOV, "9K2", 4), ("D", "M1A1", NATO, "9K8", 1)],
                  terrain={"9G5": "woods"})
    data(g)["first"] = SOV
    order(g, A="ATGM", C="ATGM", B="M", D="M")
    run(atgm_announce_phase(g), [{"firer": "A", "target": "B"}, {"firer": "C", "target": "D"}])
    assert data(g)["atgm"] == [{"firer": "A", "target": "B"}, {"firer": "C", "target": "D"}]
    assert g.state.units["A"].state["spotted"] == "FIRED"
    # B moves out of A's 60-degree arc but stays in sight: still resolved (MBT 7.2.2.2)
    g.state.units["B"].hex = g.board.parse("9N6")
    assert not __import__("hexwar.plugins.mbt.fire", fromlist=["x"]).in_turret_arc(
        g.state.units["A"], g.state.units["B"].hex)
    # C is knocked out before resolution: automatic miss (MBT 7.2.2.1)
    g.state.units["C"].state["destroyed"] = "KO"
    g.state.units["C"].hex = None
    g.dice.force(*dice_faces(99))
    run(atgm_resolution_step(g), [])
    results = [e for e in g.log.for_side(None) if e.get("type") == "result"]
    assert any(e["what"] == "AP point effect fire" and e["firer"] == "A" for e in results)
    assert any("firer destroyed" in str(e["result"]) for e in results)


def test_mbt_114_atgm_target_behind_woods_misses(make_game: Any, run: Any) -> None:
    g = make_game([("A", "T-80A", SOV, "9J2", 4), ("B", "M1A1", NATO, "9J8", 1)],
                  terrain={"9J10": "woods"})
    order(g, A="ATGM", B="M")
    data(g)["atgm"] = [{"firer": "A", "target": "B"}]
    g.state.units["A"].state["fired"] = True
    g.state.units["B"].hex = g.board.parse("9J12")
    run(atgm_resolution_step(g), [])
    results = [e for e in g.log.for_side(None) if e.get("type") == "result"]
    assert any("automatic miss" in str(e["result"]) and "see" in str(e["result"]) for e in results)


# -- movement (MBT 8.0) and overwatch during movement (MBT 7.5.2-7.5.3) ----------------------------


def mctx() -> movement_costs.MoveContext:
    return movement_costs.MoveContext()


def test_mbt_89_fm_moves_half(make_game: Any) -> None:
    from hexwar.plugins.mbt.movement import movement_allowance

    g = make_game([("A", "T-80A", SOV, "9J2", 4)])
    order(g, A="M")
    assert movement_allowance(g, g.state.units["A"]) == 6
    order(g, A="FM")
    assert movement_allowance(g, g.state.units["A"]) == 3


def test_mbt_90_turn_costs_per_hex(make_game: Any) -> None:
    g = make_game([("A", "T-80A", SOV, "9J5", 1)])
    card, info = card_of(g, g.state.units["A"]), ctx(g).info
    h = g.board.parse("9J5")
    succ = movement_costs.successors(card, info, mctx())
    turns = {s[1]: c for s, c in succ((h, 1, False)) if s[0] == h}
    assert turns == {2: 0, 6: 0, 3: 1, 5: 1, 4: 2}
    assert not [s for s, _ in succ((h, 1, True)) if s[0] == h]  # one turn per hex


def test_mbt_91_92_93_costs(make_game: Any) -> None:
    g = make_game([("A", "M1A1", NATO, "9J5", 1)], terrain={"9J3": "rough"}, heights={"9J4": 1})
    card, info = card_of(g, g.state.units["A"]), ctx(g).info
    p = g.board.parse
    assert movement_costs.enter_cost(card, info, p("9J6"), p("9J5"), mctx()) == 1  # clear
    assert movement_costs.enter_cost(card, info, p("9J5"), p("9J4"), mctx()) == 2  # clear hill, +1 height
    assert movement_costs.enter_cost(card, info, p("9J4"), p("9J3"), mctx()) == 5  # rough 4, +1 down
    succ = movement_costs.successors(card, info, mctx())
    back = [(s, c) for s, c in succ((p("9J5"), 1, False)) if s[0] == p("9J6")]
    assert back == [((p("9J6"), 1, False), Fraction(2))]  # reverse: twice the cost, facing kept


def test_mbt_94_95_96_roads(make_game: Any) -> None:
    g = make_game([("A", "M1A1", NATO, "9J5", 1)], terrain={"9J3": "rough", "9J2": "stone"},
                  heights={"9J3": 1, "9J2": 2},
                  roads=[("9J5", "9J4"), ("9J4", "9J3"), ("9J3", "9J2")], features={
                      "9J5": ["road"], "9J4": ["road"], "9J3": ["road"], "9J2": ["road"]})
    card, info = card_of(g, g.state.units["A"]), ctx(g).info
    p = g.board.parse
    third = Fraction(1, 3)
    assert movement_costs.enter_cost(card, info, p("9J5"), p("9J4"), mctx()) == third
    assert movement_costs.enter_cost(card, info, p("9J4"), p("9J3"), mctx()) == third  # rough, 1 height
    assert movement_costs.enter_cost(card, info, p("9J3"), p("9J2"), mctx()) == third + 1  # building +1
    found = movement_costs.reach(card, info, (p("9J5"), 1, False), Fraction(2), mctx())
    assert found[(p("9J2"), 1)] == 2  # 1/3 + 1/3 + 4/3: three road hexes for 2 MF
    assert (p("9J2"), 1) not in movement_costs.reach(card, info, (p("9J5"), 1, False), Fraction(5, 3), mctx())
    blocked = movement_costs.MoveContext(wrecks=frozenset({p("9J4")}))
    assert movement_costs.enter_cost(card, info, p("9J5"), p("9J4"), blocked) == 1  # wreck: no road rate


def test_mbt_98_first_hex_rule(make_game: Any) -> None:
    g = make_game([("A", "T-80A", SOV, "9J5", 1)], terrain={"9J4": "rough"}, heights={"9J4": 3})
    card, info = card_of(g, g.state.units["A"]), ctx(g).info
    p = g.board.parse
    assert movement_costs.enter_cost(card, info, p("9J5"), p("9J4"), mctx()) is None  # 3 heights: P
    assert (p("9J4"), 1) not in movement_costs.reach(card, info, (p("9J5"), 1, False), Fraction(6), mctx(),
                                            first_hex_rule=True)  # never into a prohibited hex
    g2 = make_game([("A", "T-80A", SOV, "9J5", 1)], terrain={"9J4": "rough"}, heights={"9J4": 2})
    card, info = card_of(g2, g2.state.units["A"]), ctx(g2).info
    p = g2.board.parse
    start = (p("9J5"), 1, False)
    assert movement_costs.enter_cost(card, info, p("9J5"), p("9J4"), mctx()) == 7
    assert (p("9J4"), 1) not in movement_costs.reach(card, info, start, Fraction(6), mctx())
    assert (p("9J4"), 1) in movement_costs.reach(card, info, start, Fraction(6), mctx(), first_hex_rule=True)
    # after paying for a turn the rule no longer applies
    assert (p("9J4"), 1) not in movement_costs.reach(card, info, (p("9J5"), 1, True), Fraction(5), mctx(),
                                            first_hex_rule=False)


def test_mbt_99_stacking_and_a_move_it_cannot_pay_for(make_game: Any, run: Any) -> None:
    g = make_game([("A", "T-80A", SOV, "9J5", 1), ("B", "T-80A", SOV, "9J3", 1)])
    order(g, A="M")
    gen = move_unit(g, g.state.units["A"])
    d = gen.send(None)
    assert ["9J3", 1] not in d.options  # a friend is there: may pass, may not stop (MBT 4.3)
    assert ["9J2", 1] in d.options
    assert ["9J20", 4] not in d.options  # too far for 6 MF
    before = g.state.digest()
    with pytest.raises(RulesError, match=r"cannot reach 9J20 facing 4 with 6 MF left"):
        d.check(["9J20", 4])
    with pytest.raises(RulesError, match=r"friendly unit.*MBT 4\.3"):
        d.check(["9J3", 1])
    assert g.state.digest() == before


def test_overwatch_triggered_by_movement_with_a_chain(make_game: Any, run: Any,
                                                      dice_faces: Any) -> None:
    g = make_game([("M", "T-80A", SOV, "9J10", 1), ("W", "M1A1", NATO, "9J2", 4),
                   ("X", "T-80A", SOV, "9K10", 1)])
    order(g, M="M", W="OW", X="OW")
    g.dice.force(*dice_faces(99, 99))  # both miss

    def answer(d: Any) -> Any:
        if d.kind == "mbt.move_to":
            return ["9J8", 1] if ["9J8", 1] in d.options else "stay"
        if d.kind == "mbt.overwatch" and d.side == NATO:
            return {"target": "M", "shots": [["W", "APFSDS"]]}
        if d.kind == "mbt.overwatch" and d.side == SOV:
            return {"target": "W", "shots": [["X", "APFSDS"]]}
        return "pass"

    _, asked = run(move_unit(g, g.state.units["M"]), answer)
    kinds = [(d.kind, d.side) for d in asked]
    assert ("mbt.overwatch", NATO) in kinds and ("mbt.overwatch", SOV) in kinds
    assert g.state.units["W"].state["fired"] and g.state.units["X"].state["fired"]
    assert g.state.units["M"].state["spotted"] == "MOVED"
    # the mover was asked again after the chain and went on (it stayed here)
    assert kinds.index(("mbt.overwatch", SOV)) < len(kinds) - 1


def test_overwatch_that_stops_the_mover(make_game: Any, run: Any, dice_faces: Any) -> None:
    g = make_game([("M", "T-80A", SOV, "9J10", 1), ("W", "M1A1", NATO, "9J2", 4)])
    order(g, M="M", W="OW")
    g.dice.force(*dice_faces(1, 75, 75))  # 2 hits, both on the tracks (TK 71-85)

    def answer(d: Any) -> Any:
        if d.kind == "mbt.move_to":
            return ["9J6", 1] if ["9J6", 1] in d.options else "stay"
        if d.kind == "mbt.overwatch":
            return {"target": "M", "shots": [["W", "APFSDS"]]}
        return "pass"

    run(move_unit(g, g.state.units["M"]), answer)
    m = g.state.units["M"]
    assert m.state["damage"]["track"] and g.board.label(m.hex) == "9J9"  # stopped where hit


# -- MBT 8.8 and 4.8 ------------------------------------------------------------------------------


def test_mbt_110_contested_hexes(make_game: Any) -> None:
    g = make_game([("S", "T-80A", SOV, "9J5", 1), ("N", "M1A1", NATO, "9J5", 4),
                   ("T", "T-80A", SOV, "9K5", 1), ("U", "M1A1", NATO, "9K5", 4)])
    t = g.state.turn
    g.state.units["N"].state.update(entered=[t, 1], prev="9J4")
    g.state.units["T"].state.update(entered=[t, 2], prev="9K6")
    g.state.units["U"].state.update(entered=[t, 3], prev="9K4")
    adjust_contested(g)
    assert g.board.label(g.state.units["N"].hex) == "9J4"  # Soviet did not move in: it stays
    assert g.board.label(g.state.units["U"].hex) == "9K4"  # both moved in: the first stays
    assert g.board.label(g.state.units["T"].hex) == "9K5"


def test_mbt_111_control_by_passing_through(make_game: Any, run: Any) -> None:
    rough = {f"9{c}{r}": "rough" for c in "IK" for r in range(4, 10)}
    g = make_game([("N", "M1A1", NATO, "9J9", 1)], terrain={"9J7": "stone", **rough})
    data(g)["control"] = {"9J7": SOV}
    order(g, N="M")
    run(move_unit(g, g.state.units["N"]), lambda d: ["9J5", 1] if d.kind == "mbt.move_to" and
        ["9J5", 1] in d.options else "stay")
    assert g.board.label(g.state.units["N"].hex) == "9J5"
    assert data(g)["control"]["9J7"] == NATO


# -- adjustment (MBT 9.0) ------------------------------------------------------------------------


def test_mbt_178_turret_turn(make_game: Any) -> None:
    g = make_game([("A", "M1A1", NATO, "9J5", 1)])
    a = g.state.units["A"]
    assert {f for f, _ in turret_options(g, a)} == {5, 6, 1, 2, 3}
    a.state["damage"]["compartment"] = "hull"
    assert {f for f, _ in turret_options(g, a)} == {6, 1, 2}


def test_mbt_179_pivot_step(make_game: Any, run: Any) -> None:
    g = make_game([("A", "T-80A", SOV, "9J5", 1), ("B", "T-80A", SOV, "9K5", 1),
                   ("C", "T-80A", SOV, "9L5", 1)])
    order(g, A="M", B="F", C="M")
    g.state.units["C"].state["damage"]["track"] = True
    _, asked = run(pivot_phase(g), [4])
    assert [d.context["unit"] for d in asked] == ["A"]
    assert g.state.units["A"].facing == 4
    assert g.state.units["B"].state["spotted"] == "FIRED"  # unused F order (MBT 9.1)
    assert g.state.units["A"].state["spotted"] == "MOVED"


def test_adjust_markers_removes_unseen_spotted_markers(make_game: Any, run: Any) -> None:
    g = make_game([("A", "T-80A", SOV, "9J2", 4), ("B", "M1A1", NATO, "9J12", 1),
                   ("C", "M1A1", NATO, "9N12", 1)], terrain={"9J8": "woods"})
    g.state.units["C"].state["spotted"] = "MOVED"
    g.state.units["B"].state["spotted"] = "FIRED"
    g.state.units["A"].state["spotted"] = "MOVED"
    run(markers_phase(g), [])
    assert g.state.units["B"].state["spotted"] is None  # behind the woods: nobody sees it
    assert g.state.units["C"].state["spotted"] == "MOVED"  # A still sees C (clear line)
    assert g.state.units["A"].state["spotted"] == "MOVED"  # and C sees A


# -- victory (MBT 9.4) -----------------------------------------------------------------------------


def test_mbt_159_163_victory_points(make_game: Any) -> None:
    g = make_game([("N1", "M1A1", NATO, "9A1", 4), ("S1", "T-80A", SOV, "9A10", 1),
                   ("S2", "T-80A", SOV, "9B10", 1), ("S3", "T-80A", SOV, "9C10", 1),
                   ("S4", "T-80A", SOV, "9D10", 1)], terrain={"9E5": "stone", "9F5": "stone"})
    s = g.state.units
    s["S1"].state["destroyed"] = "BU"
    s["S2"].state["damage"]["compartment"] = "hull"
    s["S3"].state["damage"]["track"] = True
    s["S4"].state["damage"]["gun"] = True
    assert victory_points(g)[NATO] == 80 + 40 + 20 + 20
    data(g)["control"] = {"9E5": SOV, "9F5": SOV}
    assert victory_points(g)[SOV] == 20
    assert final(g).winner == NATO  # 160 - 20 >= 30
    s["S1"].state["destroyed"] = None
    s["S2"].state["damage"]["compartment"] = None
    res = final(g)  # 40 vs 20: margin 20 -> tie
    assert res.winner is None and res.level == "tie"


def test_automatic_victory(make_game: Any) -> None:
    from hexwar.plugins.mbt.victory import automatic

    g = make_game([("N1", "M1A1", NATO, "9A1", 4), ("S1", "T-80A", SOV, "9A10", 1)])
    assert automatic(g) is None
    g.state.units["S1"].state["destroyed"] = "KO"
    g.state.units["S1"].hex = None
    r = automatic(g)
    assert r is not None and r.winner == NATO


def test_mbt_56_one_wreck_per_hex_burning_if_any_brewed_up(make_game: Any) -> None:
    from hexwar.plugins.mbt.fire import apply_effects

    g = make_game([("A", "T-80A", SOV, "9J5", 1), ("B", "T-80A", SOV, "9J5", 1),
                   ("C", "T-80A", SOV, "9J5", 1)])
    apply_effects(g, g.state.units["A"], ["KO"])
    apply_effects(g, g.state.units["B"], ["KO"])
    assert data(g)["wrecks"] == {"9J5": "normal"}  # MBT 7.4.7.3-7.4.7.4: one wreck per hex
    apply_effects(g, g.state.units["C"], ["BU"])
    assert data(g)["wrecks"] == {"9J5": "burning"}


def test_mbt_47_48_hit_angle_and_elevation_in_play(make_game: Any) -> None:
    from hexwar.plugins.mbt.fire import elevation, hit_angle

    g = make_game([("T", "T-80A", SOV, "9J5", 1)], heights={"9J2": 1})
    t = g.state.units["T"]
    p = g.board.parse
    assert hit_angle(p("9J2"), t) == "Front"
    assert hit_angle(p("9J8"), t) == "Rear"
    assert hit_angle(p("9M5"), t) in ("Front-Side", "Rear-Side")
    assert elevation(ctx(g).info, p("9J2"), p("9J5")) == "Falling"
    assert elevation(ctx(g).info, p("9J5"), p("9J2")) == "Rising"
    assert elevation(ctx(g).info, p("9J6"), p("9J5")) == "Level"
    assert Hex(0, 0).distance(Hex(0, 0)) == 0


# -- dice and geometry (MBT 4.2, 4.7) ------------------------------------------------------------


def test_mbt_1_2_3_reading_the_dice() -> None:
    from hexwar.core.dice import Dice

    d = Dice(0)
    d.force(5, 3, 0, 0, 0, 1, 0)
    assert d.d100("MBT 4.2 example") == 53
    assert d.d100("MBT 4.2: 00") == 100
    assert d.d100("MBT 4.2: 01") == 1
    assert d.d10("MBT 4.2, 5.1: 0") == 10


def test_mbt_10_range_counts_hexes_not_the_start(make_game: Any) -> None:
    g = make_game([("A", "M1A1", NATO, "9J2", 4)])
    p = g.board.parse
    assert p("9J2").distance(p("9J2")) == 0
    assert p("9J2").distance(p("9J3")) == 1
    assert p("9J2").distance(p("9J7")) == 5


def test_mbt_42_brew_up_hexes_on_the_line(make_game: Any) -> None:
    from hexwar.plugins.mbt.fire import brewup_hexes

    g = make_game([("A", "M1A1", NATO, "9J2", 4)])
    p = g.board.parse
    data(g)["wrecks"] = {"9J4": "burning", "9J6": "burning", "9J8": "normal"}
    assert brewup_hexes(g, p("9J2"), p("9J9")) == 2  # two separate brew-up hexes, not the normal wreck
    data(g)["wrecks"] = {"9J9": "burning"}
    assert brewup_hexes(g, p("9J2"), p("9J9")) == 1  # the target's own hex ("enters")
    # a line exactly along the hexside between two brew-up hexes counts once
    a, b = p("9J5"), p("9J5").neighbor(3).neighbor(2)  # two steps along a hexside line
    between = [h for h in a.neighbors() if h.distance(b) == 1]
    assert len(between) == 2
    data(g)["wrecks"] = {g.board.label(h): "burning" for h in between}
    assert brewup_hexes(g, a, b) == 1


def test_mbt_97_bridge_with_a_wreck(make_game: Any) -> None:
    g = make_game([("A", "M1A1", NATO, "9J5", 1)], terrain={"9J4": "stream"},
                  features={"9J5": ["road"], "9J4": ["road", "stream", "bridge"]},
                  roads=[("9J5", "9J4")])
    card, info = card_of(g, g.state.units["A"]), ctx(g).info
    p = g.board.parse
    assert movement_costs.enter_cost(card, info, p("9J5"), p("9J4"), mctx()) == Fraction(1, 3) + 1
    wreck = movement_costs.MoveContext(wrecks=frozenset({p("9J4")}))
    assert movement_costs.enter_cost(card, info, p("9J5"), p("9J4"), wreck) == 1  # clear cost (MBT 8.6.1)
    burning = movement_costs.MoveContext(wrecks=frozenset({p("9J4")}), burning=frozenset({p("9J4")}))
    assert movement_costs.enter_cost(card, info, p("9J5"), p("9J4"), burning) == 2  # smoke "+"
    # MBT 8.6: entering the bridge hex other than along the road is entering the stream
    assert movement_costs.enter_cost(card, info, p("9K5"), p("9J4"), mctx()) == card.move_costs["stream"]
    # a wreck on the bridge does not make wading the stream from off the road any cheaper
    assert movement_costs.enter_cost(card, info, p("9K5"), p("9J4"), wreck) == card.move_costs["stream"]
    # an enemy unit on the bridge bars the road rate (MBT 8.5.2); the bridge is crossed as clear
    enemy = movement_costs.MoveContext(enemies=frozenset({p("9J4")}))
    assert movement_costs.enter_cost(card, info, p("9J5"), p("9J4"), enemy) == 1


def test_mbt_40_acquisition_in_play(make_game: Any, run: Any, dice_faces: Any) -> None:
    from hexwar.plugins.mbt.fire import acquisition_turns

    g = make_game([("A", "T-72M1", SOV, "9J2", 4), ("B", "M1A1", NATO, "9J12", 1)])
    a, b = g.state.units["A"], g.state.units["B"]
    data(g)["hits"] = {"A>B": [g.state.turn - 2, g.state.turn - 1]}
    assert acquisition_turns(g, a, b) == 2
    data(g)["hits"] = {"A>B": [g.state.turn - 2]}
    assert acquisition_turns(g, a, b) == 0  # consecutive only
    order(g, A="F")
    g.dice.force(*dice_faces(1, 75))  # a hit on the tracks
    run(direct_fire_phase(g), [{"target": "B", "shots": [["A", "APFSDS"]]}])
    assert data(g)["hits"]["A>B"][-1] == g.state.turn


def test_a_unit_moving_off_the_edge_leaves_the_game(make_game: Any, run: Any) -> None:
    g = make_game([("A", "T-80A", SOV, "9J1", 1), ("B", "T-80A", SOV, "9J5", 1)])
    order(g, A="M", B="M")
    gen = move_unit(g, g.state.units["B"])
    assert "exit" not in gen.send(None).options  # not at an edge
    run(move_unit(g, g.state.units["A"]), ["exit"])
    a = g.state.units["A"]
    assert a.hex is None and a.state["exited"] and a.state["destroyed"] is None  # MBT 8.7


def test_target_owner_picks_the_hit_angle_on_a_dividing_line(make_game: Any, run: Any,
                                                             dice_faces: Any) -> None:
    from hexwar.plugins.mbt.fire import hit_angles

    g = make_game([("T", "T-72M1", SOV, "9J5", 1), ("A", "M1A1", NATO, "9J5", 1)])
    t = g.state.units["T"]
    p = g.board.parse
    corner = p("9J5").neighbor(1).neighbor(2)  # on the line through the corner of hexsides 1|2
    assert hit_angles(corner, t) == ["Front", "Front-Side"]
    assert hit_angles(p("9J2"), t) == ["Front"]
    g.state.units["A"].hex = corner
    g.state.units["A"].state["turret"] = 5
    order(g, A="F")
    g.dice.force(*dice_faces(99))
    _, asked = run(direct_fire_phase(g), lambda d: (
        {"target": "T", "shots": [["A", "APFSDS"]]} if d.kind == "mbt.fire" and d.side == NATO
        else "Front-Side" if d.kind == "mbt.hit_angle" else "pass"))
    angle = [d for d in asked if d.kind == "mbt.hit_angle"]
    assert len(angle) == 1 and angle[0].side == SOV and angle[0].rule == "MBT 7.4.5.2.1"
    shot = next(e for e in g.log.for_side(None) if e.get("what") == "AP point effect fire")
    assert shot["angle"] == "Front-Side"
