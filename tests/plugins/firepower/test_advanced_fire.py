"""The Advanced Game's fire, line of sight, crews and melee (Firepower 10.1, 12, 13): the line
of sight by heights with the LOS chart in play, the fire types A, C, F, G, H, L, M, U, W, smoke and
illumination, demolition charges, hit location, the WEAPON CHART as data, the Advanced melee. A
test of a worked example of the rulebook is named after its FP-n case."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from hexwar.core.engine.game import Game
from hexwar.core.errors import RulesError
from hexwar.core.hexgrid import Hex
from hexwar.core.types import total
from hexwar.plugins.firepower import advanced_fire as af
from hexwar.plugins.firepower import combat
from hexwar.plugins.firepower.actions import apply_effects, fire_context, fire_procedure
from hexwar.plugins.firepower.advanced_card import advanced_card
from hexwar.plugins.firepower.advanced_los import (
    LosWorld,
    Obstacle,
    line_of_sight,
    los_world,
)
from hexwar.plugins.firepower.advanced_melee import (
    melee_modifiers,
    posture_mods,
    share_height,
    span,
)
from hexwar.plugins.firepower.smoke import improved, turn_record_removals
from hexwar.plugins.firepower.soldiers import Soldier
from hexwar.plugins.firepower.state import data, fp_map, rules_card
from hexwar.plugins.firepower.terrain import FpMap, Picture
from hexwar.plugins.firepower.weapon_chart import chart, records, weapon

GameFactory = Callable[..., Game]
ADV = ("firepower.advanced",)


def _line(n: int) -> list[Hex]:
    return [Hex(0, k) for k in range(n + 1)]


def _world(n: int, **kw: Any) -> LosWorld:
    m = FpMap.plain(_line(n), **{k: v for k, v in kw.items() if k in ("cover", "pictures")})
    for h, lv in (kw.get("levels") or {}).items():
        m.height[h] = float(lv)
    return LosWorld(m, fence_height=kw.get("fence_height", 1), smoke=kw.get("smoke", {}),
                    extra=kw.get("extra"))


def _game(fp_game: GameFactory, units: list[tuple[Any, ...]], **kw: Any) -> Game:
    g = fp_game(units, options=ADV, **kw)
    return g


def _preview(g: Game, uid: str, choice: dict[str, Any]) -> combat.FireContext:
    ctx = fire_context(g, uid, choice)
    combat.preview(ctx, fire_procedure(g, ctx.kind))
    return ctx


def _resolve(g: Game, uid: str, choice: dict[str, Any], faces: list[int]) -> combat.FireContext:
    ctx = fire_context(g, uid, choice)
    it = iter(faces)
    ctx.roll = lambda purpose: next(it)
    combat.run(ctx, fire_procedure(g, ctx.kind))
    apply_effects(g, ctx)
    return ctx


# -- Firepower 12.1: the line of sight by heights in play --------------------------------------


def test_fp_44_a_hill_higher_than_both_ends_blocks_in_play() -> None:
    """Firepower 12.1.1 (FP-44): on a board, a one-level hill of 3 heights between two Standing
    soldiers blocks, and the answer names 12.1.1."""
    w = _world(2, levels={Hex(0, 1): 1})
    res = line_of_sight(w, Hex(0, 0), Hex(0, 2), 2, 2)
    assert res.blocked and res.rule == "Firepower 12.1.1"


def test_fp_45_a_fence_as_high_as_the_firer_blocks_a_prone_target() -> None:
    """Firepower 12.1.2 (FP-45): on a board, a Standing SMG firer (2) is blocked from a Prone target
    (0) by a fence of height 2, under 12.1.2."""
    w = _world(2, pictures=[Picture("fence", Hex(0, 1), 2, 6)], fence_height=2)
    res = line_of_sight(w, Hex(0, 0), Hex(0, 2), 2, 0)
    assert res.blocked and res.rule == "Firepower 12.1.2"


@pytest.mark.parametrize("height", [1, 2])
def test_fp_46_a_fence_no_higher_than_both_ends_does_not_block(height: int) -> None:
    """Firepower 12.1.3 (FP-46): on a board, a fence of height 1 or 2 between two Standing soldiers
    leaves the line open."""
    w = _world(2, pictures=[Picture("fence", Hex(0, 1), 2, 6)], fence_height=height)
    assert not line_of_sight(w, Hex(0, 0), Hex(0, 2), 2, 2).blocked


def test_fp_47_the_los_chart_line_and_the_furthest_obstacle() -> None:
    """Firepower 12.1.4.1, 12.1.4.2 (FP-47): a height difference of 2 at range 22 reads line 4
    (20-24); column 1 on it gives 12, the furthest the obstacle may be without blocking."""
    c = advanced_card().los_check(2, 22, 1)
    assert (c.line, c.max_distance) == (4, 12)


def _fp48_world() -> tuple[LosWorld, Hex, Hex]:
    # A on a hill of 3 heights, B in a depression of -3 heights, 11 hexes apart, level ground
    a, b = Hex(0, 0), Hex(0, 11)
    return _world(11, levels={a: 1, b: -1, Hex(0, 10): -1}), a, b


def test_fp_48_the_worked_example_is_not_blocked() -> None:
    """Firepower 12.1.4.4 (FP-48): the book's example on a board: A at 5, B at -2, 11 hexes apart;
    column 7, line 13 (10-12), column 5 gives 9, so ground at 7, 8 and 9 hexes does not block."""
    w, a, b = _fp48_world()
    c = advanced_card().los_check(7, 11, 5)
    assert (c.line, c.max_distance) == (13, 9)
    res = line_of_sight(w, a, b, 3 + 2, -3 + 1)
    assert not res.blocked
    assert any(s.chart is not None and s.chart.line == 13 for s in res.steps)


def test_fp_49_a_prone_firer_is_blocked_by_the_obstacles_at_8_and_9_not_7() -> None:
    """Firepower 12.1.4.4 (FP-49): the same line with A Prone (3): the ground at 8 and 9 hexes
    blocks, that at 7 does not."""
    w, a, b = _fp48_world()
    res = line_of_sight(w, a, b, 3, -2)
    assert res.blocked
    verdicts = {s.distance: s.verdict for s in res.steps if s.obstacle.kind == "ground"}
    assert verdicts[7] == "clear" and verdicts[8] == "blocked"
    full = line_of_sight(w, a, b, 3, -2, exhaustive=True)
    assert {s.distance for s in full.steps if s.verdict == "blocked"} >= {8, 9}


def test_trees_and_hedges_hinder_instead_of_blocking() -> None:
    # Firepower 12.2.6: a tree hex that would block adds +1
    w = _world(3, cover={Hex(0, 1): "tree"})
    res = line_of_sight(w, Hex(0, 0), Hex(0, 3), 2, 2)
    assert not res.blocked and res.trees == 1


def test_smoke_hinders_by_its_source_and_hides_the_tree_in_its_hex() -> None:
    # Firepower 12.2.7: +3 for F or M smoke, +2 for W; a tree in the smoke hex is ignored
    w = _world(3, cover={Hex(0, 1): "tree"}, smoke={Hex(0, 1): ("M", 0), Hex(0, 2): ("W", 0)})
    res = line_of_sight(w, Hex(0, 0), Hex(0, 3), 2, 2)
    assert sorted(res.smoke) == [2, 3] and res.trees == 0
    # firing out of a smoke hex counts it too
    w2 = _world(2, smoke={Hex(0, 0): ("M", 0)})
    assert line_of_sight(w2, Hex(0, 0), Hex(0, 2), 2, 2).smoke == (3,)


def test_friendly_soldiers_block_by_height_opposing_never() -> None:
    # Firepower 12.1.4.3: a friendly Standing soldier between two Standing ends is as high as
    # both: clear (12.1.3); between a Standing firer and a Prone target he blocks (12.1.2)
    w = _world(2)
    assert not line_of_sight(w, Hex(0, 0), Hex(0, 2), 2, 2, friendly={Hex(0, 1): 2}).blocked
    assert line_of_sight(w, Hex(0, 0), Hex(0, 2), 2, 0, friendly={Hex(0, 1): 2}).blocked


def test_a_rules_obstacle_plugs_into_the_line_of_sight() -> None:
    # docs/decisions.md FPD-54: walls and floors of another rule arrive as Obstacles
    def wall(a: Hex, b: Hex, hexes: tuple[Hex, ...], ends: Any) -> list[Obstacle]:
        return [Obstacle(Hex(0, 1), "wall without an opening", 0, "Firepower 12.1.6",
                         absolute=True)]

    res = line_of_sight(_world(2, extra=wall), Hex(0, 0), Hex(0, 2), 2, 2)
    assert res.blocked and res.rule == "Firepower 12.1.6"
    high = [Obstacle(Hex(0, 1), "building", 9, "Firepower 12.1.5")]
    assert line_of_sight(_world(2, extra=lambda a, b, h, e: high), Hex(0, 0), Hex(0, 2), 2, 2
                         ).blocked


def test_hexwar_los_explains_an_advanced_line_hex_by_hex(fp_game: GameFactory) -> None:
    # Firepower 12.1.4: the explanation names the heights and the LOS chart line it used
    from hexwar.core.los import line_of_sight as core_los

    g = _game(fp_game, [("A1", "RFL", "A", "C2", 4), ("B1", "RFL", "B", "C12", 1,
                                                     {"posture": "prone"})],
              hexes=[{"at": "C2", "height": 1}, {"at": "C7", "features": ["fence:2-6"]}])
    res = core_los(g.board, g.board.parse("1C2"), g.board.parse("1C12"), g.los_rules, data=g,
                   exhaustive=True)
    text = " ".join(res.reasons(g.board))
    assert "firer 5" in text and "target 0" in text and "LOS chart" in text and "line" in text


# -- Firepower 12.2, 12.3.6: L fire ------------------------------------------------------------


def test_l_fire_uses_the_weapon_chart_and_the_advanced_modifiers(fp_game: GameFactory) -> None:
    g = _game(fp_game, [("A1", "RFL", "A", "C2", 4, {"model": "RFL10"}),
                        ("B1", "RFL", "B", "C5", 1, {"posture": "prone", "speed": "running"})],
              hexes=[{"at": "C5", "terrain": "scrub"}])
    ctx = _preview(g, "A1", {"act": "fire", "mode": "semi", "targets": ["B1"]})
    assert ctx.hit == advanced_card().hit_number("RFL10", "L", "semi", 3)
    rules = {m.rule: m.value for m in ctx.modifiers["B1"]}
    assert rules["Firepower 12.2.5"] == 2 and rules["Firepower 12.2.4"] == 1
    assert rules["Firepower 12.2.12"] == 2  # Running target, firer spent nothing


def test_a_crater_is_rough_terrain_so_cover_for_basic_and_advanced_fire(
        fp_game: GameFactory) -> None:
    # Firepower 8.7: crater units are rough terrain; rough is cover (Firepower 6.3.6.2.2, 12.2.3)
    from hexwar.plugins.firepower.soldiers import soldiers_of

    g = _game(fp_game, [("A1", "RFL", "A", "C2", 4, {"model": "RFL10"}),
                        ("B1", "RFL", "B", "C5", 1)])
    before = {m.rule for m in _preview(g, "A1", {"act": "fire", "mode": "semi",
                                                 "targets": ["B1"]}).modifiers["B1"]}
    assert "Firepower 12.2.3" not in before
    data(g)["craters"] = {"1C5": 1}
    ctx = _preview(g, "A1", {"act": "fire", "mode": "semi", "targets": ["B1"]})
    cover = [m for m in ctx.modifiers["B1"] if m.rule == "Firepower 12.2.3"]
    assert [m.name for m in cover] == ["target in cover (crater)"]
    sol = soldiers_of(g.state.units)
    m = fp_map(g)
    assert combat.target_cover(m, sol["B1"], sol["A1"].hex)  # the Basic lookup as well
    assert any(x.rule == "Firepower 6.3.6.2.2" for x in
               combat.blast_modifiers(rules_card(g), m, sol["B1"], sol["B1"].hex))


def test_fp_52_the_movement_chart_cell_in_the_text() -> None:
    """Firepower 12.2.12.3 (FP-52): a firer who spent 1 MF, a target showing Run: the MOVEMENT
    MODIFIERS CHART gives +3."""
    assert advanced_card().movement(1, 4) == 3


def test_penetrated_cover_counts_only_as_concealment() -> None:
    # Firepower 12.3.6: an L weapon whose penetration reaches the cover's terrain value
    m = FpMap.plain(_line(2), cover={Hex(0, 2): "tree"})
    f = af.Firing(LosWorld(m), "RFL10", "L", "semi", {}, {}, frozenset(), 1, {}, ())
    t = Soldier("T", "B", Hex(0, 2))
    assert af.cover_of(f, t, Hex(0, 0)) == ("tree", af.TREE_TV)
    assert weapon("RFL10").penetration["L"] < af.TREE_TV  # a rifle does not go through


@pytest.mark.parametrize(("choice", "rule"), [
    ({"act": "fire", "mode": "semi", "targets": ["B1"]}, "Firepower 10.7"),        # range
    ({"act": "fire", "mode": "semi", "targets": ["B1"], "ammo": "G"}, "Firepower 10.7"),
    ({"act": "grenade", "hex": "1C14"}, "Firepower 10.7"),                         # range
    ({"act": "grenade", "hex": "1C14", "item": "MRT6"}, "Firepower 8.5"),          # not his
    ({"act": "grenade", "hex": "1C14", "ammo": "L"}, "Firepower 12.3.6"),          # L: units
])
def test_out_of_range_or_wrong_ammunition_is_refused_and_changes_nothing(
        fp_game: GameFactory, choice: dict[str, Any], rule: str) -> None:
    g = _game(fp_game, [("A1", "PST", "A", "C2", 4, {"model": "PST1"}),
                        ("B1", "RFL", "B", "C14", 1)])
    before = g.state.digest()
    with pytest.raises(RulesError, match=rule):
        _resolve(g, "A1", choice, [1, 1, 1])
    assert g.state.digest() == before


def test_a_posture_the_chart_forbids_is_refused(fp_game: GameFactory) -> None:
    # Firepower 10.7 item 10: the MMG2 tripod cannot be fired Standing
    g = _game(fp_game, [("A1", "LMG", "A", "C2", 4, {"model": "MMG2"}), ("B1", "RFL", "B", "C5", 1)])
    with pytest.raises(RulesError, match=r"Firepower 10.7.*|may not be fired stand"):
        _preview(g, "A1", {"act": "fire", "mode": "auto", "targets": ["B1"]})


def test_a_lone_crewman_fires_one_burst_and_loses_mf(fp_game: GameFactory) -> None:
    # Firepower 10.1.2.1, 10.1.2.2: MMG2 needs 2 crew
    from hexwar.plugins.firepower.actions import mf_left

    g = _game(fp_game, [("A1", "LMG", "A", "C2", 4, {"model": "MMG2", "posture": "prone"}),
                        ("A2", "RFL", "A", "C2", 4, {"model": "RFL10"}),
                        ("B1", "RFL", "B", "C5", 1), ("B2", "RFL", "B", "C5", 1)])
    choice = {"act": "fire", "mode": "auto", "targets": ["B1", "B2"]}
    with pytest.raises(RulesError, match=r"Firepower 10.1.2.2"):
        _preview(g, "A1", choice)
    ph: dict[str, Any] = {"spent": {}}
    alone = mf_left(g, ph, "A1")
    g.state.units["A2"].state["crew_of"] = "A1"  # A2 acquired the weapon (Firepower 11.1.6.2)
    assert af.crew_of(g, "A1") == 2
    _preview(g, "A1", choice)
    assert mf_left(g, ph, "A1") == alone + 1
    assert mf_left(g, ph, "A2") == 4 + weapon("MMG2").move  # a crewman has the Move column


@pytest.mark.parametrize("status", ["stunned", "inactive"])
def test_a_stunned_or_inactive_crewman_is_no_part_of_the_crew(fp_game: GameFactory,
                                                             status: str) -> None:
    # Firepower 10.1: a crewman counts only if not Stunned or Inactive (Inactive: option 16.6)
    from hexwar.plugins.firepower import crews

    g = _game(fp_game, [("A1", "LMG", "A", "C2", 4, {"model": "MMG2", "posture": "prone"}),
                        ("A2", "RFL", "A", "C2", 4, {"model": "RFL10", "crew_of": "A1"}),
                        ("B1", "RFL", "B", "C5", 1)])
    assert af.crew_of(g, "A1") == 2 and crews.helpers(g, "A1") == ["A2"]
    g.state.units["A2"].state["status"] = status
    assert af.crew_of(g, "A1") == 1 and crews.helpers(g, "A1") == []


def test_automatic_fire_suppresses_the_unhit(fp_game: GameFactory) -> None:
    # Firepower 6.4.1 in the Advanced procedure
    g = _game(fp_game, [("A1", "LMG", "A", "C2", 4, {"model": "LMG4", "posture": "prone"}),
                        ("B1", "RFL", "B", "C5", 1), ("B2", "RFL", "B", "C5", 1)])
    ctx = _resolve(g, "A1", {"act": "fire", "mode": "auto", "targets": ["B1"]}, [10] * 4)
    assert ctx.eliminated == [] and sorted(ctx.suppressed) == ["B1", "B2"]


# -- Firepower 12.3, 12.4: fire at a hex -------------------------------------------------------


def _grenadier(fp_game: GameFactory, eq: dict[str, int], model: str = "RFL10",
               posture: str = "stand", **kw: Any) -> Game:
    g = _game(fp_game, [("A1", "RFL", "A", "C2", 4, {"model": model, "posture": posture}),
                        ("B1", "RFL", "B", "C5", 1), ("B2", "RFL", "B", "C6", 1),
                        ("A9", "RFL", "A", "K2", 4)], **kw)
    g.state.units["A1"].state["equipment"] = dict(eq)
    return g


def test_a_grenade_hit_stuns_in_the_impact_hex_and_suppresses_in_the_zone(
        fp_game: GameFactory) -> None:
    # Firepower 12.3.4.2, 6.4.2; the item is used up (Firepower 8.5)
    g = _grenadier(fp_game, {"HGN3": 2})
    ctx = _resolve(g, "A1", {"act": "grenade", "hex": "1C5"}, [1, 10, 9])
    results = {b["unit"]: b["result"] for b in ctx.blast}
    assert results == {"B1": "stunned", "B2": "no effect"} or results["B1"] == "stunned"
    assert g.state.units["B1"].state["status"] == "stunned"
    assert g.state.units["A1"].state["equipment"] == {"HGN3": 1}


def test_a_grenade_impact_in_a_mined_hex_sets_its_mines_off(fp_game: GameFactory) -> None:
    # Firepower 12.4.4.3: the G impact hex's mines detonate after the grenade's effects; smoke
    # (M) in a mined hex sets nothing off
    from hexwar.plugins.firepower import hidden_setup as hs

    g = _grenadier(fp_game, {"HGN3": 1, "HGN4-M": 1})
    hs.secret(g, "B")["mines"] = [{"kind": "PMN1", "hex": "1C5"}, {"kind": "PMN1", "hex": "1C6"}]
    _resolve(g, "A1", {"act": "grenade", "hex": "1C6", "item": "HGN4", "ammo": "M"}, [1])
    assert len(hs.secret(g, "B")["mines"]) == 2
    _resolve(g, "A1", {"act": "grenade", "hex": "1C5", "item": "HGN3"}, [1, 10, 9])
    assert hs.secret(g, "B")["mines"] == [{"kind": "PMN1", "hex": "1C6"}]
    mine = [e for e in g.log.events if e["type"] == "mine"]
    assert [(e["hex"], e["rule"]) for e in mine] == [("1C5", "Firepower 12.4.4.3")]


def test_offensive_and_defensive_grenades(fp_game: GameFactory) -> None:
    # Firepower 12.4.1.3: the defensive grenade blasts harder and is not thrown as far
    w = weapon("HGN1")
    assert w.blast_of("G", "defensive") > w.blast_of("G", "offensive")
    card = advanced_card()
    assert card.max_range("HGN1", "G", "defensive") < card.max_range("HGN1", "G", "offensive")
    g = _grenadier(fp_game, {"HGN1": 1})
    with pytest.raises(RulesError, match=r"Firepower 12.4.1.3"):
        _preview(g, "A1", {"act": "grenade", "hex": "1C5", "item": "HGN1", "mode": "thrown"})


def test_only_a_standing_thrower_passes_the_range_line(fp_game: GameFactory) -> None:
    # Firepower 6.3.2.1.1 for the Advanced grenades
    g = _grenadier(fp_game, {"HGN3": 1}, posture="crouch")
    g.state.units["B1"].hex = g.board.parse("1C9")
    with pytest.raises(RulesError, match=r"Firepower 6.3.2.1.1"):
        _preview(g, "A1", {"act": "grenade", "hex": "1C9"})


def test_a_soldier_throws_only_what_he_carries(fp_game: GameFactory) -> None:
    g = _grenadier(fp_game, {"HGN3": 1})
    with pytest.raises(RulesError, match=r"Firepower 8.5"):
        _preview(g, "A1", {"act": "grenade", "hex": "1C5", "item": "HGN6"})


def test_fp_51_the_height_from_the_impact_to_the_feet() -> None:
    """Firepower 12.2.8 (FP-51): a grenade in the tree hex of a soldier Up 5 heights lands 3 heights
    below his feet: +3 to the blast roll."""
    m = FpMap.plain(_line(1), cover={Hex(0, 1): "tree"})
    f = af.Firing(LosWorld(m), "HGN3", "G", "throw", {}, {}, frozenset(), 1, {}, (),
                  ups={"U": 5})
    s = Soldier("U", "B", Hex(0, 1), posture="up")
    mods = af.blast_mods(f, s, Hex(0, 1), 0, 5)
    assert mods is not None
    assert [x.value for x in mods if x.rule == "Firepower 12.2.8"] == [3]


def test_fp_50_concealment_never_modifies_a_blast() -> None:
    """Firepower 12.2, 12.2.4 (FP-50): concealment is not a blast (B) modifier, so a soldier in
    scrub gets no concealment against a blast."""
    m = FpMap.plain(_line(1), cover={Hex(0, 1): "scrub"})
    f = af.Firing(LosWorld(m), "HGN3", "G", "throw", {}, {}, frozenset(), 1, {}, ())
    mods = af.blast_mods(f, Soldier("S", "B", Hex(0, 1)), Hex(0, 1), 0, 5)
    assert mods is not None and not any(x.rule == "Firepower 12.2.4" for x in mods)
    assert not advanced_card().applies("target_concealed", "B")


def test_fp_58_the_part_of_a_fence_hex_hit_decides_the_cover() -> None:
    """Firepower 12.7.1 (FP-58): for a soldier on part 1 of a fence hex, a G hit on part 1 gives him
    no fence cover, a hit on part 2 does."""
    pic = Picture("fence", Hex(0, 1), 2, 6)
    m = FpMap.plain(_line(1), pictures=[pic])
    f = af.Firing(LosWorld(m), "HGN3", "G", "throw", {}, {}, frozenset(), 1, {}, ())
    side = min(pic.sides()[0])
    other = min(pic.sides()[1])
    s = Soldier("S", "B", Hex(0, 1), fence_side=side)
    assert af.cover_of(f, s, Hex(0, 0), impact_side=side) is None
    assert af.cover_of(f, s, Hex(0, 0), impact_side=other) == ("fence", af.FENCE_TV)


def test_fp_55_h_fired_as_g_halves_the_blast_and_penetrates_one() -> None:
    """Firepower 12.3.5.2 (FP-55): the RPG-2 (MPL19) fired as G has half its H blast of 5, rounded
    down to 2, and penetration 1."""
    w = weapon("MPL19")
    assert w.blast["H"] == 5 and records().sources["MPL19.blast.H"] == "Firepower 12.3.5.2"
    f = af.Firing(LosWorld(FpMap.plain(_line(1))), "MPL19", "H", "semi", {}, {}, frozenset(), 2,
                  {}, (), as_g=True)
    assert af.blast_number(f, w) == 2 and af.penetration(f, w) == 1


def _plain_ctx(n: int, item: str, ammo: str, *, mode: str = "semi", nc: int = 0,
               observers: tuple[Soldier, ...] = (), levels: dict[Hex, int] | None = None
               ) -> combat.FireContext:
    from hexwar.plugins.firepower.tables import card

    m = FpMap.plain(_line(n))
    for h, lv in (levels or {}).items():
        m.height[h] = float(lv)
    firer = Soldier("F", "A", Hex(0, 0), 4, posture="crouch")
    sol = {"F": firer, **{o.id: o for o in observers}}
    ctx = combat.FireContext("grenade", card(), m, sol, firer, "HGN", "throw",
                             lambda p: 1, target_hex=Hex(0, n), noncombat_mf=nc)
    ctx.extra["firing"] = af.Firing(LosWorld(m), item, ammo, mode, {}, {"F": item},
                                    frozenset(), 2, {}, observers)
    return ctx


def test_fp_56_the_mortar_minimum_range() -> None:
    """Firepower 12.4.2 (FP-56): the MRT6 has no hit number at 1-20 hexes: a target hex at 20 is
    refused, one at 21 accepted."""
    with pytest.raises(RulesError, match=r"Firepower 12.4.2"):
        af.step_check_hex(_plain_ctx(20, "MRT6", "G"))
    af.step_check_hex(_plain_ctx(21, "MRT6", "G"))
    assert records().sources["MRT6.min_range"] == "Firepower 12.4.2"


def test_a_mortar_fires_only_without_other_mf() -> None:
    with pytest.raises(RulesError, match=r"Firepower 12.4.2"):
        af.step_check_hex(_plain_ctx(21, "MRT6", "G", nc=1))


def test_high_trajectory_fire_needs_an_observer_when_blocked() -> None:
    # docs/decisions.md FPD-56: a hill blocks the mortar's own sight; a friend who sees the hex
    # lets it fire
    hill = {Hex(0, 10): 3}
    with pytest.raises(RulesError, match=r"Firepower 12.4.2"):
        af.step_check_hex(_plain_ctx(25, "MRT6", "G", levels=hill))
    spotter = Soldier("O", "A", Hex(0, 15), 4)
    ctx = _plain_ctx(25, "MRT6", "G", levels=hill, observers=(spotter,))
    af.step_check_hex(ctx)
    assert ctx.extra["observer"] == "O"


def test_fp_53_canister_range_modifier() -> None:
    """Firepower 12.3.2.1 (FP-53): a soldier in a canister's arc at 5 hexes gets +1 for the range."""
    assert advanced_card().canister("LCW1", 5) == 1


