"""The Advanced Game data files of MBT (``data/advanced/``): the generator reproduces the stand-in
LINE OF SIGHT CHART byte for byte, the numbers the text prints are there and cited, and every
other value is marked estimated."""

from __future__ import annotations

import importlib.util
from pathlib import Path

from hexwar.core.tables import TableSet
from hexwar.plugins.mbt.advanced_tables import ADVANCED, load_advanced
from hexwar.plugins.mbt.cards import load_cards

ROOT = Path(__file__).resolve().parents[3]


def test_los_chart_is_what_the_generator_writes(tmp_path: Path) -> None:
    spec = importlib.util.spec_from_file_location("mbt_build_advanced",
                                                  ROOT / "tools" / "mbt" / "build_advanced.py")
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    for f in mod.write(tmp_path):
        assert f.read_bytes() == (ADVANCED / f.name).read_bytes(), f.name


def test_disclosed_line_of_the_los_chart_is_cited() -> None:
    """MBT 13.2.1.4.1-13.2.1.4.2: column 5, line 4: ranges 12-15-15, column 4 10-12-12."""
    numbers, line = load_advanced().los_cell(5, 13, 4)
    assert (line.low, line.high, numbers, line.source) == (12, 15, (10, 12, 12), "MBT 13.2.1.4.1")
    others = [x for lines in load_advanced().los.values() for x in lines if x is not line]
    assert others and all(x.source == "estimated" for x in others)


def test_gp_results_table_keeps_the_printed_example() -> None:
    """MBT 14.4.4.1: 23 GP factors against a defense of 5, a modified 72 suppresses."""
    n, s, src = load_advanced().gp_thresholds(23, 5)
    assert n < 72 <= s and src == "estimated"


def test_printed_modifiers_are_cited() -> None:
    g = load_advanced().general
    assert {k: (v.value, v.source) for k, v in g.items()} == {
        "other_smoke_per_hex": (-10, "MBT 14.3.1.1.1"), "firer_suppressed": (-10, "MBT 14.3.1.1.2"),
        "transported_firer": (-5, "MBT 14.3.1.1.3"), "per_crew_loss": (-4, "MBT 14.3.1.1.4")}


def test_every_card_has_its_advanced_facts() -> None:
    """Each shipped vehicle card has a line in vehicles.csv (smoke makers, MBT 12.6; stand-in),
    each leg card its GP defense for every terrain and status (MBT 14.4.3.2)."""
    cards = load_cards()
    assert {n for n, c in cards.items() if c.kind == "vehicle"} <= set(load_advanced().smoke_ds)
    legs = [n for n, c in cards.items() if c.kind == "leg"]
    assert legs
    defense = load_advanced().leg_defense
    for n in legs:
        for status in ("FC", "NM", "MV"):
            assert (n, "clear", status) in defense and (n, "woods", status) in defense
    table = TableSet.load_dir(ADVANCED)["vehicles"]
    assert {r.sources[0] for r in table.rows} == {"estimated"}
