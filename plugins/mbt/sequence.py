"""The Basic Game sequence of play (MBT 3.0) as engine phases.

Setup (2.4-2.5), then each Turn: Initiative (5.0), Sighting (6.1), Mark Orders (6.2, secret and
simultaneous), Direct Fire (simultaneous), ATGM Announcement, Overwatch Fire (simultaneous),
Movement (with overwatch interrupts and chains), ATGM Resolution (simultaneous, then 8.8),
Pivot (9.1), Adjust Turrets (9.2), Adjust Markers (9.3), End Turn (9.4).
"""

from __future__ import annotations

from collections.abc import Generator
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from hexwar.core.engine.decisions import Decision
from hexwar.core.engine.primitives import alternate, ask_all, roll_off
from hexwar.core.engine.state import Unit
from hexwar.core.errors import RulesError
from hexwar.core.hexgrid import Hex, in_arc, opposite
from hexwar.core.types import PhaseSpec
from hexwar.plugins.mbt import moves
from hexwar.plugins.mbt.fire import kill_probability
from hexwar.plugins.mbt.state import (
    SIDES,
    alive,
    can_move,
    card_of,
    ctx,
    data,
    doomed,
    enemy_of,
    gun_usable,
    hit_angles,
    init_unit,
    missile_usable,
    sees,
    situation,
    weapon_arc,
    wreck_hexes,
)

if TYPE_CHECKING:
    from hexwar.core.engine.game import Game

Step = Generator[Any, Any, Any]
ORDERS = ("F", "FM", "M", "OW", "ATGM")


def side_order(game: Game) -> list[str]:
    """MBT 5.3: the side with the initiative acts first in every phase and step."""
    first = data(game).get("first", SIDES[0])
    return [first, enemy_of(first)]


def next_seq(game: Game) -> int:
    d = data(game)
    d["seq"] = int(d.get("seq", 0)) + 1
    return int(d["seq"])


# ----------------------------------------------------------------------------------------------
# Setup (2.4-2.5)
# ----------------------------------------------------------------------------------------------


def setup_zone(game: Game, edge: str) -> list[Hex]:
    """MBT 2.5: hexes within ``depth`` (4) hexes of mapboard side 1 (top) or 4 (bottom),
    counting the unit's own hex."""
    info = ctx(game).info
    depth = int(game.scenario.raw.get("setup", {}).get("depth", 4))
    rows = {h: info.panel_row[h] for h in game.board.hexes}
    panels = sorted({p for p, _ in rows.values()})
    if edge == "1":
        top = panels[0]
        return sorted(h for h, (p, r) in rows.items() if p == top and r <= depth)
    bottom = panels[-1]
    last = max(r for p, r in rows.values() if p == bottom)
    return sorted(h for h, (p, r) in rows.items() if p == bottom and r > last - depth)


def setup_phase(game: Game) -> Step:
    """MBT 2.4-2.5."""
    d = data(game)
    for u in game.state.units.values():
        init_unit(u)
    to_place = [u for u in game.state.units.values() if u.hex is None]
    if not to_place:
        d.setdefault("edge", {"NATO": "1", "Soviet": "4"})
        _initial_control(game)
        return
    sides = list(SIDES)
    high = roll_off(game, sides, purpose="MBT 2.4 mapboard side")
    edge = yield Decision(high, "mbt.edge", options=["1", "4"], rule="MBT 2.4",
                          prompt="Pick the mapboard side to set up on")
    d["edge"] = {high: edge, enemy_of(high): "4" if edge == "1" else "1"}
    game.emit("setup_edges", edges=d["edge"], rule="MBT 2.4")
    # 2.5: the LOW roller sets up first
    low = roll_off(game, sides, purpose="MBT 2.5 set-up order", high_wins=False)
    for side in (low, enemy_of(low)):
        zone = setup_zone(game, d["edge"][side])
        for u in sorted((u for u in to_place if u.side == side), key=lambda u: u.id):
            occupied = {x.hex for x in game.state.units.values() if x.hex is not None}
            options = [[game.board.label(h), f] for h in zone if h not in occupied for f in range(1, 7)]
            choice = yield Decision(side, "mbt.place", options=options, rule="MBT 2.5",
                                    context={"unit": u.id, "type": u.type},
                                    prompt=f"Set up {u.id} ({u.type}): [hex, facing]")
            u.hex = game.board.parse(choice[0])
            u.facing = int(choice[1])
            u.state["turret"] = u.facing
            # 2.5: each unit with its turret unit on top, facing any way, open or buttoned
            turret = yield Decision(side, "mbt.turret", rule="MBT 2.5",
                                    options=[[f, o] for f in range(1, 7) for o in ("open", "buttoned")],
                                    context={"unit": u.id, "turret": u.facing, "open": True},
                                    prompt=f"Turret of {u.id}: [facing, open|buttoned]")
            u.state["turret"] = int(turret[0])
            u.state["open"] = turret[1] == "open"
            game.emit("placed", visible_to=[side], unit=u.id, hex=choice[0], facing=u.facing,
                      turret=u.state["turret"], open=u.state["open"])
    _initial_control(game)


