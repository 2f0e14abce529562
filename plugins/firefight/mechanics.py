"""Firefight I rules as pure functions over a game: LOS [5], direct fire [6], movement [7].

"Pure" means: they compute from the game's board and state and never change it, except the
functions named ``apply_*``/``execute_*``, which change it only after every check passed. Each
check that fails raises :class:`~hexwar.core.errors.RulesError` with the case number, and the
game state is then unchanged. The phases (phases.py), the AI (ai.py) and the table-side command
(cli.py) all call these same functions.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from hexwar.core.errors import RulesError
from hexwar.core.hexgrid import Hex
from hexwar.core.los import (
    BaseLosRules,
    HexsideHow,
    HexsidePolicy,
    LosContext,
    LosEffect,
    VertexPolicy,
    line_of_sight,
)
from hexwar.core.types import Modifier, total
from hexwar.plugins.firefight.ffdata import UnitData, ff_data

if TYPE_CHECKING:
    from hexwar.core.board import Board
    from hexwar.core.engine.game import Game
    from hexwar.core.engine.state import Unit
    from hexwar.plugins.firefight.hookspecs import LosLayer

SYSTEM = "firefight"
#: missile lines that a Kms result destroys [8.65]
MISSILE_LINES = frozenset({"SU-Sagger", "US-TOW", "US-M60A2-missile"})
RESULT_ORDER = {"-": 0, "S": 1, "Kf": 2, "Km": 2, "K": 3}
FOREST_TOWN = frozenset({"forest", "town"})


# ---------------------------------------------------------------------------------------------
# state helpers
# ---------------------------------------------------------------------------------------------


def _hook(game: Game | None, name: str) -> Any:
    """The hook caller ``name`` if some enabled plugin implements it, else None (cached per game,
    so the hot paths skip hooks nobody implements)."""
    if game is None:
        return None
    cache: dict[str, Any] = game.__dict__.setdefault("_ff_hooks", {})
    if name not in cache:
        h = getattr(game.pm.hook, name, None)
        cache[name] = h if h is not None and h.get_hookimpls() else None
    return cache[name]


def public_ref(game: Game, unit_id: str) -> str:
    """The name sides other than the owner see for a unit (hook ``firefight_public_ref``)."""
    hk = _hook(game, "firefight_public_ref")
    if hk is None:
        return unit_id
    alias = hk(game=game, unit_id=unit_id)
    return unit_id if alias is None else str(alias)


def _swap(value: Any, table: Mapping[str, str]) -> Any:
    if isinstance(value, str):
        return table.get(value, value)
    if isinstance(value, list | tuple):
        return [_swap(v, table) for v in value]
    if isinstance(value, dict):
        return {table.get(k, k) if isinstance(k, str) else k: _swap(v, table)
                for k, v in value.items()}
    return value


def _views(game: Game, unit_ids: Iterable[str]) -> list[tuple[tuple[str, ...] | None,
                                                                 dict[str, str]]]:
    """(visible_to, id -> shown name) per reader: one entry for everyone when nobody is
    disguised, else one per side (the owner sees the real id)."""
    aliases = {}
    for uid in unit_ids:
        if uid in game.state.units:
            shown = public_ref(game, uid)
            if shown != uid:
                aliases[uid] = shown
    if not aliases:
        return [(None, {})]
    out: list[tuple[tuple[str, ...] | None, dict[str, str]]] = []
    for side in game.state.sides:
        out.append(((side,), {u: a for u, a in aliases.items()
                              if game.state.units[u].side != side}))
    return out


def emit_about(game: Game, type: str, unit_ids: Iterable[str], **payload: Any) -> None:
    """``game.emit`` for an event naming units: disguised units are shown by their public name
    to the other side ([11, 12] via ``firefight_public_ref``)."""
    for visible, table in _views(game, list(unit_ids)):
        game.emit(type, visible_to=visible, **_swap(payload, table))


def report_about(game: Game, what: str, unit_ids: Iterable[str], *, result: Any,
                 modifiers: Iterable[Modifier] = (), rules: Iterable[str] = (),
                 **payload: Any) -> None:
    """``game.report`` with the disguise of :func:`emit_about`."""
    mods = list(modifiers)
    for visible, table in _views(game, list(unit_ids)):
        game.report(what, result=result, modifiers=mods, rules=rules, visible_to=visible,
                    **_swap(payload, table))


def ff(game: Game) -> dict[str, Any]:
    """Firefight's game-wide state (``game.state.data["firefight"]``)."""
    data: dict[str, Any] = game.state.data.setdefault("firefight", {})
    return data


def utype(unit: Unit) -> UnitData:
    return ff_data().units[unit.type.split(":", 1)[1]]


def side_code(unit_type: str) -> str:
    return unit_type.split(":", 1)[1].split("-", 1)[0]


def target_class(game: Game | None, unit: Unit) -> str:
    """[6.0 Step 2] personnel / apc / tank; Scn 3 treats the jeep TOW as personnel."""
    cls = utype(unit).cls
    if game is not None:
        special = game.scenario.raw.get("special", {})
        if unit.type.split(":", 1)[1] in special.get("target_as_personnel", ()):
            return "personnel"
    return cls


def is_vehicle(unit: Unit) -> bool:
    return utype(unit).is_vehicle


def on_board(unit: Unit) -> bool:
    return unit.hex is not None


def label(game: Game, h: Hex) -> str:
    return game.board.label(h)


def hexof(game: Game, where: str | Hex) -> Hex:
    if isinstance(where, Hex):
        return where
    try:
        return game.board.parse(where)
    except ValueError as exc:
        raise RulesError(str(exc), rule="[5.0]") from None


