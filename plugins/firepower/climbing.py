"""Climbing walls and height hexsides (Firepower 11.1.11, Firepower 11.1.11.2, Firepower 11.1.3,
Firepower 11.2.4): the Advanced Action ``{"unit", "act": "scale", "to": "on"|"back"}`` over the
hexside in front of the soldier, one height an Action.

What is climbed on that hexside (:func:`climb_path`):

* a free-standing wall (or fence drawn as a wall) of W heights: up its W heights, then down its W
  heights on the far side, two MF a height (Firepower 11.1.11); one over two heights may only be
  climbed (Firepower 11.1.3, refused as a crossing by ``buildings.check_terrain``);
* a hill or depression hexside between grounds D heights apart: D heights up (or down), one MF a
  height (Firepower 11.1.11); one over ten heights may only be climbed (Firepower 11.2.4).

"on" climbs one height further, "back" one height back toward the start. The height reached is
the soldier's ``state.climb`` (hexside, steps made, steps in all, kind) and ``state.up`` his head
(feet + 2, Firepower 10.5.1), read by the line of sight and melee; the last "on" step completes the
climb by entering the far hex and pays its entry too (Firepower 11.1.11.2), the last "back" step
puts the feet on the ground again. A soldier starts climbing Standing; walls only with nothing
reducing his MF (Firepower 11.1.11). While climbing he neither turns, changes posture nor enters
(docs/decisions.md FPD-73).

A building's outer wall (docs/decisions.md FPD-176): ``scale`` facing it climbs up onto the
flat roof from outside (or, with ``what = "window"``, into an open upper-floor window), down from
the roof or from such a window, two MF a height (Firepower 11.1.11, 11.1.11.2). On the roof the
soldier has ``state.roof`` and the floor above the top story (:func:`on_roof`).

On top of a bunker or pillbox (Firepower 8.8.4; docs/decisions.md FPD-113): the Action
``climb`` (``{"unit", "act": "climb", "to": "up"|"down", "what"?: "bunker"}``) in its hex, one
height an Action at two MF a height (its outer walls, Firepower 11.1.11), starting Standing and
with nothing reducing the MF. Part way up he is Up (``state.up`` his head, ``state.roof_climb``);
with his feet at the structure's height he is on top (``state.on_top``, ``state.stands_at`` the
height, read by the line of sight and melee) in any posture, and he climbs down before he does
anything else that moves him.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from hexwar.core.errors import RulesError
from hexwar.plugins.firepower.actions import ActionType
from hexwar.plugins.firepower.advanced_terrain import adv_map, ground_of, side_key
from hexwar.plugins.firepower.state import alive, fp_map, rules_card

if TYPE_CHECKING:
    from hexwar.core.engine.game import Game
    from hexwar.core.engine.state import Unit

#: Firepower 11.1.11: MF per height
MF_PER_HEIGHT = {"wall": 2, "hexside": 1}
#: Firepower 11.2.4: a height hexside over this many heights must be climbed
CROSSABLE_HEXSIDE = 10
#: Firepower 11.1.3: a wall or fence over this many heights must be climbed
CROSSABLE_WALL = 2


def climb_path(game: Game, u: Unit, side: int) -> tuple[str, list[int]] | None:
    """(kind, the feet's heights above the start's ground after each step) of the climb over
    hexside ``side`` of the soldier's hex, or None if nothing there is climbed."""
    assert u.hex is not None
    m = adv_map(game)
    dest = u.hex.neighbor(side)
    wall = m.walls.get(side_key(u.hex, dest))
    if wall is not None:  # up the near face, down the far one (a wall stands on level ground)
        return "wall", [*range(1, wall + 1), *range(wall - 1, -1, -1)]
    if fp_map(game).contour_between(u.hex, dest) or _ditch_side(game, u.hex, dest):
        d = ground_of(game, dest) - ground_of(game, u.hex)
        if d == 0:
            return None
        step = 1 if d > 0 else -1
        return "hexside", list(range(step, d + step, step))
    return None


