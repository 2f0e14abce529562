"""The Advanced AI uses the kit of hexwar's Advanced scenarios (issue 12, "The AI";
docs/decisions.md FPD-106 to FPD-108): it crews and fires a weapon unit and loads it again
(Firepower 10.1, 11.1.6.2, 11.1.12), takes the rounds its empty weapon needs from a friend
(Firepower 11.1.6.5, 8.5), loads a rifle grenade for an enemy out of a hand grenade's reach
(Firepower 12.4.1.1), sets its defenders up in a pillbox facing its door and goes in
(Firepower 8.8.4.2), digs the longest tunnel (Firepower 8.8.8), and saves the last grenade of a
counted stock for a better target (Firepower 8.5). Each in a small set-up where the move is
clearly right, so that the test fails if the AI stops making it."""

from __future__ import annotations

from typing import Any

from hexwar.core.engine.decisions import Decision
from hexwar.core.engine.game import Game
from hexwar.core.scenario import Scenario
from hexwar.plugins.firepower import defenses
from hexwar.plugins.firepower import loading as ld
from hexwar.plugins.firepower.advanced_impulses import legal_advanced_actions
from hexwar.plugins.firepower.ai import make_ai, tunnel_plan
from hexwar.plugins.firepower.ammunition import stock_problems
from hexwar.plugins.firepower.equipment_options import equipment_options
from hexwar.plugins.firepower.plugin import HERE
from tests.plugins.firepower.test_loading import _crew_game, _shoot
from tests.plugins.firepower.test_terrain import _do, _game, _impulse
from tests.plugins.firepower.test_weapons import _crew_up, _lcw_game


def _choose(game: Game, side: str, *uids: str) -> tuple[Any, list[Any]]:
    _impulse(game, *uids)
    opts = legal_advanced_actions(game)
    return make_ai(side, 1).choose(Decision(side, "action", options=opts), game.view(side)), opts


# -- weapon units (Firepower 10.1) ---------------------------------------------------------------


def test_the_soldier_with_the_guns_rounds_crews_it() -> None:
    game, _ = _lcw_game()
    game.state.units["B1"].hex = None  # no rifle shot to tempt him: the enemy is yet to come
    game.state.units["B2"].hex = None
    choice, opts = _choose(game, "A", "A2")  # A2 carries the LCW1's rounds
    assert {"unit": "A2", "act": "acquire", "what": "W1"} in opts
    assert choice == {"unit": "A2", "act": "acquire", "what": "W1"}


def test_the_crew_fires_its_gun_not_their_rifles() -> None:
    # Firepower 6.3.1.3: the stack fires once an Impulse; the gun's blast is worth the shot
    game, target = _lcw_game()
    _crew_up(game, 3)
    choice, opts = _choose(game, "A", "A1", "A2", "A3")
    assert any(o.get("act") == "fire" for o in opts if isinstance(o, dict))
    assert isinstance(choice, dict) and choice["act"] == "grenade"
    assert choice["item"] == "W1" and choice["hex"] == target


def test_the_crew_loads_its_empty_gun() -> None:
    game, target = _lcw_game()
    _crew_up(game, 3)
    _impulse(game, "A1", "A2", "A3")
    _shoot(game, {"unit": "A1", "act": "grenade", "hex": target, "item": "W1", "ammo": "H",
                  "as_g": True})
    assert ld.loaded_key(game, "A", "W1", ld.weapon("LCW1"))[1] == 0  # fired off
    choice, _ = _choose(game, "A", "A2", "A3")
    assert choice == {"unit": "A2", "act": "load", "weapon": "W1", "ammo": "G"}


def test_a_gun_crewman_does_not_walk_away_from_it() -> None:
    game, _ = _lcw_game()
    _crew_up(game, 3)
    game.state.units["B1"].hex = None  # nothing to shoot at: he would otherwise go forward
    game.state.units["B2"].hex = None
    choice, opts = _choose(game, "A", "A3")
    assert {"unit": "A3", "act": "enter"} in opts
    assert not (isinstance(choice, dict) and choice.get("act") in ("enter", "turn"))


# -- rounds (Firepower 8.5, 11.1.6.5) -------------------------------------------------------------


def test_a_grenadier_out_of_rounds_takes_them_from_the_friend_beside_him() -> None:
    game, _ = _crew_game("GLR2")
    game.state.units["A1"].state["equipment"] = {}
    game.state.units["C0"] = game.state.units["A1"].__class__(
        id="C0", type="firepower:RFL", side="A", hex=game.state.units["A1"].hex, facing=2,
        state={"model": "RFL10", "equipment": {"GLR2AMO-G": 4}})
    choice, opts = _choose(game, "A", "A1")
    want = {"unit": "A1", "act": "acquire", "what": "GLR2AMO-G", "from": "C0"}
    assert want in opts and choice == want
    _do(game, choice)
    assert game.state.units["A1"].state["equipment"] == {"GLR2AMO-G": 4}


