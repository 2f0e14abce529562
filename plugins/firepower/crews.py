"""Crews and carried equipment of the Advanced Game (Firepower 10.1, Firepower 11.1.6).

* A weapon whose WEAPON CHART crew column is two or more is crewed by its holder and the soldiers
  who acquired it (``state.crew_of`` = the holder's id), stacked with him, facing his way and not
  Stunned (Firepower 10.1; :func:`~hexwar.plugins.firepower.advanced_fire.crew_of`).
* Crew losses: each crewman fewer than the column costs every member one MF
  (Firepower 10.1.2.1, :func:`crew_mf`); a lone crewman's automatic L weapon fires one burst
  (Firepower 10.1.2.2, in the fire check). While in a crew a soldier has the weapon's Move column
  too (Firepower 10.1.1).
* Actions ``acquire`` and ``discard`` (Firepower 11.1.6): join or leave a crew in the hex
  (11.1.6.2), pick up an item lying in the hex or drop one carried (11.1.6.1). Items dropped lie in
  ``state.data["firepower"]["dropped"]`` (hex label -> item -> count), seen by both sides. The cost
  is one MF per item (the LEG MOVEMENT FACTOR EXPENDITURE CHART is not in the text: stand-in,
  docs/decisions.md FPD-57); a crewman who cannot pay it may discard with whatever he has left
  (Firepower 11.1.6.2).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from hexwar.core.errors import RulesError
from hexwar.core.types import Modifier
from hexwar.plugins.firepower.actions import ActionType, mf_left
from hexwar.plugins.firepower.state import alive, data, fp_map

if TYPE_CHECKING:
    from hexwar.core.engine.game import Game
    from hexwar.core.engine.state import Unit

#: MF per item acquired or discarded (stand-in, docs/decisions.md FPD-57)
ITEM_COST = 1


def _crewed(u: Unit) -> int:
    from hexwar.plugins.firepower.advanced_fire import model_of
    from hexwar.plugins.firepower.weapon_chart import weapon

    try:
        return weapon(model_of(u.state)).crew
    except RulesError:
        return 1


def crew_mf(game: Game, uid: str) -> list[Modifier]:
    """Firepower 10.1.2.1, 10.1.1: the MF a soldier loses to his crew: -1 per crewman missing
    from a crewed weapon he holds or crews, and a crewman also takes the weapon's Move column."""
    from hexwar.plugins.firepower.advanced_fire import crew_of, model_of
    from hexwar.plugins.firepower.weapon_chart import weapon

    u = game.state.units[uid]
    holder_id = u.state.get("crew_of") if isinstance(u.state.get("crew_of"), str) else uid
    holder = game.state.units.get(str(holder_id))
    if holder is None or not alive(holder):
        return []
    need = _crewed(holder)
    out: list[Modifier] = []
    if need >= 2:
        missing = need - crew_of(game, holder.id)
        if missing > 0:
            out.append(Modifier(f"{missing} crewman/men short on {model_of(holder.state)}",
                                -missing, "Firepower 10.1.2.1"))
    if holder.id != uid:
        move = weapon(model_of(holder.state)).move
        if move:
            out.append(Modifier(f"crewing {model_of(holder.state)}", move, "Firepower 10.1.1"))
    return out


def _dropped(game: Game) -> dict[str, dict[str, int]]:
    d: dict[str, dict[str, int]] = data(game).setdefault("dropped", {})
    return d


def _check_acquire(game: Game, ph: dict[str, Any], choice: dict[str, Any]) -> dict[str, Any]:
    """Firepower 11.1.6: ``what`` is a soldier of the hex whose crewed weapon to join
    (11.1.6.2: only weapons of two or more crew), or an item lying in the hex (11.1.6.1: enemy
    weapons may be acquired but not used)."""
    u = game.state.units[choice["unit"]]
    what = choice.get("what")
    if not isinstance(what, str):
        raise RulesError("name the soldier whose weapon to crew or the item to pick up",
                         rule="Firepower 11.1.6")
    holder = game.state.units.get(what)
    if holder is not None:
        if holder.id == u.id or holder.side != u.side or holder.hex != u.hex or not alive(holder):
            raise RulesError(f"{what} is not a soldier of {u.id}'s side in his hex",
                             rule="Firepower 10.1")
        if _crewed(holder) < 2:
            raise RulesError(f"{what}'s weapon needs no crew: soldiers become crewmen only of "
                             "weapons of two or more crew", rule="Firepower 10.1")
        if u.state.get("crew_of"):
            raise RulesError(f"{u.id} already crews {u.state['crew_of']}",
                             rule="Firepower 11.1.6.2")
        return {"cost": ITEM_COST, "crew": holder.id}
    assert u.hex is not None
    lying = _dropped(game).get(fp_map(game).label(u.hex), {})
    if int(lying.get(what, 0)) <= 0:
        raise RulesError(f"no {what} lies in {fp_map(game).label(u.hex)}",
                         rule="Firepower 11.1.6.1")
    return {"cost": ITEM_COST, "item": what}


