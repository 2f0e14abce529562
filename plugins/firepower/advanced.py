"""Firepower Advanced Game (Firepower 8-14) as the system's Advanced mode: a plugin of the
Firepower system a scenario turns on with ``rules = ["firepower.advanced"]`` (or
``--option firepower.advanced``; docs/decisions.md FPD-42, as MBTD-50 for MBT). It replaces the
Basic Mix and Impulse Phases with the Advanced ones (Firepower 9;
:func:`hexwar.plugins.firepower.sequence.advanced_edits`) and answers Firepower's own hooks; each
hook is a thin call into the module of its rule:

* ``hexwar_sequence_edits``: squads with their own sequence units and Impulses, "Hit the Dirt!",
  unlimited Impulses before the first combat (Firepower 9.1, 9.2, 11.3.2, 11.3.3;
  :mod:`~hexwar.plugins.firepower.advanced_impulses`);
* ``firepower_action_types``: the leader's activation of other soldiers (Firepower 11.4) and
  backing (Firepower 11.2.1.2; :mod:`~hexwar.plugins.firepower.advanced_actions`);
* ``firepower_mf_modifiers``: the leaders' fifth MF (Firepower 11.1) and the WEAPON CHART's Move
  column (Firepower 10.7 item 9; :mod:`~hexwar.plugins.firepower.weapon_chart`);
* ``firepower_fire_steps``, ``firepower_prepare_fire``, ``firepower_fire_applied``: the
  Advanced fire procedures (Firepower 12; :mod:`~hexwar.plugins.firepower.advanced_fire`), the
  Posture columns among their modifiers (Firepower 12.2.1);
* ``firepower_melee_modifiers``, ``firepower_melee_defenders``: the Advanced melee (Firepower
  13; :mod:`~hexwar.plugins.firepower.advanced_melee`), meeting only who shares a height;
* ``firepower_impulse_phase_end``: demolition charges (Firepower 12.4.9);
* ``hexwar_los_rules``: the line of sight by heights (Firepower 12.1;
  :mod:`~hexwar.plugins.firepower.advanced_los`);
* the terrain of buildings, trees, water, craters, tunnels and mines, the defender's secret
  set-up and the Turn Record removals (Firepower 8.2-8.8, 9.3, 11.1.3-11.1.11, 11.2;
  :mod:`~hexwar.plugins.firepower.buildings`, :mod:`~hexwar.plugins.firepower.hidden_setup`,
  :mod:`~hexwar.plugins.firepower.advanced_terrain`); ``hexwar_visible_units`` hides the other
  side's soldiers in tunnels (Firepower 8.8.8); the attacker learns the tunnels hex by hex
  (Firepower 11.5; :mod:`~hexwar.plugins.firepower.tunnels`).

What the Advanced Game covers and what it does not yet: docs/firepower-advanced.md.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from hexwar.core.markers import hookimpl
from hexwar.core.types import Modifier, PluginManifest, SequenceEdit

if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence
    from typing import Any

    from hexwar.core.engine.game import Game
    from hexwar.core.hexgrid import Hex
    from hexwar.core.los import LosRules
    from hexwar.plugins.firepower.actions import ActionType
    from hexwar.plugins.firepower.advanced_los import Obstacle
    from hexwar.plugins.firepower.combat import FireContext, FireEdit
    from hexwar.plugins.firepower.soldiers import Soldier

PLUGIN = PluginManifest(
    name="firepower.advanced", system="firepower", kind="rule",
    title="Firepower Advanced Game (Firepower 8-14), first part",
    summary="Squads with their own sequence units and Impulses, lettered sequence units, "
            "unlimited Impulses before the first combat, Hit the Dirt!, leaders' five MF and "
            "activation, backing, the WEAPON CHART (stand-in rows), the line of sight by heights "
            "with the LOS chart, the fire types A, C, F, G, H, L, M, U, W, smoke, illumination, "
            "demolition charges, crews, the Advanced melee; buildings with floors, doors and "
            "windows, trees, water, craters, tunnels, mines and the defender's secret set-up "
            "(docs/firepower-advanced.md).",
    implements=("Firepower 8.2.1", "Firepower 8.2.2", "Firepower 8.2.3", "Firepower 8.2.5",
                "Firepower 8.7", "Firepower 8.8.7", "Firepower 8.8.8", "Firepower 8.8.9", "Firepower 9.3",
                "Firepower 11.1.3", "Firepower 11.1.8", "Firepower 11.1.9", "Firepower 11.1.10",
                "Firepower 11.1.11", "Firepower 11.2.1.1", "Firepower 11.2.3", "Firepower 9.1",
                "Firepower 9.2", "Firepower 10.5.2", "Firepower 10.7",
                "Firepower 11.1", "Firepower 11.2.1", "Firepower 11.3.2", "Firepower 11.3.3",
                "Firepower 11.4", "Firepower 11.5", "Firepower 12.1", "Firepower 12.2",
                "Firepower 12.3", "Firepower 12.4.2", "Firepower 12.4.9", "Firepower 12.7.1",
                "Firepower 13", "Firepower 8.8", "Firepower 8.8.1", "Firepower 8.8.2",
                "Firepower 8.8.3", "Firepower 8.8.4", "Firepower 12.2.9", "Firepower 12.4.7",
                "Firepower 10.2", "Firepower 11.1.12", "Firepower 11.1.13",
                "Firepower 8.8.4.2", "Firepower 8.8.5.1", "Firepower 8.8.5.2",
                "Firepower 8.8.5.3", "Firepower 8.8.6", "Firepower 12.1.5", "Firepower 8.5",
                "Firepower 10.1", "Firepower 11.1.6", "Firepower 12.4.1.1", "Firepower 12.4.1.2",
                "Firepower 12.7.2", "Firepower 8.8.5.4", "Firepower 8.9",
                "Firepower 10.4", "Firepower 10.4.1", "Firepower 10.4.2", "Firepower 10.4.3",
                "Firepower 10.4.4", "Firepower 10.4.5", "Firepower 10.4.6", "Firepower 11.2.2",
                "Firepower 11.2.5", "Firepower 8.4", "Firepower 22.1.11.1.1",
                "Firepower 11.1.4", "Firepower 8.2.4", "Firepower 11.3.1", "Firepower 14.1.2",
                "Firepower 11.1.1"),
)

__all__ = ["PLUGIN"]


@hookimpl
def hexwar_sequence_edits(system: str) -> list[SequenceEdit]:
    from hexwar.plugins.firepower.hidden_setup import sequence_edits
    from hexwar.plugins.firepower.sequence import advanced_edits

    # Firepower 8.7, 8.8, 9.3: craters, the Advanced set-up, the secret records, the removals
    return [*advanced_edits(), *sequence_edits()]


@hookimpl
def firepower_action_types() -> list[ActionType]:
    from hexwar.plugins.firepower.advanced_actions import BACK
    from hexwar.plugins.firepower.advanced_impulses import ACTIVATE
    from hexwar.plugins.firepower.buildings import ACTION_TYPES
    from hexwar.plugins.firepower.climbing import SCALE
    from hexwar.plugins.firepower.cover_sides import COVER_SIDE
    from hexwar.plugins.firepower.crews import ACQUIRE, ARM, DISCARD
    from hexwar.plugins.firepower.defenses import POSITION, TOWER_MELEE
    from hexwar.plugins.firepower.detonate import DETONATE
    from hexwar.plugins.firepower.exits import EXIT
    from hexwar.plugins.firepower.hidden_setup import TUNNEL
    from hexwar.plugins.firepower.loading import ACTION_TYPES as LOADING

    # Firepower 11.1.3-11.1.12, 11.2: stairs, doors, windows, climbing, water, loading; 8.8.8
    # tunnels; 8.8.1 in and out of foxholes, trenches and bunkers; 11.1.13 detonating a mine
    return [ACTIVATE, BACK, ACQUIRE, DISCARD, ARM, *ACTION_TYPES, TUNNEL, *LOADING, SCALE, DETONATE,
            POSITION, TOWER_MELEE, COVER_SIDE, EXIT]  # 10.4.3 cover sides, 10.2 exits


@hookimpl
def hexwar_visible_units(game: Game, side: str) -> list[str]:
    """Firepower 8.8.8, 11.5: the other side's soldiers in tunnels are not seen."""
    from hexwar.plugins.firepower.hidden_setup import visible_units

    return visible_units(game, side)


