"""The Firepower/MBT adapter (plugins/adapters/firepower_mbt; docs/cross-system.md,
docs/decisions.md CORE-86..CORE-90) and nested games (core/engine/nested.py): the conversion
tables against their provenance and the two systems' data, MBT as host, the refusals, the town
fight as a nested Firepower game, and scenario (b) played AI against AI and replayed verified."""

from __future__ import annotations

from functools import cache
from pathlib import Path
from types import SimpleNamespace

import pytest

from hexwar.core.engine.game import Game
from hexwar.core.engine.nested import NestedOutcome, nested_seed, play_nested
from hexwar.core.errors import HexwarError, RulesError
from hexwar.core.ground import Ground
from hexwar.core.scenario import Scenario, validate_scenario
from hexwar.core.testing import make_game
from hexwar.core.types import GameResult
from hexwar.plugins.adapters.firepower_mbt import model as M
from hexwar.plugins.adapters.firepower_mbt import plugin as P
from hexwar.plugins.mbt.ai import MbtAI
from hexwar.plugins.mbt.state import card_name, card_of, ctx

SCENARIO = Path(P.__file__).parent / "scenarios" / "town_fight.toml"
TEXT = SCENARIO.read_text(encoding="utf-8")


def _text(**swap: str) -> str:
    text = TEXT
    for old, new in swap.items():
        assert old in text, old
        text = text.replace(old, new)
    return text


@cache
def _played(seed: int) -> Game:
    g: Game = make_game(SCENARIO, seed=seed)
    g.play({s: MbtAI(s, seed) for s in g.state.sides})
    return g


# -- the tables and their provenance ------------------------------------------------------------


def test_the_adapter_is_an_installed_adapter_with_mbt_as_host() -> None:
    from hexwar.core.manager import installed_plugins

    m = installed_plugins()["firepower_mbt"].manifest
    assert (m.kind, m.system, set(m.bridges)) == ("adapter", "mbt", {"firepower", "mbt"})


def test_every_conversion_is_a_modelling_choice_marked_estimated() -> None:
    assert set(M.tables()) == {"firepower_in_mbt", "mbt_leg_in_firepower",
                               "firepower_losses_in_mbt", "town_fight"}
    for name, table in M.tables().items():
        sources = {str(s.source) for _row, _col, s in table.cells()}
        assert sources == {"estimated"}, (name, sources)


def test_the_squad_tables_name_real_cards_and_soldiers() -> None:
    """Each MBT card named is a leg card of the side (MBT 15.1) and each soldier a Firepower
    Basic Game soldier type (Firepower 1.2.1); a squad is Firepower 2.3's six."""
    import tomllib

    from hexwar.plugins.firepower import plugin as FP

    g = make_game(SCENARIO)
    weapons = tomllib.loads((Path(FP.__file__).parent / "data" / "weapons.toml").read_text("utf-8"))
    soldier_types = set(weapons) - {"HGN"}
    for side in ("NATO", "Soviet"):
        card, soldiers = M.mbt_profile("firepower:LMG", side)
        assert card_name(g, f"mbt:{card}") == card
        assert ctx(g).cards[card].kind == "leg"
        assert sorted(soldiers) == ["LMG", "PST", "RFL", "RFL", "RFL", "RFL"]
        assert set(soldiers) <= soldier_types
        assert M.leg_soldiers(card) == soldiers


def test_losses_bands_cover_every_share_and_grow_worse() -> None:
    order = {"none": 0, "suppressed": 1, "KO": 2}
    for of in range(1, 13):
        effects = [order[M.loss_effect(lost, of)] for lost in range(of + 1)]
        assert effects == sorted(effects) and effects[0] == 0 and effects[-1] == 2
    assert M.loss_effect(2, 6) == "suppressed" and M.loss_effect(4, 6) == "KO"
    assert M.loss_effect(1, 6) == "none"
    with pytest.raises(M.AdapterError):
        M.loss_effect(7, 6)


