"""A sensible Firefight AI (``--players ai``).

* Fire: for every legal single-unit attack it computes the expected damage from the same rules
  functions the game uses (AR, modifiers, terrain filters, CRT over the 36 rolls of two dice)
  and announces the attack on the best target with enough firers to make a kill likely [6.13
  makes fire distribution matter]. Opportunity fire [7.5] at movers worth shooting.
* Movement: attackers head for the scenario objective (``[special] ai`` hints), preferring
  roads, cover (Forest, Town, defilade [6.7]) and hexes few enemies can see; defenders move into
  the objective area and then hold; exit missions leave by the right edge; APC infantry
  dismounts near the enemy.
* Indirect fire: requests and adjustments onto the hexes with most enemy units.

It decides from its side's view: enemy units come from ``view.units`` only.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from hexwar.core.hexgrid import Hex
from hexwar.plugins.firefight.mechanics import (
    choose_weapon,
    describe_attack,
    has_los,
    in_defilade_geom,
    is_vehicle,
    resolve_attack,
)
from hexwar.plugins.firefight.victory import area

if TYPE_CHECKING:
    from hexwar.core.engine.decisions import Decision
    from hexwar.core.engine.game import Game
    from hexwar.core.engine.state import Unit
    from hexwar.core.engine.view import SideView

#: probability of each two-dice total
ROLL_P = {t: (6 - abs(t - 7)) / 36 for t in range(2, 13)}
VALUE = {"tank": 1.0, "apc": 0.8, "personnel": 0.6}


class FirefightAI:
    name = "ai"

    def __init__(self, side: str, seed: int) -> None:
        self.side = side
        self.rng = random.Random(f"{seed}:{side}:firefight-ai")
        self._obj: dict[str, Any] | None = None
        self._enemy_cache: tuple[tuple[int, str], list[Unit]] | None = None
        self._held: tuple[tuple[int, str], list[int]] | None = None

    # -- helpers ----------------------------------------------------------------------------
    def hints(self, game: Game) -> dict[str, Any]:
        if self._obj is None:
            ai = game.scenario.raw.get("special", {}).get("ai", {})
            self._obj = dict(ai.get(self.side, {"posture": "attack", "objective": ""}))
            obj = str(self._obj.get("objective", ""))
            hexes: frozenset[Hex] = frozenset()
            groups: list[frozenset[Hex]] = []
            for part in (x.strip() for x in obj.split(",") if x.strip()):
                found = area(game.board, part)  # a place name, or a hex label
                if not found:
                    try:
                        found = frozenset({game.board.parse(part)})
                    except ValueError:
                        found = frozenset()
                if found:
                    groups.append(found)
                hexes = hexes | found
            self._obj["groups"] = groups
            self._obj["hexes"] = hexes
        return self._obj

    def posture(self, game: Game) -> str:
        p = str(self.hints(game).get("posture", "attack"))
        if p == "exit_late":
            return "exit" if game.state.turn >= game.scenario.turns - 6 else "defend"
        return p

    def dist_obj(self, game: Game, h: Hex) -> int:
        """Distance to the objective; with several objectives (Scn 6), each is weighed by how
        many friendly units already hold it, so the force splits between them."""
        groups: list[frozenset[Hex]] = self.hints(game).get("groups", [])
        if not groups:
            return 0
        if len(groups) == 1:
            return min(h.distance(x) for x in groups[0])
        key = (len(game.decisions), game.state.phase)
        if self._held is None or self._held[0] != key:
            held = [sum(1 for u in game.state.units_of(self.side) if u.hex in g) for g in groups]
            self._held = (key, held)
        held = self._held[1]
        return min(min(h.distance(x) for x in g) + (0 if h in g else min(2 * n, 12))
                   for g, n in zip(groups, held, strict=True))

    def enemies(self, view: SideView) -> list[Unit]:
        """Enemy units this side may see (their hexes only are used: a disguised counter's
        position is public, its identity is not read)."""
        game = view.game
        key = (len(game.decisions), game.state.phase)
        if self._enemy_cache is not None and self._enemy_cache[0] == key:
            return self._enemy_cache[1]
        visible = game.hooks.visible_units(game, self.side)
        out = [game.state.units[k] for k in sorted(visible)
               if k in game.state.units and game.state.units[k].side != self.side
               and game.state.units[k].hex is not None]
        self._enemy_cache = (key, out)
        return out

    # -- fire ---------------------------------------------------------------------------------
    def ev(self, game: Game, opt: Mapping[str, Any], mode: str) -> float:
        fid = opt["firers"][0]
        f, t = game.state.units[fid], game.state.units[opt["target"]]
        w = choose_weapon(game, f, t, opt["weapons"].get(fid))
        att = describe_attack(game, f, t, w, mode)
        value = VALUE.get(att["target_class"], 0.6) + 0.2 * len(t.state.get("passengers", []))
        if t.hex is not None and t.hex in self.hints(game)["hexes"]:
            value *= 2.0  # it holds the objective
        out = 0.0
        for roll, p in ROLL_P.items():
            res = resolve_attack(game, att, roll)["result"]
            if res == "K":
                out += p
            elif res in ("Kf", "Km"):
                out += p * (0.9 if t.state.get("Kf") or t.state.get("Km") else 0.45)
            elif res == "S":
                out += p * (0.9 if (t.state.get("S") and not is_vehicle(t))
                            else 0.1 if is_vehicle(t) else 0.35)
        return out * value

    def attack(self, decision: Decision, view: SideView) -> Any:
        game = view.game
        mode = str(decision.context.get("mode", "direct"))
        opts = [o for o in decision.options or () if isinstance(o, Mapping) and "firers" in o]
        if not opts:
            return "pass"
        attacker = self.posture(game) in ("attack", "exit")
        by_target: dict[str, list[tuple[float, str, str]]] = {}
        best_for_firer: dict[str, tuple[float, str, str]] = {}
        for o in opts:
            e = self.ev(game, o, mode)
            fid = o["firers"][0]
            line = o["weapons"][fid]
            if e > best_for_firer.get(fid, (-1.0, "", ""))[0]:
                best_for_firer[fid] = (e, o["target"], line)
        for fid, (e, tid, line) in best_for_firer.items():
            f = game.state.units[fid]
            need = 0.05 if mode == "direct" else 0.08
            t = game.state.units[tid]
            close = f.hex is not None and (self.dist_obj(game, f.hex) <= 4 or (
                t.hex is not None and f.hex.distance(t.hex) <= 6))  # objective or a threat
            if attacker and is_vehicle(f) and not f.state.get("moved") and not f.state.get("Km") \
                    and not close:
                need = 0.35  # an attacker's vehicles would rather move than fire [4.1]
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
    def cover(self, game: Game, h: Hex, enemies: list[Unit]) -> float:
        t = game.board.terrain_of.get(h)
        c = 0.3 if t in ("forest", "town") else 0.0
        seen = 0
        for e in enemies:
            assert e.hex is not None
            if e.hex.distance(h) <= 25 and has_los(game, e.hex, h):
                seen += 1
                if in_defilade_geom(game.board, e.hex, h):
                    c += 0.1
        return c - 0.08 * seen

    def move(self, decision: Decision, view: SideView) -> Any:
        game = view.game
        opts = list(decision.options or ())
        enemies = self.enemies(view)
        posture = self.posture(game)
        dis = [o for o in opts if isinstance(o, Mapping) and "dismount" in o]
        for o in dis:
            v = game.state.units[o["dismount"]]
            assert v.hex is not None
            near_enemy = any(e.hex is not None and e.hex.distance(v.hex) <= 6 for e in enemies)
            if near_enemy or self.dist_obj(game, v.hex) <= 2:
                return o
        moves = [o for o in opts if isinstance(o, Mapping) and "move" in o]
        if not moves:
            return "pass"
        cands = []
        for o in moves:
            u = game.state.units[o["move"]]
            if u.hex is None:
                cands.append((0, o))
                continue
            d = self.dist_obj(game, u.hex)
            if posture == "defend":
                if d <= 1 and u.hex in self.hints(game)["hexes"] | set():
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
        game = view.game
        uid = str(decision.context.get("unit"))
        u = game.state.units[uid]
        opts = list(decision.options or ())
        enemies = self.enemies(view)
        posture = self.posture(game)
        edge = str(self.hints(game).get("edge", ""))
        best: tuple[float, Any] = (-1e9, "stop" if "stop" in opts else opts[0])
        here = u.hex
        d0 = self.dist_obj(game, here) if here is not None else 99
        for o in opts:
            if o == "stop":
                if here is None:
                    continue
                s = self.cover(game, here, enemies)
                if posture in ("attack", "exit") and d0 > 0:
                    s -= 0.6
            elif isinstance(o, Mapping) and o.get("exit"):
                assert here is not None
                from hexwar.plugins.firefight.mechanics import edge_of

                s = 50.0 if posture == "exit" and edge in edge_of(game, here) else -50.0
                if posture == "exit" and self.hints(game)["hexes"] and d0 > 3:
                    s = -50.0
            elif isinstance(o, Mapping) and "to" in o:
                h = game.board.parse(str(o["to"]))
                d = self.dist_obj(game, h)
                prog = d0 - d
                if posture == "defend" and d0 <= 1:
                    prog = min(prog, 0)
                s = prog * 1.0 + self.cover(game, h, enemies)
                if here is not None and "road" in game.board.hexside_of.get((here, h), ()):
                    s += 0.3
                s += self.rng.random() * 0.05
            else:
                s = -1.0
            if s > best[0]:
                best = (s, o)
        return best[1]

    # -- indirect fire -------------------------------------------------------------------------
    def crowd(self, game: Game, label: str, enemies: list[Unit]) -> int:
        h = game.board.parse(label)
        return sum(2 if e.hex == h else 1 for e in enemies
                   if e.hex is not None and e.hex.distance(h) <= 1)

    def if_choice(self, decision: Decision, view: SideView) -> Any:
        game = view.game
        enemies = self.enemies(view)
        opts = [o for o in decision.options or () if o != "pass"
                and not (isinstance(o, Mapping) and o.get("kind", "he") != "he")]
        if not opts:
            return "pass"
        if decision.kind == "firefight.adjust":
            return max(opts, key=lambda x: self.crowd(game, str(x), enemies))
        best = max(opts, key=lambda o: self.crowd(game, str(o["hex"]), enemies))
        return best if self.crowd(game, str(best["hex"]), enemies) > 0 else "pass"

    # -- deployment ----------------------------------------------------------------------------
    def deploy(self, decision: Decision, view: SideView) -> Any:
        """[9.13] defenders shift each unit up to two hexes into Forest, Town or a defilade
        position inside the deployment area; attackers keep the scenario's set-up."""
        game = view.game
        if self.posture(game) != "defend":
            return {}
        from hexwar.plugins.firefight.mechanics import defilade_sides
        from hexwar.plugins.firefight.phases import deployment_problem

        spec = {"zones": decision.context.get("zones", [])}
        board = game.board
        placement: dict[str, str] = {}
        load: dict[Hex, int] = {}
        units = [u for u in game.state.units_of(self.side)
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
                if self.dist_obj(game, h) > self.dist_obj(game, u.hex) + 1:
                    continue
                trial = {**placement, u.id: board.label(h)}
                if deployment_problem(game, self.side, spec, trial) is None:
                    best, best_v = h, value(h)
            if best != u.hex:
                load[u.hex] -= 1
                load[best] = load.get(best, 0) + 1
                placement[u.id] = board.label(best)
        ok = deployment_problem(game, self.side, spec, placement) is None
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
        if not opts:
            return "pass"
        return self.rng.choice(opts)
