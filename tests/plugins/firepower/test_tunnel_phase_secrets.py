"""What the Impulse Phase's record tells the other side of soldiers in tunnels (Firepower 11.5
with 8.8.8; docs/decisions.md FPD-137): of the attacker's soldiers underground the defender
knows the hex numbers alone, never the MF they spend; the defender's are secret altogether.
Panel 4 as in test_melee_underground: A1 (attacker) in the tunnel hex 4X13, D1 (defender) in
4W13."""

from __future__ import annotations

import json

from hexwar.core.engine.game import Game
from hexwar.plugins.firepower import impulses
from hexwar.plugins.firepower.state import data
from tests.plugins.firepower.test_melee_underground import _setup
from tests.plugins.firepower.test_terrain import _do, _impulse


def _phase(game: Game, side: str | None) -> dict[str, object]:
    ph = game.view(side).system_state["phase"] if side else game.view(None).system_state["phase"]
    assert isinstance(ph, dict)
    return ph


def test_the_defender_is_not_shown_the_mf_the_attacker_spends_in_a_tunnel() -> None:
    """Firepower 11.5: A1 turns in his tunnel hex (1 MF): side B's view of the phase has no
    entry for him, A's and the umpire's have it; B's log has no word of the turn either."""
    game = _setup()
    _impulse(game, "A1")
    # 120 degrees: 1 MF (a 60-degree turn would be free, Firepower 11.3.1)
    _do(game, {"act": "turn", "unit": "A1", "to": (game.state.units["A1"].facing + 1) % 6 + 1})
    for ph in (_phase(game, "A"), _phase(game, None)):
        assert ph["spent"] == {"A1": 1} and ph["nc"] == {"A1": 1} and ph["active"] == ["A1"]
    b = _phase(game, "B")
    assert b["spent"] == {} and b["nc"] == {} and b["active"] == [] and "underground" not in b
    assert "A1" not in json.dumps(b)
    assert not any(e.get("unit") == "A1" for e in game.view("B").events())
    # his hex number stays public (FPD-85)
    assert game.view("B").system_state["attacker_in_tunnels"] == {"A1": "4X13"}


def test_the_mf_spent_underground_stay_hidden_after_he_comes_up() -> None:
    """FPD-137: a soldier who acted in a tunnel this Impulse Phase stays out of the other side's
    view of the phase when he is no longer in one (his MF include those spent underground)."""
    game = _setup()
    _impulse(game, "A1")
    # 120 degrees: 1 MF (a 60-degree turn would be free, Firepower 11.3.1)
    _do(game, {"act": "turn", "unit": "A1", "to": (game.state.units["A1"].facing + 1) % 6 + 1})
    game.state.units["A1"].state["tunnel"] = False  # as if up into a cave
    assert data(game)["phase"]["underground"] == ["A1"]
    assert "A1" not in json.dumps(_phase(game, "B"))
    assert _phase(game, "A")["spent"] == {"A1": 1}


def test_the_attacker_is_not_told_who_of_the_defender_acts_in_a_tunnel() -> None:
    """Firepower 8.8.8, 11.5: D1's Impulse in his tunnel: side A reads that an Impulse began,
    naming no one, and nothing of D1 in the phase; side B reads D1 in both."""
    game = _setup()
    impulses.start_impulse_phase(game, "B")
    impulses.begin_impulse(game, ["D1"])
    # 120 degrees: 1 MF (a 60-degree turn would be free, Firepower 11.3.1)
    _do(game, {"act": "turn", "unit": "D1", "to": (game.state.units["D1"].facing + 1) % 6 + 1})
    a = game.view("A")
    text = json.dumps([a.events()[1:], a.system_state, a.units], default=str)  # [0]: header
    assert "D1" not in text
    assert [(e["units"], e["unseen"]) for e in a.events() if e["type"] == "impulse"] == [([], True)]
    from hexwar.plugins.firepower.words import _impulse_units

    assert _impulse_units(None, next(e for e in a.events() if e["type"] == "impulse")) == \
        "soldiers out of sight"
    b = game.view("B")
    assert [e["units"] for e in b.events() if e["type"] == "impulse"] == [["D1"]]
    assert _phase(game, "B")["spent"] == {"D1": 1}


def test_a_leaders_activation_in_a_tunnel_is_told_to_his_side_alone() -> None:
    """Firepower 11.4 with 11.5: the activation's record carries the MF the leader spent; in a
    tunnel it is his side's alone (FPD-137), and the soldier activated is left out of the other
    side's view of the phase."""
    from hexwar.plugins.firepower.advanced_impulses import _apply_activate

    game = _setup(("A2", "RFL", "A", "X13", 6, {"posture": "crouch", "tunnel": True,
                                                "model": "RFL10"}))
    ph = _impulse(game, "A1")
    ph["spent"]["A1"] = 2
    _apply_activate(game, ph, {"unit": "A1", "targets": ["A2"]})
    assert [e["spent"] for e in game.view("A").events() if e["type"] == "activated"] == [2]
    assert not any(e["type"] == "activated" for e in game.view("B").events())
    assert "A2" not in json.dumps(_phase(game, "B")) and _phase(game, "A")["spent"]["A2"] == 2


def test_the_refusal_to_come_up_into_a_held_cave_tells_what_the_attacker_sees() -> None:
    """Firepower 6.2.1 with 11.5 (FPD-138): coming up from the tunnel hex 4X13 into the cave of
    4Y13 that D3 holds on the surface is refused; the refusal tells side A nothing new, since
    his view shows D3 there (only soldiers in tunnels are out of his sight). Once D3 has gone,
    the move is carried out."""
    from tests.plugins.firepower.test_terrain import _refused
    from tests.plugins.firepower.test_tunnels import _setup as _cave_setup

    game = _cave_setup(("D3", "RFL", "B", "Y13", 1, {}))
    a1 = game.state.units["A1"]
    a1.hex, a1.state["tunnel"], a1.facing = game.board.parse("4X13"), True, 2
    _impulse(game, "A1")
    assert tuple(game.view("A").units["D3"]["hex"]) == game.board.parse("4Y13")
    assert "D1" not in game.view("A").units  # the defender in his tunnel is not shown
    _refused(game, {"unit": "A1", "act": "tunnel"}, "Firepower 6.2.1")
    game.state.units["D3"].hex = game.board.parse("4Z13")
    _do(game, {"unit": "A1", "act": "tunnel"})
    assert game.board.label(a1.hex) == "4Y13" and not a1.state.get("tunnel")


def test_a_free_turn_in_a_tunnel_stays_out_of_the_other_sides_view() -> None:
    """Firepower 11.3.1 with 11.5 (FPD-137, FPD-142): the free turn's bookkeeping of a soldier
    in a tunnel (free_turns, owed) is his side's alone."""
    game = _setup()
    _impulse(game, "A1")
    _do(game, {"act": "turn", "unit": "A1", "to": game.state.units["A1"].facing % 6 + 1})
    assert _phase(game, "A")["owed"] == {"A1": 1} and _phase(game, "A")["free_turns"]
    b = _phase(game, "B")
    assert b["owed"] == {} and b["free_turns"] == {} and "A1" not in json.dumps(b)
