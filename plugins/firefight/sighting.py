"""Observation: line of sight (Firefight 5.0-5.21) and defilade (Firefight 5.2).

:class:`FirefightLos` is the Firefight I line of sight as a core ``LosRules``; optional rules
add layers and options through ``firefight_los_layers``/``firefight_los_options`` (heights (Firefight 13),
smoke, Firefight 14). :func:`has_los` caches every answer per game and LOS epoch (``los_epoch`` in the
game-wide state, bumped by a rule that changes sight, e.g. smoke).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from hexwar.core.errors import RulesError
from hexwar.core.hexgrid import Hex
from hexwar.core.kit import StashKey
from hexwar.core.los import (
    BaseLosRules,
    HexsideHow,
    HexsidePolicy,
    LosContext,
    LosEffect,
    VertexPolicy,
    line_of_sight,
)
from hexwar.plugins.firefight.addenda import addenda
from hexwar.plugins.firefight.state import ff, hooks

if TYPE_CHECKING:
    from hexwar.core.board import Board
    from hexwar.core.engine.game import Game
    from hexwar.core.engine.state import Unit
    from hexwar.plugins.firefight.hookspecs import LosLayer

FOREST_TOWN = frozenset({"forest", "town"})
#: (LOS epoch, {(hex, hex): clear}) of the game
LOS_CACHE = StashKey[tuple[int, dict[tuple[Hex, Hex], bool]]]("firefight.los_cache")



def defilade_sides(board: Board, h: Hex) -> tuple[int, ...]:
    """Directions of the defilade hexsides of position ``h`` (Firefight 5.2) (features ``defilade:<d>``)."""
    return tuple(int(f.split(":", 1)[1]) for f in board.features_of.get(h, ())
                 if f.startswith("defilade:"))


def _is_position_toward(board: Board, p: Hex, q: Hex) -> bool:
    d = p.direction_to(q)
    return d is not None and d in defilade_sides(board, p)


class FirefightLos(BaseLosRules):
    """Firefight I line of sight (Firefight 5.0-5.21) as a core.los LosRules.

    * Forest and Town hexes between the units block, whatever part of the hex the line touches
      Firefight 5.1, 5.12: (``hexside_policy = "either"``, ``vertex_policy = "touch"``:
      docs/decisions.md FFD-4); the end hexes never matter (Firefight 5.11); units never block
      (Firefight 6.2); roads, streams and contours do nothing (Firefight 5.1, Firefight 5.1
      (Clarifications)).
    * A defilade position between the units blocks when the line crosses (or runs along, Firefight 5.2
      example D) its defilade hexside (Firefight 5.2, 5.21). When the hexside is two-sided and one side is
      an end hex, it does not block (Firefight 5.2 example B note; docs/decisions.md FFD-5).
    * Optional rules add :class:`LosLayer` objects and options (hookspecs).
    """

    include_endpoints = False
    hexside_policy: HexsidePolicy = "either"
    vertex_policy: VertexPolicy = "touch"

    def __init__(self, layers: Sequence[LosLayer] = (), options: Mapping[str, Any] | None = None
                 ) -> None:
        opts = dict(options or {})
        self.defilade_blocks = bool(opts.get("defilade_blocks", True))
        self.forest_town_block = bool(opts.get("forest_town_block", True))
        self.max_range: int | None = opts.get("max_range")
        self.layers = tuple(sorted(layers, key=lambda x: x.name))
        #: hexsides that block fire (Addenda "impassable hexsides")
        self.blocking_sides: frozenset[frozenset[Hex]] = frozenset(
            opts.get("blocking_sides", frozenset()))

    def hex_effect(self, board: Board, h: Hex, ctx: LosContext) -> LosEffect | None:
        if self.forest_town_block and board.terrain_of.get(h) in FOREST_TOWN:
            return LosEffect("block", 0, f"{board.terrain_of[h]} hex between", "Firefight 5.1")
        for layer in self.layers:
            e = layer.hex_effect(board, h, ctx)
            if e is not None:
                return e
        return None

    def hexside_effect(self, board: Board, a: Hex, b: Hex, how: HexsideHow, ctx: LosContext
                       ) -> LosEffect | None:
        if self.blocking_sides and how != "vertex" and frozenset((a, b)) in self.blocking_sides:
            return LosEffect("block", 0, "impassable hexside blocks fire", "Firefight Addenda")
        if self.defilade_blocks and how != "vertex":
            ends = (ctx.a, ctx.b)
            pa, pb = _is_position_toward(board, a, b), _is_position_toward(board, b, a)
            two_sided_end = pa and pb and (a in ends or b in ends)
            if not two_sided_end and ((pa and a not in ends) or (pb and b not in ends)):
                return LosEffect("block", 0, "defilade hexside of a position between",
                                 "Firefight 5.2" if how == "cross" else "Firefight 5.2 D")
        for layer in self.layers:
            e = layer.hexside_effect(board, a, b, how, ctx)
            if e is not None:
                return e
        return None


#: the game's line-of-sight rules, built once with the enabled rules' layers
LOS_RULES = StashKey[FirefightLos]("firefight.los_rules")


def los_rules(game: Game | None) -> FirefightLos:
    """The game's LOS rules with the enabled optional rules' layers (kept in the game's stash)."""
    if game is None:
        return FirefightLos()
    cached = game.stash.get(LOS_RULES)
    if cached is not None:
        return cached
    layers: list[LosLayer] = []
    opts: dict[str, Any] = {}
    facade = hooks(game)
    layers.extend(facade.los_layers())
    for res in facade.los_options():
        for k, v in res.items():
            if k in opts and opts[k] != v:
                raise RulesError(f"two rules disagree on LOS option {k!r}")
            opts[k] = v
    opts["blocking_sides"] = addenda(game)["impassable"]
    rules = FirefightLos(layers, opts)
    game.stash[LOS_RULES] = rules
    return rules


def has_los(game: Game, a: Hex, b: Hex) -> bool:
    """Line of sight between two hexes (Firefight 5.0) (cached per game and LOS epoch)."""
    if a == b:
        return True
    data = ff(game)
    epoch = data.get("los_epoch", 0)
    cached = game.stash.get(LOS_CACHE)
    if cached is None or cached[0] != epoch:
        cached = (epoch, {})
        game.stash[LOS_CACHE] = cached
    cache = cached[1]
    key = (a, b) if (a.q, a.r) <= (b.q, b.r) else (b, a)
    hit = cache.get(key)
    if hit is None:
        rules = los_rules(game)
        if rules.max_range is not None and a.distance(b) > rules.max_range:
            hit = False
        else:
            hit = line_of_sight(game.board, key[0], key[1], rules, game).clear
        cache[key] = hit
    return hit


def los_board(board: Board, a: Hex, b: Hex, rules: FirefightLos | None = None) -> bool:
    """LOS on a bare board (tests, table-side use)."""
    return a == b or line_of_sight(board, a, b, rules or FirefightLos()).clear


def in_defilade_geom(board: Board, firer_hex: Hex, target_hex: Hex) -> bool:
    """Firefight 5.2: the target's hex is a defilade position and the fire enters it through its defilade
    hexside (through a corner: either hexside counts, docs/decisions.md FFD-5)."""
    sides = defilade_sides(board, target_hex)
    if not sides or firer_hex == target_hex:
        return False
    from hexwar.core.hexgrid import trace

    entry = trace(firer_hex, target_hex).entry_hexsides()
    return any(d in sides for d in entry)


def in_defilade(game: Game | None, board: Board, firer_hex: Hex, target: Unit) -> bool:
    """Firefight 5.2: whether ``target`` is in defilade against fire from ``firer_hex``; optional rules
    may decide otherwise (``firefight_target_in_defilade``: (Firefight 13.3), Firefight 23.1)."""
    assert target.hex is not None
    base = in_defilade_geom(board, firer_hex, target.hex)
    if game is not None:
        over = hooks(game).target_in_defilade(firer_hex, target.id, base)
        if over is not None:
            return over
    return base
