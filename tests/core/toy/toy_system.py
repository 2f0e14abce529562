"""A minimal game system used to test the core engine: orders in secret, alternating moves with
a deferred fire step. It follows no rulebook."""

from __future__ import annotations

from collections.abc import Generator
from pathlib import Path
from typing import Any

from hexwar.core.engine.decisions import Decision
from hexwar.core.engine.primitives import alternate, ask_all
from hexwar.core.markers import hookimpl
from hexwar.core.types import (
    DataSource,
    GameResult,
    Modifier,
    PhaseSpec,
    PluginManifest,
    SystemInfo,
    TerrainType,
    UnitType,
)
from hexwar.core.units import Q_, Scale

from . import hookspecs
from .hookspecs import ToyHooks

HERE = Path(__file__).parent

PLUGIN = PluginManifest(name="toy", system="toy", kind="system", title="Toy",
                        summary="A tiny system for the core's tests.")


def fire_phase(game: Any) -> Generator[Any, Any, None]:
    """Both sides choose a target in secret; hits apply only when the step ends."""
    sides = list(game.state.sides)
    decisions = []
    for side in sides:
        targets = [u.id for u in game.state.units.values()
                   if u.side != side and u.hex is not None and not u.state.get("dead")]
        shooters = [u for u in game.state.units_of(side) if u.hex is not None and not u.state.get("dead")]
        decisions.append(Decision(side, "fire", options=["pass", *targets] if shooters else ["pass"]))
    choices = yield from ask_all(decisions)
    for side, choice in zip(sides, choices, strict=True):
        if choice == "pass":
            continue
        mods = ToyHooks.of(game).fire_modifiers({"target": choice})
        roll = game.dice.d6(f"{side} fires at {choice}")
        hit = roll + sum(m.value for m in mods) >= 5
        game.report("fire", result="hit" if hit else "miss", modifiers=mods, rules=["toy 1"],
                    target=choice)
        if hit:
            def kill(unit_id: str = choice) -> None:
                game.unit(unit_id).state["dead"] = True
                game.unit(unit_id).hex = None
            game.defer(f"{choice} destroyed", kill)


def move_phase(game: Any) -> Generator[Any, Any, None]:
    """Sides alternate moving one unit one hex, until both pass."""
    moved: set[str] = set()

    def act(side: str) -> Generator[Any, Any, bool]:
        options: list[Any] = ["pass"]
        for u in game.state.units_of(side):
            if u.hex is None or u.id in moved:
                continue
            for n in game.board.neighbors_of[u.hex]:
                if not any(o.hex == n for o in game.state.units.values()):
                    options.append({"unit": u.id, "to": game.board.label(n)})
        choice = yield Decision(side, "move", options=options)
        if choice == "pass":
            return False
        unit = game.unit(choice["unit"])
        unit.hex = game.board.parse(choice["to"])
        moved.add(unit.id)
        return True

    yield from alternate(game, list(game.state.sides), act)


@hookimpl
def hexwar_add_hookspecs(pluginmanager: Any) -> None:
    pluginmanager.add_hookspecs(hookspecs)


@hookimpl
def hexwar_register_systems() -> list[SystemInfo]:
    return [SystemInfo("toy", "Toy", "nobody", Scale("toy", Q_(100, "m"), Q_(10, "m"), None),
                       dice=("d6",), hooks=ToyHooks)]


@hookimpl
def hexwar_register_phases(system: str) -> list[PhaseSpec]:
    return [PhaseSpec("toy.fire", "Fire", "toy 1", fire_phase),
            PhaseSpec("toy.move", "Move", "toy 2", move_phase)]


@hookimpl
def hexwar_register_unit_types() -> list[UnitType]:
    return [UnitType("toy:gun", "Gun", "vehicle")]


@hookimpl
def hexwar_register_terrain() -> list[TerrainType]:
    return [TerrainType("toy:clear", "Clear", "toy 3"), TerrainType("toy:woods", "Woods", "toy 3")]


@hookimpl
def hexwar_register_data() -> list[DataSource]:
    return [DataSource("toy:panel-1", HERE / "panel.toml", "panel"),
            DataSource("toy:duel", HERE / "scenario.toml", "scenario")]


@hookimpl
def hexwar_final_result(game: Any) -> GameResult:
    alive = {s: sum(1 for u in game.state.units_of(s) if not u.state.get("dead"))
             for s in game.state.sides}
    best = max(alive.values())
    winners = [s for s, n in alive.items() if n == best]
    return GameResult(winners[0] if len(winners) == 1 else None,
                      "win" if len(winners) == 1 else "draw", scores=alive)


@hookimpl
def hexwar_game_over(game: Any) -> GameResult | None:
    for side in game.state.sides:
        if all(u.state.get("dead") for u in game.state.units_of(side)):
            other = next(s for s in game.state.sides if s != side)
            return GameResult(other, "elimination")
    return None


class Plus1:
    """An optional-rule-like plugin object adding a fire modifier."""

    @hookimpl
    def toy_fire_modifiers(self, game: Any, attack: dict[str, Any]) -> list[Modifier]:
        return [Modifier("sharpshooter", 1, "toy 4")]
