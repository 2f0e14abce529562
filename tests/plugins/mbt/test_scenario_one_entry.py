"""MBT Scenario One A, C: entry by one corner or both (docs/decisions.md MBTD-125)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from hexwar.core.scenario import Scenario
from hexwar.core.testing import make_game
from hexwar.plugins.mbt.setup import corners, may_exit, setup_phase, setup_zone
from hexwar.plugins.mbt.state import data

SCENARIOS = Path(__file__).resolve().parents[3] / "plugins/mbt/scenarios"


def scenario(key: str, **changes: Any) -> Scenario:
    """A matchup's file with top-level ``key = value`` lines replaced."""
    text = (SCENARIOS / f"scenario-one-{key}.toml").read_text()
    for k, v in changes.items():
        text, n = re.subn(rf"(?m)^{k} = .*$", f"{k} = {v}", text)
        assert n == 1, k
    return Scenario.from_text(text, path=str(SCENARIOS / f"scenario-one-{key}.toml"))


def test_one_corner_entry_sets_up_and_exits_near_that_corner_only(run: Any) -> None:
    """MBT Scenario One A: a side may enter by one of its corners (1 or 3 at side A); it then sets
    up within 4 hexes of that corner alone (C) and exits only near it (B)."""
    g = make_game(scenario("2", entry='"corners"'), seed=1)
    one, three = corners(g, "1")
    assert corners(g, "1", ["1"]) == (one,) and corners(g, "1", ["3"]) == (three,)
    zone1 = setup_zone(g, "1", ["1"])
    assert zone1 and all(h.distance(one) <= 3 for h in zone1)
    assert set(zone1) < set(setup_zone(g, "1"))
    data(g)["edge"] = {"NATO": "1", "Soviet": "4"}
    data(g)["corners"] = {"NATO": ["1"], "Soviet": ["2", "4"]}
    v = g.state.units["N1-1"]
    v.hex = g.board.parse("1A3")
    assert may_exit(g, v, 5)  # near corner 1
    v.hex = g.board.parse("1HH3")
    assert not may_exit(g, v, 2)  # near corner 3, not entered by
    data(g)["corners"]["NATO"] = ["1", "3"]
    assert may_exit(g, v, 2)


def test_the_corner_choice_is_asked_and_the_units_set_up_there(run: Any) -> None:
    """MBT Scenario One A: with corner entry each side is asked (both, or one corner of its side)
    before setting up, and every unit it places stands near the corner it picked."""
    g = make_game(scenario("2", entry='"corners"'), seed=1)
    for u in g.state.units.values():
        u.hex = None
    asked: list[Any] = []

    def answer(d: Any) -> Any:
        asked.append(d)
        if d.kind == "mbt.corners":
            return d.options[1]  # the first corner of the side alone
        return d.options[0]

    run(setup_phase(g), answer)
    kinds = [d.kind for d in asked]
    assert kinds.count("mbt.corners") == 2 and kinds.index("mbt.corners") < kinds.index("mbt.place")
    assert {tuple(d.options) for d in asked if d.kind == "mbt.corners"} == {
        ("both", "1", "3"), ("both", "2", "4")}
    for side in ("NATO", "Soviet"):
        edge = data(g)["edge"][side]
        (corner,) = corners(g, edge, data(g)["corners"][side])
        placed = [u for u in g.state.units_of(side) if u.hex is not None]
        assert placed and all(u.hex.distance(corner) <= 3 for u in placed)


def test_a_sides_corner_choice_is_told_to_that_side_only(run: Any) -> None:
    """MBT Scenario One A with MBT 2.5: the side that picks its corner second must not learn the
    first side's choice (its set-up zone) from the log; each side reads its own choice."""
    g = make_game(scenario("2", entry='"corners"'), seed=1)
    for u in g.state.units.values():
        u.hex = None
    run(setup_phase(g), lambda d: d.options[1] if d.kind == "mbt.corners" else d.options[0])
    for side, enemy in (("NATO", "Soviet"), ("Soviet", "NATO")):
        own = [e for e in g.log.for_side(side) if e.get("type") == "setup_corners"]
        assert [e["side"] for e in own] == [side]
        assert all(e.get("side") != enemy for e in own)
