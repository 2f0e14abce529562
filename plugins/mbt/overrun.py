"""MBT 14.7, overrun combat, in the Overrun Step of the Advanced Game (MBT 11.4.2).

A vehicle with OR orders and a working gun (MBT 14.7.1.1) announces one sighted, dismounted enemy
leg or towed unit it can reach (MBT 14.7.1.2, 14.7.1.4) before it moves; with none announced it
does not move. It moves by the cheapest path to the hex next to the defender (overwatch and
missiles as in any move, MBT 11.4.2), then:

1. overrun defensive fire (MBT 14.7.2.1): the defender alone fires the sum of its usable NM GP
   factors at one hex (attached and towed weapons only when the attacker's hex is in their arc and
   the unit was not just unloaded, MBT 14.7.2.1.1-14.7.2.1.1.2), once per Overrun Step (against
   the first overrunning vehicle), and not if it fired overwatch at this attacker's move, nor if it
   was unloaded this Turn from a carrier with FM orders (MBT 15.3.2.5). It is first fire (before
   the vehicle enters; its results at once) when the defender has not fired this Turn and is not
   suppressed, in full cover too (MBT 14.7.2.1.1.3), else simultaneous with the overrun fire
   (MBT 14.7.2.1.2);
2. the vehicle enters the defender's hex (inside the buildings of a building hex, MBT 15.4.3: a
   track hit on the way in means no overrun fire), unless first fire stopped it;
3. overrun fire (MBT 14.7.2.2): the vehicle's MV GP factors at one hex plus those of passengers
   that can fire, every normal GP modifier and +20 (MBT 14.7.2.2.2); an effective result
   eliminates a squad outright;
4. the vehicle may go on moving with the movement factors left (MBT 14.7.3); at the end of the step
   the hexes holding both sides are adjusted (MBT 8.8, in :mod:`~hexwar.plugins.mbt.advanced_movement`).

Several vehicles at one defender resolve one at a time (MBT 14.7.1.5).

A Soviet doctrine organization (MBT 13.4) overruns as one: its leader announces for all, one
defender for every member or, where the hex holds several enemy leg or towed units, one defender
per member, all in that one hex (MBT 13.4.3.2, 14.7.1.3); the organization moves to the hex next to
it together (MBT 13.4.3.1), then its members overrun one at a time in the organization's order
(MBT 14.7.1.5; the defensive fire only at the first, MBT 14.7.2.1). A member whose defender an
earlier member eliminated, or that cannot overrun (MBT 14.7.1.1), moves in with the rest
(MBT 14.7.1.2); one stopped by first fire is abandoned (MBT 13.4.2.5) and the rest move on
together (MBT 14.7.3; docs/decisions.md MBTD-105, MBTD-106).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from hexwar.core.engine.decisions import Decision
from hexwar.core.engine.state import Unit
from hexwar.core.errors import RulesError
from hexwar.core.hexgrid import Hex, in_arc
from hexwar.core.kit import StashKey
from hexwar.core.types import Modifier
from hexwar.plugins.mbt import doctrine, movement_costs
from hexwar.plugins.mbt.advanced_tables import load_advanced
from hexwar.plugins.mbt.buildings import building_kind, go_inside, may_enter_buildings
from hexwar.plugins.mbt.gp_fire import (
    card_gp_factor,
    effects_of,
    gp_defense,
    gp_modifiers,
    outcome,
    raw_weapon,
)
from hexwar.plugins.mbt.state import Step, alive, can_move, card_of, ctx, data, gun_usable
from hexwar.plugins.mbt.suppression import suppressed

if TYPE_CHECKING:
    from hexwar.core.engine.game import Game

OVERRUN_RANGE = 1  # MBT 14.7.2.1, 14.7.2.2


class OverrunError(RulesError):
    """An overrun the rules forbid (the message names the rule)."""


@dataclass
class OverrunFire:
    """One side's fire in an overrun (the defensive fire or the overrun fire)."""

    factor: int
    defense: int
    modifiers: list[Modifier] = field(default_factory=list)
    roll: int = 0
    n: int = 0
    s: int = 0
    result: str = "N"
    effects: list[str] = field(default_factory=list)
    parts: list[str] = field(default_factory=list)

    @property
    def net(self) -> int:
        return int(sum(m.value for m in self.modifiers))


