"""Test helpers for plugin authors: a contract every plugin must meet, and pytest fixtures.

Use it from a plugin package's own tests::

    from hexwar.core.testing import check_plugin_contract

    def test_contract():
        check_plugin_contract("skirmish")          # an installed plugin, by name

or enable the fixtures with ``pytest_plugins = ["hexwar.core.testing"]`` in a ``conftest.py``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any

import pytest

from hexwar.core.manager import (
    Hooks,
    InstalledPlugin,
    build_plugin_manager,
    installed_plugins,
    local_plugin,
)


class ContractViolation(AssertionError):
    """A plugin breaks the plugin contract; the message lists every breach."""


def check_plugin_contract(plugin: str | object) -> list[str]:
    """Check one plugin (an installed name, or a module carrying ``PLUGIN``) against the contract.

    The contract: a valid manifest; it registers into a fresh manager beside its system and passes
    ``check_pending`` (no misspelled hooks); every record it registers is qualified with a system
    name and unique; its sequence of play builds; every data source it names exists; every number
    it says the rulebook discloses agrees with its own tables. Returns the checks that passed;
    raises :class:`ContractViolation` listing every breach.
    """
    if isinstance(plugin, str):
        found: InstalledPlugin | None = installed_plugins().get(plugin)
        if found is None:
            raise ContractViolation(f"no installed plugin named {plugin!r}")
        local: list[InstalledPlugin] = []
    else:
        found = local_plugin(plugin)
        local = [found]
    manifest = found.manifest
    breaches: list[str] = []
    passed: list[str] = []
    if not manifest.summary or not manifest.title:
        breaches.append("the manifest needs a title and a one-line summary")
    if manifest.kind == "rule" and not manifest.name.startswith(f"{manifest.system}."):
        breaches.append(f"rule {manifest.name!r} should be named '{manifest.system}.<rule>'")
    system = manifest.name if manifest.kind == "system" else manifest.system
    rules = [] if manifest.kind == "system" else [manifest.name, *manifest.requires]
    rules = [r for r in rules if r != system]
    try:
        pm = build_plugin_manager(system, rules, local=local)
    except Exception as exc:
        raise ContractViolation(f"{manifest.name}: does not register: {exc}") from exc
    passed.append("registers into a fresh manager and passes check_pending")
    hooks = Hooks(pm)
    try:
        records: list[Any] = [*hooks.unit_types().values(), *hooks.terrain_types().values(),
                              *hooks.data_sources()]
        for record in records:
            if ":" not in record.name:
                breaches.append(f"record {record.name!r} is not qualified with its system")
        passed.append("registration records are unique and qualified")
        phases = hooks.sequence(system)
        if manifest.kind == "system" and not phases:
            breaches.append("a system must register its sequence of play")
        for phase in phases:
            if "." not in phase.name:
                breaches.append(f"phase {phase.name!r} should be named '<system>.<phase>'")
        passed.append("the sequence of play builds")
        for source in hooks.data_sources():
            if not Path(source.path).exists():
                breaches.append(f"data source {source.name!r} names a missing path {source.path}")
        passed.append("every data source exists")
        if manifest.kind == "system":
            from hexwar.core.tables import TableSet, check_disclosed

            tables = TableSet()
            for source in hooks.data_sources("tables"):
                tables = TableSet([*tables.values(), *TableSet.load_dir(source.path).values()])
            for problem in check_disclosed(tables, hooks.disclosed()):
                breaches.append(f"disclosed value: {problem}")
            passed.append("every disclosed number agrees with the shipped tables")
    except Exception as exc:  # report, do not hide, a crash inside a registration hook
        breaches.append(f"a registration hook failed: {type(exc).__name__}: {exc}")
    if breaches:
        raise ContractViolation(f"{manifest.name}: " + "; ".join(breaches))
    return passed


def make_game(source: Any, *, seed: int = 1, options: Iterable[str] = (),
              local_plugins: Iterable[object] = (), log: Any = None) -> Any:
    """The one way tests build a game: from a :class:`~hexwar.core.scenario.Scenario`, a path, a
    built-in scenario name (``firefight:scenario-1``) or scenario text. The board is assembled
    once per content and shared (boards are read-only during a game)."""
    from hexwar.core.engine.game import Game
    from hexwar.core.scenario import Scenario

    if isinstance(source, Scenario):
        scenario = source
    elif isinstance(source, Path) or (isinstance(source, str) and "\n" not in source
                                      and Path(source).exists()):
        scenario = Scenario.load(source)
    elif isinstance(source, str) and "\n" not in source and ":" in source:
        from hexwar.core.cli import _resolve_scenario_path

        scenario = Scenario.load(_resolve_scenario_path(source))
    else:
        scenario = Scenario.from_text(str(source))
    return Game(scenario, seed=seed, options=tuple(options), local_plugins=tuple(local_plugins),
                log=log)


# -- pytest fixtures -----------------------------------------------------------------------------


@pytest.fixture
def game_factory() -> Iterator[Callable[..., Any]]:
    """Build games from scenario text or a path: ``game_factory(path_or_text, seed=1, options=())``
    (:func:`make_game`)."""
    yield make_game


@pytest.fixture
def random_players() -> Callable[[Any, int], dict[str, Any]]:
    """``random_players(game, seed)``: a RandomController for every side of ``game``."""
    from hexwar.core.engine.controllers import RandomController

    def make(game: Any, seed: int = 0) -> dict[str, Any]:
        return {side: RandomController(side, seed) for side in game.state.sides}

    return make