def _ditch_side(game: Game, a: Any, b: Any) -> bool:
    """Firepower 8.8.5.3: the side of a ditch hex (a ditch on one side only) is a depression
    hexside, climbed."""
    from hexwar.plugins.firepower.defenses import ditch_depth

    dd = ditch_depth(game)
    return bool(dd) and (a in dd) != (b in dd)


def must_climb(game: Game, u: Unit, side: int) -> str | None:
    """Why crossing hexside ``side`` is refused and it must be climbed (None if it may be
    crossed): Firepower 11.1.3 walls over two heights, Firepower 11.2.4 hexsides over ten."""
    path = climb_path(game, u, side)
    if path is None:
        return None
    kind, steps = path
    if kind == "wall" and max(steps) > CROSSABLE_WALL:
        return "Firepower 11.1.3"
    if kind == "hexside" and abs(steps[-1]) > CROSSABLE_HEXSIDE:
        return "Firepower 11.2.4"
    return None


def climbing(u: Unit) -> dict[str, Any] | None:
    c = u.state.get("climb")
    return dict(c) if isinstance(c, dict) else None


def _check_scale(game: Game, ph: dict[str, Any], choice: dict[str, Any]) -> dict[str, Any]:
    from hexwar.plugins.firepower.weapon_chart import weapon

    u = game.state.units[choice["unit"]]
    assert u.hex is not None
    to = choice.get("to")
    if to not in ("on", "back"):
        raise RulesError("climb 'on' (one height further) or 'back'", rule="Firepower 11.1.11")
    cur = climbing(u)
    side = int(cur["side"]) if cur else u.facing
    outer = outer_wall_climb(game, u, side, cur, choice)
    if outer is not None:  # Firepower 11.1.11: a building's outer wall (FPD-176)
        return _check_outer(game, ph, u, side, cur, outer, str(to), choice.get("floor"))
    path = climb_path(game, u, side)
    if path is None:
        raise RulesError(f"there is no wall or height hexside on hexside {side} of "
                         f"{game.board.label(u.hex)} to climb", rule="Firepower 11.1.11")
    kind, steps = path
    k = int(cur["step"]) if cur else 0
    if cur is None:
        if to == "back":
            raise RulesError(f"{u.id} is not climbing", rule="Firepower 11.1.11")
        _check_may_start(u)
        model = u.state.get("model")
        if kind == "wall" and isinstance(model, str) and weapon(model).move < 0:
            raise RulesError(f"{u.id}'s {model} reduces his MF: he may not climb a wall",
                             rule="Firepower 11.1.11")
    k2 = k + (1 if to == "on" else -1)
    cost = MF_PER_HEIGHT[kind]
    dest = u.hex.neighbor(side)
    done = k2 == len(steps)
    if done:
        if dest not in adv_map(game).hexes:
            raise RulesError("no soldier may exit the mapboard", rule="Firepower 4.9")
        if any(o.hex == dest and o.side != u.side and alive(o)
               for o in game.state.units.values()):
            raise RulesError("a hex holding opposing soldiers may be entered only by melee",
                             rule="Firepower 6.2.1")
        cost += rules_card(game).mf_cost("enter", "stand")  # Firepower 11.1.11.2
    feet = 0 if k2 in (0, len(steps)) else steps[k2 - 1]
    return {"cost": cost, "side": side, "step": k2, "total": len(steps), "kind": kind,
            "feet": feet, "to": dest if done else None}