def enemy_of(side: str) -> str:
    return "SU" if side == "US" else "US"


def units_at(game: Game, h: Hex) -> list[Unit]:
    return [u for u in game.state.units.values() if u.hex == h]


def carried(unit: Unit) -> bool:
    return bool(unit.state.get("carrier"))


# ---------------------------------------------------------------------------------------------
# terrain, LOS [5.0-5.21]
# ---------------------------------------------------------------------------------------------


def defilade_sides(board: Board, h: Hex) -> tuple[int, ...]:
    """Directions of the defilade hexsides of position ``h`` [5.2] (features ``defilade:<d>``)."""
    return tuple(int(f.split(":", 1)[1]) for f in board.features_of.get(h, ())
                 if f.startswith("defilade:"))


def _is_position_toward(board: Board, p: Hex, q: Hex) -> bool:
    d = p.direction_to(q)
    return d is not None and d in defilade_sides(board, p)


class FirefightLos(BaseLosRules):
    """Firefight I line of sight [5.0-5.21] as a core.los LosRules.

    * Forest and Town hexes between the units block, whatever part of the hex the line touches
      [5.1, 5.12] (``hexside_policy = "either"``, ``vertex_policy = "touch"``: design 9.3 #2);
      the end hexes never matter [5.11]; units never block [6.2]; roads, streams and contours do
      nothing [5.1, CL 5.1].
    * A defilade position between the units blocks when the line crosses (or runs along, [5.2]
      example D) its defilade hexside [5.2, 5.21]. When the hexside is two-sided and one side is
      an end hex, it does not block ([5.2] example B note; digest 5.2).
    * Optional rules add :class:`LosLayer` objects and options (hookspecs).
    """

    include_endpoints = False
    hexside_policy: HexsidePolicy = "either"
    vertex_policy: VertexPolicy = "touch"

    def __init__(self, layers: Sequence[LosLayer] = (), options: Mapping[str, Any] | None = None
                 ) -> None:
        opts = dict(options or {})
        self.defilade_blocks = bool(opts.get("defilade_blocks", True))
        self.forest_town_block = bool(opts.get("forest_town_block", True))
        self.max_range: int | None = opts.get("max_range")
        self.layers = tuple(sorted(layers, key=lambda x: x.name))
        #: hexsides that block fire (Addenda "impassable hexsides")
        self.blocking_sides: frozenset[frozenset[Hex]] = frozenset(
            opts.get("blocking_sides", frozenset()))

    def hex_effect(self, board: Board, h: Hex, ctx: LosContext) -> LosEffect | None:
        if self.forest_town_block and board.terrain_of.get(h) in FOREST_TOWN:
            return LosEffect("block", 0, f"{board.terrain_of[h]} hex between", "Firefight [5.1]")
        for layer in self.layers:
            e = layer.hex_effect(board, h, ctx)
            if e is not None:
                return e
        return None

    def hexside_effect(self, board: Board, a: Hex, b: Hex, how: HexsideHow, ctx: LosContext
                       ) -> LosEffect | None:
        if self.blocking_sides and how != "vertex" and frozenset((a, b)) in self.blocking_sides:
            return LosEffect("block", 0, "impassable hexside blocks fire", "Firefight Addenda")
        if self.defilade_blocks and how != "vertex":
            ends = (ctx.a, ctx.b)
            pa, pb = _is_position_toward(board, a, b), _is_position_toward(board, b, a)
            two_sided_end = pa and pb and (a in ends or b in ends)
            if not two_sided_end and ((pa and a not in ends) or (pb and b not in ends)):
                return LosEffect("block", 0, "defilade hexside of a position between",
                                 "Firefight [5.2]" if how == "cross" else "Firefight [5.2] D")
        for layer in self.layers:
            e = layer.hexside_effect(board, a, b, how, ctx)
            if e is not None:
                return e
        return None


def los_rules(game: Game | None) -> FirefightLos:
    """The game's LOS rules with the enabled optional rules' layers (cached per game)."""
    if game is None:
        return FirefightLos()
    cached = getattr(game, "_ff_los_rules", None)
    if isinstance(cached, FirefightLos):
        return cached
    layers: list[LosLayer] = []
    opts: dict[str, Any] = {}
    if _hook(game, "firefight_los_layers") is not None:
        for res in _hook(game, "firefight_los_layers")(game=game):
            layers.extend(res or ())
    if _hook(game, "firefight_los_options") is not None:
        for res in _hook(game, "firefight_los_options")(game=game):
            for k, v in dict(res or {}).items():
                if k in opts and opts[k] != v:
                    raise RulesError(f"two rules disagree on LOS option {k!r}")
                opts[k] = v
    opts["blocking_sides"] = addenda(game)["impassable"]
    rules = FirefightLos(layers, opts)
    game._ff_los_rules = rules  # type: ignore[attr-defined]
    return rules


def has_los(game: Game, a: Hex, b: Hex) -> bool:
    """Line of sight between two hexes [5.0] (cached per game and LOS epoch)."""
    if a == b:
        return True
    data = ff(game)
    epoch = data.get("los_epoch", 0)
    cache: dict[tuple[Hex, Hex], bool] | None = getattr(game, "_ff_los_cache", None)
    if cache is None or getattr(game, "_ff_los_epoch", None) != epoch:
        cache = {}
        game._ff_los_cache = cache  # type: ignore[attr-defined]
        game._ff_los_epoch = epoch  # type: ignore[attr-defined]
    key = (a, b) if (a.q, a.r) <= (b.q, b.r) else (b, a)
    hit = cache.get(key)
    if hit is None:
        rules = los_rules(game)
        if rules.max_range is not None and a.distance(b) > rules.max_range:
            hit = False
        else:
            hit = line_of_sight(game.board, key[0], key[1], rules, game).clear
        cache[key] = hit
    return hit


