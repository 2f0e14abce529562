"""The hexwar command line, end to end on the built-in Firepower scenario (the shortest game)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from hexwar.core.cli import _add_system_commands, cli


@pytest.fixture(autouse=True, scope="module")
def _system_commands() -> None:
    """The systems' own command groups, added when the tests run (not when they are collected)."""
    _add_system_commands()


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(cli, list(args), catch_exceptions=False)
    return result.exit_code, result.output


def test_help_lists_every_command() -> None:
    code, out = run("--help")
    assert code == 0
    for command in ("systems", "options", "scenarios", "validate", "play", "resume", "replay",
                    "render", "los", "data", "simulate", "plugins"):
        assert command in out


def test_systems_and_scenarios_as_json() -> None:
    code, out = run("systems", "--json")
    assert code == 0 and {"firefight", "mbt", "firepower"} <= {s["name"] for s in json.loads(out)}
    code, out = run("scenarios", "mbt", "--json")
    assert code == 0 and all(s["name"].startswith("mbt:") for s in json.loads(out))


def test_unknown_system_is_a_clear_error() -> None:
    code, out = run("options", "mbtt")
    assert code == 2 and "unknown system 'mbtt'" in out and "did you mean mbt" in out


def test_unknown_scenario_name() -> None:
    code, out = run("play", "firepower:basik")
    assert code == 2 and "firepower:basic" in out


def test_validate_reports_problems_with_lines(tmp_path: Path) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text('[scenario]\nid = "x"\nsystem = "mbt"\nturns = "ten"\n[sides.a]\n')
    code, out = run("validate", str(bad), "--json")
    assert code == 1
    problems = json.loads(out)
    assert any(p["key"] == "scenario.turns" and p["line"] == 4 for p in problems)


def test_play_log_replay_verify_and_resume(tmp_path: Path) -> None:
    log, save = tmp_path / "game.jsonl", tmp_path / "game.json"
    code, out = run("play", "firepower:basic", "--seed", "2", "--players", "random,random",
                    "--log", str(log), "--save", str(save), "--json")
    assert code == 0, out
    played = json.loads(out)
    assert played["result"]["level"]
    header = json.loads(log.read_text().splitlines()[0])
    assert header["type"] == "header" and header["seed"] == 2 and header["system"] == "firepower"
    code, out = run("replay", str(log), "--verify", "--json")
    assert code == 0, out
    replayed = json.loads(out)
    assert replayed["verified"] and replayed["result"] == played["result"]
    code, out = run("replay", str(save), "--verify", "--json")
    assert code == 0 and json.loads(out)["decisions"] == played["decisions"]


def test_a_corrupt_save_is_refused_and_left_alone(tmp_path: Path) -> None:
    save = tmp_path / "broken.json"
    save.write_text('{"format": "hexwar-save", "version": 1, "header": {')
    code, out = run("resume", str(save))
    assert code == 2 and "not valid JSON" in out
    assert save.read_text() == '{"format": "hexwar-save", "version": 1, "header": {'


def test_players_must_match_the_sides() -> None:
    code, out = run("play", "firepower:basic", "--players", "ai,ai,ai")
    assert code == 2 and "--players names 3 player(s)" in out


@pytest.mark.parametrize("system", ["firefight", "mbt", "firepower"])
def test_data_check_passes_on_shipped_data(system: str) -> None:
    code, out = run("data", "check", system, "--json")
    report = json.loads(out)
    assert code == 0, report["problems"]
    assert report["tables"], f"{system} registers no tables"
    assert sum(t["cited"] for t in report["tables"]) > 0


def test_los_explains_itself() -> None:
    code, out = run("los", "mbt:basic-a", "2EE3", "1G7", "--json")
    assert code == 0, out
    data = json.loads(out)
    assert {"clear", "findings", "crossed", "distance"} <= set(data)


