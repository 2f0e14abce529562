"""Numbers the rulebook text discloses, and the check that a table set agrees with them."""

from __future__ import annotations

import contextlib
import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from hexwar.core.errors import DataError
from hexwar.core.provenance import SourceKind, classify_source, is_estimated
from hexwar.core.tables.cells import parse_value
from hexwar.core.tables.model import Table, TableLookupError
from hexwar.core.types import Problem


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
                expected = parse_value(expected, vspec.type)
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
