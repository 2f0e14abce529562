"""Snow and mud (Firepower 11.2.2, the LEG chart's note (b); stand-in extras FPD-166) and the
status note (e) (Firepower 11.2.5)."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from hexwar.core.engine.game import Game
from hexwar.core.errors import HexwarError, RulesError
from hexwar.plugins.firepower import advanced_terrain as at
from hexwar.plugins.firepower import defenses, weather
from hexwar.plugins.firepower.actions import apply_action
from hexwar.plugins.firepower.advanced_impulses import check_advanced_action
from hexwar.plugins.firepower.state import data
from tests.plugins.firepower.test_defenses import ADV, GameFactory, _impulse


def _game(fp_game: GameFactory, units: list[tuple[Any, ...]], w: str | None,
          hexes: list[dict[str, Any]] | None = None) -> Game:
    g = fp_game(units, hexes=hexes, options=ADV)
    if w is not None:
        g.scenario.raw.setdefault("special", {})["weather"] = w
    return g


def _act(g: Game, choice: dict[str, Any]) -> dict[str, Any]:
    check_advanced_action(g, choice)
    info = apply_action(g, choice)
    defenses.after_action(g, choice, info)
    weather.after_action(g, choice, info)
    return info


def _spent(g: Game, uid: str) -> int:
    return int(data(g)["phase"]["spent"].get(uid, 0))


def _refused(g: Game, choice: dict[str, Any], rule: str, words: str = "") -> None:
    before = g.state.digest()
    with pytest.raises(RulesError, match=words or None) as exc:
        check_advanced_action(g, choice)
    assert exc.value.rule == rule, (exc.value.rule, str(exc.value))
    assert isinstance(exc.value, HexwarError)
    assert g.state.digest() == before


# -- Firepower 11.2.2 snow and mud -----------------------------------------------------------------


@pytest.mark.parametrize("w", ["snow", "mud"])
def test_in_snow_or_mud_entering_a_hex_costs_extra(fp_game: GameFactory, w: str) -> None:
    """Firepower 11.2.2: entering a hex in snow or mud costs the stand-in extra (1, FPD-166)."""
    g = _game(fp_game, [("A1", "RFL", "A", "C3", 4)], w)
    _impulse(g, "A", "A1")
    _act(g, {"act": "enter", "unit": "A1"})
    assert _spent(g, "A1") == 2
    assert data(g)["phase"]["nc"]["A1"] == 2  # non-combat MF, for a later fire's modifier
    ev = [e for e in g.log.events if e.get("type") == "weather_cost"]
    assert ev and ev[-1]["cost"] == 1 and ev[-1]["rule"] == "Firepower 11.2.2"


def test_clear_weather_costs_nothing_extra(fp_game: GameFactory) -> None:
    g = _game(fp_game, [("A1", "RFL", "A", "C3", 4)], None)
    _impulse(g, "A", "A1")
    _act(g, {"act": "enter", "unit": "A1"})
    assert _spent(g, "A1") == 1
    assert weather.weather(g) == "clear"


def test_backing_in_snow_pays_the_doubling_and_the_extra(fp_game: GameFactory) -> None:
    """Firepower 11.2.1 (a) doubles the backing; Firepower 11.2.2 adds snow's extra."""
    g = _game(fp_game, [("A1", "RFL", "A", "C3", 1)], "snow")
    _impulse(g, "A", "A1")
    _act(g, {"act": "back", "unit": "A1"})
    assert _spent(g, "A1") == 3


def test_a_turn_in_snow_is_not_marked_b(fp_game: GameFactory) -> None:
    g = _game(fp_game, [("A1", "RFL", "A", "C3", 4)], "snow")
    _impulse(g, "A", "A1")
    _act(g, {"act": "turn", "unit": "A1", "to": 1})
    assert _spent(g, "A1") == 1


@pytest.mark.parametrize(("w", "cost"), [("mud", 1), ("snow", 2)])
def test_mud_is_not_paid_on_pavement_snow_is(fp_game: GameFactory, w: str, cost: int) -> None:
    """Firepower 11.2.2: mud's extra is ignored on pavement, paved road and alley hexes only."""
    g = _game(fp_game, [("A1", "RFL", "A", "C3", 4)], w,
              hexes=[{"at": "C4", "terrain": "pavement"}])
    _impulse(g, "A", "A1")
    _act(g, {"act": "enter", "unit": "A1"})
    assert _spent(g, "A1") == cost


