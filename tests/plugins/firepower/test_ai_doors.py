"""The Advanced AI's doors and windows in its movement plans (Firepower 11.1.3, 11.1.9,
docs/decisions.md FPD-160): it opens a closed door from inside and goes through it to a hex it
can fire from, or to its objective; upstairs it opens a closed window to fire out of it."""

from __future__ import annotations

from typing import Any

from hexwar.core.engine.decisions import Decision
from hexwar.core.engine.game import Game
from hexwar.plugins.firepower import combat
from hexwar.plugins.firepower.advanced_impulses import legal_advanced_actions
from hexwar.plugins.firepower.advanced_terrain import adv_map
from hexwar.plugins.firepower.ai import make_ai
from hexwar.plugins.firepower.ai_doors import Crossing, crossing
from hexwar.plugins.firepower.state import data
from hexwar.plugins.firepower.tables import card
from tests.plugins.firepower.test_ai_advanced_moves import VICTORY
from tests.plugins.firepower.test_terrain import _do, _game, _impulse


def _close_all(game: Game, building: str) -> None:
    """Firepower 8.2.5: every door and window of ``building`` closed."""
    m = adv_map(game)
    for o in m.openings.values():
        if m.building_of.get(o.inside) == building:
            data(game).setdefault("openings", {})[o.key] = "closed"


def _play_impulse(game: Game, side: str, uid: str, limit: int = 10) -> list[Any]:
    """The AI's Actions for ``uid`` in one Impulse, applied one by one, up to its "end" (at most
    ``limit`` of them)."""
    _impulse(game, uid)
    done: list[Any] = []
    for _ in range(limit):
        opts = legal_advanced_actions(game)
        choice = make_ai(side, 1).choose(Decision(side, "action", options=opts),
                                         game.view(side))
        assert choice in opts  # the decision takes only listed fields (core Decision.check)
        done.append(choice)
        if choice == "end":
            break
        _do(game, choice)
    return done


def _label(game: Game, uid: str) -> str:
    h = game.state.units[uid].hex
    assert h is not None
    return game.board.label(h)


def test_the_defender_opens_the_door_and_goes_out_to_fire() -> None:
    """Firepower 11.1.9, 11.1.3 (FPD-160): B1 stands in 4R4 of building C (every door and
    window closed) facing its door onto 4Q5; the enemy in 4Q1 is out of sight from every hex
    and floor of the building, doors and windows open or not, but in sight from 4Q5. The only
    way to a shot is to open the door, go through it and turn to him."""
    game = _game([("B1", "RFL", "B", "R4", 5, {}),
                  ("A1", "RFL", "A", "Q1", 1, {"status": "stunned"})])
    _close_all(game, "C")
    done = _play_impulse(game, "B", "B1")
    assert done[:2] == [{"unit": "B1", "act": "door", "side": 5, "to": "open"},
                        {"unit": "B1", "act": "through"}]
    assert _label(game, "B1") == "4Q5"
    # the next Impulse he fires from there
    done = _play_impulse(game, "B", "B1")
    assert any(isinstance(c, dict) and c.get("act") == "fire" for c in done)


def test_the_attacker_turns_opens_the_door_and_goes_through_to_his_objective() -> None:
    """Firepower 11.1.9, 11.1.3 (FPD-160): A1 in 4R4 faces away from the closed door; the
    objective is the hex beyond it. He turns to the door, opens it and goes through."""
    game = _game([("A1", "RFL", "A", "R4", 1, {})], extra=VICTORY.format(hexes='"4Q5"'))
    _close_all(game, "C")
    done = _play_impulse(game, "A", "A1")
    assert done[:3] == [{"unit": "A1", "act": "turn", "to": 5},
                        {"unit": "A1", "act": "door", "side": 5, "to": "open"},
                        {"unit": "A1", "act": "through"}]
    assert _label(game, "A1") == "4Q5"


def test_an_impulse_short_of_mf_opens_the_door_now_and_crosses_it_next() -> None:
    """Firepower 11.1.9, 11.1.3 (FPD-160): with only two MF left A1 cannot open the door and go
    through it too (one MF for the door, two for the crossing and the hex beyond); he opens it
    now and goes through in his next Impulse."""
    game = _game([("A1", "RFL", "A", "R4", 5, {})], extra=VICTORY.format(hexes='"4Q5"'))
    _close_all(game, "C")
    ph = _impulse(game, "A1")
    ph["spent"]["A1"] = 2
    opts = legal_advanced_actions(game)
    choice = make_ai("A", 1).choose(Decision("A", "action", options=opts), game.view("A"))
    assert choice == {"unit": "A1", "act": "door", "side": 5, "to": "open"}
    _do(game, choice)
    done = _play_impulse(game, "A", "A1")
    assert done[0] == {"unit": "A1", "act": "through"}


