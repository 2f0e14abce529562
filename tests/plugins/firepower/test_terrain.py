"""The Advanced Game's terrain, set-up and scenarios (plugin ``firepower.advanced``): buildings
with floors, stairs, doors and windows, trees, water, craters, tunnels and mines, the defender's
secret set-up, the Turn Record removals, squad organizations and hexwar's own scenarios. A test of
a worked example of the rulebook is named after its FP-n case."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any

import pytest

from hexwar.core.engine.game import Game
from hexwar.core.engine.state import Unit
from hexwar.core.errors import DataError, HexwarError, RulesError
from hexwar.core.hexgrid import Hex
from hexwar.core.scenario import Scenario, load_and_validate
from hexwar.core.testing import make_game
from hexwar.plugins.firepower import advanced_terrain as at
from hexwar.plugins.firepower import buildings as bl
from hexwar.plugins.firepower import hidden_setup as hs
from hexwar.plugins.firepower import organizations as org
from hexwar.plugins.firepower.actions import apply_action
from hexwar.plugins.firepower.advanced_impulses import check_advanced_action
from hexwar.plugins.firepower.combat import in_arc
from hexwar.plugins.firepower.plugin import HERE
from hexwar.plugins.firepower.state import data, new_phase

TOOLS = Path(__file__).resolve().parents[3] / "tools" / "firepower"


def _game(units: list[tuple[Any, ...]], panel: int = 4, extra: str = "") -> Game:
    """A game on stand-in panel ``panel`` with its Advanced terrain; units (id, basic weapon,
    side, hex, facing, state)."""
    lines = ["[scenario]", 'id = "test-terrain"', 'system = "firepower"', "turns = 2",
             'rules = ["firepower.advanced"]',
             "[sides.A]", "sequence_units = 3", "impulses = 2",
             "[sides.B]", "sequence_units = 3", "impulses = 2",
             "[board]", f'panels = [{{ panel = "firepower:panel-{panel}" }}]',
             "[special]", f'terrain = ["firepower:terrain-{panel}"]', 'attacker = "A"',
             'attacker_side = "5/6"', extra]
    for uid, basic, side, hx, facing, state in units:
        st = ", ".join(f"{k} = {json.dumps(v)}" for k, v in state.items())
        lines += ["[[units]]", f'id = "{uid}"', f'type = "firepower:{basic}"', f'side = "{side}"',
                  f'hex = "{panel}{hx}"', f"facing = {facing}", f"state = {{ {st} }}"]
    sc = Scenario.from_text("\n".join(lines) + "\n", path="/tmp/test-terrain.toml")
    game = make_game(sc, seed=3)
    data(game)["board_side"] = {"A": "5/6", "B": "2/3"}
    return game


def _impulse(game: Game, *uids: str) -> dict[str, Any]:
    side = game.state.units[uids[0]].side
    ph = new_phase(side)
    ph["active"] = list(uids)
    data(game)["phase"] = ph
    return ph


def _face(u: Unit, target: Hex) -> None:
    """Turn ``u`` to the first facing whose front arc holds ``target`` (Firepower 6.3.3)."""
    assert u.hex is not None
    u.facing = next(d for d in range(1, 7) if in_arc(u.hex, d, target, "front60"))


def _scripted(ctx: Any, faces: list[int], then: int | None = None) -> list[str]:
    """Give fire context ``ctx`` the die faces ``faces`` in order (then ``then`` for every roll
    after them; None: no more rolls are expected); returns the list the purposes of the rolls
    are appended to, in order."""
    it = iter(faces)
    asked: list[str] = []

    def roll(purpose: str) -> int:
        asked.append(purpose)
        return next(it) if then is None else next(it, then)

    ctx.roll = roll
    return asked


def _do(game: Game, choice: dict[str, Any]) -> dict[str, Any]:
    check_advanced_action(game, choice)
    info = apply_action(game, choice)
    hs.after_action(game, choice, info)
    return info


def _refused(game: Game, choice: dict[str, Any], rule: str) -> None:
    """The choice fails with a RulesError naming ``rule`` and changes nothing."""
    before = game.state.digest()
    with pytest.raises(RulesError) as exc:
        check_advanced_action(game, choice)
    assert exc.value.rule == rule, (exc.value.rule, str(exc.value))
    assert isinstance(exc.value, HexwarError)
    assert game.state.digest() == before


def _label(game: Game, uid: str) -> str:
    u = game.state.units[uid]
    assert u.hex is not None
    return game.board.label(u.hex)


# -- data: stand-in panels and terrain files (Firepower 8.2) ------------------------------------


def test_make_advanced_panels_regenerates_the_shipped_files(tmp_path: Path) -> None:
    import importlib.util

    spec = importlib.util.spec_from_file_location("fp_make_adv", TOOLS / "make_advanced_panels.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    for path in module.main(tmp_path):
        shipped = HERE / "data" / path.parent.name / path.name
        assert path.read_bytes() == shipped.read_bytes(), f"{shipped} differs from its generator"


def test_panels_3_and_4_and_every_terrain_value_are_named_stand_ins_and_estimated() -> None:
    import tomllib

    for n in (3, 4):
        head = tomllib.loads((HERE / "data" / "panels" / f"panel{n}.toml").read_text())["panel"]
        assert head["stand_in"] is True and head["source"] == "estimated"
        assert "stand-in" in head["title"]
    for n in (1, 2, 3, 4):
        rec = at.terrain_records(f"terrain-{n}")
        assert set(rec.sources.values()) == {"estimated"}, n


def test_fp_24_a_floor_plan_is_named_by_its_building_and_story() -> None:
    """Firepower 8.2.1, 8.2.3 (FP-24): the plans of building A's stories are "A2" and "A3"; a
    soldier on the second floor is shown on plan A2."""
    game = _game([("S1", "RFL", "B", "BB5", 1, {"floor": 2})])
    b = at.adv_map(game).buildings["A"]
    assert (b.plan(2), b.plan(3)) == ("A2", "A3")
    assert hs.floor_label(game, game.state.units["S1"]) == "4BB5, plan A2"
    assert b.height == 2 * 4  # Firepower 8.2.3: the walls of both stories, a flat roof


def test_fp_27_a_hills_levels_times_its_heights_in_the_terrain() -> None:
    """Firepower 8.2.2 (FP-27): in the panel 3 terrain (3 heights a level) a two-level hill is at 6,
    a one-level one at 3, the stream bed at -3."""
    game = _game([("S1", "RFL", "A", "A1", 2, {})], panel=3, extra="heights_per_level = 3")
    m = at.adv_map(game)
    assert m.ground[game.board.parse("3Y5")] == 6   # two contour levels of three heights
    assert m.ground[game.board.parse("3W4")] == 3   # one level
    assert m.ground[game.board.parse("3Q0")] == -3  # the stream's bed, a depression


def test_water_depths_are_quantities_in_the_file_and_inches_inside() -> None:
    game = _game([("S1", "RFL", "A", "A1", 2, {})], panel=3)
    m = at.adv_map(game)
    assert m.water[game.board.parse("3Q0")] == 30.0
    assert m.water[game.board.parse("3Q7")] == 60.0
    bad = {"panel": "3", "water": [{"at": ["Q1"], "depth": "30 kilogram"}]}
    with pytest.raises(DataError):
        at._read(at.AdvMap(frozenset(game.board.hexes)), bad, game.board, "bad")
    metres = {"panel": "3", "water": [{"at": ["Q1"], "depth": "1 m"}]}
    m2 = at.AdvMap(frozenset(game.board.hexes))
    at._read(m2, metres, game.board, "metres")
    assert m2.water[game.board.parse("3Q1")] == pytest.approx(39.37, abs=0.01)


# -- Firepower 11.1.8 stairs ------------------------------------------------------------------


def test_stairs_go_up_and_down_one_flight_and_not_past_the_top() -> None:
    game = _game([("S1", "RFL", "B", "BB5", 1, {})])
    _impulse(game, "S1")
    info = _do(game, {"unit": "S1", "act": "stairs", "to": 2})
    assert info["cost"] == bl.MF["stairs"] and game.state.units["S1"].state["floor"] == 2
    _refused(game, {"unit": "S1", "act": "stairs", "to": 3}, "Firepower 8.2.1")
    _do(game, {"unit": "S1", "act": "stairs", "to": 1})
    assert "floor" not in game.state.units["S1"].state


def test_stairs_only_in_a_stairs_hex_and_one_flight_at_a_time() -> None:
    game = _game([("S1", "RFL", "B", "AA5", 1, {}), ("S2", "RFL", "B", "CC11", 1, {})])
    _impulse(game, "S1", "S2")
    _refused(game, {"unit": "S1", "act": "stairs", "to": 2}, "Firepower 11.1.8")
    _refused(game, {"unit": "S2", "act": "stairs", "to": 3}, "Firepower 11.1.8")
    _do(game, {"unit": "S2", "act": "stairs", "to": 2})
    _refused(game, {"unit": "S2", "act": "stairs", "to": 4}, "Firepower 11.1.8")


# -- Firepower 11.1.3, 11.1.9, 11.1.10 doors and windows ----------------------------------------


def test_a_buildings_wall_is_crossed_only_through_an_open_door_or_window() -> None:
    # Z5 faces AA5 (hexside 2): a wall without a door on the ground floor
    game = _game([("S1", "RFL", "A", "Z5", 2, {}), ("S2", "RFL", "A", "Z4", 2, {})])
    _impulse(game, "S1", "S2")
    _refused(game, {"unit": "S1", "act": "enter"}, "Firepower 11.1.3")
    info = _do(game, {"unit": "S2", "act": "through"})
    assert _label(game, "S2") == "4AA4" and info["cost"] == 2  # cross 1 + enter 1


def test_a_closed_door_may_not_be_crossed_and_changes_nothing() -> None:
    game = _game([("S1", "RFL", "A", "Z4", 2, {})])
    o = at.adv_map(game).opening(game.board.parse("4AA4"), game.board.parse("4Z4"), 1)
    assert o is not None and o.kind == "door"
    data(game)["openings"] = {o.key: "closed"}
    _impulse(game, "S1")
    _refused(game, {"unit": "S1", "act": "through"}, "Firepower 11.1.9")
    # from outside the door is not opened: it is broken open (Firepower 11.1.10)
    _refused(game, {"unit": "S1", "act": "door", "side": 2, "to": "open"}, "Firepower 11.1.9")


def test_doors_and_windows_are_opened_and_closed_from_inside() -> None:
    game = _game([("S1", "RFL", "B", "AA4", 5, {})])
    _impulse(game, "S1")
    _do(game, {"unit": "S1", "act": "door", "side": 5, "to": "close"})
    o = at.adv_map(game).opening(game.board.parse("4AA4"), game.board.parse("4Z4"), 1)
    assert o is not None and not at.is_open(game, o)
    _refused(game, {"unit": "S1", "act": "through"}, "Firepower 11.1.9")
    _refused(game, {"unit": "S1", "act": "door", "side": 5, "to": "close"}, "Firepower 11.1.9")
    _do(game, {"unit": "S1", "act": "door", "side": 5, "to": "open"})
    assert at.is_open(game, o)


def test_fp_112_breaking_attempts() -> None:
    """Firepower 11.1.10 (FP-112): break-open rolls of 2 at a bunker door, 3 at a building door,
    4 at a window and 5 at a hatch fail, succeed, succeed, fail."""
    assert [bl.can_break(2, "bunker door"), bl.can_break(3, "door"), bl.can_break(4, "window"),
            bl.can_break(5, "hatch")] == [False, True, True, False]


def test_breaking_open_a_closed_door_from_outside_rolls_and_a_broken_door_stays_open() -> None:
    game = _game([("S1", "RFL", "A", "Z4", 2, {}), ("S2", "RFL", "B", "AA4", 5, {})])
    o = at.adv_map(game).opening(game.board.parse("4AA4"), game.board.parse("4Z4"), 1)
    assert o is not None
    data(game)["openings"] = {o.key: "closed"}
    _impulse(game, "S1")
    for _ in range(12):
        if at.is_open(game, o):
            break
        data(game)["phase"]["spent"] = {}
        _do(game, {"unit": "S1", "act": "break", "side": 2})
    assert at.opening_state(game, o) == "broken"
    rolls = [e for e in game.log.events if e.get("type") == "break_open"]
    assert all(e["broken"] == (e["roll"] <= 3) for e in rolls)
    _impulse(game, "S2")
    _refused(game, {"unit": "S2", "act": "door", "side": 5, "to": "close"}, "Firepower 11.1.10")


def test_an_upper_floor_window_leads_nowhere_and_four_cross_a_window_a_phase() -> None:
    game = _game([("S1", "RFL", "B", "AA5", 5, {"floor": 2}), ("S2", "RFL", "B", "AA5", 6, {})])
    ph = _impulse(game, "S1", "S2")
    _refused(game, {"unit": "S1", "act": "through"}, "Firepower 11.1.3")
    o = at.adv_map(game).opening(game.board.parse("4AA5"), game.board.parse("4Z4"), 1)
    assert o is not None and o.kind == "window"
    ph["windows"] = {o.key: 4}
    _refused(game, {"unit": "S2", "act": "through"}, "Firepower 11.1.3")
    ph["windows"] = {o.key: 3}
    _do(game, {"unit": "S2", "act": "through"})
    assert _label(game, "S2") == "4Z4"


# -- Firepower 8.2.3, 12.1: what blocks a line of sight ---------------------------------------


def test_walls_block_sight_and_open_windows_at_head_height_let_it_through() -> None:
    game = _game([("IN", "RFL", "B", "AA5", 6, {}), ("OUT", "RFL", "A", "W3", 2, {}),
                  ("UP", "RFL", "B", "AA5", 5, {"floor": 2}), ("LOW", "RFL", "B", "AA5", 6,
                                                               {"posture": "prone"})])
    u = game.state.units
    # AA5's window on hexside 6 (toward Z4) on the ground floor, on hexside 5 upstairs
    assert at.blocked_between(game, u["IN"], u["OUT"]) is None
    assert "window" in str(at.blocked_between(game, u["LOW"], u["OUT"]))  # head 0, sill at 1
    assert at.blocked_between(game, u["UP"], u["IN"]) is not None  # floors of one building
    o = at.adv_map(game).opening(game.board.parse("4AA5"), game.board.parse("4Z4"), 1)
    assert o is not None
    data(game)["openings"] = {o.key: "closed"}
    assert "closed window" in str(at.blocked_between(game, u["IN"], u["OUT"]))


def test_a_building_higher_than_both_ends_blocks_and_the_obstacles_are_listed() -> None:
    game = _game([("W", "RFL", "A", "Y5", 2, {}), ("E", "RFL", "B", "CC5", 5, {})])
    u = game.state.units
    obs = at.sight_obstacles(game, game.board.parse("4Y5"), game.board.parse("4CC5"))
    assert any(o.kind == "building A" and o.height == 8 for o in obs)
    assert "building A" in str(at.blocked_between(game, u["W"], u["E"]))


def test_fire_through_a_wall_is_refused_by_the_line_of_sight_naming_the_rule() -> None:
    # Firepower 12.1.6: the Advanced line of sight refuses it (no interim check of the terrain)
    game = _game([("IN", "RFL", "B", "BB4", 3, {}), ("OUT", "RFL", "A", "W4", 2, {})])
    u, t = game.state.units["IN"], game.state.units["OUT"]
    assert u.hex is not None and t.hex is not None
    _face(u, t.hex)
    _impulse(game, "IN")
    _refused(game, {"unit": "IN", "act": "fire", "mode": "semi", "targets": ["OUT"],
                    "after": 0}, "Firepower 12.1.6")


def _los(game: Game, a: str, b: str) -> Any:
    from hexwar.plugins.firepower.advanced_los import line_of_sight, los_world, soldier_height
    from hexwar.plugins.firepower.soldiers import soldiers_of

    world = los_world(game)
    sol = soldiers_of(game.state.units)
    fa, fb = sol[a], sol[b]
    assert fa.hex is not None and fb.hex is not None
    return line_of_sight(world, fa.hex, fb.hex, soldier_height(world, fa),
                         soldier_height(world, fb), firer=fa, target=fb)


def test_the_line_of_sight_reads_the_terrain_files_walls_windows_and_buildings() -> None:
    # Firepower 8.2.3, 11.1.9, 12.1.6 through the hook firepower_los_obstacles (FPD-70)
    game = _game([("IN", "RFL", "B", "AA5", 6, {}), ("OUT", "RFL", "A", "W3", 2, {}),
                  ("LOW", "RFL", "B", "AA5", 6, {"posture": "prone"}),
                  ("W", "RFL", "A", "Y5", 2, {}), ("E", "RFL", "B", "CC5", 5, {})])
    assert not _los(game, "IN", "OUT").blocked  # through the open window at head height
    low = _los(game, "LOW", "OUT")
    assert low.blocked and low.rule == "Firepower 12.1.6" and "window" in low.reason
    o = at.adv_map(game).opening(game.board.parse("4AA5"), game.board.parse("4Z4"), 1)
    assert o is not None
    data(game)["openings"] = {o.key: "closed"}
    shut = _los(game, "IN", "OUT")
    assert shut.blocked and "closed window" in shut.reason
    across = _los(game, "W", "E")  # building A, 8 heights, between two Standing soldiers
    assert across.blocked and "building A" in across.reason


def test_the_line_of_sight_takes_the_terrain_sides_ground_floors_and_craters() -> None:
    # Firepower 8.2.2 heights per level, 8.2.3 a story's floor, 8.7 a crater's depth: one ground
    from hexwar.plugins.firepower.advanced_los import los_world, soldier_height
    from hexwar.plugins.firepower.soldiers import soldiers_of

    game = _game([("IN", "RFL", "B", "AA5", 6, {}), ("UP", "RFL", "B", "AA5", 5, {"floor": 2}),
                  ("C", "RFL", "A", "W3", 2, {})])
    data(game)["craters"] = {"4W3": 2}
    world = los_world(game)
    sol = soldiers_of(game.state.units)
    for h in game.board.hexes:
        assert world.ground(h) == at.ground_of(game, h)
    assert world.ground(game.board.parse("4W3")) == at.adv_map(game).ground.get(
        game.board.parse("4W3"), 0) - 2
    for uid in ("IN", "UP", "C"):
        assert soldier_height(world, sol[uid]) == at.head_of(game, game.state.units[uid])
    assert soldier_height(world, sol["UP"]) > soldier_height(world, sol["IN"])


# -- Firepower 11.1.11 climbing, 11.2.1.1 fording, 11.2.3 swimming, crawling --------------------


def test_fp_111_climbing_costs_and_the_highest_a_head_climbs_in_a_tree() -> None:
    """Firepower 11.1.11, 11.1.11.1, 11.1.11.2 (FP-111): climbing costs 2 MF a height on a wall,
    1 in a tree; a head goes up to the tree's height less 2 (a 3-height tree is too low); a
    climber with a weapon that cuts his MF may not climb, nor an Up soldier enter a hex."""
    assert bl.climb_cost("wall", 2) == 4 and bl.climb_cost("tree", 3) == 3
    assert bl.max_tree_head(7) == 5 and bl.max_tree_head(3) == 1  # below a Standing head of 2
    game = _game([("S1", "RFL", "A", "Z8", 1, {}), ("S2", "LMG", "A", "Z7", 1,
                                                  {"model": "LMG4"})], panel=3)
    _impulse(game, "S1", "S2")
    for _ in range(5):  # a 9-height tree: head from 2 up to 7
        data(game)["phase"]["spent"] = {}
        _do(game, {"unit": "S1", "act": "climb", "to": "up"})
    assert game.state.units["S1"].state["up"] == 7
    assert at.head_above_floor(game.state.units["S1"]) == 7
    _refused(game, {"unit": "S1", "act": "climb", "to": "up"}, "Firepower 11.1.11.1")
    _refused(game, {"unit": "S1", "act": "enter"}, "Firepower 11.1.11.2")
    _refused(game, {"unit": "S2", "act": "climb", "to": "up"}, "Firepower 11.1.11")


def test_fording_and_swimming_by_depth_and_posture() -> None:
    assert bl.ford_allowed("stand", 48.0) and not bl.ford_allowed("stand", 48.5)
    assert bl.ford_allowed("crouch", 24.0) and not bl.ford_allowed("crouch", 30.0)
    assert not bl.ford_allowed("prone", 6.0)  # Prone soldiers swim
    assert bl.swim_allowed("prone", 18.0, False) and not bl.swim_allowed("prone", 12.0, False)
    assert not bl.swim_allowed("prone", 30.0, True)
    # P2 faces the stream hex Q2 (30 inches); P7 faces the pool Q7 (60 inches)
    game = _game([("F", "RFL", "A", "P2", 2, {}), ("C", "RFL", "A", "P2", 2,
                                                 {"posture": "crouch"}),
                  ("S", "RFL", "A", "P2", 2, {"posture": "prone"}),
                  ("D", "RFL", "A", "P7", 2, {})], panel=3)
    m, b = at.adv_map(game), game.board
    assert m.is_water(b.parse("3P2").neighbor(2)) and m.is_water(b.parse("3P7").neighbor(2))
    _impulse(game, "F", "C", "S", "D")
    _refused(game, {"unit": "F", "act": "enter"}, "Firepower 11.2.1.1")
    _refused(game, {"unit": "C", "act": "ford"}, "Firepower 11.2.1.1")
    _refused(game, {"unit": "D", "act": "ford"}, "Firepower 11.2.1.1")
    assert _do(game, {"unit": "F", "act": "ford"})["cost"] == 2  # note (a): twice the cost
    assert _do(game, {"unit": "S", "act": "swim"})["cost"] == 3  # Firepower 11.2.3


def test_crawling_is_entering_prone_at_the_prone_column() -> None:
    from hexwar.plugins.firepower.tables import card

    game = _game([("S1", "RFL", "A", "C5", 2, {"posture": "prone"})])
    _impulse(game, "S1")
    assert _do(game, {"unit": "S1", "act": "enter"})["cost"] == card().mf_cost("enter", "prone")


# -- Firepower 8.7 craters ------------------------------------------------------------------------


def test_fp_29_craters_are_depressions_rough_and_kept_from_water_buildings_and_the_defender() -> None:
    """Firepower 8.7 (FP-29): single and double craters lie -1 and -2 below the hex; none goes in
    water, a building or another crater, and the defender sets up in none (the rough part:
    test_worked_examples_more::test_fp_29_both_craters_are_rough_terrain_below_the_hex)."""
    game = _game([("S1", "RFL", "A", "A1", 2, {})], panel=3)
    b = game.board
    with pytest.raises(RulesError, match="water"):
        hs.check_crater(game, {"hex": "3Q3"})
    data(game)["craters"] = {"3C5": 1, "3H8": 2}
    assert at.ground_of(game, b.parse("3C5")) == -1 and at.ground_of(game, b.parse("3H8")) == -2
    with pytest.raises(RulesError, match="crater"):
        hs.check_crater(game, {"hex": "3C5"})
    data(game)["board_side"] = {"A": "5/6", "B": "5/6"}  # both zones hold column C
    assert hs.check_advanced_placement(game, "A", {"hex": "3C5", "facing": 2})["floor"] == 1
    with pytest.raises(RulesError) as exc:
        hs.check_advanced_placement(game, "B", {"hex": "3C5", "facing": 2})
    assert exc.value.rule == "Firepower 8.7"
    town = _game([("S1", "RFL", "A", "A1", 2, {})])
    with pytest.raises(RulesError, match="building"):
        hs.check_crater(town, {"hex": "4AA5"})


def test_the_attacker_places_craters_before_anything_else() -> None:
    sc = load_and_validate(HERE / "scenarios" / "hill-assault.toml")
    names = [p.name for p in Game(sc, seed=1).sequence]
    assert names.index("firepower.craters") < names.index("firepower.board_side")
    assert names.index("firepower.setup") < names.index("firepower.secret_setup")
    # Firepower 9.3: the removals are the Advanced Turn Record Phase's, not a phase of their own
    assert names[-1] == "firepower.turn_record" and "firepower.removals" not in names


# -- Firepower 8.8.8 tunnels, 8.8.9 mines ---------------------------------------------------------


def test_tunnels_connect_to_a_caves_back_or_another_tunnel_hex() -> None:
    game = _game([("S1", "RFL", "B", "Y13", 5, {})], extra="tunnels = 4")
    # cave 4Y13's back is 4X13; cave 4V13's back is 4W13
    assert [game.board.label(h) for h in hs.check_tunnels(game, ["4X13", "4W13"])] == [
        "4X13", "4W13"]
    with pytest.raises(RulesError, match="connect") as exc:
        hs.check_tunnels(game, ["4X13", "4T5"])
    assert exc.value.rule == "Firepower 8.8.8"
    with pytest.raises(RulesError, match="allows 4"):
        hs.check_tunnels(game, ["4X13", "4W13", "4W12", "4W14", "4X12"])


def test_mines_one_a_hex_out_of_water_and_a_pmn2s_trip_wire_or_trigger() -> None:
    game = _game([("S1", "RFL", "B", "AA16", 5, {})], panel=3)
    with pytest.raises(RulesError, match="water"):
        hs.check_mine(game, "PMN1", {"hex": "3Q4"})
    hs.secret(game, "B")["mines"] = [{"kind": "PMN1", "hex": "3K4"}]
    with pytest.raises(RulesError, match="one a hex"):
        hs.check_mine(game, "PMN1", {"hex": "3K4"})
    line = ["3K6", "3K7", "3K8", "3K9", "3K10", "3K11"]
    rec = hs.check_mine(game, "PMN2", {"hex": "3K5", "facing": 4, "trip": line})
    assert rec == {"kind": "PMN2", "hex": "3K5", "facing": 4, "trip": line}
    with pytest.raises(RulesError, match="contiguous"):
        hs.check_mine(game, "PMN2", {"hex": "3K5", "facing": 4,
                                     "trip": ["3K6", "3K8", "3K9", "3K10", "3K11", "3K12"]})
    with pytest.raises(RulesError, match="ten"):
        hs.check_mine(game, "PMN2", {"hex": "3K5", "facing": 4, "trigger": "3Y5"})
    with pytest.raises(RulesError, match="facing"):
        hs.check_mine(game, "PMN2", {"hex": "3K5", "trip": line})


def test_a_pmn1_goes_off_once_when_a_soldier_enters_its_hex() -> None:
    game = _game([("S1", "RFL", "A", "C5", 2, {}), ("S2", "RFL", "A", "C5", 2, {})])
    front = game.board.label(game.board.parse("4C5").neighbor(2))
    hs.secret(game, "B")["mines"] = [{"kind": "PMN1", "hex": front}]
    _impulse(game, "S1", "S2")
    game.dice.d10 = lambda purpose, **_: 10  # type: ignore[method-assign]
    _do(game, {"unit": "S1", "act": "enter"})
    assert game.state.units["S1"].state.get("status") == "stunned"  # in the impact hex
    # S2, one hex away, is in the G blast's zone (Firepower 12.3.4.2, FPD-187)
    assert game.state.units["S2"].state.get("status") == "suppressed"
    assert hs.secret(game, "B")["mines"] == []
    boom = [e for e in game.log.events if e.get("type") == "mine"]
    assert len(boom) == 1 and "visible_to" not in boom[0] and boom[0]["hex"] == front
    _do(game, {"unit": "S2", "act": "enter"})  # used once (Firepower 12.4.4)
    assert game.state.units["S2"].state.get("status") == "suppressed"  # not stunned there
    assert len([e for e in game.log.events if e.get("type") == "mine"]) == 1


def test_a_soldier_in_a_tunnel_is_hidden_and_moves_crouching_from_tunnel_hex_to_tunnel_hex() -> None:
    game = _game([("D1", "RFL", "B", "Y13", 5, {"posture": "crouch"}),
                  ("D2", "RFL", "B", "Y13", 5, {}), ("A1", "RFL", "A", "C5", 2, {})],
                 extra="tunnels = 4")
    hs.secret(game, "B")["tunnels"] = ["4X13", "4W13"]
    _impulse(game, "D1", "D2")
    _refused(game, {"unit": "D2", "act": "tunnel"}, "Firepower 8.8.8")  # Standing
    _do(game, {"unit": "D1", "act": "tunnel"})
    d1 = game.state.units["D1"]
    assert d1.state["tunnel"] is True and _label(game, "D1") == "4X13"
    assert "D1" not in game.view("A").units and "D1" in game.view("B").units
    shown = [e for e in game.view("A").events() if e.get("unit") == "D1"]
    assert shown == []  # his Actions are logged for his side alone
    _refused(game, {"unit": "D1", "act": "fire", "mode": "semi", "targets": ["A1"], "after": 0},
             "Firepower 8.8.8")
    d1.facing = next(d for d in range(1, 7)
                     if d1.hex is not None and d1.hex.neighbor(d) == game.board.parse("4W13"))
    _do(game, {"unit": "D1", "act": "enter"})
    assert _label(game, "D1") == "4W13"
    d1.facing = 1
    data(game)["phase"]["spent"] = {}
    _refused(game, {"unit": "D1", "act": "enter"}, "Firepower 8.8.8")  # no tunnel there


# -- Firepower 9.3 removals -------------------------------------------------------------------


def test_fp_118_fp_119_the_turn_record_removes_illumination_and_old_smoke_once() -> None:
    """Firepower 9.3, 12.3.7, 12.3.8 (FP-118, FP-119): the Turn Record Phase removes every
    illumination unit and the smoke of earlier Turns, not this Turn's, in one logged removal."""
    sc = load_and_validate(HERE / "scenarios" / "hill-assault.toml")
    game = Game(sc, seed=1)
    d = data(game)
    d["illumination"] = [{"hex": "4C5", "turn": 2}]
    d["smoke"] = [{"hex": "4D5", "turn": 2}, {"hex": "4E5", "turn": 1}]
    game.state.turn = 2
    before = len(game.log.events)
    for spec in game.sequence:  # every phase after the Impulses: the Turn Record's end
        if spec.when == "turn" and spec.name not in ("firepower.mix", "firepower.impulses"):
            list(spec.run(game))
    events = [e for e in game.log.events[before:] if e.get("rule") == "Firepower 9.3"]
    assert [e["type"] for e in events] == ["turn_record_removals"]  # one removal, one event
    assert events[0]["smoke"] == ["4E5"] and events[0]["illumination"] == ["4C5"]
    assert d["illumination"] == [] and d["smoke"] == [{"hex": "4D5", "turn": 2}]


