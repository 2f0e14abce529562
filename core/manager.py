"""Plugin discovery, the per-game plugin manager, and the typed facade over its hooks.

Every plugin, built-in or third-party, is a module named by an entry point in the group
``hexwar.plugins`` and carries a module attribute ``PLUGIN`` (a :class:`PluginManifest`). A game's
manager holds the core defaults, the scenario's system, and exactly the optional rules the scenario
enables; nothing is global.
"""

from __future__ import annotations

import os
from collections.abc import Hashable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from importlib.metadata import entry_points
from types import CodeType, ModuleType, TracebackType
from typing import TYPE_CHECKING, Any, cast

import pluggy

from hexwar.core import hookspecs
from hexwar.core.errors import PluginError
from hexwar.core.kit.dispatch import HostDispatch
from hexwar.core.kit.pipeline import Edit, Pipeline
from hexwar.core.markers import PROJECT
from hexwar.core.types import (
    ControllerSpec,
    DataSource,
    GameResult,
    PhaseSpec,
    PluginManifest,
    Problem,
    SequenceEdit,
    SystemInfo,
    TerrainType,
    UnitType,
)

if TYPE_CHECKING:
    from hexwar.core.engine.decisions import Decision
    from hexwar.core.engine.game import Game
    from hexwar.core.engine.umpire import Umpire
    from hexwar.core.engine.view import SideView
    from hexwar.core.los import LosRules
    from hexwar.core.scenario import Scenario
    from hexwar.core.tables import Disclosed

ENTRY_POINT_GROUP = "hexwar.plugins"


@dataclass(frozen=True)
class InstalledPlugin:
    """A plugin found through an entry point: its manifest, its module and its distribution."""

    manifest: PluginManifest
    module: ModuleType
    distribution: str
    version: str


_cache: dict[str, InstalledPlugin] | None = None
_broken: dict[str, str] = {}
_invalid: dict[str, str] | None = None  # hook validation problems, computed on first need


#: the distribution whose plugins are built in: a plugin of another package never replaces one
CORE_DISTRIBUTION = "hexwar"


def installed_plugins(*, refresh: bool = False) -> dict[str, InstalledPlugin]:
    """Every working plugin installed in this environment, by name (entry points of
    ``hexwar.plugins``).

    Each plugin is loaded on its own. A plugin whose module cannot be imported (any exception, or
    ``sys.exit`` during the import; only ``KeyboardInterrupt`` goes through), which lacks a valid
    ``PLUGIN`` manifest, or whose entry-point name differs from its manifest's name is left out
    and listed by :func:`broken_plugins` with its package and the reason; asking for it by name
    raises :class:`PluginError` with the reason. Two packages claiming one plugin name are
    refused by name; when one of them is hexwar itself, the built-in plugin stays and the other
    is refused. One broken package never stops the others from working.
    """
    global _cache, _invalid
    if _cache is not None and not refresh:
        return _cache
    found: dict[str, InstalledPlugin] = {}
    claims: dict[str, list[InstalledPlugin]] = {}
    _broken.clear()
    _invalid = None
    for ep in sorted(entry_points(group=ENTRY_POINT_GROUP), key=lambda e: e.name):
        dist = ep.dist.name if ep.dist is not None else "?"
        version = ep.dist.version if ep.dist is not None else "?"
        where = f"{ep.value}, package {dist}"
        try:
            module = ep.load()
            manifest = getattr(module, "PLUGIN", None)
        except KeyboardInterrupt:
            raise
        except SystemExit as exc:  # a plugin must not end the program by being imported
            _broken[ep.name] = (f"plugin {ep.name!r} ({where}) called sys.exit({exc.code!r}) "
                                "while being imported")
            continue
        except Exception as exc:  # a broken third-party package is reported, not fatal
            _broken[ep.name] = (f"plugin {ep.name!r} ({where}) failed to import: "
                                f"{type(exc).__name__}: {exc}")
            continue
        if not isinstance(manifest, PluginManifest):
            _broken[ep.name] = (f"plugin {ep.name!r} ({where}) has no PLUGIN manifest "
                                "(a hexwar.core.types.PluginManifest module attribute)")
            continue
        problem = manifest_problem(manifest)
        if problem is not None:
            _broken[ep.name] = f"plugin {ep.name!r} ({where}) has an invalid manifest: {problem}"
            continue
        if manifest.name != ep.name:
            _broken[ep.name] = (f"entry point {ep.name!r} ({where}) loads a plugin whose manifest "
                                f"is named {manifest.name!r}")
            continue
        claims.setdefault(ep.name, []).append(InstalledPlugin(manifest, module, dist, version))
    for name, claimants in claims.items():
        if len(claimants) == 1:
            found[name] = claimants[0]
            continue
        packages = ", ".join(sorted(p.distribution for p in claimants))
        builtin = [p for p in claimants if _normalise(p.distribution) == CORE_DISTRIBUTION]
        if len(builtin) == 1:
            found[name] = builtin[0]
            for other in claimants:
                if other is not builtin[0]:
                    _broken[f"{name} ({other.distribution})"] = (
                        f"package {other.distribution} provides plugin {name!r}, which is "
                        f"built into hexwar; refused (packages claiming {name!r}: {packages})")
            continue
        _broken[name] = (f"packages {packages} all provide plugin {name!r}; refused, "
                         "uninstall all but one")
    _cache = found
    return found


