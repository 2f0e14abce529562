"""The Skirmish game system: its manifest and its implementations of hexwar's core hooks.

hexwar finds this module through the entry point ``skirmish`` of the group ``hexwar.plugins``
(pyproject.toml) and reads its ``PLUGIN`` manifest. The hooks are thin: the rules live in the
modules named in the package docstring. The core calls the game hooks here (set-up, victory, line
of sight, scenario checks, the sequence of play...) only for games of Skirmish, so none of them
asks whose game it is.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

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
)
from hexwar.core.units import Q_, Scale
from hexwar_skirmish import hookspecs, tables, victory
from hexwar_skirmish.ai import SkirmishAI
from hexwar_skirmish.fire import SkirmishLos
from hexwar_skirmish.hookspecs import SkirmishHooks
from hexwar_skirmish.sequence import PHASES
from hexwar_skirmish.state import SYSTEM, turn_state

if TYPE_CHECKING:
    import click
    import pluggy

    from hexwar.core.engine.game import Game
    from hexwar.core.los import LosRules
    from hexwar.core.scenario import Scenario

PLUGIN = PluginManifest(
    name=SYSTEM,
    system=SYSTEM,
    kind="system",
    title="Skirmish",
    summary="A tiny two-unit-type infantry game: the example third-party system for hexwar.",
    implements=("Skirmish 1.0-7.0",),
    version="0.2.0",
)


@hookimpl
def hexwar_add_hookspecs(pluginmanager: pluggy.PluginManager) -> None:
    """Skirmish's own hooks (hookspecs.py), which its optional rules implement."""
    pluginmanager.add_hookspecs(hookspecs)


# -- registration: records about the system, collected from every installed plugin -------------


@hookimpl
def hexwar_register_systems() -> list[SystemInfo]:
    scale = Scale(SYSTEM, Q_(50, "m"), Q_(5, "m"), Q_(1, "minute"), rule="Skirmish 1.1")
    return [SystemInfo(SYSTEM, "Skirmish", "hexwar example", scale, dice=("d6",),
                       sides=("red", "blue"), rule="Skirmish 1.0", hooks=SkirmishHooks)]


@hookimpl
def hexwar_register_unit_types() -> list[UnitType]:
    records = tables.unit_records()
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
    records = tables.terrain_records()
    return [TerrainType(f"{SYSTEM}:{name}", v["title"], "Skirmish 4.2", color=v["color"],
                        data={k: x for k, x in v.items() if k not in ("title", "color")})
            for name, v in sorted(records.values.items()) if "title" in v]


@hookimpl
def hexwar_register_data() -> list[DataSource]:
    return [
        DataSource(f"{SYSTEM}:tables", tables.TABLES, "tables", "Fire and rally tables"),
        DataSource(f"{SYSTEM}:field", tables.DATA / "panel.toml", "panel", "The Skirmish field"),
        DataSource(f"{SYSTEM}:crossroads", tables.SCENARIOS / "crossroads.toml", "scenario",
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
def hexwar_register_controllers() -> list[ControllerSpec]:
    return [ControllerSpec("ai", SYSTEM, SkirmishAI,
                           "moves toward the objective and takes the best shot")]


@hookimpl
def hexwar_register_commands(group: click.Group) -> None:
    """``hexwar skirmish fire ...`` (cli.py); click is imported only when commands are added."""
    from hexwar_skirmish.cli import skirmish

    if "skirmish" not in group.commands:
        group.add_command(skirmish)


# -- game hooks: called only for games and scenarios of Skirmish ---------------------------------


@hookimpl
def hexwar_register_phases(system: str) -> list[PhaseSpec]:
    return list(PHASES)


@hookimpl
def hexwar_validate_scenario(scenario: Scenario) -> list[Problem]:
    """The [victory] table: ``objective`` is a list of hex labels (Skirmish 7.2)."""
    obj = scenario.victory.get("objective")
    if isinstance(obj, list) and obj and all(isinstance(x, str) for x in obj):
        return []
    return [Problem("[victory] needs objective = [\"<hex label>\", ...] (Skirmish 7.2)",
                    scenario.path, "victory.objective", scenario.locate("victory"),
                    hint='e.g. objective = ["0605"]')]


@hookimpl
def hexwar_setup_game(game: Game) -> None:
    turn_state(game)


@hookimpl
def hexwar_los_rules(game: Game | None, system: str) -> LosRules:
    return SkirmishLos()


@hookimpl
def hexwar_game_over(game: Game) -> GameResult | None:
    return victory.game_over(game)


@hookimpl
def hexwar_final_result(game: Game) -> GameResult:
    return victory.final_result(game)


@hookimpl
def hexwar_describe_state(game: Game, side: str | None) -> dict[str, Any]:
    return {"initiative": turn_state(game)["initiative"], "objective": victory.objectives(game)}


@hookimpl
def hexwar_side_rules(game: Game, view: Any) -> Any:
    """The rules computations a Skirmish controller may make (``ai.SkirmishRules``): a controller
    gets a view, never the game (hexwar's docs/decisions.md CORE-55)."""
    from hexwar_skirmish.ai import SkirmishRules

    return SkirmishRules(game, view)
