"""A plugin whose hooks fail validation is listed as broken with the reason, checked on its own
beside its system, and never breaks the listing or the other plugins."""

from __future__ import annotations

import json
from collections.abc import Iterator
from types import ModuleType
from typing import Any

import pytest
from click.testing import CliRunner

from hexwar.core import manager
from hexwar.core.errors import PluginError
from hexwar.core.markers import hookimpl
from hexwar.core.types import Modifier, PluginManifest

from .toy import toy_system


def rule(name: str, system: str = "toy", **hooks: Any) -> ModuleType:
    module = ModuleType(name)
    module.PLUGIN = PluginManifest(name=name, system=system, kind="rule",  # type: ignore[attr-defined]
                                   title=name.title(), summary="a test rule")
    for key, value in hooks.items():
        setattr(module, key, value)
    return module


class BadSignature:
    @hookimpl
    def toy_fire_modifiers(self, game: Any, shot: Any) -> list[Modifier]:  # no 'shot' in the spec
        return []


class Misspelt:
    @hookimpl
    def toy_fire_modifers(self, game: Any, attack: Any) -> list[Modifier]:
        return []


class Good:
    @hookimpl
    def toy_fire_modifiers(self, game: Any, attack: Any) -> list[Modifier]:
        return []


class BadCore:
    @hookimpl
    def hexwar_turn_start(self, game: Any, turn: int) -> None:  # no 'turn' in the spec
        return None


def broken_system() -> ModuleType:
    module = ModuleType("wreck")
    module.PLUGIN = PluginManifest(name="wreck", system="wreck", kind="system",  # type: ignore[attr-defined]
                                   title="Wreck", summary="a broken system")
    module.hexwar_turn_start = BadCore().hexwar_turn_start  # type: ignore[attr-defined]
    return module


class FakeEntryPoint:
    def __init__(self, name: str, module: ModuleType | None, error: str = "") -> None:
        self.name = name
        self.value = f"fake.{name}"
        self.dist = None
        self._module = module
        self._error = error

    def load(self) -> ModuleType:
        if self._module is None:
            raise ImportError(self._error)
        return self._module


FAKES = {"toy", "toy.good", "toy.badsig", "toy.typo", "wreck", "wreck.rule", "noimport"}


@pytest.fixture
def fake_plugins(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The installed plugins plus a toy system, good and broken toy rules, a broken system with a
    rule, and a plugin that does not import."""
    real = manager.entry_points
    fakes = [
        FakeEntryPoint("toy", toy_system),
        FakeEntryPoint("toy.good", rule("toy.good", toy_fire_modifiers=Good().toy_fire_modifiers)),
        FakeEntryPoint("toy.badsig",
                       rule("toy.badsig", toy_fire_modifiers=BadSignature().toy_fire_modifiers)),
        FakeEntryPoint("toy.typo", rule("toy.typo", toy_fire_modifers=Misspelt().toy_fire_modifers)),
        FakeEntryPoint("wreck", broken_system()),
        FakeEntryPoint("wreck.rule", rule("wreck.rule", system="wreck")),
        FakeEntryPoint("noimport", None, "No module named 'fake'"),
    ]
    monkeypatch.setattr(manager, "entry_points", lambda group: [*real(group=group), *fakes])
    manager.installed_plugins(refresh=True)
    yield
    monkeypatch.undo()
    manager.installed_plugins(refresh=True)


def test_hook_validation_problems_are_found_plugin_by_plugin(fake_plugins: None) -> None:
    invalid = {n: r for n, r in manager.invalid_plugins().items() if n in FAKES}
    assert set(invalid) == {"toy.badsig", "toy.typo", "wreck", "wreck.rule"}
    assert "toy_fire_modifiers" in invalid["toy.badsig"] and "shot" in invalid["toy.badsig"]
    assert "\n" not in invalid["toy.badsig"] and "<module" not in invalid["toy.badsig"]
    assert invalid["toy.typo"] == "unknown hook 'toy_fire_modifers'"
    assert "hexwar_turn_start" in invalid["wreck"] and "turn" in invalid["wreck"]
    assert invalid["wreck.rule"] == "it needs 'wreck', which is broken"
    broken = {n for n in manager.broken_plugins() if n in FAKES}
    assert broken == set(invalid) | {"noimport"}
    assert manager.validate_plugin("toy.good") is None and manager.validate_plugin("toy") is None


def test_the_other_plugins_keep_working(fake_plugins: None) -> None:
    pm = manager.discovery_manager()  # one broken plugin would otherwise fail this registration
    names = {n for n, _ in pm.list_name_plugin()}
    assert {"toy", "toy.good", "firefight"} <= names
    assert not names & {"toy.badsig", "toy.typo", "wreck", "wreck.rule"}
    assert manager.build_plugin_manager("toy", ["toy.good"]) is not None


def test_a_game_with_a_broken_rule_is_a_clear_error(fake_plugins: None) -> None:
    with pytest.raises(PluginError, match=r"plugin 'toy\.typo' is broken: unknown hook "
                                          r"'toy_fire_modifers'$"):
        manager.build_plugin_manager("toy", ["toy.typo"])
    with pytest.raises(PluginError, match=r"plugin 'toy\.badsig' is broken: Plugin 'toy\.badsig' "
                                          r"for hook 'toy_fire_modifiers'"):
        manager.build_plugin_manager("toy", ["toy.badsig"])


def test_hexwar_plugins_lists_broken_plugins_with_the_reason(fake_plugins: None) -> None:
    from hexwar.core.cli import cli

    result = CliRunner().invoke(cli, ["plugins", "--json"], catch_exceptions=False)
    assert result.exit_code == 0
    rows = {r["name"]: r for r in json.loads(result.output)}
    assert rows["toy.good"]["status"] == "ok" and rows["toy.good"]["reason"] is None
    assert rows["firefight"]["status"] == "ok"
    assert rows["toy.typo"]["status"] == "broken"
    assert rows["toy.typo"]["reason"] == "unknown hook 'toy_fire_modifers'"
    assert rows["noimport"]["status"] == "broken" and "failed to import" in rows["noimport"]["reason"]
    result = CliRunner().invoke(cli, ["plugins"], catch_exceptions=False)
    assert result.exit_code == 0
    assert "✗ toy.typo: unknown hook 'toy_fire_modifers'" in result.output
    assert "✗ wreck.rule: it needs 'wreck', which is broken" in result.output
    assert "Traceback" not in result.output


def test_listing_commands_still_work_with_broken_plugins(fake_plugins: None) -> None:
    from hexwar.core.cli import cli

    result = CliRunner().invoke(cli, ["systems", "--json"], catch_exceptions=False)
    assert result.exit_code == 0
    assert {"toy", "firefight"} <= {s["name"] for s in json.loads(result.output)}


def test_a_rule_needing_a_broken_rule_names_it(fake_plugins: None) -> None:
    # "toy.a" requires "toy.typo" and sorts before it: it is checked before "toy.typo" is known
    needy = rule("toy.a")
    needy.PLUGIN = PluginManifest(name="toy.a", system="toy", kind="rule",  # type: ignore[attr-defined]
                                  title="A", summary="needs a broken rule", requires=("toy.typo",))
    assert manager.validate_plugin("toy.a", local=[manager.local_plugin(needy)]) == (
        "it needs 'toy.typo', which is broken: unknown hook 'toy_fire_modifers'")
