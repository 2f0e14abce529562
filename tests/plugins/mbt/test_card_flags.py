"""What a data card's NOTES say about its vehicle, as flags of ``[card]`` (docs/decisions.md
MBTD-184, MBTD-185): MBT 15.4.1.2, a vehicle kept out of buildings."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from hexwar.core.errors import DataError
from hexwar.plugins.mbt import buildings
from hexwar.plugins.mbt.cards import load_card

ADV = ["mbt.advanced"]
SHIPPED = Path(__file__).resolve().parents[3] / "plugins/mbt/data/cards/usa-1a_m1.toml"
NOTES = 'notes = ["stand-in card'


def _card_text(line: str) -> str:
    text = SHIPPED.read_text(encoding="utf-8")
    assert NOTES in text
    return text.replace(NOTES, f"{line}\n{NOTES}", 1)


def test_a_vehicle_marked_out_of_buildings_never_goes_inside_15_4_1_2(
        make_game: Any, tmp_path: Path) -> None:
    """MBT 15.4.1.2 (MBTD-185): an M1 whose card is marked ``enters_buildings = false`` is
    refused going inside the buildings of its hex, naming the rule; the shipped card is not."""
    folder = tmp_path / "cards"
    folder.mkdir()
    (folder / "m1.toml").write_text(_card_text("enters_buildings = false"), encoding="utf-8")
    units = [("N1", "M1", "NATO", "9J10", 1), ("S1", "T-80A", "Soviet", "9J14", 4)]
    kept = make_game(units, options=ADV, terrain={"9J10": "brick"}, special='cards = "cards"')
    shipped = make_game(units, options=ADV, terrain={"9J10": "brick"})
    for g in (kept, shipped):
        g.state.units["N1"].state["order"] = "M"
    err = buildings.inside_error(kept, kept.state.units["N1"], Fraction(2))
    assert err is not None and "MBT 15.4.1.2" in err and "may not enter" in err
    assert buildings.inside_error(shipped, shipped.state.units["N1"], Fraction(2)) is None


def test_the_buildings_flag_is_true_or_false_15_4_1_2(tmp_path: Path) -> None:
    """MBT 15.4.1.2 (MBTD-185): ``enters_buildings`` that is not a boolean is refused at load,
    naming the key and the rule."""
    bad = tmp_path / "bad.toml"
    bad.write_text(_card_text('enters_buildings = "no"'), encoding="utf-8")
    with pytest.raises(DataError, match=r"enters_buildings.*MBT 15.4.1.2"):
        load_card(bad)
