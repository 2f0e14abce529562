"""Firepower decisions as forms of the web table (``hexwar_present_decision``).

The board side (Firepower 2.2); set-up: the hexes of the set-up area, then a facing and posture
(Firepower 2.4); an Impulse: the hexes whose soldiers may act (Firepower 6.1); an Action: each
soldier's Actions with their MF cost, fire and grenades with the hit number (Firepower 6.2), in
the words of the terminal's explanation (``explain.py``), the hexes they enter or aim at marked
on the map.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from hexwar.core.engine.view import game_of
from hexwar.plugins.firepower.explain import DESCRIBE

if TYPE_CHECKING:
    from hexwar.core.engine.decisions import Decision
    from hexwar.core.engine.game import Game
    from hexwar.core.engine.state import Unit
    from hexwar.core.engine.view import SideView
    from hexwar.core.hexgrid import Hex
    from hexwar.plugins.firepower.advanced_terrain import AdvMap

Form = dict[str, Any]


def _item(view: SideView, d: Decision, o: Any) -> dict[str, Any]:
    game = game_of(view)  # the engine presenting the side its own decision
    item: dict[str, Any] = {"choice": o, "label": DESCRIBE[d.kind](game, o)}
    if not isinstance(o, Mapping):
        return item
    if d.kind == "place":
        item["hex"] = item["group"] = str(o.get("hex"))
    elif d.kind == "impulse":
        if o.get("hex") is not None:  # an Advanced "Hit the Dirt!" names no hex (11.3.3)
            item["hex"] = str(o.get("hex"))
        if o.get("squad") is not None:  # the Advanced Game's squads (Firepower 9.2)
            item["group"] = str(o.get("squad"))
        units = [str(u) for u in o.get("units", [])]
        if len(units) == 1:
            item["unit"] = units[0]
    elif d.kind == "action":
        uid = o.get("unit")
        if isinstance(uid, str):
            item["group"] = uid
        target = o.get("hex")
        if o.get("act") == "enter" and uid in game.state.units:
            from hexwar.plugins.firepower.actions import check_action

            try:
                info = check_action(game, dict(o))
                target = game.board.label(info["to"])
                item["note"] = f"{info.get('cost', 0)} MF"
            except Exception:  # an Action the rules now refuse: shown, but not marked
                target = None
        if isinstance(target, str):
            item["hex"] = target
        targets = [t for t in o.get("targets", []) if isinstance(t, str) and t in view.units]
        if targets:
            item["unit"] = targets[0]
    return item


def present_decision(view: SideView, decision: Decision) -> Form | None:
    """The form of a Firepower decision, or ``None`` (the core's list) for the others."""
    if decision.kind not in DESCRIBE:
        return None
    choices = [_item(view, decision, o) for o in decision.options or ()]
    if decision.kind == "action":
        groups = {c.get("group") for c in choices}
        if len(groups - {None}) <= 1:  # one soldier acting: no first step
            for c in choices:
                c.pop("group", None)
    form_reach: list[dict[str, Any]] = []
    if decision.kind == "action":
        grouped = any("group" in c for c in choices)
        for uid in sorted({str(o["unit"]) for o in decision.options or ()
                           if isinstance(o, Mapping) and o.get("act") in ("enter", "turn")
                           and isinstance(o.get("unit"), str)}):
            for r in _reach(view, decision, uid, choices):
                form_reach.append(r | ({"group": uid} if grouped else {}))
    notes = {"place": "Click a highlighted hex, then the facing and posture (Firepower 2.4).",
             "impulse": "Click the hex whose soldiers act in this Impulse (Firepower 6.1).",
             "action": "Pick the next Action; fire shows its hit number (Firepower 6.2, 7.0).",
             "board_side": "Pick the side of the mapboard to set up along (Firepower 2.2)."}
    form: Form = {"widget": "choose", "choices": choices, "notes": [notes[decision.kind]]}
    if form_reach:
        form["reach"] = form_reach
        form["notes"].append("A farther highlighted hex shows the MF to get there and the way "
                             "(turns and moves); click it to go there Action by Action.")
    return form


def _reach(view: SideView, d: Decision, uid: str,
           choices: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Firepower 6.2.1-6.2.2: the hexes soldier ``uid`` could reach with the MF he has left by
    turning and entering the hex in front, each with its least MF by the BASIC GAME MF CHART
    (a hill or depression hexside adds the crossing) and the way there (docs/decisions.md
    CORE-84). Only what the side knows: no hex holding an opposing soldier it sees; a fence
    or hedge in a hex ends the search there (crossing it is an Action of its own, 6.2.3)."""
    from hexwar.core.web.present import reach
    from hexwar.plugins.firepower.actions import mf_left
    from hexwar.plugins.firepower.state import fp_map, phase_of, rules_card

    game = game_of(view)  # the engine presenting the side its own decision
    u = game.state.units[uid]
    if u.hex is None:
        return []
    c, m = rules_card(game), fp_map(game)
    posture = str(u.state.get("posture", "stand"))
    try:
        enter, turn, cross = (c.mf_cost(a, posture) for a in ("enter", "turn", "cross"))
    except Exception:  # a posture that cannot move (no chart entry): nothing to preview
        return []
    blocked = {(int(v["hex"][0]), int(v["hex"][1])) for v in view.units.values()
               if v.get("side") not in (None, u.side) and v.get("hex") is not None}
    start = (u.hex, u.facing)
    index: dict[Any, int] = {}
    for i, ch in enumerate(choices):
        o = ch["choice"]
        if isinstance(o, Mapping) and o.get("unit") == uid:
            if o.get("act") == "enter" and "hex" in ch:
                index[(m.parse_label.get(str(ch["hex"]).upper()), u.facing)] = i
            elif o.get("act") == "turn" and isinstance(o.get("to"), int):
                index[(u.hex, int(o["to"]))] = i

    advanced = _AdvancedSteps.of(game, u, posture, enter, cross)
    if advanced is not None and not advanced.walking:
        return []  # under the ground, up high or in a position: his moves are other Actions

    def steps(state: Any) -> list[tuple[Any, float]]:
        h, f = state
        out: list[tuple[Any, float]] = [((h, g), float(turn)) for g in range(1, 7) if g != f]
        if h != u.hex and (m.fence.get(h) or m.hedge.get(h)):
            return out
        if advanced is not None and h != u.hex and advanced.ends_here(h):
            return out
        dest = h.neighbor(f)
        if dest in m.hexes and (dest.q, dest.r) not in blocked:
            if advanced is None:
                out.append(((dest, f), float(enter + (cross if m.contour_between(h, dest)
                                                      else 0))))
            elif (cost := advanced.cost(h, dest, first=(dest, f) in index)) is not None:
                out.append(((dest, f), float(cost)))
        return out

    return reach(start, float(mf_left(game, phase_of(game), uid)), steps, lambda s: s[0],
                 m.label, lambda s: index.get(s))


@dataclass(frozen=True)
class _AdvancedSteps:
    """The Advanced Game's part of a move's preview (docs/decisions.md FPD-186): the walls a
    step may not cross, the hexes a route stops in and what the MF chart's cost gains. It shows
    less rather than more: where another Action is needed first (a door to open, a wall to
    climb, water, a defensive unit, a bridge), the route ends before it."""

    game: Game
    unit: Unit
    posture: str
    enter: int
    cross: int
    map: AdvMap
    floor: int
    defences: Mapping[Hex, Any]
    spans: frozenset[Hex]
    walking: bool

    @classmethod
    def of(cls, game: Game, u: Unit, posture: str, enter: int,
           cross: int) -> _AdvancedSteps | None:
        """The preview's Advanced steps (None in the Basic Game); not ``walking`` when the
        soldier's moves are not walks (in a tunnel, Up, on a roof or structure, part way up a
        climb, in a defensive position or on a bridge's deck)."""
        if "firepower.advanced" not in game.rules_enabled:
            return None
        from hexwar.plugins.firepower.advanced_terrain import adv_map, floor_of
        from hexwar.plugins.firepower.bridges import spans
        from hexwar.plugins.firepower.defenses import defences, in_defence

        st = u.state
        walking = not (any(st.get(k) not in (None, False) for k in _NOT_WALKING)
                       or in_defence(u))
        return cls(game, u, posture, enter, cross, adv_map(game), floor_of(u),
                   defences(game), frozenset(spans(game)), walking)

    def ends_here(self, h: Hex) -> bool:
        """A route goes no further than a defensive unit's hex or a bridge hex (their own rules
        for leaving: Firepower 8.8, 8.9, 11.2.1)."""
        return h in self.defences or h in self.spans

    def cost(self, a: Hex, b: Hex, *, first: bool) -> int | None:
        """The MF of stepping from ``a`` into ``b`` (None: not a walk). ``first``: the form
        offers the step, so the rules already allow it."""
        from hexwar.plugins.firepower import height_hexsides, weather
        from hexwar.plugins.firepower.advanced_terrain import is_open, side_key
        from hexwar.plugins.firepower.climbing import CROSSABLE_HEXSIDE, CROSSABLE_WALL
        from hexwar.plugins.firepower.state import fp_map

        m, game = self.map, self.game
        if m.is_water(a) or m.is_water(b):
            return None  # Firepower 11.2.1.1: swimming and fording are Actions of their own
        if (b in self.defences or b in self.spans) and not first:
            return None
        if m.wall_between(a, b):
            o = m.opening(a, b, 1) if self.floor == 1 else None
            if o is None or not is_open(game, o):
                return None  # Firepower 11.1.3, 11.1.9: only through an open door or window
            cost = self.cross + self.enter
        elif m.walls.get(side_key(a, b), 0) > CROSSABLE_WALL:
            return None  # Firepower 11.1.3: climbed, not crossed
        else:
            cost = self.enter
            if fp_map(game).contour_between(a, b):  # a hill or depression hexside
                heights = height_hexsides._heights(game, a, b)
                mf = height_hexsides.crossing_mf(heights, self.posture)
                if heights > CROSSABLE_HEXSIDE or mf is None:
                    return None  # Firepower 11.2.4: climbed
                cost += max(mf, self.cross)  # Firepower 11.1.4: by the hexside's heights
        w = weather.weather(game)
        if w in weather.WEATHERS and not weather.under_roof(game, self.unit, b) \
                and not (w == "mud" and weather.paved(game, b)):
            cost += weather.extras()[w].get("enter", 0)  # Firepower 11.2.2
        there = self.defences.get(b)
        if there is not None:  # Firepower 11.2.1: an abatis doubles it
            cost *= there.type.move_multiplier
        return cost


#: a soldier's state keys under which he does not walk (tunnels, Up, roofs and structures,
#: climbs part way, bridge decks)
_NOT_WALKING = ("tunnel", "up", "roof", "on_top", "roof_climb", "rbl_climb", "climb", "deck")