def _is_vehicle_with_gun(game: Game, u: Unit) -> bool:
    """MBT 14.7.1.1: a vehicle whose guns can fight (no trucks, no missile carriers)."""
    card = card_of(game, u)
    return card.kind == "vehicle" and gun_usable(game, u) and any(
        w.kind == "gun" for w in card.weapons)


def attackers(game: Game, u: Unit) -> list[Unit]:
    """MBT 13.4.3.2, 14.7.1.1: the members of ``u``'s doctrine organization (``u`` alone without
    one) that may attack in an overrun, in the organization's order."""
    return [m for m in doctrine.members(game, u) if _is_vehicle_with_gun(game, m) and can_move(m)]


def _plan(game: Game, u: Unit, target: Hex) -> list[tuple[movement_costs.State, Fraction]] | None:
    """The cheapest path into ``target`` with the unit's movement factors."""
    from hexwar.plugins.mbt.movement import move_context, movement_allowance

    assert u.hex is not None
    budget = movement_allowance(game, u)
    mctx = move_context(game, u)
    best: list[tuple[movement_costs.State, Fraction]] | None = None
    for f in range(1, 7):
        p = movement_costs.plan(card_of(game, u), ctx(game).info, (u.hex, u.facing, False),
                                (target, f), budget, mctx, first_hex_rule=True)
        if p is not None and (best is None or sum(c for _s, c in p) < sum(c for _s, c in best)):
            best = p
    return best


#: per game: the hexes a vehicle's search reaches, by everything the search reads (MBTD-193)
REACHED = StashKey[dict[tuple[Any, ...], frozenset[Hex]]]("mbt.overrun.reached")
#: the most searches :data:`REACHED` keeps (each a set of at most a few hundred hexes)
REACHED_LIMIT = 64


def _reachable(game: Game, u: Unit, target: Hex) -> bool:
    """Whether ``u`` can enter ``target`` with its movement factors (one search). The hexes one
    search reaches are kept for the game by its inputs: the Mark Orders Step asks it for each
    sighted leg unit, and again each Turn for a vehicle that has not moved (MBTD-193)."""
    from hexwar.plugins.mbt.movement import move_context, movement_allowance

    assert u.hex is not None
    card, budget, mctx = card_of(game, u), movement_allowance(game, u), move_context(game, u)
    key = (card.name, card.records.path, u.hex, u.facing, budget, mctx.wrecks, mctx.burning,
           mctx.enemies, frozenset(mctx.extra.items()), mctx.turret, mctx.halts)
    memo = game.stash.setdefault(REACHED, {})
    got = memo.get(key)
    if got is None:
        if len(memo) >= REACHED_LIMIT:  # bounded: a long game searches again
            memo.clear()
        found = movement_costs.reach(card, ctx(game).info, (u.hex, u.facing, False), budget,
                                     mctx, first_hex_rule=True)
        got = memo[key] = frozenset(h for h, _f in found)
    return target in got


def overrun_error(game: Game, u: Unit, t: Unit, *, sighted_now: bool = True) -> str | None:
    """MBT 14.7.1-14.7.1.4: why ``u`` may not overrun ``t`` (None if it may). For a member of a
    doctrine organization: why the organization may not (MBT 13.4.3.2: some of its members may be
    unable to, as long as one can)."""
    from hexwar.plugins.mbt.sighting import sees

    group = attackers(game, u)
    if not group or not can_move(u):
        return (f"{u.id} is not a vehicle able to move with a gun that can fight "
                "(MBT 14.7.1.1)")
    if t.side == u.side or card_of(game, t).kind not in ("leg", "towed"):
        return f"{t.id} is not an enemy leg or towed unit (MBT 14.7)"
    if t.state.get("mounted") or not alive(t):
        return f"{t.id} is carried by a vehicle or off the map: it cannot be overrun (MBT 14.7.1.4)"
    # sighted in this Turn's Sighting Step, or seen now (docs/decisions.md MBTD-73)
    # an organization sees what any of its members sees: they share one hex (MBT 13.4.3.1)
    sighted = data(game).get("sighted", {})
    seen = any(t.id in (sighted.get(m.id) or []) for m in doctrine.members(game, u)) or (
        sighted_now and sees(game, u, t, moving=True))
    if not seen:
        return f"{u.id} does not see {t.id}: only a sighted unit can be overrun (MBT 14.7.1.2)"
    assert t.hex is not None
    if building_kind(game, t) is not None and not any(
            may_enter_buildings(card_of(game, m)) for m in group):
        return f"{u.id} may not enter buildings, so it cannot overrun {t.id} (MBT 14.7.1, 15.4.1.2)"
    if not _reachable(game, u, t.hex):
        return (f"{t.id} in {game.board.label(t.hex)} is out of {u.id}'s reach this Turn "
                "(MBT 14.7.1.2)")
    return None


