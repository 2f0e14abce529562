"""The view cache (docs/decisions.md CORE-116, FFD-47): a side's view reuses the unit records it
showed before, and never shows a stale one: after a move, a fire, a reveal, a change of the
state made in place, or a change the controller made to its own copy, every view equals the one
built afresh without the cache."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from hexwar.core.cli import _controllers
from hexwar.core.engine.game import Game
from hexwar.core.engine.view import _VIEW_CACHE, VIEW_CONTEXT, SideView
from hexwar.core.markers import hookimpl
from hexwar.core.testing import make_game
from hexwar.core.types import PluginManifest
from hexwar.plugins.firefight import fire as FI
from hexwar.plugins.firefight.testing import mini_game
from hexwar.plugins.firefight.testing import unit_spec as U


def afresh(game: Game, side: str) -> SideView:
    """``side``'s view built without the cache (as every view was before CORE-116)."""
    context = game.stash.pop(VIEW_CONTEXT)
    try:
        view = SideView(game, side)
        _ = view.units, view.known_units()
    finally:
        game.stash[VIEW_CONTEXT] = context
    return view


def shown(view: SideView) -> tuple[dict[str, Any], list[tuple[Any, ...]]]:
    """Everything a controller reads of a view's units, ``repr`` included (1 is not True)."""
    units = [(u.id, u.type, u.side, u.hex, u.facing, repr(u.state)) for u in view.known_units()]
    return {k: repr(v) for k, v in view.units.items()}, units


def assert_fresh(game: Game) -> None:
    for side in game.state.sides:
        cached = game.view(side)
        assert cached.units is not None and cached._cached, "the cache was not used"
        assert shown(cached) == shown(afresh(game, side)), f"{side}'s cached view is stale"


def test_views_in_play_equal_views_built_afresh() -> None:
    """Scenario 1 with face-down units and dummies (Firefight 11.0, 12.0), AI against AI: moves,
    fires, reveals and removals, each side's cached view checked after every decision."""
    game = make_game("firefight:scenario-1", seed=2,
                     options=["firefight.observation", "firefight.dummies"])
    controllers, _ = _controllers(game, "ai,ai", 2)
    kinds = set()
    for _ in range(40):
        pending = game.pending
        if pending is None:
            break
        assert_fresh(game)
        kinds.add(pending.kind)
        game.answer(controllers[pending.side].choose(pending, game.view(pending.side)))
    assert len(kinds) >= 3  # moves and fire, not one kind of decision only
    assert game.stash.get(_VIEW_CACHE), "no view was cached"


def test_a_change_made_in_place_is_shown(tmp_path: Path) -> None:
    """A unit moved, a state value changed in type only (1 to True), a list changed in place (and
    the unit told, CORE-133), a unit removed from the map: each is in the very next view."""
    game = mini_game(tmp_path, [U("us", "US-M60A1", "US", "1005"), U("su", "SU-T62", "SU", "1030")])
    before = game.view("US").unit("su")
    su = game.state.units["su"]
    su.hex = game.board.parse("1029")
    assert game.view("US").unit("su").hex == su.hex != before.hex
    su.state["mark"] = 1
    assert game.view("US").units["su"]["state"]["mark"] == 1
    su.state["mark"] = True
    assert game.view("US").units["su"]["state"]["mark"] is True
    su.state["marks"] = [1]
    assert game.view("US").unit("su").state["marks"] == [1]
    su.state["marks"].append(2)
    su.touch()
    assert game.view("US").unit("su").state["marks"] == [1, 2]
    su.facing = 4
    assert game.view("US").unit("su").facing == 4
    su.hex = None
    assert game.view("US").units["su"]["hex"] is None
    assert_fresh(game)


def test_fire_and_reveal_are_shown(tmp_path: Path) -> None:
    """Firefight 11.0: a face-down unit that fires is turned face-up; the other side's next view
    shows it by its own name and type instead of its anonymous counter."""
    units = [U("us", "US-M60A1", "US", "1005"), U("su", "SU-T62", "SU", "1030")]
    forest = [{"at": f"{c:02d}20", "terrain": "forest"} for c in range(0, 41)]  # out of sight
    game = mini_game(tmp_path, units, forest, rules=["firefight.observation"])
    view = game.view("US")
    assert "su" not in view.units and any(k.startswith("?SU-") for k in view.units)
    game.state.units["su"].hex = game.board.parse("1015")
    assert "su" not in game.view("US").units  # moved, still face-down: no sweep ran
    game.state.units["us"].state.pop("face_down")
    FI.execute_attack(game, "SU", ["su"], "us", {}, "direct", rolls=[12])
    view = game.view("US")
    assert "su" in view.units and view.unit("su").type == "firefight:SU-T62"
    assert_fresh(game)


