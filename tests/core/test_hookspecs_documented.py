"""Every core hook is documented in docs/hooks.md and carries a docstring."""

from __future__ import annotations

from pathlib import Path

import pytest

from hexwar.core import hookspecs

HOOKS = sorted(n for n in dir(hookspecs) if n.startswith("hexwar_"))
DOC = (Path(__file__).parents[2] / "docs" / "hooks.md").read_text()


@pytest.mark.parametrize("name", HOOKS)
def test_hook_is_documented(name: str) -> None:
    assert f"### {name}\n" in DOC, f"docs/hooks.md has no heading for {name}"
    assert (getattr(hookspecs, name).__doc__ or "").strip(), f"{name} has no docstring"


def test_every_documented_hook_exists() -> None:
    documented = {line[4:].strip() for line in DOC.splitlines() if line.startswith("### ")}
    assert documented == set(HOOKS)
