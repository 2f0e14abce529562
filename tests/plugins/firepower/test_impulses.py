"""The Impulse Phase as the system plays it: Actions, MF, stacks, markers, illegal Actions
(Firepower 6.1-6.6)."""

from __future__ import annotations

from typing import Any

import pytest

from hexwar.core.engine.game import Game
from hexwar.core.errors import RulesError
from hexwar.core.types import total
from hexwar.plugins.firepower import actions, impulses, state


def act(game: Game, **choice: Any) -> dict[str, Any]:
    return actions.apply_action(game, choice)


def phase(game: Game, side: str, *units: str) -> None:
    impulses.start_impulse_phase(game, side)
    impulses.begin_impulse(game, units)


def spent(game: Game, uid: str) -> int:
    return int(state.data(game)["phase"]["spent"].get(uid, 0))


def illegal(game: Game, choice: Any, rule: str) -> None:
    """Not offered, refused by the pure check citing ``rule``, and nothing changes."""
    before = game.state.digest()
    assert choice not in actions.legal_actions(game)
    with pytest.raises(RulesError) as e:
        actions.apply_action(game, choice)
    assert e.value.rule == rule, e.value
    assert game.state.digest() == before


def test_fp_6_prone_soldier_stands_turns_and_enters(fp_game: Any) -> None:
    g = fp_game([("A1", "RFL", "A", "C2", 1, {"posture": "prone"}), ("B1", "RFL", "B", "M12", 1)])
    phase(g, "A", "A1")
    act(g, unit="A1", act="posture", to="stand")
    act(g, unit="A1", act="turn", to=4)
    act(g, unit="A1", act="enter")
    u = g.state.units["A1"]
    assert spent(g, "A1") == 4 and u.state["posture"] == "stand"
    assert g.board.label(u.hex) == "1C3"
    assert actions.legal_actions(g) == ["end"]  # no MF left


def test_fp_7_hill_hexsides_up_and_down(fp_game: Any) -> None:
    g = fp_game([("A1", "RFL", "A", "C2", 4), ("B1", "RFL", "B", "M12", 1)],
                hexes=[{"at": "C3", "height": 1}])
    phase(g, "A", "A1")
    up = act(g, unit="A1", act="enter")
    assert up["cost"] == 2 and len(up["parts"]) == 2   # cross the hexside 1 + enter 1
    down = act(g, unit="A1", act="enter")
    assert down["cost"] == 2
    assert spent(g, "A1") == 4 and g.board.label(g.state.units["A1"].hex) == "1C4"


def test_fp_8_stack_fires_twice_after_breaking_up(fp_game: Any) -> None:
    g = fp_game([("S1", "RFL", "A", "C2", 4), ("S2", "RFL", "A", "C2", 4),
                 ("B1", "RFL", "B", "C9", 1)])
    g.dice.force(*[10] * 4)
    phase(g, "A", "S1", "S2")
    r1 = act(g, unit="S1", act="fire", mode="semi", targets=["B1"], after=1)
    act(g, unit="S1", act="posture", to="prone")
    act(g, unit="S2", act="enter")
    r2 = act(g, unit="S2", act="fire", mode="semi", targets=["B1"], after=1)
    act(g, unit="S2", act="posture", to="prone")
    assert spent(g, "S1") == 3 and spent(g, "S2") == 4
    assert total(r1["ctx"].modifiers["B1"]) == 1 and total(r2["ctx"].modifiers["B1"]) == 2


def test_fp_101_one_firer_per_stack(fp_game: Any) -> None:
    g = fp_game([("S1", "RFL", "A", "C2", 4), ("S2", "RFL", "A", "C2", 4),
                 ("S3", "RFL", "A", "C2", 4), ("B1", "RFL", "B", "C9", 1)])
    g.dice.force(10, 10)
    phase(g, "A", "S1", "S2", "S3")
    act(g, unit="S1", act="fire", mode="semi", targets=["B1"], after=0)
    illegal(g, {"unit": "S2", "act": "fire", "mode": "semi", "targets": ["B1"], "after": 0},
            "Firepower 6.3.1.3")


def test_fp_102_one_combat_action_per_impulse_phase(fp_game: Any) -> None:
    g = fp_game([("A1", "RFL", "A", "C2", 4), ("B1", "RFL", "B", "C3", 1, {"posture": "prone"})])
    g.dice.force(10, 10)
    phase(g, "A", "A1")
    act(g, unit="A1", act="fire", mode="semi", targets=["B1"], after=0)
    illegal(g, {"act": "melee", "units": ["A1"], "hex": "1C3"}, "Firepower 6.2.5")
    illegal(g, {"unit": "A1", "act": "grenade", "hex": "1C3"}, "Firepower 6.2.5")


