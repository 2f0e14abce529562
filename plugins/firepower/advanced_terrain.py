"""The Advanced Game's terrain (Firepower 8.2, Firepower 8.2.1-8.2.5, Firepower 8.7, Firepower
11.1.11.1, Firepower 11.2.1.1, Firepower 11.2.3): ground heights, water depths, tree heights,
free-standing walls, buildings with floors, stairs, doors and windows, and craters, read from the
Advanced terrain files of ``data/advanced/terrain-<panel>.toml`` a scenario names
(``special.terrain``).

The printed panels, the Building Card and the scenarios' terrain definitions are not in the text:
every terrain file is a stand-in, all its values ``estimated`` (docs/decisions.md FPD-60).

Units: a water depth is a pint quantity in the file (``depth = "30 inch"``), turned into a float
number of inches once, when the file is read; heights are the game's "heights" (about three feet,
Firepower 8.2.2), plain integers.

Locations: a soldier on the ground has no ``floor`` in his state (floor 1); a soldier upstairs
has ``floor = n`` (Firepower 8.2.1: the story of the plan "A2" is 2). The height of a soldier's
head is his hex's ground, the stories below his floor and his posture's head height
(:func:`head_of`). An Up soldier (climbing, Firepower 10.5.1) keeps Standing and records his head
height as ``up`` (docs/decisions.md FPD-63).

What blocks a line of sight or fire between two locations (for the Advanced line of sight,
Firepower 12.1): :func:`sight_obstacles` lists every obstacle with its height, and
:func:`wall_block` says whether a building's walls, floors, closed doors or windows block the line
outright (the ends inside buildings see out only through open openings on their floor).
:func:`blocked_between` combines both with the obstacle test of Firepower 12.1.1-12.1.3.
"""

from __future__ import annotations

import math
import weakref
from collections.abc import Callable, Collection, Iterable, Mapping
from dataclasses import dataclass, field, replace
from functools import cache, lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from hexwar.core.errors import DataError, RulesError
from hexwar.core.hexgrid import Hex, opposite
from hexwar.core.kit import StashKey
from hexwar.core.provenance import Records, load_records
from hexwar.core.units import as_float, parse_quantity
from hexwar.plugins.firepower.advanced_los import Obstacle as LosObstacle
from hexwar.plugins.firepower.advanced_los import classify
from hexwar.plugins.firepower.squads import head_height
from hexwar.plugins.firepower.terrain import boundary_point, centre, hexside_midpoint, intervening

if TYPE_CHECKING:
    from hexwar.core.engine.game import Game
    from hexwar.core.engine.state import Unit
    from hexwar.plugins.firepower.soldiers import Soldier

DATA = Path(__file__).parent / "data" / "advanced"
#: heights per contour level when the scenario gives none (Firepower 8.2.2's example: 3)
HILL_HEIGHT = 3
#: heights per story of a building when its file gives none (estimated, FPD-60)
STORY = 4
#: a window is one height high starting one above its floor; a door two from the floor
#: (Firepower 8.2.3)
WINDOW_SPAN = (1, 2)
DOOR_SPAN = (0, 2)
#: Firepower 11.2.1.1 fording depths (inches) by posture; Firepower 11.2.3 the least swimming depth
FORD_INCHES = {"stand": 48.0, "crouch": 24.0}
SWIM_INCHES = 18.0


def side_key(a: Hex, b: Hex) -> tuple[Hex, Hex]:
    """A hexside as the ordered pair of its two hexes."""
    return (a, b) if (a.q, a.r) <= (b.q, b.r) else (b, a)


def direction(a: Hex, b: Hex) -> int:
    """The hexside of ``a`` (1-6) facing adjacent ``b``."""
    for d in range(1, 7):
        if a.neighbor(d) == b:
            return d
    raise RulesError(f"{a!r} and {b!r} are not adjacent", rule="Firepower 4.3")


@dataclass(frozen=True)
class Opening:
    """A door or window in a building's wall on the hexside ``between`` (building hex first), on
    ``floor`` (Firepower 8.2.3, Firepower 8.2.5)."""

    kind: str  # "door" or "window"
    inside: Hex
    outside: Hex
    floor: int

    @property
    def key(self) -> str:
        """The name the game state records the opening's state under."""
        a, b = side_key(self.inside, self.outside)
        return f"{a.q},{a.r}|{b.q},{b.r}|{self.floor}"

    @property
    def span(self) -> tuple[int, int]:
        return DOOR_SPAN if self.kind == "door" else WINDOW_SPAN


