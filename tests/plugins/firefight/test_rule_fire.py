"""Firefight 15 overwatch, Firefight 16 mounted combat, Firefight 17 short halt, Firefight 24
small arms, Firefight 26 CLGP, Firefight 27 future AFVs, Firefight 28 overrun: direct-fire
optional rules."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

import pytest

from hexwar.core.engine.game import Game
from hexwar.core.errors import RulesError
from hexwar.plugins.firefight import fire as FI
from hexwar.plugins.firefight import movement as MV
from hexwar.plugins.firefight import state as ST
from hexwar.plugins.firefight.hookspecs import FirefightHooks
from hexwar.plugins.firefight.rules import clgp as CL
from hexwar.plugins.firefight.rules import future_afvs as FA
from hexwar.plugins.firefight.rules import overrun as OV
from hexwar.plugins.firefight.rules import smoke as SM
from hexwar.plugins.firefight.rules._common import rstate
from hexwar.plugins.firefight.tables import ff_data
from hexwar.plugins.firefight.testing import fresh_mini_game as mini_game
from hexwar.plugins.firefight.testing import unit_spec as U


def mods(g: Game, firer: str, target: str, mode: str = "direct", line: str | None = None
         ) -> tuple[int | None, str, dict[str, tuple[float, str]]]:
    f, t = g.state.units[firer], g.state.units[target]
    ws = FI.weapons(g, f, t)
    w = next(x for x in ws if x.line == line) if line else ws[0]
    base, src, ms = FI.attack_rating(g, FI.describe_attack(g, f, t, w, mode))
    return base, src, {m.name: (m.value, m.rule) for m in ms}


def start_move(g: Game, uid: str) -> Any:
    u = g.state.units[uid]
    assert MV.mover_problem(g, u) is None
    u.state.update(moved=True, mp=MV.movement_allowance(u), steps=0)
    ST.ff(g)["mover"] = uid
    g.state.phase = "firefight.movement"
    return u


def roll_giving(crt: str, ar: int, want: str) -> int:
    cells = ff_data().crt[crt]
    return next(r for r in range(2, 13) if cells[(min(ar, ff_data().crt_max[crt]), r)][0] == want)


# ---------------------------------------------------------------------------------------------
# Firefight 15: overwatch
# ---------------------------------------------------------------------------------------------


def test_ff_100_overwatch(tmp_path: Path) -> None:
    g = mini_game(tmp_path, [U("mover", "US-M113", "US", "1010"), U("w", "US-M60A1", "US", "1004"),
                             U("s", "SU-T62", "SU", "1016"), U("d", "SU-T62", "SU", "1018")],
                  rules=["firefight.overwatch"])
    g.state.units["d"].state["fired"] = True  # fired in the Direct Fire Phase only
    start_move(g, "mover")
    gen = FI.attack_step(g, "SU", "opportunity", ["mover"])
    d = next(gen)
    assert {"firers": ["s"], "target": "mover", "weapons": {"s": "SU-T62"}} in d.options
    g.dice.force(6, 6)
    d2 = gen.send({"firers": ["s"], "target": "mover", "weapons": {"s": "SU-T62"}})
    assert d2.kind == "firefight.overwatch_fire" and d2.side == "US"
    targets = {o["target"] for o in d2.options if isinstance(o, dict)}
    assert targets == {"s"}  # only the unit that has just fired (Firefight 15.1)
    with pytest.raises(RulesError):
        FI.check_attack(g, "US", ["w"], "d", {}, "overwatch")  # fired only in the DF Phase
    FI.check_attack(g, "US", ["w"], "s", {}, "overwatch")


# ---------------------------------------------------------------------------------------------
# Firefight 16: mounted combat
# ---------------------------------------------------------------------------------------------


def test_ff_101_bmp_mounted(tmp_path: Path) -> None:
    g = mini_game(tmp_path, [U("bmp", "SU-BMP", "SU", "1010"),
                             U("tm", "SU-TM", "SU", "1010", carrier="bmp"),
                             U("rpg", "SU-TM", "SU", "1010", carrier="bmp", weapon="rpg7"),
                             U("near", "US-TM", "US", "1014"), U("far", "US-TM", "US", "1015"),
                             U("m113", "US-M113", "US", "1013")],
                  rules=["firefight.mounted_combat"])
    ms = mods(g, "tm", "near")[2]
    assert ms["mounted fire"] == (-4, "Firefight 16.1")
    out = FI.execute_attack(g, "SU", ["tm"], "far", {}, "direct", rolls=[2])
    assert out[0]["ar"] is None and out[0]["result"] == "-"  # range 5: wasted (Firefight 6.14)
    assert g.state.units["tm"].state["fired"]
    with pytest.raises(RulesError):
        FI.check_attack(g, "SU", ["rpg"], "m113", {"rpg": "SU-RPG7"}, "direct")  # Firefight 16.11
    FI.check_attack(g, "SU", ["bmp"], "near", {}, "direct")  # the BMP still fires
    assert MV.legal_steps(g, g.state.units["bmp"]) == []  # but may not move (Firefight 16.1)
    with pytest.raises(RulesError):
        FI.check_attack(g, "US", ["near"], "tm", {}, "direct")  # inside the BMP (Firefight 16.11)


def test_ff_102_m113_mounted(tmp_path: Path) -> None:
    g = mini_game(tmp_path, [U("m113", "US-M113", "US", "1010"),
                             U("tm", "US-TM", "US", "1010", carrier="m113", weapon="dragon"),
                             U("t62", "SU-T62", "SU", "1016"), U("su", "SU-TM", "SU", "1013")],
                  rules=["firefight.mounted_combat"])
    assert mods(g, "tm", "su")[2]["mounted fire"] == (-1, "Firefight 16.2")
    with pytest.raises(RulesError):
        FI.check_attack(g, "SU", ["su"], "tm", {}, "direct")  # not exposed yet
    FI.execute_attack(g, "US", ["tm"], "t62", {"tm": "US-Dragon"}, "direct", rolls=[12])
    FI.check_attack(g, "SU", ["su"], "tm", {}, "direct")  # exposed this turn (Firefight 16.21)


# ---------------------------------------------------------------------------------------------
# Firefight 17: short halt
# ---------------------------------------------------------------------------------------------

SH = ["firefight.short_halt"]


def test_ff_103_short_halt(tmp_path: Path) -> None:
    g = mini_game(tmp_path, [U("a1", "US-M60A1", "US", "1005"), U("a3", "US-M60A3", "US", "2005"),
                             U("a2", "US-M60A2", "US", "3005"), U("t62", "SU-T62", "SU", "2015")],
                  rules=SH)
    a1 = start_move(g, "a1")
    MV.do_step(g, a1, "1006")
    opts = MV.step_options(g, a1)
    choice = next(o for o in opts if isinstance(o, dict) and o.get("action") == "short_halt")
    assert mods(g, "a1", "t62", "short_halt")[2]["short halt"] == (-2, "Firefight 17.12")
    step = FirefightHooks.of(g).move_action("a1", choice)
    assert step is not None
    g.dice.force(6, 6)
    list(step)
    assert a1.state["mp"] == 1.0 and a1.state["fired"]  # firing cost 1 MP
    MV.do_step(g, a1, "1007")
    with pytest.raises(RulesError):
        MV.do_step(g, a1, "1008")  # at most two Clear hexes with a Short Halt
    a3 = start_move(g, "a3")
    for h in ("2006", "2007", "2008"):
        MV.do_step(g, a3, h)
    assert mods(g, "a3", "t62", "short_halt")[2]["fire on the move"] == (-1, "Firefight 17.12")
    FI.check_attack(g, "US", ["a3"], "t62", {}, "short_halt")  # three hexes and fire
    start_move(g, "a2")
    with pytest.raises(RulesError):
        FI.check_attack(g, "US", ["a2"], "t62", {"a2": "US-M60A2-missile"}, "short_halt")
    FI.check_attack(g, "US", ["a2"], "t62", {"a2": "US-M60A2-gun"}, "short_halt")


def test_ff_104_fired_in_direct_fire_phase(tmp_path: Path) -> None:
    g = mini_game(tmp_path, [U("a1", "US-M60A1", "US", "1005"), U("t62", "SU-T62", "SU", "1015")],
                  rules=SH)
    g.state.units["a1"].state["fired"] = True
    assert MV.mover_problem(g, g.state.units["a1"]) is not None  # Firefight 17.11
    ST.ff(g)["mover"] = "a1"
    g.state.phase = "firefight.movement"
    from hexwar.plugins.firefight.rules._common import move_fire_options

    assert move_fire_options(g, "a1", "short_halt") == []
    with pytest.raises(RulesError):
        FI.check_attack(g, "US", ["a1"], "t62", {}, "short_halt")


def test_ff_105_short_halt_at_a_non_moving_unit(tmp_path: Path) -> None:
    g = mini_game(tmp_path, [U("t62", "SU-T62", "SU", "1005"), U("m60", "US-M60A1", "US", "1015")],
                  rules=SH)
    start_move(g, "t62")
    FI.check_attack(g, "SU", ["t62"], "m60", {}, "short_halt")  # Firefight 17.0 (Clarifications)
    with pytest.raises(RulesError):
        FI.check_attack(g, "US", ["m60"], "t62", {}, "short_halt")  # m60 is not moving


# ---------------------------------------------------------------------------------------------
# Firefight 24: small arms vs armour
# ---------------------------------------------------------------------------------------------


def test_ff_118_small_arms(tmp_path: Path) -> None:
    g = mini_game(tmp_path, [U("tm", "US-TM", "US", "1005"), U("t62", "SU-T62", "SU", "1008"),
                             U("m60", "US-M60A1", "US", "1012")], rules=["firefight.small_arms"])
    tm, t62 = g.state.units["tm"], g.state.units["t62"]
    w = next(x for x in FI.weapons(g, tm, t62) if x.crt == "anti_personnel")
    assert w.line == "US-TM"
    att = FI.describe_attack(g, tm, t62, w, "direct")
    base, src, _ = FI.attack_rating(g, att)
    assert (base, src) == (FI.base_rating("US-TM", "personnel", 3), "Firefight 24.0")
    k = roll_giving("anti_personnel", int(base or 0), "K")
    out = FI.resolve_attack(g, att, k)
    assert out["table"] == "K" and out["result"] == "S"  # any result is a Suppression
    FI.apply_result(g, "t62", out["result"], "direct")
    assert mods(g, "t62", "m60")[2]["firer suppressed"][0] == -3
    FI.check_attack(g, "US", ["tm"], "t62", {"tm": "US-TM"}, "direct")  # a legal choice


def test_ff_118_small_arms_is_offered(tmp_path: Path) -> None:
    g = mini_game(tmp_path, [U("tm", "US-TM", "US", "1005"), U("t62", "SU-T62", "SU", "1008")],
                  rules=["firefight.small_arms"])
    assert {"firers": ["tm"], "target": "t62", "weapons": {"tm": "US-TM"}} in \
        FI.candidate_attacks(g, "US", "direct")


# ---------------------------------------------------------------------------------------------
# Firefight 26: CLGP
# ---------------------------------------------------------------------------------------------


def test_ff_120_clgp(tmp_path: Path) -> None:
    g = mini_game(tmp_path, [U("tm", "US-TM", "US", "1005"), U("z", "SU-T62", "SU", "1010"),
                             U("y", "SU-T62", "SU", "1210")],
                  [{"at": "1209", "terrain": "clear"}], rules=["firefight.clgp"])
    g.state.turn, g.state.phase = 3, "firefight.direct_fire"
    acts = CL.firefight_phase_actions(g, "US", "firefight.direct_fire")
    assert {"action": "clgp_designate", "team": "tm", "target": "z"} in acts
    list(CL.firefight_run_action(g, "US", {"action": "clgp_designate", "team": "tm",
                                           "target": "z"}) or ())
    list(CL.firefight_run_action(g, "US", {"action": "clgp_designate", "team": "tm",
                                           "target": "y"}) or ())
    assert len(CL.designations(g)) == 1  # one designation per team
    FI.check_attack(g, "US", ["tm"], "z", {}, "direct")  # the team may also fire normally
    g.state.turn = 4
    g.dice.force(1, 1)
    out = CL.resolve_designations(g)
    assert len(out) == 1 and out[0]["roll"] == 2
    assert out[0]["result"] == ff_data().crt["anti_armor"][(min(9, ff_data().crt_max[
        "anti_armor"]), 2)][0]
    # LOS lost (the target moved behind a forest): no attack
    g2 = mini_game(tmp_path, [U("tm", "US-TM", "US", "1005"), U("z", "SU-T62", "SU", "1010")],
                   [{"at": "1020", "terrain": "forest"}], rules=["firefight.clgp"])
    g2.state.turn, g2.state.phase = 3, "firefight.direct_fire"
    list(CL.firefight_run_action(g2, "US", {"action": "clgp_designate", "team": "tm",
                                            "target": "z"}) or ())
    g2.state.units["z"].hex = g2.board.parse("1030")
    g2.state.turn = 4
    assert CL.resolve_designations(g2) == [] and CL.designations(g2) == []
    assert not g2.state.units["z"].state.get("S")


# ---------------------------------------------------------------------------------------------
# Firefight 27: future AFVs
# ---------------------------------------------------------------------------------------------

FAR = ["firefight.future_afvs"]


def test_ff_121_movement_allowances(tmp_path: Path) -> None:
    data = tomllib.loads(FA.DATA.read_text(encoding="utf-8"))["movement_allowance"]
    assert {k: v for k, v in data.items() if k != "source"} == {
        "US-M113Z": 3, "US-MICV": 4, "US-XM1": 5, "SU-XMBT": 5}
    for t, ma in data.items():
        if t != "source":
            assert ff_data().units[t].ma == ma  # the system's unit data agrees
    g = mini_game(tmp_path, [U("xm1", "US-XM1", "US", "1005")], rules=FAR)
    x = start_move(g, "xm1")
    for r in range(6, 11):
        MV.do_step(g, x, f"10{r:02d}")
    with pytest.raises(RulesError):
        MV.do_step(g, x, "1011")


def _m113z(tmp_path: Path, defil: bool) -> Game:
    from hexwar.core.labels import offset_to_hex

    a, b = offset_to_hex(10, 10, "even"), offset_to_hex(10, 9, "even")
    hexes = [{"at": "1010", "features": [f"defilade:{a.direction_to(b)}"]}] if defil else []
    return mini_game(tmp_path, [U("z", "US-M113Z", "US", "1010"), U("t", "SU-T62", "SU", "1005")],
                     hexes, rules=FAR)


def test_ff_122_m113z_in_defilade(tmp_path: Path) -> None:
    g = _m113z(tmp_path, True)
    z, t = g.state.units["z"], g.state.units["t"]
    att = FI.describe_attack(g, t, z, FI.weapons(g, t, z)[0], "direct")
    assert "defilade" in att["filters"]
    for r in range(3, 13):
        assert FI.resolve_attack(g, att, r)["result"] == "-"
    assert FI.resolve_attack(g, att, 2)["result"] == FI.crt_result(
        "anti_armor", FI.resolve_attack(g, att, 2)["ar"], 2, att["filters"])[0]
    g2 = _m113z(tmp_path, False)
    z2, t2 = g2.state.units["z"], g2.state.units["t"]
    att2 = FI.describe_attack(g2, t2, z2, FI.weapons(g2, t2, z2)[0], "direct")
    hit = next((r for r in range(3, 13) if FI.crt_result("anti_armor", FI.resolve_attack(
        g2, att2, r)["ar"], r, ())[0] != "-"), None)
    assert hit is not None and FI.resolve_attack(g2, att2, hit)["result"] != "-"
    assert not ff_data().units["US-M113Z"].missile  # IF: a tank, no Kms (Firefight 27.12)


def test_ff_123_125_126_vulnerability(tmp_path: Path) -> None:
    g = mini_game(tmp_path, [U("micv", "US-MICV", "US", "1010"), U("xm1", "US-XM1", "US", "1012"),
                             U("m60", "US-M60A1", "US", "1014"),
                             U("bmp", "SU-BMP", "SU", "1005"), U("t62", "SU-T62", "SU", "1004"),
                             U("xmbt", "SU-XMBT", "SU", "1003"), U("spg", "SU-SPG", "SU", "1006"),
                             U("rpg", "SU-TM", "SU", "1008", weapon="rpg7"),
                             U("sag", "SU-BRDM", "SU", "1007")], rules=FAR)
    assert mods(g, "t62", "micv")[2]["vs US-MICV"] == (-1, "Firefight 27.22")
    expect = {("rpg", "SU-RPG7"): -3, ("spg", "SU-SPG9"): -3, ("bmp", "SU-BMP-gun"): -3,
              ("t62", None): -2, ("xmbt", None): -2, ("sag", "SU-Sagger"): -1,
              ("bmp", "SU-Sagger"): -1}
    for (f, line), v in expect.items():
        assert mods(g, f, "xm1", line=line)[2]["vs US-XM1"] == (v, "Firefight 27.32"), (f, line)
    assert mods(g, "m60", "xmbt")[2]["vs SU-XMBT"] == (-1, "Firefight 27.42")
    assert "vs SU-T62" not in mods(g, "m60", "t62")[2]


def test_ff_124_micv_mounted_infantry(tmp_path: Path) -> None:
    g = mini_game(tmp_path, [U("micv", "US-MICV", "US", "1010"),
                             U("tm", "US-TM", "US", "1010", carrier="micv"),
                             U("s4", "SU-TM", "SU", "1014"), U("s5", "SU-TM", "SU", "1015")],
                  rules=FAR)
    assert mods(g, "tm", "s4")[:2] == (7, "Firefight 27.23")
    out = FI.execute_attack(g, "US", ["tm"], "s5", {}, "direct", rolls=[7])
    assert out[0]["ar"] is None and g.state.units["tm"].state["fired"]  # range 5: wasted


def test_ff_127_fire_on_the_move(tmp_path: Path) -> None:
    g = mini_game(tmp_path, [U("micv", "US-MICV", "US", "1010"), U("xm1", "US-XM1", "US", "1210"),
                             U("bmp", "SU-BMP", "SU", "1016"), U("xmbt", "SU-XMBT", "SU", "1216")],
                  rules=FAR)
    for uid, tgt in (("micv", "bmp"), ("xm1", "xmbt")):
        start_move(g, uid)
        assert mods(g, uid, tgt, "on_the_move")[2]["fire on the move"] == (-1, "Firefight 27.5")
        FI.check_attack(g, "US", [uid], tgt, {}, "on_the_move")
    start_move(g, "bmp")
    assert mods(g, "bmp", "micv", "on_the_move", "SU-BMP-gun")[2]["fire on the move"][0] == -1
    FI.check_attack(g, "SU", ["bmp"], "micv", {"bmp": "SU-BMP-gun"}, "on_the_move")
    with pytest.raises(RulesError):
        FI.check_attack(g, "SU", ["bmp"], "micv", {"bmp": "SU-Sagger"}, "on_the_move")
    opts = FA.firefight_move_options(g, "bmp")
    assert opts and all(o["weapon"] == "SU-BMP-gun" for o in opts)


def test_ff_128_instant_smoke(tmp_path: Path) -> None:
    g = mini_game(tmp_path, [U("micv", "US-MICV", "US", "1010"), U("m113", "US-M113", "US", "1210")],
                  rules=[*FAR, "firefight.smoke"])
    g.state.phase = "firefight.direct_fire"
    acts = FA.firefight_phase_actions(g, "US", "firefight.direct_fire")
    assert {a["unit"] for a in acts} == {"micv"} and len(acts) == 6
    c = g.board.parse("1010")
    assert all(g.board.parse(a["hex"]).distance(c) == 1 for a in acts)
    list(FA.firefight_run_action(g, "US", acts[0]) or ())
    assert SM.smoke_hexes_of(g) == SM.smoke_area(g.board.parse(acts[0]["hex"]))
    assert g.state.units["micv"].state["fired"]  # in lieu of its fire


# ---------------------------------------------------------------------------------------------
# Firefight 28: overrun
# ---------------------------------------------------------------------------------------------

OVR = ["firefight.overrun"]


def test_ff_129_overrun(tmp_path: Path) -> None:
    g = mini_game(tmp_path, [U("m60", "US-M60A1", "US", "1009"), U("tm", "SU-TM", "SU", "1010"),
                             U("far", "SU-T62", "SU", "1020")],
                  [{"at": "1010", "terrain": "forest"}], rules=OVR)
    g.state.units["tm"].state["fired"] = True  # fired earlier this turn (Firefight 28.2)
    m60 = start_move(g, "m60")
    assert MV.step_problem(g, m60, g.board.parse("1010")) is None  # Firefight 7.25: lifted
    MV.do_step(g, m60, "1010")
    assert OV.enemies_in(g, m60) == [g.state.units["tm"]]
    # during the overrun: range 1, no Forest filter, AR 3 for the TM without RPG-7
    rstate(g, "overrun")["active"] = {"unit": "m60"}
    tm = g.state.units["tm"]
    w = next(x for x in FI.weapons(g, tm, m60) if x.rule == "Firefight 28.5")
    att = FI.describe_attack(g, tm, m60, w, "overrun")
    assert FI.attack_rating(g, att)[:2] == (3, "Firefight 28.5")
    att2 = FI.describe_attack(g, m60, tm, FI.weapons(g, m60, tm)[0], "overrun")
    assert att2["range"] == 0 and FI.attack_rating(g, att2)[0] == FI.base_rating(
        "US-M60A1", "personnel", 1)
    assert "forest" in att2["filters"] and FI.resolve_attack(g, att2, 7)["filters"] == []
    rstate(g, "overrun")["active"] = None
    # the procedure: d6 odd -> Soviet first; both fire once; the TM dies
    gen = OV.overrun(g, "m60")
    k = roll_giving("anti_personnel", int(FI.base_rating("US-M60A1", "personnel", 1) or 0), "K")
    g.dice.force(1, 6, 6, k - 1 if k > 2 else 1, 1)
    with pytest.raises(StopIteration):
        next(gen)
    log = [e for e in g.log.for_side(None) if e.get("what") == "fire"]
    assert [e["firer"] for e in log[-2:]] == ["tm", "m60"]  # Soviet first (odd die)
    assert tm.hex is None and m60.hex == g.board.parse("1010")
    assert tm.state["fired"] and not m60.state.get("fired")  # Firefight 28.2: fire not counted
    assert m60.state["mp"] == 0.0  # it stopped in the hex
    assert not g.state.units["far"].state.get("fired")  # outsiders do nothing (Firefight 28.3)
    assert OV.fire_order("US", "US", ["a", "b"], "m") == ["m", "a", "b"]
    assert OV.fire_order("SU", "US", ["a", "b"], "m") == ["a", "m", "b"]


def test_ff_130_overrun_ip_keeps_defilade(tmp_path: Path) -> None:
    g = mini_game(tmp_path, [U("m60", "US-M60A1", "US", "1009"), U("tm", "SU-TM", "SU", "1010")],
                  [{"at": "1010", "terrain": "forest"}],
                  rules=[*OVR, "firefight.improved_positions"],
                  special={"improved_positions": {"SU": ["1010"]}})
    m60 = start_move(g, "m60")
    MV.do_step(g, m60, "1010")
    tm = g.state.units["tm"]
    att = FI.describe_attack(g, m60, tm, FI.weapons(g, m60, tm)[0], "overrun")
    assert FI.resolve_attack(g, att, 7)["filters"] == ["defilade"]


def test_ff_93_m113z_kms_is_only_s(tmp_path: Path) -> None:
    """Firefight 27.12: for Indirect Fire the M113Z is a tank: a Kms only suppresses it."""
    g = mini_game(tmp_path, [U("z", "US-M113Z", "US", "1010"), U("m150", "US-M150", "US", "1012")],
                  rules=FAR)
    FI.apply_result(g, "z", "Kms", "indirect")
    FI.apply_result(g, "m150", "Kms", "indirect")
    assert g.state.units["z"].state.get("S") and not g.state.units["z"].state.get("Kms")
    assert g.state.units["m150"].state.get("Kms")  # the M150's TOW is destroyed (Firefight 8.65)


def test_overrun_ends_when_nobody_can_fire(tmp_path: Path) -> None:
    g = mini_game(tmp_path, [U("m60", "US-M60A1", "US", "1009", Kf=True),
                             U("mg", "SU-MG", "SU", "1010")], rules=OVR)
    m60 = start_move(g, "m60")
    MV.do_step(g, m60, "1010")
    with pytest.raises(StopIteration):
        next(OV.overrun(g, "m60"))
    assert any(e["type"] == "overrun_stalemate" for e in g.log.for_side(None))
    assert OV.active(g) is None and m60.hex == g.state.units["mg"].hex


def test_ff_102_exposed_m113_team_is_hit_by_indirect_fire(tmp_path: Path) -> None:
    """Firefight 16.21: a team that fired from its M113 is exposed as if dismounted for the turn: an
    Impact Zone attacks it (Firefight 8.6) (before it fires, riding inside, it is not attacked,
    Firefight 7.44); killed on its own, it leaves the vehicle (it cannot dismount later)."""
    from hexwar.plugins.firefight import indirect as IF

    g = mini_game(tmp_path, [U("m113", "US-M113", "US", "1010"),
                             U("tm", "US-TM", "US", "1010", carrier="m113", weapon="dragon"),
                             U("t62", "SU-T62", "SU", "1016")],
                  rules=["firefight.mounted_combat"])
    zone = [{"unit": "a", "side": "SU", "hex": "1010", "pattern": [8, 4, 2],
             "turn": g.state.turn}]
    ST.ff(g)["impacts"] = list(zone)
    g.dice.force(1, 1)
    assert {o["target"] for o in IF.attack_zones(g)} == {"m113"}  # not exposed yet
    FI.execute_attack(g, "US", ["tm"], "t62", {"tm": "US-Dragon"}, "direct", rolls=[12])
    assert g.state.units["tm"].state.get("r16_exposed")
    ST.ff(g)["impacts"] = list(zone)
    g.dice.force(1, 1, 1, 1)
    assert {o["target"] for o in IF.attack_zones(g)} == {"m113", "tm"}
    # an Impact Zone entered by the M113 attacks the exposed team too (Firefight 8.8, 16.21)
    m113 = g.state.units["m113"]
    g.dice.force(1, 1, 1, 1)
    IF.attack_mover(g, m113)
    targets = [e.get("target") for e in g.log.for_side(None) if e.get("what") == "indirect_fire"]
    assert targets[-2:] == ["m113", "tm"]
    # a passenger killed on its own is no longer carried
    FI.apply_result(g, "tm", "K", "indirect")
    assert g.state.units["tm"].hex is None and "tm" not in m113.state.get("passengers", [])


def test_exposed_team_dies_with_its_m113_before_its_own_if_attack(tmp_path: Path) -> None:
    """Firefight 7.44, 16.21: when the Impact Zone destroys the M113 first, its exposed team dies with it
    and is not attacked again (it is off the map)."""
    from hexwar.plugins.firefight import indirect as IF

    g = mini_game(tmp_path, [U("m113", "US-M113", "US", "1010"),
                             U("tm", "US-TM", "US", "1010", carrier="m113")],
                  rules=["firefight.mounted_combat"])
    g.state.units["tm"].state["r16_exposed"] = True  # it fired mounted this turn (Firefight 16.21)
    assert IF.exposed_passengers(g) == {"tm"}
    assert ff_data().if_crt[("SU", 8, 12)] == "K"
    ST.ff(g)["impacts"] = [{"unit": "a", "side": "SU", "hex": "1010", "pattern": [8, 4, 2],
                           "turn": g.state.turn}]
    g.dice.force(6, 6)
    out = IF.attack_zones(g)
    assert [o["target"] for o in out] == ["m113"]
    assert g.state.units["tm"].hex is None and g.state.units["tm"].state.get("destroyed")
