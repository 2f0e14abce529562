"""Typed per-object storage (after pytest's ``Stash``): a plugin keeps its caches and working
data under a :class:`StashKey` of its own instead of hanging attributes on a game or a board.

Keys are compared by identity, so two plugins can never collide, and each key carries the type of
its value for the type checker::

    SIGHT_CACHE = StashKey[dict[str, int]]()
    cache = game.stash.setdefault(SIGHT_CACHE, {})

A stash holds derived data only (caches, hook facades): it is not saved, hashed or replayed, so
anything that must survive a save belongs in the game state.
"""

from __future__ import annotations

from typing import Any, Generic, TypeVar, cast, overload

T = TypeVar("T")
D = TypeVar("D")


class StashKey(Generic[T]):
    """A key into a :class:`Stash`; make one per kind of value, at module level."""

    __slots__ = ("name",)

    def __init__(self, name: str = "") -> None:
        self.name = name

    def __repr__(self) -> str:
        return f"StashKey({self.name!r})" if self.name else f"StashKey(at {id(self):#x})"


class Stash:
    """A mapping from :class:`StashKey` to values of the key's type."""

    __slots__ = ("_data",)

    def __init__(self) -> None:
        self._data: dict[StashKey[Any], object] = {}

    def __setitem__(self, key: StashKey[T], value: T) -> None:
        self._data[key] = value

    def __getitem__(self, key: StashKey[T]) -> T:
        return cast(T, self._data[key])

    @overload
    def get(self, key: StashKey[T]) -> T | None: ...
    @overload
    def get(self, key: StashKey[T], default: D) -> T | D: ...
    def get(self, key: StashKey[T], default: object = None) -> object:
        return self._data.get(key, default)

    def setdefault(self, key: StashKey[T], default: T) -> T:
        return cast(T, self._data.setdefault(key, default))

    def pop(self, key: StashKey[T], default: T | None = None) -> T | None:
        return cast("T | None", self._data.pop(key, default))

    def __delitem__(self, key: StashKey[T]) -> None:
        del self._data[key]

    def __contains__(self, key: object) -> bool:
        return key in self._data

    def __len__(self) -> int:
        return len(self._data)

    def clear(self) -> None:
        self._data.clear()
