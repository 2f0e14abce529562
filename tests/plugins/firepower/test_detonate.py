"""Detonating a PMN2 from its trigger hex (Firepower 11.1.13, 12.4.4.1.2; FPD-189)."""

from __future__ import annotations

import json

from hexwar.core.engine.game import Game
from hexwar.plugins.firepower import hidden_setup as hs
from hexwar.plugins.firepower.state import data
from tests.plugins.firepower.test_terrain import _do, _game, _impulse, _refused


def _mined() -> tuple[Game, str, str]:
    """B's D1 in 4C5, the trigger hex of a PMN2 two hexes away facing 2; A's A1 (Standing) in
    the hex in front of the mine, in its canister's arc. Returns the game, the mine's hex and
    A1's hex."""
    game = _game([("D1", "RFL", "B", "C5", 2, {}), ("D2", "RFL", "B", "C5", 2, {}),
                  ("A1", "RFL", "A", "C7", 5, {})])
    c5 = game.board.parse("4C5")
    mine = c5.neighbor(2).neighbor(2)
    front = mine.neighbor(2)
    game.state.units["A1"].hex = front
    hs.secret(game, "B")["mines"] = [
        {"kind": "PMN2", "hex": game.board.label(mine), "facing": 2, "trigger": "4C5"},
        {"kind": "PMN1", "hex": game.board.label(c5.neighbor(4))}]
    return game, game.board.label(mine), game.board.label(front)


def test_a_pmn2_is_detonated_from_its_trigger_hex_with_all_mf() -> None:
    game, mine, front = _mined()
    _impulse(game, "D1")
    ph = data(game)["phase"]
    game.dice.d10 = lambda purpose, **_: 1  # type: ignore[method-assign]
    _do(game, {"unit": "D1", "act": "detonate", "hex": mine})
    assert ph["spent"]["D1"] == 4 and "D1" in ph["combat"]  # all MF, a Combat Action
    assert [x["kind"] for x in hs.secret(game, "B")["mines"]] == ["PMN1"]  # used once
    assert game.state.units["A1"].state.get("eliminated")  # canister, range 1 (12.3.2)
    assert not game.state.units["D1"].state.get("eliminated")  # behind the mine's facing
    boom = [e for e in game.view("A").events() if e.get("type") == "mine"]
    assert len(boom) == 1 and boom[0]["set_off_at"] == "4C5" and boom[0]["by"] == "D1"
    assert boom[0]["eliminated"] == ["A1"] and front != "4C5"


def test_bad_detonations_are_refused_naming_the_rule_and_change_nothing() -> None:
    game, mine, _ = _mined()
    pmn1 = hs.secret(game, "B")["mines"][1]["hex"]
    _impulse(game, "D1", "D2")
    _refused(game, {"unit": "D1", "act": "detonate", "hex": pmn1}, "Firepower 12.4.4.1.2")
    _refused(game, {"unit": "D1", "act": "detonate", "hex": "4A1"}, "Firepower 11.1.13")
    # a turn of 120 degrees spends MF (a 60-degree one would be free, Firepower 11.3.1)
    _do(game, {"unit": "D2", "act": "turn", "to": (game.state.units["D2"].facing + 1) % 6 + 1})
    _refused(game, {"unit": "D2", "act": "detonate", "hex": mine}, "Firepower 11.1.13")
    d1 = game.state.units["D1"]
    d1.hex = game.board.parse("4C6")
    _refused(game, {"unit": "D1", "act": "detonate", "hex": mine}, "Firepower 12.4.4.1.2")
    # the other side may not set off B's mine, nor learn of it by trying
    _impulse(game, "A1")
    _refused(game, {"unit": "A1", "act": "detonate", "hex": mine}, "Firepower 11.1.13")
    text = json.dumps([game.view("A").events(), game.view("A").system_state], default=str)
    assert '"mines"' not in text
