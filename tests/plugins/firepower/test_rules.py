"""Pure rules functions of the Basic Game: fire, grenades, suppression, melee, LOS, arcs."""

from __future__ import annotations

import pytest

from hexwar.core.dice import Dice
from hexwar.core.errors import RulesError
from hexwar.core.hexgrid import Hex, in_arc
from hexwar.core.types import Modifier, total
from hexwar.plugins.firepower import combat
from hexwar.plugins.firepower.los import basic_los
from hexwar.plugins.firepower.soldiers import Soldier, mf_allowance
from hexwar.plugins.firepower.tables import card
from hexwar.plugins.firepower.terrain import GROUND, HILL, FpMap, Picture

C = card()
AREA = Hex(0, 0).within(12)


def plain(**kw: object) -> FpMap:
    return FpMap.plain(AREA, **kw)  # type: ignore[arg-type]


def rolls(*faces: int) -> combat.Roller:
    it = iter(faces)
    return lambda purpose: next(it)


def fire(m: FpMap, firer: Soldier, targets: list[Soldier], mode: str, faces: tuple[int, ...] = (),
         nc: int = 0, others: tuple[Soldier, ...] = ()) -> combat.FireContext:
    sol = {s.id: s for s in (firer, *targets, *others)}
    ctx = combat.FireContext("fire", C, m, sol, firer, firer.weapon, mode, rolls(*faces),
                             targets=tuple(t.id for t in targets), noncombat_mf=nc)
    return combat.run(ctx)


def names(mods: list[Modifier]) -> dict[str, float]:
    return {m.rule: m.value for m in mods}


# -- die (Firepower 1.3, Firepower 4.2) ------------------------------------------------------------

def test_fp_2_zero_reads_ten() -> None:
    d = Dice(0)
    d.force(0)
    assert d.d10("test") == 10


def test_fp_3_modifier_subtracts() -> None:
    assert 5 + total([Modifier("m", -1, "Firepower 4.2")]) == 4


def test_fp_4_modifiers_cumulate() -> None:
    assert total([Modifier("a", -1, "Firepower 4.2"), Modifier("b", 2, "Firepower 4.2")]) == 1


# -- movement factors (Firepower 6.2) --------------------------------------------------------------

def test_fp_5_posture_change_costs() -> None:
    assert C.mf_cost("to_prone", "stand") == 1
    assert C.mf_cost("to_stand", "prone") == 2


def test_fp_9_suppressed_and_stunned_allowance() -> None:
    assert mf_allowance(None) == 4
    assert mf_allowance("suppressed") == 3
    assert mf_allowance("stunned") == 0


# -- ranges and hit numbers (Firepower 6.3.2, Firepower 6.3.6.1) -----------------------------------

def test_fp_10_pistol_range() -> None:
    m = plain()
    f = Soldier("f", "A", Hex(0, 0), 4, "PST")
    assert combat.check_target_hex(C, m, f, Hex(0, 8), "PST", "semi") == 8
    with pytest.raises(RulesError) as e:
        combat.check_target_hex(C, m, f, Hex(0, 9), "PST", "semi")
    assert e.value.rule == "Firepower 6.3.2"


def test_fp_11_range_to_adjacent_hex_is_one() -> None:
    m = plain()
    f = Soldier("f", "A", Hex(0, 0), 4, "RFL")
    assert combat.check_target_hex(C, m, f, Hex(0, 1), "RFL", "semi") == 1
    assert Hex(0, 0).distance(Hex(2, 3)) == 5


@pytest.mark.parametrize(("posture", "rng", "legal"), [
    ("stand", 6, True), ("stand", 8, True), ("crouch", 6, False), ("prone", 8, False),
    ("prone", 5, True), ("crouch", 3, True)])
def test_fp_12_grenade_range_line(posture: str, rng: int, legal: bool) -> None:
    m = plain()
    f = Soldier("f", "A", Hex(0, 0), 4, "RFL", posture)
    if legal:
        assert combat.check_target_hex(C, m, f, Hex(0, rng), "HGN", "throw") == rng
    else:
        with pytest.raises(RulesError) as e:
            combat.check_target_hex(C, m, f, Hex(0, rng), "HGN", "throw")
        assert e.value.rule == "Firepower 6.3.2.1.1"


def test_fp_15_grenade_rate_of_fire_is_one() -> None:
    assert C.weapons["HGN"].throw == 1


def test_fp_16_lmg_at_fifteen_hexes() -> None:
    assert C.hit_number("LMG", "auto", 15) == 3
    assert str(C.hit_source("LMG", "auto", 15).source) == "Firepower 6.3.6.1"


