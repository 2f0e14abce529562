"""The rest of the defensive units of Firepower 8.8: pillboxes (8.8.4.2), towers (8.8.6), abatis
(8.8.5.1), blocks (8.8.5.2) and ditches (8.8.5.3), with their movement, cover, concealment and
line-of-sight effects (docs/decisions.md FPD-93 to FPD-96). On the test panel column C runs
down hexside 4: C2 facing 4 looks at C5 along the column."""

from __future__ import annotations

from typing import Any

import pytest

from hexwar.core.engine.game import Game
from hexwar.core.errors import HexwarError, RulesError
from hexwar.core.provenance import load_records
from hexwar.plugins.firepower import defenses
from hexwar.plugins.firepower.actions import apply_action
from hexwar.plugins.firepower.advanced_impulses import check_advanced_action
from hexwar.plugins.firepower.advanced_terrain import ground_of
from hexwar.plugins.firepower.state import data
from tests.plugins.firepower.test_defenses import GameFactory, _game, _impulse, _mods


def _refused(g: Game, choice: dict[str, Any], rule: str, words: str = "") -> RulesError:
    """The choice fails with a HexwarError naming ``rule`` and leaves the state digest as it was."""
    before = g.state.digest()
    with pytest.raises(RulesError, match=words or None) as exc:
        check_advanced_action(g, choice)
    assert exc.value.rule == rule, (exc.value.rule, str(exc.value))
    assert isinstance(exc.value, HexwarError)
    assert g.state.digest() == before
    return exc.value


def _act(g: Game, choice: dict[str, Any]) -> dict[str, Any]:
    check_advanced_action(g, choice)
    info = apply_action(g, choice)
    defenses.after_action(g, choice, info)
    return info


def _spent(g: Game, uid: str) -> int:
    return int(data(g)["phase"]["spent"].get(uid, 0))


FIRE = {"act": "fire", "unit": "A1", "mode": "semi", "targets": ["B1"]}


# -- data and set-up (Firepower 8.8) --------------------------------------------------------------


def test_the_new_rows_cite_the_text() -> None:
    recs = load_records(defenses.DATA)
    for code, rule in (("PBX", "8.8.4.2"), ("TWR", "8.8.6"), ("ABS", "8.8.5.1"),
                       ("BLK", "8.8.5.2"), ("DCH", "8.8.5.3")):
        assert recs.sources[f"{code}.capacity"] == f"Firepower {rule}"
    t = defenses.types()
    assert (t["PBX"].capacity, t["PBX"].loophole, t["PBX"].loophole_postures) == (
        4, (1, 1), ("crouch",))  # Firepower 8.8.4.2
    assert (t["TWR"].capacity, t["TWR"].floor, t["TWR"].height) == (8, 5, 8)  # Firepower 8.8.6
    assert t["TWR"].loophole is None and t["TWR+S"].loophole == (1, 2)
    assert t["TWR+S"].cover == "loophole" and t["TWR"].cover == "cover"
    assert t["ABS"].move_multiplier == 2  # Firepower 8.8.5.1
    assert (t["BLK"].height, t["BLK"].hex_cover) == (1, True)  # Firepower 8.8.5.2
    assert (t["DCH"].depth, t["DCH"].climb_only) == (5, True)  # Firepower 8.8.5.3


@pytest.mark.parametrize(("specs", "words", "rule"), [
    ([{"type": "PBX", "hex": "1C5"}], "door faces a hexside", "Firepower 8.8.4"),
    ([{"type": "ABS", "hex": "1C5", "door": 1}], "only bunkers and pillboxes",
     "Firepower 8.8.4"),
    ([{"type": "BLK", "hex": "1C5", "sandbagged": True}], "only a tower", "Firepower 8.8.6"),
    ([{"type": "TWR", "hex": "1C5", "sandbagged": "yes"}], "only a tower", "Firepower 8.8.6"),
    ([{"type": "TWR+S", "hex": "1C5"}], "no defensive unit", "Firepower 8.8"),
    ([{"type": "DCH", "hex": "1C5"}, {"type": "ABS", "hex": "1C5"}], "already holds",
     "Firepower 8.8"),
])
def test_bad_set_up_fails_naming_the_rule_and_changes_nothing(
        fp_game: GameFactory, specs: list[dict[str, Any]], words: str, rule: str) -> None:
    g = _game(fp_game, [("A1", "RFL", "A", "C2", 4)], [{"type": "BLK", "hex": "1D5"}])
    before, digest = dict(defenses.defences(g)), g.state.digest()
    with pytest.raises(RulesError, match=words) as exc:
        defenses.set_defences(g, specs)
    assert exc.value.rule == rule
    assert defenses.defences(g) == before and g.state.digest() == digest


