"""MBT 7.0, Basic Game Firing: the Direct Fire, ATGM Announcement and ATGM Resolution Steps.

Who may fire at what (MBT 7.1.5, 7.2: orders, sighting, range, firing arc), declaring every firer
at one target before any shot resolves (MBT 7.3), the situation of a shot in the game (MBT 7.1.2)
handed to the firing procedure of MBT 7.4 (:mod:`hexwar.plugins.mbt.ap_fire`), and applying its
results: at once, or when a simultaneous step ends (MBT 5.3; docs/decisions.md MBTD-5). Overwatch
fire (MBT 7.5) is :mod:`hexwar.plugins.mbt.overwatch`.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from hexwar.core.engine.decisions import Decision
from hexwar.core.engine.state import Unit
from hexwar.core.hexgrid import Hex, arc_directions, in_arc, trace
from hexwar.plugins.mbt import attached
from hexwar.plugins.mbt.ap_fire import Situation, kill_probability
from hexwar.plugins.mbt.hookspecs import MbtHooks
from hexwar.plugins.mbt.initiative import side_order
from hexwar.plugins.mbt.orders import reveal, seen_by
from hexwar.plugins.mbt.sighting import seen_by_side, sees, unit_height
from hexwar.plugins.mbt.state import (
    MOVING_ORDERS,
    Step,
    alive,
    card_of,
    ctx,
    data,
    doomed,
    enemy_of,
    gun_usable,
    merged_damage,
    missile_usable,
    wreck_hexes,
)
from hexwar.plugins.mbt.terrain import MapInfo

if TYPE_CHECKING:
    from hexwar.core.engine.game import Game

ANGLE_NAMES = {0: "Front", 1: "Front-Side", 5: "Front-Side", 2: "Rear-Side", 4: "Rear-Side", 3: "Rear"}
ANGLE_RANK = {"Front": 0, "Front-Side": 1, "Rear-Side": 2, "Rear": 3}


# -- MBT 7.2: ability to fire -----------------------------------------------------------------


def in_turret_arc(u: Unit, target_hex: Hex) -> bool:
    """MBT 7.2.1.2: 60 degrees from the turret's facing, partial hexes included."""
    assert u.hex is not None
    return in_arc(u.hex, int(u.state["turret"]), target_hex, "front60")


def weapon_arc(game: Game, u: Unit, weapon: str) -> tuple[str, int]:
    """The firing arc of a weapon and the facing it is measured from: the Basic Game's turret arc
    (MBT 7.2.1), or what ``mbt_weapon_arc`` says (hull arcs, MBT 14.2.1)."""
    arc = MbtHooks.of(game).weapon_arc(u, weapon)
    if arc is not None:
        return arc, u.facing
    return "front60", int(u.state["turret"])


def unseen_target(tid: str) -> str:
    """The one refusal of a target the side cannot see (MBT 6.1, docs/decisions.md MBTD-40): an
    unseen unit, one that left the map unseen and an id no unit has read alike, so a player
    naming ids learns nothing of the units it cannot see."""
    return f"your side cannot see a unit {tid!r} (MBT 6.1, 7.2)"


def known_to(game: Game, side: str) -> set[str]:
    """The units ``side`` knows of now (MBT 6.1: its own, the enemy units it sees, wrecks)."""
    from hexwar.plugins.mbt.sighting import visible_units

    return set(visible_units(game, side))


