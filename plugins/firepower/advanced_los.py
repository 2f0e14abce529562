"""The Advanced Game's line of sight by heights (Firepower 8.2.2, Firepower 10.5.2, Firepower 12.1),
used in play by the Advanced fire procedure (:mod:`~hexwar.plugins.firepower.advanced_fire`), the
controllers' checks and ``hexwar los`` (:class:`AdvancedLos`).

* :func:`terrain_height`: a hill's height is its contour levels times the heights per level the
  scenario gives (Firepower 8.2.2); a depression is negative;
* :func:`unit_height`: the ground plus the posture's head height (Firepower 10.5.2);
* :func:`classify`: one obstacle between firer and target (Firepower 12.1.1-12.1.3): blocked, clear,
  or ``check``, for which Firepower 12.1.4 reads the LINE OF SIGHT CHART (not in the text, not
  built);
* :func:`chart_columns`: the chart's two column numbers a ``check`` reads (Firepower 12.1.4.1,
  Firepower 12.1.4.2).

* :func:`line_of_sight`: a whole line in play: every obstacle between the two sighting dots
  (hills through the hex or hexside, tree tops, fence and hedge pictures, friendly soldiers' heads,
  smoke, and whatever a rule adds through the ``firepower_los_obstacles`` hook) judged by
  12.1.1-12.1.4 with the LINE OF SIGHT CHART; trees, hedges and smoke that "block" hinder instead
  (Firepower 12.2.6, Firepower 12.2.7). Each obstacle's verdict is kept (:class:`LosStep`) so a
  player can read the line hex by hex.

Extension (vehicles, Option 19): a rule returns :class:`Obstacle` records from the hook
``firepower_los_obstacles(game, a, b, hexes, ends)``: an obstacle with a ``height`` is judged by the
chart like a hill; one with ``absolute`` set (a wall without an opening, a floor between storeys)
blocks whatever the heights (docs/decisions.md FPD-54). The Advanced terrain
(:mod:`~hexwar.plugins.firepower.advanced_terrain`) is wired so: its buildings, free-standing walls,
walls and floors at the ends and tunnels come through the hook; its ground, tree heights and the
soldiers' floors through :func:`los_world` (docs/decisions.md FPD-70).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

from hexwar.core.hexgrid import Hex
from hexwar.core.kit import StashKey
from hexwar.core.los import BaseLosRules, HexsidePolicy, LosContext, LosEffect, VertexPolicy
from hexwar.plugins.firepower.advanced_card import AdvancedCard, ChartLine, advanced_card
from hexwar.plugins.firepower.squads import head_height
from hexwar.plugins.firepower.terrain import FpMap, intervening

if TYPE_CHECKING:
    from hexwar.core.board import Board
    from hexwar.core.engine.game import Game
    from hexwar.plugins.firepower.soldiers import Soldier

Verdict = Literal["blocked", "clear", "check"]


def terrain_height(levels: int, heights_per_level: int) -> int:
    """Firepower 8.2.2: each contour level adds the hill's heights (hill B of two levels of
    three heights is six high); a depression's levels are negative."""
    return levels * heights_per_level


def unit_height(ground: int, posture: str, up: int | None = None) -> int:
    """Firepower 10.5.2, Firepower 12.1.4.4: the height of a soldier's head, ground included."""
    return ground + head_height(posture, up)


def classify(firer: int, target: int, obstacle: int) -> Verdict:
    """Firepower 12.1.1-12.1.3: an obstacle higher than both blocks; equal to one and higher
    than the other blocks; lower than both or equal to both does not; higher than one but lower
    than the other needs the LINE OF SIGHT CHART (Firepower 12.1.4)."""
    lo, hi = sorted((firer, target))
    if obstacle > hi:
        return "blocked"  # Firepower 12.1.1
    if obstacle == hi and obstacle > lo:
        return "blocked"  # Firepower 12.1.2
    if obstacle <= lo:
        # Firepower 12.1.3; equal to the lower end only is read as clear too (docs/decisions.md
        # FPD-46)
        return "clear"
    return "check"        # Firepower 12.1.4


def chart_columns(firer: int, target: int, obstacle: int) -> tuple[int, int]:
    """Firepower 12.1.4.1, 12.1.4.2: the column of the ends' height difference (to find the line
    by range) and the column of the obstacle's difference from the higher end."""
    hi = max(firer, target)
    return abs(firer - target), hi - obstacle


