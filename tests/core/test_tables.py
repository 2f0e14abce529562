"""Tests for hexwar.core.tables and hexwar.core.provenance."""

from __future__ import annotations

import itertools
import shutil
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hexwar.core.errors import DataError
from hexwar.core.provenance import (
    Records,
    Sourced,
    SourceKind,
    classify_source,
    format_provenance_report,
    is_estimated,
    is_transcription,
    load_records,
    load_records_dir,
    split_provenance,
)
from hexwar.core.tables import (
    Band,
    Disclosed,
    Table,
    TableLookupError,
    TableSet,
    check_disclosed,
    load_table,
    parse_band,
    parse_table_csv,
    parse_table_toml,
)

DATA = Path(__file__).parent / "data"
TABLES = DATA / "tables"


def csv_table(text: str, name: str = "t") -> Table:
    return parse_table_csv(text, name, path=f"{name}.csv")


# -- bands -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "lo", "hi"),
    [
        ("13-16", 13, 16),
        ("1-2", 1, 2),
        ("5", 5, 5),
        ("21+", 21, None),
        (">=21", 21, None),
        ("≥16", 16, None),
        ("<=3", None, 3),
        ("-3", -3, -3),
        ("+3", 3, 3),
        ("-6--4", -6, -4),
        ("-3-2", -3, 2),
        ("-10 - -5", -10, -5),
        ("13–16", 13, 16),  # en dash, as transcribed rulebook tables print it
        ("−6–−4", -6, -4),  # Unicode minus signs
        ("01-25", 1, 25),  # percentile bands (MBT 19.3.2: delayed on 01-25)
        (" 26+ ", 26, None),
        (7, 7, 7),
    ],
)
def test_parse_band(text: object, lo: int | None, hi: int | None) -> None:
    assert parse_band(text) == Band(lo, hi)


@pytest.mark.parametrize(
    ("text", "needle"),
    [
        ("16-13", "low end is above"),
        ("96-00", "write it as 100"),
        ("", "malformed band"),
        ("abc", "malformed band"),
        ("1-", "malformed band"),
        ("1.5", "malformed band"),
        ("1-2-3", "malformed band"),
        ("--4", "malformed band"),
        (True, "malformed band"),
        (None, "malformed band"),
        (2.0, "malformed band"),
    ],
)
def test_parse_band_errors(text: object, needle: str) -> None:
    with pytest.raises(DataError, match=needle):
        parse_band(text)


def test_band_contains_and_overlaps() -> None:
    b = parse_band("13-16")
    assert 13 in b and 16 in b and 14.5 in b
    assert 12 not in b and 17 not in b and 16.5 not in b
    assert "14" not in b and True not in b
    assert -100 in parse_band("<=3") and 10**9 in parse_band("21+")
    assert parse_band("-6--4").overlaps(parse_band("-4-0"))
    assert not parse_band("-6--4").overlaps(parse_band("-3-0"))
    assert parse_band("21+").overlaps(parse_band("<=21"))
    assert not parse_band("21+").overlaps(parse_band("<=20"))
    with pytest.raises(DataError):
        Band(3, 2)


@given(st.integers(-200, 200), st.integers(0, 50))
def test_band_text_round_trip(lo: int, width: int) -> None:
    for band in (Band(lo, lo + width), Band(lo, None), Band(None, lo)):
        assert parse_band(str(band)) == band


# -- sources -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("source", "kind"),
    [
        ("MBT 7.4.8", SourceKind.CITED),
        ("Firefight [8.7]", SourceKind.CITED),
        ("Firepower 6.3.6.3.2", SourceKind.CITED),
        ("MBT Scenario D.1", SourceKind.CITED),
        ("Firefight CL [21.1]", SourceKind.CITED),
        ("estimated", SourceKind.ESTIMATED),
        ("transcription: Game Card scan by a user", SourceKind.TRANSCRIPTION),
    ],
)
def test_classify_source(source: str, kind: SourceKind) -> None:
    assert classify_source(source) is kind


