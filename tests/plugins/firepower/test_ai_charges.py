"""The AI and demolition charges (Firepower 12.4.9, 11.1.13; docs/decisions.md FPD-158), and its
Advanced line of sight (Firepower 12.1; FPD-157)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from hexwar.core.engine.game import Game
from hexwar.plugins.firepower import ai
from hexwar.plugins.firepower.crews import ARM
from hexwar.plugins.firepower.soldiers import soldiers_of
from hexwar.plugins.firepower.state import data, new_phase

GameFactory = Callable[..., Game]
ADV = ("firepower.advanced",)


def _game(fp_game: GameFactory, units: list[tuple[Any, ...]]) -> Game:
    g = fp_game(units, options=ADV)
    g.state.units["A1"].state["equipment"] = {"DMC1": 1}
    ph = new_phase("A")
    ph["active"] = ["A1"]
    data(g)["phase"] = ph
    return g


def test_arming_is_offered_while_no_mf_is_spent(fp_game: GameFactory) -> None:
    """Firepower 11.1.13: the arm Action takes all MF, so it is listed only before any is spent."""
    g = _game(fp_game, [("A1", "RFL", "A", "C5", 1), ("B1", "RFL", "B", "C4", 4)])
    ph = data(g)["phase"]
    assert ARM.options(g, ph, "A1") == [{"unit": "A1", "act": "arm", "item": "DMC1"}]
    ph["spent"]["A1"] = 1
    assert ARM.options(g, ph, "A1") == []


def test_the_ai_arms_a_charge_beside_enemies_not_among_friends(fp_game: GameFactory) -> None:
    """FPD-158: two enemies beside him, no friend: worth it; a friend beside him too for one
    enemy: not."""
    g = _game(fp_game, [("A1", "RFL", "A", "C5", 1), ("B1", "RFL", "B", "C4", 4),
                        ("B2", "RFL", "B", "D5", 4), ("A2", "RFL", "A", "C9", 1)])
    sol = soldiers_of(g.state.units)
    theirs = [s for s in sol.values() if s.side == "B"]
    assert ai.arm_value(sol["A1"], sol, theirs) > 0
    g.state.units["A2"].hex = sol["A1"].hex.neighbor(4)
    sol = soldiers_of(g.state.units)
    assert ai.arm_value(sol["A1"], sol, [sol["B1"]]) < 0
    assert ai.arm_value(sol["A1"], sol, []) < 0


def test_the_ai_keeps_away_from_an_armed_charge(fp_game: GameFactory) -> None:
    """Firepower 12.4.9: an armed charge is public (a unit marks it); the AI's position value
    falls in and beside its hex."""
    g = _game(fp_game, [("A1", "RFL", "A", "C5", 1), ("B1", "RFL", "B", "K4", 4)])
    data(g)["charges"] = [{"hex": "1C5", "side": "A", "by": "A1", "item": "DMC1", "due": 2}]
    view = g.view("B")
    assert view.system_state["charges"] == [{"hex": "1C5", "side": "A", "due": 2}]
    c5 = g.board.parse("1C5")
    assert ai.charge_danger(view, c5) == 1.0
    assert ai.charge_danger(view, c5.neighbor(1)) == 0.5
    assert ai.charge_danger(view, c5.neighbor(1).neighbor(1).neighbor(1)) == 0.0


def test_in_the_advanced_game_the_ai_reads_the_advanced_line_of_sight_alone() -> None:
    """Firepower 12.1 (FPD-157): on stand-in panel 1, 1N4 sees 1V8 by heights, while the Basic
    rule (the hill hex 1U8 between blocks, 6.3.4.1) says no; the AI no longer lets the Basic line
    veto the threat A1 poses to B1."""
    from hexwar.plugins.firepower.advanced_terrain import blocked_between
    from hexwar.plugins.firepower.los import basic_los
    from hexwar.plugins.firepower.state import fp_map
    from tests.plugins.firepower.test_terrain import _game as panel_game

    g = panel_game([("A1", "RFL", "A", "N4", 2, {}), ("B1", "RFL", "B", "V8", 5, {})], panel=1)
    u = g.state.units
    assert u["A1"].hex is not None and u["B1"].hex is not None
    assert basic_los(fp_map(g), u["A1"].hex, u["B1"].hex, firer_posture="stand").blocked
    assert blocked_between(g, u["A1"], u["B1"]) is None
    player = ai.make_ai("B", 1)
    view = g.view("B")
    player._adv_setup(view)
    player._memo = {}
    sol = soldiers_of(g.state.units)
    assert player._adv
    assert player._threat(view, sol["B1"], [sol["A1"]]) > 0.01
