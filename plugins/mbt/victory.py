"""Victory in the Basic Game Scenario (MBT 9.4.2-9.4.3)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from hexwar.core.types import GameResult
from hexwar.plugins.mbt.squads import victory_value
from hexwar.plugins.mbt.state import SIDES, alive, card_of, ctx, data, enemy_of

if TYPE_CHECKING:
    from hexwar.core.engine.game import Game


def automatic(game: Game) -> GameResult | None:
    """MBT 9.4.2: a side whose combat units are all destroyed loses at once."""
    if game.state.turn == 0 and game.state.phase == "mbt.setup":
        return None
    for side in SIDES:
        units = game.state.units_of(side)
        if units and all(u.state.get("destroyed") for u in units) and any(
                alive(u) for u in game.state.units_of(enemy_of(side))):
            winner = enemy_of(side)
            return GameResult(winner, "automatic victory", scores=victory_points(game),
                              reasons=(f"every {side} combat unit is destroyed (MBT 9.4.2)",))
    return None


def vehicle_points(game: Game, side: str) -> int:
    """MBT 9.4.2.1-9.4.2.2: points for each damaged or destroyed enemy vehicle, by its worst damage."""
    total = 0
    for u in game.state.units_of(enemy_of(side)):
        pts = card_of(game, u).points
        d = u.state.get("damage", {})
        if card_of(game, u).kind == "leg" and (u.state.get("half") or u.state.get("destroyed")):
            half = int(card_of(game, u).records.values.get("card", {}).get("half_points", 0))
            total += victory_value(u, pts[0], half)  # MBT Scenario D.1, 12.5
        elif u.state.get("destroyed"):
            total += pts[0]
        elif d.get("compartment"):
            total += pts[1]
        elif d.get("track") or d.get("gun"):
            total += pts[2]
        elif u.state.get("half"):
            # MBT Scenario D.1: a squad reduced to a half squad gives the difference of their values
            total += int(card_of(game, u).records.values.get("card", {}).get("half_points", 0))
    return total


def objective_points(game: Game, side: str) -> int:
    """MBT 9.4.2.2: 10 points per stone building hex controlled (MBT 4.8)."""
    per = int(game.scenario.victory.get("objective_points", 10))
    control = data(game).get("control", {})
    labels = {game.board.label(h) for h in ctx(game).info.objectives}
    return per * sum(1 for lab, s in control.items() if s == side and lab in labels)


def victory_points(game: Game) -> dict[str, float]:
    """MBT 9.4.2: each side's vehicle and objective points."""
    return {s: float(vehicle_points(game, s) + objective_points(game, s)) for s in SIDES}


def final(game: Game) -> GameResult:
    """MBT 9.4.3: a lead of 30 or more wins; anything else is a tie."""
    vp = victory_points(game)
    margin = int(game.scenario.victory.get("margin", 30))
    a, b = SIDES
    diff = vp[a] - vp[b]
    if abs(diff) >= margin:
        winner = a if diff > 0 else b
        return GameResult(winner, "victory", scores=vp,
                          reasons=(f"{winner} leads by {abs(diff):g} VP (at least {margin}, MBT 9.4.3)",))
    return GameResult(None, "tie", scores=vp,
                      reasons=(f"the margin is {abs(diff):g} VP, less than {margin} (MBT 9.4.3)",))
