"""Weapons as counters and items (Firepower 10.1, 11.1.6, 9.2): weapon units on the map, crewed,
carried and fired; major personal weapons dropped and picked up (an enemy's carried, never
fired); a fallen holder's crew-served weapon taken over; weapons crewed by two squads
(docs/decisions.md FPD-87, FPD-89)."""

from __future__ import annotations

from typing import Any

import pytest

from hexwar.core.engine.game import Game
from hexwar.core.errors import RulesError
from hexwar.plugins.firepower import loading as ld
from hexwar.plugins.firepower import weapon_units as wu
from hexwar.plugins.firepower.actions import mf_left
from hexwar.plugins.firepower.state import data, eliminate
from tests.plugins.firepower.test_loading import _shoot
from tests.plugins.firepower.test_terrain import _do, _game, _impulse, _refused

CREW_ROUNDS = {"LCW1AMO-H": 2, "LCW1AMO-G": 1}


def _lcw_game(crew: int = 3, extra: str = "") -> tuple[Game, str]:
    """Soldiers A1..A<crew> crouching in 4C5 facing 2 with weapon unit W1 (LCW1, side A), and a
    target B1 three hexes ahead; returns the game and the target's hex."""
    units: list[tuple[Any, ...]] = [(f"A{i}", "RFL", "A", "C5", 2,
                                     {"model": "RFL10", "posture": "crouch"})
                                    for i in range(1, crew + 1)]
    units.append(("B1", "RFL", "B", "C7", 5, {"model": "RFL10"}))
    units.append(("B2", "RFL", "B", "C5", 2, {"model": "RFL10"}))
    game = _game(units, extra=extra)
    a1 = game.state.units["A1"]
    assert a1.hex is not None
    far = a1.hex.neighbor(2).neighbor(2).neighbor(2)
    game.state.units["B1"].hex = far
    game.state.units["B2"].hex = a1.hex.neighbor(5)
    wu.place(game, [{"id": "W1", "model": "LCW1", "side": "A",
                     "hex": game.board.label(a1.hex), "facing": 2}])
    for i in range(1, crew + 1):
        game.state.units[f"A{i}"].state["equipment"] = dict(CREW_ROUNDS) if i == 2 else {}
    return game, game.board.label(far)


def _crew_up(game: Game, n: int) -> None:
    _impulse(game, *[f"A{i}" for i in range(1, n + 1)])
    for i in range(1, n + 1):
        _do(game, {"unit": f"A{i}", "act": "acquire", "what": "W1"})
    wu.follow(game)


@pytest.mark.parametrize(("spec", "words", "rule"), [
    ({"model": "RFL10"}, "not a weapon unit's row", "Firepower 10.1"),
    ({"id": "A1"}, "already used", "Firepower 10.1"),
    ({"hex": "4Z99"}, "", "Firepower 10.1"),
    ({"facing": 7}, "hexside 1-6", "Firepower 4.3"),
    ({"side": "C"}, "no side", "Firepower 10.1"),
])
def test_a_bad_weapon_unit_is_refused_before_play(spec: dict[str, Any], words: str,
                                                  rule: str) -> None:
    game, _ = _lcw_game()
    before = game.state.digest()
    good = {"id": "W2", "model": "LCW1", "side": "A", "hex": "4C5", "facing": 2}
    with pytest.raises(RulesError, match=words or None) as exc:
        wu.place(game, [good, {**good, "id": "W3", **spec}])
    assert exc.value.rule == rule and game.state.digest() == before
    assert sorted(wu.placed(game)) == ["W1"]


def test_the_scenario_places_weapon_units_and_both_sides_see_them() -> None:
    extra = ('weapon_units = [{ id = "W9", model = "LCW1", side = "B", hex = "4H5", '
             'facing = 5 }]')
    game = _game([("A1", "RFL", "A", "C5", 2, {"model": "RFL10"})], extra=extra)
    assert wu.seen(game) == [{"id": "W9", "model": "LCW1", "side": "B", "hex": "4H5",
                              "facing": 5, "crew": []}]


