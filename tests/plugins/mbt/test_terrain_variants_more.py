"""MBT Scenario One A.2-A.3: roads as paths, heavy woods and dark green clear
(docs/decisions.md MBTD-126, completing MBTD-86)."""

from __future__ import annotations

from typing import Any

from hexwar.plugins.mbt import movement_costs
from hexwar.plugins.mbt.movement_costs import MoveContext, enter_cost
from hexwar.plugins.mbt.state import card_of, ctx

ADV = ["mbt.advanced"]


def _cost(g: Any, uid: str, a: str, b: str) -> Any:
    return enter_cost(card_of(g, g.state.units[uid]), ctx(g).info, g.board.parse(a),
                      g.board.parse(b), MoveContext())


def test_unspoiled_mountains_make_the_roads_paths_a_2(make_game: Any) -> None:
    """MBT Scenario One A.2: every road is a path, at the card's path rate (MBT 8.5); the printed
    board keeps its road."""
    units = [("N1", "M1", "NATO", "9J10", 1)]
    road = [("9J10", "9J9")]
    feats = {"9J10": ["road"], "9J9": ["road"]}
    plain = make_game(units, roads=road, features=feats)
    hills = make_game(units, roads=road, features=feats,
                      special='terrain_variant = "unspoiled_mountains"')
    card = card_of(plain, plain.state.units["N1"])
    assert _cost(plain, "N1", "9J10", "9J9") == card.road
    assert _cost(hills, "N1", "9J10", "9J9") == card.path_cost != card.road
    side = frozenset((hills.board.parse("9J10"), hills.board.parse("9J9")))
    assert side in ctx(hills).info.path and side not in ctx(hills).info.road
    assert "path" in hills.board.features_of[hills.board.parse("9J9")]
    assert "road" in plain.board.features_of[plain.board.parse("9J9")]


def test_sunless_woods_heavy_woods_and_dark_green_clear_a_3(make_game: Any) -> None:
    """MBT Scenario One A.3: printed woods are heavy woods: woods for the charts, and a vehicle
    pays its woods cost and the stand-in extra (a wheeled one may not enter; a squad pays its one
    MF, MBT 15.1.2); a dark green clear hex is woods."""
    units = [("N1", "M1", "NATO", "9J10", 1), ("N2", "Transport BTR", "NATO", "9L10", 1),
             ("N3", "Rifle Squad", "NATO", "9N10", 1)]
    terrain = {"9J9": "woods", "9L9": "woods", "9N9": "woods"}
    feats = {"9P9": ["dark_green"]}
    plain = make_game(units, terrain=terrain, features=feats, options=ADV)
    dense = make_game(units, terrain=terrain, features=feats, options=ADV,
                      special='terrain_variant = "sunless_woods"')
    info = ctx(dense).info
    j9 = dense.board.parse("9J9")
    assert "heavy_woods" in info.kinds[j9] and dense.board.terrain_of[j9] == "woods"
    assert info.sight_terrain[j9] == "woods"  # no chart knows heavy woods: read as woods
    woods = card_of(plain, plain.state.units["N1"]).move_costs["woods"]
    assert woods is not None
    assert _cost(plain, "N1", "9J10", "9J9") == woods
    assert _cost(dense, "N1", "9J10", "9J9") == woods + 1  # heavy_woods.csv: tracked +1
    assert _cost(plain, "N2", "9L10", "9L9") is not None
    assert _cost(dense, "N2", "9L10", "9L9") is None  # heavy_woods.csv: wheeled P
    assert _cost(dense, "N3", "9N10", "9N9") == 1
    assert plain.board.terrain_of[plain.board.parse("9P9")] == "clear"
    assert dense.board.terrain_of[dense.board.parse("9P9")] == "woods"
    assert movement_costs.heavy_woods_cost(card_of(dense, dense.state.units["N3"])) == 1
