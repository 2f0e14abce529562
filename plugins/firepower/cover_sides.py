"""Cover by the side of a tree, stump or well hex (Firepower 10.4, Firepower 10.4.1-10.4.6) in
the Advanced Game.

A soldier in such a hex is at one *place* around the trunk, stump or well, shown by a direction
unit: ``("side", d)`` or ``("rear", d)`` with ``d`` a hexside 1-6. He is covered only against
fire or blast whose line of sight crosses one of the place's hexsides (``d`` plus the offsets of
``data/advanced/cover_sides.toml``; the diagram is missing, so the offsets are ``estimated``,
docs/decisions.md FPD-139).

* State: ``state.cover_side = {"hex": label, "at": "side"|"rear", "toward": d, "n": k}``, valid
  while the soldier is in the hex it names (a soldier who moves on leaves his place behind). A
  soldier with no valid record is at the side place toward his facing, as placed on entering
  (FPD-139).
* Action ``cover_side`` (``{"act": "cover_side", "unit", "at", "toward"}``): takes another place;
  it needs the soldier's Impulse and no MF (Firepower 10.4.3).
* Stacking (Firepower 10.4.4): one soldier per place is covered, the bottom of the stack: the
  one who took it first (the lowest ``n``; defaulted places after recorded ones, by id).
* A soldier Up a tree has no cover in any direction (Firepower 10.4.5); a soldier at the rear
  fires no major personal weapon (Firepower 10.4.2).
* Stumps and wells are scenario hexes (``special.stumps``, ``special.wells``, labels): cover as a
  tree by sides, no concealment (Firepower 10.4.6). Trees are the map's tree hexes.

The Advanced fire reads this through :func:`sided_cover` (from ``advanced_fire.cover_of``) with
the :class:`Sides` of the game made once per fire (:func:`sides_of`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from hexwar.core.errors import RulesError
from hexwar.core.hexgrid import Hex
from hexwar.core.provenance import load_records
from hexwar.plugins.firepower.actions import ActionType
from hexwar.plugins.firepower.state import alive, data, fp_map

if TYPE_CHECKING:
    from hexwar.core.engine.game import Game
    from hexwar.core.engine.state import Unit
    from hexwar.plugins.firepower.advanced_fire import Firing
    from hexwar.plugins.firepower.combat import FireContext
    from hexwar.plugins.firepower.soldiers import Soldier

DATA = Path(__file__).parent / "data" / "advanced" / "cover_sides.toml"
#: Firepower 10.4, 10.4.6: the terrain whose cover is by sides
KINDS = ("tree", "stump", "well")
#: the trees' value against penetration (as advanced_fire.TREE_TV); stumps and wells alike
STUMP_TV = 6


@dataclass(frozen=True)
class Place:
    """Where a soldier is around a tree, stump or well (Firepower 10.4)."""

    at: str      # "side" or "rear"
    toward: int  # the direction unit's hexside
    order: tuple[int, str] = (1 << 30, "")  # bottom of the stack first (10.4.4)

    @property
    def key(self) -> tuple[str, int]:
        return (self.at, self.toward)


@dataclass(frozen=True)
class Sides:
    """The game's cover places for one fire: stump and well hexes, each soldier's place in a
    hex whose cover is by sides, and who among them gets the cover (Firepower 10.4.4)."""

    objects: Mapping[Hex, str] = field(default_factory=dict)
    places: Mapping[str, Place] = field(default_factory=dict)
    covered: frozenset[str] | None = None  # None: no stacking known (pure tests)
    #: Firepower 8.2.4, 12.2.3: soldier id -> the loophole hexsides of his hex and floor
    loopholes: Mapping[str, frozenset[int]] = field(default_factory=dict)


@cache
def _records() -> dict[str, dict[str, Any]]:
    return {k: dict(v) for k, v in load_records(DATA).values.items()}


def place_kinds() -> tuple[str, ...]:
    return tuple(k for k, v in _records().items() if "offsets" in v)


def hexsides_of(at: str, toward: int) -> frozenset[int]:
    """Firepower 10.4.1, 10.4.2: the hexsides a place covers (offsets estimated, FPD-139)."""
    offs = _records()[at]["offsets"]
    return frozenset((toward - 1 + int(o)) % 6 + 1 for o in offs)


def fires_major_weapon(at: str) -> bool:
    """Firepower 10.4.2: whether a soldier at place ``at`` may fire a major personal weapon (not
    from the rear of the trunk)."""
    return bool(_records()[at].get("major_weapon", True))


def change_cost() -> int:
    """Firepower 10.4.3: the MF of changing places (none)."""
    return int(_records()["change"]["mf"])


def objects(game: Game) -> dict[Hex, str]:
    """Firepower 10.4.6: the scenario's stump and well hexes (``special.stumps``,
    ``special.wells``); a bad label is refused naming the rule."""
    special = game.scenario.raw.get("special", {}) or {}
    out: dict[Hex, str] = {}
    if not isinstance(special, dict):
        return out
    for key, kind in (("stumps", "stump"), ("wells", "well")):
        for label in special.get(key, []) or []:
            try:
                out[game.board.parse(str(label))] = kind
            except (ValueError, KeyError):
                raise RulesError(f"special.{key}: {label!r} is not a hex of the board",
                                 rule="Firepower 10.4.6") from None
    return out


def kind_at(game: Game, h: Hex, objs: Mapping[Hex, str] | None = None) -> str | None:
    """What gives cover by sides in ``h``: "tree", "stump", "well" or None."""
    if fp_map(game).cover.get(h) == "tree":
        return "tree"
    return (objects(game) if objs is None else objs).get(h)


def kind_at_fire(f: Firing, h: Hex) -> str | None:
    """What gives cover by sides in ``h`` as one fire sees the game: "tree", "stump", "well" or
    None (Firepower 10.4, 10.4.6)."""
    if f.world.map.cover.get(h) == "tree":
        return "tree"
    return (f.cover_sides or Sides()).objects.get(h)


def place_of(game: Game, u: Unit) -> Place:
    """The soldier's place in his hex: his record if made in this hex, else the side place
    toward his facing (FPD-139)."""
    rec = u.state.get("cover_side")
    if (isinstance(rec, dict) and u.hex is not None
            and rec.get("hex") == game.board.label(u.hex)):
        return Place(str(rec["at"]), int(rec["toward"]), (int(rec.get("n", 0)), u.id))
    return Place("side", int(u.facing), (1 << 30, u.id))


def sides_of(game: Game) -> Sides:
    """Every soldier's place in a tree, stump or well hex, and who is covered (10.4.4)."""
    objs = objects(game)
    places: dict[str, Place] = {}
    for uid, u in game.state.units.items():
        if alive(u) and u.hex is not None and kind_at(game, u.hex, objs) is not None:
            places[uid] = place_of(game, u)
    bottom: dict[tuple[Hex, tuple[str, int]], tuple[tuple[int, str], str]] = {}
    for uid, p in places.items():
        h = game.state.units[uid].hex
        assert h is not None
        k = (h, p.key)
        if k not in bottom or p.order < bottom[k][0]:
            bottom[k] = (p.order, uid)
    from hexwar.plugins.firepower.loopholes import users

    return Sides(objs, places, frozenset(uid for _, uid in bottom.values()), users(game))


