"""Bridge units (Firepower 8.9 with 12.3.4.2.5, 13 and 12.1; docs/decisions.md FPD-122 to
FPD-127). On the test panel column C runs down hexside 4; a bridge of two hexes, 1C4 and 1C5,
one contour level down (ground -3), links the originating hexes 1C3 and 1C6 (ground 0): its deck
is at 0, one height thick (its bottom at -1), and a Standing soldier's head under it is at -1."""

from __future__ import annotations

from typing import Any

import pytest

from hexwar.core.engine.game import Game
from hexwar.core.errors import RulesError
from hexwar.plugins.firepower import bridges, defenses
from hexwar.plugins.firepower.state import data
from tests.plugins.firepower.test_defenses import GameFactory, _game, _impulse, _mods
from tests.plugins.firepower.test_defenses_more import FIRE, _act, _refused, _spent

BRG = [{"type": "BRG", "hexes": ["1C4", "1C5"], "ends": ["1C3", "1C6"]}]
LOW = [{"at": "C4", "height": -1}, {"at": "C5", "height": -1}]


def _bridge_game(fp_game: GameFactory, units: list[tuple[Any, ...]],
                 specs: list[dict[str, Any]] | None = None,
                 hexes: list[dict[str, Any]] | None = None) -> Game:
    return _game(fp_game, units, BRG if specs is None else specs,
                 hexes=LOW if hexes is None else hexes)


def _walker(fp_game: GameFactory, at: str = "C3", facing: int = 4, **state: Any) -> Game:
    g = _bridge_game(fp_game, [("A1", "RFL", "A", at, facing, {"model": "RFL10", **state})])
    _impulse(g, "A", "A1")
    return g


def test_smoke(fp_game: GameFactory) -> None:
    g = _walker(fp_game)
    _act(g, {"act": "enter", "unit": "A1"})
    u = g.state.units["A1"]
    print(u.state, _spent(g, "A1"))
