"""Firefight optional rules (Firefight 11-28): manifests and their citations, registration,
requirements and conflicts, the table of contents of ``rules/``."""

from __future__ import annotations

import importlib
import pkgutil
import re

import pytest

import hexwar.plugins.firefight as firefight_package
from hexwar.core.errors import PluginError
from hexwar.core.manager import (
    Hooks,
    build_plugin_manager,
    installed_plugins,
    local_plugin,
    resolve_rules,
)
from hexwar.core.types import PluginManifest
from hexwar.plugins.firefight import rules as rules_package

#: every optional rule module and the section it implements, in rule order
RULES = {
    "observation": 11, "dummies": 12, "height": 13, "smoke": 14, "overwatch": 15,
    "mounted_combat": 16, "short_halt": 17, "mines": 18, "suppressive_fire": 19,
    "dedicated_battery": 21, "scatter": 22, "improved_positions": 23, "small_arms": 24,
    "artillery_mines": 25, "clgp": 26, "future_afvs": 27, "overrun": 28,
}
CITATION = re.compile(r"^Firefight \d+(\.\d+)*( \(Clarifications\))?$")


def citation_problems(manifest: PluginManifest, section: int) -> list[str]:
    """What is wrong with an optional rule's citations: it must cite the cases it implements,
    each as ``Firefight 14.1``, at least the head case of its section, and name it in its
    title."""
    head = f"Firefight {section}.0"
    if not manifest.implements:
        return [f"{manifest.name} cites no case it implements"]
    out = [f"{manifest.name} cites {c!r}, not as 'Firefight 14.1'" for c in manifest.implements
           if not CITATION.match(c)]
    if head not in manifest.implements:
        out.append(f"{manifest.name} does not cite {head}")
    if f"({head})" not in manifest.title:
        out.append(f"{manifest.name}'s title does not name {head}")
    return out


def test_every_module_of_rules_is_an_optional_rule() -> None:
    modules = {m.name for m in pkgutil.iter_modules(rules_package.__path__)} - {"_common"}
    assert modules == set(RULES)


@pytest.mark.parametrize("rule", sorted(RULES))
def test_optional_rule_cites_its_cases(rule: str) -> None:
    manifest = importlib.import_module(f"hexwar.plugins.firefight.rules.{rule}").PLUGIN
    assert citation_problems(manifest, RULES[rule]) == []


def test_the_citation_check_catches_a_rule_without_citations() -> None:
    bare = PluginManifest(name="firefight.bare", system="firefight", kind="rule", title="Bare",
                          summary="test")
    assert citation_problems(bare, 14) == ["firefight.bare cites no case it implements"]
    old = PluginManifest(name="firefight.old", system="firefight", kind="rule",
                         title="Old [14.0]", summary="test", implements=("[14.0]",))
    assert len(citation_problems(old, 14)) == 3


def test_rules_table_of_contents_is_in_rule_order() -> None:
    listed = re.findall(r"^\* ``(\w+)``: Firefight (\d+)\.0 ", rules_package.__doc__ or "", re.M)
    assert [name for name, _ in listed] == list(RULES)
    assert [int(n) for _, n in listed] == list(RULES.values())


def test_package_docstring_lists_every_module() -> None:
    listed = re.findall(r"^\* ``(\w+)``", firefight_package.__doc__ or "", re.M)
    modules = {m.name for m in pkgutil.iter_modules(firefight_package.__path__)}
    assert set(listed) == modules and len(listed) == len(modules)


@pytest.mark.parametrize("rule", sorted(RULES))
def test_manifest_and_fresh_manager(rule: str) -> None:
    mod = importlib.import_module(f"hexwar.plugins.firefight.rules.{rule}")
    m = mod.PLUGIN
    assert isinstance(m, PluginManifest)
    assert (m.name, m.system, m.kind) == (f"firefight.{rule}", "firefight", "rule")
    assert m.summary and len(m.summary) < 120
    needed = [r for r in m.requires if r != "firefight"]
    pm = build_plugin_manager("firefight", [m.name, *needed])
    assert pm.get_plugin(m.name) is mod and pm.get_plugin("firefight") is not None
    hooks = Hooks(pm)
    names = [p.name for p in hooks.sequence("firefight")]
    assert "firefight.direct_fire" in names and len(set(names)) == len(names)


def test_every_rule_is_an_installed_entry_point() -> None:
    installed = installed_plugins()
    for rule in RULES:
        assert installed[f"firefight.{rule}"].module.__name__ == \
            f"hexwar.plugins.firefight.rules.{rule}"
    assert installed["firefight"].module.__name__ == "hexwar.plugins.firefight.plugin"


def test_all_rules_together_build_one_manager() -> None:
    pm = build_plugin_manager("firefight", [f"firefight.{r}" for r in RULES])
    names = [p.name for p in Hooks(pm).sequence("firefight")]
    # sequence edits land where the rules say
    assert names.index("firefight.smoke_removal") == names.index("firefight.if_cleanup") + 1
    assert names.index("firefight.mines") > names.index("firefight.assign_weapons")
    assert names.index("firefight.dedicated") > names.index("firefight.fire_plan")


def test_firefight_rules_stay_out_of_other_systems_sequences() -> None:
    """Host dispatch (docs/decisions.md CORE-2) asks only Firefight's plugins for a Firefight
    sequence: the rules' edits, which carry no system guard, never reach another system (an edit
    there would name a Firefight phase that is not there, an error)."""
    pm = build_plugin_manager("firefight", [f"firefight.{r}" for r in RULES])
    for other in ("mbt", "firepower"):
        assert Hooks(pm).sequence(other) == []
    names = [p.name for p in Hooks(pm).sequence("firefight")]
    assert {"firefight.smoke_removal", "firefight.mines", "firefight.dedicated",
            "firefight.place_dummies"} <= set(names)


@pytest.mark.parametrize(("rule", "needs"), [("firefight.artillery_mines", "firefight.mines"),
                                            ("firefight.dummies", "firefight.observation")])
def test_missing_requirement_fails_clearly(rule: str, needs: str) -> None:
    with pytest.raises(PluginError) as exc:
        resolve_rules("firefight", [rule])
    assert f"optional rule {rule!r} requires {needs!r}" in str(exc.value)
    assert resolve_rules("firefight", [rule, needs]) == sorted([rule, needs])
    with pytest.raises(PluginError):
        build_plugin_manager("firefight", [rule])


class _NoSmoke:
    """A stand-in house rule that declares itself incompatible with (Firefight 14) smoke (the text has no
    pair of mutually exclusive cases among (Firefight 11-28), so the conflict check is shown with it)."""

    PLUGIN = PluginManifest(name="firefight.no_smoke", system="firefight", kind="rule",
                            title="No smoke", summary="test", conflicts=("firefight.smoke",))


def test_conflicting_rules_fail_clearly() -> None:
    local = [local_plugin(_NoSmoke)]
    with pytest.raises(PluginError) as exc:
        resolve_rules("firefight", ["firefight.smoke", "firefight.no_smoke"], local=local)
    assert "'firefight.no_smoke' and 'firefight.smoke' conflict" in str(exc.value)
    with pytest.raises(PluginError):
        build_plugin_manager("firefight", ["firefight.smoke", "firefight.no_smoke"],
                             local=local)
    assert resolve_rules("firefight", ["firefight.no_smoke"], local=local)


def test_unknown_rule_suggests() -> None:
    with pytest.raises(PluginError) as exc:
        resolve_rules("firefight", ["firefight.smok"])
    assert "firefight.smoke" in str(exc.value)
