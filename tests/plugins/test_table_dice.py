"""The table-side commands roll fresh dice unless --dice or --seed is given, and print the roll
with the seed that repeats it (issue 10: the fixed default seed rolled the same every time)."""

from __future__ import annotations

import re

import click
from click.testing import CliRunner

from hexwar.plugins.firefight.cli import firefight_group
from hexwar.plugins.firepower.cli import firepower
from hexwar.plugins.mbt.cli import mbt_group

#: the systems' command groups, as ``hexwar <system>`` adds them
cli = click.Group(commands={"firefight": firefight_group, "mbt": mbt_group,
                            "firepower": firepower})

COMMANDS = {
    "firefight": ["firefight", "fire", "firefight:scenario-2", "--firer", "t62-su1",
                  "--target", "m150-us1"],
    "mbt": ["mbt", "fire", "T-72M1", "M1A1", "--range", "10"],
    "firepower": ["firepower", "fire", "RFL", "12", "--roll"],
}
SEED = re.compile(r"seed (\d+); repeat with --seed \1")


def _run(args: list[str]) -> str:
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 0, result.output
    return result.output


def test_each_call_throws_fresh_dice_and_prints_how_to_repeat_them() -> None:
    for system, args in COMMANDS.items():
        outputs = [_run(args) for _ in range(4)]
        seeds = [SEED.search(out) for out in outputs]
        assert all(seeds), f"{system}: no seed printed in {outputs[0]!r}"
        assert len({m.group(1) for m in seeds if m}) > 1, f"{system}: the same seed every time"
        assert all("fresh" in out for out in outputs)
        again = _run([*args, "--seed", seeds[0].group(1)])  # type: ignore[union-attr]
        # the seed repeats the very roll: the same output but for fresh -> seeded
        assert again == outputs[0].replace(" - fresh (", " - seeded ("), system


def test_given_dice_are_used_as_given() -> None:
    ff = _run([*COMMANDS["firefight"], "--dice", "3+4"])
    assert "dice 7:" in ff and "dice: 7 (from --dice)" in ff and "seed" not in ff
    mbt = _run([*COMMANDS["mbt"], "--dice", "06,25,60"])
    assert mbt.splitlines()[-1].startswith("Dice: 06 (to hit") and "from --dice" in mbt
    fp = _run(["firepower", "fire", "RFL", "12", "--dice", "9,9,9,9,9,9"])
    assert "rolled 9" in fp and "from --dice" in fp


def test_firepower_without_dice_still_stops_at_the_first_roll() -> None:
    out = _run(["firepower", "fire", "RFL", "12"])
    assert "hit number" in out and "dice:" not in out and "rolled" not in out
