"""Issue 8's measure: an old test suite and today's, run one after the other in one run on this
machine, each in its own tree and virtual environment.

    python benchmarks/bench_suite.py                       # 37911b1 (serial, as its tox ran it)
                                                           # against this tree with -n 2
    python benchmarks/bench_suite.py --before 37911b1:0 --before 31df58e:2   # and a suite change
    python benchmarks/bench_suite.py --shared              # only the tests both suites have

It reports (a) each suite's wall time and CPU seconds (pytest and everything it waited for: the
xdist workers, the ``hexwar`` subprocesses, the browsers), the test count and outcome, and (b) for
the tests that exist in both suites, their summed durations before and after (each test's
set-up, call and tear-down, from a JUnit XML file). A test is the same test when its node id is
(module, class and name); a test whose module was moved or renamed is matched by its name (with its
parameters) where that name is unique on both sides.

Each ``--before REV:N`` is measured and compared with ``--after``. A revision given to them is
checked out in a temporary ``git worktree`` and installed with its own ``[test]`` extra into a
venv of its own (``python -m venv``, then pip, and what its tox.ini's commands_pre installs; xdist
added when N is not 0). Both are kept under ``~/.cache/hexwar/bench-suite/<commit>`` so that a
second measurement does not build them again (``--fresh`` does); ``--after .`` (the default) is
this tree with the interpreter running this script. Each suite is first collected once
(``--collect-only``), so a suite that caches byte code starts with its cache warm as on any
developer's second run; the timed run is one, with ``-p no:cacheprovider``. The machine's load
average is printed before and after: CPU seconds are the steadier figure on a shared machine, wall
time shows how well a run kept its cores busy.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import time
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CACHE = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "hexwar" / "bench-suite"


@dataclass
class Suite:
    label: str
    tree: Path
    python: Path
    workers: int
    wall: float = 0.0
    cpu: float = 0.0
    rc: int = 0
    summary: str = ""
    durations: dict[str, float] = field(default_factory=dict)
    tests: list[str] = field(default_factory=list)


def _run(cmd: list[str], cwd: Path | None = None, env: dict[str, str] | None = None) -> None:
    print("  $", " ".join(cmd), flush=True)
    subprocess.run(cmd, cwd=cwd, env=env, check=True, stdout=subprocess.DEVNULL)


def _commit(rev: str) -> str:
    out = subprocess.run(["git", "rev-parse", "--verify", f"{rev}^{{commit}}"], cwd=ROOT,
                         check=True, capture_output=True, text=True)
    return out.stdout.strip()


def _prepare(rev: str, workers: int, label: str, fresh: bool) -> Suite:
    """The tree and venv of ``rev``: this tree for ``.``, else a cached worktree and venv."""
    if rev == ".":
        return Suite(label, ROOT, Path(sys.executable), workers)
    commit = _commit(rev)
    home = CACHE / commit[:12]
    tree, venv = home / "tree", home / "venv"
    ready = home / "ready"
    if fresh and home.exists():
        subprocess.run(["git", "worktree", "remove", "--force", str(tree)], cwd=ROOT,
                       capture_output=True)
        shutil.rmtree(home)
    if not ready.exists():
        print(f"{label}: building {commit[:12]} in {home} (once; --fresh builds it again)")
        if tree.exists():
            subprocess.run(["git", "worktree", "remove", "--force", str(tree)], cwd=ROOT,
                           capture_output=True)
            shutil.rmtree(tree, ignore_errors=True)
        home.mkdir(parents=True, exist_ok=True)
        subprocess.run(["git", "worktree", "prune"], cwd=ROOT, check=True)
        _run(["git", "worktree", "add", "--detach", str(tree), commit], cwd=ROOT)
        shutil.rmtree(venv, ignore_errors=True)
        _run([sys.executable, "-m", "venv", str(venv)])
        pip = [str(venv / "bin" / "python"), "-m", "pip", "install", "-q"]
        _run([*pip, "-e", f"{tree}[test]"], cwd=tree)
        # the suite of the day needs xdist for -n; an old suite run serially does not
        if workers:
            _run([*pip, "pytest-xdist"], cwd=tree)
        # what the tree's tox runs before its tests (the example plugin), and nothing more
        for line in _commands_pre(tree / "tox.ini"):
            words = line.split()
            if words[:4] == ["python", "-m", "pip", "install"]:
                _run([*pip, *[w for w in words[4:] if w != "--quiet"]], cwd=tree)
        ready.write_text(commit + "\n")
    return Suite(f"{label} ({commit[:9]})", tree, venv / "bin" / "python", workers)


def _commands_pre(tox_ini: Path) -> list[str]:
    """The ``commands_pre`` lines of tox.ini's ``[testenv]``."""
    import configparser

    ini = configparser.ConfigParser(interpolation=None)
    ini.read(tox_ini)
    text = ini.get("testenv", "commands_pre", fallback="")
    return [ln.strip() for ln in text.splitlines() if ln.strip()]


