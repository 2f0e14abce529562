"""MBT 14.4.3.3.1 with MBT 14.1.2: a vehicle's independent machineguns fire GP at terrain markers
in the game (they are GP weapons and not small arms), under the machinegun rules (MBTD-148)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from hexwar.plugins.mbt import gp_terrain
from hexwar.plugins.mbt.advanced_tables import load_advanced
from hexwar.plugins.mbt.cards import SHIPPED
from hexwar.plugins.mbt.fire import direct_fire_phase
from hexwar.plugins.mbt.gp_fire import gp_factor
from hexwar.plugins.mbt.state import data

ADV = ["mbt.advanced"]
WIRE = 'markers = [{ hex = "9J5", kind = "wire" }]'
F = ("F", "FM")
HMG = "HMG TTC/GP"
MG = "MG TTO/GP"


def _game(make_game: Any, special: str = WIRE, **kw: Any) -> Any:
    units = [("N1", "M1", "NATO", "9J1", 4), ("S1", "T-80A", "Soviet", "9J20", 1)]
    g = make_game(units, options=ADV, special=special, **kw)
    g.state.units["N1"].state["order"] = "F"
    g.state.phase = "mbt.direct_fire"  # the step a test's shots are fired in
    return g


def _wire(*shots: tuple[str, str]) -> dict[str, Any]:
    return {"target": None, "hex": "9J5", "at": "wire", "shots": [list(s) for s in shots]}


def _err(g: Any, choice: dict[str, Any]) -> str | None:
    return gp_terrain.choice_error(g, "NATO", choice, F, set())


def test_machineguns_are_offered_at_terrain_beside_the_main_gun_14_4_3_3_1(make_game: Any) -> None:
    """MBT 14.4.3.3.1, 14.1.2: the M1 is offered its 105mm and each of its machineguns at the wire;
    buttoned, its "O" machinegun is not (MBT 14.1.2.2)."""
    g = _game(make_game)
    offered = [o["shots"][0][1] for o in gp_terrain.options(g, "NATO", F, set())]
    assert offered == ["GP", HMG, MG]
    g.state.units["N1"].state["open"] = False
    offered = [o["shots"][0][1] for o in gp_terrain.options(g, "NATO", F, set())]
    assert offered == ["GP", HMG]
    err = _err(g, _wire(("N1", MG)))
    assert err is not None and "MBT 14.1.2.2" in err


@pytest.mark.parametrize(("change", "shots", "pattern"), [
    (lambda u: u.state.update(suppressed="ON"), [("N1", HMG)], r"suppressed.*MBT 12\.3\.2"),
    (lambda u: u.state.update(crew_losses=1), [("N1", "GP"), ("N1", HMG)],
     r"crew loss.*MBT 14\.1\.2\.3"),
    (lambda u: u.state.update(mg_lost=["HMG TTC"]), [("N1", HMG)], r"MBT 14\.3\.3\.4\.2"),
    (lambda u: u.state.update(order="M"), [("N1", HMG)], r"F/FM orders.*MBT 7\.1\.1"),
    (lambda u: None, [("N1", "APFSDS")], r"GP point effect fire only.*MBT 12\.4\.2"),
    (lambda u: None, [("N1", "MG TTX/GP")], r"GP point effect fire only.*MBT 12\.4\.2"),
])
def test_a_machinegun_at_terrain_keeps_the_machinegun_rules_14_1_2(
        make_game: Any, change: Any, shots: list[tuple[str, str]], pattern: str) -> None:
    """MBT 12.3.2, 14.1.2.3, 14.3.3.4.2: each refusal names its rule and changes nothing."""
    g = _game(make_game)
    n1 = g.state.units["N1"]
    change(n1)
    before = (dict(data(g)["markers"]), dict(n1.state))
    err = _err(g, _wire(*shots))
    assert err is not None and re.search(pattern, err), err
    assert (dict(data(g)["markers"]), dict(n1.state)) == before


def test_a_machinegun_out_of_range_of_the_marker_is_refused_14_4_1(make_game: Any) -> None:
    """MBT 14.4.1: the machinegun's own GP line (the M1's MG reaches 12 hexes, the 105mm 40)."""
    g = _game(make_game, special='markers = [{ hex = "9J15", kind = "wire" }]')
    choice = {"target": None, "hex": "9J15", "at": "wire", "shots": [["N1", MG]]}
    err = _err(g, choice)
    assert err is not None and "MG TTO" in err and "MBT 14.4.1" in err
    choice["shots"] = [["N1", "GP"]]
    assert _err(g, choice) is None


def test_main_gun_and_machinegun_fire_at_the_wire_in_one_declaration_14_1_2_1(
        make_game: Any, run: Any, dice_faces: Any) -> None:
    """MBT 14.1.2.1, 14.4.4.1: the 105mm and the HMG fire at the wire together; each shot is
    rolled with its own GP factor and recorded with its weapon; both guns are noted as fired."""
    g = _game(make_game)
    rolls = [1, 1]  # no effect either way
    g.dice.force(*dice_faces(*rolls))
    choice = _wire(("N1", "GP"), ("N1", HMG))
    run(direct_fire_phase(g), lambda d: choice if d.kind == "mbt.fire" and d.side == "NATO"
        and not g.state.units["N1"].state.get("fired") else "pass")
    shots = [e for e in g.log.for_side("NATO") if e.get("what") == "GP point effect fire at terrain"]
    assert [(e["weapon"], e["gp_factor"]) for e in shots] == [
        ("105mm", gp_factor(g, g.state.units["N1"], "105mm", 4, False)),
        ("HMG TTC", gp_factor(g, g.state.units["N1"], "HMG TTC", 4, False))]
    assert "MBT 14.1.2" in shots[1]["rules"] and "MBT 14.1.2" not in shots[0]["rules"]
    assert g.state.units["N1"].state["gun_fire"]["names"] == ["105mm", "HMG TTC"]


def test_a_machinegun_destroys_the_wire_14_4_4_2_3_5(make_game: Any, run: Any,
                                                     dice_faces: Any) -> None:
    """MBT 14.4.4.2.3.5: a machinegun's effective result destroys the wire at the end of the step,
    as the main gun's does."""
    g = _game(make_game)
    factor = gp_factor(g, g.state.units["N1"], "HMG TTC", 4, False)
    assert factor is not None
    _n, s, _src = load_advanced().gp_thresholds(factor, gp_terrain.terrain_defense()["wire"][0])
    g.dice.force(*dice_faces(s + 1))
    choice = _wire(("N1", HMG))
    run(direct_fire_phase(g), lambda d: choice if d.kind == "mbt.fire" and d.side == "NATO"
        and choice in d.options else "pass")
    g.apply_deferred()
    assert "9J5" not in data(g)["markers"]


