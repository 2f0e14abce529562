"""MBT 14.1.2 independent vehicle machineguns and MBT 14.3.3.4.2 machineguns lost to hits
(Advanced Game; docs/decisions.md MBTD-127 to MBTD-130)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from hexwar.core.errors import DataError
from hexwar.plugins.mbt import machineguns
from hexwar.plugins.mbt.ap_fire import FireContext, HitResult, ShotResult
from hexwar.plugins.mbt.fire import ammo_options, declaration_validator, direct_fire_phase, fire_error
from hexwar.plugins.mbt.state import card_of, ctx

ADV = ["mbt.advanced"]
F = ("F", "FM")


def _game(make_game: Any, *, squad_at: str = "9J4", tank_at: str = "9L5", firer: str = "M1",
          firer_at: str = "9J1", facing: int = 4, options: Any = ADV, **kw: Any) -> Any:
    g = make_game([("N1", firer, "NATO", firer_at, facing),
                   ("S1", "Motor Rifle Squad", "Soviet", squad_at, 1),
                   ("S2", "T-72M1", "Soviet", tank_at, 1)], options=options, **kw)
    g.state.units["N1"].state["order"] = "F"
    g.state.phase = "mbt.direct_fire"  # the step a test's shots are fired in
    for uid in ("S1", "S2"):
        g.state.units[uid].state["spotted"] = "FIRED"  # seen at once (MBT 13.1)
    return g


def _snapshot(g: Any) -> str:
    return json.dumps(g.state.to_dict(), sort_keys=True, default=str)


def test_machinegun_card_data_14_1_2_2() -> None:
    """MBT 14.1.2.2: the card lists each machinegun's size and location; none of their numbers is
    printed in the text, so every one is an estimated stand-in."""
    from hexwar.core.provenance import is_estimated
    from hexwar.plugins.mbt.cards import load_cards

    cards = load_cards()
    m1 = machineguns.machineguns(cards["M1"])
    assert [(m.name, m.size, m.location) for m in m1] == [("HMG TTC", "HMG", "TTC"),
                                                           ("MG TTO", "MG", "TTO")]
    assert m1[1].needs_open and not m1[0].needs_open and m1[0].position == "TT"
    assert [m.location for m in machineguns.machineguns(cards["Marder A1"])] == ["HRC"]
    card = cards["T-80A"]
    wi = next(i for i, w in enumerate(card.weapons) if w.name == "HMG TTO")
    for key in ("location", "arc", "gp.nm[0]", "gp.max_range"):
        assert is_estimated(card.source(f"weapons[{wi}].{key}")), key
    # the coaxial machinegun is in the main gun: no card lists one as a weapon of its own
    assert all(not m.name.startswith("coax") for c in cards.values()
               for m in machineguns.machineguns(c))


def test_a_bad_machinegun_entry_is_refused_naming_the_key_14_1_2_2(tmp_path: Path) -> None:
    from hexwar.plugins.mbt.cards import SHIPPED, load_card

    text = (SHIPPED / "ussr-1a_t-80a.toml").read_text(encoding="utf-8")
    bad = tmp_path / "bad.toml"
    bad.write_text(text.replace('value = "TTO"', 'value = "TTX"'), encoding="utf-8")
    with pytest.raises(DataError, match=r"MBT 14\.1\.2\.2") as exc:
        load_card(bad)
    assert "location" in str(exc.value)
    bad.write_text(text.replace('machinegun = "HMG"', 'machinegun = "LMG"'), encoding="utf-8")
    with pytest.raises(DataError, match="machinegun"):
        load_card(bad)


def test_machinegun_shots_are_offered_in_the_advanced_game_only_14_1_2(make_game: Any) -> None:
    """MBT 14.1.2: an Advanced vehicle offers a GP shot of each independent machinegun; the Basic
    Game has none (its coaxial machineguns are in the main gun) and refuses one by name."""
    g = _game(make_game)
    f, s1 = g.state.units["N1"], g.state.units["S1"]
    assert {"HMG TTC/GP", "MG TTO/GP"} <= set(ammo_options(g, f))
    assert fire_error(g, f, s1, "HMG TTC/GP", orders=F) is None
    basic = _game(make_game, options=())
    bf, bs = basic.state.units["N1"], basic.state.units["S2"]
    assert not any("/" in a for a in ammo_options(basic, bf))
    err = fire_error(basic, bf, bs, "HMG TTC/GP", orders=F)
    assert err is not None and "Advanced Game" in err and "MBT 14.1.2" in err


def _answers(g: Any, nato: list[Any]) -> Any:
    def answer(d: Any) -> Any:
        if d.side == "NATO" and nato:
            return nato.pop(0)
        return "pass"
    return answer


def test_14_1_2_1_main_gun_and_machinegun_at_different_targets_in_one_step(
        make_game: Any, run: Any) -> None:
    """MBT 14.1.2.1: the main gun at the tank, the HMG at the squad in another declaration of
    the same Direct Fire Step; each weapon once (MBT 7.1.5)."""
    g = _game(make_game)
    run(direct_fire_phase(g), _answers(g, [
        {"target": "S2", "shots": [["N1", "APFSDS"]]},
        {"target": "S1", "shots": [["N1", "HMG TTC/GP"]]},
        "pass"]))
    reports = [e for e in g.log.for_side("NATO") if e.get("type") == "result"]
    whats = [(e["what"], e.get("weapon")) for e in reports]
    assert ("AP point effect fire", "105mm") in whats
    assert ("machinegun fire", "HMG TTC") in whats
    mg = next(e for e in reports if e["what"] == "machinegun fire")
    assert "MBT 14.1.2" in mg["rules"] and mg["target"] == "S1" and mg["range"] == 3
    assert isinstance(mg["roll"], int) and mg["gp_factor"] == 13  # the HMG's NM at 3 hexes
    f = g.state.units["N1"]
    assert f.state["gun_fire"]["names"] == ["105mm", "HMG TTC"]
    err = fire_error(g, f, g.state.units["S1"], "HMG TTC/GP", orders=F)
    assert err is not None and "MBT 7.1.5" in err


def test_14_1_2_1_machinegun_first_then_the_main_gun(make_game: Any, run: Any) -> None:
    """MBT 14.1.2.1: the machinegun may fire first (or alone); the main gun may still follow in
    the same step."""
    g = _game(make_game)
    _res, asked = run(direct_fire_phase(g), _answers(g, [
        {"target": "S1", "shots": [["N1", "MG TTO/GP"]]}]))
    second = [d for d in asked if d.side == "NATO"][1]
    assert {"target": "S2", "shots": [["N1", "APFSDS"]]} in second.options


def test_14_1_2_1_a_weapon_not_fired_then_is_not_kept(make_game: Any) -> None:
    """MBT 14.1.2.1: a vehicle that fired its main gun in one step fires no machinegun in a later
    step or phase; nor, in the Movement Phase, in a later declaration."""
    g = _game(make_game)
    f, s1 = g.state.units["N1"], g.state.units["S1"]
    f.state["fired"] = True
    f.state["gun_fire"] = {"turn": g.state.turn, "phase": "mbt.direct_fire", "names": ["105mm"]}
    g.state.phase = "mbt.direct_fire"
    assert fire_error(g, f, s1, "HMG TTC/GP", orders=F) is None
    for later in ("mbt.overwatch_fire", "mbt.movement"):
        g.state.phase = later
        err = fire_error(g, f, s1, "HMG TTC/GP", orders=F)
        assert err is not None and "MBT 14.1.2.1" in err
    f.state["gun_fire"]["phase"] = "mbt.movement"  # fired on overwatch during the move
    err = fire_error(g, f, s1, "HMG TTC/GP", orders=F)
    assert err is not None and "MBT 14.1.2.1" in err


def test_14_1_2_2_a_turret_top_o_machinegun_needs_the_turret_open(make_game: Any) -> None:
    g = _game(make_game)
    f, s1 = g.state.units["N1"], g.state.units["S1"]
    f.state["open"] = False
    err = fire_error(g, f, s1, "MG TTO/GP", orders=F)
    assert err is not None and "MBT 14.1.2.2" in err and "buttoned" in err
    assert fire_error(g, f, s1, "HMG TTC/GP", orders=F) is None  # "C": open or buttoned


def test_12_3_2_a_suppressed_vehicle_fires_no_machinegun(make_game: Any) -> None:
    g = _game(make_game)
    f, s1 = g.state.units["N1"], g.state.units["S1"]
    f.state["suppressed"] = "ON"
    err = fire_error(g, f, s1, "HMG TTC/GP", orders=F)
    assert err is not None and "MBT 12.3.2" in err


def test_14_1_2_3_a_crew_loss_means_main_gun_or_machineguns(make_game: Any) -> None:
    """MBT 14.1.2.3: after a crew loss, no machinegun fires with the main gun: not after it, not
    before it, not in the same declaration; either alone still fires."""
    g = _game(make_game)
    f, s1, s2 = (g.state.units[u] for u in ("N1", "S1", "S2"))
    f.state["crew_losses"] = 1
    g.state.phase = "mbt.direct_fire"
    validate = declaration_validator(g, "NATO", orders=F, overwatch=False)
    both = {"target": "S1", "shots": [["N1", "GP"], ["N1", "HMG TTC/GP"]]}
    before = _snapshot(g)
    err = validate(both)
    assert err is not None and "MBT 14.1.2.3" in err and _snapshot(g) == before
    assert validate({"target": "S1", "shots": [["N1", "HMG TTC/GP"]]}) is None
    f.state["crew_losses"] = 0
    assert validate(both) is None
    f.state.update(crew_losses=1, fired=True,
                   gun_fire={"turn": g.state.turn, "phase": "mbt.direct_fire", "names": ["105mm"]})
    err = fire_error(g, f, s1, "HMG TTC/GP", orders=F)
    assert err is not None and "MBT 14.1.2.3" in err
    f.state["gun_fire"]["names"] = ["HMG TTC"]
    err = fire_error(g, f, s2, "APFSDS", orders=F)
    assert err is not None and "MBT 14.1.2.3" in err
    assert fire_error(g, f, s1, "MG TTO/GP", orders=F) is None  # machineguns together


def test_14_2_1_a_machinegun_fires_in_its_own_arc(make_game: Any) -> None:
    """MBT 14.1.2.1, 14.2.1: the Marder A1's hull-rear MG (60R) fires behind it, not ahead."""
    from hexwar.core.hexgrid import in_arc

    g = _game(make_game, firer="Marder A1", firer_at="9J10", squad_at="9J7", tank_at="9J13",
              facing=1)
    f, s1, s2 = (g.state.units[u] for u in ("N1", "S1", "S2"))
    ahead, behind = s1, s2  # facing 1 looks toward row 1
    assert f.hex is not None and in_arc(f.hex, f.facing, ahead.hex, "60")
    assert fire_error(g, f, behind, "MG HRC/GP", orders=F) is None
    err = fire_error(g, f, ahead, "MG HRC/GP", orders=F)
    assert err is not None and "firing arc" in err and "MBT 14.2.1" in err


