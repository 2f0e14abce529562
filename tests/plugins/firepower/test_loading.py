"""Plot loading and unloading (Firepower 11.1.12, Firepower 10.1.2.2) in the Advanced Game: the
load and unload Actions, their cost of all MF, their effect on fire, and their secrecy."""

from __future__ import annotations

import json
from typing import Any

import pytest

from hexwar.core.engine.game import Game
from hexwar.core.errors import RulesError
from hexwar.plugins.firepower import loading as ld
from hexwar.plugins.firepower.advanced_impulses import _fired, check_advanced_action
from hexwar.plugins.firepower.state import data
from hexwar.plugins.firepower.weapon_chart import weapon
from tests.plugins.firepower.test_terrain import _do, _game, _impulse, _refused


def _crew_game(model: str, crew: int = 0) -> tuple[Game, str]:
    """A firer of ``model`` crouching in 4C5 facing 2 with ``crew`` crewmen, a target three hexes
    in front; returns the game and the target hex."""
    units: list[tuple[Any, ...]] = [("A1", "RFL", "A", "C5", 2, {"model": model,
                                                                 "posture": "crouch"})]
    units += [(f"C{i}", "RFL", "A", "C5", 2, {"crew_of": "A1", "posture": "crouch"})
              for i in range(crew)]
    units.append(("B1", "RFL", "B", "C7", 5, {}))
    game = _game(units)
    u = game.state.units["A1"]
    assert u.hex is not None
    far = u.hex.neighbor(2).neighbor(2).neighbor(2)
    game.state.units["B1"].hex = far
    return game, game.board.label(far)


def _shoot(game: Game, choice: dict[str, Any]) -> None:
    """Fire as the Advanced Impulse does: check, apply, then fire off the round."""
    from hexwar.plugins.firepower.actions import apply_action

    check_advanced_action(game, choice)
    info = apply_action(game, choice)
    fired = _fired(info)
    assert fired is not None
    ld.after_fire(game, *fired)


def _next_phase(game: Game, *uids: str) -> None:
    _impulse(game, *uids)


def test_fp_41_mpl13_reloads_four_rounds_in_two_impulse_phases_glr1_thirty_in_one() -> None:
    """Firepower 11.1.12 (FP-41): the MPL13's group is four rounds loaded in two Impulse Phases, the
    GLR1's thirty in one; after the group is fired off the weapon fires no more until it is
    reloaded."""
    assert ld.load_need(weapon("MPL13"), "H", 1) == (4, 2)
    assert ld.load_need(weapon("GLR1"), "G", 2) == (30, 1)
    game, target = _crew_game("MPL13")
    u = game.state.units["A1"]
    assert ld.loaded(game, u) == ("H", 4)  # as set up (FPD-71)
    shot = {"unit": "A1", "act": "grenade", "hex": target, "item": "MPL13", "ammo": "H",
            "as_g": True}
    for left in (3, 2, 1, 0):
        _next_phase(game, "A1")
        _shoot(game, shot)
        assert ld.loaded(game, u)[1] == left
    _next_phase(game, "A1")
    _refused(game, shot, "Firepower 11.1.12")
    _do(game, {"unit": "A1", "act": "load", "ammo": "H"})  # first of two notes
    assert ld.loaded(game, u) == (None, 0)
    assert ld.loading_note(game, u) == {"kind": "load", "ammo": "H", "phases": 1, "needed": 2}
    assert data(game)["phase"]["spent"]["A1"] == 3  # all his MF (4, the MPL13 Move -1)
    _next_phase(game, "A1")
    _refused(game, shot, "Firepower 11.1.12")
    _do(game, {"unit": "A1", "act": "load", "ammo": "H"})
    assert ld.loaded(game, u) == ("H", 4) and ld.loading_note(game, u) is None
    _next_phase(game, "A1")
    check_advanced_action(game, shot)  # ready in a later Impulse Phase


def test_a_1_plus_l_weapon_is_loaded_before_every_shot_with_the_ammunition_it_fires() -> None:
    """Firepower 11.1.12, 10.7 item 5: "1+L" needs an Impulse Phase of loading before each shot,
    even with its full crew; a weapon loaded with H does not fire G until unloaded."""
    assert ld.extra_phases("1+L") == 1 and ld.extra_phases("1+2L") == 2
    assert ld.extra_phases("2x3") == 0 and ld.load_need(weapon("LCW1"), "G", 3) == (1, 1)
    game, target = _crew_game("LCW1", crew=2)
    u = game.state.units["A1"]
    as_g = {"unit": "A1", "act": "grenade", "hex": target, "item": "LCW1", "ammo": "G"}
    _next_phase(game, "A1")
    _refused(game, as_g, "Firepower 11.1.12")  # loaded with H, as set up
    _do(game, {"unit": "A1", "act": "unload"})
    assert ld.loaded(game, u) == (None, 0)
    _next_phase(game, "A1")
    _refused(game, as_g, "Firepower 11.1.12")  # empty now
    _do(game, {"unit": "A1", "act": "load", "ammo": "G"})
    _next_phase(game, "A1")
    _shoot(game, as_g)
    assert ld.loaded(game, u) == (None, 0)  # one round a load
    _next_phase(game, "A1")
    _refused(game, as_g, "Firepower 11.1.12")


