"""Range bands: closed integer intervals such as ``13-16``, ``21+`` or ``<=3``, the keys of most
printed charts."""

from __future__ import annotations

import re
from dataclasses import dataclass

from hexwar.core.errors import DataError

_INT = r"[+-]?\d+"
_BAND_RANGE = re.compile(rf"^({_INT})\s*-\s*({_INT})$")
_BAND_ONE = re.compile(rf"^({_INT})$")
_BAND_PLUS = re.compile(rf"^({_INT})\s*\+$")
_BAND_LE = re.compile(rf"^(?:<=|≤)\s*({_INT})$")
_BAND_GE = re.compile(rf"^(?:>=|≥)\s*({_INT})$")


def normalize_minus(text: str) -> str:
    # Transcribed rulebook tables print the minus sign and dashes as U+2212 / U+2013 / U+2014.
    return text.replace("\u2212", "-").replace("\u2013", "-").replace("\u2014", "-").strip()


@dataclass(frozen=True, order=True)
class Band:
    """A closed interval of integers ``lo..hi``; ``None`` means unbounded on that side.

    A lookup value ``x`` (int or float) is in the band when ``lo <= x <= hi``.
    """

    lo: int | None
    hi: int | None

    def __post_init__(self) -> None:
        if self.lo is not None and self.hi is not None and self.lo > self.hi:
            raise DataError(f"empty band {self.lo}..{self.hi}: the low end is above the high end")

    def __contains__(self, x: object) -> bool:
        if isinstance(x, bool) or not isinstance(x, int | float):
            return False
        return (self.lo is None or x >= self.lo) and (self.hi is None or x <= self.hi)

    def overlaps(self, other: Band) -> bool:
        lo_ok = self.lo is None or other.hi is None or self.lo <= other.hi
        hi_ok = self.hi is None or other.lo is None or other.lo <= self.hi
        return lo_ok and hi_ok

    def __str__(self) -> str:
        if self.lo is None and self.hi is None:
            return "any"
        if self.lo is None:
            return f"<={self.hi}"
        if self.hi is None:
            return f"{self.lo}+"
        if self.lo == self.hi:
            return str(self.lo)
        return f"{self.lo}-{self.hi}"


def parse_band(text: object) -> Band:
    """A band read from its text (:func:`_parse_band`), each text parsed once: the charts' keys
    are read again at every fire check (Band is immutable, so the one parsed value is shared;
    a malformed text is not kept and raises every time)."""
    if type(text) is str:
        got = _PARSED.get(text)
        if got is None:
            got = _parse_band(text)
            if len(_PARSED) >= _PARSED_MAX:  # bounded: data files have a few hundred keys
                _PARSED.clear()
            _PARSED[text] = got
        return got
    return _parse_band(text)


#: band text -> its band (see :func:`parse_band`)
_PARSED: dict[str, Band] = {}
_PARSED_MAX = 4096


def _parse_band(text: object) -> Band:
    """Parse a band: ``"13-16"``, ``"5"``, ``"21+"``, ``">=21"``, ``"<=3"``, ``"-3"``,
    ``"-6--4"`` (negative ends), ``"-3-2"`` (-3 to 2). An int is a one-value band.

    En dashes and the Unicode minus are accepted. ``"96-00"`` is rejected: write 100.
    Raises :class:`DataError` (without a location; loaders add file, line and column).
    """
    if isinstance(text, bool):
        raise DataError(f"malformed band {text!r}")
    if isinstance(text, int):
        return Band(text, text)
    if not isinstance(text, str):
        raise DataError(f"malformed band {text!r}: expected text such as \"13-16\" or an integer")
    t = normalize_minus(text)
    hint = 'write "13-16", "5", "21+", "<=3" or "-6--4"'
    if m := _BAND_RANGE.match(t):
        lo, hi = int(m.group(1)), int(m.group(2))
        if lo > hi:
            if m.group(2) in ("00", "0") and lo > 0:
                raise DataError(
                    f"malformed band {text!r}: the high end reads as {hi}",
                    hint='a percentile "00" means 100; write it as 100',
                )
            raise DataError(f"malformed band {text!r}: the low end is above the high end",
                            hint=hint)
        return Band(lo, hi)
    if m := _BAND_ONE.match(t):
        return Band(int(m.group(1)), int(m.group(1)))
    if m := (_BAND_PLUS.match(t) or _BAND_GE.match(t)):
        return Band(int(m.group(1)), None)
    if m := _BAND_LE.match(t):
        return Band(None, int(m.group(1)))
    raise DataError(f"malformed band {text!r}", hint=hint)
