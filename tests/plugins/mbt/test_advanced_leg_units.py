"""Advanced Game leg units and close combat: joint hand-to-hand attacks (MBT 14.6), squads and
half squads (MBT 12.5), attached weapons fired on their own (MBT 14.1.3), passengers' sighting
(MBT 13.1.4)."""

from __future__ import annotations

from typing import Any

import pytest

ADV = ["mbt.advanced"]


# -- MBT 14.6.1.2, 14.6.2.1, 14.6.3.4: several attackers in one hand-to-hand combat ----------------


def _three_on_one(make_game: Any) -> Any:
    """Three Soviet squads around one NATO squad (all adjacent, all-round arcs), with CA orders."""
    g = make_game([("S1", "Motor Rifle Squad", "Soviet", "9J5", 1),
                   ("S2", "Motor Rifle Squad", "Soviet", "9K4", 1),
                   ("S3", "Motor Rifle Squad", "Soviet", "9I4", 1),
                   ("N1", "Rifle Squad", "NATO", "9J4", 4)], options=ADV)
    for sid in ("S1", "S2", "S3"):
        g.state.units[sid].state["order"] = "CA"
    return g


def _announce(*attacks: list[str]) -> Any:
    queue = [list(a) for a in attacks]

    def answer(d: Any) -> Any:
        if d.kind != "mbt.close_assault":
            return "done" if "done" in d.options else d.options[0]
        while queue:
            a = queue.pop(0)
            if a in d.options:
                return a
        return "pass"

    return answer


def _h2h_reports(g: Any) -> list[dict[str, Any]]:
    return [e for e in g.log.for_side(None) if e.get("what") == "hand-to-hand combat"]


def test_joint_hand_to_hand_attack_is_one_combat_with_one_roll_14_6_3_4(
        make_game: Any, run: Any, dice_faces: Any) -> None:
    """MBT 14.6.1.2, 14.6.3.4 (MBTD-116): two squads announcing hand to hand against one defender
    fight one combat: one roll at -10 for the second attacker. A roll of 58 wins for the pair
    (48, squad against squad wins to 50) where either alone would lose."""
    from hexwar.plugins.mbt.close_assault import close_assault_step

    g = _three_on_one(make_game)
    for sid in ("S1", "S2", "S3"):
        assert g.state.units[sid].hex.distance(g.state.units["N1"].hex) == 1
    g.dice.force(*dice_faces(58))
    run(close_assault_step(g), _announce(["S1", "N1"], ["S2", "N1"]))
    reports = _h2h_reports(g)
    assert len(reports) == 1
    r = reports[0]
    assert r["attackers"] == ["S1", "S2"] and r["net"] == -10 and r["roll"] == 58
    assert r["result"] == "attacker"
    n1 = g.state.units["N1"]
    assert n1.state["half"] and n1.state["suppressed"] == "ON"  # MBT 14.6.2.2
    for sid in ("S1", "S2"):
        assert g.state.units[sid].state["spotted"] == "MOVED"  # MBT 14.6.1.4
        assert not g.state.units[sid].state.get("half")
    assert "spotted" not in g.state.units["S3"].state or g.state.units["S3"].state["spotted"] != "MOVED"


def test_every_joint_attacker_suffers_the_effective_result_when_the_defender_wins_14_6_2_2(
        make_game: Any, run: Any, dice_faces: Any) -> None:
    """MBT 14.6.2.2: the defender wins: all three attackers are halved and suppressed (net -20)."""
    from hexwar.plugins.mbt.close_assault import close_assault_step

    g = _three_on_one(make_game)
    g.dice.force(*dice_faces(90))
    run(close_assault_step(g), _announce(["S1", "N1"], ["S2", "N1"], ["S3", "N1"]))
    (r,) = _h2h_reports(g)
    assert r["net"] == -20 and r["result"] == "defender"
    for sid in ("S1", "S2", "S3"):
        u = g.state.units[sid]
        assert u.state["half"] and u.state["suppressed"] == "ON"
    assert not g.state.units["N1"].state.get("half")


