"""MBT Advanced Game (MBT 10.0-16.0) as the system's Advanced mode: a plugin of the MBT system
that a scenario turns on with ``rules = ["mbt.advanced"]`` (or ``--option mbt.advanced``;
docs/decisions.md MBTD-50). It replaces the Basic Sequence of Play with the Advanced one
(MBT 11.0, :func:`hexwar.plugins.mbt.sequence.advanced_edits`) and answers MBT's own hooks with the
Advanced rules; each hook is a thin call into the module of its rule:

* ``mbt_sees``: Advanced sighting and line of sight (MBT 12.3.1, 13.1, 13.2;
  :mod:`~hexwar.plugins.mbt.advanced_sighting`);
* ``mbt_unit_height``: units at their hex's ground height (MBT 12.1);
* ``mbt_orders``: the limits of suppression on orders (MBT 12.3.3;
  :mod:`~hexwar.plugins.mbt.advanced_orders`);
* ``mbt_movement_allowance``: half for a suppressed vehicle (MBT 12.3.3.1;
  :mod:`~hexwar.plugins.mbt.suppression`);
* ``mbt_shot_situation``, ``mbt_ap_modifiers``, ``mbt_after_damage``, ``mbt_fire_steps``: hull
  down, the Advanced AP modifiers, damage effects, reactive armour and crew hits (MBT 12.2.2,
  13.2.2, 14.3; :mod:`~hexwar.plugins.mbt.advanced_fire`);
* ``mbt_stacking_unlimited``: any number of a side's units in a hex (MBT 12.2);
* ``mbt_unit_moved``, ``mbt_fire_options``, ``mbt_fire_error``: Soviet doctrine organizations move
  and fire together (MBT 13.4; :mod:`~hexwar.plugins.mbt.doctrine`);
* ``hexwar_setup_game``, ``mbt_move_costs`` (and ``mbt_unit_moved``): terrain markers and vehicles
  inside buildings (MBT 12.4, 15.4.5; :mod:`~hexwar.plugins.mbt.markers`);
* ``mbt_other_ammo``, ``mbt_ammo_error``, ``mbt_other_fire``: GP point effect fire, AP fire only
  at vehicles (MBT 14.1.1.2, 14.4; :mod:`~hexwar.plugins.mbt.gp_fire`);
* ``mbt_weapon_arc``: the card's arc of a weapon not in a turret (MBT 14.2.1);
* ``mbt_other_ammo``, ``mbt_fire_error``, ``mbt_fire_steps``, ``mbt_after_damage`` also serve a
  vehicle's independent machineguns and their loss (MBT 14.1.2, 14.3.3.4.2;
  :mod:`~hexwar.plugins.mbt.machineguns`);
* ``hexwar_los_rules`` (tryfirst): the Advanced line of sight for ``hexwar los`` and drawings.

Transport, towed units and full cover (MBT 15.2, 15.3, 15.5; :mod:`~hexwar.plugins.mbt.transport`),
buildings (MBT 15.4; :mod:`~hexwar.plugins.mbt.buildings`) and overrun (MBT 14.7;
:mod:`~hexwar.plugins.mbt.overrun`) are steps of the Advanced Movement Phase
(:mod:`~hexwar.plugins.mbt.advanced_movement`), not hooks.

What the Advanced Game covers and what it does not yet: docs/mbt-advanced.md.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from hexwar.core.markers import hookimpl
from hexwar.core.types import Modifier, PluginManifest, SequenceEdit

if TYPE_CHECKING:
    from hexwar.core.engine.game import Game
    from hexwar.core.engine.state import Unit
    from hexwar.core.hexgrid import Hex
    from hexwar.core.los import LosRules
    from hexwar.plugins.mbt.ap_fire import FireEdit, Situation

PLUGIN = PluginManifest(
    name="mbt.advanced", system="mbt", kind="rule",
    title="MBT Advanced Game (MBT 10.0-16.0)",
    summary="The Advanced Game's sequence (MBT 11.0: Close Assault and Overrun Steps, missiles "
            "resolved during the move), height-based line of sight and hull down, suppression, "
            "grade, smoke, stacking, terrain markers, Soviet doctrine, GP fire, stand-in leg "
            "squads, close assault and hand-to-hand, towed units, transport, buildings (UP, INB), "
            "full cover and overrun (docs/mbt-advanced.md).",
    implements=("MBT 11.0", "MBT 12.1", "MBT 12.2", "MBT 12.3", "MBT 12.6", "MBT 12.7",
                "MBT 12.8", "MBT 13.1", "MBT 13.2", "MBT 13.3", "MBT 12.4", "MBT 13.4", "MBT 14.2.2",
                "MBT 14.3.1", "MBT 14.3.2", "MBT 14.4", "MBT 14.5", "MBT 14.6", "MBT 15.7", "MBT 12.9",
                "MBT 14.3.3.1", "MBT 14.3.3.3", "MBT 14.3.3.4.1",
                "MBT 14.1.2", "MBT 14.3.3.4.2", "MBT 14.3.4", "MBT 14.8",
                "MBT 16.2", "MBT 16.3", "MBT 14.7", "MBT 15.2", "MBT 15.3", "MBT 15.4", "MBT 15.5"),
)

__all__ = ["PLUGIN"]


@hookimpl
def hexwar_sequence_edits(system: str) -> list[SequenceEdit]:
    from hexwar.plugins.mbt.sequence import advanced_edits

    return list(advanced_edits())


@hookimpl
def mbt_sees(game: Game, viewer: Unit, target: Unit, moving: bool) -> bool | None:
    from hexwar.plugins.mbt.advanced_sighting import sees

    return sees(game, viewer, target, moving)


@hookimpl
def mbt_unit_height(game: Game, unit: Unit) -> float | None:
    from hexwar.plugins.mbt.advanced_sighting import unit_height

    return float(unit_height(game, unit)) if unit.hex is not None else None


@hookimpl
def mbt_orders(game: Game, unit: Unit, legal: Sequence[str]) -> Sequence[str]:
    from hexwar.plugins.mbt.advanced_orders import restrict

    return restrict(game, unit, list(legal))


@hookimpl
def mbt_movement_allowance(game: Game, unit: Unit, allowance: Fraction) -> Fraction | None:
    from hexwar.plugins.mbt.suppression import movement_allowance

    return movement_allowance(game, unit, allowance)


@hookimpl
def mbt_shot_situation(game: Game, situation: Situation, firer: Unit, target: Unit) -> None:
    from hexwar.plugins.mbt.advanced_fire import shot_situation

    shot_situation(game, situation, firer, target)


@hookimpl
def mbt_ap_modifiers(game: Game, situation: Situation, firer: Unit, target: Unit) -> list[Modifier]:
    from hexwar.plugins.mbt.advanced_fire import ap_modifiers

    return ap_modifiers(game, situation, firer, target)


@hookimpl
def mbt_after_damage(game: Game, unit: Unit, effects: Sequence[str]) -> None:
    from hexwar.plugins.mbt.advanced_fire import after_damage

    after_damage(game, unit, list(effects))




@hookimpl
def mbt_stacking_unlimited(game: Game) -> bool | None:
    """MBT 12.2: any number of one side's units in a hex."""
    return True


