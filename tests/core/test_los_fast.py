"""The bit-set line of sight (core/losgrid.py) gives exactly the answers of the per-pair trace
(core/los.py ``line_of_sight(..).clear``) for the LOS rules of every system, on random boards:
lines along hexsides and through corners included. Single queries are checked on both paths: the
C query of the optional extension (core/_losc.c, CORE-123) and the pure-Python closure."""

from __future__ import annotations

import gc
import os
import random
import shutil
import sysconfig
import weakref
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hexwar.core import losgrid, losjit
from hexwar.core.board import Board, Panel
from hexwar.core.hexgrid import Hex, trace
from hexwar.core.los import BaseLosRules, LosRules, OpenGroundLos, line_of_sight
from hexwar.core.losgrid import (
    LosGrid,
    MaskKernel,
    TraceKernel,
    clear_pairs,
    grid_of,
    los_clear,
    sight_kernel,
    visible_from,
)

COLS, ROWS = 9, 8


def random_board(seed: int, *, terrain: tuple[str, ...], heights: tuple[int, ...],
                 features: tuple[str, ...] = (), holes: bool = True) -> Board:
    """A board of COLS x ROWS hexes (some missing when ``holes``: a ragged edge, a gap)."""
    rng = random.Random(seed)
    hexes = []
    for c in range(1, COLS + 1):
        for r in range(1, ROWS + 1):
            if holes and rng.random() < 0.06:
                continue
            spec: dict[str, Any] = {"at": f"{c:02d}{r:02d}", "terrain": rng.choice(terrain),
                                    "height": rng.choice(heights)}
            if features and rng.random() < 0.25:
                spec["features"] = [rng.choice(features)]
            hexes.append(spec)
    panel = Panel.from_dict(
        {"panel": {"id": "T", "map": "T", "system": "test", "labels": "column-row",
                   "columns": [1, COLS], "rows": [1, ROWS]}, "hex": hexes}, source="test")
    return Board.assemble([panel])


def pairs_of(board: Board, seed: int, n: int = 150) -> list[tuple[Hex, Hex]]:
    """Random pairs, plus every pair from a few hexes (so that lines along hexsides and through
    corners are always among them)."""
    rng = random.Random(seed)
    cells = sorted(board.hexes)
    out = [(rng.choice(cells), rng.choice(cells)) for _ in range(n)]
    for a in rng.sample(cells, 2):
        out += [(a, b) for b in cells]
    return out


def assert_same(board: Board, rules: LosRules, data: Any, pairs: list[tuple[Hex, Hex]]) -> None:
    """Single queries on both paths (the C query first, on a fresh kernel, so that it is given
    its templates and level pairs as it meets them; then the pure-Python closure), both batch
    forms in Python and (with numba) compiled: all as the trace."""
    k = sight_kernel(board, rules, data)
    assert isinstance(k, MaskKernel), "the rules should offer a bit-set kernel"
    exact = [line_of_sight(board, a, b, rules, data).clear for a, b in pairs]
    assert (k.compiled is not None) == (losgrid.COMPILED is not None)
    assert [k.clear(a, b) for a, b in pairs] == exact
    if k.compiled is not None:
        # what the C query decides without its callback is the trace's answer; 2 is undecided
        decided = [k.compiled.decide(a.q, a.r, b.q, b.r)[0] for a, b in pairs]
        assert all(d == 2 or (d == 0) == x for d, x in zip(decided, exact, strict=True))
    assert [k.clear_python(a, b) for a, b in pairs] == exact
    assert k.clear_pairs_python(pairs) == exact
    if losjit.AVAILABLE:
        assert losjit.run(k, pairs) == exact
        coords = [(a.q, a.r, b.q, b.r) for a, b in pairs]
        assert k.clear_coords(coords).tolist() == exact
    for a in {a for a, _ in pairs[-2 * len(board.hexes):]}:
        seen = {b for (x, b), ok in zip(pairs, exact, strict=True) if x == a and ok}
        targets = [b for x, b in pairs if x == a]
        assert k.visible(a, targets) == seen
        if losjit.AVAILABLE:
            assert {b for b, ok in zip(targets, losjit.run_from(k, a, targets), strict=True)
                    if ok} == seen


