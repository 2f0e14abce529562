"""Roadblocks (Firepower 8.8.5.4 with 11.1.3, 11.1.11, 12.1.5, 12.2.3, 13, 12.3.4.2.5;
docs/decisions.md FPD-115): a fence picture three heights high joining two hexsides of its hex.
On the test panel column C runs down hexside 4; a roadblock joining hexsides 2 and 6 of 1C4 lies
across the column, hexside 1 on one part, hexsides 3-5 on the other."""

from __future__ import annotations

from typing import Any

import pytest

from hexwar.core.engine.game import Game
from hexwar.core.errors import RulesError
from hexwar.plugins.firepower import defenses
from hexwar.plugins.firepower.advanced_los import los_world
from tests.plugins.firepower.test_defenses import GameFactory, _game, _impulse, _mods
from tests.plugins.firepower.test_defenses_more import FIRE, _act, _refused, _spent

RBL = [{"type": "RBL", "hex": "1C4", "sides": [2, 6]}]


def _walker(fp_game: GameFactory, hexlabel: str = "C4", facing: int = 4,
            **state: Any) -> Game:
    g = _game(fp_game, [("A1", "RFL", "A", hexlabel, facing, {"model": "RFL10", **state})], RBL)
    _impulse(g, "A", "A1")
    return g


def test_the_roadblock_row_cites_the_text() -> None:
    t = defenses.types()["RBL"]
    assert (t.height, t.kind) == (3, "picture")  # Firepower 8.8.5.4: a fence 3 heights high


def test_a_roadblock_between_standing_soldiers_blocks_the_line(fp_game: GameFactory) -> None:
    # Firepower 12.1.5 through the picture, 12.1.1: three heights, higher than both heads (2)
    g = _game(fp_game, [("A1", "RFL", "A", "C2", 4, {"model": "RFL10"}),
                        ("B1", "RFL", "B", "C6", 1, {"model": "RFL10"})], RBL)
    _impulse(g, "A", "A1")
    with pytest.raises(RulesError, match="fence") as exc:
        _mods(g, "A1", FIRE, "B1")
    assert exc.value.rule == "Firepower 12.1.1"
    world = los_world(g)
    h = g.board.parse("1C4")
    assert world.fence_top(h) == 3 and world.top(h) == world.ground(h) + 3


def test_a_line_beside_the_roadblock_passes(fp_game: GameFactory) -> None:
    # a line down column D does not cross the picture in 1C4
    g = _game(fp_game, [("A1", "RFL", "A", "D2", 4, {"model": "RFL10"}),
                        ("B1", "RFL", "B", "D6", 1, {"model": "RFL10"})], RBL)
    _impulse(g, "A", "A1")
    _mods(g, "A1", FIRE, "B1")


@pytest.mark.parametrize(("part", "covered"), [(4, True), (1, False)])
def test_behind_the_roadblock_a_target_has_cover(fp_game: GameFactory, part: int,
                                                  covered: bool) -> None:
    # Firepower 12.2.3: in a roadblock hex with the roadblock between the firer (on a hill one
    # level up in 1C3, seeing over it) and the target; on the firer's part, no cover
    g = _game(fp_game, [("A1", "RFL", "A", "C3", 4, {"model": "RFL10"}),
                        ("B1", "RFL", "B", "C4", 1, {"model": "RFL10", "side": part})], RBL,
              hexes=[{"at": "C3", "height": 1}])
    _impulse(g, "A", "A1")
    mods = _mods(g, "A1", FIRE, "B1")
    assert (mods.get("Firepower 12.2.3:target in cover (fence)") == 1) is covered


def test_on_level_ground_the_roadblock_hides_a_standing_soldier_behind_it(
        fp_game: GameFactory) -> None:
    # three heights in the target's own hex, between: higher than both Standing heads
    g = _game(fp_game, [("A1", "RFL", "A", "C3", 4, {"model": "RFL10"}),
                        ("B1", "RFL", "B", "C4", 1, {"model": "RFL10", "side": 4})], RBL)
    _impulse(g, "A", "A1")
    with pytest.raises(RulesError, match="fence"):
        _mods(g, "A1", FIRE, "B1")


