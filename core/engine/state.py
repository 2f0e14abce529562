"""Game state: units and the system's own state, serialisable and hashable."""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from typing import Any

from hexwar.core.hexgrid import Hex


@dataclass
class Unit:
    """One counter on (or off) the board.

    ``type`` is qualified by system (``mbt:T-80A``). ``hex`` is ``None`` while the unit is off the
    board (not yet entered, exited, or removed). ``state`` holds the system's own status of the
    unit (markers, damage, orders) as JSON values, so that it saves and hashes.
    """

    id: str
    type: str
    side: str
    hex: Hex | None
    facing: int = 1
    state: dict[str, Any] = field(default_factory=dict)

    @property
    def system(self) -> str:
        return self.type.split(":", 1)[0]

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "type": self.type,
            "side": self.side,
            "hex": None if self.hex is None else [self.hex.q, self.hex.r],
            "facing": self.facing,
            "state": self.state,
        }


@dataclass
class GameState:
    """Everything that changes during a game. ``data`` is the system's own state (JSON values)."""

    units: dict[str, Unit]
    sides: tuple[str, ...]
    turn: int = 0
    phase: str = ""
    data: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {
            "turn": self.turn,
            "phase": self.phase,
            "sides": list(self.sides),
            "units": [self.units[k].to_dict() for k in sorted(self.units)],
            "data": self.data,
        }

    def digest(self) -> str:
        """A short hash of the whole state, to check that a replay follows the same game."""
        text = json.dumps(self.to_dict(), sort_keys=True, separators=(",", ":"), default=_reject)
        return hashlib.sha256(text.encode()).hexdigest()[:16]

    def units_of(self, side: str) -> list[Unit]:
        return [u for k, u in sorted(self.units.items()) if u.side == side]

    def on_board(self) -> list[Unit]:
        return [u for k, u in sorted(self.units.items()) if u.hex is not None]


def _reject(value: object) -> object:
    if isinstance(value, Hex):
        return [value.q, value.r]
    if isinstance(value, set | frozenset):
        return sorted(value, key=repr)
    raise TypeError(f"game state must hold JSON values; found {type(value).__name__}: {value!r}")
