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
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from hexwar.core.types import PhaseSpec
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
