"""Skirmish 7.0 Victory."""

from __future__ import annotations

from typing import TYPE_CHECKING

from hexwar.core.types import GameResult
from hexwar_skirmish.state import live_units

if TYPE_CHECKING:
    from hexwar.core.engine.game import Game


def objectives(game: Game) -> list[str]:
    """The objective hexes of the scenario (``[victory] objective``, Skirmish 7.2)."""
    return [str(x) for x in game.scenario.victory.get("objective", [])]


def game_over(game: Game) -> GameResult | None:
    """Skirmish 7.1: a side with no unit on the board loses at once."""
    alive = {s: len(live_units(game, s)) for s in game.state.sides}
    gone = [s for s, n in alive.items() if n == 0]
    if not gone:
        return None
    left = [s for s in game.state.sides if s not in gone]
    return GameResult(left[0] if len(left) == 1 else None, "elimination" if left else "draw",
                      scores=alive, reasons=(f"{', '.join(gone)} has no unit left (Skirmish 7.1)",))


def final_result(game: Game) -> GameResult:
    """Skirmish 7.2: hold the objective; else more units on the board; else a draw."""
    alive = {s: len(live_units(game, s)) for s in game.state.sides}
    goals = {game.board.parse(x) for x in objectives(game)}
    holders = {u.side for u in live_units(game) if u.hex in goals}
    if len(holders) == 1:
        side = holders.pop()
        return GameResult(side, "objective", scores=alive,
                          reasons=(f"{side} holds the objective (Skirmish 7.2)",))
    best = max(alive.values())
    leaders = [s for s, n in alive.items() if n == best]
    if len(leaders) == 1:
        return GameResult(leaders[0], "marginal", scores=alive,
                          reasons=("more units on the board (Skirmish 7.2)",))
    return GameResult(None, "draw", scores=alive, reasons=("equal numbers (Skirmish 7.2)",))
