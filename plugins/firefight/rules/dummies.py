"""Firefight 12.0 Dummies: face-down counters that are nothing.

Dummies are counters of type ``US-Dummy``/``SU-Dummy`` (the back of a Suppression marker) with
``state.dummy = true``, deployed face-down like real units (Firefight 11.0; this rule requires
``firefight.observation``). They move like what they claim to be (``state.claim``; the system's
``movement.moves_as_vehicle``): personnel one hex a turn, a "vehicle" with MA 3 and vehicle
terrain costs (docs/decisions.md FFD-25); a dummy drawn from a cup of vehicles only (Scn 9) claims to be a
vehicle unless the scenario says otherwise. They never board a vehicle, never fire, never count
for stacking (Firefight 7.3), answer the
"personnel or vehicle?" question as their owner chose (``state.claim``) (Firefight 11.0), and are removed
as soon as they are spotted (Firefight 12.0) (observation.reveal). Scenarios 7 and 9 draw them from the
cup (the system's draw keeps them when this rule is on). Extra dummies for any scenario:
``[special] dummies = {US = ["1005", ...], SU = [...]}`` places one dummy per listed hex;
and in the setup phase ``firefight.place_dummies`` (after the deployment) each player may
secretly add dummies near his units (Firefight 12.0 "whenever the Players deploy"). (Firefight 12.0)
advises at most six at a time, which :func:`dummy_problem` / :func:`placement_problem` enforce as a
limit of six per side. The anonymous counter names of Firefight 11 are shuffled again afterwards,
so a dummy's name tells nothing.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from hexwar.core.engine.decisions import Decision
from hexwar.core.engine.primitives import ask_all
from hexwar.core.markers import hookimpl
from hexwar.core.types import PhaseSpec, PluginManifest, Problem, SequenceEdit
from hexwar.plugins.firefight.rules._common import Step, vehicle

if TYPE_CHECKING:
    from hexwar.core.engine.game import Game
    from hexwar.core.scenario import Scenario

PLUGIN = PluginManifest(
    name="firefight.dummies", system="firefight", kind="rule",
    title="Dummies (Firefight 12.0)",
    summary="Firefight II: face-down dummy counters (up to six a side) removed when spotted.",
    implements=("Firefight 12.0",),
    requires=("firefight.observation",),
)

MAX_DUMMIES = 6  # Firefight 12.0: the text advises six at most; hexwar enforces it
NEAR = 2  # design: a dummy is placed within two hexes of a friendly unit, where a unit could be


def is_dummy(game: Game, uid: str) -> bool:
    u = game.state.units.get(uid)
    return u is not None and (bool(u.state.get("dummy")) or u.type.endswith("-Dummy"))


def dummy_problem(spec: Any) -> str | None:
    """Check ``[special] dummies``: {side: [hex labels]} with at most six per side (Firefight 12.0)."""
    if not isinstance(spec, dict):
        return "dummies is a table {US = [hexes], SU = [hexes]}"
    for side, hexes in spec.items():
        if side not in ("US", "SU"):
            return f"unknown side {side!r}"
        if not isinstance(hexes, list) or len(hexes) > MAX_DUMMIES:
            return f"{side}: a list of at most {MAX_DUMMIES} hexes (Firefight 12.0)"
    return None


@hookimpl
def hexwar_validate_scenario(scenario: Scenario) -> Sequence[Problem]:
    spec = scenario.raw.get("special", {}).get("dummies")
    if spec is None:
        return []
    why = dummy_problem(spec)
    return [Problem(why, scenario.path, "special.dummies")] if why else []


@hookimpl(tryfirst=True)
def hexwar_setup_game(game: Game) -> None:
    """Mark dummy counters and add the scenario's extra dummies (before (Firefight 11) turns every counter
    face-down: tryfirst)."""
    from hexwar.core.engine.state import Unit

    for u in game.state.units.values():
        if u.type.endswith("-Dummy"):
            u.state["dummy"] = True
    for spec in game.scenario.raw.get("special", {}).get("draw", {}).values():
        cup = [game.state.units[str(x)] for x in spec.get("cup", ()) if str(x) in game.state.units]
        real = [u for u in cup if not u.state.get("dummy")]
        if real and all(vehicle(u) for u in real):  # Firefight 12.0: pass as one of the cup's vehicles
            for u in cup:
                if u.state.get("dummy"):
                    u.state.setdefault("claim", "vehicle")
    spec = game.scenario.raw.get("special", {}).get("dummies") or {}
    for side in sorted(spec):
        for i, lbl in enumerate(spec[side], 1):
            uid = f"dummy-{side.lower()}-x{i}"
            game.state.units[uid] = Unit(uid, f"firefight:{side}-Dummy", side,
                                         game.board.parse(str(lbl)), 1, {"dummy": True})


@hookimpl
def firefight_counts_for_stacking(game: Game, unit_id: str) -> bool | None:
    """Dummies never count toward the four-unit limit (docs/decisions.md FFD-25). (The system reads each
    answer as one bool, ``False`` excluding the unit.)"""
    return False if is_dummy(game, unit_id) else None



def placement_problem(game: Game, side: str, hexes: Any) -> str | None:
    """Dummies placed before play: at most six a side in all (Firefight 12.0), each within two hexes of
    one of the side's units on the map and not in an enemy-occupied hex (design)."""
    if not isinstance(hexes, list):
        return "a list of hex labels"
    have = sum(1 for u in game.state.units.values() if u.side == side and is_dummy(game, u.id)
               and u.hex is not None)
    if have + len(hexes) > MAX_DUMMIES:
        return f"at most {MAX_DUMMIES} dummies a side (Firefight 12.0)"
    own = [u.hex for u in game.state.units.values() if u.side == side and u.hex is not None]
    foes = {u.hex for u in game.state.units.values() if u.side != side and u.hex is not None}
    for lbl in hexes:
        try:
            h = game.board.parse(str(lbl))
        except ValueError as exc:
            return str(exc)
        if h in foes:
            return "not in an enemy-occupied hex (Firefight 7.25)"
        if not any(o is not None and o.distance(h) <= NEAR for o in own):
            return f"a dummy goes within {NEAR} hexes of a friendly unit (design)"
    return None


