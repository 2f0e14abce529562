"""Properties: every offered choice is legal, lines of sight are symmetric in the terrain."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hexwar.core.engine.controllers import RandomController
from hexwar.core.testing import make_game
from hexwar.plugins.firepower import actions, state
from hexwar.plugins.firepower.los import basic_los
from hexwar.plugins.firepower.plugin import HERE
from hexwar.plugins.firepower.terrain import FpMap

BASIC = HERE / "scenarios" / "basic.toml"


@pytest.fixture(scope="module")
def basic_map() -> FpMap:
    """The Basic terrain of panels 1 and 2 (built when the first test asks, not at import)."""
    return state.fp_map(make_game(BASIC, seed=0))


def test_every_offered_choice_passes_the_rules_check() -> None:
    for seed in (1, 2):
        g = make_game(BASIC, seed=seed)
        ctl = {s: RandomController(s, seed) for s in g.state.sides}
        checked = 0
        while (d := g.pending) is not None:
            if d.kind == "action" and checked < 400:
                for option in d.options or []:
                    actions.check_action(g, option)   # raises if an illegal choice is offered
                    checked += 1
            g.answer(ctl[d.side].choose(d, g.view(d.side)))
        assert g.result is not None and checked > 50


@settings(max_examples=150, deadline=None)
@given(st.integers(0, 10**6), st.integers(0, 10**6),
       st.sampled_from(["stand", "crouch", "prone"]), st.sampled_from(["stand", "prone"]))
def test_terrain_los_is_symmetric(basic_map: FpMap, i: int, j: int, fp: str, tp: str) -> None:
    hexes = sorted(basic_map.hexes)
    a, b = hexes[i % len(hexes)], hexes[j % len(hexes)]
    ab = basic_los(basic_map, a, b, firer_posture=fp, target_posture=tp)
    ba = basic_los(basic_map, b, a, firer_posture=tp, target_posture=fp)
    if basic_map.fence.get(a) is None and basic_map.fence.get(b) is None:
        assert ab.blocked == ba.blocked
        assert (ab.trees, ab.hedges) == (ba.trees, ba.hedges)