@dataclass(frozen=True)
class Building:
    """One building (Firepower 8.2.1, Firepower 8.2.3): its hexes, stories and their height,
    the stairs' hexes (none for a single story: Firepower 8.2.1), flat roof."""

    id: str
    hexes: frozenset[Hex]
    floors: int
    story: int
    stairs: frozenset[Hex]

    @property
    def height(self) -> int:
        """Firepower 8.2.3: the walls of every story; the flat roof adds nothing."""
        return self.floors * self.story

    def plan(self, floor: int) -> str:
        """Firepower 8.2.1: the floor plan's name, building letter and story ("A2")."""
        return f"{self.id}{floor}"


@dataclass(frozen=True)
class Obstacle:
    """Something on a line of sight with the height of its top above the board's zero."""

    where: str
    kind: str
    height: int
    rule: str


@dataclass
class AdvMap:
    """The Advanced terrain of a board (shared by the games of one board and set of files)."""

    hexes: frozenset[Hex]
    ground: dict[Hex, int] = field(default_factory=dict)
    water: dict[Hex, float] = field(default_factory=dict)
    trees: dict[Hex, int] = field(default_factory=dict)
    walls: dict[tuple[Hex, Hex], int] = field(default_factory=dict)
    buildings: dict[str, Building] = field(default_factory=dict)
    building_of: dict[Hex, str] = field(default_factory=dict)
    openings: dict[tuple[Hex, Hex, int], Opening] = field(default_factory=dict)
    caves: dict[Hex, int] = field(default_factory=dict)
    # caches of this map's own content: not init fields, so that dataclasses.replace (a copy with
    # other walls or ground, as tests make) starts them empty instead of sharing stale lines
    _lines: dict[tuple[Hex, Hex], tuple[tuple[Hex, ...], tuple[tuple[Hex, Hex], ...]]] = field(
        default_factory=dict, repr=False, init=False)
    _exits: dict[tuple[Hex, Hex], tuple[int, ...]] = field(default_factory=dict, repr=False,
                                                           init=False)

    def line(self, a: Hex, b: Hex) -> tuple[tuple[Hex, ...], tuple[tuple[Hex, Hex], ...]]:
        """The board hexes between ``a`` and ``b`` and the walled hexsides crossed (cached)."""
        got = self._lines.get((a, b))
        if got is None:
            if len(self._lines) > 200_000:
                self._lines.clear()
            hexes = tuple(h for h in intervening(a, b) if h in self.hexes)
            walls = tuple(k for k in self.hexsides_crossed(a, b) if k in self.walls) \
                if self.walls else ()
            got = (hexes, walls)
            self._lines[(a, b)] = got
        return got

    def exits(self, h: Hex, toward: Hex) -> tuple[int, ...]:
        got = self._exits.get((h, toward))
        if got is None:
            got = tuple(exit_sides(h, toward))
            self._exits[(h, toward)] = got
        return got

    # -- what a hex holds ---------------------------------------------------------------------
    def building(self, h: Hex) -> Building | None:
        b = self.building_of.get(h)
        return self.buildings[b] if b is not None else None

    def is_water(self, h: Hex) -> bool:
        return self.water.get(h, 0.0) > 0.0

    def wall_between(self, a: Hex, b: Hex) -> bool:
        """A building's outer wall lies on the hexside between adjacent ``a`` and ``b``: one is a
        building hex and the other is not of the same building."""
        ba, bb = self.building_of.get(a), self.building_of.get(b)
        return (ba is not None or bb is not None) and ba != bb

    def opening(self, a: Hex, b: Hex, floor: int) -> Opening | None:
        k = side_key(a, b)
        return self.openings.get((k[0], k[1], floor))

    def openings_of(self, h: Hex) -> list[Opening]:
        return [o for o in self.openings.values() if h in (o.inside, o.outside)]

    def floors(self, h: Hex) -> int:
        b = self.building(h)
        return b.floors if b is not None else 1

    def story(self, h: Hex) -> int:
        b = self.building(h)
        return b.story if b is not None else 0

    # -- lines of sight -------------------------------------------------------------------------
    def hexsides_crossed(self, a: Hex, b: Hex) -> list[tuple[Hex, Hex]]:
        """The hexsides the line between the centres of ``a`` and ``b`` crosses or runs along
        (both hexes on the board). FPD-205: the geometry is that of the line from ``(0, 0)`` to
        ``b - a`` moved to ``a`` (:func:`_sides_from_origin`, kept per offset); the board's
        hexes are then picked, in the line's order."""
        q, r = a
        board = self.hexes
        out: list[tuple[Hex, Hex]] = []
        for (q1, r1), (q2, r2) in _sides_from_origin(b.q - q, b.r - r):
            h, n = Hex(q + q1, r + r1), Hex(q + q2, r + r2)
            if h in board and n in board:
                out.append((h, n))
        return out

    def hexsides_crossed_traced(self, a: Hex, b: Hex) -> list[tuple[Hex, Hex]]:
        """:meth:`hexsides_crossed` traced from ``a`` and ``b`` themselves (the reference the
        kept offsets are tested against)."""
        return [k for k in _sides_crossed(a, b) if k[0] in self.hexes and k[1] in self.hexes]


