"""Shared ground (core/ground.py): boards of three systems over one georeferenced ground, with
positions, ranges, heights and lines of sight carried between them (docs/cross-system.md,
docs/decisions.md CORE-70)."""

from __future__ import annotations

import math
import random

import pytest

from hexwar.core.errors import DataError
from hexwar.core.ground import SHIPPED_SCALES, Ground
from hexwar.core.hexgrid import Hex
from hexwar.core.units import Q_

SPEC = {
    "lon": 9.93, "lat": 49.79, "rotation_deg": 30.0,
    "boards": {
        "firefight": {"hex_size": "50 m", "height_unit": "1 m", "datum": "0 m"},
        "mbt": {"hex_size": "100 m", "height_unit": "25 ft", "datum": "250 m",
                "origin": [25.0, -10.0]},
        # a Firepower town block whose hex (0, 0) sits at ground point (400, 300)
        "firepower": {"datum": "280 m", "origin": [400.0, 300.0], "rotation_deg": 90},
    },
}

RIDGE_X, RIDGE_SIGMA, RIDGE_TOP = 500.0, 250.0, 120.0
MAX_SLOPE = RIDGE_TOP / RIDGE_SIGMA * math.exp(-0.5)  # steepest flank of a Gaussian ridge


def ridge(x: float, y: float) -> float:
    """Ground height (metres above sea level): a ridge along y at x = 500 m over a 300 m plain."""
    return 300.0 + RIDGE_TOP * math.exp(-((x - RIDGE_X) ** 2) / (2 * RIDGE_SIGMA ** 2))


@pytest.fixture(scope="module")
def ground() -> Ground:
    return Ground.from_mapping(SPEC)


def test_layers_take_the_shipped_scales(ground: Ground) -> None:
    # Firefight 2.0: 50 m hexes; MBT 4.3: 100 m; Firepower 8.2.2: about 3 ft a height
    assert ground.layer("firefight").hex_size_m == 50.0
    assert ground.layer("mbt").hex_size_m == 100.0
    assert ground.layer("firepower").hex_size_m == pytest.approx(4.572)  # 5 yards, pint-exact
    assert ground.layer("firepower").height_unit_m == pytest.approx(0.9144)
    assert ground.layer("mbt").height_unit_m == pytest.approx(7.62)
    assert set(SHIPPED_SCALES) == {"firefight", "mbt", "firepower"}


def test_heights_cross_exactly_through_pint(ground: Ground) -> None:
    # MBT height 4 over a 250 m datum = 250 + 4 * 25 ft = 280.48 m
    assert ground.height(4, "mbt").m_as("m") == pytest.approx(280.48, abs=1e-9)
    # ... which is 280.48 m above sea level on the Firefight map (metres, Firefight 13.1)
    assert ground.height(4, "mbt", "firefight") == pytest.approx(280.48, abs=1e-9)
    # 25 ft is exactly 25/3 Firepower heights of 3 ft; the datums differ by 30 m
    fp = ground.height(4, "mbt", "firepower")
    assert fp == pytest.approx((280.48 - 280.0) / 0.9144, abs=1e-9)
    assert ground.height(fp, "firepower", "mbt") == pytest.approx(4.0, abs=1e-12)


def test_hexes_round_trip_from_coarse_to_fine(ground: Ground) -> None:
    for h in [Hex(0, 0), Hex(3, -1), Hex(-5, 4), Hex(7, 2)]:
        fine = ground.transfer(h, "mbt", "firefight")
        # the fine hex under a coarse centre lies inside that coarse hex
        assert ground.transfer(fine, "firefight", "mbt") == h
        assert ground.range(h, "mbt", fine, "firefight").m_as("m") <= (
            ground.layer("firefight").corner_radius_m + 1e-9)


def test_georeference_places_every_board_on_the_same_earth(ground: Ground) -> None:
    h = Hex(2, 1)
    ff = ground.transfer(h, "mbt", "firefight")
    lon_a, lat_a = ground.lonlat(h, "mbt")
    lon_b, lat_b = ground.lonlat(ff, "firefight")
    # a degree of latitude is ~111 km: the two centres are within one Firefight corner radius
    assert math.hypot((lon_a - lon_b) * 111_000 * math.cos(math.radians(lat_a)),
                      (lat_a - lat_b) * 111_000) < 30.0
    # the per-board GeoReference agrees with the ground's own projection
    assert ground.board_geo("mbt").hex_to_projected(*h) == pytest.approx(ground.projected(h, "mbt"))


