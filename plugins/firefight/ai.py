"""A sensible Firefight AI (``--players ai``).

* Fire: for every legal single-unit attack it computes the expected damage from the same rules
  functions the game uses (AR, modifiers, terrain filters, CRT over the 36 rolls of two dice)
  and announces the attack on the best target with enough firers to make a kill likely (Firefight
  6.13 makes fire distribution matter). Opportunity fire (Firefight 7.5) at movers worth shooting.
* Movement: attackers head for the scenario objective (``[special] ai`` hints), preferring
  roads, cover (Forest, Town, defilade, Firefight 6.7) and hexes few enemies can see; defenders move into
  the objective area and then hold; exit missions leave by the right edge; APC infantry
  dismounts near the enemy.
* Indirect fire: requests and adjustments onto the hexes with most enemy units, away from
  friendly units; with the optional rules, Suppressive Fire (Firefight 19.0) (faster, scattering) on the
  defenders of the objective, smoke (Firefight 14.0) on the enemy hexes that overlook friendly units in the
  open when attacking, Priority Fire (Firefight 21.2) when enemies are near a Priority Target.
* Optional-rule set-up: mines (Firefight 18.0) on the enemy's approach to the objective (or to its own
  units); every 155mm battery dedicated (Firefight 21.1) and the Priority Targets marked (Firefight 21.2).
* Overrun (Firefight 28.0): shoot at the most valuable unit; stay only while the exchange favours it.

It decides from its side's view alone (docs/decisions.md CORE-55): units come from ``view.unit()``
and ``view.known_units()`` (a face-down enemy is an anonymous counter that claims a kind, dummy or
not), markers from ``view.system_state``, and every rules computation (a line of sight, an
attack's outcomes, a deployment's legality) from ``view.rules`` (``knowledge.py``), which answers
only about units the side knows.
"""

from __future__ import annotations

import contextlib
import random
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from hexwar.core.errors import RulesError
from hexwar.core.hexgrid import Hex
from hexwar.plugins.firefight.sighting import defilade_sides, in_defilade_geom
from hexwar.plugins.firefight.state import is_vehicle
from hexwar.plugins.firefight.victory import area

if TYPE_CHECKING:
    from hexwar.core.engine.decisions import Decision
    from hexwar.core.engine.state import Unit
    from hexwar.core.engine.view import SideView
    from hexwar.plugins.firefight.knowledge import FirefightRules

#: probability of each two-dice total
ROLL_P = {t: (6 - abs(t - 7)) / 36 for t in range(2, 13)}
VALUE = {"tank": 1.0, "apc": 0.8, "personnel": 0.6}
#: the threat a face-down enemy counter is guessed to pose in an overrun: the AI cannot know what
#: is under it (Firefight 11.0), nor whether it is a dummy (Firefight 12.0)
FACE_DOWN_THREAT = 0.15


def face_down(u: Unit) -> bool:
    """A face-down counter as its enemy is shown it (Firefight 11.0)."""
    return bool(u.state.get("face_down"))


def looks_like_vehicle(u: Unit) -> bool:
    """A vehicle as far as the side knows: a face-down counter by the kind it claims."""
    if face_down(u):
        return u.state.get("kind") == "vehicle"
    return is_vehicle(u)


def rules_of(view: SideView) -> FirefightRules:
    rules: FirefightRules = view.rules
    return rules


