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
#: MBT 14.3.2 (I): the longest range at which an image intensifier sights at Day ranges, by the
#: conditions (none in Day, where it is not needed, nor in fog or blowing snow, which negate it)
INTENSIFIER_REACH = {"Dusk": 20, "Moonlight": 20, "Night": 15}
#: MBT 14.3.2 (T), 18.1: a thermal imager sights at Day ranges out to 20 hexes in the nighttime
#: conditions (Night, Moonlight or Dusk; docs/decisions.md MBTD-146)
THERMAL_REACH = {"Dusk": 20, "Moonlight": 20, "Night": 20}


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


def weapon_sights(game: Game, u: Unit, weapon: str) -> str:
    """MBT 14.3.2: the sight letters of a weapon on its card (e.g. "LT"; "O" = optical only)."""
    card = card_of(game, u)
    for w in card.records.values.get("weapons", []):
        if isinstance(w, dict) and w.get("name") == weapon:
            return str(w.get("sights") or "O")
    return "O"


def unit_sights(game: Game, u: Unit) -> str:
    """MBT 14.3.2: the sight letters of a unit's weapons (its cards' "Sights" columns), less those
    of the weapons a compartment hit destroyed with their sights (MBT 14.3.3.1: a turret
    compartment hit takes the turret's weapons, a hull compartment hit the hull's)."""
    card = card_of(game, u)
    lost = u.state.get("damage", {}).get("compartment")
    memo = ctx(game).sights
    key = (card.name, lost)
    got = memo.get(key)
    if got is None:  # the card's weapons and sights are fixed for the game (MBTD-188)
        got = ""
        for w in card.weapons:
            if lost is not None and w.mount == lost:
                continue
            for letter in weapon_sights(game, u, w.name):
                if letter not in got:
                    got += letter
        memo[key] = got
    return got


def _any_smoke(game: Game, viewer: Unit, to: Hex, target: Unit | None) -> bool:
    """MBT 14.3.2 (I): any smoke between the two ends: a smoke (ON or OFF) marker the line meets
    (MBT 12.1.4 heights), a burning wreck's smoke (MBT 7.4.2.3.3), discharger smoke covering
    either end (MBT 12.6.3)."""
    from hexwar.plugins.mbt.fire import brewup_hexes
    from hexwar.plugins.mbt.smoke import covered, smoke_hexes_on_line

    assert viewer.hex is not None
    if covered(game, viewer) or (target is not None and covered(game, target)):
        return True
    to_height = unit_height(game, target) if target is not None else hex_heights(game, to)[1]
    return bool(smoke_hexes_on_line(game, viewer.hex, to, unit_height(game, viewer), to_height)
                or brewup_hexes(game, viewer.hex, to))


def night_sight_reach(game: Game, viewer: Unit, to: Hex, target: Unit | None = None
                      ) -> tuple[int, str] | None:
    """MBT 14.3.2 (I, T): how far ``viewer`` sights at Day ranges under this game's conditions,
    and by which sight (None: it does not). An image intensifier (I) out to 20 hexes at Dusk or
    Moonlight and 15 at Night, negated by any smoke and by fog or blowing snow; a thermal imager
    (T) out to 20 hexes at nighttime (MBT 18.1: Night, Moonlight, Dusk), but not when either end
    sits in the smoke of its own dischargers (docs/decisions.md MBTD-146). Laser (L, C) and designator
    (D) sights give no sighting of their own."""
    from hexwar.plugins.mbt.smoke import covered

    vis = visibility(game)
    sights = unit_sights(game, viewer)
    best: tuple[int, str] | None = None
    if "T" in sights and vis in THERMAL_REACH and not covered(game, viewer) and not (
            target is not None and covered(game, target)):
        best = (THERMAL_REACH[vis], "T")
    longer = vis in INTENSIFIER_REACH and (best is None or INTENSIFIER_REACH[vis] > best[0])
    if "I" in sights and longer and not _any_smoke(game, viewer, to, target):
        best = (INTENSIFIER_REACH[vis], "I")
    return best


def sighting_reach(game: Game, viewer: Unit, to: Hex, terrain: str, klass: str, *,
                   target: Unit | None = None, doubled: bool = False) -> int:
    """MBT 13.1, 6.1.3: the farthest ``viewer`` sights a target of class ``klass`` in ``terrain``
    at ``to``: the SIGHTING RANGES CHART entry of the conditions (doubled for a moving target,
    MBT 6.1.3.3), or, with an image intensifier or thermal imager that works here, the Day entry
    (doubled alike) up to the sight's reach, whichever is longer (MBT 14.3.2; MBTD-146)."""
    charts_ = ctx(game).charts
    row = sighter_row(game, viewer)
    times = 2 if doubled else 1
    reach = charts_.sighting_range(row, terrain, klass, condition(game)) * times
    night = night_sight_reach(game, viewer, to, target)
    if night is not None:
        day = charts_.sighting_range(row, terrain, klass, "Day") * times
        reach = max(reach, min(day, night[0]))
    return reach


def sees(game: Game, viewer: Unit, target: Unit, moving: bool) -> bool:
    """MBT 13.1 with MBT 6.1.3: the sighting range under the conditions for the target's class,
    doubled for a MOVED marker or a unit moving now, any range for a FIRED marker; an image
    intensifier or thermal imager sights at Day ranges at night (MBT 14.3.2, :func:`sighting_reach`);
    a suppressed viewer only within its 60-degree arc (MBT 12.3.1); an Advanced line of sight
    (MBT 13.2)."""
    assert viewer.hex is not None and target.hex is not None
    r = viewer.hex.distance(target.hex)
    if r == 0:
        return True
    # a line of sight traced blocked before answers at once: the range and arc checks below
    # could only say False too (MBTD-195)
    hv, ht = unit_height(game, viewer), unit_height(game, target)
    traced = game.stash.get(LOS_CACHE)
    known = None if traced is None else traced.get((viewer.hex, hv, target.hex, ht))
    if known is not None and not known.clear:
        return False
    arc = sighting_arc(game, viewer)
    if arc is not None and not in_arc(viewer.hex, arc, target.hex, "front60"):
        return False
    spotted = target.state.get("spotted")
    if spotted != "FIRED":
        c = ctx(game)
        terrain = sight_terrain(game, target.hex) or c.info.sight_terrain[target.hex]  # MBT 12.4.1.2
        if r > sighting_reach(game, viewer, target.hex, terrain, target_class(game, target),
                              target=target, doubled=spotted == "MOVED" or moving):
            return False
    if known is not None:
        return known.clear
    return line_of_sight(game, viewer.hex, hv, target.hex, ht).clear


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
    kinds = set(ctx(game).info.kinds[target.hex])
    if target.state.get("inb") and kinds & {"brick", "stone"} and "wooden" not in kinds:
        return True, "MBT 13.2.2.1.2"  # brick or stone only: not inside wooden ones (MBTD-169)
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
