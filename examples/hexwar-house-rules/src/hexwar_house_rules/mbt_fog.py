"""House rule ``mbt.fog`` (not in the MBT rulebook): fog hides distant targets.

A shot at more than 10 hexes (1 km) gets a further -5 AP point effect modifier, as much as one
hex of brew-up smoke (MBT 7.4.2.3.3). MBT calls its hook ``mbt_ap_modifiers`` once for every
shot, with the shot's ``situation`` (firer and target cards, weapon, ammunition, ``range`` in
hexes...; see ``hexwar.plugins.mbt.hookspecs``), and adds the modifiers that come back to the net
modifier, which picks the line of the AP POINT EFFECT HIT CHART (MBT 7.4.3).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from hexwar.core.markers import hookimpl
from hexwar.core.types import Modifier, PluginManifest

if TYPE_CHECKING:
    from hexwar.core.engine.game import Game
    from hexwar.core.engine.state import Unit
    from hexwar.plugins.mbt.ap_fire import Situation

PLUGIN = PluginManifest(
    name="mbt.fog",
    system="mbt",
    kind="rule",
    title="Fog (house rule)",
    summary="House rule, in no rulebook: shots at more than 10 hexes get a further -5 modifier.",
    version="0.1.0",
)

FOG_RANGE = 10  # hexes of 100 m
FOG = Modifier("fog", -5, "house rule mbt.fog")


@hookimpl
def mbt_ap_modifiers(game: Game, situation: Situation, firer: Unit,
                     target: Unit) -> Sequence[Modifier]:
    return [FOG] if situation.range > FOG_RANGE else []
