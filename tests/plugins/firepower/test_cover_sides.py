"""Cover by side in the Advanced Game's tree, stump and well hexes (Firepower 10.4,
10.4.1-10.4.6; docs/decisions.md FPD-139): places marked by a direction unit, the ``cover_side``
Action, the stacking of places, Up a tree, stumps and wells from the scenario, and the effect in
the Advanced fire."""

from __future__ import annotations

from typing import Any

import pytest

from hexwar.core.engine.game import Game
from hexwar.core.errors import RulesError
from hexwar.plugins.firepower import advanced_fire as af
from hexwar.plugins.firepower import cover_sides as cs
from hexwar.plugins.firepower.actions import fire_context
from hexwar.plugins.firepower.advanced_terrain import exit_sides
from hexwar.plugins.firepower.state import data, soldiers
from tests.plugins.firepower.test_terrain import _do, _game, _impulse, _refused

TREE = "N5"  # a tree hex of stand-in panel 1
FIRER = "N9"


def _tree_game(*extra_units: tuple[Any, ...], extra: str = "", at: str = TREE) -> Game:
    units = [("A1", "RFL", "A", FIRER, 1, {}), ("B1", "RFL", "B", at, 4, {}), *extra_units]
    return _game(units, panel=1, extra=extra)


def _toward_firer(game: Game, uid: str = "B1") -> int:
    """The hexside of the target's hex the line of sight from the firer crosses."""
    t, f = game.state.units[uid].hex, game.state.units["A1"].hex
    assert t is not None and f is not None
    got = exit_sides(t, f)
    assert len(got) == 1
    return got[0]


def _cover(game: Game, uid: str = "B1", item: str | None = None) -> tuple[str, int] | None:
    choice: dict[str, Any] = {"act": "fire", "mode": "semi", "targets": [uid]}
    ctx = fire_context(game, "A1", choice)
    f = af.firing(ctx)
    return af.cover_of(f, soldiers(game)[uid], ctx.firer.hex)


def _place(game: Game, uid: str, at: str, toward: int) -> None:
    _impulse(game, uid)
    _do(game, {"unit": uid, "act": "cover_side", "at": at, "toward": toward})


def test_a_side_place_covers_against_lines_over_its_two_hexsides_only() -> None:
    """Firepower 10.4, 10.4.1: cover only when the line of sight crosses one of the two hexsides
    of the soldier's side place (not in all directions as in the Basic Game)."""
    game = _tree_game()
    d = _toward_firer(game)
    _place(game, "B1", "side", d)
    assert _cover(game) == ("tree", af.TREE_TV)
    _place(game, "B1", "side", d % 6 + 1)  # covers d+1, d+2: the firer's line is not among them
    assert _cover(game) is None
    _place(game, "B1", "side", (d - 2) % 6 + 1)  # covers d-1 and d
    assert _cover(game) == ("tree", af.TREE_TV)
    assert cs.hexsides_of("side", 6) == {6, 1}


def test_the_rear_place_covers_three_hexsides_and_fires_no_major_weapon() -> None:
    """Firepower 10.4.2: the rear place covers three hexsides; from it the soldier fires no major
    personal weapon (refused naming the rule, nothing changed)."""
    game = _tree_game()
    d = _toward_firer(game)
    _place(game, "B1", "rear", d % 6 + 1)  # covers d, d+1, d+2
    assert _cover(game) == ("tree", af.TREE_TV)
    _place(game, "B1", "rear", (d + 1) % 6 + 1)  # covers d+1, d+2, d+3
    assert _cover(game) is None
    assert cs.hexsides_of("rear", 1) == {6, 1, 2}
    before = game.state.digest()
    with pytest.raises(RulesError) as exc:
        fire_context(game, "B1", {"act": "fire", "mode": "semi", "targets": ["A1"]})
    assert exc.value.rule == "Firepower 10.4.2"
    assert game.state.digest() == before
    _place(game, "B1", "side", 1)
    fire_context(game, "B1", {"act": "fire", "mode": "semi", "targets": ["A1"]})  # a side: fires


def test_changing_places_takes_the_impulse_and_no_mf_and_bad_places_are_refused() -> None:
    """Firepower 10.4.3: a soldier changes places only in his Impulse, spending no MF; outside a
    tree, stump or well hex there is no place (Firepower 10.4); bad choices change nothing."""
    game = _tree_game(("B2", "RFL", "B", "C5", 1, {}))
    ph = _impulse(game, "B1")
    _do(game, {"unit": "B1", "act": "cover_side", "at": "rear", "toward": 2})
    assert data(game)["phase"]["spent"].get("B1", 0) == 0
    rec = game.state.units["B1"].state["cover_side"]
    assert (rec["hex"], rec["at"], rec["toward"]) == ("1" + TREE, "rear", 2)
    _refused(game, {"unit": "B1", "act": "cover_side", "at": "rear", "toward": 2},
             "Firepower 10.4.3")
    _refused(game, {"unit": "B1", "act": "cover_side", "at": "top", "toward": 2}, "Firepower 10.4")
    _refused(game, {"unit": "B1", "act": "cover_side", "at": "side", "toward": 7}, "Firepower 10.4")
    _refused(game, {"unit": "B2", "act": "cover_side", "at": "side", "toward": 2}, "Firepower 6.1")
    ph["active"] = ["B1", "B2"]
    _refused(game, {"unit": "B2", "act": "cover_side", "at": "side", "toward": 2}, "Firepower 10.4")


