"""Firepower 12.7.3: a "G", "F" or "W" projectile whose impact hex lies behind a door or window
must pass the opening, or it hits the wall round it.

The buildings of hexwar put their walls on hexsides (Firepower 8.2.3;
:mod:`~hexwar.plugins.firepower.advanced_terrain`), so "the impact hex contains a wall opening"
and "the projectile passes an opening to reach the impact hex" are one case: an impact in a
building hex fired from outside its building comes in through an open door or window of that hex
on the line from the firer (the Advanced line of sight already refuses a line through a wall).
The step ``opening`` (after ``throw``, before the side and hole rolls of 12.7.1 and 12.7.2, rolled
one location at a time as 12.7.4 says) rolls a die: -2 at a range of one hex, +1 per height
between the firer's head and the nearest height of the opening, read 1 to 10 (Firepower 12.7),
reversed when the firer announced "+" (12.7.5). A roll at or under the opening's pass number
(``data/advanced/openings.toml``: the window's 1-3 is the text's, the rest stand-ins) passes; a
higher one puts the impact in the hex on the firer's side of that wall. An opening on a hexside of
the firer's own hex is passed without a roll; of several the firer takes the likeliest
(docs/decisions.md FPD-151). High-trajectory fire comes down on the roof, not through a window.

Loopholes and cave mouths (Firepower 12.7.3, 8.2.4; docs/decisions.md FPD-147, FPD-148):

* a scenario's loophole in a building wall (:mod:`~hexwar.plugins.firepower.loopholes`) is one
  more opening of its hex, rolled with the ``loophole`` pass number over the loophole's heights;
  failing, the impact goes to the hex outside that wall, as for a window;
* a bunker (loopholes on every hexside but the door's, Firepower 8.8.4.1), a pillbox (its front
  loophole, Firepower 8.8.4.2) and a sandbagged tower (every hexside, on its floor five heights
  up, Firepower 8.8.6) are *shelters*: a G impact in the hex, thrown from outside, must pass a
  loophole on the line toward the firer to burst inside; a cave (Firepower 8.8.7) likewise
  through its mouth (``cave`` pass number; from the front only, the mouth's heights being the
  cave's two from its floor). Passed, the blast reaches only those inside, without the
  shelter's cover; failed (or with no loophole or mouth toward the firer) the impact stays in
  the hex, outside the shelter: those inside are not hit, Stunned or Suppressed unless the hit
  penetrates the shelter's terrain value (Firepower 12.2.3). The impact hex holds the opening,
  so only G (and H as G) rolls (12.7.3: F and W hit every side of a hex). The result is
  ``ctx.extra["shelter"]`` (:class:`Shelter`), read by ``advanced_fire.resolve_blast``.
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

if TYPE_CHECKING:
    from hexwar.core.engine.game import Game
    from hexwar.plugins.firepower.advanced_terrain import AdvMap
    from hexwar.plugins.firepower.combat import FireContext

TABLE = Path(__file__).parent / "data" / "advanced" / "openings.toml"
#: the letters whose projectile must pass the opening (Firepower 12.7.3)
LETTERS = ("G", "F", "W")


@cache
def table() -> tuple[dict[str, int], int, int]:
    """(pass number by kind of opening, the range-1 modifier, the modifier per height)."""
    v = load_records(TABLE).values
    mods = v["modifier"]
    return ({str(k): int(n) for k, n in v["pass"].items()}, int(mods["range_1"]),
            int(mods["per_height"]))


@dataclass(frozen=True)
class Gap:
    """An open door or window (or a loophole, or a cave mouth) a projectile may pass: its
    hexes, kind and absolute span."""

    kind: str
    inside: Hex
    outside: Hex
    low: int
    high: int

    def nearest(self, height: int) -> int:
        """Heights from ``height`` to the nearest height of the opening (0 if within)."""
        return 0 if self.low <= height <= self.high else min(abs(height - self.low),
                                                             abs(height - self.high))


@dataclass(frozen=True)
class Room:
    """A shelter a G impact in its hex enters only by its loopholes or mouth (Firepower 12.7.3;
    FPD-148): what it is, the hexsides of its openings, their absolute span, its terrain value
    and the ids of the soldiers inside it."""

    name: str
    kind: str           # "loophole" or "cave" (the pass number's key)
    sides: frozenset[int]
    low: int
    high: int
    terrain_value: int
    inside: frozenset[str]
    floor: int          # the absolute height of its floor


@dataclass(frozen=True)
class Shelter:
    """The opening roll's verdict on a shelter hex: the G burst ``inside`` it or outside it."""

    name: str
    inside: bool
    ids: frozenset[str]
    terrain_value: int
    floor: int


