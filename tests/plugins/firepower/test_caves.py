"""Caves (Firepower 8.8.7) in the fire: a G impact in the cave hex passes the mouth or bursts
outside it (Firepower 12.7.3; docs/decisions.md FPD-148); those inside have cover and
concealment against fire from outside and fire only out of the mouth; for those outside the
cave hex is a hill three heights higher (docs/decisions.md FPD-149, FPD-150)."""

from __future__ import annotations

from typing import Any

from hexwar.core.engine.game import Game
from hexwar.plugins.firepower import openings_fire as of
from tests.plugins.firepower.test_openings_loopholes import _hits, _throw
from tests.plugins.firepower.test_terrain import _face, _game

# panel 4 (terrain-4.toml): a cave in 4V13, its mouth on hexside 5 (toward 4U14, 4T14), the
# height hexside at its back toward 4W13


def _cave_game(at: str = "T14", *extra: tuple[Any, ...]) -> Game:
    g = _game([("T", "RFL", "A", at, 2, {}), ("IN", "RFL", "B", "V13", 5, {}),
               ("TOP", "RFL", "B", "V13", 5, {"on_top": True}),
               ("NEAR", "RFL", "B", "U14", 5, {}), *extra])
    t = g.state.units["T"]
    t.state["equipment"] = {"HGN3": 2}
    _face(t, g.board.parse("4V13"))
    return g


# -- Firepower 12.7.3: through the cave mouth ---------------------------------------------------


def test_a_grenade_through_the_cave_mouth_bursts_inside() -> None:
    """Firepower 12.7.3, 8.8.7 (FPD-148): from 4T14 in front of the mouth the G impact in 4V13
    rolls with the cave pass number (4, a stand-in); passed, only IN inside is blasted, with no
    cover; failed, the burst is outside the cave in its hex: TOP (on it) and NEAR (the blast
    zone) are blasted, IN is not touched (HGN3 does not penetrate the cave's terrain value)."""
    g = _cave_game()
    ctx, asked = _throw(g, "T", "4V13", [1, 4, 9])
    op = ctx.extra["summary"]["opening"]
    assert (op["kind"], op["needed"], op["passed"]) == ("cave", 4, True)
    assert "through the mouth of the cave in 4V13" in asked[1]
    assert _hits(ctx) == {"IN": 0}
    assert not any("cover" in m.name for m in ctx.modifiers["IN"])
    g = _cave_game()
    ctx, _ = _throw(g, "T", "4V13", [1, 5, 9, 9, 9, 9])
    assert ctx.extra["summary"]["opening"]["outside"] == "cave"
    assert _hits(ctx) == {"NEAR": 1, "T": 2, "TOP": 0}
    assert ctx.impact is not None and g.board.label(ctx.impact) == "4V13"


def test_the_mouth_is_passed_from_the_front_only() -> None:
    """Firepower 8.8.7, 12.7.3: the mouth is the cave's only opening (hexside 5): a line that
    leaves 4V13 by another hexside finds none, and the grenade stays outside with no roll."""
    g = _cave_game()
    v = of.view(g)
    assert v is not None
    cave = g.board.parse("4V13")
    room = v.rooms[cave]
    assert room.sides == frozenset({5}) and room.inside == frozenset({"IN"})
    assert (room.low - room.floor, room.high - room.floor) == of.CAVE_MOUTH == (0, 2)
    assert v.room_gaps(cave, cave.neighbor(5).neighbor(5))
    assert v.room_gaps(cave, cave.neighbor(1).neighbor(1)) == []
    assert v.room_gaps(cave, cave.neighbor(3).neighbor(3)) == []


def test_a_hit_that_penetrates_the_cave_reaches_inside_from_outside(monkeypatch: Any) -> None:
    """Firepower 12.2.3 (FPD-148): outside the cave, IN is blasted only if the hit's
    penetration reaches the cave's terrain value (here made 1, HGN3's penetration)."""
    from hexwar.plugins.firepower import cave_damage

    monkeypatch.setattr(cave_damage, "terrain_value", lambda: 1)
    g = _cave_game()
    ctx, _ = _throw(g, "T", "4V13", [1, 5, 9, 9, 9, 9, 9])
    assert ctx.extra["summary"]["opening"]["passed"] is False
    assert _hits(ctx) == {"IN": 0, "NEAR": 1, "T": 2, "TOP": 0}
