"""MBT 8.1-8.6, Basic Game movement costs, and the least-cost search over (hex, facing) states
that the Movement Step (:mod:`hexwar.plugins.mbt.movement`) and the AI use.

A state is ``(hex, facing, turned)``: ``turned`` records that the vehicle has already turned in this
hex, because the TURN COSTS (MBT 8.3) price one, two or three hexsides turned in one hex together
("0-1-2" is the cost of the total turned there, not of each hexside). Any facing is one turn of at
most three hexsides away, so one turn per hex is enough and turning twice in a hex is never needed
(docs/decisions.md MBTD-13; bridges MBTD-14, mixed hexes MBTD-6).
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from itertools import pairwise
from typing import Any

from hexwar.core.hexgrid import Hex, opposite, rotate_direction
from hexwar.core.movement import least_cost_path, tree_path
from hexwar.plugins.mbt.cards import Card
from hexwar.plugins.mbt.terrain import MapInfo

State = tuple[Hex, int, bool]
#: the successors of one integer-coded state: (state code, scaled cost) pairs
Steps = tuple[tuple[int, int], ...]
BUILDINGS = frozenset({"brick", "stone"})


@dataclass(frozen=True)
class MoveContext:
    """What a move depends on besides the card and the map."""

    wrecks: frozenset[Hex] = frozenset()  # MBT 8.5.2: wreck markers stop road movement into a hex
    burning: frozenset[Hex] = frozenset()  # MBT 8.4.3: a burning wreck counts as smoke ("+")
    enemies: frozenset[Hex] = frozenset()  # MBT 8.5.2: an enemy combat unit stops road movement
    #: Advanced MBT 12.4: extra MF to enter a hex with a terrain marker (None: prohibited)
    extra: Mapping[Hex, int | None] = field(default_factory=dict)
    #: Advanced MBT 15.6: the turret direction of a vehicle with path restrictions on its long
    #: gun (None: no restriction); the turret does not turn during a move (MBT 9.2)
    turret: int | None = None
    #: Advanced MBT 15.1.4: hexes where a leg unit's move ends when it enters them (ditches)
    halts: frozenset[Hex] = frozenset()


#: Advanced MBT 15.6: the hexes where a long gun is restricted: woods (light or heavy), buildings
LONG_GUN_HEXES = frozenset({"woods", "heavy_woods", "brick", "stone", "wooden"})


def long_gun_barred(info: MapInfo, src: Hex, dst: Hex) -> bool:
    """Advanced MBT 15.6.1-15.6.2: whether a vehicle with path restrictions may cross from ``src``
    into ``dst`` only with its turret to its front or rear: along a path to or from a woods or
    building hex (15.6.1), or into a woods hex other than along a road (15.6.2; the text says
    light woods, and heavy woods are held to the same, MBTD-123)."""
    side = frozenset((src, dst))
    if side in info.path and (LONG_GUN_HEXES & {*info.kinds[src], *info.kinds[dst]}):
        return True
    return side not in info.road and bool({"woods", "heavy_woods"} & set(info.kinds[dst]))


#: Advanced MBT 15.6: the ``[card]`` field a transcriber sets when the card's NOTES put its long
#: main gun under the path restrictions (data/cards/README.md; docs/decisions.md MBTD-184)
PATH_FIELD = "path_restricted"


def path_restricted(card: Card) -> bool:
    """Advanced MBT 15.6: the vehicle card is marked ``path_restricted = true``."""
    return card.kind == "vehicle" and card.records.values.get("card", {}).get(PATH_FIELD) is True


def aligned(turret: int, facing: int) -> bool:
    """Advanced MBT 15.6: the turret faces directly to the vehicle's front or rear."""
    return turret in (facing, opposite(facing))


