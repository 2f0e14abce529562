"""Firefight decisions as forms of the web table (``hexwar_present_decision``).

A move: the units that may move, then each next hex with its MP cost (Firefight 7.0); an attack:
the legal targets, then each firer with its Attack Rating and every modifier with its case
(Firefight 6.0); deployment: the units and the hexes of the set-up zone (Firefight 9.13); Target
Lists and dummies: hexes picked on the map (Firefight 8.13, 12.0); Dragons and RPG-7s: the teams
that carry them (Firefight 6.81); indirect fire requests and adjustments (Firefight 8.2, 8.51)
and mines (Firefight 18.0). Every other decision gets the core's list of choices.

Only what the deciding side knows goes into a form: its own units, and the targets its options
name (a face-down unit cannot be a target, Firefight 11.21).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from hexwar.core.engine.view import game_of
from hexwar.core.web.present import words

if TYPE_CHECKING:
    from hexwar.core.engine.decisions import Decision
    from hexwar.core.engine.game import Game
    from hexwar.core.engine.view import SideView

Form = dict[str, Any]


def _short(unit_type: str) -> str:
    return unit_type.split(":", 1)[-1]


def _label(game: Game, uid: str) -> str | None:
    u = game.state.units.get(uid)
    return None if u is None or u.hex is None else game.board.label(u.hex)


def _move(view: SideView, d: Decision) -> Form:
    game = game_of(view)  # the engine presenting the side its own decision
    choices: list[dict[str, Any]] = []
    for o in d.options or ():
        if isinstance(o, Mapping) and "move" in o:
            uid = str(o["move"])
            u = game.state.units[uid]
            where = _label(game, uid)
            item = {"choice": o, "unit": uid, "label": f"move {uid} ({_short(u.type)})"
                    + (f" from {where}" if where else " (off the map)")}
            if where:
                item["hex"] = where
            choices.append(item)
        elif o == "pass":
            choices.append({"choice": o, "label": "pass: no more moves"})
        else:
            choices.append({"choice": o, "label": words(o)})
    return {"widget": "choose", "choices": choices,
            "notes": ["Click a unit to move it (Firefight 7.0)."]}


def _step(view: SideView, d: Decision) -> Form:
    from hexwar.plugins.firefight.movement import step_cost

    game = game_of(view)  # the engine presenting the side its own decision
    u = game.state.units[str(d.context["unit"])]
    left = float(u.state.get("mp", 0) or 0)
    choices: list[dict[str, Any]] = []
    for o in d.options or ():
        if isinstance(o, Mapping) and "to" in o:
            to = str(o["to"])
            item: dict[str, Any] = {"choice": o, "hex": to, "label": f"to {to}"}
            if u.hex is not None:
                cost = step_cost(game, game.board, u, u.hex, game.board.parse(to))
                item["note"] = f"{cost:g} MP"
                item["label"] += f" ({cost:g} MP; {left:g} left)"
            choices.append(item)
        elif o == "stop":
            choices.append({"choice": o, "label": f"stop {u.id} here"})
        elif isinstance(o, Mapping) and o.get("exit"):
            choices.append({"choice": o, "label": f"leave the map ({words(o)})"})
        else:
            choices.append({"choice": o, "label": words(o)})
    where = d.context.get("hex")
    form: Form = {"widget": "choose", "choices": choices,
                  "notes": [f"{u.id} ({_short(u.type)}) at {where}, {left:g} MP left: click the "
                            f"next hex, or a farther highlighted one to go there hex by hex "
                            f"(Firefight 7.0, 7.24)."]}
    if u.hex is not None:
        form["reach"] = _reach(view, game, u, left, choices)
    return form


def _reach(view: SideView, game: Game, u: Any, left: float,
           choices: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Firefight 7.0: the hexes ``u`` could reach with the MP it has left, each with its least
    cost by the Terrain Effects Chart and the route (docs/decisions.md CORE-84). Only what the
    side knows: the map's terrain and hexsides, no hidden costs (a move cost hook, mines), and
    no hex holding an enemy unit it sees; each step is still the rules' to allow."""
    from hexwar.core.web.present import reach
    from hexwar.plugins.firefight.movement import step_cost

    board = game.board
    blocked = {board.label(view.unit(k).hex) for k, v in view.units.items()  # type: ignore[arg-type]
               if v.get("side") not in (None, u.side) and v.get("hex") is not None}
    first = {c["hex"]: i for i, c in enumerate(choices) if "hex" in c}

    def steps(h: Any) -> list[tuple[Any, float]]:
        return [(n, step_cost(None, board, u, h, n)) for n in board.neighbors(h)
                if board.label(n) not in blocked]

    return reach(u.hex, left, steps, lambda h: h, board.label,
                 lambda h: first.get(board.label(h)))


