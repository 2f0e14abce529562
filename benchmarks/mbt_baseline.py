"""The MBT AI as it was at an earlier git revision, for old-against-new benchmark runs.

``baseline_ai(rev)`` loads ``plugins/mbt/ai.py`` from revision ``rev`` of this repository (with
``git show``) as a module of its own and returns its ``MbtAI`` class; the rest of the code is
today's, so both AIs play the same rules on the same seeds. Not run by pytest.
"""

from __future__ import annotations

import subprocess
import sys
import types
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]


def baseline_ai(rev: str) -> Any:
    """The ``MbtAI`` class of ``plugins/mbt/ai.py`` at git revision ``rev``."""
    text = subprocess.run(["git", "show", f"{rev}:plugins/mbt/ai.py"], cwd=ROOT, check=True,
                          capture_output=True, text=True).stdout
    name = f"hexwar.plugins.mbt._ai_at_{rev.replace('~', '_').replace('^', '_')}"
    module = types.ModuleType(name)
    module.__file__ = f"{rev}:plugins/mbt/ai.py"
    sys.modules[name] = module
    exec(compile(text, module.__file__, "exec"), module.__dict__)
    return module.MbtAI