def overrun_targets(game: Game, u: Unit, *, sighted_now: bool = True) -> list[Unit]:
    from hexwar.plugins.mbt.state import enemy_of

    if not attackers(game, u) or not can_move(u):
        return []
    saved = u.state.get("order")
    u.state["order"] = "OR"  # the full movement factors of an OR order (MBT 14.7.1.2)
    try:
        return [t for t in game.state.units_of(enemy_of(u.side))
                if alive(t) and card_of(game, t).kind in ("leg", "towed")
                and overrun_error(game, u, t, sighted_now=sighted_now) is None]
    finally:
        u.state["order"] = saved


def unloaded_from_fm(game: Game, d: Unit) -> bool:
    """MBT 15.3.2.5: a leg or towed unit unloaded this Turn from a carrier with FIRE/MOVE orders
    (it took its carrier's orders, MBT 15.3.3.1) may not be fired this Turn."""
    return d.state.get("unloaded") == game.state.turn and d.state.get("order") == "FM"


def defensive_factor(game: Game, d: Unit, entry: Hex) -> tuple[int, list[str]]:
    """MBT 14.7.2.1.1: the sum of the defender's usable NM GP factors at one hex; attached and
    towed weapons only with ``entry`` in their arc and not just unloaded."""
    assert d.hex is not None
    card = card_of(game, d)
    total, parts = 0, []
    just_unloaded = d.state.get("unloaded") == game.state.turn
    for w in card.weapons:
        gp = card_gp_factor(card, w.name, OVERRUN_RANGE, False)
        if not gp:
            continue
        attached = bool(raw_weapon(card, w.name).get("attached")) or card.kind == "towed"
        if attached:
            if just_unloaded:  # MBT 14.7.2.1.1.2
                continue
            if not in_arc(d.hex, d.facing, entry, w.arc if w.arc != "turret" else "360"):
                continue  # MBT 14.7.2.1.1.1
        total += gp
        parts.append(f"{w.name} {gp}")
    return total, parts


def attack_factor(game: Game, u: Unit) -> tuple[int, list[str]]:
    """MBT 14.7.2.2.1: the vehicle's MV GP factors at one hex, plus passengers that can fire."""
    from hexwar.plugins.mbt.transport import fires_buttoned, passengers, passengers_exposed

    card = card_of(game, u)
    total, parts = 0, []
    working = gun_usable(game, u)  # MBT 14.7.1.1: a gun or turret compartment hit silences it
    from hexwar.plugins.mbt.machineguns import overrun_usable

    main_fires = working and bool(card.main_gun and card_gp_factor(
        card, card.main_gun.name, OVERRUN_RANGE, True))
    for w in card.weapons:
        gp = (card_gp_factor(card, w.name, OVERRUN_RANGE, True)
              if w.kind == "gun" and (working or not w.main_gun)
              and overrun_usable(game, u, w.name, main_fires) else None)  # MBT 14.1.2
        if gp:
            total += gp
            parts.append(f"{w.name} {gp}")
    # MBT 15.3.4.2: from a buttoned full-cover vehicle only through firing ports (one hex here)
    if passengers_exposed(game, u) or fires_buttoned(card):
        for p in passengers(game, u):
            pc = card_of(game, p)
            if pc.kind != "leg":
                continue  # MBT 15.3.4.1: towed units never fire carried
            for w in pc.weapons:
                if raw_weapon(pc, w.name).get("attached"):
                    continue  # MBT 15.3.4.1: only rocket launchers fire carried, with no GP
                gp = card_gp_factor(pc, w.name, OVERRUN_RANGE, True)
                if gp:
                    total += gp
                    parts.append(f"{p.id} {w.name} {gp}")
    return total, parts


