"""Named steps with edits: the one way hexwar builds a sequence that optional rules change.

A :class:`Pipeline` is an ordered tuple of ``(name, step)`` pairs. Optional rules change it with
:class:`Edit` records (insert a step before or after a named one, replace one, remove one), never
by position, so two rules that do not know each other compose. Edits are applied in one fixed
order, whatever order the plugins were registered in:

1. sorted by operation (``remove``, ``replace``, ``insert_before``, ``insert_after``), then by
   anchor, then by the name of the step an edit brings;
2. steps inserted at the same anchor keep that name order on their side of it: two
   ``insert_after`` edits ``x1`` and ``x2`` at ``a`` give ``[a, x1, x2]``, two ``insert_before``
   edits give ``[x1, x2, a]``;
3. an anchor must name a step of the base sequence or one that an earlier edit (in that order)
   inserted; a ``replace`` keeps the slot's name unless the new step brings its own.

An anchor that names no step is an error that lists the steps there are, never a silent no-op.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Generic, Literal, TypeVar

from hexwar.core.errors import PluginError

T = TypeVar("T")

EditOp = Literal["remove", "replace", "insert_before", "insert_after"]
#: the order in which edits of each kind are applied
EDIT_OPS: tuple[EditOp, ...] = ("remove", "replace", "insert_before", "insert_after")
_RANK = {op: i for i, op in enumerate(EDIT_OPS)}


@dataclass(frozen=True)
class Edit(Generic[T]):
    """One change to a pipeline: ``op`` at the step named ``anchor``.

    ``name`` and ``step`` are the step brought in (unused by ``remove``); ``rule`` is the rule
    reference of the optional rule that makes the change, for error messages and the log.
    """

    op: EditOp
    anchor: str
    name: str = ""
    step: T | None = None
    rule: str = ""

    def sort_key(self) -> tuple[int, str, str]:
        return (_RANK[self.op], self.anchor, self.name)


class Pipeline(Generic[T]):
    """An immutable sequence of named steps, built from a base sequence and edits."""

    __slots__ = ("_names", "_steps", "what")

    def __init__(self, steps: Iterable[tuple[str, T]], edits: Iterable[Edit[T]] = (), *,
                 what: str = "step") -> None:
        self.what = what
        entries = list(steps)
        names = [n for n, _ in entries]
        if len(set(names)) != len(names):
            twice = sorted({n for n in names if names.count(n) > 1})
            raise PluginError(f"the {what} names {', '.join(map(repr, twice))} appear twice")
        inserted: dict[tuple[str, str], int] = {}  # (op, anchor) -> how many were inserted
        for edit in sorted(edits, key=Edit.sort_key):
            if edit.op not in _RANK:
                raise PluginError(f"unknown {what} edit {edit.op!r} (known: {', '.join(EDIT_OPS)})")
            index = next((i for i, (n, _) in enumerate(entries) if n == edit.anchor), None)
            if index is None:
                raise PluginError(
                    f"{what} edit {edit.op} {edit.name!r}{_by(edit)} names {edit.anchor!r}, which "
                    f"is not a {what} here ({', '.join(n for n, _ in entries) or 'none'})")
            if edit.op == "remove":
                del entries[index]
                continue
            if edit.step is None:
                raise PluginError(f"{what} edit {edit.op} at {edit.anchor!r}{_by(edit)} brings no {what}")
            name = edit.name or edit.anchor
            if edit.op != "replace" and any(n == name for n, _ in entries):
                raise PluginError(f"{what} edit {edit.op}{_by(edit)} inserts {name!r}, which is "
                                  f"already a {what}")
            if edit.op == "replace":
                entries[index] = (name, edit.step)
                continue
            key = (edit.op, edit.anchor)
            done = inserted.get(key, 0)
            at = index if edit.op == "insert_before" else index + 1 + done
            entries.insert(at, (name, edit.step))
            inserted[key] = done + 1
        self._names = tuple(n for n, _ in entries)
        self._steps = tuple(entries)

    @property
    def names(self) -> tuple[str, ...]:
        return self._names

    @property
    def steps(self) -> tuple[T, ...]:
        return tuple(s for _, s in self._steps)

    def __iter__(self) -> Iterator[tuple[str, T]]:
        return iter(self._steps)

    def __len__(self) -> int:
        return len(self._steps)

    def __contains__(self, name: object) -> bool:
        return name in self._names

    def __getitem__(self, name: str) -> T:
        for n, s in self._steps:
            if n == name:
                return s
        raise KeyError(name)

    def __repr__(self) -> str:
        return f"Pipeline({', '.join(self._names)})"


def _by(edit: Edit[object]) -> str:
    return f" (by {edit.rule})" if edit.rule else ""


def build(steps: Sequence[tuple[str, T]], edits: Iterable[Edit[T]] = (), *,
          what: str = "step") -> Pipeline[T]:
    """Shorthand for :class:`Pipeline`."""
    return Pipeline(steps, edits, what=what)
