"""The statistics as a person reads them at the terminal (rich tables), and the progress bar's
games-a-second column."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rich.console import Console, Group, RenderableType
from rich.markup import escape
from rich.progress import ProgressColumn, Task
from rich.table import Table
from rich.text import Text


class GamesPerSecond(ProgressColumn):
    """Games a second over the last half minute (rich's own speed estimate)."""

    def render(self, task: Task) -> Text:
        speed = task.finished_speed or task.speed
        return Text("-- games/s" if speed is None else f"{speed:.2f} games/s", style="cyan")


def _pct(r: Mapping[str, Any]) -> str:
    lo, hi = r["ci95"]
    return f"{r['rate']:.1%} [{lo:.1%}, {hi:.1%}]"


def _dist(d: Mapping[str, Any]) -> str:
    if not d.get("n"):
        return "-"
    return (f"mean {d['mean']:.2f} (sd {d['sd']:.2f}); median {d['median']:g}, "
            f"range {d['min']:g} to {d['max']:g}")


def summary_view(title: str, s: Mapping[str, Any]) -> RenderableType:
    """One variant's summary as tables."""
    parts: list[RenderableType] = [Text(title, style="bold")]
    sides: Sequence[str] = s["sides"]
    wins = Table("outcome", "games", "rate [95% Wilson interval]", title="Who won")
    for side in sides:
        w = s["wins"][side]
        wins.add_row(f"{escape(side)} wins", str(w["games"]), _pct(w))
    wins.add_row("draw / tie", str(s["draws"]["games"]), _pct(s["draws"]))
    parts.append(wins)

    decided = Table("decided by", "games", title="How the games were decided")
    for what, count in s["decided_by"].items():
        decided.add_row(escape(what), str(count))
    parts.append(decided)

    scores = Table("", "distribution", "histogram (value: games)", title="Scores and margin")
    sc = s["scores"]
    for side in sides:
        if side in sc:
            hist = ", ".join(f"{k}: {v}" for k, v in sc[side]["histogram"].items())
            scores.add_row(f"{escape(side)} score", _dist(sc[side]), escape(hist))
    m = s["margin"]
    if "note" in m:
        scores.add_row("margin", escape(m["note"]), "")
    else:
        hist = ", ".join(f"{k}: {v}" for k, v in m["histogram"].items())
        scores.add_row(f"margin ({escape(m['of'])})", _dist(m), escape(hist))
    if "note" in sc:
        scores.add_row("", escape(sc["note"]), "")
    parts.append(scores)

    length = Table("", "distribution", title="Game length")
    length.add_row("decisions", _dist(s["length"]["decisions"]))
    length.add_row("game-turns", _dist(s["length"]["turns"]))
    parts.append(length)

    cas = Table("side", "unit type", "lost in all", "per game", title="Casualties")
    for side in sides:
        rows = s["casualties"].get(side, {})
        if not rows:
            cas.add_row(escape(side), "(none)", "0", "0")
        for utype, r in rows.items():
            cas.add_row(escape(side), escape(utype), str(r["total"]), f"{r['per_game']:.2f}")
    parts.append(cas)

    obj = s["objectives"]
    if "note" in obj and len(obj) == 1:
        parts.append(Text(f"Objectives: {obj['note']}", style="dim"))
    else:
        holders = [*sides, "contested", "nobody"]
        table = Table("objective", *holders, title="Objectives held at the end")
        for name, row in obj.items():
            if name == "note":
                continue
            table.add_row(escape(name), *(_pct(row[h]) if h in row else "-" for h in holders))
        parts.append(table)
    return Group(*parts)


def balance_view(key: str, summaries: Mapping[str, Mapping[str, Any]],
                 values: Sequence[str]) -> RenderableType:
    """How the win rates move with the parameter's value."""
    first = next(iter(summaries.values()))
    sides: Sequence[str] = first["sides"]
    table = Table(escape(key), "games", *(f"{escape(s)} wins" for s in sides), "draws",
                  "mean margin", title=f"Win rate by {escape(key)} (95% Wilson intervals)")
    for value, label in zip(values, summaries, strict=True):
        s = summaries[label]
        margin = s["margin"]
        table.add_row(escape(value), str(s["games"]), *(_pct(s["wins"][x]) for x in sides),
                      _pct(s["draws"]), "-" if "note" in margin else f"{margin['mean']:+.2f}")
    return table


def print_summary(console: Console, title: str, s: Mapping[str, Any]) -> None:
    console.print(summary_view(title, s))
