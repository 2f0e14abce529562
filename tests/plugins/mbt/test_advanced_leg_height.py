"""MBT 15.1.2: the one-hex height rule of leg units (docs/decisions.md MBTD-122)."""

from __future__ import annotations

from typing import Any

from hexwar.plugins.mbt.movement import destinations, move_unit, movement_allowance

ADV = ["mbt.advanced"]


def _hexes(g: Any, u: Any, left: Any = None, first: bool = True) -> set[str]:
    budget = movement_allowance(g, u) if left is None else left
    return {g.board.label(h) for h, _f in destinations(g, u, budget, False, first)}


def test_mbt_108_a_height_change_in_the_first_hex_ends_the_move(make_game: Any, run: Any) -> None:
    """MBT-108 (MBT 15.1.2): a squad that climbs into its first hex enters no second one, though
    it has a movement factor left; a hexside of 3 heights is never crossed."""
    g = make_game([("S1", "Motor Rifle Squad", "Soviet", "9J5", 1)], options=ADV,
                  heights={"9J4": 1, "9J6": 3})
    u = g.state.units["S1"]
    u.state["order"] = "M"
    got = _hexes(g, u)
    assert "9J4" in got  # the climb, as its one new hex
    assert "9J3" not in got  # J3 lies only beyond J4: climbing then walking on is refused
    assert "9J6" not in got  # MBT 15.1.2: 3 heights across one hexside
    assert "9I5" in got and "9J7" not in got  # level hexes: two of them (J7 only through J6)
    run(move_unit(g, u), [["9J4", 1], "stay"])
    assert g.board.label(u.hex) == "9J4"
    # the move goes on (after an overwatch shot, say) with 1 MF left: no new hex
    assert _hexes(g, u, left=movement_allowance(g, u) - 1, first=False) == {"9J4"}


def test_a_level_first_hex_bars_a_height_change_after_it_15_1_2(make_game: Any, run: Any) -> None:
    """MBT 15.1.2 (MBTD-122): a move that changes height is a move of one hex, so a squad that
    walked into a level hex may not climb into a second one; two level hexes are fine."""
    g = make_game([("S1", "Motor Rifle Squad", "Soviet", "9J5", 1)], options=ADV,
                  heights={"9J3": 1})
    u = g.state.units["S1"]
    u.state["order"] = "M"
    got = _hexes(g, u)
    assert "9J4" in got and "9J3" not in got and "9K4" in got
    run(move_unit(g, u), [["9J4", 1], "stay"])
    assert u.hex is not None
    around = {g.board.label(u.hex.neighbor(d)) for d in range(1, 7)}
    assert _hexes(g, u, left=movement_allowance(g, u) - 1, first=False) == (around | {"9J4"}) - {"9J3"}


def test_a_leg_unit_takes_the_level_way_round_15_1_2(make_game: Any, run: Any) -> None:
    """MBT 15.1.2: where one way to a level hex crosses a hill and another does not, the squad
    reaches it by the level way, and its move walks that way."""
    g = make_game([("S1", "Motor Rifle Squad", "Soviet", "9J5", 1)], options=ADV,
                  heights={"9J4": 1})
    u = g.state.units["S1"]
    u.state["order"] = "M"
    assert "9I4" in _hexes(g, u)  # next to both J4 (a hill) and I5 (level)
    run(move_unit(g, u), [["9I4", 1], "stay"])
    assert g.board.label(u.hex) == "9I4"
    assert [lab for lab, _e in u.state["trail"]] == ["9J5", "9I5"]