def _crossed(target: Soldier, source: Hex, impact_side: int | None) -> list[int]:
    """The hexsides of the target's hex a line from ``source`` (or a blast on the part
    ``impact_side``) comes in by; none from inside his own hex (FPD-139)."""
    from hexwar.plugins.firepower.advanced_terrain import exit_sides

    if impact_side is not None:
        return [impact_side]
    if source == target.hex:
        return []
    return exit_sides(target.hex, source)


def loophole_used(f: Firing, target: Soldier, source: Hex, *, impact_side: int | None = None
                  ) -> bool:
    """Firepower 12.2.3, 12.2.4: the line comes in through a loophole of the target's hex and
    floor (he uses it: +2 cover, and concealment)."""
    from hexwar.plugins.firepower.loopholes import using

    sides = (f.cover_sides or Sides()).loopholes.get(target.id)
    return bool(sides) and using(sides or frozenset(), _crossed(target, source, impact_side))


def sided_cover(f: Firing, target: Soldier, source: Hex, *, impact_side: int | None = None
                ) -> tuple[str, int] | None:
    """Firepower 10.4-10.4.6: the cover of a tree, stump or well for ``target`` against fire or
    blast from ``source`` (or a blast on the part ``impact_side`` of his hex): only across his
    place's hexsides, only for the bottom soldier of a place, never Up a tree. None: no such
    cover (also when his hex has no tree, stump or well)."""
    from hexwar.plugins.firepower.advanced_fire import TREE_TV
    from hexwar.plugins.firepower.loopholes import terrain_value

    sides = f.cover_sides or Sides()
    if loophole_used(f, target, source, impact_side=impact_side):
        return ("loophole", terrain_value())  # Firepower 12.2.3: +2, not also +1 (FPD-141)
    kind = "tree" if f.world.map.cover.get(target.hex) == "tree" else \
        sides.objects.get(target.hex)
    if kind is None:
        return None
    if kind == "tree" and target.id in f.ups:
        return None  # Firepower 10.4.5: Up a tree, no cover in any direction
    if sides.covered is not None and target.id not in sides.covered:
        return None  # Firepower 10.4.4: not the bottom soldier of his place
    place = sides.places.get(target.id) or Place("side", target.facing)
    covers = hexsides_of(place.at, place.toward)
    if not covers.intersection(_crossed(target, source, impact_side)):
        return None
    return (kind, TREE_TV if kind == "tree" else STUMP_TV)


