"""The Firefight/Firepower adapter (plugins/adapters/firefight_firepower; docs/cross-system.md,
docs/decisions.md CORE-91..CORE-95): its conversion tables against their provenance and the two
systems' data, the refusals, fire at a squad in a Town hex played at Firepower scale, and scenario
(c), all three systems on one ground, played AI against AI."""

from __future__ import annotations

from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from hexwar.core.engine.game import Game
from hexwar.core.errors import DataError, RulesError
from hexwar.core.ground import Ground
from hexwar.core.scenario import Scenario, validate_scenario
from hexwar.core.tables.bands import Band
from hexwar.core.testing import make_game
from hexwar.core.types import PluginManifest
from hexwar.plugins.adapters.firefight_firepower import model as M
from hexwar.plugins.adapters.firefight_firepower import plugin as P
from hexwar.plugins.firefight import fire as FI
from hexwar.plugins.firefight import state as ST
from hexwar.plugins.firefight.tables import ff_data
from hexwar.plugins.firepower.tables import card

SCENARIO = Path(P.__file__).parent / "scenarios" / "versbach_block.toml"


def test_the_adapter_is_an_installed_adapter_for_the_pair() -> None:
    from hexwar.core.manager import installed_plugins

    m = installed_plugins()["firefight_firepower"].manifest
    assert (m.kind, set(m.bridges)) == ("adapter", {"firefight", "firepower"})


# -- the tables against their provenance ----------------------------------------------------------


def test_every_conversion_is_a_modelling_choice_marked_estimated() -> None:
    assert set(M.tables()) == {"firepower_squad_in_firefight", "firefight_fire_in_firepower",
                               "firepower_losses_in_firefight", "firefight_result_in_firepower",
                               "firepower_fire_in_firefight"}
    for name, table in M.tables().items():
        sources = {str(s.source) for _row, _col, s in table.cells()}
        assert sources == {"estimated"}, (name, sources)


def test_every_profile_is_a_firefight_team_of_its_side() -> None:
    t = M.tables()["firepower_squad_in_firefight"]
    for side in ("US", "SU"):
        for weapon in M.WEAPON_RANK:
            ud = ff_data().units[M.profile(side, [weapon])]
            # a squad of men is Firefight personnel of the same side (Firefight 3.3)
            assert (ud.cls, ud.side) == ("personnel", side), (side, weapon)
    # a squad with its LMG fights as the team with a machine gun (Firefight 3.3)
    assert M.profile("US", ["RFL", "LMG"]) == "US-TM+"
    assert M.profile("SU", ["RFL", "PST"]) == "SU-TM"
    assert {str(k) for k in t.key_values("best_weapon")} <= set(card().weapons)


def test_the_inside_fire_is_on_the_firepower_firing_chart() -> None:
    c = card()
    crt = ff_data().tables["crt_anti_personnel"]
    personnel_results = {str(r.values[0]) for r in crt.rows}
    for result in personnel_results:
        fire = M.inside_fire(result)
        # every weapon, mode and range the table names has a Basic Game hit number (Firepower 6.3.6.1)
        assert fire.weapon in c.weapons and fire.mode in c.weapons[fire.weapon].modes
        assert c.in_range(fire.weapon, fire.mode, fire.range), result
    assert M.inside_fire("-").bursts == 0
    # heavier Firefight results are heavier Firepower fire
    assert 0 < M.inside_fire("S").bursts < M.inside_fire("K").bursts


def test_the_loss_bands_cover_every_per_cent_once_and_grow_with_the_losses() -> None:
    t = M.tables()["firepower_losses_in_firefight"]
    bands = [b for b in t.key_values("lost_percent") if isinstance(b, Band)]
    covered = sorted(x for b in bands for x in range(b.lo, b.hi + 1))
    assert covered == list(range(101))
    order = {"-": 0, "S": 1, "K": 2}
    results = [order[M.loss_result(lost, 6)] for lost in range(7)]
    assert results == sorted(results) and results[0] == 0 and results[-1] == 2


def test_every_firefight_result_on_personnel_has_a_firepower_meaning() -> None:
    for name in ("crt_anti_personnel", "if_crt"):
        for r in ff_data().tables[name].rows:
            result = str(r.values[0])
            if result != "-":
                assert M.soldier_effect(result) in ("suppressed", "eliminated"), (name, result)
    assert M.soldier_effect("Kms") == "eliminated"  # Firefight 8.65


def test_the_fire_table_names_firefight_target_classes_and_not_tanks() -> None:
    classes = {ud.cls for ud in ff_data().units.values()}
    t = M.tables()["firepower_fire_in_firefight"]
    assert {str(k) for k in t.key_values("target_class")} <= classes
    assert M.fire_modelled("personnel") is None
    assert M.fire_modelled("tank") == (
        "adapter 'firefight_firepower' has no mapping for target_class 'tank' in table "
        "'firepower_fire_in_firefight': a Firepower squad's fire at it is not modelled")


