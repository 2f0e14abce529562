"""MBT 12.4.2, 14.4.3.3, 14.4.4.2.3.5: GP point effect fire at terrain markers."""

from __future__ import annotations

import re
from typing import Any

import pytest

from hexwar.plugins.mbt import gp_terrain
from hexwar.plugins.mbt.advanced_tables import load_advanced
from hexwar.plugins.mbt.fire import direct_fire_phase
from hexwar.plugins.mbt.gp_fire import gp_factor
from hexwar.plugins.mbt.state import data

ADV = ["mbt.advanced"]
WIRE = 'markers = [{ hex = "9J5", kind = "wire" }, { hex = "9J6", kind = "improved_position" }]'


def _game(make_game: Any, extra: list[Any] | None = None, special: str = WIRE,
          **kw: Any) -> Any:
    units = [("N1", "M1", "NATO", "9J1", 4), ("S1", "T-80A", "Soviet", "9J20", 1), *(extra or [])]
    g = make_game(units, options=ADV, special=special, **kw)
    g.state.units["N1"].state["order"] = "F"
    return g


def _roll_for(g: Any, result: str, defense: int) -> int:
    """A roll giving ``result`` for N1's 105mm at range 4 (no modifiers apply)."""
    factor = gp_factor(g, g.state.units["N1"], "105mm", 4, False)
    assert factor is not None
    n, s, _src = load_advanced().gp_thresholds(factor, defense)
    return {"N": n, "S": s, "EF": s + 1}[result]


def test_wire_is_a_fire_option_and_an_improved_position_is_not_12_4_2(make_game: Any) -> None:
    """MBT 12.4.2: wire has a GP defense factor and may be fired at; an improved position
    cannot be destroyed, so it is never offered."""
    g = _game(make_game)
    opts = gp_terrain.options(g, "NATO", ("F", "FM"), set())
    # the 105mm and the M1's two machineguns (MBT 14.1.2, MBTD-148), at the wire only
    assert opts == [{"target": None, "hex": "9J5", "at": "wire", "shots": [["N1", ammo]]}
                    for ammo in ("GP", "HMG TTC/GP", "MG TTO/GP")]


@pytest.mark.parametrize(("choice", "rule"), [
    ({"hex": "9J6", "at": "improved_position", "shots": [["N1", "GP"]]},
     r"cannot be destroyed.*MBT 12\.4\.2"),
    ({"hex": "9J6", "at": "ditch", "shots": [["N1", "GP"]]},
     r"cannot be destroyed.*MBT 12\.4\.2"),
    ({"hex": "9J6", "at": "hasty_entrenchment", "shots": [["N1", "GP"]]},
     r"cannot be destroyed.*MBT 12\.4\.2"),
    ({"hex": "9J7", "at": "wire", "shots": [["N1", "GP"]]}, r"no wire marker in 9J7.*MBT 12\.4\.2"),
    ({"hex": "9J5", "at": "building", "shots": [["N1", "GP"]]}, r"MBT 14\.4\.3\.3\.2"),
    ({"hex": "9J5", "at": "wire", "shots": [["N1", "APFSDS"]]}, r"GP.*MBT 12\.4\.2"),
    ({"hex": "9J5", "at": "wire", "shots": [["S1", "GP"]]}, r"not one of your units"),
])
def test_bad_terrain_shots_are_refused_naming_the_rule(make_game: Any, choice: dict[str, Any],
                                                       rule: str) -> None:
    g = _game(make_game)
    before = (dict(data(g)["markers"]), dict(g.state.units["N1"].state))
    err = gp_terrain.choice_error(g, "NATO", choice, ("F", "FM"), set())
    assert err is not None
    assert re.search(rule, err), err
    assert (dict(data(g)["markers"]), dict(g.state.units["N1"].state)) == before


def test_small_arms_cannot_fire_at_terrain_14_4_3_3_1(make_game: Any) -> None:
    g = _game(make_game, [("N2", "Rifle Squad", "NATO", "9J4", 4)])
    g.state.units["N2"].state["order"] = "F"
    err = gp_terrain.firer_error(g, g.state.units["N2"], g.board.parse("9J5"), "GP", ("F",))
    assert err is not None and "MBT 14.4.3.3.1" in err