def _initial_control(game: Game) -> None:
    ctl = data(game).setdefault("control", {})
    for u in game.state.units.values():
        if alive(u) and u.hex in ctx(game).info.objectives:
            ctl[game.board.label(u.hex)] = u.side


# ----------------------------------------------------------------------------------------------
# Initiative (5.0) and Command Phase (6.0)
# ----------------------------------------------------------------------------------------------


def initiative_phase(game: Game) -> Step:
    """MBT 5.1-5.2 (and the start-of-Turn clean-up of per-Turn status)."""
    d = data(game)
    for u in game.state.units.values():
        init_unit(u)
        u.state.update(order=None, revealed=False, used=False, fired=False, moved=False,
                       entered=None, prev=None, trail=[], pending=[])
    d["atgm"] = []
    d["declared"] = []
    winner = roll_off(game, list(SIDES), purpose="MBT 5.1 initiative")
    choice = yield Decision(winner, "mbt.initiative", options=["first", "second"], rule="MBT 5.1",
                            prompt="Go first or second this Turn?")
    d["first"] = winner if choice == "first" else enemy_of(winner)
    game.emit("initiative", winner=winner, first=d["first"], rule="MBT 5.2")


def sighting_phase(game: Game) -> Step:
    """MBT 6.1: which enemy units each unit sees now (the basis for F, FM and ATGM orders)."""
    sighted: dict[str, list[str]] = {}
    for side in SIDES:
        for u in game.state.units_of(side):
            if alive(u):
                sighted[u.id] = sorted(e.id for e in game.state.units_of(enemy_of(side))
                                       if alive(e) and sees(game, u, e))
        game.emit("sighting", visible_to=[side], rule="MBT 6.1",
                  sighted={k: v for k, v in sighted.items() if game.state.units[k].side == side})
    data(game)["sighted"] = sighted
    return
    yield  # a generator


def legal_orders(game: Game, u: Unit) -> list[str]:
    """MBT 6.2.3-6.2.4: the orders this unit can carry out. F, FM and ATGM need an enemy the unit
    sighted in the Sighting Step (6.1); M and FM need a unit able to move; F, FM and OW need the
    main gun (OW: main guns only in the Basic Game); ATGM needs a missile."""
    if not alive(u):
        return []
    sees_any = bool(data(game).get("sighted", {}).get(u.id))
    out = []
    gun = gun_usable(game, u)
    if gun and sees_any:
        out.append("F")
        if can_move(u):
            out.append("FM")
    if can_move(u):
        out.append("M")
    if gun:
        out.append("OW")
    if missile_usable(game, u) and sees_any:
        out.append("ATGM")
    if "mbt_orders" in ctx(game).hooked:
        for answer in game.pm.hook.mbt_orders(game=game, unit=u, legal=tuple(out)):
            if answer:
                out = list(answer)
    return out


def order_validator(game: Game, u: Unit) -> Any:
    """Explain why an order the unit cannot carry out is refused (MBT 6.2.3)."""

    def validate(choice: Any) -> str | None:
        if choice not in ORDERS:
            return f"{choice!r} is not a Basic Game order (F, FM, M, OW, ATGM; MBT 6.2.4)"
        if choice in ("M", "FM") and not can_move(u):
            return f"{u.id} cannot move (track or hull compartment hit; MBT 6.2.3)"
        if choice in ("F", "FM", "OW") and not gun_usable(game, u):
            return f"{u.id} cannot fire its main gun (MBT 6.2.3, 7.4.5.3.2, 7.4.7.2.1)"
        if choice == "ATGM" and not missile_usable(game, u):
            return f"{u.id} has no missile it can fire (MBT 6.2.4)"
        if choice in ("F", "FM", "ATGM") and not data(game).get("sighted", {}).get(u.id):
            return f"{u.id} sighted no enemy unit in the Sighting Step (MBT 6.1)"
        return f"{u.id} cannot take order {choice} (MBT 6.2.3)"

    return validate


def orders_phase(game: Game) -> Step:
    """MBT 6.2: orders are marked face down by both sides at once (ask_all: no side sees the
    other's answers, and the engine logs each choice only for its own side)."""
    decisions: list[Decision] = []
    units: list[Unit] = []
    for side in SIDES:
        for u in game.state.units_of(side):
            legal = legal_orders(game, u)
            if not legal:
                continue
            units.append(u)
            decisions.append(Decision(side, "mbt.order", options=legal, rule="MBT 6.2",
                                      validate=order_validator(game, u),
                                      context={"unit": u.id, "type": u.type},
                                      prompt=f"Order for {u.id} ({u.type})"))
    choices = yield from ask_all(decisions)
    for u, choice in zip(units, choices, strict=True):
        u.state["order"] = choice
        game.emit("order", visible_to=[u.side], unit=u.id, order=choice, rule="MBT 6.2.1")


