"""The Skirmish game system for hexwar: manifest, sequence of play and hook implementations.

hexwar finds this module through the entry point ``skirmish`` of the group ``hexwar.plugins``
(see pyproject.toml) and reads its ``PLUGIN`` manifest. Everything here uses only public hexwar
APIs: ``hexwar.core.types`` records, ``hexwar.core.markers.hookimpl``, the engine's decisions and
primitives, and the geometry, LOS, movement and table services.
"""

from __future__ import annotations

from collections.abc import Generator
from typing import TYPE_CHECKING, Any

from hexwar.core.engine.decisions import Decision
from hexwar.core.engine.primitives import alternate, roll_off
from hexwar.core.markers import hookimpl
from hexwar.core.tables import Disclosed
from hexwar.core.types import (
    ControllerSpec,
    DataSource,
    GameResult,
    PhaseSpec,
    PluginManifest,
    Problem,
    SystemInfo,
    TerrainType,
    UnitType,
    total,
)
from hexwar.core.units import Q_, Scale
from hexwar_skirmish import rules_core as R

if TYPE_CHECKING:
    import click

    from hexwar.core.engine.game import Game
    from hexwar.core.engine.view import SideView
    from hexwar.core.los import LosRules
    from hexwar.core.scenario import Scenario

SYSTEM = R.SYSTEM

PLUGIN = PluginManifest(
    name=SYSTEM,
    system=SYSTEM,
    kind="system",
    title="Skirmish",
    summary="A tiny two-unit-type infantry game: the example third-party system for hexwar.",
    implements=("Skirmish 1.0-7.0",),
    version="0.1.0",
)

Step = Generator[Any, Any, Any]


# -- state helpers ------------------------------------------------------------------------------


def sk(game: Game) -> dict[str, Any]:
    """The system's own game-wide state (JSON values only)."""
    data: dict[str, Any] = game.state.data.setdefault(SYSTEM, {"initiative": None, "moved": [],
                                                               "acted": []})
    return data


def order(game: Game) -> list[str]:
    """The sides in the order they act this turn: the initiative side first (Skirmish 3.5)."""
    first = sk(game)["initiative"] or game.state.sides[0]
    return [first, *game.other_sides(first)]


# -- phases ---------------------------------------------------------------------------------------


def initiative_phase(game: Game) -> Step:
    """Skirmish 3.1: both sides roll a die; the higher has the initiative (ties roll again)."""
    winner = roll_off(game, list(game.state.sides), purpose="initiative", die="d6")
    data = sk(game)
    data["initiative"] = winner
    data["moved"] = []
    data["acted"] = []
    game.report("initiative", result=winner, rules=["Skirmish 3.1"])
    yield from ()


def move_phase(game: Game) -> Step:
    """Skirmish 4.0: sides alternate moving one unit each, or passing (3.5)."""
    data = sk(game)
    data["acted"] = []

    def act(side: str) -> Step:
        options: list[Any] = ["pass"]
        for unit in R.live_units(game, side):
            if unit.id in data["acted"]:
                continue
            for dest in sorted(R.move_destinations(game, unit)):
                options.append({"unit": unit.id, "to": game.board.label(dest)})
        if len(options) == 1:
            return False
        choice = yield Decision(side, "move", options=options, rule="Skirmish 4.0",
                                prompt="move one unit, or pass",
                                context={"phase": "move"})
        if choice == "pass":
            return False
        unit = game.unit(choice["unit"])
        dest = game.board.parse(choice["to"])
        start = game.board.label(unit.hex) if unit.hex is not None else None
        unit.facing = R.facing_after_move(game, unit, dest)  # Skirmish 2.4
        unit.hex = dest
        data["acted"].append(unit.id)
        data["moved"].append(unit.id)
        game.emit("move", unit=unit.id, start=start, to=choice["to"], facing=unit.facing)
        return True

    yield from alternate(game, order(game), act)


def fire_phase(game: Game) -> Step:
    """Skirmish 5.0: sides alternate firing one unit each, or passing (3.5)."""
    data = sk(game)
    data["acted"] = []

    def act(side: str) -> Step:
        options: list[Any] = ["pass"]
        for unit in R.live_units(game, side):
            if unit.id in data["acted"]:
                continue
            for shot in R.targets(game, unit):
                options.append({"unit": shot.firer, "target": shot.target})
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


