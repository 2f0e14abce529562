"""Fast line of sight: ray templates kept as bit sets over a board's cells.

:func:`hexwar.core.los.line_of_sight` walks the exact trace and calls the rules once per hex: right
for explanations, slow for an AI that asks hundreds of times a decision what a unit can see. This
module answers only "clear or not", and answers it the same way (tests/core/test_los_fast.py):

* A board's hexes are laid on a padded rectangle of **cells** in axial coordinates,
  ``cell = (q - q0) * H + (r - r0)``, so that one hex offset is always one cell offset.
* The exact trace of each offset (:func:`hexwar.core.hexgrid.trace`, which is the same wherever it
  starts) is computed once per board and kept as Python integers used as bit sets (a
  :class:`RayTemplate`): the hexes the line passes through, the hexes it runs between along a
  hexside, the hexes it touches only at a corner, the hexsides it crosses or runs along.
* A system's rules become a few bit sets over the cells (what always blocks, what blocks unless
  both ends are hills, ...), built once per board: a query is a shift and an AND. Rules whose effect
  needs arithmetic per hex (a sight line's height at a range) keep a bit set of the hexes that
  *may* block and ask their own exact method about only those, so the answer stays the rules' own.

A system offers this by giving its :class:`~hexwar.core.los.LosRules` a ``sight_kernel(board,
data)`` method that returns a :class:`SightKernel` (or ``None`` when it cannot, e.g. an optional
rule of unknown effect is on); :func:`sight_kernel` falls back to the exact per-pair trace, so
:func:`los_clear`, :func:`visible_from` and :func:`clear_pairs` work for any rules.

A single query (:meth:`MaskKernel.clear`) is answered in C by the optional extension
``hexwar.core._losc`` (core/_losc.c, built by setup.py when a compiler is there; decision CORE-123)
from the same sets as byte tables, with the kernel's pure-Python closure as its callback for what
only the rules decide and as the whole path when the extension is missing (or ``HEXWAR_NO_C`` is
set). Both give the same answers (tests/core/test_los_fast.py runs both).

Boards do not change once built (the scenario's terrain edits come before play), so a board's grid
and templates are kept in ``board.stash``; their size is bounded by the board (one template per
offset between two of its hexes), not by the number of games or queries.
"""

from __future__ import annotations

import importlib
import os
from collections.abc import Callable, Collection, Iterable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any, NamedTuple, Protocol

from hexwar.core.hexgrid import Hex, trace
from hexwar.core.kit.stash import StashKey

if TYPE_CHECKING:
    from hexwar.core.board import Board
    from hexwar.core.los import LosRules

__all__ = [
    "Chords",
    "KernelBase",
    "LosGrid",
    "MaskKernel",
    "PairSets",
    "RayTemplate",
    "SightKernel",
    "TraceKernel",
    "bits",
    "clear_pairs",
    "grid_of",
    "los_clear",
    "sight_kernel",
    "visible_from",
]

#: hexside slots of a cell: slot k is the hexside toward direction k + 1 (N, NE, SE); the other
#: three hexsides of a hex are slots of its neighbours, so each hexside has exactly one index.
_SLOT_OF = {(0, -1): (0, 0), (1, -1): (1, 0), (1, 0): (2, 0),
            (0, 1): (0, 1), (-1, 1): (1, 1), (-1, 0): (2, 1)}
_SLOT_STEP = ((0, -1), (1, -1), (1, 0))


def _load_compiled() -> Any:
    """The optional C extension (core/_losc.c), or None when it is not built or HEXWAR_NO_C is
    set: then the pure-Python closure answers single queries."""
    if os.environ.get("HEXWAR_NO_C"):
        return None
    try:
        return importlib.import_module("hexwar.core._losc")
    except ImportError:
        return None


#: the C extension's module (``Rays``, ``Kernel``), or None: kernels made while it is None answer
#: in pure Python (tests set it to None to run that path)
COMPILED: Any = _load_compiled()


