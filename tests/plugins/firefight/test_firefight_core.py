"""Firefight I: the worked examples (FF-n), rules errors, data and a whole game."""

from __future__ import annotations

import itertools
from pathlib import Path
from typing import Any

import pytest

from hexwar.core.engine.game import Game
from hexwar.core.errors import RulesError
from hexwar.core.hexgrid import Hex
from hexwar.core.labels import offset_to_hex
from hexwar.core.scenario import Scenario
from hexwar.core.testing import make_game
from hexwar.plugins.firefight import fire as FI
from hexwar.plugins.firefight import indirect as IF
from hexwar.plugins.firefight import movement as MV
from hexwar.plugins.firefight import sighting as SI
from hexwar.plugins.firefight import state as ST
from hexwar.plugins.firefight.tables import DISCLOSED_UNITS, disclosed, ff_data
from hexwar.plugins.firefight.testing import mini_game
from hexwar.plugins.firefight.testing import unit_spec as U

SCN = Path(ST.__file__).parent / "scenarios"


def H(label: str) -> Hex:
    return offset_to_hex(int(label[:2]), int(label[2:]), "even")


def start_move(game: Game, uid: str) -> Any:
    u = game.state.units[uid]
    why = MV.mover_problem(game, u)
    if why:
        raise RulesError(why)
    u.state.update(moved=True, mp=MV.movement_allowance(u), steps=0)
    return u


def los(game: Game, a: str, b: str) -> bool:
    return SI.has_los(game, game.board.parse(a), game.board.parse(b))


# ---------------------------------------------------------------------------------------------
# 10.1 grid, range, scale
# ---------------------------------------------------------------------------------------------


def test_ff_1_range_examples() -> None:
    assert H("2225").distance(H("2126")) == 1
    assert H("2225").distance(H("2324")) == 2


def test_ff_2_movement_example_adjacent() -> None:
    assert H("1938").distance(H("1837")) == 1


def test_ff_3_height_example_ranges() -> None:
    assert H("3208").distance(H("3307")) == 2
    assert H("3208").distance(H("2611")) == 6
    assert H("3208").distance(H("3109")) == 1


def test_ff_4_range_1304_1307_is_3() -> None:
    assert [H("1304").distance(H(x)) for x in ("1305", "1306", "1307")] == [1, 2, 3]


def test_ff_5_range_counts_target_not_firer() -> None:
    assert H("1005").distance(H("1006")) == 1
    assert H("1005").distance(H("1007")) == 2


def test_ff_6_scale() -> None:
    from hexwar.plugins.firefight.plugin import scale

    s = scale()
    assert s.hex_size_m == 50
    assert 1000 / s.hex_size_m == 20 and 200 / s.hex_size_m == 4
    assert s.turn_length.to("second").magnitude == 40


def test_ff_7_tubes_per_counter() -> None:
    d = ff_data().if_data
    assert {k: v.tubes for k, v in d.items()} == {"81mm": 1, "4.2in": 2, "155mm": 3,
                                                   "120mm": 2, "122mm": 3, "152mm": 3}
    assert 3 * d["81mm"].tubes + d["4.2in"].tubes == 5  # four counters, five tubes


# ---------------------------------------------------------------------------------------------
# 10.2 first player, alternation
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("roll,first", [(1, "SU"), (3, "SU"), (5, "SU"), (2, "US"), (4, "US"),
                                        (6, "US")])
def test_ff_8_first_player_parity(tmp_path: Path, roll: int, first: str) -> None:
    from hexwar.plugins.firefight.sequence import first_player

    g = mini_game(tmp_path, [U("a", "US-TM", "US", "1005"), U("b", "SU-TM", "SU", "1020")])
    g.dice.force(roll)
    assert first_player(g, "test") == [first, ST.enemy_of(first)]


def test_ff_9_pass_does_not_forfeit(tmp_path: Path) -> None:
    """Firefight 4.1 (Clarifications): A passes, B attacks, A may still attack; two passes in a row end
    the phase."""
    g = mini_game(tmp_path, [U("us1", "US-TM+", "US", "1005"), U("us2", "US-TM+", "US", "1006"),
                             U("su1", "SU-TM+", "SU", "1008"), U("su2", "SU-TM+", "SU", "1009")])
    d = g.pending
    assert d is not None and d.kind == "firefight.direct_fire"
    first = d.side
    g.answer("pass")
    d2 = g.pending
    assert d2 is not None and d2.side != first and d2.kind == "firefight.direct_fire"
    att = next(o for o in d2.options or () if isinstance(o, dict))
    g.dice.force(6, 6)
    g.answer(att)
    d3 = g.pending
    assert d3 is not None and d3.side == first and d3.kind == "firefight.direct_fire"
    g.answer("pass")
    d4 = g.pending
    assert d4 is not None and d4.kind == "firefight.direct_fire"
    g.answer("pass")
    assert g.pending is not None and g.state.phase == "firefight.movement"


# ---------------------------------------------------------------------------------------------
# 10.3 LOS
# ---------------------------------------------------------------------------------------------


def _los_game(tmp_path: Path, hexes: list[dict[str, Any]]) -> Game:
    return mini_game(tmp_path, [U("t62", "SU-T62", "SU", "1005"),
                                U("x", "US-M113", "US", "1010")], hexes)


def test_ff_10_target_in_town_visible(tmp_path: Path) -> None:
    g = _los_game(tmp_path, [{"at": "1010", "terrain": "town"}])
    assert los(g, "1005", "1010")


def test_ff_11_towns_between_block(tmp_path: Path) -> None:
    g = _los_game(tmp_path, [{"at": ["1007", "1008"], "terrain": "town"}])
    assert not los(g, "1005", "1010")


def test_ff_12_target_in_defilade_is_seen(tmp_path: Path) -> None:
    g = _los_game(tmp_path, [{"at": "1010", "features": ["defilade:1"]}])
    assert los(g, "1005", "1010")
    assert SI.in_defilade_geom(g.board, g.board.parse("1005"), g.board.parse("1010"))


def test_ff_13_defilade_position_between_blocks(tmp_path: Path) -> None:
    g = _los_game(tmp_path, [{"at": "1007", "features": ["defilade:1"]}])
    assert not los(g, "1005", "1010")


def test_ff_14_end_hex_forest_irrelevant(tmp_path: Path) -> None:
    """Firefight 5.11: Forest in the firer's or the target's hex does not block; adjacent hexes have
    nothing between them."""
    g = _los_game(tmp_path, [{"at": ["1005", "1010", "1006"], "terrain": "forest"}])
    assert los(g, "1005", "1006")
    assert los(g, "1006", "1010")  # 1006 is the firer's own forest hex
    assert not los(g, "1005", "1010")  # ... but between 1005 and 1010 it blocks (Firefight 5.1)


def test_ff_15_forest_between_blocks(tmp_path: Path) -> None:
    g = _los_game(tmp_path, [{"at": "1007", "terrain": "forest"}])
    assert not los(g, "1005", "1010")


def test_ff_16_roads_streams_do_not_matter(tmp_path: Path) -> None:
    hexes = [{"at": ["1006", "1007", "1008", "1009"], "features": ["road"]}]
    sides = [{"between": ["1006", "1007"], "features": ["road", "stream"]}]
    g = mini_game(tmp_path, [U("t62", "SU-T62", "SU", "1005"), U("x", "US-M113", "US", "1010")],
                  hexes, sides)
    assert los(g, "1005", "1010")
    (tmp_path / "f").mkdir()
    forest_road = [{"at": ["1006", "1007", "1008", "1009"], "terrain": "forest",
                    "features": ["road"]}]
    g2 = mini_game(tmp_path / "f", [U("t62", "SU-T62", "SU", "1005"),
                                    U("x", "US-M113", "US", "1010")], forest_road)
    assert not los(g2, "1005", "1010")  # Firefight 5.1 (Clarifications): no lane down a forest road
    assert los(g2, "1005", "1006")  # one hex (50 m) along it (ERR)


def test_ff_17_units_never_block(tmp_path: Path) -> None:
    g = mini_game(tmp_path, [U("t62", "SU-T62", "SU", "1005"), U("x", "US-M113", "US", "1010"),
                             U("y", "US-M113", "US", "1007"), U("z", "SU-T62", "SU", "1008")])
    assert los(g, "1005", "1010")


def test_ff_18_defilade_from_wrong_side(tmp_path: Path) -> None:
    g = _los_game(tmp_path, [{"at": "1010", "features": ["defilade:4"]}])
    assert los(g, "1005", "1010")
    assert not SI.in_defilade_geom(g.board, g.board.parse("1005"), g.board.parse("1010"))


def test_ff_19_two_sided_defilade_does_not_block(tmp_path: Path) -> None:
    g = _los_game(tmp_path, [{"at": "1010", "features": ["defilade:1"]},
                             {"at": "1009", "features": ["defilade:4"]},
                             {"at": "1207", "features": ["defilade:4"]},
                             {"at": "1208", "features": ["defilade:1"]}])
    assert los(g, "1005", "1010")
    assert SI.in_defilade_geom(g.board, g.board.parse("1005"), g.board.parse("1010"))


