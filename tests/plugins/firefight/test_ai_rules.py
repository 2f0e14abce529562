"""The Firefight AI on the decisions the optional rules add: mines (Firefight 18.0), dedicated battery
Firefight 21.1, 21.2, smoke (Firefight 14.0), Suppressive Fire (Firefight 19.0), overrun (Firefight 28.0)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from hexwar.core.engine.decisions import Decision
from hexwar.core.engine.game import Game
from hexwar.core.testing import make_game
from hexwar.plugins.firefight import movement as MV
from hexwar.plugins.firefight import sequence as SQ
from hexwar.plugins.firefight.ai import FirefightAI
from hexwar.plugins.firefight.rules import mines as MI
from hexwar.plugins.firefight.rules._common import rstate
from hexwar.plugins.firefight.testing import fresh_mini_game as mini_game
from hexwar.plugins.firefight.testing import unit_spec as U
from hexwar.plugins.firefight.victory import area


def to_turn_one(g: Game, seed: int) -> list[str]:
    """Answer every set-up decision with the AI; returns the decision kinds seen."""
    ctl = {s: FirefightAI(s, seed) for s in ("US", "SU")}
    kinds = []
    while g.pending is not None and g.state.turn < 1:
        dec = g.pending
        kinds.append(dec.kind)
        g.answer(ctl[dec.side].choose(dec, g.view(dec.side)))
    return kinds


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_ai_places_all_mines_on_the_approach_and_dedicates_batteries(seed: int) -> None:
    """Scn 5 (U.S. defends Ebersburen with 25 Mine Points (Firefight 18.0) and two 155mm units): the AI
    places every point, in hexes two to six from the town on the Soviet approach (nearer the
    Soviet start than the town is), dedicates the battery (Firefight 21.1) and marks Priority Targets."""
    g = make_game("firefight:scenario-5", seed=seed,
                  options=["firefight.mines", "firefight.dedicated_battery"])
    kinds = to_turn_one(g, seed)
    assert "firefight.mines" in kinds and "firefight.dedicated" in kinds
    fields = MI.fields(g)
    assert sum(int(f["points"]) for f in fields.values()) == MI.mine_points(g, "US") == 25
    town = area(g.board, "Ebersburen")
    soviets = [u.hex for u in g.state.units_of("SU") if u.hex is not None]
    for lbl in fields:
        h = g.board.parse(lbl)
        d = min(h.distance(x) for x in town)
        assert 2 <= d <= 6
        assert any(s.distance(h) + d <= min(s.distance(x) for x in town) + 1 for s in soviets)
    from hexwar.plugins.firefight.indirect import if_units

    assert sorted(k for k, v in if_units(g, "US").items() if v["status"] == "dedicated") == \
        ["us-155-1", "us-155-2"]
    assert rstate(g, "dedicated")["priority"]


def _if_game(tmp_path: Path, units: list[dict[str, Any]], rules: list[str],
             posture: str = "attack", objective: str = "2020") -> Game:
    ind = [{"id": "m", "type": "81mm", "side": "US", "status": "organic"}]
    ai = {"US": {"posture": posture, "objective": objective},
          "SU": {"posture": "defend", "objective": objective}}
    return mini_game(tmp_path, units, special={"indirect": ind, "ai": ai}, rules=rules)


def _request_decision(g: Game) -> Decision:
    g.state.phase = "firefight.if_request"
    gen = SQ.if_request(g)
    dec = next(gen)
    assert dec.kind == "firefight.if_request"
    return dec


def test_ai_suppresses_the_defenders_of_the_objective(tmp_path: Path) -> None:
    """Firefight 19.0: attacking, the AI asks for Suppressive Fire on the enemy holding the objective,
    and plain HE (Firefight 8.2) on an enemy elsewhere."""
    g = _if_game(tmp_path, [U("obs", "US-TM", "US", "2010"), U("su", "SU-TM", "SU", "2020")],
                 ["firefight.suppressive_fire"])
    dec = _request_decision(g)
    assert {"unit": "m", "hex": "2020", "kind": "suppressive"} in dec.options
    for seed in range(4):
        assert FirefightAI("US", seed).choose(dec, g.view("US")) == \
            {"unit": "m", "hex": "2020", "kind": "suppressive"}
    g2 = _if_game(tmp_path, [U("obs", "US-TM", "US", "2010"), U("su", "SU-TM", "SU", "2020")],
                  ["firefight.suppressive_fire"], objective="3035")
    dec2 = _request_decision(g2)
    assert FirefightAI("US", 0).choose(dec2, g2.view("US")) == {"unit": "m", "hex": "2020"}


def test_ai_smokes_the_enemy_overlooking_its_advance(tmp_path: Path) -> None:
    """Firefight 14.0, 14.11: attacking across open ground seen by one enemy hex, the AI blinds it with
    smoke; defending, it fires HE at the same hex; it never shells its own units' hexes."""
    units = [U(f"us{i}", "US-TM", "US", f"{c}10") for i, c in enumerate(("08", "10", "12", "14"))]
    units.append(U("su", "SU-TM", "SU", "1020"))
    g = _if_game(tmp_path, units, ["firefight.smoke"], objective="3035")
    dec = _request_decision(g)
    assert {"unit": "m", "hex": "1020", "kind": "smoke"} in dec.options
    for seed in range(4):
        assert FirefightAI("US", seed).choose(dec, g.view("US")) == \
            {"unit": "m", "hex": "1020", "kind": "smoke"}
    g2 = _if_game(tmp_path, units, ["firefight.smoke"], posture="defend", objective="3035")
    assert FirefightAI("US", 0).choose(_request_decision(g2), g2.view("US")) == \
        {"unit": "m", "hex": "1020"}