def reveal(game: Game, u: Unit) -> None:
    """MBT 7.3.1: the order is shown when used."""
    if not u.state.get("revealed"):
        u.state["revealed"] = True
        game.emit("order_revealed", unit=u.id, order=u.state.get("order"), rule="MBT 7.3.1")


# ----------------------------------------------------------------------------------------------
# Fire
# ----------------------------------------------------------------------------------------------


def fire_error(game: Game, f: Unit, t: Unit, ammo: str, *, orders: tuple[str, ...],
               overwatch: bool = False, moving_target: bool = False, missile: bool = False,
               check_arc: bool = True) -> str | None:
    """Why ``f`` may not fire ``ammo`` at ``t`` now (None if it may): MBT 7.1.5, 7.2, 4.7."""
    if not alive(f):
        return f"{f.id} is destroyed"
    if f.state.get("order") not in orders:
        return f"{f.id} has no {'/'.join(orders)} order (MBT 6.2.4)"
    if f.state.get("fired"):
        return f"{f.id} has already fired this Turn (MBT 7.1.5)"
    if missile:
        if not missile_usable(game, f):
            return f"{f.id} cannot fire missiles (MBT 7.4.7.2.1)"
    elif not gun_usable(game, f):
        return f"{f.id} cannot fire its main gun (MBT 7.4.5.3.2, 7.4.7.2.1)"
    if t.side == f.side:
        return f"{t.id} is not an enemy unit"
    if not alive(t):
        return f"{t.id} is not on the map"
    card = card_of(game, f)
    weapon = card.missiles[0] if missile else card.main_gun
    assert weapon is not None and f.hex is not None and t.hex is not None
    if ammo not in weapon.ammo:
        return f"the {weapon.name} has no {ammo} ammunition (it has {', '.join(weapon.ammo)})"
    if not sees(game, f, t, moving=moving_target):
        return f"{f.id} cannot see {t.id} (MBT 6.1, 7.2)"
    rng = f.hex.distance(t.hex)
    if weapon.ammo[ammo].ap_at(rng) is None:
        line = weapon.ammo[ammo]
        return (f"{t.id} at range {rng} is outside the {weapon.name} {ammo} range "
                f"{line.min_range}-{line.max_range} (MBT 4.7.2)")
    if check_arc:
        arc, facing = weapon_arc(game, f, weapon.name)
        if not in_arc(f.hex, facing, t.hex, arc):
            return f"{t.id} is outside {f.id}'s {weapon.name} firing arc (MBT 7.2.1)"
    return None


def ammo_options(game: Game, f: Unit, missile: bool = False) -> list[str]:
    """MBT 7.4.1.2: the ammunition types of the weapon fired."""
    card = card_of(game, f)
    w = card.missiles[0] if missile else card.main_gun
    return list(w.ammo) if w is not None else []


def best_ammo(game: Game, f: Unit, t: Unit, *, overwatch: bool = False, missile: bool = False,
              legal_only: tuple[str, ...] = ()) -> tuple[str, float]:
    best, best_p = "", -1.0
    card = card_of(game, f)
    w = card.missiles[0] if missile else card.main_gun
    assert w is not None
    for ammo in legal_only or tuple(w.ammo):
        if f.hex is None or t.hex is None or w.ammo[ammo].ap_at(f.hex.distance(t.hex)) is None:
            continue
        p = kill_probability(ctx(game).charts, situation(game, f, w.name, ammo, t, overwatch=overwatch))
        if p > best_p:
            best, best_p = ammo, p
    return best, best_p


def declaration_options(game: Game, side: str, targets: list[Unit], *, orders: tuple[str, ...],
                        overwatch: bool, moving_target: bool = False,
                        declared: set[str] | None = None) -> list[Any]:
    """Options for one declaration (7.3.2): ``{"target": id, "shots": [[firer, ammo], ...]}``."""
    options: list[Any] = []
    declared = declared or set()
    for t in targets:
        if t.id in declared or not alive(t):
            continue
        group: list[list[str]] = []
        for f in game.state.units_of(side):
            legal = [a for a in ammo_options(game, f)
                     if fire_error(game, f, t, a, orders=orders, overwatch=overwatch,
                                   moving_target=moving_target) is None]
            for a in legal:
                options.append({"target": t.id, "shots": [[f.id, a]]})
            if legal:
                a, _p = best_ammo(game, f, t, overwatch=overwatch, legal_only=tuple(legal))
                group.append([f.id, a])
        if len(group) > 1:
            options.append({"target": t.id, "shots": group})
    return options


