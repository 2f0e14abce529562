"""Firefight 18.0 Mines (with the Addenda "Friendly Minefields" option).

Cases: (Firefight 18.0) a player has Mine Attack Points (ten unless the scenario says otherwise:
``[special] mines = {US = 25}``); before play he places them in hexes (setup phase
``firefight.mines``, secret and simultaneous; the scenario's ``[special] mines`` gives the points,
``[special] minefields = {SU = {"2832" = 5}}`` a suggested plan), one visible Mine Marker per mined hex and a
secret record of the points in it; any unit entering a mined hex is attacked at an Attack
Rating equal to the points there, on the CRT of its type (Anti-Armor for vehicles,
Anti-Personnel for personnel), with no terrain benefit; mines may be emplaced only before play.
Addenda: mines are never used up or cleared; with ``[special] friendly_minefields = true`` the
owner's own units are not attacked in his hexes of five points or less (six or more attack
both sides).

Hidden information: both sides see the markers (hex and owner); only the owner sees the points
until a unit enters the hex, when the owner announces them (Firefight 18.0) (then logged to all).
Artillery-delivered mines (Firefight 25) are kept here too (``artillery``: hex -> AR 8), each hex
attacking separately from conventional points (docs/decisions.md FFD-33).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from hexwar.core.engine.decisions import Decision
from hexwar.core.engine.primitives import ask_all
from hexwar.core.markers import hookimpl
from hexwar.core.types import PhaseSpec, PluginManifest, Problem, SequenceEdit
from hexwar.plugins.firefight.rules._common import Step, roll2d6, rstate, vehicle

if TYPE_CHECKING:
    from hexwar.core.engine.game import Game
    from hexwar.core.engine.state import Unit
    from hexwar.core.scenario import Scenario

PLUGIN = PluginManifest(
    name="firefight.mines", system="firefight", kind="rule",
    title="Mines (Firefight 18.0)",
    summary="Firefight II: secret mine points (default 10) attack every unit entering the "
            "hex, no terrain benefit.",
    implements=("Firefight 18.0",),
)

DEFAULT_POINTS = 10  # Firefight 18.0
FRIENDLY_SAFE_MAX = 5  # Addenda "Friendly Minefields": <= 5 spares the owner's units


def mine_points(game: Game, side: str) -> int:
    """Firefight 18.0: ten points unless the scenario states otherwise; a scenario that lists
    ``mines`` gives the sides it does not list none (design: Scn 5 gives the U.S. 25)."""
    spec = game.scenario.raw.get("special", {}).get("mines")
    if spec is None:
        return DEFAULT_POINTS
    return int(spec.get(side, 0))


def fields(game: Game) -> dict[str, dict[str, Any]]:
    """hex label -> {"side", "points"} (conventional minefields)."""
    out: dict[str, dict[str, Any]] = rstate(game, "mines").setdefault("fields", {})
    return out


def artillery_fields(game: Game) -> dict[str, int]:
    out: dict[str, int] = rstate(game, "mines").setdefault("artillery", {})
    return out


def emplace_problem(game: Game, side: str, plan: Any) -> str | None:
    """Firefight 18.0: only before play; a {hex: points} plan within the side's Mine Points."""
    if game.state.turn > 0:
        return "mines may only be emplaced before play begins (Firefight 18.0)"
    if not isinstance(plan, Mapping):
        return "a minefield plan is {hex: points}"
    total = 0
    for lbl, pts in plan.items():
        try:
            game.board.parse(str(lbl))
        except ValueError as exc:
            return str(exc)
        if not isinstance(pts, int) or pts <= 0:
            return "mine points are positive whole numbers (Firefight 18.0)"
        total += pts
    if total > mine_points(game, side):
        return f"{total} points exceed the {mine_points(game, side)} available (Firefight 18.0)"
    return None


def emplace(game: Game, side: str, plan: Mapping[str, int]) -> None:
    why = emplace_problem(game, side, plan)
    if why:
        from hexwar.core.errors import RulesError

        raise RulesError(why, rule="Firefight 18.0")
    for lbl, pts in plan.items():
        label = game.board.label(game.board.parse(str(lbl)))
        f = fields(game).setdefault(label, {"side": side, "points": 0})
        f["points"] = int(f["points"]) + int(pts)
    game.emit("mines_emplaced", visible_to=[side], side=side, plan=dict(plan), rule="Firefight 18.0")
    game.emit("mine_markers", side=side, hexes=sorted(plan), rule="Firefight 18.0")


def forward_plan(game: Game, side: str, chunk: int = FRIENDLY_SAFE_MAX) -> dict[str, int]:
    """A sensible default plan (not a rule): the side's points in chunks of five (safe for its
    own units under the Friendly Minefields option) on the empty hexes next to its units that
    are nearest the enemy."""
    own = [u for u in game.state.units.values() if u.side == side and u.hex is not None]
    foes = [u.hex for u in game.state.units.values() if u.side != side and u.hex is not None]
    if not own or not foes:
        return {}
    taken = {u.hex for u in game.state.units.values() if u.hex is not None}
    cands = {h for u in own for h in u.hex.neighbors()  # type: ignore[union-attr]
             if h in game.board.hexes and h not in taken}
    ranked = sorted(cands, key=lambda h: (min(h.distance(f) for f in foes if f is not None),
                                          game.board.label(h)))
    left, plan = mine_points(game, side), {}
    for h in ranked:
        if left <= 0:
            break
        pts = min(chunk, left)
        plan[game.board.label(h)] = pts
        left -= pts
    return plan