def test_the_tables_are_replaceable_by_a_pack(tmp_path: Path) -> None:
    (tmp_path / "town_fight.csv").write_text(
        "param:label,value:int,source,note\nreach,0,estimated,only in the block\n"
        "turns,2,estimated,x\nsequence_units,3,estimated,x\nimpulses,2,estimated,x\n"
        "depth,5,estimated,x\n", encoding="utf-8")
    assert M.fight_param("reach", str(tmp_path)) == 0
    assert M.fight_param("reach") == 1


# -- MBT as host ----------------------------------------------------------------------------------


def test_the_scenario_validates_with_mbt_host_and_a_firepower_guest() -> None:
    scenario = Scenario.load(SCENARIO)
    assert scenario.system == "mbt" and scenario.guest_systems() == ("firepower",)
    assert validate_scenario(scenario) == []
    ground = Ground.from_mapping(scenario.raw["ground"])
    assert set(ground.layers) == {"mbt", "firepower"}


def test_a_firepower_squad_fights_in_mbt_phases_as_its_mbt_card() -> None:
    g = make_game(SCENARIO)
    fn1 = g.state.units["FN1"]
    assert card_of(g, fn1).name == "Rifle Squad" and card_of(g, g.state.units["FS1"]).name == \
        "Motor Rifle Squad"
    assert fn1.state["firepower_soldiers"] == ["LMG", "PST", "RFL", "RFL", "RFL", "RFL"]
    # the Town Fight Step runs in MBT's Turn, after movement and before the Pivot Step (CORE-88)
    names = [p.name for p in g.sequence]
    assert names.index("mbt.movement") < names.index(P.PHASE) < names.index("mbt.pivot")
    # only the squad's own side learns its profile from the log
    assert [e["unit"] for e in g.view("NATO").events() if e.get("type") == "adapter"] == ["FN1"]


def test_a_mbt_ai_decides_for_a_guest_squad_in_mbt_phases() -> None:
    g = _played(1)
    orders = [d for d in g.decisions if d["kind"].startswith("mbt.") and "FN1" in str(d["choice"])]
    assert orders, "the MBT AI never gave the Firepower squad an order"


def test_the_mbt_ais_transport_checks_read_a_guest_squads_card_by_its_side() -> None:
    # a guest's card depends on its side (mbt_guest_card): the carrier checks of the MBT AI
    # (MBT 15.3) asked for it without the side and stopped every game that reached them
    g = make_game(SCENARIO, seed=1)
    squad = g.state.units["FN1"]
    view = g.view(squad.side)
    ai = MbtAI(squad.side, 1)
    assert ai._wants_a_ride(view, view.unit("FN1"), []) is False  # no carrier in its hex
    assert ai._carrier_room(view, view.unit("FN1")) == 0  # a squad carries nobody


# -- refusals -------------------------------------------------------------------------------------


def test_refusals_at_load_time() -> None:
    no_adapter = Scenario.from_text(_text(**{'rules = ["mbt.advanced", "firepower_mbt"]':
                                             'rules = ["mbt.advanced"]'}))
    assert any("no enabled adapter plugin bridges" in p.message for p in validate_scenario(no_adapter))
    basic = Scenario.from_text(_text(**{'rules = ["mbt.advanced", "firepower_mbt"]':
                                        'rules = ["firepower_mbt"]'}))
    assert any("only the Advanced Game has (MBT 15.1)" in p.message for p in validate_scenario(basic))
    unmapped = Scenario.from_text(_text(**{'id = "FS1"\ntype = "firepower:LMG"':
                                           'id = "FS1"\ntype = "firepower:RFL"'}))
    [problem] = [p for p in validate_scenario(unmapped) if "firepower_mbt" in p.message]
    assert "no mapping for firepower_type 'RFL', side 'Soviet' in table 'firepower_in_mbt'" in \
        problem.message and problem.key.startswith("units[")
    bad_key = Scenario.from_text(_text(**{'blocks = ["2O4"]': 'blocks = ["2O4"]\nvehicles = true'}))
    assert any("takes only blocks, tables" in p.message for p in validate_scenario(bad_key))


