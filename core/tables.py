"""Data tables: range bands, 1-D and 2-D charts, table sets, user table packs, disclosure checks.

Tables are data, never code: CSV (long format) or TOML files, one table per file, the file's stem
being the table's name. Every value carries its provenance (see :mod:`hexwar.core.provenance`).
The file format is documented in ``docs/data-format.md``; in short, a CSV header names key columns
(``ap:band``, ``unit:label``), value columns (``value``, ``hits_4:int``, ``los:interval?``) and a
``source`` column::

    # AP POINT EFFECT HIT CHART (MBT 7.4.3): stand-in values except where cited
    ap:band,modifier:band,value:int,source
    13-16,-3,56,MBT 7.4.3
    13-16,-6--4,50,estimated

A lookup names every key: ``table.lookup(ap=14, modifier=-3)`` returns ``Sourced(56, "MBT
7.4.3")`` and ``table.value(ap=14, modifier=-3)`` returns ``56``. Band keys are closed integer
intervals ("13-16", "5", "21+", "<=3", "-6--4"); label keys match exactly.

A :class:`TableSet` is all tables of a folder; :meth:`TableSet.with_pack` replaces tables by name
with a user's pack (e.g. transcribed from the physical cards), checking each against the shipped
schema. :func:`check_disclosed` compares a table set with every number the rulebook discloses.
"""

from __future__ import annotations

import contextlib
import csv
import difflib
import math
import re
import tomllib
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any, Literal

from hexwar.core.errors import DataError, HexwarError
from hexwar.core.provenance import (
    CellRef,
    ProvenanceSummary,
    Sourced,
    SourceKind,
    classify_source,
    format_provenance_report,
    is_estimated,
)
from hexwar.core.types import Problem

__all__ = [
    "Band",
    "Disclosed",
    "KeySpec",
    "Row",
    "Schema",
    "Table",
    "TableLookupError",
    "TableSet",
    "ValueSpec",
    "check_disclosed",
    "load_table",
    "parse_band",
    "parse_table_csv",
    "parse_table_toml",
]

KeyKind = Literal["band", "label"]
ValueType = Literal["auto", "int", "float", "str", "interval"]
KEY_KINDS: tuple[str, ...] = ("band", "label")
VALUE_TYPES: tuple[str, ...] = ("auto", "int", "float", "str", "interval")
RESERVED = frozenset({"source", "note", "notes"})
TABLE_SUFFIXES = (".csv", ".toml")


class TableLookupError(HexwarError, LookupError):
    """A lookup named unknown keys, missed a key, or fell outside every row of the table."""


# -- bands ------------------------------------------------------------------------------------

_INT = r"[+-]?\d+"
_BAND_RANGE = re.compile(rf"^({_INT})\s*-\s*({_INT})$")
_BAND_ONE = re.compile(rf"^({_INT})$")
_BAND_PLUS = re.compile(rf"^({_INT})\s*\+$")
_BAND_LE = re.compile(rf"^(?:<=|≤)\s*({_INT})$")
_BAND_GE = re.compile(rf"^(?:>=|≥)\s*({_INT})$")


def _normalize_minus(text: str) -> str:
    # Rulebook digests print the minus sign and dashes as U+2212 / U+2013 / U+2014.
    return text.replace("\u2212", "-").replace("\u2013", "-").replace("\u2014", "-").strip()


@dataclass(frozen=True, order=True)
class Band:
    """A closed interval of integers ``lo..hi``; ``None`` means unbounded on that side.

    A lookup value ``x`` (int or float) is in the band when ``lo <= x <= hi``.
    """

    lo: int | None
    hi: int | None

    def __post_init__(self) -> None:
        if self.lo is not None and self.hi is not None and self.lo > self.hi:
            raise DataError(f"empty band {self.lo}..{self.hi}: the low end is above the high end")

    def __contains__(self, x: object) -> bool:
        if isinstance(x, bool) or not isinstance(x, int | float):
            return False
        return (self.lo is None or x >= self.lo) and (self.hi is None or x <= self.hi)

    def overlaps(self, other: Band) -> bool:
        lo_ok = self.lo is None or other.hi is None or self.lo <= other.hi
        hi_ok = self.hi is None or other.lo is None or other.lo <= self.hi
        return lo_ok and hi_ok

    def __str__(self) -> str:
        if self.lo is None and self.hi is None:
            return "any"
        if self.lo is None:
            return f"<={self.hi}"
        if self.hi is None:
            return f"{self.lo}+"
        if self.lo == self.hi:
            return str(self.lo)
        return f"{self.lo}-{self.hi}"


