"""Fire from confined places (Firepower 12.4.2 mortars under a roof, Firepower 12.4.3
backblast; :mod:`hexwar.plugins.firepower.confined_fire`)."""

from __future__ import annotations

from typing import Any

import pytest

from hexwar.core.engine.game import Game
from hexwar.core.errors import RulesError
from hexwar.plugins.firepower import confined_fire as cf
from hexwar.plugins.firepower.actions import fire_context
from hexwar.plugins.firepower.state import data
from hexwar.plugins.firepower.weapon_chart import weapon
from tests.plugins.firepower.test_terrain import _face, _game

# panel 4: 4AA5 is in building A (terrain-4.toml), 4W3 in the open


def _one(at: str, model: str, **state: Any) -> Game:
    g = _game([("F", "RFL", "A", at, 2, {}), ("E", "RFL", "B", "P3", 2, {})])
    g.state.units["F"].state.update(model=model, **state)
    return g


def _refused(g: Game, item: str, mode: str, rule: str) -> None:
    with pytest.raises(RulesError) as exc:
        cf.check(g, "F", weapon(item), mode)
    assert exc.value.rule == rule, str(exc.value)


def test_a_mortar_fired_normally_not_from_under_a_roof() -> None:
    """Firepower 12.4.2: MRT6 and MRT4 (normally) inside a building, bunker, pillbox, cave or
    tunnel are refused; MRT4 by hand, or any mortar in the open or in a tower, may fire."""
    g = _one("AA5", "MRT6")
    _refused(g, "MRT6", "semi", "Firepower 12.4.2")
    _refused(g, "MRT4", "semi", "Firepower 12.4.2")
    cf.check(g, "F", weapon("MRT4"), "hand")  # by hand, flat: allowed
    cf.check(_one("W3", "MRT6"), "F", weapon("MRT6"), "semi")
    for pos in ("BKR", "PBX"):
        _refused(_one("W3", "MRT6", in_defence=pos), "MRT6", "semi", "Firepower 12.4.2")
    _refused(_one("W3", "MRT6", tunnel=True), "MRT6", "semi", "Firepower 12.4.2")
    cf.check(_one("W3", "MRT6", in_defence="TWR"), "F", weapon("MRT6"), "semi")
    cf.check(_one("W3", "MRT6", in_defence="BKR", on_top="BKR"), "F", weapon("MRT6"), "semi")


def test_a_roof_blown_off_lets_the_mortar_fire() -> None:
    """Firepower 12.4.2, 12.3.4.2.7: a building hex without its roof is no covered structure."""
    g = _one("AA5", "MRT6")
    data(g)["roofless"] = ["4AA5"]
    cf.check(g, "F", weapon("MRT6"), "semi")


def test_backblast_weapons_not_in_confined_spaces() -> None:
    """Firepower 12.4.3: LPL3 and LCW1 (backblast) inside a building, bunker, pillbox, tower or
    tunnel are refused; in the open they fire; a weapon with no backblast is not concerned."""
    assert weapon("LPL3").backblast and weapon("LCW1").backblast
    assert not weapon("RFL10").backblast
    _refused(_one("AA5", "LPL3"), "LPL3", "semi", "Firepower 12.4.3")
    for pos in ("BKR", "PBX", "TWR"):
        _refused(_one("W3", "LCW1", in_defence=pos), "LCW1", "semi", "Firepower 12.4.3")
    _refused(_one("W3", "LPL3", tunnel=True), "LPL3", "semi", "Firepower 12.4.3")
    cf.check(_one("W3", "LPL3"), "F", weapon("LPL3"), "semi")
    cf.check(_one("AA5", "RFL10"), "F", weapon("RFL10"), "semi")


def test_the_refusal_comes_through_the_fire_and_changes_nothing() -> None:
    """Firepower 12.4.3: the grenade Action with the launcher is refused when prepared."""
    g = _one("AA5", "LPL3")
    u = g.state.units["F"]
    assert u.hex is not None
    t = g.board.parse("4W3")
    _face(u, t)
    before = g.state.digest()
    with pytest.raises(RulesError) as exc:
        fire_context(g, "F", {"act": "grenade", "unit": "F", "hex": "4W3", "item": "LPL3"})
    assert exc.value.rule == "Firepower 12.4.3"
    assert g.state.digest() == before