# -- Firepower 8.5, 14, 26.2 squads ---------------------------------------------------------------


def test_fp_82c_the_american_rifle_squads_base_points() -> None:
    us = org.organization("us-rifle-squad")
    assert not us.stand_in and us.soldiers == 10 and us.leaders == ("S", "A")
    assert org.squad_value(us) == 59 and org.leader_points(us.leaders) == 16
    assert org.squad_base_points(us, 5) == 185


def test_fp_120_the_base_point_formula() -> None:
    assert org.base_points(40, 2, 4, 10, 6) == 198


def test_fp_63_extra_equipment_in_proportion_to_the_squad_groups() -> None:
    """Firepower 14.1.3 (FP-63): extra equipment goes in the ratio of the squad groups: groups
    8 and 4 get 20 items and 10."""
    assert org.extra_equipment(10, {"A": 8, "B": 4}) == {"A": 20, "B": 10}


def test_only_the_american_rifle_squad_is_not_a_stand_in() -> None:
    squads = org.organizations()
    assert {k for k, v in squads.items() if not v.stand_in} == {"us-rifle-squad"}
    assert all("stand-in" in v.title for v in squads.values() if v.stand_in)
    sources = org.records().sources
    assert sources["squads.us-rifle-squad.weapons"] == "Firepower 26.2"
    assert sources["squads.standin-rifle-squad.weapons.RFL10"] == "estimated"


