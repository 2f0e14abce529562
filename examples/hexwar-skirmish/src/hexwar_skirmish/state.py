"""What a game of Skirmish keeps, as JSON values (the state is hashed, saved and replayed).

* per unit, in ``unit.state``: ``pinned`` (Skirmish 2.5) and ``eliminated``;
* game-wide, in ``game.state.data["skirmish"]``: the side with the initiative (3.1), the units
  that moved this turn (5.3) and the units that acted in the current phase (3.5).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from hexwar.core.engine.game import Game
    from hexwar.core.engine.state import Unit

SYSTEM = "skirmish"

#: unit status flags kept in ``unit.state``
PINNED = "pinned"
ELIMINATED = "eliminated"


def turn_state(game: Game) -> dict[str, Any]:
    """The system's game-wide state."""
    data: dict[str, Any] = game.state.data.setdefault(
        SYSTEM, {"initiative": None, "moved": [], "acted": []})
    return data


def live_units(game: Game, side: str | None = None) -> list[Unit]:
    """Units on the board (of ``side``), in id order."""
    return [u for _k, u in sorted(game.state.units.items())
            if u.hex is not None and (side is None or u.side == side)]


def order(game: Game) -> list[str]:
    """The sides in the order they act this turn: the initiative side first (Skirmish 3.5)."""
    first = turn_state(game)["initiative"] or game.state.sides[0]
    return [first, *game.other_sides(first)]
