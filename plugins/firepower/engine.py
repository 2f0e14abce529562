"""The Basic Game on the hexwar engine: set-up (2), the turn (3, 5, 6.1), Actions (6.2) and their
effects (6.3-6.6), victory (7).

Phases are generators that yield :class:`~hexwar.core.engine.decisions.Decision`. Every Action is a
JSON choice; :func:`check_action` (pure: never changes the game) raises
:class:`~hexwar.core.errors.RulesError` citing the rule for an illegal one, and :func:`apply_action`
checks, then applies. Decisions list the legal Actions (:func:`legal_actions`) and validate any
other choice with :func:`check_action`, so an illegal Action is never offered and never applied.

Game-wide state lives in ``game.state.data["firepower"]`` (JSON only):

* ``cup``: sequence units still to be drawn this Turn (Firepower 5, 6.1); ``drawn``: how many
  were drawn (their identity is never shown: no player may examine them, 6.1);
* ``board_side``: side name -> ``"5/6"`` or ``"2/3"`` (2.2);
* ``phase``: the current Impulse Phase (side, Impulse number, soldiers used, MF spent...).
"""

from __future__ import annotations

import weakref
from collections.abc import Generator, Iterable
from typing import TYPE_CHECKING, Any

from hexwar.core.engine.decisions import Decision
from hexwar.core.engine.primitives import ChitCup, roll_off
from hexwar.core.errors import RulesError
from hexwar.core.hexgrid import Hex, opposite
from hexwar.core.labels import parse_letter_number
from hexwar.core.types import GameResult, Modifier, PhaseSpec
from hexwar.plugins.firepower import combat
from hexwar.plugins.firepower.actions import ActionType
from hexwar.plugins.firepower.soldiers import (
    RUNNING_HEXES,
    Soldier,
    initial_state,
    mf_allowance,
    soldier_of,
    soldiers_of,
)
from hexwar.plugins.firepower.tables import POSTURES, BasicCard, card
from hexwar.plugins.firepower.terrain import FpMap

if TYPE_CHECKING:
    from hexwar.core.board import Board
    from hexwar.core.engine.game import Game
    from hexwar.core.engine.state import Unit

Gen = Generator[Any, Any, None]
KEY = "firepower"
BOARD_SIDES = ("5/6", "2/3")
NONCOMBAT = ("enter", "turn", "posture", "cross")

_maps: weakref.WeakKeyDictionary[Board, FpMap] = weakref.WeakKeyDictionary()


def fp_map(game: Game) -> FpMap:
    """The game's Basic terrain (built once per board)."""
    m = _maps.get(game.board)
    if m is None:
        m = FpMap.from_board(game.board)
        _maps[game.board] = m
    return m


def data(game: Game) -> dict[str, Any]:
    d: dict[str, Any] = game.state.data.setdefault(KEY, {})
    return d


def rules_card(game: Game) -> BasicCard:
    return card()


# ---------------------------------------------------------------------------------------------
# Board geometry of the scenario: setup zones and the fold
# ---------------------------------------------------------------------------------------------


def column_of(game: Game, h: Hex) -> int:
    """Column index (A = 0) of a board hex from its label."""
    return parse_letter_number(game.board.label(h))[1]


def board_columns(game: Game) -> tuple[int, int]:
    d = data(game)
    if "columns" not in d:
        cols = [column_of(game, h) for h in game.board.hexes]
        d["columns"] = [min(cols), max(cols)]
    lo, hi = d["columns"]
    return int(lo), int(hi)


def fold_column(game: Game) -> int:
    """The fold's "0 row" as a column index ([special] fold in the scenario, Firepower 7)."""
    special = game.scenario.raw.get("special", {})
    fold = special.get("fold")
    if isinstance(fold, str):
        from hexwar.core.labels import column_index

        return column_index(fold)
    lo, hi = board_columns(game)
    return (lo + hi) // 2


def setup_depth(game: Game) -> int:
    return int(game.scenario.raw.get("setup", {}).get("depth", 5))