def fire_error(game: Game, f: Unit, t: Unit, ammo: str, *, orders: tuple[str, ...],
               overwatch: bool = False, moving_target: bool = False, missile: bool = False,
               check_arc: bool = True) -> str | None:
    """Why ``f`` may not fire ``ammo`` at ``t`` now (None if it may): MBT 7.1.5, 7.2, 4.7."""
    if f.hex is None and f.state.get("mounted") and not f.state.get("destroyed"):
        # Advanced MBT 15.3.4: a passenger fires from its carrier's hex (no Basic unit is mounted)
        from hexwar.plugins.mbt.transport import aboard, passenger_fire_error

        err = passenger_fire_error(game, f, t, missile=missile)
        if err:
            return err
        with aboard(game, f):
            return fire_error(game, f, t, ammo, orders=orders, overwatch=overwatch,
                              moving_target=moving_target, missile=missile, check_arc=check_arc)
    if not alive(f):
        return f"{f.id} is destroyed"
    if not missile and attached.SEP in ammo:  # a weapon named (Advanced MBT 14.1.2: a machinegun)
        known, err = MbtHooks.of(game).weapon_fire_error(
            f, t, ammo, orders=orders, moving_target=moving_target, check_arc=check_arc)
        if known:
            return err
        if _card_machinegun(game, f, ammo):  # no rule fires it: the Basic Game fires main guns
            return "independent machineguns are fired in the Advanced Game only (MBT 14.1.2, 6.2.4)"
    if f.state.get("order") not in orders:
        return f"{f.id} has no {'/'.join(orders)} order (MBT 6.2.4)"
    if f.state.get("fired") and not attached.fires_again(game, f, ammo, missile):  # MBT 14.1.3.1
        # MBT 7.1.5 once a Turn; Advanced MBT 14.1.2.1: a vehicle's other guns in the same step
        err = MbtHooks.of(game).fired_again_error(f, ammo, missile)
        if err:
            return err
    if missile:
        if not missile_usable(game, f):
            return f"{f.id} cannot fire missiles (MBT 7.4.7.2.1)"
    elif not gun_usable(game, f):
        return f"{f.id} cannot fire its main gun (MBT 7.4.5.3.2, 7.4.7.2.1)"
    err = target_error(game, f, t, moving_target=moving_target, sight=False)
    if err:
        return err
    card = card_of(game, f)
    err = attached.error(game, f, ammo)  # Advanced MBT 14.1.3: a leg unit's attached weapon
    if err:
        return err
    weapon, ammo = attached.weapon_and_ammo(card, ammo, missile)
    assert weapon is not None and f.hex is not None and t.hex is not None
    other = ammo not in weapon.ammo and ammo in MbtHooks.of(game).other_ammo(f, missile)
    if ammo not in weapon.ammo and not other:
        return f"the {weapon.name} has no {ammo} ammunition (it has {', '.join(weapon.ammo)})"
    err = sight_error(game, f, t, moving_target=moving_target)
    if err:
        return err
    rng = f.hex.distance(t.hex)
    err = MbtHooks.of(game).ammo_error(f, t, ammo)  # Advanced MBT 14.1.1.2, 14.4.1
    if err:
        return err
    if not other and weapon.ammo[ammo].ap_at(rng) is None:
        line = weapon.ammo[ammo]
        return (f"{t.id} at range {rng} is outside the {weapon.name} {ammo} range "
                f"{line.min_range}-{line.max_range} (MBT 4.7.2)")
    if check_arc:
        arc, facing = weapon_arc(game, f, weapon.name)
        if not in_arc(f.hex, facing, t.hex, arc):
            return f"{t.id} is outside {f.id}'s {weapon.name} firing arc (MBT 7.2.1)"
    return None


def target_error(game: Game, f: Unit, t: Unit, *, moving_target: bool = False,
                 sight: bool = True) -> str | None:
    """Why ``t`` is no target for ``f`` (MBT 6.1, 7.2): not an enemy, not on the map, unseen."""
    if t.side == f.side:
        return f"{t.id} is not an enemy unit"
    if not alive(t):
        if t.state.get("destroyed"):
            return f"{t.id} is not on the map"  # a wreck: public (MBT 6.1)
        return unseen_target(t.id)  # off the map reads as out of sight (MBTD-40)
    return sight_error(game, f, t, moving_target=moving_target) if sight else None


def sight_error(game: Game, f: Unit, t: Unit, *, moving_target: bool = False) -> str | None:
    """MBT 6.1, 7.2: ``f`` must see the (alive, enemy) target."""
    if not sees(game, f, t, moving=moving_target):
        # t is an alive enemy: the side knows of it exactly when one of its units sees it
        # (MBT 6.1.2, what :func:`known_to` holds of t), asked without sighting every other unit
        if not (t.side == enemy_of(f.side) and seen_by_side(game, f.side, t)):
            return unseen_target(t.id)
        return f"{f.id} cannot see {t.id} (MBT 6.1, 7.2)"
    return None


