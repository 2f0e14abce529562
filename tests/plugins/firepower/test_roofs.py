"""Climbing a building's outer wall in the Advanced Game (Firepower 11.1.11, 11.1.11.2;
docs/decisions.md FPD-176): onto the flat roof from outside, down from the roof, down from an
open upper-floor window, two MF a height; the soldier on the roof is above every wall (his
height for the line of sight, Firepower 8.2.3), outside the building (no roof over him), and the
refusals name their rule and change nothing.

Stand-in panel 4: building A (4AA4-6, 4BB4-6) is two stories of four heights, roof at 8; 4Z5
is outside its wall with 4AA5, which has a window on floor 2 toward 4Z5 and one on floor 1
toward 4Z4."""

from __future__ import annotations

from hexwar.core.engine.game import Game
from hexwar.plugins.firepower import advanced_terrain as at
from hexwar.plugins.firepower import climbing as cl
from hexwar.plugins.firepower.advanced_los import los_world
from hexwar.plugins.firepower.state import data
from tests.plugins.firepower.test_terrain import _do, _game, _impulse, _label, _refused


def _spent(game: Game, uid: str) -> int:
    return int(data(game)["phase"]["spent"][uid])


def _side(game: Game, a: str, b: str) -> int:
    return at.direction(game.board.parse(a), game.board.parse(b))


def test_onto_a_roof_two_mf_a_height_and_the_last_height_enters_the_hex() -> None:
    """Firepower 11.1.11: a building's wall is climbed at two MF a height, the soldier Up at his
    feet + 2 on the way; Firepower 8.2.3: the flat roof tops both stories (8 heights);
    Firepower 11.1.11.2: the last height enters the building hex, on its roof (entry paid)."""
    game = _game([("A1", "RFL", "A", "Z5", 2, {})])
    u = game.state.units["A1"]
    for step in range(1, 8):
        _impulse(game, "A1")
        _do(game, {"unit": "A1", "act": "scale", "to": "on"})
        assert u.state["up"] == step + 2 and _label(game, "A1") == "4Z5"
        assert _spent(game, "A1") == 2
    _impulse(game, "A1")
    _do(game, {"unit": "A1", "act": "scale", "to": "on"})
    assert _label(game, "A1") == "4AA5" and cl.on_roof(u) and u.state["roof"] == "A"
    assert "climb" not in u.state and "up" not in u.state
    assert _spent(game, "A1") == 2 + 1
    # on the roof: his feet at 8 for the line of sight, his head at 10 Standing
    assert at.head_of(game, u) == 10
    assert los_world(game).raised["A1"] == 8
    # in any posture there (Firepower 11.1.11.2), and along his building's roofs
    _do(game, {"unit": "A1", "act": "posture", "to": "prone"})
    assert u.state["posture"] == "prone" and cl.on_roof(u)


def test_down_from_the_roof_the_first_height_takes_him_over_the_wall() -> None:
    """Firepower 11.1.11, 11.1.11.2: down the outer wall from the roof, Standing to start, two
    MF a height; the first height takes him into the hex beyond (its entry paid), the last
    puts his feet on its ground; a climber may climb back onto the roof."""
    game = _game([("A1", "RFL", "A", "AA5", 1, {"roof": "A", "floor": 3})])
    u = game.state.units["A1"]
    u.facing = _side(game, "4AA5", "4Z5")
    _impulse(game, "A1")
    _do(game, {"unit": "A1", "act": "scale", "to": "on"})
    assert _label(game, "A1") == "4Z5" and not cl.on_roof(u) and u.state["up"] == 7 + 2
    assert _spent(game, "A1") == 2 + 1
    _impulse(game, "A1")
    _do(game, {"unit": "A1", "act": "scale", "to": "back"})
    assert _label(game, "A1") == "4AA5" and cl.on_roof(u) and "climb" not in u.state
    for _ in range(8):
        _impulse(game, "A1")
        _do(game, {"unit": "A1", "act": "scale", "to": "on"})
    assert _label(game, "A1") == "4Z5" and "climb" not in u.state and "up" not in u.state
    assert "floor" not in u.state and at.head_of(game, u) == 2


def test_down_from_an_upper_floor_window() -> None:
    """Firepower 11.1.11: down a building's wall from an open window on floor 2 (its sill one
    height above the floor, Firepower 8.2.3: 5 heights), two MF a height; the first height
    crosses the window (Firepower 11.1.3, four a phase) and enters the hex beyond."""
    game = _game([("S1", "RFL", "B", "AA5", 1, {"floor": 2})])
    u = game.state.units["S1"]
    u.facing = _side(game, "4AA5", "4Z5")
    ph = _impulse(game, "S1")
    _do(game, {"unit": "S1", "act": "scale", "to": "on"})
    assert _label(game, "S1") == "4Z5" and u.state["up"] == 4 + 2 and "floor" not in u.state
    assert _spent(game, "S1") == 2 + 1 + 1
    assert list(ph["windows"].values()) == [1]
    for _ in range(4):
        _impulse(game, "S1")
        _do(game, {"unit": "S1", "act": "scale", "to": "on"})
    assert "climb" not in u.state and "up" not in u.state and _label(game, "S1") == "4Z5"


