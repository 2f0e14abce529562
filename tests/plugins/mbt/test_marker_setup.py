"""MBT 12.4 with MBT 10.0: terrain markers a scenario allots to a side, placed by that side at
set-up (docs/decisions.md MBTD-168)."""

from __future__ import annotations

import copy
import re
from pathlib import Path
from typing import Any

import pytest

from hexwar.core.errors import HexwarError
from hexwar.core.scenario import Scenario
from hexwar.core.testing import make_game as scenario_game
from hexwar.plugins.mbt import marker_setup
from hexwar.plugins.mbt.markers import markers
from hexwar.plugins.mbt.setup import setup_phase, setup_zone
from hexwar.plugins.mbt.state import data

ADV = ["mbt.advanced"]
SCENARIOS = Path(__file__).resolve().parents[3] / "plugins/mbt/scenarios"


def _game(make_game: Any, allot: str, **kw: Any) -> Any:
    return make_game([("N1", "M1", "NATO", "9J2", 4), ("S1", "T-72M1", "Soviet", "9J18", 1)],
                     options=kw.pop("options", ADV), special=f"[setup]\nmarkers = {allot}", **kw)


def test_each_side_places_its_allotted_markers_at_set_up_12_4(make_game: Any, run: Any) -> None:
    """MBT 12.4, 10.0: NATO's two wire and one improved position and the Soviet ditch are asked
    one at a time of their side (the kind in the context), go where the side puts them, and are
    public on the map from then on."""
    g = _game(make_game, '{ NATO = { wire = 2, improved_position = 1 }, Soviet = { ditch = 1 } }')
    picks = {"wire": ["9E10", "9F10"], "improved_position": ["9J3"], "ditch": ["9J15"]}
    asked: list[Any] = []

    def answer(d: Any) -> Any:
        assert d.kind == marker_setup.MARKER and d.rule == "MBT 12.4"
        asked.append((d.side, d.context["kind"]))
        return picks[d.context["kind"]].pop(0)

    run(setup_phase(g), answer)
    assert asked == [("NATO", "wire"), ("NATO", "wire"), ("NATO", "improved_position"),
                     ("Soviet", "ditch")]
    assert markers(g) == {"9E10": "wire", "9F10": "wire", "9J3": "improved_position",
                          "9J15": "ditch"}
    placed = [r for r in g.log.events if r.get("type") == "marker_placed"]
    assert len(placed) == 4 and all("visible_to" not in r for r in placed)  # public (MBTD-59)


@pytest.mark.parametrize(("kind", "where", "rule"), [
    ("block", "9E10", "MBT 12.4.3"),  # no road or path there
    ("ditch", "9E10", "MBT 12.4.4"),  # a brick building hex
    ("improved_position", "9E10", "MBT 12.4.5"),  # a pond hex
    ("wire", "9E10", "MBT 12.4.6"),  # a pond hex
    ("wire", "9Z99", "MBT 12.4"),  # not on the map
    ("wire", "9E11", "MBTD-168"),  # already a marker there
])
def test_an_illegal_placement_is_refused_naming_the_rule_and_changes_nothing(
        make_game: Any, kind: str, where: str, rule: str) -> None:
    """MBT 12.4.3-12.4.6: a marker where its kind may not go is refused with the rule; the
    markers on the map are unchanged."""
    terrain = {"9E10": "brick" if kind == "ditch" else "pond"}
    g = _game(make_game, f"{{ NATO = {{ {kind} = 1 }} }}", terrain=terrain,
              roads=[("9C5", "9C6")])
    markers(g)["9E11"] = "wire"
    before = copy.deepcopy(markers(g))
    gen = setup_phase(g)
    d = gen.send(None)
    assert d.kind == marker_setup.MARKER
    with pytest.raises(HexwarError, match=re.escape(rule)):
        d.check(where)
    assert markers(g) == before
    gen.close()


def test_the_options_are_the_legal_hexes_only_12_4_3(make_game: Any) -> None:
    """MBT 12.4.3: a block's options are exactly the road and path hexes (here one road)."""
    g = make_game([("N1", "M1", "NATO", "9J2", 4)], options=ADV, roads=[("9C5", "9C6")],
                  special="[setup]\nmarkers = { NATO = { block = 1 } }")
    d = setup_phase(g).send(None)
    assert sorted(d.options) == ["9C5", "9C6"]


