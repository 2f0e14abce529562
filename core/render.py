"""SVG pictures of boards and games, written as plain SVG text (no drawing library).

:func:`render_board` draws a board: flat-topped hexes filled with their terrain's colour
(:attr:`TerrainType.color`), ground shaded darker with height, contour lines where the height
changes, hexside features (fence, hedge, wall, stream, river, cliff, road, bridge...) along the
hexsides, roads and trails from hex centre to hex centre, place names, hex labels, units as
counters in their side's colour with a facing tick, status markers, a line of sight, highlighted
hexes, and a legend of the terrain types, hexside features and sides in the picture.

:func:`render_game` draws a game as one side may see it (``game.view(side)``): only the units the
system's sighting rules show that side, as the system shows them.

Pictures are deterministic (same input, same text) and quick: a 60x50 board is a few thousand
short lines. Every hex is exactly one ``<polygon>`` (the only polygons in the picture) carrying
``data-label`` and ``data-terrain``; every counter is a ``<g class="unit">`` with ``data-id``,
``data-side`` and ``data-facing``, and its facing tick is a ``<line class="facing">``.
"""

from __future__ import annotations

import math
from collections.abc import Container, Iterable, Mapping, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any
from xml.sax.saxutils import escape as _xml_escape

from hexwar.core.geo import hex_to_local
from hexwar.core.hexgrid import Hex
from hexwar.core.kit.stash import StashKey

if TYPE_CHECKING:
    from hexwar.core.board import Board
    from hexwar.core.engine.game import Game
    from hexwar.core.ground import BoardLayer, Ground
    from hexwar.core.types import TerrainType

__all__ = ["HEXSIDE_STYLES", "SIDE_COLORS", "render_board", "render_game"]

SQRT3 = math.sqrt(3.0)

#: Counter colours for sides, in the order sides first appear (override with ``side_colors``).
SIDE_COLORS: tuple[str, ...] = (
    "#c0392b",  # red
    "#2e5fa8",  # blue
    "#3d7a3a",  # green
    "#8e5bb0",  # purple
    "#c77c1e",  # orange
    "#4a4a4a",  # grey
)
#: Well-known side names get their traditional colour.
_NAMED_SIDE_COLORS = {
    "red": "#c0392b", "soviet": "#c0392b", "warsaw pact": "#c0392b", "german": "#5b6770",
    "blue": "#2e5fa8", "us": "#3b6e9e", "nato": "#2e5fa8", "american": "#3b6e9e",
    "green": "#3d7a3a", "british": "#a08a4c",
}

#: How each hexside feature is drawn: ``(kind, stroke, width, dash, label)``. ``kind`` is ``edge``
#: (a line along the hexside) or ``cross`` (a line from centre to centre across the hexside).
HEXSIDE_STYLES: dict[str, tuple[str, str, float, str, str]] = {
    "river": ("edge", "#2f6fd1", 5.0, "", "river"),
    "stream": ("edge", "#3b82e0", 3.0, "", "stream"),
    "wall": ("edge", "#555555", 3.4, "", "wall"),
    "hedge": ("edge", "#1f6b22", 3.6, "1.5 2.5", "hedge"),
    "bocage": ("edge", "#1f5b1f", 4.2, "2 2", "bocage"),
    "fence": ("edge", "#7a5230", 1.6, "4 2.5", "fence"),
    "cliff": ("edge", "#3d2b1a", 3.6, "", "cliff"),
    "slope": ("edge", "#a0703c", 2.2, "2 2", "slope"),
    "contour": ("edge", "#8a5a2b", 1.8, "", "contour"),
    "crest": ("edge", "#8a5a2b", 2.6, "6 2", "crest"),
    "road": ("cross", "#7b3f12", 3.0, "", "road"),
    "trail": ("cross", "#7b3f12", 1.6, "4 3", "trail"),
    "rail": ("cross", "#222222", 2.0, "6 2", "railway"),
    "railway": ("cross", "#222222", 2.0, "6 2", "railway"),
    "bridge": ("edge", "#222222", 2.0, "", "bridge"),
}
# Drawing order of edge features: water first, then walls and hedges on top.
_EDGE_ORDER = ("river", "stream", "contour", "slope", "crest", "cliff", "fence", "hedge",
               "bocage", "wall", "bridge")

_CONTOUR_COLOR = "#8a5a2b"
_HIGH_GROUND = (120, 96, 52)  # the colour the ground darkens toward with height
_SHADE = 0.24  # how far the highest ground goes toward it
_LEGEND_WIDTH = 240


def _fmt(x: float) -> str:
    """A coordinate with at most one decimal, no trailing zeros: short, deterministic text."""
    text = f"{x:.1f}"
    if text.endswith(".0"):
        text = text[:-2]
    return "0" if text == "-0" else text


def _esc(text: object) -> str:
    return _xml_escape(str(text), {'"': "&quot;"})


def _rgb(color: str) -> tuple[int, int, int] | None:
    c = color.strip().lstrip("#")
    if len(c) == 3:
        c = "".join(ch * 2 for ch in c)
    if len(c) != 6:
        return None
    try:
        return int(c[0:2], 16), int(c[2:4], 16), int(c[4:6], 16)
    except ValueError:
        return None


def _mix(color: str, toward: tuple[int, int, int], f: float) -> str:
    rgb = _rgb(color)
    if rgb is None or f <= 0:
        return color
    f = min(f, 1.0)
    r, g, b = (round(a + (t - a) * f) for a, t in zip(rgb, toward, strict=True))
    return f"#{r:02x}{g:02x}{b:02x}"


def _text_color(fill: str) -> str:
    rgb = _rgb(fill)
    if rgb is None:
        return "#ffffff"
    lum = 0.299 * rgb[0] + 0.587 * rgb[1] + 0.114 * rgb[2]
    return "#111111" if lum > 150 else "#ffffff"


def _as_hex(board: Board, where: Any) -> Hex | None:
    """A hex from a Hex, a ``[q, r]`` pair or a board label; ``None`` when off the board."""
    h: Hex | None
    if where is None:
        return None
    if isinstance(where, Hex):
        h = where
    elif isinstance(where, str):
        try:
            h = board.parse(where)
        except ValueError:
            return None
    elif isinstance(where, Sequence) and len(where) == 2:
        h = Hex(int(where[0]), int(where[1]))
    else:
        return None
    return h if h in board.hexes else None


