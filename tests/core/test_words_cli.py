"""``hexwar log`` prints a game's log in words; ``hexwar play`` ends with a summary of the game
and can write the final position as SVG."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path

from click.testing import CliRunner

from hexwar.core.cli import cli
from hexwar.core.engine.record import load_log
from hexwar.core.words import fallback_sentence


def test_log_prints_every_record_in_words(tmp_path: Path) -> None:
    log = tmp_path / "game.jsonl"
    runner = CliRunner()
    assert runner.invoke(cli, ["play", "mbt:basic-a", "--log", str(log), "--seed", "1"]).exit_code == 0
    result = runner.invoke(cli, ["log", str(log)])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    saved = load_log(log)
    assert len(lines) == 1 + len(saved.events)
    assert lines[0] == "mbt:basic-a: no optional rules, seed 1"
    assert any("fires 120mm APFSDS at" in x and "[MBT 7.4" in x for x in lines)
    assert any(x.startswith("T1 Initiative Phase") and "wins the initiative" in x for x in lines)
    # no record reads as the fallback "<type>: key value"
    for line, record in zip(lines[1:], saved.events, strict=True):
        assert not line.endswith(fallback_sentence(record)), line
    as_json = runner.invoke(cli, ["log", str(log), "--json"])
    assert [json.loads(x) for x in as_json.output.splitlines()][1:] == saved.events


def test_play_ends_with_a_summary_and_can_draw_the_final_position(tmp_path: Path) -> None:
    svg = tmp_path / "end.svg"
    result = CliRunner().invoke(cli, ["play", "firepower:basic", "--final-svg", str(svg)])
    assert result.exit_code == 0, result.output
    out = result.output
    assert "wins" in out and "A lost" in out and "B lost" in out and "key events" in out
    assert "is eliminated [Firepower 6.3.6.3]" in out
    assert f"final position: {svg}" in out
    root = ET.fromstring(svg.read_text(encoding="utf-8"))
    assert root.tag.endswith("svg") and "umpire" in (root.findtext("{*}title") or "")
    data = json.loads(CliRunner().invoke(cli, ["play", "firepower:basic", "--json"]).output)
    assert data["summary"]["winner"] == data["result"]["winner"]
    assert set(data["summary"]["casualties"]) == {"A", "B"}


def test_final_svg_is_checked_before_the_game(tmp_path: Path) -> None:
    result = CliRunner().invoke(cli, ["play", "firepower:basic", "--final-svg",
                                      str(tmp_path / "nowhere" / "x.svg")])
    assert result.exit_code == 2 and "does not exist" in result.output
