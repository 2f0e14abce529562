"""Firepower 12.7.3: a projectile fired into a building hex passes its door or window, or hits
the wall round it (plugin ``firepower.advanced``, :mod:`hexwar.plugins.firepower.openings_fire`).
A test of a worked example of the rulebook is named after its FP-n case."""

from __future__ import annotations

from typing import Any

from hexwar.core.engine.game import Game
from hexwar.plugins.firepower import combat
from hexwar.plugins.firepower import openings_fire as of
from hexwar.plugins.firepower.actions import fire_context, fire_procedure
from hexwar.plugins.firepower.advanced_terrain import adv_map
from hexwar.plugins.firepower.state import data
from tests.plugins.firepower.test_terrain import _face, _game, _scripted

# panel 4's building A: a ground-floor window between 4AA5 and 4Z4 (terrain-4.toml)


def _setup(at: str = "W3", posture: str = "stand") -> Game:
    g = _game([("OUT", "RFL", "A", at, 2, {"posture": posture}), ("IN", "RFL", "B", "AA5", 6, {})])
    u = g.state.units["OUT"]
    assert u.hex is not None
    u.state["equipment"] = {"HGN3": 5}
    t = g.board.parse("4AA5")
    _face(u, t)
    return g


def _throw(g: Game, faces: list[int], **extra: Any) -> tuple[combat.FireContext, list[str]]:
    ctx = fire_context(g, "OUT", {"act": "grenade", "unit": "OUT", "hex": "4AA5",
                                  "item": "HGN3", **extra})
    asked = _scripted(ctx, faces)
    combat.run(ctx, fire_procedure(g, ctx.kind))
    return ctx, asked


def test_fp_59_grenade_through_window() -> None:
    """Firepower 12.7.3 (FP-59): the grenade hits target hex 4AA5 behind the window; 1-3 passes
    and the impact stays there, 4 or more puts it on the wall, in 4Z4 on the thrower's side."""
    for roll, passed in ((1, True), (3, True), (4, False), (10, False)):
        g = _setup()
        ctx, asked = _throw(g, [1, roll, 9])
        op = ctx.extra["summary"]["opening"]
        assert op["kind"] == "window" and op["passed"] is passed and op["needed"] == 3
        assert op["rule"] == "Firepower 12.7.3"
        assert ctx.impact is not None
        assert g.board.label(ctx.impact) == ("4AA5" if passed else "4Z4")
        assert any("through the window" in a for a in asked)
        rec = next(b for b in ctx.blast if b["unit"] == "IN")
        assert rec["distance"] == (0 if passed else 1)


def test_each_height_between_the_firer_and_the_window_adds_one() -> None:
    """Firepower 12.7.3: a Prone thrower's head is at 0, the window's sill at 1: +1, so a 3
    no longer passes."""
    g = _setup(posture="prone")
    ctx, _ = _throw(g, [1, 3, 9])
    op = ctx.extra["summary"]["opening"]
    assert op["modified"] == 4 and not op["passed"]
    assert of.Gap("window", ctx.impact or ctx.firer.hex, ctx.firer.hex, 1, 2).nearest(0) == 1


def test_the_firers_own_hexs_window_is_passed_without_a_roll() -> None:
    """Firepower 12.7.3: the window is on a hexside of the thrower's hex 4Z4: through at once."""
    g = _setup(at="Z4")
    ctx, asked = _throw(g, [1, 9, 9])
    assert ctx.extra["summary"]["opening"]["automatic"] is True
    assert not any("through" in a for a in asked)
    assert ctx.impact is not None and g.board.label(ctx.impact) == "4AA5"


def test_the_range_modifier_and_the_positive_announcement() -> None:
    """Firepower 12.7.3, 12.7.5: -2 at one hex, +1 a height; reversed when announced "+"."""
    h = _setup().board.parse("4AA5")
    gap = of.Gap("door", h, h, 0, 2)
    assert of.chance(gap, 2, 1) == (5, -2)
    assert of.chance(gap, 5, 2) == (5, 3)
    assert of.chance(gap, 5, 2, plus=True) == (5, -3)


def test_no_opening_roll_outside_buildings_or_when_the_window_is_broken_open() -> None:
    """Firepower 12.7.3, 11.1.10: a broken window is open for good, and still to be passed."""
    g = _setup()
    o = next(o for o in adv_map(g).openings.values()
             if g.board.label(o.inside) == "4AA5" and g.board.label(o.outside) == "4Z4")
    data(g)["openings"] = {o.key: "broken"}
    ctx, _ = _throw(g, [1, 2, 9])
    assert ctx.extra["summary"]["opening"]["passed"] is True


def test_a_mortar_fired_high_comes_down_through_no_window() -> None:
    """Firepower 12.4.2, 12.7.3 (FPD-151): a light mortar fired high at 4AA5, which its firer
    sees himself through the open window, comes down from above: no opening roll; fired flat by
    hand it rolls to pass the window as a grenade does."""
    for mode, rolls in (("", False), ("hand", True)):
        g = _setup(posture="crouch")
        g.state.units["OUT"].state.update(model="MRT4", equipment={"MRT4AMO-G": 2})
        extra = {"item": "MRT4", **({"mode": mode} if mode else {})}
        ctx, asked = _throw(g, [1, 2, 9, 9, 9], **extra)
        assert ("opening" in ctx.extra.get("summary", {})) is rolls, mode
        assert any("through the window" in a for a in asked) is rolls, mode
