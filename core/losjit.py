"""The batch forms of :class:`~hexwar.core.losgrid.MaskKernel` as one compiled loop (numba).

Optional: with numba and numpy installed (the ``fast`` extra) a batch of lines (every hex seen
from one hex, many random pairs) runs through :func:`_run`, compiled on first use; without them,
or for a batch too small to be worth it, the pure-Python bit-set loops of core/losgrid.py answer.
Both give the same answers, which are those of the exact trace (tests/core/test_los_fast.py runs
them side by side).

The compiled loop sees the kernel as flat arrays: the board's ray templates (every examined hex as
a cell offset with flags, every crossed hexside as an index offset), a byte per cell for each of
the kernel's sets per pair of end levels. It decides a line for certain (clear, blocked) or says
"undecided" when the line meets a cell or hexside that only may block, or an end hex that may
block; the undecided lines (rare) go back to the kernel's exact Python path. Cells and end hexes
whose answer is a picture's geometry (:class:`~hexwar.core.losgrid.Chords`: Firepower's fences
with a Prone unit) are decided in the loop, in integer geometry.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from operator import attrgetter, itemgetter
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from hexwar.core.hexgrid import Hex
    from hexwar.core.losgrid import LosGrid, MaskKernel

#: batches smaller than this stay in Python (the arrays cost some 100 us a call, and compiling a
#: few seconds once, then numba's disk cache)
MIN_BATCH = 1_000

_F_BODY, _F_GRAZED, _F_NEAR_A, _F_NEAR_B = 1, 2, 4, 8

try:  # optional: the ``fast`` extra
    import numpy as np

    HAVE_NUMPY = True
except ImportError:  # pragma: no cover - depends on the environment
    HAVE_NUMPY = False
try:
    if os.environ.get("HEXWAR_NO_JIT"):
        raise ImportError("HEXWAR_NO_JIT is set")
    from numba import njit

    AVAILABLE = HAVE_NUMPY
except ImportError:  # pragma: no cover - depends on the environment
    AVAILABLE = False


# -- chords (losgrid.Chords), in integers -----------------------------------------------------------
# Points are in units where a hex centre (q, r) is (6q, 4r + 2q): x scaled by 4 and y by
# 4 / sqrt(3) from terrain.centre's (1.5q, sqrt(3)(r + q/2)), so hexside midpoints are whole and
# every sign of a cross product is that of the real one, exactly (the float geometry of
# plugins/firepower/terrain.py compares with a tolerance of 1e-9, far below the smallest non-zero
# value these integers can give on a board).


def _sgn(v: int) -> int:
    return 0 if v == 0 else (1 if v > 0 else -1)


def _cross(ox: int, oy: int, ax: int, ay: int, bx: int, by: int) -> int:
    return (ax - ox) * (by - oy) - (ay - oy) * (bx - ox)


def _side_x(side: int) -> int:
    """x of the midpoint of hexside ``side`` (1..6) from its hex's centre: 3 * dq."""
    return (0, 3, 3, 0, -3, -3)[side - 1]


def _side_y(side: int) -> int:
    """y of the midpoint of hexside ``side`` from its hex's centre: 2 * dr + dq."""
    return (-2, -1, 1, 2, 1, -1)[side - 1]


def _within(ax: int, ay: int, bx: int, by: int, cx: int, cy: int) -> bool:
    return min(ax, bx) <= cx <= max(ax, bx) and min(ay, by) <= cy <= max(ay, by)


def _chord_crossed(dq: int, dr: int, hq: int, hr: int, code: int) -> bool:
    """Whether the line from the centre of (0, 0) to that of (dq, dr) passes through or along
    the chord ``code`` (8 * side_a + side_b) of hex (hq, hr): terrain.segments_touch."""
    sa, sb = code >> 3, code & 7
    px, py = 6 * dq, 4 * dr + 2 * dq
    cx, cy = 6 * hq, 4 * hr + 2 * hq
    ax, ay = cx + _side_x(sa), cy + _side_y(sa)
    bx, by = cx + _side_x(sb), cy + _side_y(sb)
    d1 = _sgn(_cross(ax, ay, bx, by, 0, 0))
    d2 = _sgn(_cross(ax, ay, bx, by, px, py))
    d3 = _sgn(_cross(0, 0, px, py, ax, ay))
    d4 = _sgn(_cross(0, 0, px, py, bx, by))
    if d1 * d2 < 0 and d3 * d4 < 0:
        return True
    return ((d1 == 0 and _within(ax, ay, bx, by, 0, 0))
            or (d2 == 0 and _within(ax, ay, bx, by, px, py))
            or (d3 == 0 and _within(0, 0, px, py, ax, ay))
            or (d4 == 0 and _within(0, 0, px, py, bx, by)))