def test_a_paved_feature_counts_as_pavement(fp_game: GameFactory) -> None:
    g = _game(fp_game, [("A1", "RFL", "A", "C3", 4)], "mud",
              hexes=[{"at": "C4", "features": ["paved"]}])
    _impulse(g, "A", "A1")
    _act(g, {"act": "enter", "unit": "A1"})
    assert _spent(g, "A1") == 1


def test_inside_a_building_snow_is_not_paid(fp_game: GameFactory) -> None:
    """Firepower 11.2.2: no extra inside a building (from one room hex to the next)."""
    g = _game(fp_game, [("A1", "RFL", "A", "C3", 4)], "snow")
    m = at.adv_map(g)
    c3, c4 = (g.board.parse("1C3"), g.board.parse("1C4"))
    at.use_map(g, dataclasses.replace(m, building_of={c3: "A", c4: "A"}))
    _impulse(g, "A", "A1")
    _act(g, {"act": "enter", "unit": "A1"})
    assert _spent(g, "A1") == 1


def test_in_a_tunnel_snow_is_not_paid(fp_game: GameFactory) -> None:
    g = _game(fp_game, [("A1", "RFL", "A", "C3", 4)], "snow")
    g.state.units["A1"].state["tunnel"] = True
    info = {"act": "enter", "unit": "A1", "to": g.board.parse("1C4"), "cost": 1}
    assert weather.extra_cost(g, info) == 0
    g.state.units["A1"].state.pop("tunnel")
    assert weather.extra_cost(g, info) == 1


def test_a_move_without_the_snow_extra_is_refused(fp_game: GameFactory) -> None:
    g = _game(fp_game, [("A1", "RFL", "A", "C3", 4)], "snow")
    _impulse(g, "A", "A1")
    data(g)["phase"]["spent"]["A1"] = 3  # one MF left: enough in clear weather only
    _refused(g, {"act": "enter", "unit": "A1"}, "Firepower 11.2.2", "in snow")


def test_the_snow_extra_keeps_to_the_mf_announced_when_firing(fp_game: GameFactory) -> None:
    g = _game(fp_game, [("A1", "RFL", "A", "C3", 4)], "snow")
    _impulse(g, "A", "A1")
    data(g)["phase"]["after"]["A1"] = 1
    _refused(g, {"act": "enter", "unit": "A1"}, "Firepower 6.3.6", "announced")


def test_snow_and_an_abatis_add_up(fp_game: GameFactory) -> None:
    """Firepower 11.2.1 doubles the entering of an abatis hex (2), snow adds its 1: 3 MF; with
    two MF left the move is refused naming snow's rule."""
    g = _game(fp_game, [("A1", "RFL", "A", "C3", 4)], "snow")
    defenses.set_defences(g, [{"type": "ABS", "hex": "1C4"}])
    _impulse(g, "A", "A1")
    data(g)["phase"]["spent"]["A1"] = 2
    _refused(g, {"act": "enter", "unit": "A1"}, "Firepower 11.2.2")
    data(g)["phase"]["spent"]["A1"] = 0
    _act(g, {"act": "enter", "unit": "A1"})
    assert _spent(g, "A1") == 3


def test_the_weather_key_is_checked(tmp_path: Any) -> None:
    from hexwar.core.scenario import Scenario
    from hexwar.plugins.firepower.plugin import hexwar_validate_scenario

    text = ("[scenario]\nid = \"w\"\nsystem = \"firepower\"\nturns = 1\n"
            "[sides.A]\nsequence_units = 3\nimpulses = 2\n"
            "[sides.B]\nsequence_units = 3\nimpulses = 2\n"
            "[special]\nweather = \"hail\"\n")
    sc = Scenario.from_text(text, path=str(tmp_path / "w.toml"))
    assert any("weather" in str(p.key) or "weather" in p.message
               for p in hexwar_validate_scenario(sc))


