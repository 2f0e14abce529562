"""The MBT AI's transports (MBTD-120): a carrier with squads aboard steers for good cover near the
known enemy or an objective not held, and sets them down there (MBT 15.3.2)."""

from __future__ import annotations

from typing import Any

import pytest

from hexwar.core.engine.decisions import Decision
from hexwar.plugins.mbt import transport
from hexwar.plugins.mbt.ai import MbtAI

ADV = ["mbt.advanced"]


def _ask(g: Any, side: str, kind: str, options: list[Any], **context: Any) -> Any:
    return MbtAI(side, 1).choose(Decision(side, kind, options=options, context=context),
                                 g.view(side))


def _carrier(make_game: Any, *, loaded: bool) -> Any:
    """A NATO APC at 9J16, a known T-72 at 9J2, woods at 9I14 (12 hexes off) and clear at 9J9."""
    g = make_game([("C1", "Transport APC", "NATO", "9J16", 1),
                   ("R1", "Rifle Squad", "NATO", "9J16", 1),
                   ("S1", "T-72M1", "Soviet", "9J2", 4)], options=ADV, terrain={"9I14": "woods"})
    c1, r1 = g.state.units["C1"], g.state.units["R1"]
    c1.state["order"] = r1.state["order"] = "M"
    if loaded:
        transport.load(g, c1, r1)
    return g


@pytest.mark.parametrize(("loaded", "goes"), [(True, "9I14"), (False, "9J9")])
def test_a_carrier_with_squads_steers_for_cover_near_the_enemy_15_3_2(
        make_game: Any, loaded: bool, goes: str) -> None:
    """MBTD-120: with a squad aboard, the APC picks the woods 12 hexes from the known T-72 over
    the open hex 7 hexes from it (closer to its goal); empty, it closes in as before."""
    g = _carrier(make_game, loaded=loaded)
    assert "S1" in g.view("NATO").units
    enemy = g.state.units["S1"].hex
    assert [g.board.parse(h).distance(enemy) for h in ("9I14", "9J9")] == [12, 7]
    got = _ask(g, "NATO", "mbt.move_to", [["9J9", 1], ["9I14", 1]], unit="C1")
    assert got[0] == goes


def test_squads_are_set_down_in_cover_near_an_objective_not_held_15_3_2(
        make_game: Any, monkeypatch: Any) -> None:
    """MBTD-120: with no enemy known, a carrier that ended its move in woods within 3 hexes of an
    objective its side does not hold sets its squad down; two hexes farther, it keeps it."""
    g = make_game([("C1", "Transport APC", "NATO", "9J12", 1),
                   ("R1", "Rifle Squad", "NATO", "9J12", 1),
                   ("S1", "T-72M1", "Soviet", "9A1", 4)], options=ADV,
                  terrain={"9J12": "woods", "9A1": "woods"})
    c1, r1 = g.state.units["C1"], g.state.units["R1"]
    c1.state["order"] = r1.state["order"] = "M"
    transport.load(g, c1, r1)
    info = g.view("NATO").rules.info
    for obj, unloads in (("9J9", True), ("9J7", False)):
        monkeypatch.setattr(info, "objectives", [g.board.parse(obj)])
        assert "S1" not in g.view("NATO").units
        got = _ask(g, "NATO", "mbt.transport", ["done", ["unload", "R1"]], unit="C1",
                   when="after")
        assert got == (["unload", "R1"] if unloads else "done"), obj
