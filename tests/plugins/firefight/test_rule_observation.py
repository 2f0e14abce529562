"""Firefight 11 modified observation, Firefight 12 dummies, Firefight 23 improved positions; hidden
info."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from hexwar.core.engine.controllers import RandomController
from hexwar.core.engine.game import Game
from hexwar.core.errors import RulesError
from hexwar.core.labels import offset_to_hex
from hexwar.core.testing import make_game
from hexwar.plugins.firefight import fire as FI
from hexwar.plugins.firefight import movement as MV
from hexwar.plugins.firefight import sighting as SI
from hexwar.plugins.firefight.rules import improved_positions as IP
from hexwar.plugins.firefight.rules import observation as OBS
from hexwar.plugins.firefight.testing import mini_game as _mini_game
from hexwar.plugins.firefight.testing import unit_spec as U

_N = [0]


def mini_game(tmp_path: Path, *a: Any, **kw: Any) -> Game:
    """A fresh folder per game (boards are cached per scenario file)."""
    _N[0] += 1
    d = tmp_path / f"g{_N[0]}"
    d.mkdir()
    return _mini_game(d, *a, **kw)

OBS_RULES = ["firefight.observation"]
DUMMY_RULES = ["firefight.observation", "firefight.dummies"]


def defilade_toward(target: str, toward: str) -> str:
    """The hex feature making ``target`` a defilade position whose defilade hexside faces the
    neighbour ``toward`` (Firefight 5.2)."""
    a = offset_to_hex(int(target[:2]), int(target[2:]), "even")
    b = offset_to_hex(int(toward[:2]), int(toward[2:]), "even")
    return f"defilade:{a.direction_to(b)}"


def u(g: Game, uid: str) -> Any:
    return g.state.units[uid]


# ---------------------------------------------------------------------------------------------
# Firefight 11.1: the table
# ---------------------------------------------------------------------------------------------


def test_observation_range_table_is_exact() -> None:
    """Firefight 11.1: every printed value."""
    assert OBS.observation_table() == {"clear": (20, 60), "forest": (5, 10), "town": (3, 5),
                                       "defilade": (3, 5), "improved_position": (1, 1)}


def test_ff_34_forest_example(tmp_path: Path) -> None:
    """Firefight 11.1: example: TM+ and T62 face-down in Forest, 6 hexes apart, Clear between."""
    g = mini_game(tmp_path, [U("tm", "US-TM+", "US", "1005"), U("t62", "SU-T62", "SU", "1011")],
                  [{"at": "1005", "terrain": "forest"}, {"at": "1011", "terrain": "forest"}],
                  rules=OBS_RULES)
    assert OBS.spots(g, u(g, "tm"), u(g, "t62"))  # 6 <= 10 (vehicle in Forest)
    assert not OBS.spots(g, u(g, "t62"), u(g, "tm"))  # 6 > 5 (personnel in Forest)
    OBS.sweep(g)
    assert not OBS.face_down(u(g, "t62"))  # spotted
    assert OBS.face_down(u(g, "tm"))
    u(g, "t62").hex = g.board.parse("1010")
    assert OBS.spots(g, u(g, "t62"), u(g, "tm"))  # within five hexes it would


@pytest.mark.parametrize(("terrain", "kind", "limit"), [
    ("clear", "US-TM", 20), ("clear", "US-M113", 60), ("town", "US-TM", 3),
    ("town", "US-M113", 5), ("forest", "US-TM", 5), ("forest", "US-M113", 10),
    ("defilade", "US-TM", 3), ("defilade", "US-M113", 5)])
def test_ff_35_boundaries(tmp_path: Path, terrain: str, kind: str, limit: int) -> None:
    """Firefight 11.1: spotted at exactly the range, not one hex further (LOS clear)."""
    target = "2001" if limit >= 40 else "1001"
    hexes: list[dict[str, Any]] = []
    if limit >= 40:  # vehicle in Clear: longer than the 41 x 40 test panel
        assert OBS.spotting_limit(["clear"], True) == 60
        assert OBS.spotting_limit(["clear", "defilade"], True) == 5  # docs/decisions.md FFD-22
        return
    if True:
        t = target
        tc, tr = int(t[:2]), int(t[2:])
        near, far = f"{tc:02d}{tr + limit:02d}", f"{tc:02d}{tr + limit + 1:02d}"
        units = [U("t", kind, "US", t), U("o1", "SU-TM", "SU", near),
                 U("o2", "SU-TM", "SU", far)]
        if terrain in ("town", "forest"):
            hexes.append({"at": t, "terrain": terrain})
        if terrain == "defilade":
            hexes.append({"at": t, "features": [defilade_toward(t, f"{tc:02d}{tr + 1:02d}")]})
    g = mini_game(tmp_path, units, hexes, rules=OBS_RULES)
    assert SI.has_los(g, u(g, "o1").hex, u(g, "t").hex)
    assert OBS.spots(g, u(g, "o1"), u(g, "t"))
    assert not OBS.spots(g, u(g, "o2"), u(g, "t"))


# ---------------------------------------------------------------------------------------------
# Firefight 11.0, Firefight 11.2, Firefight 11.21
# ---------------------------------------------------------------------------------------------


def _pair(tmp_path: Path, **kw: Any) -> Game:
    units = [U("us", "US-M60A1", "US", "1005"), U("su", "SU-T62", "SU", "1030"),
             U("su2", "SU-TM", "SU", "3030")]
    hexes = [{"at": f"{c:02d}20", "terrain": "forest"} for c in range(0, 41)]
    return mini_game(tmp_path, units, hexes, rules=kw.pop("rules", OBS_RULES), **kw)


def test_ff_36_firing_and_moving_in_view_reveal(tmp_path: Path) -> None:
    g = _pair(tmp_path)
    su = u(g, "su")
    su.hex = g.board.parse("1015")  # in view of the M60A1 (clear between)
    assert OBS.face_down(su) and OBS.face_down(u(g, "us"))
    u(g, "us").state.pop("face_down")
    FI.execute_attack(g, "SU", ["su"], "us", {}, "direct", rolls=[12])
    assert not OBS.face_down(su)  # Firefight 11.0: fired: turned face-up
    # a face-down unit that moves into an enemy's field of vision is spotted
    g2 = _pair(tmp_path)
    mover = u(g2, "su")
    mover.state.update(moved=True, mp=9.0, steps=0)
    mover.hex = g2.board.parse("1022")
    MV.do_step(g2, mover, "1021")  # still behind the forest row
    list(OBS._spot_after_step(g2, "su"))
    assert OBS.face_down(mover)
    MV.do_step(g2, mover, "1020")
    MV.do_step(g2, mover, "1019")  # now in the M60A1's view, 14 hexes: beyond nothing
    list(OBS._spot_after_step(g2, "su"))
    assert not OBS.face_down(mover)


def test_ff_37_face_down_unit_may_not_be_fired_at(tmp_path: Path) -> None:
    g = _pair(tmp_path)
    u(g, "su").hex = g.board.parse("1015")
    with pytest.raises(RulesError) as exc:
        FI.check_attack(g, "US", ["us"], "su", {}, "direct")
    # refused (Firefight 11.21) in the very words an undrawn or off-map unit gets, so a probe
    # tells the firer nothing about what is face down (docs/decisions.md FFD-38)
    face_down = str(exc.value)
    where, u(g, "su").hex = u(g, "su").hex, None
    with pytest.raises(RulesError) as off_map:
        FI.check_attack(g, "US", ["us"], "su", {}, "direct")
    assert face_down == str(off_map.value)
    u(g, "su").hex = where
    OBS.reveal(g, u(g, "su"), "test", "Firefight 11.1")
    FI.check_attack(g, "US", ["us"], "su", {}, "direct")


def test_ff_38_reconcealment(tmp_path: Path) -> None:
    g = _pair(tmp_path)
    su = u(g, "su")
    OBS.reveal(g, su, "test", "Firefight 11.0")
    OBS.sweep(g)  # behind the forest row: nobody sees it
    assert OBS.face_down(su)
    su.hex = g.board.parse("1015")
    OBS.reveal(g, su, "test", "Firefight 11.0")
    su.state.pop("face_down", None)
    u(g, "us").state.pop("face_down", None)
    OBS.sweep(g)
    assert not OBS.face_down(su)  # the M60A1 still sees it (Firefight 11.2)


def test_ff_109_personnel_or_vehicle(tmp_path: Path) -> None:
    g = mini_game(tmp_path, [U("us", "US-TM", "US", "1005"), U("t", "SU-T62", "SU", "1030"),
                             U("d", "SU-Dummy", "SU", "1031", dummy=True, claim="vehicle"),
                             U("d2", "SU-Dummy", "SU", "1032", dummy=True)],
                  [{"at": f"{c:02d}08", "terrain": "forest"} for c in range(0, 41)],
                  rules=DUMMY_RULES)
    view = g.view("US").units
    kinds = {v["id"]: v["state"]["kind"] for v in view.values() if v["side"] == "SU"}
    assert sorted(kinds.values()) == ["personnel", "vehicle", "vehicle"]  # the dummy may lie
    assert OBS.claimed_kind(u(g, "t")) == "vehicle"  # a real unit answers truthfully (Firefight 11.0)
    assert OBS.claimed_kind(u(g, "d2")) == "personnel"


# ---------------------------------------------------------------------------------------------
# Firefight 12: dummies, hidden information
# ---------------------------------------------------------------------------------------------


def test_ff_39_spotted_dummy_is_removed(tmp_path: Path) -> None:
    g = mini_game(tmp_path, [U("us", "US-TM", "US", "1005"), U("d", "SU-Dummy", "SU", "1010"),
                             U("far", "SU-Dummy", "SU", "1030")], rules=DUMMY_RULES)
    OBS.sweep(g)
    assert u(g, "d").hex is None and "removed" in u(g, "d").state  # 5 <= 20
    assert u(g, "far").hex is not None  # 25 > 20: not spotted
    assert MV.stacking_violations(g) == {}


def test_dummy_spotted_while_entering_never_re_enters(tmp_path: Path) -> None:
    """Firefight 12.0: a dummy spotted on its entry hex is removed for good; its entry orders go
    with it (it came back face-up the next Game-Turn: Scenario 9, seed 3, dummy-su9)."""
    g = mini_game(tmp_path, [U("us", "US-TM", "US", "1005"),
                             U("d", "SU-Dummy", "SU", "1010", enter={"turn": 1, "hexes": ["1010"]}),
                             U("t", "SU-T62", "SU", "1030")], rules=DUMMY_RULES)
    d = u(g, "d")
    assert d.state.get("enter") and OBS.face_down(d)
    OBS.sweep(g)  # spotted at 5 hexes on the hex it entered by
    assert d.hex is None and "removed" in d.state and "enter" not in d.state
    g.state.turn += 1
    assert MV.mover_problem(g, d) == "the unit is not on the map"
    d.state["enter"] = {"turn": 1, "hexes": ["1010"]}  # a save written before the fix
    assert MV.mover_problem(g, d) == "the unit is not on the map"


def test_scenario_9_seed_3_no_removed_dummy_moves_again() -> None:
    """The game the defect was found in: no dummy moves after it was removed (Firefight 12.0),
    among them dummies removed with entry orders (the defect: such a dummy re-entered; with the
    keyed dice of CORE-56 the game no longer removes ``dummy-su9`` in particular)."""
    from hexwar.core.cli import _controllers, _resolve_scenario_path
    from hexwar.core.scenario import load_and_validate

    options = ("firefight.observation", "firefight.dummies")
    sc = load_and_validate(_resolve_scenario_path("firefight:scenario-9"), options=options)
    g = Game(sc, seed=3, options=options)
    controllers, _ = _controllers(g, "ai,ai", 3)
    g.play(controllers)
    removed: set[str] = set()
    for e in g.log.events:
        if e.get("type") == "dummy_removed":
            removed.add(str(e["unit"]))
        elif e.get("type") in ("move_start", "move"):
            assert e.get("unit") not in removed, e
    entering = {u.id for u in sc.units if u.enter}
    assert removed & entering


def test_dummies_do_not_stack_and_limit(tmp_path: Path) -> None:
    from hexwar.plugins.firefight.rules.dummies import dummy_problem, is_dummy

    g = mini_game(tmp_path, [U("us", "US-TM", "US", "1001")] +
                  [U(f"s{i}", "SU-TM", "SU", "1030") for i in range(4)],
                  rules=DUMMY_RULES, special={"dummies": {"SU": ["1030", "1030"]}})
    assert is_dummy(g, "dummy-su-x1") and u(g, "dummy-su-x1").hex == g.board.parse("1030")
    assert MV.stacking_violations(g) == {}  # 4 real + 2 dummies (Firefight 7.3)
    assert dummy_problem({"SU": ["1001"] * 7}) is not None  # Firefight 12.0: at most six
    assert dummy_problem({"SU": ["1001"] * 6}) is None


def _hidden_scenario(tmp_path: Path, seed: int) -> Game:
    units = [U("us1", "US-TM", "US", "1002"), U("us2", "US-TM+", "US", "1202"),
             U("us3", "US-M113", "US", "1402"),
             U("su-a", "SU-TM", "SU", "1012"), U("su-b", "SU-Dummy", "SU", "1212", dummy=True),
             U("su-c", "SU-Dummy", "SU", "1412", dummy=True, claim="vehicle"),
             U("su-d", "SU-T62", "SU", "1612"),
             U("su-e", "SU-Dummy", "SU", "1036", dummy=True)]
    hexes = [{"at": f"{c:02d}08", "terrain": "forest"} for c in range(0, 41)]
    return mini_game(tmp_path, units, hexes, rules=DUMMY_RULES, seed=seed, turns=4)


DUMMIES = ("su-b", "su-c", "su-e")
SOVIET = ("su-a", "su-b", "su-c", "su-d", "su-e")


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_other_side_never_sees_dummies_until_revealed(tmp_path: Path, seed: int) -> None:
    """A game with dummies under (Firefight 11) + (Firefight 12): at every decision, the U.S. view
    (units, public state, log) never names a dummy nor shows a dummy type or flag until it is
    revealed."""
    g = _hidden_scenario(tmp_path, seed)
    ctl = {s: RandomController(s, seed) for s in ("US", "SU")}
    steps = 0
    seen_removed = set()
    while g.pending is not None and steps < 2500:
        view = g.view("US")
        revealed = {e["unit"] for e in view.events() if e.get("type") == "revealed"}
        for rec in view.units.values():
            if rec["side"] == "SU" and rec.get("state", {}).get("face_down"):
                assert "Dummy" not in str(rec.get("type"))
                assert not rec.get("state", {}).get("dummy")
                assert set(rec) <= {"id", "side", "type", "hex", "facing", "state"}
                assert set(rec["state"]) == {"face_down", "kind"}
        # the log header carries the scenario file itself (public: the draw of Scn 7/9 is the
        # secret); every event after it must keep the dummies anonymous
        text = str([e for e in view.events() if e.get("type") not in
                    ("header", "revealed", "dummy_removed")])
        soviet = [k for k, x in g.state.units.items() if x.side == "SU"]
        assert set(SOVIET) <= set(soviet)
        for d in soviet:  # no Soviet counter is named before it is revealed
            if d not in revealed:
                assert d not in text and d not in view.units
                assert d not in str(view.system_state)
            elif u(g, d).state.get("dummy"):
                seen_removed.add(d)
        dec = g.pending
        g.answer(ctl[dec.side].choose(dec, g.view(dec.side)))
        steps += 1
    assert g.state.turn >= 2
    # the umpire sees everything; the owner sees its own dummies
    assert {"su-b", "su-c", "su-e"} <= set(g.view("SU").units)
    assert all(u(g, d).hex is None for d in seen_removed)


def test_face_down_view_is_anonymous(tmp_path: Path) -> None:
    g = _hidden_scenario(tmp_path, 1)
    us_view = g.view("US").units
    su_ids = [k for k, v in us_view.items() if v["side"] == "SU"]
    assert su_ids and all(k.startswith("?SU-") for k in su_ids)
    assert all(v["type"] == "firefight:face-down" for k, v in us_view.items() if v["side"] == "SU")
    assert set(g.view("SU").units) >= {"su-a", "su-b"}


# ---------------------------------------------------------------------------------------------
# Firefight 23: improved positions
# ---------------------------------------------------------------------------------------------


def _ip_game(tmp_path: Path, extra: list[dict[str, Any]] | None = None, **kw: Any) -> Game:
    units = [U("tm", "US-TM", "US", "1010"), U("m113", "US-M113", "US", "1010"),
             U("e2", "SU-TM", "SU", "1012"), U("e1", "SU-TM", "SU", "1011"), *(extra or [])]
    return mini_game(tmp_path, units, kw.pop("hexes", []),
                     rules=["firefight.observation", "firefight.improved_positions"],
                     special={"improved_positions": {"US": ["1010"]}}, **kw)


def test_ff_40_ip_spotted_only_adjacent(tmp_path: Path) -> None:
    g = _ip_game(tmp_path)
    assert IP.in_ip(g, u(g, "tm")) and not IP.in_ip(g, u(g, "m113"))  # Firefight 23.0: no vehicles
    assert not OBS.spots(g, u(g, "e2"), u(g, "tm"))  # range 2, LOS: not spotted (Firefight 23.1)
    assert OBS.spots(g, u(g, "e1"), u(g, "tm"))  # adjacent
    u(g, "tm").state["fired"] = True  # once it fires: the normal range (20 in Clear)
    assert OBS.spots(g, u(g, "e2"), u(g, "tm"))


def test_ff_117_ip_counts_as_defilade(tmp_path: Path) -> None:
    g = _ip_game(tmp_path)
    tm, m113, e2 = u(g, "tm"), u(g, "m113"), u(g, "e2")
    assert FI.terrain_filters(g, g.board, e2.hex, tm) == ["defilade"]  # Firefight 23.1
    assert FI.terrain_filters(g, g.board, e2.hex, m113) == []  # vehicles: no benefit (Firefight 23.0)
    # already in defilade: no further protection (one filter)
    g2 = _ip_game(tmp_path,
                  hexes=[{"at": "1010", "features": [defilade_toward("1010", "1011")]}])
    assert FI.terrain_filters(g2, g2.board, u(g2, "e2").hex, u(g2, "tm")) == ["defilade"]
    # Firefight 23.2: not during play
    g.state.turn = 1
    with pytest.raises(RulesError):
        IP.place(g, "US", "1020")
    # Firefight 23.0: vacant at the end of a Game-Turn: removed
    tm.hex = g.board.parse("1009")
    IP.hexwar_turn_end(g)
    assert IP.markers(g) == {} and "ip" not in tm.state


def test_indirect_hit_reveals_a_face_down_unit(tmp_path: Path) -> None:
    """docs/decisions.md FFD-24: a result reveals a face-down unit; a miss does not."""
    g = mini_game(tmp_path, [U("us", "US-TM", "US", "1002"), U("a", "SU-T62", "SU", "1030"),
                             U("b", "SU-T62", "SU", "1032")],
                  [{"at": f"{c:02d}08", "terrain": "forest"} for c in range(0, 41)],
                  rules=OBS_RULES)
    FI.apply_result(g, "a", "-", "indirect")
    assert OBS.face_down(u(g, "a"))
    FI.apply_result(g, "a", "S", "indirect")
    assert not OBS.face_down(u(g, "a")) and OBS.face_down(u(g, "b"))


def test_spotter_stays_anonymous(tmp_path: Path) -> None:
    """A face-down unit that spots an enemy is named by its alias in the public log, and the
    passengers of an enemy vehicle are never shown."""
    g = mini_game(tmp_path, [U("us", "US-TM", "US", "1005"), U("su-a", "SU-TM", "SU", "1015"),
                             U("bmp", "SU-BMP", "SU", "3035"),
                             U("su-p", "SU-TM", "SU", "3035", carrier="bmp")], rules=OBS_RULES)
    OBS.sweep(g)  # both TMs in Clear at range 10: each spots the other
    us_text = str([e for e in g.view("US").events() if e.get("type") not in ("header",)])
    rev = [e for e in g.view("US").events() if e.get("type") == "revealed"]
    assert {e["unit"] for e in rev} == {"us", "su-a", "bmp"}  # the BMP: vehicle within 60
    us_rev = next(e for e in rev if e["unit"] == "us")
    assert "su-a" not in us_rev["why"] and us_rev["why"].startswith("spotted by ?SU-")
    assert "su-p" not in us_text and "su-p" not in g.view("US").units
    assert "bmp" in g.view("US").units  # revealed, but nobody sees inside it


def test_dummies_placed_at_deployment(tmp_path: Path) -> None:
    from hexwar.plugins.firefight.rules import dummies as DU

    g = mini_game(tmp_path, [U("us", "US-TM", "US", "1002"), U("su", "SU-TM", "SU", "1030"),
                             U("su2", "SU-T62", "SU", "2030")],
                  [{"at": f"{c:02d}08", "terrain": "forest"} for c in range(0, 41)],
                  rules=DUMMY_RULES)
    names_before = dict(OBS.aliases(g))
    while g.pending is not None and g.pending.kind != "firefight.place_dummies":
        g.answer(g.pending.options[0] if g.pending.options else "pass")
    d = g.pending
    assert d is not None and d.kind == "firefight.place_dummies"
    assert DU.placement_problem(g, "SU", ["1031"]) is None
    assert DU.placement_problem(g, "SU", ["1020"]) is not None  # not near a Soviet unit
    assert DU.placement_problem(g, "SU", ["1002"]) is not None  # enemy-occupied
    assert DU.placement_problem(g, "SU", ["1031"] * 7) is not None  # six at most (Firefight 12.0)
    for _ in range(2):
        dec = g.pending
        assert dec is not None and dec.kind == "firefight.place_dummies"
        g.answer(["1031", "2031"] if dec.side == "SU" else [])
    dums = [k for k, x in g.state.units.items() if x.state.get("dummy")]
    assert len(dums) == 2 and all(OBS.face_down(u(g, k)) for k in dums)
    names = OBS.aliases(g)
    assert set(names) == set(names_before) | set(dums)  # everyone renamed, dummies included
    assert sorted(v for k, v in names.items() if k.startswith("su") or k in dums) == \
        sorted(f"?SU-{i}" for i in range(1, 5))


@pytest.mark.parametrize("seed", [4, 5])
def test_scenario_7_draw_keeps_dummies_secret(seed: int) -> None:
    """Scenario 7 (the Soviet cup holds six dummies) under (Firefight 11) + (Firefight 12), AI against AI: the
    U.S. never sees a Soviet counter's name, type or dummy flag before it is revealed."""
    from hexwar.plugins.firefight.ai import FirefightAI

    g = make_game("firefight:scenario-7", seed=seed, options=DUMMY_RULES)
    ctl = {s: FirefightAI(s, seed) for s in ("US", "SU")}
    n = 0
    while g.pending is not None and g.state.turn <= 4 and n < 3000:
        view = g.view("US")
        revealed = {e["unit"] for e in view.events() if e.get("type") == "revealed"}
        hidden = [k for k, x in g.state.units.items() if x.side == "SU" and k not in revealed]
        text = str([e for e in view.events() if e.get("type") not in ("header", "revealed",
                                                                        "dummy_removed")])
        for k in hidden:
            assert k not in view.units and k not in text
        for rec in view.units.values():
            if rec["side"] == "SU" and rec.get("state", {}).get("face_down"):
                assert rec["type"] == "firefight:face-down"
        dec = g.pending
        g.answer(ctl[dec.side].choose(dec, g.view(dec.side)))
        n += 1
    drawn_dummies = [k for k, x in g.state.units.items()
                     if x.state.get("dummy") and not x.state.get("not_drawn")]
    assert drawn_dummies  # the draw put dummies on the map (so the check above meant something)


