"""Provenance: where every number in hexwar's data comes from.

Every value loaded from a data file carries a *source*, which is exactly one of:

* a rule reference: a system name followed by a reference, e.g. ``"MBT 7.4.8"``,
  ``"Firefight 8.7"``, ``"Firepower 6.3.6.3.2"``, ``"MBT Scenario D.1"``. The number is printed
  in (or computed exactly from) the rulebook at that place;
* exactly ``"estimated"``: a stand-in the rulebook does not give (a missing chart or card);
* ``"transcription: <what>"``: taken from an outside transcription that hexwar has not verified
  against the printed component, e.g. ``"transcription: user's Game Card scan, 2026"``.

The module also reads TOML records (unit data cards and the like) in which any value may be
written plainly, inheriting the nearest enclosing ``source``, or as ``{ value = ..., source =
"..." }``; see :func:`split_provenance` and :func:`load_records`.
"""

from __future__ import annotations

import enum
import re
import tomllib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Generic, TypeVar

from hexwar.core.errors import DataError

__all__ = [
    "ESTIMATED",
    "CellRef",
    "ProvenanceSummary",
    "Records",
    "SourceKind",
    "Sourced",
    "classify_source",
    "format_provenance_report",
    "is_estimated",
    "is_transcription",
    "load_records",
    "load_records_dir",
    "split_provenance",
]

ESTIMATED = "estimated"
_TRANSCRIPTION = re.compile(r"^transcription:\s*\S")
# A system name (letters, digits, spaces, dots, hyphens; starts with a letter) then whitespace,
# then a reference that starts with a digit, a bracket or a letter-word such as "Scenario".
_RULE = re.compile(r"^[A-Za-z][A-Za-z0-9 .&'/-]*?\s+\S.*$")
_NEAR_ESTIMATED = re.compile(r"^\s*(est\b|est\.|estimate|estimated|guess)", re.IGNORECASE)

T = TypeVar("T")


class SourceKind(enum.Enum):
    """The three kinds of provenance."""

    CITED = "cited"
    ESTIMATED = "estimated"
    TRANSCRIPTION = "transcription"


def classify_source(source: object, *, where: str | None = None) -> SourceKind:
    """Classify a source string, or raise :class:`DataError` if it is none of the three kinds.

    ``where`` (e.g. ``"tables/ap_hit.csv:12"``) is only used in the error message.
    """
    if not isinstance(source, str) or not source.strip():
        raise DataError(
            "missing source", path=where,
            hint='give a rule reference ("MBT 7.4.8"), "estimated", or "transcription: <what>"',
        )
    if source == ESTIMATED:
        return SourceKind.ESTIMATED
    if source.startswith("transcription"):
        if _TRANSCRIPTION.match(source):
            return SourceKind.TRANSCRIPTION
        raise DataError(
            f"malformed source {source!r}", path=where,
            hint='write "transcription: <what was transcribed, by whom>"',
        )
    if _NEAR_ESTIMATED.match(source):
        raise DataError(
            f"malformed source {source!r}", path=where,
            hint='an estimate is written exactly "estimated" (lower case, nothing else)',
        )
    if source != source.strip() or not _RULE.match(source):
        raise DataError(
            f"malformed source {source!r}", path=where,
            hint='a rule reference is "<System> <rule>", e.g. "MBT 7.4.8" or "Firefight 8.7"',
        )
    return SourceKind.CITED


def is_estimated(source: str) -> bool:
    """True if ``source`` marks an estimate (exactly ``"estimated"``)."""
    return source == ESTIMATED


def is_transcription(source: str) -> bool:
    """True if ``source`` marks an unverified outside transcription."""
    return bool(_TRANSCRIPTION.match(source))


@dataclass(frozen=True)
class Sourced(Generic[T]):
    """A value and where it comes from (see the module docstring for ``source``)."""

    value: T
    source: str

    @property
    def kind(self) -> SourceKind:
        return classify_source(self.source)

    @property
    def estimated(self) -> bool:
        return is_estimated(self.source)

    def __str__(self) -> str:
        return f"{self.value} [{self.source}]"


