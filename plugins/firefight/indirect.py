"""Indirect fire (Firefight 8.0-8.8): target lists, requests and delays, availability, adjustment,
scatter, impact zones, the IF CRT and its terrain notes (Firefight Errata), and attacks on moving
units (Firefight 8.8).

State (``game.state.data["firefight"]``): ``if_units`` {id: {side, type, status, mission,
last_impact, impacted_turn}}, ``target_list`` {side: [labels]} (secret), ``impacts`` [{unit,
side, hex, pattern, turn}]. A mission: {unit, side, hex, kind, planned, continuous, scheduled,
requested, impact_turn}.

The attack on one unit in an Impact Zone is a :class:`~hexwar.core.kit.Pipeline` of named steps
(:data:`IF_STEPS`: ``dice``, ``crt``, ``apply``, ``report``) worked out on an :class:`IfShot`;
optional rules change it through ``firefight_if_steps``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from hexwar.core.errors import RulesError
from hexwar.core.hexgrid import Hex
from hexwar.core.kit import Pipeline, StashKey
from hexwar.plugins.firefight.fire import apply_result, extra_targets
from hexwar.plugins.firefight.sighting import has_los
from hexwar.plugins.firefight.state import (
    carried,
    ff,
    hexof,
    hooks,
    is_vehicle,
    public_ref,
    report_about,
    rule_of,
)
from hexwar.plugins.firefight.tables import ff_data

if TYPE_CHECKING:
    from hexwar.core.engine.game import Game
    from hexwar.core.engine.state import Unit

TARGETS_PER_UNIT = 4  # Firefight 8.13
ADJUST_RANGE = 2  # Firefight 8.51
CONTINUOUS_RANGE = 2  # Firefight 8.32


def if_units(game: Game, side: str | None = None) -> dict[str, dict[str, Any]]:
    units: dict[str, dict[str, Any]] = ff(game).setdefault("if_units", {})
    return {k: v for k, v in units.items() if side is None or v["side"] == side}


def setup_if_units(game: Game) -> None:
    """Read ``[special] indirect`` of the scenario: [{id, type, side, status}] (status ``organic``
    or ``direct``) (Firefight 8.4)."""
    spec = game.scenario.raw.get("special", {}).get("indirect", [])
    units = ff(game).setdefault("if_units", {})
    for e in spec:
        units[str(e["id"])] = {"side": str(e["side"]), "type": str(e["type"]),
                               "status": str(e.get("status", "organic")), "mission": None,
                               "last_impact": None, "impacted_turn": None}


def target_list_limit(game: Game, side: str) -> int:
    """Firefight 8.13: four hexes per Indirect Fire unit."""
    return TARGETS_PER_UNIT * len(if_units(game, side))


def target_list_problem(game: Game, side: str, hexes: Sequence[str]) -> str | None:
    if not isinstance(hexes, list | tuple):
        return "a target list is a list of hex labels"
    if len(hexes) > target_list_limit(game, side):
        return f"at most {target_list_limit(game, side)} hexes (4 per IF unit) (Firefight 8.13)"
    for x in hexes:
        try:
            game.board.parse(str(x))
        except ValueError as exc:
            return str(exc)
    if len(set(hexes)) != len(hexes):
        return "a hex is listed twice (Firefight 8.13)"
    return None


def sees(game: Game, side: str, h: Hex) -> bool:
    """Firefight 8.71: some unit of ``side`` on the map can see hex ``h``."""
    return any(u.hex is not None and not carried(u) and has_los(game, u.hex, h)
               for u in game.state.units_of(side))


def base_delay(game: Game, mission: dict[str, Any]) -> int:
    """Firefight 8.31, 8.32: the IF Data Table delay: On Call (planned) or Target of Opportunity;
    Continuous Fire lands next turn."""
    if mission.get("continuous"):
        return 1
    data = ff_data().if_data[if_units(game)[mission["unit"]]["type"]]
    return data.on_call if mission.get("planned") else data.too


def request_problem(game: Game, side: str, unit_id: str, hex_label: str, *,
                    continuous: bool = False, kind: str = "he") -> str | None:
    """Why this request may not be made now (Firefight 8.2, 8.21, 8.22, 8.32, 8.71, 8.72)."""
    units = if_units(game)
    if unit_id not in units or units[unit_id]["side"] != side:
        return f"{unit_id} is not an Indirect Fire unit of {side}"
    if game.state.phase not in ("firefight.if_request", "setup"):
        return "requests are made only at the end of the Indirect Fire Phase (Firefight 8.22)"
    u = units[unit_id]
    if u["mission"] is not None:
        return "the unit is engaged in a mission (Firefight 8.21, 8.72)"
    try:
        h = game.board.parse(hex_label)
    except ValueError as exc:
        return str(exc)
    if kind != "he" and kind not in mission_kinds(game, side, unit_id):
        return f"mission kind {kind!r} is not available"
    if continuous:
        if u.get("impacted_turn") != game.state.turn or u.get("last_impact") is None:
            return "Continuous Fire only in the turn the unit's fire impacted (Firefight 8.32)"
        # Firefight 8.32: the new hex is at most two hexes from the current Impact hex; Firefight
        # 8.51 (Clarifications): or it is the hex the fire was shifted to this turn ("walking"
        # the fire), measured from nothing. Either way a friendly unit must see the Impact hex
        # (Firefight 8.71); sight of the shifted hex does not stand in for it.
        impact = game.board.parse(u["last_impact"])
        shifted = u.get("last_adjusted")
        walked = bool(shifted) and game.board.parse(str(shifted)) == h
        if impact.distance(h) > CONTINUOUS_RANGE and not walked:
            return ("Continuous Fire may name a hex at most two hexes from the Impact hex "
                    "(Firefight 8.32) or the hex the fire was shifted to (Firefight 8.51 "
                    "(Clarifications))")
        if not sees(game, side, impact):
            return "no friendly unit sees the Impact hex (Firefight 8.71)"
        return None
    if not sees(game, side, h):
        return "no friendly unit can see the hex (Firefight 8.71)"
    return None


def mission_kinds(game: Game, side: str, unit_id: str) -> list[str]:
    out = ["he"]
    out.extend(k for k in hooks(game).mission_kinds(side, unit_id) if k not in out)
    return out


def request(game: Game, side: str, unit_id: str, hex_label: str, *, continuous: bool = False,
            kind: str = "he") -> dict[str, Any]:
    """Plot a mission (secret); returns it. RulesError if not allowed."""
    why = request_problem(game, side, unit_id, hex_label, continuous=continuous, kind=kind)
    if why:
        raise RulesError(why, rule=rule_of(why, "Firefight 8.0"))
    label = game.board.label(game.board.parse(hex_label))
    planned = label in ff(game).get("target_list", {}).get(side, [])
    u = if_units(game)[unit_id]
    if continuous:
        planned = bool(u.get("last_planned", planned))
        if kind == "he" and u.get("last_kind"):
            kind = str(u["last_kind"])  # Firefight 8.32: a continuation of the same mission
    m = {"unit": unit_id, "side": side, "hex": label, "kind": kind, "planned": planned,
         "continuous": continuous, "scheduled": False, "requested": game.state.turn}
    delay = base_delay(game, m)
    over = hooks(game).mission_delay(dict(m), delay)
    if over is not None:
        delay = over
    m["impact_turn"] = game.state.turn + max(1, delay)
    u["mission"] = m
    game.emit("if_request", visible_to=[side], mission=dict(m),
              rule="Firefight 8.32" if continuous else "Firefight 8.11, 8.31")
    return m


def schedule_problem(game: Game, side: str, entries: Any) -> str | None:
    """Firefight 8.12: Scheduled Fires: a list of {unit, hex, turn} for the side's IF units; one unit may
    have several, on different Game-Turns (one mission at a time, Firefight 8.72)."""
    if not isinstance(entries, list | tuple):
        return "scheduled fires are a list of {unit, hex, turn}"
    seen: set[tuple[str, int]] = set()
    units = if_units(game)
    for e in entries:
        if not isinstance(e, Mapping) or not {"unit", "hex", "turn"} <= set(e):
            return "each scheduled fire is {unit, hex, turn} (Firefight 8.12)"
        uid, turn = str(e["unit"]), e["turn"]
        if uid not in units or units[uid]["side"] != side:
            return f"{uid} is not an Indirect Fire unit of {side} (Firefight 8.12)"
        if not isinstance(turn, int) or turn < 1 or turn > game.scenario.turns:
            return f"bad Game-Turn {turn!r} (Firefight 8.12)"
        if (uid, turn) in seen:
            return f"{uid} fires one mission at a time (Firefight 8.72)"
        seen.add((uid, turn))
        try:
            game.board.parse(str(e["hex"]))
        except ValueError as exc:
            return str(exc)
    return None


def schedule(game: Game, side: str, unit_id: str, hex_label: str, turn: int) -> dict[str, Any]:
    """Firefight 8.12: Scheduled Fire plotted before play; always arrives on time (Firefight 8.43). A unit's
    scheduled fires wait in its queue; the earliest is its mission (the unit is engaged)."""
    units = if_units(game)
    if unit_id not in units or units[unit_id]["side"] != side:
        raise RulesError(f"{unit_id} is not an IF unit of {side}", rule="Firefight 8.12")
    label = game.board.label(hexof(game, hex_label))
    m = {"unit": unit_id, "side": side, "hex": label, "kind": "he",
         "planned": label in ff(game).get("target_list", {}).get(side, []), "continuous": False,
         "scheduled": True, "requested": 0, "impact_turn": int(turn)}
    u = units[unit_id]
    queue = sorted([*u.get("queue", []), m], key=lambda x: int(x["impact_turn"]))
    if u["mission"] is None:
        u["mission"], queue = queue[0], queue[1:]
    elif u["mission"].get("scheduled") and int(turn) < int(u["mission"]["impact_turn"]):
        queue = sorted([*queue, u["mission"]], key=lambda x: int(x["impact_turn"]))
        queue.remove(m)
        u["mission"] = m
    u["queue"] = queue
    return m


def due(game: Game, side: str) -> list[str]:
    for u in if_units(game, side).values():  # the next scheduled fire becomes the mission
        if u["mission"] is None and u.get("queue"):
            u["mission"] = u["queue"].pop(0)
    return sorted(k for k, v in if_units(game, side).items()
                  if v["mission"] is not None and v["mission"]["impact_turn"] == game.state.turn)


def availability(game: Game, unit_id: str) -> bool:
    """Firefight 8.41-8.43: Direct Support fire arrives on 1-5; on 6 it is delayed by a second die
    (then it arrives automatically, docs/decisions.md FFD-15). Organic, Continuous and Scheduled fire
    always arrive. Returns True if the fire arrives now (else the impact turn moved)."""
    u = if_units(game)[unit_id]
    m = u["mission"]
    if u["status"] != "direct" or m["continuous"] or m["scheduled"] or m.get("redelayed"):
        return True
    roll = game.dice.d6(f"availability {unit_id}")
    if roll <= 5:
        return True
    extra = game.dice.d6(f"extra delay {unit_id}")
    m["impact_turn"] = game.state.turn + extra
    m["redelayed"] = True
    game.emit("if_delayed", visible_to=[u["side"]], unit=unit_id, turns=extra, rule="Firefight 8.41")
    return False


def adjust_problem(game: Game, side: str, unit_id: str, to_label: str) -> str | None:
    """Firefight 8.51, 8.71: shift at most two hexes, seeing both hexes."""
    m = if_units(game)[unit_id]["mission"]
    plotted = game.board.parse(m["hex"])
    try:
        to = game.board.parse(to_label)
    except ValueError as exc:
        return str(exc)
    if to == plotted:
        return None
    if plotted.distance(to) > ADJUST_RANGE:
        return "fire may be adjusted at most two hexes (Firefight 8.51)"
    if not (sees(game, side, plotted) and sees(game, side, to)):
        return "adjusting needs a unit that sees both hexes (Firefight 8.71)"
    return None


def scatter(game: Game, unit_id: str, h: Hex) -> Hex:
    """Firefight 8.52: even: no scatter; odd: a second die picks the adjacent hex (Scatter Diagram)."""
    m = if_units(game)[unit_id]["mission"]
    n = hooks(game).scatter(dict(m))
    if n is None:
        n = 1 if game.dice.d6(f"scatter {unit_id}") % 2 else 0
    if n <= 0:
        return h
    direction = ff_data().scatter[game.dice.d6(f"scatter direction {unit_id}")]
    out = h
    for _ in range(n):
        nxt = out.neighbor(direction)
        if nxt not in game.board.hexes:
            break
        out = nxt
    return out


def pattern(game: Game, unit_id: str) -> tuple[int, int, int]:
    m = if_units(game)[unit_id]["mission"]
    base = ff_data().if_data[if_units(game)[unit_id]["type"]].pattern
    over = hooks(game).impact_pattern(dict(m))
    return base if over is None else over


def place(game: Game, unit_id: str, hex_label: str, adjusted: str | None = None) -> None:
    """Firefight 8.52: put the Impact Marker down; the unit is free again (Firefight 8.21).
    ``adjusted``: the hex
    the fire was shifted to before scatter (Firefight 8.51 (Clarifications))."""
    u = if_units(game)[unit_id]
    m = u["mission"]
    u["last_adjusted"] = adjusted
    if not hooks(game).place_impact(dict(m), hex_label):
        ff(game).setdefault("impacts", []).append(
            {"unit": unit_id, "side": u["side"], "hex": hex_label,
             "pattern": list(pattern(game, unit_id)), "turn": game.state.turn})
    u["last_impact"] = hex_label
    u["last_planned"] = m["planned"]
    u["last_kind"] = m["kind"]
    u["impacted_turn"] = game.state.turn
    u["mission"] = None
    game.emit("if_impact", unit=unit_id, side=u["side"], hex=hex_label, plotted=m["hex"],
              kind=m["kind"], rule="Firefight 8.52")


def zone_ar(game: Game, h: Hex, impacts: Iterable[dict[str, Any]] | None = None
            ) -> tuple[int, str | None]:
    """Firefight 8.54, 8.55: the summed Attack Rating of every Impact Marker bearing on hex ``h`` (impact
    hex, adjacent, two away) and the side of the largest contribution."""
    total = 0
    best: tuple[int, str | None] = (0, None)
    for imp in impacts if impacts is not None else ff(game).get("impacts", []):
        d = game.board.parse(imp["hex"]).distance(h)
        if d <= 2:
            v = int(imp["pattern"][d])
            total += v
            if v > best[0]:
                best = (v, imp["side"])
    return total, best[1]


def zone_hexes(game: Game) -> set[Hex]:
    out: set[Hex] = set()
    for imp in ff(game).get("impacts", []):
        out.update(x for x in game.board.parse(imp["hex"]).within(2) if x in game.board.hexes)
    return out


def if_result(game: Game, unit: Unit, ar: int, side: str, roll: int) -> tuple[str, str, str]:
    """Firefight 8.62, 8.64, Firefight Errata: the IF CRT result for one unit: vehicles ignore
    rolls of 6 or less; dismounted personnel in a Town hex ignore rolls of 3 or 4. Returns
    (result, table, why)."""
    d = ff_data()
    if ar <= 0:
        return "-", "-", "AR 0"
    table = d.if_crt[(side, min(ar, d.if_crt_max), roll)]
    if table == "-":
        return "-", table, ""
    if is_vehicle(unit) and roll <= 6:
        return "-", table, "vehicle: rolls of 6 or less are no effect (Firefight 8.62, Errata)"
    assert unit.hex is not None
    if not is_vehicle(unit) and roll in (3, 4) and game.board.terrain_of.get(unit.hex) == "town":
        return "-", table, "personnel in Town: rolls 3-4 are no effect (Firefight 8.64, Errata)"
    return table, table, ""


@dataclass
class IfShot:
    """One indirect-fire attack on one unit, worked out by the steps of :data:`IF_STEPS`."""

    game: Game
    unit: Unit
    ar: int
    side: str
    why: str
    roll: int | None = None
    result: str = "-"
    table: str = "-"
    note: str = ""
    applied: str = ""


IfStep = Callable[[IfShot], None]


def _if_dice(shot: IfShot) -> None:
    """Firefight 8.6: two dice, unless the caller gave the roll."""
    if shot.roll is None:
        who = public_ref(shot.game, shot.unit.id)
        shot.roll = shot.game.dice.d6(f"IF {who} die 1") + shot.game.dice.d6(f"IF {who} die 2")


def _if_crt(shot: IfShot) -> None:
    """Firefight 8.62, 8.64, Firefight Errata: the IF CRT (:func:`if_result`)."""
    assert shot.roll is not None
    shot.result, shot.table, shot.note = if_result(shot.game, shot.unit, shot.ar, shot.side,
                                                   shot.roll)


def _if_apply(shot: IfShot) -> None:
    """Firefight 8.65: the result takes effect on the unit."""
    shot.applied = apply_result(shot.game, shot.unit.id, shot.result, "indirect")


def _if_report(shot: IfShot) -> None:
    """The attack in the log, with its cases."""
    report_about(shot.game, "indirect_fire", [shot.unit.id], result=shot.result,
                 rules=["Firefight 8.6", "Firefight 8.64", "Firefight 8.65"], target=shot.unit.id,
                 ar=shot.ar, roll=shot.roll, table=shot.table, note=shot.note,
                 applied=shot.applied, why=shot.why)


#: one indirect-fire attack on one unit, in order
IF_STEPS: tuple[tuple[str, IfStep], ...] = (
    ("dice", _if_dice),
    ("crt", _if_crt),
    ("apply", _if_apply),
    ("report", _if_report),
)
#: the game's indirect-fire attack procedure, with the enabled rules' edits
IF_PIPELINE = StashKey[Pipeline[IfStep]]("firefight.if_pipeline")


def if_pipeline(game: Game) -> Pipeline[IfStep]:
    """The indirect-fire attack procedure with the rules' edits (``firefight_if_steps``), built
    once per game."""
    cached = game.stash.get(IF_PIPELINE)
    if cached is None:
        cached = Pipeline(IF_STEPS, hooks(game).if_steps(), what="Firefight indirect fire step")
        game.stash[IF_PIPELINE] = cached
    return cached


def attack_unit(game: Game, unit: Unit, ar: int, side: str, why: str,
                roll: int | None = None) -> dict[str, Any]:
    """One IF attack on one unit (Firefight 7.34, 8.6, 8.63), the steps of :func:`if_pipeline`;
    passengers ride it out (docs/decisions.md FFD-16)."""
    shot = IfShot(game, unit, ar, side, why, roll=roll)
    for step in if_pipeline(game).steps:
        step(shot)
    return {"target": unit.id, "ar": ar, "roll": shot.roll, "result": shot.result,
            "applied": shot.applied}


def attack_zones(game: Game) -> list[dict[str, Any]]:
    """Firefight 8.54-8.63: after all markers of the phase are down: attack each unit in every zone hex,
    each separately, at the hex's summed AR (Firefight 7.34, 8.55)."""
    fresh = [i for i in ff(game).get("impacts", []) if i["turn"] == game.state.turn]
    if not fresh:
        return []
    out = []
    hexes: set[Hex] = set()
    for imp in fresh:
        hexes.update(x for x in game.board.parse(imp["hex"]).within(2) if x in game.board.hexes)
    for h in sorted(hexes):
        ar, side = zone_ar(game, h, fresh)
        if ar <= 0 or side is None:
            continue
        exposed = exposed_passengers(game)
        for u in sorted((u for u in game.state.units.values() if u.hex == h
                         and (not carried(u) or u.id in exposed)
                         and not u.state.get("dummy")), key=lambda u: u.id):  # Firefight 12.0
            if u.hex != h:
                continue  # died with its vehicle a moment ago (Firefight 7.44)
            out.append(attack_unit(game, u, ar, side, "impact zone Firefight 8.5"))
    return out