def test_ff_20_22_positions_passed_without_crossing(tmp_path: Path) -> None:
    hexes = [{"at": "1010", "features": ["defilade:1"]},
             {"at": ["1110", "1210", "1310", "1410"], "features": ["defilade:1"]}]
    g = mini_game(tmp_path, [U("m60", "US-M60A1", "US", "1005"), U("m113", "US-M113", "US", "1510"),
                             U("brdm", "SU-BRDM", "SU", "1010")], hexes)
    assert los(g, "1005", "1010")
    assert SI.in_defilade_geom(g.board, g.board.parse("1005"), g.board.parse("1010"))
    assert los(g, "1510", "1010")  # Firefight 5.21
    assert not SI.in_defilade_geom(g.board, g.board.parse("1510"), g.board.parse("1010"))


def test_ff_21_spine_of_defilade_hexside_blocks(tmp_path: Path) -> None:
    d = H("2224").direction_to(H("2325"))
    g = mini_game(tmp_path, [U("m113", "US-M113", "US", "2225"), U("tm", "SU-TM", "SU", "2324")],
                  [{"at": "2224", "features": [f"defilade:{d}"]}])
    assert not los(g, "2225", "2324")
    (tmp_path / "c").mkdir()
    g2 = mini_game(tmp_path / "c", [U("m113", "US-M113", "US", "2225"),
                                    U("tm", "SU-TM", "SU", "2324")])
    assert los(g2, "2225", "2324")


# ---------------------------------------------------------------------------------------------
# 10.6 direct fire
# ---------------------------------------------------------------------------------------------


def test_ff_41_one_attack_two_firers(tmp_path: Path) -> None:
    g = mini_game(tmp_path, [U("m60", "US-M60A1", "US", "1005"), U("tm", "US-TM", "US", "1008"),
                             U("t62", "SU-T62", "SU", "1010")])
    out = FI.execute_attack(g, "US", ["m60", "tm"], "t62", {}, "direct", rolls=[12, 12])
    assert [o["firer"] for o in out] == ["m60", "tm"]
    assert out[1]["weapon"] == "US-LAW"  # the fireteam must use LAW or Dragon (Firefight 6.8)
    assert all(o["result"] == "-" for o in out)
    assert g.state.units["m60"].state["fired"] and g.state.units["tm"].state["fired"]


def test_ff_42_tm_plus_rating_8_and_column_8(tmp_path: Path) -> None:
    g = mini_game(tmp_path, [U("tm121", "US-TM+", "US", "2834"), U("mg181", "SU-MG", "SU", "2831")],
                  [{"at": "2834", "terrain": "forest"}])
    f, t = g.state.units["tm121"], g.state.units["mg181"]
    w = FI.choose_weapon(g, f, t, None)
    att = FI.describe_attack(g, f, t, w, "direct")
    assert att["range"] == 3
    base, _, mods = FI.attack_rating(g, att)
    assert base == 8 and mods == []
    for roll in range(2, 13):
        assert FI.crt_result("anti_personnel", 8, roll, [])[0] in ("S", "K")


def test_ff_43_suppressed_team(tmp_path: Path) -> None:
    g = mini_game(tmp_path, [U("tm", "US-TM", "US", "1005", S=True),
                             U("su", "SU-TM", "SU", "1008")])
    f, t = g.state.units["tm"], g.state.units["su"]
    att = FI.describe_attack(g, f, t, FI.choose_weapon(g, f, t, None), "direct")
    _base, _, mods = FI.attack_rating(g, att)
    assert [(m.value, m.rule) for m in mods] == [(-3, "Firefight 6.52")]
    with pytest.raises(RulesError, match="suppressed"):
        start_move(g, "tm")


def test_ff_44_suppressed_vehicle(tmp_path: Path) -> None:
    g = mini_game(tmp_path, [U("t62", "SU-T62", "SU", "1005", S=True),
                             U("m60", "US-M60A1", "US", "1010")])
    f, t = g.state.units["t62"], g.state.units["m60"]
    att = FI.describe_attack(g, f, t, FI.choose_weapon(g, f, t, None), "direct")
    assert [(m.value, m.rule) for m in FI.attack_rating(g, att)[2]] == [(-3, "Firefight 6.53")]
    u = start_move(g, "t62")
    assert u.state["mp"] == 3


def test_ff_45_double_suppression(tmp_path: Path) -> None:
    g = mini_game(tmp_path, [U("tm", "SU-TM", "SU", "1005"), U("t62", "SU-T62", "SU", "1006"),
                             U("x", "US-TM", "US", "1020")])
    FI.apply_result(g, "tm", "S", "direct")
    assert g.state.units["tm"].hex is not None
    FI.apply_result(g, "tm", "S", "direct")
    assert g.state.units["tm"].hex is None  # Firefight 6.57
    FI.apply_result(g, "t62", "S", "direct")
    FI.apply_result(g, "t62", "S", "direct")
    assert g.state.units["t62"].hex is not None and g.state.units["t62"].state["S"]


@pytest.mark.parametrize("a,b", [("Kf", "Km"), ("Km", "Kf"), ("Kf", "Kf"), ("Km", "Km")])
def test_ff_46_second_kf_km_kills(tmp_path: Path, a: str, b: str) -> None:
    g = mini_game(tmp_path, [U("t62", "SU-T62", "SU", "1005"), U("x", "US-TM", "US", "1020")])
    FI.apply_result(g, "t62", a, "direct")
    assert g.state.units["t62"].hex is not None
    FI.apply_result(g, "t62", b, "direct")
    assert g.state.units["t62"].hex is None


def test_ff_47_kf_and_km(tmp_path: Path) -> None:
    g = mini_game(tmp_path, [U("a", "SU-T62", "SU", "1005", Kf=True),
                             U("b", "SU-T62", "SU", "1006", Km=True),
                             U("x", "US-TM", "US", "1020")])
    a, b = g.state.units["a"], g.state.units["b"]
    assert "Kf" in (FI.firer_problem(g, a, "direct") or "")
    assert MV.mover_problem(g, a) is None
    assert FI.firer_problem(g, b, "direct") is None
    assert "Km" in (MV.mover_problem(g, b) or "")


def test_ff_48_passengers_share_fate(tmp_path: Path) -> None:
    units = [U("m113", "US-M113", "US", "1005"),
             U("tm1", "US-TM", "US", "1005", carrier="m113"),
             U("tm2", "US-TM", "US", "1005", carrier="m113"),
             U("m113b", "US-M113", "US", "1007"),
             U("tm3", "US-TM", "US", "1007", carrier="m113b"), U("x", "SU-TM", "SU", "1020")]
    g = mini_game(tmp_path, units)
    FI.apply_result(g, "m113b", "Kf", "direct")
    assert g.state.units["tm3"].hex is not None
    FI.apply_result(g, "m113", "K", "direct")
    assert all(g.state.units[x].hex is None for x in ("m113", "tm1", "tm2"))


def test_ff_49_one_attack_per_target(tmp_path: Path) -> None:
    g = mini_game(tmp_path, [U("a", "US-M60A1", "US", "1005"), U("b", "US-M60A1", "US", "1006"),
                             U("t", "SU-T62", "SU", "1012")])
    g.state.phase = "firefight.direct_fire"
    FI.execute_attack(g, "US", ["a"], "t", {}, "direct", rolls=[12])
    before = g.state.digest()
    with pytest.raises(RulesError, match=r"already been attacked") as exc:
        FI.execute_attack(g, "US", ["b"], "t", {}, "direct", rolls=[2])
    assert exc.value.rule == "Firefight 6.13"
    assert g.state.digest() == before


def test_ff_50_all_announced_firers_count(tmp_path: Path) -> None:
    g = mini_game(tmp_path, [U(f"t{i}", "SU-T62", "SU", f"10{5 + i:02d}") for i in range(3)]
                  + [U("m60", "US-M60A1", "US", "1015")])
    out = FI.execute_attack(g, "SU", ["t0", "t1", "t2"], "m60", {}, "direct", rolls=[2, 2, 2])
    assert g.state.units["m60"].hex is None
    assert all(g.state.units[f"t{i}"].state["fired"] for i in range(3))
    assert "Firefight 6.31" in out[1]["note"]


def test_ff_51_out_of_range_is_wasted(tmp_path: Path) -> None:
    g = mini_game(tmp_path, [U("tm", "US-TM", "US", "0501"), U("su", "SU-TM", "SU", "0529")])
    out = FI.execute_attack(g, "US", ["tm"], "su", {}, "direct", rolls=[2])
    assert out[0]["ar"] is None and out[0]["result"] == "-" and "Firefight 6.14" in out[0]["note"]
    assert g.state.units["tm"].state["fired"] and g.state.units["su"].hex is not None


def test_ff_52_fire_or_move(tmp_path: Path) -> None:
    g = mini_game(tmp_path, [U("a", "US-M60A1", "US", "1005", fired=True),
                             U("b", "US-M60A1", "US", "1006", moved=True),
                             U("t", "SU-T62", "SU", "1012")])
    assert "Firefight 7.22" in (MV.mover_problem(g, g.state.units["a"]) or "")
    with pytest.raises(RulesError) as exc:
        FI.execute_attack(g, "US", ["b"], "t", {}, "direct")
    assert exc.value.rule == "Firefight 6.11, 4.1" or exc.value.rule == "Firefight 6.11"


