"""Table sets: the tables of a system's folder, overlaid with a user's pack."""

from __future__ import annotations

import difflib
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path

from hexwar.core.errors import DataError
from hexwar.core.provenance import ProvenanceSummary, format_provenance_report
from hexwar.core.tables.loading import load_table, table_files
from hexwar.core.tables.model import Table, TableLookupError


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
        return cls(load_table(p) for p in table_files(Path(folder)).values())

    def with_pack(self, pack_dir: str | Path) -> TableSet:
        """A new set in which the tables of ``pack_dir`` replace the shipped ones by name.

        Each pack table must have the shipped table's schema (same key columns and kinds, same
        value columns and types); a pack table with an unknown name is an error too. Errors name
        the pack file, the header line and the column.
        """
        replaced: dict[str, Table] = {}
        for stem, p in table_files(Path(pack_dir)).items():
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
