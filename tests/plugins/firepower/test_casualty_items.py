"""What a casualty carried stays in his hex (Firepower 11.1.6.4, 11.1.6.1; docs/decisions.md
FPD-117), and a fallen holder's crew-served weapon is taken over only at once and where it lies
(Firepower 11.1.6.2, FPD-118)."""

from __future__ import annotations

from typing import Any

from hexwar.core.engine.game import Game
from hexwar.plugins.firepower.state import data, eliminate
from tests.plugins.firepower.test_terrain import _do, _game, _impulse, _refused
from tests.plugins.firepower.test_weapons import _lcw_game


def _lying(game: Game, label: str) -> dict[str, int]:
    return dict((data(game).get("dropped") or {}).get(label) or {})


def _pair() -> tuple[Game, str]:
    units: list[tuple[Any, ...]] = [
        ("A1", "RFL", "A", "C5", 2, {"model": "SMG1"}),
        ("A2", "RFL", "A", "C5", 2, {"model": "RFL10"}),
        ("B1", "RFL", "B", "C12", 5, {"model": "RFL10"}),
    ]
    game = _game(units)
    for uid, eq in (("A1", {"HGN3": 2, "BDA": 1}), ("A2", {}), ("B1", {})):
        game.state.units[uid].state["equipment"] = eq
    at = game.state.units["A1"].hex
    assert at is not None
    return game, game.board.label(at)


def test_a_casualtys_weapon_and_items_stay_in_his_hex() -> None:
    # Firepower 11.1.6.4: the casualty's location keeps his weapon and equipment
    game, here = _pair()
    eliminate(game, "A1", "B", "Firepower 6.3.6.3.1")
    a1 = game.state.units["A1"].state
    assert a1["fell_at"] == here and a1["equipment"] == {} and a1["model"] == ""
    assert _lying(game, here) == {"HGN3": 2, "BDA": 1, "SMG1@A": 1}


def test_a_friend_picks_up_what_the_casualty_carried() -> None:
    # Firepower 11.1.6.1: items for 1 MF each, his weapon once the friend's own is discarded
    game, here = _pair()
    eliminate(game, "A1", "B", "Firepower 6.3.6.3.1")
    _impulse(game, "A2")
    _do(game, {"unit": "A2", "act": "acquire", "what": "HGN3"})
    assert game.state.units["A2"].state["equipment"] == {"HGN3": 1}  # one an Action (FPD-88)
    assert data(game)["phase"]["spent"]["A2"] == 1
    _refused(game, {"unit": "A2", "act": "acquire", "what": "SMG1@A"}, "Firepower 11.1.6.1")
    _do(game, {"unit": "A2", "act": "discard", "what": "weapon"})
    _do(game, {"unit": "A2", "act": "acquire", "what": "SMG1@A"})
    assert game.state.units["A2"].state["model"] == "SMG1"
    assert _lying(game, here) == {"HGN3": 1, "BDA": 1, "RFL10@A": 1}


def test_a_basic_game_casualty_leaves_nothing_recorded(fp_game: Any) -> None:
    # the Basic Game has no organization lists (FPD-117: nothing changes there)
    g = fp_game([("A1", "RFL", "A", "C5", 2), ("B1", "RFL", "B", "C12", 5)])
    eliminate(g, "A1", "B", "Firepower 6.3.6.3.1")
    assert "dropped" not in data(g) and "fell_at" not in g.state.units["A1"].state


def _crewed_mmg() -> tuple[Game, str]:
    game, _ = _lcw_game(crew=3)
    game.state.units["A1"].state["model"] = "MMG2"
    _impulse(game, "A2", "A3")
    for uid in ("A2", "A3"):
        _do(game, {"unit": uid, "act": "acquire", "what": "A1"})
    here = game.board.label(game.state.units["A1"].hex)  # type: ignore[arg-type]
    return game, here


def test_the_take_over_is_closed_by_another_action_first() -> None:
    # Firepower 11.1.6.2 (FPD-118): "immediately": a turn before the discard closes it; the
    # weapon then lies in the hex and is acquired for its MF like any other
    game, here = _crewed_mmg()
    eliminate(game, "A1", None, "Firepower 6.3.6.3.1")
    assert _lying(game, here)["MMG2@A"] == 1
    _impulse(game, "A2")
    _do(game, {"unit": "A2", "act": "turn", "to": 3})
    _do(game, {"unit": "A2", "act": "discard", "what": "weapon"})
    before = game.state.digest()
    _refused(game, {"unit": "A2", "act": "acquire", "what": "A1"}, "Firepower 11.1.6.2")
    assert game.state.digest() == before
    spent = data(game)["phase"]["spent"]["A2"]
    _do(game, {"unit": "A2", "act": "acquire", "what": "MMG2@A"})
    a2 = game.state.units["A2"].state
    assert a2["model"] == "MMG2" and "crew_of" not in a2
    assert data(game)["phase"]["spent"]["A2"] == spent + 1


def test_the_take_over_is_only_in_the_hex_where_he_fell() -> None:
    # Firepower 11.1.6.2, 10.1: a crewman away from the holder when he falls is no crewman
    game, _here = _crewed_mmg()
    a3 = game.state.units["A3"]
    assert a3.hex is not None
    a3.hex = a3.hex.neighbor(5)
    eliminate(game, "A1", None, "Firepower 6.3.6.3.1")
    _impulse(game, "A3")
    _do(game, {"unit": "A3", "act": "discard", "what": "weapon"})
    _refused(game, {"unit": "A3", "act": "acquire", "what": "A1"}, "Firepower 11.1.6.2")


def test_discarding_another_item_first_closes_the_take_over() -> None:
    game, _here = _crewed_mmg()
    game.state.units["A2"].state["equipment"] = {"HGN3": 1}
    eliminate(game, "A1", None, "Firepower 6.3.6.3.1")
    _impulse(game, "A2")
    _do(game, {"unit": "A2", "act": "discard", "what": "HGN3"})
    _do(game, {"unit": "A2", "act": "discard", "what": "weapon"})
    _refused(game, {"unit": "A2", "act": "acquire", "what": "A1"}, "Firepower 11.1.6.2")


def test_the_take_over_window_is_kept_in_the_state_not_read_from_the_log() -> None:
    # FPD-118: the window is the state's record (``take_over``), closed by the Action itself, so
    # a log that is trimmed or rebuilt (a game restored from its state) does not reopen it
    game, _here = _crewed_mmg()
    eliminate(game, "A1", None, "Firepower 6.3.6.3.1")
    assert set(data(game)["take_over"]) == {"A2", "A3"}
    assert "since" not in data(game)["take_over"]["A2"]
    _impulse(game, "A2", "A3")
    _do(game, {"unit": "A2", "act": "turn", "to": 3})
    assert set(data(game)["take_over"]) == {"A3"}  # closed by the turn, in the state
    game.log.events.clear()  # the log no longer holds the turn
    _do(game, {"unit": "A2", "act": "discard", "what": "weapon"})
    _refused(game, {"unit": "A2", "act": "acquire", "what": "A1"}, "Firepower 11.1.6.2")
    # A3, who did nothing else, still takes it over after discarding his own weapon
    _do(game, {"unit": "A3", "act": "discard", "what": "weapon"})
    _do(game, {"unit": "A3", "act": "acquire", "what": "A1"})
    assert game.state.units["A3"].state["model"] == "MMG2" and "take_over" not in data(game)
