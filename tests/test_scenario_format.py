"""docs/scenario-format.md names every key of the scenario format, the core's and each built-in
system's, and no other: its "Every key" lists are compared with the shapes the validator checks
(issue 9, item 7), so the document cannot drift from the code."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from hexwar.core.scenario import core_key_paths, load_and_validate, shape_paths

DOC = (Path(__file__).parents[1] / "docs" / "scenario-format.md").read_text(encoding="utf-8")
TABLES = ("scenario", "sides", "board", "units", "victory", "setup", "special", "reinforcements")
PATH = re.compile(r"`((?:" + "|".join(TABLES) + r")(?:\[\])?(?:\.(?:<[^>`]+>|[a-z_0-9]+)(?:\[\])?)*)`")


def documented() -> dict[str, set[str]]:
    """The key paths of each ``###`` part of the "Every key" section."""
    section = DOC.split("## Every key", 1)[1].split("\n## ", 1)[0]
    parts = re.split(r"^### (.+)$", section, flags=re.M)
    return {name.strip(): set(PATH.findall(body)) for name, body in zip(parts[1::2], parts[2::2],
                                                                          strict=True)}


def system_paths(shapes: dict[str, Any]) -> set[str]:
    return set().union(*(shape_paths(shape, part) for part, shape in shapes.items()))


def _systems() -> dict[str, Any]:
    from hexwar.plugins.firefight.plugin import scenario_shapes as firefight
    from hexwar.plugins.firepower.plugin import scenario_shapes as firepower
    from hexwar.plugins.mbt.setup import scenario_shapes as mbt

    return {"Firefight": firefight, "MBT": mbt, "Firepower": firepower}


def test_the_core_keys_are_documented_exactly() -> None:
    assert documented()["Core"] == core_key_paths()


@pytest.mark.parametrize("system", ["Firefight", "MBT", "Firepower"])
def test_each_systems_keys_are_documented_exactly(system: str) -> None:
    doc = documented()[system]
    code = system_paths(_systems()[system]())
    assert sorted(doc - code) == [], "documented but not accepted"
    assert sorted(code - doc) == [], "accepted but not documented"


def test_the_document_has_a_part_for_the_core_and_every_built_in_system() -> None:
    assert set(documented()) == {"Core", *_systems()}


def _write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "scenario.toml"
    path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.parametrize(("table", "key"), [("[sides.US]", "nmae = \"U.S.\""),
                                            ("[special]", "dragon = 2"),
                                            ("[victory]", "edgee = \"north\"")])
def test_a_key_the_document_does_not_name_is_refused(tmp_path: Path, table: str, key: str) -> None:
    """The lists are the whole format: a key outside them is an error, not ignored (here in
    Firefight's own tables, the sides table included)."""
    from hexwar.core.errors import DataError

    base = (Path(__file__).parents[1] / "plugins" / "firefight" / "scenarios" / "scenario1.toml")
    text = base.read_text(encoding="utf-8").replace(table, f"{table}\n{key}", 1)
    assert table in base.read_text(encoding="utf-8")
    (tmp_path / "scenario1.toml").write_text(text, encoding="utf-8")
    with pytest.raises(DataError) as err:
        load_and_validate(tmp_path / "scenario1.toml")
    assert key.split(" ", 1)[0] in str(err.value)
