"""Caves (Firepower 8.8.7) in the fire: a G impact in the cave hex passes the mouth or bursts
outside it (Firepower 12.7.3; docs/decisions.md FPD-148); those inside have cover and
concealment against fire from outside and fire only out of the mouth; for those outside the
cave hex is a hill three heights higher (docs/decisions.md FPD-149, FPD-150)."""

from __future__ import annotations

from typing import Any

import pytest

from hexwar.core.engine.game import Game
from hexwar.core.errors import RulesError
from hexwar.plugins.firepower import openings_fire as of
from hexwar.plugins.firepower.actions import fire_context
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


# -- Firepower 8.8.7: cover and concealment inside (FPD-149) ------------------------------------


def _mods(g: Game, firer: str, target: str) -> list[str]:
    from hexwar.plugins.firepower import combat
    from hexwar.plugins.firepower.actions import fire_context, fire_procedure

    ctx = fire_context(g, firer, {"act": "fire", "unit": firer, "mode": "semi",
                                  "targets": [target]})
    ctx.roll = lambda purpose: 10
    combat.run(ctx, fire_procedure(g, ctx.kind))
    return [m.name for m in ctx.modifiers[target]]


def test_inside_a_cave_is_cover_and_concealment_against_fire_from_outside() -> None:
    """Firepower 8.8.7, 12.2.3, 12.2.4: T's rifle at IN inside the cave reads +1 cover (the
    cave) and concealment; at TOP on top of it, neither."""
    g = _cave_game()
    got = _mods(g, "T", "IN")
    assert "target in cover (cave)" in got and "target concealed" in got
    top = _mods(_cave_game(), "T", "TOP")
    assert not any("cave" in m for m in top) and "target concealed" not in top


def test_the_caves_cover_in_the_blast_zone() -> None:
    """Firepower 8.8.7, 12.2.3: a grenade bursting in 4U14 before the mouth finds IN in cover."""
    from hexwar.plugins.firepower import advanced_fire as af

    g = _cave_game()
    ctx, _ = _throw(g, "T", "4U14", [1, 9, 9, 9, 9, 9])
    assert any("in cover (cave)" in m.name for m in ctx.modifiers["IN"])
    f = af.firing(ctx)
    assert f.in_cave == frozenset({"IN"}) and f.cave_value == 10


# -- Firepower 8.8.7: fire out of the front only -------------------------------------------------


def test_a_soldier_inside_fires_only_out_of_the_mouth() -> None:
    """Firepower 8.8.7: IN inside the cave (mouth hexside 5) may fire at T in 4T14 but not at
    SIDE in 4V11, off the mouth's arc (refused naming the rule, nothing changed), and the
    Impulse's Action list offers no fire or grenade at 4V11."""
    from hexwar.plugins.firepower.advanced_impulses import legal_advanced_actions
    from tests.plugins.firepower.test_terrain import _impulse, _refused

    g = _cave_game("T14", ("SIDE", "RFL", "A", "V11", 4, {}))
    inn = g.state.units["IN"]
    inn.state["equipment"] = {"HGN3": 2}
    _impulse(g, "IN")
    inn.facing = 1  # toward 4V11
    _refused(g, {"act": "fire", "unit": "IN", "mode": "semi", "targets": ["SIDE"]},
             "Firepower 8.8.7")
    _refused(g, {"act": "grenade", "unit": "IN", "hex": "4V11", "item": "HGN3"},
             "Firepower 8.8.7")
    with pytest.raises(RulesError, match="fires only out of its mouth"):
        fire_context(g, "IN", {"act": "fire", "unit": "IN", "mode": "semi", "targets": ["SIDE"]})
    opts = [o for o in legal_advanced_actions(g) if isinstance(o, dict)
            and o.get("act") in ("fire", "grenade")]
    assert not any("SIDE" in (o.get("targets") or []) or o.get("hex") == "4V11" for o in opts)
    inn.facing = 5
    opts = [o for o in legal_advanced_actions(g) if isinstance(o, dict)
            and o.get("act") in ("fire", "grenade")]
    assert any("T" in (o.get("targets") or []) for o in opts)


# -- Firepower 8.8.7: a hill three heights higher for those outside (FPD-150) --------------------


def _sight(g: Game, a: str, b: str) -> Any:
    from hexwar.plugins.firepower.advanced_los import line_of_sight, los_world, soldier_height
    from hexwar.plugins.firepower.soldiers import soldier_of

    w = los_world(g)
    sa, sb = soldier_of(g.state.units[a]), soldier_of(g.state.units[b])
    return line_of_sight(w, sa.hex, sb.hex, soldier_height(w, sa), soldier_height(w, sb),
                         firer=sa, target=sb)


def test_outside_the_cave_hex_is_a_hill_three_heights_higher() -> None:
    """Firepower 8.8.7: 4V11 and 4V15 (ground 0) see each other along the column only over
    the cave hex 4V13 (ground 0): its hill of 3 blocks two Standing heads at 2; the fast check
    the AI reads agrees; once the cave is destroyed the hex is its own height again
    (Firepower 12.3.4.2.2) and the line is clear."""
    from hexwar.plugins.firepower import advanced_terrain as at
    from hexwar.plugins.firepower import cave_damage as cd

    g = _cave_game("T14", ("N", "RFL", "A", "V11", 4, {}), ("S", "RFL", "B", "V15", 1, {}))
    got = _sight(g, "N", "S")
    assert got.blocked and any(st.verdict == "blocked" and st.obstacle.rule == "Firepower 8.8.7"
                               for st in got.steps)
    u = g.state.units
    assert at.blocked_between(g, u["N"], u["S"])
    cd.destroy(g, g.board.parse("4V13"))
    assert not _sight(g, "N", "S").blocked
    assert at.blocked_between(g, u["N"], u["S"]) is None


def test_on_top_of_the_cave_a_soldier_stands_on_its_hill() -> None:
    """Firepower 8.8.7 (FPD-150): TOP on the cave stands three heights up; IN inside at the
    floor; inside, IN sees and is seen only by the mouth (an absolute block toward 4V11)."""
    from hexwar.plugins.firepower.advanced_los import los_world
    from hexwar.plugins.firepower.soldiers import soldier_of

    g = _cave_game("T14", ("N", "RFL", "A", "V11", 4, {}))
    w = los_world(g)
    assert w.base(soldier_of(g.state.units["TOP"])) == 3
    assert w.base(soldier_of(g.state.units["IN"])) == 0
    side = _sight(g, "N", "IN")
    assert side.blocked and side.rule == "Firepower 8.8.7"
    assert not _sight(g, "T", "IN").blocked
