"""Indirect fire optional rules: Firefight 14 smoke, Firefight 19 suppressive fire, Firefight 21
dedicated battery, Firefight 22 scatter, Firefight 25 artillery-delivered mines."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from hexwar.core.engine.game import Game
from hexwar.core.errors import RulesError
from hexwar.plugins.firefight import fire as FI
from hexwar.plugins.firefight import indirect as IF
from hexwar.plugins.firefight import movement as MV
from hexwar.plugins.firefight import sighting as SI
from hexwar.plugins.firefight import state as ST
from hexwar.plugins.firefight.rules import dedicated_battery as DB
from hexwar.plugins.firefight.rules import scatter as SC
from hexwar.plugins.firefight.rules import smoke as SM
from hexwar.plugins.firefight.rules import suppressive_fire as SUP
from hexwar.plugins.firefight.rules._common import rstate
from hexwar.plugins.firefight.testing import fresh_mini_game as mini_game
from hexwar.plugins.firefight.testing import unit_spec as U


def if_game(tmp_path: Path, ind: list[dict[str, str]], rules: list[str],
            extra: list[dict[str, Any]] | None = None, **kw: Any) -> Game:
    units = [U("obs", "US-TM", "US", "1005"), U("su", "SU-TM", "SU", "1010"), *(extra or [])]
    return mini_game(tmp_path, units, special={"indirect": ind}, rules=rules, **kw)


def unit(uid: str, t: str, status: str = "organic", side: str = "US") -> dict[str, str]:
    return {"id": uid, "type": t, "side": side, "status": status}


def request(g: Game, uid: str, hexl: str, **kw: Any) -> dict[str, Any]:
    g.state.phase = "firefight.if_request"
    return IF.request(g, "US", uid, hexl, **kw)


def due_now(g: Game, uid: str) -> dict[str, Any]:
    m: dict[str, Any] = IF.if_units(g)[uid]["mission"]
    g.state.turn = int(m["impact_turn"])
    g.state.phase = "firefight.if_execute"
    return m


# ---------------------------------------------------------------------------------------------
# Firefight 14: smoke
# ---------------------------------------------------------------------------------------------


def test_ff_98_smoke_removal_roll() -> None:
    assert [SM.smoke_removed(r) for r in range(1, 7)] == [True, True, False, False, False, False]


def test_ff_98_removal_phase(tmp_path: Path) -> None:
    g = if_game(tmp_path, [], ["firefight.smoke"])
    SM.place_smoke(g, "1020", "US", "test", "Firefight 14.0")
    SM.place_smoke(g, "3020", "US", "test", "Firefight 14.0")
    g.dice.force(2, 5)
    list(SM.smoke_removal(g))
    assert [m["hex"] for m in rstate(g, "smoke")["markers"]] == ["3020"]


def test_ff_99_smoke_area_los_protection(tmp_path: Path) -> None:
    g = if_game(tmp_path, [unit("m", "81mm")], ["firefight.smoke"],
                extra=[U("t62", "SU-T62", "SU", "1030"), U("m60", "US-M60A1", "US", "1040"),
                       U("wood", "SU-TM", "SU", "2030")],
                hexes=[{"at": "2030", "terrain": "forest"}])
    x = g.board.parse("1020")
    assert len(SM.smoke_area(x)) == 7 and SM.smoke_area(x) == set(x.within(1))
    assert SI.has_los(g, g.board.parse("1005"), g.board.parse("1030"))
    assert "smoke" in IF.mission_kinds(g, "US", "m")
    request(g, "m", "1020", kind="smoke")
    due_now(g, "m")
    IF.place(g, "m", "1020")
    assert ST.ff(g)["impacts"] == []  # a Smoke Marker, not an Impact Marker (Firefight 14.0)
    assert SM.smoke_hexes_of(g) == SM.smoke_area(x)
    assert not SI.has_los(g, g.board.parse("1005"), g.board.parse("1030"))  # Firefight 14.11
    # Firefight 14.12: a unit in a smoke hex: the Forest filter; on Forest nothing more
    su = g.state.units["su"]
    su.hex = g.board.parse("1021")
    att = FI.describe_attack(g, g.state.units["obs"], su, FI.weapons(g, g.state.units["obs"], su)[0],
                            "direct")
    assert FI.resolve_attack(g, att, 7)["filters"] == ["forest"]
    SM.place_smoke(g, "2030", "US", "test", "Firefight 14.0")
    wood = g.state.units["wood"]
    att2 = FI.describe_attack(g, g.state.units["m60"], wood,
                             FI.weapons(g, g.state.units["m60"], wood)[0], "direct")
    assert FI.resolve_attack(g, att2, 7)["filters"] == ["forest"]
    # Firefight 14.13: movement unchanged; (Firefight 14.14) overlapping smoke is one smoke
    t62 = g.state.units["t62"]
    assert MV.step_cost(g, g.board, t62, g.board.parse("1022"), g.board.parse("1021")) == 1.0
    SM.place_smoke(g, "1021", "US", "test", "Firefight 14.0")
    assert SM.smoke_hexes_of(g) == SM.smoke_area(x) | SM.smoke_area(g.board.parse("1021")) | \
        SM.smoke_area(g.board.parse("2030"))


# ---------------------------------------------------------------------------------------------
# Firefight 19: suppressive fire
# ---------------------------------------------------------------------------------------------


def test_ff_108_suppressive(tmp_path: Path) -> None:
    g = if_game(tmp_path, [unit("q", "4.2in")], ["firefight.suppressive_fire"])
    g.state.turn = 3
    m = request(g, "q", "1010", kind="suppressive")  # not on the Target List: TOO 4
    assert m["impact_turn"] == 3 + (4 - 2)  # Firefight 19.0
    assert SUP.suppressive_delay(2) == 1  # docs/decisions.md FFD-29: at least one turn
    due_now(g, "q")
    h = g.board.parse("1020")
    g.dice.force(3, 1)  # odd: two hexes, direction die 1
    assert h.distance(IF.scatter(g, "q", h)) == 2
    g.dice.force(4, 1)  # even: one hex
    assert h.distance(IF.scatter(g, "q", h)) == 1
    IF.place(g, "q", "1020")
    # its Continuous Fire always scatters too (Firefight 19.0)
    g.state.phase = "firefight.if_request"
    c = IF.request(g, "US", "q", "1020", continuous=True)
    assert SUP.is_suppressive(g, c)
    due_now(g, "q")
    g.dice.force(2, 3)
    assert h.distance(IF.scatter(g, "q", h)) == 1


# ---------------------------------------------------------------------------------------------
# Firefight 21: dedicated battery
# ---------------------------------------------------------------------------------------------

DED = ["firefight.dedicated_battery", "firefight.scatter", "firefight.suppressive_fire"]


def _ded_game(tmp_path: Path) -> Game:
    g = if_game(tmp_path, [unit("p1", "155mm", "direct"), unit("p2", "155mm", "direct")], DED)
    for k in ("p1", "p2"):
        IF.if_units(g)[k]["status"] = "dedicated"
    ST.ff(g)["target_list"] = {"US": ["1010", "1012"]}
    rstate(g, "dedicated")["priority"] = ["1010"]
    return g


def test_dedicated_data_is_cited() -> None:
    t = DB.table()
    assert t["delay"]["source"]["priority"] == "Firefight 21.2"
    assert (t["first_impact"]["impact"], t["first_impact"]["source"]["impact"]) == \
        (6, "Firefight 21.22")
    assert t["first_impact"]["source"]["adjacent"] == "estimated"
    assert (t["battery"]["platoons"], DB.dedicated_delay(True), DB.dedicated_delay(False)) == \
        (2, 1, 2)


def test_ff_110_priority_fire(tmp_path: Path) -> None:
    g = _ded_game(tmp_path)
    g.state.turn, g.state.phase = 4, "firefight.if_execute"
    gen = DB.priority_fire(g)
    d = next(gen)
    assert d.kind == "firefight.priority_mission" and d.options == ["pass", "1010"]
    g.dice.force(2)  # the scatter direction die: no scatter roll, always one hex (Firefight 21.21)
    d2 = gen.send("1010")
    assert d2.context == {"unit": "p2"}
    with pytest.raises(StopIteration):
        gen.send("pass")
    imp = ST.ff(g)["impacts"]
    assert len(imp) == 1 and imp[0]["turn"] == 4  # same turn, no plot (Firefight 21.2)
    assert g.board.parse(imp[0]["hex"]).distance(g.board.parse("1010")) == 1
    assert imp[0]["pattern"][0] == 6  # not 12 (Firefight 21.22)


def test_ff_111_continuous_after_priority_is_normal(tmp_path: Path) -> None:
    g = _ded_game(tmp_path)
    g.state.turn, g.state.phase = 4, "firefight.if_execute"
    gen = DB.priority_fire(g)
    next(gen)
    g.dice.force(1)
    gen.send("1010")
    with pytest.raises(StopIteration):
        gen.send("pass")
    last = IF.if_units(g)["p1"]["last_impact"]
    c = request(g, "p1", last, continuous=True)
    assert c["impact_turn"] == 5
    due_now(g, "p1")
    assert IF.pattern(g, "p1") == (12, 6, 3)  # Firefight 21.23


def test_ff_112_planned_and_too_delays(tmp_path: Path) -> None:
    g = _ded_game(tmp_path)
    g.state.turn = 2
    assert request(g, "p1", "1012")["impact_turn"] == 3  # planned: 1 (Firefight 21.3)
    assert request(g, "p2", "1009")["impact_turn"] == 4  # TOO: 2
    m = due_now(g, "p1")
    from hexwar.core.types import PhaseSpec
    from hexwar.plugins.firefight.rules._common import no_step

    DB.hexwar_phase_start(g, PhaseSpec("firefight.if_execute", "", "", lambda g: no_step()))
    assert m["no_adjust"]  # cannot be adjusted (Firefight 21.3)
    g.dice.force(5)  # direction only: it must scatter
    assert IF.scatter(g, "p1", g.board.parse("1012")).distance(g.board.parse("1012")) == 1
    assert IF.pattern(g, "p1")[0] == 6


def test_ff_113_priority_limit_and_battery(tmp_path: Path) -> None:
    assert DB.priority_problem(["1010", "1012"], ["1010", "1012"], 1) is not None
    assert DB.priority_problem(["1010"], ["1010"], 2) is None
    assert DB.priority_problem(["1010"], ["2020"], 2) is not None  # must be listed
    g = if_game(tmp_path, [unit("p1", "155mm", "direct"), unit("p2", "155mm", "direct")], DED)
    gen = DB.declare(g)
    d = next(gen)
    assert d.options == [0, 1]
    with pytest.raises(StopIteration):
        gen.send(1)
    # one battery = two platoons (Firefight 21.1 (Clarifications))
    assert DB.dedicated_units(g) == ["p1", "p2"]


def test_ff_114_no_suppressive_from_dedicated(tmp_path: Path) -> None:
    g = _ded_game(tmp_path)
    assert "suppressive" not in IF.mission_kinds(g, "US", "p1")
    g.state.phase = "firefight.if_request"
    assert IF.request_problem(g, "US", "p1", "1010", kind="suppressive") is not None
    with pytest.raises(RulesError):
        IF.request(g, "US", "p1", "1010", kind="suppressive")


# ---------------------------------------------------------------------------------------------
# Firefight 22: scatter
# ---------------------------------------------------------------------------------------------


def test_ff_115_scatter_thresholds() -> None:
    assert [SC.scatters("planned", r) for r in range(1, 7)] == [True, True] + [False] * 4
    assert [SC.scatters("continuous", r) for r in range(1, 7)] == [True] + [False] * 5
    assert [SC.scatters("too", r) for r in range(1, 7)] == [True, False] * 3


def test_ff_115_in_play(tmp_path: Path) -> None:
    g = if_game(tmp_path, [unit("m", "81mm")], ["firefight.scatter"])
    ST.ff(g)["target_list"] = {"US": ["1010"]}
    request(g, "m", "1010")
    due_now(g, "m")
    h = g.board.parse("1010")
    g.dice.force(3)  # planned: 3 does not scatter under Firefight 22 (it would under Firefight 8.52)
    assert IF.scatter(g, "m", h) == h
    g.dice.force(2, 1)
    assert IF.scatter(g, "m", h).distance(h) == 1


def test_ff_116_continuous_suppressive_and_dedicated(tmp_path: Path) -> None:
    g = _ded_game(tmp_path)
    ST.ff(g)["if_units"]["q"] = {"side": "US", "type": "4.2in", "status": "organic", "mission": None,
                           "last_impact": None, "impacted_turn": None}
    g.state.turn = 2
    request(g, "q", "1010", kind="suppressive")
    due_now(g, "q")
    g.dice.force(2, 1)
    IF.scatter(g, "q", g.board.parse("1010"))
    IF.place(g, "q", "1010")
    c = request(g, "q", "1010", continuous=True)
    assert SUP.is_suppressive(g, c)
    due_now(g, "q")
    g.dice.force(6, 1)  # a 6 would not scatter continuous fire under Firefight 22: suppressive always
    assert IF.scatter(g, "q", g.board.parse("1010")).distance(g.board.parse("1010")) == 1
    # dedicated continuous: only a 1 scatters (Firefight 22.1)
    IF.if_units(g)["p1"].update(last_impact="1010", impacted_turn=g.state.turn)
    IF.if_units(g)["q"]["mission"] = None
    request(g, "p1", "1010", continuous=True)
    due_now(g, "p1")
    h = g.board.parse("1010")
    g.dice.force(2)
    assert IF.scatter(g, "p1", h) == h
    g.dice.force(1, 1)
    assert IF.scatter(g, "p1", h).distance(h) == 1


def test_extra_mission_kinds_are_offered(tmp_path: Path) -> None:
    """Firefight 14.0, Firefight 19.0, Firefight 25.0 the request decision lists smoke, suppressive
    and mine missions."""
    g = if_game(tmp_path, [unit("q", "4.2in"), unit("p", "155mm", "direct")],
                ["firefight.smoke", "firefight.suppressive_fire", "firefight.mines",
                 "firefight.artillery_mines"])
    n = 0
    while g.pending is not None and g.pending.kind != "firefight.if_request" and n < 200:
        opts = g.pending.options or []
        g.answer("pass" if "pass" in opts else opts[0])
        n += 1
    d = g.pending
    assert d is not None and d.kind == "firefight.if_request" and d.side == "US"
    kinds = {(o["unit"], o.get("kind", "he")) for o in d.options or () if isinstance(o, dict)}
    assert {("q", "smoke"), ("q", "suppressive"), ("p", "smoke"), ("p", "suppressive"),
            ("p", "mines")} <= kinds
    assert ("q", "mines") not in kinds  # Firefight 25.0 155mm only
