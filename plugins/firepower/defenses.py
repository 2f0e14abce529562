"""Defensive units of the Advanced Game other than caves (Firepower 8.8): foxholes (DFX, SFX),
trenches (TRN), wire and double wire (WIR, DWR) and bunkers (BKR), with their effects on
movement, fire and the line of sight.

* Set-up (Firepower 8.8): the scenario lists the units the defender sets up
  (``special.defenses = [{type = "DFX", hex = "H5"}, {type = "BKR", hex = "J7", door = 4}]``),
  read and checked once per game (:func:`defences`): a known type, not in a building hex
  (Firepower 8.8), at most one a hex (Firepower 8.8), a bunker's door on a hexside 1-6
  (Firepower 8.8.4). They never move. Their values: ``data/advanced/defenses.toml`` (cited where
  the text gives them, the rest ``estimated``; docs/decisions.md FPD-78).
* In or out (Firepower 8.8.1): a soldier "in" the position (the Holding Box Card) has
  ``state.in_defence`` = the unit's type. Action ``position`` (``{"act": "position", "unit",
  "into": true|false}``): into or out of a foxhole or trench is a climb (Firepower 8.8.2), one MF
  per height of its depth, starting Standing (Firepower 11.1.11); a foxhole holds four soldiers
  of one side (Firepower 8.8.2.1, 10.8); a bunker is entered and left only through its door
  (Firepower 8.8.4): a soldier facing the door's hexside (docs/decisions.md FPD-79). In a hole,
  his feet are its depth below the ground (``state.stands_at``, read by the line of sight and
  the melee: Firepower 10.5.2).
* Movement: a wire or double wire hex is not entered (Firepower 8.8.3); a soldier in a position
  leaves it before he leaves the hex (Firepower 8.8.2, 8.8.4).
* Fire: a soldier in a foxhole or trench has cover and concealment from every direction
  (Firepower 8.8.2.1, 8.8.2.2, 12.2.3, 12.2.4); one in a bunker fires and is fired at through
  its loopholes (+2, Firepower 12.2.3) and is concealed (Firepower 12.2.4); he fires only
  Standing or Crouching, the loopholes being one to two heights above the floor
  (Firepower 8.8.4.1). The rim of a hole is an obstacle at the ground's height on the line of
  sight of a soldier in it (Firepower 10.5.2: low in a deep foxhole he sees only higher things).
"""

from __future__ import annotations

import weakref
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from hexwar.core.errors import RulesError
from hexwar.core.hexgrid import Hex
from hexwar.core.provenance import load_records
from hexwar.plugins.firepower.actions import ActionType, mf_left

if TYPE_CHECKING:
    from hexwar.core.engine.game import Game
    from hexwar.core.engine.state import Unit
    from hexwar.plugins.firepower.advanced_los import Obstacle
    from hexwar.plugins.firepower.soldiers import Soldier

DATA = Path(__file__).parent / "data" / "advanced" / "defenses.toml"


@dataclass(frozen=True)
class DefenceType:
    """One kind of defensive unit (Firepower 8.8)."""

    code: str
    name: str
    kind: str           # hole, obstacle, structure
    depth: int          # heights below the ground (a hole)
    capacity: int       # soldiers of one side, 0 = any number
    cover: str          # none, cover (+1), loophole (+2): Firepower 12.2.3
    concealed: bool     # Firepower 12.2.4
    loophole: tuple[int, int] | None = None
    height: int = 0
    terrain_value: int = 0
    door_cost: int = 1


@cache
def types() -> dict[str, DefenceType]:
    """The defensive unit types of ``data/advanced/defenses.toml``."""
    recs = load_records(DATA)
    out: dict[str, DefenceType] = {}
    for code, v in recs.values.items():
        lh = v.get("loophole")
        out[code] = DefenceType(code, str(v["name"]), str(v["kind"]), int(v["depth"]),
                                int(v["capacity"]), str(v["cover"]), bool(v["concealed"]),
                                (int(lh[0]), int(lh[1])) if lh else None,
                                int(v.get("height", 0)), int(v.get("terrain_value", 0)),
                                int(v.get("door_cost", 1)))
    return out


@dataclass(frozen=True)
class Defence:
    """A defensive unit on the board."""

    type: DefenceType
    hex: Hex
    door: int | None = None


#: each game's defensive units, read once (they never move: Firepower 8.8)
_CACHE: weakref.WeakKeyDictionary[Any, dict[Hex, Defence]] = weakref.WeakKeyDictionary()


def _specs(game: Game) -> list[Any]:
    special = game.scenario.raw.get("special") or {}
    got = special.get("defenses") if isinstance(special, dict) else None
    return list(got) if isinstance(got, list) else []


