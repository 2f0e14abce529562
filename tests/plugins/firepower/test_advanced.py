"""The Advanced Game's first part (plugin ``firepower.advanced``): squads with their own sequence
units and Impulses (Firepower 9.1, 9.2), unlimited Impulses before the first combat
(Firepower 11.3.2), Hit the Dirt! (Firepower 11.3.3), leaders (Firepower 11.1, 11.4), posture
heights (Firepower 10.5.2) and the stand-in WEAPON CHART rows (Firepower 10.7). A test of a worked
example of the rulebook is named after its FP-n case."""

from __future__ import annotations

from collections.abc import Generator
from pathlib import Path
from typing import Any

import pytest

from hexwar.core.engine.decisions import Decision
from hexwar.core.engine.game import Game
from hexwar.core.errors import RulesError
from hexwar.core.hexgrid import Hex
from hexwar.core.scenario import Scenario
from hexwar.core.testing import make_game
from hexwar.plugins.firepower import advanced_impulses as adv
from hexwar.plugins.firepower import squads as sq
from hexwar.plugins.firepower.actions import check_action, mf_left
from hexwar.plugins.firepower.state import data
from hexwar.plugins.firepower.weapon_chart import chart, records, weapon

PANEL = """[panel]
id = "1"
system = "firepower"
title = "test panel"
stand_in = true
labels = "letter-number"
columns = ["A", "P"]
rows = [1, 15]
default_terrain = "clear"
source = "estimated"
"""

#: two squads of side A: Q1 (4/2) and Q2 (3/2); side B one squad (3/2)
SIDES = """[sides.A]
sequence_units = 4
impulses = 2
[sides.A.squads.Q1]
sequence_units = 4
impulses = 2
[sides.A.squads.Q2]
sequence_units = 3
impulses = 2
[sides.B]
sequence_units = 3
impulses = 2
"""


def _game(tmp_path: Path, units: list[tuple[Any, ...]], advanced: bool = True) -> Game:
    (tmp_path / "panel.toml").write_text(PANEL, encoding="utf-8")
    lines = ["[scenario]", 'id = "test-advanced"', 'system = "firepower"', "turns = 2",
             *(['rules = ["firepower.advanced"]'] if advanced else []), SIDES,
             "[board]", 'panels = [{ file = "panel.toml" }]', "[special]", 'fold = "H"']
    for uid, basic, side, hx, facing, state in units:
        st = ", ".join(f'{k} = "{v}"' for k, v in state.items())
        lines += ["[[units]]", f'id = "{uid}"', f'type = "firepower:{basic}"', f'side = "{side}"',
                  f'hex = "1{hx}"', f"facing = {facing}", f"state = {{ {st} }}"]
    sc = Scenario.from_text("\n".join(lines) + "\n", path=str(tmp_path / "s.toml"))
    return make_game(sc, seed=3)


Gen = Generator[Any, Any, None]


def _face(game: Game, uid: str, at: str) -> None:
    """Turn ``uid`` to face ``at`` (the hexside whose front arc holds it, Firepower 6.3.3)."""
    from tests.plugins.firepower.test_terrain import _face as face_hex

    u, t = game.state.units[uid], game.state.units[at]
    assert u.hex is not None and t.hex is not None
    face_hex(u, t.hex)


def _phase(game: Game, side: str = "A", index: int = 1) -> tuple[Gen, Decision]:
    gen = adv.run_advanced_impulse_phase(game, side, index)
    return gen, next(gen)


SQUADS = [
    ("L1", "RFL", "A", "C5", 2, {"squad": "Q1", "rank": "S", "model": "RFL10"}),
    ("P1", "RFL", "A", "C7", 2, {"squad": "Q1", "model": "RFL10"}),
    ("P2", "RFL", "A", "C7", 2, {"squad": "Q1", "model": "RFL10"}),
    ("P3", "RFL", "A", "C7", 2, {"squad": "Q1", "model": "RFL10"}),
    ("R1", "RFL", "A", "E5", 2, {"squad": "Q2", "model": "RFL10"}),
    ("E1", "RFL", "B", "N10", 5, {"model": "RFL10"}),
]


# -- Firepower 9.1, 9.2 -----------------------------------------------------------------------