def test_ai_priority_fire_only_near_enemies(tmp_path: Path) -> None:
    """Firefight 21.2: Priority Fire when enemies are close to the Priority Target and no friend is."""
    g = mini_game(tmp_path, [U("obs", "US-TM", "US", "1005"), U("su", "SU-TM", "SU", "2020"),
                             U("su2", "SU-TM", "SU", "2021")])
    dec = Decision("US", "firefight.priority_mission", options=["pass", "2020", "3030"],
                   context={"unit": "x"})
    for seed in range(4):
        assert FirefightAI("US", seed).choose(dec, g.view("US")) == "2020"
    dec2 = Decision("US", "firefight.priority_mission", options=["pass", "3030"],
                    context={"unit": "x"})
    assert FirefightAI("US", 0).choose(dec2, g.view("US")) == "pass"
    g.state.units["obs"].hex = g.board.parse("2019")  # a friend beside the target
    assert FirefightAI("US", 0).choose(dec, g.view("US")) == "pass"


def test_ai_overrun_stays_only_when_winning(tmp_path: Path) -> None:
    """Firefight 28.0: a tank among infantry without anti-tank weapons stays; an M113 facing a T-62
    leaves (to the Forest hex) and shoots at what it can hurt (the MG team, not the tank)."""
    g = mini_game(tmp_path, [U("m60", "US-M60A1", "US", "1010"), U("tm", "SU-TM", "SU", "1010"),
                             U("m113", "US-M113", "US", "2010"), U("t62", "SU-T62", "SU", "2010"),
                             U("mg", "SU-MG", "SU", "2010")],
                  hexes=[{"at": "2011", "terrain": "forest"}], rules=["firefight.overrun"])
    stay = Decision("US", "firefight.overrun_continue", options=["stay", {"leave": "1011"}],
                    context={"unit": "m60"})
    leave = Decision("US", "firefight.overrun_continue",
                     options=["stay", {"leave": "2009"}, {"leave": "2011"}],
                     context={"unit": "m113"})
    tgt = Decision("US", "firefight.overrun_target", options=["mg", "t62"],
                   context={"firer": "m113"})
    for seed in range(4):
        ai = FirefightAI("US", seed)
        assert ai.choose(stay, g.view("US")) == "stay"
        assert ai.choose(leave, g.view("US")) == {"leave": "2011"}
        assert ai.choose(tgt, g.view("US")) == "mg"


def test_ai_steers_around_mine_markers(tmp_path: Path) -> None:
    """Firefight 18.0: Mine Markers are seen by both players, who may go round them: the AI's mover
    avoids a marked hex on its way (its own unless the Friendly Minefields option spares it)."""
    ai = {"US": {"posture": "attack", "objective": "1030"}}
    g = mini_game(tmp_path, [U("m60", "US-M60A1", "US", "1010"), U("su", "SU-TM", "SU", "3039")],
                  special={"ai": ai}, rules=["firefight.mines"])
    g.state.phase = "firefight.movement"
    for owner, friendly in (("SU", False), ("US", False)):
        MI.fields(g).clear()
        MI.fields(g)["1011"] = {"side": owner, "points": 5}
        g.scenario.raw.setdefault("special", {})["friendly_minefields"] = friendly
        dec = next(MV.move_unit(g, g.state.units["m60"]))
        assert {"to": "1011"} in dec.options
        for seed in range(3):
            assert FirefightAI("US", seed).choose(dec, g.view("US")) != {"to": "1011"}
        g.state.units["m60"].state.pop("moved", None)
    MI.fields(g)["1011"] = {"side": "US", "points": 5}
    g.scenario.raw["special"]["friendly_minefields"] = True  # Addenda: <= 5 points spare its own
    dec = next(MV.move_unit(g, g.state.units["m60"]))
    assert FirefightAI("US", 0).choose(dec, g.view("US")) == {"to": "1011"}


def test_ai_does_not_overrun_into_a_losing_firefight(tmp_path: Path) -> None:
    """Firefight 28.0: with Overrun an enemy hex may be entered; the AI's M113 will not drive into a
    T-62's hex on its way, though it is the straight road to the objective."""
    ai = {"US": {"posture": "attack", "objective": "1030"}}
    g = mini_game(tmp_path, [U("m113", "US-M113", "US", "1010"),
                             U("t62", "SU-T62", "SU", "1011")],
                  special={"ai": ai}, rules=["firefight.overrun"])
    g.state.phase = "firefight.movement"
    dec = next(MV.move_unit(g, g.state.units["m113"]))
    assert {"to": "1011"} in dec.options
    for seed in range(3):
        assert FirefightAI("US", seed).choose(dec, g.view("US")) != {"to": "1011"}
