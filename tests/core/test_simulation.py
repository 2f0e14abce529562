"""Simulation (issue 14): statistics, records, parameters, and the simulate and balance commands
in one process. Parallel and distributed runs: test_simulation_parallel.py."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from hexwar.core.cli import cli
from hexwar.core.scenario import Scenario, load_and_validate
from hexwar.core.simulation import facts, stats
from hexwar.core.simulation.overrides import (
    ParameterError,
    parse_parameter,
    set_parameter,
    to_toml,
    with_parameter,
)
from hexwar.core.simulation.records import (
    GameRecord,
    RecordsError,
    RecordsFile,
    read_jsonl,
    read_parquet,
    read_records,
    write_parquet,
)
from hexwar.core.simulation.runner import GameTask, play_one

ROOT = Path(__file__).resolve().parents[2]
FF1 = ROOT / "plugins/firefight/scenarios/scenario1.toml"
MBT_A = ROOT / "plugins/mbt/scenarios/basic-a.toml"
FP = ROOT / "plugins/firepower/scenarios/basic.toml"


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(cli, list(args), catch_exceptions=False)
    return result.exit_code, result.output


def record(index: int, winner: str | None = "US", **kw: object) -> GameRecord:
    base: dict[str, object] = dict(
        variant="", index=index, seed=1 + index, winner=winner, level="victory",
        scores={"US": 5.0}, margin=None, reasons=("5 units passed through Ebersburen",),
        decisions=100, turns=7, casualties={"US": {"firefight:US-M60A1": 1}},
        objectives={"Ebersburen": "US"})
    base.update(kw)
    return GameRecord(**base)  # type: ignore[arg-type]


# -- statistics --------------------------------------------------------------------------------


def test_wilson_interval_matches_the_textbook_values() -> None:
    lo, hi = stats.wilson(5, 10)
    assert (round(lo, 4), round(hi, 4)) == (0.2366, 0.7634)
    lo, hi = stats.wilson(0, 10)
    assert lo == 0.0 and round(hi, 4) == 0.2775
    lo, hi = stats.wilson(10, 10)
    assert round(lo, 4) == 0.7225 and hi == 1.0
    assert stats.wilson(0, 0) == (0.0, 1.0)
    with pytest.raises(ValueError):
        stats.wilson(11, 10)


def test_distribution_counts_each_value_and_bins_many() -> None:
    d = stats.distribution([1, 2, 2, 3, 10])
    assert d["histogram"] == {"1": 1, "2": 2, "3": 1, "10": 1}
    assert d["median"] == 2 and d["min"] == 1 and d["max"] == 10 and d["mean"] == 3.6
    many = stats.distribution([i / 7 for i in range(100)], bins=10)
    assert len(many["histogram"]) == 10 and sum(many["histogram"].values()) == 100


def test_what_decided_a_game_keeps_rule_citations() -> None:
    r = record(0, reasons=("NATO leads by 35 VP (at least 30, MBT 9.4.3)",))
    assert stats.deciding_condition(r) == "victory: NATO leads by N VP (at least N, MBT 9.4.3)"


def test_summary_says_when_there_is_no_score_margin_or_objective() -> None:
    games = [record(0), record(1, winner="SU"), record(2, winner=None, level="draw")]
    s = stats.summarise(games, ("US", "SU"))
    assert s["wins"]["US"]["games"] == 1 and s["draws"]["games"] == 1
    assert s["scores"]["note"] == "the results give no score to SU"
    assert "do not score both sides" in s["margin"]["note"]
    assert s["objectives"]["Ebersburen"]["US"]["games"] == 3
    assert s["casualties"]["US"]["firefight:US-M60A1"] == {"total": 3, "per_game": 1.0}
    bare = [record(0, scores={}, objectives=None)]
    s = stats.summarise(bare, ("US", "SU"))
    assert s["scores"] == {"note": "this scenario's results report no scores"}
    assert s["objectives"] == {"note": "this scenario has no objectives to hold"}
    assert s["margin"] == {"note": "no margin: no scores"}


# -- the facts of a finished game --------------------------------------------------------------


def test_mbt_game_record_has_vp_margin_casualties_and_objectives() -> None:
    sc = load_and_validate(MBT_A)
    r = play_one(GameTask("", 0, 1, sc.text, sc.path, (), "ai,ai"))
    assert set(r.scores) == {"NATO", "Soviet"}
    assert r.margin == r.scores["NATO"] - r.scores["Soviet"]
    assert r.objectives is not None and all(v in ("NATO", "Soviet") for v in r.objectives.values())
    assert sum(sum(t.values()) for t in r.casualties.values()) > 0
    assert r.decisions > 0 and r.turns >= 1


def test_casualties_count_losses_by_type_and_never_dummies() -> None:
    from hexwar.core.engine.game import Game

    game = Game(load_and_validate(FF1), seed=1)
    us = game.state.units_of("US")
    us[0].state["destroyed"] = 3
    us[1].state["destroyed"] = 3
    us[2].state.update({"destroyed": 3, "dummy": True})
    assert facts.casualties(game) == {"US": {us[0].type: 2}}


def test_firepower_has_no_objectives() -> None:
    from hexwar.core.engine.game import Game

    assert facts.objectives(Game(load_and_validate(FP), seed=1)) is None


# -- records -----------------------------------------------------------------------------------

RUN = {"scenario": "x", "seed": 1, "games": 3}


def test_records_survive_a_torn_last_line_and_are_not_counted_twice(tmp_path: Path) -> None:
    path = tmp_path / "games.jsonl"
    f = RecordsFile(path, RUN, resume=False)
    f.add(record(0))
    f.add(record(0))  # the same game again: kept once
    f.add(record(1))
    f.close(complete=False)
    with open(path, "a", encoding="utf-8") as handle:
        handle.write('{"type": "game", "index": 2, "se')  # killed while writing
    g = RecordsFile(path, {**RUN, "games": 5}, resume=True)  # a run may be extended
    assert sorted(g.done) == [("", 0), ("", 1)]
    g.add(record(2))
    g.close(complete=True)
    header, games = read_jsonl(path)
    assert header["run"]["games"] == 3 and [r.index for r in games] == [0, 1, 2]


def test_a_header_torn_before_any_game_starts_again(tmp_path: Path) -> None:
    path = tmp_path / "games.jsonl"
    path.write_text('{"type": "header", "for')
    f = RecordsFile(path, RUN, resume=False)
    f.add(record(0))
    f.close(complete=True)
    assert [r.index for r in read_jsonl(path)[1]] == [0]
    other = tmp_path / "notes.txt"
    other.write_text("my notes, no newline")
    with pytest.raises(RecordsError, match="refusing to overwrite it"):
        RecordsFile(other, RUN, resume=False)


def test_records_refuse_another_run_an_unasked_overwrite_and_a_bad_line(tmp_path: Path) -> None:
    path = tmp_path / "games.jsonl"
    f = RecordsFile(path, RUN, resume=False)
    f.add(record(0))
    f.close(complete=True)
    with pytest.raises(RecordsError, match="--resume continues"):
        RecordsFile(path, RUN, resume=False)
    with pytest.raises(RecordsError, match=r"different run \(seed: file 1, now 2\)"):
        RecordsFile(path, {**RUN, "seed": 2}, resume=True)
    lines = path.read_text().splitlines()
    path.write_text("\n".join([lines[0], "not json", lines[1]]) + "\n")
    with pytest.raises(RecordsError, match=r"games.jsonl:2: not a game record"):
        read_jsonl(path)
    other = tmp_path / "notes.txt"
    other.write_text("my notes\n")
    with pytest.raises(RecordsError, match="not a hexwar simulation header"):
        RecordsFile(other, RUN, resume=True)


def test_parquet_records_read_back_as_written(tmp_path: Path) -> None:
    games = [record(0), record(1, winner=None, level="draw", objectives={}),
             record(2, casualties={"SU": {"firefight:SU-T62": 2}})]
    path = tmp_path / "games.parquet"
    write_parquet(path, RUN, games)
    header, back = read_parquet(path)
    assert header["run"] == RUN
    assert [r.outcome() for r in back] == [r.outcome() for r in games]


def test_a_parquet_run_journals_until_it_is_complete(tmp_path: Path) -> None:
    path = tmp_path / "games.parquet"
    f = RecordsFile(path, RUN, resume=False)
    f.add(record(0))
    f.close(complete=False)  # interrupted: the Parquet file and the journal both hold game 0
    journal = tmp_path / "games.parquet.partial.jsonl"
    assert journal.exists() and [r.index for r in read_parquet(path)[1]] == [0]
    g = RecordsFile(path, RUN, resume=True)
    assert list(g.done) == [("", 0)]
    g.add(record(1))
    g.add(record(2))
    g.close(complete=True)
    assert not journal.exists()
    assert [r.index for r in read_records(path)[1]] == [0, 1, 2]
    h = RecordsFile(path, {**RUN, "games": 4}, resume=True)  # continued from the Parquet file
    assert len(h.done) == 3
    h.close(complete=False)


# -- parameters --------------------------------------------------------------------------------


def test_every_built_in_scenario_writes_back_as_the_same_toml() -> None:
    import tomllib

    for path in sorted(ROOT.glob("plugins/*/scenarios/*.toml")):
        raw = Scenario.load(path).raw
        assert tomllib.loads(to_toml(raw)) == raw, path


def test_a_parameter_sets_one_key_and_nothing_else() -> None:
    sc = load_and_validate(MBT_A)
    changed = with_parameter(sc, "victory.margin", "20")
    assert changed.victory["margin"] == 20 and changed.path == sc.path
    assert {k: v for k, v in changed.raw.items() if k != "victory"} == \
        {k: v for k, v in sc.raw.items() if k != "victory"}
    assert with_parameter(sc, "scenario.turns", "5").turns == 5
    ff = load_and_validate(FF1).raw
    hexes = set_parameter(ff, "units[0].hex", '"1917"')
    assert hexes["units"][0]["hex"] == "1917" and ff["units"][0]["hex"] == "1916"
    assert hexes["units"][1:] == ff["units"][1:]


def test_force_size_keeps_the_first_units_of_a_side() -> None:
    sc = load_and_validate(FF1)
    smaller = with_parameter(sc, "force.US", "6")
    assert [u.id for u in smaller.units if u.side == "US"] == \
        [u.id for u in sc.units if u.side == "US"][:6]
    assert [u.id for u in smaller.units if u.side == "SU"] == [u.id for u in sc.units if u.side == "SU"]
    with pytest.raises(ParameterError, match="so 1 to 17"):
        with_parameter(sc, "force.US", "18")
    with pytest.raises(ParameterError, match="no unit of side 'XX'"):
        with_parameter(sc, "force.XX", "1")


@pytest.mark.parametrize(("key", "value", "message"), [
    ("victory.margn", "20", r"no key victory.margn \(keys there: .*margin"),
    ("victory.margin", "wide", r"'wide' is not a TOML value \(the file has an integer \(30\)\)"),
    ("victory.margin", "2.5", "is a number, but the file has an integer"),
    ("victory", "1", "victory is a table; name one of its values"),
    ("units[99].hex", '"x"', r"units has \d+ elements"),
    ("scenario.turns", "0", "not playable:\n.*turns must be 1 to 1000, not 0"),
    ("victory..margin", "1", "is not a key path"),
])
def test_a_bad_parameter_is_refused_with_its_reason(key: str, value: str, message: str) -> None:
    with pytest.raises(ParameterError, match=message):
        with_parameter(load_and_validate(MBT_A), key, value)


def test_parameter_values_are_parsed_and_checked() -> None:
    assert parse_parameter("victory.margin=20, 30,40") == ("victory.margin", ["20", "30", "40"])
    for bad in ("victory.margin", "=1", "victory.margin=1,,2", "victory.margin=1,1"):
        with pytest.raises(ParameterError):
            parse_parameter(bad)


# -- the commands ------------------------------------------------------------------------------


@pytest.mark.parametrize("args", [
    ("--games", "0"), ("--games", "-1"), ("--jobs", "0"), ("--jobs", "-2"),
])
def test_simulate_refuses_bad_counts(args: tuple[str, str]) -> None:
    code, out = run("simulate", "firefight:scenario-1", *args)
    assert code == 2 and args[0] in out


def test_help_lists_simulate_and_balance() -> None:
    code, out = run("--help")
    assert code == 0 and "simulate" in out and "balance" in out
    code, out = run("balance", "--help")
    assert code == 0 and "--parameter KEY=V1,V2,..." in out and "--jobs" in out


def test_simulate_refuses_a_human_player_and_a_resume_without_records() -> None:
    code, out = run("simulate", "firefight:scenario-1", "--players", "human,ai")
    assert code == 2 and "cannot have a 'human' player" in out
    code, out = run("simulate", "firefight:scenario-1", "--players", "script:/no/such/file")
    assert code == 2 and "the script '/no/such/file' is not a file" in out
    code, out = run("simulate", "firefight:scenario-1", "--resume")
    assert code == 2 and "--resume continues a run's --records FILE" in out


def test_an_unreachable_scheduler_is_a_quick_clear_error() -> None:
    start = time.monotonic()
    code, out = run("simulate", "firefight:scenario-1", "--scheduler", "tcp://127.0.0.1:9",
                    "--connect-timeout", "1")
    assert code == 2 and "cannot reach a Dask scheduler at 'tcp://127.0.0.1:9'" in out
    assert time.monotonic() - start < 15
    code, out = run("simulate", "firefight:scenario-1", "--scheduler", "my laptop")
    assert code == 2 and "is not a scheduler address" in out


def test_simulate_reports_statistics_as_json_and_records_each_game(tmp_path: Path) -> None:
    records = tmp_path / "games.jsonl"
    code, out = run("simulate", "firefight:scenario-1", "--games", "3", "--records", str(records),
                    "--json")
    assert code == 0, out
    data = json.loads(out)
    s = data["summary"]
    assert data["played"] == 3 and s["games"] == 3
    assert sum(s["wins"][x]["games"] for x in ("US", "SU")) + s["draws"]["games"] == 3
    assert 0 <= s["wins"]["US"]["ci95"][0] <= s["wins"]["US"]["rate"] <= s["wins"]["US"]["ci95"][1]
    assert s["length"]["decisions"]["n"] == 3 and "Ebersburen" in s["objectives"]
    header, games = read_jsonl(records)
    assert header["run"]["scenario"] == "firefight:scenario-1"
    assert [g.seed for g in games] == [1, 2, 3]
    # again without --resume: refused, the file untouched
    code, out = run("simulate", "firefight:scenario-1", "--games", "3", "--records", str(records))
    assert code == 2 and "--resume continues that run" in out
    # continued to 5 games: only games 4 and 5 are played
    code, out = run("simulate", "firefight:scenario-1", "--games", "5", "--records", str(records),
                    "--resume", "--json")
    data = json.loads(out)
    assert code == 0 and data["played"] == 2 and data["resumed"] == 3
    assert data["summary"]["games"] == 5
    assert [g.index for g in read_jsonl(records)[1]] == [0, 1, 2, 3, 4]
    # another seed is another run
    code, out = run("simulate", "firefight:scenario-1", "--games", "5", "--seed", "9",
                    "--records", str(records), "--resume")
    assert code == 2 and "different run" in out


def test_simulate_plots_and_writes_parquet(tmp_path: Path) -> None:
    plot, records = tmp_path / "sim.svg", tmp_path / "games.parquet"
    code, out = run("simulate", "firepower:basic", "--games", "2", "--players", "random",
                    "--plot", str(plot), "--records", str(records))
    assert code == 0, out
    assert "Who won" in out and "Casualties" in out and "Game length" in out
    assert "<svg" in plot.read_text() and "Win rate" in plot.read_text()
    assert [r.index for r in read_parquet(records)[1]] == [0, 1]
    assert not (tmp_path / "games.parquet.partial.jsonl").exists()
    code, out = run("simulate", "firepower:basic", "--games", "1", "--plot", str(tmp_path / "a.pdf"))
    assert code == 2 and ".svg or .png" in out


def test_balance_reports_each_value_with_the_same_seeds(tmp_path: Path) -> None:
    plot = tmp_path / "balance.png"
    code, out = run("balance", "firefight:scenario-1", "--parameter", "victory.count=1,17",
                    "--games", "2", "--json", "--plot", str(plot))
    assert code == 0, out
    data = json.loads(out)
    assert data["parameter"] == "victory.count"
    one, all_ = data["values"]
    assert one["value"] == "1" and all_["value"] == "17"
    # one tank through Ebersburen wins at once; all seventeen cannot get through by turn 10
    assert one["summary"]["wins"]["US"]["games"] == 2
    assert all_["summary"]["wins"]["SU"]["games"] == 2
    assert plot.read_bytes().startswith(b"\x89PNG")
    code, out = run("balance", "firefight:scenario-1", "--parameter", "victory.cuont=1,2")
    assert code == 2 and "no key victory.cuont" in out


def test_the_command_line_starts_without_the_simulation_stack() -> None:
    import subprocess
    import sys

    code = ("import sys; from hexwar.core.cli import _add_system_commands, cli; "
            "_add_system_commands(); "
            "print(sorted(m for m in ('distributed', 'pyarrow', 'matplotlib', "
            "'hexwar.core.simulation') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_a_game_that_fails_is_named_with_its_seed() -> None:
    from hexwar.core.simulation.runner import SimulationError, play_task

    text = FF1.read_text().replace('else_winner = "SU"', 'else_winner = "SU"\nbogus = 1')
    with pytest.raises(SimulationError, match=r"(?s)game 4 \(seed 7\) failed: .*bogus"):
        play_task(GameTask("", 3, 7, text, str(FF1), (), "ai"))


def test_each_optional_package_missing_is_a_clear_error(tmp_path: Path,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    import sys

    for name in ("pyarrow", "pyarrow.parquet", "matplotlib", "distributed"):
        monkeypatch.setitem(sys.modules, name, None)  # import now raises ImportError
    code, out = run("simulate", "firepower:basic", "--records", str(tmp_path / "g.parquet"))
    assert code == 2 and "writing Parquet needs pyarrow" in out and "hexwar[sim]" in out
    code, out = run("simulate", "firepower:basic", "--plot", str(tmp_path / "g.svg"))
    assert code == 2 and "--plot needs matplotlib" in out
    code, out = run("simulate", "firepower:basic", "--scheduler", "tcp://127.0.0.1:9")
    assert code == 2 and "--scheduler needs Dask distributed" in out
    assert not list(tmp_path.iterdir())  # nothing written, no game played


def test_a_process_freezes_its_long_lived_objects_once_before_its_first_game() -> None:
    """CORE-137: the first game a process plays moves what is alive (modules, plugins, the loaded
    scenario) out of the collector's scans, once; objects made afterwards (a game's) are still
    collected. Run in a fresh interpreter, so that this test's process is left as it was."""
    import subprocess
    import sys

    code = """
import gc
from hexwar.core.cli import _resolve_scenario_path
from hexwar.core.scenario import Scenario
from hexwar.core.simulation import runner
assert gc.get_freeze_count() == 0
sc = Scenario.load(_resolve_scenario_path("firefight:scenario-7"))
runner.play_one(runner.GameTask("", 0, 1, sc.text, sc.path, (), "random,random"))
frozen = gc.get_freeze_count()
assert frozen > 1000, frozen
runner.play_one(runner.GameTask("", 1, 2, sc.text, sc.path, (), "random,random"))
assert gc.get_freeze_count() == frozen  # once a process
a = []; a.append(a); del a  # a cycle made afterwards is still collected
assert gc.collect() >= 1
print("ok")
"""
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=300)
    assert out.returncode == 0 and out.stdout.strip() == "ok", out.stderr[-2000:]