def _sides_crossed(a: Hex, b: Hex) -> list[tuple[Hex, Hex]]:
    """Every hexside, as :func:`side_key`, the line between the centres of ``a`` and ``b``
    crosses or runs along, between two hexes of the line (its own and the intervening ones), in
    the order of the line's hexes and their hexsides 1-6."""
    from hexwar.plugins.firepower.terrain import segments_touch

    hexes = [a, *intervening(a, b), b]
    on_line = set(hexes)  # membership only (the list's order is the output's)
    out: list[tuple[Hex, Hex]] = []
    pa, pb = centre(a), centre(b)
    seen: set[tuple[Hex, Hex]] = set()
    for h in hexes:
        for d in range(1, 7):
            n = h.neighbor(d)
            if n not in on_line:
                continue
            k = side_key(h, n)
            if k in seen:
                continue
            seen.add(k)
            c1, c2 = _corners(h, d)
            if segments_touch(pa, pb, c1, c2):
                out.append(k)
    return out


@lru_cache(maxsize=4_096)
def _sides_from_origin(dq: int, dr: int) -> tuple[tuple[tuple[int, int], tuple[int, int]], ...]:
    """FPD-205: :func:`_sides_crossed` from ``(0, 0)`` to ``(dq, dr)``, as offsets. A move of
    both ends moves every hexside with them and keeps the order of :func:`side_key`; the
    crossing tests read coordinates that are multiples of 1/2 and of the root of 3 / 2, whose
    products are zero or far from the tests' tolerance, so they answer the same anywhere (a
    test compares with the traced sides on random boards). Bounded by the boards' size."""
    return tuple(((h.q, h.r), (n.q, n.r)) for h, n in _sides_crossed(Hex(0, 0), Hex(dq, dr)))


def _corners(h: Hex, d: int) -> tuple[tuple[float, float], tuple[float, float]]:
    """The two corners of hexside ``d`` of ``h``: the midpoint plus and minus half a side along it."""
    mx, my = hexside_midpoint(h, d)
    cx, cy = centre(h)
    vx, vy = mx - cx, my - cy  # length sqrt(3)/2, normal to the side
    n = math.hypot(vx, vy)
    tx, ty = -vy / n * 0.5, vx / n * 0.5
    return (mx + tx, my + ty), (mx - tx, my - ty)


def exit_sides(h: Hex, toward: Hex) -> list[int]:
    """The hexside(s) of ``h`` where the line from its centre toward ``toward`` leaves it (two
    when it leaves through a corner)."""
    p = boundary_point(h, toward)
    dist = {d: math.dist(p, hexside_midpoint(h, d)) for d in range(1, 7)}
    low = min(dist.values())
    return [d for d, v in dist.items() if v - low < 1e-6]


# ---------------------------------------------------------------------------------------------
# Reading the terrain files
# ---------------------------------------------------------------------------------------------


@cache
def terrain_records(name: str) -> Records:
    """The Advanced terrain file ``name`` (``terrain-1`` ... ``terrain-4``)."""
    path = DATA / f"{name}.toml"
    if not path.is_file():
        known = sorted(p.stem for p in DATA.glob("terrain-*.toml"))
        raise DataError(f"no Advanced terrain file {name!r} (known: {', '.join(known)})",
                        path=str(path))
    return load_records(path)


def terrain_names(game: Game) -> tuple[str, ...]:
    special = game.scenario.raw.get("special", {}) or {}
    names = special.get("terrain", []) if isinstance(special, dict) else []
    return tuple(str(n).split(":")[-1] for n in names)


