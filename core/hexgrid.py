"""Hex geometry: flat-topped hexes in axial coordinates, directions, arcs and exact line traces.

Algorithms (axial/cube coordinates, neighbours, distance, rings, spirals, pixel conversion and cube
rounding) follow Amit Patel's "Hexagonal Grids" guide, Red Blob Games
(https://www.redblobgames.com/grids/hexagons/, code released CC0). The line trace does not use Red
Blob's nudged ``hex_linedraw``: it walks the segment exactly, with integer arithmetic, so a line
that runs along a hexside or passes through a corner is reported as such instead of being nudged
silently to one side.

Conventions (all three rulebooks draw flat-topped hexes: the Firefight maps, MBT 1.1, Firepower 1.1):

* ``Hex(q, r)``: axial coordinates; ``s = -q - r`` is the third cube coordinate.
* Directions are the hexsides numbered 1..6 clockwise from the top hexside (MBT 1.1, Firepower
  1.1 "directional hex")::

      1 = N  (0, -1)    2 = NE (+1, -1)    3 = SE (+1, 0)
      4 = S  (0, +1)    5 = SW (-1, +1)    6 = NW (-1, 0)

* Pixels: ``x`` grows to the right, ``y`` grows downward (toward direction 4); ``size`` is the
  corner radius of a hex (Red Blob's convention), so adjacent centres are ``size * sqrt(3)``
  apart.

Exactness. Every geometric decision (arc membership, which hexes a line touches, whether it runs
along a hexside or through a corner) is made with integers. Two integer-valued coordinate systems
are used internally:

* "lattice" coordinates ``u = q - r``, ``v = r - s``, ``w = s - q`` (``u + v + w = 0``): a hex's
  closed region is ``|u - u_h| <= 1``, ``|v - v_h| <= 1``, ``|w - w_h| <= 1``, so its six
  hexsides lie on the lines ``u = u_h +- 1`` etc. and a point on the segment ``a + t (b - a)``
  crosses them at rational ``t``.
* scaled pixel coordinates ``X = 3 q``, ``Y = 2 r + q`` (a linear map of the true pixel plane with
  positive determinant), in which cross products have the true sign; used for arcs.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Literal, NamedTuple

__all__ = [
    "ARCS",
    "DIRECTIONS",
    "DIRECTION_NAMES",
    "Arc",
    "Hex",
    "StepEntry",
    "Trace",
    "TraceStep",
    "arc_directions",
    "direction_vector",
    "from_pixel",
    "hex_distance",
    "hex_round",
    "in_arc",
    "opposite",
    "rotate_direction",
    "trace",
]

SQRT3 = math.sqrt(3.0)

#: Axial (dq, dr) of the neighbour across each hexside, index 0 = direction 1.
_DQ = (0, 1, 1, 0, -1, -1)
_DR = (-1, -1, 0, 1, 1, 0)

DIRECTION_NAMES = {1: "N", 2: "NE", 3: "SE", 4: "S", 5: "SW", 6: "NW"}


class Hex(NamedTuple):
    """One hex, axial coordinates ``(q, r)``; immutable, hashable and ordered (by q, then r).

    A named tuple rather than a frozen dataclass: hashing, equality and ordering then run in C,
    and the engine does millions of them a game (set and dict look-ups of hexes). It equals the
    plain tuple ``(q, r)`` and encodes to JSON as ``[q, r]``, as the game state always wrote it.
    """

    q: int
    r: int

    @property
    def s(self) -> int:
        """The third cube coordinate, ``-q - r``."""
        return -self.q - self.r

    def __add__(self, other: Hex) -> Hex:  # type: ignore[override]  # vector sum, not concatenation
        return Hex(self.q + other.q, self.r + other.r)

    def __sub__(self, other: Hex) -> Hex:
        return Hex(self.q - other.q, self.r - other.r)

    def __neg__(self) -> Hex:
        return Hex(-self.q, -self.r)

    def scale(self, k: int) -> Hex:
        """This hex taken as a vector from the origin, times ``k``."""
        return Hex(self.q * k, self.r * k)

    def neighbor(self, direction: int) -> Hex:
        """The hex across hexside ``direction`` (1..6)."""
        i = _check_direction(direction) - 1
        return Hex(self.q + _DQ[i], self.r + _DR[i])

    def neighbors(self) -> tuple[Hex, Hex, Hex, Hex, Hex, Hex]:
        """The six neighbours, in direction order 1..6."""
        q, r = self.q, self.r
        return (
            Hex(q, r - 1),
            Hex(q + 1, r - 1),
            Hex(q + 1, r),
            Hex(q, r + 1),
            Hex(q - 1, r + 1),
            Hex(q - 1, r),
        )

    def distance(self, other: Hex) -> int:
        """Hex distance: the number of steps from this hex to ``other`` (range, Firefight 6.0 step 1)."""
        dq = self.q - other.q
        dr = self.r - other.r
        return (abs(dq) + abs(dr) + abs(dq + dr)) // 2

    def direction_to(self, other: Hex) -> int | None:
        """The hexside (1..6) shared with an adjacent ``other``; ``None`` if not adjacent."""
        return _DIR_OF.get((other.q - self.q, other.r - self.r))

    def ring(self, radius: int) -> tuple[Hex, ...]:
        """The hexes at exactly ``radius`` steps (6 * radius of them), clockwise from the north."""
        if radius < 0:
            raise ValueError(f"ring radius must be >= 0, got {radius}")
        if radius == 0:
            return (self,)
        out: list[Hex] = []
        q, r = self.q, self.r - radius  # start straight north, walk clockwise
        for d in (3, 4, 5, 6, 1, 2):
            dq, dr = _DQ[d - 1], _DR[d - 1]
            for _ in range(radius):
                out.append(Hex(q, r))
                q += dq
                r += dr
        return tuple(out)

    def within(self, radius: int) -> tuple[Hex, ...]:
        """Every hex at most ``radius`` steps away, as a spiral: this hex, then ring 1, ring 2..."""
        if radius < 0:
            raise ValueError(f"radius must be >= 0, got {radius}")
        out: list[Hex] = [self]
        for k in range(1, radius + 1):
            out.extend(self.ring(k))
        return tuple(out)

    def to_pixel(self, size: float = 1.0) -> tuple[float, float]:
        """Centre in pixels (flat-topped, y down); ``size`` = corner radius."""
        return size * 1.5 * self.q, size * SQRT3 * (self.r + self.q / 2.0)

    @staticmethod
    def from_pixel(x: float, y: float, size: float = 1.0) -> Hex:
        """The hex containing pixel ``(x, y)`` (cube rounding); inverse of :meth:`to_pixel`."""
        return from_pixel(x, y, size)

    def __repr__(self) -> str:
        return f"Hex({self.q}, {self.r})"


_DIR_OF: dict[tuple[int, int], int] = {(_DQ[i], _DR[i]): i + 1 for i in range(6)}

#: Direction number -> unit vector as a Hex.
DIRECTIONS: dict[int, Hex] = {i + 1: Hex(_DQ[i], _DR[i]) for i in range(6)}


def _check_direction(direction: int) -> int:
    if type(direction) is not int or not 1 <= direction <= 6:
        raise ValueError(f"direction must be an integer 1..6, got {direction!r}")
    return direction


def direction_vector(direction: int) -> Hex:
    """Unit vector of hexside ``direction`` (1..6)."""
    return DIRECTIONS[_check_direction(direction)]


def opposite(direction: int) -> int:
    """The hexside opposite ``direction``: 1<->4, 2<->5, 3<->6."""
    return (_check_direction(direction) + 2) % 6 + 1


def rotate_direction(direction: int, steps: int) -> int:
    """``direction`` turned ``steps`` hexsides clockwise (negative = counter-clockwise)."""
    return (_check_direction(direction) - 1 + steps) % 6 + 1


def hex_distance(a: Hex, b: Hex) -> int:
    """Hex distance between ``a`` and ``b``."""
    return a.distance(b)


def from_pixel(x: float, y: float, size: float = 1.0) -> Hex:
    """The hex containing pixel ``(x, y)`` (flat-topped, y down, ``size`` = corner radius)."""
    if size <= 0:
        raise ValueError(f"hex size must be positive, got {size}")
    qf = (2.0 / 3.0 * x) / size
    rf = (-1.0 / 3.0 * x + SQRT3 / 3.0 * y) / size
    return hex_round(qf, rf)


def hex_round(qf: float, rf: float) -> Hex:
    """The hex nearest to fractional axial coordinates (cube rounding, Red Blob Games)."""
    sf = -qf - rf
    q, r, s = round(qf), round(rf), round(sf)
    dq, dr, ds = abs(q - qf), abs(r - rf), abs(s - sf)
    if dq > dr and dq > ds:
        q = -r - s
    elif dr > ds:
        r = -q - s
    return Hex(int(q), int(r))


# ---------------------------------------------------------------------------------------------
# Arcs
# ---------------------------------------------------------------------------------------------

#: The twelve boundary rays, in 30-degree steps clockwise from "straight up" (bearing 0), as
#: axial vectors. Even steps point at neighbour centres (hexside directions 1..6); odd steps point
#: through hex corners (the sum of the two neighbouring hexside vectors).
_RAYS: tuple[tuple[int, int], ...] = tuple(
    (_DQ[k // 2], _DR[k // 2])
    if k % 2 == 0
    else (_DQ[k // 2] + _DQ[(k // 2 + 1) % 6], _DR[k // 2] + _DR[(k // 2 + 1) % 6])
    for k in range(12)
)


def _xy(q: int, r: int) -> tuple[int, int]:
    """Scaled pixel coordinates (X = 3q, Y = 2r + q): integer, same orientation as pixels."""
    return 3 * q, 2 * r + q


def _cross(ax: int, ay: int, bx: int, by: int) -> int:
    """> 0 when b is clockwise from a (y down), 0 when collinear."""
    return ax * by - ay * bx


@dataclass(frozen=True, slots=True)
class Arc:
    """A wedge from a hex centre, relative to a facing hexside.

    ``start`` and ``end`` are boundary rays in 30-degree steps clockwise from the facing hexside's
    direction (0 = straight through the middle of the facing hexside; +-1 = through the corners at
    each end of it; +-2 = through the centres of the neighbours on either side). The wedge runs
    clockwise from ``start`` to ``end``; ``end - start`` is its width in 30-degree steps (12 = all
    round).
    """

    name: str
    start: int
    end: int
    rule: str = ""

    @property
    def degrees(self) -> int:
        return 30 * (self.end - self.start)


#: Named arcs. A hex is "in" an arc when its centre lies in the closed wedge (see :func:`in_arc`).
ARCS: dict[str, Arc] = {
    a.name: a
    for a in (
        # MBT 7.2.1.2 turret arc, MBT 14.2.1 "60" hull arc, MBT 12.3.1 suppressed sighting arc,
        # Firepower 6.3.3 firing arc: 60 degrees centred on the facing hexside, bounded by the lines
        # through the corners at each end of it.
        Arc("front60", -1, 1, "MBT 7.2.1.2, MBT 14.2.1, Firepower 6.3.3"),
        # MBT 14.2.1 "60R": the same wedge centred on the rear hexside.
        Arc("rear60", 5, 7, "MBT 14.2.1"),
        # MBT 14.2.1 "120" (and 20.1.3.1 aircraft sighting): 120 degrees centred on the facing
        # hexside, bounded by the rows of hexes through the two front-side neighbours (the diagram
        # is missing from the text; assumed, see docs).
        Arc("front120", -2, 2, "MBT 14.2.1"),
        # MBT 20.3.2.2: 120 degrees centred on the rear hexside (MT missiles, target's rear).
        Arc("rear120", 4, 8, "MBT 20.3.2.2"),
        # MBT 14.2.1 "SID": 120 degrees from a side (helicopters). The side of a hex-facing unit
        # points at a corner, so the wedge is bounded by corner rays and holds two whole hexsides
        # (assumed; the diagram is missing).
        Arc("right120", 1, 5, "MBT 14.2.1"),
        Arc("left120", -5, -1, "MBT 14.2.1"),
        # Front and rear halves: the line through the two corners at the ends of the side hexsides.
        Arc("front180", -3, 3, ""),
        Arc("rear180", 3, 9, ""),
        # MBT 14.2.1 "360".
        Arc("all360", 0, 12, "MBT 14.2.1"),
    )
}
ARCS["60"] = ARCS["front60"]
ARCS["60R"] = ARCS["rear60"]
ARCS["120"] = ARCS["front120"]
ARCS["360"] = ARCS["all360"]

Boundary = Literal["include", "exclude"]


def in_arc(
    origin: Hex,
    facing: int,
    target: Hex,
    arc: Arc | str = "front60",
    *,
    boundary: Boundary = "include",
) -> bool:
    """Whether ``target`` lies in ``arc`` of a unit in ``origin`` facing hexside ``facing``.

    A hex counts when its centre lies inside the closed wedge. For wedges bounded by lines through
    hex corners or hex centres (every arc in :data:`ARCS`) this is exactly "the hex, or part of it,
    lies in the wedge" (MBT 7.2.1.2 and Firepower 6.3.3 include partial hexes): a boundary ray
    either passes through hex centres or runs along hexsides, so a hex whose centre is outside
    touches the wedge only along an edge, never with any area.

    Boundary policy: a hex whose centre lies exactly on a boundary ray is half inside; with
    ``boundary="include"`` (default, the partial-hex rule) it is in the arc, with ``"exclude"`` it
    is not. The origin hex itself is in every arc. Works for any origin and distance.
    """
    a = ARCS[arc] if isinstance(arc, str) else arc
    if a.end - a.start >= 12:
        return True
    if target == origin:
        return True
    f = _check_direction(facing) - 1
    return _in_wedge(target.q - origin.q, target.r - origin.r, f, a.start, a.end, boundary)


# bounded, and small enough to be full after a few games (a cache still filling over hundreds of
# games grows the process from game to game: docs/decisions.md CORE-117); asked tens of
# thousands of times a game
@functools.lru_cache(maxsize=1 << 13)
def _in_wedge(dq: int, dr: int, f: int, start: int, end: int, boundary: Boundary) -> bool:
    """:func:`in_arc` for a target ``(dq, dr)`` from the origin, facing index ``f`` (0-5)."""
    width = end - start
    px, py = _xy(dq, dr)
    sq, sr = _RAYS[(2 * f + start) % 12]
    eq, er = _RAYS[(2 * f + end) % 12]
    sx, sy = _xy(sq, sr)
    ex, ey = _xy(eq, er)
    c1 = _cross(sx, sy, px, py)  # >= 0: target clockwise from start
    c2 = _cross(px, py, ex, ey)  # >= 0: end clockwise from target
    if width < 6:
        if boundary == "include":
            return c1 >= 0 and c2 >= 0 and not (c1 == 0 and _dot(sx, sy, px, py) < 0)
        return c1 > 0 and c2 > 0
    if width == 6:  # a half plane bounded by the line start..end
        return c1 >= 0 if boundary == "include" else c1 > 0
    # wider than 180: the complement of the open (or closed) opposite wedge
    if boundary == "include":
        return not (c1 < 0 and c2 < 0)
    return not (c1 <= 0 and c2 <= 0)


def _dot(ax: int, ay: int, bx: int, by: int) -> int:
    # Scaled coordinates distort lengths but keep the sign of a dot product of parallel vectors.
    return ax * bx + ay * by


def arc_directions(origin: Hex, target: Hex) -> tuple[int, ...]:
    """The hexside directions d whose 60-degree arc (:data:`ARCS` ``front60``) holds ``target``.

    One direction, or two when ``target``'s centre lies on the corner line between two arcs (a
    tie the system resolves: e.g. MBT hit angles, where the target's owner picks, MBT 7.4.5.2.1).
    Empty for ``target == origin``. Use it for hit-angle sectors: the sector of a shot at a
    target is ``arc_directions(target, firer)`` compared with the target's facing.
    """
    if target == origin:
        return ()
    return _arc_directions(target.q - origin.q, target.r - origin.r)


@functools.lru_cache(maxsize=1 << 14)  # bounded: one entry per offset asked
def _arc_directions(dq: int, dr: int) -> tuple[int, ...]:
    a = ARCS["front60"]
    return tuple(d for d in range(1, 7) if _in_wedge(dq, dr, d - 1, a.start, a.end, "include"))


# ---------------------------------------------------------------------------------------------
# Line traces
# ---------------------------------------------------------------------------------------------

StepEntry = Literal["start", "hexside", "vertex"]


class TraceStep(NamedTuple):
    """One piece of a trace, in order from ``a`` to ``b``.

    ``hexes`` is one hex the line passes through, or two hexes (sorted) when the line runs exactly
    along the hexside between them: the two are alternatives and the system decides what that
    means. ``entry`` says how the line came into this step from the previous one: through a
    hexside, or exactly through a hex corner ("vertex"). ``grazed`` lists hexes that the line
    touches only in that corner point (the third hex at a corner the line passes straight
    through). A named tuple, because traces build many of them in the hot path.
    """

    hexes: tuple[Hex, ...]
    entry: StepEntry
    grazed: tuple[Hex, ...] = ()

    @property
    def along_hexside(self) -> bool:
        return len(self.hexes) == 2


@dataclass(frozen=True, slots=True)
class Trace:
    """Every hex the segment between the centres of ``a`` and ``b`` touches, in order."""

    a: Hex
    b: Hex
    steps: tuple[TraceStep, ...]

    @property
    def distance(self) -> int:
        return self.a.distance(self.b)

    @property
    def along_hexside(self) -> bool:
        """True when the line runs exactly along hexsides (a between-neighbours direction)."""
        return any(len(st.hexes) == 2 for st in self.steps)

    @property
    def through_vertex(self) -> bool:
        """True when the line passes exactly through at least one hex corner."""
        return any(st.entry == "vertex" for st in self.steps)

    def hexes(self, *, grazed: bool = True) -> tuple[Hex, ...]:
        """Every hex touched, in order (alternatives in sorted order; each hex once)."""
        seen: set[Hex] = set()
        out: list[Hex] = []
        for st in self.steps:
            for h in (*st.grazed, *st.hexes) if grazed else st.hexes:
                if h not in seen:
                    seen.add(h)
                    out.append(h)
        return tuple(out)

    def intervening(self, *, grazed: bool = True) -> tuple[Hex, ...]:
        """:meth:`hexes` without the two end hexes (Firefight 5.11, MBT 6.1.4, Firepower 6.3.4)."""
        return tuple(h for h in self.hexes(grazed=grazed) if h != self.a and h != self.b)

    def hexsides_crossed(self) -> tuple[frozenset[Hex], ...]:
        """Hexsides the line crosses through their interior, as pairs of hexes, in order."""
        out: list[frozenset[Hex]] = []
        for prev, st in zip(self.steps, self.steps[1:], strict=False):
            if st.entry == "hexside":
                out.append(frozenset((prev.hexes[0], st.hexes[0])))
        return tuple(out)

    def hexsides_along(self) -> tuple[frozenset[Hex], ...]:
        """Hexsides the line runs exactly along (the "spine" case, Firefight 5.2 example D)."""
        return tuple(frozenset(st.hexes) for st in self.steps if len(st.hexes) == 2)

    def entry_hexsides(self) -> tuple[int, ...]:
        """Hexsides of ``b`` (directions from ``b``) through which the line enters ``b``.

        One hexside, or the two hexsides meeting at the corner when the line enters ``b`` exactly
        through a corner (Firefight 5.2 defilade: a design decision for the system). Empty if a == b.
        """
        if self.a == self.b:
            return ()
        last = self.steps[-1]
        prev = self.steps[-2]
        if last.entry == "hexside":
            d = self.b.direction_to(prev.hexes[0])
            return (d,) if d is not None else ()
        touching = set(prev.hexes) | set(last.grazed)
        return tuple(sorted(d for d in range(1, 7) if self.b.neighbor(d) in touching))

    def reversed(self) -> Trace:
        """The same trace walked from ``b`` to ``a``."""
        return trace(self.b, self.a)

    def __iter__(self) -> Iterator[TraceStep]:
        return iter(self.steps)

    def __len__(self) -> int:
        return len(self.steps)


# Lattice coordinate of each hexside: direction -> (coordinate index 0=u,1=v,2=w, sign).
# Hexside d of hex h lies on the line coordinate == coordinate(h) + sign.
_SIDE = {1: (1, -1), 2: (0, 1), 3: (2, -1), 4: (1, 1), 5: (0, -1), 6: (2, 1)}
# For each lattice coordinate and sign of its rate: the hexside the line leaves through.
_EXIT = {(0, 1): 2, (0, -1): 5, (1, 1): 4, (1, -1): 1, (2, 1): 6, (2, -1): 3}
# Change of the lattice coordinates (u, v, w) when stepping across each hexside.
_LATTICE_STEP = {
    i + 1: (_DQ[i] - _DR[i], _DR[i] + _DQ[i] + _DR[i], -_DQ[i] - _DR[i] - _DQ[i])
    for i in range(6)
}
# Diagonal (between-neighbours) steps: axial vector -> the two hexside directions it straddles.
_DIAG = {
    (_DQ[i] + _DQ[(i + 1) % 6], _DR[i] + _DR[(i + 1) % 6]): (i + 1, (i + 1) % 6 + 1)
    for i in range(6)
}


def trace(a: Hex, b: Hex) -> Trace:
    """Trace the segment from the centre of ``a`` to the centre of ``b``.

    Reports every hex whose closed area the segment touches, in order, with exact detection of
    the two special cases (integer arithmetic, no nudging):

    * the segment runs exactly along hexsides: this happens exactly when ``b - a`` is a multiple
      of a between-neighbours ("diagonal") vector such as (1, -2); the line then alternates
      corner, hexside, corner, hex centre... and each hexside appears as a two-hex step;
    * the segment passes exactly through a hex corner while crossing from one hex into another: the
      third hex at that corner is reported as ``grazed``.

    The trace is contiguous (each hex of a step is adjacent to, or equal to, a hex of the step
    before) and symmetric (``trace(b, a)`` touches the same hexes).
    """
    if a == b:
        return Trace(a, b, (TraceStep((a,), "start"),))
    dq = b.q - a.q
    dr = b.r - a.r
    diag = _diagonal(dq, dr)
    if diag is not None:
        return _trace_diagonal(a, b, *diag)
    # Lattice rates of the segment (per unit t): D_u, D_v, D_w; none is zero here.
    ds = -dq - dr
    rate = (dq - dr, dr - ds, ds - dq)
    sg0, sg1, sg2 = (1 if x > 0 else -1 for x in rate)
    den0, den1, den2 = abs(rate[0]), abs(rate[1]), abs(rate[2])
    # The three hexsides the line can leave a hex through (one per lattice coordinate).
    exits = (_EXIT[(0, sg0)], _EXIT[(1, sg1)], _EXIT[(2, sg2)])
    # Hex H is left through coordinate i at t = n_i / den_i with n_i = 1 + sg_i (H_i - A_i)
    # (lattice coordinates); n_i changes by sg_i * delta_i when H steps across a hexside.
    inc = {d: (sg0 * lu, sg1 * lv, sg2 * lw) for d, (lu, lv, lw) in _LATTICE_STEP.items()}
    n0 = n1 = n2 = 1
    steps: list[TraceStep] = [TraceStep((a,), "start")]
    append = steps.append
    q, r = a.q, a.r
    bq, br = b.q, b.r
    while q != bq or r != br:
        c = n0 * den1 - n1 * den0
        if c < 0:
            bi, bn, bd, tie = 0, n0, den0, -1
        elif c > 0:
            bi, bn, bd, tie = 1, n1, den1, -1
        else:
            bi, bn, bd, tie = 0, n0, den0, 1
        c = n2 * bd - bn * den2
        if c < 0:
            bi, tie = 2, -1
        elif c == 0:
            tie = 2
        d1 = exits[bi]
        if tie < 0:
            q += _DQ[d1 - 1]
            r += _DR[d1 - 1]
            i0, i1, i2 = inc[d1]
            n0 += i0
            n1 += i1
            n2 += i2
            append(TraceStep((Hex(q, r),), "hexside"))
            continue
        # Exactly through the corner between hexsides d1 and d2: three hexes meet there.
        d2 = exits[tie]
        # Seen from the hex across d1, the hexside shared with the hex across d2 lies in
        # direction (d2 - d1); if the line moves toward it at this moment, it goes on into the
        # hex across d2, otherwise into the hex across d1.
        dside = _DIR_OF[(_DQ[d2 - 1] - _DQ[d1 - 1], _DR[d2 - 1] - _DR[d1 - 1])]
        ci, sign = _SIDE[dside]
        go, other = (d2, d1) if sign * rate[ci] > 0 else (d1, d2)
        grazed = Hex(q + _DQ[other - 1], r + _DR[other - 1])
        q += _DQ[go - 1]
        r += _DR[go - 1]
        i0, i1, i2 = inc[go]
        n0 += i0
        n1 += i1
        n2 += i2
        append(TraceStep((Hex(q, r),), "vertex", (grazed,)))
    return Trace(a, b, tuple(steps))


def _diagonal(dq: int, dr: int) -> tuple[int, int, int] | None:
    """``(k, unit_q, unit_r)`` if ``(dq, dr)`` is ``k`` times a diagonal vector, else ``None``."""
    ds = -dq - dr
    if dq - dr == 0 or dr - ds == 0 or ds - dq == 0:
        g = math.gcd(dq, dr)
        uq, ur = dq // g, dr // g
        if (uq, ur) in _DIAG:
            return g, uq, ur
    return None


def _trace_diagonal(a: Hex, b: Hex, k: int, uq: int, ur: int) -> Trace:
    d1, d2 = _DIAG[(uq, ur)]
    steps: list[TraceStep] = [TraceStep((a,), "start")]
    q, r = a.q, a.r
    for _i in range(k):
        p1 = Hex(q + _DQ[d1 - 1], r + _DR[d1 - 1])
        p2 = Hex(q + _DQ[d2 - 1], r + _DR[d2 - 1])
        steps.append(TraceStep((p1, p2) if p1 < p2 else (p2, p1), "vertex"))
        q += uq
        r += ur
        steps.append(TraceStep((Hex(q, r),), "vertex"))
    return Trace(a, b, tuple(steps))
