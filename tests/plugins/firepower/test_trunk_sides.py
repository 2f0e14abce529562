"""The side of a tree, stump or well hex a "G" burst lands on (Firepower 12.7.1 with Firepower
10.4, 10.4.1, 10.4.2; docs/decisions.md FPD-162): the trunk makes two sides, the firer's side 1
where the burst leaves the most opposing soldiers without the trunk between, the roll -2 at range
1-3 (reversed when "+" is announced, Firepower 12.7.5), the hole rolled after it (Firepower
12.7.4), and the trunk's cover (+1, Firepower 12.2.3) against the blast for those whose place
covers the hexside the burst lands by."""

from __future__ import annotations

from typing import Any

from hexwar.core.engine.game import Game
from hexwar.plugins.firepower import advanced_fire as af
from hexwar.plugins.firepower import combat, defenses
from hexwar.plugins.firepower.actions import fire_context, fire_procedure
from hexwar.plugins.firepower.weapon_chart import weapon
from tests.plugins.firepower.test_cover_sides import _place
from tests.plugins.firepower.test_terrain import _do, _face, _game, _impulse, _scripted

TREE = "N5"  # a tree hex of stand-in panel 1
NEAR = "N7"  # two hexes from it (the -2 applies)
FAR = "N9"   # four hexes (no modifier)
COVER = "Firepower 12.2.3"


def _trunk_game(*units: tuple[Any, ...], firer: str = NEAR, extra: str = "",
                at: str = TREE) -> Game:
    """A1 (side A) with three hand grenades, facing ``at``; B1 (side B) in ``at``; more units."""
    g = _game([("A1", "RFL", "A", firer, 1, {}), ("B1", "RFL", "B", at, 4, {}), *units],
              panel=1, extra=extra)
    a1 = g.state.units["A1"]
    a1.state["equipment"] = {"HGN3": 3}
    _face(a1, g.board.parse(f"1{at}"))
    return g


def _throw(g: Game, faces: list[int], *, at: str = TREE, **more: Any
           ) -> tuple[combat.FireContext, list[str]]:
    """A1 throws an HGN3 at ``at``; the rolls take ``faces`` in order, then 9s."""
    choice = {"act": "grenade", "unit": "A1", "hex": f"1{at}", "item": "HGN3", **more}
    ctx = fire_context(g, "A1", choice)
    asked = _scripted(ctx, faces, then=9)
    combat.run(ctx, fire_procedure(g, ctx.kind))
    return ctx, asked


def _covered(ctx: combat.FireContext, uid: str) -> bool:
    """Whether ``uid``'s blast roll took the cover modifier (Firepower 12.2.3)."""
    return any(m.rule == COVER and m.value == 1 for m in ctx.modifiers[uid])


def test_a_burst_on_the_soldiers_side_of_the_trunk_gives_him_no_cover() -> None:
    """Firepower 12.7.1, 10.4.1: B1 at the side place toward 4 (covering 4 and 5). Side 1 is the
    part by hexside 1, the lowest where he is bare; side 2 the part across the trunk (hexside 4).
    Range 2: a roll of 1 reads 1 (side 1): no cover; 9 reads 7 (side 2): the trunk's +1."""
    g = _trunk_game()
    _place(g, "B1", "side", 4)
    ctx, asked = _throw(g, [1, 1])
    assert asked[1] == "HGN3 hit location in 1N5"
    loc = ctx.extra["summary"]["location"]
    assert loc["sides"] == [1, 4] and loc["part"] == 1 and loc["modified"] == 1
    assert ctx.extra["impact_side"] == 1 and loc["rule"] == "Firepower 12.7.1"
    assert not _covered(ctx, "B1")
    ctx, _ = _throw(g, [1, 9])
    loc = ctx.extra["summary"]["location"]
    assert loc["part"] == 2 and loc["modified"] == 7 and ctx.extra["impact_side"] == 4
    assert _covered(ctx, "B1")


