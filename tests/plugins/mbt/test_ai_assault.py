"""The MBT AI's close combat, GP fire at terrain, smoke and suppression in the Advanced Game
(docs/decisions.md MBTD-107, MBTD-108): close assaults (MBT 14.5) and hand-to-hand attacks
(MBT 14.6) weighed with the close-assault procedure's own numbers (``view.rules.assault_odds``,
``h2h_odds``, which call :func:`~hexwar.plugins.mbt.close_assault.assault_numbers`), squads drawn
next to the vehicles they could assault well, GP fire at wire on the way forward (MBT 12.4.2,
14.4.3.3), smoke for a move across open ground in an enemy's sight (MBT 12.6), and GP fire at
what suppression stops (MBT 12.3, 14.5)."""

from __future__ import annotations

from typing import Any

import pytest

from hexwar.core.engine.decisions import Decision
from hexwar.plugins.mbt import close_assault, gp_terrain
from hexwar.plugins.mbt.ai import MbtAI
from hexwar.plugins.mbt.markers import markers
from hexwar.plugins.mbt.suppression import suppress

ADV = ["mbt.advanced"]


def _squad_among(make_game: Any, **kw: Any) -> Any:
    """A NATO squad with a Soviet tank (buttoned-up odds poor), an open BTR (good odds) and a
    Soviet squad next to it."""
    return make_game([("R1", "Rifle Squad", "NATO", "9J5", 4),
                      ("T1", "T-72M1", "Soviet", "9K5", 1),
                      ("B1", "Transport BTR", "Soviet", "9J6", 1),
                      ("S1", "Motor Rifle Squad", "Soviet", "9I5", 1)], options=ADV, **kw)


def _ask(g: Any, side: str, kind: str, options: list[Any], **context: Any) -> Any:
    ai = MbtAI(side, 1)
    return ai.choose(Decision(side, kind, options=options, context=context), g.view(side))


def test_the_ai_close_assaults_the_vehicle_with_the_best_odds_14_5(make_game: Any) -> None:
    """MBT 14.5.2-14.5.3: the BTR (an effective result possible) before the T-72M1 (its CA
    defense leaves only a suppression), whichever the options name first."""
    g = _squad_among(make_game)
    view = g.view("NATO")
    assert view.rules.assault_odds("R1", "T1")[1] == 0.0 < view.rules.assault_odds("R1", "B1")[1]
    assert _ask(g, "NATO", "mbt.close_assault",
                ["pass", ["R1", "T1"], ["R1", "B1"]]) == ["R1", "B1"]


