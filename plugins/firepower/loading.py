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


def loaded(game: Game, u: Unit) -> tuple[str | None, int]:
    """(ammunition loaded, rounds left) of the soldier's weapon; (None, 0) when unloaded. No record:
    loaded as set up, one load of the first type (docs/decisions.md FPD-71)."""
    rec = _record(game, u.side, u.id)
    if rec is None:
        w = _weapon_of(u)
        if w is None or not w.types:
            return None, 0
        ammo = w.types[0]
        need = load_need(w, ammo, 1)
        return ammo, need[0] if need else 1
    got = rec.get("ammo")
    return (str(got) if got is not None else None), int(rec.get("rounds", 0))


def loading_note(game: Game, u: Unit) -> dict[str, Any] | None:
    """The load or unload notes written so far for the soldier (kind, ammo, phases noted, needed)."""
    rec = _record(game, u.side, u.id) or {}
    note = rec.get("note")
    return dict(note) if isinstance(note, dict) else None


def _weapon_of(u: Unit) -> ChartWeapon | None:
    from hexwar.plugins.firepower.advanced_fire import model_of

    try:
        return weapon(model_of(u.state))
    except RulesError:
        return None


def _crew(game: Game, u: Unit) -> int:
    from hexwar.plugins.firepower.advanced_fire import crew_of

    return crew_of(game, u.id)


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
    w = _weapon_of(u)
    if w is None or not may_need_loading(w):
        raise RulesError(f"{u.id}'s weapon is not loaded separately (no '1+L', no ammunition "
                         "groups, no crew of two or more)", rule=RULE)
    ammo = choice.get("ammo", w.types[0] if w.types else None)
    if not isinstance(ammo, str) or ammo not in w.types:
        raise RulesError(f"{w.id} fires {'/'.join(w.types)} ammunition, not {ammo!r}",
                         rule="Firepower 10.7")
    crew = _crew(game, u)
    if load_need(w, ammo, crew) is None:
        raise RulesError(f"{w.id} with {crew} crewman(men) fires {ammo} without separate loading "
                         "(Firepower 10.1.2.2: a lone crewman loads)", rule=RULE)
    have, rounds = loaded(game, u)
    if have is not None and rounds > 0:
        raise RulesError(f"{u.id}'s {w.id} is loaded with {have} ({rounds} left): fire or unload "
                         "it first", rule=RULE)
    cost = _all_mf(game, ph, u, "a load note")
    return {"cost": cost, "ammo": ammo, "item": w.id, "crew": crew}


def _check_unload(game: Game, ph: dict[str, Any], choice: dict[str, Any]) -> dict[str, Any]:
    u = game.state.units[choice["unit"]]
    w = _weapon_of(u)
    have, rounds = loaded(game, u)
    if w is None or not may_need_loading(w) or have is None or rounds <= 0:
        raise RulesError(f"{u.id}'s weapon holds no load to unload", rule=RULE)
    cost = _all_mf(game, ph, u, "an unload note")
    return {"cost": cost, "ammo": have, "item": w.id, "crew": _crew(game, u)}


def _note(game: Game, info: dict[str, Any], kind: str) -> None:
    """Write one note; when the Impulse Phases the load needs are noted, the weapon is loaded
    (or empty), ready from a later Impulse Phase on: this one's MF are all spent."""
    u = game.state.units[info["unit"]]
    w = weapon(info["item"])
    ammo = str(info["ammo"])
    need = load_need(w, ammo, int(info["crew"])) or load_need(w, ammo, 1) or (1, 1)
    have, rounds = loaded(game, u)
    rec: dict[str, Any] = {"ammo": have, "rounds": rounds}
    old = loading_note(game, u)
    n = 1
    if old is not None and old.get("kind") == kind and old.get("ammo") == ammo:
        n = int(old["phases"]) + 1  # FPD-72: notes of one kind and ammunition add up
    if n >= need[1]:
        rec = ({"ammo": ammo, "rounds": need[0]} if kind == "load" else {"ammo": None, "rounds": 0})
    else:
        rec["note"] = {"kind": kind, "ammo": ammo, "phases": n, "needed": need[1]}
    _records(game, u.side)[u.id] = rec
    game.emit("loading", visible_to=[u.side], unit=u.id, kind=kind, ammo=ammo, phases=n,
              needed=need[1], ready=n >= need[1], rule=RULE)


LOAD = ActionType("load", _check_load, lambda g, ph, info: _note(g, info, "load"),
                  lambda g, ph, uid: _options(g, ph, uid), rule=RULE, secret=True)
UNLOAD = ActionType("unload", _check_unload, lambda g, ph, info: _note(g, info, "unload"),
                    None, rule=RULE, secret=True)


def _options(game: Game, ph: dict[str, Any], uid: str) -> list[dict[str, Any]]:
    """A load note for each ammunition type that needs one, when the weapon is empty."""
    u = game.state.units[uid]
    w = _weapon_of(u)
    if w is None or not may_need_loading(w) or int(ph["spent"].get(uid, 0)):
        return []
    have, rounds = loaded(game, u)
    if have is not None and rounds > 0:
        return []
    crew = _crew(game, u)
    return [{"unit": uid, "act": "load", "ammo": t} for t in w.types
            if load_need(w, t, crew) is not None]


def check_fire_loaded(game: Game, uid: str, item: str, ammo: str, crew: int) -> None:
    """Firepower 11.1.12: a weapon that must be loaded separately fires only loaded, with the
    ammunition it was loaded with."""
    u = game.state.units[uid]
    w = _weapon_of(u)
    if w is None or w.id != item:
        return  # an item carried (a grenade, a charge) is not the loaded weapon
    need = load_need(w, ammo, crew)
    if need is None:
        return
    have, rounds = loaded(game, u)
    if have is None or rounds <= 0:
        raise RulesError(f"{uid}'s {item} is not loaded: it must be loaded ({need[1]} Impulse "
                         "Phase(s) of load notes) before it fires", rule=RULE)
    if have != ammo:
        raise RulesError(f"{uid}'s {item} is loaded with {have}, not {ammo}: unload it first",
                         rule=RULE)


def after_fire(game: Game, uid: str, item: str, ammo: str, crew: int) -> None:
    """One round of the load is fired off (Firepower 11.1.12)."""
    u = game.state.units[uid]
    w = _weapon_of(u)
    if w is None or w.id != item or load_need(w, ammo, crew) is None:
        return
    have, rounds = loaded(game, u)
    _records(game, u.side)[uid] = {"ammo": have if rounds > 1 else None,
                                   "rounds": max(0, rounds - 1)}


ACTION_TYPES = (LOAD, UNLOAD)