def test_a_squad_not_as_its_organization_is_a_scenario_problem() -> None:
    sides = {"A": {"squads": {"Q": {"sequence_units": 3, "impulses": 2,
                                    "organization": "us-rifle-squad"}}}}
    units = [{"state": {"squad": "Q", "model": "RFL10", "rank": "S"}}]
    problems = org.organization_problems(sides, units)
    assert any("weapons" in p for p in problems) and any("leaders" in p for p in problems)


# -- hexwar's own scenarios -----------------------------------------------------------------------


@pytest.fixture(scope="module", params=["street-fight", "hill-assault"])
def whole_game(request: pytest.FixtureRequest) -> Game:
    """Each Advanced scenario AI against AI, the whole game to its Turn limit (the hidden
    information tests below read its whole log)."""
    from hexwar.core.cli import _controllers

    sc = load_and_validate(HERE / "scenarios" / f"{request.param}.toml")
    game = Game(sc, seed=7)
    controllers, _ = _controllers(game, "ai,ai", 7)
    game.play(controllers)
    return game


@pytest.mark.slow  # plays a whole game of the scenario (shared by the module)
def test_each_scenario_plays_ai_against_ai_to_its_end(whole_game: Game) -> None:
    assert whole_game.result is not None
    assert whole_game.state.turn <= whole_game.scenario.turns
    assert set(whole_game.result.scores) == {"A", "B"}
    secret = data(whole_game)["secret"]["B"]
    assert secret.get("mines")  is not None or secret.get("tunnels") is not None