def test_canister_rolls_for_everyone_in_the_arc_and_suppresses(fp_game: GameFactory) -> None:
    # Firepower 12.3.2.2
    g = _game(fp_game, [("A1", "LMG", "A", "C2", 4, {"model": "LCW1", "posture": "prone"}),
                        ("B1", "RFL", "B", "C5", 1), ("B2", "RFL", "B", "C8", 1)])
    ctx = _resolve(g, "A1", {"act": "grenade", "hex": "1C5", "ammo": "C"}, [10, 2])
    res = {b["unit"]: b["result"] for b in ctx.blast}
    assert res["B1"] == "suppressed"
    assert set(res) == {"B1", "B2"}


def test_fp_54_a_flamethrower_fires_six_times(fp_game: GameFactory) -> None:
    """Firepower 12.3.3 (FP-54): the FTR1 fires six times ("6x"), then is refused; a miss fails to
    ignite, with no spread roll."""
    g = _game(fp_game, [("A1", "RFL", "A", "C2", 4, {"model": "FTR1"}),
                        ("B1", "RFL", "B", "C3", 1)])
    ctx = _resolve(g, "A1", {"act": "grenade", "hex": "1C3"}, [10])
    assert ctx.outcome == "failed to ignite" and ctx.spread_roll is None
    for _ in range(5):
        af.consume(g, "A1", "FTR1")
    assert af.uses_left(g.state.units["A1"].state, "FTR1") == 0
    with pytest.raises(RulesError, match=r"Firepower 12.3.3"):
        _preview(g, "A1", {"act": "grenade", "hex": "1C3"})
    assert records().sources["FTR1.uses"] == "Firepower 12.3.3"


