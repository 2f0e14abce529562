"""MBT 12.6 Smoke Dischargers and MBT 15.7 exhaust smoke (Advanced Game).

A vehicle whose card lists DS smoke makers (``data/advanced/vehicles.csv``, stand-in), which has
not used them yet and has no turret compartment hit, may discharge them once per game (MBT 12.6,
12.6.2) during its side's portion of a Fire Phase step that is not simultaneous (MBT 12.6.1: in
the Advanced Game, the Close Assault Step, MBT 11.3.1). The smoke (DS) marker covers only that
vehicle while it stays in the hex (MBT 12.6.3): the "other smoke" modifier of MBT 14.3.1.1.1
applies to shots at it and from it only. It goes when the vehicle leaves the hex (MBT 11.4.1) and
in the Adjust Markers Step (MBT 16.3.1).

``game.state.data["mbt"]["smoke_ds"]``: unit id -> the hex label it discharged in (public).

Exhaust smoke (MBT 15.7): a vehicle with EX smoke makers (stand-in list) and no hull compartment
hit may lay smoke (ON) markers, three times a game, in a continuous track of the hexes it left in
its move (start hex included, final hex not; its own hex if it entered none). The player chooses
the track when the move is done (docs/decisions.md MBTD-57). Smoke (ON) turns OFF in the Adjust
Markers Step and OFF goes in the next (MBT 16.3.1-16.3.2); one marker per hex, ON replacing OFF
(MBT 12.9.3). A smoke hex never blocks a line of sight (MBT 13.2.1): each one the line leaves,
enters or passes through is -10 to AP fire (MBT 14.3.1.1.1).
``game.state.data["mbt"]["smoke"]``: hex label -> "ON" or "OFF" (public).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from hexwar.core.engine.state import Unit
from hexwar.core.hexgrid import Hex, trace
from hexwar.plugins.mbt.advanced_tables import load_advanced
from hexwar.plugins.mbt.orders import seen_by
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
    game.emit("smoke_discharged", visible_to=seen_by(game, [u]), unit=u.id, hex=label,
              rule="MBT 12.6.3")


def covered(game: Game, u: Unit) -> bool:
    """MBT 12.6.3, 11.4.1: the vehicle is covered by its own discharger smoke (it has not left the
    hex it discharged in)."""
    label = data(game).get("smoke_ds", {}).get(u.id)
    return label is not None and u.hex is not None and game.board.label(u.hex) == label


def adjust_markers(game: Game) -> None:
    """MBT 16.3.1: every smoke (DS) marker is removed."""
    data(game)["smoke_ds"] = {}


# -- MBT 15.7: exhaust smoke; MBT 12.9, 16.3: smoke (ON) and (OFF) markers ----------------------

EX_USES = 3  # MBT 15.7.2


def smoke_markers(game: Game) -> dict[str, str]:
    """Smoke markers by hex label: ``"ON"`` or ``"OFF"`` (public; MBT 12.9)."""
    # a read: asking (an AI's look through its view) must not change the state, or a replay,
    # which asks nothing, would not reach the same state hash
    got: dict[str, str] = data(game).get("smoke", {})
    return got


def _markers_to_change(game: Game) -> dict[str, str]:
    got: dict[str, str] = data(game).setdefault("smoke", {})
    return got


def can_lay_exhaust(game: Game, u: Unit) -> str | None:
    """Why ``u`` may not lay exhaust smoke on this move (None if it may): MBT 15.7, 15.7.2 (any
    movement orders, each vehicle on its own, MBT 15.7.1)."""
    card = card_of(game, u)
    if load_advanced().smoke_ex.get(card.name, 0) <= 0:
        return f"{u.id} ({card.name}) has no exhaust smoke generator (MBT 15.7)"
    if int(u.state.get("ex_used", 0)) >= EX_USES:
        return f"{u.id} has used its exhaust smoke three times (MBT 15.7.2)"
    if u.state["damage"].get("compartment") == "hull":
        return f"{u.id} has a hull compartment hit (MBT 15.7)"
    return None


def exhaust_tracks(labels: list[str]) -> list[list[str]]:
    """MBT 15.7.3: the continuous tracks smoke may be laid in, from the hexes the vehicle left in
    order (its start hex first); with no hex left, its one hex."""
    n = len(labels)
    return [labels[i:j] for i in range(n) for j in range(i + 1, n + 1)]


def lay_smoke(game: Game, u: Unit, hexes: list[str]) -> None:
    """MBT 15.7.2-15.7.3, 12.9.3: one use; a smoke (ON) marker in each hex (one ON per hex, an ON
    replacing an OFF)."""
    u.state["ex_used"] = int(u.state.get("ex_used", 0)) + 1
    markers = _markers_to_change(game)
    for lab in hexes:
        markers[lab] = "ON"
    game.emit("exhaust_smoke", visible_to=seen_by(game, [u]), unit=u.id, hexes=list(hexes),
              uses=u.state["ex_used"], rule="MBT 15.7.3")


def smoke_height(game: Game) -> int:
    """MBT 12.1.4: how high smoke stands above its hex's ground (the STANDARD TERRAIN VALUES
    CHART, stand-in; a scenario's ``[special] heights`` may set ``smoke``)."""
    from hexwar.plugins.mbt.advanced_sighting import special

    own = special(game).get("heights", {})
    if isinstance(own, dict) and "smoke" in own:
        return int(own["smoke"])
    return load_advanced().obstacle["smoke"].value


