"""Entering the board later (Firepower 10.2; FPD-75): the scenario's entry data, the squad's
entry as one Impulse choice, no fire in the Impulse Phase of entry, and the refusals."""

from __future__ import annotations

from typing import Any

import pytest

from hexwar.core.engine.game import Game
from hexwar.core.errors import RulesError
from hexwar.plugins.firepower import entry as en
from hexwar.plugins.firepower.advanced_impulses import check_squad_impulse, impulse_options
from hexwar.plugins.firepower.state import data, new_phase
from tests.plugins.firepower.test_terrain import _do, _game, _refused

SQUADS = ('[sides.A.squads.first]\n[sides.A.squads.late]\nenter = { edge = "5/6", turn = 2 }\n'
          '[sides.B.squads.def]\n')


def _late() -> Game:
    game = _game([("A1", "RFL", "A", "C5", 2, {"squad": "first"}),
                  ("L1", "RFL", "A", "C6", 2, {"squad": "late"}),
                  ("L2", "RFL", "A", "C6", 2, {"squad": "late"}),
                  ("B1", "RFL", "B", "Y13", 5, {"squad": "def"})], extra=SQUADS)
    for uid in ("L1", "L2"):
        game.state.units[uid].hex = None  # as the set-up leaves them (Firepower 10.2)
    return game


def _phase(game: Game) -> dict[str, Any]:
    ph = new_phase("A")
    ph["squads"] = {"first": 0, "late": 0}
    data(game)["phase"] = ph
    return ph


def test_a_squad_enters_later_all_at_once_from_its_board_side_and_does_not_fire() -> None:
    game = _late()
    late = game.state.units["L1"]
    assert en.enters_later(game, late) and not en.enters_later(game, game.state.units["A1"])
    _phase(game)
    game.state.turn = 1
    assert not [o for o in impulse_options(game, "A") if o.get("enter_board")]  # from Turn 2
    game.state.turn = 2
    opts = [o for o in impulse_options(game, "A") if o.get("enter_board")]
    assert len(opts) == 1 and opts[0]["units"] == ["L1", "L2"]
    q, ids, _ = check_squad_impulse(game, "A", opts[0])
    assert (q, ids) == ("late", ["L1", "L2"])
    en.enter_board(game, "A", opts[0])
    edge = set(en.edge_hexes(game, "5/6"))
    assert late.hex in edge and game.state.units["L2"].hex in edge
    ph = data(game)["phase"]
    assert ph["spent"]["L1"] == 1 and sorted(ph["active"]) == ["L1", "L2"]  # the edge hex paid
    _refused(game, {"unit": "L1", "act": "grenade", "hex": "4Y13"}, "Firepower 10.2")
    _do(game, {"unit": "L1", "act": "enter"})  # the entering soldiers move on
    assert late.hex not in edge


def test_bad_entries_are_refused_naming_the_rule_and_change_nothing() -> None:
    game = _late()
    _phase(game)
    game.state.turn = 2
    good = next(o for o in impulse_options(game, "A") if o.get("enter_board"))
    before = game.state.digest()
    bad = [{**good, "units": ["L1"], "at": {"L1": good["at"]["L1"]}},  # not the whole squad
           {**good, "at": {**good["at"], "L2": ["4C5", 2]}},  # not an edge hex
           {**good, "squad": "first"}]  # sets up: does not enter
    for ch in bad:
        with pytest.raises(RulesError) as exc:
            check_squad_impulse(game, "A", ch)
        assert exc.value.rule == "Firepower 10.2", str(exc.value)
    assert game.state.digest() == before
    game.state.turn = 1
    before = game.state.digest()
    with pytest.raises(RulesError) as exc:
        check_squad_impulse(game, "A", good)
    assert exc.value.rule == "Firepower 10.2"
    assert game.state.digest() == before


@pytest.mark.slow  # plays two Turns AI against AI
def test_the_ai_brings_a_late_squad_on_in_a_whole_game() -> None:
    from hexwar.core.cli import _controllers

    game = _late()
    controllers, _ = _controllers(game, "ai,ai", 5)
    game.play(controllers)
    assert game.result is not None
    entries = [e for e in game.log.events if e.get("type") == "enter_board"]
    assert [e["squad"] for e in entries] == ["late"]
    assert all(game.state.units[u].hex is not None or game.state.units[u].state.get("eliminated")
               for u in ("L1", "L2"))


def test_a_squad_entering_onto_a_mined_edge_hex_sets_the_mine_off() -> None:
    """Firepower 12.4.4, 12.4.4.1.1 with 10.2: coming onto the board is entering the edge hex, so
    a PMN1 recorded there goes off (once) under the first soldier in it."""
    from hexwar.plugins.firepower.advanced_impulses import impulse_options
    from hexwar.plugins.firepower.hidden_setup import secret

    game = _late()
    _phase(game)
    game.state.turn = 2
    opt = next(o for o in impulse_options(game, "A") if o.get("enter_board"))
    secret(game, "B")["mines"] = [{"kind": "PMN1", "hex": opt["at"]["L1"][0]}]
    en.enter_board(game, "A", opt)
    ev = [e for e in game.log.events if e.get("type") == "mine"]
    assert len(ev) == 1 and ev[0]["by"] == "L1" and ev[0]["how"] == "entered"
    assert secret(game, "B")["mines"] == []