# ---------------------------------------------------------------------------------------------
# The line in play
# ---------------------------------------------------------------------------------------------

#: ammunition whose line of sight runs to the target unit's head; the others run to the highest
#: height in the target hex (Firepower 12.1)
TO_UNIT = frozenset("ACHLS")
#: smoke reaches five heights above its impact height (Firepower 12.3.7)
SMOKE_HEIGHT = 5


@dataclass(frozen=True)
class Obstacle:
    """Something between the sighting dots with a height (Firepower 12.1.1). ``hinder`` > 0:
    a tree, hedge or smoke that adds that modifier when it would block (Firepower 12.2.6,
    Firepower 12.2.7); ``absolute``: blocks whatever the heights (a wall without an opening,
    a floor between storeys, Firepower 12.1.6); ``bottom``: a slab filling only the heights
    from ``bottom`` up to ``height`` (a bridge's deck, Firepower 8.9), which blocks only a line
    passing through it (docs/decisions.md FPD-124)."""

    hex: Hex
    kind: str
    height: int
    rule: str
    hinder: int = 0
    absolute: bool = False
    smoke_source: str = ""
    bottom: int | None = None


@dataclass(frozen=True)
class LosStep:
    """One obstacle's verdict on the line (for the explanation hex by hex)."""

    obstacle: Obstacle
    label: str
    distance: int            # from the higher end (Firepower 12.1.4.2)
    verdict: str             # blocked, clear, hinders
    rule: str
    chart: ChartLine | None = None

    def describe(self, ends: tuple[int, int], with_rule: bool = True,
                 with_label: bool = True) -> str:
        o = self.obstacle
        where = f"{self.label}: " if with_label else ""
        text = f"{where}{o.kind} at height {o.height} (firer {ends[0]}, target {ends[1]})"
        if o.bottom is not None:
            text = (f"{where}{o.kind} from height {o.bottom} to {o.height} (firer {ends[0]}, "
                    f"target {ends[1]})")
        if o.absolute:
            text = f"{where}{o.kind}"
        if self.chart is not None:
            c = self.chart
            text += (f"; LOS chart column {c.difference}, line {c.line}, column "
                     f"{c.obstacle_column}: at most {c.max_distance} hexes from the higher end, "
                     f"it is {self.distance}")
        return f"{text}: {self.verdict}" + (f" ({self.rule})" if with_rule else "")


@dataclass(frozen=True)
class AdvancedLosResult:
    """A line of sight of the Advanced Game: blocked (with rule and reason) or clear, the two
    heights, and what hinders it: tree and hedge hexes (+1 each, Firepower 12.2.6) and smoke hexes
    (+3 or +2, Firepower 12.2.7)."""

    blocked: bool
    firer_height: int
    target_height: int
    range: int
    steps: tuple[LosStep, ...] = ()
    rule: str = ""
    reason: str = ""
    trees: int = 0
    hedges: int = 0
    smoke: tuple[int, ...] = ()
    tree_hexes: tuple[Hex, ...] = ()

    def explain(self) -> list[str]:
        ends = (self.firer_height, self.target_height)
        return [s.describe(ends) for s in self.steps]


