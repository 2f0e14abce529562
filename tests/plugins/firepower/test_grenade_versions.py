"""Grenade versions carried item by item (Firepower 8.5, 12.3, 12.4.1; docs/decisions.md
FPD-116): the organization list fixes the version of each grenade a soldier carries
(``HGN4-G``, ``HGN4-M``), a throw or a rifle-grenade load uses one of the version named and that
version's values, and a scenario list that leaves a version open is refused before play."""

from __future__ import annotations

from typing import Any

import pytest

from hexwar.core.engine.game import Game
from hexwar.core.errors import RulesError
from hexwar.plugins.firepower import ammunition as am
from hexwar.plugins.firepower import loading as ld
from hexwar.plugins.firepower.advanced_fire import hex_options
from hexwar.plugins.firepower.smoke import smoke_map
from hexwar.plugins.firepower.weapon_chart import weapon
from tests.plugins.firepower.test_advanced_fire import GameFactory, _grenadier, _resolve
from tests.plugins.firepower.test_loading import _crew_game, _next_phase, _shoot
from tests.plugins.firepower.test_terrain import _do, _refused

#: FP-28: soldier 3's list, "RFL 5 BDA 3xHGN4 1xBNC", two of the HGN4 of the G type and one M
FP_28 = {"BDA": 1, "HGN4-G": 2, "HGN4-M": 1, "BNC": 1}


def _eq(g: Game, uid: str = "A1") -> dict[str, int]:
    return dict(g.state.units[uid].state.get("equipment") or {})


def test_fp_28_the_squad_leaders_three_hgn4_are_two_g_and_one_m(fp_game: GameFactory) -> None:
    """Firepower 8.5, 12.3.7 (FP-28): soldier 3's list "RFL 5 BDA 3xHGN4 1xBNC" with two G and one M
    HGN4: each throw uses, and uses up, its own version (the M one makes smoke)."""
    g = _grenadier(fp_game, FP_28)
    assert am.versions_carried(_eq(g), "HGN4") == {"G": 2, "M": 1}
    assert tuple(weapon("HGN4").types) == ("G", "M")
    # the M one: smoke in the hex, no blast (Firepower 12.3.7), struck off the M count
    ctx = _resolve(g, "A1", {"act": "grenade", "hex": "1C5", "item": "HGN4", "ammo": "M"}, [1])
    assert ctx.blast == [] and g.board.parse("1C5") in smoke_map(g)
    assert _eq(g) == {"BDA": 1, "HGN4-G": 2, "BNC": 1}
    # no M is left: a second smoke grenade is refused and nothing changes
    before = g.state.digest()
    with pytest.raises(RulesError, match=r"Firepower 8\.5"):
        _resolve(g, "A1", {"act": "grenade", "hex": "1C5", "item": "HGN4", "ammo": "M"}, [1])
    assert g.state.digest() == before
    # a G one, named by its version: a blast of the G version's number at 1C6
    ctx = _resolve(g, "A1", {"act": "grenade", "hex": "1C6", "item": "HGN4-G"}, [1, 10, 10])
    assert ctx.blast and ctx.extra["summary"] == {"item": "HGN4", "ammo": "G"}
    assert _eq(g) == {"BDA": 1, "HGN4-G": 1, "BNC": 1}


def test_a_throw_naming_no_version_uses_the_version_carried(fp_game: GameFactory) -> None:
    # FPD-116: a soldier whose only HGN4 is the M version throws smoke, never a G blast
    g = _grenadier(fp_game, {"HGN4-M": 1})
    ctx = _resolve(g, "A1", {"act": "grenade", "hex": "1C5"}, [1])
    assert ctx.extra["summary"] == {"item": "HGN4", "ammo": "M"}
    assert ctx.blast == [] and g.board.parse("1C5") in smoke_map(g)
    assert _eq(g) == {}


def test_a_version_not_carried_is_refused(fp_game: GameFactory) -> None:
    g = _grenadier(fp_game, {"HGN4-G": 1})
    before = g.state.digest()
    for choice in ({"act": "grenade", "hex": "1C5", "item": "HGN4", "ammo": "M"},
                   {"act": "grenade", "hex": "1C5", "item": "HGN4-M"},
                   {"act": "grenade", "hex": "1C5", "item": "HGN4-G", "ammo": "M"}):
        with pytest.raises(RulesError, match=r"Firepower 8\.5"):
            _resolve(g, "A1", choice, [1, 10, 10])
    assert g.state.digest() == before


