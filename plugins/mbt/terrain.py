"""The board as the MBT Basic Game reads it: terrain kinds, heights, roads, objectives, LOS.

Panels name terrain by short names (``woods``, ``stone``); a hex may also carry the features
``stream``, ``road`` and ``bridge``. Hill hexes are hexes with a height above 0, depressions below.
:class:`MapInfo` precomputes per-hex facts for the hot paths and caches line-of-sight answers.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from hexwar.core.board import Board
from hexwar.core.hexgrid import Hex
from hexwar.core.kit import StashKey
from hexwar.core.los import (
    BaseLosRules,
    HexsidePolicy,
    LosContext,
    LosEffect,
    VertexPolicy,
)
from hexwar.core.losgrid import MaskKernel, PairSets, grid_of
from hexwar.core.types import TerrainType
from hexwar.plugins.mbt.tables import Charts

if TYPE_CHECKING:
    from hexwar.plugins.mbt.movement_costs import MoveIndex

#: Basic Game terrain (MBT 2.1, 6.1.4); titles for ``hexwar`` listings
TERRAIN: dict[str, tuple[str, str, str]] = {
    "clear": ("Clear", "MBT 6.1.4.2", "#e8dcb0"),
    "scrub": ("Scrub", "MBT 7.4.2", "#c9d99a"),
    "rough": ("Rough", "MBT 7.4.2.1", "#b8a07a"),
    "woods": ("Woods", "MBT 6.1.4.5", "#5d8a4a"),
    "brick": ("Brick building", "MBT 6.1.4.5", "#b5533c"),
    "stone": ("Stone building (objective hex, MBT 4.8)", "MBT 4.8", "#8a8a8a"),
    "stream": ("Stream (fordable)", "MBT 6.1.3.3", "#7fb2e5"),
    "pond": ("Pond (all-water hex)", "MBT 17.7.1", "#4a7fc1"),
    "improved_position": ("Improved position (Advanced Game)", "MBT 12.4.1", "#a0a060"),
}


#: MBT Scenario One A.3: a woods hex read as heavy woods (a hex feature: every chart that knows
#: no heavy woods reads it as woods, docs/decisions.md MBTD-126)
HEAVY_WOODS = "heavy_woods"
#: a clear hex printed dark green (Scenario One A.3 reads it as woods)
DARK_GREEN = "dark_green"
#: a brick building hex whose buildings are wooden (a hex feature: the charts that know no wooden
#: buildings read it as brick; the VEHICLE'S INTO BUILDINGS TABLE and MBT 13.2.2.1.2 tell it
#: apart, docs/decisions.md MBTD-169)
WOODEN = "wooden"


def terrain_types() -> list[TerrainType]:
    return [TerrainType(f"mbt:{k}", t, r, color=c) for k, (t, r, c) in TERRAIN.items()]


def basic_height(board: Board, h: Hex) -> int:
    """MBT 6.1.4.2-6.1.4.4: hill +1 whatever its contours, depression -1, everything else 0."""
    g = board.height_of.get(h, 0.0)
    return 1 if g > 0 else -1 if g < 0 else 0


@dataclass
class MapInfo:
    """Per-board facts, computed once per board."""

    board: Board
    charts: Charts
    kinds: dict[Hex, tuple[str, ...]] = field(default_factory=dict)
    sight_terrain: dict[Hex, str] = field(default_factory=dict)
    height: dict[Hex, int] = field(default_factory=dict)
    ground: dict[Hex, int] = field(default_factory=dict)
    road: set[frozenset[Hex]] = field(default_factory=set)
    #: hexsides a path crosses (MBT 8.5: the card's path rate; Advanced MBT 15.6), none also a road
    path: set[frozenset[Hex]] = field(default_factory=set)
    objectives: tuple[Hex, ...] = ()
    panel_row: dict[Hex, tuple[str, int]] = field(default_factory=dict)
    _kernel: BasicLosKernel | None = None
    #: the movement search's index of this board (:func:`hexwar.plugins.mbt.movement_costs.index`)
    moves: MoveIndex | None = None
    #: entry costs per card with no wreck, smoke or enemy about (scaled integers, by card key)
    move_costs: dict[str, dict[tuple[int, int], int | None]] = field(default_factory=dict)
    #: successor lists of the movement search by card, reverse and turret key, for states with
    #: no wreck, smoke, enemy or marker ahead or behind (docs/decisions.md MBTD-186)
    move_succ: dict[str, dict[int, tuple[tuple[int, int], ...]]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        b = self.board
        terrain_cols = self.charts.terrain
        for h in b.hexes:
            t = b.terrain_of[h]
            kinds = [t]
            if "stream" in b.features_of[h] and t != "stream":
                kinds.append("stream")
            if t == "woods" and HEAVY_WOODS in b.features_of[h]:
                kinds.append(HEAVY_WOODS)  # woods for every chart, denser for movement
            if t == "brick" and WOODEN in b.features_of[h]:
                kinds.append(WOODEN)  # brick for every chart, wooden where the rules differ
            self.kinds[h] = tuple(kinds)
            # MBT 6.1.3.3: a mixed hex uses the terrain column farthest to the right
            self.sight_terrain[h] = max(kinds, key=lambda k: terrain_cols.get(k, (0, "", 0))[0])
            self.height[h] = basic_height(b, h)
            self.ground[h] = int(b.height_of.get(h, 0.0))
            lab = b.label(h)
            self.panel_row[h] = (lab[0], _row_of(lab))
        for track, into in (("road", self.road), ("path", self.path)):
            for (a, c), fs in b.hexside_of.items():
                if track in fs:
                    into.add(frozenset((a, c)))
            # a track that runs on across a panel join (no hexside record spans two panel files)
            for h in b.hexes:
                if track not in b.features_of[h]:
                    continue
                for n in b.neighbors_of[h]:
                    if track in b.features_of[n] and self.panel_row[h][0] != self.panel_row[n][0]:
                        into.add(frozenset((h, n)))
        # a hexside with both is a road (the better rate; a road hex for MBT 15.6.3)
        self.path -= self.road
        self.objectives = tuple(sorted(h for h in b.hexes if b.terrain_of[h] == "stone"))

    def blocks(self, h: Hex) -> bool:
        return self.charts.terrain.get(self.board.terrain_of[h], (0, "none", 0))[1] == "block"

    @property
    def kernel(self) -> BasicLosKernel:
        """The bit-set form of :class:`BasicLos` on this board (built on first use)."""
        if self._kernel is None:
            self._kernel = BasicLosKernel(self)
        return self._kernel

    def los(self, a: Hex, b: Hex) -> bool:
        """MBT 6.1.4: Basic Game line of sight, as ``line_of_sight(board, a, b, BasicLos()).clear``
        with the ends in (q, r) order (the rules are symmetric; the tests check it). Computed each
        time from bit sets (:class:`BasicLosKernel`): no per-pair cache to grow."""
        if (a.q, a.r) <= (b.q, b.r):
            return self.kernel.clear(a, b)
        return self.kernel.clear(b, a)

    def visible(self, a: Hex, targets: Iterable[Hex]) -> set[Hex]:
        """MBT 6.1.4: the hexes among ``targets`` with a clear Basic line of sight from ``a``."""
        return self.kernel.visible(a, targets)


def _row_of(label: str) -> int:
    digits = ""
    for ch in reversed(label):
        if ch.isdigit():
            digits = ch + digits
        else:
            break
    return int(digits or 0)


class BasicLos(BaseLosRules):
    """MBT 6.1.4 as core LOS rules (docs/decisions.md MBTD-7).

    * MBT 6.1.4.1: a blocking hex blocks even if the line only clips it, and a line exactly along one of
      its hexsides is blocked (``hexside_policy = "either"``). A line through a corner touches the
      third hex in one point only, which is no fraction of it (``vertex_policy = "ignore"``).
    * MBT 6.1.4.3: an intervening hill hex blocks unless both end hexes are hill hexes.
    * MBT 6.1.4.4: from or to a depression, every intervening hex but a depression blocks, unless the
      other end is a hill: then only hills, woods and buildings block.
    * MBT 6.1.4.5: woods and buildings always block. The end hexes never block (adjacent is clear).
    """

    include_endpoints: bool = False
    hexside_policy: HexsidePolicy = "either"
    vertex_policy: VertexPolicy = "ignore"

    def __init__(self, info: MapInfo | None = None) -> None:
        self.info = info

    def _info(self, board: Board) -> MapInfo:
        if self.info is None or self.info.board is not board:
            self.info = map_info(board)
        return self.info

    def hex_effect(self, board: Board, h: Hex, ctx: LosContext) -> LosEffect | None:
        info = self._info(board)
        if info.blocks(h):
            return LosEffect("block", 0, f"{board.terrain_of[h]} (+2)", "MBT 6.1.4.5")
        ha, hb, hh = info.height[ctx.a], info.height[ctx.b], info.height[h]
        if ha < 0 or hb < 0:
            if ha > 0 or hb > 0:
                if hh > 0:
                    return LosEffect("block", 0, "hill between depression and hill", "MBT 6.1.4.4")
            elif hh >= 0:
                return LosEffect("block", 0, "depression: intervening higher hex", "MBT 6.1.4.4")
            return None
        if hh > 0 and not (ha > 0 and hb > 0):
            return LosEffect("block", 0, "hill (+1)", "MBT 6.1.4.3")
        return None

    def sight_kernel(self, board: Board, data: object = None) -> BasicLosKernel | None:
        """The bit-set kernel (:mod:`hexwar.core.losgrid`); None for a subclass that changes the
        rules."""
        if type(self) is not BasicLos:
            return None
        return self._info(board).kernel


class BasicLosKernel(MaskKernel):
    """MBT 6.1.4 answered from bit sets over the board's cells (:mod:`hexwar.core.losgrid`).

    Every effect of :class:`BasicLos` is a block, so a line is clear when none of the hexes it
    passes through or runs along (corners ignored, MBT 6.1.4.1) is in the blocking set chosen by
    the two ends' Basic heights: woods and buildings (MBT 6.1.4.5) and hexes off the board always;
    hills unless both ends are hills (MBT 6.1.4.3); from or to a depression every hex but a
    depression, or only the hills when the other end is a hill (MBT 6.1.4.4).
    """

    def __init__(self, info: MapInfo) -> None:
        b = info.board
        g = grid_of(b)
        always = g.off | g.mask(h for h in b.hexes if info.blocks(h))
        hills = g.mask(h for h in b.hexes if info.height[h] > 0)
        level_or_up = g.mask(h for h in b.hexes if info.height[h] >= 0)
        levels = bytearray(g.size)  # Basic height + 1: 0 depression, 1 level, 2 hill
        for h in b.hexes:
            levels[g.cell(h)] = info.height[h] + 1

        def make(la: int, lb: int) -> PairSets:
            if la == 0 or lb == 0:  # MBT 6.1.4.4
                return PairSets(always | (hills if la == 2 or lb == 2 else level_or_up))
            return PairSets(always | (0 if la == 2 and lb == 2 else hills))  # MBT 6.1.4.3

        super().__init__(b, BasicLos(info), None, make=make, levels=levels, corners=False)


#: a board's :class:`MapInfo` per set of charts (by identity; boards are shared between games).
#: Each entry keeps its charts alive, so an ``id`` is never reused for other charts.
MAP_INFO = StashKey[dict[int, tuple[Charts, MapInfo]]]("mbt.map_info")
#: at most this many sets of charts keep a :class:`MapInfo` on one board
MAP_INFO_LIMIT = 4


def map_info(board: Board, charts: Charts | None = None) -> MapInfo:
    """The board's :class:`MapInfo` for ``charts`` (the shipped ones by default), built once and
    kept in ``board.stash``."""
    from hexwar.plugins.mbt.tables import load_charts

    ch = charts if charts is not None else load_charts()
    per = board.stash.setdefault(MAP_INFO, {})
    found = per.get(id(ch))
    if found is None or found[0] is not ch:
        while len(per) >= MAP_INFO_LIMIT:  # bounded: the oldest set of charts is dropped
            del per[next(iter(per))]
        found = per[id(ch)] = (ch, MapInfo(board, ch))
    return found[1]
