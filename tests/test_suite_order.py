"""The order the xdist workers start in (tests/conftest.py, CORE-114): every test once, each heavy
module whole at the front of one worker's slice, the other tests in their order."""

from __future__ import annotations

import itertools
from pathlib import Path
from typing import Any

from tests.conftest import HEAVY, spread_heavy_modules

ROOT = Path(__file__).resolve().parents[1]


class _Item:
    def __init__(self, nodeid: str) -> None:
        self.nodeid = nodeid


def _items() -> list[Any]:
    light = [f"tests/core/test_light{i}.py::test_{j}" for i in range(6) for j in range(30)]
    heavy = [f"{path}::test_{j}" for _, paths in HEAVY for path in paths for j in range(3)]
    return [_Item(n) for n in sorted(light + heavy)]


def test_every_heavy_module_is_a_test_module() -> None:
    # a renamed module would silently lose its place
    for _, paths in HEAVY:
        for path in paths:
            assert (ROOT / path).is_file(), path


def test_heavy_modules_start_the_slices_whole_and_the_rest_keep_their_order() -> None:
    items = _items()
    heavy = {p for _, paths in HEAVY for p in paths}
    for workers in (2, 3):
        out = spread_heavy_modules(items, workers)
        assert sorted(i.nodeid for i in out) == sorted(i.nodeid for i in items)
        modules = [m for m, _ in itertools.groupby(i.nodeid.split("::")[0] for i in out)]
        cut = sorted(m for m in heavy if modules.count(m) > 1)
        assert not cut, f"heavy modules cut in two: {cut}"  # their module fixtures would run twice
        light = [i.nodeid for i in out if i.nodeid.split("::")[0] not in heavy]
        assert light == [i.nodeid for i in items if i.nodeid.split("::")[0] not in heavy]
        # the slices worksteal hands out: each begins with heavy modules, of like weight
        weights = []
        start, left = 0, len(out)
        for k in range(workers):
            size = left // (workers - k)
            part = out[start:start + size]
            assert part[0].nodeid.split("::")[0] in heavy
            weights.append(sum(w for w, paths in HEAVY
                               if any(i.nodeid.split("::")[0] in paths for i in part)))
            start, left = start + size, left - size
        assert max(weights) - min(weights) <= max(w for w, _ in HEAVY)


def test_one_worker_keeps_the_collection_order() -> None:
    items = _items()
    heavy_first = spread_heavy_modules(items, 1)
    assert sorted(i.nodeid for i in heavy_first) == sorted(i.nodeid for i in items)
