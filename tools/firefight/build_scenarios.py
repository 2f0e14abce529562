"""Writes the nine Firefight scenario files (run: python build_scenarios.py).

Forces, missions, deployment areas and victory conditions follow (Firefight 9.0) and (Firefight 29.0) with the
Clarifications and the Errata (Scn 5: four 152mm). Each file's notes record the decisions taken
where the text is silent (turn limits, ties, "intact", forces of Scn 8, the deployment chosen
inside the stated area: the scenarios place every unit at fixed hexes of the stand-in maps).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from hexwar.core.board import Board, Panel, PanelPlacement

FIREFIGHT = Path(__file__).resolve().parents[2] / "plugins" / "firefight"
OUT = FIREFIGHT / "scenarios"
MAPS = FIREFIGHT / "data" / "maps"
MAP_A = Panel.from_toml(MAPS / "map_a.toml")
MAP_B = Panel.from_toml(MAPS / "map_b.toml")
BOARD_A = Board.assemble([PanelPlacement(MAP_A)], strict=False)
BOARD_B = Board.assemble([PanelPlacement(MAP_B)], strict=False)
BOARD_AB = Board.assemble([PanelPlacement(MAP_B), PanelPlacement(MAP_A, (38, 0))], strict=False)
ONE_A = '[board]\npanels = [{ panel = "firefight:map-a" }]\n'
ONE_B = '[board]\npanels = [{ panel = "firefight:map-b" }]\n'
BOTH = ('[board]\n# Map B west, Map A east: A\'s trimmed west column 01 lies on B\'s column 39 '
        '(Scn 5 note; the page-3 diagram is not in the text)\n'
        'panels = [{ panel = "firefight:map-b" }, { panel = "firefight:map-a", offset = [38, 0] }]\n')


def q(s: str) -> str:
    return '"' + s.replace('"', '\\"') + '"'


class S:
    def __init__(self, n: int, title: str, board: str, brd: Board, turns: int) -> None:
        self.n, self.title, self.board, self.brd, self.turns = n, title, board, brd, turns
        self.units: list[dict[str, Any]] = []
        self.notes: list[str] = []
        self.special: list[str] = []
        self.victory = ""
        self.deploy: list[str] = []
        self.count: dict[str, int] = {}

    def add(self, side: str, t: str, hexes: list[str] | None = None, n: int = 1,
            enter: dict[str, Any] | None = None, per_hex: int = 4,
            state: dict[str, Any] | None = None) -> list[str]:
        ids = []
        for i in range(n):
            k = self.count.get(t, 0) + 1
            self.count[t] = k
            uid = f"{t.split('-', 1)[1].lower().replace('+', 'p')}-{side.lower()}{k}"
            e: dict[str, Any] = {"id": uid, "type": f"firefight:{t}", "side": side}
            if hexes:
                h = hexes[(i // per_hex) % len(hexes)]
                self.brd.parse(h)
                e["hex"] = h
            if enter:
                e["enter"] = enter
            if state:
                e["state"] = dict(state)
            self.units.append(e)
            ids.append(uid)
        return ids

    def mount(self, vehicles: list[str], teams: list[str], per: int = 2) -> None:
        by_id = {u["id"]: u for u in self.units}
        for i, t in enumerate(teams):
            v = by_id[vehicles[i // per]]
            u = by_id[t]
            u["state"] = {**u.get("state", {}), "carrier": v["id"]}
            if "hex" in v:
                u["hex"] = v["hex"]
            u.pop("enter", None)
            if "enter" in v:
                u["enter"] = v["enter"]

    def write(self, folder: Path) -> None:
        out = ["[scenario]", f'id = "firefight:scenario-{self.n}"', f"title = {q(self.title)}",
               'system = "firefight"', "rules = []", f"turns = {self.turns}",
               "notes = '''", *self.notes, "'''", "",
               '[sides.US]\nname = "U.S."\n', '[sides.SU]\nname = "Soviet"\n', self.board, ""]
        out += ["[victory]", self.victory.strip(), ""]
        if self.deploy:
            out += ["[setup]", "# Firefight 9.13 deployment areas, in deployment order (the units' hexes",
                    "# below are a legal default inside them)", "deploy = [",
                    *[f"  {d}," for d in self.deploy], "]", ""]
        out += ["[special]", *self.special, ""]
        for u in self.units:
            out.append("[[units]]")
            for k in ("id", "type", "side", "hex"):
                if k in u:
                    out.append(f"{k} = {q(u[k])}")
            if "enter" in u:
                hx = ", ".join(q(x) for x in u["enter"]["hexes"])
                out.append(f"enter = {{ turn = {u['enter']['turn']}, hexes = [{hx}] }}")
            if "state" in u:
                items = ", ".join(f"{k} = {q(v) if isinstance(v, str) else str(v).lower()}"
                                  for k, v in u["state"].items())
                out.append(f"state = {{ {items} }}")
            out.append("")
        (folder / f"scenario{self.n}.toml").write_text("\n".join(out), encoding="utf-8")


def lab(c: int, r: int, m: str = "") -> str:
    return f"{m}{c:02d}{r:02d}"


def near(brd: Board, centre: str, radius: int, pred: Any = None) -> list[str]:
    c = brd.parse(centre)
    out = [brd.label(h) for h in sorted(c.within(radius), key=lambda h: (c.distance(h), h.q, h.r))
           if h in brd.hexes and (pred is None or pred(h))]
    return out


def scn1(out: Path) -> None:
    s = S(1, "Scenario 1: Advance guard to Ebersburen", ONE_A, BOARD_A, 10)
    s.add("US", "US-M60A1", ["1916", "1917", "2015", "2016", "2116"], 17)
    s.add("SU", "SU-T62", ["2047", "2148", "1944", "2346"], 4, per_hex=1)
    s.victory = ('kind = "pass_through"\nside = "US"\ntypes = ["US-M60A1"]\narea = "Ebersburen"\n'
                 'count = 5\nby_turn = 10\nelse_winner = "SU"')
    s.special = ['ai = { US = { posture = "attack", objective = "Ebersburen" }, '
                 'SU = { posture = "defend", objective = "Ebersburen" } }']
    s.notes = ["Forces, deployment areas and victory as Scenario 1 Firefight 9.0 (Map A stand-in).",
               "Decision: 'pass five tanks through Ebersburen' = five distinct M60A1 have",
               "entered an Ebersburen hex by the end of Game-Turn 10 (docs/decisions.md FFD-19); the U.S.",
               "wins as soon as the fifth enters. Length 10 turns (implied by the text).",
               "Deployment: fixed hexes inside the stated areas (Soviets on or south of",
               "Rte 298 around Ebersburen; U.S. in Versbach, four per hex Firefight 7.3)."]
    s.deploy = [
        '{ side = "SU", zones = [{ rows = [38, 55] }] }',
        '{ side = "US", zones = [{ area = "Versbach" }] }',
    ]
    s.write(out)


def scn2(out: Path) -> None:
    s = S(2, "Scenario 2: Hold Versbach", ONE_A, BOARD_A, 15)
    m113 = s.add("US", "US-M113", ["1915", "2114", "1814", "2214"], 4, per_hex=1)
    tms = s.add("US", "US-TM+", ["1916", "1917", "2015", "2016", "2116"], 5, per_hex=1)
    s.add("US", "US-TM", ["2117"], 1)
    s.add("US", "US-M150", ["1817", "1918"], 2, per_hex=1)
    del m113, tms
    hexes = [lab(c, r) for r in (51, 52, 53, 54) for c in (19, 20, 21)]
    s.add("SU", "SU-T62", hexes, 13, per_hex=1)
    s.victory = ('kind = "occupy_at_end"\nside = "SU"\ntypes = ["SU-T62"]\narea = "Versbach"\n'
                 'count = 4\nintact = true\nelse_winner = "US"')
    s.special = ["dragons = 3",
                 'ai = { SU = { posture = "attack", objective = "Versbach" }, '
                 'US = { posture = "defend", objective = "Versbach" } }']
    s.notes = ["Scenario 2 Firefight 9.0. Decision: 'intact' = on the map without Kf or Km",
               "(suppression allowed), counted at the end of Game-Turn 15 (docs/decisions.md FFD-19).",
               "U.S. deployed in and around Versbach, more than 20 hexes north of Rte 298;",
               "Soviets on and beside Hwy 1 south of Ebersburen. 3 Dragons assigned Firefight 6.81."]
    s.deploy = [
        '{ side = "US", zones = [{ rows = [1, 18] }] }',
        '{ side = "SU", zones = [{ rows = [50, 55], cols = [17, 23] }] }',
    ]
    s.write(out)


def scn3(out: Path) -> None:
    s = S(3, "Scenario 3: Gerlafingen road junction", ONE_B, BOARD_B, 20)
    west = ["1939", "1940", "2039", "2040", "2139", "2140", "2239", "2240", "1841", "2041",
            "1838", "2242"]
    s.add("US", "US-TM", west[:6], 6, per_hex=1)
    s.add("US", "US-TM+", [*west[6:10], "2834"], 5, per_hex=1)
    s.add("US", "US-TM+", ["2733"], 1)
    s.add("US", "US-M150", ["1742", "2343"], 2, per_hex=1)
    entry = [lab(39, r) for r in range(33, 44)]
    for h in entry:
        BOARD_B.parse(h)
    ent = {"turn": 1, "hexes": entry}
    s.add("SU", "SU-T62", None, 23, enter=ent)
    bmps = s.add("SU", "SU-BMP", None, 3, enter=ent)
    tms = s.add("SU", "SU-TM+", None, 5, enter=ent)
    s.mount(bmps, tms)
    c = BOARD_B.parse("2832")
    assert all(c.distance(BOARD_B.parse(x)) <= 4 for x in ("2834", "2733"))
    s.victory = ('kind = "exit_points"\nside = "SU"\nother = "US"\ntypes = ["SU-T62", "SU-BMP"]\n'
                 'edge = "west"\nhexes = [' + ", ".join(f'"{c:02d}{r}"' for c in (0, 1)
                                           for r in range(35, 41)) + ']')
    s.special = ["dragons = 6", 'target_as_personnel = ["US-M150"]',
                 'ai = { SU = { posture = "exit", objective = "0037", edge = "west" }, '
                 'US = { posture = "defend", objective = "Gerlafingen" } }']
    s.notes = ["Scenario 3 Firefight 9.0. The M150 counters are jeep TOWs: attacked as personnel",
               "(special rule), moving as vehicles. Two U.S. units (2834, 2733) within four",
               "hexes of Hill 492's summit 2832; the rest west of the stream 2301-2954.",
               "Soviets enter on turn 1 at the east edge within five hexes of Rte 298; the",
               "five TM+ ride in the three BMPs. Decision: a tie in victory points is a draw;",
               "RPG-7s: floor(5/2) = 2 (docs/decisions.md FFD-8). Map B has a column 00 (Scn 6): an exit",
               "counts from a west-edge hex of rows 35-40 (0035-0040 or 0135-0140)."]
    s.deploy = [
        '{ side = "US", zones = [{ cols = [0, 23] }, { within = ["2832", 4], max = 2 }] }',
    ]
    s.write(out)


def scn4(out: Path) -> None:
    s = S(4, "Scenario 4: High ground NW of Versbach", ONE_A, BOARD_A, 20)
    us = ["1112", "1213", "1313", "1413", "1113", "1014", "1214", "1414", "1512", "1611",
          "1711", "1311", "1513"]
    m113 = s.add("US", "US-M113", us[:4], 4, per_hex=1)
    s.add("US", "US-TM+", us[4:8], 4, per_hex=1)
    s.add("US", "US-TM", [us[8]], 1)
    s.add("US", "US-MG+", us[9:11], 2, per_hex=1)
    s.add("US", "US-M150", [*us[11:13], "1715", "1013"], 4, per_hex=1)
    del m113
    su = [lab(c, r) for r in (41, 42, 43) for c in range(16, 26)]
    bmps = s.add("SU", "SU-BMP", su[:10], 10, per_hex=1)
    s.add("SU", "SU-T62", su[10:14], 4, per_hex=1)
    s.add("SU", "SU-BRDM", su[14:16], 2, per_hex=1)
    tms = s.add("SU", "SU-TM+", None, 20)
    s.mount(bmps, tms)
    s.add("SU", "SU-TM+", su[16:23], 7, per_hex=1)
    s.add("SU", "SU-MG+", su[23:25], 2, per_hex=1)
    s.victory = 'kind = "exit_more"\nside = "US"\nother = "SU"\nedge = "north"'
    s.special = [
        "dragons = 3",
        'indirect = [{ id = "us-81-1", type = "81mm", side = "US", status = "organic" },'
        ' { id = "us-81-2", type = "81mm", side = "US", status = "organic" },'
        ' { id = "us-81-3", type = "81mm", side = "US", status = "organic" },'
        ' { id = "us-42-1", type = "4.2in", side = "US", status = "organic" },'
        ' { id = "su-122-1", type = "122mm", side = "SU", status = "direct" },'
        ' { id = "su-122-2", type = "122mm", side = "SU", status = "direct" }]',
        'target_lists = { US = ["2030", "2034", "2038", "2025", "1820", "2220"], '
        'SU = ["1112", "1213", "1313", "1413"] }',
        'ai = { SU = { posture = "exit", objective = "2001", edge = "north" }, '
        'US = { posture = "exit_late", objective = "1101", edge = "north" } }']
    s.notes = ["Scenario 4 Firefight 9.0. U.S. north of Rte 298 on the high ground NW of Versbach;",
               "Soviets south of Rte 298, twenty TM+ mounted in the ten BMPs. Decision: passengers",
               "count as units when their vehicle exits; a tie is not 'more': the Soviet wins.",
               "Target List limit 16 for the U.S. (4 IF units) Firefight 8.13."]
    s.deploy = [
        '{ side = "US", zones = [{ rows = [1, 37] }] }',
        '{ side = "SU", zones = [{ rows = [39, 55] }] }',
    ]
    s.write(out)


def scn5(out: Path) -> None:
    s = S(5, "Scenario 5: Defence of Ebersburen", BOTH, BOARD_AB, 40)
    us = [f"A:{c:02d}{r:02d}" for r in (40, 42, 44, 45, 46) for c in (15, 24, 27, 29)]
    s.add("US", "US-M60A1", us[:5], 5, per_hex=1)
    m113 = s.add("US", "US-M113", us[5:9], 4, per_hex=1)
    tms = s.add("US", "US-TM+", None, 5)
    tm = s.add("US", "US-TM", None, 1)
    s.mount(m113, tms + tm)
    s.add("US", "US-M150", us[9:11], 2, per_hex=1)
    su = [f"B:{c:02d}{r:02d}" for r in (3, 5, 7, 9, 11, 13) for c in (12, 14, 16, 18, 20)]
    bmps = s.add("SU", "SU-BMP", su[:20], 20, per_hex=1)
    s.add("SU", "SU-T62", su[20:28], 8, per_hex=1)
    tms = s.add("SU", "SU-TM+", None, 36) + s.add("SU", "SU-TM", None, 2)
    mgs = s.add("SU", "SU-MG+", None, 2)
    s.mount(bmps, tms + mgs)
    s.victory = ('kind = "last_stand"\ndefender = "US"\nattacker = "SU"\narea = "Ebersburen"\n'
                 'radius = 10\ndeadline = 30')
    ind = [('us-81-1', '81mm', 'US', 'organic'), ('us-81-2', '81mm', 'US', 'organic'),
           ('us-81-3', '81mm', 'US', 'organic'), ('us-155-1', '155mm', 'US', 'direct'),
           ('us-155-2', '155mm', 'US', 'direct'), ('su-120-1', '120mm', 'SU', 'organic'),
           ('su-120-2', '120mm', 'SU', 'organic'), ('su-120-3', '120mm', 'SU', 'organic'),
           ('su-152-1', '152mm', 'SU', 'direct'), ('su-152-2', '152mm', 'SU', 'direct'),
           ('su-152-3', '152mm', 'SU', 'direct'), ('su-152-4', '152mm', 'SU', 'direct')]
    s.special = [
        "dragons = 3", "mines = { US = 25 }",
        "indirect = [" + ", ".join(f'{{ id = "{a}", type = "{b}", side = "{c}", status = "{d}" }}'
                                   for a, b, c, d in ind) + "]",
        'target_lists = { US = ["A:0124", "A:0524", "A:1024", "A:2024", "A:2030"] }',
        'ai = { SU = { posture = "attack", objective = "Ebersburen" }, '
        'US = { posture = "defend", objective = "Ebersburen" } }']
    s.notes = ["Scenario 5 Firefight 9.0 with the Errata: Soviet Direct Support is four 152mm.",
               "'Direct Support--two 155mm mines: 25 pts' is read as two 155mm in Direct Support",
               "and 25 U.S. mine points (used only if the mines rule Firefight 18 is enabled).",
               "Decision: no turn limit is given; the game stops after Game-Turn 40 and the",
               "U.S. then wins (the Soviet never cleared Ebersburen). The Soviet teams ride in",
               "the twenty BMPs (two teams each; one BMP carries the two MG+)."]
    s.deploy = [
        '{ side = "US", zones = [{ map = "A", rows = [25, 55] }] }',
        '{ side = "SU", zones = [{ map = "B", cols = [0, 22], rows = [1, 21] }] }',
    ]
    s.write(out)


def scn6(out: Path) -> None:
    s = S(6, "Scenario 6: Mop-up at Feldschlossen", ONE_B, BOARD_B, 30)
    us = [lab(c, r) for r in (44, 46, 48, 50) for c in (18, 20, 22, 24, 26)]
    s.add("US", "US-M60A1", us[:5], 5, per_hex=1)
    m113 = s.add("US", "US-M113", us[5:14], 9, per_hex=1)
    s.add("US", "US-M150", us[14:16], 2, per_hex=1)
    tms = s.add("US", "US-TM+", None, 14) + s.add("US", "US-TM", None, 2)
    mg = s.add("US", "US-MG", None, 1)
    s.mount(m113, tms + mg)
    su = ["2018", "2118", "2219", "2320", "1226", "1225", "1327", "1126", "2117", "2220",
          "1924", "2422", "2022", "1528", "2621"]
    s.add("SU", "SU-BMP", su[0:3], 3, per_hex=1)
    s.add("SU", "SU-T62", su[3:5], 2, per_hex=1)
    s.add("SU", "SU-BRDM", su[5:6], 1)
    s.add("SU", "SU-SPG", su[6:8], 2, per_hex=1)
    s.add("SU", "SU-Sagger", su[8:9], 1)
    s.add("SU", "SU-TM+", su[9:13], 4, per_hex=1)
    s.add("SU", "SU-MG+", su[13:15], 2, per_hex=1)
    s.victory = ('kind = "clear_and_hold"\nattacker = "US"\ndefender = "SU"\n'
                 'areas = ["Feldschlossen", "Mittehohe"]\nafter = 8\ncap = 15')
    ind = [('us-81-1', '81mm', 'US', 'organic'), ('us-81-2', '81mm', 'US', 'organic'),
           ('us-81-3', '81mm', 'US', 'organic'), ('us-42-1', '4.2in', 'US', 'organic'),
           ('us-42-2', '4.2in', 'US', 'organic'), ('us-155-1', '155mm', 'US', 'direct'),
           ('us-155-2', '155mm', 'US', 'direct'), ('su-122-1', '122mm', 'SU', 'direct'),
           ('su-122-2', '122mm', 'SU', 'direct'), ('su-152-1', '152mm', 'SU', 'direct'),
           ('su-152-2', '152mm', 'SU', 'direct')]
    s.special = [
        "dragons = 6", "mines = { SU = 30 }",
        "indirect = [" + ", ".join(f'{{ id = "{a}", type = "{b}", side = "{c}", status = "{d}" }}'
                                   for a, b, c, d in ind) + "]",
        'target_lists = { US = ["2018", "2118", "2219", "1226", "1225"], '
        'SU = ["2140", "2138", "2135", "2131"] }',
        'ai = { US = { posture = "attack", objective = "Feldschlossen, Mittehohe" }, '
        'SU = { posture = "defend", objective = "Feldschlossen" } }']
    s.notes = ["Scenario 6 Firefight 29.0 (a Firefight III scenario; playable with the FF I rules).",
               "U.S. south of Rte 298, the infantry mounted in the M113s; Soviets north of hexrow",
               "0030-3930 in Feldschlossen and on the Mittehohe (stand-in 1226). Decisions: the",
               "U.S. scores at most 15 (docs/decisions.md FFD-19); the game stops after Game-Turn 30 if the",
               "U.S. has not cleared both; the higher total wins and a tie is a draw.",
               "30 Soviet mine points need rule Firefight 18."]
    s.deploy = [
        '{ side = "US", zones = [{ rows = [41, 55] }] }',
        '{ side = "SU", zones = [{ rows = [1, 29] }] }',
    ]
    s.write(out)


def scn7(out: Path) -> None:
    s = S(7, "Scenario 7: Hill 492", ONE_B, BOARD_B, 20)
    us = [lab(c, 21) for c in (6, 8, 10, 12, 14, 16, 17, 18)]
    s.add("US", "US-TM", us[:6], 6, per_hex=1)
    s.add("US", "US-MG+", us[6:8], 2, per_hex=1)
    ring2 = near(BOARD_B, "2832", 2)
    cup = s.add("SU", "SU-TM+", ring2[1:5], 4, per_hex=1)
    cup += s.add("SU", "SU-MG", ring2[5:6], 1)
    vx = s.add("SU", "SU-VehX", ["2832"], 1)
    cup += vx
    cup += s.add("SU", "SU-Dummy", ring2[6:12], 6, per_hex=1, state={"dummy": True})
    s.victory = ('kind = "clear_hill"\nattacker = "US"\ndefender = "SU"\nhex = "2832"\n'
                 'radius = 4')
    s.special = [
        'indirect = [{ id = "us-81-1", type = "81mm", side = "US", status = "organic" },'
        ' { id = "us-81-2", type = "81mm", side = "US", status = "organic" },'
        ' { id = "us-81-3", type = "81mm", side = "US", status = "organic" }]',
        f'frozen_until = {{ "{vx[0]}" = 10 }}',
        "[special.draw.SU]",
        "cup = [" + ", ".join(q(x) for x in cup) + "]", "count = 6",
        f'if_if_drawn = {{ SU = "{vx[0]}" }}',
        'indirect = [{ id = "su-120-1", type = "120mm", side = "SU", status = "direct" },'
        ' { id = "su-120-2", type = "120mm", side = "SU", status = "direct" },'
        ' { id = "su-120-3", type = "120mm", side = "SU", status = "direct" }]',
        "[special.ai]",
        'US = { posture = "attack", objective = "2832" }',
        'SU = { posture = "defend", objective = "2832" }']
    s.notes = ["Scenario 7 Firefight 29.0: six of twelve Soviet counters are drawn blind; undrawn",
               "units never play. Decisions: without the dummies rule Firefight 12 drawn dummies are",
               "removed; the Veh X (communications van, no armament) starts on 2832 and may not",
               "move before Game-Turn 10; if drawn the Soviet gets three 120mm (Direct",
               "Support). The U.S. player's stated number of turns is not used; the game stops",
               "after Game-Turn 20; the higher score wins, a tie is a draw. Without Firefight 11 the",
               "Soviet units deploy face-up (they are visible; undrawn units are hidden)."]
    s.deploy = [
        '{ side = "US", zones = [{ cols = [0, 19], rows = [20, 22] }] }',
        '{ side = "SU", zones = [{ within = ["2832", 1], units = ["vehx-su1"] }, '
        '{ within = ["2832", 2], exclude = ["vehx-su1"] }] }',
    ]
    s.write(out)


def scn8(out: Path) -> None:
    s = S(8, "Scenario 8: Down Rte 1A", BOTH, BOARD_AB, 40)
    us = near(BOARD_AB, "B:2140", 15, lambda h: BOARD_AB.terrain_of[h] != "town")[40::7]
    s.add("US", "US-M60A1", us[:10], 10, per_hex=1)
    m113 = s.add("US", "US-M113", us[10:14], 4, per_hex=1)
    tms = s.add("US", "US-TM+", None, 5) + s.add("US", "US-TM", None, 1)
    s.mount(m113, tms)
    ent = {"turn": 1, "hexes": ["B:2201"]}
    s.add("SU", "SU-T62", None, 35, enter=ent)
    bmps = s.add("SU", "SU-BMP", None, 10, enter=ent)
    s.add("SU", "SU-BRDM", None, 2, enter=ent)
    tms2 = s.add("SU", "SU-TM+", None, 20, enter=ent)
    s.mount(bmps, tms2)
    s.add("SU", "SU-TM+", None, 7, enter=ent)
    s.add("SU", "SU-MG+", None, 2, enter=ent)
    ind = [("us-42-1", "4.2in", "US", "organic"), ("us-42-2", "4.2in", "US", "organic")]
    ind += [(f"us-155-{i}", "155mm", "US", "direct") for i in range(1, 7)]
    ind += [("su-122-1", "122mm", "SU", "direct"), ("su-122-2", "122mm", "SU", "direct")]
    ind += [(f"su-152-{i}", "152mm", "SU", "direct") for i in range(1, 7)]
    s.victory = ('kind = "points_8"\ncrossroads = "B:2140"\nradius = 10\nrandom_end_from = 21')
    s.special = [
        "dragons = 3",
        "indirect = [" + ", ".join(f'{{ id = "{a}", type = "{b}", side = "{c}", status = "{d}" }}'
                                   for a, b, c, d in ind) + "]",
        'ai = { SU = { posture = "exit", objective = "B:2155", edge = "south" }, '
        'US = { posture = "defend", objective = "B:2140" } }']
    s.notes = ["Scenario 8 (Firefight 29.0). The Modern Combat pamphlet is not in the text; forces",
               "derived from the other scenarios (docs/decisions.md FFD-19): U.S. two tank platoons",
               "= 10 M60A1 and a mech",
               "infantry platoon = 4 M113, 5 TM+, 1 TM (3 Dragons); Soviet tank battalion = 31",
               "T62 plus the MRC(+) of Scn 4 (10 BMP, 4 T62, 2 BRDM, 27 TM+, 2 MG+).",
               "Soviets enter in column at B:2201. From Game-Turn 21 each side rolls two dice at",
               "the end of the turn; equal totals end the game (docs/decisions.md FFD-20); hard stop 40.",
               "A tie in points is a draw."]
    s.deploy = [
        '{ side = "US", zones = [{ within = ["B:2140", 15] }] }',
    ]
    s.write(out)


def scn9(out: Path) -> None:
    s = S(9, "Scenario 9: Meeting engagement", BOTH, BOARD_AB, 40)
    ent_su = {"turn": 1, "hexes": ["A:3938"]}
    ent_us = {"turn": 1, "hexes": ["B:0121"]}
    cup_su = s.add("SU", "SU-T62", None, 20, enter=ent_su)
    bmps = s.add("SU", "SU-BMP", None, 12, enter=ent_su)
    cup_su += bmps + s.add("SU", "SU-BRDM", None, 3, enter=ent_su)
    cup_su += s.add("SU", "SU-Dummy", None, 15, enter=ent_su, state={"dummy": True})
    s.mount(bmps, s.add("SU", "SU-TM+", None, 24, enter=ent_su))
    cup_us = s.add("US", "US-M60A1", None, 13, enter=ent_us)
    cup_us += s.add("US", "US-M60A2", None, 5, enter=ent_us)
    m113 = s.add("US", "US-M113", None, 10, enter=ent_us)
    cup_us += m113 + s.add("US", "US-M150", None, 7, enter=ent_us)
    cup_us += s.add("US", "US-Dummy", None, 15, enter=ent_us, state={"dummy": True})
    pax: list[str] = []
    for _ in m113:
        pax += s.add("US", "US-TM+", None, 1, enter=ent_us) + s.add("US", "US-TM", None, 1,
                                                                     enter=ent_us)
    s.mount(m113, pax)
    s.victory = 'kind = "points_9"\nrandom_end_from = 21'
    s.special = [
        'indirect = [{ id = "us-42-1", type = "4.2in", side = "US", status = "organic" },'
        ' { id = "us-42-2", type = "4.2in", side = "US", status = "organic" },'
        ' { id = "su-120-1", type = "120mm", side = "SU", status = "organic" },'
        ' { id = "su-120-2", type = "120mm", side = "SU", status = "organic" }]',
        "dragons = 3",
        "[special.draw.SU]", "cup = [" + ", ".join(q(x) for x in cup_su) + "]", "count = 25",
        "[special.draw.US]", "cup = [" + ", ".join(q(x) for x in cup_us) + "]", "count = 25",
        "[special.ai]",
        'SU = { posture = "exit", objective = "B:0132", edge = "west" }',
        'US = { posture = "defend", objective = "Versbach" }']
    s.notes = ["Scenario 9 Firefight 29.0: each side draws 25 of its 50 counters; each drawn BMP carries",
               "two Soviet TM+ and each M113 a TM+ and a TM (decision). Indirect fire: the",
               "negotiated minimum, two mortars each (U.S. 4.2in, Soviet 120mm, organic).",
               "Drawn dummies are removed unless the dummies rule Firefight 12 is on. Random end as",
               "Scenario 8 (from turn 21); hard stop 40; a tie is a draw."]
    s.write(out)


def main(out: Path = OUT) -> None:
    """Write the nine scenarios into ``out`` (the shipped ``scenarios`` by default)."""
    out.mkdir(parents=True, exist_ok=True)
    for f in (scn1, scn2, scn3, scn4, scn5, scn6, scn7, scn8, scn9):
        f(out)


if __name__ == "__main__":
    main()
