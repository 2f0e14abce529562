"""Melee under the ground (Firepower 13 with Firepower 8.8.8 and 11.5; docs/decisions.md FPD-98),
on stand-in panel 4: the cave of 4Y13 has the tunnel hex 4X13 at its back; side B's tunnel runs
4X13, 4W13, 4W12, 4W11, 4W10 (the ground above: 3, 3, 3, 0, 0)."""

from __future__ import annotations

import json
from typing import Any

from hexwar.core.engine.game import Game
from hexwar.core.errors import RulesError
from hexwar.plugins.firepower import hidden_setup as hs
from hexwar.plugins.firepower import tunnels as tn
from hexwar.plugins.firepower.advanced_impulses import check_advanced_action, legal_advanced_actions
from tests.plugins.firepower.test_terrain import _do, _game, _impulse, _label, _refused

TUNNELS = ["4X13", "4W13", "4W12", "4W11", "4W10"]


def _setup(*extra: tuple[Any, ...], known: tuple[str, ...] = ("4X13", "4W13")) -> Game:
    """A1 (attacker) crouching in the tunnel hex 4X13 facing 4W13 (hexside 6); D1 (defender)
    crouching in the tunnel hex 4W13; side A has been told of ``known`` (4W13 with soldiers)."""
    game = _game([("A1", "RFL", "A", "X13", 6, {"posture": "crouch", "tunnel": True,
                                                "model": "RFL10"}),
                  ("D1", "RFL", "B", "W13", 3, {"posture": "crouch", "tunnel": True,
                                                "model": "RFL10"}),
                  *extra], extra="tunnels = 5")
    hs.secret(game, "B")["tunnels"] = list(TUNNELS)
    hs.secret(game, "A")["tunnels_known"] = {
        h: {"kind": "tunnel", "soldiers": h == "4W13"} for h in known}
    return game


def _a_text(game: Game) -> str:
    view = game.view("A")
    return json.dumps([view.events()[1:], view.system_state, view.units], sort_keys=True,
                      default=str)


def test_soldiers_in_tunnels_melee_the_soldiers_in_the_tunnel_hex_in_front() -> None:
    """Firepower 13, 8.8.8: A1 melees D1 under 4W13; D2 standing on 4W13 is not met."""
    game = _setup(("D2", "RFL", "B", "W13", 1, {}))
    _impulse(game, "A1")
    info = check_advanced_action(game, {"act": "melee", "units": ["A1"], "hex": "4W13"})
    assert info["defenders"] == ["D1"]
    assert {"act": "melee", "units": ["A1"], "hex": "4W13"} in legal_advanced_actions(game)


def test_the_surface_does_not_melee_the_tunnel_below() -> None:
    """Firepower 8.8.8: S1 on the ground facing 4W13 finds no opposing soldier there (D1 is under
    it), and soldiers above and below do not melee together."""
    game = _setup(("S1", "RFL", "A", "W14", 1, {"model": "RFL10"}),
                  ("S2", "RFL", "A", "X13", 6, {"posture": "crouch", "model": "RFL10"}))
    _impulse(game, "S1", "A1")
    _refused(game, {"act": "melee", "units": ["S1"], "hex": "4W13"}, "Firepower 6.2.5.2")
    game.state.units["S2"].state["tunnel"] = False
    _impulse(game, "A1", "S2")
    _refused(game, {"act": "melee", "units": ["A1", "S2"], "hex": "4W13"}, "Firepower 8.8.8")