def test_side_1_is_where_the_most_opposing_soldiers_are_bare() -> None:
    """Firepower 12.7.1: the lowest-numbered side is the firer's most wanted: B1 at the side
    place toward 4 ({4, 5}) and B2 at the rear toward 1 ({6, 1, 2}): a burst by hexside 3 leaves
    both bare, so it is side 1 (side 2 is 6: B2 covered there, B1 not). A1's own soldier A2 in
    the hex is not counted: at the rear toward 3 ({2, 3, 4}) he changes nothing."""
    g = _trunk_game(("B2", "RFL", "B", TREE, 4, {}), ("A2", "RFL", "A", TREE, 4, {}))
    _place(g, "B1", "side", 4)
    _place(g, "B2", "rear", 1)
    _place(g, "A2", "rear", 3)
    ctx, _ = _throw(g, [1, 1])
    assert ctx.extra["summary"]["location"]["sides"] == [3, 6]
    assert not _covered(ctx, "B1") and not _covered(ctx, "B2") and _covered(ctx, "A2")
    ctx, _ = _throw(g, [1, 9])
    assert ctx.extra["impact_side"] == 6
    assert not _covered(ctx, "B1") and _covered(ctx, "B2") and not _covered(ctx, "A2")


def test_the_minus_two_applies_at_range_one_to_three_only() -> None:
    """Firepower 12.7.1: -2 at a range of 1-3 hexes: a roll of 7 reads 5 at two hexes (side 1)
    and 7 at four (side 2); the roll is read 1 to 10 (Firepower 12.7: 1 - 2 reads 1)."""
    g = _trunk_game()
    _place(g, "B1", "side", 4)
    ctx, _ = _throw(g, [1, 7])
    assert ctx.extra["summary"]["location"]["modified"] == 5
    assert ctx.extra["impact_side"] == 1
    far = _trunk_game(firer=FAR)
    _place(far, "B1", "side", 4)
    ctx, _ = _throw(far, [1, 7])
    assert ctx.range == 4 and ctx.extra["summary"]["location"]["modified"] == 7
    assert ctx.extra["impact_side"] == 4


def test_announced_plus_reverses_the_range_modifier() -> None:
    """Firepower 12.7.5: with "+" announced the -2 becomes +2: a roll of 4 at two hexes reads 6
    (side 2, B1 covered) where "-" reads 2 (side 1, bare)."""
    g = _trunk_game()
    _place(g, "B1", "side", 4)
    ctx, _ = _throw(g, [1, 4], location_sign="+")
    assert ctx.extra["summary"]["location"]["modified"] == 6 and _covered(ctx, "B1")
    ctx, _ = _throw(g, [1, 4])
    assert ctx.extra["summary"]["location"]["modified"] == 2 and not _covered(ctx, "B1")


def test_no_roll_when_both_sides_leave_cover_as_it_is_and_not_the_firers_line() -> None:
    """Firepower 12.7.1 (FPD-162): B1 at the side place toward 1 ({1, 2}): side 1 is hexside 3,
    side 2 hexside 6, bare on both: nothing to roll, the burst by hexside 3. The line from the
    firer (across hexside 1, which his place covers) gives no cover to a burst in his own hex."""
    g = _trunk_game()
    _place(g, "B1", "side", 1)
    ctx, asked = _throw(g, [1])
    assert not any("hit location" in p for p in asked)
    loc = ctx.extra["summary"]["location"]
    assert loc["rolled"] is False and loc["sides"] == [3, 6] and ctx.extra["impact_side"] == 3
    assert not _covered(ctx, "B1")
    # in an open hex nothing is rolled and no side is set
    open_game = _trunk_game(at="N9")
    ctx, asked = _throw(open_game, [1], at="N9")
    assert not any("hit location" in p for p in asked) and "impact_side" not in ctx.extra


def test_stumps_and_wells_have_two_sides_as_a_tree() -> None:
    """Firepower 10.4.6, 12.7.1: a tree stump's or well's hex is rolled for as a tree's, and the
    cover is the stump's or well's."""
    for kind, key in (("stump", "stumps"), ("well", "wells")):
        g = _trunk_game(extra=f'{key} = ["1N9"]', at="N9")
        _place(g, "B1", "side", 4)
        ctx, asked = _throw(g, [1, 9], at="N9")
        assert "HGN3 hit location in 1N9" in asked, kind
        assert ctx.extra["summary"]["location"]["kind"] == kind
        assert any(m.rule == COVER and kind in m.name for m in ctx.modifiers["B1"]), kind


def test_combination_a_foxhole_in_a_tree_hex_rolls_the_side_then_the_hole() -> None:
    """Firepower 12.7.4 with 12.7.1, 12.7.2: a foxhole in a tree hex: the side of the trunk is
    rolled first, then whether the grenade lands in the hole (the hole has no side of the trunk,
    so it is always rolled for; FPD-136 sides are for fences)."""
    g = _trunk_game()
    defenses.set_defences(g, [{"type": "SFX", "hex": "1N5"}])
    _place(g, "B1", "side", 4)
    ctx, asked = _throw(g, [1, 9, 1])
    assert "hit location" in asked[1] and "into the hole" in asked[2]
    assert ctx.extra["impact_side"] == 4 and ctx.extra["in_hole"] is True


