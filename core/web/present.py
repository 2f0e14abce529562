"""Decisions as forms of the web table: the core's generic presentation and helpers for systems.

A presentation (``hexwar_present_decision``, ``docs/web.md``) is a mapping:

- ``title`` (what is asked), ``rule`` (the rule that asks it), ``notes`` (lines shown below);
- ``widget``: ``"choose"`` (pick one of ``choices``), ``"hexes"`` (pick hexes on the board),
  ``"units"`` (pick some of a list of units), ``"placement"`` (move units within a zone) or
  ``"text"`` (type an answer: only when the decision lists no options);
- ``choices``: each ``{"label", "choice"}`` with optional ``unit`` and ``hex`` (highlighted and
  clickable on the board), ``group`` (a first step: choices sharing a group are picked in two
  steps, the group then the choice), ``note`` (a number shown on the hex: a movement cost, a hit
  number) and ``detail`` (lines: every modifier with its rule). ``choice`` is the legal choice
  itself; the server keeps it and sends the page only the index;
- for ``hexes``: ``hexes = {"candidates": [labels] | None, "min", "max"}``; for ``units``:
  ``units = {"candidates": [{"id", "label"}], "min", "max"}``; for ``placement``:
  ``placement = {"units": [{"id", "label", "hex"}], "zone": [labels]}``.

The generic presentation names each option in words, never as raw JSON, and marks the hex or
unit it names, so a third-party system's decisions are playable without a form of its own.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from hexwar.core.engine.decisions import Decision
    from hexwar.core.engine.view import SideView

#: options past this many are grouped by the unit or hex they name (two steps)
GROUP_OVER = 24


def words(value: Any) -> str:
    """A choice in words: ``pass``; ``3P3, facing 1``; ``move: t62-su1``; ``target S2,
    shots N1 APFSDS``. Nothing is printed as JSON."""
    if value is None:
        return "nothing"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, str):
        return value.replace("_", " ") if value else "(empty)"
    if isinstance(value, int | float):
        return f"{value:g}"
    if isinstance(value, list | tuple):
        if not value:
            return "none"
        if len(value) == 2 and isinstance(value[0], str) and isinstance(value[1], int) \
                and not isinstance(value[1], bool):
            return f"{value[0]}, facing {value[1]}"
        return ", ".join(words(v) for v in value)
    if isinstance(value, Mapping):
        if not value:
            return "as it is"
        return "; ".join(f"{str(k).replace('_', ' ')} {words(v)}" for k, v in value.items())
    return str(value)


def _strings(value: Any) -> Iterable[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, list | tuple):
        for v in value:
            yield from _strings(v)
    elif isinstance(value, Mapping):
        for v in value.values():
            yield from _strings(v)


def hex_label(view: SideView, text: str) -> str | None:
    """``text`` as the board's label of a hex, or ``None`` when it names no hex."""
    try:
        return view.board.label(view.board.parse(text))
    except Exception:  # any board's parser: a word that is not a hex is simply not one
        return None


def mark(view: SideView, item: dict[str, Any], value: Any) -> dict[str, Any]:
    """Add ``unit`` and ``hex`` to ``item``: the first unit the side sees and the first hex that
    ``value`` names."""
    for text in _strings(value):
        if "unit" not in item and text in view.units:
            item["unit"] = text
        elif "hex" not in item and len(text) <= 12 and any(c.isdigit() for c in text):
            label = hex_label(view, text)
            if label is not None:
                item["hex"] = label
    return item