def read_defences(game: Game, specs: list[Any]) -> dict[Hex, Defence]:
    """Check and place the defensive units ``specs`` (raises RulesError naming the rule and the
    entry; pure)."""
    from hexwar.plugins.firepower.advanced_terrain import adv_map

    known = types()
    m = adv_map(game)
    out: dict[Hex, Defence] = {}
    for i, spec in enumerate(specs):
        where = f"special.defenses[{i}]"
        if not isinstance(spec, dict):
            raise RulesError(f"{where}: a defensive unit is a table with 'type' and 'hex'",
                             rule="Firepower 8.8")
        code = spec.get("type")
        if code not in known:
            raise RulesError(f"{where}: no defensive unit {code!r} (known: "
                             f"{', '.join(sorted(known))})", rule="Firepower 8.8")
        try:
            h = game.board.parse(str(spec.get("hex")))
        except Exception as exc:  # the board's own message names the label
            raise RulesError(f"{where}: {exc}", rule="Firepower 8.8") from None
        lab = game.board.label(h)
        if m.building(h) is not None:
            raise RulesError(f"{where}: {lab} is a building hex: no defensive unit there",
                             rule="Firepower 8.8")
        if h in out:
            raise RulesError(f"{where}: {lab} already holds a {out[h].type.name}",
                             rule="Firepower 8.8")
        t = known[str(code)]
        door = spec.get("door")
        if t.kind == "structure":
            if not isinstance(door, int) or isinstance(door, bool) or not 1 <= door <= 6:
                raise RulesError(f"{where}: a {t.name}'s door faces a hexside 1-6, not "
                                 f"{door!r}", rule="Firepower 8.8.4")
        elif door is not None:
            raise RulesError(f"{where}: only bunkers have a door", rule="Firepower 8.8.4")
        out[h] = Defence(t, h, door if t.kind == "structure" else None)
    return out


def defences(game: Game) -> dict[Hex, Defence]:
    """The game's defensive units by hex (Firepower 8.8)."""
    got = _CACHE.get(game)
    if got is None:
        got = read_defences(game, _specs(game)) if _specs(game) else {}
        _CACHE[game] = got
    return got


def set_defences(game: Game, specs: list[Any]) -> dict[Hex, Defence]:
    """Place the defensive units ``specs`` in ``game`` (the scenario's ``special.defenses``);
    a bad entry raises RulesError and changes nothing."""
    got = read_defences(game, specs)
    raw: dict[str, Any] = game.scenario.raw  # type: ignore[assignment]
    special = raw.setdefault("special", {})
    special["defenses"] = list(specs)
    _CACHE[game] = got
    return got


def in_defence(u: Unit) -> str | None:
    """The type of the position a soldier is "in" (Firepower 8.8.1), None if he is not."""
    v = u.state.get("in_defence")
    return str(v) if isinstance(v, str) else None


# ---------------------------------------------------------------------------------------------
# Action ``position``: in or out (Firepower 8.8.1, 8.8.2, 8.8.4, 11.1.11)
# ---------------------------------------------------------------------------------------------


def _check_position(game: Game, ph: dict[str, Any], choice: dict[str, Any]) -> dict[str, Any]:
    u = game.state.units[choice["unit"]]
    assert u.hex is not None
    d = defences(game).get(u.hex)
    lab = game.board.label(u.hex)
    if d is None or d.type.kind == "obstacle":
        raise RulesError(f"{lab} has no foxhole, trench or bunker to be in",
                         rule="Firepower 8.8.1")
    into = choice.get("into", True)
    if not isinstance(into, bool):
        raise RulesError("'into' is true (go in) or false (come out)", rule="Firepower 8.8.1")
    now = in_defence(u)
    if into and now:
        raise RulesError(f"{u.id} is already in the {d.type.name}", rule="Firepower 8.8.1")
    if not into and not now:
        raise RulesError(f"{u.id} is not in the {d.type.name}", rule="Firepower 8.8.1")
    if d.type.kind == "hole":
        if str(u.state.get("posture", "stand")) != "stand":
            raise RulesError(f"{u.id} must be Standing to start climbing "
                             f"{'into' if into else 'out of'} the {d.type.name}",
                             rule="Firepower 11.1.11")
        cost = d.type.depth  # Firepower 11.1.11: one MF per height climbed
        rule = "Firepower 8.8.2"
    else:
        if u.facing != d.door:
            raise RulesError(f"{u.id} goes {'into' if into else 'out of'} the bunker only "
                             f"through its door on hexside {d.door} (he faces {u.facing})",
                             rule="Firepower 8.8.4")
        cost = d.type.door_cost
        rule = "Firepower 8.8.4"
    if into and d.type.capacity:
        inside = [o for o in game.state.units.values() if o.hex == u.hex and o.side == u.side
                  and in_defence(o) and not o.state.get("eliminated")]
        if len(inside) >= d.type.capacity:
            raise RulesError(f"the {d.type.name} in {lab} holds {d.type.capacity} soldiers of "
                             "one side", rule="Firepower 10.8")
    if mf_left(game, ph, u.id) < cost:
        raise RulesError(f"{u.id} has {mf_left(game, ph, u.id)} MF left; climbing "
                         f"{'into' if into else 'out of'} the {d.type.name} costs {cost}",
                         rule=rule)
    return {"cost": cost, "into": into, "code": d.type.code, "depth": d.type.depth}