def check_firer(game: Game, ctx: FireContext, major: bool) -> None:
    """Firepower 10.4.2: no major personal weapon is fired from the rear of a tree, stump or
    well (a grenade or the weapon of a crew another crewman fires is not his); Firepower
    12.1.6: a firer through a loophole faces it (:func:`loopholes.check_firer`)."""
    from hexwar.plugins.firepower.loopholes import check_firer as loophole_firer

    uid = ctx.firer.id
    u = game.state.units[uid]
    targets = [ctx.soldiers[t].hex for t in ctx.targets if t in ctx.soldiers]
    if ctx.target_hex is not None:
        targets.append(ctx.target_hex)
    loophole_firer(game, u, targets)
    if not major or u.hex is None or kind_at(game, u.hex) is None:
        return
    p = place_of(game, u)
    if not fires_major_weapon(p.at):
        raise RulesError(f"{uid} is at the rear of the {kind_at(game, u.hex)}: he may help a "
                         "crew but fire no major personal weapon from there",
                         rule="Firepower 10.4.2")


# ---------------------------------------------------------------------------------------------
# The Action (Firepower 10.4.3)
# ---------------------------------------------------------------------------------------------


def _check(game: Game, ph: dict[str, Any], choice: dict[str, Any]) -> dict[str, Any]:
    u = game.state.units[choice["unit"]]
    assert u.hex is not None
    kind = kind_at(game, u.hex)
    if kind is None:
        raise RulesError(f"{u.id} is in no tree, stump or well hex: no cover side to take",
                         rule="Firepower 10.4")
    at, toward = choice.get("at"), choice.get("toward")
    if at not in place_kinds():
        raise RulesError(f"a cover place is one of {', '.join(place_kinds())}, not {at!r}",
                         rule="Firepower 10.4")
    if not isinstance(toward, int) or isinstance(toward, bool) or not 1 <= toward <= 6:
        raise RulesError("a direction unit points at a hexside 1-6", rule="Firepower 10.4")
    rec = u.state.get("cover_side")
    if (isinstance(rec, dict) and rec.get("hex") == game.board.label(u.hex)
            and place_of(game, u).key == (at, toward)):  # the default place may be taken
        raise RulesError(f"{u.id} is already at that place", rule="Firepower 10.4.3")
    return {"cost": change_cost(), "at": at, "toward": toward, "kind": kind}


