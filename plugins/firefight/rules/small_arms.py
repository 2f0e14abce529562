"""Firefight 24.0 Small Arms Fire versus Armored Vehicles.

Cases: (Firefight 24.0) a fireteam or machine-gun team may fire its rifles and machine guns at a tank or
APC: it uses its Attack Rating on the anti-personnel fire table and the Anti-Personnel CRT, and
any result is only a Suppression (the vehicle buttons up: AR -3 at all ranges, Firefight 6.53).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from hexwar.core.markers import hookimpl
from hexwar.core.types import PluginManifest
from hexwar.plugins.firefight.rules._common import SMALL_ARMS_TEAMS, tname, vehicle

if TYPE_CHECKING:
    from hexwar.core.engine.game import Game

PLUGIN = PluginManifest(
    name="firefight.small_arms", system="firefight", kind="rule",
    title="Small Arms Fire versus Armored Vehicles (Firefight 24.0)",
    summary="Firefight III: fireteams and MGs fire at vehicles on the anti-personnel line and "
            "CRT; any result is a Suppression.",
    implements=("Firefight 24.0",),
)

WEAPON_KIND = "small_arms"


def small_arms_result(result: str) -> str:
    """Firefight 24.0: any result becomes S."""
    return "-" if result == "-" else "S"


def is_small_arms(attack: Mapping[str, Any]) -> bool:
    return attack.get("crt") == "anti_personnel" and attack.get("target_class") in ("apc", "tank")


@hookimpl
def firefight_weapon_options(game: Game, firer_id: str, target_id: str,
                             mode: str) -> Sequence[Mapping[str, Any]]:
    f, t = game.state.units[firer_id], game.state.units[target_id]
    if tname(f) not in SMALL_ARMS_TEAMS or not vehicle(t) or f.side == t.side:
        return []
    from hexwar.plugins.firefight.state import target_class

    if target_class(game, t) == "personnel":
        return []  # already attacked as personnel (Scn 3 jeep TOW)
    return [{"weapon": WEAPON_KIND, "line": tname(f), "crt": "anti_personnel", "kind": "small",
             "rule": "Firefight 24.0"}]


@hookimpl
def firefight_base_attack_rating(game: Game, attack: dict[str, Any],
                                 base: int | None) -> tuple[int | None, str] | None:
    """Firefight 24.0: the firer's anti-personnel Attack Rating at this range."""
    if not is_small_arms(attack):
        return None
    from hexwar.plugins.firefight.fire import base_rating

    return base_rating(str(attack["line"]), "personnel", int(attack["range"])), "Firefight 24.0"


@hookimpl
def firefight_result_override(game: Game, attack: dict[str, Any], roll: int,
                              result: str) -> Sequence[str]:
    return [small_arms_result(result)] if is_small_arms(attack) else []