def in_setup_zone(game: Game, board_side: str, h: Hex) -> bool:
    """Firepower 2.4: within five hexes of the side, the soldier's hex and the partial edge hexes
    included (edge column = the first hex)."""
    lo, hi = board_columns(game)
    c = column_of(game, h)
    depth = setup_depth(game)
    return c <= lo + depth - 1 if board_side == "5/6" else c >= hi - depth + 1


def beyond_fold(game: Game, board_side: str, h: Hex) -> bool:
    """Firepower 7: on the opposite side of the mapboard, strictly past the fold (digest A-18)."""
    c, f = column_of(game, h), fold_column(game)
    return c > f if board_side == "5/6" else c < f


# ---------------------------------------------------------------------------------------------
# Soldiers in the game
# ---------------------------------------------------------------------------------------------


def soldiers(game: Game) -> dict[str, Soldier]:
    return soldiers_of(game.state.units)


def alive(unit: Unit) -> bool:
    return unit.hex is not None and not unit.state.get("eliminated")


def eliminate(game: Game, uid: str, by: str | None, rule: str) -> None:
    """Firepower 6.3.6.3.1, 6.5.1: an eliminated soldier is removed from play."""
    u = game.state.units[uid]
    u.state["eliminated"] = True
    u.state["eliminated_by"] = by
    u.state["speed"] = "normal"
    u.state["status"] = None
    u.hex = None
    game.emit("eliminated", unit=uid, rule=rule)


def stun(game: Game, uid: str) -> None:
    """Firepower 6.4.2-6.4.4: Stunned, marked Prone, Running removed."""
    u = game.state.units[uid]
    u.state["status"] = "stunned"
    u.state["posture"] = "prone"
    u.state["speed"] = "normal"


def suppress(game: Game, uid: str) -> None:
    """Firepower 6.4.1, 6.4.3: Suppressed (a Stunned soldier stays Stunned), Running removed."""
    u = game.state.units[uid]
    if u.state.get("status") != "stunned":
        u.state["status"] = "suppressed"
    u.state["speed"] = "normal"


# ---------------------------------------------------------------------------------------------
# The Impulse Phase bookkeeping
# ---------------------------------------------------------------------------------------------


def new_phase(side: str) -> dict[str, Any]:
    return {"side": side, "impulse": 0, "used": [], "active": [], "spent": {}, "nc": {},
            "combat": [], "after": {}, "entered": {}, "fired_hexes": [], "done": [],
            "modes": {}}


def phase_of(game: Game) -> dict[str, Any]:
    ph = data(game).get("phase")
    if not ph:
        raise RulesError("no Impulse Phase is under way", rule="Firepower 6.1")
    return dict(ph)


def _hook(game: Game, name: str) -> Any:
    """A ``firepower_`` hook if some plugin implements it (the hot paths skip it otherwise)."""
    hook = getattr(game.pm.hook, name, None)
    return hook if hook is not None and hook.get_hookimpls() else None


def mf_left(game: Game, ph: dict[str, Any], uid: str) -> int:
    """MF a soldier may still spend this Impulse Phase (Firepower 6.2, 6.2.8)."""
    u = game.state.units[uid]
    allowance = mf_allowance(u.state.get("status"))
    hook = _hook(game, "firepower_mf_modifiers")
    if hook is not None and allowance > 0:
        allowance += int(sum(m.value for ms in hook(game=game, unit_id=uid) for m in ms or []))
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


