"""Tests for hexwar.core.geo: boards placed on real ground in Hesse (UTM zone 32N)."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st
from pyproj import Geod

from hexwar.core import geo
from hexwar.core.errors import DataError
from hexwar.core.geo import (
    GeoError,
    GeoReference,
    axial_round,
    hex_to_local,
    local_to_hex,
    utm_crs_for,
)
from hexwar.core.units import Q_

# Fulda, Hesse: Firefight's maps are of central Germany (the Fulda Gap).
FULDA = (9.6753, 50.5558)
UTM32N = "EPSG:32632"
GEOD = Geod(ellps="WGS84")
coords = st.integers(min_value=-60, max_value=60)


def board(size: float = 100.0, rotation: float = 0.0) -> GeoReference:
    return GeoReference.from_lonlat(UTM32N, *FULDA, rotation_deg=rotation, hex_size_m=size)


def ground_m(a: tuple[float, float], b: tuple[float, float]) -> float:
    _, _, dist = GEOD.inv(a[0], a[1], b[0], b[1])
    return float(dist)


def test_layout_adjacent_centres_are_hex_size_apart() -> None:
    # hex_size_m is the distance between the centres of adjacent hexes, in all six directions.
    for dq, dr in [(1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1)]:
        x, y = hex_to_local(dq, dr, 100.0)
        assert math.hypot(x, y) == pytest.approx(100.0)


def test_layout_flat_topped_axes() -> None:
    # Flat-topped: (0, -1) is straight up (direction 1), (0, 1) straight down (direction 4),
    # and y grows downward.
    assert hex_to_local(0, -1, 100.0) == pytest.approx((0.0, -100.0))
    assert hex_to_local(0, 1, 100.0) == pytest.approx((0.0, 100.0))
    x, y = hex_to_local(1, 0, 100.0)  # down-right neighbour
    assert x == pytest.approx(50 * math.sqrt(3)) and y == pytest.approx(50.0)


def test_origin_is_hex_zero() -> None:
    b = board()
    lon, lat = b.hex_to_lonlat(0, 0)
    assert lon == pytest.approx(FULDA[0], abs=1e-9) and lat == pytest.approx(FULDA[1], abs=1e-9)
    assert b.lonlat_to_hex(*FULDA) == (0, 0)
    # 32N is the right zone for Hesse, and the origin lies well inside it.
    assert utm_crs_for(*FULDA) == UTM32N
    assert 400_000 < b.origin_easting < 600_000 and 5_500_000 < b.origin_northing < 5_650_000


def test_ten_hexes_east_and_north_in_projected_metres() -> None:
    b = board(100.0)
    e0, n0 = b.hex_to_projected(0, 0)
    # Ten columns to the east (zig-zagging, which nets to (10, -5)) is 10 * 1.5 * s = 866 m due
    # east; flat-topped hexes have no east neighbour, so "10 hexes east" is 866 m, not 1 km.
    e, n = b.hex_to_projected(10, -5)
    assert e - e0 == pytest.approx(1000 * math.sqrt(3) / 2) and n == pytest.approx(n0)
    # Ten hexes straight up the map (direction 1) is exactly 1 km grid north.
    e, n = b.hex_to_projected(0, -10)
    assert e == pytest.approx(e0) and n - n0 == pytest.approx(1000.0)


def test_projected_distance_matches_ground_distance() -> None:
    b = board(100.0)
    a, c = b.hex_to_lonlat(0, 0), b.hex_to_lonlat(0, -10)
    # UTM scale error near Fulda is a few parts in 10,000.
    assert ground_m(a, c) == pytest.approx(1000.0, rel=1e-3)
    assert c[1] > a[1]  # north
    east = ground_m(b.hex_to_lonlat(0, 0), b.hex_to_lonlat(10, -5))
    assert east == pytest.approx(866.0, rel=1e-3)
    assert b.hex_to_lonlat(10, -5)[0] > FULDA[0]  # east


@given(coords, coords)
def test_lonlat_round_trip(q: int, r: int) -> None:
    b = board(100.0, rotation=17.0)
    assert b.lonlat_to_hex(*b.hex_to_lonlat(q, r)) == (q, r)


def test_points_near_a_centre_round_to_that_hex() -> None:
    b = board(100.0)
    e, n = b.hex_to_projected(3, -2)
    inradius = 50.0  # half the distance between centres
    for ang in range(0, 360, 15):
        d = 0.95 * inradius
        pe, pn = e + d * math.sin(math.radians(ang)), n + d * math.cos(math.radians(ang))
        assert b.projected_to_hex(pe, pn) == (3, -2)


def test_rotation_90_points_map_top_east() -> None:
    b = board(100.0, rotation=90.0)
    e0, n0 = b.hex_to_projected(0, 0)
    e, n = b.hex_to_projected(0, -1)  # one hex toward direction 1 (map top)
    assert e - e0 == pytest.approx(100.0) and n == pytest.approx(n0)
    e, n = b.hex_to_projected(0, 1)  # direction 4 (map bottom) faces west
    assert e - e0 == pytest.approx(-100.0) and n == pytest.approx(n0)
    # The down-right neighbour (86.6 right, 50 down) ends up 50 m west and 86.6 m south.
    e, n = b.hex_to_projected(1, 0)
    assert e - e0 == pytest.approx(-50.0) and n - n0 == pytest.approx(-50 * math.sqrt(3))
    assert b.projected_to_hex(e, n) == (1, 0)


def test_rotation_180_and_local_inverse() -> None:
    b = board(50.0, rotation=180.0)
    e0, n0 = b.hex_to_projected(0, 0)
    e, n = b.hex_to_projected(0, -4)
    assert e == pytest.approx(e0) and n0 - n == pytest.approx(200.0)
    x, y = b.projected_to_local(*b.local_to_projected(123.0, -45.0))
    assert (x, y) == pytest.approx((123.0, -45.0))


@given(coords, coords)
def test_transfer_50m_board_onto_100m_board(q: int, r: int) -> None:
    # Same origin, same ground: the 50 m hex (2q, 2r) has the same centre as the 100 m hex (q, r).
    fine, coarse = board(50.0), board(100.0)
    assert coarse.transfer(q, r, fine) == (2 * q, 2 * r)
    assert fine.transfer(2 * q, 2 * r, coarse) == (q, r)


def test_transfer_fine_hexes_land_in_the_covering_coarse_hex() -> None:
    fine, coarse = board(50.0), board(100.0)
    for q in range(-6, 7):
        for r in range(-6, 7):
            cq, cr = fine.transfer(q, r, coarse)
            fe, fn = fine.hex_to_projected(q, r)
            ce, cn = coarse.hex_to_projected(cq, cr)
            # The fine centre lies inside the coarse hex (at most its corner radius away), and no
            # other coarse centre is nearer (ties on a hexside either way).
            d = math.hypot(fe - ce, fn - cn)
            assert d <= 100 / math.sqrt(3) + 1e-6
            for dq, dr in [(1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1)]:
                ne, nn = coarse.hex_to_projected(cq + dq, cr + dr)
                assert d <= math.hypot(fe - ne, fn - nn) + 1e-6
    # A 50 m hex 100 m to the north is the centre of the next 100 m hex north.
    assert fine.transfer(0, -2, coarse) == (0, -1)


def test_transfer_with_offset_origin_and_rotation() -> None:
    coarse = board(100.0)
    e, n = coarse.hex_to_projected(4, -1)
    # A 50 m board whose origin sits on the 100 m hex (4, -1) and whose top faces east.
    fine = GeoReference(UTM32N, e, n, rotation_deg=90.0, hex_size_m=50.0)
    assert coarse.transfer(4, -1, fine) == (0, 0)
    assert fine.transfer(0, 0, coarse) == (4, -1)
    # Two 50 m hexes toward the fine board's top (east) = 100 m east of (4, -1).
    target = coarse.projected_to_hex(e + 100.0, n)
    assert fine.transfer(0, -2, coarse) == target


def test_transfer_between_different_crs() -> None:
    utm = board(100.0)
    laea = GeoReference.from_lonlat("EPSG:3035", *FULDA, rotation_deg=0.0, hex_size_m=100.0)
    for q, r in [(0, 0), (5, -3), (-12, 7)]:
        dest = utm.transfer(q, r, laea)
        # The destination hex's centre is within one hex's corner radius of the source centre.
        assert ground_m(utm.hex_to_lonlat(q, r), laea.hex_to_lonlat(*dest)) < 100 / math.sqrt(3)
    assert utm.transfer(0, 0, laea) == (0, 0)


def test_batch_lonlat_matches_single() -> None:
    b = board(100.0, rotation=30.0)
    hexes = [(0, 0), (3, -1), (-2, 5)]
    for got, h in zip(b.hexes_to_lonlat(hexes), hexes, strict=True):
        assert got == pytest.approx(b.hex_to_lonlat(*h), abs=1e-12)
    assert b.hexes_to_lonlat([]) == []


def test_hex_size_may_be_a_quantity() -> None:
    b = GeoReference(UTM32N, 500000.0, 5600000.0, 0.0, Q_(50, "m"))
    assert b.hex_size_m == 50.0 and isinstance(b.hex_size_m, float)
    yd = GeoReference.from_lonlat(UTM32N, *FULDA, hex_size_m=Q_(5, "yd"))
    assert yd.hex_size_m == pytest.approx(4.572)


@pytest.mark.parametrize(
    ("crs", "size", "needle"),
    [
        ("EPSG:4326", 100.0, "not projected"),
        ("EPSG:999999", 100.0, "unknown CRS"),
        ("not a crs", 100.0, "unknown CRS"),
        (UTM32N, 0.0, "positive"),
        (UTM32N, -5.0, "positive"),
        (UTM32N, float("nan"), "positive"),
    ],
)
def test_bad_references(crs: str, size: float, needle: str) -> None:
    with pytest.raises(GeoError, match=needle):
        GeoReference(crs, 500000.0, 5600000.0, 0.0, size)


def test_foot_based_crs_rejected() -> None:
    with pytest.raises(GeoError, match="metres"):
        GeoReference("EPSG:2249", 0.0, 0.0, 0.0, 100.0)  # Massachusetts, US survey feet


def test_transformers_are_cached() -> None:
    b = board()
    b.hex_to_lonlat(1, 1)
    before = geo._transformer.cache_info()
    for i in range(20):
        b.hex_to_lonlat(i, -i)
        b.lonlat_to_hex(*FULDA)
    after = geo._transformer.cache_info()
    assert after.misses == before.misses
    assert after.hits >= before.hits + 40
    assert geo._transformer(UTM32N, "EPSG:4326") is geo._transformer(UTM32N, "EPSG:4326")


def test_utm_crs_for() -> None:
    assert utm_crs_for(9.0, 50.0) == "EPSG:32632"
    assert utm_crs_for(-58.4, -34.6) == "EPSG:32721"  # Buenos Aires
    assert utm_crs_for(180.0, 0.0) == "EPSG:32660"
    with pytest.raises(GeoError):
        utm_crs_for(0.0, 89.0)


@given(st.floats(-50, 50), st.floats(-50, 50))
def test_axial_round_is_nearest_centre(qf: float, rf: float) -> None:
    q, r = axial_round(qf, rf)
    x, y = hex_to_local(q, r, 1.0)
    fx, fy = (1 / math.sqrt(3)) * 1.5 * qf, (1 / math.sqrt(3)) * math.sqrt(3) * (rf + qf / 2)
    best = math.hypot(fx - x, fy - y)
    for dq, dr in [(1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1)]:
        nx, ny = hex_to_local(q + dq, r + dr, 1.0)
        assert best <= math.hypot(fx - nx, fy - ny) + 1e-9


@given(coords, coords, st.floats(1.0, 500.0))
def test_local_round_trip(q: int, r: int, size: float) -> None:
    assert local_to_hex(*hex_to_local(q, r, size), size) == (q, r)


def test_from_mapping_and_as_dict() -> None:
    g = GeoReference.from_mapping({"lon": FULDA[0], "lat": FULDA[1], "hex_size_m": 50})
    assert g.crs == UTM32N and g.hex_size_m == 50.0  # UTM zone chosen from lon/lat
    assert GeoReference.from_mapping(g.as_dict()) == g
    h = GeoReference.from_mapping(
        {"crs": "EPSG:3035", "lon": FULDA[0], "lat": FULDA[1], "rotation_deg": 45,
         "hex_size_m": 100}
    )
    assert h.crs == "EPSG:3035" and h.rotation_deg == 45.0


@pytest.mark.parametrize(
    ("data", "key", "needle"),
    [
        ({"lon": 1.0, "lat": 50.0}, "hex_size_m", "needs hex_size_m"),
        ({"crs": UTM32N, "hex_size_m": 50}, "origin_easting", "needs 'origin_easting'"),
        ({"lon": "x", "lat": 50.0, "hex_size_m": 50}, None, "bad georeference"),
        ({"crs": "EPSG:4326", "origin_easting": 0, "origin_northing": 0, "hex_size_m": 50},
         None, "not projected"),
        ({"hex_size_m": 50, "rotation": 3}, "rotation", "unknown georeference key"),
    ],
)
def test_from_mapping_errors(data: dict[str, object], key: str | None, needle: str) -> None:
    with pytest.raises(DataError) as info:
        GeoReference.from_mapping(data, path="scenario.toml")
    assert info.value.key == key and needle in str(info.value)
    assert str(info.value).startswith("scenario.toml")