def _apply_scale(game: Game, ph: dict[str, Any], info: dict[str, Any]) -> None:
    from hexwar.plugins.firepower.buildings import _enter

    u = game.state.units[info["unit"]]
    if info.get("outer"):
        _apply_outer(game, ph, u, info)
        return
    if info["step"] in (0, info["total"]):
        u.state.pop("climb", None)
        u.state.pop("up", None)
        if info["to"] is not None:
            _enter(game, ph, u, info["to"])  # Firepower 11.1.11.2: the climb completed
        return
    u.state["climb"] = {"side": info["side"], "step": info["step"], "total": info["total"],
                        "kind": info["kind"]}
    u.state["up"] = int(info["feet"]) + 2  # Firepower 10.5.1: the head, feet + 2
    u.state["posture"] = "stand"  # Up soldiers use the Stand column (Firepower 11.1.11)


def _scale_options(game: Game, ph: dict[str, Any], uid: str) -> list[dict[str, Any]]:
    u = game.state.units[uid]
    if u.hex is None:
        return []
    cur = climbing(u)
    if cur is not None:
        return [{"unit": uid, "act": "scale", "to": "on"}, {"unit": uid, "act": "scale",
                                                            "to": "back"}]
    outer = outer_wall_climb(game, u, u.facing, None)
    if outer is not None:  # named, so that a player (and the AI) tells it from a wall's
        try:
            _check_outer(game, ph, u, u.facing, None, outer, "on")
        except RulesError:
            return []  # only the legal climbs are offered (no window there, a closed one, ...)
        return [{"unit": uid, "act": "scale", "to": "on", "what": outer[0]}]
    if climb_path(game, u, u.facing) is None:
        return []
    return [{"unit": uid, "act": "scale", "to": "on"}]


SCALE = ActionType("scale", _check_scale, _apply_scale, _scale_options, rule="Firepower 11.1.11")


def check_while_climbing(game: Game, info: dict[str, Any]) -> None:
    """A soldier part way over a wall or hexside climbs on or back before anything else that
    moves him (docs/decisions.md FPD-73); raises RulesError."""
    act = info.get("act")
    if act not in ("enter", "back", "turn", "posture", "cross", "through", "ford", "swim",
                   "stairs", "climb", "tunnel"):
        return
    u = game.state.units[info["unit"]]
    if climbing(u) is not None:
        raise RulesError(f"{u.id} is part way over a hexside: he climbs on or back first",
                         rule="Firepower 11.1.11.2")


# -- Firepower 8.8.4: on top of a bunker or pillbox (FPD-113) ---------------------------------


def roof_to_climb(game: Game, u: Unit, what: Any) -> Any:
    """The bunker or pillbox whose top ``u`` climbs toward with ``climb`` (None if the climb is
    a tree's): the one in his hex, unless he is up a tree or names ``what = "tree"``."""
    from hexwar.plugins.firepower.defenses import defences

    d = defences(game).get(u.hex) if u.hex is not None else None
    if d is None or d.type.kind != "structure":
        return None
    if u.state.get("roof_climb") or u.state.get("on_top"):
        return d
    if what == "tree" or (u.state.get("up") is not None):
        return None
    if what not in (None, "bunker", "pillbox", d.type.code):
        raise RulesError(f"climb 'what' is the tree or the {d.type.name}, not {what!r}",
                         rule="Firepower 11.1.11")
    return d


def check_roof_climb(game: Game, u: Unit, d: Any, to: str) -> dict[str, Any]:
    """Firepower 8.8.4, 11.1.11, 11.1.11.2: one height up or down the outside of ``d``."""
    from hexwar.plugins.firepower.defenses import in_defence
    from hexwar.plugins.firepower.weapon_chart import weapon

    top = int(d.type.height)
    if u.state.get("on_top"):
        feet = top
    elif u.state.get("roof_climb"):
        feet = int(u.state.get("up", 2)) - 2
    else:
        feet = 0
    if feet == 0:
        if to == "down":
            raise RulesError(f"{u.id} is on the ground", rule="Firepower 11.1.11")
        if in_defence(u) or u.state.get("tunnel"):
            raise RulesError(f"{u.id} is inside: he climbs the {d.type.name} from outside it, "
                             "in its hex", rule="Firepower 8.8.4")
        model = u.state.get("model")
        if isinstance(model, str) and weapon(model).move < 0:
            raise RulesError(f"{u.id}'s {model} reduces his MF: he may not climb a wall",
                             rule="Firepower 11.1.11")
    if feet == top and to == "up":
        raise RulesError(f"{u.id} is on top of the {d.type.name} already",
                         rule="Firepower 11.1.11.2")
    if feet in (0, top) and str(u.state.get("posture", "stand")) != "stand":
        raise RulesError(f"{u.id} must be Standing to start climbing", rule="Firepower 11.1.11")
    new = feet + (1 if to == "up" else -1)
    return {"cost": MF_PER_HEIGHT["wall"], "roof": d.type.code, "feet": new, "top": top}


