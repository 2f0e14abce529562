"""House rule ``firepower.fog`` (not in the Firepower rulebook): fog hides distant targets.

A shot at more than 20 hexes (100 yards) is at +2 to its roll, as if two more trees stood in the
line of sight (Firepower 6.3.6.2.5); a shot hits on a modified roll of the hit number or less.
Firepower calls its hook ``firepower_fire_modifiers`` for each target of a fire (and for a
grenade throw), with the fire's context ``ctx`` (``kind``, weapon, ``range`` in hexes...; see
``hexwar.plugins.firepower.hookspecs``); grenades are left alone here.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from hexwar.core.markers import hookimpl
from hexwar.core.types import Modifier, PluginManifest

if TYPE_CHECKING:
    from hexwar.core.engine.game import Game
    from hexwar.plugins.firepower.combat import FireContext

PLUGIN = PluginManifest(
    name="firepower.fog",
    system="firepower",
    kind="rule",
    title="Fog (house rule)",
    summary="House rule, in no rulebook: fire at more than 20 hexes is at +2 to the roll.",
    version="0.1.0",
)

FOG_RANGE = 20  # hexes of about 5 yards
FOG = Modifier("fog", 2, "house rule firepower.fog")


@hookimpl
def firepower_fire_modifiers(game: Game, ctx: FireContext, target: str) -> Sequence[Modifier]:
    return [FOG] if ctx.kind == "fire" and ctx.range > FOG_RANGE else []