def test_14_4_1_a_machinegun_reaches_its_gp_range_only(make_game: Any) -> None:
    g = _game(make_game, squad_at="9J18")  # 17 hexes: beyond the HMG's 16
    f, s1 = g.state.units["N1"], g.state.units["S1"]
    err = fire_error(g, f, s1, "HMG TTC/GP", orders=F)
    assert err is not None and "range 17" in err and "MBT 14.4.1" in err


def test_bad_machinegun_shots_are_refused_and_change_nothing(make_game: Any) -> None:
    """A shot of a machinegun the unit lacks, a lost one, out of range or at an unseen unit: a
    clear refusal naming the rule, and the state as it was."""
    g = _game(make_game, squad_at="9J18")
    f = g.state.units["N1"]
    validate = declaration_validator(g, "NATO", orders=F, overwatch=False)
    f.state["mg_lost"] = ["MG TTO"]
    before = _snapshot(g)
    cases = {
        "S2": ("HMG TTX/GP", "MBT 14.1"),  # no such weapon: an attached-weapon style refusal
        "S1": ("HMG TTC/GP", "MBT 14.4.1"),
    }
    for target, (ammo, rule) in cases.items():
        err = validate({"target": target, "shots": [["N1", ammo]]})
        assert err is not None and rule in err, err
    err = validate({"target": "S2", "shots": [["N1", "MG TTO/GP"]]})
    assert err is not None and "MBT 14.3.3.4.2" in err
    assert _snapshot(g) == before