def _normalise(distribution: str) -> str:
    import re

    return re.sub(r"[-_.]+", "-", distribution).lower()


_MANIFEST_TUPLES = ("implements", "requires", "conflicts", "bridges")


def manifest_problem(manifest: PluginManifest) -> str | None:
    """What is wrong with a plugin's manifest (field types and values), or ``None``."""
    problems: list[str] = []
    for key in ("name", "system", "title", "summary", "version"):
        value = getattr(manifest, key, None)
        if not isinstance(value, str):
            problems.append(f"{key} must be a string, not {type(value).__name__} {value!r:.60}")
    if isinstance(manifest.name, str) and not manifest.name.strip():
        problems.append("name is empty")
    kind = getattr(manifest, "kind", None)
    if kind not in ("system", "rule", "adapter"):
        problems.append(f"kind must be 'system', 'rule' or 'adapter', not {kind!r:.60}")
    for key in _MANIFEST_TUPLES:
        value = getattr(manifest, key, None)
        if not isinstance(value, tuple | list) or not all(isinstance(v, str) for v in value):
            problems.append(f"{key} must be a tuple of plugin names (strings), not "
                            f"{type(value).__name__} {value!r:.60}")
    if kind == "system" and not problems and manifest.system != manifest.name:
        problems.append(f"a system's manifest names itself as its system, not {manifest.system!r}")
    return "; ".join(problems) or None


def broken_plugins() -> dict[str, str]:
    """Installed plugins that are broken, with the reason: those that could not be loaded
    (:func:`installed_plugins`) and those whose hooks fail validation (:func:`invalid_plugins`)."""
    installed_plugins()
    return dict(sorted({**_broken, **invalid_plugins()}.items()))


def invalid_plugins() -> dict[str, str]:
    """Installed plugins whose hook implementations fail pluggy's validation (a bad signature, a
    hook no specification names), with the reason; each checked by :func:`validate_plugin`."""
    global _invalid
    installed = installed_plugins()
    if _invalid is None:
        found: dict[str, str] = {}
        # systems first: a rule of a broken system is broken for that reason, not its own
        for name in sorted(installed, key=lambda n: (installed[n].manifest.kind != "system", n)):
            reason = validate_plugin(name, known_invalid=found)
            if reason is not None:
                found[name] = reason
        _invalid = found
    return dict(_invalid)


