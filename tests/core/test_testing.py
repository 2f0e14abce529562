"""hexwar.core.testing: the plugin contract (and its warnings about hooks no system calls), the
fixtures, and importing it without pytest."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from hexwar.core.markers import hookimpl
from hexwar.core.testing import (
    ContractReport,
    ContractViolation,
    ContractWarning,
    check_plugin_contract,
    hook_implementations,
)
from hexwar.core.types import Modifier, PluginManifest

from .toy import toy_system

HERE = Path(__file__).parent


def toy_rule(name: str, **hooks: Any) -> ModuleType:
    """A toy optional rule (a module) with the given hook implementations."""
    module = ModuleType(name)
    module.PLUGIN = PluginManifest(name=name, system="toy", kind="rule",  # type: ignore[attr-defined]
                                   title=name, summary="a test rule", implements=("toy 4",))
    for key, value in hooks.items():
        setattr(module, key, value)
    return module


def contract(rule: ModuleType) -> ContractReport:
    """The contract of ``rule`` with the toy system offered beside it (it is not installed)."""
    from hexwar.core import manager

    original = manager.installed_plugins

    def with_toy(*, refresh: bool = False) -> dict[str, Any]:
        return {**original(refresh=refresh), "toy": manager.local_plugin(toy_system)}

    mp = pytest.MonkeyPatch()
    mp.setattr(manager, "installed_plugins", with_toy)
    mp.setattr("hexwar.core.testing.installed_plugins", with_toy)
    try:
        return check_plugin_contract(rule)
    finally:
        mp.undo()


class Good:
    @hookimpl
    def toy_fire_modifiers(self, game: Any, attack: dict[str, Any]) -> list[Modifier]:
        return [Modifier("good", 1, "toy 4")]


def test_a_rule_implementing_its_systems_hooks_passes_without_warning() -> None:
    impl = Good()
    report = contract(toy_rule("toy.good", toy_fire_modifiers=impl.toy_fire_modifiers))
    assert isinstance(report, list) and report.warnings == []
    assert "registers into a fresh manager and passes check_pending" in report
    assert "implements only hooks its system calls" in report


def test_the_toy_system_meets_the_contract() -> None:
    report = contract(toy_system)
    assert report.warnings == []


class OtherSystems:
    @hookimpl(optionalhook=True)
    def firefight_fire_modifiers(self, game: Any, attack: dict[str, Any]) -> list[Modifier]:
        return [Modifier("lost", 1, "Firefight 6.0")]


def test_a_hook_of_another_system_is_a_warning() -> None:
    impl = OtherSystems()
    rule = toy_rule("toy.lost", firefight_fire_modifiers=impl.firefight_fire_modifiers)
    with pytest.warns(ContractWarning, match="toy.lost: implements firefight_fire_modifiers, a "
                                             "hook of firefight, which toy never calls"):
        report = contract(rule)
    assert report.warnings == ["implements firefight_fire_modifiers, a hook of firefight, which "
                               "toy never calls"]
    assert "implements only hooks its system calls" not in report


class NotOptional:
    @hookimpl
    def firefight_fire_modifiers(self, game: Any, attack: dict[str, Any]) -> list[Modifier]:
        return []


def test_without_optionalhook_it_does_not_register_and_says_why() -> None:
    impl = NotOptional()
    rule = toy_rule("toy.lost", firefight_fire_modifiers=impl.firefight_fire_modifiers)
    with pytest.raises(ContractViolation, match=r"unknown hook 'firefight_fire_modifiers'.*a hook "
                                                r"of firefight, which toy never calls"):
        contract(rule)


class Misspelt:
    @hookimpl(optionalhook=True)
    def toy_fire_modifers(self, game: Any, attack: dict[str, Any]) -> list[Modifier]:
        return []

    @hookimpl(optionalhook=True)
    def nobody_at_all(self, game: Any) -> None:
        return None


def test_an_own_system_hook_the_facade_never_calls_is_a_warning() -> None:
    impl = Misspelt()
    rule = toy_rule("toy.typo", toy_fire_modifers=impl.toy_fire_modifers,
                    nobody_at_all=impl.nobody_at_all)
    with pytest.warns(ContractWarning) as caught:
        report = contract(rule)
    assert report.warnings == [
        "implements nobody_at_all, which no system specifies",
        "implements toy_fire_modifers, which toy never calls (it is no hook of ToyHooks: "
        "toy_fire_modifiers)",
    ]
    assert len(caught) == 2


def test_a_system_without_a_facade_skips_the_own_system_check() -> None:
    from hexwar.core.testing import _uncalled_hooks

    rule = toy_rule("toy.typo")
    assert _uncalled_hooks(rule.PLUGIN, ["toy_fire_modifers"], called={"toy": None}, local=[]) == []


def test_hook_implementations_finds_marked_functions_only() -> None:
    impl = Good()
    rule = toy_rule("toy.good", toy_fire_modifiers=impl.toy_fire_modifiers, helper=lambda: None)
    assert hook_implementations(rule) == ["toy_fire_modifiers"]


def test_hexwar_core_testing_imports_without_pytest() -> None:
    code = textwrap.dedent("""
        import sys
        sys.modules["pytest"] = None  # import pytest now raises ImportError
        sys.modules["_pytest"] = None
        from hexwar.core.testing import check_plugin_contract, make_game
        assert callable(check_plugin_contract) and callable(make_game)
        try:
            import hexwar.core.testing.fixtures
        except ImportError:
            print("fixtures need pytest")
        else:
            raise SystemExit("pytest was importable: the test proves nothing")
    """)
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "fixtures need pytest"


def test_the_fixtures_load_as_a_pytest_plugin(tmp_path: Path) -> None:
    (tmp_path / "conftest.py").write_text('pytest_plugins = ["hexwar.core.testing.fixtures"]\n')
    (tmp_path / "test_it.py").write_text(textwrap.dedent(f"""
        import sys
        sys.path.insert(0, {str(HERE.parents[1])!r})
        from hexwar.core.testing import make_game
        from tests.core.toy import toy_system

        def test_it(game_factory, random_players):
            assert game_factory is make_game
            game = game_factory({str(HERE / "toy" / "scenario.toml")!r}, seed=2,
                                local_plugins=[toy_system])
            assert game.play(random_players(game, 2)).level
    """))
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                           str(tmp_path)], capture_output=True, text=True, timeout=300, cwd=tmp_path,
                          env={**os.environ, "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1"})
    assert done.returncode == 0, done.stdout + done.stderr
    assert "1 passed" in done.stdout
