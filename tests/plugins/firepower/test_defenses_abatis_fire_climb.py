"""Abatis turns and posture changes (Firepower 11.2.1 (a), 8.8.5.1; FPD-111), fire destroying
defensive units (Firepower 12.3.4.2, 12.3.4.2.1, 12.3.4.2.5; FPD-112) and climbing on top of a
bunker or pillbox (Firepower 8.8.4, 11.1.11, 11.1.11.2; FPD-113)."""

from __future__ import annotations

from typing import Any

import pytest

from hexwar.core.engine.game import Game
from hexwar.plugins.firepower import combat, defenses
from hexwar.plugins.firepower.actions import apply_effects, fire_context, fire_procedure
from hexwar.plugins.firepower.advanced_los import los_world
from hexwar.plugins.firepower.state import data
from tests.plugins.firepower.test_defenses import GameFactory, _game, _impulse
from tests.plugins.firepower.test_defenses_more import _act, _refused, _spent

# -- abatis: turns and postures (Firepower 11.2.1 (a); FPD-111) ------------------------------------


@pytest.mark.parametrize(("choice", "cost"), [
    ({"act": "turn", "unit": "A1", "to": 1}, 1),
    ({"act": "posture", "unit": "A1", "to": "crouch"}, 1),
])
def test_in_an_abatis_hex_turns_and_postures_cost_twice(
        fp_game: GameFactory, choice: dict[str, Any], cost: int) -> None:
    g = _game(fp_game, [("A1", "RFL", "A", "C4", 4)], [{"type": "ABS", "hex": "1C4"}])
    _impulse(g, "A", "A1")
    info = _act(g, dict(choice))
    assert info["cost"] == cost
    assert _spent(g, "A1") == 2 * cost
    assert data(g)["phase"]["nc"]["A1"] == 2 * cost  # non-combat MF, for a later fire
    assert any(e.get("type") == "abatis" for e in g.log.events)


def test_outside_an_abatis_hex_a_turn_costs_once(fp_game: GameFactory) -> None:
    g = _game(fp_game, [("A1", "RFL", "A", "C3", 4)], [{"type": "ABS", "hex": "1C4"}])
    _impulse(g, "A", "A1")
    _act(g, {"act": "turn", "unit": "A1", "to": 1})
    assert _spent(g, "A1") == 1


def test_an_abatis_turn_without_the_mf_is_refused(fp_game: GameFactory) -> None:
    g = _game(fp_game, [("A1", "RFL", "A", "C4", 4)], [{"type": "ABS", "hex": "1C4"}])
    _impulse(g, "A", "A1")
    data(g)["phase"]["spent"]["A1"] = 3  # one MF left: a turn, not a doubled one
    _refused(g, {"act": "turn", "unit": "A1", "to": 1}, "Firepower 11.2.1", "costs twice")
    _refused(g, {"act": "posture", "unit": "A1", "to": "prone"}, "Firepower 11.2.1",
             "costs twice")


def test_an_abatis_turn_keeps_to_the_mf_announced_when_firing(fp_game: GameFactory) -> None:
    # Firepower 6.3.6: one MF announced after a fire covers a turn, not a doubled one
    g = _game(fp_game, [("A1", "RFL", "A", "C4", 4)], [{"type": "ABS", "hex": "1C4"}])
    _impulse(g, "A", "A1")
    data(g)["phase"]["after"]["A1"] = 1
    _refused(g, {"act": "turn", "unit": "A1", "to": 1}, "Firepower 6.3.6", "announced")


# -- fire destroys defensive units (Firepower 12.3.4.2; FPD-112) ------------------------------------


def _grenade(g: Game, hexlabel: str, faces: list[int]) -> combat.FireContext:
    ctx = fire_context(g, "A1", {"act": "grenade", "hex": hexlabel})
    it = iter(faces)
    ctx.roll = lambda purpose: next(it)
    combat.run(ctx, fire_procedure(g, ctx.kind))
    apply_effects(g, ctx)
    return ctx


def _thrower(fp_game: GameFactory, defs: list[dict[str, Any]], *others: tuple[Any, ...]) -> Game:
    g = _game(fp_game, [("A1", "RFL", "A", "C2", 4, {"model": "RFL10"}), *others], defs)
    g.state.units["A1"].state["equipment"] = {"HGN3": 2}
    _impulse(g, "A", "A1")
    return g


