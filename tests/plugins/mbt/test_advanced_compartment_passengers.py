"""MBT 14.3.3.1: a compartment hit suppresses the carrier and every unit it transports; the
passengers then may not be unloaded, moved or pivoted and fire as suppressed firers
(MBT 12.3.3, 12.3.3.2, 14.4.2.1.3) until the marker goes (MBT 16.3)."""

from __future__ import annotations

import copy
from fractions import Fraction
from typing import Any

import pytest

from hexwar.core.errors import HexwarError
from hexwar.plugins.mbt import suppression, transport
from hexwar.plugins.mbt.fire import apply_effects
from hexwar.plugins.mbt.gp_fire import gp_modifiers

ADV = ["mbt.advanced"]


def _loaded(make_game: Any, carrier: str = "Transport BTR") -> Any:
    side, leg = ("Soviet", "Motor Rifle Squad") if carrier == "Transport BTR" else (
        "NATO", "Rifle Squad")
    enemy = ("N1", "M1", "NATO", "9J5", 4) if side == "Soviet" else ("N1", "T-72M1", "Soviet",
                                                                     "9J5", 4)
    g = make_game([("B1", carrier, side, "9J10", 1), ("S1", leg, side, "9J10", 1), enemy],
                  options=ADV)
    b1, s1 = g.state.units["B1"], g.state.units["S1"]
    b1.state["order"] = s1.state["order"] = "M"
    transport.load(g, b1, s1)
    return g


@pytest.mark.parametrize("hit", ["hull_compartment", "turret_compartment"])
def test_a_compartment_hit_suppresses_the_passengers_too_14_3_3_1(make_game: Any,
                                                                  hit: str) -> None:
    """MBT 14.3.3.1: carrier and passenger both get an ON marker."""
    g = _loaded(make_game)
    b1, s1 = g.state.units["B1"], g.state.units["S1"]
    apply_effects(g, b1, [hit])
    assert b1.state["suppressed"] == "ON"
    assert s1.state["suppressed"] == "ON" and not s1.state.get("destroyed")
    assert s1.state["mounted"] == "B1"
    ev = [e for e in g.log.for_side("Soviet") if e.get("type") == "suppressed"
          and e.get("unit") == "S1"]
    assert ev and ev[-1]["rule"] == "MBT 14.3.3.1"


def test_other_hits_do_not_suppress_the_passengers(make_game: Any) -> None:
    """Only a compartment hit carries suppression to the passengers (MBT 14.3.3.1)."""
    g = _loaded(make_game)
    apply_effects(g, g.state.units["B1"], ["track"])
    assert not suppression.suppressed(g.state.units["S1"])


def test_suppressed_passengers_cannot_be_unloaded_or_act_12_3_3(make_game: Any) -> None:
    """MBT 14.3.3.1 with 12.3.3/12.3.3.2: after the hit the squad may not be unloaded (the
    movement step does not offer it, a forced choice is refused naming the rule and changes
    nothing), fires with the firer-suppressed modifier, and once unloaded later may neither take
    M orders nor pivot while suppressed; after two Adjust Markers Steps it may be unloaded."""
    g = _loaded(make_game)
    b1, s1 = g.state.units["B1"], g.state.units["S1"]
    assert transport.unload_error(g, b1, s1) is None
    apply_effects(g, b1, ["hull_compartment"])
    err = transport.unload_error(g, b1, s1)
    assert err and "MBT 12.3.3" in err and "suppressed" in err
    assert ["unload", "S1"] not in transport.transport_options(g, b1, entered=False,
                                                               mf_left=Fraction(9))
    validate = transport.transport_validator(g, b1, False, Fraction(9))
    assert "MBT 12.3.3" in (validate(["unload", "S1"]) or "")
    before = copy.deepcopy({k: (u.hex, u.state) for k, u in g.state.units.items()})
    with pytest.raises(HexwarError, match=r"MBT 12\.3\.3"):
        transport.unload(g, b1, s1)
    assert copy.deepcopy({k: (u.hex, u.state) for k, u in g.state.units.items()}) == before
    # it still fires from its carrier, but as a suppressed firer (MBT 12.3.2, 14.4.2.1.3)
    s1.state["order"] = "F"
    with transport.aboard(g, s1):
        names = {m.name for m in gp_modifiers(g, s1, g.state.units["N1"], overwatch=False,
                                              target_moving=False)}
    assert "firer suppressed" in names
    assert suppression.order_error(g, s1, "M") is not None
    assert not suppression.may_pivot(g, s1)
    suppression.adjust_markers(g)  # ON -> OFF: still suppressed the next Turn (MBT 16.3)
    assert "MBT 12.3.3" in (transport.unload_error(g, b1, s1) or "")
    suppression.adjust_markers(g)  # OFF removed
    s1.state["order"] = "M"
    assert transport.unload_error(g, b1, s1) is None


def test_passengers_of_a_buttoned_full_cover_carrier_are_suppressed_unseen_15_3_3_3(
        make_game: Any) -> None:
    """MBT 14.3.3.1 with 15.3.3.3: the squad inside a buttoned full-cover APC is suppressed, and
    the enemy never hears of it."""
    g = _loaded(make_game, "Transport APC")
    b1, s1 = g.state.units["B1"], g.state.units["S1"]
    b1.state["open"] = False
    apply_effects(g, b1, ["turret_compartment"])
    assert s1.state["suppressed"] == "ON"
    assert not any(e.get("type") == "suppressed" and e.get("unit") == "S1"
                   for e in g.log.for_side("Soviet"))
    assert any(e.get("type") == "suppressed" and e.get("unit") == "S1"
               for e in g.log.for_side("NATO"))
