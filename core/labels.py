"""Printed hex labels, used only at the edges (files, screens); algorithms use axial :class:`Hex`.

Two styles, both for flat-topped hexes in vertical columns (offset coordinates, Red Blob Games'
"q-offset" layouts, https://www.redblobgames.com/grids/hexagons/#coordinates-offset):

* **Letter-number panel labels** (MBT 1.1, Firepower 1.1): ``1FF1`` = panel ``1``, column ``FF``,
  row ``1``. Columns run ``A..Z`` and then doubled letters ``AA, BB, .. ZZ`` (tripled after that);
  index 0 = ``A``, 25 = ``Z``, 26 = ``AA``, 27 = ``BB``. Rows are integers; a panel may start
  at row 0 (Firepower 7: a "0" row at the fold) or 1. Which columns sit half a hex lower than
  their neighbours is a per-panel parameter (the rulebook texts do not include the printed boards).
* **Column-row labels** (Firefight): four digits ``CCRR``, column counted from the west
  edge (``00`` allowed, Firefight Scn 6 "hexrow 0030-3930"), row from the north edge; even
  columns sit half a hex lower ("even-q": the one layout that fits every hex fact of the text,
  e.g. 2225-2126 adjacent in the Firefight 8.7 example). With two maps the label is map-qualified: ``A:1944``
  (Firefight 13.0 "hex 1944-Map A").

A panel-local :class:`Hex` is ``q = column index``, ``r`` from the offset row; see
:func:`offset_to_hex`.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from typing import Literal

from hexwar.core.hexgrid import Hex

__all__ = [
    "ColumnRow",
    "LabelStyle",
    "LetterNumber",
    "Shifted",
    "column_index",
    "column_letters",
    "hex_to_offset",
    "offset_to_hex",
    "parse_ccrr",
    "parse_letter_number",
]

#: Which columns sit half a hex lower than their neighbours, by the parity of the column *number
#: as printed or indexed by the style* (see each style).
Shifted = Literal["even", "odd"]


def offset_to_hex(col: int, row: int, shifted: Shifted = "even") -> Hex:
    """Axial hex of offset cell (``col``, ``row``) when ``shifted`` columns sit half a hex lower."""
    if shifted == "even":
        return Hex(col, row - (col + (col & 1)) // 2)
    if shifted == "odd":
        return Hex(col, row - (col - (col & 1)) // 2)
    raise ValueError(f"shifted must be 'even' or 'odd', got {shifted!r}")


def hex_to_offset(h: Hex, shifted: Shifted = "even") -> tuple[int, int]:
    """Offset cell (col, row) of axial ``h``; inverse of :func:`offset_to_hex`."""
    q = h.q
    if shifted == "even":
        return q, h.r + (q + (q & 1)) // 2
    if shifted == "odd":
        return q, h.r + (q - (q & 1)) // 2
    raise ValueError(f"shifted must be 'even' or 'odd', got {shifted!r}")


def column_letters(index: int) -> str:
    """Column letters for a 0-based column index: 0 -> A, 25 -> Z, 26 -> AA, 27 -> BB, 52 -> AAA."""
    if index < 0:
        raise ValueError(f"column index must be >= 0, got {index}")
    times, letter = divmod(index, 26)
    return chr(ord("A") + letter) * (times + 1)


def column_index(letters: str) -> int:
    """0-based index of column letters (``A`` -> 0, ``AA`` -> 26); one letter, repeated."""
    s = letters.upper()
    if not s or not s.isascii() or not s.isalpha() or s != s[0] * len(s):
        raise ValueError(
            f"bad column letters {letters!r}: expected one letter A-Z, "
            "repeated (A, ..., Z, AA, BB...)"
        )
    return 26 * (len(s) - 1) + ord(s[0]) - ord("A")


_LN = re.compile(r"^\s*([0-9]+)?([A-Za-z]+)(-?[0-9]+)\s*$")


def parse_letter_number(label: str) -> tuple[str | None, int, int]:
    """Split ``1FF1`` into (panel ``'1'``, column index 31, row 1); the panel may be absent."""
    if isinstance(label, str):
        return _parse_letter_number(label)
    return _parse_letter_number_uncached(label)


def _parse_letter_number_uncached(label: str) -> tuple[str | None, int, int]:
    m = _LN.match(label) if isinstance(label, str) else None
    if m is None:
        raise ValueError(
            f"bad hex label {label!r}: expected panel number, column letters and row, e.g. '1FF1'"
        )
    panel, letters, row = m.groups()
    try:
        col = column_index(letters)
    except ValueError as exc:
        raise ValueError(f"bad hex label {label!r}: {exc}") from None
    return panel, col, int(row)


#: bounded: a board's labels, asked thousands of times a game (Firepower's columns)
_parse_letter_number = functools.lru_cache(maxsize=1 << 16)(_parse_letter_number_uncached)


_CR = re.compile(r"^\s*(?:([A-Za-z0-9]+)\s*:\s*)?([0-9]{4})\s*$")


def parse_ccrr(label: str) -> tuple[str | None, int, int]:
    """Split ``A:1944`` into (map ``'A'``, column 19, row 44); the map qualifier may be absent."""
    m = _CR.match(label) if isinstance(label, str) else None
    if m is None:
        raise ValueError(
            f"bad hex label {label!r}: expected four digits CCRR, optionally map-qualified, "
            "e.g. '1944' or 'A:1944'"
        )
    mp, digits = m.groups()
    return (mp.upper() if mp else None), int(digits[:2]), int(digits[2:])


@dataclass(frozen=True)
class LetterNumber:
    """Letter-number labels of one panel (MBT 1.1, Firepower 1.1): ``<panel><letters><row>``.

    ``shifted`` names the columns that sit half a hex lower, by their 1-based number (A = 1, so
    ``"even"`` means B, D, F... are lower). Local hexes: ``q`` = 0-based column index.
    """

    panel: str
    shifted: Shifted = "even"
    kind: Literal["letter-number"] = "letter-number"

    @property
    def _parity(self) -> Shifted:
        # 1-based even numbers are 0-based odd indices.
        return "odd" if self.shifted == "even" else "even"

    def cell(self, label: str) -> tuple[int, int]:
        """(column index, row) of ``label``; raises ``ValueError`` naming the label."""
        panel, col, row = parse_letter_number(label)
        if panel is not None and panel != self.panel:
            raise ValueError(f"hex label {label!r} names panel {panel}, not panel {self.panel}")
        return col, row

    def to_hex(self, label: str) -> Hex:
        """Panel-local hex of ``label`` (``'1FF1'`` or, without the panel, ``'FF1'``)."""
        col, row = self.cell(label)
        return offset_to_hex(col, row, self._parity)

    def hex_of(self, col: int, row: int) -> Hex:
        return offset_to_hex(col, row, self._parity)

    def cell_of(self, h: Hex) -> tuple[int, int]:
        return hex_to_offset(h, self._parity)

    def to_label(self, h: Hex) -> str:
        """Label of panel-local hex ``h``, with the panel number."""
        col, row = hex_to_offset(h, self._parity)
        if col < 0:
            raise ValueError(f"{h!r} lies left of column A of panel {self.panel}")
        return f"{self.panel}{column_letters(col)}{row}"


@dataclass(frozen=True)
class ColumnRow:
    """Firefight four-digit ``CCRR`` labels, even columns half a hex lower.

    ``map_id`` qualifies labels (``A:1944``) when a board joins two maps. Local hexes: ``q`` =
    column number as printed (``00`` allowed).
    """

    map_id: str = ""
    shifted: Shifted = "even"
    kind: Literal["column-row"] = "column-row"

    def cell(self, label: str) -> tuple[int, int]:
        mp, col, row = parse_ccrr(label)
        if mp is not None and self.map_id and mp != self.map_id.upper():
            raise ValueError(f"hex label {label!r} names map {mp}, not map {self.map_id}")
        return col, row

    def to_hex(self, label: str) -> Hex:
        col, row = self.cell(label)
        return offset_to_hex(col, row, self.shifted)

    def hex_of(self, col: int, row: int) -> Hex:
        return offset_to_hex(col, row, self.shifted)

    def cell_of(self, h: Hex) -> tuple[int, int]:
        return hex_to_offset(h, self.shifted)

    def to_label(self, h: Hex, *, qualified: bool = False) -> str:
        """``CCRR`` (or ``A:CCRR`` when ``qualified`` and the style has a map id)."""
        col, row = hex_to_offset(h, self.shifted)
        if not (0 <= col <= 99 and 0 <= row <= 99):
            raise ValueError(f"{h!r} has no four-digit label (column {col}, row {row})")
        text = f"{col:02d}{row:02d}"
        return f"{self.map_id}:{text}" if qualified and self.map_id else text


LabelStyle = LetterNumber | ColumnRow
