"""Issue 9 item 14: each plugin is loaded on its own, as an installed distribution would be (a
dist-info folder with an entry point on ``sys.path``). A plugin that exits on import, claims a
built-in's name, re-registers a system or carries an invalid manifest is reported broken with its
package and the reason, and the other plugins keep working."""

from __future__ import annotations

import json
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

from hexwar.core import manager

MANIFEST = "from hexwar.core.types import PluginManifest\n"

#: module name -> (distribution, entry-point name, source)
PLUGINS: dict[str, tuple[str, str, str]] = {
    "hexwar_t_exit": ("hexwar-t-exit", "mbt.t_exit", "import sys\nsys.exit(3)\n"),
    "hexwar_t_fake_mbt": ("hexwar-t-fake-mbt", "mbt", MANIFEST + textwrap.dedent("""
        PLUGIN = PluginManifest(name="mbt", system="mbt", kind="system", title="Fake MBT",
                                summary="replaces the built-in")
        """)),
    "hexwar_t_twin_a": ("hexwar-t-twin-a", "mbt.t_twin", MANIFEST + textwrap.dedent("""
        PLUGIN = PluginManifest(name="mbt.t_twin", system="mbt", kind="rule", title="Twin A",
                                summary="one of two")
        """)),
    "hexwar_t_twin_b": ("hexwar-t-twin-b", "mbt.t_twin", MANIFEST + textwrap.dedent("""
        PLUGIN = PluginManifest(name="mbt.t_twin", system="mbt", kind="rule", title="Twin B",
                                summary="the other of two")
        """)),
    "hexwar_t_thief": ("hexwar-t-thief", "mbt.t_thief", MANIFEST + textwrap.dedent("""
        from hexwar.core.markers import hookimpl
        from hexwar.plugins.mbt import plugin as _mbt

        PLUGIN = PluginManifest(name="mbt.t_thief", system="mbt", kind="rule", title="Thief",
                                summary="re-registers the MBT system")

        @hookimpl
        def hexwar_register_systems():
            return _mbt.hexwar_register_systems()
        """)),
    "hexwar_t_banana": ("hexwar-t-banana", "mbt.t_banana", MANIFEST + textwrap.dedent("""
        PLUGIN = PluginManifest(name="mbt.t_banana", system="mbt", kind="banana", title="B",
                                summary="a fruit")
        """)),
    "hexwar_t_requires": ("hexwar-t-requires", "mbt.t_requires", MANIFEST + textwrap.dedent("""
        PLUGIN = PluginManifest(name="mbt.t_requires", system="mbt", kind="rule", title="R",
                                summary="requires a number", requires=5)
        """)),
    "hexwar_t_names": ("hexwar-t-names", "mbt.t_names", MANIFEST + textwrap.dedent("""
        PLUGIN = PluginManifest(name="mbt.t_names", system=7, kind="rule", title=None,
                                summary="non-string names", conflicts=("a", 3))
        """)),
}


def install(root: Path, modules: dict[str, tuple[str, str, str]]) -> None:
    for module, (dist, ep, source) in modules.items():
        (root / f"{module}.py").write_text(source, encoding="utf-8")
        info = root / f"{dist.replace('-', '_')}-1.0.dist-info"
        info.mkdir()
        (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {dist}\nVersion: 1.0\n",
                                       encoding="utf-8")
        (info / "entry_points.txt").write_text(f"[hexwar.plugins]\n{ep} = {module}\n",
                                               encoding="utf-8")