def declaration_validator(game: Game, side: str, *, orders: tuple[str, ...], overwatch: bool,
                          moving_target: bool = False, targets: set[str] | None = None,
                          declared: set[str] | None = None) -> Any:
    def validate(choice: Any) -> str | None:
        if choice == "pass":
            return None
        if not isinstance(choice, dict) or "target" not in choice or "shots" not in choice:
            return 'a declaration is {"target": ID, "shots": [[FIRER, AMMO], ...]} or "pass"'
        tid = choice["target"]
        if tid not in game.state.units:
            return f"no unit {tid!r}"
        if targets is not None and tid not in targets:
            return f"{tid} is not a target that can be fired at in this step"
        if declared and tid in declared:
            return f"{tid} has already been fired at in this step (MBT 7.3.2)"
        shots = choice["shots"]
        if not isinstance(shots, list) or not shots:
            return "name at least one firer"
        seen: set[str] = set()
        for s in shots:
            if not (isinstance(s, list) and len(s) == 2):
                return "each shot is [FIRER, AMMO]"
            fid, ammo = s
            if fid not in game.state.units or game.state.units[fid].side != side:
                return f"{fid!r} is not one of your units"
            if fid in seen:
                return f"{fid} is named twice"
            seen.add(fid)
            err = fire_error(game, game.state.units[fid], game.state.units[tid], str(ammo),
                             orders=orders, overwatch=overwatch, moving_target=moving_target)
            if err:
                return err
        return None

    return validate


def resolve_shot(game: Game, f: Unit, t: Unit, ammo: str, *, overwatch: bool, simultaneous: bool,
                 missile: bool = False, target_moving: bool | None = None) -> Step:
    """Resolve one unit's fire (all its rounds) at a target and apply or queue the damage."""
    c = ctx(game)
    card = card_of(game, f)
    weapon = card.missiles[0] if missile else card.main_gun
    assert weapon is not None
    if doomed(t):
        game.report("shot wasted", result="target already knocked out", firer=f.id, target=t.id,
                    rules=["MBT 7.3.2"])
        return None
    s = situation(game, f, weapon.name, ammo, t, overwatch=overwatch, target_moving=target_moving)
    assert f.hex is not None
    angles = hit_angles(f.hex, t)
    if len(angles) > 1:
        # 7.4.5.2.1: the line of fire runs down a dividing line; the target's owner picks
        s.angle = yield Decision(t.side, "mbt.hit_angle", options=angles, rule="MBT 7.4.5.2.1",
                                 context={"firer": f.id, "target": t.id},
                                 prompt=f"{f.id}'s fire at {t.id} runs along a dividing line: "
                                        "pick the hit angle")
    if "mbt_ap_modifiers" in c.hooked:
        extra = [m for r in game.pm.hook.mbt_ap_modifiers(game=game, situation=s, firer=f, target=t)
                 for m in (r or [])]
        s.extra_modifiers = tuple(extra)
    shot = c.pipeline.resolve(s, c.charts, game.dice)
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


def mark_fired(game: Game, f: Unit) -> None:
    """MBT 7.1.4-7.1.5: a firer is marked FIRED at once and fires only once per Turn."""
    f.state["fired"] = True
    f.state["used"] = True
    f.state["spotted"] = "FIRED"
    reveal(game, f)


def fire_group(game: Game, side: str, choice: dict[str, Any], *, overwatch: bool,
               simultaneous: bool, target_moving: bool | None = None) -> Step:
    """MBT 7.3.2: every firer at one target is declared before any shot resolves."""
    t = game.state.units[choice["target"]]
    shots = [(game.state.units[fid], str(ammo)) for fid, ammo in choice["shots"]]
    game.emit("declared", side=side, target=t.id, firers=[f.id for f, _ in shots],
              ammo=[a for _, a in shots], rule="MBT 7.3.2")
    for f, _ in shots:
        mark_fired(game, f)
    for f, ammo in shots:
        yield from resolve_shot(game, f, t, ammo, overwatch=overwatch, simultaneous=simultaneous,
                     target_moving=target_moving)
    return [f.id for f, _ in shots]


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
            if dmg["compartment"] is not None:  # 7.4.7.2
                destroy(game, u, "KO")
            else:
                dmg["compartment"] = e.split("_")[0]
        elif e in ("KO", "BU"):
            destroy(game, u, e)
    game.emit("damage", unit=u.id, damage=dict(dmg), destroyed=u.state.get("destroyed"),
              rule="MBT 7.4.7")
    if "mbt_after_damage" in ctx(game).hooked:
        game.pm.hook.mbt_after_damage(game=game, unit=u, effects=list(effects))


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


