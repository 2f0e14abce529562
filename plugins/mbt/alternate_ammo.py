"""MBT 14.4.5 alternate ammunition (Advanced Game): smoke rounds and canister fired by guns.

Which weapons may fire them is a card fact: a weapon's ``alternate`` list (``"smoke"``,
``"canister"``), from its card's NOTES (MBT 14.4.5; the shipped cards cite MBT 17.3.2.3.3, whose
ammunition lists name them). Both need F or FM orders (MBT 14.4.5), so never on overwatch.

* smoke rounds (MBT 14.4.5.1): fired at a hex, not a unit, in the Direct Fire Step:
  ``{"target": None, "smoke_hex": LABEL, "shots": [[FIRER, "smoke"], ...]}``. The hex is within
  2 hexes and the weapon's GP maximum range, in its firing arc, holds no friendly unit, and is
  sighted: the SIGHTING RANGES CHART entry of a vehicle in clear terrain (MBT 13.1.3) and an
  unblocked line of sight to the hex's top (MBTD-110). A smoke (ON) marker ("other" smoke) is
  placed at the end of the step (MBT 5.3); there is no damage.
* canister (MBT 14.4.5.2): GP point effect fire at a unit at 2 to 10 hexes with the weapon's GP
  factor and the canister modifiers (MBT 14.4.2.3), never destroying a vehicle by explosive power
  (MBT 14.4.4.2.3.3); the ammunition ``"canister"`` of a fire declaration
  (:mod:`hexwar.plugins.mbt.gp_fire`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from hexwar.core.engine.state import Unit
from hexwar.core.hexgrid import in_arc
from hexwar.plugins.mbt.gp_fire import card_gp_range, raw_weapon
from hexwar.plugins.mbt.orders import seen_by
from hexwar.plugins.mbt.state import alive, card_of, gun_usable

if TYPE_CHECKING:
    from hexwar.core.engine.game import Game
    from hexwar.core.hexgrid import Hex
    from hexwar.plugins.mbt.cards import Card

SMOKE = "smoke"
CANISTER = "canister"
ORDERS = ("F", "FM")  # MBT 14.4.5
SMOKE_MIN_RANGE = 2  # MBT 14.4.5.1
CANISTER_RANGE = (2, 10)  # MBT 14.4.5.2


def alternate(card: Card, weapon: str) -> tuple[str, ...]:
    """MBT 14.4.5: the alternate ammunition a weapon's card lets it fire."""
    got = raw_weapon(card, weapon).get("alternate") or ()
    return tuple(str(x) for x in got)


def main_gun_alternate(game: Game, u: Unit) -> tuple[str, ...]:
    w = card_of(game, u).main_gun
    return () if w is None else alternate(card_of(game, u), w.name)


# -- MBT 14.4.5.2: canister ---------------------------------------------------------------------


def canister_error(game: Game, f: Unit, rng: int) -> str | None:
    """Why ``f`` may not fire canister at range ``rng`` (None: it may, the GP line permitting)."""
    w = card_of(game, f).main_gun
    if w is None or CANISTER not in alternate(card_of(game, f), w.name):
        return f"{f.id} has no canister ammunition (MBT 14.4.5)"
    if f.state.get("order") not in ORDERS:
        return f"canister is fired with F or FM orders only (MBT 14.4.5), not {f.state.get('order')}"
    return canister_range_error(rng)


def canister_range_error(rng: int) -> str | None:
    """MBT 14.4.5.2: canister reaches 2 to 10 hexes (shared with ``hexwar mbt fire``)."""
    lo, hi = CANISTER_RANGE
    if not lo <= rng <= hi:
        return f"canister is fired at {lo} to {hi} hexes, not at range {rng} (MBT 14.4.5.2)"
    return None


# -- MBT 14.4.5.1: smoke rounds -----------------------------------------------------------------


def is_smoke_choice(choice: Any) -> bool:
    return isinstance(choice, dict) and "smoke_hex" in choice


