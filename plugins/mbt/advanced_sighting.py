"""MBT 13.1-13.2, Advanced Game sighting: sighting ranges under the scenario's conditions, the
target's size class and the 60-degree sighting arc of a suppressed unit (MBT 13.1, 12.3.1), and
the height-based line of sight with hull down (MBT 13.2), which replaces MBT 6.1.4.

Heights (MBT 12.1): a unit sits at the ground height of its hex (the panel's contour height); a
line of sight meets, in every hex it passes through between the two ends, that hex's total
height: its ground plus the trees or buildings standing on it (the STANDARD TERRAIN VALUES CHART,
``data/advanced/terrain_heights.csv``, stand-in; a scenario may give its own in
``[special.heights]``, MBT 10.2.2). A line running exactly along a hexside meets the higher of
the two hexes (MBT 13.2.1). Where the obstacle lies between the two ends' heights the LINE OF
SIGHT CHART decides (MBT 13.2.1.4), and may make the target hull down (MBT 13.2.2.2).

The Basic Game's sighting is :mod:`hexwar.plugins.mbt.sighting`; this module answers its
``mbt_sees`` hook when the Advanced Game is played and reuses its charts and map facts.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from hexwar.core.engine.state import Unit
from hexwar.core.hexgrid import Hex, in_arc, trace
from hexwar.core.kit import StashKey
from hexwar.core.los import BaseLosRules, HexsidePolicy, LosContext, LosEffect, VertexPolicy
from hexwar.plugins.mbt.advanced_tables import AdvancedCharts, load_advanced
from hexwar.plugins.mbt.markers import marker_at, sight_terrain
from hexwar.plugins.mbt.state import card_of, ctx, data

if TYPE_CHECKING:
    from hexwar.core.board import Board
    from hexwar.core.engine.game import Game

CONDITIONS = ("Day", "Dusk", "Moonlight", "Night")  # MBT 13.1.1 (the chart's lines)
#: MBT 13.1.1: fog and blowing snow read the chart's "Night/Fog/Blowing Snow" line
CHART_LINE = {"Fog": "Night", "Blowing Snow": "Night"}
NO_LASER = ("Fog", "Blowing Snow")  # MBT 14.3.2 (L, D): lasers do not work in these


@dataclass(frozen=True)
class Sight:
    """The answer of one Advanced line of sight (MBT 13.2)."""

    clear: bool
    hull_down: bool = False
    rule: str = "MBT 13.2.1.3"


#: per game: (from hex, its height, to hex, its height) -> Sight
LOS_CACHE = StashKey[dict[tuple[Hex, int, Hex, int], Sight]]("mbt.advanced.los")
#: per game: hex -> (ground height, total height)
HEIGHTS = StashKey[dict[Hex, tuple[int, int]]]("mbt.advanced.heights")


def special(game: Game) -> dict[str, Any]:
    raw = game.scenario.raw.get("special", {}) if isinstance(game.scenario.raw, dict) else {}
    return raw if isinstance(raw, dict) else {}


def visibility(game: Game) -> str:
    """MBT 13.1.1: the visibility of this game: the scenario's ``[special] conditions`` (Day if it
    says none), or what the Scenario One "Chance" roll gave (``conditions = "chance"``)."""
    rolled = data(game).get("conditions")
    if rolled:
        return str(rolled)
    got = str(special(game).get("conditions", "Day"))
    return "Day" if got == "chance" else got


def condition(game: Game) -> str:
    """MBT 13.1.1: the SIGHTING RANGES CHART line of the game's visibility."""
    v = visibility(game)
    return CHART_LINE.get(v, v)


def roll_chance(game: Game) -> None:
    """MBT Scenario One B.3 "Chance": one die for the ground, one for the visibility, before the
    set-up; the result is public. The ground is recorded only (its effects are optional rules)."""
    if special(game).get("conditions") != "chance" or data(game).get("conditions"):
        return
    from hexwar.core.tables import TableSet
    from hexwar.plugins.mbt.advanced_tables import ADVANCED

    table = TableSet.load_dir(ADVANCED)["chance"]
    w = game.dice.d10("MBT Scenario One B.3 ground conditions")
    v = game.dice.d10("MBT Scenario One B.3 visibility")
    weather = str(table.value("weather", die=w))
    vis = str(table.value("visibility", die=v))
    data(game)["ground"] = weather
    data(game)["conditions"] = vis
    game.emit("conditions", ground=weather, visibility=vis, rolls=[w, v],
              rule="MBT Scenario One B.3")


def charts() -> AdvancedCharts:
    return load_advanced()