def test_a_missing_mapping_names_the_adapter_and_the_table() -> None:
    with pytest.raises(M.AdapterError, match="adapter 'firefight_firepower' has no mapping for "
                                             "result 'Kf' in table 'firefight_fire_in_firepower'"):
        M.inside_fire("Kf")
    with pytest.raises(M.AdapterError, match="table 'firepower_squad_in_firefight'"):
        M.profile("US", ["HGN"])


def test_the_tables_are_replaceable_by_a_pack(tmp_path: Path) -> None:
    (tmp_path / "firepower_squad_in_firefight.csv").write_text(
        "side:label,best_weapon:label,firefight_as:str,source,note\n"
        "US,LMG,US-MG+,estimated,my opinion\n", encoding="utf-8")
    assert M.profile("US", ["LMG"], str(tmp_path)) == "US-MG+"


# -- refusals at load time -------------------------------------------------------------------------


def _text(**edits: str) -> str:
    text = SCENARIO.read_text(encoding="utf-8")
    for old, new in edits.items():
        assert old in text, old
        text = text.replace(old, new, 1)
    return text


def _messages(text: str, **kw: Any) -> list[str]:
    return [p.message for p in validate_scenario(Scenario.from_text(text), **kw)]


def test_the_shipped_scenario_validates_with_three_systems_on_one_ground() -> None:
    scenario = Scenario.load(SCENARIO)
    assert scenario.guest_systems() == ("firepower", "mbt")
    assert validate_scenario(scenario) == []
    ground = Ground.from_mapping(scenario.raw["ground"])
    assert set(ground.layers) == {"firefight", "mbt", "firepower"}


def test_no_adapter_and_the_wrong_adapter_are_refused() -> None:
    none = _messages(_text(**{'rules = ["firefight_mbt", "firefight_firepower"]': "rules = []"}))
    assert sum("no enabled adapter plugin bridges" in m for m in none) == 2, none
    # the Firefight/MBT adapter does not bridge Firefight and Firepower
    wrong = _messages(_text(**{'rules = ["firefight_mbt", "firefight_firepower"]':
                               'rules = ["firefight_mbt"]'}))
    assert wrong == ["units of system 'firepower' share the board with host system 'firefight', "
                     "but no enabled adapter plugin bridges the two"]


def test_two_adapters_for_the_pair_are_refused() -> None:
    other = ModuleType("ff_fp_again")
    other.PLUGIN = PluginManifest(  # type: ignore[attr-defined]
        name="ff-fp-again", system="firefight", kind="adapter", title="again",
        summary="a second model of the same pair", bridges=("firepower", "firefight"))
    msgs = _messages(SCENARIO.read_text(encoding="utf-8"), options=("ff-fp-again",),
                     local_plugins=(other,))
    assert msgs == ["adapters 'ff-fp-again' and 'firefight_firepower' both bridge firefight and "
                    "firepower; enable one"]


def test_what_the_model_does_not_cover_is_refused() -> None:
    host = P.hexwar_validate_scenario(Scenario.from_text(
        _text(**{'system = "firefight"': 'system = "mbt"'})))
    assert any("Firefight-host game only" in p.message for p in host)
    bad_weapon = _messages(_text(**{'squad = ["RFL", "RFL", "RFL", "RFL", "PST"]':
                                    'squad = ["RFL", "ATGM"]'}))
    assert any("state.squad must list Firepower weapons" in m and "ATGM" in m
               for m in bad_weapon), bad_weapon
    no_fighter = _messages(_text(**{'type = "firepower:LMG"\nside = "US"\nhex = "1916"\n'
                                    'state = { squad = ["RFL", "RFL", "RFL", "RFL", "PST"] }':
                                    'type = "firepower:HGN"\nside = "US"\nhex = "1916"\n'
                                    'state = { squad = ["HGN"] }'}))
    assert any("adapter 'firefight_firepower' has no mapping for a squad of ['HGN', 'HGN']" in m
               for m in no_fighter), no_fighter
    no_board = _messages(_text(**{"[ground.boards.firepower]": "[ground.boards.other]"}))
    assert any("lays no board for firepower" in m for m in no_board), no_board


def test_a_squad_must_start_as_the_inside_of_a_town_hex() -> None:
    text = _text(**{'id = "sq-us1"\ntype = "firepower:LMG"\nside = "US"\nhex = "1916"':
                    'id = "sq-us1"\ntype = "firepower:LMG"\nside = "US"\nhex = "1910"'})
    with pytest.raises(DataError, match="squad 'sq-us1' starts in 1910, not a Town hex"):
        make_game(Scenario.from_text(text))