def hill_height(game: Game) -> int:
    """Firepower 8.2.2: the heights per contour level the scenario defines (3 when silent)."""
    special = game.scenario.raw.get("special", {}) or {}
    return int(special.get("heights_per_level", HILL_HEIGHT)) if isinstance(special, dict) else HILL_HEIGHT


ADV_MAP = StashKey[dict[tuple[tuple[str, ...], int], AdvMap]]("firepower.advanced-map")


#: each game's Advanced terrain, found once (the inner loops of the AI ask thousands of times),
#: with the destroyed caves it was derived for
_BY_GAME: weakref.WeakKeyDictionary[Any, tuple[tuple[str, ...], AdvMap]] = (
    weakref.WeakKeyDictionary())

#: ``state.data["firepower"]`` key: the labels of the caves fire has destroyed (Firepower
#: 12.3.4.2.2; :mod:`~hexwar.plugins.firepower.cave_damage`)
CAVES_DESTROYED = "caves_destroyed"


def adv_map(game: Game) -> AdvMap:
    """The game's Advanced terrain (built once per board, terrain files and hill height). The
    game gets a copy that shares the terrain and has its own caches of lines and exits, so that
    what one game computes goes with it (the board's map kept every game's lines: about 1,300
    objects a game in the street fight). The copy leaves out the caves this game's fire has
    destroyed (Firepower 12.3.4.2.2), read from the state each time, so a restored or replayed
    state gets its own caves back; the shared map is never changed."""
    fp = game.state.data.get("firepower")
    gone_list = fp.get(CAVES_DESTROYED) if fp else None
    gone = tuple(gone_list) if gone_list else ()
    got = _BY_GAME.get(game)
    if got is None or got[0] != gone:
        base = _adv_map(game)
        caves = base.caves
        if gone:
            caves = {h: d for h, d in caves.items() if game.board.label(h) not in gone}
        new = replace(base, caves=caves)
        if got is not None:  # the same walls and buildings: the traced lines still hold
            new._lines, new._exits = got[1]._lines, got[1]._exits
        got = (gone, new)
        _BY_GAME[game] = got
    return got[1]


def use_map(game: Game, m: AdvMap) -> None:
    """Give ``game`` the terrain ``m`` in place of its copy (a test's changed terrain for one
    game), kept until the game's destroyed caves change."""
    fp = game.state.data.get("firepower")
    gone = fp.get(CAVES_DESTROYED) if fp else None
    _BY_GAME[game] = (tuple(gone) if gone else (), m)


def _adv_map(game: Game) -> AdvMap:
    key = (terrain_names(game), hill_height(game))
    cache_ = game.board.stash.get(ADV_MAP)
    if cache_ is None:
        cache_ = {}
        game.board.stash[ADV_MAP] = cache_
    got = cache_.get(key)
    if got is None:
        got = build_map(game, *key)
        cache_[key] = got
    return got


def build_map(game: Game, names: Iterable[str], per_level: int) -> AdvMap:
    board = game.board
    m = AdvMap(frozenset(board.hexes))
    for h in board.hexes:
        z = board.height_of[h]
        if z:
            m.ground[h] = round(z) * per_level  # Firepower 8.2.2
    for name in names:
        rec = terrain_records(name)
        _read(m, rec.values, board, name)
    for cave, mouth in m.caves.items():
        back = cave.neighbor(opposite(mouth))
        if m.ground.get(back, 0) - m.ground.get(cave, 0) < 3:
            raise DataError(f"the cave in {board.label(cave)} needs a height hexside at least 3 "
                            "heights above it at its back (Firepower 8.8.7)")
    return m


def _hex(board: Any, panel: str, label: Any, where: str) -> Hex:
    try:
        return board.parse(f"{panel}{label}")  # type: ignore[no-any-return]
    except (ValueError, KeyError):
        raise DataError(f"{where}: hex {label!r} is not on panel {panel}") from None


