"""Every built-in scenario, played AI against AI with a fixed seed, reproduces its recorded game:
the state hash after every decision, the final state, the log (rule citations aside) and the
result. ``python -m tests.golden.record`` rewrites the record after a deliberate rules change."""

from __future__ import annotations

import json

import pytest

from tests.golden.record import GOLDEN, SCENARIOS, play

RECORDED = json.loads(GOLDEN.read_text(encoding="utf-8"))


def test_every_built_in_scenario_is_recorded() -> None:
    assert sorted(RECORDED) == sorted(SCENARIOS)


@pytest.mark.slow
@pytest.mark.parametrize("name", SCENARIOS)
def test_fixed_seed_game_reproduces_its_record(name: str) -> None:
    assert play(name) == RECORDED[name]