@dataclass
class LosWorld:
    """What an Advanced line of sight reads besides the two ends: the terrain, its heights
    (Firepower 8.2.2: contour levels times the scenario's heights per level), tree, hedge and
    fence heights (scenario values, Firepower 12.5), the smoke on the board and the obstacles
    other rules add (hook ``firepower_los_obstacles``)."""

    map: FpMap
    heights_per_level: int = 3
    tree_height: int = 6
    hedge_height: int = 2
    fence_height: int = 1
    #: hex -> (smoke source letter F/M/W, impact height)
    smoke: Mapping[Hex, tuple[str, int]] = field(default_factory=dict)
    #: the obstacles other rules add, from the two ends' hexes, the hexes between and the
    #: two end soldiers (firer, target; None where a hex is the end)
    extra: Callable[[Hex, Hex, tuple[Hex, ...], tuple[Soldier | None, Soldier | None]],
                    Sequence[Obstacle]] | None = None
    card: AdvancedCard = field(default_factory=advanced_card)
    #: soldier id -> heights his feet stand above (below, if negative) his hex's ground: a
    #: building's floor, a foxhole's depth (``state.stands_at``, set by the rules that own them;
    #: docs/decisions.md FPD-54)
    raised: Mapping[str, int] = field(default_factory=dict)
    #: with the Advanced terrain (Firepower 8.2): the terrain side's ground height of a hex
    #: (its heights per level, less a crater's depth, Firepower 8.7) and its trees' heights
    #: (Firepower 11.1.11.1), so both sides read one ground (docs/decisions.md FPD-70)
    ground_at: Callable[[Hex], int] | None = None
    tree_heights: Mapping[Hex, int] | None = None
    #: fence pictures with their own height: roadblocks (Firepower 8.8.5.4, docs/decisions.md
    #: FPD-115); every other fence is ``fence_height`` high
    fence_heights: Mapping[Hex, int] = field(default_factory=dict)

    def fence_top(self, h: Hex) -> int:
        """The height of the fence picture in ``h`` above its ground."""
        return self.fence_heights.get(h, self.fence_height) if self.fence_heights \
            else self.fence_height

    def base(self, s: Soldier) -> int:
        """The height a soldier stands at: his hex's ground plus what raises or sinks him."""
        return self.ground(s.hex) + self.raised.get(s.id, 0)

    def ground(self, h: Hex) -> int:
        """Firepower 8.2.2: a hex's ground height."""
        if self.ground_at is not None:
            return self.ground_at(h)
        return terrain_height(int(self.map.height.get(h, 0.0)), self.heights_per_level)

    def tree(self, h: Hex) -> int:
        """The height of the tree in a tree hex (a destroyed one is no longer a tree hex)."""
        if self.tree_heights is not None:
            return self.tree_heights.get(h, self.tree_height)
        return self.tree_height

    def top(self, h: Hex) -> int:
        """The highest height of the terrain in ``h`` (the tree top, a hedge or fence picture)."""
        g = self.ground(h)
        tops = [g]
        if self.map.cover.get(h) == "tree":
            tops.append(g + self.tree(h))
        if h in self.map.hedge:
            tops.append(g + self.hedge_height)
        if h in self.map.fence:
            tops.append(g + self.fence_top(h))
        return max(tops)


def soldier_height(world: LosWorld, s: Soldier, up: int | None = None) -> int:
    """Firepower 10.5.2: the soldier's head, his hex's ground (and floor) included."""
    return unit_height(world.base(s), s.posture, up)


def target_height(world: LosWorld, ammo: str, target_hex: Hex, target: Soldier | None,
                  occupants: Iterable[Soldier] = ()) -> int:
    """Firepower 12.1: A, C, H, L fire (and sighting) looks at the target unit's head; F, G, M,
    U and W fire at the highest height in the target hex: its terrain's top or the highest head
    there (docs/decisions.md FPD-55)."""
    if ammo in TO_UNIT and target is not None:
        return soldier_height(world, target)
    heads = [soldier_height(world, s) for s in occupants if s.hex == target_hex]
    return max([world.top(target_hex), *heads])


def obstacles(world: LosWorld, a: Hex, b: Hex, *, firer: Soldier | None = None,
              target: Soldier | None = None,
              friendly: Mapping[Hex, int] | None = None) -> list[Obstacle]:
    """Everything with a height between the sighting dots of ``a`` and ``b`` (Firepower 12.1.1,
    Firepower 12.1.5): hills through the hex or hexside (the ground of every hex the line passes
    through or along), tree tops through the hex, fence and hedge pictures only where the line
    crosses them, friendly soldiers' heads (Firepower 12.1.4.3), smoke up to five heights, and the
    extra obstacles of other rules. A picture in an end hex counts when it lies between the two
    ends (the soldier is on its far side)."""
    m = world.map
    hexes = intervening(a, b)
    out: list[Obstacle] = []
    for h in hexes:
        g = world.ground(h)
        out.append(Obstacle(h, "ground" if g <= 0 else "hill", g, "Firepower 12.1.5"))
        if h in world.smoke:
            src, base = world.smoke[h]
            hinder = world.card.mod("per_smoke_w" if src == "W" else "per_smoke_fm")
            out.append(Obstacle(h, f"smoke ({src})", base + SMOKE_HEIGHT, "Firepower 12.2.7",
                                hinder=hinder, smoke_source=src))
            continue  # Firepower 12.2.7: a tree or hedge in a smoke hex is ignored
        if m.cover.get(h) == "tree":
            out.append(Obstacle(h, "tree", g + world.tree(h), "Firepower 12.2.6", hinder=1))
        hedge = m.hedge.get(h)
        if hedge is not None and hedge.crossed_by(a, b):
            out.append(Obstacle(h, "hedge", g + world.hedge_height, "Firepower 12.2.6",
                                hinder=1))
        fence = m.fence.get(h)
        if fence is not None and fence.crossed_by(a, b):
            out.append(Obstacle(h, "fence", g + world.fence_top(h), "Firepower 12.1.5"))
        if friendly and h in friendly:
            out.append(Obstacle(h, "friendly soldiers", friendly[h], "Firepower 12.1.4.3"))
    for end, other, s in ((a, b, firer), (b, a, target)):
        fence = m.fence.get(end)
        if fence is not None and s is not None and fence.between(s.fence_side, other):
            out.append(Obstacle(end, "fence", world.ground(end) + world.fence_top(end),
                                "Firepower 12.1.5"))
    if world.extra is not None:
        out.extend(world.extra(a, b, hexes, (firer, target)))
    return out