def test_fp_30_a_letter_applies_only_to_the_squad_with_more_sequence_units(tmp_path: Path) -> None:
    """Firepower 9.1 (FP-30): of squads with 4 and 3 sequence units, letter "A" is the 4-unit
    squad's alone; its draw lets only that squad act, B-D both."""
    q1, q2 = sq.Squad("Q1", "A", 4, 2), sq.Squad("Q2", "A", 3, 2)
    assert [sq.applies(q1, 4, i) for i in range(4)] == [True] * 4
    assert [sq.applies(q2, 4, i) for i in range(4)] == [False, True, True, True]
    game = _game(tmp_path, SQUADS)
    assert adv.sequence_units(game, "A") == 4 and adv.sequence_units(game, "B") == 3
    assert adv.eligible_squads(game, "A", 0) == ["Q1"]
    assert adv.eligible_squads(game, "A", 1) == ["Q1", "Q2"]
    _gen, d = _phase(game, index=0)
    assert {o["squad"] for o in d.options if o != "pass"} == {"Q1"}
    with pytest.raises(RulesError, match=r"Firepower 9.1"):
        adv.check_squad_impulse(game, "A", {"squad": "Q2", "hex": "1E5", "units": ["R1"]})


def test_the_mix_puts_each_sides_lettered_sequence_units_in_the_cup(tmp_path: Path) -> None:
    game = _game(tmp_path, SQUADS)
    gen = adv.phase_mix(game)
    with pytest.raises(StopIteration):
        next(gen)
    assert data(game)["cup"] == sorted(["A1", "A2", "A3", "A4", "B1", "B2", "B3"])
    side, index = adv.draw(game)
    assert side in ("A", "B") and 0 <= index < 4 and len(data(game)["cup"]) == 6


def test_fp_31_each_squad_has_its_own_impulses_not_transferable(tmp_path: Path) -> None:
    """Firepower 9.2 (FP-31): one draw gives two squads of I = 2 two Impulses each, four in all; a
    squad cannot use the other's."""
    units = [(f"P{i}", "RFL", "A", f"C{i}", 2, {"squad": "Q1"}) for i in range(1, 5)]
    units += [(f"R{i}", "RFL", "A", f"E{i}", 2, {"squad": "Q2"}) for i in range(1, 5)]
    units += [("E1", "RFL", "B", "N10", 5, {})]
    game = _game(tmp_path, units)
    data(game)["combat_begun"] = True  # Firepower 11.3.2 no longer applies
    gen, d = _phase(game)
    plan = [("Q1", "P1", "1C1"), ("Q2", "R1", "1E1"), ("Q1", "P2", "1C2"), ("Q2", "R2", "1E2")]
    for n, (q, uid, hx) in enumerate(plan):
        assert any(o != "pass" and o["squad"] == q for o in d.options)
        d = gen.send({"squad": q, "hex": hx, "units": [uid]})
        assert d.kind == "action"
        if n < len(plan) - 1:
            d = gen.send("end")
    # both squads have used their two Impulses: the Impulse Phase ends, P3, R3... unused
    with pytest.raises(StopIteration):
        gen.send("end")
    assert data(game)["phase"] is None


def test_a_squads_impulse_is_not_used_by_another_squads_soldier(tmp_path: Path) -> None:
    game = _game(tmp_path, SQUADS)
    _gen, d = _phase(game)
    before = game.state.digest()
    with pytest.raises(RulesError, match=r"Firepower 9.2"):
        adv.check_squad_impulse(game, "A", {"squad": "Q1", "hex": "1E5", "units": ["R1"]})
    assert d.validate is not None
    assert "Firepower 9.2" in str(d.validate({"squad": "Q1", "hex": "1E5", "units": ["R1"]}))
    assert game.state.digest() == before


def test_a_squad_out_of_impulses_is_refused_once_combat_has_begun(tmp_path: Path) -> None:
    game = _game(tmp_path, SQUADS)
    data(game)["combat_begun"] = True
    gen, d = _phase(game)
    for hx, uid in (("1C7", "P1"), ("1C7", "P2")):
        d = gen.send({"squad": "Q1", "hex": hx, "units": [uid]})
        d = gen.send("end")
    assert not any(o != "pass" and o["squad"] == "Q1" for o in d.options)
    with pytest.raises(RulesError, match=r"Firepower 9.2"):
        adv.check_squad_impulse(game, "A", {"squad": "Q1", "hex": "1C7", "units": ["P3"]})