def test_ff_53_56_dragon_assignment() -> None:
    from hexwar.plugins.firefight.setup import assignment_problem

    assert assignment_problem(["t1", "t1"], ["t1", "t2"], 2) is not None
    assert assignment_problem(["t1", "t2"], ["t1", "t2"], 2) is None
    assert assignment_problem(["t1", "t2", "t3"], ["t1", "t2", "t3"], 2) is not None


def test_ff_54_dragon_or_law(tmp_path: Path) -> None:
    g = mini_game(tmp_path, [U("tm", "US-TM", "US", "1005", weapon="dragon",
                               weapon_used="US-Dragon"), U("t", "SU-BMP", "SU", "1010")])
    f, t = g.state.units["tm"], g.state.units["t"]
    assert {w.line for w in FI.weapons(g, f, t)} == {"US-LAW", "US-Dragon"}
    assert "Firefight 6.82" in (FI.attack_problem(g, f, t, "US-LAW", "direct") or "")


def test_ff_55_personnel_or_vehicle(tmp_path: Path) -> None:
    g = mini_game(tmp_path, [U("tm", "US-TM", "US", "1005", target_kind_used="personnel"),
                             U("t", "SU-BMP", "SU", "1008")])
    f, t = g.state.units["tm"], g.state.units["t"]
    assert "Firefight 6.83" in (FI.attack_problem(g, f, t, None, "direct") or "")


def test_ff_57_rpg_suppressed_with_team(tmp_path: Path) -> None:
    g = mini_game(tmp_path, [U("tm", "SU-TM", "SU", "1005", weapon="rpg7", S=True),
                             U("t", "US-M113", "US", "1007")])
    f, t = g.state.units["tm"], g.state.units["t"]
    att = FI.describe_attack(g, f, t, FI.choose_weapon(g, f, t, "SU-RPG7"), "direct")
    assert [(m.value, m.rule) for m in FI.attack_rating(g, att)[2]] == [(-3, "Firefight 6.93")]
    FI.apply_result(g, "tm", "S", "direct")
    assert g.state.units["tm"].hex is None


def test_ff_58_green_results_only_in_forest() -> None:
    cells = ff_data().crt["anti_armor"]
    green = [(k, v) for k, v in cells.items() if "forest" in v[1] and v[0] != "-"]
    assert green
    for (ar, roll), (res, _) in green:
        assert FI.crt_result("anti_armor", ar, roll, ["forest"])[0] == "-"
        for other in ([], ["town"], ["defilade"]):
            assert FI.crt_result("anti_armor", ar, roll, other)[0] == res


def test_ff_59_stack_targets_one_unit(tmp_path: Path) -> None:
    g = mini_game(tmp_path, [U("a", "SU-T62", "SU", "1010"), U("b", "SU-T62", "SU", "1010"),
                             U("m", "US-M60A1", "US", "1005"), U("n", "US-M60A1", "US", "1005")])
    FI.execute_attack(g, "US", ["m"], "a", {}, "direct", rolls=[2])
    FI.execute_attack(g, "US", ["n"], "b", {}, "direct", rolls=[12])
    assert g.state.units["a"].hex is None and g.state.units["b"].hex is not None


def test_ff_60_opportunity_fire_only_at_mover(tmp_path: Path) -> None:
    g = mini_game(tmp_path, [U("a", "SU-T62", "SU", "1010"), U("b", "SU-T62", "SU", "1011"),
                             U("m", "US-M60A1", "US", "1005")])
    ST.ff(g)["mover"] = "a"
    with pytest.raises(RulesError, match="moving unit"):
        FI.execute_attack(g, "US", ["m"], "b", {}, "opportunity")
    FI.execute_attack(g, "US", ["m"], "a", {}, "opportunity", rolls=[12])


# ---------------------------------------------------------------------------------------------
# 10.7 movement and transport
# ---------------------------------------------------------------------------------------------


def test_ff_61_62_three_clear_hexes(tmp_path: Path) -> None:
    g = mini_game(tmp_path, [U("t62", "SU-T62", "SU", "1005"), U("x", "US-TM", "US", "2020")])
    u = start_move(g, "t62")
    for x in ("1006", "1007", "1008"):
        MV.do_step(g, u, x)
    assert u.state["mp"] == 0
    before = g.state.digest()
    with pytest.raises(RulesError) as exc:
        MV.do_step(g, u, "1009")
    assert exc.value.rule == "Firefight 7.23" and g.state.digest() == before


def test_ff_63_six_road_hexes(tmp_path: Path) -> None:
    road = [f"10{r:02d}" for r in range(5, 13)]
    g = mini_game(tmp_path, [U("t62", "SU-T62", "SU", "1005"), U("x", "US-TM", "US", "2020")],
                  [{"at": road, "features": ["road"]}],
                  [{"between": [a, b], "features": ["road"]} for a, b in itertools.pairwise(road)])
    u = start_move(g, "t62")
    for x in road[1:7]:
        MV.do_step(g, u, x)
    assert u.state["mp"] == 0
    with pytest.raises(RulesError):
        MV.do_step(g, u, road[7])


def test_ff_64_bmp_road_then_forest(tmp_path: Path) -> None:
    g = mini_game(tmp_path, [U("bmp", "SU-BMP", "SU", "1005"), U("x", "US-TM", "US", "2020")],
                  [{"at": ["1005", "1006", "1007"], "features": ["road"]},
                   {"at": "1008", "terrain": "forest"}],
                  [{"between": ["1005", "1006"], "features": ["road"]},
                   {"between": ["1006", "1007"], "features": ["road"]}])
    u = start_move(g, "bmp")
    assert [MV.do_step(g, u, x) for x in ("1006", "1007", "1008")] == [0.5, 0.5, 2.0]
    with pytest.raises(RulesError):
        MV.do_step(g, u, "1009")


def _map_b_game(tmp_path: Path) -> Game:
    return mini_game(tmp_path, [U("t62", "SU-T62", "SU", "2037"), U("x", "US-TM", "US", "0501")],
                     panel="firefight:map-b")


def test_ff_65_cross_river_to_1837(tmp_path: Path) -> None:
    g = _map_b_game(tmp_path)
    u = start_move(g, "t62")
    assert MV.do_step(g, u, "1938") == 1 and MV.do_step(g, u, "1837") == 2
    assert u.state["mp"] == 0


def test_ff_66_back_onto_the_road_and_over_the_bridge(tmp_path: Path) -> None:
    g = _map_b_game(tmp_path)
    u = start_move(g, "t62")
    assert MV.do_step(g, u, "2138") == 1
    costs = [MV.do_step(g, u, x) for x in ("2137", "2136", "2135", "2134")]
    assert costs == [0.5] * 4 and u.state["mp"] == 0


def test_ff_67_town_across_river_costs_four(tmp_path: Path) -> None:
    g = _map_b_game(tmp_path)
    u = start_move(g, "t62")
    assert MV.step_cost(g, g.board, u, g.board.parse("2037"), g.board.parse("2036")) == 4
    with pytest.raises(RulesError):
        MV.do_step(g, u, "2036")


def test_ff_68_trail_and_bridge(tmp_path: Path) -> None:
    g = mini_game(tmp_path, [U("t62", "SU-T62", "SU", "1005"), U("x", "US-TM", "US", "2020")],
                  [{"at": "1006", "terrain": "forest"}],
                  [{"between": ["1005", "1006"], "features": ["trail"]},
                   {"between": ["1005", "1105"], "features": ["road", "stream", "bridge"]},
                   {"between": ["1005", "0905"], "features": ["stream"]}])
    b, u = g.board, g.state.units["t62"]
    assert MV.step_cost(g, b, u, b.parse("1005"), b.parse("1006")) == 1
    assert MV.step_cost(g, b, u, b.parse("1005"), b.parse("1105")) == 0.5
    assert MV.step_cost(g, b, u, b.parse("1005"), b.parse("0905")) == 2


def test_ff_69_infantry_one_hex(tmp_path: Path) -> None:
    g = mini_game(tmp_path, [U("tm", "US-TM", "US", "1005"), U("x", "SU-TM", "SU", "2020")],
                  [{"at": "1006", "terrain": "town"}],
                  [{"between": ["1005", "1006"], "features": ["stream"]}])
    u = start_move(g, "tm")
    MV.do_step(g, u, "1006")
    with pytest.raises(RulesError, match="one hex"):
        MV.do_step(g, u, "1007")


def test_ff_70_exit_costs_one_mp(tmp_path: Path) -> None:
    g = mini_game(tmp_path, [U("a", "US-M60A1", "US", "1001"), U("x", "SU-TM", "SU", "2020")])
    u = start_move(g, "a")
    u.state["mp"] = 0.5
    with pytest.raises(RulesError):
        MV.do_exit(g, u)
    u.state["mp"] = 1.0
    MV.do_exit(g, u)
    assert u.hex is None and "north" in u.state["exit_edge"]


def test_ff_71_no_entry_into_enemy_hex(tmp_path: Path) -> None:
    g = mini_game(tmp_path, [U("a", "US-M60A1", "US", "1005"), U("x", "SU-TM", "SU", "1006")])
    u = start_move(g, "a")
    with pytest.raises(RulesError) as exc:
        MV.do_step(g, u, "1006")
    assert exc.value.rule == "Firefight 7.25"


