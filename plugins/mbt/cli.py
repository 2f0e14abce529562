"""``hexwar mbt ...``: table-side adjudication for players of the board game.

``mbt_group`` is shared: the TO&E helper adds ``points`` to it (``from hexwar.plugins.mbt.cli import
mbt_group``); this module adds ``fire`` and ``cards``.
"""

from __future__ import annotations

import json
import sys
from typing import Any

import click

from hexwar.core.errors import HexwarError

mbt_group = click.Group("mbt", help="MBT (Avalon Hill): table-side adjudication and data.")


def _dice_faces(text: str) -> list[int]:
    """``"06,25,60"`` (two-dice rolls, 01-100) -> faces white, coloured for each (MBT 4.2)."""
    faces: list[int] = []
    for part in text.replace(" ", "").split(","):
        if not part:
            continue
        v = int(part)
        if not 1 <= v <= 100:
            raise click.BadParameter(f"a two-dice roll is 01-100 (00 = 100), not {part}")
        v %= 100
        faces += [v // 10, v % 10]
    return faces


class _ForcedDice:
    """Dice read from ``--dice``, then random ones (recorded so the output shows every roll)."""

    def __init__(self, faces: list[int], seed: int) -> None:
        from hexwar.core.dice import Dice

        self.rolls: list[dict[str, Any]] = []
        self._dice = Dice(seed, on_roll=lambda r: self.rolls.append(r.as_dict()))
        self._dice.force(*faces)

    def d100(self, purpose: str) -> int:
        return self._dice.d100(purpose)


@mbt_group.command("fire")
@click.argument("firer")
@click.argument("target")
@click.option("--ammo", default="APFSDS", show_default=True, help="Ammunition (APFSDS, HEAT, ATGM...).")
@click.option("--weapon", default=None, help="Weapon name (default: the main gun; the missile for ATGM).")
@click.option("--range", "rng", type=int, required=True, help="Range in hexes (MBT 4.7).")
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
@click.option("--hull-down", is_flag=True, help="Target hull down (Advanced 13.2.2.3).")
@click.option("--dice", default="", help="Two-dice rolls in order, e.g. 06,25,60 (to hit, location, damage).")
@click.option("--cards", "card_dirs", multiple=True, type=click.Path(exists=True),
              help="Your own data card files or folders (replace shipped cards by name).")
@click.option("--tables", "table_dirs", multiple=True, type=click.Path(exists=True, file_okay=False),
              help="A table pack replacing shipped Game Card charts by name.")
@click.option("--seed", type=int, default=0, help="Seed for rolls not given with --dice.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
def fire(firer: str, target: str, ammo: str, weapon: str | None, rng: int, terrain: str,
         firer_moving: bool, target_moving: bool, overwatch: bool, acquisition: int, brewup: int,
         elevation: str, angle: str, hull_down: bool, dice: str, card_dirs: tuple[str, ...],
         table_dirs: tuple[str, ...], seed: int, as_json: bool) -> None:
    """Resolve one AP point effect shot (MBT 7.4): FIRER and TARGET are card names (T-72M1)."""
    from hexwar.plugins.mbt.charts import load_charts
    from hexwar.plugins.mbt.datacards import load_cards
    from hexwar.plugins.mbt.fire import DEFAULT_PIPELINE, Situation

    try:
        cards = load_cards(card_dirs)
        charts = load_charts(table_dirs)
        for name in (firer, target):
            if name not in cards:
                raise HexwarError(f"no card {name!r}; cards: {', '.join(sorted(cards))}")
        fc, tc = cards[firer], cards[target]
        if weapon is None:
            w = fc.missiles[0] if ammo == "ATGM" and fc.missiles else fc.main_gun
            if w is None:
                raise HexwarError(f"{firer} has no main gun")
            weapon = w.name
        s = Situation(
            firer=fc, weapon=weapon, ammo=ammo, target=tc, range=rng, firer_moving=firer_moving,
            target_moving=target_moving, overwatch=overwatch, acquisition_turns=acquisition,
            target_terrain=tuple(t.strip() for t in terrain.split(",") if t.strip()),
            brewup_hexes=brewup, elevation=elevation, angle=angle,  # type: ignore[arg-type]
            hull_down=hull_down,
        )
        d = _ForcedDice(_dice_faces(dice), seed)
        shot = DEFAULT_PIPELINE.resolve(s, charts, d)
    except HexwarError as exc:
        click.echo(f"error: {exc}", err=True)
        sys.exit(2)
    if as_json:
        out = shot.as_dict()
        out["rolls"] = d.rolls
        click.echo(json.dumps(out, indent=2))
        return
    click.echo(f"{fc.name} {weapon} {ammo} at {tc.name}, range {rng} (band {shot.band})")
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


@mbt_group.command("cards")
@click.option("--cards", "card_dirs", multiple=True, type=click.Path(exists=True),
              help="Your own card files or folders (replace shipped cards by name).")
@click.option("--check", is_flag=True, help="Compare every card number the rulebook discloses.")
@click.option("--json", "as_json", is_flag=True)
def cards_cmd(card_dirs: tuple[str, ...], check: bool, as_json: bool) -> None:
    """List the data cards in use and how many of their values are cited or estimated."""
    from hexwar.core.provenance import SourceKind
    from hexwar.plugins.mbt.datacards import CARD_DISCLOSED, check_card_disclosures, load_cards

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


def _add_toe_commands() -> None:
    """Add the TO&E helper's ``points`` and ``orgs`` commands (plugins/mbt/toe/cli.py) if present."""
    try:
        from hexwar.plugins.mbt.toe import cli as toe_cli
    except ImportError:  # the TO&E part is not installed
        return
    for name in ("points_command", "orgs_command"):
        cmd = getattr(toe_cli, name, None)
        if isinstance(cmd, click.Command) and cmd.name not in mbt_group.commands:
            mbt_group.add_command(cmd)


_add_toe_commands()
