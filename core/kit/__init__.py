"""The system kit: the few building blocks every game system is made of.

* :mod:`~hexwar.core.kit.pipeline`: named steps that optional rules insert into, replace or
  remove, with one documented order for edits (sequences of play, fire procedures).
* :mod:`~hexwar.core.kit.stash`: per-game (and per-board) storage under typed keys, in place of
  attributes hung on objects that do not own them.
* :mod:`~hexwar.core.kit.hooks`: the base of a system's typed facade over its own hooks, which
  knows which hooks have implementations, and the record of which hooks a system calls.
* :mod:`~hexwar.core.kit.dispatch`: host-system dispatch, so that a system's implementations of
  the core hooks run only for games (and scenarios) of that system.

``docs/system-kit.md`` shows how a system is built from them.
"""

from __future__ import annotations

from hexwar.core.kit.dispatch import plugin_system
from hexwar.core.kit.hooks import SystemHooks, collect
from hexwar.core.kit.pipeline import EDIT_OPS, Edit, Pipeline
from hexwar.core.kit.stash import Stash, StashKey

__all__ = ["EDIT_OPS", "Edit", "Pipeline", "Stash", "StashKey", "SystemHooks", "collect",
           "plugin_system"]