# -- MBT 14.3.3.4.2, 14.3.3.1: machineguns lost ---------------------------------------------------


class _Dice:
    def __init__(self, *rolls: int) -> None:
        self.rolls = list(rolls)

    def d100(self, purpose: str) -> int:
        return self.rolls.pop(0)


def _tt_hit(make_game: Any, location: str, target: str = "M1") -> tuple[Any, Any, Any, Any]:
    from hexwar.plugins.mbt.fire import situation

    g = make_game([("S1", "T-80A", "Soviet", "9J1", 4), ("N1", target, "NATO", "9J5", 1)],
                  options=ADV)
    t = g.state.units["N1"]
    s = situation(g, g.state.units["S1"], "125mm", "HEAT", t)
    shot = ShotResult(s)
    hit = HitResult(n=1, angle="Front", location=location)
    return g, FireContext(ctx(g).charts, _Dice()), shot, hit


@pytest.mark.parametrize(("target", "location", "lost"), [
    ("M1", "TT", ["HMG TTC", "MG TTO"]), ("Marder A1", "HR", ["MG HRC"]),
    ("Marder A1", "HF", []), ("M1", "HF", []), ("M1", "TF", []), ("M1", "HD", [])])
def test_mbt_62_machineguns_at_the_tt_hf_or_hr_are_lost_to_hits_there_14_3_3_4_2(
        make_game: Any, target: str, location: str, lost: list[str]) -> None:
    """MBT-62 (MBT 14.3.3.4.2): a TT hit takes out the machinegun mounted at the TT, open or
    buttoned; one on the HF only a machinegun at the HF (none on these cards); TF and HD never."""
    from hexwar.plugins.mbt.machineguns import step_mg_hit

    for open_ in (True, False):
        _g, fc, shot, hit = _tt_hit(make_game, location, target)
        shot.situation.target_open = open_
        step_mg_hit(fc, shot, hit)
        assert hit.lost_mgs == lost
        assert ("MBT 14.3.3.4.2" in hit.rules) == bool(lost)