def test_a_grenade_destroys_a_damaged_tower_and_everyone_in_its_hex(fp_game: GameFactory) -> None:
    # Firepower 12.3.4.2: the HGN3's G penetration 1 brings the damage to the tower's terrain
    # value 4 (estimated); 12.3.4.2.5: rubble, and the soldiers on its floor and at its foot die
    g = _thrower(fp_game, [{"type": "TWR", "hex": "1C5"}],
                 ("B1", "RFL", "B", "C5", 1, {"in_defence": "TWR", "stands_at": 5}),
                 ("B2", "RFL", "B", "C5", 1))
    g.state.units["B2"].state["tunnel"] = True
    data(g)["defence_damage"] = {"1C5": 3}
    _grenade(g, "1C5", [1, 10, 10, 10, 10])
    assert data(g)["defence_damage"]["1C5"] == 4
    assert data(g)["defences_destroyed"] == ["1C5"]
    assert data(g)["destroyed"]["1C5"] == "rubble"
    h = g.board.parse("1C5")
    assert h not in defenses.defences(g)
    assert g.state.units["B1"].state.get("eliminated")
    assert not g.state.units["B2"].state.get("eliminated")  # under the ground, in a tunnel
    assert los_world(g).map.cover[h] == "rough"  # rubble: cover in every direction
    assert any(e.get("type") == "defense_destroyed" and e["rule"] == "Firepower 12.3.4.2.5"
               for e in g.log.events)


def test_damage_below_the_value_leaves_the_tower_standing(fp_game: GameFactory) -> None:
    g = _thrower(fp_game, [{"type": "TWR", "hex": "1C5"}])
    _grenade(g, "1C5", [1, 10, 10])
    assert data(g)["defence_damage"]["1C5"] == 1
    assert g.board.parse("1C5") in defenses.defences(g)


def test_a_destroyed_abatis_leaves_the_hex_its_own_terrain(fp_game: GameFactory) -> None:
    # Firepower 12.3.4.2.1: the unit is removed; no rubble; entering costs once again
    g = _thrower(fp_game, [{"type": "ABS", "hex": "1C5"}])
    data(g)["defence_damage"] = {"1C5": 3}
    _grenade(g, "1C5", [1, 10])
    assert data(g)["defences_destroyed"] == ["1C5"]
    assert "1C5" not in (data(g).get("destroyed") or {})
    assert g.board.parse("1C5") not in defenses.defences(g)
    assert any(e.get("type") == "defense_destroyed" and e["rule"] == "Firepower 12.3.4.2.1"
               for e in g.log.events)


def test_destroyed_wire_is_removed_and_its_hex_entered(fp_game: GameFactory) -> None:
    # Firepower 12.3.4.2.1: the wire unit is removed (8.8.3 no longer refuses the hex)
    g = _game(fp_game, [("A1", "RFL", "A", "C4", 4)], [{"type": "WIR", "hex": "1C5"}])
    _impulse(g, "A", "A1")
    _refused(g, {"act": "enter", "unit": "A1"}, "Firepower 8.8.3", "may not enter")
    d = defenses.defences(g)[g.board.parse("1C5")]
    assert defenses.damage(g, d, d.type.terrain_value)
    assert "1C5" not in (data(g).get("destroyed") or {})  # no rubble
    _act(g, {"act": "enter", "unit": "A1"})


def test_a_destroyed_bunker_leaves_its_soldiers_in_the_rubble(fp_game: GameFactory) -> None:
    g = _game(fp_game, [("B1", "RFL", "B", "C5", 1, {"in_defence": "BKR"})],
              [{"type": "BKR", "hex": "1C5", "door": 4}])
    d = defenses.defences(g)[g.board.parse("1C5")]
    assert not defenses.damage(g, d, 11)
    assert defenses.damage(g, d, 1)  # 12, its terrain value (estimated)
    b1 = g.state.units["B1"]
    assert not b1.state.get("eliminated") and "in_defence" not in b1.state