def judge(world: LosWorld, a: Hex, b: Hex, fh: int, th: int, o: Obstacle) -> LosStep:
    """One obstacle by Firepower 12.1.1-12.1.4 (the chart's check at its distance from the
    higher end); an absolute obstacle blocks (Firepower 12.1.6)."""
    label = world.map.label(o.hex)
    higher = a if fh >= th else b
    dist = higher.distance(o.hex)
    if o.absolute:
        return LosStep(o, label, dist, "blocked", o.rule)
    if o.bottom is not None:  # a slab with a gap under it: where the line passes (FPD-124)
        from hexwar.plugins.firepower.bridges import slab_blocks

        hit = slab_blocks(fh, th, a.distance(b), a.distance(o.hex), o.bottom, o.height)
        return LosStep(o, label, dist, "blocked" if hit else "clear", o.rule)
    verdict = classify(fh, th, o.height)
    chart = None
    if verdict == "check":
        lo, hi = sorted((fh, th))
        chart = world.card.los_check(hi - lo, a.distance(b), hi - o.height)
        verdict = "blocked" if dist > chart.max_distance else "clear"
        rule = "Firepower 12.1.4"
    else:
        rule = {"blocked": "Firepower 12.1.1" if o.height > max(fh, th) else "Firepower 12.1.2",
                "clear": "Firepower 12.1.3"}[verdict]
    if verdict == "blocked" and o.hinder:
        return LosStep(o, label, dist, f"hinders +{o.hinder}", o.rule, chart)
    return LosStep(o, label, dist, verdict, rule, chart)


def line_of_sight(world: LosWorld, a: Hex, b: Hex, fh: int, th: int, *,
                  firer: Soldier | None = None, target: Soldier | None = None,
                  friendly: Mapping[Hex, int] | None = None,
                  exhaustive: bool = True) -> AdvancedLosResult:
    """The Advanced line of sight from a firer whose head is at ``fh`` in ``a`` to height ``th``
    in ``b`` (Firepower 12.1). Firing into or out of a smoke hex counts that smoke too
    (Firepower 12.2.7)."""
    rng = a.distance(b)
    steps: list[LosStep] = []
    blocked: LosStep | None = None
    trees = hedges = 0
    smoke: list[int] = []
    tree_hexes: list[Hex] = []
    for o in obstacles(world, a, b, firer=firer, target=target, friendly=friendly):
        if o.kind == "ground" and o.height < min(fh, th):
            continue  # level ground below both ends says nothing worth reading
        step = judge(world, a, b, fh, th, o)
        steps.append(step)
        if step.verdict == "blocked" and blocked is None:
            blocked = step
            if not exhaustive:
                break
        elif step.verdict.startswith("hinders"):
            if o.kind == "tree":
                trees += 1
                tree_hexes.append(o.hex)
            elif o.kind == "hedge":
                hedges += 1
            elif o.smoke_source:
                smoke.append(o.hinder)
    for end in (a, b):  # Firepower 12.2.7: firing into or from a smoke hex
        if end in world.smoke and rng:
            src = world.smoke[end][0]
            smoke.append(world.card.mod("per_smoke_w" if src == "W" else "per_smoke_fm"))
    if blocked is not None:
        return AdvancedLosResult(True, fh, th, rng, tuple(steps), blocked.rule,
                                 blocked.describe((fh, th)))
    return AdvancedLosResult(False, fh, th, rng, tuple(steps), trees=trees, hedges=hedges,
                             smoke=tuple(smoke), tree_hexes=tuple(tree_hexes))


