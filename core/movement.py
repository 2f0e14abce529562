"""Least-cost movement: Dijkstra over arbitrary hashable states.

A system describes movement as ``successors(state) -> Iterable[(next_state, cost)]``. States can be
plain hexes, or ``(hex, facing)`` pairs so that turning costs (MBT 8.0 turns, Firepower 6.2.2
"turn 1-3 hexsides") are ordinary steps, or anything else hashable (hex, facing, mounted...).
Costs are plain numbers (floats, ints, or :class:`fractions.Fraction` for exact half movement
points, Firefight 7.1 roads at 1/2 MP); a negative cost is an error. A state reached for exactly the
budget is reachable (``cost <= budget``).

Ties are broken by discovery order, so results are deterministic when ``successors`` is.
"""

from __future__ import annotations

import heapq
import itertools
from collections.abc import Callable, Hashable, Iterable
from dataclasses import dataclass
from typing import Generic, TypeVar

from hexwar.core.board import Board
from hexwar.core.hexgrid import Hex

__all__ = [
    "CostFn",
    "MovePath",
    "hex_successors",
    "least_cost_hex_path",
    "least_cost_path",
    "reachable",
    "reachable_hexes",
]

S = TypeVar("S", bound=Hashable)

#: ``cost(board, from_hex, to_hex)``: the cost of one step, or ``None`` if it is impossible.
CostFn = Callable[[Board, Hex, Hex], "float | None"]


@dataclass(frozen=True)
class MovePath(Generic[S]):
    """A least-cost path: the states from start to goal inclusive, and its total cost."""

    cost: float
    states: tuple[S, ...]


def _check(cost: float, state: object, nxt: object) -> None:
    if cost < 0:
        raise ValueError(f"negative step cost {cost!r} from {state!r} to {nxt!r}")


def least_cost_path(
    start: S,
    goal: S | Callable[[S], bool],
    successors: Callable[[S], Iterable[tuple[S, float]]],
    *,
    budget: float | None = None,
) -> MovePath[S] | None:
    """The cheapest path from ``start`` to ``goal`` (a state, or a predicate on states, e.g. "any
    facing in hex X"); ``None`` if unreachable (within ``budget`` when one is given)."""
    is_goal: Callable[[S], bool] = goal if callable(goal) else goal.__eq__
    counter = itertools.count()
    best: dict[S, float] = {start: 0}
    parent: dict[S, S] = {}
    heap: list[tuple[float, int, S]] = [(0, next(counter), start)]
    done: set[S] = set()
    while heap:
        c, _, state = heapq.heappop(heap)
        if state in done:
            continue
        done.add(state)
        if is_goal(state):
            path = [state]
            while path[-1] in parent:
                path.append(parent[path[-1]])
            return MovePath(c, tuple(reversed(path)))
        for nxt, step in successors(state):
            if step < 0:
                _check(step, state, nxt)
            nc = c + step
            if budget is not None and nc > budget:
                continue
            old = best.get(nxt)
            if old is None or nc < old:
                best[nxt] = nc
                parent[nxt] = state
                heapq.heappush(heap, (nc, next(counter), nxt))
    return None


def reachable(
    start: S,
    budget: float,
    successors: Callable[[S], Iterable[tuple[S, float]]],
) -> dict[S, float]:
    """Every state reachable from ``start`` for at most ``budget``, with its least cost."""
    return reachable_tree(start, budget, successors)[0]


def reachable_tree(
    start: S,
    budget: float,
    successors: Callable[[S], Iterable[tuple[S, float]]],
) -> tuple[dict[S, float], dict[S, S], dict[S, int]]:
    """:func:`reachable` that also keeps each state's parent and the order states were settled
    in, so that :func:`tree_path` gives the very path :func:`least_cost_path` would (the same
    search to the goal: the same pushes, ties broken by the same counter, and a settled state's
    cost and parent never change again) without searching again."""
    best: dict[S, float] = {start: 0}
    parent: dict[S, S] = {}
    order: dict[S, int] = {}
    heap: list[tuple[float, int, S]] = [(0, 0, start)]
    counter = 1
    push, pop = heapq.heappush, heapq.heappop
    while heap:
        c, _, state = pop(heap)
        if state in order:
            continue
        order[state] = len(order)
        for nxt, step in successors(state):
            if step < 0:
                _check(step, state, nxt)
            nc = c + step
            if nc > budget:
                continue
            old = best.get(nxt)
            if old is None or nc < old:
                best[nxt] = nc
                parent[nxt] = state
                push(heap, (nc, counter, nxt))
                counter += 1
    return best, parent, order


def tree_path(tree: tuple[dict[S, float], dict[S, S], dict[S, int]],
              goals: Iterable[S]) -> MovePath[S] | None:
    """The path :func:`least_cost_path` finds to the first of ``goals`` it would settle, read
    from a :func:`reachable_tree` of the same start, budget and successors; ``None`` if none is
    reachable."""
    best, parent, order = tree
    settled = [g for g in goals if g in order]
    if not settled:
        return None
    goal = min(settled, key=order.__getitem__)
    path = [goal]
    while path[-1] in parent:
        path.append(parent[path[-1]])
    return MovePath(best[goal], tuple(reversed(path)))


def hex_successors(board: Board, cost: CostFn) -> Callable[[Hex], list[tuple[Hex, float]]]:
    """Adapt a per-step ``cost(board, from_hex, to_hex)`` into a successor function over the
    board's hexes (``None`` = impassable). Neighbours come from the board's precomputed table."""
    nbrs = board.neighbors_of

    def successors(h: Hex) -> list[tuple[Hex, float]]:
        out: list[tuple[Hex, float]] = []
        for n in nbrs[h]:
            c = cost(board, h, n)
            if c is not None:
                out.append((n, c))
        return out

    return successors


def reachable_hexes(board: Board, start: Hex, budget: float, cost: CostFn) -> dict[Hex, float]:
    """Hexes reachable from ``start`` within ``budget`` under ``cost``, with their least costs."""
    return reachable(start, budget, hex_successors(board, cost))


def least_cost_hex_path(
    board: Board, start: Hex, goal: Hex, cost: CostFn, *, budget: float | None = None
) -> MovePath[Hex] | None:
    """Cheapest hex path from ``start`` to ``goal`` under ``cost``; ``None`` if unreachable."""
    return least_cost_path(start, goal, hex_successors(board, cost), budget=budget)
