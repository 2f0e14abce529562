"""MBT 14.1.2.1 (MBTD-143): a smoke round (MBT 14.4.5.1) and a GP shot at a terrain marker
(MBT 12.4.2) are main gun fire, so the vehicle's machineguns may fire beside them in the same
step, and the main gun after its machineguns; each weapon once (MBT 7.1.5)."""

from __future__ import annotations

from typing import Any

from hexwar.plugins.mbt import alternate_ammo, gp_terrain
from hexwar.plugins.mbt.fire import direct_fire_phase, fire_error, fire_group

ADV = ["mbt.advanced"]
F = ("F", "FM")
WIRE = 'markers = [{ hex = "9J5", kind = "wire" }]'
SMOKE = {"target": None, "smoke_hex": "9J6", "shots": [["N1", "smoke"]]}
MG = {"target": "S1", "shots": [["N1", "MG TTO/GP"]]}


def _game(make_game: Any, firer: str = "Leopard 1A4", **kw: Any) -> Any:
    g = make_game([("N1", firer, "NATO", "9J1", 4), ("S1", "Motor Rifle Squad", "Soviet", "9J4", 1),
                   ("S2", "T-72M1", "Soviet", "9L8", 1)], options=ADV, **kw)
    g.state.units["N1"].state["order"] = "F"
    g.state.phase = "mbt.direct_fire"
    for uid in ("S1", "S2"):
        g.state.units[uid].state["spotted"] = "FIRED"  # seen at once (MBT 13.1)
    return g


def _mg_error(g: Any) -> str | None:
    return fire_error(g, g.state.units["N1"], g.state.units["S1"], "MG TTO/GP", orders=F)


def test_14_1_2_1_machineguns_fire_beside_a_smoke_round(make_game: Any) -> None:
    g = _game(make_game)
    assert alternate_ammo.smoke_choice_error(g, "NATO", SMOKE, set()) is None
    alternate_ammo.fire_smoke(g, "NATO", SMOKE)
    n1 = g.state.units["N1"]
    assert n1.state["gun_fire"]["names"] == ["105mm"]
    assert _mg_error(g) is None
    gun = fire_error(g, n1, g.state.units["S2"], "APFSDS", orders=F) or ""
    assert "MBT 7.1.5" in gun, gun  # the main gun fired its smoke: not again
    again = alternate_ammo.smoke_choice_error(
        g, "NATO", {**SMOKE, "smoke_hex": "9J7"}, set()) or ""
    assert "MBT 7.1.5" in again, again


def test_14_1_2_1_the_direct_fire_step_offers_the_machinegun_after_the_smoke_round(
        make_game: Any, run: Any) -> None:
    g = _game(make_game)
    answers = [SMOKE]

    def answer(d: Any) -> Any:
        return answers.pop(0) if d.side == "NATO" and answers else "pass"

    _res, asked = run(direct_fire_phase(g), answer)
    second = [d for d in asked if d.side == "NATO" and d.kind == "mbt.fire"][1]
    assert MG in second.options


def test_14_1_2_1_the_smoke_round_after_the_machinegun(make_game: Any, run: Any) -> None:
    g = _game(make_game)
    run(fire_group(g, "NATO", MG, overwatch=False, simultaneous=True), lambda d: d.options[0])
    assert g.state.units["N1"].state["fired"]
    assert alternate_ammo.smoke_choice_error(g, "NATO", SMOKE, set()) is None
    g.state.phase = "mbt.movement"  # not kept for a later step (MBT 14.1.2.1)
    later = alternate_ammo.smoke_choice_error(g, "NATO", SMOKE, set()) or ""
    assert "MBT 14.1.2.1" in later, later


def test_14_1_2_3_with_a_crew_loss_smoke_or_machineguns(make_game: Any) -> None:
    g = _game(make_game)
    g.state.units["N1"].state["crew_losses"] = 1
    alternate_ammo.fire_smoke(g, "NATO", SMOKE)
    err = _mg_error(g) or ""
    assert "MBT 14.1.2.3" in err, err


def test_14_1_2_1_machineguns_fire_beside_a_shot_at_wire(make_game: Any, run: Any) -> None:
    g = _game(make_game, firer="M1", special=WIRE)
    choice = {"target": None, "hex": "9J5", "at": "wire", "shots": [["N1", "GP"]]}
    assert gp_terrain.choice_error(g, "NATO", choice, F, set()) is None
    g.dice.force(1, 1)  # no effect on the wire
    gp_terrain.fire_at_terrain(g, "NATO", choice)
    assert g.state.units["N1"].state["gun_fire"]["names"] == ["105mm"]
    assert _mg_error(g) is None
    assert fire_error(g, g.state.units["N1"], g.state.units["S1"], "HMG TTC/GP", orders=F) is None
    again = gp_terrain.choice_error(g, "NATO", choice, F, set()) or ""
    assert "MBT 7.1.5" in again, again
