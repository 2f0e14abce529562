"""The Firefight I sequence of play (Firefight 4.1) as phases (generators yielding decisions).

Setup: ``firefight.draw_forces`` (Scn 7, 9 blind draws), ``firefight.fire_plan`` (Firefight 8.1, 8.13),
``firefight.deploy`` (Firefight 9.13), ``firefight.assign_weapons`` (Firefight 6.81, 6.9). Each Game-Turn:
A ``firefight.direct_fire``, B ``firefight.movement``, C ``firefight.suppression_removal``,
D ``firefight.if_cleanup``, ``firefight.if_execute``, ``firefight.if_request``, E ``firefight.end_turn``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from hexwar.core.engine.decisions import Decision
from hexwar.core.engine.primitives import ChitCup, alternate, ask_all
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
from hexwar.plugins.firefight.state import carried, emit_about, enemy_of, ff, hooks, utype

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
        game.emit("stacking_violation", hexes=bad, rule="Firefight 7.3")


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
                    for lbl in enemy_hexes:
                        if (last.distance(game.board.parse(lbl)) <= 2 and
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


# ---------------------------------------------------------------------------------------------
# setup
# ---------------------------------------------------------------------------------------------


def draw_forces(game: Game) -> Step:
    """Scn 7 and 9: each listed side draws counters blind from its cup; undrawn units never
    play. Drawn dummies are removed unless a dummies rule keeps them (docs/decisions.md FFD-21)."""
    spec = game.scenario.raw.get("special", {}).get("draw", {})
    for side in sorted(spec):
        cup_ids = [str(x) for x in spec[side]["cup"]]
        n = int(spec[side]["count"])
        cup = ChitCup(cup_ids)
        drawn = [cup.draw(game, f"{side} force draw") for _ in range(min(n, len(cup_ids)))]
        for uid in cup_ids:
            u = game.state.units[uid]
            if uid not in drawn:
                u.hex = None
                u.state["not_drawn"] = True
                u.state.pop("enter", None)
                for pid in u.state.get("passengers", []):
                    p = game.state.units[pid]
                    p.hex = None
                    p.state["not_drawn"] = True
                    p.state.pop("enter", None)
            elif u.state.get("dummy") and not _dummies_enabled(game):
                u.hex = None
                u.state["not_drawn"] = True
                u.state.pop("enter", None)
        game.emit("force_draw", visible_to=[side], side=side, drawn=drawn, rule="Firefight Scenarios 7, 9")
        game.emit("force_draw", side=side, count=len(drawn), rule="Firefight Scenarios 7, 9")
        for hook_side, reward in spec[side].get("if_if_drawn", {}).items():
            if reward in drawn:
                for e in spec[side].get("indirect", []):
                    IF.if_units(game)  # ensure the table exists
                    ff(game)["if_units"][str(e["id"])] = {
                        "side": hook_side, "type": str(e["type"]),
                        "status": str(e.get("status", "direct")), "mission": None,
                        "last_impact": None, "impacted_turn": None}
    return
    yield


def _dummies_enabled(game: Game) -> bool:
    return any("dummies" in r for r in game.rules_enabled)


def fire_plan_problem(game: Game, side: str, choice: Any) -> str | None:
    """A fire plan is a Target List (a list of hexes) or ``{"targets": [...], "schedule":
    [{unit, hex, turn}, ...]}`` (Firefight 8.1, 8.12, 8.13)."""
    if isinstance(choice, Mapping):
        if set(choice) - {"targets", "schedule"}:
            return "a fire plan has 'targets' and 'schedule'"
        return (IF.target_list_problem(game, side, choice.get("targets", []))
                or IF.schedule_problem(game, side, choice.get("schedule", [])))
    return IF.target_list_problem(game, side, choice)


def fire_plan(game: Game) -> Step:
    """Firefight 8.1, 8.12, 8.13: before deployment each player with Indirect Fire units writes, in
    secret, a Target List (at most four hexes per IF unit) and any Scheduled Fires (plus the
    scenario's own ``schedule`` list)."""
    decisions = []
    sides = []
    for side in ("US", "SU"):
        if not IF.if_units(game, side):
            continue
        limit = IF.target_list_limit(game, side)
        suggest = [x for x in game.scenario.raw.get("special", {}).get("target_lists", {})
                   .get(side, [])][:limit]

        def validate(choice: Any, side: str = side) -> str | None:
            return fire_plan_problem(game, side, choice)
        decisions.append(Decision(side, "firefight.target_list", options=[[], suggest],
                                  validate=validate, context={"limit": limit},
                                  prompt=f"{side}: Target List (<= {limit} hexes)",
                                  rule="Firefight 8.13"))
        sides.append(side)
    if decisions:
        choices = yield from ask_all(decisions)
        for side, choice in zip(sides, choices, strict=True):
            plan = dict(choice) if isinstance(choice, Mapping) else {"targets": choice}
            labels = [game.board.label(game.board.parse(str(x))) for x in plan.get("targets", [])]
            ff(game).setdefault("target_list", {})[side] = labels
            game.emit("target_list", visible_to=[side], side=side, hexes=labels, rule="Firefight 8.1")
            for e in plan.get("schedule", []):
                IF.schedule(game, side, str(e["unit"]), str(e["hex"]), int(e["turn"]))
            if plan.get("schedule"):
                game.emit("scheduled_fires", visible_to=[side], side=side,
                          fires=list(plan["schedule"]), rule="Firefight 8.12")
    for e in game.scenario.raw.get("special", {}).get("schedule", []):
        IF.schedule(game, str(e["side"]), str(e["unit"]), str(e["hex"]), int(e["turn"]))


def assign_weapons(game: Game) -> Step:
    """Firefight 6.8, 6.81, 6.84, 6.9, 6.92: secret, permanent assignment: U.S. Dragons (scenario
    count, at most one per fireteam); Soviet RPG-7s (one per squad of two teams: floor(teams/2),
    docs/decisions.md FFD-8)."""
    spec = game.scenario.raw.get("special", {})
    decisions = []
    meta = []
    for side, key, weapon, types in (("US", "dragons", "dragon", ("US-TM", "US-TM+")),
                                     ("SU", "rpg7", "rpg7", ("SU-TM", "SU-TM+"))):
        teams = [u.id for u in game.state.units_of(side)
                 if utype(u).name in types and not u.state.get("not_drawn")]
        n = int(spec.get(key, len(teams) // 2 if side == "SU" else 0))
        n = min(n, len(teams))
        if n <= 0:
            continue

        def validate(choice: Any, teams: list[str] = teams, n: int = n) -> str | None:
            return assignment_problem(choice, teams, n)
        default = teams[::2][:n] + [t for t in teams[1::2]][: max(0, n - len(teams[::2]))]
        decisions.append(Decision(side, "firefight.assign_weapons", options=[default],
                                  validate=validate, context={"count": n, "teams": teams,
                                                              "weapon": weapon},
                                  prompt=f"{side}: assign {n} {weapon}", rule="Firefight 6.81"))
        meta.append((side, weapon))
    if decisions:
        choices = yield from ask_all(decisions)
        for (side, weapon), choice in zip(meta, choices, strict=True):
            for uid in choice:
                game.state.units[str(uid)].state["weapon"] = weapon
            game.emit("assign_weapons", visible_to=[side], side=side, weapon=weapon,
                      units=list(choice), rule="Firefight 6.81" if weapon == "dragon" else "Firefight 6.9")


def _zone_ok(game: Game, zone: Mapping[str, Any], h: Any) -> bool:
    """One deployment zone of ``[setup] deploy``: every condition given must hold."""
    from hexwar.plugins.firefight.victory import area

    label = game.board.label(h)
    if "map" in zone and not label.startswith(f"{zone['map']}:"):
        return False
    col, row = (int(label[-4:-2]), int(label[-2:]))
    if "rows" in zone and not zone["rows"][0] <= row <= zone["rows"][1]:
        return False
    if "cols" in zone and not zone["cols"][0] <= col <= zone["cols"][1]:
        return False
    if "area" in zone and h not in area(game.board, str(zone["area"])):
        return False
    if "within" in zone:
        c = game.board.parse(str(zone["within"][0]))
        if c.distance(h) > int(zone["within"][1]):
            return False
    return True


def deployment_problem(game: Game, side: str, spec: Mapping[str, Any],
                       placement: Mapping[str, str]) -> str | None:
    """Firefight 9.13: every unit of ``side`` placed inside one of the zones (a zone with ``max`` holds
    at most that many units; ``units`` limits a zone to those ids), at most four per hex (Firefight 7.3)."""
    if not isinstance(placement, Mapping):
        return "a deployment is {unit id: hex}"
    where: dict[str, Any] = {}
    for u in game.state.units_of(side):
        if u.hex is None or carried(u) or u.state.get("not_drawn"):
            continue
        lbl = placement.get(u.id)
        try:
            where[u.id] = game.board.parse(str(lbl)) if lbl is not None else u.hex
        except ValueError as exc:
            return str(exc)
    for uid in placement:
        if uid not in where:
            return f"{uid} is not a unit of {side} that deploys on the map"
    zones = list(spec.get("zones", []))
    used = [0] * len(zones)
    for uid, h in sorted(where.items()):
        fits = [i for i, z in enumerate(zones) if _zone_ok(game, z, h)
                and (not z.get("units") or uid in z["units"])
                and uid not in z.get("exclude", ())
                and used[i] < int(z.get("max", 10 ** 6))]
        if not fits:
            return f"{uid} at {game.board.label(h)} is outside the deployment area (Firefight 9.13)"
        unlimited = [i for i in fits if "max" not in zones[i]]
        used[(unlimited or fits)[0]] += 1
    count: dict[Any, int] = {}
    for uid, h in where.items():
        if not game.state.units[uid].state.get("dummy"):
            count[h] = count.get(h, 0) + 1
    if any(n > 4 for n in count.values()):
        return "more than four units in a hex (Firefight 7.3)"
    return None


def deploy(game: Game) -> Step:
    """Firefight 9.13: each side in the scenario's order may redeploy its units inside its areas (the
    scenario's positions are a legal default; the AI keeps them)."""
    for spec in game.scenario.raw.get("setup", {}).get("deploy", []):
        side = str(spec["side"])

        def validate(choice: Any, side: str = side, spec: Mapping[str, Any] = spec
                     ) -> str | None:
            return deployment_problem(game, side, spec, choice)
        choice = yield Decision(side, "firefight.deploy", options=[{}], validate=validate,
                                context={"zones": list(spec.get("zones", []))},
                                prompt=f"{side}: deploy (unit -> hex), {{}} keeps the set-up",
                                rule="Firefight 9.13")
        for uid, lbl in dict(choice).items():
            u = game.state.units[uid]
            u.hex = game.board.parse(str(lbl))
            for pid in u.state.get("passengers", []):
                game.state.units[pid].hex = u.hex
        emit_about(game, "deployed", [], side=side, rule="Firefight 9.13")


def assignment_problem(choice: Any, teams: Sequence[str], n: int) -> str | None:
    """Firefight 6.81: at most one special weapon per team and no more than the scenario gives."""
    if not isinstance(choice, list | tuple):
        return "an assignment is a list of team ids"
    if len(set(choice)) != len(choice):
        return "no more than one Dragon (RPG-7) may be assigned to one team (Firefight 6.81)"
    if len(choice) > n:
        return f"only {n} to assign"
    bad = [x for x in choice if x not in teams]
    if bad:
        return f"{bad} are not fireteams of this side (Firefight 6.8)"
    return None


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
