"""Blast damage to buildings (Firepower 12.3.4.2, Firepower 12.3.4.2.7).

A G impact (or H used as G, Firepower 12.3.5.2; W also in its blast zone, Firepower 12.3.9; a
demolition charge, Firepower 12.4.9; a mine, Firepower 12.4.4) in a building hex adds its
penetration number to the hex's damage (``state.data["firepower"]["building_damage"]``, by hex
label): every wall of the hex, on every story, is damaged equally. Each part goes when the sum
reaches its terrain value (``data/advanced/building_values.toml``, stand-ins, FPD-156):

* the hex's doors and windows (any floor) become permanently open (``broken``, as a door broken
  open by Firepower 11.1.10: it cannot be closed again);
* the roof: the hex is ``roofless`` (no longer a covered structure for mortars, Firepower 12.4.2;
  :mod:`~hexwar.plugins.firepower.confined_fire`), and every soldier on it is eliminated;
* the walls: the hex is ``ruined``: its floors collapse, so every soldier on an upper story of
  the hex is eliminated (Firepower 12.3.4.2.7), and so is every soldier part way up one of
  its outer walls from outside (FPD-156), its walls no longer block a line of sight
  (:func:`~hexwar.plugins.firepower.advanced_terrain.wall_block`) and it is rubble (cover in every
  direction, Firepower 12.3.4.2.5).

A and H fired as armour-piercing do no permanent damage (Firepower 12.3.1.2).
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from hexwar.core.hexgrid import Hex
from hexwar.core.provenance import load_records

if TYPE_CHECKING:
    from hexwar.core.engine.game import Game
    from hexwar.core.engine.state import Unit
    from hexwar.plugins.firepower.combat import FireContext

TABLE = Path(__file__).parent / "data" / "advanced" / "building_values.toml"
DAMAGE = "building_damage"
ROOFLESS = "roofless"
RUINED = "ruined"


@cache
def values() -> dict[str, int]:
    """The terrain value of each part (window, door, roof, wall)."""
    return {str(k): int(v) for k, v in load_records(TABLE).values["default"].items()}


def ruined(game: Game) -> frozenset[str]:
    """The labels of building hexes whose walls are destroyed."""
    from hexwar.plugins.firepower.state import data

    got = data(game).get(RUINED)
    return frozenset(str(h) for h in got) if got else frozenset()


def damage(game: Game, h: Hex, penetration: int) -> list[str]:
    """Add ``penetration`` to building hex ``h``'s damage; returns the parts destroyed by it."""
    from hexwar.plugins.firepower.advanced_terrain import adv_map, floor_of
    from hexwar.plugins.firepower.state import alive, data, eliminate

    m = adv_map(game)
    if m.building(h) is None or penetration <= 0:
        return []
    d = data(game)
    label = game.board.label(h)
    dmg = dict(d.get(DAMAGE) or {})
    before = int(dmg.get(label, 0))
    now = before + penetration
    dmg[label] = now
    d[DAMAGE] = dmg
    tv = values()
    gone: list[str] = []
    states = dict(d.get("openings") or {})
    for o in m.openings_of(h):
        if o.inside == h and before < tv[o.kind] <= now and states.get(o.key) != "broken":
            states[o.key] = "broken"  # permanently open (Firepower 12.3.4.2.7)
            gone.append(o.kind)
    if gone:
        d["openings"] = states
    units = sorted(game.state.units.values(), key=lambda u: u.id)
    if before < tv["roof"] <= now:
        d[ROOFLESS] = sorted({*(d.get(ROOFLESS) or []), label})
        gone.append("roof")
        for u in units:  # the roof goes from under those on it
            if u.hex == h and alive(u) and u.state.get("roof") is not None:
                eliminate(game, u.id, None, "Firepower 12.3.4.2.7")
    if before < tv["wall"] <= now:
        d[RUINED] = sorted({*(d.get(RUINED) or []), label})
        d["destroyed"] = {**(d.get("destroyed") or {}), label: "rubble"}
        gone.append("walls")
        for u in units:
            if not alive(u) or u.hex is None or u.state.get("tunnel"):
                continue
            if u.hex == h and floor_of(u) > 1:
                eliminate(game, u.id, None, "Firepower 12.3.4.2.7")  # the floor collapses
            elif _up_its_wall(u, h):
                eliminate(game, u.id, None, "Firepower 12.3.4.2.7")  # the wall he is up
    if gone:
        game.emit("building_damaged", hex=label, destroyed=gone, damage=now,
                  rule="Firepower 12.3.4.2.7")
    return gone


def _up_its_wall(u: Unit, h: Hex) -> bool:
    """Whether soldier ``u`` is part way up (or down) an outer wall of building hex ``h``
    (``climbing.py``'s record: the hexside of his hex he climbs, Firepower 11.1.11.2)."""
    climb = u.state.get("climb")
    if not isinstance(climb, dict) or u.hex is None:
        return False
    side = climb.get("side")
    return isinstance(side, int) and 1 <= side <= 6 and u.hex.neighbor(side) == h


def after_fire(game: Game, ctx: FireContext) -> None:
    """The building damage of one Advanced fire or explosion (called from
    :func:`~hexwar.plugins.firepower.advanced_fire.applied`, and from
    :func:`~hexwar.plugins.firepower.advanced_fire.mine_applied` for a PMN1 mine,
    Firepower 12.3.4.2.7)."""
    from hexwar.plugins.firepower.advanced_fire import damaged_hexes, firing, letter, penetration
    from hexwar.plugins.firepower.advanced_terrain import adv_map
    from hexwar.plugins.firepower.weapon_chart import weapon

    if ctx.impact is None or ctx.kind != "grenade":
        return
    f = firing(ctx)
    if letter(f) not in ("G", "W"):
        return
    m = adv_map(game)
    if not m.buildings:
        return
    w = weapon(f.item)
    pen = penetration(f, w)
    done: dict[str, Any] = {}
    for h in damaged_hexes(f, w, ctx.impact):
        got = damage(game, h, pen)
        if got:
            done[game.board.label(h)] = got
    if done:
        ctx.extra.setdefault("summary", {})["building_damage"] = done