def test_flame_hits_the_impact_hex_without_cover_and_makes_smoke(fp_game: GameFactory) -> None:
    # Firepower 12.3.3: no cover or posture modifiers (12.2.3, 12.2.5), smoke +3 in the hex
    g = _game(fp_game, [("A1", "RFL", "A", "C2", 4, {"model": "FTR1"}),
                        ("B1", "RFL", "B", "C3", 1, {"posture": "prone"}),
                        ("B2", "RFL", "B", "C4", 1)], hexes=[{"at": "C3", "terrain": "rough"}])
    ctx = _resolve(g, "A1", {"act": "grenade", "hex": "1C3"}, [1, 9])
    assert [b["unit"] for b in ctx.blast] == ["B1"]  # no blast zone
    assert not any(m.rule in ("Firepower 12.2.3", "Firepower 12.2.5") for m in ctx.modifiers["B1"])
    assert data(g)["smoke"][0]["source"] == "F"


def test_white_phosphorus_makes_w_smoke(fp_game: GameFactory) -> None:
    # Firepower 12.3.9
    g = _grenadier(fp_game, {"HGN6": 1})
    _resolve(g, "A1", {"act": "grenade", "hex": "1C5", "item": "HGN6"}, [1] + [10] * 3)
    assert data(g)["smoke"][0]["source"] == "W"
    world = los_world(g)
    assert world.smoke[fp_map(g).parse("1C5")][0] == "W"


