"""An HTML page that steps through a saved game event by event: every move, shot, roll and result
in words beside the board, the counters where they stood at that event, with game-turn and
phase navigation. Self-contained: open it in any browser.

The board is drawn once; each step carries only the counter stacks and markers that stood on it
(pieces of SVG drawn by the same renderer as ``hexwar render``, each stored once however often it
recurs), so a game of thousands of events stays a page of a few megabytes.

A side's replay (``side``) holds only that side's knowledge: its own log's records (no seed, no
other side's secrets, anonymous counters as it saw them), its own units where they stood at each
event, and the enemy as its view showed it after the last decision played, never in between
(so a hidden move is not drawn step by step before the unit was seen).
"""

from __future__ import annotations

import html
import json
import re
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from hexwar.core.engine.controllers import ReplayController
from hexwar.core.engine.record import EventLog, SavedGame, header_scenario, side_record

if TYPE_CHECKING:
    from hexwar.core.board import Board
    from hexwar.core.engine.game import Game

#: the size and title the board is drawn with: the counters' pieces are laid out the same way
_HEX_SIZE = 30.0


class _Pieces:
    """The counters and markers of each step as pieces of SVG, each distinct piece kept once,
    and each distinct set of pieces (a layer) kept once."""

    def __init__(self, board: Board, title: str, sides: Sequence[str]) -> None:
        # the renderer's own layout and drawing of stacks and markers (core/render.py), so a
        # replay's counters look exactly as in ``hexwar render``
        from hexwar.core.render import _layout, _side_colors

        self.board = board
        self.lay = _layout(board, _HEX_SIZE, title)
        self.colors = _side_colors(list(sides), {})
        self.frags: list[str] = []
        self._frag_ids: dict[str, int] = {}
        self.layers: list[list[int]] = []
        self._layer_ids: dict[tuple[int, ...], int] = {}

    def _frag(self, key: str, draw: Callable[[], list[str]]) -> int:
        """The number of the piece ``key``, drawn by ``draw`` the first time it is seen."""
        found = self._frag_ids.get(key)
        if found is None:
            found = self._frag_ids[key] = len(self.frags)
            self.frags.append("\n".join(draw()))
        return found

    def layer(self, units: Sequence[Mapping[str, Any]], markers: Mapping[Any, Sequence[str]]) -> int:
        from hexwar.core.render import _as_hex, _marker_layer

        stacks: dict[Any, list[Mapping[str, Any]]] = {}
        for u in units:
            where = _as_hex(self.board, u.get("hex"))
            if where is not None:
                stacks.setdefault(where, []).append(u)
        ids: list[int] = []
        for where, texts in sorted(markers.items(), key=lambda kv: str(kv[0])):
            h = _as_hex(self.board, where)
            if h is None or not texts:
                continue
            key = json.dumps(["m", str(where), list(texts), h in stacks], default=str)
            drawn: list[str] = _marker_layer(self.lay, {h: list(texts)}, stacks)[1:-1]
            ids.append(self._frag(key, lambda: drawn))  # noqa: B023  (called at once, here)
        for h in sorted(stacks):
            group = stacks[h]
            key = json.dumps(["s", h.q, h.r, group], sort_keys=True, default=str)
            ids.append(self._frag(key, _Draw(self, h, group)))
        found = self._layer_ids.get(tuple(ids))
        if found is None:
            found = self._layer_ids[tuple(ids)] = len(self.layers)
            self.layers.append(ids)
        return found


class _Draw:
    """Draws one stack of counters when its piece is first needed."""

    def __init__(self, pieces: _Pieces, h: Any, group: list[Mapping[str, Any]]) -> None:
        self.pieces, self.h, self.group = pieces, h, group

    def __call__(self) -> list[str]:
        from hexwar.core.render import _stack

        return _stack(self.pieces.lay, self.h, self.group, self.pieces.colors)


