"""MBT 14.4.5.2 canister, with its modifiers (MBT 14.4.2.3)."""

from __future__ import annotations

from typing import Any

import pytest

from hexwar.plugins.mbt import gp_fire
from hexwar.plugins.mbt.fire import ammo_options, fire_error

ADV = ["mbt.advanced"]


def _game(make_game: Any, target: str = "T-72M1", at: str = "9J3") -> Any:
    g = make_game([("N1", "M60A3", "NATO", "9J1", 4), ("S1", target, "Soviet", at, 1)],
                  options=ADV)
    g.state.units["N1"].state["order"] = "F"
    g.state.units["S1"].state["spotted"] = "FIRED"
    return g


@pytest.mark.parametrize(("row", "legal"), [(2, False), (3, True), (11, True), (12, False)])
def test_mbt_14_canister_range_2_to_10(make_game: Any, row: int, legal: bool) -> None:
    """MBT-14 (MBT 14.4.5.2): canister at range 1 illegal, 2 and 10 legal, 11 illegal."""
    g = _game(make_game, at=f"9J{row}")
    f, t = g.state.units["N1"], g.state.units["S1"]
    assert f.hex.distance(t.hex) == row - 1
    err = fire_error(g, f, t, "canister", orders=("F", "FM"))
    if legal:
        assert err is None
    else:
        assert err is not None and "MBT 14.4.5.2" in err and f"range {row - 1}" in err
        assert fire_error(g, f, t, "GP", orders=("F", "FM")) is None  # GP still reaches


def test_canister_only_where_the_card_names_it_and_with_fire_orders_14_4_5(make_game: Any) -> None:
    """MBT 14.4.5: canister is a card's alternate ammunition (the M60A3's, MBT 17.3.2.3.3; not
    the T-72M1's) and needs F or FM orders: not on overwatch."""
    g = _game(make_game)
    f, s1 = g.state.units["N1"], g.state.units["S1"]
    assert "canister" in ammo_options(g, f)
    assert "canister" not in ammo_options(g, s1)
    f.state["order"] = "OW"
    err = fire_error(g, f, s1, "canister", orders=("OW",), overwatch=True)
    assert err is not None and "F or FM orders" in err and "MBT 14.4.5" in err
    basic = make_game([("N1", "M60A3", "NATO", "9J1", 4)])
    assert "canister" not in ammo_options(basic, basic.state.units["N1"])


def test_canister_modifiers_14_4_2_3(make_game: Any) -> None:
    """MBT 14.4.2.3: +20 at a leg or towed unit, -20 at a vehicle; GP has neither."""
    g = _game(make_game)
    f, t = g.state.units["N1"], g.state.units["S1"]

    def canister_mods(target: Any) -> list[int]:
        mods = gp_fire.gp_modifiers(g, f, target, overwatch=False, target_moving=False,
                                    ammo="canister")
        return [m.value for m in mods if m.rule.startswith("MBT 14.4.2.3")]

    assert canister_mods(t) == [-20]
    assert not [m for m in gp_fire.gp_modifiers(g, f, t, overwatch=False, target_moving=False)
                if m.rule.startswith("MBT 14.4.2.3")]
    g2 = _game(make_game, target="Motor Rifle Squad")
    assert [m.value for m in gp_fire.gp_modifiers(
        g2, g2.state.units["N1"], g2.state.units["S1"], overwatch=False, target_moving=False,
        ammo="canister") if m.rule.startswith("MBT 14.4.2.3")] == [20]


def test_canister_never_destroys_by_explosive_power_14_4_5_2(make_game: Any, dice_faces: Any,
                                                           monkeypatch: Any) -> None:
    """MBT 14.4.5.2: an effective canister result on a vehicle is never the knock-out of
    MBT 14.4.4.2.3.3 that the same GP shot would give (the weapon's effect line given here)."""
    g = _game(make_game, target="BMP-1 [AT-3]")
    f, t = g.state.units["N1"], g.state.units["S1"]
    monkeypatch.setattr(gp_fire, "explosive_result", lambda *_a: "KO")
    g.dice.force(*dice_faces(100))
    shot = gp_fire.resolve(g, f, t, overwatch=False, target_moving=False)
    assert shot is not None and shot.result == "EF" and shot.effects == ["KO"]
    g.dice.force(*dice_faces(100))
    shot = gp_fire.resolve(g, f, t, overwatch=False, target_moving=False, ammo="canister")
    assert shot is not None and shot.result == "EF" and shot.effects == ["crew_loss", "suppress"]
    report = [e for e in g.log.for_side(None) if e.get("what") == "GP point effect fire"][-1]
    assert report["ammo"] == "canister" and "MBT 14.4.5.2" in report["rules"]


def test_the_ai_fires_canister_at_a_close_squad(make_game: Any) -> None:
    """The AI scores canister by the GP procedure with its +20 (MBT 14.4.2.3): at a squad 3
    hexes away canister is worth more than GP; at a vehicle GP is."""
    from hexwar.plugins.mbt.ai import MbtAI

    g = _game(make_game, target="Motor Rifle Squad", at="9J4")
    ai = MbtAI("NATO", 0)
    view = g.view("NATO")
    f, t = view.unit("N1"), view.unit("S1")
    assert ai._p(view, f, t, "canister") > ai._p(view, f, t, "GP") > 0
    assert ai._best_p(view, f, t)[0] == "canister"
    g2 = _game(make_game, at="9J4")
    view2 = g2.view("NATO")
    assert ai._best_p(view2, view2.unit("N1"), view2.unit("S1"))[0] != "canister"