def direct_fire_phase(game: Game) -> Step:
    """MBT 3.3.1, 7.1.1: F and FM units fire; simultaneous (5.3)."""
    game.defer("MBT 5.3 Direct Fire Step results", lambda: commit_pending(game))
    for side in side_order(game):
        declared: set[str] = set()
        while True:
            targets = [e for e in game.state.units_of(enemy_of(side)) if alive(e)]
            options = declaration_options(game, side, targets, orders=("F", "FM"), overwatch=False,
                                          declared=declared)
            if not options:
                break
            choice = yield Decision(side, "mbt.fire", options=["pass", *options], rule="MBT 7.3",
                                    validate=declaration_validator(game, side, orders=("F", "FM"),
                                                                   overwatch=False,
                                                                   declared=declared),
                                    context={"step": "direct"},
                                    prompt="Declare fire at one target, or pass")
            if choice == "pass":
                break
            declared.add(choice["target"])
            yield from fire_group(game, side, choice, overwatch=False, simultaneous=True)


def atgm_announce_phase(game: Game) -> Step:
    """MBT 3.3.2, 7.2.2: ATGM units announce a shot at a seen target in their arc; FIRED at once."""
    d = data(game)
    for side in side_order(game):
        while True:
            options: list[Any] = []
            for f in game.state.units_of(side):
                if f.state.get("order") != "ATGM" or f.state.get("fired"):
                    continue
                for t in game.state.units_of(enemy_of(side)):
                    if fire_error(game, f, t, "ATGM", orders=("ATGM",), missile=True) is None:
                        options.append({"firer": f.id, "target": t.id})
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


def overwatch_fire_phase(game: Game) -> Step:
    """MBT 3.3.3, 7.5.1: OW units fire at enemies that fired this Turn (including earlier in this
    step, so one shot can set off another); simultaneous (5.3)."""
    game.defer("MBT 5.3 Overwatch Fire Step results", lambda: commit_pending(game))
    declared: set[str] = set()

    def act(side: str) -> Step:
        targets = [e for e in game.state.units_of(enemy_of(side)) if alive(e) and e.state.get("fired")]
        options = declaration_options(game, side, targets, orders=("OW",), overwatch=True,
                                      declared=declared)
        if not options:
            return False
        choice = yield Decision(
            side, "mbt.fire", options=["pass", *options], rule="MBT 7.5.1",
            validate=declaration_validator(game, side, orders=("OW",), overwatch=True,
                                           targets={t.id for t in targets}, declared=declared),
            context={"step": "overwatch"}, prompt="Overwatch fire at a unit that fired, or pass")
        if choice == "pass":
            return False
        declared.add(choice["target"])
        yield from fire_group(game, side, choice, overwatch=True, simultaneous=True)
        return True

    yield from alternate(game, side_order(game), act)


# ----------------------------------------------------------------------------------------------
# Movement (8.0) with overwatch interrupts (7.5.2-7.5.3)
# ----------------------------------------------------------------------------------------------


def move_context(game: Game, mover: Unit) -> moves.MoveContext:
    """Map state a move depends on: wrecks and enemy units (road rate, MBT 8.5.2; bridges, 8.6.1),
    burning wrecks (smoke, MBT 8.4.3)."""
    wrecks = wreck_hexes(game)
    enemies = frozenset(e.hex for e in game.state.units_of(enemy_of(mover.side))
                        if alive(e) and e.hex is not None)
    return moves.MoveContext(frozenset(wrecks), frozenset(h for h, k in wrecks.items() if k == "burning"),
                             enemies)


def movement_allowance(game: Game, u: Unit) -> Fraction:
    """MBT 8.2: the Normal line; FM orders: half, fractions kept (8.2.1)."""
    mf = card_of(game, u).mf
    return mf / 2 if u.state.get("order") == "FM" else mf


def destinations(game: Game, u: Unit, budget: Fraction, turned: bool, first_hex: bool) -> dict[
        tuple[Hex, int], Fraction]:
    c = ctx(game)
    assert u.hex is not None
    found = moves.reach(card_of(game, u), c.info, (u.hex, u.facing, turned), budget,
                        move_context(game, u), first_hex_rule=first_hex)
    friends = {x.hex for x in game.state.units_of(u.side) if alive(x) and x.id != u.id}
    # 4.3: only one combat unit may finish its move in a hex
    return {k: v for k, v in found.items() if k[0] not in friends and k != (u.hex, u.facing)}


def movement_phase(game: Game) -> Step:
    """MBT 3.4.1, 8.0: each side in turn moves its M and FM units one at a time."""
    for side in side_order(game):
        offered: set[str] = set()
        while True:
            movable = [u.id for u in game.state.units_of(side)
                       if u.state.get("order") in ("M", "FM") and u.id not in offered
                       and can_move(u)]
            if not movable:
                break
            choice = yield Decision(side, "mbt.move_unit", options=["done", *movable], rule="MBT 8.1",
                                    prompt="Move which unit next? (done: end this side's moves)")
            if choice == "done":
                break
            offered.add(choice)
            yield from move_unit(game, game.state.units[choice])


