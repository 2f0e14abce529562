"""MBT 14.4.5.1 smoke rounds fired by guns, MBT 13.1.3 sighting a hex, MBT 12.1.4 smoke heights."""

from __future__ import annotations

import re
from typing import Any

import pytest

from hexwar.plugins.mbt import alternate_ammo, smoke
from hexwar.plugins.mbt.advanced_fire import ap_modifiers
from hexwar.plugins.mbt.fire import direct_fire_phase, situation
from hexwar.plugins.mbt.state import data

ADV = ["mbt.advanced"]


def _game(make_game: Any, extra: list[Any] | None = None, **kw: Any) -> Any:
    units = [("N1", "M60A3", "NATO", "9J1", 4), ("S1", "T-72M1", "Soviet", "9J12", 1),
             *(extra or [])]
    g = make_game(units, options=ADV, **kw)
    g.state.units["N1"].state["order"] = "F"
    return g


def _smoke(label: str, firer: str = "N1") -> dict[str, Any]:
    return {"target": None, "smoke_hex": label, "shots": [[firer, "smoke"]]}


def test_mbt_15_smoke_round_minimum_range_and_friendly_hex_14_4_5_1(make_game: Any) -> None:
    """MBT-15 (MBT 14.4.5.1): range 1 is illegal (the minimum is 2), range 2 is legal, and a hex
    holding a friendly unit is illegal; each refusal names its rule and changes nothing."""
    g = _game(make_game, [("N2", "M1", "NATO", "9J5", 4)])
    n1 = g.state.units["N1"]
    before = dict(n1.state)
    err = alternate_ammo.smoke_choice_error(g, "NATO", _smoke("9J2"), set())
    assert err is not None and "range 1" in err and "MBT 14.4.5.1" in err
    assert alternate_ammo.smoke_choice_error(g, "NATO", _smoke("9J3"), set()) is None
    err = alternate_ammo.smoke_choice_error(g, "NATO", _smoke("9J5"), set())
    assert err is not None and "friendly unit (N2)" in err and "MBT 14.4.5.1" in err
    assert n1.state == before and data(g).get("smoke", {}) == {}


@pytest.mark.parametrize(("change", "pattern"), [
    (lambda g: g.state.units["N1"].state.update(order="OW"), r"F or FM orders.*MBT 14\.4\.5\b"),
    (lambda g: g.state.units["N1"].state.update(fired=True), r"already fired.*MBT 7\.1\.5"),
    (lambda g: g.state.units["N1"].state.update(facing=1, turret=1),
     r"outside N1's 105mm firing arc.*MBT 14\.4\.5\.1"),
])
def test_smoke_round_needs_fire_orders_an_unused_gun_and_the_arc(make_game: Any, change: Any,
                                                                 pattern: str) -> None:
    """MBT 14.4.5: F or FM orders; MBT 14.4.5.1: the hex in the weapon's firing arc."""
    g = _game(make_game)
    change(g)
    err = alternate_ammo.smoke_choice_error(g, "NATO", _smoke("9J8"), set())
    assert err is not None and re.search(pattern, err), err


def test_a_gun_without_smoke_rounds_may_not_fire_them_14_4_5(make_game: Any) -> None:
    """MBT 14.4.5: only the weapons whose card names smoke fire it (the T-72M1 has none,
    MBT 17.3.2.3.3); beyond the GP range no smoke either."""
    g = _game(make_game)
    g.state.units["S1"].state["order"] = "F"
    err = alternate_ammo.smoke_choice_error(g, "Soviet", _smoke("9J8", "S1"), set())
    assert err is not None and "no smoke ammunition" in err and "MBT 14.4.5" in err
    assert alternate_ammo.smoke_options(g, "Soviet", set()) == []


def test_mbt_21_sighting_a_hex_uses_the_vehicle_in_clear_entry_13_1_3(make_game: Any) -> None:
    """MBT-21 (MBT 13.1.3): a hex is sighted at the chart's range for a vehicle in clear terrain,
    whatever the hex holds: at Dusk a buttoned firer (stand-in chart: 10) smokes a woods hex 10
    hexes away (a vehicle in woods there would be sighted only at 2) but not one at 11."""
    g = _game(make_game, terrain={"9J11": "woods", "9J12": "woods"},
              special='conditions = "Dusk"')
    g.state.units["N1"].state["open"] = False
    n1 = g.state.units["N1"]
    assert alternate_ammo.sights_hex(g, n1, g.board.parse("9J11")) is None
    err = alternate_ammo.sights_hex(g, n1, g.board.parse("9J12"))
    assert err is not None and "MBT 13.1.3" in err and "10" in err


