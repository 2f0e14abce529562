"""Basic Game Actions (Firepower 6.2) and their effects (Firepower 6.6): what a soldier of the
current Impulse may do, what it costs, and carrying it out.

Every Action is a JSON choice; :func:`check_action` (pure: never changes the game) raises
:class:`~hexwar.core.errors.RulesError` citing the rule for an illegal one, and
:func:`apply_action` checks, then applies. Decisions list the legal Actions
(:func:`legal_actions`) and validate any other choice with :func:`check_action`, so an illegal
Action is never offered and never applied.

The Basic Actions (enter, turn, posture, cross, fire, grenade, melee) are built in. An optional
rule or the Advanced Game adds its own (Firepower 11.1: climb, acquire, open a door, ...) through
the hook ``firepower_action_types``: each :class:`ActionType` checks a choice (pure, raising
RulesError with the rule), says what it costs, applies it, and lists its choices for a soldier.
This module charges the MF (counting them for the firer-movement modifier when ``combat`` is
false, Firepower 6.3.6.2.7), enforces one Combat Action per Impulse Phase (Firepower 6.2.5) and
the MF allowance (Firepower 6.2, Firepower 6.2.8). Fire, grenades and melee run the procedures
of :mod:`hexwar.plugins.firepower.combat`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from hexwar.core.errors import RulesError
from hexwar.core.hexgrid import Hex, in_arc, opposite
from hexwar.core.kit import Pipeline
from hexwar.core.kit.stash import StashKey
from hexwar.core.types import Modifier, total
from hexwar.plugins.firepower import combat
from hexwar.plugins.firepower.hookspecs import FirepowerHooks
from hexwar.plugins.firepower.soldiers import RUNNING_HEXES, Soldier, mf_allowance, soldiers_of
from hexwar.plugins.firepower.state import (
    alive,
    data,
    eliminate,
    fp_map,
    phase_of,
    rules_card,
    soldiers,
    stun,
    suppress,
)
from hexwar.plugins.firepower.tables import POSTURES, BasicCard
from hexwar.plugins.firepower.terrain import FpMap

if TYPE_CHECKING:
    from hexwar.core.engine.game import Game
    from hexwar.core.engine.state import Unit

NONCOMBAT = ("enter", "turn", "posture", "cross")

#: ``check(game, phase, choice) -> info``: info holds at least ``unit`` and ``cost``
Check = Callable[["Game", dict[str, Any], dict[str, Any]], dict[str, Any]]
Apply = Callable[["Game", dict[str, Any], dict[str, Any]], None]
Options = Callable[["Game", dict[str, Any], str], list[dict[str, Any]]]


@dataclass(frozen=True)
class ActionType:
    """One kind of Action a soldier of the current Impulse may perform (choice ``act = name``)."""

    name: str
    check: Check
    apply: Apply
    options: Options | None = None
    combat: bool = False
    rule: str = ""
    #: written down secretly (Firepower 11.1.12 load notes): logged for the soldier's side alone
    secret: bool = False


def mf_left(game: Game, ph: dict[str, Any], uid: str) -> int:
    """MF a soldier may still spend this Impulse Phase (Firepower 6.2, Firepower 6.2.8)."""
    u = game.state.units[uid]
    allowance = mf_allowance(u.state.get("status"))
    if allowance > 0:
        mods = FirepowerHooks.of(game).mf_modifiers(uid)
        if mods:
            allowance += int(sum(m.value for m in mods))
    return allowance - int(ph["spent"].get(uid, 0))


def _check_active(game: Game, ph: dict[str, Any], uid: Any) -> Unit:
    if not isinstance(uid, str) or uid not in game.state.units:
        raise RulesError(f"no soldier {uid!r}", rule="Firepower 6.2")
    u = game.state.units[uid]
    if not alive(u):
        raise RulesError(f"{uid} has been eliminated", rule="Firepower 6.3.6.3.1")
    if uid not in ph["active"]:
        if uid in ph["used"]:
            raise RulesError(f"{uid} was used in the other Impulse of this Impulse Phase",
                             rule="Firepower 6.2")
        raise RulesError(f"{uid} is not one of the soldiers of this Impulse", rule="Firepower 6.1")
    if uid in ph["done"]:
        raise RulesError(f"{uid} won a melee and must end his Actions", rule="Firepower 6.5.3")
    if u.state.get("status") == "stunned":
        raise RulesError(f"{uid} is Stunned and may not spend MF", rule="Firepower 6.2.8")
    return u


def _pay(game: Game, ph: dict[str, Any], uid: str, cost: int, noncombat: bool) -> None:
    left = mf_left(game, ph, uid)
    if cost > left:
        raise RulesError(f"{uid} has {left} MF left; the Action costs {cost}",
                         rule="Firepower 6.2")
    if noncombat and uid in ph["after"] and cost > int(ph["after"][uid]):
        raise RulesError(f"{uid} announced only {ph['after'][uid]} more MF when firing",
                         rule="Firepower 6.3.6")


def enter_cost(c: BasicCard, m: FpMap, u: Unit, *, level: bool = False
               ) -> tuple[int, Hex, list[str]]:
    """Firepower 6.2.1, Firepower 6.2.3: the hex directly in front, plus a hill or depression
    hexside crossed on the way, one choice (docs/decisions.md FPD-12). ``level``: along a
    bridge's deck no such hexside is crossed (Firepower 8.9, docs/decisions.md FPD-123)."""
    assert u.hex is not None
    posture = str(u.state.get("posture", "stand"))
    dest = u.hex.neighbor(u.facing)
    if dest not in m.hexes:
        raise RulesError("no soldier may exit the mapboard", rule="Firepower 4.9")
    cost = c.mf_cost("enter", posture)
    parts = [f"enter {cost}"]
    if m.contour_between(u.hex, dest) and not level:
        x = c.mf_cost("cross", posture)
        cost += x
        parts.insert(0, f"cross hill/depression hexside {x}")
    pic = m.fence.get(u.hex) or m.hedge.get(u.hex)
    side = u.state.get("side")
    if (pic is not None and side is not None and u.facing not in (pic.a, pic.b)
            and pic.part_of(u.facing) != pic.part_of(int(side))):
        raise RulesError(f"{u.id} must first cross the {pic.kind} in his hex",
                             rule="Firepower 6.2.3")
    return cost, dest, parts


