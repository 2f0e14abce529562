"""MBT 15.2 towed units, 15.3 vehicles used for transport, 15.5 full cover (Advanced Game).

Transport (MBT 15.3):

* a vehicle card's ``card.transport`` is its TRANSPORT VALUE line (MBT 15.3.1): the most leg
  and/or towed stacking points it carries, ``L`` leg units, ``T`` towed units, ``LT`` both, and
  ``(FC)`` full cover (its passengers ride inside);
* loading and unloading are movement (MBT 15.3.2): done by the carrier when it moves in the
  Movement Step, before it leaves its hex and/or after its last hex, costing the carrier the
  highest LOAD/UNLOAD COST of the units handled at once in that hex (MBT 15.3.2.1-15.3.2.2). A
  unit to be loaded needs M orders and must not have moved; unloading needs the carrier's M or
  FM orders, and the unloaded unit stays in that hex for the rest of the Turn; a full-cover
  carrier must be open (MBT 15.3.2.3). After entering a new hex the carrier needs the movement
  factors left; a carrier that has not left its hex may always load or unload (MBT 15.3.2.4);
* a mounted unit is off the map (``hex`` None, MBT 15.3.2.6) with ``state.mounted`` = its
  carrier, and the carrier lists it in ``state.carrying``; it takes its carrier's orders
  (MBT 15.3.3.1) and counts no stacking points (MBT 15.3.3.2). The enemy is told what a carrier
  carries only while it sights the carrier and the carrier is not a buttoned full-cover vehicle
  (MBT 15.3.3.3; ``passengers_shown``); the mounted units themselves are never on the enemy's map;
* a carrier knocked out or brewed up takes its passengers with it (MBT 14.3.3.2), and a
  compartment hit on it suppresses them with it (MBT 14.3.3.1, ``suppress_passengers``); GP fire at a
  carrier is also fired at its passengers, with the same roll, at defense 1 (not full cover) or
  3 (open full cover), and not at all at those in a buttoned full-cover carrier (MBT 14.4.3.2.5).

Towed units (MBT 15.2): a ``towed`` unit never moves on its own; ``towed (1)`` (the card's
``card.speed_line``) moves one hex straight ahead or straight back with M orders, without turning
and within one height (MBT 15.2.1); no wire, no ditch, and no block where its card says ``P``
(MBT 15.2.3, ``markers.move_costs``). They pivot in any Pivot Step whatever their orders
(MBT 15.2.2, :mod:`~hexwar.plugins.mbt.advanced_adjustment`), never fire while transported
(MBT 14.4.2.1.5, 15.3.4.1: a mounted unit is off the map), and are hit by GP fire only
(MBT 14.1.1.2).

Full cover (MBT 15.5): a dismounted leg or towed unit with M orders may take full cover instead of
moving (no MOVED marker, no overwatch); it keeps it, and cannot move, until its side gives it up in
an Adjust Markers Step.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from hexwar.core.engine.decisions import Decision
from hexwar.core.engine.state import Unit
from hexwar.core.errors import RulesError
from hexwar.core.hexgrid import Hex, opposite
from hexwar.plugins.mbt.state import Step, alive, card_of, ctx

if TYPE_CHECKING:
    from hexwar.core.engine.game import Game
    from hexwar.plugins.mbt.cards import Card

_TRANSPORT = re.compile(r"^\s*(\d+)\s*(LT|L|T)\s*(\(FC\))?\s*$", re.IGNORECASE)
LEG_OR_TOWED = ("leg", "towed")


class TransportError(RulesError):
    """A load, unload or towed move the Advanced rules forbid (the message names the rule)."""


@dataclass(frozen=True)
class TransportValue:
    """MBT 15.3.1: the TRANSPORT VALUE line of a vehicle card."""

    points: int
    legs: bool
    towed: bool
    full_cover: bool


def transport_value(card: Card) -> TransportValue | None:
    """MBT 15.3.1: the card's transport value (None: it carries nobody)."""
    raw = card.records.values.get("card", {}).get("transport")
    if not raw or card.kind != "vehicle":
        return None
    m = _TRANSPORT.match(str(raw))
    if m is None:
        from hexwar.core.errors import DataError

        raise DataError(f"card {card.name}: transport {raw!r} is not like 3LT or 4L(FC) "
                        "(MBT 15.3.1)", key="card.transport")
    kinds = m.group(2).upper()
    return TransportValue(int(m.group(1)), "L" in kinds, "T" in kinds, bool(m.group(3)))