def test_ff_72_stacking_at_end_of_phase(tmp_path: Path) -> None:
    units = [U(f"m{i}", "US-M113", "US", "1005") for i in range(4)]
    units += [U(f"p{i}", "US-TM", "US", "1005", carrier=f"m{i // 2}") for i in range(4)]
    g = mini_game(tmp_path, [*units, U("x", "SU-TM", "SU", "2020")])
    assert MV.stacking_violations(g) == {}  # four APCs with passengers count as four (Firefight 7.31)
    g.state.units["x"].side = "US"
    g.state.units["x"].hex = g.board.parse("1005")
    assert MV.stacking_violations(g)


def test_ff_73_capacity_in_men(tmp_path: Path) -> None:
    units = [U("m113", "US-M113", "US", "1005"), U("vx", "US-VehX", "US", "1005"),
             U("t1", "US-TM", "US", "1005"), U("t2", "US-TM", "US", "1005"),
             U("g1", "US-MG", "US", "1005"), U("g2", "US-MG", "US", "1005"),
             U("x", "SU-TM", "SU", "2020")]
    g = mini_game(tmp_path, units)
    s = g.state.units
    assert MV.mount_problem(g, s["m113"], [s["t1"], s["t2"]]) is None
    assert MV.mount_problem(g, s["m113"], [s["t1"], s["g1"], s["g2"]]) is None
    assert "Firefight 7.43" in (MV.mount_problem(g, s["m113"], [s["t1"], s["t2"], s["g1"]]) or "")
    assert MV.mount_problem(g, s["vx"], [s["t1"]]) is None
    assert "Firefight 7.43" in (MV.mount_problem(g, s["vx"], [s["t1"], s["g1"]]) or "")


def test_ff_74_mount_takes_the_turn(tmp_path: Path) -> None:
    g = mini_game(tmp_path, [U("m113", "US-M113", "US", "1005"), U("t1", "US-TM", "US", "1005"),
                             U("t2", "US-TM", "US", "1006"), U("x", "SU-TM", "SU", "2020")])
    s = g.state.units
    assert MV.mount_problem(g, s["m113"], [s["t2"]]) is not None
    MV.do_mount(g, s["m113"], [s["t1"]])
    assert s["t1"].state["carrier"] == "m113" and MV.mover_problem(g, s["m113"]) is not None
    assert FI.firer_problem(g, s["m113"], "direct") is not None
    s["t2"].state["fired"] = True
    s["t2"].hex = s["m113"].hex
    s["m113"].state.pop("acted")
    assert MV.mount_problem(g, s["m113"], [s["t2"]]) is not None


def test_ff_75_move_once(tmp_path: Path) -> None:
    g = mini_game(tmp_path, [U("a", "US-M60A1", "US", "1005"), U("x", "SU-TM", "SU", "2020")])
    start_move(g, "a")
    with pytest.raises(RulesError, match=r"already moved"):
        start_move(g, "a")


def test_ff_76_opportunity_fire_needs_a_new_firer(tmp_path: Path) -> None:
    g = mini_game(tmp_path, [U("t", "SU-T62", "SU", "1010"), U("x", "US-M60A1", "US", "1005"),
                             U("y", "US-M60A1", "US", "1004")])
    ST.ff(g)["mover"] = "t"
    FI.execute_attack(g, "US", ["x"], "t", {}, "opportunity", rolls=[12])
    with pytest.raises(RulesError):
        FI.execute_attack(g, "US", ["x"], "t", {}, "opportunity", rolls=[12])
    FI.execute_attack(g, "US", ["y"], "t", {}, "opportunity", rolls=[12])


def test_ff_77_who_may_move(tmp_path: Path) -> None:
    g = mini_game(tmp_path, [U("tm", "US-TM", "US", "1005", S=True),
                             U("v", "US-M113", "US", "1006", S=True),
                             U("k", "US-M113", "US", "1007", Km=True), U("x", "SU-TM", "SU", "2020")])
    s = g.state.units
    assert MV.mover_problem(g, s["tm"]) and MV.mover_problem(g, s["v"]) is None
    assert "Firefight 6.54" in (MV.mover_problem(g, s["k"]) or "")


# ---------------------------------------------------------------------------------------------
# 10.8 indirect fire
# ---------------------------------------------------------------------------------------------


def _if_game(tmp_path: Path, ind: list[dict[str, str]], extra: list[dict[str, Any]] | None = None,
             **kw: Any) -> Game:
    units = [U("obs", "US-TM", "US", "1005"), U("su", "SU-TM", "SU", "1010"), *(extra or [])]
    return mini_game(tmp_path, units, special={"indirect": ind}, **kw)


M81 = [{"id": f"m{i}", "type": "81mm", "side": "US", "status": "organic"} for i in range(3)]


def test_ff_78_target_list_limit(tmp_path: Path) -> None:
    g = _if_game(tmp_path, M81)
    hexes = [f"05{r:02d}" for r in range(1, 14)]
    assert IF.target_list_problem(g, "US", hexes[:12]) is None
    assert "Firefight 8.13" in (IF.target_list_problem(g, "US", hexes) or "")


def test_ff_79_83_one_mission_at_a_time(tmp_path: Path) -> None:
    g = _if_game(tmp_path, M81[:1])
    g.state.phase, g.state.turn = "firefight.if_request", 2
    IF.request(g, "US", "m0", "1010")
    assert "Firefight 8.21" in (IF.request_problem(g, "US", "m0", "1010") or "")
    g.state.turn = 3
    assert IF.request_problem(g, "US", "m0", "1010") is not None


def test_ff_80_81_on_call_delay(tmp_path: Path) -> None:
    g = _if_game(tmp_path, M81)
    ST.ff(g)["target_list"] = {"US": ["1010"]}
    g.state.phase, g.state.turn = "firefight.if_request", 2
    m = IF.request(g, "US", "m0", "1010")
    assert m["planned"] and m["impact_turn"] == 4
    m2 = IF.request(g, "US", "m1", "1009")
    assert not m2["planned"]


def test_ff_82_too_delay_4_2in(tmp_path: Path) -> None:
    g = _if_game(tmp_path, [{"id": "h", "type": "4.2in", "side": "US", "status": "organic"},
                            {"id": "h2", "type": "4.2in", "side": "US", "status": "organic"}])
    ST.ff(g)["target_list"] = {"US": ["1009"]}
    g.state.phase, g.state.turn = "firefight.if_request", 3
    assert IF.request(g, "US", "h", "1010")["impact_turn"] == 7
    assert IF.request(g, "US", "h2", "1009")["impact_turn"] == 6


def test_ff_84_requests_only_in_if_phase(tmp_path: Path) -> None:
    g = _if_game(tmp_path, M81[:1])
    g.state.phase = "firefight.direct_fire"
    with pytest.raises(RulesError) as exc:
        IF.request(g, "US", "m0", "1010")
    assert exc.value.rule == "Firefight 8.22"


def _due(g: Game, uid: str, **kw: Any) -> dict[str, Any]:
    m = {"unit": uid, "side": "US", "hex": "1010", "kind": "he", "planned": True,
         "continuous": False, "scheduled": False, "requested": 1, "impact_turn": g.state.turn}
    m.update(kw)
    IF.if_units(g)[uid]["mission"] = m
    return m


def test_ff_85_direct_support_availability(tmp_path: Path) -> None:
    g = _if_game(tmp_path, [{"id": "a", "type": "155mm", "side": "US", "status": "direct"}])
    g.state.turn = 5
    _due(g, "a")
    g.dice.force(5)
    assert IF.availability(g, "a")
    g.dice.force(6, 4)
    assert not IF.availability(g, "a")
    assert IF.if_units(g)["a"]["mission"]["impact_turn"] == 9


def test_ff_86_organic_continuous_scheduled_on_time(tmp_path: Path) -> None:
    g = _if_game(tmp_path, [{"id": "o", "type": "81mm", "side": "US", "status": "organic"},
                            {"id": "c", "type": "155mm", "side": "US", "status": "direct"},
                            {"id": "s", "type": "155mm", "side": "US", "status": "direct"}])
    _due(g, "o")
    _due(g, "c", continuous=True)
    _due(g, "s", scheduled=True)
    g.dice.force(6, 6, 6, 6, 6, 6)
    assert IF.availability(g, "o") and IF.availability(g, "c") and IF.availability(g, "s")


def test_ff_87_adjust_two_hexes_with_sight(tmp_path: Path) -> None:
    g = _if_game(tmp_path, M81[:1])
    _due(g, "m0", hex="1012")
    assert IF.adjust_problem(g, "US", "m0", "1010") is None
    assert "Firefight 8.51" in (IF.adjust_problem(g, "US", "m0", "1015") or "")
    (tmp_path / "b").mkdir()
    g2 = _if_game(tmp_path / "b", M81[:1], hexes=[{"at": "1011", "terrain": "forest"}])
    _due(g2, "m0", hex="1012")
    assert "Firefight 8.71" in (IF.adjust_problem(g2, "US", "m0", "1010") or "")


