"""Ammunition carried in the Advanced Game (Firepower 8.5, 11.1.6, 11.1.12): rounds from the
organization list, drawn by fire and by loading, running out, dropped, picked up and handed over
(docs/decisions.md FPD-88)."""

from __future__ import annotations

import pytest

from hexwar.core.engine.game import Game
from hexwar.core.errors import RulesError
from hexwar.plugins.firepower import ammunition as am
from hexwar.plugins.firepower import loading as ld
from hexwar.plugins.firepower.state import data
from tests.plugins.firepower.test_loading import _crew_game, _next_phase, _shoot
from tests.plugins.firepower.test_terrain import _do, _refused


def _armed(model: str, equipment: dict[str, int] | None, crew: int = 0) -> tuple[Game, str]:
    game, target = _crew_game(model, crew=crew)
    if equipment is not None:
        game.state.units["A1"].state["equipment"] = dict(equipment)
    return game, target


def _eq(game: Game, uid: str) -> dict[str, int]:
    return dict(game.state.units[uid].state.get("equipment") or {})


def test_rounds_are_items_named_after_the_row_and_the_type() -> None:
    assert am.ammo_item("GLR2", "G") == "GLR2AMO-G"
    assert am.parse_item("GLR2AMO-G") == ("GLR2", "G")
    assert am.parse_item("MPL13AMO-H") == ("MPL13", "H")
    assert am.parse_item("HGN3") is None and am.parse_item("GLR2AMO") is None


def test_a_listed_stock_is_counted_and_l_is_always_unlimited() -> None:
    # Firepower 8.5: only the rounds listed; "L" unlimited; no list at all: unlimited (FPD-88)
    listed = {"equipment": {"GLR2AMO-G": 3}}
    assert am.stock(listed, "GLR2", "G") == 3
    assert am.stock(listed, "GLR2", "M") == 0
    assert am.stock(listed, "GLR2", "L") is None
    assert am.stock({}, "GLR2", "G") is None


def test_each_shot_draws_a_round_and_a_weapon_without_rounds_is_refused() -> None:
    game, target = _armed("GLR2", {"GLR2AMO-G": 2, "HGN3": 1})
    shot = {"unit": "A1", "act": "grenade", "hex": target, "item": "GLR2", "ammo": "G"}
    for left in (1, 0):
        _next_phase(game, "A1")
        _shoot(game, shot)
        assert am.stock(game.state.units["A1"].state, "GLR2", "G") == left
    assert "GLR2AMO-G" not in _eq(game, "A1") and _eq(game, "A1")["HGN3"] == 1
    _next_phase(game, "A1")
    _refused(game, shot, "Firepower 8.5")
    # smoke rounds were never listed: none carried
    _refused(game, {**shot, "ammo": "M"}, "Firepower 8.5")
    # the hand grenade he carries still goes
    _shoot(game, {"unit": "A1", "act": "grenade", "hex": target, "item": "HGN3"})


def test_a_soldier_with_no_organization_list_keeps_an_unlimited_stock() -> None:
    game, target = _armed("GLR2", None)
    shot = {"unit": "A1", "act": "grenade", "hex": target, "item": "GLR2", "ammo": "G"}
    for _ in range(3):
        _next_phase(game, "A1")
        _shoot(game, shot)
    assert "equipment" not in game.state.units["A1"].state


def test_the_crews_rounds_are_drawn_after_the_firers() -> None:
    # FPD-88: a GLR1 (crew 2) fired by A1, who carries none, with C0's rounds
    game, target = _armed("GLR1", {}, crew=1)
    game.state.units["C0"].state["equipment"] = {"GLR1AMO-G": 30}
    assert am.rounds_for(game, "A1", "GLR1", "G") == 30
    assert ld.loaded(game, game.state.units["A1"]) == ("G", 30)
    _next_phase(game, "A1")
    _shoot(game, {"unit": "A1", "act": "grenade", "hex": target, "item": "GLR1", "ammo": "G"})
    assert _eq(game, "C0") == {"GLR1AMO-G": 29} and _eq(game, "A1") == {}
    assert ld.loaded(game, game.state.units["A1"]) == ("G", 29)
    # alone, the crewman's rounds are not his: C0 leaves the crew
    game.state.units["C0"].state.pop("crew_of")
    assert am.rounds_for(game, "A1", "GLR1", "G") == 0