@pytest.mark.parametrize(
    ("source", "needle"),
    [
        ("", "missing source"),
        ("   ", "missing source"),
        (None, "missing source"),
        (12, "missing source"),
        ("Estimated", "exactly"),
        ("est.", "exactly"),
        ("estimate", "exactly"),
        ("estimated ", "exactly"),
        ("transcription", "transcription: <what"),
        ("transcription:", "transcription: <what"),
        ("transcription:   ", "transcription: <what"),
        ("7.4.8", "<System> <rule>"),
        ("MBT", "<System> <rule>"),
        (" MBT 7.4.8", "<System> <rule>"),
    ],
)
def test_classify_source_rejects(source: object, needle: str) -> None:
    with pytest.raises(DataError, match="source") as info:
        classify_source(source)
    assert needle in str(info.value)


def test_is_estimated_and_transcription() -> None:
    assert is_estimated("estimated")
    assert not is_estimated("MBT 7.4.8") and not is_estimated("Estimated")
    assert is_transcription("transcription: x") and not is_transcription("estimated")
    assert Sourced(5, "estimated").estimated and Sourced(5, "MBT 1.1").kind is SourceKind.CITED
    assert str(Sourced(56, "MBT 7.4.3")) == "56 [MBT 7.4.3]"


# -- tables: lookups ---------------------------------------------------------------------------


@pytest.fixture
def tables() -> TableSet:
    return TableSet.load_dir(TABLES)


def test_two_d_chart_with_bands(tables: TableSet) -> None:
    t = tables["ap_hit"]
    # The two cells MBT 7.4.3 discloses: (AP 14, net -3) -> 56 and (AP 18, net -6) -> 59.
    assert t.lookup(ap=14, modifier=-3) == Sourced(56, "MBT 7.4.3")
    assert t.value(ap=18, modifier=-6) == 59
    assert t.lookup(ap=18, modifier=-6).source == "MBT 7.4.3"
    # Negative band "-6--4" and the open band "1+".
    assert t.value(ap=13, modifier=-4) == 48
    assert t.value(ap=16, modifier=99) == 70
    assert t.lookup(ap=13, modifier=-5).estimated
    assert t.key_names == ("ap", "modifier") and t.value_names == ("value",)
    assert t.title.startswith("AP POINT EFFECT HIT CHART")
    assert [str(b) for b in t.key_values("modifier")] == ["-3", "-6--4", "-2-0", "1+"]


def test_lookup_misses_name_the_table_keys_and_bands(tables: TableSet) -> None:
    t = tables["ap_hit"]
    with pytest.raises(TableLookupError) as info:
        t.lookup(ap=12, modifier=-3)
    msg = str(info.value)
    assert "'ap_hit'" in msg and "ap=12" in msg and "13-16" in msg and "17-20" in msg
    with pytest.raises(TableLookupError, match="-7"):
        t.lookup(ap=14, modifier=-7)
    with pytest.raises(TableLookupError, match="missing key"):
        t.lookup(ap=14)
    with pytest.raises(TableLookupError, match="unknown key"):
        t.lookup(ap=14, modifier=-3, range=3)
    with pytest.raises(TableLookupError, match="needs a number"):
        t.lookup(ap=None, modifier=-3)
    with pytest.raises(TableLookupError, match="needs a number"):
        t.lookup(ap=True, modifier=-3)
    with pytest.raises(TableLookupError, match="no value column 'hits'"):
        t.lookup("hits", ap=14, modifier=-3)
    with pytest.raises(TableLookupError, match="no table named 'ap_hits'; did you mean 'ap_hit'"):
        tables["ap_hits"]


def test_lookup_clamped_moves_to_the_nearest_covered_band(tables: TableSet) -> None:
    t = tables["ap_hit"]
    # A chart pushed off its end uses the end column (Firefight: an Attack Rating modified past
    # the CRT's columns, a reading of the system).
    assert t.lookup_clamped(ap=40, modifier=-9).value == 59
    assert t.lookup_clamped(ap=2, modifier=5).value == 70
    with pytest.raises(TableLookupError):
        t.lookup(ap=40, modifier=-9)


def test_lookup_by_band_text_matches_exactly(tables: TableSet) -> None:
    t = tables["ap_hit"]
    assert t.value(ap="13-16", modifier="-6--4") == 48
    with pytest.raises(TableLookupError):
        t.value(ap="13-15", modifier="-3")
    with pytest.raises(TableLookupError, match="malformed band"):
        t.value(ap="x", modifier="-3")


