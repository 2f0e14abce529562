"""Melee of the Advanced Game (Firepower 13): the Basic melee (Firepower 6.5; hit number 5, the
numbers modifier of 6.5.2 = 13.1) with the Advanced conditions and modifiers, answered through the
hook ``firepower_melee_modifiers`` (a RulesError refuses the melee before anything changes).

* Firepower 13: opposing soldiers meet only if they share at least one height: a soldier spans
  his feet to his head (:func:`span`); FP-61, FP-62;
* 13.2: all defenders Crouching (or Crouching and Prone) -1, all Prone -2; all attackers
  Crouching (or mixed) +1, all Prone +2;
* 13.3: an attacker entering from the rear of every defender -3 (the rear: the three hexsides
  behind a soldier's facing, docs/decisions.md FPD-59, the diagram is not in the text);
* 13.4: all defenders Stunned, Inactive or unarmed -3; all attackers so +3;
* 13.5: all attackers changing height with their last MF into the melee hex: up +1, down -1
  (the ground height of the hexes they come from and enter);
* 13.6: all attackers with bayonets ("Y") and no defender -1; the reverse +1.

Under the ground (Firepower 8.8.8, FPD-98) the same modifiers apply, with no height change; the
soldiers in a tunnel hex are all on its floor. Soldiers in a pillbox or bunker are met only by
attackers coming through its door (Firepower 8.8.4; no melee through loopholes, Firepower 13;
FPD-93).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from hexwar.core.errors import RulesError
from hexwar.core.hexgrid import Hex, opposite
from hexwar.core.types import Modifier, sort_modifiers
from hexwar.plugins.firepower.squads import feet_height, head_height

if TYPE_CHECKING:
    from hexwar.core.engine.game import Game
    from hexwar.core.engine.state import Unit


def span(ground: int, posture: str, up: int | None = None) -> tuple[int, int]:
    """Firepower 13, 10.5.2: the heights a soldier occupies, feet to head."""
    return ground + feet_height(posture, up), ground + head_height(posture, up)


def share_height(a: tuple[int, int], b: tuple[int, int]) -> bool:
    """Firepower 13: two soldiers may melee only if their spans share at least one height."""
    return a[0] <= b[1] and b[0] <= a[1]


def posture_mods(attackers: Sequence[str], defenders: Sequence[str]) -> list[Modifier]:
    """Firepower 13.2 (postures of each side, as lists of posture names)."""
    out: list[Modifier] = []
    for who, postures, sign in (("defenders", defenders, -1), ("attackers", attackers, 1)):
        if postures and all(p == "prone" for p in postures):
            out.append(Modifier(f"all {who} Prone", 2 * sign, "Firepower 13.2"))
        elif postures and all(p in ("crouch", "prone") for p in postures):
            out.append(Modifier(f"all {who} Crouching or Crouching and Prone", sign,
                                "Firepower 13.2"))
    return out


def rear_sides(facing: int) -> tuple[int, ...]:
    """docs/decisions.md FPD-59: a soldier's rear is the hexside behind him and its two
    neighbours."""
    back = opposite(facing)
    return (back, (back % 6) + 1, ((back - 2) % 6) + 1)


def _up(u: Unit) -> int | None:
    v = u.state.get("up")
    return int(v) if isinstance(v, int) else None


def _check_door(game: Game, att: Sequence[Unit], dfn: Sequence[Unit], dest: Hex) -> None:
    """Firepower 8.8.4, 13: soldiers in a bunker or pillbox are met only through its door (no
    melee through loopholes): every attacker crosses the door's hexside into the hex."""
    from hexwar.plugins.firepower.defenses import defences, in_defence

    d = defences(game).get(dest)
    if d is None or d.door is None or not any(in_defence(u) for u in dfn):
        return
    # FPD-114: with some defenders outside the structure too, the melee is still refused: its
    # result reaches every defender in the hex (Firepower 6.5.1), those inside included
    mixed = not all(in_defence(u) for u in dfn)
    for u in att:
        assert u.hex is not None
        toward = u.hex.direction_to(dest)
        if toward is None or opposite(toward) != d.door:
            raise RulesError(f"the soldiers in the {d.type.name} in {game.board.label(dest)} are "
                             f"met only through its door on hexside {d.door}; {u.id} would "
                             "melee through a loophole"
                             + (" (a melee in the hex meets those inside it too)"
                                if mixed else ""), rule="Firepower 8.8.4")


def _arrivals(game: Game, attackers: Sequence[str], dest: Hex) -> dict[str, int]:
    """Firepower 8.9: the height above ``dest``'s ground at which each attacker arrives on a
    bridge's deck or under it, by where he comes from (docs/decisions.md FPD-125)."""
    from hexwar.plugins.firepower.bridges import lift_after

    out: dict[str, int] = {}
    for a in attackers:
        u = game.state.units[a]
        lift = lift_after(game, u, u.hex, dest) if u.hex is not None else None
        if lift is not None:
            out[a] = lift
    return out