def test_ff_88_scatter(tmp_path: Path) -> None:
    g = _if_game(tmp_path, M81[:1])
    _due(g, "m0")
    h = g.board.parse("1015")
    g.dice.force(2)
    assert IF.scatter(g, "m0", h) == h
    g.dice.force(1, 3)
    assert IF.scatter(g, "m0", h) == h.neighbor(ff_data().scatter[3])


def test_ff_89_90_4_2in_pattern_and_sum(tmp_path: Path) -> None:
    g = _if_game(tmp_path, [])
    imp = [{"unit": "a", "side": "US", "hex": "2623", "pattern": [8, 4, 2], "turn": 1}]
    c = g.board.parse("2623")
    assert IF.zone_ar(g, c, imp)[0] == 8
    assert {IF.zone_ar(g, h, imp)[0] for h in c.ring(1)} == {4}
    assert {IF.zone_ar(g, h, imp)[0] for h in c.ring(2)} == {2} and len(c.ring(2)) == 12
    assert {IF.zone_ar(g, h, imp)[0] for h in c.ring(3)} == {0}
    two = [{"unit": "a", "side": "US", "hex": "2126", "pattern": [8, 4, 2], "turn": 1},
           {"unit": "b", "side": "US", "hex": "2324", "pattern": [8, 4, 2], "turn": 1}]
    assert IF.zone_ar(g, g.board.parse("2225"), two)[0] == 6


def test_ff_91_each_stacked_unit_attacked(tmp_path: Path) -> None:
    g = _if_game(tmp_path, [], extra=[U("su2", "SU-TM", "SU", "1010")])
    ST.ff(g)["impacts"] = [{"unit": "a", "side": "US", "hex": "1010", "pattern": [8, 4, 2],
                           "turn": g.state.turn}]
    g.dice.force(1, 1, 1, 1)
    out = IF.attack_zones(g)
    assert {o["target"] for o in out} == {"su", "su2"} and {o["ar"] for o in out} == {8}


def test_ff_92_if_terrain_and_vehicles(tmp_path: Path) -> None:
    units = [U("town", "SU-TM", "SU", "1010"), U("wood", "SU-TM", "SU", "1012"),
             U("bmp", "SU-BMP", "SU", "1014")]
    g = _if_game(tmp_path, [], extra=units,
                 hexes=[{"at": "1010", "terrain": "town"}, {"at": "1012", "terrain": "forest"}])
    s = g.state.units
    ar = next(a for a in range(1, 25) if ff_data().if_crt[("US", a, 3)] != "-")
    assert IF.if_result(g, s["town"], ar, "US", 3)[0] == "-"
    assert IF.if_result(g, s["wood"], ar, "US", 3)[0] == ff_data().if_crt[("US", ar, 3)]
    assert IF.if_result(g, s["bmp"], 24, "US", 6)[0] == "-"
    assert IF.if_result(g, s["bmp"], 24, "US", 7)[0] == ff_data().if_crt[("US", 24, 7)] != "-"


def test_ff_93_kms(tmp_path: Path) -> None:
    units = [U("tm", "SU-TM", "SU", "1010"), U("bmp", "SU-BMP", "SU", "1012"),
             U("m150", "US-M150", "US", "1014"), U("a2", "US-M60A2", "US", "1016")]
    g = _if_game(tmp_path, [], extra=units)
    s = g.state.units
    FI.apply_result(g, "tm", "Kms", "indirect")
    assert s["tm"].hex is None
    FI.apply_result(g, "bmp", "Kms", "indirect")
    assert s["bmp"].state["S"] and s["bmp"].state["Kms"]
    assert {w.line for w in FI.weapons(g, s["bmp"], s["m150"])} == {"SU-BMP-gun"}
    FI.apply_result(g, "m150", "Kms", "indirect")
    assert "US-TOW" not in {w.line for w in FI.weapons(g, s["m150"], s["bmp"])}
    FI.apply_result(g, "a2", "Kms", "indirect")
    assert s["a2"].state["S"] and not s["a2"].state.get("Kms")


def test_ff_94_95_requests_need_sight_and_range(tmp_path: Path) -> None:
    g = _if_game(tmp_path, M81[:1], hexes=[{"at": "1008", "terrain": "forest"}])
    g.state.phase = "firefight.if_request"
    assert "Firefight 8.71" in (IF.request_problem(g, "US", "m0", "1010") or "")
    u = IF.if_units(g)["m0"]
    u.update(impacted_turn=g.state.turn, last_impact="1003")
    assert IF.request_problem(g, "US", "m0", "1001", continuous=True) is None
    assert "Firefight 8.32" in (IF.request_problem(g, "US", "m0", "1006", continuous=True) or "")
    m = IF.request(g, "US", "m0", "1001", continuous=True)
    assert m["impact_turn"] == g.state.turn + 1


def test_ff_97_impacts_persist_and_hit_movers(tmp_path: Path) -> None:
    from hexwar.plugins.firefight.sequence import if_cleanup

    g = _if_game(tmp_path, [], extra=[U("t62", "SU-T62", "SU", "1019")])
    t = g.state.turn
    ST.ff(g)["impacts"] = [{"unit": "a", "side": "US", "hex": "1017", "pattern": [8, 4, 2],
                           "turn": t}]
    g.state.turn = t + 1
    u = start_move(g, "t62")
    MV.do_step(g, u, "1018")
    g.dice.force(6, 6)
    out = IF.attack_mover(g, u)
    assert out is not None and out["ar"] == 4 and out["roll"] == 12
    assert IF.attack_mover(g, g.state.units["su"]) is None  # not in a zone
    list(if_cleanup(g))
    assert ST.ff(g)["impacts"] == []


# ---------------------------------------------------------------------------------------------
# rules errors leave the state unchanged; illegal actions are not offered
# ---------------------------------------------------------------------------------------------


def test_illegal_actions_raise_and_are_not_offered(tmp_path: Path) -> None:
    g = mini_game(tmp_path, [U("a", "US-M60A1", "US", "1005"), U("b", "SU-T62", "SU", "1010"),
                             U("c", "SU-T62", "SU", "1020")],
                  [{"at": "1015", "terrain": "forest"}])
    before = g.state.digest()
    with pytest.raises(RulesError) as exc:
        FI.execute_attack(g, "US", ["a"], "c", {}, "direct")
    assert exc.value.rule == "Firefight 5.0" and g.state.digest() == before
    d = g.pending
    assert d is not None and d.kind == "firefight.direct_fire"
    targets = {o["target"] for o in d.options or () if isinstance(o, dict)}
    assert "c" not in targets
    with pytest.raises(RulesError):
        g.answer({"firers": ["a"], "target": "c", "weapons": {}})
    assert g.state.digest() == before


# ---------------------------------------------------------------------------------------------
# data
# ---------------------------------------------------------------------------------------------


def test_every_disclosed_number_is_shipped() -> None:
    from hexwar.core.tables import check_disclosed

    d = ff_data()
    assert check_disclosed(d.tables, disclosed()) == []
    for t, key, value, rule in DISCLOSED_UNITS:
        assert getattr(d.units[t], key) == value, (t, key, rule)
        assert rule.strip("[]") in d.units[t].source.get(key, rule) or key in ("men",)


def test_estimates_are_marked() -> None:
    from hexwar.core.provenance import is_estimated

    t = ff_data().tables["fire_us"]
    cells = list(t.cells())
    assert any(is_estimated(s.source) for _, _, s in cells)
    cited = [s for _, _, s in cells if not is_estimated(s.source)]
    assert [s.value for s in cited] == [8]


def test_stand_in_maps_hold_the_disclosed_facts() -> None:
    from hexwar.core.board import Board, Panel, PanelPlacement

    root = Path(ST.__file__).parent / "data" / "maps"
    a = Board.assemble([PanelPlacement(Panel.from_toml(root / "map_a.toml"))], strict=False)
    b = Board.assemble([PanelPlacement(Panel.from_toml(root / "map_b.toml"))], strict=False)
    ha = {x: a.height(a.parse(x)) for x in ("1944", "1945", "1946", "1304", "1305", "1306",
                                             "1307", "3307", "3308", "3208", "2611", "3109",
                                             "3507", "3206")}
    assert ha == {"1944": 440, "1945": 460, "1946": 440, "1304": 440, "1305": 460, "1306": 460,
                  "1307": 440, "3307": 460, "3308": 460, "3208": 460, "2611": 440, "3109": 440,
                  "3507": 480, "3206": 460}
    assert SI.defilade_sides(a, a.parse("3206")) == (H("3206").direction_to(H("3306")),)
    assert b.height(b.parse("2951")) == 440 and b.height(b.parse("3050")) == 460
    assert b.terrain(b.parse("2834")) == "forest" and a.terrain(a.parse("2410")) == "town"
    assert {a.terrain(a.parse(x)) for x in ("1817", "1918", "2017")} == {"town"}
    assert "stream" in b.hexside(b.parse("1938"), b.parse("1837"))
    assert a.label(a.parse("1944")) == "1944"


# ---------------------------------------------------------------------------------------------
# 10.11 scenarios
# ---------------------------------------------------------------------------------------------


def _scenario(n: int, seed: int = 1) -> Game:
    game: Game = make_game(f"firefight:scenario-{n}", seed=seed)
    return game