def test_label_table(tables: TableSet) -> None:
    # Firefight 11.1: Observation Range Table, all eight numbers in the text.
    t = tables["observation_range"]
    assert t.lookup(terrain="Clear", target="Vehicle") == Sourced(60, "Firefight 11.1")
    assert t.value(terrain="Forest", target="Personnel") == 5
    assert t.value(terrain="Defilade", target="Vehicle") == 5
    with pytest.raises(TableLookupError, match="Swamp"):
        t.value(terrain="Swamp", target="Vehicle")
    with pytest.raises(TableLookupError):
        t.value(terrain="clear", target="Vehicle")  # labels are exact
    assert t.provenance().estimated == 0 and t.provenance().cited == 8


def test_several_value_columns_blank_cells_and_column_sources(tables: TableSet) -> None:
    t = tables["number_of_hits"]
    # MBT 7.4.4.2: hit number 65 at ROF 4 -> 4 hits on <= 10, 3 on <= 20, 2 on <= 29.
    row = t.lookup_row(hit=65, rof=4)
    assert {k: v.value for k, v in row.items()} == {"hits_4": 10, "hits_3": 20, "hits_2": 29}
    assert t.lookup("hits_3", hit=61, rof=4) == Sourced(20, "MBT 7.4.4.2")
    assert t.value("hits_4", hit=63, rof=2) is None  # optional column, blank cell
    assert t.lookup("hits_2", hit=70, rof=4).source == "transcription: test fixture"
    assert t.lookup("hits_4", hit=70, rof=4).source == "estimated"
    assert t.find_row({"hit": 65, "rof": 4}).note == "example H 65 ROF 4"
    with pytest.raises(TableLookupError, match="several value columns"):
        t.lookup(hit=65, rof=4)
    s = t.provenance()
    assert (s.cited, s.estimated, s.transcription) == (3, 3, 1)  # blanks are not counted


def test_toml_table_with_interval_values(tables: TableSet) -> None:
    # Firepower 12.1.4: LINE OF SIGHT CHART (col 2, line 4) = 20-24,
    # (col 7, line 13) = 10-12, (col 5, line 13) = 8-9.
    t = tables["los_chart"]
    assert t.lookup(height_difference=2, line=4) == Sourced(Band(20, 24), "Firepower 12.1.4")
    assert t.value(height_difference=7, line=13) == Band(10, 12)
    assert 9 in t.value(height_difference=5, line=13)
    assert t.lookup(height_difference=1, line=4).source == "estimated"  # file default
    assert t.path is not None and t.path.endswith("los_chart.toml")


def test_as_function_for_hot_loops(tables: TableSet) -> None:
    f = tables["ap_hit"].as_function()
    assert f(14, -3) == 56 and f(14, -3) == 56 and f(18, -6) == 59
    g = tables["ap_hit"].as_function(clamp=True)
    assert g(99, -99) == 59
    with pytest.raises(TableLookupError):
        f(1, 1)


def test_single_band_key_table_and_auto_values() -> None:
    # Firefight 8.41: Direct Support availability; and MBT 6A.1 style labels as values.
    t = csv_table(
        "die:band,result,source\n1-5,arrives,Firefight 8.41\n6,delayed,Firefight 8.41\n"
    )
    assert t.value(die=3) == "arrives" and t.value(die=6) == "delayed"
    u = csv_table("x:band,value,source\n1,3,estimated\n2,2.5,estimated\n3,1/2,estimated\n")
    assert u.value(x=1) == 3 and u.value(x=2) == 2.5 and u.value(x=3) == "1/2"
    w = csv_table("x:band,value:float,source\n1,1/2,Firefight 7.1\n2,−1,estimated\n")
    assert w.value(x=1) == 0.5 and w.value(x=2) == -1.0  # fractions and Unicode minus