def enter_cost(c: BasicCard, m: FpMap, u: Unit) -> tuple[int, Hex, list[str]]:
    """Firepower 6.2.1, 6.2.3: the hex directly in front, plus a hill or depression hexside."""
    assert u.hex is not None
    posture = str(u.state.get("posture", "stand"))
    dest = u.hex.neighbor(u.facing)
    if dest not in m.hexes:
        raise RulesError("no soldier may exit the mapboard", rule="Firepower 4.9")
    cost = c.mf_cost("enter", posture)
    parts = [f"enter {cost}"]
    if m.contour_between(u.hex, dest):
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
    if act == "melee":
        return _check_melee(game, ph, choice)
    extra = action_types(game).get(act)
    if extra is not None:
        return _check_extra(game, ph, extra, choice)
    u = _check_active(game, ph, choice.get("unit"))
    assert u.hex is not None
    posture = str(u.state.get("posture", "stand"))
    if act == "enter":
        cost, dest, parts = enter_cost(c, m, u)
        named = choice.get("hex")
        if named is not None and named != m.label(dest) and (
                not isinstance(named, str) or m.parse_label.get(named.upper()) != dest):
            raise RulesError(f"{u.id} may enter only the hex directly in front "
                             f"({m.label(dest)}), not {named}", rule="Firepower 6.2.1")
        if any(s.hex == dest and s.side != u.side for s in soldiers(game).values()):
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
        cost = c.mf_cost("turn", posture)
        _pay(game, ph, u.id, cost, True)
        return {"act": act, "unit": u.id, "cost": cost, "to": to}
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
        if label in ph["fired_hexes"]:
            raise RulesError(f"a soldier of this stack already fired from {label}",
                             rule="Firepower 6.3.1.3")
        after = choice.get("after", 0) if act == "fire" else 0
        if not isinstance(after, int) or isinstance(after, bool) or after < 0:
            raise RulesError("announce the MF to be spent after firing as a number",
                             rule="Firepower 6.3.6")
        cost = c.mf_cost("fire", posture)
        if cost + after > mf_left(game, ph, u.id):
            raise RulesError(f"{u.id} has {mf_left(game, ph, u.id)} MF left: firing costs {cost}"
                             f" and {after} more were announced", rule="Firepower 6.3.5")
        ctx = fire_context(game, u.id, choice)
        combat.check_only(ctx)
        return {"act": act, "unit": u.id, "cost": cost, "after": after, "ctx": ctx}
    raise RulesError(f"unknown Action {act!r}", rule="Firepower 6.2")


def action_types(game: Game) -> dict[str, ActionType]:
    """Action types added by optional rules (hookspec ``firepower_action_types``)."""
    hook = _hook(game, "firepower_action_types")
    if hook is None:
        return {}
    out: dict[str, ActionType] = {}
    for r in hook():
        for t in r or []:
            if t.name in BUILT_IN or t.name in out:
                raise RulesError(f"two definitions of the Action {t.name!r}")
            out[t.name] = t
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
    nc = int((ph.get("nc") or {}).get(uid, 0)) + int(choice.get("after", 0) or 0)
    roll = game.dice.d10
    extra = _extra_modifiers(game)
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
        return combat.FireContext("fire", rules_card(game), m, sol, firer, firer.weapon, mode,
                                  roll, targets=tuple(targets), noncombat_mf=nc,
                                  extra_modifiers=extra)
    label = choice.get("hex")
    if not isinstance(label, str):
        raise RulesError("name the target hex", rule="Firepower 6.3.1.1")
    try:
        target = m.parse(label)
    except ValueError as exc:
        raise RulesError(str(exc), rule="Firepower 6.3.1.1") from None
    side = choice.get("side")
    return combat.FireContext("grenade", rules_card(game), m, sol, firer, "HGN", "throw", roll,
                              target_hex=target,
                              vertex_side=side if isinstance(side, int) else None,
                              extra_modifiers=extra)


def _extra_modifiers(game: Game) -> Any:
    hook = _hook(game, "firepower_fire_modifiers")
    if hook is None:
        return None

    def extra(ctx: combat.FireContext, target: Soldier) -> list[Modifier]:
        out: list[Modifier] = []
        for r in hook(game=game, ctx=ctx, target=target.id):
            out.extend(r or [])
        return out

    return extra


def fire_steps(game: Game, kind: str) -> list[combat.Step]:
    base = combat.FIRE_STEPS if kind == "fire" else combat.GRENADE_STEPS
    hook = _hook(game, "firepower_fire_step_edits")
    if hook is None:
        return list(base)
    edits: list[combat.StepEdit] = []
    for r in hook(kind=kind):
        edits.extend(r or [])
    return combat.apply_edits(base, edits)


