"""The Firefight/MBT adapter (plugins/adapters/firefight_mbt; docs/cross-system.md,
docs/decisions.md CORE-71..CORE-75): its conversion tables against their provenance and the two
systems' data, the refusals, and the cross-system scenario played AI against AI."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from hexwar.core.engine.game import Game
from hexwar.core.errors import DataError, RulesError
from hexwar.core.ground import Ground
from hexwar.core.hexgrid import Hex
from hexwar.core.scenario import Scenario, validate_scenario
from hexwar.core.testing import make_game
from hexwar.plugins.adapters.firefight_mbt import model as M
from hexwar.plugins.adapters.firefight_mbt import plugin as P
from hexwar.plugins.firefight import fire as FI
from hexwar.plugins.firefight import state as ST
from hexwar.plugins.firefight.tables import ff_data
from hexwar.plugins.mbt.cards import load_cards

SCENARIO = Path(P.__file__).parent / "scenarios" / "tanks_at_versbach.toml"


def test_the_adapter_is_an_installed_adapter_for_the_pair() -> None:
    from hexwar.core.manager import installed_plugins

    m = installed_plugins()["firefight_mbt"].manifest
    assert (m.kind, set(m.bridges)) == ("adapter", {"firefight", "mbt"})


def test_every_conversion_is_a_modelling_choice_marked_estimated() -> None:
    for name, table in M.tables().items():
        sources = {str(s.source) for _row, _col, s in table.cells()}
        assert sources == {"estimated"}, (name, sources)


def test_every_mbt_card_has_a_firefight_profile_of_its_own_side() -> None:
    sides = {"Soviet": "SU", "NATO": "US"}
    for card in load_cards().values():
        profile, side = M.firefight_profile(card.type_name)
        ud = ff_data().units[profile]
        assert side == sides[card.side] == ud.side, card.type_name
        # a vehicle fights as a Firefight vehicle, a leg squad (or a towed gun's crew) as a
        # team (Firefight 3.3)
        assert (ud.cls == "personnel") == (card.kind in ("leg", "towed")), card.type_name


def test_every_firefight_result_has_an_mbt_meaning() -> None:
    crts = ff_data()
    results = set()
    for name in ("crt_anti_armor", "crt_anti_personnel"):
        results |= {str(r.values[0]) for r in crts.tables[name].rows} - {"-"}
    results.add("Kms")  # Firefight 8.65
    mapped = {M.mbt_effect(r) for r in results}
    assert mapped <= {"KO", "gun", "track", "none"}
    assert M.mbt_effect("K") == "KO" and M.mbt_effect("Km") == "track"


def test_a_missing_mapping_names_the_adapter_and_the_table() -> None:
    with pytest.raises(M.AdapterError, match="adapter 'firefight_mbt' has no mapping for mbt_type "
                                             "'BMP-2' in table 'mbt_in_firefight'"):
        M.firefight_profile("mbt:BMP-2")


def test_the_tables_are_replaceable_by_a_pack(tmp_path: Path) -> None:
    (tmp_path / "mbt_in_firefight.csv").write_text(
        "mbt_type:label,firefight_as:str,side:str,source,note\n"
        "T-72M1,SU-XMBT,SU,estimated,my opinion\n", encoding="utf-8")
    assert M.firefight_profile("T-72M1", str(tmp_path)) == ("SU-XMBT", "SU")
    bad = tmp_path / "bad"
    bad.mkdir()
    (bad / "mbt_in_firefight.csv").write_text("mbt_type:label,firefight_as:int,source\n"
                                              "T-72M1,3,estimated\n", encoding="utf-8")
    with pytest.raises(DataError, match="shipped schema"):
        M.tables(str(bad))


def _text(**edits: str) -> str:
    text = SCENARIO.read_text(encoding="utf-8")
    for old, new in edits.items():
        assert old in text
        text = text.replace(old, new, 1)
    return text


def test_the_shipped_scenario_validates_and_lays_both_boards() -> None:
    scenario = Scenario.load(SCENARIO)
    assert scenario.guest_systems() == ("mbt",)
    assert validate_scenario(scenario) == []
    ground = Ground.from_mapping(scenario.raw["ground"])
    # one MBT hex covers the Firefight hex under its centre (MBT 4.3 100 m; Firefight 2.0 50 m)
    assert ground.transfer(ground.transfer(Hex(4, 2), "mbt", "firefight"), "firefight",
                           "mbt") == Hex(4, 2)


def test_refusals_at_load_time() -> None:
    # no adapter enabled: the core's refusal
    no_adapter = Scenario.from_text(_text(**{'rules = ["firefight_mbt"]': "rules = []"}))
    assert any("no enabled adapter plugin bridges" in p.message
               for p in validate_scenario(no_adapter))
    # an MBT tank on the side whose Firefight numbers it cannot use
    wrong_side = Scenario.from_text(_text(**{'type = "mbt:T-72M1"\nside = "SU"':
                                             'type = "mbt:T-72M1"\nside = "US"'}))
    msgs = [p.message for p in validate_scenario(wrong_side)]
    assert any("fights as a Firefight SU unit" in m and "'US'" in m for m in msgs), msgs
    # an MBT unit the adapter has no mapping for
    unknown = Scenario.from_text(_text(**{'type = "mbt:T-72M1"': 'type = "mbt:T-80A"'}))
    assert validate_scenario(unknown) == []  # T-80A is mapped (to the XMBT)
    # an MBT host (CORE-86): Versbach's carriers have no MBT card, and saying so names the table
    assert any("no mapping for firefight_type 'US-M113' in table 'firefight_in_mbt'" in p.message
               for p in P.hexwar_validate_scenario(Scenario.from_text(
                   _text(**{'system = "firefight"': 'system = "mbt"'}))))
    # another host altogether is not modelled
    assert any("Firefight-host game only" in p.message
               for p in P.hexwar_validate_scenario(Scenario.from_text(
                   _text(**{'system = "firefight"': 'system = "firepower"'}))))
    # a ground that lays no MBT board
    no_mbt = Scenario.from_text(_text(**{"[ground.boards.mbt]": "[ground.boards.firepower]"}))
    msgs = [p.message for p in validate_scenario(no_mbt)]
    assert any("lays no board for mbt" in m for m in msgs), msgs


def _game(seed: int) -> Game:
    game: Game = make_game(SCENARIO, seed=seed)
    return game


def test_an_mbt_tank_fights_with_its_firefight_profile() -> None:
    g = _game(1)
    t72 = g.state.units["t72-su1"]
    assert t72.type == "mbt:T-72M1" and t72.state["firefight_as"] == "SU-T62"
    assert ST.utype(t72).name == "SU-T62"
    target = next(u for u in g.state.units_of("US") if u.type == "firefight:US-M113")
    assert [w.line for w in FI.weapons(g, t72, target)] == ["SU-T62"]
    # as a target it is a Firefight tank (Firefight 6.0 Step 2)
    assert ST.target_class(g, t72) == "tank"
    # the enemy does not learn the profile from the log
    assert not [e for e in g.view("US").events() if e.get("type") == "adapter"]
    assert len([e for e in g.view("SU").events() if e.get("type") == "adapter"]) == 13


def test_a_firefight_result_on_an_mbt_tank_is_reported_in_mbt_terms() -> None:
    g = _game(1)
    FI.apply_result(g, "t72-su2", "Km", "direct")  # Firefight 6.5: mobility kill
    assert g.state.units["t72-su2"].state["Km"] is True
    assert g.state.units["t72-su2"].state["mbt_damage"] == ["track"]
    FI.apply_result(g, "t72-su2", "Kf", "direct")  # Firefight 6.58: a second one destroys
    assert g.state.units["t72-su2"].hex is None
    reports = [e for e in g.log.events if e.get("adapter") == "firefight_mbt"
               and e.get("type") == "result"]
    assert [(e["firefight_result"], e["result"]) for e in reports] == [("Km", "track"),
                                                                        ("Kf", "gun")]
    assert all(e["decided_by"] == "firefight" and "Firefight 6.5" in e["rules"] for e in reports)


def test_a_guest_unit_without_a_profile_is_a_clear_error() -> None:
    g = _game(1)
    t72 = g.state.units["t72-su1"]
    del t72.state["firefight_as"]
    with pytest.raises(RulesError, match="t72-su1 \\(mbt:T-72M1\\) has no Firefight profile"):
        ST.utype(t72)


def _systems_named(event: dict[str, Any]) -> set[str]:
    return {r.split(" ", 1)[0] for r in event.get("rules", [])}


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_cross_system_scenario_plays_ai_against_ai_to_the_end(seed: int) -> None:
    from hexwar.plugins.firefight.ai import FirefightAI

    g = _game(seed)
    result = g.play({s: FirefightAI(s, seed) for s in ("US", "SU")})
    assert result.winner in ("US", "SU")
    assert g.state.turn <= 15
    events = g.log.events
    assert [e["type"] for e in events].count("game_over") == 1
    # every rules result names the system whose rule decided it
    results = [e for e in events if e.get("type") == "result"]
    assert results and all(_systems_named(e) & {"Firefight", "adapter"} for e in results)
    # the MBT tanks took part: Firefight fire hit some of them and the adapter reported it
    adapted = [e for e in results if e.get("adapter") == "firefight_mbt"]
    assert adapted and all(e["decided_by"] == "firefight" for e in adapted)
    for e in adapted:
        assert e["result"] == M.mbt_effect(e["firefight_result"])


def test_firefight_indirect_fire_treats_an_mbt_tank_as_a_firefight_vehicle() -> None:
    from hexwar.plugins.firefight import indirect as IF

    g = _game(1)
    t72 = g.state.units["t72-su3"]
    # Firefight 8.62: a vehicle ignores IF rolls of 6 or less, whatever the IF CRT says
    for roll in range(2, 7):
        assert IF.if_result(g, t72, 9, "US", roll)[0] == "-"
    hits = [r for r in range(7, 13) if IF.if_result(g, t72, 9, "US", r)[0] != "-"]
    assert hits, "the IF CRT at AR 9 has results on rolls 7-12"
    out = IF.attack_unit(g, t72, 9, "US", "test barrage", roll=hits[-1])
    assert out["result"] != "-"
    reports = [e for e in g.log.events if e.get("adapter") == "firefight_mbt"
               and e.get("type") == "result"]
    assert reports and reports[-1]["source_of_fire"] == "indirect"
    assert reports[-1]["result"] == M.mbt_effect(out["result"])


def test_the_cli_plays_the_scenario_and_replays_it_verified(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from hexwar.core.cli import cli

    log = tmp_path / "game.jsonl"
    runner = CliRunner()
    # MBT registers a controller named "ai" too; the host's (Firefight's) is the one used
    played = runner.invoke(cli, ["play", "firefight_mbt:tanks-at-versbach", "--seed", "2",
                                 "--log", str(log)])
    assert played.exit_code == 0, played.output
    assert "game over" in played.output
    assert '"decided_by": "firefight"' in log.read_text(encoding="utf-8")
    verified = runner.invoke(cli, ["replay", str(log), "--verify"])
    assert verified.exit_code == 0, verified.output


def test_the_host_offers_its_own_ai_when_a_guest_registers_one_of_the_same_name() -> None:
    g = _game(1)
    offered = g.hooks.controllers("firefight")
    assert offered["ai"].system == "firefight"
    with pytest.raises(Exception, match="two plugins register a controller named 'ai'"):
        g.hooks.controllers()


def test_a_scenario_replaces_the_adapter_tables_with_its_own_pack(tmp_path: Path) -> None:
    pack = tmp_path / "my-model"
    pack.mkdir()
    (pack / "mbt_in_firefight.csv").write_text(
        "mbt_type:label,firefight_as:str,side:str,source,note\n"
        "T-72M1,SU-XMBT,SU,estimated,a house model: the T-72M1 as the future tank\n",
        encoding="utf-8")
    path = tmp_path / "s.toml"
    path.write_text(_text(**{"[sides.US]": '[adapters.firefight_mbt]\ntables = "my-model"\n\n'
                                          "[sides.US]"}), encoding="utf-8")
    scenario = Scenario.load(path)
    assert P.pack_of(scenario) == str(pack)
    assert validate_scenario(scenario) == []
    g: Game = make_game(scenario)
    assert g.state.units["t72-su1"].state["firefight_as"] == "SU-XMBT"
    # a pack outside the scenario's folder, or a bad key, is refused with the key named
    for bad, key in (('tables = "../elsewhere"', "adapters.firefight_mbt.tables"),
                     ('table = "my-model"', "adapters.firefight_mbt")):
        path.write_text(_text(**{"[sides.US]": f"[adapters.firefight_mbt]\n{bad}\n\n[sides.US]"}),
                        encoding="utf-8")
        problems = validate_scenario(Scenario.load(path))
        assert [p.key for p in problems] == [key], problems


def test_the_setup_record_places_each_tank_on_the_mbt_board_of_the_shared_ground() -> None:
    g = _game(1)
    ground = Ground.from_mapping(g.scenario.raw["ground"])
    for e in (e for e in g.log.events if e.get("type") == "adapter"):
        u = g.state.units[e["unit"]]
        assert u.hex is not None
        assert Hex(*e["mbt_hex"]) == ground.transfer(u.hex, "firefight", "mbt")
        # Firefight metres above sea level as MBT heights of 25 ft over the 400 m datum
        metres = g.board.height_of[u.hex]
        assert e["mbt_height"] == pytest.approx((metres - 400.0) / 7.62, abs=0.005)


def test_a_firefight_m60a1_firing_at_an_mbt_t72m1_uses_firefights_procedure() -> None:
    # issue 13's example in the Firefight host: Firefight 6.0 resolves the shot against the
    # T-72M1's Firefight profile (a T62); the log says Firefight decided and the adapter translated
    text = SCENARIO.read_text(encoding="utf-8").replace(
        'type = "firefight:US-M113"', 'type = "firefight:US-M60A1"', 1)
    g = make_game(Scenario.from_text(text, path=str(SCENARIO)), seed=1)
    m60 = next(u for u in g.state.units.values() if u.type == "firefight:US-M60A1")
    t72 = g.state.units["t72-su1"]
    assert m60.hex is not None
    t72.hex = m60.hex.neighbors()[0]
    assert [w.line for w in FI.weapons(g, m60, t72)] == ["US-M60A1"]
    out = FI.execute_attack(g, "US", [m60.id], t72.id, None, "direct", rolls=[2])
    assert out[0]["result"] == "K" and t72.hex is None
    fire = [e for e in g.log.events if e.get("type") == "result" and e.get("what") == "fire"]
    assert fire[-1]["firer"] == m60.id and "Firefight 6.0" in fire[-1]["rules"]
    mbt = [e for e in g.log.events if e.get("adapter") == "firefight_mbt"
           and e.get("type") == "result"]
    assert [(e["decided_by"], e["firefight_result"], e["result"]) for e in mbt] == [
        ("firefight", "K", "KO")]


def test_a_result_on_a_face_down_mbt_tank_does_not_name_it_to_the_enemy() -> None:
    # Firefight 11: the enemy knows a face-down counter only by its alias; the adapter's record
    # naming the unit and its MBT type goes to its own side alone
    text = SCENARIO.read_text(encoding="utf-8").replace(
        'rules = ["firefight_mbt"]', 'rules = ["firefight_mbt", "firefight.observation"]')
    g = make_game(Scenario.from_text(text, path=str(SCENARIO)), seed=1)
    assert g.state.units["t72-su1"].state.get("face_down")
    FI.apply_result(g, "t72-su1", "Km", "direct")
    assert not [e for e in g.view("US").events() if e.get("adapter") == "firefight_mbt"
                and e.get("type") == "result"]
    [own] = [e for e in g.view("SU").events() if e.get("adapter") == "firefight_mbt"
             and e.get("type") == "result"]
    assert own["result"] == "track"
    # face up, the result is everyone's again
    g.state.units["t72-su2"].state["face_down"] = False
    FI.apply_result(g, "t72-su2", "Km", "direct")
    assert [e["what"] for e in g.view("US").events() if e.get("adapter") == "firefight_mbt"
            and e.get("type") == "result"] == ["t72-su2 (mbt:T-72M1) in MBT terms"]


def test_firefights_optional_rules_read_a_guest_as_its_profile() -> None:
    # the optional rules (rules/_common.tname, ucls) looked the raw "T-72M1" up in Firefight's
    # unit table and failed with a KeyError for every guest unit
    from hexwar.plugins.firefight.rules._common import tname, ucls, vehicle

    t72 = _game(1).state.units["t72-su1"]
    assert (tname(t72), ucls(t72), vehicle(t72)) == ("SU-T62", "tank", True)
