"""Weapon units (Firepower 10.1, Firepower 11.1.6.2): counters that are only a weapon (an LCW),
with no soldier of their own, crewed by the soldiers stacked with them.

* On the map: the scenario places them (``special.weapon_units = [{id = "W1", model = "LCW1",
  side = "A", hex = "H5", facing = 2}]``; checked before play: a WEAPON CHART row of class LCW,
  a hex of the board, a hexside 1-6, an id no soldier has). They are public: both sides see
  counters (``state.data["firepower"]["weapon_units"]``).
* Crewed: a soldier in its hex ``acquire``s it (``what`` = its id) and becomes a crewman
  (``state.crew_of`` = its id); he counts in its crew while stacked with it, facing its way and
  not Stunned (Firepower 10.1). Each crewman has the weapon's Move column and -1 MF per crewman
  short of its Crew column (Firepower 10.1.1, 10.1.2.1; :func:`~hexwar.plugins.firepower.crews.crew_mf`).
* Moved: the first crewman to acquire it carries it (its ``holder``): it is where he is and faces
  his way, so it moves with him, at his crew-reduced MF (a lone crewman of an LCW1 has none:
  10.1 "require a crew to be moved"); the others follow to stay in its crew. When the holder
  leaves the crew or is eliminated, it stays where he last was, and the next crewman stacked with
  it (by id) carries it (docs/decisions.md FPD-87).
* Fired: by a crewman, naming it as the item (``{"act": "grenade", "unit", "hex", "item": "W1",
  "ammo"}``), with its crew counted as for a crew-served personal weapon (loading, Firepower
  11.1.12, is noted for the unit; rounds are the crew's, Firepower 8.5). An enemy weapon unit may
  be crewed and moved but not fired (Firepower 11.1.6.1).

* Missiles (MSL, Firepower 12.4.6): placed before play in a hex that is not a confined space
  (not a building, bunker, pillbox or tower hex); never crewed or carried; fired once, at "all" his MF (none
  spent before in the Impulse Phase), by a soldier of its side carrying a control box (``CBX``)
  in its hex or up to its row's ``separation`` hexes away, with his line of sight (and range:
  docs/decisions.md FPD-92); then removed from the game.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from hexwar.core.errors import RulesError
from hexwar.core.hexgrid import Hex

if TYPE_CHECKING:
    from hexwar.core.engine.game import Game
    from hexwar.core.engine.state import Unit

RULE = "Firepower 10.1"
#: the WEAPON CHART classes that are weapon units, not a soldier's weapon (Firepower 10.1)
UNIT_CLASSES = ("LCW", "MSL")


def records(game: Game) -> dict[str, dict[str, Any]]:
    from hexwar.plugins.firepower.state import data

    got: dict[str, dict[str, Any]] = data(game).setdefault("weapon_units", {})
    return got


def placed(game: Game) -> dict[str, dict[str, Any]]:
    """The weapon units' records as they are (none made: a check stays pure)."""
    from hexwar.plugins.firepower.state import data

    got = data(game).get("weapon_units")
    return got if isinstance(got, dict) else {}


def is_unit(game: Game, wid: object) -> bool:
    return isinstance(wid, str) and wid in placed(game)


def check_specs(game: Game, specs: Sequence[Any]) -> list[dict[str, Any]]:
    """Firepower 10.1: the scenario's weapon units, checked (RulesError naming the entry)."""
    from hexwar.plugins.firepower.weapon_chart import chart

    out: list[dict[str, Any]] = []
    seen: set[str] = set()
    for i, spec in enumerate(specs):
        where = f"special.weapon_units[{i}]"
        if not isinstance(spec, dict):
            raise RulesError(f"{where}: a weapon unit is a table with id, model, side, hex and "
                             "facing", rule=RULE)
        wid, model, side = spec.get("id"), spec.get("model"), spec.get("side")
        if not isinstance(wid, str) or not wid or wid in seen or wid in game.state.units:
            raise RulesError(f"{where}: the id {wid!r} is missing or already used", rule=RULE)
        row = chart().get(str(model))
        if row is None or row.cls not in UNIT_CLASSES:
            raise RulesError(f"{where}: {model!r} is not a weapon unit's row (an LCW of the "
                             "WEAPON CHART)", rule=RULE)
        if side not in game.scenario.sides:
            raise RulesError(f"{where}: no side {side!r}", rule=RULE)
        try:
            h = game.board.parse(str(spec.get("hex")))
        except Exception as exc:  # the board's own message names the label
            raise RulesError(f"{where}: {exc}", rule=RULE) from None
        if row.cls == "MSL" and _confined(game, h):
            raise RulesError(f"{where}: a missile unit may not be placed in a confined space "
                             f"({game.board.label(h)})", rule="Firepower 12.4.6")
        facing = spec.get("facing", 1)
        if not isinstance(facing, int) or isinstance(facing, bool) or not 1 <= facing <= 6:
            raise RulesError(f"{where}: a weapon unit faces a hexside 1-6, not {facing!r}",
                             rule="Firepower 4.3")
        seen.add(wid)
        out.append({"id": wid, "model": str(model), "side": str(side),
                    "hex": game.board.label(h), "facing": facing, "holder": None})
    return out


