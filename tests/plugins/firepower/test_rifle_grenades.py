"""Rifle grenades (Firepower 12.4.1.1) and hand/rifle grenades (Firepower 12.4.1.2): the launcher,
the separate loading with its timing and cost (Firepower 11.1.12; docs/decisions.md FPD-91), the
rifle that does not fire normally while loaded, the minimum range and the Impulse without other
MF."""

from __future__ import annotations

import pytest

from hexwar.core.engine.game import Game
from hexwar.core.errors import RulesError
from hexwar.plugins.firepower import loading as ld
from hexwar.plugins.firepower.state import data
from hexwar.plugins.firepower.weapon_chart import weapon
from tests.plugins.firepower.test_loading import _crew_game, _next_phase, _shoot
from tests.plugins.firepower.test_terrain import _do, _refused

EQUIPMENT = {"RGN1": 2, "RGN2": 1, "HRG1": 1}


def _rifleman(model: str = "RFL14") -> tuple[Game, str]:
    game, target = _crew_game(model)
    game.state.units["A1"].state["equipment"] = dict(EQUIPMENT)
    return game, target


def _rgn(target: str, item: str = "RGN1", **kw: object) -> dict[str, object]:
    return {"unit": "A1", "act": "grenade", "hex": target, "item": item, "ammo": "G", **kw}


def _eq(game: Game) -> dict[str, int]:
    return dict(game.state.units["A1"].state.get("equipment") or {})


def test_the_chart_marks_launchers_and_rifle_grenades_that_need_loading() -> None:
    # Firepower 10.7 item 15: "G" a rifle grenade launcher; 12.4.1.1: a GLR3 rifle has none
    assert weapon("RFL14").grenade_launcher and not weapon("RFL10").grenade_launcher
    assert not weapon("GLR3").grenade_launcher
    assert weapon("RGN1").separate_load and weapon("HRG1").separate_load
    assert not weapon("RGN2").separate_load
    assert weapon("RGN1").min_range == weapon("RGN2").min_range == 3
    # Firepower 12.4.1.2: fired as a rifle grenade, an HRG keeps the rifle grenade's minimum
    from hexwar.core.provenance import load_records
    from hexwar.plugins.firepower.weapon_chart import PATH

    assert weapon("HRG1").min_range == 3
    assert load_records(PATH).sources["HRG1.min_range"] == "Firepower 12.4.1.2"


def test_a_rifle_grenade_is_loaded_with_all_mf_and_fired_in_a_later_impulse_phase() -> None:
    game, target = _rifleman()
    u = game.state.units["A1"]
    _next_phase(game, "A1")
    _refused(game, _rgn(target), "Firepower 12.4.1.1")  # not loaded yet
    _do(game, {"unit": "A1", "act": "load", "item": "RGN1", "ammo": "G"})
    assert data(game)["phase"]["spent"]["A1"] == 4  # "all" his MF (Firepower 11.1.12)
    assert ld.rifle_grenade(game, u) == {"item": "RGN1", "ammo": "G"}
    # the note is the side's secret: logged for side A alone, in its secret records
    assert game.log.events[-1]["visible_to"] == ["A"]
    assert data(game)["secret"]["A"]["loads"]["A1"]["rgn"]["item"] == "RGN1"
    assert _eq(game) == EQUIPMENT  # still carried (it is not spent until fired)
    before = game.state.digest()
    with pytest.raises(RulesError):  # no MF left in this Impulse Phase
        from hexwar.plugins.firepower.advanced_impulses import check_advanced_action

        check_advanced_action(game, _rgn(target))
    assert game.state.digest() == before
    _next_phase(game, "A1")
    # Firepower 12.4.1.1: loaded, the rifle does not fire normally
    _refused(game, {"unit": "A1", "act": "fire", "mode": "semi", "targets": ["B1"]},
             "Firepower 12.4.1.1")
    _shoot(game, _rgn(target))
    assert _eq(game)["RGN1"] == 1 and ld.rifle_grenade(game, u) is None
    ld.check_rgn_fire(game, "A1", "RFL14", "semi")  # fired off: the rifle fires normally again


def test_one_rifle_grenade_at_a_time_and_unloading_takes_all_mf_too() -> None:
    game, _ = _rifleman()
    _next_phase(game, "A1")
    _do(game, {"unit": "A1", "act": "load", "item": "RGN1"})
    _next_phase(game, "A1")
    _refused(game, {"unit": "A1", "act": "load", "item": "RGN1"}, "Firepower 12.4.1.1")
    _refused(game, {"unit": "A1", "act": "unload", "item": "HRG1"}, "Firepower 12.4.1.1")
    # 120 degrees spends MF (a 60-degree turn would be free, Firepower 11.3.1)
    _do(game, {"unit": "A1", "act": "turn", "to": (game.state.units["A1"].facing + 1) % 6 + 1})
    _refused(game, {"unit": "A1", "act": "unload", "item": "RGN1"}, "Firepower 11.1.12")
    _next_phase(game, "A1")
    _do(game, {"unit": "A1", "act": "unload", "item": "RGN1"})
    assert ld.rifle_grenade(game, game.state.units["A1"]) is None
    assert data(game)["phase"]["spent"]["A1"] == 4