def load_cost(card: Card) -> int:
    """MBT 15.3.2: the LOAD/UNLOAD COST line of a leg or towed card (1 when the card gives none)."""
    return int(card.records.values.get("card", {}).get("load_cost", 1))


def speed_line(card: Card) -> str:
    """MBT 15.2.1: a towed card's SPEED line, "towed" or "towed (1)"."""
    return str(card.records.values.get("card", {}).get("speed_line", "towed")).strip().lower()


def passengers(game: Game, carrier: Unit) -> list[Unit]:
    return [game.state.units[i] for i in carrier.state.get("carrying") or []]


def carried_points(game: Game, carrier: Unit) -> int:
    return sum(card_of(game, p).stacking for p in passengers(game, carrier))


def full_cover_carrier(game: Game, carrier: Unit) -> bool:
    tv = transport_value(card_of(game, carrier))
    return bool(tv and tv.full_cover)


def passengers_exposed(game: Game, carrier: Unit) -> bool:
    """MBT 15.3.3.3, 14.4.3.2.5.1: passengers are seen and hit with their carrier unless it is
    a buttoned full-cover vehicle."""
    return not full_cover_carrier(game, carrier) or bool(carrier.state.get("open", True))


def passengers_shown(game: Game, carrier: Unit) -> list[str] | None:
    """What the enemy is told a carrier it sights carries (MBT 15.3.3.3): the ids, or None when
    it may not know (a buttoned full-cover carrier)."""
    if not carrier.state.get("carrying") or not passengers_exposed(game, carrier):
        return None
    return list(carrier.state["carrying"])


def _just_unloaded(game: Game, u: Unit) -> bool:
    return u.state.get("unloaded") == game.state.turn


def load_error(game: Game, carrier: Unit, u: Unit, *, entered: bool = False,
               mf_left: Fraction | None = None) -> str | None:
    """MBT 15.3.1-15.3.2.4: why ``carrier`` may not load ``u`` now (None if it may)."""
    tv = transport_value(card_of(game, carrier))
    if tv is None or not alive(carrier):
        return f"{carrier.id} is not a vehicle with a transport value on the map (MBT 15.3.1)"
    kind = card_of(game, u).kind
    if u.side != carrier.side or kind not in LEG_OR_TOWED:
        return f"{u.id} is not a leg or towed unit of {carrier.side} (MBT 15.3)"
    if u.state.get("mounted"):
        return f"{u.id} is already mounted on {u.state['mounted']} (MBT 15.3.2.6)"
    if _suppressed(u):
        return f"{u.id} is suppressed: a leg or towed unit may not be loaded (MBT 12.3.3)"
    if not alive(u) or u.hex != carrier.hex:
        return f"{u.id} is not in {carrier.id}'s hex (MBT 15.3.2.3)"
    if (kind == "leg" and not tv.legs) or (kind == "towed" and not tv.towed):
        what = "leg" if kind == "leg" else "towed"
        return f"{carrier.id} cannot carry {what} units (transport value {_tv_text(tv)}, MBT 15.3.1)"
    total = carried_points(game, carrier) + card_of(game, u).stacking
    if total > tv.points:
        return (f"{u.id} ({card_of(game, u).stacking} stacking points) does not fit: {carrier.id} "
                f"carries {carried_points(game, carrier)} of its transport value {tv.points} "
                "(MBT 15.3.1)")
    if u.state.get("order") != "M":
        return f"{u.id} needs M orders to be loaded (MBT 15.3.2.3)"
    if u.state.get("moved") or u.state.get("full_cover"):
        return f"{u.id} has moved or is in full cover this Turn: it cannot be loaded (MBT 15.3.2.3, 15.5)"
    return _carrier_error(game, carrier, card_of(game, u), entered=entered, mf_left=mf_left)