def attacks_unit(points: int, owner: str, unit_side: str, friendly_option: bool) -> bool:
    """Addenda: with Friendly Minefields, the owner's units pass his hexes of <= 5 points."""
    return not (friendly_option and unit_side == owner and points <= FRIENDLY_SAFE_MAX)


def mine_result(unit_is_vehicle: bool, ar: int, roll: int) -> str:
    """Firefight 18.0: the CRT of the unit's type at AR = mine points, no terrain filter."""
    from hexwar.plugins.firefight.fire import crt_result

    crt = "anti_armor" if unit_is_vehicle else "anti_personnel"
    return crt_result(crt, ar, roll, ())[0]


def attack_by_mines(game: Game, u: Unit, ar: int, owner: str, rule: str,
                    roll: int | None = None) -> dict[str, Any]:
    from hexwar.plugins.firefight.fire import apply_result
    from hexwar.plugins.firefight.state import report_about

    if roll is None:
        roll = roll2d6(game, "mine attack")
    res = mine_result(vehicle(u), ar, roll)
    applied = apply_result(game, u.id, res, "mine")
    assert u.hex is not None or applied
    report_about(game, "mine_attack", [u.id], result=res, rules=[rule], target=u.id,
                 owner=owner, ar=ar, roll=roll, applied=applied)
    return {"ar": ar, "roll": roll, "result": res, "applied": applied}


def enter_mined_hex(game: Game, unit_id: str, hex_label: str) -> list[dict[str, Any]]:
    """Attack a unit that entered ``hex_label`` with every minefield there (Firefight 18.0, 25.0)."""
    u = game.state.units[unit_id]
    if u.state.get("dummy"):
        return []  # a dummy is nothing (Firefight 12.0)
    out = []
    friendly = bool(game.scenario.raw.get("special", {}).get("friendly_minefields", False))
    f = fields(game).get(hex_label)
    if f and u.hex is not None and attacks_unit(int(f["points"]), f["side"], u.side, friendly):
        game.emit("mines_announced", hex=hex_label, side=f["side"], points=f["points"],
                  rule="Firefight 18.0")
        out.append(attack_by_mines(game, u, int(f["points"]), f["side"], "Firefight 18.0"))
    art = artillery_fields(game).get(hex_label)
    if art and u.hex is not None and attacks_unit(int(art), "US", u.side, friendly):
        out.append(attack_by_mines(game, u, int(art), "US", "Firefight 25.0"))
    return out


def _mine_step(game: Game, unit_id: str, hex_label: str) -> Step:
    enter_mined_hex(game, unit_id, hex_label)
    return
    yield


def emplacement(game: Game) -> Step:
    """Firefight 18.0: both players secretly place their Mine Points before play."""
    spec = game.scenario.raw.get("special", {})
    suggested = spec.get("minefields", {})
    decisions, sides = [], []
    for side in ("US", "SU"):
        if not any(u.side == side for u in game.state.units.values()):
            continue
        if mine_points(game, side) <= 0:
            continue
        plan = {str(k): int(v) for k, v in suggested.get(side, {}).items()}
        opts: list[Any] = [{}]
        for p in (plan, forward_plan(game, side)):
            if p and p not in opts and emplace_problem(game, side, p) is None:
                opts.append(p)

        def validate(choice: Any, side: str = side) -> str | None:
            return emplace_problem(game, side, choice)
        decisions.append(Decision(side, "firefight.mines", options=opts, validate=validate,
                                  context={"points": mine_points(game, side)},
                                  prompt=f"{side}: place up to {mine_points(game, side)} mine "
                                         "points {hex: points}", rule="Firefight 18.0"))
        sides.append(side)
    if decisions:
        choices = yield from ask_all(decisions)
        for side, plan in zip(sides, choices, strict=True):
            if plan:
                emplace(game, side, {str(k): int(v) for k, v in plan.items()})


@hookimpl
def hexwar_sequence_edits(system: str) -> Sequence[SequenceEdit]:
    return [SequenceEdit("insert_after", "firefight.assign_weapons",
                         PhaseSpec("firefight.mines", "Mine emplacement", "Firefight 18.0", emplacement,
                                   "setup"), "Firefight 18.0")]


@hookimpl
def hexwar_validate_scenario(scenario: Scenario) -> Sequence[Problem]:
    spec = scenario.raw.get("special", {})
    out = []
    for key in ("mines", "minefields"):
        v = spec.get(key, {})
        if not isinstance(v, dict) or any(s not in ("US", "SU") for s in v):
            out.append(Problem(f"{key} is a table keyed by side (US, SU)", scenario.path,
                               f"special.{key}"))
    return out


@hookimpl
def firefight_mover_interrupts(game: Game, unit_id: str, hex_label: str,
                               stage: str) -> Sequence[Step]:
    if stage != "mines":
        return []
    if hex_label not in fields(game) and hex_label not in artillery_fields(game):
        return []
    return [_mine_step(game, unit_id, hex_label)]


@hookimpl
def firefight_describe(game: Game, side: str | None) -> Mapping[str, Any]:
    """Markers are public; the points only for their owner (and the umpire) (Firefight 18.0)."""
    shown = [{"hex": k, "side": v["side"],
              "points": v["points"] if side is None or side == v["side"] else None}
             for k, v in sorted(fields(game).items())]
    return {"minefields": shown,
            "artillery_mines": [{"hex": k, "ar": v}
                                for k, v in sorted(artillery_fields(game).items())]}
