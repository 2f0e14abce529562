"""MBT 14.1.2, independent vehicle machineguns, and MBT 14.3.3.4.2, machineguns lost to hits
(Advanced Game).

A coaxial machinegun is part of its main gun's values and is not a weapon of its own
(MBT 14.1.2). The other machineguns of a vehicle card are weapons with a size and a location
(``machinegun = "HMG"`` or ``"MG"``, ``location = "TTO"``: turret top, "O" fired only open, "C"
open or buttoned; MBT 14.1.2.2), a firing arc (MBT 14.2.1) and a GP line (MBT 14.4.1).

* A shot of one names the weapon and GP, ``[FIRER, "HMG TTO/GP"]``, in the fire declarations
  of guns (MBT 14.1.4.1, 14.1.4.3: CA, F, FM, OR and OW orders; never beside a missile fired on
  overwatch). It is GP point effect fire (MBT 14.4) with the machinegun's own line and arc.
* MBT 14.1.2.1: the machineguns fire at the main gun's target or another, at the same time as
  the main gun, or without it: a vehicle that fired some of its guns in the Direct Fire Step or
  the Overwatch Fire Step may fire the others in the same step (each once, MBT 7.1.5); in any
  other step, they go with the main gun's own declaration. A weapon not fired then is not kept
  for later (docs/decisions.md MBTD-128).
* MBT 14.1.2.3: a vehicle with a crew loss fires its machineguns or its main gun, not both.
* MBT 12.3.2: a suppressed vehicle fires none of them.
* MBT 14.3.3.4.2: machineguns mounted at the TT, HF or HR are lost to any hit at that spot (kept in
  the unit's ``mg_lost``; docs/decisions.md MBTD-129 for penetrating hits); MBT 14.3.3.1: a turret
  compartment hit silences those on the turret, a hull compartment hit those on the hull.

A machinegun shot is told to every side, firer and weapon named, as every shot at a unit: the
firer is marked FIRED at once (MBT 7.1.4, 6.1.3.5; docs/decisions.md MBTD-65, MBTD-130). A lost
machinegun is told to the sides that see the vehicle.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from hexwar.core.hexgrid import in_arc
from hexwar.plugins.mbt.ap_fire import MG_LOST
from hexwar.plugins.mbt.cards import HULL_LOCATIONS, TURRET_LOCATIONS, derived
from hexwar.plugins.mbt.orders import seen_by
from hexwar.plugins.mbt.state import alive, card_of
from hexwar.plugins.mbt.suppression import suppressed

if TYPE_CHECKING:
    from hexwar.core.engine.game import Game
    from hexwar.core.engine.state import Unit
    from hexwar.plugins.mbt.ap_fire import FireContext, HitResult, ShotResult
    from hexwar.plugins.mbt.cards import Card

SEP = "/"
GP = "GP"
SIZES = ("HMG", "MG")  # MBT 14.1.2: heavy and light
LOSS_POSITIONS = frozenset({"TT", "HF", "HR"})  # MBT 14.3.3.4.2
#: MBT 14.1.2.1: the steps whose fire is all one moment (each is simultaneous, MBT 5.3)
ONE_MOMENT = frozenset({"mbt.direct_fire", "mbt.overwatch_fire"})
FIRING_MOVE = ("FM", "OR")  # MBT 14.4.1: the MV line


@dataclass(frozen=True)
class MachineGun:
    """One independent machinegun of a card (MBT 14.1.2.2)."""

    name: str
    size: str
    location: str

    @property
    def position(self) -> str:
        """Where on the vehicle it sits: TT, HF, HR... (the location less its O/C)."""
        return self.location[:-1]

    @property
    def needs_open(self) -> bool:
        """MBT 14.1.2.2: a location ending in "O" fires only with the turret unit open."""
        return self.location.endswith("O")

    @property
    def shot(self) -> str:
        """The ammunition a fire declaration names for it."""
        return f"{self.name}{SEP}{GP}"


def _raw(card: Card, name: str) -> dict[str, Any]:
    for w in card.records.values.get("weapons", []):
        if isinstance(w, dict) and w.get("name") == name:
            return w
    return {}


def machineguns(card: Card) -> tuple[MachineGun, ...]:
    """MBT 14.1.2: a vehicle card's independent machineguns (the loader checked their fields)."""
    if card.kind != "vehicle":
        return ()
    memo = derived(card)
    got: tuple[MachineGun, ...] | None = memo.get("machineguns")
    if got is None:
        out = []
        for w in card.weapons:
            raw = _raw(card, w.name)
            if raw.get("machinegun") and not w.main_gun:
                out.append(MachineGun(w.name, str(raw["machinegun"]),
                                      str(raw.get("location", ""))))
        got = memo["machineguns"] = tuple(out)
    return got


