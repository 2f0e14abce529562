"""Firepower 12.7.3 through a loophole or a cave mouth (plugin ``firepower.advanced``,
:mod:`hexwar.plugins.firepower.openings_fire`; docs/decisions.md FPD-147, FPD-148): a building
wall's loophole is rolled for like a window; a G impact in a pillbox, bunker, sandbagged tower
or cave hex bursts inside only through a loophole or the mouth toward the thrower, otherwise
outside it, where those inside are not touched."""

from __future__ import annotations

from typing import Any

from hexwar.core.engine.game import Game
from hexwar.core.scenario import load_and_validate
from hexwar.plugins.firepower import combat
from hexwar.plugins.firepower import openings_fire as of
from hexwar.plugins.firepower.actions import fire_context, fire_procedure
from hexwar.plugins.firepower.plugin import HERE
from hexwar.plugins.firepower.state import data
from tests.plugins.firepower.test_terrain import _face, _game, _scripted


def _throw(g: Game, uid: str, at: str, faces: list[int], **extra: Any
           ) -> tuple[combat.FireContext, list[str]]:
    ctx = fire_context(g, uid, {"act": "grenade", "unit": uid, "hex": at, "item": "HGN3",
                                **extra})
    asked = _scripted(ctx, faces)
    combat.run(ctx, fire_procedure(g, ctx.kind))
    return ctx, asked


def _hits(ctx: combat.FireContext) -> dict[str, int]:
    return {str(b["unit"]): int(b["distance"]) for b in ctx.blast}


# -- the hill-assault scenario's pillbox (Firepower 8.8.4.2: its loophole in front, hexside 6) --


def _hill(thrower: str) -> Game:
    """The pillbox in 3Z8 (door 3, front 6) with B1 Crouching inside, B2 standing outside in
    its hex; A1 with two hand grenades in ``thrower``, turned to it."""
    g = Game(load_and_validate(HERE / "scenarios" / "hill-assault.toml"), seed=1)
    box = g.board.parse("3Z8")
    a = g.state.units["A1"]
    a.hex = g.board.parse(thrower)
    _face(a, box)
    for uid, st in (("B1", {"in_defence": "PBX", "posture": "crouch"}),
                    ("B2", {"posture": "stand"})):
        u = g.state.units[uid]
        u.hex, u.facing = box, 6
        u.state.update(st)
    return g


def test_a_real_grenade_at_the_hill_assault_pillbox_through_its_loophole() -> None:
    """Firepower 12.7.3, 8.8.4.2: A1 throws a real HGN3 from 3Y8, in front of the pillbox (range
    1: -2; his head at 8, the loophole at 7: +1). A modified 2 or less (the stand-in loophole
    number) passes: the burst is inside, B1 is blasted without the pillbox's cover and B2
    outside is not; a 4 fails (modified 3): B2 is blasted, B1 inside is not touched."""
    g = _hill("3Y8")
    ctx, asked = _throw(g, "A1", "3Z8", [1, 3, 9])
    op = ctx.extra["summary"]["opening"]
    assert (op["kind"], op["needed"], op["modified"], op["passed"]) == ("loophole", 2, 2, True)
    assert op["rule"] == "Firepower 12.7.3"
    assert "through the loophole of the pillbox in 3Z8" in asked[1]
    assert _hits(ctx) == {"B1": 0}
    assert not any("loophole" in m.name for m in ctx.modifiers["B1"])  # no cover inside
    ctx, _ = _throw(_hill("3Y8"), "A1", "3Z8", [1, 4, 9, 9])
    assert ctx.extra["summary"]["opening"]["outside"] == "pillbox"
    assert _hits(ctx) == {"B2": 0, "A1": 1}  # the thrower is in the blast zone outside
    assert ctx.impact is not None and g.board.label(ctx.impact) == "3Z8"


