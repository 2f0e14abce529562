"""The Advanced AI's doors and windows in its movement plans (Firepower 11.1.3, 11.1.9,
docs/decisions.md FPD-160): it opens a closed door from inside and goes through it to a hex it
can fire from, or to its objective; upstairs it opens a closed window to fire out of it."""

from __future__ import annotations

from typing import Any

from hexwar.core.engine.decisions import Decision
from hexwar.core.engine.game import Game
from hexwar.plugins.firepower.advanced_impulses import legal_advanced_actions
from hexwar.plugins.firepower.advanced_terrain import adv_map
from hexwar.plugins.firepower.ai import make_ai
from hexwar.plugins.firepower.state import data
from tests.plugins.firepower.test_ai_advanced_moves import VICTORY
from tests.plugins.firepower.test_terrain import _do, _game, _impulse


def _close_all(game: Game, building: str) -> None:
    """Firepower 8.2.5: every door and window of ``building`` closed."""
    m = adv_map(game)
    for o in m.openings.values():
        if m.building_of.get(o.inside) == building:
            data(game).setdefault("openings", {})[o.key] = "closed"


def _play_impulse(game: Game, side: str, uid: str, limit: int = 10) -> list[Any]:
    """The AI's Actions for ``uid`` in one Impulse, applied one by one, up to its "end" (at most
    ``limit`` of them)."""
    _impulse(game, uid)
    done: list[Any] = []
    for _ in range(limit):
        opts = legal_advanced_actions(game)
        choice = make_ai(side, 1).choose(Decision(side, "action", options=opts),
                                         game.view(side))
        assert choice in opts  # the decision takes only listed fields (core Decision.check)
        done.append(choice)
        if choice == "end":
            break
        _do(game, choice)
    return done


def _label(game: Game, uid: str) -> str:
    h = game.state.units[uid].hex
    assert h is not None
    return game.board.label(h)


def test_the_defender_opens_the_door_and_goes_out_to_fire() -> None:
    """Firepower 11.1.9, 11.1.3 (FPD-160): B1 stands in 4R4 of building C (every door and
    window closed) facing its door onto 4Q5; the enemy in 4Q1 is out of sight from every hex
    and floor of the building, doors and windows open or not, but in sight from 4Q5. The only
    way to a shot is to open the door, go through it and turn to him."""
    game = _game([("B1", "RFL", "B", "R4", 5, {}),
                  ("A1", "RFL", "A", "Q1", 1, {"status": "stunned"})])
    _close_all(game, "C")
    done = _play_impulse(game, "B", "B1")
    assert done[:2] == [{"unit": "B1", "act": "door", "side": 5, "to": "open"},
                        {"unit": "B1", "act": "through"}]
    assert _label(game, "B1") == "4Q5"
    # the next Impulse he fires from there
    done = _play_impulse(game, "B", "B1")
    assert any(isinstance(c, dict) and c.get("act") == "fire" for c in done)


def test_the_attacker_turns_opens_the_door_and_goes_through_to_his_objective() -> None:
    """Firepower 11.1.9, 11.1.3 (FPD-160): A1 in 4R4 faces away from the closed door; the
    objective is the hex beyond it. He turns to the door, opens it and goes through."""
    game = _game([("A1", "RFL", "A", "R4", 1, {})], extra=VICTORY.format(hexes='"4Q5"'))
    _close_all(game, "C")
    done = _play_impulse(game, "A", "A1")
    assert done[:3] == [{"unit": "A1", "act": "turn", "to": 5},
                        {"unit": "A1", "act": "door", "side": 5, "to": "open"},
                        {"unit": "A1", "act": "through"}]
    assert _label(game, "A1") == "4Q5"


def test_an_impulse_short_of_mf_opens_the_door_now_and_crosses_it_next() -> None:
    """Firepower 11.1.9, 11.1.3 (FPD-160): with only two MF left A1 cannot open the door and go
    through it too (one MF for the door, two for the crossing and the hex beyond); he opens it
    now and goes through in his next Impulse."""
    game = _game([("A1", "RFL", "A", "R4", 5, {})], extra=VICTORY.format(hexes='"4Q5"'))
    _close_all(game, "C")
    ph = _impulse(game, "A1")
    ph["spent"]["A1"] = 2
    opts = legal_advanced_actions(game)
    choice = make_ai("A", 1).choose(Decision("A", "action", options=opts), game.view("A"))
    assert choice == {"unit": "A1", "act": "door", "side": 5, "to": "open"}
    _do(game, choice)
    done = _play_impulse(game, "A", "A1")
    assert done[0] == {"unit": "A1", "act": "through"}


def test_upstairs_the_defender_opens_a_window_to_fire_out_of_it() -> None:
    """Firepower 11.1.9, 8.2.3 (FPD-160): B1 on the second floor of building A, every window
    closed; an enemy in the street is in sight through the window of his hex onto 4Z5. He opens
    it (and fires through it)."""
    game = _game([("B1", "RFL", "B", "AA5", 5, {"floor": 2}),
                  ("A1", "RFL", "A", "V7", 2, {"status": "stunned"})])
    _close_all(game, "A")
    done = _play_impulse(game, "B", "B1")
    assert isinstance(done[0], dict) and done[0]["act"] == "door" and done[0]["to"] == "open"
    assert _label(game, "B1") == "4AA5"
    assert any(isinstance(c, dict) and c.get("act") == "fire" for c in done)


def test_no_door_is_opened_for_nothing() -> None:
    """FPD-160: with no enemy and no objective a closed door stays closed."""
    game = _game([("B1", "RFL", "B", "R4", 5, {}), ("A1", "RFL", "A", "A1", 1, {})])
    _close_all(game, "C")
    done = _play_impulse(game, "B", "B1")
    assert not any(isinstance(c, dict) and c.get("act") in ("door", "through") for c in done)