def passes_opposing(game: Game, u: Unit, there: list[str], dest: Hex) -> bool:
    """Firepower 11.1.1 (Advanced Game; docs/decisions.md FPD-144): a hex holding opposing
    soldiers is entered without a melee when none of them could be meleed (none shares a height
    with the mover: upstairs, on a tower's floor, Up a tree over his head). The Advanced melee
    refuses a melee meeting no one; the Basic Game has no such hex."""
    if "firepower.advanced" not in game.rules_enabled:
        return False
    try:
        return not FirepowerHooks.of(game).melee_defenders([u.id], there, dest)
    except RulesError:
        return True  # no melee is possible (Firepower 13)


def _on_deck_way(game: Game, u: Unit) -> bool:
    """Firepower 8.9: the hex in front is entered along a bridge's deck (the Advanced Game's
    bridges; nothing without them)."""
    from hexwar.plugins.firepower.bridges import along_front

    return along_front(game, u)


def check_action(game: Game, choice: Any) -> dict[str, Any]:
    """Check one Action (never changes the game); returns what it would do, or raises RulesError.

    Choices: ``{"unit", "act": "enter"}``, ``{"unit", "act": "turn", "to": d}``,
    ``{"unit", "act": "posture", "to": p}``, ``{"unit", "act": "cross"}``,
    ``{"unit", "act": "fire", "mode", "targets": [...], "after": n}``,
    ``{"unit", "act": "grenade", "hex": label, "side"?: d}``,
    ``{"act": "melee", "units": [...], "hex": label}``, and ``"end"``.
    """
    ph = phase_of(game)
    if choice == "end":
        return {"act": "end"}
    if not isinstance(choice, dict) or "act" not in choice:
        raise RulesError(f"not an Action: {choice!r}", rule="Firepower 6.2")
    c, m = rules_card(game), fp_map(game)
    act = choice["act"]
    if not isinstance(act, str):
        raise RulesError(f"an Action's 'act' names it (move, fire, ...), not {act!r}"[:100],
                         rule="Firepower 6.2")
    if "unit" in choice and not isinstance(choice["unit"], str):
        raise RulesError("an Action's 'unit' is a soldier's id", rule="Firepower 6.2")
    if act == "melee":
        return _check_melee(game, ph, choice)
    extra = action_types(game).get(act)
    if extra is not None:
        return _check_extra(game, ph, extra, choice)
    u = _check_active(game, ph, choice.get("unit"))
    assert u.hex is not None
    posture = str(u.state.get("posture", "stand"))
    if act == "enter":
        cost, dest, parts = enter_cost(c, m, u, level=_on_deck_way(game, u))
        named = choice.get("hex")
        if named is not None and named != m.label(dest) and (
                not isinstance(named, str) or m.parse_label.get(named.upper()) != dest):
            raise RulesError(f"{u.id} may enter only the hex directly in front "
                             f"({m.label(dest)}), not {named}", rule="Firepower 6.2.1")
        # under the ground the soldiers on the surface are not met: the Advanced Game's tunnel
        # check (hidden_setup.check_tunnel_move) counts the opposing soldiers underground
        there = sorted(s.id for s in soldiers(game).values() if s.hex == dest and s.side != u.side)
        if not u.state.get("tunnel") and there and not passes_opposing(game, u, there, dest):
            raise RulesError("a hex holding opposing soldiers may be entered only by melee",
                             rule="Firepower 6.2.1")
        _pay(game, ph, u.id, cost, True)
        return {"act": act, "unit": u.id, "cost": cost, "to": dest, "parts": parts}
    if act == "turn":
        to = choice.get("to")
        if not isinstance(to, int) or isinstance(to, bool) or not 1 <= to <= 6:
            raise RulesError("a soldier must face a hexside 1-6", rule="Firepower 4.3")
        if to == u.facing:
            raise RulesError("a turn changes the facing by 1-3 hexsides", rule="Firepower 6.2.2")
        from hexwar.plugins.firepower.free_turns import turn_cost

        cost, debt = turn_cost(game, ph, u, to, c.mf_cost("turn", posture))  # Firepower 11.3.1
        _pay(game, ph, u.id, cost, True)
        return {"act": act, "unit": u.id, "cost": cost, "to": to, "owed": debt}
    if act == "posture":
        to = choice.get("to")
        if to not in POSTURES or to == posture:
            raise RulesError(f"{u.id} cannot change posture from {posture} to {to!r}",
                             rule="Firepower 6.2.4")
        cost = c.mf_cost(f"to_{to}", posture)
        _pay(game, ph, u.id, cost, True)
        return {"act": act, "unit": u.id, "cost": cost, "to": to}
    if act == "cross":
        pic = m.fence.get(u.hex) or m.hedge.get(u.hex)
        if pic is None:
            raise RulesError("there is no fence or hedge in this hex to cross",
                             rule="Firepower 6.2.3")
        cost = c.mf_cost("cross", posture)
        _pay(game, ph, u.id, cost, True)
        side = u.state.get("side") or pic.default_side(u.facing)
        return {"act": act, "unit": u.id, "cost": cost, "to": pic.other_side(int(side))}
    if act in ("fire", "grenade"):
        if u.id in ph["combat"]:
            raise RulesError(f"{u.id} already made a Combat Action this Impulse Phase",
                             rule="Firepower 6.2.5")
        label = m.label(u.hex)
        # one firer per hex per Impulse Phase (docs/decisions.md FPD-13)
        if label in ph["fired_hexes"]:
            raise RulesError(f"a soldier of this stack already fired from {label}",
                             rule="Firepower 6.3.1.3")
        # MF announced for after firing bound later non-combat Actions (docs/decisions.md FPD-17)
        after = choice.get("after", 0) if act == "fire" else 0
        if not isinstance(after, int) or isinstance(after, bool) or after < 0:
            raise RulesError("announce the MF to be spent after firing as a number",
                             rule="Firepower 6.3.6")
        cost = c.mf_cost("fire", posture)
        from hexwar.plugins.firepower.free_turns import owed

        due = owed(ph, u.id)  # Firepower 11.3.1: free turns are paid by a firer (FPD-142)
        if due and cost + due + after > mf_left(game, ph, u.id):
            raise RulesError(f"{u.id} took free turns for {due} MF this Impulse: firing costs "
                             f"{cost} and them, {mf_left(game, ph, u.id)} MF are left",
                             rule="Firepower 11.3.1")
        cost += due
        if cost + after > mf_left(game, ph, u.id):
            raise RulesError(f"{u.id} has {mf_left(game, ph, u.id)} MF left: firing costs {cost}"
                             f" and {after} more were announced", rule="Firepower 6.3.5")
        ctx = fire_context(game, u.id, choice)
        # the legality step of the game's own procedure (an optional rule's, if it replaced it)
        fire_procedure(game, ctx.kind).steps[0].run(ctx)
        return {"act": act, "unit": u.id, "cost": cost, "after": after, "ctx": ctx}
    raise RulesError(f"unknown Action {act!r}", rule="Firepower 6.2")


