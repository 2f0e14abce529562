"""MBT Scenario One, "Meeting Engagements", matchups 1-3 (the Scenarios): forces given as TO&E
organizations (MBT Scenario Format C) expanded and priced ("Doing Your Own Scenarios" B.3), the
printed totals checked and the misprints of the text reported, the four panels in a row, set-up,
exits, objectives and victory, and short AI games of every matchup."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from hexwar.core.errors import RulesError
from hexwar.core.scenario import Scenario, validate_scenario
from hexwar.core.testing import make_game
from hexwar.plugins.mbt import forces
from hexwar.plugins.mbt.ai import MbtAI
from hexwar.plugins.mbt.forces_cli import forces_command
from hexwar.plugins.mbt.setup import corners, may_exit, setup_zone
from hexwar.plugins.mbt.state import ctx, data
from hexwar.plugins.mbt.victory import vehicle_points

SCENARIOS = Path(forces.__file__).resolve().parent / "scenarios"
MATCHUPS = ("1", "1b", "2", "3")


def scenario(key: str, **changes: Any) -> Scenario:
    """A matchup's file, with top-level ``key = value`` lines of its tables replaced."""
    text = (SCENARIOS / f"scenario-one-{key}.toml").read_text()
    for k, v in changes.items():
        text, n = re.subn(rf"(?m)^{k} = .*$", f"{k} = {v}", text)
        assert n == 1, k
    return Scenario.from_text(text, path=str(SCENARIOS / f"scenario-one-{key}.toml"))


# -- MBT Scenario Format C: forces as TO&E organizations ---------------------------------------------


def test_matchup_3_forces_expand_into_the_toe_units_with_grade_doctrine_and_officers() -> None:
    """MBT Scenario One C matchup 3: each organization gives the units its TO&E variant lists, with
    the scenario's grade (MBT 12.7), its officers (MBT 12.8.2), the doctrine organization named
    and lettered (MBT 13.4.2.3), and the squads the carriers of their platoon (recorded only)."""
    units = {uid: (utype, side, state) for uid, utype, side, state in forces.expand(scenario("3"))}
    nato = [u for u in units.values() if u[1] == "NATO"]
    assert sorted(t for t, _s, _st in nato).count("mbt:Leopard 1A4") == 5
    assert sum(t == "mbt:Marder A1" for t, _s, _st in nato) == 4
    assert sum(t == "mbt:Squad Light Panzergrenadier Infantry [PZF-44 & Milan]"
               for t, _s, _st in nato) == 3
    assert units["NA-1"][2]["officer"] == "CO" and units["NA-3"][2]["officer"] == "XO"
    assert units["NA-3"][0] == "mbt:Squad Standard Infantry [PZF-44]"
    assert units["NA-3"][2]["assigned_carrier"] == "NA-2"  # MBTD-82: not mounted
    # the Soviet tank platoons with doctrine: one organization each, sub-units S1a-S1c
    assert [u for u in units if units[u][2].get("doctrine") == "S1"] == ["S1a", "S1b", "S1c"]
    assert units["SA-1"][2] == {"grade": "crack", "organization": '"A" Tank Company Headquarters',
                                "officer": "CO"}
    # "with vehicle doctrine" (MBT 13.4.1): the BMPs move as one, the squads do not
    assert [u for u in units if units[u][2].get("doctrine") == "S3"] == ["S3a", "S3b", "S3c"]
    squads = [u for u in units if u.startswith("S3-")]
    assert len(squads) == 4 and all("doctrine" not in units[u][2] for u in squads)
    assert units["S3-3"][0] == "mbt:Squad Heavy Motorized Rifle Infantry [RPG-7 V/D & SA-7B]"
    assert units["S3-3"][2]["officer"] == "CO"  # "CO with the SA-7B squad"
    assert all(units[u][2]["grade"] == "crack" for u in ["S3a", *squads])


