"""Audit tests: the turn as the system plays it (Firepower 5, Firepower 6.1), melee and blast on
the board with the worked examples' numbers (FP-83, FP-84, FP-86 to FP-88), and the line-of-sight
explanations."""

from __future__ import annotations

from typing import Any

import pytest

from hexwar.core.engine.game import Game
from hexwar.core.errors import RulesError
from hexwar.core.hexgrid import Hex
from hexwar.core.los import line_of_sight
from hexwar.plugins.firepower import actions, combat, impulses, state, victory
from hexwar.plugins.firepower.los import FirepowerLos
from hexwar.plugins.firepower.soldiers import Soldier
from hexwar.plugins.firepower.tables import card
from hexwar.plugins.firepower.terrain import FpMap

C = card()


def _ph(g: Game) -> dict[str, Any]:
    ph: dict[str, Any] = state.data(g)["phase"]
    return ph


def _st(g: Game, uid: str, key: str) -> Any:
    return g.state.units[uid].state[key]


# -- the turn: Mix, blind draws, two Impulses each (Firepower 3.1-3.2, Firepower 5, Firepower 6.1) -

THREE_A_SIDE = [("A1", "RFL", "A", "B2", 1), ("A2", "RFL", "A", "B6", 1),
                ("A3", "RFL", "A", "B10", 1), ("B1", "RFL", "B", "O2", 1),
                ("B2", "RFL", "B", "O6", 1), ("B3", "RFL", "B", "O10", 1)]


def test_each_draw_gives_one_side_exactly_two_impulses_of_different_soldiers(
        fp_game: Any) -> None:
    g = fp_game(THREE_A_SIDE, seed=3)
    g.answer("5/6")
    sides = []
    for draw in range(6):
        d = g.pending
        assert d is not None and d.kind == "impulse"
        assert state.data(g)["drawn"] == draw + 1 and len(state.data(g)["cup"]) == 5 - draw
        side = d.side
        sides.append(side)
        for n, uid in enumerate((f"{side}1", f"{side}2")):
            d = g.pending
            assert d is not None and d.kind == "impulse" and d.side == side
            assert _ph(g)["impulse"] == n and _ph(g)["side"] == side
            g.answer({"hex": g.board.label(g.state.units[uid].hex), "units": [uid]})
            assert g.pending is not None and g.pending.kind == "action"
            assert g.pending.context["units"] == [uid]
            g.answer("end")
        # two Impulses done: the next decision belongs to the next draw (or the game is over)
        if draw < 5:
            assert state.data(g)["drawn"] == draw + 2
            assert _ph(g)["impulse"] == 0 and _ph(g)["used"] == []
    assert sorted(sides) == ["A"] * 3 + ["B"] * 3   # three sequence units a side (Firepower 2.3)
    assert g.pending is None and g.state.phase == "over"


def test_a_third_impulse_is_never_offered(fp_game: Any) -> None:
    g = fp_game(THREE_A_SIDE, seed=4)
    g.answer("5/6")
    d = g.pending
    assert d is not None
    side, drawn = d.side, state.data(g)["drawn"]
    for uid in (f"{side}1", f"{side}2"):
        g.answer({"hex": g.board.label(g.state.units[uid].hex), "units": [uid]})
        g.answer("end")
    # the third soldier is still fresh, but the Impulse Phase is over: a new draw has been made
    assert state.data(g)["drawn"] == drawn + 1
    assert f"{side}3" not in _ph(g)["used"]


def test_marker_timing_at_each_draw_and_phase_end(fp_game: Any) -> None:
    """Firepower 6.1.1: speed markers of the drawing side go at its draw; Firepower 6.1.2: the
    other side's Suppressed markers go at the draw; Firepower 6.1.3: the phasing side's Stunned
    become Suppressed when its Impulse Phase ends (docs/decisions.md FPD-10). Checked at every
    transition of a whole Turn."""
    checked = {"same": 0, "other": 0}
    for seed in range(5, 9):
        _one_turn_of_markers(fp_game(THREE_A_SIDE, seed=seed), checked)
    assert checked["same"] + checked["other"] == 4 * 5 and min(checked.values()) > 0