def undecided(k: MaskKernel, pairs: list[tuple[Hex, Hex]]) -> list[tuple[Hex, Hex]]:
    """The pairs the C query leaves to its Python callback once warm (all pairs asked once)."""
    assert k.compiled is not None
    for a, b in pairs:
        k.clear(a, b)
    return [(a, b) for a, b in pairs if k.compiled.decide(a.q, a.r, b.q, b.r)[0] == 2]


def test_pairs_cover_the_special_cases() -> None:
    board = random_board(1, terrain=("clear",), heights=(0,))
    ps = pairs_of(board, 1)
    assert any(trace(a, b).along_hexside for a, b in ps)
    assert any(trace(a, b).through_vertex and not trace(a, b).along_hexside for a, b in ps)


# -- the templates ----------------------------------------------------------------------------------


@given(st.integers(-12, 12), st.integers(-12, 12))
def test_template_holds_the_trace(dq: int, dr: int) -> None:
    g = LosGrid([Hex(q, r) for q in range(-14, 15) for r in range(-14, 15)])
    a, b = Hex(0, 0), Hex(dq, dr)
    shift, t = g.ray(a, b)
    tr = trace(a, b)
    singles = {h for s in tr.steps if len(s.hexes) == 1 for h in s.hexes} - {a, b}
    pairs = {h for s in tr.steps if len(s.hexes) == 2 for h in s.hexes}
    grazed = {h for s in tr.steps for h in s.grazed}

    def hexes(m: int) -> set[Hex]:
        return {g.hex_of_bit(shift, i) for i in range(m.bit_length()) if m >> i & 1}

    assert t.regular
    assert hexes(t.inner) == singles and hexes(t.pairs) == pairs and hexes(t.grazed) == grazed
    sides = {frozenset(g.side_of_bit(shift, i)) for i in range(t.sides.bit_length())
             if t.sides >> i & 1}
    assert sides == set(tr.hexsides_crossed()) | set(tr.hexsides_along())


def test_off_board_end_is_refused() -> None:
    board = random_board(3, terrain=("clear",), heights=(0,), holes=False)
    k = sight_kernel(board, OpenGroundLos())
    h = sorted(board.hexes)[0]
    with pytest.raises(ValueError, match=r"Hex\(50, 50\) is not on the board"):
        k.clear(Hex(50, 50), h)
    with pytest.raises(ValueError, match=r"Hex\(-40, 3\) is not on the board"):
        k.visible(h, [Hex(-40, 3)])
    with pytest.raises(ValueError, match="not on the board"):
        k.clear_pairs([(h, h), (h, Hex(3, -30))])
    assert isinstance(k, MaskKernel)
    if losjit.AVAILABLE:
        with pytest.raises(ValueError, match=r"Hex\(3, -30\) is not on the board"):
            losjit.run(k, [(h, h), (h, Hex(3, -30))])


def test_big_batches_go_through_the_compiled_loop(monkeypatch: pytest.MonkeyPatch) -> None:
    """With numba, a batch of MIN_BATCH lines or more is compiled; without, Python answers."""
    board = random_board(6, terrain=("clear",), heights=(0,))
    k = sight_kernel(board, OpenGroundLos())
    assert isinstance(k, MaskKernel)
    calls: list[int] = []
    real = losjit.run

    def spy(kernel: MaskKernel, pairs: Any) -> list[bool]:
        calls.append(len(pairs))
        return real(kernel, pairs)

    monkeypatch.setattr(losjit, "run", spy)
    monkeypatch.setattr(losjit, "MIN_BATCH", 10)
    ps = pairs_of(board, 6, 40)
    assert k.clear_pairs(ps) == k.clear_pairs_python(ps)
    assert k.clear_pairs(ps[:5]) == k.clear_pairs_python(ps[:5])
    assert calls == ([len(ps)] if losjit.AVAILABLE else [])


