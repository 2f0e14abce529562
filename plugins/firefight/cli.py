"""Table-side adjudication: ``hexwar firefight fire`` resolves one attack with the game's own rules
functions (fire.execute_attack) on a scenario's set-up or a saved game's position.

``--option NAME`` (repeatable) enables an optional rule for the shot, built into the game exactly
as a scenario's ``rules`` would be: a built-in rule (``firefight.short_halt``) or any installed
third-party rule plugin, whose ``firefight_*`` hooks then change the numbers shown.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from hexwar.core.errors import HexwarError, RulesError

if TYPE_CHECKING:
    from hexwar.core.engine.game import Game


def load_game(source: str, options: Sequence[str] = (),
              local_plugins: Sequence[object] = ()) -> Game:
    """A game at a scenario's set-up (registered name, ``firefight:`` name or path) or at a
    saved game's position. ``options`` enables optional rules (installed plugins, or among
    ``local_plugins``: objects with a ``PLUGIN`` manifest that are not installed) for a
    scenario's set-up; a saved game keeps the rules it was played with."""
    from hexwar.core.engine.game import Game
    from hexwar.core.manager import Hooks, discovery_manager
    from hexwar.core.scenario import Scenario

    path = Path(source)
    if path.exists() and path.suffix != ".toml":
        from hexwar.core.engine.record import load_saved
        from hexwar.core.engine.replay import rebuild

        if options:
            raise HexwarError("--option enables rules at a scenario's set-up; a saved game "
                              "keeps the rules it was played with")
        return rebuild(load_saved(path))
    if not path.exists():
        sources = {s.name: s for s in Hooks(discovery_manager()).data_sources("scenario")}
        name = source if source in sources else f"firefight:{source}"
        if name not in sources and source.startswith("scenario") and source[8:].isdigit():
            name = f"firefight:scenario-{source[8:]}"
        if name not in sources:
            raise HexwarError(f"no scenario file or registered scenario {source!r}")
        path = Path(sources[name].path)
    return Game(Scenario.load(path), seed=0, options=tuple(options),
                local_plugins=tuple(local_plugins))


def parse_dice(text: str | None) -> list[int] | None:
    """``7`` or ``3+4`` per firer, comma-separated: ``7,3+4``."""
    if not text:
        return None
    out = []
    for part in text.split(","):
        faces = [int(x) for x in part.split("+")]
        if len(faces) not in (1, 2) or (not all(1 <= f <= 6 for f in faces) and len(faces) == 2):
            raise click.BadParameter(f"bad dice {part!r}: a total 2-12 or two faces like 3+4")
        total = sum(faces)
        if not 2 <= total <= 12:
            raise click.BadParameter(f"bad dice total {total}: two dice give 2-12")
        out.append(total)
    return out


def adjudicate(game: Game, firers: list[str], target: str, weapons: dict[str, str],
               dice: list[int] | None, mode: str = "direct") -> dict[str, Any]:
    """Resolve one announced attack (Firefight 6.0, 6.3) and return every number that produced it."""
    from hexwar.plugins.firefight.fire import execute_attack

    if not firers:
        raise RulesError("name at least one firing unit", rule="Firefight 6.0")
    side = game.unit(firers[0]).side
    t = game.unit(target)
    before = {"target": target, "target_type": t.type, "target_hex":
              None if t.hex is None else game.board.label(t.hex)}
    outcomes = execute_attack(game, side, firers, target, weapons, mode, rolls=dice)
    return {**before, "side": side, "mode": mode, "rules": list(game.rules_enabled),
            "attacks": outcomes}


