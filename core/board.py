"""Boards: panels (map sections) loaded from TOML, placed and joined into one hex graph.

The board is a plain :class:`networkx.Graph` with a documented schema (docs/map-schema.md):

* nodes: :class:`~hexwar.core.hexgrid.Hex`; attributes ``terrain: str``, ``height: float`` (ground
  height in the system's own unit), ``features: frozenset[str]`` (road, town, objective...),
  ``labels: tuple[str, ...]`` (canonical label first, then aliases);
* edges: between every two adjacent hexes of the board; attribute ``hexside: frozenset[str]``
  (fence, hedge, wall, contour, slope, stream, river, road, trail, bridge...; empty if none);
* graph attributes: ``hex_size_m: float``, ``orientation = "flat"``, ``system: str``.

Hot paths (LOS, movement) read the plain dicts :attr:`Board.terrain_of`, :attr:`Board.height_of`,
:attr:`Board.features_of`, :attr:`Board.neighbors_of` and :attr:`Board.hexside_of`, never the graph.

Panels join as the rulebooks describe: MBT 2.1 lines up panels 3, 2, 1 between two mapboard
sides; MBT 1.1 and Firepower 1.1 let a hex split between two panels be named from either panel.
When two placed panels put a hex at the same board position, the board keeps one :class:`Hex`
and registers both labels.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, Protocol

import networkx as nx

from hexwar.core.errors import DataError, HexwarError
from hexwar.core.hexgrid import Hex
from hexwar.core.kit.stash import Stash
from hexwar.core.labels import (
    ColumnRow,
    LabelStyle,
    LetterNumber,
    column_index,
    column_letters,
)
from hexwar.core.safeload import confined
from hexwar.core.types import Problem

if TYPE_CHECKING:
    from hexwar.core.geo import GeoReference

__all__ = [
    "Board",
    "MapValidationError",
    "Panel",
    "PanelPlacement",
    "board_from_spec",
    "validate_board",
]


class MapValidationError(HexwarError, ValueError):
    """A panel or board is malformed; ``problems`` lists every problem found, not just the first."""

    def __init__(self, problems: Sequence[Problem], what: str = "map") -> None:
        self.problems = list(problems)
        lines = "\n".join(f"  - {p}" for p in self.problems)
        super().__init__(f"{len(self.problems)} problem(s) in {what}:\n{lines}")


def _is_number(x: Any) -> bool:
    return isinstance(x, int | float) and not isinstance(x, bool) and math.isfinite(float(x))


# ---------------------------------------------------------------------------------------------
# Panels
# ---------------------------------------------------------------------------------------------

_PANEL_KEYS = {
    "id", "system", "title", "stand_in", "labels", "shifted", "columns", "rows", "hex_size_m",
    "default_terrain", "default_height", "source", "notes", "map",
}
_HEX_KEYS = {"at", "terrain", "height", "features", "source", "notes"}
_SIDE_KEYS = {"between", "features", "source", "notes"}


@dataclass
class Panel:
    """One map panel (a mapboard section, or a whole Firefight map).

    Local hexes are the panel's own axial coordinates (``q`` = column index as the label style
    counts it). ``columns`` and ``rows`` are inclusive ranges of that style's column index and row
    number. ``terrain``/``height``/``features`` hold per-hex values that differ from the defaults;
    ``hexsides`` maps a pair of local hexes to its hexside features. ``sources`` records the
    provenance of each entry (rule reference or ``estimated``), keyed by label or ``a|b``.
    """

    id: str
    style: LabelStyle
    columns: tuple[int, int]
    rows: tuple[int, int]
    default_terrain: str = "clear"
    default_height: float = 0.0
    terrain: dict[Hex, str] = field(default_factory=dict)
    height: dict[Hex, float] = field(default_factory=dict)
    features: dict[Hex, frozenset[str]] = field(default_factory=dict)
    hexsides: dict[frozenset[Hex], frozenset[str]] = field(default_factory=dict)
    system: str = ""
    title: str = ""
    hex_size_m: float | None = None
    stand_in: bool = False
    source: str = ""
    sources: dict[str, str] = field(default_factory=dict)
    path: str = ""

    def __post_init__(self) -> None:
        self._cells: frozenset[Hex] = frozenset(
            self.style.hex_of(c, r)
            for c in range(self.columns[0], self.columns[1] + 1)
            for r in range(self.rows[0], self.rows[1] + 1)
        )

    @property
    def cells(self) -> frozenset[Hex]:
        """Every local hex of the panel."""
        return self._cells

    def contains(self, h: Hex) -> bool:
        return h in self._cells

    def label(self, h: Hex) -> str:
        """The printed label of local hex ``h`` (``1FF1`` or ``1944``)."""
        return self.style.to_label(h)

    def parse(self, label: str) -> Hex:
        """Local hex of ``label``; ``ValueError`` naming the label if malformed or off the panel."""
        h = self.style.to_hex(label)
        if h not in self._cells:
            raise ValueError(f"hex label {label!r} is outside panel {self.id}")
        return h

    # -- loading ------------------------------------------------------------------------------
    @classmethod
    def from_toml(cls, path: str | Path) -> Panel:
        """Load a panel file (format: docs/map-schema.md); raises :class:`MapValidationError`."""
        from hexwar.core.safeload import load_toml

        p = Path(path)
        try:
            _, data = load_toml(p, what="panel")
        except DataError as exc:
            raise MapValidationError([Problem(exc.message, str(p), exc.key or "", exc.line,
                                              exc.hint or "")], str(p)) from None
        return cls.from_dict(data, source=str(p))

    @classmethod
    def from_dict(cls, d: Mapping[str, Any], *, source: str = "<dict>") -> Panel:
        """Build a panel from parsed TOML; every problem is collected, then raised together."""
        problems: list[Problem] = []

        def bad(msg: str, key: str, hint: str = "") -> None:
            problems.append(Problem(msg, source, key, hint=hint))

        head = d.get("panel")
        if not isinstance(head, Mapping):
            raise MapValidationError([Problem("missing [panel] table", source, "panel")], source)
        for k in sorted(set(d) - {"panel", "hex", "hexside"}):
            bad(f"unknown top-level key {k!r}", k, "expected [panel], [[hex]], [[hexside]]")
        for k in sorted(set(head) - _PANEL_KEYS):
            bad(f"unknown key {k!r} in [panel]", f"panel.{k}")
        pid = str(head.get("id", ""))
        if not pid:
            bad("panel has no id", "panel.id")
        kind = head.get("labels", "letter-number")
        shifted = head.get("shifted", "even")
        if shifted not in ("even", "odd"):
            bad(f"shifted must be 'even' or 'odd', got {shifted!r}", "panel.shifted")
            shifted = "even"
        style: LabelStyle
        if kind == "letter-number":
            style = LetterNumber(pid, shifted)
        elif kind == "column-row":
            style = ColumnRow(str(head.get("map", pid)), shifted)
        else:
            bad(f"labels must be 'letter-number' or 'column-row', got {kind!r}", "panel.labels")
            style = LetterNumber(pid, shifted)

        def col_bound(x: Any) -> int | None:
            if isinstance(x, int) and not isinstance(x, bool) and x >= 0:
                return x
            if isinstance(x, str) and style.kind == "letter-number":
                try:
                    return column_index(x)
                except ValueError as exc:
                    bad(str(exc), "panel.columns")
                    return None
            bad(f"bad column bound {x!r}", "panel.columns")
            return None

        columns = (0, 0)
        cols = head.get("columns")
        if isinstance(cols, list) and len(cols) == 2:
            c0, c1 = col_bound(cols[0]), col_bound(cols[1])
            if c0 is not None and c1 is not None:
                if c0 > c1:
                    bad(f"columns run backwards: {cols!r}", "panel.columns")
                else:
                    columns = (c0, c1)
        else:
            bad("columns must be [first, last]", "panel.columns", 'e.g. columns = ["A", "HH"]')
        rows = (1, 1)
        rw = head.get("rows")
        if (
            isinstance(rw, list)
            and len(rw) == 2
            and all(isinstance(x, int) and not isinstance(x, bool) for x in rw)
            and rw[0] <= rw[1]
        ):
            rows = (rw[0], rw[1])
        else:
            bad("rows must be [first, last] integers, first <= last", "panel.rows",
                "e.g. rows = [1, 10] (or [0, 10] with a row 0)")
        default_height = head.get("default_height", 0.0)
        if not _is_number(default_height):
            bad(f"default_height is not a number: {default_height!r}", "panel.default_height")
            default_height = 0.0
        hex_size = head.get("hex_size_m")
        if hex_size is not None and (not _is_number(hex_size) or float(hex_size) <= 0):
            bad(f"hex_size_m must be a positive number, got {hex_size!r}", "panel.hex_size_m")
            hex_size = None
        default_terrain = head.get("default_terrain", "clear")
        if not isinstance(default_terrain, str) or not default_terrain:
            bad(f"default_terrain must be a name, got {default_terrain!r}", "panel.default_terrain")
            default_terrain = "clear"

        panel = cls(
            id=pid, style=style, columns=columns, rows=rows,
            default_terrain=default_terrain, default_height=float(default_height),
            system=str(head.get("system", "")), title=str(head.get("title", "")),
            hex_size_m=None if hex_size is None else float(hex_size),
            stand_in=bool(head.get("stand_in", False)), source=str(head.get("source", "")),
            path=source,
        )

        def local(label: Any, key: str) -> Hex | None:
            if not isinstance(label, str):
                bad(f"hex label must be a string, got {label!r}", key)
                return None
            try:
                h = style.to_hex(label)
            except ValueError as exc:
                bad(str(exc), key)
                return None
            if h not in panel.cells:
                c, r = style.cell_of(h)
                bad(f"hex {label!r} is outside panel {pid} (columns {_cols(style, columns)}, "
                    f"rows {rows[0]}..{rows[1]}; this is column {c}, row {r})", key)
                return None
            return h

        seen: dict[Hex, str] = {}
        for i, entry in enumerate(_tables(d.get("hex", []), "hex", bad)):
            key = f"hex[{i}]"
            for k in sorted(set(entry) - _HEX_KEYS):
                bad(f"unknown key {k!r}", f"{key}.{k}")
            ats = entry.get("at")
            at_list = ats if isinstance(ats, list) else [ats]
            for lab in at_list:
                h = local(lab, f"{key}.at")
                if h is None:
                    continue
                if h in seen:
                    bad(f"hex {lab!r} is described twice (also as {seen[h]!r})", f"{key}.at")
                seen[h] = str(lab)
                if "terrain" in entry:
                    t = entry["terrain"]
                    if isinstance(t, str) and t:
                        panel.terrain[h] = t
                    else:
                        bad(f"terrain of {lab!r} must be a name, got {t!r}", f"{key}.terrain")
                if "height" in entry:
                    ht = entry["height"]
                    if _is_number(ht):
                        panel.height[h] = float(ht)
                    else:
                        bad(f"height of {lab!r} is not a number: {ht!r}", f"{key}.height")
                if "features" in entry:
                    fs = entry["features"]
                    if isinstance(fs, list) and all(isinstance(f, str) for f in fs):
                        panel.features[h] = frozenset(fs)
                    else:
                        bad(f"features of {lab!r} must be a list of names", f"{key}.features")
                if "source" in entry:
                    panel.sources[style.to_label(h)] = str(entry["source"])
        for i, entry in enumerate(_tables(d.get("hexside", []), "hexside", bad)):
            key = f"hexside[{i}]"
            for k in sorted(set(entry) - _SIDE_KEYS):
                bad(f"unknown key {k!r}", f"{key}.{k}")
            pair = entry.get("between")
            if not (isinstance(pair, list) and len(pair) == 2):
                bad("between must name two hexes", f"{key}.between", 'e.g. between = ["G7", "G8"]')
                continue
            ha, hb = local(pair[0], f"{key}.between"), local(pair[1], f"{key}.between")
            if ha is None or hb is None:
                continue
            if ha.distance(hb) != 1:
                bad(f"hexside between {pair[0]!r} and {pair[1]!r}: the hexes are not adjacent",
                    f"{key}.between")
                continue
            fs = entry.get("features")
            if not (isinstance(fs, list) and fs and all(isinstance(f, str) for f in fs)):
                bad("features must be a non-empty list of names", f"{key}.features")
                continue
            k2 = frozenset((ha, hb))
            panel.hexsides[k2] = panel.hexsides.get(k2, frozenset()) | frozenset(fs)
            if "source" in entry:
                panel.sources[f"{pair[0]}|{pair[1]}"] = str(entry["source"])
        if problems:
            raise MapValidationError(problems, source)
        return panel


def _cols(style: LabelStyle, columns: tuple[int, int]) -> str:
    if style.kind == "letter-number":
        return f"{column_letters(columns[0])}..{column_letters(columns[1])}"
    return f"{columns[0]:02d}..{columns[1]:02d}"


def _tables(x: Any, name: str, bad: Any) -> Iterator[Mapping[str, Any]]:
    if not isinstance(x, list):
        bad(f"[[{name}]] must be an array of tables", name)
        return
    for i, e in enumerate(x):
        if isinstance(e, Mapping):
            yield e
        else:
            bad(f"[[{name}]] entry {i} is not a table", f"{name}[{i}]")


@dataclass(frozen=True)
class PanelPlacement:
    """Where a panel lies on the board: rotated by 0 or 180 degrees, then translated.

    ``offset`` is an axial :class:`Hex` translation, or ``(columns, rows)``: move the panel as if
    its own numbering continued that many columns right and rows down (so ``(33, 0)`` puts the
    panel's cell (0, 0) where the panel's own cell (33, 0) would be; with the same shift parity two
    panels then join row to row). Rotation 180 turns the panel about its local hex (0, 0) first.

    To chain panels (3, 2, 1 one after another, MBT 2.1) use :meth:`aligned`, which puts one of the
    panel's hexes on a board hex of a panel already placed, e.g.
    ``PanelPlacement.aligned(p1, "1A1", pl2.hex("2HH1"))``: a column offset by an odd number
    shifts the grid by half a hex, so offsets are not additive across panels.
    """

    panel: Panel
    offset: Hex | tuple[int, int] = (0, 0)
    rotation: Literal[0, 180] = 0

    def __post_init__(self) -> None:
        if self.rotation not in (0, 180):
            raise ValueError(f"rotation must be 0 or 180, got {self.rotation!r}")

    @property
    def translation(self) -> Hex:
        if isinstance(self.offset, Hex):
            return self.offset
        c, r = self.offset
        st = self.panel.style
        return st.hex_of(c, r) - st.hex_of(0, 0)

    def to_board(self, local: Hex) -> Hex:
        """Board hex of a panel-local hex."""
        h = -local if self.rotation == 180 else local
        return h + self.translation

    def to_local(self, h: Hex) -> Hex:
        """Panel-local hex of a board hex."""
        x = h - self.translation
        return -x if self.rotation == 180 else x

    def hex(self, label: str) -> Hex:
        """Board hex of one of this panel's labels."""
        return self.to_board(self.panel.parse(label))

    @classmethod
    def aligned(
        cls, panel: Panel, label: str, at: Hex, rotation: Literal[0, 180] = 0
    ) -> PanelPlacement:
        """The placement that puts ``panel``'s hex ``label`` on board hex ``at``."""
        local = panel.style.to_hex(label)
        rotated = -local if rotation == 180 else local
        return cls(panel, at - rotated, rotation)