def test_printed_totals_that_recompute() -> None:
    """"Doing Your Own Scenarios" B.3 on the printed totals of matchups 1-3: 355 (4 M60A3 crack),
    360 (2 x 3 T-80A average with doctrine), 396 and 394 (2 x 197) recompute exactly."""
    assert forces.side_points(scenario("1")) == {"NATO": 355, "Soviet": 350}
    assert forces.side_points(scenario("1b")) == {"NATO": 355, "Soviet": 360}
    assert forces.side_points(scenario("2")) == {"NATO": 396, "Soviet": 394}
    assert forces.findings(scenario("1b")) == [] and forces.findings(scenario("2")) == []


def test_the_misprints_of_scenario_one_are_reported_not_fixed() -> None:
    """The misprints of matchups 1-3 (docs/decisions.md MBTD-81): matchup 1's T-72M1 force
    prices 350, not the printed 360; matchup 3's German 797 is a Leopard 1A1 platoon's price
    (the 1A4 platoon printed gives 861); the Soviet 787 does not recompute, its 3rd platoon
    prints 2 + 2 squads where the TO&E has 2 + 1, and its T-64B card code FRG-1B. The force is
    fielded as printed."""
    one = [str(f) for f in forces.findings(scenario("1"))]
    assert one == ["Soviet Soviet Tank Platoons: points: the scenario prints 360, the TO&E gives "
                   "350 (Doing Your Own Scenarios B.3)"]
    three = forces.findings(scenario("3"))
    by_what = {(f.side, f.what): (f.printed, f.computed) for f in three}
    assert by_what[("NATO", "points")] == ("797", "861")
    assert by_what[("Soviet", "points")] == ("787", "754")
    assert by_what[("Soviet", "card code of the T-64B")] == ("FRG-1B", "USSR-1B")
    count = [f for f in three if f.what.endswith(": count")]
    assert [(f.printed, f.computed) for f in count] == [("2", "1")]
    assert len(three) == 5  # the card code twice (1st and 2nd platoon)
    # a Leopard 1A1 platoon would give the printed 797 (a reading, not applied: MBTD-81)
    from hexwar.plugins.mbt.toe.catalog import load

    toe = load()
    lp = toe.find("Panzer Platoon", "FRG")
    assert toe.price(lp, lp.variant("a"), forces.Grade.AVERAGE).points == 248  # type: ignore[union-attr, arg-type]
    assert sum(len(v) for v in forces.side_forces(scenario("3")).values()) == 7


def test_hexwar_mbt_forces_reports_and_exits_1_on_a_misprint() -> None:
    """The table-side report: each organization priced, the units, every finding; status 1 when
    something is reported, 0 when every printed total recomputes."""
    runner = CliRunner()
    bad = runner.invoke(forces_command, ["mbt:scenario-one-3"])
    assert bad.exit_code == 1, bad.output
    assert "NATO: printed 797, priced 861" in bad.output
    assert "! Soviet 3rd Motorized Rifle Platoon" in bad.output
    good = runner.invoke(forces_command, ["mbt:scenario-one-2"])
    assert good.exit_code == 0 and "every printed total recomputes" in good.output


@pytest.mark.parametrize(("change", "message"), [
    ('organization = "Tank Platoon (Tank Regiment)"\nvariant = "zz"', "has no variant 'zz'"),
    ('organization = "Tank Platon"\nvariant = "a"', "unknown organization 'Tank Platon'"),
    ('organization = "Tank Platoon (Tank Regiment)"\nvariant = "a"\nofficers = { CO = "T-80A" }',
     "the CO is with 'T-80A', which is not a unit of this organization"),
    ('organization = "Tank Platoon (Tank Regiment)"\nvariant = "a"\nsquads = 2', "unknown key 'squads'"),
])
def test_bad_forces_are_refused_with_what_and_where(change: str, message: str) -> None:
    """A force the TO&E cannot expand fails validation naming the organization and the key;
    `hexwar validate` reports it (exit 2) and no game starts."""
    text = (SCENARIOS / "scenario-one-2.toml").read_text()
    text = text.replace('organization = "Tank Platoon (Tank Regiment)"\nvariant = "b"', change, 1)
    text = text.replace('officers = { CO = "T-72M1" }\n', "", 1) if "officers" in change else text
    sc = Scenario.from_text(text, path="bad.toml")
    problems = validate_scenario(sc)
    assert any(message in p.message and p.key.startswith("sides.Soviet.forces[0]")
               for p in problems), problems


