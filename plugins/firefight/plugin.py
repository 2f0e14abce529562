"""Firefight (SPI, 1976): the system plugin for Firefight I, cases (Firefight 1.0-9.0) and the Addenda."""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from hexwar.core.engine.view import VIEW_CONTEXT
from hexwar.core.kit.stash import StashKey
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


_VICTORY_KEYS: dict[str, tuple[str, ...]] = {  # kind: its required keys (Firefight Scenarios)
    "pass_through": ("side", "else_winner", "area", "count", "by_turn"),
    "occupy_at_end": ("side", "else_winner", "area", "count"),
    "exit_points": ("side", "other", "edge"),
    "exit_more": ("side", "other", "edge"),
    "last_stand": ("defender", "attacker", "area", "radius", "deadline"),
    "clear_and_hold": ("attacker", "defender", "areas", "after"),
    "clear_hill": ("attacker", "defender", "hex", "radius"),
    "points_8": ("crossroads", "radius"),
    "points_9": (),
}


def _schemas(scenario: Scenario) -> dict[str, Any]:
    """The shapes of the Firefight parts of a scenario: [victory], [special], [setup] and a
    unit's starting ``state`` (the keys the system reads, and their types)."""
    from hexwar.core.scenario import IntRange, MapOf, OneOf, Req

    sides = OneOf(tuple(scenario.sides) or ("US", "SU"))
    edge = OneOf(("north", "south", "east", "west"))
    turn = IntRange(0, 1000)
    count = IntRange(0, 100_000)
    side_keys = ("US", "SU")
    victory_shapes: dict[str, Any] = {
        "side": sides, "else_winner": sides, "other": sides, "attacker": sides,
        "defender": sides, "area": str, "areas": [str], "count": count, "by_turn": turn,
        "types": [str], "intact": bool, "edge": edge, "hexes": [str], "radius": count,
        "deadline": turn, "after": turn, "cap": count, "hex": str, "crossroads": str,
    }
    kind = scenario.victory.get("kind")
    required = _VICTORY_KEYS.get(kind, ()) if isinstance(kind, str) else ()
    victory = {"kind": Req(OneOf(tuple(_VICTORY_KEYS))), "random_end_from": turn,
               **{k: Req(v) if k in required else v for k, v in victory_shapes.items()}}
    indirect = [{"id": Req(str), "side": Req(sides), "type": Req(OneOf(tuple(ff_data().if_data))),
                 "status": OneOf(("organic", "direct"))}]
    pair = [[str]]
    special = {
        "ai": MapOf({"edge": str, "objective": str, "posture": str}, keys=side_keys),
        "dragons": count, "rpg7": count, "target_as_personnel": [str],
        "indirect": indirect, "target_lists": MapOf([str], keys=side_keys),
        "frozen_until": MapOf(turn),
        "draw": MapOf({"cup": Req([str]), "count": Req(count), "if_if_drawn": MapOf(str),
                       "indirect": [{"id": Req(str), "type": Req(OneOf(tuple(ff_data().if_data))),
                                     "side": sides, "status": OneOf(("organic", "direct"))}]},
                      keys=side_keys),
        "schedule": [{"side": Req(sides), "unit": Req(str), "hex": Req(str), "turn": Req(turn)}],
        "friendly_minefields": bool,
        "addenda": {"demolished_bridges": pair, "impassable_streams": pair,
                    "impassable_hexsides": pair},
        # read by optional rules, which check them further when enabled
        "mines": MapOf(count, keys=side_keys),
        "minefields": MapOf(MapOf(count), keys=side_keys),
        "improved_positions": MapOf([str], keys=side_keys),
        "dummies": MapOf([str], keys=side_keys),
    }
    zone = {"rows": [int], "cols": [int], "area": str, "within": [(int, str)], "map": str,
            "max": count, "units": [str], "exclude": [str]}
    setup = {"deploy": [{"side": Req(sides), "zones": [zone]}]}
    return {"victory": victory, "special": special, "setup": setup,
            "sides": MapOf({"name": str}),
            "state": {"dummy": bool, "carrier": str}}


def scenario_shapes() -> dict[str, Any]:
    """Firefight's part of the scenario format, by table (docs/scenario-format.md lists every key
    and ``tests/test_scenario_format.py`` checks the list against these shapes)."""
    from types import SimpleNamespace

    shapes = _schemas(cast("Scenario", SimpleNamespace(sides={}, victory={})))
    return {"victory": shapes["victory"], "special": shapes["special"],
            "setup": shapes["setup"], "sides": shapes["sides"],
            "units[].state": shapes["state"]}


