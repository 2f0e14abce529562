"""The table model: key and value columns (the schema), rows, and :class:`Table` with its
lookups and provenance summary."""

from __future__ import annotations

import contextlib
import math
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from hexwar.core.errors import DataError, HexwarError
from hexwar.core.provenance import CellRef, ProvenanceSummary, Sourced, classify_source
from hexwar.core.tables.bands import Band, parse_band

KeyKind = Literal["band", "label"]
ValueType = Literal["auto", "int", "float", "str", "interval"]
KEY_KINDS: tuple[str, ...] = ("band", "label")
VALUE_TYPES: tuple[str, ...] = ("auto", "int", "float", "str", "interval")
RESERVED = frozenset({"source", "note", "notes"})


class TableLookupError(HexwarError, LookupError):
    """A lookup named unknown keys, missed a key, or fell outside every row of the table."""


# -- schema -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class KeySpec:
    """A key column: ``band`` (closed integer intervals) or ``label`` (exact text)."""

    name: str
    kind: KeyKind

    def header(self) -> str:
        return f"{self.name}:{self.kind}"


@dataclass(frozen=True)
class ValueSpec:
    """A value column, its type, and whether a cell may be blank (``None``)."""

    name: str
    type: ValueType = "auto"
    optional: bool = False

    def header(self) -> str:
        return f"{self.name}:{self.type}{'?' if self.optional else ''}"


@dataclass(frozen=True)
class Schema:
    """The columns of a table. Two tables are interchangeable when their schemas are equal
    (key and value columns compared by name, kind/type and optionality; order is free)."""

    keys: tuple[KeySpec, ...]
    values: tuple[ValueSpec, ...]

    def key(self, name: str) -> KeySpec:
        for k in self.keys:
            if k.name == name:
                return k
        raise KeyError(name)

    def value(self, name: str) -> ValueSpec:
        for v in self.values:
            if v.name == name:
                return v
        raise KeyError(name)

    def differences(self, other: Schema) -> list[tuple[str, str]]:
        """``(column, what differs)`` between ``self`` (expected) and ``other`` (given)."""
        out: list[tuple[str, str]] = []
        mine_k = {k.name: k for k in self.keys}
        theirs_k = {k.name: k for k in other.keys}
        mine_v = {v.name: v for v in self.values}
        theirs_v = {v.name: v for v in other.values}
        for name, k in mine_k.items():
            if name not in theirs_k:
                out.append((name, f"key column {k.header()!r} is missing"))
            elif theirs_k[name].kind != k.kind:
                out.append((name, f"key column {name!r} must be {k.kind!r}, "
                                  f"not {theirs_k[name].kind!r}"))
        for name, v in mine_v.items():
            if name not in theirs_v:
                out.append((name, f"value column {v.header()!r} is missing"))
            elif theirs_v[name] != v:
                out.append((name, f"value column must be {v.header()!r}, "
                                  f"not {theirs_v[name].header()!r}"))
        for name in theirs_k.keys() - mine_k.keys():
            out.append((name, f"unexpected key column {theirs_k[name].header()!r}"))
        for name in theirs_v.keys() - mine_v.keys():
            out.append((name, f"unexpected value column {theirs_v[name].header()!r}"))
        return out

    def describe(self) -> str:
        return ",".join([k.header() for k in self.keys] + [v.header() for v in self.values])


@dataclass(frozen=True)
class Row:
    """One row: key cells (a :class:`Band` or a label string per key column, in schema order),
    values and their sources (per value column), the file line (CSV) and an optional note."""

    keys: tuple[Band | str, ...]
    values: tuple[Any, ...]
    sources: tuple[str, ...]
    line: int | None = None
    note: str = ""


# -- the table --------------------------------------------------------------------------------


