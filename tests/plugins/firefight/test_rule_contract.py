"""Firefight optional rules [11]-[28]: manifests, registration, requirements and conflicts."""

from __future__ import annotations

import importlib
import tomllib
from pathlib import Path

import pytest

from hexwar.core.errors import PluginError
from hexwar.core.manager import (
    Hooks,
    build_plugin_manager,
    installed_plugins,
    local_plugin,
    resolve_rules,
)
from hexwar.core.types import PluginManifest

RULES = {
    "observation": "[11.0]", "dummies": "[12.0]", "height": "[13.0]", "smoke": "[14.0]",
    "overwatch": "[15.0]", "mounted_combat": "[16.0]", "short_halt": "[17.0]",
    "mines": "[18.0]", "suppressive_fire": "[19.0]", "dedicated_battery": "[21.0]",
    "scatter": "[22.0]", "improved_positions": "[23.0]", "small_arms": "[24.0]",
    "artillery_mines": "[25.0]", "clgp": "[26.0]", "future_afvs": "[27.0]", "overrun": "[28.0]",
}
TOML = Path(__file__).parents[3] / "plugins" / "firefight" / "plugins.toml"


@pytest.mark.parametrize("rule", sorted(RULES))
def test_manifest_and_fresh_manager(rule: str) -> None:
    mod = importlib.import_module(f"hexwar.plugins.firefight.rules.{rule}")
    m = mod.PLUGIN
    assert isinstance(m, PluginManifest)
    assert (m.name, m.system, m.kind) == (f"firefight.{rule}", "firefight", "rule")
    assert RULES[rule] in m.implements and m.summary and len(m.summary) < 120
    needed = [r for r in m.requires if r != "firefight"]
    pm = build_plugin_manager("firefight", [m.name, *needed])
    assert pm.get_plugin(m.name) is mod and pm.get_plugin("firefight") is not None
    hooks = Hooks(pm)
    names = [p.name for p in hooks.sequence("firefight")]
    assert "firefight.direct_fire" in names and len(set(names)) == len(names)


def test_every_rule_is_an_installed_entry_point() -> None:
    listed = tomllib.loads(TOML.read_text(encoding="utf-8"))["plugins"]
    for rule in RULES:
        assert listed[f"firefight.{rule}"] == f"hexwar.plugins.firefight.rules.{rule}"
        assert f"firefight.{rule}" in installed_plugins()


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
    """A stand-in house rule that declares itself incompatible with [14] smoke (the text has no
    pair of mutually exclusive cases among [11]-[28], so the conflict check is shown with it)."""

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