def _chord_between(code: int, part: int, dq: int, dr: int) -> bool:
    """Whether the chord ``code`` of a hex lies between a unit on the part of the hex holding
    hexside ``part`` (0: either part) and the hex at offset (dq, dr) != (0, 0):
    terrain.Picture.between, with the point where the line leaves the hex scaled by its lattice
    rate ``m`` (and the chord's ends with it, which keeps every sign)."""
    sa, sb = code >> 3, code & 7
    ds = -dq - dr
    m = max(abs(dq - dr), abs(dr - ds), abs(ds - dq))
    s = _sgn(_cross(m * _side_x(sa), m * _side_y(sa), m * _side_x(sb), m * _side_y(sb),
                    6 * dq, 4 * dr + 2 * dq))
    if s == 0 or part == 0:
        return True
    return s != _sgn(_cross(_side_x(sa), _side_y(sa), _side_x(sb), _side_y(sb),
                            _side_x(part), _side_y(part)))


def _end_state(h: int, other: int, rule: int, chord: Any, height: int) -> int:
    """0 clear, 1 blocked, 2 undecided: what the end hex in cell ``h`` does to the line toward
    cell ``other`` under a :class:`~hexwar.core.losgrid.Chords` end rule."""
    if rule == -1:
        return 2
    if rule == -2 or h == other:  # a picture never lies between a unit and its own hex
        return 0
    code = chord[h]
    if code == 0:
        return 2
    dq, dr = other // height - h // height, other % height - h % height
    return 1 if _chord_between(code, rule, dq, dr) else 0


