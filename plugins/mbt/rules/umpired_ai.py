"""The AI of a side in MBT's umpired game (MBT 24.0; ControllerSpec ``umpired-ai``).

It decides from its side's view only: its own units, and the contacts the umpire reported (each a
hex and an identification level, MBT 24.2.2; never a unit id). The map's facts come from the
side's rules (``view.rules``: the board is public), its own units from ``view.unit``, as the Basic
Game AI's do (docs/decisions.md CORE-55).

* Instructions (MBT 24.3.2): fire at the best contact it can (identified before merely typed or
  "fired", then the nearest), a missile when the target is far; else move toward cover and the
  objectives it does not hold; else overwatch.
* Pivots and turrets (MBT 24.3.2): toward the nearest contact, else toward the enemy's edge.
* Every other decision (the set-up) as the Basic Game AI (:class:`~hexwar.plugins.mbt.ai.MbtAI`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from hexwar.core.hexgrid import Hex
from hexwar.plugins.mbt.ai import COVER, MbtAI, rules_of
from hexwar.plugins.mbt.rules.umpired import INSTRUCTION, LEVELS, PIVOT, TURRET

if TYPE_CHECKING:
    from hexwar.core.engine.decisions import Decision
    from hexwar.core.engine.state import Unit
    from hexwar.core.engine.view import SideView

#: a missile rather than the gun at a contact this far away or more
MISSILE_RANGE = 12


class UmpiredAI(MbtAI):
    name = "umpired-ai"

    def choose(self, decision: Decision, view: SideView) -> Any:
        if decision.kind == INSTRUCTION:
            return self._instruction(decision, view)
        if decision.kind in (PIVOT, TURRET):
            return self._face(decision, view)
        return super().choose(decision, view)

    # -- what the side knows --------------------------------------------------------------------
    def _contacts(self, view: SideView) -> dict[str, tuple[Hex, int]]:
        """alias -> (hex, identification rank) of every reported contact not of this side."""
        out: dict[str, tuple[Hex, int]] = {}
        for alias, shown in view.enemy_units().items():
            at = shown.get("hex")
            if at is None or shown.get("side") == self.side:
                continue
            level = str(shown.get("state", {}).get("level", "identified"))
            out[alias] = (Hex(int(at[0]), int(at[1])), LEVELS.index(level) if level in LEVELS else 0)
        return out

    def _own(self, view: SideView, uid: str) -> Unit:
        return view.unit(uid)

    # -- MBT 24.3.2 -------------------------------------------------------------------------------
    def _instruction(self, d: Decision, view: SideView) -> Any:
        options = list(d.options or [])
        u = self._own(view, d.context["unit"])
        here = u.hex
        assert here is not None
        seen = self._contacts(view)

        def rank(o: dict[str, Any]) -> tuple[int, int]:
            h, level = seen.get(str(o["target"]), (here, 0))
            return level, -here.distance(h)

        fire = [o for o in options if o["order"] == "F"]
        missiles = [o for o in options if o["order"] == "ATGM"]
        if fire:
            best = max(fire, key=rank)
            far = -rank(best)[1] >= MISSILE_RANGE
            if far and missiles:
                return max(missiles, key=rank)
            return best
        if missiles:
            return max(missiles, key=rank)
        moves = [o for o in options if o["order"] == "M"]
        if moves and self._should_move(u, view, seen):
            control = dict(view.system_state.get("control") or {})
            return max(moves, key=lambda o: self._score(view, o["to"], seen, control)
                       + self.rng.random() * 0.3)
        for o in options:
            if o == {"order": "OW", "when": "any"}:
                return o
        return options[0]

    def _should_move(self, u: Unit, view: SideView,
                     seen: dict[str, tuple[Hex, int]]) -> bool:
        info = rules_of(view).info
        control = dict(view.system_state.get("control") or {})  # what the side knows it holds
        open_objs = [o for o in info.objectives if control.get(view.board.label(o)) != self.side]
        if open_objs:
            mine = sorted((x for x in (self._own(view, k) for k in view.own_units())
                           if x.hex is not None and x.state.get("destroyed") is None),
                          key=lambda x: (min(x.hex.distance(o) for o in open_objs)  # type: ignore[union-attr]
                                         , x.id))
            if u in mine[:2]:
                return True
        return not seen and self.rng.random() < 0.6

    def _score(self, view: SideView, to: list[Any], seen: dict[str, tuple[Hex, int]],
               control: dict[str, Any]) -> float:
        info = rules_of(view).info
        h = view.board.parse(str(to[0]))
        s = max(COVER.get(k, 0.0) for k in info.kinds[h]) + 1.2 * (info.height[h] > 0)
        objs = list(info.objectives)
        if objs:
            open_objs = [o for o in objs if control.get(view.board.label(o)) != self.side]
            s -= (self.objective_pull if open_objs else self.hold_pull) * min(
                h.distance(o) for o in (open_objs or objs))
            if h in open_objs:
                s += self.objective_bonus
        s -= self.exposure_weight * sum(1 for eh, _lv in seen.values()
                                        if h.distance(eh) <= 20 and info.los(h, eh))
        return s

    def _face(self, d: Decision, view: SideView) -> Any:
        u = self._own(view, d.context["unit"])
        assert u.hex is not None
        seen = self._contacts(view)
        if seen:
            near = min((h for h, _lv in seen.values()), key=lambda h: (u.hex.distance(h), h))  # type: ignore[union-attr]
            want = self._facing_to(u.hex, near, u.facing)
        else:
            want = self._toward_enemy_facing(view)
        options = list(d.options or [])
        if d.kind == PIVOT:
            return want if want in options else u.facing
        facings = sorted({o[0] for o in options},
                         key=lambda f: (min((f - want) % 6, (want - f) % 6), f))
        return [facings[0], "open"]