def test_another_host_is_refused() -> None:
    text = Path(Path(P.__file__).parents[1] / "firefight_mbt" / "scenarios" /
                "tanks_at_versbach.toml").read_text(encoding="utf-8")
    text = text.replace('rules = ["firefight_mbt"]', 'rules = ["firefight_mbt", "firepower_mbt"]')
    text = text.replace("[sides.US]", '[adapters.firepower_mbt]\nblocks = ["0101"]\n\n[sides.US]')
    problems = validate_scenario(Scenario.from_text(text))
    # the core refuses an adapter of the wrong pair before the adapter is asked
    assert any("adapter 'firepower_mbt' bridges ('firepower', 'mbt'), not the scenario's systems"
               in p.message for p in problems)
    # and the adapter itself refuses a host other than MBT
    other = Scenario.from_text(_text(**{'system = "mbt"': 'system = "firepower"'}))
    assert any("models Firepower squads in an MBT-host game only" in p.message
               for p in P.hexwar_validate_scenario(other))


def test_an_unmodelled_interaction_is_not_offered_and_fails_if_forced() -> None:
    g = make_game(SCENARIO)
    tank = g.state.units["N1"]
    tank.hex = g.board.parse("2N3")  # a tank next to the block takes no part in the town fight
    sides = P.fighters(g, "2O4", P.pack_of(g.scenario))
    assert "N1" not in [u.id for us in sides.values() for u in us]
    with pytest.raises(M.AdapterError, match="adapter 'firepower_mbt' has no mapping for mbt_card "
                                             "'Leopard 2' in table 'mbt_leg_in_firepower'"):
        P.soldiers_of(g, tank)
    # a guest type the table does not map, forced past the load-time check
    g.state.units["FS1"].type = "firepower:PST"
    with pytest.raises(M.AdapterError, match="no mapping for firepower_type 'PST'"):
        card_name(g, "firepower:PST", "Soviet")


# -- the nested game ------------------------------------------------------------------------------


def test_nested_seed_is_the_hosts_seed_and_the_fights_key() -> None:
    assert nested_seed(1, "2O4-t1") == nested_seed(1, "2O4-t1")
    assert len({nested_seed(1, "2O4-t1"), nested_seed(2, "2O4-t1"), nested_seed(1, "2O4-t2")}) == 3


def test_the_town_fight_is_a_nested_firepower_game_reported_as_mbt_results() -> None:
    g = _played(1)
    events = g.log.events
    fights = [e for e in events if e.get("type") == "town_fight"]
    assert fights, "no town fight"
    key = fights[0]["nested"]
    # the fight's records are Firepower's, marked with the fight and its system
    inside = [e for e in events if e.get("nested") == key and e.get("system") == "firepower"]
    assert any(e["type"] == "roll" for e in inside)
    assert any(e["type"] == "nested_result" for e in inside)
    # the Firepower board is laid over the block: its middle hex on the MBT hex's centre
    [laid] = [e for e in events if e.get("type") == "ground" and e.get("block") == "2O4"][:1]
    ground = Ground.from_mapping(g.scenario.raw["ground"])
    assert laid["block_centre_m"] == list(ground.layer("mbt").centre(g.board.parse("2O4")))
    # the results come back as MBT results, decided by Firepower's rules, through the adapter table
    results = [e for e in events if e.get("type") == "result" and e.get("nested") == key
               and e.get("adapter") == "firepower_mbt"]
    # Firepower's own results inside the fight say they are Firepower's
    assert all(e.get("system") == "firepower" for e in events if e.get("type") == "result"
               and e.get("nested") == key and "adapter" not in e)
    per_unit = [e for e in results if e.get("table") == "firepower_losses_in_mbt"]
    assert {e["decided_by"] for e in results} == {"firepower"}
    assert {e["result"] for e in per_unit} <= {"none", "suppressed", "KO"}
    assert len(per_unit) == sum(len(v) for v in fights[0]["units"].values())
    for e in per_unit:
        assert e["soldiers_lost"] + e["soldiers_left"] >= 1
        assert "Firepower 6.2.8" in e["rules"]
    holder = [e for e in results if e["what"].startswith("who holds")]
    assert holder and holder[0]["rules"] == ["Firepower 7", "MBT 4.8"]