def test_unlimited_impulses_before_the_first_combat(tmp_path: Path) -> None:
    # Firepower 11.3.2: before any Combat Action, a squad's Impulses are not limited
    game = _game(tmp_path, SQUADS)
    gen, d = _phase(game)
    for uid in ("P1", "P2", "P3"):
        d = gen.send({"squad": "Q1", "hex": "1C7", "units": [uid]})
        d = gen.send("end")
    assert data(game)["phase"]["squads"]["Q1"] == 3  # more than its I = 2
    assert any(o != "pass" and o["squad"] == "Q1" and o.get("units") == ["L1"]
               for o in d.options)


def test_the_first_combat_action_starts_the_limits(tmp_path: Path) -> None:
    units = [("L1", "RFL", "A", "C5", 2, {"squad": "Q1"}), ("P1", "RFL", "A", "C6", 2,
             {"squad": "Q1"}), ("P2", "RFL", "A", "C7", 2, {"squad": "Q1"}),
             ("E1", "RFL", "B", "C9", 5, {})]
    game = _game(tmp_path, units)
    _face(game, "P2", "E1")
    gen, d = _phase(game)
    d = gen.send({"squad": "Q1", "hex": "1C6", "units": ["P1"]})
    d = gen.send("end")
    d = gen.send({"squad": "Q1", "hex": "1C7", "units": ["P2"]})
    assert data(game).get("combat_begun") is None
    fire = next(o for o in d.options if o != "end" and o["act"] == "fire"
                and o["after"] == 0)
    # the fire is the game's first Combat Action; with no MF announced after it P2 is done, and
    # Q1 has used its two Impulses in this Impulse Phase, in which combat began: it is over
    with pytest.raises(StopIteration):
        gen.send(fire)
    assert data(game)["combat_begun"] is True
    assert data(game)["phase"] is None  # though L1 had not acted yet


def test_hit_the_dirt_makes_soldiers_of_many_hexes_prone_in_one_impulse(tmp_path: Path) -> None:
    # Firepower 11.3.3
    game = _game(tmp_path, SQUADS)
    gen, d = _phase(game)
    game.state.units["P1"].state["speed"] = "running"
    dirt = next(o for o in d.options if o != "pass" and o.get("hit_the_dirt")
                and o["squad"] == "Q1")
    assert dirt["units"] == ["L1", "P1", "P2", "P3"]
    d = gen.send(dirt)
    assert all(game.state.units[u].state["posture"] == "prone" for u in dirt["units"])
    assert game.state.units["P1"].state["speed"] == "normal"  # Firepower 10.5.3
    assert data(game)["phase"]["squads"]["Q1"] == 1
    # that is all they do this Impulse Phase
    assert not any(o != "pass" and o["squad"] == "Q1" for o in d.options)
    with pytest.raises(RulesError, match=r"Firepower 11.3.3"):
        adv.check_squad_impulse(game, "A", {"squad": "Q2", "hit_the_dirt": True,
                                            "units": ["L1"]})


# -- Firepower 11.1, 11.4 ---------------------------------------------------------------------


def leader_beside_three(tmp_path: Path) -> tuple[Game, Hex]:
    """FP-43's set-up: squad leader L1 at F6 facing 1, the three riflemen P1-P3 of his squad
    Q1 in the hex on his side 4 (returned), an enemy E1 far off."""
    units = [("L1", "RFL", "A", "F6", 1, {"squad": "Q1", "rank": "S"}),
             *[(f"P{i}", "RFL", "A", "A1", 2, {"squad": "Q1"}) for i in (1, 2, 3)],
             ("E1", "RFL", "B", "N10", 5, {})]
    game = _game(tmp_path, units)
    leader = game.state.units["L1"]
    assert leader.hex is not None
    there = leader.hex.neighbor(4)
    for i in (1, 2, 3):
        game.state.units[f"P{i}"].hex = there
    return game, there