def _through(game: Game, a: Hex, ha: int, b: Hex, hb: int, h: Hex, top: int) -> bool:
    """MBT 12.1.4, 13.2.1: whether the line from height ``ha`` in ``a`` to ``hb`` in ``b`` runs
    through smoke whose top is at height ``top`` in the intervening hex ``h``: smoke that would
    block the line were it terrain is passed through; a line above its top is not (the same
    test as a terrain obstacle, the LINE OF SIGHT CHART for one between the ends' heights)."""
    from hexwar.plugins.mbt.advanced_sighting import chart_verdict

    hi, lo = max(ha, hb), min(ha, hb)
    if top > hi or (top == hi and top > lo):
        return True
    if top <= lo:
        return False
    numbers, _line = load_advanced().los_cell(hi - lo, a.distance(b), hi - top)
    clear, _hd = chart_verdict(numbers, (a if ha >= hb else b).distance(h))
    return not clear


def smoke_hexes_on_line(game: Game, a: Hex, b: Hex, ha: int | None = None,
                        hb: int | None = None) -> int:
    """MBT 14.3.1.1.1: the hexes (or hexsides) with a smoke (ON or OFF) marker that the line from
    ``a`` to ``b`` leaves, enters or passes through; a line down the hexside of two smoke hexes
    counts one (MBT 13.2.1). With the ends' heights ``ha`` and ``hb``, smoke in an intervening
    hex counts only where the line runs through it, not over its top (MBT 12.1.4)."""
    markers = smoke_markers(game)
    if not markers:
        return 0
    from hexwar.plugins.mbt.advanced_sighting import hex_heights

    smoky = {game.board.parse(lab) for lab in markers}
    tall: int | None = None
    count = 0
    for st in trace(a, b).steps:
        here = [h for h in st.hexes if h in smoky]
        if not here:
            continue
        if ha is None or hb is None or any(h in (a, b) for h in here):
            count += 1
            continue
        if tall is None:
            tall = smoke_height(game)
        if any(_through(game, a, ha, b, hb, h, hex_heights(game, h)[0] + tall) for h in here):
            count += 1
    return count


def place_smoke(game: Game, label: str, rule: str) -> None:
    """MBT 12.9.3: a smoke (ON) marker in the hex (one per hex, ON replacing OFF); public."""
    _markers_to_change(game)[label] = "ON"
    game.emit("smoke_placed", hex=label, marker="ON", rule=rule)


def adjust_smoke_markers(game: Game) -> None:
    """MBT 16.3.1-16.3.2: smoke (OFF) markers go, then smoke (ON) turns OFF."""
    markers = _markers_to_change(game)
    for lab in [k for k, v in markers.items() if v == "OFF"]:
        del markers[lab]
    for lab in markers:
        markers[lab] = "OFF"
