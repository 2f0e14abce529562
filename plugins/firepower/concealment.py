"""Concealment of the Advanced Game's places (Firepower 12.2.4): a target inside a building or a
tunnel, or swimming or fording, is concealed (+1 to L fire at him), besides the foxholes, trenches,
scrub, trees, loopholes and hedges that :func:`~hexwar.plugins.firepower.advanced_fire.concealed`
reads from the Basic terrain and the defensive positions.

Inside a building: in a building hex on any of its floors (not on its roof, FPD-178), unless
the hex's walls are destroyed (Firepower 12.3.4.2.7: rubble, cover rather than a building;
docs/decisions.md FPD-159). In the
water: in a water hex and not on a bridge's deck above it (Firepower 11.2.1.1 fording, 11.2.3
swimming; 8.9). A soldier in a tunnel is never fired at (Firepower 8.8.8), but is listed for
completeness.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Iterable

    from hexwar.core.engine.game import Game


def concealed_places(game: Game, among: Iterable[str] | None = None) -> dict[str, str]:
    """Soldier id -> why his place conceals him (Firepower 12.2.4), for those whose place does:
    of every soldier, or only of those ``among`` (the soldiers a shot may reach)."""
    from hexwar.plugins.firepower.advanced_terrain import adv_map, in_tunnel
    from hexwar.plugins.firepower.bridges import on_deck
    from hexwar.plugins.firepower.building_damage import ruined
    from hexwar.plugins.firepower.state import alive

    m = adv_map(game)
    if not (m.buildings or m.water):
        return {}
    gone = ruined(game)
    out: dict[str, str] = {}
    units = game.state.units
    for uid in (units if among is None else [i for i in among if i in units]):
        u = units[uid]
        if u.hex is None or not alive(u):
            continue
        if in_tunnel(u):
            out[uid] = "in a tunnel"
        elif (bd := m.building(u.hex)) is not None and u.state.get("roof") is None \
                and game.board.label(u.hex) not in gone:  # on the roof is not inside (FPD-178)
            out[uid] = f"inside building {bd.id}"
        elif m.is_water(u.hex) and not on_deck(u):
            out[uid] = "swimming" if u.state.get("posture") == "prone" else "fording"
    return out
