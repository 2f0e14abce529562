"""MBT's own hooks (``mbt_`` prefix): the extension points for the Advanced Game and options.

The Basic Game (rules 1.0-9.0) implements none of these; later plugins (Advanced Game 10.0-16.0,
optional rules 17.0-24.0) answer them. Hooks are called once per game (the fire pipeline, the unit
kinds) or once per shot, never per hex in a hot loop.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from hexwar.core.markers import hookspec

if TYPE_CHECKING:
    from hexwar.core.engine.game import Game
    from hexwar.core.engine.state import Unit
    from hexwar.core.types import Modifier
    from hexwar.plugins.mbt.fire import Situation, StepEdit


@hookspec
def mbt_fire_steps(game: Game) -> Sequence[StepEdit]:
    """Insert, replace or remove named steps of the AP fire pipeline (MBT 7.4; e.g. 14.3.4
    reactive armour after ``armor``, 17.2.1 turret facing after ``hit_location``, 17.2.4 lower hull
    halving). Called once per game."""
    raise NotImplementedError


@hookspec
def mbt_ap_modifiers(game: Game, situation: Situation, firer: Unit, target: Unit) -> Sequence[Modifier]:
    """Extra AP point effect modifiers for one shot (14.3.1 smoke, suppression, crew losses, grade,
    sights, NBC...). Called once per shot; the answers are added to the Basic Game's four kinds."""
    raise NotImplementedError


@hookspec
def mbt_orders(game: Game, unit: Unit, legal: Sequence[str]) -> Sequence[str]:
    """Orders a unit may take beyond the Basic Game's F, FM, M, OW, ATGM (13.3: CA, OR; leg and towed
    units; command control 21.1 may also narrow them). Return the full list, or [] for no change."""
    raise NotImplementedError


@hookspec(firstresult=True)
def mbt_unit_height(game: Game, unit: Unit) -> float | None:
    """The height a unit sits at for LOS and rising/falling shots (Advanced 12.1, 13.2: contours,
    UP floors of buildings, helicopters at NOE). None: the Basic Game heights (6.1.4)."""


@hookspec(firstresult=True)
def mbt_weapon_arc(game: Game, unit: Unit, weapon: str) -> str | None:
    """The firing arc name of a weapon (14.2.1: hull arcs 60, 60R, 120, 360, SID for hull-mounted
    weapons, leg and towed units). None: the Basic Game's turret arc (7.2.1)."""


@hookspec
def mbt_after_damage(game: Game, unit: Unit, effects: Sequence[str]) -> None:
    """Called after damage is applied to a unit (14.3.3 suppression and crew losses, 17.2.3
    bail-out, 14.3.3.2 passengers)."""