def _confined(game: Game, h: Hex) -> bool:
    """Firepower 12.4.6: a building, bunker, pillbox or tower hex (tunnels and caves are under
    or in the ground; vehicles are not built)."""
    from hexwar.plugins.firepower.advanced_terrain import adv_map
    from hexwar.plugins.firepower.defenses import defences

    d = defences(game).get(h)
    return adv_map(game).building(h) is not None or (d is not None and
                                                      d.type.kind in ("structure", "tower"))


def is_missile(game: Game, wid: str) -> bool:
    from hexwar.plugins.firepower.weapon_chart import weapon

    return weapon(model(game, wid)).cls == "MSL"


def check_missile(game: Game, uid: str, wid: str) -> tuple[str, int]:
    """Firepower 12.4.6, 11.1.7: the soldier may fire missile ``wid``: he carries a control box,
    is within its row's separation of it, it is of his side, and he has spent no MF this Impulse
    Phase (the fire takes all of them)."""
    from hexwar.plugins.firepower.state import data
    from hexwar.plugins.firepower.weapon_chart import weapon

    u = game.state.units[uid]
    row = weapon(model(game, wid))
    rule = "Firepower 12.4.6"
    if int(dict(u.state.get("equipment") or {}).get("CBX", 0)) <= 0:
        raise RulesError(f"{uid} carries no control box (CBX) to fire {wid}", rule=rule)
    if side(game, wid) != u.side:
        raise RulesError(f"{wid} is an enemy missile", rule="Firepower 11.1.6.1")
    at, _facing = position(game, wid)
    assert u.hex is not None
    if u.hex.distance(at) > row.separation:
        raise RulesError(f"{uid} is {u.hex.distance(at)} hexes from {wid}; its control box "
                         f"works up to {row.separation}", rule=rule)
    ph = data(game).get("phase") or {}
    if int((ph.get("spent") or {}).get(uid, 0)):
        raise RulesError(f"firing {wid} takes all of {uid}'s MF: he has spent some this Impulse "
                         "Phase", rule="Firepower 11.1.7")
    return row.id, 1


def fired_missile(game: Game, wid: str) -> None:
    """Firepower 12.4.6: once fired, the missile unit is removed from the game."""
    records(game).pop(wid, None)


def place(game: Game, specs: Sequence[Any]) -> None:
    """Put the weapon units ``specs`` on the board (all checked first: a bad one places none)."""
    got = check_specs(game, specs)
    recs = records(game)
    for r in got:
        recs[r.pop("id")] = r


def setup(game: Game) -> None:
    """Before play: the scenario's ``special.weapon_units``."""
    special = game.scenario.raw.get("special") or {}
    specs = special.get("weapon_units") if isinstance(special, dict) else None
    if isinstance(specs, list) and specs and not placed(game):
        place(game, specs)


def _holder(game: Game, wid: str, rec: Mapping[str, Any]) -> Unit | None:
    h = rec.get("holder")
    u = game.state.units.get(str(h)) if isinstance(h, str) else None
    if u is None or u.hex is None or u.state.get("eliminated") or u.state.get("crew_of") != wid:
        return None
    return u


def position(game: Game, wid: str) -> tuple[Hex, int]:
    """Where the weapon unit is and which way it faces: its holder's, else where it was left."""
    rec = placed(game)[wid]
    u = _holder(game, wid, rec)
    if u is not None:
        assert u.hex is not None
        return u.hex, u.facing
    return game.board.parse(str(rec["hex"])), int(rec["facing"])


