"""General purpose machineguns (Firepower 10.7 items 2 and 5; docs/decisions.md FPD-172, FPD-173):
one WEAPON CHART row GMG2 with a rate of fire as a light ("L") and as a medium ("M")
machinegun; a scenario lists it as LMG2 (bipod, LMG soldier unit) or MMG2 (tripod, MMG soldier
unit), never as GMG2."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from hexwar.core.engine.game import Game
from hexwar.core.errors import DataError, RulesError
from hexwar.core.scenario import load_and_validate
from hexwar.plugins.firepower import combat
from hexwar.plugins.firepower import organizations as org
from hexwar.plugins.firepower.actions import fire_context, fire_procedure
from hexwar.plugins.firepower.advanced_card import advanced_card
from hexwar.plugins.firepower.weapon_chart import chart, general_purpose, records, weapon

from .conftest import GameFactory

SCENARIO = Path(org.__file__).parent / "scenarios" / "advanced-meeting.toml"
ADV = ("firepower.advanced",)


def test_fp_34_gmg2_is_listed_as_lmg2_with_a_bipod_or_mmg2_with_a_tripod() -> None:
    """Firepower 10.7 item 2 (FP-34), item 5: GMG2 is one chart row of class GMG; a scenario
    names it LMG2 (used as L: bipod, an LMG soldier unit) or MMG2 (used as M: tripod, an MMG
    soldier unit), each with its own rate of fire. The rates are stand-ins (estimated); the class
    and the mounts are the text's."""
    assert general_purpose() == {"GMG2": ("LMG2", "MMG2")}
    assert "GMG2" not in chart() and {"LMG2", "MMG2"} <= set(chart())
    lmg, mmg = weapon("LMG2"), weapon("MMG2")
    assert (lmg.gmg, lmg.cls, lmg.soldier_unit, lmg.mount) == ("GMG2", "LMG", "LMG", "bipod")
    assert (mmg.gmg, mmg.cls, mmg.soldier_unit, mmg.mount) == ("GMG2", "MMG", "MMG", "tripod")
    assert lmg.rate("L") == ((3, 4), None) and mmg.rate("L") == ((4, 4), None)
    assert not lmg.tripod and mmg.tripod
    # everything but the bullets (rifle calibre) comes with the use: the Move, Posture and crew
    assert lmg.penetration == mmg.penetration and lmg.types == mmg.types == ("L",)
    src = records().sources
    assert src["GMG2.class"] == src["GMG2.as_L.notes"] == src["GMG2.as_M.notes"] \
        == "Firepower 10.7"
    assert src["GMG2.as_L.rof"] == src["GMG2.as_M.rof"] == "estimated"
    # each listing has its own hit line (Firepower 10.7 item 6)
    card = advanced_card()
    assert card.has_hits("LMG2", "L", "auto") and card.has_hits("MMG2", "L", "auto")


def _meeting_with(tmp_path: Path, model: str) -> Path:
    # A3 of squad A-1 is the meeting's LMG4 gunner (docs/firepower-advanced.md)
    text = SCENARIO.read_text(encoding="utf-8")
    old = 'state = { squad = "A-1", model = "LMG4"'
    assert text.count(old) == 1
    path = tmp_path / f"meeting-{model}.toml"
    path.write_text(text.replace(old, f'state = {{ squad = "A-1", model = "{model}"'),
                    encoding="utf-8")
    return path


def test_a_scenario_listing_gmg2_is_refused_at_load(tmp_path: Path) -> None:
    """Firepower 10.7 item 2: a scenario that lists GMG2 itself is refused, naming the soldier,
    his squad and the listings to use; as LMG2 or MMG2 it loads."""
    with pytest.raises(DataError) as err:
        load_and_validate(_meeting_with(tmp_path, "GMG2"))
    text = str(err.value)
    assert "soldier A3 of squad A-1" in text and "Firepower 10.7" in text
    assert "LMG2 or MMG2" in text
    for model in ("LMG2", "MMG2"):
        assert load_and_validate(_meeting_with(tmp_path, model)).raw["units"][2]["state"][
            "model"] == model
    # in play, the row is no weapon either
    with pytest.raises(RulesError, match=r"never as GMG2 \(Firepower 10.7\)"):
        weapon("GMG2")
    got = org.listing_problems([], [{"id": "W1", "model": "GMG2"}])
    assert len(got) == 1 and got[0].startswith("weapon unit W1:")


def test_an_organization_listing_gmg2_is_a_data_error(monkeypatch: pytest.MonkeyPatch) -> None:
    """Firepower 10.7 item 2: squads.toml may not give an organization a GMG2 either."""
    recs = org.records()
    bad = {**recs.values, "squads": {"x": {**next(iter(recs.values["squads"].values())),
                                           "weapons": {"GMG2": 1}}}}
    monkeypatch.setattr(org, "records", lambda: type(recs)(bad, recs.sources))
    org.organizations.cache_clear()
    try:
        with pytest.raises(DataError, match=r"squad organization x: GMG2 .*Firepower 10.7"):
            org.organizations()
    finally:
        org.organizations.cache_clear()


def _fire(g: Game, uid: str, targets: list[str]) -> combat.FireContext:
    ctx = fire_context(g, uid, {"act": "fire", "mode": "auto", "targets": targets})
    ctx.roll = lambda purpose: 10  # every shot misses
    combat.run(ctx, fire_procedure(g, ctx.kind))
    return ctx


def test_lmg2_and_mmg2_fire_at_their_own_rates(fp_game: GameFactory) -> None:
    """Firepower 10.7 item 5: the same GMG2 fires its L rate as LMG2 (3 bursts of 4 here) and
    its M rate as MMG2 (4 bursts of 4), so four targets are too many for the LMG2."""
    targets = [("B1", "RFL", "B", "C5", 1), ("B2", "RFL", "B", "C5", 1),
               ("B3", "RFL", "B", "C5", 1), ("B4", "RFL", "B", "C5", 1)]

    def game(model: str) -> Game:
        units: list[tuple[Any, ...]] = [
            ("A1", "LMG", "A", "C2", 4, {"model": model, "posture": "prone"}),
            ("A2", "RFL", "A", "C2", 4, {"model": "RFL10", "crew_of": "A1"}), *targets]
        return fp_game(units, options=ADV)

    m = _fire(game("MMG2"), "A1", ["B1", "B2", "B3", "B4"])
    assert len(m.shots) == 16 and {s.burst for s in m.shots} == {1, 2, 3, 4}
    g = game("LMG2")
    with pytest.raises(RulesError, match=r"LMG2 fires at most 3 burst") as err:
        _fire(g, "A1", ["B1", "B2", "B3", "B4"])
    assert err.value.rule == "Firepower 6.3.5.1"
    lm = _fire(g, "A1", ["B1", "B2", "B3"])
    assert len(lm.shots) == 12 and {s.burst for s in lm.shots} == {1, 2, 3}