def test_markers_need_the_advanced_game_12_4(make_game: Any) -> None:
    """MBT 12.4 is an Advanced Game rule: an allotment in a Basic game is refused."""
    with pytest.raises(HexwarError, match=r"MBT 12\.4"):
        _game(make_game, "{ NATO = { wire = 1 } }", options=())


def _allotted(key: str, allot: str, turns: int | None = None) -> Scenario:
    text = (SCENARIOS / f"scenario-one-{key}.toml").read_text()
    text, n = re.subn(r"(?m)^\[setup\]$", f"[setup]\nmarkers = {allot}", text)
    assert n == 1
    if turns is not None:
        text, n = re.subn(r"(?m)^turns = .*$", f"turns = {turns}", text)
        assert n == 1
    return Scenario.from_text(text, path=str(SCENARIOS / f"scenario-one-{key}.toml"))


def test_the_first_options_are_sensible_improved_positions_in_the_zone_obstacles_ahead(
        run: Any) -> None:
    """MBTD-168 (marker_ai): taking the first option, improved positions go in the side's own
    set-up zone in open ground, and wire goes one to three hexes ahead of the zone, on a road
    first where one is there."""
    sc = _allotted("2", "{ NATO = { wire = 2, improved_position = 2 } }")
    g = scenario_game(sc, seed=3)
    for u in g.state.units.values():
        u.hex = None
    run(setup_phase(g), lambda d: d.options[0])
    edge = data(g)["edge"]["NATO"]
    zone = set(setup_zone(g, edge))
    ms = markers(g)
    ips = [g.board.parse(h) for h, k in ms.items() if k == "improved_position"]
    wires = [g.board.parse(h) for h, k in ms.items() if k == "wire"]
    assert len(ips) == 2 and all(h in zone for h in ips)
    assert len(wires) == 2 and all(h not in zone and 1 <= min(h.distance(z) for z in zone) <= 3
                                   for h in wires)
    # no unit was placed before the markers: the options told nothing of the enemy
    first_unit = next(i for i, r in enumerate(g.log.events) if r.get("type") == "placed")
    last_marker = max(i for i, r in enumerate(g.log.events) if r.get("type") == "marker_placed")
    assert last_marker < first_unit


def test_a_matchup_with_markers_plays_ai_against_ai_12_4() -> None:
    """MBT 12.4, 10.0: the AI places the allotted markers (the sensible first option) and the game
    plays on; the markers stand on the map, the tracked vehicles may cross or break the wire."""
    from hexwar.plugins.mbt.ai import MbtAI

    sc = _allotted("2", "{ NATO = { wire = 2, improved_position = 2 }, Soviet = { ditch = 1 } }",
                   turns=2)
    g = scenario_game(sc, seed=4)
    result = g.play({"NATO": MbtAI("NATO", 4), "Soviet": MbtAI("Soviet", 4)})
    assert g.over and result.level in ("victory", "tie", "automatic victory")
    placed = [r for r in g.log.events if r.get("type") == "marker_placed"]
    assert [r["side"] for r in placed].count("NATO") == 4 and len(placed) == 5


def test_the_marker_decision_reads_in_words_and_at_the_table(make_game: Any) -> None:
    """MBT 12.4 (MBTD-168): the marker decision has a web form (each legal hex, the kind in the
    title) and an explanation in words; the placement event reads in words."""
    from hexwar.core.engine.view import build_view
    from hexwar.plugins.mbt.explain import explain_decision
    from hexwar.plugins.mbt.present import present_decision
    from hexwar.plugins.mbt.words import describe_event

    g = _game(make_game, "{ NATO = { wire = 1 } }")
    d = setup_phase(g).send(None)
    view = build_view(g, "NATO")
    form = present_decision(view, d)
    assert form is not None and "wire marker" in form["title"]
    assert [c["choice"] for c in form["choices"]] == list(d.options)
    assert "MBT 12.4" in explain_decision(view, d)
    text = describe_event(g, {"type": "marker_placed", "side": "NATO", "hex": "9E10",
                              "kind": "improved_position", "rule": "MBT 12.4"})
    assert "improved position marker in 9E10" in text