# -- tables: load errors -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "line", "key", "needle"),
    [
        ("a:band,value,source\n1-2,3,estimated\n3-x,4,estimated\n", 3, "a", "malformed band"),
        ("a:band,value,source\n16-13,3,estimated\n", 2, "a", "low end is above"),
        ("a:band,value,source\n1,3,\n", 2, "source", "missing source"),
        ("a:band,value,source\n1,3,Estimated\n", 2, "source", "malformed source"),
        ("a:band,value,source\n1,3\n", 2, None, "2 cells but the header has 3"),
        ("a:band,value:int,source\n1,x,estimated\n", 2, "value", "not a valid int"),
        ("a:band,value:int,source\n1,,estimated\n", 2, "value", "empty value"),
        ("a:band,value,source\n,3,estimated\n", 2, "a", "empty key cell"),
        ("a:bands,value,source\n1,3,estimated\n", 1, "a", "unknown column type"),
        ("a:band,value\n1,3\n", 1, None, "no `source` column"),
        ("a:band,source\n1,estimated\n", 1, None, "no value column"),
        ("a:band,a:band,value,source\n1,1,3,estimated\n", 1, "a", "duplicate column"),
        ("a:band?,value,source\n1,3,estimated\n", 1, "a", "cannot be optional"),
        ("a b:band,value,source\n1,3,estimated\n", 1, "a b", "bad column name"),
        ("a:band,value,source,source.other\n1,3,estimated,\n", 1, "source.other", "names no"),
        ("# only a comment\na:band,value,source\n", 2, None, "no rows"),
        ("a:band,value,source\n1,\"3,estimated\n", 2, None, "malformed CSV"),
    ],
)
def test_csv_errors_name_file_line_and_column(
    text: str, line: int, key: str | None, needle: str
) -> None:
    with pytest.raises(DataError) as info:
        csv_table(text, "bad")
    err = info.value
    assert err.path == "bad.csv" and err.line == line and err.key == key
    assert needle in str(err)
    assert str(err).startswith(f"bad.csv:{line}")


def test_empty_file() -> None:
    with pytest.raises(DataError, match="no header"):
        csv_table("# nothing\n\n")


def test_overlapping_rows_are_rejected_with_both_lines() -> None:
    text = (
        "ap:band,modifier:band,value,source\n"
        "13-16,-3,56,estimated\n"
        "17-20,-3,60,estimated\n"
        "15-18,-4--2,61,estimated\n"
    )
    with pytest.raises(DataError, match="rows overlap") as info:
        csv_table(text)
    assert info.value.line == 4 and "line 2" in str(info.value)
    with pytest.raises(DataError, match="rows overlap"):
        csv_table("k:label,value,source\nA,1,estimated\nA,2,estimated\n")
    with pytest.raises(DataError, match="rows overlap"):
        csv_table("x:band,value,source\n21+,1,estimated\n<=21,2,estimated\n")
    # Same bands under different labels do not overlap.
    t = csv_table("k:label,x:band,value,source\nA,1-3,1,estimated\nB,1-3,2,estimated\n")
    assert t.value(k="B", x=2) == 2


@pytest.mark.parametrize(
    ("toml", "needle"),
    [
        ('[keys]\nx = "band"\n[[rows]]\nx = 1\nvalue = 1\nsource = "estimated"\n', "[values]"),
        ('[keys]\nx = "range"\n[values]\nvalue = "int"\n', 'must be "band" or "label"'),
        ('[keys]\nx = "band"\n[values]\nvalue = "int"\n', "no [[rows]]"),
        ('[keys]\nx = "band"\n[values]\nvalue = "int"\n[[rows]]\nx = 1\nvalue = 1\n',
         "missing source"),
        ('[keys]\nx = "band"\n[values]\nvalue = "int"\n[[rows]]\nx = "1-"\nvalue = 1\n'
         'source = "estimated"\n', "malformed band"),
        ('[keys]\nx = "band"\n[values]\nvalue = "int"\n[[rows]]\nx = 1\nvalue = 1\ny = 2\n'
         'source = "estimated"\n', "unknown column"),
        ('[keys]\nx = "band"\n[values]\nvalue = "int"\n[[rows]]\nx = 1\nvalue = 1.5\n'
         'source = "estimated"\n', "not a valid int"),
        ('kyes = 1\n', "unknown top-level key"),
    ],
)
def test_toml_errors(tmp_path: Path, toml: str, needle: str) -> None:
    p = tmp_path / "bad.toml"
    p.write_text(toml)
    with pytest.raises(DataError) as info:
        load_table(p)
    assert needle in str(info.value) and str(p) in str(info.value)


def test_toml_syntax_error_and_file_type(tmp_path: Path) -> None:
    p = tmp_path / "bad.toml"
    p.write_text("[keys\n")
    with pytest.raises(DataError, match="invalid TOML"):
        load_table(p)
    q = tmp_path / "t.json"
    q.write_text("{}")
    with pytest.raises(DataError, match="unsupported table file type"):
        load_table(q)
    with pytest.raises(DataError, match="cannot read"):
        load_table(tmp_path / "missing.csv")


