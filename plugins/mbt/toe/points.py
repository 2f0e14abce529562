"""Grade and doctrine point multipliers and the rounding rule of MBT "Doing Your Own Scenarios" B.3.

Pure functions on exact fractions (no floats, so .5 boundaries are exact).

- MBT "Doing Your Own Scenarios" B.3.a: the crack, poor and doctrine values are fixed multiples of the
  average value: crack 1.2, poor .8; with doctrine crack .9, average .75, poor .6.
- MBT B.3.b: fractions of .5 and above round up, lower ones down, once per basic organization (not per unit,
  unless the organization is a single unit).
- MBT B.3 (main paragraph): artillery, aircraft, terrain units, jamming and counter-battery keep constant
  (average) values; grade and doctrine change only on-map ground and helicopter combat units.
- MBT 13.4: doctrine is a Soviet rule; MBT 13.4.1: a "vehicle doctrine" organization applies doctrine
  only to the named unit types.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction
from math import floor


class Grade(StrEnum):
    """Unit quality (MBT 12.7)."""

    CRACK = "crack"
    AVERAGE = "average"
    POOR = "poor"

    @property
    def abbrev(self) -> str:
        """The TO&E price suffix for this grade: Cr, Av or Pr."""
        return {"crack": "Cr", "average": "Av", "poor": "Pr"}[self.value]

    @classmethod
    def parse(cls, text: str) -> Grade:
        """Accept ``crack``/``average``/``poor`` or the TO&E abbreviations ``Cr``/``Av``/``Pr``."""
        t = text.strip().lower()
        for g in cls:
            if t in (g.value, g.abbrev.lower()):
                return g
        raise ValueError(f"unknown grade {text!r} (use crack, average or poor)")


# "Doing Your Own Scenarios" B.3.a: multiplier of the average point value, keyed by (grade, doctrine).
MULTIPLIERS: dict[tuple[Grade, bool], Fraction] = {
    (Grade.CRACK, False): Fraction(6, 5),
    (Grade.AVERAGE, False): Fraction(1),
    (Grade.POOR, False): Fraction(4, 5),
    (Grade.CRACK, True): Fraction(9, 10),
    (Grade.AVERAGE, True): Fraction(3, 4),
    (Grade.POOR, True): Fraction(3, 5),
}


def multiplier(grade: Grade, doctrine: bool = False) -> Fraction:
    """The MBT B.3.a factor applied to an average point value."""
    return MULTIPLIERS[(grade, doctrine)]


def round_half_up(x: Fraction) -> int:
    """MBT B.3.b rounding: .5 and above up, below .5 down."""
    return floor(x + Fraction(1, 2))


def unit_points(average: int, grade: Grade, doctrine: bool = False) -> int:
    """Value of one unit that is a whole organization on its own (MBT B.3.b's exception), rounded.

    The MBT B.3.a example: a T-80 worth 80 average is 96 crack and 72 crack with doctrine.
    """
    return round_half_up(average * multiplier(grade, doctrine))


@dataclass(frozen=True)
class Line:
    """One priced line of an organization: ``count`` items of ``average`` points each.

    ``constant`` lines (artillery and other ungraded values, MBT B.3) ignore grade and doctrine.
    """

    label: str
    count: int
    average: int
    doctrine: bool = False
    constant: bool = False

    def factor(self, grade: Grade) -> Fraction:
        return Fraction(1) if self.constant else multiplier(grade, self.doctrine)

    def exact(self, grade: Grade) -> Fraction:
        return self.count * self.average * self.factor(grade)


@dataclass(frozen=True)
class Total:
    """An organization total: the exact sum and the MBT B.3.b rounded value."""

    grade: Grade
    lines: tuple[Line, ...]
    exact: Fraction
    points: int

    @property
    def average_sum(self) -> int:
        return sum(line.count * line.average for line in self.lines)


def organization_points(lines: Iterable[Line], grade: Grade) -> Total:
    """Sum the lines at ``grade`` and round once for the whole basic organization (MBT B.3.b)."""
    ls = tuple(lines)
    exact = sum((line.exact(grade) for line in ls), Fraction(0))
    return Total(grade=grade, lines=ls, exact=exact, points=round_half_up(exact))