def _check_melee(game: Game, ph: dict[str, Any], choice: dict[str, Any]) -> dict[str, Any]:
    """Firepower 6.2.5.2, 6.5: attackers enter a hex holding opposing soldiers, each with at
    least one MF left for the melee after entering; a Combat Action for each attacker."""
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
    defenders = [s for s in soldiers(game).values() if s.hex == dest and s.side != ph["side"]]
    if not defenders:
        raise RulesError(f"no opposing soldier in {label}", rule="Firepower 6.2.5.2")
    costs: dict[str, int] = {}
    for uid in units:
        u = _check_active(game, ph, uid)
        if uid in ph["combat"]:
            raise RulesError(f"{uid} already made a Combat Action this Impulse Phase",
                             rule="Firepower 6.2.5")
        cost, front, _ = enter_cost(c, m, u)
        if front != dest:
            raise RulesError(f"{label} is not the hex directly in front of {uid}",
                             rule="Firepower 6.2.1")
        melee = c.mf_cost("melee", str(u.state.get("posture", "stand")))
        _pay(game, ph, uid, cost + melee, True)
        costs[uid] = cost + melee
    return {"act": "melee", "units": list(units), "hex": dest, "costs": costs,
            "defenders": sorted(s.id for s in defenders)}


def apply_action(game: Game, choice: Any) -> dict[str, Any]:
    """Check, then carry out one Action (Firepower 6.2, 6.6: effects apply at once)."""
    info = check_action(game, choice)
    ph = data(game)["phase"]
    act = info["act"]
    if act == "end":
        return info
    if act == "melee":
        return _do_melee(game, ph, info)
    uid = info["unit"]
    u = game.state.units[uid]
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
        game.emit("action", unit=uid, act=t.name, cost=info["cost"], rule=t.rule)
        return info
    if act in NONCOMBAT:
        ph["nc"][uid] = int(ph["nc"].get(uid, 0)) + info["cost"]
        if uid in ph["after"]:
            ph["after"][uid] = int(ph["after"][uid]) - info["cost"]
    if act == "enter":
        src = u.hex
        assert src is not None
        u.hex = info["to"]
        ph["entered"][uid] = int(ph["entered"].get(uid, 0)) + 1
        _arrive(game, u, src)
        if ph["entered"][uid] >= RUNNING_HEXES:  # Firepower 4.5, 6.2.1
            u.state["speed"] = "running"
        game.emit("action", unit=uid, act="enter", hex=game.board.label(u.hex),
                  cost=info["cost"], parts=info["parts"], rule="Firepower 6.2.1")
    elif act == "turn":
        u.facing = info["to"]
        game.emit("action", unit=uid, act="turn", to=u.facing, cost=info["cost"],
                  rule="Firepower 6.2.2")
    elif act == "posture":
        u.state["posture"] = info["to"]
        game.emit("action", unit=uid, act="posture", to=info["to"], cost=info["cost"],
                  rule="Firepower 6.2.4")
    elif act == "cross":
        u.state["side"] = info["to"]
        game.emit("action", unit=uid, act="cross", side=info["to"], cost=info["cost"],
                  rule="Firepower 6.2.3")
    else:
        _do_fire(game, ph, info)
    return info


def _arrive(game: Game, u: Unit, src: Hex) -> None:
    """Entering a fence or hedge hex puts the soldier on the part he came in by (Firepower 4.7)."""
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
    ph["fired_hexes"].append(fp_map(game).label(ctx.firer.hex))
    if info["act"] == "fire":
        ph["modes"][uid] = ctx.mode
        ph["after"][uid] = info["after"]
    combat.run(ctx, fire_steps(game, ctx.kind))
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
    mods = [m for ms in ctx.modifiers.values() for m in ms]
    game.report(f"{ctx.kind} by {ctx.firer.id}", result=ctx.summary(), modifiers=mods,
                rules=ctx.rules)