@pytest.mark.parametrize("result", ["N", "S"])
def test_no_effect_and_suppressed_leave_the_wire_14_4_4_2_2_3(make_game: Any, run: Any,
                                                             dice_faces: Any, result: str) -> None:
    g = _game(make_game)
    g.dice.force(*dice_faces(_roll_for(g, result, 3)))
    choice = {"target": None, "hex": "9J5", "at": "wire", "shots": [["N1", "GP"]]}
    run(direct_fire_phase(g), lambda d: choice if d.kind == "mbt.fire" and d.side == "NATO"
        and choice in d.options else "pass")
    g.apply_deferred()
    assert data(g)["markers"].get("9J5") == "wire"
    assert g.state.units["N1"].state["fired"]
    rep = [e for e in g.log.for_side(None) if e.get("what") == "GP point effect fire at terrain"]
    assert [(e["result"]["result"], e["gp_defense"], e["defense_source"]) for e in rep] == \
        [(result, 3, "estimated")]


def test_effective_destroys_the_wire_and_suppresses_the_hex_14_4_4_2_3_5(
        make_game: Any, run: Any, dice_faces: Any) -> None:
    """MBT 14.4.4.2.3.5, 14.4.3.3.3: an effective result removes the marker, at the end of the
    step (MBT 5.3), and suppresses every ground unit in the hex."""
    g = _game(make_game, [("S2", "Motor Rifle Squad", "Soviet", "9J5", 1)])
    g.dice.force(*dice_faces(_roll_for(g, "EF", 3)))
    choice = {"target": None, "hex": "9J5", "at": "wire", "shots": [["N1", "GP"]]}
    fired: list[Any] = []

    def answer(d: Any) -> Any:
        if d.kind == "mbt.fire" and d.side == "NATO" and choice in d.options and not fired:
            fired.append(d)
            return choice
        return "pass"

    run(direct_fire_phase(g), answer)
    assert fired and data(g)["markers"].get("9J5") == "wire"  # not before the step ends
    g.apply_deferred()
    assert "9J5" not in data(g)["markers"]
    assert g.state.units["S2"].state["suppressed"] == "ON"
    assert "9J6" in data(g)["markers"]
    from hexwar.plugins.mbt.words import describe_event

    said = [describe_event(g, r) or "" for r in g.log.for_side(None)]
    assert any("GP at the wire marker in 9J5" in w and ": EF, the marker is destroyed" in w
               for w in said)
    assert any(w.startswith("the wire in 9J5 is destroyed") for w in said)
    assert any(r.get("type") == "suppressed" and r.get("unit") == "S2" for r in g.log.for_side(None))


def test_table_side_gp_fire_at_terrain() -> None:
    """``hexwar mbt fire M1 wire --ammo GP``: the wire's GP defense, the table line and the
    effect; a ditch or small arms are refused with exit 2 and the rule."""
    import json

    from click.testing import CliRunner

    from hexwar.plugins.mbt.cli import mbt_group as cli

    runner = CliRunner()
    n, s, _src = load_advanced().gp_thresholds(25, 3)
    got = runner.invoke(cli, ["fire", "M1", "wire", "--ammo", "GP", "--range", "4",
                              "--dice", str(s + 1), "--seed", "1", "--json"])
    assert got.exit_code == 0, got.output
    out = json.loads(got.output)
    assert (out["gp_factor"], out["gp_defense"], out["result"]) == (25, 3, "EF")
    assert out["effects"] == ["destroyed"] and "MBT 12.4.2" in out["rules"]
    text = runner.invoke(cli, ["fire", "M1", "wire", "--ammo", "GP", "--range", "4",
                               "--dice", str(n), "--seed", "1"])
    assert "no effect on terrain (MBT 14.4.4.2.2.3)" in text.output
    bad = runner.invoke(cli, ["fire", "M1", "ditch", "--ammo", "GP", "--range", "4",
                              "--seed", "1"])
    assert bad.exit_code == 2 and "MBT 12.4.2" in bad.output
    arms = runner.invoke(cli, ["fire", "Rifle Squad", "wire", "--ammo", "GP", "--range", "1",
                               "--seed", "1"])
    assert arms.exit_code == 2 and "MBT 14.4.3.3.1" in arms.output


def test_destroyed_building_gets_a_permanent_block_14_4_3_3_3(make_game: Any) -> None:
    """MBT 14.4.3.3.3 (MBTD-93): the building hex is marked with a block that may never be
    eliminated (not even fired at), and the units in it are eliminated without a wreck."""
    g = _game(make_game, [("S2", "T-72M1", "Soviet", "9J5", 1)], special="",)
    gp_terrain.destroy_building(g, "9J5", "MBT 19.0")
    s2 = g.state.units["S2"]
    assert s2.state["destroyed"] == "eliminated" and s2.hex is None and not s2.state["wreck_at"]
    assert data(g)["markers"]["9J5"] == "block"
    assert gp_terrain.options(g, "NATO", ("F",), set()) == []
    err = gp_terrain.choice_error(g, "NATO", {"hex": "9J5", "at": "block",
                                               "shots": [["N1", "GP"]]}, ("F",), set())
    assert err is not None and "MBT 14.4.3.3.3" in err


