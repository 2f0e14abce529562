"""Every installed plugin (built-in or third-party) meets the plugin contract, and every optional
rule hexwar ships names the rules it implements, system-qualified."""

from __future__ import annotations

import re
from collections.abc import Mapping

import pytest

from hexwar.core.manager import InstalledPlugin, broken_plugins, installed_plugins, options_of, systems
from hexwar.core.testing import check_plugin_contract
from hexwar.core.types import PluginManifest

BUILT_IN = ("firefight", "mbt", "firepower")
CITATION = {"firefight": "Firefight", "mbt": "MBT", "firepower": "Firepower"}


def test_the_three_rulebook_systems_are_installed_through_entry_points() -> None:
    assert set(BUILT_IN) <= set(systems())


def test_no_installed_plugin_is_broken() -> None:
    assert broken_plugins() == {}


def test_every_installed_plugin_meets_the_contract() -> None:
    # plugins are discovered when the test runs, not when the module is imported
    names = sorted(installed_plugins())
    assert set(BUILT_IN) <= set(names)
    failures: dict[str, str] = {}
    for name in names:
        try:
            passed = check_plugin_contract(name)
        except AssertionError as exc:
            failures[name] = str(exc)
            continue
        if "registers into a fresh manager and passes check_pending" not in passed:
            failures[name] = "did not register"
    assert not failures, "\n".join(f"{n}: {why}" for n, why in failures.items())


def citation_problems(system: str, rules: Mapping[str, InstalledPlugin | PluginManifest]) -> list[str]:
    """Why the optional rules of ``system`` do not name their rule numbers properly."""
    prefix = re.compile(rf"^{CITATION[system]} \d")
    problems = []
    for name, plugin in sorted(rules.items()):
        m = plugin if isinstance(plugin, PluginManifest) else plugin.manifest
        if not m.implements:
            problems.append(f"{name} names no rule it implements")
        # an adapter extends the rules of either system it bridges
        ok = ([re.compile(rf"^{CITATION[s]} \d") for s in m.bridges if s in CITATION]
              if m.kind == "adapter" else [prefix])
        problems += [f"{name}: {ref!r} is not '{CITATION[system]} <number>'"
                     for ref in m.implements if not any(p.match(ref) for p in ok)]
        if not m.summary:
            problems.append(f"{name} has no one-line summary")
    return problems


@pytest.mark.parametrize("system", BUILT_IN)
def test_optional_rules_name_their_rule_numbers(system: str) -> None:
    # the rules hexwar ships: a third party's house rule may cite no rulebook at all
    rules = {n: p for n, p in options_of(system).items() if p.distribution == "hexwar"}
    if not rules:
        pytest.skip(f"{system} ships no optional rules: nothing to check")
    assert citation_problems(system, rules) == []


def test_the_citation_check_catches_a_rule_without_citations() -> None:
    bare = PluginManifest(name="firefight.x", system="firefight", kind="rule", title="X",
                          summary="", implements=())
    old = PluginManifest(name="firefight.y", system="firefight", kind="rule", title="Y",
                         summary="y", implements=("[14.0]",))
    assert citation_problems("firefight", {"firefight.x": bare, "firefight.y": old}) == [
        "firefight.x names no rule it implements", "firefight.x has no one-line summary",
        "firefight.y: '[14.0]' is not 'Firefight <number>'"]
