"""Crossing height hexsides in the Advanced Game (Firepower 11.1.4; stand-in MF FPD-170)."""

from __future__ import annotations

from typing import Any

import pytest

from hexwar.core.engine.game import Game
from hexwar.plugins.firepower import height_hexsides as hh
from hexwar.plugins.firepower.advanced_terrain import ground_of
from hexwar.plugins.firepower.state import data
from tests.plugins.firepower.test_defenses import ADV, GameFactory, _impulse
from tests.plugins.firepower.test_weather_status import _refused, _spent


def _act(g: Game, choice: dict[str, Any]) -> dict[str, Any]:
    from hexwar.plugins.firepower import defenses, weather
    from hexwar.plugins.firepower.actions import apply_action
    from hexwar.plugins.firepower.advanced_impulses import check_advanced_action

    check_advanced_action(g, choice)
    info = apply_action(g, choice)
    defenses.after_action(g, choice, info)
    weather.after_action(g, choice, info)
    hh.after_action(g, choice, info)
    return info


def _hill(fp_game: GameFactory, levels: int, posture: str = "stand") -> Game:
    """A1 in 1C3 facing 4, 1C4 a hill of ``levels`` contour levels (three heights each)."""
    return fp_game([("A1", "RFL", "A", "C3", 4, {"posture": posture})],
                   hexes=[{"at": "C4", "height": levels}], options=ADV)


def test_the_stand_in_bands() -> None:
    assert [hh.crossing_mf(h, "stand") for h in (1, 3, 4, 6, 7, 10)] == [1, 1, 2, 2, 3, 3]
    assert hh.crossing_mf(-6, "prone") == 3  # down as up
    assert hh.crossing_mf(11, "stand") is None  # climbed (Firepower 11.2.4)


def test_a_one_level_hill_costs_the_basic_crossing(fp_game: GameFactory) -> None:
    """Three heights: the crossing's 1 MF and the entering's 1, as in the Basic Game."""
    g = _hill(fp_game, 1)
    assert ground_of(g, g.board.parse("1C4")) == 3
    _impulse(g, "A", "A1")
    _act(g, {"act": "enter", "unit": "A1"})
    assert _spent(g, "A1") == 2


def test_a_two_level_hill_costs_more_to_cross(fp_game: GameFactory) -> None:
    """Firepower 11.1.4: six heights cost the stand-in 2 MF to cross Standing, with 1 to enter;
    the extra is logged with the rule."""
    g = _hill(fp_game, 2)
    _impulse(g, "A", "A1")
    _act(g, {"act": "enter", "unit": "A1"})
    assert _spent(g, "A1") == 3
    assert data(g)["phase"]["nc"]["A1"] == 3
    ev = [e for e in g.log.events if e.get("type") == "height_hexside"]
    assert ev and ev[-1]["cost"] == 1 and ev[-1]["rule"] == "Firepower 11.1.4"


@pytest.mark.parametrize(("posture", "cost"), [("crouch", 2 + 2), ("prone", 3 + 3)])
def test_the_crossing_depends_on_posture(fp_game: GameFactory, posture: str, cost: int) -> None:
    """Firepower 11.1.4: six heights Crouching 2 (+2 to enter), Prone 3 (+3 to enter)."""
    g = _hill(fp_game, 2, posture)
    _impulse(g, "A", "A1")
    data(g)["phase"]["spent"]["A1"] = -4  # room for the Prone total (a leader-like allowance)
    _act(g, {"act": "enter", "unit": "A1"})
    assert _spent(g, "A1") == -4 + cost


def test_the_new_hex_must_be_paid_too(fp_game: GameFactory) -> None:
    """Firepower 11.1.4: two MF left cross six heights, but the hex beyond costs one more: the
    move is refused, naming the rule, and nothing changes."""
    g = _hill(fp_game, 2)
    _impulse(g, "A", "A1")
    data(g)["phase"]["spent"]["A1"] = 2
    _refused(g, {"act": "enter", "unit": "A1"}, "Firepower 11.1.4", "6-height")


def test_going_down_costs_the_same(fp_game: GameFactory) -> None:
    g = fp_game([("A1", "RFL", "A", "C4", 4)], hexes=[{"at": "C4", "height": 2}], options=ADV)
    _impulse(g, "A", "A1")
    _act(g, {"act": "enter", "unit": "A1"})
    assert _spent(g, "A1") == 3


def test_snow_adds_to_the_hexside(fp_game: GameFactory) -> None:
    """Firepower 11.2.2 and 11.1.4 together: 1 enter + 2 crossing + 1 snow = 4."""
    g = _hill(fp_game, 2)
    g.scenario.raw.setdefault("special", {})["weather"] = "snow"
    _impulse(g, "A", "A1")
    data(g)["phase"]["spent"]["A1"] = 1  # three left: enough without the snow
    _refused(g, {"act": "enter", "unit": "A1"}, "Firepower 11.1.4")
    data(g)["phase"]["spent"]["A1"] = 0
    _act(g, {"act": "enter", "unit": "A1"})
    assert _spent(g, "A1") == 4


def test_a_melee_up_a_height_hexside_needs_its_mf(fp_game: GameFactory) -> None:
    """Firepower 11.1.4 with 6.2.5.2: the attackers enter the hex, so the six heights' 2 MF,
    the entering's 1 and the melee's 1 must all be there."""
    from hexwar.plugins.firepower.advanced_impulses import check_advanced_action

    g = fp_game([("A1", "RFL", "A", "C3", 4), ("B1", "RFL", "B", "C4", 1)],
                hexes=[{"at": "C4", "height": 2}], options=ADV)
    _impulse(g, "A", "A1")
    melee = {"act": "melee", "units": ["A1"], "hex": "1C4"}
    data(g)["phase"]["spent"]["A1"] = 1
    _refused(g, melee, "Firepower 11.1.4", "height hexside")
    data(g)["phase"]["spent"]["A1"] = 0
    check_advanced_action(g, melee)


def test_a_melee_in_snow_needs_the_snows_mf(fp_game: GameFactory) -> None:
    from hexwar.plugins.firepower.advanced_impulses import check_advanced_action

    g = fp_game([("A1", "RFL", "A", "C3", 4), ("B1", "RFL", "B", "C4", 1)], options=ADV)
    g.scenario.raw.setdefault("special", {})["weather"] = "snow"
    _impulse(g, "A", "A1")
    melee = {"act": "melee", "units": ["A1"], "hex": "1C4"}
    data(g)["phase"]["spent"]["A1"] = 2  # two left: entering 1 and melee 1, not the snow's 1
    _refused(g, melee, "Firepower 11.2.2", "snow")
    data(g)["phase"]["spent"]["A1"] = 1
    check_advanced_action(g, melee)