def test_loading_takes_its_rounds_from_the_stock_and_groups_stay_whole() -> None:
    # Firepower 11.1.12: the MPL13's group of 4; the stock includes what is loaded
    game, target = _armed("MPL13", {"MPL13AMO-H": 8})
    u = game.state.units["A1"]
    assert ld.loaded(game, u) == ("H", 4)
    shot = {"unit": "A1", "act": "grenade", "hex": target, "item": "MPL13", "ammo": "H",
            "as_g": True}
    for _ in range(4):
        _next_phase(game, "A1")
        _shoot(game, shot)
    assert _eq(game, "A1") == {"MPL13AMO-H": 4} and ld.loaded(game, u) == (None, 0)
    for _ in range(2):  # two Impulse Phases of notes reload the last group
        _next_phase(game, "A1")
        _do(game, {"unit": "A1", "act": "load", "ammo": "H"})
    assert ld.loaded(game, u) == ("H", 4)
    for _ in range(4):
        _next_phase(game, "A1")
        _shoot(game, shot)
    assert "MPL13AMO-H" not in _eq(game, "A1")
    _next_phase(game, "A1")
    _refused(game, {"unit": "A1", "act": "load", "ammo": "H"}, "Firepower 11.1.12")
    assert ld._options(game, data(game)["phase"], "A1") == []  # nothing to load


def test_a_weapon_set_up_without_rounds_starts_empty() -> None:
    # FPD-71 loads the first type as set up, as far as the rounds carried reach (FPD-88)
    game, _ = _armed("LCW1", {"LCW1AMO-G": 1}, crew=2)
    assert ld.loaded(game, game.state.units["A1"]) == (None, 0)  # no H rounds
    _next_phase(game, "A1")
    _refused(game, {"unit": "A1", "act": "load", "ammo": "H"}, "Firepower 8.5")
    _do(game, {"unit": "A1", "act": "load", "ammo": "G"})
    assert ld.loaded(game, game.state.units["A1"]) == ("G", 1)


def test_the_set_up_check_names_every_bad_stock() -> None:
    game, _ = _armed("GLR2", {"GLR2AMO-L": 5, "XYZAMO-G": 1, "GLR2AMO-H": 2})
    game.state.units["B1"].state["equipment"] = {"MPL13AMO-H": 6, "GLR2AMO": 3}
    problems = am.stock_problems(game.state.units)
    assert any("L rounds, which are unlimited" in p for p in problems)
    assert any("'XYZAMO-G'" in p for p in problems)
    assert any("GLR2 fires G/M/U, not H" in p for p in problems)
    assert any("groups of 4; 6" in p for p in problems)
    assert any("'GLR2AMO'" in p for p in problems)
    with pytest.raises(RulesError) as exc:
        am.check_stocks(game)
    assert exc.value.rule == "Firepower 8.5"
    good, _ = _armed("MPL13", {"MPL13AMO-H": 8, "HGN3": 2})
    assert am.stock_problems(good.state.units) == []


def test_rounds_are_dropped_picked_up_and_handed_over_one_item_an_action() -> None:
    # Firepower 11.1.6: an Action per item (rounds of one row and type are one item, FPD-88);
    # 11.1.6.5: handed over by a friend in the hex
    game, _ = _armed("GLR2", {"GLR2AMO-G": 6}, crew=1)
    c0 = game.state.units["C0"]
    c0.state["model"] = "GLR2"
    c0.state["equipment"] = {}
    _next_phase(game, "A1", "C0")
    _do(game, {"unit": "A1", "act": "discard", "what": "GLR2AMO-G", "count": 2})
    assert _eq(game, "A1") == {"GLR2AMO-G": 4}
    assert data(game)["phase"]["spent"]["A1"] == 1
    lying = data(game)["dropped"][game.board.label(game.state.units["A1"].hex)]  # type: ignore[arg-type]
    assert lying == {"GLR2AMO-G": 2}
    _do(game, {"unit": "C0", "act": "acquire", "what": "GLR2AMO-G"})  # all of it lying there
    assert _eq(game, "C0") == {"GLR2AMO-G": 2} and not data(game)["dropped"]
    _do(game, {"unit": "C0", "act": "acquire", "what": "GLR2AMO-G", "from": "A1", "count": 3})
    assert _eq(game, "C0") == {"GLR2AMO-G": 5} and _eq(game, "A1") == {"GLR2AMO-G": 1}
    assert data(game)["phase"]["spent"]["C0"] == 2
    _refused(game, {"unit": "C0", "act": "acquire", "what": "GLR2AMO-G", "from": "A1",
                    "count": 2}, "Firepower 11.1.6")
    _refused(game, {"unit": "C0", "act": "acquire", "what": "GLR2AMO-G", "from": "B1"},
             "Firepower 11.1.6.5")
    _refused(game, {"unit": "C0", "act": "acquire", "what": "HGN3", "from": "A1"},
             "Firepower 11.1.6.5")
    _refused(game, {"unit": "A1", "act": "discard", "what": "GLR2AMO-M"}, "Firepower 11.1.6")


