"""The Firepower system plugin: the manifest and the core hook implementations of the Basic Game
(Firepower 1-7). Each hook is thin: it delegates to the rules modules. The core calls the game
hooks only for games of this system (host-system dispatch), so none asks whose game it is."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
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
from hexwar.plugins.firepower import hookspecs
from hexwar.plugins.firepower.hookspecs import FirepowerHooks

if TYPE_CHECKING:
    import click
    import pluggy

    from hexwar.core.engine.decisions import Decision
    from hexwar.core.engine.game import Game
    from hexwar.core.engine.view import SideView
    from hexwar.core.los import LosRules
    from hexwar.core.scenario import Scenario
    from hexwar.core.tables import Disclosed

SYSTEM = "firepower"
HERE = Path(__file__).parent

PLUGIN = PluginManifest(
    name=SYSTEM,
    system=SYSTEM,
    kind="system",
    title="Firepower (Avalon Hill): Basic Game",
    summary="Individual soldiers, blind sequence-unit draws, Impulses of Actions (Firepower 1-7).",
    implements=("Firepower 1", "Firepower 2", "Firepower 3", "Firepower 4", "Firepower 5",
                "Firepower 6", "Firepower 7"),
    version="0.1",
)

WEAPONS = {"LMG": "light machinegun", "PST": "pistol", "RFL": "rifle"}


@hookimpl
def hexwar_add_hookspecs(pluginmanager: pluggy.PluginManager) -> None:
    pluginmanager.add_hookspecs(hookspecs)


@hookimpl
def hexwar_register_systems() -> Sequence[SystemInfo]:
    from hexwar.core.units import Q_, Scale

    scale = Scale(
        SYSTEM, Q_(5, "yard"), Q_(3, "foot"), Q_(30, "second"),
        notes="hex about five yards and Turn about thirty seconds: an outside OCR of the Basic "
              "Game introduction, unverified (docs/decisions.md FPD-2); a height averages three "
              "feet (Firepower 8.2.2)",
        rule="Firepower 8.2.2",
    )
    return [SystemInfo(SYSTEM, "Firepower", "Avalon Hill", scale, ("d10",), ("A", "B"),
                       rule="Firepower 1.3",
                       notes="decimal die, 0 reads 10 (Firepower 1.3); side A tan, side B green "
                             "(Firepower 1.2)",
                       hooks=FirepowerHooks)]


@hookimpl
def hexwar_register_phases(system: str) -> Sequence[PhaseSpec]:
    from hexwar.plugins.firepower.sequence import PHASES

    return list(PHASES)


@hookimpl
def hexwar_register_unit_types() -> Sequence[UnitType]:
    return [UnitType(f"{SYSTEM}:{code}", f"soldier with {name} ({code})", "soldier",
                     {"weapon": code}, {"weapon": "Firepower 1.2.1"})
            for code, name in WEAPONS.items()]


@hookimpl
def hexwar_register_terrain() -> Sequence[TerrainType]:
    return [
        TerrainType(f"{SYSTEM}:clear", "clear", "Firepower 1.1", "#e8e4c9"),
        TerrainType(f"{SYSTEM}:tree", "tree", "Firepower 6.3.6.2.2", "#5f8f4e",
                    {"cover": True, "concealment": True, "los_modifier": 1}),
        TerrainType(f"{SYSTEM}:rough", "rough", "Firepower 6.3.6.2.2", "#b59f7a",
                    {"cover": True}),
        TerrainType(f"{SYSTEM}:scrub", "scrub", "Firepower 6.3.6.2.3", "#a9c27a",
                    {"concealment": True}),
        TerrainType(f"{SYSTEM}:hill", "hill (height > 0: contour levels)", "Firepower 6.3.4.1",
                    "#c9a66b", {"blocks": True}),
        TerrainType(f"{SYSTEM}:depression", "depression (height < 0)", "Firepower 6.3.4.4",
                    "#9fb7c9"),
        # Firepower 11.2.2: open ground where mud costs nothing extra (weather.py)
        TerrainType(f"{SYSTEM}:pavement", "pavement", "Firepower 11.2.2", "#bdbdb5"),
        TerrainType(f"{SYSTEM}:paved_road", "paved road", "Firepower 11.2.2", "#a8a8a0"),
        TerrainType(f"{SYSTEM}:alley", "alley", "Firepower 11.2.2", "#b3b0a6"),
    ]


@hookimpl
def hexwar_register_data() -> Sequence[DataSource]:
    return [
        DataSource(f"{SYSTEM}:basic-card", HERE / "data" / "tables", "tables",
                   "Basic Game Card charts (Firepower 6.2, Firepower 6.3)"),
        DataSource(f"{SYSTEM}:weapons", HERE / "data" / "weapons.toml", "cards",
                   "Basic Game weapons: rates of fire and ranges (Firepower 6.3.2, "
                   "Firepower 6.3.5)"),
        DataSource(f"{SYSTEM}:panel-1", HERE / "data" / "panels" / "panel1.toml", "panel",
                   "Firepower panel 1 (stand-in, docs/decisions.md FPD-3)"),
        DataSource(f"{SYSTEM}:panel-2", HERE / "data" / "panels" / "panel2.toml", "panel",
                   "Firepower panel 2 (stand-in, docs/decisions.md FPD-3)"),
        DataSource(f"{SYSTEM}:basic", HERE / "scenarios" / "basic.toml", "scenario",
                   "The Basic Game Scenario (Firepower 2, Firepower 7)"),
        DataSource(f"{SYSTEM}:advanced-meeting", HERE / "scenarios" / "advanced-meeting.toml",
                   "scenario", "hexwar's own Advanced Game scenario (Firepower 8-14, "
                   "docs/firepower-advanced.md)"),
        # the Advanced Game's stand-in terrain (docs/decisions.md FPD-60) and squads (FPD-67)
        *(DataSource(f"{SYSTEM}:panel-{n}", HERE / "data" / "panels" / f"panel{n}.toml", "panel",
                     f"Firepower panel {n} (hexwar's stand-in, docs/decisions.md FPD-60)")
          for n in (3, 4)),
        *(DataSource(f"{SYSTEM}:terrain-{n}", HERE / "data" / "advanced" / f"terrain-{n}.toml",
                     "cards", f"Advanced terrain of panel {n}: heights, water, trees, walls, "
                     "buildings (Firepower 8.2, estimated)") for n in (1, 2, 3, 4)),
        DataSource(f"{SYSTEM}:squads", HERE / "data" / "advanced" / "squads.toml", "cards",
                   "squad organizations and groups (Firepower 8.5, 14, 26.2)"),
        DataSource(f"{SYSTEM}:street-fight", HERE / "scenarios" / "street-fight.toml",
                   "scenario", "hexwar's own Advanced Game scenario: a street fight "
                   "(docs/firepower-advanced.md)"),
        DataSource(f"{SYSTEM}:hill-assault", HERE / "scenarios" / "hill-assault.toml",
                   "scenario", "hexwar's own Advanced Game scenario: an assault on a hill "
                   "(docs/firepower-advanced.md)"),
        DataSource(f"{SYSTEM}:advanced-weapons", HERE / "data" / "advanced" / "weapons.toml",
                   "cards", "stand-in WEAPON CHART rows (Firepower 10.7, estimated)"),
        DataSource(f"{SYSTEM}:advanced-card", HERE / "data" / "advanced_card", "tables",
                   "Advanced Game Card stand-ins: LOS chart, modifiers, blast diagrams, hit "
                   "numbers (Firepower 10.7, Firepower 12)"),
        # the LEG chart's stand-ins and the National Equipment Lists (FPD-166, 167, 169, 170)
        *(DataSource(f"{SYSTEM}:{name}", HERE / "data" / "advanced" / f"{name}.toml", "cards",
                     title) for name, title in (
            ("weather", "snow and mud's extra MF (Firepower 11.2.2, estimated)"),
            ("leg_notes", "the Actions of the LEG chart's note (e) (Firepower 11.2.5, "
                          "estimated)"),
            ("height_hexsides", "MF of crossing height hexsides (Firepower 11.1.4, estimated)"),
            ("nations", "National Equipment Lists (Firepower 8.5, 22.1.11.1.1)"),
            # the Advanced Game's other stand-ins (FPD-139, 141, 151, 154, 156)
            ("defenses", "defensive units: terrain values, heights, sides (Firepower 8.8, "
                         "estimated)"),
            ("hit_location", "where in a hex a hit lands (Firepower 12.7, estimated)"),
            ("cover_sides", "the hexsides a tree's, stump's or well's places cover "
                            "(Firepower 10.4, estimated)"),
            ("loopholes", "loophole heights and wall value (Firepower 8.2.4, estimated)"),
            ("openings", "the roll to pass a door or window (Firepower 12.7.3)"),
            ("rests", "weapon rows that need a rest (Firepower 10.7 item 10, 12.6.2)"),
            ("building_values", "damage that destroys openings, roofs and walls "
                                "(Firepower 12.3.4.2.7, estimated)"),
            ("caves", "the damage that destroys a cave (Firepower 8.8.7, 12.3.4.2.2, "
                      "estimated)"))),
    ]


@hookimpl
def hexwar_register_disclosed() -> Sequence[Disclosed]:
    from hexwar.plugins.firepower.advanced_card import disclosed as advanced_disclosed
    from hexwar.plugins.firepower.tables import disclosed

    return [*disclosed(), *advanced_disclosed()]


@hookimpl
def hexwar_register_controllers() -> Sequence[ControllerSpec]:
    from hexwar.plugins.firepower.ai import make_ai

    return [ControllerSpec("ai", SYSTEM, make_ai,
                           "Firepower AI: cover and posture, good shots, grenades at stacks, "
                           "melee at favourable odds")]


@hookimpl
def hexwar_register_commands(group: click.Group) -> None:
    from hexwar.plugins.firepower.cli import firepower

    if "firepower" not in group.commands:
        group.add_command(firepower)


def scenario_shapes() -> dict[str, Any]:
    """Firepower's part of the scenario format, by table (docs/scenario-format.md lists every key;
    ``tests/test_scenario_format.py`` checks it): per side ``sequence_units`` and ``impulses``
    (Firepower 6.1), ``[setup] depth``, ``[special] fold`` (Firepower 7), no victory keys."""
    from hexwar.core.scenario import IntRange, MapOf, OneOf

    return {
        "sides": MapOf({"title": str, "sequence_units": IntRange(1, 100),
                        "impulses": IntRange(1, 100),
                        # Firepower 8.5, 9.1: the Advanced Game's squads, each with its P and I
                        "squads": MapOf({"sequence_units": IntRange(1, 26),
                                         "impulses": IntRange(1, 100),
                                         # Firepower 14: the squad's organization as data
                                         "organization": str}),
                        # Firepower 14.1: the side's squad group
                        "group": IntRange(1, 100),
                        # Firepower 8.5, 22.1.11.1.1: its National Equipment List (nations.py)
                        "nation": str}),
        "setup": {"depth": IntRange(1, 1000)},
        # Firepower 8.2, 8.2.2, 8.7, 8.8.8, 8.8.9, 12.2.11, 12.5: the Advanced terrain files,
        # heights, Observation Conditions, the attacker, his crater units, tunnels, mines and
        # defensive units
        "special": {"fold": str, "heights_per_level": IntRange(1, 20),
                    "observation": IntRange(1, 3), "tree_height": IntRange(1, 30),
                    # Firepower 11.2.2: snow or mud's extra MF (weather.py)
                    "weather": OneOf(("clear", "snow", "mud")),
                    "hedge_height": IntRange(1, 10), "fence_height": IntRange(1, 10),
                    "terrain": [str],
                    "attacker": str, "attacker_side": OneOf(("5/6", "2/3")),
                    "craters": {"single": IntRange(0, 100), "double": IntRange(0, 100)},
                    "tunnels": IntRange(0, 100), "mines": [OneOf(("PMN1", "PMN2"))],
                    # Firepower 8.8, 8.8.4, 8.8.6: the defender's defensive units (defenses.py)
                    "defenses": [{"type": str, "hex": str, "door": IntRange(1, 6),
                                  "sandbagged": bool, "sides": [IntRange(1, 6)],
                                  # Firepower 8.9: a bridge's hexes and originating hexes
                                  "hexes": [str], "ends": [str],
                                  # Firepower 12.7.4: a foxhole's side of a fence hex (FPD-136)
                                  "side": IntRange(1, 6),
                                  # Firepower 8.4, 8.8.1: its box on the Holding Box Card
                                  "box": IntRange(1, 100)}],
                    # Firepower 10.1, 11.1.6: weapon units on the board (weapon_units.py)
                    "weapon_units": [{"id": str, "model": str, "side": str, "hex": str,
                                      "facing": IntRange(1, 6)}],
                    # Firepower 10.4.6: stump and well hexes (cover_sides.py, FPD-139)
                    "stumps": [str], "wells": [str],
                    # Firepower 10.2: the board sides each side may exit by (exits.py, FPD-140)
                    "exits": MapOf([OneOf(("5/6", "2/3"))]),
                    # Firepower 8.2.4: loopholes in building walls (loopholes.py, FPD-141)
                    "loopholes": [{"between": [str], "floor": IntRange(1, 20)}]},
        # Firepower 23.6: hexwar's own scenarios' casualties and survivors (FPD-68)
        "victory": {"casualty": IntRange(0, 100), "survivor": IntRange(0, 100),
                    "objective": [str], "objective_hexes": [str],
                    "objective_points": IntRange(0, 100),
                    "objective_side": str,
                    # Firepower 10.2: points per own soldier exited (FPD-140)
                    "exit_points": IntRange(0, 100)},
    }


@hookimpl
def hexwar_validate_scenario(scenario: Scenario) -> Sequence[Problem]:
    """The Firepower parts of a scenario: per side ``sequence_units`` and ``impulses``
    (Firepower 6.1), ``[setup] depth``, ``[special] fold`` (Firepower 7); two sides."""
    from hexwar.core.scenario import shape_problems

    path = scenario.path
    problems: list[Problem] = []
    for part, shape in scenario_shapes().items():
        value = dict(scenario.sides) if part == "sides" else scenario.raw.get(part, {})
        problems.extend(shape_problems(value, shape, path, part))
    special = scenario.raw.get("special", {})
    fold = special.get("fold") if isinstance(special, dict) else None
    if isinstance(fold, str) and not (fold.isascii() and fold.isalpha() and len(fold) <= 3):
        problems.append(Problem("special.fold names the fold's column letters", path,
                                "special.fold", hint='e.g. fold = "Q"'))
    if len(scenario.sides) != 2:
        problems.append(Problem("the Basic Game is played by two sides", path, "sides"))
    from hexwar.plugins.firepower.organizations import organization_problems

    units = [u for u in scenario.raw.get("units", []) if isinstance(u, dict)]
    for text in organization_problems(dict(scenario.sides), units):
        problems.append(Problem(text, path, "sides"))  # Firepower 8.5, 14
    from hexwar.plugins.firepower.organizations import listing_problems, squad_group_problems

    guns = special.get("weapon_units") if isinstance(special, dict) else None
    guns = [g for g in guns if isinstance(g, dict)] if isinstance(guns, list) else []
    for text in listing_problems(units, guns):
        problems.append(Problem(text, path, "units", hint="a GMG is listed as LMGn (bipod) or "
                                "MMGn (tripod)"))  # Firepower 10.7 item 2

    for text in squad_group_problems(dict(scenario.sides)):
        problems.append(Problem(text, path, "sides", hint="choose squads of the side's group "
                                "in data/advanced/squads.toml"))  # Firepower 14.1.2
    return problems


@hookimpl
def hexwar_setup_game(game: Game) -> None:
    from hexwar.core.engine.view import VIEW_CONTEXT
    from hexwar.plugins.firepower.setup import setup_units
    from hexwar.plugins.firepower.state import view_context

    setup_units(game)
    game.stash[VIEW_CONTEXT] = view_context  # views reuse what they showed (CORE-130)


@hookimpl
def hexwar_final_result(game: Game) -> GameResult | None:
    from hexwar.plugins.firepower.victory import final_result

    return final_result(game)


@hookimpl
def hexwar_los_rules(game: Game | None, system: str) -> LosRules | None:
    if game is None:  # the rules need a board's fence and hedge pictures
        return None
    from hexwar.plugins.firepower.los import FirepowerLos
    from hexwar.plugins.firepower.state import fp_map

    return FirepowerLos(fp_map(game))


@hookimpl
def hexwar_describe_state(game: Game, side: str | None) -> dict[str, Any] | None:
    from hexwar.plugins.firepower.state import data
    from hexwar.plugins.firepower.victory import victory_points

    d = data(game)
    # Firepower 6.1: no player may examine drawn or undrawn sequence units; only counts show.
    out = {"sequence_units_left": len(d.get("cup", [])), "drawn": d.get("drawn", 0),
           "board_side": d.get("board_side", {}), "phase": _phase_view(game, side, d),
           "victory_points": victory_points(game)}
    if d.get("charges"):
        # Firepower 12.4.9, 11.1.13: an armed charge is announced and marked by a unit: public
        out["charges"] = [{"hex": c["hex"], "side": c["side"], "due": c["due"]}
                          for c in d["charges"]]
    if "secret" in d or "craters" in d or "openings" in d:
        # Advanced Game: the craters and the doors' and windows' states are public (Firepower
        # 8.7, 11.1.9); a side's secret records (Firepower 8.8.8, 8.8.9) are its own alone
        out["craters"] = dict(d.get("craters") or {})
        out["openings"] = dict(d.get("openings") or {})
        v = game.scenario.raw.get("victory") or {}
        # the scenario's objectives are printed, so public (Firepower 23.6, FPD-68)
        out["objectives"] = _objective_labels(game)
        out["objective_side"] = v.get("objective_side")
        secrets = d.get("secret") or {}
        out["secret"] = (dict(secrets) if side is None else dict(secrets.get(side) or {}))
        from hexwar.plugins.firepower.tunnels import attacker_in_tunnels

        # Firepower 11.5: the attacker's tunnel hex numbers are known to the defender (FPD-85)
        out["attacker_in_tunnels"] = attacker_in_tunnels(game)
    if (game.scenario.raw.get("special") or {}).get("defenses"):
        from hexwar.plugins.firepower.holding_box import cards

        # Firepower 8.4, 8.8.1: the Holding Box Cards by the mapboard (holding_box.py)
        out["holding_boxes"] = cards(game, side)
    return out


def _phase_view(game: Game, side: str | None, d: dict[str, Any]) -> Any:
    """Firepower 11.5: the Impulse Phase's record less what ``side`` may not know of soldiers in
    tunnels (``tunnels.phase_view``, docs/decisions.md FPD-137)."""
    ph = d.get("phase")
    if not ph or "secret" not in d:  # the Basic Game has no tunnels
        return ph
    from hexwar.plugins.firepower.tunnels import phase_view

    return phase_view(game, side, ph)


def _objective_labels(game: Game) -> list[str]:
    from hexwar.plugins.firepower.advanced_terrain import adv_map

    v = game.scenario.raw.get("victory") or {}
    names = {str(b) for b in v.get("objective", [])}
    hexes = {str(x) for x in v.get("objective_hexes", [])}
    if names:
        m = adv_map(game)
        hexes |= {game.board.label(h) for h, b in m.building_of.items() if b in names}
    return sorted(hexes)


@hookimpl
def hexwar_explain_decision(view: SideView, decision: Decision) -> str | None:
    """A terminal player's view of a Firepower decision, its options numbered from 1 as the
    terminal reads them (each soldier's markers and MF left, each choice in words)."""
    from hexwar.core.engine.view import game_of
    from hexwar.plugins.firepower.explain import explain_decision

    return explain_decision(game_of(view), decision)


@hookimpl
def hexwar_side_rules(game: Game, view: Any) -> Any:
    """The rules computations a Firepower controller may make (``knowledge.py``, CORE-55)."""
    from hexwar.plugins.firepower.knowledge import side_rules

    return side_rules(game, view)


@hookimpl
def hexwar_describe_event(game: Game | None, record: Mapping[str, Any]) -> str | None:
    """A Firepower log record in words, with its rule (``words.py``)."""
    from hexwar.plugins.firepower.words import describe_event

    return describe_event(game, record)


@hookimpl
def hexwar_present_decision(view: SideView, decision: Decision) -> dict[str, Any] | None:
    """A Firepower decision as a form of the web table (``present.py``)."""
    from hexwar.plugins.firepower.present import present_decision

    return present_decision(view, decision)
