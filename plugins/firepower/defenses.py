"""Defensive units of the Advanced Game other than caves (Firepower 8.8): foxholes (DFX, SFX),
trenches (TRN), wire and double wire (WIR, DWR), bunkers (BKR), pillboxes (PBX), towers (TWR),
abatis (ABS), blocks (BLK) and ditches (DCH), with their effects on movement, fire and the line
of sight (roadblocks and bridges: docs/decisions.md FPD-97).

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
* Pillboxes (Firepower 8.8.4.2; FPD-93): as a bunker, but four soldiers of a side; one loophole in
  the front (the hexside opposite the door), one height high: a soldier in a pillbox sees and is
  seen only Crouching and only within the front hexside's arc (an absolute block otherwise).
* Towers (Firepower 8.8.6; FPD-94): in and out by the stairs from any direction (one flight,
  Firepower 11.1.8); the floor five heights up (``stands_at`` = 5), eight soldiers of a side;
  cover and concealment, loopholes (+2, Crouching or Standing) if the scenario sandbags it
  (``sandbagged = true``).
* Abatis, blocks, ditches turn their hexes into new terrain (Firepower 8.8.1; FPD-95): an abatis
  hex costs twice the MF to enter or to leave (Firepower 8.8.5.1, 11.2.1; the extra MF are paid
  after the Action, :func:`after_action`); every soldier in a block hex has +1 cover from every
  direction (Firepower 8.8.5.2); a ditch lowers its hex's ground five heights and is entered and
  left only by climbing (Firepower 8.8.5.3; ``climbing.SCALE``).
* Heights on the line of sight (Firepower 12.1.5; FPD-96): a bunker, pillbox, tower or block in
  a hex between the ends is an obstacle to its top through the whole hex.
* Fire: a soldier in a foxhole or trench has cover and concealment from every direction
  (Firepower 8.8.2.1, 8.8.2.2, 12.2.3, 12.2.4); one in a bunker fires and is fired at through
  its loopholes (+2, Firepower 12.2.3) and is concealed (Firepower 12.2.4); he fires only
  Standing or Crouching, the loopholes being one to two heights above the floor
  (Firepower 8.8.4.1). The rim of a hole is an obstacle at the ground's height on the line of
  sight of a soldier in it (Firepower 10.5.2: low in a deep foxhole he sees only higher things).
"""

from __future__ import annotations

import weakref
from dataclasses import dataclass, replace
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from hexwar.core.errors import RulesError
from hexwar.core.hexgrid import Hex, in_arc, opposite
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
    #: the postures that fire through the loopholes (Firepower 8.8.4.1, 8.8.4.2, 8.8.6)
    loophole_postures: tuple[str, ...] = ("stand", "crouch")
    #: fires and is fired at only through the front loophole (a pillbox, Firepower 8.8.4.2)
    front_only: bool = False
    #: the floor's height above the ground (a tower, Firepower 8.8.6)
    floor: int = 0
    #: a tower's cover and loopholes when sandbagged (Firepower 8.8.6)
    sandbagged_cover: str = ""
    sandbagged_loophole: tuple[int, int] | None = None
    #: Firepower 11.2.1: MF multiplier to enter or leave the hex (abatis)
    move_multiplier: int = 1
    #: cover for every soldier in the hex, not only those "in" it (a block, Firepower 8.8.5.2)
    hex_cover: bool = False
    #: entered and left only by climbing (a ditch, Firepower 8.8.5.3)
    climb_only: bool = False

    def sandbagged(self) -> DefenceType:
        """Firepower 8.8.6: the same tower with sandbags (its loopholes)."""
        return replace(self, code=self.code + SANDBAGS, name=f"sandbagged {self.name}",
                       cover=self.sandbagged_cover, loophole=self.sandbagged_loophole)


#: the suffix of a sandbagged tower's position code (Firepower 8.8.6)
SANDBAGS = "+S"


@cache
def types() -> dict[str, DefenceType]:
    """The defensive unit types of ``data/advanced/defenses.toml``."""
    recs = load_records(DATA)
    out: dict[str, DefenceType] = {}

    def pair(x: Any) -> tuple[int, int] | None:
        return (int(x[0]), int(x[1])) if x else None

    for code, v in recs.values.items():
        t = DefenceType(code, str(v["name"]), str(v["kind"]), int(v["depth"]),
                        int(v["capacity"]), str(v["cover"]), bool(v["concealed"]),
                        pair(v.get("loophole")), int(v.get("height", 0)),
                        int(v.get("terrain_value", 0)), int(v.get("door_cost", 1)),
                        tuple(str(p) for p in v.get("loophole_postures", ("stand", "crouch"))),
                        bool(v.get("front_only", False)), int(v.get("floor", 0)),
                        str(v.get("sandbagged_cover", "")), pair(v.get("sandbagged_loophole")),
                        int(v.get("move_multiplier", 1)), bool(v.get("hex_cover", False)),
                        bool(v.get("climb_only", False)))
        out[code] = t
        if t.sandbagged_cover:
            out[code + SANDBAGS] = t.sandbagged()
    return out


