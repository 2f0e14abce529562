"""``hexwar mbt fire --ammo canister | smoke``: the Advanced Game's alternate ammunition at the
table (MBT 14.4.5): canister as GP point effect fire with the canister modifiers, 2 to 10 hexes
and no explosive power (MBT 14.4.5.2, 14.4.2.3); a smoke round into a hex, 2 hexes to the GP
range, no dice, no damage (MBT 14.4.5.1). Bad input exits 2 naming the rule."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from click.testing import CliRunner

import hexwar.plugins.mbt as mbt_pkg
from hexwar.plugins.mbt.advanced_tables import load_advanced
from hexwar.plugins.mbt.cli import mbt_group

M60A3 = Path(mbt_pkg.__file__).parent / "data" / "advanced" / "cards" / "usa-3a1_m60a3.toml"


def fire(*args: str) -> Any:
    return CliRunner().invoke(mbt_group, ["fire", *args])


def test_canister_at_a_squad_plus_20_14_4_2_3() -> None:
    """MBT 14.4.5.2, 14.4.2.3: the M60A3's canister at a squad uses its GP factor with the +20 at
    a leg unit; each modifier with its rule, the table line, the dice and the result."""
    r = fire("M60A3", "Motor Rifle Squad", "--ammo", "canister", "--range", "4", "--dice", "30",
             "--json")
    assert r.exit_code == 0, r.output
    out = json.loads(r.output)
    plus = load_advanced().gp["canister_vs_leg_or_towed"].value
    assert out["ammo"] == "canister" and out["net"] == plus == 20
    assert [m["rule"].split(" [")[0] for m in out["modifiers"]] == ["MBT 14.4.2.3"]
    assert out["modified"] == 30 + plus and "MBT 14.4.5.2" in out["rules"]
    assert out["rolls"][0]["value"] == 30
    text = fire("M60A3", "Motor Rifle Squad", "--ammo", "canister", "--range", "4", "--dice",
                "30").output
    for line in ("canister (MBT 14.4.5.2)", "M60A3 105mm canister at Motor Rifle Squad, range 4",
                 "+20  canister at a leg or towed unit  (MBT 14.4.2.3", "Net modifier: +20",
                 "GP COMBAT RESULTS TABLE", f"Roll: 30 +20 = 50 -> {out['result']}",
                 "Dice: 30 (canister) - from --dice"):
        assert line in text, text


def test_canister_at_a_vehicle_minus_20_and_no_explosive_power_14_4_5_2(tmp_path: Path) -> None:
    """MBT 14.4.2.3: -20 at a vehicle; MBT 14.4.5.2: an effective canister result never destroys
    a vehicle by explosive power (MBT 14.4.4.2.3.3), though the same weapon's GP round does. The
    M60A3 card is given a GP effect line for the test (a card of one's own, ``--cards``)."""
    text = M60A3.read_text().replace(
        "[weapons.gp]\n", '[weapons.gp]\neffect = "EF=KNK OUT if GP DEF=1-5"\n', 1)
    (tmp_path / "m60a3.toml").write_text(text)
    common = ["Transport APC", "--range", "3", "--dice", "00", "--json", "--cards", str(tmp_path)]
    gp = json.loads(fire("M60A3", *common[:1], "--ammo", "GP", *common[1:]).output)
    r = fire("M60A3", *common[:1], "--ammo", "canister", *common[1:])
    assert r.exit_code == 0, r.output
    can = json.loads(r.output)
    assert gp["result"] == "EF" and gp["effects"] == ["KO"]
    assert can["net"] == load_advanced().gp["canister_vs_vehicle"].value == -20
    assert can["result"] == "EF" and "KO" not in can["effects"] and can["effects"]


def test_canister_bad_input_exits_2_with_the_rule() -> None:
    for args, rule in ((["M1", "T-72M1", "--range", "4"], "MBT 14.4.5"),
                       (["M60A3", "T-72M1", "--range", "11"], "MBT 14.4.5.2"),
                       (["M60A3", "T-72M1", "--range", "1"], "MBT 14.4.5.2"),
                       (["M60A3", "T-72M1", "--range", "4", "--overwatch"], "MBT 14.4.5"),
                       (["M60A3", "Rifle Team", "--range", "4", "--overrun"], "MBT 14.4.5"),
                       (["M60A3", "wire", "--range", "4"], "MBT 14.4.5.2")):
        r = fire(*args, "--ammo", "canister")
        assert r.exit_code == 2 and rule in r.output and "Traceback" not in r.output, r.output
    assert fire("M60A3", "T-72M1", "--ammo", "canister").exit_code == 2  # no --range


def test_smoke_round_into_a_hex_14_4_5_1() -> None:
    """MBT 14.4.5.1: TARGET is the hex; no dice, a smoke (ON) marker, no damage; the range runs
    from 2 hexes to the weapon's GP range (the M60A3 105mm's 40)."""
    r = fire("M60A3", "1G7", "--ammo", "smoke", "--range", "6", "--json")
    assert r.exit_code == 0, r.output
    out = json.loads(r.output)
    assert (out["kind"], out["hex"], out["range"], out["min_range"], out["max_range"]) == \
        ("smoke", "1G7", 6, 2, 40)
    assert out["marker"] == "smoke (ON)" and out["effects"] == [] and out["rolls"] == []
    text = fire("M60A3", "1G7", "--ammo", "smoke", "--range", "40").output
    for line in ("smoke round (MBT 14.4.5.1)", "M60A3 105mm smoke at hex 1G7, range 40",
                 "Range: 2 to 40 hexes", "No dice", "smoke (ON) marker", "no damage"):
        assert line in text, text


def test_smoke_round_bad_input_exits_2_with_the_rule() -> None:
    for args, rule in ((["M60A3", "1G7", "--range", "1"], "MBT 14.4.5.1"),
                       (["M60A3", "1G7", "--range", "41"], "MBT 14.4.5.1"),
                       (["M60A3", "1G7"], "MBT 14.4.5.1"),
                       (["M1", "1G7", "--range", "5"], "MBT 14.4.5"),
                       (["M60A3", "1G7", "--range", "5", "--overwatch"], "MBT 14.4.5"),
                       (["M60A3", "1G7", "--range", "5", "--dice", "20"], "MBT 14.4.5.1"),
                       (["M60A3", "1G7", "--range", "5", "--terrain", "woods"], "MBT 14.4.5.1"),
                       (["M60A3", "1G7", "--range", "5", "--grade", "crack"], "MBT 14.4.5.1"),
                       (["Nope", "1G7", "--range", "5"], "no card")):
        r = fire(*args, "--ammo", "smoke")
        assert r.exit_code == 2 and rule in r.output and "Traceback" not in r.output, r.output