class _Stepper:
    """Turns every record of the game, as ``side`` may know it, into a step of the replay."""

    def __init__(self, side: str | None) -> None:
        self.side = side
        self.game: Game | None = None
        self.pieces: _Pieces | None = None
        self.steps: list[dict[str, Any]] = []
        self._waiting: list[dict[str, Any]] = []  # records written while the game was built
        self._known: list[dict[str, Any]] = []  # what the side's view showed of other units
        self._markers: dict[Any, list[str]] = {}
        self._first_of_decision = 0

    def record(self, record: dict[str, Any]) -> None:
        shown = record if self.side is None else side_record(record, self.side)
        if shown is None:
            return
        if self.game is None:
            self._waiting.append(shown)
        else:
            self._step(shown)

    def start(self, game: Game) -> None:
        self.game = game
        self.pieces = _Pieces(game.board, _board_title(game), game.state.sides)
        self.decided()
        for shown in self._waiting:
            self._step(shown)
        self._waiting = []
        self._first_of_decision = len(self.steps)

    def _units(self) -> list[dict[str, Any]]:
        """The side's own units as they stand now (it always knows them), the rest as its view
        last showed them; every unit as it stands for the umpire."""
        assert self.game is not None
        own = [u.to_dict() for _k, u in sorted(self.game.state.units.items())
               if self.side is None or u.side == self.side]
        # the state dicts are live: a step keeps a copy of how they stood
        copied: list[dict[str, Any]] = json.loads(json.dumps(own + self._known, default=str))
        return copied

    def _step(self, shown: dict[str, Any]) -> None:
        assert self.game is not None and self.pieces is not None
        game = self.game
        text = game.hooks.describe_event(game, shown)
        turn = shown.get("turn", self.steps[-1]["t"] if self.steps else 0)
        phase = shown.get("phase", self.steps[-1]["ph"] if self.steps else "")
        self.steps.append({"t": turn, "ph": phase, "p": _phase_title(game, phase),
                           "k": str(shown.get("type", "")), "x": text,
                           "l": self.pieces.layer(self._units(), self._markers)})

    def decided(self) -> None:
        """After a decision has been played in full: refresh what the side's view shows of the
        other units and the markers, and draw the decision's last step with them."""
        assert self.game is not None
        view = self.game.view(self.side)
        self._known = [] if self.side is None else \
            [dict(u) for _k, u in sorted(view.units.items()) if u.get("side") != self.side]
        self._markers = _markers(view.system_state)
        first = self._first_of_decision
        if len(self.steps) > first + 1 and self.steps[-1]["k"] == "decision":
            # the engine logs a decision after what it caused; a reader wants it before, on the
            # board and at the turn and phase it was asked at
            decision = self.steps.pop()
            if first > 0:
                before = self.steps[first - 1]
                decision.update(t=before["t"], ph=before["ph"], p=before["p"], l=before["l"])
            self.steps.insert(first, decision)
        if self.pieces is not None and len(self.steps) > first:
            self.steps[-1]["l"] = self.pieces.layer(self._units(), self._markers)
        self._first_of_decision = len(self.steps)


class _RecordingLog(EventLog):
    """The game's log, telling the replay of each record as it is written (while the game's
    state stands as it did at that record)."""

    def __init__(self, stepper: _Stepper) -> None:
        super().__init__()
        self._stepper = stepper

    def append(self, event: dict[str, Any], *, visible_to: tuple[str, ...] | None) -> None:
        super().append(event, visible_to=visible_to)
        self._stepper.record(self.events[-1])


def _markers(state: Any) -> dict[Any, list[str]]:
    out: dict[Any, list[str]] = {}
    if isinstance(state, Mapping) and isinstance(state.get("markers"), Mapping):
        for where, texts in state["markers"].items():
            if isinstance(texts, str):
                out[where] = [texts]
            elif isinstance(texts, list | tuple):
                out[where] = [str(t) for t in texts]
    return out


def _board_title(game: Game) -> str:
    return game.scenario.title or game.scenario.id


def _phase_title(game: Game, phase: Any) -> str:
    from hexwar.core.words import phase_title

    return phase_title(game, phase) if phase and phase != "over" else \
        ("game over" if phase == "over" else "")


