"""The record of a game: the event log (JSON Lines), saves, and replay.

A game is reproducible from its header (hexwar and plugin versions, system, rules, scenario text
and hash, seed) and its decisions. The log (format ``hexwar-log``, docs/log-format.md) opens with
the header, holds one record a line, each written and flushed as it happens (a game killed
mid-way leaves a log readable up to its last complete line), and ends with a closing ``end``
record that counts the records before it (and may sign them with an HMAC), so a cut log is
detected. Every decision carries the state hash after it, so ``hexwar replay --verify`` can re-run
the game and compare at every step.

Saves (format ``hexwar-save``) are JSON documents written to a temporary file, flushed to disk and
then renamed over the old save, so a crash while writing never leaves a torn file in place of the
previous save.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

from hexwar.core.errors import DataError
from hexwar.core.safeload import read_text

if TYPE_CHECKING:
    from hexwar.core.engine.game import Game
    from hexwar.core.scenario import Scenario

LOG_FORMAT = "hexwar-log"
#: version 2: JSON Lines flushed per record, closing ``end`` record
LOG_VERSION = 2
LOG_VERSIONS_READ = (1, 2)
#: a per-side log (``play --log-side``): only what one side may know, no seed, no state hashes
SIDE_LOG_FORMAT = "hexwar-side-log"
SIDE_LOG_VERSION = 1
#: header fields a side never sees: the seed predicts every roll (and every hidden one)
UMPIRE_ONLY_HEADER = ("seed",)
#: decision fields a side never sees: the state hash (a digest of the hidden state too) and the
#: decision's number, whose gaps count the other sides' secret decisions (CORE-63)
SIDE_HIDDEN_DECISION_FIELDS = frozenset({"hash", "n"})
SAVE_FORMAT = "hexwar-save"
SAVE_VERSION = 1
SIGNATURE_ALGORITHM = "hmac-sha256"


class EventLog:
    """Events in order; each may be limited to the sides that may see it.

    With ``stream`` set, each event is also written as one JSON line as it happens, and flushed.
    With ``signing_key`` set, the closing record (:meth:`close`) carries an HMAC-SHA256 of every
    line before it.
    """

    def __init__(self, stream: IO[str] | None = None, *, signing_key: bytes | None = None,
                 side_streams: Mapping[str, IO[str]] | None = None) -> None:
        self.events: list[dict[str, Any]] = []
        self._stream = stream
        self._mac = hmac.new(signing_key, digestmod=hashlib.sha256) if signing_key else None
        #: side -> the stream of its own log (format ``hexwar-side-log``), written live
        self._side_streams = dict(side_streams or {})
        self._side_records = dict.fromkeys(self._side_streams, 0)
        #: decision fields the sides' logs leave out (an umpired game's header names them)
        self._hidden: frozenset[str] = frozenset()
        self.closed = False

    def open(self, header: dict[str, Any]) -> None:
        self.append({"type": "header", "format": LOG_FORMAT, "version": LOG_VERSION, **header},
                    visible_to=None)

    def append(self, event: dict[str, Any], *, visible_to: tuple[str, ...] | None) -> None:
        record = dict(event)
        if visible_to is not None:
            record["visible_to"] = list(visible_to)
        if record.get("type") == "header":
            self._hidden = hidden_decision_fields(record)
        self.events.append(record)
        self._write(record)
        for side, stream in self._side_streams.items():
            shown = side_record(record, side, self._hidden)
            if shown is not None:
                stream.write(json.dumps(shown, sort_keys=True) + "\n")
                stream.flush()
                self._side_records[side] += 1

    def add_side_stream(self, side: str, stream: IO[str]) -> None:
        """Start ``side``'s own log in ``stream`` now: every record so far that the side may see
        (a resumed game's replayed history), then each new one, live."""
        written = 0
        for record in self.events:
            shown = side_record(record, side, self._hidden)
            if shown is not None:
                stream.write(json.dumps(shown, sort_keys=True) + "\n")
                written += 1
        stream.flush()
        self._side_streams[side] = stream
        self._side_records[side] = written

    def _write(self, record: dict[str, Any]) -> None:
        if self._stream is None and self._mac is None:
            return
        line = json.dumps(record, sort_keys=True) + "\n"
        if self._mac is not None:
            self._mac.update(line.encode("utf-8"))
        if self._stream is not None:
            self._stream.write(line)
            self._stream.flush()

    def close(self) -> None:
        """Write the closing record: how many records precede it, and their signature."""
        if self.closed:
            return
        self.closed = True
        end: dict[str, Any] = {"type": "end", "records": len(self.events)}
        if self._mac is not None:
            end["signature"] = {"algorithm": SIGNATURE_ALGORITHM, "mac": self._mac.hexdigest()}
        if self._stream is not None:
            self._stream.write(json.dumps(end, sort_keys=True) + "\n")
            self._stream.flush()
        for side, stream in self._side_streams.items():
            stream.write(json.dumps({"type": "end", "records": self._side_records[side]},
                                    sort_keys=True) + "\n")
            stream.flush()

    def for_side(self, side: str | None) -> list[dict[str, Any]]:
        """The events ``side`` may see, as its own log shows them (:func:`side_record`: the
        header without the seed, decisions without state hashes); ``None``: all of them, as
        recorded."""
        return side_events(self.events, side)

    def results(self) -> list[dict[str, Any]]:
        return [e for e in self.events if e["type"] == "result"]


def hidden_decision_fields(header: dict[str, Any]) -> frozenset[str]:
    """The fields of decision records an umpired game's header keeps from the sides
    (``umpire_only`` entries ``decision.FIELD``: the decision's number, which would count the
    other sides' and the umpire's decisions)."""
    return frozenset(str(k).removeprefix("decision.") for k in header.get("umpire_only", ())
                     if str(k).startswith("decision."))


def side_record(record: dict[str, Any], side: str,
                hidden: frozenset[str] = frozenset()) -> dict[str, Any] | None:
    """``record`` as ``side`` may know it, or ``None`` when the side may not see it.

    The header becomes a ``hexwar-side-log`` header naming the side, without the seed (it would
    predict every die roll, the hidden ones included); a decision (only ever the side's own)
    loses its state hash, a digest of the whole state that would let the side test guesses about
    what it cannot see (which anonymous counter is which unit) against it, and its number, whose
    gaps would count the other side's decisions (how many unseen MBT units moved or fired)."""
    if "visible_to" in record and side not in record["visible_to"]:
        return None
    kind = record.get("type")
    if kind == "header":
        # an umpired game's header names more fields for the umpire alone (its scenario)
        secret = {*UMPIRE_ONLY_HEADER, *record.get("umpire_only", ())}
        shown = {k: v for k, v in record.items() if k not in secret}
        shown.update(format=SIDE_LOG_FORMAT, version=SIDE_LOG_VERSION, side=side)
        return shown
    if kind == "decision":
        return {k: v for k, v in record.items()
                if k not in SIDE_HIDDEN_DECISION_FIELDS and k not in hidden}
    return dict(record)


def side_events(events: Iterable[dict[str, Any]], side: str | None) -> list[dict[str, Any]]:
    """The records of ``events`` that ``side`` may see, as :func:`side_record` shows them
    (``None``: the umpire, every record as it is)."""
    events = list(events)
    if side is None:
        return events
    hidden = hidden_decision_fields(events[0]) if events and events[0].get("type") == "header" \
        else frozenset()
    return [shown for e in events if (shown := side_record(e, side, hidden)) is not None]


@dataclass
class SavedGame:
    """What a save or a log holds: enough to rebuild the game and follow it decision by decision.

    ``kind`` is ``"save"`` or ``"log"``. A log also keeps every recorded event (``events``, with
    the line of each in ``event_lines``), its closing record (``end``: ``None`` when the log was
    cut short) and the bytes its signature covers; ``notes`` says what the loader had to forgive
    (a torn last line)."""

    header: dict[str, Any]
    decisions: list[dict[str, Any]]
    players: dict[str, str]
    path: str
    kind: str = "save"
    events: list[dict[str, Any]] = field(default_factory=list)
    event_lines: list[int] = field(default_factory=list)
    end: dict[str, Any] | None = None
    torn: bool = False
    notes: list[str] = field(default_factory=list)
    signed_bytes: bytes = b""
    #: a save's own record of where the game stood: ``{"hash", "turn", "phase"}``
    final: dict[str, Any] = field(default_factory=dict)

    @property
    def signature(self) -> dict[str, Any] | None:
        sig = (self.end or {}).get("signature") if self.kind == "log" else self.final.get("signature")
        return sig if isinstance(sig, dict) else None


def _save_document(game: Game, players: dict[str, str] | None) -> dict[str, Any]:
    return {
        "format": SAVE_FORMAT,
        "version": SAVE_VERSION,
        "header": game.log.events[0],
        "players": players or {},
        "turn": game.state.turn,
        "phase": game.state.phase,
        "hash": game.state.digest(),
        "decisions": game.decisions,
    }


def _save_mac(document: dict[str, Any], key: bytes) -> str:
    body = {k: v for k, v in document.items() if k != "signature"}
    return hmac.new(key, json.dumps(body, sort_keys=True).encode("utf-8"), hashlib.sha256).hexdigest()


def save_game(game: Game, path: str | os.PathLike[str], *, players: dict[str, str] | None = None,
              signing_key: bytes | None = None) -> None:
    """Write ``game`` to ``path`` atomically (the previous save survives a crash mid-write);
    with ``signing_key``, signed with an HMAC-SHA256 of the document."""
    document = _save_document(game, players)
    if signing_key:
        document["signature"] = {"algorithm": SIGNATURE_ALGORITHM,
                                 "mac": _save_mac(document, signing_key)}
    write_atomic(Path(path), json.dumps(document, indent=1, sort_keys=True))


def _temporary_for(path: Path) -> Path:
    return path.with_name(f".{path.name}.hexwar-tmp")


def write_atomic(path: Path, text: str) -> None:
    """Write a file so that readers see the old content or the new, never a torn mixture.

    The temporary file has one name per target (``.NAME.hexwar-tmp`` beside it), so a write
    killed mid-way leaves at most one, which the next write replaces; a write that fails removes
    it. The file is created with the user's umask."""
    path = path.resolve()
    tmp = _temporary_for(path)
    try:
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o666)
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