def test_the_hill_assaults_attacker_has_a_mortar_and_smoke_grenades() -> None:
    # issue 12: the hill assault is "craters, mortars, smoke" (Firepower 12.4.2, 12.3.7)
    from hexwar.plugins.firepower.advanced_fire import equipment_of, hex_items
    from hexwar.plugins.firepower.weapon_chart import weapon

    sc = load_and_validate(HERE / "scenarios" / "hill-assault.toml")
    game = Game(sc, seed=1)
    items = [i for u in game.state.units.values() if u.side == "A" for i in hex_items(u.state)]
    assert any(weapon(i).cls == "MRT" and "M" in weapon(i).types for i in items)
    smoke = sum(equipment_of(u.state).get("HGN4-M", 0) for u in game.state.units.values()
                if u.side == "A")
    assert smoke >= 2 and "M" in weapon("HGN4").types
    assert org.organization_problems(dict(sc.sides), sc.raw["units"]) == []


def test_the_scenarios_squads_are_their_organizations_of_different_p_and_i() -> None:
    for name in ("street-fight", "hill-assault"):
        sc = load_and_validate(HERE / "scenarios" / f"{name}.toml")
        for side in ("A", "B"):
            squads = sc.sides[side]["squads"]
            assert len(squads) >= 2
            assert len({(q["sequence_units"], q["impulses"]) for q in squads.values()}) >= 2


