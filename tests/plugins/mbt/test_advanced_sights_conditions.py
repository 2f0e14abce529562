"""MBT 13.1.1 conditions and MBT 14.3.2 sights (Advanced Game): the image intensifier (I) and the
thermal imager (T) sight at Day ranges at night, the laser sights (L, C) and the laser designator
(D) in fog, blowing snow and smoke; Fog and Blowing Snow played from a scenario."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from hexwar.core.errors import DataError
from hexwar.plugins.mbt import advanced_sighting as adv
from hexwar.plugins.mbt.advanced_fire import ap_modifiers
from hexwar.plugins.mbt.alternate_ammo import sights_hex
from hexwar.plugins.mbt.cards import SHIPPED, load_card
from hexwar.plugins.mbt.fire import direct_fire_phase, situation
from hexwar.plugins.mbt.state import data

ADV = ["mbt.advanced"]
M1 = SHIPPED / "usa-1a_m1.toml"
MAIN_SIGHTS = 'sights = { value = "L", source = "estimated" }'


def _cards(tmp_path: Path, sights: str) -> str:
    """The shipped stand-in M1 with its 105mm's sights replaced (a test card only)."""
    folder = tmp_path / f"cards-{sights}"
    folder.mkdir(exist_ok=True)
    text = M1.read_text(encoding="utf-8")
    assert MAIN_SIGHTS in text
    (folder / "m1.toml").write_text(text.replace(
        MAIN_SIGHTS, f'sights = {{ value = "{sights}", source = "estimated" }}', 1),
        encoding="utf-8")
    return f'cards = "{folder.name}"'


def _game(make_game: Any, tmp_path: Path, sights: str, conditions: str, target: str = "9J16",
          **kw: Any) -> Any:
    special = _cards(tmp_path, sights) + f'\nconditions = "{conditions}"'
    return make_game([("N1", "M1", "NATO", "9J1", 4), ("S1", "T-72M1", "Soviet", target, 1)],
                     options=ADV, special=special, **kw)


def _sees(g: Any) -> bool:
    return adv.sees(g, g.state.units["N1"], g.state.units["S1"], False)


# -- MBT 14.3.2 (I): the image intensifier ---------------------------------------------------------


@pytest.mark.parametrize(("conditions", "reach", "at"), [
    ("Dusk", 20, "9J18"), ("Moonlight", 20, "9J18"), ("Night", 15, "9J16")])
def test_image_intensifier_sights_at_day_ranges_out_to_its_reach_14_3_2(
        make_game: Any, tmp_path: Path, conditions: str, reach: int, at: str) -> None:
    """MBT 14.3.2 (I): at Dusk or Moonlight an image intensifier sights at the Day range out to 20
    hexes, at Night out to 15 (stand-in chart: Day, open, clear, vehicle 30); without it the
    conditions' line of the chart (MBT 13.1.1)."""
    g = _game(make_game, tmp_path, "LI", conditions, at)
    n1, s1 = g.state.units["N1"], g.state.units["S1"]
    plain = adv.ctx(g).charts.sighting_range("Open", "clear", "VH", conditions)
    assert plain < reach
    assert adv.sighting_reach(g, n1, s1.hex, "clear", "VH", target=s1) == reach
    assert adv.night_sight_reach(g, n1, s1.hex, s1) == (reach, "I")
    # a target in woods: the Day range (5) is shorter than the reach, so it is the limit
    day_woods = adv.ctx(g).charts.sighting_range("Open", "woods", "VH", "Day")
    assert adv.sighting_reach(g, n1, s1.hex, "woods", "VH", target=s1) == max(
        day_woods, adv.ctx(g).charts.sighting_range("Open", "woods", "VH", conditions))
    # in a game: beyond the chart's range (17 hexes at Dusk and Moonlight, 15 at Night) the
    # intensifier sees, the plain sights do not
    assert _sees(g)
    plain_game = _game(make_game, tmp_path, "L", conditions, at)
    assert not _sees(plain_game)


def test_image_intensifier_at_night_stops_at_15_hexes_14_3_2(make_game: Any,
                                                             tmp_path: Path) -> None:
    """MBT 14.3.2 (I): Night: 15 hexes sighted (9J16), 16 not (9J17); at Dusk 16 is."""
    assert _sees(_game(make_game, tmp_path, "LI", "Night", "9J16"))
    assert not _sees(_game(make_game, tmp_path, "LI", "Night", "9J17"))
    assert _sees(_game(make_game, tmp_path, "LI", "Dusk", "9J17"))


