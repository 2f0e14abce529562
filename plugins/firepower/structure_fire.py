"""Armour-piercing fire at structures and the shotgun as extra equipment.

* Firepower 12.3.1.2: "A" fire (and H fired as armour-piercing, 12.3.5.1) at a bunker, pillbox
  or tower: a hit compares the weapon's penetration number with the structure's terrain value
  (``data/advanced/defenses.toml``; estimated, FPD-112). Less: a miss. Equal or more: the "A"
  (or H) blast hit number is rolled against every soldier inside it (not those outside it in
  its hex, nor those on its top), with no blast zone; whom it misses is Stunned. A and H do no
  permanent damage. The structure is aimed at when the target hex has one (before any fence of
  the hex; docs/decisions.md FPD-153).
* Firepower 12.4.5: a soldier carrying a shotgun (``SHG`` or ``SHG1`` among his equipment,
  Firepower 8.5) may fire it instead of his major personal weapon: the fire Action's
  ``"item": "SHG1"`` (the WEAPON CHART row SHG1, its numbers stand-ins).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from hexwar.core.errors import RulesError
from hexwar.core.hexgrid import Hex
from hexwar.core.types import Modifier, sort_modifiers

if TYPE_CHECKING:
    from hexwar.core.engine.game import Game
    from hexwar.plugins.firepower.advanced_fire import Firing
    from hexwar.plugins.firepower.combat import FireContext
    from hexwar.plugins.firepower.weapon_chart import ChartWeapon

#: the structures A and H fire blasts inside of (Firepower 12.3.1.2)
STRUCTURES = ("BKR", "PBX", "TWR")
#: the equipment names of a shotgun (Firepower 8.5, 12.4.5) and its WEAPON CHART row
SHOTGUN_KEYS = ("SHG", "SHG1")
SHOTGUN_ROW = "SHG1"


def structures(game: Game) -> dict[Hex, tuple[str, str, int]]:
    """Hex -> (code, name, terrain value) of the standing bunkers, pillboxes and towers."""
    from hexwar.plugins.firepower.defenses import defences

    return {h: (d.type.code.split("+")[0], d.type.name, int(d.type.terrain_value))
            for h, d in defences(game).items() if d.type.code.split("+")[0] in STRUCTURES}


def at(ctx: FireContext) -> tuple[str, str, int] | None:
    """The structure of the target hex this A or H fire aims at, if any."""
    got: Any = ctx.extra.get("structures") or {}
    if ctx.target_hex is None or not isinstance(got, Mapping):
        return None
    s = got.get(ctx.target_hex)
    return s if isinstance(s, tuple) else None


def blast_inside(ctx: FireContext, f: Firing, w: ChartWeapon, pen: int,
                 structure: tuple[str, str, int]) -> None:
    """Firepower 12.3.1.2 (see the module): the penetration test and the blast inside."""
    from hexwar.plugins.firepower import combat
    from hexwar.plugins.firepower.advanced_fire import blast_target_mods

    code, name, tv = structure
    if pen < tv:
        ctx.outcome = f"hit; penetration {pen} < the {name}'s terrain value {tv}: no effect"
        return
    b = w.blast_of(f.ammo)
    card = f.world.card
    for s in sorted(ctx.soldiers.values(), key=lambda s: s.id):
        pos = f.positions.get(s.id) or ""
        if s.hex != ctx.impact or pos.split("+")[0] != code:
            continue
        # inside the penetrated walls: no cover from them, posture and armour still count
        mods: list[Modifier] = [Modifier(f"inside the penetrated {name}", 0,
                                         "Firepower 12.3.1.2")]
        mods.extend(blast_target_mods(card, s, None))
        if s.id in f.armour:
            mods.append(Modifier("body armour", card.mod("body_armour"), "Firepower 12.4.8"))
        mods = sort_modifiers(mods)
        ctx.modifiers[s.id] = mods
        combat.blast_on(ctx, s, mods, b, label=f"{f.item} blast inside the {name} on {s.id}",
                        distance=0)  # the missed are Stunned (Firepower 12.3.1.2)
    ctx.extra.setdefault("summary", {})["structure"] = {
        "structure": name, "penetration": pen, "terrain_value": tv, "rule": "Firepower 12.3.1.2"}


def fire_item(model: str, equipment: Mapping[str, int], choice: Mapping[str, Any]) -> str:
    """Firepower 12.4.5: the row a fire Action fires: ``choice["item"]`` if it names the
    shotgun he carries or his own weapon, else his major personal weapon."""
    asked = choice.get("item")
    if asked is None or asked == model:
        return model
    if asked in SHOTGUN_KEYS:
        if any(int(equipment.get(k, 0)) > 0 for k in SHOTGUN_KEYS):
            return SHOTGUN_ROW
        raise RulesError("he carries no shotgun (SHG) to fire", rule="Firepower 12.4.5")
    raise RulesError(f"a fire Action fires the major personal weapon ({model}) or a shotgun "
                     f"carried, not {asked!r}", rule="Firepower 12.4.5")
