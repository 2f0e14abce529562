"""Fixed-seed AI-against-AI games of every built-in scenario, reduced to digests.

``python -m tests.golden.record [--dump DIR] [NAME ...]`` (from the repository root) rewrites
``games.json`` (with ``--dump``, also each game's canonical log, for a ``diff`` between two
versions of the code); the test
``tests/test_golden_games.py`` replays every game and compares. A refactor keeps every digest; a
deliberate rules change rewrites the file in its own commit and says why.
"""

from __future__ import annotations

import hashlib
import json
import re
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).parent
GOLDEN = HERE / "games.json"
SEED = 1
#: Firefight's optional rules, all of them: "NAME+all" plays NAME with every one enabled
FIREFIGHT_RULES = tuple(f"firefight.{r}" for r in (
    "artillery_mines", "clgp", "dedicated_battery", "dummies", "future_afvs", "height",
    "improved_positions", "mines", "mounted_combat", "observation", "overrun", "overwatch",
    "scatter", "short_halt", "small_arms", "smoke", "suppressive_fire"))
#: the recorded games: every built-in scenario, and two Firefight ones with every optional rule
SCENARIOS = (
    *(f"firefight:scenario-{n}" for n in range(1, 10)),
    *(f"firefight:scenario-{n}+all" for n in (4, 7)),
    "firepower:basic",
    *(f"mbt:basic-{m}" for m in "abcd"),
)

# Rule citations are prose, not behaviour: "[6.52]", "[Firefight 4.1A]", "MBT 7.4",
# "Firepower 6.2" and "Firefight Scenario 8" all reduce to the bare number (or "Scenario 8"),
# and a list of rule references is compared as a set, so changing the citation style keeps the
# recorded hash.
_CITATION = re.compile(
    r"\[?\b(?:Firefight|MBT|Firepower)\s+(?=\d|Scenario)|(?<=\d)\]|(?<=\d[A-Z])\]|\[(?=\d)")


def _canonical(value: Any, key: str = "") -> Any:
    if isinstance(value, str):
        return _CITATION.sub("", value)
    if isinstance(value, list):
        items = [_canonical(v) for v in value]
        return sorted(items) if key == "rules" and all(isinstance(i, str) for i in items) else items
    if isinstance(value, dict):
        return {str(_canonical(k)): _canonical(v, str(k)) for k, v in value.items()}
    return value


def canonical_events(game: Any) -> list[Any]:
    """The game's log without its header, rule citations reduced (see ``_canonical``)."""
    return [_canonical(e) for e in game.log.events if e["type"] != "header"]


def play(scenario_name: str, seed: int = SEED, *, dump: Path | None = None) -> dict[str, Any]:
    """Play one game AI against AI and return its digests (``dump``: also write its canonical
    log there, one event a line, to compare two versions of the code with ``diff``)."""
    from hexwar.core.testing import played_game

    name, _, extra = scenario_name.partition("+")
    options = FIREFIGHT_RULES if extra == "all" else ()
    # played once per process: tests that read the same game's log share it
    game = played_game(name, seed=seed, options=options)
    result = game.result
    hashes = hashlib.sha256("\n".join(d["hash"] for d in game.decisions).encode()).hexdigest()
    events = canonical_events(game)
    log = hashlib.sha256(json.dumps(events, sort_keys=True).encode()).hexdigest()
    if dump is not None:
        dump.mkdir(parents=True, exist_ok=True)
        (dump / f"{scenario_name.replace(':', '_')}.jsonl").write_text(
            "".join(json.dumps(e, sort_keys=True) + "\n" for e in events), encoding="utf-8")
    return {
        "seed": seed,
        "decisions": len(game.decisions),
        "events": len(events),
        "final_state": game.state.digest(),
        "state_hashes": hashes,
        "log": log,
        "result": _canonical(result.as_dict()),
    }


def main(argv: list[str]) -> int:
    dump = None
    if argv[:1] == ["--dump"]:
        dump, argv = Path(argv[1]), argv[2:]
    names = argv or list(SCENARIOS)
    recorded = json.loads(GOLDEN.read_text()) if GOLDEN.exists() else {}
    for name in names:
        recorded[name] = play(name, dump=dump)
        print(name, recorded[name]["decisions"], "decisions", file=sys.stderr)
    GOLDEN.write_text(json.dumps(dict(sorted(recorded.items())), indent=1, sort_keys=True) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