def test_smoke_grenade_makes_smoke_that_hinders_and_goes_after_two_turns(
        fp_game: GameFactory) -> None:
    # Firepower 12.3.7, FP-119 (9.3): smoke of Turn 2 lasts until the Turn Record Phase of Turn 3
    g = _grenadier(fp_game, {"HGN4-M": 1})
    g.state.turn = 2
    ctx = _resolve(g, "A1", {"act": "grenade", "hex": "1C5", "item": "HGN4", "ammo": "M"}, [1])
    assert ctx.eliminated == [] and ctx.blast == []
    fire = _preview(g, "A9", {"act": "fire", "mode": "semi", "targets": ["B2"]}) \
        if False else None
    assert fire is None
    world = los_world(g)
    assert fp_map(g).parse("1C5") in world.smoke
    turn_record_removals(g)
    assert data(g)["smoke"]
    g.state.turn = 3
    turn_record_removals(g)
    assert data(g)["smoke"] == []


def test_fp_118_illumination_improves_observation_by_distance() -> None:
    """Firepower 12.3.8, 12.2.11 (FP-118): at Observation Conditions 3, illumination brings hexes
    8, 15 and 30 from its impact to OC 1, 2 and 3; the OC modifier is +2 at 3, 0 at 1."""
    assert [improved(3, [d]) for d in (8, 15, 30)] == [1, 2, 3]
    assert advanced_card().observation(3) == 2 and advanced_card().observation(1) == 0


