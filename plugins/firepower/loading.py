"""Plot loading and unloading (Firepower 11.1.12, Firepower 10.1.2.2): the Advanced Game's Actions
``{"unit", "act": "load", "ammo": t}`` and ``{"unit", "act": "unload"}``, and their effect on fire.

Which weapons must be loaded separately (:func:`load_need`):

* a rate of fire "1+L" ("1+2L", ...) for the ammunition: one extra Impulse Phase of loading (two,
  ...) before every shot, even with a full crew (Firepower 10.7 item 5, Firepower 11.1.12);
* a weapon with its ammunition in groups (the WEAPON CHART row's ``load = [rounds, phases]``:
  MPL13 four rounds in two Impulse Phases, GLR1 thirty in one, FP-41): the whole group at once
  after it has been fired off;
* a weapon firing anything but L that needs two or more crewmen, with a lone crewman left: one
  Impulse Phase before every shot (Firepower 10.1.2.2, Firepower 11.1.12).

Loading is written down secretly, so the records are the side's secret records
(``game.state.data["firepower"]["secret"][side]["loads"]``, shown in that side's view alone, as
the tunnels and mines are), and a load or unload Action is logged for its side alone. A soldier
with no record holds his weapon loaded with one load of its first ammunition type, as set up
(docs/decisions.md FPD-71). Each load or unload note takes all the soldier's MF (none spent before
in the Impulse Phase); the notes need not be in consecutive Impulse Phases, and a note for
another ammunition type starts the count again (docs/decisions.md FPD-72).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from hexwar.core.errors import RulesError
from hexwar.plugins.firepower.actions import ActionType, mf_left
from hexwar.plugins.firepower.weapon_chart import ChartWeapon, weapon

if TYPE_CHECKING:
    from hexwar.core.engine.game import Game
    from hexwar.core.engine.state import Unit

RULE = "Firepower 11.1.12"


def extra_phases(rof: str) -> int:
    """Firepower 10.7 item 5: "1+L" -> 1 extra Impulse Phase of loading, "1+2L" -> 2; 0 for a
    rate of fire without loading."""
    if "+" not in rof:
        return 0
    tail = rof.split("+", 1)[1].strip().upper()
    if not tail.endswith("L"):
        return 0
    return int(tail[:-1] or "1")


def load_need(w: ChartWeapon, ammo: str, crew: int) -> tuple[int, int] | None:
    """(rounds one load holds, Impulse Phases one load takes) for weapon ``w`` firing ``ammo``
    with ``crew`` crewmen present; None if it fires without separate loading."""
    if w.load is not None:  # ammunition in groups (Firepower 11.1.12; FP-41)
        return w.load
    n = extra_phases(w.rof.get(ammo, ""))
    if n:
        return (1, n)
    if ammo != "L" and w.crew >= 2 and crew == 1:  # Firepower 10.1.2.2: a lone crewman
        return (1, 1)
    return None


def may_need_loading(w: ChartWeapon) -> bool:
    """Whether the weapon can ever need a load note (with some ammunition or crew)."""
    return (w.load is not None or any(extra_phases(r) for r in w.rof.values())
            or (w.crew >= 2 and any(t != "L" for t in w.types)))


def _records(game: Game, side: str) -> dict[str, Any]:
    """The side's load records, made on first write (so a check stays pure)."""
    from hexwar.plugins.firepower.hidden_setup import secret

    loads: dict[str, Any] = secret(game, side).setdefault("loads", {})
    return loads


def _record(game: Game, side: str, uid: str) -> dict[str, Any] | None:
    from hexwar.plugins.firepower.state import data

    rec = ((data(game).get("secret") or {}).get(side) or {}).get("loads", {}).get(uid)
    return dict(rec) if isinstance(rec, dict) else None


def _stock_of(game: Game, key: str, row: str, ammo: str) -> int | None:
    """Firepower 8.5: the rounds the weapon's holder (a soldier, or a weapon unit's crewmen)
    carries for it, None if unlimited (:mod:`~hexwar.plugins.firepower.ammunition`)."""
    from hexwar.plugins.firepower import weapon_units as wu
    from hexwar.plugins.firepower.ammunition import rounds_for, stock

    if wu.is_unit(game, key):
        counts = [stock(o.state, row, ammo) for o in wu.crewmen(game, key)]
        got = [c for c in counts if c is not None]
        return sum(got) if got else None
    return rounds_for(game, key, row, ammo)


