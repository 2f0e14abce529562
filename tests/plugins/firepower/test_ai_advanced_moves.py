"""The Advanced AI's moves over the Advanced terrain (issue 12, "The AI"): each in a small
set-up where the move is clearly right, so that the test fails if the AI stops making it.
Climbing a wall (Firepower 11.1.11), taking a foxhole (Firepower 8.8.1), going down a tunnel
(Firepower 8.8.8, 11.5), a leader activating the soldiers of his hex (Firepower 11.4)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from hexwar.core.engine.decisions import Decision
from hexwar.core.engine.game import Game
from hexwar.plugins.firepower import defenses
from hexwar.plugins.firepower import hidden_setup as hs
from hexwar.plugins.firepower.advanced_impulses import legal_advanced_actions
from hexwar.plugins.firepower.advanced_terrain import side_key
from hexwar.plugins.firepower.ai import make_ai
from tests.plugins.firepower.test_climbing import adv_map
from tests.plugins.firepower.test_terrain import _game, _impulse

VICTORY = '\n[victory]\nobjective_side = "A"\nobjective_hexes = [{hexes}]\n'


def _choose(game: Game, side: str, *uids: str, seed: int = 1) -> tuple[Any, list[Any]]:
    _impulse(game, *uids)
    opts = legal_advanced_actions(game)
    return make_ai(side, seed).choose(Decision(side, "action", options=opts),
                                      game.view(side)), opts


def _walled(game: Game, h: str, height: int) -> None:
    """Every hexside of hex ``h`` walled ``height`` high (a walled yard)."""
    x = game.board.parse(h)
    m = adv_map(game)
    for d in range(1, 7):
        m.walls[side_key(x, x.neighbor(d))] = height


# -- climbing (Firepower 11.1.11) ---------------------------------------------------------------


def test_the_attacker_climbs_the_wall_round_the_objective() -> None:
    # the objective 4C4 is a yard walled three heights high all round (Firepower 11.1.3: not
    # crossed, climbed); A1 stands before its wall
    game = _game([("A1", "RFL", "A", "C5", 1, {})], extra=VICTORY.format(hexes='"4C4"'))
    _walled(game, "4C4", 3)
    choice, opts = _choose(game, "A", "A1")
    assert {"unit": "A1", "act": "enter"} not in opts
    assert choice == {"unit": "A1", "act": "scale", "to": "on"}


def test_the_ai_does_not_climb_a_wall_for_nothing() -> None:
    game = _game([("A1", "RFL", "A", "C5", 1, {})], extra=VICTORY.format(hexes='"4C12"'))
    _walled(game, "4C4", 3)
    choice, opts = _choose(game, "A", "A1")
    assert {"unit": "A1", "act": "scale", "to": "on"} in opts
    assert not (isinstance(choice, dict) and choice.get("act") == "scale")


def test_a_climber_half_way_goes_on_to_the_better_side() -> None:
    # Firepower 11.1.11.2: Up on the wall he neither turns nor lies down; he finishes the climb
    game = _game([("A1", "RFL", "A", "C5", 1, {})], extra=VICTORY.format(hexes='"4C4"'))
    _walled(game, "4C4", 3)
    u = game.state.units["A1"]
    u.state["climb"] = {"side": 1, "step": 2, "total": 6, "kind": "wall"}
    u.state["up"] = 4
    choice, _ = _choose(game, "A", "A1")
    assert choice == {"unit": "A1", "act": "scale", "to": "on"}


# -- defensive positions (Firepower 8.8.1) -------------------------------------------------------


def test_the_defender_gets_into_the_foxhole_under_fire() -> None:
    # B1 stands in the open in a deep foxhole's hex, his back to two machine guns that have
    # him in their sights
    game = _game([("B1", "RFL", "B", "N8", 1, {}), ("A1", "LMG", "A", "N12", 1, {}),
                  ("A2", "LMG", "A", "O12", 1, {})])
    defenses.set_defences(game, [{"type": "DFX", "hex": "4N8"}])
    choice, opts = _choose(game, "B", "B1")
    assert {"act": "position", "unit": "B1", "into": True} in opts
    assert choice == {"act": "position", "unit": "B1", "into": True}


def test_the_defender_stays_in_his_foxhole() -> None:
    game = _game([("B1", "RFL", "B", "N8", 4, {"in_defence": "DFX", "stands_at": -2}),
                  ("A1", "LMG", "A", "N12", 1, {}), ("A2", "LMG", "A", "O12", 1, {})])
    defenses.set_defences(game, [{"type": "DFX", "hex": "4N8"}])
    choice, opts = _choose(game, "B", "B1")
    assert {"act": "position", "unit": "B1", "into": False} in opts
    assert not (isinstance(choice, dict) and choice.get("act") == "position")


# -- tunnels (Firepower 8.8.8, 11.5) -------------------------------------------------------------

TUNNELS = ["4X13", "4W13", "4W12"]


def test_the_defender_goes_down_his_tunnel_out_of_the_enemys_fire() -> None:
    # D1 crouches in the cave of 4Y13 facing its back, 4X13, with three machine guns on him
    game = _game([("D1", "RFL", "B", "Y13", 5, {"posture": "crouch"}),
                  ("A1", "LMG", "A", "Y9", 4, {}), ("A2", "LMG", "A", "Z9", 4, {}),
                  ("A3", "LMG", "A", "AA10", 4, {})], extra="tunnels = 4")
    hs.secret(game, "B")["tunnels"] = list(TUNNELS)
    choice, opts = _choose(game, "B", "D1")
    assert {"unit": "D1", "act": "tunnel"} in opts
    assert choice == {"unit": "D1", "act": "tunnel"}


def test_the_attacker_goes_down_a_tunnel_he_has_been_told_of_out_of_the_fire() -> None:
    # Firepower 11.5: A1 in the cave of 4Y13 has been told of the tunnel hex 4X13 behind it;
    # three machine guns of the defender cover the cave's mouth
    game = _game([("A1", "RFL", "A", "Y13", 5, {"posture": "crouch"}),
                  ("B1", "LMG", "B", "Y9", 4, {}), ("B2", "LMG", "B", "Z9", 4, {}),
                  ("B3", "LMG", "B", "AA10", 4, {})], extra="tunnels = 4")
    hs.secret(game, "B")["tunnels"] = list(TUNNELS)
    hs.secret(game, "A")["tunnels_known"] = {"4X13": {"kind": "tunnel", "soldiers": False}}
    choice, opts = _choose(game, "A", "A1")
    assert {"unit": "A1", "act": "tunnel"} in opts
    assert choice == {"unit": "A1", "act": "tunnel"}


def test_the_ai_comes_up_from_its_tunnel_only_into_a_safe_cave() -> None:
    # D1 under the ground behind the cave of 4Y13, the machine guns still on its mouth: he stays
    game = _game([("D1", "RFL", "B", "X13", 2, {"posture": "crouch", "tunnel": True}),
                  ("A1", "LMG", "A", "Y9", 4, {}), ("A2", "LMG", "A", "Z9", 4, {}),
                  ("A3", "LMG", "A", "AA10", 4, {})], extra="tunnels = 4")
    hs.secret(game, "B")["tunnels"] = list(TUNNELS)
    choice, opts = _choose(game, "B", "D1")
    assert {"unit": "D1", "act": "tunnel"} in opts
    assert choice != {"unit": "D1", "act": "tunnel"}


# -- leaders (Firepower 11.4) --------------------------------------------------------------------


def test_a_leader_activates_the_soldiers_of_his_hex_who_have_a_shot(tmp_path: Path) -> None:
    # as in FP-43 the squad leader L1 turns and enters the hex of three riflemen of his squad
    # (Firepower 11.4); the enemy stands in the open three hexes in front of them
    from tests.plugins.firepower.test_advanced import _phase, leader_beside_three

    game, there = leader_beside_three(tmp_path)
    game.state.units["E1"].hex = there.neighbor(2).neighbor(2).neighbor(2)
    gen, d = _phase(game)
    d = gen.send({"squad": "Q1", "hex": "1F6", "units": ["L1"]})
    d = gen.send({"unit": "L1", "act": "turn", "to": 4})
    d = gen.send({"unit": "L1", "act": "enter"})
    act = next(o for o in d.options if o != "end" and o["act"] == "activate")
    assert make_ai("A", 1).choose(d, game.view("A")) == act


# -- grenades into rooms (Firepower 12.3, 11.1.9) ------------------------------------------------


def test_a_grenade_goes_through_the_window_into_a_room_holding_two_enemies() -> None:
    # the window between 4G6 and 4H5 is open (unmarked, Firepower 11.1.9); two riflemen lie
    # Prone in the room of 4H5, below the window (no shot at them); A1 outside faces it with
    # one fragmentation grenade
    prone = {"posture": "prone"}
    game = _game([("A1", "RFL", "A", "G6", 1, {}), ("E1", "RFL", "B", "H5", 1, prone),
                  ("E2", "RFL", "B", "H5", 1, prone)])
    a1 = game.state.units["A1"]
    assert a1.hex is not None
    a1.facing = next(d for d in range(1, 7)
                     if game.board.label(a1.hex.neighbor(d)) == "4H5")
    a1.state["equipment"] = {"HGN3": 1}
    choice, opts = _choose(game, "A", "A1")
    assert any(o.get("act") == "grenade" and o.get("hex") == "4H5" for o in opts
               if isinstance(o, dict))
    assert isinstance(choice, dict) and choice.get("act") == "grenade"
    assert choice["hex"] == "4H5" and choice.get("item", "HGN3") == "HGN3"


# -- the side's own mines (Firepower 12.4.4, 8.8.9) ----------------------------------------------


def _holder(mined: list[dict[str, Any]]) -> tuple[Any, list[Any]]:
    # the defender B1 faces the objective 4C4 from 4C5: holding it is worth a step forward
    game = _game([("B1", "RFL", "B", "C5", 1, {}), ("A1", "RFL", "A", "C14", 4, {})],
                 extra=VICTORY.format(hexes='"4C4"'))
    hs.secret(game, "B")["mines"] = mined
    return _choose(game, "B", "B1")


def test_the_defender_steps_onto_the_objective_with_no_mine_there() -> None:
    choice, opts = _holder([])
    assert {"unit": "B1", "act": "enter"} in opts
    assert choice == {"unit": "B1", "act": "enter"}


def test_the_defender_keeps_out_of_his_own_mines_hex() -> None:
    # Firepower 12.4.4.1.1: his own PMN1 in 4C4 would go off under him (FPD-181; the street
    # fight's seed 1001 lost a defender so)
    choice, opts = _holder([{"kind": "PMN1", "hex": "4C4"}])
    assert {"unit": "B1", "act": "enter"} in opts
    assert choice != {"unit": "B1", "act": "enter"}


def test_the_defender_keeps_off_his_own_trip_wire() -> None:
    # Firepower 12.4.4.1.2: a PMN2's trip wire hex sets it off as its own hex does
    wire = ["4C4", "4D4", "4E4", "4F4", "4G4", "4H4"]
    choice, _ = _holder([{"kind": "PMN2", "hex": "4J4", "facing": 1, "trip": wire}])
    assert choice != {"unit": "B1", "act": "enter"}


def test_the_enemys_view_holds_no_mine_for_his_ai() -> None:
    # Firepower 8.8.9: the defender's mines are his secret; the attacker's AI reads none
    game = _game([("A1", "RFL", "A", "C5", 1, {})], extra=VICTORY.format(hexes='"4C4"'))
    hs.secret(game, "B")["mines"] = [{"kind": "PMN1", "hex": "4C4"}]
    ai = make_ai("A", 1)
    ai._memo = {}
    assert ai._own_mines(game.view("A")) == set()
    ai._memo = {}
    assert ai._own_mines(game.view("B")) == {game.board.parse("4C4")}
