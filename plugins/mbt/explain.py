"""Words for a human at the terminal: every MBT decision with its options numbered from 1, as the
terminal reads a number (``1`` is the first option): the mapboard edge and the set-up (MBT 2.4,
2.5), the initiative (MBT 5.1), orders (MBT 6.2), moves (MBT 8.1), fire and overwatch declarations
with their range (MBT 7.3, 7.5), missiles (MBT 7.2.2), the hit angle (MBT 7.4.5.2.1) and pivots
(MBT 9.1). A unit is named with the vehicle on its card, as the deciding side knows it: its own,
or an enemy it has sighted (the options name no other)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from hexwar.core.engine.view import game_of
from hexwar.core.web.present import words
from hexwar.core.words import unit_name
from hexwar.plugins.mbt.words import ORDER_WORDS

if TYPE_CHECKING:
    from hexwar.core.engine.decisions import Decision
    from hexwar.core.engine.game import Game
    from hexwar.core.engine.view import SideView


def _range(game: Game, a: str, b: str) -> str:
    ua, ub = game.state.units.get(a), game.state.units.get(b)
    if ua is None or ub is None or ua.hex is None or ub.hex is None:
        return ""
    return f", range {ua.hex.distance(ub.hex)}"


def _hex_range(game: Game, a: str, label: str) -> str:
    ua = game.state.units.get(a)
    try:
        h = game.board.parse(label)
    except ValueError:
        return ""
    return "" if ua is None or ua.hex is None else f", range {ua.hex.distance(h)}"


def _shots(game: Game, o: Any) -> str:
    if o == "pass":
        return "pass: no fire"
    shots = [(str(f), str(a)) for f, a in o.get("shots") or []]
    if o.get("smoke_hex"):  # MBT 14.4.5.1: a smoke round into a hex, no unit aimed at
        label = str(o["smoke_hex"])
        firers = ", ".join(f"{unit_name(game, f)} (smoke){_hex_range(game, f, label)}"
                           for f, _a in shots)
        return f"a smoke round into {label}: {firers}"
    if o.get("hex"):  # MBT 12.4.2: GP fire at a terrain marker
        firers = ", ".join(f"{unit_name(game, f)} ({a})" for f, a in shots)
        return f"at the {str(o.get('at')).replace('_', ' ')} marker in {o['hex']}: {firers}"
    target = str(o.get("target"))
    firers = ", ".join(f"{unit_name(game, f)} ({a}){_range(game, f, target)}" for f, a in shots)
    return f"at {unit_name(game, target)}: {firers}"


def _atgm(game: Game, o: Any) -> str:
    if o == "pass":
        return "pass: no missile"
    f, t = str(o.get("firer")), str(o.get("target"))
    return f"{unit_name(game, f)} launches at {unit_name(game, t)}{_range(game, f, t)}"


def _place(game: Game, o: Any) -> str:
    return f"set up in {o[0]} facing hexside {o[1]}"


def _turret(game: Game, o: Any) -> str:
    return f"turret to hexside {o[0]}, {'hatch open' if o[1] == 'open' else 'buttoned up'}"


def _move_to(game: Game, o: Any) -> str:
    if o == "stay":
        return "stay: end the move here"
    if o == "exit":
        return "leave the map by the edge ahead or behind (MBT 8.7)"
    return f"to {o[0]} facing hexside {o[1]}"


def _move_unit(game: Game, o: Any) -> str:
    if o == "done":
        return "done: no more moves for this side"
    if isinstance(o, list):  # Advanced MBT 15.5
        return f"{unit_name(game, o[1])} takes full cover instead of moving (MBT 15.5)"
    u = game.state.units.get(str(o))
    where = f" in {game.board.label(u.hex)}, order {u.state.get('order')}" \
        if u is not None and u.hex is not None else ""
    return f"{unit_name(game, o)}{where}"


def _order(game: Game, o: Any) -> str:
    return f"{o}: {ORDER_WORDS.get(str(o), str(o))}"


DESCRIBE: dict[str, Callable[[Game, Any], str]] = {
    "mbt.edge": lambda g, o: f"set up on mapboard edge {o}",
    "mbt.corners": lambda g, o: ("enter by both corners of the side" if o == "both"
                                 else f"enter by corner {o} (MBT Scenario One A)"),
    "mbt.place": _place,
    "mbt.marker": lambda g, o: f"place the terrain marker in {o} (MBT 12.4)",
    "mbt.turret": _turret,
    "mbt.pivot": lambda g, o: f"face hexside {o}",
    "mbt.initiative": lambda g, o: "move first" if o == "first" else "move second",
    "mbt.order": _order,
    "mbt.move_unit": _move_unit,
    "mbt.move_to": _move_to,
    "mbt.fire": _shots,
    "mbt.overwatch": _shots,
    "mbt.atgm": _atgm,
    "mbt.hit_angle": lambda g, o: f"the hit strikes the {o}",
    # the Advanced Game (MBT 14.7, 15.2-15.5) and command control (MBT 21.2)
    "mbt.transport": lambda g, o: ("done: no more loading or unloading" if o == "done"
                                   else f"{o[0]} {unit_name(g, o[1])} (MBT 15.3.2)"),
    "mbt.overrun": lambda g, o: ("none: the vehicle does not move (MBT 14.7.1.2)" if o == "none"
                                 else f"overrun {unit_name(g, o)}"),
    "mbt.inside": lambda g, o: {"stay out": "stay in the streets",
                                "forward": "drive inside the buildings forward (MBT 15.4.3)",
                                "reverse": "reverse inside the buildings (MBT 15.4.3)"}[o],
    "mbt.floor": lambda g, o: ("stay at this height" if o == "stay" else
                               "ground level" if o == 0 else f"{o} height(s) up (MBT 15.4.2)"),
    "mbt.towed_move": lambda g, o: "stay" if o == "stay" else f"move to {o} (MBT 15.2.1)",
    "mbt.full_cover_off": lambda g, o: ("keep the other full cover markers" if o == "keep"
                                        else f"{unit_name(g, o)} leaves full cover (MBT 15.5)"),
    "mbt.jamming": lambda g, o: "no jamming" if o == 0 else f"spend {o} jamming point(s) (MBT 21.2)",
}


def _context(game: Game, decision: Decision) -> list[str]:
    ctx = decision.context
    if decision.kind == "mbt.move_to" and "unit" in ctx:
        return [f"  {unit_name(game, ctx['unit'])} in {ctx.get('hex')} facing "
                f"{ctx.get('facing')}, {ctx.get('mf_left')} MF left (MBT 8.1)"]
    return []


def explain_decision(view: SideView, decision: Decision) -> str:
    """The decision's prompt and rule, what it is about, then its options numbered from 1 in
    words (an unknown kind of decision, an optional rule's: in the generic words of
    ``hexwar.core.web.present.words``)."""
    game = game_of(view)
    head = decision.prompt or decision.kind
    lines = [f"{head} ({decision.rule})" if decision.rule else head, *_context(game, decision)]
    describe = DESCRIBE.get(decision.kind)
    for i, option in enumerate(decision.options or [], start=1):
        try:
            text = describe(game, option) if describe is not None else words(option)
        except (KeyError, IndexError, TypeError, AttributeError, ValueError):
            text = words(option)
        lines.append(f"  {i:>3}. {text}")
    return "\n".join(lines)