def loaded_key(game: Game, side: str, key: str, w: ChartWeapon | None) -> tuple[str | None, int]:
    """(ammunition loaded, rounds left) of the weapon held under ``key`` (a soldier's id or a
    weapon unit's); (None, 0) when unloaded. No record: loaded as set up, one load of the first
    type (docs/decisions.md FPD-71), as far as the rounds carried reach (Firepower 8.5, FPD-88)."""
    rec = _record(game, side, key)
    if rec is None:
        if w is None or not w.types:
            return None, 0
        ammo = w.types[0]
        need = load_need(w, ammo, 1)
        n = need[0] if need else 1
        have = _stock_of(game, key, w.id, ammo)
        if have is not None:
            n = min(n, have)
        return (ammo, n) if n > 0 else (None, 0)
    got = rec.get("ammo")
    return (str(got) if got is not None else None), int(rec.get("rounds", 0))


def loaded(game: Game, u: Unit) -> tuple[str | None, int]:
    """(ammunition loaded, rounds left) of the soldier's own weapon (:func:`loaded_key`)."""
    return loaded_key(game, u.side, u.id, _weapon_of(u))


def loading_note(game: Game, u: Unit, key: str | None = None) -> dict[str, Any] | None:
    """The load or unload notes written so far for the soldier's weapon (or the weapon unit
    ``key``): kind, ammo, phases noted, needed."""
    rec = _record(game, u.side, key or u.id) or {}
    note = rec.get("note")
    return dict(note) if isinstance(note, dict) else None


def _weapon_of(u: Unit) -> ChartWeapon | None:
    from hexwar.plugins.firepower.advanced_fire import model_of

    try:
        w = weapon(model_of(u.state))
    except RulesError:
        return None
    return w if w.id else None


def _crew(game: Game, u: Unit) -> int:
    from hexwar.plugins.firepower.advanced_fire import crew_of

    return crew_of(game, u.id)


def _target(game: Game, u: Unit, choice: dict[str, Any]) -> tuple[str, ChartWeapon | None, int]:
    """The weapon a load or unload note is for: the weapon unit ``choice["weapon"]`` he crews
    (Firepower 10.1), else his own; with its key, row and crew."""
    from hexwar.plugins.firepower import weapon_units as wu

    wid = choice.get("weapon")
    if wid is None:
        return u.id, _weapon_of(u), _crew(game, u)
    if not wu.is_unit(game, wid):
        raise RulesError(f"no weapon unit {wid!r}", rule="Firepower 10.1")
    row, crew = wu.check_fire(game, u.id, str(wid))
    return str(wid), weapon(row), crew


def _all_mf(game: Game, ph: dict[str, Any], u: Unit, what: str) -> int:
    """Firepower 11.1.12: a note takes "all" the soldier's MF: none spent before, some left."""
    if int(ph["spent"].get(u.id, 0)):
        raise RulesError(f"{what} takes all of {u.id}'s MF: he has spent some this Impulse Phase",
                         rule=RULE)
    left = mf_left(game, ph, u.id)
    if left <= 0:
        raise RulesError(f"{u.id} has no MF for {what}", rule=RULE)
    return left


def _check_load(game: Game, ph: dict[str, Any], choice: dict[str, Any]) -> dict[str, Any]:
    u = game.state.units[choice["unit"]]
    if choice.get("item") is not None:
        return _check_rgn(game, ph, u, choice, "load")
    key, w, crew = _target(game, u, choice)
    if w is None or not may_need_loading(w):
        raise RulesError(f"{u.id}'s weapon is not loaded separately (no '1+L', no ammunition "
                         "groups, no crew of two or more)", rule=RULE)
    ammo = choice.get("ammo", w.types[0] if w.types else None)
    if not isinstance(ammo, str) or ammo not in w.types:
        raise RulesError(f"{w.id} fires {'/'.join(w.types)} ammunition, not {ammo!r}",
                         rule="Firepower 10.7")
    need = load_need(w, ammo, crew)
    if need is None:
        raise RulesError(f"{w.id} with {crew} crewman(men) fires {ammo} without separate loading "
                         "(Firepower 10.1.2.2: a lone crewman loads)", rule=RULE)
    have, rounds = loaded_key(game, u.side, key, w)
    if have is not None and rounds > 0:
        raise RulesError(f"{key}'s {w.id} is loaded with {have} ({rounds} left): fire or unload "
                         "it first", rule=RULE)
    stock = _stock_of(game, key, w.id, ammo)
    if stock is not None and stock < need[0]:
        rule = "Firepower 11.1.12" if need[0] > 1 else "Firepower 8.5"
        raise RulesError(f"{w.id} loads {need[0]} round(s) of {ammo} at a time; {stock} are "
                         "carried", rule=rule)
    cost = _all_mf(game, ph, u, "a load note")
    return {"cost": cost, "ammo": ammo, "item": w.id, "crew": crew, "key": key}