# -- core rules ---------------------------------------------------------------------------------------


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10**6))
def test_open_ground(seed: int) -> None:
    """Only leaving the board blocks: a ragged board, corners counted or not."""
    board = random_board(seed, terrain=("clear",), heights=(0,))
    for policy in ("touch", "ignore"):
        rules = OpenGroundLos()
        rules.vertex_policy = policy  # type: ignore[assignment]
        assert_same(board, rules, None, pairs_of(board, seed))


def test_changed_rules_get_the_exact_walk() -> None:
    class Mine(OpenGroundLos):
        pass

    board = random_board(2, terrain=("clear",), heights=(0,))
    assert isinstance(sight_kernel(board, Mine()), TraceKernel)
    assert isinstance(sight_kernel(board, BaseLosRules()), TraceKernel)
    both = OpenGroundLos()
    both.hexside_policy = "both"
    assert isinstance(sight_kernel(board, both), TraceKernel)


def test_front_doors_agree() -> None:
    board = random_board(4, terrain=("clear",), heights=(0,))
    rules = OpenGroundLos()
    ps = pairs_of(board, 4, 40)
    exact = [line_of_sight(board, a, b, rules).clear for a, b in ps]
    assert clear_pairs(board, ps, rules) == exact
    assert [los_clear(board, a, b, rules) for a, b in ps] == exact
    a = ps[0][0]
    assert visible_from(board, a, rules) == {b for b in board.hexes
                                             if line_of_sight(board, a, b, rules).clear}
    assert grid_of(board) is grid_of(board)
    assert isinstance(sight_kernel(board, rules), MaskKernel)


def test_a_changed_target_list_is_read_afresh(monkeypatch: pytest.MonkeyPatch) -> None:
    """The compiled batch keeps the coordinates of the last target tuple; a list the caller
    changes in place between two calls is read again."""
    monkeypatch.setattr(losjit, "MIN_BATCH", 2)
    board = random_board(8, terrain=("clear",), heights=(0,))
    rules = OpenGroundLos()
    k = sight_kernel(board, rules)
    cells = sorted(board.hexes)
    a = cells[0]
    targets = cells[:20]
    first = k.visible(a, targets)
    targets[:] = cells[20:40]
    assert k.visible(a, targets) == {b for b in cells[20:40]
                                     if line_of_sight(board, a, b, rules).clear} != first
    assert k.visible(a, board.hexes) == k.visible(a, board.hexes) == {
        b for b in board.hexes if line_of_sight(board, a, b, rules).clear}


# -- the C query (core/_losc.c, CORE-123) and the pure-Python fallback -----------------------------

needs_c = pytest.mark.skipif(losgrid.COMPILED is None, reason="the C extension is not built")


def _can_compile() -> bool:
    """A C compiler and the Python headers are here (setup.py then builds the extension)."""
    cc = str(sysconfig.get_config_var("CC") or "").split()
    return bool(cc) and shutil.which(cc[0]) is not None and \
        (Path(sysconfig.get_paths()["include"]) / "Python.h").exists()


def test_the_c_query_is_built_where_a_compiler_is() -> None:
    """The editable install (tox's ``package = editable``) builds core/_losc.c, so the tests run
    the C query wherever it can be built; HEXWAR_NO_C switches it off on purpose."""
    if os.environ.get("HEXWAR_NO_C"):
        pytest.skip("HEXWAR_NO_C is set: the pure-Python path answers")
    if not _can_compile():
        pytest.skip("no C compiler or Python headers: the pure-Python path answers")
    assert losgrid.COMPILED is not None, (
        "hexwar.core._losc is not built: run `pip install -e .` again (setup.py builds it)")


