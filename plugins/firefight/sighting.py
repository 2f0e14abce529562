"""Observation: line of sight (Firefight 5.0-5.21) and defilade (Firefight 5.2).

:class:`FirefightLos` is the Firefight I line of sight as a core ``LosRules``; optional rules
add layers and options through ``firefight_los_layers``/``firefight_los_options`` (heights (Firefight 13),
smoke, Firefight 14). :func:`has_los` and :func:`visible_hexes` answer from the game's bit-set
kernel (:func:`firefight_kernel`, :mod:`hexwar.core.losgrid`), rebuilt when the LOS epoch changes
(``los_epoch`` in the game-wide state, bumped by a rule that changes sight, e.g. smoke).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from functools import lru_cache
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
from hexwar.core.losgrid import (
    KernelBase,
    MaskKernel,
    PairSets,
    SightKernel,
    grid_of,
    sight_kernel,
)
from hexwar.plugins.firefight.addenda import addenda
from hexwar.plugins.firefight.state import ff, hooks

if TYPE_CHECKING:
    from hexwar.core.board import Board
    from hexwar.core.engine.game import Game
    from hexwar.core.engine.state import Unit
    from hexwar.plugins.firefight.hookspecs import LosLayer

FOREST_TOWN = frozenset({"forest", "town"})
#: (LOS epoch, kernel) of the game: the bit-set form of the game's LOS rules
LOS_KERNEL = StashKey[tuple[int, "SightKernel"]]("firefight.los_kernel")
_NO_FEATURES: frozenset[str] = frozenset()


@lru_cache(maxsize=4096)
def _defilade_of(features: frozenset[str]) -> tuple[int, ...]:
    # keyed by the hex's feature set itself, so a changed hex is parsed afresh
    return tuple(int(f.split(":", 1)[1]) for f in features if f.startswith("defilade:"))


def defilade_sides(board: Board, h: Hex) -> tuple[int, ...]:
    """Directions of the defilade hexsides of position ``h`` (Firefight 5.2) (features ``defilade:<d>``)."""
    fs = board.features_of.get(h, _NO_FEATURES)
    return _defilade_of(fs) if fs else ()


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

    def sight_kernel(self, board: Board, data: Any = None) -> SightKernel | None:
        """The bit-set kernel of these rules (:mod:`hexwar.core.losgrid`), or None when a layer of
        unknown effect is on (then :func:`hexwar.core.losgrid.sight_kernel` walks each line)."""
        return firefight_kernel(board, self, data)

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


def firefight_kernel(board: Board, rules: FirefightLos, data: Any = None) -> MaskKernel | None:
    """:class:`FirefightLos` as bit sets: Forest and Town (Firefight 5.1), smoke (Firefight 14.11)
    and hexes off the board block for certain; with heights (Firefight 13.2) a hex higher than both
    ends blocks for certain, one between the ends' heights nearer the lower end for certain from
    the middle height up, else as the height layer says (Firefight 13.23); a defilade hexside
    (toward the neighbour) or an impassable one blocks for certain between the units, and at an
    end hex as :meth:`FirefightLos.hexside_effect` says (Firefight 5.2 example B, FFD-5). None
    for a subclass or a layer this function does not know (the caller then walks each line)."""
    from hexwar.plugins.firefight.rules.height import HeightLayer, block_height, ground
    from hexwar.plugins.firefight.rules.smoke import SmokeLayer, smoke_hexes_of

    if type(rules) is not FirefightLos:
        return None
    height: HeightLayer | None = None
    smoke: set[Hex] = set()
    for layer in rules.layers:
        if type(layer) is HeightLayer:
            height = layer
        elif type(layer) is SmokeLayer:
            if data is not None and hasattr(data, "state"):
                smoke = smoke_hexes_of(data)
        else:
            return None
    g = grid_of(board)
    hexes = board.hexes
    always = g.off | g.mask(smoke)
    if rules.forest_town_block:
        always |= g.mask(h for h in hexes if board.terrain_of.get(h) in FOREST_TOWN)
    levels: list[int] | None = None
    make: Callable[[int, int], PairSets]
    confirm_hex: Callable[[Hex, Hex, Hex], bool] | None = None
    if height is None:
        def make(la: int, lb: int) -> PairSets:
            return PairSets(always)
    else:
        grounds = sorted({ground(board, h) for h in hexes})
        level_of = {z: i for i, z in enumerate(grounds)}
        levels = [0] * g.size
        for h in hexes:
            levels[g.cell(h)] = level_of[ground(board, h)]
        tops = {h: block_height(board, h) for h in hexes}
        masks: dict[tuple[float, bool], int] = {}

        def higher(z: float, strict: bool = True) -> int:  # hexes whose obstruction is above z
            m = masks.get((z, strict))
            if m is None:
                m = masks[(z, strict)] = g.mask(h for h, top in tops.items()
                                                if (top > z if strict else top >= z))
            return m

        def make(la: int, lb: int) -> PairSets:
            lo, hi = sorted((grounds[la], grounds[lb]))
            certain = always | higher(hi)  # Firefight 13.22: higher than both units
            if lo == hi:
                return PairSets(certain)
            # Firefight 13.23: between the two heights blocks only nearer the lower unit, where the
            # sight line is below the middle height: at or above it blocks for certain, below it
            # the height layer decides
            mid = (lo + hi) / 2
            band = higher(lo) & ~higher(hi)
            return PairSets(certain, 0, 1 if grounds[la] < grounds[lb] else 2,
                            band & higher(mid, strict=False), band & ~higher(mid, strict=False))

        layer = height

        def confirm_hex(a: Hex, b: Hex, h: Hex) -> bool:
            e = layer.hex_effect(board, h, LosContext(a, b, a.distance(b), data))
            return e is not None and e.kind == "block"

        if all(float(z).is_integer() for z in tops.values()) and \
                all(float(z).is_integer() for z in grounds):
            whole = {h: int(z) for h, z in tops.items()}
            level_ground = [int(z) for z in grounds]

            def confirm_hex(a: Hex, b: Hex, h: Hex) -> bool:
                # height.blocks() in integers (the same comparison, multiplied out): whole heights
                ha, hb = level_ground[levels[g.cell(a)]], level_ground[levels[g.cell(b)]]
                lo, hi, top = min(ha, hb), max(ha, hb), whole[h]
                if top <= lo:
                    return False
                if top > hi:
                    return True
                da, db = a.distance(h), b.distance(h)
                d_lo, d_hi = (da, db) if ha <= hb else (db, da)
                if ha == hb or d_lo >= d_hi:
                    return False
                return lo * (d_lo + d_hi) + (hi - lo) * d_lo < top * (d_lo + d_hi)

    side_maybe = 0
    if rules.blocking_sides:
        walls = [tuple(s) for s in rules.blocking_sides if len(s) == 2]
        side_maybe |= g.side_mask((x, y) for x, y in walls)
    if rules.defilade_blocks:
        for h in hexes:
            for d in defilade_sides(board, h):
                side_maybe |= g.side_mask([(h, h.neighbor(d))])

    def confirm_side(a: Hex, b: Hex, x: Hex, y: Hex) -> bool:
        e = rules.hexside_effect(board, x, y, "cross", LosContext(a, b, a.distance(b), data))
        return e is not None and e.kind == "block"

    return MaskKernel(board, rules, data, make=make, levels=levels, corners=True,
                      confirm_hex=confirm_hex,
                      side_maybe=side_maybe, confirm_side=confirm_side, sides_between=True)


class _Remembered(KernelBase):
    """The exact walk of rules without a bit-set kernel (an optional rule's layer of unknown
    effect), remembering up to LIMIT answers: such lines cost a full trace each."""

    LIMIT = 100_000

    def __init__(self, inner: SightKernel) -> None:
        self.inner = inner
        self.answers: dict[tuple[Hex, Hex], bool] = {}

    def clear(self, a: Hex, b: Hex) -> bool:
        got = self.answers.get((a, b))
        if got is None:
            if len(self.answers) >= self.LIMIT:
                self.answers.clear()
            got = self.answers[(a, b)] = self.inner.clear(a, b)
        return got


def los_kernel(game: Game) -> SightKernel:
    """The game's LOS kernel (Firefight 5.0), rebuilt when the LOS epoch changes (smoke)."""
    epoch = ff(game).get("los_epoch", 0)
    cached = game.stash.get(LOS_KERNEL)
    if cached is None or cached[0] != epoch:
        k = sight_kernel(game.board, los_rules(game), game)
        cached = (epoch, k if isinstance(k, MaskKernel) else _Remembered(k))
        game.stash[LOS_KERNEL] = cached
    return cached[1]


def has_los(game: Game, a: Hex, b: Hex) -> bool:
    """Line of sight between two hexes (Firefight 5.0): ``line_of_sight(..).clear`` with the ends
    in (q, r) order, answered by the game's kernel (no per-pair cache)."""
    if a == b:
        return True
    max_range = los_rules(game).max_range
    if max_range is not None and a.distance(b) > max_range:
        return False
    if (a.q, a.r) <= (b.q, b.r):
        return los_kernel(game).clear(a, b)
    return los_kernel(game).clear(b, a)


def visible_hexes(game: Game, origin: Hex, targets: Iterable[Hex]) -> set[Hex]:
    """The hexes among ``targets`` that have a line of sight with ``origin`` (Firefight 5.0): the
    batch form of :func:`has_los` for "what can a unit in ``origin`` see" (Firefight lines of
    sight are symmetric; tests/core/test_los_systems.py checks it)."""
    max_range = los_rules(game).max_range
    given = list(targets)
    ts = [t for t in given if t != origin and (max_range is None
                                                 or origin.distance(t) <= max_range)]
    out = los_kernel(game).visible(origin, ts)
    if origin in given:
        out.add(origin)
    return out


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