def test_ai_words_and_explanations_tolerate_a_terrain_option(make_game: Any, run: Any) -> None:
    """The AI does not pick GP fire at terrain but must answer a decision offering it; the log
    words and the option explanation name the hex and the marker."""
    from hexwar.core.engine.view import build_view
    from hexwar.plugins.mbt.ai import MbtAI
    from hexwar.plugins.mbt.explain import _shots
    from hexwar.plugins.mbt.words import describe_event

    g = _game(make_game)
    ai = MbtAI("NATO", 1)
    offered: list[Any] = []
    asked: list[Any] = []

    def answer(d: Any) -> Any:
        if d.kind == "mbt.fire":
            offered.extend(o for o in d.options if isinstance(o, dict) and o.get("hex"))
            asked.append(d)
        return ai.choose(d, build_view(g, d.side)) if d.side == "NATO" else "pass"

    run(direct_fire_phase(g), answer)
    assert offered and "9J5" in data(g)["markers"]
    o = offered[0]
    assert _shots(g, o).startswith("at the wire marker in 9J5")
    said = describe_event(g, {"type": "decision", "kind": "mbt.fire", "side": "NATO",
                              "choice": o})
    assert "wire marker in 9J5" in said
    from hexwar.plugins.mbt.present import _shots as form

    got = form(build_view(g, "NATO"), asked[0])  # the web form lists it without a unit
    assert o in [c["choice"] for c in got["choices"]]


def test_terrain_shot_takes_the_general_modifiers_only_14_4_2_1(make_game: Any) -> None:
    """MBT 14.4.2.1.2-14.4.2.1.3: crew losses and a suppressed firer count against terrain; no
    vehicle modifier of MBT 14.4.2.2 (the wire is in woods) and no acquisition bonus."""
    g = _game(make_game, special='markers = [{ hex = "9J5", kind = "wire" }]')
    g2 = make_game([("N1", "M1", "NATO", "9J1", 4)], options=ADV, terrain={"9J5": "woods"},
                   special='markers = [{ hex = "9J5", kind = "wire" }]')
    for game in (g, g2):
        f = game.state.units["N1"]
        f.state.update(crew_losses=1, suppressed="ON")
        from hexwar.plugins.mbt.gp_fire import modifiers_of

        mods = modifiers_of(gp_terrain.situation(game, f, game.board.parse("9J5")))
        assert sorted((m.rule.split(" [")[0], m.value) for m in mods) == [
            ("MBT 14.4.2.1.2", -10), ("MBT 14.4.2.1.3", -20)]


def test_terrain_fire_by_an_unseen_firer_is_not_told_to_the_enemy_6_1(make_game: Any, run: Any,
                                                                      dice_faces: Any) -> None:
    """MBT 6.1 (hidden information): N1, ringed by hills and unseen by the Soviets, fires GP at
    wire; the Soviet log names neither N1 nor the range, NATO's does."""
    from hexwar.core.los import trace
    from hexwar.plugins.mbt.sighting import seen_by_side

    units = [("N1", "M1", "NATO", "9J1", 4), ("S1", "T-80A", "Soviet", "9T12", 1)]
    b = make_game(units, options=ADV, special=WIRE).board
    n1, aim = b.parse("9J1"), b.parse("9J5")
    line = {h for st in trace(n1, aim).steps for h in st.hexes}
    hills = {b.label(h): 9 for h in b.hexes
             if 2 <= h.distance(n1) <= 3 and h not in line}
    g = make_game(units, options=ADV, special=WIRE, heights=hills)
    g.state.units["N1"].state["order"] = "F"
    g.dice.force(*dice_faces(_roll_for(g, "N", 3)))
    choice = {"target": None, "hex": "9J5", "at": "wire", "shots": [["N1", "GP"]]}
    run(direct_fire_phase(g), lambda d: choice if d.kind == "mbt.fire" and d.side == "NATO"
        and choice in d.options else "pass")
    assert not seen_by_side(g, "Soviet", g.state.units["N1"])
    mine = [e for e in g.log.for_side("NATO") if e.get("what") == "GP point effect fire at terrain"]
    assert mine and mine[0]["firer"] == "N1"
    told = [e for e in g.log.for_side("Soviet") if e["type"] != "header"]
    assert not any("N1" in str(e) for e in told), told


