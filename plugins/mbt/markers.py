"""MBT 12.4, Advanced Game terrain markers, and vehicles that start inside buildings (MBT 15.4.5).

A scenario lists its terrain markers in ``[special] markers``: ``{ hex = "2G5", kind = "wire" }``
with ``kind`` one of ``block``, ``ditch``, ``wire``, ``improved_position`` (MBT 12.4). They are on
the map from the set-up on and never move (MBT 12.4; docs/decisions.md MBTD-59), and are public:
``game.state.data["mbt"]["markers"]`` maps hex label to kind.

* where they may go: a block only in a hex with a road or path, bridges included (MBT 12.4.3); a
  ditch anywhere but in building and bridge hexes (MBT 12.4.4); an improved position anywhere but
  in water and bridge hexes (MBT 12.4.5); wire anywhere but in water, bridges allowed
  (MBT 12.4.6);
* movement: no vehicle enters a block or ditch hex; wheeled vehicles never enter wire, tracked
  ones pay +1 MF and destroy the wire when they enter (MBT 12.4.3-12.4.6,
  ``data/advanced/marker_costs.csv``);
* the hex: block, ditch and wire add to the terrain; an improved position replaces it
  (MBT 12.4.1.1-12.4.1.2) for sighting, AP fire (-10, MBT 14.3.1.2) and hull down
  (MBT 13.2.2.1.2); no marker changes heights (MBT 12.4.1.3).

A vehicle set up in a building hex may start inside the buildings (MBT 15.4.5):
``state = { inb = true }``; inside it takes the inside-building AP modifier (-8, MBT 14.3.1.2) and
is hull down in a brick or stone building (MBT 13.2.2.1.2); leaving the hex leaves the buildings.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from hexwar.core.engine.state import Unit
from hexwar.core.errors import DataError
from hexwar.core.hexgrid import Hex
from hexwar.plugins.mbt.advanced_tables import load_advanced
from hexwar.plugins.mbt.orders import seen_by
from hexwar.plugins.mbt.state import card_of, ctx, data

if TYPE_CHECKING:
    from hexwar.core.engine.game import Game

KINDS = ("block", "ditch", "wire", "improved_position")  # MBT 12.4
BUILDINGS = ("brick", "stone")
WATER = ("pond",)


def markers(game: Game) -> dict[str, str]:
    got: dict[str, str] = data(game).setdefault("markers", {})
    return got


def marker_at(game: Game, h: Hex | None) -> str | None:
    if h is None:
        return None
    return markers(game).get(game.board.label(h))


def _placement_error(game: Game, h: Hex, kind: str) -> str | None:
    info = ctx(game).info
    kinds = set(info.kinds[h])
    feats = set(game.board.features_of[h])
    bridge = "bridge" in feats
    if kind == "block" and not (any(h in pair for pair in info.road | info.path) or bridge):
        return "a block goes only in a hex with a road or path (MBT 12.4.3)"
    if kind == "ditch" and (kinds & set(BUILDINGS) or bridge):
        return "a ditch may not go in a building or bridge hex (MBT 12.4.4)"
    if kind == "improved_position" and (kinds & set(WATER) or bridge):
        return "an improved position may not go in a water or bridge hex (MBT 12.4.5)"
    if kind == "wire" and kinds & set(WATER) and not bridge:
        return "wire may not go in a water hex (MBT 12.4.6)"
    return None


def place_markers(game: Game) -> None:
    """MBT 12.4: the scenario's terrain markers go on the map (before any unit is placed); a
    marker where the rules forbid it is a clear error naming it."""
    spec = game.scenario.raw.get("special", {})
    raw: Any = spec.get("markers", []) if isinstance(spec, dict) else []
    out = markers(game)
    for i, m in enumerate(raw or []):
        where = f"[special] markers[{i}]"
        if not isinstance(m, dict) or m.get("kind") not in KINDS or not isinstance(m.get("hex"), str):
            raise DataError(f"{where}: a marker is {{ hex = LABEL, kind = "
                            f"{' | '.join(KINDS)} }} (MBT 12.4)")
        try:
            h = game.board.parse(m["hex"])
        except ValueError as exc:
            raise DataError(f"{where}: {exc}") from None
        if h not in game.board.hexes:
            raise DataError(f"{where}: {m['hex']} is not on the map")
        err = _placement_error(game, h, m["kind"])
        if err:
            raise DataError(f"{where} ({m['hex']}): {err}")
        out[game.board.label(h)] = str(m["kind"])
    for u in game.state.units.values():
        if not u.state.get("inb"):
            continue
        if (u.hex is None or not set(ctx(game).info.kinds[u.hex]) & set(BUILDINGS)
                or card_of(game, u).kind == "leg"):
            raise DataError(f"unit {u.id}: inb (inside buildings) is for a vehicle or towed unit "
                            "the scenario places in a building hex (MBT 15.4.1.2, 15.4.5)")
        u.state["inb_hex"] = game.board.label(u.hex)


def move_costs(game: Game, u: Unit) -> dict[Hex, int | None]:
    """MBT 12.4.3-12.4.6: extra MF or prohibition per marked hex for this unit."""
    ms = markers(game)
    if not ms:
        return {}
    if card_of(game, u).kind in ("leg", "towed"):
        # MBT 12.4.6, 15.1.4, 15.2.3: no leg or towed unit walks into wire (nor a towed one into
        # a ditch); blocks and ditches cost leg units nothing
        barred = ("wire",) if card_of(game, u).kind == "leg" else ("wire", "ditch")
        return {game.board.parse(lab): None for lab, kind in ms.items() if kind in barred}
    if card_of(game, u).kind != "vehicle":
        return {}
    adv = load_advanced()
    drive = "wheeled" if adv.wheeled.get(card_of(game, u).name) else "tracked"
    out: dict[Hex, int | None] = {}
    for lab, kind in ms.items():
        cost = adv.marker_costs.get((kind, drive), 0)
        if cost != 0:
            out[game.board.parse(lab)] = cost
    return out


def ditch_hold(game: Game, u: Unit) -> str | None:
    """MBT 15.1.4: why leg unit ``u`` may not leave its hex: it entered the ditch there this Turn
    or last Turn (it stays the Turn it enters and one Turn more; docs/decisions.md MBTD-170)."""
    got = u.state.get("ditch")
    if u.hex is None or not isinstance(got, list) or len(got) != 2:
        return None
    label, turn = got
    if label != game.board.label(u.hex) or game.state.turn > int(turn) + 1:
        return None
    return (f"{u.id} entered the ditch in {label} on Turn {turn} and stays there through Turn "
            f"{int(turn) + 1} (MBT 15.1.4)")


def unit_moved(game: Game, u: Unit) -> None:
    """MBT 12.4.6: a tracked vehicle entering wire destroys it; MBT 15.4.5: a vehicle that leaves
    its hex is no longer inside the buildings it started in; MBT 15.1.4: a leg unit entering a
    ditch is noted (it must stay)."""
    if u.hex is None:
        return
    label = game.board.label(u.hex)
    if markers(game).get(label) == "ditch" and card_of(game, u).kind == "leg":
        u.state["ditch"] = [label, game.state.turn]
    if markers(game).get(label) == "wire" and card_of(game, u).kind == "vehicle":
        del markers(game)[label]
        game.emit("wire_destroyed", visible_to=seen_by(game, [u]), hex=label, unit=u.id,
                  rule="MBT 12.4.6")
    if u.state.get("inb") and u.state.get("inb_hex") != label:
        u.state["inb"] = False
    if u.state.get("up") and u.state.get("up_hex") != label:
        u.state["up"] = 0  # MBT 15.4.1.1: leaving the hex leaves its floors


def target_terrain(game: Game, u: Unit) -> tuple[str, ...] | None:
    """MBT 12.4.1.2, 14.3.1.2: the terrain a shot at ``u`` reads when a marker or the inside of
    buildings replaces its hex's terrain (None: the hex's own)."""
    if u.state.get("inb"):
        return ("inside_building",)
    if marker_at(game, u.hex) == "improved_position":
        return ("improved_position",)
    return None


def sight_terrain(game: Game, h: Hex) -> str | None:
    """MBT 12.4.1.2: an improved position marker is the hex's terrain for sighting."""
    return "improved_position" if marker_at(game, h) == "improved_position" else None