def _read(m: AdvMap, v: Mapping[str, Any], board: Any, name: str) -> None:
    panel = str(v.get("panel", ""))
    try:
        if not any(board.label(h).startswith(panel) for h in board.hexes):
            return  # the panel is not on this board
    except AttributeError:
        return
    trees = v.get("trees", {}) or {}
    default_tree = int(trees.get("default", 7))
    for h in board.hexes:
        if board.terrain_of[h].split(":")[-1] == "tree" and board.label(h).startswith(panel):
            m.trees[h] = default_tree
    for lab, height in (trees.get("hexes", {}) or {}).items():
        m.trees[_hex(board, panel, lab, f"{name} trees")] = int(height)
    for i, w in enumerate(v.get("water", []) or []):
        try:
            inches = as_float(parse_quantity(str(w["depth"]), "[length]", f"{name} water[{i}]"),
                              "inch")
        except (KeyError, ValueError, TypeError, RulesError) as exc:
            raise DataError(f"{name} water[{i}]: a depth with its unit, e.g. \"30 inch\" ({exc})"
                            ) from None
        for lab in w["at"]:
            m.water[_hex(board, panel, lab, f"{name} water[{i}]")] = inches
    for i, w in enumerate(v.get("wall", []) or []):
        a, b = (_hex(board, panel, x, f"{name} wall[{i}]") for x in w["between"])
        m.walls[side_key(a, b)] = int(w.get("height", 4))
    for i, c in enumerate(v.get("cave", []) or []):
        m.caves[_hex(board, panel, c["at"], f"{name} cave[{i}]")] = int(c["mouth"])
    bd: Mapping[str, Any]
    for i, bd in enumerate(v.get("building", []) or []):
        where = f"{name} building[{i}]"
        bid = str(bd["id"])
        hexes = frozenset(_hex(board, panel, x, where) for x in bd["hexes"])
        floors = int(bd.get("floors", 1))
        stairs = frozenset(_hex(board, panel, x, where) for x in bd.get("stairs", []))
        if floors > 1 and not stairs:
            raise DataError(f"{where}: building {bid} of {floors} stories has no stairs")
        if not stairs <= hexes:
            raise DataError(f"{where}: building {bid}'s stairs are not in its hexes")
        m.buildings[bid] = Building(bid, hexes, floors, int(bd.get("story", STORY)), stairs)
        for h in hexes:
            m.building_of[h] = bid
        for kind in ("door", "window"):
            for j, o in enumerate(bd.get(kind, []) or []):
                ins, out = (_hex(board, panel, x, f"{where} {kind}[{j}]") for x in o["between"])
                if ins not in hexes or out in hexes or ins.neighbor(direction(ins, out)) != out:
                    raise DataError(f"{where} {kind}[{j}]: an opening joins one of the "
                                    "building's hexes to an adjacent hex outside it")
                floor = int(o.get("floor", 1))
                if not 1 <= floor <= floors:
                    raise DataError(f"{where} {kind}[{j}]: no floor {floor}")
                k = side_key(ins, out)
                m.openings[(k[0], k[1], floor)] = Opening(kind, ins, out, floor)


# ---------------------------------------------------------------------------------------------
# Craters (Firepower 8.7) and the game's opening states (Firepower 8.2.5, 11.1.9, 11.1.10)
# ---------------------------------------------------------------------------------------------


def _fp(game: Game) -> dict[str, Any]:
    from hexwar.plugins.firepower.state import data

    return data(game)


def craters(game: Game) -> dict[Hex, int]:
    """Firepower 8.7: crater hexes and their depth (1 or 2), as the attacker placed them."""
    out: dict[Hex, int] = {}
    for lab, depth in (_fp(game).get("craters") or {}).items():
        out[game.board.parse(lab)] = int(depth)
    return out


#: each game's crater hexes, with the records they were parsed from (craters are only added,
#: in the set-up: Firepower 8.7)
_CRATERS: weakref.WeakKeyDictionary[Any, tuple[Any, int, dict[Hex, int]]] = (
    weakref.WeakKeyDictionary())


def _crater_hexes(game: Game) -> dict[Hex, int]:
    recs = game.state.data.get("firepower", {}).get("craters")
    if not recs:
        return {}
    got = _CRATERS.get(game)
    if got is None or got[0] is not recs or got[1] != len(recs):
        got = (recs, len(recs), {game.board.parse(k): int(v) for k, v in recs.items()})
        _CRATERS[game] = got
    return got[2]


def _sunk(game: Game) -> dict[Hex, int]:
    """The hexes whose ground lies lower than the map's: craters (Firepower 8.7) and ditches
    (Firepower 8.8.5.3: five heights deep), with the heights."""
    from hexwar.plugins.firepower.defenses import ditch_depth

    cr = _crater_hexes(game)
    dd = ditch_depth(game)
    if not dd:
        return cr
    out = dict(cr)
    for h, d in dd.items():
        out[h] = out.get(h, 0) + d
    return out


def ground_of(game: Game, h: Hex) -> int:
    """Firepower 8.2.2, Firepower 8.7, Firepower 8.8.5.3: the ground's height, less a crater's
    or a ditch's depth."""
    return adv_map(game).ground.get(h, 0) - _sunk(game).get(h, 0)