def test_a_and_h_against_a_fence_penetrate_or_not(fp_game: GameFactory) -> None:
    # Firepower 12.3.1.2, 12.3.5.1: penetration against the fence's terrain value 8 (12.5)
    hexes = [{"at": "C5", "features": ["fence:2-6"]}]
    g = _game(fp_game, [("A1", "RFL", "A", "C2", 4, {"model": "MPL19"}),
                        ("B1", "RFL", "B", "C5", 1)], hexes=hexes)
    ctx = _resolve(g, "A1", {"act": "grenade", "hex": "1C5", "ammo": "H"}, [1])
    assert "no effect" in ctx.outcome  # penetration 6 < 8
    g2 = _game(fp_game, [("A1", "RFL", "A", "C2", 4, {"model": "LCW1", "posture": "prone"}),
                         ("B1", "RFL", "B", "C5", 1)], hexes=hexes)
    ctx2 = _resolve(g2, "A1", {"act": "grenade", "hex": "1C5", "ammo": "H"}, [1, 10])
    assert ctx2.blast[0]["result"] == "stunned"  # missed by the blast inside: Stunned
    with pytest.raises(RulesError, match=r"Firepower 12.3.1"):
        _preview(g2, "A1", {"act": "grenade", "hex": "1C6", "ammo": "H"})


