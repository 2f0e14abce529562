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
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

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
    """An open door or window a projectile may pass: its hexes, kind and absolute span."""

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
class OpeningsView:
    """What the step reads of the game's buildings (filled by :func:`view`)."""

    map: AdvMap
    states: Mapping[str, str]
    ground: Mapping[Hex, int]

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
            if o is None or self.states.get(o.key, "open") not in ("open", "broken"):
                continue
            lo, hi = o.span
            out.append(Gap(o.kind, impact, n, base + lo, base + hi))
        return out


def view(game: Game) -> OpeningsView | None:
    """The buildings' openings of ``game`` (None when the board has no building)."""
    from hexwar.plugins.firepower.advanced_terrain import adv_map, ground_of
    from hexwar.plugins.firepower.state import data

    m = adv_map(game)
    if not m.buildings:
        return None
    states = dict(data(game).get("openings") or {})
    ground = {h: ground_of(game, h) for h in m.building_of}
    return OpeningsView(m, {str(k): str(v) for k, v in states.items()}, ground)


def chance(gap: Gap, height: int, rng: int, *, plus: bool = False) -> tuple[int, int]:
    """(the pass number, the modifier) of a projectile fired from ``height`` at ``rng`` hexes
    through ``gap`` (Firepower 12.7.3; ``plus``: 12.7.5 reversed)."""
    passes, r1, per = table()
    mod = (r1 if rng == 1 else 0) + per * gap.nearest(height)
    return passes[gap.kind], (-mod if plus else mod)


def step_opening(ctx: FireContext) -> None:
    """Firepower 12.7.3 (see the module): the opening roll of a G, F or W impact in a building
    hex reached through a door or window."""
    from hexwar.plugins.firepower.advanced_fire import firing, letter
    from hexwar.plugins.firepower.advanced_los import soldier_height

    f = firing(ctx)
    v: Any = ctx.extra.get("openings")
    if ctx.impact is None or not isinstance(v, OpeningsView) or letter(f) not in LETTERS:
        return
    if "observer" in ctx.extra:
        return  # high-trajectory fire: down on the roof, through no opening
    impact, me = ctx.impact, ctx.firer.hex
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