def test_a_weapon_unit_is_crewed_by_acquiring_it_and_its_crew_sets_the_mf() -> None:
    # Firepower 10.1.1, 10.1.2.1: Move -2 for every crewman (not in the Impulse he acquires it),
    # -1 per crewman short of the LCW1's three
    game, _ = _lcw_game()
    _impulse(game, "A1")
    _do(game, {"unit": "A1", "act": "acquire", "what": "W1"})
    ph = data(game)["phase"]
    assert mf_left(game, ph, "A1") == 4 - 1 - 2  # paid 1; two crewmen short; no Move yet
    _impulse(game, "A1")
    assert mf_left(game, data(game)["phase"], "A1") == 0  # alone he cannot move it (10.1)
    _crew_up_rest(game)
    _impulse(game, "A1")
    assert mf_left(game, data(game)["phase"], "A1") == 2  # full crew: the Move column only
    assert [u.id for u in wu.crew_members(game, "W1")] == ["A1", "A2", "A3"]
    _refused(game, {"unit": "A1", "act": "acquire", "what": "W1"}, "Firepower 11.1.6.2")


def _crew_up_rest(game: Game) -> None:
    _impulse(game, "A2", "A3")
    for uid in ("A2", "A3"):
        _do(game, {"unit": uid, "act": "acquire", "what": "W1"})
    wu.follow(game)


def test_the_weapon_unit_goes_with_its_holder_and_stays_where_he_falls() -> None:
    game, _ = _lcw_game()
    _crew_up(game, 3)
    assert wu.placed(game)["W1"]["holder"] == "A1"
    _impulse(game, "A1")
    start = game.state.units["A1"].hex
    _do(game, {"unit": "A1", "act": "enter"})
    wu.follow(game)
    at, facing = wu.position(game, "W1")
    assert at == game.state.units["A1"].hex != start and facing == 2
    # the crewmen left behind are no longer its crew until they follow
    assert [u.id for u in wu.crew_members(game, "W1")] == ["A1"]
    eliminate(game, "A1", None, "Firepower 6.3.6.3.1")
    wu.follow(game)
    assert wu.position(game, "W1") == (at, 2)
    assert wu.placed(game)["W1"]["holder"] is None  # nobody of its crew is with it
    _impulse(game, "A2")
    _do(game, {"unit": "A2", "act": "enter"})
    wu.follow(game)
    assert wu.placed(game)["W1"]["holder"] == "A2"  # the next crewman with it carries it


def test_a_crewman_fires_the_weapon_unit_with_its_crews_rounds() -> None:
    game, target = _lcw_game()
    _crew_up(game, 3)
    _impulse(game, "A1")
    shot = {"unit": "A1", "act": "grenade", "hex": target, "item": "W1", "ammo": "H",
            "as_g": True}
    assert ld.loaded_key(game, "A", "W1", None) == (None, 0)  # the unit's row, below
    _shoot(game, shot)
    eq = game.state.units["A2"].state["equipment"]
    assert eq["LCW1AMO-H"] == 1  # one round of the crew's
    # Firepower 11.1.12: "1+L": loaded again before the next shot, the note for the unit
    _impulse(game, "A1")
    _refused(game, shot, "Firepower 11.1.12")
    _do(game, {"unit": "A1", "act": "load", "weapon": "W1", "ammo": "H"})
    assert data(game)["secret"]["A"]["loads"]["W1"] == {"ammo": "H", "rounds": 1}
    _impulse(game, "A1")
    _shoot(game, shot)
    assert "LCW1AMO-H" not in game.state.units["A2"].state["equipment"]