def hex_heights(game: Game, h: Hex) -> tuple[int, int]:
    """MBT 12.1.1-12.1.2: (ground height, total height) of a hex: the ground, and the ground plus
    its tallest trees or buildings."""
    cache = game.stash.setdefault(HEIGHTS, {})
    got = cache.get(h)
    if got is None:
        ground = round(game.board.height_of.get(h, 0.0))
        own = special(game).get("heights", {})
        tall = 0
        for kind in ctx(game).info.kinds[h]:
            if isinstance(own, dict) and kind in own:
                tall = max(tall, int(own[kind]))
            elif kind in charts().obstacle:
                tall = max(tall, charts().obstacle[kind].value)
        got = cache[h] = (ground, ground + tall)
    return got


def unit_height(game: Game, u: Unit) -> int:
    """MBT 12.1.2: a ground unit sits on the ground of its hex, a leg unit UP in buildings that
    much higher (MBT 15.4.1.1; vehicles never go up floors, MBT 15.4.1.2)."""
    assert u.hex is not None
    return hex_heights(game, u.hex)[0] + int(u.state.get("up") or 0)


def line_of_sight(game: Game, a: Hex, ha: int, b: Hex, hb: int) -> Sight:
    """MBT 13.2.1: from height ``ha`` in ``a`` to height ``hb`` in ``b``. Adjacent hexes have no
    obstacle between them; every intervening hex (or hexside) is checked in order."""
    key = (a, ha, b, hb)
    cache = game.stash.setdefault(LOS_CACHE, {})
    got = cache.get(key)
    if got is not None:
        return got
    if len(cache) >= LOS_CACHE_LIMIT:  # bounded: a long game forgets, and recomputes the same
        cache.clear()
    got = cache[key] = _trace(game, a, ha, b, hb)
    return got


#: the most answers :func:`line_of_sight` keeps per game (each a few hundred bytes)
LOS_CACHE_LIMIT = 50_000


def _trace(game: Game, a: Hex, ha: int, b: Hex, hb: int) -> Sight:
    hi, lo = max(ha, hb), min(ha, hb)
    high_end = a if ha >= hb else b
    rng = a.distance(b)
    hull_down = False
    rule = "MBT 13.2.1.3"
    for st in trace(a, b).steps:
        hexes = [h for h in st.hexes if h != a and h != b and h in game.board.hexes]
        if not hexes:
            continue
        # MBT 13.2.1: a hexside is as high as the higher of its two hexes
        obs, where = max((hex_heights(game, h)[1], h) for h in hexes)
        if obs > hi:
            return Sight(False, rule="MBT 13.2.1.1")
        if obs == hi and obs > lo:
            return Sight(False, rule="MBT 13.2.1.2")
        if obs <= lo:
            continue
        # MBT 13.2.1.4: the obstacle is higher than one end and lower than the other
        numbers, _line = charts().los_cell(hi - lo, rng, hi - obs)
        clear, hd = chart_verdict(numbers, high_end.distance(where))
        if not clear:
            return Sight(False, rule="MBT 13.2.1.4.2")
        rule = "MBT 13.2.1.4.2"
        hull_down = hull_down or hd
    return Sight(True, hull_down, rule)


def chart_verdict(numbers: tuple[int, ...], d_obs: int) -> tuple[bool, bool]:
    """MBT 13.2.1.4.2: an obstacle no farther from the higher end than the cell's largest number
    does not block; MBT 13.2.2.2: with three numbers, an obstacle from the middle number to the
    largest makes the target hull down. Returns (clear, hull down)."""
    if not numbers or d_obs > max(numbers):
        return False, False
    return True, len(numbers) == 3 and numbers[1] <= d_obs <= numbers[2]


def target_class(game: Game, u: Unit) -> str:
    """MBT 13.1.2: the SIGHTING RANGES CHART sub-column of a target: VH for vehicles, S for leg
    and small towed units, L for large towed units (their card notes say which)."""
    kind = card_of(game, u).kind
    if kind == "vehicle":
        return "VH"
    return "L" if kind == "towed" else "S"  # no leg or towed cards yet: docs/mbt-advanced.md


def sighter_row(game: Game, u: Unit) -> str:
    """MBT 13.1.4: leg and towed units sight as open, unless carried in a buttoned full-cover
    vehicle: then on the buttoned row (docs/decisions.md MBTD-119); vehicles by their turret."""
    if card_of(game, u).kind in ("leg", "towed"):
        carrier = game.state.units.get(str(u.state.get("mounted"))) if u.state.get("mounted") \
            else None
        if carrier is not None and not carrier.state.get("open", True):
            from hexwar.plugins.mbt.transport import full_cover_carrier

            if full_cover_carrier(game, carrier):
                return "Buttoned"
        return "Open"
    return "Open" if u.state.get("open", True) else "Buttoned"