class Table:
    """A lookup table with sourced values. Build it with :func:`load_table` or the parsers.

    Rows never overlap: for any lookup at most one row matches (checked at load time).
    Results are memoized, so repeated lookups are dictionary reads.
    """

    def __init__(
        self,
        name: str,
        schema: Schema,
        rows: Sequence[Row],
        *,
        path: str | None = None,
        title: str = "",
        header_line: int | None = None,
    ) -> None:
        self.name = name
        self.schema = schema
        self.rows: tuple[Row, ...] = tuple(rows)
        self.path = path
        self.title = title
        self.header_line = header_line
        self._key_names = tuple(k.name for k in schema.keys)
        self._value_names = tuple(v.name for v in schema.values)
        self._label_idx = tuple(i for i, k in enumerate(schema.keys) if k.kind == "label")
        self._band_idx = tuple(i for i, k in enumerate(schema.keys) if k.kind == "band")
        self._groups: dict[tuple[str, ...], list[Row]] = {}
        for row in self.rows:
            self._groups.setdefault(tuple(str(row.keys[i]) for i in self._label_idx), []).append(
                row
            )
        self._bounds: dict[int, tuple[int | None, int | None]] = {}
        for i in self._band_idx:
            bands = [row.keys[i] for row in self.rows]
            los = [b.lo for b in bands if isinstance(b, Band)]
            his = [b.hi for b in bands if isinstance(b, Band)]
            self._bounds[i] = (
                None if any(lo is None for lo in los) or not los
                else min(lo for lo in los if lo is not None),
                None if any(hi is None for hi in his) or not his
                else max(hi for hi in his if hi is not None),
            )
        # Per label group, the rows bucketed by their first band key: a lookup scans the
        # distinct bands of that key, then only the rows inside the matching buckets.
        self._buckets: dict[tuple[str, ...], list[tuple[Band, list[Row]]]] = {}
        if self._band_idx:
            first = self._band_idx[0]
            for label, group in self._groups.items():
                by_band: dict[Band, list[Row]] = {}
                for row in group:
                    by_band.setdefault(_band(row, first), []).append(row)
                self._buckets[label] = sorted(by_band.items(), key=lambda item: _lo(item[0]))
        self._memo: dict[tuple[Any, ...], Row] = {}
        #: the refusal text of keys that matched no row: the AI probes off-chart keys thousands
        #: of times a game and the text (every key's covered values) is costly to write
        self._miss_memo: dict[tuple[Any, ...], str] = {}
        self._check_overlaps()

    # -- construction checks --------------------------------------------------------------

    def _check_overlaps(self) -> None:
        """No two rows may both match one lookup."""
        for group in self._groups.values():
            if not self._band_idx:
                if len(group) > 1:
                    self._overlap_error(group[0], group[1])
                continue
            first = self._band_idx[0]

            def lo_of(row: Row, i: int = first) -> float:
                band = row.keys[i]
                assert isinstance(band, Band)
                return -math.inf if band.lo is None else band.lo

            active: list[Row] = []
            for row in sorted(group, key=lo_of):
                band = row.keys[first]
                assert isinstance(band, Band)
                active = [a for a in active if _band(a, first).overlaps(band)]
                for other in active:
                    if all(_band(other, i).overlaps(_band(row, i)) for i in self._band_idx):
                        self._overlap_error(other, row)
                active.append(row)

    def _overlap_error(self, a: Row, b: Row) -> None:
        ka = ", ".join(f"{n}={v}" for n, v in zip(self._key_names, a.keys, strict=True))
        kb = ", ".join(f"{n}={v}" for n, v in zip(self._key_names, b.keys, strict=True))
        lines = sorted(x for x in (a.line, b.line) if x is not None)
        raise DataError(
            f"rows overlap in table {self.name!r}: ({ka}) and ({kb}) would both match a lookup",
            path=self.path, line=lines[-1] if lines else None,
            hint=f"the other row is on line {lines[0]}" if len(lines) == 2 else
            "make the bands of one key disjoint",
        )

    # -- lookups --------------------------------------------------------------------------

    @property
    def key_names(self) -> tuple[str, ...]:
        return self._key_names

    @property
    def value_names(self) -> tuple[str, ...]:
        return self._value_names

    def _column_index(self, column: str | None) -> int:
        if column is None:
            if len(self._value_names) == 1:
                return 0
            if "value" in self._value_names:
                return self._value_names.index("value")
            raise TableLookupError(
                f"table {self.name!r} has several value columns {list(self._value_names)}; "
                "name one: table.lookup('column', key=...)"
            )
        try:
            return self._value_names.index(column)
        except ValueError:
            raise TableLookupError(
                f"table {self.name!r} has no value column {column!r} "
                f"(columns: {', '.join(self._value_names)})"
            ) from None

    def find_row(self, keys: Mapping[str, Any], *, clamp: bool = False) -> Row:
        """The row matching ``keys`` (every key column named exactly once).

        A band key takes an int or float (matched by ``lo <= x <= hi``), or band text such as
        ``"13-16"`` (matched exactly). A label key takes text (ints are converted with ``str``).
        With ``clamp=True`` numbers below or above every band of a key are moved to the nearest
        covered end first (e.g. an Attack Rating off the chart uses the last column).
        """
        memo_key = (clamp, *(keys.get(n, _MISSING) for n in self._key_names), len(keys))
        try:
            return self._memo[memo_key]
        except (KeyError, TypeError):
            pass
        # the types too: 1, 1.0 and True are one dict key but not one refusal
        miss_key = (*memo_key, *(type(keys.get(n)) for n in self._key_names))
        try:
            miss = self._miss_memo.get(miss_key)
        except TypeError:
            miss = None
        if miss is not None:
            raise TableLookupError(miss)
        extra = set(keys) - set(self._key_names)
        missing = [n for n in self._key_names if n not in keys]
        if extra or missing:
            parts = []
            if missing:
                parts.append(f"missing key(s) {', '.join(missing)}")
            if extra:
                parts.append(f"unknown key(s) {', '.join(sorted(extra))}")
            raise TableLookupError(
                f"table {self.name!r}: {'; '.join(parts)} (keys are {', '.join(self._key_names)})"
            )
        wanted: list[Any] = []
        for i, spec in enumerate(self.schema.keys):
            v = keys[spec.name]
            if spec.kind == "label":
                if isinstance(v, bool) or not isinstance(v, str | int):
                    raise TableLookupError(
                        f"table {self.name!r}: label key {spec.name!r} needs text, got {v!r}"
                    )
                wanted.append(str(v))
            elif isinstance(v, str):
                try:
                    wanted.append(parse_band(v))
                except DataError as exc:
                    raise TableLookupError(f"table {self.name!r}: key {spec.name!r}: {exc}") \
                        from None
            elif isinstance(v, bool) or not isinstance(v, int | float):
                raise TableLookupError(
                    f"table {self.name!r}: band key {spec.name!r} needs a number, got {v!r}"
                )
            else:
                if clamp:
                    lo, hi = self._bounds[i]
                    if lo is not None and v < lo:
                        v = lo
                    if hi is not None and v > hi:
                        v = hi
                wanted.append(v)
        label = tuple(wanted[i] for i in self._label_idx)
        found: Row | None = None
        if not self._band_idx:
            group = self._groups.get(label)
            found = group[0] if group else None
        else:
            first, rest = self._band_idx[0], self._band_idx[1:]
            w0 = wanted[first]
            for band, rows in self._buckets.get(label, []):
                if not (band == w0 if isinstance(w0, Band) else w0 in band):
                    continue
                for row in rows:
                    if all(
                        (row.keys[i] == wanted[i]) if isinstance(wanted[i], Band)
                        else (wanted[i] in _band(row, i))
                        for i in rest
                    ):
                        found = row
                        break
                if found is not None:
                    break
        if found is None:
            message = self._miss_message(keys)
            with contextlib.suppress(TypeError):
                self._miss_memo[miss_key] = message
            raise TableLookupError(message)
        with contextlib.suppress(TypeError):
            self._memo[memo_key] = found
        return found

    def _miss_message(self, keys: Mapping[str, Any]) -> str:
        given = ", ".join(f"{n}={keys[n]!r}" for n in self._key_names)
        parts = []
        for i, name in enumerate(self._key_names):
            seen: list[str] = []
            for row in self.rows:
                s = str(row.keys[i])
                if s not in seen:
                    seen.append(s)
            shown = ", ".join(seen[:12]) + (", ..." if len(seen) > 12 else "")
            parts.append(f"{name} in [{shown}]")
        where = f" ({self.path})" if self.path else ""
        return f"table {self.name!r}{where} has no row for {given}; rows cover {'; '.join(parts)}"

    def lookup_keys(
        self, keys: Mapping[str, Any], column: str | None = None, *, clamp: bool = False
    ) -> Sourced[Any]:
        """The value (with its source) of ``column`` in the row matching ``keys``."""
        idx = self._column_index(column)
        row = self.find_row(keys, clamp=clamp)
        return Sourced(row.values[idx], row.sources[idx])

    def lookup(self, column: str | None = None, /, **keys: Any) -> Sourced[Any]:
        """``table.lookup(ap=14, modifier=-3)`` -> ``Sourced(56, "MBT 7.4.3")``.

        ``column`` (positional) picks a value column when there are several.
        """
        return self.lookup_keys(keys, column)

    def lookup_clamped(self, column: str | None = None, /, **keys: Any) -> Sourced[Any]:
        """As :meth:`lookup`, clamping numbers beyond the covered bands to the nearest end."""
        return self.lookup_keys(keys, column, clamp=True)

    def value(self, column: str | None = None, /, **keys: Any) -> Any:
        """As :meth:`lookup` but returns the bare value."""
        return self.lookup_keys(keys, column).value

    def lookup_row(self, **keys: Any) -> dict[str, Sourced[Any]]:
        """Every value column of the matching row, by column name."""
        row = self.find_row(keys)
        return {
            n: Sourced(v, s)
            for n, v, s in zip(self._value_names, row.values, row.sources, strict=True)
        }

    def as_function(self, column: str | None = None, *, clamp: bool = False) -> Callable[..., Any]:
        """A fast positional lookup for hot loops: ``f(*keys in schema order) -> bare value``.

        Results are cached in a plain dict; a missing key raises :class:`TableLookupError`.
        """
        idx = self._column_index(column)
        names = self._key_names
        cache: dict[tuple[Any, ...], Any] = {}

        def f(*args: Any) -> Any:
            try:
                return cache[args]
            except KeyError:
                row = self.find_row(dict(zip(names, args, strict=True)), clamp=clamp)
                cache[args] = value = row.values[idx]
                return value

        return f

    def key_values(self, name: str) -> list[Band | str]:
        """The distinct cells of key column ``name``, in file order."""
        i = self._key_names.index(name)
        out: list[Band | str] = []
        for row in self.rows:
            if row.keys[i] not in out:
                out.append(row.keys[i])
        return out

    def cells(self) -> Iterator[tuple[Row, str, Sourced[Any]]]:
        """Every non-blank value: ``(row, column name, Sourced)``."""
        for row in self.rows:
            for n, v, s in zip(self._value_names, row.values, row.sources, strict=True):
                if v is not None:
                    yield row, n, Sourced(v, s)

    def provenance(self) -> ProvenanceSummary:
        """Counts of cited, estimated and transcribed values, and the estimated cells."""
        summary = ProvenanceSummary(name=self.name, path=self.path)
        for row, column, sv in self.cells():
            keys = tuple((n, str(k)) for n, k in zip(self._key_names, row.keys, strict=True))
            summary.add(classify_source(sv.source), CellRef(self.name, keys, column, self.path,
                                                            row.line))
        return summary

    def __len__(self) -> int:
        return len(self.rows)

    def __repr__(self) -> str:
        return f"Table({self.name!r}, {self.schema.describe()!r}, {len(self.rows)} rows)"


_MISSING = object()


def _lo(band: Band) -> float:
    return -math.inf if band.lo is None else band.lo


def _band(row: Row, i: int) -> Band:
    band = row.keys[i]
    assert isinstance(band, Band)
    return band
