"""Skirmish 4.0 Movement, and the facing rule of 2.4.

Movement uses the core's ``reachable_hexes`` with a plain cost function. Step costs depend only
on the board, so they are kept per board in ``board.stash`` (boards are shared between games and
read-only during play).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from hexwar.core.engine.decisions import Decision
from hexwar.core.engine.primitives import Step, alternate
from hexwar.core.hexgrid import Hex, trace
from hexwar.core.kit import StashKey
from hexwar.core.movement import least_cost_hex_path, reachable_hexes
from hexwar_skirmish.state import PINNED, live_units, order, turn_state
from hexwar_skirmish.tables import hexside_cost, terrain_data, unit_data

if TYPE_CHECKING:
    from hexwar.core.board import Board
    from hexwar.core.engine.game import Game
    from hexwar.core.engine.state import Unit

#: cost of each step already worked out on a board
STEP_COSTS = StashKey[dict[tuple[Hex, Hex], float]]("skirmish step costs")


def step_cost(board: Board, a: Hex, b: Hex) -> float:
    """Cost of moving from ``a`` into adjacent ``b`` (Skirmish 4.2-4.5)."""
    costs = board.stash.setdefault(STEP_COSTS, {})
    cost = costs.get((a, b))
    if cost is None:
        sides = board.hexside_of[(a, b)]
        if "road" in sides:  # Skirmish 4.5
            cost = 1.0
        else:
            cost = float(terrain_data(board.terrain_of[b])["move_cost"])  # Skirmish 4.2
            if board.height_of[b] > board.height_of[a]:  # Skirmish 4.3
                cost += 1
            extra = hexside_cost()
            cost += sum(extra.get(f, 0) for f in sides)  # Skirmish 4.4
        costs[(a, b)] = cost
    return cost


def _cost_avoiding(game: Game, unit: Unit) -> Any:
    """A step cost function that never enters an enemy hex (Skirmish 4.6)."""
    enemy = {u.hex for u in live_units(game) if u.side != unit.side}

    def cost(board: Board, x: Hex, y: Hex) -> float | None:
        return None if y in enemy else step_cost(board, x, y)

    return cost


def move_destinations(game: Game, unit: Unit) -> dict[Hex, float]:
    """Hexes ``unit`` may end its move in, with their costs (Skirmish 4.1, 4.6)."""
    if unit.hex is None or unit.state.get(PINNED):
        return {}
    friends: dict[Hex, int] = {}
    for u in live_units(game, unit.side):
        if u.hex is not None and u.id != unit.id:
            friends[u.hex] = friends.get(u.hex, 0) + 1
    budget = float(unit_data(unit.type)["move"])  # Skirmish 2.2
    reach = reachable_hexes(game.board, unit.hex, budget, _cost_avoiding(game, unit))
    return {h: c for h, c in reach.items() if h != unit.hex and friends.get(h, 0) < 2}  # 4.6


def facing_after_move(game: Game, unit: Unit, dest: Hex) -> int:
    """Skirmish 2.4: the hexside the unit left its last hex through. With several cheapest paths
    the direction of the final step along the straight line is used."""
    assert unit.hex is not None
    path = least_cost_hex_path(game.board, unit.hex, dest, _cost_avoiding(game, unit))
    if path is not None and len(path.states) >= 2:
        d = path.states[-2].direction_to(path.states[-1])
        if d is not None:
            return d
    return facing_toward(unit.hex, dest)


def facing_toward(a: Hex, b: Hex) -> int:
    """The hexside of ``a`` the straight line to ``b`` leaves through (Skirmish 2.4)."""
    tr = trace(a, b)
    if len(tr.steps) < 2:
        return 1
    d = a.direction_to(tr.steps[1].hexes[0])
    return d if d is not None else 1


def move_phase(game: Game) -> Step:
    """Skirmish 4.0: sides alternate moving one unit each, or passing (3.5)."""
    data = turn_state(game)
    data["acted"] = []

    def act(side: str) -> Step:
        options: list[Any] = ["pass"]
        for unit in live_units(game, side):
            if unit.id in data["acted"]:
                continue
            for dest in sorted(move_destinations(game, unit)):
                options.append({"unit": unit.id, "to": game.board.label(dest)})
        if len(options) == 1:
            return False
        choice = yield Decision(side, "move", options=options, rule="Skirmish 4.0",
                                prompt="move one unit, or pass", context={"phase": "move"})
        if choice == "pass":
            return False
        unit = game.unit(choice["unit"])
        dest = game.board.parse(choice["to"])
        start = game.board.label(unit.hex) if unit.hex is not None else None
        unit.facing = facing_after_move(game, unit, dest)  # Skirmish 2.4
        unit.hex = dest
        data["acted"].append(unit.id)
        data["moved"].append(unit.id)
        game.emit("move", unit=unit.id, start=start, to=choice["to"], facing=unit.facing)
        return True

    yield from alternate(game, order(game), act)
