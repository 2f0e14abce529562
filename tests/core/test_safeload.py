"""The guarded loader: every data file is read within limits, with a clean DataError."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from hexwar.core.board import MapValidationError, Panel
from hexwar.core.errors import DataError
from hexwar.core.safeload import (
    MAX_BYTES,
    MAX_DEPTH,
    confined,
    parse_json,
    parse_toml,
    read_text,
)
from hexwar.core.scenario import Scenario, ScenarioError
from hexwar.core.tables.loading import load_table

TOY = Path(__file__).parent / "toy" / "scenario.toml"


def test_non_utf8_scenario_is_a_clean_problem(tmp_path: Path) -> None:
    p = tmp_path / "s.toml"
    p.write_bytes(TOY.read_bytes().replace(b"Toy duel", b"Toy \xff duel"))
    with pytest.raises(ScenarioError) as info:
        Scenario.load(p)
    (problem,) = info.value.problems
    assert "not UTF-8" in problem.message and "0xff" in problem.message
    assert problem.path == str(p) and problem.line == 3


def test_non_utf8_panel_and_table(tmp_path: Path) -> None:
    panel = tmp_path / "panel.toml"
    panel.write_bytes(b'[panel]\nid = "\xc3"\n')
    with pytest.raises(MapValidationError, match="not UTF-8"):
        Panel.from_toml(panel)
    table = tmp_path / "t.csv"
    table.write_bytes(b"a,b\n\xfe,1\n")
    with pytest.raises(DataError, match="not UTF-8"):
        load_table(table)


@pytest.mark.parametrize("deep", ["x = " + "[" * 5000 + "]" * 5000,
                                  "x = " + "{a = " * 500 + "1" + "}" * 500,
                                  "x = " + "[" * 40 + "1" + "]" * 40])
def test_deep_toml_nesting_is_refused(deep: str) -> None:
    with pytest.raises(DataError, match="nested too deeply"):
        parse_toml(deep, path="f.toml")
    with pytest.raises(ScenarioError, match="nested too deeply"):
        Scenario.from_text(TOY.read_text() + "\n[special]\n" + deep + "\n", path="s.toml")


def test_deep_json_nesting_is_refused() -> None:
    with pytest.raises(DataError, match="nested too deeply"):
        parse_json("[" * 100000 + "]" * 100000, path="f.json")
    with pytest.raises(DataError, match="nested too deeply"):
        parse_json("[" * (MAX_DEPTH + 5) + "]" * (MAX_DEPTH + 5), path="f.json")


def test_brackets_in_strings_do_not_count_as_nesting() -> None:
    text = 'notes = "' + "[" * 200 + '"\n'
    assert parse_toml(text, path="f.toml") == {"notes": "[" * 200}


def test_five_thousand_digit_integer_is_refused() -> None:
    big = "9" * 5000
    with pytest.raises(ScenarioError) as info:
        Scenario.from_text(TOY.read_text().replace("turns = 3", f"turns = {big}"), path="s.toml")
    assert "s.toml" in str(info.value) and big not in str(info.value)
    with pytest.raises(DataError, match="digits"):
        parse_json(f'{{"seed": {big}}}', path="f.json")
    with pytest.raises(DataError, match="integer too long"):
        parse_toml("x = " + "9" * 30, path="f.toml")


def test_non_finite_floats_are_refused() -> None:
    with pytest.raises(DataError, match="finite"):
        parse_toml("x = inf", path="f.toml")
    with pytest.raises(DataError, match="finite"):
        parse_json('{"x": NaN}', path="f.json")


def test_size_limit_and_devices(tmp_path: Path) -> None:
    p = tmp_path / "big.toml"
    p.write_bytes(b"#" * (MAX_BYTES + 1))
    with pytest.raises(DataError, match="too large"):
        read_text(p)
    with pytest.raises(DataError, match="not a regular file"):
        read_text("/dev/zero")
    with pytest.raises(DataError, match="not a regular file"):
        read_text(tmp_path)
    with pytest.raises(DataError, match="cannot read"):
        read_text(tmp_path / "missing.toml")


def test_confined_refuses_escapes(tmp_path: Path) -> None:
    (tmp_path / "maps").mkdir()
    (tmp_path / "maps" / "p.toml").write_text("x = 1")
    assert confined(tmp_path, "maps/p.toml", key="k", path="s") == (tmp_path / "maps" / "p.toml").resolve()
    for bad, why in [("/etc/passwd", "relative"), ("../x.toml", "leave"),
                     ("maps/../../x.toml", "leave"), ("/dev/zero", "relative"),
                     ("missing.toml", "no such file"), ("maps", "not a regular file")]:
        with pytest.raises(DataError, match=why):
            confined(tmp_path, bad, key="k", path="s")
    os.symlink("/etc/passwd", tmp_path / "link.toml")
    with pytest.raises(DataError, match="leave"):
        confined(tmp_path, "link.toml", key="k", path="s")
    with pytest.raises(DataError, match="file name"):
        confined(tmp_path, 5, key="k", path="s")


def test_a_script_that_is_not_utf8_is_a_clean_error(tmp_path: Path) -> None:
    from hexwar.core.engine.controllers import ScriptedController

    script = tmp_path / "moves.txt"
    script.write_bytes(b'"pass"\n\xff\xfe\n')
    with pytest.raises(DataError, match="not UTF-8") as exc:
        ScriptedController.from_file(script)
    assert exc.value.path == str(script)


def test_a_device_given_as_a_save_is_refused_without_reading_it() -> None:
    from hexwar.core.engine.record import load_saved

    with pytest.raises(DataError, match="not a regular file"):
        load_saved("/dev/zero")