def test_14_3_3_4_2_hf_machinegun_is_lost_to_an_hf_hit(make_game: Any, tmp_path: Path) -> None:
    """A user card with a bow machinegun ("HFC") loses it to a hit on the HF."""
    from hexwar.plugins.mbt.cards import SHIPPED, load_card

    text = (SHIPPED / "ussr-1a_t-80a.toml").read_text(encoding="utf-8")
    p = tmp_path / "bow.toml"
    p.write_text(text.replace('value = "TTO"', 'value = "HFC"'), encoding="utf-8")
    card = load_card(p)
    _g, fc, shot, hit = _tt_hit(make_game, "HF")
    shot.situation.target = card
    machineguns.step_mg_hit(fc, shot, hit)
    assert hit.lost_mgs == ["HMG TTO"]  # its name stays; its location is now the hull front


def test_14_3_3_4_2_the_loss_goes_through_the_fire_procedure_and_stops_the_mg(
        make_game: Any) -> None:
    """In the game's procedure the loss step runs before penetration (a hit that fails to
    penetrate still destroys it); the loss is kept on the unit, told to the sides that see it,
    and the machinegun fires no more (a refusal naming the rule)."""
    from hexwar.plugins.mbt.fire import apply_effects

    g, fc, shot, hit = _tt_hit(make_game, "TT")
    names = list(ctx(g).fire.names)
    assert names.index("open_crew_hit") < names.index("mg_hit") < names.index("penetration")
    hit.armor = 999  # fails to penetrate
    for step in ctx(g).fire.hit.steps[names.index("mg_hit") - len(ctx(g).fire.shot.names):]:
        step(fc, shot, hit)
        if hit.done:
            break
    assert hit.penetrated is False and hit.lost_mgs == ["HMG TTC", "MG TTO"]
    shot.hit_results = [hit]
    assert "mg_lost:HMG TTC" in shot.effects
    t, s1 = g.state.units["N1"], g.state.units["S1"]
    apply_effects(g, t, shot.effects)
    assert t.state["mg_lost"] == ["HMG TTC", "MG TTO"]
    assert not any(t.state["damage"].values())  # no other damage
    events = [e for e in g.log.for_side("NATO") if e.get("type") == "mg_lost"]
    assert [e["weapon"] for e in events] == ["HMG TTC", "MG TTO"]
    assert events[0]["rule"] == "MBT 14.3.3.4.2"
    t.state["order"] = "F"
    s1.state["spotted"] = "FIRED"
    err = fire_error(g, t, s1, "HMG TTC/GP", orders=F)
    assert err is not None and "destroyed" in err and "MBT 14.3.3.4.2" in err


