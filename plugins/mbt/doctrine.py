"""MBT 13.4, Soviet Doctrine (Advanced Game): the units of one doctrine organization do
everything together.

A scenario names a unit's doctrine organization in its state: ``state = { doctrine = "101" }``
(MBT 13.4.1: only Soviet units "with doctrine"); the sub-units keep their own ids (``101a``,
``101b``..., MBT 13.4.2.3), so that every shot at the organization names its target
(MBT 13.4.3.3) and each takes its own damage. The organization's strength is public
(MBT 13.4.2.2): ``game.state.data["mbt"]["doctrine"]`` maps each organization to its members still
with it.

Together (MBT 13.4.3.1-13.4.3.2): one order for all (given to the first member, and allowed even
where some members cannot carry it out); one set-up hex, facing and turret; one move (the others
follow the first member hex by hex, ``mbt_unit_moved``); one pivot and one turret adjustment; all
fire at one time, at one target, with one ammunition (``mbt_fire_options``, ``mbt_fire_error``),
those that cannot fire simply not firing. A member that cannot move when the others move on
(track or hull compartment hit) is abandoned (MBT 13.4.2.5): it leaves the organization, takes no
orders and no longer fires, but it can still be shot at and still stacks.

Overrun (MBT 13.4.3.2, 14.7.1.2-14.7.1.5): the organization moves next to the defender together,
then its members go in one at a time (:func:`apart`: the others do not follow the leader's last
hex); afterwards those that cannot move on are abandoned (:func:`regroup`; docs/decisions.md
MBTD-105, MBTD-106).
"""

from __future__ import annotations

import copy
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from hexwar.core.engine.state import Unit
from hexwar.plugins.mbt.orders import seen_by
from hexwar.plugins.mbt.state import alive, can_move, data

if TYPE_CHECKING:
    from hexwar.core.engine.game import Game

FOLLOW_KEYS = ("moved", "used", "spotted", "entered", "prev", "trail", "exited")


def organizations(game: Game) -> dict[str, list[str]]:
    """MBT 13.4.2.2: each doctrine organization and its members still with it (public; the
    strength drops with each loss, MBT 13.4.2.4)."""
    d = data(game)
    if "doctrine" not in d:
        groups: dict[str, list[str]] = {}
        for u in sorted(game.state.units.values(), key=lambda x: x.id):
            g = u.state.get("doctrine")
            if g and u.side == "Soviet":
                groups.setdefault(str(g), []).append(u.id)
        d["doctrine"] = groups
    got: dict[str, list[str]] = d["doctrine"]
    return got


def members(game: Game, u: Unit) -> list[Unit]:
    """The units of ``u``'s organization still with it and on the map (``[u]`` without one)."""
    g = u.state.get("doctrine")
    ids = organizations(game).get(str(g), []) if g else []
    if u.id not in ids:
        return [u]
    return [game.state.units[i] for i in ids if alive(game.state.units[i])]


def leader(game: Game, u: Unit) -> Unit:
    """The member that takes the organization's decisions: the first one on the map."""
    ms = members(game, u)
    return ms[0] if ms else u


def is_follower(game: Game, u: Unit) -> bool:
    """A member other than the leader (it takes no decision of its own)."""
    return leader(game, u).id != u.id


def abandon(game: Game, u: Unit) -> None:
    """MBT 13.4.2.5: the unit is left behind and plays no further part but as a target."""
    g = str(u.state.get("doctrine"))
    orgs = organizations(game)
    if u.id in orgs.get(g, []):
        orgs[g] = [i for i in orgs[g] if i != u.id]
        u.state["abandoned"] = True
        u.state["order"] = None
        game.emit("abandoned", visible_to=seen_by(game, [u]), unit=u.id, organization=g,
                  strength=len(orgs[g]), rule="MBT 13.4.2.5")


def before_move(game: Game, u: Unit) -> None:
    """MBT 13.4.2.5: members that cannot move with the leader are abandoned."""
    for m in members(game, u):
        if m.id != u.id and not can_move(m):
            abandon(game, m)


def on_bridge(game: Game, u: Unit) -> bool:
    """MBT 13.4.3.1 EXCEPTION: ``u`` is crossing a bridge: it stands on a bridge hex it entered
    along the road or path (MBT 8.6: a bridge entered otherwise is the stream)."""
    from hexwar.plugins.mbt.state import ctx

    if u.hex is None or "bridge" not in game.board.features_of[u.hex] or not u.state.get("prev"):
        return False
    info = ctx(game).info
    side = frozenset((game.board.parse(str(u.state["prev"])), u.hex))
    return side in info.road or side in info.path


@contextmanager
def bridges_one_at_a_time(game: Game, u: Unit) -> Iterator[None]:
    """MBT 13.4.3.1 EXCEPTION, in a Movement Step move: while the leader is on a bridge the other
    members wait at its near end, and they cross after it, one at a time, when it moves on
    (:func:`follow`) or when the move ends (they close up on it there; MBTD-124)."""
    data(game)["doctrine_bridges"] = True
    try:
        yield
    finally:
        data(game).pop("doctrine_bridges", None)
        waiting = [m for m in members(game, u) if m.state.pop("bridge_wait", None)]
        if alive(u) and waiting:
            _cross(game, u, waiting)


