"""Engine speed: AI-against-AI decisions per second on every built-in scenario, side by side with
references measured in the same run, and the engine's own overhead on a trivial system.

    python benchmarks/bench_engine.py [--seconds S] [--scenario NAME ...] [--no-toy]

References (each measured in this run, before every scenario and once after the last; a
scenario's ratio is to the mean of the measurements just before and just after it, so that a
change in the machine's load during the run moves both sides of a ratio alike):

* ``reference``: a straightforward random-play hex wargame written here in plain Python, the
  size of Atlatl's ``test4`` (a 10 x 10 board of 100 hexes, 17 units, no line of sight): the
  side on move lists its legal actions (each ready unit's moves to a free neighbouring hex and
  its shots at an enemy in range, and passing), picks one at random and the state (plain dicts
  and lists, as Atlatl keeps it) is copied into the next one. It stands for "a small engine with
  no rules to speak of"; hexwar plays full rulebooks with an AI, so its figure is the ceiling of
  what an engine with almost no rules does, not a like-for-like game.
* ``Atlatl``: with the environment variable ``HEXWAR_ATLATL`` set to an Atlatl checkout (its
  ``server/game.py``), random transitions through Atlatl's own game API of its ``test4``
  scenario (``scenarios/test4.scn``), or, where the checkout has none, of a scenario of the same
  size written here in Atlatl's format (:func:`atlatl_scenario`); skipped with a message when
  the variable is not set. No Atlatl code is part of hexwar.

Before each scenario's games the process's objects are moved out of the garbage collector's
scans (``gc.freeze``), as ``hexwar simulate`` does before a process's first game (CORE-137).
Each hexwar figure counts the decisions of whole games (seeds 1, 2, ... until ``--seconds`` have
passed, at least one game) over the time of playing them; building the game (board, units) is
timed apart (``setup``). Every figure is CPU time of this process (``time.process_time``), so that
other work on a shared machine does not count.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from hexwar.core.engine.controllers import RandomController  # noqa: E402
from hexwar.core.engine.game import Game  # noqa: E402
from hexwar.core.scenario import Scenario  # noqa: E402
from tests.core.toy import toy_system  # noqa: E402

#: every built-in scenario
#: the scenarios of earlier runs (the default is every installed built-in scenario)
SCENARIOS = (*(f"firefight:scenario-{n}" for n in range(1, 10)), "firepower:basic",
             *(f"mbt:basic-{m}" for m in "abcd"))


def builtin_scenarios() -> list[str]:
    """Every built-in scenario the installed plugins register (``hexwar scenarios``)."""
    from hexwar.core.cli import _scenario_sources

    return sorted(source.name for source in _scenario_sources())


# -- the straightforward reference --------------------------------------------------------------

_NEIGHBOURS = ((0, -1), (1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0))


def _distance(a: tuple[int, int], b: tuple[int, int]) -> int:
    dq, dr = a[0] - b[0], a[1] - b[1]
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


class Reference:
    """Random play of a 100-hex, 17-unit game (see the module docstring)."""

    SIZE = 10

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.hexes = {(q, r - q // 2) for q in range(self.SIZE) for r in range(self.SIZE)}

    def initial_state(self) -> dict[str, Any]:
        cells = sorted(self.hexes)
        blue = [{"id": f"b{i}", "side": "blue", "hex": list(cells[i]), "strength": 100,
                 "ready": True} for i in range(9)]
        red = [{"id": f"r{i}", "side": "red", "hex": list(cells[-1 - i]), "strength": 100,
                "ready": False} for i in range(8)]
        return {"units": blue + red, "on_move": "blue", "turn": 1, "score": 0}

    def legal_actions(self, state: dict[str, Any]) -> list[dict[str, Any]]:
        occupied = {tuple(u["hex"]) for u in state["units"]}
        actions: list[dict[str, Any]] = [{"type": "pass"}]
        for u in state["units"]:
            if u["side"] != state["on_move"] or not u["ready"]:
                continue
            q, r = u["hex"]
            for dq, dr in _NEIGHBOURS:
                h = (q + dq, r + dr)
                if h in self.hexes and h not in occupied:
                    actions.append({"type": "move", "unit": u["id"], "to": list(h)})
            for e in state["units"]:
                if e["side"] != u["side"] and _distance(tuple(u["hex"]), tuple(e["hex"])) <= 2:
                    actions.append({"type": "fire", "unit": u["id"], "target": e["id"]})
        return actions

    def transition(self, state: dict[str, Any], action: dict[str, Any]) -> dict[str, Any]:
        new = {**state, "units": [dict(u) for u in state["units"]]}
        units = {u["id"]: u for u in new["units"]}
        if action["type"] == "move":
            units[action["unit"]]["hex"] = action["to"]
            units[action["unit"]]["ready"] = False
        elif action["type"] == "fire":
            shooter, target = units[action["unit"]], units[action["target"]]
            target["strength"] -= self.rng.randint(0, shooter["strength"] // 3)
            shooter["ready"] = False
            if target["strength"] <= 20:
                new["units"].remove(target)
                new["score"] += 1 if target["side"] == "red" else -1
        if action["type"] == "pass" or not any(u["ready"] for u in new["units"]
                                               if u["side"] == new["on_move"]):
            side = "red" if new["on_move"] == "blue" else "blue"
            new["turn"] += side == "blue"
            new["on_move"] = side
            for u in new["units"]:
                u["ready"] = u["side"] == side
        return new

    def is_terminal(self, state: dict[str, Any]) -> bool:
        sides = {u["side"] for u in state["units"]}
        return state["turn"] > 20 or len(sides) < 2


def transitions_per_second(initial: Callable[[], Any], legal: Callable[[Any], list[Any]],
                           step: Callable[[Any, Any], Any], terminal: Callable[[Any], bool],
                           seconds: float, rng: random.Random) -> float:
    """Random transitions a second, starting a new game whenever one ends."""
    state = initial()
    count = 0
    start = time.process_time()
    while (elapsed := time.process_time() - start) < seconds:
        for _ in range(100):
            if terminal(state):
                state = initial()
            state = step(state, rng.choice(legal(state)))
            count += 1
    return count / elapsed


def reference_rate(seconds: float) -> float:
    ref = Reference(1)
    return transitions_per_second(ref.initial_state, ref.legal_actions, ref.transition,
                                  ref.is_terminal, seconds, random.Random(1))


#: which Atlatl scenario was played (for the report)
ATLATL_WHAT = ["test4"]


def atlatl_scenario(seed: int = 4) -> dict[str, Any]:
    """A scenario in Atlatl's own format the size of its ``test4`` (10 x 10 hexes, 9 blue and 8
    red units), for checkouts that do not ship ``test4.scn``: random clear, rough, marsh and
    urban hexes, the sides in opposite corners, 20 phases."""
    rng = random.Random(seed)
    terrains = ("clear", "clear", "clear", "rough", "marsh", "urban")
    hexes = [{"x_offset": x, "y_offset": y, "terrain": rng.choice(terrains), "setup": None}
             for y in range(10) for x in range(10)]
    types = ("infantry", "mechinf", "armor", "artillery")
    cells = [(x, y) for y in range(10) for x in range(10)]
    units = [{"type": types[i % 4], "longName": f"{side}{i}", "faction": side,
              "currentStrength": 100, "hex": f"hex-{x}-{y}"}
             for side, picks in (("blue", cells[:9]), ("red", cells[-8:]))
             for i, (x, y) in enumerate(picks)]
    return {"map": {"hexes": hexes, "edges": []}, "units": units,
            "score": {"maxPhases": 20, "cityScore": 24, "lossPenalty": -2}}


def atlatl_rate(seconds: float) -> float | str:
    """Atlatl's random transitions a second on ``test4``, or why it was not measured."""
    where = os.environ.get("HEXWAR_ATLATL")
    if not where:
        return "skipped: set HEXWAR_ATLATL to an Atlatl checkout to compare with it"
    root = Path(where)
    server = root / "server"
    scn = next((p for p in (root / "scenarios" / "test4.scn", server / "scenarios" / "test4.scn")
                if p.is_file()), None)
    if not (server / "game.py").is_file():
        return f"skipped: no server/game.py under {root}"
    scenario = json.loads(scn.read_text()) if scn is not None else atlatl_scenario()
    ATLATL_WHAT[0] = "test4" if scn is not None else "a test4-sized scenario"
    sys.path.insert(0, str(server))
    here = Path.cwd()
    os.chdir(server)  # Atlatl reads some of its files relative to its server folder
    try:
        import game as atlatl_game  # type: ignore[import-not-found]

        g = atlatl_game.Game(scenario)
        return transitions_per_second(g.initial_state, g.legal_actions, g.transition,
                                      g.is_terminal, seconds, random.Random(1))
    finally:
        os.chdir(here)
        sys.path.remove(str(server))


