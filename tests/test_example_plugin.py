"""The third-party example plugin, examples/hexwar-skirmish, used exactly as a third party's would be.

It is installed separately (CI runs ``pip install ./examples/hexwar-skirmish``). If it is not
installed, every test here FAILS and says how to install it: a skipped test would hide that the
plugin machinery is no longer exercised end to end.
"""

from __future__ import annotations

import importlib.util
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from hexwar.core.engine.controllers import RandomController
from hexwar.core.engine.game import Game
from hexwar.core.kit import Edit
from hexwar.core.manager import Hooks, build_plugin_manager, installed_plugins
from hexwar.core.markers import hookimpl
from hexwar.core.render import render_game
from hexwar.core.scenario import Scenario, validate_scenario
from hexwar.core.testing import check_plugin_contract
from hexwar.core.types import PluginManifest

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "hexwar-skirmish"
INSTALL_HINT = (
    "the example plugin hexwar_skirmish is not installed; install it with "
    f"`pip install {EXAMPLE}` (or `pip install -e examples/hexwar-skirmish` from the repository "
    "root) and run the tests again"
)


@pytest.fixture(autouse=True)
def _require_example() -> Iterator[None]:
    if importlib.util.find_spec("hexwar_skirmish") is None:
        pytest.fail(INSTALL_HINT, pytrace=False)
    yield


def scenario() -> Scenario:
    hooks = Hooks(build_plugin_manager("skirmish"))
    source = {s.name: s for s in hooks.data_sources("scenario")}["skirmish:crossroads"]
    return Scenario.load(source.path)


def new_game(seed: int = 1, options: tuple[str, ...] = ()) -> Game:
    return Game(scenario(), seed=seed, options=options)


def place(game: Game, **where: str | None) -> None:
    """Move units for a test situation (``R1="0605"``; ``None`` removes a unit)."""
    for uid, label in where.items():
        game.unit(uid).hex = None if label is None else game.board.parse(label)


def fire_events(game: Game) -> list[dict[str, Any]]:
    return [e for e in game.log.for_side(None) if e.get("type") == "result" and e.get("what") == "fire"]


def test_example_plugin_is_installed() -> None:
    assert importlib.util.find_spec("hexwar_skirmish") is not None, INSTALL_HINT


# -- discovery -------------------------------------------------------------------------------------


def test_found_through_its_entry_points() -> None:
    plugins = installed_plugins(refresh=True)
    assert "skirmish" in plugins and "skirmish.cover" in plugins
    assert plugins["skirmish"].distribution == "hexwar-skirmish"
    assert plugins["skirmish"].manifest.kind == "system"
    assert plugins["skirmish.cover"].manifest.kind == "rule"
    assert plugins["skirmish"].module.__name__ == "hexwar_skirmish.plugin"


def test_meets_the_plugin_contract() -> None:
    assert check_plugin_contract("skirmish")
    assert check_plugin_contract("skirmish.cover")


def test_scenario_is_valid() -> None:
    sc = scenario()
    assert sc.system == "skirmish"
    assert validate_scenario(sc) == []
    bad = Scenario.from_text(sc.text.replace('objective = ["0605"]', "objective = 3"), path="bad.toml")
    problems = validate_scenario(bad)
    assert [p.key for p in problems] == ["victory.objective"]  # Skirmish 7.2


def test_board_comes_from_its_own_panel_file() -> None:
    game = new_game()
    board = game.board
    assert len(board) == 120  # 12 columns x 10 rows
    assert board.terrain_of[board.parse("0605")] == "town"
    assert "objective" in board.features_of[board.parse("0605")]
    assert "hedge" in board.hexside(board.parse("0605"), board.parse("0604"))


# -- whole games ------------------------------------------------------------------------------------


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_random_players_play_to_the_end(seed: int) -> None:
    game = new_game(seed)
    result = game.play({s: RandomController(s, seed) for s in game.state.sides})
    assert game.over
    assert result.level in {"elimination", "objective", "marginal", "draw"}
    assert result.winner in {None, "red", "blue"}
    alive = {s: sum(1 for u in game.state.units_of(s) if u.hex is not None) for s in ("red", "blue")}
    assert dict(result.scores) == alive
    if result.level == "elimination":
        assert min(alive.values()) == 0
    else:
        assert game.state.turn == game.scenario.turns
    # the same seed and players give the same game
    again = new_game(seed)
    again.play({s: RandomController(s, seed) for s in again.state.sides})
    assert again.decisions == game.decisions and again.result == result