def _carrier_error(game: Game, carrier: Unit, card: Card, *, entered: bool,
                   mf_left: Fraction | None) -> str | None:
    if carrier.state.get("order") not in ("M", "FM"):
        return f"{carrier.id} needs M or FM orders to load or unload (MBT 15.3.2.3)"
    if full_cover_carrier(game, carrier) and not carrier.state.get("open", True):
        return (f"{carrier.id} is a buttoned full-cover vehicle: it must be open to load or unload "
                "(MBT 15.3.2.3)")
    if entered and mf_left is not None and mf_left < load_cost(card):
        return (f"{carrier.id} has {mf_left} MF left after entering a new hex, not the "
                f"{load_cost(card)} the load/unload costs (MBT 15.3.2.4)")
    return None


def unload_error(game: Game, carrier: Unit, u: Unit, *, entered: bool = False,
                 mf_left: Fraction | None = None) -> str | None:
    """MBT 15.3.2.3-15.3.2.4: why ``carrier`` may not unload ``u`` now (None if it may). A unit
    is never unloaded into terrain its own card prohibits (docs/decisions.md MBTD-71)."""
    if u.id not in (carrier.state.get("carrying") or []):
        return f"{u.id} is not carried by {carrier.id} (MBT 15.3.2.6)"
    if _suppressed(u):
        return f"{u.id} is suppressed: a leg or towed unit may not be unloaded (MBT 12.3.3)"
    if not alive(carrier):
        return f"{carrier.id} is not on the map (MBT 15.3.2)"
    err = _carrier_error(game, carrier, card_of(game, u), entered=entered, mf_left=mf_left)
    if err:
        return err
    assert carrier.hex is not None
    card = card_of(game, u)
    from hexwar.plugins.mbt.markers import marker_at

    kinds = ctx(game).info.kinds[carrier.hex]
    barred = [k for k in kinds if k in card.move_costs and card.move_costs[k] is None]
    marker = marker_at(game, carrier.hex)
    if marker == "wire" or (marker == "ditch" and card.kind == "towed"):
        barred.append(str(marker))  # MBT 12.4.6, 15.1.4, 15.2.3
    if barred:
        return (f"{u.id} cannot be unloaded in {game.board.label(carrier.hex)}: its card "
                f"prohibits {barred[0]} (MBT 15.3.2.3, 15.1.4, 15.2.3)")
    return None


def _suppressed(u: Unit) -> bool:
    """MBT 12.3.3: a suppressed leg or towed unit neither loads nor unloads, even one suppressed
    this Turn after its orders were given."""
    from hexwar.plugins.mbt.suppression import suppressed

    return suppressed(u)


def _tv_text(tv: TransportValue) -> str:
    kinds = ("L" if tv.legs else "") + ("T" if tv.towed else "")
    return f"{tv.points}{kinds}{'(FC)' if tv.full_cover else ''}"


def seen_by_enemy(game: Game, carrier: Unit) -> list[str] | None:
    """The sides that may hear of what happens to ``carrier`` (None: every side)."""
    from hexwar.plugins.mbt.orders import seen_by

    return seen_by(game, [carrier])


def mount_at_setup(game: Game, u: Unit) -> None:
    """MBT 15.3.2.6: a unit whose scenario says ``state = { carried_by = "ID" }`` starts the game
    carried by that unit (placed first), within its transport value (MBT 15.3.1)."""
    from hexwar.core.errors import DataError

    cid = str(u.state.get("carried_by"))
    carrier = game.state.units.get(cid)
    if carrier is None or carrier.side != u.side or carrier.hex is None:
        raise DataError(f"unit {u.id}: carried_by {cid!r} is not a unit of its side on the map "
                        "(MBT 15.3.2.6)")
    tv = transport_value(card_of(game, carrier))
    kind = card_of(game, u).kind
    if tv is None or kind not in LEG_OR_TOWED or (kind == "leg" and not tv.legs) or (
            kind == "towed" and not tv.towed):
        raise DataError(f"unit {u.id}: {cid} cannot carry it (transport value, MBT 15.3.1)")
    if carried_points(game, carrier) + card_of(game, u).stacking > tv.points:
        raise DataError(f"unit {u.id}: does not fit in {cid}'s transport value {tv.points} "
                        "(MBT 15.3.1)")
    u.hex = None
    u.state.update(mounted=carrier.id)
    u.state.pop("carried_by", None)
    carrier.state["carrying"] = [*(carrier.state.get("carrying") or []), u.id]
    game.emit("loaded", visible_to=[u.side], unit=u.id, carrier=carrier.id, rule="MBT 15.3.2.6")