def test_joint_attack_uses_the_best_attackers_line_and_grade_14_6_2_1(make_game: Any) -> None:
    """MBT 14.6.2.1: a poor half squad and a crack squad together use the crack squad's line
    (squad vs squad 50) and grade (-10), plus -10 for the second attacker, whichever was named
    first."""
    from hexwar.plugins.mbt.close_assault import _h2h_numbers, best_attacker, h2h_odds

    g = _three_on_one(make_game)
    s1, s2, n1 = (g.state.units[i] for i in ("S1", "S2", "N1"))
    s1.state.update(grade="poor", half=True)
    s2.state["grade"] = "crack"
    for group in ([s1, s2], [s2, s1]):
        assert best_attacker(g, group, n1) is s2
        wins_to, _src, mods = _h2h_numbers(g, group, n1)
        assert wins_to == 50 and sum(m.value for m in mods) == -20
    assert h2h_odds(g, [s1, s2], n1) == pytest.approx(0.70)
    assert h2h_odds(g, s1, n1) == pytest.approx(0.25)  # half vs squad 35, poor +10


def test_a_joint_attacker_suppressed_before_resolution_takes_no_part_14_6(
        make_game: Any, run: Any, dice_faces: Any) -> None:
    """MBT 14.6: a unit suppressed before its attack is resolved cannot carry it out: it drops
    out of the joint combat (no -10 for it, no effect on it), still committed for the Turn."""
    from hexwar.plugins.mbt import suppression
    from hexwar.plugins.mbt.close_assault import resolve_announced

    g = _three_on_one(make_game)
    s1, s2, n1 = (g.state.units[i] for i in ("S1", "S2", "N1"))
    suppression.suppress(g, s2, "test")
    g.dice.force(*dice_faces(90))
    resolve_announced(g, [(s1, n1), (s2, n1)])
    (r,) = _h2h_reports(g)
    assert r["attackers"] == ["S1"] and r["net"] == 0 and r["result"] == "defender"
    assert s1.state["half"] and not s2.state.get("half")
    falls = [e for e in g.log.for_side(None) if e.get("what") == "close assault falls"]
    assert [e["attacker"] for e in falls] == ["S2"] and s2.state["spotted"] == "MOVED"


def test_joint_attack_resolves_at_the_first_announcement_in_order_14_5_1(
        make_game: Any, dice_faces: Any) -> None:
    """MBTD-116 with MBTD-64: the joint combat takes the place of its first announcement; a
    second attack on another defender announced between its members comes after it."""
    from hexwar.plugins.mbt.close_assault import resolve_announced

    g = make_game([("S1", "Motor Rifle Squad", "Soviet", "9J5", 1),
                   ("S2", "Motor Rifle Squad", "Soviet", "9K4", 1),
                   ("S3", "Motor Rifle Squad", "Soviet", "9K6", 1),
                   ("N1", "Rifle Squad", "NATO", "9J4", 4),
                   ("N2", "Rifle Squad", "NATO", "9K5", 4)], options=ADV)
    s1, s2, s3, n1, n2 = (g.state.units[i] for i in ("S1", "S2", "S3", "N1", "N2"))
    g.dice.force(*dice_faces(1, 1))
    resolve_announced(g, [(s1, n1), (s3, n2), (s2, n1)])
    assert [(r["attackers"], r["defender"]) for r in _h2h_reports(g)] == [
        (["S1", "S2"], "N1"), (["S3"], "N2")]


# -- MBT 12.5, 15.1: squads and half squads ----------------------------------------------------------

HQ = """
[scenario]
id = "mbt:half-test"
system = "mbt"
rules = ["mbt.advanced"]
turns = 1
[sides.NATO]
[[sides.NATO.forces]]
id = "H"
name = "Panzergrenadier Battalion HQ"
nation = "FRG"
organization = "Panzergrenadier Battalion Headquarters"
variant = "a"
grade = "average"
officers = { CO = "Squad Standard Infantry [PZF-44]", XO = "½ Squad Standard Infantry [PZF-44]" }
[sides.Soviet]
[board]
panels = []
"""