def test_ff_131_five_tanks_through_ebersburen() -> None:
    from hexwar.plugins.firefight.victory import evaluate

    g = _scenario(1)
    tanks = [u.id for u in g.state.units_of("US")]
    ST.ff(g)["visited"] = {"Ebersburen": tanks[:4]}
    g.state.turn, g.state.phase = 10, "firefight.end_turn"
    r = evaluate(g, final=False)
    assert r is not None and r.winner == "SU"
    ST.ff(g)["visited"] = {"Ebersburen": tanks[:5]}
    r = evaluate(g, final=False)
    assert r is not None and r.winner == "US"


def test_ff_132_four_intact_tanks_in_versbach() -> None:
    from hexwar.plugins.firefight.victory import area, evaluate

    g = _scenario(2)
    vers = sorted(area(g.board, "Versbach"))
    for u in g.state.units_of("US"):
        u.hex = None
    t62 = [u for u in g.state.units_of("SU")]
    for u, h in zip(t62[:4], vers, strict=False):
        u.hex = h
    assert evaluate(g, final=True).winner == "SU"  # type: ignore[union-attr]
    t62[0].state["Km"] = True
    assert evaluate(g, final=True).winner == "US"  # type: ignore[union-attr]


def test_ff_133_exit_between_0135_and_0140() -> None:
    from hexwar.plugins.firefight.victory import evaluate

    g = _scenario(3)
    vehicles = [u for u in g.state.units_of("SU") if ST.is_vehicle(u)]
    assert len(vehicles) == 26
    for u in vehicles[:15]:
        u.state.update(exited=5, exit_edge=["west"], exit_hex="0137")
    vehicles[15].state.update(exited=5, exit_edge=["west"], exit_hex="0134")
    r = evaluate(g, final=True)
    assert r is not None and r.scores == {"SU": 15, "US": 11} and r.winner == "SU"


def test_ff_134_exit_more_north() -> None:
    from hexwar.plugins.firefight.victory import evaluate

    g = _scenario(4)
    us = g.state.units_of("US")[:6]
    su = g.state.units_of("SU")[:5]
    for u in us + su:
        u.state.update(exited=20, exit_edge=["north"])
    assert evaluate(g, final=True).winner == "US"  # type: ignore[union-attr]
    us[5].state.clear()
    assert evaluate(g, final=True).winner == "SU"  # type: ignore[union-attr]


def test_ff_135_last_stand() -> None:
    from hexwar.plugins.firefight.victory import evaluate

    g = _scenario(5)
    for u in g.state.units_of("US"):
        u.hex = None
        u.state["destroyed"] = 20
    g.state.turn = 25
    assert evaluate(g, final=False).winner == "SU"  # type: ignore[union-attr]
    us = g.state.units_of("US")
    for u in us[15:]:
        u.state.pop("destroyed")  # 15 kills
    for u in g.state.units_of("SU")[:25]:
        u.state["destroyed"] = 30
    g.state.turn = 32
    r = evaluate(g, final=False)
    assert r is not None and r.winner == "US" and len(us) == 17


def test_ff_136_clear_and_hold_points() -> None:
    from hexwar.plugins.firefight.victory import area, evaluate

    g = _scenario(6)
    for u in g.state.units_of("SU")[:10]:
        u.hex = None
        u.state["destroyed"] = 5
    for u in g.state.units_of("SU")[10:]:
        u.hex = g.board.parse("0501")
    us = g.state.units_of("US")
    us[0].hex = sorted(area(g.board, "Feldschlossen"))[0]
    us[1].hex = sorted(area(g.board, "Mittehohe"))[0]
    g.state.turn = 12
    r = evaluate(g, final=False)
    assert r is not None and r.scores == {"US": 10, "SU": 4}


def test_ff_137_vehicle_x_draw() -> None:
    g = make_game("firefight:scenario-7", seed=3)
    drawn = [u for u in g.state.units_of("SU") if not u.state.get("not_drawn")]
    assert len([u for u in g.state.units_of("SU") if not u.state.get("dummy")]) == 6
    assert len(drawn) <= 6
    vx = g.state.units["vehx-su1"]
    has_if = any(v["side"] == "SU" for v in IF.if_units(g).values())
    assert has_if == (not vx.state.get("not_drawn"))
    if not vx.state.get("not_drawn"):
        assert len(IF.if_units(g, "SU")) == 3
        g.state.turn = 5
        assert MV.mover_problem(g, vx) is not None
    assert vx.hex is None or vx.hex.distance(g.board.parse("2832")) <= 1
    for u in drawn:
        if u.hex is not None:
            assert u.hex.distance(g.board.parse("2832")) <= 2


def test_ff_138_random_end() -> None:
    from hexwar.plugins.firefight.victory import random_end

    g = _scenario(8)
    g.state.turn = 20
    random_end(g)
    assert not ST.ff(g).get("last_turn_reached")
    g.state.turn = 21
    g.dice.force(3, 4, 5, 2)
    random_end(g)
    assert ST.ff(g).get("last_turn_reached")


def test_ff_139_draw_25_each() -> None:
    g = _scenario(9)
    for side in ("US", "SU"):
        cup = g.scenario.raw["special"]["draw"][side]["cup"]
        drawn = [x for x in cup if not g.state.units[x].state.get("not_drawn")
                 or g.state.units[x].state.get("dummy")]
        assert len(cup) == 50
        assert len([x for x in cup if not g.state.units[x].state.get("not_drawn")]) <= 25
        assert len(drawn) >= 1
    bmps = [u for u in g.state.units_of("SU") if u.type.endswith("BMP")]
    assert all(len(u.state.get("passengers", [])) == 2 for u in bmps)


def test_ff_140_scenario_5_direct_support_152mm() -> None:
    g = _scenario(5)
    su = IF.if_units(g, "SU")
    assert sorted(v["type"] for v in su.values() if v["status"] == "direct") == ["152mm"] * 4
    assert not any(v["type"] == "122mm" for v in su.values())


# ---------------------------------------------------------------------------------------------
# hidden information, whole games, command
# ---------------------------------------------------------------------------------------------


def test_fire_plans_and_assignments_are_secret() -> None:
    from hexwar.plugins.firefight.ai import FirefightAI

    g = _scenario(4)
    ais = {s: FirefightAI(s, 1) for s in ("US", "SU")}
    while g.state.turn < 2 and g.pending is not None:
        d = g.pending
        g.answer(ais[d.side].choose(d, g.view(d.side)))
    su_view = g.view("SU")
    assert "US" not in su_view.system_state["target_list"]
    assert "US" in g.view("US").system_state["target_list"]
    assert all(e.get("side") != "US" for e in su_view.events()
               if e.get("type") in ("target_list", "if_request", "assign_weapons"))
    assert all("mission" not in v for v in su_view.system_state["if_units"].values()
               if v["side"] == "US")
    assert all("mission" in v for v in g.view("US").system_state["if_units"].values()
               if v["side"] == "US")
    dragons = [u for u in g.state.units_of("US") if u.state.get("weapon") == "dragon"]
    assert dragons
    assert all("weapon" not in su_view.units[u.id]["state"] for u in dragons)
    assert any(e.get("type") == "target_list" for e in g.view("US").events())


@pytest.mark.slow
def test_scenario_1_plays_to_the_end() -> None:
    from hexwar.plugins.firefight.ai import FirefightAI

    g = _scenario(1, seed=7)
    r = g.play({s: FirefightAI(s, 7) for s in ("US", "SU")})
    assert r.winner in ("US", "SU") and g.over
    assert any(e.get("what") == "fire" for e in g.log.for_side(None))


def test_saved_game_replays_to_the_same_state(tmp_path: Path) -> None:
    from hexwar.core.engine.record import load_saved, save_game
    from hexwar.core.engine.replay import rebuild
    from hexwar.plugins.firefight.ai import FirefightAI

    g = _scenario(4, seed=3)
    ais = {s: FirefightAI(s, 3) for s in ("US", "SU")}
    while g.pending is not None and g.state.turn < 4:
        d = g.pending
        g.answer(ais[d.side].choose(d, g.view(d.side)))
    save_game(g, tmp_path / "g.json")
    g2 = rebuild(load_saved(tmp_path / "g.json"))
    assert g2.state.digest() == g.state.digest()


@pytest.mark.slow
def test_every_scenario_starts_and_random_play_runs_a_turn() -> None:
    from hexwar.core.engine.controllers import RandomController

    for n in range(1, 10):
        g = _scenario(n)
        ctl = {s: RandomController(s, n) for s in ("US", "SU")}
        steps = 0
        while g.pending is not None and g.state.turn < 2 and steps < 3000:
            d = g.pending
            g.answer(ctl[d.side].choose(d, g.view(d.side)))
            steps += 1
        assert g.state.turn >= 1