def test_fp_43_an_activated_soldier_has_his_mf_less_the_leaders(tmp_path: Path) -> None:
    """Firepower 11.4 (FP-43): a leader who spent 2 MF (a turn and a hex) reaching three 4-MF
    soldiers activates them for nothing; each has 4 - 2 = 2 MF left."""
    game, there = leader_beside_three(tmp_path)
    leader = game.state.units["L1"]
    gen, d = _phase(game)
    d = gen.send({"squad": "Q1", "hex": "1F6", "units": ["L1"]})
    d = gen.send({"unit": "L1", "act": "turn", "to": 4})
    d = gen.send({"unit": "L1", "act": "enter"})
    ph = data(game)["phase"]
    assert leader.hex == there and ph["spent"]["L1"] == 2
    opt = next(o for o in d.options if o != "end" and o["act"] == "activate")
    assert opt["targets"] == ["P1", "P2", "P3"]
    d = gen.send(opt)
    ph = data(game)["phase"]
    assert ph["spent"]["L1"] == 2  # activation itself costs nothing
    assert [mf_left(game, ph, p) for p in ("P1", "P2", "P3")] == [2, 2, 2]
    assert mf_left(game, ph, "L1") == 5 - 2
    # the activated soldiers act in this Impulse, not one of their own
    assert set(ph["active"]) >= {"P1", "P2", "P3"} and ph["squads"]["Q1"] == 1
    assert any(o != "end" and o.get("unit") == "P1" for o in d.options)


def test_who_may_activate_whom() -> None:
    # Firepower 11.4
    assert sq.can_activate("C", "Q1", "S", "Q2")           # an officer: anyone of his side
    assert sq.can_activate("S", "Q1", None, "Q1")
    assert sq.can_activate("S", "Q1", "A", "Q1")
    assert not sq.can_activate("S", "Q1", "C", "Q1")       # not officers
    assert not sq.can_activate("S", "Q1", None, "Q2")      # not another squad
    assert sq.can_activate("A", "Q1", None, "Q1")
    assert not sq.can_activate("A", "Q1", "A", "Q1")       # not other leaders
    assert not sq.can_activate("A", "Q1", "S", "Q1")
    assert not sq.can_activate(None, "Q1", None, "Q1")     # privates activate nobody


def test_activation_needs_a_leader_who_entered_the_hex(tmp_path: Path) -> None:
    units = [("L1", "RFL", "A", "C4", 1, {"squad": "Q1", "rank": "S"}),
             ("P1", "RFL", "A", "C4", 2, {"squad": "Q1"}),
             ("A1", "RFL", "A", "C4", 2, {"squad": "Q1", "rank": "A"}),
             ("E1", "RFL", "B", "N10", 5, {})]
    game = _game(tmp_path, units)
    gen, _d = _phase(game)
    gen.send({"squad": "Q1", "hex": "1C4", "units": ["L1"]})
    before = game.state.digest()
    with pytest.raises(RulesError, match=r"Firepower 11.4"):
        check_action(game, {"unit": "L1", "act": "activate", "targets": ["P1"]})
    assert game.state.digest() == before


def test_leaders_have_five_mf_but_enter_four_new_hexes(tmp_path: Path) -> None:
    # Firepower 11.1
    units = [("L1", "RFL", "A", "A8", 2, {"squad": "Q1", "rank": "S"}),
             ("P1", "RFL", "A", "A2", 2, {"squad": "Q1"}), ("E1", "RFL", "B", "N10", 5, {})]
    game = _game(tmp_path, units)
    gen, d = _phase(game)
    d = gen.send({"squad": "Q1", "hex": "1A8", "units": ["L1"]})
    ph = data(game)["phase"]
    assert mf_left(game, ph, "L1") == 5
    for _ in range(4):
        d = gen.send({"unit": "L1", "act": "enter"})
    assert mf_left(game, data(game)["phase"], "L1") == 1
    assert not any(o != "end" and o.get("act") == "enter" for o in d.options)
    with pytest.raises(RulesError, match=r"Firepower 11.1"):
        adv.check_advanced_action(game, {"unit": "L1", "act": "enter"})
    assert d.validate is not None and "Firepower 11.1" in str(
        d.validate({"unit": "L1", "act": "enter"}))


