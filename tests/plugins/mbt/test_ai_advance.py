"""The MBT AI's advance to contact in the Advanced Game (MBTD-87): with no enemy in sight the
whole force moves toward the objectives it does not hold and where the enemy is likely to be,
each Soviet doctrine organization as one (MBT 13.4.3.1), by bounds near contact (half moves, half
keeps overwatch, MBT 7.5). Short games of Scenario One's matchup 1 against the random player."""

from __future__ import annotations

import itertools
import re
from pathlib import Path
from typing import Any

import pytest

from hexwar.core.engine.controllers import RandomController
from hexwar.core.hexgrid import Hex
from hexwar.core.scenario import Scenario
from hexwar.core.testing import make_game
from hexwar.plugins.mbt import forces
from hexwar.plugins.mbt.ai import MbtAI

SCENARIOS = Path(forces.__file__).resolve().parent / "scenarios"


def _matchup(key: str, turns: int) -> Scenario:
    path = SCENARIOS / f"scenario-one-{key}.toml"
    text, n = re.subn(r"(?m)^turns = .*$", f"turns = {turns}", path.read_text())
    assert n == 1
    return Scenario.from_text(text, path=str(path))


@pytest.mark.parametrize("seed", [21, 22])
def test_the_soviet_ai_advances_its_whole_force_to_contact(seed: int) -> None:
    """Matchup 1, the AI as the Soviets (two doctrine platoons of four T-72M1):
    both platoons move in at least 3 of the 4 Turns, where before only the two tanks nearest
    an objective (often of one platoon) went forward and the other platoon held."""
    g = make_game(_matchup("1", 4), seed=seed)
    ai = MbtAI("Soviet", seed)
    rnd = RandomController("NATO", seed)
    snapshots: list[dict[str, Any]] = []  # each organization's hex at the start of each Turn
    turn = -1
    while g.pending is not None:
        d = g.pending
        if d.kind == "mbt.order" and g.state.turn != turn:
            turn = g.state.turn
            snapshots.append({o: g.state.units[f"{o}a"].hex for o in ("S1", "S2")})
        g.answer((ai if d.side == "Soviet" else rnd).choose(d, g.view(d.side)))
    snapshots.append({o: g.state.units[f"{o}a"].hex for o in ("S1", "S2")})
    moved = {o: sum(a[o] != b[o] for a, b in itertools.pairwise(snapshots)) for o in ("S1", "S2")}
    assert len(snapshots) == 5 and all(n >= 3 for n in moved.values()), moved


def test_near_contact_half_the_force_moves_and_half_keeps_overwatch() -> None:
    """MBTD-87: once the enemy is likely near, the units (a doctrine organization counting as
    one) alternate by Turn between moving and overwatch; far from it, all advance."""
    g = make_game(_matchup("1", 4), seed=21)
    ai = MbtAI("NATO", 21)
    rnd = RandomController("Soviet", 21)
    while g.pending is not None and g.pending.kind != "mbt.order":
        d = g.pending
        g.answer((ai if d.side == "NATO" else rnd).choose(d, g.view(d.side)))
    view = g.view("NATO")
    nato = view.own_unit_objects()
    here = nato[0].hex
    assert here is not None and len(nato) == 4
    ai._last_seen = {"X": here.neighbor(1).neighbor(1)}  # the enemy was seen close by
    ai.contact_range = 99  # near every unit
    moves = [ai._advances(view, u, []) for u in nato]
    assert sum(moves) == 2
    ai.contact_range = 16
    ai._last_seen = {"X": Hex(here.q, here.r + 60)}  # far off: every unit advances
    assert all(ai._advances(view, u, []) for u in nato)