def test_nothing_is_taken_while_his_own_rounds_last() -> None:
    game, _ = _crew_game("GLR2")
    game.state.units["A1"].state["equipment"] = {"GLR2AMO-G": 1}
    game.state.units["C0"] = game.state.units["A1"].__class__(
        id="C0", type="firepower:RFL", side="A", hex=game.state.units["A1"].hex, facing=2,
        state={"model": "RFL10", "equipment": {"GLR2AMO-G": 4}})
    _impulse(game, "A1")
    assert not [o for o in equipment_options(game) if o["act"] == "acquire"]


# -- rifle grenades (Firepower 12.4.1.1) ----------------------------------------------------------


def _foxhole_target() -> Game:
    """A1 with an M14 and two rifle grenades; B1 five hexes in front of him, Crouching in a deep
    foxhole, where no bullet reaches him (Firepower 10.5.2) but a blast in his hex does."""
    game, _ = _crew_game("RFL14")
    a1, b1 = game.state.units["A1"], game.state.units["B1"]
    a1.state["equipment"] = {"RGN1": 2}
    assert a1.hex is not None
    b1.hex = a1.hex.neighbor(2).neighbor(2).neighbor(2).neighbor(2).neighbor(2)
    defenses.set_defences(game, [{"type": "DFX", "hex": game.board.label(b1.hex)}])
    b1.state.update(posture="crouch", in_defence="DFX",
                    stands_at=-defenses.types()["DFX"].depth)
    return game


def test_a_rifleman_loads_a_rifle_grenade_for_an_enemy_low_in_a_foxhole() -> None:
    # B1 five hexes off, Crouching in a deep foxhole: no bullet reaches him (Firepower 10.5.2),
    # a rifle grenade's blast in his hex does (Firepower 12.7.2)
    game = _foxhole_target()
    choice, opts = _choose(game, "A", "A1")
    assert not [o for o in opts if isinstance(o, dict) and o.get("act") == "fire"]
    want = {"unit": "A1", "act": "load", "item": "RGN1"}
    assert want in opts and choice == want


def test_no_rifle_grenade_is_loaded_with_no_enemy_in_its_reach() -> None:
    game, _ = _crew_game("RFL14")
    game.state.units["A1"].state["equipment"] = {"RGN1": 2}
    a1 = game.state.units["A1"]
    assert a1.hex is not None
    game.state.units["B1"].hex = a1.hex.neighbor(2)  # too near for a rifle grenade
    choice, _ = _choose(game, "A", "A1")
    assert not (isinstance(choice, dict) and choice.get("act") == "load")


def test_no_rifle_grenade_is_loaded_for_an_enemy_behind_him() -> None:
    """Firepower 12.4.1.1 (FPD-183): as the first test, but A1 faces away from B1. The grenade
    is fired only in an Impulse he spends no other MF in, not even on a turn, so it could never
    be fired at B1 from where he is: he does not load it (before, he did, and in the street
    fight's games the loaded grenade was never fired)."""
    game = _foxhole_target()
    a1 = game.state.units["A1"]
    a1.facing = 5  # his back to B1 (toward 2)
    choice, opts = _choose(game, "A", "A1")
    assert {"unit": "A1", "act": "load", "item": "RGN1"} in opts
    assert not (isinstance(choice, dict) and choice.get("act") == "load")


# -- the defender's positions and tunnels (Firepower 8.8) ------------------------------------------


def test_the_defender_sets_up_in_the_pillbox_facing_its_door_and_goes_in() -> None:
    game = _game([("B1", "RFL", "B", "N8", 5, {}), ("A1", "RFL", "A", "N14", 2, {})])
    defenses.set_defences(game, [{"type": "PBX", "hex": "4N4", "door": 3}])
    opts = [{"hex": f"4N{r}", "facing": f, "posture": "stand"} for r in (2, 3, 4, 5)
            for f in (5, 6)]
    placed = make_ai("B", 1).choose(Decision("B", "place", options=opts,
                                             context={"unit": "B1", "weapon": "RFL"}),
                                    game.view("B"))
    assert placed == {"hex": "4N4", "facing": 3, "posture": "stand"}
    b1 = game.state.units["B1"]
    b1.hex, b1.facing = game.board.parse("4N4"), 3
    choice, _ = _choose(game, "B", "B1")
    assert choice == {"act": "position", "unit": "B1", "into": True}


def test_the_defender_digs_the_longest_tunnel_offered() -> None:
    plans = [{"tunnels": []}, {"tunnels": ["4A1"]}, {"tunnels": ["4A1", "4A2", "4A3"]},
             {"tunnels": ["4B1", "4B2"]}]
    assert tunnel_plan(plans) == plans[2]
    game = _game([("B1", "RFL", "B", "N8", 5, {})])
    got = make_ai("B", 1).choose(Decision("B", "firepower.tunnels", options=plans),
                                 game.view("B"))
    assert got == plans[2]