def _cross(game: Game, u: Unit, waiting: list[Unit]) -> None:
    """The waiting members join the leader, crossing the bridge one after the other."""
    for m in waiting:
        m.state.pop("bridge_wait", None)
        _join(m, u)
    game.emit("bridge_crossing", visible_to=seen_by(game, [u, *waiting]),
              organization=str(u.state.get("doctrine")), order=[m.id for m in waiting],
              hex=game.board.label(u.hex) if u.hex else None, rule="MBT 13.4.3.1")


def _join(m: Unit, u: Unit) -> None:
    m.hex, m.facing = u.hex, u.facing
    m.state["turret"] = u.state["turret"]
    for k in FOLLOW_KEYS:
        if k in u.state:
            m.state[k] = copy.deepcopy(u.state[k])


def follow(game: Game, u: Unit) -> None:
    """MBT 13.4.3.1: the rest of the organization is where the leader is, facing its way (not
    while its members overrun one at a time, MBT 14.7.1.5); in a Movement Step, not onto a bridge
    with it (they cross one at a time, :func:`bridges_one_at_a_time`)."""
    if is_follower(game, u) or data(game).get("doctrine_apart"):
        return
    others = [m for m in members(game, u) if m.id != u.id]
    if data(game).get("doctrine_bridges") and others and on_bridge(game, u):
        for m in others:  # the weight of one vehicle at a time on the bridge
            if m.hex != u.hex:
                m.state["bridge_wait"] = True
        if all(m.state.get("bridge_wait") for m in others):
            return
    waiting = [m for m in others if m.state.get("bridge_wait")]
    if waiting:
        _cross(game, u, waiting)
    for m in others:
        _join(m, u)


@contextmanager
def apart(game: Game) -> Iterator[None]:
    """MBT 14.7.1.5: while an organization's members overrun one at a time, each moves alone."""
    data(game)["doctrine_apart"] = True
    try:
        yield
    finally:
        data(game).pop("doctrine_apart", None)


def regroup(game: Game, u: Unit) -> Unit:
    """MBT 13.4.2.5, 14.7.3: after an overrun, the members that cannot move on with the rest (the
    leader too) are abandoned; returns the organization's leader now (``u`` without one)."""
    ms = members(game, u)
    if len(ms) < 2:
        return u
    movers = [m for m in ms if can_move(m)]
    if not movers:
        return ms[0]
    for m in ms:
        if not can_move(m) or m.hex != movers[0].hex:
            abandon(game, m)
    return movers[0]


def copy_orientation(game: Game, u: Unit) -> None:
    """MBT 13.4.3.1: one facing and one turret direction for the organization."""
    for m in members(game, u):
        if m.id != u.id:
            m.facing = u.facing
            m.state["turret"] = u.state["turret"]
            m.state["open"] = u.state["open"]


def fire_options(game: Game, side: str, options: list[Any]) -> list[Any] | None:
    """MBT 13.4.3.2: a declaration naming a member names every member that could fire at that
    target with that ammunition; declarations are expanded to whole organizations."""
    if not organizations(game):
        return None
    legal: dict[tuple[str, str], set[str]] = {}
    for o in options:
        if isinstance(o, dict):
            for fid, ammo in o["shots"]:
                legal.setdefault((o["target"], ammo), set()).add(fid)
    out: list[Any] = []
    seen: set[str] = set()
    for o in options:
        if not isinstance(o, dict):
            out.append(o)
            continue
        shots: dict[str, str] = {}
        for fid, ammo in o["shots"]:
            u = game.state.units[fid]
            for m in members(game, u):
                if m.id in legal.get((o["target"], ammo), set()) and m.id not in shots:
                    shots[m.id] = ammo
        new = {"target": o["target"], "shots": [[f, a] for f, a in sorted(shots.items())]}
        key = repr(new)
        if key not in seen:
            seen.add(key)
            out.append(new)
    return out


def fire_error(game: Game, side: str, choice: dict[str, Any]) -> str | None:
    """MBT 13.4.3.2: every member able to fire goes with the others, with the same ammunition;
    their machineguns too, each weapon checked on its own (``WEAPON/AMMO`` shots)."""
    weapons: dict[str, list[Any]] = {}
    for f, a in choice["shots"]:
        weapons.setdefault(str(a).rpartition("/")[0], []).append([f, a])
    for shots in weapons.values():
        err = _group_error(game, {"target": choice["target"], "shots": shots})
        if err:
            return err
    return None


def _group_error(game: Game, choice: dict[str, Any]) -> str | None:
    from hexwar.plugins.mbt.fire import fire_error as basic_error

    named = {str(f): str(a) for f, a in choice["shots"]}
    target = game.state.units[choice["target"]]
    for fid, ammo in named.items():
        u = game.state.units[fid]
        if u.state.get("abandoned"):
            return f"{fid} was abandoned and no longer fires (MBT 13.4.2.5)"
        for m in members(game, u):
            if m.id in named:
                if named[m.id] != ammo:
                    return (f"doctrine organization {u.state.get('doctrine')}: {fid} and {m.id} "
                            "fire the same ammunition (MBT 13.4.3.2)")
                continue
            order = m.state.get("order")
            if order is None:
                continue
            if basic_error(game, m, target, ammo, orders=(str(order),)) is None:
                return (f"doctrine organization {u.state.get('doctrine')}: {m.id} fires with "
                        f"{fid}, at the same target (MBT 13.4.3.2)")
    return None