def _card_machinegun(game: Game, f: Unit, ammo: str) -> bool:
    """Whether a ``WEAPON/GP`` shot names a machinegun on ``f``'s card (MBT 14.1.2)."""
    if attached.SEP not in ammo:
        return False
    from hexwar.plugins.mbt import machineguns

    return machineguns.split(card_of(game, f), ammo) is not None


def ammo_options(game: Game, f: Unit, missile: bool = False) -> list[str]:
    """MBT 7.4.1.2: the ammunition types of the weapon fired."""
    card = card_of(game, f)
    w = card.missiles[0] if missile else card.main_gun
    if w is None:  # Advanced MBT 14.1.2.1: machineguns without a main gun
        return [] if missile else list(MbtHooks.of(game).other_ammo(f, missile))
    return [*w.ammo, *MbtHooks.of(game).other_ammo(f, missile)]  # Advanced MBT 14.1.1.2: GP


# -- MBT 7.1.2, 7.4: the situation of a shot in the game ----------------------------------------


def hit_angles(firer_hex: Hex, target: Unit) -> list[str]:
    """MBT 7.4.5.1: the hit angle, or the two angles when the line of fire runs exactly down the
    line dividing them (MBT 7.4.5.2.1: the target's owner picks), most frontal first."""
    assert target.hex is not None
    dirs = arc_directions(target.hex, firer_hex)
    names = sorted({ANGLE_NAMES[(d - target.facing) % 6] for d in dirs} or {"Front"},
                   key=ANGLE_RANK.__getitem__)
    return names


def hit_angle(firer_hex: Hex, target: Unit) -> str:
    """MBT 7.4.5.1: the sector of the target (relative to its front) the shot comes from. On a
    dividing line the target's owner picks (MBT 7.4.5.2.1); the engine picks the more frontal angle
    for them (the better-armoured one on every stand-in card; docs/decisions.md MBTD-11)."""
    assert target.hex is not None
    dirs = arc_directions(target.hex, firer_hex)
    names = [ANGLE_NAMES[(d - target.facing) % 6] for d in dirs] or ["Front"]
    return min(names, key=ANGLE_RANK.__getitem__)


def elevation(info: MapInfo, firer_hex: Hex, target_hex: Hex) -> str:
    """MBT 7.4.6.2: Level, Rising (target higher) or Falling (firer higher), by Basic heights."""
    a, b = info.height[firer_hex], info.height[target_hex]
    return "Level" if a == b else "Falling" if a > b else "Rising"


def brewup_hexes(game: Game, a: Hex, b: Hex) -> int:
    """MBT 7.4.2.3.3: hexes with a brewed-up wreck the line leaves, enters or passes through (a
    line exactly along the hexside between two such hexes counts once). Wrecks created in the
    current simultaneous step are not there yet (MBT 5.3)."""
    burning = {h for h, kind in wreck_hexes(game).items() if kind == "burning"}
    if not burning:
        return 0
    count = 0
    counted: set[tuple[int, int]] = set()
    q, r = a
    # the line's steps from the trace of its offset, moved to ``a`` (MBTD-197); plain (q, r)
    # pairs equal and hash as the hexes they name
    for offsets in _line_steps(b.q - q, b.r - r):
        step = [(q + x, r + y) for x, y in offsets]
        hs = [h for h in step if h in burning and h not in counted]
        if len(step) == 2 and all(h in burning for h in step):
            if any(h not in counted for h in step):
                count += 1
            counted.update(step)
        elif hs:
            count += len(hs)
            counted.update(hs)
    return count


@lru_cache(maxsize=4_096)  # bounded: one entry per offset asked (the boards' size)
def _line_steps(dq: int, dr: int) -> tuple[tuple[tuple[int, int], ...], ...]:
    """MBTD-197: the hexes of each step of the exact line from ``(0, 0)`` to ``(dq, dr)``, as
    offsets. The trace is worked out in integers from the offset alone, so moved to any start it
    is that start's line (``brewup_hexes`` asks it for every shot an AI weighs)."""
    return tuple(tuple((h.q, h.r) for h in st.hexes)
                 for st in trace(Hex(0, 0), Hex(dq, dr)).steps)


def _elev(game: Game, firer: Unit, target: Unit) -> str:
    """MBT 7.4.6.2 by the units' heights (MBT 6.1.4.6, or what ``mbt_unit_height`` says)."""
    a, b = unit_height(game, firer), unit_height(game, target)
    return "Level" if a == b else "Falling" if a > b else "Rising"