def test_the_pillbox_loophole_faces_the_front_only() -> None:
    """Firepower 8.8.4.2: thrown from 3AA10 behind the pillbox (its door side) no loophole faces
    the thrower: no roll, the grenade bursts outside it."""
    g = _hill("3AA10")
    ctx, asked = _throw(g, "A1", "3Z8", [1, 9, 9])
    op = ctx.extra["summary"]["opening"]
    assert op["kind"] is None and op["outside"] == "pillbox" and op["passed"] is False
    assert not any("through" in a for a in asked)
    assert _hits(ctx) == {"B2": 0, "A1": 2}


def test_heights_to_the_pillbox_loophole_count() -> None:
    """Firepower 12.7.3: from 3X7 down the slope (range 2, head at 5, loophole at 7): +2."""
    ctx, _ = _throw(_hill("3X7"), "A1", "3Z8", [1, 1, 9])
    op = ctx.extra["summary"]["opening"]
    assert op["modified"] == 3 and op["passed"] is False


def test_a_penetrating_hit_outside_reaches_those_inside() -> None:
    """Firepower 12.2.3 (FPD-148): outside the pillbox those inside are hit only if the hit
    penetrates its terrain value; the view reads the value of the data file."""
    g = _hill("3AA10")
    v = of.view(g)
    assert v is not None
    room = v.rooms[g.board.parse("3Z8")]
    assert room.inside == frozenset({"B1"}) and room.sides == frozenset({6})
    assert (room.low, room.high, room.terrain_value) == (7, 7, 12)


# -- a bunker and a sandbagged tower (Firepower 8.8.4.1, 8.8.6) --------------------------------


def _structure(kind: dict[str, Any]) -> Game:
    spec = ", ".join(f"{k} = {v!r}".replace("'", '"') for k, v in kind.items())
    g = _game([("A1", "RFL", "A", "C3", 4, {}),
               ("B1", "RFL", "B", "C4", 1, {"in_defence": kind["type"] + (
                   "+S" if kind.get("sandbagged") else ""), "posture": "stand"})],
              panel=1, extra=f"defenses = [{{ {spec} }}]".replace("True", "true"))
    g.state.units["A1"].state["equipment"] = {"HGN3": 3}
    if kind["type"] == "TWR":  # on the tower's floor, as the position Action leaves him
        g.state.units["B1"].state["stands_at"] = 5
    return g


def test_a_bunker_has_loopholes_on_every_side_but_its_door() -> None:
    """Firepower 8.8.4.1: bunker loopholes one to two heights up, all round but the door."""
    g = _structure({"type": "BKR", "hex": "1C4", "door": 4})
    room = of.view(g).rooms[g.board.parse("1C4")]  # type: ignore[union-attr]
    assert room.sides == frozenset({1, 2, 3, 5, 6}) and room.kind == "loophole"
    ctx, _ = _throw(g, "A1", "1C4", [1, 2, 9])
    assert ctx.extra["summary"]["opening"]["passed"] is True  # range 1: -2
    assert _hits(ctx) == {"B1": 0}
    g = _structure({"type": "BKR", "hex": "1C4", "door": 1})  # the door toward the thrower
    ctx, _ = _throw(g, "A1", "1C4", [1, 9])
    assert ctx.extra["summary"]["opening"]["kind"] is None and _hits(ctx) == {"A1": 1}


def test_flame_at_a_bunker_rolls_for_no_loophole() -> None:
    """Firepower 12.7.3: the shelter's hex holds the opening, so only G rolls; an F projectile
    hits every part of the hex (B1 inside is reached as before: no opening roll, no shelter)."""
    g = _structure({"type": "BKR", "hex": "1C4", "door": 4})
    g.state.units["A1"].state.update(model="FTR1", equipment={"FTR1AMO-F": 1})
    ctx = fire_context(g, "A1", {"act": "grenade", "unit": "A1", "hex": "1C4"})
    asked = _scripted(ctx, [1, 9, 9])
    combat.run(ctx, fire_procedure(g, ctx.kind))
    assert "opening" not in ctx.extra["summary"] and "shelter" not in ctx.extra
    assert not any("through" in a for a in asked)
    assert "B1" in _hits(ctx)


