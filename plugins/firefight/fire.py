"""Fire (Firefight 6.0-6.9): weapons, who may fire at whom, the fire procedure, results and their effects.

One unit's fire at one target is a :class:`~hexwar.core.kit.Pipeline` of named steps
(:data:`FIRE_STEPS`), worked out on a :class:`Shot`; optional rules change it through
``firefight_fire_steps`` (insert, replace or remove a step by name) and keep answering the fire
hooks at the same points. The steps from ``base_rating`` to ``result_override`` compute without
changing the game (:func:`resolve_attack`, used by the AI and the table-side command as well);
the rest apply the result and report it.

The checks (``*_problem``) return the reason with its case number, or ``None``; the functions
that change the game (:func:`execute_attack`, :func:`apply_result`) check everything first and
raise :class:`~hexwar.core.errors.RulesError` with the game unchanged.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from hexwar.core.engine.decisions import Decision
from hexwar.core.errors import PluginError, RulesError
from hexwar.core.kit import Pipeline, StashKey
from hexwar.core.types import Modifier, total
from hexwar.plugins.firefight.sighting import FOREST_TOWN, has_los, in_defilade
from hexwar.plugins.firefight.state import (
    carried,
    ff,
    hooks,
    is_vehicle,
    public_ref,
    report_about,
    rule_of,
    strip_rule,
    target_class,
    utype,
)
from hexwar.plugins.firefight.tables import ff_data

if TYPE_CHECKING:
    from hexwar.core.board import Board
    from hexwar.core.engine.game import Game
    from hexwar.core.engine.state import Unit
    from hexwar.core.hexgrid import Hex
    from hexwar.plugins.firefight.hookspecs import Step

#: missile lines that a Kms result destroys (Firefight 8.65)
MISSILE_LINES = frozenset({"SU-Sagger", "US-TOW", "US-M60A2-missile"})
RESULT_ORDER = {"-": 0, "S": 1, "Kf": 2, "Km": 2, "K": 3}


# ---------------------------------------------------------------------------------------------
# weapons (Firefight 6.8, 6.9)
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Weapon:
    """A way a firer may attack a target: the fire-table line and the CRT (Firefight 6.0 Steps 3-4)."""

    line: str
    crt: str
    kind: str  # "small" (anti-personnel weapons) or "at" (LAW, Dragon, RPG-7, guns vs vehicles)
    rule: str = "Firefight 6.0"


def weapons(game: Game | None, firer: Unit, target: Unit) -> list[Weapon]:
    """The weapons ``firer`` may use against ``target`` (Firefight 3.3, 6.8, 6.82, 6.9, 6.91, 8.65)."""
    ud = utype(firer)
    cls = target_class(game, target)
    crt = "anti_personnel" if cls == "personnel" else "anti_armor"
    fire = ff_data().fire
    out: list[Weapon] = []
    if ud.cls == "personnel":
        if cls == "personnel":
            lines = list(ud.weapons)
        else:
            lines = list(ud.at_weapons)
            special = firer.state.get("weapon")
            if special == "dragon":
                lines.append("US-Dragon")  # Firefight 6.82
            elif special == "rpg7":
                lines.append("SU-RPG7")  # Firefight 6.91
        for ln in lines:
            if (ln, cls) in fire:
                out.append(Weapon(ln, crt, "small" if cls == "personnel" else "at"))
    else:
        for ln in ud.weapons:
            if ln in MISSILE_LINES and firer.state.get("Kms") and ud.missile:
                continue  # Firefight 8.65: missile armament destroyed
            if (ln, cls) in fire:
                out.append(Weapon(ln, crt, "small" if cls == "personnel" else "at"))
    if game is not None:
        for w in hooks(game).weapon_options(firer.id, target.id, "any"):
            out.append(Weapon(str(w["line"]), str(w["crt"]), str(w.get("kind", "small")),
                              str(w.get("rule", ""))))
    return out


def choose_weapon(game: Game, firer: Unit, target: Unit, weapon_line: str | None) -> Weapon:
    ws = weapons(game, firer, target)
    if weapon_line:
        for w in ws:
            if w.line == weapon_line:
                return w
        raise RulesError(f"{firer.id} cannot use {weapon_line} on {target.id}", rule="Firefight 6.82")
    if not ws:
        raise RulesError(f"{firer.id} has no weapon against {target.id}", rule="Firefight 6.8")
    assert firer.hex is not None and target.hex is not None
    rng = firer.hex.distance(target.hex)
    cls = target_class(game, target)
    return max(ws, key=lambda w: base_rating(w.line, cls, rng) or -99)


def mark_fired(firer: Unit, weapon: Weapon | None) -> None:
    firer.state["fired"] = True
    if weapon is not None:
        firer.state["target_kind_used"] = ("personnel" if weapon.crt == "anti_personnel"
                                           else "vehicle")
        firer.state["weapon_used"] = weapon.line


# ---------------------------------------------------------------------------------------------
# who may fire at whom (Firefight 6.0, 6.11, 6.13, 6.4, 6.54, 7.42, 7.44)
# ---------------------------------------------------------------------------------------------


def exemptions(game: Game, firer: Unit, mode: str) -> set[str]:
    return hooks(game).fire_exemptions(firer.id, mode)


def firer_problem(game: Game, firer: Unit, mode: str, exempt: set[str] | None = None
                  ) -> str | None:
    """Why ``firer`` may not fire now, with the case number, or None (Firefight 6.11, 6.54, 7.42)."""
    ex = exemptions(game, firer, mode) if exempt is None else exempt
    if firer.hex is None:
        return "the unit is not on the map"
    if firer.state.get("fired") and "fired" not in ex:
        return "the unit has already fired this Game-Turn (Firefight 6.11)"
    if firer.state.get("moved") and "moved" not in ex:
        return "the unit has moved this Game-Turn (Firefight 6.11, 4.1)"
    if firer.state.get("acted"):
        return "the unit is mounting or dismounting this Game-Turn (Firefight 7.42)"
    if carried(firer) and "passenger" not in ex:
        return "a mounted unit may not fire (Firefight 7.4)"
    if firer.state.get("Kf"):
        return "a Kf vehicle cannot fire (Firefight 6.54)"
    if not utype(firer).weapons and not utype(firer).at_weapons:
        return "the unit has no armament (Firefight 3.3)"
    return None


def target_problem(game: Game, side: str, target: Unit, mode: str) -> str | None:
    """Why ``side`` may not attack ``target`` in this mode, or None (Firefight 6.0, 6.13, 6.4, 7.44)."""
    if target.side == side:
        return "a unit may fire only at enemy units (Firefight 6.0)"
    if target.hex is None:
        return "the target is not on the map"
    data = ff(game)
    if carried(target) and target.id not in extra_targets(game, side):
        return "personnel carried in a vehicle may not be attacked (Firefight 7.44)"
    if target.id in untargetable(game, side):
        return untargetable(game, side)[target.id]
    if mode == "direct" and target.id in data.get("attacked", ()):
        return "the target has already been attacked in this Direct Fire Phase (Firefight 6.13)"
    if mode == "opportunity" and data.get("mover") != target.id:
        return "Opportunity Fire may only attack the moving unit (Firefight 6.4, 7.5)"
    return None


#: ((number of decisions, side), the answers of ``firefight_untargetable``)
UNTARGETABLE = StashKey[tuple[tuple[int, str], dict[str, str]]]("firefight.untargetable")


def invalidate_targets(game: Game) -> None:
    """Forget the cached ``firefight_untargetable`` answers (call after anything that changes
    who may be attacked, e.g. a reveal, Firefight 11.0); the base calls it after every step, attack and
    result."""
    game.stash.pop(UNTARGETABLE)


def _hidden_target(game: Game, side: str, target_id: str) -> bool:
    """Not known to ``side`` at all, or known only under a disguise that also makes it
    untargetable (a face-down counter, Firefight 11.0, 11.21)."""
    if target_id not in game.hooks.visible_units(game, side):
        return True
    return target_id in untargetable(game, side)


def untargetable(game: Game, side: str) -> dict[str, str]:
    """Units ``side`` may not attack now (``firefight_untargetable``), cached until
    :func:`invalidate_targets` or the next decision."""
    cache = game.stash.get(UNTARGETABLE)
    key = (len(game.decisions), side)
    if cache is not None and cache[0] == key:
        return cache[1]
    out = hooks(game).untargetable(side)
    game.stash[UNTARGETABLE] = (key, out)
    return out


def extra_targets(game: Game, side: str) -> set[str]:
    return hooks(game).extra_targets(side)


def terrain_filters(game: Game | None, board: Board, firer_hex: Hex, target: Unit) -> list[str]:
    """Firefight 6.7: terrain colour codes that protect the target: its own hex's Forest or Town, and
    defilade toward this firer (Firefight 5.2)."""
    assert target.hex is not None
    out = []
    t = board.terrain_of.get(target.hex)
    if t in FOREST_TOWN:
        out.append(str(t))
    if in_defilade(game, board, firer_hex, target):
        out.append("defilade")
    return out


def describe_attack(game: Game, firer: Unit, target: Unit, weapon: Weapon, mode: str
                    ) -> dict[str, Any]:
    """The attack dict the hooks receive (hookspecs module docstring)."""
    assert firer.hex is not None and target.hex is not None
    return {
        "firer": firer.id, "firer_side": firer.side, "firer_type": utype(firer).name,
        "target": target.id, "target_type": utype(target).name,
        "target_class": target_class(game, target), "weapon": weapon.line, "line": weapon.line,
        "crt": weapon.crt, "range": firer.hex.distance(target.hex), "mode": mode,
        "phase": game.state.phase, "turn": game.state.turn,
        "filters": terrain_filters(game, game.board, firer.hex, target),
    }


def attack_problem(game: Game, firer: Unit, target: Unit, weapon_line: str | None, mode: str
                   ) -> str | None:
    """Every check of one unit's fire at one target; None when legal."""
    why = firer_problem(game, firer, mode)
    if why:
        return why
    why = target_problem(game, firer.side, target, mode)
    if why:
        return why
    assert firer.hex is not None and target.hex is not None
    if not has_los(game, firer.hex, target.hex):
        return "no line of sight to the target (Firefight 5.0)"
    ws = weapons(game, firer, target)
    if not ws:
        return "the unit has no weapon that can attack this target (Firefight 6.8, 6.9)"
    w = next((x for x in ws if x.line == weapon_line), None) if weapon_line else ws[0]
    if w is None:
        return f"weapon {weapon_line!r} cannot be used on this target (Firefight 6.82, 6.91)"
    used = firer.state.get("target_kind_used")
    kind = "personnel" if w.crt == "anti_personnel" else "vehicle"
    if used and used != kind:
        return "a team may not attack personnel and vehicles in one Game-Turn (Firefight 6.83, 6.91)"
    wu = firer.state.get("weapon_used")
    if wu and wu != w.line and {wu, w.line} <= {"US-Dragon", "US-LAW"}:
        return "a team may not fire both Dragon and LAW in one Game-Turn (Firefight 6.82)"
    facade = hooks(game)
    if facade.fire_restrictions_live:
        reasons = facade.fire_restrictions(describe_attack(game, firer, target, w, mode))
        if reasons:
            return reasons[0]
    return None


