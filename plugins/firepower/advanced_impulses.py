"""The Advanced Game's Mix Sequence Units Phase and Impulse Phases (Firepower 9, Firepower 11.3,
Firepower 11.4): squads with their own sequence units and Impulses, lettered sequence units that
apply to some squads only, unlimited Impulses before the first Combat Action of the game, "Hit the
Dirt!", leader activation and the leaders' fifth MF.

The Basic bookkeeping of :mod:`hexwar.plugins.firepower.impulses` (speeds and statuses at the
start and end of an Impulse Phase, the soldiers used, MF spent) and every Basic Action of
:mod:`hexwar.plugins.firepower.actions` are reused; this module adds, in the Impulse Phase's state
(``game.state.data["firepower"]["phase"]``):

* ``letter``: the drawn sequence unit's letter (Firepower 9.1);
* ``squads``: squad name -> Impulses used this Impulse Phase, for the squads the letter applies to
  (Firepower 9.2);
* ``dirt``: the soldiers that hit the dirt (Firepower 11.3.3).

and, for the game, ``combat_begun`` (Firepower 11.3.2).
"""

from __future__ import annotations

from collections.abc import Generator
from typing import TYPE_CHECKING, Any

from hexwar.core.engine.decisions import Decision
from hexwar.core.engine.primitives import ChitCup
from hexwar.core.errors import RulesError
from hexwar.core.hexgrid import Hex
from hexwar.plugins.firepower.actions import (
    ActionType,
    legal_actions,
    listed_check,
    listing,
)
from hexwar.plugins.firepower.hidden_setup import after_action
from hexwar.plugins.firepower.impulses import (
    begin_impulse,
    check_impulse,
    end_impulse_phase,
    impulse_actions,
    start_impulse_phase,
)
from hexwar.plugins.firepower.squads import (
    LEADER_MAX_HEXES,
    Squad,
    applies,
    can_activate,
    is_leader,
    letter,
    rank_of,
    side_sequence_units,
    squad_of,
    squads_from,
)
from hexwar.plugins.firepower.state import alive, data, fp_map, side_setup, validator
from hexwar.plugins.firepower.weapon_chart import weapon

if TYPE_CHECKING:
    from hexwar.core.engine.game import Game
    from hexwar.core.engine.state import Unit

Gen = Generator[Any, Any, None]


def all_squads(game: Game) -> dict[str, Squad]:
    """The scenario's squads; a side that lists none is one squad named after the side, with the
    side's P and I (docs/decisions.md FPD-41)."""
    out = squads_from(game.scenario.sides)
    for side in game.state.sides:
        if not any(q.side == side for q in out.values()):
            s = side_setup(game, side)
            out[side] = Squad(side, side, int(s.get("sequence_units", 3)),
                              int(s.get("impulses", 2)))
    return out


def squad_key(game: Game, u: Unit) -> str:
    """The squad a soldier belongs to (his side's only squad if he names none)."""
    return squad_of(u) or u.side


def sequence_units(game: Game, side: str) -> int:
    return side_sequence_units(all_squads(game), side, int(side_setup(game, side)
                                                             .get("sequence_units", 3)))


def phase_mix(game: Game) -> Gen:
    """Firepower 9.1, Firepower 5: each side's lettered sequence units (as many as its squad with
    the most) go back in the cup, face down."""
    cup = [f"{side}{i + 1}" for side in game.state.sides for i in range(sequence_units(game, side))]
    d = data(game)
    d["cup"] = sorted(cup)
    d["drawn"] = 0
    game.emit("mix", count=len(cup), rule="Firepower 9.1")
    return
    yield


def draw(game: Game) -> tuple[str, int]:
    """Firepower 6.1, Firepower 9.1: draw one sequence unit blind: its side and letter index."""
    d = data(game)
    cup = ChitCup(d["cup"])
    chit = cup.draw(game, "Firepower 6.1 draw a sequence unit")
    d["cup"] = list(cup.chits)
    d["drawn"] = int(d.get("drawn", 0)) + 1
    for side in game.state.sides:
        if chit.startswith(side) and chit[len(side):].isdigit():
            return side, int(chit[len(side):]) - 1
    raise RulesError(f"sequence unit {chit!r} belongs to no side", rule="Firepower 1.2.2")