@dataclass(frozen=True)
class CellRef:
    """One estimated (or otherwise notable) value: which file, line and keys."""

    table: str
    keys: tuple[tuple[str, str], ...]
    column: str
    path: str | None = None
    line: int | None = None

    def __str__(self) -> str:
        keys = ", ".join(f"{k}={v}" for k, v in self.keys)
        where = f"{self.path}:{self.line}" if self.path and self.line else (self.path or "")
        col = f" -> {self.column}" if self.column else ""
        text = f"{self.table}[{keys}]{col}"
        return f"{text} ({where})" if where else text


@dataclass
class ProvenanceSummary:
    """Counts of cited, estimated and transcribed values in one table or record file."""

    name: str
    path: str | None = None
    cited: int = 0
    estimated: int = 0
    transcription: int = 0
    estimated_cells: list[CellRef] = field(default_factory=list)
    replaced_by_pack: bool = False

    @property
    def total(self) -> int:
        return self.cited + self.estimated + self.transcription

    def add(self, kind: SourceKind, cell: CellRef | None = None) -> None:
        if kind is SourceKind.CITED:
            self.cited += 1
        elif kind is SourceKind.TRANSCRIPTION:
            self.transcription += 1
        else:
            self.estimated += 1
            if cell is not None:
                self.estimated_cells.append(cell)


def format_provenance_report(
    summaries: Iterable[ProvenanceSummary], *, list_estimated: bool = True, limit: int = 50
) -> str:
    """A plain-text report (for ``hexwar data check SYSTEM``): one line per table, then the
    estimated cells of each table (at most ``limit`` per table)."""
    rows = sorted(summaries, key=lambda s: s.name)
    lines = [f"{'table':32} {'cited':>6} {'estim.':>6} {'transc.':>7} {'total':>6}"]
    tot = [0, 0, 0, 0]
    for s in rows:
        mark = " (pack)" if s.replaced_by_pack else ""
        lines.append(
            f"{s.name + mark:32} {s.cited:6d} {s.estimated:6d} {s.transcription:7d} {s.total:6d}"
        )
        for i, n in enumerate((s.cited, s.estimated, s.transcription, s.total)):
            tot[i] += n
    lines.append(f"{'TOTAL':32} {tot[0]:6d} {tot[1]:6d} {tot[2]:7d} {tot[3]:6d}")
    if list_estimated:
        for s in rows:
            if not s.estimated_cells:
                continue
            lines.append("")
            lines.append(f"estimated in {s.name}:")
            for cell in s.estimated_cells[:limit]:
                lines.append(f"  {cell}")
            if len(s.estimated_cells) > limit:
                lines.append(f"  ... and {len(s.estimated_cells) - limit} more")
    return "\n".join(lines)


# -- TOML records with per-field provenance ---------------------------------------------------


@dataclass
class Records:
    """The result of :func:`split_provenance`: plain values plus a provenance map.

    ``values`` is the input tree with every ``{value, source}`` pair replaced by its value and
    every ``source`` default key removed. ``sources`` maps each leaf's dotted key
    (``"t80a.speed.normal"``, list items as ``"weapons[0].range"``) to its source.
    """

    values: dict[str, Any]
    sources: dict[str, str]
    path: str | None = None

    def get(self, dotted: str) -> Sourced[Any]:
        """The leaf at ``dotted`` with its source."""
        if dotted not in self.sources:
            raise DataError("no such field", path=self.path, key=dotted)
        node: Any = self.values
        for part in _split_dotted(dotted):
            node = node[part]
        return Sourced(node, self.sources[dotted])

    def count(self, kind: SourceKind) -> int:
        return sum(1 for s in self.sources.values() if classify_source(s) is kind)

    @property
    def estimated_fields(self) -> list[str]:
        return [k for k, s in self.sources.items() if is_estimated(s)]

    def summary(self, name: str) -> ProvenanceSummary:
        out = ProvenanceSummary(name=name, path=self.path)
        for key, src in self.sources.items():
            out.add(classify_source(src), CellRef(name, (), key, self.path))
        return out


