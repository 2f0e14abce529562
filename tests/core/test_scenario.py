"""Scenario files: every kind of bad input gets a clear error naming what and where."""

from __future__ import annotations

from pathlib import Path

import pytest

from hexwar.core.scenario import Scenario, ScenarioError, validate_scenario

from .toy import toy_system

TOY = (Path(__file__).parent / "toy" / "scenario.toml").read_text()


def problems_of(text: str, options: tuple[str, ...] = ()) -> list[str]:
    try:
        scenario = Scenario.from_text(text, path="s.toml")
    except ScenarioError as exc:
        return [str(p) for p in exc.problems]
    return [str(p) for p in validate_scenario(scenario, options=options, local_plugins=(toy_system,))]


def test_the_toy_scenario_is_valid() -> None:
    assert problems_of(TOY) == []


def test_broken_toml_names_the_line() -> None:
    (problem,) = problems_of(TOY.replace('id = "r1"', 'id = "r1'))
    assert problem.startswith("s.toml:") and "invalid TOML" in problem
    assert problem.startswith("s.toml:15:")  # the line of id = "r1


def test_unknown_unit_type_suggests_close_names() -> None:
    (problem,) = problems_of(TOY.replace('type = "toy:gun"', 'type = "toy:gnu"', 1))
    assert "unknown unit type 'toy:gnu'" in problem and "did you mean toy:gun" in problem
    assert "s.toml:16 [units[0].type]" in problem


def test_hex_off_the_board() -> None:
    (problem,) = problems_of(TOY.replace('hex = "1H6"', 'hex = "1H9"'))
    assert "units[1].hex" in problem and "1H9" in problem


def test_wrong_type_names_key_and_line() -> None:
    (problem,) = problems_of(TOY.replace("facing = 4", 'facing = "south"'))
    assert "'facing' must be an integer" in problem and "s.toml:25 [units[1].facing]" in problem


def test_missing_system_and_turns_are_both_reported() -> None:
    text = TOY.replace('system = "toy"\n', "").replace("turns = 3\n", "")
    found = problems_of(text)
    assert any("missing required key 'system'" in p for p in found)
    assert any("missing required key 'turns'" in p for p in found)


def test_unknown_option() -> None:
    (problem,) = problems_of(TOY, options=("toy.nonsense",))
    assert "unknown optional rule 'toy.nonsense'" in problem
    assert "hexwar options SYSTEM" in problem


def test_duplicate_unit_id() -> None:
    (problem,) = problems_of(TOY.replace('id = "b1"', 'id = "r1"'))
    assert "duplicate unit id 'r1' (first at line 14)" in problem


def test_unit_type_must_name_its_system_and_side_must_exist() -> None:
    found = problems_of(TOY.replace('type = "toy:gun"', 'type = "gun"', 1).replace(
        'side = "blue"', 'side = "green"'))
    assert any("must name its system" in p and "toy:gun" in p for p in found)
    assert any("side 'green' is not one of red, blue" in p for p in found)


def test_unknown_top_level_table() -> None:
    found = problems_of(TOY + "\n[victroy]\nx = 1\n")
    assert any("unknown top-level table [victroy]" in p for p in found)


def test_unknown_panel() -> None:
    found = problems_of(TOY.replace("toy:panel-1", "toy:panel-9"))
    assert any("unknown panel 'toy:panel-9'" in p and "toy:panel-1" in p for p in found)


def test_every_problem_is_reported_at_once() -> None:
    text = TOY.replace('type = "toy:gun"', 'type = "gun"').replace("facing = 4", "facing = 9")
    with pytest.raises(ScenarioError) as err:
        Scenario.from_text(text, path="s.toml")
    assert len(err.value.problems) == 3


# -- issue 9: what would crash in play is reported by validate --------------------------------

SHIPPED = Path(__file__).resolve().parents[2] / "plugins"


def shipped_problems(system: str, name: str, old: str, new: str) -> list[str]:
    path = SHIPPED / system / "scenarios" / name
    text = path.read_text(encoding="utf-8")
    assert old in text, old
    try:
        scenario = Scenario.from_text(text.replace(old, new, 1), path=str(path))
    except ScenarioError as exc:
        return [str(p) for p in exc.problems]
    return [str(p) for p in validate_scenario(scenario)]


@pytest.mark.parametrize("name, old, new, words", [
    ("scenario7.toml", 'hex = "2832"\n', "", "[victory.hex]: missing required key 'hex'"),
    ("scenario1.toml", 'area = "Ebersburen"\n', "", "[victory.area]: missing required key"),
    ("scenario3.toml", 'other = "US"\n', "", "[victory.other]: missing required key"),
    ("scenario1.toml", 'kind = "pass_through"', 'kind = ["x"]', "[victory.kind]: unknown victory kind"),
    ("scenario1.toml", 'count = 5', 'count = "5"', "[victory.count]: must be an integer"),
    ("scenario4.toml", '{ id = "', '{ xid = "', "missing required key 'id'"),
    ("scenario4.toml", "indirect = [", "indirect = 5 #", "[special.indirect]: must be an array"),
    ("scenario7.toml", "frozen_until = {", "frozen_until = 3 #", "[special.frozen_until]"),
    ("scenario7.toml", "[special.draw.SU]", "[special.draw.XX]", "unknown key 'XX'"),
    ("scenario1.toml", '{ posture = "attack"', '{ posturre = "attack"', "did you mean 'posture'"),
])
def test_firefight_validate_reports_what_would_crash_in_play(name: str, old: str, new: str,
                                                             words: str) -> None:
    found = shipped_problems("firefight", name, old, new)
    assert any(words in p for p in found), found


def test_firefight_carrier_must_be_a_unit() -> None:
    found = shipped_problems("firefight", "scenario4.toml", 'carrier = "', 'carrier = "lava')
    assert any("carrier 'lava" in p for p in found), found