def _terrain_lookup(board: Board, terrain_types: Mapping[str, TerrainType]
                    ) -> dict[str, TerrainType | None]:
    """Board terrain names (short, ``woods``) to their qualified records (``mbt:woods``)."""
    by_short: dict[str, TerrainType] = {}
    for name, t in sorted(terrain_types.items()):
        by_short.setdefault(name.split(":", 1)[-1], t)
    out: dict[str, TerrainType | None] = {}
    for name in set(board.terrain_of.values()):
        out[name] = (terrain_types.get(name) or terrain_types.get(f"{board.system}:{name}")
                     or by_short.get(name.split(":", 1)[-1]))
    return out


def _unit_markers(unit: Mapping[str, Any]) -> list[str]:
    """Status strings of a unit: ``markers`` (list) and the true flags of its ``state``."""
    out: list[str] = []
    own = unit.get("markers")
    if isinstance(own, list | tuple):
        out.extend(str(m) for m in own)
    state = unit.get("state")
    if isinstance(state, Mapping):
        st_markers = state.get("markers")
        if isinstance(st_markers, list | tuple):
            out.extend(str(m) for m in st_markers)
        for k in sorted(state):
            if state[k] is True and k not in ("revealed",):
                out.append(str(k))
    return list(dict.fromkeys(out))


def _side_colors(sides: Sequence[str], given: Mapping[str, str]) -> dict[str, str]:
    """A distinct colour per side: given ones, then traditional ones, then the palette."""
    colors: dict[str, str] = {}
    for s in sides:
        c = given.get(s) or _NAMED_SIDE_COLORS.get(s.lower())
        if c is not None and c not in colors.values():
            colors[s] = c
    free = [c for c in SIDE_COLORS if c not in colors.values()]
    for s in sides:
        if s not in colors:
            colors[s] = free.pop(0) if free else SIDE_COLORS[len(colors) % len(SIDE_COLORS)]
    return {s: colors[s] for s in sides}


def _short_type(unit_type: object) -> str:
    text = str(unit_type or "")
    return text.split(":", 1)[-1]


def _fit(text: str, width: float, size: float) -> float:
    """A font size at most ``size`` at which ``text`` fits in ``width`` (sans-serif, bold)."""
    return min(size, width / max(1.0, 0.62 * len(text)))


def _counter_text(u: Mapping[str, Any], cx: float, cy: float, cs: float, size: float,
                  ink: str) -> list[str]:
    """The id, type and status of the counter on top of a stack."""
    out: list[str] = []
    uid = str(u.get("id", ""))
    tname = _short_type(u.get("type"))
    inner = cs * 0.9
    fid = _fit(uid, inner, size * 0.3)
    out.append(f'<text x="{_fmt(cx)}" y="{_fmt(cy - cs * 0.06)}" font-size="{_fmt(fid)}" '
               f'fill="{_esc(ink)}">{_esc(uid)}</text>')
    if tname:
        out.append(f'<text x="{_fmt(cx)}" y="{_fmt(cy + cs * 0.3)}" '
                   f'font-size="{_fmt(_fit(tname, inner, size * 0.21))}" fill="{_esc(ink)}" '
                   f'font-weight="normal">{_esc(tname)}</text>')
    status = _unit_markers(u)
    if status:
        text = ", ".join(status[:2]) + ("…" if len(status) > 2 else "")
        out.append(f'<text class="status" x="{_fmt(cx)}" y="{_fmt(cy + cs * 0.5 + size * 0.22)}" '
                   f'font-size="{_fmt(size * 0.2)}" fill="#1a1a1a" '
                   'paint-order="stroke" stroke="#ffffff" stroke-width="2.5">'
                   f"{_esc(text)}</text>")
    return out


@dataclass(frozen=True)
class _Layout:
    """Where everything goes: the hex centres in picture coordinates and the page around them."""

    board: Board
    size: float  # corner radius of a hex, in pixels
    hexes: list[Hex]  # every hex of the board, sorted
    centre: dict[Hex, tuple[float, float]]
    corners: list[tuple[float, float]]  # corner k at 60k degrees, y down (0 = east, 1 = SE...)
    margin: float
    title_h: float
    map_w: float
    map_h: float

    @property
    def half_h(self) -> float:
        return self.size * SQRT3 / 2.0

    def side_segment(self, h: Hex, d: int) -> tuple[float, float, float, float]:
        """Ends of hexside ``d`` (1 = N, clockwise) of ``h``: corners (d+3)%6 and (d+4)%6."""
        cx, cy = self.centre[h]
        a, b = self.corners[(d + 3) % 6], self.corners[(d + 4) % 6]
        return cx + a[0], cy + a[1], cx + b[0], cy + b[1]


@dataclass(frozen=True)
class _Heights:
    of: Mapping[Hex, float]
    lo: float
    hi: float

    @property
    def span(self) -> float:
        return self.hi - self.lo


def _layout(board: Board, size: float, title: str) -> _Layout:
    half_h = size * SQRT3 / 2.0
    hexes = sorted(board.hexes)
    if not hexes:
        raise ValueError("cannot render an empty board")
    centre: dict[Hex, tuple[float, float]] = {}
    for h in hexes:
        centre[h] = (size * 1.5 * h.q, size * SQRT3 * (h.r + h.q / 2.0))
    xs = [c[0] for c in centre.values()]
    ys = [c[1] for c in centre.values()]
    margin = 16.0
    title_h = 34.0 if title else 0.0
    map_w = (max(xs) - min(xs)) + 2 * size
    map_h = (max(ys) - min(ys)) + 2 * half_h
    ox = margin + size - min(xs)
    oy = margin + title_h + half_h - min(ys)
    for h in hexes:
        cx, cy = centre[h]
        centre[h] = (cx + ox, cy + oy)
    corners = [(size * math.cos(math.radians(60 * k)), size * math.sin(math.radians(60 * k)))
               for k in range(6)]
    return _Layout(board, size, hexes, centre, corners, margin, title_h, map_w, map_h)


def _placed_units(board: Board, units: Iterable[Mapping[str, Any]]
                  ) -> list[tuple[Hex, Mapping[str, Any]]]:
    """The units on the board with their hex, in the order given (others are skipped)."""
    placed: list[tuple[Hex, Mapping[str, Any]]] = []
    for u in units:
        if not isinstance(u, Mapping):
            continue
        where = _as_hex(board, u.get("hex"))
        if where is not None:
            placed.append((where, u))
    return placed


def _sides_in_order(placed: Iterable[tuple[Hex, Mapping[str, Any]]]) -> list[str]:
    sides: list[str] = []
    for _h, u in placed:
        s = str(u.get("side", "?"))
        if s not in sides:
            sides.append(s)
    return sides


