"""MBT (Avalon Hill): the manifest of the system plugin for the Basic Game (MBT 1.0-9.0) and its
implementations of the core hooks, each a thin call into the module of its rule.

Data (stand-ins except where a rule is cited, docs/decisions.md MBTD-1): the Game Card charts in
``data/tables/``, the data cards in ``data/cards/``, panels 1-3 in ``data/panels/``, the Basic Game
Scenario matchups A-D in ``scenarios/``. The package docstring lists the rule modules.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from hexwar.core.markers import hookimpl
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
from hexwar.plugins.mbt import hookspecs
from hexwar.plugins.mbt.hookspecs import MbtHooks

if TYPE_CHECKING:
    import click
    import pluggy

    from hexwar.core.engine.game import Game
    from hexwar.core.los import LosRules
    from hexwar.core.scenario import Scenario
    from hexwar.core.tables import Disclosed

HERE = Path(__file__).resolve().parent
DATA = HERE / "data"

PLUGIN = PluginManifest(
    name="mbt",
    system="mbt",
    kind="system",
    title="MBT (Avalon Hill): Basic Game",
    summary="Modern armour, 100 m hexes: the Basic Game rules MBT 1.0-9.0 and the Basic Game Scenario.",
    implements=("MBT 1.0", "MBT 2.0", "MBT 3.0", "MBT 4.0", "MBT 5.0", "MBT 6.0", "MBT 7.0",
                "MBT 8.0", "MBT 9.0"),
)

__all__ = ["PLUGIN"]


@hookimpl
def hexwar_add_hookspecs(pluginmanager: pluggy.PluginManager) -> None:
    pluginmanager.add_hookspecs(hookspecs)


@hookimpl
def hexwar_register_systems() -> list[SystemInfo]:
    from hexwar.core.units import Q_, Scale

    return [SystemInfo(
        name="mbt", title="MBT", publisher="Avalon Hill",
        scale=Scale("mbt", Q_(100, "m"), Q_(25, "ft"), None,
                    notes="MBT 4.3: 100 m hexes; MBT 12.1: one height is about 25 feet; no Turn length",
                    rule="MBT 4.3, 12.1"),
        dice=("d10", "d100"), sides=("NATO", "Soviet"), rule="MBT 1.7, 4.2",
        notes="Basic Game. Stand-in cards, charts and panels except where the text gives numbers.",
        hooks=MbtHooks,
    )]


@hookimpl
def hexwar_register_phases(system: str) -> list[PhaseSpec]:
    from hexwar.plugins.mbt.sequence import PHASES

    return list(PHASES)


@hookimpl
def hexwar_register_unit_types() -> list[UnitType]:
    from hexwar.plugins.mbt.cards import load_cards

    out = []
    for _name, card in sorted(load_cards().items()):
        out.append(UnitType(
            name=card.type_name, title=f"{card.id} {card.name}", kind=card.kind,
            data={"card": card.id, "side": card.side, "nation": card.nation, "points": list(card.points),
                  "mf": str(card.mf), "size": card.size,
                  "weapons": [w.name for w in card.weapons], "path": card.records.path},
            provenance=dict(card.records.sources),
        ))
    return out


@hookimpl
def hexwar_register_terrain() -> list[TerrainType]:
    from hexwar.plugins.mbt.terrain import terrain_types

    return terrain_types()


@hookimpl
def hexwar_register_data() -> list[DataSource]:
    out = [
        DataSource("mbt:game-card", DATA / "tables", "tables", "Game Card charts of the Basic Game"),
        DataSource("mbt:cards", DATA / "cards", "cards", "Data cards (stand-ins)"),
        DataSource("mbt:advanced-cards", DATA / "advanced" / "cards", "cards",
                   "Advanced Game data cards: Scenario One's carriers, squads and M60A3 (stand-ins)"),
    ]
    # panel 4 is a stand-in like 1-3, for the four-panel layouts of the Scenarios
    for n in (1, 2, 3, 4):
        out.append(DataSource(f"mbt:panel-{n}", DATA / "panels" / f"panel{n}.toml", "panel",
                              f"MBT panel {n} (stand-in)"))
    for key in "abcd":
        out.append(DataSource(f"mbt:basic-{key}", HERE / "scenarios" / f"basic-{key}.toml", "scenario",
                              f"Basic Game Scenario, matchup {key.upper()}"))
    out.append(DataSource("mbt:advanced-a", HERE / "scenarios" / "advanced-a.toml", "scenario",
                          "Advanced Game (MBT 10.0-16.0) meeting engagement of tank platoons"))
    for key, what in (("1", "4 x M60A3 vs 2 x 4 T-72M1"), ("1b", "4 x M60A3 vs 2 x 3 T-80A"),
                      ("2", "4 x Leopard 2 vs 2 x 3 T-72M1"),
                      ("3", "a panzer company (-) vs a tank company")):
        out.append(DataSource(f"mbt:scenario-one-{key}", HERE / "scenarios" / f"scenario-one-{key}.toml",
                              "scenario", f"Scenario One \"Meeting Engagements\", matchup {key}: {what}"))
    return out


@hookimpl
def hexwar_register_disclosed() -> list[Disclosed]:
    from hexwar.plugins.mbt.tables import disclosed

    return disclosed()


@hookimpl
def hexwar_register_controllers() -> list[ControllerSpec]:
    from hexwar.plugins.mbt.ai import MbtAI

    return [ControllerSpec("ai", "mbt", MbtAI, "MBT AI: fires at the likeliest kills, overwatches "
                                               "approaches, moves to cover and objectives")]


@hookimpl
def hexwar_register_commands(group: click.Group) -> None:
    from hexwar.plugins.mbt.cli import mbt_group
    from hexwar.plugins.mbt.forces_cli import forces_command

    if "forces" not in mbt_group.commands:
        mbt_group.add_command(forces_command)  # MBT Scenario Format C (forces.py)
    if "record" not in mbt_group.commands:
        from hexwar.plugins.mbt.record_sheet import record_command

        mbt_group.add_command(record_command())  # MBT 10.3 (record_sheet.py)
    if "mbt" not in group.commands:
        group.add_command(mbt_group)


@hookimpl
def hexwar_validate_scenario(scenario: Scenario) -> list[Problem]:
    from hexwar.plugins.mbt.setup import validate_scenario

    return validate_scenario(scenario)


@hookimpl(tryfirst=True)
def hexwar_setup_game(game: Game) -> None:
    """First of the set-up hooks: the forces and the terrain variant come before any other rule
    reads the units or the board."""
    from hexwar.core.engine.view import STATE_VIEWS
    from hexwar.plugins.mbt.state import start_game

    start_game(game)
    # the movement search's successor lists are kept for one game at a time (MBTD-186): a board
    # shared by games in a row would otherwise fill with every game's lists
    from hexwar.plugins.mbt.terrain import MAP_INFO

    for _charts, info in game.board.stash.get(MAP_INFO, {}).values():
        info.move_succ.clear()
    # what a side sees (MBT 6.1) and is shown of a unit (MBT 6.2) is read from the state
    # alone: views of an unchanged state reuse their records (docs/decisions.md CORE-129)
    game.stash[STATE_VIEWS] = True


@hookimpl
def hexwar_game_over(game: Game) -> GameResult | None:
    from hexwar.plugins.mbt.victory import automatic

    return automatic(game)


@hookimpl
def hexwar_final_result(game: Game) -> GameResult | None:
    from hexwar.plugins.mbt.victory import final

    return final(game)


@hookimpl
def hexwar_los_rules(game: Game | None, system: str) -> LosRules | None:
    from hexwar.plugins.mbt.terrain import BasicLos

    return BasicLos()


@hookimpl
def hexwar_visible_units(game: Game, side: str) -> list[str] | None:
    """Only units the side's units can see now (MBT 6.1), and wrecks; never unseen enemies."""
    from hexwar.plugins.mbt.sighting import visible_units

    return visible_units(game, side)