def check_attack(game: Game, side: str, firers: Sequence[str], target_id: str,
                 weapons_by_firer: Mapping[str, str] | None, mode: str) -> None:
    """Raise RulesError unless the announced attack is legal (Firefight 6.0, 6.13, 6.3). A target
    the side may not attack by that id whatever fires (no such unit, undrawn, an unseen passenger,
    one disguised and untargetable such as a face-down counter) is refused, before any check of
    the firers, in the words an off-map target gets, so naming ids probes nothing (FFD-44)."""
    if not firers:
        raise RulesError("an attack needs at least one firing unit", rule="Firefight 6.0")
    if len(set(firers)) != len(firers):
        raise RulesError("a unit may fire only once per Game-Turn", rule="Firefight 6.11")
    for fid in firers:
        if fid not in game.state.units or game.state.units[fid].side != side:
            raise RulesError(f"{fid!r} is not a unit of {side}", rule="Firefight 6.0")
    from hexwar.plugins.firefight.knowledge import known_ids
    from hexwar.plugins.firefight.rules.observation import NO_SUCH_TARGET

    if target_id not in game.state.units or (target_id not in known_ids(game, side)
                                              and _hidden_target(game, side, target_id)):
        raise RulesError(f"{firers[0]} may not fire at {target_id}: {strip_rule(NO_SUCH_TARGET)}",
                         rule=rule_of(NO_SUCH_TARGET))
    target = game.state.units[target_id]
    for fid in firers:
        f = game.state.units[fid]
        why = attack_problem(game, f, target, (weapons_by_firer or {}).get(fid), mode)
        if why:
            raise RulesError(f"{fid} may not fire at {target_id}: {strip_rule(why)}",
                             rule=rule_of(why))


