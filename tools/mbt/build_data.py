"""Write the MBT plugin's stand-in data files: Game Card charts, data cards, panels, scenarios.

Run ``python tools/mbt/build_data.py`` after changing a stand-in value (or ``... OUTDIR`` to write
the tree ``data/tables``, ``data/cards``, ``data/panels`` and ``scenarios`` somewhere else); it
writes into the MBT package folder ``plugins/mbt``. The output files are committed, and users edit
or replace those files, not this script; ``tests/plugins/mbt/test_tools.py`` checks that the
shipped files are exactly what this script writes.

Every value the rulebook discloses is written with its rule reference; every other value is written
``estimated``. The stand-in formulas below were chosen only to agree with the disclosed numbers:

* AP POINT EFFECT HIT CHART (MBT 7.4.3): hit number = 23 + 3 x (AP factor + net modifier), clamped
  to 0..99. Agrees with AP 14 at -3 = 56 and AP 18 at -6 = 59.
* NUMBER OF HITS TABLE (MBT 7.4.4.2): the threshold for k hits is round(H x f[rof][k]) with
  f[4] = 10/65, 20/65, 29/65, so H 65 at ROF 4 gives 10 / 20 / 29.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

#: the MBT package folder, where the generated files are shipped
PACKAGE = Path(__file__).resolve().parents[2] / "plugins" / "mbt"
EST = "estimated"

# ------------------------------------------------------------------------------------------------
# Game Card charts
# ------------------------------------------------------------------------------------------------

#: terrain columns of the SIGHTING RANGES CHART, left to right (MBT 6.1.3.3: the rightmost wins)
SIGHT_COLUMNS = ["clear", "stream", "scrub", "rough", "woods", "brick", "stone", "improved_position"]
#: Day, VH sub-column, (open, buttoned)
SIGHT_DAY = {
    "clear": (30, 20), "stream": (20, 15), "scrub": (7, 10), "rough": (12, 8), "woods": (5, 4),
    "brick": (6, 4), "stone": (6, 4), "improved_position": (3, 2),
}
SIGHT_CITED = {
    ("Open", "scrub"): "MBT 6.1.3.4", ("Buttoned", "scrub"): "MBT 6.1.3.4",
    ("Open", "woods"): "MBT 7.4.8", ("Open", "improved_position"): "MBT 17.6.1.1",
}
CONDITION_SCALE = {"Day": 1.0, "Dusk": 0.5, "Moonlight": 0.3, "Night": 0.15}
TARGET_SCALE = {"VH": 1.0, "L": 0.75, "S": 0.5}

AP_TERRAIN = [
    ("clear", 0, EST), ("stream", 0, EST), ("pond", 0, EST), ("scrub", -2, "MBT 7.4.2"),
    ("rough", -4, "MBT 7.4.2.1"), ("woods", -6, "MBT 7.4.8"), ("brick", -4, EST),
    ("stone", -4, EST), ("improved_position", -10, "MBT 14.3.1.2"),
    ("inside_building", -8, "MBT 14.3.1.2"),
]

#: Movement Modifiers (MBT 7.4.2.2): firer line -> (NM firer: vs NM, vs MV), (MV firer: vs NM, vs MV)
AP_MOVEMENT = {
    "stab-0": ((0, -3), (-8, -10)),
    "stab-1": ((0, -3), (-5, -7)),
    "stab-2": ((0, -3), (-3, -5)),
    "stab-3": ((0, -2), (-2, -4)),
    "class-1": ((0, -4), (-8, -10)),
    "class-2": ((0, -2), (-5, -7)),
    "class-3": ((0, -1), (-3, -5)),
}

AP_GENERAL = [
    ("acquisition_per_turn", 2, "MBT 7.4.2.3.1"),
    ("brewup_smoke_per_hex", -5, "MBT 7.4.2.3.3"),
    ("overwatch_target_nm", -2, "MBT 7.4.2.4"),
    ("overwatch_target_mv", -5, "MBT 7.4.2.4"),
]

#: fractions of H for k hits at each ROF (MBT 7.4.4.2 stand-in; ROF 4 from the MBT 7.4.4.2.2 example)
HIT_FRACTIONS = {
    2: {2: 0.45},
    3: {3: 0.22, 2: 0.45},
    4: {4: 10 / 65, 3: 20 / 65, 2: 29 / 65},
    5: {5: 0.10, 4: 0.18, 3: 0.30, 2: 0.45},
}

TERRAIN_EFFECTS = [
    # terrain, sight column index, basic LOS (MBT 6.1.4.5), basic height, title, source
    ("clear", 0, "none", 0, "Clear", "MBT 6.1.4.2"),
    ("stream", 1, "none", 0, "Stream (fordable)", "MBT 6.1.4.2"),
    ("scrub", 2, "none", 0, "Scrub", "MBT 6.1.4.2"),
    ("rough", 3, "none", 0, "Rough", "MBT 6.1.4.2"),
    ("woods", 4, "block", 2, "Woods", "MBT 6.1.4.5"),
    ("brick", 5, "block", 2, "Brick building", "MBT 6.1.4.5"),
    ("stone", 6, "block", 2, "Stone building (objective MBT 4.8)", "MBT 6.1.4.5"),
    ("pond", 0, "none", 0, "Pond (all water)", "MBT 6.1.4.2"),
]


def _csv(out: Path, name: str, title: str, header: str, rows: list[str]) -> None:
    path = out / "data" / "tables" / f"{name}.csv"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(f"# title: {title}\n{header}\n" + "\n".join(rows) + "\n", encoding="utf-8")


def hit_number(ap: int, mod: int) -> int:
    return max(0, min(99, 23 + 3 * (ap + mod)))


def build_tables(out: Path) -> None:
    rows = []
    for cond, cs in CONDITION_SCALE.items():
        for sighter in ("Open", "Buttoned"):
            for terr in SIGHT_COLUMNS:
                base = SIGHT_DAY[terr][0 if sighter == "Open" else 1]
                for tgt, ts in TARGET_SCALE.items():
                    v = max(1, round(base * cs * ts))
                    src = SIGHT_CITED.get((sighter, terr), EST) if (cond, tgt) == ("Day", "VH") else EST
                    rows.append(f"{cond},{sighter},{terr},{tgt},{v},{src}")
    _csv(out, "sighting", "SIGHTING RANGES CHART (MBT 6.1.3): stand-in except where cited",
         "condition:label,sighter:label,terrain:label,target:label,value:int,source", rows)

    _csv(out, "ap_terrain", "AP POINT EFFECT terrain modifiers (MBT 7.4.2.1), target hex only",
         "terrain:label,value:int,source", [f"{t},{v},{s}" for t, v, s in AP_TERRAIN])

    rows = []
    for line, ((nn, nm), (mn, mm)) in AP_MOVEMENT.items():
        for fm, tm, v in (("NM", "NM", nn), ("NM", "MV", nm), ("MV", "NM", mn), ("MV", "MV", mm)):
            src = EST
            if fm == "NM" and tm == "NM":
                src = "MBT 7.4.8"
            if (line, fm, tm) == ("stab-2", "MV", "MV"):
                src = "MBT 7.4.2.2"
            rows.append(f"{line},{fm},{tm},{v},{src}")
    _csv(out, "ap_movement", "AP POINT EFFECT Movement Modifiers (MBT 7.4.2.2)",
         "firer:label,firer_moving:label,target_moving:label,value:int,source", rows)

    _csv(out, "ap_general", "AP POINT EFFECT general and overwatch modifiers (MBT 7.4.2.3, 7.4.2.4)",
         "name:label,value:int,source", [f"{n},{v},{s}" for n, v, s in AP_GENERAL])

    rows = []
    for ap in range(1, 31):
        for mod in range(-30, 16):
            v = hit_number(ap, mod)
            src = "MBT 7.4.3" if (ap, mod) == (14, -3) else "MBT 7.4.8" if (ap, mod) == (18, -6) else EST
            rows.append(f"{ap},{mod},{v},{src}")
    _csv(out, "ap_hit", "AP POINT EFFECT HIT CHART (MBT 7.4.3): stand-in = 23 + 3 x (AP + net mod), 0..99",
         "ap:band,modifier:band,value:int,source", rows)

    rows = []
    for h in range(1, 100):
        for rof in (2, 3, 4, 5):
            cells = []
            last = h
            for k in (5, 4, 3, 2):
                if k > rof:
                    cells.append("")
                    continue
                t = round(h * HIT_FRACTIONS[rof][k])
                cells.append(str(t) if t >= 1 else "")
                last = t
            del last
            src = "MBT 7.4.4.2" if (h, rof) == (65, 4) else EST
            rows.append(f"{h},{rof}," + ",".join(cells) + f",{src}")
    _csv(out, "number_of_hits", "AP POINT EFFECT NUMBER OF HITS TABLE (MBT 7.4.4.2): upper roll for k hits",
         "hit:band,rof:band,hits_5:int?,hits_4:int?,hits_3:int?,hits_2:int?,source", rows)

    _csv(out, "terrain_effects", "Terrain effects for the Basic Game (MBT 6.1.3.3, 6.1.4)",
         "terrain:label,sight_column:int,basic_los:str,basic_height:int,title:str,source",
         [f"{t},{c},{los},{h},{title},{s}" for t, c, los, h, title, s in TERRAIN_EFFECTS])


# ------------------------------------------------------------------------------------------------
# Data cards
# ------------------------------------------------------------------------------------------------

GUN_BANDS = ["1-4", "5-8", "9-12", "13-16", "17-20", "21-24", "25-28", "29-32", "33-36", "37-40"]
ATGM_BANDS = ["1", "2-4", "5-8", "9-12", "13-16", "17-20", "21-24", "25-28", "29-32", "33-36",
              "37-40"]


def _v(value: Any, source: str = EST, note: str = "") -> dict[str, Any]:
    d: dict[str, Any] = {"value": value, "source": source}
    if note:
        d["note"] = note
    return d


def _toml_value(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int | float):
        return repr(v)
    if isinstance(v, str):
        return '"' + v.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if isinstance(v, list):
        return "[" + ", ".join(_toml_value(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{ " + ", ".join(f"{_key(k)} = {_toml_value(x)}" for k, x in v.items()) + " }"
    raise TypeError(v)


def _key(k: str) -> str:
    return k if k.replace("_", "").replace("-", "").isalnum() and "-" not in k else f'"{k}"'


def _series(start: int, step: int, n: int, floor: int = 1) -> list[int]:
    return [max(floor, start - step * i) for i in range(n)]


def _with_blanks(values: list[Any], max_band: int) -> list[Any]:
    return [v if i < max_band else "-" for i, v in enumerate(values)]


STD_HIT_LOCATION = {
    "Front": {"TF": "01-28", "GN": "29-31", "HF": "32-55", "HF*": "56-70", "TK": "71-85",
              "TTG": "11-20", "HDG": "36-50", "TTA": "01-30", "HDA": "31-60"},
    "Front-Side": {"TF": "01-12", "TS": "13-30", "GN": "31-32", "HF": "33-42", "HS": "43-65",
                   "TK": "66-88", "TTG": "14-22", "HDG": "44-56", "TTA": "01-30", "HDA": "31-65"},
    "Rear-Side": {"TS": "01-20", "TR": "21-28", "HS": "29-55", "HR": "56-62", "TK": "63-88",
                  "TTG": "05-14", "HDG": "35-50", "TTA": "01-28", "HDA": "29-62"},
    "Rear": {"TR": "01-25", "HR": "26-60", "TK": "61-80", "TTG": "08-18", "HDG": "30-48",
             "TTA": "01-25", "HDA": "26-60"},
}


def _armor(front: tuple[int, int], side: tuple[int, int], rear: tuple[int, int], top: tuple[int, int],
           cited: dict[tuple[str, str, str, str], str]) -> dict[str, Any]:
    """front/side/rear/top = (turret, hull) armour basis at Level; Rising and Falling derived."""
    tf, hf = front
    ts, hs = side
    tr, hr = rear
    tt, hd = top
    out: dict[str, Any] = {}
    for elev, hull_adj in (("Level", 0), ("Rising", 5), ("Falling", -5)):
        angles = {
            "Front": {"TF": tf, "HF": max(1, hf + hull_adj)},
            "Front-Side": {"TF": tf + 10, "TS": ts, "HF": max(1, hf + 10 + hull_adj), "HS": hs},
            "Rear-Side": {"TS": ts, "TR": tr + 5, "HS": hs, "HR": hr + 5},
            "Rear": {"TR": tr, "HR": hr},
            "Above": {"TT": tt, "HD": hd},
        }
        out[elev] = {a: {loc: _v(v, cited.get((elev, a, loc, ""), EST)) for loc, v in locs.items()}
                     for a, locs in angles.items()}
    return out


def _damage(kind: str) -> dict[str, Any]:
    if kind == "125-KE":
        return {"no_dam": _v("01-05"), "cmp_hit": _v("06-13"),
                "knk_out": _v("14-74", "MBT 7.4.7"), "brw_up": _v("75-100")}
    if kind == "KE":
        return {"no_dam": _v("01-06"), "cmp_hit": _v("07-20"), "knk_out": _v("21-75"),
                "brw_up": _v("76-100")}
    return {"no_dam": _v("01-10"), "cmp_hit": _v("11-30"), "knk_out": _v("31-70"),
            "brw_up": _v("71-100")}


TANKS: list[dict[str, Any]] = [
    dict(file="usa-1a_m1", id="USA-1A", name="M1", nation="USA", side="NATO", gun="105mm", stab=3,
         rof=2, trn="2T", ke=(24, 2, 78, 3), ce=(14, 0, 70, 0), size=0, gp=9, ca=7, stack=2,
         points=(95, 48, 24), mf=7, armor_ke=((80, 60), (32, 25), (18, 12), (12, 8)),
         armor_ce=((110, 80), (40, 30), (20, 14), (14, 10)), depel=(9, 20), atgm=None),
    dict(file="usa-1b_m1a1", id="USA-1B", name="M1A1", nation="USA", side="NATO", gun="120mm",
         stab=3, rof=2, trn="2T", ke=(25, 2, 100, 3), ce=(16, 0, 85, 0), size=0, gp=9, ca=7, stack=2,
         points=(100, 50, 25), mf=7, armor_ke=((95, 65), (35, 26), (18, 12), (12, 8)),
         armor_ce=((125, 85), (45, 32), (20, 14), (14, 10)), depel=(9, 20), atgm=None),
    dict(file="usa-8a_m1a2", id="USA-8A", name="M1A2", nation="USA", side="NATO", gun="120mm",
         stab=3, rof=2, trn="2T", ke=(26, 2, 104, 3), ce=(17, 0, 88, 0), size=0, gp=9, ca=7, stack=2,
         points=(110, 55, 28), mf=7, armor_ke=((100, 70), (36, 27), (18, 12), (12, 8)),
         armor_ce=((130, 90), (46, 33), (20, 14), (14, 10)), depel=(9, 20), atgm=None),
    dict(file="frg-1a_leopard-1a4", id="FRG-1A", name="Leopard 1A4", nation="FRG", side="NATO",
         gun="105mm", stab=2, rof=2, trn="2T", ke=(23, 2, 80, 3), ce=(14, 0, 70, 0), size=0, gp=7,
         ca=6, stack=2, points=(78, 39, 20), mf=8, armor_ke=((58, 40), (22, 18), (12, 10), (8, 6)),
         armor_ce=((70, 45), (25, 20), (14, 12), (10, 8)), depel=(9, 20), atgm=None),
    dict(file="frg-1b_leopard-2", id="FRG-1B", name="Leopard 2", nation="FRG", side="NATO",
         gun="120mm", stab=3, rof=2, trn="2T", ke=(25, 2, 98, 3), ce=(16, 0, 85, 0), size=0, gp=9,
         ca=7, stack=2, points=(99, 50, 25), mf=8, armor_ke=((90, 62), (34, 25), (18, 12), (12, 8)),
         armor_ce=((120, 80), (42, 30), (20, 14), (14, 10)), depel=(8, 10), atgm=None),
    dict(file="ussr-1a_t-80a", id="USSR-1A", name="T-80A", nation="USSR", side="Soviet",
         gun="125mm", stab=2, rof=1, trn="2T", ke=(20, 2, 92, 4), ce=(17, 2, 100, 0), size=-1, gp=8,
         ca=6, stack=2, points=(80, 40, 20), mf=6, armor_ke=((85, 62), (30, 22), (16, 10), (10, 7)),
         armor_ce=((110, 80), (38, 28), (18, 12), (12, 8)), depel=(5, 14),
         atgm=dict(name="Songster", cls=2, ap=14, pv=110, speeds=(24, 12))),
    dict(file="ussr-1b_t-64b", id="USSR-1B", name="T-64B", nation="USSR", side="Soviet",
         gun="125mm", stab=2, rof=1, trn="2T", ke=(20, 2, 92, 4), ce=(17, 2, 100, 0), size=-1, gp=8,
         ca=6, stack=2, points=(75, 38, 19), mf=6, armor_ke=((80, 58), (28, 20), (15, 10), (10, 7)),
         armor_ce=((100, 75), (35, 26), (17, 12), (12, 8)), depel=(5, 14),
         atgm=dict(name="Songster", cls=2, ap=14, pv=110, speeds=(24, 12))),
    dict(file="ussr-2a_t-72m1", id="USSR-2A", name="T-72M1", nation="USSR", side="Soviet",
         gun="125mm", stab=1, rof=1, trn="2T", ke=(20, 2, 92, 4), ce=(17, 2, 100, 0), size=-1, gp=8,
         ca=6, stack=2, points=(73, 37, 18), mf=6, armor_ke=((70, 52), (26, 20), (14, 10), (9, 6)),
         armor_ce=((90, 65), (32, 24), (16, 12), (11, 8)), depel=(6, 13), atgm=None),
]


def _four(x: Any) -> tuple[Any, Any, Any, Any]:
    a, b, c, d = x
    return a, b, c, d


#: MBT 14.1.2: the independent machineguns of the stand-in cards (size, location, arc); the text
#: prints none of their values, so all are estimated (the coaxial ones are in the main gun)
VEHICLE_MGS: dict[str, tuple[tuple[str, str, str], ...]] = {
    "M1": (("HMG", "TTC", "360"), ("MG", "TTO", "360")),
    "M1A1": (("HMG", "TTC", "360"), ("MG", "TTO", "360")),
    "M1A2": (("HMG", "TTC", "360"), ("MG", "TTO", "360")),
    "Leopard 1A4": (("MG", "TTO", "360"),),
    "Leopard 2": (("MG", "TTO", "360"),),
    "T-80A": (("HMG", "TTO", "360"),),
    "T-64B": (("HMG", "TTC", "360"),),
    "T-72M1": (("HMG", "TTO", "360"),),
}
#: stand-in GP lines (MBT 14.4.1): a heavy one like the transports' HMG, a light one at the
#: USA-7B attached MG's 9 at one hex (MBT 14.7.2.1.1, a leg unit's MG, not a vehicle's)
MG_LINES: dict[str, dict[str, Any]] = {
    "HMG": {"bands": ["1-2", "3-4", "5-8", "9-12", "13-16"], "nm": [16, 13, 10, 7, 4],
            "mv": [10, 8, 6, 4, 2], "max_range": 16},
    "MG": {"bands": ["1-2", "3-4", "5-8", "9-12"], "nm": [9, 8, 6, 4], "mv": [6, 5, 4, 2],
           "max_range": 12},
}


def _machinegun(size: str, location: str, arc: str) -> dict[str, Any]:
    line = MG_LINES[size]
    return {
        "name": f"{size} {location}", "kind": "gun", "main_gun": False,
        "machinegun": size, "location": _v(location), "mount": "turret", "arc": _v(arc),
        "stab": _v(0), "max_rof": _v(1), "trn": _v("6T"), "sights": _v("O"),
        "bands": line["bands"],
        "gp": {"type": "GP", "energy": "GP", "nm": list(line["nm"]), "mv": list(line["mv"]),
               "max_range": _v(line["max_range"])},
    }


def _card(t: dict[str, Any]) -> dict[str, Any]:
    name = t["name"]
    cited_armor: dict[tuple[str, str, str, str], str] = {}
    if name == "T-80A":
        cited_armor[("Level", "Front", "TF", "")] = "MBT 7.4.6.3"
    if name == "Leopard 1A4":
        cited_armor[("Level", "Front", "TF", "")] = "MBT 7.4.8"
    ke_ap0, ke_step, ke_pv0, ke_pvstep = t["ke"]
    ce_ap0, ce_step, ce_pv0, _ = t["ce"]
    ke_ap = _series(ke_ap0, ke_step, 10)
    ke_pv = _series(ke_pv0, ke_pvstep, 10)
    ce_ap = _with_blanks(_series(ce_ap0, max(ce_step, 2), 10), 8)
    ce_pv = _with_blanks([ce_pv0] * 10, 8)
    ke_ap_v: list[Any] = list(ke_ap)
    ke_pv_v: list[Any] = list(ke_pv)
    ce_ap_v: list[Any] = list(ce_ap)
    if name == "T-80A":
        ke_ap_v[3] = _v(14, "MBT 7.4.1.3")
        ke_pv_v[3] = _v(80, "MBT 7.4.6.4")
        ce_ap_v[3] = _v(11, "MBT 7.4.1.3")
        ke_ap_v[9] = _v(ke_ap[9], EST, "a number in band 37-40: max range 40 (MBT 4.7.2)")
    if name == "T-72M1":
        ke_ap_v[1] = _v(18, "MBT 7.4.8")
        ke_pv_v[1] = _v(88, "MBT 7.4.8")
    energy_note = "KE"
    ammo: list[dict[str, Any]] = [
        {"type": "APFSDS", "energy": energy_note, "ap": ke_ap_v, "pv": ke_pv_v,
         "max_range": _v(40, "MBT 4.7.2") if name == "T-80A" else _v(40),
         "damage": _damage("125-KE") if t["gun"] == "125mm" else _damage("KE")},
        {"type": "HEAT", "energy": "CE", "ap": ce_ap_v, "pv": ce_pv,
         "max_range": _v(32, "MBT 4.7.2") if name == "T-80A" else _v(32),
         "damage": _damage("CE")},
    ]
    dmg0: dict[str, Any] = ammo[0]["damage"]
    if t["gun"] == "125mm" and name != "T-80A":
        dmg0["knk_out"] = _v("14-74", EST, "same 125mm line as the T-80A's (MBT 7.4.7)")
    if name == "T-72M1":
        dmg0["knk_out"] = _v("14-74", EST, "MBT 7.4.8: a damage roll of 60 knocks out")
    gp_nm = _series(25, 2, 10)
    gp_mv = _series(17, 2, 10)
    gp_nm_v: list[Any] = list(gp_nm)
    gp_mv_v: list[Any] = list(gp_mv)
    if name == "T-80A":
        gp_nm_v[4] = _v(17, "MBT 14.4.1")
        gp_mv_v[4] = _v(9, "MBT 14.4.1")
    gp_line: dict[str, Any] = {"type": "GP", "energy": "GP", "nm": gp_nm_v, "mv": gp_mv_v,
                               "max_range": _v(40)}
    if name == "M1":
        gp_line["effect"] = _v("EF=KNK OUT if GP DEF=1-5", "MBT 14.4.4.2.3.3")
    gun: dict[str, Any] = {
        "name": t["gun"], "kind": "gun", "main_gun": True, "mount": "turret", "arc": "turret",
        "stab": _v(t["stab"], "MBT 7.4.2.2") if name == "T-80A" else _v(t["stab"]),
        "max_rof": _v(1, "MBT 7.4.8") if name == "T-72M1" else _v(t["rof"]),
        "trn": _v(t["trn"], "MBT 9.2.1") if name == "M1A1" else _v(t["trn"]),
        "sights": _v("L" if t["nation"] != "USSR" or name == "T-80A" else "O"),
        "dep_el": _v(list(t["depel"]), "MBT 17.3.1") if name == "Leopard 2" else _v(list(t["depel"])),
        "bands": GUN_BANDS, "ammo": ammo, "gp": gp_line,
    }
    if name == "Leopard 1A4":  # MBT 17.3.2.3.3 lists Smoke-1 in its ammunition; MBT 14.4.5
        gun = {k: v for k, v in gun.items() if k != "bands"} | {
            "alternate": _v(["smoke"], "MBT 17.3.2.3.3",
                            "Smoke-1 in its main gun ammunition (MBT 14.4.5: the card NOTES name "
                            "the alternate ammunition)"),
            "bands": GUN_BANDS, "ammo": ammo, "gp": gp_line}
    weapons = [gun]
    if t["atgm"]:
        a = t["atgm"]
        ap = ["-"] + [a["ap"]] * 10
        pv = ["-"] + [a["pv"]] * 10
        weapons.append({
            "name": a["name"], "kind": "atgm", "main_gun": False, "mount": "turret", "arc": "turret",
            "class": _v(a["cls"]), "max_rof": _v(1), "trn": _v(t["trn"]), "sights": _v("O"),
            "min_range": _v(2, "MBT 4.7.2") if name == "T-80A" else _v(2),
            "speeds": {"1-3": _v(a["speeds"][0], "MBT 14.2.2.2.3" if name == "T-80A" else EST),
                       "4+": _v(a["speeds"][1], "MBT 14.2.2.2.3" if name == "T-80A" else EST)},
            "bands": ATGM_BANDS,
            "ammo": [{"type": "ATGM", "energy": "CE", "ap": ap, "pv": pv, "max_range": _v(40),
                      "damage": _damage("CE")}],
        })
    weapons += [_machinegun(*mg) for mg in VEHICLE_MGS.get(name, ())]
    hit_loc: dict[str, Any] = {}
    for angle, locs in STD_HIT_LOCATION.items():
        hit_loc[angle] = {}
        for loc, band in locs.items():
            src, note = EST, ""
            if angle == "Front" and loc == "TF":
                note = "holds 16 (MBT 7.4.5.2.2) and 25 (MBT 7.4.8, Leopard 1A4)"
            if angle == "Front" and loc == "HF*":
                note = "holds 63 (MBT 13.2.2.3, M1)"
            if angle == "Front" and loc == "HDG":
                note = "holds 41 (MBT 7.4.5.2.3)"
            hit_loc[angle][loc] = _v(band, src, note) if note else band
    card: dict[str, Any] = {
        "source": EST,
        "card": {
            "id": t["id"], "name": name, "nation": t["nation"], "side": t["side"],
            "kind": "vehicle", "stand_in": True,
            "points": _v(list(t["points"]), "MBT 9.4.2.1") if name == "T-80A" else (
                _v(list(t["points"]), "MBT Scenario D.1") if name == "M1A1" else
                _v(list(t["points"]), EST, "first number = TO&E average cost")),
            "stacking": _v(2, "MBT 12.2.1") if name == "T-80A" else _v(t["stack"]),
            "crew": 4 if t["nation"] != "USSR" else 3,
            "turret": True,
            "notes": ["stand-in card: only the values cited here are printed in the rulebook",
                      *(["ammunition APFSDS, HEAT, HESH, Smoke (MBT 17.3.2.3.3); Smoke rounds "
                         "are fired (MBT 14.4.5), HESH rounds are not modelled"]
                        if name == "Leopard 1A4" else [])],
        },
        "target": {
            "size": _v(t["size"], "MBT 7.4.2.3.2") if name == "T-80A" else (
                _v(0, "MBT 7.4.8") if name == "Leopard 1A4" else _v(t["size"])),
            "gp_defense": _v(8, "MBT 14.4.3.1") if name == "T-80A" else _v(t["gp"]),
            "ca_defense": _v(7, "MBT 15.4.3.1") if name == "M1" else _v(t["ca"]),
        },
        "weapons": weapons,
        "hit_location": hit_loc,
        "armor": {"KE": _armor(*_four(t["armor_ke"]), cited=cited_armor),
                  "CE": _armor(*_four(t["armor_ce"]), cited={})},
        "speeds": {
            "normal": _v(6, "MBT 8.2") if name == "T-80A" else _v(t["mf"]),
            "snow": _v(max(2, t["mf"] - 2)), "mud": _v(max(2, t["mf"] - 3)),
            "road": _v("1/3", EST, "as the example in MBT 8.5.1"), "path": _v("1/2"),
        },
        "turn_costs": _v([0, 1, 2], EST, "as the example in MBT 8.3"),
        "movement_costs": {
            "clear": _v(1, "MBT 8.4.3") if name == "M1A1" else _v(1, EST, "as MBT 8.4.1"),
            "stream": 3, "scrub": 2, "rough": _v(4, EST, "as the example in MBT 8.4.1"),
            "woods": 3, "brick": 3, "stone": 3, "pond": "P",
        },
        "height_costs": {"1": _v(1, "MBT 8.4.3") if name == "M1A1" else 1, "2": 3, "3": "P"},
    }
    return card


def _emit_toml(card: dict[str, Any], header: str) -> str:
    lines = [header, f"source = {_toml_value(card['source'])}", ""]

    def table(prefix: str, d: dict[str, Any]) -> None:
        simple = {k: v for k, v in d.items() if not _is_table(v) and not _is_table_list(v)}
        nested = {k: v for k, v in d.items() if _is_table(v)}
        arrays = {k: v for k, v in d.items() if _is_table_list(v)}
        lines.append(f"[{prefix}]")
        for k, v in simple.items():
            lines.append(f"{_key(k)} = {_toml_value(v)}")
        lines.append("")
        for k, v in nested.items():
            table(f"{prefix}.{_key(k)}", v)
        for k, v in arrays.items():
            for item in v:
                array_item(f"{prefix}.{_key(k)}", item)

    def array_item(prefix: str, d: dict[str, Any]) -> None:
        simple = {k: v for k, v in d.items() if not _is_table(v) and not _is_table_list(v)}
        nested = {k: v for k, v in d.items() if _is_table(v)}
        arrays = {k: v for k, v in d.items() if _is_table_list(v)}
        lines.append(f"[[{prefix}]]")
        for k, v in simple.items():
            lines.append(f"{_key(k)} = {_toml_value(v)}")
        lines.append("")
        for k, v in nested.items():
            table(f"{prefix}.{_key(k)}", v)
        for k, v in arrays.items():
            for item in v:
                array_item(f"{prefix}.{_key(k)}", item)

    for k, v in card.items():
        if k == "source":
            continue
        if _is_table(v):
            table(k, v)
        elif _is_table_list(v):
            for item in v:
                array_item(k, item)
        else:
            lines.insert(2, f"{_key(k)} = {_toml_value(v)}")
    return "\n".join(lines).rstrip() + "\n"


def _is_table(v: Any) -> bool:
    return isinstance(v, dict) and not (set(v) <= {"value", "source", "note"} and "value" in v) and any(
        _is_table(x) or _is_table_list(x) or isinstance(x, list | str | int | dict) for x in v.values()
    ) and not _small_inline(v)


def _small_inline(v: dict[str, Any]) -> bool:
    # hit-location angle rows and armour rows are written as inline tables
    return all(not isinstance(x, dict) or set(x) <= {"value", "source", "note"} for x in v.values()) and len(
        v) <= 12 and all(k.isupper() or k.endswith("*") or k in ("TTG", "HDG") for k in v)


def _is_table_list(v: Any) -> bool:
    return isinstance(v, list) and bool(v) and all(isinstance(x, dict) and not (
        set(x) <= {"value", "source", "note"}) for x in v)


def build_cards(out: Path) -> None:
    folder = out / "data" / "cards"
    folder.mkdir(parents=True, exist_ok=True)
    for t in TANKS:
        card = _card(t)
        header = (f"# MBT data card {t['id']} {t['name']} (stand-in). Format: data/cards/README.md.\n"
                  "# Values with a rule reference are printed in the rulebook; every other value is a\n"
                  "# stand-in marked estimated. Replace this file with your own transcription (--cards).")
        (folder / f"{t['file']}.toml").write_text(_emit_toml(card, header), encoding="utf-8")


# ------------------------------------------------------------------------------------------------
# Panels (stand-ins: the printed panels are not in the text)
# ------------------------------------------------------------------------------------------------

COLS = [chr(65 + i) for i in range(26)] + [chr(65 + i) * 2 for i in range(8)]  # A..Z, AA..HH


def _col(i: int) -> str:
    return COLS[i]


PANELS: dict[int, dict[str, Any]] = {
    1: {
        "woods": ["C2", "C3", "D3", "D4", "J2", "K2", "K3", "L3", "W4", "X4", "X5", "Y4", "DD2", "EE2",
                  "EE3", "FF3"],
        "scrub": ["E6", "F6", "F5", "S3", "T3", "T4", "AA6", "BB6", "BB7", "GG6"],
        "rough": ["H3", "H4", "Z2", "AA2"],
        "pond": ["G7"],
        "brick": ["P6", "R6"],
        "hills": {"E8": 1, "F8": 1, "F9": 1, "G9": 1, "G10": 1, "H9": 1, "M5": 1, "M4": 1, "N4": 1,
                  "N5": 2, "O5": 1, "CC8": 1, "DD8": 1, "DD9": 1, "EE9": 2, "FF9": 1},
        "stream": [],
    },
    2: {
        "woods": ["B3", "B4", "C4", "H7", "I7", "I8", "J8", "Y2", "Z2", "Z3", "GG4", "GG5", "HH5",
                  "T8", "U8"],
        "scrub": ["D6", "E6", "L2", "M2", "X7", "Y7", "DD7", "EE7", "AA9"],
        "rough": ["F2", "CC3", "DD3"],
        "stone": ["O4", "P4", "R4", "S4"],
        "brick": ["P3", "R5", "O5"],
        "hills": {"K4": 1, "K5": 1, "L5": 1, "L6": 2, "M6": 1, "V4": 1, "W4": 1, "W5": 2, "X5": 1,
                  "EE3": 1, "FF3": 1},
        "stream": [f"{c}{7}" for c in COLS[0:10]] + ["K6", "L7", "M7", "N7", "O7", "P7", "Q7", "R7",
                                                     "S7", "T7"] + [f"{c}6" for c in COLS[20:34]],
    },
    3: {
        "woods": ["D7", "D8", "E8", "E9", "K8", "L8", "L9", "V7", "W7", "W8", "X8", "EE7", "EE8",
                  "FF8", "GG8"],
        "scrub": ["G4", "H4", "H5", "S8", "T8", "AA4", "BB4", "BB5", "HH2"],
        "rough": ["I2", "J2", "Y9", "Z9"],
        "brick": ["P5", "R5"],
        "hills": {"F2": 1, "G2": 1, "G3": 1, "H2": 1, "M6": 1, "N6": 2, "N7": 1, "O6": 1, "BB2": 1,
                  "CC2": 1, "CC3": 2, "DD3": 1},
        "stream": [],
    },
    # panel 4 (a stand-in for the four-panel layouts of the Scenarios): a town on the road (column
    # Q) with a stream and its bridge at the north edge. Its 22 building hexes bring a four-panel
    # board to the 30-40 objective hexes Scenario One's objective points imply ("Doing Your Own
    # Scenarios" C.a: about 10% of both sides' points; docs/decisions.md MBTD-85)
    4: {
        "woods": ["E3", "E4", "F4", "F5", "Y8", "Z8", "Z9", "U9", "V9", "CC3", "DD3", "DD4", "EE4"],
        "scrub": ["H7", "I7", "I8", "Y3", "Z3", "AA7", "BB7", "GG2"],
        "rough": ["C8", "D8", "X2", "Y2"],
        "stone": ["O5", "P5", "R5", "S5", "P6", "R6"],
        "brick": ["N4", "O4", "P4", "R4", "S4", "T4", "N6", "O6", "S6", "T6", "O7", "P7", "R7", "S7",
                  "M5", "U5"],
        # the town's east end is wooden: brick hexes with the feature "wooden" (MBT 15.4.3's
        # wooden column, MBT 13.2.2.1.2; docs/decisions.md MBTD-169)
        "wooden": ["R4", "R7", "S4", "S6", "S7", "T4", "T6", "U5"],
        "hills": {"H3": 1, "I3": 1, "I4": 2, "J4": 1, "W6": 1, "X6": 1, "X7": 2, "Y7": 1, "FF7": 1,
                  "GG7": 1},
        "stream": [f"{c}{2}" for c in COLS[0:16]] + [f"{c}{1}" for c in COLS[16:34]],
    },
}


def build_panels(out: Path) -> None:
    folder = out / "data" / "panels"
    folder.mkdir(parents=True, exist_ok=True)
    for n, spec in PANELS.items():
        wooden_note = (["# Eight of its building hexes are wooden (the feature \"wooden\" on brick, a "
                        "stand-in: MBTD-169)."] if spec.get("wooden") else [])
        lines = [
            f"# Stand-in for MBT mapboard panel {n}: NOT the printed panel (its terrain is not in the",
            "# rulebook). Letter-number labels A..HH x 1..10 (MBT 1.1); Basic Game terrain only.",
            *wooden_note,
            "[panel]",
            f'id = "{n}"',
            'system = "mbt"',
            f'title = "MBT panel {n} (stand-in)"',
            "stand_in = true",
            'labels = "letter-number"',
            'shifted = "even"',
            'columns = ["A", "HH"]',
            "rows = [1, 10]",
            "hex_size_m = 100.0",
            'default_terrain = "clear"',
            "default_height = 0",
            'source = "estimated"',
            "",
        ]
        road_col = "Q"
        described: dict[str, dict[str, Any]] = {}

        def put(label: str, described: dict[str, dict[str, Any]] = described, **kw: Any) -> None:
            described.setdefault(label, {}).update(kw)

        for key in ("woods", "scrub", "rough", "pond", "brick", "stone"):
            for lab in spec.get(key, []):
                put(lab, terrain=key)
        for lab in spec.get("wooden", []):
            assert lab in spec["brick"], lab  # a wooden building is a brick hex marked wooden
            put(lab, features=sorted({*described[lab].get("features", []), "wooden"}))
        for lab in spec.get("stream", []):
            d = described.get(lab, {})
            if "terrain" not in d:
                put(lab, terrain="stream")
            put(lab, features=sorted({*d.get("features", []), "stream"}))
        for lab, h in spec["hills"].items():
            put(lab, height=h)
        for row in range(1, 11):
            lab = f"{road_col}{row}"
            d = described.get(lab, {})
            feats = set(d.get("features", [])) | {"road"}
            if "stream" in feats:
                feats.add("bridge")
            put(lab, features=sorted(feats))
        for lab in sorted(described, key=lambda s: (len(s.rstrip("0123456789")), s)):
            d = described[lab]
            lines.append("[[hex]]")
            lines.append(f'at = "{lab}"')
            for k in ("terrain", "height", "features"):
                if k in d:
                    lines.append(f"{k} = {_toml_value(d[k])}")
            if lab == "G7" and n == 1:
                lines.append('source = "MBT 17.7.1"')
                lines.append('notes = "1G7 is a pond (all-water) hex in the text"')
            lines.append("")
        for row in range(1, 10):
            lines.append("[[hexside]]")
            lines.append(f'between = ["{road_col}{row}", "{road_col}{row + 1}"]')
            lines.append('features = ["road"]')
            lines.append("")
        (folder / f"panel{n}.toml").write_text("\n".join(lines).rstrip() + "\n", encoding="utf-8")


# ------------------------------------------------------------------------------------------------
# Scenarios
# ------------------------------------------------------------------------------------------------

MATCHUPS = {
    "a": ("M1A1", 3, "T-64B", 4),
    "b": ("Leopard 2", 3, "T-64B", 4),
    "c": ("Leopard 1A4", 4, "T-72M1", 4),
    "d": ("M1A2", 8, "T-80A", 11),
}


def build_scenarios(out: Path) -> None:
    folder = out / "scenarios"
    folder.mkdir(parents=True, exist_ok=True)
    for key, (nato, n_nato, sov, n_sov) in MATCHUPS.items():
        lines = [
            "# MBT Basic Game Scenario (MBT 2.0-9.4), matchup " + key.upper() + " (MBT 2.3).",
            "# Units have no hex: they are set up by the setup phase per MBT 2.4-2.5.",
            "[scenario]",
            f'id = "mbt:basic-{key}"',
            f'title = "MBT Basic Game, matchup {key.upper()}: {n_nato} x {nato} vs {n_sov} x {sov}"',
            'system = "mbt"',
            "turns = 10",
            'notes = "Panels 1-3 are stand-ins (MBT 2.1). Day, Normal ground (MBT 6.1.3.1, 8.2)."',
            "",
            "[sides.NATO]",
            'title = "NATO"',
            "",
            "[sides.Soviet]",
            'title = "Soviet"',
            "",
            "[board]",
            "# MBT 2.1: panel 3 on mapboard side 4 (bottom) through panel 1 on side 1 (top).",
            "panels = [",
            '  { panel = "mbt:panel-1" },',
            '  { panel = "mbt:panel-2", offset = [0, 10] },',
            '  { panel = "mbt:panel-3", offset = [0, 20] },',
            "]",
            "",
            "[setup]",
            "# MBT 2.4-2.5: roll for mapboard side, then the low roller sets up first within 4 hexes",
            "depth = 4",
            "",
            "[victory]",
            "# MBT 9.4.2-9.4.3",
            "objective_terrain = \"stone\"",
            "objective_points = 10",
            "margin = 30",
            "",
        ]
        for i in range(n_nato):
            lines += ["[[units]]", f'id = "N{i + 1}"', f'type = "mbt:{nato}"', 'side = "NATO"', ""]
        for i in range(n_sov):
            lines += ["[[units]]", f'id = "S{i + 1}"', f'type = "mbt:{sov}"', 'side = "Soviet"', ""]
        (folder / f"basic-{key}.toml").write_text("\n".join(lines).rstrip() + "\n", encoding="utf-8")


def main(argv: list[str] | None = None) -> None:
    """Write every generated file under ``argv[0]`` (default: the package folder)."""
    args = sys.argv[1:] if argv is None else argv
    out = Path(args[0]) if args else PACKAGE
    build_tables(out)
    build_cards(out)
    build_panels(out)
    build_scenarios(out)


if __name__ == "__main__":
    main()
