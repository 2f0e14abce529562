"""Pictures compared byte for byte with ones recorded in ``tests/core/data/render``: a change to
core/render.py that changes any picture fails here.

A deliberate change of the pictures records them anew: ``HEXWAR_RECORD_RENDER=1 python -m pytest
tests/core/test_render_recorded.py`` (then look at the diff of the .svg files before committing).
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pytest

from hexwar.core.board import Board, Panel
from hexwar.core.render import render_board, render_game
from hexwar.core.testing import make_game
from hexwar.core.types import TerrainType

from .toy import toy_system

RECORDED = Path(__file__).parent / "data" / "render"
TOY = Path(__file__).parent / "toy" / "scenario.toml"

TERRAIN = {
    "test:clear": TerrainType("test:clear", "Clear", "test 1", color="#e8e2c4"),
    "test:woods": TerrainType("test:woods", "Woods", "test 1", color="#4f8a3c"),
    "test:town": TerrainType("test:town", "Town & village <built-up>", "test 1", color="#b09a84"),
    "test:hill": TerrainType("test:hill", "A hill with a very long legend title, cut to fit", "t",
                             color="#c9b98a"),
    "test:water": TerrainType("test:water", "Water", "test 1", color="#7fb0e0"),
}


def everything_board() -> Board:
    """Terrain, heights (contours, a cliff), hexside edges and hexside roads, towns, objectives
    and place names."""
    panel = Panel.from_dict({
        "panel": {"id": "1", "system": "test", "labels": "letter-number", "columns": ["A", "H"],
                  "rows": [1, 7], "default_terrain": "clear", "hex_size_m": 100},
        "hex": [
            {"at": ["C3", "C4", "D3"], "terrain": "woods", "height": 1},
            {"at": ["F5", "F6"], "terrain": "hill", "height": 2.5},
            {"at": "B6", "terrain": "water", "height": -1},
            {"at": "E2", "terrain": "town", "features": ["town", "objective", "name:Ville"]},
            {"at": ["G2", "G3"], "terrain": "town", "features": ["village", "name:Two Hexes"]},
            {"at": "A7", "features": ["objective"]},
        ],
        "hexside": [
            {"between": ["A1", "A2"], "features": ["hedge"]},
            {"between": ["B2", "B3"], "features": ["stream"]},
            {"between": ["B3", "B4"], "features": ["river", "bridge"]},
            {"between": ["D1", "D2"], "features": ["road"]},
            {"between": ["D2", "D3"], "features": ["road", "contour"]},
            {"between": ["E4", "E5"], "features": ["wall"]},
            {"between": ["F4", "F5"], "features": ["cliff"]},
            {"between": ["G5", "G6"], "features": ["trail", "fence"]},
            {"between": ["H1", "H2"], "features": ["unknown-feature"]},
        ],
    })
    return Board.assemble([panel])


def feature_roads_board() -> Board:
    """Roads and trails given as hex features only (named and unnamed), fences across hexes,
    railways and bocage; flat ground; column-row labels."""
    panel = Panel.from_dict({
        "panel": {"id": "9", "system": "test", "labels": "column-row", "columns": [1, 9],
                  "rows": [1, 6], "default_terrain": "clear", "hex_size_m": 50},
        "hex": [
            {"at": ["0102", "0202", "0302"], "features": ["road", "name:Main Road"]},
            {"at": ["0402"], "features": ["road", "name:Side Road"]},
            {"at": ["0503", "0603"], "features": ["road"]},
            {"at": ["0105", "0205", "0305"], "features": ["trail"]},
            {"at": "0704", "features": ["fence:1-4", "hedge:2-5", "fence:1-9", "wall:x"]},
            {"at": "0804", "terrain": "woods", "features": ["name:Copse"]},
        ],
        "hexside": [
            {"between": ["0801", "0802"], "features": ["rail"]},
            {"between": ["0901", "0902"], "features": ["bocage", "slope", "crest"]},
        ],
    })
    return Board.assemble([panel])


UNITS = [
    {"id": "r1", "type": "test:tank", "side": "red", "hex": "1C3", "facing": 2,
     "state": {"S": True, "fired": True, "moved": True, "revealed": True}},
    {"id": "r2", "type": "test:infantry", "side": "red", "hex": "1C3", "facing": 5},
    {"id": "r3", "side": "red", "hex": "1C3"},
    {"id": "r4", "side": "red", "hex": "1C3", "facing": True},
    {"id": "r5", "side": "red", "hex": "1C3", "facing": 7},
    {"id": "b1-with-a-long-id", "type": "test:apc", "side": "blue", "hex": [5, 2], "facing": 1,
     "markers": ["smoke"], "state": {"markers": ["Kf"]}},
    {"id": "g1", "type": "test:gun", "side": "Soviet", "hex": "1A7"},
    {"id": "x1", "side": "purple people", "hex": "1H7"},
    {"id": "off", "side": "red", "hex": "Z99"},
    {"id": "nowhere", "side": "red", "hex": None},
    "not a unit",
]


def case_everything() -> str:
    board = everything_board()
    return render_board(
        board, terrain_types=TERRAIN, units=UNITS,  # type: ignore[arg-type]
        markers={"1E2": ["wreck", "smoke", "burning", "a fourth is not shown"], "1C3": ["S"],
                 (3, 3): ["by pair"], "1Z9": ["off the board"], "1A1": []},
        title="Everything <& more>", highlight_hexes=["1D3", "1D3", board.parse("1A1"), "Z1"],
        los_line=("1A1", "1H7"), side_colors={"blue": "#123456"})


def case_plain() -> str:
    return render_board(everything_board(), terrain_types={}, label_every=0, legend=False,
                        show_heights=False)


def case_feature_roads() -> str:
    return render_board(feature_roads_board(), terrain_types=TERRAIN, label_every=2,
                        hex_size=20, units=[{"id": "a", "side": "blue", "hex": "0704", "facing": 3}],
                        los_line=("0101", "Z9"))


def case_toy_game_views() -> str:
    game = make_game(TOY, seed=3, local_plugins=[toy_system])
    return "".join(render_game(game, side) for side in (None, "red", "blue"))


CASES: dict[str, Callable[[], str]] = {
    "everything": case_everything,
    "plain": case_plain,
    "feature_roads": case_feature_roads,
    "toy_game_views": case_toy_game_views,
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_pictures_are_unchanged(name: str) -> None:
    svg = CASES[name]()
    path = RECORDED / f"{name}.svg"
    if os.environ.get("HEXWAR_RECORD_RENDER"):
        path.write_bytes(svg.encode("utf-8"))
    assert path.exists(), f"no recorded picture {path}; record with HEXWAR_RECORD_RENDER=1"
    recorded = path.read_bytes().decode("utf-8")
    assert svg == recorded, f"{name}: the picture differs from {path}"
