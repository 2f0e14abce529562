"""``hexwar skirmish ...``: table-side commands for players using the physical game.

``hexwar skirmish fire rifles 3 woods --die 4`` works out one shot by hand (Skirmish 5.3-5.5).
"""

from __future__ import annotations

import click

from hexwar.core.types import total
from hexwar_skirmish.fire import fire_result, shot_modifiers
from hexwar_skirmish.rules import cover
from hexwar_skirmish.tables import unit_data


@click.group(name="skirmish")
def skirmish() -> None:
    """Skirmish table-side helpers."""


@skirmish.command()
@click.argument("firer", type=click.Choice(["rifles", "mg"]))
@click.argument("range_", metavar="RANGE", type=click.IntRange(1, 99))
@click.argument("terrain", type=click.Choice(["clear", "woods", "town"]))
@click.option("--moved", is_flag=True, help="The firer moved this turn (Skirmish 5.3).")
@click.option("--cover", "behind_cover", is_flag=True,
              help="Optional rule skirmish.cover: the target is behind a hedge or wall (9.1).")
@click.option("--pinned", is_flag=True, help="The target is already pinned (Skirmish 5.5).")
@click.option("--die", type=click.IntRange(1, 6), required=True, help="The die you rolled.")
def fire(firer: str, range_: int, terrain: str, moved: bool, behind_cover: bool, pinned: bool,
         die: int) -> None:
    """Work out one shot: FIRER (rifles|mg) at RANGE hexes at a target in TERRAIN."""
    data = unit_data(firer)
    if range_ > int(data["range"]):
        raise click.UsageError(f"{firer} reach {data['range']} hexes (Skirmish 2.3)")
    mods = shot_modifiers(firer, range_, terrain, moved=moved)
    if behind_cover:
        mods.append(cover.MODIFIER)
    modified = die + int(total(mods))
    result = fire_result(modified)
    rules = "Skirmish 5.4"
    if result == "pinned" and pinned:
        result, rules = "eliminated", "Skirmish 5.4, 5.5"
    for m in mods:
        click.echo(f"  {m.value:+g} {m.name} ({m.rule})")
    click.echo(f"die {die}, modified {modified}: {result} ({rules})")