def test_a_lone_crewman_loads_a_weapon_his_full_crew_fires_without_loading() -> None:
    """Firepower 10.1.2.2, 11.1.12: the MRT6 (two crewmen, G) needs no load notes with its crew
    and one before every shot with a lone crewman."""
    w = weapon("MRT6")
    assert ld.load_need(w, "G", 2) is None and ld.load_need(w, "G", 1) == (1, 1)
    assert ld.load_need(weapon("LMG12"), "L", 1) is None  # L ammunition: never loaded
    full, _ = _crew_game("MRT6", crew=1)
    _next_phase(full, "A1")
    _refused(full, {"unit": "A1", "act": "load", "ammo": "G"}, "Firepower 11.1.12")
    lone, _ = _crew_game("MRT6")
    _next_phase(lone, "A1")
    assert {"unit": "A1", "act": "load", "ammo": "W"} not in ld._options(
        lone, data(lone)["phase"], "A1")  # loaded as set up: nothing to offer
    _do(lone, {"unit": "A1", "act": "unload"})
    _next_phase(lone, "A1")
    assert {"unit": "A1", "act": "load", "ammo": "W"} in ld._options(
        lone, data(lone)["phase"], "A1")


def test_bad_load_notes_are_refused_naming_the_rule_and_change_nothing() -> None:
    game, _ = _crew_game("MPL13")
    _next_phase(game, "A1")
    _refused(game, {"unit": "A1", "act": "load", "ammo": "H"}, "Firepower 11.1.12")  # loaded
    _refused(game, {"unit": "A1", "act": "load", "ammo": "L"}, "Firepower 10.7")  # not its ammo
    # 120 degrees spends MF (a 60-degree turn would be free, Firepower 11.3.1)
    _do(game, {"unit": "A1", "act": "turn", "to": (game.state.units["A1"].facing + 1) % 6 + 1})
    _refused(game, {"unit": "A1", "act": "unload"}, "Firepower 11.1.12")  # MF spent: not "all"
    rifle, _ = _crew_game("RFL10")
    _next_phase(rifle, "A1")
    _refused(rifle, {"unit": "A1", "act": "load", "ammo": "L"}, "Firepower 11.1.12")
    with pytest.raises(RulesError):
        check_advanced_action(rifle, {"unit": "A1", "act": "unload"})


def test_load_notes_never_reach_the_other_side() -> None:
    """Firepower 11.1.12: the notes are written secretly: the records are in the loader's side's
    view alone, and the Action and its note are logged for that side alone."""
    game, _ = _crew_game("MPL13")
    for _ in range(2):  # unloading takes the Impulse Phases loading does
        _next_phase(game, "A1")
        _do(game, {"unit": "A1", "act": "unload"})
    assert ld.loaded(game, game.state.units["A1"]) == (None, 0)
    _next_phase(game, "A1")
    _do(game, {"unit": "A1", "act": "load", "ammo": "G"})
    mine = game.view("A")
    assert mine.system_state["secret"]["loads"]["A1"]["note"]["ammo"] == "G"
    assert any(e.get("type") == "loading" for e in mine.events())
    theirs = game.view("B")
    text = json.dumps([theirs.events(), theirs.system_state], sort_keys=True, default=str)
    assert '"loads"' not in text and '"loading"' not in text
    assert not any(e.get("act") in ("load", "unload") for e in theirs.events())


def test_the_ai_loads_an_empty_weapon_when_nothing_better_is_offered() -> None:
    """The AI (view API only) writes a load note for an empty weapon (Firepower 11.1.12)."""
    from hexwar.plugins.firepower.ai import make_ai

    game, _ = _crew_game("LCW1", crew=2)
    _next_phase(game, "A1")
    _do(game, {"unit": "A1", "act": "unload"})
    _next_phase(game, "A1")
    load = {"unit": "A1", "act": "load", "ammo": "H"}
    assert load in ld._options(game, data(game)["phase"], "A1")
    ai = make_ai("A", 1)
    assert ai._action(game.view("A"), [load, "end"]) == load
    assert ai._action(game.view("A"), [{"unit": "A1", "act": "unload"}, "end"]) == "end"
