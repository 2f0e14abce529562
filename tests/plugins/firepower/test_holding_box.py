"""The Holding Box Cards (Firepower 8.4, 8.8.1; FPD-168): each position with room for soldiers
has a numbered box; a soldier in the position is in its box; the other side reads the boxes but
not the soldiers' equipment, and never a soldier in a tunnel."""

from __future__ import annotations

from typing import Any

import pytest

from hexwar.core.errors import RulesError
from hexwar.plugins.firepower import defenses
from hexwar.plugins.firepower import holding_box as hb
from tests.plugins.firepower.test_defenses import GameFactory, _game, _impulse
from tests.plugins.firepower.test_defenses_more import _act

DEFS = [{"type": "DFX", "hex": "1C5"}, {"type": "WIR", "hex": "1D7"},
        {"type": "BKR", "hex": "1F5", "door": 4}, {"type": "TRN", "hex": "1H5"}]


def test_each_position_with_room_has_a_numbered_box(fp_game: GameFactory) -> None:
    """Firepower 8.8.1: boxes numbered in the list's order; wire has none (8.8.3 is terrain)."""
    g = _game(fp_game, [("A1", "RFL", "A", "C5", 4)], DEFS)
    nums = {g.board.label(h): n for h, n in hb.box_numbers(g).items()}
    assert nums == {"1C5": 1, "1F5": 2, "1H5": 3}


def test_a_box_number_given_is_kept_the_rest_fill_in(fp_game: GameFactory) -> None:
    g = _game(fp_game, [("A1", "RFL", "A", "C5", 4)],
              [{"type": "DFX", "hex": "1C5"}, {"type": "BKR", "hex": "1F5", "door": 4, "box": 1}])
    nums = {g.board.label(h): n for h, n in hb.box_numbers(g).items()}
    assert nums == {"1F5": 1, "1C5": 2}


@pytest.mark.parametrize(("specs", "words"), [
    ([{"type": "DFX", "hex": "1C5", "box": 2}, {"type": "SFX", "hex": "1C7", "box": 2}],
     "box 2"),
    ([{"type": "WIR", "hex": "1C5", "box": 1}], "only a foxhole"),
    ([{"type": "DFX", "hex": "1C5", "box": 0}], "from 1"),
])
def test_bad_box_numbers_are_refused_naming_the_rule(
        fp_game: GameFactory, specs: list[dict[str, Any]], words: str) -> None:
    g = _game(fp_game, [("A1", "RFL", "A", "C2", 4)], specs)
    before = g.state.digest()
    with pytest.raises(RulesError, match=words) as exc:
        hb.check_boxes(g)
    assert exc.value.rule == "Firepower 8.4"
    assert g.state.digest() == before


def test_a_soldier_in_the_position_is_in_its_box(fp_game: GameFactory) -> None:
    """Firepower 8.8.1: in the position means in its box, with his facing and posture; in the
    hex but out of the position he stays on the board, not in the box."""
    g = _game(fp_game, [("A1", "RFL", "A", "C5", 4, {"model": "RFL10"}),
                        ("A2", "RFL", "A", "C5", 3, {"model": "RFL10"})], DEFS)
    _impulse(g, "A", "A1", "A2")
    assert hb.cards(g, None)["boxes"]["1"]["soldiers"] == []
    _act(g, {"act": "position", "unit": "A1", "into": True})
    box = hb.cards(g, None)["boxes"]["1"]
    assert box["hex"] == "1C5" and box["type"] == "DFX"
    assert [s["id"] for s in box["soldiers"]] == ["A1"]
    assert box["soldiers"][0]["facing"] == 4 and box["soldiers"][0]["posture"] == "stand"
    _act(g, {"act": "position", "unit": "A1", "into": False})
    assert hb.cards(g, None)["boxes"]["1"]["soldiers"] == []


def test_the_defender_takes_a_card(fp_game: GameFactory) -> None:
    """Firepower 8.4: the side using the defensive units (the defender who set them up, or a
    side with a soldier in one) takes a Holding Box Card."""
    g = _game(fp_game, [("A1", "RFL", "A", "C5", 4), ("B1", "RFL", "B", "F5", 1)], DEFS)
    g.scenario.raw["special"]["attacker"] = "B"
    assert hb.cards(g, None)["taken_by"] == ["A"]
    g.state.units["B1"].state["in_defence"] = "BKR"
    assert hb.cards(g, None)["taken_by"] == ["A", "B"]


def test_no_positions_no_card(fp_game: GameFactory) -> None:
    g = _game(fp_game, [("A1", "RFL", "A", "C5", 4)], [{"type": "WIR", "hex": "1D7"}])
    assert hb.cards(g, None) == {} and not hb.takes_card(g, "A")