def parse_band(text: object) -> Band:
    """Parse a band: ``"13-16"``, ``"5"``, ``"21+"``, ``">=21"``, ``"<=3"``, ``"-3"``,
    ``"-6--4"`` (negative ends), ``"-3-2"`` (-3 to 2). An int is a one-value band.

    En dashes and the Unicode minus are accepted. ``"96-00"`` is rejected: write 100.
    Raises :class:`DataError` (without a location; loaders add file, line and column).
    """
    if isinstance(text, bool):
        raise DataError(f"malformed band {text!r}")
    if isinstance(text, int):
        return Band(text, text)
    if not isinstance(text, str):
        raise DataError(f"malformed band {text!r}: expected text such as \"13-16\" or an integer")
    t = _normalize_minus(text)
    hint = 'write "13-16", "5", "21+", "<=3" or "-6--4"'
    if m := _BAND_RANGE.match(t):
        lo, hi = int(m.group(1)), int(m.group(2))
        if lo > hi:
            if m.group(2) in ("00", "0") and lo > 0:
                raise DataError(
                    f"malformed band {text!r}: the high end reads as {hi}",
                    hint='a percentile "00" means 100; write it as 100',
                )
            raise DataError(f"malformed band {text!r}: the low end is above the high end",
                            hint=hint)
        return Band(lo, hi)
    if m := _BAND_ONE.match(t):
        return Band(int(m.group(1)), int(m.group(1)))
    if m := (_BAND_PLUS.match(t) or _BAND_GE.match(t)):
        return Band(int(m.group(1)), None)
    if m := _BAND_LE.match(t):
        return Band(None, int(m.group(1)))
    raise DataError(f"malformed band {text!r}", hint=hint)


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


# -- cell parsing -----------------------------------------------------------------------------


def _parse_value(raw: object, vtype: str) -> Any:
    """Parse one value cell. ``raw`` is CSV text or a native TOML value. Raises ValueError."""
    if isinstance(raw, str):
        text = raw.strip()
        if vtype == "str":
            return text
        if vtype == "interval":
            return parse_band(text)
        num = _normalize_minus(text)
        if vtype == "int":
            return int(num)
        if vtype == "float":
            if "/" in num:
                return float(Fraction(num))
            return float(num)
        # auto
        try:
            return int(num)
        except ValueError:
            pass
        try:
            value = float(num)
        except ValueError:
            return text
        return value if math.isfinite(value) else text
    if isinstance(raw, bool):
        if vtype in ("auto", "str"):
            return raw
        raise ValueError(f"a boolean is not a {vtype}")
    if isinstance(raw, int):
        if vtype in ("auto", "int"):
            return raw
        if vtype == "float":
            return float(raw)
        if vtype == "interval":
            return parse_band(raw)
        return str(raw)
    if isinstance(raw, float):
        if vtype in ("auto", "float"):
            return raw
        if vtype == "int" and raw.is_integer():
            return int(raw)
        raise ValueError(f"{raw!r} is not a {vtype}")
    if vtype == "auto" and isinstance(raw, list | dict):
        return raw
    raise ValueError(f"{raw!r} is not a {vtype}")


def _parse_key(raw: object, kind: str) -> Band | str:
    if kind == "band":
        return parse_band(raw)
    if isinstance(raw, bool) or not isinstance(raw, str | int | float):
        raise DataError(f"malformed label {raw!r}")
    text = str(raw).strip()
    if not text:
        raise DataError("empty label")
    return text