def acquisition_turns(game: Game, firer: Unit, target: Unit) -> int:
    """MBT 7.4.2.3.1: consecutive previous Turns in which this firer hit this target."""
    turns = set(data(game).get("hits", {}).get(f"{firer.id}>{target.id}", []))
    n = 0
    t = game.state.turn - 1
    while t in turns:
        n += 1
        t -= 1
    return n


def situation(game: Game, firer: Unit, weapon: str, ammo: str, target: Unit, *,
              overwatch: bool = False, target_moving: bool | None = None) -> Situation:
    """The :class:`Situation` of a shot in the game, as MBT 7.1.2 says: positions now."""
    c = ctx(game)
    assert firer.hex is not None and target.hex is not None
    fcard, tcard = card_of(game, firer), card_of(game, target)
    md = merged_damage(target)
    t_order = target.state.get("order")
    s = Situation(
        firer=fcard, weapon=weapon, ammo=ammo, target=tcard,
        range=firer.hex.distance(target.hex),
        firer_moving=firer.state.get("order") == "FM",
        target_moving=(t_order in MOVING_ORDERS) if target_moving is None else target_moving,
        overwatch=overwatch,
        acquisition_turns=acquisition_turns(game, firer, target),
        target_terrain=c.info.kinds[target.hex],
        brewup_hexes=brewup_hexes(game, firer.hex, target.hex),
        elevation=_elev(game, firer, target),  # type: ignore[arg-type]
        angle=hit_angle(firer.hex, target),
        target_has_gun=tcard.main_gun is not None,
        target_gun_hit=bool(md["gun"]),
        target_compartment=md["compartment"],
    )
    MbtHooks.of(game).shot_situation(s, firer, target)  # Advanced MBT 13.2.2 hull down
    return s


def best_ammo(game: Game, f: Unit, t: Unit, *, overwatch: bool = False, missile: bool = False,
              legal_only: tuple[str, ...] = ()) -> tuple[str, float]:
    best, best_p = (legal_only[0] if legal_only else ""), -1.0
    card = card_of(game, f)
    w = card.missiles[0] if missile else card.main_gun
    if w is None:  # Advanced MBT 14.1.2: machineguns only (GP, no kill chance to compare)
        return best, best_p
    for ammo in legal_only or tuple(w.ammo):
        if ammo not in w.ammo:
            continue  # other ammunition (Advanced GP fire) has no kill chance to compare
        if f.hex is None or t.hex is None or w.ammo[ammo].ap_at(f.hex.distance(t.hex)) is None:
            continue
        p = kill_probability(ctx(game).charts, situation(game, f, w.name, ammo, t, overwatch=overwatch))
        if p > best_p:
            best, best_p = ammo, p
    return best, best_p


# -- MBT 7.3: announcing fire ---------------------------------------------------------------------


def declaration_options(game: Game, side: str, targets: list[Unit], *, orders: tuple[str, ...],
                        overwatch: bool, moving_target: bool = False,
                        declared: set[str] | None = None) -> list[Any]:
    """Options for one declaration (MBT 7.3.2): ``{"target": id, "shots": [[firer, ammo], ...]}``."""
    from hexwar.plugins.mbt.sighting import one_moment

    with one_moment(game):
        return _declaration_options(game, side, targets, orders=orders, overwatch=overwatch,
                                    moving_target=moving_target, declared=declared)


def _declaration_options(game: Game, side: str, targets: list[Unit], *, orders: tuple[str, ...],
                         overwatch: bool, moving_target: bool,
                         declared: set[str] | None) -> list[Any]:
    options: list[Any] = []
    declared = declared or set()
    firers = _firers(game, side, orders)
    for t in targets:
        if t.id in declared or not alive(t):
            continue
        group: list[list[str]] = []
        for f, ammo in firers:
            legal = [a for a in ammo
                     if fire_error(game, f, t, a, orders=orders, overwatch=overwatch,
                                   moving_target=moving_target) is None]
            for a in legal:
                options.append({"target": t.id, "shots": [[f.id, a]]})
            if legal:
                a, _p = best_ammo(game, f, t, overwatch=overwatch, legal_only=tuple(legal))
                group.append([f.id, a])
        if len(group) > 1:
            options.append({"target": t.id, "shots": group})
    return MbtHooks.of(game).fire_options(side, options)  # Advanced MBT 13.4.3.2