@hookimpl
def hexwar_unit_view(game: Game, side: str, unit_id: str) -> dict[str, Any] | None:
    """Firepower 8.5: a soldier's organization list is his own side's paper: the other side sees
    the counter, its weapon, posture and place, not the rounds, grenades and other equipment he
    carries (FPD-109). His own side (and the core's default) sees everything."""
    u = game.state.units[unit_id]
    if u.side == side or "equipment" not in u.state:
        return None
    d = u.to_dict()
    d["state"] = {k: v for k, v in d["state"].items() if k != "equipment"}
    return d


@hookimpl
def firepower_mf_modifiers(game: Game, unit_id: str) -> list[Modifier]:
    """Firepower 11.1: a leader has 5 MF; Firepower 10.7 item 9: the weapon's Move column;
    Firepower 10.1: crews."""
    from hexwar.plugins.firepower.squads import mf_bonus, rank_of
    from hexwar.plugins.firepower.weapon_chart import weapon

    u = game.state.units[unit_id]
    out: list[Modifier] = []
    bonus = mf_bonus(rank_of(u))
    if bonus:
        out.append(Modifier("leader", bonus, "Firepower 11.1"))
    model = u.state.get("model")
    if isinstance(model, str):
        move = weapon(model).move
        if move:
            out.append(Modifier(f"{model} Move column", move, "Firepower 10.7"))
    from hexwar.plugins.firepower.crews import crew_mf

    out.extend(crew_mf(game, unit_id))  # Firepower 10.1.1, 10.1.2.1
    return out