def sights_hex(game: Game, f: Unit, h: Hex) -> str | None:
    """MBT 13.1.3: why ``f`` cannot sight the hex ``h`` itself (None: it can). The range is the
    SIGHTING RANGES CHART entry of a vehicle in a clear hex under the game's conditions (MBT-21);
    a suppressed unit sights only in its 60-degree arc (MBT 12.3.1); the line of sight runs to the
    hex's highest point, as for area fire (MBT 13.2.1; docs/decisions.md MBTD-110)."""
    from hexwar.plugins.mbt.advanced_sighting import (
        hex_heights,
        line_of_sight,
        sighting_arc,
        sighting_reach,
        unit_height,
    )

    assert f.hex is not None
    label = game.board.label(h)
    rng = f.hex.distance(h)
    arc = sighting_arc(game, f)
    if arc is not None and not in_arc(f.hex, arc, h, "front60"):
        return f"{f.id} is suppressed and sights only in its 60-degree arc (MBT 12.3.1)"
    reach = sighting_reach(game, f, h, "clear", "VH")  # MBT 14.3.2 (I, T) at night: MBTD-146
    if rng > reach:
        return (f"{label} is {rng} hexes away, beyond {f.id}'s sighting range of a hex, {reach} "
                "(a vehicle in clear terrain, MBT 13.1.3)")
    if not line_of_sight(game, f.hex, unit_height(game, f), h, hex_heights(game, h)[1]).clear:
        return f"{f.id} has no unblocked line of sight to {label} (MBT 13.2.1, 14.4.5.1)"
    return None


def gun_ready_error(game: Game, f: Unit, orders: tuple[str, ...], no_order: str) -> str | None:
    """Why ``f`` may not fire its main gun at a hex in this step, before what it fires is looked
    at: it is on the map, has one of ``orders`` (else ``no_order``), has not fired this Turn
    (MBT 7.1.5; its main gun not fired, MBT 14.1.2.1) and its gun works (MBT 7.4.5.3.2,
    7.4.7.2.1). Shared by smoke rounds and GP fire
    at terrain (:func:`hexwar.plugins.mbt.gp_terrain.firer_error`)."""
    if not alive(f) or f.hex is None:
        return f"{f.id} is not on the map"
    if f.state.get("order") not in orders:
        return no_order
    if f.state.get("fired"):
        # MBT 14.1.2.1 (MBTD-143): a vehicle whose machineguns fired in this step may still fire
        # its main gun in it; any other earlier fire ends its firing this Turn (MBT 7.1.5)
        from hexwar.plugins.mbt.machineguns import fired_error

        err = fired_error(game, f, SMOKE, False)
        if err:
            return err
    if not gun_usable(game, f):
        return f"{f.id} cannot fire its main gun (MBT 7.4.5.3.2, 7.4.7.2.1)"
    return None


def smoke_range_error(card: Card, weapon: str, rng: int, label: str) -> str | None:
    """MBT 14.4.5.1: a smoke round reaches from 2 hexes to the weapon's GP maximum range (shared
    with ``hexwar mbt fire``)."""
    top = (card_gp_range(card, weapon) or (0, 0))[1]
    if rng < SMOKE_MIN_RANGE:
        return f"a smoke round is fired at 2 hexes or more, not at range {rng} (MBT 14.4.5.1)"
    if rng > top:
        return (f"{label} at range {rng} is beyond the {weapon}'s GP range {top}, the reach of "
                "its smoke (MBT 14.4.5.1)")
    return None


def smoke_firer_error(game: Game, f: Unit, h: Hex, ammo: str,
                      orders: tuple[str, ...] = ORDERS) -> str | None:
    """MBT 14.4.5, 14.4.5.1: why ``f`` may not fire a smoke round into hex ``h`` now."""
    from hexwar.plugins.mbt.fire import weapon_arc

    if alive(f) and f.hex is not None and ammo != SMOKE:
        return f"a hex is fired at with smoke rounds, not {ammo} (MBT 14.4.5.1)"
    err = gun_ready_error(game, f, orders, f"{f.id} has no F or FM orders to fire smoke "
                                           "(MBT 14.4.5)")
    if err:
        return err
    assert f.hex is not None
    card = card_of(game, f)
    w = card.main_gun
    assert w is not None
    if SMOKE not in alternate(card, w.name):
        return f"{f.id}'s {w.name} has no smoke ammunition (MBT 14.4.5)"
    rng = f.hex.distance(h)
    label = game.board.label(h)
    err = smoke_range_error(card, w.name, rng, label)
    if err:
        return err
    friends = sorted(u.id for u in game.state.units_of(f.side) if alive(u) and u.hex == h)
    if friends:
        return f"{label} holds a friendly unit ({friends[0]}): no smoke round into it (MBT 14.4.5.1)"
    arc, facing = weapon_arc(game, f, w.name)
    if not in_arc(f.hex, facing, h, arc):
        return f"{label} is outside {f.id}'s {w.name} firing arc (MBT 14.4.5.1, 7.2.1)"
    return sights_hex(game, f, h)


