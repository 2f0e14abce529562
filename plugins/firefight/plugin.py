"""Firefight (SPI, 1976): the system plugin for Firefight I, cases (Firefight 1.0-9.0) and the Addenda."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
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
from hexwar.plugins.firefight import hookspecs
from hexwar.plugins.firefight import indirect as IF
from hexwar.plugins.firefight.hookspecs import FirefightHooks
from hexwar.plugins.firefight.sighting import los_rules
from hexwar.plugins.firefight.state import ff, public_ref
from hexwar.plugins.firefight.tables import DATA, disclosed, ff_data

if TYPE_CHECKING:
    import click
    import pluggy

    from hexwar.core.engine.game import Game
    from hexwar.core.los import LosRules
    from hexwar.core.scenario import Scenario
    from hexwar.core.tables import Disclosed

SYSTEM = "firefight"
HERE = Path(__file__).parent

PLUGIN = PluginManifest(
    name="firefight",
    system="firefight",
    kind="system",
    title="Firefight: Modern U.S. and Soviet Small Unit Tactics",
    summary="SPI 1976, Firefight I: direct fire, movement, opportunity fire, indirect fire.",
    implements=("Firefight 1.0", "Firefight 2.0", "Firefight 3.0", "Firefight 4.0",
                "Firefight 5.0", "Firefight 6.0", "Firefight 7.0", "Firefight 8.0",
                "Firefight 9.0"),
)

SCENARIOS = {f"scenario{i}": f"Scenario {i}" for i in range(1, 10)}


def scale() -> Any:
    from hexwar.core.units import Scale, ureg

    return Scale(system=SYSTEM, hex_size=50 * ureg.meter, height_unit=20 * ureg.meter,
                 turn_length=40 * ureg.second, rule="Firefight 2.0, 13.1",
                 notes="hex 50 m across, Game-Turn 40 s (Firefight 2.0); contour interval 20 m "
                       "(Firefight 13.1)")


@hookimpl
def hexwar_add_hookspecs(pluginmanager: pluggy.PluginManager) -> None:
    pluginmanager.add_hookspecs(hookspecs)


@hookimpl
def hexwar_register_systems() -> Sequence[SystemInfo]:
    return [SystemInfo(name=SYSTEM, title=PLUGIN.title, publisher="SPI (1976)", scale=scale(),
                       dice=("d6", "2d6"), sides=("US", "SU"), rule="Firefight 2.0",
                       notes="Stand-in maps and firing tables: see data/ (provenance per value).",
                       hooks=FirefightHooks)]


@hookimpl
def hexwar_register_phases(system: str) -> Sequence[PhaseSpec]:
    from hexwar.plugins.firefight.sequence import phases

    return phases()


@hookimpl
def hexwar_register_unit_types() -> Sequence[UnitType]:
    out = []
    for name, u in sorted(ff_data().units.items()):
        data = {"side": u.side, "class": u.cls, "ma": u.ma, "men": u.men, "capacity": u.capacity,
                "weapons": list(u.weapons), "at_weapons": list(u.at_weapons),
                "missile": u.missile}
        prov = {k: u.source.get(k, "estimated" if k in ("weapons",) else "Firefight 3.3")
                for k in data}
        out.append(UnitType(f"{SYSTEM}:{name}", u.title, u.cls, data, prov))
    for name, spec in sorted(ff_data().if_units.items()):  # off-map IF units (Firefight 3.3, 8.0)
        d = ff_data().if_data[str(spec["data"])]
        data = {"side": d.side, "class": "indirect", "tubes": d.tubes, "on_call": d.on_call,
                "too": d.too, "pattern": list(d.pattern), "table": d.name}
        prov = {k: "see data/tables/if_data.csv" for k in data}
        prov.update(side="Firefight 3.3", tubes="Firefight 3.3", **{"class": "Firefight 3.3"})
        out.append(UnitType(f"{SYSTEM}:{name}", str(spec["title"]), "indirect", data, prov))
    return out


@hookimpl
def hexwar_register_terrain() -> Sequence[TerrainType]:
    return [
        TerrainType(f"{SYSTEM}:clear", "Clear", "Firefight TEC", "#e8e4c8", {"move_cost": 1}),
        TerrainType(f"{SYSTEM}:forest", "Forest", "Firefight TEC; Firefight 5.1", "#4f8a3c",
                    {"move_cost": 2, "blocks_los": True}),
        TerrainType(f"{SYSTEM}:town", "Town", "Firefight TEC; Firefight 5.1", "#b0a090",
                    {"move_cost": 3, "blocks_los": True}),
    ]


@hookimpl
def hexwar_register_data() -> Sequence[DataSource]:
    out = [
        DataSource(f"{SYSTEM}:tables", DATA / "tables", "tables",
                   "Firefight tables (stand-ins except the disclosed cells)"),
        DataSource(f"{SYSTEM}:map-a", DATA / "maps" / "map_a.toml", "panel",
                   "Map A (stand-in)"),
        DataSource(f"{SYSTEM}:map-b", DATA / "maps" / "map_b.toml", "panel",
                   "Map B (stand-in)"),
    ]
    for i in range(1, 10):
        out.append(DataSource(f"{SYSTEM}:scenario-{i}", HERE / "scenarios" / f"scenario{i}.toml",
                              "scenario", f"Firefight Scenario {i}"))
    return out


@hookimpl
def hexwar_register_disclosed() -> Sequence[Disclosed]:
    return disclosed()


@hookimpl
def hexwar_register_controllers() -> Sequence[ControllerSpec]:
    from hexwar.plugins.firefight.ai import FirefightAI

    return [ControllerSpec("ai", SYSTEM, FirefightAI,
                           "Firefight AI: best expected-kill fire, cover, objectives")]


@hookimpl
def hexwar_register_commands(group: click.Group) -> None:
    from hexwar.plugins.firefight.cli import firefight_group

    if "firefight" not in group.commands:
        group.add_command(firefight_group)


@hookimpl
def hexwar_validate_scenario(scenario: Scenario) -> Sequence[Problem]:
    from hexwar.plugins.firefight.victory import validate

    problems = list(validate(scenario.victory, scenario.path))
    for e in scenario.raw.get("special", {}).get("indirect", []):
        if str(e.get("type")) not in ff_data().if_data:
            problems.append(Problem(f"unknown indirect fire unit type {e.get('type')!r}",
                                    scenario.path, "special.indirect",
                                    hint="one of " + ", ".join(sorted(ff_data().if_data))))
        if e.get("status", "organic") not in ("organic", "direct"):
            problems.append(Problem("status must be 'organic' or 'direct' Firefight 8.4", scenario.path,
                                    "special.indirect"))
    ids = {u.id for u in scenario.units}
    special = scenario.raw.get("special", {})
    for side, spec in special.get("draw", {}).items():
        missing = [x for x in spec.get("cup", []) if x not in ids]
        if missing:
            problems.append(Problem(f"draw cup of {side} names unknown units {missing}",
                                    scenario.path, f"special.draw.{side}.cup"))
    for uid in special.get("frozen_until", {}):
        if uid not in ids:
            problems.append(Problem(f"frozen_until names unknown unit {uid!r}", scenario.path,
                                    "special.frozen_until"))
    zone_keys = {"rows", "cols", "area", "within", "map", "max", "units", "exclude"}
    for i, spec in enumerate(scenario.raw.get("setup", {}).get("deploy", [])):
        if spec.get("side") not in scenario.sides:
            problems.append(Problem(f"deploy entry {i} has no known side", scenario.path,
                                    f"setup.deploy[{i}].side"))
        for z in spec.get("zones", []):
            for k in sorted(set(z) - zone_keys):
                problems.append(Problem(f"unknown deployment condition {k!r}", scenario.path,
                                        f"setup.deploy[{i}].zones",
                                        hint=", ".join(sorted(zone_keys))))
    add = special.get("addenda", {})
    for key in sorted(set(add) - {"demolished_bridges", "impassable_streams",
                                  "impassable_hexsides"}):
        problems.append(Problem(f"unknown Addenda option {key!r}", scenario.path,
                                f"special.addenda.{key}",
                                hint="demolished_bridges, impassable_streams, impassable_hexsides"))
    for side in scenario.sides:
        if side not in ("US", "SU"):
            problems.append(Problem(f"Firefight sides are US and SU, not {side!r}",
                                    scenario.path, "sides"))
    return problems


@hookimpl
def hexwar_setup_game(game: Game) -> None:
    data = ff(game)
    data.setdefault("attacked", [])
    data.setdefault("impacts", [])
    IF.setup_if_units(game)
    for u in game.state.units.values():  # passengers listed with their carrier (Firefight 7.4)
        c = u.state.get("carrier")
        if c:
            v = game.state.units[c]
            v.state.setdefault("passengers", [])
            if u.id not in v.state["passengers"]:
                v.state["passengers"].append(u.id)
            u.hex = v.hex
            if "enter" in v.state:
                u.state.pop("enter", None)
    frozen = game.scenario.raw.get("special", {}).get("frozen_until", {})
    for uid, turn in frozen.items():
        if uid in game.state.units:
            game.state.units[uid].state["frozen_until"] = int(turn)


@hookimpl
def hexwar_game_over(game: Game) -> GameResult | None:
    from hexwar.plugins.firefight.victory import evaluate

    return evaluate(game, final=False)


@hookimpl
def hexwar_turn_end(game: Game) -> None:
    from hexwar.plugins.firefight.victory import random_end

    random_end(game)


@hookimpl
def hexwar_final_result(game: Game) -> GameResult | None:
    from hexwar.plugins.firefight.victory import evaluate

    return evaluate(game, final=True)


@hookimpl
def hexwar_los_rules(game: Game | None, system: str) -> LosRules | None:
    return los_rules(game)


@hookimpl
def hexwar_visible_units(game: Game, side: str) -> Iterable[str] | None:
    """Firefight I is open information (Firefight 5.0), except units not drawn (Scn 7, 9) and what the
    optional rules hide (face-down units, Firefight 11)."""
    hidden = FirefightHooks.of(game).hidden_units(side)
    return [k for k, u in game.state.units.items()
            if k not in hidden and (u.side == side or not u.state.get("not_drawn"))]


SECRET_KEYS = ("weapon",)  # Dragon / RPG-7 assignments are written secretly (Firefight 6.81, 6.9)


@hookimpl
def hexwar_unit_view(game: Game, side: str, unit_id: str) -> dict[str, Any] | None:
    u = game.state.units[unit_id]
    shown = u.to_dict()
    if u.side != side:
        shown["state"] = {k: v for k, v in u.state.items() if k not in SECRET_KEYS}
    over = FirefightHooks.of(game).unit_view(side, unit_id, shown)
    return shown if over is None else over


@hookimpl
def hexwar_describe_state(game: Game, side: str | None) -> dict[str, Any] | None:
    """Public state: impact markers (Firefight 8.8); own side's secret fire plan (Target List, plotted
    missions, Firefight 8.1, 8.2) only for that side (everything for the umpire)."""
    data = ff(game)
    def shown(uid: str | None) -> str | None:
        if uid is None or uid not in game.state.units or side is None:
            return uid
        return uid if game.state.units[uid].side == side else public_ref(game, uid)

    out: dict[str, Any] = {"impacts": list(data.get("impacts", [])),
                           "mover": shown(data.get("mover")),
                           "attacked": [shown(x) for x in data.get("attacked", [])]}
    tl = data.get("target_list", {})
    units = IF.if_units(game)
    out["target_list"] = {s: v for s, v in tl.items() if side is None or s == side}
    out["if_units"] = {k: (v if side is None or v["side"] == side else
                           {"side": v["side"], "type": v["type"], "status": v["status"]})
                       for k, v in units.items()}
    out.update(FirefightHooks.of(game).describe(side))
    return out


__all__ = ["PLUGIN"]


@hookimpl
def hexwar_explain_decision(view: Any, decision: Any) -> str | None:
    """A Firefight decision in words for a player at the terminal (``explain.py``)."""
    from hexwar.plugins.firefight.explain import explain_decision

    return explain_decision(view, decision)