def _parse_header_cell(cell: str) -> tuple[str, str | None, bool]:
    """``"name:type?"`` -> (name, type or None, optional)."""
    cell = cell.strip()
    optional = cell.endswith("?")
    if optional:
        cell = cell[:-1].rstrip()
    name, sep, kind = cell.partition(":")
    return name.strip(), (kind.strip() if sep else None), optional


_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


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
            raise TableLookupError(self._miss_message(keys))
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


# -- loading ----------------------------------------------------------------------------------


def _build_schema(
    columns: Sequence[tuple[str, str | None, bool]], *, path: str | None, line: int | None
) -> tuple[Schema, dict[str, int]]:
    """From parsed header cells, the schema and the positions of special columns.

    Special columns: ``source`` (row source), ``source.<value column>`` (per-column override),
    ``note``/``notes`` (free text, kept on the row).
    """
    keys: list[KeySpec] = []
    values: list[ValueSpec] = []
    special: dict[str, int] = {}
    seen: set[str] = set()
    for pos, (name, kind, optional) in enumerate(columns):
        label = name or f"#{pos + 1}"
        if name in seen:
            raise DataError(f"duplicate column {name!r}", path=path, line=line, key=label)
        seen.add(name)
        if name in RESERVED or name.startswith("source."):
            if kind is not None or optional:
                raise DataError(f"column {name!r} takes no type", path=path, line=line, key=name)
            special[name] = pos
            continue
        if not _NAME.match(name):
            raise DataError(
                f"bad column name {name!r}", path=path, line=line, key=label,
                hint="column names are letters, digits and underscores, optionally with :type",
            )
        if kind in KEY_KINDS:
            if optional:
                raise DataError("a key column cannot be optional", path=path, line=line, key=name)
            keys.append(KeySpec(name, kind))  # type: ignore[arg-type]
        elif kind is None or kind in VALUE_TYPES:
            values.append(ValueSpec(name, (kind or "auto"), optional))  # type: ignore[arg-type]
        else:
            raise DataError(
                f"unknown column type {kind!r} in {name}:{kind}", path=path, line=line, key=name,
                hint="key columns are :band or :label; value columns are :int, :float, :str, "
                     ":interval or untyped (auto)",
            )
    if "source" not in special:
        raise DataError("no `source` column", path=path, line=line,
                        hint="every table needs a source column (rule reference or estimated)")
    if not values:
        raise DataError("no value column", path=path, line=line,
                        hint="add a column such as `value` or `value:int`")
    value_names = {v.name for v in values}
    for name in special:
        if name.startswith("source.") and name[len("source."):] not in value_names:
            raise DataError(f"{name!r} names no value column", path=path, line=line, key=name)
    return Schema(tuple(keys), tuple(values)), special


def _make_row(
    schema: Schema,
    key_cells: Mapping[str, object],
    value_cells: Mapping[str, object],
    row_source: object,
    col_sources: Mapping[str, object],
    *,
    path: str | None,
    line: int | None,
    where: str,
    note: str = "",
) -> Row:
    """Parse and validate one row; errors name ``path``, ``line`` and the column."""
    keys: list[Band | str] = []
    for spec in schema.keys:
        raw = key_cells.get(spec.name)
        if raw is None or (isinstance(raw, str) and not raw.strip()):
            raise DataError(f"{where}: empty key cell", path=path, line=line, key=spec.name)
        try:
            keys.append(_parse_key(raw, spec.kind))
        except DataError as exc:
            raise DataError(f"{where}: {exc.message}", path=path, line=line, key=spec.name,
                            hint=exc.hint) from None
    values: list[Any] = []
    sources: list[str] = []
    for vspec in schema.values:
        raw = value_cells.get(vspec.name)
        if raw is None or (isinstance(raw, str) and not raw.strip()):
            if not vspec.optional:
                raise DataError(
                    f"{where}: empty value", path=path, line=line, key=vspec.name,
                    hint=f"fill it in, or declare the column optional ({vspec.name}:"
                         f"{vspec.type}?)",
                )
            value: Any = None
        else:
            try:
                value = _parse_value(raw, vspec.type)
            except DataError as exc:
                raise DataError(f"{where}: {exc.message}", path=path, line=line,
                                key=vspec.name, hint=exc.hint) from None
            except (ValueError, ZeroDivisionError):
                raise DataError(
                    f"{where}: {raw!r} is not a valid {vspec.type}", path=path, line=line,
                    key=vspec.name,
                ) from None
        src = col_sources.get(vspec.name)
        if src is None or (isinstance(src, str) and not src.strip()):
            src = row_source
        if value is not None or (isinstance(src, str) and src.strip()):
            try:
                classify_source(src)
            except DataError as exc:
                raise DataError(
                    f"{where}: {exc.message}", path=path, line=line,
                    key="source" if vspec.name not in col_sources else f"source.{vspec.name}",
                    hint=exc.hint,
                ) from None
        assert isinstance(src, str) or value is None
        values.append(value)
        sources.append(src.strip() if isinstance(src, str) else "")
    return Row(tuple(keys), tuple(values), tuple(sources), line, note)