def test_its_ai_plays_to_the_end() -> None:
    game = new_game(4)
    ai = game.hooks.controllers()["ai"]
    result = game.play({s: ai.factory(s, 4) for s in game.state.sides})
    assert game.over and result.level in {"elimination", "objective", "marginal", "draw"}


def test_render_game_shows_the_units() -> None:
    import xml.etree.ElementTree as ET

    game = new_game()
    root = ET.fromstring(render_game(game, "red"))
    ns = "{http://www.w3.org/2000/svg}"
    ids = {g.get("data-id") for g in root.iter(f"{ns}g") if g.get("class") == "unit"}
    assert ids == {"R1", "R2", "R3", "B1", "B2", "B3"}


# -- the optional rule -------------------------------------------------------------------------------


def test_cover_changes_the_logged_modifiers() -> None:
    """Skirmish 9.1: the same games with the rule enabled log a 'cover' modifier; without, never."""
    with_cover: list[str] = []
    for seed in range(1, 9):
        plain = new_game(seed)
        plain.play({s: RandomController(s, seed) for s in plain.state.sides})
        names = {m["name"] for e in fire_events(plain) for m in e["modifiers"]}
        assert "cover" not in names
        covered = new_game(seed, ("skirmish.cover",))
        assert covered.rules_enabled == ("skirmish.cover",)
        covered.play({s: RandomController(s, seed) for s in covered.state.sides})
        for e in fire_events(covered):
            for m in e["modifiers"]:
                if m["name"] == "cover":
                    assert m == {"name": "cover", "value": -1, "rule": "Skirmish 9.1", "stage": 0}
                    with_cover.append(e["target"])
        if with_cover:
            break
    assert with_cover, "no shot at a target behind a hedge or wall in 8 games"


def test_cover_applies_only_across_a_hedge_or_wall() -> None:
    """Skirmish 9.1: 0605 has a hedge on its north hexside, none on its south hexside."""
    from hexwar_skirmish.fire import attack_of
    from hexwar_skirmish.hookspecs import SkirmishHooks

    game = new_game(1, ("skirmish.cover",))
    place(game, B1="0605", R1="0603", R2="0608")
    hooks = SkirmishHooks.of(game)
    north = attack_of(game, game.unit("R1"), game.unit("B1"))
    south = attack_of(game, game.unit("R2"), game.unit("B1"))
    assert [m.name for m in hooks.fire_modifiers(north)] == ["cover"]
    assert hooks.fire_modifiers(south) == []
    plain = new_game(1)
    place(plain, B1="0605", R1="0603")
    assert SkirmishHooks.of(plain).fire_modifiers(
        attack_of(plain, plain.unit("R1"), plain.unit("B1"))) == []


def test_the_facade_knows_which_hooks_are_implemented() -> None:
    """SkirmishHooks lists every hook Skirmish calls; in a game it knows which ones an enabled
    rule implements (and skips the others), and it is built once per game."""
    from hexwar_skirmish.hookspecs import SkirmishHooks

    assert SkirmishHooks.called() == {"skirmish_fire_modifiers", "skirmish_fire_steps"}
    assert Hooks(build_plugin_manager("skirmish")).system_info("skirmish").hooks is SkirmishHooks
    plain, covered = new_game(1), new_game(1, ("skirmish.cover",))
    assert SkirmishHooks.of(plain).implemented() == set()
    assert SkirmishHooks.of(covered).implemented() == {"skirmish_fire_modifiers"}
    assert SkirmishHooks.of(covered) is SkirmishHooks.of(covered)


class DoubleTap:
    """A rule made up for this test: after the fire table, a pinned result becomes eliminated."""

    PLUGIN = PluginManifest(name="skirmish.double_tap", system="skirmish", kind="rule",
                            title="Double tap", summary="test only")

    @hookimpl
    def skirmish_fire_steps(self, game: Game) -> list[Edit[Any]]:
        def double(game: Game, fire: Any) -> None:
            if fire.result == "pinned":
                fire.result = "eliminated"
                fire.rules.append("double tap")

        return [Edit("insert_after", "table", "double_tap", double, "double tap")]


