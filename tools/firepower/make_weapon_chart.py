"""Write the stand-in WEAPON CHART (Firepower 10.7) of the Advanced Game: one row per weapon in
plugins/firepower/data/advanced/weapons.toml and its hit numbers by range in
plugins/firepower/data/advanced_card/weapon_hits.csv.

The Weapon Cards are not in the rules text. Every number here is ``estimated`` except those the
text discloses, which are cited (``DISCLOSED`` below; ``hexwar data check firepower`` checks
them; docs/decisions.md FPD-51). Run: ``python tools/firepower/make_weapon_chart.py``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2] / "plugins" / "firepower" / "data"
BANDS = ("1-2", "3-5", "6-8", "9-12", "13-20", "21-30", "31-40", "41-60", "61-80", "81-100")

#: (row, field) -> rule for every value the text discloses
DISCLOSED: dict[tuple[str, str], str] = {
    ("RFL10", "class"): "Firepower 26.2", ("RFL14", "class"): "Firepower 14.1.1",
    ("LMG4", "class"): "Firepower 26.2", ("LMG12", "class"): "Firepower 10.7",
    ("LMG12", "move"): "Firepower 10.7", ("LMG12", "notes"): "Firepower 10.7",
    ("LMG4", "notes"): "Firepower 10.7",
    ("GMG2", "class"): "Firepower 10.7", ("GMG2", "as_L.notes"): "Firepower 10.7",
    ("GMG2", "as_M.notes"): "Firepower 10.7",
    ("GLR2", "class"): "Firepower 26.2", ("GLR3", "class"): "Firepower 12.4.1.1",
    ("GLR1", "load"): "Firepower 11.1.12",
    ("LCW1", "move"): "Firepower 10.7", ("LCW1", "class"): "Firepower 10.7",
    ("MRT6", "min_range"): "Firepower 12.4.2", ("MRT6", "class"): "Firepower 12.4.2",
    ("MRT4", "by_hand"): "Firepower 12.4.2", ("MRT4", "class"): "Firepower 12.4.2",
    ("MPL19", "blast.H"): "Firepower 12.3.5.2", ("MPL19", "class"): "Firepower 12.3.5.2",
    ("MPL4", "no_status"): "Firepower 12.4.3", ("MPL8", "no_status"): "Firepower 12.4.3",
    ("MPL13", "load"): "Firepower 11.1.12",
    ("FTR1", "uses"): "Firepower 12.3.3", ("FTR1", "class"): "Firepower 12.3.3",
    ("HGN5", "uses"): "Firepower 12.3.3", ("HGN5", "types"): "Firepower 12.3.3",
    ("HGN1", "modes"): "Firepower 12.4.1.3", ("HGN2", "modes"): "Firepower 12.4.1.3",
    ("HGN4", "types"): "Firepower 10.7",
    ("RGN1", "min_range"): "Firepower 12.4.1.1", ("RGN2", "min_range"): "Firepower 12.4.1.1",
    ("HRG1", "min_range"): "Firepower 12.4.1.2",
    ("PMN1", "types"): "Firepower 12.4.4.1.1", ("PMN1", "blast.G"): "Firepower 12.4.4.1.1",
    ("PMN1", "penetration.G"): "Firepower 12.4.4.1.1",
    ("PMN2", "types"): "Firepower 12.4.4.1.2", ("PMN2", "blast.C"): "Firepower 12.4.4.1.2",
    ("PMN2", "penetration.C"): "Firepower 12.4.4.1.2",
    ("VMN1", "types"): "Firepower 12.4.4.2", ("VMN1", "penetration.A"): "Firepower 12.4.4.2",
    ("VMN2", "types"): "Firepower 12.4.4.2", ("VMN2", "penetration.A"): "Firepower 12.4.4.2",
}


def w(cls: str, name: str, types: list[str], *, rof: dict[str, str], hits: dict[str, list[Any]],
      blast: dict[str, int] | None = None, pen: dict[str, int] | None = None, move: int = 0,
      posture: tuple[str, str, str] = ("X", "X", "X"), crew: int = 1, impact: str = "5",
      notes: str = "", **extra: Any) -> dict[str, Any]:
    return {"class": cls, "name": name, "types": types, "rof": rof, "hits": hits,
            "blast": blast or {}, "penetration": pen or {}, "move": move,
            "posture": list(posture), "crew": crew, "impact": impact, "notes": notes, **extra}


def use(rof: str, hits: list[Any], *, move: int, posture: tuple[str, str, str], crew: int,
        notes: str) -> dict[str, Any]:
    """One use of a GMG (Firepower 10.7 item 5): as a light (``as_L``) or medium (``as_M``)
    machinegun, with its rate of fire, hit line and the columns its mount changes."""
    return {"rof": rof, "hits": hits, "move": move, "posture": list(posture), "crew": crew,
            "notes": notes}


def gmg(name: str, types: list[str], *, pen: dict[str, int], fires_as: str, as_L: dict[str, Any],
        as_M: dict[str, Any], impact: str = "5") -> dict[str, Any]:
    """A general purpose machinegun row (Firepower 10.7 item 2, class GMG)."""
    return {"class": "GMG", "name": name, "types": types, "penetration": pen, "impact": impact,
            "fires_as": fires_as, "as_L": as_L, "as_M": as_M}


#: Firepower 10.7 item 2: the listing of a GMG used as L (bipod) and as M (tripod)
GMG_AS = {"as_L": "LMG", "as_M": "MMG"}

_ = None
RIFLE = [5, 4, 4, 4, 3, 2, 1, _, _, _]
RIFLE_SEMI = [6, 5, 5, 5, 4, 4, 3, 2, 1, _]
LMG = [5, 4, 4, 4, 3, 3, 2, 2, 1, _]
MMG = [6, 5, 5, 4, 4, 3, 3, 2, 2, 1]
PISTOL = [6, 4, 1, _, _, _, _, _, _, _]
SMG = [6, 5, 4, 3, 1, _, _, _, _, _]
HAND = [8, 5, 2, _, _, _, _, _, _, _]  # the Basic grenade line (Firepower 6.3.2.1.1)
HAND_DEF = [8, 5, _, _, _, _, _, _, _, _]
GLR = [_, 5, 5, 4, 4, 3, 2, _, _, _]
MORTAR = [_, _, _, _, _, 5, 5, 4, 4, 3]
MORTAR_HAND = [_, 5, 5, 4, 4, 3, _, _, _, _]
LAUNCHER = [6, 6, 5, 5, 4, 3, 2, 1, _, _]
RIFLE_GREN = [_, 5, 5, 4, 3, 2, _, _, _, _]
FLAME = [7, 5, _, _, _, _, _, _, _, _]
SHOT = [7, 5, 2, _, _, _, _, _, _, _]

WEAPONS: dict[str, dict[str, Any]] = {
    "RFL10": w("RFL", "rifle (M16)", ["L"], rof={"L": "2x3/2"},
               hits={"L.auto": RIFLE, "L.semi": RIFLE_SEMI}, pen={"L": 1}, notes="Y",
               fires_as="RFL"),
    "RFL14": w("RFL", "rifle (M14)", ["L"], rof={"L": "2x3/2"},
               hits={"L.auto": RIFLE, "L.semi": RIFLE_SEMI}, pen={"L": 2}, notes="BGSY",
               fires_as="RFL"),
    "PST1": w("PST", "pistol", ["L"], rof={"L": "2"}, hits={"L.semi": PISTOL}, pen={"L": 1},
              posture=("X", "X", "+1"), fires_as="PST"),
    "SMG1": w("SMG", "submachinegun", ["L"], rof={"L": "3x3/2"},
              hits={"L.auto": SMG, "L.semi": SMG}, pen={"L": 1}, posture=("X", "X", "+1"),
              fires_as="RFL"),
    "SHG1": w("SHG", "shotgun", ["L"], rof={"L": "2"}, hits={"L.semi": SHOT}, pen={"L": 1},
              fires_as="RFL"),
    "LMG4": w("LMG", "light machinegun (bipod)", ["L"], rof={"L": "3x4"}, hits={"L.auto": LMG},
              pen={"L": 2}, move=-1, posture=("+1", "X", "X"), notes="B", fires_as="LMG"),
    "LMG12": w("LMG", "light machinegun (bipod)", ["L"], rof={"L": "3x4"}, hits={"L.auto": LMG},
               pen={"L": 2}, move=-1, posture=("+1", "X", "X"), notes="B", fires_as="LMG"),
    # Firepower 10.7 items 2, 5: a GMG has one row and two uses; a scenario lists it as LMG2
    # (bipod) or MMG2 (tripod), each with its own rate of fire (docs/decisions.md FPD-172)
    "GMG2": gmg("general purpose machinegun", ["L"], pen={"L": 2}, fires_as="LMG",
                as_L=use("3x4", LMG, move=-1, posture=("+1", "X", "X"), crew=1, notes="B"),
                as_M=use("4x4", MMG, move=-2, posture=("-", "X", "X"), crew=2, notes="T")),
    "GLR1": w("GLR", "automatic grenade launcher (tripod)", ["G"], rof={"G": "2x3"},
              hits={"G.auto": GLR}, blast={"G": 4}, pen={"G": 1}, move=-2,
              posture=("-", "X", "X"), crew=2, load=[30, 1], fires_as="LMG"),
    "GLR2": w("GLR", "grenade launcher", ["G", "M", "U"], rof={"G": "1", "M": "1", "U": "1"},
              hits={"G.semi": GLR, "M.semi": GLR, "U.semi": GLR}, blast={"G": 4},
              pen={"G": 1}, posture=("X", "X", "-"), fires_as="RFL"),
    "GLR3": w("GLR", "grenade launcher fitted to a rifle", ["G", "M"],
              rof={"G": "1", "M": "1"}, hits={"G.semi": GLR, "M.semi": GLR}, blast={"G": 4},
              pen={"G": 1}, posture=("X", "X", "-"), fires_as="RFL"),
    "MRT4": w("MRT", "light mortar (IMI-52), may be fired by hand", ["G", "M", "U"],
              rof={"G": "1", "M": "1", "U": "1"},
              hits={"G.semi": MORTAR_HAND, "M.semi": MORTAR_HAND, "U.semi": MORTAR_HAND},
              blast={"G": 6}, pen={"G": 1}, move=-1, posture=("-", "X", "X"), crew=1,
              min_range=3, by_hand=True, high_trajectory=True, fires_as="RFL"),
    "MRT6": w("MRT", "medium mortar", ["G", "M", "U", "W"],
              rof={"G": "1", "M": "1", "U": "1", "W": "1"},
              hits={"G.semi": MORTAR, "M.semi": MORTAR, "U.semi": MORTAR, "W.semi": MORTAR},
              blast={"G": 8, "W": 7}, pen={"G": 2, "W": 1}, move=-2, posture=("-", "X", "-"),
              crew=2, min_range=21, by_hand=False, high_trajectory=True, fires_as="RFL"),
    "MPL19": w("MPL", "rocket launcher (RPG-2)", ["H"], rof={"H": "1+L"},
               hits={"H.semi": LAUNCHER}, blast={"H": 5}, pen={"H": 6},
               posture=("X", "X", "+1"), crew=2, backblast=True, fires_as="RFL"),
    "MPL7": w("MPL", "recoilless rifle (M20)", ["H", "G"], rof={"H": "1+L", "G": "1+L"},
              hits={"H.semi": LAUNCHER, "G.semi": LAUNCHER}, blast={"H": 6, "G": 7},
              pen={"H": 7, "G": 2}, move=-1, posture=("+1", "X", "+1"), crew=2,
              backblast=True, fires_as="RFL"),
    "MPL4": w("MPL", "guided missile launcher (Milan)", ["H"], rof={"H": "1+L"},
              hits={"H.semi": [_, _, 4, 3, 2, 2, 2, 1, 1, 1]}, blast={"H": 6}, pen={"H": 12},
              move=-2, posture=("-", "X", "X"), crew=2, no_status=True, backblast=True,
              fires_as="RFL"),
    "MPL8": w("MPL", "guided missile launcher (Dragon)", ["H"], rof={"H": "1+L"},
              hits={"H.semi": [_, _, 4, 3, 2, 2, 2, 1, 1, _]}, blast={"H": 6}, pen={"H": 10},
              move=-2, posture=("-", "X", "X"), crew=1, no_status=True, backblast=True,
              fires_as="RFL"),
    "MPL13": w("MPL", "multi-shot rocket launcher", ["H", "G"], rof={"H": "1", "G": "1"},
               hits={"H.semi": LAUNCHER, "G.semi": LAUNCHER}, blast={"H": 5, "G": 6},
               pen={"H": 6, "G": 1}, move=-1, crew=1, load=[4, 2], backblast=True,
               fires_as="RFL"),
    "LPL3": w("LPL", "light portable launcher (disposable)", ["H"], rof={"H": "1"},
              hits={"H.semi": [*LAUNCHER[:8], _, _]}, blast={"H": 4}, pen={"H": 7},
              posture=("X", "X", "+1"), uses=1, backblast=True, fires_as="RFL"),
    "LCW1": w("LCW", "recoilless gun (SPG-9)", ["H", "G", "C"],
              rof={"H": "1+L", "G": "1+L", "C": "1+L"},
              hits={"H.semi": LAUNCHER, "G.semi": LAUNCHER}, blast={"H": 6, "G": 8, "C": 8},
              pen={"H": 10, "G": 2, "C": 1}, move=-2, posture=("-", "X", "X"), crew=3,
              backblast=True, fires_as="RFL"),
    "MSL1": w("MSL", "guided anti-tank missile (control box)", ["H"], rof={"H": "1"},
              hits={"H.semi": [_, _, _, _, 3, 2, 2, 1, 1, 1]}, blast={"H": 6}, pen={"H": 14},
              crew=1, uses=1, separation=3, fires_as="RFL"),
    "FTR1": w("FTR", "flamethrower", ["F"], rof={"F": "1"}, hits={"F.semi": FLAME},
              blast={"F": 7}, pen={"F": 2}, move=-1, posture=("X", "X", "-"), uses=6,
              fires_as="RFL"),
    "DMC1": w("DMC", "demolition charge", ["G"], rof={"G": "1"}, hits={}, blast={"G": 9},
              pen={"G": 10}, uses=1, fires_as="RFL"),
    "HGN1": w("HGN", "hand grenade, offensive/defensive (Fuse)", ["G"], rof={"G": "1"},
              hits={"G.offensive": HAND, "G.defensive": HAND_DEF},
              blast={"G": 4, "defensive": 6}, pen={"G": 1}, modes=["offensive", "defensive"],
              range_line=5, uses=1, fires_as="RFL"),
    "HGN2": w("HGN", "hand grenade, offensive/defensive (Impact)", ["G"], rof={"G": "1"},
              hits={"G.offensive": HAND, "G.defensive": HAND_DEF},
              blast={"G": 4, "defensive": 6}, pen={"G": 1}, modes=["offensive", "defensive"],
              range_line=5, uses=1, fires_as="RFL"),
    "HGN3": w("HGN", "fragmentation hand grenade (Fuse)", ["G"], rof={"G": "1"},
              hits={"G.throw": HAND}, blast={"G": 5}, pen={"G": 1}, range_line=5, uses=1,
              fires_as="RFL"),
    "HGN4": w("HGN", "hand grenade, high-explosive or smoke (Fuse)", ["G", "M"],
              rof={"G": "1", "M": "1"}, hits={"G.throw": HAND, "M.throw": HAND},
              blast={"G": 5}, pen={"G": 1}, range_line=5, uses=1, fires_as="RFL"),
    "HGN5": w("HGN", "Molotov cocktail", ["F"], rof={"F": "1"}, hits={"F.throw": HAND_DEF},
              blast={"F": 5}, pen={"F": 1}, range_line=5, uses=1, fires_as="RFL"),
    "HGN6": w("HGN", "white phosphorus hand grenade (Fuse)", ["W"], rof={"W": "1"},
              hits={"W.throw": HAND}, blast={"W": 5}, pen={"W": 1}, range_line=5, uses=1,
              fires_as="RFL"),
    "HRG1": w("HRG", "hand/rifle grenade", ["G"], rof={"G": "1"},
              hits={"G.throw": HAND, "G.rifle": RIFLE_GREN}, blast={"G": 5}, pen={"G": 1},
              range_line=5, min_range=3, uses=1, separate_load=True, fires_as="RFL"),
    "RGN1": w("RGN", "rifle grenade", ["G", "H"], rof={"G": "1", "H": "1"},
              hits={"G.semi": RIFLE_GREN, "H.semi": RIFLE_GREN}, blast={"G": 5, "H": 4},
              pen={"G": 1, "H": 4}, posture=("X", "X", "-"), min_range=3, uses=1,
              separate_load=True, fires_as="RFL"),
    # Firepower 12.4.1.1: "some rifle grenades do not require separate loading" (a stand-in)
    "RGN2": w("RGN", "rifle grenade fired without separate loading (bullet trap)", ["G"],
              rof={"G": "1"}, hits={"G.semi": RIFLE_GREN}, blast={"G": 4}, pen={"G": 1},
              posture=("X", "X", "-"), min_range=3, uses=1, fires_as="RFL"),
    "PMN1": w("PMN", "anti-personnel mine", ["G"], rof={}, hits={}, blast={"G": 7},
              pen={"G": 1}, uses=1, fires_as="RFL"),
    "PMN2": w("PMN", "directional anti-personnel mine", ["C"], rof={}, hits={},
              blast={"C": 8}, pen={"C": 1}, uses=1, fires_as="RFL"),
    "VMN1": w("VMN", "anti-tank mine", ["A"], rof={}, hits={}, pen={"A": 3}, uses=1,
              fires_as="RFL"),
    "VMN2": w("VMN", "heavy anti-tank mine", ["A"], rof={}, hits={}, pen={"A": 6}, uses=1,
              fires_as="RFL"),
}


def _toml(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (int, str)):
        return json.dumps(v)
    if isinstance(v, list):
        return "[" + ", ".join(_toml(x) for x in v) + "]"
    raise TypeError(v)


def _cell(row: str, key: str, v: Any) -> str:
    rule = DISCLOSED.get((row, key))
    return f"{{ value = {_toml(v)}, source = {json.dumps(rule)} }}" if rule else _toml(v)


def main() -> None:
    out = ["# Advanced Game WEAPON CHART rows (Firepower 10.7), a STAND-IN written by",
           "# tools/firepower/make_weapon_chart.py. The Weapon Cards are not in the text: every value is",
           "# `estimated` unless its source cites the rule that discloses it (docs/decisions.md FPD-43,",
           "# FPD-51). Columns (Firepower 10.7): class (2), name (3), types (4: ammunition letters),",
           "# rof (5, per letter), hit numbers (6: data/advanced_card/weapon_hits.csv), blast (7, per",
           "# letter; `defensive` for a defensive grenade), penetration (8), move (9), posture",
           "# Stand/Crouch/Prone (10), crew (11), impact (12), notes (15: B bipod, T tripod, Y bayonet).",
           "# Extra columns from the rules: min_range (12.4.1.1, 12.4.2), range_line (6.3.2.1.1), uses",
           "# (12.3.3), load [rounds, Impulse Phases] (11.1.12), by_hand / high_trajectory (12.4.2),",
           "# no_status (12.4.3), backblast (12.4.3), modes (12.4.1.3), separate_load (12.4.1.1: a",
           "# rifle grenade loaded on the rifle before it is fired; FPD-91). `fires_as` is the Basic",
           "# weapon profile a Basic procedure would use (FPD-43). Notes G: a rifle grenade launcher.",
           "# separation (12.4.6): how far a missile's control box may be from the missile unit.",
           "# A GMG row (10.7 items 2, 5) has as_L / as_M: its rate of fire and mount columns when a",
           "# scenario lists it as LMGn (bipod) or MMGn (tripod); never as GMGn (FPD-172).",
           'source = "estimated"', ""]
    for wid, row in WEAPONS.items():
        out.append(f"[{wid}]")
        for key, v in row.items():
            if key in ("hits",):
                continue
            if key in GMG_AS:
                parts = ", ".join(f"{k} = {_cell(wid, f'{key}.{k}', x)}"
                                  for k, x in v.items() if k != "hits")
                out.append(f"{key} = {{ {parts} }}")
                continue
            if key == "fires_as":
                out.append(f"fires_as = {json.dumps(v)}")
            elif key in ("rof", "blast", "penetration"):
                if v:
                    parts = ", ".join(f"{json.dumps(k)} = {_cell(wid, f'{key}.{k}', x)}"
                                      for k, x in v.items())
                    out.append(f"{key} = {{ {parts} }}")
            else:
                out.append(f"{key} = {_cell(wid, key, v)}")
        out.append("")
    (ROOT / "advanced" / "weapons.toml").write_text("\n".join(out), encoding="utf-8")
    rows = ["# title: WEAPON CHART hit numbers by range (Firepower 10.7 item 6; Weapon Cards, missing from",
            "# the text). A STAND-IN written by tools/firepower/make_weapon_chart.py (docs/decisions.md",
            "# FPD-51). mode: auto / semi / throw / offensive / defensive / rifle. A range with no row is",
            "# out of range or inside the minimum range (the chart's \"-\").",
            "weapon:label,ammo:label,mode:label,range:band,value:int,source"]
    hit_rows: list[tuple[str, str, list[Any]]] = []
    for wid, row in WEAPONS.items():
        if row["class"] == "GMG":  # hit lines by the listing (LMG2, MMG2), not the GMG row
            for key, listed in GMG_AS.items():
                hit_rows += [(listed + wid[3:], f"{t}.auto", row[key]["hits"])
                             for t in row["types"]]
        else:
            hit_rows += [(wid, key, line) for key, line in row["hits"].items()]
    for wid, key, line in hit_rows:
        ammo, mode = key.split(".")
        for band, hit in zip(BANDS, line, strict=True):
            if hit is not None:
                rows.append(f"{wid},{ammo},{mode},{band},{hit},estimated")
    (ROOT / "advanced_card" / "weapon_hits.csv").write_text("\n".join(rows) + "\n",
                                                            encoding="utf-8")


if __name__ == "__main__":
    main()