def test_image_intensifier_is_negated_by_any_smoke_14_3_2(make_game: Any, tmp_path: Path) -> None:
    """MBT 14.3.2 (I): all types of smoke negate it: a smoke (ON) marker on the line, a burning
    wreck's smoke on the line, discharger smoke at either end."""
    g = _game(make_game, tmp_path, "LI", "Night")
    assert _sees(g)
    data(g)["smoke"] = {"9J8": "OFF"}
    assert not _sees(g)
    data(g)["smoke"] = {}
    data(g)["smoke_ds"] = {"S1": "9J16"}
    assert not _sees(g)
    data(g)["smoke_ds"] = {"N1": "9J1"}
    assert not _sees(g)
    data(g)["smoke_ds"] = {}
    assert _sees(g)
    data(g)["wrecks"] = {"9J8": "burning"}
    assert not _sees(g)
    data(g)["wrecks"] = {"9J8": "normal"}  # a wreck that does not burn makes no smoke
    assert _sees(g)


@pytest.mark.parametrize("conditions", ["Fog", "Blowing Snow"])
def test_image_intensifier_is_negated_by_fog_and_blowing_snow_14_3_2(
        make_game: Any, tmp_path: Path, conditions: str) -> None:
    """MBT 14.3.2 (I), 13.1.1: in fog or blowing snow the chart's Night line alone (stand-in 4,
    open, clear, vehicle): 4 hexes seen, 5 not, whatever the sights."""
    g = _game(make_game, tmp_path, "LIT", conditions, "9J5")
    n1, s1 = g.state.units["N1"], g.state.units["S1"]
    assert adv.night_sight_reach(g, n1, s1.hex, s1) is None
    assert _sees(g)
    assert not _sees(_game(make_game, tmp_path, "LIT", conditions, "9J6"))


def test_sights_lost_with_their_compartment_14_3_3_1(make_game: Any, tmp_path: Path) -> None:
    """MBT 14.3.3.1: a turret compartment hit destroys the sights of the turret's weapons; a hull
    compartment hit leaves a turret weapon's intensifier working."""
    g = _game(make_game, tmp_path, "LI", "Night")
    n1 = g.state.units["N1"]
    assert "I" in adv.unit_sights(g, n1)
    n1.state["damage"]["compartment"] = "hull"
    assert _sees(g)
    n1.state["damage"]["compartment"] = "turret"
    assert "I" not in adv.unit_sights(g, n1) and not _sees(g)


def test_image_intensifier_sights_a_hex_at_day_ranges_13_1_3_14_3_2(make_game: Any,
                                                                   tmp_path: Path) -> None:
    """MBT 13.1.3 with MBT 14.3.2 (I): sighting a hex (for a smoke round) at Night reaches the
    intensifier's 15 hexes as sighting a vehicle in a clear hex does."""
    g = _game(make_game, tmp_path, "LI", "Night")
    n1 = g.state.units["N1"]
    assert sights_hex(g, n1, g.board.parse("9J16")) is None
    err = sights_hex(g, n1, g.board.parse("9J17"))
    assert err is not None and "MBT 13.1.3" in err
    plain = _game(make_game, tmp_path, "L", "Night")
    assert sights_hex(plain, plain.state.units["N1"], plain.board.parse("9J16")) is not None


# -- MBT 14.3.2 (T): the thermal imager at night ----------------------------------------------------


def test_thermal_imager_sights_at_day_ranges_out_to_20_at_night_14_3_2(make_game: Any,
                                                                       tmp_path: Path) -> None:
    """MBT 14.3.2 (T), 18.1 (MBTD-146): at Night the Day range out to 20 hexes (9J20 is 19 away);
    other smoke does not stop it, the firer's or target's own discharger smoke does."""
    g = _game(make_game, tmp_path, "LT", "Night", "9J20")
    assert _sees(g)
    data(g)["smoke"] = {"9J8": "ON"}
    assert _sees(g)
    data(g)["smoke_ds"] = {"S1": "9J20"}
    assert not _sees(g)
    assert not _sees(_game(make_game, tmp_path, "LI", "Night", "9J20"))  # I: 15 at Night


# -- MBT 14.3.2: the AP sight modifiers under the conditions ----------------------------------------


def _sight_mod(g: Any) -> int | None:
    f, t = g.state.units["N1"], g.state.units["S1"]
    s = situation(g, f, "105mm", "APDS", t)
    got = [m.value for m in ap_modifiers(g, s, f, t) if m.rule.startswith("MBT 14.3.2")]
    return got[0] if got else None