def load(game: Game, carrier: Unit, u: Unit) -> None:
    """MBT 15.3.2, 15.3.2.6, 15.3.3.1: ``u`` leaves the map and rides ``carrier`` with its orders."""
    err = load_error(game, carrier, u)
    if err:
        raise TransportError(err)
    u.hex = None
    u.state.update(mounted=carrier.id, order=carrier.state.get("order"), used=True)
    carrier.state["carrying"] = [*(carrier.state.get("carrying") or []), u.id]
    shown = seen_by_enemy(game, carrier) if passengers_exposed(game, carrier) else [carrier.side]
    game.emit("loaded", visible_to=shown, unit=u.id, carrier=carrier.id, rule="MBT 15.3.2")


def unload(game: Game, carrier: Unit, u: Unit) -> None:
    """MBT 15.3.2, 15.3.2.3: ``u`` is back on the map in the carrier's hex, facing as it does,
    with its orders, and stays there this Turn."""
    err = unload_error(game, carrier, u)
    if err:
        raise TransportError(err)
    carrier.state["carrying"] = [i for i in carrier.state["carrying"] if i != u.id]
    assert carrier.hex is not None
    u.hex, u.facing = carrier.hex, carrier.facing
    # it arrived with its carrier: MBT 8.8 sends it back the way the carrier came
    u.state.update(mounted=None, unloaded=game.state.turn, order=carrier.state.get("order"),
                   used=True, moved=True, entered=carrier.state.get("entered"),
                   trail=[list(x) for x in carrier.state.get("trail") or []],
                   prev=carrier.state.get("prev"))
    game.emit("unloaded", visible_to=seen_by_enemy(game, carrier), unit=u.id, carrier=carrier.id,
              hex=game.board.label(carrier.hex), rule="MBT 15.3.2")


def transport_options(game: Game, carrier: Unit, *, entered: bool,
                      mf_left: Fraction) -> list[list[str]]:
    if transport_value(card_of(game, carrier)) is None or not alive(carrier):
        return []
    out: list[list[str]] = []
    for u in game.state.units_of(carrier.side):
        if u.hex == carrier.hex and load_error(game, carrier, u, entered=entered,
                                               mf_left=mf_left) is None:
            out.append(["load", u.id])
    for u in passengers(game, carrier):
        if unload_error(game, carrier, u, entered=entered, mf_left=mf_left) is None:
            out.append(["unload", u.id])
    return out


def transport_validator(game: Game, carrier: Unit, entered: bool, mf_left: Fraction) -> Any:
    def validate(choice: Any) -> str | None:
        if choice == "done":
            return None
        if not (isinstance(choice, list) and len(choice) == 2 and choice[0] in ("load", "unload")
                and choice[1] in game.state.units):
            return 'a transport choice is ["load", UNIT], ["unload", UNIT] or "done" (MBT 15.3.2)'
        u = game.state.units[choice[1]]
        check = load_error if choice[0] == "load" else unload_error
        return check(game, carrier, u, entered=entered, mf_left=mf_left)

    return validate


def transport_step(game: Game, carrier: Unit, *, entered: bool, mf_left: Fraction) -> Step:
    """MBT 15.3.2: the carrier loads and/or unloads in its hex; returns the movement factors this
    costs: the highest load/unload cost of the units handled here (MBT 15.3.2.2)."""
    spent = 0
    while True:
        options = transport_options(game, carrier, entered=entered, mf_left=mf_left - spent)
        if not options:
            break
        assert carrier.hex is not None
        choice = yield Decision(carrier.side, "mbt.transport", options=["done", *options],
                                rule="MBT 15.3.2",
                                validate=transport_validator(game, carrier, entered,
                                                             mf_left - spent),
                                context={"unit": carrier.id, "hex": game.board.label(carrier.hex),
                                         "mf_left": str(mf_left - spent), "entered": entered,
                                         "when": "after" if entered or carrier.state.get(
                                             "moved_done") else "before"},
                                prompt=f"{carrier.id}: load or unload a unit in its hex, or done")
        if choice == "done":
            break
        u = game.state.units[choice[1]]
        cost = load_cost(card_of(game, u))
        (load if choice[0] == "load" else unload)(game, carrier, u)
        carrier.state.update(moved=True, used=True)
        spent = max(spent, cost)  # MBT 15.3.2.2: the highest cost, not the sum
    return Fraction(spent)