def test_a_private_has_four_mf(tmp_path: Path) -> None:
    game = _game(tmp_path, SQUADS)
    gen, _d = _phase(game)
    gen.send({"squad": "Q1", "hex": "1C7", "units": ["P1"]})
    assert mf_left(game, data(game)["phase"], "P1") == 4


# -- Firepower 10.5, 10.7 ---------------------------------------------------------------------


def test_fp_33_head_heights_by_posture() -> None:
    """Firepower 10.5.2 (FP-33): the head is at 2 Standing, 1 Crouching, 0 Prone; a Standing
    soldier's feet are at 0."""
    assert [sq.head_height(p) for p in ("stand", "crouch", "prone")] == [2, 1, 0]
    assert sq.feet_height("stand") == 0


def test_fp_32_a_soldier_up_a_tree() -> None:
    """Firepower 10.5.1, 12.2.8 (FP-32): Up a tree at height 5 puts the head at 5 and the feet two
    lower, at 3 (FP-51); Up without a height is refused."""
    assert sq.head_height("up", 5) == 5 and sq.feet_height("up", 5) == 3
    with pytest.raises(RulesError, match=r"Firepower 10.5.1"):
        sq.head_height("up")


def test_lmg12_move_column_is_the_texts(tmp_path: Path) -> None:
    # Firepower 10.7 item 9: LMG12 is Move -1 (disclosed); FP-36 is in test_worked_examples
    assert weapon("LMG12").move == -1
    assert records().sources["LMG12.move"] == "Firepower 10.7"
    units = [("P1", "LMG", "A", "C7", 2, {"squad": "Q1", "model": "LMG12"}),
             ("E1", "RFL", "B", "N10", 5, {})]
    game = _game(tmp_path, units)
    gen, _d = _phase(game)
    gen.send({"squad": "Q1", "hex": "1C7", "units": ["P1"]})
    assert mf_left(game, data(game)["phase"], "P1") == 3


def test_every_weapon_value_is_estimated_or_cites_its_rule() -> None:
    for key, source in records().sources.items():
        assert source == "estimated" or source.startswith("Firepower "), key
    assert set(chart()) >= {"RFL10", "LMG4", "LMG12", "MMG2", "PST1", "SMG1", "GLR2"}


def test_a_weapon_is_not_fired_from_a_posture_its_chart_forbids(tmp_path: Path) -> None:
    # Firepower 10.7 item 10: the stand-in MMG2 has "-" Standing
    units = [("M1", "LMG", "A", "C5", 1, {"squad": "Q1", "model": "MMG2"}),
             ("C1", "RFL", "A", "C5", 1, {"squad": "Q1", "model": "RFL10", "crew_of": "M1"}),
             ("E1", "RFL", "B", "C9", 4, {})]
    game = _game(tmp_path, units)
    _face(game, "M1", "E1")
    game.state.units["C1"].facing = game.state.units["M1"].facing  # his crew (Firepower 10.1)
    gen, d = _phase(game)
    d = gen.send({"squad": "Q1", "hex": "1C5", "units": ["M1", "C1"]})
    fire = {"unit": "M1", "act": "fire", "mode": "auto", "targets": ["E1"], "after": 0}
    with pytest.raises(RulesError, match=r"Firepower 10.7"):
        check_action(game, fire)  # the Advanced fire procedure's own check refuses it too
    assert not any(o != "end" and o["act"] == "fire" and o.get("unit") == "M1" for o in d.options)
    before = game.state.digest()
    with pytest.raises(RulesError, match=r"Firepower 10.7"):
        adv.check_advanced_action(game, fire)
    assert game.state.digest() == before
    game.state.units["M1"].state["posture"] = "crouch"  # "X" Crouching: may fire
    assert adv.check_advanced_action(game, fire)["act"] == "fire"


