"""Game state: units and the system's own state, serialisable and hashable."""

from __future__ import annotations

import hashlib
import itertools
import json
import marshal
import operator
import os
from dataclasses import dataclass, field
from typing import Any, ClassVar

from hexwar.core.hexgrid import Hex


@dataclass
class Unit:
    """One counter on (or off) the board.

    ``type`` is qualified by system (``mbt:T-80A``). ``hex`` is ``None`` while the unit is off the
    board (not yet entered, exited, or removed). ``state`` holds the system's own status of the
    unit (markers, damage, orders) as JSON values, so that it saves and hashes.

    Every write to a unit is seen by the state that holds it, so that the state hash after a
    decision encodes again only the units written since the last one (docs/decisions.md
    CORE-133): setting a field, and setting, deleting or popping a key of ``state``, mark the
    unit. A nested value changed in place (``unit.state["marks"].append(m)``) is not seen: assign
    the key again, or call :meth:`touch`. Tests run with ``HEXWAR_CHECK_STATE=1``, which compares
    every hash with one made from scratch and names a unit changed unseen.
    """

    id: str
    type: str
    side: str
    hex: Hex | None
    facing: int = 1
    state: dict[str, Any] = field(default_factory=dict)

    #: the written units of the state holding this one (see :meth:`GameState.canonical_text`)
    _sink: ClassVar[dict[int, Unit] | None] = None
    #: a number drawn afresh at every write, and for a copy or an unpickled unit: two reads of
    #: a unit with the same number read the same unit; views are cached by it
    _rev: ClassVar[int] = 0

    def __setattr__(self, name: str, value: Any) -> None:
        if name == "state":
            value = _owned_state(value, self)
        elif name == "hex":  # every state's index of units by hex is out of date
            _MOVES[0] += 1
        d = self.__dict__
        d[name] = value
        d["_rev"] = next(_REVISIONS)
        sink = self._sink
        if sink is not None:
            sink[id(self)] = self

    def touch(self) -> None:
        """Tell the state holding this unit that the unit changed: needed only after changing a
        nested value of :attr:`state` in place (see the class's docstring)."""
        self.__dict__["_rev"] = next(_REVISIONS)
        sink = self._sink
        if sink is not None:
            sink[id(self)] = self

    def __getstate__(self) -> dict[str, Any]:
        # a copy or a pickle belongs to no state's record of written units
        d = dict(self.__dict__)
        d.pop("_sink", None)
        return d

    def __setstate__(self, d: dict[str, Any]) -> None:
        # a fresh revision: one drawn in another process (a pickle sent to a worker) could
        # equal a later one of this process's counter, and caches keyed by revision would
        # take the unit for unchanged (CORE-133); and a state of its own: a shallow copy
        # (copy.copy) would otherwise write into its original's state and revision
        self.__dict__.update(d)
        if "state" in d:
            self.__dict__["state"] = _owned_state(d["state"], self)
        self.__dict__["_rev"] = next(_REVISIONS)

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


class UnitState(dict[str, Any]):
    """A unit's :attr:`Unit.state`: a plain ``dict`` that marks its unit written when a key is
    set, deleted or popped (reads cost what a ``dict``'s do)."""

    __slots__ = ("_unit",)
    _unit: Unit

    def _written(self) -> None:
        try:
            unit = self._unit
        except AttributeError:  # being unpickled: the unit comes after the keys
            return
        unit.touch()

    def __setitem__(self, key: str, value: Any) -> None:
        dict.__setitem__(self, key, value)
        self._written()

    def __delitem__(self, key: str) -> None:
        dict.__delitem__(self, key)
        self._written()

    def __ior__(self, other: Any) -> UnitState:  # type: ignore[override,misc]
        dict.update(self, other)
        self._written()
        return self

    def setdefault(self, key: str, default: Any = None) -> Any:
        self._written()  # the caller may go on to change the value in place
        return dict.setdefault(self, key, default)

    def pop(self, key: str, *default: Any) -> Any:
        self._written()
        return dict.pop(self, key, *default)

    def popitem(self) -> tuple[str, Any]:
        self._written()
        return dict.popitem(self)

    def update(self, *args: Any, **kwargs: Any) -> None:
        dict.update(self, *args, **kwargs)
        self._written()

    def clear(self) -> None:
        dict.clear(self)
        self._written()


