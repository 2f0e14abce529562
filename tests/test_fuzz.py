"""A mutation fuzzer over the shipped scenarios: no input may end in a traceback.

Each run mutates a shipped scenario file, either its bytes (flip, drop, insert, duplicate or drop
a line) or one of its TOML values (a value of another type, out of range, a key renamed or
removed), then loads it, validates it and, when validation passes, builds the game up to its
first decision. Anything raised must be a :class:`HexwarError`; any other exception is a crash.

In CI the run has a fixed seed and lasts about three seconds. For a longer run by hand::

    HEXWAR_FUZZ_SECONDS=600 python -m pytest -p no:cacheprovider -n 0 tests/test_fuzz.py -s

or ``python tests/test_fuzz.py SECONDS [SEED]``, which prints every distinct crash cause;
``HEXWAR_FUZZ_DECISIONS=N`` also plays the first N decisions of each valid mutant.
"""

from __future__ import annotations

import copy
import json
import math
import os
import random
import sys
import time
import tomllib
import traceback
from pathlib import Path
from typing import Any

from hexwar.core.errors import HexwarError

ROOT = Path(__file__).resolve().parents[1]
SCENARIOS = sorted(ROOT.glob("plugins/*/scenarios/*.toml"))
SEED = 20261201
PLAY_DECISIONS = int(os.environ.get("HEXWAR_FUZZ_DECISIONS", "0"))
"""How many decisions past the first a run plays (0 in CI; more in a longer run by hand)."""
HOSTILE: list[Any] = [
    "", "x", "ab", "1A1", "ZZ99", "lava", "../x", "</script>", 0, -1, 1, 7, 10**6, 2**63,
    1.5, -0.5, True, False, [], [1], ["x"], [1, "x"], [[]], {}, {"x": 1}, {"hex": "ab"},
]


def _hostile(rng: random.Random) -> Any:
    return copy.deepcopy(rng.choice(HOSTILE))  # never share a mutable value between mutations


def run_one(path: Path, text: str) -> None:
    """Load, validate and start the scenario ``text`` (read as if it were ``path``); raises only
    what a user would see."""
    from hexwar.core.engine.game import Game
    from hexwar.core.scenario import Scenario, validate_scenario

    scenario = Scenario.from_text(text, path=str(path))
    if validate_scenario(scenario):
        return
    game = Game(scenario, seed=1)
    for _ in range(PLAY_DECISIONS + 1):
        decision = game.pending
        if decision is None or not decision.options:
            return
        decision.check(decision.options[0])
        if _ < PLAY_DECISIONS:
            game.answer(decision.options[0])


def mutate(text: str, rng: random.Random) -> str:
    if rng.random() < 0.35:
        return _mutate_bytes(text, rng)
    try:
        doc = tomllib.loads(text)
    except tomllib.TOMLDecodeError:
        return _mutate_bytes(text, rng)
    for _ in range(rng.choice((1, 1, 1, 2, 3))):
        _mutate_value(doc, rng)
    return dump_toml(doc)


def _mutate_bytes(text: str, rng: random.Random) -> str:
    data = bytearray(text.encode())
    lines = text.splitlines(keepends=True)
    op = rng.randrange(5)
    if op == 0 and data:
        data[rng.randrange(len(data))] = rng.randrange(256)
    elif op == 1 and data:
        i = rng.randrange(len(data))
        del data[i:i + rng.randrange(1, 8)]
    elif op == 2:
        data.insert(rng.randrange(len(data) + 1), rng.choice(b'[]{}"=,.\n#0123456789-\xff'))
    elif op == 3 and lines:
        i = rng.randrange(len(lines))
        lines.insert(i, lines[i])
        return "".join(lines)
    elif lines:
        del lines[rng.randrange(len(lines))]
        return "".join(lines)
    return data.decode("utf-8", errors="surrogateescape").encode(
        "utf-8", errors="surrogateescape").decode("utf-8", errors="replace")


