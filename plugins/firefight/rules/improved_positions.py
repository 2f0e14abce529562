"""Firefight 23.0 Improved Positions.

Cases: (Firefight 23.0) Improved Position markers are placed over units at the initial deployment
(``[special] improved_positions = {US = ["1005", ...]}``); only dismounted personnel benefit,
while they stay in the position; vehicles neither benefit nor affect it; a marker vacant at the
end of a Game-Turn is removed. (Firefight 23.1) a unit in an Improved Position can be spotted only by an
adjacent enemy unit while it neither moves nor fires (observation.py reads ``state.ip``); fired
on, it counts as in defilade, with nothing more if it is already in defilade. (Firefight 23.2) they may
not be built during play (:func:`place_problem`). (Firefight 28.1) the benefit holds in an Overrun.

docs/decisions.md FFD-32: only units under the marker at deployment benefit.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from hexwar.core.markers import hookimpl
from hexwar.core.types import PluginManifest, Problem
from hexwar.plugins.firefight.rules._common import rstate, vehicle

if TYPE_CHECKING:
    from hexwar.core.engine.game import Game
    from hexwar.core.engine.state import Unit
    from hexwar.core.hexgrid import Hex
    from hexwar.core.scenario import Scenario

PLUGIN = PluginManifest(
    name="firefight.improved_positions", system="firefight", kind="rule",
    title="Improved Positions (Firefight 23.0)",
    summary="Firefight III: IP markers at deployment: dismounted personnel count as in defilade "
            "and are spotted only when adjacent.",
    implements=("Firefight 23.0", "Firefight 23.1", "Firefight 23.2"),
)


def markers(game: Game) -> dict[str, str]:
    out: dict[str, str] = rstate(game, "ip").setdefault("markers", {})
    return out


def place_problem(game: Game) -> str | None:
    """Firefight 23.2: only at the start of a scenario."""
    return None if game.state.turn == 0 else \
        "Improved Positions are placed when a scenario begins, never during play (Firefight 23.2)"


def place(game: Game, side: str, hex_label: str) -> None:
    why = place_problem(game)
    if why:
        from hexwar.core.errors import RulesError

        raise RulesError(why, rule="Firefight 23.2")
    lbl = game.board.label(game.board.parse(hex_label))
    markers(game)[lbl] = side
    occupy(game)


def occupy(game: Game) -> None:
    """Firefight 23.0: the dismounted personnel under a marker at the initial deployment are in it."""
    for lbl, side in markers(game).items():
        h = game.board.parse(lbl)
        for u in game.state.units.values():
            if u.hex == h and u.side == side and not vehicle(u) and not u.state.get("carrier"):
                u.state["ip"] = lbl


def benefits(u: Unit, h: Hex | None, ip_hex: Hex | None) -> bool:
    """Firefight 23.0: dismounted personnel still in their Improved Position."""
    return (h is not None and h == ip_hex and not vehicle(u) and not u.state.get("carrier"))


def in_ip(game: Game, u: Unit) -> bool:
    lbl = u.state.get("ip")
    if not lbl or lbl not in markers(game):
        return False
    return benefits(u, u.hex, game.board.parse(str(lbl)))


@hookimpl
def hexwar_validate_scenario(scenario: Scenario) -> Sequence[Problem]:
    v = scenario.raw.get("special", {}).get("improved_positions", {})
    if not isinstance(v, dict) or any(s not in ("US", "SU") for s in v):
        return [Problem("improved_positions is {US = [hexes], SU = [hexes]}", scenario.path,
                        "special.improved_positions")]
    return []


@hookimpl
def hexwar_setup_game(game: Game) -> None:
    for side, hexes in game.scenario.raw.get("special", {}).get("improved_positions",
                                                               {}).items():
        for lbl in hexes:
            place(game, str(side), str(lbl))


@hookimpl
def hexwar_turn_end(game: Game) -> None:
    """Firefight 23.0: a vacant Improved Position marker is removed at the end of the Game-Turn."""
    for lbl in list(markers(game)):
        h = game.board.parse(lbl)
        if not any(in_ip(game, u) and u.hex == h for u in game.state.units.values()):
            del markers(game)[lbl]
            game.emit("ip_removed", hex=lbl, rule="Firefight 23.0")
    for u in game.state.units.values():
        if u.state.get("ip") and not in_ip(game, u):
            u.state.pop("ip", None)


@hookimpl
def hexwar_phase_end(game: Game, phase: Any) -> None:
    if phase.name == "firefight.deploy":
        for u in game.state.units.values():  # the deployment may have moved units
            u.state.pop("ip", None)
        occupy(game)
    else:
        for u in game.state.units.values():
            if u.state.get("ip") and not in_ip(game, u):
                u.state.pop("ip", None)  # it left the position (Firefight 23.0)


@hookimpl
def firefight_target_in_defilade(game: Game | None, firer_hex: Hex, target_id: str,
                                 base: bool) -> bool | None:
    """Firefight 23.1: counts as in defilade (no more if already in defilade)."""
    if game is None:
        return None
    u = game.state.units[target_id]
    return True if in_ip(game, u) else None


@hookimpl
def firefight_describe(game: Game, side: str | None) -> Mapping[str, Any]:
    return {"improved_positions": dict(markers(game))}