# -- the model in play -----------------------------------------------------------------------------


def _game(seed: int = 1) -> Game:
    game: Game = make_game(SCENARIO, seed=seed)
    return game


def test_a_squad_is_one_firefight_team_with_its_soldiers_inside() -> None:
    g = _game()
    sq = g.state.units["sq-us1"]
    assert [s["weapon"] for s in sq.state["soldiers"]] == ["LMG", "RFL", "RFL", "RFL", "RFL", "PST"]
    assert ST.utype(sq).name == "US-TM+" and ST.target_class(g, sq) == "personnel"
    assert ST.utype(g.state.units["sq-us3"]).name == "US-TM"
    # the squad's make-up is its owner's: the Soviets' log has no adapter record of it
    assert not [e for e in g.view("SU").events() if e.get("adapter") == "firefight_firepower"]
    mine = [e for e in g.view("US").events() if e.get("adapter") == "firefight_firepower"]
    ground = Ground.from_mapping(g.scenario.raw["ground"])
    assert len(mine) == 3
    for e in mine:
        u = g.state.units[e["unit"]]
        assert u.hex is not None
        assert tuple(e["firepower_hex"]) == tuple(ground.transfer(u.hex, "firefight", "firepower"))


def _beside(g: Game, unit_id: str) -> None:
    """Put a Soviet unit in the open beside the squad in Versbach 1916, in plain sight."""
    g.state.units[unit_id].hex = g.board.parse("1915")
    FI.invalidate_targets(g)


def _shot_at(g: Game, target: str, result: str) -> FI.Shot:
    shot = FI.Shot(g, "t72-su1", target, "direct")
    shot.result = result
    return shot


@pytest.mark.parametrize("result", ["S", "K"])
def test_fire_at_a_squad_in_town_is_played_at_firepower_scale(result: str) -> None:
    g = _game(4)
    sq = g.state.units["sq-us1"]
    shot = _shot_at(g, "sq-us1", result)
    P.inside_step(shot)
    report = [e for e in g.log.events if e.get("decided_by") == "firepower"][-1]
    c = card()
    fire = M.inside_fire(result)
    hit = c.hit_number(fire.weapon, fire.mode, fire.range)
    cover = c.mod["target_in_cover"]
    assert (report["hit_number"], report["cover"]) == (hit, cover)  # Firepower 6.3.6.1, 6.3.6.2.2
    # a burst ends at its first hit (Firepower 6.3.6.3.1), so the hits are the soldiers lost
    hits = sum(1 for r in report["rolls"] if r + cover <= hit)
    lost = [s for s in sq.state["soldiers"] if s["status"] == "eliminated"]
    assert report["lost"] == hits == len(lost)
    per_burst = c.weapons[fire.weapon].automatic
    assert per_burst is not None and len(report["rolls"]) <= fire.bursts * per_burst[1]
    assert shot.result == report["result"] == M.loss_result(len(lost), 6)
    assert report["firefight_result"] == result
    # the fight inside is the squad's side's knowledge: the firer's side sees neither the record
    # nor the dice (it learns the Firefight result from Firefight's own fire record)
    su = g.view("SU").events()
    assert not [e for e in su if e.get("decided_by") == "firepower"]
    assert not [e for e in su if "Firepower burst" in str(e.get("purpose", ""))]
    assert [e for e in g.view("US").events() if e.get("decided_by") == "firepower"]


def test_a_squad_that_loses_its_lmg_fights_as_the_plain_team() -> None:
    for seed in range(1, 40):
        g = _game(seed)
        P.inside_step(_shot_at(g, "sq-us1", "K"))
        sq = g.state.units["sq-us1"]
        lmg = sq.state["soldiers"][0]
        if lmg["status"] == "eliminated" and len(P.alive(sq)) >= 3:
            assert sq.state["firefight_as"] == "US-TM"
            return
    pytest.fail("no seed lost the LMG but kept the squad")


def test_the_losses_reach_firefight_as_a_result_that_firefight_applies() -> None:
    for seed in range(1, 40):
        g = _game(seed)
        _beside(g, "t72-su1")
        shots = FI.execute_attack(g, "SU", ["t72-su1"], "sq-us1", None, "direct", rolls=[2])
        inside = [e for e in g.log.events if e.get("decided_by") == "firepower"]
        if inside and inside[-1]["result"] == "S":
            # the CRT's result was replaced by the soldiers' losses; Firefight applied S
            assert shots[0]["result"] == "S" and g.state.units["sq-us1"].state.get("S")
            return
    pytest.fail("no seed gave a partial loss")


