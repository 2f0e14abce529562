"""Weapons at rest (Firepower 10.7 item 10, Firepower 12.6.2;
:mod:`hexwar.plugins.firepower.rests`). A test of a worked example of the rulebook is named after
its FP-n case."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from hexwar.core.engine.game import Game
from hexwar.core.errors import RulesError
from hexwar.plugins.firepower import combat, defenses
from hexwar.plugins.firepower import rests as rs
from hexwar.plugins.firepower.actions import fire_context, fire_procedure
from hexwar.plugins.firepower.weapon_chart import weapon
from tests.plugins.firepower.test_terrain import _game

GameFactory = Callable[..., Game]
ADV = ("firepower.advanced",)


def test_fp_37_weapon_rest(fp_game: GameFactory) -> None:
    """Firepower 10.7 item 10 (FP-37): Standing (+2) in a deep foxhole (-2), his head is at
    ground level: he rests the weapon on the lip; Crouching in it he cannot."""
    g = fp_game([("A1", "RFL", "A", "C5", 1, {"in_defence": "DFX", "stands_at": -2})],
                options=ADV)
    defenses.set_defences(g, [{"type": "DFX", "hex": "1C5"}])
    assert rs.rest_of(g, "A1") == "the lip of the deep foxhole"
    g.state.units["A1"].state["posture"] = "crouch"
    assert rs.rest_of(g, "A1") is None


def test_fp_38_weapon_rest_on_the_window_sill() -> None:
    """Firepower 10.7 item 10 (FP-38): Crouching (+1) in 4AA5, whose ground-floor window's sill is
    one height up (Firepower 8.2.3): he rests on the sill; Standing or upstairs he does not."""
    g = _game([("IN", "RFL", "A", "AA5", 6, {"posture": "crouch"})])
    assert rs.rest_of(g, "IN") == "the window sill"
    g.state.units["IN"].state["posture"] = "stand"
    assert rs.rest_of(g, "IN") is None
    g.state.units["IN"].state.update(posture="crouch", floor=2)
    assert rs.rest_of(g, "IN") == "the window sill"  # AA5 has a window upstairs too (hexside 5)
    g2 = _game([("OUT", "RFL", "A", "W3", 2, {"posture": "crouch"})])
    assert rs.rest_of(g2, "OUT") is None  # nothing at his head's height in the open


def test_an_up_soldier_never_rests(fp_game: GameFactory) -> None:
    """Firepower 10.7 item 10: Up soldiers may not use a rest."""
    g = fp_game([("A1", "RFL", "A", "C5", 1, {"in_defence": "DFX", "stands_at": -2,
                                               "up": 0})], options=ADV)
    defenses.set_defences(g, [{"type": "DFX", "hex": "1C5"}])
    assert rs.rest_of(g, "A1") is None


def test_a_weapon_whose_notes_need_a_rest(fp_game: GameFactory,
                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """Firepower 10.7 item 10 (FPD-154: no stand-in row needs a rest; a note as the Weapon Cards
    would give it): MMG2 firing automatic Crouching needs a rest; on the deep foxhole's lip he
    has one. The refusal changes nothing."""
    assert rs.needs() == {}
    monkeypatch.setattr(rs, "needs", lambda: {"MMG2": {"crouch": "auto"}})
    g = fp_game([("A1", "RFL", "A", "C5", 1, {"model": "MMG2", "posture": "crouch"}),
                 ("B1", "RFL", "B", "C2", 1)], options=ADV)
    with pytest.raises(RulesError) as exc:
        rs.check(g, "A1", weapon("MMG2"), "auto")
    assert exc.value.rule == "Firepower 10.7"
    before = g.state.digest()
    with pytest.raises(RulesError):
        fire_context(g, "A1", {"act": "fire", "unit": "A1", "mode": "auto", "targets": ["B1"]})
    assert g.state.digest() == before
    defenses.set_defences(g, [{"type": "SFX", "hex": "1C5"}])
    g.state.units["A1"].state.update(in_defence="SFX", stands_at=-1)  # Crouching: head at 0
    assert rs.check(g, "A1", weapon("MMG2"), "auto") == "the lip of the shallow foxhole"
    assert rs.check(g, "A1", weapon("MMG2"), "semi") is not None
    assert rs.check(g, "A1", weapon("RFL10"), "semi") is not None  # any weapon may rest


def test_a_bipod_at_rest_spreads_its_bursts_over_three_hexes(fp_game: GameFactory) -> None:
    """Firepower 12.6.2: LMG4 (bipod) Standing in the foxhole at rest fires at three adjacent
    hexes; Crouching there, with no rest and not Prone, it may not."""
    units = [("A1", "RFL", "A", "C5", 1, {"model": "LMG4", "in_defence": "DFX",
                                          "stands_at": -2}),
             ("B1", "RFL", "B", "C3", 1), ("B2", "RFL", "B", "C2", 1), ("B3", "RFL", "B", "C1", 1)]
    g = fp_game(units, options=ADV)
    defenses.set_defences(g, [{"type": "DFX", "hex": "1C5"}])
    a = g.state.units["A1"].hex
    assert a is not None
    h0 = a.neighbor(1).neighbor(1)  # three hexes each adjacent to the other two, in front
    for uid, h in zip(("B1", "B2", "B3"), (h0, h0.neighbor(1), h0.neighbor(2)), strict=True):
        g.state.units[uid].hex = h
    choice = {"act": "fire", "unit": "A1", "mode": "auto", "targets": ["B1", "B2", "B3"]}
    ctx = fire_context(g, "A1", choice)
    combat.preview(ctx, fire_procedure(g, ctx.kind))
    assert ctx.extra["rest"] == "the lip of the deep foxhole"
    g.state.units["A1"].state["posture"] = "crouch"
    ctx2 = fire_context(g, "A1", choice)
    with pytest.raises(RulesError) as exc:
        combat.preview(ctx2, fire_procedure(g, ctx2.kind))
    assert exc.value.rule == "Firepower 12.6"