def _firers(game: Game, side: str, orders: tuple[str, ...]) -> list[tuple[Unit, list[str]]]:
    """The units of ``side`` that might fire in one declaration, each with the ammunition that
    :func:`fire_error` is to be asked about, by id: whatever the target, it refuses every shot of
    a unit destroyed or off the map (not a passenger, MBT 15.3.4), and every main gun shot of a
    unit without one of ``orders`` (MBT 6.2.4; a weapon a rule names is that rule's to refuse).
    The ammunition is listed once per declaration, not once per target (MBTD-194)."""
    out: list[tuple[Unit, list[str]]] = []
    for f in game.state.units_of(side):
        if alive(f):
            ammo = ammo_options(game, f)
            if f.state.get("order") not in orders:
                ammo = [a for a in ammo if attached.SEP in a]
        elif f.hex is None and f.state.get("mounted") and not f.state.get("destroyed"):
            ammo = ammo_options(game, f)  # a passenger: its carrier's hex (MBT 15.3.4)
        else:
            continue
        if ammo:
            out.append((f, ammo))
    return out


def declaration_validator(game: Game, side: str, *, orders: tuple[str, ...], overwatch: bool,
                          moving_target: bool = False, targets: set[str] | None = None,
                          declared: set[str] | None = None) -> Any:
    def validate(choice: Any) -> str | None:
        if choice == "pass":
            return None
        if not isinstance(choice, dict) or set(choice) != {"target", "shots"}:
            return 'a declaration is {"target": ID, "shots": [[FIRER, AMMO], ...]} or "pass"'
        tid = choice["target"]
        if not isinstance(tid, str):
            return f"the target is a unit id, not {json.dumps(tid)[:40]}"
        if tid not in game.state.units or tid not in known_to(game, side):
            return unseen_target(tid)
        if targets is not None and tid not in targets:
            return f"{tid} is not a target that can be fired at in this step"
        if declared and tid in declared:
            return f"{tid} has already been fired at in this step (MBT 7.3.2)"
        target = game.state.units[tid]
        err = shots_error(game, side, choice["shots"], lambda f, ammo: fire_error(
            game, f, target, ammo, orders=orders, overwatch=overwatch,
            moving_target=moving_target))
        if err:
            return err
        return MbtHooks.of(game).fire_error(side, choice)  # Advanced MBT 13.4.3.2

    return validate


def shots_error(game: Game, side: str, shots: Any,
                firer_error: Callable[[Unit, str], str | None]) -> str | None:
    """Why a declaration's ``shots`` (``[[FIRER, AMMO], ...]``) are refused: not a list of pairs,
    a unit not of ``side``, one named twice, or ``firer_error`` of a firer and its ammunition
    (None if every shot may be fired)."""
    if not isinstance(shots, list) or not shots:
        return "name at least one firer"
    seen: set[str] = set()
    for s in shots:
        if not (isinstance(s, list) and len(s) == 2 and all(isinstance(x, str) for x in s)):
            return "each shot is [FIRER, AMMO], two strings"
        fid, ammo = s
        if fid not in game.state.units or game.state.units[fid].side != side:
            return f"{fid!r} is not one of your units"
        key = fid + "|" + str(ammo).rpartition(attached.SEP)[0]  # MBT 14.1.3.1: per weapon
        if key in seen:
            return f"{fid} is named twice"
        seen.add(key)
        err = firer_error(game.state.units[fid], str(ammo))
        if err:
            return err
    return None


def mark_fired(game: Game, f: Unit) -> None:
    """MBT 7.1.4-7.1.5: a firer is marked FIRED at once and fires only once per Turn."""
    f.state["fired"] = True
    f.state["used"] = True
    f.state["spotted"] = "FIRED"
    if f.state.get("mounted"):  # Advanced MBT 15.3.3.1: its carrier is seen to fire
        from hexwar.plugins.mbt.transport import passenger_fired

        passenger_fired(game, f)
    reveal(game, f)


