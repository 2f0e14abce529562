"""Benchmark: line of sight, hexwar against a straightforward pure-Python reference, in one run.

Run: ``python benchmarks/bench_los.py [--pairs N]`` (about a minute). Builds one 50 x 50 board
(2,500 hexes; fixed seed) with random heights, woods and towns in each system's terrain names, and
times, for the LOS rules of every system (Firefight 5.1-5.2 and with Firefight 13 heights, MBT
6.1.4, Firepower 6.3.4):

* the exact per-pair trace: ``line_of_sight(board, a, b, rules).clear`` (core/los.py), which
  also reports every finding, for explanations;
* single queries: ``kernel.clear(a, b)`` (core/losgrid.py), one call per pair: the C query of
  the optional extension core/_losc.c when it is built (CORE-123), else the pure-Python closure;
  a table of its own times the reference, the Python path (``kernel.clear_python``) and the C
  path side by side by CPU time, interleaved, with their ratios;
* batch, all hexes seen from one hex: ``kernel.visible(origin, board.hexes)``;
* batch, a million random pairs: ``kernel.clear_pairs(pairs)`` of :class:`Hex` pairs, and
  ``kernel.clear_coords(array)`` of the same pairs as a numpy array of coordinates (reading the
  coordinates out of a million Hex objects is most of the cost of the first);
* the reference (:func:`reference_los`): what one would write for speed in plain Python: Red Blob
  Games' cube interpolation with an epsilon nudge (so that lines along hexsides and through
  corners fall to one side), then an elevation profile (ground plus 20 for woods and towns)
  against the straight sight line, heights in dicts keyed by ``(q, r)``, stopping at the first
  obstacle. It is not any system's rule (it samples one hex per step, nudged), so its answers
  differ; it is the yardstick for speed.

It prints every ratio issue 14 asks about: the exact trace, single queries and the batch forms
to the reference, single queries to the exact trace, and then whether each system's rules meet
the issue's two criteria (batch at least 1,000,000 queries a second, single queries at least 5
times the reference), and Firepower's Prone batch as it ran before CORE-120 beside today's.

The kernel's answers are checked against the exact trace on every sampled pair (they must be
identical); the script stops with an error if one differs. Ray templates are built once per
board and offset; their one-time cost is printed on its own and kept out of the rates.
"""

from __future__ import annotations

import argparse
import platform
import random
import sys
import time
from collections.abc import Callable, Sequence
from typing import Any

from hexwar.core import losgrid, losjit
from hexwar.core.board import Board, Panel
from hexwar.core.hexgrid import Hex
from hexwar.core.los import LosRules, line_of_sight
from hexwar.core.losgrid import MaskKernel, SightKernel, grid_of, sight_kernel

SEED = 1976
COLS, ROWS = 50, 50
GROUNDS = (440, 440, 460, 460, 480, 500)


def layout() -> list[tuple[str, str, int]]:
    """(label, kind, ground) per hex: kind is open, woods or town (about 10% each)."""
    rng = random.Random(SEED)
    out = []
    for c in range(COLS):
        for r in range(1, ROWS + 1):
            kind = rng.choice(("open",) * 8 + ("woods", "town"))
            out.append((f"{c:02d}{r:02d}", kind, rng.choice(GROUNDS)))
    return out


def build_board(system: str) -> Board:
    """The layout in the terrain names and height conventions of ``system``."""
    names = {"firefight": {"open": "clear", "woods": "forest", "town": "town"},
             "mbt": {"open": "clear", "woods": "woods", "town": "brick"},
             "firepower": {"open": "clear", "woods": "tree", "town": "rough"}}[system]
    rng = random.Random(SEED + 1)
    hexes = []
    for label, kind, ground in layout():
        # MBT and Firepower Basic heights are classes: hills above 460, depressions at 440
        height = ground if system == "firefight" else (1 if ground > 460 else
                                                       -1 if ground < 450 and kind == "open"
                                                       and rng.random() < 0.2 else 0)
        spec: dict[str, Any] = {"at": label, "terrain": names[kind], "height": height}
        if system == "firefight" and kind == "open" and rng.random() < 0.02:
            spec["features"] = [f"defilade:{rng.randint(1, 6)}"]
        if system == "firepower" and kind == "open" and rng.random() < 0.03:
            spec["features"] = [rng.choice(("fence:1-4", "hedge:2-5"))]
        hexes.append(spec)
    panel = Panel.from_dict(
        {"panel": {"id": "B", "map": "B", "labels": "column-row", "columns": [0, COLS - 1],
                   "rows": [1, ROWS], "hex_size_m": 50.0}, "hex": hexes}, source="bench")
    return Board.assemble([panel])