def _data_lines(text: str) -> Iterator[tuple[int, str]]:
    for number, line in enumerate(text.splitlines(), start=1):
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            continue
        yield number, line


def _directives(text: str) -> dict[str, tuple[int, str]]:
    """``# title: ...`` and ``# value: ...`` comments before the header: name -> (line, text)."""
    found: dict[str, tuple[int, str]] = {}
    for number, line in enumerate(text.splitlines(), start=1):
        s = line.strip()
        if s and not s.startswith("#"):
            break
        m = re.match(r"^#\s*(title|value)\s*:(.*)$", s, re.IGNORECASE)
        if m and m.group(1).lower() not in found:
            found[m.group(1).lower()] = (number, m.group(2).strip())
    return found


def parse_table_csv(text: str, name: str, *, path: str | None = None) -> Table:
    """Parse a CSV table (see ``docs/data-format.md``), long or wide.

    Blank lines and lines starting with ``#`` are ignored; a ``# title: ...`` comment before the
    header sets the title. Quoted fields may not span lines.

    *Wide* ("grid") form: header cells written ``<key>:<kind>=<cell>`` (e.g. ``modifier:band=-3``)
    are the columns of a printed chart; they all belong to one key. Each non-blank grid cell
    becomes one row; a blank grid cell is no entry. A cell may carry its own source after a bar,
    ``56 | MBT 7.4.3``; otherwise the row's ``source`` applies. The value column is ``value``
    (auto type) unless a ``# value: <name>:<type>`` comment before the header says otherwise.
    """
    text = text.lstrip("\ufeff")
    directives = _directives(text)
    title = directives.get("title", (0, ""))[1]
    lines = iter(_data_lines(text))
    try:
        header_line, header_text = next(lines)
    except StopIteration:
        raise DataError("empty table: no header line", path=path) from None
    header = _csv_cells(header_text, path, header_line)
    if any("=" in cell for cell in header):
        return _parse_wide(name, header, header_line, lines, directives, path=path, title=title)
    schema, special = _build_schema(
        [_parse_header_cell(c) for c in header], path=path, line=header_line
    )
    names = [_parse_header_cell(c)[0] for c in header]
    rows: list[Row] = []
    for number, line in lines:
        cells = _csv_cells(line, path, number)
        _check_width(cells, names, path, number)
        by_name = dict(zip(names, cells, strict=True))
        note_col = "note" if "note" in special else "notes"
        rows.append(_make_row(
            schema,
            {k.name: by_name[k.name] for k in schema.keys},
            {v.name: by_name[v.name] for v in schema.values},
            by_name["source"],
            {n[len("source."):]: by_name[n] for n in special if n.startswith("source.")},
            path=path, line=number, where=f"row of table {name!r}",
            note=by_name.get(note_col, "").strip(),
        ))
    if not rows:
        raise DataError(f"table {name!r} has a header but no rows", path=path, line=header_line)
    return Table(name, schema, rows, path=path, title=title, header_line=header_line)


def _check_width(cells: list[str], names: list[str], path: str | None, number: int) -> None:
    if len(cells) != len(names):
        raise DataError(
            f"{len(cells)} cells but the header has {len(names)} columns", path=path,
            line=number, hint="quote cells that contain commas",
        )


