"""One guarded way to read a data file (scenario, panel, table): limits on what a file may hold.

Every scenario, panel and table file is read through :func:`read_text` and parsed with
:func:`parse_toml` or :func:`parse_json`, so a hostile or broken file is refused with a
:class:`~hexwar.core.errors.DataError` naming the file and what is wrong, never a traceback:

* only a regular file is read (never a device, a FIFO or a folder), and at most
  :data:`MAX_BYTES` of it;
* the text must be UTF-8 (the error gives the offset of the first bad byte);
* nesting (tables in arrays in tables...) is at most :data:`MAX_DEPTH` deep;
* an integer has at most :data:`MAX_INT_DIGITS` digits, and a float must be finite.

:func:`confined` resolves a file a scenario names (``file =`` of a panel) inside the scenario's
folder and refuses anything else. The limits are documented in ``docs/scenario-format.md``.
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import stat
import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from hexwar.core.errors import DataError

MAX_BYTES = 8 * 1024 * 1024
"""The largest data file read, in bytes (the largest shipped file is under 100 kB)."""
MAX_DEPTH = 32
"""The deepest nesting of tables and arrays in a data file."""
MAX_INT_DIGITS = 18
"""The most digits an integer may have (every integer fits in 64 bits)."""


def read_text(path: str | Path, *, what: str = "file", max_bytes: int = MAX_BYTES) -> str:
    """The text of a regular file, decoded as UTF-8 (a leading byte-order mark is dropped)."""
    p = Path(path)
    try:
        st = os.stat(p)
    except OSError as exc:
        raise DataError(f"cannot read {what}: {exc.strerror or exc}", path=str(p)) from None
    if not stat.S_ISREG(st.st_mode):
        raise DataError(f"cannot read {what}: not a regular file", path=str(p))
    if st.st_size > max_bytes:
        raise DataError(f"{what} is too large ({st.st_size} bytes; the limit is {max_bytes})",
                        path=str(p))
    try:
        with open(p, "rb") as fh:
            data = fh.read(max_bytes + 1)
    except OSError as exc:
        raise DataError(f"cannot read {what}: {exc.strerror or exc}", path=str(p)) from None
    if len(data) > max_bytes:
        raise DataError(f"{what} is too large (the limit is {max_bytes} bytes)", path=str(p))
    return decode(data, path=str(p), what=what)


def decode(data: bytes, *, path: str, what: str = "file") -> str:
    """``data`` as UTF-8 text, or a :class:`DataError` giving the line of the first bad byte."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise DataError(f"{what} is not UTF-8 text (byte 0x{data[exc.start]:02x} at offset "
                        f"{exc.start})", path=path, line=line,
                        hint="save the file as UTF-8") from None
    return text.removeprefix("\ufeff")


def parse_toml(text: str, *, path: str, what: str = "file") -> dict[str, Any]:
    """Parse TOML text within the limits; :class:`DataError` on bad syntax or a limit passed."""
    _precheck(text, path, what)
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise DataError(f"invalid TOML: {exc}", path=path, line=_line_of(str(exc)),
                        hint="check quotes, brackets and '=' on that line") from None
    except RecursionError:
        raise DataError(f"{what} is nested too deeply (the limit is {MAX_DEPTH} levels)",
                        path=path) from None
    except ValueError:  # an integer longer than Python converts
        raise DataError(f"integer too long (more than {MAX_INT_DIGITS} digits)", path=path,
                        line=_long_number_line(text)) from None
    check_limits(data, path=path, what=what)
    return data


def _long_number_line(text: str) -> int | None:
    """The first line holding a run of more digits than an integer may have (a hint only)."""
    import re

    m = re.search(rf"\d{{{MAX_INT_DIGITS + 1},}}", text)
    return None if m is None else text.count("\n", 0, m.start()) + 1


def parse_json(text: str, *, path: str, what: str = "file") -> Any:
    """Parse JSON text within the limits; :class:`DataError` on bad syntax or a limit passed."""
    _precheck(text, path, what)

    def parse_int(s: str) -> int:
        if len(s.lstrip("-")) > MAX_INT_DIGITS:
            raise _TooLong(s)
        return int(s)

    def parse_constant(s: str) -> float:
        raise _NotFinite(s)

    try:
        data = json.loads(text, parse_int=parse_int, parse_constant=parse_constant)
    except _TooLong as exc:
        raise DataError(f"{what} holds an integer of {len(str(exc).lstrip('-'))} digits "
                        f"(the limit is {MAX_INT_DIGITS})", path=path) from None
    except _NotFinite as exc:
        raise DataError(f"{what} holds {exc}, which is not a finite number", path=path) from None
    except json.JSONDecodeError as exc:
        raise DataError(f"not valid JSON: {exc.msg}", path=path, line=exc.lineno) from None
    except RecursionError:
        raise DataError(f"{what} is nested too deeply (the limit is {MAX_DEPTH} levels)",
                        path=path) from None
    except ValueError as exc:
        raise DataError(f"{what} holds a value out of range: {exc}", path=path) from None
    check_limits(data, path=path, what=what)
    return data


def load_toml(path: str | Path, *, what: str = "file") -> tuple[str, dict[str, Any]]:
    """Read and parse a TOML file: its text and its data."""
    text = read_text(path, what=what)
    return text, parse_toml(text, path=str(path), what=what)