# ---------------------------------------------------------------------------------------------
# Boards
# ---------------------------------------------------------------------------------------------


class Board:
    """A board: a hex graph plus label lookup and plain dicts for hot paths.

    Build one with :meth:`assemble` (from panel placements) or directly from a graph that follows
    the schema (``Board(graph)``; labels come from the ``labels`` node attribute).
    """

    def __init__(self, graph: nx.Graph, *, placements: Sequence[PanelPlacement] = ()) -> None:
        self.graph = graph
        self.placements = tuple(placements)
        self.system: str = str(graph.graph.get("system", ""))
        self.hex_size_m: float = float(graph.graph.get("hex_size_m", 0.0))
        #: where the board lies on the Earth, when the scenario says (``[board.geo]``)
        self.geo: GeoReference | None = None
        #: derived data that plugins compute from the board (areas, movement indexes)
        self.stash = Stash()
        self._rebuild()

    def _rebuild(self) -> None:
        g = self.graph
        self.hexes: frozenset[Hex] = frozenset(g.nodes)
        self.terrain_of: dict[Hex, str] = {h: a.get("terrain", "") for h, a in g.nodes(data=True)}
        self.height_of: dict[Hex, float] = {
            h: float(a["height"]) if _is_number(a.get("height")) else 0.0
            for h, a in g.nodes(data=True)
        }
        self.features_of: dict[Hex, frozenset[str]] = {
            h: a.get("features", frozenset()) for h, a in g.nodes(data=True)
        }
        self.neighbors_of: dict[Hex, tuple[Hex, ...]] = {
            h: tuple(n for n in h.neighbors() if n in g) for h in g.nodes
        }
        self.hexside_of: dict[tuple[Hex, Hex], frozenset[str]] = {}
        for a, b, attrs in g.edges(data=True):
            fs = attrs.get("hexside", frozenset())
            self.hexside_of[(a, b)] = fs
            self.hexside_of[(b, a)] = fs
        self._labels: dict[Hex, tuple[str, ...]] = {
            h: tuple(a.get("labels", ())) for h, a in g.nodes(data=True)
        }
        self._alias: dict[str, Hex] = {}
        for h, labs in self._labels.items():
            for lab in labs:
                self._alias.setdefault(_norm(lab), h)

    # -- construction ---------------------------------------------------------------------------
    @classmethod
    def assemble(
        cls,
        placements: Iterable[PanelPlacement | Panel],
        *,
        system: str | None = None,
        hex_size_m: float | None = None,
        known_terrain: Iterable[str] | None = None,
        strict: bool = True,
    ) -> Board:
        """Join placed panels into a board.

        Where two panels put a hex at the same place (the half hexes where panels join, MBT 1.1,
        Firepower 1.1), the board keeps one hex: its canonical label is the one from the earlier
        placement and the other panel's label is an alias. Explicit per-hex data that disagree
        between the two halves is a problem. With ``strict`` every problem found (including
        :func:`validate_board`'s) is raised together in one :class:`MapValidationError`.
        """
        pl = [p if isinstance(p, PanelPlacement) else PanelPlacement(p) for p in placements]
        problems: list[Problem] = []
        if not pl:
            raise MapValidationError([Problem("a board needs at least one panel")], "board")
        sys_name = system if system is not None else pl[0].panel.system
        size = hex_size_m if hex_size_m is not None else pl[0].panel.hex_size_m
        g = nx.Graph(system=sys_name, hex_size_m=float(size or 0.0), orientation="flat")
        n_column_row = sum(1 for p in pl if p.panel.style.kind == "column-row")
        # Per-hex values a panel sets explicitly (not defaults), with the label that set them.
        explicit: dict[Hex, dict[str, tuple[Any, str]]] = {}
        for p in pl:
            panel = p.panel
            for local in sorted(panel.cells):
                h = p.to_board(local)
                labs = _labels_of(panel, local, n_column_row)
                data: dict[str, Any] = {}
                if local in panel.terrain:
                    data["terrain"] = panel.terrain[local]
                if local in panel.height:
                    data["height"] = panel.height[local]
                if local in panel.features:
                    data["features"] = panel.features[local]
                if h not in g:
                    g.add_node(h, terrain=panel.default_terrain,
                               height=float(panel.default_height), features=frozenset(),
                               labels=labs)
                else:  # a joined half hex: one hex, both panels' labels
                    node = g.nodes[h]
                    node["labels"] = tuple(node["labels"]) + tuple(
                        x for x in labs if x not in node["labels"])
                node = g.nodes[h]
                mine = explicit.setdefault(h, {})
                for k, v in data.items():
                    if k == "features":
                        node[k] = frozenset(node[k]) | v
                    elif k in mine:
                        if mine[k][0] != v:
                            problems.append(Problem(
                                f"joined hex {mine[k][1]} = {labs[0]}: {k} {mine[k][0]!r} on one "
                                f"panel, {v!r} on the other", panel.path, k,
                                hint="a hex split between panels must agree on both halves"))
                    else:
                        mine[k] = (v, labs[0])
                        node[k] = v
        for h in list(g.nodes):
            for n in h.neighbors()[:3]:  # each adjacent pair once
                if n in g:
                    g.add_edge(h, n, hexside=frozenset())
        for p in pl:
            for pair, fs in p.panel.hexsides.items():
                a, b = (p.to_board(x) for x in sorted(pair))
                if g.has_edge(a, b):
                    g.edges[a, b]["hexside"] = g.edges[a, b]["hexside"] | fs
        board = cls(g, placements=pl)
        problems.extend(validate_board(board, known_terrain=known_terrain))
        if problems and strict:
            raise MapValidationError(problems, "board")
        return board

    # -- queries --------------------------------------------------------------------------------
    def contains(self, h: Hex) -> bool:
        return h in self.hexes

    def _node(self, h: Hex) -> dict[str, Any]:
        if h not in self.hexes:
            raise KeyError(f"{h!r} is not on the board")
        node: dict[str, Any] = self.graph.nodes[h]
        return node

    def terrain(self, h: Hex) -> str:
        self._node(h)
        return self.terrain_of[h]

    def height(self, h: Hex) -> float:
        self._node(h)
        return self.height_of[h]

    def features(self, h: Hex) -> frozenset[str]:
        self._node(h)
        return self.features_of[h]

    def hexside(self, a: Hex, b: Hex) -> frozenset[str]:
        """Features of the hexside between adjacent board hexes ``a`` and ``b``."""
        try:
            return self.hexside_of[(a, b)]
        except KeyError:
            raise KeyError(f"{a!r} and {b!r} are not adjacent hexes of the board") from None

    def neighbors(self, h: Hex) -> tuple[Hex, ...]:
        """On-board neighbours of ``h``, in direction order."""
        return self.neighbors_of[h]

    def label(self, h: Hex) -> str:
        """Canonical label of ``h`` (``1FF1``, ``1944`` or ``A:1944``)."""
        labs = self._labels.get(h)
        if not labs:
            raise ValueError(f"{h!r} is not on the board (no label)")
        return labs[0]

    def labels(self, h: Hex) -> tuple[str, ...]:
        """Every label of ``h``: canonical first, then aliases (the other panel's half hex)."""
        if h not in self._labels:
            raise ValueError(f"{h!r} is not on the board (no label)")
        return self._labels[h]

    def parse(self, label: str) -> Hex:
        """The board hex called ``label``; ``ValueError`` naming the label if there is none."""
        if not isinstance(label, str):
            raise ValueError(f"hex label must be a string, got {label!r}")
        h = self._alias.get(_norm(label))
        if h is not None:
            return h
        panels = ", ".join(sorted({p.panel.id for p in self.placements})) or "none"
        raise ValueError(f"hex label {label!r} is not on this board (panels: {panels})")

    # -- scenario changes -----------------------------------------------------------------------
    def set_terrain(self, h: Hex | str, terrain: str) -> None:
        """Change the terrain of one hex (scenario changes, demolition, smoke-free rubble...)."""
        hx = self.parse(h) if isinstance(h, str) else h
        self._node(hx)["terrain"] = terrain
        self.terrain_of[hx] = terrain

    def set_height(self, h: Hex | str, height: float) -> None:
        hx = self.parse(h) if isinstance(h, str) else h
        if not _is_number(height):
            raise ValueError(f"height must be a number, got {height!r}")
        self._node(hx)["height"] = float(height)
        self.height_of[hx] = float(height)

    def set_features(self, h: Hex | str, features: Iterable[str]) -> None:
        hx = self.parse(h) if isinstance(h, str) else h
        fs = frozenset(features)
        self._node(hx)["features"] = fs
        self.features_of[hx] = fs

    def set_hexside(self, a: Hex, b: Hex, features: Iterable[str]) -> None:
        if not self.graph.has_edge(a, b):
            raise KeyError(f"{a!r} and {b!r} are not adjacent hexes of the board")
        fs = frozenset(features)
        self.graph.edges[a, b]["hexside"] = fs
        self.hexside_of[(a, b)] = fs
        self.hexside_of[(b, a)] = fs

    def __contains__(self, h: object) -> bool:
        return h in self.hexes

    def __len__(self) -> int:
        return len(self.hexes)


