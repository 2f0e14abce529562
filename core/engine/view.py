"""Per-side views: what one side may know, and nothing more."""

from __future__ import annotations

from functools import cached_property
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from hexwar.core.board import Board
    from hexwar.core.engine.game import Game


class SideView:
    """A side's knowledge at one moment (``side=None``: the umpire, who knows everything).

    ``units`` holds only the units the system's sighting rules let the side see, each as the system
    chooses to show it (a face-down counter shows less); :meth:`events` only the log entries the side
    may read; ``system_state`` the system's public state for that side. The board is known to all.
    Each part is computed when first read, so a controller that never looks pays nothing.

    ``game`` is there for rules computations (LOS, hit numbers). A controller must take what its
    side knows from the view, never from ``game.state``.
    """

    def __init__(self, game: Game, side: str | None) -> None:
        self.game = game
        self.side = side
        self.turn = game.state.turn
        self.phase = game.state.phase
        self.board: Board = game.board

    @cached_property
    def units(self) -> dict[str, dict[str, Any]]:
        game, side = self.game, self.side
        if side is None:
            return {k: game.state.units[k].to_dict() for k in sorted(game.state.units)}
        shown_units: dict[str, dict[str, Any]] = {}
        for unit_id in sorted(game.hooks.visible_units(game, side)):
            shown = game.hooks.unit_view(game, side, unit_id)
            if shown is not None:
                shown_units[str(shown.get("id", unit_id))] = shown
        return shown_units

    @cached_property
    def system_state(self) -> dict[str, Any]:
        return self.game.hooks.describe_state(self.game, self.side)

    def events(self) -> list[dict[str, Any]]:
        """The log entries this side may read, as its own log shows them (a side's header has
        no seed, its decisions no state hash: ``EventLog.for_side``)."""
        return self.game.log.for_side(self.side)

    @cached_property
    def header(self) -> dict[str, Any]:
        """The game's header as this side knows it (the umpire's holds the seed; a side's never)."""
        from hexwar.core.engine.record import side_record

        first = self.game.log.events[0] if self.game.log.events else {}
        if self.side is None:
            return dict(first)
        return side_record(first, self.side) or {}

    def own_units(self) -> dict[str, dict[str, Any]]:
        return {k: u for k, u in self.units.items() if u.get("side") == self.side}

    def enemy_units(self) -> dict[str, dict[str, Any]]:
        return {k: u for k, u in self.units.items() if u.get("side") != self.side}


def build_view(game: Game, side: str | None) -> SideView:
    return SideView(game, side)