def test_ranges_agree_within_the_documented_tolerance(ground: Ground) -> None:
    rng = random.Random(13)
    tol = ground.range_tolerance("firefight", "mbt").m_as("m")
    assert tol == pytest.approx(2 * (50 + 100) / math.sqrt(3))
    worst = 0.0
    for _ in range(400):
        p = (rng.uniform(-800, 800), rng.uniform(-800, 800))
        q = (rng.uniform(-800, 800), rng.uniform(-800, 800))
        ff = ground.layer("firefight")
        mb = ground.layer("mbt")
        d_ff = ground.range(ff.hex_at(*p), "firefight", ff.hex_at(*q)).m_as("m")
        d_mb = ground.range(mb.hex_at(*p), "mbt", mb.hex_at(*q)).m_as("m")
        worst = max(worst, abs(d_ff - d_mb))
        assert abs(d_ff - d_mb) <= tol
        # the hex count, times the hex size, brackets the metric range (hex vs. round metric)
        n = ff.hex_at(*p).distance(ff.hex_at(*q))
        assert n * 50 * math.sqrt(3) / 2 - 1e-6 <= d_ff <= n * 50 + 1e-6
    assert worst > 0  # the boards do differ, only within the tolerance


def _truth_clearance(p: tuple[float, float], q: tuple[float, float], eye: float) -> float:
    """Least height of the sight line over the continuous ground between two points."""
    ha, hb = ridge(*p) + eye, ridge(*q) + eye
    worst = math.inf
    for i in range(1, 200):
        t = i / 200
        x, y = p[0] + (q[0] - p[0]) * t, p[1] + (q[1] - p[1]) * t
        worst = min(worst, ha + (hb - ha) * t - ridge(x, y))
    return worst


def test_line_of_sight_agrees_on_both_boards_outside_the_tolerance(ground: Ground) -> None:
    boards = {s: ground.lay_board(s, r, ridge) for s, r in (("firefight", 30), ("mbt", 15))}
    rng = random.Random(7)
    tol = {s: ground.sight_tolerance(s, MAX_SLOPE).m_as("m") for s in boards}
    checked = {"clear": 0, "blocked": 0}
    for _ in range(400):
        # one end west of the ridge, the other east of it, both low on the plain
        p = (rng.uniform(-700, 150), rng.uniform(-500, 500))
        q = (rng.uniform(850, 1100), rng.uniform(-500, 500))
        # a man on the plain, a 30 m tower, or an observer 150 or 250 m up who sees over the ridge
        eye = rng.choice((2.0, 30.0, 150.0, 250.0))
        truth = _truth_clearance(p, q, eye)
        answers = {}
        for s, board in boards.items():
            lay = ground.layer(s)
            a, b = lay.hex_at(*p), lay.hex_at(*q)
            if a not in board or b not in board:
                break
            answers[s] = ground.sight(s, board, a, b, eye=Q_(eye, "m"), target=Q_(eye, "m"))
        else:
            if abs(truth) > max(tol.values()):
                expected = truth > 0
                assert answers == {s: expected for s in boards}, (p, q, truth, answers)
                checked["clear" if expected else "blocked"] += 1
    # both kinds of line were exercised, so the test could fail either way
    assert checked["blocked"] > 20 and checked["clear"] > 20, checked


def test_ground_table_problems_name_the_key() -> None:
    with pytest.raises(DataError, match="boards"):
        Ground.from_mapping({"lon": 9.9, "lat": 49.8})
    bad = {"lon": 9.9, "lat": 49.8, "boards": {"mbt": {"hex_size": 100}}}
    with pytest.raises(DataError) as info:
        Ground.from_mapping(bad)
    assert info.value.key == "ground.boards.mbt"
    with pytest.raises(DataError, match="unknown key 'size'"):
        Ground.from_mapping({"lon": 9.9, "lat": 49.8, "boards": {"mbt": {"size": "1 m"}}})
    with pytest.raises(DataError, match="no board for system 'firepower'"):
        Ground.from_mapping({"lon": 9.9, "lat": 49.8, "boards": {"mbt": {}}}).layer("firepower")