def _do_melee(game: Game, ph: dict[str, Any], info: dict[str, Any]) -> dict[str, Any]:
    units, dest, defenders = info["units"], info["hex"], info["defenders"]
    for uid in units:
        ph["spent"][uid] = int(ph["spent"].get(uid, 0)) + info["costs"][uid]
        ph["combat"].append(uid)
    roll = game.dice.d10(f"melee in {game.board.label(dest)}")
    mod = combat.melee_modifier(len(units), len(defenders))
    winner = combat.melee_winner(roll, len(units), len(defenders))
    if winner == "attacker":  # Firepower 6.5.1, 6.5.3
        for d in defenders:
            eliminate(game, d, ph["side"], "Firepower 6.5.1")
        for uid in units:
            u = game.state.units[uid]
            src = u.hex
            assert src is not None
            u.hex = dest
            ph["entered"][uid] = int(ph["entered"].get(uid, 0)) + 1
            _arrive(game, u, src)
            ph["done"].append(uid)
    else:
        for uid in units:
            eliminate(game, uid, game.state.units[defenders[0]].side, "Firepower 6.5.1")
    game.report("melee", result={"roll": roll, "winner": winner, "attackers": units,
                                 "defenders": defenders, "hex": game.board.label(dest)},
                modifiers=[mod] if mod else [], rules=["Firepower 6.5.1", "Firepower 6.5.2"])
    info["winner"] = winner
    return info


# ---------------------------------------------------------------------------------------------
# Listing the legal choices
# ---------------------------------------------------------------------------------------------


def _legal(game: Game, choice: Any) -> bool:
    try:
        check_action(game, choice)
    except RulesError:
        return False
    return True


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
        if uid in ph["combat"]:
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


def _fire_options(game: Game, ph: dict[str, Any], u: Unit, enemies: list[Soldier],
                  left: int) -> list[Any]:
    c = rules_card(game)
    m = fp_map(game)
    uid = u.id
    w = c.weapons[str(u.state.get("weapon", "RFL"))]
    fire_cost = c.mf_cost("fire", str(u.state.get("posture", "stand")))
    if left < fire_cost:
        return []
    afters = list(range(0, left - fire_cost + 1))
    out: list[Any] = []
    by_hex: dict[Hex, list[str]] = {}
    for e in enemies:
        by_hex.setdefault(e.hex, []).append(e.id)
    prior = ph["modes"].get(uid)
    for _h, ids in sorted(by_hex.items()):
        ids.sort()
        for mode in w.modes:
            if prior is not None and mode != prior:
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
            ch = {"unit": uid, "act": "grenade", "hex": m.label(t)}
            if _legal(game, ch):
                out.append(ch)
    return out


def impulse_options(game: Game, side: str) -> list[Any]:
    """Stacks (or single soldiers of a stack) that may perform an Impulse
    (Firepower 6.1, 6.2, 6.2.6); Stunned soldiers spend no MF (6.2.8)."""
    ph = data(game)["phase"]
    m = fp_map(game)
    stacks: dict[Hex, list[str]] = {}
    for u in game.state.units_of(side):
        if alive(u) and u.id not in ph["used"] and u.state.get("status") != "stunned":
            assert u.hex is not None
            stacks.setdefault(u.hex, []).append(u.id)
    out: list[Any] = []
    for h, ids in sorted(stacks.items()):
        out.append({"hex": m.label(h), "units": sorted(ids)})
        if len(ids) > 1:
            out.extend({"hex": m.label(h), "units": [i]} for i in sorted(ids))
    return out


def check_impulse(game: Game, side: str, choice: Any) -> list[str]:
    """Firepower 6.1, 6.2: an Impulse is the Actions of soldiers in one hex, none used before in
    this Impulse Phase (digest A-3: any subset of the hex's soldiers)."""
    ph = data(game)["phase"]
    if not isinstance(choice, dict) or not isinstance(choice.get("units"), list):
        raise RulesError("an Impulse names a hex and its soldiers", rule="Firepower 6.1")
    ids = choice["units"]
    if not ids or len(set(ids)) != len(ids):
        raise RulesError("name each soldier once", rule="Firepower 6.1")
    hexes = set()
    for uid in ids:
        u = game.state.units.get(uid) if isinstance(uid, str) else None
        if u is None or u.side != side or not alive(u):
            raise RulesError(f"{uid!r} is not a soldier of {side} on the board",
                             rule="Firepower 6.1")
        if uid in ph["used"]:
            raise RulesError(f"{uid} already acted in this Impulse Phase", rule="Firepower 6.2")
        if u.state.get("status") == "stunned":
            raise RulesError(f"{uid} is Stunned and may not spend MF", rule="Firepower 6.2.8")
        hexes.add(u.hex)
    if len(hexes) != 1:
        raise RulesError("the soldiers of one Impulse are those of one hex", rule="Firepower 6.1")
    return [str(i) for i in ids]


