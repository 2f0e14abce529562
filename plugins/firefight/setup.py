"""Set-up before the first Game-Turn (Firefight 9.13): the blind force draws of Scenarios 7 and 9,
the fire plans (Firefight 8.1, 8.12, 8.13), the deployment (Firefight 9.13) and the secret
assignment of Dragons and RPG-7s (Firefight 6.81, 6.9).

The four set-up phases are :class:`~hexwar.core.types.PhaseSpec` of ``when="setup"`` in
:func:`hexwar.plugins.firefight.sequence.phases`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from hexwar.core.engine.decisions import Decision
from hexwar.core.engine.primitives import ChitCup, ask_all
from hexwar.plugins.firefight import indirect as IF
from hexwar.plugins.firefight.state import carried, emit_about, ff, utype

if TYPE_CHECKING:
    from hexwar.core.engine.game import Game
    from hexwar.plugins.firefight.hookspecs import Step


def draw_forces(game: Game) -> Step:
    """Scn 7 and 9: each listed side draws counters blind from its cup; undrawn units never
    play. Drawn dummies are removed unless a dummies rule keeps them (docs/decisions.md FFD-21)."""
    spec = game.scenario.raw.get("special", {}).get("draw", {})
    for side in sorted(spec):
        cup_ids = [str(x) for x in spec[side]["cup"]]
        n = int(spec[side]["count"])
        cup = ChitCup(cup_ids)
        # drawn in secret: only the drawing side learns which counters it drew
        drawn = [cup.draw(game, f"{side} force draw", visible_to=(side,))
                 for _ in range(min(n, len(cup_ids)))]
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
    scenario's positions are a legal default; the AI keeps them, and face-down counters left there
    are shuffled in secret, FFD-46)."""
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
        shuffle_printed_setup(game, side, spec, kept=set(dict(choice)))
        emit_about(game, "deployed", [], side=side, rule="Firefight 9.13")


def shuffle_printed_setup(game: Game, side: str, spec: Mapping[str, Any], *,
                          kept: set[str]) -> None:
    """docs/decisions.md FFD-46: the face-down counters ``side`` left at the scenario's printed
    hexes (every one not in ``kept``, the ones it placed itself) swap places in secret among
    counters claiming the same kind, each swap kept only while the deployment stays legal. The
    printed set-up is public (the scenario file, a side's log): a counter left there would be
    known by its hex, a dummy as a dummy, a drawn unit as drawn (Firefight 11.0, 12.0)."""
    from hexwar.plugins.firefight.rules.observation import claimed_kind

    left = [u for u in sorted(game.state.units_of(side), key=lambda u: u.id)
            if u.id not in kept and u.hex is not None and u.state.get("face_down")
            and not carried(u) and not u.state.get("not_drawn")]
    before = {u.id: u.hex for u in left}
    for kind in ("personnel", "vehicle"):
        group = [u for u in left if claimed_kind(u) == kind]
        for i in range(len(group) - 1, 0, -1):  # Fisher-Yates, rolled for the umpire alone
            j = game.dice.choice_index("set-up shuffle", i + 1, visible_to=())
            a, b = group[i], group[j]
            if a is b or a.hex == b.hex:
                continue
            a.hex, b.hex = b.hex, a.hex
            placed = {u.id: game.board.label(u.hex) for u in left if u.hex is not None}
            if deployment_problem(game, side, spec, placed) is not None:
                a.hex, b.hex = b.hex, a.hex  # a unit outside its own zone: keep this pair
    for u in left:
        for pid in u.state.get("passengers", []):
            game.state.units[pid].hex = u.hex
    moved = {u.id: game.board.label(u.hex) for u in left if u.hex is not None
             and u.hex != before[u.id]}
    if moved:  # the owner learns where its counters now stand; the other side only that it is done
        game.emit("setup_shuffled", visible_to=(side,), side=side, moved=moved,
                  rule="Firefight 9.13")


def assignment_problem(choice: Any, teams: Sequence[str], n: int) -> str | None:
    """Firefight 6.81: at most one special weapon per team and no more than the scenario gives."""
    if not isinstance(choice, list | tuple) or not all(isinstance(x, str) for x in choice):
        return "an assignment is a list of team ids"
    if len(set(choice)) != len(choice):
        return "no more than one Dragon (RPG-7) may be assigned to one team (Firefight 6.81)"
    if len(choice) > n:
        return f"only {n} to assign"
    bad = [x for x in choice if x not in teams]
    if bad:
        return f"{bad} are not fireteams of this side (Firefight 6.8)"
    return None