def test_passengers_exposed_are_shown(tmp_path: Path) -> None:
    """Firefight 16.21: the other side sees a vehicle's passengers only once exposed: the exposure
    is another unit's state, so it is in the context token, and the carrier's record is new."""
    units = [U("m113", "US-M113", "US", "1010"), U("tm", "US-TM", "US", "1010", carrier="m113"),
             U("su", "SU-T62", "SU", "1030")]
    game = mini_game(tmp_path, units, rules=["firefight.observation", "firefight.mounted_combat"])
    for u in game.state.units.values():
        u.state.pop("face_down", None)
    view = game.view("SU")
    assert "tm" not in view.units and "passengers" not in view.units["m113"]["state"]
    game.state.units["tm"].state["r16_exposed"] = True
    view = game.view("SU")
    assert view.units["m113"]["state"]["passengers"] == ["tm"]
    assert_fresh(game)


def test_a_controller_changing_its_copy_changes_no_later_view(tmp_path: Path) -> None:
    game = mini_game(tmp_path, [U("us", "US-M60A1", "US", "1005"), U("su", "SU-T62", "SU", "1030")])
    view = game.view("US")
    view.unit("su").state["hit"] = True
    view.unit("su").hex = None
    view.units["su"]["state"]["hit"] = 1
    view.units["su"]["hex"][0] = 99
    again = game.view("US")
    assert "hit" not in again.unit("su").state and again.unit("su").hex is not None
    assert "hit" not in again.units["su"]["state"] and again.units["su"]["hex"][0] != 99
    assert_fresh(game)


class _Disguise:
    """A unit view the Firefight view context does not know: it makes every view afresh."""

    PLUGIN = PluginManifest(name="house.disguise", system="firefight", kind="rule",
                            title="Disguise", summary="test", implements=("House 1.0",))

    @staticmethod
    @hookimpl
    def hexwar_unit_view(game: Any, side: str, unit_id: str) -> dict[str, Any] | None:
        return None


def test_an_unknown_unit_view_turns_the_cache_off(tmp_path: Path) -> None:
    game = mini_game(tmp_path, [U("us", "US-M60A1", "US", "1005"), U("su", "SU-T62", "SU", "1030")],
                     rules=["house.disguise"], local_plugins=[_Disguise])
    view = game.view("US")
    assert view.units and not view._cached and not game.stash.get(_VIEW_CACHE)


def test_a_change_in_place_the_unit_is_not_told_of_is_named_in_check_mode(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """docs/decisions.md CORE-133: a view kept by revision would be stale; the suite's check
    mode names the unit instead."""
    from hexwar.core.engine import state as state_module

    monkeypatch.setattr(state_module, "CHECK_STATE", True)
    game = mini_game(tmp_path, [U("us", "US-M60A1", "US", "1005"), U("su", "SU-T62", "SU", "1030")])
    su = game.state.units["su"]
    su.state["marks"] = [1]
    game.view("US").unit("su")
    su.state["marks"].append(2)  # not told
    with pytest.raises(state_module.StateTrackingError, match="'su'"):
        game.view("US").unit("su")


def test_a_sides_views_share_a_copy_until_it_or_its_record_changes(tmp_path: Path) -> None:
    """docs/decisions.md CORE-134: the same copy while nothing changed; a fresh one after the
    unit moved or after the controller assigned to its copy; never another side's."""
    game = mini_game(tmp_path, [U("us", "US-M60A1", "US", "1005"), U("su", "SU-T62", "SU", "1030")])
    first = game.view("US").unit("us")
    assert game.view("US").unit("us") is first
    assert game.view("SU").unit("su") is not game.view("US").unit("su")
    first.facing = 5  # the controller assigns to its copy: the next view gets a true one
    again = game.view("US").unit("us")
    assert again is not first and again.facing == game.state.units["us"].facing != 5
    again.state["planned"] = True
    assert "planned" not in game.view("US").unit("us").state
    game.state.units["us"].hex = game.board.parse("1006")
    moved = game.view("US").unit("us")
    assert moved.hex == game.board.parse("1006")
    assert_fresh(game)
