"""MBT 14.1.2: the two stand-in transports carry their HMG as an independent machinegun, their
only weapon (docs/decisions.md MBTD-150), and a vehicle's machinegun fires GP only, never AP
(MBTD-149)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from hexwar.core.errors import DataError
from hexwar.plugins.mbt import machineguns
from hexwar.plugins.mbt.cards import SHIPPED_ADVANCED, load_card, load_cards
from hexwar.plugins.mbt.fire import ammo_options, direct_fire_phase, fire_error

ADV = ["mbt.advanced"]
F = ("F", "FM")


@pytest.mark.parametrize(("card", "location"), [("Transport APC", "TTO"),
                                                 ("Transport BTR", "TFC")])
def test_the_transports_hmg_is_a_machinegun_14_1_2(card: str, location: str) -> None:
    """MBT 14.1.2: "on some vehicles, machineguns are the only weapons carried": the carrier has no
    main gun, one HMG (location estimated), a GP line and no AP line (MBTD-149, MBTD-150)."""
    c = load_cards(())[card]
    assert c.main_gun is None
    mgs = machineguns.machineguns(c)
    assert [(m.name, m.size, m.location) for m in mgs] == [("HMG", "HMG", location)]
    assert c.weapon("HMG").ammo == {}
    import tomllib

    files = {"Transport APC": "xa-1_transport-apc.toml", "Transport BTR": "xa-2_transport-btr.toml"}
    raw = tomllib.loads((SHIPPED_ADVANCED / files[card]).read_text(encoding="utf-8"))
    assert raw["weapons"][0]["location"] == {"value": location, "source": "estimated"}


def _game(make_game: Any, card: str, side: str, open_: bool) -> Any:
    enemy = "NATO" if side == "Soviet" else "Soviet"
    g = make_game([("C1", card, side, "9J1", 4), ("S1", "Motor Rifle Squad" if enemy == "Soviet"
                                                 else "Rifle Squad", enemy, "9J4", 1),
                   ("T1", "T-72M1" if enemy == "Soviet" else "M1", enemy, "9J6", 1)],
                  options=ADV)
    c1 = g.state.units["C1"]
    c1.state["order"] = "F"
    c1.state["open"] = open_
    g.state.phase = "mbt.direct_fire"
    for uid in ("S1", "T1"):
        g.state.units[uid].state["spotted"] = "FIRED"
    return g


def test_a_transport_fires_its_hmg_as_gp_only_14_1_2(make_game: Any, run: Any) -> None:
    """MBT 14.1.2, 14.4: the BTR's one shot is ``HMG/GP`` (no AP round is offered or accepted,
    MBTD-149); it fires at the squad in the Direct Fire Step, recorded as machinegun fire."""
    g = _game(make_game, "Transport BTR", "Soviet", open_=False)
    c1, s1, t1 = (g.state.units[u] for u in ("C1", "S1", "T1"))
    assert ammo_options(g, c1) == ["HMG/GP"]
    assert fire_error(g, c1, s1, "HMG/GP", orders=F) is None
    err = fire_error(g, c1, t1, "AP", orders=F)
    assert err is not None
    g.state.units["C1"].state["order"] = "F"
    choice = {"target": "S1", "shots": [["C1", "HMG/GP"]]}
    run(direct_fire_phase(g), lambda d: choice if d.side == "Soviet" and d.kind == "mbt.fire"
        and not c1.state.get("fired") else "pass")
    shot = [e for e in g.log.for_side("Soviet") if e.get("what") == "machinegun fire"]
    assert shot and shot[0]["weapon"] == "HMG" and "MBT 14.1.2" in shot[0]["rules"]


def test_the_apcs_hmg_fires_only_open_14_1_2_2(make_game: Any) -> None:
    """MBT 14.1.2.2: the APC's HMG sits at "TTO": buttoned, it may not fire; open, it may."""
    g = _game(make_game, "Transport APC", "NATO", open_=False)
    c1, s1 = g.state.units["C1"], g.state.units["S1"]
    err = fire_error(g, c1, s1, "HMG/GP", orders=F)
    assert err is not None and "MBT 14.1.2.2" in err
    c1.state["open"] = True
    assert fire_error(g, c1, s1, "HMG/GP", orders=F) is None


def test_a_vehicle_machinegun_with_an_ap_line_is_refused_on_the_card(tmp_path: Path) -> None:
    """MBT 14.1.1.1, 14.1.2 (MBTD-149): a vehicle's independent machinegun has no AP fire, so a
    card giving one an AP ammunition line is refused, naming the key and the decision."""
    text = (SHIPPED_ADVANCED / "xa-2_transport-btr.toml").read_text(encoding="utf-8")
    ap = ('\n[[weapons.ammo]]\ntype = "AP"\nenergy = "KE"\nap = [8, 6, 4, 2, 1]\n'
          'pv = [12, 10, 8, 6, 4]\n\n[weapons.ammo.damage]\nno_dam = "01-30"\n'
          'cmp_hit = "31-70"\nknk_out = "71-95"\nbrw_up = "96-100"\n\n')
    bad = tmp_path / "bad.toml"
    bad.write_text(text.replace("\n[hit_location]", ap + "[hit_location]", 1), encoding="utf-8")
    with pytest.raises(DataError, match=r"MBTD-149") as exc:
        load_card(bad)
    assert "weapons[0].ammo" in str(exc.value) and "MBT 14.1.2" in str(exc.value)
