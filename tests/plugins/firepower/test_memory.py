"""What one Firepower game computes goes with it (issue 14: no memory growth from game to game).

The Advanced terrain of a board is shared by every game on it; the lines and exits a game traces
must be cached on the game's own copy, or a long simulation keeps every game's lines.
"""

from __future__ import annotations

from pathlib import Path

from hexwar.core.engine.game import Game
from hexwar.core.scenario import load_and_validate
from hexwar.plugins.firepower import advanced_los
from hexwar.plugins.firepower.advanced_terrain import ADV_MAP, adv_map
from hexwar.plugins.firepower.state import data

SCENARIOS = Path(__file__).resolve().parents[3] / "plugins" / "firepower" / "scenarios"


def _game(seed: int) -> Game:
    return Game(load_and_validate(SCENARIOS / "street-fight.toml"), seed=seed)


def test_lines_traced_in_a_game_are_not_kept_on_the_board() -> None:
    first = _game(1)
    mine = adv_map(first)
    a, b = sorted(mine.hexes)[0], sorted(mine.hexes)[-1]
    mine.line(a, b)
    mine.exits(a, b)
    assert (a, b) in mine._lines
    shared = next(iter(first.board.stash[ADV_MAP].values()))
    assert shared is not mine
    assert not shared._lines and not shared._exits
    # the next game on the same board starts with empty caches and the same terrain
    second = adv_map(_game(2))
    assert (a, b) not in second._lines
    assert second.walls is shared.walls and second.buildings is shared.buildings


def test_the_ruined_map_is_kept_with_the_game() -> None:
    game = _game(1)
    h = sorted(adv_map(game).building_of)[0]
    data(game)["destroyed"] = {game.board.label(h): "rubble"}
    advanced_los.los_world(game)
    kept = game.stash.get(advanced_los._RUINED)
    assert kept is not None and kept[2].cover[h] == "rough"
    # nothing of this game is left in a table of the module
    assert not any(isinstance(v, dict) and v for k, v in vars(advanced_los).items()
                   if not k.startswith("__"))