def _check_unload(game: Game, ph: dict[str, Any], choice: dict[str, Any]) -> dict[str, Any]:
    u = game.state.units[choice["unit"]]
    if choice.get("item") is not None:
        return _check_rgn(game, ph, u, choice, "unload")
    key, w, crew = _target(game, u, choice)
    have, rounds = loaded_key(game, u.side, key, w)
    if w is None or not may_need_loading(w) or have is None or rounds <= 0:
        raise RulesError(f"{key}'s weapon holds no load to unload", rule=RULE)
    cost = _all_mf(game, ph, u, "an unload note")
    return {"cost": cost, "ammo": have, "item": w.id, "crew": crew, "key": key}


def _note(game: Game, info: dict[str, Any], kind: str) -> None:
    """Write one note; when the Impulse Phases the load needs are noted, the weapon is loaded
    (or empty), ready from a later Impulse Phase on: this one's MF are all spent."""
    u = game.state.units[info["unit"]]
    if "rgn" in info:
        _note_rgn(game, u, info, kind)
        return
    key = str(info.get("key") or u.id)
    w = weapon(info["item"])
    ammo = str(info["ammo"])
    need = load_need(w, ammo, int(info["crew"])) or load_need(w, ammo, 1) or (1, 1)
    have, rounds = loaded_key(game, u.side, key, w)
    rec: dict[str, Any] = {"ammo": have, "rounds": rounds}
    old = loading_note(game, u, key)
    n = 1
    if old is not None and old.get("kind") == kind and old.get("ammo") == ammo:
        n = int(old["phases"]) + 1  # FPD-72: notes of one kind and ammunition add up
    if n >= need[1]:
        rec = ({"ammo": ammo, "rounds": need[0]} if kind == "load" else {"ammo": None, "rounds": 0})
    else:
        rec["note"] = {"kind": kind, "ammo": ammo, "phases": n, "needed": need[1]}
    prior = _record(game, u.side, key) or {}
    if "rgn" in prior:
        rec["rgn"] = prior["rgn"]
    _records(game, u.side)[key] = rec
    extra = {"item": f"on {key}"} if key != u.id else {}
    game.emit("loading", visible_to=[u.side], unit=u.id, kind=kind, ammo=ammo, phases=n,
              needed=need[1], ready=n >= need[1], rule=RULE, **extra)


# ---------------------------------------------------------------------------------------------
# Rifle grenades (Firepower 12.4.1.1, 12.4.1.2)
# ---------------------------------------------------------------------------------------------

RGN_RULE = "Firepower 12.4.1.1"


def rifle_grenade(game: Game, u: Unit) -> dict[str, str] | None:
    """The rifle grenade loaded on the soldier's rifle (item, ammunition), None if none: his side's
    secret load records (Firepower 11.1.12)."""
    rec = _record(game, u.side, u.id) or {}
    got = rec.get("rgn")
    return {"item": str(got["item"]), "ammo": str(got["ammo"])} if isinstance(got, dict) else None


def rifle_grenade_of(game: Game, uid: str) -> str | None:
    got = rifle_grenade(game, game.state.units[uid])
    return got["item"] if got else None


def check_launcher(u: Unit, item: str) -> ChartWeapon:
    """Firepower 12.4.1.1, 10.7 item 15: a rifle grenade is fired from a weapon with a rifle
    grenade launcher ("G" in its notes); a rifle with a GLR3 attached has none."""
    w = _weapon_of(u)
    if w is None or not w.grenade_launcher:
        raise RulesError(f"{u.id}'s {w.id if w else 'weapon'} has no rifle grenade launcher "
                         f"(\"G\" in its WEAPON CHART notes) to fire {item}", rule=RGN_RULE)
    return w