def test_toml_equals_csv() -> None:
    csv_t = csv_table("k:label,x:band,value:int,source\nA,1-3,7,MBT 7.4.8\n")
    toml_t = parse_table_toml(
        {"keys": {"k": "label", "x": "band"}, "values": {"value": "int"},
         "rows": [{"k": "A", "x": "1-3", "value": 7, "source": "MBT 7.4.8"}]},
        "t",
    )
    assert csv_t.schema == toml_t.schema
    assert csv_t.lookup(k="A", x=2) == toml_t.lookup(k="A", x=2)


# -- table sets and packs ----------------------------------------------------------------------


def test_load_dir(tables: TableSet) -> None:
    assert sorted(tables) == ["ap_hit", "los_chart", "number_of_hits", "observation_range"]
    assert len(tables) == 4 and "ap_hit" in tables and tables.replaced == frozenset()


def test_two_files_for_one_table(tmp_path: Path) -> None:
    (tmp_path / "a.csv").write_text("x:band,value,source\n1,1,estimated\n")
    (tmp_path / "a.toml").write_text("")
    with pytest.raises(DataError, match="two files define table 'a'"):
        TableSet.load_dir(tmp_path)
    with pytest.raises(DataError, match="not a folder"):
        TableSet.load_dir(tmp_path / "nope")


def test_pack_replaces_tables_by_name(tables: TableSet) -> None:
    packed = tables.with_pack(DATA / "pack")
    assert packed.replaced == frozenset({"ap_hit"})
    assert packed["ap_hit"].lookup(ap=14, modifier=-5) == Sourced(
        47, "transcription: fixture pack"
    )
    assert packed["observation_range"] is tables["observation_range"]
    assert tables["ap_hit"].value(ap=14, modifier=-5) == 48  # the original set is unchanged
    report = packed.report(list_estimated=False)
    assert "ap_hit (pack)" in report


def _pack(tmp_path: Path, name: str, text: str) -> Path:
    d = tmp_path / "pack"
    d.mkdir(exist_ok=True)
    (d / name).write_text(text)
    return d


def test_pack_schema_mismatch_names_file_line_and_column(
    tables: TableSet, tmp_path: Path
) -> None:
    d = _pack(tmp_path, "ap_hit.csv",
              "# my pack\nap:band,modifier:label,value:int,source\n13-16,-3,56,MBT 7.4.3\n")
    with pytest.raises(DataError) as info:
        tables.with_pack(d)
    err = info.value
    assert err.path == str(d / "ap_hit.csv") and err.line == 2 and err.key == "modifier"
    assert "must be 'band'" in str(err) and "ap:band,modifier:band,value:int,source" in str(err)


@pytest.mark.parametrize(
    ("header", "column", "needle"),
    [
        ("ap:band,value:int,source", "modifier", "missing"),
        ("ap:band,modifier:band,value:int,extra,source", "extra", "unexpected value column"),
        ("ap:band,modifier:band,level:band,value:int,source", "level", "unexpected key column"),
        ("ap:band,modifier:band,value:float,source", "value", "must be 'value:int'"),
        ("ap:band,modifier:band,value:int?,source", "value", "must be 'value:int'"),
    ],
)
def test_pack_schema_differences(
    tables: TableSet, tmp_path: Path, header: str, column: str, needle: str
) -> None:
    cells = {"ap": "13-16", "modifier": "-3", "value": "56", "extra": "1", "level": "2",
             "source": "estimated"}
    names = [h.split(":")[0].rstrip("?") for h in header.split(",")]
    d = _pack(tmp_path, "ap_hit.csv", header + "\n" + ",".join(cells[n] for n in names) + "\n")
    with pytest.raises(DataError) as info:
        tables.with_pack(d)
    assert info.value.key == column and needle in str(info.value)


def test_pack_errors(tables: TableSet, tmp_path: Path) -> None:
    d = _pack(tmp_path, "ap_hti.csv", "ap:band,modifier:band,value:int,source\n1,1,1,estimated\n")
    with pytest.raises(DataError, match="replaces no shipped table") as info:
        tables.with_pack(d)
    assert "did you mean 'ap_hit'" in str(info.value)
    shutil.rmtree(d)
    d = _pack(tmp_path, "ap_hit.csv",
              "ap:band,modifier:band,value:int,source\n13-16,-3,56,MBT 7.4.3\n13-16,-5--,1,x y\n")
    with pytest.raises(DataError, match="malformed band") as info:
        tables.with_pack(d)
    assert info.value.line == 3 and info.value.key == "modifier"
    shutil.rmtree(d)
    d = _pack(tmp_path, "ap_hit.csv", "ap:band,modifier:band,value:int,source\n13-16,-3,56,\n")
    with pytest.raises(DataError, match="missing source") as info:
        tables.with_pack(d)
    assert info.value.line == 2 and info.value.key == "source"