def validate_plugin(name: str, *, local: Sequence[InstalledPlugin] = (),
                    known_invalid: dict[str, str] | None = None) -> str | None:
    """Why plugin ``name`` fails hook validation, or ``None`` if it passes.

    The plugin is registered in isolation, in a fresh manager with only what it needs: its system
    (the systems an adapter bridges) and the rules it requires, then ``check_pending``. So one
    broken plugin never makes another look broken.
    """
    installed = {**installed_plugins(), **{p.manifest.name: p for p in local}}
    plugin = installed.get(name)
    if plugin is None:
        return unknown_message("plugin", name, sorted(installed))
    m = plugin.manifest
    needs = [] if m.kind == "system" else [*(m.bridges if m.kind == "adapter" else (m.system,)),
                                           *m.requires]
    needs = list(dict.fromkeys(n for n in needs if n != name))
    invalid = known_invalid if known_invalid is not None else {}
    for need in needs:
        if need not in installed:
            return f"it needs {need!r}, which is not installed"
        if need in invalid:
            return f"it needs {need!r}, which is broken"
    pm = _new_manager()
    current = name
    try:
        for need in needs:
            current = need
            pm.register(installed[need].module, name=need)
        current = name
        pm.register(plugin.module, name=name)
        pm.check_pending()
        problem = _registration_problem(pm, plugin)
        if problem is not None:
            return problem
    except Exception as exc:  # pluggy.PluginValidationError, or a hook that fails on registration
        if isinstance(exc, pluggy.PluginValidationError):
            current = pm.get_name(exc.plugin) or current
        if current != name:
            return f"it needs {current!r}, which is broken: {_validation_message(exc)}"
        return _validation_message(exc)
    return None


def _registration_problem(pm: pluggy.PluginManager, plugin: InstalledPlugin) -> str | None:
    """A plugin may register only its own game system: a system registers the system it is
    named after, any other plugin none (so no plugin re-registers another's system name)."""
    m = plugin.manifest
    registered: list[str] = []
    for impl in pm.hook.hexwar_register_systems.get_hookimpls():
        if impl.plugin is not plugin.module:
            continue
        records = cast("Iterable[object]", impl.function() or ())
        registered += [str(getattr(r, "name", r)) for r in records]
    if m.kind != "system" and registered:
        return (f"it registers the game system(s) {', '.join(map(repr, registered))}; only a "
                "system plugin may register a system (refused)")
    others = [r for r in registered if r != m.name]
    if others:
        return (f"it registers the game system(s) {', '.join(map(repr, others))}, but it is "
                f"system {m.name!r}; a system may register only itself (refused)")
    return None


def _validation_message(exc: Exception) -> str:
    """One line saying what failed (pluggy's messages name the plugin's repr and span lines)."""
    if isinstance(exc, pluggy.PluginValidationError):
        text = str(exc).replace(f" in plugin {exc.plugin!r}", "")
    else:
        text = f"{type(exc).__name__}: {exc}"
    return "; ".join(line.strip() for line in text.splitlines() if line.strip())


def systems() -> dict[str, InstalledPlugin]:
    """The installed game systems, by name."""
    return {n: p for n, p in installed_plugins().items() if p.manifest.kind == "system"}


def options_of(system: str) -> dict[str, InstalledPlugin]:
    """The optional rules (and adapters) installed for ``system``, by name."""
    if system not in systems():
        raise PluginError(unknown_message("system", system, sorted(systems())))
    return {
        n: p
        for n, p in installed_plugins().items()
        if p.manifest.kind != "system" and (p.manifest.system == system or system in p.manifest.bridges)
    }


def unknown_message(kind: str, name: str, known: Sequence[str]) -> str:
    """A 'not found' message that suggests the closest known names (or why it is broken)."""
    import difflib

    if name in _broken:
        return f"{kind} {name!r} is installed but broken: {_broken[name]}"

    close = difflib.get_close_matches(name, known, n=3)
    hint = f"; did you mean {', '.join(close)}?" if close else ""
    listing = ", ".join(known) if len(known) <= 12 else ", ".join(known[:12]) + ", ..."
    return f"unknown {kind} {name!r}{hint} (known: {listing or 'none'})"


def local_plugin(module: object, *, distribution: str = "<local>") -> InstalledPlugin:
    """Wrap a module or object carrying a ``PLUGIN`` manifest that was not installed through an
    entry point (tests, notebooks). Pass it to :func:`build_plugin_manager` as ``local``."""
    manifest = getattr(module, "PLUGIN", None)
    if not isinstance(manifest, PluginManifest):
        raise PluginError(f"{module!r} has no PLUGIN manifest")
    return InstalledPlugin(manifest, cast(ModuleType, module), distribution, manifest.version)


