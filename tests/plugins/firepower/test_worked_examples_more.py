"""More worked examples of Firepower rules 8-14 (issue 12): FP-n worked examples that had no
test named after them although the code computes them (or the part of them it computes). The
table of every FP-n case is the section "Worked examples" of docs/firepower-advanced.md."""

from __future__ import annotations

import contextlib
from pathlib import Path

from hexwar.plugins.firepower import advanced_terrain as at
from hexwar.plugins.firepower.actions import mf_left
from hexwar.plugins.firepower.state import data, fp_map
from tests.plugins.firepower.test_advanced import _game as _squad_game
from tests.plugins.firepower.test_advanced import _phase
from tests.plugins.firepower.test_terrain import _game as _terrain_game

# -- Firepower 8.7: craters -------------------------------------------------------------------


def test_fp_29_both_craters_are_rough_terrain_below_the_hex() -> None:
    """Firepower 8.7 (FP-29, the rough part): a single and a double crater are rough terrain, 1
    and 2 heights below the hex's own ground; a hex without one is neither."""
    game = _terrain_game([("S1", "RFL", "A", "A1", 2, {})], panel=3)
    b = game.board
    single, double, plain = b.parse("3C5"), b.parse("3H8"), b.parse("3C6")
    assert not fp_map(game).rough(single)
    flat = {h: at.ground_of(game, h) for h in (single, double)}
    data(game)["craters"] = {"3C5": 1, "3H8": 2}
    m = fp_map(game)
    assert m.rough(single) and m.rough(double) and not m.rough(plain)
    assert at.ground_of(game, single) == flat[single] - 1
    assert at.ground_of(game, double) == flat[double] - 2

# -- Firepower 10.6: speeds by new hexes entered ----------------------------------------------


def test_fp_109_a_soldier_runs_from_his_fourth_new_hex(tmp_path: Path) -> None:
    """Firepower 10.6, 4.5 (FP-109, the soldier's part): three new hexes leave a soldier at no
    speed, the fourth makes him Running. Five or more are out of a soldier's reach (four new
    hexes at most, 11.1), so S, M and F are left to vehicles (Option 19)."""
    units = [("P1", "RFL", "A", "A8", 2, {"squad": "Q1"}), ("E1", "RFL", "B", "N10", 5, {})]
    game = _squad_game(tmp_path, units)
    gen, _d = _phase(game)
    gen.send({"squad": "Q1", "hex": "1A8", "units": ["P1"]})
    p1 = game.state.units["P1"]
    for _ in range(3):
        gen.send({"unit": "P1", "act": "enter"})
    ph = data(game)["phase"]
    assert ph["entered"]["P1"] == 3 and p1.state.get("speed", "normal") == "normal"
    ph = data(game)["phase"]
    with contextlib.suppress(StopIteration):  # his 4 MF spent, the Impulse Phase may end here
        gen.send({"unit": "P1", "act": "enter"})
    assert ph["entered"]["P1"] == 4 and mf_left(game, ph, "P1") == 0
    assert p1.state["speed"] == "running"


def test_fp_109_the_speed_units_by_new_hexes_entered() -> None:
    """Firepower 10.6 (FP-109): 3, 4, 6, 7, 9, 10, 12 and 13 new hexes show no speed, Running,
    Running, Slow, Slow, Medium, Medium and Fast (the speeds past Running are vehicles')."""
    from hexwar.plugins.firepower.advanced_actions import speed_of

    assert [speed_of(n) for n in (3, 4, 6, 7, 9, 10, 12, 13)] == [
        "normal", "running", "running", "slow", "slow", "medium", "medium", "fast"]