def test_a_knocked_out_squad_leaves_the_mbt_map_and_survivors_carry_over() -> None:
    g = _played(1)
    ko = [e for e in g.log.events if e.get("table") == "firepower_losses_in_mbt" and e["result"] == "KO"]
    for e in ko:
        uid = e["what"].split()[0]
        assert g.state.units[uid].state.get("destroyed") is not None
    left = {e["what"].split()[0]: e["soldiers_left"] for e in g.log.events
            if e.get("table") == "firepower_losses_in_mbt"}
    for uid, n in left.items():
        assert len(g.state.units[uid].state["firepower_soldiers"]) == n


def _outcome_losing(g: Game, losses: dict[str, int]) -> NestedOutcome:
    """A finished town fight in which each unit lost its first ``losses[unit]`` soldiers."""
    units = {f"{uid}-{n}": SimpleNamespace(state={"eliminated": n <= lost} if n <= lost else {})
             for uid, lost in losses.items()
             for n in range(1, len(P.soldiers_of(g, g.state.units[uid])) + 1)}
    child = SimpleNamespace(state=SimpleNamespace(units=units))
    return NestedOutcome("2O4-t1", "firepower", GameResult(None, "draw"), child)  # type: ignore[arg-type]


def test_a_halved_unit_fields_half_its_soldiers_and_a_halved_fight_halves_it_in_mbt() -> None:
    # CORE-101: MBT's half strength (MBT 12.5) and the soldiers a unit fields agree both ways
    g = make_game(SCENARIO, seed=1)
    fs1, s6 = g.state.units["FS1"], g.state.units["S6"]
    assert len(P.soldiers_of(g, fs1)) == 6
    fs1.state["half"] = True  # halved at MBT scale (MBT 14.4.4.2.3.4)
    assert P.soldiers_of(g, fs1) == ["LMG", "PST", "RFL"]
    # S6 loses three of its soldiers in the fight: half strength in MBT as well as suppressed
    full = len(P.soldiers_of(g, s6))
    sides = {"Soviet": [s6]}
    P.apply_outcome(g, "2O4", sides, _outcome_losing(g, {"S6": full // 2}), None)
    assert s6.state.get("half") is True
    assert [e["unit"] for e in g.log.events if e.get("type") == "halved"] == ["S6"]
    assert len(P.soldiers_of(g, s6)) == full - full // 2


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_scenario_b_plays_ai_against_ai_to_a_real_end(seed: int) -> None:
    g = _played(seed)
    assert g.result is not None and g.over
    assert g.result.level in ("victory", "automatic victory", "tie")
    assert any(e.get("type") == "nested_result" for e in g.log.events)
    assert g.nested is None


def test_nested_decisions_are_the_hosts_and_the_state_hash_carries_the_fight() -> None:
    g = _played(2)
    fp = [d for d in g.decisions if not d["kind"].startswith("mbt.")]
    assert fp, "the nested game's decisions were not recorded as the host's"
    assert g.state.data["nested"]["system"] == "firepower" and g.state.data["nested"]["over"]
    # each recorded once, by the host, and marked with the fight and the system
    tagged = [e for e in g.log.events if e.get("nested") and e["type"] == "decision"]
    assert len(tagged) == len(fp) and {e["system"] for e in tagged} == {"firepower"}
    assert [e["n"] for e in g.log.events if e.get("type") == "decision"] == \
        list(range(1, len(g.decisions) + 1))
    # the nested game's seed predicts its rolls: no record shows it
    assert not [e for e in g.log.events if e.get("type") == "nested_game" and "seed" in e]


def test_replay_verify_checks_a_game_with_a_nested_game(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from hexwar.core.cli import cli

    log = tmp_path / "game.jsonl"
    runner = CliRunner()
    played = runner.invoke(cli, ["play", "firepower_mbt:town-fight", "--seed", "3",
                                 "--log", str(log)])
    assert played.exit_code == 0, played.output
    text = log.read_text(encoding="utf-8")
    assert '"type": "nested_game"' in text and '"decided_by": "firepower"' in text
    verified = runner.invoke(cli, ["replay", str(log), "--verify"])
    assert verified.exit_code == 0, verified.output
    # a changed choice inside the nested game is caught
    import json

    lines = text.splitlines()
    for i, line in enumerate(lines):
        rec = json.loads(line)
        if rec.get("type") == "decision" and not rec["kind"].startswith("mbt.") and \
                isinstance(rec.get("hash"), str):
            rec["hash"] = "0" * len(rec["hash"])
            lines[i] = json.dumps(rec, sort_keys=True)
            break
    else:
        raise AssertionError("no nested decision in the log")
    tampered = tmp_path / "tampered.jsonl"
    tampered.write_text("\n".join(lines) + "\n", encoding="utf-8")
    refused = runner.invoke(cli, ["replay", str(tampered), "--verify"])
    assert refused.exit_code != 0


def test_a_nested_game_refuses_sides_the_host_does_not_have() -> None:
    g = make_game(SCENARIO)
    fp = Scenario.from_text(Path(Path(P.__file__).parents[2] / "firepower" / "scenarios" /
                                 "basic.toml").read_text(encoding="utf-8"))
    gen = play_nested(g, fp, key="x")
    with pytest.raises(HexwarError, match="side\\(s\\) A, B are not sides of the host game"):
        next(gen)


def test_a_guest_without_a_profile_is_a_clear_mbt_error() -> None:
    g = make_game(SCENARIO)
    with pytest.raises(RulesError, match="no MBT card"):
        card_name(g, "skirmish:Sword", "NATO")



def _paused_in_a_fight(seed: int = 1) -> tuple[Game, dict[str, MbtAI]]:
    g: Game = make_game(SCENARIO, seed=seed)
    ais = {s: MbtAI(s, seed) for s in g.state.sides}
    while g.nested is None:
        d = g.pending
        assert d is not None, "the game ended without a town fight"
        g.answer(ais[d.side].choose(d, g.view(d.side)))
    return g, ais


def test_while_a_fight_runs_its_decisions_views_and_players_are_the_nested_games() -> None:
    from hexwar.core.engine.controllers import TerminalController
    from hexwar.plugins.firepower.ai import FirepowerAI

    g, ais = _paused_in_a_fight()
    d = g.pending
    assert d is not None and g.nested is not None
    assert d is g.nested.game.pending and not d.kind.startswith("mbt.")
    assert g.view(d.side).turn == g.nested.game.state.turn
    # an AI player is replaced by the nested system's AI; a human stays at the terminal
    assert isinstance(g.controller_for(d.side, ais), FirepowerAI)
    human = TerminalController(d.side)
    assert g.controller_for(d.side, {d.side: human}) is human


def test_an_undo_inside_a_fight_rebuilds_the_same_state() -> None:
    from hexwar.core.engine.controllers import replay_minus

    g, ais = _paused_in_a_fight(2)
    for _ in range(5):  # a few decisions into the fight
        d = g.pending
        assert d is not None
        g.answer(g.controller_for(d.side, ais).choose(d, g.view(d.side)))
    keep = len(g.decisions) - 2
    again, _made = replay_minus(g, keep, remake=lambda new: {s: MbtAI(s, 2) for s in new.state.sides})
    assert again.state.digest() == g.decisions[keep - 1]["hash"]
    assert again.nested is not None and again.nested.key == g.state.data["nested"]["key"]
