"""Tests for hexwar.core.units: one registry, scales, boundary checks."""

from __future__ import annotations

import math
from typing import Any

import pint
import pytest
from hypothesis import given
from hypothesis import strategies as st

from hexwar.core.errors import HexwarError
from hexwar.core.units import (
    Q_,
    DimensionalityError,
    Scale,
    UnitsError,
    as_float,
    parse_quantity,
    require_dimension,
    setup_registry,
    ureg,
)


def test_registry_is_pints_application_registry() -> None:
    app = pint.get_application_registry()  # type: ignore[no-untyped-call]
    assert ureg is app
    # Quantities built by pint's own application-level helpers interoperate with ours.
    other = app.Quantity(3, "m")
    assert (Q_(1, "m") + other).m_as("m") == 4


def test_setup_registry_is_idempotent() -> None:
    assert setup_registry(ureg) is ureg
    assert setup_registry(ureg) is ureg
    assert Q_(1, "tonne").m_as("kg") == 1000


def test_ton_is_the_short_ton_and_tonne_is_metric() -> None:
    # pint's "ton" is the US short ton; hexwar weights are written in tonnes.
    assert as_float(Q_(1, "ton"), "kg") == pytest.approx(907.18474)
    assert as_float(Q_(50, "ton"), "tonne") == pytest.approx(45.359237)
    assert as_float(Q_(1, "tonne"), "kg") == 1000.0
    # MBT 17.8.1: the standard bridge holds 60 tons; a 60 tonne load is heavier than 60 ton.
    assert Q_(60, "tonne") > Q_(60, "ton")


def test_water_depth_in_inches() -> None:
    # Firepower 11.2.1.1: a Standing soldier fords water up to 48 in deep.
    assert as_float(Q_(48, "inch"), "m") == pytest.approx(1.2192)
    assert Q_(24, "inch") < Q_(48, "inch")


def test_table_inch_is_its_own_dimension() -> None:
    with pytest.raises(DimensionalityError):
        Q_(6, "table_inch").to("m")
    with ureg.context("tabletop"):  # default 20 m per table inch
        assert Q_(6, "tin").to("m").m == pytest.approx(120)
    with ureg.context("tabletop", ground_per_inch=Q_(50, "m")):
        assert Q_(6, "tin").to("m").m == pytest.approx(300)
        assert Q_(100, "m").to("table_inch").m == pytest.approx(2)


def test_require_dimension_accepts_and_returns() -> None:
    q = Q_(100, "m")
    assert require_dimension(q, "[length]", "hex_size") is q
    assert require_dimension(Q_(40, "s"), "[time]", "turn_length").m == 40


def test_require_dimension_names_argument_dimension_and_value() -> None:
    with pytest.raises(UnitsError) as info:
        require_dimension(Q_(3, "s"), "[length]", "range_")
    msg = str(info.value)
    assert "`range_`" in msg and "[length]" in msg and "3 s" in msg and "[time]" in msg
    assert isinstance(info.value, HexwarError)


def test_require_dimension_rejects_bare_numbers_with_a_fix() -> None:
    with pytest.raises(UnitsError) as info:
        require_dimension(100, "[length]", "hex_size")
    msg = str(info.value)
    assert "`hex_size`" in msg and "plain int" in msg and "Q_(100" in msg


def test_require_dimension_rejects_foreign_registry() -> None:
    foreign: Any = pint.UnitRegistry()
    with pytest.raises(UnitsError, match="different pint registry"):
        require_dimension(foreign.Quantity(3, "m"), "[length]", "height")


def test_as_float() -> None:
    assert as_float(Q_(4, "km"), "m") == 4000.0
    assert isinstance(as_float(Q_(4, "km"), "m"), float)
    with pytest.raises(UnitsError, match="plain float"):
        as_float(4.0, "m")
    with pytest.raises(UnitsError, match="cannot express"):
        as_float(Q_(4, "s"), "m")