# -- the straightforward reference ---------------------------------------------------------------


def reference_tables(board: Board) -> tuple[dict[tuple[int, int], int], dict[tuple[int, int], int]]:
    """Ground and obstacle top per ``(q, r)``, from the shared layout (woods and towns + 20)."""
    ground: dict[tuple[int, int], int] = {}
    top: dict[tuple[int, int], int] = {}
    kinds = {label: (kind, z) for label, kind, z in layout()}
    for h in board.hexes:
        kind, z = kinds[board.label(h)]
        ground[(h.q, h.r)] = z
        top[(h.q, h.r)] = z + (20 if kind != "open" else 0)
    return ground, top


def reference_los(ground: dict[tuple[int, int], int], top: dict[tuple[int, int], int],
                  a: tuple[int, int], b: tuple[int, int]) -> bool:
    """Cube interpolation with an epsilon nudge, then the elevation profile (see the module)."""
    aq, ar = a
    bq, br = b
    dq, dr = bq - aq, br - ar
    n = (abs(dq) + abs(dr) + abs(dq + dr)) // 2
    if n <= 1:
        return True
    fq, fr, fs = aq + 1e-6, ar + 1e-6, -aq - ar - 2e-6
    sq, sr, ss = dq / n, dr / n, (-dq - dr) / n
    ha = ground[a]
    slope = (ground[b] - ha) / n
    for i in range(1, n):
        q, r, s = fq + sq * i, fr + sr * i, fs + ss * i
        rq, rr, rs = round(q), round(r), round(s)
        xq, xr, xs = abs(rq - q), abs(rr - r), abs(rs - s)
        if xq > xr and xq > xs:
            rq = -rr - rs
        elif xr > xs:
            rr = -rq - rs
        t = top.get((rq, rr))
        if t is None:
            return False  # the line leaves the board
        if t > ha + slope * i:
            return False
    return True


# -- timing --------------------------------------------------------------------------------------


#: CPU time and wall time of every timed run, to show how much of a core the run had
CLOCKS = [0.0, 0.0]


#: queries a second of CPU time of the last :func:`rate` (best of its runs): what a core of
#: its own would give, however loaded the shared machine is
LAST_CPU = [0.0]


def rate(n: int, fn: Callable[[], Any]) -> tuple[float, Any]:
    """Queries a second for ``n`` queries done by ``fn`` (best of two runs), and its result."""
    best, best_cpu, out = float("inf"), float("inf"), None
    for _ in range(2):
        c0, t0 = time.process_time(), time.perf_counter()
        out = fn()
        wall = time.perf_counter() - t0
        cpu = time.process_time() - c0
        CLOCKS[0] += cpu
        CLOCKS[1] += wall
        best = min(best, wall)
        best_cpu = min(best_cpu, max(cpu, 1e-9))
    LAST_CPU[0] = n / best_cpu
    return n / best, out