def _with_hq_vehicles(monkeypatch: Any) -> None:
    """The HQ's BEOBPZ and light truck have no data card yet: stand in a Marder for both."""
    from hexwar.plugins.mbt import cards

    shipped = cards.load_cards()
    extra = dict(shipped, **{"BEOBPZ": shipped["Marder A1"], "Light Truck": shipped["Marder A1"]})
    monkeypatch.setattr(cards, "load_cards", lambda dirs=(): extra)


def test_toe_half_squad_is_fielded_halved_on_its_squads_card_12_5(monkeypatch: Any) -> None:
    """MBT 12.5, 15.1: the TO&E's "½ Squad Standard Infantry [PZF-44]" is fielded on the squad's
    card (FRG-4B) as a half squad from the start; the two full squads are not halved; an officer
    named with the half squad's TO&E name goes with it."""
    from hexwar.core.scenario import Scenario
    from hexwar.plugins.mbt import forces

    sc = Scenario.from_text(HQ, path="half-test.toml")
    assert not [p for p in forces.problems(sc) if "Squad" in p.message]  # a card is found
    _with_hq_vehicles(monkeypatch)
    legs = [(uid, t, st) for uid, t, _s, st in forces.expand(sc) if "Squad" in t]
    assert len(legs) == 3 and {t for _u, t, _st in legs} == {"mbt:Squad Standard Infantry [PZF-44]"}
    halves = [st for _u, _t, st in legs if st.get("half")]
    assert len(halves) == 1 and halves[0]["half_at_start"] and halves[0]["officer"] == "XO"
    assert [st.get("officer") for _u, _t, st in legs if not st.get("half")] == ["CO", None]


def test_a_half_squad_fielded_as_one_is_eliminated_by_an_effective_result_14_4_4_2_3_4(
        make_game: Any) -> None:
    """MBT 14.4.4.2.3.4, 12.5: an effective GP result halves and suppresses a squad, and
    eliminates a half squad, whether it was fielded halved or reduced; the victory points are
    the reduction's for a reduced squad and the half squad's (squad less the reduction) for one
    fielded halved (MBT Scenario D.1)."""
    from hexwar.plugins.mbt import squads
    from hexwar.plugins.mbt.fire import apply_effects
    from hexwar.plugins.mbt.victory import vehicle_points

    g = make_game([("N1", "Squad Standard Infantry [PZF-44]", "NATO", "9J4", 4),
                   ("N2", "Squad Standard Infantry [PZF-44]", "NATO", "9J8", 4)], options=ADV)
    n1, n2 = g.state.units["N1"], g.state.units["N2"]
    squads.start_half(n2.state)
    apply_effects(g, n1, ["leg_ef"])
    assert n1.state["half"] and n1.state["suppressed"] == "ON" and n1.hex is not None
    assert vehicle_points(g, "Soviet") == 8  # the reduction (half_points, estimated)
    apply_effects(g, n2, ["leg_ef"])
    assert n2.state["destroyed"] == "eliminated"
    assert vehicle_points(g, "Soviet") == 8 + (37 - 8)  # the half squad's own value
    apply_effects(g, n1, ["leg_ef"])
    assert n1.state["destroyed"] == "eliminated"
    assert vehicle_points(g, "Soviet") == 37 + 29


