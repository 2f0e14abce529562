"""The Firefight Addenda's per-scenario map options (``[special] addenda``): demolished
bridges, streams impassable to vehicles, impassable hexsides that also block fire.

Read once per game (kept in the game's stash); the movement rules (Firefight 7) and the line of
sight (Firefight 5) consult them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from hexwar.core.hexgrid import Hex
from hexwar.core.kit import StashKey

if TYPE_CHECKING:
    from hexwar.core.engine.game import Game

Pairs = frozenset[frozenset[Hex]]
#: the scenario's Addenda options, read once per game
ADDENDA = StashKey[dict[str, Pairs]]("firefight.addenda")


def _pairs(game: Game, spec: Any, feature: str | None) -> Pairs:
    """Hexside pairs named by an Addenda option: ``"all"`` (every hexside with ``feature``) or a
    list of ``[a, b]`` label pairs."""
    board = game.board
    if spec == "all" and feature is not None:
        return frozenset(frozenset(k) for k, fs in board.hexside_of.items() if feature in fs)
    out = set()
    for a, b in spec or ():
        out.add(frozenset((board.parse(str(a)), board.parse(str(b)))))
    return frozenset(out)


def addenda(game: Game) -> dict[str, Pairs]:
    """The scenario's Addenda options (``[special] addenda``): ``demolished_bridges``,
    ``impassable_streams`` ("all" or hexside pairs) and ``impassable_hexsides`` (pairs:
    impassable to vehicles and blocking fire). Read once per game."""
    cached = game.stash.get(ADDENDA)
    if cached is not None:
        return cached
    spec = game.scenario.raw.get("special", {}).get("addenda", {})
    out = {
        "demolished": _pairs(game, spec.get("demolished_bridges"), "bridge"),
        "impassable_streams": _pairs(game, spec.get("impassable_streams"), "stream"),
        "impassable": _pairs(game, spec.get("impassable_hexsides"), None),
    }
    game.stash[ADDENDA] = out
    return out
