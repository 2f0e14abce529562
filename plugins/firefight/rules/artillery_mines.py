"""Firefight 25.0 Artillery Delivered Mines.

Cases: (Firefight 25.0) the U.S. player may have his 155mm units fire "mines": the mission is executed
like any other (plot, delay, availability, adjustment, scatter); a Mine Marker goes on the
impact hex and the impact hex and every adjacent hex become mined, attacking any unit that
enters at an Attack Rating of 8. Requires (Firefight 18.0) (the mine attack on entry; never cleared,
Addenda). docs/decisions.md FFD-33: an artillery-mined hex attacks separately from conventional mines.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from hexwar.core.markers import hookimpl
from hexwar.core.types import PluginManifest
from hexwar.plugins.firefight.rules.mines import artillery_fields

if TYPE_CHECKING:
    from hexwar.core.engine.game import Game

PLUGIN = PluginManifest(
    name="firefight.artillery_mines", system="firefight", kind="rule",
    title="Artillery Delivered Mines (Firefight 25.0)",
    summary="Firefight III: U.S. 155mm mine missions mine the impact hex and its neighbours "
            "(AR 8 on entry).",
    implements=("Firefight 25.0",),
    requires=("firefight.mines",),
)

ARTILLERY_MINE_AR = 8  # Firefight 25.0
RADIUS = 1  # Firefight 25.0: impact hex and all adjacent hexes
UNIT_TYPES = frozenset({"155mm"})  # Firefight 25.0: the U.S. 155mm batteries


def may_fire_mines(side: str, if_type: str) -> bool:
    return side == "US" and if_type in UNIT_TYPES


def mined_hexes(game: Game, center_label: str) -> list[str]:
    c = game.board.parse(center_label)
    return sorted(game.board.label(h) for h in c.within(RADIUS) if h in game.board.hexes)


@hookimpl
def firefight_mission_kinds(game: Game, side: str, if_unit: str) -> Sequence[str]:
    from hexwar.plugins.firefight.indirect import if_units

    u = if_units(game).get(if_unit)
    return ["mines"] if u is not None and may_fire_mines(side, str(u["type"])) else []


@hookimpl
def firefight_place_impact(game: Game, mission: dict[str, Any], hex_label: str) -> bool | None:
    if mission.get("kind") != "mines":
        return None
    hexes = mined_hexes(game, hex_label)
    art = artillery_fields(game)
    for lbl in hexes:
        art[lbl] = ARTILLERY_MINE_AR
    game.emit("artillery_mines", center=hex_label, hexes=hexes, ar=ARTILLERY_MINE_AR,
              by=mission.get("unit"), rule="Firefight 25.0")
    return True
