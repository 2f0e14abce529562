"""The worked example of docs/plugin-guide.md, done as the guide does it.

``examples/hexwar-house-rules`` (one house rule, fog, for each built-in system) is installed with
pip into a temporary folder put on ``sys.path``, found through its entry points like any installed
package, and then changes what a player sees: the table-side fire command of each system, run
without and with ``--option <rule>``, and a game played with the Firefight rule.

The package is copied before it is built, so the build never writes into the repository, and the
folder leaves ``sys.path`` (and the plugin registry is refreshed) when this module is done, so no
other test sees the house rules.
"""

from __future__ import annotations

import importlib
import json
import re
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from hexwar.core.cli import cli
from hexwar.core.manager import installed_plugins, options_of
from hexwar.core.testing import check_plugin_contract, make_game
from hexwar.core.types import Modifier, total

HOUSE_RULES = Path(__file__).resolve().parents[1] / "examples" / "hexwar-house-rules"
RULES = ("firefight.fog", "mbt.fog", "firepower.fog")


class OptionPending(AssertionError):
    """The system's table-side fire command has no ``--option`` yet."""


@pytest.fixture(scope="module", autouse=True)
def house_rules(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """``pip install --no-deps --target <tmp> examples/hexwar-house-rules``, on ``sys.path``."""
    source = tmp_path_factory.mktemp("source") / HOUSE_RULES.name
    shutil.copytree(HOUSE_RULES, source, ignore=shutil.ignore_patterns(
        "build", "*.egg-info", "__pycache__", ".pytest_cache"))
    target = tmp_path_factory.mktemp("site-packages")
    done = subprocess.run(
        [sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--no-compile",
         "--target", str(target), str(source)],
        capture_output=True, text=True, timeout=600, check=False)
    assert done.returncode == 0, f"pip install failed:\n{done.stdout}\n{done.stderr}"
    sys.path.insert(0, str(target))
    try:
        importlib.invalidate_caches()
        installed_plugins(refresh=True)
        for system in ("firefight", "mbt", "firepower"):  # as `hexwar` does at start-up
            installed_plugins()[system].module.hexwar_register_commands(group=cli)
        yield target
    finally:
        sys.path.remove(str(target))
        for name in [m for m in sys.modules if m.split(".")[0] == "hexwar_house_rules"]:
            del sys.modules[name]
        importlib.invalidate_caches()
        installed_plugins(refresh=True)


def hexwar(*args: str) -> str:
    """``hexwar ARGS`` through click's runner; its output (fails on a non-zero exit)."""
    out = CliRunner().invoke(cli, list(args))
    if out.exit_code != 0 and re.search(r"No such option:? '?--option\b", out.output):
        raise OptionPending(out.output)
    assert out.exit_code == 0, out.output
    return out.output


def hexwar_json(*args: str) -> Any:
    return json.loads(hexwar(*args, "--json"))


def names(modifiers: list[dict[str, Any]]) -> list[str]:
    return [m["name"] for m in modifiers]


# -- installed and found -----------------------------------------------------------------------


@pytest.mark.parametrize("rule", RULES)
def test_found_through_its_entry_point_and_meets_the_contract(rule: str) -> None:
    plugin = installed_plugins()[rule]
    assert plugin.distribution == "hexwar-house-rules"
    assert plugin.module.__name__ == f"hexwar_house_rules.{rule.replace('.', '_')}"
    assert (plugin.manifest.kind, plugin.manifest.system) == ("rule", rule.split(".")[0])
    assert "house rule" in plugin.manifest.title.lower()
    assert plugin.manifest.summary.startswith("House rule, in no rulebook")
    assert rule in options_of(rule.split(".")[0])
    assert check_plugin_contract(rule)


def test_hexwar_options_lists_it_as_a_house_rule() -> None:
    listed = {o["name"]: o for o in hexwar_json("options", "firefight")}
    assert listed["firefight.fog"]["title"] == "Fog (house rule)"


# -- the table-side fire commands: the same shot without and with the rule ------------------------


FIREFIGHT_SHOT = ("firefight", "fire", "firefight:scenario-2", "--firer", "m150-us1",
                  "--target", "t62-su1", "--dice", "3+4")


def test_firefight_fire_command_shows_the_fog() -> None:
    """A TOW at 34 hexes: Attack Rating 8 becomes 6, and the dice 3+4 give S instead of Km."""
    plain = hexwar_json(*FIREFIGHT_SHOT)["attacks"][0]
    fog = hexwar_json(*FIREFIGHT_SHOT, "--option", "firefight.fog")["attacks"][0]
    assert plain["range"] == fog["range"] == 34
    assert "fog" not in names(plain["modifiers"])
    assert {"name": "fog", "value": -2, "rule": "house rule firefight.fog", "stage": 0} in fog["modifiers"]
    assert (plain["ar"], fog["ar"]) == (8, 6)
    assert (plain["result"], fog["result"]) == ("Km", "S")
    text = hexwar(*FIREFIGHT_SHOT, "--option", "firefight.fog")
    assert "-2 fog house rule firefight.fog" in text and "final attack rating 6" in text


MBT_SHOT = ("mbt", "fire", "T-72M1", "Leopard 1A4", "--range", "12", "--dice", "60,25,60")


def test_mbt_fire_command_shows_the_fog() -> None:
    """At 12 hexes the net modifier falls by 5: the hit number is that of one hex of brew-up
    smoke (MBT 7.4.2.3.3, also -5), and the roll of 60 that hit now misses."""
    plain = hexwar_json(*MBT_SHOT)
    fog = hexwar_json(*MBT_SHOT, "--option", "mbt.fog")
    smoke = hexwar_json(*MBT_SHOT, "--brewup", "1")
    assert "fog" not in names(plain["modifiers"])
    assert {"name": "fog", "value": -5, "rule": "house rule mbt.fog", "stage": 0} in fog["modifiers"]
    assert fog["net"] == plain["net"] - 5 == smoke["net"]
    assert fog["hit_number"] == smoke["hit_number"] < plain["hit_number"]
    assert (plain["hits"], fog["hits"]) == (1, 0)
    assert "-5  fog  (house rule mbt.fog)" in hexwar(*MBT_SHOT, "--option", "mbt.fog")


FIREPOWER_SHOT = ("firepower", "fire", "LMG", "30", "--dice", "0,6,5,2")


def test_firepower_fire_command_shows_the_fog() -> None:
    """An LMG burst at 30 hexes (hit number 3): +2 to every roll, so the 2 that hit now misses."""
    plain = hexwar_json(*FIREPOWER_SHOT)
    fog = hexwar_json(*FIREPOWER_SHOT, "--option", "firepower.fog")
    assert plain["hit_number"] == fog["hit_number"] == 3
    before, after = plain["targets"]["target"], fog["targets"]["target"]
    assert "fog" not in names(before["modifiers"])
    assert {"name": "fog", "value": 2, "rule": "house rule firepower.fog", "stage": 0} in after["modifiers"]
    assert after["total"] == before["total"] + 2
    assert (plain["eliminated"], fog["eliminated"]) == (["target"], [])
    text = hexwar(*FIREPOWER_SHOT, "--option", "firepower.fog")
    assert "+2  fog (house rule firepower.fog)" in text and "hits on a roll of 1 or less" in text


# -- games ------------------------------------------------------------------------------------


def fire_results(game: Any) -> list[dict[str, Any]]:
    return [e for e in game.log.for_side(None) if e.get("type") == "result" and e.get("what") == "fire"]


def test_a_firefight_game_with_fog() -> None:
    """Scenario 2, the AI on both sides: every attack at more than 20 hexes is logged with the fog
    modifier and an Attack Rating 2 lower; no attack at 20 hexes or less is."""
    game = make_game("firefight:scenario-2", seed=1, options=("firefight.fog",))
    assert game.rules_enabled == ("firefight.fog",)
    ai = game.hooks.controllers()["ai"]
    game.play({side: ai.factory(side, 1) for side in game.state.sides})
    assert game.over
    shots = fire_results(game)
    fogged = [e for e in shots if "fog" in names(e["modifiers"])]
    assert fogged, "no attack at more than 20 hexes in the game"
    for e in shots:
        assert ("fog" in names(e["modifiers"])) == (e["range"] > 20), e
        if e.get("ar") is not None:
            assert e["ar"] == e["base"] + total(Modifier(**m) for m in e["modifiers"])
    for e in fogged:
        assert {"name": "fog", "value": -2, "rule": "house rule firefight.fog", "stage": 0} in e["modifiers"]


@pytest.mark.parametrize(("scenario", "rule", "value"), [("mbt:basic-a", "mbt.fog", -5),
                                                         ("firepower:basic", "firepower.fog", 2)])
def test_mbt_and_firepower_shots_in_play_show_the_fog(scenario: str, rule: str, value: int) -> None:
    """The AI plays until the first logged result with the fog modifier (a shot at long range)."""
    game = make_game(scenario, seed=1, options=(rule,))
    ai = game.hooks.controllers()["ai"]
    players = {side: ai.factory(side, 1) for side in game.state.sides}
    for _ in range(500):
        decision = game.pending
        if decision is None:
            break
        game.answer(players[decision.side].choose(decision, game.view(decision.side)))
        logged = [m for e in game.log.for_side(None) if e.get("type") == "result"
                  for m in e.get("modifiers") or () if m["name"] == "fog"]
        if logged:
            assert logged[0]["value"] == value and logged[0]["rule"] == f"house rule {rule}"
            return
    pytest.fail(f"no shot with the fog modifier in the first 500 decisions of {scenario}")