def _containers(value: Any, out: list[Any]) -> None:
    if isinstance(value, dict):
        out.append(value)
        for v in value.values():
            _containers(v, out)
    elif isinstance(value, list):
        out.append(value)
        for v in value:
            _containers(v, out)


def _mutate_value(doc: dict[str, Any], rng: random.Random) -> None:
    found: list[Any] = []
    _containers(doc, found)
    target = rng.choice(found)
    if isinstance(target, dict):
        if not target:
            target[rng.choice(["x", "hex", "id"])] = _hostile(rng)
            return
        key = rng.choice(list(target))
        op = rng.randrange(4)
        if op == 0 and target is not doc:
            del target[key]
        elif op == 1:
            target[key + rng.choice(["s", "x", "_"])] = target.pop(key)
        elif op == 2 and isinstance(target[key], (int, float)) and not isinstance(target[key], bool):
            target[key] = rng.choice([0, -1, target[key] + 1, target[key] * 1000, -target[key]])
        else:
            target[key] = _hostile(rng)
    elif target:
        i = rng.randrange(len(target))
        op = rng.randrange(3)
        if op == 0:
            del target[i]
        elif op == 1:
            target.append(target[i])
        else:
            target[i] = _hostile(rng)


def dump_toml(doc: dict[str, Any]) -> str:
    """Every top-level key as ``key = <inline value>`` (valid TOML for any parsed document)."""
    return "".join(f"{_key(k)} = {_inline(v)}\n" for k, v in doc.items())


def _key(k: str) -> str:
    return json.dumps(k)