def enter_cost(card: Card, info: MapInfo, src: Hex, dst: Hex, ctx: MoveContext) -> Fraction | None:
    """Movement factors to move from ``src`` into adjacent ``dst``; ``None`` if prohibited (MBT 8.4.2;
    terrain markers, MBT 12.4)."""
    cost = _enter_cost(card, info, src, dst, ctx)
    if cost is None or dst not in ctx.extra:
        return cost
    more = ctx.extra[dst]
    return None if more is None else cost + more


def _enter_cost(card: Card, info: MapInfo, src: Hex, dst: Hex, ctx: MoveContext) -> Fraction | None:
    board = info.board
    if dst not in board.hexes:
        return None
    dh = abs(info.ground[dst] - info.ground[src])
    feats = board.features_of[dst]
    side = frozenset((src, dst))
    track = side in info.road or side in info.path
    if track and dst not in ctx.wrecks and dst not in ctx.enemies:
        # MBT 8.5: road (or path) cost, ignoring other terrain; heights count one less (MBT 8.5.3);
        # +1 still paid for bridge and building hexes
        cost = card.road if side in info.road else card.path_cost
        if dh > 1:
            hc = _height_cost(card, dh - 1)
            if hc is None:
                return None
            cost += hc
        if "bridge" in feats or board.terrain_of[dst] in BUILDINGS:
            cost += 1
        return cost
    kinds = info.kinds[dst]
    if "bridge" in feats:
        # MBT 8.6: a bridge hex entered other than along the road is the stream (MBT 8.6.2); along the
        # road, when a wreck (MBT 8.6.1) or an enemy unit (MBT 8.5.2) bars the road rate, the bridge is
        # still crossed at the clear cost (plus smoke for a burning wreck, MBT 8.4.3)
        kinds = ("stream",)
        if track:
            kinds = ("clear",)
    costs: list[int] = []
    for k in kinds:
        c = heavy_woods_cost(card) if k == "heavy_woods" else card.move_costs.get(k, 1)
        if c is None:
            return None
        costs.append(c)
    cost = Fraction(max(costs))
    if dh:
        hc = _height_cost(card, dh)
        if hc is None:
            return None
        cost += hc
    if dst in ctx.burning:  # MBT 8.4.3 smoke "+"
        smoke = card.move_costs.get("smoke", 1)
        if smoke is None:
            return None
        cost += smoke
    return cost


def heavy_woods_cost(card: Card) -> int | None:
    """MBT Scenario One A.3: the card's heavy woods cost, else its woods cost plus the stand-in
    extra of ``heavy_woods.csv`` by drive (a leg unit pays its woods cost, MBT 15.1.2)."""
    if "heavy_woods" in card.move_costs:
        return card.move_costs["heavy_woods"]
    woods = card.move_costs.get("woods", 1)
    if woods is None or card.kind == "leg":
        return woods
    from hexwar.plugins.mbt.advanced_tables import load_advanced

    adv = load_advanced()
    extra = adv.heavy_woods["wheeled" if adv.wheeled.get(card.name) else "tracked"]
    return None if extra is None else woods + extra


def _height_cost(card: Card, dh: int) -> int | None:
    if not card.height_costs:
        return dh
    top = max(card.height_costs)
    return card.height_costs.get(min(dh, top))


def scale_of(card: Card) -> int:
    """Costs are searched as integers: MF times the least common multiple of the denominators
    (road 1/3, path 1/2, FM halves: 6 for every stand-in card)."""
    k = 6
    for f in (card.road, card.path_cost, card.mf / 2):
        k = math.lcm(k, f.denominator)
    return k


def successors(card: Card, info: MapInfo, ctx: MoveContext,
               *, allow_reverse: bool = True) -> Callable[[State], Iterable[tuple[State, Fraction]]]:
    """Successor states with exact (Fraction) costs (the reference form; the search uses
    :func:`int_successors` over integer-coded states)."""
    k = scale_of(card)
    fast = int_successors(card, info, ctx, allow_reverse=allow_reverse)
    index = _index(info)

    def succ(state: State) -> list[tuple[State, Fraction]]:
        h, f, t = state
        return [(decode(info, st), Fraction(c, k)) for st, c in fast(encode(index, h, f, t))]

    return succ


