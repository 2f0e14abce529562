"""Game state: units and the system's own state, serialisable and hashable."""

from __future__ import annotations

import hashlib
import json
import operator
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

    def __setattr__(self, name: str, value: Any) -> None:
        if name == "hex":  # every state's index of units by hex is out of date
            _MOVES[0] += 1
        object.__setattr__(self, name, value)

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
    #: the JSON text of each part of the state last hashed, with what it was made from (see
    #: :meth:`canonical_text`); derived data, never saved, compared or shown
    _texts: dict[Any, tuple[Any, str]] = field(default_factory=dict, init=False, repr=False,
                                               compare=False)
    #: units by hex (see :meth:`units_at`) and what it was built from
    _at: dict[Hex, list[Unit]] = field(default_factory=dict, init=False, repr=False,
                                       compare=False)
    _at_key: tuple[int, int, int] = field(default=(-1, -1, -1), init=False, repr=False,
                                          compare=False)
    #: per unit, in id order: (ids, id/type/side/hex/facing, repr of state, JSON text, joined)
    _unit_texts: tuple[list[str], list[tuple[Any, ...]], list[str], list[str], str] | None = \
        field(default=None, init=False, repr=False, compare=False)
    #: the unit ids in the dict's order and sorted (see :meth:`_ids`)
    _order: tuple[list[str], list[str]] = field(default=([], []), init=False, repr=False,
                                                compare=False)

    def to_dict(self) -> dict[str, Any]:
        return {
            "turn": self.turn,
            "phase": self.phase,
            "sides": list(self.sides),
            "units": [self.units[k].to_dict() for k in sorted(self.units)],
            "data": self.data,
        }

    def digest(self) -> str:
        """A short hash of the whole state, to check that a replay follows the same game: the
        first 16 hex digits of the SHA-256 of :meth:`canonical_text` (docs/log-format.md)."""
        return hashlib.sha256(self.canonical_text().encode()).hexdigest()[:16]

    def canonical_text(self) -> str:
        """:meth:`to_dict` as sorted, compact JSON (sets as sorted lists, hexes as ``[q, r]``).

        The engine hashes the state after every decision, so the text is assembled from the
        JSON of each unit and of each entry of the system state (three levels deep), and only a
        part that changed since the last call is encoded again. A part counts as changed when
        its ``repr`` changed (a unit: its state's ``repr``, or its id, type, side, hex or facing
        by value): ``repr`` (in C, several times cheaper than encoding) tells apart every value
        the encoder accepts (``1``, ``1.0`` and ``True``; a list and a tuple), so the text is
        exactly the one :func:`json.dumps` gives for the whole state at once.
        """
        units = self.units
        ids = self._ids()
        us = list(map(units.__getitem__, ids))
        # what each unit's text is made of, gathered by C-level maps (no Python loop when
        # nothing changed, the case after a third of all decisions)
        fields = list(map(_UNIT_FIELDS, us))
        states = list(map(repr, map(_UNIT_STATE, us)))
        last = self._unit_texts
        if last is not None and last[0] is ids:  # the same units in the same order
            texts, joined = last[3], last[4]
            if fields != last[1] or states != last[2]:
                texts = list(texts)
                for i, (f, st, f0, s0) in enumerate(zip(fields, states, last[1], last[2],
                                                        strict=True)):
                    if st != s0 or f != f0:
                        texts[i] = _dumps(us[i].to_dict())
                joined = ",".join(texts)
        else:
            texts = [_dumps(u.to_dict()) for u in us]
            joined = ",".join(texts)
        self._unit_texts = (ids, fields, states, texts, joined)
        cache = self._texts
        used = [0]
        data = _cached(cache, ("data",), self.data, 3, used)
        if len(cache) > 2 * used[0] + 16:  # dropped entries: start afresh
            cache.clear()
        return (f'{{"data":{data},"phase":{_dumps(self.phase)},'
                f'"sides":{_dumps(list(self.sides))},"turn":{_dumps(self.turn)},'
                f'"units":[{joined}]}}')

    def units_at(self, h: Hex) -> list[Unit]:
        """The units in hex ``h``, in the order of :attr:`units` (the caller must not change the
        list). An index, rebuilt only after a unit moved (any unit's ``hex`` was set) or units
        were added or removed: the systems ask "who is in this hex" thousands of times a turn."""
        key = (_MOVES[0], len(self.units), id(self.units))
        if key != self._at_key:
            at: dict[Hex, list[Unit]] = {}
            for u in self.units.values():
                if u.hex is not None:
                    at.setdefault(u.hex, []).append(u)
            self._at, self._at_key = at, key
        return self._at.get(h, _NONE)

    def units_of(self, side: str) -> list[Unit]:
        """The units of ``side``, by id."""
        units = self.units
        return [u for u in map(units.__getitem__, self._ids()) if u.side == side]

    def on_board(self) -> list[Unit]:
        """The units on the board, by id."""
        units = self.units
        return [u for u in map(units.__getitem__, self._ids()) if u.hex is not None]

    def _ids(self) -> list[str]:
        """The unit ids in order, sorted again only when units were added or removed (the
        list of ids, in the dict's order, is compared: cheap, unlike sorting)."""
        ids = list(self.units)
        if ids != self._order[0]:
            self._order = (ids, sorted(ids))
        return self._order[1]


_UNIT_FIELDS = operator.attrgetter("id", "type", "side", "hex", "facing")
_UNIT_STATE = operator.attrgetter("state")

#: how many times any unit's hex has been set (the index of :meth:`GameState.units_at` is valid
#: while it stays the same); a one-item list so that it is changed in place
_MOVES = [0]
_NONE: list[Unit] = []


def _dumps(value: Any) -> str:
    """``json.dumps(value, sort_keys=True, separators=(",", ":"), default=_reject)``, with the
    encoder made once (``json.dumps`` builds one a call when given options)."""
    return _ENCODER.encode(value)


def _cached(texts: dict[Any, tuple[Any, str]], path: tuple[str, ...], value: Any,
            depth: int, used: list[int]) -> str:
    """The JSON text of ``value`` (a part of the state at ``path``), from ``texts`` when its
    ``repr`` is the one it was encoded from; a table of string keys is split into its entries
    down to ``depth`` levels, so a change re-encodes only the entry it is in."""
    if depth > 0 and type(value) is dict and all(type(k) is str for k in value):
        inner = ",".join(f"{_key(k)}:{_cached(texts, (*path, k), value[k], depth - 1, used)}"
                         for k in sorted(value))
        return f"{{{inner}}}"
    used[0] += 1
    made_of = repr(value)
    hit = texts.get(path)
    if hit is None or hit[0] != made_of:
        hit = (made_of, _dumps(value))
        texts[path] = hit
    return hit[1]


def _reject(value: object) -> object:
    if isinstance(value, Hex):
        return [value.q, value.r]
    if isinstance(value, set | frozenset):
        return sorted(value, key=repr)
    raise TypeError(f"game state must hold JSON values; found {type(value).__name__}: {value!r}")


_ENCODER = json.JSONEncoder(sort_keys=True, separators=(",", ":"), default=_reject)
#: a string key as the encoder writes it (ASCII-escaped, the ``json.dumps`` default)
_key = json.encoder.encode_basestring_ascii