def _owned_state(value: Any, unit: Unit) -> UnitState:
    """``value`` as ``unit``'s own :class:`UnitState` (a shallow copy unless it is one already)."""
    if type(value) is UnitState:
        try:
            if value._unit is unit:
                return value
        except AttributeError:
            pass
    owned = UnitState(value)
    owned._unit = unit
    return owned


@dataclass
class GameState:
    """Everything that changes during a game. ``data`` is the system's own state (JSON values)."""

    units: dict[str, Unit]
    sides: tuple[str, ...]
    turn: int = 0
    phase: str = ""
    data: dict[str, Any] = field(default_factory=dict)
    #: the system state's text last hashed, as a tree of parts (see :meth:`canonical_text`);
    #: derived data, never saved, compared or shown
    _data_text: _Part | None = field(default=None, init=False, repr=False, compare=False)
    #: units by hex (see :meth:`units_at`) and what it was built from
    _at: dict[Hex, list[Unit]] = field(default_factory=dict, init=False, repr=False,
                                       compare=False)
    _at_key: tuple[int, int, int] = field(default=(-1, -1, -1), init=False, repr=False,
                                          compare=False)
    #: the units written since the last hash, by ``id()`` (each unit held here marks itself)
    _written: dict[int, Unit] = field(default_factory=dict, init=False, repr=False, compare=False)
    #: what the units' text was last made of (see :meth:`canonical_text`)
    _unit_texts: _UnitTexts | None = field(default=None, init=False, repr=False, compare=False)
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

        The engine hashes the state after every decision, so the text is assembled from the JSON
        of each unit and of each entry of the system state (three levels deep), and only a part
        that changed since the last call is encoded again (docs/decisions.md CORE-133):

        * a unit's text is made again only when the unit was written (:class:`Unit` marks itself
          in this state's record when a field or a key of its state is set), so the Python work
          is in the units written, not in all units; what remains for all units is a C-level
          comparison of which unit objects the state holds;
        * the system state (:attr:`data`) is compared by a fingerprint level by level (its
          ``marshal`` bytes, else its ``repr``: :func:`fingerprint`), and a part is encoded again
          only where its fingerprint changed. An unchanged system state costs one C-level
          fingerprint; a changed one, the fingerprints of the parts on the way down to the
          change and the Python work of those parts alone.

        The text is exactly the one :func:`json.dumps` gives for the whole state at once; with
        ``HEXWAR_CHECK_STATE=1`` every call checks that, naming a unit changed unseen.
        """
        units = self.units
        held = list(map(id, units.values()))
        last = self._unit_texts
        written = self._written
        if last is None or last.held != held:  # units added, removed or replaced: start afresh
            ids = self._ids()
            us = list(map(units.__getitem__, ids))
            written.clear()
            for u in us:
                object.__setattr__(u, "_sink", written)
            last = self._unit_texts = _UnitTexts(held, us, [_dumps(u.to_dict()) for u in us])
        elif written:
            at, texts = last.at, last.texts
            for key, u in list(written.items()):
                i = at.get(key)
                if i is not None:
                    texts[i] = _dumps(u.to_dict())
            written.clear()
            last.joined = None
        if last.joined is None:
            last.joined = ",".join(last.texts)
        if CHECK_STATE:
            _check_units(last)
        part = self._data_text = _part(self._data_text, self.data, _DATA_DEPTH)
        data = part[1]
        if CHECK_STATE and data != _dumps(self.data):
            raise StateTrackingError("the system state's kept text differs from the system state "
                                     "encoded afresh (docs/decisions.md CORE-135)")
        return (f'{{"data":{data},"phase":{_dumps(self.phase)},'
                f'"sides":{_dumps(list(self.sides))},"turn":{_dumps(self.turn)},'
                f'"units":[{last.joined}]}}')

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

#: how many levels of tables of the system state are kept part by part (below, whole values)
_DATA_DEPTH = 4
#: each write to a unit draws its next number (see ``Unit._rev``)
_REVISIONS = itertools.count(1)
#: a unit's revision, gathered by C-level maps (views, CORE-133)
UNIT_REVISION = operator.attrgetter("_rev")

#: check every state hash against one made from scratch (slow: for tests, CORE-133)
CHECK_STATE = os.environ.get("HEXWAR_CHECK_STATE") == "1"


class StateTrackingError(AssertionError):
    """A unit's state changed without the unit being marked written (a nested value changed in
    place with no :meth:`Unit.touch`): the incremental state hash would miss it."""


class _UnitTexts:
    """The units' part of the last state text: the unit objects held (their ``id()``s, in the
    dict's order; the objects are kept so that no ``id()`` is reused), in id order, their JSON
    texts and the texts joined."""

    __slots__ = ("at", "held", "joined", "texts", "units")

    def __init__(self, held: list[int], units: list[Unit], texts: list[str]) -> None:
        self.held, self.units, self.texts = held, units, texts
        self.at = {id(u): i for i, u in enumerate(units)}
        self.joined: str | None = None


def _check_units(last: _UnitTexts) -> None:
    stale = []
    for u, text in zip(last.units, last.texts, strict=True):
        now = _dumps(u.to_dict())
        if now != text:
            was, is_ = json.loads(text)["state"], json.loads(now)["state"]
            keys = sorted(k for k in was.keys() | is_.keys() if was.get(k) != is_.get(k))
            stale.append(f"{u.id!r} (state keys {', '.join(keys) or 'none'})")
    if stale:
        raise StateTrackingError(
            f"unit(s) {', '.join(stale)} changed without being marked written: a "
            "nested value of a unit's state was changed in place; assign its key again or call "
            "Unit.touch() (docs/decisions.md CORE-133)")


#: how many times any unit's hex has been set (the index of :meth:`GameState.units_at` is valid
#: while it stays the same); a one-item list so that it is changed in place
_MOVES = [0]
_NONE: list[Unit] = []


def _dumps(value: Any) -> str:
    """``json.dumps(value, sort_keys=True, separators=(",", ":"), default=_reject)``, with the
    encoder made once (``json.dumps`` builds one a call when given options)."""
    return _ENCODER.encode(value)


#: a part of the system state's text: (what it was made from, see :func:`fingerprint`; its JSON
#: text; and for a table split further, its entries' parts by key)
_Part = tuple[bytes | str, str, "dict[str, _Part] | None"]


def fingerprint(value: Any) -> bytes | str:
    """A fingerprint of a JSON-like value: equal fingerprints, equal JSON (CORE-135). ``marshal``
    (in C, about four times as fast as ``repr``) writes the exact types (``1``, ``1.0`` and
    ``True``; a list and a tuple) and reads back an equal value, so equal bytes are equal
    values; it refuses other types (``Hex``, a subclass), which fall back to ``repr`` (CORE-25).
    Equal values may give unequal bytes (a table's key order, shared objects): a part encoded
    again, never a stale one."""
    try:
        return marshal.dumps(value)
    except ValueError:
        return repr(value)


def _part(last: _Part | None, value: Any, depth: int) -> _Part:
    """The JSON text of ``value`` with what it was made from, reusing ``last`` (its part at the
    previous hash) where the fingerprint is unchanged (CORE-135). A table of string keys down
    to ``depth`` levels is made of its entries' parts, so a change below re-encodes only the
    entries on its way; entries gone from the table go with the new part."""
    made_of = fingerprint(value)
    if last is not None and last[0] == made_of:
        return last
    if depth > 0 and type(value) is dict and all(type(k) is str for k in value):
        before = last[2] if last is not None and last[2] is not None else {}
        kids: dict[str, _Part] = {}
        texts = []
        for k in sorted(value):
            kid = kids[k] = _part(before.get(k), value[k], depth - 1)
            texts.append(f"{_key(k)}:{kid[1]}")
        return (made_of, f"{{{','.join(texts)}}}", kids)
    return (made_of, _dumps(value), None)


def _reject(value: object) -> object:
    if isinstance(value, Hex):
        return [value.q, value.r]
    if isinstance(value, set | frozenset):
        return sorted(value, key=repr)
    raise TypeError(f"game state must hold JSON values; found {type(value).__name__}: {value!r}")


_ENCODER = json.JSONEncoder(sort_keys=True, separators=(",", ":"), default=_reject)
#: a string key as the encoder writes it (ASCII-escaped, the ``json.dumps`` default)
_key = json.encoder.encode_basestring_ascii