# -- pillboxes (Firepower 8.8.4.2, FPD-93) ---------------------------------------------------------


def _pillbox(fp_game: GameFactory, posture: str = "crouch", firer: str = "C2",
             facing: int = 4) -> Game:
    """B1 in the pillbox of 1C5 (door on hexside 4, so its loophole faces hexside 1, up the
    column toward C2); A1 in ``firer``."""
    return _game(fp_game, [("A1", "RFL", "A", firer, facing, {"model": "RFL10"}),
                           ("B1", "RFL", "B", "C5", 1, {"model": "RFL10", "posture": posture,
                                                        "in_defence": "PBX"})],
                 [{"type": "PBX", "hex": "1C5", "door": 4}])


def test_a_pillbox_loophole_gives_two_and_conceals_from_the_front(fp_game: GameFactory) -> None:
    g = _pillbox(fp_game)
    _impulse(g, "A", "A1")
    mods = _mods(g, "A1", FIRE, "B1")
    assert mods["Firepower 12.2.3:target using a loophole (pillbox loophole)"] == 2
    assert mods["Firepower 12.2.4:target concealed"] == 1


def test_a_pillbox_is_seen_into_only_through_its_front_loophole(fp_game: GameFactory) -> None:
    # A1 at C8 is behind the pillbox (the door side): its walls block the line (Firepower
    # 8.8.4.2: only the front loophole)
    g = _pillbox(fp_game, firer="C8", facing=1)
    _impulse(g, "A", "A1")
    with pytest.raises(RulesError, match="loophole faces hexside 1") as exc:
        _mods(g, "A1", FIRE, "B1")
    assert exc.value.rule == "Firepower 8.8.4.2"


def test_a_standing_soldier_in_a_pillbox_does_not_use_the_loophole(fp_game: GameFactory) -> None:
    g = _pillbox(fp_game, posture="stand")
    _impulse(g, "A", "A1")
    with pytest.raises(RulesError, match="not Crouching") as exc:
        _mods(g, "A1", FIRE, "B1")
    assert exc.value.rule == "Firepower 8.8.4.2"


def test_from_a_pillbox_only_a_crouching_soldier_fires(fp_game: GameFactory) -> None:
    # Firepower 8.8.4.2: the loophole is one height high, used only Crouching
    g = _game(fp_game, [("A1", "RFL", "A", "C5", 1, {"model": "RFL10", "posture": "stand",
                                                      "in_defence": "PBX"}),
                        ("B1", "RFL", "B", "C2", 4, {"model": "RFL10"})],
              [{"type": "PBX", "hex": "1C5", "door": 4}])
    _impulse(g, "A", "A1")
    with pytest.raises(RulesError, match="used crouch only") as exc:
        _mods(g, "A1", FIRE, "B1")
    assert exc.value.rule == "Firepower 8.8.4.2"
    g.state.units["A1"].state["posture"] = "crouch"
    _mods(g, "A1", FIRE, "B1")  # Crouching, out of the front loophole: allowed


