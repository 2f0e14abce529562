"""Growth: time per game turn as the number of units doubles (8, 16, 32, 64), AI against AI.

    python benchmarks/bench_growth.py [--turns T] [--sizes 8,16,32,64] [--system mbt|firepower]

The scenario is a built-in one (MBT matchup A, or the Firepower Basic Game) with its units list
replaced by N units, half a side, of the scenario's own unit types; everything else (board,
set-up, victory) is the scenario's. For each size it prints the CPU time per turn, the mean number
of enemy units its side sees, at the start of each turn, and the time per turn divided by
units x visible targets: the issue's bound is that this does not grow with the size.
"""

from __future__ import annotations

import argparse
import re
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from hexwar.core.cli import _controllers  # noqa: E402
from hexwar.core.engine.game import Game  # noqa: E402
from hexwar.core.scenario import load_and_validate  # noqa: E402

SOURCES = {
    "mbt": ROOT / "plugins" / "mbt" / "scenarios" / "basic-a.toml",
    "firepower": ROOT / "plugins" / "firepower" / "scenarios" / "basic.toml",
}


def scaled(system: str, units: int, turns: int, folder: Path) -> Path:
    """The source scenario with ``units`` units (half a side) and ``turns`` turns."""
    text = SOURCES[system].read_text(encoding="utf-8")
    head, _, body = text.partition("[[units]]")
    blocks = ["[[units]]" + b for b in body.split("[[units]]")]
    by_side: dict[str, list[str]] = {}
    for b in blocks:
        side = re.search(r'^side\s*=\s*"([^"]+)"', b, re.M)
        assert side is not None, b
        by_side.setdefault(side.group(1), []).append(b)
    out: list[str] = []
    for side, own in by_side.items():
        for i in range(units // len(by_side)):
            block = own[i % len(own)]
            block = re.sub(r'^id\s*=\s*"[^"]+"', f'id = "{side[:1]}{i + 1}"', block, flags=re.M)
            out.append(block.rstrip() + "\n\n")
    head = re.sub(r"^turns\s*=\s*\d+", f"turns = {turns}", head, count=1, flags=re.M)
    path = folder / f"{system}-{units}.toml"
    path.write_text(head + "".join(out), encoding="utf-8")
    return path


def visible_targets(game: Game) -> float:
    """Mean over the units on the board of the number of enemy units their side sees."""
    counts = []
    for side in game.state.sides:
        seen = game.view(side).units
        own = [u for u in game.state.units.values() if u.side == side and u.hex is not None]
        enemies = sum(1 for uid in seen if game.state.units.get(uid) is not None
                      and game.state.units[uid].side != side)
        counts.extend([enemies] * len(own))
    return sum(counts) / len(counts) if counts else 0.0


def run(system: str, units: int, turns: int, folder: Path, seed: int = 1) -> tuple[float, float, int]:
    """(CPU seconds a turn, mean visible targets, decisions) of one AI-vs-AI game."""
    scenario = load_and_validate(scaled(system, units, turns, folder))
    game = Game(scenario, seed=seed)
    controllers, _ = _controllers(game, "ai,ai", seed)
    seen: list[float] = []
    last_turn = game.state.turn

    def watch(g: Game) -> None:
        nonlocal last_turn
        if g.state.turn != last_turn:
            last_turn = g.state.turn
            seen.append(visible_targets(g))

    start = time.process_time()
    game.play(controllers, on_decision=watch)
    elapsed = time.process_time() - start
    played = max(game.state.turn, 1)
    return elapsed / played, (sum(seen) / len(seen) if seen else visible_targets(game)), \
        len(game.decisions)


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--system", choices=sorted(SOURCES), default="mbt")
    ap.add_argument("--turns", type=int, default=3)
    ap.add_argument("--sizes", default="8,16,32,64")
    args = ap.parse_args(argv)
    sizes = [int(x) for x in args.sizes.split(",")]
    print(f"{args.system}: {SOURCES[args.system].name} with N units, {args.turns} turns, AI vs AI")
    print(f"{'units':>5} {'s/turn':>8} {'targets':>8} {'decisions':>9} {'ms/(unit*target)':>17}")
    with tempfile.TemporaryDirectory(prefix="hexwar-growth-") as tmp:
        for n in sizes:
            per_turn, targets, decisions = run(args.system, n, args.turns, Path(tmp))
            ratio = per_turn / (n * max(targets, 1.0)) * 1000
            print(f"{n:5d} {per_turn:8.3f} {targets:8.1f} {decisions:9d} {ratio:17.3f}")


if __name__ == "__main__":
    main()
