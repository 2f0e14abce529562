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
    options = legal_advanced_actions(game)  # the ``enter`` choice too (FPD-119)
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


def test_the_enter_choice_no_longer_follows_who_is_there() -> None:
    """FPD-119 (Firepower 11.5): the attacker's ``enter`` choice into 4W13, a tunnel hex he
    knows, is offered whether D1 is there or not (it used to come and go with D1)."""
    game = _setup()
    _impulse(game, "A1")
    assert {"act": "enter", "unit": "A1"} in legal_advanced_actions(game)
    _move_d1(game, None)
    _impulse(game, "A1")
    assert {"act": "enter", "unit": "A1"} in legal_advanced_actions(game)


def _b_text(game: Game) -> str:
    """Side B's log and secret record (the public phase record's MF are not told here)."""
    view = game.view("B")
    return json.dumps([view.events(), view.system_state.get("secret")], sort_keys=True,
                      default=str)


def test_entering_a_held_tunnel_hex_stops_the_attacker_and_tells_him_soldiers_are_there() -> None:
    """FPD-119 (Firepower 11.5, 6.2.1): side A was told 4W13 is empty; D1 is there now. A1's
    ``enter`` is not refused: he pays the MF, stays in 4X13, ends his Actions, and his side's
    record says 4W13 holds soldiers (nothing more). Side B is told nothing new."""
    game = _setup()
    hs.secret(game, "A")["tunnels_known"]["4W13"]["soldiers"] = False
    ph = _impulse(game, "A1")
    b_before = _b_text(game)
    info = _do(game, {"unit": "A1", "act": "enter"})
    assert info["stopped"] is True
    assert _label(game, "A1") == "4X13" and game.state.units["A1"].state["tunnel"] is True
    assert ph["spent"]["A1"] == info["cost"] > 0
    assert "A1" in ph["done"] and ph["entered"].get("A1", 0) == 0
    assert tn.known(game, "A")["4W13"] == {"kind": "tunnel", "soldiers": True}
    ev = [e for e in game.view("A").events() if e.get("type") == "tunnel_stopped"]
    assert len(ev) == 1 and ev[0]["hex"] == "4W13" and ev[0]["visible_to"] == ["A"]
    assert not any(e.get("type") in ("tunnel_reveal", "tunnel_hex")
                   for e in game.view("A").events())  # no new telling: he entered nothing
    assert _b_text(game) == b_before
    from hexwar.plugins.firepower.words import describe_event

    said = describe_event(game, ev[0]) or ""
    assert "stopped at 4W13" in said and "Firepower 11.5" in said
    assert {"act": "enter", "unit": "A1"} not in legal_advanced_actions(game)  # he is stopped


def test_backing_and_going_down_into_a_held_tunnel_hex_stop_the_attacker_too() -> None:
    """FPD-119: backing (Firepower 11.2.1.2) into 4W13 from 4W12, and going down from the cave
    of 4Y13 into 4X13 held by D2, are carried out as stopped moves, not refused."""
    game = _setup(("A2", "RFL", "A", "W12", 1, {"posture": "crouch", "tunnel": True}),
                  ("A3", "RFL", "A", "Y13", 5, {"posture": "crouch"}))
    hs.secret(game, "A")["tunnels_known"]["4W12"] = {"kind": "tunnel", "soldiers": False}
    game.state.units["A1"].hex = None
    ph = _impulse(game, "A2")
    assert {"unit": "A2", "act": "back"} in legal_advanced_actions(game)
    info = _do(game, {"unit": "A2", "act": "back"})
    assert info["stopped"] is True and _label(game, "A2") == "4W12" and "A2" in ph["done"]
    d1 = game.state.units["D1"]
    d1.hex = game.board.parse("4X13")
    data(game)["phase"] = None
    ph = _impulse(game, "A3")
    info = _do(game, {"unit": "A3", "act": "tunnel"})
    assert info["stopped"] is True and _label(game, "A3") == "4Y13"
    assert not game.state.units["A3"].state.get("tunnel") and "A3" in ph["done"]
    assert tn.known(game, "A")["4X13"] == {"kind": "tunnel", "soldiers": True}


def test_the_defender_is_still_refused_entering_a_tunnel_hex_held_by_the_attacker() -> None:
    """Firepower 6.2.1 with 11.5: the defender knows the attacker's tunnel hex numbers, so his
    ``enter`` into 4X13 under A1 is refused as before."""
    game = _setup()
    _impulse(game, "D1")
    with pytest.raises(RulesError) as exc:
        check_advanced_action(game, {"unit": "D1", "act": "enter"})
    assert exc.value.rule == "Firepower 6.2.1"


def test_the_public_impulse_record_holds_nothing_of_the_other_sides_tunnel_soldiers() -> None:
    """Firepower 8.8.8, 11.5: the Impulse record each side reads names no soldier of the other
    side in a tunnel and none of the MF he spent there. A1's stopped ``enter`` (FPD-119) is
    paid and ends his Actions, but side B is not told so (the record would say that A1 tried a
    move and got nowhere); D1's Impulse under the ground is not shown to side A."""
    game = _setup()
    hs.secret(game, "A")["tunnels_known"]["4W13"]["soldiers"] = False
    ph = _impulse(game, "A1")
    _do(game, {"unit": "A1", "act": "enter"})
    assert ph["spent"]["A1"] > 0 and "A1" in ph["done"]  # the umpire's record keeps it
    seen_b = json.dumps(game.view("B").system_state["phase"], default=str)
    assert "A1" not in seen_b
    assert "A1" in json.dumps(game.view("A").system_state["phase"], default=str)
    data(game)["phase"] = None
    _impulse(game, "D1")
    d1 = game.state.units["D1"]
    _do(game, {"unit": "D1", "act": "turn", "to": d1.facing % 6 + 1})
    assert "D1" not in json.dumps(game.view("A").system_state["phase"], default=str)
    assert "D1" in json.dumps(game.view("B").system_state["phase"], default=str)
