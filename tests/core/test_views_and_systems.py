"""Per-side views hide what a side may not know; cross-system scenarios need an adapter; boards
can be placed on the Earth."""

from __future__ import annotations

from pathlib import Path
from types import ModuleType
from typing import Any

from hexwar.core.engine.controllers import RandomController
from hexwar.core.engine.game import Game
from hexwar.core.markers import hookimpl
from hexwar.core.scenario import Scenario, validate_scenario
from hexwar.core.types import PluginManifest, UnitType

from .toy import toy_system

TOY = (Path(__file__).parent / "toy" / "scenario.toml").read_text()


class Fog:
    """Each side sees only its own units and enemies within two hexes."""

    @hookimpl
    def hexwar_visible_units(self, game: Any, side: str) -> list[str]:
        own = [u for u in game.state.units.values() if u.side == side and u.hex is not None]
        return sorted(
            u.id for u in game.state.units.values()
            if u.side == side or (u.hex is not None and any(u.hex.distance(o.hex) <= 2 for o in own))
        )


def test_a_view_never_holds_units_the_side_may_not_see() -> None:
    game = Game(Scenario.from_text(TOY), seed=1, local_plugins=[toy_system],
                extra_plugins=[("toy.fog", Fog())])
    players = {s: RandomController(s, 1) for s in game.state.sides}
    checked = 0
    while (d := game.pending) is not None:
        for side in game.state.sides:
            view = game.view(side)
            for uid in view.units:
                unit = game.state.units[uid]
                assert unit.side == side or any(
                    o.hex is not None and unit.hex is not None and o.hex.distance(unit.hex) <= 2
                    for o in game.state.units_of(side))
                checked += 1
            assert all(e.get("visible_to") in (None, [side]) for e in view.events())
        game.answer(players[d.side].choose(d, game.view(d.side)))
    # the units start 7+ hexes apart: at first neither side sees the other
    assert checked > 0
    fresh = Game(Scenario.from_text(TOY), seed=1, local_plugins=[toy_system],
                 extra_plugins=[("toy.fog", Fog())])
    assert set(fresh.view("red").units) == {"r1"}
    assert set(fresh.view(None).units) == {"r1", "b1"}  # the umpire sees everything


def plugin_module(name: str, manifest: PluginManifest, **hooks: Any) -> ModuleType:
    """A stand-in plugin module carrying ``manifest`` and the given hook implementations."""
    module = ModuleType(name)
    module.PLUGIN = manifest  # type: ignore[attr-defined]
    for key, value in hooks.items():
        setattr(module, key, value)
    return module


def _guest_system() -> ModuleType:
    class Impl:
        @hookimpl
        def hexwar_register_unit_types(self) -> list[UnitType]:
            return [UnitType("toy2:tank", "Tank", "vehicle")]

    return plugin_module(
        "toy2", PluginManifest(name="toy2", system="toy2", kind="system", title="Toy 2",
                               summary="a second system"),
        hexwar_register_unit_types=Impl().hexwar_register_unit_types)


ADAPTER = plugin_module("toy-toy2", PluginManifest(
    name="toy-toy2", system="toy", kind="adapter", title="Toy/Toy2",
    summary="lets toy and toy2 units fight", bridges=("toy", "toy2")))


def test_a_cross_system_scenario_needs_an_adapter() -> None:
    text = TOY.replace('type = "toy:gun"\nside = "blue"', 'type = "toy2:tank"\nside = "blue"')
    scenario = Scenario.from_text(text, path="x.toml")
    assert scenario.guest_systems() == ("toy2",)
    problems = validate_scenario(scenario, local_plugins=(toy_system, _guest_system()))
    assert [p.key for p in problems] == ["scenario.rules"]
    assert "no enabled adapter plugin bridges" in problems[0].message
    ok = validate_scenario(scenario, options=("toy-toy2",),
                           local_plugins=(toy_system, _guest_system(), ADAPTER))
    assert ok == []


def test_a_board_can_be_placed_on_the_earth() -> None:
    text = TOY.replace('[board]\npanels = [{ panel = "toy:panel-1" }]',
                       '[board]\npanels = [{ panel = "toy:panel-1" }]\n'
                       'geo = { lon = 9.68, lat = 50.55, hex_size_m = 100 }')
    game = Game(Scenario.from_text(text), seed=1, local_plugins=[toy_system])
    assert game.board.geo is not None
    a = game.board.parse("1A1")
    lon, lat = game.board.geo.hex_to_lonlat(a.q, a.r)
    assert abs(lon - 9.68) < 0.01 and abs(lat - 50.55) < 0.01


def test_two_adapters_for_one_pair_are_refused() -> None:
    text = TOY.replace('type = "toy:gun"\nside = "blue"', 'type = "toy2:tank"\nside = "blue"')
    scenario = Scenario.from_text(text, path="x.toml")
    other = plugin_module("toy-toy2-b", PluginManifest(
        name="toy-toy2-b", system="toy", kind="adapter", title="Toy/Toy2 again",
        summary="a second model of the same pair", bridges=("toy2", "toy")))
    problems = validate_scenario(scenario, options=("toy-toy2", "toy-toy2-b"),
                                 local_plugins=(toy_system, _guest_system(), ADAPTER, other))
    assert [p.message for p in problems] == [
        "adapters 'toy-toy2' and 'toy-toy2-b' both bridge toy and toy2; enable one"]
