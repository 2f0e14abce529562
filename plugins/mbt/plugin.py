"""MBT (Avalon Hill): the system plugin for the Basic Game, rules 1.0-9.0.

Data (stand-ins except where a rule is cited): the Game Card charts in ``tables/``, the data cards
in ``cards/``, panels 1-3 in ``panels/``, the Basic Game Scenario matchups A-D in ``scenarios/``.
The rules live in :mod:`~hexwar.plugins.mbt.sequence` (sequence of play),
:mod:`~hexwar.plugins.mbt.fire` (AP fire pipeline), :mod:`~hexwar.plugins.mbt.moves` (movement),
:mod:`~hexwar.plugins.mbt.state` (sighting, arcs, damage state) and
:mod:`~hexwar.plugins.mbt.victory`. The AI is :mod:`~hexwar.plugins.mbt.ai`.
"""

from __future__ import annotations

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

if TYPE_CHECKING:
    import click
    import pluggy

    from hexwar.core.engine.game import Game
    from hexwar.core.los import LosRules
    from hexwar.core.scenario import Scenario
    from hexwar.core.tables import Disclosed

HERE = Path(__file__).resolve().parent

PLUGIN = PluginManifest(
    name="mbt",
    system="mbt",
    kind="system",
    title="MBT (Avalon Hill): Basic Game",
    summary="Modern armour, 100 m hexes: the Basic Game rules 1.0-9.0 and the Basic Game Scenario.",
    implements=("1.0", "2.0", "3.0", "4.0", "5.0", "6.0", "7.0", "8.0", "9.0"),
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
                    notes="MBT 4.3: 100 m hexes; 12.1: one height is about 25 feet; no Turn length",
                    rule="MBT 4.3, 12.1"),
        dice=("d10", "d100"), sides=("NATO", "Soviet"), rule="MBT 1.7, 4.2",
        notes="Basic Game. Stand-in cards, charts and panels except where the text gives numbers.",
    )]


@hookimpl
def hexwar_register_phases(system: str) -> list[PhaseSpec]:
    if system != "mbt":
        return []
    from hexwar.plugins.mbt.sequence import PHASES

    return list(PHASES)


@hookimpl
def hexwar_sequence_edits(system: str) -> list[Any]:
    return []


@hookimpl
def hexwar_register_unit_types() -> list[UnitType]:
    from hexwar.plugins.mbt.datacards import load_cards

    out = []
    for name, card in sorted(load_cards().items()):
        out.append(UnitType(
            name=card.type_name, title=f"{card.id} {card.name}", kind=card.kind,
            data={"card": card.id, "side": card.side, "nation": card.nation, "points": list(card.points),
                  "mf": str(card.mf), "size": card.size,
                  "weapons": [w.name for w in card.weapons], "path": card.records.path},
            provenance=dict(card.records.sources),
        ))
        del name
    return out


@hookimpl
def hexwar_register_terrain() -> list[TerrainType]:
    from hexwar.plugins.mbt.terrain import terrain_types

    return terrain_types()


@hookimpl
def hexwar_register_data() -> list[DataSource]:
    out = [
        DataSource("mbt:game-card", HERE / "tables", "tables", "Game Card charts of the Basic Game"),
        DataSource("mbt:cards", HERE / "cards", "cards", "Data cards (stand-ins)"),
    ]
    for n in (1, 2, 3):
        out.append(DataSource(f"mbt:panel-{n}", HERE / "panels" / f"panel{n}.toml", "panel",
                              f"MBT panel {n} (stand-in)"))
    for key in "abcd":
        out.append(DataSource(f"mbt:basic-{key}", HERE / "scenarios" / f"basic-{key}.toml", "scenario",
                              f"Basic Game Scenario, matchup {key.upper()}"))
    return out


@hookimpl
def hexwar_register_disclosed() -> list[Disclosed]:
    from hexwar.plugins.mbt.charts import disclosed

    return disclosed()


@hookimpl
def hexwar_register_controllers() -> list[ControllerSpec]:
    from hexwar.plugins.mbt.ai import MbtAI

    return [ControllerSpec("ai", "mbt", MbtAI, "MBT AI: fires at the likeliest kills, overwatches "
                                               "approaches, moves to cover and objectives")]