def _parse_wide(
    name: str,
    header: list[str],
    header_line: int,
    lines: Iterator[tuple[int, str]],
    directives: Mapping[str, tuple[int, str]],
    *,
    path: str | None,
    title: str,
) -> Table:
    """The wide (grid) CSV form; see :func:`parse_table_csv`."""
    pivot_name: str | None = None
    pivot_kind: str | None = None
    pivot_cols: list[tuple[int, str, Band | str]] = []  # (position, header text, key cell)
    plain: list[tuple[str, str | None, bool]] = []
    plain_pos: list[int] = []
    for pos, cell in enumerate(header):
        if "=" not in cell:
            plain.append(_parse_header_cell(cell))
            plain_pos.append(pos)
            continue
        left, _, right = cell.partition("=")
        key, _, kind = left.strip().partition(":")
        key, kind = key.strip(), kind.strip()
        if kind not in KEY_KINDS:
            raise DataError(
                f"grid column {cell!r} must name its key and kind, e.g. modifier:band=-3",
                path=path, line=header_line, key=cell,
            )
        if pivot_name is not None and (key, kind) != (pivot_name, pivot_kind):
            raise DataError(
                f"grid column {cell!r} names another key than {pivot_name}:{pivot_kind}",
                path=path, line=header_line, key=cell, hint="a grid spreads only one key",
            )
        pivot_name, pivot_kind = key, kind
        try:
            pivot_cols.append((pos, cell, _parse_key(right.strip(), kind)))
        except DataError as exc:
            raise DataError(exc.message, path=path, line=header_line, key=cell,
                            hint=exc.hint) from None
    assert pivot_name is not None and pivot_kind is not None
    vline, vdecl = directives.get("value", (header_line, "value"))
    vname, vtype, voptional = _parse_header_cell(vdecl)
    plain_keys = [c for c in plain if c[1] in KEY_KINDS]
    others = [c for c in plain if c[1] not in KEY_KINDS]
    if any(c[0] == pivot_name for c in plain):
        raise DataError(f"key {pivot_name!r} is both a column and a grid key", path=path,
                        line=header_line, key=pivot_name)
    if any(c[0] not in RESERVED for c in others):
        bad = next(c[0] for c in others if c[0] not in RESERVED)
        raise DataError(
            f"column {bad!r} in a grid table", path=path, line=header_line, key=bad,
            hint="a grid table has key columns (:band/:label), grid columns (key:kind=cell), "
                 "source and note; declare the value with a '# value: name:type' comment",
        )
    columns = [*plain_keys, (pivot_name, pivot_kind, False), (vname, vtype, voptional),
               ("source", None, False)]
    try:
        schema, _ = _build_schema(columns, path=path, line=header_line)
    except DataError as exc:
        if exc.key == vname:
            raise DataError(exc.message, path=path, line=vline, key=vname, hint=exc.hint) \
                from None
        raise
    names = [_parse_header_cell(c)[0] if "=" not in c else c for c in header]
    rows: list[Row] = []
    for number, line in lines:
        cells = _csv_cells(line, path, number)
        _check_width(cells, names, path, number)
        by_pos = dict(enumerate(cells))
        by_name = {plain[i][0]: by_pos[p] for i, p in enumerate(plain_pos)}
        for pos, head, pivot_cell in pivot_cols:
            raw = by_pos[pos]
            if not raw:
                continue
            value_text, bar, cell_source = raw.partition("|")
            key_cells: dict[str, object] = {k[0]: by_name[k[0]] for k in plain_keys}
            key_cells[pivot_name] = str(pivot_cell)
            try:
                row = _make_row(
                    schema, key_cells, {vname: value_text.strip()}, by_name.get("source", ""),
                    {vname: cell_source.strip()} if bar else {},
                    path=path, line=number, where=f"cell {head!r} of table {name!r}",
                    note=by_name.get("note", by_name.get("notes", "")).strip(),
                )
            except DataError as exc:
                raise DataError(exc.message, path=path, line=number,
                                key=head if exc.key in (vname, "source", f"source.{vname}")
                                else exc.key, hint=exc.hint) from None
            rows.append(row)
    if not rows:
        raise DataError(f"table {name!r} has a header but no cells", path=path, line=header_line)
    return Table(name, schema, rows, path=path, title=title, header_line=header_line)