def test_fp_103_no_soldier_in_both_impulses(fp_game: Any) -> None:
    g = fp_game([("A1", "RFL", "A", "C2", 4), ("A2", "RFL", "A", "E2", 4),
                 ("B1", "RFL", "B", "M12", 1)])
    phase(g, "A", "A1")
    act(g, unit="A1", act="turn", to=3)
    impulses.begin_impulse(g, ["A2"])
    illegal(g, {"unit": "A1", "act": "turn", "to": 4}, "Firepower 6.2")
    with pytest.raises(RulesError) as e:
        impulses.check_impulse(g, "A", {"hex": "1C2", "units": ["A1"]})
    assert e.value.rule == "Firepower 6.2"
    assert {"hex": "1C2", "units": ["A1"]} not in impulses.impulse_options(g, "A")


def test_fp_104_announced_movement_after_firing(fp_game: Any) -> None:
    g = fp_game([("A1", "RFL", "A", "C2", 4), ("B1", "RFL", "B", "C9", 1)])
    g.dice.force(10, 10)
    phase(g, "A", "A1")
    act(g, unit="A1", act="enter")
    r = act(g, unit="A1", act="fire", mode="semi", targets=["B1"], after=1)
    act(g, unit="A1", act="posture", to="prone")
    assert total(r["ctx"].modifiers["B1"]) == 2 and spent(g, "A1") == 4


def test_more_movement_than_announced_is_illegal(fp_game: Any) -> None:
    g = fp_game([("A1", "RFL", "A", "C2", 4), ("B1", "RFL", "B", "C9", 1)])
    g.dice.force(10, 10)
    phase(g, "A", "A1")
    act(g, unit="A1", act="fire", mode="semi", targets=["B1"], after=0)
    illegal(g, {"unit": "A1", "act": "turn", "to": 3}, "Firepower 6.3.6")


def test_fp_14_one_rate_of_fire_per_impulse_phase(fp_game: Any) -> None:
    g = fp_game([("A1", "RFL", "A", "C2", 4), ("B1", "RFL", "B", "C9", 1)])
    phase(g, "A", "A1")
    state.data(g)["phase"]["modes"]["A1"] = "auto"
    with pytest.raises(RulesError) as e:
        actions.check_action(g, {"unit": "A1", "act": "fire", "mode": "semi", "targets": ["B1"]})
    assert e.value.rule == "Firepower 6.3.5.2"


def test_illegal_actions_are_neither_offered_nor_applied(fp_game: Any) -> None:
    g = fp_game([("A1", "RFL", "A", "C2", 4, {"posture": "prone"}),
                 ("A2", "RFL", "A", "E2", 1), ("B1", "RFL", "B", "C9", 1),
                 ("B2", "RFL", "B", "E6", 1), ("B3", "RFL", "B", "M3", 1)],
                hexes=[{"at": "E4", "height": 1}])
    phase(g, "A", "A1")
    act(g, unit="A1", act="turn", to=3)
    # cannot pay: entering costs 3 MF Prone, 3 left... spend 1 more, then 2 left
    act(g, unit="A1", act="turn", to=4)
    illegal(g, {"unit": "A1", "act": "enter"}, "Firepower 6.2")
    # a move not into the hex in front
    illegal(g, {"unit": "A1", "act": "enter", "hex": "1D3"}, "Firepower 6.2.1")
    # a shot out of arc (B3 is not in front of A1)
    illegal(g, {"unit": "A1", "act": "fire", "mode": "semi", "targets": ["B3"], "after": 0},
            "Firepower 6.3.3")
    # a soldier not in this Impulse
    illegal(g, {"unit": "A2", "act": "turn", "to": 4}, "Firepower 6.1")
    impulses.begin_impulse(g, ["A2"])
    act(g, unit="A2", act="turn", to=4)
    # out of sight: the hill at E4 lies between A2 (E2) and B2 (E6)
    illegal(g, {"unit": "A2", "act": "fire", "mode": "semi", "targets": ["B2"], "after": 0},
            "Firepower 6.3.4.1")