def test_the_impulse_phase_charges_the_snow_extra(tmp_path: Any) -> None:
    """Firepower 11.2.2 in play: an Impulse's move in snow is charged its extra by the Advanced
    Impulse Phase itself."""
    from tests.plugins.firepower.test_advanced import SQUADS, _phase
    from tests.plugins.firepower.test_advanced import _game as adv_game

    g = adv_game(tmp_path, SQUADS)
    g.scenario.raw.setdefault("special", {})["weather"] = "snow"
    gen, _d = _phase(g)
    gen.send({"squad": "Q1", "hex": "1C7", "units": ["P1"]})
    gen.send({"unit": "P1", "act": "enter"})
    assert _spent(g, "P1") == 2


# -- Firepower 11.2.5 the status note (e) ----------------------------------------------------------


@pytest.mark.parametrize("status", ["suppressed", "pinned"])
def test_a_soldier_with_a_status_unit_writes_no_load_note(status: str) -> None:
    """Firepower 11.2.5 (with 12.2.2: no written Actions): a Suppressed or Pinned crewman may not
    plot loading or unloading; without the status unit he may."""
    from tests.plugins.firepower.test_loading import _crew_game
    from tests.plugins.firepower.test_terrain import _do
    from tests.plugins.firepower.test_terrain import _impulse as t_impulse

    game, _ = _crew_game("LCW1", crew=2)
    t_impulse(game, "A1")
    game.state.units["A1"].state["status"] = status
    _refused(game, {"unit": "A1", "act": "unload"}, "Firepower 11.2.5", status)
    game.state.units["A1"].state.pop("status")
    _do(game, {"unit": "A1", "act": "unload"})


def test_a_suppressed_soldier_fires_no_guided_missile(fp_game: GameFactory) -> None:
    """Firepower 11.2.5, 11.1.7, 12.4.6: a missile fired through a control box is an Action
    marked (e) (FPD-167)."""
    from hexwar.plugins.firepower import impulses
    from tests.plugins.firepower.test_weapons import _missile_game

    g = _missile_game(fp_game)
    impulses.start_impulse_phase(g, "A")
    impulses.begin_impulse(g, ["A1"])
    shot = {"unit": "A1", "act": "grenade", "hex": "1C15", "item": "W5", "ammo": "H",
            "as_g": True}
    check_advanced_action(g, shot)
    g.state.units["A1"].state["status"] = "suppressed"
    _refused(g, shot, "Firepower 11.2.5", "guided missile")


def test_a_suppressed_soldier_still_moves_and_fires_his_rifle(fp_game: GameFactory) -> None:
    """Firepower 11.2.5 bars only the Actions marked (e): entering and rifle fire are not."""
    g = _game(fp_game, [("A1", "RFL", "A", "C3", 4, {"model": "RFL10"}),
                        ("B1", "RFL", "B", "C8", 1, {"model": "RFL10"})], None)
    _impulse(g, "A", "A1")
    g.state.units["A1"].state["status"] = "suppressed"
    check_advanced_action(g, {"act": "fire", "unit": "A1", "mode": "semi", "targets": ["B1"]})
    _act(g, {"act": "enter", "unit": "A1"})


def test_the_note_e_list_is_a_marked_stand_in() -> None:
    from hexwar.core.provenance import load_records
    from hexwar.plugins.firepower.advanced_actions import NOTES, note_e_actions

    assert {"load", "unload", "missile"} <= note_e_actions()
    assert all(s == "estimated" for s in load_records(NOTES).sources.values())


# -- Firepower 8.8.2 no foxholes or trenches in pavement --------------------------------------------


@pytest.mark.parametrize("terrain", ["pavement", "paved_road"])
@pytest.mark.parametrize("code", ["DFX", "SFX", "TRN"])
def test_no_foxhole_or_trench_in_pavement(fp_game: GameFactory, terrain: str, code: str) -> None:
    """Firepower 8.8.2: foxholes and trenches are not placed in pavement or paved road hexes;
    the refusal names the rule and places nothing."""
    g = fp_game([("A1", "RFL", "A", "C2", 4)], hexes=[{"at": "C5", "terrain": terrain}],
                options=ADV)
    with pytest.raises(RulesError, match="paved road") as exc:
        defenses.set_defences(g, [{"type": code, "hex": "1C5"}])
    assert exc.value.rule == "Firepower 8.8.2"
    assert defenses.defences(g) == {}


