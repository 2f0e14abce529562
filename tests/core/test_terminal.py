"""The human at the terminal (``--players human``): what happened since the last prompt in words,
the decision explained with numbers that are the ones it reads, large option sets in two steps,
the commands (board, log, undo, save, quit, help) and hot-seat play behind a blank screen."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from hexwar.core.cli import cli
from hexwar.core.engine.controllers import (
    TWO_STEP_OVER,
    Terminal,
    TerminalController,
    group_key,
    option_groups,
)
from hexwar.core.engine.decisions import Decision
from hexwar.core.engine.record import load_log, load_save
from tests.core.test_engine import new_game

CLEAR = "\033[2J\033[H"


def _records(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]


def test_options_group_by_who_acts() -> None:
    assert group_key({"unit": "t62-su3", "to": "1945"}) == "t62-su3"
    assert group_key({"firers": ["a", "b"], "target": "c"}) == "a, b"
    assert group_key({"t62-su4": "2247"}) == "t62-su4"  # a table of unit -> hex
    assert group_key(["3W7", 1]) == "3W7"  # MBT [hex, facing]
    assert group_key("pass") == "pass"
    options: list[Any] = ["pass", *({"unit": f"u{i % 3}", "to": str(i)} for i in range(30))]
    groups = option_groups(options)
    assert groups is not None and [k for k, _ in groups] == ["pass", "u0", "u1", "u2"]
    assert option_groups([{"unit": "u", "to": str(i)} for i in range(30)]) is None  # one group
    # one soldier's Actions and "end": a first step would only split off "end"
    assert option_groups(["end", *({"unit": "A1", "act": str(i)} for i in range(30))]) is None


def _many() -> Decision:
    options: list[Any] = ["pass", *({"unit": f"u{i % 3}", "to": f"{i:04d}"} for i in range(30))]
    assert len(options) > TWO_STEP_OVER
    return Decision("red", "move", options=options, prompt="move a unit", rule="toy 7.0")


@pytest.mark.parametrize(("typed", "expected"), [
    ("3\n2\n", {"unit": "u1", "to": "0004"}),          # group 3 is u1; its 2nd choice
    ("u2\n1\n", {"unit": "u2", "to": "0002"}),         # a group by its name
    ("2\nback\n1\n", "pass"),                          # back to the first step
    ('{"unit": "u0", "to": "0003"}\n', {"unit": "u0", "to": "0003"}),  # JSON at once
])
def test_a_large_option_set_is_chosen_in_two_steps(typed: str, expected: Any) -> None:
    game = new_game()
    out = io.StringIO()
    human = TerminalController("red", stdin=io.StringIO(typed), stdout=out)
    assert human.choose(_many(), game.view("red")) == expected
    shown = out.getvalue()
    assert "31 choices: first choose" in shown and "u1 (10)" in shown


def test_the_second_step_numbers_the_groups_choices_as_it_reads_them() -> None:
    game = new_game()
    out = io.StringIO()
    human = TerminalController("red", stdin=io.StringIO("2\n4\n"), stdout=out)
    choice = human.choose(_many(), game.view("red"))
    second = out.getvalue().split("choice> ", 1)[1]
    line = next(x for x in second.splitlines() if x.strip().startswith("4."))
    # the fourth choice shown is the one read, in words (never as JSON)
    assert line.split(".", 1)[1].strip() == "unit u0; to 0009"
    assert choice == {"unit": "u0", "to": "0009"}


def test_help_board_and_log_are_commands(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    opened: list[str] = []
    monkeypatch.setattr("webbrowser.open", lambda url: opened.append(url))
    game = new_game()
    decision = game.pending
    assert decision is not None
    out = io.StringIO()
    terminal = Terminal(io.StringIO("help\nboard\nlog\n1\n"), out, board_dir=tmp_path)
    human = TerminalController(decision.side, terminal=terminal)
    assert human.choose(decision, game.view(decision.side)) == next(iter(decision.options or []))
    shown = out.getvalue()
    assert "undo " in shown and "save [FILE]" in shown
    written = re.search(r"sees it: (\S+\.svg)", shown)
    assert written is not None and Path(written.group(1)).parent == tmp_path
    assert Path(written.group(1)).read_text(encoding="utf-8").lstrip().startswith("<")
    assert opened == []  # no display: the picture is written, not opened
    monkeypatch.setenv("DISPLAY", ":0")
    TerminalController(decision.side, terminal=Terminal(io.StringIO("board\n1\n"), io.StringIO(),
                                                         board_dir=tmp_path)).choose(
        decision, game.view(decision.side))
    assert len(opened) == 1 and opened[0].startswith("file://")


def test_play_shows_what_happened_since_the_last_prompt_in_words(tmp_path: Path) -> None:
    log = tmp_path / "game.jsonl"
    typed = "1\n1\n2\n" + "1\n" * 3000  # deploy, assign, fire the second attack, then pass
    result = CliRunner().invoke(cli, ["play", "firefight:scenario-2", "--players", "human,ai",
                                      "--log", str(log), "--seed", "4"], input=typed)
    assert result.exit_code == 0, result.output
    shown = result.output
    assert re.search(r"  - (US|SU) is first player for the Direct Fire Phase", shown)
    assert re.search(r"  - T62 t62-su\d+ (moves|starts to move)", shown)  # the AI's moves
    assert "US decides" not in shown  # not one's own choices told back
    # the numbers of the explanation are those of the shot: the second attack, its range and
    # Attack Rating, as the fire result in the log has them (Firefight 6.0)
    line = next(x for x in shown.splitlines() if x.startswith("  [2] "))
    found = re.search(r"\[2\] (\S+) fires \S+ at (\S+) .*range (\d+): AR (\d+)", line)
    assert found is not None
    firer, target, rng, ar = found.groups()
    shot = next(e for e in load_log(log).events if e["type"] == "result"
                and e.get("firer") == firer and e.get("target") == target)
    assert (shot["range"], shot["ar"]) == (int(rng), int(ar))
    assert "wins" in shown and "lost" in shown  # the summary at the end


def test_undo_replays_the_game_without_ones_last_decision(tmp_path: Path) -> None:
    log, save = tmp_path / "game.jsonl", tmp_path / "game.json"
    # A sets up A1 in 2CC0, then at its next decision takes that back and sets A1 up in 2CC5
    typed = "2CC0\n1\nundo\n2CC5\n1\n" + "1\n" * 3000
    # seed 3: the computer's side picks the board side, so A's first decision is A1's set-up
    result = CliRunner().invoke(cli, ["play", "firepower:basic", "--players", "human,ai",
                                      "--log", str(log), "--save", str(save), "--seed", "3"],
                                input=typed)
    assert result.exit_code == 0, result.output
    assert "undoing your decision" in result.output and "wins" in result.output
    first = next(d for d in load_save(save).decisions if d["side"] == "A")
    assert first["choice"]["hex"] == "2CC5"
    # the log was written again from the start: it holds the game as played after the undo,
    # and it replays exactly
    placed = [e["hex"] for e in _records(log) if e.get("type") == "placed" and e["unit"] == "A1"]
    assert placed == ["2CC5"]
    verify = CliRunner().invoke(cli, ["replay", str(log), "--verify"])
    assert verify.exit_code == 0, verify.output


def test_save_and_quit_leave_a_game_that_resumes(tmp_path: Path) -> None:
    save = tmp_path / "mine.json"
    result = CliRunner().invoke(cli, ["play", "mbt:basic-a", "--players", "ai,human"],
                                input=f"1\nsave {save}\nquit\n")
    assert result.exit_code == 0, result.output
    assert f"saved to {save}" in result.output and "Soviet quit" in result.output
    assert load_save(save).decisions
    again = CliRunner().invoke(cli, ["resume", str(save), "--players", "ai,ai",
                                     "--save", str(tmp_path / "done.json")])
    assert again.exit_code == 0, again.output
    assert "wins" in again.output


def test_hot_seat_passes_the_device_behind_a_blank_screen() -> None:
    """Two humans at one terminal: each prompt for the other side starts with a cleared screen
    asking to pass the device, and nothing of one side's screen follows the other's pass."""
    typed = "\n1\n" + "\n1Y4\n1\n" + "quit\n"
    # seed 6: the Soviet side picks its mapboard edge, then NATO sets up first
    result = CliRunner().invoke(cli, ["play", "mbt:basic-a", "--players", "human,human",
                                      "--seed", "6"], input=typed)
    assert result.exit_code == 0, result.output
    screens = result.output.split(CLEAR + "Pass the device to ")
    assert [s.split(",", 1)[0] for s in screens[1:]] == ["Soviet", "NATO"]
    nato = screens[2]
    assert nato.startswith("NATO, then press Enter.\n" + CLEAR)
    assert "[NATO]" in nato and "[Soviet]" not in nato


def test_the_terminal_counts_only_the_players_own_decisions() -> None:
    """CORE-63: 'undo' and 'quit' number the player's own decisions, never the game's (whose
    count holds the other side's secret MBT orders, MBT 6.2)."""
    result = CliRunner().invoke(cli, ["play", "mbt:basic-a", "--players", "ai,human",
                                      "--seed", "1"], input="1\n" * 6 + "undo\nquit\n")
    # six answers: S1's set-up (hex, then facing) and turret, S2's; the undo takes back S2's
    # turret, the Soviets' 4th decision (NATO, the computer, set up first: the game's 4th is not)
    assert result.exit_code == 0, result.output
    assert "undoing your decision 4 (mbt.turret)" in result.output, result.output[-600:]
    assert "Soviet quit after 3 of its decisions" in result.output, result.output[-600:]