#: the game's Action types by name, with the hook facade they came from (FPD-194)
ACTION_TYPES = StashKey[tuple[object, dict[str, ActionType]]]("firepower.action_types")


def action_types(game: Game) -> dict[str, ActionType]:
    """Action types added by optional rules (hook ``firepower_action_types``), asked once a
    game (FPD-194): the hook takes no argument and the game's plugins are fixed, so its answer
    is the game's for good; every check and listing of an Action read it (a hook call in the
    inner loop of listing the legal Actions). Not to be changed by the caller."""
    hooks = FirepowerHooks.of(game)
    got = game.stash.get(ACTION_TYPES)
    if got is not None and got[0] is hooks:
        return got[1]
    out: dict[str, ActionType] = {}
    for t in hooks.action_types():
        if t.name in BUILT_IN or t.name in out:
            raise RulesError(f"two definitions of the Action {t.name!r}")
        out[t.name] = t
    game.stash[ACTION_TYPES] = (hooks, out)
    return out


BUILT_IN = ("enter", "turn", "posture", "cross", "fire", "grenade", "melee", "end")


def _check_extra(game: Game, ph: dict[str, Any], t: ActionType,
                 choice: dict[str, Any]) -> dict[str, Any]:
    u = _check_active(game, ph, choice.get("unit"))
    if t.combat and u.id in ph["combat"]:
        raise RulesError(f"{u.id} already made a Combat Action this Impulse Phase",
                         rule="Firepower 6.2.5")
    info = dict(t.check(game, ph, choice))
    cost = int(info.get("cost", 0))
    _pay(game, ph, u.id, cost, not t.combat)
    info.update({"act": t.name, "unit": u.id, "cost": cost, "type": t})
    return info