def test_demolition_charge_explodes_at_the_end_of_the_next_own_impulse_phase(
        fp_game: GameFactory) -> None:
    # Firepower 12.4.9
    g = _game(fp_game, [("A1", "RFL", "A", "C2", 4, {"model": "RFL10"}),
                        ("B1", "RFL", "B", "C2", 1)])
    g.state.units["A1"].state["equipment"] = {"DMC1": 1}
    af.arm_charge(g, "A1", "DMC1")
    g.state.units["A1"].hex = g.board.parse("1K2")  # he got away
    af.explode_due(g, "A")   # the end of the arming Impulse Phase: not yet
    assert data(g)["charges"]
    af.explode_due(g, "B")   # the other side's phase: not its clock
    assert data(g)["charges"]
    g.dice.d10 = lambda purpose: 1  # type: ignore[method-assign]
    af.explode_due(g, "A")
    assert data(g)["charges"] == [] and g.state.units["B1"].state.get("eliminated")


# -- Firepower 13: melee -----------------------------------------------------------------------


def test_fp_61_and_fp_62_melee_needs_a_shared_height() -> None:
    """Firepower 13 (FP-61, FP-62): melee needs a shared height: Up at 7 (feet 5) shares none with a
    Standing soldier on the ground, Up at 4 (feet 2) does."""
    ground = span(0, "stand")
    assert not share_height(span(0, "up", 7), ground)
    assert share_height(span(0, "up", 4), ground)


def test_melee_posture_modifiers() -> None:
    # Firepower 13.2
    assert [m.value for m in posture_mods(["stand"], ["prone", "prone"])] == [-2]
    assert [m.value for m in posture_mods(["crouch", "prone"], ["crouch"])] == [-1, 1]


def test_advanced_melee_modifiers_in_a_game(fp_game: GameFactory) -> None:
    # Firepower 13.3 (rear), 13.4 (stunned), 13.5 (moving up), 13.6 (bayonets)
    g = _game(fp_game, [("A1", "RFL", "A", "C4", 4, {"model": "RFL10"}),
                        ("B1", "RFL", "B", "C5", 4, {"model": "PST1", "status": "stunned"})],
              hexes=[{"at": "C5", "height": 1}])
    mods = {m.rule: m.value for m in melee_modifiers(g, ["A1"], ["B1"], g.board.parse("1C5"))}
    assert mods["Firepower 13.4"] == -3 and mods["Firepower 13.5"] == 1
    assert mods["Firepower 13.6"] == -1 and mods["Firepower 13.3"] == -3
    g.state.units["B1"].state["up"] = 9
    g.state.units["B1"].state["posture"] = "up"
    with pytest.raises(RulesError, match=r"Firepower 13"):
        melee_modifiers(g, ["A1"], ["B1"], g.board.parse("1C5"))


# -- data -----------------------------------------------------------------------------------


def test_every_disclosed_weapon_value_is_cited_and_the_rest_estimated() -> None:
    import importlib.util
    from pathlib import Path

    spec = importlib.util.spec_from_file_location(
        "mwc", Path(__file__).parents[3] / "tools" / "firepower" / "make_weapon_chart.py")
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    src = records().sources
    for (row, key), rule in mod.DISCLOSED.items():
        assert src[f"{row}.{key}"] == rule, (row, key)
    cited = {k for k, v in src.items() if v != "estimated"}
    assert cited == {f"{r}.{k}" for r, k in mod.DISCLOSED}
    # the numbers themselves (Firepower 12.4.4.1, 12.4.4.2, 12.4.2, 12.3.3, 10.7)
    assert (weapon("PMN1").blast["G"], weapon("PMN1").penetration["G"]) == (7, 1)
    assert (weapon("PMN2").blast["C"], weapon("PMN2").penetration["C"]) == (8, 1)
    assert (weapon("VMN1").penetration["A"], weapon("VMN2").penetration["A"]) == (3, 6)
    assert weapon("LCW1").move == -2 and weapon("LMG12").move == -1
    assert "M" in weapon("HGN4").types and weapon("HGN5").uses == 1
    card = advanced_card()
    assert not card.has_hits("MRT6", "G", "semi") or all(
        not _has(card, "MRT6", r) for r in range(1, 21))
    assert _has(card, "MRT6", 21)


def _has(card: Any, w: str, rng: int) -> bool:
    try:
        card.hit_number(w, "G", "semi", rng)
    except RulesError:
        return False
    return True


def test_data_check_lists_and_checks_the_disclosed_numbers() -> None:
    from click.testing import CliRunner

    from hexwar.core.cli import cli

    r = CliRunner().invoke(cli, ["data", "check", "firepower"])
    assert r.exit_code == 0, r.output
    assert "los_chart" in r.output and "every disclosed number agrees" in r.output


def test_every_class_of_the_weapon_chart_has_a_row() -> None:
    # Firepower 10.7 item 2: the weapon classes of the chart (a GMG row is listed as LMG or MMG)
    rows = {k: v for k, v in records().values.items() if k != "source"}
    classes = {w.cls for w in chart().values()}
    assert classes >= {"RFL", "PST", "SMG", "LMG", "MMG", "GLR", "MRT", "MPL", "LPL", "LCW",
                       "FTR", "DMC", "HGN", "HRG", "RGN", "SHG", "MSL", "PMN", "VMN"}
    assert {"GMG"} <= {r["class"] for r in rows.values()}


def test_blast_diagram_total() -> None:
    # the stand-in blast diagram of blast 5 agrees with the Basic one (Firepower 6.3.6.3.2.2)
    c = advanced_card()
    assert [c.blast_modifier(5, d) for d in (0, 1, 2, 3)] == [0, 3, 4, None]
    assert total([]) == 0


# -- table-side ------------------------------------------------------------------------------