def test_dummy_claiming_vehicle_moves_like_one(tmp_path: Path) -> None:
    """Firefight 12.0: a dummy is played as though it were a real unit: claiming to be a vehicle it moves
    three Clear hexes (MA 3, vehicle costs (Firefight 7.0, TEC); docs/decisions.md FFD-25), whereas
    one claiming to be personnel moves one hex a turn (Firefight 7.0)."""
    g = mini_game(tmp_path, [U("us", "US-TM", "US", "1001"),
                             U("veh", "SU-Dummy", "SU", "1030", dummy=True, claim="vehicle"),
                             U("man", "SU-Dummy", "SU", "2030", dummy=True)],
                  hexes=[{"at": "1027", "terrain": "forest"}], rules=DUMMY_RULES)
    veh, man = u(g, "veh"), u(g, "man")
    assert MV.movement_allowance(veh, g) == 3.0 and MV.movement_allowance(man, g) == 1.0
    g.state.phase = "firefight.movement"
    for unit in (veh, man):
        unit.state.update(moved=True, mp=MV.movement_allowance(unit, g), steps=0)
    for to in ("1029", "1028"):  # Clear: 1 MP each
        MV.do_step(g, veh, to)
    assert veh.state["mp"] == 1.0 and "1027" not in MV.legal_steps(g, veh)  # Forest costs more
    assert MV.legal_steps(g, veh)  # but a Clear hex is still in reach
    MV.do_step(g, man, "2029")
    assert MV.legal_steps(g, man) == []  # one hex a Game-Turn (Firefight 7.0)
    # the movement phase does not stop the "vehicle" after its first hex
    wall = [{"at": f"{c:02d}20", "terrain": "forest"} for c in range(0, 41)]  # unseen (Firefight 5.1)
    g2 = mini_game(tmp_path, [U("us", "US-TM", "US", "1001"),
                              U("veh", "SU-Dummy", "SU", "1030", dummy=True, claim="vehicle")],
                   wall, rules=DUMMY_RULES)
    step = MV.move_unit(g2, u(g2, "veh"))
    dec = next(step)
    hexes = []
    while dec is not None and dec.kind == "firefight.step":
        to = next((o for o in dec.options if isinstance(o, dict) and "to" in o), None)
        if to is None:
            break
        hexes.append(to["to"])
        try:
            dec = step.send(to)
        except StopIteration:
            dec = None
    assert len(hexes) == 3 and u(g2, "veh").hex is not None