def _env(suite: Suite) -> dict[str, str]:
    env = dict(os.environ)
    bin_dir = str(suite.python.parent)
    # the suite's own `hexwar` and python first on PATH (its subprocess tests call them)
    env["PATH"] = bin_dir + os.pathsep + env.get("PATH", "")
    if (suite.python.parent.parent / "pyvenv.cfg").exists():
        env["VIRTUAL_ENV"] = str(suite.python.parent.parent)
    for var in ("PYTEST_ADDOPTS", "PYTEST_XDIST_AUTO_NUM_WORKERS", "PYTHONPATH"):
        env.pop(var, None)
    return env


def _pytest(suite: Suite, extra: list[str]) -> list[str]:
    cmd = [str(suite.python), "-m", "pytest", "-q", "-p", "no:cacheprovider"]
    if suite.workers:
        cmd += ["-n", str(suite.workers)]
    return cmd + extra


def _measure(suite: Suite, out: Path) -> None:
    env = _env(suite)
    print(f"{suite.label}: collecting once (warms any byte-code cache)", flush=True)
    subprocess.run([str(suite.python), "-m", "pytest", "-q", "-p", "no:cacheprovider",
                    "--collect-only", *suite.tests], cwd=suite.tree, env=env, capture_output=True)
    xml = out / f"{re.sub(r'[^A-Za-z0-9]+', '_', suite.label)}.xml"
    log = xml.with_suffix(".log")
    cmd = _pytest(suite, [f"--junitxml={xml}", "-o", "junit_duration_report=total", *suite.tests])
    print(f"{suite.label}: {' '.join(cmd)}  (load {os.getloadavg()[0]:.1f})", flush=True)
    start = time.perf_counter()
    with log.open("w") as sink:
        proc = subprocess.Popen(cmd, cwd=suite.tree, env=env, stdout=sink, stderr=subprocess.STDOUT)
        _, status, usage = os.wait4(proc.pid, 0)
    suite.wall = time.perf_counter() - start
    # wait4's rusage counts the process and every descendant it (or they) waited for
    suite.cpu = usage.ru_utime + usage.ru_stime
    suite.rc = os.waitstatus_to_exitcode(status)
    proc.returncode = suite.rc
    lines = [ln for ln in log.read_text().splitlines() if ln.strip()]
    suite.summary = lines[-1] if lines else "(no output)"
    suite.durations = _durations(xml)
    print(f"  {suite.summary}\n  wall {suite.wall:.1f} s, CPU {suite.cpu:.1f} s "
          f"(load {os.getloadavg()[0]:.1f}; log {log})", flush=True)


def _collect(suite: Suite) -> list[str]:
    """The node ids of ``suite``'s tests (``pytest --collect-only -q``)."""
    done = subprocess.run([str(suite.python), "-m", "pytest", "-q", "-p", "no:cacheprovider",
                           "--collect-only", *suite.tests], cwd=suite.tree, env=_env(suite),
                          capture_output=True, text=True)
    return [ln.strip() for ln in done.stdout.splitlines() if "::" in ln]


def _durations(xml: Path) -> dict[str, float]:
    """node id -> seconds (set-up, call and tear-down) of every test in a JUnit XML file."""
    if not xml.exists():
        return {}
    times: dict[str, float] = {}
    for case in ET.parse(xml).getroot().iter("testcase"):
        if case.find("skipped") is not None:
            continue  # a skipped test did not run: it is not compared
        times[f"{case.get('classname', '')}::{case.get('name', '')}"] = float(case.get("time") or 0)
    return times


def _short(node: str) -> str:
    """The test's name with its parameters, without module and class."""
    return node.rsplit("::", 1)[-1]


def match(before: dict[str, float], after: dict[str, float]) -> dict[str, str]:
    """before node id -> after node id: the same node id, else the same unique test name."""
    pairs = {n: n for n in before if n in after}
    left_b = [n for n in before if n not in pairs]
    taken = set(pairs.values())
    left_a = [n for n in after if n not in taken]

    def unique(nodes: list[str]) -> dict[str, str]:
        seen: dict[str, list[str]] = {}
        for n in nodes:
            seen.setdefault(_short(n), []).append(n)
        return {k: v[0] for k, v in seen.items() if len(v) == 1}

    ub, ua = unique(left_b), unique(left_a)
    for name, node in ub.items():
        if name in ua:
            pairs[node] = ua[name]
    return pairs