def resolve_rules(
    system: str,
    rules: Iterable[str],
    *,
    guests: Iterable[str] = (),
    local: Sequence[InstalledPlugin] = (),
) -> list[str]:
    """Check a system's enabled optional rules: each known, of that system, requirements present,
    no two in conflict. Returns them sorted. Raises :class:`PluginError` with every problem."""
    installed = {**installed_plugins(), **{p.manifest.name: p for p in local}}
    if system not in installed or installed[system].manifest.kind != "system":
        known = sorted(n for n, p in installed.items() if p.manifest.kind == "system")
        raise PluginError(unknown_message("system", system, known))
    chosen = sorted(set(rules))
    allowed_systems = {system, *guests}
    problems: list[str] = []
    for name in chosen:
        plugin = installed.get(name)
        if plugin is None:
            known = sorted(n for n, p in installed.items() if p.manifest.kind != "system")
            problems.append(unknown_message("optional rule", name, known))
            continue
        m = plugin.manifest
        if m.kind == "system":
            problems.append(f"{name!r} is a game system, not an optional rule")
        elif m.kind == "adapter":
            if not set(m.bridges) <= allowed_systems:
                problems.append(f"adapter {name!r} bridges {m.bridges}, not the scenario's systems")
        elif m.system not in allowed_systems:
            problems.append(
                f"optional rule {name!r} belongs to system {m.system!r}, not to {system!r}"
            )
    for name in chosen:
        plugin = installed.get(name)
        if plugin is None:
            continue
        m = plugin.manifest
        for req in m.requires:
            if req in chosen or req == m.system:
                continue
            if req in _broken:
                problems.append(f"optional rule {name!r} requires {req!r}, which is installed "
                                f"but broken: {_broken[req]}")
            elif req not in installed:
                problems.append(f"optional rule {name!r} requires {req!r}, which is not installed")
            else:
                problems.append(f"optional rule {name!r} requires {req!r}, which is not enabled")
    for i, name in enumerate(chosen):
        for other in chosen[i + 1 :]:
            a, b = installed.get(name), installed.get(other)
            if a and b and (other in a.manifest.conflicts or name in b.manifest.conflicts):
                problems.append(f"optional rules {name!r} and {other!r} conflict; enable one")
    if problems:
        raise PluginError("; ".join(dict.fromkeys(problems)))
    return chosen


def build_plugin_manager(
    system: str,
    rules: Iterable[str] = (),
    *,
    guests: Iterable[str] = (),
    extra: Iterable[tuple[str, object]] = (),
    local: Sequence[InstalledPlugin] = (),
) -> pluggy.PluginManager:
    """A fresh manager for one game: core defaults, the system, guest systems, enabled rules.

    ``local`` offers plugins that are not installed through entry points (see
    :func:`local_plugin`); ``extra`` registers further plain hook objects by name. Raises
    :class:`PluginError` for unknown or conflicting plugins.
    """
    guests = sorted(set(guests) - {system})
    chosen = resolve_rules(system, rules, guests=guests, local=local)
    installed = {**installed_plugins(), **{p.manifest.name: p for p in local}}
    pm = _new_manager()
    for name in [system, *guests, *chosen]:
        if name not in installed:
            raise PluginError(unknown_message("plugin", name, sorted(installed)))
        _register(pm, installed[name].module, name)
    for name, obj in extra:
        _register(pm, obj, name)
    try:
        pm.check_pending()
    except pluggy.PluginValidationError as exc:
        raise PluginError(f"plugin {_plugin_name(pm, exc.plugin)!r} is broken: "
                          f"{_validation_message(exc)}") from exc
    if os.environ.get("HEXWAR_TRACE_PLUGINS"):
        pm.trace.root.setwriter(print)
        pm.enable_tracing()
    return pm


def system_hookspecs(system: str, *, local: Sequence[InstalledPlugin] = ()) -> dict[str, Any]:
    """The hook specifications ``system`` adds through ``hexwar_add_hookspecs``: the spec
    function (its signature and docstring) by hook name, sorted by name."""
    installed = {**installed_plugins(), **{p.manifest.name: p for p in local}}
    plugin = installed.get(system)
    if plugin is None or plugin.manifest.kind != "system":
        known = sorted(n for n, p in installed.items() if p.manifest.kind == "system")
        raise PluginError(unknown_message("system", system, known))
    pm = _new_manager()
    _register(pm, plugin.module, system)
    core = {n for n in vars(hookspecs) if n.startswith(f"{PROJECT}_")}
    found = {name: caller.spec.function for name, caller in vars(pm.hook).items()
             if isinstance(caller, pluggy.HookCaller) and caller.spec is not None
             and name not in core}
    return dict(sorted(found.items()))