def test_upstairs_the_defender_opens_a_window_to_fire_out_of_it() -> None:
    """Firepower 11.1.9, 8.2.3 (FPD-160): B1 on the second floor of building A, every window
    closed; an enemy in the street is in sight through the window of his hex onto 4Z5. He opens
    it (and fires through it)."""
    game = _game([("B1", "RFL", "B", "AA5", 5, {"floor": 2}),
                  ("A1", "RFL", "A", "V7", 2, {"status": "stunned"})])
    _close_all(game, "A")
    done = _play_impulse(game, "B", "B1")
    assert isinstance(done[0], dict) and done[0]["act"] == "door" and done[0]["to"] == "open"
    assert _label(game, "B1") == "4AA5"
    assert any(isinstance(c, dict) and c.get("act") == "fire" for c in done)


def test_no_door_is_opened_for_nothing() -> None:
    """FPD-160: with no enemy in sight from the building (4Q1, as in the first test) and no
    objective a closed door stays closed. (An enemy in sight in the open is worth a door
    opened from the concealment inside, FPD-179.)"""
    game = _game([("B1", "RFL", "B", "R4", 5, {}), ("A1", "RFL", "A", "Q1", 1, {})])
    _close_all(game, "C")
    done = _play_impulse(game, "B", "B1")
    assert not any(isinstance(c, dict) and c.get("act") in ("door", "through") for c in done)


def test_upstairs_the_concealed_defender_opens_a_window_on_an_armed_enemy() -> None:
    """Firepower 12.2.4, 11.1.9 (FPD-179): B1 on the second floor of building A, every window
    closed; A1 in the street (4V7, not Stunned, facing away) is in sight through the window onto
    4Z5 and could turn and fire back. Inside the building B1 is concealed (+1 to the enemy's L
    fire); counted so, his shot from the window (crouching) is worth more than the fire it
    draws, and he crouches, opens the window and fires. Without the concealment the estimate
    keeps the window shut."""
    game = _game([("B1", "RFL", "B", "AA5", 5, {"floor": 2}),
                  ("A1", "RFL", "A", "V7", 5, {})])
    _close_all(game, "A")
    done = _play_impulse(game, "B", "B1")
    assert {"unit": "B1", "act": "door", "side": 5, "to": "open"} in done
    assert any(isinstance(c, dict) and c.get("act") == "fire" for c in done)


def test_the_threat_estimate_takes_the_fire_s_concealment_inside_a_building() -> None:
    """Firepower 12.2.4 (FPD-179, FPD-159): the AI's expected hits of A1's fire at B1 at an
    open window count the +1 the real fire takes (its preview's modifiers), once; on the roof
    (FPD-178) the building conceals nothing."""
    game = _game([("B1", "RFL", "B", "AA5", 5, {"floor": 2}),
                  ("A1", "RFL", "A", "V7", 2, {})])
    _impulse(game, "A1")
    fire = next(o for o in legal_advanced_actions(game) if isinstance(o, dict)
                and o.get("act") == "fire" and o.get("targets") == ["B1"]
                and o.get("after") == 0)
    real = game.view("A").rules.preview_fire("A1", fire).modifiers["B1"]
    assert [(m.name, m.value) for m in real] == [("target concealed", 1)]
    ai = make_ai("B", 1)
    view = game.view("B")
    ai.choose(Decision("B", "action", options=["end"]), view)
    sol, _mine, theirs = ai._sol(view)
    me = sol["B1"]
    got = dict((e.id, t) for e, t in ai._threats(view, me, theirs))
    c = card()
    rng = me.hex.distance(sol["A1"].hex)
    want = max(1 - (1 - combat.hit_probability(c.hit_number("RFL", mode, rng), 1)) ** n
               for mode, n in (("auto", 3), ("semi", 2)))
    assert abs(got["A1"] - want) < 1e-9
    assert ai._concealment(view, me) is not None
    assert ai._concealment(view, me.with_(hex=sol["A1"].hex)) is None  # a plan's street hex
    ai._floors["B1"] = (3, None)  # above the top floor: the roof
    assert ai._concealment(view, me) is None