# -- hexwar ------------------------------------------------------------------------------------

def hexwar_rate(name: str, seconds: float) -> tuple[float, float, int, int]:
    """(decisions a second of play, seconds of setup a game, games, decisions) for AI vs AI."""
    from hexwar.core.cli import _controllers, _resolve_scenario_path
    from hexwar.core.scenario import load_and_validate

    scenario = load_and_validate(_resolve_scenario_path(name))
    # what `hexwar simulate` does before a process's first game (docs/decisions.md CORE-137),
    # done for each scenario here, as each would be a run of its own
    gc.collect()
    gc.freeze()
    games = decisions = 0
    played = setup = 0.0
    seed = 0
    while games == 0 or played < seconds:
        seed += 1
        t0 = time.process_time()
        game = Game(scenario, seed=seed)
        controllers, _ = _controllers(game, "ai,ai", seed)
        t1 = time.process_time()
        game.play(controllers)
        t2 = time.process_time()
        setup += t1 - t0
        played += t2 - t1
        games += 1
        decisions += len(game.decisions)
    return decisions / played, setup / games, games, decisions


def toy(games: int = 200) -> None:
    """The engine's own ceiling: a trivial system (tests/core/toy), random players."""
    scenario = Scenario.load(ROOT / "tests" / "core" / "toy" / "scenario.toml")
    decisions = 0
    start = time.process_time()
    for seed in range(games):
        game = Game(scenario, seed=seed, local_plugins=[toy_system])
        game.play({s: RandomController(s, seed) for s in game.state.sides})
        decisions += len(game.decisions)
    elapsed = time.process_time() - start
    print(f"toy games: {games / elapsed:8.1f} games/s, {decisions / elapsed:9.0f} decisions/s "
          f"({decisions} decisions in {elapsed:.2f} s, game set-up included)")

    game = Game(scenario, seed=0, local_plugins=[toy_system])
    n = 20_000
    start = time.process_time()
    for _ in range(n):
        game.hooks.visible_units(game, "red")
    hook = (time.process_time() - start) / n
    start = time.process_time()
    for _ in range(n):
        sorted(game.state.units)
    plain = (time.process_time() - start) / n
    print(f"one firstresult hook call: {hook * 1e6:6.2f} µs; the same work as a plain call: "
          f"{plain * 1e6:6.2f} µs (ratio {hook / plain:.1f})")
    start = time.process_time()
    for _ in range(2000):
        game.state.digest()
    print(f"state hash (toy state): {(time.process_time() - start) / 2000 * 1e6:6.1f} µs")


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seconds", type=float, default=3.0,
                    help="play time per scenario (whole games; default 3)")
    ap.add_argument("--scenario", action="append",
                    help="a scenario (repeatable; default every built-in scenario)")
    ap.add_argument("--no-toy", action="store_true", help="skip the trivial-system figures")
    args = ap.parse_args(argv)
    if not args.no_toy:
        toy()
    names = args.scenario or builtin_scenarios()
    budget = min(args.seconds, 1.0)

    def references() -> tuple[float, float | str]:
        return reference_rate(budget), atlatl_rate(budget)

    marks = [references()]  # before each scenario, and once after the last
    rows = []
    for name in names:
        rows.append((name, *hexwar_rate(name, args.seconds)))
        marks.append(references())
    refs = [m[0] for m in marks]
    atl = [m[1] for m in marks]
    have_atlatl = all(isinstance(a, float) for a in atl)
    print(f"\nreference (100 hexes, 17 units, random play): {statistics.median(refs):9.0f} "
          f"transitions/s (median of {len(refs)}; {min(refs):.0f} to {max(refs):.0f})")
    if have_atlatl:
        rates = [float(a) for a in atl]
        print(f"Atlatl ({ATLATL_WHAT[0]}), random play: {statistics.median(rates):9.0f} "
              f"transitions/s (median of {len(rates)}; {min(rates):.0f} to {max(rates):.0f})")
    else:
        print(f"Atlatl: {next(a for a in atl if isinstance(a, str))}")
    print(f"\n{'scenario (AI vs AI)':<34} {'decisions/s':>11} {'setup s':>8} {'games':>5} "
          f"{'decisions':>9} {'/ reference':>11}" + (f" {'/ Atlatl':>9}" if have_atlatl else ""))
    for i, (name, rate, setup, games, decisions) in enumerate(rows):
        ref = (refs[i] + refs[i + 1]) / 2  # the references measured just before and after
        line = (f"{name:<34} {rate:11.0f} {setup:8.2f} {games:5d} {decisions:9d} "
                f"{rate / ref:11.3f}")
        if have_atlatl:
            line += f" {rate / ((float(atl[i]) + float(atl[i + 1])) / 2):9.3f}"
        print(line)


if __name__ == "__main__":
    main()