def resolve_fire(game: Game, firer_id: str, target_id: str) -> str:
    """One attack: die + modifiers (Skirmish 5.3, optional rules through hexwar_fire_modifiers),
    the fire table (5.4), a second pin eliminates (5.5)."""
    firer, target = game.unit(firer_id), game.unit(target_id)
    assert firer.hex is not None and target.hex is not None
    shot = R.Shot(firer.id, target.id, firer.hex.distance(target.hex))
    mods = [*R.base_modifiers(game, shot), *game.hooks.fire_modifiers(game, R.attack_of(game, shot))]
    firer.facing = R.facing_toward(firer.hex, target.hex)  # Skirmish 2.4
    roll = game.dice.d6(f"{firer.id} fires at {target.id}")
    modified = roll + int(total(mods))
    result = R.fire_result(modified)
    rules = ["Skirmish 5.3", "Skirmish 5.4"]
    if result == "pinned" and target.state.get(R.PINNED):
        result = "eliminated"  # Skirmish 5.5
        rules.append("Skirmish 5.5")
    if result == "pinned":
        target.state[R.PINNED] = True
    elif result == "eliminated":
        target.state.pop(R.PINNED, None)
        target.state[R.ELIMINATED] = True
        target.hex = None
    game.report("fire", result=result, modifiers=mods, rules=rules, firer=firer.id,
                target=target.id, roll=roll, modified=modified, range=shot.range)
    return result


def rally_phase(game: Game) -> Step:
    """Skirmish 6.1: every pinned unit rolls to rally."""
    for unit in R.live_units(game):
        if unit.state.get(R.PINNED):
            roll = game.dice.d6(f"{unit.id} rallies")
            result = R.rally_result(roll)
            if result == "rallied":
                unit.state.pop(R.PINNED, None)
            game.report("rally", result=result, rules=["Skirmish 6.1"], unit=unit.id, roll=roll)
    yield from ()


PHASES = [
    PhaseSpec(f"{SYSTEM}.initiative", "Initiative", "Skirmish 3.1", initiative_phase),
    PhaseSpec(f"{SYSTEM}.move", "Move phase", "Skirmish 4.0", move_phase),
    PhaseSpec(f"{SYSTEM}.fire", "Fire phase", "Skirmish 5.0", fire_phase),
    PhaseSpec(f"{SYSTEM}.rally", "Rally phase", "Skirmish 6.0", rally_phase),
]


# -- victory (Skirmish 7.0) ---------------------------------------------------------------------


def objectives(game: Game) -> list[str]:
    labels = game.scenario.victory.get("objective", [])
    return [str(x) for x in labels]


@hookimpl
def hexwar_game_over(game: Game) -> GameResult | None:
    """Skirmish 7.1: a side with no unit on the board loses at once."""
    if game.scenario.system != SYSTEM:
        return None
    alive = {s: len(R.live_units(game, s)) for s in game.state.sides}
    gone = [s for s, n in alive.items() if n == 0]
    if not gone:
        return None
    left = [s for s in game.state.sides if s not in gone]
    return GameResult(left[0] if len(left) == 1 else None, "elimination" if left else "draw",
                      scores=alive, reasons=(f"{', '.join(gone)} has no unit left (Skirmish 7.1)",))


@hookimpl
def hexwar_final_result(game: Game) -> GameResult | None:
    """Skirmish 7.2: hold the objective; else more units on the board; else a draw."""
    if game.scenario.system != SYSTEM:
        return None
    alive = {s: len(R.live_units(game, s)) for s in game.state.sides}
    targets = {game.board.parse(x) for x in objectives(game)}
    holders = {u.side for u in R.live_units(game) if u.hex in targets}
    if len(holders) == 1:
        side = holders.pop()
        return GameResult(side, "objective", scores=alive,
                          reasons=(f"{side} holds the objective (Skirmish 7.2)",))
    best = max(alive.values())
    leaders = [s for s, n in alive.items() if n == best]
    if len(leaders) == 1:
        return GameResult(leaders[0], "marginal", scores=alive,
                          reasons=("more units on the board (Skirmish 7.2)",))
    return GameResult(None, "draw", scores=alive, reasons=("equal numbers (Skirmish 7.2)",))


# -- registration -------------------------------------------------------------------------------


@hookimpl
def hexwar_register_systems() -> list[SystemInfo]:
    scale = Scale(SYSTEM, Q_(50, "m"), Q_(5, "m"), Q_(1, "minute"), rule="Skirmish 1.1")
    return [SystemInfo(SYSTEM, "Skirmish", "hexwar example", scale, dice=("d6",),
                       sides=("red", "blue"), rule="Skirmish 1.0")]


@hookimpl
def hexwar_register_phases(system: str) -> list[PhaseSpec]:
    return list(PHASES) if system == SYSTEM else []


@hookimpl
def hexwar_register_unit_types() -> list[UnitType]:
    records = R.unit_records()
    out = []
    for name, values in sorted(records.values.items()):
        prov = {k.split(".", 1)[1]: v for k, v in records.sources.items()
                if k.startswith(f"{name}.")}
        data = {k: v for k, v in values.items() if k not in ("title", "kind")}
        out.append(UnitType(f"{SYSTEM}:{name}", values["title"], values["kind"], data=data,
                            provenance={k: v for k, v in prov.items() if k in data}))
    return out