@hookimpl
def firepower_fire_steps(game: Game, kind: str) -> list[FireEdit]:
    """Firepower 12: the Advanced fire steps in place of the Basic ones
    (:mod:`~hexwar.plugins.firepower.advanced_fire`)."""
    from hexwar.plugins.firepower.advanced_fire import steps_for

    return steps_for(kind)


@hookimpl
def firepower_prepare_fire(game: Game, ctx: FireContext, choice: Mapping[str, Any]) -> None:
    from hexwar.plugins.firepower.advanced_fire import prepare

    prepare(game, ctx, choice)


@hookimpl
def firepower_fire_applied(game: Game, ctx: FireContext) -> None:
    """Firepower 12.3.3, 12.3.7-12.3.9: smoke and illumination marked, items used up."""
    from hexwar.plugins.firepower.advanced_fire import applied
    from hexwar.plugins.firepower.defenses import fire_applied

    applied(game, ctx)
    fire_applied(game, ctx)  # Firepower 12.3.4.2: towers, abatis and the others destroyed


@hookimpl
def firepower_melee_defenders(game: Game, attackers: Sequence[str], defenders: Sequence[str],
                              hex: Hex) -> list[str]:
    """Firepower 13: a melee meets only the defenders sharing a height with an attacker (not
    those on a tower's floor or Up a tree over the attackers' heads; FPD-131)."""
    from hexwar.plugins.firepower.advanced_melee import met_defenders

    return met_defenders(game, attackers, defenders, hex)


@hookimpl
def firepower_melee_modifiers(game: Game, attackers: Sequence[str], defenders: Sequence[str],
                              hex: Hex) -> list[Modifier]:
    """Firepower 13: shared heights and the Advanced melee modifiers."""
    from hexwar.plugins.firepower.advanced_melee import melee_modifiers

    return melee_modifiers(game, attackers, defenders, hex)


@hookimpl
def firepower_impulse_phase_end(game: Game, side: str) -> None:
    """Firepower 12.4.9: demolition charges armed in the side's previous Impulse Phase explode."""
    from hexwar.plugins.firepower.advanced_fire import explode_due

    explode_due(game, side)


@hookimpl
def firepower_los_obstacles(game: Game, a: Hex, b: Hex, hexes: tuple[Hex, ...],
                            ends: tuple[Soldier | None, Soldier | None]) -> list[Obstacle]:
    """Firepower 8.2.3, 8.8.8, 12.1.6, 12.5: the Advanced terrain's buildings, walls and tunnels
    on an Advanced line of sight (docs/decisions.md FPD-70)."""
    from hexwar.plugins.firepower import defenses
    from hexwar.plugins.firepower.advanced_terrain import los_obstacles
    from hexwar.plugins.firepower.caves import los_obstacles as caves

    # Firepower 8.8.2, 10.5.2, 8.8.4.2, 12.1.5: the rim of a foxhole or trench around a soldier
    # in it, a pillbox's loophole, the heights of defensive units between
    from hexwar.plugins.firepower.cover_sides import los_obstacles as stumps

    return [*los_obstacles(game, a, b, hexes, ends),
            *defenses.los_obstacles(game, ends, a, b, hexes),
            *stumps(game, hexes, a, b),  # Firepower 10.4.6, 12.1.5: stumps and wells between
            *caves(game, a, b, hexes, ends)]  # Firepower 8.8.7: a cave's hill and its mouth


@hookimpl(tryfirst=True)
def hexwar_los_rules(game: Game | None, system: str) -> LosRules | None:
    """Firepower 12.1: ``hexwar los`` and the core line of sight read the Advanced heights."""
    if game is None or system != "firepower":
        return None
    from hexwar.plugins.firepower.advanced_los import AdvancedLos

    return AdvancedLos(game)


@hookimpl
def hexwar_setup_game(game: Game) -> None:
    """Firepower 8.8: the scenario's defensive units are checked before play (a bad one stops
    the game before it starts, naming the rule)."""
    if game.scenario.system != "firepower":
        return
    from hexwar.plugins.firepower.defenses import defences

    defences(game)
    from hexwar.plugins.firepower.holding_box import check_boxes

    check_boxes(game)  # Firepower 8.4: one position a box on the Holding Box Card
    from hexwar.plugins.firepower.nations import check_nations

    check_nations(game)  # Firepower 8.5: each side's National Equipment List
    from hexwar.plugins.firepower.defenses import check_missile_places

    check_missile_places(game)  # Firepower 12.4.6: no missile unit in a cave (FPD-114)
    from hexwar.plugins.firepower import weapon_units
    from hexwar.plugins.firepower.ammunition import check_stocks

    check_stocks(game)  # Firepower 8.5, 11.1.12: the rounds the organization lists give
    weapon_units.setup(game)  # Firepower 10.1: the weapon units on the board
