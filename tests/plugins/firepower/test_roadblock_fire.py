"""Fire at a roadblock hex (Firepower 12.2.10 with 8.8.5.4; docs/decisions.md FPD-115): fire at a
hex with a fence in it takes -1 per height of the fence; a roadblock is a fence picture three
heights high, so a grenade at its hex takes -3 whatever the scenario's ``fence_height``."""

from __future__ import annotations

from typing import Any

from hexwar.core.engine.game import Game
from hexwar.plugins.firepower import combat
from hexwar.plugins.firepower.actions import fire_context, fire_procedure
from tests.plugins.firepower.test_defenses import GameFactory, _game, _impulse

RBL = [{"type": "RBL", "hex": "1C4", "sides": [2, 6]}]


def _thrower(fp_game: GameFactory, defs: list[dict[str, Any]]) -> Game:
    g = _game(fp_game, [("A1", "RFL", "A", "C2", 4, {"model": "RFL10"})], defs)
    g.state.units["A1"].state["equipment"] = {"HGN3": 2}
    _impulse(g, "A", "A1")
    return g


def _wall_mods(g: Game, hexlabel: str) -> list[tuple[str, int]]:
    ctx = fire_context(g, "A1", {"act": "grenade", "hex": hexlabel})
    combat.preview(ctx, fire_procedure(g, ctx.kind))
    return [(m.name, int(m.value)) for m in ctx.modifiers["throw"]
            if m.rule == "Firepower 12.2.10"]


def test_a_grenade_at_a_roadblock_hex_takes_minus_one_per_height(fp_game: GameFactory) -> None:
    g = _thrower(fp_game, RBL)
    assert _wall_mods(g, "1C4") == [("fence of 3 height(s) in the target hex", -3)]


def test_the_scenarios_fence_height_does_not_change_the_roadblocks(fp_game: GameFactory) -> None:
    g = _thrower(fp_game, RBL)
    g.scenario.raw.setdefault("special", {})["fence_height"] = 2
    assert _wall_mods(g, "1C4") == [("fence of 3 height(s) in the target hex", -3)]


def test_a_hex_without_a_roadblock_takes_no_fence_modifier(fp_game: GameFactory) -> None:
    g = _thrower(fp_game, RBL)
    assert _wall_mods(g, "1D4") == []  # beside it, no picture


# -- the AI reads a roadblock as a fence (Firepower 8.8.5.4, 12.2.3; FPD-121) -------------------


def test_the_ai_counts_a_roadblocks_cover_in_its_threat(fp_game: GameFactory) -> None:
    # A1 on a hill one level up in 1C3 sees over the roadblock; B1 behind it (hexside 4's part)
    # has its cover (Firepower 12.2.3), so the AI rates the threat to B1 lower than in the open
    from hexwar.plugins.firepower.ai import make_ai

    g = _game(fp_game, [("A1", "RFL", "A", "C3", 4, {"model": "RFL10"}),
                        ("B1", "RFL", "B", "C4", 1, {"model": "RFL10", "side": 4})], RBL,
              hexes=[{"at": "C3", "height": 1}])
    view = g.view("B")
    ai: Any = make_ai("B", 1)
    ai._memo = {}
    ai._adv_setup(view)
    h = g.board.parse("1C4")
    assert h in ai._fence_map(view).fence and h not in view.rules.map.fence
    sol = view.rules.soldiers()
    behind = ai._threat(view, sol["B1"], [sol["A1"]])
    ai._memo, ai._fences = {}, None  # the Basic map: no picture in 1C4
    bare = ai._threat(view, sol["B1"], [sol["A1"]])
    assert 0 < behind < bare