# ---------------------------------------------------------------------------------------------
# the numbers of a shot (Firefight 6.0 Steps 3-4, 6.5, 6.7)
# ---------------------------------------------------------------------------------------------


def base_rating(line: str, cls: str, rng: int) -> int | None:
    """Firefight 6.0 Step 3: the Attack Rating on the firing table; None beyond the maximum range."""
    arr = ff_data().fire.get((line, cls))
    if arr is None or rng >= len(arr):
        return None
    return arr[rng]


def crt_result(crt: str, ar: int, roll: int, filters: Iterable[str]) -> tuple[str, str]:
    """Firefight 6.0 Step 4, 6.7: look up the CRT; a cell coloured for one of the target's terrain
    filters is No Effect. Returns (result, table result before the filter). AR <= 0: no effect;
    AR above the last column uses the last column (docs/decisions.md FFD-6)."""
    if ar <= 0:
        return "-", "-"
    d = ff_data()
    ar = min(ar, d.crt_max[crt])
    res, ignored = d.crt[crt][(ar, roll)]
    if res != "-" and ignored & set(filters):
        return "-", res
    return res, res


# ---------------------------------------------------------------------------------------------
# the fire procedure: named steps on a Shot
# ---------------------------------------------------------------------------------------------


@dataclass
class Shot:
    """One unit's fire at one target, as the steps of :data:`FIRE_STEPS` work it out.

    ``firer``/``target`` are unit ids; ``weapon_line`` the line asked for (``None``: the best).
    The steps fill in the weapon, the attack dict the hooks receive, the roll, the Attack Rating
    and the result; :meth:`outcome` is the record of the shot (returned by
    :func:`execute_attack`, logged, passed to ``firefight_attack_done``). A step sets
    ``resolved`` to end the computing part early (beyond range, Firefight 6.14) and ``finished`` to end
    the whole shot (the target is already gone, Firefight 6.31).
    """

    game: Game
    firer: str
    target: str
    mode: str
    weapon_line: str | None = None
    roll: int | None = None
    weapon: Weapon | None = None
    attack: dict[str, Any] = field(default_factory=dict)
    base: int | None = None
    base_source: str = ""
    modifiers: list[Modifier] = field(default_factory=list)
    ar: int | None = None
    filters: set[str] = field(default_factory=set)
    result: str = "-"
    table: str = "-"
    note: str | None = None
    applied: str = ""
    resolved: bool = False
    finished: bool = False
    record: dict[str, Any] | None = None

    def outcome(self) -> dict[str, Any]:
        """The record of the computed shot (the keys of :func:`resolve_attack`)."""
        if self.record is None:
            out: dict[str, Any] = {"roll": self.roll, "base": self.base,
                                   "base_source": self.base_source,
                                   "modifiers": [m.as_dict() for m in self.modifiers],
                                   "filters": []}
            if self.ar is None:
                out.update(ar=None, result=self.result, table=self.table, note=self.note)
            else:
                out.update(ar=self.ar, result=self.result, table=self.table,
                           filters=sorted(self.filters))
            self.record = out
        return self.record


