"""A melee up or down a tower's stairs (Firepower 13, 8.8.6, 10.8, 13.5; docs/decisions.md
FPD-110): soldiers on the ground of a tower hex and opposing soldiers on its floor meet only by
the stairs, as Action ``tower_melee``."""

from __future__ import annotations

from typing import Any

import pytest

from hexwar.core.engine.game import Game
from hexwar.plugins.firepower.actions import apply_action
from hexwar.plugins.firepower.state import data
from tests.plugins.firepower.test_defenses import GameFactory, _game, _impulse
from tests.plugins.firepower.test_defenses_more import _act, _refused

TOWER = [{"type": "TWR", "hex": "1C5"}]
FLOOR = {"model": "RFL10", "in_defence": "TWR", "stands_at": 5}


def _tower(fp_game: GameFactory, *extra: tuple[Any, ...]) -> Game:
    units: list[tuple[Any, ...]] = [("A1", "RFL", "A", "C5", 4, {"model": "RFL10"}),
                                    ("B1", "RFL", "B", "C5", 1, dict(FLOOR)), *extra]
    return _game(fp_game, units, TOWER)


def _roll(g: Game, value: int) -> None:
    g.dice.d10 = lambda purpose: value  # type: ignore[method-assign]


def test_the_stairs_are_not_climbed_into_opposing_soldiers(fp_game: GameFactory) -> None:
    # Firepower 6.2.1, 13: the floor holds B1, sharing heights with whoever comes up
    g = _tower(fp_game)
    _impulse(g, "A", "A1")
    _refused(g, {"act": "position", "unit": "A1", "into": True}, "Firepower 13", "only by melee")


def test_nor_come_down_onto_opposing_soldiers_on_the_ground(fp_game: GameFactory) -> None:
    g = _tower(fp_game)
    _impulse(g, "B", "B1")
    _refused(g, {"act": "position", "unit": "B1", "into": False}, "Firepower 13", "only by melee")


def test_a_winning_attacker_takes_the_floor(fp_game: GameFactory) -> None:
    g = _tower(fp_game)
    _impulse(g, "A", "A1")
    _roll(g, 1)
    info = _act(g, {"act": "tower_melee", "unit": "A1"})
    b1, a1 = g.state.units["B1"], g.state.units["A1"]
    assert b1.state.get("eliminated") and b1.hex is None
    assert (a1.state["in_defence"], a1.state["stands_at"]) == ("TWR", 5)
    ph = data(g)["phase"]
    assert ph["spent"]["A1"] == info["costs"]["A1"] == 2 + 1  # the stairs (FPD-94) and the melee
    assert "A1" in ph["combat"] and "A1" in ph["done"]  # Firepower 6.2.5, 6.5.3


def test_going_up_the_stairs_is_attacking_up(fp_game: GameFactory) -> None:
    # Firepower 13.5: the last MF raised every attacker five heights: +1; the roll 5 with +1 is
    # a 6, the defender's
    g = _tower(fp_game)
    _impulse(g, "A", "A1")
    _roll(g, 5)
    info = _act(g, {"act": "tower_melee", "unit": "A1"})
    assert [(m.rule, m.value) for m in info["extra"]] == [("Firepower 13.5", 1)]
    assert g.state.units["A1"].state.get("eliminated")
    assert not g.state.units["B1"].state.get("eliminated")


def test_coming_down_the_stairs_is_attacking_down(fp_game: GameFactory) -> None:
    # Firepower 13.5: -1; the winners stand on the ground, out of the tower
    g = _tower(fp_game)
    _impulse(g, "B", "B1")
    _roll(g, 6)
    info = _act(g, {"act": "tower_melee", "unit": "B1"})
    assert [(m.rule, m.value) for m in info["extra"]] == [("Firepower 13.5", -1)]
    b1 = g.state.units["B1"]
    assert g.state.units["A1"].state.get("eliminated")
    assert "in_defence" not in b1.state and "stands_at" not in b1.state


def test_two_attackers_up_the_stairs_count_for_the_numbers(fp_game: GameFactory) -> None:
    # Firepower 6.5.2 (13.1): one attacker in excess, -2; both pay and both are done
    g = _tower(fp_game, ("A2", "RFL", "A", "C5", 4, {"model": "RFL10"}))
    _impulse(g, "A", "A1", "A2")
    _roll(g, 6)  # 6 - 2 + 1 = 5: the attacker's
    _act(g, {"act": "tower_melee", "unit": "A1", "with": ["A2"]})
    ph = data(g)["phase"]
    assert g.state.units["B1"].state.get("eliminated")
    assert ph["spent"]["A2"] == 3 and "A2" in ph["combat"] and "A2" in ph["done"]
    assert g.state.units["A2"].state["in_defence"] == "TWR"


def test_only_the_floor_is_meleed_the_others_on_the_ground_are_not(fp_game: GameFactory) -> None:
    # a soldier of B on the ground is no defender of a melee up the stairs
    g = _tower(fp_game, ("B2", "RFL", "B", "C6", 1, {"model": "RFL10"}))
    _impulse(g, "A", "A1")
    _roll(g, 1)
    info = apply_action(g, {"act": "tower_melee", "unit": "A1"})
    assert info["defenders"] == ["B1"]