def opening_state(game: Game, o: Opening) -> str:
    """``open`` (unmarked, Firepower 11.1.9), ``closed`` or ``broken`` (Firepower 11.1.10: open
    for good)."""
    return str((_fp(game).get("openings") or {}).get(o.key, "open"))


def is_open(game: Game, o: Opening) -> bool:
    return opening_state(game, o) in ("open", "broken")


# ---------------------------------------------------------------------------------------------
# Soldiers' locations and heights
# ---------------------------------------------------------------------------------------------


def floor_of(u: Unit) -> int:
    f = u.state.get("floor")
    return int(f) if isinstance(f, int) and not isinstance(f, bool) else 1


def in_tunnel(u: Unit) -> bool:
    return bool(u.state.get("tunnel"))


def head_above_floor(u: Unit) -> int:
    """Firepower 10.5.2 (and Firepower 10.5.1: an Up soldier's recorded height)."""
    up = u.state.get("up")
    if isinstance(up, int) and not isinstance(up, bool):
        return up
    return head_height(str(u.state.get("posture", "stand")))


def floor_height(game: Game, h: Hex, floor: int) -> int:
    """The height of a story's floor: the ground plus the stories below (Firepower 8.2.3)."""
    return ground_of(game, h) + (floor - 1) * adv_map(game).story(h)


def head_of(game: Game, u: Unit) -> int:
    assert u.hex is not None
    return floor_height(game, u.hex, floor_of(u)) + head_above_floor(u)


# ---------------------------------------------------------------------------------------------
# What blocks a line of sight (the hook for the Advanced line of sight, Firepower 12.1)
# ---------------------------------------------------------------------------------------------


def sight_obstacles(game: Game, a: Hex, b: Hex) -> list[Obstacle]:
    """Every terrain obstacle between hexes ``a`` and ``b`` (ends excluded) with its top's
    height: hills and depressions' ground (Firepower 8.2.2), trees (Firepower 11.1.11.1: a
    tree's height), buildings (Firepower 8.2.3: the walls of every story, flat roofs) and
    free-standing walls on the hexsides crossed (Firepower 12.5)."""
    m = adv_map(game)
    out: list[Obstacle] = []
    hexes, walls = m.line(a, b)
    gone = _fp(game).get("ruined") or ()
    for h in hexes:
        lab = game.board.label(h)
        g = ground_of(game, h)
        bd = m.building(h)
        if bd is not None and h not in (a, b) and lab not in gone:
            out.append(Obstacle(lab, f"building {bd.id}", g + bd.height, "Firepower 8.2.3"))
        elif h in m.trees:
            out.append(Obstacle(lab, "tree", g + m.trees[h], "Firepower 11.1.11.1"))
        elif g:
            out.append(Obstacle(lab, "ground", g, "Firepower 8.2.2"))
    for k in walls:
        if k in m.walls:
            base = max(ground_of(game, k[0]), ground_of(game, k[1]))
            out.append(Obstacle(f"{game.board.label(k[0])}|{game.board.label(k[1])}", "wall",
                                base + m.walls[k], "Firepower 12.5"))
    return out


def wall_block(game: Game, h: Hex, floor: int, head: int, other: Hex,
               other_floor: int, opened: Collection[str] = (),
               shut: Collection[str] = ()) -> str | None:
    """Why a soldier in building hex ``h`` on ``floor`` with his head ``head`` heights above
    the floor cannot see toward ``other`` (None: he can). He sees out across his hex's outer
    walls only through an open door or window on his floor at his head's height (Firepower
    8.2.3, Firepower 11.1.9); inside his building only on his own floor (the floor plans have no
    inner walls; docs/decisions.md FPD-61). ``opened``: keys of closed openings to count as
    open (the AI's look ahead at opening one, FPD-160); ``shut``: keys of open ones to count
    closed (its look ahead at closing one, FPD-182)."""
    m = adv_map(game)
    bd = m.building(h)
    if bd is None:
        return None
    if _ruined(game, h):
        return None  # Firepower 12.3.4.2.7: its walls are destroyed (building_damage)
    if m.building_of.get(other) == bd.id:
        if other_floor != floor:
            return f"floor {floor} and floor {other_floor} of building {bd.id} (Firepower 8.2.1)"
        return None
    if floor > bd.floors:
        return None  # on the roof, above every wall (Firepower 11.1.11.2; FPD-176)
    reasons = []
    for d in m.exits(h, other):
        n = h.neighbor(d)
        if m.building_of.get(n) == bd.id:
            reasons.append(f"the line runs inside building {bd.id} (Firepower 8.2.1)")
            continue
        o = m.opening(h, n, floor)
        if o is None:
            from hexwar.plugins.firepower.loopholes import through

            if through(game, h, d, floor, head):  # Firepower 8.2.4, 12.1.6: a loophole
                return None
            reasons.append(f"the wall of {game.board.label(h)} (Firepower 8.2.3)")
        elif (not is_open(game, o) and o.key not in opened) or o.key in shut:
            reasons.append(f"the closed {o.kind} of {game.board.label(h)} (Firepower 11.1.9)")
        elif not o.span[0] <= head <= o.span[1]:
            reasons.append(f"the {o.kind} of {game.board.label(h)} is {o.span[0]}-{o.span[1]} "
                           f"heights above the floor, not at head height {head} "
                           "(Firepower 8.2.3)")
        else:
            return None
    return reasons[0] if reasons else None