def test_a_barred_optional_rule_refuses_the_game() -> None:
    """MBT Scenario One C: matchups 1 and 2 may not be played with command control."""
    with pytest.raises(RulesError, match=r"mbt\.command_control"):
        make_game(scenario("1"), seed=1, options=["mbt.command_control"])
    make_game(scenario("3"), seed=1, options=["mbt.command_control"])  # matchup 3 allows it


# -- MBT Scenario One A, B, D: the board, set-up, exits, objectives ----------------------------------


def test_four_stand_in_panels_in_a_row_with_sides_a_and_b() -> None:
    """MBT Scenario One A: panels 1-4 in a row (MBTD-80: side A = mapboard side 1, B = side 4),
    the set-up zones four hexes deep at each end (MBT Scenario One C)."""
    g = make_game(scenario("2"), seed=1)
    assert {lab[0] for lab in map(g.board.label, g.board.hexes)} == {"1", "2", "3", "4"}
    assert len(g.board.hexes) == 4 * 34 * 10
    top, bottom = setup_zone(g, "1"), setup_zone(g, "4")
    assert {g.board.label(h)[0] for h in top} == {"1"} and {g.board.label(h)[0] for h in bottom} == {"4"}
    assert len(top) == len(bottom) == 4 * 34
    from hexwar.plugins.mbt.plugin import hexwar_register_data

    panel4 = next(s for s in hexwar_register_data() if s.name == "mbt:panel-4")
    text = Path(panel4.path).read_text()
    assert "stand_in = true" in text and "(stand-in)" in text


def test_corner_entry_sets_up_near_the_corners_only() -> None:
    """MBT Scenario One A, C: entering by corners 1 and 3 (side A's ends), a side sets up within
    4 hexes of them, its own hex counted."""
    g = make_game(scenario("2", entry='"corners"'), seed=1)
    zone = setup_zone(g, "1")
    ends = corners(g, "1")
    assert {g.board.label(h) for h in ends} == {"1A1", "1HH1"}
    assert zone and all(min(h.distance(c) for c in ends) <= 3 for h in zone)
    assert len(zone) < len(setup_zone(make_game(scenario("2"), seed=1), "1")) // 2


def test_units_exit_only_off_their_own_side() -> None:
    """MBT Scenario One B: a unit on side A's edge facing off it may leave; the same unit on a long
    side or on side B may not (MBT 4.6, 8.7 allow any edge in the Basic Game)."""
    g = make_game(scenario("2"), seed=1)
    data(g)["edge"] = {"NATO": "1", "Soviet": "4"}
    u = g.state.units["N1-1"]
    u.hex = g.board.parse("1P1")
    assert may_exit(g, u, 1)
    u.hex = g.board.parse("1A5")
    assert not may_exit(g, u, 5)  # off the long left side
    u.hex = g.board.parse("4P10")
    assert not may_exit(g, u, 4)  # off the enemy's side B
    # by the corners: off either edge within 4 hexes of corner 1 or 3, nowhere else
    c = make_game(scenario("2", entry='"corners"'), seed=1)
    data(c)["edge"] = {"NATO": "1", "Soviet": "4"}
    v = c.state.units["N1-1"]
    v.hex = c.board.parse("1A3")
    assert may_exit(c, v, 5)
    v.hex = c.board.parse("1P1")
    assert not may_exit(c, v, 1)
    basic = make_game("mbt:basic-a", seed=1)
    b = basic.state.units[sorted(basic.state.units)[0]]
    b.hex = basic.board.parse("1A5")
    assert may_exit(basic, b, 5)


