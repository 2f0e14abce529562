"""The Advanced AI's line of sight in batch (``view.rules.sight_blocks``, docs/decisions.md
FPD-99): the same answers as the exact Advanced line of sight (Firepower 12.1), on the real
scenarios' terrain, before and after smoke changes it."""

from __future__ import annotations

import random

import pytest

from hexwar.core.engine.game import Game
from hexwar.core.hexgrid import Hex
from hexwar.core.scenario import load_and_validate
from hexwar.plugins.firepower import advanced_terrain as at
from hexwar.plugins.firepower.knowledge import SIGHT_CACHE
from hexwar.plugins.firepower.plugin import HERE
from hexwar.plugins.firepower.smoke import place_smoke

Loc = tuple[Hex, int, int]


def _exact(game: Game, a: Loc, b: Loc) -> bool:
    """The per-pair reference: the ends' walls by their floors, then the whole line of sight
    with the LOS CHART (trees, hedges and smoke hinder), traced afresh."""
    return bool(game.view(game.state.sides[0]).rules.sight_blocks_traced(a, [b])[0])


def _locs(game: Game, rng: random.Random, n: int) -> list[Loc]:
    m = at.adv_map(game)
    hexes = sorted(m.hexes, key=lambda h: (h.q, h.r))
    out = []
    for _ in range(n):
        h = rng.choice(hexes)
        out.append((h, rng.randint(1, m.floors(h)), rng.choice((0, 1, 2, 3))))
    return out


@pytest.mark.parametrize("name", ["street-fight", "hill-assault"])
def test_the_batch_answers_as_the_exact_line_of_sight(name: str) -> None:
    game = Game(load_and_validate(HERE / "scenarios" / f"{name}.toml"), seed=5)
    rng = random.Random(name)
    srcs, dsts = _locs(game, rng, 12), _locs(game, rng, 40)
    rules = game.view("A").rules
    blocked = 0
    for s in srcs:
        got = rules.sight_blocks(s, dsts)
        want = [_exact(game, s, d) for d in dsts]
        assert got == want, s
        blocked += sum(want)
    assert 0 < blocked < len(srcs) * len(dsts)  # both answers occur
    cache = game.stash.get(SIGHT_CACHE)
    assert cache is not None and cache.profiles
    # smoke (here on every fence and on hexes of the lines) is read per line: the answers stay
    # exact with the kept profiles (Firepower 12.2.7: smoke hides a fence in its hex)
    m = at.adv_map(game)
    fences = set(game.view("A").rules.map.fence)
    for x in [*fences, *(h for s in srcs[:4] for d in dsts[:10] for h in m.line(s[0], d[0])[0][:1])]:
        place_smoke(game, x, "M", at.ground_of(game, x))
    rules = game.view("B").rules
    for s in srcs:
        assert rules.sight_blocks(s, dsts) == [_exact(game, s, d) for d in dsts]
    assert game.stash.get(SIGHT_CACHE) is cache
    # a crater changes the ground (Firepower 8.7): the profiles are made again
    from hexwar.plugins.firepower.state import data

    data(game).setdefault("craters", {})[game.board.label(srcs[0][0])] = 1
    rules = game.view("A").rules
    for s in srcs:
        assert rules.sight_blocks(s, dsts) == [_exact(game, s, d) for d in dsts]
    assert game.stash.get(SIGHT_CACHE) is not cache
