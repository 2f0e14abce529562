"""Write the stand-in Advanced Game charts of MBT (``plugins/mbt/data/advanced/los_chart.csv`` and
``gp_crt.csv``; the GP COMBAT RESULTS TABLE is described at :func:`gp_thresholds`).

The LINE OF SIGHT CHART of the Game Card (MBT 13.2.1.4) is not printed in the rulebook. This
stand-in follows the geometry of a straight line between two heights and agrees with the one
line the text prints (MBT 13.2.1.4.1-13.2.1.4.2: column 5, line 4 is "12-15-15"; column 4 of that
line is "10-12-12"):

* column ``diff`` (the height difference of the two ends, 1-12) has 15 lines; line ``i`` holds
  the ranges ``4i-4`` to ``4i-1`` (line 15 also every longer range), written "low-high-high";
* the cell of column ``k`` (the height of the higher end over the obstacle, 1 to diff-1) is
  "a-b-c": ``c`` = floor(k x high / diff), the farthest the obstacle may lie from the higher end
  without blocking; ``b`` = ceil((k - 1/4) x high / diff) (at most ``c``), from where on the
  target is hull down (MBT 13.2.2.2); ``a`` = k x low / diff rounded half up. Line 1 lists only
  ``c``, so that a target there is never hull down (MBT 13.2.2.2: fewer than three numbers).

Run ``python tools/mbt/build_advanced.py [FOLDER]``; ``tests/plugins/mbt/test_advanced_data.py``
checks that the shipped file is what this writes.
"""

from __future__ import annotations

import math
import sys
from fractions import Fraction
from pathlib import Path

DIFFS = range(1, 13)
LINES = range(1, 16)
COLUMNS = range(1, 12)
DISCLOSED = {(5, 4, None): "MBT 13.2.1.4.1", (5, 4, 4): "MBT 13.2.1.4.2"}


def _half_up(x: Fraction) -> int:
    return math.floor(x + Fraction(1, 2))


def cell(diff: int, line: int, k: int) -> str:
    low, high = 4 * line - 4, 4 * line - 1
    c = math.floor(Fraction(k * high, diff))
    if line == 1:
        return str(c)
    b = min(c, math.ceil((k - Fraction(1, 4)) * high / diff))
    a = min(b, _half_up(Fraction(k * low, diff)))
    return f"{a}-{b}-{c}"


def los_chart() -> str:
    head = ",".join(["diff:band", "line:band", "ranges:str"]
                    + [f"k{k}:str?" for k in COLUMNS] + ["source", "note"])
    out = ["# title: LINE OF SIGHT CHART (MBT 13.2.1.4), stand-in: see tools/mbt/build_advanced.py",
           head]
    for d in DIFFS:
        for i in LINES:
            low, high = 4 * i - 4, 4 * i - 1
            cells = [cell(d, i, k) if k < d else "" for k in COLUMNS]
            src = "estimated"
            note = "line 15 also holds every longer range" if i == LINES[-1] else ""
            if (d, i, None) in DISCLOSED:
                src = DISCLOSED[(d, i, None)]
                note = "ranges 12-15-15 and column 4 10-12-12 as printed (MBT 13.2.1.4.2)"
            out.append(",".join([str(d), str(i), f"{low}-{high}-{high}", *cells, src, note]))
    return "\n".join(out) + "\n"


def write(folder: Path) -> list[Path]:
    folder.mkdir(parents=True, exist_ok=True)
    out = []
    for name, text in (("los_chart.csv", los_chart()), ("gp_crt.csv", gp_crt()),
                       ("leg_defense.csv", leg_defense())):
        p = folder / name
        p.write_text(text, encoding="utf-8")
        out.append(p)
    return out



# -- the GP COMBAT RESULTS TABLE (MBT 14.4.4.1), stand-in ------------------------------------------

GP_FACTORS = range(1, 61)
GP_DEFENSES = range(1, 13)


def gp_thresholds(gp: int, defense: int) -> tuple[int, int]:
    """(N, S): a modified roll up to N has no effect, up to S suppresses, above S is effective.
    The stand-in weighs 3 GP factors against each point of defense; it keeps the text's example
    (MBT 14.4.4.1: 23 against 5, a modified 72 suppresses: N 49, S 74)."""
    d = gp - 3 * defense
    n = max(5, min(150, 65 - 2 * d))
    return n, n + 25


def gp_crt() -> str:
    out = ["# title: GP COMBAT RESULTS TABLE (MBT 14.4.4.1), stand-in: see tools/mbt/build_advanced.py",
           "gp:band,defense:band,n:int,s:int,source,note"]
    for g in GP_FACTORS:
        for d in GP_DEFENSES:
            n, s = gp_thresholds(g, d)
            note = "holds MBT 14.4.4.1: a modified 72 suppresses" if (g, d) == (23, 5) else ""
            top = f"{g}+" if g == GP_FACTORS[-1] else str(g)
            out.append(f"{top},{d}{'+' if d == GP_DEFENSES[-1] else ''},{n},{s},estimated,{note}")
    return "\n".join(out) + "\n"


# -- leg unit GP defense by terrain and status (MBT 14.4.3.2), stand-in ----------------------------

LEG_CARDS = ("Motor Rifle Squad", "Rifle Squad", "Squad Standard Infantry [PZF-44]",
             "Squad Light Panzergrenadier Infantry [PZF-44 & Milan]",
             "Squad Heavy Motorized Rifle Infantry [RPG-7 V/D]",
             "Squad Heavy Motorized Rifle Infantry [RPG-7 V/D & SA-7B]", "Rifle Team", "AT Gun")
LEG_TERRAIN = {"clear": 2, "stream": 2, "scrub": 3, "rough": 4, "woods": 5, "brick": 6, "stone": 7,
               "improved_position": 7, "pond": 1,
               # MBT 14.4.3.2.3: a ditch's two numbers, fire from higher up and fire from level
               # or below (MBTD-171)
               "ditch_above": 3, "ditch_level": 7}
LEG_STATUS = {"FC": 2, "NM": 0, "MV": -1}  # full cover, not moving, moving (MBT 14.4.3.2.1)


def leg_defense() -> str:
    """The rough hex of a leg unit with F orders (NM) is 4 on USA-7B, FRG-4B and USSR-11B
    (MBT 14.4.3.2.1); the rest is a stand-in: cover by terrain, +2 in full cover, -1 moving."""
    out = ["# title: leg unit GP defense by terrain and status (MBT 14.4.3.2), stand-in: see "
           "tools/mbt/build_advanced.py", "card:label,terrain:label,status:label,value:int,source"]
    for card in LEG_CARDS:
        for terrain, base in LEG_TERRAIN.items():
            for status, plus in LEG_STATUS.items():
                src = "MBT 14.4.3.2.1" if (terrain, status) == ("rough", "NM") else "estimated"
                out.append(f"{card},{terrain},{status},{max(1, base + plus)},{src}")
    return "\n".join(out) + "\n"


if __name__ == "__main__":
    here = Path(__file__).resolve().parents[2] / "plugins" / "mbt" / "data" / "advanced"
    for f in write(Path(sys.argv[1]) if len(sys.argv) > 1 else here):
        print(f)