def check_limits(data: Any, *, path: str, what: str = "file") -> None:
    """Raise :class:`DataError` if ``data`` nests deeper than :data:`MAX_DEPTH`, holds an integer
    of more than :data:`MAX_INT_DIGITS` digits, or a float that is not finite."""
    limit = 10 ** MAX_INT_DIGITS
    stack: list[tuple[Any, int, str]] = [(data, 0, "")]
    while stack:
        value, depth, key = stack.pop()
        if depth > MAX_DEPTH:
            raise DataError(f"{what} is nested too deeply (the limit is {MAX_DEPTH} levels)",
                            path=path, key=key or None)
        if isinstance(value, bool):
            continue
        if isinstance(value, int):
            if abs(value) >= limit:
                raise DataError(f"integer too long (more than {MAX_INT_DIGITS} digits)",
                                path=path, key=key or None)
        elif isinstance(value, float):
            if not math.isfinite(value):
                raise DataError(f"{value!r} is not a finite number", path=path, key=key or None)
        elif isinstance(value, Mapping):
            for k, v in value.items():
                stack.append((v, depth + 1, f"{key}.{k}" if key else str(k)))
        elif isinstance(value, list):
            for i, v in enumerate(value):
                stack.append((v, depth + 1, f"{key}[{i}]"))


def confined(base: str | Path, name: object, *, key: str, path: str,
             folder: bool = False) -> Path:
    """The file ``name`` inside the folder ``base``; :class:`DataError` if ``name`` is not a
    relative path, climbs out of ``base`` (``..``, a symbolic link) or is not a regular file.
    With ``folder`` it may be a folder instead. The message never shows the file's content."""
    if not isinstance(name, str) or not name:
        raise DataError(f"'file' must be a file name, not {type(name).__name__}", path=path,
                        key=key)
    hint = "name a file in the scenario's folder or below it, e.g. file = \"maps/my-panel.toml\""
    rel = Path(name)
    if rel.is_absolute() or name.startswith(("/", "\\", "~")) or ":" in name or "\0" in name:
        raise DataError(f"'file' must be a relative path, not {name!r}", path=path, key=key,
                        hint=hint)
    if ".." in rel.parts or ".." in name.replace("\\", "/").split("/"):
        raise DataError(f"'file' may not leave the scenario's folder: {name!r}", path=path,
                        key=key, hint=hint)
    root = Path(base).resolve()
    try:
        target = (root / rel).resolve()
    except (OSError, RuntimeError) as exc:
        raise DataError(f"cannot resolve {name!r}: {exc}", path=path, key=key) from None
    if not target.is_relative_to(root):
        raise DataError(f"'file' may not leave the scenario's folder: {name!r}", path=path,
                        key=key, hint=hint)
    try:
        st = os.stat(target)
    except OSError:
        raise DataError(f"no such file {name!r} beside the scenario", path=path, key=key,
                        hint=hint) from None
    if not (stat.S_ISREG(st.st_mode) or (folder and stat.S_ISDIR(st.st_mode))):
        raise DataError(f"{name!r} is not a regular file", path=path, key=key, hint=hint)
    return target


class _TooLong(ValueError):
    pass


class _NotFinite(ValueError):
    pass


def _precheck(text: str, path: str, what: str) -> None:
    """Cheap refusals before parsing: too long, or nested too deeply by a bracket count that
    strings could only overstate (a file that passes is parsed; one that fails is checked with
    its strings removed)."""
    if len(text) > MAX_BYTES:
        raise DataError(f"{what} is too large (the limit is {MAX_BYTES} bytes)", path=path)
    depth = best = 0
    for ch in text:
        if ch in "[{":
            depth += 1
            if depth > best:
                best = depth
        elif ch in "]}":
            depth -= 1
    if best > MAX_DEPTH + 2 and _nesting(text) > MAX_DEPTH + 2:
        raise DataError(f"{what} is nested too deeply (the limit is {MAX_DEPTH} levels)",
                        path=path)


def _nesting(text: str) -> int:
    """The deepest bracket nesting outside quoted strings and comments (TOML and JSON)."""
    depth = best = 0
    i, n = 0, len(text)
    while i < n:
        ch = text[i]
        if ch in "\"'":
            triple = text.startswith(ch * 3, i)
            end_mark = ch * 3 if triple else ch
            j = i + len(end_mark)
            while j < n:
                if ch == '"' and text[j] == "\\":
                    j += 2
                    continue
                if text.startswith(end_mark, j):
                    break
                if not triple and text[j] == "\n":
                    break
                j += 1
            i = j + len(end_mark)
            continue
        if ch == "#":
            nl = text.find("\n", i)
            i = n if nl < 0 else nl
            continue
        if ch in "[{":
            depth += 1
            best = max(best, depth)
        elif ch in "]}":
            depth -= 1
        i += 1
    return best


def _line_of(message: str) -> int | None:
    import re

    m = re.search(r"line (\d+)", message)
    return int(m.group(1)) if m else None


def content_digest(path: str | Path) -> str:
    """The sha256 of a data file, or of every visible file of a folder (names and bytes, in
    name order): what a record keeps to tell that a user's data pack has not changed (CORE-100)."""
    p = Path(path)
    if p.is_file():
        files = [p]
    elif p.is_dir():
        files = sorted(f for f in p.rglob("*") if f.is_file()
                       and not any(part.startswith(".") for part in f.relative_to(p).parts))
    else:
        raise DataError("no such data file or folder", path=str(p))
    h = hashlib.sha256()
    for f in files:
        name = f.name if f == p else f.relative_to(p).as_posix()
        h.update(name.encode() + b"\0" + f.read_bytes() + b"\0")
    return h.hexdigest()
