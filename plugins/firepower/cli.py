"""Table-side adjudication: ``hexwar firepower fire`` and ``hexwar firepower grenade``.

Both run the same fire procedures as a game (:mod:`hexwar.plugins.firepower.combat`), with the
step edits and modifiers of the optional rules named with ``--option``. ``fire`` works from a
situation (a scenario or save whose units stand on the board: FIRER and TARGET are unit ids) or,
without one, from a weapon code and a range plus flags for every Basic firing modifier. Without
``--dice`` a procedure runs up to its first die roll (hit number, modifiers); with them, to the end;
``--roll`` throws fresh dice (``--seed N`` seeded ones) for the rolls not given, and prints them.

Optional rules reach a shot through a game, as in play (docs/decisions.md FPD-26): the situation's
game, or without a situation the Basic Game Scenario at its set-up, built with the ``--option``
rules enabled. So an optional rule installed through an entry point and one offered as a local
plugin (:class:`TableSide`, for tests and notebooks) take part in exactly the same way: only when
named with ``--option``, through the hooks ``firepower_fire_modifiers`` and
``firepower_fire_steps``.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import click

from hexwar.core.errors import HexwarError, PluginError, RulesError
from hexwar.core.hexgrid import Hex
from hexwar.core.kit import Pipeline
from hexwar.core.types import Modifier, total
from hexwar.plugins.firepower import combat
from hexwar.plugins.firepower.actions import extra_modifiers
from hexwar.plugins.firepower.hookspecs import FirepowerHooks
from hexwar.plugins.firepower.los import LosResult
from hexwar.plugins.firepower.soldiers import Soldier
from hexwar.plugins.firepower.state import fp_map, soldiers
from hexwar.plugins.firepower.tables import card
from hexwar.plugins.firepower.terrain import FpMap, Picture

if TYPE_CHECKING:
    from hexwar.core.engine.game import Game

SAVES = {".json", ".jsonl", ".log", ".save"}


@dataclass(frozen=True)
class TableSide:
    """The table-side commands' context object (``click`` ``obj``): plugins that are not
    installed through an entry point, offered beside the installed ones. Like an installed rule,
    a local one takes part only when named with ``--option``."""

    local_plugins: tuple[object, ...] = ()


def _local_plugins() -> tuple[object, ...]:
    ctx = click.get_current_context(silent=True)
    found = ctx.find_object(TableSide) if ctx is not None else None
    return found.local_plugins if found is not None else ()


def table_game(situation: str | None, options: Sequence[str] = (), *,
               local_plugins: Iterable[object] = ()) -> Game:
    """The game whose rules a table-side command applies: a save (rebuilt, with the optional
    rules it was played with), a scenario file or a name of the system's scenarios (at its
    set-up), or with no situation the Basic Game Scenario; ``options`` are enabled."""
    from hexwar.core.engine.record import load_saved
    from hexwar.core.engine.replay import rebuild
    from hexwar.core.scenario import Scenario
    from hexwar.core.testing import make_game

    local = tuple(local_plugins)
    p = Path(situation or "basic")
    if p.suffix in SAVES:
        saved = load_saved(p)
        played = set(saved.header.get("rules", []))
        extra = sorted(set(options) - played)
        if extra:
            raise click.UsageError(f"a save keeps the optional rules it was played with "
                                   f"({', '.join(sorted(played)) or 'none'}); it has no "
                                   f"{', '.join(extra)}")
        return rebuild(saved, verify=False, local_plugins=local)
    if not p.exists():
        from hexwar.plugins.firepower.plugin import HERE

        # a built-in name, bare or qualified as elsewhere in the CLI (firepower:street-fight)
        p = HERE / "scenarios" / f"{p.name.removeprefix('firepower:')}.toml"
    scenario = Scenario.load(p)
    try:
        game: Game = make_game(scenario, seed=0, options=options, local_plugins=local)
    except PluginError as exc:  # an unknown, foreign or conflicting optional rule
        raise click.BadParameter(str(exc), param_hint="--option") from None
    return game


def _not_on_board(asked: Sequence[str], on_board: Iterable[str]) -> str:
    """Which of the asked units stand nowhere in the situation, and which do."""
    present = sorted(on_board)
    missing = ", ".join(u for u in asked if u not in present)
    if not present:  # a scenario whose sides place their soldiers in its set-up
        return (f"{missing}: no unit is on the board in this situation yet (the scenario's "
                f"soldiers are placed during its set-up); give a save of a game in play")
    return f"{missing}: not on the board here; units on the board: {', '.join(present)}"


def _dice(text: str | None) -> list[int] | None:
    if text is None:
        return None
    try:
        faces = [int(x) for x in text.replace(" ", "").split(",") if x]
    except ValueError:
        raise click.BadParameter("dice are numbers 1-10 separated by commas",
                                 param_hint="--dice") from None
    for f in faces:
        if not 0 <= f <= 10:
            raise click.BadParameter(f"{f} is not on a decimal die", param_hint="--dice")
    return [10 if f == 0 else f for f in faces]


class _Roller:
    """The dice of one procedure: the faces given with ``--dice``, then (with ``seed``) thrown
    d10s (Firepower 4.2); every one used is kept with its purpose, to be printed."""

    def __init__(self, faces: list[int], seed: int | None = None) -> None:
        import random

        self.faces = list(faces)
        self.given = len(self.faces)
        self.used: list[tuple[str, int]] = []
        self._rng = None if seed is None else random.Random(seed)

    def __call__(self, purpose: str) -> int:
        if not self.faces:
            if self._rng is None:
                raise HexwarError(f"--dice ran out at: {purpose}")
            self.faces.append(self._rng.randint(1, 10))
        f = self.faces.pop(0)
        self.used.append((purpose, f))
        return f


def fresh_seed() -> int:
    """A seed no one chose: the dice of a table-side roll differ from one call to the next."""
    import secrets

    return secrets.randbelow(2**31)


def _rolling(dice: str | None, roll: bool, seed: int | None) -> tuple[list[int] | None, int | None,
                                                                      bool]:
    """(faces given, seed for the dice thrown beyond them, whether the procedure is resolved):
    ``--dice`` alone resolves with the faces given; ``--roll`` throws fresh dice, ``--seed N``
    seeded ones (after any given); with none of them the procedure stops at its first roll."""
    faces = _dice(dice)
    if seed is None and roll:
        seed = fresh_seed()
    return faces, seed, faces is not None or seed is not None


def _dice_line(roller: _Roller, seed: int | None, fresh: bool) -> str:
    shown = ", ".join(f"{f} ({p})" for p, f in roller.used) or "none"
    thrown = len(roller.used) - min(roller.given, len(roller.used))
    if not thrown or seed is None:
        return f"dice: {shown} - from --dice"
    how = "fresh" if fresh else "seeded"
    again = ",".join(str(f % 10) for _p, f in roller.used)
    return f"dice: {shown} - {how} (seed {seed}; repeat with --seed {seed} or --dice {again})"


ROLL_HELP = "Throw fresh dice and resolve (the seed is printed, to repeat the roll)."
SEED_HELP = "Throw seeded dice and resolve (after any given with --dice)."


def _mods_text(mods: list[Modifier]) -> list[str]:
    return [f"  {m.value:+g}  {m.name} ({m.rule})" for m in mods] or ["  (none)"]


@click.group("firepower")
def firepower() -> None:
    """Firepower: adjudicate one fire or one grenade at the table (Basic Game; the Advanced Game
    with --situation naming an Advanced scenario or save)."""


OPTION_HELP = "Enable this optional rule for the shot (repeatable)."


@firepower.command("fire")
@click.argument("firer")
@click.argument("target")
@click.option("--situation", help="Scenario or save: FIRER and TARGET are unit ids in it.")
@click.option("--mode", type=click.Choice(["auto", "semi"]), help="Rate of fire (rifle).")
@click.option("--also", multiple=True, help="Further target units in the hex (one burst each).")
@click.option("--after", "after", default=0, show_default=True,
              help="MF announced for non-combat Actions after firing (Firepower 6.3.6).")
@click.option("--mf", "mf_before", default=0, show_default=True,
              help="MF the firer spent on non-combat Actions before firing.")
@click.option("--target-posture", type=click.Choice(["stand", "crouch", "prone"]),
              default="stand", show_default=True)
@click.option("--target-terrain", type=click.Choice(["clear", "tree", "rough", "scrub"]),
              default="clear", show_default=True)
@click.option("--fence-between", is_flag=True, help="Target in a fence hex, fence between.")
@click.option("--hedge-between", is_flag=True, help="Target in a hedge hex, hedge between.")
@click.option("--trees", default=0, show_default=True, help="Tree hexes crossed by the LOS.")
@click.option("--hedges", default=0, show_default=True, help="Hedge pictures crossed by the LOS.")
@click.option("--running", is_flag=True, help="Target marked Running.")
@click.option("--suppressed", is_flag=True, help="Firer Suppressed.")
@click.option("--option", "options_", multiple=True, metavar="NAME", help=OPTION_HELP)
@click.option("--ammo", default=None,
              help="Advanced Game: ammunition letter (Firepower 10.7 item 4; L for fire at units).")
@click.option("--dice", help="Faces rolled, comma-separated (0 reads 10): resolves the fire.")
@click.option("--roll", is_flag=True, help=ROLL_HELP)
@click.option("--seed", type=int, default=None, help=SEED_HELP)
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
def fire_cmd(firer: str, target: str, situation: str | None, mode: str | None,
             also: tuple[str, ...], after: int, mf_before: int, target_posture: str,
             target_terrain: str, fence_between: bool, hedge_between: bool, trees: int,
             hedges: int, running: bool, suppressed: bool, options_: tuple[str, ...],
             ammo: str | None, dice: str | None, roll: bool, seed: int | None,
             as_json: bool) -> None:
    """Hit number, every modifier with its rule, rate of fire, dice, hits and suppression.

    Without --situation FIRER is a weapon (LMG, RFL, PST) and TARGET the range in hexes, e.g.
    ``hexwar firepower fire LMG 30 --target-posture prone --dice 0,6,5,1``.
    """
    c = card()
    fresh = seed is None
    faces, seed, resolved = _rolling(dice, roll, seed)
    game = table_game(situation, options_, local_plugins=_local_plugins())
    base: tuple[combat.Step, ...] | None = None
    if situation and ADVANCED in game.rules_enabled:
        _advanced_table(game, firer, {"act": "fire", "mode": mode, "targets": [target, *also],
                                      "after": after, "ammo": ammo}, mf_before, faces, seed,
                        resolved, fresh, as_json)
        return
    if situation:
        sol = soldiers(game)
        if firer not in sol or target not in sol:
            raise click.UsageError(_not_on_board([firer, target], sol))
        f = sol[firer]
        w = c.weapons[f.weapon]
        md = mode or w.modes[0]
        ctx = combat.FireContext("fire", c, fp_map(game), sol, f, f.weapon, md, _Roller([]),
                                 targets=(target, *also), noncombat_mf=mf_before + after)
    else:
        weapon = firer.upper()
        if weapon not in c.weapons or weapon == "HGN":
            raise click.UsageError("FIRER is LMG, RFL or PST (or use --situation)")
        try:
            rng = int(target)
        except ValueError:
            raise click.UsageError("without --situation TARGET is the range in hexes") from None
        ctx = _abstract_fire(weapon, rng, mode, also, mf_before + after, target_posture,
                             target_terrain, fence_between, hedge_between, trees, hedges, running,
                             suppressed)
        base = tuple(TABLE_CHECK if s.name == "check" else s for s in combat.FIRE_STEPS)
    ctx.extra_modifiers = extra_modifiers(game)
    steps = combat.procedure("fire", FirepowerHooks.of(game).fire_steps("fire"), base=base)
    roller = _Roller(faces or [], seed)
    ctx.roll = roller
    next_roll = _run(ctx, steps, "illegal fire", resolved)
    w = c.weapons[ctx.weapon]
    out = {
        "weapon": ctx.weapon, "mode": ctx.mode, "rate_of_fire": w.rate_text(),
        "range": ctx.range, "hit_number": ctx.hit,
        "hit_number_source": str(c.hit_source(ctx.weapon, ctx.mode, ctx.range).source),
        "options": list(game.rules_enabled),
        "targets": {t: {"modifiers": [m.as_dict() for m in ctx.modifiers.get(t, [])],
                        "total": total(ctx.modifiers.get(t, [])),
                        "hits_on": _hits_on(ctx.hit, ctx.modifiers.get(t, [])),
                        "suppressible": ctx.mode == "auto"
                        and combat.can_suppress_auto(ctx.modifiers.get(t, []))}
                    for t in ctx.targets},
        "next_roll": next_roll,
        "dice": [f for _p, f in roller.used] if resolved else None,
        "shots": [asdict(s) for s in ctx.shots] if resolved else None,
        "eliminated": ctx.eliminated if resolved else None,
        "suppressed": ctx.suppressed if resolved else None,
        "seed": seed if resolved and len(roller.used) > roller.given else None,
    }
    if as_json:
        click.echo(json.dumps(out, indent=1))
        return
    if game.rules_enabled:
        click.echo(f"optional rules: {', '.join(game.rules_enabled)}")
    click.echo(f"{ctx.weapon} {ctx.mode} (rate of fire {w.rate_text()}) at range {ctx.range}: "
               f"hit number {ctx.hit} [{out['hit_number_source']}]")
    for t in ctx.targets:
        mods = ctx.modifiers.get(t, [])
        click.echo(f"target {t}: modifiers total {total(mods):+g}")
        for line in _mods_text(mods):
            click.echo(line)
        need = _hits_on(ctx.hit, mods)
        click.echo(f"  hits on a roll of {need} or less" if need >= 1 else "  no roll can hit")
        if ctx.mode == "auto":
            click.echo("  automatic fire Suppresses if missed (Firepower 6.4.1)"
                       if combat.can_suppress_auto(mods)
                       else "  cannot be Suppressed (Firepower 6.4.1)")
    if resolved:
        for s in ctx.shots:
            click.echo(f"burst {s.burst} at {s.target}: rolled {s.roll} -> {s.modified} "
                       f"{'HIT' if s.hit else 'miss'}")
        click.echo(f"eliminated: {', '.join(ctx.eliminated) or 'none'}; "
                   f"suppressed: {', '.join(ctx.suppressed) or 'none'}")
        click.echo(_dice_line(roller, seed, fresh))


def _hits_on(hit: int, mods: list[Modifier]) -> int:
    """The highest roll that hits: the hit number less the modifiers (Firepower 6.3.6)."""
    return int(hit - total(mods))


def _run(ctx: combat.FireContext, steps: Pipeline[combat.Step], illegal: str,
         resolved: bool) -> str | None:
    """Run a procedure with the given dice, or without them up to its first roll (whose purpose
    is returned)."""
    try:
        if not resolved:
            return combat.preview(ctx, steps)
        combat.run(ctx, steps)
    except RulesError as exc:
        raise click.ClickException(f"{illegal}: {exc}") from None
    except HexwarError as exc:
        raise click.ClickException(str(exc)) from None
    return None


def _table_check(ctx: combat.FireContext) -> None:
    """Firepower 6.3.2: a shot described by flags is checked for its range only (the flags say
    what the map would)."""
    ctx.card.hit_number(ctx.weapon, ctx.mode, ctx.range)


TABLE_CHECK = combat.Step("check", _table_check, "Firepower 6.3.2")


def _abstract_fire(weapon: str, rng: int, mode: str | None, also: tuple[str, ...], nc: int,
                   posture: str, terrain: str, fence: bool, hedge: bool, trees: int, hedges: int,
                   running: bool, suppressed: bool) -> combat.FireContext:
    """A fire described by flags: firer at (0,0) facing 4 (south), targets ``rng`` hexes south."""
    c = card()
    w = c.weapons[weapon]
    md = mode or w.modes[0]
    th = Hex(0, rng)
    cover = {th: terrain}
    pics = []
    if fence:
        pics.append(Picture("fence", th, 3, 6))
    if hedge:
        pics.append(Picture("hedge", th, 3, 6))
    m = FpMap.plain({Hex(0, k) for k in range(rng + 1)}, cover=cover, pictures=pics)
    firer = Soldier("firer", "A", Hex(0, 0), 4, weapon,
                    status="suppressed" if suppressed else None)
    side = 5 if (fence or hedge) else None  # the far part of the hex from the firer
    names = ("target", *also)
    sol = {"firer": firer}
    for n in names:
        sol[n] = Soldier(n, "B", th, 1, "RFL", posture, "running" if running else "normal",
                         None, side)
    ctx = combat.FireContext("fire", c, m, sol, firer, weapon, md, _Roller([]), targets=names,
                             noncombat_mf=nc, target_hex=th)
    ctx.range = rng
    ctx.los = LosResult(False, trees=trees, hedges=hedges)
    return ctx


@firepower.command("grenade")
@click.argument("thrower")
@click.argument("target_hex")
@click.option("--situation", default="basic", show_default=True,
              help="Scenario or save (THROWER a unit id), or the Basic board (THROWER a hex).")
@click.option("--facing", default=None, type=int, help="Thrower's facing when THROWER is a hex.")
@click.option("--posture", type=click.Choice(["stand", "crouch", "prone"]), default="stand")
@click.option("--side", "vertex_side", type=int, help="Hexside to use when the LOS crosses an angle.")
@click.option("--option", "options_", multiple=True, metavar="NAME",
              help="Enable this optional rule for the throw (repeatable).")
@click.option("--item", default=None,
              help="Advanced Game: what is fired at the hex (HGN1..HGN6, HRG1, RGN1, or the "
                   "soldier's own GLR, MRT, MPL, LCW, FTR).")
@click.option("--ammo", default=None, help="Advanced Game: ammunition (G, M, U, W, F, C, H, A).")
@click.option("--grenade-mode", default=None,
              help="Advanced Game: offensive / defensive (HGN1, HGN2), throw / rifle (HRG1).")
@click.option("--as-g", is_flag=True, help="Advanced Game: H ammunition used as G.")
@click.option("--dice", help="Throw, then spread (if missed), then one blast roll per soldier.")
@click.option("--roll", is_flag=True, help=ROLL_HELP)
@click.option("--seed", type=int, default=None, help=SEED_HELP)
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
def grenade_cmd(thrower: str, target_hex: str, situation: str, facing: int | None, posture: str,
                vertex_side: int | None, options_: tuple[str, ...], item: str | None,
                ammo: str | None, grenade_mode: str | None, as_g: bool, dice: str | None,
                roll: bool, seed: int | None, as_json: bool) -> None:
    """Range, hit number and modifiers of a throw, the spread hexes and the blast zone."""
    from hexwar.core.hexgrid import arc_directions

    c = card()
    game = table_game(situation, options_, local_plugins=_local_plugins())
    if ADVANCED in game.rules_enabled:
        if thrower not in soldiers(game):
            raise click.UsageError("in the Advanced Game THROWER is a unit id of the situation "
                                   f"(units: {', '.join(sorted(soldiers(game)))})")
        choice = {"act": "grenade", "hex": target_hex, "item": item, "ammo": ammo,
                  "mode": grenade_mode, "as_g": as_g, "side": vertex_side}
        fresh = seed is None
        faces, seed, resolved = _rolling(dice, roll, seed)
        _advanced_table(game, thrower, {k: v for k, v in choice.items() if v is not None},
                        0, faces, seed, resolved, fresh, as_json)
        return
    m = fp_map(game)
    sol = soldiers(game)
    try:
        target = m.parse(target_hex)
    except ValueError as exc:
        raise click.UsageError(str(exc)) from None
    if thrower in sol:
        t = sol[thrower]
    else:
        try:
            h = m.parse(thrower)
        except ValueError as exc:
            raise click.UsageError(f"THROWER is a unit id or a hex: {exc}") from None
        f = facing or (arc_directions(h, target) or (1,))[0]
        t = Soldier("thrower", "A", h, f, "RFL", posture)
        sol = {**sol, "thrower": t}
    ctx = combat.FireContext("grenade", c, m, sol, t, "HGN", "throw", _Roller([]),
                             target_hex=target, vertex_side=vertex_side,
                             extra_modifiers=extra_modifiers(game))
    steps = combat.procedure("grenade", FirepowerHooks.of(game).fire_steps("grenade"))
    fresh = seed is None
    faces, seed, resolved = _rolling(dice, roll, seed)
    roller = _Roller(faces or [], seed)
    ctx.roll = roller
    next_roll = _run(ctx, steps, "illegal throw", resolved)
    if ctx.entry_side is None or "throw" not in ctx.modifiers:
        raise click.ClickException("the throw's procedure ended before its hit number "
                                   f"({', '.join(steps.names)})")
    limit = combat.throw_range_limit(c, t.posture)
    spread = []
    for face in range(1, 11):
        h = combat.spread_hex(c, target, ctx.entry_side, face)
        note = ("off the mapboard" if h not in m.hexes else
                "beyond range" if t.hex.distance(h) > limit else "")
        spread.append({"roll": face, "hex": m.label(h) if h in m.hexes else repr(h),
                       "dud": note or None})
    blast = [{"hex": m.label(h), "distance": target.distance(h),
              "modifier": c.blast_modifier(target.distance(h))}
             for h in sorted(target.within(2), key=lambda x: (target.distance(x), x))
             if h in m.hexes]
    out = {"thrower": t.id, "target_hex": target_hex, "range": ctx.range,
           "hit_number": ctx.hit, "throw_modifiers": [x.as_dict() for x in ctx.modifiers["throw"]],
           "options": list(game.rules_enabled), "next_roll": next_roll,
           "entry_hexside": ctx.entry_side, "spread": spread, "blast_zone": blast,
           "result": ctx.summary() if resolved else None,
           "seed": seed if resolved and len(roller.used) > roller.given else None}
    if as_json:
        click.echo(json.dumps(out, indent=1))
        return
    if game.rules_enabled:
        click.echo(f"optional rules: {', '.join(game.rules_enabled)}")
    click.echo(f"grenade from {m.label(t.hex)} at {target_hex}: range {ctx.range}, "
               f"hit number {ctx.hit}; complete miss above 10 (Firepower 6.3.6.3.2)")
    for line in _mods_text(ctx.modifiers["throw"]):
        click.echo(line)
    click.echo(f"spread (arrow on hexside {ctx.entry_side} of {target_hex}, "
               "Firepower 6.3.6.3.2.1):")
    for s in spread:
        click.echo(f"  {s['roll']:>2}: {s['hex']}" + (f"  dud ({s['dud']})" if s["dud"] else ""))
    click.echo("blast zone (blast hit number 5, Firepower 6.3.6.3.2.2): "
               + ", ".join(f"{b['hex']} {b['modifier']:+d}" for b in blast))
    if resolved:
        click.echo(f"throw {ctx.throw_roll} -> {ctx.throw_modified}: {ctx.outcome}"
                   + (f", impact {m.label(ctx.impact)}" if ctx.impact else ""))
        for b in ctx.blast:
            click.echo(f"  {b['unit']}: rolled {b['roll']} -> {b['modified']}: {b['result']}")
        click.echo(_dice_line(roller, seed, fresh))


# -- the Advanced Game at the table ---------------------------------------------------------------

ADVANCED = "firepower.advanced"


def _advanced_table(game: Game, uid: str, choice: dict[str, object], mf_before: int,
                    faces: list[int] | None, seed: int | None, resolved: bool, fresh: bool,
                    as_json: bool) -> None:
    """``fire`` and ``grenade`` in a situation of the Advanced Game: the game's own procedure
    (Firepower 12; :mod:`~hexwar.plugins.firepower.advanced_fire`) with the unit's WEAPON CHART
    row, the line of sight by heights explained hex by hex (the heights and the LOS chart line,
    Firepower 12.1.4), every modifier with its rule, and with dice the result."""
    from hexwar.plugins.firepower.actions import fire_context, fire_procedure
    from hexwar.plugins.firepower.advanced_fire import blast_number, firing
    from hexwar.plugins.firepower.weapon_chart import weapon

    sol = soldiers(game)
    if uid not in sol:
        raise click.UsageError(_not_on_board([uid], sol))
    if choice["act"] == "fire" and not choice.get("mode"):
        from hexwar.plugins.firepower.advanced_fire import model_of

        auto, _semi = weapon(model_of(game.state.units[uid].state)).rate(
            str(choice.get("ammo") or "L"))
        choice["mode"] = "auto" if auto else "semi"
    try:
        ctx = fire_context(game, uid, {k: v for k, v in choice.items() if v is not None})
    except HexwarError as exc:
        raise click.ClickException(str(exc)) from None
    ctx.noncombat_mf += mf_before
    roller = _Roller(faces or [], seed)
    ctx.roll = roller
    steps = fire_procedure(game, ctx.kind)
    next_roll = _run(ctx, steps, "illegal fire" if ctx.kind == "fire" else "illegal throw",
                     resolved)
    f = firing(ctx)
    w = weapon(f.item)
    los = ctx.extra.get("los_hex") if ctx.kind == "grenade" else None
    los_by = ctx.extra.get("los") or {}
    lines_of_sight = {t: r.explain() for t, r in los_by.items()}
    if los is not None:
        lines_of_sight = {"hex": los.explain()}
    heights = {t: [r.firer_height, r.target_height] for t, r in los_by.items()}
    if los is not None:
        heights = {"hex": [los.firer_height, los.target_height]}
    try:
        blast = blast_number(f, w) if ctx.kind == "grenade" and f.ammo not in "MUA" else None
    except HexwarError:
        blast = None
    out = {"advanced": True, "firer": uid, "item": f.item, "ammo": f.ammo, "mode": f.mode,
           "rate_of_fire": w.rof.get(f.ammo), "range": ctx.range, "hit_number": ctx.hit,
           "blast_number": blast, "penetration": w.penetration.get(f.ammo),
           "heights": heights, "line_of_sight": lines_of_sight,
           "observer": ctx.extra.get("observer"),
           "modifiers": {k: [m.as_dict() for m in v] for k, v in ctx.modifiers.items()},
           "next_roll": next_roll, "result": ctx.summary() if resolved else None,
           "seed": seed if resolved and len(roller.used) > roller.given else None}
    if as_json:
        click.echo(json.dumps(out, indent=1, default=str))
        return
    click.echo(f"Advanced Game: {uid} fires {f.item} ({w.name}), {f.ammo} ammunition, {f.mode}"
               f" (rate of fire {w.rof.get(f.ammo, '-')}) at range {ctx.range}: hit number "
               f"{ctx.hit} [Firepower 10.7]"
               + (f", blast {blast}" if blast is not None else ""))
    if ctx.extra.get("observer"):
        click.echo(f"high trajectory: observed by {ctx.extra['observer']} (Firepower 12.4.2)")
    for what, expl in lines_of_sight.items():
        fh, th = heights[what]
        click.echo(f"line of sight to {what}: firer at height {fh}, target at height {th} "
                   "(Firepower 12.1)")
        for line in expl or ["nothing between reaches the line"]:
            click.echo(f"  {line}")
    for key, mods in ctx.modifiers.items():
        click.echo(f"{'throw' if key == 'throw' else 'target ' + key}: modifiers total "
                   f"{total(mods):+g}")
        for line in _mods_text(mods):
            click.echo(line)
    if resolved:
        click.echo(f"outcome: {ctx.outcome or 'fired'}"
                   + (f", impact {ctx.map.label(ctx.impact)}" if ctx.impact else ""))
        for sh in ctx.shots:
            click.echo(f"burst {sh.burst} at {sh.target}: rolled {sh.roll} -> {sh.modified} "
                       f"{'HIT' if sh.hit else 'miss'}")
        for b in ctx.blast:
            click.echo(f"  {b['unit']}: rolled {b['roll']} -> {b['modified']}: {b['result']}")
        for p in ctx.extra.get("place") or []:
            click.echo(f"places {'smoke (' + str(p['smoke']) + ')' if 'smoke' in p else 'illumination'}"
                       f" in {p['hex']} (Firepower {'12.3.8' if 'smoke' not in p else '12.3.7'})")
        click.echo(f"eliminated: {', '.join(ctx.eliminated) or 'none'}; stunned: "
                   f"{', '.join(ctx.stunned) or 'none'}; suppressed: "
                   f"{', '.join(ctx.suppressed) or 'none'}")
        click.echo(_dice_line(roller, seed, fresh))
    elif next_roll:
        click.echo(f"next roll: {next_roll}")