@pytest.mark.parametrize(("unit", "state", "words"), [
    ("Rifle Team", "{ half = true }", "only a squad can be a half squad"),
    ("M1", "{ half = true }", "only a squad"),
    ("Rifle Squad", '{ half = "yes" }', "true or false"),
    ("Rifle Squad", "{ split = true }", "never split"),
    ("Rifle Squad", '{ combine = "N2" }', "never split"),
])
def test_scenario_half_squads_are_checked_and_no_split_or_combine_12_5(
        unit: str, state: str, words: str) -> None:
    """MBT 12.5: only a squad may start as a half squad; a squad is never split into half
    squads nor two half squads combined (only combat halves a squad): each refused naming the
    unit and the rule (MBTD-117). A squad written half is accepted."""
    from hexwar.core.scenario import Scenario
    from hexwar.plugins.mbt.setup import validate_scenario

    def unit_problems(u: str, st: str) -> list[str]:
        text = HQ.split("[[sides.NATO.forces]]")[0] + "[sides.Soviet]\n[board]\npanels = []\n" + (
            f'[[units]]\nid = "N1"\ntype = "mbt:{u}"\nside = "NATO"\nhex = "A1"\nstate = {st}\n')
        return [p.message for p in validate_scenario(Scenario.from_text(text, path="h.toml"))
                if "N1" in p.message]

    found = unit_problems(unit, state)
    assert any(words in m and "MBT 12.5" in m and "unit N1" in m for m in found), found
    assert unit_problems("Rifle Squad", "{ half = true }") == []


# -- MBT 14.1.3: attached weapons fired on their own ---------------------------------------------

PZF = "PZF-44/HEAT"


def _pzf_game(make_game: Any) -> Any:
    """An FRG squad with a PZF-44 facing a BMP two hexes ahead, a Soviet squad two hexes behind."""
    g = make_game([("N1", "Squad Standard Infantry [PZF-44]", "NATO", "9J8", 1),
                   ("V1", "BMP-1 [AT-3]", "Soviet", "9J6", 4),
                   ("S1", "Motor Rifle Squad", "Soviet", "9J10", 1)], options=ADV)
    g.state.units["N1"].state["order"] = "F"
    return g


def _err(g: Any, target: str, ammo: str) -> str | None:
    from hexwar.plugins.mbt.fire import fire_error

    return fire_error(g, g.state.units["N1"], g.state.units[target], ammo, orders=("F",))


def test_attached_weapon_is_offered_and_fires_with_its_own_line_14_1_3(
        make_game: Any, run: Any, dice_faces: Any) -> None:
    """MBT 14.1.3, 14.1.1.2: the squad's PZF-44 is a shot of its own (``PZF-44/HEAT``) at the
    vehicle, resolved as AP fire with the PZF-44's HEAT line; never at a leg unit."""
    from hexwar.plugins.mbt.fire import declaration_options, fire_group

    g = _pzf_game(make_game)
    v1, s1 = g.state.units["V1"], g.state.units["S1"]
    opts = declaration_options(g, "NATO", [v1, s1], orders=("F",), overwatch=False)
    assert {"target": "V1", "shots": [["N1", PZF]]} in opts
    assert not any(["N1", PZF] in o["shots"] for o in opts if o["target"] == "S1")
    assert "MBT 14.1.1.2" in (_err(g, "S1", PZF) or "")
    g.dice.force(*dice_faces(1, 1, 50, 50))
    run(fire_group(g, "NATO", {"target": "V1", "shots": [["N1", PZF]]}, overwatch=False,
                   simultaneous=False), lambda d: d.options[0])
    shots = [e for e in g.log.for_side(None) if e.get("what") == "AP point effect fire"]
    assert [(e["firer"], e["weapon"], e["ammo"]) for e in shots] == [("N1", "PZF-44", "HEAT")]
    assert shots[0]["ap_factor"] == 11  # the PZF-44's HEAT at two hexes (stand-in card)


def test_small_arms_and_attached_weapon_fire_at_different_targets_14_1_3_1(
        make_game: Any, run: Any, dice_faces: Any) -> None:
    """MBT 14.1.3.1: having fired its small arms at the squad behind it, the FRG squad may still
    fire its PZF-44 at the BMP, but neither weapon twice (MBT 7.1.5 for each weapon); the PZF-44
    fires only in its own 60-degree arc while the small arms fire all round."""
    from hexwar.plugins.mbt.fire import fire_group

    g = _pzf_game(make_game)
    assert _err(g, "S1", "GP") is None
    g.dice.force(*dice_faces(*[50] * 10))
    run(fire_group(g, "NATO", {"target": "S1", "shots": [["N1", "GP"]]}, overwatch=False,
                   simultaneous=False), lambda d: d.options[0])
    assert g.state.units["N1"].state["fired"]
    assert _err(g, "V1", PZF) is None
    assert "MBT 7.1.5" in (_err(g, "V1", "GP") or "")
    run(fire_group(g, "NATO", {"target": "V1", "shots": [["N1", PZF]]}, overwatch=False,
                   simultaneous=False), lambda d: d.options[0])
    assert "MBT 7.1.5" in (_err(g, "V1", PZF) or "")
    g2 = _pzf_game(make_game)
    g2.state.units["N1"].facing = 4  # the BMP now behind: outside the PZF-44's arc
    assert "firing arc" in (_err(g2, "V1", PZF) or "")
    assert _err(g2, "V1", "GP") is None


