"""The 12.2.3 "peering" cover of a climber at the top (Firepower 12.2.3 with 11.1.11, 11.1.11.2,
8.8.5.4; docs/decisions.md FPD-129): a soldier still marked climbing at the top of a wall, a
height hexside or a roadblock has it for cover against fire from beyond it, and only then."""

from __future__ import annotations

from typing import Any

import pytest

from hexwar.core.engine.game import Game
from hexwar.core.errors import RulesError
from hexwar.plugins.firepower import advanced_fire as af
from tests.plugins.firepower.test_climbing import adv_map
from tests.plugins.firepower.test_defenses import GameFactory, _mods
from tests.plugins.firepower.test_defenses import _act as _d_act
from tests.plugins.firepower.test_defenses import _game as _d_game
from tests.plugins.firepower.test_defenses import _impulse as _d_impulse
from tests.plugins.firepower.test_defenses_roadblocks import RBL
from tests.plugins.firepower.test_terrain import _do, _game, _impulse

PEERING = "Firepower 12.2.3:target in cover (peering over the {})"


def _fire(uid: str, target: str) -> dict[str, Any]:
    return {"act": "fire", "unit": uid, "mode": "semi", "targets": [target]}


def _cover(game: Game, firer: str, target: str) -> dict[str, int] | None:
    """The 12.2.3 modifiers of ``firer``'s fire at ``target`` (None: no line of sight)."""
    try:
        mods = _mods(game, firer, _fire(firer, target), target)
    except RulesError:
        return None
    return {k: v for k, v in mods.items() if k.startswith("Firepower 12.2.3")}


def _scale(game: Game, uid: str, steps: int) -> None:
    """``steps`` heights of ``uid``'s climb, two Actions an Impulse (four MF a Phase)."""
    for n in range(steps):
        if n % 2 == 0:
            _impulse(game, uid)
        _do(game, {"unit": uid, "act": "scale", "to": "on"})


def _wall_game() -> Game:
    """B1 Standing in 4C5 facing 2, a free-standing wall of 4 heights on that hexside; A1 beyond
    it in 4E4, A2 on B1's side in 4A6."""
    game = _game([("B1", "RFL", "B", "C5", 2, {"model": "RFL10"}),
                  ("A1", "RFL", "A", "E4", 5, {"model": "RFL10"}),
                  ("A2", "RFL", "A", "A6", 2, {"model": "RFL10"})])
    u = game.state.units["B1"]
    assert u.hex is not None
    from hexwar.plugins.firepower.advanced_terrain import side_key

    adv_map(game).walls[side_key(u.hex, u.hex.neighbor(2))] = 4
    return game


def test_a_climber_on_top_of_a_wall_peers_over_it() -> None:
    """Firepower 12.2.3: B1 with his feet on the wall's top (four heights up) has the wall for
    cover (+1) against A1 beyond it, not against A2 behind him; one height lower, or one down the
    far face, none."""
    game = _wall_game()
    _scale(game, "B1", 3)
    _impulse(game, "A1")
    assert not _cover(game, "A1", "B1")  # not at the top yet
    _scale(game, "B1", 1)
    assert game.state.units["B1"].state["climb"]["step"] == 4
    _impulse(game, "A1")
    assert _cover(game, "A1", "B1") == {PEERING.format("wall"): 1}
    _impulse(game, "A2")
    assert not _cover(game, "A2", "B1")
    _scale(game, "B1", 1)  # down one height on the far face
    _impulse(game, "A1")
    assert not _cover(game, "A1", "B1")


def test_a_climber_at_the_top_of_a_height_hexside_peers_over_it() -> None:
    """Firepower 12.2.3, 11.1.11.2: B1 climbing the 3-height hexside from 4V12 up to 4W12 peers
    over the edge at his last height before entering (step 2 of 3), against A1 on the hill
    beyond; not at step 1."""
    game = _game([("B1", "RFL", "B", "V12", 2, {"model": "RFL10"}),
                  ("A1", "RFL", "A", "X11", 5, {"model": "RFL10"})])
    top = game.board.parse("4W12")
    adv_map(game).ground[top] = 12  # over ten heights: climbed (Firepower 11.2.4)
    for h in (game.board.parse("4X11"), game.board.parse("4X12")):
        adv_map(game).ground[h] = 12
    u = game.state.units["B1"]
    _scale(game, "B1", 10)
    assert u.state["climb"]["step"] == 10
    _impulse(game, "A1")
    assert _cover(game, "A1", "B1") == {}  # seen, not yet at the top
    _scale(game, "B1", 1)
    assert u.state["climb"]["step"] == 11 and u.state["climb"]["total"] == 12
    _impulse(game, "A1")
    assert _cover(game, "A1", "B1") == {PEERING.format("hexside"): 1}
    assert af.peering(game)["B1"] == ("hexside", 2, 10_000)


@pytest.mark.parametrize(("firer", "facing"), [("C6", 1), ("C2", 4)])
def test_a_climber_on_top_of_a_roadblock_peers_over_it(fp_game: GameFactory, firer: str,
                                                        facing: int) -> None:
    """Firepower 12.2.3, 8.8.5.4: B1 climbing the roadblock of 1C4 from the part of hexside 1:
    on its top (three heights up) he peers over it, in cover against A1 on the far part's side
    (1C6) only; down the far face he is on the far part (FPD-129): the roadblock now covers him
    against fire from the side he came from, not from the far side."""
    g = _d_game(fp_game, [("A1", "RFL", "A", firer, facing, {"model": "RFL10"}),
                          ("B1", "RFL", "B", "C4", 4, {"model": "RFL10", "side": 1})], RBL)
    far = firer == "C6"
    seen = []
    for _ in range(4):
        _d_impulse(g, "B", "B1")
        _d_act(g, {"act": "climb", "unit": "B1", "what": "roadblock", "to": "on"})
        _d_impulse(g, "A", "A1")
        seen.append(_cover(g, "A1", "B1"))
    peer = {PEERING.format("roadblock"): 1}
    fence = {"Firepower 12.2.3:target in cover (fence)": 1}
    if far:
        assert seen[2] == peer and seen[3] == {}
    else:
        assert seen[2] == {} and seen[3] == fence
    assert g.state.units["B1"].state["side"] == 3  # the far part, on the far face