def _apply_acquire(game: Game, ph: dict[str, Any], info: dict[str, Any]) -> None:
    u = game.state.units[info["unit"]]
    if "crew" in info:
        u.state["crew_of"] = info["crew"]
        return
    assert u.hex is not None
    label = fp_map(game).label(u.hex)
    lying = _dropped(game)[label]
    item = info["item"]
    lying[item] = int(lying[item]) - 1
    if not lying[item]:
        del lying[item]
    eq = dict(u.state.get("equipment") or {})
    eq[item] = int(eq.get(item, 0)) + 1
    u.state["equipment"] = eq


def _check_discard(game: Game, ph: dict[str, Any], choice: dict[str, Any]) -> dict[str, Any]:
    """Firepower 11.1.6: leave the crew (``what`` = "crew"), or drop a carried item into the
    hex. A crewman short of the MF discards with what he has (Firepower 11.1.6.2)."""
    u = game.state.units[choice["unit"]]
    what = choice.get("what")
    if what == "crew":
        if not u.state.get("crew_of"):
            raise RulesError(f"{u.id} crews no weapon", rule="Firepower 11.1.6.2")
        left = mf_left(game, ph, u.id)
        return {"cost": min(ITEM_COST, left) if left > 0 else 0, "leave": True}
    eq = dict(u.state.get("equipment") or {})
    if not isinstance(what, str) or int(eq.get(what, 0)) <= 0:
        raise RulesError(f"{u.id} carries no {what!r} (he carries {eq or 'nothing'})",
                         rule="Firepower 11.1.6")
    return {"cost": ITEM_COST, "item": what}


def _apply_discard(game: Game, ph: dict[str, Any], info: dict[str, Any]) -> None:
    u = game.state.units[info["unit"]]
    if info.get("leave"):
        u.state.pop("crew_of", None)
        return
    assert u.hex is not None
    item = info["item"]
    eq = dict(u.state.get("equipment") or {})
    eq[item] = int(eq[item]) - 1
    if not eq[item]:
        del eq[item]
    u.state["equipment"] = eq
    lying = _dropped(game).setdefault(fp_map(game).label(u.hex), {})
    lying[item] = int(lying.get(item, 0)) + 1


def _no_options(game: Game, ph: dict[str, Any], uid: str) -> list[dict[str, Any]]:
    return []  # controllers name these Actions themselves (the AI does not crew yet)


ACQUIRE = ActionType("acquire", _check_acquire, _apply_acquire, _no_options,
                     rule="Firepower 11.1.6")
DISCARD = ActionType("discard", _check_discard, _apply_discard, _no_options,
                     rule="Firepower 11.1.6")


def _check_arm(game: Game, ph: dict[str, Any], choice: dict[str, Any]) -> dict[str, Any]:
    """Firepower 11.1.13, 12.4.9: arming a demolition charge the soldier carries takes all his MF
    (none spent before in the Impulse)."""
    from hexwar.plugins.firepower.weapon_chart import weapon

    u = game.state.units[choice["unit"]]
    item = choice.get("item", "DMC1")
    eq = dict(u.state.get("equipment") or {})
    if not isinstance(item, str) or int(eq.get(item, 0)) <= 0 or weapon(item).cls != "DMC":
        raise RulesError(f"{u.id} carries no demolition charge {item!r}", rule="Firepower 12.4.9")
    if int(ph["spent"].get(u.id, 0)):
        raise RulesError("arming a demolition charge takes all the soldier's MF",
                         rule="Firepower 11.1.13")
    left = mf_left(game, ph, u.id)
    if left <= 0:
        raise RulesError(f"{u.id} has no MF to arm the charge", rule="Firepower 11.1.13")
    return {"cost": left, "item": item}


def _apply_arm(game: Game, ph: dict[str, Any], info: dict[str, Any]) -> None:
    from hexwar.plugins.firepower.advanced_fire import arm_charge

    ch = arm_charge(game, info["unit"], info["item"])
    game.emit("arm_charge", hex=ch["hex"], unit=info["unit"], rule="Firepower 12.4.9")


ARM = ActionType("arm", _check_arm, _apply_arm, _no_options, rule="Firepower 12.4.9")