def eligible_squads(game: Game, side: str, index: int) -> list[str]:
    """Firepower 9.1, Firepower 9.2: the squads of ``side`` the sequence unit applies to."""
    n = sequence_units(game, side)
    return sorted(q.name for q in all_squads(game).values()
                  if q.side == side and applies(q, n, index))


def impulses_left(game: Game, squad: str) -> bool:
    """Firepower 9.2, Firepower 11.3.2: a squad may start another Impulse while it has Impulses
    left this Impulse Phase, or at any time before the game's first Combat Action."""
    ph = data(game)["phase"]
    if squad not in ph["squads"]:
        return False
    if not data(game).get("combat_begun"):
        return True
    return int(ph["squads"][squad]) < all_squads(game)[squad].impulses


def _free(game: Game, side: str) -> list[Unit]:
    ph = data(game)["phase"]
    return [u for u in game.state.units_of(side) if alive(u) and u.id not in ph["used"]
            and u.state.get("status") != "stunned"]


def impulse_options(game: Game, side: str) -> list[Any]:
    """Per squad with an Impulse left: its stacks (and single soldiers of a stack) not yet used,
    and "Hit the Dirt!" for its soldiers not yet used (Firepower 9.2, Firepower 11.3.3)."""
    m = fp_map(game)
    out: list[Any] = []
    free = _free(game, side)
    for q in sorted(data(game)["phase"]["squads"]):
        if not impulses_left(game, q):
            continue
        mine = [u for u in free if squad_key(game, u) == q]
        stacks: dict[Hex, list[str]] = {}
        for u in mine:
            assert u.hex is not None
            stacks.setdefault(u.hex, []).append(u.id)
        for h, ids in sorted(stacks.items()):
            out.append({"squad": q, "hex": m.label(h), "units": sorted(ids)})
            if len(ids) > 1:
                out.extend({"squad": q, "hex": m.label(h), "units": [i]} for i in sorted(ids))
        down = sorted(u.id for u in mine if u.state.get("posture") != "prone")
        if down:
            out.append({"squad": q, "hit_the_dirt": True, "units": down})
    from hexwar.plugins.firepower.entry import entry_options

    # Firepower 10.2: a squad off the board enters as one
    out.extend(entry_options(game, side, [q for q in sorted(data(game)["phase"]["squads"])
                                          if impulses_left(game, q)]))
    return out


def check_squad_impulse(game: Game, side: str, choice: Any) -> tuple[str, list[str], bool]:
    """Check a choice of Impulse: (squad, soldiers, hit the dirt). Firepower 9.2: an Impulse of a
    squad is used by its own soldiers only; Firepower 11.3.3: "Hit the Dirt!" takes any of the
    squad's soldiers not yet used, in any hexes."""
    if not isinstance(choice, dict) or not isinstance(choice.get("squad"), str):
        raise RulesError("an Advanced Impulse names its squad", rule="Firepower 9.2")
    q = choice["squad"]
    ph = data(game)["phase"]
    if q not in ph["squads"]:
        raise RulesError(f"sequence unit {ph.get('letter')} does not apply to squad {q}",
                         rule="Firepower 9.1")
    if not impulses_left(game, q):
        raise RulesError(f"squad {q} has used its Impulses this Impulse Phase",
                         rule="Firepower 9.2")
    if choice.get("enter_board"):
        from hexwar.plugins.firepower.entry import check_entry

        return q, sorted(check_entry(game, side, choice)), False
    ids = choice.get("units")
    if not isinstance(ids, list) or not ids or not all(isinstance(i, str) for i in ids):
        raise RulesError("an Impulse names its soldiers", rule="Firepower 6.1")
    if choice.get("hit_the_dirt"):
        free = {u.id for u in _free(game, side)}
        for uid in ids:
            if uid not in free:
                raise RulesError(f"{uid!r} is not a soldier of {side} free to act",
                                 rule="Firepower 11.3.3")
        units = [str(i) for i in ids]
        if len(set(units)) != len(units):
            raise RulesError("name each soldier once", rule="Firepower 11.3.3")
    else:
        units = check_impulse(game, side, {"hex": choice.get("hex", ""), "units": ids})
    for uid in units:
        if squad_key(game, game.state.units[uid]) != q:
            raise RulesError(f"{uid} is not of squad {q}: an Impulse of one squad cannot be "
                             "used by soldiers of another", rule="Firepower 9.2")
    return q, units, bool(choice.get("hit_the_dirt"))