def test_only_its_crew_may_fire_it_and_never_the_enemy() -> None:
    game, target = _lcw_game()
    _crew_up(game, 2)
    _impulse(game, "A3")
    shot = {"unit": "A3", "act": "grenade", "hex": target, "item": "W1", "ammo": "H",
            "as_g": True}
    _refused(game, shot, "Firepower 11.1.6.2")  # not a crewman
    game.state.units["A2"].facing = 3
    with pytest.raises(RulesError, match="faces its way") as exc:  # not facing the weapon's way
        wu.check_fire(game, "A2", "W1")
    assert exc.value.rule == "Firepower 10.1"
    # Firepower 11.1.6.1: the enemy may acquire it (crew and carry it) but not use it
    b2 = game.state.units["B2"]
    b2.hex, b2.facing = wu.position(game, "W1")
    _impulse(game, "B2")
    _do(game, {"unit": "B2", "act": "acquire", "what": "W1"})
    assert "B2" in [u.id for u in wu.crew_members(game, "W1")]
    with pytest.raises(RulesError, match="enemy weapon") as exc:
        wu.check_fire(game, "B2", "W1")
    assert exc.value.rule == "Firepower 11.1.6.1"


def test_the_move_loss_binds_through_the_impulse_of_the_discard() -> None:
    # Firepower 10.1.1
    game, _ = _lcw_game()
    _crew_up(game, 3)
    _impulse(game, "A3")
    before = mf_left(game, data(game)["phase"], "A3")
    _do(game, {"unit": "A3", "act": "discard", "what": "crew"})
    assert mf_left(game, data(game)["phase"], "A3") == before - 1  # the Move -2 still counts
    _impulse(game, "A3")
    assert mf_left(game, data(game)["phase"], "A3") == 4
    assert [u.id for u in wu.crew_members(game, "W1")] == ["A1", "A2"]


def test_a_major_personal_weapon_is_dropped_and_an_enemy_one_carried_but_not_fired() -> None:
    # Firepower 11.1.6.1
    game, _ = _lcw_game(crew=1)
    a1 = game.state.units["A1"]
    hex_label = game.board.label(a1.hex)  # type: ignore[arg-type]
    _impulse(game, "A1")
    fire = {"unit": "A1", "act": "fire", "mode": "semi", "targets": ["B1"]}
    data(game)["dropped"] = {hex_label: {"LMG4@B": 1}}
    _refused(game, {"unit": "A1", "act": "acquire", "what": "LMG4@B"}, "Firepower 11.1.6.1")
    _do(game, {"unit": "A1", "act": "discard", "what": "weapon"})
    assert a1.state["model"] == "" and data(game)["dropped"][hex_label] == {
        "LMG4@B": 1, "RFL10@A": 1}
    _impulse(game, "A1")
    _refused(game, fire, "Firepower 8.5")  # unarmed
    _do(game, {"unit": "A1", "act": "acquire", "what": "LMG4@B"})
    assert a1.state["model"] == "LMG4" and a1.state["weapon_side"] == "B"
    _impulse(game, "A1")
    _refused(game, fire, "Firepower 11.1.6.1")
    _refused(game, {"unit": "A1", "act": "acquire", "what": "MMG2@A"}, "Firepower 11.1.6.1")
    # dropped again, it is still the enemy's weapon
    _do(game, {"unit": "A1", "act": "discard", "what": "weapon"})
    _do(game, {"unit": "A1", "act": "acquire", "what": "RFL10@A"})
    assert a1.state["model"] == "RFL10" and "weapon_side" not in a1.state
    assert data(game)["dropped"][hex_label] == {"LMG4@B": 1}