def passengers_lost(game: Game, carrier: Unit) -> None:
    """MBT 14.3.3.2: every unit a knocked-out or brewed-up vehicle carries is eliminated."""
    if not carrier.state.get("destroyed"):
        return
    # the enemy hears of them only if it could know they were there (MBT 15.3.3.3)
    shown = None if passengers_exposed(game, carrier) else [carrier.side]
    for u in passengers(game, carrier):
        u.state.update(destroyed="eliminated", mounted=None)
        game.emit("damage", visible_to=shown, unit=u.id, damage=dict(u.state["damage"]),
                  destroyed="eliminated", rule="MBT 14.3.3.2")
    carrier.state["carrying"] = []


def suppress_passengers(game: Game, carrier: Unit, rule: str) -> None:
    """MBT 14.3.3.1: every unit ``carrier`` transports gets a suppressed (ON) marker, so it may
    not be unloaded, move, pivot, or take CA/FM/M orders while it lasts (MBT 12.3.3, 12.3.3.2);
    the enemy hears of it only as it may know the passengers are there (MBT 15.3.3.3)."""
    shown = seen_by_enemy(game, carrier) if passengers_exposed(game, carrier) else [carrier.side]
    for p in passengers(game, carrier):
        if p.state.get("destroyed"):
            continue
        p.state.update(suppressed="ON", temp_sup=False)
        game.emit("suppressed", visible_to=shown, unit=p.id, marker="ON", rule=rule)


def passenger_defense(game: Game, carrier: Unit) -> int | None:
    """MBT 14.4.3.2.5.1-2: a passenger's GP defense (1 outside a full-cover vehicle, 3 in an open
    one), or None in a buttoned full-cover vehicle (not hit at all)."""
    if not passengers_exposed(game, carrier):
        return None
    return 3 if full_cover_carrier(game, carrier) else 1


def hit_passengers(game: Game, carrier: Unit, factor: int, roll: int, net: int) -> list[dict[str, Any]]:
    """MBT 14.4.3.2.5, 14.4.4.1: the GP shot at a carrier, with the same roll, at each passenger
    it may hit (defense 1 or 3, MBT 14.4.3.2.5.2; no block or wreck bonus, MBT 14.4.3.2.5.3);
    ``net`` is the shot's modifier without those only for vehicle targets (MBT 14.4.2.2). Applied
    at once
    (docs/decisions.md MBTD-72)."""
    from hexwar.plugins.mbt.advanced_tables import load_advanced
    from hexwar.plugins.mbt.gp_fire import outcome

    defense = passenger_defense(game, carrier)
    if defense is None:
        return []
    out: list[dict[str, Any]] = []
    shown = seen_by_enemy(game, carrier)
    for p in passengers(game, carrier):
        n, s, src = load_advanced().gp_thresholds(factor, defense)
        res = outcome(roll + net, n, s)
        out.append({"unit": p.id, "gp_defense": defense, "n": n, "s": s, "result": res,
                    "crt_source": src})
        squad = card_of(game, p).kind == "leg" and card_of(game, p).stacking >= 2
        if res == "EF" and not (squad and not p.state.get("half")):
            p.state.update(destroyed="eliminated", mounted=None)
            carrier.state["carrying"] = [i for i in carrier.state["carrying"] if i != p.id]
            game.emit("damage", visible_to=shown, unit=p.id, damage=dict(p.state["damage"]),
                      destroyed="eliminated", rule="MBT 14.4.4.2.3.4")
            continue
        if res == "EF":
            p.state["half"] = True  # MBT 14.4.4.2.3.4, 12.5
            game.emit("halved", visible_to=shown, unit=p.id, rule="MBT 12.5")
        if res in ("S", "EF"):
            p.state.update(suppressed="ON", temp_sup=False)
            game.emit("suppressed", visible_to=shown, unit=p.id, marker="ON",
                      rule="MBT 14.4.4.2.2.2")
    return out


