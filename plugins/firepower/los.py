"""Basic Game line of sight (Firepower 6.3.4) and the counts it feeds to the firing modifiers.

Lines run from sighting dot to sighting dot. Intervening hexes are those the straight edge passes
through or along, hexsides and corners included: a hill hex's own hexsides belong to the hill
(Firepower 6.3.4.1), and likewise for trees (Firepower 6.3.6.2.5) and hexes holding friendly
soldiers (Firepower 6.3.4.3; docs/decisions.md FPD-15). The firer's and target's hexes are not
intervening.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from hexwar.core.board import Board
from hexwar.core.hexgrid import Hex
from hexwar.core.los import BaseLosRules, HexsidePolicy, LosContext, LosEffect, VertexPolicy
from hexwar.core.losgrid import END_ASK, END_BETWEEN, END_NONE, Chords, MaskKernel, PairSets, grid_of
from hexwar.plugins.firepower.tables import POSTURE_RANK
from hexwar.plugins.firepower.terrain import FpMap, Picture


@dataclass(frozen=True)
class LosResult:
    """What a line of sight meets. ``blocked`` with the ``rule`` and ``reason``; otherwise the
    tree hexes and hedge pictures it passes (Firepower 6.3.6.2.5)."""

    blocked: bool
    rule: str = ""
    reason: str = ""
    trees: int = 0
    hedges: int = 0
    tree_hexes: tuple[Hex, ...] = ()
    hedge_hexes: tuple[Hex, ...] = ()


def basic_los(
    m: FpMap,
    a: Hex,
    b: Hex,
    *,
    firer_posture: str,
    firer_side: int | None = None,
    target_posture: str | None = None,
    target_side: int | None = None,
    friendly: Mapping[Hex, str] | None = None,
) -> LosResult:
    """Line of sight from a firer in ``a`` to hex ``b`` (Firepower 6.3.4.1-6.3.4.4).

    ``target_posture`` is None when the target is a hex (a grenade, Firepower 6.3.1.1). ``friendly`` maps
    hexes holding soldiers of the firer's side (other than ``a`` and ``b``) to the highest posture
    there (the highest posture in the hex decides: docs/decisions.md FPD-16).
    """
    if a == b:
        return LosResult(False)
    st = m.static_los(a, b)
    prone = firer_posture == "prone" or target_posture == "prone"
    # Firepower 6.3.4.1: an intervening hill hex (its hexsides included) blocks, unless both
    # the firer's and the target's hexes are hill hexes.
    if st.hills and not (m.is_hill(a) and m.is_hill(b)):
        return LosResult(True, "Firepower 6.3.4.1", f"hill hex {m.label(st.hills[0])} in the way")
    # Firepower 6.3.4.2: a fence picture crossed blocks when either unit is Prone.
    if prone and st.fences:
        return LosResult(True, "Firepower 6.3.4.2",
                         f"fence in {m.label(st.fences[0])} and a Prone unit")
    # Firepower 6.3.4.3: friendly soldiers of the same or a higher posture, on the same height
    # terrain as the firer, block; opposing soldiers never do.
    if friendly:
        firer_level = m.level.get(a, 0)
        firer_rank = POSTURE_RANK[firer_posture]
        for h, posture in friendly.items():
            if (h in st.hexes and POSTURE_RANK[posture] >= firer_rank
                    and m.level.get(h, 0) == firer_level):
                return LosResult(True, "Firepower 6.3.4.3", f"friendly soldiers in {m.label(h)}")
    if prone:
        # Firepower 6.3.4.2: the fence may be in the firer's or the target's own hex.
        f = m.fence.get(a)
        if f is not None and f.between(firer_side, b):
            return LosResult(True, "Firepower 6.3.4.2",
                             f"fence in the firer's hex {m.label(a)} and a Prone unit")
        f = m.fence.get(b)
        if f is not None and target_posture is not None and f.between(target_side, a):
            return LosResult(True, "Firepower 6.3.4.2",
                             f"fence in the target's hex {m.label(b)} and a Prone unit")
    return LosResult(False, trees=len(st.trees), hedges=len(st.hedges), tree_hexes=st.trees,
                     hedge_hexes=st.hedges)


class FirepowerLos(BaseLosRules):
    """The Basic LOS as a core :class:`~hexwar.core.los.LosRules` (``hexwar_los_rules``).

    ``core.los.line_of_sight(board, a, b, rules, data)`` with ``data`` = a dict holding
    ``firer_posture``, ``target_posture`` (None for a hex), ``firer_side``, ``target_side`` and
    ``friendly`` (hex -> highest friendly posture) gives the same answer as :func:`basic_los`,
    which the fire procedure, the AI and the table-side commands call directly (no per-hex calls).
    Hexsides of hill and tree hexes count as part of them (Firepower 6.3.4.1, Firepower 6.3.6.2.5):
    both hexes of a hexside-exact line and hexes touched at a corner are examined ("either",
    "touch"; docs/decisions.md FPD-15).
    """

    include_endpoints: bool = True
    hexside_policy: HexsidePolicy = "either"
    vertex_policy: VertexPolicy = "touch"

    def __init__(self, m: FpMap) -> None:
        self.map = m

    def hex_effect(self, board: Board, h: Hex, ctx: LosContext) -> LosEffect | None:
        m = self.map
        d = ctx.cache.get("data")
        if d is None:
            d = ctx.cache["data"] = _los_data(ctx)
        fp, tp = str(d.get("firer_posture", "stand")), d.get("target_posture")
        prone = fp == "prone" or tp == "prone"
        if h in (ctx.a, ctx.b):
            fence = m.fence.get(h)
            if prone and fence is not None and not (h == ctx.b and tp is None):
                side = d.get("firer_side") if h == ctx.a else d.get("target_side")
                if fence.between(side, ctx.b if h == ctx.a else ctx.a):
                    return LosEffect("block", 0, "fence between and a Prone unit",
                                     "Firepower 6.3.4.2")
            return None
        if not (m.is_hill(ctx.a) and m.is_hill(ctx.b)) and m.is_hill(h):
            return LosEffect("block", 0, "hill hex", "Firepower 6.3.4.1")
        fence = m.fence.get(h)
        if prone and fence is not None and fence.crossed_by(ctx.a, ctx.b):
            return LosEffect("block", 0, "fence picture and a Prone unit", "Firepower 6.3.4.2")
        friendly = d.get("friendly") or {}
        if h in friendly and POSTURE_RANK[friendly[h]] >= POSTURE_RANK[fp] and \
                m.level.get(h, 0) == m.level.get(ctx.a, 0):
            return LosEffect("block", 0, f"friendly soldiers ({friendly[h]}) on the firer's "
                             "height, posture as high as his", "Firepower 6.3.4.3")
        what = ["tree hex"] if m.cover.get(h) == "tree" else []
        hedge = m.hedge.get(h)
        if hedge is not None and hedge.crossed_by(ctx.a, ctx.b):
            what.append("hedge picture crossed")
        if what:  # Firepower 6.3.6.2.5: each tree hex and each hedge crossed adds +1
            return LosEffect("hinder", len(what), " and ".join(what), "Firepower 6.3.6.2.5")
        return None

    def off_board_effect(self, board: Board, h: Hex, ctx: LosContext) -> LosEffect | None:
        return None

    def sight_kernel(self, board: Board, data: Any = None) -> MaskKernel | None:
        """The bit-set kernel (:mod:`hexwar.core.losgrid`) for ``data`` given as a dict; None for
        a Game (postures come from the soldiers of each pair's end hexes) or a subclass."""
        if type(self) is not FirepowerLos or not isinstance(data, Mapping):
            return None
        return firepower_kernel(board, self, data)


def firepower_kernel(board: Board, rules: FirepowerLos, data: Mapping[str, Any]) -> MaskKernel:
    """:class:`FirepowerLos` for one firer as bit sets. Hill hexes block unless both ends are hill
    hexes (Firepower 6.3.4.1); friendly soldiers of the firer's posture or higher on his height
    block (Firepower 6.3.4.3); with a Prone unit, hexes holding a fence picture and the two end
    hexes are asked of :meth:`FirepowerLos.hex_effect` (Firepower 6.3.4.2). Trees and hedges only
    hinder (Firepower 6.3.6.2.5), so they never close a line; leaving the board does nothing."""
    m = rules.map
    g = grid_of(board)
    hexes = board.hexes
    fp, tp = str(data.get("firer_posture", "stand")), data.get("target_posture")
    prone = fp == "prone" or tp == "prone"
    levels = bytearray(g.size)  # Basic height class + 1: 0 depression, 1 level, 2 hill
    for h in hexes:
        levels[g.cell(h)] = m.level.get(h, 0) + 1
    hills = g.mask(h for h in hexes if m.is_hill(h))
    friendly = data.get("friendly") or {}
    rank = POSTURE_RANK[fp]
    high = {h for h, posture in friendly.items() if POSTURE_RANK[posture] >= rank}
    fences = g.mask(h for h in hexes if h in m.fence) if prone else 0

    def make(la: int, lb: int) -> PairSets:
        level = la - 1
        own = g.mask(h for h in high if h in hexes and m.level.get(h, 0) == level)
        return PairSets((0 if la == 2 and lb == 2 else hills) | own, fences)

    def blocks(a: Hex, b: Hex, h: Hex) -> bool:
        e = rules.hex_effect(board, h, LosContext(a, b, a.distance(b), data))
        return e is not None and e.kind == "block"

    def fence_crossed(a: Hex, b: Hex, h: Hex) -> bool:
        # asked only of the "may block" cells, the fence hexes between the ends (with a Prone
        # unit): a hill or friendly soldiers there would have blocked for certain already, so
        # what hex_effect decides is whether the line crosses the picture (Firepower 6.3.4.2)
        f = m.fence[h]
        return _crosses(b.q - a.q, b.r - a.r, h.q - a.q, h.r - a.r, f.a, f.b)

    def ends(a: Hex, b: Hex) -> bool:
        return prone and (blocks(a, b, a) or (b != a and blocks(a, b, b)))

    # the same two fence checks as geometry the compiled batch loop decides itself
    # (core/losjit.py): a fence between the ends blocks when the line crosses its picture, one
    # in an end hex when it lies between the unit there and the other end (hex_effect above)
    chords = Chords({g.cell(h): (f.a, f.b) for h, f in m.fence.items() if h in hexes},
                    _end_rule(data.get("firer_side")),
                    END_NONE if tp is None else _end_rule(data.get("target_side"))) \
        if prone else None
    return MaskKernel(board, rules, data, make=make, levels=levels, corners=True,
                      confirm_hex=fence_crossed, ends=ends, ends_maybe=fences, chords=chords)


def _end_rule(side: Any) -> int:
    """A unit's fence side as a :class:`Chords` end rule: either part when unknown (None), the
    hexside named; anything else is left to :meth:`FirepowerLos.hex_effect`, which refuses it."""
    if side is None:
        return END_BETWEEN
    return side if type(side) is int and 1 <= side <= 6 else END_ASK


@lru_cache(maxsize=65_536)
def _crosses(dq: int, dr: int, hq: int, hr: int, side_a: int, side_b: int) -> bool:
    """Whether the line from ``(0, 0)`` to ``(dq, dr)`` crosses the chord between hexsides
    ``side_a`` and ``side_b`` of hex ``(hq, hr)`` (:meth:`Picture.crossed_by`). The geometry is
    the same wherever the line starts (the tests compare with the exact trace on random boards),
    so it is kept per offset, hex and chord: bounded by the board, not by games."""
    return Picture("fence", Hex(hq, hr), side_a, side_b).crossed_by(Hex(0, 0), Hex(dq, dr))


def _los_data(ctx: LosContext) -> dict[str, Any]:
    """The line's parameters: a dict as documented, or derived from a Game (``hexwar los``): the
    first soldier in each end hex gives the postures, his side the friendly soldiers."""
    raw = ctx.data
    if isinstance(raw, Mapping):
        return dict(raw)
    state = getattr(raw, "state", None)
    if state is None:
        return {}
    from hexwar.plugins.firepower.soldiers import soldiers_of

    sol = sorted(soldiers_of(state.units).values(), key=lambda s: s.id)
    firer = next((s for s in sol if s.hex == ctx.a), None)
    target = next((s for s in sol if s.hex == ctx.b), None)
    out: dict[str, Any] = {"firer_posture": firer.posture if firer else "stand",
                           "firer_side": firer.fence_side if firer else None,
                           "target_posture": target.posture if target else None,
                           "target_side": target.fence_side if target else None}
    if firer is not None:
        friendly: dict[Hex, str] = {}
        for s in sol:
            if s.side == firer.side and s.hex not in (ctx.a, ctx.b) and (
                    s.hex not in friendly
                    or POSTURE_RANK[s.posture] > POSTURE_RANK[friendly[s.hex]]):
                friendly[s.hex] = s.posture
        out["friendly"] = friendly
    return out
