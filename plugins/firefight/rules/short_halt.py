"""Firefight 17.0 Short Halt Attack / Fire on the Move.

Cases: (Firefight 17.0) in the Movement Phase the U.S. M60A1 and M60A2 and every Soviet tank may fire
while moving (Short Halt: firing costs one Movement Point, leaving two of three), and the
M60A3 may fire without halting (no MP cost); the attack is resolved at once like any other;
Firefight 17.0 (Clarifications) this fire may be at any enemy unit the tank sees, not only the
moving one; (Firefight 17.11) a tank that fired in the Direct Fire Phase may do nothing else (the
system's "fired" flag); Firefight 17.12: Short Halt fire is at -2 at all ranges, the M60A3's at -1;
the M60A2 may not fire its missile on a Short Halt.

Offered to the moving tank between its steps as ``{"action": "short_halt", "unit", "target",
"weapon"}`` (``firefight_move_options``). With ``firefight.future_afvs`` the XMBT fires on the
move at -1 under Firefight 27.5 instead.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from hexwar.core.markers import hookimpl
from hexwar.core.types import Modifier, PluginManifest
from hexwar.plugins.firefight.rules._common import (
    Step,
    enabled,
    move_fire_options,
    run_move_fire,
    tname,
    ucls,
)

if TYPE_CHECKING:
    from hexwar.core.engine.game import Game
    from hexwar.core.engine.state import Unit

PLUGIN = PluginManifest(
    name="firefight.short_halt", system="firefight", kind="rule",
    title="Short Halt Attack / Fire on Move (Firefight 17.0)",
    summary="Firefight II: M60A1/A2 and Soviet tanks fire while moving for 1 MP at -2; the "
            "M60A3 fires on the move at -1.",
    implements=("Firefight 17.0", "Firefight 17.1", "Firefight 17.11", "Firefight 17.12"),
)

MODE = "short_halt"
SHORT_HALT_TYPES = frozenset({"US-M60A1", "US-M60A2"})  # plus every Soviet tank (Firefight 17.0)
STABILISED = frozenset({"US-M60A3"})  # Firefight 17.0: fires without halting
SHORT_HALT_MP, SHORT_HALT_MOD = 1.0, -2  # Firefight 17.0, Firefight 17.12
STABILISED_MP, STABILISED_MOD = 0.0, -1  # Firefight 17.0, Firefight 17.12
NO_MISSILE = frozenset({"US-M60A2-missile"})  # Firefight 17.12


def technique(game: Game | None, u: Unit) -> tuple[float, int] | None:
    """(MP cost, AR modifier) of firing while moving for this unit, or None (Firefight 17.0, 17.12)."""
    t = tname(u)
    if t in STABILISED:
        return STABILISED_MP, STABILISED_MOD
    if t in SHORT_HALT_TYPES or (u.side == "SU" and ucls(u) == "tank"):
        if t == "SU-XMBT" and enabled(game, "firefight.future_afvs"):
            return None  # fires on the move under Firefight 27.5
        return SHORT_HALT_MP, SHORT_HALT_MOD
    return None


@hookimpl
def firefight_fire_exemptions(game: Game, firer_id: str, mode: str) -> Sequence[str]:
    """The moving tank may fire (Firefight 17.0 (Clarifications): at any enemy it sees)."""
    if mode != MODE:
        return []
    data = game.state.data.get("firefight", {})
    u = game.state.units[firer_id]
    if data.get("mover") == firer_id and technique(game, u) is not None:
        return ["moved", "not_mover"]
    return []


@hookimpl
def firefight_fire_restrictions(game: Game, attack: dict[str, Any]) -> Sequence[str]:
    if attack.get("mode") != MODE:
        return []
    u = game.state.units[str(attack["firer"])]
    tech = technique(game, u)
    if tech is None:
        return ["this unit may not fire on a Short Halt (Firefight 17.0)"]
    if attack.get("line") in NO_MISSILE:
        return ["the M60A2 may not fire missiles on a Short Halt (Firefight 17.12)"]
    if float(u.state.get("mp", 0.0)) < tech[0] - 1e-9:
        return ["a Short Halt costs one Movement Point (Firefight 17.0)"]
    return []


@hookimpl
def firefight_fire_modifiers(game: Game, attack: dict[str, Any]) -> Sequence[Modifier]:
    if attack.get("mode") != MODE:
        return []
    tech = technique(game, game.state.units[str(attack["firer"])])
    if tech is None:
        return []
    name = "fire on the move" if tech[0] == 0 else "short halt"
    return [Modifier(name, tech[1], "Firefight 17.12")]


@hookimpl
def firefight_move_options(game: Game, unit_id: str) -> Sequence[Mapping[str, Any]]:
    if technique(game, game.state.units[unit_id]) is None:
        return []
    return move_fire_options(game, unit_id, MODE)


@hookimpl
def firefight_move_action(game: Game, unit_id: str, choice: Mapping[str, Any]) -> Step | None:
    if choice.get("action") != MODE:
        return None
    tech = technique(game, game.state.units[unit_id])
    assert tech is not None
    return run_move_fire(game, dict(choice), tech[0], "Firefight 17.0")