def apply_roof_climb(u: Unit, info: dict[str, Any]) -> None:
    feet, top = int(info["feet"]), int(info["top"])
    for k in ("up", "roof_climb", "on_top", "stands_at"):
        u.state.pop(k, None)
    if feet == top:  # Firepower 11.1.11.2: the climb is complete, he is on top
        u.state["on_top"] = info["roof"]
        u.state["stands_at"] = top
    elif feet > 0:
        u.state["roof_climb"] = info["roof"]
        u.state["up"] = feet + 2  # Firepower 10.5.1: the head, feet + 2
        u.state["posture"] = "stand"  # Up soldiers use the Stand column (Firepower 11.1.11)


def roof_options(game: Game, u: Unit) -> list[dict[str, Any]]:
    if roadblock_to_climb(game, u, None) is not None:
        return [{"unit": u.id, "act": "climb", "what": "roadblock", "to": t}
                for t in ("on", "back")]
    try:
        d = roof_to_climb(game, u, None)
    except RulesError:
        return []
    if d is None:
        return []
    return [{"unit": u.id, "act": "climb", "to": t} for t in ("up", "down")]


# -- Firepower 8.8.5.4, 11.1.3, 11.1.11: over a roadblock (FPD-115) ------------------------------


def roadblock_to_climb(game: Game, u: Unit, what: Any) -> Any:
    """The roadblock of ``u``'s hex when ``climb`` is over it: he is part way over, or he names
    ``what = "roadblock"`` (or names nothing in a hex with no tree)."""
    from hexwar.plugins.firepower.defenses import defences

    d = defences(game).get(u.hex) if u.hex is not None else None
    if d is None or d.picture() is None:
        return None
    if u.state.get("rbl_climb") or what == "roadblock":
        return d
    if what is None and u.hex not in adv_map(game).trees and u.state.get("up") is None:
        return d
    return None


def check_roadblock_climb(game: Game, u: Unit, d: Any, to: Any) -> dict[str, Any]:
    """Firepower 11.1.11, 11.1.11.2, 8.8.5.4: one height up the near face of the roadblock or,
    past its top, down the far one ("on"), or one height back ("back"), two MF a height; the
    last step down the far face puts him on the other part of the hex."""
    from hexwar.plugins.firepower.defenses import roadblock_part
    from hexwar.plugins.firepower.weapon_chart import weapon

    if to not in ("on", "back"):
        raise RulesError("over a roadblock, climb 'on' (one height further) or 'back'",
                         rule="Firepower 11.1.11")
    pic = d.picture()
    top = int(d.type.height)
    cur = u.state.get("rbl_climb")
    k = int(cur["step"]) if isinstance(cur, dict) else 0
    if k == 0:
        if to == "back":
            raise RulesError(f"{u.id} is not climbing the roadblock", rule="Firepower 11.1.11")
        _check_may_start(u)
        model = u.state.get("model")
        if isinstance(model, str) and weapon(model).move < 0:
            raise RulesError(f"{u.id}'s {model} reduces his MF: he may not climb a fence or "
                             "roadblock", rule="Firepower 11.1.11")
    start = int(cur["from"]) if isinstance(cur, dict) else roadblock_part(u, pic)
    k2 = k + (1 if to == "on" else -1)
    total = 2 * top  # up the near face, down the far one
    feet = k2 if k2 <= top else total - k2
    return {"cost": MF_PER_HEIGHT["wall"], "roadblock": True, "step": k2, "total": total,
            "feet": feet, "from": start, "other": pic.other_side(start)}