@pytest.fixture
def hostile(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    install(tmp_path, PLUGINS)
    monkeypatch.syspath_prepend(str(tmp_path))
    manager.installed_plugins(refresh=True)
    yield
    monkeypatch.undo()
    for module in PLUGINS:
        sys.modules.pop(module, None)
    manager.installed_plugins(refresh=True)


def test_a_plugin_exiting_on_import_is_reported_with_its_package(hostile: None) -> None:
    broken = manager.broken_plugins()
    reason = broken["mbt.t_exit"]
    assert "sys.exit(3)" in reason and "hexwar-t-exit" in reason
    assert "mbt.t_exit" not in manager.installed_plugins()
    assert "firefight" in manager.installed_plugins()


def test_a_package_claiming_a_builtin_name_is_refused_and_the_builtin_kept(hostile: None) -> None:
    mbt = manager.installed_plugins()["mbt"]
    assert mbt.distribution == "hexwar" and mbt.module.__name__ == "hexwar.plugins.mbt.plugin"
    reason = manager.broken_plugins()["mbt (hexwar-t-fake-mbt)"]
    assert "hexwar-t-fake-mbt" in reason and "'mbt'" in reason and "built into hexwar" in reason
    assert "mbt" not in manager.broken_plugins()
    assert manager.build_plugin_manager("mbt") is not None


def test_two_packages_claiming_one_name_are_both_refused_by_name(hostile: None) -> None:
    reason = manager.broken_plugins()["mbt.t_twin"]
    assert "hexwar-t-twin-a" in reason and "hexwar-t-twin-b" in reason and "'mbt.t_twin'" in reason
    assert "mbt.t_twin" not in manager.installed_plugins()


def test_a_plugin_re_registering_a_system_is_refused(hostile: None) -> None:
    reason = manager.broken_plugins()["mbt.t_thief"]
    assert "'mbt'" in reason and "refused" in reason
    from hexwar.core.cli import cli

    result = CliRunner().invoke(cli, ["systems", "--json"], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    names = [s["name"] for s in json.loads(result.output)]
    assert names.count("mbt") == 1 and "firefight" in names


def test_invalid_manifests_are_reported_with_the_reason(hostile: None) -> None:
    broken = manager.broken_plugins()
    assert "kind must be 'system', 'rule' or 'adapter', not 'banana'" in broken["mbt.t_banana"]
    assert "requires must be a tuple" in broken["mbt.t_requires"] and "5" in broken["mbt.t_requires"]
    names = broken["mbt.t_names"]
    assert "system must be a string" in names and "title must be a string" in names
    assert "conflicts must be a tuple" in names
    for key in ("mbt.t_banana", "mbt.t_requires", "mbt.t_names"):
        assert "invalid manifest" in broken[key] and "package hexwar-t-" in broken[key]


def test_hexwar_plugins_lists_them_all_and_exits_cleanly(hostile: None) -> None:
    from hexwar.core.cli import cli

    result = CliRunner().invoke(cli, ["plugins", "--json"], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    rows = {r["name"]: r for r in json.loads(result.output)}
    for name in ("mbt.t_exit", "mbt.t_twin", "mbt.t_thief", "mbt.t_banana", "mbt.t_requires",
                 "mbt.t_names", "mbt (hexwar-t-fake-mbt)"):
        assert rows[name]["status"] == "broken" and rows[name]["reason"], name
    assert rows["mbt"]["status"] == "ok" and rows["mbt"]["distribution"] == "hexwar"
    result = CliRunner().invoke(cli, ["plugins"], catch_exceptions=False)
    assert result.exit_code == 0 and "Traceback" not in result.output


def test_keyboard_interrupt_during_an_import_still_stops_the_program(tmp_path: Path,
                                                                    monkeypatch: pytest.MonkeyPatch,
                                                                    ) -> None:
    install(tmp_path, {"hexwar_t_ctrl_c": ("hexwar-t-ctrl-c", "mbt.t_ctrl_c",
                                           "raise KeyboardInterrupt\n")})
    monkeypatch.syspath_prepend(str(tmp_path))
    try:
        with pytest.raises(KeyboardInterrupt):
            manager.installed_plugins(refresh=True)
    finally:
        monkeypatch.undo()
        sys.modules.pop("hexwar_t_ctrl_c", None)
        manager.installed_plugins(refresh=True)


# -- a plugin failing mid-game -----------------------------------------------------------------

TOY = Path(__file__).parent / "toy" / "scenario.toml"


def _faulty_rule() -> object:
    from types import ModuleType
    from typing import Any

    from hexwar.core.markers import hookimpl
    from hexwar.core.types import Modifier, PluginManifest

    def helper(game: Any) -> float:
        return 1 / (game.state.turn - 2)  # fails on turn 2, in the plugin's own helper

    class Impl:
        @hookimpl
        def toy_fire_modifiers(self, game: Any, attack: dict[str, Any]) -> list[Modifier]:
            return [Modifier("toy.faulty", helper(game), "toy 1")]

    module = ModuleType("toy.faulty")
    module.PLUGIN = PluginManifest(name="toy.faulty", system="toy",  # type: ignore[attr-defined]
                                   kind="rule", title="Faulty", summary="raises on turn 2")
    module.toy_fire_modifiers = Impl().toy_fire_modifiers  # type: ignore[attr-defined]
    return module


def test_a_hook_raising_mid_game_ends_it_naming_the_plugin(tmp_path: Path) -> None:
    from hexwar.core.engine.controllers import RandomController
    from hexwar.core.engine.game import Game
    from hexwar.core.engine.record import load_saved, save_game
    from hexwar.core.engine.replay import rebuild
    from hexwar.core.errors import PluginFailure
    from hexwar.core.scenario import Scenario

    from .toy import toy_system

    faulty = _faulty_rule()
    game = Game(Scenario.load(TOY), seed=2, options=["toy.faulty"],
                local_plugins=[toy_system, faulty])
    players = {s: RandomController(s, 2) for s in game.state.sides}
    with pytest.raises(PluginFailure) as err:
        game.play(players)
    failure = err.value
    assert failure.plugin == "toy.faulty"
    assert failure.message == "ZeroDivisionError: division by zero"
    assert "plugin 'toy.faulty' failed: ZeroDivisionError" in str(failure)
    kept = len(game.decisions)
    assert failure.decisions == kept and kept > 0
    # the state is the one after the last decision played in full
    assert game.state.digest() == game.decisions[-1]["hash"] and game.state.turn == 2
    with pytest.raises(PluginFailure):  # the game stays ended
        game.answer("b1")
    save = tmp_path / "failed.json"
    save_game(game, save)
    again = rebuild(load_saved(save), verify=True, local_plugins=[toy_system, faulty])
    assert again.state.digest() == game.state.digest() and again.pending is not None


def test_code_anywhere_in_a_system_package_is_that_system_s() -> None:
    scope: dict[str, object] = {"__name__": "hexwar.plugins.mbt.fire"}
    exec("def boom():\n    raise KeyError('x')\n", scope)  # a frame of that module
    pm = manager.build_plugin_manager("mbt")
    try:
        scope["boom"]()  # type: ignore[operator]
    except KeyError as exc:
        assert manager.plugin_of_traceback(pm, exc.__traceback__, ["mbt"]) == "mbt"
        assert manager.plugin_of_traceback(pm, exc.__traceback__, []) is None


def test_non_json_plugin_state_ends_the_game_naming_the_plugin() -> None:
    from types import ModuleType
    from typing import Any

    from hexwar.core.engine.controllers import RandomController
    from hexwar.core.engine.game import Game
    from hexwar.core.errors import PluginFailure
    from hexwar.core.markers import hookimpl
    from hexwar.core.scenario import Scenario
    from hexwar.core.types import Modifier, PluginManifest

    from .toy import toy_system

    class Impl:
        @hookimpl
        def toy_fire_modifiers(self, game: Any, attack: dict[str, Any]) -> list[Modifier]:
            if game.state.turn == 2:
                game.state.data["toy.junk"] = object()
            return []

    junk = ModuleType("toy.junk")
    junk.PLUGIN = PluginManifest(name="toy.junk", system="toy", kind="rule",  # type: ignore[attr-defined]
                                 title="Junk", summary="stores an object")
    junk.toy_fire_modifiers = Impl().toy_fire_modifiers  # type: ignore[attr-defined]
    game = Game(Scenario.load(TOY), seed=2, options=["toy.junk"], local_plugins=[toy_system, junk])
    with pytest.raises(PluginFailure) as err:
        game.play({s: RandomController(s, 2) for s in game.state.sides})
    assert err.value.plugin == "toy.junk"
    assert "JSON" in err.value.message and "state data 'toy.junk'" in err.value.message
    assert "toy.junk" not in game.state.data
    assert game.state.digest() == game.decisions[-1]["hash"]