def replay_html(saved: SavedGame, *, side: str | None = None,
                on_step: Callable[[int, int], None] | None = None) -> str:
    """Re-run ``saved`` and return the HTML page (``side``: only what that side could know)."""
    from hexwar.core.engine.game import Game
    from hexwar.core.errors import HexwarError
    from hexwar.core.render import render_board

    header = saved.header
    scenario = header_scenario(header, saved.path)
    if side is not None and side not in scenario.side_names():
        raise HexwarError(f"unknown side {side!r} (sides: {', '.join(scenario.side_names())})")
    extra = [r for r in header.get("rules", []) if r not in scenario.rules]
    stepper = _Stepper(side)
    game = Game(scenario, seed=int(header["seed"]), options=extra, log=_RecordingLog(stepper))
    stepper.start(game)
    replay = ReplayController(saved.decisions)
    while not replay.exhausted and (decision := game.pending) is not None:
        game.answer(replay.choose(decision, game.view(decision.side)))
        stepper.decided()
        if on_step is not None:
            on_step(replay.index, len(saved.decisions))
    assert stepper.pieces is not None
    board = render_board(game.board, terrain_types=game.hooks.terrain_types(), units=[],
                         markers={}, title=_board_title(game), hex_size=_HEX_SIZE)
    title = f"{scenario.title} — seed {header['seed']}" if side is None else \
        f"{scenario.title}, as {side} knew it"
    data = {"steps": stepper.steps, "layers": stepper.pieces.layers,
            "frags": stepper.pieces.frags, "sides": stepper.pieces.colors}
    return page_html(title, board, data)


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


def page_html(title: str, board_svg: str, data: Mapping[str, Any]) -> str:
    """The replay page: ``board_svg`` (an SVG document from the renderer, which escapes every
    text and attribute it writes) in a ``<template>``, and ``data`` (``steps``: each with
    ``t`` turn, ``p`` phase title, ``k`` record type, ``x`` the record in words, ``l`` its
    layer; ``layers``: lists of piece numbers; ``frags``: pieces of SVG from the renderer;
    ``sides``: side -> colour) as script-safe JSON. The title is HTML-escaped; the words are
    shown as text, never as markup; the pieces are parsed as XML (no script runs from them)."""
    parts = {"__TITLE__": html.escape(title, quote=True), "__DATA__": script_json(dict(data)),
             "__BOARD__": _svg_element(board_svg).replace(
                 '<g id="legend">', '<g id="overlay"></g>\n<g id="legend">', 1)
             if '<g id="legend">' in board_svg else
             _svg_element(board_svg).replace("</svg>", '<g id="overlay"></g></svg>', 1)}
    # one pass, so a title holding the text "__DATA__" stays a title
    return re.sub("__TITLE__|__DATA__|__BOARD__", lambda m: parts[m.group(0)], _PAGE)


def _svg_element(svg: str) -> str:
    """The ``<svg>`` element of an SVG document (an XML declaration before it dropped)."""
    start = svg.find("<svg")
    return svg[start:] if start >= 0 else html.escape(svg)


_PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>__TITLE__</title>
<style>
body { font-family: system-ui, sans-serif; margin: 0; background: #f4f1ea; color: #222; }
h1 { font-size: 1.2em; margin: .5em 1em; }
#bar { display: flex; flex-wrap: wrap; gap: .4em; align-items: center; margin: 0 1em .5em; }
#bar button { min-width: 2.4em; }
#slider { flex: 1; min-width: 10em; }
#main { display: flex; gap: 1em; margin: 0 1em; height: calc(100vh - 7em); }
#pic { flex: 3; overflow: auto; border: 1px solid #bbb; background: white; }
#pic svg { width: 100%; height: auto; }
#side { flex: 2; display: flex; flex-direction: column; min-width: 18em; }
#now { background: #fffbe6; border: 1px solid #d8c77a; padding: .5em; margin-bottom: .5em;
       font-size: 14px; min-height: 3em; }
#log { flex: 1; overflow: auto; font-size: 13px; background: white; margin: 0;
       padding: .3em .3em .3em 3.5em; border: 1px solid #ccc; }
#log li { cursor: pointer; padding: 1px 2px; }
#log li.roll, #log li.decision { color: #666; }
#log li.result { font-weight: 600; }
#log li.here { background: #ffe58a; }
#keys span { display: inline-block; padding: 0 .5em; margin-right: .3em; border-radius: 3px;
             color: white; font-size: 12px; }
