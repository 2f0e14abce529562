"""Optional rule Skirmish 9.1, cover: a target behind a hedge or wall is harder to hit.

Enable it in a scenario (``rules = ["skirmish.cover"]``) or with ``hexwar play ... --option
skirmish.cover``. It adds one fire modifier through Skirmish's hook ``skirmish_fire_modifiers``;
it runs only in games that enable it, so it never asks whose game it is.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from hexwar.core.hexgrid import Hex, trace
from hexwar.core.markers import hookimpl
from hexwar.core.types import Modifier, PluginManifest

if TYPE_CHECKING:
    from hexwar.core.engine.game import Game
    from hexwar_skirmish.fire import Attack

PLUGIN = PluginManifest(
    name="skirmish.cover",
    system="skirmish",
    kind="rule",
    title="Cover",
    summary="A target behind a hedge or wall hexside gets -1 to be hit (Skirmish 9.1).",
    implements=("Skirmish 9.1",),
    version="0.2.0",
)

COVER = frozenset({"hedge", "wall"})
MODIFIER = Modifier("cover", -1, "Skirmish 9.1")


def behind_cover(game: Game, firer: Hex, target: Hex) -> bool:
    """Skirmish 9.1: the line of fire enters the target's hex across a hedge or wall hexside
    (through a corner: either hexside at that corner)."""
    board = game.board
    for d in trace(firer, target).entry_hexsides():
        n = target.neighbor(d)
        if n in board.hexes and board.hexside_of[(target, n)] & COVER:
            return True
    return False


@hookimpl
def skirmish_fire_modifiers(game: Game, attack: Attack) -> Sequence[Modifier]:
    return [MODIFIER] if behind_cover(game, attack.firer_hex, attack.target_hex) else []