def _ruined(game: Game, h: Hex) -> bool:
    got = _fp(game).get("ruined") or ()
    return bool(got) and game.board.label(h) in got


def _tops(game: Game, a: Hex, b: Hex) -> list[tuple[int, Any]]:
    """The top of every obstacle between ``a`` and ``b`` with what it is (a hex or a walled
    hexside), without naming them (the fast form of :func:`sight_obstacles`)."""
    m = adv_map(game)
    hexes, walls = m.line(a, b)
    cr = _sunk(game)
    out: list[tuple[int, Any]] = []
    gone = _fp(game).get("ruined") or ()
    for h in hexes:
        g = m.ground.get(h, 0) - cr.get(h, 0)
        bd = m.building_of.get(h)
        if bd is not None and gone and game.board.label(h) in gone:
            bd = None  # Firepower 12.3.4.2.7: rubble, no walls to look over
        top = g + (m.buildings[bd].height if bd is not None else m.trees.get(h, 0))
        if h in m.caves:  # Firepower 8.8.7: a hill three heights up for those outside
            from hexwar.plugins.firepower.caves import HILL

            top = max(top, g + HILL)
        out.append((top, h))
    for k in walls:
        base = max(m.ground.get(k[0], 0) - cr.get(k[0], 0),
                   m.ground.get(k[1], 0) - cr.get(k[1], 0))
        out.append((base + m.walls[k], k))
    return out


def blocked_at(game: Game, a: tuple[Hex, int, int], b: tuple[Hex, int, int], *,
               why: bool = True) -> str | None:
    """:func:`blocked_between` for two locations given as (hex, floor, head above the floor):
    what a controller may ask of positions it imagines (``view.rules.terrain_block``)."""
    for (h, f, head), (oh, of, _) in ((a, b), (b, a)):
        wall = wall_block(game, h, f, head, oh, of)
        if wall:
            return wall
    ha = floor_height(game, a[0], a[1]) + a[2]
    hb = floor_height(game, b[0], b[1]) + b[2]
    for top, _what in _tops(game, a[0], b[0]):
        if classify(ha, hb, top) == "blocked":
            if not why:
                return "blocked"
            for ob in sight_obstacles(game, a[0], b[0]):  # name it
                if classify(ha, hb, ob.height) == "blocked":
                    return (f"{ob.kind} at {ob.where}, {ob.height} heights, against heads at "
                            f"{ha} and {hb} ({ob.rule}, Firepower 12.1.1-12.1.2)")
            return f"an obstacle {top} heights high (Firepower 12.1.1-12.1.2)"
    return None


def blocked_between(game: Game, a: Unit, b: Unit) -> str | None:
    """Whether the terrain of the Advanced Game blocks the line of sight between two soldiers,
    and why (None: not blocked, or only the LINE OF SIGHT CHART could say, Firepower 12.1.4).
    A soldier in a tunnel is under the ground: nothing sees him and he sees nothing
    (Firepower 8.8.8)."""
    assert a.hex is not None and b.hex is not None
    if in_tunnel(a) or in_tunnel(b):
        return "a soldier in a tunnel is under the ground (Firepower 8.8.8)"
    return blocked_at(game, (a.hex, floor_of(a), head_above_floor(a)),
                      (b.hex, floor_of(b), head_above_floor(b)))


