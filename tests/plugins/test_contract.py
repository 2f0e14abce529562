"""Every installed plugin (built-in or third-party) meets the plugin contract."""

from __future__ import annotations

import pytest

from hexwar.core.manager import broken_plugins, installed_plugins, options_of, systems
from hexwar.core.testing import check_plugin_contract

PLUGINS = sorted(installed_plugins())


def test_the_three_rulebook_systems_are_installed_through_entry_points() -> None:
    assert {"firefight", "mbt", "firepower"} <= set(systems())


def test_no_installed_plugin_is_broken() -> None:
    assert broken_plugins() == {}


@pytest.mark.parametrize("name", PLUGINS)
def test_plugin_contract(name: str) -> None:
    passed = check_plugin_contract(name)
    assert "registers into a fresh manager and passes check_pending" in passed


@pytest.mark.parametrize("system", ["firefight", "mbt", "firepower"])
def test_optional_rules_name_their_rule_numbers(system: str) -> None:
    for name, plugin in options_of(system).items():
        assert plugin.manifest.implements, f"{name} names no rule it implements"
        assert plugin.manifest.summary, f"{name} has no one-line summary"
