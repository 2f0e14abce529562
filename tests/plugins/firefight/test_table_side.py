"""What a person at the table sees: the explanation of a decision at the terminal (numbered as
the terminal reads), and the table-side ``hexwar firefight fire`` command with optional rules,
including a third-party rule that implements ``firefight_fire_modifiers``."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

from click.testing import CliRunner

from hexwar.core.engine.controllers import TerminalController
from hexwar.core.markers import hookimpl
from hexwar.core.types import Modifier, PluginManifest
from hexwar.plugins.firefight import cli
from hexwar.plugins.firefight.cli import adjudicate, firefight_group, render
from hexwar.plugins.firefight.testing import fresh_mini_game as mini_game
from hexwar.plugins.firefight.testing import unit_spec as U

SHOT = ["fire", "firefight:scenario-2", "--firer", "t62-su1", "--target", "m150-us1",
        "--dice", "3+4"]


class SteadyAim:
    """A house rule outside the package, as a third party would write it: +2 to the Attack
    Rating of every direct fire."""

    PLUGIN = PluginManifest(name="house.steady_aim", system="firefight", kind="rule",
                            title="Steady aim", summary="+2 on direct fire (a test rule)",
                            implements=("House 1.0",))

    @staticmethod
    @hookimpl
    def firefight_fire_modifiers(game: Any, attack: dict[str, Any]) -> list[Modifier]:
        return [Modifier("steady aim", 2, "House 1.0")] if attack["mode"] == "direct" else []


def _direct_fire_decision(tmp_path: Path) -> Any:
    g = mini_game(tmp_path, [U("tm", "US-TM", "US", "1005"), U("t62", "SU-T62", "SU", "1008")])
    dec = g.pending
    assert dec is not None and dec.kind == "firefight.direct_fire" and len(dec.options) >= 2
    return g, dec


def test_explanation_numbers_options_from_one(tmp_path: Path) -> None:
    g, dec = _direct_fire_decision(tmp_path)
    text = g.hooks.explain_decision(g.view(dec.side), dec)  # reaches Firefight's explanation
    lines = text.splitlines()
    assert lines[1] == '  [1] pass'  # in words, never as JSON
    assert lines[2].startswith("  [2] ") and " fires " in lines[2]
    assert not any(line.startswith("  [0]") for line in lines)
    assert len(lines) == 1 + len(dec.options)


def test_the_number_shown_is_the_number_the_terminal_reads(tmp_path: Path) -> None:
    g, dec = _direct_fire_decision(tmp_path)
    view = g.view(dec.side)
    text = g.hooks.explain_decision(view, dec)
    second = dec.options[1]
    shown = next(line for line in text.splitlines() if line.startswith("  [2] "))
    assert second["firers"][0] in shown and second["target"] in shown
    out = io.StringIO()
    terminal = TerminalController(dec.side, stdin=io.StringIO("2\n"), stdout=out,
                                  explain=g.hooks.explain_decision)
    assert terminal.choose(dec, view) == second
    assert shown in out.getvalue()


def test_a_third_party_rule_changes_the_shot_of_the_fire_command() -> None:
    """The game the command builds with ``--option house.steady_aim`` (here offered as a local
    plugin, resolved exactly like an installed one) adds the rule's +2 to the Attack Rating."""
    plain = adjudicate(cli.load_game("firefight:scenario-2"), ["t62-su1"], "m150-us1", {}, [7])
    game = cli.load_game("firefight:scenario-2", ["house.steady_aim"], local_plugins=[SteadyAim])
    ruled = adjudicate(game, ["t62-su1"], "m150-us1", {}, [7])
    before, after = plain["attacks"][0], ruled["attacks"][0]
    assert after["ar"] == before["ar"] + 2
    assert [(m["name"], m["value"], m["rule"]) for m in after["modifiers"]] == [
        ("steady aim", 2, "House 1.0")]
    assert "+2 steady aim House 1.0" in render(ruled)
    assert "optional rules: house.steady_aim" in render(ruled)


def test_fire_command_option_reaches_the_game_it_builds(monkeypatch: Any) -> None:
    """``--option`` goes into the game the command builds; with the house rule made available to
    it, the printed final attack rating is two higher."""
    real = cli.load_game
    monkeypatch.setattr(cli, "load_game", lambda source, options=(): real(
        source, options, local_plugins=[SteadyAim]))
    plain = CliRunner().invoke(firefight_group, [*SHOT, "--json"])
    ruled = CliRunner().invoke(firefight_group, [*SHOT, "--option", "house.steady_aim", "--json"])
    assert plain.exit_code == 0 and ruled.exit_code == 0, ruled.output
    a, b = json.loads(plain.output)["attacks"][0], json.loads(ruled.output)["attacks"][0]
    assert b["ar"] == a["ar"] + 2
    text = CliRunner().invoke(firefight_group, [*SHOT, "--option", "house.steady_aim"]).output
    assert f"final attack rating {a['ar'] + 2}" in text and "+2 steady aim House 1.0" in text


def test_fire_command_option_names_an_installed_rule() -> None:
    r = CliRunner().invoke(firefight_group, [*SHOT, "--option", "firefight.smoke"])
    assert r.exit_code == 0, r.output
    assert "optional rules: firefight.smoke" in r.output
    r = CliRunner().invoke(firefight_group, [*SHOT, "--option", "firefight.smok"])
    assert r.exit_code == 2 and "firefight.smoke" in r.output