@dataclass(frozen=True)
class Defence:
    """A defensive unit on the board."""

    type: DefenceType
    hex: Hex
    door: int | None = None
    sandbagged: bool = False

    @property
    def code(self) -> str:
        """The position code of a soldier in it (a sandbagged tower's its own, Firepower 8.8.6)."""
        return self.type.code + (SANDBAGS if self.sandbagged else "")

    @property
    def front(self) -> int | None:
        """Firepower 8.8.4.2: the front, the hexside opposite the door."""
        return opposite(self.door) if self.door is not None else None


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
        if code not in known or str(code).endswith(SANDBAGS):
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
            raise RulesError(f"{where}: only bunkers and pillboxes have a door",
                             rule="Firepower 8.8.4")
        bags = spec.get("sandbagged", False)
        if not isinstance(bags, bool) or (bags and not t.sandbagged_cover):
            raise RulesError(f"{where}: only a tower is sandbagged (true or false), not "
                             f"{bags!r} for a {t.name}", rule="Firepower 8.8.6")
        out[h] = Defence(t, h, door if t.kind == "structure" else None, bags)
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


#: the kinds a soldier is "in" (Firepower 8.8.1); the others turn the hex into new terrain
POSITIONS = ("hole", "structure", "tower")


def _check_position(game: Game, ph: dict[str, Any], choice: dict[str, Any]) -> dict[str, Any]:
    u = game.state.units[choice["unit"]]
    assert u.hex is not None
    d = defences(game).get(u.hex)
    lab = game.board.label(u.hex)
    if d is None or d.type.kind not in POSITIONS or u.state.get("tunnel"):
        raise RulesError(f"{lab} has no foxhole, trench, bunker, pillbox or tower to be in",
                         rule="Firepower 8.8.1")
    into = choice.get("into", True)
    if not isinstance(into, bool):
        raise RulesError("'into' is true (go in) or false (come out)", rule="Firepower 8.8.1")
    now = in_defence(u)
    if into and now:
        raise RulesError(f"{u.id} is already in the {d.type.name}", rule="Firepower 8.8.1")
    if not into and not now:
        raise RulesError(f"{u.id} is not in the {d.type.name}", rule="Firepower 8.8.1")
    way = "into" if into else "out of"
    if d.type.kind == "hole":
        if str(u.state.get("posture", "stand")) != "stand":
            raise RulesError(f"{u.id} must be Standing to start climbing {way} the "
                             f"{d.type.name}", rule="Firepower 11.1.11")
        cost = d.type.depth  # Firepower 11.1.11: one MF per height climbed
        rule = "Firepower 8.8.2"
    elif d.type.kind == "tower":
        # Firepower 8.8.6, 11.1.8: one flight of stairs, from or to any direction
        cost = d.type.door_cost
        rule = "Firepower 8.8.6"
    else:
        if u.facing != d.door:
            raise RulesError(f"{u.id} goes {way} the {d.type.name} only through its door on "
                             f"hexside {d.door} (he faces {u.facing})", rule="Firepower 8.8.4")
        cost = d.type.door_cost
        rule = "Firepower 8.8.4"
    if into and d.type.capacity:
        inside = [o for o in game.state.units.values() if o.hex == u.hex and o.side == u.side
                  and in_defence(o) and not o.state.get("eliminated")]
        if len(inside) >= d.type.capacity:
            raise RulesError(f"the {d.type.name} in {lab} holds {d.type.capacity} soldiers of "
                             "one side", rule="Firepower 10.8")
    if mf_left(game, ph, u.id) < cost:
        raise RulesError(f"{u.id} has {mf_left(game, ph, u.id)} MF left; going {way} the "
                         f"{d.type.name} costs {cost}", rule=rule)
    # his feet: a hole's depth below the ground, a tower's floor above it (Firepower 10.5.2)
    return {"cost": cost, "into": into, "code": d.code, "lift": d.type.floor - d.type.depth}


