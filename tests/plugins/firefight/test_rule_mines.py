"""Firefight 18 mines (and the Addenda friendly minefields), Firefight 25 artillery-delivered mines."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from hexwar.core.engine.game import Game
from hexwar.core.errors import RulesError
from hexwar.plugins.firefight import indirect as IF
from hexwar.plugins.firefight import movement as MV
from hexwar.plugins.firefight import state as ST
from hexwar.plugins.firefight.rules import artillery_mines as AM
from hexwar.plugins.firefight.rules import mines as MN
from hexwar.plugins.firefight.tables import ff_data
from hexwar.plugins.firefight.testing import mini_game as _mini_game

_N = [0]
RULES = ["firefight.mines"]


def mini_game(tmp_path: Path, *a: Any, **kw: Any) -> Game:
    _N[0] += 1
    d = tmp_path / f"g{_N[0]}"
    d.mkdir()
    return _mini_game(d, *a, **kw)


def U(uid: str, t: str, side: str, hx: str) -> dict[str, Any]:
    return {"id": uid, "type": t, "side": side, "hex": hx}


def _game(tmp_path: Path, **kw: Any) -> Game:
    units = [U("t62", "SU-T62", "SU", "1009"), U("tm", "SU-TM", "SU", "1209"),
             U("m60", "US-M60A1", "US", "1001"), U("ustm", "US-TM", "US", "0809")]
    return mini_game(tmp_path, units, [{"at": "1010", "terrain": "forest"}], rules=kw.pop(
        "rules", RULES), **kw)


def enter(g: Game, uid: str, to: str) -> list[dict[str, Any]]:
    u = g.state.units[uid]
    u.state.update(moved=True, mp=MV.movement_allowance(u), steps=0)
    MV.do_step(g, u, to)
    return MN.enter_mined_hex(g, uid, to)


def test_ff_106_mines(tmp_path: Path) -> None:
    g = _game(tmp_path)
    assert g.state.turn == 0 and g.pending is not None and g.pending.kind == "firefight.mines"
    assert MN.mine_points(g, "US") == 10  # Firefight 18.0: default
    assert MN.emplace_problem(g, "US", {"1010": 11}) is not None
    MN.emplace(g, "US", {"1010": 4, "1210": 6})
    # a roll whose Anti-Armor cell at AR 4 is ignored in Forest: mines give no such benefit
    cells = ff_data().crt["anti_armor"]
    roll = next((r for r in range(2, 13) if cells[(4, r)][0] != "-"
                 and "forest" in cells[(4, r)][1]), None)
    g.state.turn = 1
    if roll is not None:
        g.dice.force(roll - 1, 1) if roll > 2 else g.dice.force(1, 1)
    out = enter(g, "t62", "1010")
    assert out[0]["ar"] == 4 and out[0]["result"] == cells[(4, out[0]["roll"])][0]
    # personnel: the Anti-Personnel CRT
    r = out[0]["roll"]
    g.dice.force(r - 1 if r > 2 else 1, 1)
    out2 = enter(g, "tm", "1210")
    assert out2[0]["ar"] == 6
    assert out2[0]["result"] == ff_data().crt["anti_personnel"][(6, out2[0]["roll"])][0]
    # Firefight 18.0: only before play
    with pytest.raises(RulesError):
        MN.emplace(g, "US", {"2020": 1})
    # the points stay secret to their owner until announced
    shown = MN.firefight_describe(g, "SU")["minefields"]
    own = MN.firefight_describe(g, "US")["minefields"]
    assert {f["hex"]: f["points"] for f in own} == {"1010": 4, "1210": 6}
    assert all(f["points"] is None for f in shown) and len(shown) == 2


def test_ff_107_friendly_minefields_and_permanence(tmp_path: Path) -> None:
    assert not MN.attacks_unit(5, "US", "US", True)
    assert MN.attacks_unit(6, "US", "US", True)
    assert MN.attacks_unit(1, "US", "SU", True)
    assert MN.attacks_unit(1, "US", "US", False)  # without the option mines hit everyone
    g = _game(tmp_path, special={"friendly_minefields": True, "mines": {"US": 11, "SU": 2}})
    MN.emplace(g, "US", {"0810": 5, "0710": 6})
    MN.emplace(g, "SU", {"0808": 2})
    g.state.turn = 1
    assert enter(g, "ustm", "0810") == []  # own 5-point hex
    g.state.units["ustm"].hex = g.board.parse("0809")
    g.state.units["ustm"].state.pop("steps")
    g.dice.force(6, 6)
    assert len(enter(g, "ustm", "0710")) == 1  # own 6-point hex: attacked (Firefight Addenda)
    g.dice.force(6, 6)
    assert len(MN.enter_mined_hex(g, "t62", "0810")) == 1  # the enemy always
    assert MN.fields(g)["0810"]["points"] == 5 and MN.fields(g)["0710"]["points"] == 6


def test_dummy_is_not_attacked_by_mines(tmp_path: Path) -> None:
    g = mini_game(tmp_path, [U("d", "SU-Dummy", "SU", "1009"), U("m60", "US-M60A1", "US", "1001")],
                  rules=["firefight.mines", "firefight.observation", "firefight.dummies"])
    MN.emplace(g, "US", {"1010": 5})
    g.state.units["d"].state["dummy"] = True
    assert MN.enter_mined_hex(g, "d", "1010") == []


def test_ff_119_artillery_mines(tmp_path: Path) -> None:
    g = mini_game(tmp_path, [U("obs", "US-TM", "US", "1005"), U("t62", "SU-T62", "SU", "1019")],
                  special={"indirect": [{"id": "p", "type": "155mm", "side": "US",
                                         "status": "organic"},
                                        {"id": "mo", "type": "81mm", "side": "US",
                                         "status": "organic"}]},
                  rules=["firefight.mines", "firefight.artillery_mines"])
    assert "mines" in IF.mission_kinds(g, "US", "p")
    assert "mines" not in IF.mission_kinds(g, "US", "mo")  # Firefight 25.0 155mm only
    g.state.turn, g.state.phase = 2, "firefight.if_request"
    m = IF.request(g, "US", "p", "1020", kind="mines")
    g.state.turn, g.state.phase = m["impact_turn"], "firefight.if_execute"
    IF.place(g, "p", "1020")
    c = g.board.parse("1020")
    assert set(MN.artillery_fields(g)) == {g.board.label(h) for h in c.within(1)}
    assert set(MN.artillery_fields(g).values()) == {AM.ARTILLERY_MINE_AR} == {8}
    assert ST.ff(g)["impacts"] == []
    t62 = g.state.units["t62"]
    t62.state.update(moved=True, mp=3.0, steps=0)
    t62.hex = g.board.parse("1018")
    MV.do_step(g, t62, "1019")  # a neighbour of the impact hex
    res = MN.enter_mined_hex(g, "t62", "1019")
    assert len(res) == 1 and res[0]["ar"] == 8


def test_scenario_points_and_default_plan(tmp_path: Path) -> None:
    g = _game(tmp_path, special={"mines": {"SU": 30}})
    assert (MN.mine_points(g, "SU"), MN.mine_points(g, "US")) == (30, 0)  # Scn 6 style
    d = g.pending
    assert d is not None and d.kind == "firefight.mines" and d.side == "SU"
    plan = MN.forward_plan(g, "SU")
    assert sum(plan.values()) == 30 and max(plan.values()) == 5 and plan in (d.options or [])
    assert MN.emplace_problem(g, "SU", plan) is None
