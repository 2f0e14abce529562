"""Firefight 15.0 Overwatch Fire.

Cases: (Firefight 15.0) in the Movement Phase a player may also fire at an enemy unit that has itself
fired during the current Movement Phase; (Firefight 15.1) it is resolved like Direct or Opportunity Fire
but only at a unit that has just fired at one of the player's units.

Wiring: after every attack resolved in the Movement Phase the system calls
``firefight_reactions``; this rule answers with one attack opportunity (mode ``"overwatch"``)
for the side that was fired at, against the shooter only. Overwatch fire is itself Movement
Phase fire, so it may be answered in turn (the chain ends: each unit fires once a turn
Firefight 6.11). docs/decisions.md FFD-27: any Movement-Phase fire may be answered (opportunity, short halt,
overwatch), never the Direct Fire Phase's.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from hexwar.core.markers import hookimpl
from hexwar.core.types import PluginManifest
from hexwar.plugins.firefight.rules._common import Step, rstate

if TYPE_CHECKING:
    from hexwar.core.engine.game import Game
    from hexwar.core.types import PhaseSpec

PLUGIN = PluginManifest(
    name="firefight.overwatch", system="firefight", kind="rule",
    title="Overwatch Fire (Firefight 15.0)",
    summary="Firefight II: in the Movement Phase, fire back at an enemy unit that has just fired "
            "at one of your units.",
    implements=("Firefight 15.0", "Firefight 15.1"),
)


def shooters(game: Game) -> dict[str, str]:
    """Units that fired in this Movement Phase -> the side they fired at."""
    out: dict[str, str] = rstate(game, "overwatch").setdefault("shooters", {})
    return out


def overwatch_problem(game: Game, target_id: str, side: str) -> str | None:
    """Firefight 15.1: overwatch fire only at a unit that fired at one of ``side``'s units in this
    Movement Phase."""
    if game.state.phase != "firefight.movement":
        return "Overwatch Fire happens only in the Movement Phase (Firefight 15.0)"
    if shooters(game).get(target_id) != side:
        return "Overwatch Fire only at a unit that has just fired at one of your units (Firefight 15.1)"
    return None


@hookimpl
def hexwar_phase_start(game: Game, phase: PhaseSpec) -> None:
    if phase.name == "firefight.movement":
        rstate(game, "overwatch")["shooters"] = {}


@hookimpl
def firefight_attack_done(game: Game, attack: dict[str, Any], outcome: dict[str, Any]) -> None:
    if game.state.phase == "firefight.movement" and attack.get("firer") and \
            attack.get("mode") != "overrun":
        tgt = game.state.units.get(attack.get("target", ""))
        if tgt is not None:
            shooters(game)[str(attack["firer"])] = tgt.side


@hookimpl
def firefight_fire_restrictions(game: Game, attack: dict[str, Any]) -> Sequence[str]:
    if attack.get("mode") != "overwatch":
        return []
    why = overwatch_problem(game, str(attack["target"]), str(attack["firer_side"]))
    return [why] if why else []


@hookimpl
def firefight_reactions(game: Game, attack: dict[str, Any],
                        outcome: dict[str, Any]) -> Sequence[Step]:
    """Offer the side fired at one overwatch attack at the shooter (Firefight 15.0)."""
    from hexwar.plugins.firefight.fire import attack_step

    fid = attack.get("firer")
    if not fid or attack.get("mode") == "overrun" or fid not in game.state.units:
        return []
    shooter = game.state.units[fid]
    if shooter.hex is None:
        return []
    victim_side = "US" if shooter.side == "SU" else "SU"
    if shooters(game).get(fid) != victim_side:
        return []
    return [attack_step(game, victim_side, "overwatch", [fid])]
