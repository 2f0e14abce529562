"""MBT data: Game Card charts, data cards, panels and scenarios; disclosed numbers; user overrides."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

import hexwar.plugins.mbt as mbt_pkg
from hexwar.core.cli import cli
from hexwar.core.errors import DataError
from hexwar.core.hexgrid import Hex
from hexwar.core.manager import Hooks, build_plugin_manager
from hexwar.core.provenance import is_estimated
from hexwar.core.scenario import Scenario, validate_scenario
from hexwar.core.tables import TableSet, check_disclosed
from hexwar.plugins.mbt.cards import (
    CARD_DISCLOSED,
    SHIPPED,
    card_fact,
    check_card_disclosures,
    load_card,
    load_cards,
)
from hexwar.plugins.mbt.tables import TABLES, disclosed, load_charts

PKG = Path(mbt_pkg.__file__).parent


def _add_commands() -> None:
    from hexwar.plugins.mbt.plugin import hexwar_register_commands

    hexwar_register_commands(cli)


@pytest.mark.parametrize("d", disclosed(), ids=lambda d: d.cell())
def test_every_disclosed_chart_number_is_shipped_and_cited(d: object) -> None:
    tables = TableSet.load_dir(TABLES)
    assert check_disclosed(tables, [d]) == []  # type: ignore[list-item]


def test_hit_chart_and_number_of_hits_disclosures() -> None:
    c = load_charts()
    assert c.hit_number(14, -3).value == 56 and c.hit_number(14, -3).source == "MBT 7.4.3"
    assert c.hit_number(18, -6).value == 59
    assert c.hit_thresholds(65, 4) == {4: 10, 3: 20, 2: 29}
    assert c.sighting_range("Open", "scrub") == 7 and c.sighting_range("Buttoned", "scrub") == 10
    assert c.sighting_range("Open", "woods") == 5
    assert c.sighting_range("Open", "improved_position") == 3


@pytest.mark.parametrize("name,fact,value,rule", CARD_DISCLOSED, ids=lambda x: str(x))
def test_every_disclosed_card_number_is_shipped_and_cited(name: str, fact: tuple[object, ...],
                                                          value: object, rule: str) -> None:
    card = load_cards()[name]
    got, key = card_fact(card, fact)
    if isinstance(value, tuple):
        got = tuple(got)
    assert got == value, rule
    if key:
        assert not is_estimated(card.source(key)), f"{key} should cite {rule}"


def test_data_check_command_passes() -> None:
    result = CliRunner().invoke(cli, ["data", "check", "mbt", "--json"])
    assert result.exit_code == 0, result.output
    assert '"problems": []' in result.output


def test_a_table_pack_replaces_a_chart_and_is_checked(tmp_path: Path) -> None:
    pack = tmp_path / "pack"
    pack.mkdir()
    text = (TABLES / "ap_hit.csv").read_text(encoding="utf-8")
    text = text.replace("14,-3,56,MBT 7.4.3", "14,-3,57,transcription: a bad copy")
    (pack / "ap_hit.csv").write_text(text, encoding="utf-8")
    tables = TableSet.load_dir(TABLES).with_pack(pack)
    problems = check_disclosed(tables, disclosed())
    assert len(problems) == 1 and "56" in str(problems[0])
    assert load_charts((str(pack),)).hit_number(14, -3).value == 57
    result = CliRunner().invoke(cli, ["data", "check", "mbt", "--pack", str(pack)])
    assert result.exit_code == 1 and isinstance(result.exception, SystemExit)  # not a crash
    assert "MBT 7.4.3 discloses 56" in result.output


def test_a_user_card_replaces_the_shipped_one(tmp_path: Path) -> None:
    mine = tmp_path / "cards"
    mine.mkdir()
    text = (SHIPPED / "ussr-1a_t-80a.toml").read_text(encoding="utf-8")
    text = text.replace('ca_defense = { value = 6, source = "estimated" }',
                        'ca_defense = { value = 5, source = "transcription: my USSR-1A card" }')
    (mine / "t80.toml").write_text(text, encoding="utf-8")
    assert load_cards([mine])["T-80A"].ca_defense == 5
    assert load_cards()["T-80A"].ca_defense == 6
    assert check_card_disclosures(load_cards([mine])) == []
    bad = text.replace('{ value = 85, source = "MBT 7.4.6.3" }', '{ value = 86, source = "MBT 7.4.6.3" }')
    (mine / "t80.toml").write_text(bad, encoding="utf-8")
    problems = check_card_disclosures(load_cards([mine]))
    assert len(problems) == 1 and "85" in problems[0]
    _add_commands()
    result = CliRunner().invoke(cli, ["mbt", "cards", "--check", "--cards", str(mine)])
    assert result.exit_code == 1 and isinstance(result.exception, SystemExit)  # not a crash
    assert "85" in result.output and "✗" in result.output
    good = CliRunner().invoke(cli, ["mbt", "cards", "--check"])
    assert good.exit_code == 0 and "every disclosed card number agrees" in good.output
    listing = CliRunner().invoke(cli, ["mbt", "cards", "--json"])
    assert listing.exit_code == 0 and "T-80A" in {r["name"] for r in json.loads(listing.output)}


def test_a_scenario_may_name_its_own_cards(make_game: object, tmp_path: Path) -> None:
    mine = tmp_path / "mycards"
    mine.mkdir()
    text = (SHIPPED / "ussr-1a_t-80a.toml").read_text(encoding="utf-8")
    (mine / "t80.toml").write_text(text.replace("normal = { value = 6", "normal = { value = 5"),
                                   encoding="utf-8")
    from hexwar.plugins.mbt.state import card_of

    g = make_game([("A", "T-80A", "Soviet", "9J2", 4)], special=f'cards = "{mine}"')  # type: ignore[operator]
    assert card_of(g, g.state.units["A"]).mf == 5


def test_card_errors_name_the_file_and_key(tmp_path: Path) -> None:
    text = (SHIPPED / "ussr-1a_t-80a.toml").read_text(encoding="utf-8")
    bad = text.replace('knk_out = { value = "14-74", source = "MBT 7.4.7" }',
                       'knk_out = { value = "14-70", source = "MBT 7.4.7" }')
    p = tmp_path / "bad.toml"
    p.write_text(bad, encoding="utf-8")
    with pytest.raises(DataError, match=r"damage bands must cover 01-100") as exc:
        load_card(p)
    assert "bad.toml" in str(exc.value) and "weapons[0].ammo[0].damage" in str(exc.value)
    bad2 = text.replace('max_range = { value = 32, source = "MBT 4.7.2" }',
                        'max_range = { value = 30, source = "MBT 4.7.2" }')
    p.write_text(bad2, encoding="utf-8")
    with pytest.raises(DataError, match="last band holding a number"):
        load_card(p)


def test_cards_record_provenance_per_field() -> None:
    cards = load_cards()
    assert set(cards) >= {"M1A1", "M1A2", "Leopard 2", "Leopard 1A4", "T-64B", "T-72M1", "T-80A"}
    t80 = cards["T-80A"]
    assert t80.source("target.size") == "MBT 7.4.2.3.2"
    assert is_estimated(t80.source("target.ca_defense"))


def test_mbt_101_72_69_144_card_values() -> None:
    t80 = load_cards()["T-80A"]
    assert t80.stacking == 2 and t80.gp_defense == 8
    assert card_fact(t80, ("gp", "125mm", "nm", 18))[0] == 17
    assert card_fact(t80, ("gp", "125mm", "mv", 18))[0] == 9
    assert card_fact(load_cards()["Leopard 2"], ("dep_el", "120mm"))[0] == (8, 10)  # MBT 17.3.1 example


# -- map ------------------------------------------------------------------------------------


def _board() -> object:
    sc = Scenario.load(PKG / "scenarios" / "basic-a.toml")
    return sc.build_board(Hooks(build_plugin_manager("mbt", ())))


def test_named_hexes_exist_and_1g7_is_a_pond() -> None:
    board = _board()
    for label in ("2EE3", "1G7", "1G9", "1M5", "1M3", "1A10", "2AA9", "2HH9"):
        board.parse(label)  # type: ignore[attr-defined]
    assert board.terrain(board.parse("1G7")) == "pond"  # type: ignore[attr-defined]


def test_mbt_4_and_9_labels_and_directions() -> None:
    board = _board()
    h = board.parse("2EE3")  # type: ignore[attr-defined]
    assert board.label(h) == "2EE3"  # type: ignore[attr-defined]
    m5 = board.parse("1M5")  # type: ignore[attr-defined]
    assert board.label(m5.neighbor(1).neighbor(1)) == "1M3"  # type: ignore[attr-defined]
    assert m5.distance(m5) == 0 and m5.distance(m5.neighbor(3)) == 1  # MBT 4.7.1


def test_panels_stack_3_2_1_from_side_4_to_side_1() -> None:
    board = _board()
    p1 = board.parse("1P5")  # type: ignore[attr-defined]
    p2 = board.parse("2P5")  # type: ignore[attr-defined]
    p3 = board.parse("3P5")  # type: ignore[attr-defined]
    assert p2 == Hex(p1.q, p1.r + 10) and p3 == Hex(p1.q, p1.r + 20)  # direction 4 is down
    assert board.parse("2Q1") in board.neighbors(board.parse("1Q10"))  # type: ignore[attr-defined]


def test_stone_buildings_are_the_objectives_and_panels_are_stand_ins() -> None:
    from hexwar.plugins.mbt.terrain import map_info

    board = _board()
    info = map_info(board)  # type: ignore[arg-type]
    assert len(info.objectives) == 4
    assert all(board.terrain(h) == "stone" for h in info.objectives)  # type: ignore[attr-defined]
    for n in (1, 2, 3):
        text = (PKG / "data" / "panels" / f"panel{n}.toml").read_text(encoding="utf-8")
        assert "stand_in = true" in text and "NOT the printed panel" in text


@pytest.mark.parametrize("key", ["a", "b", "c", "d"])
def test_basic_scenarios_validate(key: str) -> None:
    sc = Scenario.load(PKG / "scenarios" / f"basic-{key}.toml")
    assert sc.turns == 10 and sc.system == "mbt"
    assert validate_scenario(sc) == []
    counts = {"a": (3, 4), "b": (3, 4), "c": (4, 4), "d": (8, 11)}[key]
    assert (sum(u.side == "NATO" for u in sc.units), sum(u.side == "Soviet" for u in sc.units)) == counts


def test_the_card_format_is_documented() -> None:
    text = (PKG / "data" / "cards" / "README.md").read_text(encoding="utf-8")
    for section in ("[card]", "[target]", "[[weapons]]", "[[weapons.ammo]]", "[hit_location]",
                    "[armor", "[speeds]", "turn_costs", "[movement_costs]", "[height_costs]"):
        assert section in text, section


def test_hexwar_los_uses_the_basic_game_rules() -> None:
    r = CliRunner().invoke(cli, ["los", "mbt:basic-a", "1C1", "1C5"])
    assert r.exit_code == 0, r.output
    assert "blocked" in r.output and "MBT 6.1.4.5" in r.output
    r = CliRunner().invoke(cli, ["los", "mbt:basic-a", "1A1", "1A10"])
    assert "clear" in r.output