def test_a_rifle_grenade_is_fired_only_beyond_two_hexes_and_with_no_other_mf() -> None:
    game, target = _rifleman()
    u = game.state.units["A1"]
    assert u.hex is not None
    near = game.board.label(u.hex.neighbor(2).neighbor(2))
    _next_phase(game, "A1")
    # RGN2 needs no separate loading (Firepower 12.4.1.1) ...
    _refused(game, {"unit": "A1", "act": "load", "item": "RGN2"}, "Firepower 12.4.1.1")
    # ... but is not fired at two hexes or less ...
    _refused(game, _rgn(near, "RGN2"), "Firepower 12.4.1.1")
    # ... nor in an Impulse in which he spends other MF
    _do(game, {"unit": "A1", "act": "posture", "to": "stand"})
    _refused(game, _rgn(target, "RGN2"), "Firepower 12.4.1.1")
    _next_phase(game, "A1")
    _shoot(game, _rgn(target, "RGN2"))
    assert "RGN2" not in _eq(game)


@pytest.mark.parametrize("model", ["RFL10", "GLR3"])
def test_no_rifle_grenade_without_a_launcher(model: str) -> None:
    # Firepower 12.4.1.1: a rifle with a GLR3 attached has no rifle grenade launcher either
    game, target = _rifleman(model)
    _next_phase(game, "A1")
    _refused(game, {"unit": "A1", "act": "load", "item": "RGN1"}, "Firepower 12.4.1.1")
    _refused(game, _rgn(target, "RGN2"), "Firepower 12.4.1.1")


def test_a_hand_rifle_grenade_loaded_as_a_rifle_grenade_is_fired_as_one() -> None:
    # Firepower 12.4.1.2: thrown as a hand grenade unless loaded; once loaded, a rifle grenade
    game, target = _rifleman()
    u = game.state.units["A1"]
    assert u.hex is not None
    near = game.board.label(u.hex.neighbor(2))
    _next_phase(game, "A1")
    _refused(game, _rgn(target, "HRG1", mode="rifle"), "Firepower 12.4.1.1")  # not loaded
    _do(game, {"unit": "A1", "act": "load", "item": "HRG1"})
    _next_phase(game, "A1")
    _refused(game, _rgn(near, "HRG1", mode="throw"), "Firepower 12.4.1.2")
    _shoot(game, _rgn(target, "HRG1", mode="rifle"))
    assert "HRG1" not in _eq(game) and ld.rifle_grenade(game, u) is None


def test_a_hand_rifle_grenade_not_loaded_is_thrown() -> None:
    game, _ = _rifleman("RFL10")  # no launcher needed to throw it
    u = game.state.units["A1"]
    assert u.hex is not None
    near = game.board.label(u.hex.neighbor(2))
    _next_phase(game, "A1")
    _shoot(game, _rgn(near, "HRG1", mode="throw"))
    assert "HRG1" not in _eq(game)


def _last_shot(game: Game) -> dict[str, object]:
    return dict([e for e in game.log.events if e.get("type") == "result"][-1]["result"])


def test_a_rifle_grenade_is_logged_as_fired_from_the_rifle() -> None:
    """Firepower 12.4.1.1 (FPD-132): the log names the rifle grenade and the rifle it is fired
    from, mode "rifle", not a thrown HGN; the words say so too. A hand/rifle grenade thrown is
    logged as thrown."""
    from hexwar.plugins.firepower.words import describe_event

    game, target = _rifleman()
    _next_phase(game, "A1")
    _do(game, {"unit": "A1", "act": "load", "item": "RGN1", "ammo": "G"})
    _next_phase(game, "A1")
    _shoot(game, _rgn(target))
    s = _last_shot(game)
    assert (s["weapon"], s["mode"], s["rifle"], s["item"]) == ("RGN1", "rifle", "RFL14", "RGN1")
    ev = [e for e in game.log.events if e.get("type") == "result"][-1]
    said = describe_event(game, ev) or ""
    assert "fires the rifle grenade RGN1 (G) from his RFL14" in said, said
    u = game.state.units["A1"]
    assert u.hex is not None
    _next_phase(game, "A1")
    _shoot(game, _rgn(game.board.label(u.hex.neighbor(2)), "HRG1", mode="throw"))
    thrown = _last_shot(game)
    assert thrown["mode"] == "throw" and "rifle" not in thrown
    ev = [e for e in game.log.events if e.get("type") == "result"][-1]
    assert "throws HRG1 (G)" in (describe_event(game, ev) or "")