def test_14_3_3_1_a_compartment_hit_silences_the_machineguns_mounted_there(make_game: Any) -> None:
    g = _game(make_game)
    f, s1 = g.state.units["N1"], g.state.units["S1"]
    f.state["damage"]["compartment"] = "hull"
    assert fire_error(g, f, s1, "HMG TTC/GP", orders=F) is None  # on the turret top
    f.state["damage"]["compartment"] = "turret"
    err = fire_error(g, f, s1, "HMG TTC/GP", orders=F)
    assert err is not None and "turret compartment" in err and "MBT 14.3.3.1" in err
    g2 = _game(make_game, firer="Marder A1", firer_at="9J10", squad_at="9J7", tank_at="9J13")
    m = g2.state.units["N1"]
    m.state["damage"]["compartment"] = "hull"
    behind = g2.state.units["S1"] if m.facing == 4 else g2.state.units["S2"]
    err = fire_error(g2, m, behind, "MG HRC/GP", orders=F)
    assert err is not None and "hull compartment" in err and "MBT 14.3.3.1" in err


def test_mbt_159_a_machinegun_loss_scores_no_victory_points(make_game: Any) -> None:
    """MBT-159 (MBT 9.4.2.1): a vehicle whose worst damage is a machinegun loss is worth 0."""
    from hexwar.plugins.mbt.victory import vehicle_points

    g = _game(make_game)
    g.state.units["S2"].state["mg_lost"] = ["HMG TTO"]
    assert vehicle_points(g, "NATO") == 0
    g.state.units["S2"].state["damage"]["track"] = True
    assert vehicle_points(g, "NATO") == card_of(g, g.state.units["S2"]).points[2]


# -- MBT 6.1: hidden information ---------------------------------------------------------------


def test_a_machinegun_firer_is_named_to_the_side_it_fires_at_7_1_4(make_game: Any,
                                                                    monkeypatch: Any) -> None:
    """MBT 7.1.4, 6.1.3.5 (MBTD-65, MBTD-130): a unit that fires is marked FIRED at once, so even
    the Soviet side, which did not see N1 before, is told who fired at its squad and with what,
    as for every other shot at a unit."""
    from hexwar.plugins.mbt import sighting

    g = _game(make_game)
    real = sighting.seen_by_side

    def unseen(game: Any, side: str, u: Any) -> bool:
        return False if u.id == "N1" and side == "Soviet" else real(game, side, u)

    monkeypatch.setattr(sighting, "seen_by_side", unseen)
    f, s1 = g.state.units["N1"], g.state.units["S1"]
    m = machineguns.split(card_of(g, f), "HMG TTC/GP")
    assert m is not None
    machineguns.resolve(g, f, s1, m, overwatch=False, target_moving=False)
    for side in ("NATO", "Soviet"):
        shots = [e for e in g.log.for_side(side) if e.get("type") == "result"]
        assert [(e["what"], e["firer"], e["weapon"]) for e in shots] == \
            [("machinegun fire", "N1", "HMG TTC")], side


