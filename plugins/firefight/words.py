"""Firefight's log records in words (``hexwar_describe_event``): every event the game and its
optional rules write, with the case number it happened under.

A sentence says what the record says and no more: a face-down counter the record names by its
anonymous name (Firefight 11.0) stays "counter ?SU-3"; a real unit id is shown with the type
printed on its counter, which whoever the record shows the id to can see.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from hexwar.core.words import cite, table, unit_name, words

if TYPE_CHECKING:
    from hexwar.core.engine.game import Game

Record = Mapping[str, Any]


def short_type(type_name: str) -> str:
    """``firefight:SU-T62`` -> ``T62``: the counter's name without the system and the side."""
    name = type_name.split(":", 1)[-1]
    for prefix in ("US-", "SU-"):
        if name.startswith(prefix):
            return name[len(prefix):]
    return name


def _u(game: Game | None, ref: Any) -> str:
    return unit_name(game, ref, short_type=short_type)


def _units(game: Game | None, refs: Any) -> str:
    return ", ".join(_u(game, r) for r in (refs or [])) or "no units"


def _mods(record: Record) -> str:
    mods = record.get("modifiers") or []
    parts = [f"{m.get('name')} {m.get('value'):+g}" + (f" ({m['rule']})" if m.get("rule") else "")
             for m in mods if isinstance(m, Mapping) and isinstance(m.get("value"), int | float)]
    return f" ({'; '.join(parts)})" if parts else ""


_MODES = {"direct": "", "opportunity": " in opportunity fire", "overwatch": " in overwatch",
          "short_halt": " from a short halt", "on_the_move": " on the move",
          "overrun": " in an overrun", "suppressive": " with suppressive fire"}


def _outcome(record: Record) -> str:
    result = str(record.get("result", "-"))
    applied = str(record.get("applied") or "")
    text = "no effect" if result == "-" else result
    if applied.startswith(result + " "):
        text = applied  # "S (no further effect ...)": the result with what it did
    elif applied and applied not in (result, "no effect"):
        text += f", {applied}"
    return text


def _fire(game: Game | None, r: Record) -> str:
    mode = str(r.get("mode", "direct"))
    weapon = str(r.get("weapon") or "")
    firer = _u(game, r.get("firer"))
    with_weapon = "" if not weapon or short_type(weapon) in firer.split(" ")[0] else \
        f" with {weapon}"
    ar = r.get("ar")
    rating = "no attack possible" if ar is None else f"attack rating {ar}"
    filters = r.get("filters") or []
    through = f", through {', '.join(map(str, filters))}" if filters else ""
    return (f"{firer} fires{with_weapon}{_MODES.get(mode, f' ({mode})')} at "
            f"{_u(game, r.get('target'))}, range {r.get('range')}{through}, {rating}"
            f"{_mods(r)}, dice {r.get('roll')}: {_outcome(r)}{cite(r.get('rules'))}")


def _indirect(game: Game | None, r: Record) -> str:
    why = f" ({r['why']})" if r.get("why") else ""
    note = f", {r['note']}" if r.get("note") else ""
    return (f"indirect fire on {_u(game, r.get('target'))}{why}, attack rating {r.get('ar')}"
            f"{_mods(r)}, dice {r.get('roll')}: {_outcome(r)}{note}{cite(r.get('rules'))}")


def _clgp(game: Game | None, r: Record) -> str:
    return (f"Copperhead round at {_u(game, r.get('target'))}, attack rating {r.get('ar')}, "
            f"dice {r.get('roll')}: {_outcome(r)}{cite(r.get('rules'))}")


def _mine_attack(game: Game | None, r: Record) -> str:
    owner = f"{r['owner']} " if r.get("owner") else ""
    return (f"{owner}mines attack {_u(game, r.get('target'))}, attack rating {r.get('ar')}, "
            f"dice {r.get('roll')}: {_outcome(r)}{cite(r.get('rules'))}")


_RESULTS: dict[str, Callable[[Game | None, Record], str]] = {
    "fire": _fire, "indirect_fire": _indirect, "clgp": _clgp, "mine_attack": _mine_attack,
}


def _result(game: Game | None, r: Record) -> str | None:
    what = str(r.get("what"))
    describe = _RESULTS.get(what)
    if describe is not None:
        return describe(game, r)
    return None


#: Firefight 8.0, 14.0: the kinds of indirect fire mission
_KINDS = {"he": "high explosive", "smoke": "smoke"}


def _mission(m: Any) -> str:
    if not isinstance(m, Mapping):
        return words(m)
    kind = _KINDS.get(str(m.get("kind")), str(m.get("kind")))
    how = "continuous " if m.get("continuous") else "scheduled " if m.get("scheduled") else ""
    planned = ", a planned target" if m.get("planned") else ""
    return (f"{m.get('unit')} is asked for {how}{kind} fire on {m.get('hex')}{planned}, to land "
            f"on game-turn {m.get('impact_turn')}")


