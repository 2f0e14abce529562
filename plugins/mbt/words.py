"""MBT's log records in words (``hexwar_describe_event``): every event the game writes, with the
rule it happened under. A unit is named as the record names it (a side's records name only the
units it sees, MBT 6.1), with the vehicle on its data card."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from hexwar.core.words import cite, number, side_of_unit, table, unit_name, words

if TYPE_CHECKING:
    from hexwar.core.engine.game import Game

Record = Mapping[str, Any]

#: MBT 6.2.1: the orders, in words
ORDER_WORDS = {"F": "fire", "FM": "fire and move", "M": "move", "OW": "overwatch",
               "ATGM": "fire a missile", "OR": "overrun"}
#: MBT 7.4.7: the damage codes the log writes
DESTROYED_WORDS = {"KO": "knocked out", "BU": "brewed up"}


def _u(game: Game | None, ref: Any) -> str:
    return unit_name(game, ref)


def _order(code: Any) -> str:
    return f"{code} ({ORDER_WORDS[str(code)]})" if str(code) in ORDER_WORDS else str(code)


def _mods(record: Record) -> str:
    parts = [f"{m.get('name')} {m.get('value'):+g}" for m in record.get("modifiers") or []
             if isinstance(m, Mapping) and isinstance(m.get("value"), int | float)]
    return f" ({'; '.join(parts)})" if parts else ""


def _hit(h: Mapping[str, Any]) -> str:
    if h.get("location") == "miss" or h.get("pv") is None:
        return f"hit {h.get('n', '')} is a miss on the hit location table (roll {h.get('location_roll')})"
    where = f"hit {h.get('n', '')} on the {h.get('location')} ({h.get('angle')}, location roll " \
            f"{h.get('location_roll')})"
    if not h.get("penetrated"):
        return f"{where}: penetration {h.get('pv')} against armour {h.get('armor')}, no penetration"
    damage = h.get("damage") or h.get("effect") or "no damage"
    roll = f", damage roll {h['damage_roll']}" if h.get("damage_roll") is not None else ""
    return f"{where}: penetration {h.get('pv')} against armour {h.get('armor')}, penetrates" \
           f"{roll}: {damage}"


def _ap_fire(game: Game | None, r: Record) -> str:
    result = table(r.get("result"))
    hits = int(result.get("hits") or 0)
    moving = ", target moving" if r.get("target_moving") else ""
    head = (f"{_u(game, r.get('firer'))} fires {r.get('weapon')} {r.get('ammo')} at "
            f"{_u(game, r.get('target'))}, range {r.get('range')}, {r.get('angle')} aspect, "
            f"{str(r.get('elevation', '')).lower()}{moving}, hit number {r.get('hit_number')} "
            f"(modifiers {number(r.get('net', 0), '+g')}{_mods(r)}), dice {r.get('roll')}")
    if not hits:
        return f"{head}: miss{cite(r.get('rules'))}"
    details = "; ".join(_hit(h) for h in r.get("hit_results") or [] if isinstance(h, Mapping))
    effects = words(result.get("effects")) if result.get("effects") else "no effect"
    return f"{head}: {hits} hit(s), {details}; effect {effects}{cite(r.get('rules'))}"


def _gp_fire(game: Game | None, r: Record) -> str:
    result = table(r.get("result"))
    effects = words(result.get("effects")) if result.get("effects") else "no effect"
    return (f"{_u(game, r.get('firer'))} fires {r.get('weapon')} GP at {_u(game, r.get('target'))}, "
            f"range {r.get('range')}, GP factor {r.get('gp_factor')} against defense "
            f"{r.get('gp_defense')} (modifiers {number(r.get('net', 0), '+g')}{_mods(r)}), dice "
            f"{r.get('roll')}: {result.get('result')}, {effects}{cite(r.get('rules'))}")


def _result(game: Game | None, r: Record) -> str | None:
    what = str(r.get("what"))
    if what == "AP point effect fire":
        return _ap_fire(game, r)
    if what == "GP point effect fire":
        return _gp_fire(game, r)
    if what == "machinegun fire":  # MBT 14.1.2
        return _gp_fire(game, r).replace(" GP at ", " (machinegun) GP at ", 1)
    if what == "GP point effect fire at terrain":  # MBT 12.4.2
        result = table(r.get("result"))
        effect = "the marker is destroyed" if result.get("result") == "EF" else "no effect"
        return (f"{_u(game, r.get('firer'))} fires {r.get('weapon')} GP at the "
                f"{str(r.get('at')).replace('_', ' ')} marker in {r.get('hex')}, range "
                f"{r.get('range')}, GP factor {r.get('gp_factor')} against defense "
                f"{r.get('gp_defense')} (modifiers {number(r.get('net', 0), '+g')}{_mods(r)}), dice "
                f"{r.get('roll')}: {result.get('result')}, {effect}{cite(r.get('rules'))}")
    if what == "smoke round":  # MBT 14.4.5.1
        return (f"{_u(game, r.get('firer'))} fires a smoke round into {r.get('hex')}, range "
                f"{r.get('range')}: a smoke (ON) marker there at the step's end"
                f"{cite(r.get('rules'))}")
    if what == "close assault":
        return (f"{_u(game, r.get('attacker'))} close-assaults {_u(game, r.get('target'))}, GP "
                f"factor {r.get('gp_factor')} against {r.get('ca_defense')} (modifiers "
                f"{number(r.get('net', 0), '+g')}{_mods(r)}), dice {r.get('roll')}: "
                f"{words(r.get('result'))}{cite(r.get('rules'))}")
    if what == "close assault falls":  # MBT 14.5.1
        return (f"{_u(game, r.get('attacker'))}'s announced attack on {_u(game, r.get('target'))} "
                f"falls: the target is gone by its turn{cite(r.get('rules'))}")
    if what == "hand-to-hand combat":
        return (f"hand-to-hand: {_u(game, r.get('attacker'))} against "
                f"{_u(game, r.get('defender'))} (modifiers {number(r.get('net', 0), '+g')}"
                f"{_mods(r)}), dice {r.get('roll')}: the {words(r.get('result'))} wins"
                f"{cite(r.get('rules'))}")
    if what in ("overrun fire", "overrun defensive fire"):
        res = table(r.get("result"))
        first = " (first fire)" if r.get("first_fire") else ""
        return (f"{what}{first}: {_u(game, r.get('firer'))} at {_u(game, r.get('target'))}, GP "
                f"{r.get('gp_factor')} against {r.get('gp_defense')} (modifiers "
                f"{number(r.get('net', 0), '+g')}{_mods(r)}), dice {r.get('roll')}: "
                f"{words(res.get('result'))}{cite(r.get('rules'))}")
    if what == "vehicle into buildings":
        res = table(r.get("result"))
        hits = [n for n, k in (("track hit", "track"), ("gun hit", "gun")) if res.get(k)]
        return (f"{_u(game, r.get('unit'))} goes into the {r.get('building')} buildings, dice "
                f"{r.get('roll')} + {r.get('modifier')} = {r.get('modified')}: "
                f"{', '.join(hits) or 'no damage'}{cite(r.get('rules'))}")
    if what == "radio jamming":
        return (f"{r.get('side')} jams with {r.get('points')} point(s), dice {r.get('roll')}: "
                f"{words(r.get('result'))}{cite(r.get('rules'))}")
    if what in ("shot wasted", "ATGM"):
        return (f"{what}: {_u(game, r.get('firer'))} at {_u(game, r.get('target'))}: "
                f"{words(r.get('result'))}{cite(r.get('rules'))}")
    return None


def _damage(game: Game | None, r: Record) -> str:
    dmg = table(r.get("damage"))
    parts = [name for name, hit in (("gun", dmg.get("gun")), ("track", dmg.get("track"))) if hit]
    if dmg.get("compartment"):
        parts.append(f"{dmg['compartment']} compartment")
    destroyed = r.get("destroyed")
    if destroyed:
        state = DESTROYED_WORDS.get(str(destroyed), str(destroyed))
        return f"{_u(game, r.get('unit'))} is {state}{cite(r.get('rule'))}"
    return (f"{_u(game, r.get('unit'))} is damaged: {', '.join(parts) or 'nothing lasting'}"
            f"{cite(r.get('rule'))}")


def _sighting(game: Game | None, r: Record) -> str:
    sighted = table(r.get("sighted"))
    seen = sorted({str(t) for targets in sighted.values() for t in (targets or [])})
    side = next((side_of_unit(game, u) for u in sighted), None)
    who = f"{side} sights" if side else "sighting:"
    return (f"{who} {len(seen)} enemy unit(s)"
            + (f" ({', '.join(_u(game, t) for t in seen)})" if seen else "")
            + cite(r.get("rule")))


def _declared(game: Game | None, r: Record) -> str:
    firers = list(r.get("firers") or [])
    ammo = list(r.get("ammo") or [])
    shots = ", ".join(f"{_u(game, f)}" + (f" ({ammo[i]})" if i < len(ammo) else "")
                      for i, f in enumerate(firers))
    if r.get("hex") and not r.get("at"):  # MBT 14.4.5.1: smoke rounds into a hex
        return f"{r.get('side')} declares smoke rounds into {r.get('hex')}: {shots}" \
               f"{cite(r.get('rule'))}"
    if r.get("hex"):  # MBT 12.4.2: at a terrain marker
        return (f"{r.get('side')} declares fire at the {str(r.get('at')).replace('_', ' ')} "
                f"marker in {r.get('hex')}: {shots}{cite(r.get('rule'))}")
    return f"{r.get('side')} declares fire at {_u(game, r.get('target'))}: {shots}" \
           f"{cite(r.get('rule'))}"


EVENTS: dict[str, Callable[[Game | None, Record], str | None]] = {
    "result": _result,
    "terrain_destroyed": lambda g, r: (
        f"the {str(r.get('kind')).replace('_', ' ')} in {r.get('hex')} is destroyed"
        + (f"; suppressed: {', '.join(_u(g, u) for u in r.get('suppressed') or [])}"
           if r.get("suppressed") else "")
        + (f"; eliminated: {', '.join(_u(g, u) for u in r.get('eliminated') or [])}"
           if r.get("eliminated") else "") + cite(r.get("rule"))),
    "setup_edges": lambda g, r: ("mapboard edges: " + ", ".join(
        f"{s} sets up on edge {e}" for s, e in sorted(table(r.get("edges")).items())) + cite(r.get("rule"))),
    "placed": lambda g, r: (f"{_u(g, r.get('unit'))} set up in {r.get('hex')} facing "
                            f"{r.get('facing')}, turret {r.get('turret')}, "
                            f"{'open' if r.get('open') else 'buttoned up'}"
                            f"{cite(r.get('rule') or 'MBT 2.5')}"),
    "initiative": lambda g, r: (f"{r.get('winner')} wins the initiative; {r.get('first')} moves "
                                f"first{cite(r.get('rule'))}"),
    "sighting": _sighting,
    "order": lambda g, r: (f"{_u(g, r.get('unit'))} is ordered to {_order(r.get('order'))}"
                           f"{cite(r.get('rule'))}"),
    "order_revealed": lambda g, r: (f"{_u(g, r.get('unit'))} shows its order: "
                                    f"{_order(r.get('order'))}{cite(r.get('rule'))}"),
    "moved": lambda g, r: (f"{_u(g, r.get('unit'))} moves to {r.get('hex')} facing "
                           f"{r.get('facing')} ({r.get('spent')} MP spent){cite(r.get('rule'))}"),
    "exited": lambda g, r: (f"{_u(g, r.get('unit'))} leaves the map from {r.get('hex')}"
                            f"{cite(r.get('rule'))}"),
    "adjusted": lambda g, r: (f"{_u(g, r.get('unit'))} is put back in {r.get('hex')}"
                              f"{cite(r.get('rule'))}"),
    "pivot": lambda g, r: (f"{_u(g, r.get('unit'))} pivots to face {r.get('facing')}"
                           f"{cite(r.get('rule'))}"),
    "declared": _declared,
    "damage": _damage,
    "atgm_announced": lambda g, r: (f"{_u(g, r.get('firer'))} launches a missile at "
                                    f"{_u(g, r.get('target'))}{cite(r.get('rule'))}"),
    "end_turn": lambda g, r: f"end of game-turn {r.get('turn')}{cite(r.get('rule'))}",
    # the Advanced Game (mbt.advanced) and command control (mbt.command_control)
    "forces": lambda g, r: _forces(r),
    "terrain_variant": lambda g, r: f"terrain variant: {r.get('variant')}{cite(r.get('rule'))}",
    "conditions": lambda g, r: (f"conditions: ground {r.get('ground')}, visibility "
                                f"{r.get('visibility')} (rolls {words(r.get('rolls'))})"
                                f"{cite(r.get('rule'))}"),
    "suppressed": lambda g, r: (f"{_u(g, r.get('unit'))} is suppressed ({r.get('marker')} marker)"
                                f"{cite(r.get('rule'))}"),
    "halved": lambda g, r: f"{_u(g, r.get('unit'))} is halved{cite(r.get('rule'))}",
    "crew_loss": lambda g, r: (f"{_u(g, r.get('unit'))} loses crew ({r.get('losses')} lost in "
                               f"all){cite(r.get('rule'))}"),
    "mg_lost": lambda g, r: (f"{_u(g, r.get('unit'))} loses its {r.get('weapon')} machinegun"
                             f"{cite(r.get('rule'))}"),
    "smoke_discharged": lambda g, r: (f"{_u(g, r.get('unit'))} fires its smoke dischargers in "
                                      f"{r.get('hex')}{cite(r.get('rule'))}"),
    "exhaust_smoke": lambda g, r: (f"{_u(g, r.get('unit'))} lays exhaust smoke in "
                                   f"{words(r.get('hexes'))} (use {r.get('uses')})"
                                   f"{cite(r.get('rule'))}"),
    "smoke_placed": lambda g, r: (f"a smoke ({r.get('marker')}) marker is placed in "
                                  f"{r.get('hex')}{cite(r.get('rule'))}"),
    "atgm_race": lambda g, r: (f"missile from {_u(g, r.get('firer'))} at moving "
                               f"{_u(g, r.get('target'))} (speed {r.get('speed')}, target at "
                               f"{r.get('at')}): {words(r.get('outcome'))}{cite(r.get('rule'))}"),
    "bridge_crossing": lambda g, r: (f"organization {r.get('organization')} crosses the bridge "
                                     f"to {r.get('hex')} one at a time: "
                                     + ", ".join(_u(g, u) for u in r.get("order") or [])
                                     + cite(r.get("rule"))),
    "setup_corners": lambda g, r: (f"{r.get('side')} enters by corner(s) "
                                   + " and ".join(str(c) for c in r.get("corners") or [])
                                   + cite(r.get("rule"))),
    "abandoned": lambda g, r: (f"{_u(g, r.get('unit'))} is abandoned by organization "
                               f"{r.get('organization')} (strength {r.get('strength')})"
                               f"{cite(r.get('rule'))}"),
    "loaded": lambda g, r: (f"{_u(g, r.get('unit'))} is carried by {_u(g, r.get('carrier'))}"
                            f"{cite(r.get('rule'))}"),
    "unloaded": lambda g, r: (f"{_u(g, r.get('carrier'))} unloads {_u(g, r.get('unit'))} in "
                              f"{r.get('hex')}{cite(r.get('rule'))}"),
    "full_cover": lambda g, r: (f"{_u(g, r.get('unit'))} "
                                f"{'leaves' if r.get('removed') else 'takes'} full cover"
                                f"{cite(r.get('rule'))}"),
    "location": lambda g, r: (f"{_u(g, r.get('unit'))} is "
                              + ("inside the buildings" if r.get("marker") == "INB" else
                                 f"{r.get('height')} height(s) up in the buildings"
                                 if r.get("marker") == "UP" else "at ground level")
                              + cite(r.get("rule"))),
    "marker_placed": lambda g, r: (f"{r.get('side')} places a "
                                   f"{str(r.get('kind')).replace('_', ' ')} marker in "
                                   f"{r.get('hex')}{cite(r.get('rule'))}"),
    "marker_not_placed": lambda g, r: (f"{r.get('side')} cannot place its "
                                       f"{str(r.get('kind')).replace('_', ' ')} marker: "
                                       f"{r.get('why')}{cite(r.get('rule'))}"),
    "wire_destroyed": lambda g, r: (f"{_u(g, r.get('unit'))} destroys the wire in {r.get('hex')}"
                                    f"{cite(r.get('rule'))}"),
    "command_points": lambda g, r: (f"organization {r.get('organization')} has "
                                    f"{r.get('points')} command point(s) ({words(r.get('counted'))})"
                                    f"{cite(r.get('rule'))}"),
    "officer transferred": lambda g, r: (f"the {r.get('officer')} of {r.get('organization')} "
                                         f"moves from {_u(g, r.get('unit'))} to "
                                         f"{_u(g, r.get('to'))}{cite(r.get('rule'))}"),
    "landline cut": lambda g, r: (f"{_u(g, r.get('unit'))}'s landline is cut by the blasts of "
                                  f"{r.get('cause')}{cite(r.get('rule'))}"),
}


def _forces(r: Record) -> str:
    """MBT Scenario Format C: the forces expanded from the TO&E, each side's printed and priced
    points and what the check reports (forces.py)."""
    printed, priced = r.get("printed"), r.get("priced")
    sides = printed if isinstance(printed, dict) else {}
    prices = priced if isinstance(priced, dict) else {}
    totals = "; ".join(f"{s} printed {p}, priced {prices.get(s)}" for s, p in sides.items())
    found = r.get("findings")
    reported = "".join(f"; reported: {f}" for f in found) if isinstance(found, list) else ""
    return f"forces from the TO&E: {totals or words(printed)}{reported}{cite(r.get('rule'))}"


def _decision(game: Game | None, r: Record) -> str | None:
    """A side's own choice (only its own log shows it), for the kinds worth a sentence; the
    core's words for the rest."""
    kind, choice, side = str(r.get("kind")), r.get("choice"), r.get("side")
    c = table(choice)
    if choice in ("pass", "done", "stay"):
        return f"{side}: {choice} ({kind.split('.', 1)[-1].replace('_', ' ')})"
    if kind == "mbt.order":
        return f"{side} marks an order: {_order(choice)}"
    if kind == "mbt.fire" and c.get("smoke_hex"):  # MBT 14.4.5.1: smoke rounds into a hex
        shots = ", ".join(f"{_u(game, f)}" for f, _a in c.get("shots") or [])
        return f"{side} declares smoke rounds into {c['smoke_hex']}: {shots}"
    if kind == "mbt.fire" and c.get("hex"):  # MBT 12.4.2: GP fire at a terrain marker
        shots = ", ".join(f"{_u(game, f)} ({a})" for f, a in c.get("shots") or [])
        return (f"{side} declares fire at the {str(c.get('at')).replace('_', ' ')} marker in "
                f"{c['hex']}: {shots}")
    if kind in ("mbt.fire", "mbt.overwatch") and "target" in c:
        shots = ", ".join(f"{_u(game, f)} ({a})" for f, a in c.get("shots") or [])
        return f"{side} declares fire at {_u(game, c['target'])}: {shots}"
    if kind == "mbt.move_unit":
        return f"{side} moves {_u(game, choice)}"
    if kind in ("mbt.move_to", "mbt.place") and isinstance(choice, list) and len(choice) == 2:
        verb = "moves to" if kind == "mbt.move_to" else "sets up in"
        return f"{side} {verb} {choice[0]} facing {choice[1]}"
    if kind == "mbt.atgm" and "firer" in c:
        return f"{side} announces a missile from {_u(game, c['firer'])} at {_u(game, c.get('target'))}"
    return None


EVENTS["decision"] = _decision


def describe_event(game: Game | None, record: Record) -> str | None:
    """``record`` in words, or ``None`` for a record MBT does not write."""
    describe = EVENTS.get(str(record.get("type")))
    try:
        return None if describe is None else describe(game, record)
    except (TypeError, ValueError, AttributeError, KeyError):  # a damaged record: the core's words
        return None