def test_dummy_cannot_board_a_vehicle(tmp_path: Path) -> None:
    """Firefight 12.0: a dummy is nothing: it is never a passenger (Firefight 7.4)."""
    g = mini_game(tmp_path, [U("us", "US-TM", "US", "1001"), U("bmp", "SU-BMP", "SU", "1030"),
                             U("d", "SU-Dummy", "SU", "1030", dummy=True),
                             U("tm", "SU-TM", "SU", "1030")], rules=DUMMY_RULES)
    assert MV.mount_problem(g, u(g, "bmp"), [u(g, "d")]) is not None
    assert MV.mount_problem(g, u(g, "bmp"), [u(g, "tm")]) is None
    opts = MV.move_options(g, "SU")
    assert {"mount": "bmp", "units": ["tm"]} in opts
    assert not any(o.get("units") == ["d"] for o in opts)


def test_scenario_9_dummies_claim_to_be_vehicles() -> None:
    """Scn 9 cups hold vehicles only: a drawn dummy passes as a vehicle (claim, movement)."""
    g = make_game("firefight:scenario-9", seed=1, options=DUMMY_RULES)
    dums = [x for x in g.state.units.values() if x.state.get("dummy")]
    assert dums and all(x.state.get("claim") == "vehicle" for x in dums)
    assert all(MV.moves_as_vehicle(x) for x in dums)