def fire_context(game: Game, uid: str, choice: dict[str, Any]) -> combat.FireContext:
    ph = data(game).get("phase") or {}
    m, sol = fp_map(game), soldiers(game)
    firer = sol[uid]
    from hexwar.plugins.firepower.free_turns import owed

    # Firepower 11.3.1: free turns a firer pays count as moving (FPD-142)
    nc = int((ph.get("nc") or {}).get(uid, 0)) + int(choice.get("after", 0) or 0) + owed(ph, uid)
    roll = game.dice.d10
    extra = extra_modifiers(game)
    if choice["act"] == "fire":
        targets = choice.get("targets")
        if not isinstance(targets, list) or not all(isinstance(t, str) for t in targets):
            raise RulesError("name the target units", rule="Firepower 6.3.1.1")
        mode = choice.get("mode")
        if not isinstance(mode, str):
            raise RulesError("choose a rate of fire", rule="Firepower 6.3.5.2")
        prior = (ph.get("modes") or {}).get(uid)
        if prior is not None and prior != mode:
            raise RulesError("only one rate of fire per Impulse Phase", rule="Firepower 6.3.5.2")
        ctx = combat.FireContext("fire", rules_card(game), m, sol, firer, firer.weapon, mode,
                                 roll, targets=tuple(targets), noncombat_mf=nc,
                                 extra_modifiers=extra)
        FirepowerHooks.of(game).prepare_fire(ctx, choice)
        return ctx
    label = choice.get("hex")
    if not isinstance(label, str):
        raise RulesError("name the target hex", rule="Firepower 6.3.1.1")
    try:
        target = m.parse(label)
    except ValueError as exc:
        raise RulesError(str(exc), rule="Firepower 6.3.1.1") from None
    side = choice.get("side")
    ctx = combat.FireContext("grenade", rules_card(game), m, sol, firer, "HGN", "throw", roll,
                             target_hex=target,
                             vertex_side=side if isinstance(side, int) else None,
                             noncombat_mf=nc, extra_modifiers=extra)
    FirepowerHooks.of(game).prepare_fire(ctx, choice)
    return ctx


def extra_modifiers(game: Game) -> Callable[[combat.FireContext, Soldier], list[Modifier]] | None:
    """The optional rules' modifiers of one shot (hook ``firepower_fire_modifiers``) as a
    :class:`~hexwar.plugins.firepower.combat.FireContext` wants them; None if no rule adds any."""
    hooks = FirepowerHooks.of(game)
    if "firepower_fire_modifiers" not in hooks.implemented():
        return None

    def extra(ctx: combat.FireContext, target: Soldier) -> list[Modifier]:
        return hooks.fire_modifiers(ctx, target.id)

    return extra


#: FPD-202: the game's fire procedures, by kind and the rules' step edits they were built from
_PROCEDURES = StashKey[dict[tuple[Any, ...], Pipeline[combat.Step]]]("firepower.procedures")


def fire_procedure(game: Game, kind: str) -> Pipeline[combat.Step]:
    """The fire procedure of ``kind`` with the enabled rules' step edits
    (hook ``firepower_fire_steps``). The hook is asked every time; the procedure built from its
    edits is kept for the game by their content (FPD-202: the same edits make the same steps,
    and a procedure is never changed), since every check of a fire builds one."""
    edits = FirepowerHooks.of(game).fire_steps(kind)
    key = (kind, *edits)
    try:
        hash(key)
    except TypeError:  # an edit that cannot be compared by content: built afresh
        return combat.procedure(kind, edits)
    kept = game.stash.setdefault(_PROCEDURES, {})
    got = kept.get(key)
    if got is None:
        if len(kept) > 64:
            kept.clear()
        got = kept[key] = combat.procedure(kind, edits)
    return got