def test_a_lost_machinegun_is_told_only_to_the_sides_that_see_the_vehicle(
        make_game: Any, monkeypatch: Any) -> None:
    """MBT 6.1 with MBT 14.3.3.4.2 (MBTD-130): the loss of N1's HMG is noted on N1 and told to
    NATO; the Soviet side, which does not see N1 now, is not told of it."""
    from hexwar.plugins.mbt import sighting

    g = _game(make_game)
    real = sighting.seen_by_side

    def unseen(game: Any, side: str, u: Any) -> bool:
        return False if u.id == "N1" and side == "Soviet" else real(game, side, u)

    monkeypatch.setattr(sighting, "seen_by_side", unseen)
    machineguns.lose(g, g.state.units["N1"], "HMG TTC")
    assert g.state.units["N1"].state["mg_lost"] == ["HMG TTC"]
    assert [e["weapon"] for e in g.log.for_side("NATO") if e.get("type") == "mg_lost"] == \
        ["HMG TTC"]
    assert not any(e.get("type") == "mg_lost" for e in g.log.for_side("Soviet"))


# -- overrun, doctrine, the AI ------------------------------------------------------------------


def test_14_7_2_2_1_overrun_fire_counts_the_machineguns_that_could_fire(make_game: Any) -> None:
    from hexwar.plugins.mbt.overrun import attack_factor

    g = _game(make_game)
    f = g.state.units["N1"]
    full, parts = attack_factor(g, f)
    assert any(p.startswith("HMG TTC") for p in parts) and any(p.startswith("MG TTO") for p in parts)
    f.state["open"] = False  # MBT 14.1.2.2: the TTO one is silent
    buttoned, parts = attack_factor(g, f)
    assert buttoned == full - 6 and not any(p.startswith("MG TTO") for p in parts)
    f.state["crew_losses"] = 1  # MBT 14.1.2.3: with the main gun, no machinegun
    crewed, parts = attack_factor(g, f)
    assert crewed == full - 10 - 6 and not any("MG" in p for p in parts)


def test_13_4_3_2_a_doctrine_organization_fires_its_machineguns_together(make_game: Any) -> None:
    """MBT 13.4.3.2: the members' machineguns go at one target together; a main gun and a
    machinegun in one declaration are two weapons, not two ammunitions."""
    from hexwar.plugins.mbt.doctrine import fire_error as doctrine_error

    g = make_game([("S1", "T-80A", "Soviet", "9J1", 4), ("S2", "T-80A", "Soviet", "9K1", 4),
                   ("N1", "Squad Standard Infantry [PZF-44]", "NATO", "9J4", 1)], options=ADV)
    for uid in ("S1", "S2"):
        g.state.units[uid].state.update(order="F", doctrine="101")
    g.state.units["N1"].state["spotted"] = "FIRED"
    g.state.phase = "mbt.direct_fire"
    from hexwar.plugins.mbt import doctrine
    from hexwar.plugins.mbt.state import data

    data(g).pop("doctrine", None)  # read again from the units' state
    assert doctrine.organizations(g) == {"101": ["S1", "S2"]}
    both = {"target": "N1", "shots": [["S1", "GP"], ["S1", "HMG TTO/GP"],
                                      ["S2", "HMG TTO/GP"], ["S2", "GP"]]}
    assert doctrine_error(g, "Soviet", both) is None
    alone = {"target": "N1", "shots": [["S1", "HMG TTO/GP"]]}
    err = doctrine_error(g, "Soviet", alone)
    assert err is not None and "MBT 13.4.3.2" in err


def test_the_ai_turns_its_machineguns_on_soft_targets(make_game: Any) -> None:
    """The AI scores a machinegun shot by the GP procedure: worth something at a squad, nothing
    at a buttoned tank (below its floor for shots at vehicles, MBTD-130)."""
    from hexwar.plugins.mbt.ai import MbtAI

    g = _game(make_game)
    g.state.units["S2"].state["open"] = False
    ai = MbtAI("NATO", 0)
    view = g.view("NATO")
    f, s1, s2 = view.unit("N1"), view.unit("S1"), view.unit("S2")
    at_squad = ai._p(view, f, s1, "HMG TTC/GP")
    assert at_squad > 0.1
    assert ai._p(view, f, s2, "HMG TTC/GP") == 0.0  # below mg_vehicle_floor: not worth a shot