def test_the_other_side_reads_the_box_but_not_the_equipment(fp_game: GameFactory) -> None:
    """Firepower 8.4 (the card is by the board), 8.5 (the organization list is the side's own,
    FPD-109): B's view shows A1 in box 1 without his grenades; A's own view shows them."""
    g = _game(fp_game, [("A1", "RFL", "A", "C5", 4, {"model": "RFL10"})], DEFS)
    g.state.units["A1"].state["equipment"] = {"HGN4": 2}
    g.state.units["A1"].state["in_defence"] = "DFX"
    theirs = g.view("B").system_state["holding_boxes"]["boxes"]["1"]["soldiers"]
    assert [s["id"] for s in theirs] == ["A1"] and "equipment" not in theirs[0]
    mine = g.view("A").system_state["holding_boxes"]["boxes"]["1"]["soldiers"]
    assert mine[0]["equipment"] == {"HGN4": 2}


def test_a_soldier_in_a_tunnel_never_shows_on_the_other_sides_card(fp_game: GameFactory) -> None:
    """Firepower 8.8.8: what is under the ground is the side's own secret."""
    g = _game(fp_game, [("A1", "RFL", "A", "C5", 4, {"model": "RFL10"})], DEFS)
    u = g.state.units["A1"]
    u.state["in_defence"] = "DFX"
    u.state["tunnel"] = True
    assert hb.cards(g, "B")["boxes"]["1"]["soldiers"] == []
    assert [s["id"] for s in hb.cards(g, "A")["boxes"]["1"]["soldiers"]] == ["A1"]


def test_a_destroyed_position_has_no_box(fp_game: GameFactory) -> None:
    g = _game(fp_game, [("A1", "RFL", "A", "C2", 4)], [{"type": "TWR", "hex": "1C5"}])
    assert "1" in hb.cards(g, None)["boxes"]
    defenses.set_defences(g, [{"type": "TWR", "hex": "1C5"}])
    from hexwar.plugins.firepower.state import data

    data(g)[defenses.DESTROYED] = ["1C5"]
    assert hb.cards(g, None)["boxes"] == {}


def test_a_scenario_with_one_box_for_two_positions_stops_before_play() -> None:
    from tests.plugins.firepower.test_terrain import _game as terrain_game

    extra = ('defenses = [{ type = "DFX", hex = "4C5", box = 1 }, '
             '{ type = "SFX", hex = "4C7", box = 1 }]')
    with pytest.raises(RulesError, match="box 1") as exc:
        terrain_game([("A1", "RFL", "A", "C2", 4, {})], extra=extra)
    assert exc.value.rule == "Firepower 8.4"
    ok = extra.replace("box = 1 }]", "box = 2 }]")
    g = terrain_game([("A1", "RFL", "A", "C2", 4, {})], extra=ok)
    assert sorted(hb.cards(g, None)["boxes"]) == ["1", "2"]


class _IntoPositions:
    """The AI, but any soldier who may go into a position does (to fill the boxes)."""

    def __init__(self, ai: Any) -> None:
        self.ai = ai
        self.name = "into-positions"

    def choose(self, decision: Any, view: Any) -> Any:
        if decision.kind == "action":
            for o in decision.options or []:
                if isinstance(o, dict) and o.get("act") == "position" and o.get("into"):
                    return o
        return self.ai.choose(decision, view)


@pytest.mark.slow  # plays one Turn of the hill assault
def test_a_whole_game_shows_the_boxes_but_never_the_other_sides_equipment() -> None:
    """Firepower 8.4, 8.8.1, 8.5 in a whole game: at every decision each side's view has the
    Holding Box Cards with every soldier in a position, and the other side's soldiers there
    without their equipment."""
    import dataclasses

    from hexwar.core.cli import _controllers
    from hexwar.core.engine.game import Game
    from hexwar.core.scenario import load_and_validate
    from hexwar.plugins.firepower.defenses import in_defence
    from hexwar.plugins.firepower.plugin import HERE

    sc = load_and_validate(HERE / "scenarios" / "hill-assault.toml")
    game = Game(dataclasses.replace(sc, turns=1), seed=5)
    seen: set[str] = set()
    leaks: list[str] = []

    def check(g: Game) -> None:
        inside = {u.id for u in g.state.units.values()
                  if in_defence(u) and not u.state.get("eliminated")}
        for side in ("A", "B"):
            boxes = g.view(side).system_state["holding_boxes"]["boxes"]
            shown = {s["id"]: s for b in boxes.values() for s in b["soldiers"]}
            assert set(shown) == inside
            seen.update(shown)
            leaks.extend(i for i, s in shown.items()
                         if s["side"] != side and "equipment" in s)

    controllers, _ = _controllers(game, "ai,ai", 5)
    game.play({"A": controllers["A"], "B": _IntoPositions(controllers["B"])}, on_decision=check)
    assert seen, "nobody went into a position in the test game"
    assert leaks == []