</style></head><body>
<h1>__TITLE__</h1>
<div id="bar">
<button id="prevphase" title="previous phase (Page Up)">&laquo; phase</button>
<button id="prev" title="previous event (left arrow)">&larr;</button>
<button id="play" title="play or pause">play</button>
<button id="next" title="next event (right arrow)">&rarr;</button>
<button id="nextphase" title="next phase (Page Down)">phase &raquo;</button>
<label>game-turn <select id="turn"></select></label>
<label><input type="checkbox" id="rolls"> step over dice</label>
<input id="slider" type="range" min="0" value="0">
<strong id="label"></strong>
</div>
<div id="main"><div id="pic"></div>
<div id="side"><div id="now"></div><div id="keys"></div><ol id="log"></ol></div></div>
<template id="board">__BOARD__</template>
<script>
const replay = __DATA__;
const steps = replay.steps, SVGNS = "http://www.w3.org/2000/svg";
const slider = document.getElementById("slider"), log = document.getElementById("log");
const pic = document.getElementById("pic");
pic.appendChild(document.getElementById("board").content.cloneNode(true));
const overlay = pic.querySelector("#overlay");
const parsed = [];
function piece(i) {
  if (!parsed[i]) {
    const doc = new DOMParser().parseFromString(
      '<svg xmlns="' + SVGNS + '">' + replay.frags[i] + "</svg>", "image/svg+xml");
    const g = document.createElementNS(SVGNS, "g");
    for (const n of Array.from(doc.documentElement.childNodes)) g.appendChild(document.importNode(n, true));
    parsed[i] = g;
  }
  return parsed[i].cloneNode(true);
}
const items = steps.map((s, i) => {
  const li = document.createElement("li");
  li.textContent = "T" + s.t + " " + s.x; li.className = s.k; li.value = i + 1;
  li.onclick = () => show(i); log.appendChild(li); return li;
});
const turnSel = document.getElementById("turn"), firstOfTurn = {};
steps.forEach((s, i) => { if (!(s.t in firstOfTurn)) firstOfTurn[s.t] = i; });
for (const t of Object.keys(firstOfTurn)) {
  const o = document.createElement("option"); o.value = t; o.textContent = t; turnSel.appendChild(o);
}
turnSel.onchange = () => show(firstOfTurn[turnSel.value]);
for (const [side, color] of Object.entries(replay.sides)) {
  const k = document.createElement("span"); k.style.background = color; k.textContent = side;
  document.getElementById("keys").appendChild(k);
}
slider.max = steps.length - 1;
let at = -1, shownLayer = -1;
function show(i) {
  i = Math.max(0, Math.min(steps.length - 1, i));
  const s = steps[i];
  if (s.l !== shownLayer) { overlay.replaceChildren(...replay.layers[s.l].map(piece)); shownLayer = s.l; }
  if (at >= 0) items[at].classList.remove("here");
  items[i].classList.add("here"); items[i].scrollIntoView({block: "nearest"});
  document.getElementById("label").textContent =
    "game-turn " + s.t + (s.p ? ", " + s.p : "") + " \\u2014 event " + (i + 1) + " of " + steps.length;
  document.getElementById("now").textContent = s.x;
  turnSel.value = s.t; slider.value = i; at = i;
}
const skipRolls = () => document.getElementById("rolls").checked;
function step(d) {
  let i = at + d;
  while (skipRolls() && i > 0 && i < steps.length - 1 && steps[i].k === "roll") i += d;
  show(i);
}
function phase(d) {
  let i = at + d;
  while (i > 0 && i < steps.length - 1 && steps[i].ph === steps[at].ph && steps[i].t === steps[at].t) i += d;
  if (d < 0) while (i > 0 && steps[i - 1].ph === steps[i].ph && steps[i - 1].t === steps[i].t) i--;
  show(i);
}
let timer = null;
document.getElementById("play").onclick = () => {
  if (timer) { clearInterval(timer); timer = null; return; }
  timer = setInterval(() => {
    if (at >= steps.length - 1) { clearInterval(timer); timer = null; } else step(1);
  }, 400);
};
slider.oninput = () => show(+slider.value);
document.getElementById("prev").onclick = () => step(-1);
document.getElementById("next").onclick = () => step(1);
document.getElementById("prevphase").onclick = () => phase(-1);
document.getElementById("nextphase").onclick = () => phase(1);
document.onkeydown = e => { if (e.key === "ArrowLeft") step(-1); if (e.key === "ArrowRight") step(1);
                            if (e.key === "PageUp") phase(-1); if (e.key === "PageDown") phase(1); };
const deep = /step=([0-9]+)/.exec(location.hash);
show(deep ? +deep[1] - 1 : 0);
</script></body></html>
"""