# ---------------------------------------------------------------------------------------------
# Advanced limits on the Basic Actions
# ---------------------------------------------------------------------------------------------


def check_advanced_action(game: Game, choice: Any) -> dict[str, Any]:
    """The Basic check (:func:`~hexwar.plugins.firepower.actions.check_action`) plus the
    Advanced limits: a leader enters at most four new hexes (Firepower 11.1); a weapon is not
    fired from a posture its WEAPON CHART row forbids (Firepower 10.7 item 10); the terrain of
    buildings, water, trees and tunnels (:func:`~hexwar.plugins.firepower.buildings.check_terrain`)."""
    from hexwar.plugins.firepower.buildings import check_terrain
    from hexwar.plugins.firepower.entry import check_no_fire

    check_no_fire(game, choice)  # Firepower 10.2
    if (isinstance(choice, dict) and choice.get("act") in ("fire", "grenade")
            and _underground(game, choice)):
        raise RulesError("a soldier in a tunnel fires no weapon", rule="Firepower 8.8.8")
    if isinstance(choice, dict) and choice.get("act") == "melee" and _underground(game, choice):
        from hexwar.plugins.firepower.tunnels import check_melee_underground

        check_melee_underground(game, choice)  # Firepower 13, 8.8.8, 11.5 (FPD-98)
    info = listed_check(game, choice)  # check_action, or its answer in a listing (FPD-199)
    check_terrain(game, info)
    from hexwar.plugins.firepower.defenses import check_move

    check_move(game, info)  # Firepower 8.8.2-8.8.4: wire, and leaving a position first
    from hexwar.plugins.firepower import weather

    weather.check(game, info)  # Firepower 11.2.2: snow and mud's extra MF
    from hexwar.plugins.firepower import height_hexsides

    height_hexsides.check(game, info)  # Firepower 11.1.4: a height hexside's MF
    height_hexsides.check_melee(game, info)  # 11.1.4, 11.2.2: a melee's entering too
    from hexwar.plugins.firepower.advanced_actions import check_note_e

    check_note_e(game, info)  # Firepower 11.2.5: not with a status unit
    act = info.get("act")
    if act in ("enter", "back", "fire"):
        u = game.state.units[info["unit"]]
        ph = data(game)["phase"]
        if (act in ("enter", "back") and is_leader(rank_of(u))
                and int(ph["entered"].get(u.id, 0)) >= LEADER_MAX_HEXES):
            raise RulesError(f"{u.id} is a leader: five MF, but no more than four new hexes",
                             rule="Firepower 11.1")
        model = u.state.get("model")
        posture = str(u.state.get("posture", "stand"))
        if act == "fire" and isinstance(model, str) and not weapon(model).may_fire(posture):
            raise RulesError(f"{u.id}'s {model} may not be fired {posture}",
                             rule="Firepower 10.7")
    fired = _fired(info)
    if fired is not None:  # Firepower 11.1.12: only a loaded weapon fires
        from hexwar.plugins.firepower.loading import check_fire_loaded

        check_fire_loaded(game, *fired)
    return info


def _fired(info: dict[str, Any]) -> tuple[str, str, str, int] | None:
    """(firer, item, ammunition, crew) of an Advanced fire or throw, read from its context."""
    ctx = info.get("ctx")
    f = getattr(ctx, "extra", {}).get("firing") if ctx is not None else None
    if f is None or info.get("act") not in ("fire", "grenade"):
        return None
    return str(info["unit"]), str(f.item), str(f.ammo), int(f.crew)


def _underground(game: Game, choice: dict[str, Any]) -> bool:
    ids = [choice.get("unit"), *(choice.get("units") or [])]
    return any(isinstance(i, str) and i in game.state.units
               and game.state.units[i].state.get("tunnel") for i in ids)


def legal_advanced_actions(game: Game) -> list[Any]:
    """The Basic listing and the Advanced Game's own choices, each passing the Advanced check;
    one listing (FPD-199): the Basic answers are handed on to the Advanced check."""
    with listing(game):
        return _legal_advanced(game)