def test_hand_grenade_six_to_eight_is_two_as_the_text_says() -> None:
    # Firepower 6.3.2.1.1 names "2" for ranges 6-8; the outside transcription's "3" is rejected.
    for r in (6, 7, 8):
        assert C.hit_number("HGN", "throw", r) == 2
    assert [C.hit_number("HGN", "throw", r) for r in (3, 4, 5)] == [5, 5, 5]


# -- rates of fire and resolution (Firepower 6.3.5, Firepower 6.3.6.3) -----------------------------

def test_fp_13_lmg_bursts_at_different_targets() -> None:
    m = plain()
    f = Soldier("f", "A", Hex(0, 0), 4, "LMG")
    ts = [Soldier(f"t{i}", "B", Hex(0, 3), 1) for i in range(4)]
    ctx = fire(m, f, ts[:3], "auto", (10,) * 12)
    assert [s.burst for s in ctx.shots] == [1] * 4 + [2] * 4 + [3] * 4  # 4 rolls per burst
    with pytest.raises(RulesError):  # a fourth burst
        fire(m, f, ts, "auto", (10,) * 16)
    with pytest.raises(RulesError) as e:  # two bursts at one target unit
        fire(m, f, [ts[0], ts[0]], "auto", (10,) * 8)
    assert e.value.rule == "Firepower 6.3.5.1"


def test_fp_13_one_target_in_the_hex_one_burst() -> None:
    m = plain()
    f = Soldier("f", "A", Hex(0, 0), 4, "LMG")
    t = Soldier("t", "B", Hex(0, 3), 1)
    ctx = fire(m, f, [t], "auto", (10,) * 4)
    assert len(ctx.shots) == 4


def test_fp_14_rifle_semi_two_shots_at_one_target() -> None:
    m = plain()
    f = Soldier("f", "A", Hex(0, 0), 4, "RFL")
    a, b = Soldier("a", "B", Hex(0, 3), 1), Soldier("b", "B", Hex(0, 3), 1)
    ctx = fire(m, f, [a], "semi", (10, 10))
    assert len(ctx.shots) == 2 and ctx.hit == C.hit_number("RFL", "semi", 3)
    with pytest.raises(RulesError) as e:
        fire(m, f, [a, b], "semi", (10,) * 4)
    assert e.value.rule == "Firepower 6.3.5.2"
    auto = fire(m, f, [a, b], "auto", (10,) * 6)
    assert len(auto.shots) == 6


def test_fp_17_lmg_example() -> None:
    m = plain()
    f = Soldier("f", "A", Hex(0, 0), 4, "LMG")
    x = Soldier("x", "B", Hex(0, 30), 1, posture="prone")
    y = Soldier("y", "B", Hex(0, 30), 1, posture="prone")
    m = FpMap.plain({Hex(0, k) for k in range(31)})
    ctx = fire(m, f, [x, y], "auto", (10, 6, 5, 1, 8, 7, 8, 3))
    assert ctx.hit == 3
    assert [s.hit for s in ctx.shots] == [False, False, False, True] + [False] * 4
    assert ctx.eliminated == ["x"]
    assert ctx.suppressed == ["y"]  # Firepower 6.4.1: automatic fire, not hit


def test_fp_18_tree_hex_gives_cover_and_concealment() -> None:
    m = plain(cover={Hex(0, 3): "tree"})
    f = Soldier("f", "A", Hex(0, 0), 4, "RFL")
    t = Soldier("t", "B", Hex(0, 3), 1)
    ctx = fire(m, f, [t], "semi", (10, 10))
    assert total(ctx.modifiers["t"]) == 2
    assert names(ctx.modifiers["t"]) == {"Firepower 6.3.6.2.2": 1, "Firepower 6.3.6.2.3": 1}


def test_every_basic_firing_modifier_with_its_rule() -> None:
    m = plain(cover={Hex(0, 2): "tree"}, pictures=[Picture("hedge", Hex(0, 1), 2, 5)])
    f = Soldier("f", "A", Hex(0, 0), 4, "RFL", status="suppressed")
    t = Soldier("t", "B", Hex(0, 4), 1, posture="crouch", speed="running")
    ctx = fire(m, f, [t], "semi", (10, 10), nc=2)
    assert names(ctx.modifiers["t"]) == {
        "Firepower 6.3.6.2.1": 1, "Firepower 6.3.6.2.4": 1, "Firepower 6.3.6.2.6": 2,
        "Firepower 6.3.6.2.7": 2, "Firepower 6.3.6.2.5": 1}
    assert total(ctx.modifiers["t"]) == 1 + 1 + 2 + 2 + 1 + 1  # tree hex and hedge: Firepower 6.3.6.2.5