def test_a_result_outside_the_town_model_is_read_in_firepower_terms() -> None:
    g = _game()
    FI.apply_result(g, "sq-us2", "S", "indirect")
    sq = g.state.units["sq-us2"]
    assert {s["status"] for s in sq.state["soldiers"]} == {"suppressed"}
    FI.apply_result(g, "sq-us2", "S", "indirect")  # Firefight 6.57: a second S destroys the team
    assert sq.hex is None and {s["status"] for s in sq.state["soldiers"]} == {"eliminated"}
    reports = [e for e in g.log.events if e.get("adapter") == "firefight_firepower"
               and e.get("type") == "result"]
    assert [e["result"] for e in reports] == ["suppressed", "eliminated"]
    assert all(e["decided_by"] == "firefight" for e in reports)


def test_a_squads_fire_at_a_tank_is_not_offered_and_refused_if_forced() -> None:
    g = _game()
    sq, t72 = g.state.units["sq-us1"], g.state.units["t72-su1"]
    _beside(g, "t72-su1")
    _beside(g, "bmp-su1")
    offered = FI.candidate_attacks(g, "US", "direct")
    assert not [a for a in offered if a["firers"] == [sq.id] and a["target"] == t72.id]
    # its fire at an APC beside it is modelled (table firepower_fire_in_firefight) and offered
    assert [a for a in offered if a["firers"] == [sq.id] and a["target"] == "bmp-su1"]
    with pytest.raises(RulesError, match="adapter 'firefight_firepower' has no mapping for "
                                         "target_class 'tank' in table "
                                         "'firepower_fire_in_firefight'"):
        FI.execute_attack(g, "US", [sq.id], t72.id, None, "direct")


def _systems_named(event: dict[str, Any]) -> set[str]:
    return {r.split(" ", 1)[0] for r in event.get("rules", [])}


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_scenario_c_plays_ai_against_ai_to_the_end(seed: int) -> None:
    from hexwar.plugins.firefight.ai import FirefightAI

    g = _game(seed)
    result = g.play({s: FirefightAI(s, seed) for s in ("US", "SU")})
    assert result.winner in ("US", "SU")
    events = g.log.events
    assert [e["type"] for e in events].count("game_over") == 1
    results = [e for e in events if e.get("type") == "result"]
    assert results and all(_systems_named(e) & {"Firefight", "Firepower", "adapter"}
                           for e in results)
    # both adapters took part: the squads' fights were played at Firepower scale
    inside = [e for e in results if e.get("decided_by") == "firepower"]
    assert inside and all(e["adapter"] == "firefight_firepower" for e in inside)
    for e in inside:
        assert e["result"] == M.loss_result(e["lost"], e["strength"])
    assert {e.get("adapter") for e in events if e.get("type") == "adapter"} == {
        "firefight_mbt", "firefight_firepower"}


def test_the_cli_plays_scenario_c_and_replays_it_verified(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from hexwar.core.cli import cli

    log = tmp_path / "game.jsonl"
    runner = CliRunner()
    played = runner.invoke(cli, ["play", "firefight_firepower:versbach-block", "--seed", "2",
                                 "--log", str(log)])
    assert played.exit_code == 0, played.output
    assert '"decided_by": "firepower"' in log.read_text(encoding="utf-8")
    verified = runner.invoke(cli, ["replay", str(log), "--verify"])
    assert verified.exit_code == 0, verified.output


def test_the_cli_refuses_a_squad_outside_town_with_exit_2(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from hexwar.core.cli import cli

    bad = tmp_path / "bad.toml"
    bad.write_text(_text(**{'id = "sq-us1"\ntype = "firepower:LMG"\nside = "US"\nhex = "1916"':
                            'id = "sq-us1"\ntype = "firepower:LMG"\nside = "US"\nhex = "1910"'}),
                   encoding="utf-8")
    done = CliRunner().invoke(cli, ["play", str(bad), "--seed", "1"])
    assert done.exit_code == 2 and "Traceback" not in done.output
    assert "[units[1].hex]: squad 'sq-us1' starts in 1910, not a Town hex" in done.output


def test_a_squad_riding_a_destroyed_vehicle_loses_its_soldiers_with_it() -> None:
    text = _text(**{"[[units]]": '[[units]]\nid = "m113-us1"\ntype = "firefight:US-M113"\n'
                                 'side = "US"\nhex = "1915"\n\n[[units]]'})
    g: Game = make_game(Scenario.from_text(text))
    sq, m113 = g.state.units["sq-us1"], g.state.units["m113-us1"]
    sq.hex, sq.state["carrier"], m113.state["passengers"] = None, m113.id, [sq.id]
    FI.apply_result(g, m113.id, "K", "direct")  # Firefight 6.55, 7.44: its passengers die with it
    assert "destroyed" in sq.state and {s["status"] for s in sq.state["soldiers"]} == {"eliminated"}
    report = [e for e in g.log.events if e.get("adapter") == "firefight_firepower"][-1]
    assert (report["result"], report["carrier"]) == ("eliminated", "m113-us1")