def _csv_cells(line: str, path: str | None, number: int) -> list[str]:
    try:
        cells = next(csv.reader([line], strict=True, skipinitialspace=True))
    except csv.Error as exc:
        raise DataError(f"malformed CSV: {exc}", path=path, line=number) from None
    return [c.strip() for c in cells]


def parse_table_toml(data: Mapping[str, Any], name: str, *, path: str | None = None) -> Table:
    """Build a table from parsed TOML (see ``docs/data-format.md``)::

        title = "..."
        source = "estimated"          # default source of the rows (optional)
        [keys]                        # key column -> "band" | "label" (order is kept)
        ap = "band"
        [values]                      # value column -> type ("int?" = optional)
        value = "int"
        [[rows]]
        ap = "13-16"
        value = { value = 56, source = "MBT 7.4.3" }   # or: value = 56, source = "..."
    """
    where_top = path
    unknown = set(data) - {"title", "source", "keys", "values", "rows"}
    if unknown:
        raise DataError(f"unknown top-level key(s) {sorted(unknown)}", path=where_top,
                        hint="a TOML table has title, source, [keys], [values], [[rows]]")
    keys_decl = data.get("keys", {})
    values_decl = data.get("values")
    if not isinstance(keys_decl, Mapping) or not isinstance(values_decl, Mapping):
        raise DataError("[keys] and [values] must be tables", path=where_top,
                        hint='[values] is required, e.g. value = "int"')
    columns: list[tuple[str, str | None, bool]] = []
    for k, kind in keys_decl.items():
        if kind not in KEY_KINDS:
            raise DataError(f"key column {k!r} must be \"band\" or \"label\", not {kind!r}",
                            path=where_top, key=f"keys.{k}")
        columns.append((k, kind, False))
    for v, vtype in values_decl.items():
        if not isinstance(vtype, str):
            raise DataError(f"value column {v!r} type must be text", path=where_top,
                            key=f"values.{v}")
        columns.append(_parse_header_cell(f"{v}:{vtype}"))
    columns.append(("source", None, False))
    schema, _ = _build_schema(columns, path=where_top, line=None)
    default = data.get("source")
    raw_rows = data.get("rows", [])
    if not isinstance(raw_rows, list) or not raw_rows:
        raise DataError(f"table {name!r} has no [[rows]]", path=where_top)
    rows: list[Row] = []
    allowed = {k.name for k in schema.keys} | {v.name for v in schema.values} | RESERVED
    for i, raw in enumerate(raw_rows):
        where = f"rows[{i}]"
        if not isinstance(raw, Mapping):
            raise DataError(f"{where} is not a table", path=where_top, key=where)
        extra = set(raw) - allowed
        if extra:
            raise DataError(f"{where}: unknown column(s) {sorted(extra)}", path=where_top,
                            key=f"{where}.{sorted(extra)[0]}",
                            hint=f"columns are {schema.describe()}")
        value_cells: dict[str, object] = {}
        col_sources: dict[str, object] = {}
        for vspec in schema.values:
            cell = raw.get(vspec.name)
            if isinstance(cell, Mapping) and "value" in cell:
                value_cells[vspec.name] = cell["value"]
                if "source" in cell:
                    col_sources[vspec.name] = cell["source"]
            else:
                value_cells[vspec.name] = cell
        note = raw.get("note", raw.get("notes", ""))
        rows.append(_make_row(
            schema,
            {k.name: raw.get(k.name) for k in schema.keys},
            value_cells,
            raw.get("source", default),
            col_sources,
            path=where_top, line=None, where=f"{where} of table {name!r}",
            note=str(note),
        ))
    title = data.get("title", "")
    return Table(name, schema, rows, path=path, title=str(title))


