"""Defensive units of the Advanced Game other than caves (Firepower 8.8): foxholes (DFX, SFX),
trenches (TRN), wire and double wire (WIR, DWR), bunkers (BKR), pillboxes (PBX), towers (TWR),
abatis (ABS), blocks (BLK), ditches (DCH), roadblocks (RBL) and bridges (BRG: set up here, their
rules in :mod:`~hexwar.plugins.firepower.bridges`, docs/decisions.md FPD-122), with their effects
on movement, fire and the line of sight.

* Roadblocks (Firepower 8.8.5.4; FPD-115): ``{type = "RBL", hex, sides = [a, b]}``, a fence
  picture three heights high (:func:`roadblocks`, read by the Advanced line of sight and fire as
  a fence of its own height), never crossed (Firepower 11.1.3), climbed over (``climb``,
  ``what = "roadblock"``), no melee over it (Firepower 13).
* Melee by a tower's stairs (``tower_melee``, Firepower 13, 8.8.6; FPD-110); fire destroying the
  units with a terrain value (Firepower 12.3.4.2; FPD-112, :func:`fire_applied`).

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
    from hexwar.plugins.firepower.bridges import Bridge
    from hexwar.plugins.firepower.soldiers import Soldier
    from hexwar.plugins.firepower.terrain import Picture

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
    #: destroyed, the unit is removed and the hex is its own terrain (Firepower 12.3.4.2.1:
    #: wire, double wire, abatis); otherwise it leaves rubble (12.3.4.2.5)
    removed_when_destroyed: bool = False

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
                        bool(v.get("climb_only", False)),
                        bool(v.get("removed_when_destroyed", False)))
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
    #: a roadblock's picture: the two hexsides it joins (Firepower 8.8.5.4)
    sides: tuple[int, int] | None = None
    #: a bridge unit's bridge (Firepower 8.9; ``bridges``, docs/decisions.md FPD-122)
    bridge: Bridge | None = None
    #: a foxhole's or trench's side of a fence hex: a hexside of the part it lies in
    #: (Firepower 12.7.4; docs/decisions.md FPD-136)
    side: int | None = None

    def picture(self) -> Picture | None:
        """Firepower 8.8.5.4: a roadblock as a fence picture of its hex."""
        if self.sides is None:
            return None
        from hexwar.plugins.firepower.terrain import Picture

        return Picture("fence", self.hex, self.sides[0], self.sides[1])

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
        if known[str(code)].kind == "bridge":  # Firepower 8.9: a bridge of several hexes
            from hexwar.plugins.firepower.bridges import read_bridge

            br = read_bridge(game, known[str(code)], spec, where)
            for h in br.hexes:
                if h in out:
                    raise RulesError(f"{where}: {game.board.label(h)} already holds a "
                                     f"{out[h].type.name}", rule="Firepower 8.8")
                out[h] = Defence(known[str(code)], h, bridge=br)
            continue
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
        if t.kind == "hole":
            from hexwar.plugins.firepower.weather import paved

            if paved(game, h, alleys=False):  # Firepower 8.8.2: not dug into pavement
                raise RulesError(f"{where}: {lab} is pavement or a paved road: no {t.name} "
                                 "there", rule="Firepower 8.8.2")
        door = spec.get("door")
        if t.kind == "structure":
            if not isinstance(door, int) or isinstance(door, bool) or not 1 <= door <= 6:
                raise RulesError(f"{where}: a {t.name}'s door faces a hexside 1-6, not "
                                 f"{door!r}", rule="Firepower 8.8.4")
        elif door is not None:
            raise RulesError(f"{where}: only bunkers and pillboxes have a door",
                             rule="Firepower 8.8.4")
        sides = spec.get("sides")
        if t.kind == "picture":
            if (not isinstance(sides, list) or len(sides) != 2 or len(set(sides)) != 2
                    or not all(isinstance(x, int) and not isinstance(x, bool) and 1 <= x <= 6
                               for x in sides)):
                raise RulesError(f"{where}: a roadblock joins two hexsides of its hex "
                                 f"(sides = [a, b], 1-6), not {sides!r}", rule="Firepower 8.8.5.4")
            fm = fp_map_of(game)
            if h in fm.fence or h in fm.hedge:
                raise RulesError(f"{where}: {lab} has a fence or hedge picture already",
                                 rule="Firepower 8.8.5.4")
        elif sides is not None:
            raise RulesError(f"{where}: only a roadblock joins hexsides ('sides')",
                             rule="Firepower 8.8.5.4")
        bags = spec.get("sandbagged", False)
        if not isinstance(bags, bool) or (bags and not t.sandbagged_cover):
            raise RulesError(f"{where}: only a tower is sandbagged (true or false), not "
                             f"{bags!r} for a {t.name}", rule="Firepower 8.8.6")
        joins = (int(sides[0]), int(sides[1])) if isinstance(sides, list) else None
        out[h] = Defence(t, h, door if t.kind == "structure" else None, bags, joins,
                         side=_hole_side(game, t, h, spec.get("side"), where))
    return out


def _hole_side(game: Game, t: DefenceType, h: Hex, side: Any, where: str) -> int | None:
    """Firepower 12.7.4: the hexside of the part of a fence hex a foxhole or trench lies in
    (``side``; by default the lowest-numbered hexside that is not an end of the fence,
    docs/decisions.md FPD-136); None outside a fence hex."""
    pic: Picture | None = fp_map_of(game).fence.get(h)
    lab = game.board.label(h)
    if side is not None:
        if t.kind != "hole":
            raise RulesError(f"{where}: only a foxhole or trench in a fence hex has a side "
                             f"('side'), not a {t.name}", rule="Firepower 12.7.4")
        if pic is None:
            raise RulesError(f"{where}: {lab} has no fence: the {t.name} has no side of it "
                             "('side')", rule="Firepower 12.7.4")
        ok = [x for part in pic.sides() for x in part]
        if not isinstance(side, int) or isinstance(side, bool) or side not in ok:
            raise RulesError(f"{where}: the {t.name}'s side is a hexside of {lab} on one part "
                             f"of its fence ({', '.join(map(str, sorted(ok)))}), not {side!r}",
                             rule="Firepower 12.7.4")
        return side
    if pic is None or t.kind != "hole":
        return None
    return min(x for part in pic.sides() for x in part)


#: each game's defensive units left standing, by the destroyed hexes they were derived for
_LEFT: weakref.WeakKeyDictionary[Any, tuple[Any, dict[Hex, Defence]]] = \
    weakref.WeakKeyDictionary()


def fp_map_of(game: Game) -> Any:
    from hexwar.plugins.firepower.state import fp_map

    return fp_map(game)


def roadblocks(game: Game) -> dict[Hex, tuple[Picture, int]]:
    """Firepower 8.8.5.4: the standing roadblocks, as fence pictures with their height (read by
    the Advanced line of sight and fire as fences: docs/decisions.md FPD-115)."""
    out: dict[Hex, tuple[Picture, int]] = {}
    for h, d in defences(game).items():
        pic = d.picture()
        if pic is not None:
            out[h] = (pic, d.type.height)
    return out


def defences(game: Game) -> dict[Hex, Defence]:
    """The game's defensive units by hex (Firepower 8.8), less those fire has destroyed
    (Firepower 12.3.4.2; :func:`damage`)."""
    got = _CACHE.get(game)
    if got is None:
        got = read_defences(game, _specs(game)) if _specs(game) else {}
        _CACHE[game] = got
    fp = game.state.data.get("firepower", {})
    gone: list[str] = list(fp.get(DESTROYED) or [])
    added: list[dict[str, Any]] = list(fp.get(ADDED) or [])
    if not gone and not added:
        return got
    key = (tuple(gone), tuple((str(a["hex"]), int(a["since"])) for a in added))
    left = _LEFT.get(game)
    if left is None or left[0] != key:
        labels = set(gone)
        now = {h: d for h, d in got.items() if game.board.label(h) not in labels}
        for a in added:  # placed in play (12.3.4.2.4), unless destroyed since
            h = game.board.parse(str(a["hex"]))
            if str(a["hex"]) not in gone[int(a["since"]):] and h not in now:
                now[h] = Defence(types()[str(a["type"])], h, None, False, None)
        left = (key, now)
        _LEFT[game] = left
    return left[1]


def place_abatis(game: Game, h: Hex) -> bool:
    """Firepower 12.3.4.2.4: a destroyed tree leaves an abatis unit in its hex, a defensive unit
    with every abatis rule (8.8.5.1, 11.2.1; FPD-95, FPD-111) that fire may destroy in turn
    (12.3.4.2.1). Kept in ``state.data["firepower"]["defences_added"]`` with the count of
    destroyed units when placed, so an earlier unit destroyed in the hex does not remove it.
    A hex holds one defensive unit (FPD-130): where one stands already no abatis is placed
    (returns False)."""
    from hexwar.plugins.firepower.state import data

    if h in defences(game):
        return False
    fp = data(game)
    lab = game.board.label(h)
    fp[ADDED] = [*(fp.get(ADDED) or []),
                 {"type": "ABS", "hex": lab, "since": len(fp.get(DESTROYED) or [])}]
    dmg = dict(fp.get(DAMAGE) or {})
    if dmg.pop(lab, None) is not None:  # damage to an earlier unit there is not the abatis's
        fp[DAMAGE] = dmg
    game.emit("defense_placed", hex=lab, what=types()["ABS"].name, rule="Firepower 12.3.4.2.4")
    return True


#: ``state.data["firepower"]`` keys: the destroyed units' hexes, the damage noted per hex, the
#: units placed in play (an abatis from a destroyed tree, Firepower 12.3.4.2.4)
DESTROYED = "defences_destroyed"
DAMAGE = "defence_damage"
ADDED = "defences_added"


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
    if u.state.get("on_top") or u.state.get("roof_climb"):
        raise RulesError(f"{u.id} is on or up the outside of the {d.type.name}: he climbs down "
                         "first ('climb' down)", rule="Firepower 8.8.4")
    now = in_defence(u)
    if into and now:
        raise RulesError(f"{u.id} is already in the {d.type.name}", rule="Firepower 8.8.1")
    if not into and not now:
        raise RulesError(f"{u.id} is not in the {d.type.name}", rule="Firepower 8.8.1")
    way = "into" if into else "out of"
    if into and off_hole_side(game, u, d):
        raise RulesError(f"the {d.type.name} in {lab} lies on the part of the fence with "
                         f"hexside {d.side}; {u.id} is on the other part (he crosses the fence "
                         "first)", rule="Firepower 12.7.4")
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
    if d.type.kind == "tower":
        _check_stairs_clear(game, u, d, into)
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
    if not in_defence(u) and off_hole_side(game, u, d):
        return []  # Firepower 12.7.4: across the fence from the hole
    return [{"act": "position", "unit": uid, "into": not in_defence(u)}]


POSITION = ActionType("position", _check_position, _apply_position, _position_options,
                      rule="Firepower 8.8.1")


# ---------------------------------------------------------------------------------------------
# Melee up or down a tower's stairs (Firepower 13, 8.8.6, 10.8; docs/decisions.md FPD-110)
# ---------------------------------------------------------------------------------------------


def tower_level(u: Unit) -> str | None:
    """Where a soldier in a tower hex is for a melee by the stairs: ``floor`` (in the tower),
    ``ground`` (on the hex's ground, in no position, not Up, climbing or under the ground) or
    None (anywhere else: the stairs do not reach him)."""
    t = in_defence(u)
    if t is not None:
        return "floor" if types()[t].kind == "tower" else None
    if (u.state.get("tunnel") or u.state.get("up") is not None or u.state.get("climb")
            or u.state.get("on_top")):
        return None
    return "ground"


def _opposing_at(game: Game, u: Unit, level: str) -> list[Unit]:
    return sorted((o for o in game.state.units.values() if o.hex == u.hex and o.side != u.side
                   and not o.state.get("eliminated") and tower_level(o) == level),
                  key=lambda o: o.id)


def _check_stairs_clear(game: Game, u: Unit, d: Defence, into: bool) -> None:
    """Firepower 6.2.1, 13: the other end of the stairs holding opposing soldiers is reached
    only by a melee (``tower_melee``)."""
    there = "floor" if into else "ground"
    if tower_level(u) == ("ground" if into else "floor") and _opposing_at(game, u, there):
        raise RulesError(f"the tower's {there} in {game.board.label(d.hex)} holds opposing "
                         "soldiers: it is reached only by melee ('tower_melee')",
                         rule="Firepower 13")


def _check_tower_melee(game: Game, ph: dict[str, Any], choice: dict[str, Any]) -> dict[str, Any]:
    from hexwar.plugins.firepower.actions import _check_active
    from hexwar.plugins.firepower.advanced_melee import melee_modifiers
    from hexwar.plugins.firepower.state import rules_card

    u = game.state.units[choice["unit"]]
    assert u.hex is not None
    lab = game.board.label(u.hex)
    d = defences(game).get(u.hex)
    if d is None or d.type.kind != "tower":
        raise RulesError(f"{lab} has no tower: a melee by its stairs needs one",
                         rule="Firepower 8.8.6")
    others = choice.get("with", [])
    if not isinstance(others, list) or not all(isinstance(x, str) for x in others):
        raise RulesError("'with' lists the other attackers' ids", rule="Firepower 6.5")
    ids = [u.id, *others]
    if len(set(ids)) != len(ids):
        raise RulesError("each attacker is named once", rule="Firepower 6.5")
    level = tower_level(u)
    if level is None:
        raise RulesError(f"{u.id} is neither on the tower's floor nor on the ground of {lab}",
                         rule="Firepower 8.8.6")
    there = "ground" if level == "floor" else "floor"
    card = rules_card(game)
    costs: dict[str, int] = {}
    att: list[Unit] = []
    for uid in ids:
        a = u if uid == u.id else _check_active(game, ph, uid)
        if a.id in ph["combat"]:
            raise RulesError(f"{a.id} already made a Combat Action this Impulse Phase",
                             rule="Firepower 6.2.5")
        if a.hex != u.hex or tower_level(a) != level or a.side != u.side:
            raise RulesError(f"{a.id} is not on the tower's {level} in {lab} with {u.id}",
                             rule="Firepower 8.8.6")
        # Firepower 6.5, 11.1.8: the stairs' MF, then at least the melee's
        costs[a.id] = d.type.door_cost + card.mf_cost("melee", str(a.state.get("posture",
                                                                                "stand")))
        if mf_left(game, ph, a.id) < costs[a.id]:
            raise RulesError(f"{a.id} has {mf_left(game, ph, a.id)} MF left; up or down the "
                             f"stairs and a melee cost {costs[a.id]}", rule="Firepower 6.5")
        att.append(a)
    dfn = _opposing_at(game, u, there)
    if not dfn:
        raise RulesError(f"no opposing soldier on the tower's {there} in {lab}",
                         rule="Firepower 6.2.5.2")
    if there == "floor" and d.type.capacity and len(att) > d.type.capacity:
        raise RulesError(f"the tower in {lab} holds {d.type.capacity} soldiers of a side, "
                         f"not {len(att)} attackers", rule="Firepower 10.8")
    lift = d.type.floor if there == "floor" else 0
    extra = melee_modifiers(game, ids, [o.id for o in dfn], u.hex, at=dict.fromkeys(ids, lift),
                            rise=lift if there == "floor" else -d.type.floor)
    return {"cost": costs[u.id], "with": others, "costs": costs, "defenders": [o.id for o in dfn],
            "extra": extra, "there": there, "code": d.code, "lift": lift}


def _apply_tower_melee(game: Game, ph: dict[str, Any], info: dict[str, Any]) -> None:
    from hexwar.core.types import total
    from hexwar.plugins.firepower import combat
    from hexwar.plugins.firepower.state import eliminate

    ids = [str(info["unit"]), *info["with"]]
    for uid in info["with"]:  # the first attacker's MF and Combat Action are the framework's
        ph["spent"][uid] = int(ph["spent"].get(uid, 0)) + int(info["costs"][uid])
        ph["combat"].append(uid)
    units = game.state.units
    h = units[ids[0]].hex
    assert h is not None
    lab = game.board.label(h)
    dfn = list(info["defenders"])
    roll = game.dice.d10(f"melee on the tower stairs in {lab}")
    mod = combat.melee_modifier(len(ids), len(dfn))
    extra = list(info["extra"])
    winner = ("attacker" if roll + (mod.value if mod else 0) + total(extra) <= combat.MELEE_HIT
              else "defender")
    if winner == "attacker":  # Firepower 6.5.1, 6.5.3: the winners are where they met
        for o in dfn:
            eliminate(game, str(o), units[ids[0]].side, "Firepower 6.5.1")
        for uid in ids:
            a = units[uid]
            if info["there"] == "floor":
                a.state["in_defence"] = info["code"]
                a.state["stands_at"] = int(info["lift"])
            else:
                a.state.pop("in_defence", None)
                a.state.pop("stands_at", None)
            ph["done"].append(uid)
    else:
        for uid in ids:
            eliminate(game, uid, units[dfn[0]].side, "Firepower 6.5.1")
    game.report("melee", result={"roll": roll, "winner": winner, "attackers": ids,
                                 "defenders": dfn, "hex": lab, "tower": info["there"]},
                modifiers=([mod] if mod else []) + extra,
                rules=["Firepower 6.5.1", "Firepower 6.5.2", "Firepower 13", "Firepower 8.8.6"])


def _tower_melee_options(game: Game, ph: dict[str, Any], uid: str) -> list[dict[str, Any]]:
    u = game.state.units[uid]
    d = defences(game).get(u.hex) if u.hex is not None else None
    level = tower_level(u) if d is not None and d.type.kind == "tower" else None
    if level is None or not _opposing_at(game, u, "ground" if level == "floor" else "floor"):
        return []
    return [{"act": "tower_melee", "unit": uid}]


TOWER_MELEE = ActionType("tower_melee", _check_tower_melee, _apply_tower_melee,
                         _tower_melee_options, combat=True, rule="Firepower 13")


def check_move(game: Game, info: dict[str, Any]) -> None:
    """Refuse a move the defensive units forbid (raises RulesError; pure):

    * Firepower 8.8.3: no soldier enters a wire or double wire hex;
    * Firepower 8.8.2, 8.8.4, 8.8.6: a soldier in a position comes out of it before he leaves
      the hex;
    * Firepower 8.8.5.3: a ditch is entered and left only by climbing (``scale``);
    * Firepower 8.8.5.1, 11.2.1: entering an abatis hex or leaving one costs twice the MF, and
      so do a turn or a change of posture in one (FPD-111): the soldier must have them (the
      second half is paid by :func:`after_action`).

    A soldier in a tunnel moves under all of them (Firepower 8.8.8)."""
    act = info.get("act")
    from hexwar.plugins.firepower import bridges

    bridges.check(game, info)  # Firepower 8.9, 13: along the deck; melee on one level
    if act in TURNS:
        u = game.state.units[info["unit"]]
        if u.state.get("rbl_climb") or u.state.get("roof_climb"):
            raise RulesError(f"{u.id} is part way up a climb: he climbs on or back first",
                             rule="Firepower 11.1.11.2")
        _check_abatis_turn(game, info)
        return
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
        roof = u.state.get("on_top") or u.state.get("roof_climb")
        if roof:
            raise RulesError(f"{u.id} is on or up the {types()[str(roof)].name}: he climbs "
                             "down first ('climb' down)", rule="Firepower 11.1.11.2")
        t = in_defence(u)
        if t:
            kind = types()[t].kind
            raise RulesError(f"{u.id} is in the {types()[t].name}: he comes out first "
                             "('position' with into = false)",
                             rule={"structure": "Firepower 8.8.4", "tower": "Firepower 8.8.6"}
                             .get(kind, "Firepower 8.8.2"))
        here = ds.get(u.hex) if u.hex is not None else None
        _check_roadblock(game, u, here, there, act, dest)
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


#: the Actions in the hex that note (a) doubles in an abatis hex, besides moving (FPD-111)
TURNS = ("turn", "posture")


def _abatis_here(game: Game, u: Unit) -> Defence | None:
    d = defences(game).get(u.hex) if u.hex is not None else None
    if d is None or d.type.move_multiplier == 1 or u.state.get("tunnel"):
        return None
    return d


def _check_abatis_turn(game: Game, info: dict[str, Any]) -> None:
    """Firepower 11.2.1 (a), 8.8.5.1: in an abatis hex a turn or a change of posture costs twice
    too (docs/decisions.md FPD-111); the soldier must have the MF."""
    u = game.state.units[info["unit"]]
    d = _abatis_here(game, u)
    if d is None:
        return
    cost = int(info.get("cost", 0))
    need = cost * d.type.move_multiplier
    ph = game.state.data["firepower"]["phase"]
    left = mf_left(game, ph, u.id)
    if left < need:
        raise RulesError(f"{u.id} has {left} MF left; in an abatis hex a {info['act']} costs "
                         f"twice: {need}", rule="Firepower 11.2.1")
    after = ph["after"].get(u.id)
    if after is not None and need > int(after):
        raise RulesError(f"{u.id} announced only {after} more MF when firing; in an abatis hex "
                         f"the {info['act']} costs {need}", rule="Firepower 6.3.6")


def roadblock_part(u: Unit, pic: Picture) -> int:
    """The hexside of the part of a roadblock hex a soldier is on (``state.side``, as in a fence
    hex, Firepower 4.7; set on entering by :func:`after_action`)."""
    side = u.state.get("side")
    if isinstance(side, int) and not isinstance(side, bool) and side not in (pic.a, pic.b):
        return side
    return pic.default_side(u.facing)


def _check_roadblock(game: Game, u: Unit, here: Defence | None, there: Defence | None,
                     act: Any, dest: Hex) -> None:
    """Firepower 8.8.5.4, 11.1.3, 13: a roadblock (three heights) is climbed, never crossed:
    a soldier leaves its hex only by a hexside on his part of it; a melee into a roadblock hex
    meets only defenders on the part the attacker enters (none over the picture)."""
    assert u.hex is not None
    pic = here.picture() if here is not None else None
    if pic is not None:
        leave = u.hex.direction_to(dest) if act == "melee" else (
            u.facing if act == "enter" else opposite(u.facing))
        if leave is not None and leave not in (pic.a, pic.b) and \
                pic.part_of(leave) != pic.part_of(roadblock_part(u, pic)):
            raise RulesError(f"the roadblock in {game.board.label(u.hex)} stands between "
                             f"{u.id} and hexside {leave}: over two heights it is climbed "
                             "('climb', what = 'roadblock'), not crossed", rule="Firepower 11.1.3")
    far = there.picture() if there is not None and act == "melee" else None
    if far is None:
        return
    toward = u.hex.direction_to(dest)
    entering = opposite(toward) if toward is not None else None
    if entering is None or entering in (far.a, far.b):
        return
    dfn = [o for o in game.state.units.values() if o.hex == dest and o.side != u.side
           and not o.state.get("eliminated") and not o.state.get("tunnel")]
    if dfn and all(far.part_of(roadblock_part(o, far)) != far.part_of(entering) for o in dfn):
        raise RulesError(f"the roadblock in {game.board.label(dest)} (3 heights) stands between "
                         f"{u.id} and its defenders: no melee over it", rule="Firepower 13")


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
    """After an ``enter``, ``back``, ``turn`` or ``posture`` (``info`` as applied): the second
    half of an abatis hex's MF (Firepower 11.2.1; FPD-95, FPD-111), checked before the Action by
    :func:`check_move`. A bridge hex's level is set too (Firepower 8.9, :mod:`bridges`)."""
    if isinstance(action, dict):
        from hexwar.plugins.firepower import bridges

        bridges.after_action(game, info)  # Firepower 8.9: on the deck or under it (FPD-123)
    if not isinstance(action, dict) or info.get("act") not in ("enter", "back", *TURNS):
        return
    ds = defences(game)
    u = game.state.units.get(str(info.get("unit")))
    if not ds or u is None or u.hex is None or u.state.get("tunnel"):
        return
    there = ds.get(u.hex)
    pic = there.picture() if there is not None else None
    if pic is not None and info["act"] in ("enter", "back"):
        # Firepower 4.7, 8.8.5.4: on the part of the roadblock hex he came in by (FPD-115)
        came_in = opposite(u.facing) if info["act"] == "enter" else u.facing
        u.state["side"] = came_in if came_in not in (pic.a, pic.b) else \
            pic.default_side(u.facing)
    if info["act"] in TURNS:  # Firepower 11.2.1 (a): in the hex (FPD-111)
        extra = abatis_extra(game, u, ds.get(u.hex), None, int(info.get("cost", 0)))
    else:
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
    if ds and a is not None and b is not None:  # Firepower 8.9: the decks, slabs (FPD-124)
        from hexwar.plugins.firepower.bridges import los_obstacles as decks

        out.extend(decks(game, ends, a, b, hexes))
    return out


def ditch_depth(game: Game) -> dict[Hex, int]:
    """Firepower 8.8.5.3: the ditch hexes and the heights their ground is lowered."""
    return {h: d.type.depth for h, d in defences(game).items() if d.type.climb_only}


def holes(game: Game) -> dict[Hex, str]:
    """Firepower 12.7.2: the hexes with a hole in the ground (a foxhole or trench), by the
    type's code, for the fire's hit location (used by ``advanced_fire.step_hole``)."""
    return {h: d.type.code for h, d in defences(game).items() if d.type.kind == "hole"}


def hole_sides(game: Game) -> dict[Hex, int]:
    """Firepower 12.7.4: the holes in fence hexes, by a hexside of the part each lies in (used
    by ``advanced_fire.step_hole``: no roll for the hole when the other part is hit)."""
    return {h: d.side for h, d in defences(game).items()
            if d.type.kind == "hole" and d.side is not None}


def off_hole_side(game: Game, u: Unit, d: Defence) -> bool:
    """Firepower 12.7.4, 8.8.2: soldier ``u`` is on the other part of the fence hex from the
    foxhole or trench ``d`` (he crosses the fence before he gets in)."""
    side = u.state.get("side")
    if d.side is None or u.hex is None or not isinstance(side, int):
        return False
    pic: Picture | None = fp_map_of(game).fence.get(u.hex)
    if pic is None or side in (pic.a, pic.b):
        return False
    return pic.part_of(side) != pic.part_of(d.side)


# ---------------------------------------------------------------------------------------------
# Fire destroying defensive units (Firepower 12.3.4.2; docs/decisions.md FPD-112)
# ---------------------------------------------------------------------------------------------


def fire_applied(game: Game, ctx: Any) -> None:
    """After an Advanced fire (hook ``firepower_fire_applied``): a G, W or H-as-G impact damages
    the defensive unit with a terrain value in the impact hex by the penetration (Firepower
    12.3.4.2), and W in its blast zone too (Firepower 12.3.9). Applied after the blast, so the
    blast is resolved with the unit still standing."""
    from hexwar.plugins.firepower.advanced_fire import damaged_hexes, penetration
    from hexwar.plugins.firepower.weapon_chart import weapon

    f = ctx.extra.get("firing")
    if f is None or ctx.impact is None or not defences(game):
        return
    if f.ammo not in ("G", "W") and not (f.ammo == "H" and f.as_g):
        return
    w = weapon(f.item)
    pen = penetration(f, w)
    hexes = damaged_hexes(f, w, ctx.impact)
    felled = set(ctx.extra.get("felled") or ())
    for h in hexes:
        d = defences(game).get(h)
        # an abatis this very hit left (a tree destroyed, 12.3.4.2.4) is destroyed only later
        if d is not None and d.type.terrain_value and h not in felled:
            damage(game, d, pen)


def damage(game: Game, d: Defence, penetration: int) -> bool:
    """Firepower 12.3.4.2: ``penetration`` more damage to ``d`` (noted in the state); once the
    damage reaches its terrain value it is destroyed (returns True): wire, double wire and
    abatis are removed and the hex is its own terrain again (12.3.4.2.1); anything else leaves
    rubble (12.3.4.2.5), every soldier anywhere in a tower's hex is eliminated (12.3.4.2.5: on
    the surface, not in a tunnel under it), and those in or on a bunker or pillbox are in the
    rubble's hex."""
    from hexwar.plugins.firepower.state import data, eliminate

    fp = data(game)
    lab = game.board.label(d.hex)
    dmg = dict(fp.get(DAMAGE) or {})
    dmg[lab] = int(dmg.get(lab, 0)) + penetration
    fp[DAMAGE] = dmg
    if dmg[lab] < d.type.terrain_value:
        return False
    fp[DESTROYED] = [*(fp.get(DESTROYED) or []), lab]
    becomes = "its own terrain" if d.type.removed_when_destroyed else "rubble"
    if becomes == "rubble":  # the Advanced fire's rubble marker: cover in every direction
        fp["destroyed"] = {**(fp.get("destroyed") or {}), lab: "rubble"}
    rule = "Firepower 12.3.4.2.1" if becomes != "rubble" else "Firepower 12.3.4.2.5"
    game.emit("defense_destroyed", hex=lab, was=d.type.name, becomes=becomes, rule=rule)
    for u in sorted(game.state.units.values(), key=lambda u: u.id):
        if u.hex != d.hex or u.state.get("eliminated") or u.state.get("tunnel"):
            continue
        # a tower's or bridge's hex, or Up the roadblock (a bridge: on the deck or under it)
        if d.type.kind in ("tower", "bridge") or u.state.get("rbl_climb"):
            eliminate(game, u.id, None, "Firepower 12.3.4.2.5")
        elif in_defence(u) or u.state.get("on_top"):
            for k in ("in_defence", "on_top", "stands_at"):  # the rubble's hex
                u.state.pop(k, None)
    return True


# ---------------------------------------------------------------------------------------------
# Missiles and caves (Firepower 12.4.6; docs/decisions.md FPD-114)
# ---------------------------------------------------------------------------------------------


def check_missile_places(game: Game, specs: list[Any] | None = None) -> None:
    """Firepower 12.4.6: a missile unit is not placed in a cave hex, a confined space like the
    bunkers, pillboxes, towers and buildings ``weapon_units`` refuses (FPD-114); ``specs`` are
    the scenario's ``special.weapon_units`` unless given. Raises RulesError naming the entry
    (pure); entries it cannot read are the weapon units' own check's."""
    from hexwar.plugins.firepower.advanced_terrain import adv_map
    from hexwar.plugins.firepower.weapon_chart import chart

    if specs is None:
        special = game.scenario.raw.get("special") or {}
        got = special.get("weapon_units") if isinstance(special, dict) else None
        specs = list(got) if isinstance(got, list) else []
    caves = adv_map(game).caves if specs else {}
    for i, spec in enumerate(specs):
        if not isinstance(spec, dict):
            continue
        row = chart().get(str(spec.get("model")))
        if row is None or row.cls != "MSL":
            continue
        try:
            h = game.board.parse(str(spec.get("hex")))
        except Exception:  # weapon_units names a bad hex
            continue
        if h in caves:
            raise RulesError(f"special.weapon_units[{i}]: a missile unit may not be placed in a "
                             f"confined space ({game.board.label(h)} is a cave hex)",
                             rule="Firepower 12.4.6")