def discovery_manager() -> pluggy.PluginManager:
    """A manager holding every installed plugin that passes validation, for listing commands
    (never for a game). Broken plugins are left out (:func:`broken_plugins` says why)."""
    invalid = invalid_plugins()
    pm = _new_manager()
    for name, plugin in installed_plugins().items():
        if name not in invalid:
            pm.register(plugin.module, name=name)
    return pm


def _register(pm: pluggy.PluginManager, plugin: object, name: str) -> None:
    """Register one plugin; pluggy keeps plugins in sets, so each must be hashable. A hook
    implementation that fails validation is a :class:`PluginError` naming the plugin."""
    if not isinstance(plugin, Hashable):
        raise PluginError(f"plugin {name!r} is a {type(plugin).__name__}, which is not hashable: "
                          "register a module, a class or an instance of a plain class")
    try:
        pm.register(plugin, name=name)
    except pluggy.PluginValidationError as exc:
        raise PluginError(f"plugin {name!r} is broken: {_validation_message(exc)}") from exc


def plugin_of_traceback(pm: pluggy.PluginManager, tb: TracebackType | None,
                        systems: Iterable[str] = ()) -> str | None:
    """The registered plugin whose code raised: the innermost frame of ``tb`` that runs one of a
    plugin's hook implementations or code of its module (for ``systems``, code anywhere in the
    system's package). ``None`` when no plugin's code is on the traceback (core code raised)."""
    systems = set(systems)
    codes: dict[CodeType, str] = {}
    modules: dict[str, str] = {}
    packages: dict[str, str] = {}
    for name, plugin in pm.list_name_plugin():
        if name == "core.defaults" or plugin is None:
            continue
        for caller in pm.get_hookcallers(plugin) or ():
            for impl in caller.get_hookimpls():
                code = getattr(impl.function, "__code__", None)
                if impl.plugin is plugin and isinstance(code, CodeType):
                    codes.setdefault(code, name)
        module = plugin.__name__ if isinstance(plugin, ModuleType) else type(plugin).__module__
        modules.setdefault(module, name)
        package = getattr(plugin, "__package__", None) if isinstance(plugin, ModuleType) else None
        if name in systems:
            packages.setdefault(package or module, name)
    frames = []
    while tb is not None:
        frames.append(tb.tb_frame)
        tb = tb.tb_next
    for frame in reversed(frames):
        if frame.f_code in codes:
            return codes[frame.f_code]
        module = str(frame.f_globals.get("__name__", ""))
        for known, name in modules.items():
            if module == known or module.startswith(known + "."):
                return name
        for known, name in packages.items():
            if module == known or module.startswith(known + "."):
                return name
    return None


def _plugin_name(pm: pluggy.PluginManager, plugin: object) -> str:
    name = pm.get_name(plugin)
    return name if name is not None else repr(plugin)


def _new_manager() -> pluggy.PluginManager:
    """A manager with the core hookspecs and defaults; each plugin registered afterwards adds its
    system's hookspecs through the historic hook ``hexwar_add_hookspecs``."""
    from hexwar.core import defaults

    pm = pluggy.PluginManager(PROJECT)
    pm.add_hookspecs(hookspecs)
    pm.register(defaults, name="core.defaults")
    pm.hook.hexwar_add_hookspecs.call_historic(kwargs={"pluginmanager": pm})
    return pm


def _unique(records: Iterable[Any], what: str) -> list[Any]:
    by_name: dict[str, Any] = {}
    for rec in records:
        if rec.name in by_name and by_name[rec.name] != rec:
            raise PluginError(f"two plugins register a {what} named {rec.name!r}")
        by_name[rec.name] = rec
    return [by_name[k] for k in sorted(by_name)]


