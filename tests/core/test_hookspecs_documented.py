"""Every hook, of the core and of every installed system, is documented in docs/hooks.md and
carries a docstring; every hook heading there names a hook that exists."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

import pytest

from hexwar.core import hookspecs

CORE_HOOKS = sorted(n for n in dir(hookspecs) if n.startswith("hexwar_"))
DOC = (Path(__file__).parents[2] / "docs" / "hooks.md").read_text()


def headings(doc: str) -> set[str]:
    return {line[4:].strip() for line in doc.splitlines() if line.startswith("### ")}


def undocumented(doc: str, hooks: Iterable[str]) -> list[str]:
    """The hooks without a ``### name`` heading in ``doc``."""
    return sorted(set(hooks) - headings(doc))


def installed_system_hooks() -> dict[str, dict[str, object]]:
    """The hookspecs of every system hexwar itself ships, by system (found when the test runs,
    not when the module is imported). A third party's system documents its hooks in its own
    package."""
    from hexwar.core.manager import system_hookspecs, systems

    return {name: system_hookspecs(name) for name, plugin in sorted(systems().items())
            if plugin.distribution == "hexwar"}


@pytest.mark.parametrize("name", CORE_HOOKS)
def test_core_hook_is_documented(name: str) -> None:
    assert f"### {name}\n" in DOC, f"docs/hooks.md has no heading for {name}"
    assert (getattr(hookspecs, name).__doc__ or "").strip(), f"{name} has no docstring"


def test_every_hook_of_every_built_in_system_is_documented() -> None:
    by_system = installed_system_hooks()
    assert {"firefight", "mbt", "firepower"} <= set(by_system)
    missing: list[str] = []
    no_docstring: list[str] = []
    for system, specs in by_system.items():
        missing += [f"{system}: {n}" for n in undocumented(DOC, specs)]
        no_docstring += [f"{system}: {n}" for n, fn in specs.items()
                         if not (getattr(fn, "__doc__", "") or "").strip()]
    assert not missing, f"docs/hooks.md has no heading for {', '.join(missing)}"
    assert not no_docstring, f"hooks without a docstring: {', '.join(no_docstring)}"


def test_systems_that_declare_hooks_declare_some() -> None:
    # the three built-in systems each call hooks of their own: an empty answer means the
    # discovery of system hookspecs broke, and the test above would pass vacuously
    by_system = installed_system_hooks()
    for system in ("firefight", "mbt", "firepower"):
        assert by_system[system], f"{system} adds no hookspecs"
        assert all(n.startswith(f"{system}_") for n in by_system[system])


def test_every_documented_hook_exists() -> None:
    known = set(CORE_HOOKS)
    for specs in installed_system_hooks().values():
        known |= set(specs)
    assert headings(DOC) - known == set(), "docs/hooks.md documents hooks that do not exist"


def test_a_missing_system_hook_is_caught() -> None:
    doc = "### firefight_a\n`(game)`\n\n### firefight_c\n"
    assert undocumented(doc, ["firefight_a", "firefight_b", "firefight_c"]) == ["firefight_b"]