# -- MBT 15.2.1: towed (1) movement ----------------------------------------------------------------


def towed_moves(game: Game, u: Unit) -> list[str]:
    """MBT 15.2.1: the hexes a "towed (1)" unit with M orders may move to: one straight ahead or
    straight back, within one height, into terrain its card allows."""
    from hexwar.plugins.mbt.advanced_sighting import hex_heights
    from hexwar.plugins.mbt.markers import move_costs

    card = card_of(game, u)
    if (card.kind != "towed" or speed_line(card) != "towed (1)" or u.hex is None
            or u.state.get("order") != "M" or u.state.get("moved") or u.state.get("full_cover")):
        return []
    extra = move_costs(game, u) or {}
    out = []
    for d in (u.facing, opposite(u.facing)):
        h = u.hex.neighbor(d)
        if h not in game.board.hexes:
            continue
        if abs(hex_heights(game, h)[0] - hex_heights(game, u.hex)[0]) > 1:
            continue
        kinds = ctx(game).info.kinds[h]
        if any(k in card.move_costs and card.move_costs[k] is None for k in kinds):
            continue
        if h in extra and extra[h] is None:
            continue
        out.append(game.board.label(h))
    return out


def towed_move(game: Game, u: Unit) -> Step:
    """MBT 15.2.1: move a towed (1) unit one hex, or let it stay; overwatch may fire at it."""
    from hexwar.plugins.mbt.movement import next_seq
    from hexwar.plugins.mbt.orders import reveal
    from hexwar.plugins.mbt.overwatch import overwatch_window

    moves = towed_moves(game, u)
    if not moves:
        return
    assert u.hex is not None
    choice = yield Decision(u.side, "mbt.towed_move", options=["stay", *moves], rule="MBT 15.2.1",
                            context={"unit": u.id, "hex": game.board.label(u.hex)},
                            prompt=f"Move {u.id} one hex straight ahead or back, or stay")
    if choice == "stay":
        return
    u.state["trail"] = [*u.state.get("trail", []), [game.board.label(u.hex), u.state.get("entered")]]
    u.state["prev"] = game.board.label(u.hex)
    u.hex = game.board.parse(choice)
    u.state.update(moved=True, used=True, spotted="MOVED", entered=[game.state.turn,
                                                                    next_seq(game)])
    reveal(game, u)
    game.emit("moved", visible_to=[u.side], unit=u.id, hex=choice, facing=u.facing, spent="1",
              rule="MBT 15.2.1")
    yield from overwatch_window(game, u)


# -- MBT 15.5: full cover --------------------------------------------------------------------------


def full_cover_error(game: Game, u: Unit) -> str | None:
    """MBT 15.5: why ``u`` may not take full cover now."""
    if card_of(game, u).kind not in LEG_OR_TOWED or not alive(u):
        return f"{u.id} is not a dismounted leg or towed unit (MBT 15.5)"
    if u.state.get("full_cover"):
        return f"{u.id} is in full cover already (MBT 15.5)"
    if u.state.get("order") != "M" or u.state.get("moved") or _just_unloaded(game, u):
        return f"{u.id} needs M orders and must not have moved this Turn (MBT 15.5)"
    return None


def take_full_cover(game: Game, u: Unit) -> None:
    """MBT 15.5: the FULL COVER marker; no movement, no MOVED marker, no overwatch."""
    err = full_cover_error(game, u)
    if err:
        raise TransportError(err)
    u.state.update(full_cover=True, used=True)
    game.emit("full_cover", unit=u.id, rule="MBT 15.5")


def full_cover_off_step(game: Game, side: str) -> Step:
    """MBT 15.5, 16.3: in the Adjust Markers Step a side may remove FULL COVER markers."""
    while True:
        held = [u.id for u in game.state.units_of(side) if alive(u) and u.state.get("full_cover")]
        if not held:
            return
        choice = yield Decision(side, "mbt.full_cover_off", options=["keep", *held],
                                rule="MBT 15.5",
                                prompt="Remove the full cover marker of a unit, or keep the rest")
        if choice == "keep":
            return
        game.state.units[choice].state["full_cover"] = False
        game.emit("full_cover", unit=choice, removed=True, rule="MBT 15.5")


