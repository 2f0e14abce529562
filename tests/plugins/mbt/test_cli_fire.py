"""``hexwar mbt fire``: table-side adjudication of one shot (MBT 7.4), with optional rules."""

from __future__ import annotations

import importlib.util
import json
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from click.testing import CliRunner

from hexwar.core.manager import installed_plugins
from hexwar.plugins.mbt.cli import mbt_group, table_game
from hexwar.plugins.mbt.hookspecs import MbtHooks


def fire(*args: str, obj: Any = None) -> Any:
    return CliRunner().invoke(mbt_group, ["fire", *args], obj=obj)


def test_mbt_53_the_7_4_8_example_reproduces_with_its_dice() -> None:
    args = ["T-72M1", "Leopard 1A4", "--range", "5", "--terrain", "woods", "--dice", "06,25,60"]
    text = fire(*args)
    assert text.exit_code == 0, text.output
    for line in ("AP factor: 18", "-6  terrain: woods", "Net modifier: -6", "Hit number: 59",
                 "Roll: 06 with ROF 1 -> 1 hit(s)", "location roll 25 -> TF", "armour basis 58",
                 "PV 88 -> penetrates", "damage roll 60 -> Knk Out", "effect: KO"):
        assert line in text.output, line
    assert "Optional rules" not in text.output
    out = json.loads(fire(*args, "--json").output)
    assert out["ap_factor"] == 18 and out["net"] == -6 and out["hit_number"] == 59
    assert [m["rule"].split(" [")[0] for m in out["modifiers"]] == ["MBT 7.4.2.1", "MBT 7.4.2.2",
                                                                    "MBT 7.4.2.3.2"]
    h = out["hit_results"][0]
    assert (h["location"], h["armor"], h["pv"], h["damage"]) == ("TF", 58, 88, "Knk Out")
    assert [r["value"] for r in out["rolls"]] == [6, 25, 60]
    assert out["rules"] == []


def test_fire_flags_and_modifiers() -> None:
    out = json.loads(fire(
        "T-80A", "T-80A", "--range", "14", "--firer-moving", "--target-moving",
        "--overwatch", "--acquisition", "1", "--terrain", "scrub", "--dice", "99", "--json").output)
    values = {m["name"].split(":")[0]: m["value"] for m in out["modifiers"]}
    assert values == {"terrain": -2, "movement": -5, "acquisition": 2, "target size": -1,
                      "overwatch": -5}
    assert out["ap_factor"] == 14 and out["hits"] == 0


def test_bad_input_fails_clearly() -> None:
    r = fire("T-80A", "Tiger", "--range", "5")
    assert r.exit_code == 2 and "no card 'Tiger'" in r.output
    r = fire("T-80A", "M1A1", "--range", "33", "--ammo", "HEAT")
    assert r.exit_code == 2 and "cannot fire at range 33" in r.output
    r = fire("T-80A", "M1A1", "--range", "5", "--dice", "0,101")
    assert r.exit_code != 0 and "01-100" in r.output
    r = fire("T-80A", "M1A1", "--range", "5", "--option", "mbt.no_such_rule")
    assert r.exit_code == 2 and "unknown optional rule 'mbt.no_such_rule'" in r.output


# -- an optional rule at the table ------------------------------------------------------------

RULE = "mbt.test_sights"
MODULE = "hexwar_test_mbt_sights"
#: a third-party optional rule as a plugin author writes it (docs/plugin-guide.md)
RULE_SOURCE = '''
from hexwar.core.markers import hookimpl
from hexwar.core.types import Modifier, PluginManifest

PLUGIN = PluginManifest(name="mbt.test_sights", system="mbt", kind="rule",
                        title="Test sights", summary="+12 to every AP shot (a test rule)")


@hookimpl
def mbt_ap_modifiers(game, situation, firer, target):
    return [Modifier(f"test sights ({firer.id} at {target.id})", 12, "MBT 99.1")]
'''
ARGS = ("T-72M1", "Leopard 1A4", "--range", "5", "--terrain", "woods", "--dice", "06,25,60")