def systems() -> list[tuple[str, Board, LosRules, Any]]:
    from hexwar.plugins.firefight.rules.height import HeightLayer
    from hexwar.plugins.firefight.sighting import FirefightLos
    from hexwar.plugins.firepower.los import FirepowerLos
    from hexwar.plugins.firepower.terrain import FpMap
    from hexwar.plugins.mbt.terrain import BasicLos, map_info

    ff, mbt, fp = build_board("firefight"), build_board("mbt"), build_board("firepower")
    fp_map = FpMap.from_board(fp)
    return [
        ("Firefight 5.1-5.2", ff, FirefightLos(), None),
        ("Firefight 13 heights", ff, FirefightLos([HeightLayer()], {"defilade_blocks": False,
                                                                    "forest_town_block": False}),
         None),
        ("MBT 6.1.4", mbt, BasicLos(map_info(mbt)), None),
        ("Firepower 6.3.4", fp, FirepowerLos(fp_map),
         {"firer_posture": "stand", "target_posture": "stand"}),
        # Firepower 6.3.4.2: with a Prone unit every fence picture on a line is a geometry test
        ("Firepower, Prone", fp, FirepowerLos(fp_map),
         {"firer_posture": "stand", "target_posture": "prone"}),
    ]


def prone_before(runs: list[tuple[str, Board, LosRules, Any]], pairs: list[tuple[Hex, Hex]],
                 cells: list[Hex], origins: list[Hex]) -> str | None:
    """Firepower's Prone batches as they ran before CORE-120 (every line meeting a fence picture
    handed back from the compiled loop to Python), timed against today's, in this run."""
    if not losjit.AVAILABLE:
        return None
    name, board, rules, data = runs[-1]
    now = sight_kernel(board, rules, data)
    old = sight_kernel(board, rules, data)
    if not isinstance(old, MaskKernel) or old.chords is None:
        return None
    old.chords = None  # before the compiled tables are built: the loop then knows no chords
    if old.clear_pairs(pairs) != now.clear_pairs(pairs):
        return f"{name}: the batch without chords answers otherwise"
    rates = []
    for k in (old, now, old):
        one, _ = rate(len(origins) * len(cells),
                      lambda: [k.visible(o, cells) for o in origins])  # noqa: B023
        many, _ = rate(len(pairs), lambda: k.clear_pairs(pairs))  # noqa: B023
        rates.append((one, many))
    one_old = (rates[0][0] + rates[2][0]) / 2
    many_old = (rates[0][1] + rates[2][1]) / 2
    return (f"  {name}, the batch as before CORE-120 (fences back to Python): all from one "
            f"{one_old:,.0f}/s, pairs {many_old:,.0f}/s; today {rates[1][0]:,.0f}/s and "
            f"{rates[1][1]:,.0f}/s ({rates[1][0] / one_old:.1f}x and {rates[1][1] / many_old:.1f}x)")