def test_objectives_are_the_building_hexes_and_in_matchup_3_the_bridges() -> None:
    """MBT Scenario One D: every controlled building hex (brick and stone) is an objective in
    matchups 1 and 2, building or bridge hexes in matchup 3; the Basic Game keeps its stone
    buildings (MBT 9.4.2.2)."""
    g2, g3 = make_game(scenario("2"), seed=1), make_game(scenario("3"), seed=1)
    board = g2.board
    buildings = {h for h in board.hexes if board.terrain_of[h] in ("brick", "stone")}
    bridges = {h for h in board.hexes if "bridge" in board.features_of[h]}
    assert set(ctx(g2).info.objectives) == buildings and bridges
    assert set(ctx(g3).info.objectives) == buildings | bridges
    basic = make_game("mbt:basic-a", seed=1)
    assert all(basic.board.terrain_of[h] == "stone" for h in ctx(basic).info.objectives)


def test_a_halved_squad_gives_the_difference_of_its_values() -> None:
    """MBT Scenario D.1: a squad reduced to a half squad gives the points between the two (the
    card's ``half_points``); a squad eliminated its full value with its attached weapons."""
    g = make_game(scenario("3"), seed=1)
    sq = g.state.units["S3-1"]
    sq.hex = g.board.parse("4P5")
    before = vehicle_points(g, "NATO")
    sq.state["half"] = True
    assert vehicle_points(g, "NATO") == before + 8
    sq.state["destroyed"] = "KO"
    assert vehicle_points(g, "NATO") == before + 39


# -- each matchup plays, AI against AI ---------------------------------------------------------------


@pytest.mark.parametrize("key", MATCHUPS)
def test_each_matchup_plays_ai_against_ai(key: str) -> None:
    """Every matchup sets up (edge choice, competitive roll, placement) and plays its Turns, AI
    against AI, the Chance conditions rolled (MBT Scenario One B.3, the option) and the forces
    record logged; 3 Turns here (the full games are in the benchmark,
    benchmarks/bench_scenario_one.py)."""
    g = make_game(scenario(key, turns=3, conditions='"chance"'), seed=5)
    result = g.play({"NATO": MbtAI("NATO", 5), "Soviet": MbtAI("Soviet", 5)})
    assert g.over and result.level in ("victory", "tie", "automatic victory")
    kinds = [r.get("type") for r in g.log.for_side(None)]
    assert "conditions" in kinds and "forces" in kinds
    assert all(u.hex is not None or u.state.get("destroyed") or u.state.get("exited")
               or u.state.get("mounted") for u in g.state.units.values())


# -- MBT Scenario One A: the terrain variants ---------------------------------------------------------


def test_open_plains_flatten_the_hills_and_clear_scrub_and_rough() -> None:
    """MBT Scenario One A.1: hills are 0 heights, scrub and rough clear (a stream stays), the
    buildings 2 (brick) and 3 (stone) heights tall, which the scenario must say in its heights."""
    bad = scenario("2", terrain_variant='"open_plains"')
    assert any(p.key == "special.heights" for p in validate_scenario(bad))
    text = (SCENARIOS / "scenario-one-2.toml").read_text().replace(
        'terrain_variant = "standard"',
        'terrain_variant = "open_plains"\nheights = { brick = 2, stone = 3 }')
    sc = Scenario.from_text(text, path=str(SCENARIOS / "scenario-one-2.toml"))
    assert validate_scenario(sc) == []
    g = make_game(sc, seed=1)
    printed = sc.build_board(g.hooks)
    assert g.board is not printed and max(printed.height_of.values()) > 0
    assert max(g.board.height_of.values()) == 0
    assert not {"scrub", "rough"} & set(g.board.terrain_of.values())
    assert set(ctx(g).info.objectives) == {h for h in printed.hexes
                                           if printed.terrain_of[h] in ("brick", "stone")}
    assert [r["variant"] for r in g.log.for_side(None) if r.get("type") == "terrain_variant"] \
        == ["open_plains"]