def test_terrain_shot_reads_smoke_heights_like_other_fire_12_1_4(make_game: Any) -> None:
    """MBT 12.1.4, 14.4.2.1.7 (MBTD-135): smoke in a hex between the firer and the wire counts
    only where the line runs through it. From a hill at 9J1 to wire on a hill at 9J12 the line
    passes over the smoke in the valley at 9J6 (2 heights, stand-in): no modifier; on flat ground
    it counts; smoke in the wire's own hex always counts."""
    wire = 'markers = [{ hex = "9J12", kind = "wire" }]'
    hills = make_game([("N1", "M1", "NATO", "9J1", 4)], options=ADV, special=wire,
                      heights={"9J1": 3, "9J12": 3})
    flat = make_game([("N1", "M1", "NATO", "9J1", 4)], options=ADV, special=wire)

    def smoke_of(g: Any, where: str) -> int:
        data(g)["smoke"] = {where: "ON"}
        return gp_terrain.situation(g, g.state.units["N1"], g.board.parse("9J12")).other_smoke

    assert smoke_of(hills, "9J6") == 0
    assert smoke_of(flat, "9J6") == 1
    assert smoke_of(hills, "9J12") == 1


def test_terrain_and_smoke_firers_share_their_first_checks(make_game: Any) -> None:
    """The refusals shared by GP fire at terrain and smoke rounds keep their own words: orders
    (MBT 7.1.1 / MBT 14.4.5), fired (MBT 7.1.5), a gun out (MBT 7.4.5.3.2)."""
    from hexwar.plugins.mbt import alternate_ammo

    g = _game(make_game)
    f = g.state.units["N1"]
    h = g.board.parse("9J5")
    f.state["order"] = "M"
    assert "has no F/FM orders to fire in this step (MBT 7.1.1)" in str(
        gp_terrain.firer_error(g, f, h, "GP", ("F", "FM")))
    assert "has no F or FM orders to fire smoke (MBT 14.4.5)" in str(
        alternate_ammo.smoke_firer_error(g, f, h, "smoke"))
    assert "smoke rounds, not GP" in str(alternate_ammo.smoke_firer_error(g, f, h, "GP"))
    f.state.update(order="F", fired=True)
    for err in (gp_terrain.firer_error(g, f, h, "GP", ("F", "FM")),
                alternate_ammo.smoke_firer_error(g, f, h, "smoke")):
        assert err is not None and "already fired this Turn (MBT 7.1.5)" in err
    f.state["fired"] = False
    f.state["damage"]["gun"] = True
    err = gp_terrain.firer_error(g, f, h, "GP", ("F", "FM"))
    assert err is not None and "cannot fire its main gun (MBT 7.4.5.3.2" in err


def test_building_hexes_and_printed_bridges_are_never_offered_14_4_3_3_2(make_game: Any) -> None:
    """MBT 14.4.3.3.2: building hexes and printed bridges are destroyed only by artillery, bombs
    or assault infantry (options), so the Advanced Game's Direct Fire Step never offers a shot at
    them, even in range and sight; a declaration naming one is refused by that rule and changes
    nothing."""
    g = _game(make_game, terrain={"9L3": "brick", "9H3": "stone"},
              features={"9L2": ["bridge"]})
    opts = gp_terrain.options(g, "NATO", ("F", "FM"), set())
    assert {(o["hex"], o["at"]) for o in opts} == {("9J5", "wire")}
    from hexwar.plugins.mbt.advanced_sighting import hex_heights, line_of_sight

    n1 = g.state.units["N1"]
    for label in ("9L3", "9H3", "9L2"):  # in range and sight of N1's 105mm
        h = g.board.parse(label)
        assert line_of_sight(g, n1.hex, 0, h, hex_heights(g, h)[0]).clear
    for label, at in (("9L3", "building"), ("9H3", "building"), ("9L2", "bridge")):
        err = gp_terrain.choice_error(g, "NATO", {"target": None, "hex": label, "at": at,
                                                 "shots": [["N1", "GP"]]}, ("F", "FM"), set())
        assert err is not None and "MBT 14.4.3.3.2" in err and "artillery" in err, err
    assert not g.state.units["N1"].state.get("fired")


@pytest.mark.parametrize("target", ["building", "bridge"])
@pytest.mark.parametrize("weapon", [[], ["--weapon", "HMG TTC"]])
def test_table_side_refuses_a_shot_at_a_building_or_bridge_14_4_3_3_2(target: str,
                                                                      weapon: list[str]) -> None:
    """MBT 14.4.3.3.2: ``hexwar mbt fire M1 building --ammo GP`` (or a bridge; main gun or a
    machinegun) exits 2 naming the rule: only artillery, bombs or assault infantry destroy
    them."""
    from click.testing import CliRunner

    from hexwar.plugins.mbt.cli import mbt_group

    r = CliRunner().invoke(mbt_group, ["fire", "M1", target, "--ammo", "GP", "--range", "3",
                                       *weapon, "--dice", "1"])
    assert r.exit_code == 2, r.output
    assert "MBT 14.4.3.3.2" in r.output and "artillery" in r.output