@dataclass(frozen=True)
class MoveIndex:
    """A board's hexes as integers for the search: the index of each hex, the hexes in index
    order, and each hex's neighbours by direction 1-6 (-1 off the board)."""

    index: dict[Hex, int]
    hexes: list[Hex]
    nbr: list[tuple[int, ...]]
    #: (hex, facing) of each state code halved (the "turned" bit dropped), for reading a search
    keys: list[tuple[Hex, int]] = field(default_factory=list)


def move_index(info: MapInfo) -> MoveIndex:
    """The board's :class:`MoveIndex`, built once per :class:`MapInfo` (``info.moves``)."""
    got: MoveIndex | None = info.moves
    if got is None:
        hexes = sorted(info.board.hexes, key=lambda h: (h.q, h.r))
        idx = {h: i for i, h in enumerate(hexes)}
        got = info.moves = MoveIndex(
            idx, hexes, [tuple(idx.get(h.neighbor(d), -1) for d in range(1, 7)) for h in hexes],
            [(h, f) for h in hexes for f in range(1, 7)])
    return got


def _index(info: MapInfo) -> dict[Hex, int]:
    return move_index(info).index


def encode(index: dict[Hex, int], h: Hex, facing: int, turned: bool) -> int:
    """A search state as one int: (hex index, facing 1-6, turned in this hex)."""
    return (index[h] * 6 + facing - 1) * 2 + int(turned)


def decode(info: MapInfo, code: int) -> State:
    hexes = move_index(info).hexes
    rest, t = divmod(code, 2)
    i, f = divmod(rest, 6)
    return hexes[i], f + 1, bool(t)


def _static_costs(card: Card, info: MapInfo) -> dict[tuple[int, int], int | None]:
    """Per card and board: entry costs with no wreck, smoke or enemy about (scaled ints)."""
    per = info.move_costs
    key = f"{card.name}|{card.records.path}"
    table = per.get(key)
    if table is None:
        table = per[key] = {}
    return table


class _Succ(dict[int, Steps]):
    """Successor lists by integer-coded state, filled on first use by ``fill`` (a miss); a
    search then reads them with the C-level ``__getitem__``."""

    __slots__ = ("fill",)

    def __init__(self, fill: Callable[[int], Steps],
                 seed: Mapping[int, Steps] | None = None) -> None:
        super().__init__(seed or {})
        self.fill = fill

    def __missing__(self, code: int) -> Steps:
        got = self[code] = self.fill(code)
        return got


def int_successors(card: Card, info: MapInfo, ctx: MoveContext,
                   *, allow_reverse: bool = True) -> Callable[[int], Steps]:
    """The search's successor function over integer-coded states (:func:`encode`); costs in units
    of 1/``scale_of(card)`` MF.

    A state's successors depend only on the card, the board, ``allow_reverse``, the turret (MBT
    15.6) and, through the entry costs, on the context's wrecks, smoke, enemies and markers in
    the hex ahead or behind. The lists of states with no such hex next to them are kept on the
    board's facts for later searches (``info.move_succ``, docs/decisions.md MBTD-186); the others
    are worked out for this search alone."""
    turret = ctx.turret
    key = f"{card.name}|{card.records.path}|{int(allow_reverse)}|{turret}"
    shared = info.move_succ.get(key)
    if shared is None:
        shared = info.move_succ[key] = _Succ(
            _successor_lists(card, info, MoveContext(turret=turret), allow_reverse))
    mi = move_index(info)
    index, nbr = mi.index, mi.nbr
    special = {index[h] for h in (*ctx.wrecks, *ctx.burning, *ctx.enemies, *ctx.extra)
               if h in index}
    if not special:
        return shared.__getitem__
    # the hexes next to a wreck, smoke, enemy or marker: their lists are this search's own
    near = {i for j in special for i in nbr[j] if i >= 0}
    own = _successor_lists(card, info, ctx, allow_reverse)

    def fill(code: int) -> Steps:
        return own(code) if code // 12 in near else shared[code]

    mine = _Succ(fill, shared)
    for i in near:
        for code in range(i * 12, i * 12 + 12):
            mine.pop(code, None)
    return mine.__getitem__