def test_the_options_offer_only_the_versions_carried(fp_game: GameFactory) -> None:
    from hexwar.plugins.firepower.state import data

    g = _grenadier(fp_game, {"HGN4-G": 1, "HGN3": 1})
    data(g)["phase"] = {"side": "A", "active": ["A1"], "combat": []}
    ammo = {o.get("ammo") for o in hex_options(g) if o["item"] == "HGN4"}
    assert ammo == {"G"}
    g.state.units["A1"].state["equipment"] = {"HGN4-M": 1}
    ammo = {o.get("ammo") for o in hex_options(g) if o["item"] == "HGN4"}
    assert ammo == {"M"}


def test_a_scenario_list_that_leaves_a_version_open_is_refused() -> None:
    # Firepower 8.5: the versions are decided when the list is written
    class U:
        def __init__(self, eq: dict[str, int]) -> None:
            self.state: dict[str, Any] = {"equipment": eq}

    got = am.version_problems({"A1": U({"HGN4": 1}), "A2": U({"HGN4-X": 1}),  # type: ignore[dict-item]
                               "A3": U({"HGN3-M": 1}), "A4": U({"BNC-G": 1}),
                               "A5": U({"HGN3": 2, "HGN4-M": 1, "RGN1-H": 1})})
    assert [p.split(":")[0] for p in got] == ["A1", "A2", "A3", "A4"]
    assert "HGN4-G, HGN4-M" in got[0] and "(Firepower 8.5)" in got[0]


def test_a_built_in_scenario_loads_with_its_versions() -> None:
    from pathlib import Path

    from hexwar.core.scenario import load_and_validate

    here = Path(__file__).resolve().parents[3] / "plugins" / "firepower" / "scenarios"
    sc = load_and_validate(here / "hill-assault.toml")
    game = Game(sc, seed=1)
    assert am.version_problems(game.state.units) == []
    smoke = sum(am.versions_carried(dict(u.state.get("equipment") or {}), "HGN4").get("M", 0)
                for u in game.state.units.values() if u.side == "A")
    assert smoke >= 2


def test_a_rifle_grenade_is_loaded_and_fired_in_the_version_carried() -> None:
    # Firepower 8.5, 12.4.1.1: RGN1 comes as G or H; the H version is loaded and fired as H
    game, target = _crew_game("RFL14")
    game.state.units["A1"].state["equipment"] = {"RGN1-H": 1}
    _next_phase(game, "A1")
    _refused(game, {"unit": "A1", "act": "load", "item": "RGN1", "ammo": "G"}, "Firepower 8.5")
    _do(game, {"unit": "A1", "act": "load", "item": "RGN1"})
    assert ld.rifle_grenade(game, game.state.units["A1"]) == {"item": "RGN1", "ammo": "H"}
    _next_phase(game, "A1")
    _refused(game, {"unit": "A1", "act": "grenade", "hex": target, "item": "RGN1", "ammo": "G"},
             "Firepower 12.4.1.1")
    _shoot(game, {"unit": "A1", "act": "grenade", "hex": target, "item": "RGN1", "as_g": True})
    assert _eq(game) == {}


def test_the_ai_loads_a_rifle_grenade_listed_with_its_version() -> None:
    # FPD-116 with FPD-107: a rifle grenade written RGN1-G is offered as a load of RGN1 in G,
    # and the AI loads it for an enemy low in a foxhole out of his rifle's reach
    from hexwar.plugins.firepower import defenses
    from tests.plugins.firepower.test_ai_advanced_kit import _choose

    game, _ = _crew_game("RFL14")
    a1, b1 = game.state.units["A1"], game.state.units["B1"]
    a1.state["equipment"] = {"RGN1-G": 2}
    assert a1.hex is not None
    b1.hex = a1.hex.neighbor(2).neighbor(2).neighbor(2).neighbor(2).neighbor(2)
    defenses.set_defences(game, [{"type": "DFX", "hex": game.board.label(b1.hex)}])
    b1.state.update(posture="crouch", in_defence="DFX",
                    stands_at=-defenses.types()["DFX"].depth)
    choice, opts = _choose(game, "A", "A1")
    want = {"unit": "A1", "act": "load", "item": "RGN1", "ammo": "G"}
    assert want in opts and choice == want
