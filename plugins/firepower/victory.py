"""Victory conditions of the Basic Game Scenario (Firepower 7): 1 victory point per opposing
soldier eliminated, 3 per own survivor beyond the fold; most points wins, equal points draw."""

from __future__ import annotations

from typing import TYPE_CHECKING

from hexwar.core.hexgrid import Hex
from hexwar.core.kit import StashKey
from hexwar.core.types import GameResult
from hexwar.plugins.firepower.state import board_columns, column_of, data

if TYPE_CHECKING:
    from hexwar.core.engine.game import Game


#: the game's fold column (from its scenario, which does not change during play)
FOLD = StashKey[int]("firepower.fold")


def fold_column(game: Game) -> int:
    """The fold's "0 row" as a column index (``[special] fold`` in the scenario, Firepower 7;
    docs/decisions.md FPD-6)."""
    got = game.stash.get(FOLD)
    if got is None:
        special = game.scenario.raw.get("special", {})
        fold = special.get("fold")
        if isinstance(fold, str):
            from hexwar.core.labels import column_index

            got = column_index(fold)
        else:
            lo, hi = board_columns(game)
            got = (lo + hi) // 2
        game.stash[FOLD] = got
    return got


def beyond_fold(game: Game, board_side: str, h: Hex) -> bool:
    """Firepower 7: on the opposite side of the mapboard, strictly past the fold
    (docs/decisions.md FPD-6)."""
    c, f = column_of(game, h), fold_column(game)
    return c > f if board_side == "5/6" else c < f


def victory_points(game: Game) -> dict[str, int]:
    """Firepower 7: 1 VP per opposing soldier eliminated, 3 per own survivor beyond the fold;
    a scenario with ``[victory]`` terms scores casualties and survivors (Firepower 23.6)."""
    from hexwar.plugins.firepower import scenario_victory

    if scenario_victory.has_terms(game):
        return scenario_victory.victory_points(game)
    d = data(game)
    vp = {s: 0 for s in game.state.sides}
    for u in game.state.units.values():
        if u.state.get("eliminated"):
            for s in game.state.sides:
                if s != u.side:
                    vp[s] += 1
        elif (u.hex is not None and "board_side" in d
              and beyond_fold(game, d["board_side"][u.side], u.hex)):
            vp[u.side] += 3
    return vp


def final_result(game: Game) -> GameResult:
    """Firepower 7: most victory points wins; equal points are a draw."""
    vp = victory_points(game)
    a, b = game.state.sides[0], game.state.sides[1]
    reasons = (f"{s}: {vp[s]} VP" for s in game.state.sides)
    if vp[a] == vp[b]:
        return GameResult(None, "draw", {k: float(v) for k, v in vp.items()}, tuple(reasons))
    w = a if vp[a] > vp[b] else b
    return GameResult(w, "victory", {k: float(v) for k, v in vp.items()}, tuple(reasons))
