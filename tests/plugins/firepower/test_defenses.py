"""Defensive units of the Advanced Game other than caves (Firepower 8.8): foxholes, trenches,
wire and bunkers, with their effects on movement, fire and the line of sight; scopes and
nightsights (Firepower 12.2.9, 12.4.7)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from hexwar.core.engine.game import Game
from hexwar.core.errors import RulesError
from hexwar.core.provenance import load_records
from hexwar.plugins.firepower import combat, defenses, impulses
from hexwar.plugins.firepower.actions import apply_action, fire_context, fire_procedure
from hexwar.plugins.firepower.advanced_impulses import check_advanced_action
from hexwar.plugins.firepower.state import data

GameFactory = Callable[..., Game]
ADV = ("firepower.advanced",)


def _game(fp_game: GameFactory, units: list[tuple[Any, ...]], defs: list[dict[str, Any]],
          **kw: Any) -> Game:
    g = fp_game(units, options=ADV, **kw)
    defenses.set_defences(g, defs)
    return g


def _impulse(g: Game, side: str, *units: str) -> None:
    impulses.start_impulse_phase(g, side)
    impulses.begin_impulse(g, units)


def _act(g: Game, choice: dict[str, Any]) -> None:
    check_advanced_action(g, choice)
    apply_action(g, choice)


def _mods(g: Game, uid: str, choice: dict[str, Any], target: str) -> dict[str, int]:
    ctx = fire_context(g, uid, choice)
    combat.preview(ctx, fire_procedure(g, ctx.kind))
    return {m.rule + ":" + m.name: int(m.value) for m in ctx.modifiers[target]}


def test_the_data_cites_the_text_and_marks_the_rest_estimated() -> None:
    recs = load_records(defenses.DATA)
    assert recs.sources["DFX.depth"] == "Firepower 8.8.2.1"
    assert recs.sources["TRN.depth"] == "Firepower 8.8.2.2"
    assert set(recs.estimated_fields) == {"BKR.height", "BKR.terrain_value", "BKR.door_cost",
                                          # test_defenses_more: the text gives none of these
                                          "PBX.height", "PBX.terrain_value", "PBX.door_cost",
                                          "TWR.terrain_value", "TWR.door_cost",
                                          "BLK.terrain_value", "ABS.terrain_value",
                                          "WIR.terrain_value", "DWR.terrain_value",
                                          "RBL.terrain_value", "BRG.terrain_value"}
    t = defenses.types()
    assert (t["DFX"].depth, t["DFX"].capacity) == (2, 4)  # Firepower 8.8.2.1
    assert (t["SFX"].depth, t["TRN"].depth, t["TRN"].capacity) == (1, 2, 0)
    assert t["BKR"].loophole == (1, 2)  # Firepower 8.8.4.1


@pytest.mark.parametrize(("specs", "words", "rule"), [
    ([{"type": "XYZ", "hex": "1C5"}], "no defensive unit", "Firepower 8.8"),
    ([{"type": "DFX", "hex": "1C5"}, {"type": "WIR", "hex": "1C5"}], "already holds",
     "Firepower 8.8"),
    ([{"type": "BKR", "hex": "1C5"}], "door faces a hexside", "Firepower 8.8.4"),
    ([{"type": "BKR", "hex": "1C5", "door": 7}], "door faces a hexside", "Firepower 8.8.4"),
    ([{"type": "DFX", "hex": "1C5", "door": 2}], "only bunkers", "Firepower 8.8.4"),
])
def test_bad_set_up_fails_naming_the_rule_and_changes_nothing(
        fp_game: GameFactory, specs: list[dict[str, Any]], words: str, rule: str) -> None:
    g = _game(fp_game, [("A1", "RFL", "A", "C2", 4)], [{"type": "SFX", "hex": "1D5"}])
    before = dict(defenses.defences(g))
    with pytest.raises(RulesError, match=words) as exc:
        defenses.set_defences(g, specs)
    assert exc.value.rule == rule
    assert defenses.defences(g) == before


def test_into_a_deep_foxhole_is_a_climb_of_two_mf_standing(fp_game: GameFactory) -> None:
    # Firepower 8.8.2, 11.1.11: one MF per height, starting Standing; feet two heights down
    g = _game(fp_game, [("A1", "RFL", "A", "C5", 4, {"model": "RFL10"})],
              [{"type": "DFX", "hex": "1C5"}])
    _impulse(g, "A", "A1")
    _act(g, {"act": "position", "unit": "A1", "into": True})
    u = g.state.units["A1"]
    assert u.state["in_defence"] == "DFX" and u.state["stands_at"] == -2
    assert data(g)["phase"]["spent"]["A1"] == 2
    with pytest.raises(RulesError, match="comes out first") as exc:  # Firepower 8.8.2
        check_advanced_action(g, {"act": "enter", "unit": "A1"})
    assert exc.value.rule == "Firepower 8.8.2"
    _act(g, {"act": "position", "unit": "A1", "into": False})
    assert "in_defence" not in u.state and "stands_at" not in u.state


def test_a_prone_soldier_cannot_start_the_climb(fp_game: GameFactory) -> None:
    g = _game(fp_game, [("A1", "RFL", "A", "C5", 4, {"posture": "prone"})],
              [{"type": "SFX", "hex": "1C5"}])
    _impulse(g, "A", "A1")
    with pytest.raises(RulesError, match="Standing") as exc:
        check_advanced_action(g, {"act": "position", "unit": "A1", "into": True})
    assert exc.value.rule == "Firepower 11.1.11"
    assert "in_defence" not in g.state.units["A1"].state


def test_a_foxhole_holds_four_soldiers_of_one_side(fp_game: GameFactory) -> None:
    # Firepower 8.8.2.1, 10.8
    units = [(f"A{i}", "RFL", "A", "C5", 4) for i in range(1, 6)]
    g = _game(fp_game, units, [{"type": "SFX", "hex": "1C5"}])
    for i in range(1, 5):
        g.state.units[f"A{i}"].state["in_defence"] = "SFX"
    _impulse(g, "A", "A5")
    with pytest.raises(RulesError, match="holds 4") as exc:
        check_advanced_action(g, {"act": "position", "unit": "A5", "into": True})
    assert exc.value.rule == "Firepower 10.8"


def test_a_trench_holds_any_number(fp_game: GameFactory) -> None:
    # Firepower 8.8.2.2
    units = [(f"A{i}", "RFL", "A", "C5", 4) for i in range(1, 6)]
    g = _game(fp_game, units, [{"type": "TRN", "hex": "1C5"}])
    for i in range(1, 5):
        g.state.units[f"A{i}"].state["in_defence"] = "TRN"
    _impulse(g, "A", "A5")
    check_advanced_action(g, {"act": "position", "unit": "A5", "into": True})


@pytest.mark.parametrize("code", ["WIR", "DWR"])
def test_wire_is_not_entered(fp_game: GameFactory, code: str) -> None:
    # Firepower 8.8.3: A1 at C4 faces C5 (hexside 4 on the test panel's column)
    g = _game(fp_game, [("A1", "RFL", "A", "C4", 4)], [{"type": code, "hex": "1C5"}])
    _impulse(g, "A", "A1")
    before = g.state.units["A1"].hex
    with pytest.raises(RulesError, match="may not enter") as exc:
        check_advanced_action(g, {"act": "enter", "unit": "A1"})
    assert exc.value.rule == "Firepower 8.8.3"
    assert g.state.units["A1"].hex == before


def test_a_bunker_is_entered_only_through_its_door(fp_game: GameFactory) -> None:
    # Firepower 8.8.4: the soldier faces the door's hexside (docs/decisions.md FPD-79)
    g = _game(fp_game, [("A1", "RFL", "A", "C5", 2)], [{"type": "BKR", "hex": "1C5", "door": 4}])
    _impulse(g, "A", "A1")
    with pytest.raises(RulesError, match="through its door") as exc:
        check_advanced_action(g, {"act": "position", "unit": "A1", "into": True})
    assert exc.value.rule == "Firepower 8.8.4"
    g.state.units["A1"].facing = 4
    _act(g, {"act": "position", "unit": "A1", "into": True})
    assert g.state.units["A1"].state["in_defence"] == "BKR"
    assert "stands_at" not in g.state.units["A1"].state


def _duel(fp_game: GameFactory, code: str, **target: Any) -> Game:
    st = {"model": "RFL10", **target}
    return _game(fp_game, [("A1", "RFL", "A", "C2", 4, {"model": "RFL10"}),
                           ("B1", "RFL", "B", "C5", 1, st)], [{"type": code, "hex": "1C5",
                                                                **({"door": 1} if code == "BKR"
                                                                   else {})}])


def test_a_foxhole_gives_cover_and_concealment(fp_game: GameFactory) -> None:
    # Firepower 8.8.2.1, 12.2.3, 12.2.4: +1 cover, +1 concealment, every direction
    g = _duel(fp_game, "SFX", in_defence="SFX", stands_at=-1)
    _impulse(g, "A", "A1")
    mods = _mods(g, "A1", {"act": "fire", "unit": "A1", "mode": "semi", "targets": ["B1"]}, "B1")
    assert mods["Firepower 12.2.3:target in cover (shallow foxhole)"] == 1
    assert mods["Firepower 12.2.4:target concealed"] == 1


def test_a_soldier_beside_the_foxhole_has_none(fp_game: GameFactory) -> None:
    # Firepower 8.8.1: in the hex but not in the position: no cover from it
    g = _duel(fp_game, "SFX")
    _impulse(g, "A", "A1")
    mods = _mods(g, "A1", {"act": "fire", "unit": "A1", "mode": "semi", "targets": ["B1"]}, "B1")
    assert not any("12.2.3" in k or "12.2.4" in k for k in mods)


def test_a_bunker_loophole_gives_two_and_conceals(fp_game: GameFactory) -> None:
    # Firepower 8.8.4.1, 12.2.3 (+2 loophole), 12.2.4 (+1 concealed)
    g = _duel(fp_game, "BKR", in_defence="BKR")
    _impulse(g, "A", "A1")
    mods = _mods(g, "A1", {"act": "fire", "unit": "A1", "mode": "semi", "targets": ["B1"]}, "B1")
    assert mods["Firepower 12.2.3:target using a loophole (bunker loophole)"] == 2
    assert mods["Firepower 12.2.4:target concealed"] == 1


def test_a_prone_soldier_in_a_bunker_cannot_fire(fp_game: GameFactory) -> None:
    # Firepower 8.8.4.1: loopholes one to two heights above the floor
    g = _game(fp_game, [("A1", "RFL", "A", "C5", 1, {"model": "RFL10", "posture": "prone",
                                                      "in_defence": "BKR"}),
                        ("B1", "RFL", "B", "C2", 4, {"model": "RFL10"})],
              [{"type": "BKR", "hex": "1C5", "door": 4}])
    _impulse(g, "A", "A1")
    with pytest.raises(RulesError, match="loopholes") as exc:
        _mods(g, "A1", {"act": "fire", "unit": "A1", "mode": "semi", "targets": ["B1"]}, "B1")
    assert exc.value.rule == "Firepower 8.8.4.1"


def test_low_in_a_deep_foxhole_the_rim_blocks_a_level_target(fp_game: GameFactory) -> None:
    # Firepower 10.5.2: Prone in a deep foxhole (head at -2) against a Prone target on level
    # ground (0) in the next hex: the rim (0) is as high as the higher end: blocked
    # (Firepower 12.1.2); no hex lies between, only the rim
    g = _game(fp_game, [("A1", "RFL", "A", "C2", 4, {"model": "RFL10", "posture": "prone",
                                                      "in_defence": "DFX", "stands_at": -2}),
                        ("B1", "RFL", "B", "C3", 1, {"model": "RFL10", "posture": "prone"})],
              [{"type": "DFX", "hex": "1C2"}])
    _impulse(g, "A", "A1")
    with pytest.raises(RulesError, match="rim") as exc:
        _mods(g, "A1", {"act": "fire", "unit": "A1", "mode": "semi", "targets": ["B1"]}, "B1")
    assert exc.value.rule == "Firepower 12.1.2"
    g.state.units["A1"].state.update(posture="stand")  # head at 0: sees over the rim
    _mods(g, "A1", {"act": "fire", "unit": "A1", "mode": "semi", "targets": ["B1"]}, "B1")


def test_a_scope_helps_single_shots(fp_game: GameFactory) -> None:
    # Firepower 12.2.9: -1 with a scope at rate of fire 1 or 2; turned down, no modifier
    scoped = "RFL14"  # its stand-in notes say "S" (data/advanced/weapons.toml)
    g = _game(fp_game, [("A1", "RFL", "A", "C2", 4, {"model": scoped}),
                        ("B1", "RFL", "B", "C5", 1, {"model": "RFL10"})], [])
    g.state.units["A1"].state["equipment"] = {"SCP": 1}
    _impulse(g, "A", "A1")
    choice = {"act": "fire", "unit": "A1", "mode": "semi", "targets": ["B1"]}
    assert _mods(g, "A1", choice, "B1")["Firepower 12.2.9:scope"] == -1
    assert "Firepower 12.2.9:scope" not in _mods(g, "A1", {**choice, "sights": False}, "B1")


def test_a_scope_on_a_weapon_without_s_is_refused(fp_game: GameFactory) -> None:
    # Firepower 10.7: only weapons whose notes say "S" take a scope
    g = _game(fp_game, [("A1", "RFL", "A", "C2", 4, {"model": "RFL10"}),
                        ("B1", "RFL", "B", "C5", 1, {"model": "RFL10"})], [])
    g.state.units["A1"].state["equipment"] = {"SCP": 1}
    _impulse(g, "A", "A1")
    from hexwar.plugins.firepower.weapon_chart import weapon

    if "S" in weapon("RFL10").notes:
        pytest.skip("RFL10 takes a scope in this chart")
    with pytest.raises(RulesError, match="takes no scope") as exc:
        _mods(g, "A1", {"act": "fire", "unit": "A1", "mode": "semi", "targets": ["B1"]}, "B1")
    assert exc.value.rule == "Firepower 10.7"


# -- the AI's line of sight (Firepower 12.1) ----------------------------------------------------


def test_the_ai_asks_the_real_line_of_sight_in_one_batch(fp_game: GameFactory) -> None:
    # Firepower 12.2.6: a tree between hinders, it does not block; Firepower 12.1.1: a hill
    # higher than both ends blocks. One batch answers every target.
    g = fp_game([("A1", "RFL", "A", "C2", 4), ("B1", "RFL", "B", "C6", 1),
                 ("B2", "RFL", "B", "E2", 1)], options=ADV,
                hexes=[{"at": "C4", "terrain": "tree"}, {"at": "D2", "height": 1}])
    rules = g.view("A").rules
    fp = rules.map
    src = (fp.parse("1C2"), 1, 2)
    got = rules.sight_blocks(src, [(fp.parse("1C6"), 1, 2), (fp.parse("1E2"), 1, 2)])
    assert got == [False, True]
    from hexwar.plugins.firepower.advanced_los import line_of_sight, los_world

    real = line_of_sight(los_world(g), fp.parse("1C2"), fp.parse("1C6"), 2, 2)
    assert not real.blocked and real.trees == 1  # the same answer as the fire's own