def attached_mgs(card: Card) -> tuple[MachineGun, ...]:
    """MBTD-151: a leg card's attached GP-only weapons (the team's MG, MBT 14.7.2.1.1), fired as a
    machinegun's GP shot; they have no vehicle location."""
    from hexwar.plugins.mbt.attached import attached_gp

    memo = derived(card)
    got: tuple[MachineGun, ...] | None = memo.get("attached_mgs")
    if got is None:
        got = memo["attached_mgs"] = tuple(MachineGun(w.name, "MG", "") for w in attached_gp(card))
    return got


def split(card: Card, ammo: str) -> MachineGun | None:
    """The machinegun a ``WEAPON/GP`` shot names (None: the shot names no machinegun): a vehicle's
    independent one, or a leg unit's attached GP-only weapon (MBTD-151)."""
    if SEP not in ammo:
        return None
    name, _, kind = ammo.rpartition(SEP)
    return next((m for m in (*machineguns(card), *attached_mgs(card))
                 if m.name == name and kind == GP), None)


def advanced(game: Game) -> bool:
    return "mbt.advanced" in game.rules_enabled


def shot_ammo(game: Game, u: Unit) -> list[str]:
    """The machinegun shots a unit's card offers (the Advanced Game's "other ammunition"): a
    vehicle's independent machineguns, a leg unit's attached GP-only weapons (MBTD-151)."""
    card = card_of(game, u)
    return [m.shot for m in (*machineguns(card), *attached_mgs(card))] if advanced(game) else []


def lost(u: Unit) -> list[str]:
    """MBT 14.3.3.4.2: the machineguns hits destroyed (the RECORD SHEET's "MG" damage)."""
    return list(u.state.get("mg_lost") or [])


def silenced(game: Game, u: Unit, m: MachineGun) -> str | None:
    """Why ``m`` no longer works (None: it does): destroyed by a hit at its location
    (MBT 14.3.3.4.2) or by a compartment hit where it is mounted (MBT 14.3.3.1)."""
    if m.name in lost(u):
        return f"{u.id}'s {m.name} was destroyed by a hit on the {m.position} (MBT 14.3.3.4.2)"
    compartment = u.state["damage"].get("compartment")
    if compartment == "turret" and m.position in TURRET_LOCATIONS:
        return f"{u.id}'s {m.name} was lost with its turret compartment (MBT 14.3.3.1)"
    if compartment == "hull" and m.position in HULL_LOCATIONS:
        return f"{u.id}'s {m.name} was lost with its hull compartment (MBT 14.3.3.1)"
    return None


def use_error(game: Game, u: Unit, m: MachineGun) -> str | None:
    """Why ``u`` may not fire ``m`` at all now (None: it may, targets aside)."""
    if not advanced(game):
        return "independent machineguns are fired in the Advanced Game only (MBT 14.1.2, 6.2.4)"
    err = silenced(game, u, m)
    if err:
        return err
    if suppressed(u):
        return f"{u.id} is suppressed and fires no independent machinegun (MBT 12.3.2)"
    if m.needs_open and not u.state.get("open", True):
        return (f"{u.id}'s {m.name} fires only with its turret open ({m.location}); {u.id} is "
                "buttoned (MBT 14.1.2.2)")
    return None


# -- MBT 14.1.2.1, 14.1.2.3: when a vehicle's guns fire --------------------------------------------


def _record(game: Game, u: Unit) -> dict[str, Any] | None:
    rec = u.state.get("gun_fire")
    if isinstance(rec, dict) and rec.get("turn") == game.state.turn:
        return rec
    return None


def weapon_of(game: Game, u: Unit, ammo: str) -> str | None:
    """The gun a shot fires: a machinegun, else the main gun (None: neither)."""
    card = card_of(game, u)
    m = split(card, ammo)
    if m is not None:
        return m.name
    return card.main_gun.name if card.main_gun is not None else None