def _apply_position(game: Game, ph: dict[str, Any], info: dict[str, Any]) -> None:
    u = game.state.units[info["unit"]]
    if info["into"]:
        u.state["in_defence"] = info["code"]
        if info["depth"]:
            u.state["stands_at"] = -int(info["depth"])  # Firepower 10.5.2: feet in the hole
    else:
        u.state.pop("in_defence", None)
        u.state.pop("stands_at", None)


def _position_options(game: Game, ph: dict[str, Any], uid: str) -> list[dict[str, Any]]:
    u = game.state.units[uid]
    d = defences(game).get(u.hex) if u.hex is not None else None
    if d is None or d.type.kind == "obstacle":
        return []
    return [{"act": "position", "unit": uid, "into": not in_defence(u)}]


POSITION = ActionType("position", _check_position, _apply_position, _position_options,
                      rule="Firepower 8.8.1")


def check_move(game: Game, info: dict[str, Any]) -> None:
    """Firepower 8.8.3: no soldier enters a wire or double wire hex; Firepower 8.8.2, 8.8.4: a
    soldier in a position comes out of it before he leaves the hex."""
    if info.get("act") not in ("enter", "back", "melee"):
        return
    ds = defences(game)
    if not ds:
        return
    dest = info.get("to") if info.get("act") != "melee" else info.get("hex")
    uids = [info["unit"]] if "unit" in info else [str(x) for x in info.get("units") or []]
    if isinstance(dest, Hex) and dest in ds and ds[dest].type.kind == "obstacle":
        raise RulesError(f"{game.board.label(dest)} holds {ds[dest].type.name}: soldiers may "
                         "not enter it", rule="Firepower 8.8.3")
    for uid in uids:
        u = game.state.units[uid]
        t = in_defence(u)
        if t:
            raise RulesError(f"{u.id} is in the {types()[t].name}: he comes out first "
                             "('position' with into = false)",
                             rule="Firepower 8.8.4" if types()[t].kind == "structure"
                             else "Firepower 8.8.2")


# ---------------------------------------------------------------------------------------------
# Fire and the line of sight
# ---------------------------------------------------------------------------------------------


def positions(game: Game) -> dict[str, str]:
    """Soldier id -> the type of the position he is in."""
    return {uid: t for uid, u in game.state.units.items() if (t := in_defence(u))}


def cover(code: str | None) -> tuple[str, str] | None:
    """Firepower 12.2.3: (what, modifier name) of the cover of a soldier in the position."""
    if not code:
        return None
    t = types()[code]
    if t.cover == "cover":
        return (t.name, "target_in_cover")
    if t.cover == "loophole":
        return (f"{t.name} loophole", "target_loophole")
    return None


def concealed(code: str | None) -> bool:
    """Firepower 12.2.4: a foxhole, trench or loophole conceals."""
    return bool(code) and types()[str(code)].concealed


def los_obstacles(game: Game, ends: tuple[Soldier | None, Soldier | None]) -> list[Obstacle]:
    """The rim of a hole around a soldier in it, at the ground's height (Firepower 10.5.2,
    8.8.2.1): judged by the heights like a hill at his end of the line."""
    from hexwar.plugins.firepower.advanced_los import Obstacle
    from hexwar.plugins.firepower.advanced_terrain import ground_of

    out: list[Obstacle] = []
    units = game.state.units
    for s in ends:
        if s is None or s.id not in units:
            continue
        t = in_defence(units[s.id])
        if t and types()[t].kind == "hole":
            out.append(Obstacle(s.hex, f"the rim of the {types()[t].name}",
                                ground_of(game, s.hex), "Firepower 8.8.2"))
    return out


def holes(game: Game) -> dict[Hex, str]:
    """Firepower 12.7.2: the hexes with a hole in the ground (a foxhole or trench), by the
    type's code, for the fire's hit location (used by ``advanced_fire.step_hole``)."""
    return {h: d.type.code for h, d in defences(game).items() if d.type.kind == "hole"}