def test_fence_and_hedge_in_the_target_hex_between_or_not() -> None:
    th = Hex(0, 3)
    m = plain(pictures=[Picture("fence", th, 3, 6)])
    f = Soldier("f", "A", Hex(0, 0), 4, "RFL")
    far = Soldier("t", "B", th, 1, fence_side=4)    # beyond the fence from the firer
    near = Soldier("t", "B", th, 1, fence_side=1)   # on the firer's part
    assert names(fire(m, f, [far], "semi", (10, 10)).modifiers["t"]) == {"Firepower 6.3.6.2.2": 1}
    assert fire(m, f, [near], "semi", (10, 10)).modifiers["t"] == []
    m2 = plain(pictures=[Picture("hedge", th, 3, 6)])
    assert names(fire(m2, f, [far], "semi", (10, 10)).modifiers["t"]) == {"Firepower 6.3.6.2.3": 1}


def test_fp_92_suppression_without_a_possible_hit() -> None:
    m = FpMap.plain({Hex(0, k) for k in range(31)}, cover={Hex(0, 30): "tree"})
    f = Soldier("f", "A", Hex(0, 0), 4, "LMG")
    t = Soldier("t", "B", Hex(0, 30), 1, posture="prone")
    ctx = fire(m, f, [t], "auto", (1, 1, 1, 1))
    assert total(ctx.modifiers["t"]) == 4 and ctx.hit == 3
    assert ctx.eliminated == [] and ctx.suppressed == ["t"]


def test_fp_93_no_suppression_when_ten_or_less_impossible() -> None:
    mods = [Modifier("x", 10, "Firepower 6.4.1")]
    assert not combat.can_suppress_auto(mods)
    assert combat.can_suppress_auto([Modifier("x", 9, "Firepower 6.4.1")])


def test_fp_94_semi_automatic_never_suppresses() -> None:
    m = plain()
    f = Soldier("f", "A", Hex(0, 0), 4, "RFL")
    t = Soldier("t", "B", Hex(0, 3), 1)
    other = Soldier("o", "B", Hex(0, 3), 1)
    ctx = fire(m, f, [t], "semi", (10, 10), others=(other,))
    assert ctx.suppressed == []
    ctx = fire(m, f, [t], "auto", (10, 10, 10), others=(other,))
    assert sorted(ctx.suppressed) == ["o", "t"]  # Firepower 6.4.1: the target and the others in the hex


# -- grenades (Firepower 6.3.6.3.2, Firepower 6.4.2) -----------------------------------------------

def throw(m: FpMap, thrower: Soldier, target: Hex, faces: tuple[int, ...],
          others: tuple[Soldier, ...] = ()) -> combat.FireContext:
    sol = {s.id: s for s in (thrower, *others)}
    ctx = combat.FireContext("grenade", C, m, sol, thrower, "HGN", "throw", rolls(*faces),
                             target_hex=target)
    return combat.run(ctx)


def test_fp_20_blast_numbers() -> None:
    assert C.weapons["HGN"].blast_hit == 5
    assert [C.blast_modifier(d) for d in (0, 1, 2, 3)] == [0, 3, 4, None]


def test_fp_86_adjacent_standing_soldier() -> None:
    m = plain()
    s = Soldier("s", "B", Hex(0, 1), 1)
    mods = combat.blast_modifiers(C, m, s, Hex(0, 0))
    assert total(mods) == 3
    assert 2 + total(mods) <= 5          # roll 2: eliminated
    assert not 3 + total(mods) <= 5 and combat.blast_suppresses(mods)  # roll 3: Suppressed


def test_fp_87_two_hexes_away() -> None:
    mods = combat.blast_modifiers(C, plain(), Soldier("s", "B", Hex(0, 2), 1), Hex(0, 0))
    assert total(mods) == 4 and 1 + 4 <= 5 and not combat.blast_suppresses(mods)


def test_fp_88_prone_adjacent() -> None:
    mods = combat.blast_modifiers(C, plain(), Soldier("s", "B", Hex(0, 1), 1, posture="prone"),
                                  Hex(0, 0))
    assert total(mods) == 5 and 3 + 5 > 5 and not combat.blast_suppresses(mods)


def test_fp_89_prone_in_rough_impact_hex_is_stunned() -> None:
    m = plain(cover={Hex(0, 3): "rough"})
    t = Soldier("t", "A", Hex(0, 0), 4, "RFL")
    s = Soldier("s", "B", Hex(0, 3), 1, posture="prone")
    ctx = throw(m, t, Hex(0, 3), (1, 3), others=(s,))   # throw hits, blast roll 3
    assert ctx.outcome == "hit" and ctx.blast[0]["modified"] == 6
    assert ctx.stunned == ["s"] and ctx.eliminated == []


