"""MBT 15.3.4: leg units firing from the vehicle that carries them, with the transported-firer
modifiers (MBT 14.3.1.1.3, 14.4.2.1.5); towed units and missiles never fire carried
(MBT 15.3.4.1); from a buttoned full-cover carrier only by its card's NOTES, to 2 hexes
(MBT 15.3.4.2). Stand-in cards: ``Transport BTR`` (3LT), ``Transport APC`` (4L(FC), no firing
ports), ``Marder A1`` (2L(FC), ports: ``card.passenger_fire``, estimated)."""

from __future__ import annotations

import copy
from typing import Any

from hexwar.plugins.mbt import transport
from hexwar.plugins.mbt.fire import declaration_validator, direct_fire_phase, fire_error
from hexwar.plugins.mbt.gp_fire import gp_modifiers

from .conftest import drive

ADV = ["mbt.advanced"]
FIRE = ("F", "FM")


def _carried(make_game: Any, carrier: str, target_hex: str = "9J6", *, open_: bool = True,
             passenger: str = "Motor Rifle Squad") -> Any:
    g = make_game([("C1", carrier, "NATO" if carrier != "Transport BTR" else "Soviet", "9J10", 1),
                   ("S1", passenger, "NATO" if carrier != "Transport BTR" else "Soviet",
                    "9J10", 1),
                   ("T1", "M1" if carrier == "Transport BTR" else "T-72M1",
                    "NATO" if carrier == "Transport BTR" else "Soviet", target_hex, 4)],
                  options=ADV)
    c1, s1 = g.state.units["C1"], g.state.units["S1"]
    c1.state["order"] = s1.state["order"] = "M"
    transport.load(g, c1, s1)
    c1.state.update(order="F", open=open_, moved=False, used=False)
    s1.state.update(order="F", used=False)
    return g


def _state(g: Any) -> Any:
    return copy.deepcopy({k: (u.hex, u.facing, u.state) for k, u in g.state.units.items()})


def test_a_passenger_fires_from_an_open_carrier_at_its_hex_15_3_4_1(make_game: Any) -> None:
    g = _carried(make_game, "Transport BTR")
    s1, t1 = g.state.units["S1"], g.state.units["T1"]
    assert fire_error(g, s1, t1, "GP", orders=FIRE) is None
    assert s1.hex is None  # checked from the carrier's hex, still off the map (MBT 15.3.2.6)
    with transport.aboard(g, s1):
        assert s1.hex == g.state.units["C1"].hex
        names = {m.name: (m.value, m.rule) for m in gp_modifiers(
            g, s1, t1, overwatch=False, target_moving=False)}
    assert names["transported firer"][0] == -10
    assert "MBT 14.4.2.1.5" in names["transported firer"][1]
    assert s1.hex is None


def test_towed_units_and_missiles_never_fire_carried_15_3_4_1(make_game: Any) -> None:
    g = make_game([("B1", "Transport BTR", "Soviet", "9J10", 1),
                   ("G1", "AT Gun", "Soviet", "9J10", 1), ("N1", "M1", "NATO", "9J6", 4)],
                  options=ADV)
    b1, g1 = g.state.units["B1"], g.state.units["G1"]
    b1.state["order"] = g1.state["order"] = "M"
    transport.load(g, b1, g1)
    g1.state["order"] = "F"
    err = fire_error(g, g1, g.state.units["N1"], "GP", orders=FIRE)
    assert err is not None and "MBT 15.3.4.1" in err and "towed" in err
    assert transport.passenger_fire_error(g, g1, g.state.units["N1"], missile=True) is not None
    g2 = _carried(make_game, "Transport BTR")
    err = transport.passenger_fire_error(g2, g2.state.units["S1"], g2.state.units["T1"],
                                         missile=True)
    assert err is not None and "missile" in err and "MBT 15.3.4.1" in err


def test_buttoned_full_cover_carrier_without_ports_silences_its_passengers_15_3_4_2(
        make_game: Any) -> None:
    g = _carried(make_game, "Transport APC", open_=False, passenger="Rifle Squad")
    s1, t1 = g.state.units["S1"], g.state.units["T1"]
    err = fire_error(g, s1, t1, "GP", orders=FIRE)
    assert err is not None and "MBT 15.3.4.2" in err
    g.state.units["C1"].state["open"] = True  # normal ranges from an open carrier
    assert fire_error(g, s1, t1, "GP", orders=FIRE) is None


def test_firing_ports_reach_two_hexes_from_a_buttoned_carrier_15_3_4_2(make_game: Any) -> None:
    far = _carried(make_game, "Marder A1", "9J6", open_=False, passenger="Rifle Squad")
    err = fire_error(far, far.state.units["S1"], far.state.units["T1"], "GP", orders=FIRE)
    assert err is not None and "2 hexes" in err and "MBT 15.3.4.2" in err
    near = _carried(make_game, "Marder A1", "9J8", open_=False, passenger="Rifle Squad")
    assert fire_error(near, near.state.units["S1"], near.state.units["T1"], "GP",
                      orders=FIRE) is None


def test_a_refused_passenger_shot_is_a_clear_error_and_changes_nothing(make_game: Any) -> None:
    g = _carried(make_game, "Transport APC", open_=False, passenger="Rifle Squad")
    before = _state(g)
    err = declaration_validator(g, "NATO", orders=FIRE, overwatch=False)(
        {"target": "T1", "shots": [["S1", "GP"]]})
    assert err is not None and "MBT 15.3.4.2" in err
    assert _state(g) == before


def test_a_passenger_shot_in_the_direct_fire_step_15_3_4(make_game: Any) -> None:
    g = _carried(make_game, "Transport BTR")
    s1, c1 = g.state.units["S1"], g.state.units["C1"]
    c1.state["order"] = "M"  # only the passenger fires here (it keeps its F orders)

    def answer(d: Any) -> Any:
        if d.kind == "mbt.fire" and d.side == "Soviet":
            shot = {"target": "T1", "shots": [["S1", "GP"]]}
            assert shot in d.options  # offered to the side (MBT 15.3.3.1)
            return shot
        return "pass"

    drive(direct_fire_phase(g), answer)
    reports = [e for e in g.log.for_side(None) if e.get("firer") == "S1"]
    assert reports, "the passenger's shot was resolved"
    mods = [m for r in reports for m in r.get("modifiers", [])]
    assert any("MBT 14.4.2.1.5" in str(m) for m in mods)
    assert s1.hex is None and s1.state["mounted"] == "C1" and s1.state["fired"]
    assert c1.state["spotted"] == "FIRED"  # the carrier's counter is seen to fire (MBTD-90)


def test_overrun_fire_counts_passengers_behind_firing_ports_15_3_4_2(make_game: Any) -> None:
    from hexwar.plugins.mbt.overrun import attack_factor

    ports = _carried(make_game, "Marder A1", open_=False, passenger="Rifle Squad")
    _total, parts = attack_factor(ports, ports.state.units["C1"])
    assert any(p.startswith("S1 ") for p in parts)
    shut = _carried(make_game, "Transport APC", open_=False, passenger="Rifle Squad")
    _t, parts = attack_factor(shut, shut.state.units["C1"])
    assert not any(p.startswith("S1 ") for p in parts)