def los_board(board: Board, a: Hex, b: Hex, rules: FirefightLos | None = None) -> bool:
    """LOS on a bare board (tests, table-side use)."""
    return a == b or line_of_sight(board, a, b, rules or FirefightLos()).clear


def in_defilade_geom(board: Board, firer_hex: Hex, target_hex: Hex) -> bool:
    """[5.2] the target's hex is a defilade position and the fire enters it through its defilade
    hexside (through a corner: either hexside counts, design 9.3 #3)."""
    sides = defilade_sides(board, target_hex)
    if not sides or firer_hex == target_hex:
        return False
    from hexwar.core.hexgrid import trace

    entry = trace(firer_hex, target_hex).entry_hexsides()
    return any(d in sides for d in entry)


def in_defilade(game: Game | None, board: Board, firer_hex: Hex, target: Unit) -> bool:
    assert target.hex is not None
    base = in_defilade_geom(board, firer_hex, target.hex)
    if _hook(game, "firefight_target_in_defilade") is not None:
        over = _hook(game, "firefight_target_in_defilade")(
            game=game, firer_hex=firer_hex, target_id=target.id, base=base)
        if over is not None:
            return bool(over)
    return base


def terrain_filters(game: Game | None, board: Board, firer_hex: Hex, target: Unit) -> list[str]:
    """[6.7] terrain colour codes that protect the target: its own hex's Forest or Town, and
    defilade toward this firer [5.2]."""
    assert target.hex is not None
    out = []
    t = board.terrain_of.get(target.hex)
    if t in FOREST_TOWN:
        out.append(str(t))
    if in_defilade(game, board, firer_hex, target):
        out.append("defilade")
    return out


# ---------------------------------------------------------------------------------------------
# direct fire [6.0-6.9]
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Weapon:
    """A way a firer may attack a target: the fire-table line and the CRT [6.0 Steps 3-4]."""

    line: str
    crt: str
    kind: str  # "small" (anti-personnel weapons) or "at" (LAW, Dragon, RPG-7, guns vs vehicles)
    rule: str = "[6.0]"


def weapons(game: Game | None, firer: Unit, target: Unit) -> list[Weapon]:
    """The weapons ``firer`` may use against ``target`` [3.3, 6.8, 6.82, 6.9, 6.91, 8.65]."""
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
                lines.append("US-Dragon")  # [6.82]
            elif special == "rpg7":
                lines.append("SU-RPG7")  # [6.91]
        for ln in lines:
            if (ln, cls) in fire:
                out.append(Weapon(ln, crt, "small" if cls == "personnel" else "at"))
    else:
        for ln in ud.weapons:
            if ln in MISSILE_LINES and firer.state.get("Kms") and ud.missile:
                continue  # [8.65] missile armament destroyed
            if (ln, cls) in fire:
                out.append(Weapon(ln, crt, "small" if cls == "personnel" else "at"))
    if _hook(game, "firefight_weapon_options") is not None:
        for res in _hook(game, "firefight_weapon_options")(
                game=game, firer_id=firer.id, target_id=target.id, mode="any"):
            for w in res or ():
                out.append(Weapon(str(w["line"]), str(w["crt"]), str(w.get("kind", "small")),
                                  str(w.get("rule", ""))))
    return out


def exemptions(game: Game, firer: Unit, mode: str) -> set[str]:
    out: set[str] = set()
    if _hook(game, "firefight_fire_exemptions") is not None:
        for res in _hook(game, "firefight_fire_exemptions")(game=game, firer_id=firer.id, mode=mode):
            out.update(res or ())
    return out


def firer_problem(game: Game, firer: Unit, mode: str, exempt: set[str] | None = None
                  ) -> str | None:
    """Why ``firer`` may not fire now, with the case number, or None [6.11, 6.54, 7.42]."""
    ex = exemptions(game, firer, mode) if exempt is None else exempt
    if firer.hex is None:
        return "the unit is not on the map"
    if firer.state.get("fired") and "fired" not in ex:
        return "the unit has already fired this Game-Turn [6.11]"
    if firer.state.get("moved") and "moved" not in ex:
        return "the unit has moved this Game-Turn [6.11, 4.1]"
    if firer.state.get("acted"):
        return "the unit is mounting or dismounting this Game-Turn [7.42]"
    if carried(firer) and "passenger" not in ex:
        return "a mounted unit may not fire [7.4]"
    if firer.state.get("Kf"):
        return "a Kf vehicle cannot fire [6.54]"
    if not utype(firer).weapons and not utype(firer).at_weapons:
        return "the unit has no armament [3.3]"
    return None


def target_problem(game: Game, side: str, target: Unit, mode: str) -> str | None:
    """Why ``side`` may not attack ``target`` in this mode, or None [6.0, 6.13, 6.4, 7.44]."""
    if target.side == side:
        return "a unit may fire only at enemy units [6.0]"
    if target.hex is None:
        return "the target is not on the map"
    data = ff(game)
    if carried(target) and target.id not in extra_targets(game, side):
        return "personnel carried in a vehicle may not be attacked [7.44]"
    if target.id in untargetable(game, side):
        return untargetable(game, side)[target.id]
    if mode == "direct" and target.id in data.get("attacked", ()):
        return "the target has already been attacked in this Direct Fire Phase [6.13]"
    if mode == "opportunity" and data.get("mover") != target.id:
        return "Opportunity Fire may only attack the moving unit [6.4, 7.5]"
    return None