def test_one_declaration_may_name_the_squad_with_two_weapons_14_1_3_1(make_game: Any) -> None:
    """MBT 14.1.3.1 (same target): small arms and PZF-44 of one squad in one declaration; the
    same weapon twice is refused."""
    from hexwar.plugins.mbt.fire import declaration_validator

    g = _pzf_game(make_game)
    check = declaration_validator(g, "NATO", orders=("F",), overwatch=False)
    assert check({"target": "V1", "shots": [["N1", "GP"], ["N1", PZF]]}) is None
    assert "twice" in (check({"target": "V1", "shots": [["N1", PZF], ["N1", PZF]]}) or "")


@pytest.mark.parametrize(("state", "rule"), [({"up": 1}, "MBT 14.1.3.2"),
                                              ({"order": "ATGM"}, "MBT 6.2.4")])
def test_attached_weapon_refused_up_in_buildings_or_without_gun_orders(
        make_game: Any, state: dict[str, Any], rule: str) -> None:
    """MBT 14.1.3.2: up in the buildings the PZF-44 (no ``upper_floors`` on its card) is not
    fired; MBT 14.1.4.1: guns only with gun orders. Each refusal names its rule."""
    g = _pzf_game(make_game)
    g.state.units["N1"].state.update(state)
    err = _err(g, "V1", PZF) or ""
    assert rule in err, err


def _carried(make_game: Any, carrier: str, squad: str = "Squad Standard Infantry [PZF-44]",
             open_: bool = True) -> Any:
    """``squad`` (N1) carried by ``carrier`` (C1) at 9J8, the BMP two hexes ahead."""
    from hexwar.plugins.mbt import transport

    g = make_game([("N1", squad, "NATO", "9J8", 1), ("C1", carrier, "NATO", "9J8", 1),
                   ("V1", "BMP-1 [AT-3]", "Soviet", "9J6", 4)], options=ADV)
    n1, c1 = g.state.units["N1"], g.state.units["C1"]
    n1.state["order"] = c1.state["order"] = "M"
    transport.load(g, c1, n1)
    n1.state["order"] = c1.state["order"] = "F"
    c1.state["open"] = open_
    return g


def test_a_rocket_launcher_fires_from_a_carrier_without_full_cover_15_3_4_1(
        make_game: Any) -> None:
    """MBT 15.3.4.1 (MBTD-136): a carried squad's rocket launcher (the PZF-44) fires from a
    carrier without full cover (the BTR), open or buttoned, and from an open full-cover one (the
    Marder A1)."""
    for carrier, open_ in (("Transport BTR", True), ("Transport BTR", False),
                           ("Marder A1", True)):
        g = _carried(make_game, carrier, open_=open_)
        assert g.state.units["N1"].hex is None
        assert _err(g, "V1", PZF) is None, (carrier, open_)


def test_no_rocket_launcher_from_a_buttoned_full_cover_carrier_15_3_4_1(make_game: Any) -> None:
    """MBT 15.3.4.1: from the buttoned Marder A1 the PZF-44 is refused, naming the rule, though
    the squad's small arms still fire through the ports (MBT 15.3.4.2)."""
    g = _carried(make_game, "Marder A1", open_=False)
    n1 = g.state.units["N1"]
    before = dict(n1.state)
    err = _err(g, "V1", PZF) or ""
    assert "MBT 15.3.4.1" in err and "buttoned full-cover" in err, err
    assert _err(g, "V1", "GP") is None
    assert n1.state == before


