"""MBT 14.1.3, attached leg weapons fired on their own (Advanced Game).

A leg unit's card lists its small arms (the main gun, GP point effect fire) and, marked
``attached = true``, the weapons attached to it: rocket launchers and the like (MBT 14.1.3). A
shot of an attached gun names the weapon with its ammunition, ``"PZF-44/HEAT"`` (the ``ammo`` of a
``[FIRER, AMMO]`` shot), and is resolved as AP point effect fire with that weapon's own line:
range bands, hit numbers, damage rows (MBT 7.4, 14.1.1.2: only at vehicles).

* MBT 14.1.3.1: the attached weapons and the small arms fire at the same or at different targets,
  in their own arcs: a leg unit that fired one of them may still fire another this Turn, never the
  same one twice (MBT 7.1.5 for each weapon; docs/decisions.md MBTD-118). Its orders decide
  (guns with CA/F/FM/OR, the orders :func:`~hexwar.plugins.mbt.fire.fire_error` already checks,
  MBT 14.1.4.1).
* MBT 14.1.3.2: up in the floors of a building only a weapon whose card allows it
  (``upper_floors = true``) fires; on the ground the operators step outside.
* MBT 15.3.4.1: an attached weapon is not fired while its unit is carried, except a rocket
  launcher (``rocket_launcher = true`` on the card), from a carrier without full cover or from an
  open full-cover one (MBTD-118, MBTD-136).
* An attached weapon with a GP line and no ammunition line (the team's MG, MBT 14.7.2.1.1) fires
  GP point effect fire on its own, ``"MG/GP"``, resolved as a machinegun's shot
  (:mod:`hexwar.plugins.mbt.machineguns`; docs/decisions.md MBTD-151).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from hexwar.plugins.mbt.state import card_of

if TYPE_CHECKING:
    from hexwar.core.engine.game import Game
    from hexwar.core.engine.state import Unit
    from hexwar.plugins.mbt.cards import Card, Weapon

SEP = "/"


def raw_weapon(card: Card, weapon: str) -> dict[str, Any]:
    """The weapon's table in the card file (``attached``, ``upper_floors``); gp_fire has the same
    lookup, but importing it here would be circular (gp_fire imports fire, which imports this)."""
    for w in card.records.values.get("weapons", []):
        if isinstance(w, dict) and w.get("name") == weapon:
            return w
    return {}


def attached_guns(card: Card) -> list[Weapon]:
    """MBT 14.1.3: the attached guns (rocket launchers...) of a leg card that have ammunition."""
    if card.kind != "leg":
        return []
    return [w for w in card.weapons if w.kind == "gun" and not w.main_gun and w.ammo
            and raw_weapon(card, w.name).get("attached")]


def attached_gp(card: Card) -> list[Weapon]:
    """MBT 14.1.3, 14.4.1: a leg card's attached guns that fire GP only (a GP line, no ammunition
    line): the team's attached MG (MBT 14.7.2.1.1; MBTD-151)."""
    if card.kind != "leg":
        return []
    return [w for w in card.weapons if w.kind == "gun" and not w.main_gun and not w.ammo
            and w.gp.get("nm") and raw_weapon(card, w.name).get("attached")]


def gp_weapon(card: Card, ammo: str) -> Weapon | None:
    """The GP-only attached weapon a ``WEAPON/GP`` shot names (None: not one)."""
    if SEP not in ammo:
        return None
    name, _, kind = ammo.rpartition(SEP)
    return next((w for w in attached_gp(card) if w.name == name and kind == "GP"), None)


def shot_ammo(card: Card) -> list[str]:
    """The ``WEAPON/AMMO`` names of a leg card's attached guns (for the fire options)."""
    return [f"{w.name}{SEP}{a}" for w in attached_guns(card) for a in w.ammo]


def split(card: Card, ammo: str) -> tuple[Weapon, str] | None:
    """The attached weapon and its ammunition a ``WEAPON/AMMO`` shot names (None: not one)."""
    if SEP not in ammo:
        return None
    name, _, kind = ammo.rpartition(SEP)
    for w in attached_guns(card):
        if w.name == name and kind in w.ammo:
            return w, kind
    return None


