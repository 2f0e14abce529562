"""The game state of the Basic Game as the rules modules read it: Firepower's part of
``game.state.data``, the soldiers on the board, their marker changes, and the board's terrain.

Game-wide state lives in ``game.state.data["firepower"]`` (JSON only, saved and hashed):

* ``cup``: sequence units still to be drawn this Turn (Firepower 5, Firepower 6.1); ``drawn``: how
  many were drawn (their identity is never shown: no player may examine them, Firepower 6.1);
* ``board_side``: side name -> ``"5/6"`` or ``"2/3"`` (Firepower 2.2);
* ``columns``: the first and last column index of the board (Firepower 2.4 set-up zones);
* ``phase``: the current Impulse Phase (side, Impulse number, soldiers used, MF spent...), see
  :func:`hexwar.plugins.firepower.impulses.new_phase`.

Derived data that is not state (the terrain pictures of a board) lives in ``board.stash``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from hexwar.core.errors import RulesError
from hexwar.core.hexgrid import Hex
from hexwar.core.kit import StashKey
from hexwar.core.labels import parse_letter_number
from hexwar.plugins.firepower.soldiers import Soldier, soldier_of, soldiers_of
from hexwar.plugins.firepower.tables import BasicCard, card
from hexwar.plugins.firepower.terrain import FpMap

if TYPE_CHECKING:
    from hexwar.core.engine.game import Game
    from hexwar.core.engine.state import Unit

KEY = "firepower"

#: the Basic terrain of a board (built once per board; boards are shared by games of one content)
FP_MAP = StashKey[FpMap]("firepower.map")
#: the game's own copy of it: the same terrain dicts, its own per-pair line-of-sight cache, which
#: so goes with the game (a cache on the shared map grew from game to game: issue 14)
GAME_MAP = StashKey[FpMap]("firepower.game_map")


def data(game: Game) -> dict[str, Any]:
    """Firepower's part of the game state (created empty on first use)."""
    d: dict[str, Any] = game.state.data.setdefault(KEY, {})
    return d


def fp_map(game: Game) -> FpMap:
    """The game's Basic terrain (built once per board; the game's copy shares its dicts and has
    its own cache of :meth:`FpMap.static_los`)."""
    mine = game.stash.get(GAME_MAP)
    if mine is None:
        m = game.board.stash.get(FP_MAP)
        if m is None:
            m = FpMap.from_board(game.board)
            game.board.stash[FP_MAP] = m
        mine = game.stash[GAME_MAP] = m.for_game()
    # Firepower 8.7: the crater units are rough terrain; they are placed (only added) in the
    # set-up, so a count tells when the game's copy must learn them
    recs = game.state.data.get(KEY, {}).get("craters")
    if recs and len(recs) != len(mine.craters):
        mine = replace(mine, craters=frozenset(game.board.parse(str(k)) for k in recs))
        game.stash[GAME_MAP] = mine
    return mine


def rules_card(game: Game) -> BasicCard:
    """The Basic Game Card the game is played with (Firepower 1.4)."""
    return card()


def side_setup(game: Game, side: str) -> dict[str, Any]:
    """The scenario's ``[sides.<side>]`` table (sequence units, Impulses)."""
    return dict(game.scenario.sides.get(side, {}))


# ---------------------------------------------------------------------------------------------
# The Impulse Phase under way (Firepower 6.1, Firepower 6.2)
# ---------------------------------------------------------------------------------------------


def new_phase(side: str) -> dict[str, Any]:
    """The bookkeeping of a new Impulse Phase of ``side``: the Impulse number, the soldiers used
    and active, MF spent (all and non-combat), Combat Actions made, MF announced after firing,
    hexes entered, hexes fired from, melee winners done, rates of fire chosen."""
    return {"side": side, "impulse": 0, "used": [], "active": [], "spent": {}, "nc": {},
            "combat": [], "after": {}, "entered": {}, "fired_hexes": [], "done": [],
            "modes": {}}


def phase_of(game: Game) -> dict[str, Any]:
    """A copy of the current Impulse Phase's bookkeeping; RulesError if none is under way."""
    ph = data(game).get("phase")
    if not ph:
        raise RulesError("no Impulse Phase is under way", rule="Firepower 6.1")
    return dict(ph)


