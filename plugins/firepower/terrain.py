"""The Basic Game map as the rules see it: ground cover, height class, fence and hedge pictures.

A board (core/board.py) gives each hex a ``terrain`` (clear, tree, rough, scrub), a ``height``
(hill contour levels > 0, depression < 0; Firepower 6.3.4.4 ignores the number of levels in the
Basic Game) and ``features``. A fence or hedge picture is the feature ``fence:a-b`` / ``hedge:a-b``.

Design decision (the printed pictures are not in the text): a fence or hedge picture is modelled as
the straight segment ("chord") joining the midpoints of hexsides ``a`` and ``b`` of its hex. The
chord divides the hex into two parts; a soldier in the hex is on one of them (Firepower 4.7: the
direction unit), recorded as a hexside number lying on his part. Whether a line of sight "passes
through or along some part of the picture" (Firepower 6.3.4.2, Firepower 6.3.6.2.5) is then an
exact segment intersection test, and whether the fence lies "between" a soldier in the hex and
someone outside it (Firepower 6.3.4.2, Firepower 6.3.6.2.2, Firepower 6.3.6.2.3) is decided by the
point where the line of sight leaves (or enters) his hex: it is between when that point lies on
the chord or on the other part (docs/decisions.md FPD-7).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, replace
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from hexwar.core.hexgrid import Hex, trace

if TYPE_CHECKING:
    from hexwar.core.board import Board

SQRT3 = math.sqrt(3.0)
COVERS = ("clear", "tree", "rough", "scrub")
#: Basic height classes (Firepower 6.3.4.4): depression lowest, hill highest.
DEPRESSION, GROUND, HILL = -1, 0, 1


def centre(h: Hex) -> tuple[float, float]:
    return 1.5 * h.q, SQRT3 * (h.r + h.q / 2.0)


def _xy(q: float, r: float) -> tuple[float, float]:
    return 1.5 * q, SQRT3 * (r + q / 2.0)


def hexside_midpoint(h: Hex, d: int) -> tuple[float, float]:
    n = h.neighbor(d)
    (x1, y1), (x2, y2) = centre(h), centre(n)
    return (x1 + x2) / 2.0, (y1 + y2) / 2.0


def chord_sides(a: int, b: int) -> tuple[frozenset[int], frozenset[int]]:
    """The hexsides on each part of a chord from side ``a`` to side ``b`` (clockwise a..b, b..a)."""
    first = frozenset(((a + k - 1) % 6) + 1 for k in range(1, (b - a) % 6))
    second = frozenset(range(1, 7)) - first - {a, b}
    return first, second


def parse_picture(feature: str) -> tuple[str, tuple[int, int]] | None:
    """``"fence:1-4"`` -> ("fence", (1, 4)); None for other features."""
    kind, sep, rest = feature.partition(":")
    if not sep or kind not in ("fence", "hedge"):
        return None
    a_s, _, b_s = rest.partition("-")
    a, b = int(a_s), int(b_s)
    if not (1 <= a <= 6 and 1 <= b <= 6) or (b - a) % 6 not in (2, 3, 4):
        raise ValueError(f"bad picture {feature!r}: the chord must join two hexsides that are not "
                         "adjacent, e.g. fence:1-4 or hedge:2-5")
    return kind, (a, b)


def _cross(ox: float, oy: float, ax: float, ay: float, bx: float, by: float) -> float:
    return (ax - ox) * (by - oy) - (ay - oy) * (bx - ox)


EPS = 1e-9


def _sign(v: float) -> int:
    return 0 if abs(v) < EPS else (1 if v > 0 else -1)


def segments_touch(p1: tuple[float, float], p2: tuple[float, float],
                   q1: tuple[float, float], q2: tuple[float, float]) -> bool:
    """Closed segment intersection (touching or running along counts)."""
    d1 = _sign(_cross(*q1, *q2, *p1))
    d2 = _sign(_cross(*q1, *q2, *p2))
    d3 = _sign(_cross(*p1, *p2, *q1))
    d4 = _sign(_cross(*p1, *p2, *q2))
    if d1 * d2 < 0 and d3 * d4 < 0:
        return True

    def on(a: tuple[float, float], b: tuple[float, float], c: tuple[float, float]) -> bool:
        return (min(a[0], b[0]) - EPS <= c[0] <= max(a[0], b[0]) + EPS
                and min(a[1], b[1]) - EPS <= c[1] <= max(a[1], b[1]) + EPS)

    return ((d1 == 0 and on(q1, q2, p1)) or (d2 == 0 and on(q1, q2, p2))
            or (d3 == 0 and on(p1, p2, q1)) or (d4 == 0 and on(p1, p2, q2)))


def boundary_point(h: Hex, toward: Hex) -> tuple[float, float]:
    """Where the segment from the centre of ``h`` to the centre of ``toward`` leaves ``h``."""
    dq, dr = toward.q - h.q, toward.r - h.r
    ds = -dq - dr
    m = max(abs(dq - dr), abs(dr - ds), abs(ds - dq))  # lattice rates; the hex spans +-1
    t = 1.0 / m
    return _xy(h.q + t * dq, h.r + t * dr)


@dataclass(frozen=True)
class Picture:
    """A fence or hedge picture: the chord between hexside midpoints ``a`` and ``b`` of ``hex``."""

    kind: str
    hex: Hex
    a: int
    b: int

    @property
    def ends(self) -> tuple[tuple[float, float], tuple[float, float]]:
        return hexside_midpoint(self.hex, self.a), hexside_midpoint(self.hex, self.b)

    def sides(self) -> tuple[frozenset[int], frozenset[int]]:
        return chord_sides(self.a, self.b)

    def part_of(self, side: int) -> int:
        """Which part (0 or 1) hexside ``side`` lies on; the chord's own hexsides are refused."""
        first, second = self.sides()
        if side in first:
            return 0
        if side in second:
            return 1
        raise ValueError(f"hexside {side} of {self.hex!r} is an end of the {self.kind}; "
                         f"use one of {sorted(first | second)}")

    def sign(self, point: tuple[float, float]) -> int:
        (x1, y1), (x2, y2) = self.ends
        return _sign(_cross(x1, y1, x2, y2, *point))

    def side_sign(self, side: int) -> int:
        return self.sign(hexside_midpoint(self.hex, side))

    def crossed_by(self, a: Hex, b: Hex) -> bool:
        """The line of sight between the centres of ``a`` and ``b`` passes through or along the
        picture (Firepower 6.3.4.2, Firepower 6.3.6.2.5)."""
        e1, e2 = self.ends
        return segments_touch(centre(a), centre(b), e1, e2)

    def between(self, side: int | None, other: Hex) -> bool:
        """The picture lies between a soldier in its hex on part ``side`` and hex ``other``
        (Firepower 4.7, Firepower 6.3.4.2, Firepower 6.3.6.2.2, Firepower 6.3.6.2.3)."""
        if other == self.hex:
            return False
        point = boundary_point(self.hex, other)
        s = self.sign(point)
        if s == 0:
            return True
        if side is None:
            return True
        return s != self.side_sign(side)

    def other_side(self, side: int) -> int:
        """The part across the picture (the cross Action, Firepower 6.2.3)."""
        first, second = self.sides()
        return min(second) if side in first else min(first)

    def default_side(self, facing: int) -> int:
        """The part behind a soldier facing ``facing`` (the picture then lies in front of him)."""
        rear = (facing + 2) % 6 + 1
        first, second = self.sides()
        for part in (first, second):
            if rear in part:
                return rear
        # the rear hexside is an end of the chord: take the part holding the hexside after it
        return min(second) if (rear % 6) + 1 in second else min(first)


