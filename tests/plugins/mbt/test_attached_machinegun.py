"""MBT 14.1.3, 14.7.2.1.1 (MBTD-151): a leg team's attached machinegun, which has a GP line and no
AP ammunition, fires GP on its own, as a machinegun, beside the team's small arms."""

from __future__ import annotations

import re
from typing import Any

import pytest

from hexwar.plugins.mbt import overrun
from hexwar.plugins.mbt.fire import ammo_options, direct_fire_phase, fire_error
from hexwar.plugins.mbt.gp_fire import card_gp_factor
from hexwar.plugins.mbt.state import card_of

ADV = ["mbt.advanced"]
F = ("F", "FM")


def _game(make_game: Any, *, options: Any = ADV, facing: int = 1, **kw: Any) -> Any:
    g = make_game([("N1", "Rifle Team", "NATO", "9J8", facing),
                   ("S1", "Motor Rifle Squad", "Soviet", "9J5", 4),
                   ("S2", "Motor Rifle Squad", "Soviet", "9J11", 1)], options=options, **kw)
    g.state.units["N1"].state["order"] = "F"
    g.state.phase = "mbt.direct_fire"
    for uid in ("S1", "S2"):
        g.state.units[uid].state["spotted"] = "FIRED"
    return g


def test_the_teams_mg_is_offered_as_a_gp_shot_14_1_3(make_game: Any) -> None:
    """MBT 14.1.3, 14.4.1: the Rifle Team offers its small arms' GP and ``MG/GP``, its attached
    MG's own line; the Basic Game has no attached weapons."""
    g = _game(make_game)
    n1, s1 = g.state.units["N1"], g.state.units["S1"]
    assert "MG/GP" in ammo_options(g, n1)
    assert fire_error(g, n1, s1, "MG/GP", orders=F) is None
    basic = _game(make_game, options=())
    assert "MG/GP" not in ammo_options(basic, basic.state.units["N1"])


def test_small_arms_and_mg_fire_at_two_targets_in_one_step_14_1_3_1(make_game: Any,
                                                                    run: Any) -> None:
    """MBT 14.1.3.1: the small arms at the squad behind (360 degrees), the MG at the one ahead
    (its 120-degree arc), in the same Direct Fire Step; the MG's shot is GP fire with its own
    factor (9 NM at one hex, MBT 14.7.2.1.1; its line at 3 hexes) and each weapon fires once
    (MBT 7.1.5)."""
    g = _game(make_game)
    n1 = g.state.units["N1"]
    answers = [{"target": "S2", "shots": [["N1", "GP"]]},
               {"target": "S1", "shots": [["N1", "MG/GP"]]}]
    run(direct_fire_phase(g), lambda d: answers.pop(0) if d.side == "NATO" and answers
        and d.kind == "mbt.fire" else "pass")
    got = [(e["what"], e.get("weapon"), e.get("target"), e.get("gp_factor"))
           for e in g.log.for_side("NATO") if e.get("type") == "result"]
    mg = card_gp_factor(card_of(g, n1), "MG", 3, False)
    assert ("machinegun fire", "MG", "S1", mg) in got, got
    assert any(w == "GP point effect fire" and t == "S2" for w, _n, t, _f in got), got
    err = fire_error(g, n1, g.state.units["S1"], "MG/GP", orders=F)
    assert err is not None and re.search(r"MBT 14\.1\.3\.1|MBT 7\.1\.5", err), err


def test_the_teams_mg_fires_in_its_own_arc_14_2_1(make_game: Any) -> None:
    """MBT 14.2.1: the MG's 120-degree arc from the team's front: the squad behind is outside it
    (the small arms fire all round)."""
    g = _game(make_game)
    n1, s2 = g.state.units["N1"], g.state.units["S2"]
    err = fire_error(g, n1, s2, "MG/GP", orders=F)
    assert err is not None and "arc" in err and "MBT 14.2.1" in err, err
    assert fire_error(g, n1, s2, "GP", orders=F) is None


@pytest.mark.parametrize(("change", "pattern"), [
    (lambda g, u: u.state.update(up=1), r"up in the buildings.*MBT 14\.1\.3\.2"),
    (lambda g, u: u.state.update(order="M"), r"MBT 6\.2\.4"),
    (lambda g, u: u.state.update(fired=True), r"already fired.*MBT 14\.1\.3\.1"),
])
def test_the_teams_mg_keeps_the_attached_weapon_rules(make_game: Any, change: Any,
                                                      pattern: str) -> None:
    """MBT 14.1.3.2: up in a building only weapons the card allows (the MG is not); orders that
    fire guns (MBT 14.1.4.1); a unit that fired otherwise this Turn fires no more (MBT 7.1.5)."""
    g = _game(make_game, terrain={"9J8": "brick"})
    n1 = g.state.units["N1"]
    change(g, n1)
    err = fire_error(g, n1, g.state.units["S1"], "MG/GP", orders=F)
    assert err is not None and re.search(pattern, err), err


def test_the_teams_mg_is_not_fired_while_carried_15_3_4_1(make_game: Any) -> None:
    """MBT 15.3.4.1: machineguns are not fired while transported (the small arms may be, from a
    carrier that allows it)."""
    from hexwar.plugins.mbt import transport

    g = make_game([("N1", "Rifle Team", "NATO", "9J8", 1), ("C1", "Transport APC", "NATO",
                                                            "9J8", 1),
                   ("S1", "Motor Rifle Squad", "Soviet", "9J5", 4)], options=ADV)
    n1, c1 = g.state.units["N1"], g.state.units["C1"]
    n1.state["order"] = c1.state["order"] = "M"
    transport.load(g, c1, n1)
    n1.state["order"] = "F"
    c1.state["open"] = True
    g.state.units["S1"].state["spotted"] = "FIRED"
    err = fire_error(g, n1, g.state.units["S1"], "MG/GP", orders=F)
    assert err is not None and "MBT 15.3.4.1" in err, err


def test_the_teams_mg_still_counts_in_overrun_defensive_fire_14_7_2_1_1(make_game: Any) -> None:
    """MBT 14.7.2.1.1: unchanged, 7 + 9 GP at one hex for the team with its MG."""
    g = _game(make_game)
    n1 = g.state.units["N1"]
    assert card_gp_factor(card_of(g, n1), "Small arms", 1, False) == 7
    assert card_gp_factor(card_of(g, n1), "MG", 1, False) == 9
    got = overrun.defensive_factor(g, n1, g.board.parse("9J7"))
    assert got[0] == 16