def _flatten(results: Iterable[Iterable[Any] | None]) -> list[Any]:
    out: list[Any] = []
    for r in results:
        if r:
            out.extend(r)
    return out


class Hooks:
    """Typed calls into one manager's core hooks; engine code never calls ``pm.hook`` by string.

    Hooks about one game or scenario go through host-system dispatch
    (:mod:`hexwar.core.kit.dispatch`): only the plugins of that game's system answer.
    """

    def __init__(self, pm: pluggy.PluginManager) -> None:
        self.pm = pm
        self._hook = pm.hook
        self._hosted = HostDispatch(pm)

    # -- registration ------------------------------------------------------------------------
    def systems(self) -> list[SystemInfo]:
        return _unique(_flatten(self._hook.hexwar_register_systems()), "system")

    def system_info(self, name: str) -> SystemInfo:
        for info in self.systems():
            if info.name == name:
                return info
        raise PluginError(unknown_message("system", name, [s.name for s in self.systems()]))

    def unit_types(self) -> dict[str, UnitType]:
        return {u.name: u for u in _unique(_flatten(self._hook.hexwar_register_unit_types()), "unit type")}

    def terrain_types(self) -> dict[str, TerrainType]:
        recs = _unique(_flatten(self._hook.hexwar_register_terrain()), "terrain type")
        return {t.name: t for t in recs}

    def data_sources(self, kind: str | None = None) -> list[DataSource]:
        recs: list[DataSource] = _unique(_flatten(self._hook.hexwar_register_data()), "data source")
        return [r for r in recs if kind is None or r.kind == kind]

    def disclosed(self) -> list[Disclosed]:
        return _flatten(self._hook.hexwar_register_disclosed())

    def controllers(self, host: str | None = None) -> dict[str, ControllerSpec]:
        """The controllers offered, by name. In a cross-system game the guest systems offer
        theirs too; with ``host`` given, a name the host and a guest both register (``ai``)
        is the host's, since the host's sequence of play asks the decisions."""
        found: list[ControllerSpec] = _flatten(self._hook.hexwar_register_controllers())
        if host is not None:
            hosts = {c.name for c in found if c.system == host}
            found = [c for c in found if c.system == host or c.name not in hosts]
        recs = _unique(found, "controller")
        return {c.name: c for c in recs}

    def sequence(self, system: str) -> list[PhaseSpec]:
        """The sequence of play: the system's phases with every enabled rule's edits applied, in
        the order of :mod:`hexwar.core.kit.pipeline`."""
        phases: list[PhaseSpec] = _flatten(
            self._hosted(self._hook.hexwar_register_phases, system)(system=system))
        edits: list[SequenceEdit] = _flatten(
            self._hosted(self._hook.hexwar_sequence_edits, system)(system=system))
        pipeline = Pipeline(
            [(p.name, p) for p in phases],
            [Edit(e.op, e.anchor, e.phase.name if e.phase else "", e.phase, e.rule) for e in edits],
            what=f"phase of {system}",
        )
        return list(pipeline.steps)

    # -- scenario and lifecycle --------------------------------------------------------------
    def validate_scenario(self, scenario: Scenario) -> list[Problem]:
        return _flatten(self._hosted(self._hook.hexwar_validate_scenario, scenario.system)(scenario=scenario))

    def setup_game(self, game: Game) -> None:
        self._for(game, self._hook.hexwar_setup_game)(game=game)

    def turn_start(self, game: Game) -> None:
        self._for(game, self._hook.hexwar_turn_start)(game=game)

    def turn_end(self, game: Game) -> None:
        self._for(game, self._hook.hexwar_turn_end)(game=game)

    def phase_start(self, game: Game, phase: PhaseSpec) -> None:
        self._for(game, self._hook.hexwar_phase_start)(game=game, phase=phase)

    def phase_end(self, game: Game, phase: PhaseSpec) -> None:
        self._for(game, self._hook.hexwar_phase_end)(game=game, phase=phase)

    def game_over(self, game: Game) -> GameResult | None:
        return cast("GameResult | None", self._for(game, self._hook.hexwar_game_over)(game=game))

    def final_result(self, game: Game) -> GameResult:
        return cast(GameResult, self._for(game, self._hook.hexwar_final_result)(game=game))

    def data_packs(self, game: Game) -> dict[str, str]:
        """Every non-shipped data pack the game reads, ``{label: sha256}`` (``hexwar_data_packs``)."""
        packs: dict[str, str] = {}
        for answer in self._for(game, self._hook.hexwar_data_packs)(game=game):
            packs.update(answer or {})
        return dict(sorted(packs.items()))

    # -- line of sight -----------------------------------------------------------------
    def los_rules(self, game: Game | None, system: str) -> LosRules:
        return cast("LosRules", self._hosted(self._hook.hexwar_los_rules, system)(game=game, system=system))

    # -- hidden information ------------------------------------------------------------------
    def umpire(self, game: Game) -> Umpire | None:
        """The umpire an enabled rule gives the game (``hexwar_umpire``), or ``None``."""
        return cast("Umpire | None", self._for(game, self._hook.hexwar_umpire)(game=game))

    def visible_units(self, game: Game, side: str) -> set[str]:
        return set(self._for(game, self._hook.hexwar_visible_units)(game=game, side=side))

    def unit_view(self, game: Game, side: str, unit_id: str) -> dict[str, Any]:
        caller = self._for(game, self._hook.hexwar_unit_view)
        return cast("dict[str, Any]", caller(game=game, side=side, unit_id=unit_id))

    def unit_views(self, game: Game, side: str, unit_ids: Iterable[str]
                   ) -> Iterator[tuple[str, dict[str, Any] | None]]:
        """``(unit_id, unit_view(game, side, unit_id))`` for each id: the hook's implementations
        looked up once for the whole view, not once per unit (a view shows every unit, at every
        decision). They are called in pluggy's order, first non-None result wins, exactly as
        the ``firstresult`` hook call does; with a wrapper among them, each unit goes through
        the hook call itself."""
        caller = self._for(game, self._hook.hexwar_unit_view)
        impls = caller.get_hookimpls()
        if any(i.hookwrapper or getattr(i, "wrapper", False) for i in impls):
            for uid in unit_ids:
                yield uid, caller(game=game, side=side, unit_id=uid)
            return
        order = [(i.function, i.argnames) for i in reversed(impls)]
        for uid in unit_ids:
            given = {"game": game, "side": side, "unit_id": uid}
            got = None
            for fn, names in order:
                got = fn(*[given[n] for n in names])
                if got is not None:
                    break
            yield uid, got

    def describe_state(self, game: Game, side: str | None) -> dict[str, Any]:
        caller = self._for(game, self._hook.hexwar_describe_state)
        return cast("dict[str, Any]", caller(game=game, side=side) or {})

    def side_rules(self, game: Game, view: SideView) -> object | None:
        caller = self._for(game, self._hook.hexwar_side_rules)
        return cast("object | None", caller(game=game, view=view))

    def explain_decision(self, view: SideView, decision: Decision) -> str:
        from hexwar.core.engine.view import game_of

        caller = self._for(game_of(view), self._hook.hexwar_explain_decision)
        return cast(str, caller(view=view, decision=decision))

    def present_decision(self, view: SideView, decision: Decision) -> dict[str, Any]:
        """How the web table shows ``decision`` to ``view``'s side: the system's form, or the
        core's readable list of choices."""
        from hexwar.core.engine.view import game_of

        caller = self._for(game_of(view), self._hook.hexwar_present_decision)
        return cast("dict[str, Any]", caller(view=view, decision=decision))

    def describe_event(self, game: Game | None, record: Mapping[str, Any]) -> str:
        """``record`` in words, as ``game``'s system says it (any system's, with no game)."""
        hook = self._hook.hexwar_describe_event
        nested = record.get("system") if record.get("nested") else None
        if game is not None and isinstance(nested, str) and nested != game.scenario.system:
            # a nested game's record (CORE-87) is said in its own system's words, without the
            # host game, whose board and units are not the nested game's
            return cast(str, self._hosted(hook, nested)(game=None, record=record))
        caller = hook if game is None else self._for(game, hook)
        return cast(str, caller(game=game, record=record))

    def _for(self, game: Game, caller: Any) -> Any:
        return self._hosted(caller, game.scenario.system)