def _successor_lists(card: Card, info: MapInfo, ctx: MoveContext,
                     allow_reverse: bool) -> Callable[[int], Steps]:
    """The successors of one integer-coded state under ``ctx`` (MBT 8.1-8.5; Advanced MBT 12.4,
    15.6), worked out afresh."""
    k = scale_of(card)
    tc = [int(c * k) for c in card.turn_costs]
    mi = move_index(info)
    index, hexes, nbr = mi.index, mi.hexes, mi.nbr
    static = _static_costs(card, info)
    empty = MoveContext()
    special = {index[h] for h in (*ctx.wrecks, *ctx.burning, *ctx.enemies, *ctx.extra)
               if h in index}
    dynamic: dict[tuple[int, int], int | None] = {}
    turns: list[tuple[int, int]] = []  # (rotation in hexsides, cost)
    for n_sides in (1, 2, 3):
        if n_sides > len(tc):
            break
        for sign in ((1, -1) if n_sides < 3 else (1,)):
            turns.append((sign * n_sides, tc[n_sides - 1]))

    if any(c < 0 for c in tc):
        raise ValueError(f"negative turn cost on card {card.name!r}: {card.turn_costs}")

    def cost(i: int, j: int) -> int | None:
        if j < 0:
            return None
        key = (i, j)
        table = dynamic if j in special else static
        if key not in table:
            c = enter_cost(card, info, hexes[i], hexes[j], ctx if j in special else empty)
            if c is not None and c < 0:  # int_tree() takes every step cost as >= 0
                raise ValueError(f"negative step cost {c!r} from {hexes[i]!r} to {hexes[j]!r}")
            table[key] = None if c is None else int(c * k)
        return table[key]

    turret = ctx.turret
    barred_memo: dict[tuple[int, int], bool] = {}

    def barred(i: int, j: int, f0: int) -> bool:
        # Advanced MBT 15.6.1-15.6.2: a long gun to the side may not cross this hexside
        if turret is None or j < 0 or aligned(turret, f0 + 1):
            return False
        key = (i, j)
        got = barred_memo.get(key)
        if got is None:
            got = barred_memo[key] = long_gun_barred(info, hexes[i], hexes[j])
        return got

    def succ(code: int) -> Steps:
        rest, turned = divmod(code, 2)
        i, f0 = divmod(rest, 6)  # f0 = facing - 1
        out: list[tuple[int, int]] = []
        c = None if barred(i, nbr[i][f0], f0) else cost(i, nbr[i][f0])
        if c is not None:
            out.append(((nbr[i][f0] * 6 + f0) * 2, c))
        if allow_reverse:  # MBT 8.1.3: reverse, facing kept, twice the cost
            back = nbr[i][(f0 + 3) % 6]
            c = None if barred(i, back, f0) else cost(i, back)
            if c is not None:
                out.append(((back * 6 + f0) * 2, 2 * c))
        if not turned:  # MBT 8.3
            for rot, tcost in turns:
                out.append(((i * 6 + (f0 + rot) % 6) * 2 + 1, tcost))
        # a tuple of tuples of ints: the collector stops tracking it, so a game's 20,000
        # kept lists do not count towards a full collection (MBTD-192)
        return tuple(out)

    return succ


