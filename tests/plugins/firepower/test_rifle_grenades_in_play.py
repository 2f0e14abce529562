"""Rifle grenades in a real game (issue 12; Firepower 12.4.1.1, 11.1.12, 14.1.1; docs/decisions.md
FPD-91, FPD-116, FPD-120): in the street fight the attacker's assault squad leaders carry M14s
with rifle grenade launchers (RFL14, notes G) and three RGN1-G each, a stand-in. An AI game of
the scenario with fixed seeds (three Turns) loads a rifle grenade and fires it in a later
Impulse Phase, read from the game's log."""

from __future__ import annotations

import dataclasses

import pytest

from hexwar.core.engine.game import Game
from hexwar.core.scenario import load_and_validate
from hexwar.plugins.firepower.plugin import HERE


def test_the_street_fights_assault_leaders_carry_rifle_grenades() -> None:
    from hexwar.plugins.firepower.weapon_chart import weapon

    game = Game(load_and_validate(HERE / "scenarios" / "street-fight.toml"), seed=1)
    holders = [u for u in game.state.units.values()
               if (u.state.get("equipment") or {}).get("RGN1-G")]
    assert sorted(u.id for u in holders) == ["A11", "A12"]
    for u in holders:  # Firepower 10.7 item 15: G, a rifle grenade launcher
        assert "G" in weapon(str(u.state["model"])).notes


@pytest.mark.slow  # plays three Turns of the street fight AI against AI
def test_an_ai_game_of_the_street_fight_loads_and_fires_a_rifle_grenade() -> None:
    from hexwar.core.cli import _controllers

    sc = load_and_validate(HERE / "scenarios" / "street-fight.toml")
    # The AI's plans move on with its rules (doors FPD-160, concealment and set-up FPD-179/180,
    # loading only facing an enemy FPD-183, mines FPD-187): a loaded grenade whose target turned
    # away is not fired (12.4.1.1), so a given seed may end without one. The test plays these
    # seeds in turn and needs one game that loads and fires (2026-12-03: seed 5 does; of seeds
    # 1-13 the others load and never fire, or never load).
    for seed in (5, 2, 6):
        game = Game(dataclasses.replace(sc, turns=3), seed=seed)
        controllers, _ = _controllers(game, "ai,ai", seed)
        game.play(controllers)
        log = game.log.for_side(None)
        loads = [i for i, e in enumerate(log) if e.get("type") == "loading"
                 and e.get("item") == "RGN1" and e.get("kind") == "load"]
        fired = [e for e in log[loads[0] + 1:] if e.get("type") == "decision"
                 and isinstance(e.get("choice"), dict) and e["choice"].get("act") == "grenade"
                 and e["choice"].get("item") == "RGN1"] if loads else []
        if fired:
            break
    assert loads, "no rifle grenade was loaded"
    first = log[loads[0]]
    assert first["unit"] in ("A11", "A12") and first["ammo"] == "G"
    assert first["rule"] == "Firepower 12.4.1.1"
    # Firepower 12.4.1.1: fired in a later Impulse Phase, by the soldier who loaded it
    assert fired, "the loaded rifle grenade was never fired"
    assert fired[0]["choice"]["unit"] == first["unit"]
    throws = [e for e in log if e.get("type") == "roll"
              and str(e.get("purpose", "")).startswith(f"{first['unit']} RGN1 at ")]
    assert throws  # the throw for the hit number was rolled
