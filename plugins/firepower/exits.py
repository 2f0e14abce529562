"""Exiting the board (Firepower 10.2) in the Advanced Game: which side may leave by which board
side, the Action that takes a soldier off, and the victory points exits score when the scenario
says so.

Scenario data: ``[special.exits]`` maps a side to the board sides (``"5/6"``, ``"2/3"``: the
first and the last column, Firepower 2.2) its soldiers may leave by, e.g. ``A = ["2/3"]``. A side
not named may not exit (Firepower 10.2: only on sides the scenario designates). Victory:
``[victory] exit_points = n`` scores ``n`` for each own soldier who left the board (Firepower
23.6's frame; docs/decisions.md FPD-140); an exited soldier is not eliminated, so he also
counts as a survivor.

Action ``exit_board`` (``{"unit", "act": "exit_board"}``): a soldier in an edge hex of a board
side his side may exit by, facing off the board across it, pays what entering a clear hex
costs in his posture and leaves (Firepower 10.2). Soldiers exit one at a time; an exited soldier
(``state.exited``, ``hex`` None) never comes back: entering later (:mod:`entry`) does not count
him among the squad's soldiers off the board.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from hexwar.core.errors import RulesError
from hexwar.plugins.firepower.actions import ActionType
from hexwar.plugins.firepower.setup import BOARD_SIDES
from hexwar.plugins.firepower.state import board_columns, column_of, rules_card

if TYPE_CHECKING:
    from hexwar.core.engine.game import Game
    from hexwar.core.engine.state import Unit

RULE = "Firepower 10.2"


def exit_sides(game: Game, side: str) -> tuple[str, ...]:
    """The board sides ``side`` may leave by (``[special.exits]``); none when not named. A bad
    entry is refused naming the rule."""
    special = game.scenario.raw.get("special", {}) or {}
    table = special.get("exits") if isinstance(special, dict) else None
    if not table:
        return ()
    if not isinstance(table, dict):
        raise RulesError("special.exits maps a side to the board sides it may exit by "
                         '(A = ["2/3"])', rule=RULE)
    got = table.get(side) or []
    if isinstance(got, str):
        got = [got]
    bad = [g for g in got if g not in BOARD_SIDES]
    if bad:
        raise RulesError(f"special.exits.{side}: a board side is one of "
                         f"{', '.join(BOARD_SIDES)}, not {bad[0]!r}", rule=RULE)
    return tuple(str(g) for g in got)


def exited(u: Unit) -> bool:
    return bool(u.state.get("exited"))


def _off_across(game: Game, u: Unit) -> str | None:
    """The board side ``u`` faces off the board across, if he is in its edge hex and the hex in
    front is beyond that side's column; None otherwise."""
    assert u.hex is not None
    front = u.hex.neighbor(u.facing)
    if front in game.board.hexes:
        return None
    lo, hi = board_columns(game)
    # an off-board hex has no label: its column is the edge column and the step across (the
    # board's columns run with q)
    c = column_of(game, u.hex)
    fc = c + (front.q - u.hex.q)
    if c == lo and fc < lo:
        return BOARD_SIDES[0]
    if c == hi and fc > hi:
        return BOARD_SIDES[1]
    return None


def _check(game: Game, ph: dict[str, Any], choice: dict[str, Any]) -> dict[str, Any]:
    u = game.state.units[choice["unit"]]
    assert u.hex is not None
    allowed = exit_sides(game, u.side)
    if not allowed:
        raise RulesError(f"the scenario lets side {u.side} exit by no board side", rule=RULE)
    across = _off_across(game, u)
    if across is None:
        raise RulesError(f"{u.id} must be in an edge hex facing off the board to exit",
                         rule=RULE)
    if across not in allowed:
        raise RulesError(f"side {u.side} may exit only by board side(s) {', '.join(allowed)}, "
                         f"not {across}", rule=RULE)
    if u.state.get("tunnel") or u.state.get("climb") or u.state.get("up") or \
            u.state.get("in_defence"):
        raise RulesError(f"{u.id} must be on the ground of his hex to leave it (out of tunnels, "
                         "climbs and positions)", rule=RULE)
    if u.state.get("floor"):
        raise RulesError(f"{u.id} is upstairs: he leaves the board from the ground", rule=RULE)
    # Firepower 10.2: "a new clear hex" entered: the enter cost in his posture, nothing more
    cost = rules_card(game).mf_cost("enter", str(u.state.get("posture", "stand")))
    return {"cost": cost, "across": across}


def _apply(game: Game, ph: dict[str, Any], info: dict[str, Any]) -> None:
    u = game.state.units[info["unit"]]
    u.state["exited"] = True
    u.state["exit_side"] = info["across"]
    u.state["side"] = None
    u.state.pop("cover_side", None)
    u.hex = None
    game.emit("exit_board", unit=u.id, board_side=info["across"], rule=RULE)


def _options(game: Game, ph: dict[str, Any], uid: str) -> list[dict[str, Any]]:
    """Offered only where the scenario lets the side exit and the soldier faces off there."""
    u = game.state.units[uid]
    if u.hex is None or not exit_sides(game, u.side):
        return []
    try:
        _check(game, ph, {"unit": uid})
    except RulesError:
        return []
    return [{"unit": uid, "act": "exit_board"}]


EXIT = ActionType("exit_board", _check, _apply, _options, rule=RULE)


def exit_points(game: Game) -> dict[str, int]:
    """Firepower 10.2, 23.6 (FPD-140): ``[victory] exit_points`` per own soldier exited."""
    v = game.scenario.raw.get("victory") or {}
    per = int(v.get("exit_points", 0)) if isinstance(v, dict) else 0
    out = {s: 0 for s in game.state.sides}
    if per:
        for u in game.state.units.values():
            if exited(u) and not u.state.get("eliminated"):
                out[u.side] += per
    return out