def test_the_ai_weighs_the_close_assault_with_the_procedures_own_numbers(
        make_game: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """The AI's odds come from the close-assault procedure (``assault_numbers``), not a copy:
    change the procedure's numbers and the AI's choice follows."""
    g = _squad_among(make_game)
    real = close_assault.assault_numbers

    def swapped(game: Any, a: Any, t: Any) -> Any:
        factor, defense, mods, _n, _s, src = real(game, a, t)
        return (factor, defense, mods, 0, 1, src) if t.id == "T1" else (
            factor, defense, mods, 100, 100, src)

    monkeypatch.setattr(close_assault, "assault_numbers", swapped)
    assert _ask(g, "NATO", "mbt.close_assault",
                ["pass", ["R1", "B1"], ["R1", "T1"]]) == ["R1", "T1"]


def test_hand_to_hand_only_when_likely_to_win_14_6(make_game: Any) -> None:
    """MBT 14.6.2.2: the loser suffers an effective result, so an even fight (squad against
    squad) is passed; with the defender suppressed (MBT 14.6.3.1, -20) the AI attacks."""
    g = _squad_among(make_game)
    view = g.view("NATO")
    assert view.rules.h2h_odds("R1", "S1") < MbtAI.h2h_worth
    assert _ask(g, "NATO", "mbt.close_assault", ["pass", ["R1", "S1"]]) == "pass"
    suppress(g, g.state.units["S1"], "MBT 12.3")
    assert g.view("NATO").rules.h2h_odds("R1", "S1") >= MbtAI.h2h_worth
    assert _ask(g, "NATO", "mbt.close_assault", ["pass", ["R1", "S1"]]) == ["R1", "S1"]


def test_a_ca_order_when_the_assault_beats_the_squads_shot_14_5(make_game: Any) -> None:
    """MBT 13.3, 14.5 (MBTD-107): next to the open BTR the squad takes CA orders; next to the
    T-72M1 alone, whose CA defense leaves only a suppression, it keeps its fire."""
    g = _squad_among(make_game)
    assert _ask(g, "NATO", "mbt.order", ["F", "M", "OW", "CA"], unit="R1") == "CA"
    h = make_game([("R1", "Rifle Squad", "NATO", "9J5", 4), ("T1", "T-72M1", "Soviet", "9K5", 1),
                   ("T2", "T-72M1", "Soviet", "9J8", 1)], options=ADV)
    ai = MbtAI("NATO", 1)
    view = h.view("NATO")
    ca_v = ai._best_assault(view, "R1", view.enemy_unit_objects())[0]
    shot = max(ai._best_p(view, view.unit("R1"), e)[1] for e in view.enemy_unit_objects())
    want = "CA" if ca_v >= max(ai.assault_floor, shot) else "not CA"
    got = ai.choose(Decision("NATO", "mbt.order", options=["F", "M", "OW", "CA"],
                             context={"unit": "R1"}), view)
    assert (got == "CA") == (want == "CA")


def test_a_dismounted_squad_is_drawn_next_to_a_vehicle_it_could_assault(make_game: Any) -> None:
    """MBTD-107: a hex next to the BTR gains ``assault_pull`` for the squad (odds above
    ``assault_worth``); next to the T-72M1 only, or for a tank, it gains nothing."""
    g = _squad_among(make_game)
    ai = MbtAI("NATO", 1)
    view = g.view("NATO")
    ai._goals = ([], [])
    enemies = view.enemy_unit_objects()
    r1, here = view.unit("R1"), g.board.parse("9J5")
    with_b1 = ai._hex_score(view, r1, here, enemies)[0]
    without = ai._hex_score(view, r1, here, [e for e in enemies if e.id != "B1"])[0]
    value = ai._best_assault(view, "R1", enemies)[0] / ai.assault_worth
    assert value >= 1.0 and with_b1 - without == pytest.approx(ai.assault_pull * min(value, 1.5))
    assert ai._hex_score(view, r1, here, [e for e in enemies if e.id == "T1"])[0] == \
        ai._hex_score(view, r1, here, [])[0]


def _wire(make_game: Any, wire: str) -> Any:
    g = make_game([("N1", "M1", "NATO", "9J12", 1), ("S9", "T-72M1", "Soviet", "9J1", 4)],
                  options=ADV, terrain={h: "woods" for h in ("9J1", "9J2", "9J3")})
    markers(g)[wire] = "wire"
    g.state.units["N1"].state["order"] = "F"
    return g


@pytest.mark.parametrize(("wire", "fires"), [("9J9", True), ("9M8", False)])
def test_gp_fire_at_wire_on_the_way_forward_12_4_2(make_game: Any, wire: str,
                                                    fires: bool) -> None:
    """MBT 12.4.2, 14.4.3.3 (MBTD-108): with no enemy in sight, the M1 fires GP at wire on its
    way to where the enemy was last seen (once offered but never chosen); at wire off the way it
    holds its fire."""
    g = _wire(make_game, wire)
    assert g.view("NATO").enemy_unit_objects() == []
    opts = gp_terrain.options(g, "NATO", ("F", "FM"), set())
    assert {o["hex"] for o in opts} == {wire}  # the 105mm and the machineguns (MBTD-148)
    ai = MbtAI("NATO", 1)
    ai._last_seen = {"S0": g.board.parse("9J2")}
    got = ai.choose(Decision("NATO", "mbt.fire", options=["pass", *opts],
                             context={"step": "direct"}), g.view("NATO"))
    if fires:
        # MBTD-154: the HMG, with a fair chance at wire, fires beside the main gun (MBT 14.1.2.1)
        assert got == {"target": None, "hex": wire, "at": "wire",
                       "shots": [["N1", "GP"], ["N1", "HMG TTC/GP"]]}
        assert gp_terrain.choice_error(g, "NATO", got, ("F", "FM"), set()) is None
    else:
        assert got == "pass"


@pytest.mark.parametrize(("terrain", "smokes"), [("clear", True), ("woods", False)])
def test_smoke_covers_a_move_across_open_ground_12_6(make_game: Any, terrain: str,
                                                      smokes: bool) -> None:
    """MBT 12.6.1 (MBTD-108): a vehicle with M orders discharges its smoke in the open in sight
    of a known enemy; in the woods it keeps it."""
    g = make_game([("N1", "M1", "NATO", "9J12", 1), ("S1", "T-72M1", "Soviet", "9J4", 4)],
                  options=ADV, terrain={"9J12": terrain})
    g.state.units["N1"].state["order"] = "M"
    assert _ask(g, "NATO", "mbt.smoke", ["done", "N1"]) == ("N1" if smokes else "done")


def test_gp_fire_counts_suppression_more_where_it_stops_a_close_assault_14_5(
        make_game: Any) -> None:
    """MBT 14.5, 12.3 (MBTD-108): a suppressed squad cannot close-assault, so the GP value of a
    shot at the Soviet squad grows once it stands next to an own vehicle."""
    g = make_game([("N1", "M1", "NATO", "9J12", 1), ("N2", "M1", "NATO", "9P5", 1),
                   ("S1", "Motor Rifle Squad", "Soviet", "9J6", 4)], options=ADV)
    g.state.units["N1"].state["order"] = "F"
    ai = MbtAI("NATO", 1)
    far = ai._p(g.view("NATO"), g.state.units["N1"], g.view("NATO").unit("S1"), "GP")
    g.state.units["N2"].hex = g.board.parse("9J5")
    view = g.view("NATO")
    near = ai._p(view, view.unit("N1"), view.unit("S1"), "GP")
    p_s, _p_ef = view.rules.gp_odds("N1", "S1")
    assert p_s > 0 and near == pytest.approx(far + 0.25 * 2.0 * p_s)


def test_an_overrun_defender_out_of_the_sides_view_is_not_scored_14_7_1_2(
        make_game: Any) -> None:
    """MBT 14.7.1.2: a defender sighted in the Sighting Step may be offered after the side's
    units lost sight of it; the AI, which knows only its view (CORE-55), does not score it (it
    raised "no unit is known to this side" before) and announces none."""
    g = make_game([("N1", "M1", "NATO", "9J2", 4), ("S1", "Motor Rifle Squad", "Soviet", "9J15", 1)],
                  options=ADV, terrain={h: "woods" for h in ("9J13", "9J14", "9J15")})
    assert [e.id for e in g.view("NATO").enemy_unit_objects()] == []
    assert _ask(g, "NATO", "mbt.overrun", ["none", "S1"], unit="N1") == "none"


@pytest.mark.parametrize(("terrain", "unloads"), [("woods", True), ("clear", False)])
def test_squads_get_off_into_cover_once_the_enemy_is_known_15_3_2(make_game: Any, terrain: str,
                                                                   unloads: bool) -> None:
    """MBT 15.3.2: with a known enemy 8 hexes off (beyond the dismount range, within 12), a
    carrier that has ended its move in woods unloads its squad there; in the open it keeps it."""
    from hexwar.plugins.mbt import transport

    g = make_game([("C1", "Transport APC", "NATO", "9J12", 1), ("R1", "Rifle Squad", "NATO", "9J12", 1),
                   ("S1", "T-72M1", "Soviet", "9J4", 4)], options=ADV, terrain={"9J12": terrain})
    c1, r1 = g.state.units["C1"], g.state.units["R1"]
    c1.state["order"] = r1.state["order"] = "M"
    transport.load(g, c1, r1)
    got = _ask(g, "NATO", "mbt.transport", ["done", ["unload", "R1"]], unit="C1", when="after")
    assert got == (["unload", "R1"] if unloads else "done")