def single_paths(runs: list[tuple[str, Board, LosRules, Any]], single: list[tuple[Hex, Hex]],
                 reference: Callable[[], Any]) -> list[tuple[str, float, float, float]]:
    """Single queries of the reference, the Python path and the C path, by CPU time: each timed
    three times in turn (reference, Python, C, reference, ...) so that the three share the load of
    the machine; the best run of each. One row per rules: (name, reference, Python, C) queries a
    CPU second (C 0 when the extension is not built)."""
    out = []
    for name, board, rules, data in runs:
        k = sight_kernel(board, rules, data)
        if not isinstance(k, MaskKernel):
            continue
        py = k.clear_python
        c = k.compiled.clear if k.compiled is not None else None
        # both paths see every pair once first (templates, level pairs), and must agree
        if c is not None and [c(a, b) for a, b in single] != [py(a, b) for a, b in single]:
            raise SystemExit(f"{name}: the C and Python single queries differ")
        best = [float("inf")] * 3
        for _ in range(3):
            for i, fn in enumerate((
                    reference,
                    lambda: [py(a, b) for a, b in single],  # noqa: B023
                    None if c is None else lambda: [c(a, b) for a, b in single])):  # noqa: B023
                if fn is None:
                    continue
                t0 = time.process_time()
                fn()
                best[i] = min(best[i], max(time.process_time() - t0, 1e-9))
        n = len(single)
        out.append((name, n / best[0], n / best[1], 0.0 if c is None else n / best[2]))
    return out


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    ap.add_argument("--pairs", type=int, default=1_000_000, help="random pairs for the batch")
    ap.add_argument("--sample", type=int, default=3_000, help="pairs checked against the trace")
    args = ap.parse_args(argv)
    print(f"{time.strftime('%Y-%m-%d')}, Python {platform.python_version()}, "
          f"{platform.machine()} {platform.system()}")
    rng = random.Random(SEED)
    runs = systems()
    cells = sorted(runs[0][1].hexes)
    print(f"board: {len(cells)} hexes ({COLS} x {ROWS}), heights {sorted(set(GROUNDS))}, "
          "about 10% woods and 10% towns")
    pairs = [(rng.choice(cells), rng.choice(cells)) for _ in range(args.pairs)]
    single = pairs[:200_000]
    sample = pairs[:args.sample]
    origins = rng.sample(cells, 12)
    import numpy as np

    coords = np.array([(a.q, a.r, b.q, b.r) for a, b in pairs], np.int64)
    mean = sum(a.distance(b) for a, b in single) / len(single)
    print(f"random pairs: mean range {mean:.1f} hexes\n")

    ground, top = reference_tables(runs[0][1])
    ref_single = [((a.q, a.r), (b.q, b.r)) for a, b in single]
    ref_rate, _ = rate(len(ref_single), lambda: [reference_los(ground, top, a, b)
                                                 for a, b in ref_single])
    ref_all = [(h.q, h.r) for h in cells]
    ref_one, _ = rate(len(origins) * len(cells), lambda: [
        [reference_los(ground, top, (o.q, o.r), t) for t in ref_all] for o in origins])
    print(f"reference (cube interpolation + nudge + elevation profile, plain Python): "
          f"{ref_rate:,.0f} pairs/s, {ref_one:,.0f}/s all-from-one\n")

    many_label = "1M" if len(pairs) == 1_000_000 else f"{len(pairs) // 1000}k"
    header = (f"{'rules':<22}{'exact trace':>13}{'single':>12}{'all from one':>14}"
              f"{many_label + ' pairs':>12}{many_label + ' array':>12}{'trace:ref':>11}"
              f"{'single:ref':>12}{'batch:ref':>11}{'single:trace':>14}")
    rows_single = single_paths(runs, single, lambda: [reference_los(ground, top, a, b)
                                                       for a, b in ref_single])
    built = losgrid.COMPILED is not None
    print(f"single queries, {len(single):,} random pairs, queries a second of CPU time, the three "
          "paths interleaved\n(the C query: core/_losc.c, "
          f"{'built' if built else 'NOT built: pip install -e . with a C compiler'}):")
    head = (f"{'rules':<22}{'reference':>11}{'Python':>11}{'C':>12}{'Python:ref':>12}"
            f"{'C:ref':>8}{'C:Python':>10}")
    print(head)
    print("-" * len(head))
    for name, r, py, c in rows_single:
        cs = f"{c:>12,.0f}{py / r:>11.1f}x{c / r:>7.1f}x{c / py:>9.1f}x" if c else \
            f"{'-':>12}{py / r:>11.1f}x{'-':>8}{'-':>10}"
        print(f"{name:<22}{r:>11,.0f}{py:>11,.0f}{cs}")
    print()
    print(header)
    print("-" * len(header))
    rows = []
    #: (rules, slower batch form a second and a CPU second, single : reference by wall and by
    #: CPU time), for the verdict below
    verdict: list[tuple[str, float, float, float, float]] = []
    for name, board, rules, data in runs:
        kernel: SightKernel = sight_kernel(board, rules, data)
        t0 = time.perf_counter()
        kernel.clear_pairs(pairs)  # builds every template the pairs need, once per board
        build = time.perf_counter() - t0
        exact_rate, exact = rate(len(sample), lambda: [
            line_of_sight(board, a, b, rules, data).clear for a, b in sample])  # noqa: B023
        got = kernel.clear_pairs(sample)
        if got != exact:
            bad = next(p for p, x, y in zip(sample, got, exact, strict=True) if x != y)
            print(f"{name}: kernel and exact trace differ on {bad}", file=sys.stderr)
            return 1
        for o in origins[:3]:
            vis = kernel.visible(o, cells)
            want = {b for b in cells if line_of_sight(board, o, b, rules, data).clear}
            if vis != want:
                print(f"{name}: visible() and exact trace differ from {o}", file=sys.stderr)
                return 1
        # the reference is timed again right beside each measurement, so that a ratio compares
        # runs under the same load of a shared machine
        near_ref, _ = rate(len(ref_single), lambda: [reference_los(ground, top, a, b)
                                                     for a, b in ref_single])
        ref_cpu = LAST_CPU[0]
        single_rate, _ = rate(len(single), lambda: [
            kernel.clear(a, b) for a, b in single])  # noqa: B023
        single_cpu = LAST_CPU[0]
        near_ref = (near_ref + rate(len(ref_single), lambda: [
            reference_los(ground, top, a, b) for a, b in ref_single])[0]) / 2
        ref_cpu = (ref_cpu + LAST_CPU[0]) / 2
        one_rate, _ = rate(len(origins) * len(cells), lambda: [
            kernel.visible(o, cells) for o in origins])  # noqa: B023
        one_cpu = LAST_CPU[0]
        many_rate, _ = rate(len(pairs), lambda: kernel.clear_pairs(pairs))  # noqa: B023
        many_cpu = LAST_CPU[0]
        array_rate = 0.0
        if isinstance(kernel, MaskKernel) and losjit.HAVE_NUMPY:
            array_rate, arr = rate(len(pairs), lambda: kernel.clear_coords(coords))  # noqa: B023
            if arr[:len(sample)].tolist() != exact:
                print(f"{name}: clear_coords and exact trace differ", file=sys.stderr)
                return 1
        rows.append((name, build, len(grid_of(board)._templates)))
        verdict.append((name, min(one_rate, many_rate), min(one_cpu, many_cpu),
                        single_rate / near_ref, single_cpu / ref_cpu))
        print(f"{name:<22}{exact_rate:>13,.0f}{single_rate:>12,.0f}{one_rate:>14,.0f}"
              f"{many_rate:>12,.0f}{array_rate:>12,.0f}{exact_rate / near_ref:>10.2f}x"
              f"{single_rate / near_ref:>11.1f}x"
              f"{min(one_rate, many_rate) / near_ref:>10.1f}x"
              f"{single_rate / exact_rate:>13.0f}x")
    print("\n(queries a second; single is kernel.clear, the C query when it is built; the ratios"
          " are to the reference\n timed just before and after the single queries; batch:ref takes"
          " the slower of the two Hex batch forms; every answer"
          f" checked against the exact trace on {len(sample):,} pairs and {3} full views)")
    before = prone_before(runs, pairs, cells, origins)
    if before is not None:
        print(before)
    print(f"\nissue 14's criteria in this run (batch: the slower of all-from-one and {many_label}"
          " pairs, a second of wall time and of CPU time):")
    for name, batch, batch_cpu, single_ref, single_ref_cpu in verdict:
        print(f"  {name:<22} batch >= 1,000,000/s: {'yes' if batch >= 1e6 else 'no '} "
              f"({batch:,.0f}/s; CPU: {'yes' if batch_cpu >= 1e6 else 'no '} "
              f"{batch_cpu:,.0f}/s);  single >= 5x the reference: "
              f"{'yes' if single_ref >= 5 else 'no '} ({single_ref:.1f}x; CPU: "
              f"{'yes' if single_ref_cpu >= 5 else 'no '} {single_ref_cpu:.1f}x)")
    print(f"  the timed runs had {100 * CLOCKS[0] / CLOCKS[1]:.0f}% of a CPU core on average "
          "(a shared machine: the rates scale with it, the ratios much less)")
    print(f"  batches through the compiled loop (numba): {'yes' if losjit.AVAILABLE else 'no'}")
    for name, build, n in rows:
        print(f"  {name}: first pass over the pairs built the board's templates "
              f"({n:,} offsets) in {build:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
