"""From file cells to the model: one value or key cell, a header into a schema, one row's cells
into a :class:`~hexwar.core.tables.model.Row` (shared by the CSV and TOML readers)."""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any

from hexwar.core.errors import DataError
from hexwar.core.provenance import classify_source
from hexwar.core.tables.bands import Band, normalize_minus, parse_band
from hexwar.core.tables.model import KEY_KINDS, RESERVED, VALUE_TYPES, KeySpec, Row, Schema, ValueSpec

# -- cell parsing -----------------------------------------------------------------------------


def parse_value(raw: object, vtype: str) -> Any:
    """Parse one value cell. ``raw`` is CSV text or a native TOML value. Raises ValueError."""
    if isinstance(raw, str):
        text = raw.strip()
        if vtype == "str":
            return text
        if vtype == "interval":
            return parse_band(text)
        num = normalize_minus(text)
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


def parse_key(raw: object, kind: str) -> Band | str:
    if kind == "band":
        return parse_band(raw)
    if isinstance(raw, bool) or not isinstance(raw, str | int | float):
        raise DataError(f"malformed label {raw!r}")
    text = str(raw).strip()
    if not text:
        raise DataError("empty label")
    return text


def parse_header_cell(cell: str) -> tuple[str, str | None, bool]:
    """``"name:type?"`` -> (name, type or None, optional)."""
    cell = cell.strip()
    optional = cell.endswith("?")
    if optional:
        cell = cell[:-1].rstrip()
    name, sep, kind = cell.partition(":")
    return name.strip(), (kind.strip() if sep else None), optional


_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


def build_schema(
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


def make_row(
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
            keys.append(parse_key(raw, spec.kind))
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
                value = parse_value(raw, vspec.type)
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