@hookimpl
def mbt_unit_moved(game: Game, unit: Unit) -> None:
    from hexwar.plugins.mbt import markers
    from hexwar.plugins.mbt.doctrine import follow

    markers.unit_moved(game, unit)
    follow(game, unit)


@hookimpl
def hexwar_setup_game(game: Game) -> None:
    """MBT 12.4: the terrain markers are on the map from the set-up on; MBT Scenario One B.3:
    the "Chance" conditions are rolled before it."""
    from hexwar.plugins.mbt.advanced_sighting import roll_chance
    from hexwar.plugins.mbt.markers import place_markers

    place_markers(game)
    roll_chance(game)


@hookimpl
def mbt_move_costs(game: Game, unit: Unit) -> dict[Hex, int | None] | None:
    from hexwar.plugins.mbt.markers import move_costs

    return move_costs(game, unit)


@hookimpl
def mbt_fire_options(game: Game, side: str, options: list[Any]) -> list[Any] | None:
    from hexwar.plugins.mbt.doctrine import fire_options

    return fire_options(game, side, options)


@hookimpl
def mbt_fire_error(game: Game, side: str, choice: dict[str, Any]) -> str | None:
    from hexwar.plugins.mbt.doctrine import fire_error
    from hexwar.plugins.mbt.machineguns import declaration_error

    return declaration_error(game, choice) or fire_error(game, side, choice)


@hookimpl
def mbt_weapon_fire_error(game: Game, firer: Unit, target: Unit, ammo: str,
                          orders: tuple[str, ...], moving_target: bool,
                          check_arc: bool) -> str | None:
    """MBT 14.1.2: a ``WEAPON/GP`` shot of an independent machinegun (or a leg unit's attached
    GP-only weapon, MBTD-151) has checks of its own; None for any other shot."""
    from hexwar.plugins.mbt import machineguns
    from hexwar.plugins.mbt.state import card_of

    mg = machineguns.split(card_of(game, firer), ammo)
    if mg is None:
        return None
    return machineguns.fire_error(game, firer, target, mg, orders=orders,
                                  moving_target=moving_target, check_arc=check_arc) or ""