def test_a_sandbagged_towers_loopholes_are_above_its_floor() -> None:
    """Firepower 8.8.6: sandbagged, loopholes 1-2 above the floor at 5; unsandbagged none."""
    g = _structure({"type": "TWR", "hex": "1C4", "sandbagged": True})
    h = g.board.parse("1C4")
    from hexwar.plugins.firepower.advanced_terrain import ground_of

    room = of.view(g).rooms[h]  # type: ignore[union-attr]
    assert (room.low - ground_of(g, h), room.high - ground_of(g, h)) == (6, 7)
    assert room.floor == ground_of(g, h) + 5
    plain = _structure({"type": "TWR", "hex": "1C4"})
    v = of.view(plain)
    assert v is None or h not in v.rooms


# -- a loophole in a building wall (Firepower 8.2.4; FPD-141) -----------------------------------

LOOP = '[[special.loopholes]]\nbetween = ["4AA6", "4Z5"]\nfloor = 1\n'


def test_a_building_loophole_is_rolled_for_like_a_window() -> None:
    """Firepower 12.7.3, 8.2.4 (FPD-147): the loophole of 4AA6 toward 4Z5 is an opening of its
    hex with the loophole pass number (2); failing, the impact is on the wall, in 4Z5."""
    v = of.view(_game([], panel=4, extra=LOOP))
    assert v is not None
    g0 = _game([], panel=4, extra=LOOP)
    inside, outside = g0.board.parse("4AA6"), g0.board.parse("4Z5")
    gaps = v.gaps(inside, outside.neighbor(6))
    assert [(x.kind, x.outside) for x in gaps] == [("loophole", outside)]
    assert of.chance(gaps[0], 2, 2) == (2, 0)
    plain = of.view(_game([], panel=4))
    assert plain is not None and plain.gaps(inside, outside.neighbor(6)) == []


def test_a_grenade_at_the_loophole_hex() -> None:
    """Firepower 12.7.3: a real grenade from 4Y5 at 4AA6 past the loophole (B1 at it)."""
    for roll, passed in ((1, True), (5, False)):
        g = _game([("A1", "RFL", "A", "Y5", 3, {}), ("B1", "RFL", "B", "AA6", 6, {})],
                  panel=4, extra=LOOP)
        a = g.state.units["A1"]
        a.state["equipment"] = {"HGN3": 2}
        _face(a, g.board.parse("4AA6"))
        data(g)["board_side"] = {"A": "5/6", "B": "2/3"}
        ctx, _ = _throw(g, "A1", "4AA6", [1, roll, 9, 9])
        op = ctx.extra["summary"]["opening"]
        assert op["kind"] == "loophole" and op["passed"] is passed
        assert ctx.impact is not None
        assert g.board.label(ctx.impact) == ("4AA6" if passed else "4Z5")


def test_a_grenade_through_a_tower_loophole_bursts_on_its_floor() -> None:
    """Firepower 12.7.3, 8.8.6, 12.7.5 (FPD-148): thrown from 1C3 at the sandbagged tower in
    1C4 (range 1: -2; head at 2, loopholes at 6-7: +4), announced "+" (reversed: -2), a 3 passes;
    the burst is on the floor five up, so B1 there has no height modifier and no cover."""
    g = _structure({"type": "TWR", "hex": "1C4", "sandbagged": True})
    ctx, _ = _throw(g, "A1", "1C4", [1, 3, 9], location_sign="+")
    op = ctx.extra["summary"]["opening"]
    assert (op["modified"], op["passed"]) == (1, True)
    assert _hits(ctx) == {"B1": 0}
    assert not any(m.rule in ("Firepower 12.2.8", "Firepower 12.2.3")
                   for m in ctx.modifiers["B1"])