def render(report: dict[str, Any]) -> str:
    lines = [f"Attack on {report['target']} ({report['target_type']}) in "
             f"{report['target_hex']} - {report['mode']} fire (Firefight 6.0)"]
    if report.get("rules"):
        lines.append(f"  optional rules: {', '.join(report['rules'])}")
    for a in report["attacks"]:
        if "weapon" not in a:
            lines.append(f"  {a['firer']}: {a.get('note', '')}")
            continue
        lines.append(f"  {a['firer']} with {a['weapon']} at range {a['range']}:")
        lines.append(f"    attack rating {a['base']} ({a['base_source']})")
        for m in a["modifiers"]:
            lines.append(f"    {m['value']:+g} {m['name']} {m['rule']}")
        if a.get("ar") is not None:
            lines.append(f"    final attack rating {a['ar']}")
        lines.append(f"    terrain filters: {', '.join(a['filters']) or 'none'} (Firefight 6.7)")
        lines.append(f"    dice {a['roll']}: table {a.get('table', '-')} -> result {a['result']}"
                     f" ({a.get('applied', '')})")
        if a.get("note"):
            lines.append(f"    {a['note']}")
    return "\n".join(lines)


@click.group("firefight")
def firefight_group() -> None:
    """Firefight table-side commands."""


@firefight_group.command("fire")
@click.argument("source")
@click.option("--firer", "firers", multiple=True, required=True,
              help="Firing unit id (repeat for a multiple-unit attack, Firefight 6.3).")
@click.option("--target", required=True, help="Target unit id.")
@click.option("--weapon", "weapons", multiple=True, help="FIRER=LINE, e.g. tm1=US-Dragon.")
@click.option("--dice", default=None, help="Dice per firer: 7 or 3+4, comma-separated.")
@click.option("--seed", type=int, default=None,
              help="Seed for the dice not given with --dice (default: fresh dice, whose seed is "
                   "printed so the attack can be repeated).")
@click.option("--mode", default="direct", type=click.Choice(["direct", "opportunity"]))
@click.option("--option", "options", multiple=True, metavar="NAME",
              help="Enable an optional rule for this shot (repeat), e.g. firefight.short_halt "
                   "or an installed third-party rule.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
def fire(source: str, firers: tuple[str, ...], target: str, weapons: tuple[str, ...],
         dice: str | None, seed: int | None, mode: str, options: tuple[str, ...],
         as_json: bool) -> None:
    """Resolve an attack at a scenario's set-up or a save's position: attack rating, each
    modifier with its case number, the dice and the result. The dice are thrown fresh unless
    given (--dice) or seeded (--seed); the roll is printed with the seed that repeats it."""
    given = parse_dice(dice) or []
    fresh = seed is None
    if seed is None:  # a roll at the table is a new roll each time (issue 10)
        seed = fresh_seed()
    thrown = roll_2d6(seed, len(firers) - len(given))
    try:
        game = load_game(source, options)
        wmap = dict(w.split("=", 1) for w in weapons)
        if mode == "opportunity":
            from hexwar.plugins.firefight.state import ff

            ff(game)["mover"] = target
        report = adjudicate(game, list(firers), target, wmap,
                            given + [a + b for a, b in thrown], mode)
    except (RulesError, HexwarError) as exc:
        click.echo(f"error: {exc}", err=True)
        sys.exit(2)
    report["dice"] = {"given": given, "thrown": [list(t) for t in thrown],
                      "seed": seed if thrown else None}
    if as_json:
        click.echo(json.dumps(report, indent=2, sort_keys=True, default=str))
    else:
        click.echo(render(report))
        click.echo(_dice_line(given, thrown, seed, fresh))


def fresh_seed() -> int:
    """A seed no one chose: the dice of a table-side roll differ from one call to the next."""
    import secrets

    return secrets.randbelow(2**31)


def roll_2d6(seed: int, n: int) -> list[tuple[int, int]]:
    """``n`` throws of two six-sided dice (Firefight 4.2: an attack is resolved on 2d6)."""
    import random

    rng = random.Random(seed)
    return [(rng.randint(1, 6), rng.randint(1, 6)) for _ in range(max(0, n))]


def _dice_line(given: list[int], thrown: list[tuple[int, int]], seed: int, fresh: bool) -> str:
    parts = [f"{total} (from --dice)" for total in given]
    parts += [f"{a}+{b} = {a + b}" for a, b in thrown]
    line = f"dice: {', '.join(parts) or 'none'}"
    if thrown:
        how = "fresh" if fresh else "seeded"
        again = ",".join([*map(str, given), *(f"{a}+{b}" for a, b in thrown)])
        line += f" - {how} (seed {seed}; repeat with --seed {seed} or --dice {again})"
    return line