def test_the_posture_column_modifies_the_fire(tmp_path: Path) -> None:
    # Firepower 12.2.1: the stand-in LMG4 is "+1" Standing, "X" Crouching
    from hexwar.plugins.firepower import combat
    from hexwar.plugins.firepower.actions import fire_context, fire_procedure

    units = [("M1", "LMG", "A", "C5", 1, {"squad": "Q1", "model": "LMG4"}),
             ("E1", "RFL", "B", "C9", 4, {})]
    game = _game(tmp_path, units)
    _face(game, "M1", "E1")
    _gen, _d = _phase(game)
    ctx = fire_context(game, "M1", {"act": "fire", "mode": "auto", "targets": ["E1"]})
    combat.preview(ctx, fire_procedure(game, "fire"))  # the Advanced steps (Firepower 12.2)
    mods = [m for m in ctx.modifiers["E1"] if m.rule == "Firepower 12.2.1"]
    assert [m.value for m in mods] == [1]


# -- the mode and the scenario ----------------------------------------------------------------


def test_without_the_rule_the_basic_sequence_is_played(tmp_path: Path) -> None:
    from hexwar.plugins.firepower import sequence

    basic = _game(tmp_path, SQUADS, advanced=False)
    assert [p.run for p in basic.sequence] == [p.run for p in sequence.PHASES]
    game = _game(tmp_path, SQUADS)
    runs = {p.name: p.run for p in game.sequence}
    assert runs["firepower.impulses"] is adv.phase_impulses
    assert runs["firepower.mix"] is adv.phase_mix


def test_the_advanced_scenario_plays_ai_against_ai_to_its_end() -> None:
    from hexwar.core.cli import _controllers, _resolve_scenario_path
    from hexwar.core.scenario import load_and_validate

    sc = load_and_validate(_resolve_scenario_path("firepower:advanced-meeting"))
    game = Game(sc, seed=5)
    controllers, _ = _controllers(game, "ai,ai", 5)
    result = game.play(controllers)
    assert game.state.turn == 6 and result.winner in ("A", "B", None)
    assert data(game)["combat_begun"] is True
    assert sum(1 for u in game.state.units.values() if u.state.get("eliminated")) > 0
    # Firepower 6.1: the cup's contents never reach a side (the drawn letter is public, FPD-40)
    for side in ("A", "B"):
        view = game.view(side)
        assert "cup" not in view.system_state
        assert all("cup" not in e and "chit" not in e for e in view.events())


# -- Firepower 11.2.1 -------------------------------------------------------------------------


def test_fp_42_backing_while_fording_costs_four_times() -> None:
    """Firepower 11.2.1 (FP-42): backing doubles an Action's MF; backing while fording or in an
    abatis doubles it twice, four times."""
    from hexwar.plugins.firepower.advanced_actions import note_a_multiplier

    assert note_a_multiplier() == 1
    assert note_a_multiplier(backing=True) == 2
    assert note_a_multiplier(backing=True, fording=True) == 4
    assert note_a_multiplier(backing=True, abatis=True) == 4


def test_backing_moves_straight_back_at_twice_the_cost(tmp_path: Path) -> None:
    # Firepower 11.2.1.2: the facing is kept, the hex behind is entered for 2 x 1 MF Standing
    units = [("P1", "RFL", "A", "F6", 1, {"squad": "Q1"}), ("E1", "RFL", "B", "N10", 5, {})]
    game = _game(tmp_path, units)
    u = game.state.units["P1"]
    assert u.hex is not None
    behind = u.hex.neighbor(4)
    gen, d = _phase(game)
    d = gen.send({"squad": "Q1", "hex": "1F6", "units": ["P1"]})
    assert {"unit": "P1", "act": "back"} in d.options
    d = gen.send({"unit": "P1", "act": "back"})
    assert u.hex == behind and u.facing == 1
    assert data(game)["phase"]["spent"]["P1"] == 2


def test_no_backing_into_opposing_soldiers(tmp_path: Path) -> None:
    units = [("P1", "RFL", "A", "F6", 1, {"squad": "Q1"}), ("E1", "RFL", "B", "N10", 5, {})]
    game = _game(tmp_path, units)
    u, e = game.state.units["P1"], game.state.units["E1"]
    assert u.hex is not None
    e.hex = u.hex.neighbor(4)
    gen, d = _phase(game)
    d = gen.send({"squad": "Q1", "hex": "1F6", "units": ["P1"]})
    assert {"unit": "P1", "act": "back"} not in d.options
    before = game.state.digest()
    with pytest.raises(RulesError, match=r"Firepower 6\.2\.1"):
        check_action(game, {"unit": "P1", "act": "back"})
    assert game.state.digest() == before


