"""Firefight 14.0 Smoke.

Cases: (Firefight 14.0) a mortar or artillery mission may be plotted as smoke ("SM"); it is executed like
any mission (delay, availability, adjustment, scatter) but a Smoke Marker goes on the impact
hex instead of an Impact Marker; each Smoke Marker is removed in the Indirect Fire Phase on a
die roll of 1 or 2 and otherwise stays (phase ``firefight.smoke_removal`` right after the
Impact Markers are removed, design: one roll per marker). (Firefight 14.1) whatever the firing unit, a
smoke impact covers the impact hex and its six neighbours and blocks the line of sight like an
"instant forest"; (Firefight 14.11) no LOS through a smoke hex (absolute, also under (Firefight 13):
docs/decisions.md FFD-26); (Firefight 14.12) a unit fired on in a smoke hex gets the Forest benefit,
nothing more if the hex is Forest; (Firefight 14.13) no effect on movement; (Firefight 14.14)
overlapping smoke adds nothing.

State ``game.state.data["firefight.smoke"]["markers"]``: [{hex, side, turn, by}] (public).
The instant smoke of Firefight 27.6 uses :func:`place_smoke`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from hexwar.core.hexgrid import Hex
from hexwar.core.kit import StashKey
from hexwar.core.los import LosEffect
from hexwar.core.markers import hookimpl
from hexwar.core.types import PhaseSpec, PluginManifest, SequenceEdit
from hexwar.plugins.firefight.rules._common import Step, bump_los, rstate

if TYPE_CHECKING:
    from hexwar.core.board import Board
    from hexwar.core.engine.game import Game
    from hexwar.core.los import HexsideHow, LosContext

PLUGIN = PluginManifest(
    name="firefight.smoke", system="firefight", kind="rule",
    title="Smoke (Firefight 14.0)",
    summary="Firefight II: smoke missions; 7-hex smoke blocks LOS like forest, gives forest "
            "protection, lifts on a d6 of 1-2.",
    implements=("Firefight 14.0", "Firefight 14.1", "Firefight 14.11", "Firefight 14.12",
                "Firefight 14.13", "Firefight 14.14"),
)

#: (LOS epoch, the smoked hexes) of the game
SMOKE_HEXES = StashKey[tuple[int, set[Hex]]]("firefight.smoke_hexes")
SMOKE_RADIUS = 1  # Firefight 14.1: impact hex and all adjacent hexes (only)
REMOVE_ON = (1, 2)  # Firefight 14.0


def smoke_area(center: Hex) -> set[Hex]:
    """Firefight 14.1: the hexes one smoke impact covers."""
    return set(center.within(SMOKE_RADIUS))


def smoke_hexes(centers: Iterable[Hex]) -> set[Hex]:
    """Firefight 14.14: overlapping smoke is just smoke: the union of the areas."""
    out: set[Hex] = set()
    for c in centers:
        out |= smoke_area(c)
    return out


def smoke_removed(roll: int) -> bool:
    """Firefight 14.0: a Smoke Marker is removed on 1 or 2, else it stays."""
    return roll in REMOVE_ON


def smoke_hexes_of(game: Game) -> set[Hex]:
    """The smoked hexes now (cached per LOS epoch: this is read inside LOS tracing)."""
    epoch = game.state.data.get("firefight", {}).get("los_epoch", 0)
    cached = game.stash.get(SMOKE_HEXES)
    if cached is not None and cached[0] == epoch:
        return cached[1]
    centers = [game.board.parse(m["hex"]) for m in rstate(game, "smoke").get("markers", [])]
    hexes = {h for h in smoke_hexes(centers) if h in game.board.hexes}
    game.stash[SMOKE_HEXES] = (epoch, hexes)
    return hexes


def place_smoke(game: Game, hex_label: str, side: str, by: str, rule: str) -> None:
    markers = rstate(game, "smoke").setdefault("markers", [])
    markers.append({"hex": hex_label, "side": side, "turn": game.state.turn, "by": by})
    bump_los(game)
    from hexwar.plugins.firefight.state import emit_about

    emit_about(game, "smoke_placed", [by] if by in game.state.units else [], hex=hex_label,
               side=side, by=by, rule=rule)


class SmokeLayer:
    """Firefight 14.11: smoke blocks like Forest (absolutely)."""

    name = "14-smoke"

    def hex_effect(self, board: Board, h: Hex, ctx: LosContext) -> LosEffect | None:
        game = ctx.data
        if game is None or not hasattr(game, "state"):
            return None
        if h in smoke_hexes_of(game):
            return LosEffect("block", 0, "smoke hex between", "Firefight 14.11")
        return None

    def hexside_effect(self, board: Board, a: Hex, b: Hex, how: HexsideHow, ctx: LosContext
                       ) -> LosEffect | None:
        return None


def smoke_removal(game: Game) -> Step:
    """Firefight 14.0: one die per Smoke Marker: 1-2 removes it."""
    markers = rstate(game, "smoke").get("markers", [])
    keep = []
    for m in markers:
        roll = game.dice.d6(f"smoke at {m['hex']}")
        if smoke_removed(roll):
            game.emit("smoke_removed", hex=m["hex"], roll=roll, rule="Firefight 14.0")
        else:
            keep.append(m)
    if len(keep) != len(markers):
        rstate(game, "smoke")["markers"] = keep
        bump_los(game)
    return
    yield


@hookimpl
def hexwar_sequence_edits(system: str) -> Sequence[SequenceEdit]:
    return [SequenceEdit("insert_after", "firefight.if_cleanup",
                         PhaseSpec("firefight.smoke_removal", "D. Smoke markers checked",
                                   "Firefight 14.0", smoke_removal), "Firefight 14.0")]


@hookimpl
def firefight_los_layers(game: Game | None) -> Sequence[Any]:
    return [SmokeLayer()]


@hookimpl
def firefight_mission_kinds(game: Game, side: str, if_unit: str) -> Sequence[str]:
    return ["smoke"]  # Firefight 14.0: mortar or artillery units may fire smoke


@hookimpl
def firefight_place_impact(game: Game, mission: dict[str, Any], hex_label: str) -> bool | None:
    if mission.get("kind") != "smoke":
        return None
    place_smoke(game, hex_label, str(mission["side"]), str(mission["unit"]), "Firefight 14.0, 14.1")
    return True


@hookimpl
def firefight_terrain_filters(game: Game, attack: dict[str, Any]) -> Mapping[str, Sequence[str]]:
    """Firefight 14.12: a target in a smoke hex gets the Forest benefit (no more if already Forest)."""
    if attack.get("mode") in ("indirect", "mine", "overrun"):
        return {}
    t = game.state.units.get(attack.get("target", ""))
    if t is None or t.hex is None or t.hex not in smoke_hexes_of(game):
        return {}
    return {"add": ["forest"]}


@hookimpl
def firefight_describe(game: Game, side: str | None) -> Mapping[str, Any]:
    return {"smoke": [dict(m) for m in rstate(game, "smoke").get("markers", [])]}
