"""Table-side adjudication: ``hexwar firepower fire`` and ``hexwar firepower grenade``.

Both call the same pure rules functions as the engine (combat.py). ``fire`` works from a
situation (a scenario or save whose units stand on the board: FIRER and TARGET are unit ids) or,
without one, from a weapon code and a range plus flags for every Basic firing modifier.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import click

from hexwar.core.errors import HexwarError, RulesError
from hexwar.core.hexgrid import Hex
from hexwar.core.types import Modifier, total
from hexwar.plugins.firepower import combat
from hexwar.plugins.firepower.los import LosResult
from hexwar.plugins.firepower.soldiers import Soldier
from hexwar.plugins.firepower.tables import card
from hexwar.plugins.firepower.terrain import FpMap, Picture


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
    def __init__(self, faces: list[int]) -> None:
        self.faces = list(faces)
        self.used: list[tuple[str, int]] = []

    def __call__(self, purpose: str) -> int:
        if not self.faces:
            raise HexwarError(f"--dice ran out at: {purpose}")
        f = self.faces.pop(0)
        self.used.append((purpose, f))
        return f


def _no_roll(purpose: str) -> int:
    raise _Stop(purpose)


class _Stop(Exception):
    pass


def _game(situation: str) -> Any:
    from hexwar.core.engine.game import Game
    from hexwar.core.engine.record import load_saved
    from hexwar.core.engine.replay import rebuild
    from hexwar.core.scenario import Scenario

    p = Path(situation)
    if p.suffix in {".json", ".jsonl", ".log", ".save"}:
        return rebuild(load_saved(p), verify=False)
    if not p.exists():
        from hexwar.plugins.firepower.plugin import HERE

        p = HERE / "scenarios" / f"{situation}.toml"
    return Game(Scenario.load(p), seed=0)


def _mods_text(mods: list[Modifier]) -> list[str]:
    return [f"  {m.value:+g}  {m.name} ({m.rule})" for m in mods] or ["  (none)"]


@click.group("firepower")
def firepower() -> None:
    """Firepower Basic Game: adjudicate one fire or one grenade at the table."""


@firepower.command("fire")
@click.argument("firer")
@click.argument("target")
@click.option("--situation", help="Scenario or save: FIRER and TARGET are unit ids in it.")
@click.option("--mode", type=click.Choice(["auto", "semi"]), help="Rate of fire (rifle).")
@click.option("--also", multiple=True, help="Further target units in the hex (one burst each).")
@click.option("--after", "after", default=0, show_default=True,
              help="MF announced for non-combat Actions after firing (6.3.6).")
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
@click.option("--dice", help="Faces rolled, comma-separated (0 reads 10): resolves the fire.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
def fire_cmd(firer: str, target: str, situation: str | None, mode: str | None,
             also: tuple[str, ...], after: int, mf_before: int, target_posture: str,
             target_terrain: str, fence_between: bool, hedge_between: bool, trees: int,
             hedges: int, running: bool, suppressed: bool, dice: str | None,
             as_json: bool) -> None:
    """Hit number, every modifier with its rule, rate of fire, dice, hits and suppression.

    Without --situation FIRER is a weapon (LMG, RFL, PST) and TARGET the range in hexes, e.g.
    ``hexwar firepower fire LMG 30 --target-posture prone --dice 0,6,5,1``.
    """
    c = card()
    faces = _dice(dice)
    if situation:
        from hexwar.plugins.firepower import engine

        game = _game(situation)
        sol = engine.soldiers(game)
        if firer not in sol or target not in sol:
            raise click.UsageError(f"units on the board: {', '.join(sorted(sol))}")
        f = sol[firer]
        m = engine.fp_map(game)
        w = c.weapons[f.weapon]
        md = mode or w.modes[0]
        ctx = combat.FireContext("fire", c, m, sol, f, f.weapon, md, _no_roll,
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
    try:
        if situation:
            combat.step_check_fire(ctx)
        else:
            ctx.range = int(target)
            c.hit_number(ctx.weapon, ctx.mode, ctx.range)
        combat.step_hit_number(ctx)
        combat.step_modifiers(ctx)
    except RulesError as exc:
        raise click.ClickException(f"illegal fire: {exc}") from None
    w = c.weapons[ctx.weapon]
    resolved = faces is not None
    roller = _Roller(faces or [])
    if resolved:
        ctx.roll = roller
        combat.step_shots(ctx)
        combat.step_auto_suppression(ctx)
    out = {
        "weapon": ctx.weapon, "mode": ctx.mode, "rate_of_fire": w.rate_text(),
        "range": ctx.range, "hit_number": ctx.hit,
        "hit_number_source": str(c.hit_source(ctx.weapon, ctx.mode, ctx.range).source),
        "targets": {t: {"modifiers": [m.as_dict() for m in ctx.modifiers[t]],
                        "total": total(ctx.modifiers[t]),
                        "suppressible": ctx.mode == "auto"
                        and combat.can_suppress_auto(ctx.modifiers[t])}
                    for t in ctx.targets},
        "dice": [f for _p, f in roller.used] if resolved else None,
        "shots": [s.__dict__ for s in ctx.shots] if resolved else None,
        "eliminated": ctx.eliminated if resolved else None,
        "suppressed": ctx.suppressed if resolved else None,
    }
    if as_json:
        click.echo(json.dumps(out, indent=1))
        return
    click.echo(f"{ctx.weapon} {ctx.mode} (rate of fire {w.rate_text()}) at range {ctx.range}: "
               f"hit number {ctx.hit} [{out['hit_number_source']}]")
    for t in ctx.targets:
        mods = ctx.modifiers[t]
        click.echo(f"target {t}: modifiers total {total(mods):+g}")
        for line in _mods_text(mods):
            click.echo(line)
        need = ctx.hit - total(mods)
        click.echo(f"  hits on a roll of {int(need)} or less"
                   if need >= 1 else "  no roll can hit")
        if ctx.mode == "auto":
            click.echo("  automatic fire Suppresses if missed (6.4.1)"
                       if combat.can_suppress_auto(mods) else "  cannot be Suppressed (6.4.1)")
    if resolved:
        for s in ctx.shots:
            click.echo(f"burst {s.burst} at {s.target}: rolled {s.roll} -> {s.modified} "
                       f"{'HIT' if s.hit else 'miss'}")
        click.echo(f"eliminated: {', '.join(ctx.eliminated) or 'none'}; "
                   f"suppressed: {', '.join(ctx.suppressed) or 'none'}")


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
    ctx = combat.FireContext("fire", c, m, sol, firer, weapon, md, _no_roll, targets=names,
                             noncombat_mf=nc, target_hex=th)
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
@click.option("--dice", help="Throw, then spread (if missed), then one blast roll per soldier.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
def grenade_cmd(thrower: str, target_hex: str, situation: str, facing: int | None, posture: str,
                vertex_side: int | None, dice: str | None, as_json: bool) -> None:
    """Range, hit number and modifiers of a throw, the spread hexes and the blast zone."""
    from hexwar.core.hexgrid import arc_directions
    from hexwar.plugins.firepower import engine

    c = card()
    game = _game(situation)
    m = engine.fp_map(game)
    sol = engine.soldiers(game)
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
    ctx = combat.FireContext("grenade", c, m, sol, t, "HGN", "throw", _no_roll,
                             target_hex=target, vertex_side=vertex_side)
    try:
        combat.step_check_grenade(ctx)
        combat.step_grenade_hit(ctx)
    except RulesError as exc:
        raise click.ClickException(f"illegal throw: {exc}") from None
    assert ctx.entry_side is not None
    limit = combat.throw_range_limit(c, t.posture)
    spread = []
    for roll in range(1, 11):
        h = combat.spread_hex(c, target, ctx.entry_side, roll)
        note = ("off the mapboard" if h not in m.hexes else
                "beyond range" if t.hex.distance(h) > limit else "")
        spread.append({"roll": roll, "hex": m.label(h) if h in m.hexes else repr(h),
                       "dud": note or None})
    blast = [{"hex": m.label(h), "distance": target.distance(h),
              "modifier": c.blast_modifier(target.distance(h))}
             for h in sorted(target.within(2), key=lambda x: (target.distance(x), x))
             if h in m.hexes]
    faces = _dice(dice)
    if faces is not None:
        roller = _Roller(faces)
        ctx.roll = roller
        try:
            combat.step_throw(ctx)
            combat.step_blast(ctx)
        except HexwarError as exc:
            raise click.ClickException(str(exc)) from None
    out = {"thrower": t.id, "target_hex": target_hex, "range": ctx.range,
           "hit_number": ctx.hit, "throw_modifiers": [x.as_dict() for x in ctx.modifiers["throw"]],
           "entry_hexside": ctx.entry_side, "spread": spread, "blast_zone": blast,
           "result": ctx.summary() if faces is not None else None}
    if as_json:
        click.echo(json.dumps(out, indent=1))
        return
    click.echo(f"grenade from {m.label(t.hex)} at {target_hex}: range {ctx.range}, "
               f"hit number {ctx.hit}; complete miss above 10 (6.3.6.3.2)")
    for line in _mods_text(ctx.modifiers["throw"]):
        click.echo(line)
    click.echo(f"spread (arrow on hexside {ctx.entry_side} of {target_hex}, 6.3.6.3.2.1):")
    for s in spread:
        click.echo(f"  {s['roll']:>2}: {s['hex']}" + (f"  dud ({s['dud']})" if s["dud"] else ""))
    click.echo("blast zone (blast hit number 5, 6.3.6.3.2.2): "
               + ", ".join(f"{b['hex']} {b['modifier']:+d}" for b in blast))
    if faces is not None:
        click.echo(f"throw {ctx.throw_roll} -> {ctx.throw_modified}: {ctx.outcome}"
                   + (f", impact {m.label(ctx.impact)}" if ctx.impact else ""))
        for b in ctx.blast:
            click.echo(f"  {b['unit']}: rolled {b['roll']} -> {b['modified']}: {b['result']}")