def test_a_pillbox_holds_four_of_a_side_and_the_other_side_may_come_in(
        fp_game: GameFactory) -> None:
    # Firepower 8.8.4.2, 10.8: four of one side; the other side may have its four there too
    units: list[tuple[Any, ...]] = [(f"A{i}", "RFL", "A", "C5", 4) for i in range(1, 6)]
    units.append(("B1", "RFL", "B", "C5", 4))
    g = _game(fp_game, units, [{"type": "PBX", "hex": "1C5", "door": 4}])
    for i in range(1, 5):
        g.state.units[f"A{i}"].state["in_defence"] = "PBX"
    _impulse(g, "A", "A5")
    _refused(g, {"act": "position", "unit": "A5", "into": True}, "Firepower 10.8", "holds 4")
    _impulse(g, "B", "B1")
    _act(g, {"act": "position", "unit": "B1", "into": True})
    assert g.state.units["B1"].state["in_defence"] == "PBX"


def test_a_pillbox_is_meleed_only_through_its_door(fp_game: GameFactory) -> None:
    # Firepower 8.8.4, 13: no melee through the loophole; C4 -> C5 crosses C5's hexside 1, the
    # loophole side; C6 -> C5 crosses hexside 4, the door
    g = _game(fp_game, [("A1", "RFL", "A", "C4", 4, {"model": "RFL10"}),
                        ("A2", "RFL", "A", "C6", 1, {"model": "RFL10"}),
                        ("B1", "RFL", "B", "C5", 1, {"model": "RFL10", "posture": "crouch",
                                                     "in_defence": "PBX"})],
              [{"type": "PBX", "hex": "1C5", "door": 4}])
    _impulse(g, "A", "A1", "A2")
    _refused(g, {"act": "melee", "units": ["A1"], "hex": "1C5"}, "Firepower 8.8.4", "door")
    check_advanced_action(g, {"act": "melee", "units": ["A2"], "hex": "1C5"})


# -- towers (Firepower 8.8.6, FPD-94) --------------------------------------------------------------


def test_up_the_tower_stairs_from_any_direction_to_its_floor(fp_game: GameFactory) -> None:
    g = _game(fp_game, [("A1", "RFL", "A", "C5", 2, {"model": "RFL10"})],
              [{"type": "TWR", "hex": "1C5"}])
    _impulse(g, "A", "A1")
    info = _act(g, {"act": "position", "unit": "A1", "into": True})
    st = g.state.units["A1"].state
    assert info["cost"] == defenses.types()["TWR"].door_cost == 2  # one flight (11.1.8)
    assert (st["in_defence"], st["stands_at"]) == ("TWR", 5)  # the floor five heights up


def test_a_tower_holds_eight_of_a_side(fp_game: GameFactory) -> None:
    units = [(f"A{i}", "RFL", "A", "C5", 4) for i in range(1, 10)]
    g = _game(fp_game, units, [{"type": "TWR", "hex": "1C5"}])
    for i in range(1, 9):
        g.state.units[f"A{i}"].state.update(in_defence="TWR", stands_at=5)
    _impulse(g, "A", "A9")
    _refused(g, {"act": "position", "unit": "A9", "into": True}, "Firepower 10.8", "holds 8")


def test_a_soldier_in_a_tower_leaves_by_the_stairs_first(fp_game: GameFactory) -> None:
    g = _game(fp_game, [("A1", "RFL", "A", "C5", 4, {"in_defence": "TWR", "stands_at": 5})],
              [{"type": "TWR", "hex": "1C5"}])
    _impulse(g, "A", "A1")
    _refused(g, {"act": "enter", "unit": "A1"}, "Firepower 8.8.6", "comes out first")


@pytest.mark.parametrize(("bags", "name", "value"), [
    (False, "Firepower 12.2.3:target in cover (tower)", 1),
    (True, "Firepower 12.2.3:target using a loophole (sandbagged tower loophole)", 2),
])
def test_a_tower_gives_cover_and_loopholes_only_sandbagged(
        fp_game: GameFactory, bags: bool, name: str, value: int) -> None:
    code = "TWR+S" if bags else "TWR"
    g = _game(fp_game, [("A1", "RFL", "A", "C2", 4, {"model": "RFL10"}),
                        ("B1", "RFL", "B", "C5", 1, {"model": "RFL10", "in_defence": code,
                                                     "stands_at": 5})],
              [{"type": "TWR", "hex": "1C5", "sandbagged": bags}])
    _impulse(g, "A", "A1")
    mods = _mods(g, "A1", FIRE, "B1")
    assert mods[name] == value
    assert mods["Firepower 12.2.4:target concealed"] == 1


