"""Every installed adapter's conversion tables against their provenance (issue 13): each value of
each table an adapter registers is either ``estimated`` (a modelling choice: the rulebooks never
compare two systems) or cites a rule of one of the two systems the adapter bridges, and each
table file's comment lines name the rules or the decision its choices rest on. Runs over whatever
adapters are installed: the shipped ones and the example package's (docs/plugin-guide.md)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from hexwar.core.manager import installed_plugins
from hexwar.core.tables.tableset import TableSet
from hexwar.core.types import DataSource

_TITLES = {"firefight": "Firefight", "mbt": "MBT", "firepower": "Firepower", "skirmish": "Skirmish"}


def _adapters() -> list[str]:
    return sorted(n for n, p in installed_plugins().items() if p.manifest.kind == "adapter")


def _table_sources(name: str) -> list[DataSource]:
    module = installed_plugins()[name].module
    register = getattr(module, "hexwar_register_data", None)
    assert register is not None, f"adapter {name} registers no data"
    return [s for s in register() if s.kind == "tables"]


def test_the_shipped_and_example_adapters_are_all_checked() -> None:
    assert {"firefight_mbt", "firefight_firepower", "firepower_mbt",
            "skirmish_firefight"} <= set(_adapters())


@pytest.mark.parametrize("name", _adapters())
def test_every_conversion_value_is_estimated_or_cites_a_bridged_system(name: str) -> None:
    bridged = [_TITLES.get(s, s) for s in installed_plugins()[name].manifest.bridges]
    citation = re.compile(rf"^({'|'.join(map(re.escape, bridged))}) \d+(\.\d+)*$")
    sources = _table_sources(name)
    assert sources, f"adapter {name} registers no conversion tables"
    for source in sources:
        tables = TableSet.load_dir(source.path)
        assert tables, source.path
        for table in tables.values():
            cells = list(table.cells())
            assert cells, table.name
            for _row, column, s in cells:
                text = str(s.source)
                assert text == "estimated" or citation.match(text), (name, table.name, column, text)


@pytest.mark.parametrize("name", _adapters())
def test_every_table_file_says_what_its_choices_rest_on(name: str) -> None:
    bridged = [_TITLES.get(s, s) for s in installed_plugins()[name].manifest.bridges]
    grounds = re.compile(rf"(CORE-\d+|({'|'.join(map(re.escape, bridged))}) \d+(\.\d+)*)")
    for source in _table_sources(name):
        for csv in sorted(Path(source.path).glob("*.csv")):
            notes = "\n".join(line for line in csv.read_text(encoding="utf-8").splitlines()
                              if line.startswith("#"))
            assert grounds.search(notes), (name, csv.name)
