"""MBT 15.3.2.5 (MBTD-172) and MBT 14.7.2.1.1.3: who gives overrun defensive fire."""

from __future__ import annotations

from typing import Any

import pytest

from hexwar.plugins.mbt.advanced_movement import overrun_step
from hexwar.plugins.mbt.state import data

ADV = ["mbt.advanced"]


def _answer(d: Any) -> Any:
    if d.kind == "mbt.move_unit" and "N1" in d.options:
        return "N1"
    if d.kind == "mbt.overrun":
        return "T1"
    for o in ("done", "stay", "pass"):
        if o in d.options:
            return o
    return d.options[0]


def _overrun_log(make_game: Any, run: Any, dice_faces: Any, **state: Any) -> list[Any]:
    g = make_game([("N1", "M1", "NATO", "9J5", 4), ("T1", "Rifle Team", "Soviet", "9J8", 1)],
                  options=ADV)
    data(g)["sighted"] = {"N1": ["T1"]}
    n1, t1 = g.state.units["N1"], g.state.units["T1"]
    n1.state["order"] = "OR"
    t1.state.update({k: (g.state.turn if v == "now" else v) for k, v in state.items()})
    g.dice.force(*dice_faces(1, 50))
    run(overrun_step(g), _answer)
    return [e for e in g.log.for_side(None) if e.get("what") in ("overrun defensive fire",
                                                                 "overrun fire")]


@pytest.mark.parametrize(("order", "defends"), [("FM", False), ("M", True)])
def test_a_unit_unloaded_from_a_fire_move_carrier_gives_no_defensive_fire_15_3_2_5(
        make_game: Any, run: Any, dice_faces: Any, order: str, defends: bool) -> None:
    """MBT 15.3.2.5: a team unloaded this Turn from a carrier with FM orders (its orders, MBT
    15.3.3.1) may not fire, so it gives no overrun defensive fire; unloaded from an M carrier it
    still fires (its small arms; attached weapons not, MBT 14.7.2.1.1.2)."""
    log = _overrun_log(make_game, run, dice_faces, unloaded="now", order=order)
    assert ("overrun defensive fire" in [e["what"] for e in log]) is defends
    assert "overrun fire" in [e["what"] for e in log]


def test_a_unit_in_full_cover_fires_first_in_an_overrun_14_7_2_1_1_3(
        make_game: Any, run: Any, dice_faces: Any) -> None:
    """MBT 14.7.2.1.1.3: a team in full cover gives overrun defensive fire, as first fire when it
    is not suppressed."""
    log = _overrun_log(make_game, run, dice_faces, full_cover=True)
    assert log and log[0]["what"] == "overrun defensive fire" and log[0]["first_fire"] is True