def test_a_crewman_takes_over_a_fallen_holders_weapon_once_his_own_is_discarded() -> None:
    # Firepower 11.1.6.2: at once, for no MF: it has already been acquired
    game, _ = _lcw_game(crew=3)
    game.state.units["A1"].state["model"] = "MMG2"
    _impulse(game, "A2", "A3")
    for uid in ("A2", "A3"):
        _do(game, {"unit": uid, "act": "acquire", "what": "A1"})
    eliminate(game, "A1", None, "Firepower 6.3.6.3.1")
    _impulse(game, "A2")
    _refused(game, {"unit": "A2", "act": "acquire", "what": "A1"}, "Firepower 11.1.6.2")
    _do(game, {"unit": "A2", "act": "discard", "what": "weapon"})
    spent = data(game)["phase"]["spent"]["A2"]
    _do(game, {"unit": "A2", "act": "acquire", "what": "A1"})
    a2 = game.state.units["A2"]
    assert a2.state["model"] == "MMG2" and "crew_of" not in a2.state
    assert data(game)["phase"]["spent"]["A2"] == spent  # no MF
    assert game.state.units["A3"].state["crew_of"] == "A2"
    assert game.state.units["A1"].state["model"] == ""
    _impulse(game, "A3")
    _refused(game, {"unit": "A3", "act": "acquire", "what": "A1"}, "Firepower 10.1")


SQUADS = ("[sides.A.squads.A-1]\nsequence_units = 3\nimpulses = 1\n"
          "[sides.A.squads.A-2]\nsequence_units = 3\nimpulses = 1\n")


def test_a_weapon_crewed_by_two_squads_needs_an_impulse_of_each() -> None:
    # Firepower 9.2: A1 (squad A-1) fires the LCW1 crewed by A2 and A3 of squad A-2
    game, target = _lcw_game()
    raw: dict[str, Any] = game.scenario.raw  # type: ignore[assignment]
    raw["sides"]["A"]["squads"] = {"A-1": {"sequence_units": 3, "impulses": 1},
                                   "A-2": {"sequence_units": 3, "impulses": 1}}
    game.state.units["A1"].state["squad"] = "A-1"
    for uid in ("A2", "A3"):
        game.state.units[uid].state["squad"] = "A-2"
    _crew_up(game, 3)
    data(game)["combat_begun"] = True
    _impulse(game, "A1")
    ph = data(game)["phase"]
    ph["squads"] = {"A-1": 1, "A-2": 1}  # A-2 has used its Impulse
    shot = {"unit": "A1", "act": "grenade", "hex": target, "item": "W1", "ammo": "H",
            "as_g": True}
    _refused(game, shot, "Firepower 9.2")
    ph["squads"] = {"A-1": 1, "A-2": 0}
    _shoot(game, shot)
    assert data(game)["phase"]["squads"]["A-2"] == 1  # the fire took A-2's Impulse


def test_a_crewman_helps_fire_or_fires_his_own_weapon_not_both() -> None:
    # Firepower 10.1.1 (and 10.1.2.2: without his help the MMG2 has a lone crewman, one burst)
    from hexwar.plugins.firepower.actions import fire_context

    game, _ = _lcw_game(crew=2)
    game.state.units["A1"].state["model"] = "MMG2"
    _impulse(game, "A2")
    _do(game, {"unit": "A2", "act": "acquire", "what": "A1"})
    _impulse(game, "A1", "A2")
    burst = {"unit": "A1", "act": "fire", "mode": "auto", "targets": ["B1"]}
    assert af_crew(fire_context(game, "A1", burst)) == 2
    data(game)["phase"]["combat"].append("A2")  # A2 has fired his own rifle
    assert af_crew(fire_context(game, "A1", burst)) == 1
    data(game)["phase"]["combat"].remove("A2")
    _shoot(game, burst)
    assert data(game)["phase"]["crew_helped"] == ["A2"]
    # (Firepower 6.3.1.3 already keeps a stack to one firer an Impulse; 10.1.1 stands alone)
    data(game)["phase"]["fired_hexes"].clear()
    _refused(game, {"unit": "A2", "act": "fire", "mode": "semi", "targets": ["B2"]},
             "Firepower 10.1.1")


def af_crew(ctx: Any) -> int:
    from hexwar.plugins.firepower.advanced_fire import firing

    return firing(ctx).crew