@hookimpl
def hexwar_unit_view(game: Game, side: str, unit_id: str) -> dict[str, Any] | None:
    """An enemy unit shows its counter, turret, markers and damage; its order only once revealed
    (MBT 6.2.1-6.2.2)."""
    from hexwar.plugins.mbt.orders import unit_view

    return unit_view(game, side, unit_id)


@hookimpl
def hexwar_describe_state(game: Game, side: str | None) -> dict[str, Any] | None:
    from hexwar.plugins.mbt.state import data
    from hexwar.plugins.mbt.victory import victory_points

    d = data(game)
    return {"first": d.get("first"), "edges": d.get("edge"), "wrecks": dict(d.get("wrecks", {})),
            "control": dict(d.get("control", {})), "victory_points": victory_points(game)}


@hookimpl
def hexwar_data_packs(game: Game) -> dict[str, str] | None:
    """The user's table packs and card folders the game reads, by digest (CORE-100)."""
    from hexwar.plugins.mbt.state import data_packs

    return data_packs(game)


@hookimpl
def hexwar_describe_event(game: Game | None, record: Mapping[str, Any]) -> str | None:
    """A Mbt log record in words, with its rule (``words.py``)."""
    from hexwar.plugins.mbt.words import describe_event

    return describe_event(game, record)


@hookimpl
def hexwar_explain_decision(view: Any, decision: Any) -> str | None:
    """An MBT decision in words for a player at the terminal (``explain.py``)."""
    from hexwar.plugins.mbt.explain import explain_decision

    return explain_decision(view, decision)


@hookimpl
def hexwar_side_rules(game: Game, view: Any) -> Any:
    """The rules computations an MBT controller may make (``knowledge.py``, CORE-55)."""
    from hexwar.plugins.mbt.knowledge import side_rules

    return side_rules(game, view)


@hookimpl
def hexwar_present_decision(view: Any, decision: Any) -> dict[str, Any] | None:
    """An MBT decision as a form of the web table (``present.py``)."""
    from hexwar.plugins.mbt.present import present_decision

    return present_decision(view, decision)