# ---------------------------------------------------------------------------------------------
# Phases
# ---------------------------------------------------------------------------------------------


def _validator(fn: Any) -> Any:
    def validate(choice: Any) -> str | None:
        try:
            fn(choice)
        except RulesError as exc:
            return str(exc)
        return None

    return validate


def side_setup(game: Game, side: str) -> dict[str, Any]:
    return dict(game.scenario.sides.get(side, {}))


def phase_board_side(game: Game) -> Gen:
    """Firepower 2.2: the high roller picks board side 2/3 or 5/6; the other takes the opposite."""
    sides = list(game.state.sides)
    winner = roll_off(game, sides, purpose="Firepower 2.2 choice of board side")
    choice = yield Decision(winner, "board_side", options=list(BOARD_SIDES),
                            prompt="Pick the side of the mapboard to set up on",
                            rule="Firepower 2.2", context={"sides": list(BOARD_SIDES)})
    other = BOARD_SIDES[1] if choice == BOARD_SIDES[0] else BOARD_SIDES[0]
    data(game)["board_side"] = {s: (choice if s == winner else other) for s in sides}
    game.emit("board_side", sides=data(game)["board_side"], rule="Firepower 2.2")


def placement_options(game: Game, side: str) -> list[Any]:
    """Firepower 2.4: hexes of the side's set-up zone, facing the enemy (others validate)."""
    bs = data(game)["board_side"][side]
    facings = (2, 3) if bs == "5/6" else (5, 6)
    m = fp_map(game)
    return [{"hex": m.label(h), "facing": f, "posture": "stand"}
            for h in sorted(game.board.hexes) if in_setup_zone(game, bs, h) for f in facings]


def check_placement(game: Game, side: str, choice: Any) -> dict[str, Any]:
    if not isinstance(choice, dict):
        raise RulesError("a placement names hex, facing and posture", rule="Firepower 2.4")
    m = fp_map(game)
    try:
        h = m.parse(str(choice.get("hex")))
    except ValueError as exc:
        raise RulesError(str(exc), rule="Firepower 2.4") from None
    bs = data(game)["board_side"][side]
    if not in_setup_zone(game, bs, h):
        raise RulesError(f"{choice.get('hex')} is not within {setup_depth(game)} hexes of side "
                         f"{bs}", rule="Firepower 2.4")
    f = choice.get("facing")
    if not isinstance(f, int) or isinstance(f, bool) or not 1 <= f <= 6:
        raise RulesError("a soldier faces a hexside 1-6", rule="Firepower 4.3")
    if choice.get("posture", "stand") not in POSTURES:
        raise RulesError("posture is stand, crouch or prone", rule="Firepower 4.4")
    side_of = choice.get("side")
    pic = m.fence.get(h) or m.hedge.get(h)
    if pic is not None:
        if side_of is None:
            side_of = pic.default_side(f)
        try:
            pic.part_of(int(side_of))
        except (ValueError, TypeError) as exc:
            raise RulesError(str(exc), rule="Firepower 4.7") from None
    else:
        side_of = None
    return {"hex": h, "facing": f, "posture": choice.get("posture", "stand"), "side": side_of}