# -- provenance report -------------------------------------------------------------------------


def test_provenance_report(tables: TableSet) -> None:
    summaries = {s.name: s for s in tables.provenance()}
    ap = summaries["ap_hit"]
    assert (ap.cited, ap.estimated, ap.transcription, ap.total) == (2, 6, 0, 8)
    assert len(ap.estimated_cells) == 6
    cell = ap.estimated_cells[0]
    assert dict(cell.keys) == {"ap": "13-16", "modifier": "-6--4"} and cell.line == 5
    assert "ap_hit[ap=13-16, modifier=-6--4] -> value" in str(cell)
    assert summaries["observation_range"].estimated == 0
    text = tables.report()
    assert "TOTAL" in text and "estimated in ap_hit:" in text
    assert "estimated in observation_range" not in text
    total_line = next(line for line in text.splitlines() if line.startswith("TOTAL"))
    assert total_line.split()[1:] == ["16", "10", "1", "27"]
    short = format_provenance_report(tables.provenance(), limit=2)
    assert "... and 4 more" in short


# -- disclosed numbers -------------------------------------------------------------------------

MBT_DISCLOSED = [
    Disclosed("ap_hit", {"ap": 14, "modifier": -3}, 56, "MBT 7.4.3"),
    Disclosed("ap_hit", {"ap": 18, "modifier": -6}, 59, "MBT 7.4.3"),
    Disclosed("number_of_hits", {"hit": 65, "rof": 4}, 29, "MBT 7.4.4.2", column="hits_2"),
    Disclosed("los_chart", {"height_difference": 2, "line": 4}, "20-24", "Firepower 12.1.4"),
    Disclosed("observation_range", {"terrain": "Clear", "target": "Vehicle"}, 60,
              "Firefight 11.1"),
]


def test_check_disclosed_passes_on_consistent_tables(tables: TableSet) -> None:
    assert check_disclosed(tables, MBT_DISCLOSED) == []
    assert check_disclosed(tables.with_pack(DATA / "pack"), MBT_DISCLOSED) == []


def test_check_disclosed_reports_problems(tables: TableSet, tmp_path: Path) -> None:
    bad = [
        Disclosed("ap_hit", {"ap": 14, "modifier": -3}, 57, "MBT 7.4.3"),
        Disclosed("ap_hit", {"ap": 14, "modifier": -5}, 48, "MBT 7.4.3"),  # marked estimated
        Disclosed("nope", {"x": 1}, 1, "MBT 1.1"),
        Disclosed("ap_hit", {"ap": 99, "modifier": -3}, 1, "MBT 7.4.3"),
        Disclosed("ap_hit", {"ap": 14, "modifier": -3}, 56, "estimated"),
        Disclosed("los_chart", {"height_difference": 7, "line": 13}, "10-13", "Firepower 12.1.4"),
    ]
    problems = check_disclosed(tables, bad)
    texts = [str(p) for p in problems]
    assert len(problems) == 6
    assert "MBT 7.4.3 discloses 57 for ap_hit[ap=14, modifier=-3], but the table holds 56" in (
        texts[0]
    )
    assert problems[0].line == 4 and problems[0].path.endswith("ap_hit.csv")
    assert "marked estimated" in texts[1] and "MBT 7.4.3" in problems[1].hint
    assert "no table 'nope'" in texts[2]
    assert "no row for ap=99" in texts[3]
    assert "no rule reference" in texts[4]
    assert "discloses '10-13'" in texts[5]
    # A pack that changes a disclosed number is caught.
    d = tmp_path / "pack"
    d.mkdir()
    text = (DATA / "pack" / "ap_hit.csv").read_text().replace("17-20,-6--4,59,", "17-20,-6--4,58,")
    (d / "ap_hit.csv").write_text(text)
    problems = check_disclosed(tables.with_pack(d), MBT_DISCLOSED)
    assert len(problems) == 1 and "but the table holds 58" in str(problems[0])
    assert problems[0].path == str(d / "ap_hit.csv")