def _fire(game: Game, f: Unit, t: Unit, factor: int, *, overrun: bool) -> OverrunFire:
    t_moving = bool(t.state.get("moved")) if overrun else True
    saved = f.hex
    if overrun and f.hex == t.hex and f.state.get("prev"):
        f.hex = game.board.parse(str(f.state["prev"]))  # fired at one hex (MBT 14.7.2.2)
    try:
        mods = gp_modifiers(game, f, t, overwatch=False, target_moving=t_moving)
    finally:
        f.hex = saved
    if overrun:
        m = load_advanced().gp["overrun_fire"]
        mods.append(Modifier("overrun fire", m.value, f"MBT 14.7.2.2.2 [{m.source}]", stage=1))
    defense = gp_defense(game, f, t, t_moving)
    shot = OverrunFire(factor, defense, mods)
    shot.n, shot.s, _src = load_advanced().gp_thresholds(max(1, factor), defense)
    shot.roll = game.dice.d100(f"{'overrun' if overrun else 'overrun defensive'} fire "
                               f"(GP {factor} vs {defense})")
    shot.result = outcome(shot.roll + shot.net, shot.n, shot.s) if factor else "N"
    if overrun:  # at a leg or towed unit
        shot.effects = {"N": [], "S": ["suppress"], "EF": ["leg_elim"]}[shot.result]
    else:  # at the vehicle (MBT 14.4.4.2)
        shot.effects = effects_of(shot.result, target_open=bool(t.state.get("open", True)),
                                  explosive=None, missile_in_flight=False)
    return shot


def _report(game: Game, what: str, f: Unit, t: Unit, shot: OverrunFire, rule: str,
            first: bool | None = None) -> None:
    from hexwar.plugins.mbt.orders import seen_by

    extra: dict[str, Any] = {} if first is None else {"first_fire": first}
    game.report(what, visible_to=seen_by(game, [f, t]),
                result={"result": shot.result, "effects": shot.effects},
                modifiers=shot.modifiers, rules=[rule, "MBT 14.4.4.1"], firer=f.id, target=t.id,
                gp_factor=shot.factor, factors=shot.parts, gp_defense=shot.defense, net=shot.net,
                roll=shot.roll, modified=shot.roll + shot.net, n=shot.n, s=shot.s, **extra)


def _walk(game: Game, u: Unit, steps: list[tuple[movement_costs.State, Fraction]]) -> Step:
    """Move along planned steps as a move does (MBT 8.1, 7.5.2), with overwatch at each; stops
    when the unit can no longer move. Returns the MF spent."""
    from hexwar.plugins.mbt.hookspecs import MbtHooks
    from hexwar.plugins.mbt.movement import next_seq
    from hexwar.plugins.mbt.orders import reveal
    from hexwar.plugins.mbt.overwatch import overwatch_window

    spent = Fraction(0)
    for (h, f, _t), cost in steps:
        if not alive(u) or not can_move(u):
            break
        assert u.hex is not None
        spent += cost
        entering = h != u.hex
        if not u.state.get("moved"):
            u.state.update(moved=True, used=True)
            reveal(game, u)
        if entering:
            u.state["trail"] = [*u.state.get("trail", []),
                                [game.board.label(u.hex), u.state.get("entered")]]
            u.state["prev"] = game.board.label(u.hex)
            u.hex = h
            u.state["entered"] = [game.state.turn, next_seq(game)]
            u.state["spotted"] = "MOVED"
            if h in ctx(game).info.objectives:
                data(game).setdefault("control", {})[game.board.label(h)] = u.side
        u.facing = f
        game.emit("moved", visible_to=[u.side], unit=u.id, hex=game.board.label(h), facing=f,
                  spent=str(spent), rule="MBT 14.7")
        MbtHooks.of(game).unit_moved(u)
        yield from overwatch_window(game, u)
    return spent


