"""Where a side sensibly puts the terrain markers it places at set-up (MBT 12.4, 10.0;
docs/decisions.md MBTD-168). A simple ranking from the board and the side's own set-up zone only
(both known to the side; no enemy unit is on the map yet when markers go down).

* improved positions (MBT 12.4.5) dig in where the side's units will stand: in its set-up zone,
  in open hexes (woods and buildings cover already; the marker replaces the terrain,
  MBT 12.4.1.2), the front rows of the zone first, near an objective;
* blocks, ditches and wire (MBT 12.4.3, 12.4.4, 12.4.6) bar the approaches just ahead of the zone:
  one to three hexes out, on a road or path first (where the enemy's vehicles will drive), near
  an objective.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from hexwar.core.hexgrid import Hex
from hexwar.plugins.mbt.state import ctx

if TYPE_CHECKING:
    from hexwar.core.engine.game import Game

COVER = ("woods", "heavy_woods", "brick", "stone", "wooden")  # cover already (MBT 13.2.2.1)


def rank_hexes(game: Game, kind: str, legal: Sequence[str], zone: Sequence[Hex],
               edge: str | None) -> list[str]:
    """``legal`` (hex labels) ordered best first for a ``kind`` marker of the side whose set-up
    zone is ``zone`` on mapboard side ``edge``."""
    info = ctx(game).info
    board = game.board
    zset = set(zone)
    objectives = tuple(info.objectives)
    roads = {h for pair in info.road | info.path for h in pair}

    def out_from_zone(h: Hex) -> int:
        return min((h.distance(z) for z in zset), default=99)

    def to_objective(h: Hex) -> int:
        return min((h.distance(o) for o in objectives), default=0)

    panels = sorted({p for p, _r in info.panel_row.values()})

    def front(h: Hex) -> tuple[int, int]:
        # toward the enemy first: side 1 sets up on the first panel's low rows (MBT 2.4, 2.5)
        p, r = info.panel_row[h]
        i = panels.index(p)
        return (-i, -r) if edge == "1" else (i, r)

    def key(label: str) -> tuple[object, ...]:
        h = board.parse(label)
        kinds = set(info.kinds[h])
        if kind == "improved_position":
            return (0 if h in zset else 1, 1 if kinds & set(COVER) else 0, front(h),
                    to_objective(h), h.q, h.r)
        d = out_from_zone(h)
        ahead = 0 if 1 <= d <= 3 else 1
        return (ahead, 0 if h in roads else 1, d, to_objective(h), h.q, h.r)

    return sorted(legal, key=key)