FireStep = Callable[[Shot], None]


def _target_present(shot: Shot) -> None:
    """Firefight 6.31: a firer whose target is already gone counts as having fired."""
    game = shot.game
    if game.state.units[shot.target].hex is None:
        mark_fired(game.state.units[shot.firer], None)
        shot.record = {"firer": shot.firer, "result": "-",
                       "note": "target gone: fire counts Firefight 6.31"}
        shot.finished = True


def _weapon(shot: Shot) -> None:
    """Firefight 6.0 Step 3, 6.8, 6.9: the weapon asked for, else the one with the best rating."""
    units = shot.game.state.units
    shot.weapon = choose_weapon(shot.game, units[shot.firer], units[shot.target], shot.weapon_line)


def _attack(shot: Shot) -> None:
    """The attack dict the fire hooks receive (range (Firefight 6.0 Step 1), terrain filters, Firefight
    6.7)."""
    units = shot.game.state.units
    assert shot.weapon is not None
    shot.attack = describe_attack(shot.game, units[shot.firer], units[shot.target], shot.weapon,
                                  shot.mode)


def _dice(shot: Shot) -> None:
    """Firefight 6.0 Step 4: two dice, unless forced (table-side)."""
    if shot.roll is None:
        game = shot.game
        who = f"{public_ref(game, shot.firer)}->{public_ref(game, shot.target)}"
        shot.roll = game.dice.d6(f"fire {who} die 1") + game.dice.d6(f"fire {who} die 2")


def _base_rating(shot: Shot) -> None:
    """Firefight 6.0 Step 3: the firing table's Attack Rating (``firefight_base_attack_rating``)."""
    att = shot.attack
    shot.base = base_rating(att["line"], att["target_class"], att["range"])
    shot.base_source = "Firefight 6.0: firing table"
    over = hooks(shot.game).base_attack_rating(dict(att), shot.base)
    if over is not None:
        shot.base, shot.base_source = over


def _modifiers(shot: Shot) -> None:
    """Firefight 6.52, 6.53, 6.85, 6.93: a suppressed firer -3; the rules' ``firefight_fire_modifiers``."""
    att = shot.attack
    game = shot.game
    firer = game.state.units.get(att["firer"]) if att.get("firer") else None
    if firer is not None and firer.state.get("S"):
        rule = "Firefight 6.52" if not is_vehicle(firer) else "Firefight 6.53"
        if att["line"] in ("US-Dragon", "SU-RPG7"):
            rule = "Firefight 6.85" if att["line"] == "US-Dragon" else "Firefight 6.93"
        shot.modifiers.append(Modifier("firer suppressed", -3, rule))
    shot.modifiers.extend(hooks(game).fire_modifiers(dict(att)))