def phase_setup(game: Game) -> Gen:
    """Firepower 2.4: the low roller sets up first, anywhere within five hexes of his side, in the
    open; then the other player."""
    sides = list(game.state.sides)
    first = roll_off(game, sides, purpose="Firepower 2.4 set-up order", high_wins=False)
    order = [first, *[s for s in sides if s != first]]
    for side in order:
        for u in game.state.units_of(side):
            if u.hex is not None:
                continue

            def check(choice: Any, side: str = side) -> None:
                check_placement(game, side, choice)

            choice = yield Decision(side, "place", options=placement_options(game, side),
                                    validate=_validator(check),
                                    context={"unit": u.id, "weapon": u.state.get("weapon")},
                                    prompt=f"Set up {u.id} ({u.state.get('weapon')})",
                                    rule="Firepower 2.4")
            p = check_placement(game, side, choice)
            u.hex, u.facing = p["hex"], p["facing"]
            u.state["posture"], u.state["side"] = p["posture"], p["side"]
            game.emit("placed", unit=u.id, hex=game.board.label(u.hex), facing=u.facing,
                      rule="Firepower 2.4")


def phase_mix(game: Game) -> Gen:
    """Firepower 5, 3.1: every sequence unit goes back in the cup, face down."""
    cup: list[str] = []
    for side in game.state.sides:
        n = int(side_setup(game, side).get("sequence_units", 3))
        cup.extend(f"{side}{i + 1}" for i in range(n))
    d = data(game)
    d["cup"] = sorted(cup)
    d["drawn"] = 0
    game.emit("mix", count=len(cup), rule="Firepower 5")
    return
    yield


def draw(game: Game) -> str:
    """Firepower 6.1: draw one sequence unit blind; its colour is the phasing side."""
    d = data(game)
    cup = ChitCup(d["cup"])  # the cup's contents live in the game state (saves, hashes)
    chit = cup.draw(game, "Firepower 6.1 draw a sequence unit")
    d["cup"] = list(cup.chits)
    d["drawn"] = int(d.get("drawn", 0)) + 1
    for side in game.state.sides:
        if chit.startswith(side) and chit[len(side):].isdigit():
            return side
    raise RulesError(f"sequence unit {chit!r} belongs to no side", rule="Firepower 1.2.2")


def start_impulse_phase(game: Game, side: str) -> None:
    """Firepower 6.1.1, 6.1.2: the phasing side's speed units and the other side's Suppressed
    units are removed."""
    for u in game.state.units.values():
        if not alive(u):
            continue
        if u.side == side:
            u.state["speed"] = "normal"
        elif u.state.get("status") == "suppressed":
            u.state["status"] = None
    data(game)["phase"] = new_phase(side)
    game.emit("impulse_phase", side=side, rule="Firepower 6.1")
    hook = _hook(game, "firepower_impulse_phase_start")
    if hook is not None:
        hook(game=game, side=side)


def end_impulse_phase(game: Game, side: str) -> None:
    """Firepower 6.1.3 (digest A-1: "that side" = the phasing side): Stunned becomes Suppressed."""
    for u in game.state.units_of(side):
        if alive(u) and u.state.get("status") == "stunned":
            u.state["status"] = "suppressed"
    data(game)["phase"] = None
    hook = _hook(game, "firepower_impulse_phase_end")
    if hook is not None:
        hook(game=game, side=side)


def begin_impulse(game: Game, ids: Iterable[str]) -> None:
    ph = data(game)["phase"]
    ph["impulse"] = int(ph["impulse"]) + 1
    ph["active"] = list(ids)
    ph["used"] = sorted(set(ph["used"]) | set(ids))
    ph["entered"] = {}
    game.emit("impulse", n=ph["impulse"], units=list(ids), rule="Firepower 6.1")


def impulses_per_phase(game: Game, side: str) -> int:
    """Firepower 3.2, 6.1: two Impulses per Impulse Phase in the Basic Game."""
    return int(side_setup(game, side).get("impulses", 2))