def _norm(label: str) -> str:
    return "".join(label.split()).upper()


def _labels_of(panel: Panel, local: Hex, n_column_row: int) -> tuple[str, ...]:
    st = panel.style
    if isinstance(st, ColumnRow):
        plain = st.to_label(local)
        qual = st.to_label(local, qualified=True)
        if n_column_row > 1 and st.map_id:
            return (qual,)
        return (plain, qual) if qual != plain else (plain,)
    return (st.to_label(local),)


# ---------------------------------------------------------------------------------------------
# Validation
# ---------------------------------------------------------------------------------------------


def validate_board(
    board: Board | nx.Graph,
    *,
    known_terrain: Iterable[str] | None = None,
    known_hexsides: Iterable[str] | None = None,
    known_features: Iterable[str] | None = None,
) -> list[Problem]:
    """Check a board's graph against the schema; returns EVERY problem found (empty = valid).

    Checks: nodes are :class:`Hex`; terrain is a known name (``known_terrain``; a system-qualified
    name ``mbt:woods`` also matches a bare ``woods`` of a board of that system); heights are
    finite numbers; features and hexsides are frozensets of (known) names; edges join adjacent
    hexes only; no label names two hexes; graph attributes are present.
    """
    g = board.graph if isinstance(board, Board) else board
    problems: list[Problem] = []
    system = str(g.graph.get("system", ""))
    known_t = None if known_terrain is None else set(known_terrain)
    known_h = None if known_hexsides is None else set(known_hexsides)
    known_f = None if known_features is None else set(known_features)
    if g.graph.get("orientation") != "flat":
        problems.append(Problem(f"graph orientation must be 'flat', got "
                                f"{g.graph.get('orientation')!r}", key="orientation"))
    if not _is_number(g.graph.get("hex_size_m")) or float(g.graph["hex_size_m"]) < 0:
        problems.append(Problem(f"graph hex_size_m must be a number, got "
                                f"{g.graph.get('hex_size_m')!r}", key="hex_size_m"))

    def name_of(h: Any, attrs: Mapping[str, Any]) -> str:
        labs = attrs.get("labels") or ()
        return str(labs[0]) if labs else repr(h)

    seen: dict[str, Any] = {}
    for h, attrs in g.nodes(data=True):
        where = name_of(h, attrs)
        if not isinstance(h, Hex):
            problems.append(Problem(f"node {h!r} is not a Hex", key="nodes"))
            continue
        t = attrs.get("terrain")
        if not isinstance(t, str) or not t:
            problems.append(Problem(f"hex {where}: terrain must be a name, got {t!r}", key=where))
        elif known_t is not None and t not in known_t and f"{system}:{t}" not in known_t:
            problems.append(Problem(
                f"hex {where}: unknown terrain type {t!r}", key=where,
                hint="known: " + ", ".join(sorted(known_t))))
        ht = attrs.get("height")
        if not _is_number(ht):
            problems.append(Problem(f"hex {where}: height is not a number: {ht!r}", key=where))
        fs = attrs.get("features", frozenset())
        if not isinstance(fs, frozenset) or not all(isinstance(f, str) for f in fs):
            problems.append(Problem(f"hex {where}: features must be a frozenset of names, "
                                    f"got {fs!r}", key=where))
        elif known_f is not None and fs - known_f:
            problems.append(Problem(f"hex {where}: unknown features {sorted(fs - known_f)}",
                                    key=where))
        labs = attrs.get("labels", ())
        if not isinstance(labs, tuple) or not all(isinstance(x, str) for x in labs):
            problems.append(Problem(f"hex {where}: labels must be a tuple of strings", key=where))
            continue
        for lab in labs:
            k = _norm(lab)
            if k in seen and seen[k] != h:
                problems.append(Problem(
                    f"duplicate label {lab!r}: names {seen[k]!r} and {h!r}", key=lab,
                    hint="check panel placements: two panels overlap where they should not"))
            seen.setdefault(k, h)
    for a, b, attrs in g.edges(data=True):
        if not (isinstance(a, Hex) and isinstance(b, Hex)):
            continue
        an = name_of(a, g.nodes[a])
        bn = name_of(b, g.nodes[b])
        if a.distance(b) != 1:
            problems.append(Problem(f"hexside between non-adjacent hexes {an} and {bn}",
                                    key=f"{an}|{bn}"))
        fs = attrs.get("hexside", frozenset())
        if not isinstance(fs, frozenset) or not all(isinstance(f, str) for f in fs):
            problems.append(Problem(f"hexside {an}|{bn}: must be a frozenset of names, got {fs!r}",
                                    key=f"{an}|{bn}"))
        elif known_h is not None and fs - known_h:
            problems.append(Problem(f"hexside {an}|{bn}: unknown hexside features "
                                    f"{sorted(fs - known_h)}", key=f"{an}|{bn}"))
    return problems