# -- Firepower 8.2.2, 12.1 (pure functions; the fire procedure keeps the Basic line of sight) ----


def test_fp_27_a_hills_height_is_its_levels_times_its_heights() -> None:
    """Firepower 8.2.2 (FP-27): a hill's height is its contour levels times its heights a level
    (1 x 3 = 3, 2 x 3 = 6); a depression counts downwards."""
    from hexwar.plugins.firepower.advanced_los import terrain_height

    assert terrain_height(1, 3) == 3 and terrain_height(2, 3) == 6 and terrain_height(-1, 4) == -4


def test_fp_44_a_hill_higher_than_both_blocks() -> None:
    """Firepower 12.1.1 (FP-44): a hill of 3 between two Standing soldiers (2 and 2) is higher than
    both and blocks."""
    from hexwar.plugins.firepower.advanced_los import classify, unit_height

    assert classify(unit_height(0, "stand"), unit_height(0, "stand"), 3) == "blocked"


def test_fp_45_an_obstacle_equal_to_one_end_and_higher_than_the_other_blocks() -> None:
    """Firepower 12.1.2 (FP-45): a fence of 2 between a Standing firer (2) and a Prone target (0)
    equals one end, tops the other, and blocks."""
    from hexwar.plugins.firepower.advanced_los import classify, unit_height

    assert classify(unit_height(0, "stand"), unit_height(0, "prone"), 2) == "blocked"


def test_fp_46_an_obstacle_lower_than_both_or_equal_to_both_does_not_block() -> None:
    """Firepower 12.1.3 (FP-46): a fence of 1 or 2 between two Standing soldiers does not block; one
    equal to the lower end does not either (FPD-46); one between the ends goes to the chart
    (12.1.4)."""
    from hexwar.plugins.firepower.advanced_los import classify

    assert classify(2, 2, 1) == "clear" and classify(2, 2, 2) == "clear"
    assert classify(5, 3, 3) == "clear"  # FPD-46
    assert classify(5, 3, 4) == "check"  # Firepower 12.1.4: the chart decides


def test_fp_48_heights_and_chart_columns_of_the_worked_example() -> None:
    """Firepower 12.1.4.4 (FP-48, FP-49): A Standing on a 3-height hill is at 5, B Crouching in a -3
    depression at -2; ground obstacles (0) need the chart, columns 7 and 5 (A Prone, at 3: columns 5
    and 3). The chart cell itself is a stand-in."""
    from hexwar.plugins.firepower.advanced_los import chart_columns, classify, unit_height

    a, b = unit_height(3, "stand"), unit_height(-3, "crouch")
    assert (a, b) == (5, -2)
    assert classify(a, b, 0) == "check"
    assert chart_columns(a, b, 0) == (7, 5)
    # FP-49: A Prone is at 3
    assert unit_height(3, "prone") == 3 and chart_columns(3, b, 0) == (5, 3)


def test_fp_47_chart_columns() -> None:
    """Firepower 12.1.4.1, 12.1.4.2 (FP-47): firer 5, target 3, obstacle 4 need the chart: column 2
    for the ends, column 1 for the obstacle."""
    from hexwar.plugins.firepower.advanced_los import chart_columns, classify

    assert classify(5, 3, 4) == "check" and chart_columns(5, 3, 4) == (2, 1)


def test_the_advanced_impulse_choices_are_explained_and_presented(tmp_path: Path) -> None:
    from hexwar.plugins.firepower.explain import explain_decision
    from hexwar.plugins.firepower.present import present_decision

    game = _game(tmp_path, SQUADS)
    _gen, d = _phase(game)
    text = explain_decision(game, d)
    assert "Hit the Dirt!" in text and "squad Q1, 1C7" in text
    form = present_decision(game.view("A"), d)
    assert form is not None
    dirt = [i for i in form["choices"] if isinstance(i["choice"], dict)
            and i["choice"].get("hit_the_dirt")]
    assert dirt and all("hex" not in i and i["group"] == i["choice"]["squad"] for i in dirt)