def _spans(game: Game, ids: Sequence[str], dest: Hex,
           at: Mapping[str, int] | None = None,
           arrive: Mapping[str, int] | None = None) -> list[tuple[int, int]]:
    """Firepower 13: each soldier's span of heights, as if on ``dest``'s ground (his floor, his
    foxhole, his Up height: FPD-54; ``at``: an attacker's feet above the ground, FPD-110;
    ``arrive``: an attacker's level on a bridge, FPD-125)."""
    from hexwar.plugins.firepower.advanced_los import los_world

    world = los_world(game)
    g_dest = world.ground(dest)
    out = []
    for uid in ids:
        u = game.state.units[uid]
        if at is not None and uid in at:
            base = g_dest + int(at[uid])
        elif arrive is not None and uid in arrive:
            base = g_dest + arrive[uid]
        else:
            base = g_dest + int(world.raised.get(uid, 0))
        out.append(span(base, str(u.state.get("posture", "stand")), _up(u)))
    return out


def met_defenders(game: Game, attackers: Sequence[str], defenders: Sequence[str],
                  dest: Hex) -> list[str]:
    """Firepower 13 (docs/decisions.md FPD-131): the defenders who share a height with at least
    one attacker; the others (a tower's floor, Up a tree) are not in the melee: not counted
    (6.5.2, 13.1) and not eliminated (6.5.1). None shared: refused, naming the rule."""
    att = _spans(game, attackers, dest, arrive=_arrivals(game, attackers, dest))
    met = [d for d, sp in zip(defenders, _spans(game, defenders, dest), strict=True)
           if any(share_height(a, sp) for a in att)]
    if not met:
        raise RulesError("no attacker shares a height with a defender in "
                         f"{game.board.label(dest)}: no melee is possible", rule="Firepower 13")
    return met


def melee_modifiers(game: Game, attackers: Sequence[str], defenders: Sequence[str],
                    dest: Hex, *, at: Mapping[str, int] | None = None,
                    rise: int | None = None) -> list[Modifier]:
    """Hook ``firepower_melee_modifiers`` of the Advanced Game (see the module docstring).

    A melee inside one hex (a tower's stairs, docs/decisions.md FPD-110) gives ``at``, the
    heights above the ground the attackers' feet reach, and ``rise``, the height every attacker
    changed with his last MF (Firepower 13.5): no hexside is crossed, so no door or rear."""
    from hexwar.plugins.firepower.advanced_los import los_world
    from hexwar.plugins.firepower.weapon_chart import weapon

    units = game.state.units
    world = los_world(game)
    g_dest = world.ground(dest)
    att = [units[a] for a in attackers]
    dfn = [units[d] for d in defenders]
    # Firepower 8.9: a bridge puts each attacker on the deck or under it in the hex he enters,
    # by where he comes from (docs/decisions.md FPD-125)
    arrive = _arrivals(game, attackers, dest) if at is None else {}

    # Firepower 13: at least one attacker and one defender share a height
    att_spans = _spans(game, attackers, dest, at, arrive)
    dfn_spans = _spans(game, defenders, dest, at)
    if not any(share_height(a, d) for a in att_spans for d in dfn_spans):
        raise RulesError("no attacker shares a height with a defender in "
                         f"{world.map.label(dest)}: no melee is possible", rule="Firepower 13")
    if rise is None:
        _check_door(game, att, dfn, dest)
    mods = posture_mods([str(u.state.get("posture", "stand")) for u in att],
                        [str(u.state.get("posture", "stand")) for u in dfn])
    # Firepower 13.3: an attacker enters across a hexside at the rear of every defender
    for u in att if rise is None else ():
        assert u.hex is not None
        side = u.hex.direction_to(dest) or u.facing
        entering = opposite(side)  # the defenders' hexside the attacker crosses
        if dfn and all(entering in rear_sides(d.facing) for d in dfn):
            mods.append(Modifier(f"{u.id} enters from the rear of every defender", -3,
                                 "Firepower 13.3"))
            break

    def helpless(u: Unit) -> bool:
        return u.state.get("status") in ("stunned", "inactive") or not u.state.get("model")

    if dfn and all(helpless(u) for u in dfn):
        mods.append(Modifier("all defenders Stunned, Inactive or unarmed", -3, "Firepower 13.4"))
    if att and all(helpless(u) for u in att):
        mods.append(Modifier("all attackers Stunned, Inactive or unarmed", 3, "Firepower 13.4"))
    # Firepower 13.5: the last MF changed every attacker's height; under the ground a tunnel is
    # one height high everywhere and nobody climbs in it (docs/decisions.md FPD-98)
    below = bool(att) and all(u.state.get("tunnel") for u in att)
    rises = [] if below else [
        g_dest + arrive[u.id] - world.ground(u.hex) - int(world.raised.get(u.id, 0))
        if u.id in arrive else g_dest - world.ground(u.hex)  # Firepower 8.9: from a deck
        for u in att if u.hex is not None]
    if rise is not None:  # up or down the stairs inside the hex (FPD-110)
        rises = [rise] * len(att)
    if rises and all(r > 0 for r in rises):
        mods.append(Modifier("all attackers move up into the melee", 1, "Firepower 13.5"))
    elif rises and all(r < 0 for r in rises):
        mods.append(Modifier("all attackers move down into the melee", -1, "Firepower 13.5"))

    def bayonet(u: Unit) -> bool:
        model = u.state.get("model")
        return isinstance(model, str) and weapon(model).bayonet

    if att and dfn:
        if all(bayonet(u) for u in att) and not any(bayonet(u) for u in dfn):
            mods.append(Modifier("all attackers have bayonets, no defender", -1,
                                 "Firepower 13.6"))
        elif all(bayonet(u) for u in dfn) and not any(bayonet(u) for u in att):
            mods.append(Modifier("all defenders have bayonets, no attacker", 1,
                                 "Firepower 13.6"))
    return sort_modifiers(mods)