def test_disclosed_is_hashable() -> None:
    assert len({MBT_DISCLOSED[0], MBT_DISCLOSED[0]}) == 1
    assert MBT_DISCLOSED[0].describe() == "ap_hit[ap=14, modifier=-3] = 56 (MBT 7.4.3)"


# -- records (data cards) ----------------------------------------------------------------------


def test_records_card() -> None:
    rec = load_records(DATA / "cards" / "t80a.toml")
    card = rec.values["t80a"]
    assert card["size"] == -1 and card["speed"] == {"normal": 6}
    assert card["guns"][1] == {"ammo": "HEAT", "max_range": 32}
    assert "source" not in card["speed"] and "source" not in card["guns"][0]
    assert rec.sources["t80a.size"] == "MBT 7.4.2.3.2"  # MBT 7.4.2.3.2: T-80A size -1
    assert rec.sources["t80a.speed.normal"] == "MBT 8.2"  # section default
    assert rec.sources["t80a.guns[0].max_range"] == "MBT 4.7.2"  # array-of-tables default
    assert rec.sources["t80a.weight_tonnes"] == "estimated"  # file default
    assert rec.get("t80a.guns[1].max_range") == Sourced(32, "MBT 4.7.2")
    assert rec.get("t80a.points") == Sourced([80, 40, 20], "MBT 9.4.2.1")
    assert rec.estimated_fields == ["t80a.weight_tonnes"]
    assert rec.count(SourceKind.ESTIMATED) == 1
    assert rec.count(SourceKind.CITED) == len(rec.sources) - 1
    s = rec.summary("t80a")
    assert s.estimated == 1 and s.estimated_cells[0].column == "t80a.weight_tonnes"
    with pytest.raises(DataError, match="no such field"):
        rec.get("t80a.nope")


def test_records_plain_lists_and_default_argument() -> None:
    rec = split_provenance({"a": [1, 2], "b": {"value": 3, "source": "MBT 1.1", "note": "x"}},
                           default_source="estimated")
    assert rec.values == {"a": [1, 2], "b": 3}
    assert rec.sources == {"a[0]": "estimated", "a[1]": "estimated", "b": "MBT 1.1"}
    assert isinstance(rec, Records)


@pytest.mark.parametrize(
    ("tree", "key", "needle"),
    [
        ({"unit": {"speed": 6}}, "unit.speed", "missing source"),
        ({"unit": {"speed": {"value": 6}}}, "unit.speed", "missing source"),
        ({"unit": {"source": "Estimated", "speed": 6}}, "unit.source", "malformed source"),
        ({"unit": {"speed": {"value": 6, "source": "MBT"}}}, "unit.speed", "malformed source"),
        ({"unit": {"source": 3, "speed": 6}}, "unit.source", "must be a string"),
        ({"guns": [{"range": 3}]}, "guns[0].range", "missing source"),
    ],
)
def test_records_errors_name_the_dotted_key(tree: dict[str, object], key: str, needle: str) -> None:
    with pytest.raises(DataError) as info:
        split_provenance(tree, path="card.toml")
    assert info.value.key == key and needle in str(info.value) and "card.toml" in str(info.value)


def test_records_file_errors(tmp_path: Path) -> None:
    p = tmp_path / "c.toml"
    p.write_text("a = \n")
    with pytest.raises(DataError, match="invalid TOML"):
        load_records(p)
    with pytest.raises(DataError, match="cannot read"):
        load_records(tmp_path / "missing.toml")
    with pytest.raises(DataError, match="malformed source"):
        split_provenance({"a": 1}, default_source="guess")


def _bands_from_cuts(cuts: list[int]) -> list[Band]:
    edges = sorted(set(cuts))
    return [Band(a, b - 1) for a, b in itertools.pairwise(edges)]


@given(
    st.lists(st.integers(-30, 30), min_size=2, max_size=8, unique=True),
    st.lists(st.integers(-30, 30), min_size=2, max_size=8, unique=True),
    st.lists(st.tuples(st.integers(-35, 35), st.integers(-35, 35)), max_size=30),
)
def test_indexed_lookup_matches_a_linear_scan(
    xs: list[int], ys: list[int], probes: list[tuple[int, int]]
) -> None:
    xb, yb = _bands_from_cuts(xs), _bands_from_cuts(ys)
    lines = ["x:band,y:band,value:int,source"]
    expected: dict[tuple[Band, Band], int] = {}
    for i, bx in enumerate(xb):
        for j, by in enumerate(yb):
            expected[(bx, by)] = 100 * i + j
            lines.append(f"{bx},{by},{100 * i + j},estimated")
    t = csv_table("\n".join(lines))
    for x, y in probes + probes:  # twice: the second pass reads the memo
        hits = [v for (bx, by), v in expected.items() if x in bx and y in by]
        if hits:
            assert t.value(x=x, y=y) == hits[0]
        else:
            with pytest.raises(TableLookupError):
                t.value(x=x, y=y)


