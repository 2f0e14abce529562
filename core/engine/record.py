"""The record of a game: the event log (JSON lines), saves, and replay.

A game is reproducible from its header (hexwar and plugin versions, system, rules, scenario text
and hash, seed) and its decisions. The log opens with the header; every decision carries the state
hash after it, so ``hexwar replay --verify`` can re-run the game and compare at every step.

Saves are JSON documents written to a temporary file, flushed to disk and then renamed over the old
save, so a crash while writing never leaves a torn file in place of the previous save.
"""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

from hexwar.core.errors import DataError

if TYPE_CHECKING:
    from hexwar.core.engine.game import Game

SAVE_FORMAT = "hexwar-save"
SAVE_VERSION = 1


class EventLog:
    """Events in order; each may be limited to the sides that may see it.

    With ``stream`` set, each event is also written as one JSON line as it happens.
    """

    def __init__(self, stream: IO[str] | None = None) -> None:
        self.events: list[dict[str, Any]] = []
        self._stream = stream

    def open(self, header: dict[str, Any]) -> None:
        self.append({"type": "header", "format": "hexwar-log", "version": SAVE_VERSION, **header},
                    visible_to=None)

    def append(self, event: dict[str, Any], *, visible_to: tuple[str, ...] | None) -> None:
        record = dict(event)
        if visible_to is not None:
            record["visible_to"] = list(visible_to)
        self.events.append(record)
        if self._stream is not None:
            self._stream.write(json.dumps(record, sort_keys=True) + "\n")

    def for_side(self, side: str | None) -> list[dict[str, Any]]:
        """The events ``side`` may see (``None``: all of them)."""
        if side is None:
            return list(self.events)
        return [e for e in self.events if "visible_to" not in e or side in e["visible_to"]]

    def results(self) -> list[dict[str, Any]]:
        return [e for e in self.events if e["type"] == "result"]


@dataclass
class SavedGame:
    """What a save or a log holds: enough to rebuild the game and follow it decision by decision."""

    header: dict[str, Any]
    decisions: list[dict[str, Any]]
    players: dict[str, str]
    path: str


def save_game(game: Game, path: str | os.PathLike[str], *, players: dict[str, str] | None = None) -> None:
    """Write ``game`` to ``path`` atomically (the previous save survives a crash mid-write)."""
    document = {
        "format": SAVE_FORMAT,
        "version": SAVE_VERSION,
        "header": game.log.events[0],
        "players": players or {},
        "turn": game.state.turn,
        "phase": game.state.phase,
        "hash": game.state.digest(),
        "decisions": game.decisions,
    }
    write_atomic(Path(path), json.dumps(document, indent=1, sort_keys=True))


def write_atomic(path: Path, text: str) -> None:
    """Write a file so that readers see the old content or the new, never a torn mixture."""
    path = path.resolve()
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def load_saved(path: str | os.PathLike[str]) -> SavedGame:
    """Read a save (JSON) or a log (JSON lines). Raises :class:`DataError` naming the problem."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except OSError as exc:
        raise DataError(f"cannot read: {exc.strerror}", path=str(p)) from exc
    if not text.strip():
        raise DataError("the file is empty", path=str(p), hint="is this a hexwar save or log?")
    first = text.lstrip()[0]
    if first == "{" and "\n{" not in text.strip():
        return _load_save_document(p, text)
    return _load_log(p, text)


def _load_save_document(p: Path, text: str) -> SavedGame:
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as exc:
        raise DataError(f"not valid JSON: {exc.msg}", path=str(p), line=exc.lineno,
                        hint="the save is damaged; an older copy may be in your backups") from exc
    if not isinstance(doc, dict) or doc.get("format") != SAVE_FORMAT:
        raise DataError("not a hexwar save (no 'format': 'hexwar-save')", path=str(p))
    if doc.get("version") != SAVE_VERSION:
        raise DataError(f"save format version {doc.get('version')!r} is not supported "
                        f"(this hexwar reads version {SAVE_VERSION})", path=str(p))
    for key, kind in (("header", dict), ("decisions", list)):
        if not isinstance(doc.get(key), kind):
            raise DataError(f"'{key}' is missing or not a {kind.__name__}", path=str(p), key=key)
    _check_header(doc["header"], p)
    _check_decisions(doc["decisions"], p)
    return SavedGame(doc["header"], doc["decisions"], dict(doc.get("players") or {}), str(p))


def _load_log(p: Path, text: str) -> SavedGame:
    header: dict[str, Any] | None = None
    decisions: list[dict[str, Any]] = []
    for lineno, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            event = json.loads(line)
        except json.JSONDecodeError as exc:
            raise DataError(f"not a JSON line: {exc.msg}", path=str(p), line=lineno) from exc
        if not isinstance(event, dict):
            raise DataError("an event must be a JSON object", path=str(p), line=lineno)
        if header is None:
            if event.get("type") != "header":
                raise DataError("a hexwar log starts with its header event", path=str(p), line=lineno)
            header = event
        elif event.get("type") == "decision":
            decisions.append({k: event.get(k) for k in ("side", "kind", "choice", "hash")})
    if header is None:
        raise DataError("no header event", path=str(p))
    _check_header(header, p)
    return SavedGame(header, decisions, {}, str(p))


def _check_header(header: dict[str, Any], p: Path) -> None:
    for key in ("system", "rules", "scenario_text", "seed"):
        if key not in header:
            raise DataError(f"header lacks {key!r}", path=str(p), key=f"header.{key}")


def _check_decisions(decisions: Iterable[Any], p: Path) -> None:
    for i, d in enumerate(decisions):
        if not isinstance(d, dict) or "choice" not in d or "side" not in d:
            raise DataError(f"decision {i + 1} is malformed", path=str(p), key=f"decisions[{i}]")