def note_fired(game: Game, u: Unit, ammo: str) -> None:
    """Note which gun a vehicle fired, and when (MBT 14.1.2.1); a leg unit's weapons are noted by
    :func:`hexwar.plugins.mbt.attached.note_fired`."""
    if not advanced(game) or card_of(game, u).kind != "vehicle":
        return
    name = weapon_of(game, u, ammo)
    if name is None:
        return
    rec = _record(game, u)
    names = list(rec["names"]) if rec is not None else []
    u.state["gun_fire"] = {"turn": game.state.turn,
                           "phase": rec["phase"] if rec is not None else game.state.phase,
                           "names": [*names, name] if name not in names else names}


def _crew_conflict(game: Game, u: Unit, names: list[str]) -> str | None:
    """MBT 14.1.2.3: with a crew loss, the main gun and the machineguns are not both fired."""
    if not int(u.state.get("crew_losses", 0)):
        return None
    card = card_of(game, u)
    gun = card.main_gun.name if card.main_gun is not None else None
    mgs = {m.name for m in machineguns(card)}
    if gun in names and mgs & set(names):
        return (f"{u.id} has a crew loss: it fires its main gun or its machineguns, not both "
                "(MBT 14.1.2.3)")
    return None


def fired_error(game: Game, u: Unit, ammo: str, missile: bool) -> str | None:
    """Why a vehicle that has fired this Turn may not fire the gun ``ammo`` names as well (None:
    it may: MBT 14.1.2.1)."""
    default = f"{u.id} has already fired this Turn (MBT 7.1.5)"
    if not advanced(game) or card_of(game, u).kind != "vehicle":
        return default
    rec = _record(game, u)
    if rec is None:
        return default  # it fired otherwise (a missile): nothing goes with it
    if missile:
        return (f"{u.id} fired its guns this Turn: an overwatch unit fires its guns or its "
                "missile (MBT 14.1.4.3, 7.1.5)")
    name = weapon_of(game, u, ammo)
    if name is None or name in rec["names"]:
        return f"{u.id}'s {name} has already fired this Turn (MBT 7.1.5)"
    if rec["phase"] != game.state.phase or game.state.phase not in ONE_MOMENT:
        return (f"{u.id}'s {name} was not fired when {u.id} fired; a weapon not fired then is "
                "not kept for a later step (MBT 14.1.2.1)")
    return _crew_conflict(game, u, [*rec["names"], name])


def declaration_error(game: Game, choice: dict[str, Any]) -> str | None:
    """MBT 14.1.2.3 within one declaration: a vehicle with a crew loss naming its main gun and a
    machinegun together."""
    by: dict[str, list[str]] = {}
    for fid, ammo in choice.get("shots") or []:
        u = game.state.units[str(fid)]
        name = weapon_of(game, u, str(ammo))
        if name is not None:
            by.setdefault(u.id, []).append(name)
    for uid, names in by.items():
        err = _crew_conflict(game, game.state.units[uid], names)
        if err:
            return err
    return None


# -- MBT 14.1.2, 14.4: a machinegun shot -----------------------------------------------------------


def fire_error(game: Game, f: Unit, t: Unit, m: MachineGun, *, orders: tuple[str, ...],
               moving_target: bool = False, check_arc: bool = True) -> str | None:
    """Why ``f`` may not fire its machinegun ``m`` at ``t`` now (None if it may)."""
    from hexwar.plugins.mbt.fire import target_error, weapon_arc
    from hexwar.plugins.mbt.gp_fire import card_gp_factor, card_gp_range

    if not alive(f):
        return f"{f.id} is destroyed"
    if f.state.get("order") not in orders:
        return f"{f.id} has no {'/'.join(orders)} order (MBT 6.2.4, 14.1.4.1)"
    err = _leg_error(game, f, m) if card_of(game, f).kind == "leg" else None
    if err:
        return err
    if card_of(game, f).kind != "leg":
        if f.state.get("fired"):
            err = fired_error(game, f, m.shot, False)
            if err:
                return err
        err = use_error(game, f, m)
    if err:
        return err
    err = target_error(game, f, t, moving_target=moving_target)
    if err:
        return err
    assert f.hex is not None and t.hex is not None
    card = card_of(game, f)
    rng = f.hex.distance(t.hex)
    moving = f.state.get("order") in FIRING_MOVE
    if card_gp_factor(card, m.name, rng, moving) is None:
        lo, hi = card_gp_range(card, m.name) or (0, 0)
        if lo <= rng <= hi:
            return (f"{f.id}'s {m.name} has no GP {'MV' if moving else 'NM'} factor at range "
                    f"{rng} (MBT 14.4.1)")
        return f"{t.id} at range {rng} is outside the {m.name}'s range {lo}-{hi} (MBT 14.4.1)"
    if check_arc:
        arc, facing = weapon_arc(game, f, m.name)
        if not in_arc(f.hex, facing, t.hex, arc):
            return (f"{t.id} is outside {f.id}'s {m.name} firing arc ({arc}; MBT 14.2.1, "
                    "14.1.2.1)")
    return None