def apply_roadblock_climb(u: Unit, info: dict[str, Any]) -> None:
    k, total = int(info["step"]), int(info["total"])
    u.state.pop("rbl_climb", None)
    u.state.pop("up", None)
    if k == total:  # Firepower 11.1.11.2: down on the far side, on the other part of the hex
        u.state["side"] = int(info["other"])
        return
    if k == 0:
        return
    u.state["rbl_climb"] = {"step": k, "from": int(info["from"])}
    # past the top he is on the far face, on the other part of the hex (FPD-129)
    u.state["side"] = int(info["other"]) if k > total // 2 else int(info["from"])
    u.state["up"] = int(info["feet"]) + 2  # Firepower 10.5.1: the head, feet + 2
    u.state["posture"] = "stand"  # Up soldiers use the Stand column (Firepower 11.1.11)


def _check_may_start(u: Unit) -> None:
    """Firepower 11.1.11, 11.1.11.2: a climb starts from the ground, Standing."""
    if u.state.get("up") is not None:
        raise RulesError(f"{u.id} is Up already (a tree or another climb)",
                         rule="Firepower 11.1.11.2")
    if str(u.state.get("posture", "stand")) != "stand":
        raise RulesError(f"{u.id} must be Standing to start climbing", rule="Firepower 11.1.11")


# -- Firepower 11.1.11, 11.1.11.2: a building's outer wall (docs/decisions.md FPD-176) ----------

#: the climbs of a building's outer wall: up onto its roof from outside, down from its roof,
#: down from an open window of an upper floor
OUTER_KINDS = ("roof", "roof-down", "window", "window-up")
#: the outer-wall climbs that go down (the rest go up, Firepower 11.1.11)
DOWN_KINDS = ("roof-down", "window")


def on_roof(u: Unit) -> bool:
    """Firepower 11.1.11.2: the soldier is on his building hex's roof (``state.roof``, the
    building's id; his ``floor`` is the building's floors + 1, FPD-176), not inside it."""
    return u.state.get("roof") is not None


def outer_wall_climb(game: Game, u: Unit, side: int, cur: dict[str, Any] | None,
                     choice: dict[str, Any] | None = None) -> tuple[str, int] | None:
    """(kind, heights) of a climb of a building's outer wall over hexside ``side`` of the
    soldier's hex (None: that hexside is no building's outer wall, or the climb under way is
    another's); from outside, to the roof unless ``choice`` names ``what = "window"``. The
    heights are counted from the outside hex's ground: to the flat roof on top of every story
    (Firepower 8.2.3), or from the sill of a window one height above its floor."""
    from hexwar.plugins.firepower.advanced_terrain import WINDOW_SPAN, floor_height, floor_of

    if cur is not None:
        kind = str(cur.get("kind"))
        return (kind, int(cur["total"])) if kind in OUTER_KINDS else None
    assert u.hex is not None
    m = adv_map(game)
    here, dest = u.hex, u.hex.neighbor(side)
    if dest not in m.hexes or not m.wall_between(here, dest):
        return None
    if m.building(here) is not None:
        f = floor_of(u)
        top = floor_height(game, here, f) - ground_of(game, dest)
        if on_roof(u):
            return ("roof-down", max(top, 1))
        return ("window", max(top + WINDOW_SPAN[0], 1))
    bd = m.building(dest)
    assert bd is not None
    if choice is not None and choice.get("what") == "window":  # up to a window (FPD-176)
        f = _floor_asked(choice.get("floor"))
        sill = floor_height(game, dest, f) + WINDOW_SPAN[0] - ground_of(game, here)
        return ("window-up", max(sill, 1))
    return ("roof", max(ground_of(game, dest) + bd.height - ground_of(game, here), 1))


