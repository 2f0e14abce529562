"""National Equipment Lists (Firepower 8.5, 22.1.11.1.1; FPD-169): the data, and the check a side
naming its nation passes before play."""

from __future__ import annotations

import json
from typing import Any

import pytest

from hexwar.core.errors import RulesError
from hexwar.core.provenance import load_records
from hexwar.core.scenario import Scenario, load_and_validate
from hexwar.core.testing import make_game
from hexwar.plugins.firepower import nations as na
from hexwar.plugins.firepower.plugin import HERE
from tests.plugins.firepower.test_defenses import ADV, GameFactory


def test_the_american_rifles_the_text_names_are_on_the_us_list() -> None:
    """Firepower 22.1.11.1.1: RFL6, RFL8, RFL10, RFL13, RFL14, RFL19 are American; 14.1.1 the
    M14A2 (LMG11); 26.2 the rifle squad's LMG4, GLR2 and bipods."""
    us = na.nation("us")
    for row in ("RFL6", "RFL8", "RFL10", "RFL13", "RFL14", "RFL19", "LMG11", "LMG4", "GLR2",
                "BPD"):
        assert us.allows(row), row
    assert not us.allows("LMG12")  # the stand-in nation's machinegun, not American
    recs = load_records(na.PATH)
    assert recs.sources["nations.us.weapons"] == "Firepower 22.1.11.1.1"
    assert recs.sources["nations.us.more_weapons[0]"] == "estimated"
    assert recs.sources["common.codes"] == "Firepower 22.1.11.1.1"


def test_anyones_items_and_a_listed_weapons_rounds_pass() -> None:
    """Firepower 22.1.11.1.1: body armour, any hand grenade, NBC suits, scopes...; rounds of a
    weapon on the list go with it, rounds of another's do not."""
    us = na.nation("us")
    for item in ("BDA", "NBC", "HGN4-M", "HGN3", "HRG1", "RGN1-G", "SCP", "GLR2AMO-G"):
        assert us.allows(item), item
    assert not us.allows("LMG12AMO-L")
    assert not us.allows("XYZ")


def test_an_unknown_nation_is_refused_naming_the_rule() -> None:
    with pytest.raises(RulesError, match="known: standin, us") as exc:
        na.nation("ruritania")
    assert exc.value.rule == "Firepower 8.5"


def _with_nations(fp_game: GameFactory, units: list[tuple[Any, ...]], a: str | None) -> Any:
    g = fp_game(units, options=ADV)
    if a is not None:
        g.scenario.sides["A"]["nation"] = a
    return g


def test_a_soldier_with_another_nations_weapon_is_refused(fp_game: GameFactory) -> None:
    g = _with_nations(fp_game, [("A1", "RFL", "A", "C3", 4, {"model": "LMG12"})], "us")
    before = g.state.digest()
    with pytest.raises(RulesError, match="A1's LMG12") as exc:
        na.check_nations(g)
    assert exc.value.rule == "Firepower 8.5"
    assert g.state.digest() == before
    g.state.units["A1"].state["model"] = "RFL14"
    na.check_nations(g)


def test_an_item_off_the_list_is_refused(fp_game: GameFactory) -> None:
    g = _with_nations(fp_game, [("A1", "RFL", "A", "C3", 4, {"model": "RFL10"})], "us")
    g.state.units["A1"].state["equipment"] = {"HGN4-M": 2, "LMG12AMO-L": 1}
    with pytest.raises(RulesError, match="LMG12AMO-L") as exc:
        na.check_nations(g)
    assert exc.value.rule == "Firepower 8.5"


def test_a_side_without_a_nation_is_not_checked(fp_game: GameFactory) -> None:
    g = _with_nations(fp_game, [("A1", "RFL", "A", "C3", 4, {"model": "LMG12"})], None)
    na.check_nations(g)


def test_a_weapon_unit_of_another_nation_is_refused(fp_game: GameFactory) -> None:
    g = _with_nations(fp_game, [("A1", "RFL", "A", "C3", 4, {"model": "RFL10"})], "us")
    g.scenario.raw.setdefault("special", {})["weapon_units"] = [
        {"id": "W1", "model": "MPL4", "side": "A", "hex": "1C5", "facing": 1}]
    with pytest.raises(RulesError, match="weapon_units") as exc:
        na.check_nations(g)
    assert exc.value.rule == "Firepower 8.5"


def _scenario(nation: str, model: str) -> Scenario:
    lines = ["[scenario]", 'id = "test-nations"', 'system = "firepower"', "turns = 1",
             'rules = ["firepower.advanced"]',
             "[sides.A]", "sequence_units = 3", "impulses = 2", f'nation = "{nation}"',
             "[sides.B]", "sequence_units = 3", "impulses = 2",
             "[board]", 'panels = [{ panel = "firepower:panel-4" }]',
             "[special]", 'terrain = ["firepower:terrain-4"]', 'attacker = "A"',
             'attacker_side = "5/6"',
             "[[units]]", 'id = "A1"', 'type = "firepower:RFL"', 'side = "A"', 'hex = "4C2"',
             "facing = 4", f"state = {{ model = {json.dumps(model)} }}"]
    return Scenario.from_text("\n".join(lines) + "\n", path="/tmp/test-nations.toml")


def test_the_check_runs_before_play() -> None:
    """Firepower 8.5: the game does not start with a weapon off the side's list."""
    with pytest.raises(RulesError, match="National Equipment List") as exc:
        make_game(_scenario("us", "LMG12"), seed=1)
    assert exc.value.rule == "Firepower 8.5"
    make_game(_scenario("us", "RFL10"), seed=1)


@pytest.mark.parametrize("name", ["advanced-meeting", "street-fight", "hill-assault"])
def test_hexwars_own_scenarios_pass_as_the_stand_in_nation(name: str) -> None:
    """The stand-in list covers every weapon and item hexwar's own Advanced scenarios set up."""
    sc = load_and_validate(HERE / "scenarios" / f"{name}.toml")
    for s in sc.sides:
        sc.sides[s]["nation"] = "standin"
    na.check_nations(make_game(sc, seed=1))


@pytest.mark.parametrize("name", ["advanced-meeting", "street-fight", "hill-assault"])
def test_hexwars_own_scenarios_name_their_nations_and_pass(name: str) -> None:
    """The Advanced scenarios as shipped: side A American, side B the stand-in nation."""
    sc = load_and_validate(HERE / "scenarios" / f"{name}.toml")
    assert (sc.sides["A"]["nation"], sc.sides["B"]["nation"]) == ("us", "standin")
    na.check_nations(make_game(sc, seed=1))