#: the largest save or log read: far above any real game's, but a device or a runaway file is
#: refused rather than read until memory runs out
MAX_RECORD_BYTES = 512 * 1024 * 1024


def read_record_text(path: str | os.PathLike[str]) -> str:
    """A save's or log's text, through the one guarded reader of data files (a regular file,
    UTF-8, within :data:`MAX_RECORD_BYTES`)."""
    return read_text(Path(path), what="save or log", max_bytes=MAX_RECORD_BYTES)


def sniff_kind(text: str) -> str | None:
    """``"log"``, ``"side-log"``, ``"save"`` or ``None``, by the format marker: a log's first
    line is its header record (a side's log marked ``"format": "hexwar-side-log"``); a save is
    one JSON document marked ``"format": "hexwar-save"``, however indented."""
    first = next((line for line in text.splitlines() if line.strip()), "")
    try:
        head = json.loads(first)
    except (json.JSONDecodeError, RecursionError):
        head = None
    if isinstance(head, dict) and head.get("type") == "header":
        return "side-log" if head.get("format") == SIDE_LOG_FORMAT else "log"
    try:
        doc = json.loads(text)
    except (json.JSONDecodeError, RecursionError):
        return None
    if isinstance(doc, dict) and doc.get("format") == SAVE_FORMAT:
        return "save"
    return None


