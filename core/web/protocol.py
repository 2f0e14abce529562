"""The messages between the page and the server (JSON over a WebSocket), and their checks.

The page sends one JSON object a message:

- ``{"type": "choose", "serial": N, "index": I}``: the I-th choice of the form of decision N;
- ``{"type": "answer", "serial": N, "value": V}``: a composed answer (hexes, units, a placement,
  a typed word);
- ``{"type": "undo"}``, ``{"type": "save"}``, ``{"type": "ready", "side": S}`` (the hot-seat
  device is now held by S), ``{"type": "sync", "log_from": K}``, ``{"type": "ping"}``;
- ``{"type": "snapshots"}`` (list this game's snapshots), ``{"type": "propose", "snapshot":
  NAME}`` (propose to resume from one), ``{"type": "accept" | "refuse" | "withdraw",
  "proposal": N}`` (agree to, refuse or withdraw the open proposal N: docs/decisions.md
  CORE-104).

The server answers with ``hello`` (once: the seat, the scenario, every hex's terrain and
height), ``state`` (the seat's view: board, units, log lines, status, its decision, the open
proposal to resume), ``handover`` (hot-seat: pass the device to a side; nothing else is shown),
``saved`` and ``snapshots`` (this game's snapshots: name, game-turn, time), ``notice`` (words for
every seat: a proposal refused or withdrawn), ``resumed`` (the game was replaced by a snapshot:
the page shows it afresh) and ``error`` (a message in words: what was wrong; the game is
unchanged).
"""

from __future__ import annotations

import json
from typing import Any

from hexwar.core.errors import HexwarError

#: the largest message a page may send (a placement of every unit fits many times over)
MAX_MESSAGE_BYTES = 32 * 1024
#: the deepest nesting a composed answer may have
MAX_DEPTH = 8
TYPES = ("choose", "answer", "undo", "save", "ready", "sync", "ping", "snapshots", "propose",
         "accept", "refuse", "withdraw")
#: the longest snapshot name a page may send
MAX_NAME = 200


class ProtocolError(HexwarError):
    """A message from a page that the server cannot read; the message says why."""


def _depth(value: Any, level: int = 0) -> int:
    if level > MAX_DEPTH:
        return level
    if isinstance(value, dict):
        return max([_depth(v, level + 1) for v in value.values()], default=level + 1)
    if isinstance(value, list):
        return max([_depth(v, level + 1) for v in value], default=level + 1)
    return level


def _int(message: dict[str, Any], key: str) -> int:
    value = message.get(key)
    if not isinstance(value, int) or isinstance(value, bool) or not -1 <= value < 10**9:
        raise ProtocolError(f"{message['type']!r} needs {key!r} as a whole number")
    return value


def parse(text: str | bytes) -> dict[str, Any]:
    """A page's message, checked: a JSON object of a known type with its fields of the right
    kinds. Raises :class:`ProtocolError` with the reason."""
    if isinstance(text, bytes):
        raise ProtocolError("messages are JSON text, not binary")
    if len(text.encode("utf-8", "replace")) > MAX_MESSAGE_BYTES:
        raise ProtocolError(f"message too long (at most {MAX_MESSAGE_BYTES} bytes)")
    try:
        message = json.loads(text)
    except (json.JSONDecodeError, RecursionError):
        raise ProtocolError("not a JSON message") from None
    if not isinstance(message, dict):
        raise ProtocolError("a message is a JSON object with a 'type'")
    kind = message.get("type")
    if kind not in TYPES:
        raise ProtocolError(f"unknown message type {str(kind)[:40]!r} (known: {', '.join(TYPES)})")
    if kind == "choose":
        _int(message, "serial")
        _int(message, "index")
    elif kind == "answer":
        _int(message, "serial")
        if "value" not in message:
            raise ProtocolError("'answer' needs a 'value'")
        if _depth(message["value"]) > MAX_DEPTH:
            raise ProtocolError(f"the answer is nested too deeply (at most {MAX_DEPTH} levels)")
    elif kind == "ready":
        if not isinstance(message.get("side"), str) or len(message["side"]) > 64:
            raise ProtocolError("'ready' needs the 'side' that holds the device")
    elif kind == "propose":
        if not isinstance(message.get("snapshot"), str) or len(message["snapshot"]) > MAX_NAME:
            raise ProtocolError(f"'propose' needs the 'snapshot' name (at most {MAX_NAME} "
                                "characters)")
    elif kind in ("accept", "refuse", "withdraw"):
        _int(message, "proposal")
    elif kind == "sync" and "log_from" in message:
        _int(message, "log_from")
    return message


def error(text: str) -> dict[str, Any]:
    return {"type": "error", "message": text}