def _check_melee(game: Game, ph: dict[str, Any], choice: dict[str, Any]) -> dict[str, Any]:
    """Firepower 6.2.5.2, Firepower 6.5: attackers of the current Impulse enter a hex holding
    opposing soldiers, each with at least one MF left for the melee after entering; a Combat
    Action for each attacker, resolved at once (docs/decisions.md FPD-24)."""
    c, m = rules_card(game), fp_map(game)
    units = choice.get("units")
    label = choice.get("hex")
    if not isinstance(units, list) or not units or not isinstance(label, str):
        raise RulesError("a melee names its attackers and the hex", rule="Firepower 6.5")
    if len(set(units)) != len(units):
        raise RulesError("each attacker is named once", rule="Firepower 6.5")
    try:
        dest = m.parse(label)
    except ValueError as exc:
        raise RulesError(str(exc), rule="Firepower 6.5") from None
    # under the ground (the Advanced Game's tunnels, Firepower 8.8.8) attackers in a tunnel meet
    # the soldiers in the tunnel hex, not those on the surface (docs/decisions.md FPD-98)
    below = any(isinstance(x, str) and x in game.state.units
                and game.state.units[x].state.get("tunnel") for x in units)
    pool = soldiers_of(game.state.units, tunnels=True) if below else soldiers(game)
    defenders = [s for s in pool.values() if s.hex == dest and s.side != ph["side"]
                 and (not below or game.state.units[s.id].state.get("tunnel"))]
    if not defenders and not (below and _finds_no_one(game, ph["side"], dest, units)):
        raise RulesError(f"no opposing soldier in {label}", rule="Firepower 6.2.5.2")
    if defenders and not below:  # a rule may leave out those not met (the Advanced Game's 13)
        met = set(FirepowerHooks.of(game).melee_defenders(
            list(units), sorted(s.id for s in defenders), dest))
        defenders = [s for s in defenders if s.id in met]
    costs: dict[str, int] = {}
    for uid in units:
        u = _check_active(game, ph, uid)
        if uid in ph["combat"]:
            raise RulesError(f"{uid} already made a Combat Action this Impulse Phase",
                             rule="Firepower 6.2.5")
        cost, front, _ = enter_cost(c, m, u, level=_on_deck_way(game, u))
        if front != dest:
            raise RulesError(f"{label} is not the hex directly in front of {uid}",
                             rule="Firepower 6.2.1")
        melee = c.mf_cost("melee", str(u.state.get("posture", "stand")))
        _pay(game, ph, uid, cost + melee, True)
        costs[uid] = cost + melee
    # a rule may refuse the melee or add modifiers (the Advanced Game's Firepower 13)
    extra = FirepowerHooks.of(game).melee_modifiers(list(units), sorted(s.id for s in defenders),
                                                    dest) if defenders else []
    return {"act": "melee", "units": list(units), "hex": dest, "costs": costs,
            "defenders": sorted(s.id for s in defenders), "extra": extra}


def apply_action(game: Game, choice: Any) -> dict[str, Any]:
    """Check, then carry out one Action (Firepower 6.2, Firepower 6.6: effects apply at once)."""
    info = check_action(game, choice)
    ph = data(game)["phase"]
    act = info["act"]
    if act == "end":
        return info
    if act == "melee":
        return _do_melee(game, ph, info)
    uid = info["unit"]
    u = game.state.units[uid]
    note_underground(ph, u)
    ph["spent"][uid] = int(ph["spent"].get(uid, 0)) + info["cost"]
    t: ActionType | None = info.get("type")
    if t is not None:
        if t.combat:
            ph["combat"].append(uid)
        else:
            ph["nc"][uid] = int(ph["nc"].get(uid, 0)) + info["cost"]
            if uid in ph["after"]:
                ph["after"][uid] = int(ph["after"][uid]) - info["cost"]
        t.apply(game, ph, info)
        game.emit("action", visible_to=_shown(game, uid, t.secret),
                  unit=uid, act=t.name, cost=info["cost"], rule=t.rule)
        _acted(game, uid, t.name)
        return info
    if act in NONCOMBAT:
        ph["nc"][uid] = int(ph["nc"].get(uid, 0)) + info["cost"]
        if uid in ph["after"]:
            ph["after"][uid] = int(ph["after"][uid]) - info["cost"]
    if act == "enter" and u.state.get("tunnel") and _stopped(game, ph, u, info["to"]):
        info["stopped"] = True  # FPD-119: the attacker met defenders under the ground
    elif act == "enter":
        src = u.hex
        assert src is not None
        u.hex = info["to"]
        ph["entered"][uid] = int(ph["entered"].get(uid, 0)) + 1
        _arrive(game, u, src)
        if ph["entered"][uid] >= RUNNING_HEXES:  # Firepower 4.5, Firepower 6.2.1
            u.state["speed"] = "running"
        game.emit("action", visible_to=_shown(game, uid),
                  unit=uid, act="enter", hex=game.board.label(u.hex),
                  cost=info["cost"], parts=info["parts"], rule="Firepower 6.2.1")
    elif act == "turn":
        from hexwar.plugins.firepower.free_turns import note

        note(game, ph, u, int(info.get("owed", 0)))  # Firepower 11.3.1
        u.facing = info["to"]
        game.emit("action", visible_to=_shown(game, uid),
                  unit=uid, act="turn", to=u.facing, cost=info["cost"],
                  rule="Firepower 6.2.2")
    elif act == "posture":
        u.state["posture"] = info["to"]
        game.emit("action", visible_to=_shown(game, uid),
                  unit=uid, act="posture", to=info["to"], cost=info["cost"],
                  rule="Firepower 6.2.4")
    elif act == "cross":
        u.state["side"] = info["to"]
        game.emit("action", visible_to=_shown(game, uid),
                  unit=uid, act="cross", side=info["to"], cost=info["cost"],
                  rule="Firepower 6.2.3")
    else:
        _do_fire(game, ph, info)
    _acted(game, uid, act)
    return info


