"""Per-game records of a simulation, written as each game finishes, so that an interrupted run
keeps every finished game and ``--resume`` continues it (docs/decisions.md CORE-36).

A records file is JSON Lines: a header line naming the run (scenario and its hash, options,
players, first seed, variants, and the number of games first asked: a resumed run may ask more),
then one line per finished game. Every line is flushed when its
game ends; a torn last line (the process killed while writing it) is dropped on resume. A file
ending ``.parquet`` is written through pyarrow: Parquet cannot be appended a row at a time, so the
games go to a journal ``FILE.partial.jsonl`` while the run lasts, and the Parquet file is written
from the journal when the run ends or is interrupted; the journal is removed once the run is
complete. Both read with pandas (``pandas.read_json(FILE, lines=True)`` skipping the header row,
or ``pandas.read_parquet(FILE)``).
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from hexwar.core.errors import HexwarError

FORMAT = "hexwar-simulation"
VERSION = 1


class RecordsError(HexwarError):
    """A records file cannot be written, read or continued."""


@dataclass(frozen=True)
class GameRecord:
    """How one game of a simulation went. ``variant`` names the parameter value of a balance run
    (``""`` for a plain simulation); ``(variant, index)`` identifies the game in its run.
    ``seconds`` and ``worker`` describe where and how fast it ran, not the game: they are left
    out of :meth:`outcome`, which is the same whatever the parallelism."""

    variant: str
    index: int
    seed: int
    winner: str | None
    level: str
    scores: Mapping[str, float]
    margin: float | None
    reasons: tuple[str, ...]
    decisions: int
    turns: int
    casualties: Mapping[str, Mapping[str, int]]
    objectives: Mapping[str, str] | None
    seconds: float = 0.0
    worker: str = ""

    @property
    def key(self) -> tuple[str, int]:
        return (self.variant, self.index)

    def to_dict(self) -> dict[str, Any]:
        return {
            "type": "game", "variant": self.variant, "index": self.index, "seed": self.seed,
            "winner": self.winner, "level": self.level, "scores": dict(self.scores),
            "margin": self.margin, "reasons": list(self.reasons), "decisions": self.decisions,
            "turns": self.turns,
            "casualties": {s: dict(t) for s, t in self.casualties.items()},
            "objectives": None if self.objectives is None else dict(self.objectives),
            "seconds": self.seconds, "worker": self.worker,
        }

    def outcome(self) -> dict[str, Any]:
        """Everything about the game itself (not its timing): equal for equal seeds."""
        d = self.to_dict()
        del d["seconds"], d["worker"]
        return d

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> GameRecord:
        return cls(
            variant=str(d.get("variant", "")), index=int(d["index"]), seed=int(d["seed"]),
            winner=None if d.get("winner") is None else str(d["winner"]), level=str(d["level"]),
            scores={str(k): float(v) for k, v in dict(d.get("scores") or {}).items()},
            margin=None if d.get("margin") is None else float(d["margin"]),
            reasons=tuple(str(r) for r in d.get("reasons") or ()),
            decisions=int(d["decisions"]), turns=int(d["turns"]),
            casualties={str(s): {str(t): int(n) for t, n in dict(v).items()}
                        for s, v in dict(d.get("casualties") or {}).items()},
            objectives=None if d.get("objectives") is None else
            {str(k): str(v) for k, v in dict(d["objectives"]).items() if v is not None},
            seconds=float(d.get("seconds") or 0.0), worker=str(d.get("worker") or ""),
        )


def is_parquet(path: str | Path) -> bool:
    return str(path).lower().endswith(".parquet")


def journal_path(path: str | Path) -> Path:
    """Where the games go while a run lasts: the file itself, or a Parquet file's journal."""
    p = Path(path)
    return p.with_name(p.name + ".partial.jsonl") if is_parquet(p) else p


def _require_pyarrow(path: str | Path) -> Any:
    try:
        import pyarrow  # noqa: F401
        import pyarrow.parquet as pq
    except ImportError:
        raise RecordsError(f"{path}: writing Parquet needs pyarrow, which is not installed: "
                           f"pip install 'hexwar[sim]', or name a .jsonl file") from None
    return pq