def _document_start(lay: _Layout, width: float, height: float, title: str,
                    fs_label: float) -> list[str]:
    """The ``<svg>`` element, its title and style sheet, the page and the picture's title."""
    size, margin = lay.size, lay.margin
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" version="1.1" width="{_fmt(width)}" '
        f'height="{_fmt(height)}" viewBox="0 0 {_fmt(width)} {_fmt(height)}" '
        'font-family="DejaVu Sans, Helvetica, Arial, sans-serif">',
        f"<title>{_esc(title or 'hexwar board')}</title>",
        "<style>"
        f".hex{{stroke:#5c5c4e;stroke-width:{_fmt(max(0.5, size / 40))};stroke-opacity:0.55}}"
        f".lbl{{font-size:{_fmt(fs_label)}px;fill:#222;fill-opacity:0.7;text-anchor:middle}}"
        f".ht{{font-size:{_fmt(fs_label)}px;fill:#5a3a12;text-anchor:middle;font-style:italic}}"
        ".unit text{text-anchor:middle;font-weight:bold}"
        ".mk{text-anchor:middle;font-weight:bold}"
        ".place{text-anchor:middle;font-style:italic;font-weight:bold;fill:#222;"
        "paint-order:stroke;stroke:#ffffff;stroke-opacity:0.75;stroke-width:3px}"
        ".leg{font-size:12px;fill:#222}"
        ".legh{font-size:13px;font-weight:bold;fill:#111}"
        "</style>",
        f'<rect x="0" y="0" width="{_fmt(width)}" height="{_fmt(height)}" fill="#f4f1e8"/>',
    ]
    if title:
        out.append(f'<text x="{_fmt(margin)}" y="{_fmt(margin + 18)}" font-size="18" '
                   f'font-weight="bold" fill="#222">{_esc(title)}</text>')
    return out


def _hex_layer(lay: _Layout, terrain: Mapping[str, TerrainType | None], heights: _Heights
               ) -> tuple[list[str], dict[str, tuple[str, str]]]:
    """One polygon per hex in its terrain's colour, darker with height; and the terrain used
    (legend title -> (colour, name))."""
    board = lay.board
    used: dict[str, tuple[str, str]] = {}
    out = ['<g id="hexes">']
    for h in lay.hexes:
        cx, cy = lay.centre[h]
        tname = board.terrain_of.get(h, "")
        rec = terrain.get(tname)
        base = rec.color if rec is not None else "#dddddd"
        ttitle = rec.title if rec is not None else tname
        used.setdefault(ttitle, (base, rec.name if rec is not None else tname))
        fill = base
        if heights.span > 0:
            fill = _mix(base, _HIGH_GROUND, _SHADE * (heights.of[h] - heights.lo) / heights.span)
        pts = " ".join(f"{_fmt(cx + dx)},{_fmt(cy + dy)}" for dx, dy in lay.corners)
        out.append(f'<polygon class="hex" points="{pts}" fill="{_esc(fill)}" '
                   f'data-label="{_esc(board.label(h))}" data-terrain="{_esc(tname)}"/>')
    out.append("</g>")
    return out, used


def _segment(x1: float, y1: float, x2: float, y2: float) -> str:
    return f"M{_fmt(x1)} {_fmt(y1)}L{_fmt(x2)} {_fmt(y2)}"


class _Strokes:
    """The path segments of the hexside layer, by feature, and the features drawn."""

    def __init__(self) -> None:
        self.edge: dict[str, list[str]] = {}  # along a hexside
        self.cross: dict[str, list[str]] = {}  # from hex centre to hex centre
        self.contour: list[str] = []
        self.used: set[str] = set()


def _hexside_strokes(lay: _Layout, heights: _Heights, strokes: _Strokes) -> bool:
    """Contours where the height changes and every hexside feature; whether a road or trail is
    given by hexside (then hex-feature roads are not joined)."""
    has_side_roads = False
    for (a, b), fs in lay.board.hexside_of.items():
        if not (a < b):
            continue
        d = a.direction_to(b)
        if d is None:
            continue
        if (heights.span > 0 and heights.of[a] != heights.of[b] and "contour" not in fs
                and "cliff" not in fs):
            strokes.contour.append(_segment(*lay.side_segment(a, d)))
        for f in fs:
            style = HEXSIDE_STYLES.get(f)
            if style is None:
                continue
            strokes.used.add(f)
            if style[0] == "edge":
                strokes.edge.setdefault(f, []).append(_segment(*lay.side_segment(a, d)))
            else:
                if f in ("road", "trail"):
                    has_side_roads = True
                strokes.cross.setdefault(f, []).append(_segment(*lay.centre[a], *lay.centre[b]))
    return has_side_roads


def _across_hex_strokes(lay: _Layout, strokes: _Strokes) -> None:
    """A fence or hedge drawn across a hex: the feature ``fence:1-4`` joins the middles of
    hexsides 1 and 4 of that hex (the Firepower map pictures)."""
    for h in lay.hexes:
        for f in lay.board.features_of.get(h, frozenset()):
            kind, sep, rest = f.partition(":")
            if not sep or kind not in HEXSIDE_STYLES or HEXSIDE_STYLES[kind][0] != "edge":
                continue
            ends = rest.split("-")
            if len(ends) != 2 or not all(e in ("1", "2", "3", "4", "5", "6") for e in ends):
                continue
            cx, cy = lay.centre[h]
            mids: list[tuple[float, float]] = []
            for e in ends:
                ang = math.radians(-90 + 60 * (int(e) - 1))
                mids.append((cx + lay.half_h * math.cos(ang), cy + lay.half_h * math.sin(ang)))
            strokes.used.add(kind)
            strokes.edge.setdefault(kind, []).append(_segment(*mids[0], *mids[1]))


def _feature_road_strokes(lay: _Layout, strokes: _Strokes) -> None:
    """Roads given as hex features only: join neighbouring road hexes (sharing a name if
    named)."""
    board = lay.board
    for kind in ("road", "trail"):
        for a in lay.hexes:
            fa = board.features_of.get(a, frozenset())
            if kind not in fa:
                continue
            na = {f for f in fa if f.startswith("name:")}
            for b in board.neighbors_of.get(a, ()):
                if not (a < b):
                    continue
                fb = board.features_of.get(b, frozenset())
                if kind not in fb:
                    continue
                nb = {f for f in fb if f.startswith("name:")}
                if na and nb and not (na & nb):
                    continue
                strokes.used.add(kind)
                strokes.cross.setdefault(kind, []).append(_segment(*lay.centre[a], *lay.centre[b]))


