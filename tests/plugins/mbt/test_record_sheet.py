"""MBT 10.3: each side's RECORD SHEET, read from the game state: one row per own unit with its
organization, ident, type and card code, officer, attached weapons, damage, smoke used, crew
losses, transport and notes; a side's sheet never lists the other side's units; ``hexwar mbt
record`` prints it for a scenario at set-up or a saved game."""

from __future__ import annotations

import json
from typing import Any

from click.testing import CliRunner

from hexwar.plugins.mbt import transport
from hexwar.plugins.mbt.cli import mbt_group
from hexwar.plugins.mbt.plugin import hexwar_register_commands
from hexwar.plugins.mbt.record_sheet import COLUMNS, format_sheet, record_sheet

ADV = ["mbt.advanced"]


def _game(make_game: Any) -> Any:
    g = make_game([("B1", "Transport BTR", "Soviet", "9J10", 1),
                   ("S1", "Motor Rifle Squad", "Soviet", "9J10", 1),
                   ("T1", "T-72M1", "Soviet", "9K10", 1),
                   ("N1", "M1", "NATO", "9J2", 4)], options=ADV)
    b1, s1, t1 = (g.state.units[k] for k in ("B1", "S1", "T1"))
    b1.state["order"] = s1.state["order"] = "M"
    transport.load(g, b1, s1)
    b1.state.update(organization="1st Platoon", officer="CO", grade="crack", crew_losses=1,
                    ds_used=True, mg_lost=["HMG"])
    b1.state["damage"]["compartment"] = "hull"
    s1.state.update(organization="1st Platoon", half=True, suppressed="ON")
    t1.state.update(organization="2nd Platoon", doctrine="S2", ex_used=2)
    t1.state["damage"]["track"] = True
    return g


def test_each_unit_has_its_record_sheet_row_10_3(make_game: Any) -> None:
    g = _game(make_game)
    rows = {r["ident"]: r for r in record_sheet(g, "Soviet")}
    assert set(rows) == {"B1", "S1", "T1"}
    b1, s1, t1 = rows["B1"], rows["S1"], rows["T1"]
    assert tuple(b1) == COLUMNS
    assert b1["organization"] == "1st Platoon" and b1["officer"] == "CO"
    assert b1["type"].startswith("Transport BTR")
    assert b1["damage"] == "hull compartment, HMG lost" and b1["crew_losses"] == 1
    assert b1["smoke"] == "DS used" and b1["transport"] == "carries S1"
    assert b1["notes"] == "crack" and b1["fuel"] == "-"  # fuel: optional 17.3.3, not played
    assert s1["transport"] == "in B1" and "half squad" in s1["notes"]
    assert "suppressed (ON)" in s1["notes"]
    assert t1["damage"] == "track" and t1["smoke"] == "EX used 2"
    assert t1["notes"] == "average, doctrine S2" and t1["organization"] == "2nd Platoon"
    # grouped by organization, in the order the units come
    assert [r["ident"] for r in record_sheet(g, "Soviet")] == ["B1", "S1", "T1"]
    text = format_sheet("Soviet", record_sheet(g, "Soviet"))
    assert "RECORD SHEET: Soviet (MBT 10.3)" in text and "ORGANIZATION: 2nd Platoon" in text


def test_a_sheet_holds_only_its_own_sides_units_10_3(make_game: Any) -> None:
    """MBT 10.3 (one sheet per side) and 6.1: NATO's sheet lists the M1 and nothing of the
    Soviets."""
    g = _game(make_game)
    rows = record_sheet(g, "NATO")
    assert [r["ident"] for r in rows] == ["N1"]
    assert "S1" not in json.dumps(rows) and "B1" not in json.dumps(rows)


def _record(*args: str) -> Any:
    import click

    hexwar_register_commands(click.Group("hexwar"))
    return CliRunner().invoke(mbt_group, ["record", *args])


def test_hexwar_mbt_record_of_a_scenario_at_set_up_10_3() -> None:
    """``hexwar mbt record``: Scenario One matchup 3's NATO sheet at set-up: the officers where the
    scenario puts them (MBT 12.8.2), the squads' attached weapons and carriers; no Soviet unit."""
    r = _record("mbt:scenario-one-3", "--side", "NATO", "--json")
    assert r.exit_code == 0, r.output
    out = json.loads(r.output)
    assert list(out["sheets"]) == ["NATO"]
    rows = {x["ident"]: x for x in out["sheets"]["NATO"]}
    assert all(k.startswith("N") for k in rows) and len(rows) == 13
    assert rows["NA-1"]["officer"] == "CO" and rows["NA-3"]["officer"] == "XO"
    assert rows["NA-3"]["armaments"] == "att PZF-44" and rows["NA-3"]["transport"] == "carrier NA-2"
    assert rows["N1-1"]["organization"] == "1st Panzer Platoon"
    both = _record("mbt:scenario-one-3")
    assert both.exit_code == 0 and "RECORD SHEET: NATO" in both.output
    assert "RECORD SHEET: Soviet" in both.output


def test_hexwar_mbt_record_bad_input_exits_2() -> None:
    r = _record("mbt:scenario-one-3", "--side", "Martians")
    assert r.exit_code == 2 and "unknown side 'Martians'" in r.output