def test_the_legal_list_offers_a_weapon_only_while_it_has_rounds() -> None:
    """The AI chooses from the legal list: a GLR2 with a round of G is offered at the enemy, one
    without is not (Firepower 8.5)."""
    from hexwar.plugins.firepower.advanced_impulses import legal_advanced_actions

    def offered(game: Game) -> bool:
        return any(isinstance(c, dict) and c.get("act") == "grenade" and c.get("unit") == "A1"
                   and c.get("item") in (None, "GLR2") and c.get("ammo", "G") == "G"
                   for c in legal_advanced_actions(game))

    game, _ = _armed("GLR2", {"GLR2AMO-G": 1})
    _next_phase(game, "A1")
    assert offered(game)
    game, _ = _armed("GLR2", {"GLR2AMO-M": 1})
    _next_phase(game, "A1")
    assert not offered(game)


def test_a_scenario_with_a_bad_stock_stops_before_play() -> None:
    # Firepower 8.5, 11.1.12: checked when the game is set up, naming the soldier
    from hexwar.core.errors import HexwarError
    from hexwar.core.scenario import Scenario
    from hexwar.core.testing import make_game

    def scenario(equipment: str) -> Scenario:
        text = "\n".join([
            "[scenario]", 'id = "stock"', 'system = "firepower"', "turns = 1",
            'rules = ["firepower.advanced"]',
            "[sides.A]", "sequence_units = 3", "impulses = 2",
            "[sides.B]", "sequence_units = 3", "impulses = 2",
            "[board]", 'panels = [{ panel = "firepower:panel-4" }]',
            "[special]", 'terrain = ["firepower:terrain-4"]', 'attacker = "A"',
            "[[units]]", 'id = "A1"', 'type = "firepower:RFL"', 'side = "A"', 'hex = "4C5"',
            "facing = 2", f'state = {{ model = "MPL13", equipment = {{ {equipment} }} }}',
            "[[units]]", 'id = "B1"', 'type = "firepower:RFL"', 'side = "B"', 'hex = "4C9"',
            "facing = 5"]) + "\n"
        return Scenario.from_text(text, path="/tmp/stock.toml")

    make_game(scenario("MPL13AMO-H = 8"), seed=1)
    with pytest.raises(HexwarError, match="groups of 4") as exc:
        make_game(scenario("MPL13AMO-H = 6"), seed=1)
    assert "A1" in str(exc.value)


def test_the_other_side_never_sees_a_soldiers_equipment() -> None:
    # Firepower 8.5 (FPD-109): the organization list is the owning side's; the enemy's view of
    # the soldier keeps his counter, weapon and posture and drops the rounds and grenades
    game, _ = _armed("GLR2", {"GLR2AMO-G": 2, "HGN3": 1})
    own = game.view("A").units["A1"]
    assert own["state"]["equipment"] == {"GLR2AMO-G": 2, "HGN3": 1}
    enemy = game.view("B").units["A1"]
    assert "equipment" not in enemy["state"]
    assert enemy["state"]["model"] == "GLR2" and enemy["state"]["posture"]
    assert _eq(game, "A1") == {"GLR2AMO-G": 2, "HGN3": 1}  # the view changed nothing