def test_one_soldier_a_place_is_covered_the_bottom_of_the_stack() -> None:
    """Firepower 10.4.4: of two soldiers at one place only the first placed (the bottom of the
    stack) has the cover; a soldier at another place has his own."""
    game = _tree_game(("B2", "RFL", "B", TREE, 4, {}), ("B3", "RFL", "B", TREE, 4, {}))
    d = _toward_firer(game)
    _place(game, "B2", "side", d)
    _place(game, "B1", "side", d)
    _place(game, "B3", "rear", d)
    assert _cover(game, "B2") is not None
    assert _cover(game, "B1") is None  # on top of B2 at the same place
    assert _cover(game, "B3") is not None


def test_up_a_tree_has_no_cover_in_any_direction() -> None:
    """Firepower 10.4.5: a soldier Up a tree is covered from nowhere (concealment stays)."""
    game = _tree_game()
    d = _toward_firer(game)
    _place(game, "B1", "side", d)
    game.state.units["B1"].state["up"] = 5
    assert _cover(game) is None


def test_a_place_is_left_behind_and_the_default_faces_the_trunk() -> None:
    """FPD-139: with no place taken in his hex a soldier is at the side place toward his facing;
    a record made in another hex is not his place here."""
    game = _tree_game()
    d = _toward_firer(game)
    u = game.state.units["B1"]
    u.facing = d
    assert _cover(game) is not None
    u.state["cover_side"] = {"hex": "1O4", "at": "side", "toward": d % 6 + 1, "n": 1}
    assert _cover(game) is not None  # the O4 record does not count in N5
    u.facing = (d + 2) % 6 + 1
    assert _cover(game) is None


def test_stumps_and_wells_of_the_scenario_cover_by_sides_without_concealment() -> None:
    """Firepower 10.4.6: a scenario's stump (or well) hex covers by sides like a tree and gives
    no concealment; a label off the board is refused naming the rule."""
    game = _tree_game(extra='stumps = ["1C7"]\nwells = ["1C9"]', at="C7")
    d = _toward_firer(game)
    _place(game, "B1", "side", d)
    assert _cover(game) == ("stump", cs.STUMP_TV)
    _place(game, "B1", "side", d % 6 + 1)
    assert _cover(game) is None
    ctx = fire_context(game, "A1", {"act": "fire", "mode": "semi", "targets": ["B1"]})
    assert not af.concealed(af.firing(ctx), soldiers(game)["B1"], ctx.firer.hex)
    assert cs.objects(game) == {game.board.parse("1C7"): "stump", game.board.parse("1C9"): "well"}
    bad = _tree_game(extra='stumps = ["1ZZ99"]')
    with pytest.raises(RulesError) as exc:
        cs.objects(bad)
    assert exc.value.rule == "Firepower 10.4.6"


def test_a_stump_between_blocks_low_lines_by_its_height() -> None:
    """Firepower 10.4.6, 12.1.5: a stump is one height high and blocks a line through its hex
    that passes below its top (two Prone soldiers), not one above it (two Standing)."""
    from hexwar.plugins.firepower.advanced_los import line_of_sight, los_world

    game = _tree_game(extra='stumps = ["1N7"]', at="N5")
    plain = _tree_game(at="N5")
    a, b = game.board.parse("1N9"), game.board.parse("1N5")
    assert line_of_sight(los_world(game), a, b, 0, 0).blocked
    assert not line_of_sight(los_world(game), a, b, 2, 2).blocked
    a2, b2 = plain.board.parse("1N9"), plain.board.parse("1N5")
    assert not line_of_sight(los_world(plain), a2, b2, 0, 0).blocked


def test_a_well_between_blocks_only_lines_through_its_picture() -> None:
    """Firepower 12.1.5, 10.4.6 (FPD-185): a well one height high blocks a low line only where
    the line passes through its picture at the hex's centre; a line through another part of its
    hex is not blocked, as it would be by a stump there."""
    from hexwar.plugins.firepower.advanced_los import intervening, line_of_sight, los_world

    game = _tree_game(extra='wells = ["1N7"]', at="N5")
    a, well = game.board.parse("1N9"), game.board.parse("1N7")
    through, aside = game.board.parse("1N5"), game.board.parse("1M5")
    assert well in intervening(a, through) and well in intervening(a, aside)
    world = los_world(game)
    got = line_of_sight(world, a, through, 0, 0)
    assert got.blocked and got.reason.startswith("1N7: well at height 1")
    assert not line_of_sight(world, a, through, 2, 2).blocked  # above its top
    assert not line_of_sight(world, a, aside, 0, 0).blocked  # past the picture
    stump = _tree_game(extra='stumps = ["1N7"]', at="N5")
    assert line_of_sight(los_world(stump), a, aside, 0, 0).blocked  # a stump: the whole hex