def _one_turn_of_markers(g: Game, checked: dict[str, int]) -> None:
    g.answer("5/6")
    prev: str | None = None
    while g.pending is not None:
        side = g.pending.side
        other = "B" if side == "A" else "A"
        if prev is not None:
            pother = "B" if prev == "A" else "A"
            # Firepower 6.1.3 converts only the phasing side's Stuns; Firepower 6.1.2 never removes a Stun
            assert _st(g, f"{pother}2", "status") == "stunned"
            if side == prev:
                checked["same"] += 1
                assert _st(g, f"{side}1", "speed") == "normal"        # Firepower 6.1.1: removed
                assert _st(g, f"{pother}1", "speed") == "running"     # not his side's draw
                assert _st(g, f"{pother}3", "status") is None          # Firepower 6.1.2: removed
                assert _st(g, f"{prev}3", "status") == "suppressed"   # Firepower 6.1.3, own: kept
            else:
                checked["other"] += 1
                assert _st(g, f"{side}1", "speed") == "normal"        # Firepower 6.1.1 (the enemy's)
                assert _st(g, f"{prev}1", "speed") == "running"       # stays till his draw
                assert _st(g, f"{prev}3", "status") is None            # Firepower 6.1.3 then Firepower 6.1.2
                assert _st(g, f"{side}3", "status") == "suppressed"   # own: kept
        # during this Impulse Phase: mark markers as fire and movement would leave them
        g.state.units[f"{side}1"].state["speed"] = "running"
        g.state.units[f"{other}1"].state["speed"] = "running"
        state.stun(g, f"{side}3")
        state.stun(g, f"{other}2")
        state.suppress(g, f"{other}3")
        g.answer("pass")
        if g.pending is not None:   # the Stun of the phasing side became Suppressed (Firepower 6.1.3)
            assert g.pending.side != side or _st(g, f"{side}3", "status") == "suppressed"
        prev = side


def test_stunned_soldiers_are_not_offered_an_impulse(fp_game: Any) -> None:
    g = fp_game(THREE_A_SIDE, seed=6)
    impulses.start_impulse_phase(g, "A")
    state.stun(g, "A1")
    opts = impulses.impulse_options(g, "A")
    assert all("A1" not in o["units"] for o in opts)


# -- melee on the board (Firepower 6.5) ------------------------------------------------------------

def _melee_game(fp_game: Any, n_att: int, n_def: int) -> Game:
    units: list[tuple[Any, ...]] = [(f"A{i}", "RFL", "A", "C2", 4) for i in range(1, n_att + 1)]
    units += [(f"B{i}", "RFL", "B", "C3", 1) for i in range(1, n_def + 1)]
    g: Game = fp_game(units)
    impulses.start_impulse_phase(g, "A")
    impulses.begin_impulse(g, [f"A{i}" for i in range(1, n_att + 1)])
    return g


def test_fp_83_three_attackers_win_on_a_nine(fp_game: Any) -> None:
    g = _melee_game(fp_game, 3, 1)
    g.dice.force(9)                                   # 9 - 4 = 5 <= 5
    r = actions.apply_action(g, {"act": "melee", "units": ["A1", "A2", "A3"], "hex": "1C3"})
    assert r["winner"] == "attacker"
    assert _st(g, "B1", "eliminated") is True
    for uid in ("A1", "A2", "A3"):
        assert g.board.label(g.state.units[uid].hex) == "1C3"
        with pytest.raises(RulesError) as e:          # Firepower 6.5.3: they stop acting
            actions.check_action(g, {"unit": uid, "act": "turn", "to": 2})
        assert e.value.rule == "Firepower 6.5.3"
    assert actions.legal_actions(g) == ["end"]
    assert victory.victory_points(g)["A"] == 1


def test_fp_84_one_attacker_loses_against_two_on_a_four(fp_game: Any) -> None:
    g = _melee_game(fp_game, 1, 2)
    g.dice.force(4)                                   # 4 + 2 = 6 > 5
    r = actions.apply_action(g, {"act": "melee", "units": ["A1"], "hex": "1C3"})
    assert r["winner"] == "defender"
    assert _st(g, "A1", "eliminated") is True and g.state.units["A1"].hex is None
    assert not _st(g, "B1", "eliminated") and not _st(g, "B2", "eliminated")
    assert victory.victory_points(g) == {"A": 0, "B": 1}


def test_fp_85_two_against_two_on_the_board(fp_game: Any) -> None:
    for roll, winner in ((5, "attacker"), (6, "defender")):
        g = _melee_game(fp_game, 2, 2)
        g.dice.force(roll)
        r = actions.apply_action(g, {"act": "melee", "units": ["A1", "A2"], "hex": "1C3"})
        assert r["winner"] == winner