def test_bad_building_climbs_are_refused_naming_the_rule_and_change_nothing() -> None:
    """Firepower 11.1.3: the ground floor is left by 'through'; Firepower 11.1.11: only from a
    window, Standing, up with nothing reducing the MF; Firepower 11.1.9: not a closed window;
    Firepower 11.1.11.2: the roof is left down an outer wall only (no stairs, door or walk)."""
    game = _game([("S1", "RFL", "B", "AA5", 1, {"floor": 2}),
                  ("S2", "RFL", "B", "AA5", 1, {}),
                  ("S3", "RFL", "B", "AA6", 1, {"floor": 2}),
                  ("R1", "RFL", "B", "BB5", 1, {"roof": "A", "floor": 3}),
                  ("C1", "RFL", "A", "Z5", 2, {"posture": "crouch"}),
                  ("H1", "RFL", "A", "Z5", 2, {"model": "LMG12"})])
    units = game.state.units
    units["S1"].facing = units["S2"].facing = _side(game, "4AA5", "4Z5")
    units["S3"].facing = _side(game, "4AA6", "4Z6")  # a floor-1 window only on that side
    _impulse(game, "S1", "S2", "S3", "R1")
    _refused(game, {"unit": "S2", "act": "scale", "to": "on"}, "Firepower 11.1.3")
    _refused(game, {"unit": "S3", "act": "scale", "to": "on"}, "Firepower 11.1.11")
    _refused(game, {"unit": "S1", "act": "scale", "to": "back"}, "Firepower 11.1.11")
    key = at.adv_map(game).opening(game.board.parse("4AA5"), game.board.parse("4Z5"), 2)
    assert key is not None
    data(game)["openings"] = {key.key: "closed"}
    _refused(game, {"unit": "S1", "act": "scale", "to": "on"}, "Firepower 11.1.9")
    data(game)["openings"] = {}
    _refused(game, {"unit": "R1", "act": "stairs", "to": 2}, "Firepower 11.1.11.2")
    _refused(game, {"unit": "R1", "act": "through"}, "Firepower 11.1.11.2")
    units["R1"].facing = _side(game, "4BB5", "4CC6")  # off the building
    _refused(game, {"unit": "R1", "act": "enter"}, "Firepower 11.1.11.2")
    _impulse(game, "C1", "H1")
    _refused(game, {"unit": "C1", "act": "scale", "to": "on"}, "Firepower 11.1.11")
    _refused(game, {"unit": "H1", "act": "scale", "to": "on"}, "Firepower 11.1.11")


def test_a_soldier_on_the_roof_is_above_the_walls_and_outside_the_building() -> None:
    """Firepower 11.1.11.2: on the roof he is not inside the building: no wall blocks his sight
    out (Firepower 8.2.3 walls, 12.1.6), the roof separates him from those inside (Firepower
    8.2.1), he is under no roof (Firepower 11.2.2, 12.4.2) and is not the building's floor plan."""
    from hexwar.plugins.firepower import confined_fire, weather
    from hexwar.plugins.firepower.hidden_setup import floor_label

    game = _game([("R1", "RFL", "B", "AA5", 1, {"roof": "A", "floor": 3}),
                  ("I1", "RFL", "B", "AA5", 1, {})])
    aa5, far = game.board.parse("4AA5"), game.board.parse("4Z5")
    assert at.wall_block(game, aa5, 3, 2, far, 1) is None
    assert at.wall_block(game, aa5, 1, 2, far, 1) is not None  # inside: the wall
    assert at.wall_block(game, aa5, 1, 2, game.board.parse("4BB5"), 3) is not None
    r1, i1 = game.state.units["R1"], game.state.units["I1"]
    assert confined_fire.place(game, r1) is None and confined_fire.place(game, i1) is not None
    assert not weather.under_roof(game, r1, aa5) and weather.under_roof(game, i1, aa5)
    assert floor_label(game, r1) == "4AA5, on the roof of building A"


def _mods(game: Game, uid: str, target: str) -> dict[str, int]:
    from hexwar.plugins.firepower import combat
    from hexwar.plugins.firepower.actions import fire_context, fire_procedure

    ctx = fire_context(game, uid, {"act": "fire", "unit": uid, "mode": "semi",
                                   "targets": [target]})
    combat.preview(ctx, fire_procedure(game, ctx.kind))
    return {m.rule + ":" + m.name: int(m.value) for m in ctx.modifiers[target]}