def generic_presentation(view: SideView, decision: Decision) -> dict[str, Any]:
    """Every listed option in words, marked with the unit and hex it names; grouped by unit
    (else by hex) when there are many; a text field when the decision lists no options."""
    options = list(decision.options or ())
    out: dict[str, Any] = {"title": decision.prompt or decision.kind.replace("_", " "),
                           "rule": decision.rule, "notes": []}
    if not options:
        out["widget"] = "text"
        out["notes"].append("Type your answer (a word, a hex, or a list like [\"1A1\", 2]).")
        return out
    choices = [mark(view, {"label": words(o), "choice": o}, o) for o in options]
    if len(choices) > GROUP_OVER:
        for key in ("unit", "hex"):
            if sum(key in c for c in choices) >= len(choices) // 2:
                for c in choices:
                    c["group"] = c.get(key, "other")
                break
    if decision.validate is not None and not decision.options:
        out["notes"].append("Other answers may be legal too.")
    out["widget"] = "choose"
    out["choices"] = choices
    return out


def finish(view: SideView, decision: Decision, presentation: Mapping[str, Any]) -> dict[str, Any]:
    """A presentation checked and completed: a title and rule, a known widget, every choice
    with a label in words (the generic one when a system's is missing). Raises ``ValueError`` for
    a presentation the page could not show."""
    out = dict(presentation)
    out.setdefault("title", decision.prompt or decision.kind)
    out.setdefault("rule", decision.rule)
    out.setdefault("notes", [])
    widget = out.setdefault("widget", "choose")
    if widget not in ("choose", "hexes", "units", "placement", "text"):
        raise ValueError(f"unknown widget {widget!r}")
    choices = []
    for c in out.get("choices", []):
        item = dict(c)
        if "choice" not in item:
            raise ValueError("a choice without its value")
        item.setdefault("label", words(item["choice"]))
        choices.append(item)
    out["choices"] = choices
    if widget == "choose" and not choices:
        raise ValueError("a choose form with no choices")
    json.dumps(out)  # the page gets JSON: a value that is not is the presenter's mistake
    return out


def for_page(presentation: Mapping[str, Any]) -> dict[str, Any]:
    """What the page receives: the presentation without the choices' values (the page answers
    with an index; the server keeps the values)."""
    out = {k: v for k, v in presentation.items() if k != "choices"}
    out["choices"] = [{k: v for k, v in c.items() if k != "choice"}
                      for c in presentation.get("choices", [])]
    return out


def reach(start: Any, budget: float, steps: Any, hex_of: Any, label: Any,
          first: Any) -> list[dict[str, Any]]:
    """The hexes a unit can reach with ``budget`` points, each with its least cost, the route
    there and the form's choice that takes its first step (a form's ``reach``, docs/web.md):
    a least-cost search from ``start`` over ``steps(state) -> [(state, cost)]`` (a state is a
    hex, or a hex and a facing); ``hex_of(state)`` its hex, ``label(hex)`` the board's label,
    ``first(state)`` the index of the choice that goes from ``start`` to that state (``None``:
    not a step of the form). Equal costs keep the route found first, in the order ``steps``
    lists them, so the preview is the same every time."""
    import heapq
    import itertools

    order = itertools.count()
    best: dict[Any, float] = {start: 0.0}
    back: dict[Any, Any] = {}
    heap: list[tuple[float, int, Any]] = [(0.0, next(order), start)]
    while heap:
        cost, _n, state = heapq.heappop(heap)
        if cost > best.get(state, float("inf")):
            continue
        for nxt, step in steps(state):
            c = cost + float(step)
            if c <= budget + 1e-9 and c < best.get(nxt, float("inf")) - 1e-9:
                best[nxt], back[nxt] = c, state
                heapq.heappush(heap, (c, next(order), nxt))
    here = hex_of(start)
    out: dict[Any, dict[str, Any]] = {}
    for state, cost in sorted(best.items(), key=lambda kv: (kv[1], str(kv[0]))):
        h = hex_of(state)
        if h == here or h in out:
            continue
        route: list[Any] = []
        s = state
        while s != start:
            route.append(s)
            s = back[s]
        route.reverse()
        index = first(route[0])
        if index is None:
            continue
        out[h] = {"hex": label(h), "cost": f"{cost:g}", "first": index,
                  "route": [[label(hex_of(x)), f"{best[x]:g}"] for x in route
                            if hex_of(x) != hex_of(back[x])]}
    return list(out.values())
