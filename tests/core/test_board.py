"""Panels from TOML, panel placement and joining, the board graph schema, validation."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import networkx as nx
import pytest

from hexwar.core.board import (
    Board,
    MapValidationError,
    Panel,
    PanelPlacement,
    board_from_spec,
    validate_board,
)
from hexwar.core.hexgrid import Hex
from hexwar.core.types import DataSource

PANEL_TOML = """
[panel]
id = "1"
system = "mbt"
title = "MBT panel 1 (stand-in)"
stand_in = true
labels = "letter-number"
shifted = "even"
columns = ["A", "HH"]
rows = [1, 10]
hex_size_m = 100.0
default_terrain = "clear"
default_height = 0

[[hex]]
at = "G7"
terrain = "pond"
source = "MBT 1.1 (the pond hex)"

[[hex]]
at = ["M5", "M6"]
terrain = "woods"
height = 2
features = ["road"]
source = "estimated"

[[hexside]]
between = ["G7", "G8"]
features = ["stream"]
source = "estimated"
"""


def _panel(pid: str = "1", **over: Any) -> Panel:
    d: dict[str, Any] = {
        "panel": {"id": pid, "system": "mbt", "labels": "letter-number", "columns": ["A", "D"],
                  "rows": [1, 4], "hex_size_m": 100.0},
    }
    d["panel"].update(over)
    return Panel.from_dict(d, source=f"panel{pid}")


def test_panel_from_toml(tmp_path: Path) -> None:
    p = tmp_path / "panel1.toml"
    p.write_text(PANEL_TOML, encoding="utf-8")
    panel = Panel.from_toml(p)
    assert panel.id == "1" and panel.stand_in and panel.hex_size_m == 100.0
    assert len(panel.cells) == 34 * 10
    g7 = panel.parse("1G7")
    assert panel.terrain[g7] == "pond"
    assert panel.height[panel.parse("M5")] == 2.0
    assert panel.features[panel.parse("M6")] == frozenset({"road"})
    assert panel.hexsides[frozenset((g7, panel.parse("G8")))] == frozenset({"stream"})
    assert panel.sources["1G7"] == "MBT 1.1 (the pond hex)"
    assert panel.label(g7) == "1G7"


def test_panel_reports_every_problem_at_once() -> None:
    d = {
        "panel": {"id": "1", "labels": "letter-number", "columns": ["A", "D"], "rows": [1, 4],
                  "colour": "red"},
        "hex": [
            {"at": "Z9", "terrain": "woods"},          # outside the panel
            {"at": "B2", "height": "high"},            # non-numeric height
            {"at": "1A-1", "terrain": "woods"},         # malformed label
            {"at": "B3", "terrain": "woods"},
            {"at": "B3", "terrain": "clear"},           # duplicate
        ],
        "hexside": [
            {"between": ["A1", "C3"], "features": ["wall"]},   # not adjacent
            {"between": ["A1", "A2"], "features": []},         # no features
        ],
    }
    with pytest.raises(MapValidationError) as ei:
        Panel.from_dict(d, source="bad.toml")
    msgs = [p.message for p in ei.value.problems]
    text = "\n".join(msgs)
    assert len(msgs) == 7, text
    assert "unknown key 'colour'" in text
    assert "'Z9' is outside panel 1" in text
    assert "height of 'B2' is not a number" in text
    assert "'1A-1'" in text
    assert "'B3' is described twice" in text
    assert "not adjacent" in text
    assert "non-empty list" in text
    assert isinstance(ei.value, ValueError)
    assert all(p.path == "bad.toml" for p in ei.value.problems)


def test_panel_missing_table() -> None:
    with pytest.raises(MapValidationError, match="missing \\[panel\\]"):
        Panel.from_dict({}, source="x")


def test_single_panel_board_schema() -> None:
    board = Board.assemble([_panel()])
    g = board.graph
    assert isinstance(g, nx.Graph)
    assert g.graph == {"system": "mbt", "hex_size_m": 100.0, "orientation": "flat"}
    assert len(board.hexes) == 16
    h = board.parse("1B2")
    attrs = g.nodes[h]
    assert attrs["terrain"] == "clear" and attrs["height"] == 0.0
    assert attrs["features"] == frozenset() and attrs["labels"] == ("1B2",)
    for a, b, e in g.edges(data=True):
        assert a.distance(b) == 1 and e["hexside"] == frozenset()
    # every adjacent pair on the board is an edge
    assert all(g.has_edge(x, n) for x in board.hexes for n in x.neighbors() if n in board.hexes)
    assert board.label(h) == "1B2"
    assert board.neighbors(h) == tuple(n for n in h.neighbors() if n in board.hexes)
    assert validate_board(board) == []


def test_parse_errors_name_the_label() -> None:
    board = Board.assemble([_panel()])
    with pytest.raises(ValueError, match="'1Z9' is not on this board"):
        board.parse("1Z9")
    with pytest.raises(ValueError, match="not on the board"):
        board.label(Hex(100, 100))
    assert board.parse(" 1b2 ") == board.parse("1B2")


def test_mbt_2_1_three_panels_in_a_row_share_half_hexes() -> None:
    # MBT 2.1: panel 3, panel 2, panel 1 in a row; MBT 1.1: a hex split between two panels may
    # be named from either panel. Each stand-in panel is columns A..D; its last column is the
    # half hex shared with the next panel's column A.
    p3, p2, p1 = _panel("3"), _panel("2"), _panel("1")
    pl3 = PanelPlacement(p3)
    pl2 = PanelPlacement(p2, (3, 0))  # cell (0, 0) where panel 3's own cell (3, 0) would be
    pl1 = PanelPlacement.aligned(p1, "1A1", pl2.hex("2D1"))
    board = Board.assemble([pl3, pl2, pl1])
    assert len(board.hexes) == 3 * 16 - 2 * 4
    joined = board.parse("3D2")
    assert board.parse("2A2") == joined
    assert board.labels(joined) == ("3D2", "2A2")
    assert board.label(joined) == "3D2"  # canonical: the earlier placement
    assert board.parse("2D4") == board.parse("1A4")
    # rows line up across the join, and columns continue the grid
    assert board.parse("2B2").distance(board.parse("3C2")) == 2
    assert validate_board(board) == []


def test_join_conflict_is_a_problem() -> None:
    a = Panel.from_dict({"panel": {"id": "1", "columns": ["A", "B"], "rows": [1, 2]},
                         "hex": [{"at": "B1", "terrain": "woods"}]}, source="a")
    b = Panel.from_dict({"panel": {"id": "2", "columns": ["A", "B"], "rows": [1, 2]},
                         "hex": [{"at": "A1", "terrain": "town"}]}, source="b")
    with pytest.raises(MapValidationError, match="joined hex 1B1 = 2A1: terrain 'woods'"):
        Board.assemble([PanelPlacement(a), PanelPlacement(b, (1, 0))])
    board = Board.assemble([PanelPlacement(a), PanelPlacement(b, (1, 0))], strict=False)
    assert board.terrain(board.parse("2A1")) == "woods"


def test_rotation_180() -> None:
    p = Panel.from_dict({"panel": {"id": "1", "columns": ["A", "C"], "rows": [1, 3]},
                         "hex": [{"at": "A1", "terrain": "woods"}],
                         "hexside": [{"between": ["A1", "A2"], "features": ["wall"]}]}, source="p")
    pl = PanelPlacement(p, Hex(10, 10), 180)
    board = Board.assemble([pl])
    a1, a2, c3 = board.parse("1A1"), board.parse("1A2"), board.parse("1C3")
    assert board.terrain(a1) == "woods"
    # turned over: A2 is now above A1, and C3 lies to the left of A1
    assert a1.direction_to(a2) == 1
    assert c3.to_pixel()[0] < a1.to_pixel()[0]
    assert board.hexside(a1, a2) == frozenset({"wall"})
    assert pl.to_local(pl.to_board(Hex(2, -1))) == Hex(2, -1)


def test_aligned_placement() -> None:
    p = _panel("2")
    pl = PanelPlacement.aligned(p, "2B3", Hex(5, 5))
    assert pl.hex("2B3") == Hex(5, 5)
    pl180 = PanelPlacement.aligned(p, "2B3", Hex(5, 5), rotation=180)
    assert pl180.hex("2B3") == Hex(5, 5)
    with pytest.raises(ValueError):
        PanelPlacement(p, rotation=90)  # type: ignore[arg-type]


def test_firefight_two_maps_are_qualified() -> None:
    # Firefight: hex numbers repeat across Map A and Map B, so labels carry the map ("A:1944").
    def ffmap(m: str) -> Panel:
        return Panel.from_dict({"panel": {"id": m, "map": m, "labels": "column-row",
                                          "columns": [0, 3], "rows": [1, 3]}}, source=m)

    one = Board.assemble([ffmap("B")])
    assert one.label(one.parse("0102")) == "0102"
    assert one.parse("B:0102") == one.parse("0102")
    two = Board.assemble([PanelPlacement(ffmap("B")), PanelPlacement(ffmap("A"), (4, 0))])
    assert two.label(two.parse("A:0102")) == "A:0102"
    with pytest.raises(ValueError, match="'0102' is not on this board"):
        two.parse("0102")
    assert two.parse("A:0001").distance(two.parse("B:0301")) == 1


def test_accessors_and_scenario_changes() -> None:
    d = {"panel": {"id": "1", "columns": ["A", "C"], "rows": [1, 3]},
         "hex": [{"at": "B2", "terrain": "woods", "height": 3, "features": ["road"]}],
         "hexside": [{"between": ["B2", "B3"], "features": ["hedge"]}]}
    board = Board.assemble([Panel.from_dict(d, source="p")])
    b2, b3 = board.parse("1B2"), board.parse("1B3")
    assert (board.terrain(b2), board.height(b2), board.features(b2)) == ("woods", 3.0,
                                                                       frozenset({"road"}))
    assert board.hexside(b2, b3) == board.hexside(b3, b2) == frozenset({"hedge"})
    assert board.contains(b2) and not board.contains(Hex(50, 50)) and b2 in board
    with pytest.raises(KeyError):
        board.hexside(b2, board.parse("1A1"))
    with pytest.raises(KeyError):
        board.terrain(Hex(50, 50))
    board.set_terrain("1B2", "rubble")
    assert board.terrain(b2) == "rubble" == board.graph.nodes[b2]["terrain"]
    board.set_height(b2, 4)
    assert board.height_of[b2] == 4.0
    with pytest.raises(ValueError):
        board.set_height(b2, "x")  # type: ignore[arg-type]
    board.set_features(b2, ["smoke"])
    assert board.features_of[b2] == frozenset({"smoke"})
    board.set_hexside(b2, b3, [])
    assert board.hexside_of[(b3, b2)] == frozenset()


def test_validate_board_reports_every_problem() -> None:
    board = Board.assemble([_panel()])
    g = board.graph
    a1, b2 = board.parse("1A1"), board.parse("1B2")
    g.nodes[a1]["terrain"] = "lava"
    g.nodes[b2]["height"] = "tall"
    g.nodes[board.parse("1C3")]["labels"] = ("1A1",)
    g.add_edge(a1, board.parse("1D4"), hexside=frozenset({"wall"}))
    g.nodes[board.parse("1D1")]["features"] = {"road"}
    g.graph["orientation"] = "pointy"
    problems = validate_board(board, known_terrain={"mbt:clear", "mbt:woods"},
                              known_hexsides={"stream"})
    text = "\n".join(str(p) for p in problems)
    assert "unknown terrain type 'lava'" in text
    assert "height is not a number: 'tall'" in text
    assert "duplicate label '1A1'" in text
    assert "hexside between non-adjacent hexes 1A1 and 1D4" in text
    assert "unknown hexside features ['wall']" in text
    assert "features must be a frozenset" in text
    assert "orientation must be 'flat'" in text
    assert len(problems) == 7, text
    # bare names of the board's system match system-qualified known names
    assert validate_board(Board.assemble([_panel()]), known_terrain={"mbt:clear"}) == []


def test_assemble_with_unknown_terrain_raises_all() -> None:
    d = {"panel": {"id": "1", "system": "mbt", "columns": ["A", "B"], "rows": [1, 2]},
         "hex": [{"at": "A1", "terrain": "lava"}, {"at": "B2", "terrain": "magma"}]}
    with pytest.raises(MapValidationError) as ei:
        Board.assemble([Panel.from_dict(d, source="p")], known_terrain={"clear"})
    assert len(ei.value.problems) == 2


class _Hooks:
    def __init__(self, path: Path) -> None:
        self.path = path

    def data_sources(self, kind: str | None = None) -> list[DataSource]:
        return [DataSource("mbt-1", self.path, "panel")]

    def terrain_types(self) -> dict[str, Any]:
        return {"mbt:clear": None, "mbt:pond": None, "mbt:woods": None}


def test_board_from_spec(tmp_path: Path) -> None:
    p = tmp_path / "panel1.toml"
    p.write_text(PANEL_TOML, encoding="utf-8")
    board = board_from_spec({"panels": [{"panel": "mbt-1"}], "terrain": {"1A1": "woods"}},
                            _Hooks(p), path=str(tmp_path / "scn.toml"))
    assert board.terrain(board.parse("1A1")) == "woods"
    assert board.terrain(board.parse("1G7")) == "pond"
    with pytest.raises(MapValidationError, match="unknown panel 'nope'"):
        board_from_spec({"panels": [{"panel": "nope"}]}, _Hooks(p))
    with pytest.raises(MapValidationError, match="'1ZZ99' is not on this board"):
        board_from_spec({"panels": ["mbt-1"], "terrain": {"1ZZ99": "woods"}}, _Hooks(p))


def test_board_from_spec_joins_panels(tmp_path: Path) -> None:
    p = tmp_path / "panel1.toml"
    p.write_text(PANEL_TOML, encoding="utf-8")
    other = tmp_path / "panel2.toml"
    other.write_text(PANEL_TOML.replace('id = "1"', 'id = "2"'), encoding="utf-8")
    board = board_from_spec(
        {"panels": [{"file": "panel2.toml"}, {"panel": "mbt-1", "join": ["1A1", "2HH1"]}]},
        _Hooks(p), path=str(tmp_path / "scn.toml"))
    assert board.parse("1A5") == board.parse("2HH5")
    assert len(board.hexes) == 2 * 340 - 10
    with pytest.raises(MapValidationError, match="bad join"):
        board_from_spec({"panels": [{"file": "panel2.toml"},
                                    {"panel": "mbt-1", "join": ["1A1", "9A1"]}]},
                        _Hooks(p), path=str(tmp_path / "scn.toml"))


def test_every_label_round_trips_on_a_joined_board() -> None:
    # Panel 2 turned 180 degrees and joined to the right of panel 3: its column D (now on its
    # left) is the shared half-hex column, with the rows running the other way.
    p3, p2 = _panel("3"), _panel("2")
    pl3 = PanelPlacement(p3)
    board = Board.assemble([pl3, PanelPlacement.aligned(p2, "2D4", pl3.hex("3D1"), 180)])
    assert len(board.hexes) == 16 + 16 - 4
    assert [board.parse(f"2D{r}") for r in (4, 3, 2, 1)] == [
        board.parse(f"3D{r}") for r in (1, 2, 3, 4)
    ]
    assert board.parse("2C4").to_pixel()[0] > board.parse("2D4").to_pixel()[0]
    for h in board.hexes:
        assert board.parse(board.label(h)) == h
        assert all(board.parse(x) == h for x in board.labels(h))


@pytest.mark.parametrize("entry, key, words", [
    ({"panel": "mbt-1", "offset": 5}, "board.panels[0].offset", "two integers"),
    ({"panel": "mbt-1", "hex": "ab"}, "board.panels[0].hex", "two integers"),
    ({"panel": "mbt-1", "hex": [1, "x"]}, "board.panels[0].hex", "two integers"),
    ({"panel": "mbt-1", "offset": [1, 2, 3]}, "board.panels[0].offset", "two integers"),
    ({"panel": "mbt-1", "offset": [10**12, 0]}, "board.panels[0].offset", "two integers"),
    ({"panel": "mbt-1", "join": "1A1"}, "board.panels[0].join", "two hex labels"),
    ({"panel": "mbt-1", "rotation": True}, "board.panels[0].rotation", "rotation"),
    ({"panel": 5}, "board.panels[0].panel", "panel name"),
    ({"panel": "mbt-1", "ofset": [0, 1]}, "board.panels[0].ofset", "did you mean 'offset'"),
    ({"panel": "mbt-1", "file": "x.toml"}, "board.panels[0]", "either 'panel' or 'file'"),
])
def test_panel_placement_is_type_checked(tmp_path: Path, entry: dict[str, Any], key: str,
                                         words: str) -> None:
    p = tmp_path / "panel1.toml"
    p.write_text(PANEL_TOML, encoding="utf-8")
    with pytest.raises(MapValidationError) as info:
        board_from_spec({"panels": [entry]}, _Hooks(p), path=str(tmp_path / "scn.toml"))
    assert any(pr.key == key and words in str(pr) for pr in info.value.problems), \
        info.value.problems
    assert all(pr.path == str(tmp_path / "scn.toml") for pr in info.value.problems)


def test_board_terrain_changes_are_checked(tmp_path: Path) -> None:
    p = tmp_path / "panel1.toml"
    p.write_text(PANEL_TOML, encoding="utf-8")
    with pytest.raises(MapValidationError) as info:
        board_from_spec({"panels": ["mbt-1"], "terrain": {"1A1": "lava", "1A2": 3},
                         "terain": {}}, _Hooks(p), path="scn.toml")
    text = "\n".join(map(str, info.value.problems))
    assert "unknown terrain type 'lava'" in text and "[board.terrain.1A2]" in text
    assert "did you mean 'terrain'" in text


def test_unknown_terrain_in_a_panel_is_a_problem(tmp_path: Path) -> None:
    p = tmp_path / "panel1.toml"
    p.write_text(PANEL_TOML + '\n[[hex]]\nat = "B2"\nterrain = "lava"\n', encoding="utf-8")
    with pytest.raises(MapValidationError, match="unknown terrain type 'lava'"):
        board_from_spec({"panels": ["mbt-1"]}, _Hooks(p), path="scn.toml")


@pytest.mark.parametrize("name, words", [
    ("/etc/passwd", "relative path"), ("/dev/zero", "relative path"),
    ("../outside.toml", "may not leave"), ("maps/../../outside.toml", "may not leave"),
    ("link.toml", "may not leave"), ("nothere.toml", "no such file"),
])
def test_panel_file_is_confined_to_the_scenario_folder(tmp_path: Path, name: str,
                                                       words: str) -> None:
    folder = tmp_path / "scn"
    (folder / "maps").mkdir(parents=True)
    secret = tmp_path / "outside.toml"
    secret.write_text('[panel]\nid = "SECRET-VALUE"\n', encoding="utf-8")
    (folder / "link.toml").symlink_to(secret)
    p = tmp_path / "panel1.toml"
    p.write_text(PANEL_TOML, encoding="utf-8")
    with pytest.raises(MapValidationError) as info:
        board_from_spec({"panels": [{"file": name}]}, _Hooks(p), path=str(folder / "s.toml"))
    text = "\n".join(map(str, info.value.problems))
    assert words in text and "SECRET-VALUE" not in text and "root:" not in text