@hookimpl
def mbt_fired_again_error(game: Game, firer: Unit, ammo: str, missile: bool) -> str | None:
    """MBT 14.1.2.1: a vehicle that fired some of its guns may fire the others in the same step."""
    from hexwar.plugins.mbt.machineguns import fired_error

    return fired_error(game, firer, ammo, missile) or ""


@hookimpl
def mbt_shot_fired(game: Game, firer: Unit, ammo: str) -> None:
    """MBT 14.1.2.1: note which of a vehicle's guns fired, and in which step."""
    from hexwar.plugins.mbt.machineguns import note_fired

    note_fired(game, firer, ammo)


@hookimpl
def mbt_guns_usable(game: Game, unit: Unit) -> bool | None:
    """MBT 14.1.2.1: without a working main gun, a working independent machinegun fires when
    the main gun could (F, FM and OW orders)."""
    from hexwar.plugins.mbt.machineguns import machineguns, silenced
    from hexwar.plugins.mbt.state import alive, card_of

    return alive(unit) and any(silenced(game, unit, m) is None
                               for m in machineguns(card_of(game, unit)))


@hookimpl
def mbt_other_ammo(game: Game, unit: Unit, missile: bool) -> list[str]:
    """MBT 14.1.1.2: a weapon with GP lines may fire GP; MBT 14.4.5.2: canister where the card
    names it; MBT 14.1.3: a leg unit's attached guns fire their own ammunition (``WEAPON/AMMO``);
    MBT 14.1.2: a vehicle's independent machineguns (``WEAPON/GP``), with or without a main gun."""
    from hexwar.plugins.mbt import machineguns
    from hexwar.plugins.mbt.alternate_ammo import CANISTER, alternate
    from hexwar.plugins.mbt.attached import shot_ammo
    from hexwar.plugins.mbt.cards import derived
    from hexwar.plugins.mbt.gp_fire import GP, gp_range
    from hexwar.plugins.mbt.state import card_of

    card = card_of(game, unit)
    if missile:
        return []
    # the same for every unit of the card in an Advanced game (MBTD-190)
    memo = derived(card)
    key = ("other_ammo", machineguns.advanced(game))
    got: list[str] | None = memo.get(key)
    if got is None:
        w = card.main_gun
        mgs = machineguns.shot_ammo(game, unit)
        if w is None:
            got = mgs
        else:
            gp = [GP] if gp_range(game, unit, w.name) is not None else []
            if gp and CANISTER in alternate(card, w.name):
                gp.append(CANISTER)
            got = gp + shot_ammo(card) + mgs
        memo[key] = got
    return list(got)


@hookimpl
def mbt_ammo_error(game: Game, firer: Unit, target: Unit, ammo: str) -> str | None:
    from hexwar.plugins.mbt.gp_fire import ammo_error

    return ammo_error(game, firer, target, ammo)


@hookimpl
def mbt_other_fire(game: Game, firer: Unit, target: Unit, ammo: str, overwatch: bool,
                   target_moving: bool | None) -> list[str] | None:
    from hexwar.plugins.mbt import machineguns
    from hexwar.plugins.mbt.gp_fire import resolve
    from hexwar.plugins.mbt.state import card_of

    mg = machineguns.split(card_of(game, firer), ammo)
    if mg is not None:  # MBT 14.1.2: an independent machinegun's GP shot
        return machineguns.resolve(game, firer, target, mg, overwatch=overwatch,
                                   target_moving=target_moving)
    shot = resolve(game, firer, target, overwatch=overwatch, target_moving=target_moving,
                   ammo=ammo)
    return None if shot is None else shot.effects


@hookimpl
def mbt_fire_steps(game: Game) -> list[FireEdit]:
    """MBT 14.3.4 reactive armour, MBT 14.3.3.4.1 crew losses of open vehicles, MBT 14.3.3.4.2
    machineguns lost."""
    from hexwar.plugins.mbt.advanced_fire import fire_steps

    return fire_steps()


@hookimpl(tryfirst=True)
def hexwar_los_rules(game: Game | None, system: str) -> LosRules | None:
    """MBT 13.2.1 for the table-side views of an Advanced game (``hexwar los``, drawings)."""
    from hexwar.plugins.mbt.advanced_sighting import AdvancedLos

    return AdvancedLos() if game is not None else None


@hookimpl
def mbt_weapon_arc(game: Game, unit: Unit, weapon: str) -> str | None:
    """MBT 14.2.1: a weapon not in a turret fires in the arc its card names (leg units' small
    arms: 360)."""
    from hexwar.plugins.mbt.state import card_of

    for w in card_of(game, unit).weapons:
        if w.name == weapon and w.arc not in ("turret", ""):
            return w.arc
    return None