# ---------------------------------------------------------------------------------------------
# The game's world, and the core LosRules (``hexwar los``)
# ---------------------------------------------------------------------------------------------


def scenario_int(game: Game, key: str, default: int) -> int:
    """A number from the scenario's ``[special]`` table (heights per level, tree height...)."""
    v = (game.scenario.raw.get("special") or {}).get(key, default)
    return int(v) if isinstance(v, (int, float)) and not isinstance(v, bool) else default


#: the game's last derived map of destroyed terrain, with the state of ruin and the map it was
#: derived from; kept with the game (a module-level table kept every game's maps alive)
_RUINED = StashKey[tuple[tuple[tuple[str, str], ...], FpMap, FpMap]]("firepower.ruined-map")
#: the game's last derived map with the roadblocks' pictures (FPD-115), likewise
_BLOCKED = StashKey[tuple[tuple[tuple[str, int, int], ...], FpMap, FpMap]]("firepower.blocked-map")


def los_world(game: Game) -> LosWorld:
    """The game's :class:`LosWorld`: the scenario's heights (docs/decisions.md FPD-54), the
    smoke units on the board (Firepower 12.3.7) and the obstacles other rules add."""
    from hexwar.plugins.firepower.hookspecs import FirepowerHooks
    from hexwar.plugins.firepower.smoke import smoke_map
    from hexwar.plugins.firepower.state import fp_map

    hooks = FirepowerHooks.of(game)
    extra = None
    if "firepower_los_obstacles" in hooks.implemented():
        def extra(a: Hex, b: Hex, hexes: tuple[Hex, ...],
                  ends: tuple[Soldier | None, Soldier | None]) -> Sequence[Obstacle]:
            return hooks.los_obstacles(a, b, hexes, ends)
    from hexwar.plugins.firepower.advanced_fire import damaged_map
    from hexwar.plugins.firepower.state import data

    destroyed = data(game).get("destroyed") or {}
    m = fp_map(game)
    if destroyed:  # Firepower 12.3.4.2: destroyed terrain, one derived map per state of ruin
        key = tuple(sorted(destroyed.items()))
        cached = game.stash.get(_RUINED)
        if cached is None or cached[0] != key or cached[1] is not m:
            cached = (key, m, damaged_map(m, destroyed))
            game.stash[_RUINED] = cached
        m = cached[2]
    from hexwar.plugins.firepower.defenses import roadblocks

    blocks = roadblocks(game)
    fence_heights: dict[Hex, int] = {}
    if blocks:  # Firepower 8.8.5.4: a roadblock is a fence picture of its own height (FPD-115)
        key2 = tuple(sorted((str(h), p.a, p.b) for h, (p, _) in blocks.items()))
        got = game.stash.get(_BLOCKED)
        if got is None or got[0] != key2 or got[1] is not m:
            from dataclasses import replace as dc_replace

            fence = {**m.fence, **{h: p for h, (p, _) in blocks.items()}}
            got = (key2, m, dc_replace(m, fence=fence, _static={}))
            game.stash[_BLOCKED] = got
        m = got[2]
        fence_heights = {h: ht for h, (_, ht) in blocks.items()}
    from hexwar.plugins.firepower import advanced_terrain as at

    raised = {uid: int(u.state["stands_at"]) for uid, u in game.state.units.items()
              if isinstance(u.state.get("stands_at"), int)}
    ground_at = trees = None
    from hexwar.plugins.firepower.defenses import ditch_depth

    # an Up soldier (a roadblock's climber, on any map) is raised too (Firepower 10.5.1)
    if at.terrain_names(game) or data(game).get("craters") or ditch_depth(game) or any(
            isinstance(u.state.get("up"), int) for u in game.state.units.values()):
        # docs/decisions.md FPD-70: the Advanced terrain's heights are the line of sight's: its
        # ground (heights per level, craters, ditches), tree heights, and a soldier's floor and Up height
        ground_at, trees, more = at.sight_heights(game)
        raised = {**more, **raised}
    return LosWorld(m, scenario_int(game, "heights_per_level", 3),
                    scenario_int(game, "tree_height", 6), scenario_int(game, "hedge_height", 2),
                    scenario_int(game, "fence_height", 1), smoke_map(game), extra, raised=raised,
                    ground_at=ground_at, tree_heights=trees, fence_heights=fence_heights)


