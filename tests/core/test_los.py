"""Line of sight: the trace walk, hexside and corner policies, off-board, elevation rules."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hexwar.core.board import Board, Panel
from hexwar.core.hexgrid import Hex, trace
from hexwar.core.los import (
    BaseLosRules,
    ElevationLosRules,
    HexsideHow,
    LosContext,
    LosEffect,
    OpenGroundLos,
    line_of_sight,
)


def ff_board(hexes: dict[str, dict[str, Any]] | None = None,
             hexsides: list[dict[str, Any]] | None = None) -> Board:
    d: dict[str, Any] = {
        "panel": {"id": "A", "map": "A", "system": "test", "labels": "column-row",
                  "columns": [10, 36], "rows": [1, 15], "default_height": 440},
        "hex": [{"at": k, **v} for k, v in (hexes or {}).items()],
        "hexside": hexsides or [],
    }
    return Board.assemble([Panel.from_dict(d, source="test")])


class Woods(BaseLosRules):
    """A basic-game style rule: woods and town hexes block (MBT 6.1.4.5, Firefight 5.1); walls block
    when crossed or run along; smoke hinders +2."""

    def __init__(self, **policy: Any) -> None:
        for k, v in policy.items():
            setattr(self, k, v)
        self.calls: list[tuple[str, Any]] = []

    def hex_effect(self, board: Board, h: Hex, ctx: LosContext) -> LosEffect | None:
        self.calls.append(("hex", h))
        t = board.terrain_of[h]
        if t in ("woods", "town"):
            return LosEffect("block", 0, t, "MBT 6.1.4.5")
        if t == "smoke":
            return LosEffect("hinder", 2, "smoke", "MBT 13.2.1")
        return None

    def hexside_effect(self, board: Board, a: Hex, b: Hex, how: HexsideHow,
                       ctx: LosContext) -> LosEffect | None:
        self.calls.append((how, frozenset((a, b))))
        if "wall" in board.hexside_of[(a, b)]:
            return LosEffect("block", 0, f"wall ({how})", "test")
        return None


def test_open_ground_is_clear_and_keeps_the_trace() -> None:
    b = ff_board()
    a, t = b.parse("1010"), b.parse("3015")
    res = line_of_sight(b, a, t, OpenGroundLos())
    assert res.clear and not res.blocked and res.findings == ()
    assert res.trace == trace(a, t)


def test_mbt_24_adjacent_is_always_clear() -> None:
    # MBT 6.1.4: the end hexes never block, so adjacent units always see each other.
    b = ff_board({"2010": {"terrain": "woods"}, "2011": {"terrain": "woods"}})
    assert line_of_sight(b, b.parse("2010"), b.parse("2011"), Woods()).clear


def test_ff_14_units_in_forest_see_out() -> None:
    # Firefight 5.11: blocking terrain in the firer's or target's own hex does not matter.
    b = ff_board({"2010": {"terrain": "woods"}, "2014": {"terrain": "woods"}})
    assert line_of_sight(b, b.parse("2010"), b.parse("2014"), Woods()).clear
    # ... unless the rules ask for the end hexes too
    assert line_of_sight(b, b.parse("2010"), b.parse("2014"),
                         Woods(include_endpoints=True)).blocked


def test_mbt_25_one_woods_hex_between_blocks() -> None:
    b = ff_board({"2012": {"terrain": "woods"}})
    res = line_of_sight(b, b.parse("2010"), b.parse("2014"), Woods())
    assert res.blocked
    assert res.reasons(b) == ["blocked at 2012: woods (MBT 6.1.4.5)"]


def test_mbt_25_woods_on_one_side_of_a_hexside_line() -> None:
    # MBT 6.1.4.1: a hex the line touches, however slightly, counts; a line along a hexside
    # touches both hexes ("either"). For Firefight 5.12 the reading is the system's (blocked
    # with forest on one side, or only with blocking terrain on both): "both" is an option.
    b0 = ff_board()
    a = b0.parse("2205")
    t = Hex(a.q + 1, a.r - 2)  # a diagonal: runs along the hexside of two hexes
    side = trace(a, t).hexsides_along()[0]
    one, other = sorted(side)
    b = ff_board({b0.label(one): {"terrain": "woods"}})
    assert line_of_sight(b, a, t, Woods()).blocked
    assert line_of_sight(b, a, t, Woods(hexside_policy="both")).clear
    b2 = ff_board({b0.label(one): {"terrain": "woods"}, b0.label(other): {"terrain": "town"}})
    res = line_of_sight(b2, a, t, Woods(hexside_policy="both"))
    assert res.blocked and len(res.findings) == 2


def test_worse_policy_counts_one_smoke_hex_along_a_hexside() -> None:
    # MBT 13.2.1: a line down a hexside between two smoke hexes counts only one of them.
    b0 = ff_board()
    a = b0.parse("2205")
    t = Hex(a.q + 1, a.r - 2)
    p1, p2 = sorted(trace(a, t).hexsides_along()[0])
    b = ff_board({b0.label(p1): {"terrain": "smoke"}, b0.label(p2): {"terrain": "smoke"}})
    assert line_of_sight(b, a, t, Woods(hexside_policy="either")).modifier == 4
    res = line_of_sight(b, a, t, Woods(hexside_policy="worse"))
    assert res.clear and res.modifier == 2 and len(res.hindrances) == 1
    # "both" with one smoke and one clear: the clear side counts, nothing hinders
    b3 = ff_board({b0.label(p1): {"terrain": "smoke"}})
    assert line_of_sight(b3, a, t, Woods(hexside_policy="both")).modifier == 0


def test_spine_hexside_is_reported_as_along() -> None:
    # Firefight 5.2 example D: a line running down the spine of a hexside; the system decides.
    b0 = ff_board()
    a = b0.parse("2208")
    t = Hex(a.q + 1, a.r - 2)
    p1, p2 = sorted(trace(a, t).hexsides_along()[0])
    b = ff_board(hexsides=[{"between": [b0.label(p1), b0.label(p2)], "features": ["wall"]}])
    rules = Woods()
    res = line_of_sight(b, a, t, rules)
    assert res.blocked and res.findings[0].what == "hexside"
    assert ("along", frozenset((p1, p2))) in rules.calls


def test_crossed_hexside_blocks() -> None:
    b = ff_board(hexsides=[{"between": ["2011", "2012"], "features": ["wall"]}])
    res = line_of_sight(b, b.parse("2010"), b.parse("2014"), Woods())
    assert res.blocked and "wall (cross)" in res.reasons()[0]
    # the wall beside the line is not crossed
    b2 = ff_board(hexsides=[{"between": ["2011", "2111"], "features": ["wall"]}])
    assert line_of_sight(b2, b2.parse("2010"), b2.parse("2014"), Woods()).clear


def _grazing_case(board: Board) -> tuple[Hex, Hex, Hex]:
    a = board.parse("1505")
    for t in a.within(6):
        for stp in trace(a, t).steps:
            if stp.grazed and t in board.hexes:
                return a, t, stp.grazed[0]
    raise AssertionError("no grazing trace found")


def test_vertex_policy() -> None:
    b0 = ff_board()
    a, t, g = _grazing_case(b0)
    b = ff_board({b0.label(g): {"terrain": "woods"}})
    assert line_of_sight(b, a, t, Woods(vertex_policy="touch")).blocked
    assert line_of_sight(b, a, t, Woods(vertex_policy="ignore")).clear


def test_trace_leaving_the_board_blocks_by_default() -> None:
    # A board with a hole: the line from one side to the other passes over a missing hex.
    b = ff_board()
    a, t = b.parse("2010"), b.parse("2014")
    b.graph.remove_node(b.parse("2012"))
    b = Board(b.graph)
    res = line_of_sight(b, a, t, OpenGroundLos())
    assert res.blocked
    assert res.findings[0].what == "off-board"
    assert "trace leaves the board" in res.reasons()[0]

    class Lenient(OpenGroundLos):
        def off_board_effect(self, board: Board, h: Hex, ctx: LosContext) -> LosEffect | None:
            return None

    assert line_of_sight(b, a, t, Lenient()).clear


def test_exhaustive_collects_every_finding_and_each_hex_once() -> None:
    b = ff_board({"2011": {"terrain": "woods"}, "2012": {"terrain": "town"},
                  "2013": {"terrain": "smoke"}})
    a, t = b.parse("2010"), b.parse("2014")
    assert len(line_of_sight(b, a, t, Woods()).findings) == 1
    rules = Woods()
    res = line_of_sight(b, a, t, rules, exhaustive=True)
    assert [f.effect.reason for f in res.findings] == ["woods", "town", "smoke"]
    hex_calls = [c for c in rules.calls if c[0] == "hex"]
    assert len(hex_calls) == len(set(hex_calls)) == 3


def test_context_carries_the_query() -> None:
    seen: list[LosContext] = []

    class Spy(OpenGroundLos):
        def hex_effect(self, board: Board, h: Hex, ctx: LosContext) -> LosEffect | None:
            seen.append(ctx)
            return None

    b = ff_board()
    a, t = b.parse("2010"), b.parse("2013")
    line_of_sight(b, a, t, Spy(), {"side": "US"})
    assert seen and all(c.a == a and c.b == t and c.distance == 3 and c.data == {"side": "US"}
                        for c in seen)


# -- ElevationLosRules ------------------------------------------------------------------------


FF2 = ElevationLosRules(terrain_heights={"forest": 20, "town": 20}, rule="Firefight 13.2")


def test_ff_26_higher_ground_between_blocks() -> None:
    # Firefight 13.22: 1304 and 1307 at 440, 1305 and 1306 at 460 -> blocked.
    b = ff_board({"1305": {"height": 460}, "1306": {"height": 460}})
    res = line_of_sight(b, b.parse("1304"), b.parse("1307"), FF2)
    assert res.blocked and "Firefight 13.2" in res.reasons()[0]


def test_ff_28_obstacle_on_the_line_nearer_the_higher_end() -> None:
    # Firefight 13.23 example: 3307 (460) and 3109 (440); 3208 at 460 lies on the line at
    # range 2 of 3 from 3307, where the line is at 460 - 20 * 2/3 < 460 -> blocked, both ways.
    b = ff_board({"3307": {"height": 460}, "3208": {"height": 460}, "3109": {"height": 440}})
    assert line_of_sight(b, b.parse("3307"), b.parse("3109"), FF2).blocked
    assert line_of_sight(b, b.parse("3109"), b.parse("3307"), FF2).blocked


@pytest.mark.parametrize(
    ("obstacle", "far", "blocked"),
    [(460, "1304", False), (480, "1304", True), (460, "1305", True)],
)
def test_ff_29_exactly_level_is_not_blocked(obstacle: int, far: str, blocked: bool) -> None:
    # Firefight 13.2: lower unit 440 at 1301; obstruction at range 1 (1302); higher unit 500 at
    # range 3 -> the line is exactly 460 there: 460 clear, 480 blocked; at range 4 it is 455.
    b = ff_board({"1302": {"height": obstacle}, far: {"height": 500}})
    assert line_of_sight(b, b.parse("1301"), b.parse(far), FF2).blocked is blocked


def test_ff_30_obstacle_above_both_ends_blocks_anywhere() -> None:
    for pos in ("1302", "1303", "1304"):
        b = ff_board({"1301": {"height": 480}, "1305": {"height": 460}, pos: {"height": 500}})
        assert line_of_sight(b, b.parse("1301"), b.parse("1305"), FF2).blocked


def test_ff_25_town_blocks_at_ground_plus_20_but_not_from_inside() -> None:
    # Firefight 13.21: a town hex at 440 blocks as 460; a unit in it sights from 440.
    b = ff_board({"2012": {"terrain": "town"}})
    assert line_of_sight(b, b.parse("2010"), b.parse("2014"), FF2).blocked
    assert line_of_sight(b, b.parse("2012"), b.parse("2014"), FF2).clear


def test_mbt_29_obstacle_heights() -> None:
    # MBT 13.2.1.1/.3: obstacle +3 between +2 and +1 blocks; +1 between +2 and +1 does not;
    # 0 between +1 and +1 does not.
    rules = ElevationLosRules(rule="MBT 13.2.1")

    def case(ha: int, h: int, hb: int) -> bool:
        b = ff_board({"2010": {"height": ha}, "2011": {"height": h}, "2012": {"height": hb}})
        return line_of_sight(b, b.parse("2010"), b.parse("2012"), rules).blocked

    assert case(2, 3, 1)
    assert not case(2, 1, 1)
    assert not case(1, 0, 1)


def test_eye_and_target_heights_from_context() -> None:
    b = ff_board({"2012": {"height": 441}})
    a, t = b.parse("2010"), b.parse("2014")
    assert line_of_sight(b, a, t, FF2).blocked
    assert line_of_sight(b, a, t, FF2, {"eye_height": 2, "target_height": 2}).clear
    assert line_of_sight(b, a, t, ElevationLosRules(eye_height=2, target_height=2)).clear


def test_hinder_terrain_and_hexside_obstacles() -> None:
    # Firepower 12.2.6: trees above the line hinder (+1) rather than block.
    rules = ElevationLosRules(terrain_heights={"trees": 3}, hinder_terrain={"trees": 1},
                              hexside_heights={"wall": 1})
    b = ff_board({"2012": {"terrain": "trees"}})
    res = line_of_sight(b, b.parse("2010"), b.parse("2014"), rules)
    assert res.clear and res.modifier == 1
    b2 = ff_board(hexsides=[{"between": ["2011", "2012"], "features": ["wall"]}])
    res2 = line_of_sight(b2, b2.parse("2010"), b2.parse("2014"), rules)
    assert res2.blocked and "wall hexside" in res2.reasons()[0]
    # a wall below the sight line does not block
    high = ff_board({"2010": {"height": 445}, "2014": {"height": 445}},
                    hexsides=[{"between": ["2011", "2012"], "features": ["wall"]}])
    assert line_of_sight(high, high.parse("2010"), high.parse("2014"), rules).clear


_CLEAR_BOARD: dict[str, Board] = {}


@given(st.integers(10, 36), st.integers(1, 15), st.integers(10, 36), st.integers(1, 15),
       st.integers(0, 2**32 - 1))
def test_elevation_los_is_symmetric(c1: int, r1: int, c2: int, r2: int, seed: int) -> None:
    import random

    rng = random.Random(seed)
    b = _CLEAR_BOARD.get("b") or _CLEAR_BOARD.setdefault("b", ff_board())
    for h in sorted(b.hexes):  # every hex set anew, so one board serves every example
        b.set_height(h, rng.choice((440, 460, 480)))
        b.set_terrain(h, "forest" if rng.random() < 0.1 else "clear")
    a, t = b.parse(f"{c1:02d}{r1:02d}"), b.parse(f"{c2:02d}{r2:02d}")
    assert line_of_sight(b, a, t, FF2).clear == line_of_sight(b, t, a, FF2).clear


def test_end_hexes_must_be_on_the_board() -> None:
    b = ff_board()
    with pytest.raises(ValueError, match="not on the board"):
        line_of_sight(b, b.parse("2010"), Hex(500, 500), OpenGroundLos())


class Judged(Woods):
    """A rule that reports every hex it judged, an empty one as a hinder of +0 (as the Advanced
    Firepower trace does, to explain its heights hex by hex)."""

    def hex_effect(self, board: Board, h: Hex, ctx: LosContext) -> LosEffect | None:
        found = super().hex_effect(board, h, ctx)
        return found or LosEffect("hinder", 0, "open ground", "test 1.1")


def test_reasons_read_clear_for_a_hex_judged_and_found_open() -> None:
    b = ff_board({"2012": {"terrain": "smoke"}})
    lines = line_of_sight(b, b.parse("2010"), b.parse("2013"), Judged(),
                          exhaustive=True).reasons(b)
    assert "clear at 2011: open ground (test 1.1)" in lines
    assert "hindered (+2) at 2012: smoke (MBT 13.2.1)" in lines
    assert not any("(+0)" in line for line in lines)
