"""The MBT AI's infantry and smoke in the Advanced Game, the parts of issue 11's "the AI" not
tested elsewhere: squads ride a carrier while the enemy is far and get off before the move when it
is close (MBT 15.3.2, MBTD-120), a squad in good cover near the enemy takes full cover and gives
it up once no enemy is near (MBT 15.5), and exhaust smoke covers a move near the enemy
(MBT 15.7). Close assault (MBT 14.5, 14.6), unloading into cover and discharger smoke are tested
in ``test_ai_assault.py`` and ``test_ai_leg_units.py``."""

from __future__ import annotations

from typing import Any

import pytest

from hexwar.core.engine.decisions import Decision
from hexwar.plugins.mbt import transport
from hexwar.plugins.mbt.ai import MbtAI

ADV = ["mbt.advanced"]


def _ask(g: Any, side: str, kind: str, options: list[Any], **context: Any) -> Any:
    return MbtAI(side, 1).choose(Decision(side, kind, options=options, context=context),
                                 g.view(side))


def _carrier(make_game: Any, enemy_at: str, **kw: Any) -> Any:
    g = make_game([("C1", "Transport APC", "NATO", "9J12", 1),
                   ("R1", "Rifle Squad", "NATO", "9J12", 1),
                   ("S1", "T-72M1", "Soviet", enemy_at, 4)], options=ADV, **kw)
    g.state.units["S1"].state["spotted"] = "FIRED"  # seen (MBT 13.1)
    return g


@pytest.mark.parametrize(("enemy_at", "rides"), [("9J2", True), ("9J9", False)])
def test_a_squad_rides_while_the_enemy_is_far_15_3_2_3(make_game: Any, enemy_at: str,
                                                        rides: bool) -> None:
    """MBT 15.3.2.3: a squad in its carrier's hex takes M orders to be loaded while no known
    enemy is within ``dismount_range`` (5) hexes; with one 3 hexes off it does not wait for a
    ride."""
    g = _carrier(make_game, enemy_at)
    view = g.view("NATO")
    ai = MbtAI("NATO", 1)
    enemies = [e for e in ai._known_enemies(view)]
    assert [e.id for e in enemies] == ["S1"]
    assert ai._wants_a_ride(view, view.unit("R1"), enemies) is rides


@pytest.mark.parametrize(("enemy_at", "answer"), [("9J2", ["load", "R1"]),
                                                  ("9J9", "done")])
def test_the_carrier_loads_before_moving_only_while_the_enemy_is_far_15_3_2(
        make_game: Any, enemy_at: str, answer: Any) -> None:
    """MBT 15.3.2: before its move the carrier takes the squad aboard with the enemy far off,
    and not with it close."""
    g = _carrier(make_game, enemy_at)
    got = _ask(g, "NATO", "mbt.transport", ["done", ["load", "R1"]], unit="C1", when="before")
    assert got == answer


def test_squads_get_off_before_the_move_when_the_enemy_is_close_15_3_2(make_game: Any) -> None:
    """MBT 15.3.2 (MBTD-120): with a known enemy within ``dismount_range``, the squads get off
    before the carrier moves (they do not ride into the enemy's fire)."""
    g = _carrier(make_game, "9J9")
    c1, r1 = g.state.units["C1"], g.state.units["R1"]
    c1.state["order"] = r1.state["order"] = "M"
    transport.load(g, c1, r1)
    got = _ask(g, "NATO", "mbt.transport", ["done", ["unload", "R1"]], unit="C1", when="before")
    assert got == ["unload", "R1"]
    far = _carrier(make_game, "9J2")
    c1, r1 = far.state.units["C1"], far.state.units["R1"]
    c1.state["order"] = r1.state["order"] = "M"
    transport.load(far, c1, r1)
    assert _ask(far, "NATO", "mbt.transport", ["done", ["unload", "R1"]], unit="C1",
                when="before") == "done"


@pytest.mark.parametrize(("terrain", "enemy_at", "digs_in"),
                         [("woods", "9J9", True), ("clear", "9J9", False),
                          ("woods", "9J1", False)])
def test_a_squad_in_good_cover_near_the_enemy_takes_full_cover_15_5(
        make_game: Any, terrain: str, enemy_at: str, digs_in: bool) -> None:
    """MBT 15.5: a leg unit in woods with a known enemy within ``dismount_range`` takes full
    cover; in the open, or with the enemy far, it moves instead."""
    g = make_game([("R1", "Rifle Squad", "NATO", "9J12", 1),
                   ("S1", "T-72M1", "Soviet", enemy_at, 4)], options=ADV,
                  terrain={"9J12": terrain})
    g.state.units["S1"].state["spotted"] = "FIRED"
    got = _ask(g, "NATO", "mbt.move_unit", ["done", "R1", ["full_cover", "R1"]])
    assert got == (["full_cover", "R1"] if digs_in else "R1")


@pytest.mark.parametrize(("enemy_at", "answer"), [("9J9", "keep"), ("9J1", "R1")])
def test_full_cover_is_given_up_once_no_enemy_is_near_15_5(make_game: Any, enemy_at: str,
                                                            answer: str) -> None:
    """MBT 15.5: the full cover marker stays while a known enemy is within 10 hexes, and is
    taken off (the squad may move and fire again) once none is."""
    g = make_game([("R1", "Rifle Squad", "NATO", "9J12", 1),
                   ("S1", "T-72M1", "Soviet", enemy_at, 4)], options=ADV,
                  terrain={"9J12": "woods"})
    g.state.units["S1"].state["spotted"] = "FIRED"
    g.state.units["R1"].state["full_cover"] = True
    assert _ask(g, "NATO", "mbt.full_cover_off", ["keep", "R1"]) == answer


@pytest.mark.parametrize(("enemy_at", "lays"), [("9A12", True), ("9T20", False)])
def test_exhaust_smoke_covers_a_move_near_the_enemy_15_7(make_game: Any, enemy_at: str,
                                                         lays: bool) -> None:
    """MBT 15.7: after a move within 15 hexes of a known enemy the AI lays the longest track of
    exhaust smoke it may; far from any, none."""
    g = make_game([("N1", "T-72M1", "Soviet", "9A1", 1),
                   ("S1", "Leopard 1A4", "NATO", enemy_at, 4)], options=ADV)
    g.state.units["S1"].state["spotted"] = "FIRED"
    assert g.view("Soviet").unit("S1").hex is not None  # known
    tracks = [["9J12"], ["9J13", "9J12"], ["9J14", "9J13", "9J12"]]
    got = _ask(g, "Soviet", "mbt.exhaust", ["none", *tracks], unit="N1")
    assert got == (tracks[2] if lays else "none")