def exposed_passengers(game: Game) -> set[str]:
    """Carried units that a rule exposes as though dismounted (``firefight_extra_targets``:
    a U.S. team that fired from its M113 this turn, Firefight 16.21). Indirect fire strikes every unit in
    a zone, friend or foe (Firefight 8.6), so the answers for both sides are joined."""
    return extra_targets(game, "US") | extra_targets(game, "SU")


def attack_mover(game: Game, unit: Unit) -> dict[str, Any] | None:
    """Firefight 8.8, Firefight 8.8 (Clarifications): a unit that moves into a hex of an Impact Zone is
    attacked at once, at that hex's AR, for each such hex it enters."""
    if unit.hex is None or unit.hex not in zone_hexes(game) or unit.state.get("dummy"):
        return None  # a dummy is nothing (Firefight 12.0)
    ar, side = zone_ar(game, unit.hex)
    if ar <= 0 or side is None:
        return None
    out = attack_unit(game, unit, ar, side, "moved into an Impact Zone Firefight 8.8")
    exposed = exposed_passengers(game)
    for pid in list(unit.state.get("passengers", [])):  # Firefight 16.21: exposed as if dismounted
        p = game.state.units[pid]
        if pid in exposed and p.hex is not None:
            attack_unit(game, p, ar, side, "moved into an Impact Zone Firefight 8.8, 16.21")
    return out