SITUATION = """[scenario]
id = "t"
system = "firepower"
turns = 1
rules = ["firepower.advanced"]
[sides.A]
sequence_units = 3
impulses = 2
[sides.B]
sequence_units = 3
impulses = 2
[board]
panels = [{ file = "panel.toml" }]
[special]
fold = "H"
[[units]]
id = "A1"
type = "firepower:RFL"
side = "A"
hex = "1C2"
facing = 4
state = { model = "RFL10", equipment = { HGN4-M = 1, HGN3 = 1 } }
[[units]]
id = "B1"
type = "firepower:RFL"
side = "B"
hex = "1C10"
facing = 1
state = { posture = "prone" }
"""


@pytest.fixture
def situation(tmp_path: Any) -> str:
    from tests.plugins.firepower.conftest import PANEL_HEAD

    (tmp_path / "panel.toml").write_text(
        PANEL_HEAD + '[[hex]]\nat = "C2"\nheight = 1\n[[hex]]\nat = "C6"\nterrain = "tree"\n',
        encoding="utf-8")
    (tmp_path / "s.toml").write_text(SITUATION, encoding="utf-8")
    return str(tmp_path / "s.toml")


def test_table_side_fire_explains_heights_modifiers_and_rules(situation: str) -> None:
    from click.testing import CliRunner

    from hexwar.plugins.firepower.cli import TableSide, firepower

    r = CliRunner().invoke(firepower, ["fire", "A1", "B1", "--situation", situation,
                                       "--mode", "semi", "--json"], obj=TableSide())
    assert r.exit_code == 0, r.output
    import json

    out = json.loads(r.output)
    assert out["item"] == "RFL10" and out["heights"]["B1"] == [5, 0]
    rules = {m["rule"] for m in out["modifiers"]["B1"]}
    assert rules == {"Firepower 12.2.5", "Firepower 12.2.6"}
    r2 = CliRunner().invoke(firepower, ["fire", "A1", "B1", "--situation", situation,
                                        "--ammo", "G"], obj=TableSide())
    assert r2.exit_code != 0 and "Firepower 10.7" in r2.output


def test_table_side_grenade_fires_the_advanced_types(situation: str) -> None:
    from click.testing import CliRunner

    from hexwar.plugins.firepower.cli import TableSide, firepower

    r = CliRunner().invoke(firepower, ["grenade", "A1", "1C5", "--situation", situation,
                                       "--item", "HGN4", "--ammo", "M", "--dice", "3"],
                           obj=TableSide())
    assert r.exit_code == 0, r.output
    assert "places smoke (M) in 1C5 (Firepower 12.3.7)" in r.output
    r2 = CliRunner().invoke(firepower, ["grenade", "A1", "1C15", "--situation", situation],
                            obj=TableSide())
    assert r2.exit_code != 0 and "Firepower 10.7" in r2.output and "Traceback" not in r2.output


def test_hexwar_los_on_an_advanced_situation(situation: str) -> None:
    from click.testing import CliRunner

    from hexwar.core.cli import cli

    r = CliRunner().invoke(cli, ["los", situation, "1C2", "1C10"])
    assert r.exit_code == 0, r.output
    assert "tree at height 6 (firer 5, target 0): hinders +1" in r.output


# -- the AI ----------------------------------------------------------------------------------


def _ask_advanced(g: Game, side: str, *units: str) -> Any:
    from hexwar.core.engine.decisions import Decision
    from hexwar.plugins.firepower import advanced_impulses as adv
    from hexwar.plugins.firepower import impulses
    from hexwar.plugins.firepower.ai import make_ai

    impulses.start_impulse_phase(g, side)
    impulses.begin_impulse(g, units)
    d = Decision(side, "action", options=adv.legal_advanced_actions(g))
    return make_ai(side, 0).choose(d, g.view(side))


def test_the_ai_fires_a_mortar_at_a_stack(fp_game: GameFactory) -> None:
    prone = {"posture": "prone"}
    g = _game(fp_game, [("A1", "RFL", "A", "C2", 4, {"model": "MRT4", "posture": "crouch"}),
                        ("B1", "RFL", "B", "C12", 1, prone), ("B2", "RFL", "B", "C12", 1, prone),
                        ("B3", "RFL", "B", "C12", 1, prone)])
    choice = _ask_advanced(g, "A", "A1")
    assert choice["act"] == "grenade" and choice["hex"] == "1C12"
    assert choice.get("item", "MRT4") == "MRT4"


def test_the_ai_throws_smoke_before_its_men_cross_open_ground(fp_game: GameFactory) -> None:
    # the enemy lies Prone in trees out of grenade range; three of its own men stand in the open
    prone = {"posture": "prone", "model": "LMG4"}
    g = _game(fp_game, [("A1", "RFL", "A", "C2", 4, {"model": "RFL10"}),
                        ("A2", "RFL", "A", "B2", 4), ("A3", "RFL", "A", "D2", 4),
                        ("B1", "LMG", "B", "C12", 1, prone), ("B2", "LMG", "B", "B12", 1, prone)],
              hexes=[{"at": "C12", "terrain": "tree"}, {"at": "B12", "terrain": "tree"}])
    g.state.units["A1"].state["equipment"] = {"HGN4-M": 1}
    choice = _ask_advanced(g, "A", "A1")
    assert choice["act"] == "grenade" and choice.get("ammo") == "M"


def test_penetration_damages_terrain_until_it_is_destroyed(fp_game: GameFactory) -> None:
    # Firepower 12.3.4.2: damage adds up to the terrain value (a fence 8, 12.5); a destroyed
    # fence becomes rubble (12.3.4.2.5): no picture, cover in all directions
    g = _game(fp_game, [("A1", "RFL", "A", "C2", 4, {"model": "MRT6", "posture": "crouch"}),
                        ("B1", "RFL", "B", "C5", 1)], hexes=[{"at": "C5", "features": ["fence:2-6"]}])
    h = fp_map(g).parse("1C5")
    for _ in range(3):
        af.damage_terrain(g, h, 2)
    assert data(g)["damage"]["1C5"] == 6 and "destroyed" not in data(g)
    af.damage_terrain(g, h, 2)
    assert data(g)["destroyed"] == {"1C5": "rubble"}
    world = los_world(g)
    assert h not in world.map.fence and world.map.cover[h] == "rough"
    assert h in fp_map(g).fence  # the board's own map is untouched
    # a G hit records its penetration for the impact hex
    g2 = _grenadier(fp_game, {"HGN3": 1}, hexes=[{"at": "C5", "features": ["fence:2-6"]}])
    _resolve(g2, "A1", {"act": "grenade", "hex": "1C5"}, [1, 1, 10, 10, 10, 10])
    assert data(g2)["damage"]["1C5"] == weapon("HGN3").penetration["G"]


