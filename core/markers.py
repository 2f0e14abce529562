"""The pluggy markers. Plugins write ``from hexwar.core import hookimpl``."""

from __future__ import annotations

import pluggy

PROJECT = "hexwar"

hookspec = pluggy.HookspecMarker(PROJECT)
hookimpl = pluggy.HookimplMarker(PROJECT)