def _hexside_layer(lay: _Layout, heights: _Heights) -> tuple[list[str], set[str]]:
    """Contours, hexside features (water under walls and hedges), roads and trails; and the
    features drawn."""
    size = lay.size
    strokes = _Strokes()
    has_side_roads = _hexside_strokes(lay, heights, strokes)
    _across_hex_strokes(lay, strokes)
    if not has_side_roads:
        _feature_road_strokes(lay, strokes)
    out = ['<g id="hexsides" fill="none" stroke-linecap="round">']
    if strokes.contour:
        out.append(f'<path class="contour" d="{"".join(strokes.contour)}" stroke="{_CONTOUR_COLOR}" '
                   f'stroke-width="{_fmt(max(1.0, size / 18))}"/>')
    for f in sorted(strokes.edge,
                    key=lambda n: (_EDGE_ORDER.index(n) if n in _EDGE_ORDER else 99, n)):
        _kind, stroke, w, dash, _label = HEXSIDE_STYLES[f]
        dash_attr = f' stroke-dasharray="{dash}"' if dash else ""
        out.append(f'<path class="hexside {f}" d="{"".join(strokes.edge[f])}" stroke="{stroke}" '
                   f'stroke-width="{_fmt(w * size / 30)}"{dash_attr}/>')
    for f in sorted(strokes.cross):
        _kind, stroke, w, dash, _label = HEXSIDE_STYLES[f]
        path = "".join(strokes.cross[f])
        ww = w * size / 30
        if f == "road":  # a cased road: dark edge, light centre
            out.append(f'<path class="hexside {f}" d="{path}" stroke="{stroke}" '
                       f'stroke-width="{_fmt(ww * 1.7)}"/>')
            out.append(f'<path d="{path}" stroke="#f2d38a" stroke-width="{_fmt(ww)}"/>')
        else:
            dash_attr = f' stroke-dasharray="{dash}"' if dash else ""
            out.append(f'<path class="hexside {f}" d="{path}" stroke="{stroke}" '
                       f'stroke-width="{_fmt(ww)}"{dash_attr}/>')
    out.append("</g>")
    return out, strokes.used


def _feature_layer(lay: _Layout) -> tuple[list[str], set[str]]:
    """Towns, objectives and place names; and the features drawn (for the legend)."""
    board, size = lay.board, lay.size
    feats: list[str] = []
    names: dict[str, list[Hex]] = {}
    used: set[str] = set()
    for h in lay.hexes:
        fs = board.features_of.get(h, frozenset())
        if not fs:
            continue
        cx, cy = lay.centre[h]
        for f in fs:
            if f.startswith("name:"):
                names.setdefault(f[5:], []).append(h)
        if fs & {"town", "village", "building", "buildings", "city"}:
            used.add("town")
            bs = size * 0.16
            for dx, dy in ((-0.32, -0.2), (0.18, -0.3), (-0.1, 0.22)):
                feats.append(f'<rect x="{_fmt(cx + dx * size - bs / 2)}" '
                             f'y="{_fmt(cy + dy * size - bs / 2)}" '
                             f'width="{_fmt(bs)}" height="{_fmt(bs)}" fill="#3a3a3a"/>')
        if "objective" in fs:
            used.add("objective")
            feats.append(f'<circle cx="{_fmt(cx)}" cy="{_fmt(cy)}" r="{_fmt(size * 0.55)}" '
                         f'fill="none" stroke="#d4a017" stroke-width="{_fmt(size / 10)}" '
                         'stroke-dasharray="5 3"/>')
    out = ['<g id="features">', *feats]
    out.extend(_place_names(lay, names))
    out.append("</g>")
    return out, used


def _place_names(lay: _Layout, names: Mapping[str, list[Hex]]) -> list[str]:
    """Each place name once, in the hex nearest the middle of the hexes it names (a name given
    mostly to road hexes is the road's, not a place's)."""
    centre, size = lay.centre, lay.size
    road_hexes = {h for h in lay.hexes if "road" in lay.board.features_of.get(h, frozenset())}
    out: list[str] = []
    for name in sorted(names):
        spot = names[name]
        if sum(1 for h in spot if h in road_hexes) * 2 > len(spot):
            continue  # a road's name, not a place
        mx = sum(centre[h][0] for h in spot) / len(spot)
        my = sum(centre[h][1] for h in spot) / len(spot)
        best = min(spot, key=lambda h: ((centre[h][0] - mx) ** 2 + (centre[h][1] - my) ** 2, h))
        bx, by = centre[best]
        # below the middle of the hex, where a counter in the hex leaves it readable
        out.append(f'<text class="place" x="{_fmt(bx)}" y="{_fmt(by + size * 0.74)}" '
                   f'font-size="{_fmt(size * 0.36)}">{_esc(name)}</text>')
    return out


def _label_layer(lay: _Layout, heights: _Heights, every: int, show_heights: bool,
                 fs_label: float) -> list[str]:
    """Hex labels (every ``every``-th column and row) and the heights that differ from the most
    common one."""
    board, half_h = lay.board, lay.half_h
    out = ['<g id="labels">']
    show_h = show_heights and heights.span > 0
    counts: dict[float, int] = {}
    for v in heights.of.values():
        counts[v] = counts.get(v, 0) + 1
    usual = max(sorted(counts), key=lambda v: counts[v])
    for h in lay.hexes:
        cx, cy = lay.centre[h]
        if every:
            col, row = h.q, h.r + (h.q - (h.q & 1)) // 2
            if col % every == 0 and row % every == 0:
                out.append(f'<text class="lbl" x="{_fmt(cx)}" y="{_fmt(cy - half_h + fs_label + 1.5)}">'
                           f"{_esc(board.label(h))}</text>")
        if show_h and heights.of[h] != usual:
            out.append(f'<text class="ht" x="{_fmt(cx)}" y="{_fmt(cy + half_h - 3)}">'
                       f"{_esc(_fmt(heights.of[h]))}</text>")
    out.append("</g>")
    return out


def _highlight_layer(lay: _Layout, highlight_hexes: Iterable[Hex | str]) -> list[str]:
    hl = [h for h in (_as_hex(lay.board, x) for x in highlight_hexes) if h is not None]
    if not hl:
        return []
    out = ['<g id="highlight" fill="#ffe14d" fill-opacity="0.25" stroke="#e0a800" '
           f'stroke-width="{_fmt(lay.size / 9)}">']
    for h in sorted(set(hl)):
        cx, cy = lay.centre[h]
        pts = "".join(("M" if k == 0 else "L") + f"{_fmt(cx + dx * 0.92)} {_fmt(cy + dy * 0.92)}"
                      for k, (dx, dy) in enumerate(lay.corners))
        out.append(f'<path class="highlight" d="{pts}Z" data-label="{_esc(lay.board.label(h))}"/>')
    out.append("</g>")
    return out