def sighting_arc(game: Game, u: Unit) -> int | None:
    """MBT 12.3.1: the facing a suppressed unit's 60-degree arc is measured from (the turret of a
    vehicle with a working turret, else the unit's front); None when it sights all round."""
    if not u.state.get("suppressed"):
        return None
    card = card_of(game, u)
    turret = any(w.mount == "turret" for w in card.weapons)
    if turret and u.state["damage"].get("compartment") != "turret":
        return int(u.state["turret"])
    return u.facing


def sees(game: Game, viewer: Unit, target: Unit, moving: bool) -> bool:
    """MBT 13.1 with MBT 6.1.3: the sighting range under the conditions for the target's class,
    doubled for a MOVED marker or a unit moving now, any range for a FIRED marker; a suppressed
    viewer only within its 60-degree arc (MBT 12.3.1); an Advanced line of sight (MBT 13.2)."""
    assert viewer.hex is not None and target.hex is not None
    r = viewer.hex.distance(target.hex)
    if r == 0:
        return True
    arc = sighting_arc(game, viewer)
    if arc is not None and not in_arc(viewer.hex, arc, target.hex, "front60"):
        return False
    spotted = target.state.get("spotted")
    if spotted != "FIRED":
        c = ctx(game)
        terrain = sight_terrain(game, target.hex) or c.info.sight_terrain[target.hex]  # MBT 12.4.1.2
        base = c.charts.sighting_range(sighter_row(game, viewer), terrain,
                                       target_class(game, target), condition(game))
        if spotted == "MOVED" or moving:
            base *= 2
        if r > base:
            return False
    return line_of_sight(game, viewer.hex, unit_height(game, viewer), target.hex,
                         unit_height(game, target)).clear


def hull_down(game: Game, firer: Unit, target: Unit) -> tuple[bool, str]:
    """MBT 13.2.2: whether a target vehicle is hull down to this firer, and by which rule."""
    assert firer.hex is not None and target.hex is not None
    if card_of(game, target).kind != "vehicle":
        return False, ""
    hf, ht = unit_height(game, firer), unit_height(game, target)
    if firer.hex.distance(target.hex) == 1 and hf > ht:
        return True, "MBT 13.2.2.1.1"
    if "improved_position" in ctx(game).info.kinds[target.hex] or \
            marker_at(game, target.hex) == "improved_position":
        return True, "MBT 13.2.2.1.2"
    if target.state.get("inb") and set(ctx(game).info.kinds[target.hex]) & {"brick", "stone"}:
        return True, "MBT 13.2.2.1.2"
    s = line_of_sight(game, firer.hex, hf, target.hex, ht)
    if s.clear and s.hull_down:
        return True, "MBT 13.2.2.2"
    return False, ""


class AdvancedLos(BaseLosRules):
    """MBT 13.2.1 as core LOS rules, for the table-side views of an Advanced game (``hexwar los``,
    the board drawing): from the ground of one end hex to the ground of the other, each
    intervening hex judged by :func:`line_of_sight`'s rules (a hexside by its higher hex:
    ``hexside_policy = "either"``; a corner touched in one point is no obstacle, MBTD-52). The
    game's own sighting uses :func:`sees`."""

    include_endpoints: bool = False
    hexside_policy: HexsidePolicy = "either"
    vertex_policy: VertexPolicy = "ignore"

    def hex_effect(self, board: Board, h: Hex, lctx: LosContext) -> LosEffect | None:
        game = lctx.data
        if game is None or not hasattr(game, "stash") or getattr(game, "board", None) is not board:
            return None
        ha, hb = hex_heights(game, lctx.a)[0], hex_heights(game, lctx.b)[0]
        obs = hex_heights(game, h)[1]
        hi, lo = max(ha, hb), min(ha, hb)
        if obs > hi:
            return LosEffect("block", 0, f"height {obs} above both ends", "MBT 13.2.1.1")
        if obs == hi and obs > lo:
            return LosEffect("block", 0, f"height {obs} equal to the higher end", "MBT 13.2.1.2")
        if obs <= lo:
            return None
        numbers, _line = charts().los_cell(hi - lo, lctx.distance, hi - obs)
        high_end = lctx.a if ha >= hb else lctx.b
        clear, _hd = chart_verdict(numbers, high_end.distance(h))
        if not clear:
            return LosEffect("block", 0, f"height {obs}: LINE OF SIGHT CHART", "MBT 13.2.1.4.2")
        return None