# ---------------------------------------------------------------------------------------------
# Scenario boards
# ---------------------------------------------------------------------------------------------


def _owns(panel: Panel, label: str) -> bool:
    try:
        panel.parse(label)
    except ValueError:
        return False
    return True


class _DataHooks(Protocol):
    def data_sources(self, kind: str | None = None) -> list[Any]: ...

    def terrain_types(self) -> Mapping[str, Any]: ...


_PLACEMENT_KEYS = ("panel", "file", "offset", "hex", "rotation", "join")
_BOARD_KEYS = ("panels", "terrain", "geo")
_MAX_OFFSET = 10_000


def _placement_problems(e: Mapping[str, Any], path: str, key: str) -> list[Problem]:
    """What is wrong with one entry of ``[board] panels`` (its keys and their types)."""
    from hexwar.core.scenario import unknown_key_problems

    problems = unknown_key_problems(e, _PLACEMENT_KEYS, path, key)
    if ("panel" in e) == ("file" in e):
        problems.append(Problem("a panel entry names either 'panel' or 'file'", path, key,
                                hint='{ panel = "mbt:panel-1" } or { file = "my-panel.toml" }'))
    if "panel" in e and not isinstance(e["panel"], str):
        problems.append(Problem(f"'panel' must be a panel name, not {type(e['panel']).__name__}",
                                path, f"{key}.panel"))
    if sum(k in e for k in ("offset", "hex", "join")) > 1:
        problems.append(Problem("give at most one of 'offset', 'hex' and 'join'", path, key))
    for name, example in (("offset", "offset = [0, 10]"), ("hex", "hex = [0, 20]")):
        if name in e:
            v = e[name]
            if not (isinstance(v, list) and len(v) == 2
                    and all(isinstance(x, int) and not isinstance(x, bool)
                            and abs(x) <= _MAX_OFFSET for x in v)):
                problems.append(Problem(f"{name!r} must be two integers, not {_short(v)}", path,
                                        f"{key}.{name}", hint=example))
    if "join" in e:
        v = e["join"]
        if not (isinstance(v, list) and len(v) == 2 and all(isinstance(x, str) for x in v)):
            problems.append(Problem(f"'join' must be two hex labels, not {_short(v)}", path,
                                    f"{key}.join", hint='join = ["2A1", "3HH1"]'))
    rot = e.get("rotation", 0)
    if isinstance(rot, bool) or rot not in (0, 180):
        problems.append(Problem(f"rotation must be 0 or 180, got {_short(rot)}", path,
                                f"{key}.rotation"))
    return problems


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def panel_path(entry: Mapping[str, Any], sources: Mapping[str, Any], base: Path, *, key: str,
               path: str) -> Path | None:
    """The file a ``[board]`` panel entry names: its ``file`` (confined to the scenario's folder
    ``base``; :class:`DataError` if it leads out) or the registered panel of that name (``None``
    if there is none). The board builder and the board cache both resolve panels here, so the
    cache keys exactly the files the board is built from."""
    if "file" in entry:
        return confined(base, entry["file"], key=f"{key}.file", path=path)
    name = entry.get("panel")
    source = sources.get(name) if isinstance(name, str) else None
    return None if source is None else Path(source.path)