def fire_group(game: Game, side: str, choice: dict[str, Any], *, overwatch: bool,
               simultaneous: bool, target_moving: bool | None = None) -> Step:
    """MBT 7.3.2: every firer at one target is declared before any shot resolves."""
    t = game.state.units[choice["target"]]
    shots = [(game.state.units[fid], str(ammo)) for fid, ammo in choice["shots"]]
    game.emit("declared", visible_to=seen_by(game, [f for f, _ in shots]), side=side,
              target=t.id, firers=[f.id for f, _ in shots], ammo=[a for _, a in shots], rule="MBT 7.3.2")
    for f, ammo in shots:
        mark_fired(game, f)
        attached.note_fired(game, f, ammo)  # Advanced MBT 14.1.3.1
        MbtHooks.of(game).shot_fired(f, ammo)  # Advanced MBT 14.1.2.1: which gun, and when
    for f, ammo in shots:
        yield from resolve_shot(game, f, t, ammo, overwatch=overwatch, simultaneous=simultaneous,
                     target_moving=target_moving)
    return [f.id for f, _ in shots]


# -- MBT 7.4: resolving a shot and applying its results -------------------------------------------


def resolve_shot(game: Game, f: Unit, t: Unit, ammo: str, *, overwatch: bool, simultaneous: bool,
                 missile: bool = False, target_moving: bool | None = None) -> Step:
    """Resolve one unit's fire (all its rounds) at a target and apply or queue the damage."""
    if f.hex is None and f.state.get("mounted"):
        # Advanced MBT 15.3.4.1: a passenger's shot is resolved from its carrier's hex
        from hexwar.plugins.mbt.transport import aboard

        with aboard(game, f):
            return (yield from resolve_shot(game, f, t, ammo, overwatch=overwatch,
                                            simultaneous=simultaneous, missile=missile,
                                            target_moving=target_moving))
    c = ctx(game)
    card = card_of(game, f)
    weapon, ammo = attached.weapon_and_ammo(card, ammo, missile)  # Advanced MBT 14.1.3
    if doomed(t):
        game.report("shot wasted", result="target already knocked out", firer=f.id, target=t.id,
                    rules=["MBT 7.3.2"])
        return None
    # Advanced MBT 14.4: GP point effect fire, and MBT 14.1.2: a machinegun's (the only weapon of
    # a vehicle without a main gun)
    if weapon is None or ammo not in weapon.ammo:
        other = MbtHooks.of(game).other_fire(f, t, ammo, overwatch=overwatch,
                                             target_moving=target_moving)
        if other and simultaneous:
            t.state["pending"] = [*t.state.get("pending", []), *other]
        elif other:
            apply_effects(game, t, other)
        return None
    s = situation(game, f, weapon.name, ammo, t, overwatch=overwatch, target_moving=target_moving)
    assert f.hex is not None
    angles = hit_angles(f.hex, t)
    if len(angles) > 1:
        # MBT 7.4.5.2.1: the line of fire runs down a dividing line; the target's owner picks
        s.angle = yield Decision(t.side, "mbt.hit_angle", options=angles, rule="MBT 7.4.5.2.1",
                                 context={"firer": f.id, "target": t.id},
                                 prompt=f"{f.id}'s fire at {t.id} runs along a dividing line: "
                                        "pick the hit angle")
    extra = MbtHooks.of(game).ap_modifiers(s, f, t)
    if extra:
        s.extra_modifiers = tuple(extra)
    shot = c.fire.resolve(s, c.charts, game.dice)
    game.report(
        "AP point effect fire", result={"hits": shot.hits, "effects": shot.effects},
        modifiers=shot.modifiers, rules=["MBT 7.4"] + [r for h in shot.hit_results for r in h.rules],
        firer=f.id, target=t.id, weapon=weapon.name, ammo=ammo, range=s.range,
        ap_factor=shot.ap_factor, net=shot.net, hit_number=shot.hit_number, roll=shot.roll,
        angle=s.angle, elevation=s.elevation, target_moving=s.target_moving,
        hit_results=[h.as_dict() for h in shot.hit_results],
    )
    if shot.hits:
        hits = data(game).setdefault("hits", {})
        turns = hits.setdefault(f"{f.id}>{t.id}", [])
        if game.state.turn not in turns:
            turns.append(game.state.turn)
    effects = shot.effects
    if not effects:
        return None
    if simultaneous:
        # MBT 5.3: results are ignored until the whole step is done, but later shots in the step see
        # them (a second compartment hit, wasted fire at a knocked-out target)
        t.state["pending"] = [*t.state.get("pending", []), *effects]
    else:
        apply_effects(game, t, effects)