def _legal_advanced(game: Game) -> list[Any]:
    out: list[Any] = []
    from hexwar.plugins.firepower.advanced_fire import hex_options

    basic = legal_actions(game)
    # Firepower 12.3: the Advanced fire at hexes (other items, smoke, launchers, mortars)
    # Firepower 13 with 8.8.8: melee under the ground (docs/decisions.md FPD-98)
    from hexwar.plugins.firepower.equipment_options import equipment_options
    from hexwar.plugins.firepower.tunnels import melee_options

    # Firepower 10.1, 11.1.6, 12.4.1.1: weapon units, rounds, rifle grenades (FPD-107)
    for ch in [*basic[:-1], *hex_options(game), *melee_options(game), *equipment_options(game),
               *basic[-1:]]:
        if ch == "end":
            out.append(ch)
            continue
        try:
            check_advanced_action(game, ch)
        except RulesError:
            continue
        out.append(ch)
    return out


# ---------------------------------------------------------------------------------------------
# Leader activation (Firepower 11.4): an Action type of the Advanced Game
# ---------------------------------------------------------------------------------------------


def _check_activate(game: Game, ph: dict[str, Any], choice: dict[str, Any]) -> dict[str, Any]:
    leader = game.state.units[choice["unit"]]
    if not is_leader(rank_of(leader)):
        raise RulesError(f"{leader.id} is no leader and activates nobody", rule="Firepower 11.4")
    if int(ph["entered"].get(leader.id, 0)) <= 0:
        raise RulesError(f"{leader.id} activates the soldiers of a hex he enters; he has entered "
                         "none this Impulse", rule="Firepower 11.4")
    targets = choice.get("targets")
    if not isinstance(targets, list) or not targets or not all(isinstance(t, str)
                                                               for t in targets):
        raise RulesError("name the soldiers to activate", rule="Firepower 11.4")
    if len(set(targets)) != len(targets):
        raise RulesError("name each soldier once", rule="Firepower 11.4")
    for t in targets:
        u = game.state.units.get(t)
        if u is None or u.side != leader.side or not alive(u) or u.hex != leader.hex:
            raise RulesError(f"{t!r} is not a soldier of {leader.side} in {leader.id}'s hex",
                             rule="Firepower 11.4")
        if t in ph["used"]:
            raise RulesError(f"{t} has already acted this Impulse Phase", rule="Firepower 6.2")
        if u.state.get("status") == "stunned":
            raise RulesError(f"{t} is Stunned and may not spend MF", rule="Firepower 6.2.8")
        if not can_activate(rank_of(leader), squad_of(leader), rank_of(u), squad_of(u)):
            raise RulesError(f"{leader.id} ({rank_of(leader)}) may not activate {t}",
                             rule="Firepower 11.4")
    return {"cost": 0, "targets": sorted(targets)}


def _apply_activate(game: Game, ph: dict[str, Any], info: dict[str, Any]) -> None:
    """Firepower 11.4: each activated soldier may spend his MF less those the leader spent to
    reach the hex; activation costs nothing."""
    spent = int(ph["spent"].get(info["unit"], 0))
    for t in info["targets"]:
        ph["active"].append(t)
        ph["spent"][t] = spent
    ph["used"] = sorted(set(ph["used"]) | set(info["targets"]))
    from hexwar.plugins.firepower.actions import note_underground

    leader = game.state.units[info["unit"]]
    for t in info["targets"]:
        note_underground(ph, game.state.units[t])
    # Firepower 11.5, 8.8.8: a leader's MF spent in a tunnel are his side's alone (FPD-137)
    game.emit("activated", visible_to=[leader.side] if leader.state.get("tunnel") else None,
              unit=info["unit"], units=list(info["targets"]), spent=spent,
              rule="Firepower 11.4")


def _activate_options(game: Game, ph: dict[str, Any], uid: str) -> list[dict[str, Any]]:
    leader = game.state.units[uid]
    if not is_leader(rank_of(leader)) or int(ph["entered"].get(uid, 0)) <= 0:
        return []
    ids = sorted(u.id for u in game.state.units_of(leader.side)
                 if alive(u) and u.hex == leader.hex and u.id not in ph["used"]
                 and u.state.get("status") != "stunned"
                 and can_activate(rank_of(leader), squad_of(leader), rank_of(u), squad_of(u)))
    return [{"unit": uid, "act": "activate", "targets": ids}] if ids else []