#: at most this many pairs' :class:`StaticLos` are kept per map (then the cache starts afresh)
STATIC_LOS_LIMIT = 50_000


@dataclass(frozen=True)
class StaticLos:
    """What the terrain alone puts on the line between two sighting dots (cached per pair)."""

    #: the intervening hexes as plain ``(q, r)`` pairs (a :class:`Hex` is found among them:
    #: they equal and hash alike); only membership is asked of them
    hexes: frozenset[tuple[int, int]]
    hills: tuple[Hex, ...]
    fences: tuple[Hex, ...]
    trees: tuple[Hex, ...]
    hedges: tuple[Hex, ...]


@dataclass
class FpMap:
    """The Basic Game terrain of a board, as plain dicts for the rules functions."""

    hexes: frozenset[Hex]
    cover: dict[Hex, str]
    level: dict[Hex, int]
    height: dict[Hex, float]
    fence: dict[Hex, Picture] = field(default_factory=dict)
    hedge: dict[Hex, Picture] = field(default_factory=dict)
    labels: dict[Hex, str] = field(default_factory=dict)
    parse_label: Mapping[str, Hex] = field(default_factory=dict)
    _static: dict[tuple[Hex, Hex], StaticLos] = field(default_factory=dict, repr=False)
    #: the crater units' hexes (Firepower 8.7: rough terrain, so cover), set per game by
    #: ``state.fp_map`` from the crater records
    craters: frozenset[Hex] = frozenset()

    def rough(self, h: Hex) -> bool:
        """Firepower 6.3.6.2.2, Firepower 8.7: a rough hex, or a crater (rough terrain too)."""
        return self.cover.get(h) == "rough" or h in self.craters

    def for_game(self) -> FpMap:
        """A copy for one game: the same terrain (shared, not copied), an empty cache of
        :meth:`static_los`, so that what a game computes goes with it."""
        return replace(self, _static={})

    def static_los(self, a: Hex, b: Hex) -> StaticLos:
        """Hills, fence pictures crossed, tree hexes and hedge pictures crossed between the
        sighting dots of ``a`` and ``b`` (end hexes excluded), computed once per pair."""
        key = (a, b)
        got = self._static.get(key)
        if got is None:
            if len(self._static) >= STATIC_LOS_LIMIT:
                self._static.clear()  # bounded, also within one long game
            q, r = a
            # the line as plain pairs, made a Hex only where it meets something (FPD-206)
            hexes = [(q + dq, r + dr) for dq, dr in _intervening_from_origin(b.q - q, b.r - r)]
            # one pass over the line, in its order (each list keeps the order of the trace)
            hills: list[Hex] = []
            fences: list[Hex] = []
            trees: list[Hex] = []
            hedges: list[Hex] = []
            # the tables are keyed by Hex; a plain pair finds the same entry
            level: Callable[[Any], Any] = self.level.get
            cover: Callable[[Any], Any] = self.cover.get
            fence, hedge = self.fence, self.hedge
            for h in hexes:
                if level(h) == HILL:
                    hills.append(Hex(*h))
                if h in fence and fence[h].crossed_by(a, b):
                    fences.append(Hex(*h))
                if cover(h) == "tree":
                    trees.append(Hex(*h))
                if h in hedge and hedge[h].crossed_by(a, b):
                    hedges.append(Hex(*h))
            got = StaticLos(frozenset(hexes), tuple(hills), tuple(fences), tuple(trees),
                            tuple(hedges))
            self._static[key] = got
        return got

    @classmethod
    def from_board(cls, board: Board) -> FpMap:
        cover: dict[Hex, str] = {}
        level: dict[Hex, int] = {}
        fence: dict[Hex, Picture] = {}
        hedge: dict[Hex, Picture] = {}
        for h in board.hexes:
            t = board.terrain_of[h].split(":")[-1]
            cover[h] = t if t in COVERS else "clear"
            z = board.height_of[h]
            level[h] = HILL if z > 0 else DEPRESSION if z < 0 else GROUND
            if t == "hill":
                level[h] = HILL
            elif t == "depression":
                level[h] = DEPRESSION
            for f in board.features_of[h]:
                pic = parse_picture(f)
                if pic is None:
                    continue
                kind, (a, b) = pic
                (fence if kind == "fence" else hedge)[h] = Picture(kind, h, a, b)
        labels = {h: board.label(h) for h in board.hexes}
        parse: dict[str, Hex] = {}
        for h in board.hexes:
            for lab in board.labels(h):
                parse[lab.upper()] = h
        return cls(frozenset(board.hexes), cover, level, dict(board.height_of), fence, hedge,
                   labels, parse)

    @classmethod
    def plain(cls, hexes: Iterable[Hex], *, cover: Mapping[Hex, str] | None = None,
              level: Mapping[Hex, int] | None = None,
              pictures: Iterable[Picture] = ()) -> FpMap:
        """A map for tests and table-side use: open clear ground unless told otherwise."""
        hs = frozenset(hexes)
        m = cls(hs, {h: "clear" for h in hs}, {h: GROUND for h in hs},
                {h: 0.0 for h in hs})
        m.cover.update(cover or {})
        m.level.update(level or {})
        for p in pictures:
            (m.fence if p.kind == "fence" else m.hedge)[p.hex] = p
        return m

    def label(self, h: Hex) -> str:
        return self.labels.get(h, f"({h.q},{h.r})")

    def parse(self, label: str) -> Hex:
        try:
            return self.parse_label[label.strip().upper()]
        except KeyError:
            raise ValueError(f"hex {label!r} is not on this board") from None

    def is_hill(self, h: Hex) -> bool:
        """Firepower 6.3.4.4: every hill hex is of one height in the Basic Game."""
        return self.level.get(h, GROUND) == HILL

    def contour_between(self, a: Hex, b: Hex) -> bool:
        """A hill or depression hexside lies between adjacent ``a`` and ``b`` (Firepower 6.2.3)."""
        return self.height.get(a, 0.0) != self.height.get(b, 0.0)


def intervening(a: Hex, b: Hex) -> tuple[Hex, ...]:
    """Hexes (and hexsides) the line between the sighting dots passes through or along, without
    the two end hexes (Firepower 6.3.4: the straight edge from dot to dot)."""
    q, r = a
    make = tuple.__new__  # Hex's own constructor without its Python-level __new__
    return tuple([make(Hex, (q + dq, r + dr))
                  for dq, dr in _intervening_from_origin(b.q - q, b.r - r)])


# full after about 15 Basic games, then flat: docs/decisions.md CORE-117 (the per-game
# pair cache of FpMap.static_los keeps repeats within a game)
@lru_cache(maxsize=2_048)
def _intervening_from_origin(dq: int, dr: int) -> tuple[tuple[int, int], ...]:
    """:func:`intervening` from ``(0, 0)`` to ``(dq, dr)``: the exact trace is the same wherever
    it starts (integer geometry; pairs of hexes in sorted order, which a shift keeps), so it is
    kept per offset, a number bounded by the boards' size, not by games or pairs."""
    return tuple((h.q, h.r) for h in trace(Hex(0, 0), Hex(dq, dr)).intervening(grazed=True))