def smoke_options(game: Game, side: str, declared: set[str]) -> list[dict[str, Any]]:
    """Smoke rounds ``side`` may fire now, as a menu: the hexes holding or next to an enemy unit
    the side sees (any other legal hex is accepted when named; docs/decisions.md MBTD-111)."""
    from hexwar.plugins.mbt.fire import known_to

    firers = [f for f in game.state.units_of(side)
              if f.hex is not None and not f.state.get("fired")
              and f.state.get("order") in ORDERS and SMOKE in main_gun_alternate(game, f)]
    if not firers:
        return []
    seen = known_to(game, side)
    near: set[Hex] = set()
    for u in game.state.units.values():
        if u.side != side and u.id in seen and alive(u) and u.hex is not None:
            near.add(u.hex)
            near.update(n for n in u.hex.neighbors() if n in game.board.hexes)
    out: list[dict[str, Any]] = []
    for h in sorted(near, key=game.board.label):
        label = game.board.label(h)
        if f"smoke:{label}" in declared:
            continue
        for f in firers:
            if smoke_firer_error(game, f, h, SMOKE) is None:
                out.append({"target": None, "smoke_hex": label, "shots": [[f.id, SMOKE]]})
    return out


def smoke_choice_error(game: Game, side: str, choice: Any, declared: set[str]) -> str | None:
    """Why a smoke round declaration is refused (the state is not touched)."""
    shape = 'a smoke round is {"target": null, "smoke_hex": LABEL, "shots": [[FIRER, "smoke"], ...]}'
    if set(choice) - {"target"} != {"smoke_hex", "shots"} or choice.get("target") is not None:
        return shape
    label = choice["smoke_hex"]
    if not isinstance(label, str):
        return shape
    try:
        h = game.board.parse(label)
    except ValueError as exc:
        return f"hex {label!r}: {exc}"
    if h not in game.board.hexes:
        return f"{label} is not on the map"
    if f"smoke:{game.board.label(h)}" in declared:
        return f"{label} has already been fired at in this step (MBT 7.3.2)"
    from hexwar.plugins.mbt.fire import shots_error

    return shots_error(game, side, choice["shots"],
                       lambda f, ammo: smoke_firer_error(game, f, h, ammo))


def fire_smoke(game: Game, side: str, choice: dict[str, Any]) -> None:
    """MBT 14.4.5.1: the firers are marked FIRED; the smoke (ON) marker is placed when the
    simultaneous step ends (MBT 5.3), like every result of it (docs/decisions.md MBTD-110)."""
    from hexwar.plugins.mbt.fire import mark_fired
    from hexwar.plugins.mbt.smoke import place_smoke

    label = game.board.label(game.board.parse(choice["smoke_hex"]))
    shots = [game.state.units[fid] for fid, _a in choice["shots"]]
    game.emit("declared", visible_to=seen_by(game, shots), side=side, hex=label,
              firers=[f.id for f in shots], ammo=[SMOKE] * len(shots), rule="MBT 7.3.2")
    for f in shots:
        mark_fired(game, f)
        # MBT 14.1.2.1 (MBTD-143): the main gun fired, so its machineguns may fire in this step
        from hexwar.plugins.mbt.machineguns import note_fired

        note_fired(game, f, SMOKE)
        # MBT 6.1: told only to the sides that see the firer (the marker is public, the firer
        # and its range are not)
        game.report("smoke round", result={"hex": label, "marker": "smoke (ON)"},
                    rules=["MBT 14.4.5.1"], visible_to=seen_by(game, [f]), firer=f.id,
                    hex=label, ammo=SMOKE,
                    range=f.hex.distance(game.board.parse(label)) if f.hex else None)
    game.defer(f"MBT 5.3 smoke round in {label}", lambda: place_smoke(game, label,
                                                                       "MBT 14.4.5.1"))