def _setup_openings(game: Game) -> dict[str, bool]:
    """The defender AI's set-up choice of closed doors and windows (Firepower 8.2.5), checked
    by the set-up's own validation: name -> closed, for buildings A and C."""
    from hexwar.plugins.firepower.hidden_setup import check_openings, opening_name

    choice = make_ai("B", 1).choose(
        Decision("B", "firepower.openings", options=[{"closed": []}]), game.view("B"))
    closed = {opening_name(game, o) for o in check_openings(game, choice)}
    m = adv_map(game)
    return {opening_name(game, o): opening_name(game, o) in closed
            for o in m.openings.values() if m.building_of[o.inside] in ("A", "C")}


def test_at_set_up_the_defender_closes_the_ground_floor_toward_the_enemy() -> None:
    """Firepower 8.2.5, 11.1.10 (FPD-180): B1 holds the second floor of 4AA5 (building A);
    the attacker comes from the 5/6 side (lower columns): A1 in the street at 4V7 facing the
    building, A2 in building C (4R4). The ground floor's doors and windows toward the
    attacker's side (onto the Z column and 4AA7) are closed, so he must break in; those at
    the back (onto the BB and CC columns) stay open, the defender's ways out. B1's window
    onto 4Z5 is closed: A1 could fire back through it at least as well as B1 out of it.
    Building C, where the attacker stands, keeps every opening open (8.2.5)."""
    game = _game([("B1", "RFL", "B", "AA5", 5, {"floor": 2}),
                  ("A1", "RFL", "A", "V7", 2, {}), ("A2", "RFL", "A", "R4", 2, {})])
    got = _setup_openings(game)
    toward = ["4AA4-4Z3@1", "4AA4-4Z4@1", "4AA5-4Z4@1", "4AA6-4Z6@1", "4BB6-4AA7@1"]
    back = ["4AA4-4BB3@1", "4BB4-4CC5@1", "4BB5-4CC6@1", "4BB6-4CC7@1"]
    assert all(got[n] for n in toward), {n: got[n] for n in toward}
    assert not any(got[n] for n in back), {n: got[n] for n in back}
    assert got["4AA5-4Z5@2"]
    assert not any(closed for n, closed in got.items() if n.startswith(("4R", "4S")))


def test_at_set_up_the_defender_leaves_open_the_window_he_fires_out_of() -> None:
    """Firepower 8.2.5, 12.2.4 (FPD-180, FPD-179): as above, but A1 faces away from the
    building (he must turn to fire back): B1's shot out of his window onto 4Z5, concealed
    inside the building, is worth more than the fire it draws, so that window starts open;
    the ground floor toward the attacker is still closed."""
    game = _game([("B1", "RFL", "B", "AA5", 5, {"floor": 2}),
                  ("A1", "RFL", "A", "V7", 5, {}), ("A2", "RFL", "A", "R4", 2, {})])
    got = _setup_openings(game)
    assert not got["4AA5-4Z5@2"]
    assert got["4AA6-4Z5@2"]  # the next hex's window: no soldier of his there
    assert got["4AA5-4Z4@1"]


def test_the_defender_closes_the_door_the_enemy_fires_in_by() -> None:
    """Firepower 11.1.9 (FPD-182): B1, armed with a pistol, holds his objective 4R4 in
    building C; its door onto 4Q5 is open and three riflemen in the street (4H7, 4I6, 4I8,
    9-10 hexes off), beyond his pistol's reach, see him through it alone. He does not need it
    to fire: he closes it, which cuts their line of sight to him."""
    game = _game([("B1", "PST", "B", "R4", 5, {}), ("A1", "RFL", "A", "I6", 2, {}),
                  ("A2", "RFL", "A", "I8", 2, {}), ("A3", "RFL", "A", "H7", 2, {})],
                 extra=VICTORY.format(hexes='"4R4"'))
    done = _play_impulse(game, "B", "B1")
    assert done[0] == {"unit": "B1", "act": "door", "side": 5, "to": "close"}
    door = adv_map(game).opening(game.board.parse("4R4"), game.board.parse("4Q5"), 1)
    assert door is not None and data(game)["openings"][door.key] == "closed"