_KINDS = {"save": "a hexwar save", "log": "a hexwar log", "side-log": "a side's log"}


def load_saved(path: str | os.PathLike[str], *, kind: str | None = None) -> SavedGame:
    """Read a save (JSON) or a log (JSON Lines), told apart by their format markers; ``kind``
    (``"save"`` or ``"log"``) refuses the other. Raises :class:`DataError` naming the problem."""
    p = Path(path)
    text = read_record_text(p)
    if not text.strip():
        raise DataError("the file is empty", path=str(p), hint="is this a hexwar save or log?")
    found = sniff_kind(text)
    if found is None:
        found = "save" if text.lstrip().startswith("{") and "\n{" not in text.strip() else "log"
    if found == "side-log":
        raise DataError(f"this is one side's log ({SIDE_LOG_FORMAT}), not {_KINDS[kind or 'log']}: "
                        f"it holds only what that side may know, without the seed, and cannot "
                        f"rebuild the game", path=str(p),
                        hint="read it with 'hexwar log'; replay and resume need the full log or "
                             "the save")
    if kind is not None and found != kind:
        raise DataError(f"this is {_KINDS[found]}, not {_KINDS[kind]}", path=str(p))
    return _load_save_document(p, text) if found == "save" else _load_log(p, text)


def load_side_log(path: str | os.PathLike[str]) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """Read a side's log: its header and its records (the closing record dropped; a torn last
    line forgiven). Raises :class:`DataError` for anything else."""
    p = Path(path)
    text = read_record_text(p)
    if sniff_kind(text) != "side-log":
        raise DataError(f"not a side's log (no 'format': '{SIDE_LOG_FORMAT}' header)", path=str(p))
    lines = [line for line in text.split("\n") if line.strip()]
    records: list[dict[str, Any]] = []
    for index, line in enumerate(lines):
        try:
            record = json.loads(line)
        except (json.JSONDecodeError, RecursionError) as exc:
            if index == len(lines) - 1:
                break
            raise DataError("not a JSON line", path=str(p), line=index + 1) from exc
        if not isinstance(record, dict):
            raise DataError("a record must be a JSON object", path=str(p), line=index + 1)
        if record.get("type") != "end":
            records.append(record)
    if records[0].get("version") != SIDE_LOG_VERSION:
        raise DataError(f"side log format version {records[0].get('version')!r} is not "
                        f"supported (this hexwar reads version {SIDE_LOG_VERSION})", path=str(p))
    return records[0], records[1:]