def test_enter_turn_must_be_a_number() -> None:
    found = shipped_problems("firefight", "scenario1.toml", 'hex = "1916"',
                             'enter = { turn = "x", hexes = ["1916"] }')
    assert any("enter.turn must be a turn number" in p for p in found), found


def test_mbt_setup_array_and_wrong_types() -> None:
    found = shipped_problems("mbt", "basic-a.toml", "[setup]", "[[setup]]")
    assert any("[setup] must be a table" in p for p in found), found
    found = shipped_problems("mbt", "basic-a.toml", "depth = 4", 'depth = "4"')
    assert any("[setup.depth]: must be an integer" in p for p in found), found
    found = shipped_problems("mbt", "basic-a.toml", "margin = 30", 'margin = "x"')
    assert any("[victory.margin]" in p for p in found), found
    found = shipped_problems("mbt", "basic-a.toml", "margin = 30", 'margn = 30')
    assert any("did you mean 'margin'" in p for p in found), found


def test_mbt_table_packs_stay_in_the_scenario_folder() -> None:
    found = shipped_problems("mbt", "basic-a.toml", "[setup]", '[special]\ntables = "/etc"\n[setup]')
    assert any("relative path" in p for p in found), found


def test_firepower_wrong_types() -> None:
    found = shipped_problems("firepower", "basic.toml", "impulses = 2", 'impulses = "2"')
    assert any("impulses" in p and "integer" in p for p in found), found
    found = shipped_problems("firepower", "basic.toml", 'fold = "Q"', "fold = []")
    assert any("[special.fold]" in p for p in found), found


# -- issue 9 item 10: nothing is silently accepted ---------------------------------------------


@pytest.mark.parametrize("old, new, words", [
    ('id = "r1"', 'id = ""', "[units[0].id]: unit id '' is not 1-64 letters"),
    ('id = "r1"', 'id = "</script><script>x"', "is not 1-64 letters, digits"),
    ('id = "r1"', 'id = "a b"', "is not 1-64 letters"),
    ('id = "r1"', 'id = "' + "a" * 65 + '"', "is not 1-64 letters"),
    ("turns = 3", "turns = 1000000", "turns must be 1 to 1000"),
    ("turns = 3", "turns = 0", "turns must be 1 to 1000"),
    ("turns = 3", "turns = 3\nrule = []", "unknown key 'rule' in [scenario] (hint: did you mean 'rules'?)"),
    ("turns = 3", "turns = 3\ntitel = 'x'", "did you mean 'title'?"),
    ('hex = "1A1"', 'hex = "1A1"\nfacnig = 2', "[units[0].facnig]: unknown key 'facnig' in [units[0]] "
                                          "(hint: did you mean 'facing'?)"),
    ('hex = "1A1"', 'enter = { turn = 2, hex = "1A1", hexx = "1A2" }', "[units[0].enter.hexx]"),
    ("[board]", "[board]\npanel = 1", "unknown key 'panel' in [board] (hint: did you mean 'panels'?)"),
    ('{ panel = "toy:panel-1" }', '{ panel = "toy:panel-1", rotaton = 180 }', "did you mean 'rotation'?"),
    ("[board]", '[board]\nterrain = { "1A1" = "lava" }', "unknown terrain type 'lava'"),
    ("[sides.red]", "[victroy]\n[sides.red]",
     "unknown top-level table [victroy] (hint: did you mean 'victory'?)"),
])
def test_silently_accepted_things_are_problems(old: str, new: str, words: str) -> None:
    assert old in TOY
    found = problems_of(TOY.replace(old, new, 1))
    assert any(words in p for p in found), found


def test_valid_unit_ids_pass() -> None:
    assert problems_of(TOY.replace('id = "r1"', 'id = "dummy-su9.A_1"')) == []


def test_panel_file_outside_the_folder_is_refused_without_reading_it(tmp_path: Path) -> None:
    for name in ("/dev/zero", "/etc/passwd", "../../../../etc/passwd"):
        text = TOY.replace('{ panel = "toy:panel-1" }', f'{{ file = "{name}" }}')
        found = problems_of(text)
        assert any("relative path" in p or "may not leave" in p for p in found), found
        assert not any("root:" in p for p in found)


def test_validate_is_linear_in_the_number_of_units() -> None:
    """Issue 9 item 13: finding each unit's line scanned the file once per unit."""
    import math
    import time

    head = TOY.split("[[units]]")[0]

    def seconds(n: int) -> float:
        units = "".join(f'\n[[units]]\nid = "u{i}"\ntype = "toy:gnu{i % 7}"\nside = "red"\n'
                        f'hex = "9Z{i}"\n' for i in range(n))
        best = math.inf
        for _ in range(3):  # CPU time, best of three: other work on the machine does not count
            start = time.process_time()
            found = problems_of(head + units)
            best = min(best, time.process_time() - start)
        assert len(found) >= n
        return best

    seconds(200)  # warm up (the board is built once)
    small, large = seconds(1000), seconds(8000)
    assert large < 8 * small * 3 + 0.5, (small, large)  # quadratic would be 64 times


@pytest.mark.parametrize("name, old, new, key", [
    ("scenario7.toml", 'hex = "2832"\n', 'hex = "ab"\n', "[victory.hex]"),
    ("scenario8.toml", 'crossroads = "B:2140"', 'crossroads = "B:9999"', "[victory.crossroads]"),
])
def test_firefight_victory_hexes_are_on_the_board(name: str, old: str, new: str, key: str) -> None:
    """Read only when the game ends: a bad label used to crash the last turn."""
    found = shipped_problems("firefight", name, old, new)
    assert any(key in p for p in found), found
