"""Properties: every offered choice is legal, lines of sight are symmetric in the terrain."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from hexwar.core.engine.controllers import RandomController
from hexwar.core.engine.game import Game
from hexwar.core.scenario import Scenario
from hexwar.plugins.firepower import engine
from hexwar.plugins.firepower.los import basic_los
from hexwar.plugins.firepower.plugin import HERE

SCENARIO = Scenario.load(HERE / "scenarios" / "basic.toml")
GAME = Game(SCENARIO, seed=0)
MAP = engine.fp_map(GAME)
HEXES = sorted(MAP.hexes)


def test_every_offered_choice_passes_the_rules_check() -> None:
    for seed in (1, 2):
        g = Game(SCENARIO, seed=seed)
        ctl = {s: RandomController(s, seed) for s in g.state.sides}
        checked = 0
        while (d := g.pending) is not None:
            if d.kind == "action" and checked < 400:
                for option in d.options or []:
                    engine.check_action(g, option)   # raises if an illegal choice is offered
                    checked += 1
            g.answer(ctl[d.side].choose(d, g.view(d.side)))
        assert g.result is not None and checked > 50


@settings(max_examples=150, deadline=None)
@given(st.integers(0, len(HEXES) - 1), st.integers(0, len(HEXES) - 1),
       st.sampled_from(["stand", "crouch", "prone"]), st.sampled_from(["stand", "prone"]))
def test_terrain_los_is_symmetric(i: int, j: int, fp: str, tp: str) -> None:
    a, b = HEXES[i], HEXES[j]
    ab = basic_los(MAP, a, b, firer_posture=fp, target_posture=tp)
    ba = basic_los(MAP, b, a, firer_posture=tp, target_posture=fp)
    if MAP.fence.get(a) is None and MAP.fence.get(b) is None:
        assert ab.blocked == ba.blocked
        assert (ab.trees, ab.hedges) == (ba.trees, ba.hedges)
