"""Old against new source trees on the same seeds, in one run: AI-vs-AI games of each scenario
played by two Python interpreters (each a venv with one tree installed), alternating old and
new per scenario, each after an untimed warm-up game (seed 99) in its own process; every pair
of games must end in the same state hash. CPU time of ``game.play`` (``time.process_time``);
with ``--repeat K`` each seed is played K times and the least time counts, which keeps the
ratio steady on a machine other work is loading (the machine's noise only ever adds time).

    python benchmarks/ab_trees.py OLD_PYTHON NEW_PYTHON [--seeds 1 2] [--repeat K]
                                  [--scenario NAME ...]

One game alone (what each interpreter runs): ``python benchmarks/ab_trees.py --play NAME
[--repeat K] SEED...`` prints one JSON line per seed. Not run by pytest.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve()
SCENARIOS = ("mbt:basic-d", "mbt:advanced-a", "firepower:basic", "firepower:street-fight",
             "firepower:hill-assault")


def play(name: str, seeds: list[int], repeat: int = 1) -> None:
    from hexwar.core.cli import _controllers, _resolve_scenario_path
    from hexwar.core.engine.game import Game
    from hexwar.core.scenario import load_and_validate

    scenario = load_and_validate(_resolve_scenario_path(name))
    try:  # as `hexwar simulate` plays (CORE-137); a tree from before it has no such step
        from hexwar.core.simulation.runner import freeze_long_lived
    except ImportError:
        pass
    else:
        freeze_long_lived()
    for seed in [99, *seeds]:
        cpu = float("inf")
        for _ in range(1 if seed == 99 else repeat):
            game = Game(scenario, seed=seed)
            controllers, _ = _controllers(game, "ai,ai", seed)
            start = time.process_time()
            game.play(controllers)
            cpu = min(cpu, time.process_time() - start)
        if seed != 99 or not seeds:
            print(json.dumps({"seed": seed, "decisions": len(game.decisions), "cpu": cpu,
                              "hash": game.state.digest()}), flush=True)


def run(python: str, name: str, seeds: list[int], repeat: int) -> list[dict[str, object]]:
    out = subprocess.run([python, str(HERE), "--play", name, "--repeat", str(repeat),
                          *map(str, seeds)], check=True, capture_output=True, text=True).stdout
    return [json.loads(line) for line in out.splitlines() if line.startswith("{")]


def main() -> None:
    if len(sys.argv) > 1 and sys.argv[1] == "--play":
        rest = sys.argv[3:]
        repeat = 1
        if rest[:1] == ["--repeat"]:
            repeat, rest = int(rest[1]), rest[2:]
        play(sys.argv[2], [int(s) for s in rest], repeat)
        return
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("old")
    ap.add_argument("new")
    ap.add_argument("--seeds", type=int, nargs="+", default=[1, 2])
    ap.add_argument("--repeat", type=int, default=1,
                    help="plays of each seed; the least CPU time counts (default 1)")
    ap.add_argument("--scenario", action="append")
    args = ap.parse_args()
    if args.repeat < 1:
        ap.error("--repeat must be at least 1")
    for name in args.scenario or SCENARIOS:
        old = run(args.old, name, args.seeds, args.repeat)
        new = run(args.new, name, args.seeds, args.repeat)
        for a, b in zip(old, new, strict=True):
            if a["hash"] != b["hash"]:
                raise SystemExit(f"{name} seed {a['seed']}: the games differ "
                                 f"({a['hash']} against {b['hash']})")
        n = sum(int(str(r["decisions"])) for r in new)
        before = n / sum(float(str(r["cpu"])) for r in old)
        after = n / sum(float(str(r["cpu"])) for r in new)
        least = f", least of {args.repeat}" if args.repeat > 1 else ""
        print(f"{name}: {n} decisions (seeds {args.seeds}{least}), same final hashes; "
              f"old {before:.0f}/s, "
              f"new {after:.0f}/s, ratio {after / before:.2f}x", flush=True)


if __name__ == "__main__":
    main()
