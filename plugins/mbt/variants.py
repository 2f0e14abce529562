"""MBT Scenario One A: the terrain variants, a scenario option (``[special] terrain_variant``).

The rulebook's variants read the printed panels another way ("treat scrub hexes as clear"), the
printed map staying as it is; hexwar plays them on a copy of the scenario's board with the
variant applied, made once per board and variant and shared by the games on it (boards are
read-only during a game). The objectives stay where the printed buildings are (MBT Scenario One A:
"their locations still provide objective hexes"; :func:`hexwar.plugins.mbt.state.scenario_map_info`
reads them from the printed board).

* ``open_plains`` (A.1): hills are 0 heights high, scrub and rough are clear (a stream in such a
  hex stays); brick buildings stand 2 heights and stone 3 (the scenario's ``[special] heights``
  must say so, checked by :func:`problems`: building heights are the Advanced Game's terrain
  heights, MBT 12.1.2).
* ``unspoiled_mountains`` (A.2): every hill and depression level is 2 heights; no buildings; roads
  are paths (hex and hexside features ``road`` become ``path``: the cards' path rate, MBT 8.5;
  docs/decisions.md MBTD-126).
* ``sunless_woods`` (A.3): no buildings; printed woods are heavy woods (the feature
  ``heavy_woods``: woods for every chart, a stand-in movement cost, MBTD-126) and a clear hex with
  the feature ``dark_green`` is woods (the stand-in panels print none).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from hexwar.core.board import Board
from hexwar.core.kit import StashKey
from hexwar.core.types import Problem
from hexwar.plugins.mbt.terrain import DARK_GREEN, HEAVY_WOODS

if TYPE_CHECKING:
    from hexwar.core.engine.game import Game
    from hexwar.core.scenario import Scenario

#: MBT Scenario One A.1: the building heights of the open plains
OPEN_PLAINS_HEIGHTS = {"brick": 2, "stone": 3}
BUILDINGS = ("brick", "stone")
#: variant boards of a printed board, by variant name
VARIANTS = StashKey[dict[str, Board]]("mbt.variants")


def variant_of(scenario: Scenario) -> str:
    special = scenario.raw.get("special", {})
    got = special.get("terrain_variant", "standard") if isinstance(special, dict) else "standard"
    return str(got)


def problems(scenario: Scenario) -> list[Problem]:
    """MBT Scenario One A.1: the open plains make brick buildings 2 heights and stone 3; the
    scenario's ``[special] heights`` must give them (the heights of what stands on the ground are
    the scenario's or the chart's, MBT 12.1.2)."""
    if variant_of(scenario) != "open_plains":
        return []
    special = scenario.raw.get("special", {})
    heights: Any = special.get("heights", {}) if isinstance(special, dict) else {}
    if isinstance(heights, dict) and all(heights.get(k) == v for k, v in OPEN_PLAINS_HEIGHTS.items()):
        return []
    return [Problem("the open plains (MBT Scenario One A.1) make brick buildings 2 heights and stone "
                    "buildings 3", scenario.path, "special.heights",
                    hint="add heights = { brick = 2, stone = 3 } to [special]")]


def variant_board(printed: Board, variant: str) -> Board:
    """The printed board with ``variant`` applied (the printed board itself for ``standard``)."""
    if variant == "standard":
        return printed
    cache = printed.stash.setdefault(VARIANTS, {})
    got = cache.get(variant)
    if got is None:
        got = Board(printed.graph.copy(), placements=printed.placements)
        got.geo = printed.geo
        for h in sorted(printed.hexes, key=lambda x: (x.q, x.r)):
            terrain, height = printed.terrain_of[h], printed.height_of[h]
            if variant == "open_plains":
                if height > 0:
                    got.set_height(h, 0.0)  # A.1: ignore the hills
                if terrain in ("scrub", "rough"):
                    got.set_terrain(h, "clear")  # a stream feature stays (MBT Scenario Format A)
            elif variant == "unspoiled_mountains" and height:
                got.set_height(h, 2.0 * height)  # A.2: each level 2 heights
            if variant in ("unspoiled_mountains", "sunless_woods") and terrain in BUILDINGS:
                got.set_terrain(h, "stream" if "stream" in printed.features_of[h] else "clear")
            feats = printed.features_of[h]
            if variant == "unspoiled_mountains" and "road" in feats:
                got.set_features(h, (feats - {"road"}) | {"path"})  # A.2: roads are paths
            if variant == "sunless_woods":
                if terrain == "woods":
                    got.set_features(h, feats | {HEAVY_WOODS})  # A.3: printed woods are heavy
                elif terrain == "clear" and DARK_GREEN in feats:
                    got.set_terrain(h, "woods")  # A.3: dark green clear is woods
        if variant == "unspoiled_mountains":
            for (a, b), fs in printed.hexside_of.items():
                if "road" in fs and (a.q, a.r) < (b.q, b.r):
                    got.set_hexside(a, b, (fs - {"road"}) | {"path"})
        cache[variant] = got
    return got


def apply(game: Game) -> None:
    """Before anything reads the board: the game is played on the variant's board."""
    variant = variant_of(game.scenario)
    if variant != "standard":
        game.board = variant_board(game.board, variant)
        game.emit("terrain_variant", variant=variant, rule="MBT Scenario One A")
