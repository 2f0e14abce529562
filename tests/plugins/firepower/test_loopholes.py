"""Loopholes in building walls (Firepower 8.2.4, 12.1.6, 12.2.3, 12.2.4; docs/decisions.md
FPD-141): defined by the scenario, seen and fired through from the loophole hex only, the firer
facing it, +2 cover and concealment for the soldier using it, never moved through."""

from __future__ import annotations

from typing import Any

import pytest

from hexwar.core.engine.game import Game
from hexwar.core.errors import RulesError
from hexwar.plugins.firepower import advanced_fire as af
from hexwar.plugins.firepower import advanced_terrain as at
from hexwar.plugins.firepower import loopholes as lh
from hexwar.plugins.firepower.actions import fire_context
from hexwar.plugins.firepower.advanced_card import advanced_card
from hexwar.plugins.firepower.advanced_impulses import check_advanced_action
from hexwar.plugins.firepower.state import soldiers
from tests.plugins.firepower.test_terrain import _game, _impulse, _refused

LOOP = '[[special.loopholes]]\nbetween = ["4AA6", "4Z5"]\nfloor = 1\n'
WALL = 6  # the hexside of 4AA6 toward 4Z5


def _loop_game(extra: str = LOOP, facing: int = WALL, state: dict[str, Any] | None = None
               ) -> Game:
    return _game([("B1", "RFL", "B", "AA6", facing, dict(state or {})),
                  ("A1", "RFL", "A", "X4", 3, {})], panel=4, extra=extra)


def _hex(game: Game, label: str) -> Any:
    return game.board.parse(label)


def test_a_loophole_lets_the_soldier_in_its_hex_see_out_at_its_height() -> None:
    """Firepower 8.2.4, 12.1.6: the wall blocks without the loophole; with it the soldier in the
    loophole hex sees out at the loophole's heights (a Prone head below it does not)."""
    plain = _loop_game(extra="")
    assert at.blocked_at(plain, (_hex(plain, "4AA6"), 1, 2), (_hex(plain, "4X4"), 1, 2))
    game = _loop_game()
    assert at.blocked_at(game, (_hex(game, "4AA6"), 1, 2), (_hex(game, "4X4"), 1, 2)) is None
    assert at.blocked_at(game, (_hex(game, "4AA6"), 1, 0), (_hex(game, "4X4"), 1, 2))
    assert lh.through(game, _hex(game, "4AA6"), WALL, 1, 2)
    assert not lh.through(game, _hex(game, "4AA6"), WALL, 2, 2)  # on floor 1 only


def test_the_firer_through_a_loophole_faces_it() -> None:
    """Firepower 12.1.6: fire through a loophole only facing its wall; refused otherwise,
    naming the rule, and nothing changes."""
    game = _loop_game(facing=3)
    before = game.state.digest()
    with pytest.raises(RulesError) as exc:
        fire_context(game, "B1", {"act": "fire", "mode": "semi", "targets": ["A1"]})
    assert exc.value.rule == "Firepower 12.1.6"
    assert game.state.digest() == before
    game = _loop_game()
    fire_context(game, "B1", {"act": "fire", "mode": "semi", "targets": ["A1"]})


def test_a_soldier_using_a_loophole_has_plus_two_cover_and_concealment() -> None:
    """Firepower 12.2.3: +2 for a target using a loophole (not also +1); Firepower 12.2.4:
    concealment when the line passes through its wall."""
    game = _loop_game()
    ctx = fire_context(game, "A1", {"act": "fire", "mode": "semi", "targets": ["B1"]})
    f, t = af.firing(ctx), soldiers(game)["B1"]
    cover = af.cover_of(f, t, ctx.firer.hex)
    assert cover == ("loophole", lh.terrain_value())
    mod = af.cover_mod(advanced_card(), cover)
    assert mod.value == 2 and mod.rule == "Firepower 12.2.3"
    assert af.concealed(f, t, ctx.firer.hex)
    upstairs = _loop_game(state={"floor": 2})  # floor 2's window, not the loophole
    ctx = fire_context(upstairs, "A1", {"act": "fire", "mode": "semi", "targets": ["B1"]})
    assert af.cover_of(af.firing(ctx), soldiers(upstairs)["B1"], ctx.firer.hex) is None


def test_a_loophole_is_not_moved_through_and_bad_loopholes_are_refused() -> None:
    """Firepower 8.2.4: too small to move through (the wall stays a wall for movement); a
    loophole must lie in an outer wall of a building on one of its floors."""
    game = _loop_game()
    _impulse(game, "B1")
    _refused(game, {"unit": "B1", "act": "enter"}, "Firepower 11.1.3")
    with pytest.raises(RulesError):
        check_advanced_action(game, {"unit": "B1", "act": "through"})
    for bad in ('[[special.loopholes]]\nbetween = ["4AA5", "4AA6"]\n',   # inside the building
                '[[special.loopholes]]\nbetween = ["4X4", "4X5"]\n',     # no building
                '[[special.loopholes]]\nbetween = ["4AA6", "4Z5"]\nfloor = 3\n',
                '[[special.loopholes]]\nbetween = ["4AA6", "4X4"]\n'):   # not adjacent
        g = _loop_game(extra=bad)
        with pytest.raises(RulesError) as exc:
            lh.loopholes(g)
        assert exc.value.rule == "Firepower 8.2.4"
