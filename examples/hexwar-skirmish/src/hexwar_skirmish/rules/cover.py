"""Optional rule Skirmish 9.1, cover: a target behind a hedge or wall is harder to hit.

Enable it in a scenario (``rules = ["skirmish.cover"]``) or with ``hexwar play ... --option
skirmish.cover``. It adds one fire modifier through the core hook ``hexwar_fire_modifiers``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from hexwar.core.hexgrid import Hex, trace
from hexwar.core.markers import hookimpl
from hexwar.core.types import Modifier, PluginManifest

if TYPE_CHECKING:
    from hexwar.core.engine.game import Game

PLUGIN = PluginManifest(
    name="skirmish.cover",
    system="skirmish",
    kind="rule",
    title="Cover",
    summary="A target behind a hedge or wall hexside gets -1 to be hit (Skirmish 9.1).",
    implements=("Skirmish 9.1",),
    version="0.1.0",
)

COVER = frozenset({"hedge", "wall"})


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
def hexwar_fire_modifiers(game: Game, attack: dict[str, Any]) -> list[Modifier]:
    if attack.get("system") != "skirmish":
        return []
    firer = Hex(*attack["firer_hex"])
    target = Hex(*attack["target_hex"])
    if behind_cover(game, firer, target):
        return [Modifier("cover", -1, "Skirmish 9.1")]
    return []