def note_underground(ph: dict[str, Any], u: Unit) -> None:
    """Firepower 11.5, 8.8.8: note in the Impulse Phase's record a soldier who is in a tunnel
    while he acts, so that the other side's view of the record leaves him out for the rest of
    the phase (his MF spent underground stay unknown after he comes up: docs/decisions.md
    FPD-137; ``tunnels.phase_view``). The key is made only when needed."""
    if u.state.get("tunnel") and u.id not in ph.get("underground", ()):
        ph["underground"] = sorted([*ph.get("underground", ()), u.id])


def _acted(game: Game, uid: str, act: str) -> None:
    ph = data(game).get("phase")
    if isinstance(ph, dict):  # into a tunnel by this Action (FPD-137)
        note_underground(ph, game.state.units[uid])
    # the Advanced Game's take-over window closes at any other Action (Firepower 11.1.6.2,
    # docs/decisions.md FPD-118), kept in the state; nothing to do while none is open
    if data(game).get("take_over"):
        from hexwar.plugins.firepower.crews import acted

        acted(game, uid, act)


def _shown(game: Game, uid: str, secret: bool = False) -> list[str] | None:
    """Who reads an Action in the log: everyone, but only his side for a soldier in a tunnel
    (Advanced Game, Firepower 8.8.8) or for an Action written down secretly (Firepower 11.1.12)."""
    u = game.state.units[uid]
    return [u.side] if secret or u.state.get("tunnel") else None


def spend_extra(game: Game, uid: str, n: int) -> None:
    """Charge ``n`` more MF to ``uid``'s Impulse for an Action already applied (an extra another
    rule adds: snow or mud, a height hexside), counted as non-combat MF and against the MF he
    announced when firing (Firepower 6.3.6)."""
    ph = data(game)["phase"]
    ph["spent"][uid] = int(ph["spent"].get(uid, 0)) + n
    ph["nc"][uid] = int(ph["nc"].get(uid, 0)) + n
    if uid in ph["after"]:
        ph["after"][uid] = int(ph["after"][uid]) - n


def _arrive(game: Game, u: Unit, src: Hex) -> None:
    """Entering a fence or hedge hex puts the soldier on the part he came in by (Firepower 4.7,
    docs/decisions.md FPD-8)."""
    m = fp_map(game)
    assert u.hex is not None
    pic = m.fence.get(u.hex) or m.hedge.get(u.hex)
    if pic is None:
        u.state["side"] = None
        return
    came_in = opposite(u.facing)
    u.state["side"] = came_in if came_in not in (pic.a, pic.b) else pic.default_side(u.facing)


def _do_fire(game: Game, ph: dict[str, Any], info: dict[str, Any]) -> None:
    uid = info["unit"]
    ctx: combat.FireContext = info["ctx"]
    ph["combat"].append(uid)
    from hexwar.plugins.firepower.free_turns import settle

    due = settle(ph, uid)  # Firepower 11.3.1: the free turns paid with the fire (in the cost)
    if due:
        ph["nc"][uid] = int(ph["nc"].get(uid, 0)) + due
    ph["fired_hexes"].append(fp_map(game).label(ctx.firer.hex))
    if info["act"] == "fire":
        ph["modes"][uid] = ctx.mode
        ph["after"][uid] = info["after"]
    combat.run(ctx, fire_procedure(game, ctx.kind))
    apply_effects(game, ctx)


def apply_effects(game: Game, ctx: combat.FireContext) -> None:
    """Apply a fire's results at once (Firepower 6.6) and report them with every modifier."""
    by = ctx.firer.side
    for t in ctx.eliminated:
        if alive(game.state.units[t]):
            eliminate(game, t, by, "Firepower 6.3.6.3")
    for t in ctx.stunned:
        if alive(game.state.units[t]):
            stun(game, t)
    for t in ctx.suppressed:
        if alive(game.state.units[t]):
            suppress(game, t)
    FirepowerHooks.of(game).fire_applied(ctx)
    mods = [m for ms in ctx.modifiers.values() for m in ms]
    game.report(f"{ctx.kind} by {ctx.firer.id}", result=ctx.summary(), modifiers=mods,
                rules=ctx.rules)
    _acted(game, ctx.firer.id, ctx.kind)  # a fire, a throw or a charge set off (FPD-118)


def _stopped(game: Game, ph: dict[str, Any], u: Unit, dest: Hex) -> bool:
    # the attacker's entering of a tunnel hex he knows, held now: carried out and stopped, not
    # refused, so he learns no more than Firepower 11.5 tells (docs/decisions.md FPD-119)
    from hexwar.plugins.firepower.tunnels import stop, stopped_underground

    if not stopped_underground(game, u, dest):
        return False
    stop(game, ph, u, dest)
    return True


def _finds_no_one(game: Game, side: str, dest: Hex, units: list[str]) -> bool:
    # the attacker's melee into a tunnel hex he knows but that emptied: carried out, not
    # refused, so he learns no more than Firepower 11.5 tells (docs/decisions.md FPD-119)
    from hexwar.plugins.firepower.tunnels import finds_no_one

    return finds_no_one(game, side, dest, units)


