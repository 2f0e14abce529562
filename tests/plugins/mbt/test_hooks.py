"""MBT's own hooks: each one is called through the facade and changes the game (none is dead).

Every test enables a local rule (a plain object with a ``PLUGIN`` manifest) in a game built with
``make_game`` and compares with the same game without it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

from hexwar.core.engine.state import Unit
from hexwar.core.kit import Edit
from hexwar.core.markers import hookimpl
from hexwar.core.types import Modifier, PluginManifest
from hexwar.plugins.mbt import hookspecs
from hexwar.plugins.mbt.ap_fire import FireContext, ShotResult, Situation
from hexwar.plugins.mbt.fire import apply_effects, fire_error, resolve_shot, situation
from hexwar.plugins.mbt.hookspecs import MbtHooks
from hexwar.plugins.mbt.orders import legal_orders
from hexwar.plugins.mbt.sighting import sighting_phase
from hexwar.plugins.mbt.state import ctx

NATO, SOV = "NATO", "Soviet"
#: A fires at B, four hexes away, clear terrain
UNITS = [("A", "T-72M1", SOV, "9J2", 4), ("B", "Leopard 1A4", NATO, "9J6", 1)]


class Rule:
    """A local optional rule of MBT for one test."""

    def __init__(self, name: str) -> None:
        self.PLUGIN = PluginManifest(name=f"mbt.test_{name}", system="mbt", kind="rule",
                                     title=f"test rule {name}", summary="a rule used by a test")
        self.calls: list[Any] = []


def game_with(make_game: Any, rule: Rule | None, units: Any = UNITS, **kw: Any) -> Any:
    if rule is None:
        return make_game(units, **kw)
    return make_game(units, options=[rule.PLUGIN.name], local_plugins=[rule], **kw)


def shot(game: Any, run: Any, dice_faces: Any, *rolls: int) -> dict[str, Any]:
    """A fires at B with the given dice; the logged result of the shot."""
    game.state.units["A"].state["order"] = "F"
    game.dice.force(*dice_faces(*rolls))
    run(resolve_shot(game, game.state.units["A"], game.state.units["B"], "APFSDS",
                     overwatch=False, simultaneous=False), lambda d: d.options[0])
    results = [e for e in game.log.for_side(None) if e.get("what") == "AP point effect fire"]
    assert len(results) == 1
    return results[0]


def test_the_facade_has_one_method_per_hook_and_is_the_systems_facade() -> None:
    from hexwar.plugins.mbt.plugin import hexwar_register_systems

    assert MbtHooks.called() == {
        "mbt_fire_steps", "mbt_ap_modifiers", "mbt_orders", "mbt_unit_height", "mbt_weapon_arc",
        "mbt_after_damage", "mbt_sees", "mbt_shot_situation", "mbt_movement_allowance",
        "mbt_stacking_unlimited", "mbt_unit_moved", "mbt_fire_options", "mbt_fire_error",
        "mbt_move_costs", "mbt_other_ammo", "mbt_ammo_error", "mbt_other_fire", "mbt_guest_card",
        "mbt_weapon_fire_error", "mbt_fired_again_error", "mbt_shot_fired", "mbt_guns_usable"}
    assert {n for n in vars(hookspecs) if n.startswith("mbt_")} == MbtHooks.called()
    assert hexwar_register_systems()[0].hooks is MbtHooks


def test_the_basic_game_implements_none_of_its_hooks(make_game: Any) -> None:
    g = make_game(UNITS)
    assert MbtHooks.of(g).implemented() == frozenset()


def test_fire_steps_edit_the_games_fire_procedure(make_game: Any, run: Any, dice_faces: Any) -> None:
    rule = Rule("fire_steps")

    def better_sights(c: FireContext, s: ShotResult) -> None:
        s.hit_number = min(99, s.hit_number + 30)
        s.notes.append("better sights: H +30")

    @hookimpl
    def mbt_fire_steps(game: Any) -> list[Edit[Any]]:
        rule.calls.append(game)
        return [Edit("insert_after", "hit_number", "better_sights", better_sights, rule="MBT 99.1")]

    rule.mbt_fire_steps = mbt_fire_steps  # type: ignore[attr-defined]
    plain, edited = game_with(make_game, None), game_with(make_game, rule)
    assert "better_sights" not in ctx(plain).fire.shot.names
    assert ctx(edited).fire.shot.names.index("better_sights") == 3
    assert rule.calls == [edited]  # once per game
    base = shot(plain, run, dice_faces, 99)
    more = shot(edited, run, dice_faces, 99)
    assert more["hit_number"] == min(99, base["hit_number"] + 30)


def test_ap_modifiers_add_to_every_shot(make_game: Any, run: Any, dice_faces: Any) -> None:
    rule = Rule("ap_modifiers")

    @hookimpl
    def mbt_ap_modifiers(game: Any, situation: Situation, firer: Unit,
                         target: Unit) -> list[Modifier]:
        rule.calls.append((firer.id, target.id, situation.range))
        return [Modifier("test smoke", -10, "MBT 14.3.1")]

    rule.mbt_ap_modifiers = mbt_ap_modifiers  # type: ignore[attr-defined]
    base = shot(game_with(make_game, None), run, dice_faces, 99)
    smoky = shot(game_with(make_game, rule), run, dice_faces, 99)
    assert rule.calls == [("A", "B", 4)]
    assert smoky["net"] == base["net"] - 10
    assert smoky["hit_number"] < base["hit_number"]
    assert (smoky["modifiers"][-1]["name"], smoky["modifiers"][-1]["value"]) == ("test smoke", -10)


def test_orders_change_what_a_unit_may_take(make_game: Any, run: Any) -> None:
    rule = Rule("orders")

    @hookimpl
    def mbt_orders(game: Any, unit: Unit, legal: Sequence[str]) -> list[str]:
        rule.calls.append((unit.id, tuple(legal)))
        return [o for o in legal if o != "M"]  # e.g. a command-control rule holding a unit

    rule.mbt_orders = mbt_orders  # type: ignore[attr-defined]
    plain, ruled = game_with(make_game, None), game_with(make_game, rule)
    for g in (plain, ruled):
        run(sighting_phase(g), [])
    assert "M" in legal_orders(plain, plain.state.units["A"])
    got = legal_orders(ruled, ruled.state.units["A"])
    assert "M" not in got and "F" in got
    assert rule.calls[-1] == ("A", ("F", "FM", "M", "OW"))


def test_unit_height_changes_rising_and_falling_fire(make_game: Any) -> None:
    rule = Rule("unit_height")

    @hookimpl
    def mbt_unit_height(game: Any, unit: Unit) -> float | None:
        rule.calls.append(unit.id)
        return 3.0 if unit.id == "A" else None  # A on an upper floor (Advanced MBT 13.2)

    rule.mbt_unit_height = mbt_unit_height  # type: ignore[attr-defined]
    plain, ruled = game_with(make_game, None), game_with(make_game, rule)

    def elevation(g: Any) -> str:
        a, b = g.state.units["A"], g.state.units["B"]
        return situation(g, a, "125mm", "APFSDS", b).elevation

    assert elevation(plain) == "Level"
    assert elevation(ruled) == "Falling"
    assert set(rule.calls) == {"A", "B"}


def test_weapon_arc_lets_a_hull_weapon_fire_all_round(make_game: Any) -> None:
    rule = Rule("weapon_arc")

    @hookimpl
    def mbt_weapon_arc(game: Any, unit: Unit, weapon: str) -> str | None:
        rule.calls.append((unit.id, weapon))
        return "360"

    rule.mbt_weapon_arc = mbt_weapon_arc  # type: ignore[attr-defined]
    behind = [("A", "T-72M1", SOV, "9J2", 1), ("B", "Leopard 1A4", NATO, "9J6", 1)]
    plain, ruled = game_with(make_game, None, behind), game_with(make_game, rule, behind)
    for g in (plain, ruled):
        g.state.units["A"].state["order"] = "F"

    def error(g: Any) -> str | None:
        return fire_error(g, g.state.units["A"], g.state.units["B"], "APFSDS", orders=("F",))

    assert "firing arc" in (error(plain) or "")
    assert error(ruled) is None
    assert rule.calls == [("A", "125mm")]


def test_after_damage_hears_every_damage_applied(make_game: Any) -> None:
    rule = Rule("after_damage")

    @hookimpl
    def mbt_after_damage(game: Any, unit: Unit, effects: Sequence[str]) -> None:
        rule.calls.append((unit.id, list(effects)))
        if "track" in effects:
            unit.state["bailed_out"] = True  # e.g. MBT 17.2.3 bail-out

    rule.mbt_after_damage = mbt_after_damage  # type: ignore[attr-defined]
    plain, ruled = game_with(make_game, None), game_with(make_game, rule)
    for g in (plain, ruled):
        apply_effects(g, g.state.units["B"], ["track"])
    assert "bailed_out" not in plain.state.units["B"].state
    assert ruled.state.units["B"].state["bailed_out"] is True
    assert rule.calls == [("B", ["track"])]


@pytest.mark.parametrize("hook", sorted(MbtHooks.called()))
def test_a_rule_implementing_a_hook_makes_it_live(make_game: Any, hook: str) -> None:
    rule = Rule(hook.removeprefix("mbt_"))

    def impl() -> None:  # a hook implementation may take fewer arguments than the spec
        return None

    setattr(rule, hook, hookimpl(impl))
    g = game_with(make_game, rule)
    assert MbtHooks.of(g).implemented() == {hook}


def test_weapon_fire_error_checks_a_weapon_the_basic_game_lacks(make_game: Any) -> None:
    """MBT 14.1.2 through ``mbt_weapon_fire_error``: a rule that knows the weapon a shot names
    decides it (``""``: allowed), None leaves the shot to the Basic Game's checks."""
    rule = Rule("weapon_fire_error")

    @hookimpl
    def mbt_weapon_fire_error(game: Any, firer: Unit, target: Unit, ammo: str,
                              orders: tuple[str, ...], moving_target: bool,
                              check_arc: bool) -> str | None:
        rule.calls.append((firer.id, target.id, ammo, orders))
        return {"HMG TTO/GP": "", "MG/GP": "jammed (MBT 99.2)"}.get(ammo)

    rule.mbt_weapon_fire_error = mbt_weapon_fire_error  # type: ignore[attr-defined]
    plain, ruled = game_with(make_game, None), game_with(make_game, rule)
    for g in (plain, ruled):
        g.state.units["A"].state["order"] = "F"

    def error(g: Any, ammo: str) -> str | None:
        return fire_error(g, g.state.units["A"], g.state.units["B"], ammo, orders=("F",))

    assert "Advanced Game only" in (error(plain, "HMG TTO/GP") or "")  # the Basic Game's
    assert error(ruled, "HMG TTO/GP") is None
    assert error(ruled, "MG/GP") == "jammed (MBT 99.2)"
    assert error(ruled, "APFSDS") is None and error(plain, "APFSDS") is None
    assert rule.calls[0] == ("A", "B", "HMG TTO/GP", ("F",))


