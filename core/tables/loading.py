"""Reading table files: CSV (long and wide/grid form) and TOML, one table per file, and the
tables of a folder."""

from __future__ import annotations

import csv
import re
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

from hexwar.core.errors import DataError
from hexwar.core.tables.bands import Band
from hexwar.core.tables.cells import build_schema, make_row, parse_header_cell, parse_key
from hexwar.core.tables.model import KEY_KINDS, RESERVED, Row, Table

TABLE_SUFFIXES = (".csv", ".toml")


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
    schema, special = build_schema(
        [parse_header_cell(c) for c in header], path=path, line=header_line
    )
    names = [parse_header_cell(c)[0] for c in header]
    rows: list[Row] = []
    for number, line in lines:
        cells = _csv_cells(line, path, number)
        _check_width(cells, names, path, number)
        by_name = dict(zip(names, cells, strict=True))
        note_col = "note" if "note" in special else "notes"
        rows.append(make_row(
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
            plain.append(parse_header_cell(cell))
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
            pivot_cols.append((pos, cell, parse_key(right.strip(), kind)))
        except DataError as exc:
            raise DataError(exc.message, path=path, line=header_line, key=cell,
                            hint=exc.hint) from None
    assert pivot_name is not None and pivot_kind is not None
    vline, vdecl = directives.get("value", (header_line, "value"))
    vname, vtype, voptional = parse_header_cell(vdecl)
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
        schema, _ = build_schema(columns, path=path, line=header_line)
    except DataError as exc:
        if exc.key == vname:
            raise DataError(exc.message, path=path, line=vline, key=vname, hint=exc.hint) \
                from None
        raise
    names = [parse_header_cell(c)[0] if "=" not in c else c for c in header]
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
                row = make_row(
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
        columns.append(parse_header_cell(f"{v}:{vtype}"))
    columns.append(("source", None, False))
    schema, _ = build_schema(columns, path=where_top, line=None)
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
        rows.append(make_row(
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


# Tables are read-only once built, so a file is parsed (and its rows checked for overlaps) once
# while its size and modification time stay the same; every game and pack shares the result.
_LOADED: dict[tuple[str, str, int, int], Table] = {}


def load_table(path: str | Path, *, name: str | None = None) -> Table:
    """Load one ``.csv`` or ``.toml`` table; its name is the file stem unless given."""
    p = Path(path)
    table_name = name or p.stem
    try:
        st = p.stat()
    except OSError as exc:
        raise DataError(f"cannot read file: {exc}", path=str(p)) from None
    key = (str(p.resolve()), table_name, st.st_mtime_ns, st.st_size)
    found = _LOADED.get(key)
    if found is None:
        found = _parse_table_file(p, table_name)
        if len(_LOADED) >= 512:
            _LOADED.pop(next(iter(_LOADED)))
        _LOADED[key] = found
    return found


def _parse_table_file(p: Path, table_name: str) -> Table:
    from hexwar.core.safeload import parse_toml, read_text

    if p.suffix == ".csv":
        return parse_table_csv(read_text(p, what="table"), table_name, path=str(p))
    if p.suffix == ".toml":
        data = parse_toml(read_text(p, what="table"), path=str(p), what="table")
        return parse_table_toml(data, table_name, path=str(p))
    raise DataError(f"unsupported table file type {p.suffix!r}", path=str(p),
                    hint="tables are .csv or .toml files")


def table_files(folder: Path) -> dict[str, Path]:
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