def test_an_illegal_answer_is_rejected_and_the_state_kept(fp_game: Any) -> None:
    g = fp_game([("A1", "RFL", "A", "C2", 4), ("B1", "RFL", "B", "C9", 1)])
    assert g.pending is not None and g.pending.kind == "board_side"
    g.answer("5/6")
    d = g.pending
    assert d is not None and d.kind == "impulse"
    side = d.side
    uid = "A1" if side == "A" else "B1"
    hexl = "1C2" if side == "A" else "1C9"
    g.answer({"hex": hexl, "units": [uid]})
    assert g.pending is not None and g.pending.kind == "action"
    before = g.state.digest()
    with pytest.raises(RulesError):
        g.answer({"unit": uid, "act": "turn", "to": g.state.units[uid].facing})
    with pytest.raises(RulesError):
        g.answer({"unit": uid, "act": "enter", "hex": "1A1"})
    assert g.state.digest() == before


def test_fp_22_suppression_removes_running_for_later_shots(fp_game: Any) -> None:
    g = fp_game([("L", "LMG", "A", "C2", 4), ("R", "RFL", "A", "E2", 4),
                 ("Y", "RFL", "B", "C9", 1, {"speed": "running"}), ("Z", "RFL", "B", "C9", 1)])
    phase(g, "A", "L")
    g.dice.force(*[10] * 8)
    first = act(g, unit="L", act="fire", mode="auto", targets=["Y"], after=0)
    assert any(m.rule == "Firepower 6.3.6.2.6" for m in first["ctx"].modifiers["Y"])
    assert g.state.units["Y"].state["status"] == "suppressed"
    assert g.state.units["Y"].state["speed"] == "normal"     # Firepower 6.4.3
    impulses.begin_impulse(g, ["R"])
    g.dice.force(10, 10)
    r = actions.check_action(g, {"unit": "R", "act": "fire", "mode": "semi", "targets": ["Y"],
                                "after": 0})
    import hexwar.plugins.firepower.combat as combat

    combat.step_hit_number(r["ctx"])
    assert not any(m.rule == "Firepower 6.3.6.2.6" for m in r["ctx"].mods_for(r["ctx"].soldiers["Y"]))


def _status(g: Game, uid: str) -> Any:
    return g.state.units[uid].state["status"]


def test_fp_95_stun_during_the_enemy_phase_case_1(fp_game: Any) -> None:
    g = fp_game([("A1", "RFL", "A", "C2", 4), ("Y", "RFL", "B", "C9", 1)])
    impulses.start_impulse_phase(g, "A")
    state.stun(g, "Y")
    impulses.end_impulse_phase(g, "A")
    assert _status(g, "Y") == "stunned"
    impulses.start_impulse_phase(g, "B")
    impulses.begin_impulse(g, ["Y"])
    with pytest.raises(RulesError) as e:
        actions.check_action(g, {"unit": "Y", "act": "turn", "to": 2})
    assert e.value.rule == "Firepower 6.2.8"
    impulses.end_impulse_phase(g, "B")
    assert _status(g, "Y") == "suppressed"
    impulses.start_impulse_phase(g, "A")
    assert _status(g, "Y") is None


def test_fp_95_stun_during_the_enemy_phase_case_2(fp_game: Any) -> None:
    g = fp_game([("A1", "RFL", "A", "C2", 4), ("Y", "RFL", "B", "C9", 1)])
    impulses.start_impulse_phase(g, "A")
    state.stun(g, "Y")
    assert g.state.units["Y"].state["posture"] == "prone"   # Firepower 6.4.4
    impulses.end_impulse_phase(g, "A")
    impulses.start_impulse_phase(g, "A")
    impulses.end_impulse_phase(g, "A")
    assert _status(g, "Y") == "stunned"
    impulses.start_impulse_phase(g, "B")
    assert _status(g, "Y") == "stunned"
    impulses.end_impulse_phase(g, "B")
    assert _status(g, "Y") == "suppressed"


def test_fp_96_suppression_removed_at_the_enemy_draw(fp_game: Any) -> None:
    g = fp_game([("A1", "RFL", "A", "C2", 4), ("Y", "RFL", "B", "C9", 1)])
    impulses.start_impulse_phase(g, "A")
    state.suppress(g, "Y")
    impulses.end_impulse_phase(g, "A")
    impulses.start_impulse_phase(g, "A")
    assert _status(g, "Y") is None


