"""MBT 15.6: path restrictions on long main guns (docs/decisions.md MBTD-123)."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from hexwar.core.errors import DataError
from hexwar.plugins.mbt import movement_costs
from hexwar.plugins.mbt.advanced_adjustment import turret_phase
from hexwar.plugins.mbt.advanced_movement import turret_lock
from hexwar.plugins.mbt.cards import load_card
from hexwar.plugins.mbt.movement import destinations, move_context
from hexwar.plugins.mbt.state import card_of, ctx

ADV = ["mbt.advanced"]
SHIPPED = Path(__file__).resolve().parents[3] / "plugins/mbt/data/cards/frg-1b_leopard-2.toml"


def _long_gun_cards(tmp_path: Path) -> str:
    """The shipped stand-in Leopard 2 marked as under MBT 15.6 (a test card only)."""
    folder = tmp_path / "cards"
    folder.mkdir(exist_ok=True)
    text = SHIPPED.read_text(encoding="utf-8").replace(
        'notes = ["stand-in card', 'path_restricted = true\nnotes = ["stand-in card', 1)
    assert "path_restricted = true" in text
    (folder / "leopard-2.toml").write_text(text, encoding="utf-8")
    return 'cards = "cards"'


def _steps(g: Any, u: Any) -> set[str]:
    """The hexes the vehicle enters in one step from where it stands, forward or in reverse."""
    succ = movement_costs.successors(card_of(g, u), ctx(g).info, move_context(g, u))
    return {g.board.label(s[0]) for s, _c in succ((u.hex, u.facing, False)) if s[0] != u.hex}


def _game(make_game: Any, tmp_path: Path, turret: int, **kw: Any) -> tuple[Any, Any]:
    g = make_game([("N1", "Leopard 2", "NATO", "9J5", 1)], options=ADV,
                  special=_long_gun_cards(tmp_path), **kw)
    u = g.state.units["N1"]
    u.state.update(order="M", turret=turret)
    return g, u


def test_the_cards_flag_names_the_restriction_15_6(make_game: Any, tmp_path: Path) -> None:
    """MBT 15.6 (MBTD-184): only a card marked ``path_restricted`` (its NOTES say so) is
    restricted (no shipped stand-in is)."""
    g, u = _game(make_game, tmp_path, 1)
    assert movement_costs.path_restricted(card_of(g, u))
    plain = make_game([("N1", "Leopard 2", "NATO", "9J5", 1)], options=ADV)
    assert not movement_costs.path_restricted(card_of(plain, plain.state.units["N1"]))
    assert move_context(plain, plain.state.units["N1"]).turret is None


def test_the_restriction_flag_is_true_or_false_15_6(tmp_path: Path) -> None:
    """MBT 15.6 (MBTD-184): a card's ``path_restricted`` that is not a boolean is refused at load,
    naming the key and the rule."""
    bad = tmp_path / "bad.toml"
    bad.write_text(SHIPPED.read_text(encoding="utf-8").replace(
        'notes = ["stand-in card', 'path_restricted = "yes"\nnotes = ["stand-in card', 1),
        encoding="utf-8")
    with pytest.raises(DataError, match=r"path_restricted.*MBT 15.6"):
        load_card(bad)


def test_into_light_woods_only_with_the_turret_front_or_rear_15_6_2(make_game: Any,
                                                                     tmp_path: Path) -> None:
    """MBT 15.6.2: a long gun turned to the side keeps the vehicle out of a woods hex straight
    ahead (forward or in reverse); to the front or the rear it goes in; along a road it goes in
    whatever the turret's way."""
    g, u = _game(make_game, tmp_path, turret=2, terrain={"9J4": "woods", "9J6": "woods"})
    assert _steps(g, u) == set()  # ahead into J4, and in reverse into J6
    u.state["turret"] = 5  # the other way across: still to the side
    assert _steps(g, u) == set()
    for turret in (1, 4):
        u.state["turret"] = turret
        assert _steps(g, u) == {"9J4", "9J6"}
    # and so in the Movement Step's destinations: with 2 MF there is no way round into J4
    u.state["turret"] = 2
    dests = destinations(g, u, Fraction(2), False, True)
    assert (g.board.parse("9J4"), 1) not in dests
    u.state["turret"] = 1
    assert (g.board.parse("9J4"), 1) in destinations(g, u, Fraction(2), False, True)
    g, u = _game(make_game, tmp_path, turret=2, terrain={"9J4": "woods"}, roads=[("9J5", "9J4")])
    assert "9J4" in _steps(g, u)


def test_along_a_path_into_or_out_of_buildings_and_woods_15_6_1(make_game: Any,
                                                                  tmp_path: Path) -> None:
    """MBT 15.6.1: a move along a path into or out of a building hex is allowed only with the
    turret to the front or rear; a path between clear hexes does not; the path costs the card's path
    rate (MBT 8.5)."""
    g, u = _game(make_game, tmp_path, turret=3, terrain={"9J4": "brick"},
                 paths=[("9J5", "9J4"), ("9J5", "9I5")])
    info = ctx(g).info
    assert frozenset((g.board.parse("9J5"), g.board.parse("9J4"))) in info.path
    mctx = move_context(g, u)
    assert mctx.turret == 3
    assert movement_costs.long_gun_barred(info, g.board.parse("9J5"), g.board.parse("9J4"))
    assert not movement_costs.long_gun_barred(info, g.board.parse("9J5"), g.board.parse("9I5"))
    succ = movement_costs.successors(card_of(g, u), info, mctx)
    ahead = {s[0] for s, _c in succ((u.hex, 1, False))}
    assert g.board.parse("9J4") not in ahead  # along the path into the building, gun to the side
    u.state["turret"] = 1
    succ = movement_costs.successors(card_of(g, u), info, move_context(g, u))
    costs = {s[0]: c for s, c in succ((u.hex, 1, False))}
    card = card_of(g, u)
    assert costs[g.board.parse("9J4")] == card.path_cost + 1  # MBT 8.5.3: +1 for a building


def test_no_turret_turn_in_woods_or_buildings_but_on_a_road_15_6_3_15_6_4(
        make_game: Any, tmp_path: Path, run: Any) -> None:
    """MBT 15.6.3: in a woods hex without a road the turret is not turned in the Adjust Turrets
    Step (only opened or buttoned); with a road in the hex it is; MBT 15.6.4: inside a building
    never, road or not."""
    g, u = _game(make_game, tmp_path, turret=1, terrain={"9J5": "woods"})
    assert turret_lock(g, u) == "MBT 15.6.3"
    asked: list[Any] = []

    def answer(d: Any) -> Any:
        asked.append(d)
        return d.options[0]

    run(turret_phase(g), answer)
    mine = [d for d in asked if d.context.get("unit") == "N1"]
    assert {o[0] for o in mine[0].options} == {1} and mine[0].rule == "MBT 15.6.3"
    g, u = _game(make_game, tmp_path, turret=1, terrain={"9J5": "brick"},
                 roads=[("9J5", "9J4")])
    assert turret_lock(g, u) is None
    u.state["inb"] = True
    assert turret_lock(g, u) == "MBT 15.6.4"
