"""MBT 16.0, the Advanced Game Adjustment Phase: the Adjust Turrets Step (MBT 16.2), the Adjust
Markers Step (MBT 16.3), and the Pivot Step (MBT 16.1: MBT 9.1 in full, doctrine organizations
pivoting as one; the extra pivots of dismounted leg and towed units wait for their cards). The End
Turn Step is the Basic Game's (MBT 16.4)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from hexwar.core.engine.decisions import Decision
from hexwar.plugins.mbt import doctrine, smoke, suppression
from hexwar.plugins.mbt.adjustment import markers_phase, reveal_orders, turret_options
from hexwar.plugins.mbt.initiative import side_order
from hexwar.plugins.mbt.state import Step, alive, can_move, card_of

if TYPE_CHECKING:
    from hexwar.core.engine.game import Game


def pivot_phase(game: Game) -> Step:
    """MBT 16.1: the Basic Pivot Step (MBT 9.1) in full; a Soviet doctrine organization pivots as
    one (MBT 13.4.3.1)."""
    reveal_orders(game)
    for side in side_order(game):
        for u in game.state.units_of(side):
            order = u.state.get("order")
            leg = alive(u) and card_of(game, u).kind in ("leg", "towed")
            if leg and not u.state.get("mounted") and suppression.may_pivot(game, u):
                # MBT 16.1: a dismounted, unsuppressed leg or towed unit turns up to 3 hexsides
                choice = yield Decision(side, "mbt.pivot", options=[1, 2, 3, 4, 5, 6],
                                        rule="MBT 16.1",
                                        context={"unit": u.id, "facing": u.facing},
                                        prompt=f"Pivot {u.id}: new facing ({u.facing} = no pivot)")
                if choice != u.facing:
                    u.facing = u.state["turret"] = int(choice)
                    game.emit("pivot", visible_to=[side], unit=u.id, facing=u.facing,
                              rule="MBT 16.1")
                continue
            if (order in ("M", "FM", "OR") and not u.state.get("moved") and can_move(u)
                    and not doctrine.is_follower(game, u)):
                choice = yield Decision(side, "mbt.pivot", options=[1, 2, 3, 4, 5, 6],
                                        rule="MBT 16.1",
                                        context={"unit": u.id, "facing": u.facing},
                                        prompt=f"Pivot {u.id}: new facing ({u.facing} = no pivot)")
                if choice != u.facing:
                    u.facing = int(choice)
                    game.emit("pivot", visible_to=[side], unit=u.id, facing=u.facing,
                              rule="MBT 9.1")
                doctrine.copy_orientation(game, u)


def turret_phase(game: Game) -> Step:
    """MBT 16.2: as MBT 9.2, but a turret with a compartment hit must be turned to its open side;
    a Soviet doctrine organization has one turret direction (MBT 13.4.3.1); a long gun with path
    restrictions is not turned in woods or buildings (MBT 15.6.3-15.6.4)."""
    from hexwar.plugins.mbt.advanced_movement import turret_lock

    for side in side_order(game):
        for u in game.state.units_of(side):
            if not alive(u) or doctrine.is_follower(game, u) or card_of(game, u).kind != "vehicle":
                continue  # MBT 10.1: turret units are on vehicles only
            options = turret_options(game, u)
            rule = "MBT 9.2"
            if u.state["damage"].get("compartment") == "turret":
                options = [o for o in options if o[1] == "open"]
                rule = "MBT 16.2"
            locked = turret_lock(game, u)
            if locked:  # MBT 15.6.3-15.6.4: a long gun in woods or buildings stays as it is
                options = [o for o in options if o[0] == u.state["turret"]]
                rule = locked
            choice = yield Decision(side, "mbt.turret", options=options, rule=rule,
                                    context={"unit": u.id, "turret": u.state["turret"],
                                             "open": u.state["open"]},
                                    prompt=f"Turret of {u.id}: [facing, open|buttoned]")
            u.state["turret"] = int(choice[0])
            u.state["open"] = choice[1] == "open"
            doctrine.copy_orientation(game, u)


def advanced_markers_phase(game: Game) -> Step:
    """MBT 16.3: first the unseen spotted markers go (MBT 9.3), then temporary suppression,
    suppressed (OFF), smoke (OFF) and smoke (DS) markers (MBT 16.3.1), then suppressed (ON) and
    smoke (ON) turn OFF (MBT 16.3.2). Each side may also give up full cover (MBT 15.5)."""
    from hexwar.plugins.mbt.transport import full_cover_off_step

    yield from markers_phase(game)
    for side in side_order(game):
        yield from full_cover_off_step(game, side)
    suppression.adjust_markers(game)
    smoke.adjust_markers(game)
    smoke.adjust_smoke_markers(game)
    for u in game.state.units.values():
        u.state.pop("moved_done", None)
