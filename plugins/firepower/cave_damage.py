"""Blast damage to caves (Firepower 12.3.4.2, Firepower 12.3.4.2.2).

A cave (Firepower 8.8.7, the terrain file's ``[[cave]]``) has a terrain value, a stand-in
(``data/advanced/caves.toml``, ``estimated``; docs/decisions.md FPD-145). A G impact in the cave
hex (or H used as G, Firepower 12.3.5.2; W also in its blast zone, Firepower 12.3.9; a demolition
charge, Firepower 12.4.9; a PMN1 mine, Firepower 12.4.4.1.1, through
:func:`~hexwar.plugins.firepower.advanced_fire.mine_applied`; a PMN2's canister damages no
terrain, Firepower 12.3.2.2) adds its penetration to the hex's damage
(``state.data["firepower"]["cave_damage"]``, by label). When the sum reaches the value the cave is
destroyed (Firepower 12.3.4.2.2):

* the hex is no longer a cave: its label joins ``caves_destroyed``, which the game's own copy of
  the Advanced terrain reads (:func:`~hexwar.plugins.firepower.advanced_terrain.adv_map`; the
  board's shared map is never changed), so it is neither a confined or roofed place
  (Firepower 12.4.2, 12.4.3) nor a way into a tunnel (Firepower 8.8.8);
* it is rubble (the Advanced fire's ``destroyed`` marker: cover in every direction, Firepower
  12.2.3) at the hex's own ground height: the hill three heights higher that a standing cave is
  for those outside (Firepower 8.8.7; :mod:`~hexwar.plugins.firepower.caves`, FPD-150) goes
  with the cave, since the game's map no longer lists it;
* every soldier in the hex, inside the cave or on top of it, is eliminated; one in a tunnel
  under the hex is not (he is under the ground, Firepower 8.8.8).

The tunnel behind the cave and the defender's secret record of it stay (FPD-146): soldiers in it
live, and leave it only by another cave. The attacker's notes of what 11.5 told him lose the
cave (it is rubble for everyone to see). Caves have no box on the Holding Box Card (FPD-168).
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from hexwar.core.hexgrid import Hex
from hexwar.core.provenance import load_records

if TYPE_CHECKING:
    from hexwar.core.engine.game import Game
    from hexwar.plugins.firepower.combat import FireContext

TABLE = Path(__file__).parent / "data" / "advanced" / "caves.toml"
DAMAGE = "cave_damage"
RULE = "Firepower 12.3.4.2.2"


@cache
def terrain_value() -> int:
    """A cave's terrain value (a stand-in, FPD-145)."""
    return int(load_records(TABLE).values["cave"]["terrain_value"])


def destroyed_caves(game: Game) -> frozenset[str]:
    """The labels of the caves fire has destroyed."""
    from hexwar.plugins.firepower.advanced_terrain import CAVES_DESTROYED
    from hexwar.plugins.firepower.state import data

    return frozenset(str(x) for x in data(game).get(CAVES_DESTROYED) or ())


def damage(game: Game, h: Hex, penetration: int) -> bool:
    """Firepower 12.3.4.2: ``penetration`` more damage to the cave of ``h`` (noted in the
    state); returns True when this destroys it (:func:`destroy`). Nothing for a hex with no
    standing cave or no penetration."""
    from hexwar.plugins.firepower.advanced_terrain import adv_map
    from hexwar.plugins.firepower.state import data

    if penetration <= 0 or h not in adv_map(game).caves:
        return False
    d = data(game)
    label = game.board.label(h)
    dmg = dict(d.get(DAMAGE) or {})
    dmg[label] = int(dmg.get(label, 0)) + penetration
    d[DAMAGE] = dmg
    if dmg[label] < terrain_value():
        return False
    destroy(game, h)
    return True


def destroy(game: Game, h: Hex) -> list[str]:
    """Firepower 12.3.4.2.2: the cave of ``h`` becomes rubble at the hex's own height and every
    soldier in the hex (inside or on top; not one in a tunnel under it) is eliminated. Returns the
    eliminated soldiers' ids."""
    from hexwar.plugins.firepower.advanced_terrain import CAVES_DESTROYED
    from hexwar.plugins.firepower.state import alive, data, eliminate

    d = data(game)
    label = game.board.label(h)
    d[CAVES_DESTROYED] = sorted({*(d.get(CAVES_DESTROYED) or []), label})
    d["destroyed"] = {**(d.get("destroyed") or {}), label: "rubble"}
    _forget_told(game, label)
    dead = [u.id for u in sorted(game.state.units.values(), key=lambda u: u.id)
            if u.hex == h and alive(u) and not u.state.get("tunnel")]
    game.emit("terrain_destroyed", hex=label, was="cave", becomes="rubble", rule=RULE)
    for uid in dead:
        eliminate(game, uid, None, RULE)
    return dead


def _forget_told(game: Game, label: str) -> None:
    """Firepower 11.5: a side's notes of the cave told to it go; the rubble is public."""
    from hexwar.plugins.firepower.state import data

    for rec in (data(game).get("secret") or {}).values():
        told = rec.get("tunnels_known") if isinstance(rec, dict) else None
        if isinstance(told, dict) and (told.get(label) or {}).get("kind") == "cave":
            del told[label]


def after_fire(game: Game, ctx: FireContext) -> None:
    """The cave damage of one Advanced fire or explosion (called from
    :func:`~hexwar.plugins.firepower.advanced_fire.applied`, and from
    :func:`~hexwar.plugins.firepower.advanced_fire.mine_applied` for a mine): the impact hex,
    and for W its blast zone (``advanced_fire.damaged_hexes``), as the buildings'."""
    from hexwar.plugins.firepower.advanced_fire import damaged_hexes, firing, letter, penetration
    from hexwar.plugins.firepower.advanced_terrain import adv_map
    from hexwar.plugins.firepower.weapon_chart import weapon

    if ctx.impact is None or ctx.kind != "grenade" or not adv_map(game).caves:
        return
    f = firing(ctx)
    if letter(f) not in ("G", "W"):
        return
    w = weapon(f.item)
    pen = penetration(f, w)
    done: dict[str, Any] = {}
    for h in damaged_hexes(f, w, ctx.impact):
        if damage(game, h, pen):
            done[game.board.label(h)] = "rubble"
    if done:
        ctx.extra.setdefault("summary", {})["caves_destroyed"] = done