def test_smoke_round_needs_an_unblocked_line_of_sight(make_game: Any) -> None:
    """MBT 14.4.5.1: an unblocked line of sight to the hex (a hill between blocks it)."""
    g = _game(make_game, heights={"9J5": 3})
    err = alternate_ammo.smoke_choice_error(g, "NATO", _smoke("9J8"), set())
    assert err is not None and "line of sight" in err and "MBT 13.2.1" in err


def test_smoke_round_places_a_smoke_on_marker_at_the_end_of_the_step(make_game: Any,
                                                                     run: Any) -> None:
    """MBT 14.4.5.1: the firer is FIRED, a smoke (ON) marker ("other" smoke) goes into the hex
    when the Direct Fire Step ends (MBT 5.3), no damage; it then costs AP fire through it -10
    (MBT 14.3.1.1.1)."""
    g = _game(make_game)
    g.state.units["S1"].state["spotted"] = "FIRED"
    opts: list[Any] = []

    def answer(d: Any) -> Any:
        if d.side == "NATO" and not opts:
            opts.extend(o for o in d.options if isinstance(o, dict) and "smoke_hex" in o)
            assert _smoke("9J11") in opts  # next to the seen enemy
            return _smoke("9J8")  # any legal hex, not only the menu's
        return "pass"

    run(direct_fire_phase(g), answer)
    assert g.state.units["N1"].state["fired"]
    assert data(g).get("smoke", {}) == {}  # MBT 5.3: not before the step ends
    g.apply_deferred()
    assert data(g)["smoke"] == {"9J8": "ON"}
    assert g.state.units["S1"].state["damage"] == {"track": False, "gun": False,
                                                   "compartment": None}
    f, t = g.state.units["S1"], g.state.units["N1"]
    s = situation(g, f, "125mm", "APFSDS", t)
    got = {m.rule.split(" [")[0]: m.value for m in ap_modifiers(g, s, f, t)}
    assert got["MBT 14.3.1.1.1"] == -10


def test_smoke_round_replaces_an_off_marker_12_9_3(make_game: Any, run: Any) -> None:
    g = _game(make_game)
    data(g)["smoke"] = {"9J8": "OFF"}
    run(direct_fire_phase(g), [_smoke("9J8"), "pass", "pass"])
    g.apply_deferred()
    assert data(g)["smoke"] == {"9J8": "ON"}


def test_smoke_height_a_line_above_the_smoke_is_not_through_it_12_1_4(make_game: Any) -> None:
    """MBT 12.1.4, 13.2.1: smoke stands 2 heights (stand-in) above its hex's ground. A line from
    a hill to a hill passes over smoke in the valley between (no modifier), but runs through
    smoke on ground as high as the ends; the firer's and target's own hexes always count."""
    g = _game(make_game, heights={"9J1": 3, "9J12": 3})
    f, t = g.state.units["S1"], g.state.units["N1"]
    assert smoke.smoke_height(g) == 2
    data(g)["smoke"] = {"9J6": "ON"}
    s = situation(g, f, "125mm", "APFSDS", t)
    assert "MBT 14.3.1.1.1" not in {m.rule.split(" [")[0] for m in ap_modifiers(g, s, f, t)}
    assert smoke.smoke_hexes_on_line(g, f.hex, t.hex) == 1  # without heights: counted
    assert smoke.smoke_hexes_on_line(g, f.hex, t.hex, 3, 3) == 0
    assert smoke.smoke_hexes_on_line(g, f.hex, t.hex, 0, 0) == 1  # both ends on low ground
    data(g)["smoke"] = {"9J1": "ON"}  # the target's own hex: the line enters it
    assert smoke.smoke_hexes_on_line(g, f.hex, t.hex, 3, 3) == 1


def test_a_scenario_sets_the_smoke_height_12_1_4(make_game: Any) -> None:
    """MBT 12.1.4: a scenario's ``[special] heights`` may set the smoke's height: at 4 the same
    hill-to-hill line runs through it."""
    g = _game(make_game, heights={"9J1": 3, "9J12": 3}, special="heights = { smoke = 4 }")
    data(g)["smoke"] = {"9J6": "ON"}
    f, t = g.state.units["S1"], g.state.units["N1"]
    assert smoke.smoke_hexes_on_line(g, f.hex, t.hex, 3, 3) == 1