def friendly_heads(world: LosWorld, soldiers: Iterable[Soldier], side: str,
                   exclude: Iterable[Hex]) -> dict[Hex, int]:
    """Firepower 12.1.4.3: the highest head of the firer's side per hex (ends excluded)."""
    skip = set(exclude)
    out: dict[Hex, int] = {}
    for s in soldiers:
        if s.side != side or s.hex in skip or s.hex is None:
            continue
        h = soldier_height(world, s)
        if h > out.get(s.hex, -10_000):
            out[s.hex] = h
    return out


class AdvancedLos(BaseLosRules):
    """The Advanced line of sight as a core LosRules (``hexwar los``, ``hexwar_los_rules``): the
    first soldier in each end hex gives the heights (a hex with none: its highest height,
    Firepower 12.1), his side the friendly soldiers; every obstacle becomes a finding: a block,
    or a hinder whose modifier is 0 for a clear one, so the explanation reads hex by hex with the
    ends' heights and the LOS chart line used."""

    include_endpoints: bool = True
    hexside_policy: HexsidePolicy = "either"
    vertex_policy: VertexPolicy = "touch"

    def __init__(self, game: Game) -> None:
        self.game = game

    def _result(self, ctx: LosContext) -> AdvancedLosResult:
        got = ctx.cache.get("adv")
        if isinstance(got, AdvancedLosResult):
            return got
        from hexwar.plugins.firepower.soldiers import soldiers_of

        world = los_world(self.game)
        sol = sorted(soldiers_of(self.game.state.units).values(), key=lambda s: s.id)
        firer = next((s for s in sol if s.hex == ctx.a), None)
        target = next((s for s in sol if s.hex == ctx.b), None)
        fh = soldier_height(world, firer) if firer else world.top(ctx.a) + 2
        th = target_height(world, "L" if target else "G", ctx.b, target, sol)
        friendly = friendly_heads(world, sol, firer.side, (ctx.a, ctx.b)) if firer else {}
        res = line_of_sight(world, ctx.a, ctx.b, fh, th, firer=firer, target=target,
                            friendly=friendly)
        ctx.cache["adv"] = res
        return res

    def hex_effect(self, board: Board, h: Hex, ctx: LosContext) -> LosEffect | None:
        res = self._result(ctx)
        ends = (res.firer_height, res.target_height)
        found = [s for s in res.steps if s.obstacle.hex == h]
        if not found:
            return self._opening(board, h, ctx) if not res.blocked else None
        block = next((s for s in found if s.verdict == "blocked"), None)
        if block is not None:
            return LosEffect("block", 0, block.describe(ends, False, False), block.rule)
        mod = sum(s.obstacle.hinder for s in found if s.verdict.startswith("hinders"))
        main = next((s for s in found if s.verdict.startswith("hinders")), found[-1])
        return LosEffect("hinder", mod, "; ".join(s.describe(ends, False, False) for s in found),
                         main.rule)

    def _opening(self, board: Board, h: Hex, ctx: LosContext) -> LosEffect | None:
        """Firepower 12.1.6: an end hex in a building that the line leaves by an open door or
        window names it (a clear finding, so the explanation shows which)."""
        if h not in (ctx.a, ctx.b):
            return None
        from hexwar.plugins.firepower.advanced_terrain import adv_map, floor_of, is_open

        m = adv_map(self.game)
        bd = m.building(h)
        if bd is None:
            return None
        # the first soldier there, as the heights (none: the ground floor, FPD-70)
        here = sorted((u for u in self.game.state.units.values() if u.hex == h),
                      key=lambda u: u.id)
        floor = floor_of(here[0]) if here else 1
        other = ctx.b if h == ctx.a else ctx.a
        for d in m.exits(h, other):
            n = h.neighbor(d)
            o = m.opening(h, n, floor)
            if m.building_of.get(n) != bd.id and o is not None and is_open(self.game, o):
                lo, hi = o.span
                return LosEffect("hinder", 0, f"through the open {o.kind} on the hexside toward "
                                 f"{board.label(n)} ({lo}-{hi} heights above the floor)",
                                 "Firepower 12.1.6")
        return None

    def off_board_effect(self, board: Board, h: Hex, ctx: LosContext) -> LosEffect | None:
        return None

    def sight_kernel(self, board: Board, data: Any = None) -> None:
        return None
