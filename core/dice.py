"""The dice of the rulebooks, drawn from one keyed source per game.

Every roll is recorded with its purpose, so a log shows why each die was thrown, and a replay from
the same seed and the same decisions throws the same dice.

The faces come from BLAKE2b keyed by the game's secret seed over a block counter
(docs/decisions.md CORE-56): knowing the algorithm and every roll a side was shown predicts none
of the others, as long as the seed stays with the umpire (the full log) and cannot be guessed.

Conventions:

* ``d10``: one ten-sided die read 1-10; the face 0 reads 10 (MBT 4.2, Firepower 4.2, Firefight
  Equipment). ``d10_zero`` reads 0-9 for the tables that want it.
* ``d100``: two ten-sided dice, white then coloured, read as tens and units, 01-100; 00 reads 100
  (MBT 4.2).
* ``d6``: an ordinary six-sided die (Firefight 4.2).
"""

from __future__ import annotations

import hashlib
import struct
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Roll:
    """One recorded throw: what for, which dice, the faces shown and the value read.

    ``visible_to`` names the sides that may see the throw (``None``: every side; ``()``: the
    umpire alone). A hidden process, such as the shuffle that gives face-down counters their
    anonymous names, rolls in secret so that no side can rebuild it from its log.
    """

    purpose: str
    dice: str
    faces: tuple[int, ...]
    value: int
    visible_to: tuple[str, ...] | None = None

    def as_dict(self) -> dict[str, Any]:
        return {"purpose": self.purpose, "dice": self.dice, "faces": list(self.faces),
                "value": self.value}


_WORDS = struct.Struct(">16I")


class KeyedStream:
    """Uniform integers from BLAKE2b keyed by a seed, over a block counter (CORE-56).

    Block ``i`` is ``BLAKE2b-512(key=K, data=i as 8 bytes)``; ``K`` is the SHA-256 of the seed's
    text under a fixed label. Draws take 32-bit words from the blocks in order, rejecting the
    words above the largest multiple of ``n`` so every value is equally likely. Without ``K``
    the outputs are unpredictable from one another (a keyed pseudo-random function).
    """

    WORDS = 16  # 32-bit words per 64-byte block

    def __init__(self, seed: int) -> None:
        self._key = hashlib.sha256(f"hexwar-dice-v1:{seed}".encode()).digest()
        self._block = 0
        self._words: list[int] = []
        self._next = 0

    def _word(self) -> int:
        if self._next >= len(self._words):
            digest = hashlib.blake2b(self._block.to_bytes(8, "big"), key=self._key).digest()
            self._block += 1
            self._words = list(_WORDS.unpack(digest))
            self._next = 0
        w = self._words[self._next]
        self._next += 1
        return w

    def below(self, n: int) -> int:
        """A uniform integer in ``0..n-1`` (``1 <= n < 2**32``)."""
        if not 1 <= n < 2 ** 32:
            raise ValueError(f"cannot draw below {n}")
        limit = (2 ** 32 // n) * n
        while True:
            w = self._word()
            if w < limit:
                return w % n

    def position(self) -> tuple[int, int]:
        """Where the stream stands (blocks made, words used of the last): no key in it."""
        return (self._block, self._next)


class Dice:
    """A keyed source of dice. ``on_roll`` is told of every throw (the game logs it)."""

    def __init__(self, seed: int, on_roll: Callable[[Roll], None] | None = None) -> None:
        self.seed = seed
        self._stream = KeyedStream(seed)
        self._on_roll = on_roll
        self.count = 0
        #: dice forced by the caller (``hexwar ... fire --dice``): consumed before the RNG
        self._forced: list[int] = []

    def force(self, *faces: int) -> None:
        """Queue faces to be read before any random face (for adjudicating a table roll)."""
        self._forced.extend(faces)

    def _face(self, sides: int) -> int:
        if self._forced:
            face = self._forced.pop(0)
            if not 0 <= face <= sides:
                raise ValueError(f"forced die face {face} is not on a d{sides}")
            return 0 if face == sides else face  # a ten may be given as 10 or as 0
        return self._stream.below(sides)

    def _record(self, purpose: str, dice: str, faces: tuple[int, ...], value: int,
                visible_to: Iterable[str] | None = None) -> int:
        self.count += 1
        if self._on_roll is not None:
            shown = None if visible_to is None else tuple(visible_to)
            self._on_roll(Roll(purpose, dice, faces, value, shown))
        return value

    def d10(self, purpose: str, *, visible_to: Iterable[str] | None = None) -> int:
        """One d10 read 1-10 (a 0 face reads 10); ``visible_to`` as for :class:`Roll`."""
        face = self._face(10)
        return self._record(purpose, "d10", (face,), 10 if face == 0 else face, visible_to)

    def d10_zero(self, purpose: str, *, visible_to: Iterable[str] | None = None) -> int:
        """One d10 read 0-9."""
        face = self._face(10)
        return self._record(purpose, "d10", (face,), face, visible_to)

    def d100(self, purpose: str, *, visible_to: Iterable[str] | None = None) -> int:
        """Two d10, white for tens and coloured for units, read 01-100 (00 reads 100)."""
        white = self._face(10)
        coloured = self._face(10)
        value = white * 10 + coloured
        return self._record(purpose, "d100", (white, coloured), 100 if value == 0 else value,
                            visible_to)

    def d6(self, purpose: str, *, visible_to: Iterable[str] | None = None) -> int:
        """One d6 read 1-6."""
        if self._forced:
            face = self._forced.pop(0)
            if not 1 <= face <= 6:
                raise ValueError(f"forced die face {face} is not on a d6")
        else:
            face = 1 + self._stream.below(6)
        return self._record(purpose, "d6", (face,), face, visible_to)

    def choice_index(self, purpose: str, n: int, *, visible_to: Iterable[str] | None = None) -> int:
        """A uniform draw of 0..n-1 (a chit from a cup, a random direction); recorded like a roll,
        seen only by ``visible_to`` when that is given (see :class:`Roll`)."""
        if n <= 0:
            raise ValueError("cannot draw from an empty set")
        index = self._stream.below(n)
        return self._record(purpose, f"draw/{n}", (index,), index, visible_to)

    def getstate(self) -> object:
        return self._stream.position()
