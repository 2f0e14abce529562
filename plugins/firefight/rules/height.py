"""Firefight 13.0: how ground height and contour lines change what units can see.

Cases: (Firefight 13.0) defilade hexsides no longer block a line of sight (they still count for the
observation range (Firefight 11.1) and for combat); (Firefight 13.1) a hex's height is its contour
band (440, 460, 480, 500; the board's ``height``); (Firefight 13.2) the Height/Line of Sight
Display: a straight line from the firer at range 0 to the target at its range, an obstruction blocks
when the line passes below it ("exactly equal ... not blocked"); (Firefight 13.21) Forest and Town
block at ground + 20 but a unit in them sights from its ground height; (Firefight 13.22) terrain
higher than both units blocks; Firefight 13.23: terrain higher than the lower unit but not than the
higher one blocks only when it is nearer (in hexes) to the lower unit and passes the Display test;
(Firefight 13.3) a target in defilade is not in defilade against a firer at a greater height.

docs/decisions.md FFD-26: under this rule Forest and Town block by height only (``forest_town_block``
off); smoke (Firefight 14) keeps blocking absolutely through its own layer. Exact arithmetic
(fractions) so that the "exactly equal" case of (Firefight 13.2) is decided exactly.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from hexwar.core.los import LosEffect
from hexwar.core.markers import hookimpl
from hexwar.core.types import PluginManifest

if TYPE_CHECKING:
    from hexwar.core.board import Board
    from hexwar.core.engine.game import Game
    from hexwar.core.hexgrid import Hex
    from hexwar.core.los import HexsideHow, LosContext

PLUGIN = PluginManifest(
    name="firefight.height", system="firefight", kind="rule",
    title="Height and contour in line of sight (Firefight 13.0)",
    summary="Firefight II: LOS by ground height and the Height/LOS Display; defilade no longer "
            "blocks LOS.",
    implements=("Firefight 13.0", "Firefight 13.1", "Firefight 13.2", "Firefight 13.21",
                "Firefight 13.22", "Firefight 13.23", "Firefight 13.3"),
)

WOODS_TOWN_EXTRA = 20  # Firefight 13.21: Forest/Town blocking height = ground + 20
BLOCK_TERRAIN = frozenset({"forest", "town"})


def blocks(h_a: float, h_b: float, d_a: int, d_b: int, obstacle: float) -> bool:
    """Firefight 13.2, 13.22, 13.23: does an obstruction of height ``obstacle`` at ``d_a`` hexes from
    unit A (height ``h_a``) and ``d_b`` hexes from unit B (height ``h_b``) block?"""
    lo, hi = min(h_a, h_b), max(h_a, h_b)
    if obstacle <= lo:
        return False
    if obstacle > hi:
        return True  # Firefight 13.22: higher than both units
    # Firefight 13.23: between: only when nearer the lower unit, and then by the Display (step 4)
    d_lo, d_hi = (d_a, d_b) if h_a <= h_b else (d_b, d_a)
    if h_a == h_b or d_lo >= d_hi:
        return False
    total = d_lo + d_hi
    line = Fraction(lo) + (Fraction(hi) - Fraction(lo)) * Fraction(d_lo, total)
    return line < Fraction(obstacle)  # "exactly equal (or higher) ... not blocked"


def ground(board: Board, h: Hex) -> float:
    """Firefight 13.1: the height of a hex and of any unit in it (a unit in Forest/Town sights from the
    ground, Firefight 13.21)."""
    return float(board.height_of.get(h, 0.0))


def block_height(board: Board, h: Hex) -> float:
    """Firefight 13.21: Forest and Town hexes block at ground + 20."""
    extra = WOODS_TOWN_EXTRA if board.terrain_of.get(h) in BLOCK_TERRAIN else 0
    return ground(board, h) + extra


class HeightLayer:
    """The (Firefight 13.2) Display as a LOS layer (plain arithmetic per intervening hex)."""

    name = "13-height"

    def hex_effect(self, board: Board, h: Hex, ctx: LosContext) -> LosEffect | None:
        ha, hb = ground(board, ctx.a), ground(board, ctx.b)
        if blocks(ha, hb, ctx.a.distance(h), ctx.b.distance(h), block_height(board, h)):
            return LosEffect("block", 0, "terrain height blocks the line", "Firefight 13.2")
        return None

    def hexside_effect(self, board: Board, a: Hex, b: Hex, how: HexsideHow, ctx: LosContext
                       ) -> LosEffect | None:
        return None


def firer_higher(board: Board, firer_hex: Hex, target_hex: Hex) -> bool:
    return ground(board, firer_hex) > ground(board, target_hex)


@hookimpl
def firefight_los_layers(game: Game | None) -> Sequence[Any]:
    return [HeightLayer()]


@hookimpl
def firefight_los_options(game: Game | None) -> Mapping[str, Any]:
    """Firefight 13.0: defilade no longer blocks; (Firefight 13.21) Forest/Town block by height
    (docs/decisions.md FFD-26)."""
    return {"defilade_blocks": False, "forest_town_block": False}


@hookimpl
def firefight_target_in_defilade(game: Game | None, firer_hex: Hex, target_id: str,
                                 base: bool) -> bool | None:
    """Firefight 13.3: defilade is ignored when the firer is higher than the target."""
    if game is None or not base:
        return None
    t = game.state.units[target_id]
    if t.hex is not None and firer_higher(game.board, firer_hex, t.hex):
        if t.state.get("ip"):
            return None  # an Improved Position is not terrain defilade (Firefight 23.1)
        return False
    return None