def test_rules_edit_the_fire_procedure_by_step_name() -> None:
    from hexwar_skirmish.fire import fire_procedure, resolve_fire

    game = Game(scenario(), seed=1, options=("skirmish.double_tap",), local_plugins=[DoubleTap()])
    assert fire_procedure(game).names == ("modifiers", "roll", "table", "double_tap", "apply")
    assert fire_procedure(game) is fire_procedure(game)  # built once, kept in game.stash
    place(game, R1="0101", B2="0102")
    game.dice.force(3)  # modified 3: pinned by the table (Skirmish 5.4), then the inserted step
    assert resolve_fire(game, "R1", "B2") == "eliminated"
    assert fire_events(game)[-1]["rules"] == ["Skirmish 5.3", "Skirmish 5.4", "double tap"]
    assert fire_procedure(new_game()).names == ("modifiers", "roll", "table", "apply")


# -- the rules of Skirmish ----------------------------------------------------------------------------


def test_skirmish_4_movement_costs() -> None:
    from hexwar_skirmish import movement as R

    game = new_game()
    b = game.board

    def cost(a: str, c: str) -> float | None:
        return R.step_cost(b, b.parse(a), b.parse(c))

    assert cost("0101", "0102") == 1  # 4.2 clear
    assert cost("0201", "0202") == 2  # 4.2 woods
    assert cost("0704", "0804") == 2  # 4.3 up a level
    assert cost("0804", "0704") == 1  # 4.3 down is free
    assert cost("0301", "0401") == 2  # 4.4 hedge
    assert cost("0906", "1006") == 2  # 4.4 stream
    assert cost("0405", "0505") == 1  # 4.5 road across a hedge


def test_skirmish_4_6_no_enemy_hexes_and_two_per_hex() -> None:
    from hexwar_skirmish import movement as R

    game = new_game()
    place(game, R1="0505", R2="0506", R3="0506", B1="0504")
    dest = {game.board.label(h) for h in R.move_destinations(game, game.unit("R1"))}
    assert "0504" not in dest  # the enemy's hex
    assert "0506" not in dest  # two friends already there
    assert "0604" in dest
    game.unit("R1").state["pinned"] = True
    assert R.move_destinations(game, game.unit("R1")) == {}  # 4.1: pinned units stay


def test_skirmish_5_2_line_of_sight() -> None:
    from hexwar_skirmish import fire as R

    game = new_game()
    b = game.board
    assert R.can_see(game, b.parse("0101"), b.parse("0105"))
    assert not R.can_see(game, b.parse("0201"), b.parse("0204"))  # woods between
    assert not R.can_see(game, b.parse("0802"), b.parse("0805"))  # a hill between, ends low
    assert R.can_see(game, b.parse("0803"), b.parse("0805"))  # the firer is on the hill
    assert R.can_see(game, b.parse("0202"), b.parse("0101"))  # the end hexes never block


def test_skirmish_5_3_modifiers_and_5_4_table() -> None:
    from hexwar_skirmish import fire as R
    from hexwar_skirmish.rally import rally_result

    game = new_game()
    place(game, R3="0603", B1="0202", R1="0101", B2="0102")
    attack = R.attack_of(game, game.unit("R3"), game.unit("B1"))
    assert attack.range == 4
    mods = {m.name: m.value for m in R.base_modifiers(game, attack)}
    assert mods == {"mg firing": 1, "long range": -1, "target in woods": -1}
    assert R.base_modifiers(game, R.attack_of(game, game.unit("R1"), game.unit("B2"))) == []
    assert [R.fire_result(r) for r in (-1, 2, 3, 4, 5, 8)] == [
        "none", "none", "pinned", "pinned", "eliminated", "eliminated"]
    assert [rally_result(r) for r in range(1, 7)] == ["pinned"] * 3 + ["rallied"] * 3


def test_skirmish_5_5_pinned_twice_is_eliminated() -> None:
    from hexwar_skirmish.fire import resolve_fire

    game = new_game()
    place(game, R1="0101", B2="0102")
    game.dice.force(3)
    assert resolve_fire(game, "R1", "B2") == "pinned"
    assert game.unit("B2").state["pinned"] is True
    game.dice.force(4)
    assert resolve_fire(game, "R1", "B2") == "eliminated"
    assert game.unit("B2").hex is None
    event = fire_events(game)[-1]
    assert "Skirmish 5.5" in event["rules"] and event["roll"] == 4