def crewmen(game: Game, wid: str) -> list[Unit]:
    """Every soldier who has acquired the weapon unit and is still alive (crew or not)."""
    return sorted((u for u in game.state.units.values() if u.state.get("crew_of") == wid
                   and u.hex is not None and not u.state.get("eliminated")), key=lambda u: u.id)


def crew_members(game: Game, wid: str) -> list[Unit]:
    """Firepower 10.1: its effective crew: crewmen stacked with it, facing its way, not
    Stunned."""
    at, facing = position(game, wid)
    return [u for u in crewmen(game, wid) if u.hex == at and u.facing == facing
            and u.state.get("status") not in ("stunned", "inactive")]


def unit_of_firer(game: Game, uid: str) -> str | None:
    """The weapon unit a soldier crews, if any."""
    w = game.state.units[uid].state.get("crew_of")
    return w if is_unit(game, w) else None


def model(game: Game, wid: str) -> str:
    return str(placed(game)[wid]["model"])


def side(game: Game, wid: str) -> str:
    return str(placed(game)[wid]["side"])


def check_fire(game: Game, uid: str, wid: str) -> tuple[str, int]:
    """Firepower 10.1, 11.1.6.1: ``uid`` may fire weapon unit ``wid``: he is one of its effective
    crew, and it is of his side. Returns (its WEAPON CHART row, its crew)."""
    if is_missile(game, wid):
        return check_missile(game, uid, wid)
    u = game.state.units[uid]
    members = crew_members(game, wid)
    if u.state.get("crew_of") != wid:
        raise RulesError(f"{uid} does not crew {wid} (acquire it first)", rule="Firepower 11.1.6.2")
    if u not in members:
        raise RulesError(f"{uid} is not in {wid}'s crew now: a crewman is stacked with the weapon, "
                         "faces its way and is not Stunned", rule=RULE)
    if side(game, wid) != u.side:
        raise RulesError(f"{wid} is an enemy weapon: it may be acquired but not used",
                         rule="Firepower 11.1.6.1")
    return model(game, wid), len(members)


def join(game: Game, uid: str, wid: str) -> None:
    """Acquire: ``uid`` joins the crew; the first crewman with it carries it."""
    u = game.state.units[uid]
    u.state["crew_of"] = wid
    rec = records(game)[wid]
    if _holder(game, wid, rec) is None:
        at, facing = position(game, wid)
        rec["hex"], rec["facing"] = game.board.label(at), facing
        rec["holder"] = uid


def leave(game: Game, uid: str, wid: str) -> None:
    """Discard: ``uid`` leaves the crew; if he carried it, it stays where he is."""
    rec = records(game)[wid]
    if rec.get("holder") == uid:
        at, facing = position(game, wid)
        rec["hex"], rec["facing"], rec["holder"] = game.board.label(at), facing, None
    game.state.units[uid].state.pop("crew_of", None)
    follow(game)


def follow(game: Game) -> None:
    """After every Action (FPD-87): note where each carried weapon unit is (so that it stays
    there if its holder falls), and give a weapon unit nobody carries to the first crewman
    stacked with it."""
    recs = placed(game)
    for wid, rec in sorted(recs.items()):
        u = _holder(game, wid, rec)
        if u is not None:
            assert u.hex is not None
            label = game.board.label(u.hex)
            if (rec["hex"], rec["facing"]) != (label, u.facing):
                rec["hex"], rec["facing"] = label, u.facing
            continue
        at = game.board.parse(str(rec["hex"]))
        nxt = next((o for o in crewmen(game, wid) if o.hex == at), None)
        new = nxt.id if nxt is not None else None
        if rec.get("holder") != new:
            rec["holder"] = new


def seen(game: Game) -> list[dict[str, Any]]:
    """The weapon units on the board as both sides see them (Firepower 10.1: counters)."""
    out = []
    for wid in sorted(placed(game)):
        at, facing = position(game, wid)
        out.append({"id": wid, "model": model(game, wid), "side": side(game, wid),
                    "hex": game.board.label(at), "facing": facing,
                    "crew": [u.id for u in crew_members(game, wid)]})
    return out