@hookimpl
def hexwar_register_terrain() -> list[TerrainType]:
    records = R.terrain_records()
    return [TerrainType(f"{SYSTEM}:{name}", v["title"], "Skirmish 4.2", color=v["color"],
                        data={k: x for k, x in v.items() if k not in ("title", "color")})
            for name, v in sorted(records.values.items()) if "title" in v]


@hookimpl
def hexwar_register_data() -> list[DataSource]:
    return [
        DataSource(f"{SYSTEM}:tables", R.TABLES, "tables", "Fire and rally tables"),
        DataSource(f"{SYSTEM}:field", R.DATA / "panel.toml", "panel", "The Skirmish field"),
        DataSource(f"{SYSTEM}:crossroads", R.SCENARIOS / "crossroads.toml", "scenario",
                   "Crossroads: take Kreuzhof"),
    ]


@hookimpl
def hexwar_register_disclosed() -> list[Disclosed]:
    """Every table number RULES.md states, so `hexwar data check` compares a user's pack."""
    out = [Disclosed("hits", {"roll": r}, res, "Skirmish 5.4")
           for r, res in ((0, "none"), (2, "none"), (3, "pinned"), (4, "pinned"), (5, "eliminated"),
                          (7, "eliminated"))]
    out += [Disclosed("rally", {"roll": r}, "pinned" if r <= 3 else "rallied", "Skirmish 6.1")
            for r in range(1, 7)]
    return out


@hookimpl
def hexwar_register_commands(group: click.Group) -> None:
    """``hexwar skirmish fire ...`` (see commands.py)."""
    from hexwar_skirmish.commands import skirmish

    if "skirmish" not in group.commands:
        group.add_command(skirmish)


@hookimpl
def hexwar_los_rules(game: Game | None, system: str) -> LosRules | None:
    return R.SkirmishLos() if system == SYSTEM else None


@hookimpl
def hexwar_validate_scenario(scenario: Scenario) -> list[Problem]:
    """The [victory] table: ``objective`` is a list of hex labels (Skirmish 7.2)."""
    if scenario.system != SYSTEM:
        return []
    obj = scenario.victory.get("objective")
    if not (isinstance(obj, list) and obj and all(isinstance(x, str) for x in obj)):
        return [Problem("[victory] needs objective = [\"<hex label>\", ...] (Skirmish 7.2)",
                        scenario.path, "victory.objective", scenario.locate("victory"),
                        hint='e.g. objective = ["0605"]')]
    return []


@hookimpl
def hexwar_setup_game(game: Game) -> None:
    if game.scenario.system == SYSTEM:
        sk(game)


@hookimpl
def hexwar_describe_state(game: Game, side: str | None) -> dict[str, Any] | None:
    if game.scenario.system != SYSTEM:
        return None
    data = sk(game)
    return {"initiative": data["initiative"], "objective": objectives(game)}


# -- a simple AI ----------------------------------------------------------------------------------


class SkirmishAI:
    """Fires the shot with the best modified roll; moves the unit that gets closest to the
    objective; otherwise passes. Decides from its side's view (open information in Skirmish)."""

    name = "ai"

    def __init__(self, side: str, seed: int) -> None:
        self.side = side
        self.seed = seed

    def choose(self, decision: Decision, view: SideView) -> Any:
        options = list(decision.options or ["pass"])
        game = view.game
        if decision.kind == "fire":
            def value(opt: Any) -> float:
                if opt == "pass":
                    return -99.0
                firer, target = game.unit(opt["unit"]), game.unit(opt["target"])
                assert firer.hex is not None and target.hex is not None
                shot = R.Shot(firer.id, target.id, firer.hex.distance(target.hex))
                return total(R.base_modifiers(game, shot)) + (0.5 if target.state.get(R.PINNED) else 0)
            return max(options, key=value)
        if decision.kind == "move":
            goals = [game.board.parse(x) for x in objectives(game)]
            if not goals:
                return "pass"

            def gain(opt: Any) -> tuple[int, str]:
                if opt == "pass":
                    return (0, "")
                unit = game.unit(opt["unit"])
                assert unit.hex is not None
                dest = game.board.parse(opt["to"])
                before = min(unit.hex.distance(g) for g in goals)
                after = min(dest.distance(g) for g in goals)
                return (before - after, f"{opt['unit']}{opt['to']}")
            best = max(options, key=gain)
            return best if gain(best)[0] > 0 else "pass"
        return options[0]


@hookimpl
def hexwar_register_controllers() -> list[ControllerSpec]:
    return [ControllerSpec("ai", SYSTEM, SkirmishAI,
                           "moves toward the objective and takes the best shot")]