def test_prone_in_a_sandbagged_tower_no_fire_through_the_loopholes(fp_game: GameFactory) -> None:
    g = _game(fp_game, [("A1", "RFL", "A", "C5", 1, {"model": "RFL10", "posture": "prone",
                                                      "in_defence": "TWR+S", "stands_at": 5}),
                        ("B1", "RFL", "B", "C2", 4, {"model": "RFL10"})],
              [{"type": "TWR", "hex": "1C5", "sandbagged": True}])
    _impulse(g, "A", "A1")
    with pytest.raises(RulesError, match="loopholes") as exc:
        _mods(g, "A1", FIRE, "B1")
    assert exc.value.rule == "Firepower 8.8.6"


@pytest.mark.parametrize("posture", ["stand", "crouch"])
def test_standing_or_crouching_in_a_sandbagged_tower_fires_through_the_loopholes(
        fp_game: GameFactory, posture: str) -> None:
    # Firepower 8.8.6: the tower's loopholes are one to two heights above its floor, so both a
    # Standing and a Crouching soldier use them (a pillbox's are for Crouching only)
    g = _game(fp_game, [("A1", "RFL", "A", "C5", 1, {"model": "RFL10", "posture": posture,
                                                      "in_defence": "TWR+S", "stands_at": 5}),
                        ("B1", "RFL", "B", "C2", 4, {"model": "RFL10"})],
              [{"type": "TWR", "hex": "1C5", "sandbagged": True}])
    _impulse(g, "A", "A1")
    _mods(g, "A1", FIRE, "B1")  # allowed


def test_a_tower_between_blocks_a_line_at_the_ground(fp_game: GameFactory) -> None:
    # Firepower 12.1.5, 8.8.6: eight heights through its hex, higher than both Standing heads
    g = _game(fp_game, [("A1", "RFL", "A", "C2", 4, {"model": "RFL10"}),
                        ("B1", "RFL", "B", "C6", 1, {"model": "RFL10"})],
              [{"type": "TWR", "hex": "1C4"}])
    _impulse(g, "A", "A1")
    with pytest.raises(RulesError, match="tower") as exc:
        _mods(g, "A1", FIRE, "B1")
    assert exc.value.rule == "Firepower 12.1.1"


def test_soldiers_in_a_tower_are_not_meleed_from_the_ground(fp_game: GameFactory) -> None:
    # Firepower 13: feet at 5 share no height with a Standing attacker's 0-2
    g = _game(fp_game, [("A1", "RFL", "A", "C4", 4, {"model": "RFL10"}),
                        ("B1", "RFL", "B", "C5", 1, {"model": "RFL10", "in_defence": "TWR",
                                                     "stands_at": 5})],
              [{"type": "TWR", "hex": "1C5"}])
    _impulse(g, "A", "A1")
    _refused(g, {"act": "melee", "units": ["A1"], "hex": "1C5"}, "Firepower 13", "shares")


# -- abatis (Firepower 8.8.5.1, 11.2.1; FPD-95) ----------------------------------------------------


def test_into_and_out_of_an_abatis_hex_costs_twice(fp_game: GameFactory) -> None:
    g = _game(fp_game, [("A1", "RFL", "A", "C3", 4)], [{"type": "ABS", "hex": "1C4"}])
    _impulse(g, "A", "A1")
    _act(g, {"act": "enter", "unit": "A1"})
    assert _spent(g, "A1") == 2  # Standing: 1 MF, doubled
    assert any(e.get("type") == "abatis" and e["cost"] == 1 for e in g.log.events)
    _act(g, {"act": "enter", "unit": "A1"})  # leaving it: in an abatis hex, twice
    assert _spent(g, "A1") == 4


def test_an_abatis_move_without_the_mf_is_refused(fp_game: GameFactory) -> None:
    g = _game(fp_game, [("A1", "RFL", "A", "C3", 4)], [{"type": "ABS", "hex": "1C4"}])
    _impulse(g, "A", "A1")
    data(g)["phase"]["spent"]["A1"] = 3  # one MF left: enough for open ground, not the abatis
    _refused(g, {"act": "enter", "unit": "A1"}, "Firepower 11.2.1", "costs twice")