# ---------------------------------------------------------------------------------------------
# The Advanced line of sight's terrain (advanced_los.los_world and the hook
# ``firepower_los_obstacles``; docs/decisions.md FPD-70)
# ---------------------------------------------------------------------------------------------


def sight_heights(game: Game) -> tuple[Callable[[Hex], int], dict[Hex, int], dict[str, int]]:
    """What the Advanced line of sight reads of this terrain: each hex's ground (Firepower
    8.2.2, less a crater's depth, Firepower 8.7), the trees' heights (Firepower 11.1.11.1), and
    how far each soldier's feet stand above his hex's ground (the stories below his floor,
    Firepower 8.2.3) with an Up soldier's recorded height (Firepower 10.5.1) as the difference
    from his Standing head."""
    m = adv_map(game)
    cr = _sunk(game)
    ground = m.ground

    def ground_at(h: Hex) -> int:
        return ground.get(h, 0) - cr.get(h, 0)

    raised: dict[str, int] = {}
    for uid, u in game.state.units.items():
        if u.hex is None:
            continue
        lift = (floor_of(u) - 1) * m.story(u.hex)
        up = u.state.get("up")
        posture = str(u.state.get("posture", "stand"))
        if isinstance(up, int) and not isinstance(up, bool) and posture != "up":
            lift += up - head_height(posture)  # FPD-63: Standing, his head at ``up``
        if u.hex in m.caves and u.state.get("on_top") and not isinstance(
                u.state.get("stands_at"), int):
            from hexwar.plugins.firepower.caves import HILL

            lift += HILL  # Firepower 8.8.7: on top of the cave, on its hill (FPD-150)
        if lift:
            raised[uid] = lift
    return ground_at, m.trees, raised


def los_obstacles(game: Game, a: Hex, b: Hex, hexes: tuple[Hex, ...],
                  ends: tuple[Soldier | None, Soldier | None]) -> list[LosObstacle]:
    """The Advanced terrain's obstacles on a line of sight from ``a`` to ``b`` (hook
    ``firepower_los_obstacles``):

    * a building between, to the top of its walls (Firepower 8.2.3, flat roofs), judged by the
      heights like a hill; the building of an end hex is left to the next point;
    * a soldier in a building sees out only through an open door or window on his floor at his
      head's height, and inside it only on his floor (Firepower 8.2.3, 11.1.9, 12.1.6;
      :func:`wall_block`): otherwise an absolute block;
    * a free-standing wall on a hexside crossed, to its top (Firepower 12.5);
    * a soldier in a tunnel is under the ground: nothing sees him, he sees nothing (Firepower
      8.8.8)."""
    m = adv_map(game)
    out: list[LosObstacle] = []
    firer, target = ends
    units = game.state.units
    for s in ends:
        if s is None or s.id not in units:
            continue
        u = units[s.id]
        if in_tunnel(u):
            return [LosObstacle(u.hex or a, "a soldier in a tunnel, under the ground", 0,
                                "Firepower 8.8.8", absolute=True)]
    if not m.buildings and not m.walls:
        return out
    cr = _sunk(game)
    own = {m.building_of.get(a), m.building_of.get(b)}
    gone = _fp(game).get("ruined") or ()
    for h in hexes:
        bd = m.building_of.get(h)
        if bd is not None and bd not in own and not (gone and game.board.label(h) in gone):
            out.append(LosObstacle(h, f"building {bd}", m.ground.get(h, 0) - cr.get(h, 0)
                                   + m.buildings[bd].height, "Firepower 8.2.3"))
    for k in m.line(a, b)[1]:
        base = max(m.ground.get(k[0], 0) - cr.get(k[0], 0), m.ground.get(k[1], 0) - cr.get(k[1], 0))
        out.append(LosObstacle(k[0], "wall", base + m.walls[k], "Firepower 12.5"))
    for end, there, s, other in ((a, b, firer, target), (b, a, target, firer)):
        if end not in m.building_of:
            continue
        me = units.get(s.id) if s is not None else None
        them = units.get(other.id) if other is not None else None
        # a hex end with no soldier: a Standing head on the ground floor (FPD-70)
        floor, head = (floor_of(me), head_above_floor(me)) if me is not None else (1, 2)
        why = wall_block(game, end, floor, head, there,
                         floor_of(them) if them is not None else 1)
        if why:  # Firepower 12.1.6: the line of sight inside buildings; ``why`` cites its part
            out.append(LosObstacle(end, why, 0, "Firepower 12.1.6", absolute=True))
    return out
