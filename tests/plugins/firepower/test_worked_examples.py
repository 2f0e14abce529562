"""Worked examples of the Firepower rulebook that had no test of their own (issue 12): each test is
named after its FP-n case and computes the rulebook's numbers through the rules code. The table
of every FP-n case, with the test that computes it or why none does, is the section "Worked
examples" of docs/firepower-advanced.md."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import pytest

from hexwar.core.engine.game import Game
from hexwar.core.errors import RulesError
from hexwar.core.ground import SHIPPED_SCALES, BoardLayer
from hexwar.core.hexgrid import Hex
from hexwar.core.units import as_float, parse_quantity
from hexwar.plugins.firepower import advanced_fire as af
from hexwar.plugins.firepower import advanced_impulses as adv
from hexwar.plugins.firepower import combat, defenses
from hexwar.plugins.firepower import squads as sq
from hexwar.plugins.firepower.actions import fire_context, fire_procedure, mf_left
from hexwar.plugins.firepower.advanced_los import LosWorld, los_world
from hexwar.plugins.firepower.crews import ITEM_COST
from hexwar.plugins.firepower.soldiers import soldiers_of
from hexwar.plugins.firepower.state import data
from hexwar.plugins.firepower.terrain import FpMap
from hexwar.plugins.firepower.weapon_chart import weapon
from tests.plugins.firepower.test_advanced import _game as _squad_game
from tests.plugins.firepower.test_advanced import _phase
from tests.plugins.firepower.test_defenses import GameFactory
from tests.plugins.firepower.test_defenses import _game as _defence_game
from tests.plugins.firepower.test_defenses import _impulse as _defence_impulse
from tests.plugins.firepower.test_defenses_more import _act as _defence_act
from tests.plugins.firepower.test_defenses_more import _refused as _defence_refused
from tests.plugins.firepower.test_terrain import _do, _game, _impulse, _refused, _scripted
from tests.plugins.firepower.test_weapons import _crew_up, _lcw_game

# -- Firepower 8.2.2: heights in feet ------------------------------------------------------------


def _firepower_layer() -> BoardLayer:
    """The Firepower board at its shipped scale (one height level = the rulebook's 3 ft)."""
    size, unit, _rule = SHIPPED_SCALES["firepower"]
    return BoardLayer("firepower", parse_quantity(size, "[length]", "hex_size"),
                      parse_quantity(unit, "[length]", "height_unit"))


def _feet(metres: float) -> float:
    return float(as_float(parse_quantity(f"{metres} m", "[length]", "height"), "ft"))


def test_fp_25_a_hill_level_of_three_heights_is_about_nine_feet() -> None:
    """Firepower 8.2.2 (FP-25): a hill of three heights is about nine feet per contour level."""
    assert _feet(_firepower_layer().metres_of(3)) == pytest.approx(9.0)


def test_fp_26_a_depression_four_heights_deep_is_about_twelve_feet_down() -> None:
    """Firepower 8.2.2 (FP-26): a depression four heights deep lies about twelve feet below the
    normal ground level."""
    assert _feet(_firepower_layer().metres_of(-4)) == pytest.approx(-12.0)


# -- Firepower 10.7 item 9: the Move column, cumulative ------------------------------------------


def test_fp_35_every_crewman_of_the_spg9_loses_two_mf() -> None:
    """Firepower 10.7 item 9 (FP-35): each crewman of the SPG-9 recoilless gun (the LCW1 row) has
    his MF reduced by 2."""
    assert weapon("LCW1").cls == "LCW" and "SPG-9" in weapon("LCW1").name
    game, _ = _lcw_game()
    _crew_up(game, 3)
    _impulse(game, "A1", "A2", "A3")
    ph = data(game)["phase"]
    # the full crew of three: nothing short, so only the Move column (4 MF privates)
    assert [mf_left(game, ph, f"A{i}") for i in (1, 2, 3)] == [4 - 2] * 3


def test_fp_36_an_lcw1_crewman_carrying_an_lmg12_loses_three_mf() -> None:
    """Firepower 10.7 item 9 (FP-36): an LCW1 crewman (-2) whose major personal weapon is an LMG12
    (-1) loses 3 MF in all: a private keeps 4 - 3 = 1."""
    game, _ = _lcw_game()
    game.state.units["A3"].state["model"] = "LMG12"
    _crew_up(game, 3)
    _impulse(game, "A1", "A3")
    ph = data(game)["phase"]
    assert mf_left(game, ph, "A3") == 1
    assert mf_left(game, ph, "A1") == 2  # his fellow crewman with a rifle: -2 only


# -- Firepower 10.8: stacking limits bind one side only -------------------------------------------


def test_fp_39_the_other_side_may_bring_four_into_a_full_pillbox(fp_game: GameFactory) -> None:
    """Firepower 10.8 (FP-39): side A has four soldiers in a pillbox (its limit); side B may move up
    to four of its own in for a melee, not a fifth."""
    units: list[tuple[Any, ...]] = [(f"A{i}", "RFL", "A", "C5", 4) for i in range(1, 5)]
    units += [(f"B{i}", "RFL", "B", "C5", 4) for i in range(1, 6)]
    g = _defence_game(fp_game, units, [{"type": "PBX", "hex": "1C5", "door": 4}])
    for i in range(1, 5):
        g.state.units[f"A{i}"].state["in_defence"] = "PBX"
    _defence_impulse(g, "B", "B1", "B2", "B3", "B4", "B5")
    for i in range(1, 5):
        _defence_act(g, {"act": "position", "unit": f"B{i}", "into": True})
    inside = [u.id for u in g.state.units.values() if u.state.get("in_defence") == "PBX"]
    assert sorted(inside) == ["A1", "A2", "A3", "A4", "B1", "B2", "B3", "B4"]
    _defence_refused(g, {"act": "position", "unit": "B5", "into": True}, "Firepower 10.8",
                     "holds 4")


# -- Firepower 11.1.6: one item per Action -------------------------------------------------------


def test_fp_40_acquiring_two_items_is_two_actions_each_paid() -> None:
    """Firepower 11.1.6 (FP-40): acquiring two different items of equipment takes two separate
    Actions, each with its own MF cost."""
    game = _game([("A1", "RFL", "A", "C5", 2, {"model": "RFL10"}),
                  ("A2", "RFL", "A", "C5", 2, {"model": "RFL10"})])
    game.state.units["A1"].state["equipment"] = {}
    game.state.units["A2"].state["equipment"] = {"HGN3": 1, "BNC": 1}
    ph = _impulse(game, "A1")
    start = mf_left(game, ph, "A1")
    # one Action names one item: two at once are refused
    _refused(game, {"unit": "A1", "act": "acquire", "what": ["HGN3", "BNC"], "from": "A2"},
             "Firepower 11.1.6")
    _do(game, {"unit": "A1", "act": "acquire", "what": "HGN3", "from": "A2"})
    after_one = mf_left(game, data(game)["phase"], "A1")
    _do(game, {"unit": "A1", "act": "acquire", "what": "BNC", "from": "A2"})
    after_two = mf_left(game, data(game)["phase"], "A1")
    assert ITEM_COST > 0
    assert (start - after_one, after_one - after_two) == (ITEM_COST, ITEM_COST)
    assert game.state.units["A1"].state["equipment"] == {"HGN3": 1, "BNC": 1}


# -- Firepower 11.1: a leader's new hexes --------------------------------------------------------


def test_fp_110_a_leader_with_five_mf_enters_no_fifth_hex(tmp_path: Path) -> None:
    """Firepower 11.1 (FP-110): a leader has 5 MF but enters at most four new hexes; a fifth is
    refused though he has the MF for it."""
    units = [("L1", "RFL", "A", "A8", 2, {"squad": "Q1", "rank": "S"}),
             ("E1", "RFL", "B", "N10", 5, {})]
    game = _squad_game(tmp_path, units)
    gen, _d = _phase(game)
    gen.send({"squad": "Q1", "hex": "1A8", "units": ["L1"]})
    assert mf_left(game, data(game)["phase"], "L1") == 5
    for _ in range(4):
        gen.send({"unit": "L1", "act": "enter"})
    ph = data(game)["phase"]
    assert mf_left(game, ph, "L1") == 1 and ph["entered"]["L1"] == 4
    before = game.state.digest()
    with pytest.raises(RulesError, match="no more than four new hexes") as exc:
        adv.check_advanced_action(game, {"unit": "L1", "act": "enter"})
    assert exc.value.rule == "Firepower 11.1"
    assert game.state.digest() == before


# -- Firepower 12.3.5.2: H fired as G -------------------------------------------------------------


def test_fp_113_an_h_blast_of_seven_fired_as_g_is_three_and_penetrates_one() -> None:
    """Firepower 12.3.5.2 (FP-113): an H round of blast number 7 fired as a G round has blast number
    7 // 2 = 3 and penetration 1. No chart row has an H blast of 7, so the RPG-2's row is given that
    blast number for the computation."""
    w = dataclasses.replace(weapon("MPL19"), blast={**weapon("MPL19").blast, "H": 7})
    m = FpMap.plain([Hex(0, k) for k in range(3)])
    f = af.Firing(LosWorld(m), "MPL19", "H", "semi", {}, {}, frozenset(), 2, {}, (), as_g=True)
    assert af.blast_number(f, w) == 3 and af.penetration(f, w) == 1


# -- Firepower 12.7.4: combinations of hit locations, one at a time --------------------------------


def _fenced_foxhole(fp_game: GameFactory) -> Game:
    """A1 (side A) in 1C2 facing 4 throws at 1C4 (range 2): a fence from hexside 2 to 6 splits
    1C4 into the part of hexside 1 and the part of hexsides 3-5; a shallow foxhole lies in the
    part of hexside 1 (its ``side``, Firepower 12.7.4), where B1 is in it."""
    g = fp_game([("A1", "RFL", "A", "C2", 4, {"model": "RFL10"}),
                 ("B1", "RFL", "B", "C4", 1, {"model": "RFL10", "in_defence": "SFX", "side": 1,
                                              "stands_at": -defenses.types()["SFX"].depth})],
                hexes=[{"at": "C4", "features": ["fence:2-6"]}], options=("firepower.advanced",))
    defenses.set_defences(g, [{"type": "SFX", "hex": "1C4", "side": 1}])
    g.state.units["A1"].state["equipment"] = {"HGN3": 1}
    return g


def _throw(g: Game, faces: list[int]) -> tuple[combat.FireContext, list[str]]:
    """The throw at 1C4 with the given die faces (then 9s); returns the context and the purpose
    of every roll in order."""
    ctx = fire_context(g, "A1", {"act": "grenade", "unit": "A1", "hex": "1C4", "item": "HGN3"})
    asked = _scripted(ctx, faces, then=9)
    combat.run(ctx, fire_procedure(g, ctx.kind))
    return ctx, asked


def test_fp_60_the_fence_side_is_rolled_before_the_foxhole(fp_game: GameFactory) -> None:
    """Firepower 12.7.4, 12.7.1, 12.7.2 (FP-60): a foxhole in a fence hex: first the roll for the
    side of the hex hit, then, that side being the foxhole's, the roll for whether it lands in the
    foxhole."""
    g = _fenced_foxhole(fp_game)
    # hit roll 1; location 1 - 2 (range 2) reads 1: the part B1 is on; hole roll 3 - 1 = 2: in
    ctx, asked = _throw(g, [1, 1, 3])
    assert "hit location" in asked[1] and "into the hole" in asked[2]
    assert ctx.extra["summary"]["location"]["part"] == 1
    assert ctx.extra["in_hole"] is True


def test_fp_60_no_foxhole_roll_when_the_other_side_is_hit(fp_game: GameFactory) -> None:
    """Firepower 12.7.4, 12.7.1 (FP-60): when the side of the fence hex away from the foxhole is
    hit, no roll for the foxhole is made (the projectile is not in it)."""
    g = _fenced_foxhole(fp_game)
    # hit roll 1; location 9 - 2 = 7 > 5: the other part (hexsides 3-5)
    ctx, asked = _throw(g, [1, 9])
    assert ctx.extra["summary"]["location"]["part"] == 2
    assert not any("into the hole" in p for p in asked) and "in_hole" not in ctx.extra


# -- Firepower 10.7 item 10: the height of a soldier in a deep foxhole -----------------------------


def test_fp_37_a_standing_soldier_in_a_deep_foxhole_has_his_head_at_ground_level(
        fp_game: GameFactory) -> None:
    """Firepower 10.7 item 10, 10.5.2, 8.8.2.1 (FP-37): a Standing soldier (head two heights above
    his feet) in a deep foxhole (two heights deep) has his head at 0, the ground level of the lip.
    Only the heights are computed: resting a weapon there is not built."""
    g = _defence_game(fp_game, [("A1", "RFL", "A", "C5", 4, {"model": "RFL10"})],
                      [{"type": "DFX", "hex": "1C5"}])
    _defence_impulse(g, "A", "A1")
    _defence_act(g, {"act": "position", "unit": "A1", "into": True})
    world = los_world(g)
    s = soldiers_of(g.state.units)["A1"]
    assert s.posture == "stand"
    head = world.base(s) + sq.head_height("stand")
    assert world.base(s) == world.ground(s.hex) - defenses.types()["DFX"].depth
    assert head == world.ground(s.hex)