def _missile_game(fp_game: Any, cbx_at: str = "C2", **state: Any) -> Game:
    """A1 (side A) in 1``cbx_at`` facing 4 with a control box; missile W5 (MSL1) in 1C1; B1 in
    1C15, 13 hexes from 1C2 down the column."""
    g = fp_game([("A1", "RFL", "A", cbx_at, 4, {"model": "RFL10", **state}),
                 ("B1", "RFL", "B", "C15", 1, {"model": "RFL10"})],
                options=("firepower.advanced",))
    g.state.units["A1"].state["equipment"] = {"CBX": 1}
    wu.place(g, [{"id": "W5", "model": "MSL1", "side": "A", "hex": "1C1", "facing": 4}])
    return g


def test_a_missile_is_fired_once_by_its_control_box_with_all_mf(fp_game: Any) -> None:
    # Firepower 12.4.6, 11.1.7
    from hexwar.plugins.firepower import impulses

    g = _missile_game(fp_game)  # one hex from the missile (its stand-in separation 3)
    impulses.start_impulse_phase(g, "A")
    impulses.begin_impulse(g, ["A1"])
    shot = {"unit": "A1", "act": "grenade", "hex": "1C15", "item": "W5", "ammo": "H",
            "as_g": True}
    _refused(g, {"unit": "A1", "act": "acquire", "what": "W5"}, "Firepower 12.4.6")
    _shoot(g, shot)
    assert "W5" not in wu.placed(g)  # removed from the game
    ph = data(g)["phase"]
    assert mf_left(g, ph, "A1") <= 0  # "all" his MF


def test_a_missile_needs_the_control_box_in_reach_and_no_mf_spent(fp_game: Any) -> None:
    from hexwar.plugins.firepower import impulses

    far = _missile_game(fp_game, cbx_at="C5")  # 4 hexes from the missile; the stand-in 3
    impulses.start_impulse_phase(far, "A")
    impulses.begin_impulse(far, ["A1"])
    with pytest.raises(RulesError, match="works up to 3") as exc:
        wu.check_fire(far, "A1", "W5")
    assert exc.value.rule == "Firepower 12.4.6"
    g = _missile_game(fp_game)
    g.state.units["A1"].state["equipment"] = {}
    impulses.start_impulse_phase(g, "A")
    impulses.begin_impulse(g, ["A1"])
    with pytest.raises(RulesError, match="control box") as exc:
        wu.check_fire(g, "A1", "W5")
    g.state.units["A1"].state["equipment"] = {"CBX": 1}
    data(g)["phase"]["spent"]["A1"] = 1
    with pytest.raises(RulesError, match="all of A1's MF") as exc:
        wu.check_fire(g, "A1", "W5")
    assert exc.value.rule == "Firepower 11.1.7"


def test_a_missile_unit_is_not_placed_in_a_building() -> None:
    game, _ = _lcw_game()
    from hexwar.plugins.firepower.advanced_terrain import adv_map

    m = adv_map(game)
    inside = next((h for h in sorted(game.board.hexes) if m.building(h) is not None), None)
    assert inside is not None
    with pytest.raises(RulesError, match="confined space") as exc:
        wu.place(game, [{"id": "W7", "model": "MSL1", "side": "A",
                         "hex": game.board.label(inside), "facing": 1}])
    assert exc.value.rule == "Firepower 12.4.6"


def test_a_scenario_file_with_weapon_units_passes_validation_and_places_them() -> None:
    # Firepower 10.1: `special.weapon_units` is part of the scenario format (it was refused as
    # an unknown key while the set-up read it); hexwar's hill assault places its gun
    from hexwar.core.scenario import load_and_validate
    from hexwar.plugins.firepower.plugin import HERE

    game = Game(load_and_validate(HERE / "scenarios" / "hill-assault.toml"), seed=1)
    assert [(w["id"], w["model"], w["side"]) for w in wu.seen(game)] == [("W1", "LCW1", "B")]