def board_from_spec(spec: Mapping[str, Any], hooks: _DataHooks, *, path: str = "",
                    files: Mapping[str, str] | None = None) -> Board:
    """Build a scenario's board from its ``[board]`` table.

    Format::

        [board]
        panels = [
          { panel = "mbt-3" },                       # a registered panel (DataSource)
          { panel = "mbt-2", offset = [33, 0] },     # (columns, rows): see PanelPlacement
          { panel = "mbt-1", join = ["1A1", "2HH1"] },  # 1A1 is the half hex 2HH1
          { file = "maps/my-panel.toml", hex = [66, -33], rotation = 180 },  # axial offset
        ]
        terrain = { "2G7" = "woods" }                           # scenario terrain changes

    Panel names are looked up among the ``panel`` data sources plugins register; ``file`` is
    relative to the scenario file, or the key of ``files`` (a save's embedded panel texts,
    docs/decisions.md CORE-57), which is then never read from disk. Raises
    :class:`MapValidationError` with every problem.
    """
    from hexwar.core.scenario import unknown_key_problems

    key_problems = unknown_key_problems(spec, _BOARD_KEYS, path, "board")
    problems: list[Problem] = []
    sources = {s.name: s for s in hooks.data_sources("panel")}
    placements: list[PanelPlacement] = []
    entries = spec.get("panels", [])
    if not isinstance(entries, list) or not entries:
        raise MapValidationError([Problem("[board] needs a non-empty 'panels' list", path,
                                          "board.panels")], path or "board")
    base = Path(path).parent if path else Path(".")
    for i, e in enumerate(entries):
        key = f"board.panels[{i}]"
        if isinstance(e, str):
            e = {"panel": e}
        if not isinstance(e, Mapping):
            problems.append(Problem("each panel must be a name or a table", path, key))
            continue
        entry_problems = _placement_problems(e, path, key)
        if entry_problems:
            problems.extend(entry_problems)
            continue
        try:
            embedded = (files or {}).get(e["file"]) if isinstance(e.get("file"), str) else None
            where = None if embedded is not None else panel_path(e, sources, base, key=key,
                                                                 path=path)
            if embedded is not None:
                from hexwar.core.safeload import parse_toml

                source = f"{path}#{e['file']}"
                panel = Panel.from_dict(parse_toml(embedded, path=source, what="panel"),
                                        source=source)
            elif where is not None:
                panel = Panel.from_toml(where)
            else:
                problems.append(Problem(
                    f"unknown panel {e.get('panel')!r}", path, f"{key}.panel",
                    hint="registered panels: " + (", ".join(sorted(sources)) or "none")))
                continue
        except DataError as exc:
            problems.append(Problem(exc.message, path, exc.key or key, exc.line, exc.hint or ""))
            continue
        except MapValidationError as exc:
            problems.extend(exc.problems)
            continue
        rot = e.get("rotation", 0)
        offset: Hex | tuple[int, int] = Hex(0, 0)
        if "join" in e:
            # join = ["2A1", "3HH1"]: this panel's hex 2A1 is the hex called 3HH1 on an
            # earlier panel (the half hexes of MBT 1.1 / Firepower 1.1).
            try:
                mine, theirs = e["join"]
                target = next(pl.hex(theirs) for pl in placements
                              if _owns(pl.panel, theirs))
                placements.append(PanelPlacement.aligned(panel, mine, target, rot))
            except (ValueError, StopIteration, TypeError) as exc:
                problems.append(Problem(f"bad join {e.get('join')!r}: {exc or 'no such hex'}",
                                        path, f"{key}.join", hint='join = ["2A1", "3HH1"]'))
            continue
        if "hex" in e:
            q, r = e["hex"]
            offset = Hex(q, r)
        elif "offset" in e:
            c, r = e["offset"]
            offset = (c, r)
        placements.append(PanelPlacement(panel, offset, rot))
    if problems:
        raise MapValidationError(key_problems + problems, path or "board")
    # panels write the system's short names ("woods"); records are qualified ("mbt:woods")
    qualified = set(hooks.terrain_types())
    known = (qualified | {name.split(":", 1)[-1] for name in qualified}) or None
    board = Board.assemble(placements, known_terrain=known)
    changes = spec.get("terrain", {})
    if not isinstance(changes, Mapping):
        problems.append(Problem("'terrain' must be a table of hex label = terrain name", path,
                                "board.terrain", hint='terrain = { "2G7" = "woods" }'))
        changes = {}
    for label, t in changes.items():
        if not isinstance(t, str) or not t:
            problems.append(Problem(f"terrain of {label!r} must be a name, not {_short(t)}", path,
                                    f"board.terrain.{label}"))
            continue
        if known is not None and t not in known:
            problems.append(Problem(f"unknown terrain type {t!r}", path, f"board.terrain.{label}",
                                    hint="known: " + ", ".join(sorted(known))))
            continue
        try:
            board.set_terrain(board.parse(str(label)), t)
        except (ValueError, HexwarError) as exc:
            problems.append(Problem(str(exc), path, f"board.terrain.{label}"))
    if key_problems or problems:
        raise MapValidationError(key_problems + problems, path or "board")
    return board
