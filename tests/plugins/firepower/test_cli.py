"""The table-side commands ``hexwar firepower fire|grenade`` (Firepower 6.3, Firepower 6.3.6.3.2),
and optional rules enabled for one shot with ``--option`` (docs/decisions.md FPD-26): an installed
entry-point rule and the same rule offered as a local plugin change the shot the same way."""

from __future__ import annotations

import json
import sys
import types
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from hexwar.core.engine.record import save_game
from hexwar.core.kit import Edit
from hexwar.core.manager import installed_plugins
from hexwar.plugins.firepower import combat
from hexwar.plugins.firepower.cli import TableSide, firepower
from hexwar.plugins.firepower.plugin import HERE
from hexwar.plugins.firepower.tables import card

BASIC = HERE / "scenarios" / "basic.toml"

#: a third-party optional rule, as a package would ship it: -1 on every shot and throw
RULE_SOURCE = '''
from hexwar.core.markers import hookimpl
from hexwar.core.types import Modifier, PluginManifest

PLUGIN = PluginManifest("firepower.steady_aim", "firepower", "rule", "Steady aim (test rule)",
                        "-1 on every shot and throw")


@hookimpl
def firepower_fire_modifiers(game, ctx, target):
    return [Modifier("steady aim", -1, "test: steady aim")]
'''


def invoke(args: list[str], *local: object) -> Any:
    result = CliRunner().invoke(firepower, args, obj=TableSide(local_plugins=local))
    assert result.exit_code == 0, result.output
    return result


def shot(args: list[str], *local: object) -> dict[str, Any]:
    out: dict[str, Any] = json.loads(invoke([*args, "--json"], *local).output)
    return out