def load_table(path: str | Path, *, name: str | None = None) -> Table:
    """Load one ``.csv`` or ``.toml`` table; its name is the file stem unless given."""
    p = Path(path)
    table_name = name or p.stem
    try:
        if p.suffix == ".csv":
            return parse_table_csv(p.read_text(encoding="utf-8-sig"), table_name, path=str(p))
        if p.suffix == ".toml":
            with p.open("rb") as fh:
                data = tomllib.load(fh)
            return parse_table_toml(data, table_name, path=str(p))
    except tomllib.TOMLDecodeError as exc:
        raise DataError(f"invalid TOML: {exc}", path=str(p)) from None
    except UnicodeDecodeError as exc:
        raise DataError(f"not UTF-8 text: {exc}", path=str(p)) from None
    except OSError as exc:
        raise DataError(f"cannot read file: {exc}", path=str(p)) from None
    raise DataError(f"unsupported table file type {p.suffix!r}", path=str(p),
                    hint="tables are .csv or .toml files")


def _table_files(folder: Path) -> dict[str, Path]:
    if not folder.is_dir():
        raise DataError("not a folder of tables", path=str(folder))
    found: dict[str, Path] = {}
    for p in sorted(folder.iterdir()):
        if p.suffix not in TABLE_SUFFIXES or not p.is_file() or p.name.startswith("."):
            continue
        if p.stem in found:
            raise DataError(
                f"two files define table {p.stem!r}: {found[p.stem].name} and {p.name}",
                path=str(p),
            )
        found[p.stem] = p
    return found


# -- table sets -------------------------------------------------------------------------------


class TableSet(Mapping[str, Table]):
    """Named tables: a system's shipped folder, optionally overlaid with a user's pack."""

    def __init__(self, tables: Iterable[Table] = (), *, replaced: Iterable[str] = ()) -> None:
        self._tables: dict[str, Table] = {}
        for t in tables:
            if t.name in self._tables:
                raise DataError(f"table {t.name!r} defined twice", path=t.path,
                                hint=f"the other definition is {self._tables[t.name].path}")
            self._tables[t.name] = t
        self.replaced: frozenset[str] = frozenset(replaced)

    @classmethod
    def load_dir(cls, folder: str | Path) -> TableSet:
        """Every ``*.csv`` and ``*.toml`` file of ``folder`` (not recursive)."""
        return cls(load_table(p) for p in _table_files(Path(folder)).values())

    def with_pack(self, pack_dir: str | Path) -> TableSet:
        """A new set in which the tables of ``pack_dir`` replace the shipped ones by name.

        Each pack table must have the shipped table's schema (same key columns and kinds, same
        value columns and types); a pack table with an unknown name is an error too. Errors name
        the pack file, the header line and the column.
        """
        replaced: dict[str, Table] = {}
        for stem, p in _table_files(Path(pack_dir)).items():
            if stem not in self._tables:
                close = difflib.get_close_matches(stem, list(self._tables), n=1)
                raise DataError(
                    f"pack table {stem!r} replaces no shipped table", path=str(p),
                    hint=(f"did you mean {close[0]!r}?" if close else
                          f"shipped tables: {', '.join(sorted(self._tables)) or '(none)'}"),
                )
            table = load_table(p)
            shipped = self._tables[stem]
            diffs = shipped.schema.differences(table.schema)
            if diffs:
                column, what = diffs[0]
                raise DataError(
                    f"pack table does not match the shipped schema: {what}",
                    path=str(p), line=table.header_line, key=column,
                    hint=f"the shipped header is {shipped.schema.describe()},source"
                    + (f" ({shipped.path})" if shipped.path else ""),
                )
            replaced[stem] = table
        merged = [replaced.get(n, t) for n, t in self._tables.items()]
        return TableSet(merged, replaced=self.replaced | replaced.keys())

    def provenance(self) -> list[ProvenanceSummary]:
        """One summary per table (sorted by name), pack tables flagged."""
        out = []
        for name in sorted(self._tables):
            s = self._tables[name].provenance()
            s.replaced_by_pack = name in self.replaced
            out.append(s)
        return out

    def report(self, *, list_estimated: bool = True, limit: int = 50) -> str:
        """The text behind ``hexwar data check SYSTEM``."""
        return format_provenance_report(self.provenance(), list_estimated=list_estimated,
                                        limit=limit)

    def __getitem__(self, name: str) -> Table:
        try:
            return self._tables[name]
        except KeyError:
            close = difflib.get_close_matches(name, list(self._tables), n=1)
            hint = f"; did you mean {close[0]!r}?" if close else ""
            raise TableLookupError(f"no table named {name!r}{hint}") from None

    def __iter__(self) -> Iterator[str]:
        return iter(self._tables)

    def __len__(self) -> int:
        return len(self._tables)

    def __contains__(self, name: object) -> bool:
        return name in self._tables

    def __repr__(self) -> str:
        return f"TableSet({sorted(self._tables)})"