def _fire(view: SideView, d: Decision) -> Form:
    from hexwar.plugins.firefight.fire import attack_rating, choose_weapon, describe_attack

    game = game_of(view)  # the engine presenting the side its own decision
    mode = str(d.context.get("mode", "direct"))
    choices: list[dict[str, Any]] = []
    for o in d.options or ():
        if not (isinstance(o, Mapping) and "firers" in o and "target" in o):
            label = "pass: no attack" if o == "pass" else words(o)
            choices.append({"choice": o, "label": label})
            continue
        firers = [str(f) for f in o["firers"]]
        target = game.state.units[str(o["target"])]
        f = game.state.units[firers[0]]
        item: dict[str, Any] = {"choice": o, "unit": target.id, "group": target.id}
        where = _label(game, target.id)
        if where:
            item["hex"] = where
        try:
            w = choose_weapon(game, f, target, dict(o.get("weapons", {})).get(f.id))
            att = describe_attack(game, f, target, w, mode)
            base, source, mods = attack_rating(game, att)
            ar = None if base is None else base + sum(m.value for m in mods)
            item["label"] = (f"{' + '.join(firers)} fire {w.line} at {target.id} "
                             f"({_short(target.type)}), range {att['range']}")
            item["note"] = f"AR {ar}" if ar is not None else "no AR"
            item["detail"] = [f"base AR {base} ({source})"] + [
                f"{m.name.replace('_', ' ')} {m.value:+g} [{m.rule}]" for m in mods]
        except (KeyError, ValueError, AssertionError):
            item["label"] = f"{' + '.join(firers)} attack {target.id}"
        choices.append(item)
    return {"widget": "choose", "choices": choices,
            "notes": [f"{mode.replace('_', ' ').capitalize()} fire: click a target, then the "
                      f"attack (Firefight 6.0)."]}


def _deploy(view: SideView, d: Decision) -> Form:
    from hexwar.plugins.firefight.setup import _zone_ok
    from hexwar.plugins.firefight.state import carried

    game = game_of(view)  # the engine presenting the side its own decision
    zones = [z for z in d.context.get("zones", []) if isinstance(z, Mapping)]
    zone = sorted(game.board.label(h) for h in game.board.hexes
                  if any(_zone_ok(game, z, h) for z in zones))
    units = [{"id": u.id, "label": f"{u.id} ({_short(u.type)})", "hex": game.board.label(u.hex)}
             for u in game.state.units_of(d.side)
             if u.hex is not None and not carried(u) and not u.state.get("not_drawn")]
    # the prompt names the choice's JSON shape for the terminal; the page says it in words
    return {"widget": "placement", "placement": {"units": units, "zone": zone},
            "title": f"{d.side}: set up your units in the deployment zone",
            "choices": [{"choice": {}, "label": "keep the scenario's set-up"}],
            "notes": ["Set up inside the zone, at most four units a hex (Firefight 9.13, 7.3)."]}


def _hexes(what: str, limit: int, rule: str) -> Callable[[SideView, Decision], Form]:
    def form(view: SideView, d: Decision) -> Form:
        choices = [{"choice": o, "label": "none" if not o else f"the suggested {what}: {words(o)}"}
                   for o in d.options or () if isinstance(o, list)]
        n = int(d.context.get("max", d.context.get("limit", limit)))
        return {"widget": "hexes", "hexes": {"candidates": None, "min": 0, "max": n},
                "choices": choices,
                "notes": [f"Pick up to {n} hexes for {what} on the map; the other side will not "
                          f"see them ({rule})."]}
    return form