def test_automatic_fire_at_several_hexes(fp_game: GameFactory) -> None:
    # Firepower 12.6.1 tripod: any hexes of the arc; 12.6.2 bipod Prone: adjacent hexes only;
    # otherwise one hex
    units = [("B1", "RFL", "B", "C6", 1), ("B2", "RFL", "B", "D6", 1), ("B3", "RFL", "B", "C10", 1)]
    g = _game(fp_game, [("A1", "LMG", "A", "C2", 4, {"model": "MMG2", "posture": "prone"}),
                        ("A2", "RFL", "A", "C2", 4, {"crew_of": "A1"}), *units])
    ctx = _resolve(g, "A1", {"act": "fire", "mode": "auto", "targets": ["B1", "B3"]}, [10] * 8)
    assert {s.target for s in ctx.shots} == {"B1", "B3"}
    g2 = _game(fp_game, [("A1", "LMG", "A", "C2", 4, {"model": "LMG4", "posture": "prone"}),
                         *units])
    _preview(g2, "A1", {"act": "fire", "mode": "auto", "targets": ["B1", "B2"]})
    with pytest.raises(RulesError, match=r"Firepower 12.6.2"):
        _preview(g2, "A1", {"act": "fire", "mode": "auto", "targets": ["B1", "B3"]})
    g2.state.units["A1"].state["posture"] = "crouch"
    with pytest.raises(RulesError, match=r"Firepower 12.6"):
        _preview(g2, "A1", {"act": "fire", "mode": "auto", "targets": ["B1", "B2"]})


def test_suppressive_fire_scores_no_hits_but_suppresses(fp_game: GameFactory) -> None:
    # Firepower 12.6.3
    g = _game(fp_game, [("A1", "LMG", "A", "C2", 4, {"model": "LMG4", "posture": "prone"}),
                        ("B1", "RFL", "B", "C6", 1), ("B2", "RFL", "B", "C6", 1)])
    ctx = _resolve(g, "A1", {"act": "fire", "mode": "auto", "targets": ["B1"],
                             "suppressive": True}, [])
    assert ctx.shots == [] and ctx.eliminated == [] and sorted(ctx.suppressed) == ["B1", "B2"]


def test_a_light_mortar_fired_by_hand_needs_its_own_line_of_sight() -> None:
    # Firepower 12.4.2: MRT4 by hand fires flat: a hill in the way blocks even with an observer
    hill = {Hex(0, 5): 3}
    spotter = Soldier("O", "A", Hex(0, 8), 4)
    af.step_check_hex(_plain_ctx(10, "MRT4", "G", levels=hill, observers=(spotter,)))
    with pytest.raises(RulesError, match=r"Firepower 12.1.1"):
        af.step_check_hex(_plain_ctx(10, "MRT4", "G", mode="hand", levels=hill,
                                     observers=(spotter,)))
    with pytest.raises(RulesError, match=r"Firepower 12.4.2"):
        af.step_check_hex(_plain_ctx(10, "MRT6", "G", mode="hand"))


def test_fp_57_the_standard_fence_terrain_value_and_height() -> None:
    """Firepower 12.5 (FP-57): a standard concrete or stone fence has terrain value 8 and height 1
    (the example's wall, height 4, is not checked here)."""
    m = FpMap.plain(_line(1), pictures=[Picture("fence", Hex(0, 1), 2, 6)])
    assert af.terrain_value(m, Hex(0, 1)) == 8 and af.terrain_value(m, Hex(0, 0)) is None
    assert LosWorld(m).fence_height == 1 and LosWorld(m).top(Hex(0, 1)) == 1


def test_a_soldier_raised_by_a_floor_sees_over_a_hill(fp_game: GameFactory) -> None:
    # docs/decisions.md FPD-54: state.stands_at (a floor) raises the head for Firepower 12.1
    g = _game(fp_game, [("A1", "RFL", "A", "C2", 4, {"model": "RFL10"}),
                        ("B1", "RFL", "B", "C6", 1)], hexes=[{"at": "C4", "height": 1}])
    with pytest.raises(RulesError, match=r"Firepower 12.1.1"):
        _preview(g, "A1", {"act": "fire", "mode": "semi", "targets": ["B1"]})
    g.state.units["A1"].state["stands_at"] = 5
    ctx = _preview(g, "A1", {"act": "fire", "mode": "semi", "targets": ["B1"]})
    assert ctx.extra["los"]["B1"].firer_height == 7


def test_hexwar_los_names_the_opening_a_building_end_looks_through() -> None:
    """Firepower 12.1.6: ``hexwar los`` to a building hex names the open window the line goes
    through as a clear finding; with the window closed the line is blocked by it."""
    from hexwar.core.los import line_of_sight as core_los
    from hexwar.plugins.firepower.advanced_terrain import adv_map
    from hexwar.plugins.firepower.state import data
    from tests.plugins.firepower.test_terrain import _game as terrain_game

    g = terrain_game([("A1", "RFL", "A", "W3", 2, {})])
    a, b = g.board.parse("4W3"), g.board.parse("4AA5")
    res = core_los(g.board, a, b, g.los_rules, data=g, exhaustive=True)
    text = " ".join(res.reasons(g.board))
    assert not res.blocked and "through the open window on the hexside toward 4Z4" in text
    win = adv_map(g).opening(b, g.board.parse("4Z4"), 1)
    assert win is not None
    data(g)["openings"] = {win.key: "closed"}
    shut = core_los(g.board, a, b, g.los_rules, data=g, exhaustive=True)
    assert shut.blocked and "closed window" in " ".join(shut.reasons(g.board))


def test_a_demolition_charge_damages_the_fence_of_its_hex(fp_game: GameFactory) -> None:
    """Firepower 12.4.9, 12.3.4.2, 12.3.4.2.1: a charge (DMC1, penetration 10) exploding in a
    fence hex (terrain value 8) destroys the fence: the hex is rubble."""
    g = _game(fp_game, [("A1", "RFL", "A", "C5", 4, {"model": "RFL10"})],
              hexes=[{"at": "C5", "features": ["fence:2-6"]}])
    g.state.units["A1"].state["equipment"] = {"DMC1": 1}
    af.arm_charge(g, "A1", "DMC1")
    g.state.units["A1"].hex = g.board.parse("1K2")
    af.explode_due(g, "A")
    g.dice.d10 = lambda purpose: 10  # type: ignore[method-assign]
    af.explode_due(g, "A")
    assert data(g)["destroyed"] == {"1C5": "rubble"}