def pay_melee(ph: dict[str, Any], info: dict[str, Any]) -> None:
    """Firepower 6.2.5.2: each attacker pays the MF of entering and of the melee, his Combat
    Action."""
    for uid in info["units"]:
        ph["spent"][uid] = int(ph["spent"].get(uid, 0)) + info["costs"][uid]
        ph["combat"].append(uid)


def winners_enter(game: Game, ph: dict[str, Any], units: list[str], dest: Hex) -> None:
    """Firepower 6.5.1, Firepower 6.5.3: the winning attackers enter the melee hex and end their
    Actions (also the attacker's melee that finds no one under the ground, FPD-119)."""
    for uid in units:
        u = game.state.units[uid]
        src = u.hex
        assert src is not None
        u.hex = dest
        ph["entered"][uid] = int(ph["entered"].get(uid, 0)) + 1
        _arrive(game, u, src)
        ph["done"].append(uid)


def _do_melee(game: Game, ph: dict[str, Any], info: dict[str, Any]) -> dict[str, Any]:
    units, dest, defenders = info["units"], info["hex"], info["defenders"]
    for uid in units:  # Firepower 11.5: a melee in the tunnels (FPD-137)
        note_underground(ph, game.state.units[uid])
    if not defenders:  # FPD-119: the attackers find no one
        from hexwar.plugins.firepower.tunnels import find_no_one

        return find_no_one(game, ph, info)
    pay_melee(ph, info)
    roll = game.dice.d10(f"melee in {game.board.label(dest)}")
    mod = combat.melee_modifier(len(units), len(defenders))
    extra: list[Modifier] = list(info.get("extra") or [])
    if extra:  # Firepower 13: the Advanced modifiers, cumulative with 6.5.2's
        winner: str = ("attacker" if roll + (mod.value if mod else 0) + total(extra)
                       <= combat.MELEE_HIT else "defender")
    else:
        winner = combat.melee_winner(roll, len(units), len(defenders))
    if winner == "attacker":  # Firepower 6.5.1, Firepower 6.5.3
        for d in defenders:
            eliminate(game, d, ph["side"], "Firepower 6.5.1")
        winners_enter(game, ph, units, dest)
    else:
        for uid in units:
            eliminate(game, uid, game.state.units[defenders[0]].side, "Firepower 6.5.1")
    game.report("melee", result={"roll": roll, "winner": winner, "attackers": units,
                                 "defenders": defenders, "hex": game.board.label(dest)},
                modifiers=([mod] if mod else []) + extra,
                rules=["Firepower 6.5.1", "Firepower 6.5.2"] + (["Firepower 13"] if extra else []))
    info["winner"] = winner
    return info


# ---------------------------------------------------------------------------------------------
# Listing the legal choices
# ---------------------------------------------------------------------------------------------


#: FPD-199: while a listing of the legal Actions is under way (``listing``), what the Basic
#: check answered for each choice listed, by the choice's ``repr``
_LISTED = StashKey[dict[str, dict[str, Any]]]("firepower.listed-checks")


def _legal(game: Game, choice: Any) -> bool:
    try:
        info = check_action(game, choice)
    except RulesError:
        return False
    listed = game.stash.get(_LISTED)
    if listed is not None:
        listed[repr(choice)] = info
    return True


@contextmanager
def listing(game: Game) -> Iterator[None]:
    """FPD-199: one listing of the legal Actions (``with listing(game): ...``), which checks
    every choice of :func:`legal_actions` with the Basic check and then again with a rule's
    fuller check (the Advanced Game's) that begins with the Basic one: the game does not change
    in between (a check never changes it), so the second asks :func:`listed_check` for the
    first's answer, each answer handed out once. Emptied when the listing ends."""
    if game.stash.get(_LISTED) is not None:  # a listing within one goes on with it
        yield
        return
    game.stash[_LISTED] = {}
    try:
        yield
    finally:
        game.stash.pop(_LISTED, None)


def listed_check(game: Game, choice: Any) -> dict[str, Any]:
    """:func:`check_action` of ``choice``: the answer the current listing (FPD-199) already had
    for it, handed out once, or a check made now."""
    listed = game.stash.get(_LISTED)
    if listed is not None:
        got = listed.pop(repr(choice), None)
        if got is not None:
            return got
    return check_action(game, choice)


