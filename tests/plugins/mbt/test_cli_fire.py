"""``hexwar mbt fire``: table-side adjudication of one shot (MBT 7.4)."""

from __future__ import annotations

import json

from click.testing import CliRunner

from hexwar.core.cli import cli
from hexwar.plugins.mbt.plugin import hexwar_register_commands

hexwar_register_commands(cli)


def test_mbt_53_the_7_4_8_example_reproduces_with_its_dice() -> None:
    args = ["mbt", "fire", "T-72M1", "Leopard 1A4", "--range", "5", "--terrain", "woods",
            "--dice", "06,25,60"]
    text = CliRunner().invoke(cli, args)
    assert text.exit_code == 0, text.output
    for line in ("AP factor: 18", "-6  terrain: woods", "Net modifier: -6", "Hit number: 59",
                 "Roll: 06 with ROF 1 -> 1 hit(s)", "location roll 25 -> TF", "armour basis 58",
                 "PV 88 -> penetrates", "damage roll 60 -> Knk Out", "effect: KO"):
        assert line in text.output, line
    out = json.loads(CliRunner().invoke(cli, [*args, "--json"]).output)
    assert out["ap_factor"] == 18 and out["net"] == -6 and out["hit_number"] == 59
    assert [m["rule"].split(" [")[0] for m in out["modifiers"]] == ["MBT 7.4.2.1", "MBT 7.4.2.2",
                                                                    "MBT 7.4.2.3.2"]
    h = out["hit_results"][0]
    assert (h["location"], h["armor"], h["pv"], h["damage"]) == ("TF", 58, 88, "Knk Out")
    assert [r["value"] for r in out["rolls"]] == [6, 25, 60]


def test_fire_flags_and_modifiers() -> None:
    out = json.loads(CliRunner().invoke(cli, [
        "mbt", "fire", "T-80A", "T-80A", "--range", "14", "--firer-moving", "--target-moving",
        "--overwatch", "--acquisition", "1", "--terrain", "scrub", "--dice", "99", "--json"]).output)
    values = {m["name"].split(":")[0]: m["value"] for m in out["modifiers"]}
    assert values == {"terrain": -2, "movement": -5, "acquisition": 2, "target size": -1,
                      "overwatch": -5}
    assert out["ap_factor"] == 14 and out["hits"] == 0


def test_bad_input_fails_clearly() -> None:
    r = CliRunner().invoke(cli, ["mbt", "fire", "T-80A", "Tiger", "--range", "5"])
    assert r.exit_code == 2 and "no card 'Tiger'" in r.output
    r = CliRunner().invoke(cli, ["mbt", "fire", "T-80A", "M1A1", "--range", "33", "--ammo", "HEAT"])
    assert r.exit_code == 2 and "cannot fire at range 33" in r.output
    r = CliRunner().invoke(cli, ["mbt", "fire", "T-80A", "M1A1", "--range", "5", "--dice", "0,101"])
    assert r.exit_code != 0 and "01-100" in r.output
