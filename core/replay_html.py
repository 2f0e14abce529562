"""An HTML page that steps through a saved game: one picture per game-turn (and the end), a
slider and the log of each turn's results. Self-contained: open it in any browser."""

from __future__ import annotations

import html
import json
import re
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from hexwar.core.engine.controllers import ReplayController
from hexwar.core.engine.record import SavedGame, header_scenario

if TYPE_CHECKING:
    from hexwar.core.engine.game import Game


def _frame(game: Game, side: str | None, start: int) -> dict[str, Any]:
    from hexwar.core.render import render_game

    results = []
    for event in game.log.for_side(side)[start:]:
        if event.get("type") == "result":
            rules = ", ".join(event.get("rules", []))
            results.append(f"{event.get('what')}: {event.get('result')}" + (f" ({rules})" if rules else ""))
    label = f"turn {game.state.turn}" if game.result is None else f"end: {game.result.winner or 'draw'}"
    return {"label": label, "svg": render_game(game, side), "results": results[-200:]}


def replay_html(saved: SavedGame, *, side: str | None = None,
                on_step: Callable[[int, int], None] | None = None) -> str:
    """Re-run ``saved`` and return the HTML page (``side``: only what that side could see)."""
    from hexwar.core.engine.game import Game

    header = saved.header
    scenario = header_scenario(header, saved.path)
    extra = [r for r in header.get("rules", []) if r not in scenario.rules]
    game = Game(scenario, seed=int(header["seed"]), options=extra)
    if side is not None and side not in game.state.sides:
        from hexwar.core.errors import HexwarError

        raise HexwarError(f"unknown side {side!r} (sides: {', '.join(game.state.sides)})")
    replay = ReplayController(saved.decisions)
    frames = [_frame(game, side, 0)]
    seen = len(game.log.for_side(side))
    turn = game.state.turn
    while not replay.exhausted and (decision := game.pending) is not None:
        game.answer(replay.choose(decision, game.view(decision.side)))
        if game.state.turn != turn or game.result is not None:
            frames.append(_frame(game, side, seen))
            seen, turn = len(game.log.for_side(side)), game.state.turn
        if on_step is not None:
            on_step(replay.index, len(saved.decisions))
    if frames[-1]["label"] != _frame(game, side, seen)["label"]:
        frames.append(_frame(game, side, seen))
    title = f"{scenario.title} — seed {header['seed']}" + (f", as {side} saw it" if side else "")
    return page_html(title, frames)


#: Characters that must not appear raw in JSON inside a ``<script>`` block: ``<`` and ``>`` (a
#: ``</script>`` or ``<!--`` in a string would end or change the block), ``&`` (for XHTML
#: readers) and the line separators U+2028/U+2029 (line ends to older JavaScript parsers).
_SCRIPT_UNSAFE = {"<": "\\u003c", ">": "\\u003e", "&": "\\u0026",
                  "\u2028": "\\u2028", "\u2029": "\\u2029"}


def script_json(value: Any) -> str:
    """``value`` as JSON that is safe to embed in an HTML ``<script>`` block (it parses back to
    the same value in JavaScript)."""
    text = json.dumps(value)
    for raw, escaped in _SCRIPT_UNSAFE.items():
        text = text.replace(raw, escaped)
    return text


def page_html(title: str, frames: list[dict[str, Any]]) -> str:
    """The replay page for ``frames`` (each ``label``, ``svg``, ``results``).

    The title is HTML-escaped; each frame's picture (an SVG document from the renderer, which
    escapes every text and attribute it writes) goes into a ``<template>`` of its own, and the
    labels and results are embedded as script-safe JSON and shown as text, never as markup.
    """
    pictures = "\n".join(f'<template id="frame-{i}">{_svg_element(f["svg"])}</template>'
                          for i, f in enumerate(frames))
    data = [{"label": str(f["label"]), "results": [str(r) for r in f["results"]]} for f in frames]
    parts = {"__TITLE__": html.escape(title, quote=True), "__FRAMES__": script_json(data),
             "__PICTURES__": pictures}
    # one pass, so a title holding the text "__FRAMES__" stays a title
    return re.sub("__TITLE__|__FRAMES__|__PICTURES__", lambda m: parts[m.group(0)], _PAGE)


def _svg_element(svg: str) -> str:
    """The ``<svg>`` element of an SVG document (an XML declaration before it dropped)."""
    start = svg.find("<svg")
    return svg[start:] if start >= 0 else html.escape(svg)


_PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>__TITLE__</title>
<style>
body { font-family: system-ui, sans-serif; margin: 1em; background: #f4f1ea; color: #222; }
#bar { display: flex; gap: 1em; align-items: center; margin-bottom: .5em; }
#pic svg { max-width: 100%; height: auto; border: 1px solid #bbb; background: white; }
#log { font-size: 13px; max-height: 14em; overflow: auto; background: white; padding: .5em;
       border: 1px solid #ccc; }
</style></head><body>
<h1>__TITLE__</h1>
<div id="bar"><button id="prev">&larr;</button><input id="slider" type="range" min="0" value="0">
<button id="next">&rarr;</button><strong id="label"></strong></div>
<div id="pic"></div><h2>Results in this step</h2><ol id="log"></ol>
__PICTURES__
<script>
const frames = __FRAMES__;
const slider = document.getElementById("slider");
slider.max = frames.length - 1;
function show(i) {
  const f = frames[i];
  const pic = document.getElementById("frame-" + i).content.cloneNode(true);
  document.getElementById("pic").replaceChildren(pic);
  document.getElementById("label").textContent = f.label;
  const log = document.getElementById("log");
  log.innerHTML = "";
  for (const r of f.results) {
    const li = document.createElement("li"); li.textContent = r; log.appendChild(li);
  }
  slider.value = i;
}
slider.oninput = () => show(+slider.value);
document.getElementById("prev").onclick = () => show(Math.max(0, +slider.value - 1));
document.getElementById("next").onclick = () => show(Math.min(frames.length - 1, +slider.value + 1));
document.onkeydown = e => { if (e.key === "ArrowLeft") document.getElementById("prev").click();
                            if (e.key === "ArrowRight") document.getElementById("next").click(); };
show(0);
</script></body></html>
"""