def _floor_asked(f: Any) -> int:
    """The floor of the window a climber from outside names (``floor``, 2 when none)."""
    return f if isinstance(f, int) and not isinstance(f, bool) else 2


def _check_outer(game: Game, ph: dict[str, Any], u: Unit, side: int,
                 cur: dict[str, Any] | None, outer: tuple[str, int], to: str,
                 floor_asked: Any = None) -> dict[str, Any]:
    """Firepower 11.1.11, 11.1.11.2: one height of a building's outer wall, two MF a height
    (walls). Up onto the roof: he stays in his hex and enters the building's hex on its roof
    with the last height (its entry paid too). Down from the roof or a window: the first height
    takes him out over the wall into the hex beyond (its entry paid, a window's crossing too,
    Firepower 11.1.3); the last puts his feet on its ground."""
    from hexwar.plugins.firepower.advanced_terrain import floor_of, opening_state
    from hexwar.plugins.firepower.buildings import WINDOW_CROSSINGS
    from hexwar.plugins.firepower.weapon_chart import weapon

    assert u.hex is not None
    kind, total = outer
    m = adv_map(game)
    k = int(cur["step"]) if cur else 0
    dest = u.hex.neighbor(side)
    card = rules_card(game)
    cost = MF_PER_HEIGHT["wall"]
    window: str | None = None
    floor = int(cur.get("floor", 1)) if cur else floor_of(u)
    if kind == "window-up":
        floor = int(cur.get("floor", 2)) if cur else _floor_asked(floor_asked)
    if cur is None:
        if to == "back":
            raise RulesError(f"{u.id} is not climbing", rule="Firepower 11.1.11")
        if kind == "window-up":
            bd = m.building(dest)
            assert bd is not None
            if not 2 <= floor <= bd.floors:
                raise RulesError(f"building {bd.id} has no floor {floor} with a window to climb "
                                 f"to (floors 2-{bd.floors}; floor 1 is gone into by 'through')",
                                 rule="Firepower 8.2.1")
        if kind in ("window", "window-up"):
            lab = game.board.label(u.hex)
            if floor == 1:
                raise RulesError(f"{u.id} is on the ground floor: he goes out by an open door "
                                 "or window ('through'), not down the wall",
                                 rule="Firepower 11.1.3")
            o = m.opening(u.hex, dest, floor)
            if o is None or o.kind != "window":
                raise RulesError(f"no window on hexside {side} of {lab} at floor {floor}: a "
                                 "soldier climbs down a building's outer wall from a window",
                                 rule="Firepower 11.1.11")
            if opening_state(game, o) == "closed":
                raise RulesError(f"the window on hexside {side} of {lab} is closed: closed "
                                 "windows may not be crossed", rule="Firepower 11.1.9")
            if int((ph.get("windows") or {}).get(o.key, 0)) >= WINDOW_CROSSINGS:
                raise RulesError("no more than four soldiers cross one window in an Impulse "
                                 "Phase", rule="Firepower 11.1.3")
            window = o.key
        _check_may_start(u)
        model = u.state.get("model")
        if kind in ("roof", "window-up") and isinstance(model, str) and weapon(model).move < 0:
            raise RulesError(f"{u.id}'s {model} reduces his MF: he may not climb a wall",
                             rule="Firepower 11.1.11")
        if kind == "roof":
            from hexwar.plugins.firepower.confined_fire import _roofless

            if game.board.label(dest) in _roofless(game):
                raise RulesError(f"the roof of {game.board.label(dest)} was destroyed: there is "
                                 "no roof to climb onto", rule="Firepower 12.3.4.2.7")
    k2 = k + (1 if to == "on" else -1)
    down = kind in DOWN_KINDS
    feet = k2 if not down else total - k2
    leaving = down and k == 0  # over the wall into the hex beyond
    arriving = not down and k2 == total  # onto the roof
    if leaving or arriving:
        level = floor_of(u) if arriving else 1
        if arriving:
            bd = m.building(dest)
            assert bd is not None
            level = bd.floors + 1 if kind == "roof" else floor
        if any(o.hex == dest and o.side != u.side and alive(o)
               and (not arriving or floor_of(o) == level) for o in game.state.units.values()):
            raise RulesError("a hex holding opposing soldiers may be entered only by melee",
                             rule="Firepower 6.2.1")
        cost += card.mf_cost("enter", "stand")  # Firepower 11.1.11.2: the hex entered
        if kind in ("window", "window-up"):
            o = m.opening(u.hex, dest, floor)
            assert o is not None
            window = o.key
            if arriving and int((ph.get("windows") or {}).get(o.key, 0)) >= WINDOW_CROSSINGS:
                raise RulesError("no more than four soldiers cross one window in an Impulse "
                                 "Phase", rule="Firepower 11.1.3")
            cost += card.mf_cost("cross", "stand")  # Firepower 11.1.3: out through the window
    return {"cost": cost, "outer": kind, "side": side, "step": k2, "total": total,
            "feet": feet, "dest": dest, "floor": floor, "window": window, "leaving": leaving}


