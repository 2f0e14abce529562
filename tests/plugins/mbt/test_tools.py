"""The data generators in ``tools/mbt`` reproduce the shipped data files byte for byte.

Each generator writes into a temporary folder; every file it writes must equal the shipped file of
the same name, and every shipped file of the kinds it writes must be among them.
"""

from __future__ import annotations

import importlib.util
import os
import sys
from pathlib import Path
from types import ModuleType

import pytest

import hexwar.plugins.mbt as mbt_pkg

ROOT = Path(__file__).resolve().parents[3]
TOOLS = ROOT / "tools" / "mbt"
PACKAGE = Path(mbt_pkg.__file__).resolve().parent


def _seeds() -> Path | None:
    """The rulebook texts are not part of the repository: ``HEXWAR_SEEDS``, or a ``shared/seeds``
    folder beside the checkout or beside one of the folders above it."""
    if os.environ.get("HEXWAR_SEEDS"):
        return Path(os.environ["HEXWAR_SEEDS"])
    for folder in ROOT.parents:
        if (folder / "shared" / "seeds").is_dir():
            return folder / "shared" / "seeds"
    return None


SEEDS = _seeds()
RULEBOOK = SEEDS / "001_a4cbc66a373a33d2.txt" if SEEDS else None


def tool(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(f"mbt_tool_{name}", TOOLS / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up while it executes
    try:
        spec.loader.exec_module(module)
    finally:
        del sys.modules[spec.name]
    return module


def same_tree(written: Path, shipped: Path, patterns: tuple[str, ...]) -> int:
    """Compare every file under ``written`` with ``shipped``; returns how many were compared."""
    made = sorted(p.relative_to(written) for p in written.rglob("*") if p.is_file())
    assert made, "the generator wrote nothing"
    for rel in made:
        assert (shipped / rel).read_bytes() == (written / rel).read_bytes(), f"{rel} differs"
    expected = sorted(p.relative_to(shipped) for pattern in patterns for p in shipped.glob(pattern))
    assert expected == made, "the shipped files and the generated ones are not the same set"
    return len(made)


def test_build_data_writes_the_shipped_tables_cards_panels_and_scenarios(tmp_path: Path) -> None:
    tool("build_data").main([str(tmp_path)])
    n = same_tree(tmp_path, PACKAGE, ("data/tables/*.csv", "data/cards/*.toml",
                                      "data/panels/*.toml", "scenarios/basic-*.toml"))
    assert n == 7 + 8 + 4 + 4


def test_derive_toe_writes_the_shipped_derived_values(tmp_path: Path) -> None:
    tool("derive_toe").main([str(tmp_path)])
    assert same_tree(tmp_path, PACKAGE / "data" / "toe", ("derived.toml",)) == 1


@pytest.mark.skipif(RULEBOOK is None or not RULEBOOK.exists(), reason="rulebook text not available")
def test_transcribe_toe_writes_the_shipped_transcription(tmp_path: Path) -> None:
    tool("transcribe_toe").main([str(RULEBOOK), str(tmp_path)])
    assert same_tree(tmp_path, PACKAGE / "data" / "toe",
                     ("usa.toml", "frg.toml", "ussr.toml")) == 3