def _leg_error(game: Game, f: Unit, m: MachineGun) -> str | None:
    """MBT 14.1.3.1-14.1.3.2, 15.3.4.1 (MBTD-151): why a leg unit may not fire its attached
    GP-only weapon now: fired already this Turn (each weapon once, beside the small arms), up in
    a building without the card's leave, carried (machineguns do not fire from a carrier)."""
    from hexwar.plugins.mbt import attached

    if not advanced(game):
        return "attached weapons are fired in the Advanced Game only (MBT 14.1.3)"
    if f.state.get("fired") and not attached.fires_again(game, f, m.shot):
        return f"{f.id} has already fired its {m.name} this Turn (MBT 14.1.3.1, 7.1.5)"
    return attached.error(game, f, m.shot)


def resolve(game: Game, f: Unit, t: Unit, m: MachineGun, *, overwatch: bool,
            target_moving: bool | None) -> list[str]:
    """MBT 14.1.2, 14.4: resolve the machinegun's GP shot, record it and return its effects, which
    the fire procedure applies or holds (MBT 5.3) as any other shot's (hook ``mbt_other_fire``).
    The record is public, as every shot at a unit: the firer is marked FIRED at once and so named
    to the side it fires at (MBT 7.1.4, 6.1.3.5; docs/decisions.md MBTD-65, MBTD-130)."""
    from hexwar.plugins.mbt.gp_fire import resolve as gp_resolve

    shot = gp_resolve(game, f, t, overwatch=overwatch, target_moving=target_moving,
                      weapon_name=m.name, report=False)
    assert shot is not None  # fire_error checked the GP line at this range
    assert f.hex is not None and t.hex is not None
    rules = ["MBT 14.1.2", "MBT 14.4", "MBT 14.4.4.1"]
    result = {"result": shot.result, "effects": shot.effects}
    extra = {"passengers": shot.passengers} if shot.passengers else {}
    game.report("machinegun fire", result=result, modifiers=shot.modifiers, rules=rules,
                firer=f.id, target=t.id, weapon=m.name, ammo=GP,
                range=f.hex.distance(t.hex), gp_factor=shot.factor, gp_defense=shot.defense,
                net=shot.net, roll=shot.roll, modified=shot.roll + shot.net, n=shot.n, s=shot.s,
                crt_source=shot.source, **extra)
    return list(shot.effects)


# -- MBT 14.3.3.4.2: machineguns lost ---------------------------------------------------------------


def step_mg_hit(ctx: FireContext, shot: ShotResult, hit: HitResult) -> None:
    """MBT 14.3.3.4.2: the machineguns mounted at the TT, HF or HR are lost to a hit at that spot,
    penetrating or not (run before the penetration step, which ends a failed hit;
    docs/decisions.md MBTD-129)."""
    if hit.location not in LOSS_POSITIONS:
        return
    names = [m.name for m in machineguns(shot.situation.target) if m.position == hit.location]
    if names:
        hit.lost_mgs = names
        hit.rules.append("MBT 14.3.3.4.2")


def lose(game: Game, u: Unit, name: str) -> None:
    """Note a destroyed machinegun on the unit (MBT 14.3.3.4.2: the RECORD SHEET's damage)."""
    if name in lost(u):
        return
    u.state["mg_lost"] = [*lost(u), name]
    game.emit("mg_lost", visible_to=seen_by(game, [u]), unit=u.id, weapon=name,
              rule="MBT 14.3.3.4.2")


def is_loss(effect: str) -> bool:
    return effect.startswith(MG_LOST)


def loss_name(effect: str) -> str:
    return effect[len(MG_LOST):]


def overrun_usable(game: Game, u: Unit, name: str, main_gun_fires: bool) -> bool:
    """MBT 14.7.2.2.1: a machinegun's MV factor counts in overrun fire only when it could fire
    (MBT 12.3.2, 14.1.2.2, 14.3.3.4.2, and MBT 14.1.2.3 beside the main gun)."""
    m = next((x for x in machineguns(card_of(game, u)) if x.name == name), None)
    if m is None:
        return True  # not an independent machinegun
    if use_error(game, u, m) is not None:
        return False
    return not (main_gun_fires and int(u.state.get("crew_losses", 0)))
