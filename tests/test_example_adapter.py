"""The example package's adapter (examples/hexwar-skirmish, entry point ``skirmish_firefight``): a
third party's adapter found through its entry point, playing Skirmish units against Firefight
units with Firefight as host (docs/plugin-guide.md "Writing an adapter"). Like
tests/test_example_plugin.py, every test fails (not skips) when the example is not installed."""

from __future__ import annotations

import importlib.util
from collections.abc import Iterator
from importlib.metadata import entry_points
from pathlib import Path

import pytest

from hexwar.core.engine.game import Game
from hexwar.core.manager import installed_plugins
from hexwar.core.scenario import Scenario, validate_scenario
from hexwar.core.testing import make_game
from hexwar.plugins.firefight import fire as FI
from hexwar.plugins.firefight import state as ST
from hexwar.plugins.firefight.tables import ff_data

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "hexwar-skirmish"


@pytest.fixture(autouse=True)
def _require_example() -> Iterator[None]:
    if importlib.util.find_spec("hexwar_skirmish") is None:
        pytest.fail(f"the example plugin is not installed: `pip install {EXAMPLE}`", pytrace=False)
    yield


def _scenario() -> Scenario:
    from hexwar_skirmish import firefight_adapter as A

    # the scenario the adapter registers, as `hexwar play skirmish_firefight:patrol` finds it
    source = {s.name: s for s in A.hexwar_register_data()}["skirmish_firefight:patrol"]
    return Scenario.load(source.path)


def _game(seed: int = 1) -> Game:
    game: Game = make_game(_scenario(), seed=seed)
    return game


def test_the_adapter_is_found_through_its_entry_point() -> None:
    eps = {e.name: e.value for e in entry_points(group="hexwar.plugins")}
    assert eps["skirmish_firefight"] == "hexwar_skirmish.firefight_adapter"
    m = installed_plugins()["skirmish_firefight"].manifest
    assert (m.kind, set(m.bridges)) == ("adapter", {"firefight", "skirmish"})


def test_its_tables_are_estimated_and_name_firefight_personnel_of_the_side() -> None:
    from hexwar_skirmish import firefight_adapter as A
    from hexwar_skirmish.tables import unit_records

    for name, table in A.tables().items():
        assert {str(s.source) for _r, _c, s in table.cells()} == {"estimated"}, name
    for utype in unit_records().values:
        for side in ("US", "SU"):
            ud = ff_data().units[A.firefight_profile(f"skirmish:{utype}", side)]
            assert (ud.cls, ud.side) == ("personnel", side)
    for r in ff_data().tables["crt_anti_personnel"].rows:
        if str(r.values[0]) != "-":
            assert A.skirmish_status(str(r.values[0])) in ("pinned", "eliminated")
    with pytest.raises(A.AdapterError, match="adapter 'skirmish_firefight' has no mapping for "
                                             "skirmish_type 'tank'"):
        A.firefight_profile("skirmish:tank", "US")


def test_without_the_adapter_the_scenario_is_refused() -> None:
    text = _scenario().path
    assert text is not None
    raw = Path(text).read_text(encoding="utf-8").replace('rules = ["skirmish_firefight"]',
                                                         "rules = []")
    msgs = [p.message for p in validate_scenario(Scenario.from_text(raw))]
    assert msgs == ["units of system 'skirmish' share the board with host system 'firefight', "
                    "but no enabled adapter plugin bridges the two"]
    assert validate_scenario(_scenario()) == []


def test_a_skirmish_unit_fires_at_a_firefight_unit_and_is_fired_at() -> None:
    g = _game()
    rifles, team = g.state.units["rifles-1"], g.state.units["tm-su1"]
    assert ST.utype(rifles).name == "US-TM"
    rifles.hex, team.hex = g.board.parse("1911"), g.board.parse("1910")
    FI.invalidate_targets(g)
    # Firefight's fire procedure, the Skirmish squad firing with its profile's weapons line
    out = FI.execute_attack(g, "US", ["rifles-1"], "tm-su1", None, "direct", rolls=[2])
    assert out[0]["weapon"] == "US-TM" and out[0]["result"] != "-"
    # and the Firefight team firing back: a Firefight result, reported in Skirmish terms
    FI.apply_result(g, "rifles-1", "S", "direct")
    assert rifles.state["S"] is True and rifles.state["pinned"] is True
    report = [e for e in g.log.events if e.get("adapter") == "skirmish_firefight"
              and e.get("type") == "result"][-1]
    assert (report["result"], report["decided_by"]) == ("pinned", "firefight")


@pytest.mark.parametrize("seed", [1, 2])
def test_the_example_scenario_plays_ai_against_ai_to_the_end(seed: int) -> None:
    from hexwar.plugins.firefight.ai import FirefightAI

    g = _game(seed)
    result = g.play({s: FirefightAI(s, seed) for s in ("US", "SU")})
    assert result.winner in ("US", "SU")
    fire = [e for e in g.log.events if e.get("type") == "result" and e.get("what") == "fire"]
    # the two systems' units fought each other
    assert fire and all({g.state.units[e[k]].type.split(":")[0] for k in ("firer", "target")}
                        == {"skirmish", "firefight"} for e in fire), fire


def test_a_result_on_a_face_down_skirmish_unit_is_its_own_sides_to_read() -> None:
    # Firefight 11: a face-down counter is not identified to the enemy by the adapter's record
    scenario = _scenario()
    text = scenario.text.replace('rules = ["skirmish_firefight"]',
                                 'rules = ["skirmish_firefight", "firefight.observation"]')
    g = make_game(Scenario.from_text(text, path=scenario.path), seed=1)
    from hexwar.plugins.firefight.rules import observation

    observation.setup_face_down(g, again=True)  # every counter face-down (Firefight 11.0)
    assert g.state.units["rifles-1"].state.get("face_down")
    FI.apply_result(g, "rifles-1", "S", "direct")
    seen = {side: [e for e in g.view(side).events() if e.get("adapter") == "skirmish_firefight"
                   and e.get("type") == "result"] for side in ("US", "SU")}
    assert [e["result"] for e in seen["US"]] == ["pinned"] and seen["SU"] == []