@pytest.mark.slow  # plays a whole game of the scenario (shared by the module)
def test_the_defenders_secret_records_never_reach_the_attacker(whole_game: Game) -> None:
    """Hidden information (Firepower 8.8.8, 8.8.9, 6.1), over a whole game: the tunnels and
    unexploded mines, the defender's decisions, his records for himself alone and the cup never
    reach side A's view or log."""
    rec = data(whole_game)["secret"]["B"]
    view = whole_game.view("A")
    assert view.system_state["secret"] == (data(whole_game)["secret"].get("A") or {})  # his own
    assert whole_game.view("B").system_state["secret"] == rec
    events = view.events()[1:]  # after the header (the scenario, public, is in it)
    text = json.dumps([events, view.system_state], sort_keys=True)
    for mine in rec.get("mines", []):
        assert json.dumps(mine, sort_keys=True) not in text
    if rec.get("tunnels"):
        assert json.dumps(rec["tunnels"]) not in text
    assert '"tunnels"' not in text and '"cup"' not in text
    assert not any(e.get("type") == "secret_setup" for e in events)
    assert not any(e.get("type") == "decision" and e.get("side") == "B" for e in events)
    # nor any record meant for B alone (loading notes, actions in tunnels: Firepower 11.1.12, 11.5)
    assert not any(e.get("visible_to") and "A" not in e["visible_to"] for e in events)
    assert any(e.get("visible_to") == ["B"] for e in whole_game.log.events)


