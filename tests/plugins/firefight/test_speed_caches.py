"""The Firefight fast paths of issue 14 answer as the plain computation does (FFD-48 to FFD-50)."""

from __future__ import annotations

import pytest

from hexwar.core.engine.state import Unit
from hexwar.core.testing import make_game
from hexwar.plugins.firefight import fire as FI
from hexwar.plugins.firefight import state as ST
from hexwar.plugins.firefight.ai import FirefightAI
from hexwar.plugins.firefight.tables import ff_data


def test_utype_by_type_is_the_data_of_that_type() -> None:
    """FFD-48: every shipped type reads its own data, the first time and every time after."""
    data = ff_data()
    for name, want in data.units.items():
        u = Unit(id="x", type=f"firefight:{name}", side="US", hex=None)
        assert ST.utype(u) is want
        assert ST.utype(u) is want  # the kept answer


def test_utype_of_guests_follows_each_units_own_profile() -> None:
    """FFD-48: a guest unit (Firefight 3.3 through an adapter) fights as the profile in its own
    state, so two guests of one type with different profiles are not confused by the kept
    answers, and a changed profile is read again."""
    names = list(ff_data().units)
    a = Unit(id="a", type="mbt:T-72M1", side="SU", hex=None, state={"firefight_as": names[0]})
    b = Unit(id="b", type="mbt:T-72M1", side="SU", hex=None, state={"firefight_as": names[1]})
    assert ST.utype(a) is ff_data().units[names[0]]
    assert ST.utype(b) is ff_data().units[names[1]]
    a.state["firefight_as"] = names[2]
    assert ST.utype(a) is ff_data().units[names[2]]


def test_distance_to_objective_matches_the_plain_minimum() -> None:
    """FFD-49: the AI's kept distances to the objective groups are the plain hex distances,
    with the weight of friendly holders (Scenario 6 has two objectives) added afresh."""
    for scenario in ("firefight:scenario-1", "firefight:scenario-6"):
        g = make_game(scenario, seed=1)
        for side in ("US", "SU"):
            ai = FirefightAI(side, 1)
            view = g.view(side)
            groups = ai.hints(view)["groups"]
            assert groups
            held = [sum(1 for u in view.own_unit_objects() if u.hex in grp) for grp in groups]
            for h in sorted(g.board.hexes)[::37]:
                plain = [min(h.distance(x) for x in grp) for grp in groups]
                want = plain[0] if len(groups) == 1 else min(
                    d + (0 if h in grp else min(2 * n, 12))
                    for d, grp, n in zip(plain, groups, held, strict=True))
                assert ai.dist_obj(view, h) == want
                assert ai.dist_obj(view, h) == want
            assert len(ai._near) <= len(g.board.hexes)


@pytest.mark.parametrize("scenario", ["firefight:scenario-1", "firefight:scenario-5"])
def test_all_rolls_at_once_match_one_roll_at_a_time(scenario: str) -> None:
    """FFD-50: the AI's preview of a shot for every two-dice total (the Attack Rating's steps run
    once) gives each roll the record that resolving that roll alone gives (Firefight 6.0), for
    every attack offered in the first fire decisions of a game (Scenario 5 adds mines and
    artillery, with their rules' fire steps)."""
    g = make_game(scenario, seed=3)
    ai = {s: FirefightAI(s, 3) for s in ("US", "SU")}
    compared = 0
    while g.pending is not None and compared < 60:
        dec = g.pending
        if dec.kind.endswith("_fire"):
            mode = str(dec.context.get("mode", "direct"))
            for opt in dec.options or ():
                if not isinstance(opt, dict) or "firers" not in opt:
                    continue
                units = g.state.units
                f, t = units[opt["firers"][0]], units[opt["target"]]
                att = FI.describe_attack(g, f, t, FI.choose_weapon(
                    g, f, t, opt["weapons"][f.id]), mode)
                together = FI.resolve_attack_rolls(g, att, range(2, 13))
                assert together == {r: FI.resolve_attack(g, att, r) for r in range(2, 13)}
                assert FI.attack_roll_results(g, att, range(2, 13)) == {  # FFD-52
                    r: str(shot["result"]) for r, shot in together.items()}
                compared += 1
        g.answer(ai[dec.side].choose(dec, g.view(dec.side)))
    assert compared >= 20


def test_the_ai_reads_mine_markers_only_in_a_game_with_mines() -> None:
    """FFD-51: without the mines rules (Firefight 18.0, 25.0) the AI knows from the public header
    that no hex is mined and builds no view of the system state; with them it reads the
    markers, the emplaced fields among them."""
    from hexwar.plugins.firefight.rules import mines as MI

    plain = make_game("firefight:scenario-5", seed=1)
    view = plain.view("SU")
    su = next(u for u in view.own_unit_objects() if not u.state.get("dummy"))
    assert not view.rules.mines_in_play()
    assert FirefightAI("SU", 1).mined_hexes(view, su) == set()
    assert "system_state" not in view.__dict__  # the cached property was never read
    mined = make_game("firefight:scenario-5", seed=1, options=["firefight.mines"])
    ai = {s: FirefightAI(s, 1) for s in ("US", "SU")}
    while mined.pending is not None and mined.state.turn < 1:
        dec = mined.pending
        mined.answer(ai[dec.side].choose(dec, mined.view(dec.side)))
    view = mined.view("SU")
    su = next(u for u in view.own_unit_objects() if not u.state.get("dummy"))
    assert view.rules.mines_in_play()
    assert ai["SU"].mined_hexes(view, su) == set(MI.fields(mined)) != set()