def test_flame_and_white_phosphorus_roll_no_side_of_the_trunk() -> None:
    """Firepower 12.7.1, 12.2.3: only "G" (and H as G) rolls the side hit; W hits every part."""
    g = _trunk_game()
    g.state.units["A1"].state["equipment"] = {"HGN6": 1}
    _place(g, "B1", "side", 4)
    ctx = fire_context(g, "A1", {"act": "grenade", "unit": "A1", "hex": "1N5", "item": "HGN6"})
    asked: list[str] = []

    def roll(purpose: str) -> int:
        asked.append(purpose)
        return 1

    ctx.roll = roll
    combat.run(ctx, fire_procedure(g, ctx.kind))
    assert af.firing(ctx).ammo == "W"
    assert not any("hit location" in p for p in asked) and "impact_side" not in ctx.extra


def test_a_grenade_thrown_at_the_tree_in_play_spares_the_soldier_behind_the_trunk() -> None:
    """Firepower 12.7.1, 10.4.1, 12.2.3, whole flow: A1 throws a real HGN3 at the tree hex
    through the Impulse Phase's grenade Action. B1 sits at the side place toward 4 ({4, 5}), B2
    at the side place toward 6 ({6, 1}): side 1 is hexside 2 (both bare), side 2 hexside 5. The
    hit location reads 9 - 2 = 7: side 2, the trunk between B1 and the burst (+1): the blast roll
    equal to the blast number stuns him; B2, on the side hit, is eliminated by the same roll."""
    g = _trunk_game(("B2", "RFL", "B", TREE, 1, {}))
    _place(g, "B1", "side", 4)
    _place(g, "B2", "side", 6)
    blast = weapon("HGN3").blast_of("G")
    asked: list[str] = []

    def d10(purpose: str, **_: Any) -> int:
        asked.append(purpose)
        if purpose.startswith("A1 HGN3 at"):
            return 1
        if "hit location" in purpose:
            return 9
        return blast if purpose in ("HGN3 blast on B1", "HGN3 blast on B2") else 10

    g.dice.d10 = d10  # type: ignore[method-assign]
    _impulse(g, "A1")
    _do(g, {"act": "grenade", "unit": "A1", "hex": "1N5", "item": "HGN3"})
    assert asked[:2] == ["A1 HGN3 at 1N5", "HGN3 hit location in 1N5"]
    u = g.state.units
    assert not u["B1"].state.get("eliminated") and u["B2"].state.get("eliminated")
    assert u["B1"].state.get("status") == "stunned"  # Firepower 6.4.2: in the impact hex
    assert not u["A1"].state.get("eliminated")


def test_h_fired_as_g_rolls_the_side_of_the_trunk_and_h_as_h_does_not() -> None:
    """Firepower 12.7.1, 12.3.5.2: an H round fired as G (the RPG-2, MPL19) is a "G" impact and
    rolls the side of a tree hex; fired as H (armour-piercing) it rolls none."""
    from hexwar.core.hexgrid import Hex
    from hexwar.plugins.firepower.advanced_los import LosWorld
    from hexwar.plugins.firepower.soldiers import Soldier
    from hexwar.plugins.firepower.tables import card
    from hexwar.plugins.firepower.terrain import FpMap

    for as_g in (True, False):
        hexes = [Hex(0, r) for r in range(4)]
        m = FpMap.plain(hexes)
        tree = Hex(0, 2)
        m.cover[tree] = "tree"
        firer = Soldier("F", "A", Hex(0, 0), 4)
        sol = {"F": firer, "B": Soldier("B", "B", tree, 4)}
        asked: list[str] = []

        def roll(purpose: str, asked: list[str] = asked) -> int:
            asked.append(purpose)
            return 9

        ctx = combat.FireContext("grenade", card(), m, sol, firer, "MPL19", "fire", roll,
                                 target_hex=tree)
        ctx.extra["firing"] = af.Firing(LosWorld(m), "MPL19", "H", "semi", {}, {"F": "MPL19"},
                                        frozenset(), 2, {}, (), as_g=as_g)
        ctx.impact = tree
        af.step_location(ctx)
        assert any("hit location" in p for p in asked) is as_g
        assert (ctx.extra.get("impact_side") == 4) is as_g  # 9 - 2 = 7: side 2, hexside 4