# -- the scenarios' kit (FPD-106) -------------------------------------------------------------------


def _scenario(name: str) -> Scenario:
    return Scenario.load(HERE / "scenarios" / f"{name}.toml")


def test_the_scenarios_count_every_soldiers_rounds_and_the_hill_has_its_kit() -> None:
    from hexwar.core.engine.game import Game as _G

    for name in ("street-fight", "hill-assault"):
        game = _G(_scenario(name), seed=1)
        assert not stock_problems(game.state.units)
        # every soldier's organization list is given: rounds and grenades are counted
        assert all("equipment" in u.state for u in game.state.units.values())
    hill = _scenario("hill-assault").raw["special"]
    assert {d["type"] for d in hill["defenses"]} >= {"PBX", "DFX", "SFX", "TRN"}
    assert hill["weapon_units"][0]["model"] == "LCW1"
    assert int(_scenario("street-fight").raw["special"]["tunnels"]) > 0


# -- counted rounds (Firepower 8.5; FPD-108) -------------------------------------------------------


def _grenade_value(count: int, posture: str) -> float:
    from hexwar.plugins.firepower.state import data

    game, _ = _crew_game("RFL10")
    a1, b1 = game.state.units["A1"], game.state.units["B1"]
    a1.state["equipment"] = {"HGN3": count}
    assert a1.hex is not None
    b1.hex, b1.state["posture"] = a1.hex.neighbor(2).neighbor(2), posture
    _impulse(game, "A1")
    ai, view = make_ai("A", 1), game.view("A")
    ai._adv_setup(view)
    ai._memo = {}
    sol, _mine, theirs = ai._sol(view)
    o = {"unit": "A1", "act": "grenade", "hex": game.board.label(b1.hex), "item": "HGN3"}
    return ai._value(view, data(game)["phase"], o, sol, theirs, {})


def test_the_last_grenade_is_kept_for_a_better_target() -> None:
    # a Crouching enemy two hexes off: worth a grenade of five, not the last one; a Standing
    # one is worth even the last
    assert _grenade_value(5, "crouch") > 0 > _grenade_value(1, "crouch")
    assert _grenade_value(1, "stand") > 0


# -- the defender behind on points goes out (Firepower 23.6; FPD-108) -----------------------------

SURVIVORS = ('\n[victory]\ncasualty = 1\nsurvivor = 1\nobjective_side = "A"\n'
             'objective_hexes = ["4C12"]\n')


def test_a_defender_behind_on_points_goes_out_to_find_the_attacker() -> None:
    # two attackers kept far off outscore the lone defender (a survivor each, Firepower 23.6)
    game = _game([("B1", "RFL", "B", "N8", 2, {}), ("A1", "RFL", "A", "N15", 5, {}),
                  ("A2", "RFL", "A", "O15", 5, {})], extra=SURVIVORS)
    ai = make_ai("B", 1)
    game.state.turn = 1
    view = game.view("B")
    ai._adv_setup(view)
    me = ai._sol(view)[0]["B1"]
    assert ai._sally(view, me) == 0.0  # the first Turn: he holds
    game.state.turn = 2
    view = game.view("B")
    ai._adv_setup(view)
    ai._memo = {}
    assert ai._sally(view, me) > 0
    far = game.state.units["A1"].hex
    assert far is not None
    nearer = me.with_(hex=min((me.hex.neighbor(d) for d in range(1, 7)),
                              key=lambda h: h.distance(far)))
    assert ai._adv_position(view, nearer) > ai._adv_position(view, me)
    game.state.units["A2"].state["eliminated"] = True  # now he is ahead: he holds again
    view = game.view("B")
    assert ai._sally(view, me) == 0.0


def test_a_loaded_rifle_grenade_is_fired_before_he_moves() -> None:
    """Firepower 12.4.1.1 (FPD-191): in the Impulse after loading it, with the enemy still in
    front, he fires the rifle grenade before a step or a turn, which would forbid the shot. (The
    AI held the grenade on the launcher to the scarce-grenade bar of FPD-108, which it never
    cleared: in the street fight's games it loaded, then walked, and fired none.)"""
    game = _foxhole_target()
    _impulse(game, "A1")
    _do(game, {"unit": "A1", "act": "load", "item": "RGN1"})
    choice, opts = _choose(game, "A", "A1")
    fire = [o for o in opts if isinstance(o, dict) and o.get("act") == "grenade"
            and o.get("item") == "RGN1"]
    assert fire, "the loaded grenade is not offered"
    assert isinstance(choice, dict) and choice.get("act") == "grenade" \
        and choice.get("item") == "RGN1", choice