def _marker_layer(lay: _Layout, markers: Mapping[Any, Iterable[str]],
                  stacked: Container[Hex]) -> list[str]:
    """Up to three status strings per hex, below a counter if the hex holds one."""
    size = lay.size
    out = ['<g id="markers">']
    for where, texts in sorted(markers.items(), key=lambda kv: str(kv[0])):
        mh = _as_hex(lay.board, where)
        items = [str(t) for t in texts]
        if mh is None or not items:
            continue
        cx, cy = lay.centre[mh]
        y0 = cy + size * 0.52 if mh in stacked else cy - size * 0.18
        for i, text in enumerate(items[:3]):
            y = y0 + i * size * 0.3
            w = max(size * 0.6, len(text) * size * 0.17 + 4)
            out.append(f'<rect class="marker" x="{_fmt(cx - w / 2)}" y="{_fmt(y - size * 0.14)}" '
                       f'width="{_fmt(w)}" height="{_fmt(size * 0.28)}" rx="2" fill="#fff7c2" '
                       f'stroke="#7a6a00" stroke-width="0.8"/>')
            out.append(f'<text class="mk" x="{_fmt(cx)}" y="{_fmt(y + size * 0.08)}" '
                       f'font-size="{_fmt(size * 0.2)}" fill="#3d3500">{_esc(text)}</text>')
    out.append("</g>")
    return out


def _los_layer(lay: _Layout, los_line: tuple[Hex | str, Hex | str]) -> list[str]:
    """A line of sight between two hex centres (drawn under the counters)."""
    board, size = lay.board, lay.size
    la, lb = (_as_hex(board, x) for x in los_line)
    if la is None or lb is None:
        return []
    (x1, y1), (x2, y2) = lay.centre[la], lay.centre[lb]
    out = [f'<g id="los" data-from="{_esc(board.label(la))}" data-to="{_esc(board.label(lb))}">',
           f'<line x1="{_fmt(x1)}" y1="{_fmt(y1)}" x2="{_fmt(x2)}" y2="{_fmt(y2)}" '
           f'stroke="#ffffff" stroke-width="{_fmt(size / 5)}" stroke-opacity="0.8"/>',
           f'<line x1="{_fmt(x1)}" y1="{_fmt(y1)}" x2="{_fmt(x2)}" y2="{_fmt(y2)}" '
           f'stroke="#d6001c" stroke-width="{_fmt(size / 12)}" stroke-dasharray="8 4"/>']
    for x, y in ((x1, y1), (x2, y2)):
        out.append(f'<circle cx="{_fmt(x)}" cy="{_fmt(y)}" r="{_fmt(size * 0.62)}" fill="none" '
                   f'stroke="#d6001c" stroke-width="{_fmt(size / 14)}"/>')
    out.append("</g>")
    return out


def _facing_of(u: Mapping[str, Any]) -> int | None:
    facing = u.get("facing")
    if isinstance(facing, int) and not isinstance(facing, bool) and 1 <= facing <= 6:
        return facing
    return None


def _unit_layer(lay: _Layout, stacks: Mapping[Hex, list[Mapping[str, Any]]],
                colors: Mapping[str, str], *, styled: bool = False) -> list[str]:
    """Every stack as a pile of counters, the first unit on top (``styled``: each in its own
    system's counter style)."""
    out = ['<g id="units">']
    for h in sorted(stacks):
        out.extend(_stack(lay, h, stacks[h], colors, styled))
    out.append("</g>")
    return out


def _stack(lay: _Layout, h: Hex, group: Sequence[Mapping[str, Any]],
           colors: Mapping[str, str], styled: bool = False) -> list[str]:
    board, size, half_h = lay.board, lay.size, lay.half_h
    cs = size * 0.92  # counter side
    step = size * 0.075
    n = len(group)
    hx, hy = lay.centre[h]
    shown = min(n, 4)
    out: list[str] = []
    # facing ticks first, under the counters: each unit's tick toward its facing hexside
    for u in group:
        facing = _facing_of(u)
        if facing is not None:
            ang = math.radians(-90 + 60 * (facing - 1))
            ux, uy = math.cos(ang), math.sin(ang)
            out.append(f'<line class="facing" data-id="{_esc(u.get("id", ""))}" '
                       f'x1="{_fmt(hx + ux * cs * 0.3)}" y1="{_fmt(hy + uy * cs * 0.3)}" '
                       f'x2="{_fmt(hx + ux * half_h * 0.97)}" y2="{_fmt(hy + uy * half_h * 0.97)}" '
                       f'stroke="#111" stroke-width="{_fmt(size / 9)}" stroke-linecap="round"/>')
    for i in reversed(range(n)):
        u = group[i]
        depth = min(i, shown - 1)
        cx = hx - (shown - 1) * step / 2 + depth * step
        cy = hy + (shown - 1) * step / 2 - depth * step
        side = str(u.get("side", "?"))
        fill = colors.get(side, "#777777")
        uid = str(u.get("id", ""))
        facing = _facing_of(u)
        attrs = (f'class="unit" data-id="{_esc(uid)}" data-side="{_esc(side)}" '
                 f'data-hex="{_esc(board.label(h))}"')
        if facing is not None:
            attrs += f' data-facing="{facing}"'
        if "type" in u:
            attrs += f' data-type="{_esc(u.get("type"))}"'
        system = str(u.get("type", "")).split(":", 1)[0]
        if styled:
            attrs += f' data-system="{_esc(system)}"'
        out.append(f"<g {attrs}>")
        if styled and system in COUNTER_STYLES:
            out.extend(_styled_counter(COUNTER_STYLES[system], cx, cy, cs, fill, size, i == 0))
        else:
            if i == 0:
                out.append(f'<rect x="{_fmt(cx - cs / 2 + 1.2)}" y="{_fmt(cy - cs / 2 + 1.6)}" '
                           f'width="{_fmt(cs)}" height="{_fmt(cs)}" rx="{_fmt(cs * 0.1)}" '
                           'fill="#000" fill-opacity="0.3"/>')
            out.append(f'<rect x="{_fmt(cx - cs / 2)}" y="{_fmt(cy - cs / 2)}" width="{_fmt(cs)}" '
                       f'height="{_fmt(cs)}" rx="{_fmt(cs * 0.1)}" fill="{_esc(fill)}" '
                       f'stroke="#1a1a1a" stroke-width="{_fmt(max(0.8, size / 30))}"/>')
        if i == 0:
            out.extend(_counter_text(u, cx, cy, cs, size, _text_color(fill)))
            if n > 1:
                out.extend(_stack_count(cx + cs / 2 - size * 0.05, cy - cs / 2 + size * 0.05,
                                        size, n))
        out.append("</g>")
    return out