class RayTemplate:
    """The exact trace of one hex offset as bit sets, relative to its lowest cell ``lo``.

    Bit ``i`` of a hex set is the cell ``cell(a) + lo + i``; bit ``3 * i + k`` of :attr:`sides`
    is hexside slot ``k`` of that cell. The end hexes are in no set (rules that examine them do
    so themselves). ``regular`` is False if a hex would be met twice (never seen in a straight
    trace; such a template makes a kernel fall back to the exact walk).
    """

    __slots__ = ("body", "grazed", "inner", "lo", "near", "pair_bits", "pairs", "regular",
                 "sides", "touched")

    def __init__(self, lo: int, inner: int, pairs: int, grazed: int,
                 pair_bits: tuple[tuple[int, int], ...], sides: int, regular: bool,
                 near: tuple[int, int, int] = (0, 0, 0)) -> None:
        self.lo = lo
        self.inner = inner  #: hexes the line passes through (end hexes excluded)
        self.pairs = pairs  #: both hexes of each hexside the line runs exactly along
        self.grazed = grazed  #: hexes touched only at a corner
        self.body = inner | pairs  #: every hex examined when corners are ignored
        self.touched = inner | pairs | grazed  #: every hex examined when corners count
        self.pair_bits = pair_bits  #: (bit, bit) of each hexside-exact step, in order
        self.sides = sides  #: hexsides crossed or run along (not those touched at a corner)
        self.regular = regular
        #: (0, examined hexes nearer to a than to b, those nearer to b), in hexes, corners
        #: included: for rules that treat the two halves of a line differently (Firefight 13.23)
        self.near = near


