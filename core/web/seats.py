"""Seats at the web table: who may act for which side, each behind an unguessable token.

A seat is one URL. A side's seat plays one side, or one player's units of it when a side has
several players (``player``, with the ids of the units he commands: docs/decisions.md CORE-81).
The hot-seat seat plays every human side on one device (a "pass the device" screen between them); the
umpire's seat sees everything and plays no side. The tokens are kept beside the save (``.seats``
file, readable by its owner only) so that the URLs still work after a server restart.
"""

from __future__ import annotations

import json
import os
import secrets
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from hexwar.core.engine.record import write_atomic
from hexwar.core.errors import DataError
from hexwar.core.safeload import read_text

SEATS_FORMAT = "hexwar-seats"
SEATS_VERSION = 1
#: bytes of randomness in a token (URL-safe base64: 32 characters)
TOKEN_BYTES = 24
ROLES = ("side", "hotseat", "umpire")


@dataclass(frozen=True)
class Seat:
    """One URL of the table: ``role`` ``side`` (plays ``sides[0]``), ``hotseat`` (plays every
    side in ``sides`` on one device) or ``umpire`` (sees everything, plays no side)."""

    token: str
    name: str
    role: str
    sides: tuple[str, ...]
    #: one player of a side with several: his name and the ids of the units he commands
    player: str = ""
    units: tuple[str, ...] = ()

    def as_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"token": self.token, "name": self.name, "role": self.role,
                               "sides": list(self.sides)}
        if self.player:
            out.update(player=self.player, units=list(self.units))
        return out


def new_token() -> str:
    return secrets.token_urlsafe(TOKEN_BYTES)


def make_seats(sides: Iterable[str], players: Mapping[str, str], *, hotseat: bool,
               umpire: bool,
               split: Mapping[str, Mapping[str, Iterable[str]]] | None = None) -> list[Seat]:
    """The seats of a new table: one per human side (or one hot-seat seat for all of them), one
    per player of a side ``split`` among several (player -> unit ids), and the umpire's when
    asked for."""
    humans = [s for s in sides if players.get(s) == "human"]
    split = split or {}
    seats: list[Seat] = []
    if hotseat and humans:
        seats.append(Seat(new_token(), "hot-seat", "hotseat", tuple(humans)))
    else:
        for side in humans:
            if side in split:
                seats.extend(Seat(new_token(), f"{side}/{player}", "side", (side,), player,
                                  tuple(sorted(units)))
                             for player, units in split[side].items())
            else:
                seats.append(Seat(new_token(), side, "side", (side,)))
    if umpire:
        seats.append(Seat(new_token(), "umpire", "umpire", ()))
    return seats


def seats_path(save: Path) -> Path:
    return save.with_name(save.name + ".seats")


def write_seats(save: Path, seats: Iterable[Seat]) -> None:
    """Write the seats beside ``save`` atomically, readable by the owner only (a token is the
    key to a seat)."""
    path = seats_path(save)
    write_atomic(path, json.dumps({"format": SEATS_FORMAT, "version": SEATS_VERSION,
                                   "seats": [s.as_dict() for s in seats]}, indent=1,
                                  sort_keys=True))
    os.chmod(path, 0o600)


def read_seats(save: Path, sides: Iterable[str] | None) -> list[Seat] | None:
    """The seats kept beside ``save``, or ``None`` when there is no seats file. Raises
    :class:`DataError` for a malformed one."""
    path = seats_path(save)
    if not path.exists():
        return None
    text = read_text(path, what="seats file", max_bytes=1024 * 1024)
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as exc:
        raise DataError(f"not valid JSON: {exc.msg}", path=str(path), line=exc.lineno) from exc
    if not isinstance(doc, dict) or doc.get("format") != SEATS_FORMAT \
            or doc.get("version") != SEATS_VERSION or not isinstance(doc.get("seats"), list):
        raise DataError(f"not a hexwar seats file (format {SEATS_FORMAT!r}, version "
                        f"{SEATS_VERSION})", path=str(path))
    known = None if sides is None else set(sides)
    seats: list[Seat] = []
    for i, raw in enumerate(doc["seats"]):
        where = f"seats[{i}]"
        if not isinstance(raw, dict) or not isinstance(raw.get("token"), str) \
                or len(raw["token"]) < 16 or raw.get("role") not in ROLES \
                or not isinstance(raw.get("sides"), list) or not isinstance(raw.get("name"), str):
            raise DataError("a seat needs a token (16 characters or more), a name, a role "
                            f"({', '.join(ROLES)}) and a list of sides", path=str(path), key=where)
        unknown = [s for s in raw["sides"] if known is not None and s not in known]
        if unknown:
            raise DataError(f"the game has no side {unknown[0]!r}", path=str(path), key=where)
        player, units = raw.get("player", ""), raw.get("units", [])
        if not isinstance(player, str) or not isinstance(units, list) \
                or not all(isinstance(u, str) for u in units) \
                or (player and (raw["role"] != "side" or not units)):
            raise DataError("a player's seat is a side's seat with a player name and the list "
                            "of his units", path=str(path), key=where)
        seats.append(Seat(raw["token"], raw["name"], raw["role"], tuple(raw["sides"]), player,
                          tuple(units)))
    return seats