def _stacking(game: Game | None, r: Record) -> str:
    hexes = r.get("hexes") or {}
    parts = [f"{where}: {_units(game, ids)}" for where, ids in
             sorted(table(hexes).items())]
    return f"overstacked, the excess is removed: {'; '.join(parts)}{cite(r.get('rule'))}"


def _scheduled(r: Record) -> str:
    fires = [f"{f.get('unit')} on {f.get('hex')} at game-turn {f.get('turn')}"
             for f in r.get("fires") or [] if isinstance(f, Mapping)]
    return f"{r.get('side')} schedules fire: {'; '.join(fires) or 'none'}{cite(r.get('rule'))}"


def _move_fire(game: Game | None, r: Record) -> str:
    what = {"short_halt": "halts short", "on_the_move": "fires on the move"}.get(
        str(r.get("type")), str(r.get("type")).replace("_", " "))
    cost = r.get("mp_cost")
    paid = f", {cost:g} MP" if isinstance(cost, int | float) else ""
    return (f"{_u(game, r.get('unit'))} {what} to fire at {_u(game, r.get('target'))}{paid}"
            f"{cite(r.get('rule'))}")


def _setup_shuffled(game: Game | None, r: Record) -> str:
    moved = r.get("moved")
    where = ", ".join(f"{_u(game, uid)} to {hex_}" for uid, hex_ in sorted(moved.items())) \
        if isinstance(moved, Mapping) else ""
    return (f"{r.get('side')}'s face-down counters left at the printed set-up swap places in "
            f"secret: {where or 'none moved'}{cite(r.get('rule'))}")