def _inline(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        return ("inf" if v > 0 else "-inf") if math.isinf(v) else "nan" if v != v else repr(v)
    if isinstance(v, str):
        return json.dumps(v)
    if isinstance(v, list):
        return "[" + ", ".join(_inline(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{" + ", ".join(f"{_key(k)} = {_inline(x)}" for k, x in v.items()) + "}"
    return json.dumps(str(v))  # dates and times: as strings


def fuzz(seconds: float, seed: int = SEED, max_runs: int | None = None
         ) -> tuple[int, dict[str, tuple[str, str]]]:
    """Run for ``seconds``; returns the number of runs and each crash cause (type and the
    innermost hexwar frame) with one input that shows it and its traceback."""
    rng = random.Random(seed)
    texts = {p: p.read_text(encoding="utf-8") for p in SCENARIOS}
    crashes: dict[str, tuple[str, str]] = {}
    runs = 0
    end = time.monotonic() + seconds
    while time.monotonic() < end and (max_runs is None or runs < max_runs):
        path = rng.choice(SCENARIOS)
        text = mutate(texts[path], rng)
        runs += 1
        try:
            run_one(path, text)
        except HexwarError:
            pass
        except Exception as exc:
            frames = [f for f in traceback.extract_tb(exc.__traceback__) if "hexwar" in f.filename
                      or "/core/" in f.filename or "/plugins/" in f.filename]
            where = f"{frames[-1].filename}:{frames[-1].lineno}" if frames else "?"
            cause = f"{type(exc).__name__} at {where}"
            crashes.setdefault(cause, (text, traceback.format_exc()))
    return runs, crashes


def test_no_mutated_scenario_crashes() -> None:
    seconds = float(os.environ.get("HEXWAR_FUZZ_SECONDS", "3"))
    runs, crashes = fuzz(seconds)
    assert runs > 0
    report = "\n\n".join(f"{cause}\n--- input ---\n{text[:3000]}\n--- traceback ---\n{tb}"
                         for cause, (text, tb) in sorted(crashes.items()))
    assert not crashes, f"{len(crashes)} crash cause(s) in {runs} runs:\n{report}"


def test_the_serialiser_round_trips() -> None:
    for p in SCENARIOS:
        doc = tomllib.loads(p.read_text(encoding="utf-8"))
        assert tomllib.loads(dump_toml(doc)) == doc


if __name__ == "__main__":
    secs = float(sys.argv[1]) if len(sys.argv) > 1 else 30.0
    n, found = fuzz(secs, int(sys.argv[2]) if len(sys.argv) > 2 else SEED)
    print(f"{n} runs, {len(found)} crash cause(s)")
    for cause, (_, tb) in sorted(found.items()):
        print("==", cause)
        print("\n".join(tb.strip().splitlines()[-3:]))


# -- issue 9 item 12: a choice of the wrong shape is refused, never a crash ---------------------

import pytest  # noqa: E402

from hexwar.core.errors import RulesError  # noqa: E402


def _reach(kind: str, names: tuple[str, ...], steps: int = 400) -> Any:
    """The first game (of the shipped scenarios ``names``) and decision of ``kind``, answering
    seeded random listed options."""
    from hexwar.core.engine.game import Game
    from hexwar.core.scenario import Scenario

    for name in names:
        game = Game(Scenario.load(ROOT / "plugins" / name), seed=3)
        rng = random.Random(1)
        for _ in range(steps):
            d = game.pending
            if d is None or not d.options:
                break
            if d.kind == kind:
                return game, d
            game.answer(d.options[rng.randrange(len(d.options))])
    raise AssertionError(f"no {kind} decision reached")


FF = tuple(f"firefight/scenarios/scenario{i}.toml" for i in (3, 4, 1, 2, 5, 6, 7, 8, 9))


@pytest.mark.parametrize("kind, names, bad", [
    ("mbt.fire", ("mbt/scenarios/basic-a.toml",), {"target": []}),
    ("mbt.fire", ("mbt/scenarios/basic-a.toml",), {"target": [], "shots": [["N1", "APFSDS"]]}),
    ("mbt.fire", ("mbt/scenarios/basic-a.toml",), {"target": "S1", "shots": [[[], "APFSDS"]]}),
    ("mbt.fire", ("mbt/scenarios/basic-a.toml",), ("extra", 1)),
    ("mbt.fire", ("mbt/scenarios/basic-a.toml",), ("target", None)),
    ("firefight.direct_fire", FF, ("firers", None)),
    ("firefight.direct_fire", FF, ("weapons", "z")),
    ("firefight.direct_fire", FF, ("weapons", None)),
    ("firefight.direct_fire", FF, ("firers", [[]])),
    ("firefight.direct_fire", FF, ("extra", 1)),
    ("firefight.assign_weapons", FF, [[]]),
    ("action", ("firepower/scenarios/basic.toml",), ("act", [])),
    ("action", ("firepower/scenarios/basic.toml",), ("extra", 1)),
    ("action", ("firepower/scenarios/basic.toml",), ("unit", None)),
    ("impulse", ("firepower/scenarios/basic.toml",), ("units", [[]])),
])
def test_wrong_type_choices_are_refused(kind: str, names: tuple[str, ...], bad: Any) -> None:
    game, decision = _reach(kind, names)
    if isinstance(bad, tuple):  # one field of a listed choice changed
        base = next(o for o in decision.options if isinstance(o, dict))
        bad = {**base, bad[0]: bad[1]}
    before = game.state.digest()
    with pytest.raises(RulesError) as info:
        game.answer(bad)
    assert kind in str(info.value)
    assert game.state.digest() == before and game.pending is decision


def test_a_validator_that_cannot_read_a_choice_refuses_it() -> None:
    from hexwar.core.engine.decisions import Decision

    def validate(choice: Any) -> str | None:
        return None if choice["x"] > 1 else "too small"

    d = Decision("red", "toy.kind", options=["pass"], validate=validate)
    d.check({"x": 2})
    for bad in ([], {"x": "y"}, {"y": 1}, "z"):
        with pytest.raises(RulesError, match=r"toy\.kind for red"):
            d.check(bad)
    with pytest.raises(RulesError, match="null"):
        d.check({"x": None})
    d2 = Decision("red", "toy.move", options=[{"unit": "a", "to": 1}], validate=lambda c: None)
    with pytest.raises(RulesError, match="unknown field"):
        d2.check({"unit": "a", "to": 2, "too": 1})
