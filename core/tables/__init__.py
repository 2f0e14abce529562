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

The package, by concern: :mod:`~hexwar.core.tables.bands` (range bands),
:mod:`~hexwar.core.tables.model` (schema, rows, :class:`Table` and its lookups),
:mod:`~hexwar.core.tables.cells` (one cell, a header, a row), :mod:`~hexwar.core.tables.loading`
(CSV and TOML files), :mod:`~hexwar.core.tables.tableset` (table sets and packs),
:mod:`~hexwar.core.tables.disclosed` (disclosed numbers). Import every name from
``hexwar.core.tables``.
"""

from __future__ import annotations

from hexwar.core.tables.bands import Band, parse_band
from hexwar.core.tables.disclosed import Disclosed, check_disclosed
from hexwar.core.tables.loading import TABLE_SUFFIXES, load_table, parse_table_csv, parse_table_toml
from hexwar.core.tables.model import (
    KEY_KINDS,
    RESERVED,
    VALUE_TYPES,
    KeyKind,
    KeySpec,
    Row,
    Schema,
    Table,
    TableLookupError,
    ValueSpec,
    ValueType,
)
from hexwar.core.tables.tableset import TableSet

__all__ = [
    "KEY_KINDS",
    "RESERVED",
    "TABLE_SUFFIXES",
    "VALUE_TYPES",
    "Band",
    "Disclosed",
    "KeyKind",
    "KeySpec",
    "Row",
    "Schema",
    "Table",
    "TableLookupError",
    "TableSet",
    "ValueSpec",
    "ValueType",
    "check_disclosed",
    "load_table",
    "parse_band",
    "parse_table_csv",
    "parse_table_toml",
]
