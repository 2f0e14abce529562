"""Setting one parameter of a scenario, for ``hexwar balance`` (docs/decisions.md CORE-38).

A parameter is named by its key path in the scenario file: table names and keys joined by dots,
an array element by its index in brackets (``scenario.turns``, ``victory.margin``,
``victory.count``, ``units[3].hex``, ``special.ai.US.posture``). The key must already be in the
file (a misspelt key would otherwise change nothing, silently), and the new value must be of the
same TOML type as the old one (an integer may become a float, nothing else changes type). Values
are written as in TOML (``20``, ``0.5``, ``true``, ``"stone"``); a value that is not TOML is taken
as a string where the old value is one (``posture=attack,defend``).

One key is not in the file: ``force.SIDE`` keeps the first N units of SIDE, in the file's order
(1 to the number it has), to try a smaller force.

The scenario with the parameter set is written back as TOML text and checked like any scenario
(``validate_scenario``): a value the system refuses (``scenario.turns=0``) is reported, naming
the parameter, before any game is played.
"""

from __future__ import annotations

import copy
import json
import math
import re
import tomllib
from collections.abc import Mapping
from datetime import date, datetime, time
from typing import TYPE_CHECKING, Any

from hexwar.core.errors import HexwarError

if TYPE_CHECKING:
    from hexwar.core.scenario import Scenario


class ParameterError(HexwarError):
    """A ``--parameter`` names no key of the scenario, or gives it a value it cannot take."""


_SEGMENT = re.compile(r"([A-Za-z0-9_-]+)((?:\[\d+\])*)")
_BARE_KEY = re.compile(r"[A-Za-z0-9_-]+")


def parse_parameter(text: str) -> tuple[str, list[str]]:
    """``KEY=V1,V2,...`` as the key and its values (at least one, none empty, none repeated)."""
    key, sep, values = text.partition("=")
    key = key.strip()
    if not sep or not key:
        raise ParameterError(f"--parameter {text!r} is not KEY=V1,V2,... (for example "
                             f"victory.margin=20,30,40)")
    parts = [v.strip() for v in values.split(",")]
    if not parts or any(not v for v in parts):
        raise ParameterError(f"--parameter {text!r}: every value between commas must be given")
    repeated = sorted({v for v in parts if parts.count(v) > 1})
    if repeated:
        raise ParameterError(f"--parameter {text!r}: value {repeated[0]} is given twice")
    return key, parts


def _path(key: str) -> list[str | int]:
    out: list[str | int] = []
    for seg in key.split("."):
        m = _SEGMENT.fullmatch(seg)
        if not m:
            raise ParameterError(f"--parameter: {key!r} is not a key path (names of letters, "
                                 f"digits, '-' and '_' joined by dots, with [N] for an array "
                                 f"element: victory.margin, units[0].hex)")
        out.append(m.group(1))
        out += [int(i) for i in re.findall(r"\[(\d+)\]", m.group(2))]
    return out


def _where(path: list[str | int]) -> str:
    text = ""
    for p in path:
        text += f"[{p}]" if isinstance(p, int) else (f".{p}" if text else p)
    return text or "(the file)"


def _value(raw: str, old: Any, key: str) -> Any:
    try:
        new = tomllib.loads(f"v = {raw}")["v"]
    except tomllib.TOMLDecodeError:
        if isinstance(old, str):
            return raw
        raise ParameterError(f"--parameter {key}: {raw!r} is not a TOML value (the file has "
                             f"{_brief(old)})") from None
    if isinstance(old, bool) or isinstance(new, bool):
        ok = isinstance(old, bool) and isinstance(new, bool)
    elif isinstance(old, float):
        ok = isinstance(new, int | float)
        new = float(new) if ok else new
    else:
        ok = type(new) is type(old)
    if not ok:
        raise ParameterError(f"--parameter {key}: {raw!r} is {_kind(new)}, but the file has "
                             f"{_brief(old)}")
    return new


def _kind(v: Any) -> str:
    names = {bool: "a boolean", int: "an integer", float: "a number", str: "a string",
             list: "an array", dict: "a table"}
    return names.get(type(v), type(v).__name__)


def _brief(v: Any) -> str:
    text = json.dumps(v, default=str)
    return f"{_kind(v)} ({text if len(text) <= 40 else text[:37] + '...'})"


def set_parameter(raw: Mapping[str, Any], key: str, value: str) -> dict[str, Any]:
    """A copy of the scenario's TOML tables with ``key`` set to ``value``."""
    out = copy.deepcopy(dict(raw))
    if key.startswith("force."):
        return _set_force(out, key, value)
    path = _path(key)
    node: Any = out
    for i, p in enumerate(path[:-1]):
        node = _step(node, p, path[: i + 1], key)
    last = path[-1]
    old = _step(node, last, path, key)
    if isinstance(old, dict | list):
        raise ParameterError(f"--parameter {key}: {_where(path)} is {_kind(old)}; name one of "
                             f"its values")
    node[last] = _value(value, old, key)
    return out