def test_fp_21_impact_survivors_stunned_zone_survivors_suppressed() -> None:
    m = plain()
    t = Soldier("t", "A", Hex(0, -3), 4, "RFL")
    a = Soldier("a", "B", Hex(0, 0), 1)      # impact hex
    b = Soldier("b", "B", Hex(0, 1), 1)      # adjacent: 2 + 3 <= 5 -> Suppressed if missed
    c = Soldier("c", "B", Hex(0, 2), 1)      # two away: 2 + 4 > 5 -> nothing
    ctx = throw(m, t, Hex(0, 0), (1, 9, 9, 9), others=(a, b, c))
    assert ctx.stunned == ["a"] and ctx.suppressed == ["b"] and ctx.eliminated == []


def test_grenade_modifiers_follow_the_exceptions() -> None:
    m = plain(cover={Hex(0, 2): "tree", Hex(0, 4): "tree"})
    t = Soldier("t", "A", Hex(0, 0), 4, "RFL", status="suppressed")
    target = Soldier("x", "B", Hex(0, 4), 1, posture="prone", speed="running")
    ctx = throw(m, t, Hex(0, 4), (10,), others=(target,))
    # throw: Suppressed +1 and the tree hex between +1; not cover, concealment, posture, running
    assert names(ctx.modifiers["throw"]) == {"Firepower 6.3.6.2.1": 1, "Firepower 6.3.6.2.5": 1}
    blast = combat.blast_modifiers(C, m, target, Hex(0, 4))
    assert names(blast) == {"Firepower 6.3.6.3.2.2": 0, "Firepower 6.3.6.2.2": 1,
                            "Firepower 6.3.6.2.4": 2}   # cover and Prone, no concealment


def test_fp_90_grenade_outcomes() -> None:
    m = plain(cover={Hex(0, 1): "tree", Hex(0, 2): "tree"})
    t = Soldier("t", "A", Hex(0, 0), 4, "RFL", status="suppressed")
    assert throw(m, t, Hex(0, 4), (2,)).outcome == "hit"                 # 2+3 = 5
    spread = throw(m, t, Hex(0, 4), (6, 4))
    assert spread.throw_modified == 9 and spread.outcome == "spread"
    assert spread.impact == combat.spread_hex(C, Hex(0, 4), spread.entry_side or 0, 4)
    assert throw(m, t, Hex(0, 4), (8,)).outcome == "complete miss"       # 11 > 10


def test_fp_19_spread_uses_the_diagram_oriented_on_the_los_hexside() -> None:
    # The printed diagram is missing: the shipped stand-in numbers 1-6 round X clockwise from the
    # hexside the line of sight crosses; roll 4 lands straight on beyond the target.
    assert combat.spread_hex(C, Hex(0, 4), 1, 1) == Hex(0, 3)
    assert combat.spread_hex(C, Hex(0, 4), 1, 4) == Hex(0, 5)
    assert all(Hex(0, 4).distance(combat.spread_hex(C, Hex(0, 4), 1, r)) == (1 if r <= 6 else 2)
               for r in range(1, 11))


def test_fp_91_spread_duds() -> None:
    t = Soldier("t", "A", Hex(0, 0), 4, "RFL")
    small = FpMap.plain({Hex(0, k) for k in range(5)})
    assert throw(small, t, Hex(0, 4), (9, 4)).outcome.startswith("dud (off")
    m = plain()
    assert throw(m, t, Hex(0, 8), (9, 4)).outcome.startswith("dud (beyond")
    hill = plain(level={Hex(1, 4): HILL})
    ctx = throw(hill, t, Hex(0, 4), (9, 3))  # spreads to (1, 4), hidden? check the LOS itself
    los = basic_los(hill, t.hex, combat.spread_hex(C, Hex(0, 4), ctx.entry_side or 1, 3),
                    firer_posture="stand")
    assert (ctx.outcome == "dud (blocked from the thrower's line of sight)") == los.blocked


# -- melee (Firepower 6.5) -------------------------------------------------------------------------

def test_fp_83_three_attackers_against_one() -> None:
    mod = combat.melee_modifier(3, 1)
    assert mod is not None and mod.value == -4
    assert combat.melee_winner(9, 3, 1) == "attacker"


def test_fp_84_one_attacker_against_two() -> None:
    assert combat.melee_winner(4, 1, 2) == "defender"


def test_fp_85_even_melee() -> None:
    assert combat.melee_winner(5, 2, 2) == "attacker"
    assert combat.melee_winner(6, 2, 2) == "defender"