def test_melee_needs_one_mf_after_entering(fp_game: Any) -> None:
    g = fp_game([("A1", "RFL", "A", "C2", 1, {"posture": "prone"}),
                 ("B1", "RFL", "B", "C3", 1)])
    impulses.start_impulse_phase(g, "A")
    impulses.begin_impulse(g, ["A1"])
    actions.apply_action(g, {"unit": "A1", "act": "turn", "to": 4})
    before = g.state.digest()
    with pytest.raises(RulesError) as e:               # Prone: enter 3 + melee 1 > 3 left
        actions.apply_action(g, {"act": "melee", "units": ["A1"], "hex": "1C3"})
    assert "MF" in str(e.value) and g.state.digest() == before


# -- grenade blast rolls of the worked examples (Firepower 6.3.6.3.2.2, Firepower 6.4.2) -----------

AREA = Hex(0, 0).within(10)


def _blast(target: Soldier, faces: tuple[int, ...]) -> combat.FireContext:
    thrower = Soldier("t", "A", Hex(0, -3), 4, "RFL")
    it = iter(faces)
    ctx = combat.FireContext("grenade", C, FpMap.plain(AREA), {"t": thrower, target.id: target},
                             thrower, "HGN", "throw", lambda purpose: next(it),
                             target_hex=Hex(0, 0))
    return combat.run(ctx)


def test_fp_86_adjacent_standing_soldier_rolls_2_then_3() -> None:
    s = Soldier("s", "B", Hex(0, 1), 1)
    hit = _blast(s, (1, 2))                    # throw 1 hits the impact hex; blast roll 2
    assert hit.blast == [{"unit": "s", "distance": 1, "roll": 2, "modified": 5,
                          "result": "eliminated"}]
    miss = _blast(s, (1, 3))                   # 3 + 3 = 6: missed, 2 + 3 = 5 -> Suppressed
    assert miss.blast[0]["modified"] == 6 and miss.suppressed == ["s"] and not miss.eliminated


def test_fp_87_two_hexes_away_rolls_1_then_2() -> None:
    s = Soldier("s", "B", Hex(0, 2), 1)
    assert _blast(s, (1, 1)).eliminated == ["s"]            # 1 + 4 = 5
    miss = _blast(s, (1, 2))                                # 2 + 4 = 6, not Suppressed
    assert miss.blast[0]["result"] == "no effect" and miss.suppressed == []


def test_fp_88_prone_adjacent_rolls_3() -> None:
    miss = _blast(Soldier("s", "B", Hex(0, 1), 1, posture="prone"), (1, 3))
    assert miss.blast[0]["modified"] == 8 and miss.blast[0]["result"] == "no effect"


# -- the line-of-sight explanation names each hex and what it does (Firepower 6.3.4, Firepower 6.3.6.2.5) ---

def test_los_reasons_name_trees_hedges_and_blocks(fp_game: Any) -> None:
    g: Game = fp_game([("A1", "RFL", "A", "C2", 4)],
                      hexes=[{"at": "C3", "terrain": "tree"},
                             {"at": "C4", "features": ["hedge:2-5"]},
                             {"at": "C5", "features": ["fence:2-5"]}])
    board, rules = g.board, g.los_rules
    assert isinstance(rules, FirepowerLos)
    a, b = board.parse("1C2"), board.parse("1C7")

    def los(**data: Any) -> Any:
        return line_of_sight(board, a, b, rules, data, exhaustive=True)

    r = los(firer_posture="stand", target_posture="stand")
    text = " | ".join(r.reasons(board))
    assert not r.blocked and r.modifier == 2
    assert "1C3: tree hex (" in text and "1C4: hedge picture crossed (" in text
    prone = los(firer_posture="stand", target_posture="prone")
    assert prone.blocked and any("1C5" in x and "Firepower 6.3.4.2" in x
                                 for x in prone.reasons(board))
    friendly = los(firer_posture="crouch", target_posture="stand",
                   friendly={board.parse("1C6"): "stand"})
    assert friendly.blocked
    assert any("1C6" in x and "friendly soldiers (stand)" in x for x in friendly.reasons(board))


def test_a_stunned_soldier_cannot_be_named_for_an_impulse(fp_game: Any) -> None:
    g = fp_game(THREE_A_SIDE, seed=6)
    impulses.start_impulse_phase(g, "A")
    state.stun(g, "A1")
    before = g.state.digest()
    with pytest.raises(RulesError) as e:
        impulses.check_impulse(g, "A", {"hex": "1B2", "units": ["A1"]})
    assert e.value.rule == "Firepower 6.2.8" and "Stunned" in str(e.value)
    assert g.state.digest() == before