def assignment_error(game: Game, u: Unit, choice: Any) -> str | None:
    """MBT 13.4.3.2, 14.7.1.3: why an organization's announcement is refused: a list names one
    defender per attacking member (in the organization's order), all in one hex."""
    group = attackers(game, u)
    if not isinstance(choice, list) or len(choice) != len(group) or not all(
            isinstance(x, str) and x in game.state.units for x in choice):
        return (f"{u.id}'s organization announces one defender for all, or a list of "
                f"{len(group)} defenders, one per member {[m.id for m in group]} (MBT 14.7.1.3)")
    ts = [game.state.units[x] for x in choice]
    if len({t.hex for t in ts}) != 1:
        return ("the members of a doctrine organization overrun enemy units in one hex only "
                "(MBT 13.4.3.2, MBT 14.7.1.3)")
    for t in ts:
        err = overrun_error(game, u, t)
        if err:
            return err
    return None


def _combat(game: Game, u: Unit, t: Unit, last: tuple[movement_costs.State, Fraction],
            fired_before: bool) -> Step:
    """MBT 14.7.2: one vehicle next to its defender: defensive fire, entry, overrun fire.
    Returns the MF spent from the hex next to the defender on."""
    from hexwar.plugins.mbt.fire import apply_effects

    assert u.hex is not None and t.hex is not None
    done: set[str] = set(data(game).setdefault("overrun_defended", []))
    # MBT 14.7.2.1: once per step, and not both overwatch at this move and defensive fire
    defends = t.id not in done and not (t.state.get("fired") and not fired_before)
    if unloaded_from_fm(game, t):
        defends = False  # MBT 15.3.2.5: not fired at all this Turn (MBTD-172)
    # MBT 14.7.2.1.2, 14.7.2.1.1.3: first fire unless suppressed (full cover or not)
    first = defends and not fired_before and not suppressed(t)
    pending: list[str] = []
    if defends:
        data(game)["overrun_defended"] = sorted(done | {t.id})
        factor, parts = defensive_factor(game, t, u.hex)
        shot = _fire(game, t, u, factor, overrun=False)
        shot.parts = parts
        _report(game, "overrun defensive fire", t, u, shot, "MBT 14.7.2.1", first)
        t.state["fired"] = True
        if first:
            if shot.effects:
                apply_effects(game, u, shot.effects)
            if not alive(u) or not can_move(u):
                return Fraction(0)  # MBT 14.7.2.1.2: stopped next to the defender, no overrun fire
        else:
            pending = shot.effects
    spent = yield from _walk(game, u, [last])
    fires = alive(u) and u.hex == t.hex
    if fires and building_kind(game, t) is not None and not u.state.get("inb"):
        res = go_inside(game, u)  # MBT 14.7.2.1.2, 15.4.3
        spent += 1
        fires = not res.track and alive(u)  # MBT 15.4.3.2.4
    if fires:
        factor, parts = attack_factor(game, u)
        shot = _fire(game, u, t, factor, overrun=True)
        shot.parts = parts
        _report(game, "overrun fire", u, t, shot, "MBT 14.7.2.2")
        if shot.effects:
            apply_effects(game, t, shot.effects)
    if pending and alive(u):
        apply_effects(game, u, pending)
    return spent


def overrun(game: Game, u: Unit, t: Unit, assignment: list[str] | None = None) -> Step:
    """MBT 14.7.1-14.7.3: ``u`` (with its doctrine organization, MBT 13.4.3.2) overruns ``t``;
    ``assignment``: a defender per attacking member, all in ``t``'s hex (MBT 14.7.1.3). Returns
    the MF it spent."""
    err = overrun_error(game, u, t) if assignment is None else assignment_error(game, u,
                                                                                assignment)
    if err:
        raise OverrunError(err)
    group = attackers(game, u)
    targets = dict(zip((m.id for m in group), assignment or [t.id] * len(group), strict=True))
    assert t.hex is not None
    target_hex = t.hex
    steps = _plan(game, u, target_hex)
    assert steps is not None
    enter = next(i for i, ((h, _f, _t), _c) in enumerate(steps) if h == target_hex)
    approach, last = steps[1:enter], steps[enter]  # any turn after entering is not needed
    fired_before = {d: bool(game.state.units[d].state.get("fired")) for d in targets.values()}
    spent = yield from _walk(game, u, approach)  # the members follow (MBT 13.4.3.1)
    if not alive(u) or u.hex is None or u.hex.distance(target_hex) != 1:
        return spent
    everyone = doctrine.members(game, u)
    if len(everyone) == 1:
        if alive(t):
            spent += yield from _combat(game, u, t, last, fired_before[t.id])
        return spent
    # MBT 14.7.1.5: the members one at a time, in the organization's order (MBTD-105)
    most = Fraction(0)
    beside = u.hex  # the hex next to the defender, where the organization stands
    with doctrine.apart(game):
        for m in everyone:
            if not alive(m) or not can_move(m) or m.hex != beside:
                continue
            d = game.state.units.get(targets.get(m.id, ""))
            if d is not None and alive(d) and d.hex == target_hex and not d.state.get("mounted"):
                most = max(most, (yield from _combat(game, m, d, last, fired_before[d.id])))
            else:  # MBT 14.7.1.2: its defender is gone, or it cannot fight: it moves in
                most = max(most, (yield from _walk(game, m, [last])))
    return spent + most