def move_unit(game: Game, u: Unit) -> Step:
    """Move one unit (8.1-8.5), offering overwatch to the enemy after each hex entered and each
    turn made (7.5.2); a chain of overwatch fire is resolved before the mover goes on (7.5.3)."""
    budget = movement_allowance(game, u)
    spent = Fraction(0)
    turned = False
    entered_any = False
    turn_cost_spent = False
    watched: set[tuple[Hex, str]] = set()
    while alive(u) and can_move(u):
        assert u.hex is not None
        first_hex = (not entered_any and not turn_cost_spent and u.state.get("order") in ("M", "OR"))
        dests = destinations(game, u, budget - spent, turned, first_hex)
        friends = {x.hex for x in game.state.units_of(u.side) if alive(x) and x.id != u.id}
        stay_ok = u.hex not in friends or not dests
        # 4.6, 8.7: a unit facing off the mapboard edge that moves that way leaves the game
        can_exit = (spent < budget or first_hex) and (
            u.hex.neighbor(u.facing) not in game.board.hexes
            or u.hex.neighbor(opposite(u.facing)) not in game.board.hexes)
        options: list[Any] = (["stay"] if stay_ok else []) + (["exit"] if can_exit else []) + [
            [game.board.label(h), f] for (h, f) in sorted(dests, key=lambda k: (k[0].q, k[0].r, k[1]))]
        choice = yield Decision(u.side, "mbt.move_to", options=options, rule="MBT 8.1",
                                validate=move_validator(game, u, budget - spent),
                                context={"unit": u.id, "hex": game.board.label(u.hex),
                                         "facing": u.facing, "mf_left": str(budget - spent)},
                                prompt=f"Move {u.id} to [hex, facing], or stay")
        if choice == "stay":
            break
        if choice == "exit":
            u.state.update(moved=True, used=True, exited=True)
            reveal(game, u)
            game.emit("exited", visible_to=[u.side], unit=u.id, hex=game.board.label(u.hex),
                      rule="MBT 8.7")
            u.hex = None
            break
        if not u.state.get("moved"):
            u.state["moved"] = True
            u.state["used"] = True
            reveal(game, u)
        goal = (game.board.parse(choice[0]), int(choice[1]))
        path = moves.plan(card_of(game, u), ctx(game).info, (u.hex, u.facing, turned), goal,
                          budget - spent, move_context(game, u), first_hex_rule=first_hex)
        if path is None:  # cannot happen for a listed destination
            raise RulesError(f"{u.id} cannot reach {choice}")
        interrupted = False
        for (h, f, _t), cost in path[1:]:
            entering = h != u.hex
            spent += cost
            if entering:
                # 8.8.2: the hexes left this Turn, each with how it was entered, so that a unit
                # sent back into a hex that is disputed in turn is judged as having entered it
                u.state["trail"] = [*u.state.get("trail", []),
                                    [game.board.label(u.hex), u.state.get("entered")]]
                u.state["prev"] = game.board.label(u.hex)
                u.hex = h
                u.facing = f
                turned = False
                entered_any = True
                u.state["entered"] = [game.state.turn, next_seq(game)]
                u.state["spotted"] = "MOVED"  # 3.4.1: MOVED replaces FIRED
                if h in ctx(game).info.objectives:  # 4.8 control: last to occupy or pass through
                    data(game).setdefault("control", {})[game.board.label(h)] = u.side
            else:
                u.facing = f
                turned = True
                if cost:
                    turn_cost_spent = True
            game.emit("moved", visible_to=[u.side], unit=u.id, hex=game.board.label(h), facing=f,
                      spent=str(spent), rule="MBT 8.1.1")
            key = (h, "turned" if not entering else "entered")
            if key not in watched:
                watched.add(key)
                fired = yield from overwatch_window(game, u)
                if fired:
                    interrupted = True
                    break
        if not interrupted:
            break


def move_validator(game: Game, u: Unit, left: Fraction) -> Any:
    """Explain why a destination is refused (the legal ones are all listed)."""

    def validate(choice: Any) -> str | None:
        if not (isinstance(choice, list) and len(choice) == 2 and isinstance(choice[1], int)
                and 1 <= choice[1] <= 6):
            return 'a move is "stay" or [HEX, FACING 1-6]'
        try:
            h = game.board.parse(str(choice[0]))
        except ValueError as exc:
            return str(exc)
        if any(alive(x) and x.hex == h and x.id != u.id for x in game.state.units_of(u.side)):
            return f"{choice[0]} holds a friendly unit: a move may pass through but not end there (MBT 4.3)"
        return (f"{u.id} cannot reach {choice[0]} facing {choice[1]} with {left} MF left "
                "(MBT 8.2-8.5)")

    return validate


def ow_targets_declared(game: Game) -> set[str]:
    """MBT 7.5.2: mover-and-hex pairs already fired at (one declaration per unit per hex)."""
    return set(data(game).setdefault("ow_declared", []))