def invalidate_targets(game: Game) -> None:
    """Forget the cached ``firefight_untargetable`` answers (call after anything that changes
    who may be attacked, e.g. a reveal [11.0]); the base calls it after every step, attack and
    result."""
    game.__dict__.pop("_ff_untarget", None)


def untargetable(game: Game, side: str) -> dict[str, str]:
    """Units ``side`` may not attack now (``firefight_untargetable``), cached until
    :func:`invalidate_targets` or the next decision."""
    cache = getattr(game, "_ff_untarget", None)
    key = (len(game.decisions), side)
    if cache is not None and cache[0] == key:
        return cache[1]  # type: ignore[no-any-return]
    out: dict[str, str] = {}
    if _hook(game, "firefight_untargetable") is not None:
        for res in _hook(game, "firefight_untargetable")(game=game, side=side):
            out.update(dict(res or {}))
    game._ff_untarget = (key, out)  # type: ignore[attr-defined]
    return out


def extra_targets(game: Game, side: str) -> set[str]:
    out: set[str] = set()
    if _hook(game, "firefight_extra_targets") is not None:
        for res in _hook(game, "firefight_extra_targets")(game=game, side=side):
            out.update(res or ())
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
        return "no line of sight to the target [5.0]"
    ws = weapons(game, firer, target)
    if not ws:
        return "the unit has no weapon that can attack this target [6.8, 6.9]"
    w = next((x for x in ws if x.line == weapon_line), None) if weapon_line else ws[0]
    if w is None:
        return f"weapon {weapon_line!r} cannot be used on this target [6.82, 6.91]"
    used = firer.state.get("target_kind_used")
    kind = "personnel" if w.crt == "anti_personnel" else "vehicle"
    if used and used != kind:
        return "a team may not attack personnel and vehicles in one Game-Turn [6.83, 6.91]"
    wu = firer.state.get("weapon_used")
    if wu and wu != w.line and {wu, w.line} <= {"US-Dragon", "US-LAW"}:
        return "a team may not fire both Dragon and LAW in one Game-Turn [6.82]"
    if _hook(game, "firefight_fire_restrictions") is not None:
        att = describe_attack(game, firer, target, w, mode)
        for res in _hook(game, "firefight_fire_restrictions")(game=game, attack=att):
            if res:
                return str(res[0])
    return None


def choose_weapon(game: Game, firer: Unit, target: Unit, weapon_line: str | None) -> Weapon:
    ws = weapons(game, firer, target)
    if weapon_line:
        for w in ws:
            if w.line == weapon_line:
                return w
        raise RulesError(f"{firer.id} cannot use {weapon_line} on {target.id}", rule="[6.82]")
    if not ws:
        raise RulesError(f"{firer.id} has no weapon against {target.id}", rule="[6.8]")
    assert firer.hex is not None and target.hex is not None
    rng = firer.hex.distance(target.hex)
    cls = target_class(game, target)
    return max(ws, key=lambda w: base_rating(w.line, cls, rng) or -99)


def base_rating(line: str, cls: str, rng: int) -> int | None:
    """[6.0 Step 3] the Attack Rating on the firing table; None beyond the maximum range."""
    arr = ff_data().fire.get((line, cls))
    if arr is None or rng >= len(arr):
        return None
    return arr[rng]


def attack_rating(game: Game, attack: Mapping[str, Any]) -> tuple[int | None, str, list[Modifier]]:
    """Base AR (and its source) plus every modifier with its case number [6.0 Step 3, 6.52,
    6.53, 6.85, 6.93]; optional rules add theirs through ``firefight_fire_modifiers``."""
    base = base_rating(attack["line"], attack["target_class"], attack["range"])
    src = "[6.0] firing table"
    if _hook(game, "firefight_base_attack_rating") is not None:
        over = _hook(game, "firefight_base_attack_rating")(game=game, attack=dict(attack), base=base)
        if over is not None:
            base, src = over[0], str(over[1])
    mods: list[Modifier] = []
    firer = game.state.units.get(attack["firer"]) if attack.get("firer") else None
    if firer is not None and firer.state.get("S"):
        rule = "[6.52]" if not is_vehicle(firer) else "[6.53]"
        if attack["line"] in ("US-Dragon", "SU-RPG7"):
            rule = "[6.85]" if attack["line"] == "US-Dragon" else "[6.93]"
        mods.append(Modifier("firer suppressed", -3, rule))
    if _hook(game, "firefight_fire_modifiers") is not None:
        for res in _hook(game, "firefight_fire_modifiers")(game=game, attack=dict(attack)):
            mods.extend(res or ())
    return base, src, mods


def crt_result(crt: str, ar: int, roll: int, filters: Iterable[str]) -> tuple[str, str]:
    """[6.0 Step 4, 6.7] look up the CRT; a cell coloured for one of the target's terrain
    filters is No Effect. Returns (result, table result before the filter). AR <= 0: no effect;
    AR above the last column uses the last column (design 9.3 #10)."""
    if ar <= 0:
        return "-", "-"
    d = ff_data()
    ar = min(ar, d.crt_max[crt])
    res, ignored = d.crt[crt][(ar, roll)]
    if res != "-" and ignored & set(filters):
        return "-", res
    return res, res