def _range(shot: Shot) -> None:
    """Firefight 6.14: fire beyond the weapon's maximum range is wasted."""
    if shot.base is None:
        shot.ar, shot.result, shot.table = None, "-", "-"
        shot.note = "beyond maximum range: wasted Firefight 6.14"
        shot.resolved = True


def _final_rating(shot: Shot) -> None:
    """The Attack Rating: the base plus every modifier (docs/decisions.md FFD-6)."""
    assert shot.base is not None
    shot.ar = int(shot.base + total(shot.modifiers))


def _terrain_filters(shot: Shot) -> None:
    """Firefight 6.7: the target's terrain filters, as the rules change them (all adds, then all
    removes)."""
    adds, removes = hooks(shot.game).terrain_filters(dict(shot.attack))
    shot.filters = (set(shot.attack.get("filters", ())) | adds) - removes


#: the shipped steps between ``range`` and ``crt``: none reads the dice (FFD-50)
_DICE_FREE = frozenset({_range, _final_rating, _terrain_filters})


def _crt(shot: Shot) -> None:
    """Firefight 6.0 Step 4, 6.7: the Combat Results Table."""
    assert shot.ar is not None and shot.roll is not None
    shot.result, shot.table = crt_result(shot.attack["crt"], shot.ar, shot.roll, shot.filters)


def _result_override(shot: Shot) -> None:
    """The weakest result any rule proposes (``firefight_result_override``)."""
    assert shot.roll is not None
    for r in hooks(shot.game).result_override(dict(shot.attack), shot.roll, shot.result):
        if RESULT_ORDER.get(r, 0) < RESULT_ORDER.get(shot.result, 0):
            shot.result = r


def _mark_fired(shot: Shot) -> None:
    """Firefight 6.11: the firer has fired this Game-Turn (and with which kind of weapon, Firefight
    6.82, 6.83)."""
    mark_fired(shot.game.state.units[shot.firer], shot.weapon)


def _apply(shot: Shot) -> None:
    """Firefight 6.5-6.58: the result takes effect on the target."""
    shot.applied = apply_result(shot.game, shot.target, shot.outcome()["result"], shot.mode)


def _report(shot: Shot) -> None:
    """The shot in the log, every number with its case."""
    out = shot.outcome()
    att = shot.attack
    assert shot.weapon is not None
    out.update(firer=shot.firer, target=shot.target, weapon=shot.weapon.line,
               range=att["range"], applied=shot.applied, mode=shot.mode)
    report_about(
        shot.game, "fire", [shot.firer, shot.target], result=out["result"],
        modifiers=[Modifier(m["name"], m["value"], m["rule"]) for m in out["modifiers"]],
        rules=["Firefight 6.0", "Firefight 6.7"], firer=shot.firer, target=shot.target,
        weapon=shot.weapon.line, range=att["range"], roll=shot.roll, ar=out["ar"], base=out["base"],
        applied=shot.applied, filters=out["filters"], mode=shot.mode)


def _attack_done(shot: Shot) -> None:
    """``firefight_attack_done``: the rules see the resolved shot."""
    hooks(shot.game).attack_done(shot.attack, shot.outcome())


#: the fire procedure of one unit at one target, in order
FIRE_STEPS: tuple[tuple[str, FireStep], ...] = (
    ("target", _target_present),
    ("weapon", _weapon),
    ("attack", _attack),
    ("dice", _dice),
    ("base_rating", _base_rating),
    ("modifiers", _modifiers),
    ("range", _range),
    ("final_rating", _final_rating),
    ("terrain_filters", _terrain_filters),
    ("crt", _crt),
    ("result_override", _result_override),
    ("mark_fired", _mark_fired),
    ("apply", _apply),
    ("report", _report),
    ("attack_done", _attack_done),
)
#: the game's fire procedure, with the enabled rules' edits
FIRE_PIPELINE = StashKey[tuple[Pipeline[FireStep], int, int, int]]("firefight.fire_pipeline")


