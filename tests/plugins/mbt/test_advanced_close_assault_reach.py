"""MBT 14.5.1: a close assault is made only against a vehicle in an adjacent hex. Every range
but 1 is refused with the rule named (in the game and at the table), and nothing changes."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from click.testing import CliRunner

from hexwar.core.errors import RulesError
from hexwar.plugins.mbt.cli import mbt_group
from hexwar.plugins.mbt.close_assault import assault_error, assault_validator, close_assault_step

ADV = ["mbt.advanced"]


def _game(make_game: Any, target_hex: str) -> Any:
    g = make_game([("S1", "Motor Rifle Squad", "Soviet", "9J5", 1),
                   ("N1", "M1", "NATO", target_hex, 4)], options=ADV)
    g.state.units["S1"].state["order"] = "CA"
    return g


@pytest.mark.parametrize(("target_hex", "rng"), [("9J7", 2), ("9J8", 3), ("9J9", 4), ("9J15", 10)])
def test_a_close_assault_beyond_the_adjacent_hex_is_refused_14_5_1(
        make_game: Any, target_hex: str, rng: int) -> None:
    """MBT 14.5.1: range 2 (and any range beyond 1) is refused naming the rule."""
    g = _game(make_game, target_hex)
    s1, n1 = g.state.units["S1"], g.state.units["N1"]
    assert s1.hex is not None and n1.hex is not None and s1.hex.distance(n1.hex) == rng
    err = assault_error(g, s1, n1)
    assert err is not None and "MBT 14.5.1" in err and "adjacent" in err
    assert err == assault_validator(g, "Soviet")(["S1", "N1"])


def test_an_adjacent_close_assault_is_accepted_14_5_1(make_game: Any) -> None:
    g = _game(make_game, "9J4")
    assert assault_error(g, g.state.units["S1"], g.state.units["N1"]) is None
    assert assault_validator(g, "Soviet")(["S1", "N1"]) is None


def test_the_close_assault_step_offers_only_the_adjacent_vehicle_14_5_1(make_game: Any) -> None:
    """MBT 14.5.1 in the Close Assault Step (MBT 11.3.1): with a vehicle adjacent and one two
    hexes off, only the adjacent one is offered; a forced range-2 choice is refused with the
    rule, and the game is unchanged."""
    g = make_game([("S1", "Motor Rifle Squad", "Soviet", "9J5", 1),
                   ("N1", "M1", "NATO", "9J7", 4), ("N2", "M1", "NATO", "9J4", 4)], options=ADV)
    g.state.units["S1"].state["order"] = "CA"
    step = close_assault_step(g)
    d = step.send(None)
    while d.kind != "mbt.close_assault":  # NATO's discharger smoke first: none
        d = step.send("done")
    assert ["S1", "N2"] in d.options and ["S1", "N1"] not in d.options
    before = copy.deepcopy({k: (u.hex, u.state) for k, u in g.state.units.items()})
    with pytest.raises(RulesError, match=r"MBT 14\.5\.1"):
        d.check(["S1", "N1"])
    assert copy.deepcopy({k: (u.hex, u.state) for k, u in g.state.units.items()}) == before
    d.check(["S1", "N2"])


@pytest.mark.parametrize("rng", ["0", "2", "3"])
def test_the_table_side_close_assault_refuses_any_range_but_1_14_5_1(rng: str) -> None:
    r = CliRunner().invoke(mbt_group, ["fire", "Motor Rifle Squad", "M1", "--ammo", "CA",
                                       "--range", rng])
    assert r.exit_code == 2 and "MBT 14.5.1" in r.output and "adjacent" in r.output, r.output
    ok = CliRunner().invoke(mbt_group, ["fire", "Motor Rifle Squad", "M1", "--ammo", "CA",
                                        "--range", "1", "--dice", "50"])
    assert ok.exit_code == 0, ok.output
