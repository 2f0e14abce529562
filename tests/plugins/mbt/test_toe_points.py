"""MBT "Doing Your Own Scenarios" B.3.a-b: grade/doctrine multipliers and organization-level rounding."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hexwar.plugins.mbt.toe.points import (
    Grade,
    Line,
    multiplier,
    organization_points,
    round_half_up,
    unit_points,
)


def test_t80a_average_is_80() -> None:
    # MBT B.3.a example: a T-80 (USSR-1A) is worth 80 points at average grade.
    assert unit_points(80, Grade.AVERAGE) == 80


def test_t80a_crack_is_96() -> None:
    assert unit_points(80, Grade.CRACK) == 96


def test_t80a_crack_with_doctrine_is_72() -> None:
    assert unit_points(80, Grade.CRACK, doctrine=True) == 72


def test_multipliers_b3a() -> None:
    assert multiplier(Grade.CRACK) == Fraction(12, 10)
    assert multiplier(Grade.AVERAGE) == 1
    assert multiplier(Grade.POOR) == Fraction(8, 10)
    assert multiplier(Grade.CRACK, True) == Fraction(9, 10)
    assert multiplier(Grade.AVERAGE, True) == Fraction(75, 100)
    assert multiplier(Grade.POOR, True) == Fraction(6, 10)


def test_round_half_up_b3b() -> None:
    assert round_half_up(Fraction(675, 10)) == 68
    assert round_half_up(Fraction(6749, 100)) == 67
    assert round_half_up(Fraction(315, 10)) == 32
    assert round_half_up(Fraction(2625, 10)) == 263  # Python's round() would give 262


def test_mbt_164_t80_all_grades() -> None:
    """MBT B.3.a example: 80 average -> 96 crack -> 72 crack with doctrine; 64 poor, 60 and 48 with
    doctrine."""
    got = [unit_points(80, g, d) for d in (False, True) for g in Grade]
    assert got == [96, 80, 64, 72, 60, 48]


def test_mbt_165_half_rounds_up() -> None:
    """MBT B.3.b: T-64B 75 crack+doctrine 67.5 -> 68; T-80A reactive 95 -> 85.5 -> 86; trucks 31.5 -> 32."""
    assert unit_points(75, Grade.CRACK, True) == 68
    assert unit_points(95, Grade.CRACK, True) == 86
    assert organization_points([Line("Medium Truck", 2, 21, doctrine=True)], Grade.AVERAGE).points == 32


def test_mbt_166_round_per_organization_not_per_unit() -> None:
    """MBT B.3.b, rounding once per organization: 4 x T-72M1 (73) with doctrine -> 263/219/175, not
    4 x 66 / 4 x 55 / 4 x 44."""
    lines = [Line("T-72M1", 4, 73, doctrine=True)]
    assert [organization_points(lines, g).points for g in Grade] == [263, 219, 175]
    assert [4 * unit_points(73, g, True) for g in Grade] == [264, 220, 176]


def test_constant_lines_ignore_grade() -> None:
    # MBT B.3: artillery (and other ungraded values) keep their average value.
    assert organization_points([Line("battery", 1, 150, constant=True)], Grade.CRACK).points == 150


@pytest.mark.parametrize(
    ("text", "grade"),
    [
        ("crack", Grade.CRACK),
        ("Cr", Grade.CRACK),
        ("AVERAGE", Grade.AVERAGE),
        ("av", Grade.AVERAGE),
        ("poor", Grade.POOR),
        ("Pr", Grade.POOR),
    ],
)
def test_grade_parse(text: str, grade: Grade) -> None:
    assert Grade.parse(text) is grade


def test_grade_parse_rejects() -> None:
    with pytest.raises(ValueError, match="elite"):
        Grade.parse("elite")


@given(st.lists(st.integers(0, 500), min_size=1, max_size=8), st.sampled_from(list(Grade)), st.booleans())
def test_rounding_once_is_within_half(values: list[int], grade: Grade, doctrine: bool) -> None:
    lines = [Line(str(i), 1, v, doctrine=doctrine) for i, v in enumerate(values)]
    total = organization_points(lines, grade)
    assert abs(total.points - total.exact) <= Fraction(1, 2)
    assert total.exact == sum(values) * multiplier(grade, doctrine)
