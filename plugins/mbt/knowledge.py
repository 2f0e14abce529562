"""What an MBT controller may compute from its side's knowledge (``view.rules``).

A controller never holds the game (docs/decisions.md CORE-55). :class:`MbtRules` gives the public
data of the game (the map facts, the unit cards, the charts) and works out a shot's chance to
kill (MBT 7.4) from the firer and the target as the side is shown them: an enemy unit it cannot
see (MBT 6.1) is unknown here, and an enemy's order is whatever the side was told (MBT 6.2.1).
"""

from __future__ import annotations

import copy
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from hexwar.core.engine.game import Game
    from hexwar.core.engine.state import Unit
    from hexwar.core.engine.view import SideView
    from hexwar.core.hexgrid import Hex
    from hexwar.plugins.mbt.cards import Card
    from hexwar.plugins.mbt.tables import Charts
    from hexwar.plugins.mbt.terrain import MapInfo


class MbtRules:
    """The rules computations one side's controller may make (see the module docstring)."""

    def __init__(self, game: Game, view: SideView) -> None:
        from hexwar.plugins.mbt.state import ctx

        self._game = game
        self._view = view
        c = ctx(game)
        #: the map's terrain, heights and lines of sight (MBT 6.0): the board is public
        self.info: MapInfo = c.info
        self._cards = c.cards
        self._charts: Charts = c.charts
        #: whether the Advanced Game (MBT 10.0) is played: the scenario's rules are printed
        self.advanced: bool = "mbt.advanced" in game.rules_enabled

    def card(self, unit_type: str, side: str | None = None) -> Card:
        """The unit card of a type (``mbt:T-62`` or ``T-62``): printed, so public. A guest unit
        of another system (``side`` given) has the card its adapter names (``mbt_guest_card``)."""
        from hexwar.plugins.mbt.state import card_name

        return self._cards[card_name(self._game, unit_type, side)]

    def kill_probability(self, firer: str, target: str, weapon: str, ammo: str, *,
                         overwatch: bool = False, target_moving: bool = False) -> float:
        """MBT 7.4: the chance that ``firer``'s shot kills ``target``, both known to the side by
        these ids, the target's movement as the side supposes it (its order is secret until
        revealed, MBT 6.2.1). The rules' extra modifiers count as in the shot itself
        (``mbt_ap_modifiers``: Advanced MBT 14.3.1 grade, suppression, crew losses, smoke, sights;
        docs/decisions.md MBTD-152)."""
        from hexwar.plugins.mbt.ap_fire import kill_probability
        from hexwar.plugins.mbt.fire import situation
        from hexwar.plugins.mbt.hookspecs import MbtHooks

        f, t = self.firing_unit(firer), self._view.unit(target)
        s = situation(self._game, f, weapon, ammo, t, overwatch=overwatch,
                      target_moving=target_moving)
        extra = MbtHooks.of(self._game).ap_modifiers(s, f, t)
        if extra:
            s.extra_modifiers = (*s.extra_modifiers, *extra)
        return kill_probability(self._charts, s)

    def in_weapon_arc(self, firer: str, target_hex: Hex, *, missile: bool = False) -> bool:
        """MBT 7.2.1, 14.2.1: whether ``target_hex`` lies in the firing arc of an own unit's main
        gun (or missile): the turret's 60 degrees, or the hull arc its card names (a hull-mounted
        missile, a leg unit's 360). A unit without that weapon: the turret arc."""
        from hexwar.core.hexgrid import in_arc
        from hexwar.plugins.mbt.fire import weapon_arc

        f = self.firing_unit(firer)
        if f.hex is None:
            return False
        card = self.card(f.type, f.side)
        w = (card.missiles[0] if card.missiles else None) if missile else card.main_gun
        if w is None:
            return in_arc(f.hex, int(f.state.get("turret", f.facing)), target_hex, "front60")
        arc, facing = weapon_arc(self._game, f, w.name)
        return in_arc(f.hex, facing, target_hex, arc)

    def hull_down(self, own: str, at: Hex, enemy: str) -> bool:
        """Advanced MBT 13.2.2: whether an own vehicle standing in ``at`` would be hull down to a
        known enemy unit firing from where the side sees it (False in the Basic Game)."""
        if not self.advanced:
            return False
        from hexwar.plugins.mbt.advanced_sighting import hull_down

        e = self._view.unit(enemy)
        if e.hex is None:
            return False
        return hull_down(self._game, e, self._placed(own, at))[0]

    def other_ammo(self, firer: str, missile: bool) -> list[str]:
        """The other ammunition the rules give an own unit's weapon (the Advanced Game's GP
        rounds, MBT 14.4)."""
        from hexwar.plugins.mbt.hookspecs import MbtHooks

        return MbtHooks.of(self._game).other_ammo(self._own(firer), missile)

    def gp_effect(self, firer: str, target: str, *, overwatch: bool = False,
                  ammo: str = "GP", weapon: str | None = None) -> float:
        """Advanced MBT 14.4: the chance that an own unit's GP shot (its main gun's, or
        ``weapon``'s: a machinegun, MBT 14.1.2) has an effect on ``target`` as the side is shown
        it (a kill, plus a quarter of the chance of a suppression)."""
        from hexwar.plugins.mbt.gp_fire import effect_value

        return effect_value(self._game, self.firing_unit(firer), self._view.unit(target),
                            overwatch=overwatch, ammo=ammo, weapon_name=weapon)

    def overrun_value(self, attacker: str, target: str) -> float:
        """Advanced MBT 14.7.2.2: the chance that an own vehicle's overrun fire has an effective
        result on ``target`` as the side is shown it (0 if it could not overrun it)."""
        from hexwar.plugins.mbt.overrun import overrun_chance

        return overrun_chance(self._game, self._own(attacker), self._view.unit(target))

    def assault_odds(self, attacker: str, target: str, at: Hex | None = None) -> tuple[float, float]:
        """Advanced MBT 14.5.2-14.5.4: the chances (suppressed, effective) of an own leg unit's
        close assault on ``target`` as the side is shown it, from its hex or from ``at`` (the
        close-assault procedure's own numbers, :func:`~hexwar.plugins.mbt.close_assault.assault_odds`)."""
        from hexwar.plugins.mbt.close_assault import assault_odds

        return assault_odds(self._game, self._placed(attacker, at), self._view.unit(target))

    def h2h_odds(self, attacker: str, defender: str, at: Hex | None = None) -> float:
        """Advanced MBT 14.6.2-14.6.3: the chance an own squad wins hand to hand against
        ``defender`` as the side is shown it, from its hex or from ``at``."""
        from hexwar.plugins.mbt.close_assault import h2h_odds

        return h2h_odds(self._game, self._placed(attacker, at), self._view.unit(defender))

    def gp_odds(self, firer: str, target: str, *, overwatch: bool = False,
                ammo: str = "GP", weapon: str | None = None) -> tuple[float, float]:
        """Advanced MBT 14.4.4.1: the chances (suppressed, effective) of an own unit's GP shot at
        ``target`` as the side is shown it (the GP procedure's own numbers)."""
        from hexwar.plugins.mbt.gp_fire import gp_odds

        got = gp_odds(self._game, self.firing_unit(firer), self._view.unit(target),
                      overwatch=overwatch,
                      ammo=ammo, weapon_name=weapon)
        return (got[0], got[1]) if got is not None else (0.0, 0.0)

    def terrain_shots(self, firer: str, order: str = "F") -> list[tuple[str, str, float]]:
        """Advanced MBT 12.4.2, 14.4.3.3: the terrain markers (label, kind, chance to destroy) an
        own unit could fire GP at with ``order``; the markers are on the map for all to see."""
        from hexwar.plugins.mbt.gp_terrain import shots_if_ordered

        return shots_if_ordered(self._game, self._own(firer), order)

    def terrain_odds(self, firer: str, label: str, kind: str, ammo: str = "GP") -> float:
        """Advanced MBT 12.4.2, 14.4.4.1: the chance that an own unit's GP shot with ``ammo``
        (``GP``: the main gun; ``NAME/GP``: a machinegun, MBT 14.1.2) destroys the ``kind`` marker
        in ``label`` (markers are on the map for all to see)."""
        from hexwar.plugins.mbt.gp_terrain import shot_odds

        return shot_odds(self._game, self._own(firer), label, kind, ammo)

    def markers(self) -> dict[str, str]:
        """Advanced MBT 12.4: the terrain markers on the map (label -> kind): public."""
        from hexwar.plugins.mbt.state import data

        return dict(data(self._game).get("markers") or {})

    def sighted_an_enemy(self, unit_id: str) -> bool:
        """Whether an own unit sighted an enemy unit in this turn's Sighting Step (MBT 6.1): the
        side knows what its own units see."""
        from hexwar.plugins.mbt.state import data

        return bool(data(self._game).get("sighted", {}).get(self._own(unit_id).id))

    def firing_unit(self, unit_id: str) -> Unit:
        """A unit as it fires: an own passenger stands at its carrier's hex and facing (Advanced
        MBT 15.3.4.1, as :func:`hexwar.plugins.mbt.transport.aboard` places it in the game; a
        copy, so the view's unit stays off the map); any other unit as the side is shown it."""
        u = self._view.unit(unit_id)
        cid = u.state.get("mounted")
        if u.hex is not None or not cid or u.side != self._view.side:
            return u
        carrier = self._view.unit(str(cid))
        placed = copy.copy(u)
        placed.hex, placed.facing = carrier.hex, carrier.facing
        placed.state = {**u.state, "turret": carrier.state.get("turret", carrier.facing)}
        return placed

    def _placed(self, unit_id: str, at: Hex | None) -> Unit:
        """An own unit, or a copy of it standing in ``at`` (to weigh a move there)."""
        u = self._own(unit_id)
        if at is None or at == u.hex:
            return u
        moved = copy.copy(u)
        moved.hex = at
        return moved

    def _own(self, unit_id: str) -> Unit:
        u = self._view.unit(unit_id)
        if u.side != self._view.side:
            from hexwar.core.errors import RulesError

            raise RulesError(f"{unit_id!r} is not a unit of your side")
        return u


def side_rules(game: Game, view: SideView) -> MbtRules:
    return MbtRules(game, view)
