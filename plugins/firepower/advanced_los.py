"""The Advanced Game's line of sight by heights (Firepower 8.2.2, Firepower 10.5.2, Firepower 12.1):
pure functions, not yet used by the fire procedure (which keeps the Basic line of sight,
docs/firepower-advanced.md).

* :func:`terrain_height`: a hill's height is its contour levels times the heights per level the
  scenario gives (Firepower 8.2.2); a depression is negative;
* :func:`unit_height`: the ground plus the posture's head height (Firepower 10.5.2);
* :func:`classify`: one obstacle between firer and target (Firepower 12.1.1-12.1.3): blocked, clear,
  or ``check``, for which Firepower 12.1.4 reads the LINE OF SIGHT CHART (not in the text, not
  built);
* :func:`chart_columns`: the chart's two column numbers a ``check`` reads (Firepower 12.1.4.1,
  Firepower 12.1.4.2).

Buildings, floors and the well (Firepower 12.1.5, 12.1.6) will give obstacle heights of the same
kind; vehicles (Option 19) give unit heights of their own.
"""

from __future__ import annotations

from typing import Literal

from hexwar.plugins.firepower.squads import head_height

Verdict = Literal["blocked", "clear", "check"]


def terrain_height(levels: int, heights_per_level: int) -> int:
    """Firepower 8.2.2: each contour level adds the hill's heights (hill B of two levels of
    three heights is six high); a depression's levels are negative."""
    return levels * heights_per_level


def unit_height(ground: int, posture: str, up: int | None = None) -> int:
    """Firepower 10.5.2, Firepower 12.1.4.4: the height of a soldier's head, ground included."""
    return ground + head_height(posture, up)


def classify(firer: int, target: int, obstacle: int) -> Verdict:
    """Firepower 12.1.1-12.1.3: an obstacle higher than both blocks; equal to one and higher
    than the other blocks; lower than both or equal to both does not; higher than one but lower
    than the other needs the LINE OF SIGHT CHART (Firepower 12.1.4)."""
    lo, hi = sorted((firer, target))
    if obstacle > hi:
        return "blocked"  # Firepower 12.1.1
    if obstacle == hi and obstacle > lo:
        return "blocked"  # Firepower 12.1.2
    if obstacle <= lo:
        # Firepower 12.1.3; equal to the lower end only is read as clear too (docs/decisions.md
        # FPD-46)
        return "clear"
    return "check"        # Firepower 12.1.4


def chart_columns(firer: int, target: int, obstacle: int) -> tuple[int, int]:
    """Firepower 12.1.4.1, 12.1.4.2: the column of the ends' height difference (to find the line
    by range) and the column of the obstacle's difference from the higher end."""
    hi = max(firer, target)
    return abs(firer - target), hi - obstacle