class _TunnelAI:
    """The Firepower AI for side B that sets one soldier up in the cave of 4Y13 and takes him
    into the tunnel behind it whenever it can (to put tunnels into a whole game)."""

    def __init__(self, side: str, seed: int) -> None:
        from hexwar.plugins.firepower.ai import make_ai

        self.ai = make_ai(side, seed)
        self.name = "tunnel-ai"
        self.placed = False

    def choose(self, decision: Any, view: Any) -> Any:
        opts = list(decision.options or [])
        if decision.kind == "place" and not self.placed:
            self.placed = True
            return {"hex": "4Y13", "facing": 5, "posture": "crouch"}
        if decision.kind == "firepower.tunnels":
            return max(opts, key=lambda o: ("4X13" in o["tunnels"], len(o["tunnels"])))
        if decision.kind == "impulse":
            for o in opts:
                if isinstance(o, dict) and o.get("hex") == "4Y13" and not o.get("hit_the_dirt"):
                    return o
        if decision.kind == "action":
            for o in opts:
                if not isinstance(o, dict) or "unit" not in o:
                    continue
                down = bool(view.unit(o["unit"]).state.get("tunnel"))
                if (o.get("act") == "tunnel" and not down) or (o.get("act") == "enter" and down):
                    return o
        return self.ai.choose(decision, view)