def _weapons(view: SideView, d: Decision) -> Form:
    game = game_of(view)  # the engine presenting the side its own decision
    teams = [str(t) for t in d.context.get("teams", [])]
    n = int(d.context.get("count", 0))
    weapon = str(d.context.get("weapon", "weapon"))
    candidates = [{"id": t, "label": f"{t} at {_label(game, t) or 'off the map'}"} for t in teams]
    return {"widget": "units", "units": {"candidates": candidates, "min": n, "max": n},
            "choices": [{"choice": o, "label": f"the usual teams: {words(o)}"}
                        for o in d.options or ()],
            "notes": [f"Pick the {n} teams that carry a {weapon}; secret from the other side "
                      f"(Firefight 6.81)."]}


#: Firefight 8.2, 14.0: the kinds of indirect fire a request may name
_IF_KINDS = {"he": "HE", "suppressive": "suppressive fire", "smoke": "smoke", "icm": "ICM"}


def _if_request(view: SideView, d: Decision) -> Form:
    """Firefight 8.2: request indirect fire from an artillery or mortar unit at a hex."""
    choices: list[dict[str, Any]] = []
    for o in d.options or ():
        if isinstance(o, Mapping) and "unit" in o and "hex" in o:
            kind = _IF_KINDS.get(str(o.get("kind", "he")), str(o.get("kind")))
            more = ", continuous" if o.get("continuous") else ""
            choices.append({"choice": o, "hex": str(o["hex"]), "group": str(o["hex"]),
                            "label": f"{o['unit']}: {kind} on {o['hex']}{more}"})
        else:
            choices.append({"choice": o, "label": "pass: no more requests" if o == "pass"
                            else words(o)})
    return {"widget": "choose", "choices": choices,
            "notes": ["Click a hex to request indirect fire on it, then the unit and the kind "
                      "of fire; or pass (Firefight 8.2)."]}


def _adjust(view: SideView, d: Decision) -> Form:
    """Firefight 8.51: keep the plotted impact hex or shift it onto a nearby sighted enemy."""
    plotted = str(d.context.get("plotted", ""))
    choices = [{"choice": o, "hex": str(o),
                "label": f"keep {o}, as plotted" if str(o) == plotted else f"shift to {o}"}
               for o in d.options or ()]
    return {"widget": "choose", "choices": choices,
            "notes": [f"Fire of {d.context.get('unit', '?')} plotted on {plotted}: keep it or "
                      "shift it (Firefight 8.51)."]}


def _mines(view: SideView, d: Decision) -> Form:
    """Firefight 18.0: emplace mine points in hexes before play."""
    choices: list[dict[str, Any]] = []
    for o in d.options or ():
        if isinstance(o, Mapping) and o:
            choices.append({"choice": o, "label": "mines: " + ", ".join(
                f"{h} ({n} point{'s' if n != 1 else ''})" for h, n in o.items())})
        else:
            choices.append({"choice": o, "label": "no mines"})
    return {"widget": "choose", "choices": choices,
            "title": f"{d.side}: place up to {d.context.get('points', '?')} mine points",
            "notes": [f"Place up to {d.context.get('points', '?')} mine points (Firefight 18.0)."]}


FORMS: dict[str, Callable[[SideView, Decision], Form]] = {
    "firefight.move": _move,
    "firefight.step": _step,
    "firefight.direct_fire": _fire,
    "firefight.opportunity_fire": _fire,
    "firefight.deploy": _deploy,
    "firefight.target_list": _hexes("the Target List", 4, "Firefight 8.13"),
    "firefight.place_dummies": _hexes("dummies", 4, "Firefight 12.0"),
    "firefight.assign_weapons": _weapons,
    "firefight.if_request": _if_request,
    "firefight.adjust": _adjust,
    "firefight.mines": _mines,
}


def present_decision(view: SideView, decision: Decision) -> Form | None:
    """The form of a Firefight decision, or ``None`` (the core's list) for the others."""
    form = FORMS.get(decision.kind)
    if form is None and decision.kind.endswith("_fire") and decision.context.get("mode"):
        form = _fire
    return None if form is None else form(view, decision)