# -- disclosed numbers ------------------------------------------------------------------------


@dataclass(frozen=True)
class Disclosed:
    """A table value the rulebook text discloses: the lookup keys, the value, and where.

    ``Disclosed("ap_hit", {"ap": 14, "modifier": -3}, 56, "MBT 7.4.3")``. ``column`` names the
    value column when the table has several. A value written as text for a non-text column is
    parsed like a cell of that column (``"20-24"`` for an interval column).
    """

    table: str
    keys: Mapping[str, Any] = field(hash=False)
    value: Any
    rule: str
    column: str | None = None

    def cell(self) -> str:
        """``table[key=value, ...] -> column``: the cell this disclosure is about."""
        keys = ", ".join(f"{k}={v!r}" for k, v in self.keys.items())
        col = f" -> {self.column}" if self.column else ""
        return f"{self.table}[{keys}]{col}"

    def describe(self) -> str:
        return f"{self.cell()} = {self.value!r} ({self.rule})"


def _same(a: Any, b: Any) -> bool:
    if isinstance(a, float) or isinstance(b, float):
        try:
            return math.isclose(float(a), float(b), rel_tol=1e-9, abs_tol=1e-9)
        except (TypeError, ValueError):
            return False
    return bool(a == b)


def check_disclosed(tables: Mapping[str, Table], disclosed: Iterable[Disclosed]) -> list[Problem]:
    """Compare every disclosed number with the loaded tables (a pack included).

    A problem is reported when the table or the row is missing, the value differs, the rule is
    not a rule reference, or the table holds the disclosed value but marks it ``estimated``
    (a disclosed number must be cited).
    """
    problems: list[Problem] = []
    for d in disclosed:
        key = d.describe()
        try:
            if classify_source(d.rule) is not SourceKind.CITED:
                raise DataError("not a rule reference")
        except DataError:
            problems.append(Problem(f"disclosure {key} has no rule reference", key=d.table,
                                    hint='write the rule, e.g. "MBT 7.4.3"'))
            continue
        if d.table not in tables:
            problems.append(Problem(f"no table {d.table!r} for disclosure {key}", key=d.table))
            continue
        table = tables[d.table]
        try:
            got = table.lookup_keys(d.keys, d.column)
        except TableLookupError as exc:
            problems.append(Problem(f"disclosure {key}: {exc}", path=table.path or "",
                                    key=d.table))
            continue
        expected = d.value
        vspec = table.schema.value(
            d.column or table.value_names[table._column_index(None)]
        )
        if isinstance(expected, str) and vspec.type != "str":
            with contextlib.suppress(ValueError, DataError):
                expected = _parse_value(expected, vspec.type)
        row = table.find_row(d.keys)
        if not _same(got.value, expected):
            problems.append(Problem(
                f"{d.rule} discloses {d.value!r} for {d.cell()}, but the table holds "
                f"{got.value!r} [{got.source}]",
                path=table.path or "", line=row.line, key=d.table,
            ))
        elif is_estimated(got.source):
            problems.append(Problem(
                f"{d.cell()} = {got.value!r} is disclosed by {d.rule} but marked estimated",
                path=table.path or "", line=row.line, key=d.table,
                hint=f"set its source to {d.rule!r}",
            ))
    return problems