class RecordsFile:
    """The records of one run: what a previous run of it finished, and a writer for the rest.

    ``open`` refuses a file that exists and is not continued (``resume=False``), or one that
    belongs to a different run (``resume=True`` with another scenario, options, players, seed
    or variants); ``games`` may differ, so a run can be extended.
    """

    def __init__(self, path: str | Path, run: Mapping[str, Any], *, resume: bool) -> None:
        self.path = Path(path)
        self.journal = journal_path(self.path)
        self.run = dict(run)
        self.done: dict[tuple[str, int], GameRecord] = {}
        self._stream: IO[str] | None = None
        if is_parquet(self.path):
            _require_pyarrow(self.path)
        if self._has_content(self.journal) and b"\n" not in self.journal.read_bytes()[:1 << 16]:
            # not one whole line: killed while writing the header, before any game; nothing
            # is lost by starting it again
            if not self.journal.read_bytes().lstrip().startswith(b"{"):
                raise RecordsError(f"{self.journal} is not a hexwar simulation records file; "
                                   f"refusing to overwrite it")
            self.journal.write_bytes(b"")
        exists = self._has_content(self.journal) or (self.path != self.journal
                                                     and self._has_content(self.path))
        if exists and not resume:
            raise RecordsError(f"{self.path} already holds games: --resume continues that run; "
                               f"remove the file or name another to start over")
        if exists:
            self._load()
        self._open_journal()

    @staticmethod
    def _has_content(p: Path) -> bool:
        return p.is_file() and p.stat().st_size > 0

    # -- reading -------------------------------------------------------------------------------
    def _load(self) -> None:
        if self._has_content(self.journal):
            header, records = read_jsonl(self.journal, repair=True)
        else:  # a finished Parquet run: its header is in the file's metadata
            header, records = read_parquet(self.path)
        self._check_same_run(header)
        for r in records:
            self.done.setdefault(r.key, r)  # a game is counted once, whatever the file holds

    def _check_same_run(self, header: Mapping[str, Any]) -> None:
        theirs = dict(header.get("run") or {})
        differ = [k for k in sorted(set(self.run) | set(theirs))
                  if k != "games" and self.run.get(k) != theirs.get(k)]
        if differ:
            what = "; ".join(f"{k}: file {theirs.get(k)!r}, now {self.run.get(k)!r}"
                             for k in differ)
            raise RecordsError(f"{self.path} holds a different run ({what}); --resume continues "
                               f"only the same scenario, options, players, seed and parameter")

    # -- writing -------------------------------------------------------------------------------
    def _open_journal(self) -> None:
        folder = self.journal.resolve().parent
        if not folder.is_dir():
            raise RecordsError(f"cannot write {self.journal}: the folder {folder} does not exist")
        fresh = not self._has_content(self.journal)
        try:
            self._stream = open(self.journal, "a", encoding="utf-8")  # noqa: SIM115 (closed in close)
        except OSError as exc:
            raise RecordsError(f"cannot write {self.journal}: {exc.strerror}") from None
        if fresh:
            self._write({"type": "header", "format": FORMAT, "version": VERSION, "run": self.run})
            for r in sorted(self.done.values(), key=lambda r: r.key):  # from a Parquet file
                self._write(r.to_dict())

    def _write(self, line: Mapping[str, Any]) -> None:
        assert self._stream is not None
        self._stream.write(json.dumps(line, sort_keys=True, allow_nan=False) + "\n")
        self._stream.flush()
        os.fsync(self._stream.fileno())

    def add(self, record: GameRecord) -> None:
        """Keep one finished game (a game already kept is not written again)."""
        if record.key in self.done:
            return
        self.done[record.key] = record
        self._write(record.to_dict())

    def close(self, *, complete: bool) -> None:
        """Close the journal; a Parquet target is written now, and its journal removed once the
        run is ``complete``."""
        if self._stream is not None:
            self._stream.close()
            self._stream = None
        if is_parquet(self.path):
            write_parquet(self.path, self.run, self.done.values())
            if complete:
                self.journal.unlink(missing_ok=True)


