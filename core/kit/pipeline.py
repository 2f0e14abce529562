"""Named steps with edits: the one way hexwar builds a sequence that optional rules change.

A :class:`Pipeline` is an ordered tuple of ``(name, step)`` pairs. Optional rules change it with
:class:`Edit` records (insert a step before or after a named one, replace one, remove one), never
by position, so two rules that do not know each other compose. Edits are applied in one fixed
order, whatever order the plugins were registered in:

1. sorted by operation (``remove``, ``replace``, ``insert_before``, ``insert_after``), then by
   anchor, then by the name of the step an edit brings (then by ``rule``, so that even the
   error raised for two clashing edits never depends on registration order);
2. steps inserted at the same anchor keep that name order on their side of it: two
   ``insert_after`` edits ``x1`` and ``x2`` at ``a`` give ``[a, x1, x2]``, two ``insert_before``
   edits give ``[x1, x2, a]``;
3. an edit whose anchor is a step that another edit brings waits until that step is there (edits
   are applied in passes, each in the order of 1, until none is left), so ``y`` inserted after an
   inserted ``x`` works whatever the two names are; a ``replace`` keeps the slot's name unless the
   new step brings its own.

Clashes are errors, never a silent choice: an anchor that names no step (the message lists the
steps there are), two ``replace`` edits of one step, a step both replaced and removed, a step
name brought twice. Several ``remove`` edits of one step remove it once.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any, Generic, Literal, NoReturn, TypeVar

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

    def sort_key(self) -> tuple[int, str, str, str]:
        return (_RANK[self.op], self.anchor, self.name, self.rule)


class Pipeline(Generic[T]):
    """An immutable sequence of named steps, built from a base sequence and edits.

    ``what`` names a step in error messages (``"phase of firefight"``, ``"fire step"``).
    """

    __slots__ = ("_names", "_steps", "what")

    def __init__(self, steps: Iterable[tuple[str, T]], edits: Iterable[Edit[T]] = (), *,
                 what: str = "step") -> None:
        self.what = what
        entries = list(steps)
        names = [n for n, _ in entries]
        if len(set(names)) != len(names):
            twice = sorted({n for n in names if names.count(n) > 1})
            raise PluginError(f"the {what} names {', '.join(map(repr, twice))} appear twice")
        pending = self._checked(list(edits))
        inserted: dict[tuple[str, str], int] = {}  # (op, anchor) -> how many were inserted
        removed: dict[str, Edit[T]] = {}  # anchor -> the edit that removed it
        while pending:
            waiting: list[Edit[T]] = []
            for edit in pending:
                index = next((i for i, (n, _) in enumerate(entries) if n == edit.anchor), None)
                if index is None:
                    waiting.append(edit)
                    continue
                self._apply(entries, index, edit, inserted)
                if edit.op == "remove":
                    removed[edit.anchor] = edit
            if len(waiting) == len(pending):
                self._missing_anchor(waiting[0], entries, removed)
            pending = waiting
        self._names = tuple(n for n, _ in entries)
        self._steps = tuple(entries)

    def _checked(self, edits: list[Edit[T]]) -> list[Edit[T]]:
        """The edits in the order of application, after the checks that need all of them."""
        what = self.what
        for edit in edits:
            if edit.op not in _RANK:
                raise PluginError(f"unknown {what} edit {edit.op!r}{_by(edit)} "
                                  f"(known: {', '.join(EDIT_OPS)})")
            if edit.op != "remove" and edit.step is None:
                raise PluginError(f"{what} edit {edit.op} at {edit.anchor!r}{_by(edit)} "
                                  f"brings no {what}")
        ordered = sorted(edits, key=Edit.sort_key)
        replaced: dict[str, list[Edit[T]]] = {}
        removed: dict[str, Edit[T]] = {}
        unique: list[Edit[T]] = []
        for edit in ordered:
            if edit.op == "remove":
                if edit.anchor in removed:
                    continue  # removed once, whoever else removes it too
                removed[edit.anchor] = edit
            elif edit.op == "replace":
                replaced.setdefault(edit.anchor, []).append(edit)
            unique.append(edit)
        for anchor, group in replaced.items():
            if len(group) > 1:
                raise PluginError(f"{len(group)} edits replace the {what} {anchor!r} "
                                  f"({', '.join(e.rule or e.name or '?' for e in group)}); "
                                  "enable one of them")
            if anchor in removed:
                raise PluginError(f"the {what} {anchor!r} is removed{_by(removed[anchor])} and "
                                  f"replaced{_by(group[0])}; enable one of them")
        return unique

    def _apply(self, entries: list[tuple[str, T]], index: int, edit: Edit[T],
               inserted: dict[tuple[str, str], int]) -> None:
        what = self.what
        if edit.op == "remove":
            del entries[index]
            return
        assert edit.step is not None  # checked in _checked
        name = edit.name or edit.anchor
        if (edit.op != "replace" or name != edit.anchor) and any(n == name for n, _ in entries):
            raise PluginError(f"{what} edit {edit.op}{_by(edit)} brings {name!r}, which is "
                              f"already a {what}")
        if edit.op == "replace":
            entries[index] = (name, edit.step)
            return
        key = (edit.op, edit.anchor)
        done = inserted.get(key, 0)
        at = index if edit.op == "insert_before" else index + 1 + done
        entries.insert(at, (name, edit.step))
        inserted[key] = done + 1

    def _missing_anchor(self, edit: Edit[T], entries: list[tuple[str, T]],
                        removed: dict[str, Edit[T]]) -> NoReturn:
        what = self.what
        brought = f" {edit.name!r}" if edit.name and edit.op != "remove" else ""
        gone = removed.get(edit.anchor)
        why = f" (it is removed{_by(gone)})" if gone is not None else ""
        raise PluginError(
            f"{what} edit {edit.op}{brought}{_by(edit)} names {edit.anchor!r}, which is not a "
            f"{what} here{why} ({', '.join(n for n, _ in entries) or 'none'})")

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


def _by(edit: Edit[Any]) -> str:
    return f" (by {edit.rule})" if edit.rule else ""

