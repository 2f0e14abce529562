"""SVG pictures: well-formed XML, one polygon per hex, labels, legend, counters with facing."""

from __future__ import annotations

import time
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest

from hexwar.core.board import Board, Panel
from hexwar.core.engine.game import Game
from hexwar.core.render import render_board, render_game
from hexwar.core.scenario import Scenario
from hexwar.core.types import TerrainType

SVG = "{http://www.w3.org/2000/svg}"
TOY = Path(__file__).parent / "toy"

TERRAIN = {
    "test:clear": TerrainType("test:clear", "Clear", "test 1", color="#e8e2c4"),
    "test:woods": TerrainType("test:woods", "Woods", "test 1", color="#4f8a3c"),
    "test:town": TerrainType("test:town", "Town", "test 1", color="#b09a84"),
    "test:marsh": TerrainType("test:marsh", "Marsh (never used)", "test 1", color="#88aa99"),
}


def small_board() -> Board:
    panel = Panel.from_dict({
        "panel": {"id": "1", "system": "test", "labels": "letter-number", "columns": ["A", "F"],
                  "rows": [1, 5], "default_terrain": "clear", "hex_size_m": 100},
        "hex": [
            {"at": ["C3", "C4"], "terrain": "woods", "height": 1},
            {"at": "E2", "terrain": "town", "features": ["town", "objective", "name:Ville"]},
        ],
        "hexside": [
            {"between": ["A1", "A2"], "features": ["hedge"]},
            {"between": ["B2", "B3"], "features": ["stream"]},
            {"between": ["D1", "D2"], "features": ["road"]},
            {"between": ["E4", "E5"], "features": ["wall"]},
        ],
    })
    return Board.assemble([panel])


def parse(svg: str) -> ET.Element:
    root = ET.fromstring(svg)
    assert root.tag == f"{SVG}svg"
    return root


def polygons(root: ET.Element) -> list[ET.Element]:
    return list(root.iter(f"{SVG}polygon"))


def test_one_polygon_per_hex_with_its_label_and_terrain_colour() -> None:
    board = small_board()
    root = parse(render_board(board, terrain_types=TERRAIN))
    polys = polygons(root)
    assert len(polys) == len(board.hexes) == 30
    labels = {p.get("data-label") for p in polys}
    assert labels == {board.label(h) for h in board.hexes}
    c3 = next(p for p in polys if p.get("data-label") == "1C3")
    assert c3.get("data-terrain") == "woods"
    a1 = next(p for p in polys if p.get("data-label") == "1A1")
    assert a1.get("fill") == "#e8e2c4"  # clear at the lowest height keeps its own colour
    # six corners per hex
    assert all(len(p.get("points", "").split()) == 6 for p in polys)


def test_hex_labels_are_written_in_each_hex() -> None:
    board = small_board()
    root = parse(render_board(board, terrain_types=TERRAIN))
    texts = {t.text for t in root.iter(f"{SVG}text") if t.get("class") == "lbl"}
    assert {board.label(h) for h in board.hexes} <= texts
    sparse = parse(render_board(board, terrain_types=TERRAIN, label_every=2))
    fewer = [t for t in sparse.iter(f"{SVG}text") if t.get("class") == "lbl"]
    assert 0 < len(fewer) < len(board.hexes)
    none = parse(render_board(board, terrain_types=TERRAIN, label_every=0))
    assert not [t for t in none.iter(f"{SVG}text") if t.get("class") == "lbl"]


def test_legend_lists_the_terrain_used_and_only_that() -> None:
    root = parse(render_board(small_board(), terrain_types=TERRAIN))
    legend = next(g for g in root.iter(f"{SVG}g") if g.get("id") == "legend")
    entries = {t.get("data-terrain") for t in legend.iter(f"{SVG}text")
               if "legend-terrain" in (t.get("class") or "")}
    assert entries == {"test:clear", "test:woods", "test:town"}
    features = {"".join(t.itertext()) for t in legend.iter(f"{SVG}text")
                if "legend-feature" in (t.get("class") or "")}
    assert {"hedge", "stream", "road", "wall", "contour", "town", "objective"} <= features


def test_hexside_features_are_drawn_on_the_right_hexside() -> None:
    board = small_board()
    root = parse(render_board(board, terrain_types=TERRAIN))
    hedge = next(p for p in root.iter(f"{SVG}path") if p.get("class") == "hexside hedge")
    # the hedge runs along the hexside shared by 1A1 and 1A2: both ends are corners of both hexes
    corners: dict[str, set[tuple[float, float]]] = {}
    for p in polygons(root):
        pts = {tuple(round(float(v), 1) for v in xy.split(",")) for xy in p.get("points", "").split()}
        corners[p.get("data-label", "")] = pts  # type: ignore[assignment]
    d = hedge.get("d", "")
    ends = {(round(float(a), 1), round(float(b), 1))
            for a, b in (chunk.split() for chunk in d.replace("M", " ").split("L"))}
    shared = corners["1A1"] & corners["1A2"]
    assert len(shared) == 2
    assert all(any(abs(x - sx) <= 0.11 and abs(y - sy) <= 0.11 for sx, sy in shared) for x, y in ends)