@pytest.mark.parametrize("variant", ["unspoiled_mountains", "sunless_woods"])
def test_variants_without_buildings_keep_their_locations_as_objectives(variant: str) -> None:
    """MBT Scenario One A.2-A.3: the buildings are not there, their locations still objectives;
    the mountains' hill and depression levels are 2 heights each. The printed board is unchanged
    (other games on it play the standard terrain)."""
    g = make_game(scenario("3", terrain_variant=f'"{variant}"'), seed=1)
    printed = g.scenario.build_board(g.hooks)
    sites = {h for h in printed.hexes if printed.terrain_of[h] in ("brick", "stone")}
    assert sites and not any(g.board.terrain_of[h] in ("brick", "stone") for h in sites)
    assert sites <= set(ctx(g).info.objectives)
    hill = next(h for h in printed.hexes if printed.height_of[h] > 0)
    factor = 2 if variant == "unspoiled_mountains" else 1
    assert g.board.height_of[hill] == factor * printed.height_of[hill]
    assert any(printed.terrain_of[h] in ("brick", "stone") for h in printed.hexes)
    standard = make_game(scenario("3"), seed=1)
    assert standard.board is printed


def test_squads_start_in_their_carriers() -> None:
    """MBTD-82, MBT 15.3.2.6: the vehicles are set up first, then each squad starts carried by
    the carrier the TO&E gives it (within its transport value, MBT 15.3.1)."""
    g = make_game(scenario("3", turns=1), seed=2)
    ai = {"NATO": MbtAI("NATO", 2), "Soviet": MbtAI("Soviet", 2)}
    while g.pending is not None and g.state.turn < 1:
        d = g.pending
        g.answer(ai[d.side].choose(d, g.view(d.side)))
    pairs = [(u.id, str(u.state["assigned_carrier"])) for u in g.state.units.values()
             if u.state.get("assigned_carrier")]
    assert len(pairs) == 7
    for squad, carrier in pairs:
        assert g.state.units[squad].state.get("mounted") == carrier
        assert squad in g.state.units[carrier].state.get("carrying", [])
    loaded = [r for r in g.log.for_side(None) if r.get("type") == "loaded"]
    assert {(r["unit"], r["carrier"]) for r in loaded} == set(pairs)


def test_the_new_cards_keep_what_the_text_prints_and_mark_the_rest() -> None:
    """MBT 1.3 stand-ins: the M60A3's 105 mm total ammunition 14 (2) of MBT 17.3.2.1.4.2 is cited;
    the squads' GP defense in rough with F orders 4 (MBT 14.4.3.2.1), 2 stacking points
    (MBT 15.3.3.2) and SPEED 2 (MBT 15.1.1) are checked with every disclosed number; every
    other value is estimated; the Milan of the panzergrenadier squad is its missile (MBTD-83)."""
    from hexwar.core.provenance import is_estimated
    from hexwar.plugins.mbt.cards import check_card_disclosures, load_cards

    cards = load_cards()
    assert check_card_disclosures(cards) == []
    m60 = cards["M60A3"]
    assert m60.records.values["weapons"][0]["tot_ammo"] == "14 (2)"
    assert m60.source("weapons[0].tot_ammo") == "MBT 17.3.2.1.4.2"
    assert is_estimated(m60.source("armor.KE.Level.Front.TF"))
    pzg = cards["Squad Light Panzergrenadier Infantry [PZF-44 & Milan]"]
    assert [w.name for w in pzg.missiles] == ["Milan"] and pzg.main_gun is not None
    assert pzg.main_gun.name == "Small arms"
    attached = [w["name"] for w in pzg.records.values["weapons"] if w.get("attached")]
    assert attached == ["PZF-44", "Milan"]
    for name in ("Marder A1", "BMP-1 [AT-3]"):
        assert cards[name].records.values["card"]["transport"]  # a carrier (MBTD-82)