def test_render_svg_and_html_replay(tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    code, out = run("play", "firepower:basic", "--seed", "3", "--players", "random,random",
                    "--save", str(save))
    assert code == 0, out
    svg, page = tmp_path / "end.svg", tmp_path / "replay.html"
    assert run("render", str(save), "-o", str(svg))[0] == 0
    assert svg.read_text().lstrip().startswith(("<svg", "<?xml"))
    code, out = run("render", str(save), "-o", str(page), "--side", "A")
    assert code == 0, out
    text = page.read_text()
    assert text.startswith("<!doctype html>") and text.count("turn ") >= 4 and "<svg" in text
    code, out = run("render", str(save), "-o", str(page), "--side", "Z")
    assert code == 2 and "unknown side 'Z'" in out


def test_resume_a_game_saved_midway(tmp_path: Path) -> None:
    from hexwar.core.cli import _resolve_scenario_path
    from hexwar.core.engine.controllers import RandomController
    from hexwar.core.engine.game import Game
    from hexwar.core.engine.record import save_game
    from hexwar.core.scenario import load_and_validate

    game = Game(load_and_validate(_resolve_scenario_path("firepower:basic")), seed=4)
    players = {s: RandomController(s, 4) for s in game.state.sides}
    for _ in range(15):
        d = game.pending
        assert d is not None
        game.answer(players[d.side].choose(d, game.view(d.side)))
    save = tmp_path / "midway.json"
    save_game(game, save, players={s: "random" for s in game.state.sides})
    code, out = run("resume", str(save), "--json")
    assert code == 0, out
    result = json.loads(out)
    assert result["decisions"] > 15 and result["result"]["level"]
    saved = json.loads(save.read_text())  # the save now holds the finished game
    assert len(saved["decisions"]) == result["decisions"]


def test_python_m_hexwar_core_runs_the_command_line() -> None:
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-m", "hexwar.core", "systems", "--json"],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert {"firefight", "mbt", "firepower"} <= {s["name"] for s in json.loads(done.stdout)}


# -- issue 9 item 6: commands never overwrite their input, outputs checked before playing -------


def _fp_log(tmp_path: Path) -> Path:
    log = tmp_path / "game.jsonl"
    code, out = run("play", "firepower:basic", "--seed", "2", "--players", "random,random",
                    "--log", str(log))
    assert code == 0, out
    return log


def test_resume_never_replaces_a_log_with_a_save(tmp_path: Path) -> None:
    log = _fp_log(tmp_path)
    lines = log.read_text().splitlines()
    half = tmp_path / "half.jsonl"  # a game cut short, to be resumed
    half.write_text("\n".join(lines[: len(lines) // 2]) + "\n")
    before = half.read_text()
    code, out = run("resume", str(half))
    assert code == 2 and "is a log, which resume does not overwrite" in out and "--save" in out
    assert half.read_text() == before
    save = tmp_path / "resumed.json"
    code, out = run("resume", str(half), "--save", str(save), "--json")
    assert code == 0, out
    assert half.read_text() == before and json.loads(save.read_text())["format"] == "hexwar-save"
    code, out = run("resume", str(half), "--save", str(half))
    assert code == 2 and "is this command's input" in out and half.read_text() == before


def test_log_and_save_may_not_name_one_file(tmp_path: Path) -> None:
    same = tmp_path / "game.out"
    code, out = run("play", "firepower:basic", "--log", str(same), "--save", str(same))
    assert code == 2 and "is also given to '--log'" in out
    assert not same.exists()


def test_the_log_may_not_overwrite_the_scenario(tmp_path: Path) -> None:
    from hexwar.core.cli import _resolve_scenario_path

    scenario = tmp_path / "basic.toml"
    scenario.write_text(_resolve_scenario_path("firepower:basic").read_text())
    before = scenario.read_text()
    code, out = run("play", str(scenario), "--log", str(scenario))
    assert code == 2 and "is this command's input" in out
    other = tmp_path / "notes.txt"
    other.write_text("my notes")
    code, out = run("play", str(scenario), "--log", str(other))
    assert code == 2 and "is not a hexwar log" in out
    assert scenario.read_text() == before and other.read_text() == "my notes"


@pytest.mark.parametrize("option", ["--save", "--log"])
def test_play_checks_its_outputs_before_playing(tmp_path: Path, option: str) -> None:
    target = tmp_path / "missing" / "game.out"
    code, out = run("play", "firepower:basic", option, str(target))
    assert code == 2 and "does not exist" in out and option in out
    assert "wins" not in out  # refused before the game was played


def test_resume_and_render_check_their_outputs(tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    assert run("play", "firepower:basic", "--save", str(save), "--players", "random,random")[0] == 0
    code, out = run("resume", str(save), "--save", str(tmp_path / "nope" / "x.json"))
    assert code == 2 and "does not exist" in out
    code, out = run("render", str(save), "-o", str(tmp_path / "nope" / "x.svg"))
    assert code == 2 and "does not exist" in out
    code, out = run("render", str(save), "-o", str(save))
    assert code == 2 and "is this command's input" in out
    assert json.loads(save.read_text())["format"] == "hexwar-save"


# -- issue 9 item 18 -------------------------------------------------------------------------


@pytest.mark.parametrize("args, bad", [(("ZZ99", "1G7"), "'ZZ99'"), (("2EE3", "9Q9"), "'9Q9'")])
def test_los_with_a_hex_not_on_the_map_is_a_clean_error(args: tuple[str, str], bad: str) -> None:
    result = CliRunner().invoke(cli, ["los", "mbt:basic-a", *args])
    assert result.exit_code == 2 and isinstance(result.exception, SystemExit)
    assert bad in result.output and "not on this board" in result.output
    assert "Traceback" not in result.output


@pytest.mark.parametrize("games", ["-3", "0"])
def test_simulate_refuses_fewer_than_one_game(games: str) -> None:
    code, out = run("simulate", "firepower:basic", "--games", games)
    assert code == 2 and "--games" in out


def test_saves_keep_the_users_umask(tmp_path: Path) -> None:
    import os
    import stat

    save = tmp_path / "game.json"
    old = os.umask(0o022)
    try:
        assert run("play", "firepower:basic", "--players", "random,random", "--save", str(save))[0] == 0
    finally:
        os.umask(old)
    assert stat.S_IMODE(save.stat().st_mode) == 0o644
