"""Write the stand-in LINE OF SIGHT CHART (Firepower 12.1.4) of the Advanced Game Card.

The chart is not in the rules text; its worked examples (Firepower 12.1.4.1, 12.1.4.2,
12.1.4.4) disclose four cells. This stand-in gives each line L a slope ratio k(L) (hexes of range
per height of difference), decreasing down the chart: the cell of line L and column d holds the
ranges from floor(d * k(L+1)) + 1 to floor(d * k(L)), capped at 100 (docs/decisions.md FPD-50).
The ratios are chosen so that the four disclosed cells come out exactly:

* line 4, column 2 = 20-24 (Firepower 12.1.4.1) and line 4, column 1 ends at 12 (Firepower 12.1.4.2);
* line 13, column 7 = 10-12 and line 13, column 5 = 8-9 (Firepower 12.1.4.4);
* and the example's last sentence (Firepower 12.1.4.4, FP-49): with the firer Prone the obstacles
  at 8 and 9 hexes block and the one at 7 does not, so column 5 at range 11 leads to a line whose
  column 3 ends at 7 (line 12 here).

Run: ``python tools/firepower/make_los_chart.py`` (rewrites
plugins/firepower/data/advanced_card/los_chart.csv).
"""

from __future__ import annotations

import math
from pathlib import Path

#: slope ratio of each line (line 1 first); see the module docstring
RATIOS = (100.0, 40.0, 20.0, 12.0, 9.6, 8.0, 6.5, 5.2, 4.2, 3.4, 2.8, 2.4, 1.8, 1.4, 1.0, 0.6)
COLUMNS = 30
MAX_RANGE = 100
#: (line, column) -> the rule that discloses the cell, and which ends it discloses
DISCLOSED = {(4, 2): ("Firepower 12.1.4.1", "lo hi"), (4, 1): ("Firepower 12.1.4.2", "hi"),
             (13, 7): ("Firepower 12.1.4.4", "lo hi"), (13, 5): ("Firepower 12.1.4.4", "lo hi")}
OUT = Path(__file__).resolve().parents[2] / "plugins" / "firepower" / "data" / "advanced_card" \
    / "los_chart.csv"


def cell(line: int, column: int) -> tuple[int, int]:
    k = RATIOS[line - 1]
    k_next = RATIOS[line] if line < len(RATIOS) else 0.0
    hi = min(MAX_RANGE, math.floor(column * k))
    lo = min(hi, math.floor(column * k_next) + 1)
    return max(lo, 1), max(hi, 1)


def main() -> None:
    rows = ["# title: LINE OF SIGHT CHART (Firepower 12.1.4; Advanced Game Card, missing from the text)",
            "# A STAND-IN made by tools/firepower/make_los_chart.py (docs/decisions.md FPD-50): cell",
            "# (line, height_difference) holds the ranges lo-hi. Four cells are the text's worked",
            "# examples (cited); every other number is estimated. A cell whose ranges are all taken by",
            "# the line above holds its highest number only (lo = hi).",
            "line:band,height_difference:band,lo:int,hi:int,source,source.lo"]
    for line in range(1, len(RATIOS) + 1):
        for column in range(1, COLUMNS + 1):
            lo, hi = cell(line, column)
            rule, ends = DISCLOSED.get((line, column), ("estimated", ""))
            src_lo = "" if "lo" in ends or rule == "estimated" else "estimated"
            rows.append(f"{line},{column},{lo},{hi},{rule},{src_lo}")
    OUT.write_text("\n".join(rows) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