def _apply(game: Game, ph: dict[str, Any], info: dict[str, Any]) -> None:
    u = game.state.units[info["unit"]]
    assert u.hex is not None
    d = data(game)
    n = int(d.get("cover_seq", 0)) + 1  # the stacking order of 10.4.4
    d["cover_seq"] = n
    u.state["cover_side"] = {"hex": game.board.label(u.hex), "at": info["at"],
                             "toward": info["toward"], "n": n}


def _options(game: Game, ph: dict[str, Any], uid: str) -> list[dict[str, Any]]:
    """Firepower 10.4.3: every place a soldier in a tree, stump or well hex may take (all but
    the one he recorded there), listed so that a controller may choose one (the decisions take
    only the fields their options show; FPD-161)."""
    u = game.state.units[uid]
    if u.hex is None or kind_at(game, u.hex) is None:
        return []
    rec = u.state.get("cover_side")
    mine = place_of(game, u).key if isinstance(rec, dict) and \
        rec.get("hex") == game.board.label(u.hex) else None
    return [{"unit": uid, "act": "cover_side", "at": at, "toward": d}
            for at in place_kinds() for d in range(1, 7) if (at, d) != mine]


COVER_SIDE = ActionType("cover_side", _check, _apply, _options, rule="Firepower 10.4.3")


def los_obstacles(game: Game, hexes: tuple[Hex, ...], a: Hex | None = None,
                  b: Hex | None = None) -> list[Any]:
    """Firepower 10.4.6, 12.1.5: a tree stump between is one height above its ground and blocks
    a line through its hex by the heights; a well between, as high, only a line from ``a`` to
    ``b`` that passes through its picture (:func:`crosses_well`, FPD-185)."""
    objs = objects(game)
    if not objs:
        return []
    from hexwar.plugins.firepower.advanced_los import Obstacle
    from hexwar.plugins.firepower.advanced_terrain import ground_of

    out = []
    for h in hexes:
        kind = objs.get(h)
        if kind == "stump":
            out.append(Obstacle(h, "tree stump", ground_of(game, h) + 1, "Firepower 12.1.5"))
        elif kind == "well" and a is not None and b is not None and crosses_well(a, b, h):
            out.append(Obstacle(h, "well", ground_of(game, h) + 1, "Firepower 12.1.5"))
    return out


def well_radius() -> float:
    """The radius of a well's picture, as a share of the distance from a hex's centre to its
    sides (a stand-in: the mapboard's picture is not in the text; FPD-185)."""
    return float(_records()["well"]["picture_radius"])


def crosses_well(a: Hex, b: Hex, h: Hex) -> bool:
    """Firepower 12.1.5: whether the line from the centre of ``a`` to the centre of ``b`` passes
    through the picture of a well drawn at the centre of hex ``h`` (FPD-185)."""
    (ax, ay), (bx, by), (hx, hy) = a.to_pixel(), b.to_pixel(), h.to_pixel()
    dx, dy = bx - ax, by - ay
    length2 = dx * dx + dy * dy
    if length2 == 0:
        return False
    t = max(0.0, min(1.0, ((hx - ax) * dx + (hy - ay) * dy) / length2))
    px, py = ax + t * dx - hx, ay + t * dy - hy
    inner = 3 ** 0.5 / 2  # a hex's centre to its sides, in corner radii (Hex.to_pixel's unit)
    r = well_radius() * inner
    return px * px + py * py <= r * r + 1e-9
