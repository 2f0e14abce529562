"""Test helpers for plugin authors: the contract every plugin must meet, and the one test-game
factory. Importable without pytest.

Use it from a plugin package's own tests::

    from hexwar.core.testing import check_plugin_contract

    def test_contract():
        check_plugin_contract("skirmish")          # an installed plugin, by name

and enable the pytest fixtures (``game_factory``, ``random_players``) with
``pytest_plugins = ["hexwar.core.testing.fixtures"]`` in a ``conftest.py``.
"""

from __future__ import annotations

import functools
import warnings
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

import pluggy

from hexwar.core import hookspecs
from hexwar.core.kit.hooks import SystemHooks
from hexwar.core.manager import (
    Hooks,
    InstalledPlugin,
    build_plugin_manager,
    installed_plugins,
    local_plugin,
    system_hookspecs,
)
from hexwar.core.markers import PROJECT
from hexwar.core.types import PluginManifest

__all__ = ["ContractReport", "ContractViolation", "ContractWarning", "check_plugin_contract",
           "make_game"]


class ContractViolation(AssertionError):
    """A plugin breaks the plugin contract; the message lists every breach."""


class ContractWarning(UserWarning):
    """A plugin meets the contract but part of it can have no effect (a hook its system never
    calls)."""


class ContractReport(list[str]):
    """What :func:`check_plugin_contract` found: the checks that passed (the list itself) and
    :attr:`warnings`, each also issued as a :class:`ContractWarning`."""

    def __init__(self, passed: Iterable[str] = (), warnings: Iterable[str] = ()) -> None:
        super().__init__(passed)
        self.warnings: list[str] = list(warnings)


def check_plugin_contract(plugin: str | object) -> ContractReport:
    """Check one plugin (an installed name, or a module carrying ``PLUGIN``) against the contract.

    The contract: a valid manifest; it registers into a fresh manager beside its system and passes
    ``check_pending`` (no misspelled hooks); every record it registers is qualified with a system
    name and unique; its sequence of play builds; every data source it names exists; every number
    it says the rulebook discloses agrees with its own tables. Returns a :class:`ContractReport`
    of the checks that passed; raises :class:`ContractViolation` listing every breach.

    It warns (:class:`ContractWarning`, and in the report) about a hook the plugin implements that
    its system never calls: a hook of another system, or one of its own system's hooks that the
    system's facade (``SystemInfo.hooks``) does not call.
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
    implemented = hook_implementations(found.module)
    try:
        pm = build_plugin_manager(system, rules, local=local,
                                  guests=[b for b in manifest.bridges if b != system])
    except Exception as exc:
        hints = _uncalled_hooks(manifest, implemented, called=None, local=local)
        hint = f" ({'; '.join(hints)})" if hints else ""
        raise ContractViolation(f"{manifest.name}: does not register: {exc}{hint}") from exc
    passed.append("registers into a fresh manager and passes check_pending")
    hooks = Hooks(pm)
    called: dict[str, type[SystemHooks] | None] = {}
    try:
        infos = {s.name: s for s in hooks.systems()}
    except Exception as exc:  # reported, with the other registration checks, below
        breaches.append(f"a registration hook failed: {type(exc).__name__}: {exc}")
        infos = {}
    for own in _own_systems(manifest):
        called[own] = infos[own].hooks if own in infos else None
    notes = _uncalled_hooks(manifest, implemented, called=called, local=local)
    for note in notes:
        warnings.warn(ContractWarning(f"{manifest.name}: {note}"), stacklevel=2)
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
    if not notes:
        passed.append("implements only hooks its system calls")
    return ContractReport(passed, notes)


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


@functools.cache
def played_game(name: str, *, seed: int = 1, options: tuple[str, ...] = ()) -> Any:
    """The built-in scenario ``name`` played to its end AI against AI with ``seed`` and
    ``options``: played once per process and shared by every test that asks for the same game
    (the golden games and the tests that read their logs). Read it; never change it."""
    from hexwar.core.cli import _controllers, _resolve_scenario_path
    from hexwar.core.engine.game import Game
    from hexwar.core.scenario import load_and_validate

    sc = load_and_validate(_resolve_scenario_path(name), options=options)
    game = Game(sc, seed=seed, options=options)
    controllers, _ = _controllers(game, "ai,ai", seed)
    game.play(controllers)
    return game


def hook_implementations(plugin: object) -> list[str]:
    """The names of the hooks ``plugin`` (a module or object) implements, as pluggy finds them."""
    scratch = pluggy.PluginManager(PROJECT)
    return sorted(n for n in dir(plugin) if scratch.parse_hookimpl_opts(plugin, n) is not None)


def _own_systems(manifest: PluginManifest) -> list[str]:
    """The systems whose hooks a plugin may implement: its own, or both an adapter bridges."""
    if manifest.kind == "adapter" and manifest.bridges:
        return sorted(set(manifest.bridges))
    return [manifest.system]


_SPECS: dict[str, frozenset[str]] = {}


def _specs_of(system: str, local: list[InstalledPlugin]) -> frozenset[str]:
    """The hook names ``system`` specifies (cached for installed systems); empty if it cannot be
    loaded (a broken system is reported elsewhere)."""
    is_local = any(p.manifest.name == system for p in local)
    if not is_local and system in _SPECS:
        return _SPECS[system]
    try:
        names = frozenset(system_hookspecs(system, local=local))
    except Exception:
        names = frozenset()
    if not is_local:
        _SPECS[system] = names
    return names


def _uncalled_hooks(manifest: PluginManifest, implemented: Iterable[str], *,
                    called: Mapping[str, type[SystemHooks] | None] | None,
                    local: list[InstalledPlugin]) -> list[str]:
    """Why each hook ``implemented`` that the plugin's system never calls has no effect.

    ``called``: for each of the plugin's own systems, its facade (``None``: the system names no
    facade, so that part is skipped); ``None`` altogether when the plugin did not register (then
    only hooks of other systems are named).
    """
    core = {n for n in vars(hookspecs) if n.startswith(f"{PROJECT}_")}
    own = _own_systems(manifest)
    installed = {n for n, p in installed_plugins().items() if p.manifest.kind == "system"}
    others = sorted((installed | {p.manifest.name for p in local if p.manifest.kind == "system"})
                    - set(own))
    notes: list[str] = []
    for name in implemented:
        if name in core:
            continue
        foreign = next((s for s in others if name in _specs_of(s, local)), None)
        if foreign is not None:
            notes.append(f"implements {name}, a hook of {foreign}, which "
                         f"{' or '.join(own)} never calls")
            continue
        facades = {s: f for s, f in (called or {}).items() if f is not None}
        if not facades:  # not registered, or the system names no facade: nothing more to say
            continue
        mine = next((s for s, f in facades.items()
                     if name.startswith(f.prefix) or name in _specs_of(s, local)), None)
        if mine is not None:
            facade = facades[mine]
            if name not in facade.called():
                notes.append(f"implements {name}, which {mine} never calls (it is no hook of "
                             f"{facade.__name__}: {', '.join(sorted(facade.called()))})")
        elif not any(name in _specs_of(s, local) for s in own):
            # registered as an optional hook, yet nothing specifies it
            notes.append(f"implements {name}, which no system specifies")
    return notes
