"""Concealment of the Advanced Game's places (Firepower 12.2.4): a target inside a building or a
tunnel, or swimming or fording, is concealed (+1 to L fire at him), besides the foxholes, trenches,
scrub, trees, loopholes and hedges that :func:`~hexwar.plugins.firepower.advanced_fire.concealed`
reads from the Basic terrain and the defensive positions.

Inside a building: in a building hex on any of its floors (not on its roof, FPD-178), unless
the hex's walls are destroyed (Firepower 12.3.4.2.7: rubble, cover rather than a building;
docs/decisions.md FPD-159). In the
water: in a water hex and not on a bridge's deck above it (Firepower 11.2.1.1 fording, 11.2.3
swimming; 8.9). In a tunnel 12.2.4 lists too, though no fire reaches a soldier there in hexwar:
the tunnel is under the ground and nothing on the surface sees into it (docs/decisions.md FPD-66).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Iterable

    from hexwar.core.engine.game import Game
    from hexwar.core.hexgrid import Hex


def place_concealment(game: Game, h: Hex, *, posture: str, roof: bool = False,
                      tunnel: bool = False, deck: bool = False) -> str | None:
    """Why a soldier at hex ``h`` is concealed by his place (Firepower 12.2.4), or None: in a
    tunnel, inside a building (not on its roof, FPD-178, nor in a ruined hex, FPD-159), or
    swimming (Prone) or fording in water not on a bridge's deck. The place alone: the fire
    reads it for the soldiers it may reach (:func:`concealed_places`), the AI for a place a
    soldier might take (FPD-179)."""
    from hexwar.plugins.firepower.advanced_terrain import adv_map
    from hexwar.plugins.firepower.building_damage import ruined

    m = adv_map(game)
    if tunnel:
        return "in a tunnel"
    if (bd := m.building(h)) is not None and not roof \
            and game.board.label(h) not in ruined(game):  # on the roof is not inside (FPD-178)
        return f"inside building {bd.id}"
    if m.is_water(h) and not deck:
        return "swimming" if posture == "prone" else "fording"
    return None


def concealed_places(game: Game, among: Iterable[str] | None = None) -> dict[str, str]:
    """Soldier id -> why his place conceals him (Firepower 12.2.4), for those whose place does:
    of every soldier, or only of those ``among`` (the soldiers a shot may reach)."""
    from hexwar.plugins.firepower.advanced_terrain import adv_map, in_tunnel
    from hexwar.plugins.firepower.bridges import on_deck
    from hexwar.plugins.firepower.state import alive

    m = adv_map(game)
    if not (m.buildings or m.water):
        return {}
    out: dict[str, str] = {}
    units = game.state.units
    for uid in (units if among is None else [i for i in among if i in units]):
        u = units[uid]
        if u.hex is None or not alive(u):
            continue
        why = place_concealment(game, u.hex, posture=str(u.state.get("posture", "stand")),
                                roof=u.state.get("roof") is not None, tunnel=in_tunnel(u),
                                deck=on_deck(u))
        if why is not None:
            out[uid] = why
    return out