@pytest.mark.parametrize(("sights", "conditions", "smoke", "want"), [
    ("L", "Day", None, 2), ("C", "Day", None, 2),
    ("L", "Fog", None, None), ("C", "Fog", None, 2),
    ("L", "Blowing Snow", None, None), ("C", "Blowing Snow", None, 2),
    ("L", "Day", "marker", None), ("C", "Day", "marker", 2),
    ("C", "Day", "discharger", None),
    ("D", "Day", None, None), ("D", "Fog", None, None),
    ("I", "Night", None, None), ("O", "Day", None, None),
])
def test_sight_modifiers_by_sight_and_conditions_14_3_2(
        make_game: Any, tmp_path: Path, sights: str, conditions: str, smoke: str | None,
        want: int | None) -> None:
    """MBT 14.3.2 at 11 hexes: L and C +2; L not in fog or blowing snow nor through smoke; C in
    both and through smoke but not discharger smoke; D (a designator for options 19 and 20, not
    built) and I give no modifier; O none."""
    g = _game(make_game, tmp_path, sights, conditions, "9J12")
    g.state.units["S1"].state["spotted"] = "FIRED"
    if smoke == "marker":
        data(g)["smoke"] = {"9J6": "ON"}
    elif smoke == "discharger":
        data(g)["smoke_ds"] = {"S1": "9J12"}
    assert _sight_mod(g) == want


def test_a_card_with_a_sight_letter_the_rules_do_not_know_is_refused_14_3_2(
        tmp_path: Path) -> None:
    """MBT 14.3.2: the Sights column holds C, D, I, L, O, R, S and T only."""
    text = M1.read_text(encoding="utf-8")
    bad = tmp_path / "bad.toml"
    bad.write_text(text.replace(MAIN_SIGHTS, 'sights = "LX"', 1), encoding="utf-8")
    with pytest.raises(DataError, match=r"MBT 14\.3\.2") as exc:
        load_card(bad)
    assert "sights" in str(exc.value)
    bad.write_text(text.replace(MAIN_SIGHTS, 'sights = "CDILORST"', 1), encoding="utf-8")
    assert load_card(bad).name == "M1"


# -- Fog and Blowing Snow from a scenario, end to end -----------------------------------------------


@pytest.mark.parametrize("conditions", ["Fog", "Blowing Snow"])
def test_fog_and_blowing_snow_are_played_from_a_scenario_13_1_1(
        make_game: Any, tmp_path: Path, run: Any, conditions: str) -> None:
    """MBT 13.1.1, 14.3.2: a scenario's ``[special] conditions`` of Fog or Blowing Snow: the
    Direct Fire Step offers the tank 4 hexes away (the chart's Night/Fog/Blowing Snow line, stand-in
    4), not the one 6 away; the game's visibility is the scenario's."""
    special = _cards(tmp_path, "L") + f'\nconditions = "{conditions}"'
    g = make_game([("N1", "M1", "NATO", "9J1", 4), ("S1", "T-72M1", "Soviet", "9J5", 1),
                   ("S2", "T-72M1", "Soviet", "9J7", 1)], options=ADV, special=special)
    assert adv.visibility(g) == conditions and adv.condition(g) == "Night"
    g.state.units["N1"].state["order"] = "F"
    offered: list[Any] = []

    def answer(d: Any) -> Any:
        if d.side == "NATO" and d.kind == "mbt.fire" and not offered:
            offered.extend(o for o in d.options if isinstance(o, dict))
            return {"target": "S1", "shots": [["N1", "APFSDS"]]}
        return "pass"

    run(direct_fire_phase(g), answer)
    targets = {o.get("target") for o in offered}
    assert "S1" in targets and "S2" not in targets
    assert any(e.get("type") == "result" and e.get("what") == "AP point effect fire"
               and e.get("target") == "S1" for e in g.log.for_side("NATO"))


