"""MBT 12.6 Smoke Dischargers (Advanced Game): discharger smoke (DS) around one vehicle.

A vehicle whose card lists DS smoke makers (``data/advanced/vehicles.csv``, stand-in), which has
not used them yet and has no turret compartment hit, may discharge them once per game (MBT 12.6,
12.6.2) during its side's portion of a Fire Phase step that is not simultaneous (MBT 12.6.1: in
the Advanced Game, the Close Assault Step, MBT 11.3.1). The smoke (DS) marker covers only that
vehicle while it stays in the hex (MBT 12.6.3): the "other smoke" modifier of MBT 14.3.1.1.1
applies to shots at it and from it only. It goes when the vehicle leaves the hex (MBT 11.4.1) and
in the Adjust Markers Step (MBT 16.3.1).

``game.state.data["mbt"]["smoke_ds"]``: unit id -> the hex label it discharged in (public).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from hexwar.core.engine.state import Unit
from hexwar.plugins.mbt.advanced_tables import load_advanced
from hexwar.plugins.mbt.state import alive, card_of, data

if TYPE_CHECKING:
    from hexwar.core.engine.game import Game


def can_discharge(game: Game, u: Unit) -> str | None:
    """Why ``u`` may not discharge smoke now (None if it may): MBT 12.6, 12.6.2."""
    if not alive(u):
        return f"{u.id} is not on the map"
    card = card_of(game, u)
    if load_advanced().smoke_ds.get(card.name, 0) <= 0:
        return f"{u.id} ({card.name}) has no smoke dischargers (MBT 12.6)"
    if u.state.get("ds_used"):
        return f"{u.id} has used its smoke dischargers already; they work once a game (MBT 12.6.2)"
    if u.state["damage"].get("compartment") == "turret":
        return f"{u.id} has a turret compartment hit (MBT 12.6)"
    return None


def discharge(game: Game, u: Unit) -> None:
    """MBT 12.6.2-12.6.3: note the use and place the smoke (DS) marker with the vehicle."""
    assert u.hex is not None
    u.state["ds_used"] = True
    label = game.board.label(u.hex)
    data(game).setdefault("smoke_ds", {})[u.id] = label
    game.emit("smoke_discharged", unit=u.id, hex=label, rule="MBT 12.6.3")


def covered(game: Game, u: Unit) -> bool:
    """MBT 12.6.3, 11.4.1: the vehicle is covered by its own discharger smoke (it has not left the
    hex it discharged in)."""
    label = data(game).get("smoke_ds", {}).get(u.id)
    return label is not None and u.hex is not None and game.board.label(u.hex) == label


def adjust_markers(game: Game) -> None:
    """MBT 16.3.1: every smoke (DS) marker is removed."""
    data(game)["smoke_ds"] = {}
