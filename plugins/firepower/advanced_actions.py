"""Advanced Game Actions beyond the Basic ones (Firepower 11.1, Firepower 11.2): so far backing
(Firepower 11.2.1.2) and the cost multipliers of the LEG MOVEMENT FACTOR EXPENDITURE CHART's note
(a) (Firepower 11.2.1: double when backing, fording or in an abatis, each doubling multiplied).

The chart itself is not in the text; the Actions the Basic chart also has keep its costs
(docs/decisions.md FPD-44). Climbing, stairs, doors and windows, acquiring and discarding,
loading, swimming and fording need heights, buildings, water and equipment, which are not built
yet (docs/firepower-advanced.md).
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from hexwar.core.errors import RulesError
from hexwar.core.hexgrid import opposite
from hexwar.core.provenance import load_records
from hexwar.plugins.firepower.actions import ActionType, passes_opposing
from hexwar.plugins.firepower.state import alive, fp_map, rules_card

if TYPE_CHECKING:
    from hexwar.core.engine.game import Game


#: Firepower 10.6: the speed shown by the new hexes entered in an Impulse Phase (the lowest
#: count of each speed); Slow, Medium and Fast are needed only with vehicles
SPEEDS = ((13, "fast"), (10, "medium"), (7, "slow"), (4, "running"))


def speed_of(hexes: int) -> str:
    """Firepower 10.6: Running for 4-6 new hexes, Slow 7-9, Medium 10-12, Fast 13 or more
    ("normal" below four, the Basic Game's no speed unit)."""
    for least, name in SPEEDS:
        if hexes >= least:
            return name
    return "normal"


NOTES = Path(__file__).parent / "data" / "advanced" / "leg_notes.toml"
#: Firepower 11.2.5: the status units that bar an Action marked (e)
STATUS_UNITS = ("suppressed", "pinned", "stunned", "inactive")


@cache
def note_e_actions() -> frozenset[str]:
    """The Actions the LEG chart marks (e) (stand-in list, FPD-167)."""
    return frozenset(str(a) for a in load_records(NOTES).values["note_e"]["actions"])


def note_e_name(game: Game, info: dict[str, Any]) -> str:
    """The note (e) name of a checked Action: its ``act``, or ``missile`` for a fire of a
    missile unit (Firepower 11.1.7, 12.4.6)."""
    act = str(info.get("act"))
    ctx = info.get("ctx")
    f = getattr(ctx, "extra", {}).get("firing") if ctx is not None else None
    unit = getattr(f, "weapon_unit", None)
    if act in ("fire", "grenade") and unit is not None:
        from hexwar.plugins.firepower import weapon_units as wu

        if wu.is_missile(game, unit):
            return "missile"
    return act


def check_note_e(game: Game, info: dict[str, Any]) -> None:
    """Firepower 11.2.5: an Action the chart marks (e) is refused to a soldier under a
    Suppressed, Pinned, Stunned or Inactive unit; raises RulesError (pure)."""
    name = note_e_name(game, info)
    if name not in note_e_actions():
        return
    uid = info.get("unit")
    if not isinstance(uid, str) or uid not in game.state.units:
        return
    status = game.state.units[uid].state.get("status")
    if status in STATUS_UNITS:
        what = "fire a guided missile" if name == "missile" else f"'{name}'"
        raise RulesError(f"{uid} is {status}: under a status unit he cannot "
                         f"{what} (the chart's note (e))", rule="Firepower 11.2.5")


def note_a_multiplier(backing: bool = False, fording: bool = False, abatis: bool = False) -> int:
    """Firepower 11.2.1: twice the cost for each of backing, fording and an abatis hex, the
    doublings multiplied (backing while fording: four times)."""
    return 1 << (int(backing) + int(fording) + int(abatis))


def _check_back(game: Game, ph: dict[str, Any], choice: dict[str, Any]) -> dict[str, Any]:
    """Firepower 11.2.1.2: straight backwards into the hex behind, at twice the cost of
    entering; as for entering, not into a hex held by opposing soldiers a melee could reach
    (Firepower 6.2.1, 11.1.1), not
    off the board (Firepower 4.9), not across a hill or depression hexside (docs/decisions.md
    FPD-44) and not out of a fence or hedge hex."""
    u = game.state.units[choice["unit"]]
    assert u.hex is not None
    m = fp_map(game)
    back = opposite(u.facing)
    dest = u.hex.neighbor(back)
    if dest not in m.hexes:
        raise RulesError("no soldier may exit the mapboard", rule="Firepower 4.9")
    from hexwar.plugins.firepower.bridges import along_back, check_leave

    check_leave(game, u, dest)  # Firepower 8.9: off a deck only along the bridge (FPD-123)
    # Firepower 8.9: along a bridge's deck no such hexside is crossed (FPD-123)
    if m.contour_between(u.hex, dest) and not along_back(game, u):
        raise RulesError(f"{u.id} may not back across a hill or depression hexside",
                         rule="Firepower 11.2.1.2")
    if m.fence.get(u.hex) or m.hedge.get(u.hex) or m.fence.get(dest) or m.hedge.get(dest):
        raise RulesError(f"{u.id} may not back through a fence or hedge hex",
                         rule="Firepower 11.2.1.2")
    # under the ground the tunnel check decides (hidden_setup.check_tunnel_move; FPD-119)
    below = bool(u.state.get("tunnel"))
    there = sorted(o.id for o in game.state.units.values()
                   if o.hex == dest and o.side != u.side and alive(o)
                   and not o.state.get("tunnel"))
    # Firepower 11.1.1: backing enters a hex too, so it passes opposing soldiers no melee can
    # reach, as entering does (docs/decisions.md FPD-144)
    if not below and there and not passes_opposing(game, u, there, dest):
        raise RulesError("a hex holding opposing soldiers may be entered only by melee",
                         rule="Firepower 6.2.1")
    base = rules_card(game).mf_cost("enter", str(u.state.get("posture", "stand")))
    return {"cost": base * note_a_multiplier(backing=True), "to": dest}


def _apply_back(game: Game, ph: dict[str, Any], info: dict[str, Any]) -> None:
    """The soldier keeps his facing; a new hex entered counts toward Running (Firepower 4.5)."""
    from hexwar.plugins.firepower.tunnels import stop, stopped_underground

    u = game.state.units[info["unit"]]
    if u.state.get("tunnel") and stopped_underground(game, u, info["to"]):
        stop(game, ph, u, info["to"])  # FPD-119: defenders met in the tunnel hex
        info["stopped"] = True
        return
    u.hex = info["to"]
    u.state["side"] = None
    ph["entered"][u.id] = int(ph["entered"].get(u.id, 0)) + 1
    if ph["entered"][u.id] >= 4:
        u.state["speed"] = "running"


def _back_options(game: Game, ph: dict[str, Any], uid: str) -> list[dict[str, Any]]:
    return [{"unit": uid, "act": "back"}]


BACK = ActionType("back", _check_back, _apply_back, _back_options, rule="Firepower 11.2.1.2")
