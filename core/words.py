"""Log records in words: the core's fallback for ``hexwar_describe_event``.

A system describes its own events through the hook; this module gives every record a readable
sentence when no system does (a third-party system gets it for free).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

# fields that are bookkeeping, not news
_SKIP = frozenset({"type", "turn", "phase", "visible_to", "hash", "n"})


def _value(value: Any) -> str:
    if isinstance(value, str):
        return value
    if isinstance(value, list | tuple) and all(isinstance(v, str | int) for v in value):
        return ", ".join(str(v) for v in value) or "none"
    text = json.dumps(value, sort_keys=True, default=str)
    return text if len(text) <= 80 else text[:77] + "..."


def generic_description(record: Mapping[str, Any]) -> str:
    """``record`` as "<type>: key value, key value" with underscores read as spaces."""
    kind = str(record.get("type", "event")).replace("_", " ")
    if kind == "decision":
        side = record.get("side", "?")
        return f"{side} decides {str(record.get('kind', '?')).replace('_', ' ')}: " \
               f"{_value(record.get('choice'))}"
    parts = [f"{k.replace('_', ' ')} {_value(v)}" for k, v in record.items() if k not in _SKIP]
    return f"{kind}: {', '.join(parts)}" if parts else kind