def resolve_attack(game: Game, attack: dict[str, Any], roll: int) -> dict[str, Any]:
    """Compute one unit's fire (no state change): AR, modifiers, result."""
    base, src, mods = attack_rating(game, attack)
    out: dict[str, Any] = {"roll": roll, "base": base, "base_source": src,
                           "modifiers": [m.as_dict() for m in mods], "filters": []}
    if base is None:
        out.update(ar=None, result="-", table="-", note="beyond maximum range: wasted [6.14]")
        return out
    ar = int(base + total(mods))
    filters = set(attack.get("filters", ()))
    if _hook(game, "firefight_terrain_filters") is not None:
        adds: set[str] = set()
        removes: set[str] = set()
        for res in _hook(game, "firefight_terrain_filters")(game=game, attack=dict(attack)):
            adds.update((res or {}).get("add", ()))
            removes.update((res or {}).get("remove", ()))
        filters = (filters | adds) - removes
    res, table = crt_result(attack["crt"], ar, roll, filters)
    if _hook(game, "firefight_result_override") is not None:
        for over in _hook(game, "firefight_result_override")(game=game, attack=dict(attack), roll=roll,
                                                   result=res):
            for r in over or ():
                if RESULT_ORDER.get(r, 0) < RESULT_ORDER.get(res, 0):
                    res = r
    out.update(ar=ar, result=res, table=table, filters=sorted(filters))
    return out


def apply_result(game: Game, unit_id: str, result: str, source: str) -> str:
    """Apply a combat result [6.5-6.58, 7.44, 8.65]; returns what happened."""
    u = game.state.units[unit_id]
    if u.hex is None or result == "-":
        return "no effect"
    invalidate_targets(game)
    veh = is_vehicle(u)
    happened = result
    if result == "Kms":  # [8.65]
        if not veh:
            happened = destroy(game, u, "Kms: dismounted personnel killed [8.65]")
        else:
            apply_result(game, unit_id, "S", source)
            if utype(u).missile:
                u.state["Kms"] = True
                happened = "S and missile armament destroyed [8.65]"
            else:
                happened = "S (missiles immune) [8.65]"
    elif result == "S":
        if not veh and u.state.get("S"):
            happened = destroy(game, u, "second S on suppressed personnel [6.57]")
        else:
            u.state["S"] = True
            happened = "S" + (" (no further effect [6.57])" if veh and u.state.get("S") else "")
    elif result in ("Kf", "Km"):
        if not veh:
            happened = "no effect (Kf/Km apply only to vehicles [6.5])"
        elif u.state.get("Kf") or u.state.get("Km"):
            happened = destroy(game, u, "second Kf/Km [6.58]")
        else:
            u.state[result] = True
    elif result == "K":
        happened = destroy(game, u, "K [6.55]")
    if _hook(game, "firefight_result_applied") is not None:
        _hook(game, "firefight_result_applied")(game=game, unit_id=unit_id, result=result,
                                              source=source)
    return happened


def destroy(game: Game, u: Unit, why: str) -> str:
    """Remove a unit; a destroyed vehicle's passengers die with it [6.55, 7.44]."""
    for pid in list(u.state.get("passengers", [])):
        p = game.state.units[pid]
        p.hex = None
        p.state["destroyed"] = game.state.turn
    carrier = u.state.pop("carrier", None)
    if carrier is not None:  # a passenger killed on its own ([16.21] exposed): it leaves the
        pax = game.state.units[str(carrier)].state.get("passengers", [])  # vehicle [7.44]
        if u.id in pax:
            pax.remove(u.id)
    u.hex = None
    u.state["destroyed"] = game.state.turn
    return f"destroyed ({why})"


def mark_fired(firer: Unit, weapon: Weapon | None) -> None:
    firer.state["fired"] = True
    if weapon is not None:
        firer.state["target_kind_used"] = ("personnel" if weapon.crt == "anti_personnel"
                                           else "vehicle")
        firer.state["weapon_used"] = weapon.line


def check_attack(game: Game, side: str, firers: Sequence[str], target_id: str,
                 weapons_by_firer: Mapping[str, str] | None, mode: str) -> None:
    """Raise RulesError unless the announced attack is legal [6.0, 6.13, 6.3]."""
    if target_id not in game.state.units:
        raise RulesError(f"no unit {target_id!r}", rule="[6.0]")
    if not firers:
        raise RulesError("an attack needs at least one firing unit", rule="[6.0]")
    if len(set(firers)) != len(firers):
        raise RulesError("a unit may fire only once per Game-Turn", rule="[6.11]")
    target = game.state.units[target_id]
    for fid in firers:
        if fid not in game.state.units:
            raise RulesError(f"no unit {fid!r}", rule="[6.0]")
        f = game.state.units[fid]
        if f.side != side:
            raise RulesError(f"{fid} is not a unit of {side}", rule="[6.0]")
        why = attack_problem(game, f, target, (weapons_by_firer or {}).get(fid), mode)
        if why:
            raise RulesError(f"{fid} may not fire at {target_id}: {_strip(why)}",
                             rule=_rule_of(why))


def _strip(text: str) -> str:
    import re

    return re.sub(r"\s*\[[0-9.,A-Z ]+\]$", "", text)


def _rule_of(text: str) -> str:
    import re

    m = re.search(r"\[([0-9.]+)", text)
    return f"[{m.group(1)}]" if m else "[6.0]"