def test_the_ai_fires_its_main_gun_at_the_tank_and_its_machineguns_at_the_squad(
        make_game: Any, run: Any) -> None:
    from hexwar.plugins.mbt.ai import MbtAI

    g = _game(make_game)
    ai = MbtAI("NATO", 0)

    def answer(d: Any) -> Any:
        return ai.choose(d, g.view("NATO")) if d.side == "NATO" else "pass"

    run(direct_fire_phase(g), answer)
    fired = [(e["what"], e.get("weapon"), e["target"]) for e in g.log.for_side("NATO")
             if e.get("type") == "result"]
    assert ("AP point effect fire", "105mm", "S2") in fired
    assert any(w == "machinegun fire" and t == "S1" for w, _n, t in fired), fired


def test_14_1_4_3_on_overwatch_the_missile_or_the_guns_machineguns_included(make_game: Any) -> None:
    """MBT 14.1.4.3: an overwatch unit fires its missile or its guns; naming its missile and a
    machinegun in one declaration is refused, naming the rule, and changes nothing."""
    from hexwar.plugins.mbt.overwatch import ow_validator

    g = make_game([("S1", "T-80A", "Soviet", "9J1", 4),
                   ("N1", "M1", "NATO", "9J5", 1)], options=ADV)
    g.state.units["S1"].state["order"] = "OW"
    g.state.units["N1"].state.update(spotted="FIRED", fired=True)
    g.state.phase = "mbt.overwatch_fire"
    validate = ow_validator(g, "Soviet", targets={"N1"})
    assert validate({"target": "N1", "shots": [["S1", "HMG TTO/GP"]]}) is None
    before = _snapshot(g)
    err = validate({"target": "N1", "shots": [["S1", "ATGM"], ["S1", "HMG TTO/GP"]]})
    assert err is not None and "MBT 14.1.4.3" in err and _snapshot(g) == before


def test_14_1_2_1_a_vehicle_whose_main_gun_is_out_still_fires_its_machineguns(
        make_game: Any) -> None:
    """MBT 14.1.2, 14.1.2.1: a main gun hit takes the coaxial machinegun with it, not the
    independent ones, which fire when a main gun could: the vehicle may still take F orders for
    them (the Basic Game has no such machineguns: no F order there)."""
    from hexwar.plugins.mbt.orders import legal_orders
    from hexwar.plugins.mbt.state import data

    for options, expect in ((ADV, True), ((), False)):
        g = _game(make_game, options=options)
        f, s1, s2 = (g.state.units[u] for u in ("N1", "S1", "S2"))
        f.state["damage"]["gun"] = True
        data(g)["sighted"] = {"N1": ["S1", "S2"]}
        assert ("F" in legal_orders(g, f)) is expect
        if expect:
            assert fire_error(g, f, s1, "HMG TTC/GP", orders=F) is None
            err = fire_error(g, f, s2, "APFSDS", orders=F)
            assert err is not None and "main gun" in err
            f.state["mg_lost"] = ["HMG TTC", "MG TTO"]  # MBT 14.3.3.4.2: nothing left to fire
            assert "F" not in legal_orders(g, f)


def test_the_advanced_plugin_answers_the_machinegun_hooks_14_1_2(make_game: Any) -> None:
    """MBT 14.1.2, 14.1.2.1: the Basic Game's fire checks call hooks for the machineguns, which
    the Advanced plugin implements; a Basic game refuses a machinegun shot outright."""
    from hexwar.plugins.mbt.fire import fire_error
    from hexwar.plugins.mbt.hookspecs import MbtHooks

    hooks = {"mbt_weapon_fire_error", "mbt_fired_again_error", "mbt_shot_fired",
             "mbt_guns_usable"}
    adv, basic = _game(make_game, options=ADV), _game(make_game, options=())
    assert hooks <= MbtHooks.of(adv).implemented()
    assert not hooks & MbtHooks.of(basic).implemented()
    for g in (adv, basic):
        for u in g.state.units.values():
            u.state["order"] = "F"
    n1, s2 = basic.state.units["N1"], basic.state.units["S2"]
    mg = next(a for a in ammo_options(adv, adv.state.units["N1"]) if "/" in a)
    assert "Advanced Game only" in (fire_error(basic, n1, s2, mg, orders=("F",)) or "")