#: counter styles of a cross-system picture, by system: Firefight's square counter (the default
#: above), MBT's with a framed inner border like its data-card counters, Firepower's soldier as a
#: round counter
COUNTER_STYLES: dict[str, str] = {"firefight": "square", "mbt": "framed", "firepower": "round"}


def _styled_counter(style: str, cx: float, cy: float, cs: float, fill: str, size: float,
                    top: bool) -> list[str]:
    """One counter's body in a system's style (the text is drawn over it as usual)."""
    sw = _fmt(max(0.8, size / 30))
    if style == "round":
        r = cs * 0.5
        return ([f'<circle cx="{_fmt(cx + 1.2)}" cy="{_fmt(cy + 1.6)}" r="{_fmt(r)}" fill="#000" '
                 'fill-opacity="0.3"/>'] if top else []) + [
            f'<circle class="counter-round" cx="{_fmt(cx)}" cy="{_fmt(cy)}" r="{_fmt(r)}" '
            f'fill="{_esc(fill)}" stroke="#1a1a1a" stroke-width="{sw}"/>']
    out = ([f'<rect x="{_fmt(cx - cs / 2 + 1.2)}" y="{_fmt(cy - cs / 2 + 1.6)}" width="{_fmt(cs)}" '
            f'height="{_fmt(cs)}" rx="{_fmt(cs * 0.1)}" fill="#000" fill-opacity="0.3"/>']
           if top else [])
    out.append(f'<rect class="counter-{_esc(style)}" x="{_fmt(cx - cs / 2)}" y="{_fmt(cy - cs / 2)}" '
               f'width="{_fmt(cs)}" height="{_fmt(cs)}" rx="{_fmt(cs * 0.1)}" fill="{_esc(fill)}" '
               f'stroke="#1a1a1a" stroke-width="{sw}"/>')
    if style == "framed":
        inner = cs * 0.84
        out.append(f'<rect x="{_fmt(cx - inner / 2)}" y="{_fmt(cy - inner / 2)}" '
                   f'width="{_fmt(inner)}" height="{_fmt(inner)}" fill="none" stroke="#f4f4f4" '
                   f'stroke-width="{sw}"/>')
    return out


def _ground_layers(lay: _Layout, ground: Ground, host: str,
                   insets: Mapping[str, Iterable[Hex]]) -> list[str]:
    """The other boards of the shared ground over the host's picture: a coarser board as a dashed
    grid over the map, a finer one inset inside the host hexes it covers (docs/cross-system.md)."""
    base = ground.layer(host)
    k = lay.size * SQRT3 / base.hex_size_m  # pixels per ground metre
    # pixel position of the host's hex (0, 0): any hex's pixel centre less its scaled local one
    h0 = lay.hexes[0]
    lx, ly = hex_to_local(h0.q, h0.r, base.hex_size_m)
    ox, oy = lay.centre[h0][0] - k * lx, lay.centre[h0][1] - k * ly

    def pixel(gx: float, gy: float) -> tuple[float, float]:
        x, y = base.from_ground(gx, gy)
        return ox + k * x, oy + k * y

    def outline(layer: BoardLayer, h: Hex) -> str:
        cx, cy = hex_to_local(h.q, h.r, layer.hex_size_m)
        r = layer.hex_size_m / SQRT3
        pts = [pixel(*layer.to_ground(cx + r * math.cos(math.radians(60 * c)),
                                      cy + r * math.sin(math.radians(60 * c)))) for c in range(6)]
        return "M" + "L".join(f"{_fmt(x)},{_fmt(y)}" for x, y in pts) + "Z"

    out: list[str] = []
    key: list[str] = [f"{host} {base.hex_size_m:g} m hexes (host)"]
    on_board = set(lay.hexes)
    for system in sorted(ground.layers):
        layer = ground.layers[system]
        if system == host:
            continue
        if layer.hex_size_m >= base.hex_size_m:
            cover = {layer.hex_at(*base.centre(h)) for h in lay.hexes}
            paths = [outline(layer, h) for h in sorted(cover)]
            out.append(f'<g id="board-{_esc(system)}" class="ground-board" data-system='
                       f'"{_esc(system)}" data-hex-size-m="{layer.hex_size_m:g}">'
                       f'<path d="{" ".join(paths)}" fill="none" stroke="#3b2e8c" '
                       f'stroke-opacity="0.5" stroke-width="{_fmt(max(0.8, lay.size / 16))}" '
                       'stroke-dasharray="6 3"/></g>')
            key.append(f"{system} {layer.hex_size_m:g} m hexes (dashed)")
            continue
        hosts = sorted({h for h in insets.get(system, ()) if h in on_board})
        if not hosts:
            continue
        reach = int(base.hex_size_m / layer.hex_size_m) + 2
        out.append(f'<g id="inset-{_esc(system)}" class="ground-inset" data-system="{_esc(system)}" '
                   f'data-hex-size-m="{layer.hex_size_m:g}">')
        for h in hosts:
            # the finer board's hexes whose centres lie inside this host hex
            start = layer.hex_at(*base.centre(h))
            inside: list[Hex] = []
            for dq in range(-reach, reach + 1):
                for dr in range(max(-reach, -dq - reach), min(reach, -dq + reach) + 1):
                    fh = Hex(start.q + dq, start.r + dr)
                    if base.hex_at(*layer.centre(fh)) == h:
                        inside.append(fh)
            cx, cy = lay.centre[h]
            host_outline = "M" + "L".join(f"{_fmt(cx + a)},{_fmt(cy + b)}" for a, b in lay.corners)
            label = _esc(lay.board.label(h))
            clip = f"inset-{_esc(system)}-{label}"
            # the fine grid clipped to the host hex: hexes on its edge are cut, as on the ground
            out.append(f'<g class="inset" data-host-hex="{label}" data-hexes="{len(inside)}">'
                       f'<clipPath id="{clip}"><path d="{host_outline}Z"/></clipPath>'
                       f'<path d="{host_outline}Z" fill="#fffdf2" fill-opacity="0.85"/>'
                       f'<path clip-path="url(#{clip})" '
                       f'd="{" ".join(outline(layer, fh) for fh in inside)}" fill="none" '
                       'stroke="#8c2e2e" stroke-opacity="0.55" stroke-width="0.4"/>'
                       f'<path d="{host_outline}Z" fill="none" stroke="#8c2e2e" '
                       'stroke-width="1.5"/></g>')
        out.append("</g>")
        key.append(f"{system} {layer.hex_size_m:.2f} m hexes (inset)")
    out.append(f'<text id="ground-key" class="ground-key" x="{_fmt(lay.margin)}" '
               f'y="{_fmt(lay.margin + lay.title_h - 4)}" font-size="{_fmt(max(8.0, lay.size * 0.3))}" '
               f'fill="#333">shared ground: {_esc("; ".join(key))}</text>')
    return out


