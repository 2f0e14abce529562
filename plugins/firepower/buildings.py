"""The Advanced Game's Actions of buildings, trees and water (Firepower 11.1.3, Firepower 11.1.8,
Firepower 11.1.9, Firepower 11.1.10, Firepower 11.1.11, Firepower 11.2.1.1, Firepower 11.2.3)
and the terrain's limits on the Basic Actions in the Advanced Game (:func:`check_terrain`).

Action choices (each an :class:`~hexwar.plugins.firepower.actions.ActionType` the system charges):

* ``{"unit", "act": "stairs", "to": n}``: up or down one flight (Firepower 11.1.8);
* ``{"unit", "act": "door", "side": d, "to": "open"|"close"}``: open or close the door or window
  on hexside ``d`` of his hex, from inside (Firepower 11.1.9);
* ``{"unit", "act": "break", "side": d}``: try to break open a closed door or window from
  outside (Firepower 11.1.10; the BREAKING ATTEMPTS TABLE's numbers are the text's);
* ``{"unit", "act": "through"}``: cross the open door or window in front into the next hex
  (Firepower 11.1.3: the crossing and the entering both paid; four soldiers a window a phase);
* ``{"unit", "act": "climb", "to": "up"|"down"}``: one height up or down a tree (Firepower
  11.1.11, Firepower 11.1.11.1);
* ``{"unit", "act": "ford"}`` and ``{"unit", "act": "swim"}``: into the water hex in front, or
  out of one (Firepower 11.2.1, Firepower 11.2.1.1, Firepower 11.2.3).

Crawling is entering a hex while Prone: the Basic Action at the Prone column (docs/decisions.md
FPD-62). The LEG MOVEMENT FACTOR EXPENDITURE CHART is not in the text: the Actions it lists beyond
the Basic chart cost the stand-in MF of :data:`MF` (docs/decisions.md FPD-62); the climbing costs
are the text's (Firepower 11.1.11: one MF a height, two for walls and fences).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from hexwar.core.errors import RulesError
from hexwar.core.hexgrid import Hex
from hexwar.plugins.firepower.actions import ActionType
from hexwar.plugins.firepower.advanced_actions import note_a_multiplier
from hexwar.plugins.firepower.advanced_terrain import (
    FORD_INCHES,
    SWIM_INCHES,
    adv_map,
    direction,
    floor_of,
    head_above_floor,
    in_tunnel,
    is_open,
    opening_state,
)
from hexwar.plugins.firepower.state import alive, data, fp_map, rules_card, soldiers

if TYPE_CHECKING:
    from hexwar.core.engine.game import Game
    from hexwar.core.engine.state import Unit

#: stand-in MF of the LEG chart's Actions the Basic chart does not have (estimated, FPD-62)
MF = {"stairs": 2, "door": 1, "break": 1}
#: Firepower 11.1.10: the highest roll that breaks open each kind of opening
BREAK_ON = {"bunker door": 1, "door": 3, "window": 4, "hatch": 4}
#: Firepower 11.1.3: soldiers who may cross one window in one Impulse Phase
WINDOW_CROSSINGS = 4
#: Firepower 11.1.11: MF per height climbed (walls, fences and roadblocks two)
CLIMB_MF = {"tree": 1, "height": 1, "wall": 2, "fence": 2}


def _unit(game: Game, choice: dict[str, Any]) -> Unit:
    u = game.state.units[choice["unit"]]
    assert u.hex is not None
    return u


def _posture(u: Unit) -> str:
    return str(u.state.get("posture", "stand"))


def _side(choice: dict[str, Any]) -> int:
    d = choice.get("side")
    if not isinstance(d, int) or isinstance(d, bool) or not 1 <= d <= 6:
        raise RulesError("name the hexside 1-6 of the door or window", rule="Firepower 11.1.9")
    return d


def can_break(roll: int, kind: str) -> bool:
    """Firepower 11.1.10 (BREAKING ATTEMPTS TABLE): a bunker or pillbox door breaks on 1, a
    building door on 3 or less, a window or hatch on 4 or less."""
    return roll <= BREAK_ON[kind]


def max_tree_head(tree_height: int) -> int:
    """Firepower 11.1.11.1: a soldier's head climbs no higher than two below the tree's top."""
    return tree_height - 2


def climb_cost(what: str, heights: int) -> int:
    """Firepower 11.1.11: MF per height climbed, twice for walls, fences and roadblocks."""
    return CLIMB_MF[what] * heights


# -- Firepower 11.1.8 stairs ------------------------------------------------------------------


def _check_stairs(game: Game, ph: dict[str, Any], choice: dict[str, Any]) -> dict[str, Any]:
    u = _unit(game, choice)
    assert u.hex is not None
    m = adv_map(game)
    b = m.building(u.hex)
    to = choice.get("to")
    if b is None:
        raise RulesError(f"{u.id} is in no building: stairs join the floors of one",
                         rule="Firepower 11.1.8")
    if u.hex not in b.stairs:
        raise RulesError(f"building {b.id} has no stairs in {game.board.label(u.hex)}",
                         rule="Firepower 11.1.8")
    if not isinstance(to, int) or isinstance(to, bool):
        raise RulesError("name the floor the stairs lead to", rule="Firepower 11.1.8")
    if u.state.get("roof") is not None:  # FPD-176: no stairs lead onto or off the roof
        raise RulesError(f"{u.id} is on the roof of building {b.id}: he leaves it down an outer "
                         "wall ('scale')", rule="Firepower 11.1.11.2")
    here = floor_of(u)
    if abs(to - here) != 1:
        raise RulesError(f"{u.id} is on floor {here}: one flight leads to floor {here - 1} or "
                         f"{here + 1}, not {to}", rule="Firepower 11.1.8")
    if not 1 <= to <= b.floors:
        raise RulesError(f"the stairs of building {b.id} do not reach floor {to} (it has "
                         f"{b.floors}; no plan {b.plan(to)})", rule="Firepower 8.2.1")
    if u.state.get("up") is not None:
        raise RulesError(f"{u.id} is climbing (Up)", rule="Firepower 11.1.11.2")
    return {"cost": MF["stairs"], "to": to}


def _apply_stairs(game: Game, ph: dict[str, Any], info: dict[str, Any]) -> None:
    u = game.state.units[info["unit"]]
    if info["to"] == 1:
        u.state.pop("floor", None)
    else:
        u.state["floor"] = info["to"]


def _stairs_options(game: Game, ph: dict[str, Any], uid: str) -> list[dict[str, Any]]:
    u = game.state.units[uid]
    if u.hex is None:
        return []
    b = adv_map(game).building(u.hex)
    if b is None or u.hex not in b.stairs:
        return []
    f = floor_of(u)
    return [{"unit": uid, "act": "stairs", "to": t} for t in (f - 1, f + 1) if 1 <= t <= b.floors]


STAIRS = ActionType("stairs", _check_stairs, _apply_stairs, _stairs_options,
                    rule="Firepower 11.1.8")


# -- Firepower 11.1.9 doors and windows ---------------------------------------------------------


def _check_door(game: Game, ph: dict[str, Any], choice: dict[str, Any]) -> dict[str, Any]:
    u = _unit(game, choice)
    assert u.hex is not None
    d = _side(choice)
    m = adv_map(game)
    n = u.hex.neighbor(d)
    o = m.opening(u.hex, n, floor_of(u))
    to = choice.get("to")
    if to not in ("open", "close"):
        raise RulesError("open or close a door or window", rule="Firepower 11.1.9")
    if o is None:
        raise RulesError(f"no door or window on hexside {d} of {game.board.label(u.hex)} at "
                         f"floor {floor_of(u)}", rule="Firepower 11.1.9")
    if o.inside != u.hex:
        raise RulesError(f"{u.id} is outside: the {o.kind} is opened or closed from inside "
                         "only; from outside it must be broken open (Firepower 11.1.10)",
                         rule="Firepower 11.1.9")
    state = opening_state(game, o)
    if state == "broken":
        raise RulesError(f"the {o.kind} was broken open and may not be closed again",
                         rule="Firepower 11.1.10")
    if (state == "open") == (to == "open"):
        raise RulesError(f"the {o.kind} is already {state}", rule="Firepower 11.1.9")
    return {"cost": MF["door"], "key": o.key, "state": "open" if to == "open" else "closed"}


def _apply_door(game: Game, ph: dict[str, Any], info: dict[str, Any]) -> None:
    ops = data(game).setdefault("openings", {})
    if info["state"] == "open":
        ops.pop(info["key"], None)
    else:
        ops[info["key"]] = info["state"]
    game.emit("opening", key=info["key"], state=info["state"], rule="Firepower 11.1.9")


def _door_options(game: Game, ph: dict[str, Any], uid: str) -> list[dict[str, Any]]:
    u = game.state.units[uid]
    if u.hex is None:
        return []
    out = []
    for o in adv_map(game).openings_of(u.hex):
        if o.inside == u.hex and o.floor == floor_of(u) and opening_state(game, o) != "broken":
            to = "close" if is_open(game, o) else "open"
            out.append({"unit": uid, "act": "door", "side": direction(o.inside, o.outside),
                        "to": to})
    return out


DOOR = ActionType("door", _check_door, _apply_door, _door_options, rule="Firepower 11.1.9")


# -- Firepower 11.1.10 breaking open ------------------------------------------------------------


def _check_break(game: Game, ph: dict[str, Any], choice: dict[str, Any]) -> dict[str, Any]:
    u = _unit(game, choice)
    assert u.hex is not None
    d = _side(choice)
    m = adv_map(game)
    n = u.hex.neighbor(d)
    o = m.opening(u.hex, n, 1)
    if o is None or o.outside != u.hex:
        raise RulesError(f"no door or window of a building on hexside {d} of "
                         f"{game.board.label(u.hex)} for {u.id} outside", rule="Firepower 11.1.10")
    if is_open(game, o):
        raise RulesError(f"the {o.kind} is open", rule="Firepower 11.1.10")
    if u.facing != d:
        raise RulesError(f"{u.id} must face the {o.kind} (hexside {d})", rule="Firepower 11.1.10")
    if floor_of(u) != 1 or head_above_floor(u) < o.span[0] + (1 if o.kind == "window" else 0):
        raise RulesError(f"{u.id} cannot reach the {o.kind}", rule="Firepower 11.1.10")
    return {"cost": MF["break"], "key": o.key, "kind": o.kind}


def _apply_break(game: Game, ph: dict[str, Any], info: dict[str, Any]) -> None:
    roll = game.dice.d10(f"Firepower 11.1.10 break open a {info['kind']}")
    ok = can_break(roll, info["kind"])
    if ok:
        data(game).setdefault("openings", {})[info["key"]] = "broken"
    game.emit("break_open", unit=info["unit"], key=info["key"], roll=roll, broken=ok,
              rule="Firepower 11.1.10")


def _break_options(game: Game, ph: dict[str, Any], uid: str) -> list[dict[str, Any]]:
    u = game.state.units[uid]
    if u.hex is None:
        return []
    n = u.hex.neighbor(u.facing)
    o = adv_map(game).opening(u.hex, n, 1)
    if o is None or o.outside != u.hex or is_open(game, o):
        return []
    return [{"unit": uid, "act": "break", "side": u.facing}]


BREAK = ActionType("break", _check_break, _apply_break, _break_options, rule="Firepower 11.1.10")


# -- Firepower 11.1.3 through an open door or window -------------------------------------------


def _enemy_in(game: Game, u: Unit, dest: Any) -> bool:
    return any(s.hex == dest and s.side != u.side for s in soldiers(game).values())


def _check_through(game: Game, ph: dict[str, Any], choice: dict[str, Any]) -> dict[str, Any]:
    u = _unit(game, choice)
    assert u.hex is not None
    m = adv_map(game)
    dest = u.hex.neighbor(u.facing)
    if dest not in m.hexes:
        raise RulesError("no soldier may exit the mapboard", rule="Firepower 4.9")
    f = floor_of(u)
    if u.state.get("roof") is not None:
        raise RulesError(f"{u.id} is on the roof: he leaves it down an outer wall ('scale')",
                         rule="Firepower 11.1.11.2")
    o = m.opening(u.hex, dest, f)
    if o is None:
        raise RulesError(f"no door or window in front of {u.id} (hexside {u.facing} of "
                         f"{game.board.label(u.hex)}, floor {f})", rule="Firepower 11.1.3")
    if not is_open(game, o):
        raise RulesError(f"the {o.kind} in front of {u.id} is closed: closed doors and windows "
                         "may not be crossed", rule="Firepower 11.1.9")
    if f > 1:
        raise RulesError(f"the {o.kind} is on floor {f}: no floor lies beyond it (climbing "
                         "down a wall is Firepower 11.1.11)", rule="Firepower 11.1.3")
    if u.state.get("up") is not None:
        raise RulesError(f"{u.id} is climbing (Up)", rule="Firepower 11.1.11.2")
    if o.kind == "window" and int((ph.get("windows") or {}).get(o.key, 0)) >= WINDOW_CROSSINGS:
        raise RulesError("no more than four soldiers cross one window in an Impulse Phase",
                         rule="Firepower 11.1.3")
    if _enemy_in(game, u, dest):
        raise RulesError("a hex holding opposing soldiers may be entered only by melee",
                         rule="Firepower 6.2.1")
    c = rules_card(game)
    p = _posture(u)
    cost = c.mf_cost("cross", p) + c.mf_cost("enter", p)
    return {"cost": cost, "to": dest, "key": o.key, "kind": o.kind}


def _enter(game: Game, ph: dict[str, Any], u: Unit, dest: Any) -> None:
    u.hex = dest
    u.state["side"] = None
    ph["entered"][u.id] = int(ph["entered"].get(u.id, 0)) + 1
    if ph["entered"][u.id] >= 4:  # Firepower 4.5
        u.state["speed"] = "running"
    from hexwar.plugins.firepower.hidden_setup import after_entering

    after_entering(game, u)


def _apply_through(game: Game, ph: dict[str, Any], info: dict[str, Any]) -> None:
    u = game.state.units[info["unit"]]
    if info["kind"] == "window":
        w = ph.setdefault("windows", {})
        w[info["key"]] = int(w.get(info["key"], 0)) + 1
    _enter(game, ph, u, info["to"])


def _through_options(game: Game, ph: dict[str, Any], uid: str) -> list[dict[str, Any]]:
    u = game.state.units[uid]
    if u.hex is None:
        return []
    if adv_map(game).opening(u.hex, u.hex.neighbor(u.facing), floor_of(u)) is None:
        return []
    return [{"unit": uid, "act": "through"}]


THROUGH = ActionType("through", _check_through, _apply_through, _through_options,
                     rule="Firepower 11.1.3")


# -- Firepower 11.1.11 climbing trees ------------------------------------------------------------


def _check_climb(game: Game, ph: dict[str, Any], choice: dict[str, Any]) -> dict[str, Any]:
    from hexwar.plugins.firepower.weapon_chart import weapon

    u = _unit(game, choice)
    assert u.hex is not None
    m = adv_map(game)
    to = choice.get("to")
    from hexwar.plugins.firepower.climbing import (
        check_roadblock_climb,
        check_roof_climb,
        roadblock_to_climb,
        roof_to_climb,
    )

    rbl = roadblock_to_climb(game, u, choice.get("what"))
    if rbl is not None:  # Firepower 8.8.5.4, 11.1.11: over a roadblock (FPD-115)
        return check_roadblock_climb(game, u, rbl, to)
    if to not in ("up", "down"):
        raise RulesError("climb up or down", rule="Firepower 11.1.11")

    d = roof_to_climb(game, u, choice.get("what"))
    if d is not None:  # Firepower 8.8.4: on top of a bunker or pillbox (FPD-113)
        return check_roof_climb(game, u, d, str(to))
    if u.hex not in m.trees:
        raise RulesError(f"there is no tree in {game.board.label(u.hex)} to climb (buildings, "
                         "walls and height hexsides are climbed by stairs, doors or not yet)",
                         rule="Firepower 11.1.11")
    up = u.state.get("up")
    if up is None:
        if to == "down":
            raise RulesError(f"{u.id} is on the ground", rule="Firepower 11.1.11")
        if _posture(u) != "stand":
            raise RulesError(f"{u.id} must be Standing to start climbing",
                             rule="Firepower 11.1.11")
        model = u.state.get("model")
        if isinstance(model, str) and weapon(model).move < 0:
            raise RulesError(f"{u.id}'s {model} reduces his MF: he may not climb a tree",
                             rule="Firepower 11.1.11")
        if any(o.id != u.id and o.side == u.side and o.hex == u.hex and alive(o)
               and o.state.get("up") is not None for o in game.state.units.values()):
            raise RulesError("no more than one soldier of a side up one tree",
                             rule="Firepower 11.1.11.1")
    head = int(up) if up is not None else head_above_floor(u)
    new = head + (1 if to == "up" else -1)
    top = max_tree_head(m.trees[u.hex])
    if to == "up" and new > top:
        raise RulesError(f"the tree of {game.board.label(u.hex)} is {m.trees[u.hex]} heights: a "
                         f"head climbs no higher than {top}", rule="Firepower 11.1.11.1")
    return {"cost": climb_cost("tree", 1), "up": None if new <= 2 else new}


def _apply_climb(game: Game, ph: dict[str, Any], info: dict[str, Any]) -> None:
    u = game.state.units[info["unit"]]
    if "roof" in info:
        from hexwar.plugins.firepower.climbing import apply_roof_climb

        apply_roof_climb(u, info)
        return
    if "roadblock" in info:
        from hexwar.plugins.firepower.climbing import apply_roadblock_climb

        apply_roadblock_climb(u, info)
        return
    if info["up"] is None:
        u.state.pop("up", None)  # Firepower 11.1.11.2: the feet are on the ground again
    else:
        u.state["up"] = info["up"]
        u.state["posture"] = "stand"  # an Up soldier uses the Stand column (Firepower 11.1.11)


def _climb_options(game: Game, ph: dict[str, Any], uid: str) -> list[dict[str, Any]]:
    u = game.state.units[uid]
    from hexwar.plugins.firepower.climbing import roof_options

    if u.hex is not None and u.hex not in adv_map(game).trees:
        return roof_options(game, u)
    if u.hex is None:
        return []
    return [{"unit": uid, "act": "climb", "to": t} for t in ("up", "down")]


CLIMB = ActionType("climb", _check_climb, _apply_climb, _climb_options, rule="Firepower 11.1.11")


# -- Firepower 11.2.1.1 fording, Firepower 11.2.3 swimming --------------------------------------


def ford_allowed(posture: str, inches: float) -> bool:
    """Firepower 11.2.1.1: Standing soldiers ford up to 48 inches, Crouching up to 24; Prone
    soldiers do not ford (they swim)."""
    return inches <= FORD_INCHES.get(posture, -1.0)


def swim_allowed(posture: str, inches: float, mf_reduced: bool) -> bool:
    """Firepower 11.2.3: Prone, in water at least 18 inches deep, with nothing reducing MF."""
    return posture == "prone" and inches >= SWIM_INCHES and not mf_reduced


def _water_move(game: Game, ph: dict[str, Any], choice: dict[str, Any], act: str) -> dict[str, Any]:
    from hexwar.plugins.firepower.weapon_chart import weapon

    u = _unit(game, choice)
    assert u.hex is not None
    m = adv_map(game)
    dest = u.hex.neighbor(u.facing)
    if dest not in m.hexes:
        raise RulesError("no soldier may exit the mapboard", rule="Firepower 4.9")
    if not (m.is_water(dest) or m.is_water(u.hex)):
        raise RulesError(f"there is no water in {game.board.label(dest)} or "
                         f"{game.board.label(u.hex)}", rule="Firepower 11.2.1.1")
    if _enemy_in(game, u, dest):
        raise RulesError("a hex holding opposing soldiers may be entered only by melee",
                         rule="Firepower 6.2.1")
    if m.wall_between(u.hex, dest):
        raise RulesError("a building's wall is crossed only through an open door or window",
                         rule="Firepower 11.1.3")
    p = _posture(u)
    inches = max(m.water.get(dest, 0.0), m.water.get(u.hex, 0.0))
    c = rules_card(game)
    if act == "ford":
        if not ford_allowed(p, inches):
            limit = FORD_INCHES.get(p)
            raise RulesError(f"{u.id} is {p}: " + (f"he fords no deeper than {limit:g} inches, "
                             f"the water is {inches:g}" if limit else "a Prone soldier swims"),
                             rule="Firepower 11.2.1.1")
        cost = c.mf_cost("enter", p) * note_a_multiplier(fording=True)
    else:
        model = u.state.get("model")
        reduced = isinstance(model, str) and weapon(model).move < 0
        if not swim_allowed(p, inches, reduced):
            why = ("he must be Prone" if p != "prone" else
                   f"the water is {inches:g} inches, less than 18" if inches < SWIM_INCHES else
                   "his weapon reduces his MF")
            raise RulesError(f"{u.id} may not swim: {why}", rule="Firepower 11.2.3")
        cost = 3  # Firepower 11.2.3: three MF to enter the hex
    return {"cost": cost, "to": dest}


def _apply_water(game: Game, ph: dict[str, Any], info: dict[str, Any]) -> None:
    _enter(game, ph, game.state.units[info["unit"]], info["to"])


def _water_options(act: str) -> Any:
    def options(game: Game, ph: dict[str, Any], uid: str) -> list[dict[str, Any]]:
        u = game.state.units[uid]
        if u.hex is None:
            return []
        m = adv_map(game)
        dest = u.hex.neighbor(u.facing)
        if dest not in m.hexes or not (m.is_water(dest) or m.is_water(u.hex)):
            return []
        return [{"unit": uid, "act": act}]

    return options


FORD = ActionType("ford", lambda g, ph, ch: _water_move(g, ph, ch, "ford"), _apply_water,
                  _water_options("ford"), rule="Firepower 11.2.1.1")
SWIM = ActionType("swim", lambda g, ph, ch: _water_move(g, ph, ch, "swim"), _apply_water,
                  _water_options("swim"), rule="Firepower 11.2.3")

ACTION_TYPES = (STAIRS, DOOR, BREAK, THROUGH, CLIMB, FORD, SWIM)


# ---------------------------------------------------------------------------------------------
# The terrain's limits on the Basic Actions in the Advanced Game
# ---------------------------------------------------------------------------------------------


def check_terrain(game: Game, info: dict[str, Any]) -> None:
    """Refuse a Basic Action the Advanced terrain forbids (raises RulesError; pure):

    * entering (or backing) across a building's wall: only through an open door or window
      (Firepower 11.1.3, Firepower 11.1.9);
    * entering into or out of water: fording or swimming (Firepower 11.2.1.1, Firepower 11.2.3);
    * across a free-standing wall: over two heights it must be climbed (Firepower 11.1.3); a
      height hexside over ten heights likewise (Firepower 11.2.4; ``climbing.SCALE``);
    * a soldier part way over a hexside climbs on or back first (docs/decisions.md FPD-73);
    * an Up soldier finishes his climb first (Firepower 11.1.11.2);
    * in a tunnel: crouching or Prone, from tunnel hex to tunnel hex, four a hex (Firepower 8.8.8);
    * melee: into a building only through an open door or window on the ground floor, and only
      with defenders on the attackers' floor (Firepower 11.1.1, 11.1.3);
    * fire and grenades: not from a tunnel (Firepower 8.8.8); what blocks them on the way is the
      Advanced line of sight's (Firepower 12.1)."""
    from hexwar.plugins.firepower.climbing import check_while_climbing, must_climb

    act = info.get("act")
    if act == "melee":
        _check_melee_terrain(game, info)
        return
    if "unit" in info:
        check_while_climbing(game, info)
    if act not in ("enter", "back", "fire", "grenade"):
        return
    u = game.state.units[info["unit"]]
    assert u.hex is not None
    m = adv_map(game)
    if act in ("enter", "back"):
        dest = info["to"]
        if in_tunnel(u):
            from hexwar.plugins.firepower.hidden_setup import check_tunnel_move

            check_tunnel_move(game, u, dest)
            return
        if u.state.get("up") is not None:
            raise RulesError(f"{u.id} is Up a tree: he climbs down first",
                             rule="Firepower 11.1.11.2")
        from hexwar.plugins.firepower.bridges import along

        if along(game, u, u.hex, dest) is not None:
            return  # Firepower 8.9: on the deck, above the water and hexsides below (FPD-123)
        if m.wall_between(u.hex, dest) and u.state.get("roof") is not None:
            raise RulesError(f"{u.id} is on a roof: he walks onto the roofs of his building's "
                             "hexes only, and leaves it down an outer wall ('scale')",
                             rule="Firepower 11.1.11.2")
        if m.wall_between(u.hex, dest):
            raise RulesError(f"{u.id} may cross the wall of a building only through an open door "
                             "or window ('through')", rule="Firepower 11.1.3")
        if m.is_water(dest) or m.is_water(u.hex):
            raise RulesError(f"{u.id} fords or swims in water ('ford', 'swim')",
                             rule="Firepower 11.2.1.1")
        rule = must_climb(game, u, direction(u.hex, dest))
        if rule is not None:
            what = ("a wall over two heights" if rule == "Firepower 11.1.3"
                    else "a height hexside over ten heights")
            raise RulesError(f"{what} must be climbed ('scale'), not crossed", rule=rule)
        return
    if in_tunnel(u):
        raise RulesError(f"{u.id} is in a tunnel: no fire from under the ground",
                         rule="Firepower 8.8.8")
    # Firepower 12.1: walls, floors, doors and windows, buildings and trees between are the
    # Advanced line of sight's (advanced_terrain.los_obstacles, docs/decisions.md FPD-70)


def _check_melee_terrain(game: Game, info: dict[str, Any]) -> None:
    """Firepower 11.1.1, 11.1.3: a melee needs the attackers to reach the defenders: across a
    building's wall only through an open opening on their floor, and on the defenders' floor."""
    m = adv_map(game)
    units = [game.state.units[str(x)] for x in info.get("units") or []]
    dest = info.get("hex")
    if not isinstance(dest, Hex) or any(in_tunnel(u) for u in units):
        return  # under the ground no wall stands between (tunnels.check_melee_underground)
    label = fp_map(game).label(dest)
    defenders = [o for o in game.state.units.values() if o.hex == dest and alive(o)
                 and not in_tunnel(o) and units and o.side != units[0].side]
    for u in units:
        assert u.hex is not None
        f = floor_of(u)
        if m.wall_between(u.hex, dest):
            o = m.opening(u.hex, dest, f)
            if o is None or not is_open(game, o) or f > 1:
                raise RulesError(f"{u.id} reaches {label} only through an open door or window",
                                 rule="Firepower 11.1.3")
        if defenders and all(floor_of(d) != f for d in defenders):
            raise RulesError(f"the soldiers in {label} are on another floor: no melee",
                             rule="Firepower 11.1.1")
