"""Pictures of a simulation (matplotlib, the optional ``sim`` extra): the win rates with their
95% intervals and the score distribution; for a balance run, the win rate against the value."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from hexwar.core.simulation.runner import SimulationError

FORMATS = (".svg", ".png")


def check_target(path: str) -> None:
    """Refuse, before any game is played, a plot that could not be written."""
    if Path(path).suffix.lower() not in FORMATS:
        raise SimulationError(f"--plot {path}: the picture is written as .svg or .png")
    folder = Path(path).resolve().parent
    if not folder.is_dir():
        raise SimulationError(f"--plot {path}: the folder {folder} does not exist")
    _pyplot()


def _pyplot() -> Any:
    try:
        import matplotlib
    except ImportError:
        raise SimulationError("--plot needs matplotlib, which is not installed: "
                              "pip install 'hexwar[sim]'") from None
    matplotlib.use("Agg")  # files only: no window, no display needed
    import matplotlib.pyplot as plt

    return plt


def _save(fig: Any, path: str) -> None:
    # a fixed date keeps an SVG the same for the same games
    meta = {"Date": None} if path.lower().endswith(".svg") else {}
    try:
        fig.savefig(path, metadata=meta, bbox_inches="tight")
    except OSError as exc:
        raise SimulationError(f"--plot: cannot write {path}: {exc.strerror}") from None


def plot_summary(path: str, title: str, s: Mapping[str, Any],
                 scores: Mapping[str, Sequence[float]]) -> None:
    """Win rate of each side and of a draw, with the interval, beside the histogram of each
    side's scores (``scores``: each side's score in every game that scored it)."""
    plt = _pyplot()
    fig, (left, right) = plt.subplots(1, 2, figsize=(10, 4))
    labels = [*s["sides"], "draw"]
    rows = [*(s["wins"][x] for x in s["sides"]), s["draws"]]
    rates = [r["rate"] for r in rows]
    low = [r["rate"] - r["ci95"][0] for r in rows]
    high = [r["ci95"][1] - r["rate"] for r in rows]
    left.bar(labels, rates, yerr=[low, high], capsize=6, color="#4C72B0")
    left.set_ylim(0, 1)
    left.set_ylabel("share of games (95% Wilson interval)")
    left.set_title(f"Win rate, {s['games']} games")
    series = {side: list(v) for side, v in scores.items() if v}
    if series:
        values = sorted({x for v in series.values() for x in v})
        # one bar a whole number where the scores are whole and few, else 20 equal bins
        whole = all(float(x).is_integer() for x in values)
        bins: Any = ([v - 0.5 for v in range(int(values[0]), int(values[-1]) + 2)]
                     if whole and values[-1] - values[0] <= 40 else 20)
        right.hist(list(series.values()), bins=bins, label=list(series))
        right.yaxis.get_major_locator().set_params(integer=True)
        right.set_xlabel("score (what the system's result reports)")
        right.set_ylabel("games")
        right.legend()
        right.set_title("Score distribution")
    else:
        right.axis("off")
        right.text(0.5, 0.5, "the results report no scores", ha="center", va="center")
    fig.suptitle(title)
    _save(fig, path)
    plt.close(fig)


def plot_balance(path: str, key: str, values: Sequence[str],
                 summaries: Sequence[Mapping[str, Any]]) -> None:
    """Each side's win rate (and draws) against the parameter's values, with intervals."""
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(7, 4))
    sides = summaries[0]["sides"]
    xs = list(range(len(values)))
    for n, who in enumerate([*sides, None]):
        rows = [s["wins"][who] if who is not None else s["draws"] for s in summaries]
        rates = [r["rate"] for r in rows]
        err = [[r["rate"] - r["ci95"][0] for r in rows], [r["ci95"][1] - r["rate"] for r in rows]]
        shift = 0.06 * (n - len(sides) / 2)  # side by side, so that the intervals do not hide
        ax.errorbar([x + shift for x in xs], rates, yerr=err, capsize=5, marker="o",
                    label=who or "draw")
    ax.axhline(0.5, color="grey", linewidth=0.8, linestyle=":")
    ax.set_xticks(xs, list(values))
    ax.set_xlabel(key)
    ax.set_ylim(0, 1)
    ax.set_ylabel("win rate (95% Wilson interval)")
    ax.legend()
    ax.set_title(f"Win rate by {key}, {summaries[0]['games']} games each")
    _save(fig, path)
    plt.close(fig)