ACTIVATE = ActionType("activate", _check_activate, _apply_activate, _activate_options,
                      rule="Firepower 11.4")


# ---------------------------------------------------------------------------------------------
# The Impulse Phases
# ---------------------------------------------------------------------------------------------


def hit_the_dirt(game: Game, squad: str, ids: list[str]) -> None:
    """Firepower 11.3.3: the soldiers go Prone (Running removed, Firepower 10.5.3) and do
    nothing else this Impulse Phase."""
    ph = data(game)["phase"]
    for uid in ids:
        u = game.state.units[uid]
        u.state["posture"] = "prone"
        u.state["speed"] = "normal"
    ph["used"] = sorted(set(ph["used"]) | set(ids))
    ph["dirt"] = sorted(set(ph.get("dirt", [])) | set(ids))
    game.emit("hit_the_dirt", squad=squad, units=list(ids), rule="Firepower 11.3.3")


def run_advanced_impulse_phase(game: Game, side: str, index: int) -> Gen:
    """One Impulse Phase of ``side`` for the sequence unit of letter ``index``: each squad it
    applies to has its own Impulses, used in any order (Firepower 9.2)."""
    start_impulse_phase(game, side)
    ph = data(game)["phase"]
    ph["letter"] = letter(index)
    ph["squads"] = {q: 0 for q in eligible_squads(game, side, index)}
    ph["dirt"] = []
    game.emit("squad_impulses", side=side, letter=letter(index), squads=sorted(ph["squads"]),
              rule="Firepower 9.1")
    while True:
        opts = impulse_options(game, side)
        if not opts:
            break
        choice = yield Decision(side, "impulse", options=[*opts, "pass"],
                                validate=validator(
                                    lambda ch: None if ch == "pass"
                                    else check_squad_impulse(game, side, ch)),
                                prompt="Choose a squad's soldiers of one hex for an Impulse, "
                                       "Hit the Dirt!, or pass",
                                rule="Firepower 9.2")
        if choice == "pass":
            break
        q, ids, dirt = check_squad_impulse(game, side, choice)
        ph = data(game)["phase"]
        ph["squads"][q] = int(ph["squads"][q]) + 1
        if dirt:
            hit_the_dirt(game, q, ids)
            continue
        if choice.get("enter_board"):
            from hexwar.plugins.firepower.entry import enter_board

            enter_board(game, side, choice)  # Firepower 10.2: the whole squad in one Impulse
        else:
            begin_impulse(game, ids)

        def after(action: Any, info: dict[str, Any]) -> None:
            from hexwar.plugins.firepower.weapon_units import follow

            follow(game)  # Firepower 10.1: weapon units go with the crewmen carrying them
            after_action(game, action, info)  # Firepower 12.4.4: a mine in the hex entered
            from hexwar.plugins.firepower.defenses import after_action as after_defences

            after_defences(game, action, info)  # Firepower 11.2.1: an abatis hex's MF
            from hexwar.plugins.firepower import weather

            weather.after_action(game, action, info)  # Firepower 11.2.2: snow and mud
            from hexwar.plugins.firepower import height_hexsides

            height_hexsides.after_action(game, action, info)  # Firepower 11.1.4
            fired = _fired(info)
            if fired is not None:  # Firepower 11.1.12: a round of the load is fired off
                from hexwar.plugins.firepower.loading import after_fire

                after_fire(game, *fired)
            if data(game)["phase"]["combat"] and not data(game).get("combat_begun"):
                data(game)["combat_begun"] = True  # Firepower 11.3.2: the limits apply from now

        yield from impulse_actions(game, side, legal_advanced_actions, check_advanced_action,
                                   "Firepower 11.1", after)
    end_impulse_phase(game, side)


def phase_impulses(game: Game) -> Gen:
    """Firepower 9, Firepower 6.1: draw sequence units until the cup is empty; each gives its
    side an Impulse Phase for the squads its letter applies to."""
    while data(game)["cup"]:
        side, index = draw(game)
        yield from run_advanced_impulse_phase(game, side, index)
