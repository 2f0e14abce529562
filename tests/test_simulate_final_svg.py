"""``hexwar simulate --final-svg``: the run's last game played again from its seed is the same
game (its decisions and result match its record), its summary printed in words (issue 10) and its
final position written as SVG."""

from __future__ import annotations

import re
from pathlib import Path

from click.testing import CliRunner

from hexwar.core.cli import cli
from hexwar.core.simulation.records import read_jsonl


def test_simulate_prints_the_last_game_in_words_and_draws_it(tmp_path: Path) -> None:
    svg, records = tmp_path / "last.svg", tmp_path / "games.jsonl"
    result = CliRunner().invoke(cli, ["simulate", "mbt:basic-a", "--games", "2", "--seed", "5",
                                      "--records", str(records), "--final-svg", str(svg)])
    assert result.exit_code == 0, result.output
    _header, games = read_jsonl(records)
    last = next(g for g in games if g.index == 1)
    assert "the last game, game 2 (seed 6):" in result.output
    found = re.search(r"seed 6: (.+) after game-turn (\d+), (\d+) decisions", result.output)
    assert found is not None, result.output
    assert int(found.group(2)) == last.turns and int(found.group(3)) == last.decisions
    assert (f"{last.winner} wins" if last.winner else "a draw") in found.group(1)
    assert re.search(r"(NATO|Soviet) lost \d+ of \d+ units", result.output)
    assert svg.read_text(encoding="utf-8").lstrip().startswith(("<svg", "<?xml"))


def test_simulate_refuses_a_final_svg_that_is_the_scenario(tmp_path: Path) -> None:
    scenario = tmp_path / "s.toml"
    source = Path(__file__).resolve().parents[1] / "plugins" / "mbt" / "scenarios" / "basic-a.toml"
    scenario.write_text(source.read_text(encoding="utf-8"), encoding="utf-8")
    result = CliRunner().invoke(cli, ["simulate", str(scenario), "--games", "1",
                                      "--final-svg", str(scenario)])
    assert result.exit_code == 2 and "--final-svg" in result.output