def overwatch_window(game: Game, mover: Unit) -> Step:
    """MBT 7.5.2: the watching side may stop the mover in its hex and fire overwatch at it (all such
    fire at that unit in that hex declared together). Returns True if anyone fired."""
    watcher = enemy_of(mover.side)
    assert mover.hex is not None
    hex_key = f"{mover.id}@{game.board.label(mover.hex)}"
    done = ow_targets_declared(game)
    if hex_key in done:
        return False
    options = declaration_options(game, watcher, [mover], orders=("OW",), overwatch=True,
                                  moving_target=True)
    if not options:
        return False
    choice = yield Decision(
        watcher, "mbt.overwatch", options=["pass", *options], rule="MBT 7.5.2",
        validate=declaration_validator(game, watcher, orders=("OW",), overwatch=True,
                                       moving_target=True, targets={mover.id}),
        context={"mover": mover.id, "hex": game.board.label(mover.hex)},
        prompt=f"Stop {mover.id} in {game.board.label(mover.hex)} with overwatch fire, or pass")
    if choice == "pass":
        return False
    data(game).setdefault("ow_declared", []).append(hex_key)
    shooters = yield from fire_group(game, watcher, choice, overwatch=True, simultaneous=False,
                          target_moving=True)
    yield from overwatch_chain(game, mover.side, shooters)
    return True


def overwatch_chain(game: Game, side: str, targets: list[str]) -> Step:
    """MBT 7.5.3: units that just fired overwatch may be fired at by enemy overwatch units, and so
    on, until nobody fires; the whole chain ends before the mover continues."""
    declared: set[str] = set()
    while targets:
        tu = [game.state.units[t] for t in targets if alive(game.state.units[t])]
        options = declaration_options(game, side, tu, orders=("OW",), overwatch=True,
                                      declared=declared)
        if not options:
            return
        choice = yield Decision(
            side, "mbt.overwatch", options=["pass", *options], rule="MBT 7.5.3",
            validate=declaration_validator(game, side, orders=("OW",), overwatch=True,
                                           targets={t.id for t in tu}, declared=declared),
            context={"chain": targets}, prompt="Overwatch fire at a unit that just fired, or pass")
        if choice == "pass":
            return
        declared.add(choice["target"])
        shooters = yield from fire_group(game, side, choice, overwatch=True, simultaneous=False)
        side, targets = enemy_of(side), shooters


def atgm_resolution_phase(game: Game) -> Step:
    """MBT 3.4.2, 7.2.2: resolve announced missiles at the targets' positions now; simultaneous;
    then adjust hexes holding both sides (8.8)."""
    game.defer("MBT 5.3 ATGM Resolution Step results", lambda: commit_pending(game))
    d = data(game)
    for side in side_order(game):
        for shot in d.get("atgm", []):
            f = game.state.units[shot["firer"]]
            t = game.state.units[shot["target"]]
            if f.side != side:
                continue
            if not alive(f):  # 7.2.2.1
                game.report("ATGM", result="automatic miss: firer destroyed", firer=f.id,
                            target=t.id, rules=["MBT 7.2.2.1"])
                continue
            if not alive(t):
                continue
            # 7.2.2.2: sighting, LOS and missile range now; the firing arc no longer matters
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
    adjust_contested(game)
    return
    yield


def adjust_contested(game: Game) -> None:
    """MBT 8.8: a hex holding both sides is kept by the side with a unit that did not move in this
    Turn, else by the side that entered first; the others go back to the hex they came from."""
    for _ in range(100):
        by_hex: dict[Hex, list[Unit]] = {}
        for u in game.state.units.values():
            if alive(u):
                assert u.hex is not None
                by_hex.setdefault(u.hex, []).append(u)
        contested = sorted((h for h, us in by_hex.items() if len({u.side for u in us}) > 1),
                           key=lambda h: (h.q, h.r))
        if not contested:
            return
        for h in contested:
            us = by_hex[h]
            turn = game.state.turn

            def new(u: Unit, turn: int = turn) -> bool:
                e = u.state.get("entered") or [0, 0]
                return bool(e[0] == turn)

            stayers = {u.side for u in us if not new(u)}
            if len(stayers) == 1:
                keeper = stayers.pop()
            elif stayers:  # both sides were there all Turn: cannot arise (8.8 each Turn)
                continue
            else:
                keeper = min((u for u in us if new(u)),
                             key=lambda u: int((u.state.get("entered") or [0, 0])[1])).side
            for u in us:
                if u.side == keeper:
                    continue
                trail = list(u.state.get("trail") or [])
                if trail:
                    back, entered = trail.pop()
                    u.state["trail"] = trail
                    u.state["entered"] = entered  # None: back in the hex it started the Turn in
                    u.state["prev"] = trail[-1][0] if trail else None
                elif u.state.get("prev"):
                    back = u.state["prev"]
                    u.state["prev"] = None
                    u.state["entered"] = None
                else:
                    continue
                u.hex = game.board.parse(back)
                game.emit("adjusted", unit=u.id, hex=back, rule="MBT 8.8.2")