@dataclass(frozen=True)
class OpeningsView:
    """What the step reads of the game's buildings, loopholes and shelters (filled by
    :func:`view`)."""

    map: AdvMap
    states: Mapping[str, str]
    ground: Mapping[Hex, int]
    #: (building hex, floor) -> its loophole hexsides (Firepower 8.2.4) and their span
    loopholes: Mapping[tuple[Hex, int], frozenset[int]] = field(default_factory=dict)
    loophole_span: tuple[int, int] = (1, 2)
    rooms: Mapping[Hex, Room] = field(default_factory=dict)

    def room_gaps(self, impact: Hex, toward: Hex) -> list[Gap]:
        """The loopholes or the mouth of the shelter in ``impact`` on the line toward
        ``toward`` (Firepower 8.8.4.1, 8.8.4.2, 8.8.6, 8.8.7)."""
        r = self.rooms[impact]
        return [Gap(r.kind, impact, impact, r.low, r.high)
                for d in self.map.exits(impact, toward) if d in r.sides]

    def gaps(self, impact: Hex, toward: Hex, floor: int = 1) -> list[Gap]:
        """The open doors and windows on ``floor`` of building hex ``impact`` on the line toward
        ``toward`` (Firepower 8.2.3, 11.1.9: open or broken)."""
        m = self.map
        bd = m.building(impact)
        if bd is None:
            return []
        out = []
        base = self.ground.get(impact, 0) + (floor - 1) * bd.story
        for d in m.exits(impact, toward):
            n = impact.neighbor(d)
            if m.building_of.get(n) == bd.id:
                continue
            o = m.opening(impact, n, floor)
            if o is None and d in self.loopholes.get((impact, floor), ()):
                lo, hi = self.loophole_span  # Firepower 8.2.4: the scenario's loophole
                out.append(Gap("loophole", impact, n, base + lo, base + hi))
                continue
            if o is None or self.states.get(o.key, "open") not in ("open", "broken"):
                continue
            lo, hi = o.span
            out.append(Gap(o.kind, impact, n, base + lo, base + hi))
        return out


def view(game: Game) -> OpeningsView | None:
    """The buildings' openings, loopholes and shelters of ``game`` (None when it has none)."""
    from hexwar.plugins.firepower import loopholes as lh
    from hexwar.plugins.firepower.advanced_terrain import adv_map, ground_of
    from hexwar.plugins.firepower.state import data

    m = adv_map(game)
    rooms = _rooms(game)
    if not m.buildings and not rooms:
        return None
    states = dict(data(game).get("openings") or {})
    ground = {h: ground_of(game, h) for h in m.building_of}
    return OpeningsView(m, {str(k): str(v) for k, v in states.items()}, ground,
                        lh.loopholes(game) if m.buildings else {}, lh.span(), rooms)


#: Firepower 8.8.7: the cave's inside is two heights from its floor to the top of its mouth
CAVE_MOUTH = (0, 2)


def _rooms(game: Game) -> dict[Hex, Room]:
    """The shelters of ``game`` by hex: the standing bunkers, pillboxes and sandbagged towers
    (Firepower 8.8.4.1, 8.8.4.2, 8.8.6) and caves (Firepower 8.8.7)."""
    from hexwar.plugins.firepower.advanced_terrain import adv_map, ground_of
    from hexwar.plugins.firepower.cave_damage import terrain_value as cave_value
    from hexwar.plugins.firepower.defenses import defences, in_defence, types
    from hexwar.plugins.firepower.state import alive

    units = [u for u in game.state.units.values() if u.hex is not None and alive(u)]
    out: dict[Hex, Room] = {}
    for h, d in defences(game).items():
        t = types()[d.code]  # a sandbagged tower's own type (Firepower 8.8.6)
        if t.kind not in ("structure", "tower") or t.loophole is None:
            continue  # an unsandbagged tower has no loopholes: open to a grenade (8.8.6)
        if t.front_only:  # Firepower 8.8.4.2: the pillbox's one loophole, in front
            sides = frozenset({d.front} if d.front is not None else ())
        else:  # Firepower 8.8.4.1, 8.8.6: every hexside but the bunker's door
            sides = frozenset(x for x in range(1, 7) if x != d.door)
        base = ground_of(game, h) + t.floor
        ids = frozenset(u.id for u in units if u.hex == h and in_defence(u) == d.code
                        and not u.state.get("on_top"))
        out[h] = Room(t.name, "loophole", sides, base + t.loophole[0], base + t.loophole[1],
                      int(t.terrain_value), ids, base)
    for h, mouth in adv_map(game).caves.items():
        ids = frozenset(u.id for u in units if u.hex == h and not u.state.get("on_top")
                        and not u.state.get("tunnel"))
        g = ground_of(game, h)
        out[h] = Room("cave", "cave", frozenset({mouth}), g + CAVE_MOUTH[0], g + CAVE_MOUTH[1],
                      cave_value(), ids, g)
    return out