def load_log(path: str | os.PathLike[str]) -> SavedGame:
    """Read a log; a save is refused."""
    return load_saved(path, kind="log")


def load_save(path: str | os.PathLike[str]) -> SavedGame:
    """Read a save; a log is refused."""
    return load_saved(path, kind="save")


def _load_save_document(p: Path, text: str) -> SavedGame:
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as exc:
        raise DataError(f"not valid JSON: {exc.msg}", path=str(p), line=exc.lineno,
                        hint="the save is damaged; an older copy may be in your backups") from exc
    except RecursionError as exc:
        raise DataError("nested too deeply", path=str(p)) from exc
    if not isinstance(doc, dict) or doc.get("format") != SAVE_FORMAT:
        raise DataError("not a hexwar save (no 'format': 'hexwar-save')", path=str(p))
    if doc.get("version") != SAVE_VERSION:
        raise DataError(f"save format version {doc.get('version')!r} is not supported "
                        f"(this hexwar reads version {SAVE_VERSION})", path=str(p))
    for key, type_ in (("header", dict), ("decisions", list)):
        if not isinstance(doc.get(key), type_):
            raise DataError(f"'{key}' is missing or not a {type_.__name__}", path=str(p), key=key)
    _check_header(doc["header"], p)
    _check_decisions(doc["decisions"], p)
    players = doc.get("players") or {}
    if not isinstance(players, dict):
        raise DataError("'players' is not a table of side = player", path=str(p), key="players")
    final = {k: doc[k] for k in ("hash", "turn", "phase", "signature") if k in doc}
    return SavedGame(doc["header"], doc["decisions"], {str(k): str(v) for k, v in players.items()},
                     str(p), kind="save", final=final)


def _load_log(p: Path, text: str) -> SavedGame:
    header: dict[str, Any] | None = None
    decisions: list[dict[str, Any]] = []
    events: list[dict[str, Any]] = []
    event_lines: list[int] = []
    end: dict[str, Any] | None = None
    notes: list[str] = []
    torn = False
    signed = bytearray()
    records = 0
    lines = text.split("\n")
    last = max((i for i, line in enumerate(lines) if line.strip()), default=-1)
    for index, line in enumerate(lines):
        lineno = index + 1
        if not line.strip():
            continue
        try:
            event = json.loads(line)
        except (json.JSONDecodeError, RecursionError) as exc:
            if index == last and header is not None:
                torn = True
                notes.append(f"line {lineno} is incomplete (the game was cut short while writing "
                             f"it); read up to line {lineno - 1}")
                break
            msg = exc.msg if isinstance(exc, json.JSONDecodeError) else "nested too deeply"
            raise DataError(f"not a JSON line: {msg}", path=str(p), line=lineno) from exc
        if not isinstance(event, dict):
            raise DataError("a record must be a JSON object", path=str(p), line=lineno)
        if end is not None:
            raise DataError("a record follows the closing 'end' record", path=str(p), line=lineno)
        if header is None:
            if event.get("type") != "header":
                raise DataError("a hexwar log starts with its header event", path=str(p), line=lineno)
            if event.get("format") not in (None, LOG_FORMAT):
                raise DataError(f"not a hexwar log (format {event.get('format')!r})", path=str(p),
                                line=lineno)
            if event.get("version") not in LOG_VERSIONS_READ:
                raise DataError(f"log format version {event.get('version')!r} is not supported "
                                f"(this hexwar reads versions "
                                f"{', '.join(map(str, LOG_VERSIONS_READ))})", path=str(p), line=lineno)
            header = event
        elif event.get("type") == "end":
            end = event
            if end.get("records") != records:
                raise DataError(f"the closing record counts {end.get('records')!r} records but "
                                f"the log holds {records} before it", path=str(p), line=lineno,
                                hint="records were added or removed")
            continue
        else:
            events.append(event)
            event_lines.append(lineno)
            if event.get("type") == "decision":
                n = event.get("n")
                if n is not None and n != len(decisions) + 1:
                    raise DataError(f"decision {len(decisions) + 1} is missing (the next decision "
                                    f"recorded is number {n!r})", path=str(p), line=lineno)
                if "side" not in event or "choice" not in event:
                    raise DataError("a decision record lacks 'side' or 'choice'", path=str(p),
                                    line=lineno)
                decisions.append({k: event[k] for k in ("side", "kind", "choice", "hash")
                                  if k in event})
        records += 1
        signed += (line + "\n").encode("utf-8")
    if header is None:
        raise DataError("no header event", path=str(p))
    _check_header(header, p)
    if end is None and not torn and header.get("version", 1) >= 2:
        notes.append("the log has no closing record: the game was cut short")
    return SavedGame(header, decisions, {}, str(p), kind="log", events=events,
                     event_lines=event_lines, end=end, torn=torn, notes=notes,
                     signed_bytes=bytes(signed))


