"""A sensible Firepower AI (``--players ai``): greedy, one Action at a time, with a position
evaluation.

* Set-up: forward hexes of its zone with cover (tree, rough) or a fence in front, spread out so a
  grenade cannot catch many, facing the enemy.
* Impulses: the soldiers with the best thing to do act first.
* Actions: fire where the expected kills are good (hit number against every modifier,
  Firepower 6.3.6), grenades at stacks, melee only at favourable odds (Firepower 6.5.2), otherwise
  move to where the enemy's fire is weak and his own is good, toward the far side of the fold as
  the Turns run out (Firepower 7), and go Crouching or Prone when exposed. Movement is judged by
  short plans (stand up, turn, go straight as far as the MF allow, then crouch or go prone), so a
  move whose first Action gains nothing by itself (a turn before a dash) is still found.
* Set-up spreads the soldiers out (``STACK = 1``): stacks move together in one Impulse
  (Firepower 6.2.6) but a burst or a grenade catches all of them, and in trials stacked set-ups
  lost more than they gained.

In the Advanced Game's terrain (Firepower 8.2) it counts a building's walls as cover and an upper
floor's windows as sight over the street, sets its defenders up in the buildings, goes up stairs
and through doors and windows, opening closed ones from inside to fire out of them or go
through (Firepower 11.1.9, 11.1.3, FPD-160), closes one the enemy fires in by when it does not
need it to fire (FPD-182), counts the concealment inside a building, a tunnel or water in its
estimate of fire (Firepower 12.2.4, FPD-179), chooses the defender's closed doors and windows at
set-up (Firepower 8.2.5, FPD-180), breaks doors open as the attacker and heads for the
scenario's objectives, takes the place round a tree, stump or well that covers it against the
known enemy (Firepower 10.4, FPD-161); it asks ``view.rules`` what walls and floors block
(docs/decisions.md FPD-69, the batch of FPD-99). It climbs walls and height hexsides it cannot
cross (Firepower 11.1.11, FPD-100), gets into foxholes, trenches and bunkers under fire
(Firepower 8.8.1, FPD-101), lets its leaders activate the soldiers of their hex where those have
something to do (Firepower 11.4, FPD-102) and goes down tunnels out of the enemy's fire
(Firepower 8.8.8, 11.5, FPD-103). It does not climb a building's outer walls (FPD-177).

It decides from its side's view alone (docs/decisions.md CORE-55): the soldiers its view shows
(everything on the board is open in the Basic Game, Firepower 6.1), the public state
(``view.system_state``: board sides, the Impulse Phase) and the rules computations of
``view.rules`` (``knowledge.py``: terrain, hit numbers, checks of its own Actions).
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from hexwar.core.errors import RulesError
from hexwar.core.hexgrid import Hex, in_arc, opposite
from hexwar.core.types import Modifier, total
from hexwar.plugins.firepower import combat
from hexwar.plugins.firepower.los import basic_los
from hexwar.plugins.firepower.soldiers import Soldier
from hexwar.plugins.firepower.tables import card

if TYPE_CHECKING:
    from collections.abc import Callable

    from hexwar.core.engine.decisions import Decision
    from hexwar.core.engine.view import SideView
    from hexwar.plugins.firepower.advanced_terrain import AdvMap, Opening
    from hexwar.plugins.firepower.bridges import Bridge
    from hexwar.plugins.firepower.knowledge import FirepowerRules
    from hexwar.plugins.firepower.terrain import FpMap

KILL = 10.0
#: a soldier's head above his floor by his posture, in heights (Firepower 12.1)
_HEAD = {"stand": 2, "crouch": 1, "prone": 0}


def rules_of(view: SideView) -> FirepowerRules:
    rules: FirepowerRules = view.rules
    return rules


def _basic_mod(m: FpMap, firer: Soldier, target: Soldier, noncombat_mf: int) -> float | None:
    """Basic Game: the sum of the firing modifiers of ``firer``'s fire at ``target`` (FPD-201:
    the sum alone, not the Modifier records), or ``None`` when the line of sight is blocked
    (Firepower 6.3.4, 6.3.6.2)."""
    los = basic_los(m, firer.hex, target.hex, firer_posture=firer.posture,
                    firer_side=firer.fence_side, target_posture=target.posture,
                    target_side=target.fence_side)
    if los.blocked:
        return None
    return float(combat.fire_modifier_sum(m, firer, target, los, noncombat_mf))


class FirepowerAI:
    name = "ai"

    #: weights of the position evaluation (threat = expected hits the enemy can score)
    W_THREAT = 3.0
    W_OFFENSE = 3.0
    W_ADVANCE = (0.2, 1.0)   # per column toward the fold: early Turns, last two Turns
    W_BEYOND = 3.0           # a survivor beyond the fold scores 3 VP (Firepower 7)
    STACK = 1                # soldiers per hex at set-up
    W_CHARGE = 6.0           # away from armed demolition charges (FPD-158)
    RUSH = True              # late Turns: activate the soldiers nearest the fold first
    PLAN = True              # judge movement by short plans, not single Actions
    W_SMOKE = 0.15           # Advanced Game: expected kills saved per enemy line a smoke screens
    DEFENCE_COVER = 0.5      # Advanced Game: the enemy's hits left on a soldier in a position
    W_CLIMB = 0.6            # Advanced Game: what the Impulses of a climb over a wall cost
    CLIMB_MF = 4             # Advanced Game: MF counted in a plan for the climb's first Impulse
    W_WAIT = 0.4             # Advanced Game: a door or window crossed an Impulse later (FPD-160)
    CLOSE_MARGIN = 0.3       # Advanced Game: what closing a door or window must save (FPD-182)

    def __init__(self, side: str, seed: int, **weights: Any) -> None:
        self.side = side
        self._opts: list[Any] = []
        self._rng = random.Random(f"{seed}:{side}:firepower-ai")
        #: kept for the game's terrain (FPD-192): pair figures, and the columns of hexes
        self._pair_memo: tuple[FpMap, dict[tuple[Any, ...], float]] | None = None
        self._cols: tuple[FpMap, dict[Hex, int]] | None = None
        #: FPD-204: (the pair figures they go with, the sets of enemies seen, the sums)
        self._sum_memo: tuple[dict[tuple[Any, ...], float], dict[tuple[Soldier, ...], int],
                              dict[tuple[Any, ...], float]] | None = None
        self._last_theirs: tuple[list[Soldier], int] | None = None
        for k, v in weights.items():
            setattr(self, k, v)

    # -- entry point -------------------------------------------------------------------------------
    def choose(self, decision: Decision, view: SideView) -> Any:
        self._memo: dict[tuple[Any, ...], float] = {}   # per decision: the state is fixed
        self._prog_memo: dict[Hex, float] = {}
        self._adv_pos_memo: dict[tuple[Hex, int], float] = {}
        #: closed doors and windows counted open by a plan's look ahead, and a memo for each
        #: set of them (FPD-160)
        self._opened: frozenset[str] = frozenset()
        self._open_memos: dict[frozenset[str], dict[tuple[Any, ...], Any]] = {}
        #: open ones counted closed by the look ahead at closing one (FPD-182)
        self._shut: frozenset[str] = frozenset()
        self._adv_setup(view)
        kind = decision.kind
        opts = list(decision.options or [])
        if kind == "firepower.crater" and opts:
            return self._crater(view, opts)
        if kind == "firepower.tunnels" and opts:
            return tunnel_plan(opts)
        if kind == "board_side":
            return opts[0]
        if kind == "firepower.openings":
            return self._openings(view, opts)
        if kind == "place":
            return self._place(view, decision, opts)
        if kind == "impulse":
            return self._impulse(view, opts)
        if kind == "action":
            got = self._action(view, opts)
            self._note_opened(view, got)
            return got
        return self._rng.choice(opts)

    # -- the Advanced Game's terrain (Firepower 8.2, 12.1) -------------------------------------------
    def _adv_setup(self, view: SideView) -> None:
        """What the Advanced terrain needs this decision: the soldiers' floors and Up heights
        (their view's state), the objectives of the scenario (public)."""
        rules = rules_of(view)
        self._sight_rules = rules  # one line-of-sight world for the whole decision
        self._adv = bool(getattr(rules, "advanced", lambda: False)())
        # Firepower 8.8.5.4 (FPD-121): roadblocks are fence pictures to the fence reading too
        # (with no roadblock on the board it is the Basic map itself)
        self._fences = rules.sight_map() if hasattr(rules, "sight_map") else None
        self._floors: dict[str, tuple[int, int | None]] = {}
        #: soldiers under the ground (Firepower 8.8.8) and in a foxhole, trench or bunker
        #: (Firepower 8.8.1), as the side's view shows them
        self._tunnel: set[str] = set()
        self._defence: dict[str, str] = {}
        self._climbing: set[str] = set()
        #: own soldiers who crew a weapon unit (Firepower 10.1): the postures it is not fired
        #: from (its WEAPON CHART Posture column's "-", Firepower 10.7 item 10)
        self._crewing: dict[str, set[str]] = {}
        self._guns: set[str] = set()
        #: Firepower 12.2.4 (FPD-179): where each known soldier is now, and those on a roof or
        #: a bridge's deck there (their place's concealment reads it)
        self._here: dict[str, Hex] = {}
        self._aloft: dict[str, tuple[bool, bool]] = {}
        if not self._adv:
            return
        from hexwar.plugins.firepower.weapon_chart import weapon

        units = {w["id"]: w["model"] for w in rules.weapon_units()}
        self._guns = set(units)
        for u in view.own_unit_objects():
            gun = u.state.get("crew_of")
            if gun in units:
                cols = weapon(units[gun]).posture
                self._crewing[u.id] = {p for p, c in zip(("stand", "crouch", "prone"), cols,
                                                         strict=False) if c == "-"}
        for u in view.known_units():
            f = u.state.get("floor")
            up = u.state.get("up")
            lift = u.state.get("stands_at")
            if u.state.get("deck") and isinstance(lift, int) and up is None:
                # Firepower 8.9: on a bridge's deck his head is the deck's height up (FPD-127)
                up = lift + {"stand": 2, "crouch": 1, "prone": 0}.get(
                    str(u.state.get("posture", "stand")), 2)
            self._floors[u.id] = (int(f) if isinstance(f, int) else 1,
                                  int(up) if isinstance(up, int) else None)
            if u.state.get("tunnel"):
                self._tunnel.add(u.id)
            d = u.state.get("in_defence")
            if isinstance(d, str):
                self._defence[u.id] = d
            if isinstance(u.state.get("climb"), dict):
                self._climbing.add(u.id)
            if u.hex is not None:
                self._here[u.id] = u.hex
                self._aloft[u.id] = (u.state.get("roof") is not None, bool(u.state.get("deck")))
        st = view.system_state
        self._objectives = [rules.map.parse(x) for x in st.get("objectives") or []]
        self._attacking = st.get("objective_side") == self.side

    def _fence_map(self, view: SideView) -> FpMap:
        """The terrain the AI reads fences from: with the roadblocks in the Advanced Game."""
        got: FpMap | None = getattr(self, "_fences", None)
        return got if got is not None else rules_of(view).map

    def _loc(self, s: Soldier, floor: int | None = None) -> tuple[Hex, int, int]:
        f, up = self._floors.get(s.id, (1, None))
        if floor is not None:
            f, up = floor, None
        head = up if up is not None else _HEAD.get(s.posture, 2)
        return s.hex, f, head

    def _blocked(self, view: SideView, a: Soldier, b: Soldier) -> bool:
        """Firepower 12.1: the real Advanced line of sight between two soldiers (walls, floors,
        heights with the LOS CHART; ``view.rules.sight_blocks``)."""
        if not self._adv:
            return False
        key = ("blocked", self._loc(a), self._loc(b))
        memo: dict[tuple[Any, ...], Any] = self._memo
        if key not in memo:
            self._see_all(view, a, [b])
        return bool(memo[key])

    def _see_all(self, view: SideView, a: Soldier, others: list[Soldier]) -> list[bool]:
        """Ask the line of sight from ``a`` to every soldier of ``others`` not yet known this
        decision, in one batch (one line-of-sight world per decision); whether each of
        ``others`` is blocked from ``a`` (the line is the same both ways)."""
        memo: dict[tuple[Any, ...], Any] = self._memo
        src = self._loc(a)
        keys = [("blocked", src, self._loc(o)) for o in others]
        todo = [k[2] for k in keys if k not in memo]
        if not todo:
            return [bool(memo[k]) for k in keys]
        rules = getattr(self, "_sight_rules", None) or rules_of(view)
        opened: frozenset[str] = getattr(self, "_opened", frozenset())
        shut: frozenset[str] = getattr(self, "_shut", frozenset())
        got = (rules.sight_blocks(src, todo, opened, shut) if shut
               else rules.sight_blocks(src, todo, opened) if opened
               else rules.sight_blocks(src, todo))
        for loc, blocked in zip(todo, got, strict=True):
            memo[("blocked", src, loc)] = blocked
            memo[("blocked", loc, src)] = blocked  # the line is the same both ways
        return [bool(memo[k]) for k in keys]

    def _concealment(self, view: SideView, s: Soldier) -> Modifier | None:
        """Firepower 12.2.4 (FPD-179): the +1 the enemy's L fire takes at ``s`` for his place
        (inside a building, in a tunnel, swimming or fording), as the fire reads it
        (``view.rules.place_concealment``); None in the Basic Game or where nothing conceals
        him. ``s`` may be a soldier of a plan: moved, on another floor or the roof."""
        if not getattr(self, "_adv", False):
            return None
        rules = rules_of(view)
        if not hasattr(rules, "place_concealment"):
            return None
        f = self._floors.get(s.id, (1, None))[0]
        here = self._here.get(s.id) == s.hex
        roof, deck = self._aloft.get(s.id, (False, False)) if here else (False, False)
        am = rules.adv_map()
        roof = roof or (am.building(s.hex) is not None and f > am.floors(s.hex))
        if not here and am.is_water(s.hex):
            # a plan walks into water only along a bridge's deck (Firepower 8.9)
            deck = s.hex in (rules.bridges() if hasattr(rules, "bridges") else {})
        tunnel = s.id in self._tunnel
        key = ("conceal", s.hex, s.posture, roof, tunnel, deck)
        memo: dict[tuple[Any, ...], Any] = self._memo
        if key not in memo:
            memo[key] = rules.place_concealment(s.hex, posture=s.posture, roof=roof,
                                                tunnel=tunnel, deck=deck)
        got: Modifier | None = memo[key]
        return got

    @staticmethod
    def _concealed(mods: list[Modifier], conceal: Modifier | None) -> list[Modifier]:
        """Firepower 12.2.4, FPD-159: the place's concealment added to the modifiers of a shot,
        once (a tree's, a scrub's or a hedge's concealment already counted is the same +1)."""
        if conceal is None or any(m.name == conceal.name for m in mods):
            return mods
        return [*mods, conceal]

    def _adv_position(self, view: SideView, me: Soldier) -> float:
        """Firepower 8.2.3: a building's walls are cover, an upper floor sees over the street;
        the objectives of hexwar's own scenarios (Firepower 23.6) draw the attacker and hold the
        defender."""
        if not self._adv:
            return 0.0
        f = self._floors.get(me.id, (1, None))[0]
        # per decision: the objectives, the Turn, the score and the enemy are fixed in it
        memo: dict[tuple[Hex, int], float] | None = getattr(self, "_adv_pos_memo", None)
        if memo is not None:
            got = memo.get((me.hex, f))
            if got is None:
                got = memo[(me.hex, f)] = self._adv_position_of(view, me, f)
            return got
        return self._adv_position_of(view, me, f)

    def _adv_position_of(self, view: SideView, me: Soldier, f: int) -> float:
        """:meth:`_adv_position` worked out for ``me`` on floor ``f``."""
        m = rules_of(view).adv_map()
        score = 0.0
        if m.building(me.hex) is not None:
            score += 1.0 + 0.4 * (f - 1)
        if self._objectives:
            d = min(me.hex.distance(h) for h in self._objectives)
            if self._attacking:
                late = view.turn >= view.turns - 1
                score += (6.0 if late else 4.0) * (1.0 - min(d, 30) / 30.0) + (2.0 if d == 0
                                                                                else 0.0)
            else:
                score += 1.5 if d == 0 else -0.1 * min(d, 6)
                score -= self._sally(view, me)
        return score

    def _sally(self, view: SideView, me: Soldier) -> float:
        """Firepower 23.6: a defender behind on points after the first Turn (the attacker has
        kept out of reach and has more survivors) goes out to find him: a pull
        toward the nearest enemy (FPD-108)."""
        vp = view.system_state.get("victory_points") or {}
        mine = float(vp.get(self.side, 0))
        other = max((float(v) for s, v in vp.items() if s != self.side), default=0.0)
        if mine > other or view.turn < 2:
            return 0.0
        near = min((me.hex.distance(u.hex) for u in view.enemy_unit_objects()
                    if u.hex is not None and not u.state.get("eliminated")), default=0)
        return 0.5 * min(near, 20)

    def _own_mines(self, view: SideView) -> set[Hex]:
        """Firepower 12.4.4, 8.8.9: the hexes of the side's own live mines and PMN2 trip wires
        (its secret record, in its own view only). A mine goes off under whoever enters, his
        own side's soldiers too, so the AI does not walk into them (FPD-181)."""
        memo: dict[tuple[Any, ...], Any] | None = getattr(self, "_memo", None)
        if memo is not None and ("own_mines",) in memo:
            got: set[Hex] = memo[("own_mines",)]
            return got
        rec = view.system_state.get("secret")
        m = rules_of(view).map
        out: set[Hex] = set()
        for mine in (rec.get("mines") or []) if isinstance(rec, dict) else []:
            for lab in [mine.get("hex"), *(mine.get("trip") or [])]:
                if isinstance(lab, str):
                    out.add(m.parse(lab))
        if memo is not None:
            memo[("own_mines",)] = out
        return out

    def _crater(self, view: SideView, opts: list[Any]) -> Any:
        """Firepower 8.7: craters are cover (rough, a depression) on the attacker's way in."""
        m = rules_of(view).map
        fold = rules_of(view).fold_column()
        return min(opts, key=lambda o: (abs(rules_of(view).column_of(m.parse(o["hex"])) - fold
                                            + (3 if self._progress(view, m.parse(o["hex"])) > 0
                                               else -3)),
                                        self._rng.random()))

    # -- helpers -----------------------------------------------------------------------------------
    def _sol(self, view: SideView) -> tuple[dict[str, Soldier], list[Soldier], list[Soldier]]:
        sol = rules_of(view).soldiers()
        mine = [s for s in sol.values() if s.side == self.side]
        theirs = [s for s in sol.values() if s.side != self.side]
        return sol, mine, theirs

    def _threat(self, view: SideView, me: Soldier, theirs: list[Soldier]) -> float:
        """Expected hits the enemy could score on ``me`` next time (best weapon, any facing)."""
        memo: dict[tuple[Any, ...], float] | None = getattr(self, "_memo", None)
        adv = getattr(self, "_adv", False)
        key = ("threat", me.hex, me.posture, me.speed, me.fence_side, me.status,
               (self._loc(me), me.id in self._tunnel, self._defence.get(me.id)) if adv else None)
        if memo is not None and key in memo:
            return memo[key]
        if adv and me.id in self._tunnel:
            return 0.0  # Firepower 8.8.8: nothing sees a soldier under the ground
        if not adv:
            # Basic Game (FPD-204): the sum over the same enemies is kept for the game
            sums, tid = self._sums(view, theirs)
            got = sums.get((tid, key))
            if got is None:
                got = sums[(tid, key)] = sum(t for _, t in self._threats(view, me, theirs))
            if memo is not None:
                memo[key] = got
            return got
        threat = sum(t for _, t in self._threats(view, me, theirs))
        if adv and me.id in self._defence:
            # Firepower 8.8.2.1, 8.8.4, 12.2.3, 12.2.4: cover and concealment from every side
            threat *= self.DEFENCE_COVER
        if memo is not None:
            memo[key] = threat
        return threat

    def _threats(self, view: SideView, me: Soldier, theirs: list[Soldier]
                 ) -> list[tuple[Soldier, float]]:
        """Each enemy's expected hits on ``me`` next time (best weapon, any facing), those who
        can fire at him (no memo: :meth:`_threat` keeps the sum)."""
        adv = getattr(self, "_adv", False)
        m, c = self._fence_map(view), card()
        out: list[tuple[Soldier, float]] = []
        if not adv:
            # Basic Game: each enemy's figure depends on the two soldiers and the terrain alone
            # (FPD-192), so it is kept for the game
            pairs = self._pairs(m)
            tk = (me.hex, me.posture, me.fence_side, me.speed)
            for e in theirs:
                if e.stunned:
                    continue
                key = (True, e.weapon, e.hex, e.facing, e.posture, e.fence_side, e.status, *tk)
                best = pairs.get(key)
                if best is None:
                    best = pairs[key] = self._pair_threat(m, c, e, me)
                if best > 0.0:
                    out.append((e, best))
            return out
        # Advanced Game (below): _blocked alone decides the line (FPD-157)
        theirs = [e for e in theirs if e.id not in self._tunnel]
        sight = self._see_all(view, me, theirs)
        conceal = self._concealment(view, me)
        for e, blocked in zip(theirs, sight, strict=True):
            if e.stunned or blocked:
                continue
            rng = e.hex.distance(me.hex)
            w = c.weapons[e.weapon]
            best = 0.0
            mod: float | None = None  # the modifiers do not depend on the rate of fire
            for mode in w.modes:
                if not c.in_range(e.weapon, mode, rng):
                    continue
                if mod is None:
                    los = basic_los(m, e.hex, me.hex, firer_posture=e.posture,
                                    firer_side=e.fence_side, target_posture=me.posture,
                                    target_side=me.fence_side)
                    mod = total(self._concealed(combat.fire_modifiers(
                        m, e, me, los, 1 if not in_arc(e.hex, e.facing, me.hex) else 0),
                        conceal))
                p = combat.hit_probability(c.hit_number(e.weapon, mode, rng), mod)
                shots = (w.automatic[1] if mode == "auto" and w.automatic else w.semi or 1)
                best = max(best, 1 - (1 - p) ** shots)
            if best > 0.0:
                out.append((e, best))
        return out

    def _offense(self, view: SideView, me: Soldier, theirs: list[Soldier]) -> float:
        """Best single-shot chance against any enemy from this position and facing."""
        memo: dict[tuple[Any, ...], float] | None = getattr(self, "_memo", None)
        adv = getattr(self, "_adv", False)
        key0 = ("offense", me.weapon, me.hex, me.facing, me.posture, me.fence_side, me.status,
                (self._loc(me), me.id in self._tunnel) if adv else None)
        if memo is not None and key0 in memo:
            return memo[key0]
        if adv and me.id in self._tunnel:
            return 0.0  # Firepower 8.8.8: no fire from a tunnel
        m, c = self._fence_map(view), card()
        w = c.weapons[me.weapon]
        best = 0.0
        if not adv:
            # Basic Game (FPD-204): the best over the same enemies is kept for the game
            sums, tid = self._sums(view, theirs)
            kept = sums.get((tid, key0))
            if kept is not None:
                if memo is not None:
                    memo[key0] = kept
                return kept
            # Basic Game: the best chance at each enemy is kept for the game (FPD-192)
            pairs = self._pairs(m)
            fk = (me.weapon, me.hex, me.posture, me.fence_side, me.status)
            for e in theirs:
                if not in_arc(me.hex, me.facing, e.hex):
                    continue  # Firepower 6.3.3: only at a target in his front arc
                key = (False, *fk, e.hex, e.posture, e.fence_side, e.speed)
                got = pairs.get(key)
                if got is None:
                    got = pairs[key] = self._pair_offense(m, c, me, e)
                best = max(best, got)
            sums[(tid, key0)] = best
            if memo is not None:
                memo[key0] = best
            return best
        # Advanced Game (below): _blocked alone decides the line (FPD-157)
        theirs = [e for e in theirs if e.id not in self._tunnel
                  and in_arc(me.hex, me.facing, e.hex)]
        sight = self._see_all(view, me, theirs)
        for e, blocked in zip(theirs, sight, strict=True):
            rng = me.hex.distance(e.hex)
            if blocked:
                continue
            mod: float | None = None  # the modifiers do not depend on the rate of fire
            for mode in w.modes:
                if not c.in_range(me.weapon, mode, rng):
                    continue
                if mod is None:
                    los = basic_los(m, me.hex, e.hex, firer_posture=me.posture,
                                    firer_side=me.fence_side, target_posture=e.posture,
                                    target_side=e.fence_side)
                    mod = total(self._concealed(combat.fire_modifiers(m, me, e, los, 0),
                                                self._concealment(view, e)))
                best = max(best, combat.hit_probability(c.hit_number(me.weapon, mode, rng),
                                                        mod))
        if memo is not None:
            memo[key0] = best
        return best

    #: entries of the Basic Game's pair figures (FPD-192) before they are dropped: a game's
    #: soldiers meet in far fewer states than this
    PAIR_LIMIT = 200_000

    #: entries of the Basic Game's kept sums (FPD-204) before they are dropped
    SUM_LIMIT = 200_000

    def _sums(self, view: SideView, theirs: list[Soldier]
              ) -> tuple[dict[tuple[Any, ...], float], int]:
        """FPD-204: the Basic Game's threat and offense figures of a position against one set of
        enemies (the same soldiers in the same order: the sum is made in that order), kept
        with the pair figures they are made of (a new terrain, or the pair figures dropped,
        start them afresh; bounded by :data:`SUM_LIMIT`), and the number of ``theirs`` among
        the sets of enemies seen."""
        pairs = self._pairs(self._fence_map(view))
        got = self._sum_memo
        if got is None or got[0] is not pairs or len(got[2]) >= self.SUM_LIMIT:
            got = self._sum_memo = (pairs, {}, {})
            self._last_theirs = None
        last = self._last_theirs
        if last is not None and last[0] is theirs:
            return got[2], last[1]
        ids = got[1]
        sig = tuple(theirs)
        tid = ids.get(sig)
        if tid is None:
            tid = ids[sig] = len(ids)
        self._last_theirs = (theirs, tid)  # the list held: its id() is not reused meanwhile
        return got[2], tid

    def _pairs(self, m: FpMap) -> dict[tuple[Any, ...], float]:
        """FPD-192: the Basic Game's figures for one firer and one target, kept for the terrain
        ``m`` they were worked out on (a new map, with craters or for another game, starts
        afresh); bounded by :data:`PAIR_LIMIT`."""
        got = self._pair_memo
        if got is None or got[0] is not m or len(got[1]) >= self.PAIR_LIMIT:
            got = self._pair_memo = (m, {})
        return got[1]

    @staticmethod
    def _pair_threat(m: FpMap, c: Any, e: Soldier, me: Soldier) -> float:
        """Basic Game: ``e``'s expected hits on ``me`` with his best rate of fire, turning to
        him first when he is out of his arc (Firepower 6.3.3, 6.3.6.2.7)."""
        rng = e.hex.distance(me.hex)
        w = c.weapons[e.weapon]
        best = 0.0
        mod: float | None = None  # the line and the modifiers do not depend on the rate of fire
        for mode in w.modes:
            if not c.in_range(e.weapon, mode, rng):
                continue
            if mod is None:
                mod = _basic_mod(m, e, me, 1 if not in_arc(e.hex, e.facing, me.hex) else 0)
                if mod is None:
                    break  # the line is blocked
            p = combat.hit_probability(c.hit_number(e.weapon, mode, rng), mod)
            shots = (w.automatic[1] if mode == "auto" and w.automatic else w.semi or 1)
            best = max(best, 1 - (1 - p) ** shots)
        return best

    @staticmethod
    def _pair_offense(m: FpMap, c: Any, me: Soldier, e: Soldier) -> float:
        """Basic Game: ``me``'s best single-shot chance at ``e`` (in his arc: the caller's
        check, Firepower 6.3.3; his facing changes nothing else)."""
        rng = me.hex.distance(e.hex)
        best = 0.0
        mod: float | None = None  # the line and the modifiers do not depend on the rate of fire
        for mode in c.weapons[me.weapon].modes:
            if not c.in_range(me.weapon, mode, rng):
                continue
            if mod is None:
                mod = _basic_mod(m, me, e, 0)
                if mod is None:
                    break  # the line is blocked
            best = max(best, combat.hit_probability(c.hit_number(me.weapon, mode, rng), mod))
        return best

    def _progress(self, view: SideView, h: Hex) -> float:
        """How far toward (and past) the fold, in columns, for this side."""
        memo: dict[Hex, float] | None = getattr(self, "_prog_memo", None)
        if memo is not None:
            got = memo.get(h)
            if got is not None:
                return got
        bs = (view.system_state.get("board_side") or {}).get(self.side, "5/6")
        rules = rules_of(view)
        # a hex's column is the board's (labels never change): kept with the board's terrain
        cols = self._cols
        if cols is None or cols[0] is not rules.map:
            cols = self._cols = (rules.map, {})
        col = cols[1].get(h)
        if col is None:
            col = cols[1][h] = rules.column_of(h)
        fold = rules.fold_column()
        got = float(col - fold if bs == "5/6" else fold - col)
        if memo is not None:
            memo[h] = got  # per decision: the board side and the fold are fixed in it
        return got

    def _position(self, view: SideView, me: Soldier, theirs: list[Soldier]) -> float:
        m = rules_of(view).map
        turn = max(1, view.turn)
        prog = self._progress(view, me.hex) if not getattr(self, "_adv", False) else 0.0
        late = turn >= view.turns - 1
        score = 0.0
        score -= self.W_THREAT * self._threat(view, me, theirs)
        score += self.W_OFFENSE * self._offense(view, me, theirs)
        score += self.W_ADVANCE[1 if late else 0] * min(prog, 2.0)
        if prog > 0:
            score += self.W_BEYOND * (1.0 if turn == view.turns else 0.6 if late
                                      else 0.2)
        if m.cover.get(me.hex) in ("tree", "rough"):
            score += 0.5
        if me.running:
            score += 0.3
        if getattr(self, "_adv", False):
            score += self._adv_position(view, me)
            score -= self.W_CHARGE * charge_danger(view, me.hex)
        return score

    def _open_position(self, view: SideView, me: Soldier, theirs: list[Soldier],
                       opened: frozenset[str]) -> float:
        """:meth:`_position` with the closed doors and windows ``opened`` counted open
        (Firepower 11.1.9: a plan that opens them; FPD-160), with a memo of its own."""
        if not opened:
            return self._position(view, me, theirs)
        saved = (self._opened, self._memo)
        self._opened = saved[0] | opened
        self._memo = self._open_memos.setdefault(self._opened, {})
        try:
            return self._position(view, me, theirs)
        finally:
            self._opened, self._memo = saved

    def _note_opened(self, view: SideView, choice: Any) -> None:
        """FPD-182: the doors and windows this AI opened, by the Turn: one opened to be crossed
        in a later Impulse (FPD-160) is not closed meanwhile."""
        if not (isinstance(choice, dict) and choice.get("act") == "door"
                and choice.get("to") == "open") or not getattr(self, "_adv", False):
            return
        sol = rules_of(view).soldiers()
        me = sol.get(str(choice.get("unit")))
        if me is None:
            return
        floor = self._floors.get(me.id, (1, None))[0]
        o = rules_of(view).adv_map().opening(me.hex, me.hex.neighbor(int(choice["side"])),
                                             floor)
        if o is not None:
            self._opened_at = {**getattr(self, "_opened_at", {}), o.key: view.turn}

    def _close_value(self, view: SideView, me: Soldier, o: dict[str, Any],
                     theirs: list[Soldier]) -> float:
        """Firepower 11.1.9 (FPD-182): closing an open door or window of his hex (from inside,
        on his floor) is worth what it saves the soldiers of his side in that hex and floor,
        the only ones whose lines cross it: the enemy's fire it shuts out (each at his best
        facing, as he may turn), less its MF, when that is more than :data:`CLOSE_MARGIN`.
        It is not closed
        when one of them needs it to fire (his best shot, at any facing, goes out of it) nor
        when this AI opened it this Turn or the last (to be crossed, FPD-160)."""
        if not getattr(self, "_adv", False):
            return -1.0
        from hexwar.plugins.firepower.ai_doors import crosses, door_mf

        rules = rules_of(view)
        am = rules.adv_map()
        floor = self._floors.get(me.id, (1, None))[0]
        opening = am.opening(me.hex, me.hex.neighbor(int(o["side"])), floor)
        if opening is None or opening.inside != me.hex:
            return -1.0
        opened_at: dict[str, int] = getattr(self, "_opened_at", {})
        if opening.key in opened_at and view.turn - opened_at[opening.key] <= 1:
            return -1.0  # opened to be crossed (FPD-160): not shut again before
        if not any(crosses(opening, e.hex) for e in theirs):
            return -1.0  # no enemy's line comes in over its hexside: nothing to shut out
        _sol, mine, _theirs = self._sol(view)
        held = [s for s in mine if s.hex == me.hex and s.id not in self._tunnel
                and self._floors.get(s.id, (1, None))[0] == floor]
        saved = (self._shut, self._memo)
        gain = 0.0
        try:
            for s in held:
                turned = [s.with_(facing=f) for f in range(1, 7)]
                now = max(self._position(view, t, theirs) for t in turned)
                shot = max(self._offense(view, t, theirs) for t in turned)
                self._shut, self._memo = saved[0] | {opening.key}, {}
                shut = max(self._position(view, t, theirs) for t in turned)
                if max(self._offense(view, t, theirs) for t in turned) < shot - 1e-9:
                    return -1.0  # his best shot goes out of it: he needs it to fire
                self._shut, self._memo = saved
                gain += shut - now
        finally:
            self._shut, self._memo = saved
        gain -= 0.05 * door_mf()
        return gain if gain > self.CLOSE_MARGIN else -1.0

    # -- set-up ------------------------------------------------------------------------------------
    def _place(self, view: SideView, decision: Decision, opts: list[Any]) -> Any:
        m = rules_of(view).map
        placed = [u.hex for u in view.own_unit_objects() if u.hex is not None]
        best, best_s = opts[0], -1e9
        # the score of a hex (and floor) before its random part is the same for each facing
        # offered there: worked out once (the same operations in the same order)
        scored: dict[tuple[Any, Any], float] = {}
        for o in opts:
            k = (o["hex"], o.get("floor"))
            got = scored.get(k)
            if got is not None:
                s = got
                s += self._rng.random() * 0.3
                if s > best_s:
                    best, best_s = o, s
                continue
            h = m.parse(o["hex"])
            s = self._progress(view, h) * 0.6
            cov = m.cover.get(h)
            s += 2.0 if cov == "tree" else 1.5 if cov == "rough" else 0.5 if cov == "scrub" else 0
            same = sum(1 for p in placed if p == h)
            near = sum(1 for p in placed if 0 < p.distance(h) <= 2)
            if self.STACK > 1:
                # stacks of STACK soldiers: one Impulse moves them all (Firepower 6.2.6)
                s += 2.0 if 0 < same < self.STACK else -3.0 * same
                s -= 1.5 * near
            elif getattr(self, "_adv", False) and rules_of(view).adv_map().building(h):
                # Firepower 8.2.1: walls for cover, upper floors for sight; floors apart
                floor = int(o.get("floor", 1))
                same = sum(1 for u in view.own_unit_objects() if u.hex == h
                           and int(u.state.get("floor") or 1) == floor)
                s -= 2.5 * same + 0.8 * near
                s += 3.0 + 0.8 * (floor - 1)
            else:
                s -= 2.5 * (same + near)
            s -= 0.02 * abs(h.r + h.q / 2 - 16)
            scored[k] = s
            s += self._rng.random() * 0.3
            if s > best_s:
                best, best_s = o, s
        weapon = decision.context.get("weapon")
        choice = dict(best)
        choice["posture"] = "crouch" if weapon == "LMG" else "stand"
        if getattr(self, "_adv", False):
            return self._kit_place(view, decision, choice)
        return choice

    def _openings(self, view: SideView, opts: list[Any]) -> dict[str, list[str]]:
        """Firepower 8.2.5 (FPD-180): the defender's doors and windows at set-up. Those facing
        the enemy's side are closed (on the ground floor the attacker must then break in,
        Firepower 11.1.10; the defender opens one from inside for one MF when he needs it,
        11.1.9), except one of a hex and floor a soldier of the side holds whose shot out of it
        is worth more than the enemy's fire in through it (the position estimate's weights,
        with the concealment inside, FPD-179; any facing and posture: he may turn to it and
        crouch). Those facing away stay open (the defender's own ways out and looks round). A
        building the enemy's soldiers stand in keeps every one open (Firepower 8.2.5: the
        attacker's start open)."""
        from hexwar.plugins.firepower.ai_doors import crosses, faces_enemy

        rules = rules_of(view)
        if not hasattr(rules, "opening_names"):
            return dict(opts[0]) if opts else {"closed": []}
        _sol, mine, theirs = self._sol(view)
        enemies = [e.hex for e in theirs]
        # Firepower 8.2.5: the attacker's buildings start with every door and window open
        am = rules.adv_map()
        held = {am.building_of.get(h) for h in enemies} - {None}
        closed: list[str] = []
        for name, o in sorted(rules.opening_names().items()):
            if am.building_of.get(o.inside) in held:
                continue
            holders = [s for s in mine if s.hex == o.inside and s.id not in self._tunnel
                       and self._floors.get(s.id, (1, None))[0] == o.floor]
            if faces_enemy(o, lambda h: self._progress(view, h), enemies) and not (
                    holders and self._fires_out(view, o, holders, theirs, crosses)):
                closed.append(name)
        return {"closed": closed}

    def _fires_out(self, view: SideView, o: Opening, holders: list[Soldier],
                   theirs: list[Soldier], crosses: Callable[[Opening, Hex], bool]) -> bool:
        """Whether a soldier of ``holders`` has a shot out of opening ``o`` worth more than the
        enemy's fire in through it (the enemies whose line to him comes over its hexside)."""
        through = [e for e in theirs if crosses(o, e.hex)]
        if not through:
            return False
        saved = self._memo
        try:
            for s in holders:
                self._memo = {}  # the memo's keys do not name the enemies counted
                for p in ("stand", "crouch", "prone"):  # he may crouch at the window
                    at = s.with_(posture=p)
                    threat = sum(t for _, t in self._threats(view, at, through))
                    shot = max(self._offense(view, at.with_(facing=f), through)
                               for f in range(1, 7))
                    if self.W_OFFENSE * shot > self.W_THREAT * threat + 1e-9:
                        return True
        finally:
            self._memo = saved
        return False

    def _kit_place(self, view: SideView, decision: Decision, choice: dict[str, Any]
                   ) -> dict[str, Any]:
        """The Advanced Game's kit at set-up (FPD-107): a soldier carrying the rounds of his
        side's weapon unit is its crew, set up in its hex facing its way (Firepower 10.1), while
        its crew column is short; the defender's first soldiers go to the foxholes, trenches,
        bunkers and pillboxes, two to each, facing a door where it has one (Firepower 8.8.1,
        8.8.4), so that one Action puts them in."""
        from hexwar.plugins.firepower.weapon_chart import weapon

        rules = rules_of(view)
        uid = decision.context.get("unit")
        own = {u.id: u for u in view.own_unit_objects()}
        me = own.get(str(uid))
        if me is None:
            return choice
        m = rules.map
        zone = {o["hex"] for o in decision.options or [] if int(o.get("floor", 1)) == 1}
        carried = dict(me.state.get("equipment") or {})
        for wu in rules.weapon_units():
            if wu["side"] != self.side:
                continue
            at = m.parse(wu["hex"])
            there = sum(1 for u in own.values() if u.hex == at)
            if wu["hex"] in zone and there < weapon(wu["model"]).crew and any(
                    str(k).startswith(f"{wu['model']}AMO-") for k in carried):
                return {"hex": wu["hex"], "facing": wu["facing"], "posture": "crouch"}
        if getattr(self, "_attacking", False):
            return choice
        for h, (code, door) in sorted(rules.defences().items()):
            if code not in HOLD or sum(1 for u in own.values() if u.hex == h) >= 2:
                continue
            if m.label(h) in zone:
                return {"hex": m.label(h), "facing": door or choice["facing"], "posture": "stand"}
        return choice

    # -- impulses ----------------------------------------------------------------------------------
    def _impulse(self, view: SideView, opts: list[Any]) -> Any:
        """The hex (or soldier) whose Impulse promises most: a stack is worth the sum of what
        its soldiers can do, since all of them act in one Impulse (Firepower 6.2.6)."""
        _sol, mine, theirs = self._sol(view)
        by_id = {s.id: s for s in mine}
        single: dict[str, float] = {}
        for s in mine:
            v = 4.0 * self._offense(view, s, theirs) + 2.0 * self._threat(view, s, theirs)
            prog = self._progress(view, s.hex)
            v += 0.5 * max(0.0, 3.0 - max(0.0, prog))
            if self.RUSH and view.turn >= view.turns - 1 and prog <= 0:
                # late in the game, the soldiers nearest the fold go for its far side (Firepower 7)
                v += self.W_BEYOND * max(0.0, 1.0 - (-prog) / 8.0)
            single[s.id] = v
        best, best_s = "pass", -1e9
        for o in opts:
            if o == "pass":
                continue
            if o.get("enter_board"):
                v = entry_value(o)
                if v > best_s:
                    best, best_s = o, v
                continue
            ids = [i for i in o["units"] if i in by_id]
            if not ids:
                continue
            if o.get("hit_the_dirt"):
                # Advanced Game, Firepower 11.3.3: the whole squad goes Prone for one Impulse,
                # worth it only when its exposed soldiers can do little else
                v = sum(2.0 * self._threat(view, by_id[i], theirs)
                        - 4.0 * self._offense(view, by_id[i], theirs) for i in ids) - 1.0
            else:
                vals = sorted((single[i] for i in ids), reverse=True)
                v = vals[0] + 0.7 * sum(vals[1:])
            v += self._rng.random() * 0.2
            if v > best_s:
                best, best_s = o, v
        return best


    # -- actions -----------------------------------------------------------------------------------
    def _action(self, view: SideView, opts: list[Any]) -> Any:
        sol, _mine, theirs = self._sol(view)
        ph = view.system_state["phase"]
        best: Any = "end"
        best_s = 0.0
        base: dict[str, float] = {}
        plans: dict[str, dict[str, float]] = {}
        crews: dict[str, set[str]] = getattr(self, "_crewing", {})
        self._opts = opts
        # a stack fires once an Impulse (Firepower 6.3.1.3): a crew with a shot for its gun
        # does not spend it on their rifles (FPD-107)
        gunners = {str(o.get("unit")) for o in opts if isinstance(o, dict)
                   and o.get("unit") in crews and (
                       (o.get("act") == "grenade" and o.get("item") in self._guns)
                       or (o.get("act") == "load" and o.get("weapon") in self._guns))}
        gun_hexes = {sol[u].hex for u in gunners if u in sol}
        for o in opts:
            if o == "end":
                continue
            if o.get("act") == "fire" and o.get("unit") in sol \
                    and sol[o["unit"]].hex in gun_hexes:
                continue
            if o.get("unit") in crews and (o.get("act") in MOVES or (
                    o.get("act") == "posture" and o.get("to") in crews[o["unit"]])):
                continue  # FPD-107: a gun's crew stays with it, in a posture it fires from
            try:
                key = self._move_key(o)
                if key is not None and self.PLAN:
                    uid = o["unit"]
                    if uid not in plans:
                        plans[uid] = self._plans(view, ph, sol[uid], theirs, opts)
                    v = plans[uid].get(key, -1.0)
                else:
                    v = self._value(view, ph, o, sol, theirs, base)
            except RulesError:
                continue
            if v > best_s + 1e-9:
                best, best_s = o, v
        if getattr(self, "_adv", False):
            # Firepower 10.4.3: a new place costs no MF and ends nothing, so it comes first
            # (a shot may leave him no other Action to take it by); the best gain wins
            cover = self._cover_options(view, opts, sol, theirs)
            if cover:
                return max(cover, key=lambda x: x[1])[0]
        return best

    def _cover_options(self, view: SideView, opts: list[Any], sol: dict[str, Soldier],
                       theirs: list[Soldier]) -> list[tuple[dict[str, Any], float]]:
        """Firepower 10.4, 10.4.3 (FPD-161): for each active soldier in a tree, stump or well
        hex, the place round it that covers him against the known enemy's fire, worth the
        expected hits it saves, when it pays for a change (``ai_cover``). The ``cover_side``
        Action is not in the options list (it is checked when chosen)."""
        from hexwar.plugins.firepower.ai_cover import best_place

        rules = rules_of(view)
        if not hasattr(rules, "side_cover_kind") or not theirs:
            return []
        active = sorted({str(o["unit"]) for o in opts if isinstance(o, dict)
                         and isinstance(o.get("unit"), str) and o["unit"] in sol})
        own = {u.id: u for u in view.own_unit_objects()}
        out: list[tuple[dict[str, Any], float]] = []
        for uid in active:
            me, u = sol[uid], own.get(uid)
            if u is None or uid in self._tunnel or uid in self._climbing \
                    or u.state.get("up") is not None:  # Firepower 10.4.5: Up, no cover
                continue
            if rules.side_cover_kind(me.hex) is None:
                continue
            label = rules.map.label(me.hex)
            current = _place(u.state.get("cover_side"), label, me.facing)
            # Firepower 10.4.4: a place another of the side took first covers only him
            taken = {_place(o.state.get("cover_side"), label, 0) for o in own.values()
                     if o.id != uid and o.hex == me.hex
                     and isinstance(o.state.get("cover_side"), dict)}
            threats = [(e.hex, t) for e, t in self._threats(view, me, theirs)]
            got = best_place(me.hex, current, threats, taken, self._offense(view, me, theirs))
            if got is None:
                continue
            (at, toward), gain = got
            o = {"unit": uid, "act": "cover_side", "at": at, "toward": toward}
            try:
                rules.check_action(o)
            except RulesError:
                continue
            out.append((o, self.W_THREAT * gain))
        return out

    @staticmethod
    def _move_key(o: dict[str, Any]) -> str | None:
        act = o.get("act")
        if act == "enter":
            return "enter"
        if act in ("turn", "posture"):
            return f"{act}:{o['to']}"
        if act == "door" and o.get("to") == "open":
            return f"door:{o['side']}"  # Firepower 11.1.9 (FPD-160)
        if act == "through":
            return "through"  # Firepower 11.1.3 (FPD-160)
        return None

    def _plans(self, view: SideView, ph: dict[str, Any], me: Soldier, theirs: list[Soldier],
               opts: list[Any]) -> dict[str, float]:
        """Short movement plans for one soldier (stand up?, turn?, go straight up to his MF,
        then crouch or go prone?), their best gain over staying put, by the first Action.

        Costs come from the MOVEMENT FACTOR chart (Firepower 6.2): entering only the hex in
        front (Firepower 6.2.1), a hill or depression hexside adds a cross (Firepower 6.2.3),
        four new hexes mark Running (Firepower 4.5). A plan stops in a fence or hedge hex
        (crossing its picture is one more Action, Firepower 6.2.3) and before a hex holding
        enemies (melee is judged on its own).

        In a building (FPD-160) a plan may open a closed door or window of the hex it stops in
        (from inside, on his floor, Firepower 11.1.9) and turn to it, and on the ground floor go
        through a door or window in front, opening it first when it is closed, and walk on
        (Firepower 11.1.3: the crossing and the entering paid)."""
        from hexwar.plugins.firepower.ai_doors import crossing, door_mf, openable

        c, m = card(), self._fence_map(view)
        rules = rules_of(view)
        budget = rules.mf_left(ph, me.id)
        if me.id in ph["after"]:
            budget = min(budget, int(ph["after"][me.id]))
        now = self._position(view, me, theirs)
        enemy_hexes = {e.hex for e in theirs}
        entered0 = int(ph["entered"].get(me.id, 0))
        can_enter = {"unit": me.id, "act": "enter"} in opts
        start_pic = m.fence.get(me.hex) or m.hedge.get(me.hex)
        am = rules.adv_map() if getattr(self, "_adv", False) else None
        tunnel: set[str] = getattr(self, "_tunnel", set())
        # Firepower 8.9: bridges' decks, walked along at the paved cost (FPD-127)
        decks = rules.bridges() if hasattr(rules, "bridges") else {}
        me_deck = bool(decks) and any(u.id == me.id and u.state.get("deck")
                                      for u in view.own_unit_objects())
        # Firepower 11.1.9: the doors and windows he may open (not from a tunnel, a roof or Up)
        floor = self._floors.get(me.id, (1, None))[0]
        doors = (am is not None and hasattr(rules, "opening_open") and me.id not in tunnel
                 and me.id not in self._climbing and floor <= am.floors(me.hex))
        is_open = rules.opening_open if doors else (lambda k: True)
        dmf = door_mf() if doors else 0
        turn_mf = c.mf_cost("turn", me.posture)
        windows: dict[str, int] = dict(ph.get("windows") or {})
        out: dict[str, float] = {}

        def value(s: Soldier, used: int, opened: frozenset[str]) -> float:
            best = self._open_position(view, s, theirs, opened) - 0.05 * used
            for p in ("crouch", "prone"):
                if p != s.posture:
                    cost = c.mf_cost(f"to_{p}", s.posture)
                    if used + cost <= budget:
                        best = max(best, self._open_position(view, s.with_(posture=p), theirs,
                                                             opened) - 0.05 * (used + cost))
            return best

        def finish(key: str, s: Soldier, used: int, extra: float = 0.0,
                   opened: frozenset[str] = frozenset(), window: bool = True,
                   face: bool = False) -> None:
            best = value(s, used, opened) - extra
            if face and (used + turn_mf <= budget or extra > 0.0):
                # out of a door or window he turns to face whoever he can fire at (FPD-160)
                best = max([best, *(value(s.with_(facing=f), used + turn_mf, opened) - extra
                                    for f in range(1, 7) if f != s.facing)])
            if doors and window and am is not None:
                # and then open a closed door or window of the hex (FPD-160), perhaps turned
                # to look out of it
                for side, o in openable(am, s.hex, floor, is_open, opened):
                    if used + dmf > budget:
                        break
                    more = opened | {o.key}
                    best = max(best, value(s, used + dmf, more) - extra)
                    for f in (side, side % 6 + 1, (side - 2) % 6 + 1):
                        if f != s.facing and used + dmf + turn_mf <= budget:
                            best = max(best, value(s.with_(facing=f), used + dmf + turn_mf, more)
                                       - extra)
            gain = best - now
            if gain > out.get(key, -1e9):
                out[key] = gain

        # Firepower 11.1.9: first open a door or window of his hex, perhaps turning to it
        if doors and am is not None:
            for side, o in openable(am, me.hex, floor, is_open):
                if dmf > budget:
                    break
                finish(f"door:{side}", me, dmf, opened=frozenset({o.key}), window=False)
                for f in (side, side % 6 + 1, (side - 2) % 6 + 1):
                    if f != me.facing and dmf + turn_mf <= budget:
                        finish(f"door:{side}", me.with_(facing=f), dmf + turn_mf,
                               opened=frozenset({o.key}), window=False)

        starts: list[tuple[Soldier, int, str | None]] = [(me, 0, None)]
        for p in ("stand", "crouch", "prone"):
            if p != me.posture:
                cost = c.mf_cost(f"to_{p}", me.posture)
                if cost <= budget:
                    finish(f"posture:{p}", me.with_(posture=p), cost)
                    if p == "stand" or (p == "crouch" and me.posture == "prone"):
                        starts.append((me.with_(posture=p), cost, f"posture:{p}"))
        for s0, used0, key0 in starts:
            for d in range(1, 7):
                s, used, key = s0, used0, key0
                if d != s0.facing:
                    t = c.mf_cost("turn", s0.posture)
                    if used + t > budget:
                        continue
                    s, used = s0.with_(facing=d), used + t
                    key = key or f"turn:{d}"
                    finish(key, s, used)
                if start_pic is not None and not (d == me.facing and can_enter):
                    continue
                n = entered0
                deck = me_deck
                opened: frozenset[str] = frozenset()
                while True:
                    nxt = s.hex.neighbor(d)
                    if nxt not in m.hexes or nxt in enemy_hexes:
                        break
                    if me.id not in tunnel and nxt in self._own_mines(view):
                        break  # Firepower 12.4.4: his side's own mine goes off under him too
                    level = bool(decks) and _along_deck(decks, s.hex, nxt, deck)
                    if deck and not level:
                        break  # Firepower 8.9: off the deck only along the bridge
                    through = None
                    if level:
                        pass  # Firepower 8.9: on the deck, above the ground and water below
                    elif am is not None and am.wall_between(s.hex, nxt):
                        # Firepower 11.1.3: a building's wall only through a door or window
                        # (opened first from inside when closed, Firepower 11.1.9; FPD-160)
                        through = crossing(am, s.hex, nxt, floor, is_open, opened,
                                           windows) if doors else None
                        if through is None:
                            break
                    elif am is not None and (am.is_water(nxt) or am.is_water(s.hex)):
                        break  # Firepower 11.2.1.1: water needs other Actions
                    elif am is not None and _must_climb(am, s.hex, nxt):
                        if s.hex == me.hex and key is not None and s.posture == "stand":
                            # Firepower 11.1.11: turned to the wall, he climbs it (the scale
                            # Actions of later Impulses), worth the far side less their cost
                            finish(key, s.with_(hex=nxt), used + self.CLIMB_MF, self.W_CLIMB)
                        break
                    if through is not None:
                        cost = c.mf_cost("cross", s.posture) + c.mf_cost("enter", s.posture) \
                            + (dmf if through.opens else 0)
                        if key is None:
                            key = f"door:{d}" if through.opens else "through"
                    else:
                        if key is None and not can_enter:
                            break
                        key = key or "enter"
                        cost = c.mf_cost("enter", s.posture)
                        if m.contour_between(s.hex, nxt) and not level:
                            cost += c.mf_cost("cross", s.posture)
                    if used + cost > budget:
                        if through is not None and used + (dmf if through.opens else 0) \
                                <= budget and key is not None and key != "through":
                            # Firepower 11.1.3, 11.1.9: he turns (and opens it) now and goes
                            # through in a later Impulse, worth the far hex less the wait
                            finish(key, s.with_(hex=nxt, fence_side=None), budget,
                                   self.W_WAIT, opened | {through.opening.key}, window=False,
                                   face=True)
                        break
                    used, n = used + cost, n + 1
                    deck = level and nxt in decks
                    pic = m.fence.get(nxt) or m.hedge.get(nxt)
                    if through is not None and through.opens:
                        opened = opened | {through.opening.key}
                    s = s.with_(hex=nxt, speed="running" if n >= 4 else s.speed,
                                fence_side=opposite(d) if pic else None)
                    finish(key, s, used, opened=opened, face=through is not None)
                    if pic is not None or me.id in tunnel:
                        break  # in a tunnel, one hex at a time: only tunnel hexes go on
        return out

    def _value(self, view: SideView, ph: dict[str, Any], o: dict[str, Any], sol: dict[str, Soldier],
               theirs: list[Soldier], base: dict[str, float]) -> float:
        act = o["act"]
        c, m = card(), rules_of(view).map
        if act == "melee":
            n_att, defenders = len(o["units"]), [s for s in theirs if m.label(s.hex) == o["hex"]]
            mod = combat.melee_modifier(n_att, len(defenders))
            p = combat.hit_probability(combat.MELEE_HIT, mod.value if mod else 0)
            if p < 0.55:
                return -1
            return KILL * (p * len(defenders) - (1 - p) * n_att)
        if act == "activate":
            return self._activate_value(view, o, sol, theirs)
        me = sol[o["unit"]]
        if act == "fire":
            # the game's own procedure up to its first die: Basic or Advanced (Firepower 12)
            ctx = rules_of(view).preview_fire(me.id, o)
            shots = _shots(ctx, c, me, o["mode"])
            ev = 0.0
            for t in o["targets"]:
                p = combat.hit_probability(ctx.hit, total(ctx.modifiers[t]))
                ev += 1 - (1 - p) ** shots
            if o["mode"] == "auto":
                ev += 0.05 * sum(1 for s in theirs if s.hex == ctx.target_hex)
            after_mf = int(o.get("after", 0))
            ev -= 0.02 * after_mf
            if ev < 0.08:
                return -1
            return KILL * ev + (0.5 if after_mf and self._threat(view, me, theirs) > 0.3 else 0.0)
        if act == "grenade":
            ctx = rules_of(view).preview_fire(me.id, o)
            if "firing" in ctx.extra:  # the Advanced Game's fire at a hex (Firepower 12.3)
                return self._hex_value(view, ctx, sol, theirs)
            p_hit = combat.hit_probability(ctx.hit, total(ctx.modifiers["throw"]))
            assert ctx.target_hex is not None
            ev = 0.0
            for s in sol.values():
                d = s.hex.distance(ctx.target_hex)
                if d > 2:
                    continue
                mods = combat.blast_modifiers(c, m, s, ctx.target_hex, me.hex)
                pk = combat.hit_probability(5, total(mods))
                sign = 1.0 if s.side != self.side else -1.5
                ev += sign * (pk + (0.3 if d == 0 else 0.05))
            ev *= p_hit
            return KILL * ev if ev > 0.15 else -1
        # movement and posture: compare the position after the Action with the position now
        key = me.id
        if key not in base:
            base[key] = self._position(view, me, theirs)
        after = me
        if act == "enter":
            after = me.with_(hex=me.hex.neighbor(me.facing))
            n = int(ph["entered"].get(me.id, 0)) + 1
            if n >= 4:
                after = after.with_(speed="running")
            fm = self._fence_map(view)  # a roadblock too (FPD-121)
            pic = fm.fence.get(after.hex) or fm.hedge.get(after.hex)
            after = after.with_(fence_side=opposite(me.facing) if pic else None)
        elif act == "back":  # Advanced Game, Firepower 11.2.1.2: straight backwards
            after = me.with_(hex=me.hex.neighbor(opposite(me.facing)))
        elif act == "turn":
            after = me.with_(facing=o["to"])
        elif act == "posture":
            after = me.with_(posture=o["to"])
        elif act == "cross":
            after = me.with_(fence_side=rules_of(view).check_action(o)["to"])
        elif act in ("through", "ford", "swim"):
            # Firepower 11.1.3, 11.2.1.1, 11.2.3: into the hex in front
            after = me.with_(hex=me.hex.neighbor(me.facing))
            self._floors[me.id] = (1, None)
        elif act == "stairs":  # Firepower 11.1.8: up to the windows, or down
            return self._as_if(view, me, me, theirs, floor=int(o["to"])) - base[key] - 0.1
        elif act == "door" and o.get("to") == "close":
            return self._close_value(view, me, o, theirs)  # Firepower 11.1.9 (FPD-182)
        elif act in ("door", "break"):
            # Firepower 11.1.9, 11.1.10: an opening in front is worth opening for the attacker
            opens = o.get("to") == "open" or act == "break"
            going = getattr(self, "_attacking", False) or self._sally(view, me) > 0
            return 0.2 if opens and going else -1.0
        elif act == "scale":
            return self._scale_value(view, me, o, theirs, base[key])
        elif act == "position":
            return self._position_value(view, me, o, theirs)
        elif act == "tunnel":
            # Firepower 8.8.8, 11.5: down from a cave into the tunnel behind it, or up into it
            into = me.id not in self._tunnel
            after = me.with_(hex=me.hex.neighbor(me.facing))
            return self._as_if(view, me, after, theirs, tunnel=into) - base[key] - 0.1
        elif act == "climb":
            return -1.0
        elif act in ("load", "unload"):
            if o.get("item") is not None:
                return self._rgn_value(view, me, o, theirs)
            return loading_value(o)
        elif act == "acquire":
            return self._acquire_value(view, me, o)
        elif act == "arm":
            return arm_value(me, sol, theirs, self._tunnel)
        if after.hex != me.hex and after.hex in self._own_mines(view) \
                and me.id not in getattr(self, "_tunnel", set()):
            return -1.0  # Firepower 12.4.4: not into his side's own mine or trip wire (FPD-181)
        gain = self._position(view, after, theirs) - base[key]
        if act == "posture" and o["to"] == "stand" and me.posture == "prone":
            gain -= 0.3
        return gain - 0.05


    def _as_if(self, view: SideView, me: Soldier, after: Soldier, theirs: list[Soldier], *,
               tunnel: bool | None = None, defence: str | None = None,
               floor: int | None = None) -> float:
        """The position of ``after`` with ``me``'s tunnel, defence or floor changed for the
        count (the per-decision memo is set aside meanwhile: its keys read those)."""
        saved = (set(self._tunnel), dict(self._defence), dict(self._floors), self._memo)
        self._memo = {}
        if tunnel is not None:
            (self._tunnel.add if tunnel else self._tunnel.discard)(me.id)
        if defence is not None:
            if defence:
                self._defence[me.id] = defence
            else:
                self._defence.pop(me.id, None)
        if floor is not None:
            self._floors[me.id] = (floor, None)
        try:
            return self._position(view, after, theirs)
        finally:
            self._tunnel, self._defence, self._floors, self._memo = saved

    def _scale_value(self, view: SideView, me: Soldier, o: dict[str, Any],
                     theirs: list[Soldier], now: float) -> float:
        """Firepower 11.1.11: over a wall or a height hexside one height an Action. Worth
        starting when the far hex is worth more than here by more than the Impulses the climb
        takes; once started, a soldier Up on a wall goes on (back only toward a better hex)."""
        if o.get("what") in ("roof", "roof-down", "window"):
            return -1.0  # FPD-177: the AI does not climb a building's outer walls yet
        far = me.with_(hex=me.hex.neighbor(me.facing))
        if far.hex not in rules_of(view).map.hexes:
            return -1.0
        gain = self._as_if(view, me, far, theirs, floor=1) - now
        if me.id in self._climbing:
            # a climber half way is exposed: he finishes the climb, on to the far hex or back
            # to his own, whichever is worth more (FPD-100)
            return 1.0 + (gain if o.get("to") == "on" else 0.0)
        return gain - self.W_CLIMB if gain > self.W_CLIMB else -1.0

    def _position_value(self, view: SideView, me: Soldier, o: dict[str, Any],
                        theirs: list[Soldier]) -> float:
        """Firepower 8.8.1: into a foxhole, trench or bunker in the soldier's hex for its cover
        and concealment (Firepower 8.8.2.1, 12.2.3, 12.2.4) where the enemy can reach him or the
        side holds ground; out of it only when a move is worth more (FPD-101)."""
        now = self._position(view, me, theirs)
        if o.get("into", True):
            # in it he may still turn to face the enemy (the next Actions of his Impulse)
            gain = max(self._as_if(view, me, me.with_(facing=d), theirs, defence="position")
                       - (0.0 if d == me.facing else 0.05) for d in range(1, 7)) - now
            attacking = getattr(self, "_attacking", False)
            if attacking and view.turn >= view.turns - 1:
                return -1.0  # the last Turns are for going forward
            hold = 0.0 if attacking else 0.4
            return gain + hold if gain + hold > 0.05 else -1.0
        # coming out (Firepower 8.8.2, 8.8.4: before he may leave the hex): the attacker goes
        # on when the enemy cannot reach him there or the last Turns call him forward
        late = view.turn >= view.turns - 1
        if getattr(self, "_attacking", False) and (late or self._threat(view, me, theirs) < 0.05):
            return 0.3
        return -1.0

    # -- the Advanced Game's kit: weapon units, rounds, rifle grenades (FPD-107, FPD-108) ---------
    def _acquire_value(self, view: SideView, me: Soldier, o: dict[str, Any]) -> float:
        """Firepower 10.1, 11.1.6: crewing his side's weapon unit is worth more than a move
        (the gun fires only with its crew); so is taking the rounds his empty weapon needs."""
        what = str(o.get("what"))
        if o.get("from") is not None:
            return 2.0
        gun = next((w for w in rules_of(view).weapon_units() if w["id"] == what), None)
        if gun is None:
            return -1.0
        # the crew he completes gives every crewman the MF to fire it (Firepower 10.1.2.1);
        # one who carries its rounds is worth more than a rifle shot
        mine = next((u for u in view.own_unit_objects() if u.id == me.id), None)
        carried = dict(mine.state.get("equipment") or {}) if mine is not None else {}
        return 8.0 if any(str(k).startswith(f"{gun['model']}AMO-") for k in carried) else 1.5

    def _rgn_value(self, view: SideView, me: Soldier, o: dict[str, Any],
                   theirs: list[Soldier]) -> float:
        """Firepower 12.4.1.1: a rifle grenade is loaded (an Impulse Phase of notes) when an
        enemy in his front arc is within its reach, beyond its minimum range, and out of reach
        of a hand grenade (three hexes and more); his rifle does not fire meanwhile, so not when
        it has a good shot (FPD-108, FPD-183)."""
        from hexwar.plugins.firepower.weapon_chart import weapon

        if o.get("act") != "load":
            return -1.0
        w = weapon(str(o["item"]))
        # Firepower 12.4.1.1: it is fired in an Impulse he spends no other MF in, not even on a
        # turn, so only at an enemy in his front arc now
        near = min((me.hex.distance(e.hex) for e in theirs if in_arc(me.hex, me.facing, e.hex)),
                   default=99)
        lo = w.min_range or 3
        shots = [x for x in getattr(self, "_opts", []) if isinstance(x, dict)
                 and x.get("unit") == me.id and x.get("act") == "fire"]
        if not lo <= near <= 12 or shots:
            return -1.0
        # his rifle has no shot (the enemy low in a hole, FPD-108): the blast next Impulse
        # Phase is worth his Impulse
        return 0.6 + KILL * 0.35

    def _activate_value(self, view: SideView, o: dict[str, Any], sol: dict[str, Soldier],
                        theirs: list[Soldier]) -> float:
        """Firepower 11.4: activation costs nothing and lets the soldiers of the leader's hex
        act in this Impulse: worth what they can do there (their best shot, or getting out of
        the enemy's fire), little where they can do nothing (FPD-102)."""
        ids = [t for t in o.get("targets") or [] if t in sol]
        worth = sum(KILL * self._offense(view, sol[t], theirs)
                    + self.W_THREAT * self._threat(view, sol[t], theirs) for t in ids)
        return 0.5 + worth if worth > 0.5 else 0.05 * len(ids)

    def _hex_value(self, view: SideView, ctx: combat.FireContext, sol: dict[str, Soldier],
                   theirs: list[Soldier]) -> float:
        """Advanced fire at a hex (Firepower 12.3): grenades and mortars are worth the blast's
        expected kills and stuns among the enemy less those among its own (so they go into stacks
        and rooms, not beside friends); smoke is worth the enemy fire it blinds while its own
        soldiers stand in the open (Firepower 12.2.7); illumination only at night."""
        from hexwar.plugins.firepower.advanced_fire import blast_mods, blast_number, firing
        from hexwar.plugins.firepower.weapon_chart import weapon

        f = firing(ctx)
        assert ctx.target_hex is not None
        p_hit = 1.0 if f.ammo == "C" else combat.hit_probability(
            ctx.hit, total(ctx.modifiers.get("throw", [])))
        if f.ammo == "M":
            # smoke blinds the enemy in it and screens the lines of fire it lies across, worth
            # most while its own soldiers stand in the open within the enemy's reach
            from hexwar.plugins.firepower.terrain import intervening

            m = rules_of(view).map
            exposed = [s for s in sol.values() if s.side == self.side
                       and m.cover.get(s.hex) == "clear"
                       and any(s.hex.distance(e.hex) <= 15 for e in theirs)]
            lines = 0
            for e in theirs:
                for s in exposed:
                    screened = (e.hex == ctx.target_hex
                                or ctx.target_hex in intervening(e.hex, s.hex)
                                or (s.hex.distance(ctx.target_hex) <= 2
                                    and e.hex.distance(ctx.target_hex) < e.hex.distance(s.hex)))
                    lines += screened
            ev = self.W_SMOKE * lines * p_hit
            return KILL * ev if ev > 0.2 else -1
        if f.ammo == "U":
            oc = f.observation.get(ctx.target_hex, 1)
            return 0.5 * sum(1 for s in theirs if s.hex.distance(ctx.target_hex) <= 10) \
                if oc >= 2 else -1
        w = weapon(f.item)
        try:
            b = blast_number(f, w)
        except RulesError:
            return -1
        ev = 0.0
        for s in sol.values():
            d = s.hex.distance(ctx.target_hex)
            if d > 4:
                continue
            mods = blast_mods(f, s, ctx.target_hex, d, b, source=ctx.firer.hex)
            if mods is None:
                continue
            pk = combat.hit_probability(b, total(mods))
            sign = 1.0 if s.side != self.side else -1.5
            ev += sign * (pk + (0.3 if d == 0 else 0.05))
        ev *= p_hit
        # a grenade spent is a grenade gone: throw it only where it is worth it, and the last
        # rounds of a counted stock only where it is worth more (Firepower 8.5; FPD-108)
        left = f.rounds
        key = f.stock or f.item
        if left is None and key in f.equipment and f.item[:3] in ("HGN", "HRG", "RGN"):
            left = int(f.equipment[key])
        # (not a weapon unit's load, nor a rifle grenade loaded on the launcher: it is in the
        # gun, and only firing it lets the next in; FPD-191)
        scarce = left is not None and left <= 2 and f.weapon_unit is None \
            and not f.item.startswith("RGN")
        need = 0.2 + 0.15 * (3 - left) if scarce and left is not None else 0.2
        return KILL * ev if ev > need else -1


#: the defensive units a defender holds (Firepower 8.8.1: positions soldiers are "in")
HOLD = ("DFX", "SFX", "TRN", "BKR", "PBX")
#: the Actions that take a soldier out of his hex or turn him (a gun's crew does not)
MOVES = ("enter", "back", "turn", "through", "ford", "swim", "tunnel", "scale", "stairs")


#: Firepower 12.4.9: the distance from a charge within which the AI counts its blast as deadly
#: (DMC1's blast 9 reaches four hexes on the stand-in BLAST DIAGRAMS, weakening fast)
CHARGE_REACH = 1


def charge_danger(view: SideView, h: Hex) -> float:
    """Firepower 12.4.9 (FPD-158): 1 in the hex of an armed charge (public), 0.5 beside it,
    0.2 two hexes off."""
    charges = view.system_state.get("charges") or []
    if not charges:
        return 0.0
    m = rules_of(view).map
    worst = 0.0
    for c in charges:
        d = h.distance(m.parse(str(c["hex"])))
        if d <= 2:
            worst = max(worst, (1.0, 0.5, 0.2)[d])
    return worst


def arm_value(me: Soldier, sol: dict[str, Soldier], theirs: list[Soldier],
              tunnel: Any = ()) -> float:
    """Firepower 12.4.9, 11.1.13 (FPD-158): arming a charge in his hex is worth it when opposing
    soldiers on the surface lie within its blast and outnumber his friends there besides himself
    (he will walk away before it goes off, his next Impulse Phase's end)."""
    foes = sum(1 for s in theirs if s.hex.distance(me.hex) <= CHARGE_REACH
               and s.id not in tunnel)
    friends = sum(1 for s in sol.values() if s.side == me.side and s.id != me.id
                  and s.hex.distance(me.hex) <= CHARGE_REACH)
    if foes == 0 or foes <= friends:
        return -1.0
    return KILL * 0.45 * (foes - friends)


def tunnel_plan(opts: list[Any]) -> Any:
    """Firepower 8.8.8: the defender digs the longest tunnel offered (a way out of the fire
    behind his lines, FPD-106)."""
    return max(opts, key=lambda o: len(o.get("tunnels") or []) if isinstance(o, dict) else -1)


def _along_deck(decks: dict[Hex, Bridge], a: Hex, b: Hex, on_deck: bool) -> bool:
    """Firepower 8.9: a step from ``a`` to adjacent ``b`` stays on a bridge's deck (onto it from
    an originating hex or along it, or off it at its end; docs/decisions.md FPD-127)."""
    br = decks.get(b) or decks.get(a)
    if br is None or not br.linked(a, b):
        return False
    if a in decks:
        return on_deck and (b in decks or b in br.ends)
    return b in decks


def _must_climb(am: AdvMap, a: Hex, b: Hex) -> bool:
    """Firepower 11.1.3, 11.2.4: a free-standing wall over two heights, or a height hexside over
    ten, between adjacent ``a`` and ``b`` is climbed, not crossed (public terrain)."""
    from hexwar.plugins.firepower.advanced_terrain import side_key
    from hexwar.plugins.firepower.climbing import CROSSABLE_HEXSIDE, CROSSABLE_WALL

    if am.walls.get(side_key(a, b), 0) > CROSSABLE_WALL:
        return True
    return abs(am.ground.get(b, 0) - am.ground.get(a, 0)) > CROSSABLE_HEXSIDE


def _shots(ctx: combat.FireContext, c: Any, me: Soldier, mode: str) -> int:
    """Shots per burst (automatic) or shots (semi-automatic): the Advanced WEAPON CHART row's rate
    of fire (Firepower 10.7 item 5) or the Basic weapon's (Firepower 6.3.5)."""
    f = ctx.extra.get("firing")
    if f is not None:
        from hexwar.plugins.firepower.weapon_chart import weapon

        auto, semi = weapon(f.item).rate("L")
        return auto[1] if mode == "auto" and auto else (semi or 1)
    w = c.weapons[me.weapon]
    return int(w.automatic[1] if mode == "auto" and w.automatic else (w.semi or 1))


def loading_value(o: dict[str, Any]) -> float:
    """Firepower 11.1.12: a load note for an empty weapon is worth the soldier's Impulse when
    nothing better is offered (the options list a load only for an empty weapon); the AI does
    not unload. A weapon unit's load is worth more than a rifle shot: its crew fires it, not
    their rifles, in the next Impulse Phase (FPD-107)."""
    if o.get("act") != "load":
        return -1.0
    return 5.0 if o.get("weapon") is not None else 0.3


def entry_value(o: dict[str, Any]) -> float:
    """Firepower 10.2: a squad waiting off the board comes on as soon as it may (its soldiers do
    nothing off it)."""
    return 5.0 + 0.1 * len(o.get("units") or [])


def _place(rec: Any, label: str, facing: int) -> tuple[str, int]:
    """Firepower 10.4 (FPD-139): a soldier's place in hex ``label``: his record made there, else
    the side place toward his facing."""
    if isinstance(rec, dict) and rec.get("hex") == label:
        return (str(rec["at"]), int(rec["toward"]))
    return ("side", facing)


def make_ai(side: str, seed: int) -> FirepowerAI:
    return FirepowerAI(side, seed)
