"""The tests a house-rules package ships: the plugin contract, and what each rule answers.

Run them from this folder with ``pytest`` after ``pip install .``.
"""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest
from hexwar_house_rules import firefight_fog, firepower_fog, mbt_fog

from hexwar.core.testing import check_plugin_contract

#: the rules read only their attack's description, so the other arguments can be anything here
ANY: Any = None


@pytest.mark.parametrize("name", ["firefight.fog", "mbt.fog", "firepower.fog"])
def test_contract(name: str) -> None:
    check_plugin_contract(name)


def test_firefight_fog_beyond_20_hexes() -> None:
    def mods(rng: int) -> list[float]:
        return [m.value for m in firefight_fog.firefight_fire_modifiers(ANY, {"range": rng})]

    assert (mods(20), mods(21)) == ([], [-2])


def test_mbt_fog_beyond_10_hexes() -> None:
    def mods(rng: int) -> list[float]:
        situation: Any = SimpleNamespace(range=rng)
        return [m.value for m in mbt_fog.mbt_ap_modifiers(ANY, situation, ANY, ANY)]

    assert (mods(10), mods(11)) == ([], [-5])


def test_firepower_fog_beyond_20_hexes_and_not_for_grenades() -> None:
    def mods(kind: str, rng: int) -> list[float]:
        ctx: Any = SimpleNamespace(kind=kind, range=rng)
        return [m.value for m in firepower_fog.firepower_fire_modifiers(ANY, ctx, "t")]

    assert (mods("fire", 20), mods("fire", 21), mods("grenade", 21)) == ([], [2], [])