def _step(node: Any, p: str | int, so_far: list[str | int], key: str) -> Any:
    if isinstance(p, int):
        if not isinstance(node, list):
            raise ParameterError(f"--parameter {key}: {_where(so_far[:-1])} is not an array")
        if not 0 <= p < len(node):
            raise ParameterError(f"--parameter {key}: {_where(so_far[:-1])} has {len(node)} "
                                 f"elements (0 to {len(node) - 1})")
        return node[p]
    if not isinstance(node, dict):
        raise ParameterError(f"--parameter {key}: {_where(so_far[:-1])} is not a table")
    if p not in node:
        known = ", ".join(sorted(str(k) for k in node)) or "none"
        raise ParameterError(f"--parameter {key}: the scenario has no key {_where(so_far)} "
                             f"(keys there: {known}); only a key the file gives can be set")
    return node[p]


def _set_force(out: dict[str, Any], key: str, value: str) -> dict[str, Any]:
    side = key.removeprefix("force.")
    units = out.get("units") if isinstance(out.get("units"), list) else []
    assert isinstance(units, list)
    mine = [i for i, u in enumerate(units) if isinstance(u, dict) and u.get("side") == side]
    if not mine:
        sides = sorted({str(u.get("side")) for u in units if isinstance(u, dict)})
        raise ParameterError(f"--parameter {key}: no unit of side {side!r} (sides with units: "
                             f"{', '.join(sides) or 'none'})")
    try:
        n = int(value)
    except ValueError:
        raise ParameterError(f"--parameter {key}: {value!r} is not a number of units") from None
    if not 1 <= n <= len(mine):
        raise ParameterError(f"--parameter {key}: {n} units; {side} has {len(mine)} in the file, "
                             f"so 1 to {len(mine)}")
    drop = set(mine[n:])
    out["units"] = [u for i, u in enumerate(units) if i not in drop]
    return out


# -- TOML text --------------------------------------------------------------------------------


def _key(k: str) -> str:
    return k if _BARE_KEY.fullmatch(k) else json.dumps(k)


def _inline(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        if math.isnan(v):
            return "nan"
        if math.isinf(v):
            return "inf" if v > 0 else "-inf"
        return repr(v)
    if isinstance(v, str):
        return json.dumps(v, ensure_ascii=False)
    if isinstance(v, datetime | date | time):
        return v.isoformat()
    if isinstance(v, list):
        return "[" + ", ".join(_inline(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{" + ", ".join(f"{_key(str(k))} = {_inline(x)}" for k, x in v.items()) + "}"
    raise ParameterError(f"cannot write {type(v).__name__} {v!r} as TOML")


def to_toml(raw: Mapping[str, Any]) -> str:
    """TOML text whose tables equal ``raw``: a ``[table]`` per top-level table, an
    ``[[array]]`` entry per table of a top-level array of tables, inline values within."""
    lines: list[str] = []
    for k, v in raw.items():
        if not isinstance(v, dict) and not (isinstance(v, list) and v
                                            and all(isinstance(x, dict) for x in v)):
            lines.append(f"{_key(k)} = {_inline(v)}")
    for k, v in raw.items():
        if isinstance(v, dict):
            lines += ["", f"[{_key(k)}]", *(f"{_key(str(a))} = {_inline(b)}" for a, b in v.items())]
        elif isinstance(v, list) and v and all(isinstance(x, dict) for x in v):
            for item in v:
                lines += ["", f"[[{_key(k)}]]",
                          *(f"{_key(str(a))} = {_inline(b)}" for a, b in item.items())]
    text = "\n".join(lines).lstrip("\n") + "\n"
    if tomllib.loads(text) != raw:  # the writer covers every TOML value; a slip is a bug
        raise ParameterError("internal error: the scenario written back as TOML reads differently")
    return text


def with_parameter(scenario: Scenario, key: str, value: str, *,
                   options: tuple[str, ...] = ()) -> Scenario:
    """``scenario`` with ``key`` set to ``value``, checked as a playable scenario."""
    from hexwar.core.scenario import Scenario, ScenarioError, validate_scenario
    from hexwar.core.types import Problem

    text = to_toml(set_parameter(scenario.raw, key, value))
    label = f"{key}={value}"
    try:
        changed = Scenario.from_text(text, path=scenario.path)
        problems = validate_scenario(changed, options=options)
    except ScenarioError as exc:
        problems = exc.problems
    if problems:
        # the lines of the written-back text are not the file's: the keys say where
        listed = [Problem(p.message, p.path, p.key, None, p.hint) for p in problems]
        raise ParameterError(f"with {label}, the scenario is not playable:\n"
                             + "\n".join(f"  {p}" for p in listed))
    return changed
