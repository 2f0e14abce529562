"""What the attacker's melee choices under the ground tell him (Firepower 11.5 with 8.8.8 and
13; docs/decisions.md FPD-119): only what his side was told when one of his soldiers entered a
hex, never the defender's later comings and goings. Panel 4 as in test_melee_underground: A1
(attacker) crouching in the tunnel hex 4X13 facing 4W13; the defender's tunnel runs 4X13, 4W13,
4W12, 4W11, 4W10."""

from __future__ import annotations

import json
from typing import Any

import pytest

from hexwar.core.engine.game import Game
from hexwar.core.errors import RulesError
from hexwar.plugins.firepower import hidden_setup as hs
from hexwar.plugins.firepower import tunnels as tn
from hexwar.plugins.firepower.advanced_impulses import check_advanced_action, legal_advanced_actions
from hexwar.plugins.firepower.state import data
from tests.plugins.firepower.test_melee_underground import _setup
from tests.plugins.firepower.test_terrain import _do, _impulse, _label

MELEE = {"act": "melee", "units": ["A1"], "hex": "4W13"}


def _a_sees(game: Game) -> dict[str, Any]:
    """Everything side A is given with A1's Impulse open: its legal choices, the words of a
    refusal of the melee into 4W13 (or None), and its view (log, system state, units)."""
    _impulse(game, "A1")
    try:
        check_advanced_action(game, MELEE)
        refusal = None
    except RulesError as exc:
        refusal = f"{exc.rule}: {exc}"
    view = game.view("A")
    # the ``enter`` choice is left out: its refusal of a hex holding soldiers is FPD-86's (see
    # test_the_enter_choice_still_follows_who_is_there below)
    options = [o for o in legal_advanced_actions(game)
               if not (isinstance(o, dict) and o.get("act") == "enter")]
    return {"options": json.dumps(options, sort_keys=True, default=str),
            "refusal": refusal,
            "view": json.dumps([view.events(), view.system_state, view.units], sort_keys=True,
                               default=str)}


def _move_d1(game: Game, to: str | None) -> None:
    """The defender's D1 goes under ``to`` (None: off, e.g. further down the tunnel)."""
    game.state.units["D1"].hex = None if to is None else game.board.parse(to)
    data(game)["phase"] = None


def test_the_defender_leaving_the_tunnel_hex_changes_nothing_side_a_is_given() -> None:
    """Firepower 11.5: A was told of soldiers in 4W13; D1 then leaves it, and comes back, while
    A enters nothing: A's choices, the refusal's words (none) and his view stay the same."""
    game = _setup()
    before = _a_sees(game)
    assert MELEE in json.loads(before["options"]) and before["refusal"] is None
    _move_d1(game, None)
    assert _a_sees(game) == before
    _move_d1(game, "4W13")
    assert _a_sees(game) == before


def test_the_defender_coming_into_a_hex_told_empty_changes_nothing_side_a_is_given() -> None:
    """Firepower 11.5: 4W13 was told to A as empty; D1 comes into it while A enters nothing."""
    game = _setup()
    hs.secret(game, "A")["tunnels_known"]["4W13"]["soldiers"] = False
    _move_d1(game, None)
    before = _a_sees(game)
    assert '"melee"' not in before["options"]  # he believes no one is there
    _move_d1(game, "4W13")
    assert _a_sees(game) == before


def test_the_options_follow_what_side_a_was_told() -> None:
    """FPD-119: told of soldiers in 4W13, A is offered the melee into it though D1 has gone."""
    game = _setup()
    _move_d1(game, None)
    _impulse(game, "A1")
    assert MELEE in legal_advanced_actions(game)


def test_a_melee_into_an_emptied_tunnel_hex_pays_and_finds_no_one() -> None:
    """FPD-119 (Firepower 6.5, 6.5.3, 11.5): D1 has left 4W13; A1's melee there is carried out:
    he pays the MF of entering and of the melee and his Combat Action, no die is rolled, he enters
    4W13 and ends his Actions; his hex number goes to everyone and what 11.5 tells to his side."""
    game = _setup()
    _move_d1(game, None)

    def no_dice(purpose: str) -> int:
        raise AssertionError(f"no die is rolled: {purpose}")

    game.dice.d10 = no_dice  # type: ignore[method-assign]
    ph = _impulse(game, "A1")
    info = _do(game, MELEE)
    assert info["defenders"] == [] and info["winner"] == "attacker"
    assert _label(game, "A1") == "4W13" and game.state.units["A1"].state["tunnel"] is True
    assert ph["spent"]["A1"] == info["costs"]["A1"] > 0
    assert "A1" in ph["combat"] and "A1" in ph["done"]
    assert tn.known(game, "A")["4W13"] == {"kind": "tunnel", "soldiers": False}
    assert any(e.get("type") == "tunnel_melee_empty" for e in game.view("A").events())
    assert not any(e.get("type") == "tunnel_melee_empty" for e in game.view("B").events())
    assert any(e.get("type") == "tunnel_hex" and e["hex"] == "4W13"
               for e in game.view("B").events())


def test_the_defender_is_still_refused_a_melee_into_an_empty_hex() -> None:
    """Firepower 6.2.5.2: the defender knows the attacker's tunnel hex numbers (11.5), so his
    melee into a tunnel hex the attacker has left is refused as before."""
    game = _setup()
    game.state.units["A1"].hex = None
    _impulse(game, "D1")
    with pytest.raises(RulesError) as exc:
        check_advanced_action(game, {"act": "melee", "units": ["D1"], "hex": "4X13"})
    assert exc.value.rule == "Firepower 6.2.5.2"


@pytest.mark.xfail(strict=True, reason="FPD-86/FPD-119: entering a tunnel hex that holds the "
                   "other side's soldiers is still refused, so the enter choice is listed only "
                   "when it is empty; not yet built to follow the attacker's record")
def test_the_enter_choice_still_follows_who_is_there() -> None:
    """The leak left (FPD-119): the attacker's ``enter`` choice into 4W13 comes and goes with D1."""
    game = _setup()
    _impulse(game, "A1")
    before = {"act": "enter", "unit": "A1"} in legal_advanced_actions(game)
    _move_d1(game, None)
    _impulse(game, "A1")
    assert ({"act": "enter", "unit": "A1"} in legal_advanced_actions(game)) == before