def _check_rgn(game: Game, ph: dict[str, Any], u: Unit, choice: dict[str, Any], kind: str
               ) -> dict[str, Any]:
    """Firepower 12.4.1.1, 12.4.1.2, 11.1.12: load a rifle grenade the soldier carries onto his
    rifle, or unload the one on it: all MF, one Impulse Phase each (docs/decisions.md FPD-91)."""
    from hexwar.plugins.firepower.advanced_fire import equipment_of
    from hexwar.plugins.firepower.ammunition import split_version, versions_carried

    item = choice.get("item")
    version: str | None = None
    if isinstance(item, str):
        item, version = split_version(item)  # Firepower 8.5: RGN1-H is RGN1's H version
    row = weapon(str(item)) if isinstance(item, str) else None
    if row is None or row.cls not in ("RGN", "HRG"):
        raise RulesError(f"{item!r} is no rifle grenade (RGN, or HRG used as one)",
                         rule=RGN_RULE)
    check_launcher(u, row.id)
    on = rifle_grenade(game, u)
    if kind == "load":
        if not row.separate_load:
            raise RulesError(f"{row.id} is fired without separate loading", rule=RGN_RULE)
        have = versions_carried(equipment_of(u.state), row.id)
        if not have:
            raise RulesError(f"{u.id} carries no {row.id}", rule="Firepower 8.5")
        if on is not None:
            raise RulesError(f"{u.id}'s rifle already holds {on['item']}: fire or unload it "
                             "first", rule=RGN_RULE)
        first = next(t for t in row.types if t in have)
        ammo = choice.get("ammo", version or first)
        if not isinstance(ammo, str) or ammo not in row.types:
            raise RulesError(f"{row.id} is {'/'.join(row.types)}, not {ammo!r}",
                             rule="Firepower 10.7")
        if version is not None and ammo != version:
            raise RulesError(f"{item} is the {version} version of {row.id}, not {ammo}",
                             rule="Firepower 8.5")
        if have.get(ammo, 0) <= 0:  # FPD-116: the versions are fixed in the list
            raise RulesError(f"{u.id} carries no {row.id} of the {ammo} version (he carries "
                             f"{', '.join(f'{n} {t}' for t, n in sorted(have.items()))})",
                             rule="Firepower 8.5")
    else:
        if on is None or on["item"] != row.id:
            raise RulesError(f"{u.id}'s rifle holds no {row.id} to unload", rule=RGN_RULE)
        ammo = on["ammo"]
    cost = _all_mf(game, ph, u, f"{'loading' if kind == 'load' else 'unloading'} a rifle "
                                "grenade")
    return {"cost": cost, "rgn": row.id, "ammo": ammo}


def _note_rgn(game: Game, u: Unit, info: dict[str, Any], kind: str) -> None:
    """One Impulse Phase of the note loads or unloads the rifle grenade (the "1+L" of Firepower
    11.1.12 for a rifle grenade: docs/decisions.md FPD-91); it stays in his equipment until
    fired (so the other side does not learn of the load)."""
    rec = _record(game, u.side, u.id) or {}
    if kind == "load":
        rec["rgn"] = {"item": info["rgn"], "ammo": info["ammo"]}
    else:
        rec.pop("rgn", None)
    _records(game, u.side)[u.id] = rec
    game.emit("loading", visible_to=[u.side], unit=u.id, kind=kind, ammo=str(info["ammo"]),
              item=str(info["rgn"]), phases=1, needed=1, ready=True, rule=RGN_RULE)


def check_rgn_fire(game: Game, uid: str, item: str, mode: str, ammo: str | None = None) -> None:
    """Firepower 12.4.1.1, 12.4.1.2 at the fire: a rifle grenade (an RGN, or an HRG fired in mode
    ``rifle``) needs the launcher and, if its row must be loaded separately, to be the one loaded
    on the rifle; an HRG loaded as a rifle grenade is not thrown unless he carries another; while
    a rifle grenade is on the rifle, the rifle does not fire normally."""
    from hexwar.plugins.firepower.advanced_fire import equipment_of, model_of
    from hexwar.plugins.firepower.ammunition import versions_carried

    u = game.state.units[uid]
    on = rifle_grenade(game, u)
    row = weapon(item) if item else None
    if row is not None and item == model_of(u.state) and on is not None:
        raise RulesError(f"{uid}'s rifle holds {on['item']}: it fires normally only once the "
                         "rifle grenade is fired or unloaded", rule=RGN_RULE)
    if row is None or row.cls not in ("RGN", "HRG"):
        return
    as_rifle = row.cls == "RGN" or mode == "rifle"
    if not as_rifle:
        if on is not None and on["item"] == row.id and \
                sum(versions_carried(equipment_of(u.state), row.id).values()) <= 1:
            raise RulesError(f"{uid}'s {row.id} is loaded as a rifle grenade: it is used as one "
                             "unless unloaded", rule="Firepower 12.4.1.2")
        return
    check_launcher(u, row.id)
    if row.separate_load and (on is None or on["item"] != row.id):
        raise RulesError(f"{row.id} must be loaded on the rifle first (a load note of all MF in "
                         "an earlier Impulse Phase)", rule=RGN_RULE)
    if row.separate_load and on is not None and ammo is not None and on["ammo"] != ammo:
        raise RulesError(f"the {row.id} on {uid}'s rifle is the {on['ammo']} version, not "
                         f"{ammo} (Firepower 8.5)", rule=RGN_RULE)