def _load_rule(tmp_path: Path) -> ModuleType:
    path = tmp_path / f"{MODULE}.py"
    path.write_text(RULE_SOURCE, encoding="utf-8")
    spec = importlib.util.spec_from_file_location(MODULE, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture
def installed_rule(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """The rule installed as a distribution with an entry point (a dist-info folder on sys.path)."""
    (tmp_path / f"{MODULE}.py").write_text(RULE_SOURCE, encoding="utf-8")
    info = tmp_path / "hexwar_test_mbt_sights-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: hexwar-test-mbt-sights\n"
                                   "Version: 1.0\n", encoding="utf-8")
    (info / "entry_points.txt").write_text(f"[hexwar.plugins]\n{RULE} = {MODULE}\n", encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    assert RULE in installed_plugins(refresh=True)
    yield RULE
    monkeypatch.undo()
    sys.modules.pop(MODULE, None)
    assert RULE not in installed_plugins(refresh=True)


def test_an_installed_rule_changes_the_shot_it_is_enabled_for(installed_rule: str) -> None:
    plain = fire(*ARGS)
    ruled = fire(*ARGS, "--option", installed_rule)
    assert plain.exit_code == 0 and ruled.exit_code == 0, ruled.output
    assert "test sights" not in plain.output and "Hit number: 59" in plain.output
    assert f"Optional rules: {installed_rule}" in ruled.output
    assert "+12  test sights (firer at target)  (MBT 99.1)" in ruled.output
    assert "Net modifier: +6" in ruled.output and "Hit number: 59" not in ruled.output
    a = json.loads(fire(*ARGS, "--json").output)
    b = json.loads(fire(*ARGS, "--option", installed_rule, "--json").output)
    assert b["rules"] == [installed_rule] and b["net"] == a["net"] + 12
    assert b["hit_number"] > a["hit_number"]
    assert b["modifiers"][-1]["name"] == "test sights (firer at target)"


def test_a_local_rule_works_the_same_as_an_installed_one(tmp_path: Path,
                                                         installed_rule: str) -> None:
    installed = fire(*ARGS, "--option", RULE)
    local_dir = tmp_path / "local"
    local_dir.mkdir()
    local = fire(*ARGS, "--option", RULE, obj={"local_plugins": [_load_rule(local_dir)]})
    assert local.exit_code == 0, local.output
    assert local.output == installed.output


def test_a_local_rule_without_an_installation(tmp_path: Path) -> None:
    rule = _load_rule(tmp_path)
    assert "test sights" in fire(*ARGS, "--option", RULE, obj={"local_plugins": [rule]}).output
    # offered but not enabled: no effect
    assert "test sights" not in fire(*ARGS, obj={"local_plugins": [rule]}).output


def test_the_table_game_is_a_game_with_the_rule_and_two_units_on_no_hex(tmp_path: Path) -> None:
    rule = _load_rule(tmp_path)
    game, firer, target = table_game("T-72M1", "Leopard 1A4", options=[RULE], local_plugins=[rule])
    assert game.rules_enabled == (RULE,) and MbtHooks.of(game).implemented() == {"mbt_ap_modifiers"}
    assert (firer.hex, target.hex) == (None, None) and not game.state.units
    assert (firer.side, target.side) == ("Soviet", "NATO")


@pytest.mark.parametrize("bad", ["x", "06,x", "6.5", "-5", "1e2", "٣"])
def test_bad_dice_is_a_usage_error_naming_the_value(bad: str) -> None:
    """``--dice x`` crashed with a ValueError traceback: now exit 2 naming the option and value."""
    r = fire("T-72M1", "Leopard 1A4", "--range", "5", "--dice", bad)
    assert r.exit_code == 2, r.output
    assert r.exception is None or isinstance(r.exception, SystemExit)
    assert "--dice" in r.output and bad.split(",")[-1] in r.output and "01-100" in r.output
    assert "Traceback" not in r.output


def test_bad_dice_through_the_hexwar_command() -> None:
    import subprocess

    r = subprocess.run([sys.executable, "-m", "hexwar.core", "mbt", "fire", "T-72M1",
                        "Leopard 1A4", "--range", "5", "--dice", "x"],
                       capture_output=True, text=True, timeout=60, check=False)
    assert r.returncode == 2, r.stderr
    assert "'x'" in r.stderr and "--dice" in r.stderr and "Traceback" not in r.stderr


def test_dice_00_reads_as_100() -> None:
    out = json.loads(fire("T-72M1", "Leopard 1A4", "--range", "5", "--dice", "00,25,60",
                          "--json").output)
    assert out["rolls"][0]["value"] == 100 and out["hits"] == 0
