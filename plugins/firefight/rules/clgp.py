"""Firefight 26.0 CLGP (Cannon-Launched Guided Projectile).

Cases: (Firefight 26.0) every U.S. Fireteam carries a laser designator; in the Direct Fire Phase of one
turn it designates a Soviet unit in its line of sight (an action of the phase, not its fire);
if in the Direct Fire Phase of the next turn the designating team still sights that unit, the
unit is attacked at an Attack Rating of 9; this is in addition to any normal fire of the team
in either turn.

Design (docs/decisions.md FFD-34): no 155mm unit is required; "still sights" = both on the map,
the team not carried, a line of sight, and the target not face-down (Firefight 11.21); the attack uses the
CRT of the target's type with its terrain benefit; it does not count as the target's one
Direct Fire Phase attack (Firefight 6.13); one designation per team at a time. The attack is resolved at
the start of that Direct Fire Phase. Designations are secret until used.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from hexwar.core.markers import hookimpl
from hexwar.core.types import PluginManifest
from hexwar.plugins.firefight.rules._common import FIRETEAMS, Step, roll2d6, rstate, tname

if TYPE_CHECKING:
    from hexwar.core.engine.game import Game
    from hexwar.core.engine.state import Unit
    from hexwar.core.types import PhaseSpec

PLUGIN = PluginManifest(
    name="firefight.clgp", system="firefight", kind="rule",
    title="CLGP (Firefight 26.0)",
    summary="Firefight III: a U.S. fireteam laser-designates a Soviet unit; AR 9 attack next "
            "turn if still sighted.",
    implements=("Firefight 26.0",),
)

CLGP_AR = 9  # Firefight 26.0
ACTION = "clgp_designate"


def designations(game: Game) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = rstate(game, "clgp").setdefault("designations", [])
    return out


def still_sighted(game: Game, team: Unit, target: Unit) -> bool:
    from hexwar.plugins.firefight.fire import untargetable
    from hexwar.plugins.firefight.sighting import has_los

    if team.hex is None or target.hex is None or team.state.get("carrier"):
        return False
    if target.id in untargetable(game, team.side):
        return False
    return has_los(game, team.hex, target.hex)


def designate_problem(game: Game, team_id: str, target_id: str) -> str | None:
    if game.state.phase != "firefight.direct_fire":
        return "designation is made in the Direct Fire Phase (Firefight 26.0)"
    team, tgt = game.state.units.get(team_id), game.state.units.get(target_id)
    if team is None or tgt is None:
        return "unknown unit"
    if team.side != "US" or tname(team) not in FIRETEAMS:
        return "only U.S. Fireteams carry the laser designator (Firefight 26.0)"
    if tgt.side != "SU":
        return "the designated unit must be Soviet (Firefight 26.0)"
    if any(d["team"] == team_id for d in designations(game)):
        return "this team is already designating a unit"
    if not still_sighted(game, team, tgt):
        return "the unit must be in the team's line of sight (Firefight 26.0)"
    return None


def clgp_attack(game: Game, target: Unit, roll: int | None = None) -> dict[str, Any]:
    """AR 9 on the CRT of the target's type, with its terrain benefit (design)."""
    from hexwar.plugins.firefight.fire import apply_result, crt_result, terrain_filters
    from hexwar.plugins.firefight.state import is_vehicle, report_about

    assert target.hex is not None
    if roll is None:
        roll = roll2d6(game, "CLGP")
    crt = "anti_armor" if is_vehicle(target) else "anti_personnel"
    # the terrain of the target's hex protects (design); a shell from above ignores defilade
    filters = [f for f in terrain_filters(game, game.board, target.hex, target)
               if f != "defilade"]
    res = crt_result(crt, CLGP_AR, roll, filters)[0]
    applied = apply_result(game, target.id, res, "clgp")
    report_about(game, "clgp", [target.id], result=res, rules=["Firefight 26.0"], target=target.id,
                 ar=CLGP_AR, roll=roll, applied=applied)
    return {"roll": roll, "result": res, "applied": applied}


def resolve_designations(game: Game) -> list[dict[str, Any]]:
    """At the start of the Direct Fire Phase: last turn's designations strike if still sighted."""
    out = []
    keep = []
    for d in designations(game):
        if d["turn"] >= game.state.turn:
            keep.append(d)
            continue
        team, tgt = game.state.units.get(d["team"]), game.state.units.get(d["target"])
        if team is not None and tgt is not None and still_sighted(game, team, tgt):
            out.append(clgp_attack(game, tgt))
        else:
            game.emit("clgp_lost", visible_to=["US"], team=d["team"], target=d["target"],
                      rule="Firefight 26.0")
    rstate(game, "clgp")["designations"] = keep
    return out


@hookimpl
def hexwar_phase_start(game: Game, phase: PhaseSpec) -> None:
    if phase.name == "firefight.direct_fire":
        resolve_designations(game)


@hookimpl
def firefight_phase_actions(game: Game, side: str, phase: str) -> Sequence[Mapping[str, Any]]:
    if side != "US" or phase != "firefight.direct_fire":
        return []
    out = []
    for team in game.state.units_of("US"):
        if tname(team) not in FIRETEAMS or team.hex is None:
            continue
        for tgt in game.state.units_of("SU"):
            if tgt.hex is not None and designate_problem(game, team.id, tgt.id) is None:
                out.append({"action": ACTION, "team": team.id, "target": tgt.id})
    return out


def _designate(game: Game, choice: Mapping[str, Any]) -> Step:
    designations(game).append({"team": str(choice["team"]), "target": str(choice["target"]),
                               "turn": game.state.turn})
    game.emit("clgp_designation", visible_to=["US"], team=choice["team"],
              target=choice["target"], rule="Firefight 26.0")
    return
    yield


@hookimpl
def firefight_run_action(game: Game, side: str, choice: Mapping[str, Any]) -> Step | None:
    if choice.get("action") != ACTION:
        return None
    if designate_problem(game, str(choice.get("team")), str(choice.get("target"))) is not None:
        return None  # offered options are always legal; anything else is not ours
    return _designate(game, choice)
