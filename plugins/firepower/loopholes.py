"""Loopholes in building walls (Firepower 8.2.4, Firepower 12.1.6, Firepower 12.2.3, Firepower
12.2.4) in the Advanced Game: wall openings too small to move through, defined by the scenario.

Scenario data: ``[[special.loopholes]] between = ["4AA4", "4Z4"], floor = 1`` (the building hex
first, the hex outside its wall, the story). Heights and the wall's terrain value:
``data/advanced/loopholes.toml`` (``estimated``; docs/decisions.md FPD-141).

* Line of sight (12.1.6): a soldier in the loophole hex on its floor, his head within the
  loophole's heights, sees and is seen through it across that wall
  (:func:`through`, read by ``advanced_terrain.wall_block``); a line from deeper inside the
  building runs inside it and stays blocked, so nothing beyond the loophole hex fires through.
* Firing (12.1.6): a firer whose line leaves by a loophole must face its hexside
  (:func:`check_firer`); his arc is then the normal one.
* Cover and concealment (12.2.3, 12.2.4): a target using a loophole (in its hex and floor, the
  line through its wall) has +2 instead of +1, and concealment (``cover_sides.sided_cover``,
  ``advanced_fire.concealed``).
* Movement: a loophole is no door or window; nothing moves through it (8.2.4).
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from hexwar.core.errors import RulesError
from hexwar.core.hexgrid import Hex
from hexwar.core.kit import StashKey
from hexwar.core.provenance import load_records

if TYPE_CHECKING:
    from hexwar.core.engine.game import Game
    from hexwar.core.engine.state import Unit

DATA = Path(__file__).parent / "data" / "advanced" / "loopholes.toml"
RULE = "Firepower 8.2.4"

#: (building hex, floor) -> the hexsides of that hex with a loophole (from the scenario)
_KEY = StashKey[dict[tuple[Hex, int], frozenset[int]]]("firepower.loopholes")


@cache
def _values() -> dict[str, Any]:
    return dict(load_records(DATA).values["loophole"])


def span() -> tuple[int, int]:
    s = _values()["span"]
    return int(s[0]), int(s[1])


def terrain_value() -> int:
    return int(_values()["terrain_value"])


def loopholes(game: Game) -> dict[tuple[Hex, int], frozenset[int]]:
    """The scenario's loopholes by building hex and floor; a bad entry is refused naming the
    rule (it must lie in an outer wall of a building: Firepower 8.2.4)."""
    got = game.stash.get(_KEY)
    if got is not None:
        return got
    from hexwar.plugins.firepower.advanced_terrain import adv_map, direction

    special = game.scenario.raw.get("special", {}) or {}
    rows = special.get("loopholes", []) if isinstance(special, dict) else []
    out: dict[tuple[Hex, int], set[int]] = {}
    m = adv_map(game) if rows else None
    for row in rows or []:
        between = row.get("between") if isinstance(row, Mapping) else None
        if not isinstance(between, list) or len(between) != 2:
            raise RulesError("a loophole names the building hex and the hex beyond its wall "
                             "(between = [inside, outside])", rule=RULE)
        try:
            a, b = (game.board.parse(str(x)) for x in between)
            d = direction(a, b)
        except (ValueError, KeyError, RulesError):
            raise RulesError(f"loophole {between!r}: two adjacent hexes of the board",
                             rule=RULE) from None
        assert m is not None
        bd = m.building(a)
        floor = int(row.get("floor", 1))
        if bd is None or not m.wall_between(a, b):
            raise RulesError(f"loophole {between!r} is not in an outer building wall", rule=RULE)
        if not 1 <= floor <= bd.floors:
            raise RulesError(f"loophole {between!r}: building {bd.id} has no floor {floor}",
                             rule=RULE)
        out.setdefault((a, floor), set()).add(d)
    frozen = {k: frozenset(v) for k, v in out.items()}
    game.stash[_KEY] = frozen
    return frozen


def through(game: Game, h: Hex, d: int, floor: int, head: int) -> bool:
    """Firepower 8.2.4, 12.1.6: a soldier in ``h`` on ``floor`` with his head ``head`` above
    the floor sees out across hexside ``d`` by a loophole there."""
    sides = loopholes(game).get((h, floor))
    if not sides or d not in sides:
        return False
    lo, hi = span()
    return lo <= head <= hi


def users(game: Game) -> dict[str, frozenset[int]]:
    """Soldier id -> the loophole hexsides of his hex and floor (those who may use one)."""
    from hexwar.plugins.firepower.advanced_terrain import floor_of

    table = loopholes(game)
    if not table:
        return {}
    out: dict[str, frozenset[int]] = {}
    for uid, u in game.state.units.items():
        if u.hex is None or u.state.get("eliminated"):
            continue
        sides = table.get((u.hex, floor_of(u)))
        if sides:
            out[uid] = sides
    return out


def using(sides: frozenset[int], crossed: list[int]) -> bool:
    """Firepower 12.2.3: the line leaves the target's hex by a loophole hexside."""
    return bool(sides.intersection(crossed))


def check_firer(game: Game, u: Unit, targets: list[Hex]) -> None:
    """Firepower 12.1.6: a firer who fires through a loophole faces its hexside. Only lines
    that leave his hex by a loophole alone (no open door or window besides) are checked."""
    from hexwar.plugins.firepower.advanced_terrain import adv_map, exit_sides, floor_of, is_open

    if u.hex is None:
        return
    sides = loopholes(game).get((u.hex, floor_of(u))) if loopholes(game) else None
    if not sides:
        return
    m = adv_map(game)
    for t in targets:
        if t == u.hex or m.building_of.get(t) == m.building_of.get(u.hex):
            continue
        crossed = exit_sides(u.hex, t)
        if not sides.intersection(crossed):
            continue
        other = [d for d in crossed if d not in sides]
        if any((o := m.opening(u.hex, u.hex.neighbor(d), floor_of(u))) is not None
               and is_open(game, o) for d in other):
            continue  # the open door or window beside it serves
        if u.facing not in sides.intersection(crossed):
            raise RulesError(f"{u.id} fires through the loophole of hexside "
                             f"{min(sides.intersection(crossed))}: he must face it",
                             rule="Firepower 12.1.6")