@pytest.mark.slow  # plays one Turn of the street fight
def test_a_whole_game_with_a_soldier_in_a_tunnel_never_shows_him_to_the_attacker() -> None:
    """Hidden information in a whole game (Firepower 8.8.8, 11.5): while a defender is in a
    tunnel the attacker's view has no trace of him, in its units, its log or the Impulse record
    (FPD-133)."""
    from hexwar.plugins.firepower.ai import make_ai

    sc = load_and_validate(HERE / "scenarios" / "street-fight.toml")
    game = Game(dataclasses.replace(sc, turns=1), seed=11)
    underground: set[str] = set()
    leaks: list[str] = []

    def check(g: Game) -> None:
        view = g.view("A")
        ph = view.system_state.get("phase") or {}
        # the Impulse record's soldiers: its lists of ids and its dicts by id (FPD-133)
        named = {x for v in ph.values() if isinstance(v, (list, dict)) for x in v}
        for u in g.state.units.values():
            if u.state.get("tunnel") and u.side == "B":
                underground.add(u.id)
                if u.id in view.units or u.id in named:
                    leaks.append(u.id)

    game.play({"A": make_ai("A", 11), "B": _TunnelAI("B", 11)}, on_decision=check)
    assert underground, "the test game put nobody in a tunnel"
    assert leaks == []
    hidden = [e for e in game.log.events if e.get("type") == "action"
              and e.get("visible_to") == ["B"]]
    assert hidden
    a_log = game.view("A").events()
    assert not any(e.get("type") == "action" and e.get("visible_to") for e in a_log)


