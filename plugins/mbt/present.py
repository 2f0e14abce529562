"""MBT decisions as forms of the web table (``hexwar_present_decision``).

Set-up: the hexes of the set-up area, then a facing (MBT 2.5); orders: each order in words, entered
in secret and revealed together (MBT 6.2); movement: the unit, then the reachable hexes with the MF
they cost (MBT 8.1) and a facing; fire: the targets, then the shots with their range and every AP
modifier with its rule (MBT 7.3, 7.4); overwatch: the same for the mover (MBT 7.5.2). The Umpired
Game (MBT 24.0, docs/umpire.md): each unit's instructions for the whole turn, the contacts it may
fire at shown on the map by their hex (MBT 24.3.2); the umpire's overwatch moments (MBT 24.3.3.2),
hit angles and reveals. Every other decision gets the core's list of choices.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from hexwar.core.engine.view import game_of
from hexwar.core.errors import HexwarError
from hexwar.core.web.present import words

if TYPE_CHECKING:
    from hexwar.core.engine.decisions import Decision
    from hexwar.core.engine.view import SideView

Form = dict[str, Any]

#: MBT 6.2: the orders in words
ORDER_WORDS = {"M": "Move", "FM": "Fire and Move (half MF)", "F": "Fire", "OW": "Overwatch",
               "ATGM": "fire a guided missile (ATGM)", "OR": "Orders"}
FACINGS = {1: "north", 2: "north-east", 3: "south-east", 4: "south", 5: "south-west",
           6: "north-west"}


def _short(unit_type: str) -> str:
    return unit_type.split(":", 1)[-1]


def _facing(f: Any) -> str:
    return f"facing {f} ({FACINGS.get(f, '?')})" if isinstance(f, int) else words(f)


def _hex_facing(view: SideView, d: Decision, costs: Mapping[str, str] | None = None) -> Form:
    choices: list[dict[str, Any]] = []
    for o in d.options or ():
        if isinstance(o, list) and len(o) == 2 and isinstance(o[0], str):
            item: dict[str, Any] = {"choice": o, "hex": o[0], "group": o[0],
                                    "label": f"{o[0]}, {_facing(o[1])}"}
            if costs and o[0] in costs:
                item["note"] = costs[o[0]]
            choices.append(item)
        else:
            label = {"stay": "stay where it is", "exit": "leave the map (MBT 8.7)"}.get(
                str(o), words(o))
            choices.append({"choice": o, "label": label})
    return {"widget": "choose", "choices": choices}


def _place(view: SideView, d: Decision) -> Form:
    form = _hex_facing(view, d)
    uid = str(d.context.get("unit", "?"))
    form["title"] = f"Set up {uid} ({_short(str(d.context.get('type', '')))})"  # in words
    form["notes"] = [f"Click a highlighted hex of your set-up area for {uid} "
                     f"({_short(str(d.context.get('type', '')))}), then its facing (MBT 2.5)."]
    return form


def _marker(view: SideView, d: Decision) -> Form:
    """MBT 12.4 (MBTD-168): a terrain marker's hex, the sensible hexes first."""
    kind = str(d.context.get("kind", "?")).replace("_", " ")
    choices = [{"choice": o, "hex": o, "group": o, "label": f"{kind} marker in {o}"}
               for o in d.options or () if isinstance(o, str)]
    return {"widget": "choose", "choices": choices,
            "title": f"Place a {kind} marker ({int(d.context.get('placed', 0)) + 1} of "
                     f"{d.context.get('of', '?')})",
            "notes": ["Click a highlighted hex: where the rules let this marker go "
                      "(MBT 12.4.3-12.4.6); it never moves afterwards."]}


