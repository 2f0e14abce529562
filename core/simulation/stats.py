"""Statistics of many games (docs/decisions.md CORE-39).

Win rates carry a 95% Wilson score interval, which stays inside 0-1 and is honest for small
counts and for rates near 0 or 1, where the normal approximation is not. Scores and margins
are what each system's result reports (``GameResult.scores``): Firefight's are the scenario's
own count (units through, exit points, kills), MBT's and Firepower's are victory points; a
result without scores is reported as such, never given invented ones. The margin is the first
side's score less the second's and exists only where the result scores both sides.
"""

from __future__ import annotations

import math
import re
import statistics
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from hexwar.core.simulation.records import GameRecord

Z95 = 1.959963984540054  # the standard normal quantile of 0.975


def wilson(successes: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion ``successes / n`` (``(0, 1)`` for ``n == 0``)."""
    if n <= 0:
        return (0.0, 1.0)
    if not 0 <= successes <= n:
        raise ValueError(f"{successes} successes out of {n}")
    p = successes / n
    z2 = z * z
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    # at 0 and n the bound is exactly 0 or 1; rounding would leave 0.9999999999999999
    lo = 0.0 if successes == 0 else max(0.0, centre - half)
    hi = 1.0 if successes == n else min(1.0, centre + half)
    return (lo, hi)


def rate(successes: int, n: int) -> dict[str, Any]:
    lo, hi = wilson(successes, n)
    return {"games": successes, "rate": successes / n if n else 0.0, "ci95": [lo, hi]}


def distribution(values: Sequence[float], *, bins: int = 12) -> dict[str, Any]:
    """Mean, spread, quartiles and a histogram (each value's count where there are few distinct
    values, as with integer scores; else ``bins`` equal bins labelled by their lower edge)."""
    if not values:
        return {"n": 0}
    xs = sorted(float(v) for v in values)
    q = statistics.quantiles(xs, n=4, method="inclusive") if len(xs) > 1 else [xs[0]] * 3
    distinct = sorted(set(xs))
    hist: dict[str, int]
    if len(distinct) <= 25:
        counts = Counter(xs)
        hist = {f"{v:g}": counts[v] for v in distinct}
    else:
        lo, hi = xs[0], xs[-1]
        width = (hi - lo) / bins
        edges = [lo + i * width for i in range(bins)]
        hist = {f"{e:.3g}": 0 for e in edges}
        for x in xs:
            i = min(bins - 1, int((x - lo) / width))
            hist[f"{edges[i]:.3g}"] += 1
    return {"n": len(xs), "mean": statistics.fmean(xs),
            "sd": statistics.stdev(xs) if len(xs) > 1 else 0.0,
            "min": xs[0], "q1": q[0], "median": q[1], "q3": q[2], "max": xs[-1],
            "histogram": hist}


# a rule citation keeps its number ("MBT 9.4.3"); any other number becomes N
_NUMBER_OR_CITATION = re.compile(
    r"(\b(?:Firefight|MBT|Firepower|Scenario) \d+(?:\.\d+)*)|(-?\d+(?:\.\d+)?)")


def deciding_condition(record: GameRecord) -> str:
    """What decided a game: its level of victory and its first reason with the numbers written
    N, so that games decided the same way count together ("victory: only N units reached
    Ebersburen")."""
    if not record.reasons:
        return record.level
    reason = _NUMBER_OR_CITATION.sub(lambda m: m.group(1) or "N", record.reasons[0])
    return f"{record.level}: {reason}"


def summarise(records: Iterable[GameRecord], sides: Sequence[str]) -> dict[str, Any]:
    """Everything the statistics say about some games of one scenario (one variant)."""
    games = list(records)
    n = len(games)
    wins = Counter(r.winner for r in games)
    out: dict[str, Any] = {"games": n, "sides": list(sides)}
    out["wins"] = {s: rate(wins.get(s, 0), n) for s in sides}
    out["draws"] = rate(wins.get(None, 0), n)
    out["levels"] = dict(Counter(r.level for r in games).most_common())
    out["decided_by"] = dict(Counter(deciding_condition(r) for r in games).most_common())
    out["scores"] = _scores(games, sides)
    margins = [r.margin for r in games if r.margin is not None]
    if margins:
        out["margin"] = {"of": f"{sides[0]} - {sides[1]}", **distribution(margins)}
    else:
        out["margin"] = {"note": "no margin: the results do not score both sides"
                         if any(r.scores for r in games) else "no margin: no scores"}
    out["length"] = {"decisions": distribution([r.decisions for r in games]),
                     "turns": distribution([r.turns for r in games])}
    out["casualties"] = _casualties(games, sides)
    out["objectives"] = _objectives(games, sides)
    return out


def _scores(games: Sequence[GameRecord], sides: Sequence[str]) -> dict[str, Any]:
    scored = {s: [r.scores[s] for r in games if s in r.scores] for s in sides}
    if not any(scored.values()):
        return {"note": "this scenario's results report no scores"}
    out: dict[str, Any] = {s: distribution(v) for s, v in scored.items() if v}
    unscored = [s for s, v in scored.items() if not v]
    if unscored:
        out["note"] = f"the results give no score to {', '.join(unscored)}"
    return out


def _casualties(games: Sequence[GameRecord], sides: Sequence[str]) -> dict[str, Any]:
    n = len(games) or 1
    out: dict[str, Any] = {}
    for s in sides:
        totals: Counter[str] = Counter()
        for r in games:
            totals.update(r.casualties.get(s, {}))
        out[s] = {t: {"total": c, "per_game": c / n} for t, c in sorted(totals.items())}
    return out


def _objectives(games: Sequence[GameRecord], sides: Sequence[str]) -> dict[str, Any]:
    with_objectives = [r for r in games if r.objectives is not None]
    if not with_objectives:
        return {"note": "this scenario has no objectives to hold"}
    n = len(with_objectives)
    names = sorted({k for r in with_objectives for k in (r.objectives or {})})
    out: dict[str, Any] = {}
    for name in names:
        held = Counter((r.objectives or {}).get(name) for r in with_objectives)
        row = {s: rate(held.get(s, 0), n) for s in sides}
        if held.get("contested"):
            row["contested"] = rate(held["contested"], n)
        row["nobody"] = rate(held.get(None, 0), n)
        out[name] = row
    if not names:
        out["note"] = "nobody held an objective at the end of any game"
    return out


def summarise_run(records: Iterable[GameRecord], sides: Sequence[str],
                  variants: Sequence[str]) -> dict[str, Mapping[str, Any]]:
    """Each variant's summary, in the order given."""
    by: dict[str, list[GameRecord]] = {v: [] for v in variants}
    for r in records:
        by.setdefault(r.variant, []).append(r)
    return {v: summarise(by[v], sides) for v in variants}