def test_other_attached_weapons_are_not_fired_while_carried_15_3_4_1(make_game: Any) -> None:
    """MBT 15.3.4.1: missiles are not fired while transported, from any carrier (the Milan of a
    squad in the BTR, which lets its PZF-44 fire); an attached gun that is no rocket launcher is
    refused too (the PZF-44 with its card's mark taken away)."""
    from hexwar.plugins.mbt import attached
    from hexwar.plugins.mbt.fire import fire_error

    g = _carried(make_game, "Transport BTR",
                 squad="Squad Light Panzergrenadier Infantry [PZF-44 & Milan]")
    n1, v1 = g.state.units["N1"], g.state.units["V1"]
    assert _err(g, "V1", PZF) is None
    n1.state["order"] = "ATGM"
    missile = fire_error(g, n1, v1, "ATGM", orders=("ATGM",), missile=True) or ""
    assert "MBT 15.3.4.1" in missile, missile
    n1.state["order"] = "F"
    card = attached.card_of(g, n1)
    raw = attached.raw_weapon(card, "PZF-44")
    raw.pop("rocket_launcher")
    try:
        err = _err(g, "V1", PZF) or ""
    finally:
        raw["rocket_launcher"] = True
    assert "only rocket launchers fire from a carrier (MBT 15.3.4.1)" in err, err


# -- MBT 13.1.4: a passenger's sighting row (MBT-22, second case) --------------------------------


def _riding(make_game: Any, carrier: str, gap: int) -> Any:
    """A NATO squad carried by ``carrier`` at 9J14, a Soviet squad ``gap`` hexes ahead in rough."""
    from hexwar.plugins.mbt import transport

    target = f"9J{14 - gap}"
    g = make_game([("C1", carrier, "NATO", "9J14", 1), ("P1", "Rifle Squad", "NATO", "9J14", 1),
                   ("S1", "Motor Rifle Squad", "Soviet", target, 4)],
                  options=ADV, terrain={target: "rough"})
    c1, p1 = g.state.units["C1"], g.state.units["P1"]
    c1.state["order"] = p1.state["order"] = "M"
    transport.load(g, c1, p1)
    return g


def _rows(g: Any) -> tuple[int, int]:
    from hexwar.plugins.mbt.state import ctx

    charts = ctx(g).charts
    return (charts.sighting_range("Open", "rough", "S", "Day"),
            charts.sighting_range("Buttoned", "rough", "S", "Day"))


@pytest.mark.parametrize("open_", [True, False])
def test_mbt_22_leg_unit_in_a_buttoned_fc_vehicle_sights_on_the_buttoned_row_13_1_4(
        make_game: Any, run: Any, pass_all: Any, open_: bool) -> None:
    """MBT-22 (MBT 13.1.4), its second case: a squad carried in a buttoned full-cover carrier
    sights on the buttoned row; with the carrier open, on the open row. Passengers sight in the
    Sighting Step from their carrier's hex (MBTD-119): an enemy squad in rough one hex beyond the
    buttoned range is sighted only with the carrier open."""
    from hexwar.plugins.mbt import advanced_sighting as adv
    from hexwar.plugins.mbt.sighting import sighting_phase
    from hexwar.plugins.mbt.state import data

    probe = _riding(make_game, "Transport APC", 3)
    wide, narrow = _rows(probe)
    assert wide > narrow + 1 and narrow + 1 <= 12  # the stand-in chart leaves room on the panel
    g = _riding(make_game, "Transport APC", narrow + 1)
    g.state.units["C1"].state["open"] = open_
    p1 = g.state.units["P1"]
    assert p1.hex is None and p1.state.get("mounted") == "C1"
    assert adv.sighter_row(g, p1) == ("Open" if open_ else "Buttoned")
    run(sighting_phase(g), pass_all)
    assert ("S1" in data(g)["sighted"]["P1"]) is open_


