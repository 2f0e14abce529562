"""House rule ``firefight.fog`` (not in the Firefight rulebook): fog hides distant targets.

An attack at more than 20 hexes (1 km) is at -2 to its Attack Rating. Firefight calls its hook
``firefight_fire_modifiers`` once for every attack, with a description of the attack (a dict:
firer, target, weapon, ``range`` in hexes, mode...; see ``hexwar.plugins.firefight.hookspecs``),
and adds the values of the modifiers that come back to the Attack Rating.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from hexwar.core.markers import hookimpl
from hexwar.core.types import Modifier, PluginManifest

if TYPE_CHECKING:
    from hexwar.core.engine.game import Game

PLUGIN = PluginManifest(
    name="firefight.fog",
    system="firefight",
    kind="rule",
    title="Fog (house rule)",
    summary="House rule, in no rulebook: attacks at more than 20 hexes are at -2 Attack Rating.",
    version="0.1.0",
)

FOG_RANGE = 20  # hexes of 50 m
FOG = Modifier("fog", -2, "house rule firefight.fog")


@hookimpl
def firefight_fire_modifiers(game: Game, attack: dict[str, Any]) -> Sequence[Modifier]:
    return [FOG] if attack["range"] > FOG_RANGE else []
