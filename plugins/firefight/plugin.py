"""Firefight (SPI, 1976): the system plugin for Firefight I, cases [1.0]-[9.0] and the Addenda."""

from __future__ import annotations

from hexwar.core.types import PluginManifest
from hexwar.plugins.firefight import hookspecs as HOOKSPECS  # the manager adds these

PLUGIN = PluginManifest(
    name="firefight",
    system="firefight",
    kind="system",
    title="Firefight: Modern U.S. and Soviet Small Unit Tactics",
    summary="SPI 1976, Firefight I: direct fire, movement, opportunity fire, indirect fire.",
    implements=("[1.0]", "[2.0]", "[3.0]", "[4.0]", "[5.0]", "[6.0]", "[7.0]", "[8.0]", "[9.0]"),
)

__all__ = ["HOOKSPECS", "PLUGIN"]
