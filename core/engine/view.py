"""Per-side views: what one side may know, and nothing more."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from hexwar.core.board import Board
    from hexwar.core.engine.game import Game


@dataclass(frozen=True)
class SideView:
    """A side's knowledge at one moment.

    ``units`` holds only the units the system's sighting rules let the side see, each as the
    system chooses to show it (a face-down counter shows less). ``events`` holds only the log
    entries the side may read. ``system_state`` is the system's public state for that side.
    ``board`` is the map, which every side knows.
    """

    side: str | None
    turn: int
    phase: str
    board: Board
    units: dict[str, dict[str, Any]]
    system_state: dict[str, Any]
    #: the game, for rules computations (LOS, hit numbers). A controller must take what its side
    #: knows from ``units``, ``system_state`` and :meth:`events`, never from ``game.state``.
    game: Game

    def events(self) -> list[dict[str, Any]]:
        """The log entries this side may read."""
        return self.game.log.for_side(self.side)

    def own_units(self) -> dict[str, dict[str, Any]]:
        return {k: u for k, u in self.units.items() if u.get("side") == self.side}

    def enemy_units(self) -> dict[str, dict[str, Any]]:
        return {k: u for k, u in self.units.items() if u.get("side") != self.side}


def build_view(game: Game, side: str | None) -> SideView:
    if side is None:
        visible = set(game.state.units)
        units = {k: game.state.units[k].to_dict() for k in sorted(visible)}
    else:
        visible = game.hooks.visible_units(game, side)
        units = {}
        for unit_id in sorted(visible):
            shown = game.hooks.unit_view(game, side, unit_id)
            if shown is not None:
                units[str(shown.get("id", unit_id))] = shown
    return SideView(
        side=side,
        turn=game.state.turn,
        phase=game.state.phase,
        board=game.board,
        units=units,
        system_state=game.hooks.describe_state(game, side),
        game=game,
    )