def _routes(game: Any, u: Any, left: Fraction, first: bool, wanted: set[str]
            ) -> dict[str, list[list[str]]]:
    """MBT 8.1-8.5: the cheapest route to each ``wanted`` hex label, as its hexes with the MF
    spent on reaching each (the same search as the move's own, with the way back kept)."""
    import heapq
    import itertools

    from hexwar.plugins.mbt.movement import move_context
    from hexwar.plugins.mbt.movement_costs import (
        encode,
        first_hex_entries,
        int_successors,
        move_index,
        scale_of,
    )
    from hexwar.plugins.mbt.state import card_of, ctx

    card, info = card_of(game, u), ctx(game).info
    k, hexes = scale_of(card), move_index(info).hexes
    mctx = move_context(game, u)
    succ = int_successors(card, info, mctx)
    start = encode(move_index(info).index, u.hex, u.facing, False)
    budget = int(left * k)
    best, parent = {start: 0}, {start: -1}
    # Dijkstra as core.movement.least_cost_path (ties in the order pushed), so that the route to
    # a hex is the one the move itself then takes (movement_costs.plan) to the first (hex,
    # facing) popped there, the cheapest
    counter = itertools.count()
    heap = [(0, next(counter), start)]
    done: set[int] = set()
    cheapest: dict[str, int] = {}
    while heap:
        c, _, code = heapq.heappop(heap)
        if code in done:
            continue
        done.add(code)
        label = game.board.label(hexes[code // 12])
        if label in wanted and label not in cheapest and code != start:
            cheapest[label] = code
        for nxt, step in succ(code):
            nc = c + step
            if nc <= budget and nc < best.get(nxt, budget + 1):
                best[nxt], parent[nxt] = nc, code
                heapq.heappush(heap, (nc, next(counter), nxt))
    routes: dict[str, list[list[str]]] = {}
    for label, code in cheapest.items():
        chain: list[int] = []
        while code != -1:
            chain.append(code)
            code = parent[code]
        steps: list[list[str]] = []
        for code in reversed(chain[:-1]):  # the start hex is not a step
            here = game.board.label(hexes[code // 12])
            cost = f"{best[code] / k:g} MF"
            if steps and steps[-1][0] == here:
                steps[-1][1] = cost  # a turn in the hex: the cost so far
            else:
                steps.append([here, cost])
        if steps and steps[0][0] == game.board.label(u.hex) and len(steps) > 1:
            steps = steps[1:]  # turned in the start hex before leaving it
        routes[label] = steps or [[label, f"{best[chain[0]] / k:g} MF"]]
    if first:  # MBT 8.4.4: the one new hex a unit may always enter
        entries = first_hex_entries(card, info, (u.hex, u.facing, False), mctx)
        for (h, _g), mf in entries.items():
            label = game.board.label(h)
            if label in wanted and label not in routes:
                routes[label] = [[label, f"{float(mf):g} MF"]]
    return routes


def _move_to(view: SideView, d: Decision) -> Form:
    from hexwar.plugins.mbt.movement import destinations

    game = game_of(view)  # the engine presenting the side its own decision
    u = game.state.units[str(d.context["unit"])]
    left = Fraction(str(d.context.get("mf_left", "0")))
    costs: dict[str, str] = {}
    routes: dict[str, list[list[str]]] = {}
    try:
        first = not u.state.get("moved") and u.state.get("order") in ("M", "OR")
        found = destinations(game, u, left, False, bool(first))
        best: dict[str, Fraction] = {}
        for (h, _f), cost in found.items():
            label = game.board.label(h)
            best[label] = min(cost, best.get(label, cost))
        costs = {k: f"{float(v):g} MF" for k, v in best.items()}
        routes = _routes(game, u, left, bool(first), set(costs))
    except (AssertionError, KeyError, ValueError):
        costs = {}
    form = _hex_facing(view, d, costs)
    form["title"] = f"Move {u.id} ({_short(u.type)}), or stay"  # the prompt's [hex, facing]: words
    form["notes"] = [f"{u.id} ({_short(u.type)}) at {d.context.get('hex')}, "
                     f"{_facing(d.context.get('facing'))}, {float(left):g} MF left: click a "
                     f"highlighted hex, then the facing to end in (MBT 8.1); hover a hex for "
                     f"the route there."]
    if routes:
        form["paths"] = routes
    return form


class _Rolled(Exception):
    """The fire procedure reached its first die: the preview stops there."""


class _NoDice:
    """Dice for a preview: any roll ends it (nothing is rolled or logged)."""

    def __getattr__(self, name: str) -> Any:
        raise _Rolled(name)


def _preview(game: Any, f: Any, t: Any, weapon: str, ammo: str, overwatch: bool,
             target_moving: bool) -> tuple[int, list[Any], int]:
    """MBT 7.4.1-7.4.3 up to the first die: the range, every AP modifier (optional rules' too)
    and the hit number, by the game's own fire procedure, the target moving as the firing side
    knows it (``target_moving``: its order is secret until used, MBT 6.2.1-6.2.2)."""
    from hexwar.plugins.mbt.ap_fire import FireContext, ShotResult
    from hexwar.plugins.mbt.fire import situation
    from hexwar.plugins.mbt.hookspecs import MbtHooks
    from hexwar.plugins.mbt.state import ctx

    s = situation(game, f, weapon, ammo, t, overwatch=overwatch, target_moving=target_moving)
    extra = MbtHooks.of(game).ap_modifiers(s, f, t)
    if extra:
        s.extra_modifiers = tuple(extra)
    c = ctx(game)
    shot = ShotResult(s)
    fire_ctx = FireContext(c.charts, _NoDice())
    for step in c.fire.shot.steps:
        try:
            step(fire_ctx, shot)
        except _Rolled:
            break
        if shot.done:
            break
    return s.range, list(shot.modifiers), shot.hit_number


def _known_moving(view: SideView, uid: str) -> bool:
    """MBT 6.2.1-6.2.2, 7.4.2.2: whether the side knows ``uid`` has a moving order (its own
    unit, or an enemy's order once revealed); an order still face down is not known, so the
    form does not tell it (the AI's estimate assumes the same, ``ai.py``)."""
    from hexwar.plugins.mbt.state import MOVING_ORDERS

    state = view.units.get(uid, {}).get("state") or {}
    return state.get("order") in MOVING_ORDERS


def _shots(view: SideView, d: Decision) -> Form:
    from hexwar.plugins.mbt.state import card_of

    game = game_of(view)  # the engine presenting the side its own decision
    choices: list[dict[str, Any]] = []
    for o in d.options or ():
        if not (isinstance(o, Mapping) and o.get("target") is not None):  # pass, or terrain
            choices.append({"choice": o, "label": "pass: no fire" if o == "pass" else words(o)})
            continue
        t = game.state.units[str(o["target"])]
        shots = [(str(s[0]), str(s[1])) for s in o.get("shots", [])]
        item: dict[str, Any] = {"choice": o, "unit": t.id, "group": t.id,
                                "label": f"{', '.join(f'{f} fires {a}' for f, a in shots)} at "
                                         f"{t.id} ({_short(t.type)})"}
        if t.hex is not None:
            item["hex"] = game.board.label(t.hex)
        try:
            f = game.state.units[shots[0][0]]
            card = card_of(game, f)
            weapon = card.missiles[0] if d.kind == "mbt.atgm" and card.missiles else card.main_gun
            if weapon is not None and f.hex is not None and t.hex is not None:
                moving = _known_moving(view, t.id)
                rng, mods, hit = _preview(game, f, t, weapon.name, shots[0][1],
                                          d.kind in ("mbt.overwatch", "mbt.umpired.overwatch"),
                                          moving)
                item["note"] = f"H {hit}" if hit else f"range {rng}"
                item["detail"] = [f"range {rng}, hit number {hit} or less on d100 (MBT 7.4.3)"] + [
                    f"{m.name.replace('_', ' ')} {m.value:+g} [{m.rule}]" for m in mods]
                if not moving and t.side != d.side and "order" not in (
                        view.units.get(t.id, {}).get("state") or {}):
                    item["detail"].append("its order is face down: taken as not moving; if it "
                                          "is to move, the moving-target modifier applies "
                                          "(MBT 6.2.2, 7.4.2.2)")
        except (HexwarError, AssertionError, KeyError, ValueError, AttributeError, TypeError,
                IndexError):
            pass
        choices.append(item)
    notes = {"mbt.overwatch": "Overwatch: stop the mover here with fire, or let it go (MBT 7.5.2).",
             "mbt.atgm": "Announce guided-missile fire at one target, or pass (MBT 7.2.2).",
             "mbt.fire": "Click a target, then the shots (MBT 7.3); modifiers are listed with "
                         "their rules (MBT 7.4)."}
    return {"widget": "choose", "choices": choices, "notes": [notes.get(d.kind, "")]}


def _order(view: SideView, d: Decision) -> Form:
    uid = str(d.context.get("unit", "?"))
    where = view.units.get(uid, {}).get("hex")
    item_hex = None
    if isinstance(where, list) and len(where) == 2:
        from hexwar.core.hexgrid import Hex

        item_hex = view.board.label(Hex(int(where[0]), int(where[1])))
    choices = []
    for o in d.options or ():
        item: dict[str, Any] = {"choice": o, "label": f"{ORDER_WORDS.get(str(o), words(o))} ({o})",
                                "unit": uid}
        if item_hex:
            item["hex"] = item_hex
        choices.append(item)
    return {"widget": "choose", "choices": choices,
            "notes": [f"Order for {uid} ({_short(str(d.context.get('type', '')))}), written in "
                      f"secret: the other side sees it only when it is used (MBT 6.2, 7.3.1)."]}


def _move_unit(view: SideView, d: Decision) -> Form:
    game = game_of(view)  # the engine presenting the side its own decision
    choices: list[dict[str, Any]] = []
    for o in d.options or ():
        if o == "done":
            choices.append({"choice": o, "label": "done: no more moves"})
            continue
        if isinstance(o, list):  # Advanced MBT 15.5: [full_cover, UNIT]
            cover = _unit_choice(view, o, f"{o[1]} takes full cover instead of moving")
            cover["unit"] = str(o[1])
            choices.append(cover)
            continue
        u = game.state.units[str(o)]
        item: dict[str, Any] = {"choice": o, "unit": u.id,
                                "label": f"move {u.id} ({_short(u.type)}, order {u.state.get('order')})"}
        if u.hex is not None:
            item["hex"] = game.board.label(u.hex)
        choices.append(item)
    return {"widget": "choose", "choices": choices, "title": "Move which unit next?",
            "notes": ["Click the unit to move next (MBT 8.1)."]}


def _turret(view: SideView, d: Decision) -> Form:
    choices = [{"choice": o, "label": f"turret {_facing(o[0])}, hatch {o[1]}"
                if isinstance(o, list) and len(o) == 2 else words(o)} for o in d.options or ()]
    uid = d.context.get("unit")
    form: Form = {"widget": "choose", "choices": choices}
    if uid:  # the prompt shows the choice's shape for the terminal; the page says it in words
        form["title"] = f"Turret and hatch of {uid}"
    return form


def _pivot(view: SideView, d: Decision) -> Form:
    return {"widget": "choose", "choices": [{"choice": o, "label": _facing(o)}
                                            for o in d.options or ()]}


#: MBT 24.3.2.3: when an overwatching unit fires
_WHEN = {"any": "at the first unit it sees", "identified": "only at a unit it identifies"}


def _contact(ref: Any) -> str:
    """A contact's hex (``?1X9`` is "the contact in 1X9", MBT 24.2: never the unit's id)."""
    return str(ref)[1:] if str(ref).startswith("?") else str(ref)


def _instruction(view: SideView, d: Decision) -> Form:
    """MBT 24.3.2: one unit's instructions for the whole turn, carried out by the umpire."""
    choices: list[dict[str, Any]] = []
    # one of several players on a side (MBT 24.2): only the contacts his own units sighted
    # (docs/decisions.md MBTD-66); his side's list would tell him what the others sighted
    own_contacts = set(view.units) if getattr(view, "player", None) else None
    for o in d.options or ():
        if not isinstance(o, Mapping) or "order" not in o:
            choices.append({"choice": o, "label": words(o)})
            continue
        if own_contacts is not None and isinstance(o.get("target"), str) \
                and o["target"] not in own_contacts:
            continue
        order = str(o["order"])
        item: dict[str, Any] = {"choice": o}
        to = o.get("to")
        target = o.get("target")
        if order == "M" and isinstance(to, list) and len(to) == 2:
            item |= {"label": f"Move to {to[0]}, ending {_facing(to[1])}", "hex": str(to[0]),
                     "group": str(to[0])}
        elif order == "FM" and isinstance(to, list) and len(to) == 2:
            item |= {"label": f"Fire at the contact in {_contact(target)}, then move to "
                              f"{to[0]}, ending {_facing(to[1])}", "hex": str(to[0]),
                     "group": str(to[0])}
        elif order in ("F", "ATGM") and target is not None:
            what = "Fire the gun" if order == "F" else "Fire a guided missile"
            item |= {"label": f"{what} at the contact in {_contact(target)}",
                     "hex": _contact(target), "note": "target"}
        elif order == "OW":
            reach = f" within {o['range']} hexes" if "range" in o else ""
            item |= {"label": f"Overwatch: fire {_WHEN.get(str(o.get('when')), words(o.get('when')))}"
                              f"{reach}", "group": "Overwatch"}
        else:
            item["label"] = f"{ORDER_WORDS.get(order, order)} ({order})"
        choices.append(item)
    uid = str(d.context.get("unit", "?"))
    return {"widget": "choose", "choices": choices,
            "notes": [f"Instructions for {uid} ({_short(str(d.context.get('type', '')))}) at "
                      f"{d.context.get('hex', '?')} for the whole turn, written in secret: the "
                      "umpire carries them out (MBT 24.3.2). Click a highlighted hex to move "
                      "there or to fire at the contact in it; contacts are named by their hex."]}


def _umpire_overwatch(view: SideView, d: Decision) -> Form:
    """MBT 24.3.3.2: the umpire picks the moment an overwatching unit fires at a mover."""
    form = _shots(view, d)
    side = d.context.get("for_side", "?")
    where = d.context.get("hex") or d.context.get("step") or "?"
    form["notes"] = [f"Umpire: {side}'s overwatching units may fire at {d.context.get('mover', '?')} "
                     f"now, in {where}; fire, or pass and wait for a later moment "
                     "(MBT 24.3.3.2, 7.5)."]
    return form


def _hit_angle(view: SideView, d: Decision) -> Form:
    """MBT 7.4.5.2.1: the side of the target the hit strikes (the umpire's in MBT 24.3.3)."""
    who = "Umpire: " if d.side == "umpire" else ""
    return {"widget": "choose",
            "choices": [{"choice": o, "label": f"the hit strikes the {words(o)}"}
                        for o in d.options or ()],
            "notes": [f"{who}the hit is on the line between two sides of the target: pick the "
                      "side it strikes (MBT 7.4.5.2.1)."]}


def _reveal(view: SideView, d: Decision) -> Form:
    """The umpire tells a side something (docs/umpire.md; MBT 24.2: identification)."""
    levels = {"type": "show its kind and nation", "identified": "identify it fully"}
    choices: list[dict[str, Any]] = []
    for o in d.options or ():
        if o == "done":
            choices.append({"choice": o, "label": "done: tell the sides nothing more"})
        elif isinstance(o, Mapping) and "message" in o:
            to = f"{o['side']} ({o['player']})" if o.get("player") else str(o["side"])
            choices.append({"choice": o, "label": f"tell {to}: {o['message']}"})
        elif isinstance(o, Mapping) and "unit" in o:
            level = levels.get(str(o.get("level")), words(o.get("level")))
            item: dict[str, Any] = {"choice": o, "unit": str(o["unit"]),
                                    "group": f"reveal to {o['side']}",
                                    "label": f"{o['unit']} to {o['side']}: {level}"}
            u = view.units.get(str(o["unit"]), {})
            where = u.get("hex")
            if isinstance(where, list) and len(where) == 2:
                from hexwar.core.hexgrid import Hex

                item["hex"] = view.board.label(Hex(int(where[0]), int(where[1])))
            choices.append(item)
        else:
            choices.append({"choice": o, "label": words(o)})
    return {"widget": "choose", "choices": choices,
            "notes": ["Umpire: tell a side something, or show it a unit it has not been told of "
                      "(MBT 24.2); done when there is nothing more."]}


def _edge(view: SideView, d: Decision) -> Form:
    return {"widget": "choose",
            "choices": [{"choice": o, "label": f"set up on mapboard side {o}"}
                        for o in d.options or ()],
            "notes": ["Pick the side of the map your force sets up on (MBT 2.5)."]}


def _where(view: SideView, uid: str) -> str | None:
    """The hex label of a unit the side's view shows, else ``None``."""
    where = view.units.get(uid, {}).get("hex")
    if isinstance(where, list) and len(where) == 2:
        from hexwar.core.hexgrid import Hex

        return view.board.label(Hex(int(where[0]), int(where[1])))
    return None


def _unit_choice(view: SideView, o: Any, label: str) -> dict[str, Any]:
    item: dict[str, Any] = {"choice": o, "label": label, "unit": str(o)}
    at = _where(view, str(o))
    if at:
        item["hex"] = at
    return item


def _initiative(view: SideView, d: Decision) -> Form:
    words_ = {"first": "go first this Turn", "second": "go second this Turn"}
    return {"widget": "choose",
            "choices": [{"choice": o, "label": words_.get(str(o), words(o))}
                        for o in d.options or ()],
            "notes": ["You won the initiative: choose whether your side acts first (MBT 5.1)."]}


def _smoke(view: SideView, d: Decision) -> Form:
    choices = [{"choice": o, "label": "done: no more smoke dischargers"} if o == "done"
               else _unit_choice(view, o, f"{o} fires its smoke dischargers")
               for o in d.options or ()]
    return {"widget": "choose", "choices": choices,
            "notes": ["Click a vehicle to fire its smoke dischargers, or done (MBT 12.6.1)."]}


def _exhaust(view: SideView, d: Decision) -> Form:
    choices: list[dict[str, Any]] = []
    for o in d.options or ():
        if o == "none":
            choices.append({"choice": o, "label": "no exhaust smoke"})
        elif isinstance(o, list) and o:
            choices.append({"choice": o, "label": f"smoke in {', '.join(map(str, o))}",
                            "hex": str(o[-1])})
        else:
            choices.append({"choice": o, "label": words(o)})
    return {"widget": "choose", "choices": choices,
            "notes": [f"{d.context.get('unit', 'The vehicle')} may lay exhaust smoke along the "
                      "hexes it left: pick a track, or none (MBT 15.7.3)."]}


def _swaps(view: SideView, d: Decision) -> Form:
    choices = [{"choice": o, "label": "keep every marker" if not o else
                "change the marker of " + ", ".join(map(str, o))} for o in d.options or ()]
    return {"widget": "choose", "choices": choices,
            "notes": [f"{d.context.get('organization', 'The organization')} has "
                      f"{d.context.get('points', '?')} command point(s): pick the units whose "
                      "fire or move marker changes, one point each (MBT 21.1.2)."]}


def _close_assault(view: SideView, d: Decision) -> Form:
    choices: list[dict[str, Any]] = []
    for o in d.options or ():
        if isinstance(o, list) and len(o) == 2:
            item = _unit_choice(view, o, f"{o[0]} attacks {o[1]} at close quarters")
            item["unit"], item["group"] = str(o[1]), str(o[0])
            at = _where(view, str(o[1]))
            item.pop("hex", None)
            if at:
                item["hex"] = at
            choices.append(item)
        else:
            choices.append({"choice": o, "label": "pass: no close assault" if o == "pass"
                            else words(o)})
    return {"widget": "choose", "choices": choices,
            "notes": ["Close-assault an adjacent enemy vehicle, or attack a leg unit hand to "
                      "hand (MBT 14.5, 14.6): the attacker, then the target; or pass."]}


def _transport(view: SideView, d: Decision) -> Form:
    carrier = str(d.context.get("unit", "the carrier"))
    choices: list[dict[str, Any]] = []
    for o in d.options or ():
        if isinstance(o, list) and len(o) == 2:
            verb = "loads" if o[0] == "load" else "unloads"
            item = _unit_choice(view, o, f"{carrier} {verb} {o[1]}")
            item["unit"] = str(o[1])
            choices.append(item)
        else:
            choices.append({"choice": o, "label": "done: no more loading or unloading"})
    return {"widget": "choose", "choices": choices,
            "notes": [f"{carrier} may load and unload in {d.context.get('hex', 'its hex')} "
                      f"({d.context.get('mf_left', '?')} MF left): the highest load cost of the "
                      "units handled counts (MBT 15.3.2)."]}


def _overrun(view: SideView, d: Decision) -> Form:
    choices = [{"choice": o, "label": "none: the vehicle does not move"} if o == "none"
               else _unit_choice(view, o, f"overrun {o}") for o in d.options or ()]
    return {"widget": "choose", "choices": choices,
            "notes": [f"Announce the unit {d.context.get('unit', 'the vehicle')} overruns "
                      "(MBT 14.7.1.2)."]}


def _inside(view: SideView, d: Decision) -> Form:
    labels = {"stay out": "stay in the streets", "forward": "drive inside the buildings forward",
              "reverse": "reverse inside the buildings"}
    return {"widget": "choose",
            "choices": [{"choice": o, "label": labels.get(str(o), words(o))}
                        for o in d.options or ()],
            "notes": ["Going inside costs 1 MF and risks track and gun damage (MBT 15.4.3)."]}


def _floor(view: SideView, d: Decision) -> Form:
    choices = [{"choice": o, "label": "stay at this height" if o == "stay" else
                ("ground level" if o == 0 else f"{o} height(s) up")} for o in d.options or ()]
    return {"widget": "choose", "choices": choices,
            "notes": ["One MF a height inside the buildings (MBT 15.4.2)."]}


def _towed_move(view: SideView, d: Decision) -> Form:
    choices = [{"choice": o, "label": "stay" if o == "stay" else f"move to {o}"}
               | ({} if o == "stay" else {"hex": str(o)}) for o in d.options or ()]
    return {"widget": "choose", "choices": choices,
            "notes": ["A towed (1) gun moves one hex straight ahead or back (MBT 15.2.1)."]}


def _full_cover_off(view: SideView, d: Decision) -> Form:
    choices = [{"choice": o, "label": "keep the other full cover markers"} if o == "keep"
               else _unit_choice(view, o, f"{o} leaves full cover") for o in d.options or ()]
    return {"widget": "choose", "choices": choices,
            "notes": ["Full cover changes only in the Adjust Markers Step (MBT 15.5)."]}


def _jamming(view: SideView, d: Decision) -> Form:
    choices = [{"choice": o, "label": "no jamming" if o == 0 else f"spend {o} jamming point(s)"}
               for o in d.options or ()]
    return {"widget": "choose", "choices": choices,
            "notes": [f"Radio jamming: {d.context.get('left', '?')} point(s) left, each used once "
                      "a game, at most 3 a Turn (MBT 21.2)."]}


FORMS: dict[str, Callable[[SideView, Decision], Form]] = {
    "mbt.place": _place,
    "mbt.marker": _marker,
    "mbt.move_to": _move_to,
    "mbt.fire": _shots,
    "mbt.atgm": _shots,
    "mbt.overwatch": _shots,
    "mbt.order": _order,
    "mbt.move_unit": _move_unit,
    "mbt.turret": _turret,
    "mbt.pivot": _pivot,
    "mbt.edge": _edge,
    "mbt.hit_angle": _hit_angle,
    "mbt.umpired.instruction": _instruction,
    "mbt.umpired.overwatch": _umpire_overwatch,
    "mbt.umpired.hit_angle": _hit_angle,
    "umpire.reveal": _reveal,
    "mbt.initiative": _initiative,
    "mbt.smoke": _smoke,
    "mbt.exhaust": _exhaust,
    "mbt.swaps": _swaps,
    "mbt.close_assault": _close_assault,
    "mbt.transport": _transport,
    "mbt.overrun": _overrun,
    "mbt.inside": _inside,
    "mbt.floor": _floor,
    "mbt.towed_move": _towed_move,
    "mbt.full_cover_off": _full_cover_off,
    "mbt.jamming": _jamming,
}


def present_decision(view: SideView, decision: Decision) -> Form | None:
    """The form of an MBT decision, or ``None`` (the core's list) for the others."""
    form = FORMS.get(decision.kind)
    return None if form is None else form(view, decision)
