"""Firefight 19.0 Suppressive Fire.

Cases: (Firefight 19.0) any Indirect Fire unit (Organic or Direct Support; not a Dedicated one,
(Firefight 21.4) wins over the "or Dedicated" of (Firefight 19.0), docs/decisions.md FFD-29) may be
asked for Suppressive Fire (plot key "Sp"); its delay is two Game-Turns less than a normal mission
at the same hex (On Call or Target of Opportunity; at least one turn, docs/decisions.md FFD-29); on
impact it always scatters, two hexes on an odd die and one on an even die; Continuous Fire of a
Suppressive mission also always scatters (and Firefight 22.1).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from hexwar.core.markers import hookimpl
from hexwar.core.types import PluginManifest
from hexwar.plugins.firefight.rules._common import rstate

if TYPE_CHECKING:
    from hexwar.core.engine.game import Game

PLUGIN = PluginManifest(
    name="firefight.suppressive_fire", system="firefight", kind="rule",
    title="Suppressive Fire (Firefight 19.0)",
    summary="Firefight II: IF missions two turns faster that always scatter (odd die: two hexes).",
    implements=("Firefight 19.0",),
)

KIND = "suppressive"
DELAY_CUT = 2  # Firefight 19.0


def suppressive_delay(normal: int) -> int:
    """Firefight 19.0: two Game-Turns less than the normal mission; at least 1 (docs/decisions.md FFD-29)."""
    return max(1, normal - DELAY_CUT)


def suppressive_scatter(roll: int) -> int:
    """Firefight 19.0: always scatters: odd die 2 hexes, even die 1 hex."""
    return 2 if roll % 2 else 1


def is_suppressive(game: Game, mission: dict[str, Any]) -> bool:
    """A suppressive mission, or Continuous Fire following one by the same unit (Firefight 19.0)."""
    if mission.get("kind") == KIND:
        return True
    if mission.get("continuous"):
        last = rstate(game, "suppressive").get("last", {}).get(str(mission.get("unit")))
        return last is not None and int(last) == int(mission.get("requested", -99))
    return False


@hookimpl
def firefight_mission_kinds(game: Game, side: str, if_unit: str) -> Sequence[str]:
    from hexwar.plugins.firefight.indirect import if_units

    u = if_units(game).get(if_unit)
    if u is None or u.get("status") == "dedicated":
        return []  # Firefight 21.4
    return [KIND]


@hookimpl
def firefight_mission_delay(game: Game, mission: dict[str, Any], base: int) -> int | None:
    if mission.get("kind") != KIND or mission.get("continuous"):
        return None
    return suppressive_delay(base)


@hookimpl
def firefight_scatter(game: Game, mission: dict[str, Any]) -> int | None:
    if not is_suppressive(game, mission):
        return None
    n = suppressive_scatter(game.dice.d6(f"suppressive scatter {mission.get('unit')}"))
    # remember the impact turn: a Continuous request made this turn scatters too (Firefight 19.0)
    rstate(game, "suppressive").setdefault("last", {})[str(mission.get("unit"))] = \
        game.state.turn
    return n
