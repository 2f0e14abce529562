"""Geography: placing a flat-topped hex board on the Earth with pyproj.

A :class:`GeoReference` ties a board to the ground: a projected CRS (metres), the projected
position of the centre of hex ``(0, 0)``, a rotation, and the hex size. With it a position can
be turned into projected metres or lon/lat and back, and a hex of one board can be carried over
to another board laid on the same ground (e.g. a 50 m Firefight board and a 100 m MBT board).

Layout (flat-topped hexes, axial ``(q, r)``, as all three rulebooks draw them; Red Blob Games'
"flat" layout). With ``s`` the hex's corner radius::

    x = s * 3/2 * q
    y = s * sqrt(3) * (r + q/2)

``x`` grows toward the right of the map and ``y`` toward the bottom, i.e. toward direction 4 (the
bottom hexside; direction 1 is the top hexside, numbered clockwise). ``hex_size_m`` is the
distance between the centres of two adjacent hexes, so ``s = hex_size_m / sqrt(3)``; the
distance across flats equals ``hex_size_m`` and the distance across corners is
``2 * hex_size_m / sqrt(3)``.

Rotation: ``rotation_deg`` is the bearing of the map's "up" (direction 1), measured clockwise
from *grid* north of the CRS. With 0 the top of the map faces grid north; with 90 it faces east.
Grid north differs from true north by the meridian convergence (under a degree inside one UTM
zone in central Germany), and projected metres differ from ground metres by the projection's
scale factor (UTM: at most about 0.1 %); both are immaterial at game scale and are documented
rather than corrected.

pyproj ``Transformer`` objects are slow to build, so they are cached per CRS pair. They are not
thread-safe; use one process per worker when simulating in parallel.

This module works on plain ``(q, r)`` integer tuples so it does not depend on the hex-grid module.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from pyproj import CRS, Transformer

from hexwar.core.errors import DataError, HexwarError
from hexwar.core.units import as_float

__all__ = [
    "GeoError",
    "GeoReference",
    "axial_round",
    "hex_to_local",
    "local_to_hex",
    "utm_crs_for",
]

SQRT3 = math.sqrt(3.0)
WGS84 = "EPSG:4326"


class GeoError(HexwarError, ValueError):
    """A georeference is malformed (unknown or non-projected CRS, non-positive hex size...)."""


@lru_cache(maxsize=64)
def _crs(crs: str) -> CRS:
    try:
        parsed = CRS.from_user_input(crs)
    except Exception as exc:  # pyproj raises CRSError, a plain Exception subclass
        raise GeoError(f"unknown CRS {crs!r}: {exc}") from exc
    if not parsed.is_projected:
        raise GeoError(
            f"CRS {crs!r} ({parsed.name}) is not projected; a board needs a projected CRS in "
            "metres, e.g. a UTM zone such as 'EPSG:32632' (see utm_crs_for)"
        )
    units = {axis.unit_name for axis in parsed.axis_info}
    if units - {"metre", "meter"}:
        raise GeoError(f"CRS {crs!r} ({parsed.name}) does not use metres (axis units {units})")
    return parsed


@lru_cache(maxsize=64)
def _transformer(src: str, dst: str) -> Transformer:
    """A cached, always-xy (lon/lat or easting/northing order) transformer."""
    return Transformer.from_crs(src, dst, always_xy=True)


def utm_crs_for(lon: float, lat: float) -> str:
    """The WGS 84 / UTM zone CRS code (``"EPSG:326zz"`` or ``"EPSG:327zz"``) for a point.

    Uses the regular 6-degree zones (no Norway/Svalbard exceptions).
    """
    if not (-180.0 <= lon <= 180.0 and -80.0 <= lat <= 84.0):
        raise GeoError(f"no UTM zone for lon={lon}, lat={lat}")
    zone = min(int((lon + 180.0) // 6.0) + 1, 60)
    return f"EPSG:{32600 + zone if lat >= 0 else 32700 + zone}"


def hex_to_local(q: int, r: int, hex_size_m: float) -> tuple[float, float]:
    """Centre of hex ``(q, r)`` in board metres: x to the right, y down (toward direction 4)."""
    s = hex_size_m / SQRT3
    return s * 1.5 * q, s * SQRT3 * (r + q / 2.0)


def axial_round(qf: float, rf: float) -> tuple[int, int]:
    """Round fractional axial coordinates to the nearest hex (cube rounding)."""
    from hexwar.core.hexgrid import hex_round

    h = hex_round(qf, rf)
    return h.q, h.r


def local_to_hex(x: float, y: float, hex_size_m: float) -> tuple[int, int]:
    """The hex containing board point ``(x, y)`` (metres, y down)."""
    s = hex_size_m / SQRT3
    qf = (2.0 / 3.0 * x) / s
    rf = (-1.0 / 3.0 * x + SQRT3 / 3.0 * y) / s
    return axial_round(qf, rf)


@dataclass(frozen=True)
class GeoReference:
    """Where a flat-topped hex board lies on the Earth.

    :param crs: a projected CRS in metres, as any string pyproj accepts (``"EPSG:32632"``).
    :param origin_easting: projected x (metres) of the centre of hex ``(0, 0)``.
    :param origin_northing: projected y (metres) of the centre of hex ``(0, 0)``.
    :param rotation_deg: bearing of the map's top (direction 1), clockwise from grid north.
    :param hex_size_m: distance between centres of adjacent hexes, in metres (a float, or a
        length quantity, which is converted).
    """

    crs: str
    origin_easting: float
    origin_northing: float
    rotation_deg: float = 0.0
    hex_size_m: float = 100.0

    def __post_init__(self) -> None:
        _crs(self.crs)  # validate early, and warm the cache
        size = self.hex_size_m
        if not isinstance(size, int | float):
            size = as_float(size, "m")
        if not math.isfinite(size) or size <= 0:
            raise GeoError(f"hex_size_m must be a positive number of metres, got {size!r}")
        for name in ("origin_easting", "origin_northing", "rotation_deg"):
            value = getattr(self, name)
            if not isinstance(value, int | float) or not math.isfinite(value):
                raise GeoError(f"{name} must be a finite number, got {value!r}")
            object.__setattr__(self, name, float(value))
        object.__setattr__(self, "hex_size_m", float(size))

    @classmethod
    def from_lonlat(
        cls,
        crs: str,
        lon: float,
        lat: float,
        rotation_deg: float = 0.0,
        hex_size_m: Any = 100.0,
    ) -> GeoReference:
        """A reference whose hex ``(0, 0)`` is centred on WGS 84 ``(lon, lat)``."""
        _crs(crs)
        easting, northing = _transformer(WGS84, crs).transform(lon, lat)
        return cls(crs, float(easting), float(northing), rotation_deg, hex_size_m)

    @classmethod
    def from_mapping(cls, data: Mapping[str, Any], *, path: str | None = None) -> GeoReference:
        """Build from a scenario-file table. Keys: ``crs`` (optional when ``lon``/``lat`` are
        given: the UTM zone is chosen), either ``origin_easting`` + ``origin_northing`` or
        ``lon`` + ``lat`` (the centre of hex (0, 0)), ``rotation_deg`` (default 0) and
        ``hex_size_m``. Problems raise :class:`DataError` naming ``path`` and the key."""
        known = {"crs", "origin_easting", "origin_northing", "lon", "lat", "rotation_deg",
                 "hex_size_m"}
        extra = sorted(set(data) - known)
        if extra:
            raise DataError(f"unknown georeference key {extra[0]!r}", path=path, key=extra[0],
                            hint=f"keys are {', '.join(sorted(known))}")
        if "hex_size_m" not in data:
            raise DataError("georeference needs hex_size_m", path=path, key="hex_size_m")
        try:
            if "lon" in data or "lat" in data:
                lon, lat = float(data["lon"]), float(data["lat"])
                crs = str(data.get("crs") or utm_crs_for(lon, lat))
                return cls.from_lonlat(crs, lon, lat, float(data.get("rotation_deg", 0.0)),
                                       float(data["hex_size_m"]))
            return cls(str(data["crs"]), float(data["origin_easting"]),
                       float(data["origin_northing"]), float(data.get("rotation_deg", 0.0)),
                       float(data["hex_size_m"]))
        except KeyError as exc:
            raise DataError(f"georeference needs {exc.args[0]!r}", path=path,
                            key=str(exc.args[0]),
                            hint="give crs, origin_easting and origin_northing, or lon and lat"
                            ) from None
        except (TypeError, ValueError) as exc:
            raise DataError(f"bad georeference: {exc}", path=path) from None

    def as_dict(self) -> dict[str, Any]:
        """The fields as plain values (the inverse of :meth:`from_mapping`)."""
        return {
            "crs": self.crs,
            "origin_easting": self.origin_easting,
            "origin_northing": self.origin_northing,
            "rotation_deg": self.rotation_deg,
            "hex_size_m": self.hex_size_m,
        }

    # -- frames ---------------------------------------------------------------------------

    def _rot(self) -> tuple[float, float]:
        theta = math.radians(self.rotation_deg)
        return math.cos(theta), math.sin(theta)

    def local_to_projected(self, x: float, y: float) -> tuple[float, float]:
        """Board metres (x right, y down) to projected easting/northing."""
        c, s = self._rot()
        u, v = x, -y  # right, up
        return (self.origin_easting + u * c + v * s, self.origin_northing - u * s + v * c)

    def projected_to_local(self, easting: float, northing: float) -> tuple[float, float]:
        """Projected easting/northing to board metres (x right, y down)."""
        c, s = self._rot()
        de, dn = easting - self.origin_easting, northing - self.origin_northing
        u = de * c - dn * s
        v = de * s + dn * c
        return u, -v

    # -- hexes ----------------------------------------------------------------------------

    def hex_to_projected(self, q: int, r: int) -> tuple[float, float]:
        """Projected easting/northing (metres) of the centre of hex ``(q, r)``."""
        return self.local_to_projected(*hex_to_local(q, r, self.hex_size_m))

    def projected_to_hex(self, easting: float, northing: float) -> tuple[int, int]:
        """The hex containing a projected point."""
        return local_to_hex(*self.projected_to_local(easting, northing), self.hex_size_m)

    def hex_to_lonlat(self, q: int, r: int) -> tuple[float, float]:
        """WGS 84 ``(lon, lat)`` in degrees of the centre of hex ``(q, r)``."""
        e, n = self.hex_to_projected(q, r)
        lon, lat = _transformer(self.crs, WGS84).transform(e, n)
        return float(lon), float(lat)

    def hexes_to_lonlat(self, hexes: Iterable[tuple[int, int]]) -> list[tuple[float, float]]:
        """Batch form of :meth:`hex_to_lonlat` (one pyproj call for all hexes)."""
        pts = [self.hex_to_projected(q, r) for q, r in hexes]
        if not pts:
            return []
        lons, lats = _transformer(self.crs, WGS84).transform(
            [p[0] for p in pts], [p[1] for p in pts]
        )
        return [(float(a), float(b)) for a, b in zip(lons, lats, strict=True)]

    def lonlat_to_hex(self, lon: float, lat: float) -> tuple[int, int]:
        """The hex containing WGS 84 ``(lon, lat)`` (nearest centre, cube rounding)."""
        e, n = _transformer(WGS84, self.crs).transform(lon, lat)
        return self.projected_to_hex(float(e), float(n))

    def transfer(self, q: int, r: int, other: GeoReference) -> tuple[int, int]:
        """The hex of ``other``'s board that contains the centre of hex ``(q, r)`` of this board.

        The boards may differ in hex size, origin, rotation and CRS. Going from a fine board to a
        coarse one and back need not return the start hex (several fine hexes share one coarse
        hex); coarse to fine lands on the fine hex under the coarse centre.
        """
        e, n = self.hex_to_projected(q, r)
        if _crs(self.crs) != _crs(other.crs):
            e, n = _transformer(self.crs, other.crs).transform(e, n)
        return other.projected_to_hex(float(e), float(n))

    def distance_m(self, a: tuple[int, int], b: tuple[int, int]) -> float:
        """Straight-line projected distance between two hex centres, in metres."""
        ax, ay = hex_to_local(a[0], a[1], self.hex_size_m)
        bx, by = hex_to_local(b[0], b[1], self.hex_size_m)
        return math.hypot(ax - bx, ay - by)