def execute_attack(game: Game, side: str, firers: Sequence[str], target_id: str,
                   weapons_by_firer: Mapping[str, str] | None, mode: str,
                   rolls: Sequence[int] | None = None) -> list[dict[str, Any]]:
    """Resolve an announced attack, unit by unit in the order given [6.0, 6.3, 6.31].

    Checks everything first (RulesError, state unchanged); then every firer counts as having
    fired even when the target is already gone [6.31]. ``rolls`` forces the dice (table-side).
    """
    check_attack(game, side, firers, target_id, weapons_by_firer, mode)
    target = game.state.units[target_id]
    if mode == "direct":
        ff(game).setdefault("attacked", []).append(target_id)  # [6.13]
    outcomes: list[dict[str, Any]] = []
    for i, fid in enumerate(firers):
        f = game.state.units[fid]
        if target.hex is None:
            mark_fired(f, None)
            outcomes.append({"firer": fid, "result": "-", "note": "target gone: fire counts [6.31]"})
            continue
        w = choose_weapon(game, f, target, (weapons_by_firer or {}).get(fid))
        att = describe_attack(game, f, target, w, mode)
        if rolls is not None and i < len(rolls):
            roll = int(rolls[i])
        else:
            who = f"{public_ref(game, fid)}->{public_ref(game, target_id)}"
            roll = game.dice.d6(f"fire {who} die 1") + game.dice.d6(f"fire {who} die 2")
        out = resolve_attack(game, att, roll)
        mark_fired(f, w)
        applied = apply_result(game, target_id, out["result"], mode)
        out.update(firer=fid, target=target_id, weapon=w.line, range=att["range"],
                   applied=applied, mode=mode)
        outcomes.append(out)
        report_about(
            game, "fire", [fid, target_id], result=out["result"],
            modifiers=[Modifier(m["name"], m["value"], m["rule"]) for m in out["modifiers"]],
            rules=["[6.0]", "[6.7]"], firer=fid, target=target_id, weapon=w.line,
            range=att["range"], roll=roll, ar=out["ar"], base=out["base"], applied=applied,
            filters=out["filters"], mode=mode)
        if _hook(game, "firefight_attack_done") is not None:
            _hook(game, "firefight_attack_done")(game=game, attack=att, outcome=out)
        invalidate_targets(game)
    return outcomes


def _rated(game: Game, firer: Unit, target: Unit, w: Weapon, rng: int, mode: str) -> bool:
    """The weapon has an Attack Rating at this range: on the table, or from an optional rule's
    ``firefight_base_attack_rating`` (small arms vs vehicles [24.0])."""
    if base_rating(w.line, target_class(game, target), rng) is not None:
        return True
    hk = _hook(game, "firefight_base_attack_rating")
    if hk is None:
        return False
    over = hk(game=game, attack=describe_attack(game, firer, target, w, mode), base=None)
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


# ---------------------------------------------------------------------------------------------
# movement [7.0-7.44]
# ---------------------------------------------------------------------------------------------


DUMMY_VEHICLE_MA = 3.0  # design 9.3 #9: a dummy posing as a vehicle moves like one (MA 3 [7.0])


def moves_as_vehicle(unit: Unit) -> bool:
    """[7.0] vehicles spend Movement Points, personnel move one hex. A dummy [12.0] is used
    "as though it were a real unit": it moves like what its owner says it is (``state.claim``,
    [11.0]; design 9.3 #9), so a dummy claiming to be a vehicle moves like a vehicle."""
    if unit.state.get("dummy"):
        return unit.state.get("claim") == "vehicle"
    return is_vehicle(unit)


def movement_allowance(unit: Unit, game: Game | None = None) -> float:
    """[7.0, 27.x] a vehicle's MA from its data; personnel move one hex (counted as 1); a dummy
    claiming to be a vehicle has MA 3 (:func:`moves_as_vehicle`)."""
    ud = utype(unit)
    if unit.state.get("dummy"):
        base = DUMMY_VEHICLE_MA if moves_as_vehicle(unit) else 1.0
    else:
        base = ud.ma if ud.is_vehicle else 1.0
    hk = _hook(game, "firefight_movement_allowance")
    if hk is not None:
        over = hk(game=game, unit_id=unit.id, base=base)
        if over is not None:
            return float(over)
    return base


def step_cost(game: Game | None, board: Board, unit: Unit, src: Hex, dst: Hex) -> float:
    """MP to move from ``src`` into adjacent ``dst`` [7.0, 7.1, TEC]: along a road through its
    road hexside 1/2 (the stream is bridged) and other terrain ignored; along a trail 1; else
    the hex's cost; a stream hexside (unbridged) adds 1. Personnel pay 1 (one hex [7.0])."""
    d = ff_data()
    side = board.hexside_of.get((src, dst), frozenset())
    if not moves_as_vehicle(unit):
        return 1.0
    if "bridge" in side and game is not None and frozenset((src, dst)) in addenda(game)["demolished"]:
        side = side - {"bridge"}  # Addenda: a demolished bridge is an unbridged stream hexside
    if "road" in side and ("bridge" in side or "stream" not in side):
        cost = d.feature_cost["road"]
    elif "road" in side:  # unbridged: the hex's cost plus the stream [TEC Bridge; Addenda]
        cost = d.hex_cost.get(board.terrain_of.get(dst, "clear"), 1.0) + d.feature_cost["stream"]
    else:
        cost = d.feature_cost["trail"] if "trail" in side else d.hex_cost.get(
            board.terrain_of.get(dst, "clear"), 1.0)
        if "stream" in side and "bridge" not in side:
            cost += d.feature_cost["stream"]
    if _hook(game, "firefight_move_cost") is not None:
        extra = 0.0
        for res in _hook(game, "firefight_move_cost")(
                game=game, unit_id=unit.id, src=board.label(src), dst=board.label(dst),
                base=cost):
            extra += total(res or ())
        cost += extra
    return cost


def _pairs(game: Game, spec: Any, feature: str | None) -> frozenset[frozenset[Hex]]:
    """Hexside pairs named by an Addenda option: ``"all"`` (every hexside with ``feature``) or a
    list of ``[a, b]`` label pairs."""
    board = game.board
    if spec == "all" and feature is not None:
        return frozenset(frozenset(k) for k, fs in board.hexside_of.items() if feature in fs)
    out = set()
    for a, b in spec or ():
        out.add(frozenset((board.parse(str(a)), board.parse(str(b)))))
    return frozenset(out)