def test_a_passenger_of_a_buttoned_carrier_without_full_cover_sights_open_13_1_4(
        make_game: Any, run: Any, pass_all: Any) -> None:
    """MBT 13.1.4: only a buttoned FC carrier puts its passengers on the buttoned row: in a
    buttoned BTR (3LT, no full cover) the squad sights open, beyond what the buttoned row gives."""
    from hexwar.plugins.mbt import advanced_sighting as adv
    from hexwar.plugins.mbt.sighting import sighting_phase
    from hexwar.plugins.mbt.state import data

    probe = _riding(make_game, "Transport BTR", 3)
    _wide, narrow = _rows(probe)
    g = _riding(make_game, "Transport BTR", narrow + 1)
    g.state.units["C1"].state["open"] = False
    assert adv.sighter_row(g, g.state.units["P1"]) == "Open"
    run(sighting_phase(g), pass_all)
    assert "S1" in data(g)["sighted"]["P1"]


def test_the_ai_fires_a_squads_attached_weapon_when_it_is_the_better_shot_14_1_3(
        make_game: Any) -> None:
    """MBT 14.1.3, 14.1.3.1 (MBTD-137): offered the squad's small arms and its PZF-44 at the BMP
    two hexes off, the AI rates the PZF-44 by its own AP line and fires it, the better shot; at
    the squad behind (no vehicle: AP fire only at vehicles, MBT 14.1.1.2) it is worth nothing."""
    from hexwar.core.engine.decisions import Decision
    from hexwar.plugins.mbt.ai import MbtAI
    from hexwar.plugins.mbt.fire import declaration_options

    g = _pzf_game(make_game)
    v1 = g.state.units["V1"]
    v1.state["spotted"] = "FIRED"
    options = declaration_options(g, "NATO", [v1], orders=("F",), overwatch=False)
    pzf = {"target": "V1", "shots": [["N1", PZF]]}
    assert pzf in options and {"target": "V1", "shots": [["N1", "GP"]]} in options
    ai = MbtAI("NATO", 0)
    view = g.view("NATO")
    n1 = view.unit("N1")
    p_pzf = ai._p(view, n1, view.unit("V1"), PZF)
    assert p_pzf > ai._p(view, n1, view.unit("V1"), "GP") and p_pzf > ai.fire_floor
    assert ai._best_p(view, n1, view.unit("V1")) == (PZF, p_pzf)
    assert ai._p(view, n1, view.unit("S1"), PZF) == 0.0
    d = Decision("NATO", "mbt.fire", options=["pass", *options], rule="MBT 7.3.2",
                 context={"step": "direct"})
    p_gp = ai._p(view, n1, view.unit("V1"), "GP")
    got = ai._declaration(d, view, options, overwatch=False, threshold=ai.fire_floor)
    # MBT 14.1.3.1 (MBTD-145): the small arms fire beside it at the same target when worth it
    both = {"target": "V1", "shots": [["N1", "GP"], ["N1", PZF]]}
    assert got == (both if p_gp >= ai.fire_floor else pzf)