@pytest.mark.parametrize(("choice", "rule", "words"), [
    ({"act": "tower_melee", "unit": "A1", "with": ["A1"]}, "Firepower 6.5", "once"),
    ({"act": "tower_melee", "unit": "A1", "with": "A2"}, "Firepower 6.5", "'with'"),
    ({"act": "tower_melee", "unit": "A1", "with": ["A3"]}, "Firepower 8.8.6", "not on the"),
])
def test_bad_tower_melees_are_refused(fp_game: GameFactory, choice: dict[str, Any], rule: str,
                                      words: str) -> None:
    g = _tower(fp_game, ("A3", "RFL", "A", "C6", 4, {"model": "RFL10"}))
    _impulse(g, "A", "A1", "A3")
    _refused(g, choice, rule, words)


def test_no_tower_melee_without_mf(fp_game: GameFactory) -> None:
    g = _tower(fp_game)
    _impulse(g, "A", "A1")
    data(g)["phase"]["spent"]["A1"] = 2  # two left: the stairs, not the melee too
    _refused(g, {"act": "tower_melee", "unit": "A1"}, "Firepower 6.5", "MF left")


def test_no_tower_melee_without_a_tower_or_defenders(fp_game: GameFactory) -> None:
    g = _game(fp_game, [("A1", "RFL", "A", "C5", 4, {"model": "RFL10"}),
                        ("B1", "RFL", "B", "C5", 1, dict(FLOOR))], [{"type": "DFX", "hex": "1C5"}])
    _impulse(g, "A", "A1")
    _refused(g, {"act": "tower_melee", "unit": "A1"}, "Firepower 8.8.6", "no tower")
    g2 = _game(fp_game, [("A1", "RFL", "A", "C5", 4, {"model": "RFL10"})], TOWER)
    _impulse(g2, "A", "A1")
    _refused(g2, {"act": "tower_melee", "unit": "A1"}, "Firepower 6.2.5.2", "no opposing")


def test_nine_attackers_do_not_fit_on_the_floor(fp_game: GameFactory) -> None:
    # Firepower 10.8, 8.8.6: eight of a side, momentarily, for the melee
    extra = [(f"A{i}", "RFL", "A", "C5", 4, {"model": "RFL10"}) for i in range(2, 10)]
    g = _tower(fp_game, *extra)
    _impulse(g, "A", *[f"A{i}" for i in range(1, 10)])
    _refused(g, {"act": "tower_melee", "unit": "A1", "with": [f"A{i}" for i in range(2, 10)]},
             "Firepower 10.8", "holds 8")


def test_the_option_is_listed_for_a_soldier_below_opposing_soldiers(fp_game: GameFactory) -> None:
    from hexwar.plugins.firepower.defenses import TOWER_MELEE

    g = _tower(fp_game)
    _impulse(g, "A", "A1")
    assert TOWER_MELEE.options is not None
    assert TOWER_MELEE.options(g, data(g)["phase"], "A1") == [{"act": "tower_melee",
                                                               "unit": "A1"}]


# -- a Basic melee from a next hex meets only who shares a height (Firepower 13; FPD-131) ---------


def _next_hex(fp_game: GameFactory, b2: dict[str, Any]) -> Game:
    """A1 in 1C4 facing 1C5 (hexside 4); in 1C5 B1 on the ground, B2 as ``b2`` (the tower's
    floor, or Up the tree of the hex)."""
    g = _game(fp_game, [("A1", "RFL", "A", "C4", 4, {"model": "RFL10"}),
                        ("B1", "RFL", "B", "C5", 1, {"model": "RFL10"}),
                        ("B2", "RFL", "B", "C5", 1, b2)], TOWER,
              hexes=[{"at": "C5", "terrain": "tree"}])
    _impulse(g, "A", "A1")
    return g


@pytest.mark.parametrize("b2", [dict(FLOOR), {"model": "RFL10", "posture": "up", "up": 9}],
                         ids=["tower floor", "up a tree"])
def test_a_melee_from_a_next_hex_spares_those_sharing_no_height(
        fp_game: GameFactory, b2: dict[str, Any]) -> None:
    """Firepower 13 (FPD-131): A1's melee into 1C5 meets B1 on the ground, not B2 on the tower's
    floor (five heights up) or Up the tree (feet at seven): one defender counts (6.5.2), and
    winning eliminates B1 alone (6.5.1)."""
    g = _next_hex(fp_game, b2)
    _roll(g, 1)
    info = _act(g, {"act": "melee", "units": ["A1"], "hex": "1C5"})
    assert info["defenders"] == ["B1"] and info["winner"] == "attacker"
    assert g.state.units["B1"].state.get("eliminated")
    assert not g.state.units["B2"].state.get("eliminated")
    assert g.board.label(g.state.units["B2"].hex) == "1C5"
    melee = [e for e in g.log.events if e.get("what") == "melee"][-1]
    assert melee["result"]["defenders"] == ["B1"]


def test_a_melee_meeting_no_one_at_the_attackers_heights_is_refused(fp_game: GameFactory) -> None:
    """Firepower 13: with B1 gone, only B2 on the floor is in 1C5: refused, naming the rule."""
    g = _next_hex(fp_game, dict(FLOOR))
    g.state.units["B1"].hex = None
    _refused(g, {"act": "melee", "units": ["A1"], "hex": "1C5"}, "Firepower 13", "shares a height")