def check_signature(saved: SavedGame, key: bytes) -> None:
    """Raise :class:`DataError` unless ``saved`` carries a valid HMAC-SHA256 under ``key``."""
    sig = saved.signature
    if sig is None:
        raise DataError("the record is not signed", path=saved.path,
                        hint="it was written without a signing key")
    if sig.get("algorithm") != SIGNATURE_ALGORITHM or not isinstance(sig.get("mac"), str):
        raise DataError(f"unknown signature {sig.get('algorithm')!r}", path=saved.path)
    if saved.kind == "log":
        expected = hmac.new(key, saved.signed_bytes, hashlib.sha256).hexdigest()
    else:
        document = {"format": SAVE_FORMAT, "version": SAVE_VERSION, "header": saved.header,
                    "players": saved.players, "decisions": saved.decisions,
                    **{k: v for k, v in saved.final.items() if k != "signature"}}
        expected = _save_mac(document, key)
    if not hmac.compare_digest(expected, sig["mac"]):
        raise DataError("the signature does not match: the record was changed after it was "
                        "signed, or the key is not the one it was signed with", path=saved.path)


def _check_header(header: dict[str, Any], p: Path) -> None:
    for key in ("system", "rules", "scenario_text", "seed"):
        if key not in header:
            raise DataError(f"header lacks {key!r}", path=str(p), key=f"header.{key}")
    if not isinstance(header["seed"], int) or isinstance(header["seed"], bool):
        raise DataError(f"the seed must be an integer, not {header['seed']!r}", path=str(p),
                        key="header.seed")
    if not isinstance(header["scenario_text"], str):
        raise DataError("the scenario text must be a string", path=str(p), key="header.scenario_text")
    if not isinstance(header["rules"], list) or not all(isinstance(r, str) for r in header["rules"]):
        raise DataError("the rules must be a list of names", path=str(p), key="header.rules")
    files = header.get("scenario_files", {})
    if not isinstance(files, dict) or not all(
            isinstance(k, str) and isinstance(v, dict) and isinstance(v.get("text"), str)
            and isinstance(v.get("sha256"), str) for k, v in files.items()):
        raise DataError("the embedded panel files must be {file: {sha256, text}}", path=str(p),
                        key="header.scenario_files")


def header_scenario(header: Mapping[str, Any], path: str, *, verify: bool = False) -> Scenario:
    """The scenario a save's or a log's header embeds, with the panel files it embeds
    (docs/decisions.md CORE-57): each file's text must match its recorded SHA-256, and with
    ``verify`` every ``file`` panel the scenario names must be embedded (a record made before
    files were embedded resolves them beside the record, as it always did, when not verifying)."""
    from hexwar.core.scenario import Scenario

    embedded = header.get("scenario_files") or {}
    for name, entry in embedded.items():
        if hashlib.sha256(entry["text"].encode()).hexdigest() != entry["sha256"]:
            raise DataError(f"the embedded panel file {name!r} does not match its recorded hash",
                            path=path, key=f"header.scenario_files.{name}")
    scenario = Scenario.from_text(header["scenario_text"], path=f"{path}#scenario",
                                  files={k: v["text"] for k, v in embedded.items()})
    missing = [f for f in scenario.panel_files() if f not in embedded]
    if verify and missing:
        raise DataError(f"the header does not embed the panel file {missing[0]!r} the scenario "
                        f"names, so the board cannot be checked", path=path,
                        key="header.scenario_files")
    return scenario


def _check_decisions(decisions: Iterable[Any], p: Path) -> None:
    for i, d in enumerate(decisions):
        if not isinstance(d, dict) or "choice" not in d or "side" not in d:
            raise DataError(f"decision {i + 1} is malformed", path=str(p), key=f"decisions[{i}]")