def test_open_ground_costs_once(fp_game: GameFactory) -> None:
    g = _game(fp_game, [("A1", "RFL", "A", "C3", 4)], [{"type": "ABS", "hex": "1D9"}])
    _impulse(g, "A", "A1")
    _act(g, {"act": "enter", "unit": "A1"})
    assert _spent(g, "A1") == 1


# -- blocks (Firepower 8.8.5.2) --------------------------------------------------------------------


def test_every_soldier_in_a_block_hex_has_cover_and_no_concealment(fp_game: GameFactory) -> None:
    g = _game(fp_game, [("A1", "RFL", "A", "C2", 4, {"model": "RFL10"}),
                        ("B1", "RFL", "B", "C5", 1, {"model": "RFL10"})],
              [{"type": "BLK", "hex": "1C5"}])
    _impulse(g, "A", "A1")
    mods = _mods(g, "A1", FIRE, "B1")
    assert mods["Firepower 12.2.3:target in cover (block)"] == 1
    assert "Firepower 12.2.4:target concealed" not in mods


def test_a_block_between_prone_soldiers_blocks(fp_game: GameFactory) -> None:
    # Firepower 8.8.5.2 (one height), 12.1.5 (through the hex), 12.1.1 (higher than both heads)
    g = _game(fp_game, [("A1", "RFL", "A", "C2", 4, {"model": "RFL10", "posture": "prone"}),
                        ("B1", "RFL", "B", "C6", 1, {"model": "RFL10", "posture": "prone"})],
              [{"type": "BLK", "hex": "1C4"}])
    _impulse(g, "A", "A1")
    with pytest.raises(RulesError, match="block") as exc:
        _mods(g, "A1", FIRE, "B1")
    assert exc.value.rule == "Firepower 12.1.1"
    for uid in ("A1", "B1"):  # both heads at 1, as high as the block: clear (12.1.3)
        g.state.units[uid].state["posture"] = "crouch"
    _mods(g, "A1", FIRE, "B1")


# -- ditches (Firepower 8.8.5.3) -------------------------------------------------------------------


def test_a_ditch_is_five_heights_deep_and_entered_only_by_climbing(fp_game: GameFactory) -> None:
    g = _game(fp_game, [("A1", "RFL", "A", "C3", 4, {"model": "RFL10"})],
              [{"type": "DCH", "hex": "1C4"}])
    assert ground_of(g, g.board.parse("1C4")) == -5
    _impulse(g, "A", "A1")
    _refused(g, {"act": "enter", "unit": "A1"}, "Firepower 8.8.5.3", "only by climbing")
    for _ in range(4):  # Firepower 11.1.11: one height an Action, one MF a height
        _act(g, {"act": "scale", "unit": "A1", "to": "on"})
    assert g.state.units["A1"].state["climb"]["total"] == 5
    _impulse(g, "A", "A1")
    _act(g, {"act": "scale", "unit": "A1", "to": "on"})  # the fifth: at the bottom, in C4
    assert g.board.label(g.state.units["A1"].hex) == "1C4"
    _impulse(g, "A", "A1")
    _refused(g, {"act": "enter", "unit": "A1"}, "Firepower 8.8.5.3", "only by climbing")


def test_no_melee_across_a_ditch_side(fp_game: GameFactory) -> None:
    g = _game(fp_game, [("A1", "RFL", "A", "C3", 4, {"model": "RFL10"}),
                        ("B1", "RFL", "B", "C4", 1, {"model": "RFL10"})],
              [{"type": "DCH", "hex": "1C4"}])
    _impulse(g, "A", "A1")
    _refused(g, {"act": "melee", "units": ["A1"], "hex": "1C4"}, "Firepower 8.8.5.3")


