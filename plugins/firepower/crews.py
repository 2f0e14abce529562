"""Crews and carried equipment of the Advanced Game (Firepower 10.1, Firepower 11.1.6).

* A weapon whose WEAPON CHART crew column is two or more is crewed by its holder and the soldiers
  who acquired it (``state.crew_of`` = the holder's id), stacked with him, facing his way and not
  Stunned (Firepower 10.1; :func:`~hexwar.plugins.firepower.advanced_fire.crew_of`).
* Crew losses: each crewman fewer than the column costs every member one MF
  (Firepower 10.1.2.1, :func:`crew_mf`); a lone crewman's automatic L weapon fires one burst
  (Firepower 10.1.2.2, in the fire check). While in a crew a soldier has the weapon's Move column
  too (Firepower 10.1.1).
* Actions ``acquire`` and ``discard`` (Firepower 11.1.6): join or leave a crew in the hex
  (11.1.6.2), of a soldier's weapon or of a weapon unit (:mod:`~hexwar.plugins.firepower.weapon_units`);
  pick up an item lying in the hex or drop one carried (11.1.6.1), his major personal weapon too
  (``what`` = "weapon": he is then unarmed, ``state.model`` = "", and acquires another lying in
  the hex, ``LMG4@B``, an enemy one carried but never fired); take an item from a friend in the
  hex (``from``, 11.1.6.5); take over a fallen holder's crew-served weapon (11.1.6.2). Items
  dropped lie in ``state.data["firepower"]["dropped"]`` (hex label -> item -> count), seen by
  both sides. The cost is one MF per item (the LEG MOVEMENT FACTOR EXPENDITURE CHART is not in
  the text: stand-in, docs/decisions.md FPD-57; rounds of one row and type are one item, FPD-88);
  a crewman who cannot pay it may discard with whatever he has left (Firepower 11.1.6.2).
* Casualties (Firepower 11.1.6.4, docs/decisions.md FPD-117): in the Advanced Game a soldier who
  falls leaves his major personal weapon and every item he carried lying in his hex (noted in
  ``state.fell_at``), to be acquired there like any item lying in a hex.
* Take-over (Firepower 11.1.6.2, FPD-118): a crewman stacked with a crew-served weapon's holder
  when he falls takes the weapon over for no MF, in the hex where it lies, as his first Action
  after the fall (or straight after discarding his own weapon); any other Action of his first,
  or leaving the hex, closes it, and the weapon is then acquired like any other lying there.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from hexwar.core.errors import RulesError
from hexwar.core.types import Modifier
from hexwar.plugins.firepower.actions import ActionType, mf_left
from hexwar.plugins.firepower.state import alive, data, fp_map

if TYPE_CHECKING:
    from hexwar.core.engine.game import Game
    from hexwar.core.engine.state import Unit

#: MF per item acquired or discarded (stand-in, docs/decisions.md FPD-57)
ITEM_COST = 1


def _crewed(u: Unit) -> int:
    from hexwar.plugins.firepower.advanced_fire import model_of
    from hexwar.plugins.firepower.weapon_chart import weapon

    try:
        return weapon(model_of(u.state)).crew
    except RulesError:
        return 1


def _phase(game: Game) -> dict[str, Any]:
    got = data(game).get("phase")
    return got if isinstance(got, dict) else {}


def crew_mf(game: Game, uid: str) -> list[Modifier]:
    """Firepower 10.1.2.1, 10.1.1: the MF a soldier loses to his crew: -1 per crewman missing
    from a crewed weapon (personal or a weapon unit) he holds or crews, and a crewman also takes
    the weapon's Move column, except in the Impulse in which he acquired it and still in the one
    in which he discarded it (Firepower 10.1.1)."""
    from hexwar.plugins.firepower import weapon_units as wu
    from hexwar.plugins.firepower.advanced_fire import crew_of, model_of
    from hexwar.plugins.firepower.weapon_chart import weapon

    u = game.state.units[uid]
    ph = _phase(game)
    out: list[Modifier] = []
    gone = (ph.get("crew_discarded") or {}).get(uid)
    if isinstance(gone, str) and not u.state.get("crew_of"):
        move = weapon(gone).move
        if move:  # Firepower 10.1.1: the loss lasts through the Impulse of the discard
            out.append(Modifier(f"discarded {gone} this Impulse", move, "Firepower 10.1.1"))
        return out
    acquired = uid in (ph.get("crew_acquired") or [])
    w_unit = u.state.get("crew_of")
    if wu.is_unit(game, w_unit):
        if wu.position(game, str(w_unit))[0] != u.hex:
            return out  # FPD-87: a crewman away from the weapon unit is not carrying it
        row = weapon(wu.model(game, str(w_unit)))
        missing = row.crew - len(wu.crew_members(game, str(w_unit)))
        if missing > 0:
            out.append(Modifier(f"{missing} crewman/men short on {w_unit} ({row.id})", -missing,
                                "Firepower 10.1.2.1"))
        if row.move and not acquired:
            out.append(Modifier(f"crewing {w_unit} ({row.id})", row.move, "Firepower 10.1.1"))
        return out
    holder_id = w_unit if isinstance(w_unit, str) else uid
    holder = game.state.units.get(str(holder_id))
    if holder is None or not alive(holder):
        return []
    need = _crewed(holder)
    if need >= 2:
        missing = need - crew_of(game, holder.id)
        if missing > 0:
            out.append(Modifier(f"{missing} crewman/men short on {model_of(holder.state)}",
                                -missing, "Firepower 10.1.2.1"))
    if holder.id != uid and not acquired:
        move = weapon(model_of(holder.state)).move
        if move:
            out.append(Modifier(f"crewing {model_of(holder.state)}", move, "Firepower 10.1.1"))
    return out


def _dropped(game: Game) -> dict[str, dict[str, int]]:
    d: dict[str, dict[str, int]] = data(game).setdefault("dropped", {})
    return d


def _lying(game: Game, u: Unit) -> dict[str, int]:
    assert u.hex is not None
    got = (data(game).get("dropped") or {}).get(fp_map(game).label(u.hex), {})
    return dict(got)


def casualty_leaves(game: Game, u: Unit) -> None:
    """Firepower 11.1.6.4 (FPD-117): called as ``u`` falls, still on the board: his weapon and
    items lie in his hex, his crewmen stacked with him may take a crew-served weapon over
    (Firepower 11.1.6.2, FPD-118)."""
    if u.hex is None or ("model" not in u.state and "equipment" not in u.state):
        return  # a Basic soldier: no organization list, nothing recorded
    label = fp_map(game).label(u.hex)
    u.state["fell_at"] = label
    lying = _dropped(game).setdefault(label, {})
    for item, n in sorted(dict(u.state.get("equipment") or {}).items()):
        lying[item] = int(lying.get(item, 0)) + int(n)
    if "equipment" in u.state:
        u.state["equipment"] = {}
    model = u.state.get("model")
    if isinstance(model, str) and model:
        crewed = _crewed(u) >= 2
        w = weapon_item(model, str(u.state.get("weapon_side") or u.side))
        lying[w] = int(lying.get(w, 0)) + 1
        u.state["model"] = ""
        u.state.pop("weapon_side", None)
        if crewed:
            opens = data(game).setdefault("take_over", {})
            for o in sorted(game.state.units.values(), key=lambda o: o.id):
                if o.state.get("crew_of") == u.id and o.hex == u.hex and alive(o):
                    opens[o.id] = {"holder": u.id, "hex": label, "weapon": w}
    if not lying:
        del _dropped(game)[label]


def acted(game: Game, uid: str, act: str) -> None:
    """FPD-118: ``uid`` has carried out an Action (``act``; a fire or throw: "fire"): any but a
    discard closes his take-over window, kept in the game state (``take_over``), not read back
    from the log (the discards close it themselves, but that of his own weapon)."""
    if act != "discard":
        _close_take_over(game, uid)


def _open_take_over(game: Game, u: Unit, holder: str | None = None) -> dict[str, Any] | None:
    """FPD-118: the take-over still open to ``u`` (of ``holder``'s weapon), else None."""
    rec = (data(game).get("take_over") or {}).get(u.id)
    if not isinstance(rec, dict) or (holder is not None and rec["holder"] != holder):
        return None
    assert u.hex is not None
    if (fp_map(game).label(u.hex) != rec["hex"]
            or int(_lying(game, u).get(str(rec["weapon"]), 0)) <= 0):
        return None
    return rec


def _close_take_over(game: Game, uid: str) -> None:
    opens = data(game).get("take_over")
    if isinstance(opens, dict) and uid in opens:
        del opens[uid]
        if not opens:
            del data(game)["take_over"]


def weapon_item(row: str, side: str) -> str:
    """A major personal weapon lying in a hex: its row and the side whose it is
    (Firepower 11.1.6.1: an enemy weapon may be acquired, not used)."""
    return f"{row}@{side}"


def _armed(u: Unit) -> bool:
    """He carries a major personal weapon (``state.model`` "" once discarded)."""
    return u.state.get("model") != ""


def _count(choice: dict[str, Any], item: str, have: int) -> int:
    """Firepower 11.1.6, FPD-88: rounds of one row and type are one item, any number of them
    moved at once (``count``, all by default); any other item one at a time."""
    from hexwar.plugins.firepower.ammunition import parse_item

    n = choice.get("count")
    if parse_item(item) is None:
        if n not in (None, 1):
            raise RulesError(f"{item} is acquired or discarded one at a time (an Action each)",
                             rule="Firepower 11.1.6")
        return 1
    if n is None:
        return have
    if not isinstance(n, int) or isinstance(n, bool) or not 1 <= n <= have:
        raise RulesError(f"'count' is 1 to {have} rounds of {item}, not {n!r}",
                         rule="Firepower 11.1.6")
    return n


def _check_acquire(game: Game, ph: dict[str, Any], choice: dict[str, Any]) -> dict[str, Any]:
    """Firepower 11.1.6: ``what`` is a weapon unit in the hex to crew (Firepower 10.1), a soldier
    of the hex whose crewed weapon to join (11.1.6.2: only weapons of two or more crew), the
    fallen holder of the crewed weapon he crews (11.1.6.2: taken over at once, for no MF, once
    his own weapon is discarded), or an item lying in the hex (11.1.6.1: a major personal weapon
    only by a soldier without one; enemy weapons may be acquired but not used); with ``from``, an
    item taken from a friendly soldier stacked with him (Firepower 11.1.6.5)."""
    from hexwar.plugins.firepower import weapon_units as wu
    from hexwar.plugins.firepower.weapon_chart import weapon

    u = game.state.units[choice["unit"]]
    what = choice.get("what")
    if not isinstance(what, str):
        raise RulesError("name the weapon unit or soldier whose weapon to crew, or the item to "
                         "pick up", rule="Firepower 11.1.6")
    assert u.hex is not None
    if wu.is_unit(game, what):
        if wu.is_missile(game, what):
            raise RulesError(f"{what} is a missile: it is fired from its hex by a control box, "
                             "not crewed", rule="Firepower 12.4.6")
        at, _facing = wu.position(game, what)
        if at != u.hex:
            raise RulesError(f"{what} is not in {u.id}'s hex", rule="Firepower 10.1")
        if u.state.get("crew_of"):
            raise RulesError(f"{u.id} already crews {u.state['crew_of']}",
                             rule="Firepower 11.1.6.2")
        return {"cost": ITEM_COST, "unit_crew": what}
    giver = choice.get("from")
    if giver is not None:
        return _check_take(game, u, what, giver, choice)
    holder = game.state.units.get(what)
    if holder is not None:
        if holder.state.get("eliminated") and u.state.get("crew_of") == holder.id:
            rec = _open_take_over(game, u, holder.id)
            if rec is None:
                raise RulesError(f"{u.id} may no longer take over {holder.id}'s weapon: it is "
                                 "taken over at once, in the hex where he fell, before any "
                                 "other Action (acquire it lying there instead; FPD-118)",
                                 rule="Firepower 11.1.6.2")
            if _armed(u):
                raise RulesError(f"{u.id} takes over {holder.id}'s "
                                 f"{str(rec['weapon']).split('@', 1)[0]} only once his own "
                                 "weapon is discarded", rule="Firepower 11.1.6.2")
            return {"cost": 0, "take_over": holder.id, "weapon": str(rec["weapon"])}
        if holder.id == u.id or holder.side != u.side or holder.hex != u.hex or not alive(holder):
            raise RulesError(f"{what} is not a soldier of {u.id}'s side in his hex",
                             rule="Firepower 10.1")
        if _crewed(holder) < 2:
            raise RulesError(f"{what}'s weapon needs no crew: soldiers become crewmen only of "
                             "weapons of two or more crew", rule="Firepower 10.1")
        if u.state.get("crew_of"):
            raise RulesError(f"{u.id} already crews {u.state['crew_of']}",
                             rule="Firepower 11.1.6.2")
        return {"cost": ITEM_COST, "crew": holder.id}
    lying = _lying(game, u)
    have = int(lying.get(what, 0))
    if have <= 0:
        raise RulesError(f"no {what} lies in {fp_map(game).label(u.hex)} (lying there: "
                         f"{', '.join(sorted(lying)) or 'nothing'})", rule="Firepower 11.1.6.1")
    if "@" in what:
        row = what.split("@", 1)[0]
        weapon(row)  # a known row
        if _armed(u):
            raise RulesError(f"{u.id} carries a major personal weapon: he discards it before he "
                             f"acquires {row}", rule="Firepower 11.1.6.1")
        return {"cost": ITEM_COST, "weapon": what}
    return {"cost": ITEM_COST, "item": what, "count": _count(choice, what, have)}


def _check_take(game: Game, u: Unit, what: str, giver: Any, choice: dict[str, Any]
                ) -> dict[str, Any]:
    """Firepower 11.1.6.5: an item of equipment (grenades, rounds...) handed over by a friendly
    soldier stacked with him; the giver spends nothing (docs/decisions.md FPD-88)."""
    g = game.state.units.get(giver) if isinstance(giver, str) else None
    if g is None or g.id == u.id or g.side != u.side or g.hex != u.hex or not alive(g):
        raise RulesError(f"{giver!r} is not a soldier of {u.id}'s side in his hex",
                         rule="Firepower 11.1.6.5")
    have = int(dict(g.state.get("equipment") or {}).get(what, 0))
    if have <= 0:
        raise RulesError(f"{g.id} carries no {what} (he carries "
                         f"{dict(g.state.get('equipment') or {}) or 'nothing'})",
                         rule="Firepower 11.1.6.5")
    return {"cost": ITEM_COST, "item": what, "from": g.id, "count": _count(choice, what, have)}


def _add(u: Unit, item: str, n: int) -> None:
    eq = dict(u.state.get("equipment") or {})
    eq[item] = int(eq.get(item, 0)) + n
    u.state["equipment"] = eq


def _remove(u: Unit, item: str, n: int) -> None:
    eq = dict(u.state.get("equipment") or {})
    eq[item] = int(eq[item]) - n
    if not eq[item]:
        del eq[item]
    u.state["equipment"] = eq


def _apply_acquire(game: Game, ph: dict[str, Any], info: dict[str, Any]) -> None:
    from hexwar.plugins.firepower import weapon_units as wu

    u = game.state.units[info["unit"]]
    if "unit_crew" in info or "crew" in info:
        # Firepower 10.1.1: no Move column loss in the Impulse of the acquisition
        ph.setdefault("crew_acquired", []).append(u.id)
        if "unit_crew" in info:
            wu.join(game, u.id, str(info["unit_crew"]))
        else:
            u.state["crew_of"] = info["crew"]
        return
    if "take_over" in info:
        fallen = game.state.units[str(info["take_over"])]
        _take_lying(game, u, str(info["weapon"]), 1)
        u.state.pop("crew_of", None)
        for o in game.state.units.values():  # the rest of the crew now crew him
            if o.state.get("crew_of") == fallen.id and alive(o):
                o.state["crew_of"] = u.id
                _close_take_over(game, o.id)
        _close_take_over(game, u.id)
        return
    if "from" in info:
        giver = game.state.units[str(info["from"])]
        _remove(giver, str(info["item"]), int(info["count"]))
        _add(u, str(info["item"]), int(info["count"]))
        return
    item = str(info.get("weapon") or info["item"])
    n = int(info.get("count", 1))
    _take_lying(game, u, item, n)
    if "weapon" in info:
        _close_take_over(game, u.id)
        crewed = game.state.units.get(str(u.state.get("crew_of")))
        if crewed is not None and crewed.state.get("eliminated"):
            u.state.pop("crew_of", None)  # no crew of a fallen man's weapon (FPD-118)


def _take_lying(game: Game, u: Unit, item: str, n: int) -> None:
    """Strike ``n`` of ``item`` off the items lying in ``u``'s hex and give them to him (a
    weapon, ``ROW@side``, becomes his major personal weapon)."""
    assert u.hex is not None
    label = fp_map(game).label(u.hex)
    lying = _dropped(game)[label]
    lying[item] = int(lying[item]) - n
    if not lying[item]:
        del lying[item]
    if not lying:
        del _dropped(game)[label]
    if "@" in item:
        row, side = item.split("@", 1)
        u.state["model"] = row
        if side != u.side:
            u.state["weapon_side"] = side  # Firepower 11.1.6.1: carried, never fired
        else:
            u.state.pop("weapon_side", None)
        return
    _add(u, item, n)


def _check_discard(game: Game, ph: dict[str, Any], choice: dict[str, Any]) -> dict[str, Any]:
    """Firepower 11.1.6: leave the crew (``what`` = "crew"; a crewman short of the MF discards
    with what he has, Firepower 11.1.6.2), drop his major personal weapon (``what`` = "weapon",
    Firepower 11.1.6.1), or drop a carried item into the hex."""
    from hexwar.plugins.firepower.advanced_fire import model_of

    u = game.state.units[choice["unit"]]
    what = choice.get("what")
    if what == "crew":
        if not u.state.get("crew_of"):
            raise RulesError(f"{u.id} crews no weapon", rule="Firepower 11.1.6.2")
        left = mf_left(game, ph, u.id)
        return {"cost": min(ITEM_COST, left) if left > 0 else 0, "leave": True}
    if what == "weapon":
        if not _armed(u):
            raise RulesError(f"{u.id} carries no major personal weapon",
                             rule="Firepower 11.1.6.1")
        return {"cost": ITEM_COST, "weapon": model_of(u.state)}
    eq = dict(u.state.get("equipment") or {})
    if not isinstance(what, str) or int(eq.get(what, 0)) <= 0:
        raise RulesError(f"{u.id} carries no {what!r} (he carries {eq or 'nothing'})",
                         rule="Firepower 11.1.6")
    return {"cost": ITEM_COST, "item": what, "count": _count(choice, what, int(eq[what]))}


def _apply_discard(game: Game, ph: dict[str, Any], info: dict[str, Any]) -> None:
    from hexwar.plugins.firepower import weapon_units as wu
    from hexwar.plugins.firepower.advanced_fire import model_of

    u = game.state.units[info["unit"]]
    if info.get("leave"):
        crewed = str(u.state.get("crew_of"))
        holder = game.state.units.get(crewed)
        gone = (wu.model(game, crewed) if wu.is_unit(game, crewed)
                else model_of(holder.state) if holder is not None else None)
        if gone:  # Firepower 10.1.1: the Move column still binds him this Impulse
            ph.setdefault("crew_discarded", {})[u.id] = gone
        if wu.is_unit(game, crewed):
            wu.leave(game, u.id, crewed)
        else:
            u.state.pop("crew_of", None)
        _close_take_over(game, u.id)
        return
    assert u.hex is not None
    lying = _dropped(game).setdefault(fp_map(game).label(u.hex), {})
    if "weapon" in info:
        item = weapon_item(str(info["weapon"]), str(u.state.get("weapon_side") or u.side))
        u.state["model"] = ""
        u.state.pop("weapon_side", None)
        lying[item] = int(lying.get(item, 0)) + 1
        return
    item = str(info["item"])
    n = int(info.get("count", 1))
    _remove(u, item, n)
    lying[item] = int(lying.get(item, 0)) + n
    _close_take_over(game, u.id)  # FPD-118: not his weapon's discard, another Action first


def _no_options(game: Game, ph: dict[str, Any], uid: str) -> list[dict[str, Any]]:
    return []  # controllers name these Actions themselves (the AI does not crew yet)


def crewmen_of(game: Game, uid: str) -> list[Unit]:
    """Firepower 10.1: the effective crewmen of the weapon soldier ``uid`` carries (he not
    counted): stacked with him, facing his way, not Stunned or Inactive."""
    u = game.state.units[uid]
    return [o for o in game.state.units.values()
            if o.state.get("crew_of") == uid and o.hex == u.hex and o.facing == u.facing
            and o.state.get("status") not in ("stunned", "inactive") and alive(o)]


def _crew_list(game: Game, uid: str, w_unit: str | None) -> list[Unit]:
    from hexwar.plugins.firepower import weapon_units as wu

    return wu.crew_members(game, w_unit) if w_unit is not None else crewmen_of(game, uid)


def crew_squads(game: Game, uid: str, w_unit: str | None = None) -> list[str]:
    """Firepower 9.2: the other squads whose soldiers crew the weapon ``uid`` fires (his own, or
    the weapon unit ``w_unit``)."""
    from hexwar.plugins.firepower.advanced_impulses import squad_key

    mine = squad_key(game, game.state.units[uid])
    return sorted({squad_key(game, game.state.units[h]) for h in helpers(game, uid, w_unit)}
                  - {mine})


def helpers(game: Game, uid: str, w_unit: str | None = None) -> list[str]:
    """Firepower 10.1.1: the crewmen who help ``uid`` fire his crewed weapon (or the weapon unit
    ``w_unit``): the rest of its effective crew, less those who made a Combat Action of their own
    this Impulse Phase (a crewman helps fire or uses his own weapon, not both)."""
    busy = set(_phase(game).get("combat") or [])
    return sorted(o.id for o in _crew_list(game, uid, w_unit) if o.id != uid and o.id not in busy)


def check_helper(game: Game, uid: str) -> None:
    """Firepower 10.1.1: a crewman who has helped fire his crewed weapon this Impulse Phase does
    not fire his own (or anything else) in it."""
    if uid in (_phase(game).get("crew_helped") or []):
        raise RulesError(f"{uid} has helped fire the weapon he crews this Impulse Phase: not his "
                         "own weapon too", rule="Firepower 10.1.1")


def mark_helpers(game: Game, uid: str, w_unit: str | None = None) -> None:
    ph = _phase(game)
    if not ph:
        return
    got = ph.setdefault("crew_helped", [])
    got.extend(h for h in helpers(game, uid, w_unit) if h not in got)


def check_squads(game: Game, uid: str, w_unit: str | None = None) -> None:
    """Firepower 9.2: a weapon crewed by soldiers of two squads needs one Impulse from each: the
    fire is refused if another crewing squad has no Impulse left (or none this Impulse Phase)."""
    from hexwar.plugins.firepower.advanced_impulses import impulses_left

    ph = _phase(game)
    if "squads" not in ph:
        return
    for q in crew_squads(game, uid, w_unit):
        if not impulses_left(game, q):
            raise RulesError(f"the weapon {uid} fires is crewed by soldiers of squad {q} too, "
                             "and that squad has no Impulse left this Impulse Phase (discard "
                             "them from the crew, or wait)", rule="Firepower 9.2")


def use_squads(game: Game, uid: str, w_unit: str | None = None) -> None:
    """Firepower 9.2: the fire takes an Impulse of each other crewing squad."""
    ph = _phase(game)
    if "squads" not in ph:
        return
    for q in crew_squads(game, uid, w_unit):
        if q in ph["squads"]:
            ph["squads"][q] = int(ph["squads"][q]) + 1


ACQUIRE = ActionType("acquire", _check_acquire, _apply_acquire, _no_options,
                     rule="Firepower 11.1.6")
DISCARD = ActionType("discard", _check_discard, _apply_discard, _no_options,
                     rule="Firepower 11.1.6")


def _check_arm(game: Game, ph: dict[str, Any], choice: dict[str, Any]) -> dict[str, Any]:
    """Firepower 11.1.13, 12.4.9: arming a demolition charge the soldier carries takes all his MF
    (none spent before in the Impulse)."""
    from hexwar.plugins.firepower.weapon_chart import weapon

    u = game.state.units[choice["unit"]]
    item = choice.get("item", "DMC1")
    eq = dict(u.state.get("equipment") or {})
    if not isinstance(item, str) or int(eq.get(item, 0)) <= 0 or weapon(item).cls != "DMC":
        raise RulesError(f"{u.id} carries no demolition charge {item!r}", rule="Firepower 12.4.9")
    if int(ph["spent"].get(u.id, 0)):
        raise RulesError("arming a demolition charge takes all the soldier's MF",
                         rule="Firepower 11.1.13")
    left = mf_left(game, ph, u.id)
    if left <= 0:
        raise RulesError(f"{u.id} has no MF to arm the charge", rule="Firepower 11.1.13")
    return {"cost": left, "item": item}


def _apply_arm(game: Game, ph: dict[str, Any], info: dict[str, Any]) -> None:
    from hexwar.plugins.firepower.advanced_fire import arm_charge

    ch = arm_charge(game, info["unit"], info["item"])
    game.emit("arm_charge", hex=ch["hex"], unit=info["unit"], rule="Firepower 12.4.9")


def _arm_options(game: Game, ph: dict[str, Any], uid: str) -> list[dict[str, Any]]:
    """Firepower 11.1.13, 12.4.9: one ``arm`` option per kind of demolition charge carried, while
    the soldier has spent no MF this Impulse (docs/decisions.md FPD-158)."""
    from hexwar.plugins.firepower.weapon_chart import weapon

    u = game.state.units[uid]
    if int(ph["spent"].get(uid, 0)) or mf_left(game, ph, uid) <= 0:
        return []
    out = []
    for item, n in sorted(dict(u.state.get("equipment") or {}).items()):
        if str(item).startswith("DMC") and int(n) > 0 and weapon(str(item)).cls == "DMC":
            out.append({"unit": uid, "act": "arm", "item": str(item)})
    return out


ARM = ActionType("arm", _check_arm, _apply_arm, _arm_options, rule="Firepower 12.4.9")