def test_fired_again_error_lets_a_rule_fire_a_unit_twice(make_game: Any) -> None:
    """MBT 7.1.5 once a Turn, unless ``mbt_fired_again_error`` allows it (``""``)."""
    rule = Rule("fired_again_error")

    @hookimpl
    def mbt_fired_again_error(game: Any, firer: Unit, ammo: str, missile: bool) -> str | None:
        rule.calls.append((firer.id, ammo, missile))
        return "" if ammo == "APFSDS" else None

    rule.mbt_fired_again_error = mbt_fired_again_error  # type: ignore[attr-defined]
    plain, ruled = game_with(make_game, None), game_with(make_game, rule)
    for g in (plain, ruled):
        g.state.units["A"].state.update(order="F", fired=True)

    def error(g: Any, ammo: str) -> str | None:
        return fire_error(g, g.state.units["A"], g.state.units["B"], ammo, orders=("F",))

    assert "already fired" in (error(plain, "APFSDS") or "")
    assert error(ruled, "APFSDS") is None
    assert "already fired" in (error(ruled, "HE") or "")  # None: the Basic Game's refusal
    assert rule.calls == [("A", "APFSDS", False), ("A", "HE", False)]


def test_shot_fired_hears_each_shot_of_a_declaration(make_game: Any, run: Any) -> None:
    """MBT 7.3.2: every firer is marked FIRED before any shot resolves; ``mbt_shot_fired`` hears
    each one then."""
    from hexwar.plugins.mbt.fire import fire_group

    rule = Rule("shot_fired")

    @hookimpl
    def mbt_shot_fired(game: Any, firer: Unit, ammo: str) -> None:
        rule.calls.append((firer.id, ammo, bool(firer.state.get("fired"))))

    rule.mbt_shot_fired = mbt_shot_fired  # type: ignore[attr-defined]
    g = game_with(make_game, rule)
    g.state.units["A"].state["order"] = "F"
    run(fire_group(g, SOV, {"target": "B", "shots": [["A", "APFSDS"]]}, overwatch=False,
                   simultaneous=True), lambda d: d.options[0])
    assert rule.calls == [("A", "APFSDS", True)]


def test_guns_usable_gives_orders_to_a_unit_without_its_main_gun(make_game: Any, run: Any) -> None:
    """MBT 6.2.3: no working main gun, no F, FM or OW, unless ``mbt_guns_usable`` says the unit
    has other guns."""
    rule = Rule("guns_usable")

    @hookimpl
    def mbt_guns_usable(game: Any, unit: Unit) -> bool | None:
        rule.calls.append(unit.id)
        return True

    rule.mbt_guns_usable = mbt_guns_usable  # type: ignore[attr-defined]
    plain, ruled = game_with(make_game, None), game_with(make_game, rule)
    for g in (plain, ruled):
        run(sighting_phase(g), [])
        g.state.units["A"].state["damage"]["gun"] = True
    assert legal_orders(plain, plain.state.units["A"]) == ["M"]
    assert legal_orders(ruled, ruled.state.units["A"]) == ["F", "FM", "M", "OW"]
    assert "A" in rule.calls