def fire_pipeline(game: Game) -> tuple[Pipeline[FireStep], int, int, int]:
    """The fire procedure with the rules' edits (``firefight_fire_steps``), and the positions
    of ``base_rating``, ``range`` and ``result_override`` in it (built once per game)."""
    cached = game.stash.get(FIRE_PIPELINE)
    if cached is not None:
        return cached
    pipeline = Pipeline(FIRE_STEPS, hooks(game).fire_steps(), what="Firefight fire step")
    names = pipeline.names
    for anchor in ("base_rating", "range", "result_override"):
        if anchor not in names:
            raise PluginError(f"a rule removed the fire step {anchor!r}: it may be replaced, "
                              "not removed")
    built = (pipeline, names.index("base_rating"), names.index("range"),
             names.index("result_override"))
    game.stash[FIRE_PIPELINE] = built
    return built


def _run(steps: Iterable[FireStep], shot: Shot) -> None:
    for step in steps:
        step(shot)
        if shot.resolved or shot.finished:
            return


def _shot_of(game: Game, attack: Mapping[str, Any], roll: int | None) -> Shot:
    shot = Shot(game, str(attack.get("firer")), str(attack.get("target")),
                str(attack.get("mode", "")), roll=roll)
    shot.attack = dict(attack)
    return shot


def attack_rating(game: Game, attack: Mapping[str, Any]) -> tuple[int | None, str, list[Modifier]]:
    """Base AR (and its source) plus every modifier with its case number (Firefight 6.0
    Step 3, 6.52, 6.53, 6.85, 6.93); optional rules add theirs through ``firefight_fire_modifiers``. (The fire
    steps from ``base_rating`` up to ``range``.)"""
    pipeline, start, rng, _ = fire_pipeline(game)
    shot = _shot_of(game, attack, None)
    _run(pipeline.steps[start:rng], shot)
    return shot.base, shot.base_source, shot.modifiers


def resolve_attack(game: Game, attack: dict[str, Any], roll: int) -> dict[str, Any]:
    """Compute one unit's fire (no state change): AR, modifiers, result. (The fire steps from
    ``base_rating`` to ``result_override``.)"""
    pipeline, start, _, end = fire_pipeline(game)
    shot = _shot_of(game, attack, roll)
    _run(pipeline.steps[start:end + 1], shot)
    return shot.outcome()


def resolve_attack_rolls(game: Game, attack: dict[str, Any],
                         rolls: Iterable[int]) -> dict[int, dict[str, Any]]:
    """:func:`resolve_attack` for each of ``rolls``, with the Attack Rating's steps (``base_rating``
    up to ``range``) run once: they never read the dice (:func:`attack_rating` runs them without
    a roll; docs/decisions.md FFD-50), and when the steps from ``range`` to ``crt`` are the
    shipped ones, which read no dice either, those too. What an AI weighs before it fires."""
    pipeline, start, rng, end = fire_pipeline(game)
    steps = pipeline.steps
    shared = rng
    crt = pipeline.names.index("crt") if "crt" in pipeline.names else -1
    if rng <= crt <= end and all(step in _DICE_FREE for step in steps[rng:crt]):
        shared = crt
    base = _shot_of(game, attack, None)
    _run(steps[start:shared], base)
    rest = steps[shared:end + 1]
    out: dict[int, dict[str, Any]] = {}
    for roll in rolls:
        shot = object.__new__(Shot)  # a copy of the shared part (copy.copy is slower)
        d = shot.__dict__
        d.update(base.__dict__)
        d.update(roll=roll, record=None, attack=dict(base.attack),
                 modifiers=list(base.modifiers), filters=set(base.filters))
        if not (base.resolved or base.finished):
            _run(rest, shot)
        out[roll] = shot.outcome()
    return out


def attack_roll_results(game: Game, attack: dict[str, Any],
                        rolls: Iterable[int]) -> dict[int, str]:
    """The result alone of :func:`resolve_attack` for each of ``rolls`` (what the AI weighs, FFD-52):
    the Attack Rating's steps run once as in :func:`resolve_attack_rolls`, and when the steps from
    there to ``result_override`` are the shipped CRT and override, each roll is one CRT look-up
    (and the rules' overrides, when any rule proposes one) with no shot or record built."""
    pipeline, start, rng, end = fire_pipeline(game)
    steps = pipeline.steps
    crt = pipeline.names.index("crt") if "crt" in pipeline.names else -1
    if not (rng <= crt <= end and all(step in _DICE_FREE for step in steps[rng:crt])
            and list(steps[crt:end + 1]) == [_crt, _result_override]):
        return {roll: str(shot["result"])
                for roll, shot in resolve_attack_rolls(game, attack, rolls).items()}
    base = _shot_of(game, attack, None)
    _run(steps[start:crt], base)
    if base.resolved or base.finished:  # what a copy of the shared shot would record
        return {roll: str(base.result) for roll in rolls}
    assert base.ar is not None
    table, ar, filters = base.attack["crt"], base.ar, base.filters
    facade = hooks(game)
    overrides = facade.hook.firefight_result_override in facade.live
    out: dict[int, str] = {}
    for roll in rolls:
        result = crt_result(table, ar, roll, filters)[0]
        if overrides:  # as _result_override: the weakest result any rule proposes
            for r in facade.result_override(dict(base.attack), roll, result):
                if RESULT_ORDER.get(r, 0) < RESULT_ORDER.get(result, 0):
                    result = r
        out[roll] = str(result)
    return out


