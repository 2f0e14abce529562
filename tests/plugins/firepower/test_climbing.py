"""Climbing walls and height hexsides in the Advanced Game (Firepower 11.1.11, 11.1.11.2, 11.1.3,
11.2.4): the ``scale`` Action, its MF by height, completing a climb by entering the far hex, and
the refusals."""

from __future__ import annotations

import dataclasses
from typing import Any

from hexwar.core.engine.game import Game
from hexwar.plugins.firepower import advanced_terrain as at
from hexwar.plugins.firepower import climbing as cl
from hexwar.plugins.firepower.advanced_terrain import AdvMap, side_key
from hexwar.plugins.firepower.state import data
from tests.plugins.firepower.test_terrain import _do, _game, _impulse, _label, _refused


def adv_map(game: Game) -> AdvMap:
    """The game's own copy of its terrain, to change for one test (the built map is shared by
    every game on the board)."""
    m = at.adv_map(game)
    if not getattr(m, "_mine", False):
        m = dataclasses.replace(m, walls=dict(m.walls), ground=dict(m.ground))
        object.__setattr__(m, "_mine", True)
        at.use_map(game, m)
    return m


def _wall_game(height: int, state: dict[str, Any] | None = None) -> Game:
    """A1 Standing in 4C5 facing 2, a free-standing wall of ``height`` on that hexside."""
    game = _game([("A1", "RFL", "A", "C5", 2, dict(state or {}))])
    u = game.state.units["A1"]
    assert u.hex is not None
    adv_map(game).walls[side_key(u.hex, u.hex.neighbor(2))] = height
    return game


def test_a_wall_over_two_heights_is_climbed_two_mf_a_height_and_the_climb_ends_by_entering() -> None:
    """Firepower 11.1.3: a wall of 4 heights may not be crossed; Firepower 11.1.11: climbed at two
    MF a height, up 4 and down 4, the soldier Up at his feet's height + 2 on the way; Firepower
    11.1.11.2: the climb ends by entering the far hex (its MF paid too)."""
    game = _wall_game(4)
    _impulse(game, "A1")
    _refused(game, {"unit": "A1", "act": "enter"}, "Firepower 11.1.3")
    assert cl.must_climb(game, game.state.units["A1"], 2) == "Firepower 11.1.3"
    _do(game, {"unit": "A1", "act": "scale", "to": "on"})
    u = game.state.units["A1"]
    assert u.state["up"] == 3 and u.state["climb"]["step"] == 1
    assert data(game)["phase"]["spent"]["A1"] == 2
    _do(game, {"unit": "A1", "act": "scale", "to": "on"})
    assert u.state["up"] == 4 and data(game)["phase"]["spent"]["A1"] == 4  # 4 MF: none left
    _refused(game, {"unit": "A1", "act": "scale", "to": "on"}, "Firepower 6.2")
    _impulse(game, "A1")
    _refused(game, {"unit": "A1", "act": "turn", "to": 3}, "Firepower 11.1.11.2")  # FPD-73
    _refused(game, {"unit": "A1", "act": "posture", "to": "prone"}, "Firepower 11.1.11.2")
    for step in range(3, 9):  # later Impulse Phases: on up to 4, down the far side to 0
        _impulse(game, "A1")
        _do(game, {"unit": "A1", "act": "scale", "to": "on"})
        if step < 8:
            assert u.state["climb"]["step"] == step
    assert "climb" not in u.state and "up" not in u.state and _label(game, "A1") == "4D4"
    assert data(game)["phase"]["spent"]["A1"] == 2 + 1  # the last height and the hex entered


def test_a_low_wall_is_crossed_and_a_climber_may_climb_back() -> None:
    """Firepower 11.1.3: two heights are crossed by entering; a climb may be undone step by step."""
    game = _wall_game(2)
    _impulse(game, "A1")
    assert cl.must_climb(game, game.state.units["A1"], 2) is None
    _do(game, {"unit": "A1", "act": "scale", "to": "on"})
    _do(game, {"unit": "A1", "act": "scale", "to": "back"})
    u = game.state.units["A1"]
    assert "climb" not in u.state and "up" not in u.state and _label(game, "A1") == "4C5"
    _impulse(game, "A1")
    _do(game, {"unit": "A1", "act": "enter"})
    assert _label(game, "A1") == "4D4"


def test_bad_climbs_are_refused_naming_the_rule_and_change_nothing() -> None:
    """Firepower 11.1.11: Standing to start; no wall climbed with a weapon reducing MF; nothing
    to climb on a clear hexside; no 'back' when not climbing."""
    crouching = _wall_game(4, {"posture": "crouch"})
    _impulse(crouching, "A1")
    _refused(crouching, {"unit": "A1", "act": "scale", "to": "on"}, "Firepower 11.1.11")
    heavy = _wall_game(4, {"model": "LMG12"})
    _impulse(heavy, "A1")
    _refused(heavy, {"unit": "A1", "act": "scale", "to": "on"}, "Firepower 11.1.11")
    _refused(heavy, {"unit": "A1", "act": "scale", "to": "back"}, "Firepower 11.1.11")
    _refused(heavy, {"unit": "A1", "act": "scale", "to": "over"}, "Firepower 11.1.11")
    clear = _game([("A1", "RFL", "A", "C5", 2, {})])
    _impulse(clear, "A1")
    _refused(clear, {"unit": "A1", "act": "scale", "to": "on"}, "Firepower 11.1.11")


def test_a_height_hexside_over_ten_heights_is_climbed_one_mf_a_height() -> None:
    """Firepower 11.2.4: a hill hexside of 12 heights may not be crossed, only climbed, at one MF
    a height (Firepower 11.1.11); one of 3 heights is crossed as before (Firepower 11.1.4)."""
    game = _game([("A1", "RFL", "A", "V12", 2, {})])
    u = game.state.units["A1"]
    top = game.board.parse("4W12")
    assert cl.climb_path(game, u, 2) == ("hexside", [1, 2, 3])
    assert cl.must_climb(game, u, 2) is None
    adv_map(game).ground[top] = 12
    assert cl.must_climb(game, u, 2) == "Firepower 11.2.4"
    _impulse(game, "A1")
    _refused(game, {"unit": "A1", "act": "enter"}, "Firepower 11.2.4")
    for n in range(12):
        _impulse(game, "A1")
        for _ in range(3 if n < 11 else 1):
            if "climb" in u.state and u.state["climb"]["step"] == 11:
                break
            _do(game, {"unit": "A1", "act": "scale", "to": "on"})
    assert u.state["climb"]["step"] == 11 and u.state["up"] == 11 + 2
    _impulse(game, "A1")
    _do(game, {"unit": "A1", "act": "scale", "to": "on"})
    assert _label(game, "A1") == "4W12" and "climb" not in u.state
    assert data(game)["phase"]["spent"]["A1"] == 1 + 1
