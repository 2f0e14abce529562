"""AP point effect fire (MBT 7.4): the fire procedure with cards and charts; tests are named after the
worked cases they check (test_mbt_<n>_...)."""

from __future__ import annotations

import pytest

from hexwar.core.dice import Dice
from hexwar.core.errors import PluginError, RulesError
from hexwar.core.kit import Edit
from hexwar.core.types import Modifier
from hexwar.plugins.mbt.ap_fire import (
    BASIC,
    FireProcedure,
    HitResult,
    Situation,
    ap_modifiers,
    kill_probability,
)
from hexwar.plugins.mbt.cards import load_cards
from hexwar.plugins.mbt.tables import load_charts

CARDS = load_cards()
CHARTS = load_charts()


def dice(*rolls: int) -> Dice:
    d = Dice(0)
    for r in rolls:
        v = r % 100
        d.force(v // 10, v % 10)
    return d


def sit(firer: str = "T-80A", target: str = "T-80A", rng: int = 14, ammo: str = "APFSDS",
        **kw: object) -> Situation:
    return Situation(CARDS[firer], CARDS[firer].main_gun.name, ammo, CARDS[target], rng,  # type: ignore[union-attr]
                     **kw)  # type: ignore[arg-type]


def test_mbt_36_ap_factor_by_range_band() -> None:
    gun = CARDS["T-80A"].main_gun
    assert gun is not None and gun.name == "125mm"
    assert gun.ammo["APFSDS"].band_label(14) == "13-16"
    assert gun.ammo["APFSDS"].ap_at(14) == 14
    assert gun.ammo["HEAT"].ap_at(14) == 11


def test_mbt_12_maximum_ranges() -> None:
    gun = CARDS["T-80A"].main_gun
    assert gun is not None
    assert gun.ammo["APFSDS"].max_range == 40
    assert gun.ammo["HEAT"].max_range == 32
    assert gun.ammo["APFSDS"].ap_at(40) is not None
    assert gun.ammo["HEAT"].ap_at(33) is None
    with pytest.raises(RulesError, match=r"MBT 4\.7\.2|range"):
        BASIC.resolve(sit(rng=33, ammo="HEAT"), CHARTS, dice(1))


def test_mbt_13_112_songster_minimum_range_and_speeds() -> None:
    songster = CARDS["T-80A"].weapon("Songster")
    line = songster.ammo["ATGM"]
    assert line.min_range == 2
    assert line.ap_at(1) is None and line.ap_at(2) is not None
    assert songster.speeds == {"1-3": 24, "4+": 12}  # MBT 14.2.2.2.3 example


def test_mbt_37_modifiers_are_cumulative() -> None:
    mods = ap_modifiers(CHARTS, sit(target="Leopard 1A4", target_terrain=("scrub",),
                                    extra_modifiers=(Modifier("movement (example)", -4, "MBT 7.4.2"),)))
    terrain = [m for m in mods if m.name.startswith("terrain")]
    assert terrain[0].value == -2
    assert sum(m.value for m in mods if m.name.startswith(("terrain", "movement (example)"))) == -6


def test_mbt_38_rough_terrain() -> None:
    mods = ap_modifiers(CHARTS, sit(target_terrain=("rough",)))
    assert next(m for m in mods if m.name.startswith("terrain")).value == -4


def test_mixed_hex_uses_the_modifier_best_for_the_target() -> None:
    mods = ap_modifiers(CHARTS, sit(target_terrain=("stream", "scrub")))
    assert next(m for m in mods if m.name.startswith("terrain")).value == -2


def test_mbt_39_movement_modifier_stab_2_fm_vs_m() -> None:
    mods = ap_modifiers(CHARTS, sit(firer_moving=True, target_moving=True))
    mv = next(m for m in mods if m.name.startswith("movement"))
    assert mv.value == -5 and "stab-2" in mv.name


def test_mbt_40_acquisition_bonus() -> None:
    for turns, bonus in ((1, 2), (2, 4), (0, 0)):
        mods = ap_modifiers(CHARTS, sit(acquisition_turns=turns))
        got = sum(m.value for m in mods if m.name.startswith("acquisition"))
        assert got == bonus


def test_mbt_41_target_size() -> None:
    assert next(m for m in ap_modifiers(CHARTS, sit(target="T-80A"))
                if m.name.startswith("target size")).value == -1
    assert next(m for m in ap_modifiers(CHARTS, sit(target="Leopard 1A4"))
                if m.name.startswith("target size")).value == 0


def test_mbt_42_brew_up_smoke_per_hex() -> None:
    mods = ap_modifiers(CHARTS, sit(brewup_hexes=2))
    assert next(m for m in mods if m.name.startswith("brew-up")).value == -10


def test_mbt_43_overwatch_modifier() -> None:
    nm = ap_modifiers(CHARTS, sit(overwatch=True, target_moving=False))
    mv = ap_modifiers(CHARTS, sit(overwatch=True, target_moving=True))
    assert next(m for m in nm if m.name.startswith("overwatch")).value == -2
    assert next(m for m in mv if m.name.startswith("overwatch")).value == -5


def test_mbt_44_hit_chart() -> None:
    assert CHARTS.hit_number(14, -3).value == 56
    assert CHARTS.hit_number(18, -6).value == 59


def test_mbt_45_one_shot() -> None:
    # T-72M1 (ROF 1, AP 14 at range 14) at a Leopard 1A4 (size 0) in clear: net -3 gives H = 56
    s = sit(firer="T-72M1", target="Leopard 1A4", rng=14,
            extra_modifiers=(Modifier("test", -3, "test"),))
    hit = BASIC.resolve(s, CHARTS, dice(56, 99, 1))
    assert hit.hit_number == 56 and hit.hits == 1
    miss = BASIC.resolve(s, CHARTS, dice(57))
    assert miss.hits == 0


@pytest.mark.parametrize("roll,hits", [(1, 4), (10, 4), (11, 3), (20, 3), (21, 2), (29, 2), (30, 1),
                                       (65, 1), (66, 0)])
def test_mbt_46_number_of_hits(roll: int, hits: int) -> None:
    assert CHARTS.hit_thresholds(65, 4) == {4: 10, 3: 20, 2: 29}
    # AP 14 with net +0 gives 23 + 42 = 65 on the stand-in chart; ROF 4 set explicitly
    s = sit(target="Leopard 1A4", rof=4, extra_modifiers=(Modifier("test", 0, "test"),))
    r = BASIC.resolve(s, CHARTS, dice(roll, *([99] * 8)))
    assert r.hit_number == 65
    assert r.hits == hits


def test_mbt_47_front_roll_16_is_turret_front() -> None:
    assert CARDS["T-80A"].locate("Front", 16) == ("TF", False)
    assert CARDS["Leopard 1A4"].locate("Front", 25) == ("TF", False)


def test_mbt_48_falling_shot_hull_deck_from_above() -> None:
    assert CARDS["T-80A"].locate("Front", 41) == ("HF", False)
    assert CARDS["T-80A"].locate("Front", 41, falling=True) == ("HD", True)
    r = BASIC.resolve(sit(rng=5, elevation="Falling"), CHARTS, dice(1, 41, 50))
    assert r.hit_results[0].location == "HD" and r.hit_results[0].angle == "Above"


def test_mbt_49_armour_basis() -> None:
    assert CARDS["T-80A"].armor_basis("KE", "Level", "Front", "TF") == 85
    assert CARDS["T-80A"].source("armor.KE.Level.Front.TF") == "MBT 7.4.6.3"


def test_mbt_50_penetration_value_and_no_penetration() -> None:
    gun = CARDS["T-80A"].main_gun
    assert gun is not None and gun.ammo["APFSDS"].pv_at(14) == 80
    r = BASIC.resolve(sit(rng=14), CHARTS, dice(1, 16))
    h = r.hit_results[0]
    assert h.location == "TF" and h.armor == 85 and h.pv == 80 and h.penetrated is False
    assert h.effect == "none" and h.damage_roll is None


def test_mbt_51_equal_penetrates() -> None:
    s = sit(rng=14, target="T-80A")  # PV 80 at range 14 against an armour basis of exactly 80
    h = HitResult(n=1, armor=80)
    from hexwar.plugins.mbt.ap_fire import FireContext, ShotResult, step_penetration

    step_penetration(FireContext(CHARTS, dice()), ShotResult(s), h)
    assert h.pv == 80 and h.penetrated is True


def test_mbt_52_damage_band() -> None:
    line = CARDS["T-80A"].weapon("125mm").ammo["APFSDS"]
    assert line.damage_of(54) == "Knk Out"
    assert line.damage_of(14) == "Knk Out" and line.damage_of(74) == "Knk Out"


def test_mbt_53_worked_example_7_4_8() -> None:
    s = sit(firer="T-72M1", target="Leopard 1A4", rng=5, target_terrain=("woods",))
    r = BASIC.resolve(s, CHARTS, dice(6, 25, 60))
    assert r.ap_factor == 18
    assert [m.value for m in r.modifiers] == [-6, 0, 0]  # terrain, movement, size
    assert r.net == -6 and r.hit_number == 59 and r.roll == 6 and r.rof == 1 and r.hits == 1
    h = r.hit_results[0]
    assert (h.location, h.armor, h.pv, h.penetrated) == ("TF", 58, 88, True)
    assert (h.damage_roll, h.damage, h.effect) == (60, "Knk Out", "KO")


def test_mbt_54_second_compartment_hit_knocks_out() -> None:
    # a Cmp Hit roll (06-13 on the 125mm APFSDS line) on a target that already has one
    s = sit(rng=2, target="T-72M1", target_compartment="turret")
    r = BASIC.resolve(s, CHARTS, dice(1, 5, 10))
    assert r.hit_results[0].damage == "Cmp Hit" and r.hit_results[0].effect == "KO"


def test_mbt_55_turret_and_hull_compartments() -> None:
    r = BASIC.resolve(sit(rng=2, target="T-72M1", angle="Front-Side"), CHARTS,
                                 dice(1, 20, 10))
    assert r.hit_results[0].location == "TS" and r.hit_results[0].effect == "turret_compartment"
    r = BASIC.resolve(sit(rng=2, target="T-72M1", angle="Front-Side"), CHARTS,
                                 dice(1, 50, 10))
    assert r.hit_results[0].location == "HS" and r.hit_results[0].effect == "hull_compartment"


def test_mbt_57_gun_hit_on_a_gun_already_hit_is_a_miss() -> None:
    r = BASIC.resolve(sit(rng=2), CHARTS, dice(1, 30))
    assert r.hit_results[0].effect == "gun"
    r = BASIC.resolve(sit(rng=2, target_gun_hit=True), CHARTS, dice(1, 30))
    assert r.hit_results[0].location == "miss" and r.hit_results[0].effect == "none"


def test_mbt_58_track_hit_is_automatic_damage() -> None:
    r = BASIC.resolve(sit(rng=2), CHARTS, dice(1, 75))
    h = r.hit_results[0]
    assert h.location == "TK" and h.effect == "track" and h.armor is None and h.damage_roll is None


def test_mbt_34_starred_location_misses_only_when_hull_down() -> None:
    assert CARDS["M1"].locate("Front", 63) == ("HF*", False)
    down = BASIC.resolve(sit(target="M1", rng=2, hull_down=True), CHARTS, dice(1, 63))
    assert down.hit_results[0].effect == "none" and down.hit_results[0].armor is None
    up = BASIC.resolve(sit(target="M1", rng=2), CHARTS, dice(1, 63, 50))
    assert up.hit_results[0].location == "HF" and up.hit_results[0].armor is not None


def test_fire_steps_are_two_named_kit_pipelines_and_editable() -> None:
    assert BASIC.shot.names == ("ap_factor", "modifiers", "hit_number", "number_of_hits")
    assert BASIC.hit.names == ("hit_location", "special_hits", "armor", "penetration", "damage")
    seen: list[int] = []

    def reactive(ctx: object, shot: object, hit: HitResult) -> None:
        seen.append(hit.n)
        if hit.armor is not None:
            hit.armor += 80

    p = FireProcedure([Edit("insert_after", "armor", "reactive_armor", reactive, rule="MBT 14.3.4")])
    assert p.hit.names.index("reactive_armor") == p.hit.names.index("armor") + 1
    assert p.shot.names == BASIC.shot.names  # the edit went to the hit stage, where its anchor is
    r = p.resolve(sit(rng=2, target="Leopard 1A4"), CHARTS, dice(1, 16))
    assert seen == [1] and r.hit_results[0].armor == 58 + 80 and r.hit_results[0].penetrated is False
    with pytest.raises(PluginError, match="not a fire step"):
        FireProcedure([Edit("remove", "no_such_step", rule="MBT 99.9")])


def test_two_insert_after_edits_at_one_anchor_keep_the_kit_order() -> None:
    """Two steps inserted after one anchor come in the kit's documented order, [a, x1, x2],
    whatever order the rules hand them in (hexwar.core.kit.pipeline)."""

    def step(ctx: object, shot: object) -> None:
        return None

    x1 = Edit("insert_after", "modifiers", "x1", step)
    x2 = Edit("insert_after", "modifiers", "x2", step)
    for edits in ([x1, x2], [x2, x1]):
        names = FireProcedure(edits).shot.names
        at = names.index("modifiers")
        assert names[at:at + 4] == ("modifiers", "x1", "x2", "hit_number")


def test_an_edit_may_name_a_step_another_edit_inserts() -> None:
    def step(ctx: object, shot: object, hit: object) -> None:
        return None

    p = FireProcedure([Edit("insert_after", "reactive_armor", "spall_liner", step),
                       Edit("insert_after", "armor", "reactive_armor", step)])
    assert p.hit.names[2:5] == ("armor", "reactive_armor", "spall_liner")


def test_kill_probability_is_a_probability() -> None:
    p = kill_probability(CHARTS, sit(firer="T-72M1", target="Leopard 1A4", rng=5,
                                     target_terrain=("woods",)))
    assert 0.0 < p < 1.0
    far = kill_probability(CHARTS, sit(firer="T-72M1", target="M1A2", rng=30))
    assert far < p
