"""Firefight 22.0 Indirect Fire Scatter (modification of Firefight 8.52).

Cases: (Firefight 22.0) Planned (On Call) fire scatters only on a die of 1 or 2 (33%); Continuous Fire
only on a 1 (16.7%), whether it began On Call or at a Target of Opportunity; fire at a Target of
Opportunity keeps (Firefight 8.52) (odd die). (Firefight 22.1) Continuous Fire of a Suppressive
mission (Firefight 19) always scatters (left to suppressive_fire.py); Continuous Fire of a Dedicated
Battery mission (Firefight 21) (Priority, Planned or TOO) scatters on a 1. The first impact of a
dedicated unit is (Firefight 21)'s (always one hex). docs/decisions.md FFD-31: Scheduled Fire counts
as Planned when its hex is listed.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from hexwar.core.markers import hookimpl
from hexwar.core.types import PluginManifest
from hexwar.plugins.firefight.rules._common import enabled

if TYPE_CHECKING:
    from hexwar.core.engine.game import Game

PLUGIN = PluginManifest(
    name="firefight.scatter", system="firefight", kind="rule",
    title="Indirect Fire Scatter (Firefight 22.0)",
    summary="Firefight III: planned fire scatters on 1-2, continuous fire on 1, TOO unchanged.",
    implements=("Firefight 22.0", "Firefight 22.1"),
)

PLANNED_SCATTER = (1, 2)  # Firefight 22.0 33%
CONTINUOUS_SCATTER = (1,)  # Firefight 22.0, Firefight 22.1 16.7%


def scatters(kind: str, roll: int) -> bool:
    """Firefight 22.0, 8.52: does the fire scatter (one hex) on this die? ``kind``: "planned",
    "continuous" or "too"."""
    if kind == "continuous":
        return roll in CONTINUOUS_SCATTER
    if kind == "planned":
        return roll in PLANNED_SCATTER
    return roll % 2 == 1  # Firefight 8.52: unchanged for Targets of Opportunity


def mission_class(mission: dict[str, Any]) -> str:
    if mission.get("continuous"):
        return "continuous"
    return "planned" if mission.get("planned") else "too"


@hookimpl
def firefight_scatter(game: Game, mission: dict[str, Any]) -> int | None:
    if enabled(game, "firefight.suppressive_fire"):
        from hexwar.plugins.firefight.rules.suppressive_fire import is_suppressive

        if is_suppressive(game, mission):
            return None  # Firefight 19.0, Firefight 22.1: always scatters
    if enabled(game, "firefight.dedicated_battery"):
        from hexwar.plugins.firefight.rules.dedicated_battery import is_first

        if is_first(game, mission):
            return None  # Firefight 21.21, 21.3
    kind = mission_class(mission)
    return 1 if scatters(kind, game.dice.d6(f"scatter {mission.get('unit')}")) else 0