def overrun_chance(game: Game, u: Unit, t: Unit) -> float:
    """For the AI: the chance of an effective overrun fire result (MBT 14.7.2.2) from the hex next
    to the defender (0 when ``u`` could not overrun ``t`` now)."""
    if (t.hex is None or u.hex is None or card_of(game, t).kind not in ("leg", "towed")
            or not _is_vehicle_with_gun(game, u)):
        return 0.0
    factor, _parts = attack_factor(game, u)
    defense = gp_defense(game, u, t, bool(t.state.get("moved")))
    saved = u.hex
    u.hex = t.hex.neighbor(1) if t.hex.neighbor(1) in game.board.hexes else t.hex.neighbor(4)
    try:
        net = sum(m.value for m in gp_modifiers(game, u, t, overwatch=False,
                                                target_moving=bool(t.state.get("moved"))))
    finally:
        u.hex = saved
    net += load_advanced().gp["overrun_fire"].value
    _n, s, _src = load_advanced().gp_thresholds(max(1, factor), defense)
    one = max(0, min(100, 100 - (s - net))) / 100
    # MBT 13.4.3.2, 14.7.1.5: a doctrine organization's members each overrun in turn
    n = len(attackers(game, u)) if doctrine.members(game, u) != [u] else 1
    return 1.0 - (1.0 - one) ** max(1, n)


def overrun_validator(game: Game, u: Unit) -> Any:
    def validate(choice: Any) -> str | None:
        if choice == "none":
            return None
        if isinstance(choice, list):  # MBT 14.7.1.3: one defender per member, in one hex
            return assignment_error(game, u, choice)
        if not isinstance(choice, str) or choice not in game.state.units:
            return f"{choice!r} is not a unit (answer a defender's id, a list of them, or none)"
        return overrun_error(game, u, game.state.units[choice])

    return validate


def overrun_unit(game: Game, u: Unit) -> Step:
    """MBT 14.7.1.2, 14.7.3: announce the defender (or none: the vehicle does not move), overrun,
    then move on with what is left."""
    from hexwar.plugins.mbt.movement import move_unit

    targets = overrun_targets(game, u)
    if not targets:
        return
    group = doctrine.members(game, u)
    context: dict[str, Any] = {"unit": u.id}
    if len(group) > 1:
        context["members"] = [m.id for m in attackers(game, u)]
    # the options name one defender for the whole organization; a split over the defenders of
    # one hex (a list, MBT 14.7.1.3) is accepted by the validator but not listed (MBTD-105)
    choice = yield Decision(u.side, "mbt.overrun", options=["none", *[t.id for t in targets]],
                            rule="MBT 14.7.1.2", validate=overrun_validator(game, u),
                            context=context,
                            prompt=f"{u.id}: announce the enemy leg or towed unit to overrun, "
                                   "or none (it then does not move)"
                                   + (": one for all, or a list with one per member in one hex "
                                      "(MBT 14.7.1.3)" if len(group) > 1 else ""))
    if choice == "none":
        return
    if isinstance(choice, list):
        spent = yield from overrun(game, u, game.state.units[choice[0]], list(choice))
    else:
        spent = yield from overrun(game, u, game.state.units[choice])
    lead = doctrine.regroup(game, u)  # MBT 13.4.2.5: members stopped on the way are left behind
    if alive(lead) and can_move(lead):
        yield from move_unit(game, lead, spent)  # MBT 14.7.3