def suggested(game: Game, side: str) -> list[str]:
    """A plausible placement: empty hexes next to the side's units nearest the enemy."""
    own = [u for u in game.state.units.values() if u.side == side and u.hex is not None
           and not is_dummy(game, u.id)]
    foes = [u.hex for u in game.state.units.values() if u.side != side and u.hex is not None]
    taken = {u.hex for u in game.state.units.values() if u.hex is not None}
    have = sum(1 for u in game.state.units.values() if u.side == side and is_dummy(game, u.id)
               and u.hex is not None)
    room = max(0, MAX_DUMMIES - have)
    if not own or not foes or room == 0:
        return []
    cands = {h for u in own if u.hex is not None for h in u.hex.neighbors()
             if h in game.board.hexes and h not in taken}
    ranked = sorted(cands, key=lambda h: (min(h.distance(f) for f in foes if f is not None),
                                          game.board.label(h)))
    return [game.board.label(h) for h in ranked[: min(room, len(own))]]


def add_dummy(game: Game, side: str, hex_label: str, claim: str = "personnel") -> str:
    from hexwar.core.engine.state import Unit

    n = sum(1 for k in game.state.units if k.startswith(f"dummy-{side.lower()}-"))
    uid = f"dummy-{side.lower()}-{n + 1}"
    game.state.units[uid] = Unit(uid, f"firefight:{side}-Dummy", side,
                                 game.board.parse(hex_label), 1,
                                 {"dummy": True, "claim": claim, "face_down": True})
    return uid


def place_dummies(game: Game) -> Step:
    """Firefight 12.0: both players secretly add dummies at deployment; the counter names of (Firefight
    11) are then shuffled again."""
    decisions, sides = [], []
    for side in ("US", "SU"):
        sug = suggested(game, side)
        opts: list[Any] = [[]]
        if sug and placement_problem(game, side, sug) is None:
            opts.append(sug)

        def validate(choice: Any, side: str = side) -> str | None:
            return placement_problem(game, side, choice)
        decisions.append(Decision(side, "firefight.place_dummies", options=opts,
                                  validate=validate, context={"max": MAX_DUMMIES},
                                  prompt=f"{side}: hexes for dummies (at most {MAX_DUMMIES})",
                                  rule="Firefight 12.0"))
        sides.append(side)
    choices = yield from ask_all(decisions)
    added = False
    for side, hexes in zip(sides, choices, strict=True):
        ids = [add_dummy(game, side, str(h)) for h in hexes]
        if ids:
            added = True
            game.emit("dummies_placed", visible_to=[side], side=side, units=ids, rule="Firefight 12.0")
    if added:
        from hexwar.plugins.firefight.rules.observation import setup_face_down

        setup_face_down(game, again=True)


@hookimpl
def hexwar_sequence_edits(system: str) -> Sequence[SequenceEdit]:
    return [SequenceEdit("insert_after", "firefight.deploy",
                         PhaseSpec("firefight.place_dummies", "Dummies", "Firefight 12.0", place_dummies,
                                   "setup"), "Firefight 12.0")]
