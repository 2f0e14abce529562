"""Advanced Game Actions beyond the Basic ones (Firepower 11.1, Firepower 11.2): so far backing
(Firepower 11.2.1.2) and the cost multipliers of the LEG MOVEMENT FACTOR EXPENDITURE CHART's note
(a) (Firepower 11.2.1: double when backing, fording or in an abatis, each doubling multiplied).

The chart itself is not in the text; the Actions the Basic chart also has keep its costs
(docs/decisions.md FPD-44). Climbing, stairs, doors and windows, acquiring and discarding,
loading, swimming and fording need heights, buildings, water and equipment, which are not built
yet (docs/firepower-advanced.md).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from hexwar.core.errors import RulesError
from hexwar.core.hexgrid import opposite
from hexwar.plugins.firepower.actions import ActionType
from hexwar.plugins.firepower.state import alive, fp_map, rules_card

if TYPE_CHECKING:
    from hexwar.core.engine.game import Game


def note_a_multiplier(backing: bool = False, fording: bool = False, abatis: bool = False) -> int:
    """Firepower 11.2.1: twice the cost for each of backing, fording and an abatis hex, the
    doublings multiplied (backing while fording: four times)."""
    return 1 << (int(backing) + int(fording) + int(abatis))


def _check_back(game: Game, ph: dict[str, Any], choice: dict[str, Any]) -> dict[str, Any]:
    """Firepower 11.2.1.2: straight backwards into the hex behind, at twice the cost of
    entering; as for entering, not into a hex held by opposing soldiers (Firepower 6.2.1), not
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
    if not below and any(o.hex == dest and o.side != u.side and alive(o)
                         and not o.state.get("tunnel") for o in game.state.units.values()):
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