def stays_put(game: Game, u: Unit) -> bool:
    """MBT 15.3.2.3 an unloaded unit stays in its hex; MBT 15.5 one in full cover does nothing;
    MBT 15.2.1 a towed unit moves only by its own towed (1) rule."""
    return (_just_unloaded(game, u) or bool(u.state.get("full_cover"))
            or card_of(game, u).kind == "towed")


def hex_of(game: Game, u: Unit) -> Hex | None:
    """Where a unit is: its hex, or its carrier's when mounted."""
    if u.hex is not None:
        return u.hex
    c = u.state.get("mounted")
    return game.state.units[c].hex if c else None


# -- MBT 15.3.4: passengers firing from their carrier -------------------------------------------

PORT_RANGE = 2  # MBT 15.3.4.2: fire from a buttoned full-cover carrier reaches 2 hexes


def fires_buttoned(card: Card) -> bool:
    """MBT 15.3.4.2: the carrier's NOTES let its passengers fire while it is buttoned (the card's
    ``card.passenger_fire = "buttoned"``)."""
    raw = card.records.values.get("card", {}).get("passenger_fire")
    return str(raw or "").strip().lower() == "buttoned"


def passenger_fire_error(game: Game, p: Unit, t: Unit, *, missile: bool) -> str | None:
    """MBT 15.3.4, 15.3.3.1: why the mounted unit ``p`` may not fire at ``t`` from its carrier
    (None if it may, subject to every normal rule of fire, checked from the carrier's hex)."""
    cid = p.state.get("mounted")
    carrier = game.state.units.get(str(cid)) if cid else None
    if carrier is None or not alive(carrier) or p.state.get("destroyed"):
        return f"{p.id} is not on the map (MBT 15.3.2.6)"
    card = card_of(game, p)
    if card.kind == "towed":
        return f"{p.id} is a towed unit: it never fires while transported (MBT 15.3.4.1)"
    if missile:
        return f"{p.id} cannot fire its missile while transported (MBT 15.3.4.1)"
    if full_cover_carrier(game, carrier) and not carrier.state.get("open", True):
        if not fires_buttoned(card_of(game, carrier)):
            return (f"{p.id} rides buttoned full-cover {carrier.id}, whose card lets no passenger "
                    "fire buttoned: it may fire only when the carrier is open (MBT 15.3.4.2)")
        assert carrier.hex is not None
        if t.hex is not None and carrier.hex.distance(t.hex) > PORT_RANGE:
            return (f"{p.id} fires from buttoned {carrier.id} only up to {PORT_RANGE} hexes, "
                    f"{t.id} is {carrier.hex.distance(t.hex)} away (MBT 15.3.4.2)")
    return None


@contextmanager
def aboard(game: Game, p: Unit) -> Iterator[Unit]:
    """While a passenger's fire is checked or resolved it stands at its carrier's hex and
    facing (MBT 15.3.4.1: the normal fire procedure from there); off the map again afterwards."""
    if p.hex is not None or not p.state.get("mounted"):
        yield p
        return
    carrier = game.state.units[str(p.state["mounted"])]
    facing, turret = p.facing, p.state.get("turret")
    p.hex, p.facing = carrier.hex, carrier.facing
    p.state["turret"] = carrier.state.get("turret", carrier.facing)
    try:
        yield p
    finally:
        p.hex, p.facing = None, facing
        if turret is None:
            p.state.pop("turret", None)
        else:
            p.state["turret"] = turret


def transported_firer(u: Unit) -> bool:
    """MBT 14.3.1.1.3, 14.4.2.1.5: a leg unit firing while mounted."""
    return bool(u.state.get("mounted"))


def passenger_fired(game: Game, p: Unit) -> None:
    """MBT 15.3.3.1, 7.1.4: the carrier's counter is what the enemy sees fire: it is marked FIRED
    with its passenger (docs/decisions.md MBTD-90)."""
    cid = p.state.get("mounted")
    if cid:
        carrier = game.state.units[str(cid)]
        carrier.state.update(spotted="FIRED", used=True)
