"""``hexwar mbt ...``: the MBT system's table-side commands, for players of the board game.

* ``hexwar mbt fire``: one AP point effect shot (MBT 7.4) from the cards, the charts and the dice,
  with the optional rules named by ``--option`` taking part (:func:`table_game`);
* ``hexwar mbt gp``: one GP point effect shot of the Advanced Game at a vehicle (MBT 14.4), every
  modifier with its rule;
* ``hexwar mbt cards``: the data cards in use and how much of them is cited or estimated;
* ``hexwar mbt points`` and ``hexwar mbt orgs``: TO&E prices with their "Doing Your Own
  Scenarios" B.3 breakdown (:mod:`hexwar.plugins.mbt.toe`).
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from hexwar.core.errors import HexwarError
from hexwar.plugins.mbt.toe.report import GRADES

if TYPE_CHECKING:
    from hexwar.core.engine.game import Game
    from hexwar.core.engine.state import Unit
    from hexwar.plugins.mbt.ap_fire import ShotResult, Situation

mbt_group = click.Group("mbt", help="MBT (Avalon Hill): table-side adjudication and data.")


def _dice_faces(text: str) -> list[int]:
    """``"06,25,60"`` (two-dice rolls, 01-100, ``00`` read as 100) -> faces white, coloured for
    each (MBT 4.2). A bad value is a :class:`click.BadParameter` naming it."""
    faces: list[int] = []
    for part in text.replace(" ", "").split(","):
        if not part:
            continue
        if not (part.isascii() and part.isdigit() and len(part) <= 3):
            raise click.BadParameter(f"a two-dice roll is a number 01-100 (00 = 100), not {part!r}")
        v = 100 if part == "00" else int(part)
        if not 1 <= v <= 100:
            raise click.BadParameter(f"a two-dice roll is 01-100 (00 = 100), not {part}")
        v %= 100
        faces += [v // 10, v % 10]
    return faces


def _dice_option(ctx: click.Context, param: click.Parameter, value: str) -> list[int]:
    """``--dice``, checked before the shot is set up (exit 2 naming the option and the value)."""
    return _dice_faces(value or "")


def fresh_seed() -> int:
    """A seed no one chose: the dice of a table-side roll differ from one call to the next."""
    import secrets

    return secrets.randbelow(2**31)


def _dice_line(rolls: list[dict[str, Any]], *, given: int, seed: int, fresh: bool) -> str:
    """Every two-dice roll of the shot with what it was for (MBT 4.2), where the dice came from
    and how to throw them again."""
    shown = ", ".join(f"{r['value']:02d} ({r['purpose']})" for r in rolls) or "none"
    if len(rolls) <= given:
        where = "from --dice"
    else:
        how = "fresh" if fresh else "seeded"
        where = (f"{given} from --dice, the rest " if given else "") + \
            f"{how} (seed {seed}; repeat with --seed {seed})"
    return f"Dice: {shown} - {where}"


class _ForcedDice:
    """Dice read from ``--dice``, then random ones (recorded so the output shows every roll)."""

    def __init__(self, faces: list[int], seed: int) -> None:
        from hexwar.core.dice import Dice

        self.rolls: list[dict[str, Any]] = []
        self._dice = Dice(seed, on_roll=lambda r: self.rolls.append(r.as_dict()))
        self._dice.force(*faces)

    def d100(self, purpose: str) -> int:
        return self._dice.d100(purpose)


#: the table game's board: any board will do, the shot's geometry comes from the command's flags
TABLE_PANEL = "mbt:panel-1"


def table_game(firer: str, target: str, *, options: Iterable[str] = (),
               local_plugins: Iterable[object] = (), card_dirs: Sequence[str] = (),
               table_dirs: Sequence[str] = (), seed: int = 0) -> tuple[Game, Unit, Unit]:
    """A minimal game for one shot at the table, so that the ``mbt_`` hooks of optional rules are
    called exactly as in a game (docs/decisions.md MBTD-21).

    The game is a real :class:`~hexwar.core.engine.game.Game` of a scenario with no units: its
    manager holds MBT and the rules named in ``options`` (installed through entry points, or among
    ``local_plugins``), its cards and charts are the command's (``card_dirs``, ``table_dirs``),
    and its fire procedure carries every rule's ``mbt_fire_steps`` edits. ``firer`` and ``target``
    (card names) become two units that stand on no hex (``hex`` is None): what the shot depends
    on is the :class:`~hexwar.plugins.mbt.ap_fire.Situation` the command builds from its flags.
    """
    from hexwar.core.engine.game import Game
    from hexwar.core.engine.state import Unit
    from hexwar.core.scenario import Scenario
    from hexwar.plugins.mbt.state import SIDES, card_of, enemy_of, init_unit

    def paths(dirs: Sequence[str]) -> str:
        return "[" + ", ".join(json.dumps(str(Path(p).resolve())) for p in dirs) + "]"

    text = "\n".join([
        "[scenario]", 'id = "mbt:table"', 'title = "hexwar mbt fire: one shot at the table"',
        'system = "mbt"', "turns = 1", "", "[sides.NATO]", "", "[sides.Soviet]", "",
        "[board]", f'panels = [{{ panel = "{TABLE_PANEL}" }}]', "",
        "[special]", f"cards = {paths(card_dirs)}", f"tables = {paths(table_dirs)}", "",
    ])
    game = Game(Scenario.from_text(text, path="<hexwar mbt fire>"), seed=seed,
                options=tuple(options), local_plugins=tuple(local_plugins))
    units = []
    for uid, name in (("firer", firer), ("target", target)):
        u = Unit(uid, f"mbt:{name}", SIDES[0], None)
        init_unit(u)
        units.append(u)
    f, t = units
    side = card_of(game, f).side
    f.side = side if side in SIDES else SIDES[0]
    t.side = enemy_of(f.side)
    return game, f, t


def shot_at_table(game: Game, firer: Unit, target: Unit, situation: Situation,
                  dice: Any) -> ShotResult:
    """Resolve ``situation`` in ``game`` as :func:`hexwar.plugins.mbt.fire.resolve_shot` does:
    the rules' extra modifiers (``mbt_ap_modifiers``), then the game's fire procedure."""
    from hexwar.plugins.mbt.hookspecs import MbtHooks
    from hexwar.plugins.mbt.state import ctx

    extra = MbtHooks.of(game).ap_modifiers(situation, firer, target)
    if extra:
        situation.extra_modifiers = (*situation.extra_modifiers, *extra)
    c = ctx(game)
    return c.fire.resolve(situation, c.charts, dice)


@mbt_group.command("fire")
@click.argument("firer")
@click.argument("target")
@click.option("--ammo", default="APFSDS", show_default=True,
              help="Ammunition (APFSDS, HEAT, ATGM...); GP, canister, smoke (TARGET is then a "
                   "hex), CA (close assault) or H2H (hand-to-hand) for the Advanced Game.")
@click.option("--weapon", default=None,
              help="Weapon name (default: the main gun; the missile for ATGM); with --ammo GP a "
                   "vehicle's machinegun, e.g. \"HMG TTC\" (MBT 14.1.2).")
@click.option("--range", "rng", type=int, default=None,
              help="Range in hexes (MBT 4.7); needed except for CA and H2H (one hex).")
@click.option("--terrain", default="clear", show_default=True,
              help="Terrain in the target hex; several kinds separated by commas (MBT 7.4.2.1).")
@click.option("--firer-moving", is_flag=True, help="Firer has FM orders (MBT 7.4.2.2).")
@click.option("--target-moving", is_flag=True, help="Target has M or FM orders (MBT 7.4.2.2).")
@click.option("--overwatch", is_flag=True, help="The firer fires on OW orders (MBT 7.4.2.4).")
@click.option("--acquisition", type=int, default=0, help="Consecutive Turns hit before (MBT 7.4.2.3.1).")
@click.option("--brewup", type=int, default=0, help="Brew-up smoke hexes on the line (MBT 7.4.2.3.3).")
@click.option("--elevation", type=click.Choice(["Level", "Rising", "Falling"]), default="Level",
              show_default=True, help="MBT 7.4.6.2.")
@click.option("--angle", type=click.Choice(["Front", "Front-Side", "Rear-Side", "Rear"]),
              default="Front", show_default=True, help="Hit angle (MBT 7.4.5.1).")
@click.option("--hull-down", is_flag=True, help="Target hull down (Advanced MBT 13.2.2.3).")
@click.option("--option", "options", multiple=True, metavar="NAME",
              help="Enable an optional rule for this shot (repeatable; see hexwar plugins).")
@click.option("--dice", default="", callback=_dice_option,
              help="Two-dice rolls in order, e.g. 06,25,60 (to hit, location, damage).")
@click.option("--cards", "card_dirs", multiple=True, type=click.Path(exists=True),
              help="Your own data card files or folders (replace shipped cards by name).")
@click.option("--tables", "table_dirs", multiple=True, type=click.Path(exists=True, file_okay=False),
              help="A table pack replacing shipped Game Card charts by name.")
@click.option("--seed", type=int, default=None,
              help="Seed for the rolls not given with --dice (default: fresh dice, whose seed "
                   "is printed so the shot can be repeated).")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@click.option("--suppressed", is_flag=True, help="GP, CA: firer suppressed (MBT 14.4.2.1.3).")
@click.option("--crew-losses", type=click.IntRange(0, 9), default=0,
              help="GP: firer's crew losses (MBT 14.4.2.1.2).")
@click.option("--smoke", type=click.IntRange(0, 99), default=0,
              help="GP: other smoke hexes on the line (MBT 14.4.2.1.7).")
@click.option("--grade", type=click.Choice(["poor", "average", "crack"]), default="average",
              help="GP, CA, H2H: the firer's (attacker's) grade (MBT 12.7).")
@click.option("--target-grade", type=click.Choice(["poor", "average", "crack"]), default="average",
              help="H2H: the defender's grade (MBT 14.6.3.5).")
@click.option("--buttoned", is_flag=True, help="GP, CA: target vehicle buttoned.")
@click.option("--firer-buttoned", is_flag=True,
              help="GP: the firer's turret is buttoned (an \"O\" machinegun cannot fire, "
                   "MBT 14.1.2.2).")
@click.option("--full-cover", is_flag=True, help="GP: leg or towed target in full cover (MBT 15.5).")
@click.option("--overrun", is_flag=True, help="GP: overrun fire, +20 (MBT 14.7.2.2.2).")
@click.option("--uphill", is_flag=True, help="CA, H2H: the target is higher (MBT 14.5.3.1, 14.6.3.2).")
@click.option("--attackers", type=click.IntRange(1, 9), default=1,
              help="H2H: attacking units (MBT 14.6.3.4).")
@click.option("--target-suppressed", is_flag=True, help="H2H: defender suppressed (MBT 14.6.3.1).")
@click.option("--target-losses", is_flag=True,
              help="H2H: defender has crew losses or is a bailed-out crew (MBT 14.6.3.3).")
@click.option("--half", is_flag=True, help="H2H: the attacker is a half squad (MBT 12.5).")
@click.option("--target-half", is_flag=True, help="H2H: the defender is a half squad.")
@click.pass_context
def fire(click_ctx: click.Context, /, firer: str, target: str, ammo: str, weapon: str | None,
         rng: int | None,
         terrain: str, firer_moving: bool, target_moving: bool, overwatch: bool, acquisition: int,
         brewup: int, elevation: str, angle: str, hull_down: bool, options: tuple[str, ...],
         dice: list[int], card_dirs: tuple[str, ...], table_dirs: tuple[str, ...],
         seed: int | None, as_json: bool, **advanced: Any) -> None:
    """Resolve one AP point effect shot (MBT 7.4): FIRER and TARGET are card names (T-72M1).

    With ``--ammo GP`` a GP point effect shot of the Advanced Game (MBT 14.4; with ``--weapon`` a
    vehicle's independent machinegun's, MBT 14.1.2), ``--ammo canister``
    one with canister (MBT 14.4.5.2), ``--ammo smoke`` a smoke round into the hex TARGET names
    (MBT 14.4.5.1), ``--ammo CA`` a
    close assault (MBT 14.5), ``--ammo H2H`` a hand-to-hand combat (MBT 14.6): each modifier with
    its rule, the dice and the result.

    A program that embeds the command (a test, a notebook) may offer plugins that are not
    installed through entry points as ``obj={"local_plugins": [...]}``; ``--option`` enables them
    by name like installed ones.
    """
    from hexwar.plugins.mbt.ap_fire import Situation
    from hexwar.plugins.mbt.machineguns import split as split_mg
    from hexwar.plugins.mbt.state import ctx

    local = (click_ctx.obj or {}).get("local_plugins", ()) if isinstance(click_ctx.obj, dict) else ()
    fresh = seed is None
    if seed is None:  # a roll at the table is a new roll each time (issue 10)
        seed = fresh_seed()
    advanced_kinds = ("GP", "CANISTER", "SMOKE", "CA", "H2H")  # MBT 14.4-14.6
    if rng is None and ammo.upper() not in ("CA", "H2H", "SMOKE"):
        click.echo("error: missing option '--range' (the range in hexes, MBT 4.7)", err=True)
        sys.exit(2)
    defaults = {"attackers": 1, "grade": "average", "target_grade": "average",
                "crew_losses": 0, "smoke": 0}
    used = sorted(k for k, v in advanced.items() if v != defaults.get(k, False))
    if used and ammo.upper() not in advanced_kinds:
        names = ", ".join("--" + k.replace("_", "-") for k in used)
        click.echo(f"error: {names} apply to --ammo GP, canister, CA or H2H only (the Advanced "
                   "Game)", err=True)
        sys.exit(2)
    if ammo.upper() in advanced_kinds:
        from hexwar.plugins.mbt.cli_advanced import advanced_fire

        try:
            advanced_fire(ammo.upper(), firer, target, rng=rng, terrain=terrain,
                          firer_moving=firer_moving, target_moving=target_moving,
                          overwatch=overwatch, acquisition=acquisition, brewup=brewup,
                          hull_down=hull_down, dice=dice, card_dirs=card_dirs, seed=seed,
                          fresh=fresh, as_json=as_json, weapon=weapon, **advanced)
        except HexwarError as exc:
            click.echo(f"error: {exc}", err=True)
            sys.exit(2)
        return
    try:
        game, fu, tu = _checked_table_game(firer, target, options, local, card_dirs, table_dirs, seed)
        cards = ctx(game).cards
        fc, tc = cards[firer], cards[target]
        if weapon is not None and split_mg(fc, f"{weapon}/GP") is not None:
            raise HexwarError(f"{fc.name}'s {weapon} is a machinegun: it fires GP point effect "
                              "fire only (MBT 14.1.2, 14.4; --ammo GP)")
        if weapon is None:
            w = fc.missiles[0] if ammo == "ATGM" and fc.missiles else fc.main_gun
            if w is None:
                raise HexwarError(f"{firer} has no main gun")
            weapon = w.name
        fu.state["order"] = "FM" if firer_moving else "OW" if overwatch else "F"
        tu.state["order"] = "M" if target_moving else None
        s = Situation(
            firer=fc, weapon=weapon, ammo=ammo, target=tc, range=int(rng or 0), firer_moving=firer_moving,
            target_moving=target_moving, overwatch=overwatch, acquisition_turns=acquisition,
            target_terrain=tuple(t.strip() for t in terrain.split(",") if t.strip()),
            brewup_hexes=brewup, elevation=elevation, angle=angle,  # type: ignore[arg-type]
            hull_down=hull_down,
        )
        d = _ForcedDice(dice, seed)
        shot = shot_at_table(game, fu, tu, s, d)
    except HexwarError as exc:
        click.echo(f"error: {exc}", err=True)
        sys.exit(2)
    if as_json:
        out = shot.as_dict()
        out["rules"] = list(game.rules_enabled)
        out["rolls"] = d.rolls
        out["seed"] = seed
        click.echo(json.dumps(out, indent=2))
        return
    click.echo(f"{fc.name} {weapon} {ammo} at {tc.name}, range {rng} (band {shot.band})")
    if game.rules_enabled:
        click.echo(f"Optional rules: {', '.join(game.rules_enabled)}")
    click.echo(f"AP factor: {shot.ap_factor}  [{shot.ap_source}] (MBT 7.4.1.3)")
    for m in shot.modifiers:
        click.echo(f"  {m.value:+d}  {m.name}  ({m.rule})".replace("+0", " 0"))
    click.echo(f"Net modifier: {shot.net:+d} (MBT 7.4.2)")
    click.echo(f"Hit number: {shot.hit_number}  [{shot.hit_source}] (MBT 7.4.3)")
    extra = f", thresholds {shot.thresholds}" if shot.thresholds else ""
    click.echo(f"Roll: {shot.roll:02d} with ROF {shot.rof}{extra} -> {shot.hits} hit(s) (MBT 7.4.4)"
               if shot.roll is not None else "No roll")
    for h in shot.hit_results:
        line = f"Hit {h.n}: location roll {h.location_roll:02d} -> {h.location} ({h.angle})"
        if h.armor is not None:
            line += f"; armour basis {h.armor} [{h.armor_source}]; PV {h.pv}"
            line += " -> penetrates" if h.penetrated else " -> no penetration"
        if h.damage_roll is not None:
            line += f"; damage roll {h.damage_roll:02d} -> {h.damage}"
        line += f"; effect: {h.effect}  ({', '.join(h.rules)})"
        click.echo(line)
    click.echo(_dice_line(d.rolls, given=len(dice) // 2, seed=seed, fresh=fresh))


def _checked_table_game(firer: str, target: str, options: Sequence[str], local: Iterable[object],
                        card_dirs: Sequence[str], table_dirs: Sequence[str],
                        seed: int) -> tuple[Game, Unit, Unit]:
    """:func:`table_game`, after checking the card names (so that a misspelt card is named before
    any plugin is loaded)."""
    from hexwar.plugins.mbt.cards import load_cards

    cards = load_cards(card_dirs)
    for name in (firer, target):
        if name not in cards:
            raise HexwarError(f"no card {name!r}; cards: {', '.join(sorted(cards))}")
    return table_game(firer, target, options=options, local_plugins=local, card_dirs=card_dirs,
                      table_dirs=table_dirs, seed=seed)


@mbt_group.command("cards")
@click.option("--cards", "card_dirs", multiple=True, type=click.Path(exists=True),
              help="Your own card files or folders (replace shipped cards by name).")
@click.option("--check", is_flag=True, help="Compare every card number the rulebook discloses.")
@click.option("--json", "as_json", is_flag=True)
def cards_cmd(card_dirs: tuple[str, ...], check: bool, as_json: bool) -> None:
    """List the data cards in use and how many of their values are cited or estimated."""
    from hexwar.core.provenance import SourceKind
    from hexwar.plugins.mbt.cards import CARD_DISCLOSED, check_card_disclosures, load_cards

    try:
        loaded = load_cards(card_dirs)
    except HexwarError as exc:
        click.echo(f"error: {exc}", err=True)
        sys.exit(2)
    if check:
        problems = check_card_disclosures(loaded)
        for p in problems:
            click.echo(f"✗ {p}", err=True)
        if problems:
            sys.exit(1)
        click.echo(f"✓ every disclosed card number agrees ({len(CARD_DISCLOSED)} checked)")
        return

    rows = []
    for name, card in sorted(loaded.items()):
        rec = card.records
        rows.append({"name": name, "id": card.id, "file": rec.path,
                     "cited": rec.count(SourceKind.CITED),
                     "estimated": rec.count(SourceKind.ESTIMATED),
                     "transcription": rec.count(SourceKind.TRANSCRIPTION)})
    if as_json:
        click.echo(json.dumps(rows, indent=2))
        return
    for r in rows:
        click.echo(f"{r['id']:<8} {r['name']:<12} cited {r['cited']:>3}  estimated {r['estimated']:>4}"
                   f"  transcription {r['transcription']:>3}  {r['file']}")


# -- the TO&E ("Doing Your Own Scenarios" B.3) ---------------------------------------------------


@mbt_group.command("points")
@click.argument("organization")
@click.option("--nation", default=None, help="USA, FRG or USSR (needed when a name exists in several).")
@click.option("--variant", default=None, help="Variant letter (a, b, ..., aa, ...).")
@click.option("--grade", type=click.Choice(GRADES), default="average", show_default=True)
@click.option(
    "--doctrine/--no-doctrine",
    default=None,
    help="Apply Soviet doctrine (the organization's own scope) or none; default: as the TO&E prints it.",
)
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
def points_command(
    organization: str,
    nation: str | None,
    variant: str | None,
    grade: str,
    doctrine: bool | None,
    as_json: bool,
) -> None:
    """Point value of a TO&E ORGANIZATION (or single unit) with its MBT B.3 breakdown."""
    from hexwar.plugins.mbt.toe.catalog import LargerOrganization, ToeError, _nation, load, printed_price
    from hexwar.plugins.mbt.toe.points import Grade
    from hexwar.plugins.mbt.toe.report import (
        breakdown_dict,
        doctrine_scope,
        larger_dict,
        render,
        render_larger,
        unit_dict,
        unit_match,
    )

    toe = load()
    g = Grade.parse(grade)
    try:
        nat = _nation(nation)
        try:
            found = toe.find(organization, nat)
        except ToeError:
            unit = unit_match(toe, organization, nat)
            if unit is None or variant is not None:
                raise
            if doctrine and unit.nation != "USSR":
                raise ToeError(
                    f"doctrine is a Soviet rule (MBT 13.4); {unit.nation} {unit.label!r} has none"
                ) from None
            d = unit_dict(unit, g, bool(doctrine))
            if as_json:
                click.echo(json.dumps(d, indent=2, ensure_ascii=False))
            else:
                doc = " with doctrine" if doctrine else ""
                click.echo(
                    f"{d['nation']} {d['unit']} ({d['card']}): {d['average']} Av x {d['multiplier']} "
                    f"({g.value}{doc}) = {d['exact']} -> {d['points']}; printed {d['printed']}"
                )
            return
        if isinstance(found, LargerOrganization):
            ld = larger_dict(toe, found, g)
            click.echo(json.dumps(ld, indent=2, ensure_ascii=False) if as_json else render_larger(ld))
            return
        v = found.variant(variant)
        scope = doctrine_scope(v, doctrine)
        p = printed_price(v, scope) if scope else v.prices[0]
        if p is not None and p.grades == (Grade.CRACK,) and g is not Grade.CRACK:
            raise ToeError(
                f"{found.nation} {found.name!r} is priced crack only (special forces, MBT 17.4.1.3.2)"
            )
        if g is not Grade.CRACK and any("Special Forces" in c.elite for c in v.components):
            raise ToeError(
                f"{found.nation} {found.name!r} {v.id} has special forces, which must be crack "
                "(MBT 17.4.1.3.2); use --grade crack"
            )
        bd = toe.price(found, v, g, scope)
    except ToeError as exc:
        raise click.ClickException(str(exc)) from None
    d = breakdown_dict(toe, found, v, bd)
    click.echo(json.dumps(d, indent=2, ensure_ascii=False) if as_json else render(d))


@mbt_group.command("orgs")
@click.option("--nation", default=None, help="USA, FRG or USSR.")
@click.option("--json", "as_json", is_flag=True)
def orgs_command(nation: str | None, as_json: bool) -> None:
    """List the TO&E organizations (basic, frequently attached, larger) with their variants."""
    from hexwar.plugins.mbt.toe.catalog import ToeError, _nation, load

    toe = load()
    try:
        nat = _nation(nation)
    except ToeError as exc:
        raise click.ClickException(str(exc)) from None
    rows: list[dict[str, Any]] = []
    for org in toe.iter_organizations(nat):
        rows.append(
            {
                "nation": org.nation,
                "name": org.name,
                "part": org.part,
                "kind": org.kind,
                "variants": [v.id for v in org.variants],
            }
        )
    for (n, _), lo in toe.larger.items():
        if nat is None or n == nat:
            rows.append(
                {
                    "nation": n,
                    "name": lo.name,
                    "part": "larger",
                    "kind": "reference only" if lo.reference_only else "formable",
                    "variants": [],
                }
            )
    if as_json:
        click.echo(json.dumps(rows, indent=2, ensure_ascii=False))
        return
    for r in rows:
        vs = r["variants"]
        var = "" if not vs or vs == [""] else f" [{vs[0]}-{vs[-1]}, {len(vs)} variants]"
        click.echo(f"{r['nation']:4} {r['part']:8} {r['name']}{var}")


@mbt_group.command("gp")
@click.argument("firer")
@click.argument("target")
@click.option("--range", "rng", type=int, required=True, help="Range in hexes (MBT 4.7).")
@click.option("--moving", is_flag=True, help="Firer has FM or OR orders: the MV line (MBT 14.4.1).")
@click.option("--target-moving", is_flag=True, help="Target moves (MBT 14.4.2.2.4).")
@click.option("--overwatch", is_flag=True, help="Firer fires on OW orders (MBT 14.4.2.1.8).")
@click.option("--woods", is_flag=True, help="Target vehicle in woods (MBT 14.4.2.2.2).")
@click.option("--building", is_flag=True, help="Target vehicle in a building hex (MBT 14.4.2.2.1).")
@click.option("--hull-down", is_flag=True, help="Target vehicle hull down (MBT 14.4.2.2.3).")
@click.option("--suppressed", is_flag=True, help="Firer suppressed (MBT 14.4.2.1.3).")
@click.option("--crew-losses", type=click.IntRange(0, 9), default=0, help="Firer's crew losses.")
@click.option("--acquisition", type=click.IntRange(0, 99), default=0,
              help="Consecutive Turns of GP fire at this target (MBT 14.4.2.1.1).")
@click.option("--brewup", type=click.IntRange(0, 99), default=0, help="Brew-up smoke hexes.")
@click.option("--smoke", type=click.IntRange(0, 99), default=0, help="Other smoke hexes.")
@click.option("--grade", type=click.Choice(["poor", "average", "crack"]), default="average",
              show_default=True, help="Firer grade (MBT 14.4.2.4).")
@click.option("--buttoned", is_flag=True, help="Target vehicle buttoned (MBT 14.4.4.2.3.1).")
@click.option("--dice", default="", callback=_dice_option,
              help="The two-dice roll, e.g. 72 (random if not given).")
@click.option("--seed", type=int, default=0, help="Seed for a roll not given with --dice.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
def gp_cmd(firer: str, target: str, rng: int, moving: bool, target_moving: bool, overwatch: bool,
           woods: bool, building: bool, hull_down: bool, suppressed: bool, crew_losses: int,
           acquisition: int, brewup: int, smoke: int, grade: str, buttoned: bool, dice: list[int],
           seed: int, as_json: bool) -> None:
    """Resolve one GP point effect shot of the Advanced Game at a vehicle (MBT 14.4): FIRER and
    TARGET are card names; every modifier is printed with its rule, then the roll and result."""
    from hexwar.plugins.mbt import gp_fire
    from hexwar.plugins.mbt.advanced_tables import load_advanced
    from hexwar.plugins.mbt.cards import load_cards

    cards = load_cards()
    for name in (firer, target):
        if name not in cards:
            click.echo(f"error: no card {name!r}; cards: {', '.join(sorted(cards))}", err=True)
            sys.exit(2)
    fc, tc = cards[firer], cards[target]
    weapon = fc.main_gun
    factor = gp_fire.card_gp_factor(fc, weapon.name, rng, moving) if weapon else None
    if weapon is None or factor is None:
        line = "MV" if moving else "NM"
        click.echo(f"error: {firer} has no GP {line} factor at range {rng} (MBT 14.4.1)", err=True)
        sys.exit(2)
    gs = gp_fire.GpSituation(range=rng, acquisition=acquisition, crew_losses=crew_losses,
                             suppressed=suppressed, brewup=brewup, other_smoke=smoke,
                             overwatch=overwatch, target_vehicle=tc.kind == "vehicle",
                             building=building, woods=woods, hull_down=hull_down,
                             target_moving=target_moving, grade=grade)
    mods = gp_fire.modifiers_of(gs)
    net = int(sum(m.value for m in mods))
    n, s, src = load_advanced().gp_thresholds(factor, tc.gp_defense)
    d = _ForcedDice(dice, seed)
    roll = d.d100("GP fire")
    result = gp_fire.outcome(roll + net, n, s)
    effects = gp_fire.effects_of(result, target_open=not buttoned, missile_in_flight=False,
                                 explosive=gp_fire.card_explosive_result(fc, weapon.name,
                                                                         tc.gp_defense))
    if as_json:
        click.echo(json.dumps({
            "firer": fc.name, "weapon": weapon.name, "target": tc.name, "range": rng,
            "gp_factor": factor, "gp_defense": tc.gp_defense,
            "modifiers": [m.as_dict() for m in mods], "net": net, "roll": roll,
            "modified": roll + net, "n": n, "s": s, "table_source": src, "result": result,
            "effects": effects, "rolls": d.rolls}, indent=2))
        return
    click.echo(f"{fc.name} {weapon.name} GP at {tc.name}, range {rng}")
    click.echo(f"GP factor: {factor} ({'MV' if moving else 'NM'} line, MBT 14.4.1); "
               f"GP defense: {tc.gp_defense} [{tc.source('target.gp_defense')}] (MBT 14.4.3.1)")
    for m in mods:
        click.echo(f"  {m.value:+d}  {m.name}  ({m.rule})")
    click.echo(f"Net modifier: {net:+d} (MBT 14.4.2)")
    click.echo(f"GP COMBAT RESULTS TABLE {factor} vs {tc.gp_defense}: N up to {n}, S up to {s} "
               f"[{src}] (MBT 14.4.4.1)")
    click.echo(f"Roll: {roll:02d} {net:+d} = {roll + net} -> {result} (MBT 14.4.4.1)")
    click.echo(f"Effect on {'a buttoned' if buttoned else 'an open'} vehicle: "
               f"{', '.join(effects) or 'none'} (MBT 14.4.4.2)")