def execute_attack(game: Game, side: str, firers: Sequence[str], target_id: str,
                   weapons_by_firer: Mapping[str, str] | None, mode: str,
                   rolls: Sequence[int] | None = None) -> list[dict[str, Any]]:
    """Resolve an announced attack, unit by unit in the order given (Firefight 6.0, 6.3, 6.31).

    Checks everything first (RulesError, state unchanged); then every firer counts as having
    fired even when the target is already gone (Firefight 6.31). ``rolls`` forces the dice (table-side).
    Each firer's fire runs the whole fire procedure (:func:`fire_pipeline`).
    """
    check_attack(game, side, firers, target_id, weapons_by_firer, mode)
    if mode == "direct":
        ff(game).setdefault("attacked", []).append(target_id)  # Firefight 6.13
    pipeline, _, _, end = fire_pipeline(game)
    steps = pipeline.steps
    outcomes: list[dict[str, Any]] = []
    for i, fid in enumerate(firers):
        shot = Shot(game, fid, target_id, mode, (weapons_by_firer or {}).get(fid),
                    roll=int(rolls[i]) if rolls is not None and i < len(rolls) else None)
        _run(steps[:end + 1], shot)
        if not shot.finished:
            shot.resolved = False
            _run(steps[end + 1:], shot)
        outcomes.append(shot.outcome())
        if not shot.finished:
            invalidate_targets(game)
    return outcomes


# ---------------------------------------------------------------------------------------------
# results (Firefight 6.5-6.58, 7.44, 8.65)
# ---------------------------------------------------------------------------------------------


def apply_result(game: Game, unit_id: str, result: str, source: str) -> str:
    """Apply a combat result (Firefight 6.5-6.58, 7.44, 8.65); returns what happened."""
    u = game.state.units[unit_id]
    if u.hex is None or result == "-":
        return "no effect"
    invalidate_targets(game)
    veh = is_vehicle(u)
    happened = result
    if result == "Kms":  # Firefight 8.65
        if not veh:
            happened = destroy(game, u, "Kms: dismounted personnel killed Firefight 8.65")
        else:
            apply_result(game, unit_id, "S", source)
            if utype(u).missile:
                u.state["Kms"] = True
                happened = "S and missile armament destroyed Firefight 8.65"
            else:
                happened = "S (missiles immune) Firefight 8.65"
    elif result == "S":
        if not veh and u.state.get("S"):
            happened = destroy(game, u, "second S on suppressed personnel Firefight 6.57")
        else:
            u.state["S"] = True
            happened = "S" + (" (no further effect Firefight 6.57)" if veh and u.state.get("S") else "")
    elif result in ("Kf", "Km"):
        if not veh:
            happened = "no effect (Kf/Km apply only to vehicles Firefight 6.5)"
        elif u.state.get("Kf") or u.state.get("Km"):
            happened = destroy(game, u, "second Kf/Km Firefight 6.58")
        else:
            u.state[result] = True
    elif result == "K":
        happened = destroy(game, u, "K Firefight 6.55")
    hooks(game).result_applied(unit_id, result, source)
    return happened


def destroy(game: Game, u: Unit, why: str) -> str:
    """Remove a unit; a destroyed vehicle's passengers die with it (Firefight 6.55, 7.44)."""
    for pid in list(u.state.get("passengers", [])):
        p = game.state.units[pid]
        p.hex = None
        p.state["destroyed"] = game.state.turn
    carrier = u.state.pop("carrier", None)
    if carrier is not None:  # a passenger killed on its own (Firefight 16.21 exposed): it leaves the
        pax = game.state.units[str(carrier)].state.get("passengers", [])  # vehicle (Firefight 7.44)
        if u.id in pax:
            pax.remove(u.id)
    u.hex = None
    u.state["destroyed"] = game.state.turn
    return f"destroyed ({why})"


# ---------------------------------------------------------------------------------------------
# the choices of a side: candidate attacks and one attack or pass (Firefight 6.0, 6.3, 7.5)
# ---------------------------------------------------------------------------------------------