@pytest.mark.parametrize("conditions", ["Fog", "Blowing Snow"])
def test_a_laser_shot_in_fog_or_blowing_snow_has_no_sight_modifier_14_3_2(
        make_game: Any, tmp_path: Path, run: Any, conditions: str) -> None:
    """MBT 14.3.2, end to end: in a Fog or Blowing Snow scenario a FIRED tank 11 hexes away is
    shot at; the L sight's +2 is not in the shot's record, a C sight's is."""
    for sights, want in (("L", False), ("C", True)):
        g = _game(make_game, tmp_path, sights, conditions, "9J12")
        g.state.units["N1"].state["order"] = "F"
        g.state.units["S1"].state["spotted"] = "FIRED"
        n1 = g.state.units["N1"]
        choice = {"target": "S1", "shots": [["N1", "APFSDS"]]}
        run(direct_fire_phase(g), lambda d, n1=n1, choice=choice: choice
            if d.side == "NATO" and d.kind == "mbt.fire" and not n1.state.get("fired")
            else "pass")
        shot = next(e for e in g.log.for_side("NATO") if e.get("type") == "result"
                    and e.get("what") == "AP point effect fire")
        rules = [str(m["rule"]) for m in shot["modifiers"]]
        assert any(r.startswith("MBT 14.3.2") for r in rules) is want, (sights, rules)


@pytest.mark.parametrize(("sights", "smoke", "counted"), [
    ("LT", "marker", 0), ("L", "marker", 1), ("LT", "discharger", 1), ("C", "marker", 1)])
def test_a_thermal_imager_ignores_smoke_markers_in_gp_fire_too_14_3_2(
        make_game: Any, tmp_path: Path, sights: str, smoke: str, counted: int) -> None:
    """MBT 14.3.2: the sight modifiers do not apply to GP fire, but the thermal imager's way with
    smoke does: its GP shot at 11 hexes takes no -20 for a smoke marker on the line, still one for
    discharger smoke; a C sight gives GP fire nothing (its ability is to be used through smoke)."""
    from hexwar.plugins.mbt.gp_fire import gp_modifiers

    g = _game(make_game, tmp_path, sights, "Day", "9J12")
    if smoke == "marker":
        data(g)["smoke"] = {"9J6": "ON"}
    else:
        data(g)["smoke_ds"] = {"S1": "9J12"}
    f, t = g.state.units["N1"], g.state.units["S1"]
    mods = [m for m in gp_modifiers(g, f, t, overwatch=False, target_moving=False)
            if m.rule.startswith("MBT 14.4.2.1.7")]
    assert len(mods) == counted, mods


@pytest.mark.parametrize(("sights", "counted"), [("LT", 0), ("L", 1)])
def test_a_thermal_imager_ignores_smoke_markers_at_terrain_too_14_3_2(
        make_game: Any, tmp_path: Path, sights: str, counted: int) -> None:
    """MBT 14.3.2 (T) with MBT 14.4.3.3.1: the 105mm's GP shot at wire 7 hexes away past a smoke
    marker counts it only without a thermal imager; its discharger smoke counts either way."""
    from hexwar.plugins.mbt import gp_terrain

    special = _cards(tmp_path, sights) + '\nmarkers = [{ hex = "9J8", kind = "wire" }]'
    g = make_game([("N1", "M1", "NATO", "9J1", 4), ("S1", "T-72M1", "Soviet", "9J20", 1)],
                  options=ADV, special=special)
    data(g)["smoke"] = {"9J4": "ON"}
    n1, h = g.state.units["N1"], g.board.parse("9J8")
    assert gp_terrain.situation(g, n1, h).other_smoke == counted
    data(g)["smoke_ds"] = {"N1": "9J1"}
    assert gp_terrain.situation(g, n1, h).other_smoke == counted + 1


def test_a_moved_target_doubles_the_day_range_within_the_intensifiers_reach_14_3_2(
        make_game: Any, tmp_path: Path) -> None:
    """MBT 6.1.3.3 with MBT 14.3.2 (I), MBTD-146: a MOVED target doubles the Day entry, and the
    intensifier's 15 hexes at Night still cap it (the cap is the sight's); in woods (Day 5) the
    doubled 10 is within the cap."""
    g = _game(make_game, tmp_path, "LI", "Night", "9J18")
    n1, s1 = g.state.units["N1"], g.state.units["S1"]
    charts = adv.ctx(g).charts
    assert adv.sighting_reach(g, n1, s1.hex, "clear", "VH", target=s1, doubled=True) == 15
    day_woods = charts.sighting_range("Open", "woods", "VH", "Day")
    assert adv.sighting_reach(g, n1, s1.hex, "woods", "VH", target=s1, doubled=True) == max(
        min(2 * day_woods, 15), 2 * charts.sighting_range("Open", "woods", "VH", "Night"))
    s1.state["spotted"] = "MOVED"
    assert not _sees(g)  # 17 hexes: beyond the cap even doubled
