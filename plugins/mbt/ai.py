"""A sensible MBT AI (ControllerSpec "ai").

It decides from its side's view alone (docs/decisions.md CORE-55): the enemy units it knows are
those in ``view.units`` (units its own units can see, MBT 6.1), each as it is shown (an enemy's
order only once revealed: a target's movement modifier is assumed "non-moving" until then); the
edges and objective control come from ``view.system_state``; the map facts, unit cards and kill
chances from ``view.rules`` (``knowledge.py``).

* Set-up: cover near the front of the set-up zone, spread out, facing the enemy.
* Orders: F when a seen enemy is in the turret arc with a fair chance to kill; ATGM when the missile
  is the better shot; otherwise OW from good cover, M to move up.
* Fire: each firer picks the target it is most likely to kill; the side declares the target with
  the largest expected points first. A Soviet doctrine organization's members fire as one group
  (MBT 13.4.3.1, docs/decisions.md MBTD-97).
* Advanced Game: a unit with only a poor shot at an enemy beyond 8 hexes fires on the move (FM)
  or closes rather than standing with F orders (MBTD-97).
* Advanced Game (MBTD-152, MBTD-153): an AP shot is rated with the Advanced modifiers the shot
  itself takes (MBT 14.3.1) in the weapon's own arc (MBT 14.2.1); vehicles seek hull-down hexes
  and fire (F) from them (MBT 13.2.2); a doctrine organization's order is weighed over all its
  members' shots (MBT 13.4.3.1).
* Overwatch: fires at movers when the chance to kill is fair.
* Movement: toward cover and the objective hexes, away from exposure to known enemies.
* Advanced Game advance to contact (docs/decisions.md MBTD-87): the whole force (a doctrine
  organization as one) moves toward the nearer of the open objectives and where the enemy was
  last seen (else its set-up side), by bounds near contact: half moves, half keeps overwatch.
* Advanced Game: squads ride a carrier in their hex while the enemy is far, get off when it is
  near or into cover once it is known or near an objective, the carrier steering for such cover
  (MBT 15.3, MBTD-120); a squad in good cover near the enemy takes full
  cover (MBT 15.5); a vehicle overruns a squad when the chance of an effective result is good
  (MBT 14.7).
* Advanced Game close combat (docs/decisions.md MBTD-107): a squad takes CA orders, and makes a
  close assault or a hand-to-hand attack, only when the odds are good, weighed with the
  close-assault procedure's own numbers (``view.rules.assault_odds``, ``h2h_odds``: MBT 14.5.2-
  14.5.3, 14.6.2-14.6.3); dismounted squads near enemy vehicles are drawn to the cover next to the
  ones they could assault well.
* Advanced Game fire (MBTD-108): GP fire at what it suppresses counts for more where suppression
  stops a threat (a suppressed enemy squad next to an own vehicle cannot close-assault,
  MBT 14.5); units fire GP, main guns and machineguns, at a wire or block marker on their side's
  way forward or holding enemy infantry (MBT 12.4.2, 14.4.3.3; with an enemy in sight only the
  guns of a vehicle already seen firing, MBTD-154); vehicle smoke dischargers cover a move across
  open ground in an enemy's sight (MBT 12.6).
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from hexwar.core.engine.decisions import Decision
from hexwar.core.hexgrid import Hex, arc_directions
from hexwar.plugins.mbt import attached
from hexwar.plugins.mbt.fire import in_turret_arc
from hexwar.plugins.mbt.machineguns import split as split_mg
from hexwar.plugins.mbt.state import alive

if TYPE_CHECKING:
    from hexwar.core.engine.state import Unit
    from hexwar.core.engine.view import SideView
    from hexwar.plugins.mbt.knowledge import MbtRules

COVER = {"woods": 3.0, "brick": 3.0, "stone": 3.5, "scrub": 1.5, "rough": 1.0}


def rules_of(view: SideView) -> MbtRules:
    rules: MbtRules = view.rules
    return rules


class MbtAI:
    name = "ai"
    #: movement weights: pull per hex toward an objective the side does not hold, toward held ones,
    #: the bonus for entering an objective not held, and the cost per known enemy with a line of sight
    objective_pull = 0.9
    hold_pull = 0.25
    objective_bonus = 6.0
    exposure_weight = 1.0
    #: stop adding firers at one target once the chance to kill it reaches this
    enough_kill = 0.85
    #: Advanced MBT 14.7: the chance of an effective overrun result worth an OR order
    overrun_worth = 0.4
    #: Advanced MBT 15.3: passengers get off once a known enemy is this close
    dismount_range = 5
    #: Advanced MBT 15.3.2 (MBTD-120): a carrier with squads aboard is drawn to good cover (woods,
    #: buildings) within ``unload_reach`` hexes of a known enemy or ``unload_near_objective`` of an
    #: objective not held, by ``unload_pull``, and sets them down there
    unload_reach = 12
    unload_near_objective = 3
    unload_pull = 2.5
    #: Advanced Game advance to contact (MBTD-87): within this many hexes of where the enemy is
    #: likely to be, half the force moves while the other half watches the approaches; and the
    #: range a unit closes to on a known enemy it has no shot at
    contact_range = 16
    close_to = 8
    #: Advanced Game (MBTD-97): a shot this likely to kill holds a unit in place with F orders;
    #: a poorer one at an enemy beyond ``close_to`` is fired on the move (FM) while closing
    stand_p = 0.15
    #: Advanced Game close combat (MBTD-107): the value of a close assault (effective, plus a
    #: third of suppressed) that draws a squad next to a vehicle, the least worth a CA order
    #: (which also needs odds better than the squad's best shot), and the chance to win hand to
    #: hand worth an attack
    assault_worth = 0.25
    assault_floor = 0.05
    h2h_worth = 0.55
    #: the pull of a hex next to an enemy vehicle a dismounted squad could assault well
    assault_pull = 4.0
    #: Advanced Game GP fire at terrain (MBTD-108): the chance to destroy a marker on the way
    #: worth an F order
    clear_worth = 0.15
    #: the least chance to kill for which a unit fires at an enemy in the Direct Fire Step
    fire_floor = 0.03
    #: the least value of a machinegun shot at a vehicle (Advanced MBT 14.1.2; MBTD-130)
    mg_vehicle_floor = 0.10
    #: Advanced MBT 13.2.2 (MBTD-153): how much of one enemy's exposure a hull-down position
    #: takes back
    hull_down_weight = 0.6

    def __init__(self, side: str, seed: int) -> None:
        self.side = side
        self.rng = random.Random(f"{seed}:{side}:mbt-ai")
        #: the last hex each enemy unit was seen in (the side's own sightings, MBT 6.1)
        self._last_seen: dict[str, Hex] = {}
        #: the goals of the move being scored (Advanced Game advance to contact)
        self._goals: tuple[list[Hex], list[Hex]] | None = None
        #: the Basic Game's objectives the side does not hold, for the move being scored
        self._open_objs: list[Hex] = []
        #: the goals of the last scoring and each hex's distance to them (MBTD-196)
        self._goal_dist: tuple[tuple[tuple[Hex, ...], tuple[Hex, ...], int], dict[Hex, int]] | None = None

    # -- helpers ---------------------------------------------------------------------------
    def _known_enemies(self, view: SideView) -> list[Unit]:
        return [u for u in view.enemy_unit_objects() if u.hex is not None]

    def _p(self, view: SideView, f: Unit, t: Unit, ammo: str, *, overwatch: bool = False,
           missile: bool = False) -> float:
        rules = rules_of(view)
        if f.hex is None and f.state.get("mounted") and rules.advanced:
            # Advanced MBT 15.3.4.1 (MBTD-144): a carried squad's shot (its rocket launcher) is
            # rated from its carrier's hex; the game offered only the shots the carrier allows
            f = rules.firing_unit(f.id)
        card = rules.card(f.type, f.side)
        w = card.missiles[0] if missile else card.main_gun
        # Advanced MBT 14.1.2: an independent machinegun's shot is GP fire with its own line
        # (MBTD-130: worth most at leg units and open vehicles, as the GP procedure scores it)
        mg = None if missile else split_mg(card, ammo)
        own_line = missile or mg is not None or attached.SEP not in ammo
        if not own_line:  # Advanced MBT 14.1.3: an attached gun's AP shot, its own line (MBTD-137)
            found = attached.split(card, ammo)
            if found is None:
                return 0.0
            w, ammo = found
        # Advanced MBT 14.4: suppression counts; canister (MBT 14.4.5.2) by the same procedure
        if mg is not None or (ammo in ("GP", "canister") and w is not None and not missile
                              and own_line):
            name, ammo = (mg.name, "GP") if mg is not None else (None, ammo)
            value = rules.gp_effect(f.id, t.id, overwatch=overwatch, ammo=ammo, weapon=name)
            weight = self._suppression_weight(view, t)
            if weight > 1.0:  # MBTD-108: suppressing a threat counts for more
                p_s, _p_ef = rules.gp_odds(f.id, t.id, overwatch=overwatch, ammo=ammo,
                                           weapon=name)
                value += 0.25 * (weight - 1.0) * p_s
            if mg is not None and value < self.mg_vehicle_floor and rules.card(
                    t.type, t.side).kind == "vehicle":
                return 0.0  # MBTD-130: a machinegun's flea-bite at armour is not worth a shot
            return value
        if w is None or f.hex is None or t.hex is None or ammo not in w.ammo:
            return 0.0
        if rules.card(t.type, t.side).kind != "vehicle":
            return 0.0  # Advanced MBT 14.1.1.2: AP fire only at vehicles
        if w.ammo[ammo].ap_at(f.hex.distance(t.hex)) is None:
            return 0.0
        # an enemy's order is in its view only once revealed (MBT 6.2.1): else "non-moving"
        moving = t.state.get("order") in ("M", "FM")
        return rules.kill_probability(f.id, t.id, w.name, ammo, overwatch=overwatch,
                                      target_moving=moving)

    def _best_p(self, view: SideView, f: Unit, t: Unit, *, overwatch: bool = False,
                missile: bool = False) -> tuple[str, float]:
        card = rules_of(view).card(f.type, f.side)
        w = card.missiles[0] if missile else card.main_gun
        if w is None:
            return "", 0.0
        best = ("", 0.0)
        # Advanced: GP rounds, and a leg unit's attached guns (MBT 14.1.3, MBTD-137)
        for ammo in [*w.ammo, *rules_of(view).other_ammo(f.id, missile),
                     *([] if missile else attached.shot_ammo(card))]:
            p = self._p(view, f, t, ammo, overwatch=overwatch, missile=missile)
            if p > best[1]:
                best = (ammo, p)
        return best

    def _in_arc(self, view: SideView, u: Unit, h: Hex, *, missile: bool = False) -> bool:
        """Whether ``h`` is in the arc of ``u``'s main gun (or missile): the Basic Game's turret
        arc (MBT 7.2.1), or in the Advanced Game the arc the card names (MBT 14.2.1: a hull
        missile, a squad's 360; MBTD-152), so that an order is not given for a shot the rules
        would refuse, nor withheld from one they allow."""
        if not rules_of(view).advanced:
            return in_turret_arc(u, h)
        return rules_of(view).in_weapon_arc(u.id, h, missile=missile)

    def _group_p(self, view: SideView, group: list[Unit], enemies: list[Unit], *,
                 missile: bool = False) -> float:
        """The best chance, over the known enemies, that the shots of ``group`` (an organization's
        members, MBT 13.4.3.1: they fire together) kill: for one unit its best shot (in its
        weapon's arc); for an organization the mean of its members' best shots at that enemy, so
        that a leader out of arc or sight does not decide for all, and the thresholds set for one
        unit's shot hold for the organization's typical member (MBTD-153)."""
        members = [m for m in group if alive(m) and not m.state.get("abandoned")
                   and (m.hex is not None or m.state.get("mounted"))]
        if len(group) == 1:  # one unit: its best shot itself (the same float as ever)
            members = group
        best = 0.0
        for e in enemies:
            if e.hex is None or not members:
                continue
            ps = [self._best_p(view, m, e, missile=missile)[1] if
                  self._in_arc(view, m, e.hex, missile=missile) else 0.0 for m in members]
            best = max(best, ps[0] if len(ps) == 1 else sum(ps) / len(ps))
        return best

    def _hull_down_now(self, view: SideView, group: list[Unit], enemies: list[Unit]) -> bool:
        """Advanced MBT 13.2.2 (MBTD-153): at least half the group's vehicles are hull down to
        every known enemy that can see them, and one of them is seen by some enemy."""
        rules = rules_of(view)
        vehicles = [m for m in group if m.hex is not None and alive(m)
                    and rules.card(m.type, m.side).kind == "vehicle"]
        if not vehicles:
            return False
        down = 0
        for m in vehicles:
            assert m.hex is not None
            seeing = [e for e in enemies if e.hex is not None and e.hex.distance(m.hex) <= 20
                      and rules.info.visible(m.hex, [e.hex])]
            if seeing and all(rules.hull_down(m.id, m.hex, e.id) for e in seeing):
                down += 1
        return 2 * down >= len(vehicles) and down > 0

    def _enemy_edge_row_sign(self, view: SideView) -> int:
        """+1 when the enemy is toward higher rows (our edge is side 1), else -1."""
        edges = view.system_state.get("edges") or {}
        return 1 if edges.get(self.side, "1") == "1" else -1

    def _toward_enemy_facing(self, view: SideView) -> int:
        return 4 if self._enemy_edge_row_sign(view) > 0 else 1

    def _facing_to(self, a: Hex, b: Hex, default: int) -> int:
        dirs = arc_directions(a, b)
        return dirs[0] if dirs else default

    # -- dispatch --------------------------------------------------------------------------
    def choose(self, decision: Decision, view: SideView) -> Any:
        kind = decision.kind.removeprefix("mbt.")
        if rules_of(view).advanced:
            self._remember(view)
        handler = getattr(self, f"_on_{kind}", None)
        options = list(decision.options or [])
        if handler is not None:
            choice = handler(decision, view, options)
            if choice is not None:
                return choice
        if "pass" in options:
            return "pass"
        return options[0] if options else None

    def _on_edge(self, d: Decision, view: SideView, options: list[Any]) -> Any:
        return self.rng.choice(options)

    def _on_initiative(self, d: Decision, view: SideView, options: list[Any]) -> Any:
        return "second"  # see the enemy move first; fire steps are simultaneous anyway (MBT 5.3)

    def _on_place(self, d: Decision, view: SideView, options: list[Any]) -> Any:
        info = rules_of(view).info
        facing = self._toward_enemy_facing(view)
        own = [u.hex for u in view.own_unit_objects() if u.hex is not None]
        sign = self._enemy_edge_row_sign(view)
        best, best_s = None, -1e9
        for lab, f in options:
            if f != facing:
                continue
            h = view.board.parse(lab)
            kinds = info.kinds[h]
            s = max(COVER.get(k, 0.0) for k in kinds) + 1.5 * (info.height[h] > 0)
            _p, row = info.panel_row[h]
            s += 0.3 * row * sign
            s -= sum(2.0 for o in own if o is not None and o.distance(h) <= 2)
            s += self.rng.random() * 0.5
            if s > best_s:
                best, best_s = [lab, f], s
        return best or self.rng.choice(options)

    def _on_close_assault(self, d: Decision, view: SideView, options: list[Any]) -> Any:
        """Advanced MBT 14.5, 14.6 (MBTD-107): the attack with the best odds, weighed with the
        close-assault procedure's numbers; a hand-to-hand attack only when it is likely to win
        (the loser suffers an effective result, MBT 14.6.2.2). A squad with CA orders cannot fire,
        so any close assault on a vehicle with a chance is better than none."""
        best: Any = "pass"
        best_v = 0.0
        for o in options:
            if o == "pass":
                continue
            v = self._attack_value(view, o[0], view.unit(o[1]))
            if v > best_v:
                best, best_v = o, v
        return best if best_v > 0.0 else "pass"

    def _attack_value(self, view: SideView, aid: str, t: Unit, at: Hex | None = None) -> float:
        """The value of ``aid``'s close combat with ``t``: a close assault on a vehicle (the chance
        of an effective result, a brew-up, plus a third of a suppression's) or a hand-to-hand
        attack (half the chance to win, nothing below ``h2h_worth``: the loser suffers an
        effective result, MBT 14.6.2.2)."""
        rules = rules_of(view)
        if rules.card(t.type, t.side).kind == "vehicle":
            p_s, p_ef = rules.assault_odds(aid, t.id, at)
            return p_ef + p_s / 3
        win = rules.h2h_odds(aid, t.id, at)
        return win / 2 if win >= self.h2h_worth else 0.0

    def _best_assault(self, view: SideView, aid: str, enemies: list[Unit],
                      at: Hex | None = None) -> tuple[float, str | None]:
        """The best close combat ``aid`` could make from its hex (or ``at``) against a known enemy
        next to it: (value, target id)."""
        rules = rules_of(view)
        u = view.unit(aid)
        here = at or u.hex
        if here is None or rules.card(u.type, u.side).kind != "leg" or u.state.get("mounted"):
            return 0.0, None
        best: tuple[float, str | None] = (0.0, None)
        for e in enemies:
            if e.hex is None or e.hex.distance(here) != 1 or e.state.get("mounted"):
                continue
            kind = rules.card(e.type, e.side).kind
            if kind == "vehicle" or (kind in ("leg", "towed") and
                                      rules.card(u.type, u.side).stacking >= 2):
                v = self._attack_value(view, aid, e, at)
                if v > best[0]:
                    best = (v, e.id)
        return best

    def _way_shots(self, view: SideView, u: Unit) -> list[tuple[str, str, float]]:
        """Advanced MBT 12.4.2, 14.4.3.3 (MBTD-108): the wire and block markers ``u`` could fire
        GP at with F orders that lie on its side's way forward (:meth:`_on_the_way`), with a fair
        chance to destroy."""
        rules = rules_of(view)
        if not rules.advanced or u.hex is None:
            return []
        shots = [x for x in rules.terrain_shots(u.id) if x[2] >= self.clear_worth]
        return [x for x in shots if self._on_the_way(view, u, x[0])]

    def _on_the_way(self, view: SideView, u: Unit, label: str) -> bool:
        """Whether a marker in ``label`` lies on the side's way forward (MBTD-108): within six
        hexes of an own unit and at most two hexes off the straight path from it to its nearest
        goal (an objective the side does not hold, or where the enemy is likely to be)."""
        open_objs, enemy_at = self._move_goals(view, u)
        goals = open_objs + enemy_at
        if not goals:
            return False
        own = [x.hex for x in view.own_unit_objects() if alive(x) and x.hex is not None
               and not x.state.get("mounted")]
        h = view.board.parse(label)
        return any(o.distance(h) <= 6 and min(o.distance(h) + h.distance(g) - o.distance(g)
                                               for g in goals) <= 2 for o in own)

    def _on_order(self, d: Decision, view: SideView, options: list[Any]) -> Any:
        u = view.unit(d.context["unit"])
        enemies = [e for e in self._known_enemies(view) if alive(e)]
        if "OR" in options:  # Advanced MBT 14.7: run down infantry when it pays
            best = max((rules_of(view).overrun_value(u.id, e.id) for e in enemies
                        if e.hex is not None and u.hex is not None and u.hex.distance(e.hex) <= 6),
                       default=0.0)
            if best >= self.overrun_worth:
                return "OR"
        if "M" in options and self._wants_a_ride(view, u, enemies):
            return "M"  # Advanced MBT 15.3.2.3: M orders, to be loaded by the carrier here
        # MBT 13.4.3.1 (MBTD-153): an organization's one order is weighed over every member's
        # shots (they fire together at one target); a unit alone is an organization of one
        group = [view.unit(m) for m in d.context.get("members") or [u.id]]
        gun_p = self._group_p(view, group, enemies)
        if "CA" in options:
            # Advanced MBT 14.5, 14.6 (MBTD-107): close combat when its odds beat the squad's
            # best shot (a CA order fires nothing) and are worth the attack at all
            ca_v = self._best_assault(view, u.id, enemies)[0]
            if ca_v >= max(self.assault_floor, gun_p):
                return "CA"
        atgm_p = self._group_p(view, group, enemies, missile=True) if "ATGM" in options else 0.0
        if atgm_p > gun_p and atgm_p >= 0.05 and "ATGM" in options:
            return "ATGM"
        if rules_of(view).advanced and gun_p >= 0.05 and "F" in options and \
                self._hull_down_now(view, group, enemies):
            # Advanced MBT 13.2.2 (MBTD-153): hull down to the enemies that see it, a vehicle
            # stays and fires (F) rather than closing on the move
            return "F"
        if rules_of(view).advanced and gun_p < self.stand_p and (
                "FM" in options or "M" in options) and self._should_close(view, u, enemies):
            # Advanced Game (MBTD-97): a poor shot at long range does not hold the unit in place:
            # it fires on the move (MBT 6.2.4: FM, half its movement) or, with no shot, closes
            return "FM" if gun_p >= 0.05 and "FM" in options else "M" if "M" in options else "FM"
        if gun_p >= 0.05 and "F" in options:
            return "F"
        info = rules_of(view).info
        assert u.hex is not None
        cover = max(COVER.get(k, 0.0) for k in info.kinds[u.hex]) + 1.5 * (info.height[u.hex] > 0)
        near_obj = min((u.hex.distance(o) for o in info.objectives), default=99)
        # objectives the side does not hold (MBT 4.8: the last to pass through controls): the two
        # friendly units nearest to one of them go for it
        control = view.system_state.get("control") or {}
        open_objs = [o for o in info.objectives if control.get(view.board.label(o)) != self.side]
        if open_objs and "M" in options:
            mine = [x for x in view.own_unit_objects() if alive(x) and x.hex is not None
                    and x.state.get("damage", {}).get("track") is not True]
            ranked = sorted(mine, key=lambda x: (min(x.hex.distance(o) for o in open_objs)
                                                 if x.hex else 99, x.id))
            if u.id in [x.id for x in ranked[:2]] and not rules_of(view).advanced:
                return "M"
        if rules_of(view).advanced and "M" in options:
            if self._advances(view, u, enemies):
                return "M"
            if "F" in options and not enemies and self._way_shots(view, u):
                return "F"  # Advanced MBT 12.4.2, 14.4.3.3: clear the way forward (MBTD-108)
            return "OW" if "OW" in options else "M"
        if "OW" in options and (enemies or (cover >= 1.5 and near_obj <= 6) or
                                (cover >= 3 and self.rng.random() < 0.4)):
            return "OW"
        if "M" in options:
            return "M"
        return "OW" if "OW" in options else options[0]

    # -- the Advanced Game's advance to contact (MBTD-87) -----------------------------------------
    def _remember(self, view: SideView) -> None:
        """Keep the last hex each enemy was seen in; forget the ones seen knocked out or seen
        gone (an own unit within two hexes of where it was last seen does not see it)."""
        for e in self._known_enemies(view):
            if alive(e) and e.hex is not None:
                self._last_seen[e.id] = e.hex
            else:
                self._last_seen.pop(e.id, None)
        own = {u.hex for u in view.own_unit_objects() if u.hex is not None}
        visible = {e.id for e in view.enemy_unit_objects()}
        for eid, h in list(self._last_seen.items()):
            if eid not in visible and any(h.distance(o) <= 2 for o in own):
                del self._last_seen[eid]

    def _enemy_zone_rows(self, view: SideView) -> tuple[str, int]:
        """The panel and row of the enemy's set-up side (MBT 2.4): side 1 is the first panel's
        row 1, side 4 the last panel's last row."""
        info = rules_of(view).info
        rows = info.panel_row.values()
        if self._enemy_edge_row_sign(view) > 0:
            p = max(p for p, _r in rows)
            return p, max(r for q, r in rows if q == p)
        return min(p for p, _r in rows), 1

    def _likely_enemy(self, view: SideView) -> list[Hex]:
        """Where the enemy probably is: where its units were last seen, else its set-up side."""
        if self._last_seen:
            return sorted(set(self._last_seen.values()), key=lambda h: (h.q, h.r))
        panel, row = self._enemy_zone_rows(view)
        info = rules_of(view).info
        return sorted((h for h, pr in info.panel_row.items() if pr == (panel, row)),
                      key=lambda h: (h.q, h.r))

    def _bound_group(self, view: SideView, u: Unit) -> int:
        """0 or 1: the half of the force ``u`` belongs to, a doctrine organization counting as
        one unit (MBT 13.4.3.1), alternating in order of the units' ids."""
        keys = sorted({str(x.state.get("doctrine") or x.id) for x in view.own_unit_objects()
                       if alive(x) and x.hex is not None and not x.state.get("abandoned")
                       and not x.state.get("mounted")})
        key = str(u.state.get("doctrine") or u.id)
        return keys.index(key) % 2 if key in keys else 0

    def _advances(self, view: SideView, u: Unit, enemies: list[Unit]) -> bool:
        """Advanced Game: whether a unit with no good shot moves this Turn. It closes on known
        enemies beyond ``close_to``; with none in sight the whole force advances to contact, by
        bounds once near where the enemy is likely to be: one half moves while the other keeps
        overwatch on the approaches (MBT 7.5), the halves changing every Turn."""
        assert u.hex is not None
        if u.state.get("carrying"):
            return True  # a carrier with squads aboard moves, to set them down (MBT 15.3.2)
        seen = [e.hex for e in enemies if e.hex is not None]
        if seen:
            return min(u.hex.distance(h) for h in seen) > self.close_to and \
                self._bound_group(view, u) != view.turn % 2
        near = min((u.hex.distance(h) for h in self._likely_enemy(view)), default=99)
        if near > self.contact_range:
            return True
        return self._bound_group(view, u) != view.turn % 2

    def _should_close(self, view: SideView, u: Unit, enemies: list[Unit]) -> bool:
        """Advanced Game (MBTD-97): whether a unit with only a poor shot moves closer: the nearest
        known enemy is beyond ``close_to`` and the unit can move (a squad aboard a carrier or a
        vehicle with a track hit stays)."""
        if u.hex is None or u.state.get("mounted") or \
                u.state.get("damage", {}).get("track") is True:
            return False
        seen = [u.hex.distance(e.hex) for e in enemies if e.hex is not None]
        return bool(seen) and min(seen) > self.close_to

    def _move_goals(self, view: SideView, u: Unit) -> tuple[list[Hex], list[Hex]]:
        """Advanced Game: the hexes a move is drawn to: the objectives the side does not hold,
        and the enemy, seen (to be closed to ``close_to`` hexes) or likely."""
        info = rules_of(view).info
        control = view.system_state.get("control") or {}
        open_objs = [o for o in info.objectives if control.get(view.board.label(o)) != u.side]
        return open_objs, self._likely_enemy(view)

    # -- the Advanced Game's transport, full cover, buildings and overrun (MBT 14.7, 15.2-15.5) --
    def _carrier_room(self, view: SideView, carrier: Unit) -> int:
        from hexwar.plugins.mbt.transport import transport_value

        rules = rules_of(view)
        tv = transport_value(rules.card(carrier.type, carrier.side))
        if tv is None:
            return 0
        used = sum(rules.card(view.unit(i).type, view.unit(i).side).stacking
                   for i in carrier.state.get("carrying") or [])
        return tv.points - used

    def _wants_a_ride(self, view: SideView, u: Unit, enemies: list[Unit]) -> bool:
        """A leg unit sharing its hex with a friendly carrier that has room rides forward while no
        known enemy is close."""
        rules = rules_of(view)
        if u.hex is None or rules.card(u.type, u.side).kind not in ("leg", "towed"):
            return False
        if any(e.hex is not None and u.hex.distance(e.hex) <= self.dismount_range
               for e in enemies):
            return False
        return any(c.hex == u.hex and c.id != u.id and alive(c)
                   and self._carrier_room(view, c) >= rules.card(u.type, u.side).stacking
                   for c in view.own_unit_objects())

    def _enemy_near(self, view: SideView, h: Hex | None, reach: int) -> bool:
        return h is not None and any(e.hex is not None and alive(e) and h.distance(e.hex) <= reach
                                     for e in self._known_enemies(view))

    def _on_transport(self, d: Decision, view: SideView, options: list[Any]) -> Any:
        """Advanced MBT 15.3.2: load the squads in the hex before moving while no enemy is close;
        unload them when the enemy is near, or into cover once the enemy is known, after the
        move (or before it, with the enemy already close)."""
        carrier = view.unit(d.context["unit"])
        loads = [o for o in options if isinstance(o, list) and o[0] == "load"]
        unloads = [o for o in options if isinstance(o, list) and o[0] == "unload"]
        close = self._enemy_near(view, carrier.hex, self.dismount_range)
        if d.context.get("when") == "before":
            if close:
                return unloads[0] if unloads else "done"
            return loads[0] if loads else "done"
        assert carrier.hex is not None
        if unloads and (close or self._unload_cover(view, carrier.hex)):
            return unloads[0]
        return "done"

    def _unload_cover(self, view: SideView, h: Hex, enemies: list[Unit] | None = None) -> bool:
        """MBTD-120: ``h`` is good cover (3 or more) where squads are worth setting down: within
        ``unload_reach`` of a known enemy, or ``unload_near_objective`` of an objective the side
        does not hold."""
        info = rules_of(view).info
        if max(COVER.get(k, 0.0) for k in info.kinds[h]) < 3.0:
            return False
        known = self._known_enemies(view) if enemies is None else enemies
        if any(e.hex is not None and alive(e) and h.distance(e.hex) <= self.unload_reach
               for e in known):
            return True
        control = view.system_state.get("control") or {}
        return any(h.distance(o) <= self.unload_near_objective for o in info.objectives
                   if control.get(view.board.label(o)) != self.side)

    def _on_overrun(self, d: Decision, view: SideView, options: list[Any]) -> Any:
        """Advanced MBT 14.7.1.2: the defender with the best chance of an effective result."""
        rules = rules_of(view)
        known = {u.id for u in view.enemy_unit_objects()}  # a defender sighted earlier this Turn
        # but no longer in the side's view is not scored (CORE-90)
        scored = [(rules.overrun_value(d.context["unit"], t), t) for t in options
                  if isinstance(t, str) and t in known]
        best = max(scored, default=(0.0, "none"))
        return best[1] if best[0] >= self.overrun_worth / 2 else "none"

    def _on_full_cover_off(self, d: Decision, view: SideView, options: list[Any]) -> Any:
        """Advanced MBT 15.5: give up full cover once no enemy is known near."""
        for uid in options:
            if uid != "keep" and not self._enemy_near(view, view.unit(uid).hex, 10):
                return uid
        return "keep"

    def _on_jamming(self, d: Decision, view: SideView, options: list[Any]) -> Any:
        """Optional MBT 21.2: jam with all it may from the second Turn on (the first Turn's markers
        are free, MBT 21.1)."""
        return max(options) if view.turn >= 2 else 0

    def _on_smoke(self, d: Decision, view: SideView, options: list[Any]) -> Any:
        """Advanced MBT 12.6: smoke covers an advance: a vehicle with M orders (it does not fire,
        so the smoke costs it nothing) discharges while a known enemy is within 15 hexes; the smoke
        covers it through the fire steps until it leaves the hex (MBT 12.6.3, 11.4.1)."""
        enemies = [e for e in self._known_enemies(view) if alive(e) and e.hex is not None]
        info = rules_of(view).info
        for uid in options:
            if uid == "done":
                continue
            u = view.unit(uid)
            if u.state.get("order") != "M" or u.hex is None:
                continue
            near = [e.hex for e in enemies if e.hex is not None and u.hex.distance(e.hex) <= 15]
            if not near:
                continue
            # MBTD-108: a mover in cover needs no smoke; one in the open uses it when an enemy
            # has a line of sight to it (the map's lines of sight are public)
            cover = max(COVER.get(k, 0.0) for k in info.kinds[u.hex])
            if cover < 1.5 and info.visible(u.hex, near):
                return uid
        return "done"

    def _on_swaps(self, d: Decision, view: SideView, options: list[Any]) -> Any:
        """Optional MBT 21.1.2: spend command points on the units whose marker is of the wrong
        kind: a move marker on a unit that sighted an enemy, a fire marker on one that did not."""
        rules = rules_of(view)
        want: set[str] = set()
        for uid in d.context.get("units", []):
            u = view.unit(uid)
            sees_enemy = rules.sighted_an_enemy(uid)
            if (u.state.get("marker_locked") == "move") == sees_enemy:
                want.add(uid)
        best: list[str] = max((o for o in options if set(o) <= want), key=len, default=[])
        return best

    def _on_exhaust(self, d: Decision, view: SideView, options: list[Any]) -> Any:
        """Advanced MBT 15.7: lay the longest track of exhaust smoke behind a vehicle that moved
        within 15 hexes of a known enemy."""
        u = view.unit(d.context["unit"])
        tracks = [o for o in options if o != "none"]
        if tracks and u.hex is not None and any(
                e.hex is not None and alive(e) and u.hex.distance(e.hex) <= 15
                for e in self._known_enemies(view)):
            return max(tracks, key=len)
        return "none"

    def _declaration(self, d: Decision, view: SideView, options: list[Any], *, overwatch: bool,
                     threshold: float) -> Any:
        known = {u.id for u in view.enemy_unit_objects()}
        # a target the side's view does not hold (an overwatch window opened on a mover the side
        # has not sighted) is not scored: the AI knows only what its view shows. The firers come
        # in groups: one unit, or a doctrine organization whose members fire together at one
        # target (MBT 13.4.3.1, MBTD-97); a group is the smallest set of firers an option names
        cands = [o for o in options if isinstance(o, dict) and o["target"] in known
                 and len({a for _f, a in o["shots"]}) == 1]
        sets = {frozenset(f for f, _a in o["shots"]) for o in cands}
        atomic = [o for o in cands
                  if not any(x < frozenset(f for f, _a in o["shots"]) for x in sets)]
        if not atomic:
            return "pass"
        # each group's best (target, shots, chance one of its shots kills, one shot's chance); a
        # leg unit's attached gun is a group of its own beside its small arms (Advanced MBT
        # 14.1.3.1, MBTD-145: both may fire, at one target or two)
        best_for: dict[tuple[frozenset[str], str], tuple[str, list[list[str]], float, float]] = {}
        for o in atomic:
            firers = frozenset(f for f, _a in o["shots"])
            fid, ammo = o["shots"][0]
            fu = view.unit(fid)
            fc = rules_of(view).card(fu.type, fu.side)
            found = attached.split(fc, ammo) if len(firers) == 1 else None
            key = (firers, found[0].name if found is not None else "")
            # Advanced MBT 13.3: an overwatch shot may name the unit's missile
            missile = ammo == "ATGM" and bool(fc.missiles) and (
                fc.main_gun is None or ammo not in fc.main_gun.ammo)
            one = self._p(view, fu, view.unit(o["target"]), ammo, overwatch=overwatch,
                          missile=missile)
            p = one if len(firers) == 1 else 1.0 - (1.0 - one) ** len(firers)
            if key not in best_for or p > best_for[key][2]:
                best_for[key] = (o["target"], [list(x) for x in o["shots"]], p, one)
        value: dict[str, float] = {}
        miss: dict[str, float] = {}
        for _g, (tid, _shots, p, _one) in best_for.items():
            miss[tid] = miss.get(tid, 1.0) * (1.0 - p)
        for tid, m in miss.items():
            t = view.unit(tid)
            value[tid] = (1.0 - m) * rules_of(view).card(t.type, t.side).points[0]
        if not value:
            return "pass"
        tid = max(value, key=lambda k: (value[k], k))
        # enough firers for a likely kill; the others keep their fire for other targets (MBT 7.3.2:
        # shots declared at a unit knocked out by an earlier one are wasted)
        group = sorted(((p, sh[0][0], sh[0][1], sh) for _g, (t, sh, p, one) in best_for.items()
                        if t == tid and one >= threshold), reverse=True)
        shots: list[list[str]] = []
        miss_all = 1.0
        for p, _fid, _ammo, sh in group:
            if shots and 1.0 - miss_all >= self.enough_kill:
                break
            shots.extend(sh)
            miss_all *= 1.0 - p
        if not shots:
            return "pass"
        return {"target": tid, "shots": sorted(shots)}

    def _on_fire(self, d: Decision, view: SideView, options: list[Any]) -> Any:
        overwatch = d.context.get("step") == "overwatch"
        if not overwatch and not any(alive(e) for e in self._known_enemies(view)):
            terrain = self._terrain_declaration(view, options)
            if terrain is not None:
                return terrain
        got = self._declaration(d, view, options, overwatch=overwatch,
                                threshold=self.fire_floor if not overwatch else 0.06)
        if got == "pass" and not overwatch:
            # MBTD-154: the guns left over (a vehicle's machineguns beside its main gun) at the
            # terrain on the way or around enemy infantry; then smoke
            return self._terrain_declaration(view, options) or \
                self._smoke_declaration(view, options) or got
        return got

    def _smoke_declaration(self, view: SideView, options: list[Any]) -> Any:
        """Advanced MBT 14.4.5.1 (MBTD-111): a gun with no shot worth taking smokes the hex of a
        known enemy vehicle within ``close_to`` hexes of an own unit (blinding it for the
        Movement Phase); None when there is none."""
        smoke = [o for o in options if isinstance(o, dict) and "smoke_hex" in o]
        if not smoke:
            return None
        rules = rules_of(view)
        own = [u.hex for u in view.own_unit_objects() if u.hex is not None and alive(u)]
        threats = {view.board.label(e.hex) for e in self._known_enemies(view)
                   if e.hex is not None and rules.card(e.type, e.side).kind == "vehicle"
                   and any(e.hex.distance(h) <= self.close_to for h in own)}
        for o in smoke:
            if o["smoke_hex"] in threats:
                return o
        return None

    def _terrain_declaration(self, view: SideView, options: list[Any]) -> Any:
        """Advanced MBT 12.4.2, 14.4.3.3, 14.1.2 (MBTD-108, MBTD-154): GP fire, by main guns and
        machineguns, at the wire or block most likely to go among those on the way forward or
        holding a known enemy leg or towed unit (a destroyed marker suppresses every ground unit
        in its hex, MBT 14.4.3.3.3); each shot offered with a fair chance (``clear_worth``) joins.
        A shot at terrain shows the firer (MBT 13.1): with an enemy in sight only units already
        seen firing this Turn fire at terrain (a vehicle's machineguns beside its main gun,
        MBT 14.1.2.1), and never a gun that has a shot at an enemy the side would take. None:
        no such shot."""
        terrain = [o for o in options if isinstance(o, dict) and "hex" in o]
        if not terrain:
            return None
        rules = rules_of(view)
        enemies = [e for e in self._known_enemies(view) if alive(e)]
        known = {u.id for u in view.enemy_unit_objects()}
        best_unit: dict[tuple[str, str], float] = {}  # (firer, ammo): its best shot at an enemy
        for o in options:
            if isinstance(o, dict) and o.get("target") in known and len(o["shots"]) == 1:
                fid, ammo = o["shots"][0]
                p = self._p(view, view.unit(fid), view.unit(o["target"]), ammo)
                best_unit[(fid, ammo)] = max(best_unit.get((fid, ammo), 0.0), p)
        crowded = {view.board.label(e.hex) for e in enemies if e.hex is not None
                   and rules.card(e.type, e.side).kind in ("leg", "towed")}
        shots: dict[str, list[tuple[float, str, str]]] = {}
        kinds: dict[str, str] = {}
        for o in terrain:
            if len(o["shots"]) != 1:
                continue
            fid, ammo = o["shots"][0]
            f = view.unit(fid)
            if enemies and not f.state.get("fired"):
                continue
            if best_unit.get((fid, ammo), 0.0) >= self.fire_floor:
                continue  # an enemy is the better use of this gun
            label = o["hex"]
            if label not in crowded and not self._on_the_way(view, f, label):
                continue
            p = rules.terrain_odds(fid, label, o["at"], ammo)
            if p >= self.clear_worth:
                shots.setdefault(label, []).append((p, fid, ammo))
                kinds[label] = o["at"]
        if not shots:
            return None

        def chosen(label: str) -> list[tuple[float, str, str]]:
            """The shots at ``label``: a unit with a crew loss fires one weapon (MBT 14.1.2.3)."""
            out: list[tuple[float, str, str]] = []
            for p, fid, ammo in sorted(shots[label], reverse=True):
                if int(view.unit(fid).state.get("crew_losses", 0)) and \
                        any(x[1] == fid for x in out):
                    continue
                out.append((p, fid, ammo))
            return out

        def chance(label: str) -> float:
            miss = 1.0
            for p, _f, _a in chosen(label):
                miss *= 1.0 - p
            return 1.0 - miss

        best = max(sorted(shots), key=lambda lab: (chance(lab), lab in crowded))
        return {"target": None, "hex": best, "at": kinds[best],
                "shots": sorted([f, a] for _p, f, a in chosen(best))}

    def _suppression_weight(self, view: SideView, t: Unit) -> float:
        """Advanced Game (MBTD-108): how much more than usual a suppression of ``t`` is worth:
        an enemy leg unit next to an own vehicle (suppressed, it cannot close-assault, MBT 14.5)
        counts triple; any other's, as usual."""
        rules = rules_of(view)
        card = rules.card(t.type, t.side)
        if t.hex is None or card.kind != "leg":
            return 1.0  # a vehicle is better killed: its suppression counts as usual
        return 3.0 if any(x.hex is not None and alive(x) and x.hex.distance(t.hex) <= 1
                          and rules.card(x.type, x.side).kind == "vehicle"
                          for x in view.own_unit_objects()) else 1.0

    def _on_overwatch(self, d: Decision, view: SideView, options: list[Any]) -> Any:
        return self._declaration(d, view, options, overwatch=True, threshold=0.10)

    def _on_atgm(self, d: Decision, view: SideView, options: list[Any]) -> Any:
        best: Any = "pass"
        best_p = 0.02
        for o in options:
            if not isinstance(o, dict):
                continue
            f, t = view.unit(o["firer"]), view.unit(o["target"])
            p = self._best_p(view, f, t, missile=True)[1] * rules_of(view).card(t.type, t.side).points[0] / 80
            if p > best_p:
                best, best_p = o, p
        return best

    def _on_hit_angle(self, d: Decision, view: SideView, options: list[Any]) -> Any:
        """MBT 7.4.5.2.1: pick the angle whose armour is thickest against this shot."""
        target = view.unit(d.context["target"])
        card = rules_of(view).card(target.type, target.side)

        def armour(angle: str) -> int:
            return sum(v for (e, el, a, _loc), v in card.armor.items()
                       if e == "KE" and el == "Level" and a == angle)

        return max(options, key=lambda a: (armour(a), -options.index(a)))

    def _on_move_unit(self, d: Decision, view: SideView, options: list[Any]) -> Any:
        info = rules_of(view).info
        for o in options:  # Advanced MBT 15.5: a leg unit in good cover near the enemy digs in
            if isinstance(o, list) and o[0] == "full_cover":
                u = view.unit(o[1])
                if u.hex is not None and max(COVER.get(k, 0.0) for k in info.kinds[u.hex]) >= 3.0 \
                        and self._enemy_near(view, u.hex, self.dismount_range):
                    return o
        units = [o for o in options if o != "done" and not isinstance(o, list)]
        # a carrier first, so that the squads waiting in its hex ride with it (MBT 15.3.2.3)
        from hexwar.plugins.mbt.transport import transport_value

        carriers = [o for o in units
                    if transport_value(rules_of(view).card(view.unit(o).type,
                                                          view.unit(o).side)) is not None]
        return (carriers or units)[0] if units else "done"

    def _position_score(self, view: SideView, u: Unit, h: Hex, facing: int,
                        enemies: list[Unit],
                        memo: dict[Hex, tuple[float, list[int | None]]] | None = None) -> float:
        """How good ``h`` facing ``facing`` is for ``u``. ``memo``: what does not depend on the
        facing, per hex, for scoring the six facings of one hex (the same sums, so the same
        floats)."""
        hit = memo.get(h) if memo is not None else None
        if hit is None:
            hit = self._hex_score(view, u, h, enemies)
            if memo is not None:
                memo[h] = hit
        s, wants = hit
        for want in wants:  # each enemy in sight, in order: +0.5 when faced
            if want is None or want == facing:
                s += 0.5
        s -= self.exposure_weight * len(wants)
        if not enemies and facing == self._toward_enemy_facing(view):
            s += 0.3
        return s

    def _hex_score(self, view: SideView, u: Unit, h: Hex,
                   enemies: list[Unit]) -> tuple[float, list[int | None]]:
        """The facing-free part of :meth:`_position_score`: cover, height and objectives, and the
        direction to face each enemy that sees ``h`` (``None``: any facing, the same hex)."""
        info = rules_of(view).info
        kinds = info.kinds[h]
        s = max(COVER.get(k, 0.0) for k in kinds) + 1.2 * (info.height[h] > 0)
        objs = info.objectives
        if self._goals is not None:
            # Advanced Game (MBTD-87): toward the nearer of the open objectives and the enemy
            # (seen or likely), so that the force takes the objectives on its way to contact
            open_objs, enemy_at = self._goals
            s -= self.objective_pull * self._goal_distance(h, open_objs, enemy_at)
            if h in open_objs:
                s += self.objective_bonus
        elif objs:
            open_objs = self._open_objs  # listed once per move decision (MBTD-196)
            dist = min(h.distance(o) for o in (open_objs or objs))
            s -= (self.objective_pull if open_objs else self.hold_pull) * dist
            if h in open_objs:
                s += self.objective_bonus
        if self._goals is not None and u.state.get("carrying") and self._unload_cover(
                view, h, enemies):
            s += self.unload_pull  # MBTD-120: carry the squads into cover to set them down
        if self._goals is not None and not u.state.get("mounted") and any(
                e.hex is not None and e.hex.distance(h) <= 2 for e in enemies):
            # MBTD-107: a dismounted squad is drawn next to an enemy it could close-assault well
            # (it takes CA orders there next Turn, MBT 13.3, 14.5.1), and half as much toward one
            # two hexes away
            value = self._best_assault(view, u.id, enemies, at=h)[0] / self.assault_worth
            if value >= 1.0:
                s += self.assault_pull * min(value, 1.5)
            elif rules_of(view).card(u.type, u.side).kind == "leg":
                near = [self._attack_value(view, u.id, e, at=h) / self.assault_worth
                        for e in enemies if e.hex is not None and e.hex.distance(h) == 2
                        and rules_of(view).card(e.type, e.side).kind == "vehicle"]
                if near and max(near) >= 1.0:
                    s += 0.5 * self.assault_pull * min(max(near), 1.5)
        wants: list[int | None] = []
        seen = info.visible(h, [e.hex for e in enemies if e.hex is not None
                                and h.distance(e.hex) <= 20])  # one batch from h
        hull = self._goals is not None and rules_of(view).card(u.type, u.side).kind == "vehicle"
        for e in enemies:
            if e.hex is None:
                continue
            r = h.distance(e.hex)
            if r <= 20 and e.hex in seen:
                dirs = arc_directions(h, e.hex)
                wants.append(dirs[0] if dirs else None)
                if hull and rules_of(view).hull_down(u.id, h, e.id):
                    # Advanced MBT 13.2.2.3 (MBTD-153): hull down to this enemy, its shots
                    # miss the lower hull: most of the exposure is taken back
                    s += self.hull_down_weight
        return s, wants

    def _goal_distance(self, h: Hex, open_objs: list[Hex], enemy_at: list[Hex]) -> int:
        """Advanced Game (MBTD-87): how far ``h`` is from the nearer of the open objectives and
        the enemy (within ``close_to`` hexes of it counts as there). Kept per hex while the
        goals stay the same: the moves of a Turn score the same hexes against the same goals, a
        row of up to a few dozen hexes where the enemy set up (MBTD-196)."""
        key = (tuple(open_objs), tuple(enemy_at), self.close_to)
        memo = self._goal_dist
        if memo is None or memo[0] != key:
            memo = self._goal_dist = (key, {})
        got = memo[1].get(h)
        if got is None:
            # min over the enemy of (d - close_to) floored at 0 is (nearest d - close_to) floored
            dists = list(map(h.distance, open_objs))
            near = min(map(h.distance, enemy_at), default=None)
            if near is not None:
                dists.append(max(0, near - self.close_to))
            got = memo[1][h] = min(dists, default=0)
        return got

    def _on_move_to(self, d: Decision, view: SideView, options: list[Any]) -> Any:
        u = view.unit(d.context["unit"])
        enemies = [e for e in self._known_enemies(view) if alive(e)]
        best: Any = None
        best_s = -1e9
        assert u.hex is not None
        memo: dict[Hex, tuple[float, list[int | None]]] = {}
        self._goals = self._move_goals(view, u) if rules_of(view).advanced else None
        # Basic Game: the objectives the side does not hold, the same for every hex scored
        control = view.system_state.get("control") or {}
        self._open_objs = [o for o in rules_of(view).info.objectives
                           if control.get(view.board.label(o)) != u.side]
        if "stay" in options:
            best, best_s = "stay", self._position_score(view, u, u.hex, u.facing, enemies,
                                                        memo) + 0.2
        hexes: dict[str, Hex] = {}  # each hex is offered in up to six facings: read it once
        for o in options:
            if not isinstance(o, list):  # "stay" is scored above; the AI never exits (MBT 8.7)
                continue
            h = hexes.get(o[0])
            if h is None:
                h = hexes[o[0]] = view.board.parse(o[0])
            s = self._position_score(view, u, h, int(o[1]), enemies, memo) + self.rng.random() * 0.3
            if s > best_s:
                best, best_s = o, s
        return best

    def _on_pivot(self, d: Decision, view: SideView, options: list[Any]) -> Any:
        u = view.unit(d.context["unit"])
        assert u.hex is not None
        enemies = [e for e in self._known_enemies(view) if alive(e) and e.hex is not None]
        if enemies:
            near = min(enemies, key=lambda e: u.hex.distance(e.hex) if e.hex and u.hex else 99)
            assert near.hex is not None
            return self._facing_to(u.hex, near.hex, u.facing)
        return u.facing

    def _on_turret(self, d: Decision, view: SideView, options: list[Any]) -> Any:
        u = view.unit(d.context["unit"])
        assert u.hex is not None
        enemies = [e for e in self._known_enemies(view) if alive(e) and e.hex is not None]
        if enemies:
            near = min(enemies, key=lambda e: u.hex.distance(e.hex) if e.hex and u.hex else 99)
            assert near.hex is not None
            want = self._facing_to(u.hex, near.hex, u.facing)
        else:
            want = self._toward_enemy_facing(view) if u.hex else u.facing
        facings = sorted({o[0] for o in options},
                         key=lambda f: (min((f - want) % 6, (want - f) % 6), f))
        return [facings[0], "open"]