def bits(mask: int) -> Iterator[int]:
    """The set bits of ``mask``, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


class LosGrid:
    """A board's hexes on a padded rectangle of cells, with the ray templates between them.

    Padding of two cells on every side holds every hex a trace between two board hexes can touch,
    so a shifted template never wraps round a row. :attr:`off` is the set of cells that are not
    board hexes (ragged edges, gaps between panels, the padding).
    """

    PAD = 2

    def __init__(self, hexes: Collection[Hex]) -> None:
        if not hexes:
            raise ValueError("line of sight: the board has no hexes")
        qs = [h.q for h in hexes]
        rs = [h.r for h in hexes]
        self.q0 = min(qs) - self.PAD
        self.r0 = min(rs) - self.PAD
        self.H = max(rs) - min(rs) + 1 + 2 * self.PAD
        self.W = max(qs) - min(qs) + 1 + 2 * self.PAD
        self.size = self.W * self.H
        self.onboard = bytearray(self.size)
        for h in hexes:
            self.onboard[self.cell(h)] = 1
        self.on = self.mask(hexes)
        self.off = ((1 << self.size) - 1) & ~self.on
        self._key = 2 * self.H + 1
        self._templates: dict[int, RayTemplate] = {}
        #: the templates given to the C extension (``_losc.Rays``), shared by the board's kernels
        self._rays: Any = None
        self._listed: tuple[Collection[Hex], tuple[Hex, ...]] | None = None

    # -- cells ------------------------------------------------------------------------------------
    def cell(self, h: Hex) -> int:
        """The cell of ``h`` (which must lie inside the grid's rectangle)."""
        return (h.q - self.q0) * self.H + (h.r - self.r0)

    def board_cell(self, h: Hex) -> int:
        """The cell of board hex ``h``; ``ValueError`` if it is not on the board."""
        qi, ri = h.q - self.q0, h.r - self.r0
        if 0 <= qi < self.W and 0 <= ri < self.H:
            c = qi * self.H + ri
            if self.onboard[c]:
                return c
        raise ValueError(f"line of sight: {h!r} is not on the board")

    def hex_at(self, c: int) -> Hex:
        return Hex(c // self.H + self.q0, c % self.H + self.r0)

    def mask(self, hexes: Iterable[Hex]) -> int:
        """The bit set of the cells of ``hexes`` (hexes outside the rectangle are left out)."""
        m = 0
        for h in hexes:
            qi, ri = h.q - self.q0, h.r - self.r0
            if 0 <= qi < self.W and 0 <= ri < self.H:
                m |= 1 << (qi * self.H + ri)
        return m

    def side_index(self, x: Hex, y: Hex) -> int:
        """The index of the hexside between adjacent ``x`` and ``y``: ``3 * cell + slot``."""
        slot, flip = _SLOT_OF[(y.q - x.q, y.r - x.r)]
        return 3 * self.cell(y if flip else x) + slot

    def side_hexes(self, index: int) -> tuple[Hex, Hex]:
        """The two hexes of hexside ``index`` (inverse of :meth:`side_index`)."""
        c, slot = divmod(index, 3)
        h = self.hex_at(c)
        dq, dr = _SLOT_STEP[slot]
        return h, Hex(h.q + dq, h.r + dr)

    def side_mask(self, sides: Iterable[tuple[Hex, Hex]]) -> int:
        m = 0
        for x, y in sides:  # pairs that are not hexsides of the board are never examined
            if (y.q - x.q, y.r - x.r) in _SLOT_OF and x in self and y in self:
                m |= 1 << self.side_index(x, y)
        return m

    def __contains__(self, h: object) -> bool:
        if not isinstance(h, Hex):
            return False
        qi, ri = h.q - self.q0, h.r - self.r0
        return 0 <= qi < self.W and 0 <= ri < self.H and bool(self.onboard[qi * self.H + ri])

    def listed(self, hexes: Collection[Hex]) -> Sequence[Hex]:
        """``hexes`` as a tuple, the same tuple for the same collection (the board's hexes)."""
        got = self._listed
        if got is None or got[0] is not hexes:
            got = self._listed = (hexes, tuple(hexes))
        return got[1]

    # -- templates --------------------------------------------------------------------------------
    def template(self, dq: int, dr: int) -> RayTemplate:
        """The ray template of offset ``(dq, dr)`` (built on first use, then kept)."""
        key = dq * self._key + dr
        t = self._templates.get(key)
        if t is None:
            t = self._templates[key] = _build(self.H, dq, dr)
        return t

    def ray(self, a: Hex, b: Hex) -> tuple[int, RayTemplate]:
        """``(shift, template)`` of the line from board hex ``a`` to board hex ``b``: bit ``i`` of
        the template's sets is cell ``shift + i`` (``ValueError`` if an end is off the board)."""
        ca = self.board_cell(a)
        self.board_cell(b)
        t = self.template(b.q - a.q, b.r - a.r)
        return ca + t.lo, t

    def rays(self, compiled: Any) -> Any:
        """The grid's ``_losc.Rays`` (made on first use): the templates the C query has been
        given, shared by every kernel of the board."""
        if self._rays is None:
            self._rays = compiled.Rays(self.W, self.H)
        return self._rays

    def give(self, rays: Any, dq: int, dr: int) -> None:
        """Give the template of offset ``(dq, dr)`` to ``rays`` (built first if need be)."""
        t = self.template(dq, dr)
        if not t.regular:
            rays.irregular(dq, dr)
            return
        n = (t.touched.bit_length() + 7) // 8
        rays.add(dq, dr, t.lo, t.touched.to_bytes(n, "little"), t.body.to_bytes(n, "little"),
                 (t.near[1] & t.touched).to_bytes(n, "little"),
                 (t.near[2] & t.touched).to_bytes(n, "little"),
                 t.sides.to_bytes((t.sides.bit_length() + 7) // 8, "little"))

    def hex_of_bit(self, shift: int, bit: int) -> Hex:
        return self.hex_at(shift + bit)

    def side_of_bit(self, shift: int, bit: int) -> tuple[Hex, Hex]:
        return self.side_hexes(3 * shift + bit)


def _build(height: int, dq: int, dr: int) -> RayTemplate:
    """Walk the exact trace from (0, 0) to (dq, dr) as :func:`~hexwar.core.los.line_of_sight` does
    and record which hexes and hexsides it examines."""
    a, b = Hex(0, 0), Hex(dq, dr)
    tr = trace(a, b)
    singles: list[Hex] = []
    pairs: list[tuple[Hex, Hex]] = []
    grazed: list[Hex] = []
    sides: list[tuple[Hex, Hex]] = []
    prev: tuple[Hex, ...] = (a,)
    for st in tr.steps:
        if st.entry == "hexside":
            sides.append((prev[0], st.hexes[0]))
        if st.entry == "vertex":
            grazed.extend(st.grazed)
        if len(st.hexes) == 1:
            singles.append(st.hexes[0])
        else:
            p1, p2 = st.hexes
            pairs.append((p1, p2))
            sides.append((p1, p2))
        prev = st.hexes
    ends = {a, b}
    inner = [h for h in singles if h not in ends]
    met = inner + [h for p in pairs for h in p] + grazed
    regular = len(set(met)) == len(met) and not (ends & set(met)) and \
        len(singles) - len(inner) == len(ends)

    def cell(h: Hex) -> int:
        return h.q * height + h.r

    lo = min([cell(h) for h in met] + [cell(a), cell(b)])

    def m(hs: Iterable[Hex]) -> int:
        out = 0
        for h in hs:
            out |= 1 << (cell(h) - lo)
        return out

    side_bits = 0
    for x, y in sides:
        slot, flip = _SLOT_OF[(y.q - x.q, y.r - x.r)]
        side_bits |= 1 << (3 * (cell(y if flip else x) - lo) + slot)
    pair_bits = tuple((cell(p1) - lo, cell(p2) - lo) for p1, p2 in pairs)
    near = (0, m(h for h in met if a.distance(h) < b.distance(h)),
            m(h for h in met if b.distance(h) < a.distance(h)))
    return RayTemplate(lo, m(inner), m(h for p in pairs for h in p), m(grazed), pair_bits,
                       side_bits, regular, near)


GRID = StashKey[LosGrid]("core.los_grid")


def grid_of(board: Board) -> LosGrid:
    """The board's :class:`LosGrid`, built once and kept in ``board.stash``."""
    g = board.stash.get(GRID)
    if g is None:
        g = LosGrid(board.hexes)
        board.stash[GRID] = g
    return g


# -- kernels ----------------------------------------------------------------------------------------


class SightKernel(Protocol):
    """Answers "is the line from ``a`` to ``b`` clear?" for one set of rules, board and ``data``,
    exactly as ``line_of_sight(board, a, b, rules, data).clear`` would."""

    def clear(self, a: Hex, b: Hex) -> bool: ...

    def visible(self, a: Hex, targets: Iterable[Hex]) -> set[Hex]: ...

    def clear_pairs(self, pairs: Iterable[tuple[Hex, Hex]]) -> list[bool]: ...


class KernelBase:
    """The batch forms in terms of :meth:`clear`; kernels override them where they can share
    work between the lines of one origin."""

    def clear(self, a: Hex, b: Hex) -> bool:
        raise NotImplementedError

    def visible(self, a: Hex, targets: Iterable[Hex]) -> set[Hex]:
        clear = self.clear
        return {t for t in targets if clear(a, t)}

    def clear_pairs(self, pairs: Iterable[tuple[Hex, Hex]]) -> list[bool]:
        clear = self.clear
        return [clear(a, b) for a, b in pairs]


class TraceKernel(KernelBase):
    """The exact per-pair walk, for rules that offer no kernel of their own."""

    def __init__(self, board: Board, rules: LosRules, data: Any = None) -> None:
        self.board, self.rules, self.data = board, rules, data

    def clear(self, a: Hex, b: Hex) -> bool:
        from hexwar.core.los import line_of_sight

        return line_of_sight(self.board, a, b, self.rules, self.data).clear


class PairSets(NamedTuple):
    """The hex sets of :class:`MaskKernel` for one pair of end levels (cells as bit sets)."""

    blocks: int  #: cells that block for certain
    maybe: int = 0  #: cells that may block: the rules' exact check decides
    half: int = 0  #: 1 or 2: the next two sets apply only nearer end a (1) or end b (2)
    half_blocks: int = 0
    half_maybe: int = 0

    @property
    def simple(self) -> bool:
        return not (self.maybe or self.half_blocks or self.half_maybe)


class Chords(NamedTuple):
    """Pictures drawn across hexes (a chord between the midpoints of two of a hex's hexsides),
    for rules whose "may block" cells and end hexes the chord's geometry decides, so that the
    compiled loop (:mod:`hexwar.core.losjit`) answers those lines itself instead of handing them
    back to Python. The rules' own ``confirm_hex`` and ``ends`` still answer single queries; the
    two must agree (the tests compare both with the exact trace).

    * ``cells``: cell -> ``(side_a, side_b)`` (hexsides 1..6) of its chord. A "may block" cell
      (:attr:`PairSets.maybe`) with a chord blocks exactly when the line between the two hex
      centres passes through or along the chord (touching counts).
    * ``end_a``, ``end_b``: what a chord in an end hex that may block (``ends_maybe``) does:
      :data:`END_ASK` the rules' ``ends`` decides (in Python); :data:`END_NONE` nothing;
      :data:`END_BETWEEN` it blocks when it lies between the unit there, on either part, and the
      other end; a hexside 1..6: it blocks when it lies between the part of the hex holding that
      hexside and the other end (where the line leaves the hex toward the other end: on the
      chord, or on the other part).
    """

    cells: Mapping[int, tuple[int, int]]
    end_a: int = -1
    end_b: int = -1


#: :class:`Chords` end rules (a hexside 1..6 names the unit's part of the hex)
END_ASK, END_NONE, END_BETWEEN = -1, -2, 0


#: ``make(level_a, level_b) -> PairSets``
SetMaker = Callable[[int, int], PairSets]
#: ``confirm(a, b, h) -> True if hex h blocks the line a-b`` (the rules' own exact answer)
HexConfirm = Callable[[Hex, Hex, Hex], bool]
#: ``confirm(a, b, x, y) -> True if the hexside x|y blocks the line a-b``
SideConfirm = Callable[[Hex, Hex, Hex, Hex], bool]
#: ``ends(a, b) -> True if an end hex itself blocks`` (rules that examine the end hexes)
EndsConfirm = Callable[[Hex, Hex], bool]


class MaskKernel(KernelBase):
    """A kernel for rules whose every effect on "clear" is a block (hinders never close a line)
    and whose hexside policy is ``"either"`` or ``"worse"`` (under both, a line along a hexside
    is blocked when one of its two hexes blocks).

    The rules are described by

    * ``levels``: a small integer per cell (the end hexes' class: a Basic height, a contour band);
    * ``make(la, lb)``: for ends of levels ``la`` and ``lb``, the :class:`PairSets`: the cells
      that block for certain (include :attr:`LosGrid.off` when leaving the board blocks), the
      cells that *may* block, which ``confirm_hex`` decides exactly one by one, and the same two
      for only the half of the line nearer one end (built once per pair of levels);
    * ``side_maybe`` and ``confirm_side``: hexsides that may block when crossed or run along;
      with ``sides_between`` such a hexside blocks for certain when neither of its hexes is an
      end hex (only those at an end are asked of ``confirm_side``);
    * ``corners``: whether hexes touched only at a corner count (``vertex_policy == "touch"``);
    * ``ends`` and ``ends_maybe``: a check of the end hexes themselves (``include_endpoints``
      rules), asked only when an end is one of the cells in ``ends_maybe``.
    * ``chords``: the geometry of "may block" cells and end hexes, for the compiled loop
      (:class:`Chords`).

    A template that is not :attr:`RayTemplate.regular` (never seen) is walked exactly instead.

    :meth:`clear` is the C query (:attr:`compiled`, a ``_losc.Kernel``) when the extension is
    built, else :attr:`clear_python`; the C query hands what it cannot decide to
    :meth:`_compiled_miss`, which answers through :attr:`clear_python`.
    """

    def __init__(self, board: Board, rules: LosRules, data: Any, *, make: SetMaker,
                 levels: Sequence[int] | None = None, corners: bool = True,
                 confirm_hex: HexConfirm | None = None, side_maybe: int = 0,
                 confirm_side: SideConfirm | None = None,
                 ends: EndsConfirm | None = None, ends_maybe: int = 0,
                 sides_between: bool = False, chords: Chords | None = None) -> None:
        self.board, self.rules, self.data = board, rules, data
        self.chords = chords
        g = self.grid = grid_of(board)
        self.levels: Sequence[int] = levels if levels is not None else bytes(g.size)
        self.nlevels = max(self.levels, default=0) + 1
        self.make = make
        self._sets: dict[int, PairSets] = {}
        self.corners = corners
        self.confirm_hex = confirm_hex
        self.side_maybe = side_maybe
        self.confirm_side = confirm_side
        self.ends = ends
        #: 1 for each cell where an end hex may block (then ``ends`` decides)
        self.end_cells = bytearray(g.size)
        if ends is not None:
            for bit in bits(ends_maybe):
                self.end_cells[bit] = 1
        self.sides_between = sides_between
        # for clear(): (lo, examined hexes) of each regular template seen, by offset key; the
        # certain blocks of each level pair (-1: not built yet)
        self._spans: dict[int, tuple[int, int, int, int, int]] = {}
        self._fast_list = [-1] * (self.nlevels * self.nlevels)
        #: (half, half blocks, half may block, may block) of a level pair that has any of them
        self._halves: list[tuple[int, int, int, int] | None] = \
            [None] * (self.nlevels * self.nlevels)
        # for clear(): per board hex whose end needs no check of its own, (cell, offset key,
        # level * nlevels, level): one dict look-up of the hex instead of attribute reads,
        # arithmetic and bounds checks; a hex not in it (off the board, or an end cell that may
        # block) takes the general path
        k2, n = g._key, self.nlevels
        lv, ec = self.levels, self.end_cells
        self._at: dict[Hex, tuple[int, int, int, int]] = {}
        for h in board.hexes:
            c = g.cell(h)
            if not ec[c]:
                self._at[h] = (c, h.q * k2 + h.r, lv[c] * n, lv[c])
        #: the pure-Python single query (the whole path without the C extension)
        self.clear_python: Callable[[Hex, Hex], bool] = self._hot_clear()
        #: the C query's tables (``_losc.Kernel``), or None: then :attr:`clear_python` answers
        self.compiled: Any = self._compile(COMPILED)
        fast: Callable[[Hex, Hex], bool] = self.clear_python if self.compiled is None \
            else self.compiled.clear
        self.clear = fast  # type: ignore[method-assign,assignment]  # see clear()

    def _compile(self, compiled: Any) -> Any:
        """The kernel's tables for the C query, or None without the extension (or with more
        levels than its byte per cell holds). The level pairs and templates are given to it as
        they are built (:meth:`_pair`, :meth:`_compiled_miss`)."""
        if compiled is None or self.nlevels > 256:
            return None
        self._losc = compiled
        g = self.grid
        chord = bytearray(g.size)
        end_a = end_b = END_ASK
        if self.chords is not None:
            for c, (sa, sb) in self.chords.cells.items():
                chord[c] = 8 * sa + sb
            end_a, end_b = self.chords.end_a, self.chords.end_b
        return compiled.Kernel(g.rays(compiled), self._compiled_miss, g.q0, g.r0,
                               bytes(g.onboard), bytes(self.levels), self.nlevels,
                               bytes(self.end_cells), bytes(chord), end_a, end_b,
                               _packed(self.side_maybe, 3 * g.size), self.corners,
                               self.sides_between)

    def _compiled_miss(self, a: Hex, b: Hex, why: int) -> bool:
        """The C query's callback: it gives the line's template or level pair to the C tables
        when they lack it (once per offset and pair), then answers through the Python path,
        which decides what the rules must (``confirm_hex``, ``confirm_side``, ``ends``) and
        refuses a hex off the board."""
        c = self._losc
        if why == c.WHY_TEMPLATE or why == c.WHY_PAIR:
            ha, hb = Hex(*a), Hex(*b)  # board hexes, or tuples (q, r) equal to them
        if why == c.WHY_TEMPLATE:
            self.grid.give(self.grid.rays(c), hb.q - ha.q, hb.r - ha.r)
        elif why == c.WHY_PAIR:
            g = self.grid
            key = self.levels[g.cell(ha)] * self.nlevels + self.levels[g.cell(hb)]
            if key in self._sets:
                self._give_pair(key)
            else:
                self._pair(key)
        return self.clear_python(a, b)

    def _give_pair(self, key: int) -> None:
        got, n = self._sets[key], self.grid.size
        self.compiled.set_pair(key, _packed(got.blocks, n), _packed(got.maybe, n), got.half,
                               _packed(got.half_blocks, n), _packed(got.half_maybe, n))

    def _pair(self, key: int) -> None:
        """Build the sets of level pair ``key`` and its entries for the hot path of clear()."""
        la, lb = divmod(key, self.nlevels)
        got = self._sets[key] = self.make(la, lb)
        # the hot path decides a line from these; one that meets a "may block" goes to _slow
        self._fast_list[key] = got.blocks
        self._halves[key] = (got.half, got.half_blocks, got.half_maybe, got.maybe) \
            if got.maybe or (got.half and (got.half_blocks or got.half_maybe)) else None
        if self.compiled is not None:
            self._give_pair(key)

    def _bad(self, a: Hex, b: Hex) -> ValueError:
        g = self.grid
        return ValueError(f"line of sight: {b if a in g else a!r} is not on the board")

    def clear(self, a: Hex, b: Hex) -> bool:
        """Whether the line from ``a`` to ``b`` is clear (each instance answers through its C
        query or the function :meth:`_hot_clear` made for it, which do the same)."""
        return self._hot_clear()(a, b)

    def _hot_clear(self) -> Callable[[Hex, Hex], bool]:
        """The hot path of :meth:`clear` as a closure over the kernel's tables (instance
        attributes and bound methods cost a look-up each; a closure's cells and a plain
        function's call cost less): two dict look-ups of the end hexes, one of the line's span,
        one list look-up (the level pair's certain blocks), one shift and AND. Cells that may
        block are asked of ``confirm_hex`` here; a line that needs more (a set not built yet, a
        hexside that may block, an end hex that may block, a hex off the board) goes to
        :meth:`_slow`, which answers every case."""
        at, spans, fast, halves = self._at, self._spans, self._fast_list, self._halves
        slow, checked, side_maybe = self._slow, self._checked, self.side_maybe
        confirm, hex_at = self.confirm_hex, self.grid.hex_at

        def confirmed(a: Hex, b: Hex, shift: int, maybe: int) -> bool:
            # the cells that may block, asked of the rules here rather than through _slow,
            # which would first redo what clear() has done (CORE-122)
            assert confirm is not None
            return any(confirm(a, b, hex_at(shift + bit)) for bit in bits(maybe))

        def clear(a: Hex, b: Hex) -> bool:
            try:
                ca, ka, pa, _ = at[a]
                cb, kb, _, pb = at[b]
                sp = spans[kb - ka]
            except KeyError:
                return checked(a, b)
            pk = pa + pb
            f = fast[pk]
            if f < 0:
                return slow(a, b, ca, cb)
            shift = ca + sp[0]
            if (f >> shift) & sp[1]:
                return False
            hs = halves[pk]
            if hs is not None:
                if hs[3]:
                    maybe = (hs[3] >> shift) & sp[1]
                    if maybe and confirmed(a, b, shift, maybe):
                        return False
                if hs[0]:
                    near = sp[2 + hs[0]]
                    if (hs[1] >> shift) & near:
                        return False
                    if hs[2]:
                        maybe = (hs[2] >> shift) & near
                        if maybe and confirmed(a, b, shift, maybe):
                            return False
            if side_maybe and (side_maybe >> (3 * shift)) & sp[2]:
                return slow(a, b, ca, cb)
            return True

        return clear

    def _checked(self, a: Hex, b: Hex) -> bool:
        """:meth:`clear` for ends that are not both in the hot path's table: off the board (an
        error) or an end hex that may block."""
        g = self.grid
        return self._slow(a, b, g.board_cell(a), g.board_cell(b))

    def _slow(self, a: Hex, b: Hex, ca: int, cb: int) -> bool:
        dq, dr = b.q - a.q, b.r - a.r
        t = self.grid.template(dq, dr)
        if t.regular:
            m = t.touched if self.corners else t.body
            self._spans[dq * self.grid._key + dr] = (t.lo, m, t.sides, t.near[1] & m,
                                                     t.near[2] & m)
        pk = self.levels[ca] * self.nlevels + self.levels[cb]
        if pk not in self._sets:
            self._pair(pk)
        return self._clear(a, b, ca + t.lo, t, self._sets[pk])

    def _clear(self, a: Hex, b: Hex, shift: int, t: RayTemplate, got: PairSets) -> bool:
        if not t.regular:
            return TraceKernel(self.board, self.rules, self.data).clear(a, b)
        m = t.touched if self.corners else t.body
        if (got.blocks >> shift) & m:
            return False
        maybe = (got.maybe >> shift) & m
        if got.half:
            half = t.near[got.half] & m
            if (got.half_blocks >> shift) & half:
                return False
            maybe |= (got.half_maybe >> shift) & half
        if maybe:
            assert self.confirm_hex is not None
            for bit in bits(maybe):
                if self.confirm_hex(a, b, self.grid.hex_at(shift + bit)):
                    return False
        if self.side_maybe:
            maybe = (self.side_maybe >> (3 * shift)) & t.sides
            if maybe:
                assert self.confirm_side is not None
                for bit in bits(maybe):
                    x, y = self.grid.side_hexes(3 * shift + bit)
                    if self.sides_between and x != a and x != b and y != a and y != b:
                        return False
                    if self.confirm_side(a, b, x, y):
                        return False
        if self.ends is not None:
            g, ec = self.grid, self.end_cells
            if (ec[g.cell(a)] or ec[g.cell(b)]) and self.ends(a, b):
                return False
        return True

    def visible(self, a: Hex, targets: Iterable[Hex]) -> set[Hex]:
        from hexwar.core import losjit

        if isinstance(targets, Collection) and losjit.usable(self, len(targets)):
            ts = targets if isinstance(targets, Sequence) else self.grid.listed(targets)
            return {b for b, ok in zip(ts, losjit.run_from(self, a, ts), strict=True) if ok}
        clear = self.clear
        return {b for b in targets if clear(a, b)}

    def clear_pairs(self, pairs: Iterable[tuple[Hex, Hex]]) -> list[bool]:
        from hexwar.core import losjit

        if isinstance(pairs, Sequence) and losjit.usable(self, len(pairs)):
            return losjit.run(self, pairs)
        return self.clear_pairs_python(pairs)

    def clear_coords(self, coords: Any) -> Any:
        """:meth:`clear` for each row ``(aq, ar, bq, br)`` of an integer array (numpy), as a
        numpy bool array: the batch form for callers that hold coordinates, not hexes."""
        from hexwar.core import losjit

        return losjit.run_coords(self, coords)

    def clear_pairs_python(self, pairs: Iterable[tuple[Hex, Hex]]) -> list[bool]:
        """:meth:`clear_pairs` without the compiled loop (:mod:`hexwar.core.losjit`)."""
        clear = self.clear
        return [clear(a, b) for a, b in pairs]


def _packed(mask: int, nbits: int) -> bytes:
    """A bit set as little-endian bytes, at least ``nbits`` long (the C tables' form)."""
    return mask.to_bytes(max((nbits + 7) // 8, (mask.bit_length() + 7) // 8), "little")


def sight_kernel(board: Board, rules: LosRules, data: Any = None) -> SightKernel:
    """The fastest exact kernel for ``rules`` on ``board``: the rules' own ``sight_kernel(board,
    data)`` when they have one that applies, else the exact per-pair trace."""
    make = getattr(rules, "sight_kernel", None)
    if make is not None:
        k: SightKernel | None = make(board, data)
        if k is not None:
            return k
    return TraceKernel(board, rules, data)


def los_clear(board: Board, a: Hex, b: Hex, rules: LosRules, data: Any = None) -> bool:
    """``line_of_sight(board, a, b, rules, data).clear``, through the rules' kernel. For many
    queries, get the kernel once (:func:`sight_kernel`) and call its ``clear``."""
    return sight_kernel(board, rules, data).clear(a, b)


def visible_from(board: Board, origin: Hex, rules: LosRules, targets: Iterable[Hex] | None = None,
                 data: Any = None) -> set[Hex]:
    """The hexes among ``targets`` (default: every board hex) to which the line of sight from
    ``origin`` is clear under ``rules``: "what can a unit in ``origin`` see"."""
    return sight_kernel(board, rules, data).visible(
        origin, board.hexes if targets is None else targets)


def clear_pairs(board: Board, pairs: Sequence[tuple[Hex, Hex]], rules: LosRules,
                data: Any = None) -> list[bool]:
    """``clear`` for each ``(a, b)`` in ``pairs``, in order."""
    return sight_kernel(board, rules, data).clear_pairs(pairs)