def test_low_in_a_ditch_the_side_hides_a_soldier(fp_game: GameFactory) -> None:
    # Standing at the bottom his head is at -3; a Prone firer two hexes off (0) across the ditch's
    # rim hex... the next hex's ground (0) is higher than the lower end and equal to the higher:
    # Firepower 12.1.2 blocks
    g = _game(fp_game, [("A1", "RFL", "A", "C2", 4, {"model": "RFL10", "posture": "prone"}),
                        ("B1", "RFL", "B", "C4", 1, {"model": "RFL10"})],
              [{"type": "DCH", "hex": "1C4"}])
    _impulse(g, "A", "A1")
    with pytest.raises(RulesError) as exc:
        _mods(g, "A1", FIRE, "B1")
    assert exc.value.rule == "Firepower 12.1.2"


def test_the_abatis_event_in_words(fp_game: GameFactory) -> None:
    from hexwar.plugins.firepower.words import describe_event

    g = _game(fp_game, [("A1", "RFL", "A", "C3", 4)], [{"type": "ABS", "hex": "1C4"}])
    _impulse(g, "A", "A1")
    _act(g, {"act": "enter", "unit": "A1"})
    said = [describe_event(g, e) for e in g.log.events if e.get("type") == "abatis"]
    assert said == ["RFL A1 spends 1 more MF for the abatis at 1C4 [Firepower 11.2.1]"], said


def test_hill_assault_sets_up_its_abatis_and_pillbox_and_no_crater_lands_on_them() -> None:
    # hexwar's own scenario (FPD-93, FPD-95); Firepower 8.7: no unit of the defender's in a crater
    from hexwar.core.scenario import load_and_validate
    from hexwar.plugins.firepower import hidden_setup as hs
    from hexwar.plugins.firepower.plugin import HERE

    g = Game(load_and_validate(HERE / "scenarios" / "hill-assault.toml"), seed=1)
    got = {g.board.label(h): d.type.code for h, d in defenses.defences(g).items()}
    # FPD-106: the foxholes and trenches along the brow too
    assert got == {"3X4": "ABS", "3X5": "ABS", "3X9": "ABS", "3X10": "ABS", "3Z8": "PBX",
                   "3Y8": "TRN", "3Y9": "TRN", "3Y10": "SFX", "3Y11": "DFX"}
    assert defenses.defences(g)[g.board.parse("3Z8")].front == 6
    assert hs.crater_allowed(g, g.board.parse("3Z8")) == "3Z8 holds the scenario's pillbox"
    assert hs.crater_allowed(g, g.board.parse("3Z9")) is None


def test_from_a_tower_floor_a_soldier_sees_over_a_hill_that_hides_him_on_the_ground(
        fp_game: GameFactory) -> None:
    # Firepower 8.8.6: the floor five heights up (head 7 Standing); a hill hex of one level (3
    # heights) between two Standing soldiers (2) blocks from the ground (Firepower 12.1.1), not
    # from the tower (the LOS chart's check, Firepower 12.1.4)
    g = fp_game([("A1", "RFL", "A", "C2", 4, {"model": "RFL10"}),
                 ("B1", "RFL", "B", "C6", 1, {"model": "RFL10"})],
                hexes=[{"at": "C4", "height": 1}], options=("firepower.advanced",))
    defenses.set_defences(g, [{"type": "TWR", "hex": "1C2"}])
    _impulse(g, "A", "A1")
    with pytest.raises(RulesError) as exc:
        _mods(g, "A1", FIRE, "B1")
    assert exc.value.rule == "Firepower 12.1.1"
    g.state.units["A1"].state.update(in_defence="TWR", stands_at=5)
    _mods(g, "A1", FIRE, "B1")


def test_backing_into_an_abatis_hex_costs_four_times(fp_game: GameFactory) -> None:
    # Firepower 11.2.1: backing twice, the abatis twice again; A1 at C3 faces 1, backs into C4
    g = _game(fp_game, [("A1", "RFL", "A", "C3", 1)], [{"type": "ABS", "hex": "1C4"}])
    _impulse(g, "A", "A1")
    _act(g, {"act": "back", "unit": "A1"})
    assert g.board.label(g.state.units["A1"].hex) == "1C4"
    assert _spent(g, "A1") == 4
