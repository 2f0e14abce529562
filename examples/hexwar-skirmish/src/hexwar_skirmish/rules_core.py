"""The rules of Skirmish as plain functions (no hooks): data, movement, line of sight, fire.

Every function cites its rule in RULES.md (``Skirmish 4.2``). Hot paths use plain ints and dicts
built once per board.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from hexwar.core.hexgrid import Hex, trace
from hexwar.core.los import (
    BaseLosRules,
    HexsidePolicy,
    LosContext,
    LosEffect,
    VertexPolicy,
    line_of_sight,
)
from hexwar.core.movement import reachable_hexes
from hexwar.core.provenance import Records, load_records
from hexwar.core.tables import TableSet
from hexwar.core.types import Modifier

if TYPE_CHECKING:
    from hexwar.core.board import Board
    from hexwar.core.engine.game import Game
    from hexwar.core.engine.state import Unit

SYSTEM = "skirmish"
HERE = Path(__file__).parent
DATA = HERE / "data"
TABLES = DATA / "tables"
SCENARIOS = HERE / "scenarios"

#: Unit status flags kept in ``unit.state`` (JSON values).
PINNED = "pinned"
ELIMINATED = "eliminated"


@cache
def unit_records() -> Records:
    """Unit type data with provenance (Skirmish 2.2, 2.3, 5.3)."""
    return load_records(DATA / "units.toml")


@cache
def terrain_records() -> Records:
    """Terrain data with provenance (Skirmish 4.2, 4.4, 5.2, 5.3)."""
    return load_records(DATA / "terrain.toml")


@cache
def tables() -> TableSet:
    """The fire and rally tables (Skirmish 5.4, 6.1)."""
    return TableSet.load_dir(TABLES)


def terrain_data(name: str) -> dict[str, Any]:
    """Data of a terrain type by its short name (``woods``)."""
    values: dict[str, Any] = terrain_records().values[name]
    return values


def unit_data(unit_type: str) -> dict[str, Any]:
    """Data of a unit type, qualified (``skirmish:rifles``) or short."""
    values: dict[str, Any] = unit_records().values[unit_type.split(":", 1)[-1]]
    return values


def hexside_cost() -> dict[str, int]:
    """Extra cost of crossing each hexside feature (Skirmish 4.4)."""
    costs: dict[str, int] = terrain_records().values["hexsides"]
    return costs


# -- movement (Skirmish 4.0) --------------------------------------------------------------------


def step_cost(board: Board, a: Hex, b: Hex) -> float | None:
    """Cost of moving from ``a`` into adjacent ``b`` (Skirmish 4.2-4.5)."""
    sides = board.hexside_of[(a, b)]
    if "road" in sides:  # Skirmish 4.5
        return 1.0
    cost = float(terrain_data(board.terrain_of[b])["move_cost"])  # Skirmish 4.2
    if board.height_of[b] > board.height_of[a]:  # Skirmish 4.3
        cost += 1
    extra = hexside_cost()
    cost += sum(extra.get(f, 0) for f in sides)  # Skirmish 4.4
    return cost


def live_units(game: Game, side: str | None = None) -> list[Unit]:
    """Units on the board (of ``side``), in id order."""
    return [u for _k, u in sorted(game.state.units.items())
            if u.hex is not None and (side is None or u.side == side)]


def move_destinations(game: Game, unit: Unit) -> dict[Hex, float]:
    """Hexes ``unit`` may end its move in, with their costs (Skirmish 4.1, 4.6)."""
    if unit.hex is None or unit.state.get(PINNED):
        return {}
    board = game.board
    enemy = {u.hex for u in live_units(game) if u.side != unit.side}
    friends: dict[Hex, int] = {}
    for u in live_units(game, unit.side):
        if u.hex is not None and u.id != unit.id:
            friends[u.hex] = friends.get(u.hex, 0) + 1

    def cost(b: Board, x: Hex, y: Hex) -> float | None:
        if y in enemy:  # Skirmish 4.6: never into an enemy hex
            return None
        return step_cost(b, x, y)

    budget = float(unit_data(unit.type)["move"])  # Skirmish 2.2
    reach = reachable_hexes(board, unit.hex, budget, cost)
    return {h: c for h, c in reach.items() if h != unit.hex and friends.get(h, 0) < 2}  # 4.6


def facing_after_move(game: Game, unit: Unit, dest: Hex) -> int:
    """Skirmish 2.4: the hexside the unit left its last hex through. With several cheapest paths
    the direction of the final step along the straight line is used."""
    assert unit.hex is not None
    from hexwar.core.movement import least_cost_hex_path

    enemy = {u.hex for u in live_units(game) if u.side != unit.side}

    def cost(b: Board, x: Hex, y: Hex) -> float | None:
        return None if y in enemy else step_cost(b, x, y)

    path = least_cost_hex_path(game.board, unit.hex, dest, cost)
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
    nxt = tr.steps[1].hexes[0]
    d = a.direction_to(nxt)
    return d if d is not None else 1


# -- line of sight (Skirmish 5.2) ---------------------------------------------------------------


class SkirmishLos(BaseLosRules):
    """Skirmish 5.2: woods and town hexes between block; so does a hex higher than both ends."""

    include_endpoints: bool = False
    hexside_policy: HexsidePolicy = "both"  # along a hexside: blocked only if both hexes block
    vertex_policy: VertexPolicy = "ignore"

    def __init__(self) -> None:
        self._blocks = {name: bool(v["blocks_los"]) for name, v in terrain_records().values.items()
                        if isinstance(v, dict) and "blocks_los" in v}

    def hex_effect(self, board: Board, h: Hex, ctx: LosContext) -> LosEffect | None:
        terrain = board.terrain_of[h]
        if self._blocks.get(terrain, False):
            return LosEffect("block", 0, f"{terrain} between", "Skirmish 5.2")
        top = max(board.height_of[ctx.a], board.height_of[ctx.b])
        if board.height_of[h] > top:
            return LosEffect("block", 0, "higher ground between", "Skirmish 5.2")
        return None


def can_see(game: Game, a: Hex, b: Hex) -> bool:
    """Line of sight between two hexes (Skirmish 5.2)."""
    return not line_of_sight(game.board, a, b, game.los_rules, data=game).blocked


# -- fire (Skirmish 5.0) ------------------------------------------------------------------------


@dataclass(frozen=True)
class Shot:
    firer: str
    target: str
    range: int


def targets(game: Game, unit: Unit) -> list[Shot]:
    """Enemy units ``unit`` may fire at (Skirmish 5.1, 5.2)."""
    if unit.hex is None or unit.state.get(PINNED):
        return []
    reach = int(unit_data(unit.type)["range"])  # Skirmish 2.3
    out = []
    for enemy in live_units(game):
        if enemy.side == unit.side or enemy.hex is None:
            continue
        d = unit.hex.distance(enemy.hex)
        if d <= reach and can_see(game, unit.hex, enemy.hex):
            out.append(Shot(unit.id, enemy.id, d))
    return out


def attack_of(game: Game, shot: Shot) -> dict[str, Any]:
    """The description of an attack that ``hexwar_fire_modifiers`` receives (JSON values)."""
    firer, target = game.unit(shot.firer), game.unit(shot.target)
    assert firer.hex is not None and target.hex is not None
    return {"system": SYSTEM, "firer": firer.id, "target": target.id, "range": shot.range,
            "firer_hex": [firer.hex.q, firer.hex.r], "target_hex": [target.hex.q, target.hex.r]}


def base_modifiers(game: Game, shot: Shot) -> list[Modifier]:
    """The modifiers of Skirmish 5.3 for a shot in a game."""
    firer, target = game.unit(shot.firer), game.unit(shot.target)
    assert target.hex is not None
    moved = firer.id in game.state.data.get(SYSTEM, {}).get("moved", [])
    return shot_modifiers(firer.type, shot.range, game.board.terrain_of[target.hex], moved=moved)


def shot_modifiers(firer_type: str, distance: int, terrain: str, *, moved: bool) -> list[Modifier]:
    """Skirmish 5.3: firer type, long range, the target's terrain, a firer that moved."""
    data = unit_data(firer_type)
    mods: list[Modifier] = []
    if data["fire"]:
        mods.append(Modifier(f"{firer_type.split(':')[-1]} firing", data["fire"], "Skirmish 5.3"))
    if distance * 2 > int(data["range"]):
        mods.append(Modifier("long range", -1, "Skirmish 5.3"))
    t_mod = int(terrain_data(terrain)["fire_modifier"])
    if t_mod:
        mods.append(Modifier(f"target in {terrain}", t_mod, "Skirmish 5.3"))
    if moved:
        mods.append(Modifier("firer moved", -1, "Skirmish 5.3"))
    return mods


def fire_result(modified_roll: int) -> str:
    """Skirmish 5.4: ``none``, ``pinned`` or ``eliminated``."""
    result: str = tables()["hits"].value(roll=modified_roll)
    return result


def rally_result(roll: int) -> str:
    """Skirmish 6.1: ``rallied`` or ``pinned``."""
    result: str = tables()["rally"].value(roll=roll)
    return result