def test_fire_command(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from hexwar.plugins.firefight.cli import firefight_group

    r = CliRunner().invoke(firefight_group, ["fire", "firefight:scenario-2", "--firer", "t62-su1",
                                             "--target", "m150-us1", "--dice", "3+4"])
    assert r.exit_code == 0 and "dice 7" in r.output, r.output  # the README's example
    g = _scenario(2)
    pairs = [(f, t) for f in g.state.units_of("SU") for t in g.state.units_of("US")
             if FI.attack_problem(g, f, t, None, "direct") is None]
    assert pairs
    f, t = pairs[0]
    r = CliRunner().invoke(firefight_group, ["fire", "firefight:scenario-2", "--firer", f.id, "--target",
                                             t.id, "--dice", "12", "--json"])
    assert r.exit_code == 0, r.output
    import json

    data = json.loads(r.output)
    assert data["attacks"][0]["roll"] == 12 and "base" in data["attacks"][0]
    r = CliRunner().invoke(firefight_group, ["fire", "firefight:scenario-2", "--firer", f.id, "--target",
                                             t.id, "--dice", "12"])
    assert "attack rating" in r.output and "dice 12" in r.output


def _answer_until(g: Game, kind: str, chooser: Any, limit: int = 500) -> Any:
    for _ in range(limit):
        d = g.pending
        if d is None:
            return None
        if d.kind == kind:
            return d
        g.answer(chooser(d))
    raise AssertionError(f"no {kind} decision")


def _passer(d: Any) -> Any:
    return "pass" if "pass" in (d.options or ()) else ("stop" if "stop" in (d.options or ())
                                                       else (d.options or [None])[0])


def test_moves_into_enemy_hexes_are_not_offered(tmp_path: Path) -> None:
    g = mini_game(tmp_path, [U("a", "US-M60A1", "US", "1005"), U("x", "SU-TM", "SU", "1006"),
                             U("y", "SU-TM", "SU", "1030")])
    d = _answer_until(g, "firefight.move", _passer)
    while d.side != "US":
        g.answer("pass")
        d = _answer_until(g, "firefight.move", _passer)
    g.answer({"move": "a"})
    step = g.pending
    assert step is not None and step.kind == "firefight.step"
    assert {"to": "1006"} not in (step.options or ())
    assert {"to": "1004"} in (step.options or ())
    with pytest.raises(RulesError):
        g.answer({"to": "1006"})


def test_opportunity_fire_offered_after_each_hex(tmp_path: Path) -> None:
    g = mini_game(tmp_path, [U("a", "US-M60A1", "US", "1010"), U("t", "SU-T62", "SU", "1020"),
                             U("u", "SU-T62", "SU", "1021")])
    d = _answer_until(g, "firefight.move", _passer)
    while d.side != "US":
        g.answer("pass")
        d = _answer_until(g, "firefight.move", _passer)
    g.answer({"move": "a"})
    g.answer({"to": "1011"})
    opp = g.pending
    assert opp is not None and opp.kind == "firefight.opportunity_fire" and opp.side == "SU"
    assert {o["target"] for o in opp.options or () if isinstance(o, dict)} == {"a"}
    g.dice.force(6, 6)
    g.answer({"firers": ["t"], "target": "a", "weapons": {"t": "SU-T62"}})
    g.answer({"to": "1012"})
    opp2 = g.pending
    assert opp2 is not None and opp2.kind == "firefight.opportunity_fire"
    assert {o["firers"][0] for o in opp2.options or () if isinstance(o, dict)} == {"u"}  # Firefight 7.51


def test_indirect_fire_request_to_impact(tmp_path: Path) -> None:
    ind = [{"id": "m0", "type": "81mm", "side": "US", "status": "organic"}]
    g = mini_game(tmp_path, [U("obs", "US-TM", "US", "1005"), U("su", "SU-TM", "SU", "1010")],
                  special={"indirect": ind})
    d = _answer_until(g, "firefight.target_list", _passer)
    g.answer(["1010"])
    d = _answer_until(g, "firefight.if_request", _passer)
    assert {"unit": "m0", "hex": "1010"} in (d.options or ())
    g.answer({"unit": "m0", "hex": "1010"})
    m = IF.if_units(g)["m0"]["mission"]
    assert m["planned"] and m["impact_turn"] == m["requested"] + 2  # 81mm On Call (Firefight 8.0) C
    assert all(e.get("type") != "if_request" for e in g.view("SU").events())
    for _ in range(2000):
        if any(e.get("type") == "if_impact" for e in g.log.for_side(None)) or g.pending is None:
            break
        d = g.pending
        g.answer("stop" if d.kind == "firefight.step" else
                 (d.options[0] if d.kind == "firefight.adjust" else _passer(d)))
    imp = [e for e in g.log.for_side(None) if e.get("type") == "if_impact"]
    assert imp and imp[0]["turn"] == m["impact_turn"]
    assert any(e.get("what") == "indirect_fire" for e in g.log.for_side(None)
               if e.get("turn") == m["impact_turn"])


def test_fire_command_on_a_save(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from hexwar.core.engine.record import save_game
    from hexwar.plugins.firefight.cli import firefight_group

    g = mini_game(tmp_path, [U("a", "US-M60A1", "US", "1005"), U("t", "SU-T62", "SU", "1010")])
    save = tmp_path / "game.json"
    save_game(g, save)
    r = CliRunner().invoke(firefight_group, ["fire", str(save), "--firer", "a", "--target", "t",
                                             "--dice", "6+6", "--json"])
    assert r.exit_code == 0, r.output
    import json

    out = json.loads(r.output)["attacks"][0]
    assert out["roll"] == 12 and out["range"] == 5 and out["weapon"] == "US-M60A1"


class _AliasRule:
    """A stand-in for the observation rule: 'x' is known to the Soviet side only as '?US-1'."""

    from hexwar.core.types import PluginManifest

    PLUGIN = PluginManifest(name="firefight.test_alias", system="firefight", kind="rule",
                            title="test alias", summary="test")

    from hexwar.core.markers import hookimpl

    @hookimpl
    def firefight_public_ref(self, game: Game, unit_id: str) -> str | None:
        return "?US-1" if unit_id == "x" else None


def test_public_alias_hides_ids_from_the_other_side(tmp_path: Path) -> None:
    g = mini_game(tmp_path, [U("x", "US-M60A1", "US", "1005"), U("t", "SU-T62", "SU", "1020"),
                             U("d", "SU-Dummy", "SU", "1015", dummy=True)],
                  rules=["firefight.test_alias"], local_plugins=[_AliasRule()])
    ST.ff(g)["mover"] = "x"
    FI.execute_attack(g, "SU", ["t"], "x", {}, "opportunity")
    su = [e for e in g.view("SU").events() if e.get("what") == "fire"]
    us = [e for e in g.view("US").events() if e.get("what") == "fire"]
    assert su and su[-1]["target"] == "?US-1" and us[-1]["target"] == "x"
    rolls = [e for e in g.log.for_side("SU") if e.get("type") == "roll"]
    assert all("x" not in str(e.get("purpose", "")).split("->")[-1].split()[0] for e in rolls
               if "->" in str(e.get("purpose", "")))
    assert g.view("SU").system_state["mover"] == "?US-1"
    assert g.view("US").system_state["mover"] == "x"
    ST.ff(g)["impacts"] = [{"unit": "a", "side": "US", "hex": "1015", "pattern": [8, 4, 2],
                           "turn": g.state.turn}]
    assert all(o["target"] != "d" for o in IF.attack_zones(g))  # a dummy is nothing (Firefight 12.0)


def test_ff_96_walk_the_fire_from_the_adjusted_hex(tmp_path: Path) -> None:
    """Firefight 8.32, 8.71, 8.51 (Clarifications): the new hex is within two hexes of the Impact
    hex, or the hex the fire was shifted to itself; a friendly unit must see the Impact hex."""
    g = _if_game(tmp_path, M81[:1])
    g.state.phase = "firefight.if_request"
    u = IF.if_units(g)["m0"]
    u.update(impacted_turn=g.state.turn, last_impact="1013", last_adjusted="1010")
    assert IF.request_problem(g, "US", "m0", "1010", continuous=True) is None  # the shifted hex
    assert IF.request_problem(g, "US", "m0", "1011", continuous=True) is None  # 2 from 1013
    assert IF.request_problem(g, "US", "m0", "1015", continuous=True) is None  # 2 from 1013
    # 2 from the shifted hex but 5 from the Impact hex: not measured from the shifted hex
    why = IF.request_problem(g, "US", "m0", "1008", continuous=True) or ""
    assert "Firefight 8.32" in why
    assert "Firefight 8.32" in (IF.request_problem(g, "US", "m0", "1006", continuous=True) or "")


def test_ff_96_continuous_fire_needs_sight_of_the_impact_hex(tmp_path: Path) -> None:
    """Firefight 8.71: seeing the shifted hex does not stand in for seeing the Impact hex."""
    g = _if_game(tmp_path, M81[:1], hexes=[{"at": "1012", "terrain": "forest"}])
    g.state.phase = "firefight.if_request"
    assert IF.sees(g, "US", g.board.parse("1010"))
    assert not IF.sees(g, "US", g.board.parse("1013"))
    u = IF.if_units(g)["m0"]
    u.update(impacted_turn=g.state.turn, last_impact="1013", last_adjusted="1010")
    for target in ("1010", "1011", "1014"):  # the shifted hex, and hexes near both
        why = IF.request_problem(g, "US", "m0", target, continuous=True) or ""
        assert "Firefight 8.71" in why and "Impact hex" in why, (target, why)
    u.update(last_impact="1010", last_adjusted="1013")  # now the Impact hex is the one seen
    assert IF.request_problem(g, "US", "m0", "1013", continuous=True) is None
    assert IF.request_problem(g, "US", "m0", "1012", continuous=True) is None


@pytest.mark.parametrize("n", range(1, 10))
def test_default_deployments_are_legal(n: int) -> None:
    from hexwar.plugins.firefight.setup import deployment_problem

    g = _scenario(n)
    specs = g.scenario.raw.get("setup", {}).get("deploy", [])
    if not specs:
        pytest.skip(f"Scenario {n} has no [setup] deploy: no deployment to check (its units "
                    "enter the map during play)")
    for spec in specs:
        assert deployment_problem(g, spec["side"], spec, {}) is None


def test_deployment_choice_is_checked_and_applied() -> None:
    g = _scenario(1)
    d = g.pending
    while d is not None and d.kind != "firefight.deploy":
        g.answer(d.options[0])  # type: ignore[index]
        d = g.pending
    assert d is not None and d.side == "SU" and d.rule == "Firefight 9.13"
    t62 = g.state.units_of("SU")[0]
    with pytest.raises(RulesError, match="outside the deployment area"):
        g.answer({t62.id: "2010"})  # north of Rte 298
    g.answer({t62.id: "2050"})
    assert g.board.label(t62.hex) == "2050"  # type: ignore[arg-type]
    d = g.pending
    assert d is not None and d.kind == "firefight.deploy" and d.side == "US"
    m60 = g.state.units_of("US")[0]
    with pytest.raises(RulesError, match=r"more than four|outside"):
        g.answer({m60.id: "2016", **{u.id: "2016" for u in g.state.units_of("US")[1:5]}})


def test_ff_24_map_b_heights_2951_3050() -> None:
    g = _scenario(3)
    assert g.board.height(g.board.parse("2951")) == 440
    assert g.board.height(g.board.parse("3050")) == 460
    assert g.board.parse("2951").distance(g.board.parse("3050")) == 1  # "adjacent hex 3050"


def test_ff_25_town_2410_ground_440() -> None:
    g = _scenario(1)
    h = g.board.parse("2410")
    assert g.board.terrain(h) == "town" and g.board.height(h) == 440


def test_explain_decision_lists_attack_ratings() -> None:
    from hexwar.plugins.firefight.plugin import hexwar_explain_decision

    g = _scenario(2)
    while g.pending is not None and g.pending.kind != "firefight.direct_fire":
        g.answer(g.pending.options[0])  # type: ignore[index]
    d = g.pending
    assert d is not None
    text = hexwar_explain_decision(g.view(d.side), d)
    assert text is not None and "AR " in text and "Firefight 6.0" in text


def test_scheduled_fire_is_secret_and_arrives_on_time(tmp_path: Path) -> None:
    ind = [{"id": "s1", "type": "155mm", "side": "US", "status": "direct"}]
    g = mini_game(tmp_path, [U("obs", "US-TM", "US", "1005"), U("su", "SU-TM", "SU", "1010")],
                  special={"indirect": ind})
    d = g.pending
    assert d is not None and d.kind == "firefight.target_list"
    with pytest.raises(RulesError):
        g.answer({"targets": [], "schedule": [{"unit": "s1", "hex": "1010", "turn": 99}]})
    g.answer({"targets": ["1010"], "schedule": [{"unit": "s1", "hex": "1010", "turn": 2},
                                                {"unit": "s1", "hex": "1012", "turn": 3}]})
    assert all(e.get("type") != "scheduled_fires" for e in g.view("SU").events())
    for _ in range(3000):
        if g.pending is None or g.state.turn > 3:
            break
        d = g.pending
        g.answer("stop" if d.kind == "firefight.step" else
                 (d.options[0] if d.kind == "firefight.adjust" else _passer(d)))
    imp = [(e["turn"], e["plotted"]) for e in g.log.for_side(None) if e.get("type") == "if_impact"]
    assert imp[:2] == [(2, "1010"), (3, "1012")]  # Firefight 8.43: always on time


def test_ff_68_demolished_bridge_and_impassable_hexsides(tmp_path: Path) -> None:
    """Addenda: a demolished bridge is an unbridged stream hexside (hex cost + 1); impassable
    streams and hexsides stop vehicles; an impassable hexside also blocks fire."""
    sides = [{"between": ["1005", "1105"], "features": ["road", "stream", "bridge"]},
             {"between": ["1005", "0905"], "features": ["stream"]}]
    units = [U("t62", "SU-T62", "SU", "1005"), U("x", "US-TM", "US", "1020"),
             U("y", "US-TM", "US", "1002")]
    addenda = {"demolished_bridges": "all", "impassable_hexsides": [["1005", "1006"]]}
    g = mini_game(tmp_path, units, [{"at": ["1005", "1105"], "features": ["road"]}], sides,
                  special={"addenda": addenda})
    b, u = g.board, g.state.units["t62"]
    assert MV.step_cost(g, b, u, b.parse("1005"), b.parse("1105")) == 2
    start_move(g, "t62")
    assert "impassable" in (MV.step_problem(g, u, b.parse("1006")) or "")
    assert not los(g, "1005", "1020") and los(g, "1005", "1002")
    (tmp_path / "s").mkdir()
    g2 = mini_game(tmp_path / "s", units, [], sides,
                   special={"addenda": {"impassable_streams": "all"}})
    u2 = start_move(g2, "t62")
    assert "impassable" in (MV.step_problem(g2, u2, g2.board.parse("0905")) or "")
    assert MV.step_problem(g2, u2, g2.board.parse("1105")) is None  # the bridge still stands
    tm = g2.state.units["x"]
    assert MV.step_cost(g2, g2.board, tm, g2.board.parse("1005"), g2.board.parse("0905")) == 1


def test_ai_defender_deploys_into_cover() -> None:
    from hexwar.plugins.firefight.ai import FirefightAI
    from hexwar.plugins.firefight.setup import deployment_problem

    g = _scenario(6)
    while g.pending is not None and not (g.pending.kind == "firefight.deploy"
                                         and g.pending.side == "SU"):
        g.answer(g.pending.options[0])  # type: ignore[index]
    d = g.pending
    assert d is not None
    choice = FirefightAI("SU", 1).choose(d, g.view("SU"))
    assert choice, "the defender moves some units into cover"
    assert deployment_problem(g, "SU", {"zones": d.context["zones"]}, choice) is None
    for uid, lbl in choice.items():
        h = g.board.parse(lbl)
        assert g.board.terrain(h) in ("forest", "town") or SI.defilade_sides(g.board, h)
        assert g.state.units[uid].hex.distance(h) <= 2  # type: ignore[union-attr]


class _SmokeKind:
    from hexwar.core.types import PluginManifest

    PLUGIN = PluginManifest(name="firefight.test_smoke_kind", system="firefight", kind="rule",
                            title="test smoke kind", summary="test")

    from hexwar.core.markers import hookimpl

    @hookimpl
    def firefight_mission_kinds(self, game: Game, side: str, if_unit: str) -> list[str]:
        return ["smoke"]


def test_extra_mission_kinds_are_offered(tmp_path: Path) -> None:
    ind = [{"id": "m0", "type": "81mm", "side": "US", "status": "organic"}]
    g = mini_game(tmp_path, [U("obs", "US-TM", "US", "1005"), U("su", "SU-TM", "SU", "1010")],
                  special={"indirect": ind}, rules=["firefight.test_smoke_kind"],
                  local_plugins=[_SmokeKind()])
    g.answer([])
    d = _answer_until(g, "firefight.if_request", _passer)
    opts = list(d.options or ())
    assert {"unit": "m0", "hex": "1010", "kind": "smoke"} in opts
    assert {"unit": "m0", "hex": "1006", "kind": "smoke"} in opts  # a screen beside 1005
    g.answer({"unit": "m0", "hex": "1006", "kind": "smoke"})
    assert IF.if_units(g)["m0"]["mission"]["kind"] == "smoke"


@pytest.mark.parametrize("n", range(1, 10))
def test_scenarios_validate(n: int) -> None:
    from hexwar.core.scenario import validate_scenario

    assert validate_scenario(Scenario.load(SCN / f"scenario{n}.toml")) == []


def test_validation_reports_bad_system_sections(tmp_path: Path) -> None:
    from hexwar.core.scenario import validate_scenario

    text = (SCN / "scenario1.toml").read_text().replace('kind = "pass_through"', 'kind = "x"')
    text = text.replace("[special]", '[special]\naddenda = { bogus = 1 }\n'
                                     'frozen_until = { "nobody" = 3 }')
    p = tmp_path / "s.toml"
    p.write_text(text)
    msgs = " ".join(x.message for x in validate_scenario(Scenario.load(p)))
    assert "victory kind" in msgs and "Addenda" in msgs and "nobody" in msgs


def test_ff_23_firefight_i_ignores_the_rise_at_1945() -> None:
    """Firefight 13.0: commentary: FF I lets A:1944 see A:1946 across the higher 1945 (contours do not
    affect LOS in Firefight 5.1); the FF II half of FF-23 belongs to the height rule (Firefight 13)."""
    g = _scenario(1)
    b = g.board
    assert b.height(b.parse("1945")) == b.height(b.parse("1944")) + 20
    assert los(g, "1944", "1946")