def test_inside_a_building_a_target_is_concealed_on_its_roof_not() -> None:
    """Firepower 12.2.4: concealment for a target inside a building (here seen through the open
    ground-floor window of 4AA5 from 4Z4); Firepower 11.1.11.2: on the roof he is not inside it,
    so not concealed (docs/decisions.md FPD-178)."""
    game = _game([("A1", "RFL", "A", "Z4", 1, {"model": "RFL10"}),
                  ("B1", "RFL", "B", "AA5", 1, {"model": "RFL10"}),
                  ("B2", "RFL", "B", "AA5", 1, {"model": "RFL10", "roof": "A", "floor": 3})])
    game.state.units["A1"].facing = _side(game, "4Z4", "4AA5")
    _impulse(game, "A1")
    assert _mods(game, "A1", "B1")["Firepower 12.2.4:target concealed"] == 1
    assert not any("12.2.3" in k or "12.2.4" in k for k in _mods(game, "A1", "B2"))


def test_only_legal_building_climbs_are_offered() -> None:
    """Firepower 11.1.11: the options of ``scale`` name the climb of an outer wall (``what``)
    and offer it only where it is legal: not from the ground floor (Firepower 11.1.3), nor
    Crouching."""
    from hexwar.plugins.firepower.climbing import SCALE

    game = _game([("A1", "RFL", "A", "Z5", 2, {}), ("C1", "RFL", "A", "Z5", 2,
                                                   {"posture": "crouch"}),
                  ("S2", "RFL", "B", "AA5", 1, {})])
    game.state.units["S2"].facing = _side(game, "4AA5", "4Z5")
    ph = _impulse(game, "A1", "C1")
    assert SCALE.options is not None
    assert SCALE.options(game, ph, "A1") == [{"unit": "A1", "act": "scale", "to": "on",
                                              "what": "roof"}]
    assert SCALE.options(game, ph, "C1") == []
    assert SCALE.options(game, ph, "S2") == []


def test_up_an_outer_wall_into_an_upper_floor_window() -> None:
    """Firepower 11.1.11: up a building's wall to an open window of floor 2 (``what =
    "window"``; its sill 5 heights up, Firepower 8.2.3), two MF a height; the last height
    crosses the window (Firepower 11.1.3) into the building hex on that floor. No floor 3 in a
    two-story building (Firepower 8.2.1); no window there on that hexside (Firepower 11.1.11)."""
    game = _game([("A1", "RFL", "A", "Z5", 2, {}), ("A2", "RFL", "A", "Z6", 2, {})])
    u = game.state.units["A1"]
    game.state.units["A2"].facing = _side(game, "4Z6", "4AA6")
    _impulse(game, "A1", "A2")
    _refused(game, {"unit": "A1", "act": "scale", "to": "on", "what": "window", "floor": 3},
             "Firepower 8.2.1")
    _refused(game, {"unit": "A2", "act": "scale", "to": "on", "what": "window"},
             "Firepower 11.1.11")
    for step in range(1, 5):
        _impulse(game, "A1")
        _do(game, {"unit": "A1", "act": "scale", "to": "on", "what": "window"})
        assert u.state["up"] == step + 2 and _label(game, "A1") == "4Z5"
    _impulse(game, "A1")
    _do(game, {"unit": "A1", "act": "scale", "to": "on"})
    assert _label(game, "A1") == "4AA5" and u.state["floor"] == 2 and not cl.on_roof(u)
    assert "climb" not in u.state and "up" not in u.state
    assert _spent(game, "A1") == 2 + 1 + 1


def test_no_melee_between_the_roof_and_the_street_or_the_rooms_below() -> None:
    """Firepower 11.1.1, 13: soldiers on the roof are not on the floor of those inside (the
    roof is a level of its own, FPD-176) nor at the street's height: no melee reaches them
    from either; on the roofs of one building they melee each other."""
    game = _game([("A1", "RFL", "A", "BB4", 1, {}),  # inside, below the roof
                  ("A2", "RFL", "A", "Z4", 2, {}),  # outside, by the open door of 4AA4
                  ("A3", "RFL", "A", "AA5", 1, {"roof": "A", "floor": 3}),
                  ("B1", "RFL", "B", "AA4", 1, {"roof": "A", "floor": 3})])
    _impulse(game, "A1", "A2", "A3")
    _refused(game, {"act": "melee", "units": ["A2"], "hex": "4AA4"}, "Firepower 13")
    _refused(game, {"act": "melee", "units": ["A1"], "hex": "4AA4"}, "Firepower 13")
    from hexwar.plugins.firepower.advanced_impulses import check_advanced_action

    check_advanced_action(game, {"act": "melee", "units": ["A3"], "hex": "4AA4"})


def test_one_height_below_the_roof_he_peers_over_the_wall() -> None:
    """Firepower 12.2.3: a climber marked climbing at the top of a wall has it for cover
    (peering); up a building's wall that is the last height before the roof (FPD-176)."""
    from hexwar.plugins.firepower.advanced_fire import peering

    game = _game([("A1", "RFL", "A", "Z5", 2, {})])
    for step in range(1, 8):
        _impulse(game, "A1")
        _do(game, {"unit": "A1", "act": "scale", "to": "on"})
        assert ("A1" in peering(game)) == (step == 7)
    assert peering(game)["A1"][:2] == ("wall", 2)