def addenda(game: Game) -> dict[str, frozenset[frozenset[Hex]]]:
    """The scenario's Addenda options (``[special] addenda``): ``demolished_bridges``,
    ``impassable_streams`` ("all" or hexside pairs) and ``impassable_hexsides`` (pairs:
    impassable to vehicles and blocking fire). Cached per game."""
    cached = game.__dict__.get("_ff_addenda")
    if cached is not None:
        return cached  # type: ignore[no-any-return]
    spec = game.scenario.raw.get("special", {}).get("addenda", {})
    out = {
        "demolished": _pairs(game, spec.get("demolished_bridges"), "bridge"),
        "impassable_streams": _pairs(game, spec.get("impassable_streams"), "stream"),
        "impassable": _pairs(game, spec.get("impassable_hexsides"), None),
    }
    game.__dict__["_ff_addenda"] = out
    return out


def mover_problem(game: Game, unit: Unit) -> str | None:
    """Why ``unit`` may not start a move now [6.11, 6.52, 6.54, 7.21, 7.22, 7.42]."""
    entering = unit.hex is None and "enter" in unit.state and not unit.state.get("exited") \
        and not unit.state.get("destroyed") and int(unit.state["enter"].get("turn", 1)) <= \
        game.state.turn
    if unit.hex is None and not entering:
        return "the unit is not on the map"
    if carried(unit):
        return "a passenger moves with its vehicle [7.41]"
    if unit.state.get("moved"):
        return "the unit has already moved this Game-Turn [7.21]"
    if unit.state.get("fired"):
        return "the unit fired this Game-Turn [7.22]"
    if unit.state.get("acted"):
        return "the unit mounted or dismounted this Game-Turn [7.42]"
    if unit.state.get("Km"):
        return "a Km vehicle cannot move [6.54]"
    if not is_vehicle(unit) and unit.state.get("S"):
        return "suppressed personnel may not move [6.52]"
    if unit.state.get("frozen_until", 0) > game.state.turn:
        return "the scenario forbids this unit to move yet"
    return None


def step_problem(game: Game, unit: Unit, dst: Hex) -> str | None:
    """Why the moving ``unit`` may not enter ``dst`` now [7.0, 7.23, 7.25]."""
    src = unit.hex
    mp = float(unit.state["mp"]) if unit.state.get("moved") else movement_allowance(unit, game)
    if dst not in game.board.hexes:
        return "not a hex of the map"
    if src is None:
        entry = [hexof(game, x) for x in _entry_hexes(unit)]
        if dst not in entry:
            return "a unit enters the map at its scenario entry hexes [9.13]"
        cost = 1.0 if not moves_as_vehicle(unit) else (game.board.terrain_of.get(dst) and \
            ff_data().hex_cost.get(game.board.terrain_of[dst], 1.0)) or 1.0
    else:
        if src.distance(dst) != 1:
            return "a unit moves from hex to adjacent hex [7.24]"
        cost = step_cost(game, game.board, unit, src, dst)
        if moves_as_vehicle(unit):
            pair = frozenset((src, dst))
            add = addenda(game)
            if pair in add["impassable"]:
                return "the hexside is impassable to vehicles (Addenda)"
            if pair in add["impassable_streams"] and (
                    "bridge" not in game.board.hexside_of.get((src, dst), frozenset())
                    or pair in add["demolished"]):
                return "the stream is impassable to vehicles (Addenda)"
        if _hook(game, "firefight_move_restrictions") is not None:
            for res in _hook(game, "firefight_move_restrictions")(
                    game=game, unit_id=unit.id, src=game.board.label(src),
                    dst=game.board.label(dst)):
                if res:
                    return str(res[0])
    if not moves_as_vehicle(unit):
        if unit.state.get("steps", 0) >= 1:
            return "infantry moves one hex per Game-Turn [7.0]"
    elif cost > mp + 1e-9:
        return f"needs {cost:g} MP, {mp:g} left [7.23]"
    if any(u.side != unit.side and u.hex == dst and not carried(u)
           for u in game.state.units.values()):
        allow = None
        if _hook(game, "firefight_may_enter_enemy_hex") is not None:
            allow = _hook(game, "firefight_may_enter_enemy_hex")(
                game=game, unit_id=unit.id, dst=game.board.label(dst))
        if not allow:
            return "enemy units occupy that hex [7.25]"
    return None


def _entry_hexes(unit: Unit) -> list[str]:
    e = unit.state.get("enter") or {}
    hexes = e.get("hexes") or ([e["hex"]] if "hex" in e else [])
    return [str(x) for x in hexes]


def legal_steps(game: Game, unit: Unit) -> list[str]:
    if unit.hex is None:
        cands = [hexof(game, x) for x in _entry_hexes(unit)]
    else:
        cands = list(game.board.neighbors_of[unit.hex])
    return [game.board.label(h) for h in cands if step_problem(game, unit, h) is None]


def exit_problem(game: Game, unit: Unit) -> str | None:
    """[7.26] a unit on an edge hex may leave the map for 1 MP (infantry: as its one hex)."""
    if unit.hex is None:
        return "the unit is not on the map"
    if len(game.board.neighbors_of[unit.hex]) == 6:
        return "only a unit on a map-edge hex may exit [7.26]"
    if moves_as_vehicle(unit):
        if float(unit.state.get("mp", 0)) < 1.0 - 1e-9:
            return "exiting the map costs one Movement Point [7.26]"
    elif unit.state.get("steps", 0) >= 1:
        return "infantry moves one hex per Game-Turn [7.0]"
    return None