@hookimpl
def hexwar_register_commands(group: click.Group) -> None:
    from hexwar.plugins.mbt.cli import mbt_group

    if "mbt" not in group.commands:
        group.add_command(mbt_group)


@hookimpl
def hexwar_validate_scenario(scenario: Scenario) -> list[Problem]:
    if scenario.system != "mbt":
        return []
    problems: list[Problem] = []
    if set(scenario.sides) != {"NATO", "Soviet"}:
        problems.append(Problem("an MBT scenario has the sides NATO and Soviet", scenario.path, "sides"))
    v = scenario.victory
    for key in ("objective_points", "margin"):
        if key in v and not isinstance(v[key], int):
            problems.append(Problem(f"victory.{key} must be a whole number", scenario.path,
                                    f"victory.{key}"))
    setup = scenario.raw.get("setup", {})
    if "depth" in setup and not (isinstance(setup["depth"], int) and setup["depth"] >= 1):
        problems.append(Problem("setup.depth must be a whole number >= 1 (MBT 2.5)", scenario.path,
                                "setup.depth"))
    for u in scenario.units:
        if u.type.startswith("mbt:") and u.side not in ("NATO", "Soviet"):
            problems.append(Problem(f"unit {u.id}: side must be NATO or Soviet", scenario.path, "units"))
    return problems


@hookimpl
def hexwar_setup_game(game: Game) -> None:
    if game.scenario.system != "mbt":
        return
    from hexwar.plugins.mbt.state import ctx, data, init_unit

    ctx(game)
    d = data(game)
    d.setdefault("wrecks", {})
    d.setdefault("control", {})
    d.setdefault("hits", {})
    d.setdefault("atgm", [])
    for u in game.state.units.values():
        init_unit(u)


@hookimpl
def hexwar_game_over(game: Game) -> GameResult | None:
    if game.scenario.system != "mbt":
        return None
    from hexwar.plugins.mbt.victory import automatic

    return automatic(game)


@hookimpl
def hexwar_final_result(game: Game) -> GameResult | None:
    if game.scenario.system != "mbt":
        return None
    from hexwar.plugins.mbt.victory import final

    return final(game)


@hookimpl
def hexwar_los_rules(game: Game | None, system: str) -> LosRules | None:
    if system != "mbt":
        return None
    from hexwar.plugins.mbt.terrain import BasicLos

    return BasicLos()


def _visible(game: Game, side: str) -> list[str]:
    from hexwar.plugins.mbt.state import alive, enemy_of, seen_by_side

    out = []
    for u in game.state.units.values():
        if u.side == side:
            out.append(u.id)
        elif not alive(u):
            if u.state.get("destroyed"):
                out.append(u.id)  # a wreck is public
        elif u.side == enemy_of(side) and seen_by_side(game, side, u):
            out.append(u.id)
    return sorted(out)


@hookimpl
def hexwar_visible_units(game: Game, side: str) -> list[str] | None:
    """Only units the side's units can see now (MBT 6.1), and wrecks; never unseen enemies."""
    if game.scenario.system != "mbt":
        return None
    return _visible(game, side)


PUBLIC_STATE = ("turret", "open", "spotted", "damage", "destroyed", "wreck_at", "fired", "moved")


@hookimpl
def hexwar_unit_view(game: Game, side: str, unit_id: str) -> dict[str, Any] | None:
    """An enemy unit shows its counter, turret, markers and damage; its order only once revealed
    (MBT 6.2.1-6.2.2)."""
    if game.scenario.system != "mbt":
        return None
    u = game.state.units[unit_id]
    d = u.to_dict()
    if u.side == side:
        return d
    st = {k: u.state[k] for k in PUBLIC_STATE if k in u.state}
    if u.state.get("revealed"):
        st["order"] = u.state.get("order")
    d["state"] = st
    return d


@hookimpl
def hexwar_describe_state(game: Game, side: str | None) -> dict[str, Any] | None:
    if game.scenario.system != "mbt":
        return None
    from hexwar.plugins.mbt.state import data
    from hexwar.plugins.mbt.victory import victory_points

    d = data(game)
    return {"first": d.get("first"), "edges": d.get("edge"), "wrecks": dict(d.get("wrecks", {})),
            "control": dict(d.get("control", {})), "victory_points": victory_points(game)}

