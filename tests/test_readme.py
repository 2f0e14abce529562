"""The README's quick-start commands are the ones CI runs, and they use a virtual environment
(so they work where the system Python is externally managed, PEP 668)."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _quick_start() -> list[str]:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    block = re.search(r"## Quick start.*?```sh\n(.*?)```", text, re.S)
    assert block, "README.md has no quick-start shell block"
    return [line for line in block.group(1).splitlines() if line and not line.startswith("#")]


def test_ci_runs_the_readme_test_command() -> None:
    install_and_play, run_tests = _quick_start()
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    assert run_tests in ci
    assert "hexwar play" in install_and_play


def test_quick_start_commands_install_into_a_virtual_environment() -> None:
    for command in _quick_start():
        assert command.startswith("python3 -m venv .venv && . .venv/bin/activate && python -m pip")