def test_skirmish_7_victory() -> None:
    from hexwar_skirmish.victory import final_result as hexwar_final_result
    from hexwar_skirmish.victory import game_over as hexwar_game_over

    game = new_game()
    assert hexwar_game_over(game) is None
    place(game, B1="0605")
    result = hexwar_final_result(game)
    assert result is not None and (result.winner, result.level) == ("blue", "objective")  # 7.2
    place(game, R1="0605")  # both sides there: nobody holds it
    place(game, B2=None)
    result = hexwar_final_result(game)
    assert result is not None and (result.winner, result.level) == ("red", "marginal")
    place(game, B1=None, B3=None)
    over = hexwar_game_over(game)
    assert over is not None and (over.winner, over.level) == ("red", "elimination")  # 7.1


def test_skirmish_2_4_facing_after_moving_and_firing() -> None:
    from hexwar_skirmish import movement as R
    from hexwar_skirmish.fire import resolve_fire

    game = new_game()
    unit = game.unit("R1")
    place(game, R1="0101")
    board = game.board
    # straight down column 01: the last step leaves through the south hexside (4)
    assert R.facing_after_move(game, unit, board.parse("0103")) == 4
    place(game, R1="0103", B1="0101")
    game.dice.force(1)
    resolve_fire(game, "R1", "B1")
    assert unit.facing == 1  # turned to face the target, due north


def test_skirmish_3_initiative_and_alternation() -> None:
    """3.1: the higher die has the initiative; 3.5: it acts first, sides alternate, each unit
    acts once per phase, and the phase ends when both pass in a row."""
    game = new_game()
    game.dice.force(2, 5)  # red rolls 2, blue rolls 5
    decision = game.pending
    assert decision is not None and decision.kind == "move" and decision.side == "blue"
    first = next(o for o in decision.options or [] if o != "pass")
    game.answer(first)
    decision = game.pending
    assert decision is not None and decision.side == "red"
    game.answer("pass")
    decision = game.pending
    assert decision is not None and decision.side == "blue"
    assert all(o == "pass" or o["unit"] != first["unit"] for o in decision.options or [])
    game.answer("pass")  # two passes in a row: the move phase ends
    phases = [e["phase"] for e in game.log.for_side(None) if e.get("type") == "phase"]
    assert phases[:3] == ["skirmish.initiative", "skirmish.move", "skirmish.fire"]


def test_skirmish_5_1_targets_in_range_and_sight_only() -> None:
    from hexwar_skirmish import fire as R

    game = new_game()
    place(game, R1="0101", B1="0105", B2="0106", B3="0204")
    # B1 at 4 hexes (rifles reach 4), B2 at 5 (too far), B3 behind the woods of 0202-0203
    assert {s.target for s in R.targets(game, game.unit("R1"))} == {"B1"}
    game.unit("R1").state["pinned"] = True
    assert R.targets(game, game.unit("R1")) == []  # a pinned unit may not fire


def test_skirmish_6_1_rally_in_play() -> None:
    game = new_game()
    game.unit("R1").state["pinned"] = True
    game.unit("B1").state["pinned"] = True
    game.state.phase = "skirmish.rally"
    from hexwar_skirmish.rally import rally_phase

    game.dice.force(3, 4)  # units in id order: B1 rolls 3, R1 rolls 4
    list(rally_phase(game))
    assert game.unit("B1").state.get("pinned") is True
    assert "pinned" not in game.unit("R1").state


def test_table_side_fire_command() -> None:
    import click
    from click.testing import CliRunner

    from hexwar_skirmish.plugin import hexwar_register_commands

    cli = click.Group("hexwar")
    hexwar_register_commands(cli)  # as `hexwar` does at start-up
    out = CliRunner().invoke(cli, ["skirmish", "fire", "mg", "4", "woods", "--die", "5"])
    assert out.exit_code == 0, out.output
    assert "modified 4: pinned (Skirmish 5.4)" in out.output
    again = CliRunner().invoke(cli, ["skirmish", "fire", "rifles", "5", "clear", "--die", "5"])
    assert again.exit_code != 0 and "Skirmish 2.3" in again.output