def chance(gap: Gap, height: int, rng: int, *, plus: bool = False) -> tuple[int, int]:
    """(the pass number, the modifier) of a projectile fired from ``height`` at ``rng`` hexes
    through ``gap`` (Firepower 12.7.3; ``plus``: 12.7.5 reversed)."""
    passes, r1, per = table()
    mod = (r1 if rng == 1 else 0) + per * gap.nearest(height)
    return passes[gap.kind], (-mod if plus else mod)


def high_trajectory(ctx: FireContext) -> bool:
    """Firepower 12.4.2: the fire is a mortar's high-trajectory fire (not a light mortar fired
    flat by hand), seen by its firer or by an observer (FPD-151: it comes down from above)."""
    from hexwar.plugins.firepower.advanced_fire import by_hand, firing
    from hexwar.plugins.firepower.weapon_chart import weapon

    if "observer" in ctx.extra:
        return True
    f = firing(ctx)
    try:
        w = weapon(f.item)
    except RulesError:  # a Basic item with no chart row fires flat
        return False
    return w.high_trajectory and not by_hand(w, f)


def step_opening(ctx: FireContext) -> None:
    """Firepower 12.7.3 (see the module): the opening roll of a G, F or W impact in a building
    hex reached through a door or window."""
    from hexwar.plugins.firepower.advanced_fire import firing, letter
    from hexwar.plugins.firepower.advanced_los import soldier_height

    f = firing(ctx)
    v: Any = ctx.extra.get("openings")
    if ctx.impact is None or not isinstance(v, OpeningsView) or letter(f) not in LETTERS:
        return
    if high_trajectory(ctx):
        return  # high-trajectory fire: down on the roof, through no opening
    impact, me = ctx.impact, ctx.firer.hex
    if impact in v.rooms and impact != me:
        if letter(f) == "G":  # the hex holds the opening: G only (Firepower 12.7.3)
            _into_room(ctx, v, impact)
        return
    bd = v.map.building_of.get(impact)
    if bd is None or bd == v.map.building_of.get(me):
        return  # outside, or inside the firer's own building (FPD-61: no inner walls)
    gaps = v.gaps(impact, me)
    if not gaps:
        return
    summary = ctx.extra.setdefault("summary", {})
    own = next((g for g in gaps if g.outside == me), None)
    if own is not None:  # the opening is on the firer's own hex: through without a roll
        summary["opening"] = {"kind": own.kind, "passed": True, "automatic": True,
                              "rule": "Firepower 12.7.3"}
        return
    head = soldier_height(f.world, ctx.firer)
    rng = me.distance(impact)

    def odds(g: Gap) -> int:
        n, mod = chance(g, head, rng, plus=f.location_plus)
        return n - mod

    gap = max(gaps, key=odds)  # the firer's pick (FPD-151): the likeliest
    need, mod = chance(gap, head, rng, plus=f.location_plus)
    r = ctx.roll(f"{f.item} through the {gap.kind} of {ctx.map.label(impact)}")
    final = min(10, max(1, r + mod))
    passed = final <= need
    summary["opening"] = {"kind": gap.kind, "roll": r, "modified": final, "needed": need,
                          "passed": passed, "rule": "Firepower 12.7.3"}
    if not passed:  # on the wall: the impact is in the hex on the firer's side of it
        ctx.impact = gap.outside
        summary["opening"]["impact"] = ctx.map.label(gap.outside)


def _into_room(ctx: FireContext, v: OpeningsView, impact: Hex) -> None:
    """Firepower 12.7.3 (FPD-148): a G impact in a shelter's hex from outside passes one of its
    loopholes (or the cave's mouth) toward the firer, or bursts outside the shelter."""
    from hexwar.plugins.firepower.advanced_fire import firing
    from hexwar.plugins.firepower.advanced_los import soldier_height

    f = firing(ctx)
    room = v.rooms[impact]
    summary = ctx.extra.setdefault("summary", {})
    gaps = v.room_gaps(impact, ctx.firer.hex)
    if not gaps:  # no loophole or mouth faces the firer: it hits the outside
        summary["opening"] = {"kind": None, "passed": False, "outside": room.name,
                              "rule": "Firepower 12.7.3"}
        ctx.extra["shelter"] = Shelter(room.name, False, room.inside, room.terrain_value, room.floor)
        return
    head = soldier_height(f.world, ctx.firer)
    gap = gaps[0]  # one span for all of a shelter's openings: any serves
    need, mod = chance(gap, head, ctx.firer.hex.distance(impact), plus=f.location_plus)
    r = ctx.roll(f"{f.item} through the {room.kind if room.kind == 'loophole' else 'mouth'} "
                 f"of the {room.name} in {ctx.map.label(impact)}")
    final = min(10, max(1, r + mod))
    passed = final <= need
    summary["opening"] = {"kind": gap.kind, "roll": r, "modified": final, "needed": need,
                          "passed": passed, "rule": "Firepower 12.7.3"}
    if not passed:
        summary["opening"]["outside"] = room.name
    ctx.extra["shelter"] = Shelter(room.name, passed, room.inside, room.terrain_value, room.floor)
