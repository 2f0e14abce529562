"""Data, provenance, panels, scenario, victory, LOS as a core LosRules, and whole games."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from click.testing import CliRunner

from hexwar.core.cli import cli
from hexwar.core.engine.controllers import RandomController
from hexwar.core.engine.game import Game
from hexwar.core.hexgrid import Hex
from hexwar.core.labels import parse_letter_number
from hexwar.core.los import line_of_sight
from hexwar.core.manager import Hooks, build_plugin_manager
from hexwar.core.provenance import SourceKind, classify_source, load_records
from hexwar.core.scenario import Scenario, validate_scenario
from hexwar.core.tables import TableSet, check_disclosed
from hexwar.core.testing import make_game
from hexwar.plugins.firepower import state, victory
from hexwar.plugins.firepower.ai import make_ai
from hexwar.plugins.firepower.los import FirepowerLos, basic_los
from hexwar.plugins.firepower.plugin import HERE
from hexwar.plugins.firepower.tables import (
    DATA,
    TABLES,
    card,
    disclosed,
    disclosed_weapons,
)
from hexwar.plugins.firepower.terrain import FpMap

BASIC = HERE / "scenarios" / "basic.toml"
TRANSCRIPTION = "transcription: Basic Game Card OCR (unverified)"  # docs/decisions.md FPD-1


def test_every_disclosed_number_matches_the_shipped_data() -> None:
    tables = TableSet.load_dir(TABLES)
    assert check_disclosed(tables, disclosed()) == []
    assert len(disclosed()) >= 20
    weapons = load_records(DATA / "weapons.toml")
    for key, value, rule in disclosed_weapons():
        got = weapons.get(key)
        assert got.value == value and got.source == rule, key


def test_disclosed_numbers_are_registered_through_the_hook() -> None:
    hooks = Hooks(build_plugin_manager("firepower"))
    from hexwar.plugins.firepower.advanced_card import disclosed as advanced_disclosed

    assert {d.describe() for d in hooks.disclosed()} == {
        d.describe() for d in [*disclosed(), *advanced_disclosed()]}


def test_every_value_has_a_rule_a_transcription_or_estimated() -> None:
    kinds: dict[SourceKind, int] = {}
    for table in TableSet.load_dir(TABLES).values():
        for _row, _col, sourced in table.cells():
            kind = classify_source(sourced.source)
            kinds[kind] = kinds.get(kind, 0) + 1
            if kind is SourceKind.CITED:
                assert sourced.source.startswith("Firepower ")
            elif kind is SourceKind.TRANSCRIPTION:
                assert sourced.source == TRANSCRIPTION
            else:
                assert kind is SourceKind.ESTIMATED, sourced.source
    assert kinds[SourceKind.CITED] >= 20 and kinds[SourceKind.TRANSCRIPTION] >= 20
    assert kinds[SourceKind.ESTIMATED] >= 10      # the spread diagram, Stand -> Crouch


def test_grenade_conflict_with_the_transcription_is_documented() -> None:
    text = (TABLES / "basic_fire.csv").read_text()
    assert "Firepower 6.3.2.1.1" in text and "text wins" in text
    assert card().hit_source("HGN", "throw", 7).source == "Firepower 6.3.2.1.1"


def test_data_check_command_passes() -> None:
    result = CliRunner().invoke(cli, ["data", "check", "firepower", "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["problems"] == []


# -- panels ----------------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def basic_game() -> Game:
    return make_game(BASIC, seed=3)


def test_fp_1_hex_ids(basic_game: Game) -> None:
    assert parse_letter_number("1FF1") == ("1", 31, 1)
    for label in ("1FF1", "1C10", "1A8"):   # named by Firepower 1.1, Firepower 16.5.1, Firepower 20.1.2
        assert basic_game.board.label(basic_game.board.parse(label)) == label


def test_panel_1_lies_below_panel_2_and_joins_on_half_hexes(basic_game: Game) -> None:
    b = basic_game.board
    join = b.parse("1C0")
    assert b.parse("2C16") == join and set(b.labels(join)) == {"1C0", "2C16"}
    assert b.parse("1C5").r > b.parse("2C5").r           # panel 1 is lower (Firepower 2.1)


def test_panels_are_stand_ins_with_every_basic_terrain(basic_game: Game) -> None:
    m = state.fp_map(basic_game)
    covers = set(m.cover.values())
    assert {"clear", "tree", "rough", "scrub"} <= covers
    assert any(m.level[h] > 0 for h in m.hexes) and any(m.level[h] < 0 for h in m.hexes)
    assert m.fence and m.hedge
    text = (HERE / "data" / "panels" / "panel1.toml").read_text()
    assert "stand_in = true" in text and '"contour"' in text and '"depression"' in text
    assert all(s == '"estimated"' for s in re.findall(r'source = ("[^"]*")', text))


def test_the_board_is_balanced_between_the_two_sides(basic_game: Game) -> None:
    m = state.fp_map(basic_game)
    c = basic_game.board.parse("1Q0")  # the centre of the board, on the fold
    compared = featured = 0
    for h in m.hexes:
        mirror = Hex(2 * c.q - h.q, 2 * c.r - h.r)
        if mirror in m.hexes:
            assert m.cover[h] == m.cover[mirror] and m.level[h] == m.level[mirror]
            compared += 1
            featured += m.cover[h] != "clear" or m.level[h] != 0
    assert compared > 1000 and featured > 50


def test_core_los_rules_agree_with_basic_los(basic_game: Game) -> None:
    m = state.fp_map(basic_game)
    rules = basic_game.los_rules
    assert isinstance(rules, FirepowerLos)
    hexes = sorted(m.hexes)
    pairs = [(hexes[i], hexes[(i * 37 + 11) % len(hexes)]) for i in range(0, len(hexes), 13)]
    for a, b in pairs:
        for fp, tp in (("stand", "stand"), ("prone", "stand"), ("stand", "prone")):
            mine = basic_los(m, a, b, firer_posture=fp, target_posture=tp)
            core = line_of_sight(basic_game.board, a, b, rules,
                                 {"firer_posture": fp, "target_posture": tp})
            assert mine.blocked == core.blocked, (m.label(a), m.label(b), fp, tp)
            if not mine.blocked:
                assert mine.trees + mine.hedges == core.modifier


# -- scenario, victory -----------------------------------------------------------------------------

def test_basic_scenario_is_valid_and_as_the_rules_say() -> None:
    s = Scenario.load(BASIC)
    assert validate_scenario(s) == []
    assert s.turns == 4
    for side in ("A", "B"):
        weapons = sorted(u.type for u in s.units if u.side == side)
        assert weapons == ["firepower:LMG", "firepower:PST"] + ["firepower:RFL"] * 4
        assert s.sides[side]["sequence_units"] == 3 and s.sides[side]["impulses"] == 2


def test_setup_roll_offs_and_zones() -> None:
    g = make_game(BASIC, seed=5)
    d = g.pending
    assert d is not None and d.kind == "board_side" and d.options == ["5/6", "2/3"]
    g.answer("2/3")
    sides = state.data(g)["board_side"]
    assert sorted(sides.values()) == ["2/3", "5/6"] and sides[d.side] == "2/3"
    p = g.pending
    assert p is not None and p.kind == "place"
    offs = [e for e in g.log.events if e.get("type") == "roll_off"]
    assert "Firepower 2.2" in offs[0]["purpose"] and offs[0]["winner"] == d.side   # high roll picks
    low = offs[1]
    assert "Firepower 2.4" in low["purpose"] and low["rolls"][low["winner"]] == min(low["rolls"].values())
    assert p.side == low["winner"]        # the low roller sets up first (Firepower 2.4)
    zone = {o["hex"] for o in p.options or []}
    cols = {parse_letter_number(h)[1] for h in zone}
    assert cols == ({0, 1, 2, 3, 4} if sides[p.side] == "5/6" else {28, 29, 30, 31, 32})
    from hexwar.core.errors import RulesError

    with pytest.raises(RulesError):
        g.answer({"hex": "1Q5", "facing": 2, "posture": "stand"})   # outside the zone


def _endgame() -> Game:
    g = make_game(BASIC, seed=1)
    g.answer("5/6")
    state.data(g)["board_side"] = {"A": "5/6", "B": "2/3"}
    return g


def test_fp_23_victory_point_values() -> None:
    g = _endgame()
    units = g.state.units
    state.eliminate(g, "B1", "A", "test")
    assert victory.victory_points(g) == {"A": 1, "B": 0}
    units["A2"].hex = g.board.parse("1Z5")
    assert victory.victory_points(g) == {"A": 1 + 3, "B": 0}
    units["B2"].hex = g.board.parse("1C5")        # B set up on 2/3: C is beyond the fold
    assert victory.victory_points(g) == {"A": 4, "B": 3}


def test_fp_108_victory_example() -> None:
    g = make_game(BASIC, seed=1)
    g.answer("5/6")
    first = g.pending
    assert first is not None
    state.data(g)["board_side"] = {"A": "5/6", "B": "2/3"}
    units = g.state.units
    # A eliminated 4 B soldiers and has 2 survivors beyond the fold; B eliminated 4 A soldiers
    for uid in ("B1", "B2", "B3", "B4"):
        state.eliminate(g, uid, "A", "test")
    for uid in ("A1", "A2", "A3", "A4"):
        state.eliminate(g, uid, "B", "test")
    units["A5"].hex = g.board.parse("1Z5")     # beyond the fold (column Q) for side 5/6
    units["A6"].hex = g.board.parse("1R5")
    units["B5"].hex = g.board.parse("1Q5")     # on the fold: not beyond (docs/decisions.md FPD-6)
    units["B6"].hex = g.board.parse("1CC5")
    assert victory.victory_points(g) == {"A": 4 + 2 * 3, "B": 4}
    result = victory.final_result(g)
    assert result.winner == "A" and result.scores == {"A": 10.0, "B": 4.0}


def test_sequence_units_are_drawn_blind_and_hidden() -> None:
    g = make_game(BASIC, seed=2)
    g.answer("5/6")
    while g.pending is not None and g.pending.kind == "place":
        g.answer(g.pending.options[0])  # type: ignore[index]
    view = g.view("A")
    state = view.system_state
    assert "cup" not in state and state["sequence_units_left"] == 5 and state["drawn"] == 1


def test_ai_vs_ai_plays_the_basic_scenario_to_the_end() -> None:
    g = make_game(BASIC, seed=11)
    result = g.play({"A": make_ai("A", 11), "B": make_ai("B", 12)})
    assert g.state.turn == 4 and g.state.phase == "over"
    vp = victory.victory_points(g)
    assert result.scores == {k: float(v) for k, v in vp.items()}
    assert result.winner == (None if vp["A"] == vp["B"] else max(vp, key=lambda s: vp[s]))
    # the same seed and players give the same game
    g2 = make_game(BASIC, seed=11)
    assert g2.play({"A": make_ai("A", 11), "B": make_ai("B", 12)}) == result


def test_ai_beats_random_from_either_side() -> None:
    wins = 0
    for seed in range(4):
        g = make_game(BASIC, seed=seed)
        ai = "A" if seed % 2 == 0 else "B"
        ctl: dict[str, Any] = {ai: make_ai(ai, seed)}
        other = "B" if ai == "A" else "A"
        ctl[other] = RandomController(other, seed)
        r = g.play(ctl)
        wins += r.winner == ai
    assert wins >= 3


def test_plain_map_helper() -> None:
    m = FpMap.plain({Hex(0, 0), Hex(0, 1)})
    assert m.label(Hex(0, 0)) == "(0,0)" and not m.contour_between(Hex(0, 0), Hex(0, 1))
