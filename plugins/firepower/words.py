"""Firepower's log records in words (``hexwar_describe_event``): every event the game writes, with
the rule it happened under: the set-up (Firepower 2.2, 2.4), the cup and the Impulses
(Firepower 5, 6.1), each Action (Firepower 6.2), fire and grenades shot by shot (Firepower 6.3,
6.4) and melee (Firepower 6.5)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from hexwar.core.words import cite, table, unit_name

if TYPE_CHECKING:
    from hexwar.core.engine.game import Game

Record = Mapping[str, Any]


def _u(game: Game | None, ref: Any) -> str:
    return unit_name(game, ref)


def _units(game: Game | None, refs: Any) -> str:
    return ", ".join(_u(game, r) for r in (refs or [])) or "nobody"


def _impulse_units(game: Game | None, r: Mapping[str, Any]) -> str:
    """The soldiers of an Impulse as a side reads them: those in a tunnel of the other side
    are "out of sight" (Firepower 11.5, 8.8.8; FPD-137)."""
    if not r.get("unseen"):
        return _units(game, r.get("units"))
    shown = r.get("units") or []
    return (_units(game, shown) + " and " if shown else "") + "soldiers out of sight"


def _mods(mods: Any) -> str:
    parts = [f"{m.get('name')} {m.get('value'):+g}" for m in mods or []
             if isinstance(m, Mapping) and isinstance(m.get("value"), int | float)]
    return f" ({'; '.join(parts)})" if parts else ""


def _effects(game: Game | None, s: Mapping[str, Any]) -> str:
    out = []
    for key, what in (("eliminated", "eliminated"), ("stunned", "stunned"),
                      ("suppressed", "suppressed")):
        if s.get(key):
            out.append(f"{_units(game, s[key])} {what}")
    if s.get("outcome"):
        out.append(str(s["outcome"]))
    return "; ".join(out) or "no effect"


def _fire(game: Game | None, r: Record, s: Mapping[str, Any]) -> str:
    mods = table(s.get("modifiers"))
    targets = ", ".join(f"{_u(game, t)}{_mods(mods.get(t))}" for t in s.get("targets") or [])
    shots = s.get("shots") or []
    rolls = ", ".join(f"{sh.get('roll')}" + (f"->{sh.get('modified')}"
                                              if sh.get("modified") != sh.get("roll") else "")
                      + (" hit" if sh.get("hit") else "")
                      for sh in shots if isinstance(sh, Mapping))
    hits = sum(1 for sh in shots if isinstance(sh, Mapping) and sh.get("hit"))
    firer = _u(game, s.get("firer"))
    weapon = "" if firer.split(" ")[0] == s.get("weapon") else f" {s.get('weapon')}"
    return (f"{firer} fires{weapon} ({s.get('mode')}) at {targets}, "
            f"range {s.get('range')}, hit number {s.get('hit_number')}, dice {rolls or 'none'}: "
            f"{hits} hit(s), {_effects(game, s)}{cite(r.get('rules'))}")


def _grenade(game: Game | None, r: Record, s: Mapping[str, Any]) -> str:
    throw = (f"throw {s.get('throw_roll')}" + (f"->{s.get('throw_modified')}"
                                               if s.get("throw_modified") not in
                                               (None, s.get("throw_roll")) else ""))
    lands = f", lands in {s.get('impact')}" if s.get("impact") else ""
    spread = f" (spread roll {s['spread_roll']})" if s.get("spread_roll") is not None else ""
    blast = [b for b in s.get("blast") or [] if isinstance(b, Mapping)]
    blasts = ", blast " + "; ".join(f"{_u(game, b.get('unit'))} {b.get('roll')}->"
                                    f"{b.get('modified')} {b.get('result')}" for b in blast) \
        if blast else ""
    if s.get("mine"):  # Firepower 12.4.4.1: no firer, nothing thrown (FPD-187)
        how = "canister along its facing" if s.get("ammo") == "C" else "G blast"
        return (f"{s.get('firer')} goes off ({how}){lands}{blasts}: {_effects(game, s)}"
                f"{cite(r.get('rules'))}")
    what = (f"fires the rifle grenade {s['item']} ({s.get('ammo')}) from his {s['rifle']}"
            if s.get("mode") == "rifle" and s.get("rifle")  # Firepower 12.4.1.1 (FPD-132)
            else f"throws {s['item']} ({s.get('ammo')})"  # a hand grenade (Firepower 12.4.1)
            if str(s.get("item", ""))[:3] in ("HGN", "HRG") and s.get("mode") == "throw"
            else f"fires {s['item']} ({s.get('ammo')})" if s.get("item")  # the Advanced Game
            else "throws a grenade")
    return (f"{_u(game, s.get('firer'))} {what} at {s.get('target_hex')}, range "
            f"{s.get('range')}, hit number {s.get('hit_number')}, {throw}{lands}{spread}{blasts}: "
            f"{_effects(game, s)}{cite(r.get('rules'))}")


def _melee(game: Game | None, r: Record, s: Mapping[str, Any]) -> str:
    return (f"melee in {s.get('hex')}: {_units(game, s.get('attackers'))} against "
            f"{_units(game, s.get('defenders'))}{_mods(r.get('modifiers'))}, die {s.get('roll')}: "
            f"{s.get('winner')} win{cite(r.get('rules'))}")


def _result(game: Game | None, r: Record) -> str | None:
    s = r.get("result")
    if not isinstance(s, Mapping):
        return None
    if r.get("what") == "melee":
        return _melee(game, r, s)
    if s.get("kind") == "grenade":
        return _grenade(game, r, s)
    if s.get("kind") == "fire":
        return _fire(game, r, s)
    return None


def _action(game: Game | None, r: Record) -> str:
    who, act, cost = _u(game, r.get("unit")), str(r.get("act")), r.get("cost")
    mf = f" ({cost} MF)" if cost is not None else ""
    if act == "enter":
        text = f"{who} enters {r.get('hex')}"
    elif act == "turn":
        text = f"{who} turns to face hexside {r.get('to')}"
    elif act == "posture":
        text = f"{who} takes the {r.get('to')} posture"
    elif act == "cross":
        text = f"{who} crosses to side {r.get('side')} of the fence or hedge"
    elif act in ADVANCED_ACTS:  # the Advanced Game's terrain (Firepower 8.8.8, 11.1.3-11.2.3)
        text = f"{who} {ADVANCED_ACTS[act]}"
    else:  # an optional rule's Action
        text = f"{who}: {act.replace('_', ' ')}"
    return f"{text}{mf}{cite(r.get('rule'))}"


#: the Advanced Game's Actions of buildings, trees, water and tunnels in words
ADVANCED_ACTS = {"stairs": "takes the stairs", "door": "opens or closes a door or window",
                 "break": "tries to break open a door or window",
                 "through": "goes through a door or window", "climb": "climbs",
                 "ford": "fords the water", "swim": "swims", "tunnel": "goes into or out of a tunnel"}


def _listed(value: Any) -> list[Any]:
    """``value`` when it is a list, else an empty one (a damaged record reads, never raises)."""
    return value if isinstance(value, list) else []


def _mine(g: Game | None, r: Record) -> str:
    hit = r.get("eliminated") or []
    how = r.get("how")
    if how == "impact" or (how is None and r.get("by") is None):
        what = "goes off, its hex hit by an impact"
    elif how == "detonated":
        what = f"is detonated by {_u(g, r.get('by'))} from {r.get('set_off_at')}"
    else:
        what = f"goes off as {_u(g, r.get('by'))} enters {r.get('set_off_at')}"
    return (f"a {r.get('kind')} mine in {r.get('hex')} {what}"
            + (f": {_units(g, hit)} eliminated" if hit else "") + cite(r.get("rule")))


EVENTS: dict[str, Callable[[Game | None, Record], str | None]] = {
    "result": _result,
    "action": _action,
    "board_side": lambda g, r: ("board sides: " + ", ".join(
        f"{s} along side {v}" for s, v in sorted(table(r.get("sides")).items())) + cite(r.get("rule"))),
    "placed": lambda g, r: (f"{_u(g, r.get('unit'))} set up in {r.get('hex')} facing hexside "
                            f"{r.get('facing')}{cite(r.get('rule'))}"),
    "mix": lambda g, r: (f"the {r.get('count')} sequence chits are mixed in the cup"
                         f"{cite(r.get('rule'))}"),
    "impulse_phase": lambda g, r: f"{r.get('side')}'s Impulse Phase{cite(r.get('rule'))}",
    "impulse": lambda g, r: (f"Impulse {r.get('n')}: {_impulse_units(g, r)} act"
                             f"{cite(r.get('rule'))}"),
    "squad_impulses": lambda g, r: (f"sequence unit {r.get('letter')} of {r.get('side')}: "
                                    f"Impulses for squads {', '.join(map(str, r.get('squads') or []))}"
                                    f"{cite(r.get('rule'))}"),
    "hit_the_dirt": lambda g, r: (f"squad {r.get('squad')} hits the dirt: "
                                  f"{_units(g, r.get('units'))} go Prone{cite(r.get('rule'))}"),
    "activated": lambda g, r: (f"{_u(g, r.get('unit'))} activates {_units(g, r.get('units'))}, "
                               f"each with {r.get('spent')} MF fewer{cite(r.get('rule'))}"),
    "eliminated": lambda g, r: f"{_u(g, r.get('unit'))} is eliminated{cite(r.get('rule'))}",
    "turn_record": lambda g, r: (f"the Turn Record marker moves on (game-turn {r.get('turn')})"
                                 f"{cite(r.get('rule'))}"),
    # the Advanced Game's markers (Firepower 9.3, 12.3.4.2, 12.3.7, 12.3.8, 12.4.9)
    "smoke": lambda g, r: f"smoke ({r.get('source')}) in {r.get('hex')}{cite(r.get('rule'))}",
    "illumination": lambda g, r: f"illumination over {r.get('hex')}{cite(r.get('rule'))}",
    "turn_record_removals": lambda g, r: (
        "removed: smoke in " + (", ".join(map(str, r.get("smoke") or [])) or "no hex")
        + "; illumination in " + (", ".join(map(str, r.get("illumination") or [])) or "no hex")
        + cite(r.get("rule"))),
    "arm_charge": lambda g, r: (f"{_u(g, r.get('unit'))} arms a demolition charge in "
                                f"{r.get('hex')}{cite(r.get('rule'))}"),
    "demolition": lambda g, r: f"the demolition charge in {r.get('hex')} explodes{cite(r.get('rule'))}",
    "terrain_destroyed": lambda g, r: (f"the {r.get('was')} in {r.get('hex')} is destroyed: now "
                                       f"{r.get('becomes')}{cite(r.get('rule'))}"),
    "defense_placed": lambda g, r: (f"an {r.get('what')} unit is placed in {r.get('hex')}"
                                    f"{cite(r.get('rule'))}"),
    "defense_destroyed": lambda g, r: (f"the {r.get('was')} in {r.get('hex')} is destroyed by fire: "
                                       f"now {r.get('becomes')}{cite(r.get('rule'))}"),
    # the Advanced Game's terrain and set-up (hidden_setup.py, buildings.py)
    "crater": lambda g, r: (f"a crater {r.get('depth')} deep is placed in {r.get('hex')}"
                            f"{cite(r.get('rule'))}"),
    "openings": lambda g, r: (f"doors and windows closed at the start: "
                              f"{', '.join(map(str, r.get('closed') or [])) or 'none'}"
                              f"{cite(r.get('rule'))}"),
    "secret_setup": lambda g, r: ("secret records: tunnels "
                                  + (", ".join(map(str, r.get("tunnels") or [])) or "none")
                                  + f"; {len(r.get('mines') or [])} mine(s){cite(r.get('rule'))}"),
    "opening": lambda g, r: (f"a door or window is now {r.get('state')} ({r.get('key')})"
                             f"{cite(r.get('rule'))}"),
    "break_open": lambda g, r: (f"{_u(g, r.get('unit'))} tries to break open a door or window: "
                                f"die {r.get('roll')}, "
                                f"{'broken open' if r.get('broken') else 'it holds'}"
                                f"{cite(r.get('rule'))}"),
    "mine": _mine,
    # later entry and loading (entry.py, loading.py)
    "enter_board": lambda g, r: (f"squad {r.get('squad')} of {r.get('side')} enters the board: "
                                 + (", ".join(f"{_u(g, u)} in {h}" for u, h in
                                              sorted(table(r.get("at")).items())) or "no one")
                                 + cite(r.get("rule"))),
    "building_damaged": lambda g, r: (f"the building in {r.get('hex')} takes damage "
                                      f"{r.get('damage')}: "
                                      + ", ".join(str(x) for x in (r.get("destroyed") or []))
                                      + " destroyed" + cite(r.get("rule"))),
    "exit_board": lambda g, r: (f"{_u(g, r.get('unit'))} leaves the board across its "
                                f"{r.get('board_side')} edge{cite(r.get('rule'))}"),
    "loading": lambda g, r: (f"{_u(g, r.get('unit'))} "
                             + ("loads " + str(r.get("ammo")) if r.get("kind") == "load"
                                else "unloads")
                             + (f" {r.get('item')}" if r.get("item") else "")
                             + f" ({r.get('phases')} of {r.get('needed')} Impulse Phases"
                             + (", ready" if r.get("ready") else "") + ")" + cite(r.get("rule"))),
    # the attacker in the tunnels (tunnels.py, Firepower 11.5)
    "tunnel_reveal": lambda g, r: (
        f"{_u(g, r.get('unit'))} in {r.get('hex')} learns: "
        + (", ".join(f"{h.get('kind')} {h.get('hex')} "
                     f"{'with soldiers' if h.get('soldiers') else 'empty'}"
                     for h in map(table, _listed(r.get("hexes")))) or "nothing next to it")
        + cite(r.get("rule"))),
    "tunnel_hex": lambda g, r: (f"{_u(g, r.get('unit'))} is in the tunnel hex {r.get('hex')}"
                                f"{cite(r.get('rule'))}"),
    "tunnel_melee_empty": lambda g, r: (f"{', '.join(_u(g, u) for u in _listed(r.get('units')))}"
                                        f" melee into {r.get('hex')} and find no one"
                                        f"{cite(r.get('rule'))}"),
    "tunnel_stopped": lambda g, r: (f"{_u(g, r.get('unit'))} is stopped at {r.get('hex')}: "
                                    f"soldiers are there{cite(r.get('rule'))}"),
    # an abatis hex's second half of a move's MF (defenses.py, Firepower 11.2.1)
    "abatis": lambda g, r: (f"{_u(g, r.get('unit'))} spends {r.get('cost')} more MF for the "
                            f"abatis at {r.get('hex')}{cite(r.get('rule'))}"),
    # a height hexside's MF beyond the Basic crossing (height_hexsides.py, Firepower 11.1.4)
    "height_hexside": lambda g, r: (f"{_u(g, r.get('unit'))} spends {r.get('cost')} more MF "
                                    f"over the height hexside into {r.get('hex')}"
                                    f"{cite(r.get('rule'))}"),
    # snow or mud's extra MF (weather.py, Firepower 11.2.2)
    "weather_cost": lambda g, r: (f"{_u(g, r.get('unit'))} spends {r.get('cost')} more MF for "
                                  f"the {r.get('weather')} at {r.get('hex')}{cite(r.get('rule'))}"),
}


def _decision(game: Game | None, r: Record) -> str | None:
    """A side's own choice (only its own log shows it), for the kinds worth a sentence; the
    core's words for the rest."""
    kind, choice, side = str(r.get("kind")), r.get("choice"), r.get("side")
    c = table(choice)
    if choice in ("pass", "end"):
        return f"{side}: {choice} ({kind.replace('_', ' ')})"
    if kind == "impulse" and "units" in c:
        return f"{side} activates {_units(game, c['units'])} in {c.get('hex')}"
    if kind == "place" and "hex" in c:
        return (f"{side} sets up in {c['hex']} facing hexside {c.get('facing')}, "
                f"{c.get('posture', 'stand')}")
    if kind == "action" and "act" in c:
        rest = ", ".join(f"{k} {v if not isinstance(v, list) else ', '.join(map(str, v))}"
                         for k, v in sorted(c.items()) if k not in ("unit", "act"))
        return f"{side}: {_u(game, c.get('unit'))} {c['act']}" + (f" ({rest})" if rest else "")
    return None


EVENTS["decision"] = _decision


def describe_event(game: Game | None, record: Record) -> str | None:
    """``record`` in words, or ``None`` for a record Firepower does not write."""
    describe = EVENTS.get(str(record.get("type")))
    try:
        return None if describe is None else describe(game, record)
    except (TypeError, ValueError, AttributeError, KeyError):  # a damaged record: the core's words
        return None
