"""Shared ground: one georeferenced piece of terrain with each system's board laid over it.

A cross-system scenario defines its ground once (docs/cross-system.md): a projected CRS, the
projected position of the ground's local origin and a rotation (a :class:`~hexwar.core.geo.
GeoReference` with no hex size of its own). Each system's board is a :class:`BoardLayer` over that
ground at the system's own scale: Firefight 50 m hexes (Firefight 2.0), MBT 100 m hexes
(MBT 4.3), Firepower hexes of about five yards (Firepower 8.2.2 and docs/decisions.md FPD-2).
A layer says where its hex ``(0, 0)`` lies in ground metres and what one unit of its board
heights is (Firefight boards store metres above sea level; MBT one height = 25 ft, MBT 12.1;
Firepower one height = 3 ft, Firepower 8.2.2) and the ground height of its level 0.

Everything crosses between layers through ground metres, with pint at the boundary:

* a hex goes to the other layer's hex containing its centre (:meth:`Ground.transfer`);
* a range is the metric distance between the two hex centres (:meth:`Ground.range`);
* a height goes ``level * height_unit + datum`` to metres and back (:meth:`Ground.height`);
  pint converts feet to metres exactly (1 ft = 0.3048 m), so a height carried from MBT to
  Firepower and back returns to itself up to float rounding.

**Tolerance** (docs/decisions.md CORE-70). Every hex centre stands for any point within the hex's
corner radius ``hex_size / sqrt(3)``. So two boards' ranges between the same two ground points
agree within ``2 * (r_a + r_b)`` where ``r`` is each board's corner radius
(:meth:`Ground.range_tolerance`); a line of sight computed on either board agrees whenever the
sight line's clearance over the ground exceeds :meth:`Ground.sight_tolerance` (the height error a
displacement of one corner radius can cause on the steepest slope of the ground, plus half a
height level of each board for the rounding of board heights, at both ends and at the obstacle).
Inside that band the boards may disagree: that is the honest price of hexes, not a bug.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from hexwar.core.errors import DataError
from hexwar.core.geo import GeoReference, hex_to_local, local_to_hex
from hexwar.core.hexgrid import Hex
from hexwar.core.units import Q_, as_float, parse_quantity

if TYPE_CHECKING:
    from hexwar.core.board import Board

__all__ = ["SHIPPED_SCALES", "BoardLayer", "Ground", "HeightField"]

SQRT3 = math.sqrt(3.0)

#: ``(x, y) metres in the ground frame -> ground height in metres above sea level``
HeightField = Callable[[float, float], float]

#: The three shipped systems' scales, as the rulebooks give them (hex size, one height level).
#: Firefight boards store heights in metres above sea level, so its level is one metre.
SHIPPED_SCALES: dict[str, tuple[str, str, str]] = {
    "firefight": ("50 m", "1 m", "Firefight 2.0, 13.1"),
    "mbt": ("100 m", "25 ft", "MBT 4.3, 12.1"),
    "firepower": ("5 yard", "3 ft", "Firepower 8.2.2"),
}


@dataclass(frozen=True)
class BoardLayer:
    """One system's board over the ground.

    :param system: the system whose board this is.
    :param hex_size: distance between adjacent hex centres (a length quantity).
    :param height_unit: what one unit of the board's ``height`` is (a length quantity).
    :param datum: ground height (above sea level) of board height 0 (a length quantity).
    :param origin: ground-frame metres ``(x right, y down)`` of the centre of hex ``(0, 0)``.
    :param rotation_deg: the board's rotation relative to the ground's, clockwise.
    """

    system: str
    hex_size: Any
    height_unit: Any
    datum: Any = field(default_factory=lambda: Q_(0.0, "m"))
    origin: tuple[float, float] = (0.0, 0.0)
    rotation_deg: float = 0.0

    @property
    def hex_size_m(self) -> float:
        return as_float(self.hex_size, "m")

    @property
    def height_unit_m(self) -> float:
        return as_float(self.height_unit, "m")

    @property
    def datum_m(self) -> float:
        return as_float(self.datum, "m")

    @property
    def corner_radius_m(self) -> float:
        """Farthest any point of a hex lies from its centre."""
        return self.hex_size_m / SQRT3

    # ground frame <-> board frame (both x right, y down, metres)
    def _rot(self) -> tuple[float, float]:
        t = math.radians(self.rotation_deg)
        return math.cos(t), math.sin(t)

    def to_ground(self, x: float, y: float) -> tuple[float, float]:
        c, s = self._rot()
        return self.origin[0] + x * c - y * s, self.origin[1] + x * s + y * c

    def from_ground(self, gx: float, gy: float) -> tuple[float, float]:
        c, s = self._rot()
        dx, dy = gx - self.origin[0], gy - self.origin[1]
        return dx * c + dy * s, -dx * s + dy * c

    def centre(self, h: Hex | tuple[int, int]) -> tuple[float, float]:
        """Ground-frame metres of the centre of hex ``h``."""
        return self.to_ground(*hex_to_local(h[0], h[1], self.hex_size_m))

    def hex_at(self, gx: float, gy: float) -> Hex:
        """The hex of this board containing ground point ``(gx, gy)``."""
        return Hex(*local_to_hex(*self.from_ground(gx, gy), self.hex_size_m))

    def level_of(self, metres_asl: float) -> float:
        """Board height (in the layer's own unit) of a ground height in metres."""
        return (metres_asl - self.datum_m) / self.height_unit_m

    def metres_of(self, level: float) -> float:
        """Ground height in metres above sea level of a board height."""
        return self.datum_m + level * self.height_unit_m


@dataclass(frozen=True)
class Ground:
    """A georeferenced ground with boards of several systems laid over it."""

    geo: GeoReference
    layers: Mapping[str, BoardLayer]

    def layer(self, system: str) -> BoardLayer:
        try:
            return self.layers[system]
        except KeyError:
            raise DataError(f"the ground has no board for system {system!r}", key="ground.boards",
                            hint="boards: " + ", ".join(sorted(self.layers))) from None

    # -- building --------------------------------------------------------------------------

    @classmethod
    def from_mapping(cls, data: Mapping[str, Any], *, path: str | None = None) -> Ground:
        """Read a scenario's ``[ground]`` table::

            [ground]
            lon = 9.93
            lat = 49.79          # or crs + origin_easting + origin_northing
            rotation_deg = 0
            [ground.boards.firefight]
            hex_size = "50 m"
            height_unit = "1 m"
            datum = "0 m"
            origin = [0, 0]      # ground metres (x right, y down) of hex (0, 0)

        A board without ``hex_size`` / ``height_unit`` takes its system's shipped scale
        (:data:`SHIPPED_SCALES`). Problems raise :class:`DataError` naming the key."""
        boards = data.get("boards")
        if not isinstance(boards, Mapping) or not boards:
            raise DataError("[ground] needs a [ground.boards.<system>] table per system",
                            path=path, key="ground.boards")
        geo_keys = {k: v for k, v in data.items() if k != "boards"}
        # the ground's own frame has no hexes; 1 m keeps GeoReference's checks meaningful
        geo = GeoReference.from_mapping({**geo_keys, "hex_size_m": 1.0}, path=path)
        layers: dict[str, BoardLayer] = {}
        known = {"hex_size", "height_unit", "datum", "origin", "rotation_deg"}
        for system, spec in boards.items():
            key = f"ground.boards.{system}"
            if not isinstance(spec, Mapping):
                raise DataError(f"[{key}] must be a table", path=path, key=key)
            extra = sorted(set(spec) - known)
            if extra:
                raise DataError(f"unknown key {extra[0]!r}", path=path, key=f"{key}.{extra[0]}",
                                hint="keys are " + ", ".join(sorted(known)))
            default = SHIPPED_SCALES.get(str(system))
            try:
                size = parse_quantity(spec.get("hex_size", default[0] if default else None),
                                      "[length]", f"{key}.hex_size")
                unit = parse_quantity(spec.get("height_unit", default[1] if default else None),
                                      "[length]", f"{key}.height_unit")
                datum = parse_quantity(spec.get("datum", "0 m"), "[length]", f"{key}.datum")
            except Exception as exc:
                raise DataError(str(exc), path=path, key=key,
                                hint='write lengths with a unit, e.g. hex_size = "50 m"') from None
            if as_float(size, "m") <= 0 or as_float(unit, "m") <= 0:
                raise DataError("hex_size and height_unit must be positive", path=path, key=key)
            origin = spec.get("origin", [0, 0])
            if (not isinstance(origin, list | tuple) or len(origin) != 2
                    or not all(isinstance(v, int | float) and not isinstance(v, bool)
                               for v in origin)):
                raise DataError(f"origin must be [x, y] in metres, not {origin!r}", path=path,
                                key=f"{key}.origin")
            rot = spec.get("rotation_deg", 0.0)
            if not isinstance(rot, int | float) or isinstance(rot, bool):
                raise DataError("rotation_deg must be a number", path=path,
                                key=f"{key}.rotation_deg")
            layers[str(system)] = BoardLayer(str(system), size, unit, datum,
                                             (float(origin[0]), float(origin[1])), float(rot))
        return cls(geo, layers)

    # -- carrying between boards -----------------------------------------------------------

    def transfer(self, h: Hex | tuple[int, int], src: str, dst: str) -> Hex:
        """The hex of ``dst``'s board containing the centre of hex ``h`` of ``src``'s board."""
        return self.layer(dst).hex_at(*self.layer(src).centre(h))

    def range(self, a: Hex, src_a: str, b: Hex, src_b: str | None = None) -> Any:
        """Metric distance between the centres of two hexes, possibly of different boards."""
        ax, ay = self.layer(src_a).centre(a)
        bx, by = self.layer(src_b or src_a).centre(b)
        return Q_(math.hypot(ax - bx, ay - by), "m")

    def height(self, level: float, src: str, dst: str | None = None) -> Any:
        """A board height of ``src`` as metres above sea level (``dst`` ``None``) or as a board
        height of ``dst`` (a plain float in ``dst``'s levels)."""
        metres = Q_(self.layer(src).metres_of(level), "m")
        if dst is None:
            return metres
        return self.layer(dst).level_of(float(metres.m_as("m")))

    def projected(self, h: Hex, system: str) -> tuple[float, float]:
        """Projected easting/northing of a hex centre of ``system``'s board (pyproj CRS)."""
        return self.geo.local_to_projected(*self.layer(system).centre(h))

    def lonlat(self, h: Hex, system: str) -> tuple[float, float]:
        """WGS 84 lon/lat of a hex centre of ``system``'s board."""
        from hexwar.core.geo import WGS84, _transformer

        e, n = self.projected(h, system)
        lon, lat = _transformer(self.geo.crs, WGS84).transform(e, n)
        return float(lon), float(lat)

    def board_geo(self, system: str) -> GeoReference:
        """A :class:`GeoReference` for ``system``'s board alone (for ``Board.geo``)."""
        lay = self.layer(system)
        e, n = self.geo.local_to_projected(*lay.origin)
        return GeoReference(self.geo.crs, e, n, self.geo.rotation_deg + lay.rotation_deg,
                            lay.hex_size_m)

    # -- tolerances (CORE-70) --------------------------------------------------------------

    def range_tolerance(self, a: str, b: str) -> Any:
        """How far a range measured on ``a``'s board and on ``b``'s may differ."""
        return Q_(2.0 * (self.layer(a).corner_radius_m + self.layer(b).corner_radius_m), "m")

    def sight_tolerance(self, system: str, max_slope: float) -> Any:
        """The clearance (metres) above which ``system``'s board must agree with the ground
        about a line of sight, for ground whose steepest slope is ``max_slope`` (rise/run).

        Three heights enter a sight line (the two ends and the obstacle); each can be off by
        the rise over one corner radius plus half a height level of rounding."""
        lay = self.layer(system)
        per_point = max_slope * lay.corner_radius_m + lay.height_unit_m / 2.0
        return Q_(3.0 * per_point, "m")

    def sample_heights(self, system: str, hexes: list[Hex], field_m: HeightField, *,
                       integer: bool = True) -> dict[Hex, float]:
        """Board heights of ``hexes`` sampled at their centres from a ground height field,
        rounded to whole levels when ``integer`` (as printed maps show them)."""
        lay = self.layer(system)
        out: dict[Hex, float] = {}
        for h in hexes:
            level = lay.level_of(field_m(*lay.centre(h)))
            out[h] = float(round(level)) if integer else level
        return out

    def lay_board(self, system: str, radius: int, field_m: HeightField, *,
                  terrain: str = "clear", integer: bool = True) -> Board:
        """A board of ``system`` covering every hex within ``radius`` of its hex ``(0, 0)``,
        heights sampled from ``field_m`` (for tests, pictures and generated scenarios)."""
        import networkx as nx

        from hexwar.core.board import Board

        lay = self.layer(system)
        centre = Hex(0, 0)
        hexes = [Hex(q, r) for q in range(-radius, radius + 1)
                 for r in range(-radius, radius + 1) if centre.distance(Hex(q, r)) <= radius]
        heights = self.sample_heights(system, hexes, field_m, integer=integer)
        g = nx.Graph(system=system, hex_size_m=lay.hex_size_m, orientation="flat")
        for h in hexes:
            g.add_node(h, terrain=terrain, height=heights[h], features=frozenset(),
                       labels=(f"{h.q},{h.r}",))
        for h in hexes:
            for n in h.neighbors():
                if n in heights:
                    g.add_edge(h, n, hexside=frozenset())
        board = Board(g)
        board.geo = self.board_geo(system)
        return board

    def sight(self, system: str, board: Board, a: Hex, b: Hex, *, eye: Any,
              target: Any) -> bool:
        """Is there a line of sight on ``system``'s board from ``a`` to ``b``, eye and target
        heights given as lengths above the ground (converted to the board's levels)?"""
        from hexwar.core.los import ElevationLosRules, line_of_sight

        unit = self.layer(system).height_unit_m
        rules = ElevationLosRules(eye_height=as_float(eye, "m") / unit,
                                  target_height=as_float(target, "m") / unit)
        return line_of_sight(board, a, b, rules).clear