# -- arc and LOS (Firepower 6.3.3, Firepower 6.3.4) ------------------------------------------------

def test_fp_100_firing_arc() -> None:
    o = Hex(0, 0)
    assert in_arc(o, 1, Hex(0, -2))        # straight ahead
    assert in_arc(o, 1, Hex(1, -2))        # on the wedge boundary (partial hex)
    assert in_arc(o, 1, Hex(-1, -1))       # the other boundary
    assert not in_arc(o, 1, Hex(1, -1))    # the NE neighbour
    assert not in_arc(o, 1, Hex(0, 1))     # behind


def test_fire_outside_the_arc_is_illegal() -> None:
    with pytest.raises(RulesError) as e:
        fire(plain(), Soldier("f", "A", Hex(0, 0), 1, "RFL"),
             [Soldier("t", "B", Hex(0, 3), 1)], "semi", (10, 10))
    assert e.value.rule == "Firepower 6.3.3"


def test_fp_105_hill_blocks_unless_both_on_hills() -> None:
    lv = {Hex(0, 2): HILL}
    m = plain(level=lv)
    assert basic_los(m, Hex(0, 0), Hex(0, 4), firer_posture="stand").blocked
    both = plain(level={**lv, Hex(0, 0): HILL, Hex(0, 4): HILL})
    assert not basic_los(both, Hex(0, 0), Hex(0, 4), firer_posture="stand").blocked
    one = plain(level={**lv, Hex(0, 0): HILL})
    r = basic_los(one, Hex(0, 0), Hex(0, 4), firer_posture="stand")
    assert r.blocked and r.rule == "Firepower 6.3.4.1"


def test_hill_hexsides_count_as_the_hill() -> None:
    # a line running exactly along the hexside of a hill hex (a between-neighbours direction)
    m = plain(level={Hex(1, 0): HILL})
    assert basic_los(m, Hex(0, 0), Hex(2, -1), firer_posture="stand").blocked


def test_fp_106_fence_blocks_only_with_a_prone_unit() -> None:
    m = plain(pictures=[Picture("fence", Hex(0, 2), 3, 6)])
    args = {"firer_posture": "stand"}
    assert not basic_los(m, Hex(0, 0), Hex(0, 4), target_posture="stand", **args).blocked
    r = basic_los(m, Hex(0, 0), Hex(0, 4), target_posture="prone", **args)
    assert r.blocked and r.rule == "Firepower 6.3.4.2"
    # a fence picture the line does not pass never blocks
    # (the line runs along the top hexside of (1, 0); the picture lies across its lower half)
    side = plain(pictures=[Picture("fence", Hex(1, 0), 3, 5)])
    assert not basic_los(side, Hex(0, 0), Hex(2, -1), target_posture="prone", **args).blocked
    top = plain(pictures=[Picture("fence", Hex(1, 0), 1, 4)])
    assert basic_los(top, Hex(0, 0), Hex(2, -1), target_posture="prone", **args).blocked


def test_fence_in_the_firers_own_hex() -> None:
    m = plain(pictures=[Picture("fence", Hex(0, 0), 3, 6)])
    behind = basic_los(m, Hex(0, 0), Hex(0, 4), firer_posture="prone", firer_side=1,
                       target_posture="stand")
    assert behind.blocked   # the fence is between him (north part) and the target (south)
    front = basic_los(m, Hex(0, 0), Hex(0, 4), firer_posture="prone", firer_side=4,
                      target_posture="stand")
    assert not front.blocked


def test_fp_107_friendly_soldiers_block() -> None:
    m = plain()
    a, b = Hex(0, 0), Hex(0, 4)
    assert not basic_los(m, a, b, firer_posture="stand", friendly={Hex(0, 2): "crouch"}).blocked
    r = basic_los(m, a, b, firer_posture="stand", friendly={Hex(0, 2): "stand"})
    assert r.blocked and r.rule == "Firepower 6.3.4.3"
    # different height terrain: no block
    lower = plain(level={Hex(0, 2): -1})
    assert not basic_los(lower, a, b, firer_posture="stand", friendly={Hex(0, 2): "stand"}).blocked
    assert GROUND == 0


def test_trees_and_hedges_never_block_but_count() -> None:
    m = plain(cover={Hex(0, 1): "tree", Hex(0, 2): "tree"},
              pictures=[Picture("hedge", Hex(0, 3), 3, 6)])
    r = basic_los(m, Hex(0, 0), Hex(0, 5), firer_posture="prone", target_posture="prone")
    assert not r.blocked and r.trees == 2 and r.hedges == 1