def apply_effects(game: Game, u: Unit, effects: list[str]) -> None:
    """MBT 7.4.5.3, 7.4.7: apply damage to a unit (knocked out and brewed-up units leave a wreck)."""
    dmg = u.state["damage"]
    for e in effects:
        if u.state.get("destroyed"):
            break
        if e == "track":
            dmg["track"] = True
        elif e == "gun":
            dmg["gun"] = True
        elif e.endswith("compartment"):
            if dmg["compartment"] is not None:  # MBT 7.4.7.2
                destroy(game, u, "KO")
            else:
                dmg["compartment"] = e.split("_")[0]
        elif e in ("KO", "BU"):
            destroy(game, u, e)
    u.touch()  # the damage record changed in place (CORE-133)
    game.emit("damage", unit=u.id, damage=dict(dmg), destroyed=u.state.get("destroyed"),
              rule="MBT 7.4.7")
    MbtHooks.of(game).after_damage(u, effects)


def destroy(game: Game, u: Unit, how: str) -> None:
    """MBT 7.4.7.3-7.4.7.4: remove the unit; one wreck per hex, burning if any brewed up there."""
    assert u.hex is not None
    label = game.board.label(u.hex)
    wrecks = data(game).setdefault("wrecks", {})
    wrecks[label] = "burning" if how == "BU" or wrecks.get(label) == "burning" else "normal"
    u.state["destroyed"] = how
    u.state["wreck_at"] = label
    u.hex = None


def commit_pending(game: Game) -> None:
    """MBT 5.3: apply the results of a simultaneous step when the whole step is complete."""
    for u in game.state.units.values():
        pending = u.state.get("pending") or []
        if pending:
            u.state["pending"] = []
            apply_effects(game, u, list(pending))


# -- the fire steps of the Turn (MBT 3.3.1, 3.3.2, 3.4.2) -------------------------------------------


def direct_fire_phase(game: Game) -> Step:
    """MBT 3.3.1, 7.1.1: F and FM units fire; simultaneous (MBT 5.3)."""
    game.defer("MBT 5.3 Direct Fire Step results", lambda: commit_pending(game))
    for side in side_order(game):
        declared: set[str] = set()
        while True:
            targets = [e for e in game.state.units_of(enemy_of(side)) if alive(e)]
            options = declaration_options(game, side, targets, orders=("F", "FM"), overwatch=False,
                                          declared=declared)
            terrain = _terrain(game)
            if terrain is not None:  # Advanced MBT 12.4.2: GP fire at terrain markers
                options += terrain.options(game, side, ("F", "FM"), declared)
            alt = _alternate(game)
            if alt is not None:  # Advanced MBT 14.4.5.1: smoke rounds into a hex
                options += alt.smoke_options(game, side, declared)
            if not options:
                break
            validate = declaration_validator(game, side, orders=("F", "FM"), overwatch=False,
                                             declared=declared)
            if terrain is not None:
                validate = _with_terrain(game, side, validate, declared)
            if alt is not None:
                validate = _with_smoke(game, side, validate, declared)
            choice = yield Decision(side, "mbt.fire", options=["pass", *options], rule="MBT 7.3",
                                    validate=validate, context={"step": "direct"},
                                    prompt="Declare fire at one target, or pass")
            if choice == "pass":
                break
            if alt is not None and alt.is_smoke_choice(choice):
                declared.add(f"smoke:{game.board.label(game.board.parse(choice['smoke_hex']))}")
                alt.fire_smoke(game, side, choice)
                continue
            if terrain is not None and terrain.is_terrain_choice(choice):
                declared.add(f"hex:{game.board.label(game.board.parse(choice['hex']))}")
                terrain.fire_at_terrain(game, side, choice)
                continue
            declared.add(choice["target"])
            yield from fire_group(game, side, choice, overwatch=False, simultaneous=True)


