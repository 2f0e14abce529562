"""The Firefight I sequence of play (Firefight 4.1) as phases (generators yielding decisions),
and the turn phases themselves; the set-up phases are in ``setup.py``.

Setup: ``firefight.draw_forces`` (Scn 7, 9 blind draws), ``firefight.fire_plan`` (Firefight 8.1, 8.13),
``firefight.deploy`` (Firefight 9.13), ``firefight.assign_weapons`` (Firefight 6.81, 6.9). Each Game-Turn:
A ``firefight.direct_fire``, B ``firefight.movement``, C ``firefight.suppression_removal``,
D ``firefight.if_cleanup``, ``firefight.if_execute``, ``firefight.if_request``, E ``firefight.end_turn``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from hexwar.core.engine.decisions import Decision
from hexwar.core.engine.primitives import alternate
from hexwar.core.types import PhaseSpec
from hexwar.plugins.firefight import indirect as IF
from hexwar.plugins.firefight.fire import attack_step, phase_actions
from hexwar.plugins.firefight.movement import (
    do_dismount,
    do_mount,
    move_options,
    move_unit,
    move_validator,
    stacking_violations,
)
from hexwar.plugins.firefight.setup import assign_weapons, deploy, draw_forces, fire_plan
from hexwar.plugins.firefight.state import carried, emit_about, enemy_of, ff, hooks

if TYPE_CHECKING:
    from hexwar.core.engine.game import Game
    from hexwar.plugins.firefight.hookspecs import Step

PER_TURN_KEYS = ("fired", "moved", "acted", "mp", "steps", "target_kind_used", "weapon_used")


def first_player(game: Game, purpose: str) -> list[str]:
    """Firefight 4.2: one die: odd, the Soviet player is First Player; even, the U.S. player."""
    roll = game.dice.d6(f"first player ({purpose})")
    first = "SU" if roll % 2 else "US"
    game.emit("first_player", purpose=purpose, roll=roll, first=first, rule="Firefight 4.2")
    return [first, enemy_of(first)]


# ---------------------------------------------------------------------------------------------
# attacks
# ---------------------------------------------------------------------------------------------


def direct_fire(game: Game) -> Step:
    """A. (Firefight 4.1A, 6.0-6.32, Firefight 4.1 (Clarifications)) alternate single attacks until
    both pass in succession."""
    ff(game)["attacked"] = []
    order = first_player(game, "Direct Fire Phase")
    yield from alternate(game, order, lambda side: attack_step(game, side, "direct", actions=True))
    ff(game)["attacked"] = []


# ---------------------------------------------------------------------------------------------
# movement
# ---------------------------------------------------------------------------------------------


def movement(game: Game) -> Step:
    """B. (Firefight 4.1B, 7.0, Firefight 4.1 (Clarifications)) alternate single-unit moves (or
    mount/dismount) until both pass."""
    order = first_player(game, "Movement Phase")
    yield from alternate(game, order, lambda side: movement_turn(game, side))
    bad = stacking_violations(game)
    if bad:
        # a face-down unit is named by its anonymous counter to the other side (Firefight 11.0)
        emit_about(game, "stacking_violation", [u for ids in bad.values() for u in ids],
                   hexes=bad, rule="Firefight 7.3")


def movement_turn(game: Game, side: str) -> Step:
    """One turn of ``side`` in the Movement Phase: move a unit, mount, dismount, a rule's action
    or pass (Firefight 7.0, 7.42); returns True unless the side passed (or had nothing to do)."""
    opts = move_options(game, side) + phase_actions(game, side)
    if not opts:
        return False
    choice = yield Decision(side, "firefight.move", options=["pass", *opts],
                            validate=move_validator(game, side),
                            prompt=f"{side}: move a unit or pass", rule="Firefight 7.0")
    if choice == "pass":
        return False
    if "move" in choice:
        yield from move_unit(game, game.state.units[str(choice["move"])])
    elif "mount" in choice:
        v = game.state.units[str(choice["mount"])]
        do_mount(game, v, [game.state.units[str(x)] for x in choice["units"]])
        emit_about(game, "mount", [v.id, *choice["units"]], vehicle=v.id,
                   units=list(choice["units"]), rule="Firefight 7.42")
    elif "dismount" in choice:
        v = game.state.units[str(choice["dismount"])]
        pax = list(v.state.get("passengers", []))
        do_dismount(game, v)
        emit_about(game, "dismount", [v.id, *pax], vehicle=v.id, units=pax, rule="Firefight 7.42")
    elif "action" in choice:
        step = hooks(game).run_action(side, dict(choice))
        if step is not None:
            yield from step
    return True


def suppression_removal(game: Game) -> Step:
    """C. (Firefight 4.1C, 6.56) remove every Suppression marker."""
    for u in game.state.units.values():
        u.state.pop("S", None)
    return
    yield


# ---------------------------------------------------------------------------------------------
# indirect fire
# ---------------------------------------------------------------------------------------------


def if_cleanup(game: Game) -> Step:
    """D1. (Firefight 4.1D, 8.8) remove the Impact Markers placed last turn."""
    ff(game)["impacts"] = [i for i in ff(game).get("impacts", [])
                           if i["turn"] >= game.state.turn]
    return
    yield


def if_execute(game: Game) -> Step:
    """D2-D3. (Firefight 8.4-8.63) each due mission: availability, adjustment, scatter, marker; then every
    unit in the zones is attacked."""
    for st in hooks(game).if_extra_missions():
        yield from st
    for side in ("US", "SU"):
        for uid in IF.due(game, side):
            if not IF.availability(game, uid):
                continue
            m = IF.if_units(game)[uid]["mission"]
            opts = [m["hex"]]
            plotted = game.board.parse(m["hex"])
            for u in game.state.units.values():
                if u.hex is not None and u.side != side and plotted.distance(u.hex) <= 2:
                    lbl = game.board.label(u.hex)
                    if lbl not in opts and IF.adjust_problem(game, side, uid, lbl) is None:
                        opts.append(lbl)
            to = m["hex"]
            if len(opts) > 1 and not m.get("no_adjust"):
                def validate(choice: Any, uid: str = uid, side: str = side) -> str | None:
                    return IF.adjust_problem(game, side, uid, str(choice))
                to = yield Decision(side, "firefight.adjust", options=opts, validate=validate,
                                    context={"unit": uid, "plotted": m["hex"]},
                                    prompt=f"{uid}: keep {m['hex']} or shift", rule="Firefight 8.51")
            final = IF.scatter(game, uid, game.board.parse(str(to)))
            IF.place(game, uid, game.board.label(final), adjusted=str(to))
    IF.attack_zones(game)


def _screen_hexes(game: Game, side: str, limit: int = 6) -> list[str]:
    """Hexes next to own units on the side of their nearest enemy (candidate smoke screens)."""
    enemies = [u.hex for u in game.state.units.values() if u.side != side and u.hex is not None]
    out: list[str] = []
    if not enemies:
        return out
    for u in game.state.units_of(side):
        if u.hex is None or carried(u):
            continue
        near = min(enemies, key=lambda e: (u.hex.distance(e), e.q, e.r))  # type: ignore[union-attr]
        step = min(game.board.neighbors_of[u.hex], key=lambda n: (n.distance(near), n.q, n.r))
        lbl = game.board.label(step)
        if lbl not in out:
            out.append(lbl)
        if len(out) >= limit:
            break
    return out


def if_request(game: Game) -> Step:
    """D4. (Firefight 8.2, 8.22, 8.32) each player may request new missions and Continuous Fire."""
    for side in ("US", "SU"):
        while True:
            opts: list[Any] = ["pass"]
            free = [k for k, v in IF.if_units(game, side).items() if v["mission"] is None]
            if not free:
                break
            enemy_hexes = sorted({game.board.label(u.hex) for u in game.state.units.values()
                                  if u.side != side and u.hex is not None})
            for uid in free:
                v = IF.if_units(game)[uid]
                if v.get("impacted_turn") == game.state.turn and v.get("last_impact"):
                    last = game.board.parse(v["last_impact"])
                    walked = v.get("last_adjusted")  # Firefight 8.51 (Clarifications)
                    for lbl in enemy_hexes:
                        if ((last.distance(game.board.parse(lbl)) <= 2 or lbl == walked) and
                                IF.request_problem(game, side, uid, lbl, continuous=True) is None):
                            opts.append({"unit": uid, "hex": lbl, "continuous": True})
                kinds = [k for k in IF.mission_kinds(game, side, uid) if k != "he"]
                for lbl in enemy_hexes:
                    if IF.request_problem(game, side, uid, lbl) is None:
                        opts.append({"unit": uid, "hex": lbl})
                        opts.extend({"unit": uid, "hex": lbl, "kind": k} for k in kinds)
                if "smoke" in kinds:  # Firefight 14: also screens: the hex beside an own unit, facing
                    for lbl in _screen_hexes(game, side):  # the nearest enemy
                        if lbl not in enemy_hexes and IF.request_problem(
                                game, side, uid, lbl, kind="smoke") is None:
                            opts.append({"unit": uid, "hex": lbl, "kind": "smoke"})
            if len(opts) == 1:
                break

            def validate(choice: Any, side: str = side) -> str | None:
                if not isinstance(choice, Mapping):
                    return "a request is {'unit', 'hex', 'continuous'?, 'kind'?} or 'pass'"
                return IF.request_problem(game, side, str(choice.get("unit")),
                                          str(choice.get("hex")),
                                          continuous=bool(choice.get("continuous")),
                                          kind=str(choice.get("kind", "he")))
            choice = yield Decision(side, "firefight.if_request", options=opts,
                                    validate=validate, prompt=f"{side}: request fire or pass",
                                    rule="Firefight 8.2")
            if choice == "pass":
                break
            IF.request(game, side, str(choice["unit"]), str(choice["hex"]),
                       continuous=bool(choice.get("continuous")),
                       kind=str(choice.get("kind", "he")))


def end_turn(game: Game) -> Step:
    """E. (Firefight 4.1E) the turn ends: per-turn marks are cleared."""
    for u in game.state.units.values():
        for k in PER_TURN_KEYS:
            u.state.pop(k, None)
    ff(game)["mover"] = None
    return
    yield


def phases() -> list[PhaseSpec]:
    return [
        PhaseSpec("firefight.draw_forces", "Force draw", "Firefight Scenarios 7, 9", draw_forces, "setup"),
        PhaseSpec("firefight.fire_plan", "Fire support planning", "Firefight 8.1", fire_plan, "setup"),
        PhaseSpec("firefight.deploy", "Deployment", "Firefight 9.13", deploy, "setup"),
        PhaseSpec("firefight.assign_weapons", "Dragon and RPG-7 assignment", "Firefight 6.81, 6.9",
                  assign_weapons, "setup"),
        PhaseSpec("firefight.direct_fire", "A. Direct Fire Phase", "Firefight 4.1A", direct_fire),
        PhaseSpec("firefight.movement", "B. Movement Phase", "Firefight 4.1B", movement),
        PhaseSpec("firefight.suppression_removal", "C. Suppression Marker Removal", "Firefight 4.1C",
                  suppression_removal),
        PhaseSpec("firefight.if_cleanup", "D. Impact markers removed", "Firefight 4.1D, 8.8", if_cleanup),
        PhaseSpec("firefight.if_execute", "D. Indirect fire executed", "Firefight 8.4-8.6", if_execute),
        PhaseSpec("firefight.if_request", "D. Indirect fire requested", "Firefight 8.2", if_request),
        PhaseSpec("firefight.end_turn", "E. End of Game-Turn", "Firefight 4.1E", end_turn),
    ]