def test_load_records_dir(tmp_path: Path) -> None:
    shutil.copy(DATA / "cards" / "t80a.toml", tmp_path / "t80a.toml")
    (tmp_path / "m1.toml").write_text('source = "estimated"\n[m1]\nspeed = 6\n')
    (tmp_path / "readme.txt").write_text("not a card")
    cards = load_records_dir(tmp_path)
    assert sorted(cards) == ["m1", "t80a"]
    assert cards["m1"].get("m1.speed") == Sourced(6, "estimated")
    with pytest.raises(DataError, match="not a folder"):
        load_records_dir(tmp_path / "nope")


# -- wide (grid) CSV ---------------------------------------------------------------------------


def test_grid_csv_is_the_same_table_as_long_form(tables: TableSet) -> None:
    grid = load_table(DATA / "grid_pack" / "ap_hit.csv")
    assert grid.schema == tables["ap_hit"].schema
    assert grid.lookup(ap=14, modifier=-3) == Sourced(56, "MBT 7.4.3")
    assert grid.lookup(ap=18, modifier=-6) == Sourced(59, "MBT 7.4.3")
    assert grid.lookup(ap=15, modifier=-1) == Sourced(61, "transcription: fixture grid")
    assert grid.title.startswith("the same chart as a grid")
    with pytest.raises(TableLookupError):  # a blank grid cell is no entry
        grid.value(ap=18, modifier=3)
    assert len(grid) == 7 and grid.find_row({"ap": 14, "modifier": -1}).line == 4
    packed = tables.with_pack(DATA / "grid_pack")
    assert packed.replaced == {"ap_hit"} and check_disclosed(packed, MBT_DISCLOSED) == []


def test_grid_csv_label_pivot_and_default_value_column() -> None:
    # Firefight 11.1 printed as its two columns.
    t = csv_table(
        "terrain:label,target:label=Personnel,target:label=Vehicle,source\n"
        "Clear,20,60,Firefight 11.1\nForest,5,10,Firefight 11.1\n"
    )
    assert t.value(terrain="Forest", target="Vehicle") == 10
    assert t.value_names == ("value",) and t.schema.value("value").type == "auto"


@pytest.mark.parametrize(
    ("text", "line", "key", "needle"),
    [
        ("a:band,m=1,source\n1,2,estimated\n", 1, "m=1", "must name its key and kind"),
        ("a:band,m:band=1,n:band=2,source\n1,2,3,estimated\n", 1, "n:band=2", "another key"),
        ("a:band,m:band=1-,source\n1,2,estimated\n", 1, "m:band=1-", "malformed band"),
        ("a:band,m:band=1,m:band=1-2,source\n1,2,3,estimated\n", 2, None, "rows overlap"),
        ("a:band,m:band=1,source\n1,2,\n", 2, "m:band=1", "missing source"),
        ("a:band,m:band=1,source\n1,2 | est.,MBT 1.1\n", 2, "m:band=1", "malformed source"),
        ("# value: v:int\na:band,m:band=1,source\n1,x,estimated\n", 3, "m:band=1", "valid int"),
        ("# value: v:intt\na:band,m:band=1,source\n1,2,estimated\n", 1, "v", "unknown column"),
        ("a:band,m:band=1,extra,source\n1,2,3,estimated\n", 1, "extra", "in a grid table"),
        ("m:band,m:band=1,source\n1,2,estimated\n", 1, "m", "both a column and a grid key"),
        ("a:band,m:band=1,source\n1,,estimated\n", 1, None, "no cells"),
        ("a:band,m:band=1,source\n1,2\n", 2, None, "2 cells but the header has 3"),
    ],
)
def test_grid_csv_errors(text: str, line: int, key: str | None, needle: str) -> None:
    with pytest.raises(DataError) as info:
        csv_table(text, "grid")
    err = info.value
    assert (err.path, err.line, err.key) == ("grid.csv", line, key) and needle in str(err)