def test_the_ai_smokes_a_close_enemy_vehicle_it_cannot_hurt(make_game: Any) -> None:
    """MBTD-111: left without a shot it would take, the AI smokes the hex of a known enemy
    vehicle within 8 hexes of its units; with no such enemy it fires no smoke."""
    from hexwar.plugins.mbt.ai import MbtAI

    g = _game(make_game)
    g.state.units["S1"].hex = g.board.parse("9J8")
    g.state.units["S1"].state["spotted"] = "FIRED"
    ai = MbtAI("NATO", 0)
    opts = [_smoke("9J7"), _smoke("9J8")]
    assert ai._smoke_declaration(g.view("NATO"), opts) == _smoke("9J8")  # the enemy's own hex
    g.state.units["N1"].hex = g.board.parse("9J1")
    g.state.units["S1"].hex = g.board.parse("9J20")  # 19 hexes off: no threat
    assert ai._smoke_declaration(g.view("NATO"), [_smoke("9J20")]) is None


def test_a_smoke_round_by_an_unseen_firer_is_not_told_to_the_enemy_6_1(make_game: Any,
                                                                        run: Any) -> None:
    """MBT 6.1 (hidden information): a firer the enemy does not see, ringed by hills, smokes a
    hex; the enemy's log names neither the firer nor the range (the marker itself is public)."""
    from hexwar.core.los import trace
    from hexwar.plugins.mbt.sighting import seen_by_side

    units = [("N1", "M60A3", "NATO", "9J1", 4), ("N2", "M60A3", "NATO", "9T1", 4),
             ("S1", "T-72M1", "Soviet", "9T12", 1)]
    b = make_game(units, options=ADV).board
    n1, aim = b.parse("9J1"), b.parse("9J3")
    line = {h for st in trace(n1, aim).steps for h in st.hexes}
    hills = {b.label(h): 9 for h in b.hexes
             if 2 <= h.distance(n1) <= 3 and h not in line and h != aim}
    g = make_game(units, options=ADV, heights=hills)
    for uid in ("N1", "N2"):
        g.state.units[uid].state["order"] = "F"
    run(direct_fire_phase(g), [_smoke("9J3"), "pass", "pass"])
    assert not seen_by_side(g, "Soviet", g.state.units["N1"])
    mine = [e for e in g.log.for_side("NATO") if e.get("what") == "smoke round"]
    assert mine and mine[0]["firer"] == "N1"  # the firer's own side is told
    told = [e for e in g.log.for_side("Soviet") if e["type"] != "header"]
    assert not any("N1" in str(e) or e.get("what") == "smoke round" for e in told), told


def test_the_leopard_1a4_fires_smoke_rounds_17_3_2_3_3(make_game: Any) -> None:
    """MBT 17.3.2.3.3 lists Smoke-1 (no canister) in the Leopard 1A4's main gun ammunition, so its
    card names smoke (MBT 14.4.5) and it may fire a smoke round; canister it may not."""
    g = make_game([("N1", "Leopard 1A4", "NATO", "9J1", 4), ("S1", "T-72M1", "Soviet", "9J12", 1)],
                  options=ADV)
    n1 = g.state.units["N1"]
    n1.state["order"] = "F"
    assert alternate_ammo.main_gun_alternate(g, n1) == (alternate_ammo.SMOKE,)
    assert alternate_ammo.smoke_choice_error(g, "NATO", _smoke("9J8"), set()) is None
    err = alternate_ammo.canister_error(g, n1, 5)
    assert err is not None and "MBT 14.4.5" in err


def test_a_smoke_round_is_told_in_words_as_a_smoke_round_14_4_5_1(make_game: Any, run: Any) -> None:
    """MBT 14.4.5.1: a smoke round aims at a hex, not a unit: the option's explanation, the
    side's decision and the declaration event name the hex (never "None")."""
    from hexwar.plugins.mbt.explain import _shots
    from hexwar.plugins.mbt.words import describe_event

    g = _game(make_game)
    o = _smoke("9J8")
    assert _shots(g, o) == "a smoke round into 9J8: M60A3 N1 (smoke), range 7"
    said = describe_event(g, {"type": "decision", "kind": "mbt.fire", "side": "NATO",
                              "choice": o})
    assert said == "NATO declares smoke rounds into 9J8: M60A3 N1"
    alternate_ammo.fire_smoke(g, "NATO", o)
    declared = [e for e in g.log.for_side(None) if e.get("type") == "declared"]
    text = describe_event(g, declared[-1]) or ""
    assert "smoke rounds into 9J8" in text and "None" not in text, text