def int_tree(start: int, limit: int, succ: Callable[[int], Iterable[tuple[int, int]]]
             ) -> tuple[dict[int, int], dict[int, int], dict[int, int]]:
    """:func:`hexwar.core.movement.reachable_tree` for integer step costs of at least 0 (the
    search's scaled MF, MBT 8.1-8.5), with one list of states per cost instead of a heap
    (docs/decisions.md MBTD-192).

    The heap settles its entries by (cost, push counter); here the list of each cost is read in
    push order, the costs in increasing order, and a step of cost 0 appends to the list being
    read, after every entry already in it, as its counter would place it. So the states settle
    in the same order with the same parents, and the three dicts are equal to the heap's, keys in
    the same order."""
    best: dict[int, int] = {start: 0}
    parent: dict[int, int] = {}
    order: dict[int, int] = {}
    if limit < 0:  # MF overspent (MBT 8.4.4's one hex whatever it costs): the start alone, as
        return best, parent, {start: 0}  # the heap settles it before any step is weighed
    lists: list[list[int]] = [[] for _ in range(limit + 1)]
    lists[0].append(start)
    get = best.get
    for c, states in enumerate(lists):
        for state in states:  # a list read while it grows: 0-cost steps join the end
            if state in order:
                continue  # a dearer entry of a state settled already
            order[state] = len(order)
            for nxt, step in succ(state):
                nc = c + step
                if nc > limit:
                    continue
                old = get(nxt)
                if old is None or nc < old:
                    best[nxt] = nc
                    parent[nxt] = state
                    lists[nc].append(nxt)
    return best, parent, order


def reach(card: Card, info: MapInfo, start: State, budget: Fraction, ctx: MoveContext,
          *, first_hex_rule: bool = False) -> dict[tuple[Hex, int], Fraction]:
    """Every (hex, facing) reachable for at most ``budget`` MF, with its least cost.

    ``first_hex_rule`` applies MBT 8.4.4: a unit with M (or OR) orders that has spent nothing on
    turns may always enter one new hex, whatever it costs (forward or in reverse).
    """
    k = scale_of(card)
    index = _index(info)
    code, limit = encode(index, *start), math.floor(budget * k)
    tree = int_tree(code, limit, int_successors(card, info, ctx))
    _LAST_SEARCH[:] = [(card, info, code, limit, ctx), tree]  # for plan() of a listed move
    found = tree[0]
    least: dict[tuple[Hex, int], int] = {}  # in scaled ints: one Fraction per (hex, facing)
    keys = move_index(info).keys
    get = least.get
    for code, cost in found.items():
        key = keys[code >> 1]  # decode() without the "turned" bit
        c = int(cost)
        if c < get(key, c + 1):
            least[key] = c
    fr = _fractions(k)
    out: dict[tuple[Hex, int], Fraction] = {key: fr(c) for key, c in least.items()}
    if first_hex_rule:
        for (nh, g), c2 in first_hex_entries(card, info, start, ctx).items():
            if (nh, g) not in out:
                out[(nh, g)] = c2
    return out


@functools.cache
def _fractions(k: int) -> Callable[[int], Fraction]:
    """``c -> Fraction(c, k)``, memoised: a search's costs are a few hundred small integers and
    a Fraction is immutable, so the same object may serve every search (bounded by the MF on
    the cards: at most ``k`` times the largest allowance, docs/decisions.md MBTD-187)."""
    return functools.lru_cache(maxsize=4096)(lambda c: Fraction(c, k))


#: the last search of :func:`reach`: [(card, map, start code, scaled budget, context), its
#: tree]; one search, so bounded (docs/decisions.md CORE-131)
_LAST_SEARCH: list[Any] = []


def _same_search(a: tuple[Any, ...], b: tuple[Any, ...]) -> bool:
    """Whether two searches are the same: the same card and map objects, start, budget and an
    equal context (its wrecks, smoke, enemies and markers)."""
    return a[0] is b[0] and a[1] is b[1] and a[2] == b[2] and a[3] == b[3] and a[4] == b[4]