def test_units_are_counters_with_side_colours_ids_and_a_facing_tick() -> None:
    board = small_board()
    units: list[dict[str, Any]] = [
        {"id": "r1", "type": "test:tank", "side": "red", "hex": "1B2", "facing": 3,
         "state": {"suppressed": True}},
        {"id": "b1", "type": "test:gun", "side": "blue", "hex": [board.parse("1E4").q,
                                                                  board.parse("1E4").r], "facing": 6},
        {"id": "b2", "type": "test:gun", "side": "blue", "hex": board.parse("1E4"), "facing": 1},
        {"id": "gone", "type": "test:gun", "side": "blue", "hex": None},
    ]
    root = parse(render_board(board, terrain_types=TERRAIN, units=units))
    counters = [g for g in root.iter(f"{SVG}g") if g.get("class") == "unit"]
    assert sorted(g.get("data-id", "") for g in counters) == ["b1", "b2", "r1"]
    by_id = {g.get("data-id"): g for g in counters}
    assert by_id["r1"].get("data-facing") == "3"
    assert by_id["r1"].get("data-hex") == "1B2"
    fill = {k: g.find(f"{SVG}rect[@stroke]").get("fill") for k, g in by_id.items()}  # type: ignore[union-attr]
    assert fill["b1"] == fill["b2"] != fill["r1"]
    texts = ["".join(t.itertext()) for t in root.iter(f"{SVG}text")]
    assert "r1" in texts and "tank" in texts and "suppressed" in texts
    # the facing tick points from the hex centre toward the middle of the facing hexside
    ticks = {t.get("data-id"): t for t in root.iter(f"{SVG}line") if t.get("class") == "facing"}
    assert set(ticks) == {"r1", "b1", "b2"}
    poly = next(p for p in polygons(root) if p.get("data-label") == "1B2")
    pts = [tuple(float(v) for v in xy.split(",")) for xy in poly.get("points", "").split()]
    cx = sum(p[0] for p in pts) / 6
    cy = sum(p[1] for p in pts) / 6
    t = ticks["r1"]
    dx = float(t.get("x2", 0)) - cx
    dy = float(t.get("y2", 0)) - cy
    # facing 3 is the south-east hexside: right and down, at 30 degrees below the horizontal
    assert dx > 0 and dy > 0 and abs(dy / dx - 0.577) < 0.05
    up = ticks["b2"]
    assert float(up.get("y2", 0)) < float(up.get("y1", 0))  # facing 1 points up
    legend = next(g for g in root.iter(f"{SVG}g") if g.get("id") == "legend")
    assert {t.get("data-side") for t in legend.iter(f"{SVG}text") if t.get("data-side")} == {"red", "blue"}


def test_los_line_highlights_markers_and_title() -> None:
    board = small_board()
    svg = render_board(board, terrain_types=TERRAIN, los_line=("1A1", "1F5"),
                       highlight_hexes=["1C3", board.parse("1C4")], markers={"1D3": ["smoke"]},
                       title="A <test> & more")
    root = parse(svg)
    los = next(g for g in root.iter(f"{SVG}g") if g.get("id") == "los")
    assert (los.get("data-from"), los.get("data-to")) == ("1A1", "1F5")
    hl = {p.get("data-label") for p in root.iter(f"{SVG}path") if p.get("class") == "highlight"}
    assert hl == {"1C3", "1C4"}
    smoke = next(t for t in root.iter(f"{SVG}text") if "".join(t.itertext()) == "smoke")
    d3 = next(p for p in polygons(root) if p.get("data-label") == "1D3")
    xs = [float(xy.split(",")[0]) for xy in d3.get("points", "").split()]
    assert min(xs) < float(smoke.get("x", 0)) < max(xs)  # the marker sits in its own hex
    assert root.find(f"{SVG}title").text == "A <test> & more"  # type: ignore[union-attr]
    assert len(polygons(root)) == len(board.hexes)  # nothing else is a polygon


def test_rendering_is_deterministic() -> None:
    board = small_board()
    units = [{"id": "r1", "type": "t:x", "side": "red", "hex": "1B2", "facing": 2}]
    assert render_board(board, terrain_types=TERRAIN, units=units) == render_board(
        board, terrain_types=TERRAIN, units=list(units))