def _split_dotted(dotted: str) -> list[str | int]:
    parts: list[str | int] = []
    for piece in dotted.split("."):
        m = re.fullmatch(r"([^\[]*)((?:\[\d+\])*)", piece)
        assert m is not None
        if m.group(1):
            parts.append(m.group(1))
        parts.extend(int(i) for i in re.findall(r"\[(\d+)\]", m.group(2)))
    return parts


def _is_pair(node: object) -> bool:
    return isinstance(node, Mapping) and "value" in node and set(node) <= {
        "value", "source", "note"
    }


def split_provenance(
    tree: Mapping[str, Any], *, default_source: str | None = None, path: str | None = None
) -> Records:
    """Separate values from provenance in a parsed TOML tree.

    Rules: in any table, a string key ``source`` sets the default source for that table and
    everything inside it (an inner ``source`` overrides an outer one); a leaf written
    ``{ value = x, source = "..." }`` (optionally with a ``note``) carries its own source; any
    other leaf inherits the nearest default. A leaf with no source at all, or a malformed source,
    raises :class:`DataError` naming the dotted key. ``note`` keys are dropped from pairs only.
    """
    values: dict[str, Any] = {}
    sources: dict[str, str] = {}

    def check(src: object, key: str) -> str:
        try:
            classify_source(src, where=path)
        except DataError as exc:
            raise DataError(exc.message, path=path, key=key or "(top level)", hint=exc.hint) \
                from None
        assert isinstance(src, str)
        return src

    def walk(node: Any, key: str, inherited: str | None) -> Any:
        if _is_pair(node):
            src = node.get("source", inherited)
            if src is None:
                raise DataError("missing source", path=path, key=key,
                                hint="add source = \"...\" here or in an enclosing table")
            sources[key] = check(src, key)
            return node["value"]
        if isinstance(node, Mapping):
            local = inherited
            if "source" in node:
                if not isinstance(node["source"], str):
                    raise DataError(
                        "`source` must be a string", path=path, key=_join(key, "source")
                    )
                local = check(node["source"], _join(key, "source"))
            return {
                k: walk(v, _join(key, k), local) for k, v in node.items() if k != "source"
            }
        if isinstance(node, list):
            return [walk(v, f"{key}[{i}]", inherited) for i, v in enumerate(node)]
        if inherited is None:
            raise DataError("missing source", path=path, key=key,
                            hint="write { value = ..., source = \"...\" } or set a default "
                                 "source = \"...\" in an enclosing table")
        sources[key] = inherited
        return node

    if default_source is not None:
        check(default_source, "")
    top = walk(dict(tree), "", default_source)
    assert isinstance(top, dict)
    values.update(top)
    return Records(values=values, sources=sources, path=path)


def _join(prefix: str, key: str) -> str:
    return f"{prefix}.{key}" if prefix else key


def load_records(path: str | Path, *, default_source: str | None = None) -> Records:
    """Read a TOML file and :func:`split_provenance` it. Syntax errors become DataError."""
    p = Path(path)
    try:
        with p.open("rb") as fh:
            tree = tomllib.load(fh)
    except tomllib.TOMLDecodeError as exc:
        raise DataError(f"invalid TOML: {exc}", path=str(p)) from exc
    except OSError as exc:
        raise DataError(f"cannot read file: {exc}", path=str(p)) from exc
    return split_provenance(tree, default_source=default_source, path=str(p))


def load_records_dir(folder: str | Path) -> dict[str, Records]:
    """Every ``*.toml`` file of ``folder`` (not recursive), by file stem."""
    p = Path(folder)
    if not p.is_dir():
        raise DataError("not a folder of records", path=str(p))
    return {f.stem: load_records(f) for f in sorted(p.glob("*.toml")) if f.is_file()}