@pytest.fixture
def installed_rule(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """The rule installed through an entry point of ``hexwar.plugins`` (a distribution on
    ``sys.path``, found by ``importlib.metadata`` as pip's would be)."""
    (tmp_path / "fp_steady_aim.py").write_text(RULE_SOURCE, encoding="utf-8")
    dist = tmp_path / "fp_steady_aim-0.1.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: fp-steady-aim\nVersion: 0.1\n",
                                   encoding="utf-8")
    (dist / "entry_points.txt").write_text(
        "[hexwar.plugins]\nfirepower.steady_aim = fp_steady_aim\n", encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    assert "firepower.steady_aim" in installed_plugins(refresh=True)
    yield "firepower.steady_aim"
    monkeypatch.undo()
    sys.modules.pop("fp_steady_aim", None)
    installed_plugins(refresh=True)


def local_rule() -> types.ModuleType:
    """The same rule as a module object that no entry point names."""
    module = types.ModuleType("fp_steady_aim_local")
    exec(compile(RULE_SOURCE, "fp_steady_aim_local", "exec"), module.__dict__)
    return module


RIFLE = ["fire", "RFL", "4", "--mode", "semi"]


def test_an_installed_rule_changes_the_shot_only_when_named(installed_rule: str) -> None:
    plain = shot(RIFLE)
    assert plain["hit_number"] == 5 and plain["targets"]["target"]["hits_on"] == 5
    assert shot(RIFLE) == plain                       # installed, not enabled: nothing changes
    out = shot([*RIFLE, "--option", installed_rule])
    assert out["options"] == [installed_rule]
    mods = out["targets"]["target"]["modifiers"]
    assert {"name": "steady aim", "value": -1, "rule": "test: steady aim"} in [
        {k: m[k] for k in ("name", "value", "rule")} for m in mods]
    assert out["targets"]["target"]["hits_on"] == 6   # hit number 5, modified -1
    text = invoke([*RIFLE, "--option", installed_rule]).output
    assert "optional rules: firepower.steady_aim" in text
    assert "-1  steady aim (test: steady aim)" in text and "hits on a roll of 6 or less" in text


def test_a_local_rule_behaves_as_the_installed_one(installed_rule: str) -> None:
    rule = local_rule()
    name = rule.PLUGIN.name
    installed = shot([*RIFLE, "--option", name, "--dice", "6,6"])
    # the local module carries the same manifest name; offered locally it replaces the installed
    local = shot([*RIFLE, "--option", name, "--dice", "6,6"], rule)
    assert local == installed
    assert installed["shots"][0] == {"target": "target", "burst": 1, "roll": 6, "modified": 5,
                                     "hit": True}


def test_a_local_rule_is_not_enabled_unless_named() -> None:
    rule = local_rule()
    assert shot(RIFLE, rule) == shot(RIFLE)
    out = shot([*RIFLE, "--option", "firepower.steady_aim"], rule)
    assert out["targets"]["target"]["total"] == -1
    r = CliRunner().invoke(firepower, [*RIFLE, "--option", "firepower.no_such_rule"])
    assert r.exit_code != 0 and "firepower.no_such_rule" in r.output


class Sharpshooter:
    """A stand-in rule that edits the fire procedure: a step after ``hit_number`` raising it."""

    PLUGIN = __import__("hexwar.core.types", fromlist=["PluginManifest"]).PluginManifest(
        "firepower.sharpshooter", "firepower", "rule", "Sharpshooter (test rule)",
        "+1 to the hit number")

    @staticmethod
    def _raise(ctx: combat.FireContext) -> None:
        ctx.hit += 1

    def firepower_fire_steps(self, game: Any, kind: str) -> list[combat.FireEdit]:
        return [Edit("insert_after", "hit_number", "sharpshooter",
                     combat.Step("sharpshooter", self._raise, "test: sharpshooter"))]


Sharpshooter.firepower_fire_steps = __import__(  # type: ignore[method-assign]
    "hexwar.core.markers", fromlist=["hookimpl"]).hookimpl(Sharpshooter.firepower_fire_steps)


def test_a_rule_editing_the_procedure_changes_the_hit_number_at_the_table() -> None:
    rule = Sharpshooter()
    out = shot([*RIFLE, "--option", "firepower.sharpshooter"], rule)
    assert out["hit_number"] == 6 and out["targets"]["target"]["hits_on"] == 6
    throw = shot(["grenade", "1C10", "1G10", "--option", "firepower.sharpshooter"], rule)
    assert throw["hit_number"] == 6                   # grenade 3-5 hexes: 5, raised by 1


def test_grenade_command_takes_optional_rules_modifiers() -> None:
    out = shot(["grenade", "1C10", "1G10", "--option", "firepower.steady_aim"], local_rule())
    assert {m["name"]: m["value"] for m in out["throw_modifiers"]} == {"steady aim": -1}
    assert out["options"] == ["firepower.steady_aim"]


def test_a_save_keeps_its_optional_rules(tmp_path: Path, fp_game: Any) -> None:
    g = fp_game([("A1", "RFL", "A", "C2", 4), ("B1", "RFL", "B", "C6", 1)])
    path = tmp_path / "game.json"
    save_game(g, path)
    ok = shot(["fire", "A1", "B1", "--situation", str(path), "--mode", "semi"])
    assert ok["range"] == 4 and ok["options"] == []
    r = CliRunner().invoke(firepower, ["fire", "A1", "B1", "--situation", str(path),
                                       "--option", "firepower.steady_aim"],
                           obj=TableSide(local_plugins=(local_rule(),)))
    assert r.exit_code != 0 and "keeps the optional rules it was played with" in r.output


def test_without_dice_the_procedure_stops_at_its_first_roll() -> None:
    out = shot(RIFLE)
    assert out["next_roll"] == "firer RFL shot at target" and out["shots"] is None


def test_commands_are_added_to_the_root_group() -> None:
    import click

    from hexwar.plugins.firepower import plugin

    @click.group()
    def root() -> None:
        pass

    plugin.hexwar_register_commands(root)
    assert set(root.commands["firepower"].commands) == {"fire", "grenade"}  # type: ignore[attr-defined]


def test_fire_command_fp_17(tmp_path: Path) -> None:
    r = CliRunner().invoke(firepower, ["fire", "LMG", "30", "--target-posture", "prone",
                                 "--also", "Y", "--dice", "0,6,5,1,8,7,8,3", "--json"])
    assert r.exit_code == 0, r.output
    out = json.loads(r.output)
    assert out["hit_number"] == 3 and out["rate_of_fire"] == "3X4"
    assert out["eliminated"] == ["target"] and out["suppressed"] == ["Y"]
    assert out["targets"]["target"]["modifiers"][0]["rule"] == "Firepower 6.3.6.2.4"
    text = CliRunner().invoke(firepower, ["fire", "RFL", "4", "--target-terrain", "tree",
                                    "--mode", "semi"])
    assert "Firepower 6.3.6.2.2" in text.output and "Firepower 6.3.6.2.3" in text.output


def test_fire_command_refuses_an_out_of_range_shot() -> None:
    r = CliRunner().invoke(firepower, ["fire", "PST", "9"])
    assert r.exit_code != 0 and "Firepower 6.3.2" in r.output


def test_grenade_command_lists_spread_and_blast() -> None:
    r = CliRunner().invoke(firepower, ["grenade", "1C10", "1G10", "--json"])
    assert r.exit_code == 0, r.output
    out = json.loads(r.output)
    assert out["hit_number"] == 5 and len(out["spread"]) == 10
    assert sorted({b["modifier"] for b in out["blast_zone"]}) == [0, 3, 4]
    assert len(out["blast_zone"]) == 19
    far = CliRunner().invoke(firepower, ["grenade", "1C10", "1K10", "--posture", "prone"])
    assert far.exit_code != 0 and "Firepower 6.3.2.1.1" in far.output


def test_fire_command_from_a_situation(tmp_path: Path) -> None:
    text = BASIC.read_text().replace(
        'id = "A1"\ntype = "firepower:LMG"\nside = "A"\n',
        'id = "A1"\ntype = "firepower:LMG"\nside = "A"\nhex = "1C10"\nfacing = 3\n').replace(
        'id = "B1"\ntype = "firepower:LMG"\nside = "B"\n',
        'id = "B1"\ntype = "firepower:LMG"\nside = "B"\nhex = "1F11"\nfacing = 6\n')
    (tmp_path / "sit.toml").write_text(text)
    r = CliRunner().invoke(firepower, ["fire", "A1", "B1", "--situation",
                                 str(tmp_path / "sit.toml"), "--json"])
    assert r.exit_code == 0, r.output
    out = json.loads(r.output)
    assert out["range"] == 3 and out["hit_number"] == card().hit_number("LMG", "auto", 3)


def test_a_situation_by_its_qualified_name_at_set_up_says_why_no_unit_is_there() -> None:
    """``--situation firepower:street-fight`` names the built-in scenario as elsewhere in the CLI;
    at its set-up no soldier stands on the board yet, and the error says so (not an empty list)."""
    r = CliRunner().invoke(firepower, ["fire", "A1", "B1", "--situation", "firepower:street-fight"])
    assert r.exit_code == 2, r.output
    assert "no unit is on the board in this situation yet" in r.output
    assert "cannot read scenario" not in r.output


def test_an_unknown_unit_of_a_situation_is_named_beside_the_units_there(tmp_path: Path) -> None:
    text = BASIC.read_text().replace(
        'id = "A1"\ntype = "firepower:LMG"\nside = "A"\n',
        'id = "A1"\ntype = "firepower:LMG"\nside = "A"\nhex = "1C10"\nfacing = 3\n')
    (tmp_path / "sit.toml").write_text(text)
    r = CliRunner().invoke(firepower, ["fire", "A1", "Z9", "--situation", str(tmp_path / "sit.toml")])
    assert r.exit_code == 2
    assert "Z9: not on the board here; units on the board: A1" in r.output
