"""The Advanced AI's places around a tree (Firepower 10.4, 10.4.1, 10.4.3, 10.4.4;
docs/decisions.md FPD-139, FPD-161): in the tree hex 4EE2 of panel 4 it takes the place whose
covered hexsides the enemy's fire comes in by, changes it when the enemy is elsewhere, and leaves
a place another soldier of its side holds first."""

from __future__ import annotations

from typing import Any

from hexwar.core.engine.game import Game
from hexwar.plugins.firepower.advanced_impulses import legal_advanced_actions
from hexwar.plugins.firepower.ai_cover import covered
from tests.plugins.firepower.test_ai_doors import _play_impulse
from tests.plugins.firepower.test_terrain import _game, _impulse

TREE = "4EE2"
#: from 4EE2 the line to 4EE8 leaves over hexside 4, to 4Y4 over 5, to 4Y1 over 6
SOUTH, WEST, NORTH_WEST = "EE8", "Y4", "Y1"


def _actions(game: Game, uid: str) -> list[Any]:
    """The AI's Actions for side B's ``uid`` in one Impulse, applied one by one, up to its "end"."""
    return _play_impulse(game, "B", uid, limit=8)


def _record(game: Game, uid: str, toward: int, n: int = 1) -> Game:
    """``uid`` took the side place toward ``toward`` in the tree hex (the ``n``-th place)."""
    game.state.units[uid].state["cover_side"] = {"hex": TREE, "at": "side", "toward": toward,
                                                 "n": n}
    return game


def _covers(game: Game, uid: str, *enemies: str) -> bool:
    u = game.state.units[uid]
    rec = u.state["cover_side"]
    assert rec["hex"] == TREE
    h = game.board.parse(TREE)
    return all(covered(h, rec["at"], rec["toward"], game.board.parse("4" + e)) for e in enemies)


def test_the_ai_takes_the_side_of_the_tree_facing_both_enemies_before_it_fires() -> None:
    """Firepower 10.4, 10.4.1: B1 faces west (his place by default: hexsides 5 and 6); a
    rifleman south of him fires in over hexside 4. The side place toward 4 covers 4 and 5: both
    enemies. He takes it first (no MF, Firepower 10.4.3), then fires."""
    game = _game([("B1", "RFL", "B", "EE2", 5, {}), ("A1", "RFL", "A", SOUTH, 1, {}),
                  ("A2", "RFL", "A", WEST, 1, {})])
    done = _actions(game, "B1")
    assert done[0] == {"unit": "B1", "act": "cover_side", "at": "side", "toward": 4}
    assert _covers(game, "B1", SOUTH, WEST)
    assert any(isinstance(c, dict) and c.get("act") == "fire" for c in done)


def test_the_ai_changes_sides_when_the_threat_comes_from_elsewhere() -> None:
    """Firepower 10.4.3: B1's place covers hexsides 4 and 5; the only enemy now fires in over
    hexside 6. He changes sides to cover him."""
    game = _record(_game([("B1", "RFL", "B", "EE2", 5, {}),
                          ("A1", "RFL", "A", NORTH_WEST, 1, {})]), "B1", 4)
    done = _actions(game, "B1")
    assert isinstance(done[0], dict) and done[0]["act"] == "cover_side"
    assert _covers(game, "B1", NORTH_WEST)


def test_the_ai_keeps_a_place_that_covers_it() -> None:
    """Firepower 10.4.3: a change of sides that gains nothing is not made."""
    game = _record(_game([("B1", "RFL", "B", "EE2", 5, {}), ("A1", "RFL", "A", SOUTH, 1, {}),
                          ("A2", "RFL", "A", WEST, 1, {})]), "B1", 4)
    done = _actions(game, "B1")
    assert not any(isinstance(c, dict) and c.get("act") == "cover_side" for c in done)


def test_the_ai_leaves_the_place_another_soldier_holds_first() -> None:
    """Firepower 10.4.4: B2 took the side place toward 4 first; a second soldier there would
    have no cover, so B1 takes another place that covers the southern rifleman."""
    game = _record(_game([("B1", "RFL", "B", "EE2", 1, {}), ("B2", "RFL", "B", "EE2", 4, {}),
                          ("A1", "RFL", "A", SOUTH, 1, {}), ("A2", "RFL", "A", WEST, 1, {})]),
                   "B2", 4)
    done = _actions(game, "B1")
    assert isinstance(done[0], dict) and done[0]["act"] == "cover_side"
    assert (done[0]["at"], done[0]["toward"]) != ("side", 4)
    assert _covers(game, "B1", SOUTH) or _covers(game, "B1", WEST)


def test_no_place_is_taken_out_of_a_tree_hex_or_with_no_enemy_in_sight() -> None:
    """Firepower 10.4: only trees, stumps and wells have places."""
    game = _game([("B1", "RFL", "B", "EE5", 5, {}), ("A1", "RFL", "A", SOUTH, 1, {})])
    assert not any(isinstance(c, dict) and c.get("act") == "cover_side"
                   for c in _actions(game, "B1"))
    game = _game([("B1", "RFL", "B", "EE2", 5, {}), ("A1", "RFL", "A", "A1", 1, {})])
    assert not any(isinstance(c, dict) and c.get("act") == "cover_side"
                   for c in _actions(game, "B1"))


def test_the_places_are_listed_in_the_action_options() -> None:
    """Firepower 10.4.3 (FPD-161): a decision takes only the fields its options show, so every
    place but the one he recorded is listed for a soldier in a tree hex, none elsewhere."""
    game = _record(_game([("B1", "RFL", "B", "EE2", 5, {}), ("B2", "RFL", "B", "EE5", 5, {})]),
                   "B1", 4)
    _impulse(game, "B1", "B2")
    places = [o for o in legal_advanced_actions(game)
              if isinstance(o, dict) and o.get("act") == "cover_side"]
    assert len(places) == 11 and all(o["unit"] == "B1" for o in places)
    assert {"unit": "B1", "act": "cover_side", "at": "side", "toward": 4} not in places


def test_the_rear_place_costs_the_shot_given_up() -> None:
    """Firepower 10.4.2 (FPD-161): no major personal weapon is fired from the rear of the
    trunk, so the rear place is charged the soldier's best shot. Three riflemen come in over
    hexsides 4, 5 and 6 of 4EE2: the rear place toward 5 covers all three, a side place two;
    with a shot worth 0.5 he takes a side place, with none the rear."""
    from hexwar.plugins.firepower.ai_cover import best_place, place_value

    game = _game([("B1", "RFL", "B", "EE2", 5, {})])
    h = game.board.parse(TREE)
    threats = [(game.board.parse("4" + e), 0.3) for e in (SOUTH, WEST, NORTH_WEST)]
    assert abs(place_value(h, "rear", 5, threats, set(), 0.5) - (0.3 * 0.9 - 0.5)) < 1e-9
    assert abs(place_value(h, "side", 5, threats, set(), 0.5) - 0.3 * 0.6) < 1e-9
    best = best_place(h, ("side", 1), threats, set(), 0.5)
    assert best is not None and best[0][0] == "side"
    best = best_place(h, ("side", 1), threats, set(), 0.0)
    assert best is not None and best[0] == ("rear", 5)
