"""The shipped TO&E data is exactly what the developer tools produce from the rulebook text."""

from __future__ import annotations

import contextlib
import io
import os
from importlib import resources
from pathlib import Path

import pytest

from hexwar.plugins.mbt.toe import derive, transcribe

# The rulebook texts are not part of the repository; they sit in shared/seeds beside a checkout
# (or wherever HEXWAR_SEEDS points).
_SEEDS = Path(os.environ.get("HEXWAR_SEEDS", Path(__file__).resolve().parents[3].parent / "shared" / "seeds"))
RULEBOOK = _SEEDS / "001_a4cbc66a373a33d2.txt"
DATA = resources.files("hexwar.plugins.mbt.toe").joinpath("data")


@pytest.mark.skipif(not RULEBOOK.exists(), reason="rulebook text not available")
def test_transcription_is_reproducible(tmp_path: Path) -> None:
    transcribe.main([str(RULEBOOK), str(tmp_path)])
    for nation in ("usa", "frg", "ussr"):
        assert (tmp_path / f"{nation}.toml").read_text(encoding="utf-8") == DATA.joinpath(
            f"{nation}.toml"
        ).read_text(encoding="utf-8")


def test_derived_values_are_reproducible() -> None:
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        derive.main()
    assert buf.getvalue() == DATA.joinpath("derived.toml").read_text(encoding="utf-8")
