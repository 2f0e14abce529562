"""MBT 6.1, the Basic Game Sighting Step: which enemy units each unit can see.

Sighting range comes from the SIGHTING RANGES CHART (MBT 6.1.3) and line of sight from the Basic
Game rules of MBT 6.1.4 (:class:`hexwar.plugins.mbt.terrain.BasicLos`). What a unit saw in the
Sighting Step decides which orders it may take (MBT 6.2); what it sees at the moment of firing
decides whether it may fire (MBT 7.2).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from hexwar.core.engine.state import Unit
from hexwar.core.kit import StashKey
from hexwar.plugins.mbt.hookspecs import MbtHooks
from hexwar.plugins.mbt.state import SIDES, Step, alive, ctx, data, enemy_of

if TYPE_CHECKING:
    from hexwar.core.engine.game import Game


def in_sighting_range(game: Game, viewer: Unit, target: Unit, *, moving: bool = False) -> bool:
    """MBT 6.1.3: sighting range from the SIGHTING RANGES CHART (Day, open or buttoned, the target
    hex's rightmost terrain column, VH), doubled for a MOVED marker or a unit moving now
    (MBT 7.5.2), any range for a FIRED marker (MBT 6.1.3.5)."""
    if viewer.hex is None or target.hex is None:
        return False
    rule = MbtHooks.of(game).sees(viewer, target, moving)  # Advanced MBT 13.1-13.2
    if rule is not None:
        return rule
    r = viewer.hex.distance(target.hex)
    if r > 0:
        spotted = target.state.get("spotted")
        if spotted != "FIRED":
            c = ctx(game)
            base = c.charts.sighting_range("Open" if viewer.state.get("open", True) else "Buttoned",
                                           c.info.sight_terrain[target.hex])
            if spotted == "MOVED" or moving:
                base *= 2
            if r > base:
                return False
    return True


#: sight answers kept while :func:`one_moment` holds (None outside it)
SIGHT_MEMO = StashKey[dict[tuple[Any, ...], bool]]("mbt.sight_memo")


@contextmanager
def one_moment(game: Game) -> Iterator[None]:
    """While the options of one decision are listed nothing in the game changes but a
    passenger's stand at its carrier (:func:`hexwar.plugins.mbt.transport.aboard`), so each
    viewer-target question of :func:`sees` is answered once (docs/decisions.md MBTD-189)."""
    if game.stash.get(SIGHT_MEMO) is not None:
        yield
        return
    game.stash[SIGHT_MEMO] = {}
    try:
        yield
    finally:
        game.stash.pop(SIGHT_MEMO)


def sees(game: Game, viewer: Unit, target: Unit, *, moving: bool = False) -> bool:
    """MBT 6.1: within sighting range (:func:`in_sighting_range`) and a clear Basic line of sight
    (MBT 6.1.4); a rule may answer instead (the Advanced Game's MBT 13.1-13.2)."""
    if viewer.hex is None or target.hex is None:
        return False
    memo = game.stash.get(SIGHT_MEMO)
    if memo is None:
        return _sees(game, viewer, target, moving)
    # where each end stands and faces: a passenger aboard its carrier takes the carrier's
    key = (viewer.id, viewer.hex, viewer.facing, viewer.state.get("turret"), target.id,
           target.hex, target.facing, target.state.get("turret"), moving)
    got = memo.get(key)
    if got is None:
        got = memo[key] = _sees(game, viewer, target, moving)
    return got


def _sees(game: Game, viewer: Unit, target: Unit, moving: bool) -> bool:
    assert viewer.hex is not None and target.hex is not None
    rule = MbtHooks.of(game).sees(viewer, target, moving)  # Advanced MBT 13.1-13.2
    if rule is not None:
        return rule
    if not in_sighting_range(game, viewer, target, moving=moving):
        return False
    return ctx(game).info.los(viewer.hex, target.hex)


def _rule_sights(game: Game) -> bool:
    """Whether an enabled rule answers sighting itself (``mbt_sees``): then the Basic batch
    questions below ask :func:`sees` one pair at a time."""
    hooks = MbtHooks.of(game)
    return hooks.hook.mbt_sees in hooks.live


def seen_units(game: Game, viewer: Unit, targets: Iterable[Unit]) -> list[Unit]:
    """MBT 6.1: the units among ``targets`` that ``viewer`` sees (:func:`sees`), the lines of sight
    asked in one batch from the viewer's hex (Basic lines of sight are symmetric)."""
    if viewer.hex is None:
        return []
    if _rule_sights(game):
        return [t for t in targets if sees(game, viewer, t)]
    near = [t for t in targets if in_sighting_range(game, viewer, t)]
    clear = ctx(game).info.visible(viewer.hex, {t.hex for t in near if t.hex is not None})
    return [t for t in near if t.hex in clear]


def _in_range_of(game: Game, viewers: Iterable[Unit], target: Unit, moving: bool) -> list[Unit]:
    """The live ``viewers`` that have ``target`` within sighting range: :func:`in_sighting_range`
    for one target and many viewers, when no rule answers sighting (:func:`_rule_sights` is
    False): the chart is read once per viewer posture, not once per viewer."""
    assert target.hex is not None
    spotted = target.state.get("spotted")
    if spotted == "FIRED":  # MBT 6.1.3.5: any range
        return [v for v in viewers if alive(v) and v.hex is not None]
    c = ctx(game)
    terrain = c.info.sight_terrain[target.hex]
    double = spotted == "MOVED" or moving
    ranges: dict[bool, int] = {}
    out = []
    for v in viewers:
        if not alive(v) or v.hex is None:
            continue
        is_open = bool(v.state.get("open", True))
        base = ranges.get(is_open)
        if base is None:
            base = c.charts.sighting_range("Open" if is_open else "Buttoned", terrain)
            if double:
                base *= 2
            ranges[is_open] = base
        if v.hex.distance(target.hex) <= base:  # range 0 (the same hex) is always in range
            out.append(v)
    return out


def seen_by_side(game: Game, side: str, target: Unit, *, moving: bool = False) -> bool:
    """MBT 6.1.2: any unit of ``side`` that sees the target (hidden information, MBT 6.1)."""
    if target.hex is None:
        return False
    memo = game.stash.get(SIGHT_MEMO)
    if memo is None:
        return _seen_by_side(game, side, target, moving)
    viewers = game.state.units_of(side)
    # the target as it stands, and any passenger of the side standing aboard its carrier now
    key = ("side", side, target.id, target.hex, target.facing, target.state.get("turret"), moving,
           tuple(v.id for v in viewers if v.hex is not None and v.state.get("mounted")))
    got = memo.get(key)
    if got is None:
        got = memo[key] = _seen_by_side(game, side, target, moving)
    return got


def _seen_by_side(game: Game, side: str, target: Unit, moving: bool) -> bool:
    assert target.hex is not None
    if _rule_sights(game):
        return any(sees(game, v, target, moving=moving)
                   for v in game.state.units_of(side) if alive(v))
    near = _in_range_of(game, game.state.units_of(side), target, moving)
    if not near:
        return False
    # one batch from the target's hex to every viewer within range
    return bool(ctx(game).info.visible(target.hex, {v.hex for v in near if v.hex is not None}))


def unit_height(game: Game, u: Unit) -> float:
    """MBT 6.1.4.6: a unit sits at its hex's Basic height; ``mbt_unit_height`` may say otherwise
    (Advanced MBT 12.1)."""
    h = MbtHooks.of(game).unit_height(u)
    if h is not None:
        return h
    assert u.hex is not None
    return float(ctx(game).info.height[u.hex])


def visible_units(game: Game, side: str) -> list[str]:
    """MBT 6.1: what a side knows of the map: its own units, the enemy units some unit of the side
    sees now, and wrecks (public)."""
    out = []
    for u in game.state.units.values():
        if u.side == side:
            out.append(u.id)
        elif not alive(u):
            if u.state.get("destroyed"):
                out.append(u.id)  # a wreck is public
        elif u.side == enemy_of(side) and seen_by_side(game, side, u):
            out.append(u.id)
    return sorted(out)


def sighting_phase(game: Game) -> Step:
    """MBT 6.1: which enemy units each unit sees now (the basis for F, FM and ATGM orders)."""
    sighted: dict[str, list[str]] = {}
    for side in SIDES:
        enemies = [e for e in game.state.units_of(enemy_of(side)) if alive(e)]
        for u in game.state.units_of(side):
            if alive(u):
                sighted[u.id] = sorted(e.id for e in seen_units(game, u, enemies))
            elif u.state.get("mounted") and not u.state.get("destroyed"):
                # Advanced MBT 13.1.4, 15.3.4: a passenger sights from its carrier (MBTD-119)
                from hexwar.plugins.mbt.transport import aboard

                carrier = game.state.units.get(str(u.state["mounted"]))
                if carrier is not None and alive(carrier):
                    with aboard(game, u):
                        sighted[u.id] = sorted(e.id for e in seen_units(game, u, enemies))
        game.emit("sighting", visible_to=[side], rule="MBT 6.1",
                  sighted={k: v for k, v in sighted.items() if game.state.units[k].side == side})
    data(game)["sighted"] = sighted
    return
    yield  # a generator