def report(before: Suite, after: Suite, top: int) -> dict[str, object]:
    pairs = match(before.durations, after.durations)
    moved = sum(1 for b, a in pairs.items() if b != a)
    sum_b = sum(before.durations[b] for b in pairs)
    sum_a = sum(after.durations[a] for a in pairs.values())
    print("\n== (a) whole suites ==")
    w = max(len(before.label), len(after.label))
    for s in (before, after):
        print(f"{s.label:<{w}}  -n {s.workers or 0}  wall {s.wall:7.1f} s  CPU {s.cpu:7.1f} s  "
              f"{len(s.durations):5d} tests run  rc {s.rc}  | {s.summary}")
    print(f"after/before: wall x{after.wall / before.wall:.2f}, CPU x{after.cpu / before.cpu:.2f} "
          f"(below 1: faster)")
    print("\n== (b) the tests in both suites ==")
    print(f"{len(pairs)} tests in both ({len(pairs) - moved} by node id, {moved} by name); "
          f"{len(before.durations) - len(pairs)} only before, "
          f"{len(after.durations) - len(pairs)} only after")
    print(f"summed durations: before {sum_b:.1f} s, after {sum_a:.1f} s, "
          f"after/before x{sum_a / sum_b if sum_b else float('nan'):.2f}")
    only_after = sum(t for n, t in after.durations.items() if n not in set(pairs.values()))
    print(f"the {len(after.durations) - len(pairs)} tests only after: {only_after:.1f} s summed")
    delta = sorted(((after.durations[a] - before.durations[b], b) for b, a in pairs.items()))
    print(f"\nfaster by most (of the common tests, top {top}):")
    for d, b in delta[:top]:
        print(f"  {d:+7.2f} s  {before.durations[b]:6.2f} -> {after.durations[pairs[b]]:6.2f}  {b}")
    print(f"slower by most (top {top}):")
    for d, b in reversed(delta[-top:]):
        print(f"  {d:+7.2f} s  {before.durations[b]:6.2f} -> {after.durations[pairs[b]]:6.2f}  {b}")
    return {
        "machine": {"cores": os.cpu_count(), "load_end": os.getloadavg()},
        "suites": [{"label": s.label, "workers": s.workers, "wall_s": round(s.wall, 2),
                    "cpu_s": round(s.cpu, 2), "tests_run": len(s.durations), "rc": s.rc,
                    "summary": s.summary} for s in (before, after)],
        "common": {"tests": len(pairs), "by_name": moved, "before_s": round(sum_b, 2),
                   "after_s": round(sum_a, 2)},
    }


def _spec(text: str, workers: int) -> tuple[str, int]:
    """``REV`` or ``REV:N`` (N xdist workers, 0 for one process)."""
    rev, _, n = text.partition(":")
    return rev, int(n) if n else workers


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--before", action="append", default=None, metavar="REV[:N]",
                    help="revision of an old suite, N its xdist workers; repeat it to measure "
                    "several in the same run, each against --after (default: 37911b1:0, the "
                    "suite when issue 8 was filed, run in one process as its tox ran it: it had "
                    "no xdist)")
    ap.add_argument("--after", default=".:2", metavar="REV[:N]",
                    help="the new suite; . for this tree (default .:2)")
    ap.add_argument("--out", type=Path, default=None, help="folder for the logs, XML and JSON "
                    "(default: a new folder under /tmp)")
    ap.add_argument("--tests", nargs="+", default=[], metavar="PATH",
                    help="run only these test paths (the same in each tree), e.g. the modules a "
                    "change touched; default: the whole suite")
    ap.add_argument("--shared", action="store_true",
                    help="run only the tests whose node ids both suites collect: the old suite "
                    "against the same tests today")
    ap.add_argument("--top", type=int, default=10, help="rows of the biggest changes")
    ap.add_argument("--fresh", action="store_true", help="rebuild cached worktrees and venvs")
    ap.add_argument("--prepare-only", action="store_true",
                    help="build the worktrees and venvs, run nothing")
    args = ap.parse_args()
    out = args.out or Path(f"/tmp/bench-suite-{time.strftime('%Y%m%d-%H%M%S')}")
    out.mkdir(parents=True, exist_ok=True)
    befores = [_prepare(*_spec(b, 0), f"before{i + 1}", args.fresh)
               for i, b in enumerate(args.before or ["37911b1:0"])]
    for b in befores:
        b.label = b.label.replace("before1 ", "before ") if len(befores) == 1 else b.label
    after = _prepare(*_spec(args.after, 2), "after", args.fresh)
    if args.prepare_only:
        return 0
    for s in (*befores, after):
        s.tests = list(args.tests)
    if args.shared:  # the same node ids in every tree, in the old suite's order
        ids = set(_collect(after))
        for b in befores:
            ids &= set(_collect(b))
        shared = [n for n in _collect(befores[0]) if n in ids]
        print(f"--shared: {len(shared)} tests that every suite collects")
        for s in (*befores, after):
            s.tests = shared
    print(f"machine: {os.cpu_count()} cores, load average {os.getloadavg()}")
    for s in (*befores, after):
        _measure(s, out)
    results = [report(b, after, args.top) for b in befores]
    (out / "suite.json").write_text(json.dumps(results, indent=2) + "\n")
    print(f"\nlogs, JUnit XML and suite.json in {out}")
    return 0 if after.rc == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