def _events() -> dict[str, Callable[[Game | None, Record], str | None]]:
    c = cite
    return {
        "result": _result,
        "deployed": lambda g, r: f"{r.get('side')} has deployed{c(r.get('rule'))}",
        "setup_shuffled": _setup_shuffled,
        "first_player": lambda g, r: (f"{r.get('first')} is first player for the "
                                      f"{r.get('purpose')} (die {r.get('roll')}){c(r.get('rule'))}"),
        "move_start": lambda g, r: f"{_u(g, r.get('unit'))} starts to move{c(r.get('rule'))}",
        "move": lambda g, r: (f"{_u(g, r.get('unit'))} moves to {r.get('to')}"
                              + (f", {r['mp']:g} MP left" if isinstance(r.get("mp"), int | float)
                                 else "") + c(r.get("rule") or "Firefight 7.0")),
        "exit": lambda g, r: (f"{_u(g, r.get('unit'))} leaves the map by the "
                              f"{words(r.get('edge'))} edge{c(r.get('rule'))}"),
        "stacking_violation": _stacking,
        "mount": lambda g, r: (f"{_units(g, r.get('units'))} mount {_u(g, r.get('vehicle'))}"
                               f"{c(r.get('rule'))}"),
        "dismount": lambda g, r: (f"{_units(g, r.get('units'))} dismount from "
                                  f"{_u(g, r.get('vehicle'))}{c(r.get('rule'))}"),
        "assign_weapons": lambda g, r: (f"{r.get('side')} gives {r.get('weapon')} to "
                                        f"{_units(g, r.get('units'))}{c(r.get('rule'))}"),
        "target_list": lambda g, r: (f"{r.get('side')}'s planned targets: "
                                     f"{words(r.get('hexes'))}{c(r.get('rule'))}"),
        "scheduled_fires": lambda g, r: _scheduled(r),
        "force_draw": lambda g, r: (f"{r.get('side')} draws its forces: "
                                    f"{_units(g, r.get('drawn'))}{c(r.get('rule'))}"
                                    if "drawn" in r else
                                    f"{r.get('side')} draws {r.get('count')} counters"
                                    f"{c(r.get('rule'))}"),
        "if_request": lambda g, r: f"{_mission(r.get('mission'))}{c(r.get('rule'))}",
        "if_delayed": lambda g, r: (f"fire of {r.get('unit')} is delayed {r.get('turns')} "
                                    f"game-turn(s){c(r.get('rule'))}"),
        "if_impact": lambda g, r: (f"{r.get('side')} {_KINDS.get(str(r.get('kind')), r.get('kind'))}"
                                   f" fire of {r.get('unit')} "
                                   f"lands on {r.get('hex')}"
                                   + (f" (plotted on {r.get('plotted')})"
                                      if r.get("plotted") not in (None, r.get("hex")) else "")
                                   + c(r.get("rule"))),
        "random_end_roll": lambda g, r: (f"random end of the game: US rolls {r.get('us')}, SU "
                                         f"rolls {r.get('su')}"
                                         + ("; the game ends" if r.get("us") == r.get("su")
                                            else "; play goes on") + c(r.get("rule"))),
        # optional rules
        "dummies_placed": lambda g, r: (f"{r.get('side')} places dummies: "
                                        f"{_units(g, r.get('units'))}{c(r.get('rule'))}"),
        "dummy_removed": lambda g, r: (f"counter {r.get('counter')} in {r.get('hex')} is a dummy "
                                       f"and is removed{c(r.get('rule'))}"),
        "revealed": lambda g, r: (f"counter {r.get('counter')} in {r.get('hex')} is revealed as "
                                  f"{_u(g, r.get('unit'))} ({r.get('why')}){c(r.get('rule'))}"),
        "concealed": lambda g, r: ((f"{_u(g, r.get('unit'))} goes face-down" if "unit" in r
                                    else f"{r.get('side')} counter {r.get('counter')} goes "
                                         f"face-down") + c(r.get("rule"))),
        "mines_emplaced": lambda g, r: (f"{r.get('side')} lays mines: "
                                        f"{words(r.get('plan'))} points{c(r.get('rule'))}"),
        "mine_markers": lambda g, r: (f"{r.get('side')} has mined hexes {words(r.get('hexes'))}"
                                      f"{c(r.get('rule'))}"),
        "mines_announced": lambda g, r: (f"{r.get('side')} announces a {r.get('points')}-point "
                                         f"minefield in {r.get('hex')}{c(r.get('rule'))}"),
        "artillery_mines": lambda g, r: (f"{r.get('by') or 'artillery'} scatters mines around "
                                         f"{r.get('center')} ({words(r.get('hexes'))}), attack "
                                         f"rating {r.get('ar')}{c(r.get('rule'))}"),
        "smoke_placed": lambda g, r: (f"smoke in {r.get('hex')}"
                                      + (f" from {_u(g, r.get('by'))}" if r.get("by") else "")
                                      + c(r.get("rule"))),
        "smoke_removed": lambda g, r: (f"the smoke in {r.get('hex')} clears (die {r.get('roll')})"
                                       f"{c(r.get('rule'))}"),
        "ip_removed": lambda g, r: (f"the improved position in {r.get('hex')} is removed"
                                    f"{c(r.get('rule'))}"),
        "dedicated_battery": lambda g, r: (f"dedicated batteries: {words(r.get('units'))}"
                                           f"{c(r.get('rule'))}"),
        "priority_targets": lambda g, r: (f"priority targets: {words(r.get('hexes'))}"
                                          f"{c(r.get('rule'))}"),
        "priority_fire": lambda g, r: (f"{r.get('unit')} fires at its priority target "
                                       f"{r.get('hex')}{c(r.get('rule'))}"),
        "clgp_designation": lambda g, r: (f"{_u(g, r.get('team'))} designates "
                                          f"{_u(g, r.get('target'))} for a Copperhead round"
                                          f"{c(r.get('rule'))}"),
        "clgp_lost": lambda g, r: (f"{_u(g, r.get('team'))} loses its designation of "
                                   f"{_u(g, r.get('target'))}{c(r.get('rule'))}"),
        "overrun": lambda g, r: (f"{_u(g, r.get('unit'))} overruns "
                                 f"{r.get('hex') or 'its hex'}{c(r.get('rule'))}"),
        "overrun_stalemate": lambda g, r: (f"the overrun by {_u(g, r.get('unit'))} stalls"
                                           f"{c(r.get('rule'))}"),
        "short_halt": _move_fire,
        "on_the_move": _move_fire,
    }


def _decision(game: Game | None, r: Record) -> str | None:
    """A side's own choice (only its own log shows it), for the kinds worth a sentence; the
    core's words for the rest."""
    kind, choice, side = str(r.get("kind")), r.get("choice"), r.get("side")
    if choice == "pass":
        return f"{side} passes ({kind.split('.', 1)[-1].replace('_', ' ')})"
    c = table(choice)
    if "firers" in c:
        return f"{side} attacks {_u(game, c.get('target'))} with {_units(game, c.get('firers'))}"
    if kind == "firefight.move" and "move" in c:
        return f"{side} moves {_u(game, c['move'])}"
    if kind == "firefight.step":
        return f"{side} steps to {c['to']}" if "to" in c else f"{side} chooses {words(choice)}"
    if kind == "firefight.deploy":
        placed = ", ".join(f"{_u(game, u)} in {h}" for u, h in sorted(c.items()))
        return f"{side} deploys {placed or 'as set up'}"
    if kind == "firefight.if_request" and "unit" in c:
        return f"{side} calls {c['unit']} to fire on {c.get('hex')}"
    return None


EVENTS = _events()
EVENTS["decision"] = _decision


def describe_event(game: Game | None, record: Record) -> str | None:
    """``record`` in words, or ``None`` for a record Firefight does not write (the core's words
    then answer)."""
    describe = EVENTS.get(str(record.get("type")))
    try:
        return None if describe is None else describe(game, record)
    except (TypeError, ValueError, AttributeError, KeyError):  # a damaged record: the core's words
        return None
