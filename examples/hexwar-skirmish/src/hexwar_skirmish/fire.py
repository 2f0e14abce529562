"""Skirmish 5.0 Fire: line of sight (5.2), targets (5.1), modifiers (5.3), the fire table (5.4,
5.5), and the fire procedure as a pipeline of named steps that optional rules may edit.

One attack runs the steps ``modifiers``, ``roll``, ``table`` and ``apply`` over a :class:`Fire`
record. Optional rules add modifiers through the hook ``skirmish_fire_modifiers`` and edit the
steps through ``skirmish_fire_steps``; both are called through :class:`SkirmishHooks`. The
procedure of a game is built once and kept in ``game.stash``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from hexwar.core.engine.decisions import Decision
from hexwar.core.engine.primitives import Step, alternate
from hexwar.core.hexgrid import Hex
from hexwar.core.kit import Pipeline, StashKey
from hexwar.core.los import BaseLosRules, HexsidePolicy, LosContext, LosEffect, VertexPolicy, line_of_sight
from hexwar.core.types import Modifier, total
from hexwar_skirmish.hookspecs import SkirmishHooks
from hexwar_skirmish.movement import facing_toward
from hexwar_skirmish.state import ELIMINATED, PINNED, live_units, order, turn_state
from hexwar_skirmish.tables import tables, terrain_data, terrain_records, unit_data

if TYPE_CHECKING:
    from hexwar.core.board import Board
    from hexwar.core.engine.game import Game
    from hexwar.core.engine.state import Unit


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
        if board.height_of[h] > max(board.height_of[ctx.a], board.height_of[ctx.b]):
            return LosEffect("block", 0, "higher ground between", "Skirmish 5.2")
        return None


def can_see(game: Game, a: Hex, b: Hex) -> bool:
    """Line of sight between two hexes (Skirmish 5.2)."""
    return not line_of_sight(game.board, a, b, game.los_rules, data=game).blocked


# -- attacks (Skirmish 5.1, 5.3, 5.4) -------------------------------------------------------------


@dataclass(frozen=True)
class Attack:
    """One unit's fire at one enemy unit: what ``skirmish_fire_modifiers`` receives."""

    firer: str
    target: str
    range: int
    firer_hex: Hex
    target_hex: Hex


def attack_of(game: Game, firer: Unit, target: Unit) -> Attack:
    assert firer.hex is not None and target.hex is not None
    return Attack(firer.id, target.id, firer.hex.distance(target.hex), firer.hex, target.hex)


def targets(game: Game, unit: Unit) -> list[Attack]:
    """The attacks ``unit`` may make: enemy units within range and in sight (Skirmish 5.1, 5.2)."""
    if unit.hex is None or unit.state.get(PINNED):
        return []
    reach = int(unit_data(unit.type)["range"])  # Skirmish 2.3
    out = []
    for enemy in live_units(game):
        if enemy.side == unit.side or enemy.hex is None:
            continue
        if unit.hex.distance(enemy.hex) <= reach and can_see(game, unit.hex, enemy.hex):
            out.append(attack_of(game, unit, enemy))
    return out


def base_modifiers(game: Game, attack: Attack) -> list[Modifier]:
    """The modifiers of Skirmish 5.3 for an attack in a game."""
    firer = game.unit(attack.firer)
    moved = firer.id in turn_state(game)["moved"]
    return shot_modifiers(firer.type, attack.range, game.board.terrain_of[attack.target_hex],
                          moved=moved)


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


# -- the fire procedure ---------------------------------------------------------------------------


@dataclass
class Fire:
    """One attack on its way through the fire procedure."""

    attack: Attack
    modifiers: list[Modifier] = field(default_factory=list)
    roll: int = 0
    modified: int = 0
    result: str = "none"
    rules: list[str] = field(default_factory=lambda: ["Skirmish 5.3", "Skirmish 5.4"])


FireStep = Callable[["Game", Fire], None]


def step_modifiers(game: Game, fire: Fire) -> None:
    """Skirmish 5.3, and every enabled optional rule's modifiers."""
    fire.modifiers = [*base_modifiers(game, fire.attack),
                      *SkirmishHooks.of(game).fire_modifiers(fire.attack)]


def step_roll(game: Game, fire: Fire) -> None:
    """Skirmish 5.3: roll one die and add the modifiers."""
    fire.roll = game.dice.d6(f"{fire.attack.firer} fires at {fire.attack.target}")
    fire.modified = fire.roll + int(total(fire.modifiers))


def step_table(game: Game, fire: Fire) -> None:
    """Skirmish 5.4 the fire table; 5.5 a pinned target pinned again is eliminated."""
    fire.result = fire_result(fire.modified)
    if fire.result == PINNED and game.unit(fire.attack.target).state.get(PINNED):
        fire.result = ELIMINATED
        fire.rules.append("Skirmish 5.5")


def step_apply(game: Game, fire: Fire) -> None:
    """Skirmish 2.5: pin the target, or take it off the board."""
    target = game.unit(fire.attack.target)
    if fire.result == PINNED:
        target.state[PINNED] = True
    elif fire.result == ELIMINATED:
        target.state.pop(PINNED, None)
        target.state[ELIMINATED] = True
        target.hex = None


FIRE_STEPS: tuple[tuple[str, FireStep], ...] = (
    ("modifiers", step_modifiers), ("roll", step_roll), ("table", step_table), ("apply", step_apply),
)
#: the fire procedure of a game, with the enabled rules' edits applied
FIRE_PROCEDURE = StashKey[Pipeline[FireStep]]("skirmish fire procedure")


def fire_procedure(game: Game) -> Pipeline[FireStep]:
    """The game's fire procedure: :data:`FIRE_STEPS` with every enabled rule's edits."""
    procedure = game.stash.get(FIRE_PROCEDURE)
    if procedure is None:
        procedure = Pipeline(FIRE_STEPS, SkirmishHooks.of(game).fire_steps(),
                             what="Skirmish fire step")
        game.stash[FIRE_PROCEDURE] = procedure
    return procedure


def resolve_fire(game: Game, firer_id: str, target_id: str) -> str:
    """One attack through the game's fire procedure, reported with its modifiers and rules."""
    firer, target = game.unit(firer_id), game.unit(target_id)
    fire = Fire(attack_of(game, firer, target))
    firer.facing = facing_toward(fire.attack.firer_hex, fire.attack.target_hex)  # Skirmish 2.4
    for _name, step in fire_procedure(game):
        step(game, fire)
    game.report("fire", result=fire.result, modifiers=fire.modifiers, rules=fire.rules,
                firer=firer.id, target=target.id, roll=fire.roll, modified=fire.modified,
                range=fire.attack.range)
    return fire.result


def fire_phase(game: Game) -> Step:
    """Skirmish 5.0: sides alternate firing one unit each, or passing (3.5)."""
    data = turn_state(game)
    data["acted"] = []

    def act(side: str) -> Step:
        options: list[Any] = ["pass"]
        for unit in live_units(game, side):
            if unit.id not in data["acted"]:
                options += [{"unit": a.firer, "target": a.target} for a in targets(game, unit)]
        if len(options) == 1:
            return False
        choice = yield Decision(side, "fire", options=options, rule="Skirmish 5.1",
                                prompt="fire one unit, or pass", context={"phase": "fire"})
        if choice == "pass":
            return False
        resolve_fire(game, choice["unit"], choice["target"])
        data["acted"].append(choice["unit"])
        return True

    yield from alternate(game, order(game), act)