def read_jsonl(path: str | Path, *, repair: bool = False) -> tuple[dict[str, Any], list[GameRecord]]:
    """The header and games of a JSON Lines records file. A torn last line (no newline, or not
    JSON) is the trace of a killed run: it is dropped, and with ``repair`` cut from the file so
    that appending goes on after the last whole line. Any other bad line is an error."""
    p = Path(path)
    try:
        data = p.read_bytes()
    except OSError as exc:
        raise RecordsError(f"cannot read {p}: {exc.strerror}") from None
    lines = data.split(b"\n")
    keep = len(data)
    if lines and lines[-1]:  # no newline after the last line: written only in part
        keep -= len(lines[-1])
        lines = lines[:-1]
    elif lines:
        lines = lines[:-1]
    header: dict[str, Any] | None = None
    records: list[GameRecord] = []
    for n, raw in enumerate(lines, start=1):
        try:
            item = json.loads(raw.decode("utf-8"))
            if not isinstance(item, dict):
                raise ValueError("not a JSON object")
            if n == 1:
                if item.get("type") != "header" or item.get("format") != FORMAT:
                    raise RecordsError(f"{p}: line 1 is not a hexwar simulation header; refusing "
                                       f"to continue or overwrite it")
                header = item
            else:
                records.append(GameRecord.from_dict(item))
        except RecordsError:
            raise
        except (ValueError, KeyError, TypeError, UnicodeDecodeError) as exc:
            if n == 1:
                raise RecordsError(f"{p}: line 1 is not a hexwar simulation header; refusing to "
                                   f"continue or overwrite it") from None
            if n == len(lines):  # the last line may be torn mid-way
                keep -= len(raw) + 1
                break
            raise RecordsError(f"{p}:{n}: not a game record ({exc})") from None
    if header is None:
        raise RecordsError(f"{p}: no header line; not a hexwar simulation records file")
    if repair and keep < len(data):
        with open(p, "r+b") as handle:
            handle.truncate(keep)
    return header, records


def _flat(prefix: str, value: Any, out: dict[str, Any]) -> None:
    if isinstance(value, Mapping):
        for k, v in value.items():
            _flat(f"{prefix}.{k}" if prefix else str(k), v, out)
    elif isinstance(value, list | tuple):
        out[prefix] = "; ".join(str(v) for v in value)
    else:
        out[prefix] = value


def flat_rows(records: Iterable[GameRecord]) -> list[dict[str, Any]]:
    """Records as flat rows (``scores.US``, ``casualties.SU.firefight:T-62``...), the columns of
    the Parquet file; a side or unit type a game does not mention is empty in its row."""
    rows = []
    for r in sorted(records, key=lambda r: r.key):
        row: dict[str, Any] = {}
        _flat("", r.to_dict(), row)
        del row["type"]
        rows.append(row)
    return rows


def write_parquet(path: str | Path, run: Mapping[str, Any], records: Iterable[GameRecord]) -> None:
    pq = _require_pyarrow(path)
    import pyarrow as pa

    rows = flat_rows(records)
    columns = sorted({k for row in rows for k in row})
    table = pa.Table.from_pylist([{c: row.get(c) for c in columns} for row in rows]) if rows \
        else pa.table({})
    header = {"type": "header", "format": FORMAT, "version": VERSION, "run": dict(run)}
    table = table.replace_schema_metadata({b"hexwar": json.dumps(header).encode()})
    target = Path(path)
    tmp = target.with_name(target.name + ".tmp")
    try:
        pq.write_table(table, tmp)
        os.replace(tmp, target)
    except OSError as exc:
        raise RecordsError(f"cannot write {target}: {exc.strerror}") from None


def _unflat(row: Mapping[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {"scores": {}, "casualties": {}, "objectives": None}
    for k, v in row.items():
        head, _, rest = k.partition(".")
        if head == "scores" and rest:
            if v is not None:
                out["scores"][rest] = v
        elif head == "objectives" and rest:
            out["objectives"] = out["objectives"] or {}
            if v is not None:
                out["objectives"][rest] = v
        elif head == "casualties" and rest:
            side, _, utype = rest.partition(".")
            if v is not None:
                out["casualties"].setdefault(side, {})[utype] = v
        elif k == "objectives":
            continue  # a run without objectives: the column is empty
        elif k == "reasons":
            out[k] = [x for x in str(v or "").split("; ") if x]
        else:
            out[k] = v
    return out


def read_parquet(path: str | Path) -> tuple[dict[str, Any], list[GameRecord]]:
    pq = _require_pyarrow(path)
    try:
        table = pq.read_table(path)
    except (OSError, ValueError) as exc:
        raise RecordsError(f"cannot read {path} as Parquet: {exc}") from None
    meta = (table.schema.metadata or {}).get(b"hexwar")
    if meta is None:
        raise RecordsError(f"{path} is not a hexwar simulation records file (no hexwar metadata)")
    header = json.loads(meta.decode())
    rows = table.to_pylist()
    # every game of a run names the same objectives, so an empty objective cell is one that
    # nobody held
    return header, [GameRecord.from_dict(_unflat(row)) for row in rows]


def read_records(path: str | Path) -> tuple[dict[str, Any], list[GameRecord]]:
    """A records file's header and games, JSON Lines or Parquet (a Parquet run still going is
    read from its journal)."""
    if is_parquet(path):
        j = journal_path(path)
        if j.is_file() and j.stat().st_size > 0:
            return read_jsonl(j)
        return read_parquet(path)
    return read_jsonl(path)
