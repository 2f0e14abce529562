"""Exiting the board in the Advanced Game (Firepower 10.2; docs/decisions.md FPD-140): the
scenario's exit sides, the ``exit_board`` Action from an edge hex facing off the board, no
return, and exits scoring victory points where the scenario says so."""

from __future__ import annotations

from typing import Any

from hexwar.core.engine.game import Game
from hexwar.plugins.firepower import entry, exits
from hexwar.plugins.firepower.state import board_columns, column_of, data
from hexwar.plugins.firepower.victory import victory_points
from tests.plugins.firepower.test_terrain import _do, _game, _impulse, _refused

EXITS = '[special.exits]\nA = ["2/3"]\n'


def _edge(game: Game, last: bool) -> tuple[str, int]:
    """An edge hex of the first or last column and the facing off the board across it."""
    lo, hi = board_columns(game)
    col = hi if last else lo
    for h in sorted(game.board.hexes, key=lambda x: game.board.label(x)):
        if column_of(game, h) != col:
            continue
        for d in range(1, 7):
            n = h.neighbor(d)
            if n not in game.board.hexes and (n.q > h.q if last else n.q < h.q):
                return game.board.label(h)[1:], d
    raise AssertionError("no edge hex")


def _exit_game(extra: str = EXITS, last: bool = True, state: dict[str, Any] | None = None,
               facing: int | None = None) -> Game:
    probe = _game([("A1", "RFL", "A", "C5", 1, {})], panel=1)
    label, d = _edge(probe, last)
    return _game([("A1", "RFL", "A", label, d if facing is None else facing, dict(state or {})),
                  ("A2", "RFL", "A", "C5", 1, {}), ("B1", "RFL", "B", "C9", 1, {})],
                 panel=1, extra=extra)


def test_a_soldier_exits_from_an_edge_hex_facing_off_the_board_for_an_enter_cost() -> None:
    """Firepower 10.2: in an edge hex of a side his side may exit by, facing off the board, he
    pays the MF of entering a clear hex and leaves; he is off the board, not eliminated."""
    game = _exit_game()
    _impulse(game, "A1")
    _do(game, {"unit": "A1", "act": "exit_board"})
    u = game.state.units["A1"]
    assert u.hex is None and u.state["exited"] and not u.state.get("eliminated")
    assert data(game)["phase"]["spent"]["A1"] == 1  # entering a clear hex Standing (Basic chart)


def test_exits_only_where_the_scenario_designates_and_facing_off_the_board() -> None:
    """Firepower 10.2: not by a board side the scenario does not name for the side, not for a
    side it names no exit for, not from inside the board or facing along the edge; refused
    naming the rule, nothing changed."""
    game = _exit_game(last=False)  # the first column: not A's exit side
    _impulse(game, "A1")
    _refused(game, {"unit": "A1", "act": "exit_board"}, "Firepower 10.2")
    game = _exit_game(extra="")  # no exits in the scenario
    _impulse(game, "A1")
    _refused(game, {"unit": "A1", "act": "exit_board"}, "Firepower 10.2")
    game = _exit_game()
    _impulse(game, "A1", "A2")
    _refused(game, {"unit": "A2", "act": "exit_board"}, "Firepower 10.2")  # inside the board
    u = game.state.units["A1"]
    assert u.hex is not None
    u.facing = next(d for d in range(1, 7) if u.hex.neighbor(d) in game.board.hexes)
    _refused(game, {"unit": "A1", "act": "exit_board"}, "Firepower 10.2")  # facing the board
    # a corner hex of the exit column facing off the board over the top or bottom row
    _lo, hi = board_columns(game)
    corner, d = next((h, d) for h in game.board.hexes if column_of(game, h) == hi
                     for d in range(1, 7)
                     if h.neighbor(d) not in game.board.hexes and h.neighbor(d).q == h.q)
    u.hex, u.facing = corner, d
    _refused(game, {"unit": "A1", "act": "exit_board"}, "Firepower 10.2")
    game = _exit_game(extra='[special.exits]\nB = ["2/3"]\n')  # B's exit, not A's
    _impulse(game, "A1")
    _refused(game, {"unit": "A1", "act": "exit_board"}, "Firepower 10.2")


def test_the_exited_never_come_back_with_their_squad() -> None:
    """Firepower 10.2: once off the board a soldier does not re-enter: the squad's later entry
    does not count him among its soldiers off the board."""
    game = _exit_game(state={"squad": "s1"})
    game.state.units["A2"].state["squad"] = "s1"
    _impulse(game, "A1")
    _do(game, {"unit": "A1", "act": "exit_board"})
    game.state.units["A2"].hex = None  # as if still to enter
    assert entry.off_board(game, "A", "s1") == ["A2"]


def test_exits_score_victory_points_only_where_the_scenario_says() -> None:
    """Firepower 10.2, 23.6 (FPD-140): ``exit_points`` per own soldier exited, on top of his
    survival; a scenario without it scores exits as survivors only."""
    terms = "[victory]\ncasualty = 1\nsurvivor = 1\nexit_points = 5\n"
    game = _exit_game(extra=EXITS + terms)
    before = victory_points(game)
    _impulse(game, "A1")
    _do(game, {"unit": "A1", "act": "exit_board"})
    after = victory_points(game)
    assert after["A"] == before["A"] + 5 and after["B"] == before["B"]
    assert exits.exit_points(game) == {"A": 5, "B": 0}
    game = _exit_game(extra=EXITS + "[victory]\ncasualty = 1\nsurvivor = 1\n")
    before = victory_points(game)
    _impulse(game, "A1")
    _do(game, {"unit": "A1", "act": "exit_board"})
    assert victory_points(game) == before


def test_exit_is_offered_only_where_it_is_legal() -> None:
    """Firepower 10.2: the option list offers the exit to a soldier who may take it only."""
    game = _exit_game()
    ph = _impulse(game, "A1", "A2")
    assert exits.EXIT.options is not None
    assert exits.EXIT.options(game, ph, "A1") == [{"unit": "A1", "act": "exit_board"}]
    assert exits.EXIT.options(game, ph, "A2") == []