def test_a_soldier_does_not_cross_the_roadblock(fp_game: GameFactory) -> None:
    # Firepower 11.1.3: over two heights it is climbed; his part is hexside 4's
    g = _walker(fp_game, facing=1, side=4)
    _refused(g, {"act": "enter", "unit": "A1"}, "Firepower 11.1.3", "climbed")
    g2 = _walker(fp_game, facing=4, side=4)
    _act(g2, {"act": "enter", "unit": "A1"})  # out by his own part


def test_entering_puts_him_on_the_part_he_came_in_by(fp_game: GameFactory) -> None:
    g = _walker(fp_game, "C3", 4)
    _act(g, {"act": "enter", "unit": "A1"})
    assert g.state.units["A1"].state["side"] == 1  # in by hexside 1 of 1C4
    _refused(g, {"act": "enter", "unit": "A1"}, "Firepower 11.1.3", "climbed")
    _refused(g, {"act": "cross", "unit": "A1"}, "Firepower 6.2.3",
             "no fence")  # not crossed as a low fence either


def test_climbing_over_the_roadblock_two_mf_a_height(fp_game: GameFactory) -> None:
    # Firepower 11.1.11: up three heights and down three, two MF each, one height an Action
    g = _walker(fp_game, facing=4, side=1)
    heads = []
    for n in range(6):
        if n in (2, 4):
            _impulse(g, "A", "A1")  # four MF an Impulse Phase: two heights
        _act(g, {"act": "climb", "unit": "A1", "what": "roadblock", "to": "on"})
        heads.append(g.state.units["A1"].state.get("up"))
        assert _spent(g, "A1") == 2 * (n % 2 + 1)
    assert heads == [3, 4, 5, 4, 3, None]
    st = g.state.units["A1"].state
    assert st["side"] == 3 and "rbl_climb" not in st  # the other part of the hex
    _impulse(g, "A", "A1")
    _act(g, {"act": "enter", "unit": "A1"})


def test_part_way_over_he_climbs_on_or_back_first(fp_game: GameFactory) -> None:
    g = _walker(fp_game, facing=4, side=1)
    _act(g, {"act": "climb", "unit": "A1", "what": "roadblock", "to": "on"})
    _refused(g, {"act": "turn", "unit": "A1", "to": 1}, "Firepower 11.1.11.2", "climbs on or back")
    _refused(g, {"act": "enter", "unit": "A1"}, "Firepower 11.1.11.2")
    _act(g, {"act": "climb", "unit": "A1", "what": "roadblock", "to": "back"})
    st = g.state.units["A1"].state
    assert "up" not in st and st["side"] == 1


@pytest.mark.parametrize(("state", "rule", "words"), [
    ({"posture": "crouch"}, "Firepower 11.1.11", "Standing"),
    ({"model": "MMG2"}, "Firepower 11.1.11", "reduces his MF"),
])
def test_bad_roadblock_climbs_are_refused(fp_game: GameFactory, state: dict[str, Any],
                                          rule: str, words: str) -> None:
    g = _walker(fp_game, side=1, **state)
    _refused(g, {"act": "climb", "unit": "A1", "what": "roadblock", "to": "on"}, rule, words)
    _refused(g, {"act": "climb", "unit": "A1", "what": "roadblock", "to": "up"},
             "Firepower 11.1.11", "'on'")


