"""``hexwar mbt fire --ammo GP | CA | H2H``: the Advanced Game's GP point effect fire (MBT 14.4),
close assault (MBT 14.5) and hand-to-hand combat (MBT 14.6) at the table, each modifier with its
rule, the dice and the result; bad input exits 2 naming the rule."""

from __future__ import annotations

import json
from typing import Any

from click.testing import CliRunner

from hexwar.plugins.mbt.advanced_tables import load_advanced
from hexwar.plugins.mbt.cli import mbt_group


def fire(*args: str) -> Any:
    return CliRunner().invoke(mbt_group, ["fire", *args])


def test_gp_fire_at_a_squad_in_woods_14_4() -> None:
    r = fire("M1", "Motor Rifle Squad", "--ammo", "GP", "--range", "3", "--terrain", "woods",
             "--overwatch", "--target-moving", "--grade", "crack", "--dice", "70")
    assert r.exit_code == 0, r.output
    d = load_advanced().leg_defense[("Motor Rifle Squad", "woods", "MV")].value
    for line in ("GP point effect fire (MBT 14.4)", "GP factor: 25 (NM line, MBT 14.4.1)",
                 f"GP defense: {d} ", "-15  firing overwatch  (MBT 14.4.2.1.8",
                 "Dice: 70 (GP fire) - from --dice"):
        assert line in r.output, r.output
    grade = load_advanced().gp_grade_modifier("crack", 3)
    assert ("firer grade: crack" in r.output) is (grade.value != 0)


def test_gp_json_and_the_overrun_fire_plus_20_mbt_88() -> None:
    """MBT-88 (MBT 14.7.2.2.2): overrun fire adds +20 to the normal modifiers (the MV line)."""
    r = fire("M1", "Rifle Team", "--ammo", "GP", "--range", "1", "--overrun", "--dice", "50",
             "--json")
    assert r.exit_code == 0, r.output
    out = json.loads(r.output)
    assert out["gp_line"] == "MV" and out["net"] == 20 and out["modified"] == 70
    assert [m["rule"].split(" [")[0] for m in out["modifiers"]] == ["MBT 14.7.2.2.2"]
    if out["result"] == "EF":
        assert out["effects"] == ["leg_elim"]
    bad = fire("M1", "T-72M1", "--ammo", "GP", "--range", "1", "--overrun")
    assert bad.exit_code == 2 and "MBT 14.7" in bad.output


def test_close_assault_mbt_85_modifiers_and_result_14_5() -> None:
    """MBT-85: crack squad, uphill, at an open moving vehicle: -10 -10 +10 +10 = 0."""
    r = fire("Motor Rifle Squad", "M1", "--ammo", "CA", "--grade", "crack", "--uphill",
             "--target-moving", "--dice", "100", "--json")
    assert r.exit_code == 0, r.output
    out = json.loads(r.output)
    assert out["net"] == 0 and out["ca_defense"] == 7
    assert out["result"] == "S" and out["effect"] == "the vehicle is suppressed"  # MBT 14.5.4
    text = fire("Motor Rifle Squad", "M1", "--ammo", "CA", "--dice", "01").output
    for line in ("close assault (MBT 14.5)", "Attack: 8 (the MV GP factor at one hex",
                 "CA defense: 7", "+10  vehicle open", "-> N", "Effect: no effect (MBT 14.5.4)"):
        assert line in text, text


def test_close_assault_bad_input_exits_2_with_the_rule() -> None:
    for args, rule in ((["M1", "T-72M1"], "MBT 14.5"),
                       (["Motor Rifle Squad", "M1", "--range", "3"], "MBT 14.5.1"),
                       (["Motor Rifle Squad", "M1", "--suppressed"], "MBT 14.5")):
        r = fire(*args, "--ammo", "CA")
        assert r.exit_code == 2 and rule in r.output and "Traceback" not in r.output, r.output


def test_hand_to_hand_mbt_83_three_attackers_14_6() -> None:
    """MBT-83 (MBT 14.6.3): three attackers -20; crack against crack 0."""
    r = fire("Rifle Squad", "Motor Rifle Squad", "--ammo", "H2H", "--attackers", "3", "--grade",
             "crack", "--target-grade", "crack", "--dice", "30", "--json")
    assert r.exit_code == 0, r.output
    out = json.loads(r.output)
    assert out["net"] == -20 and out["row"] == ["squad", "squad"] and out["modified"] == 10
    assert out["winner"] == ("attacker" if out["attacker_wins_to"] >= 10 else "defender")
    text = fire("Rifle Squad", "Motor Rifle Squad", "--ammo", "H2H", "--half",
                "--target-suppressed", "--dice", "90").output
    for line in ("HAND-TO-HAND COMBAT TABLE half vs squad", "-20  defender suppressed",
                 "(MBT 14.6.3.1", "the defender wins", "Rifle Squad suffers an effective result"):
        assert line in text, text
    bad = fire("Rifle Team", "Rifle Squad", "--ammo", "H2H")
    assert bad.exit_code == 2 and "MBT 14.6" in bad.output


def test_ap_fire_still_needs_a_range_and_refuses_the_advanced_flags() -> None:
    r = fire("M1", "T-72M1")
    assert r.exit_code == 2 and "--range" in r.output
    for flag in (["--buttoned"], ["--crew-losses", "1"], ["--attackers", "2"]):
        r = fire("M1", "T-72M1", "--range", "3", *flag)
        assert r.exit_code == 2 and flag[0] in r.output and "GP, canister, CA or H2H" in r.output
    assert fire("M1", "T-72M1", "--range", "3", "--dice", "50,50,50").exit_code == 0


def test_a_printed_modifier_cites_its_rule_once() -> None:
    # MBT 14.5.3.1: a value the text prints under its own rule needs no second source in brackets
    text = fire("Motor Rifle Squad", "M1", "--ammo", "CA", "--uphill", "--dice", "50").output
    assert "-10  attacking uphill  (MBT 14.5.3.1)" in text, text
    assert "[MBT 14.5.3.1]" not in text


def test_gp_fire_at_a_squad_in_a_ditch_at_the_table_14_4_3_2_3() -> None:
    """MBT 14.4.3.2.3 (MBTD-171): at the table the ditch's two numbers are the terrains
    ``ditch_above`` (fire from higher up) and ``ditch_level`` (from level or below)."""
    table = load_advanced().leg_defense
    for kind in ("ditch_above", "ditch_level"):
        r = fire("M1", "Motor Rifle Squad", "--ammo", "GP", "--range", "3", "--terrain", kind,
                 "--dice", "50")
        assert r.exit_code == 0, r.output
        assert f"GP defense: {table[('Motor Rifle Squad', kind, 'NM')].value} " in r.output
