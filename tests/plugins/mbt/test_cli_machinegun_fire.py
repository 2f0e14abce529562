"""``hexwar mbt fire --ammo GP --weapon "HMG TTC"``: a vehicle's independent machinegun fired at
the table as GP point effect fire with its own GP line (MBT 14.1.2, 14.4), each modifier with its
rule, the dice and the result; what the rules forbid exits 2 naming the rule."""

from __future__ import annotations

import json
from typing import Any

import pytest
from click.testing import CliRunner

from hexwar.plugins.mbt.cards import load_cards
from hexwar.plugins.mbt.cli import mbt_group
from hexwar.plugins.mbt.gp_fire import card_gp_factor


def fire(*args: str) -> Any:
    return CliRunner().invoke(mbt_group, ["fire", *args])


def _json(*args: str) -> dict[str, Any]:
    r = fire(*args, "--json")
    assert r.exit_code == 0, r.output
    out: dict[str, Any] = json.loads(r.output)
    return out


def test_a_machinegun_fires_gp_with_its_own_line_14_1_2() -> None:
    """MBT 14.1.2, 14.4.1: the M1's HMG fires by its own NM and MV lines, not the 105mm's."""
    m1 = load_cards(())["M1"]
    out = _json("M1", "Motor Rifle Squad", "--ammo", "GP", "--weapon", "HMG TTC", "--range", "3",
                "--dice", "40")
    assert out["weapon"] == "HMG TTC" and out["gp_line"] == "NM"
    assert out["gp_factor"] == card_gp_factor(m1, "HMG TTC", 3, False)
    assert out["gp_factor"] != card_gp_factor(m1, "105mm", 3, False)
    assert out["machinegun"] == {"size": "HMG", "location": "TTC", "arc": "360"}
    assert "MBT 14.1.2" in out["rules"] and out["roll"] == 40
    moving = _json("M1", "Motor Rifle Squad", "--ammo", "GP", "--weapon", "MG TTO", "--range",
                   "3", "--firer-moving", "--dice", "40")
    assert moving["gp_line"] == "MV"
    assert moving["gp_factor"] == card_gp_factor(m1, "MG TTO", 3, True)
    text = fire("M1", "Motor Rifle Squad", "--ammo", "GP", "--weapon", "HMG TTC", "--range", "3",
                "--dice", "99").output
    for line in ("M1 HMG TTC GP at Motor Rifle Squad, range 3",
                 "Machinegun: HMG at TTC (open or buttoned; MBT 14.1.2.2)",
                 f"GP factor: {out['gp_factor']} (NM line, MBT 14.4.1)", "-> EF",
                 "Dice: 99 (GP fire) - from --dice"):
        assert line in text, text


def test_a_machinegun_shot_takes_the_gp_modifiers_14_4_2() -> None:
    """MBT 14.4.2: the machinegun's shot has the modifiers of any GP shot (overwatch at a mover,
    other smoke, a vehicle target in woods), each with its rule."""
    flags = ["--range", "3", "--overwatch", "--target-moving", "--smoke", "1", "--terrain",
             "woods", "--dice", "50"]
    mg = _json("M1", "T-72M1", "--ammo", "GP", "--weapon", "HMG TTC", *flags)
    gun = _json("M1", "T-72M1", "--ammo", "GP", *flags)
    assert mg["modifiers"] == gun["modifiers"] and mg["net"] == gun["net"] < 0
    rules = {m["rule"].split(" [")[0] for m in mg["modifiers"]}
    assert {"MBT 14.4.2.1.7", "MBT 14.4.2.1.8", "MBT 14.4.2.2.2", "MBT 14.4.2.2.4"} <= rules
    assert mg["modified"] == 50 + mg["net"]


def test_a_machinegun_at_a_terrain_marker_14_4_3_3_1() -> None:
    """MBT 14.4.3.3.1: a machinegun is a GP weapon (not small arms), so it may fire at wire."""
    m1 = load_cards(())["M1"]
    out = _json("M1", "wire", "--ammo", "GP", "--weapon", "HMG TTC", "--range", "5", "--dice",
                "90")
    assert out["weapon"] == "HMG TTC"
    assert out["gp_factor"] == card_gp_factor(m1, "HMG TTC", 5, False)


def test_with_a_crew_loss_the_main_gun_is_not_fired_as_well_14_1_2_3() -> None:
    out = _json("M1", "Motor Rifle Squad", "--ammo", "GP", "--weapon", "HMG TTC", "--range", "3",
                "--crew-losses", "1", "--dice", "50")
    assert "MBT 14.1.2.3" in out["note"]
    assert "MBT 14.4.2.1.2" in str(out["modifiers"])
    plain = _json("M1", "Motor Rifle Squad", "--ammo", "GP", "--weapon", "HMG TTC", "--range", "3",
                  "--dice", "50")
    assert "note" not in plain


@pytest.mark.parametrize(("args", "rule"), [
    (["--weapon", "HMG TTC", "--range", "3", "--suppressed"], "MBT 12.3.2"),
    (["--weapon", "MG TTO", "--range", "3", "--firer-buttoned"], "MBT 14.1.2.2"),
    (["--weapon", "HMG TTC", "--range", "17"], "MBT 14.4.1"),
    (["--weapon", "MG TTO", "--range", "13"], "MBT 14.4.1"),
    (["--weapon", "HMG", "--range", "3"], "MBT 14.1.2"),
    (["--weapon", "HMG TTC", "--range", "1", "--overrun"], "MBT 14.7.2.2.1"),
])
def test_machinegun_bad_input_exits_2_naming_the_rule(args: list[str], rule: str) -> None:
    r = fire("M1", "Rifle Team", "--ammo", "GP", *args)
    assert r.exit_code == 2 and rule in r.output and "Traceback" not in r.output, r.output


def test_a_machinegun_fires_gp_only_14_1_2() -> None:
    """MBT 14.1.2, 14.4: no AP round, canister or smoke from a machinegun; a buttoned M1 still
    fires its "C" heavy machinegun (MBT 14.1.2.2)."""
    for ammo in ("APFSDS", "canister", "smoke"):
        r = fire("M1", "T-72M1", "--ammo", ammo, "--weapon", "HMG TTC", "--range", "3")
        assert r.exit_code == 2 and "MBT 14.1.2" in r.output and "--ammo GP" in r.output, r.output
    ok = fire("M1", "Rifle Team", "--ammo", "GP", "--weapon", "HMG TTC", "--range", "3",
              "--firer-buttoned", "--dice", "20")
    assert ok.exit_code == 0, ok.output


def test_weapon_with_other_kinds_of_fire() -> None:
    """``--weapon`` with canister or smoke may name only the main gun (its alternate ammunition,
    MBT 14.4.5); a close assault or hand-to-hand combat names no weapon (MBT 14.5.2.1, 14.6)."""
    ok = fire("Leopard 1A4", "9J6", "--ammo", "smoke", "--weapon", "105mm", "--range", "4")
    assert ok.exit_code == 0, ok.output
    bad = fire("Leopard 1A4", "9J6", "--ammo", "smoke", "--weapon", "MG TTO", "--range", "4")
    assert bad.exit_code == 2 and "MBT 14.1.2" in bad.output, bad.output
    for ammo, rule in (("CA", "MBT 14.5.2.1"), ("H2H", "MBT 14.6")):
        r = fire("Rifle Squad", "T-72M1", "--ammo", ammo, "--weapon", "Small arms")
        assert r.exit_code == 2 and rule in r.output and "--weapon" in r.output, r.output
