"""Free 60-degree turns (Firepower 11.3.1; docs/decisions.md FPD-142) and moving through
friendly soldiers (Firepower 11.1.1) in the Advanced Game."""

from __future__ import annotations

from typing import Any

from hexwar.core.engine.game import Game
from hexwar.plugins.firepower.actions import apply_action, check_action
from hexwar.plugins.firepower.impulses import new_phase
from hexwar.plugins.firepower.state import data, rules_card
from tests.plugins.firepower.test_terrain import _do, _game, _impulse, _label, _refused

TURN = rules_card(None).mf_cost("turn", "stand")  # type: ignore[arg-type]
FIRE = rules_card(None).mf_cost("fire", "stand")  # type: ignore[arg-type]


def _spent(game: Game, uid: str = "A1") -> int:
    return int(data(game)["phase"]["spent"].get(uid, 0))


def _g(*more: tuple[Any, ...]) -> Game:
    return _game([("A1", "RFL", "A", "C5", 1, {}), ("B1", "RFL", "B", "C9", 4, {}), *more],
                 panel=4)


def test_one_sixty_degree_turn_a_hex_is_free_more_is_paid() -> None:
    """Firepower 11.3.1: the first one-hexside turn in a hex costs nothing; a second in the same
    hex, and any turn of more than 60 degrees, cost the turn's MF; a new hex entered gives a new
    free turn."""
    assert TURN > 0
    game = _g()
    _impulse(game, "A1")
    _do(game, {"unit": "A1", "act": "turn", "to": 2})
    assert _spent(game) == 0
    _do(game, {"unit": "A1", "act": "turn", "to": 1})
    assert _spent(game) == TURN
    _do(game, {"unit": "A1", "act": "enter"})
    after_enter = _spent(game)
    _do(game, {"unit": "A1", "act": "turn", "to": 3})  # 120 degrees: paid
    assert _spent(game) == after_enter + TURN
    _do(game, {"unit": "A1", "act": "turn", "to": 4})  # still a first 60-degree turn here
    assert _spent(game) == after_enter + TURN


def test_the_basic_game_has_no_free_turns() -> None:
    """Firepower 11.3.1 is an Advanced Game rule: in the Basic Game every turn costs (6.2.2)."""
    from hexwar.plugins.firepower import free_turns

    game = _g()
    game.rules_enabled = tuple(r for r in game.rules_enabled if r != "firepower.advanced")
    ph = new_phase("A")
    u = game.state.units["A1"]
    assert not free_turns.is_free(game, ph, u, 2)


def test_a_soldier_who_fires_after_free_turns_pays_them_with_the_fire() -> None:
    """Firepower 11.3.1 (FPD-142): the free turn needs no firing in the Impulse: firing later
    costs the turn's MF too, counted as movement; short of MF, the fire is refused naming the
    rule and nothing changes; after firing no turn is free."""
    game = _g()
    _impulse(game, "A1")
    _do(game, {"unit": "A1", "act": "turn", "to": 6})
    fire = {"unit": "A1", "act": "fire", "mode": "semi", "targets": ["B1"], "after": TURN}
    game.state.units["B1"].hex = game.state.units["A1"].hex.neighbor(6)  # type: ignore[union-attr]
    info = check_action(game, fire)
    assert info["cost"] == FIRE + TURN
    assert info["ctx"].noncombat_mf == 2 * TURN  # the turn counts as moving (6.3.6.2.7)
    apply_action(game, fire)
    assert _spent(game) == FIRE + TURN and not data(game)["phase"].get("owed")
    _do(game, {"unit": "A1", "act": "turn", "to": 1})
    assert _spent(game) == FIRE + 2 * TURN  # fired: turns are paid
    game = _g()
    _impulse(game, "A1")
    game.state.units["B1"].hex = game.state.units["A1"].hex.neighbor(6)  # type: ignore[union-attr]
    _do(game, {"unit": "A1", "act": "turn", "to": 6})
    data(game)["phase"]["spent"]["A1"] = 4 - FIRE - TURN  # enough to fire, not for the turn
    _refused(game, fire, "Firepower 11.3.1")


def test_friendly_soldiers_are_moved_through() -> None:
    """Firepower 11.1.1: a hex holding friendly soldiers is entered and left as any other."""
    game = _g(("A2", "RFL", "A", "C4", 1, {}), ("A3", "RFL", "A", "C3", 1, {}))
    _impulse(game, "A1")
    _do(game, {"unit": "A1", "act": "enter"})
    assert _label(game, "A1") == "4C4"
    _do(game, {"unit": "A1", "act": "enter"})
    assert _label(game, "A1") == "4C3"
    _do(game, {"unit": "A1", "act": "enter"})
    assert _label(game, "A1") == "4C2"


def test_opposing_soldiers_no_melee_can_reach_are_passed() -> None:
    """Firepower 11.1.1 (FPD-144): a hex holding an opposing soldier Up a tree over the mover's
    head is entered without a melee (none shares a height, Firepower 13); one who shares a
    height (feet at 2, the mover's head at 2) still makes it a melee hex, refused as an entry."""
    game = _game([("A1", "RFL", "A", "N6", 1, {}), ("B1", "RFL", "B", "N5", 4, {"up": 7})],
                 panel=1)
    _impulse(game, "A1")
    assert game.state.units["A1"].hex.neighbor(1) == game.board.parse("1N5")  # type: ignore[union-attr]
    _do(game, {"unit": "A1", "act": "enter"})
    assert _label(game, "A1") == "1N5"
    low = _game([("A1", "RFL", "A", "N6", 1, {}), ("B1", "RFL", "B", "N5", 4, {"up": 4})],
                panel=1)
    _impulse(low, "A1")
    _refused(low, {"unit": "A1", "act": "enter"}, "Firepower 6.2.1")


def test_backing_passes_opposing_soldiers_no_melee_can_reach() -> None:
    """Firepower 11.1.1, 11.2.1.2 (FPD-144): backing is entering a hex too, so a soldier backs
    into a hex whose opposing soldier is Up a tree over his head; one at his height still bars
    the hex (only a melee enters it), and the refusal changes nothing."""
    # facing 4 puts hex N5 straight behind the soldier in N6
    game = _game([("A1", "RFL", "A", "N6", 4, {}), ("B1", "RFL", "B", "N5", 4, {"up": 7})],
                 panel=1)
    _impulse(game, "A1")
    _do(game, {"unit": "A1", "act": "back"})
    assert _label(game, "A1") == "1N5"
    low = _game([("A1", "RFL", "A", "N6", 4, {}), ("B1", "RFL", "B", "N5", 4, {"up": 4})],
                panel=1)
    _impulse(low, "A1")
    _refused(low, {"unit": "A1", "act": "back"}, "Firepower 6.2.1")
    assert _label(low, "A1") == "1N6"