@given(st.floats(min_value=-1e6, max_value=1e6, allow_nan=False))
def test_as_float_round_trip(x: float) -> None:
    assert as_float(Q_(x, "m"), "km") * 1000 == pytest.approx(x, abs=1e-6)


def test_ff_6_scale_conversion() -> None:
    # Firefight 2.0: a hex is fifty meters across; a Game-Turn is 40 seconds. Firefight 13.1: 20 m
    # contour interval.
    ff = Scale("firefight", Q_(50, "m"), Q_(20, "m"), Q_(40, "s"), rule="Firefight 2.0")
    assert ff.hex_size_m == 50.0
    # Scenario 2: 1000 meters is 20 hexes.
    assert ff.length_to_hexes(Q_(1000, "m")) == 20
    assert ff.hexes_to_length(4).m_as("m") == 200  # Firefight 27.23: 200 meters (four hexes)
    assert ff.turn_length is not None
    assert as_float(15 * ff.turn_length, "min") == 10  # 15 turns = 10 minutes


def test_scale_mbt_heights() -> None:
    # MBT 4.3: hex = 100 m; MBT 12.1: one height is about 25 ft; no turn length is given.
    mbt = Scale("mbt", Q_(100, "m"), Q_(25, "ft"), None, rule="MBT 4.3, 12.1")
    assert mbt.turn_length is None
    assert mbt.heights_to_length(3).m_as("ft") == pytest.approx(75)  # MBT 12.1.2 trees "+3"
    assert mbt.length_to_heights(Q_(50, "ft")) == pytest.approx(2)
    assert mbt.length_to_hexes(Q_(4, "km")) == pytest.approx(40)  # MBT 4.7.2: 40 hexes


def test_scale_is_frozen() -> None:
    s = Scale("x", Q_(5, "yd"), Q_(3, "ft"), None)
    with pytest.raises(AttributeError):
        s.system = "y"  # type: ignore[misc]


@pytest.mark.parametrize(
    ("kwargs", "needle"),
    [
        ({"hex_size": 100}, "`hex_size`"),
        ({"hex_size": Q_(100, "s")}, "`hex_size`"),
        ({"height_unit": Q_(3, "kg")}, "`height_unit`"),
        ({"turn_length": Q_(40, "m")}, "`turn_length`"),
        ({"hex_size": Q_(0, "m")}, "positive"),
        ({"height_unit": Q_(-1, "ft")}, "positive"),
    ],
)
def test_scale_rejects_bad_quantities(kwargs: dict[str, object], needle: str) -> None:
    base: dict[str, object] = {
        "system": "x", "hex_size": Q_(50, "m"), "height_unit": Q_(1, "m"), "turn_length": None,
    }
    base.update(kwargs)
    with pytest.raises(UnitsError, match=needle):
        Scale(**base)  # type: ignore[arg-type]


def test_scale_length_to_hexes_checks_dimension() -> None:
    s = Scale("x", Q_(50, "m"), Q_(1, "m"), None)
    with pytest.raises(UnitsError, match="`length`"):
        s.length_to_hexes(3)
    assert math.isclose(s.length_to_hexes(Q_(1, "km")), 20)


def test_parse_quantity_from_data_files() -> None:
    assert parse_quantity("50 m", "[length]", "hex_size") == Q_(50, "m")
    assert as_float(parse_quantity("25 ft", "[length]", "height"), "m") == pytest.approx(7.62)
    assert as_float(parse_quantity("60 tonne", "[mass]", "limit"), "kg") == 60000
    assert parse_quantity(Q_(40, "s"), "[time]", "turn") == Q_(40, "s")


@pytest.mark.parametrize(
    ("text", "needle"),
    [
        ("50", "dimensionless"),
        ("50 furlongz", "cannot read"),
        ("", "cannot read"),
        (50, "needs a quantity with a unit"),
        ("40 s", "[time]"),
    ],
)
def test_parse_quantity_errors(text: object, needle: str) -> None:
    with pytest.raises(UnitsError) as info:
        parse_quantity(text, "[length]", "hex_size")
    assert "`hex_size`" in str(info.value) and needle in str(info.value)