def test_a_machinegun_may_follow_the_main_guns_shot_in_the_step_14_1_2_1(make_game: Any,
                                                                          run: Any) -> None:
    """MBT 14.1.2.1 (MBTD-128): the 105mm fired at one wire; in the same Direct Fire Step the HMG
    is still offered at another (the first wire took its one declaration, MBT 7.3.2); in a later
    step it is not kept."""
    g = _game(make_game, special='markers = [{ hex = "9J5", kind = "wire" }, '
                                 '{ hex = "9H5", kind = "wire" }]')
    asked: list[Any] = []
    answers = [_wire(("N1", "GP"))]

    def answer(d: Any) -> Any:
        if d.kind == "mbt.fire" and d.side == "NATO":
            asked.append([(o["hex"], o["shots"]) for o in d.options
                          if isinstance(o, dict) and "hex" in o])
            if answers:
                return answers.pop(0)
        return "pass"

    run(direct_fire_phase(g), answer)
    assert ("9H5", [["N1", HMG]]) in asked[1] and ("9H5", [["N1", "GP"]]) not in asked[1]
    assert not any(label == "9J5" for label, _s in asked[1])
    g.state.phase = "mbt.movement"
    err = _err(g, {"target": None, "hex": "9H5", "at": "wire", "shots": [["N1", HMG]]})
    assert err is not None and "MBT 14.1.2.1" in err


def test_a_machinegun_the_card_calls_small_arms_may_not_fire_at_terrain_14_4_3_3_1(
        make_game: Any, tmp_path: Path) -> None:
    """MBT 14.4.3.3.1: a weapon the card's NOTES call small arms fires at no terrain (a test card
    whose HMG is marked so)."""
    folder = tmp_path / "cards"
    folder.mkdir()
    text = (SHIPPED / "usa-1a_m1.toml").read_text(encoding="utf-8")
    text = text.replace('machinegun = "HMG"\n', 'machinegun = "HMG"\nsmall_arms = true\n', 1)
    (folder / "m1.toml").write_text(text, encoding="utf-8")
    g = _game(make_game, special=WIRE + '\ncards = "cards"')
    err = _err(g, _wire(("N1", HMG)))
    assert err is not None and "small arms" in err and "MBT 14.4.3.3.1" in err
    assert _err(g, _wire(("N1", MG))) is None