def test_a_mortar_miss_elsewhere_damages_nothing(fp_game: GameFactory) -> None:
    # only the impact hex is damaged by G (Firepower 12.3.4.2)
    g = _thrower(fp_game, [{"type": "TWR", "hex": "1C6"}])
    _grenade(g, "1C5", [1, 10, 10])
    assert "1C6" not in (data(g).get("defence_damage") or {})


# -- on top of a bunker or pillbox (Firepower 8.8.4, 11.1.11; FPD-113) -------------------------------


def _bunker(fp_game: GameFactory, code: str = "BKR", **state: Any) -> Game:
    g = _game(fp_game, [("A1", "RFL", "A", "C5", 4, {"model": "RFL10", **state})],
              [{"type": code, "hex": "1C5", "door": 4}])
    _impulse(g, "A", "A1")
    return g


def test_a_soldier_climbs_on_top_of_a_bunker_two_mf_a_height(fp_game: GameFactory) -> None:
    g = _bunker(fp_game)
    height = defenses.types()["BKR"].height
    for step in range(1, height):
        _act(g, {"act": "climb", "unit": "A1", "to": "up"})
        st = g.state.units["A1"].state
        assert st["up"] == step + 2 and st["roof_climb"] == "BKR"
    assert _spent(g, "A1") == 2 * (height - 1)  # Firepower 11.1.11: walls two MF a height
    _impulse(g, "A", "A1")  # the last height in a later Impulse Phase: 4 MF do two heights
    _act(g, {"act": "climb", "unit": "A1", "to": "up"})
    st = g.state.units["A1"].state
    assert st["on_top"] == "BKR" and st["stands_at"] == height and "up" not in st
    assert _spent(g, "A1") == 2
    world = los_world(g)
    assert world.raised["A1"] == height  # his feet on the roof, for sight and melee


def test_on_top_he_climbs_down_before_moving_or_going_in(fp_game: GameFactory) -> None:
    g = _bunker(fp_game, on_top="BKR", stands_at=3)
    _refused(g, {"act": "enter", "unit": "A1"}, "Firepower 11.1.11.2", "climbs down first")
    _refused(g, {"act": "position", "unit": "A1", "into": True}, "Firepower 8.8.4", "climbs down")
    _refused(g, {"act": "climb", "unit": "A1", "to": "up"}, "Firepower 11.1.11.2", "already")
    _act(g, {"act": "climb", "unit": "A1", "to": "down"})
    st = g.state.units["A1"].state
    assert "on_top" not in st and "stands_at" not in st and st["up"] == 4


def test_climbing_down_the_last_height_puts_him_on_the_ground(fp_game: GameFactory) -> None:
    g = _bunker(fp_game, roof_climb="BKR", up=3)
    _act(g, {"act": "climb", "unit": "A1", "to": "down"})
    st = g.state.units["A1"].state
    assert not {"up", "roof_climb", "on_top", "stands_at"} & set(st)


@pytest.mark.parametrize(("state", "rule", "words"), [
    ({"posture": "crouch"}, "Firepower 11.1.11", "Standing"),
    ({"in_defence": "BKR"}, "Firepower 8.8.4", "inside"),
    ({"model": "MMG2"}, "Firepower 11.1.11", "reduces his MF"),
    ({}, "Firepower 11.1.11", "on the ground"),
])
def test_bad_climbs_onto_a_bunker_are_refused(fp_game: GameFactory, state: dict[str, Any],
                                              rule: str, words: str) -> None:
    g = _bunker(fp_game, **state)
    to = "down" if words == "on the ground" else "up"
    _refused(g, {"act": "climb", "unit": "A1", "to": to}, rule, words)


def test_on_top_of_a_bunker_he_is_not_meleed_from_the_ground(fp_game: GameFactory) -> None:
    # Firepower 13: his feet at the bunker's 3 heights (estimated) share none with a Standing
    # attacker's 0-2
    g = _game(fp_game, [("A2", "RFL", "A", "C6", 1, {"model": "RFL10"}),
                        ("B1", "RFL", "B", "C5", 1, {"model": "RFL10", "on_top": "BKR",
                                                     "stands_at": 3})],
              [{"type": "BKR", "hex": "1C5", "door": 4}])
    _impulse(g, "A", "A2")
    _refused(g, {"act": "melee", "units": ["A2"], "hex": "1C5"}, "Firepower 13", "shares")