# ----------------------------------------------------------------------------------------------
# Adjustment Phase (9.0)
# ----------------------------------------------------------------------------------------------


def pivot_phase(game: Game) -> Step:
    """MBT 9.1: reveal all orders; spotted markers for unused orders; free pivots."""
    for u in sorted(game.state.units.values(), key=lambda u: u.id):
        order = u.state.get("order")
        if order is None or not alive(u):
            continue
        reveal(game, u)
        if not u.state.get("used"):
            if order in ("F", "ATGM"):
                u.state["spotted"] = "FIRED"
            elif order in ("FM", "M", "CA", "OR"):
                u.state["spotted"] = "MOVED"
    for side in side_order(game):
        for u in game.state.units_of(side):
            order = u.state.get("order")
            if order in ("M", "FM", "OR") and not u.state.get("moved") and can_move(u):
                choice = yield Decision(side, "mbt.pivot", options=[1, 2, 3, 4, 5, 6], rule="MBT 9.1",
                                        context={"unit": u.id, "facing": u.facing},
                                        prompt=f"Pivot {u.id}: new facing ({u.facing} = no pivot)")
                if choice != u.facing:
                    u.facing = int(choice)
                    game.emit("pivot", visible_to=[side], unit=u.id, facing=u.facing, rule="MBT 9.1")


def turret_options(game: Game, u: Unit) -> list[list[Any]]:
    """MBT 9.2: turn up to TRN hexsides either way (1 with a hull compartment hit) and flip."""
    trn = card_of(game, u).trn
    if u.state["damage"]["compartment"] == "hull":
        trn = min(trn, 1)
    cur = int(u.state["turret"])
    facings = sorted({(cur - 1 + k) % 6 + 1 for k in range(-min(trn, 3), min(trn, 3) + 1)})
    return [[f, o] for f in facings for o in ("open", "buttoned")]


def turret_phase(game: Game) -> Step:
    """MBT 9.2."""
    for side in side_order(game):
        for u in game.state.units_of(side):
            if not alive(u):
                continue
            choice = yield Decision(side, "mbt.turret", options=turret_options(game, u), rule="MBT 9.2",
                                    context={"unit": u.id, "turret": u.state["turret"],
                                             "open": u.state["open"]},
                                    prompt=f"Turret of {u.id}: [facing, open|buttoned]")
            u.state["turret"] = int(choice[0])
            u.state["open"] = choice[1] == "open"


def markers_phase(game: Game) -> Step:
    """MBT 9.3: a spotted marker goes when no enemy unit can see the unit now."""
    for u in game.state.units.values():
        if alive(u) and u.state.get("spotted") and not any(
                alive(e) and sees(game, e, u) for e in game.state.units_of(enemy_of(u.side))):
            u.state["spotted"] = None
    data(game)["ow_declared"] = []
    return
    yield


def end_turn_phase(game: Game) -> Step:
    """MBT 9.4.1: the Turn ends (victory is checked by the game-over hooks)."""
    game.emit("end_turn", turn=game.state.turn, rule="MBT 9.4.1")
    return
    yield


PHASES = (
    PhaseSpec("mbt.setup", "Set up", "MBT 2.4-2.5", setup_phase, when="setup"),
    PhaseSpec("mbt.initiative", "Initiative Phase", "MBT 5.0", initiative_phase),
    PhaseSpec("mbt.sighting", "Sighting Step", "MBT 6.1", sighting_phase),
    PhaseSpec("mbt.orders", "Mark Orders Step", "MBT 6.2", orders_phase),
    PhaseSpec("mbt.direct_fire", "Direct Fire Step", "MBT 3.3.1", direct_fire_phase),
    PhaseSpec("mbt.atgm_announce", "ATGM Announcement Step", "MBT 3.3.2", atgm_announce_phase),
    PhaseSpec("mbt.overwatch_fire", "Overwatch Fire Step", "MBT 3.3.3", overwatch_fire_phase),
    PhaseSpec("mbt.movement", "Movement Step", "MBT 3.4.1", movement_phase),
    PhaseSpec("mbt.atgm_resolution", "ATGM Resolution Step", "MBT 3.4.2", atgm_resolution_phase),
    PhaseSpec("mbt.pivot", "Pivot Step", "MBT 9.1", pivot_phase),
    PhaseSpec("mbt.turrets", "Adjust Turrets Step", "MBT 9.2", turret_phase),
    PhaseSpec("mbt.markers", "Adjust Markers Step", "MBT 9.3", markers_phase),
    PhaseSpec("mbt.end_turn", "End Turn Step", "MBT 9.4", end_turn_phase),
)