def test_the_attacker_melees_only_into_tunnel_hexes_he_was_told_of_and_learns_nothing() -> None:
    """Firepower 11.5: 4W13 not told to A: refused with the same words whether D1 is there or
    not, so the refusal tells him nothing; the state is unchanged."""
    said = []
    for there in (True, False):
        game = _setup(known=("4X13",))
        if not there:
            game.state.units["D1"].hex = None
        _impulse(game, "A1")
        _refused(game, {"act": "melee", "units": ["A1"], "hex": "4W13"}, "Firepower 11.5")
        try:
            check_advanced_action(game, {"act": "melee", "units": ["A1"], "hex": "4W13"})
        except RulesError as exc:  # the words are compared
            said.append(str(exc))
        assert not any(o.get("act") == "melee" for o in legal_advanced_actions(game)
                       if isinstance(o, dict))
    assert said[0] == said[1]


def test_no_height_change_under_the_ground() -> None:
    """Firepower 13.5 counts a change of height with the last MF; the ground above 4W12 is 3,
    above 4W11 0, but under it the tunnel is level: no "moving down" modifier (FPD-98)."""
    game = _setup(known=("4W12", "4W11"))
    a1, d1 = game.state.units["A1"], game.state.units["D1"]
    a1.hex, a1.facing = game.board.parse("4W12"), 1
    d1.hex = game.board.parse("4W11")
    _impulse(game, "A1")
    info = check_advanced_action(game, {"act": "melee", "units": ["A1"], "hex": "4W11"})
    rules = [m.rule for m in info["extra"]]
    assert "Firepower 13.5" not in rules
    assert "Firepower 13.2" in rules  # both Crouching: the other modifiers still apply


def test_more_than_four_attackers_do_not_fit_a_tunnel_hex() -> None:
    """Firepower 8.8.8, 10.8: four soldiers of a side in a tunnel hex, attackers too."""
    more = [(f"A{i}", "RFL", "A", "X13", 6, {"posture": "crouch", "tunnel": True})
            for i in range(2, 6)]
    game = _setup(*more)
    _impulse(game, *[f"A{i}" for i in range(1, 6)])
    _refused(game, {"act": "melee", "units": [f"A{i}" for i in range(1, 6)], "hex": "4W13"},
             "Firepower 10.8")


def test_the_defender_melees_the_attacker_in_his_tunnel() -> None:
    """The defender knows the attacker's tunnel hex numbers (Firepower 11.5): D1 facing 4X13
    (hexside 3) melees A1 there."""
    game = _setup()
    _impulse(game, "D1")
    assert {"act": "melee", "units": ["D1"], "hex": "4X13"} in legal_advanced_actions(game)
    info = check_advanced_action(game, {"act": "melee", "units": ["D1"], "hex": "4X13"})
    assert info["defenders"] == ["A1"]


def test_a_won_melee_underground_enters_the_hex_and_tunnel_positions_never_leak() -> None:
    """Hidden information (Firepower 8.8.8, 11.5): A1 wins the melee under 4W13 and enters it:
    his hex number goes to everyone, the tunnel hexes next to 4W13 to his side; D2 in the tunnel
    hex 4W10 and the tunnel hexes 4W11, 4W10 appear nowhere in side A's view or log."""
    game = _setup(("D2", "RFL", "B", "W10", 1, {"posture": "prone", "tunnel": True}))
    for secret in ("4W11", "4W10", '"D2"'):
        assert secret not in _a_text(game)
    game.dice.d10 = lambda purpose: 1  # type: ignore[method-assign]  # the attacker wins
    _impulse(game, "A1")
    _do(game, {"act": "melee", "units": ["A1"], "hex": "4W13"})
    a1 = game.state.units["A1"]
    assert _label(game, "A1") == "4W13" and a1.state["tunnel"] is True
    assert game.state.units["D1"].hex is None or game.state.units["D1"].state.get("eliminated")
    assert tn.known(game, "A")["4W12"] == {"kind": "tunnel", "soldiers": False}
    assert any(e.get("type") == "tunnel_hex" and e["hex"] == "4W13"
               for e in game.view("B").events())
    text = _a_text(game)
    for secret in ("4W11", "4W10", '"D2"'):
        assert secret not in text, secret
    assert game.view("A").system_state["secret"].get("tunnels") is None