def test_a_door_he_fires_out_of_stays_open() -> None:
    """Firepower 11.1.9 (FPD-182): as above, but B1 carries a rifle: the door is the way his
    shots go out, worth more than the fire it lets in, so closing it is worth nothing to him
    (offered only "close" and "end", he ends)."""
    game = _game([("B1", "RFL", "B", "R4", 5, {}), ("A1", "RFL", "A", "I6", 2, {}),
                  ("A2", "RFL", "A", "I8", 2, {}), ("A3", "RFL", "A", "H7", 2, {})],
                 extra=VICTORY.format(hexes='"4R4"'))
    _impulse(game, "B1")
    close = {"unit": "B1", "act": "door", "side": 5, "to": "close"}
    assert close in legal_advanced_actions(game)
    choice = make_ai("B", 1).choose(Decision("B", "action", options=[close, "end"]),
                                    game.view("B"))
    assert choice == "end"


def test_a_door_the_ai_opened_this_turn_is_not_closed_again() -> None:
    """FPD-182, FPD-160: in the first test's position the AI itself opened that door this Turn
    (to go through it an Impulse later, say): it does not close it again meanwhile."""
    game = _game([("B1", "PST", "B", "R4", 5, {}), ("A1", "RFL", "A", "I6", 2, {}),
                  ("A2", "RFL", "A", "I8", 2, {}), ("A3", "RFL", "A", "H7", 2, {})],
                 extra=VICTORY.format(hexes='"4R4"'))
    _impulse(game, "B1")
    close = {"unit": "B1", "act": "door", "side": 5, "to": "close"}
    ai = make_ai("B", 1)
    view = game.view("B")
    ai.choose(Decision("B", "action", options=["end"]), view)
    ai._note_opened(view, {"unit": "B1", "act": "door", "side": 5, "to": "open"})
    assert ai.choose(Decision("B", "action", options=[close, "end"]), view) == "end"
    assert make_ai("B", 1).choose(Decision("B", "action", options=[close, "end"]),
                                  view) == close


# -- the plans' crossings (ai_doors.crossing): the rules a plan may not count on breaking ----------


def _crossing(game: Game, a: str, b: str, floor: int = 1,
              windows: dict[str, int] | None = None) -> Crossing | None:
    def is_open(k: str) -> bool:
        return data(game).get("openings", {}).get(k) != "closed"

    return crossing(adv_map(game), game.board.parse(a), game.board.parse(b), floor, is_open,
                    frozenset(), windows or {})


def test_a_plan_does_not_cross_a_closed_opening_from_outside() -> None:
    """Firepower 11.1.9, 11.1.10: building C's door 4R4-4Q5 closed. From inside (4R4) a plan may
    open it and go through; from outside (4Q5) it is broken open by a roll, not opened, so no
    plan goes in by it. Open, it is crossed either way."""
    game = _game([("B1", "RFL", "B", "R4", 5, {})])
    _close_all(game, "C")
    out = _crossing(game, "4R4", "4Q5")
    assert out is not None and out.opens and out.opening.kind == "door"
    assert _crossing(game, "4Q5", "4R4") is None
    data(game)["openings"].clear()
    into = _crossing(game, "4Q5", "4R4")
    assert into is not None and not into.opens


def test_a_plan_does_not_cross_a_window_four_soldiers_crossed_this_impulse_phase() -> None:
    """Firepower 11.1.3: no more than four soldiers cross one window in an Impulse Phase; a door
    takes any number. Building C's window 4R5-4Q5 and door 4R4-4Q5, open."""
    game = _game([("B1", "RFL", "B", "R5", 5, {})])
    m = adv_map(game)
    win = m.opening(game.board.parse("4R5"), game.board.parse("4Q5"), 1)
    door = m.opening(game.board.parse("4R4"), game.board.parse("4Q5"), 1)
    assert win is not None and win.kind == "window" and door is not None
    assert _crossing(game, "4R5", "4Q5", windows={win.key: 3}) is not None
    assert _crossing(game, "4R5", "4Q5", windows={win.key: 4}) is None
    assert _crossing(game, "4Q5", "4R5", windows={win.key: 4}) is None
    assert _crossing(game, "4R4", "4Q5", windows={door.key: 9}) is not None


def test_a_plan_goes_through_no_opening_from_an_upper_floor() -> None:
    """Firepower 11.1.3, 11.1.11 (FPD-176): only the ground floor's doors and windows are gone
    through; from floor 2 of building A (4AA4, over the ground floor's door onto 4Z4) the way
    out is a climb down the wall, which the plans do not make (FPD-177)."""
    game = _game([("B1", "RFL", "B", "AA4", 5, {"floor": 2})])
    assert _crossing(game, "4AA4", "4Z4") is not None
    assert _crossing(game, "4AA4", "4Z4", floor=2) is None
    assert _crossing(game, "4AA5", "4Z5", floor=2) is None  # floor 2's own window
