"""Printed hex labels: letter-number panels (MBT, Firepower) and Firefight CCRR."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hexwar.core.hexgrid import Hex, trace
from hexwar.core.labels import (
    ColumnRow,
    LetterNumber,
    column_index,
    column_letters,
    hex_to_offset,
    offset_to_hex,
    parse_ccrr,
    parse_letter_number,
)

FF = ColumnRow("A")


def ff(label: str) -> Hex:
    return FF.to_hex(label)


# -- letter-number ------------------------------------------------------------------------------


def test_fp_1_parse_1ff1() -> None:
    # Firepower 1.1: "1FF1" is hex FF1 on panel 1.
    panel, col, row = parse_letter_number("1FF1")
    assert panel == "1" and column_letters(col) == "FF" and row == 1
    assert col == 31


def test_mbt_4_parse_2ee3() -> None:
    # MBT 1.1: "2EE3" is hex EE3 on panel 2.
    panel, col, row = parse_letter_number("2EE3")
    assert (panel, column_letters(col), row) == ("2", "EE", 3)
    assert LetterNumber("2").to_label(LetterNumber("2").to_hex("2EE3")) == "2EE3"


def test_column_letters() -> None:
    assert [column_letters(i) for i in (0, 25, 26, 27, 33, 51, 52)] == [
        "A", "Z", "AA", "BB", "HH", "ZZ", "AAA"
    ]
    assert column_index("hh") == 33
    for bad in ("", "AB", "A1", "Ä"):
        with pytest.raises(ValueError, match="bad column letters"):
            column_index(bad)
    with pytest.raises(ValueError):
        column_letters(-1)


@given(st.integers(0, 200))
def test_column_letters_round_trip(i: int) -> None:
    assert column_index(column_letters(i)) == i


def test_letter_number_errors_name_the_label() -> None:
    with pytest.raises(ValueError, match="'1F-F1'"):
        parse_letter_number("1F-F1")
    with pytest.raises(ValueError, match="'1AB3'"):
        parse_letter_number("1AB3")
    with pytest.raises(ValueError, match="'2G7' names panel 2, not panel 1"):
        LetterNumber("1").to_hex("2G7")


def test_letter_number_without_panel_and_lowercase() -> None:
    st1 = LetterNumber("1")
    assert st1.to_hex("g7") == st1.to_hex("1G7")


def test_shifted_columns_sit_half_a_hex_lower() -> None:
    even = LetterNumber("1", shifted="even")  # B, D, ... lower
    a1, b1 = even.to_hex("A1"), even.to_hex("B1")
    assert b1.to_pixel()[1] > a1.to_pixel()[1]
    assert a1.distance(b1) == 1 and a1.direction_to(b1) == 3  # B1 is south-east of A1
    odd = LetterNumber("1", shifted="odd")  # A, C, ... lower
    a1, b1 = odd.to_hex("A1"), odd.to_hex("B1")
    assert b1.to_pixel()[1] < a1.to_pixel()[1]
    assert a1.direction_to(b1) == 2


@given(st.integers(0, 60), st.integers(0, 60), st.sampled_from(["even", "odd"]))
def test_letter_number_round_trip(col: int, row: int, shifted: str) -> None:
    s = LetterNumber("3", shifted=shifted)  # type: ignore[arg-type]
    label = f"3{column_letters(col)}{row}"
    assert s.to_label(s.to_hex(label)) == label


@given(st.integers(-50, 50), st.integers(-50, 50), st.sampled_from(["even", "odd"]))
def test_offset_round_trip(col: int, row: int, shifted: str) -> None:
    h = offset_to_hex(col, row, shifted)  # type: ignore[arg-type]
    assert hex_to_offset(h, shifted) == (col, row)  # type: ignore[arg-type]


def test_offset_rows_are_columns_of_hexes() -> None:
    for shifted in ("even", "odd"):
        for col in range(-3, 4):
            a, b = offset_to_hex(col, 5, shifted), offset_to_hex(col, 6, shifted)  # type: ignore[arg-type]
            assert a.direction_to(b) == 4
    with pytest.raises(ValueError):
        offset_to_hex(0, 0, "left")  # type: ignore[arg-type]


# -- Firefight CCRR -----------------------------------------------------------------------------


def test_ff_1_impact_hexes_of_the_8_7_example() -> None:
    # Firefight 8.7 example: 2126 is adjacent to 2225 and 2324 is two hexes away.
    assert ff("2225").distance(ff("2126")) == 1
    assert ff("2225").distance(ff("2324")) == 2


def test_ff_2_movement_example_hexes_are_adjacent() -> None:
    # Firefight movement example: 1938 then across the river into 1837.
    assert ff("1938").distance(ff("1837")) == 1


def test_ff_3_3208_is_closer_to_3109_than_to_3307() -> None:
    # Firefight 13.23.
    assert ff("3208").distance(ff("3109")) == 1
    assert ff("3208").distance(ff("3307")) == 2
    assert ff("3208").distance(ff("2611")) == 6


def test_2951_and_3050_are_adjacent() -> None:
    # Firefight 13.11: "adjacent hex 3050".
    assert ff("2951").distance(ff("3050")) == 1


def test_ff_4_ranges_along_column_13() -> None:
    # Firefight 13.22 example: 1305 at 1, 1306 at 2, 1307 at 3 from 1304.
    assert [ff("1304").distance(ff(x)) for x in ("1305", "1306", "1307")] == [1, 2, 3]


def test_ff_5_range_counts_target_not_firer() -> None:
    # Firefight 6.0 step 1: adjacent = 1; one hex between in a column = 2.
    assert ff("1010").distance(ff("1011")) == 1
    assert ff("1010").distance(ff("1012")) == 2


def test_odd_q_fails_the_adjacency_facts() -> None:
    # Only even columns shifted down fits every hex fact of the text (Firefight 8.7, 13.11,
    # 13.23, the Movement Example). Odd-q breaks 2225-2126.
    odd = ColumnRow("A", shifted="odd")
    assert odd.to_hex("2225").distance(odd.to_hex("2126")) != 1


def test_spine_case_2225_to_2324_runs_along_2224_2325() -> None:
    # Firefight 5.2 example D: this pair is an exact hexside ("spine") case.
    t = trace(ff("2225"), ff("2324"))
    assert t.hexsides_along() == (frozenset((ff("2224"), ff("2325"))),)


def test_ff_28_line_3307_to_3109_passes_3207_and_3208() -> None:
    # Firefight 13.23 example: the line runs 3307 -> 3207 -> 3208 -> 3109.
    t = trace(ff("3307"), ff("3109"))
    assert [FF.to_label(h) for h in t.intervening()] == ["3207", "3208"]


def test_ccrr_parsing_and_errors() -> None:
    assert parse_ccrr("A:1944") == ("A", 19, 44)
    assert parse_ccrr("0030") == (None, 0, 30)  # column 00 exists (Scn 6 "hexrow 0030-3930")
    assert parse_ccrr(" b : 2951 ") == ("B", 29, 51)
    for bad in ("194", "19445", "A1944", "A:19x4", ""):
        with pytest.raises(ValueError, match=repr(bad)):
            parse_ccrr(bad)
    with pytest.raises(ValueError, match="'B:1944' names map B, not map A"):
        FF.to_hex("B:1944")


def test_ccrr_labels() -> None:
    h = ff("A:1944")
    assert h == ff("1944")
    assert FF.to_label(h) == "1944"
    assert FF.to_label(h, qualified=True) == "A:1944"
    assert FF.to_label(ff("0030")) == "0030"
    with pytest.raises(ValueError):
        FF.to_label(Hex(-1, 0))


@given(st.integers(0, 99), st.integers(0, 99))
def test_ccrr_round_trip(col: int, row: int) -> None:
    label = f"{col:02d}{row:02d}"
    assert FF.to_label(FF.to_hex(label)) == label
    assert FF.to_label(FF.to_hex("a:" + label), qualified=True) == "A:" + label
