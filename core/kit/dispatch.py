"""Host-system dispatch: a system's implementations of the core hooks answer only for its games.

Several systems can sit in one manager: the listing commands load every installed plugin, and a
cross-system game registers its guest systems beside the host. The core's game hooks (set-up,
turn and phase lifecycle, victory, views, line of sight, scenario validation, the sequence of
play, explanations) are therefore called through :class:`HostDispatch`, which leaves out every
plugin that belongs to another system. Adapters and plain objects without a manifest always take
part. A system's implementations need no "is this my game?" guard.
"""

from __future__ import annotations

from typing import Any

import pluggy

from hexwar.core.types import PluginManifest


def plugin_system(plugin: object) -> str | None:
    """The system a registered plugin belongs to, or ``None`` for adapters and plain objects."""
    manifest = getattr(plugin, "PLUGIN", None)
    if not isinstance(manifest, PluginManifest) or manifest.kind == "adapter":
        return None
    return manifest.system


class HostDispatch:
    """Hook callers restricted to the plugins of one host system, cached per (hook, system).

    Build it once the manager holds every plugin of the game: the callers are cached.
    """

    def __init__(self, pm: pluggy.PluginManager) -> None:
        self.pm = pm
        self._callers: dict[tuple[str, str], Any] = {}

    def __call__(self, caller: Any, system: str) -> Any:
        """``caller`` without the plugins of systems other than ``system``."""
        key = (caller.name, system)
        found = self._callers.get(key)
        if found is None:
            # list_name_plugin, not get_plugins: the latter builds a set of every plugin
            others = [p for _, p in self.pm.list_name_plugin()
                      if p is not None and (s := plugin_system(p)) is not None and s != system]
            found = self.pm.subset_hook_caller(caller.name, others) if others else caller
            self._callers[key] = found
        return found