def weapon_and_ammo(card: Card, ammo: str, missile: bool) -> tuple[Weapon | None, str]:
    """The weapon a shot fires and the plain ammunition: an attached gun for ``WEAPON/AMMO``,
    else the missile or the main gun (the Basic Game's one weapon)."""
    found = None if missile else split(card, ammo)
    if found is not None:
        return found
    gp = None if missile else gp_weapon(card, ammo)
    if gp is not None:  # MBTD-151: the shot keeps its name for the machinegun's GP procedure
        return gp, ammo
    return (card.missiles[0] if missile and card.missiles else card.main_gun), ammo


def _fired_now(game: Game, f: Unit) -> list[str]:
    """The weapons ``f`` fired this Turn (kept with the Turn's number, so a new Turn clears it)."""
    rec = f.state.get("fired_weapons")
    if not isinstance(rec, dict) or rec.get("turn") != game.state.turn:
        return []
    return list(rec.get("names", []))


def weapon_fired(game: Game, f: Unit, weapon: str) -> bool:
    return weapon in _fired_now(game, f)


def note_fired(game: Game, f: Unit, ammo: str, missile: bool = False) -> None:
    """MBT 14.1.3.1: a leg unit's weapons are fired one by one; note which one this shot used."""
    card = card_of(game, f)
    if card.kind != "leg":
        return
    w, _a = weapon_and_ammo(card, ammo, missile)
    if w is not None:
        f.state["fired_weapons"] = {"turn": game.state.turn,
                                    "names": [*_fired_now(game, f), w.name]}


def fires_again(game: Game, f: Unit, ammo: str, missile: bool = False) -> bool:
    """MBT 14.1.3.1: a leg unit that has fired may still fire a weapon it has not fired this
    Turn (its small arms or another attached weapon); a vehicle, never (MBT 7.1.5)."""
    card = card_of(game, f)
    if card.kind != "leg" or not _fired_now(game, f):
        return False
    w, _a = weapon_and_ammo(card, ammo, missile)
    return w is not None and not weapon_fired(game, f, w.name)


def error(game: Game, f: Unit, ammo: str) -> str | None:
    """MBT 14.1.3.2, 15.3.4.1: why ``f`` may not fire the attached weapon ``ammo`` names where it
    is (None if it may, or if ``ammo`` names no attached weapon)."""
    card = card_of(game, f)
    found = split(card, ammo)
    gp = gp_weapon(card, ammo)
    if found is None and gp is None:
        if SEP in ammo:
            names = ", ".join([*shot_ammo(card), *(f"{w.name}{SEP}GP" for w in attached_gp(card))]
                              ) or "none"
            return f"{f.id} has no attached weapon and ammunition {ammo!r} (it has {names}; " \
                   "MBT 14.1.3)"
        return None
    w = found[0] if found is not None else gp
    assert w is not None
    if weapon_fired(game, f, w.name):
        return f"{f.id}'s {w.name} has already fired this Turn (MBT 14.1.3.1, 7.1.5)"
    if f.state.get("mounted"):
        err = carried_error(game, f, card, w)
        if err:
            return err
    if int(f.state.get("up", 0)) > 0 and not raw_weapon(card, w.name).get("upper_floors"):
        return (f"{f.id} is up in the buildings, where its {w.name} may not be fired "
                "(MBT 14.1.3.2)")
    return None


def rocket_launcher(card: Card, weapon: Weapon) -> bool:
    """The card marks the weapon a rocket launcher (MBT 14.1.1, 15.3.4.1)."""
    return bool(raw_weapon(card, weapon.name).get("rocket_launcher"))


def carried_error(game: Game, f: Unit, card: Card, w: Weapon) -> str | None:
    """MBT 15.3.4.1: why the carried ``f`` may not fire its attached ``w`` from its carrier (None
    if it may): only a rocket launcher fires, from a carrier without full cover or an open one."""
    from hexwar.plugins.mbt.transport import full_cover_carrier

    if not rocket_launcher(card, w):
        return (f"{f.id}'s {w.name} is not fired while {f.id} is carried: of the attached "
                "weapons only rocket launchers fire from a carrier (MBT 15.3.4.1)")
    carrier = game.state.units.get(str(f.state.get("mounted")))
    if carrier is not None and full_cover_carrier(game, carrier) \
            and not carrier.state.get("open", True):
        return (f"{f.id}'s {w.name} fires from {carrier.id} only when it is open: a rocket "
                "launcher is not fired from a buttoned full-cover carrier (MBT 15.3.4.1)")
    return None