def edge_of(game: Game, h: Hex) -> set[str]:
    """Which map edges a hex lies on (north/south/east/west), by its missing neighbours."""
    out = set()
    for d, name in ((1, "north"), (4, "south")):
        if h.neighbor(d) not in game.board.hexes:
            out.add(name)
    for ds, name in (((2, 3), "east"), ((5, 6), "west")):
        if all(h.neighbor(d) not in game.board.hexes for d in ds):
            out.add(name)
    return out


def do_exit(game: Game, unit: Unit) -> None:
    why = exit_problem(game, unit)
    if why:
        raise RulesError(why, rule=_rule_of(why))
    assert unit.hex is not None
    unit.state["exit_edge"] = sorted(edge_of(game, unit.hex))
    unit.state["exit_hex"] = game.board.label(unit.hex)
    unit.state["exited"] = game.state.turn
    unit.hex = None
    for pid in unit.state.get("passengers", []):
        p = game.state.units[pid]
        p.hex = None
        p.state["exited"] = game.state.turn
        p.state["exit_edge"] = unit.state["exit_edge"]
    unit.state["mp"] = 0.0


def do_step(game: Game, unit: Unit, dst_label: str) -> float:
    """Move the unit one hex (checks first); returns the MP spent."""
    dst = hexof(game, dst_label)
    why = step_problem(game, unit, dst)
    if why:
        raise RulesError(f"{unit.id} may not enter {dst_label}: {_strip(why)}",
                         rule=_rule_of(why))
    if unit.hex is None:
        cost = 1.0 if not moves_as_vehicle(unit) else ff_data().hex_cost.get(
            game.board.terrain_of.get(dst, "clear"), 1.0)
    else:
        cost = step_cost(game, game.board, unit, unit.hex, dst)
    unit.hex = dst
    invalidate_targets(game)
    for f in game.board.features_of.get(dst, ()):
        if f.startswith("name:"):  # places entered, for victory (Scn 1 "pass through")
            seen = ff(game).setdefault("visited", {}).setdefault(f[5:], [])
            if unit.id not in seen:
                seen.append(unit.id)
    unit.state["mp"] = float(unit.state.get("mp", 0.0)) - (cost if moves_as_vehicle(unit) else 0.0)
    unit.state["steps"] = int(unit.state.get("steps", 0)) + 1
    for pid in unit.state.get("passengers", []):
        game.state.units[pid].hex = dst
    return cost


@dataclass
class MountCheck:
    vehicle: Unit
    passengers: list[Unit] = field(default_factory=list)


def mount_problem(game: Game, vehicle: Unit, pax: Sequence[Unit]) -> str | None:
    """[7.42, 7.43] mount in the same hex, neither fired nor moved, within capacity in men."""
    if not is_vehicle(vehicle) or utype(vehicle).capacity <= 0:
        return "this vehicle carries no passengers [7.43]"
    if not pax:
        return "nobody to mount"
    for u in [vehicle, *pax]:
        if u.hex is None or u.state.get("fired") or u.state.get("moved") or u.state.get("acted"):
            return "units that fired, moved or acted this turn may not mount [7.42]"
    for p in pax:
        if p.state.get("dummy") or vehicle.state.get("dummy"):
            return "a dummy is nothing: it neither boards nor carries anyone [12.0]"
        if is_vehicle(p) or carried(p) or p.hex != vehicle.hex or p.side != vehicle.side:
            return "mounting personnel must be in the vehicle's hex [7.42]"
        if p.state.get("S"):
            return "suppressed personnel may not move [6.52]"
    men = sum(utype(game.state.units[x]).men for x in vehicle.state.get("passengers", []))
    men += sum(utype(p).men for p in pax)
    if men > utype(vehicle).capacity:
        return f"{men} men exceed the capacity of {utype(vehicle).capacity} [7.43]"
    return None


def do_mount(game: Game, vehicle: Unit, pax: Sequence[Unit]) -> None:
    why = mount_problem(game, vehicle, pax)
    if why:
        raise RulesError(why, rule=_rule_of(why))
    vehicle.state.setdefault("passengers", [])
    for p in pax:
        vehicle.state["passengers"].append(p.id)
        p.state["carrier"] = vehicle.id
        p.state["acted"] = True
    vehicle.state["acted"] = True


def dismount_problem(game: Game, vehicle: Unit) -> str | None:
    if not vehicle.state.get("passengers"):
        return "no passengers to dismount"
    if vehicle.hex is None:
        return "the vehicle is not on the map"
    for u in [vehicle] + [game.state.units[x] for x in vehicle.state["passengers"]]:
        if u.state.get("fired") or u.state.get("moved") or u.state.get("acted"):
            return "units that fired, moved or acted this turn may not dismount [7.42]"
    return None


def do_dismount(game: Game, vehicle: Unit) -> None:
    why = dismount_problem(game, vehicle)
    if why:
        raise RulesError(why, rule=_rule_of(why))
    for pid in vehicle.state.pop("passengers"):
        p = game.state.units[pid]
        p.state.pop("carrier", None)
        p.hex = vehicle.hex
        p.state["acted"] = True
    vehicle.state["acted"] = True


def stacking_violations(game: Game) -> dict[str, list[str]]:
    """[7.3, 7.31] hexes with more than four friendly units (a vehicle and its passengers count
    as one) at the end of the Movement Phase."""
    count: dict[tuple[str, Hex], list[str]] = {}
    for u in game.state.units.values():
        if u.hex is None or carried(u):
            continue
        stack_hook = _hook(game, "firefight_counts_for_stacking")
        if stack_hook is not None and any(
                r is False for r in stack_hook(game=game, unit_id=u.id)):
            continue
        count.setdefault((u.side, u.hex), []).append(u.id)
    return {f"{s}@{game.board.label(h)}": ids for (s, h), ids in count.items() if len(ids) > 4}
