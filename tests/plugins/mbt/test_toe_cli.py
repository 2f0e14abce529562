"""`hexwar mbt points` / `hexwar mbt orgs` (plugins/mbt/cli.py), invoked directly with CliRunner."""

from __future__ import annotations

import json

from click.testing import CliRunner

from hexwar.plugins.mbt.cli import mbt_group, orgs_command, points_command


def run(*args: str) -> tuple[int, str]:
    res = CliRunner().invoke(points_command, list(args))
    return res.exit_code, res.output


def test_points_breakdown_text() -> None:
    code, out = run("Tank Platoon (Motorized Rifle Regiment)", "--variant", "b", "--grade", "crack")
    assert code == 0
    assert "4 x T-72M1 (USSR-2A): 73 Av each" in out
    assert "x 9/10, doctrine = 262.8" in out
    assert "262.8 -> 263" in out and "printed in the TO&E: 263 (matches)" in out


def test_points_json() -> None:
    code, out = run("Armored Platoon", "--variant", "e", "--grade", "poor", "--json")
    assert code == 0
    d = json.loads(out)
    assert (d["nation"], d["points"], d["printed"], d["matches_printed"]) == ("USA", 257, 257, True)
    assert d["lines"][0]["average_each"] == 74 and d["lines"][0]["multiplier"] == "4/5"
    assert d["extra_lines"][0]["label"] == "mine plow"


def test_points_doctrine_flag_and_default() -> None:
    # Truck sections print both prices; default is the first (no doctrine), --doctrine the second.
    _, out = run("Truck Section", "--nation", "USSR", "--variant", "b", "--json")
    assert json.loads(out)["points"] == 42
    _, out = run("Truck Section", "--nation", "USSR", "--variant", "b", "--doctrine", "--json")
    assert json.loads(out)["points"] == 32
    _, out = run("Tank Platoon (Motorized Rifle Regiment)", "--variant", "b", "--no-doctrine", "--json")
    assert json.loads(out)["points"] == 292


def test_points_single_unit() -> None:
    code, out = run("T-80A", "--grade", "crack", "--doctrine")
    assert code == 0 and "-> 72" in out
    code, out = run("T-80A", "--grade", "crack", "--json")
    assert json.loads(out)["points"] == 96


def test_points_shows_erratum() -> None:
    code, out = run("Tank Platoon (Motorized Rifle Regiment)", "--variant", "f", "--grade", "crack")
    assert code == 0
    assert "printed in the TO&E: 324 (DIFFERS)" in out and "erratum [misprint]" in out


def test_unknown_organization_names_it_and_suggests() -> None:
    code, out = run("Armored Platon")
    assert code != 0
    assert "unknown organization 'Armored Platon'" in out and "Armored Platoon" in out


def test_unknown_variant_lists_variants() -> None:
    code, out = run("Armored Platoon", "--variant", "zz")
    assert code != 0 and "no variant 'zz'" in out and "a, b, c, d, e, f, g, h" in out


def test_variant_required_when_several() -> None:
    code, out = run("Armored Platoon")
    assert code != 0 and "--variant" in out


def test_ambiguous_name_asks_for_nation() -> None:
    code, out = run("Truck Section")
    assert code != 0 and "--nation" in out


def test_doctrine_rejected_for_nato() -> None:
    code, out = run("Armored Platoon", "--variant", "a", "--doctrine")
    assert code != 0 and "MBT 13.4" in out


def test_special_forces_crack_only() -> None:
    code, out = run("Special Forces Detachment", "--nation", "FRG", "--grade", "average")
    assert code != 0 and "crack only" in out


def test_artillery_constant() -> None:
    code, out = run("Organic Artillery", "--nation", "USA", "--grade", "poor", "--json")
    d = json.loads(out)
    assert code == 0 and d["constant"] and d["points"] == 500


def test_larger_organization() -> None:
    code, out = run("Tank Company", "--grade", "average", "--json")
    d = json.loads(out)
    assert code == 0 and d["nation"] == "USSR" and d["members"][0]["count"] == 1
    assert d["members"][1]["resolves_to"] == [
        "Tank Platoon (Tank Regiment)",
        "Tank Platoon (Motorized Rifle Regiment)",
    ]


def test_orgs_listing() -> None:
    res = CliRunner().invoke(orgs_command, ["--nation", "FRG"])
    assert res.exit_code == 0
    assert "Panzer Platoon [a-f, 6 variants]" in res.output
    assert "USA" not in res.output
    res = CliRunner().invoke(orgs_command, ["--json"])
    assert len(json.loads(res.output)) == 95 + 52


def test_special_forces_must_be_crack_17_4_1_3_2() -> None:
    code, out = run("Airborne Platoon", "--variant", "n", "--grade", "average")
    assert code != 0 and "MBT 17.4.1.3.2" in out
    code, out = run("Airborne Platoon", "--variant", "n", "--grade", "crack")
    assert code == 0 and "printed in the TO&E: 239 (DIFFERS)" in out
    assert "erratum [inconsistent] cr: printed 239, computed 250" in out
    assert "av: printed 199" not in out  # only the asked grade's erratum lines


def test_group_priced_mounted_variant() -> None:
    code, out = run("Engineer Platoon", "--nation", "USA", "--variant", "a", "--json")
    d = json.loads(out)
    assert code == 0 and d["points"] == 305
    assert d["extra_lines"][0]["average_each"] == 200 and "variant b" in d["extra_lines"][0]["label"]


def test_the_commands_are_part_of_the_mbt_group() -> None:
    assert mbt_group.commands["points"] is points_command
    assert mbt_group.commands["orgs"] is orgs_command
    res = CliRunner().invoke(mbt_group, ["points", "T-80A", "--grade", "crack", "--doctrine", "--json"])
    assert res.exit_code == 0 and json.loads(res.output)["points"] == 72