def run_impulse_phase(game: Game, side: str) -> Gen:
    start_impulse_phase(game, side)
    for _ in range(impulses_per_phase(game, side)):
        opts = impulse_options(game, side)
        if not opts:
            break
        choice = yield Decision(side, "impulse", options=[*opts, "pass"],
                                validate=_validator(
                                    lambda ch: None if ch == "pass"
                                    else check_impulse(game, side, ch)),
                                prompt="Choose the soldiers of one hex for this Impulse, or pass",
                                rule="Firepower 6.1")
        if choice == "pass":
            break
        begin_impulse(game, check_impulse(game, side, choice))
        while True:
            opts2 = legal_actions(game)
            if opts2 == ["end"]:
                break
            action = yield Decision(side, "action", options=opts2,
                                    validate=_validator(lambda ch: check_action(game, ch)),
                                    context={"units": list(data(game)["phase"]["active"])},
                                    prompt="Perform an Action, or end the Impulse",
                                    rule="Firepower 6.2")
            if action == "end":
                break
            apply_action(game, action)
        data(game)["phase"]["active"] = []
    end_impulse_phase(game, side)


def phase_impulses(game: Game) -> Gen:
    """Firepower 3.2, 6.1: draw sequence units one at a time until the cup is empty."""
    while data(game)["cup"]:
        side = draw(game)
        yield from run_impulse_phase(game, side)


def phase_turn_record(game: Game) -> Gen:
    """Firepower 3.3: advance the Turn marker (the engine counts Turns)."""
    game.emit("turn_record", turn=game.state.turn, rule="Firepower 3.3")
    return
    yield


PHASES = (
    PhaseSpec("firepower.board_side", "Choice of board side", "Firepower 2.2", phase_board_side,
              "setup"),
    PhaseSpec("firepower.setup", "Set-up", "Firepower 2.4", phase_setup, "setup"),
    PhaseSpec("firepower.mix", "Mix Sequence Units Phase", "Firepower 5", phase_mix),
    PhaseSpec("firepower.impulses", "Impulse Phases", "Firepower 6.1", phase_impulses),
    PhaseSpec("firepower.turn_record", "Turn Record Phase", "Firepower 3.3", phase_turn_record),
)


# ---------------------------------------------------------------------------------------------
# Set-up of units and victory
# ---------------------------------------------------------------------------------------------


def setup_units(game: Game) -> None:
    """Give every soldier his markers (Standing, Normal, no status) and weapon from his type
    (Firepower 1.2.1, 4.4-4.7)."""
    for u in game.state.units.values():
        t = game.unit_types.get(u.type)
        weapon = str((t.data if t else {}).get("weapon", "RFL"))
        state = initial_state(weapon, str(u.state.get("posture", "stand")))
        state.update({k: v for k, v in u.state.items() if k in state})
        u.state.update(state)
        if u.hex is not None:
            pic = fp_map(game).fence.get(u.hex) or fp_map(game).hedge.get(u.hex)
            if pic is not None and u.state.get("side") is None:
                u.state["side"] = pic.default_side(u.facing)
    data(game).setdefault("cup", [])


def victory_points(game: Game) -> dict[str, int]:
    """Firepower 7: 1 VP per opposing soldier eliminated, 3 per own survivor beyond the fold."""
    d = data(game)
    vp = {s: 0 for s in game.state.sides}
    for u in game.state.units.values():
        if u.state.get("eliminated"):
            for s in game.state.sides:
                if s != u.side:
                    vp[s] += 1
        elif (u.hex is not None and "board_side" in d
              and beyond_fold(game, d["board_side"][u.side], u.hex)):
            vp[u.side] += 3
    return vp


def final_result(game: Game) -> GameResult:
    """Firepower 7: most victory points wins; equal points are a draw."""
    vp = victory_points(game)
    a, b = game.state.sides[0], game.state.sides[1]
    reasons = (f"{s}: {vp[s]} VP" for s in game.state.sides)
    if vp[a] == vp[b]:
        return GameResult(None, "draw", {k: float(v) for k, v in vp.items()}, tuple(reasons))
    w = a if vp[a] > vp[b] else b
    return GameResult(w, "victory", {k: float(v) for k, v in vp.items()}, tuple(reasons))


def soldier(game: Game, uid: str) -> Soldier:
    return soldier_of(game.state.units[uid])