@pytest.mark.slow  # plays a whole game of the scenario (shared by the module)
def test_the_ai_sets_its_defenders_up_in_the_buildings_and_on_upper_floors(whole_game: Game) -> None:
    """The AI reads the Advanced terrain (Firepower 8.2.1): the street fight's defender takes
    the buildings' floors; in the hill assault nobody sets up in water."""
    m = at.adv_map(whole_game)
    placed = [e for e in whole_game.log.events if e.get("type") == "placed"]
    if whole_game.scenario.id == "firepower:street-fight":
        mine = [e for e in placed if whole_game.state.units[e["unit"]].side == "B"]
        inside = [e for e in mine if m.building(whole_game.board.parse(e["hex"])) is not None]
        assert len(inside) >= len(mine) // 2
        assert any(e["floor"] > 1 for e in mine)
    else:
        assert not any(m.is_water(whole_game.board.parse(e["hex"])) for e in placed)


def test_the_ai_goes_through_an_open_door_into_cover() -> None:
    """Firepower 11.1.3, 8.2.3: a soldier before an open door with an enemy rifleman in the open
    takes the building's walls (the AI's choices among the legal Actions, one Impulse). Its
    plans go through doors and windows (FPD-160): it may turn to the open window beside the
    door and climb in there instead; either way it ends the Impulse inside building A."""
    from hexwar.core.engine.decisions import Decision
    from hexwar.plugins.firepower.advanced_impulses import legal_advanced_actions
    from hexwar.plugins.firepower.advanced_terrain import adv_map
    from hexwar.plugins.firepower.ai import make_ai

    game = _game([("S1", "RFL", "A", "Z4", 2, {}), ("E1", "RFL", "B", "Z12", 1, {}),
                  ("E2", "LMG", "B", "V6", 2, {})])
    _impulse(game, "S1")
    opts = legal_advanced_actions(game)
    assert {"unit": "S1", "act": "through"} in opts
    for _ in range(6):
        choice = make_ai("A", 1).choose(Decision("A", "action", options=opts), game.view("A"))
        assert choice in opts
        if choice == "end":
            break
        _do(game, choice)
        opts = legal_advanced_actions(game)
    h = game.state.units["S1"].hex
    assert h is not None and adv_map(game).building_of.get(h) == "A"


def test_no_melee_through_a_wall_or_with_soldiers_on_another_floor() -> None:
    """Firepower 11.1.1, 11.1.3: the attackers reach the defenders through an open opening on
    their floor; soldiers upstairs cannot be meleed from the street (now that the floors raise
    them in the line of sight's heights, the Advanced melee's shared height, Firepower 13,
    refuses it first)."""
    game = _game([("A1", "RFL", "A", "Z5", 2, {}), ("B1", "RFL", "B", "AA5", 5, {}),
                  ("A2", "RFL", "A", "Z4", 2, {}), ("B2", "RFL", "B", "AA4", 5, {"floor": 2})])
    _impulse(game, "A1", "A2")
    _refused(game, {"act": "melee", "units": ["A1"], "hex": "4AA5"}, "Firepower 11.1.3")
    _refused(game, {"act": "melee", "units": ["A2"], "hex": "4AA4"}, "Firepower 13")


def test_an_impact_in_a_mined_hex_sets_its_mine_off() -> None:
    """Firepower 12.4.4.3 (for the Advanced fire to call): the mine goes off and is public."""
    game = _game([("S1", "RFL", "A", "C5", 2, {"posture": "prone"})])
    hs.secret(game, "B")["mines"] = [{"kind": "PMN1", "hex": "4C5"}, {"kind": "PMN1",
                                                                       "hex": "4D9"}]
    hs.mines_hit(game, game.board.parse("4C5"))
    assert hs.secret(game, "B")["mines"] == [{"kind": "PMN1", "hex": "4D9"}]
    s1 = game.state.units["S1"].state
    assert s1.get("eliminated") or s1.get("status") == "stunned"


def test_hexwar_los_explains_a_building_of_the_terrain_files() -> None:
    # Firepower 8.2.3, 12.1.1 in `hexwar los` (the Advanced line of sight with the terrain, FPD-70)
    from click.testing import CliRunner

    from hexwar.core.cli import cli

    path = str(HERE / "scenarios" / "street-fight.toml")
    r = CliRunner().invoke(cli, ["los", path, "4Y5", "4CC5"])
    assert r.exit_code == 0, r.output
    assert "blocked at 4AA5: building A at height 8" in r.output
    assert "(Firepower 12.1.1)" in r.output


def test_a_copy_of_the_shared_terrain_keeps_its_own_line_cache() -> None:
    """The Advanced terrain is shared by every game of a board; a copy with other walls (as the
    climbing tests make) must not hand its cached lines, with their walls, to the shared map."""
    game = _game([("A1", "RFL", "A", "C5", 2, {})])
    shared = at.adv_map(game)
    a = game.board.parse("4C5")
    b = a.neighbor(2).neighbor(2)
    key = at.side_key(a, a.neighbor(2))
    assert key not in shared.walls
    copy = dataclasses.replace(shared, walls={**shared.walls, key: 4})
    assert key in copy.line(a, b)[1]
    assert key not in shared.line(a, b)[1]