def first_hex_entries(card: Card, info: MapInfo, start: State,
                      ctx: MoveContext) -> dict[tuple[Hex, int], Fraction]:
    """MBT 8.4.4: hexes enterable from the start with no MF spent on turns (a free turn is fine)."""
    h, f, turned = start
    facings = {f}
    if not turned:
        for k, c in enumerate(card.turn_costs, start=1):
            if c == 0:
                facings |= {rotate_direction(f, k), rotate_direction(f, -k)}
    out: dict[tuple[Hex, int], Fraction] = {}
    for g in sorted(facings):
        for dst, mult in ((h.neighbor(g), 1), (h.neighbor(opposite(g)), 2)):
            if (ctx.turret is not None and not aligned(ctx.turret, g) and dst in info.kinds
                    and long_gun_barred(info, h, dst)):
                continue  # Advanced MBT 15.6.1-15.6.2
            ec = enter_cost(card, info, h, dst, ctx)
            if ec is not None:
                out[(dst, g)] = ec * mult
    return out


def plan(card: Card, info: MapInfo, start: State, goal: tuple[Hex, int], budget: Fraction,
         ctx: MoveContext, *, first_hex_rule: bool = False) -> list[tuple[State, Fraction]] | None:
    """The cheapest sequence of states from ``start`` to ``goal`` (hex, facing) with step costs
    (MBT 8.1-8.5; MBT 8.4.4 with ``first_hex_rule``)."""
    k = scale_of(card)
    index = _index(info)
    fast = int_successors(card, info, ctx)
    gh, gf = goal
    if gh not in index:
        return None
    targets = {encode(index, gh, gf, False), encode(index, gh, gf, True)}
    code, limit = encode(index, *start), math.floor(budget * k)
    if _LAST_SEARCH and _same_search(_LAST_SEARCH[0], (card, info, code, limit, ctx)):
        # the move chosen from the destinations reach() just listed: the path is in its tree
        path = tree_path(_LAST_SEARCH[1], targets)
    else:
        path = least_cost_path(code, targets.__contains__, fast, budget=limit)
    if path is not None:
        states = [decode(info, c) for c in path.states]
        return _with_costs(states, successors(card, info, ctx))
    if first_hex_rule:
        entries = first_hex_entries(card, info, start, ctx)
        if goal in entries:
            h, f, _ = start
            steps: list[tuple[State, Fraction]] = [(start, Fraction(0))]
            if goal[1] != f:
                steps.append(((h, goal[1], True), Fraction(0)))
            steps.append(((goal[0], goal[1], False), entries[goal]))
            return steps
    return None


def _with_costs(states: list[State],
                succ: Callable[[State], Iterable[tuple[State, Fraction]]]) -> list[tuple[State, Fraction]]:
    out: list[tuple[State, Fraction]] = [(states[0], Fraction(0))]
    for a, b in pairwise(states):
        step = min(c for s, c in succ(a) if s == b)
        out.append((b, step))
    return out


#: MBT 15.1.2: a leg unit's move so far this Turn: nothing entered yet, level hexes only, or a
#: hex of another height entered (after which it enters no other)
LEG_FRESH, LEG_LEVEL, LEG_CHANGED = 0, 1, 2


def leg_phase(info: MapInfo, hexes: list[Hex]) -> int:
    """MBT 15.1.2: where a leg unit stands in its one-hex height rule, from the hexes it has
    occupied this Turn in order (its start hex first, its present hex last)."""
    if len(hexes) < 2:
        return LEG_FRESH
    if any(info.ground[a] != info.ground[b] for a, b in pairwise(hexes)):
        return LEG_CHANGED
    return LEG_LEVEL