def _rated(game: Game, firer: Unit, target: Unit, w: Weapon, rng: int, mode: str) -> bool:
    """The weapon has an Attack Rating at this range: on the table, or from an optional rule's
    ``firefight_base_attack_rating`` (small arms vs vehicles, Firefight 24.0)."""
    if base_rating(w.line, target_class(game, target), rng) is not None:
        return True
    facade = hooks(game)
    if not facade.base_attack_rating_live:
        return False
    over = facade.base_attack_rating(describe_attack(game, firer, target, w, mode), None)
    return over is not None and over[0] is not None


def candidate_attacks(game: Game, side: str, mode: str, target_ids: Iterable[str] | None = None
                      ) -> list[dict[str, Any]]:
    """Every legal single-unit attack (firer, target, weapon) for ``side`` now, in range."""
    out: list[dict[str, Any]] = []
    units = game.state.units
    if target_ids is None:
        targets = [u for u in units.values() if u.side != side and u.hex is not None]
    else:
        targets = [units[t] for t in target_ids if t in units]
    firers = [u for u in game.state.units_of(side) if u.hex is not None]
    firers = [f for f in firers if firer_problem(game, f, mode) is None]
    for t in targets:
        if target_problem(game, side, t, mode) is not None:
            continue
        assert t.hex is not None
        for f in firers:
            assert f.hex is not None
            rng = f.hex.distance(t.hex)
            ws = [w for w in weapons(game, f, t) if _rated(game, f, t, w, rng, mode)]
            if not ws or not has_los(game, f.hex, t.hex):
                continue
            for w in ws:
                if attack_problem(game, f, t, w.line, mode) is None:
                    out.append({"firers": [f.id], "target": t.id, "weapons": {f.id: w.line}})
    return out


def _attack_validator(game: Game, side: str, mode: str) -> Any:
    def validate(choice: Any) -> str | None:
        if choice == "pass":
            return None
        shape = "an attack is {'firers': [...], 'target': id, 'weapons': {id: line}} or 'pass'"
        if not isinstance(choice, Mapping) or "target" not in choice:
            return shape
        extra = sorted(str(k) for k in choice if k not in ("firers", "target", "weapons"))
        if extra:
            return f"unknown field(s) {', '.join(extra)[:60]}: {shape}"
        firers, target = choice.get("firers", []), choice["target"]
        weapons = choice.get("weapons", {})
        if not (isinstance(firers, list) and all(isinstance(f, str) for f in firers)):
            return f"'firers' is a list of unit ids: {shape}"
        if not isinstance(target, str):
            return f"'target' is a unit id: {shape}"
        if not (isinstance(weapons, Mapping)
                and all(isinstance(k, str) and isinstance(v, str) for k, v in weapons.items())):
            return f"'weapons' is a table of unit id: weapon line: {shape}"
        try:
            check_attack(game, side, list(choice.get("firers", [])), str(choice["target"]),
                         dict(choice.get("weapons") or {}), mode)
        except RulesError as exc:
            return str(exc)
        return None

    return validate


def phase_actions(game: Game, side: str) -> list[dict[str, Any]]:
    """The rules' extra actions for ``side`` in this phase (``firefight_phase_actions``)."""
    return hooks(game).phase_actions(side, game.state.phase)


def attack_step(game: Game, side: str, mode: str, target_ids: Sequence[str] | None = None,
                *, actions: bool = False) -> Step:
    """Ask ``side`` for one attack (or pass) and resolve it (Firefight 6.0, 6.3); returns True if the side
    attacked (or ran a phase action). Used for Direct Fire, Opportunity Fire and by the optional
    rules (overwatch, Firefight 15)."""
    options: list[Any] = ["pass", *candidate_attacks(game, side, mode, target_ids)]
    extra = phase_actions(game, side) if actions else []
    options.extend(extra)
    if len(options) == 1:
        return False
    validate = _attack_validator(game, side, mode)
    choice = yield Decision(side, f"firefight.{mode}_fire", options=options, validate=validate,
                            context={"mode": mode, "targets": list(target_ids or [])},
                            prompt=f"{side}: attack or pass", rule="Firefight 6.0")
    if choice == "pass":
        return False
    facade = hooks(game)
    if isinstance(choice, Mapping) and "action" in choice:
        step = facade.run_action(side, dict(choice))
        if step is not None:
            yield from step
        return True
    outcomes = execute_attack(game, side, list(choice["firers"]), str(choice["target"]),
                              dict(choice.get("weapons") or {}), mode)
    if game.state.phase == "firefight.movement":
        for out in outcomes:
            att = {"firer": out.get("firer"), "target": choice["target"], "mode": mode,
                   "firer_side": side}
            for st in facade.reactions(att, out):
                yield from st
    return True
