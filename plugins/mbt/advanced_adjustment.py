"""MBT 16.0, the Advanced Game Adjustment Phase: the Adjust Turrets Step (MBT 16.2) and the Adjust
Markers Step (MBT 16.3). The Pivot Step is the Basic Game's (MBT 16.1: MBT 9.1 applies in full;
the extra pivots of dismounted leg and towed units wait for their cards), as is the End Turn Step
(MBT 16.4)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from hexwar.core.engine.decisions import Decision
from hexwar.plugins.mbt import smoke, suppression
from hexwar.plugins.mbt.adjustment import markers_phase, turret_options
from hexwar.plugins.mbt.initiative import side_order
from hexwar.plugins.mbt.state import Step, alive

if TYPE_CHECKING:
    from hexwar.core.engine.game import Game


def turret_phase(game: Game) -> Step:
    """MBT 16.2: as MBT 9.2, but a turret with a compartment hit must be turned to its open side."""
    for side in side_order(game):
        for u in game.state.units_of(side):
            if not alive(u):
                continue
            options = turret_options(game, u)
            rule = "MBT 9.2"
            if u.state["damage"].get("compartment") == "turret":
                options = [o for o in options if o[1] == "open"]
                rule = "MBT 16.2"
            choice = yield Decision(side, "mbt.turret", options=options, rule=rule,
                                    context={"unit": u.id, "turret": u.state["turret"],
                                             "open": u.state["open"]},
                                    prompt=f"Turret of {u.id}: [facing, open|buttoned]")
            u.state["turret"] = int(choice[0])
            u.state["open"] = choice[1] == "open"


def advanced_markers_phase(game: Game) -> Step:
    """MBT 16.3: first the unseen spotted markers go (MBT 9.3), then temporary suppression,
    suppressed (OFF), smoke (OFF) and smoke (DS) markers (MBT 16.3.1), then suppressed (ON) and
    smoke (ON) turn OFF (MBT 16.3.2)."""
    yield from markers_phase(game)
    suppression.adjust_markers(game)
    smoke.adjust_markers(game)
    smoke.adjust_smoke_markers(game)
    for u in game.state.units.values():
        u.state.pop("moved_done", None)