def leg_paths(card: Card, info: MapInfo, start: Hex, budget: Fraction, ctx: MoveContext,
              *, phase: int = LEG_FRESH, first_hex_rule: bool = False
              ) -> dict[Hex, tuple[Fraction, tuple[Hex, ...]]]:
    """MBT 15.1.2-15.1.3: the hexes a leg unit can reach and the cheapest legal way there.

    Each hex costs what the card says (one MF, markers added, MBT 12.4); turns are free. A move
    that changes height enters one hex only: a hex of another height is entered only as the first
    hex of the Turn, and nothing after it (docs/decisions.md MBTD-122); a hexside of more than two
    heights is never crossed (the card's height costs say "P" for 3). MBT 8.4.4 with
    ``first_hex_rule``: the first hex may be entered whatever it costs."""
    best: dict[tuple[Hex, int], Fraction] = {(start, phase): Fraction(0)}
    paths: dict[tuple[Hex, int], tuple[Hex, ...]] = {(start, phase): ()}
    frontier: list[tuple[Hex, int]] = [(start, phase)]
    while frontier:
        frontier.sort(key=lambda s: (best[s], s[0].q, s[0].r, s[1]))
        h, p = frontier.pop(0)
        if p == LEG_CHANGED:
            continue
        for d in range(1, 7):
            n = h.neighbor(d)
            c = enter_cost(card, info, h, n, ctx)
            if c is None:
                continue
            changes = info.ground[n] != info.ground[h]
            if changes and p != LEG_FRESH:
                continue  # MBT 15.1.2: a height change only as the Turn's one new hex
            total = best[(h, p)] + c
            if total > budget and not (first_hex_rule and p == LEG_FRESH and h == start):
                continue
            # MBT 15.1.4: a leg unit that enters a ditch stays there, as after a height change
            key = (n, LEG_CHANGED if changes or n in ctx.halts else LEG_LEVEL)
            if key in best and best[key] <= total:
                continue
            best[key], paths[key] = total, (*paths[(h, p)], n)
            if key not in frontier:
                frontier.append(key)
    out: dict[Hex, tuple[Fraction, tuple[Hex, ...]]] = {}
    for (h, _p), c in best.items():
        if h != start and (h not in out or c < out[h][0]):
            out[h] = (c, paths[(h, _p)])
    return out


def leg_reach(card: Card, info: MapInfo, start: State, budget: Fraction, ctx: MoveContext,
              *, phase: int = LEG_FRESH, first_hex_rule: bool = False
              ) -> dict[tuple[Hex, int], Fraction]:
    """:func:`reach` for a leg unit (MBT 15.1.2-15.1.3): every reachable hex in any facing, and
    its own hex in every facing for nothing."""
    h0 = start[0]
    out = {(h0, f): Fraction(0) for f in range(1, 7)}
    for h, (c, _p) in leg_paths(card, info, h0, budget, ctx, phase=phase,
                                first_hex_rule=first_hex_rule).items():
        for f in range(1, 7):
            out[(h, f)] = c
    return out


def leg_plan(card: Card, info: MapInfo, start: State, goal: tuple[Hex, int], budget: Fraction,
             ctx: MoveContext, *, phase: int = LEG_FRESH, first_hex_rule: bool = False
             ) -> list[tuple[State, Fraction]] | None:
    """:func:`plan` for a leg unit: it faces each hex it walks into (a free turn, MBT 15.1.3) and
    turns to the goal's facing at the end."""
    h0, f0, _t = start
    gh, gf = goal
    steps: list[tuple[State, Fraction]] = [(start, Fraction(0))]
    if gh != h0:
        found = leg_paths(card, info, h0, budget, ctx, phase=phase,
                          first_hex_rule=first_hex_rule).get(gh)
        if found is None:
            return None
        prev, facing = h0, f0
        for n in found[1]:
            facing = prev.direction_to(n) or facing
            cost = enter_cost(card, info, prev, n, ctx)
            assert cost is not None
            steps.append(((n, facing, False), cost))
            prev = n
    last = steps[-1][0]
    if last[1] != gf:
        steps.append(((gh, gf, True), Fraction(0)))
    return steps