def test_no_melee_over_the_roadblock(fp_game: GameFactory) -> None:
    # Firepower 13: the roadblock (3) is higher than the soldiers; B1 on the far part
    units: list[tuple[Any, ...]] = [("A1", "RFL", "A", "C3", 4, {"model": "RFL10"})]
    g = _game(fp_game, [*units, ("B1", "RFL", "B", "C4", 1, {"model": "RFL10", "side": 4})],
              RBL)
    _impulse(g, "A", "A1")
    _refused(g, {"act": "melee", "units": ["A1"], "hex": "1C4"}, "Firepower 13", "no melee over")
    g2 = _game(fp_game, [*units, ("B1", "RFL", "B", "C4", 1, {"model": "RFL10", "side": 1})],
               RBL)
    _impulse(g2, "A", "A1")
    from hexwar.plugins.firepower.advanced_impulses import check_advanced_action

    check_advanced_action(g2, {"act": "melee", "units": ["A1"], "hex": "1C4"})


@pytest.mark.parametrize(("spec", "words"), [
    ({"type": "RBL", "hex": "1C4"}, "joins two hexsides"),
    ({"type": "RBL", "hex": "1C4", "sides": [2, 2]}, "joins two hexsides"),
    ({"type": "RBL", "hex": "1C4", "sides": [2, 7]}, "joins two hexsides"),
    ({"type": "ABS", "hex": "1C4", "sides": [2, 6]}, "only a roadblock"),
])
def test_bad_roadblocks_are_refused_at_set_up(fp_game: GameFactory, spec: dict[str, Any],
                                              words: str) -> None:
    g = _game(fp_game, [("A1", "RFL", "A", "C2", 4)], [])
    with pytest.raises(RulesError, match=words) as exc:
        defenses.set_defences(g, [spec])
    assert exc.value.rule == "Firepower 8.8.5.4"


def test_no_roadblock_in_a_fence_hex(fp_game: GameFactory) -> None:
    g = fp_game([("A1", "RFL", "A", "C2", 4)], options=("firepower.advanced",),
                hexes=[{"at": "C4", "features": ["fence:2-6"]}])
    with pytest.raises(RulesError, match="picture already") as exc:
        defenses.set_defences(g, RBL)
    assert exc.value.rule == "Firepower 8.8.5.4"


def test_a_destroyed_roadblock_leaves_rubble_and_kills_its_climbers(fp_game: GameFactory) -> None:
    # Firepower 12.3.4.2.5: rubble; soldiers Up a fence when it is destroyed are eliminated
    g = _game(fp_game, [("A1", "RFL", "A", "C2", 4, {"model": "RFL10"}),
                        ("A2", "RFL", "A", "C4", 4, {"model": "RFL10", "side": 1}),
                        ("B1", "RFL", "B", "C6", 1, {"model": "RFL10"})], RBL)
    _impulse(g, "A", "A2")
    _act(g, {"act": "climb", "unit": "A2", "what": "roadblock", "to": "on"})
    d = defenses.defences(g)[g.board.parse("1C4")]
    assert defenses.damage(g, d, d.type.terrain_value)
    assert g.state.units["A2"].state.get("eliminated")
    assert g.board.parse("1C4") not in los_world(g).map.fence
    _impulse(g, "A", "A1")
    _mods(g, "A1", FIRE, "B1")  # the line is open now


def test_a_scenario_file_with_a_roadblock_passes_validation(tmp_path: Any) -> None:
    # docs/scenario-format.md: `special.defenses[].sides` is part of the format
    from hexwar.core.engine.game import Game as G
    from hexwar.core.scenario import load_and_validate
    from hexwar.plugins.firepower.plugin import HERE

    text = (HERE / "scenarios" / "hill-assault.toml").read_text(encoding="utf-8")
    text = text.replace('{ type = "SFX", hex = "3Y10" },',
                        '{ type = "SFX", hex = "3Y10" }, { type = "RBL", hex = "3X6", '
                        'sides = [2, 5] },')
    path = tmp_path / "hill-assault-rbl.toml"
    path.write_text(text, encoding="utf-8")
    game = G(load_and_validate(path), seed=1)
    d = defenses.defences(game)[game.board.parse("3X6")]
    assert d.sides == (2, 5)