def _apply_outer(game: Game, ph: dict[str, Any], u: Unit, info: dict[str, Any]) -> None:
    from hexwar.plugins.firepower.advanced_terrain import direction
    from hexwar.plugins.firepower.buildings import _enter

    kind, k, total = str(info["outer"]), int(info["step"]), int(info["total"])
    dest, floor = info["dest"], int(info["floor"])
    for key in ("climb", "up"):
        u.state.pop(key, None)
    if kind == "window-up" and k == total:  # in by the window, on its floor
        u.hex = dest
        u.state["side"] = None
        u.state["floor"] = floor
        ph["entered"][u.id] = int(ph["entered"].get(u.id, 0)) + 1
        w = ph.setdefault("windows", {})
        w[info["window"]] = int(w.get(info["window"], 0)) + 1
        return
    if kind in ("roof", "window-up"):
        if k == total:  # Firepower 11.1.11.2: on the roof (Up there, in any posture)
            bd = adv_map(game).building(dest)
            assert bd is not None
            u.hex = dest  # the hex entered, above its mines and trip wires
            u.state["side"] = None
            ph["entered"][u.id] = int(ph["entered"].get(u.id, 0)) + 1
            if ph["entered"][u.id] >= 4:  # Firepower 4.5
                u.state["speed"] = "running"
            u.state["roof"] = bd.id
            u.state["floor"] = bd.floors + 1
            return
        side = int(info["side"])
    else:
        side = int(info["side"])
        if k == 0:  # back in by the window or onto the roof he climbed down from
            assert u.hex is not None
            u.hex = dest
            u.state["floor"] = floor
            bd = adv_map(game).building(dest)
            if bd is not None and floor > bd.floors:
                u.state["roof"] = bd.id
            return
        if info["leaving"]:  # the first height: out over the wall into the hex beyond
            assert u.hex is not None
            home = u.hex
            for key in ("roof", "floor"):
                u.state.pop(key, None)
            if info["window"] is not None:
                w = ph.setdefault("windows", {})
                w[info["window"]] = int(w.get(info["window"], 0)) + 1
            _enter(game, ph, u, dest)
            side = direction(dest, home)
        if k == total:
            return  # Firepower 11.1.11.2: his feet on the ground, the climb completed
    if k == 0:
        return
    u.state["climb"] = {"side": side, "step": k, "total": total, "kind": kind, "floor": floor}
    u.state["up"] = int(info["feet"]) + 2  # Firepower 10.5.1: the head, feet + 2
    u.state["posture"] = "stand"  # Up soldiers use the Stand column (Firepower 11.1.11)