def _apply_position(game: Game, ph: dict[str, Any], info: dict[str, Any]) -> None:
    u = game.state.units[info["unit"]]
    if info["into"]:
        u.state["in_defence"] = info["code"]
        if info["lift"]:
            u.state["stands_at"] = int(info["lift"])  # Firepower 10.5.2, 8.8.6
    else:
        u.state.pop("in_defence", None)
        u.state.pop("stands_at", None)


def _position_options(game: Game, ph: dict[str, Any], uid: str) -> list[dict[str, Any]]:
    u = game.state.units[uid]
    d = defences(game).get(u.hex) if u.hex is not None else None
    if d is None or d.type.kind not in POSITIONS or u.state.get("tunnel"):
        return []
    return [{"act": "position", "unit": uid, "into": not in_defence(u)}]


POSITION = ActionType("position", _check_position, _apply_position, _position_options,
                      rule="Firepower 8.8.1")


def check_move(game: Game, info: dict[str, Any]) -> None:
    """Refuse a move the defensive units forbid (raises RulesError; pure):

    * Firepower 8.8.3: no soldier enters a wire or double wire hex;
    * Firepower 8.8.2, 8.8.4, 8.8.6: a soldier in a position comes out of it before he leaves
      the hex;
    * Firepower 8.8.5.3: a ditch is entered and left only by climbing (``scale``);
    * Firepower 8.8.5.1, 11.2.1: entering an abatis hex or leaving one costs twice the MF: the
      soldier must have them (the second half is paid by :func:`after_action`).

    A soldier in a tunnel moves under all of them (Firepower 8.8.8)."""
    act = info.get("act")
    if act not in ("enter", "back", "melee"):
        return
    ds = defences(game)
    if not ds:
        return
    dest = info.get("to") if act != "melee" else info.get("hex")
    uids = [info["unit"]] if "unit" in info else [str(x) for x in info.get("units") or []]
    units = [game.state.units[uid] for uid in uids]
    if not isinstance(dest, Hex) or all(u.state.get("tunnel") for u in units):
        return
    there = ds.get(dest)
    lab = game.board.label(dest)
    if there is not None and there.type.kind == "obstacle":
        raise RulesError(f"{lab} holds {there.type.name}: soldiers may not enter it",
                         rule="Firepower 8.8.3")
    for u in units:
        t = in_defence(u)
        if t:
            kind = types()[t].kind
            raise RulesError(f"{u.id} is in the {types()[t].name}: he comes out first "
                             "('position' with into = false)",
                             rule={"structure": "Firepower 8.8.4", "tower": "Firepower 8.8.6"}
                             .get(kind, "Firepower 8.8.2"))
        here = ds.get(u.hex) if u.hex is not None else None
        if _ditch(here) != _ditch(there):
            way = f"into the ditch in {lab}" if _ditch(there) else "out of the ditch"
            raise RulesError(f"{u.id} goes {way} only by climbing ('scale')",
                             rule="Firepower 8.8.5.3")
        extra = abatis_extra(game, u, here, there, int(info.get("cost", 0)))
        if extra:
            ph = game.state.data["firepower"]["phase"]
            left = mf_left(game, ph, u.id)
            if left < int(info.get("cost", 0)) + extra:
                raise RulesError(f"{u.id} has {left} MF left; in or into an abatis hex the "
                                 f"move costs twice: {int(info.get('cost', 0)) + extra}",
                                 rule="Firepower 11.2.1")


def _ditch(d: Defence | None) -> bool:
    return d is not None and d.type.climb_only


def abatis_extra(game: Game, u: Unit, here: Defence | None, there: Defence | None,
                 cost: int) -> int:
    """Firepower 11.2.1 (a), 8.8.5.1: the MF a move costs beyond ``cost`` for entering or being
    in an abatis hex (twice normal; with backing, four times: the multipliers multiply)."""
    mult = max(here.type.move_multiplier if here is not None else 1,
               there.type.move_multiplier if there is not None else 1)
    return cost * (mult - 1)


