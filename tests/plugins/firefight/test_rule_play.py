"""Whole games of the shipped scenarios with every Firefight II/III rule enabled: the rules are
wired into play (sequence edits, interrupts, actions) and nothing breaks."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from hexwar.core.engine.controllers import RandomController
from hexwar.core.engine.game import Game
from hexwar.core.testing import make_game
from hexwar.plugins.firefight import plugin as FF

ALL = tuple(f"firefight.{r}" for r in (
    "artillery_mines", "clgp", "dedicated_battery", "dummies", "future_afvs", "height",
    "improved_positions", "mines", "mounted_combat", "observation", "overrun", "overwatch",
    "scatter", "short_halt", "small_arms", "smoke", "suppressive_fire"))
SCN = Path(FF.__file__).parent / "scenarios"


def play(name: str, seed: int, turns: int, ai: bool) -> Game:
    from hexwar.plugins.firefight.ai import FirefightAI

    g: Game = make_game(SCN / f"{name}.toml", seed=seed, options=ALL)
    ctl = {s: (FirefightAI(s, seed) if ai else RandomController(s, seed)) for s in ("US", "SU")}
    n = 0
    while g.pending is not None and g.state.turn <= turns and n < 5000:
        d = g.pending
        g.answer(ctl[d.side].choose(d, g.view(d.side)))
        n += 1
    assert n < 5000
    return g


@pytest.mark.parametrize(("name", "seed", "ai"), [("scenario6", 1, False), ("scenario7", 2, True),
                                                  ("scenario4", 3, True)])
def test_scenarios_play_with_every_rule(name: str, seed: int, ai: bool) -> None:
    g = play(name, seed, 3, ai)
    names = [p.name for p in g.sequence]
    assert {"firefight.smoke_removal", "firefight.mines", "firefight.dedicated"} <= set(names)
    kinds = Counter(e["type"] for e in g.log.for_side(None))
    assert g.state.turn >= 3 or g.result is not None
    assert kinds["revealed"] > 0  # Firefight 11: spotting happened
    for side in ("US", "SU"):  # every enemy counter shown to a side is anonymous or revealed
        for rec in g.view(side).units.values():
            if rec["side"] != side and rec.get("state", {}).get("face_down"):
                assert rec["type"] == "firefight:face-down"