def _kernel_loop(ca: Any, cb: Any, tk: Any, pk: Any, tstart: Any, tcount: Any, sstart: Any,
                 scount: Any, ecell: Any, eflag: Any, scell: Any, certain: Any, maybe: Any,
                 half: Any, hcertain: Any, hmaybe: Any, side_maybe: Any, end_cells: Any,
                 chord: Any, end_rule: Any, corners: bool, sides_between: bool, height: int,
                 out: Any) -> None:
    """0 clear, 1 blocked, 2 undecided, for each line ``i`` (see the module docstring)."""
    skip = 0 if corners else _F_GRAZED
    # the hexside slots' neighbour offsets in cells: N, NE, SE
    step = (-1, height - 1, height)
    for i in range(ca.shape[0]):
        a, k, p = ca[i], tk[i], pk[i]
        st = tstart[k]
        if st < 0:
            out[i] = 2
            continue
        res = 0
        if end_cells[a]:
            res = _end_state(a, cb[i], end_rule[0], chord, height)
        if res != 1 and end_cells[cb[i]]:
            e = _end_state(cb[i], a, end_rule[1], chord, height)
            res = e if e == 1 or res == 0 else res
        if res == 1:
            out[i] = 1
            continue
        qa, ra = a // height, a % height
        dq, dr = cb[i] // height - qa, cb[i] % height - ra
        hv = half[p]
        near = _F_NEAR_A if hv == 1 else _F_NEAR_B
        blocked = False
        for j in range(st, st + tcount[k]):
            f = eflag[j]
            if f & skip:
                continue
            c = a + ecell[j]
            if certain[p, c]:
                blocked = True
                break
            if maybe[p, c]:
                code = chord[c]
                if code == 0:
                    res = 2
                elif _chord_crossed(dq, dr, c // height - qa, c % height - ra, code):
                    blocked = True
                    break
            if hv and f & near:
                if hcertain[p, c]:
                    blocked = True
                    break
                if hmaybe[p, c]:
                    res = 2
        if blocked:
            out[i] = 1
            continue
        s0 = 3 * a
        b = cb[i]
        for j in range(sstart[k], sstart[k] + scount[k]):
            s = s0 + scell[j]
            if side_maybe[s]:
                x = s // 3
                y = x + step[s % 3]
                if sides_between and x != a and x != b and y != a and y != b:
                    res = 1
                    break
                res = 2
        out[i] = res


_run: Any = None


#: the loop's helpers, compiled before it (numba reads them from the module's globals; called
#: from Python, as the tests do, they answer the same)
_HELPERS = ("_sgn", "_cross", "_side_x", "_side_y", "_within", "_chord_crossed",
            "_chord_between", "_end_state")


def _compiled() -> Any:
    global _run
    if _run is None:
        jit = njit(cache=True, nogil=True)
        names = globals()
        for name in _HELPERS:
            names[name] = jit(names[name])
        _run = jit(_kernel_loop)
    return _run


class Packed:
    """A grid's templates as flat arrays, grown as templates are added (kept on the grid)."""

    def __init__(self, grid: LosGrid) -> None:
        self.grid = grid
        self.W2, self.H2 = 2 * grid.W + 1, 2 * grid.H + 1
        n = self.W2 * self.H2
        self.tstart = np.full(n, -1, np.int64)
        self.tcount = np.zeros(n, np.int64)
        self.sstart = np.zeros(n, np.int64)
        self.scount = np.zeros(n, np.int64)
        self._cells: list[int] = []
        self._flags: list[int] = []
        self._sides: list[int] = []
        self.ecell = np.zeros(0, np.int64)
        self.eflag = np.zeros(0, np.uint8)
        self.scell = np.zeros(0, np.int64)
        self._dirty = False

    def dense(self, dq: Any, dr: Any) -> Any:
        return (dq + self.grid.W) * self.H2 + (dr + self.grid.H)

    def ensure(self, dq: Any, dr: Any) -> Any:
        """The dense template index of each offset, packing the templates not packed yet."""
        keys = self.dense(dq, dr)
        missing = np.unique(keys[self.tstart[keys] < 0])
        for key in missing.tolist():
            odq, odr = divmod(int(key), self.H2)
            self._add(key, odq - self.grid.W, odr - self.grid.H)
        if self._dirty:
            self.ecell = np.asarray(self._cells, np.int64)
            self.eflag = np.asarray(self._flags, np.uint8)
            self.scell = np.asarray(self._sides, np.int64)
            self._dirty = False
        return keys

    def _add(self, key: int, dq: int, dr: int) -> None:
        from hexwar.core.losgrid import bits

        t = self.grid.template(dq, dr)
        if not t.regular:
            return  # left at -1: undecided, walked exactly
        self._dirty = True
        self.tstart[key] = len(self._cells)
        count = 0
        for bit in bits(t.touched):
            m = 1 << bit
            f = (_F_BODY if t.body & m else _F_GRAZED) | (_F_NEAR_A if t.near[1] & m else 0) | \
                (_F_NEAR_B if t.near[2] & m else 0)
            self._cells.append(t.lo + bit)
            self._flags.append(f)
            count += 1
        self.tcount[key] = count
        self.sstart[key] = len(self._sides)
        n = 0
        for bit in bits(t.sides):
            self._sides.append(3 * t.lo + bit)
            n += 1
        self.scount[key] = n


def _bytes_of(mask: int, size: int) -> Any:
    raw = np.frombuffer(mask.to_bytes((size + 7) // 8, "little"), np.uint8)
    return np.unpackbits(raw, bitorder="little")[:size]


class JitTables:
    """A kernel's sets for every pair of end levels, one byte per cell (kept on the kernel)."""

    def __init__(self, k: MaskKernel) -> None:
        size, n = k.grid.size, k.nlevels
        for key in range(n * n):
            if key not in k._sets:
                k._pair(key)
        pairs = [k._sets[key] for key in range(n * n)]
        self.certain = np.stack([_bytes_of(p.blocks, size) for p in pairs])
        self.maybe = np.stack([_bytes_of(p.maybe, size) for p in pairs])
        self.half = np.asarray([p.half for p in pairs], np.int64)
        self.hcertain = np.stack([_bytes_of(p.half_blocks, size) for p in pairs])
        self.hmaybe = np.stack([_bytes_of(p.half_maybe, size) for p in pairs])
        self.side_maybe = _bytes_of(k.side_maybe, 3 * size)
        self.end_cells = np.frombuffer(bytes(k.end_cells), np.uint8)
        #: 8 * side_a + side_b of each cell's chord (0: none), and the two ends' rules
        self.chord = np.zeros(size, np.int64)
        self.end_rule = np.full(2, -1, np.int64)
        if k.chords is not None:
            for c, (sa, sb) in k.chords.cells.items():
                self.chord[c] = 8 * sa + sb
            self.end_rule[:] = (k.chords.end_a, k.chords.end_b)
        self.levels = np.asarray(list(k.levels), np.int64)


def usable(k: MaskKernel, n: int) -> bool:
    """Whether a batch of ``n`` lines should go through the compiled loop."""
    return AVAILABLE and n >= MIN_BATCH and k.nlevels <= 64


def run(k: MaskKernel, pairs: Sequence[tuple[Hex, Hex]]) -> list[bool]:
    """``k.clear`` for each pair, through the compiled loop (``usable`` must hold)."""
    n = len(pairs)
    firsts, seconds = list(map(_first, pairs)), list(map(_second, pairs))
    return _run_cells(k, pairs, np.fromiter(map(_q, firsts), np.int64, n),
                      np.fromiter(map(_r, firsts), np.int64, n),
                      np.fromiter(map(_q, seconds), np.int64, n),
                      np.fromiter(map(_r, seconds), np.int64, n))


_first, _second = itemgetter(0), itemgetter(1)
_q, _r = attrgetter("q"), attrgetter("r")


def run_from(k: MaskKernel, a: Hex, targets: Sequence[Hex]) -> list[bool]:
    """``k.clear(a, t)`` for each of ``targets`` (``usable`` must hold)."""
    last = _LAST_TARGETS[0]
    if last is not None and last[0] is targets:
        flat = last[1]  # the same targets again (every hex of a board, from one origin after another)
    else:
        n = len(targets)
        flat = np.stack([np.fromiter(map(_q, targets), np.int64, n),
                         np.fromiter(map(_r, targets), np.int64, n)], axis=1)
        if type(targets) is tuple:  # only an immutable sequence can be known again by identity
            _LAST_TARGETS[0] = (targets, flat)
    n = len(targets)
    return _run_cells(k, _Pairs(a, targets), np.full(n, a.q, np.int64),
                      np.full(n, a.r, np.int64), flat[:, 0], flat[:, 1])


#: the last target list given to :func:`run_from` and its coordinates (held, so ``is`` is safe)
_LAST_TARGETS: list[tuple[Sequence[Hex], Any] | None] = [None]


def run_coords(k: MaskKernel, coords: Any) -> Any:
    """``k.clear`` for each row ``(aq, ar, bq, br)`` of an integer array, as a numpy bool array:
    the batch form for callers that hold coordinates rather than :class:`Hex` objects (needs
    numpy; compiled when numba is there)."""
    from hexwar.core.hexgrid import Hex

    if not HAVE_NUMPY:  # pragma: no cover - depends on the environment
        raise RuntimeError("clear_coords needs numpy (pip install 'hexwar[fast]')")
    c = np.asarray(coords, np.int64).reshape(-1, 4)
    pairs = _CoordPairs(c, Hex)
    if not AVAILABLE:  # pragma: no cover - depends on the environment
        return np.asarray(k.clear_pairs_python(pairs), bool)
    return np.asarray(_run_cells(k, pairs, c[:, 0], c[:, 1], c[:, 2], c[:, 3]), bool)


class _CoordPairs(Sequence[tuple["Hex", "Hex"]]):
    """The rows of a coordinate array as pairs of hexes, made only when asked for."""

    def __init__(self, c: Any, hex_type: Any) -> None:
        self.c, self.hex = c, hex_type

    def __len__(self) -> int:
        return int(self.c.shape[0])

    def __getitem__(self, i: Any) -> Any:
        aq, ar, bq, br = (int(x) for x in self.c[i])
        return (self.hex(aq, ar), self.hex(bq, br))


class _Pairs(Sequence[tuple["Hex", "Hex"]]):
    """``(a, t)`` for each target, without building the list."""

    def __init__(self, a: Hex, targets: Sequence[Hex]) -> None:
        self.a, self.targets = a, targets

    def __len__(self) -> int:
        return len(self.targets)

    def __getitem__(self, i: Any) -> Any:
        return (self.a, self.targets[i])


def _run_cells(k: MaskKernel, pairs: Sequence[tuple[Hex, Hex]], qa: Any, ra: Any, qb: Any,
               rb: Any) -> list[bool]:
    g = k.grid
    ca = (qa - g.q0) * g.H + (ra - g.r0)
    cb = (qb - g.q0) * g.H + (rb - g.r0)
    ok = ((ra - g.r0 >= 0) & (ra - g.r0 < g.H) & (rb - g.r0 >= 0) & (rb - g.r0 < g.H)
          & (ca >= 0) & (ca < g.size) & (cb >= 0) & (cb < g.size))
    onboard = np.frombuffer(bytes(g.onboard), np.uint8)
    ok &= (onboard[np.where(ok, ca, 0)] & onboard[np.where(ok, cb, 0)]).astype(bool)
    if not ok.all():
        k.clear(*pairs[int(np.flatnonzero(~ok)[0])])  # raises, naming the hex
    packed: Packed | None = getattr(g, "_packed", None)
    if packed is None:
        packed = Packed(g)
        g._packed = packed  # type: ignore[attr-defined]
    tk = packed.ensure(qb - qa, rb - ra)
    tables: JitTables | None = getattr(k, "_jit", None)
    if tables is None:
        tables = JitTables(k)
        k._jit = tables  # type: ignore[attr-defined]
    pk = tables.levels[ca] * k.nlevels + tables.levels[cb]
    out = np.empty(len(pairs), np.uint8)
    _compiled()(ca, cb, tk, pk, packed.tstart, packed.tcount, packed.sstart, packed.scount,
                packed.ecell, packed.eflag, packed.scell, tables.certain, tables.maybe,
                tables.half, tables.hcertain, tables.hmaybe, tables.side_maybe,
                tables.end_cells, tables.chord, tables.end_rule, k.corners, k.sides_between,
                g.H, out)
    result: list[bool] = (out == 0).tolist()
    for i in np.flatnonzero(out == 2).tolist():
        a, b = pairs[i]
        result[i] = k.clear(a, b)
    return result
