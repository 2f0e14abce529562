"""Profile one AI-vs-AI game of a scenario with cProfile and print where its time goes.

    python benchmarks/profile_game.py SCENARIO [--seed N] [--top K] [--sort cumulative|tottime]
                                               [--out FILE]

``SCENARIO`` is a built-in name (``mbt:basic-d``, ``mbt:advanced-a``, ``firepower:basic``,
``firepower:street-fight``) or a path. The game is first played once unprofiled (CPU time, the
figure to quote), then again under cProfile; ``--out`` keeps the raw profile for ``pstats``.
Not run by pytest.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from hexwar.core.engine.game import Game  # noqa: E402


def game_of(name: str, seed: int) -> tuple[Game, dict[str, object]]:
    from hexwar.core.cli import _controllers, _resolve_scenario_path
    from hexwar.core.scenario import load_and_validate

    scenario = load_and_validate(_resolve_scenario_path(name))
    game = Game(scenario, seed=seed)
    controllers, _ = _controllers(game, "ai,ai", seed)
    return game, controllers


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("scenario")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--top", type=int, default=40)
    ap.add_argument("--sort", default="cumulative")
    ap.add_argument("--out", default=None)
    args = ap.parse_args(argv)
    game, ctl = game_of(args.scenario, args.seed)
    t = time.process_time()
    game.play(ctl)  # type: ignore[arg-type]
    dt = time.process_time() - t
    n = len(game.decisions)
    print(f"{args.scenario} seed {args.seed}: {n} decisions in {dt:.2f} s CPU "
          f"({n / dt:.0f}/s), final hash {game.state.digest()}")
    game, ctl = game_of(args.scenario, args.seed)
    prof = cProfile.Profile()
    prof.enable()
    game.play(ctl)  # type: ignore[arg-type]
    prof.disable()
    if args.out:
        prof.dump_stats(args.out)
    pstats.Stats(prof).sort_stats(args.sort).print_stats(args.top)


if __name__ == "__main__":
    main()