def test_no_c_is_the_pure_python_path(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HEXWAR_NO_C", "1")
    assert losgrid._load_compiled() is None
    monkeypatch.delenv("HEXWAR_NO_C")
    assert (losgrid._load_compiled() is None) == (losgrid.COMPILED is None)


@settings(max_examples=10, deadline=None)
@given(st.integers(0, 10**6))
def test_without_the_extension_python_answers(seed: int) -> None:
    """The fallback: kernels made while the extension is missing answer through the pure-Python
    closure alone, as the trace (tests/core/test_los_systems.py does the same for each system)."""
    saved = losgrid.COMPILED
    losgrid.COMPILED = None
    try:
        board = random_board(seed, terrain=("clear",), heights=(0,))
        k = sight_kernel(board, OpenGroundLos())
        assert isinstance(k, MaskKernel) and k.compiled is None and k.clear is k.clear_python
        assert_same(board, OpenGroundLos(), None, pairs_of(board, seed))
    finally:
        losgrid.COMPILED = saved


@needs_c
def test_the_c_query_is_given_templates_and_pairs_as_it_meets_them() -> None:
    """A template the C tables lack is given once per board (the grid's Rays are shared by its
    kernels), a level pair once per kernel; a hex off the board is left to the Python path."""
    c = losgrid.COMPILED
    board = random_board(22, terrain=("clear",), heights=(0,), holes=False)
    k = sight_kernel(board, OpenGroundLos())
    assert isinstance(k, MaskKernel)
    a, b = Hex(3, 1), Hex(6, 0)
    assert {a, b} <= board.hexes
    assert k.compiled.decide(a.q, a.r, b.q, b.r) == (2, c.WHY_TEMPLATE)
    assert not k.grid.rays(c).has(b.q - a.q, b.r - a.r)
    assert k.clear(a, b) is True
    assert k.grid.rays(c).has(b.q - a.q, b.r - a.r)
    assert k.compiled.decide(a.q, a.r, b.q, b.r) == (0, -1)  # now decided in C alone
    other = sight_kernel(board, OpenGroundLos())
    assert isinstance(other, MaskKernel) and other.grid is k.grid
    assert other.compiled.decide(a.q, a.r, b.q, b.r) == (2, c.WHY_PAIR)
    assert other.clear(a, b) is True
    assert other.compiled.decide(a.q, a.r, b.q, b.r) == (0, -1)
    assert k.compiled.decide(50, 50, a.q, a.r) == (2, c.WHY_ARGS)


@needs_c
def test_the_c_query_refuses_what_the_python_path_refuses() -> None:
    """Anything but two board hexes goes to the Python path, which refuses it as before (a hex
    off the board by name)."""
    board = random_board(23, terrain=("clear",), heights=(0,))
    k = sight_kernel(board, OpenGroundLos())
    assert isinstance(k, MaskKernel) and k.compiled is not None
    h = sorted(board.hexes)[0]
    for bad in ("ab", None, (1.5, 2), (1, 2, 3), Hex(50, 50), (2**70, 1)):
        errors = []
        for clear in (k.clear, k.clear_python):
            with pytest.raises(Exception) as info:  # the two compared below
                clear(bad, h)  # type: ignore[arg-type]
            errors.append((type(info.value), str(info.value)))
        assert errors[0] == errors[1], bad
    with pytest.raises(ValueError, match=r"Hex\(50, 50\) is not on the board"):
        k.clear(h, Hex(50, 50))
    with pytest.raises(TypeError, match="takes 2 arguments"):
        k.clear(h)  # type: ignore[call-arg]


@needs_c
def test_a_dropped_kernel_is_collected() -> None:
    """The C query's callback holds its kernel (a cycle), which the collector frees."""
    board = random_board(24, terrain=("clear",), heights=(0,))
    k = sight_kernel(board, OpenGroundLos())
    cells = sorted(board.hexes)
    k.clear(cells[0], cells[-1])
    ref = weakref.ref(k)
    del k
    gc.collect()
    assert ref() is None
