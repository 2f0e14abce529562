"""What a Firefight controller may compute from its side's knowledge (``view.rules``).

A controller never holds the game (docs/decisions.md CORE-55). :class:`FirefightRules` answers the
rules questions the AI asks (a line of sight, the outcomes of an attack, whether a deployment of
its own is legal), and only about units the side knows by their real id: its own, and the enemy
units its view shows face-up (Firefight 5.0, 11.0). A face-down counter is known only by its
alias, which names no unit here, so nothing about the unit under it can be computed. Attacks
are worked out from the units as the side is shown them (no secret weapon assignment, no hidden
passenger, Firefight 6.81, 6.9, 16.21).
"""

from __future__ import annotations

import copy
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

from hexwar.core.errors import RulesError

if TYPE_CHECKING:
    from hexwar.core.engine.game import Game
    from hexwar.core.engine.state import Unit
    from hexwar.core.engine.view import SideView
    from hexwar.core.hexgrid import Hex

#: the two-dice totals (Firefight 6.0 step 4)
ROLLS = range(2, 13)


def known_ids(game: Game, side: str) -> set[str]:
    """The units ``side`` knows by their real id now: its own, and the enemy units it sees that no
    anonymous name hides (Firefight 5.0, 11.0; undrawn units and unseen passengers excluded)."""
    from hexwar.plugins.firefight.state import public_ref

    return {k for k in game.hooks.visible_units(game, side)
            if k in game.state.units and (game.state.units[k].side == side
                                          or public_ref(game, k) == k)}


class FirefightRules:
    """The rules computations one side's controller may make (see the module docstring)."""

    def __init__(self, game: Game, view: SideView) -> None:
        self._game = game
        self._view = view
        self._attacks: dict[tuple[str, str, str | None, str], tuple[str, str, dict[int, str]]] = {}

    def _known(self, unit_id: str) -> Unit:
        """The side's copy of a unit it knows by this id (an alias or an unseen id is refused)."""
        return self._view.unit(unit_id)

    # -- the scenario -------------------------------------------------------------------------
    def ai_hints(self) -> dict[str, Any]:
        """The scenario's ``[special] ai`` hints for this side (the scenario is printed)."""
        ai = self._game.scenario.raw.get("special", {}).get("ai", {})
        default = {"posture": "attack", "objective": ""}
        return copy.deepcopy(dict(ai.get(self._view.side, default)))

    def mines_in_play(self) -> bool:
        """Whether the game has mines at all (Firefight 18.0, 25.0: the optional rules are in
        the game's public header), so an AI need not read the Mine Markers of a game without."""
        return bool({"firefight.mines", "firefight.artillery_mines"}
                    & set(self._game.rules_enabled))

    def friendly_minefields(self) -> bool:
        """The Addenda Friendly Minefields option of the scenario (Firefight 18.0)."""
        return bool(self._game.scenario.raw.get("special", {}).get("friendly_minefields", False))

    # -- the map ------------------------------------------------------------------------------
    def los(self, a: Hex, b: Hex) -> bool:
        """Firefight 5.0: a line of sight between two hexes (terrain and public markers only)."""
        from hexwar.plugins.firefight.sighting import has_los

        return has_los(self._game, a, b)

    def visible(self, origin: Hex, hexes: Iterable[Hex]) -> set[Hex]:
        """Firefight 5.0: the hexes among ``hexes`` with a line of sight to ``origin``, in one
        batch (terrain and public markers only; the caller names the hexes it knows)."""
        from hexwar.plugins.firefight.sighting import visible_hexes

        return visible_hexes(self._game, origin, hexes)

    def edges(self, h: Hex) -> set[str]:
        """The map edges a hex lies on (Firefight 7.8 exits)."""
        from hexwar.plugins.firefight.movement import edge_of

        return edge_of(self._game, h)

    # -- fire ---------------------------------------------------------------------------------
    def attack(self, firer: str, target: str, weapon: str | None,
               mode: str) -> tuple[str, str, dict[int, str]]:
        """Firefight 6.0: ``(weapon line, target class, {two-dice total: result})`` of ``firer``'s
        fire at ``target``, both known to the side by these ids. ``weapon`` ``None``: the best
        weapon against the target. Raises :class:`RulesError` when the shot is impossible."""
        key = (firer, target, weapon, mode)
        if key in self._attacks:
            return self._attacks[key]
        from hexwar.plugins.firefight.fire import (
            attack_roll_results,
            choose_weapon,
            describe_attack,
        )

        f, t = self._known(firer), self._known(target)
        w = choose_weapon(self._game, f, t, weapon)
        att = describe_attack(self._game, f, t, w, mode)
        results = attack_roll_results(self._game, att, ROLLS)
        out = (w.line, str(att["target_class"]), results)
        self._attacks[key] = out
        return out

    # -- the side's own choices -----------------------------------------------------------------
    def deployment_problem(self, spec: Mapping[str, Any], placement: Mapping[str, str]) -> str | None:
        """Firefight 9.13: what is wrong with a deployment of the side's own units (``None``: legal)."""
        from hexwar.plugins.firefight.setup import deployment_problem

        if self._view.side is None:
            raise RulesError("the umpire deploys no units")
        return deployment_problem(self._game, self._view.side, spec, placement)

    def mines_problem(self, plan: Mapping[str, int]) -> str | None:
        """Firefight 18.0: what is wrong with the side's minefield plan (``None``: legal)."""
        from hexwar.plugins.firefight.rules.mines import emplace_problem

        if self._view.side is None:
            raise RulesError("the umpire emplaces no mines")
        return emplace_problem(self._game, self._view.side, plan)


def side_rules(game: Game, view: SideView) -> FirefightRules:
    return FirefightRules(game, view)