def test_fp_91_spread_into_a_hex_hidden_behind_the_hill_is_a_dud() -> None:
    # The target hex is a hill: the thrower sees it, but not the hex beyond it (Firepower 6.3.4.1), so a
    # spread there (roll 4: straight on, stand-in diagram) is a dud (Firepower 6.3.6.3.2.1).
    from hexwar.plugins.firepower.terrain import HILL

    m = FpMap.plain(AREA, level={Hex(0, 4): HILL})
    thrower = Soldier("t", "A", Hex(0, 0), 4, "RFL")
    victim = Soldier("v", "B", Hex(0, 5), 1)
    it = iter((9, 4))
    ctx = combat.run(combat.FireContext("grenade", C, m, {"t": thrower, "v": victim}, thrower,
                                        "HGN", "throw", lambda purpose: next(it),
                                        target_hex=Hex(0, 4)))
    assert ctx.throw_modified == 9 and ctx.spread_roll == 4
    assert ctx.outcome == "dud (blocked from the thrower's line of sight)"
    assert ctx.impact is None and ctx.eliminated == [] and ctx.blast == []


def test_fp_107_on_the_board_enemies_never_block_friends_do(fp_game: Any) -> None:
    g = fp_game([("A1", "RFL", "A", "C2", 4), ("A2", "RFL", "A", "E2", 4),
                 ("B1", "RFL", "B", "C6", 1), ("B2", "RFL", "B", "C4", 1)])
    impulses.start_impulse_phase(g, "A")
    impulses.begin_impulse(g, ["A1"])
    shot = {"unit": "A1", "act": "fire", "mode": "semi", "targets": ["B1"], "after": 0}
    actions.check_action(g, shot)                      # B2 (an enemy) stands in between
    g.state.units["A2"].hex = g.board.parse("1C3")     # a Standing friend in between
    with pytest.raises(RulesError) as e:
        actions.check_action(g, shot)
    assert e.value.rule == "Firepower 6.3.4.3"
    g.state.units["A2"].state["posture"] = "crouch"   # lower than the Standing firer
    actions.check_action(g, shot)


@pytest.mark.parametrize(("choice", "words"), [
    ({"hex": "1B2", "units": ["A1", "A2"]}, "one hex"),          # two hexes (Firepower 6.1)
    ({"hex": "1B2", "units": ["A1", "A1"]}, "once"),
    ({"hex": "1O2", "units": ["B1"]}, "not a soldier of A"),     # an enemy soldier
    ({"hex": "1B2", "units": []}, "once"),
    ("A1", "names a hex"),
])
def test_an_impulse_is_the_soldiers_of_one_hex(fp_game: Any, choice: Any, words: str) -> None:
    g = fp_game(THREE_A_SIDE, seed=6)
    impulses.start_impulse_phase(g, "A")
    before = g.state.digest()
    with pytest.raises(RulesError) as e:
        impulses.check_impulse(g, "A", choice)
    assert words in str(e.value) and e.value.rule == "Firepower 6.1"
    assert g.state.digest() == before


def test_a_stack_may_act_together_or_one_soldier_of_it(fp_game: Any) -> None:
    # Firepower 6.2.6 (docs/decisions.md FPD-11): the whole stack, or part of it, is one Impulse
    g = fp_game([("A1", "RFL", "A", "C2", 4), ("A2", "RFL", "A", "C2", 4),
                 ("B1", "RFL", "B", "M12", 1)])
    impulses.start_impulse_phase(g, "A")
    opts = impulses.impulse_options(g, "A")
    assert {"hex": "1C2", "units": ["A1", "A2"]} in opts
    assert {"hex": "1C2", "units": ["A2"]} in opts
    impulses.begin_impulse(g, impulses.check_impulse(g, "A", {"hex": "1C2", "units": ["A1", "A2"]}))
    actions.apply_action(g, {"unit": "A1", "act": "enter"})     # the stack breaks up
    actions.apply_action(g, {"unit": "A2", "act": "turn", "to": 3})
    actions.apply_action(g, {"unit": "A1", "act": "enter"})     # interleaved (Firepower 6.6)
    assert g.board.label(g.state.units["A1"].hex) == "1C4"
    assert g.state.units["A2"].facing == 3


def test_fp_15_a_grenade_action_is_one_throw_at_one_hex() -> None:
    thrower = Soldier("t", "A", Hex(0, 0), 4, "RFL")
    purposes: list[str] = []

    def roll(purpose: str) -> int:
        purposes.append(purpose)
        return 1

    ctx = combat.run(combat.FireContext("grenade", C, FpMap.plain(AREA), {"t": thrower}, thrower,
                                        "HGN", "throw", roll, target_hex=Hex(0, 4)))
    assert ctx.outcome == "hit" and purposes == ["t grenade at " + ctx.map.label(Hex(0, 4))]
    assert C.weapons["HGN"].throw == 1