def rgn_fired(game: Game, uid: str, item: str) -> None:
    """The rifle grenade on the rifle is gone once fired."""
    u = game.state.units[uid]
    on = rifle_grenade(game, u)
    if on is not None and on["item"] == item:
        rec = _record(game, u.side, uid) or {}
        rec.pop("rgn", None)
        _records(game, u.side)[uid] = rec


LOAD = ActionType("load", _check_load, lambda g, ph, info: _note(g, info, "load"),
                  lambda g, ph, uid: _options(g, ph, uid), rule=RULE, secret=True)
UNLOAD = ActionType("unload", _check_unload, lambda g, ph, info: _note(g, info, "unload"),
                    None, rule=RULE, secret=True)


def _options(game: Game, ph: dict[str, Any], uid: str) -> list[dict[str, Any]]:
    """A load note for each ammunition type that needs one, when the weapon is empty and rounds
    are carried for it."""
    u = game.state.units[uid]
    w = _weapon_of(u)
    if w is None or not may_need_loading(w) or int(ph["spent"].get(uid, 0)):
        return []
    have, rounds = loaded(game, u)
    if have is not None and rounds > 0:
        return []
    crew = _crew(game, u)
    out = []
    for t in w.types:
        need = load_need(w, t, crew)
        stock = _stock_of(game, uid, w.id, t)
        if need is not None and (stock is None or stock >= need[0]):
            out.append({"unit": uid, "act": "load", "ammo": t})
    return out


def _fired_key(game: Game, uid: str, item: str) -> tuple[str, ChartWeapon] | None:
    """The key and row of the loaded weapon a fire of ``item`` by ``uid`` uses: his own, or the
    weapon unit he crews (Firepower 10.1); None for an item carried (a grenade, a charge)."""
    from hexwar.plugins.firepower import weapon_units as wu

    u = game.state.units[uid]
    w = _weapon_of(u)
    if w is not None and w.id == item:
        return uid, w
    wid = wu.unit_of_firer(game, uid)
    if wid is not None and wu.model(game, wid) == item:
        return wid, weapon(item)
    return None


def check_fire_loaded(game: Game, uid: str, item: str, ammo: str, crew: int) -> None:
    """Firepower 11.1.12: a weapon that must be loaded separately fires only loaded, with the
    ammunition it was loaded with."""
    got = _fired_key(game, uid, item)
    if got is None:
        return
    key, w = got
    need = load_need(w, ammo, crew)
    if need is None:
        return
    u = game.state.units[uid]
    have, rounds = loaded_key(game, u.side, key, w)
    if have is None or rounds <= 0:
        raise RulesError(f"{key}'s {item} is not loaded: it must be loaded ({need[1]} Impulse "
                         "Phase(s) of load notes) before it fires", rule=RULE)
    if have != ammo:
        raise RulesError(f"{key}'s {item} is loaded with {have}, not {ammo}: unload it first",
                         rule=RULE)


def settle(game: Game, uid: str, item: str) -> None:
    """Write down the load a weapon holds as set up (FPD-71) before its fire draws a round from
    the stock the set-up load is counted from (Firepower 8.5)."""
    got = _fired_key(game, uid, item)
    if got is None:
        return
    key, w = got
    side = game.state.units[uid].side
    if may_need_loading(w) and _record(game, side, key) is None:
        have, rounds = loaded_key(game, side, key, w)
        _records(game, side)[key] = {"ammo": have, "rounds": rounds}


def after_fire(game: Game, uid: str, item: str, ammo: str, crew: int) -> None:
    """One round of the load is fired off (Firepower 11.1.12)."""
    got = _fired_key(game, uid, item)
    if got is None:
        return
    key, w = got
    if load_need(w, ammo, crew) is None:
        return
    u = game.state.units[uid]
    have, rounds = loaded_key(game, u.side, key, w)
    prior = _record(game, u.side, key) or {}
    rec: dict[str, Any] = {"ammo": have if rounds > 1 else None, "rounds": max(0, rounds - 1)}
    if "rgn" in prior:
        rec["rgn"] = prior["rgn"]
    _records(game, u.side)[key] = rec


ACTION_TYPES = (LOAD, UNLOAD)