def _stack_count(bx: float, by: float, size: float, n: int) -> list[str]:
    """The badge with the number of units in a stack, on the top counter's corner."""
    return [f'<circle cx="{_fmt(bx)}" cy="{_fmt(by)}" r="{_fmt(size * 0.17)}" '
            'fill="#ffffff" stroke="#111" stroke-width="0.8"/>',
            f'<text class="count" x="{_fmt(bx)}" y="{_fmt(by + size * 0.075)}" '
            f'font-size="{_fmt(size * 0.2)}" fill="#111">{n}</text>']


#: the board's ground layers (hexes, hexsides, features, labels) by drawing parameters: boards do
#: not change during play, and a web table draws the same board after every decision
_GROUND = StashKey[dict[tuple[Any, ...], tuple[tuple[str, ...], dict[str, tuple[str, str]],
                                              frozenset[str], frozenset[str]]]]("core.render_ground")
#: at most this many sets of drawing parameters are kept per board
_GROUND_LIMIT = 8


def _board_layers(lay: _Layout, terrain: Mapping[str, TerrainType | None], heights: _Heights,
                   every: int, show_heights: bool, fs_label: float
                   ) -> tuple[tuple[str, ...], dict[str, tuple[str, str]], frozenset[str],
                              frozenset[str]]:
    """The hex, hexside, feature and label layers, and the terrain, hexside features and hex
    features they use: drawn once per board and drawing parameters, then kept in the board's
    stash (a few sets of parameters at most)."""
    key = (lay.size, lay.title_h, every, show_heights, fs_label,
           tuple(sorted((name, None if t is None else (t.name, t.title, t.color))
                        for name, t in terrain.items())))
    memo = lay.board.stash.setdefault(_GROUND, {})
    got = memo.get(key)
    if got is None:
        hex_layer, used_terrain = _hex_layer(lay, terrain, heights)
        hexside_layer, used_sides = _hexside_layer(lay, heights)
        feature_layer, used_feats = _feature_layer(lay)
        labels = _label_layer(lay, heights, every, show_heights, fs_label)
        if len(memo) >= _GROUND_LIMIT:
            memo.clear()
        got = memo[key] = (tuple(hex_layer + hexside_layer + feature_layer + labels),
                           used_terrain, frozenset(used_sides), frozenset(used_feats))
    return got[0], dict(got[1]), got[2], got[3]


def render_board(
    board: Board,
    *,
    terrain_types: Mapping[str, TerrainType],
    units: Iterable[Mapping[str, Any]] = (),
    markers: Mapping[Any, Iterable[str]] | None = None,
    title: str = "",
    highlight_hexes: Iterable[Hex | str] = (),
    los_line: tuple[Hex | str, Hex | str] | None = None,
    label_every: int = 1,
    hex_size: float = 30.0,
    side_colors: Mapping[str, str] | None = None,
    show_heights: bool = True,
    legend: bool = True,
    ground: Ground | None = None,
    host: str | None = None,
    insets: Mapping[str, Iterable[Hex]] | None = None,
) -> str:
    """Draw ``board`` as an SVG document (a string).

    ``terrain_types`` gives colours and legend titles (qualified or short names both match the
    board's terrain). ``units`` are unit dicts as ``Unit.to_dict()`` or a view shows them (``id``,
    ``type``, ``side``, ``hex`` as ``[q, r]``, a label or a :class:`Hex`, ``facing`` 1-6,
    ``state``); units off the board are skipped. ``markers`` maps a hex (label, ``[q, r]`` or
    :class:`Hex`) to status strings shown in that hex (smoke, wreck...). ``los_line`` draws a
    line of sight between two hex centres; ``highlight_hexes`` outlines hexes. ``label_every=n``
    labels every n-th column and row (1: every hex; 0: none). ``hex_size`` is the corner radius
    in pixels.

    ``ground`` (a :class:`~hexwar.core.ground.Ground` whose layer ``host`` is this board) lays the
    other systems' boards over the picture (docs/cross-system.md): a coarser board as a dashed
    grid over the whole map, a finer one as an inset of its own hexes inside the host hexes
    ``insets[system]`` (where its units stand). With a ground, each unit is drawn in its own
    system's counter style (:data:`COUNTER_STYLES`).

    The picture is drawn in layers, bottom to top: hexes, contours and hexside features, hex
    features and place names, labels and heights, highlights, markers, the line of sight, the
    units, and the legend beside the map.
    """
    lay = _layout(board, float(hex_size), title)
    placed = _placed_units(board, units)
    colors = _side_colors(_sides_in_order(placed), side_colors or {})
    heights = _Heights(board.height_of, min(board.height_of.values()),
                       max(board.height_of.values()))
    legend_x = lay.margin + lay.map_w + 18 if legend else 0.0
    width = (legend_x + _LEGEND_WIDTH) if legend else (lay.margin * 2 + lay.map_w)
    height = lay.margin * 2 + lay.title_h + lay.map_h
    fs_label = max(5.0, lay.size * 0.24)

    out = _document_start(lay, width, height, title, fs_label)
    board_layers, used_terrain, used_sides, used_feats = _board_layers(
        lay, _terrain_lookup(board, terrain_types), heights, max(0, int(label_every)),
        show_heights, fs_label)
    out.extend(board_layers)
    out.extend(_highlight_layer(lay, highlight_hexes))
    stacks: dict[Hex, list[Mapping[str, Any]]] = {}
    for h, u in placed:
        stacks.setdefault(h, []).append(u)
    if ground is not None and host is not None:
        out.extend(_ground_layers(lay, ground, host, insets or {}))
    if markers:
        out.extend(_marker_layer(lay, markers, stacks))
    if los_line is not None:
        out.extend(_los_layer(lay, los_line))
    if placed:
        out.extend(_unit_layer(lay, stacks, colors, styled=ground is not None))
    if legend:
        out.extend(_legend(legend_x, lay.margin + lay.title_h, used_terrain, used_sides,
                           used_feats, colors, heights.span > 0, (heights.lo, heights.hi)))
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _shorten(text: str) -> str:
    """A legend entry cut to fit the legend box (the full text stays in a tooltip)."""
    room = int((_LEGEND_WIDTH - 16 - 48) / 6.4)
    return text if len(text) <= room else text[: room - 1].rstrip(" ,(") + "…"