def after_action(game: Game, action: Any, info: dict[str, Any]) -> None:
    """After an ``enter`` or ``back`` (``info`` as applied): the second half of an abatis move's
    MF (Firepower 11.2.1), checked before the move by :func:`check_move`."""
    if not isinstance(action, dict) or info.get("act") not in ("enter", "back"):
        return
    ds = defences(game)
    u = game.state.units.get(str(info.get("unit")))
    if not ds or u is None or u.hex is None or u.state.get("tunnel"):
        return
    # where he came from: behind him after entering, in front of him after backing
    src = u.hex.neighbor(opposite(u.facing) if info["act"] == "enter" else u.facing)
    extra = abatis_extra(game, u, ds.get(src), ds.get(u.hex), int(info.get("cost", 0)))
    if not extra:
        return
    ph = game.state.data["firepower"]["phase"]
    ph["spent"][u.id] = int(ph["spent"].get(u.id, 0)) + extra
    ph["nc"][u.id] = int(ph["nc"].get(u.id, 0)) + extra
    if u.id in ph["after"]:
        ph["after"][u.id] = int(ph["after"][u.id]) - extra
    game.emit("abatis", unit=u.id, hex=game.board.label(u.hex), cost=extra,
              rule="Firepower 11.2.1")


# ---------------------------------------------------------------------------------------------
# Fire and the line of sight
# ---------------------------------------------------------------------------------------------


def positions(game: Game) -> dict[str, str]:
    """Soldier id -> the position code he has the cover of: the position he is in (Firepower
    8.8.1; a sandbagged tower's ``TWR+S``), or a block hex's for every soldier in it on the
    ground (Firepower 8.8.5.2)."""
    out = {uid: t for uid, u in game.state.units.items() if (t := in_defence(u))}
    ds = defences(game)
    if not ds:
        return out
    for uid, u in game.state.units.items():
        d = ds.get(u.hex) if u.hex is not None else None
        if (d is not None and d.type.hex_cover and uid not in out and not u.state.get("tunnel")
                and not u.state.get("floor") and not u.state.get("eliminated")):
            out[uid] = d.code
    return out


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


def los_obstacles(game: Game, ends: tuple[Soldier | None, Soldier | None],
                  a: Hex | None = None, b: Hex | None = None,
                  hexes: tuple[Hex, ...] = ()) -> list[Obstacle]:
    """The defensive units on a line of sight from ``a`` to ``b`` (``ends`` the two soldiers):

    * the rim of a hole around a soldier in it, at the ground's height (Firepower 10.5.2,
      8.8.2.1): judged by the heights like a hill at his end of the line;
    * a soldier in a pillbox sees and is seen only through its front loophole: Crouching
      (Firepower 8.8.4.2: the only posture that uses it) and within the front hexside's arc
      (Firepower 8.8.4.2, 12.1.6): otherwise an absolute block (docs/decisions.md FPD-93);
    * a bunker, pillbox, tower or block in a hex between is an obstacle to its top through the
      whole hex (Firepower 12.1.5; FPD-96)."""
    from hexwar.plugins.firepower.advanced_los import Obstacle
    from hexwar.plugins.firepower.advanced_terrain import ground_of

    out: list[Obstacle] = []
    units = game.state.units
    ds = defences(game)
    for s, other in ((ends[0], b), (ends[1], a)):
        if s is None or s.id not in units:
            continue
        t = in_defence(units[s.id])
        if not t:
            continue
        kind = types()[t]
        if kind.kind == "hole":
            out.append(Obstacle(s.hex, f"the rim of the {kind.name}",
                                ground_of(game, s.hex), "Firepower 8.8.2"))
        d = ds.get(s.hex)
        if kind.front_only and d is not None and d.front is not None and other is not None \
                and other != s.hex:
            if s.posture not in kind.loophole_postures:
                out.append(Obstacle(s.hex, f"the walls of the {kind.name} ({s.id} is not "
                                    "Crouching at its loophole)", 0, "Firepower 8.8.4.2",
                                    absolute=True))
            elif not in_arc(s.hex, d.front, other, "front60"):
                out.append(Obstacle(s.hex, f"the walls of the {kind.name} (its loophole faces "
                                    f"hexside {d.front})", 0, "Firepower 8.8.4.2",
                                    absolute=True))
    for h in hexes:
        d = ds.get(h)
        if d is not None and d.type.height and (d.type.kind in ("structure", "tower")
                                                 or d.type.hex_cover):
            out.append(Obstacle(h, d.type.name, ground_of(game, h) + d.type.height,
                                "Firepower 12.1.5"))
    return out


def ditch_depth(game: Game) -> dict[Hex, int]:
    """Firepower 8.8.5.3: the ditch hexes and the heights their ground is lowered."""
    return {h: d.type.depth for h, d in defences(game).items() if d.type.climb_only}


def holes(game: Game) -> dict[Hex, str]:
    """Firepower 12.7.2: the hexes with a hole in the ground (a foxhole or trench), by the
    type's code, for the fire's hit location (used by ``advanced_fire.step_hole``)."""
    return {h: d.type.code for h, d in defences(game).items() if d.type.kind == "hole"}