class FirefightAI:
    name = "ai"

    def __init__(self, side: str, seed: int) -> None:
        self.side = side
        self.rng = random.Random(f"{seed}:{side}:firefight-ai")
        self._obj: dict[str, Any] | None = None
        #: caches for one decision: each decision comes with a view of its own
        self._enemy_cache: tuple[SideView, list[Unit]] | None = None
        self._held: tuple[SideView, list[int]] | None = None
        self._seen_memo: tuple[SideView, dict[str, int]] | None = None
        #: each hex's distance to each objective group (fixed for the game: a board's worth)
        self._near: dict[Hex, tuple[int, ...]] = {}

    # -- helpers ----------------------------------------------------------------------------
    def hints(self, view: SideView) -> dict[str, Any]:
        if self._obj is None:
            self._obj = rules_of(view).ai_hints()
            obj = str(self._obj.get("objective", ""))
            hexes: frozenset[Hex] = frozenset()
            groups: list[frozenset[Hex]] = []
            for part in (x.strip() for x in obj.split(",") if x.strip()):
                found = area(view.board, part)  # a place name, or a hex label
                if not found:
                    try:
                        found = frozenset({view.board.parse(part)})
                    except ValueError:
                        found = frozenset()
                if found:
                    groups.append(found)
                hexes = hexes | found
            self._obj["groups"] = groups
            self._obj["hexes"] = hexes
        return self._obj

    def posture(self, view: SideView) -> str:
        p = str(self.hints(view).get("posture", "attack"))
        if p == "exit_late":
            return "exit" if view.turn >= view.turns - 6 else "defend"
        return p

    def dist_obj(self, view: SideView, h: Hex) -> int:
        """Distance to the objective; with several objectives (Scn 6), each is weighed by how
        many friendly units already hold it, so the force splits between them."""
        groups: list[frozenset[Hex]] = self.hints(view).get("groups", [])
        if not groups:
            return 0
        near = self._near.get(h)
        if near is None:  # the objectives are the scenario's: each hex's distances, once a game (FFD-49)
            near = self._near[h] = tuple(min(map(h.distance, g)) for g in groups)
        if len(groups) == 1:
            return near[0]
        if self._held is None or self._held[0] is not view:
            own = view.own_unit_objects()
            held = [sum(1 for u in own if u.hex in g) for g in groups]
            self._held = (view, held)
        held = self._held[1]
        return min(d + (0 if h in g else min(2 * n, 12))
                   for d, g, n in zip(near, groups, held, strict=True))

    def enemies(self, view: SideView) -> list[Unit]:
        """Enemy units on the map this side may see, as it sees them (a face-down counter is
        anonymous: its hex and claimed kind are all the AI knows of it)."""
        if self._enemy_cache is not None and self._enemy_cache[0] is view:
            return self._enemy_cache[1]
        out = [u for u in view.enemy_unit_objects() if u.hex is not None]
        self._enemy_cache = (view, out)
        return out

    # -- fire ---------------------------------------------------------------------------------
    def ev(self, view: SideView, opt: Mapping[str, Any], mode: str) -> float:
        fid = opt["firers"][0]
        t = view.unit(opt["target"])
        _line, target_class, results = rules_of(view).attack(fid, t.id, opt["weapons"].get(fid),
                                                             mode)
        value = VALUE.get(target_class, 0.6) + 0.2 * len(t.state.get("passengers", []))
        if t.hex is not None and t.hex in self.hints(view)["hexes"]:
            value *= 2.0  # it holds the objective
        out = 0.0
        for roll, p in ROLL_P.items():
            res = results[roll]
            if res == "K":
                out += p
            elif res in ("Kf", "Km"):
                out += p * (0.9 if t.state.get("Kf") or t.state.get("Km") else 0.45)
            elif res == "S":
                out += p * (0.9 if (t.state.get("S") and not is_vehicle(t))
                            else 0.1 if is_vehicle(t) else 0.35)
        return out * value

    def attack(self, decision: Decision, view: SideView) -> Any:
        mode = str(decision.context.get("mode", "direct"))
        opts = [o for o in decision.options or () if isinstance(o, Mapping) and "firers" in o]
        if not opts:
            return "pass"
        attacker = self.posture(view) in ("attack", "exit")
        by_target: dict[str, list[tuple[float, str, str]]] = {}
        best_for_firer: dict[str, tuple[float, str, str]] = {}
        for o in opts:
            e = self.ev(view, o, mode)
            fid = o["firers"][0]
            line = o["weapons"][fid]
            if e > best_for_firer.get(fid, (-1.0, "", ""))[0]:
                best_for_firer[fid] = (e, o["target"], line)
        for fid, (e, tid, line) in best_for_firer.items():
            f = view.unit(fid)
            need = 0.05 if mode == "direct" else 0.08
            t = view.unit(tid)
            close = f.hex is not None and (self.dist_obj(view, f.hex) <= 4 or (
                t.hex is not None and f.hex.distance(t.hex) <= 6))  # objective or a threat
            if attacker and is_vehicle(f) and not f.state.get("moved") and not f.state.get("Km") \
                    and not close:
                need = 0.35  # an attacker's vehicles would rather move than fire (Firefight 4.1)
            if e >= need:
                by_target.setdefault(tid, []).append((e, fid, line))
        if not by_target:
            return "pass"

        def score(item: tuple[str, list[tuple[float, str, str]]]) -> float:
            miss = 1.0
            for e, _, _ in item[1]:
                miss *= max(0.0, 1.0 - e)
            return 1.0 - miss

        tid, firers = max(by_target.items(), key=score)
        firers.sort(reverse=True)
        chosen: list[tuple[float, str, str]] = []
        miss = 1.0
        for e, fid, line in firers:
            chosen.append((e, fid, line))
            miss *= max(0.0, 1.0 - e)
            if miss < 0.15 or (mode != "direct" and len(chosen) >= 3):
                break
        return {"firers": [c[1] for c in chosen], "target": tid,
                "weapons": {c[1]: c[2] for c in chosen}}

    # -- movement -----------------------------------------------------------------------------
    def cover(self, view: SideView, h: Hex, enemies: list[Unit]) -> float:
        t = view.board.terrain_of.get(h)
        c = 0.3 if t in ("forest", "town") else 0.0
        seen = 0
        rules = rules_of(view)
        near = [e for e in enemies if e.hex is not None and e.hex.distance(h) <= 25]
        sees_h = rules.visible(h, [e.hex for e in near if e.hex is not None])  # one batch
        for e in near:
            assert e.hex is not None
            if e.hex in sees_h:
                seen += 1
                if in_defilade_geom(view.board, e.hex, h):
                    c += 0.1
        return c - 0.08 * seen

    def move(self, decision: Decision, view: SideView) -> Any:
        opts = list(decision.options or ())
        enemies = self.enemies(view)
        posture = self.posture(view)
        dis = [o for o in opts if isinstance(o, Mapping) and "dismount" in o]
        for o in dis:
            v = view.unit(o["dismount"])
            assert v.hex is not None
            near_enemy = any(e.hex is not None and e.hex.distance(v.hex) <= 6 for e in enemies)
            if near_enemy or self.dist_obj(view, v.hex) <= 2:
                return o
        moves = [o for o in opts if isinstance(o, Mapping) and "move" in o]
        if not moves:
            return "pass"
        cands = []
        for o in moves:
            u = view.unit(o["move"])
            if u.hex is None:
                cands.append((0, o))
                continue
            d = self.dist_obj(view, u.hex)
            if posture == "defend":
                if d <= 1 and u.hex in self.hints(view)["hexes"] | set():
                    continue
                if d <= 2:
                    continue
            if posture in ("attack", "exit") and d == 0 and posture != "exit":
                continue
            cands.append((d, o))
        if not cands:
            return "pass"
        return self.rng.choice(cands)[1]

    def step(self, decision: Decision, view: SideView) -> Any:
        uid = str(decision.context.get("unit"))
        u = view.unit(uid)
        opts = list(decision.options or ())
        enemies = self.enemies(view)
        posture = self.posture(view)
        edge = str(self.hints(view).get("edge", ""))
        best: tuple[float, Any] = (-1e9, "stop" if "stop" in opts else opts[0])
        here = u.hex
        d0 = self.dist_obj(view, here) if here is not None else 99
        mined = self.mined_hexes(view, u)
        for o in opts:
            if o == "stop":
                if here is None:
                    continue
                s = self.cover(view, here, enemies)
                if posture in ("attack", "exit") and d0 > 0:
                    s -= 0.6
            elif isinstance(o, Mapping) and o.get("exit"):
                assert here is not None
                s = 50.0 if posture == "exit" and edge in rules_of(view).edges(here) else -50.0
                if posture == "exit" and self.hints(view)["hexes"] and d0 > 3:
                    s = -50.0
            elif isinstance(o, Mapping) and "to" in o:
                h = view.board.parse(str(o["to"]))
                d = self.dist_obj(view, h)
                prog = d0 - d
                if posture == "defend" and d0 <= 1:
                    prog = min(prog, 0)
                s = prog * 1.0 + self.cover(view, h, enemies)
                if here is not None and "road" in view.board.hexside_of.get((here, h), ()):
                    s += 0.3
                if str(o["to"]) in mined:
                    s -= 2.5  # a Mine Marker (Firefight 18.0): its points attack whoever enters
                foes = [e for e in enemies if e.hex == h]
                if foes:  # only legal with Overrun (Firefight 28.0)
                    s += self.overrun_value(view, u, foes)
                s += self.rng.random() * 0.05
            else:
                s = -1.0
            if s > best[0]:
                best = (s, o)
        return best[1]

    def mined_hexes(self, view: SideView, unit: Unit) -> set[str]:
        """Hexes whose mines would attack ``unit`` (Firefight 18.0, 25.0): the Mine Markers are public
        (``view.system_state``); own hexes of five points or less are safe under the Friendly
        Minefields option."""
        if unit.state.get("dummy") or not rules_of(view).mines_in_play():
            return set()  # the markers come with the mines rules alone (FFD-51)
        shown = view.system_state
        if "minefields" not in shown and "artillery_mines" not in shown:
            return set()
        friendly = rules_of(view).friendly_minefields()
        out = {str(f["hex"]) for f in shown.get("minefields", [])
               if not (friendly and f.get("side") == self.side and
                       (f.get("points") or 99) <= 5)}
        out.update(str(f["hex"]) for f in shown.get("artillery_mines", []))
        return out

    # -- indirect fire -------------------------------------------------------------------------
    def crowd(self, view: SideView, label: str, enemies: list[Unit], radius: int = 1) -> int:
        h = view.board.parse(label)
        return sum(2 if e.hex == h else 1 for e in enemies
                   if e.hex is not None and e.hex.distance(h) <= radius)

    def friends_near(self, view: SideView, label: str, radius: int) -> float:
        """Own units an impact there could hit: every unit in a zone is attacked, friend or
        foe (Firefight 8.6); adjacent ones count double."""
        h = view.board.parse(label)
        out = 0.0
        for u in view.own_unit_objects():
            if u.hex is not None and not u.state.get("carrier") and not u.state.get("dummy"):
                d = u.hex.distance(h)
                if d <= radius:
                    out += 1.5 if d <= 1 else 0.5
        return out

    def open_friends_seen(self, view: SideView, label: str) -> int:
        """Firefight 14.0, 14.11: what smoke on this enemy hex would blind: own units in the open (not
        Forest, Town or a defilade position) within 20 hexes that the hex sees."""
        if self._seen_memo is None or self._seen_memo[0] is not view:
            self._seen_memo = (view, {})
        memo = self._seen_memo[1]
        if label in memo:
            return memo[label]
        h = view.board.parse(label)
        n = 0
        own = [u.hex for u in view.own_unit_objects()
               if u.hex is not None and u.hex.distance(h) <= 20]
        seen = rules_of(view).visible(h, own)  # one batch: what the hex sees
        for u in view.own_unit_objects():
            if u.hex is None or u.state.get("carrier") or u.state.get("dummy"):
                continue
            if view.board.terrain_of.get(u.hex) in ("forest", "town") or \
                    defilade_sides(view.board, u.hex):
                continue
            if u.hex.distance(h) <= 20 and u.hex in seen:
                n += 1
        memo[label] = n
        return n

    def if_score(self, view: SideView, opt: Mapping[str, Any], enemies: list[Unit]) -> float:
        """Worth of one request option (0 or less: not worth a mission)."""
        label = str(opt["hex"])
        kind = str(opt.get("kind", "he"))
        attacker = self.posture(view) in ("attack", "exit")
        objective: frozenset[Hex] = self.hints(view)["hexes"]
        h = view.board.parse(label)
        if kind == "he":
            return self.crowd(view, label, enemies) - self.friends_near(view, label, 2)
        if kind == "suppressive":  # Firefight 19.0: two turns faster but always scatters 1-2 hexes
            on_obj = bool(objective) and any(h.distance(x) <= 1 for x in objective)
            if not (attacker and on_obj) or not any(e.hex == h for e in enemies):
                return 0.0
            return (0.8 * self.crowd(view, label, enemies, 2) + 1.0
                    - 1.5 * self.friends_near(view, label, 3))
        if kind == "smoke":  # Firefight 14.0: blind the enemy overlooking an advance in the open
            if not attacker or not any(e.hex == h for e in enemies):
                return 0.0
            seen = self.open_friends_seen(view, label)
            return 0.6 * seen if seen >= 2 else 0.0
        return 0.0  # artillery mines (Firefight 25) and others: not requested by the AI

    def if_choice(self, decision: Decision, view: SideView) -> Any:
        enemies = self.enemies(view)
        if decision.kind == "firefight.adjust":
            opts = [o for o in decision.options or () if o != "pass"]
            if not opts:
                return "pass"
            return max(opts, key=lambda x: self.crowd(view, str(x), enemies)
                       - self.friends_near(view, str(x), 2))
        opts = [o for o in decision.options or () if isinstance(o, Mapping) and "hex" in o]
        if not opts:
            return "pass"
        scored = [(self.if_score(view, o, enemies), i) for i, o in enumerate(opts)]
        best, i = max(scored, key=lambda x: (x[0], -x[1]))
        return opts[i] if best > 0 else "pass"

    def priority_mission(self, decision: Decision, view: SideView) -> Any:
        """Firefight 21.2: Priority Fire lands this turn: fire when enemies are within two hexes of a
        Priority Target and no friend is close."""
        enemies = self.enemies(view)
        hexes = [str(o) for o in decision.options or () if o != "pass"]
        scored = [(self.crowd(view, x, enemies, 2) - 2 * self.friends_near(view, x, 2), x)
                  for x in hexes]
        if not scored:
            return "pass"
        best, x = max(scored)
        return x if best >= 2 else "pass"

    # -- optional-rule set-up ------------------------------------------------------------------
    def approach_targets(self, view: SideView) -> list[Hex]:
        """Where the enemy is heading: the objective when defending, else our own units."""
        obj = sorted(self.hints(view)["hexes"])
        if obj and self.posture(view) == "defend":
            return list(obj)
        own = sorted({u.hex for u in view.own_unit_objects() if u.hex is not None})
        return own or list(obj)

    def mine_plan(self, view: SideView, points: int) -> dict[str, int]:
        """Firefight 18.0: mines in chunks of five (safe for own units under the Addenda Friendly
        Minefields option) on the hexes that lie on the enemy's shortest approaches to
        :meth:`approach_targets`, two to six hexes out, roads first, spread apart."""
        board = view.board
        targets = self.approach_targets(view)
        sources: list[tuple[Hex, float]] = []
        for e in view.enemy_unit_objects():
            if e.state.get("carrier"):
                continue
            w = 1.5 if looks_like_vehicle(e) else 1.0
            if e.hex is not None:
                sources.append((e.hex, w))
            else:
                ent = e.state.get("enter") or {}
                for lbl in ent.get("hexes") or ([ent["hex"]] if "hex" in ent else []):
                    with contextlib.suppress(ValueError):
                        sources.append((board.parse(str(lbl)), w))
        if not targets or not sources or points <= 0:
            return {}
        occupied = {u.hex for u in view.known_units() if u.hex is not None}
        cands: dict[Hex, int] = {}
        for t in targets:
            for h in t.within(6):
                if h in board.hexes and h not in occupied and h not in cands:
                    cands[h] = min(h.distance(x) for x in targets)
        far = {src: min(src.distance(x) for x in targets) for src, _ in sources}
        scores: list[tuple[float, str, Hex]] = []
        for h, d in cands.items():
            if d < 2:
                continue
            sc = 0.0
            for src, w in sources:
                if src.distance(h) + d <= far[src] + 1:  # on a shortest approach (+1)
                    sc += w
            if sc <= 0:
                continue
            if "road" in board.features_of.get(h, ()) or any(
                    "road" in board.hexside_of.get((h, n), ()) for n in board.neighbors_of[h]):
                sc *= 1.5
            sc *= 1.0 - 0.05 * d  # nearer the objective: under its defenders' fire
            scores.append((-sc, board.label(h), h))
        scores.sort()
        chunk = 5
        plan: dict[str, int] = {}
        chosen: list[Hex] = []
        left = points
        for spread in (2, 1):
            for _, lbl, h in scores:
                if left <= 0:
                    break
                if lbl in plan or any(h.distance(c) < spread for c in chosen):
                    continue
                pts = min(chunk, left)
                plan[lbl] = pts
                chosen.append(h)
                left -= pts
        return plan

    def mines(self, decision: Decision, view: SideView) -> Any:
        plan = self.mine_plan(view, int(decision.context.get("points", 0)))
        if plan and rules_of(view).mines_problem(plan) is None:
            return plan
        opts = [o for o in decision.options or () if isinstance(o, Mapping) and o]
        return opts[-1] if opts else {}

    # -- overrun (Firefight 28.0) ------------------------------------------------------------------------
    def best_ev(self, view: SideView, firer: Unit, target: Unit) -> float:
        try:
            _line, target_class, results = rules_of(view).attack(firer.id, target.id, None,
                                                                 "overrun")
        except RulesError:
            return 0.0
        value = VALUE.get(target_class, 0.6)
        out = 0.0
        for roll, p in ROLL_P.items():
            res = results[roll]
            out += p * (1.0 if res == "K" else 0.5 if res in ("Kf", "Km") else
                        0.3 if res == "S" else 0.0)
        return out * value

    def overrun_value(self, view: SideView, mover: Unit, foes: list[Unit]) -> float:
        """Firefight 28.0: worth of entering an enemy hex: our best shot against all of theirs at range
        one (a face-down stack (Firefight 11.0) is an unknown risk)."""
        if any(face_down(e) for e in foes):
            return -1.0
        ours = max(self.best_ev(view, mover, e) for e in foes)
        theirs = sum(self.best_ev(view, e, mover) for e in foes)
        return 2.0 * (ours - theirs) - 0.3

    def overrun_target(self, decision: Decision, view: SideView) -> Any:
        firer = view.unit(str(decision.context.get("firer")))
        opts = [str(o) for o in decision.options or ()]

        def worth(t: str) -> float:
            try:
                return self.best_ev(view, firer, view.unit(t))
            except RulesError:  # a counter the side does not know by this name
                return 0.0

        return max(opts, key=lambda t: (worth(t), t))

    def overrun_continue(self, decision: Decision, view: SideView) -> Any:
        """Stay for another firefight (Firefight 28.0) only if our expected damage beats theirs;
        a face-down counter in the hex is an unknown threat (dummy or not, Firefight 11.0, 12.0)."""
        mover = view.unit(str(decision.context.get("unit")))
        opts = list(decision.options or ())
        here = [e for e in view.enemy_unit_objects()
                if e.hex is not None and e.hex == mover.hex and not e.state.get("carrier")]
        foes = [e for e in here if not face_down(e)]
        ours = max((self.best_ev(view, mover, e) for e in foes), default=0.0)
        theirs = sum(self.best_ev(view, e, mover) for e in foes)
        theirs += FACE_DOWN_THREAT * (len(here) - len(foes))
        leaves = [o for o in opts if isinstance(o, Mapping) and "leave" in o]
        if ours >= theirs or not leaves:
            return "stay"
        enemies = self.enemies(view)
        return max(leaves, key=lambda o: (self.cover(view, view.board.parse(str(o["leave"])),
                                                     enemies), str(o["leave"])))

    # -- deployment ----------------------------------------------------------------------------
    def deploy(self, decision: Decision, view: SideView) -> Any:
        """Firefight 9.13: defenders shift each unit up to two hexes into Forest, Town or a defilade
        position inside the deployment area; attackers keep the scenario's set-up."""
        if self.posture(view) != "defend":
            return {}
        rules = rules_of(view)
        spec = {"zones": decision.context.get("zones", [])}
        board = view.board
        placement: dict[str, str] = {}
        load: dict[Hex, int] = {}
        units = [u for u in view.own_unit_objects()
                 if u.hex is not None and not u.state.get("carrier")]
        for u in units:
            if u.hex is not None:
                load[u.hex] = load.get(u.hex, 0) + 1

        def value(h: Hex) -> float:
            t = board.terrain_of.get(h)
            return (0.3 if t in ("forest", "town") else 0.0) + (0.2 if defilade_sides(board, h)
                                                               else 0.0)

        for u in units:
            assert u.hex is not None
            best, best_v = u.hex, value(u.hex)
            for h in u.hex.within(2):
                if h not in board.hexes or load.get(h, 0) >= 4 or value(h) <= best_v:
                    continue
                if self.dist_obj(view, h) > self.dist_obj(view, u.hex) + 1:
                    continue
                trial = {**placement, u.id: board.label(h)}
                if rules.deployment_problem(spec, trial) is None:
                    best, best_v = h, value(h)
            if best != u.hex:
                load[u.hex] -= 1
                load[best] = load.get(best, 0) + 1
                placement[u.id] = board.label(best)
        ok = rules.deployment_problem(spec, placement) is None
        return placement if ok else {}

    # -- entry point ---------------------------------------------------------------------------
    def choose(self, decision: Decision, view: SideView) -> Any:
        k = decision.kind
        opts = list(decision.options or ())
        if k.endswith("_fire") and k.startswith("firefight."):
            return self.attack(decision, view)
        if k == "firefight.move":
            return self.move(decision, view)
        if k == "firefight.step":
            return self.step(decision, view)
        if k in ("firefight.adjust", "firefight.if_request"):
            return self.if_choice(decision, view)
        if k == "firefight.target_list":
            return opts[-1]
        if k == "firefight.assign_weapons":
            return opts[0]
        if k == "firefight.deploy":
            return self.deploy(decision, view)
        if k == "firefight.mines":
            return self.mines(decision, view)
        if k == "firefight.dedicated" and opts:
            return max(int(o) for o in opts)  # Firefight 21.1: every battery: no delay, Priority Fire
        if k == "firefight.priority_targets" and opts:
            return max(opts, key=len)  # Firefight 21.2: as many Priority Targets as allowed
        if k == "firefight.priority_mission":
            return self.priority_mission(decision, view)
        if k == "firefight.overrun_target" and opts:
            return self.overrun_target(decision, view)
        if k == "firefight.overrun_continue" and opts:
            return self.overrun_continue(decision, view)
        if not opts:
            return "pass"
        return self.rng.choice(opts)