def _legend(x: float, y: float, terrain: Mapping[str, tuple[str, str]],
            hexsides: AbstractSet[str], feats: AbstractSet[str], colors: Mapping[str, str], heights: bool,
            hrange: tuple[float, float]) -> list[str]:
    out = ['<g id="legend">']
    rows: list[str] = []
    yy = y + 14

    def heading(text: str) -> None:
        nonlocal yy
        rows.append(f'<text class="legh" x="{_fmt(x + 10)}" y="{_fmt(yy)}">{_esc(text)}</text>')
        yy += 8

    heading("Terrain")
    for title in sorted(terrain):
        color, name = terrain[title]
        rows.append(f'<rect x="{_fmt(x + 10)}" y="{_fmt(yy)}" width="22" height="14" fill="{_esc(color)}" '
                    'stroke="#555" stroke-width="0.6"/>')
        rows.append(f'<text class="leg legend-terrain" data-terrain="{_esc(name)}" x="{_fmt(x + 40)}" '
                    f'y="{_fmt(yy + 11)}"><title>{_esc(title)}</title>{_esc(_shorten(title))}</text>')
        yy += 20
    if heights:
        yy += 4
        lo, hi = hrange
        rows.append(f'<rect x="{_fmt(x + 10)}" y="{_fmt(yy)}" width="11" height="14" fill="#e8e2cc"/>')
        rows.append(f'<rect x="{_fmt(x + 21)}" y="{_fmt(yy)}" width="11" height="14" '
                    f'fill="{_mix("#e8e2cc", _HIGH_GROUND, _SHADE)}"/>')
        rows.append(f'<text class="leg" x="{_fmt(x + 40)}" y="{_fmt(yy + 11)}">height {_esc(_fmt(lo))}'
                    f" to {_esc(_fmt(hi))}</text>")
        yy += 20
    lines = sorted(hexsides | ({"contour"} if heights else set()))
    if lines or feats:
        yy += 8
        heading("Features")
        for f in lines:
            _kind, stroke, w, dash, label = HEXSIDE_STYLES[f]
            dash_attr = f' stroke-dasharray="{dash}"' if dash else ""
            if f == "road":
                rows.append(f'<line x1="{_fmt(x + 10)}" y1="{_fmt(yy + 7)}" x2="{_fmt(x + 32)}" '
                            f'y2="{_fmt(yy + 7)}" stroke="{stroke}" stroke-width="{_fmt(w * 1.7)}"/>')
                stroke = "#f2d38a"
            rows.append(f'<line x1="{_fmt(x + 10)}" y1="{_fmt(yy + 7)}" x2="{_fmt(x + 32)}" '
                        f'y2="{_fmt(yy + 7)}" stroke="{stroke}" stroke-width="{_fmt(w)}"{dash_attr}/>')
            rows.append(f'<text class="leg legend-feature" x="{_fmt(x + 40)}" y="{_fmt(yy + 11)}">'
                        f"{_esc(label)}</text>")
            yy += 20
        for f in sorted(feats):
            if f == "town":
                rows.append(f'<rect x="{_fmt(x + 16)}" y="{_fmt(yy + 2)}" width="9" height="9" '
                            'fill="#3a3a3a"/>')
            else:
                rows.append(f'<circle cx="{_fmt(x + 21)}" cy="{_fmt(yy + 7)}" r="7" fill="none" '
                            'stroke="#d4a017" stroke-width="2.5" stroke-dasharray="4 2"/>')
            rows.append(f'<text class="leg legend-feature" x="{_fmt(x + 40)}" y="{_fmt(yy + 11)}">'
                        f"{_esc(f)}</text>")
            yy += 20
    if colors:
        yy += 8
        heading("Sides")
        for side, color in colors.items():
            rows.append(f'<rect x="{_fmt(x + 10)}" y="{_fmt(yy)}" width="22" height="14" rx="2" '
                        f'fill="{_esc(color)}" stroke="#111" stroke-width="0.8"/>')
            rows.append(f'<text class="leg legend-side" data-side="{_esc(side)}" x="{_fmt(x + 40)}" '
                        f'y="{_fmt(yy + 11)}">{_esc(side)}</text>')
            yy += 20
    out.append(f'<rect x="{_fmt(x)}" y="{_fmt(y)}" width="{_LEGEND_WIDTH - 16}" '
               f'height="{_fmt(yy - y + 6)}" rx="4" fill="#ffffff" fill-opacity="0.85" stroke="#888"/>')
    out.extend(rows)
    out.append("</g>")
    return out


def render_game(game: Game, side: str | None = None, **options: Any) -> str:
    """Draw ``game`` as ``side`` may see it (``None``: the umpire, who sees everything).

    Units are those of ``game.view(side).units`` (the system's sighting and hidden-information
    rules decide); hex markers come from the system's public state when it gives a ``markers``
    mapping of hex label to status strings. ``options`` pass on to :func:`render_board`.
    """
    view = game.view(side)
    units = list(view.units.values())
    markers: dict[Any, list[str]] = {}
    state = view.system_state
    if isinstance(state, Mapping) and isinstance(state.get("markers"), Mapping):
        for where, texts in state["markers"].items():
            if isinstance(texts, str):
                markers[where] = [texts]
            elif isinstance(texts, Iterable):
                markers[where] = [str(t) for t in texts]
    scenario = game.scenario
    phase = game.state.phase.split(".", 1)[-1] if game.state.phase else ""
    title = f"{scenario.title or scenario.id}: turn {game.state.turn}"
    if phase:
        title += f", {phase}"
    title += f" ({side}'s view)" if side is not None else " (umpire's view)"
    options.setdefault("title", title)
    options.setdefault("markers", markers)
    raw_ground = scenario.raw.get("ground")
    if isinstance(raw_ground, Mapping) and "ground" not in options:
        # a cross-system scenario: lay the other boards of its shared ground over the host's,
        # each finer board inset where the units of its system stand
        from hexwar.core.ground import Ground

        ground = Ground.from_mapping(raw_ground, path=scenario.path)
        insets: dict[str, list[Hex]] = {}
        for u in units:
            where = _as_hex(game.board, u.get("hex"))
            if where is not None:
                insets.setdefault(str(u.get("type", "")).split(":", 1)[0], []).append(where)
        options.update(ground=ground, host=scenario.system, insets=insets)
    return render_board(game.board, terrain_types=game.hooks.terrain_types(), units=units, **options)