def test_a_foxhole_in_an_alley_and_wire_on_pavement_are_placed(fp_game: GameFactory) -> None:
    """Firepower 8.8.2 names pavement and paved roads only, and only foxholes and trenches."""
    g = fp_game([("A1", "RFL", "A", "C2", 4)],
                hexes=[{"at": "C5", "terrain": "alley"}, {"at": "C7", "terrain": "pavement"}],
                options=ADV)
    got = defenses.set_defences(g, [{"type": "SFX", "hex": "1C5"}, {"type": "WIR", "hex": "1C7"}])
    assert len(got) == 2


# -- Firepower 11.1.5 posture changes, Firepower 10.6 speeds ------------------------------------


@pytest.mark.parametrize(("start", "to", "cost"), [("prone", "stand", 2), ("stand", "prone", 1)])
def test_advanced_posture_changes_cost_the_basic_mf(fp_game: GameFactory, start: str, to: str,
                                                     cost: int) -> None:
    """Firepower 11.1.5 (as the Basic Game, 6.2.4: Prone to Standing 2 MF, down to Prone 1)."""
    g = _game(fp_game, [("A1", "RFL", "A", "C3", 4, {"posture": start})], None)
    _impulse(g, "A", "A1")
    info = _act(g, {"act": "posture", "unit": "A1", "to": to})
    assert info["cost"] == cost and _spent(g, "A1") == cost


def test_fp_10_6_speeds() -> None:
    """Firepower 10.6: Running 4-6 new hexes, Slow 7-9, Medium 10-12, Fast 13 or more."""
    from hexwar.plugins.firepower.advanced_actions import speed_of
    from hexwar.plugins.firepower.soldiers import RUNNING_HEXES

    assert [speed_of(n) for n in (3, 4, 6, 7, 9, 10, 12, 13, 20)] == [
        "normal", "running", "running", "slow", "slow", "medium", "medium", "fast", "fast"]
    assert speed_of(RUNNING_HEXES) == "running"  # the Basic Game's Running (4.5) agrees


def test_a_fourth_hex_makes_an_advanced_soldier_running(fp_game: GameFactory) -> None:
    """Firepower 10.6: a leader's four new hexes (five MF, Firepower 11.1) show Running."""
    g = _game(fp_game, [("A1", "RFL", "A", "C3", 4, {"rank": "S"})], None)
    _impulse(g, "A", "A1")
    for _ in range(3):
        _act(g, {"act": "enter", "unit": "A1"})
    assert g.state.units["A1"].state.get("speed") != "running"
    _act(g, {"act": "enter", "unit": "A1"})
    assert g.state.units["A1"].state.get("speed") == "running"


def test_a_squad_entering_the_board_in_snow_pays_the_snow_on_its_edge_hex() -> None:
    """Firepower 10.2 (the normal MF of entering an edge hex) with 11.2.2 (snow's extra)."""
    from hexwar.plugins.firepower import entry as en
    from tests.plugins.firepower.test_entry import _late
    from tests.plugins.firepower.test_entry import _phase as entry_phase

    game = _late()
    game.scenario.raw.setdefault("special", {})["weather"] = "snow"
    entry_phase(game)
    game.state.turn = 2
    from hexwar.plugins.firepower.advanced_impulses import impulse_options

    opt = next(o for o in impulse_options(game, "A") if o.get("enter_board"))
    en.enter_board(game, "A", opt)
    ph = data(game)["phase"]
    assert ph["spent"]["L1"] == 2 and ph["nc"]["L1"] == 2  # 1 to enter, 1 for the snow


def test_the_terminal_tells_the_move_with_its_snow_and_hexside_mf(fp_game: GameFactory) -> None:
    """Firepower 11.2.2, 11.1.4: the choice in words names what the move costs in all."""
    from hexwar.plugins.firepower.explain import describe_choice

    g = fp_game([("A1", "RFL", "A", "C3", 4)], hexes=[{"at": "C4", "height": 2}], options=ADV)
    g.scenario.raw.setdefault("special", {})["weather"] = "snow"
    _impulse(g, "A", "A1")
    # 1 to enter, the Basic crossing 1, the six heights' 1 more, the snow's 1
    assert describe_choice(g, {"act": "enter", "unit": "A1"}).endswith("(4 MF)")