def test_the_ground_drawn_once_per_board_is_the_ground_drawn_afresh() -> None:
    """The hex, hexside, feature and label layers are kept in the board's stash (a web table
    draws the board after every decision): a picture from the kept layers is byte for byte the
    one drawn on a board that has none kept, whatever the units and whatever else was drawn."""
    from hexwar.core.render import _GROUND

    board = small_board()
    units = [{"id": "u1", "type": "tank", "side": "A", "hex": "C3", "facing": 2}]
    first = render_board(board, terrain_types=TERRAIN, units=units, label_every=2)
    render_board(board, terrain_types=TERRAIN, hex_size=20.0, show_heights=False)
    assert len(board.stash[_GROUND]) == 2
    kept = render_board(board, terrain_types=TERRAIN, units=units, label_every=2)
    other = render_board(board, terrain_types=TERRAIN, units=[], label_every=2, title="T")
    fresh = small_board()
    assert kept == first == render_board(fresh, terrain_types=TERRAIN, units=units, label_every=2)
    assert other == render_board(small_board(), terrain_types=TERRAIN, label_every=2, title="T")
    # other colours for the same terrain names are another set of layers, not the kept one
    recoloured = {k: TerrainType(t.name, t.title, t.rule, color="#123456")
                  for k, t in TERRAIN.items()}
    assert 'fill="#123456"' in render_board(board, terrain_types=recoloured, units=units,
                                            label_every=2)


def test_a_60_by_50_board_renders_quickly() -> None:
    panel = Panel.from_dict({
        "panel": {"id": "9", "labels": "column-row", "columns": [1, 60], "rows": [1, 50],
                  "default_terrain": "clear"},
        "hex": [{"at": [f"{c:02d}{r:02d}" for c in range(5, 20) for r in range(3, 9)],
                 "terrain": "woods", "height": 2}],
    })
    board = Board.assemble([panel])
    units = [{"id": f"u{i}", "type": "t:x", "side": "ab"[i % 2], "hex": [i, 10], "facing": 1 + i % 6}
             for i in range(1, 60)]
    start = time.perf_counter()
    svg = render_board(board, terrain_types=TERRAIN, units=units)
    elapsed = time.perf_counter() - start
    root = parse(svg)
    assert len(polygons(root)) == 3000
    assert elapsed < 1.0, f"rendering 3000 hexes took {elapsed:.2f}s"


def test_render_game_draws_what_the_side_may_see() -> None:
    scenario = Scenario.load(TOY / "scenario.toml")
    from .toy import toy_system as toy

    game = Game(scenario, seed=1, local_plugins=[toy])
    root = parse(render_game(game))
    ids = {g.get("data-id") for g in root.iter(f"{SVG}g") if g.get("class") == "unit"}
    assert ids == {"r1", "b1"}
    assert len(polygons(root)) == len(game.board.hexes)
    assert "umpire" in (root.find(f"{SVG}title").text or "")  # type: ignore[union-attr]

    class HideEnemies:
        """A sighting rule that shows a side only its own units."""

        from hexwar.core.markers import hookimpl

        @hookimpl
        def hexwar_visible_units(self, game: Any, side: str) -> list[str]:
            return [u.id for u in game.state.units.values() if u.side == side]

    hidden = Game(scenario, seed=1, local_plugins=[toy], extra_plugins=[("hide", HideEnemies())])
    red = parse(render_game(hidden, "red"))
    ids = {g.get("data-id") for g in red.iter(f"{SVG}g") if g.get("class") == "unit"}
    assert ids == {"r1"}


@pytest.mark.parametrize("facing", [0, 7, "3", None])
def test_bad_facings_draw_no_tick(facing: Any) -> None:
    board = small_board()
    units = [{"id": "x", "type": "t:x", "side": "red", "hex": "1B2", "facing": facing}]
    root = parse(render_board(board, terrain_types=TERRAIN, units=units))
    assert not [t for t in root.iter(f"{SVG}line") if t.get("class") == "facing"]
    assert [g for g in root.iter(f"{SVG}g") if g.get("class") == "unit"]


def test_a_fence_picture_across_a_hex_joins_the_middles_of_its_hexsides() -> None:
    panel = Panel.from_dict({
        "panel": {"id": "1", "labels": "letter-number", "columns": ["A", "C"], "rows": [1, 3]},
        "hex": [{"at": "B2", "features": ["fence:1-4"]}],
    })
    board = Board.assemble([panel])
    root = parse(render_board(board, terrain_types=TERRAIN))
    fence = next(p for p in root.iter(f"{SVG}path") if p.get("class") == "hexside fence")
    (x1, y1), (x2, y2) = ((float(a), float(b)) for a, b in
                          (c.split() for c in fence.get("d", "").replace("M", "").split("L")))
    poly = next(p for p in polygons(root) if p.get("data-label") == "1B2")
    pts = [tuple(float(v) for v in xy.split(",")) for xy in poly.get("points", "").split()]
    cx = sum(p[0] for p in pts) / 6
    ys = [p[1] for p in pts]
    # from the middle of the top hexside (1) straight down to the middle of the bottom one (4)
    assert abs(x1 - cx) < 0.2 and abs(x2 - cx) < 0.2
    assert abs(y1 - min(ys)) < 0.2 and abs(y2 - max(ys)) < 0.2