def test_fp_97_suppressed_soldier_in_his_own_phase(fp_game: Any) -> None:
    g = fp_game([("A1", "RFL", "A", "C8", 1), ("Y", "RFL", "B", "C2", 4)])
    impulses.start_impulse_phase(g, "A")
    state.suppress(g, "Y")
    impulses.end_impulse_phase(g, "A")
    phase(g, "B", "Y")
    assert actions.mf_left(g, state.data(g)["phase"], "Y") == 3
    r = actions.check_action(g, {"unit": "Y", "act": "fire", "mode": "semi", "targets": ["A1"]})
    assert any(m.rule == "Firepower 6.3.6.2.1" for m in r["ctx"].mods_for(r["ctx"].soldiers["A1"]))
    impulses.end_impulse_phase(g, "B")
    assert _status(g, "Y") == "suppressed"
    impulses.start_impulse_phase(g, "A")
    assert _status(g, "Y") is None


def test_fp_98_running_lasts_until_his_own_next_draw(fp_game: Any) -> None:
    g = fp_game([("A1", "RFL", "A", "C2", 4), ("B1", "RFL", "B", "M12", 1)])
    phase(g, "A", "A1")
    for _ in range(4):
        act(g, unit="A1", act="enter")
    assert g.state.units["A1"].state["speed"] == "running"
    impulses.end_impulse_phase(g, "A")
    impulses.start_impulse_phase(g, "B")
    assert g.state.units["A1"].state["speed"] == "running"
    impulses.end_impulse_phase(g, "B")
    impulses.start_impulse_phase(g, "A")
    assert g.state.units["A1"].state["speed"] == "normal"


def test_fp_99_three_hexes_is_not_running(fp_game: Any) -> None:
    g = fp_game([("A1", "RFL", "A", "C2", 4), ("B1", "RFL", "B", "M12", 1)])
    phase(g, "A", "A1")
    for _ in range(3):
        act(g, unit="A1", act="enter")
    assert g.state.units["A1"].state["speed"] == "normal"


def test_melee_resolution_on_the_board(fp_game: Any) -> None:
    g = fp_game([("A1", "RFL", "A", "C2", 4), ("A2", "RFL", "A", "C2", 4),
                 ("B1", "RFL", "B", "C3", 1)])
    phase(g, "A", "A1", "A2")
    assert {"act": "melee", "units": ["A1", "A2"], "hex": "1C3"} in actions.legal_actions(g)
    illegal(g, {"unit": "A1", "act": "enter"}, "Firepower 6.2.1")
    g.dice.force(7)   # 7 - 2 = 5: the attackers win (Firepower 6.5.1, Firepower 6.5.2)
    r = act(g, act="melee", units=["A1", "A2"], hex="1C3")
    assert r["winner"] == "attacker"
    assert g.state.units["B1"].state["eliminated"]
    assert g.board.label(g.state.units["A1"].hex) == "1C3"
    illegal(g, {"unit": "A1", "act": "turn", "to": 1}, "Firepower 6.5.3")


def test_no_exit_from_the_mapboard(fp_game: Any) -> None:
    g = fp_game([("A1", "RFL", "A", "C1", 1), ("B1", "RFL", "B", "M12", 1)])
    phase(g, "A", "A1")
    illegal(g, {"unit": "A1", "act": "enter"}, "Firepower 4.9")


def test_fence_must_be_crossed_before_leaving_on_its_far_side(fp_game: Any) -> None:
    g = fp_game([("A1", "RFL", "A", "C2", 4, {"side": 1}), ("B1", "RFL", "B", "M12", 1)],
                hexes=[{"at": "C2", "features": ["fence:3-6"]}])
    phase(g, "A", "A1")
    illegal(g, {"unit": "A1", "act": "enter"}, "Firepower 6.2.3")
    act(g, unit="A1", act="cross")
    act(g, unit="A1", act="enter")
    assert spent(g, "A1") == 2


def test_grenade_on_the_board_stuns_and_suppresses(fp_game: Any) -> None:
    g = fp_game([("A1", "RFL", "A", "C2", 4), ("B1", "RFL", "B", "C5", 1),
                 ("B2", "RFL", "B", "C6", 1)])
    phase(g, "A", "A1")
    g.dice.force(1, 9, 9)   # throw hits 1C5; B1 survives (stunned); B2 adjacent survives
    act(g, unit="A1", act="grenade", hex="1C5")
    assert _status(g, "B1") == "stunned" and g.state.units["B1"].state["posture"] == "prone"
    assert _status(g, "B2") == "suppressed"