def _terrain(game: Game) -> Any:
    """The Advanced Game's GP fire at terrain (MBT 12.4.2) when the map has terrain markers."""
    if not data(game).get("markers"):  # read only: no key added to a Basic game's state
        return None
    from hexwar.plugins.mbt import gp_terrain

    return gp_terrain


def _alternate(game: Game) -> Any:
    """The Advanced Game's smoke rounds (MBT 14.4.5.1)."""
    if "mbt.advanced" not in game.rules_enabled:
        return None
    from hexwar.plugins.mbt import alternate_ammo

    return alternate_ammo


def _with_smoke(game: Game, side: str, validate: Any, declared: set[str]) -> Any:
    from hexwar.plugins.mbt import alternate_ammo

    def check(choice: Any) -> str | None:
        if alternate_ammo.is_smoke_choice(choice):
            return alternate_ammo.smoke_choice_error(game, side, choice, declared)
        err: str | None = validate(choice)
        return err

    return check


def _with_terrain(game: Game, side: str, validate: Any, declared: set[str]) -> Any:
    from hexwar.plugins.mbt import gp_terrain

    def check(choice: Any) -> str | None:
        if gp_terrain.is_terrain_choice(choice):
            return gp_terrain.choice_error(game, side, choice, ("F", "FM"), declared)
        err: str | None = validate(choice)
        return err

    return check


def atgm_options(game: Game, side: str) -> list[dict[str, str]]:
    """MBT 7.2.2 (Advanced MBT 14.1.4.2: only missiles with ATGM orders): every shot ``side``'s units
    with ATGM orders that have not fired may announce:
    a firer and a target it may fire a missile at."""
    options: list[dict[str, str]] = []
    for f in game.state.units_of(side):
        if f.state.get("order") != "ATGM" or f.state.get("fired"):
            continue
        for t in game.state.units_of(enemy_of(side)):
            if fire_error(game, f, t, "ATGM", orders=("ATGM",), missile=True) is None:
                options.append({"firer": f.id, "target": t.id})
    return options


def atgm_announce_phase(game: Game) -> Step:
    """MBT 3.3.2, 7.2.2: ATGM units announce a shot at a seen target in their arc; FIRED at once."""
    d = data(game)
    for side in side_order(game):
        while True:
            options = atgm_options(game, side)
            if not options:
                break
            choice = yield Decision(side, "mbt.atgm", options=["pass", *options], rule="MBT 7.2.2",
                                    prompt="Announce an ATGM shot, or pass")
            if choice == "pass":
                break
            f = game.state.units[choice["firer"]]
            mark_fired(game, f)
            d["atgm"].append({"firer": f.id, "target": choice["target"]})
            game.emit("atgm_announced", firer=f.id, target=choice["target"], rule="MBT 7.2.2")


def atgm_resolution_phase(game: Game) -> Step:
    """MBT 3.4.2, 7.2.2: resolve announced missiles at the targets' positions now; simultaneous
    (the Step then adjusts hexes holding both sides, MBT 8.8: see the sequence of play)."""
    game.defer("MBT 5.3 ATGM Resolution Step results", lambda: commit_pending(game))
    d = data(game)
    for side in side_order(game):
        for shot in d.get("atgm", []):
            f = game.state.units[shot["firer"]]
            t = game.state.units[shot["target"]]
            if f.side != side:
                continue
            if not alive(f):  # MBT 7.2.2.1
                game.report("ATGM", result="automatic miss: firer destroyed", firer=f.id,
                            target=t.id, rules=["MBT 7.2.2.1"])
                continue
            if not alive(t):
                continue
            # MBT 7.2.2.2: sighting, LOS and missile range now; the firing arc no longer matters;
            # a turret compartment hit silences the missile too (docs/decisions.md MBTD-9)
            f.state["fired"] = False
            err = fire_error(game, f, t, "ATGM", orders=("ATGM",), missile=True, check_arc=False)
            f.state["fired"] = True
            if err:
                game.report("ATGM", result=f"automatic miss: {err}", firer=f.id, target=t.id,
                            rules=["MBT 7.2.2.2"])
                continue
            yield from resolve_shot(game, f, t, "ATGM", overwatch=False, simultaneous=True,
                                    missile=True)
    game.apply_deferred()
    return
    yield
