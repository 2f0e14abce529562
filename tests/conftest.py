"""Suite-wide settings that make the run cheaper without changing what any test checks."""

from __future__ import annotations

import os
import sys
from pathlib import Path


def _bytecode_cache() -> None:
    # CORE-111: with PYTHONDONTWRITEBYTECODE set (as on the shared machine) every run, every
    # xdist worker and every `hexwar` subprocess a test starts recompiled the whole package and
    # re-ran pytest's assertion rewriting of each test module (about 11 s of CPU per process).
    # Byte code goes to a cache outside the source tree instead, so the tree stays clean and
    # the cache is only ever a speed-up (Python checks each entry against its source's mtime).
    if not sys.dont_write_bytecode and not os.environ.get("PYTHONDONTWRITEBYTECODE"):
        return
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    prefix = os.environ.get("PYTHONPYCACHEPREFIX") or str(Path(base) / "hexwar" / "pycache")
    try:
        Path(prefix).mkdir(parents=True, exist_ok=True)
    except OSError:
        return  # no writable cache: run as before, only slower
    sys.pycache_prefix = prefix
    sys.dont_write_bytecode = False
    os.environ["PYTHONPYCACHEPREFIX"] = prefix  # the subprocesses the tests start
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)


_bytecode_cache()