def legal_actions(game: Game) -> list[Any]:
    """Every legal Action of the current Impulse worth listing (grenade hexes: those holding or
    next to opposing soldiers; others are accepted by validation), then ``"end"``."""
    ph = data(game)["phase"]
    m = fp_map(game)
    sol = soldiers(game)
    enemies = [s for s in sol.values() if s.side != ph["side"]]
    out: list[Any] = []
    melee_groups: dict[str, list[str]] = {}
    for uid in ph["active"]:
        u = game.state.units[uid]
        if not alive(u) or uid in ph["done"] or u.state.get("status") == "stunned":
            continue
        left = mf_left(game, ph, uid)
        if left <= 0:
            continue
        assert u.hex is not None
        for ch in ({"unit": uid, "act": "enter"}, {"unit": uid, "act": "cross"}):
            if _legal(game, ch):
                out.append(ch)
        for d in range(1, 7):
            if d != u.facing:
                ch = {"unit": uid, "act": "turn", "to": d}
                if _legal(game, ch):
                    out.append(ch)
        for p in POSTURES:
            ch = {"unit": uid, "act": "posture", "to": p}
            if p != u.state.get("posture") and _legal(game, ch):
                out.append(ch)
        for t in action_types(game).values():
            if t.options is not None and not (t.combat and uid in ph["combat"]):
                out.extend(ch for ch in t.options(game, ph, uid) if _legal(game, ch))
        if uid in ph["combat"] or u.state.get("tunnel"):  # Firepower 8.8.8: underground
            continue
        front = u.hex.neighbor(u.facing)
        if any(e.hex == front for e in enemies):
            melee_groups.setdefault(m.label(front), []).append(uid)
        out.extend(_fire_options(game, ph, u, enemies, left))
    for label, group in sorted(melee_groups.items()):
        cands = [{"act": "melee", "units": [g], "hex": label} for g in group]
        if len(group) > 1:
            cands.append({"act": "melee", "units": list(group), "hex": label})
        out.extend(ch for ch in cands if _legal(game, ch))
    out.append("end")
    return out


Reach = tuple[Callable[[str, int], bool], Callable[[int], bool]]


def _screens(game: Game, uid: str) -> Reach | None:
    """Cheap necessary conditions of the full check for listing ``uid``'s fire and grenade
    choices (issue 14), or None when a rule replaced a check step (its own step decides).

    Both built-in check steps (Basic and Advanced) refuse a target hex that is the firer's own or
    outside his front arc (Firepower 6.3.2.1, Firepower 6.3.3), and a range the weapon has no
    hit number for (Firepower 6.3.2, Firepower 10.7); returned: ``fire(mode, rng)`` and
    ``grenade(rng)``, false only where the full check would refuse."""
    from hexwar.plugins.firepower import advanced_fire

    fire = fire_procedure(game, "fire").steps[0].run
    grenade = fire_procedure(game, "grenade").steps[0].run
    if fire is combat.step_check_fire and grenade is combat.step_check_grenade:
        c = rules_card(game)
        weapon = str(game.state.units[uid].state.get("weapon", "RFL"))
        return ((lambda mode, rng: c.in_range(weapon, mode, rng)),
                (lambda rng: c.in_range("HGN", "throw", rng)))
    if fire is advanced_fire.step_check_fire and grenade is advanced_fire.step_check_hex:
        return advanced_fire.reach(game, uid)
    return None


def _fire_options(game: Game, ph: dict[str, Any], u: Unit, enemies: list[Soldier],
                  left: int, screen: bool = True) -> list[Any]:
    """The fire and grenade Actions of ``u`` that pass the full check. With ``screen`` (the
    default) target hexes that fail a cheap necessary condition of the full check
    (:func:`_screens`: arc, own hex, range) are dropped before it (issue 14: the full check with
    its line of sight per pair was most of a game's time); the list is the same either way."""
    c = rules_card(game)
    m = fp_map(game)
    uid = u.id
    w = c.weapons[str(u.state.get("weapon", "RFL"))]
    fire_cost = c.mf_cost("fire", str(u.state.get("posture", "stand")))
    if left < fire_cost:
        return []
    assert u.hex is not None
    here, facing = u.hex, int(u.facing)
    screens = _screens(game, uid) if screen else None

    def may_aim(h: Hex) -> bool:
        return screens is None or (h != here and in_arc(here, facing, h, "front60"))

    def may_fire(h: Hex, mode: str) -> bool:
        return screens is None or screens[0](mode, here.distance(h))

    def may_throw(h: Hex) -> bool:
        return screens is None or screens[1](here.distance(h))

    afters = list(range(0, left - fire_cost + 1))
    out: list[Any] = []
    by_hex: dict[Hex, list[str]] = {}
    for e in enemies:
        by_hex.setdefault(e.hex, []).append(e.id)
    prior = ph["modes"].get(uid)
    for h, ids in sorted(by_hex.items()):
        ids.sort()
        if not may_aim(h):
            continue
        for mode in w.modes:
            if prior is not None and mode != prior:
                continue
            if not may_fire(h, mode):
                continue
            groups: list[list[str]] = [[i] for i in ids]
            if mode == "auto" and w.automatic and len(ids) > 1:
                groups.append(ids[: w.automatic[0]])
            for g in groups:
                base = {"unit": uid, "act": "fire", "mode": mode, "targets": g, "after": 0}
                if not _legal(game, base):
                    continue
                for a in afters:
                    out.append({**base, "after": a})
    # grenades: hexes holding or next to opposing soldiers
    seen: set[Hex] = set()
    for h in sorted(by_hex):
        for t in (h, *h.neighbors()):
            if t in seen or t not in m.hexes:
                continue
            seen.add(t)
            if not (may_aim(t) and may_throw(t)):
                continue
            ch = {"unit": uid, "act": "grenade", "hex": m.label(t)}
            if _legal(game, ch):
                out.append(ch)
    return out
