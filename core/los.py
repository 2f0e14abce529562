"""Line of sight: a core service that each game system parameterises.

:func:`line_of_sight` walks the exact :func:`~hexwar.core.hexgrid.trace` between two hex centres
and asks the system's :class:`LosRules` what each hex and each hexside does to the line. The
rules object is a plain Python object (the ``hexwar_los_rules`` hook returns it once per game);
its methods are called per hex in the hot path, so they are ordinary calls, never hook calls.

Cases the rulebooks argue about and where they are decided:

* **End hexes.** Not examined unless ``rules.include_endpoints`` (Firefight 5.11, MBT 6.1.4,
  Firepower 6.3.4 all look only at the hexes between; Firepower 6.3.4.2's fence in the firer's own
  hex is a system matter).
* **Hexside-exact lines** (the line runs exactly along the hexside between two hexes):
  ``rules.hexside_policy`` says how the two alternatives combine:

  - ``"either"``: both hexes count (the line "touches" both, MBT 6.1.4.1);
  - ``"both"``: the line is blocked only if both block; otherwise the less obstructive
    alternative counts;
  - ``"worse"``: only the more obstructive alternative counts, once (MBT 13.2.1: two smoke
    hexes along one hexside count as one).

  The hexside itself is passed to ``hexside_effect`` with ``how="along"`` (Firefight 5.2 example D,
  the "spine").
* **Corners.** A line crossing exactly through a corner touches the third hex there in one point
  only. ``rules.vertex_policy`` ``"touch"`` examines that hex (and passes the hexsides meeting at
  the corner with ``how="vertex"``); ``"ignore"`` skips it.
* **Leaving the board.** A trace between two board hexes can pass over hexes that are not on the
  board (a ragged edge, a gap between panels). ``rules.off_board_effect`` decides; the default
  (:class:`BaseLosRules`) blocks with reason "trace leaves the board".
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal, Protocol

from hexwar.core.board import Board
from hexwar.core.hexgrid import Hex, Trace, trace

if TYPE_CHECKING:
    from hexwar.core.losgrid import SightKernel

__all__ = [
    "BaseLosRules",
    "ElevationLosRules",
    "HexsideHow",
    "HexsidePolicy",
    "LosContext",
    "LosEffect",
    "LosFinding",
    "LosResult",
    "LosRules",
    "OpenGroundLos",
    "VertexPolicy",
    "line_of_sight",
]

HexsidePolicy = Literal["either", "both", "worse"]
VertexPolicy = Literal["touch", "ignore"]
HexsideHow = Literal["cross", "along", "vertex"]
EffectKind = Literal["block", "hinder"]


@dataclass(frozen=True, slots=True)
class LosEffect:
    """What one hex or hexside does to a line of sight: ``block`` it, or ``hinder`` it with a
    ``modifier`` (a die-roll or table modifier the system adds up). ``rule`` cites the rule."""

    kind: EffectKind
    modifier: int = 0
    reason: str = ""
    rule: str = ""


@dataclass(frozen=True, slots=True)
class LosFinding:
    """An effect and where it happened: one hex, or the two hexes of a hexside."""

    effect: LosEffect
    where: tuple[Hex, ...]
    what: Literal["hex", "hexside", "off-board"]


@dataclass(slots=True)
class LosContext:
    """Handed to every rules call: the two end hexes, their range, and the caller's ``data``
    (units, heights, sides, whatever the system needs). ``cache`` is free for the rules to keep
    per-query values (e.g. an eye height computed once)."""

    a: Hex
    b: Hex
    distance: int
    data: Any = None
    cache: dict[str, Any] = field(default_factory=dict)


class LosRules(Protocol):
    """What a game system implements (plain methods; see the module docstring for the policies)."""

    include_endpoints: bool
    hexside_policy: HexsidePolicy
    vertex_policy: VertexPolicy

    def hex_effect(self, board: Board, h: Hex, ctx: LosContext) -> LosEffect | None:
        """Effect of on-board hex ``h`` on the line, or ``None`` if it does nothing."""
        ...

    def hexside_effect(
        self, board: Board, a: Hex, b: Hex, how: HexsideHow, ctx: LosContext
    ) -> LosEffect | None:
        """Effect of the hexside between adjacent on-board hexes ``a`` and ``b``, which the line
        crosses (``"cross"``), runs along (``"along"``) or touches at one end (``"vertex"``)."""
        ...

    def off_board_effect(self, board: Board, h: Hex, ctx: LosContext) -> LosEffect | None:
        """Effect of a hex the trace passes over that is not on the board."""
        ...


OFF_BOARD = LosEffect("block", 0, "trace leaves the board", "core: los off-board")


class BaseLosRules:
    """Defaults for a :class:`LosRules`: nothing blocks, except leaving the board.

    Policies default to the most literal geometric reading: end hexes excluded, both hexes of a
    hexside-exact line count (``"either"``), a hex touched at a corner counts (``"touch"``).
    """

    include_endpoints: bool = False
    hexside_policy: HexsidePolicy = "either"
    vertex_policy: VertexPolicy = "touch"

    def hex_effect(self, board: Board, h: Hex, ctx: LosContext) -> LosEffect | None:
        return None

    def hexside_effect(
        self, board: Board, a: Hex, b: Hex, how: HexsideHow, ctx: LosContext
    ) -> LosEffect | None:
        return None

    def off_board_effect(self, board: Board, h: Hex, ctx: LosContext) -> LosEffect | None:
        return OFF_BOARD


class OpenGroundLos(BaseLosRules):
    """The core default (``hexwar_los_rules``, trylast): open ground, nothing blocks or hinders
    except a trace that leaves the board."""

    def sight_kernel(self, board: Board, data: Any = None) -> SightKernel | None:
        """Bit sets (:mod:`hexwar.core.losgrid`): a line is blocked when it touches a cell off the
        board. None for a subclass, or for the ``"both"`` hexside policy (under which a line along
        the board's edge is clear while one of the two hexes is on the board)."""
        from hexwar.core.losgrid import MaskKernel, PairSets, grid_of

        if type(self) is not OpenGroundLos or self.hexside_policy == "both":
            return None
        off = grid_of(board).off
        return MaskKernel(board, self, data, make=lambda la, lb: PairSets(off),
                          corners=self.vertex_policy == "touch")


@dataclass(frozen=True)
class LosResult:
    """The answer: ``clear`` unless something blocks; every finding with its rule; the trace."""

    clear: bool
    findings: tuple[LosFinding, ...]
    trace: Trace

    @property
    def blocked(self) -> bool:
        return not self.clear

    @property
    def effects(self) -> list[LosEffect]:
        return [f.effect for f in self.findings]

    @property
    def hindrances(self) -> list[LosFinding]:
        return [f for f in self.findings if f.effect.kind == "hinder"]

    @property
    def modifier(self) -> int:
        """Sum of the hinder modifiers (blocking effects add nothing)."""
        return sum(f.effect.modifier for f in self.findings if f.effect.kind == "hinder")

    def reasons(self, board: Board | None = None) -> list[str]:
        """One line per finding: "blocked at 1G7: woods (MBT 6.1.4.5)"; labels when ``board``."""
        out: list[str] = []
        for f in self.findings:
            names = []
            for h in f.where:
                try:
                    names.append(board.label(h) if board is not None else repr(h))
                except ValueError:
                    names.append(repr(h))
            where = "|".join(names)
            if f.effect.kind == "block":
                verb = "blocked"
            elif f.effect.modifier:
                verb = f"hindered ({f.effect.modifier:+d})"
            else:  # a hex a rule judged and found no obstacle in (the Advanced Firepower trace)
                verb = "clear"
            rule = f" ({f.effect.rule})" if f.effect.rule else ""
            out.append(f"{verb} at {where}: {f.effect.reason}{rule}")
        return out


_RANK = {"block": 2, "hinder": 1}


def _rank(fs: list[LosFinding]) -> tuple[int, int]:
    if not fs:
        return (0, 0)
    return (max(_RANK[f.effect.kind] for f in fs), sum(abs(f.effect.modifier) for f in fs))


def line_of_sight(
    board: Board,
    a: Hex,
    b: Hex,
    rules: LosRules,
    data: Any = None,
    *,
    exhaustive: bool = False,
) -> LosResult:
    """Line of sight from the centre of ``a`` to the centre of ``b`` under ``rules``.

    Walks :func:`~hexwar.core.hexgrid.trace` in order; stops at the first blocking step unless
    ``exhaustive`` (then every finding is collected, for explanations). ``data`` is handed to the
    rules in :class:`LosContext`. Each hex and hexside is examined once. Both end hexes must be
    on the board (``ValueError`` otherwise).
    """
    hexes = board.hexes
    for end in (a, b):
        if end not in hexes:
            raise ValueError(f"line of sight: {end!r} is not on the board")
    tr = trace(a, b)
    ctx = LosContext(a, b, a.distance(b), data)
    include_ends = rules.include_endpoints
    policy = rules.hexside_policy
    touch = rules.vertex_policy == "touch"
    hex_effect = rules.hex_effect
    side_effect = rules.hexside_effect
    findings: list[LosFinding] = []
    blocked = False
    seen: set[Hex] = set() if include_ends else {a, b}
    seen_sides: set[frozenset[Hex]] = set()

    def at_hex(h: Hex) -> list[LosFinding]:
        if h in seen:  # the end hexes are pre-seeded unless the rules include them
            return []
        seen.add(h)
        if h in hexes:
            e = hex_effect(board, h, ctx)
            return [LosFinding(e, (h,), "hex")] if e is not None else []
        e = rules.off_board_effect(board, h, ctx)
        return [LosFinding(e, (h,), "off-board")] if e is not None else []

    def at_side(x: Hex, y: Hex, how: HexsideHow) -> list[LosFinding]:
        if x not in hexes or y not in hexes:
            return []
        key = frozenset((x, y))
        if key in seen_sides:
            return []
        seen_sides.add(key)
        e = side_effect(board, x, y, how, ctx)
        return [LosFinding(e, (x, y) if x < y else (y, x), "hexside")] if e is not None else []

    prev: tuple[Hex, ...] = (a,)
    for st in tr.steps:
        step: list[LosFinding] = []
        if st.entry == "hexside":
            step += at_side(prev[0], st.hexes[0], "cross")
        if touch and st.entry == "vertex":
            for g in st.grazed:
                step += at_hex(g)
            # the hexsides meeting at the corner, touched at one end only
            corner = sorted({*prev, *st.grazed, *st.hexes})
            for i, x in enumerate(corner):
                for y in corner[i + 1:]:
                    if len(st.hexes) == 2 and x in st.hexes and y in st.hexes:
                        continue  # run along below
                    if len(prev) == 2 and x in prev and y in prev:
                        continue  # already run along
                    step += at_side(x, y, "vertex")
        if len(st.hexes) == 1:
            step += at_hex(st.hexes[0])
        else:
            p1, p2 = st.hexes
            f1, f2 = at_hex(p1), at_hex(p2)
            if policy == "either":
                step += f1 + f2
            elif policy == "both":
                r1, r2 = _rank(f1), _rank(f2)
                if r1[0] == 2 and r2[0] == 2:
                    step += f1 + f2
                else:
                    step += f1 if r1 <= r2 else f2
            else:  # "worse"
                step += f1 if _rank(f1) >= _rank(f2) else f2
            step += at_side(p1, p2, "along")
        prev = st.hexes
        if step:
            findings += step
            if any(f.effect.kind == "block" for f in step):
                blocked = True
                if not exhaustive:
                    break
    return LosResult(not blocked, tuple(findings), tr)


class ElevationLosRules(BaseLosRules):
    """A reference height-based LOS that systems can use or subclass.

    The eye is at ``ground(a) + eye_height`` and the target at ``ground(b) + target_height``
    (overridable per query with ``data = {"eye_height": .., "target_height": ..}``). Each
    intervening hex is an obstacle of height ``ground(h) + terrain_heights.get(terrain, 0)``
    (plus the highest of ``feature_heights`` for its features). A hexside feature in
    ``hexside_heights`` is an obstacle on the hexside at the higher of the two grounds plus that
    height (MBT 13.2.1 takes the higher hex for a hexside). The sight line's height over an
    obstacle is interpolated linearly by range: ``ha + (hb - ha) * r / R`` with ``r`` the range
    from ``a`` (a hexside's range is the mean of its two hexes'). An obstacle strictly above the
    line blocks; one exactly level with it does not (Firefight 13.2: exactly equal is not blocked).
    Comparisons are done by cross-multiplication, so integer heights compare exactly.

    Terrain in ``hinder_terrain`` (name -> modifier) hinders instead of blocking when it rises
    above the line only by its own obstacle height (the ground itself still blocks).
    """

    def __init__(
        self,
        *,
        eye_height: float = 0.0,
        target_height: float = 0.0,
        terrain_heights: Mapping[str, float] | None = None,
        feature_heights: Mapping[str, float] | None = None,
        hexside_heights: Mapping[str, float] | None = None,
        hinder_terrain: Mapping[str, int] | None = None,
        hexside_policy: HexsidePolicy = "either",
        vertex_policy: VertexPolicy = "touch",
        rule: str = "",
    ) -> None:
        self.eye_height = float(eye_height)
        self.target_height = float(target_height)
        self.terrain_heights = dict(terrain_heights or {})
        self.feature_heights = dict(feature_heights or {})
        self.hexside_heights = dict(hexside_heights or {})
        self.hinder_terrain = dict(hinder_terrain or {})
        self.hexside_policy = hexside_policy
        self.vertex_policy = vertex_policy
        self.rule = rule

    def _ends(self, board: Board, ctx: LosContext) -> tuple[float, float]:
        c = ctx.cache
        if "ha" not in c:
            d = ctx.data if isinstance(ctx.data, Mapping) else {}
            c["ha"] = board.height_of[ctx.a] + float(d.get("eye_height", self.eye_height))
            c["hb"] = board.height_of[ctx.b] + float(d.get("target_height", self.target_height))
        return c["ha"], c["hb"]

    def _above(self, board: Board, ctx: LosContext, obstacle: float, r2: int) -> bool:
        """Is ``obstacle`` strictly above the line at range ``r2 / 2`` from ``a``?"""
        ha, hb = self._ends(board, ctx)
        big_r = ctx.distance
        # obstacle > ha + (hb - ha) * (r2 / 2) / R  <=>  2R (obstacle - ha) > (hb - ha) r2
        return 2 * big_r * (obstacle - ha) > (hb - ha) * r2

    def hex_effect(self, board: Board, h: Hex, ctx: LosContext) -> LosEffect | None:
        ground = board.height_of[h]
        t = board.terrain_of[h]
        extra = self.terrain_heights.get(t, 0.0)
        feats = board.features_of[h]
        if feats:
            extra = max([extra] + [self.feature_heights.get(f, 0.0) for f in feats])
        r2 = 2 * ctx.a.distance(h)
        if not self._above(board, ctx, ground + extra, r2):
            return None
        if t in self.hinder_terrain and not self._above(board, ctx, ground, r2):
            return LosEffect("hinder", self.hinder_terrain[t], f"{t} above the sight line",
                             self.rule)
        what = f"{t} (height {ground + extra:g})" if extra else f"ground (height {ground:g})"
        return LosEffect("block", 0, f"{what} above the sight line", self.rule)

    def hexside_effect(
        self, board: Board, a: Hex, b: Hex, how: HexsideHow, ctx: LosContext
    ) -> LosEffect | None:
        if not self.hexside_heights:
            return None
        fs = board.hexside_of[(a, b)]
        if not fs:
            return None
        extra = max((self.hexside_heights.get(f, 0.0) for f in fs), default=0.0)
        if extra <= 0:
            return None
        top = max(board.height_of[a], board.height_of[b]) + extra
        r2 = ctx.a.distance(a) + ctx.a.distance(b)
        if self._above(board, ctx, top, r2):
            names = "/".join(sorted(f for f in fs if f in self.hexside_heights))
            return LosEffect("block", 0, f"{names} hexside (height {top:g}) above the sight line",
                             self.rule)
        return None
