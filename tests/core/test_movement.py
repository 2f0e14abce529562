"""Dijkstra over hexes and over (hex, facing) states with turn costs."""

from __future__ import annotations

from collections.abc import Iterable
from fractions import Fraction
from typing import Any

import networkx as nx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hexwar.core.board import Board, Panel
from hexwar.core.hexgrid import Hex, rotate_direction
from hexwar.core.movement import (
    least_cost_hex_path,
    least_cost_path,
    reachable,
    reachable_hexes,
)


def board(hexes: dict[str, dict[str, Any]] | None = None) -> Board:
    d: dict[str, Any] = {
        "panel": {"id": "1", "labels": "letter-number", "columns": ["A", "J"], "rows": [1, 10]},
        "hex": [{"at": k, **v} for k, v in (hexes or {}).items()],
    }
    return Board.assemble([Panel.from_dict(d, source="test")])


COSTS = {"clear": 1.0, "woods": 2.0, "town": 3.0}


def terrain_cost(b: Board, src: Hex, dst: Hex) -> float | None:
    t = b.terrain_of[dst]
    if t == "lake":
        return None
    return COSTS[t]


def test_reachable_on_open_ground_is_the_disc() -> None:
    b = board()
    start = b.parse("1E5")
    got = reachable_hexes(b, start, 2, terrain_cost)
    assert set(got) == {h for h in start.within(2) if h in b.hexes}
    assert all(got[h] == start.distance(h) for h in got)


def test_costs_and_impassable() -> None:
    b = board({"1E4": {"terrain": "woods"}, "1E6": {"terrain": "lake"}})
    start = b.parse("1E5")
    got = reachable_hexes(b, start, 2, terrain_cost)
    assert got[b.parse("1E4")] == 2.0
    assert b.parse("1E6") not in got
    assert b.parse("1E3") not in got  # two hexes straight ahead: only through the woods, 3 MP
    path = least_cost_hex_path(b, start, b.parse("1E7"), terrain_cost)
    assert path is not None and path.cost == 3.0
    assert b.parse("1E6") not in path.states
    assert path.states[0] == start and path.states[-1] == b.parse("1E7")
    assert all(x.distance(y) == 1 for x, y in zip(path.states, path.states[1:], strict=False))


def test_budget_is_inclusive_and_half_points_are_exact() -> None:
    # Firefight 7.1: road movement costs 1/2 MP per hex; exact with Fractions.
    b = board()
    start = b.parse("1A1")

    def road(bd: Board, s: Hex, d: Hex) -> Fraction:
        return Fraction(1, 2)

    got = reachable_hexes(b, start, 3, road)  # type: ignore[arg-type]
    assert max(got.values()) == 3
    assert {h for h, c in got.items() if c == 3} == {h for h in got if start.distance(h) == 6}


def test_unreachable_goal_and_budget() -> None:
    b = board({"1B1": {"terrain": "lake"}, "1B2": {"terrain": "lake"}, "1A2": {"terrain": "lake"}})
    assert least_cost_hex_path(b, b.parse("1A1"), b.parse("1E5"), terrain_cost) is None
    assert least_cost_hex_path(b, b.parse("1E5"), b.parse("1E9"), terrain_cost, budget=3) is None
    assert least_cost_hex_path(b, b.parse("1E5"), b.parse("1E9"), terrain_cost, budget=4)


def test_negative_cost_is_an_error() -> None:
    with pytest.raises(ValueError, match="negative step cost"):
        reachable(0, 5, lambda s: [(s + 1, -1.0)])
    with pytest.raises(ValueError, match="negative step cost"):
        least_cost_path(0, 3, lambda s: [(s + 1, -1.0)])


# -- (hex, facing) states with turn costs --------------------------------------------------------

State = tuple[Hex, int]


def vehicle(b: Board, turn_cost: float = 1.0) -> Any:
    """Move one hex straight ahead for the terrain cost; turn one hexside for ``turn_cost``."""

    def successors(s: State) -> Iterable[tuple[State, float]]:
        h, f = s
        ahead = h.neighbor(f)
        if ahead in b.hexes:
            c = terrain_cost(b, h, ahead)
            if c is not None:
                yield (ahead, f), c
        yield (h, rotate_direction(f, 1)), turn_cost
        yield (h, rotate_direction(f, -1)), turn_cost

    return successors


def test_turn_costs_make_states_differ_from_hexes() -> None:
    b = board()
    start = b.parse("1E5")
    got = reachable((start, 1), 2, vehicle(b))
    # straight ahead two hexes costs 2; the hex behind needs three turns, out of budget
    assert got[(start.neighbor(1).neighbor(1), 1)] == 2
    assert (start.neighbor(4), 4) not in got
    # turning in place: one hexside either way costs 1, two hexsides 2, three out of budget
    assert got[(start, 2)] == got[(start, 6)] == 1
    assert got[(start, 3)] == 2 and (start, 4) not in got
    # the hex to the right-front costs turn + move
    assert got[(start.neighbor(2), 2)] == 2


def test_least_cost_path_to_any_facing() -> None:
    b = board()
    start = b.parse("1E5")
    goal = start.neighbor(4)
    path = least_cost_path((start, 1), lambda s: s[0] == goal, vehicle(b))
    assert path is not None
    assert path.cost == 4  # three turns and one move
    assert path.states[-1] == (goal, 4)
    cheap = least_cost_path((start, 1), lambda s: s[0] == goal, vehicle(b, turn_cost=0.5))
    assert cheap is not None and cheap.cost == 2.5


@settings(max_examples=40, deadline=None)
@given(st.lists(st.sampled_from(["clear", "woods", "town", "lake"]), min_size=100, max_size=100),
       st.integers(0, 99), st.integers(1, 8))
def test_matches_networkx_dijkstra(terrain: list[str], start_i: int, budget: int) -> None:
    hexes = {f"1{chr(65 + i % 10)}{i // 10 + 1}": {"terrain": t} for i, t in enumerate(terrain)}
    b = board(hexes)
    start = sorted(b.hexes)[start_i]
    got = reachable_hexes(b, start, budget, terrain_cost)
    g = nx.DiGraph()
    for h in b.hexes:
        for n in b.neighbors(h):
            c = terrain_cost(b, h, n)
            if c is not None:
                g.add_edge(h, n, weight=c)
    g.add_node(start)
    ref = nx.single_source_dijkstra_path_length(g, start, cutoff=budget)
    assert got == ref