def test_the_ai_rates_and_fires_a_carried_squads_rocket_launcher_15_3_4_1(
        make_game: Any) -> None:
    """MBT 15.3.4.1 (MBTD-144): the AI rates the PZF-44 of a squad carried in the BTR from the
    carrier's hex, with the transported-firer modifier (MBT 14.3.1.1.3), and declares it; the
    view's squad stays off the map."""
    from hexwar.core.engine.decisions import Decision
    from hexwar.plugins.mbt import transport
    from hexwar.plugins.mbt.ai import MbtAI
    from hexwar.plugins.mbt.fire import declaration_options

    g = _carried(make_game, "Transport BTR")
    v1 = g.state.units["V1"]
    v1.state["spotted"] = "FIRED"
    options = declaration_options(g, "NATO", [v1], orders=("F",), overwatch=False)
    pzf = {"target": "V1", "shots": [["N1", PZF]]}
    assert pzf in options
    ai = MbtAI("NATO", 0)
    view = g.view("NATO")
    n1 = view.unit("N1")
    p_carried = ai._p(view, n1, view.unit("V1"), PZF)
    assert p_carried > ai.fire_floor and n1.hex is None
    d = Decision("NATO", "mbt.fire", options=["pass", *options], rule="MBT 7.3.2",
                 context={"step": "direct"})
    got = ai._declaration(d, view, options, overwatch=False, threshold=ai.fire_floor)
    assert got["target"] == "V1" and ["N1", PZF] in got["shots"], got  # the BTR may fire too
    # the chance the game's own procedure gives the shot from the carrier's hex (MBT 15.3.4.1)
    from hexwar.plugins.mbt.ap_fire import kill_probability
    from hexwar.plugins.mbt.fire import situation
    from hexwar.plugins.mbt.state import ctx

    n1g = g.state.units["N1"]
    with transport.aboard(g, n1g):
        sit = situation(g, n1g, "PZF-44", "HEAT", v1, overwatch=False, target_moving=False)
        assert n1g.hex == g.state.units["C1"].hex
        # with the shot's Advanced modifiers (MBT 14.3.1.1.3 transported firer; MBTD-152)
        from hexwar.plugins.mbt.hookspecs import MbtHooks

        sit.extra_modifiers = tuple(MbtHooks.of(g).ap_modifiers(sit, n1g, v1))
        assert any("transported" in m.name for m in sit.extra_modifiers)
    assert p_carried == kill_probability(ctx(g).charts, sit)
    assert n1g.hex is None and view.unit("N1").hex is None


def _ai_step(g: Any, run: Any) -> list[tuple[str, str, str]]:
    """Run a Direct Fire Step with the NATO AI; N1's shots as (firer, target, weapon)."""
    from hexwar.plugins.mbt.ai import MbtAI
    from hexwar.plugins.mbt.fire import direct_fire_phase

    g.state.phase = "mbt.direct_fire"
    for u in g.state.units.values():
        if u.side == "Soviet":
            u.state["spotted"] = "FIRED"
    ai = MbtAI("NATO", 0)

    def answer(d: Any) -> Any:
        if d.side == "NATO" and d.kind == "mbt.fire":
            return ai.choose(d, g.view("NATO"))
        return "pass"

    run(direct_fire_phase(g), answer)
    return sorted((e["firer"], e["target"], str(e.get("weapon")))
                  for e in g.log.for_side(None) if e.get("type") == "result"
                  and e.get("firer") == "N1" and e.get("what") in (
                      "AP point effect fire", "GP point effect fire"))


def test_the_ai_fires_a_squads_small_arms_and_attached_weapon_in_one_step_14_1_3_1(
        make_game: Any, run: Any) -> None:
    """MBT 14.1.3.1 (MBTD-145): with the BMP its only target, the AI fires the squad's PZF-44
    and its small arms at it in one declaration (before, only the better of the two); with the
    Soviet squad behind too, the PZF-44 at the BMP and the small arms at the squad. Each weapon
    fires once (MBT 7.1.5)."""
    from hexwar.plugins.mbt.ai import MbtAI

    alone = make_game([("N1", "Squad Standard Infantry [PZF-44]", "NATO", "9J8", 1),
                       ("V1", "BMP-1 [AT-3]", "Soviet", "9J6", 4)], options=ADV)
    alone.state.units["N1"].state["order"] = "F"
    alone.state.units["V1"].state["spotted"] = "FIRED"
    ai, view = MbtAI("NATO", 0), alone.view("NATO")
    assert ai._p(view, view.unit("N1"), view.unit("V1"), "GP") >= ai.fire_floor
    assert _ai_step(alone, run) == [("N1", "V1", "PZF-44"), ("N1", "V1", "Small arms")]
    declared = [e for e in alone.log.for_side(None) if e.get("type") == "declared"]
    assert [sorted(e["ammo"]) for e in declared] == [["GP", PZF]]  # one declaration (MBT 7.3.2)
    assert _ai_step(_pzf_game(make_game), run) == [("N1", "S1", "Small arms"),
                                                   ("N1", "V1", "PZF-44")]
