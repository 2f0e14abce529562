"""Firefight 16.0 Mounted Combat: fireteams firing from their APCs.

Cases: (Firefight 16.0) only Fireteams, while mounted; (Firefight 16.1) one Soviet Fireteam per BMP,
maximum range four hexes, Attack Rating -4 at ranges 1-4; the BMP may fire normally but may not move
in a turn its team fired mounted; (Firefight 16.11) the team stays inside the BMP (it cannot be
targeted) and may not fire its RPG-7; (Firefight 16.2) one U.S. Fireteam per M113, range unchanged,
Attack Rating -1; Firefight 16.21: it fires from open hatches: for the rest of that Game-Turn it may
be attacked as if dismounted; it may fire LAW or Dragon.

Design (docs/decisions.md FFD-28): the carrier must not have moved this turn when its team fires (the
team moves with it); the M113 may move after its team fired (only the BMP is forbidden).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from hexwar.core.markers import hookimpl
from hexwar.core.types import Modifier, PluginManifest
from hexwar.plugins.firefight.rules._common import FIRETEAMS, tname

if TYPE_CHECKING:
    from hexwar.core.engine.game import Game
    from hexwar.core.engine.state import Unit

PLUGIN = PluginManifest(
    name="firefight.mounted_combat", system="firefight", kind="rule",
    title="Mounted Combat (Firefight 16.0)",
    summary="Firefight II: one fireteam fires from a BMP (range 4, -4; BMP then stays) or an "
            "M113 (-1; the team is then exposed).",
    implements=("Firefight 16.0", "Firefight 16.1", "Firefight 16.11", "Firefight 16.2",
                "Firefight 16.21"),
)

#: carrier type -> (firer side, AR modifier, maximum range or None, case)
CARRIERS: dict[str, tuple[str, int, int | None, str]] = {
    "SU-BMP": ("SU", -4, 4, "Firefight 16.1"),
    "US-M113": ("US", -1, None, "Firefight 16.2"),
}
PER_TURN = ("r16_fired_mounted", "r16_exposed", "r16_no_move")


def carrier_of(game: Game, u: Unit) -> Unit | None:
    c = u.state.get("carrier")
    return game.state.units.get(str(c)) if c else None


def mounted_fire_problem(game: Game, team: Unit) -> str | None:
    """Why ``team`` may not fire from its vehicle now (Firefight 16.0, 16.1, 16.2)."""
    v = carrier_of(game, team)
    if v is None:
        return "the team is not mounted"
    if tname(team) not in FIRETEAMS:
        return "only Fireteams fire mounted (Firefight 16.0)"
    spec = CARRIERS.get(tname(v))
    if spec is None or spec[0] != team.side:
        return "mounted fire only from a BMP (Soviet) or an M113 (U.S.) (Firefight 16.1, 16.2)"
    if v.state.get("moved"):
        return "the vehicle has moved this turn (docs/decisions.md FFD-28)"
    others = [p for p in v.state.get("passengers", []) if p != team.id
              and game.state.units[p].state.get("r16_fired_mounted")]
    if others:
        return "only one Fireteam may fire from a vehicle (Firefight 16.1, 16.2)"
    return None


def mounted_modifier(carrier_type: str) -> tuple[int, int | None, str] | None:
    """(AR modifier, maximum range, case) for a team firing from ``carrier_type``."""
    spec = CARRIERS.get(carrier_type)
    return None if spec is None else (spec[1], spec[2], spec[3])


@hookimpl
def hexwar_turn_start(game: Game) -> None:
    for u in game.state.units.values():
        for k in PER_TURN:
            u.state.pop(k, None)


@hookimpl
def firefight_fire_exemptions(game: Game, firer_id: str, mode: str) -> Sequence[str]:
    u = game.state.units[firer_id]
    if u.state.get("carrier") and mounted_fire_problem(game, u) is None:
        return ["passenger"]
    return []


def _mounted(game: Game, attack: dict[str, Any]) -> tuple[Unit, Unit] | None:
    fid = attack.get("firer")
    f = game.state.units.get(str(fid)) if fid else None
    if f is None or not f.state.get("carrier"):
        return None
    v = carrier_of(game, f)
    if v is None or tname(v) not in CARRIERS:
        return None
    return f, v


@hookimpl
def firefight_fire_restrictions(game: Game, attack: dict[str, Any]) -> Sequence[str]:
    m = _mounted(game, attack)
    if m is None:
        return []
    if tname(m[1]) == "SU-BMP" and attack.get("line") == "SU-RPG7":
        return ["RPG-7s may not be fired from inside a BMP Firefight 16.11"]
    return []


@hookimpl
def firefight_base_attack_rating(game: Game, attack: dict[str, Any],
                                 base: int | None) -> tuple[int | None, str] | None:
    """Firefight 16.1: a team firing from a BMP reaches four hexes at most."""
    m = _mounted(game, attack)
    if m is None:
        return None
    spec = mounted_modifier(tname(m[1]))
    assert spec is not None
    if spec[1] is not None and int(attack["range"]) > spec[1]:
        return None, spec[2]
    return None


@hookimpl
def firefight_fire_modifiers(game: Game, attack: dict[str, Any]) -> Sequence[Modifier]:
    m = _mounted(game, attack)
    if m is None:
        return []
    spec = mounted_modifier(tname(m[1]))
    assert spec is not None
    return [Modifier("mounted fire", spec[0], spec[2])]


@hookimpl
def firefight_attack_done(game: Game, attack: dict[str, Any], outcome: dict[str, Any]) -> None:
    m = _mounted(game, attack)
    if m is None:
        return
    team, v = m
    team.state["r16_fired_mounted"] = True
    if tname(v) == "SU-BMP":
        v.state["r16_no_move"] = True  # Firefight 16.1
    else:
        team.state["r16_exposed"] = True  # Firefight 16.21


@hookimpl
def firefight_extra_targets(game: Game, side: str) -> Sequence[str]:
    """Firefight 16.21: a U.S. team that fired from its M113 may be attacked as if dismounted."""
    return [u.id for u in game.state.units.values()
            if u.side != side and u.state.get("r16_exposed") and u.state.get("carrier")]


@hookimpl
def firefight_move_restrictions(game: Game, unit_id: str, src: str, dst: str) -> Sequence[str]:
    if game.state.units[unit_id].state.get("r16_no_move"):
        return ["the BMP's Fireteam fired mounted this turn: the BMP may not move (Firefight 16.1)"]
    return []