# ---------------------------------------------------------------------------------------------
# Board geometry: columns of letter-number labels
# ---------------------------------------------------------------------------------------------


#: the column index of every hex of a board (labels do not change; parsed once per board)
COLUMNS = StashKey[dict[Hex, int]]("firepower.columns")


def column_of(game: Game, h: Hex) -> int:
    """Column index (A = 0) of a board hex from its label."""
    board = game.board
    cols = board.stash.setdefault(COLUMNS, {})
    got = cols.get(h)
    if got is None:
        got = parse_letter_number(board.label(h))[1]
        if h in board.hexes:  # kept for the board's own hexes only: bounded by the board
            cols[h] = got
    return got


def board_columns(game: Game) -> tuple[int, int]:
    """The first and last column index of the board (kept in the game state once computed)."""
    d = data(game)
    if "columns" not in d:
        cols = [column_of(game, h) for h in game.board.hexes]
        d["columns"] = [min(cols), max(cols)]
    lo, hi = d["columns"]
    return int(lo), int(hi)


# ---------------------------------------------------------------------------------------------
# Soldiers and their markers (Firepower 4.4-4.6)
# ---------------------------------------------------------------------------------------------


def soldiers(game: Game) -> dict[str, Soldier]:
    """Every soldier still on the board, as plain :class:`Soldier` views."""
    return soldiers_of(game.state.units)


def soldier(game: Game, uid: str) -> Soldier:
    return soldier_of(game.state.units[uid])


def alive(unit: Unit) -> bool:
    return unit.hex is not None and not unit.state.get("eliminated")


def eliminate(game: Game, uid: str, by: str | None, rule: str) -> None:
    """Firepower 6.3.6.3.1, Firepower 6.5.1: an eliminated soldier is removed from play."""
    u = game.state.units[uid]
    if "firepower.advanced" in game.rules_enabled:
        from hexwar.plugins.firepower.crews import casualty_leaves

        casualty_leaves(game, u)  # Firepower 11.1.6.4: his weapon and items stay in his hex
    u.state["eliminated"] = True
    u.state["eliminated_by"] = by
    u.state["speed"] = "normal"
    u.state["status"] = None
    u.hex = None
    game.emit("eliminated", unit=uid, rule=rule)


def stun(game: Game, uid: str) -> None:
    """Firepower 6.4.2-6.4.4: Stunned, marked Prone, Running removed."""
    u = game.state.units[uid]
    u.state["status"] = "stunned"
    u.state["posture"] = "prone"
    u.state["speed"] = "normal"


def suppress(game: Game, uid: str) -> None:
    """Firepower 6.4.1, Firepower 6.4.3: Suppressed (a Stunned soldier stays Stunned,
    docs/decisions.md FPD-23), Running removed."""
    u = game.state.units[uid]
    if u.state.get("status") != "stunned":
        u.state["status"] = "suppressed"
    u.state["speed"] = "normal"


# ---------------------------------------------------------------------------------------------
# Decisions
# ---------------------------------------------------------------------------------------------


def validator(check: Callable[[Any], object]) -> Callable[[Any], str | None]:
    """A decision's ``validate``: the RulesError text of ``check(choice)``, or None if legal."""

    def validate(choice: Any) -> str | None:
        try:
            check(choice)
        except RulesError as exc:
            return str(exc)
        return None

    return validate


def view_context(game: Game, side: str) -> tuple[()] | None:
    """The token of the engine's view cache (docs/decisions.md CORE-116, CORE-130): what the
    other side is shown of a soldier (Firepower 8.5, ``advanced.hexwar_unit_view``) reads his
    own record alone, so one constant token; ``None`` (every view built afresh) when the game has
    a unit view this function does not know (a guest's, a test's)."""
    known = game.stash.get(_KNOWN_VIEWS)
    if known is None:
        from hexwar.core import defaults
        from hexwar.plugins.firepower import advanced

        impls = {i.function for i in game.pm.hook.hexwar_unit_view.get_hookimpls()}
        known = game.stash[_KNOWN_VIEWS] = impls <= {advanced.hexwar_unit_view,
                                                     defaults.hexwar_unit_view}
    return () if known else None


#: whether every unit view of the game is one :func:`view_context` knows
_KNOWN_VIEWS: StashKey[bool] = StashKey("hexwar.plugins.firepower.state._KNOWN_VIEWS")