@hookimpl
def hexwar_validate_scenario(scenario: Scenario) -> Sequence[Problem]:
    """Every Firefight part of the scenario has the keys and types the system reads (each
    problem at once), names known units and sides, and uses the sides US and SU."""
    from hexwar.core.scenario import shape_problems

    path = scenario.path
    schemas = _schemas(scenario)
    problems: list[Problem] = []
    kind = scenario.victory.get("kind")
    if not isinstance(kind, str) or kind not in _VICTORY_KEYS:
        problems.append(Problem(f"unknown victory kind {kind!r}"[:80], path, "victory.kind",
                                hint="one of " + ", ".join(sorted(_VICTORY_KEYS))))
    for part in ("victory", "special", "setup", "sides"):
        for p in shape_problems(scenario.raw.get(part, {}), schemas[part], path, part):
            if p.key == "victory.kind":
                continue
            if p.key.startswith("special.addenda."):
                p = Problem(f"unknown Addenda option or value: {p.message}", p.path, p.key,
                            p.line, "demolished_bridges, impassable_streams, impassable_hexsides")
            problems.append(p)
    ids = {u.id for u in scenario.units}
    special = scenario.raw.get("special", {})
    special = special if isinstance(special, dict) else {}
    draw = special.get("draw", {})
    for side, spec in draw.items() if isinstance(draw, dict) else ():
        cup = spec.get("cup", []) if isinstance(spec, dict) else []
        missing = [x for x in cup if isinstance(x, str) and x not in ids] if isinstance(
            cup, list) else []
        if missing:
            problems.append(Problem(f"draw cup of {side} names unknown units {missing}",
                                    path, f"special.draw.{side}.cup"))
    frozen = special.get("frozen_until", {})
    for uid in frozen if isinstance(frozen, dict) else ():
        if uid not in ids:
            problems.append(Problem(f"frozen_until names unknown unit {uid!r}", path,
                                    "special.frozen_until"))
    for i, u in enumerate(scenario.units):
        if not u.type.startswith("firefight:"):
            continue
        key = f"units[{i}].state"
        problems.extend(shape_problems(dict(u.state), schemas["state"], path, key))
        carrier = u.state.get("carrier")
        if isinstance(carrier, str) and (carrier not in ids or carrier == u.id):
            problems.append(Problem(f"carrier {carrier[:40]!r} is not another unit of the "
                                    "scenario", path, f"{key}.carrier"))
    for side in scenario.sides:
        if side not in ("US", "SU"):
            problems.append(Problem(f"Firefight sides are US and SU, not {side!r}", path, "sides"))
    if not problems:
        problems.extend(_label_problems(scenario))
    return problems


def _label_problems(scenario: Scenario) -> list[Problem]:
    """Hex labels the system parses during play (some only at the end of the game) must be
    hexes of the board: the victory hex and crossroads, scheduled fire, the optional rules'
    hexes."""
    from hexwar.core.errors import HexwarError
    from hexwar.core.manager import Hooks, build_plugin_manager

    try:
        board = scenario.build_board(Hooks(build_plugin_manager(scenario.system)))
    except HexwarError:
        return []  # the core reports a board that cannot be built
    special = scenario.raw.get("special", {})
    found: list[tuple[str, Any]] = [(f"victory.{k}", scenario.victory[k])
                                    for k in ("hex", "crossroads") if k in scenario.victory]
    found += [(f"special.schedule[{i}].hex", e.get("hex"))
              for i, e in enumerate(special.get("schedule", []))]
    for key in ("dummies", "improved_positions", "target_lists"):
        for side, labels in special.get(key, {}).items():
            found += [(f"special.{key}.{side}[{i}]", x) for i, x in enumerate(labels)]
    problems = []
    for key, label in found:
        try:
            h = board.parse(str(label))
            if not board.contains(h):
                raise ValueError(f"hex {label!r} is off the board")
        except (ValueError, HexwarError) as exc:
            problems.append(Problem(str(exc)[:160], scenario.path, key,
                                    hint="labels look like the board's own (see `hexwar render`)"))
    return problems


@hookimpl
def hexwar_setup_game(game: Game) -> None:
    game.stash[VIEW_CONTEXT] = view_context  # views reuse what they showed (CORE-116)
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


#: whether only the view rules :func:`view_context` knows shape a game's unit views
_KNOWN_VIEWS: StashKey[bool] = StashKey("hexwar.plugins.firefight.plugin._KNOWN_VIEWS")


def view_context(game: Game, side: str) -> Hashable | None:
    """What a Firefight unit view depends on besides the unit's own record (the engine's view
    cache, docs/decisions.md CORE-116 and FFD-47), or ``None`` when the game has a unit view this
    function does not know (a guest system's, an adapter's, a test's), so that every view is
    built afresh.

    The base view (:func:`hexwar_unit_view`) reads the unit alone. Modified Observation
    (Firefight 11.0, 16.21) also reads the aliases of face-down counters and, for a vehicle's
    passengers, which units are in the game and which are exposed: those make the token. Reads
    only (CORE-90): nothing is written to the state."""
    known = game.stash.get(_KNOWN_VIEWS)
    if known is None:
        known = game.stash[_KNOWN_VIEWS] = _only_known_views(game)
    if not known:
        return None
    facade = FirefightHooks.of(game)
    if facade.hook.firefight_unit_view not in facade.live:
        return ()
    units = game.state.units
    seen = game.state.data.get("firefight.observation", {})
    return (repr(seen.get("alias")), tuple(units),
            tuple(k for k, u in units.items() if u.state.get("r16_exposed")))


def _only_known_views(game: Game) -> bool:
    from hexwar.core import defaults
    from hexwar.plugins.firefight.rules import observation

    hook = game.pm.hook
    return ({i.function for i in hook.hexwar_unit_view.get_hookimpls()}
            <= {hexwar_unit_view, defaults.hexwar_unit_view}
            and {i.function for i in hook.firefight_unit_view.get_hookimpls()}
            <= {observation.firefight_unit_view})


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


@hookimpl
def hexwar_describe_event(game: Game | None, record: Mapping[str, Any]) -> str | None:
    """A Firefight log record in words, with its rule (``words.py``)."""
    from hexwar.plugins.firefight.words import describe_event

    return describe_event(game, record)


@hookimpl
def hexwar_side_rules(game: Game, view: Any) -> Any:
    """The rules computations a Firefight controller may make (``knowledge.py``, CORE-55)."""
    from hexwar.plugins.firefight.knowledge import side_rules

    return side_rules(game, view)


@hookimpl
def hexwar_present_decision(view: Any, decision: Any) -> dict[str, Any] | None:
    """A Firefight decision as a form of the web table (``present.py``)."""
    from hexwar.plugins.firefight.present import present_decision

    return present_decision(view, decision)
