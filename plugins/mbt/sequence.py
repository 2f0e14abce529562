"""MBT 3.0, the Basic Game Sequence of Play, as engine phases.

Set up once (MBT 2.4-2.5), then each Turn:

1. Initiative Phase (MBT 5.0);
2. Command Phase (MBT 6.0): Sighting Step (MBT 6.1), Mark Orders Step (MBT 6.2, secret and
   simultaneous);
3. Fire Phase (MBT 3.3): Direct Fire Step (MBT 3.3.1, simultaneous), ATGM Announcement Step
   (MBT 3.3.2), Overwatch Fire Step (MBT 3.3.3, simultaneous);
4. Movement Phase (MBT 3.4): Movement Step (MBT 3.4.1, with overwatch interrupts and chains,
   MBT 7.5.2-7.5.3), ATGM Resolution Step (MBT 3.4.2, simultaneous, then MBT 8.8);
5. Adjustment Phase (MBT 9.0): Pivot (MBT 9.1), Adjust Turrets (MBT 9.2), Adjust Markers
   (MBT 9.3), End Turn (MBT 9.4).

Each phase is a named :class:`~hexwar.core.types.PhaseSpec` (``mbt.*``); optional rules change the
sequence with ``hexwar_sequence_edits``, which the core applies in the kit's one order. The rules of
each step live in the modules named for them.

The Advanced Game Sequence of Play (MBT 11.0, which replaces MBT 3.0) is :data:`ADVANCED_EDITS`,
the edits the Advanced Game plugin (``mbt.advanced``, :mod:`hexwar.plugins.mbt.advanced`) makes:

1. Initiative Phase (MBT 11.1), unchanged;
2. Command Phase (MBT 11.2): Sighting Step with the Advanced sighting and line of sight
   (MBT 11.2.1, 13.1-13.2), Mark Orders Step with CA and OR (MBT 11.2.2, 13.3);
3. Fire Phase (MBT 11.3): Close Assault Step, not simultaneous (MBT 11.3.1), Direct Fire Step
   (MBT 11.3.2), ATGM Announcement Step resolving shots at non-movers at once (MBT 11.3.3,
   14.2.2.1), Overwatch Fire Step (MBT 11.3.4);
4. Movement Phase (MBT 11.4): Movement Step with missiles resolved during their targets' moves
   (MBT 11.4.1, 14.2.2.2), Overrun Step, then MBT 8.8 (MBT 11.4.2); no ATGM Resolution Step
   (MBT 15.0);
5. Adjustment Phase (MBT 11.5, 16.0): Pivot (MBT 16.1), Adjust Turrets (MBT 16.2), Adjust Markers
   in the order of MBT 16.3, End Turn (MBT 16.4).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from hexwar.core.types import PhaseSpec, SequenceEdit
from hexwar.plugins.mbt.adjustment import end_turn_phase, markers_phase, pivot_phase, turret_phase
from hexwar.plugins.mbt.fire import atgm_announce_phase, atgm_resolution_phase, direct_fire_phase
from hexwar.plugins.mbt.initiative import initiative_phase
from hexwar.plugins.mbt.movement import adjust_contested, movement_phase
from hexwar.plugins.mbt.orders import orders_phase
from hexwar.plugins.mbt.overwatch import overwatch_fire_phase
from hexwar.plugins.mbt.setup import setup_phase
from hexwar.plugins.mbt.sighting import sighting_phase
from hexwar.plugins.mbt.state import Step

if TYPE_CHECKING:
    from hexwar.core.engine.game import Game


def atgm_resolution_step(game: Game) -> Step:
    """MBT 3.4.2: resolve the announced missiles (MBT 7.2.2), then adjust the hexes that hold
    units of both sides (MBT 8.8)."""
    yield from atgm_resolution_phase(game)
    adjust_contested(game)


PHASES = (
    PhaseSpec("mbt.setup", "Set up", "MBT 2.4-2.5", setup_phase, when="setup"),
    PhaseSpec("mbt.initiative", "Initiative Phase", "MBT 5.0", initiative_phase),
    PhaseSpec("mbt.sighting", "Sighting Step", "MBT 6.1", sighting_phase),
    PhaseSpec("mbt.orders", "Mark Orders Step", "MBT 6.2", orders_phase),
    PhaseSpec("mbt.direct_fire", "Direct Fire Step", "MBT 3.3.1", direct_fire_phase),
    PhaseSpec("mbt.atgm_announce", "ATGM Announcement Step", "MBT 3.3.2", atgm_announce_phase),
    PhaseSpec("mbt.overwatch_fire", "Overwatch Fire Step", "MBT 3.3.3", overwatch_fire_phase),
    PhaseSpec("mbt.movement", "Movement Step", "MBT 3.4.1", movement_phase),
    PhaseSpec("mbt.atgm_resolution", "ATGM Resolution Step", "MBT 3.4.2", atgm_resolution_step),
    PhaseSpec("mbt.pivot", "Pivot Step", "MBT 9.1", pivot_phase),
    PhaseSpec("mbt.turrets", "Adjust Turrets Step", "MBT 9.2", turret_phase),
    PhaseSpec("mbt.markers", "Adjust Markers Step", "MBT 9.3", markers_phase),
    PhaseSpec("mbt.end_turn", "End Turn Step", "MBT 9.4", end_turn_phase),
)


def advanced_edits() -> tuple[SequenceEdit, ...]:
    """MBT 11.0: the edits that turn the Basic sequence (MBT 3.0) into the Advanced one."""
    from hexwar.plugins.mbt import advanced_adjustment, advanced_fire, advanced_movement
    from hexwar.plugins.mbt import advanced_orders as adv_orders
    from hexwar.plugins.mbt.close_assault import close_assault_step

    return (
        SequenceEdit("replace", "mbt.sighting", PhaseSpec(
            "mbt.sighting", "Sighting Step", "MBT 11.2.1, 13.1-13.2", sighting_phase),
            rule="MBT 11.2.1"),
        SequenceEdit("replace", "mbt.orders", PhaseSpec(
            "mbt.orders", "Mark Orders Step", "MBT 11.2.2, 13.3", adv_orders.orders_phase),
            rule="MBT 11.2.2"),
        SequenceEdit("insert_before", "mbt.direct_fire", PhaseSpec(
            "mbt.close_assault", "Close Assault Step", "MBT 11.3.1", close_assault_step),
            rule="MBT 11.3.1"),
        SequenceEdit("replace", "mbt.atgm_announce", PhaseSpec(
            "mbt.atgm_announce", "ATGM Announcement Step", "MBT 11.3.3, 14.2.2",
            advanced_fire.atgm_announce_phase), rule="MBT 11.3.3"),
        SequenceEdit("replace", "mbt.movement", PhaseSpec(
            "mbt.movement", "Movement Step", "MBT 11.4.1", advanced_movement.movement_phase),
            rule="MBT 11.4.1"),
        SequenceEdit("replace", "mbt.atgm_resolution", PhaseSpec(
            "mbt.overrun", "Overrun Step", "MBT 11.4.2", advanced_movement.overrun_step),
            rule="MBT 11.4.2, 15.0"),
        SequenceEdit("replace", "mbt.pivot", PhaseSpec(
            "mbt.pivot", "Pivot Step", "MBT 16.1", advanced_adjustment.pivot_phase),
            rule="MBT 16.1"),
        SequenceEdit("replace", "mbt.turrets", PhaseSpec(
            "mbt.turrets", "Adjust Turrets Step", "MBT 16.2", advanced_adjustment.turret_phase),
            rule="MBT 16.2"),
        SequenceEdit("replace", "mbt.markers", PhaseSpec(
            "mbt.markers", "Adjust Markers Step", "MBT 16.3",
            advanced_adjustment.advanced_markers_phase), rule="MBT 16.3"),
    )

