"""Skirmish's own hooks, for its optional rules, and :class:`SkirmishHooks`, the one way to call them.

The system plugin adds these specifications to a game's plugin manager in its
``hexwar_add_hookspecs`` hook (plugin.py). An optional rule implements them with hexwar's marker
(``from hexwar.core.markers import hookimpl``); the system calls them only through the facade::

    SkirmishHooks.of(game).fire_modifiers(attack)

Every hook is prefixed ``skirmish_``. Arguments may be added in a later version, none removed.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING

from hexwar.core.kit import SystemHooks, collect
from hexwar.core.markers import hookspec

if TYPE_CHECKING:
    from hexwar.core.engine.game import Game
    from hexwar.core.kit import Edit
    from hexwar.core.types import Modifier
    from hexwar_skirmish.fire import Attack, FireStep


@hookspec
def skirmish_fire_modifiers(game: Game, attack: Attack) -> Sequence[Modifier]:
    """Modifiers to the die roll of one attack (Skirmish 5.3), each with its rule.

    Called: once per attack, after the modifiers of 5.3; the answers of every enabled rule are
    added to them and logged with the attack's result. A positive value helps the firer.
    """
    raise NotImplementedError


@hookspec
def skirmish_fire_steps(game: Game) -> Sequence[Edit[FireStep]]:
    """Insert, replace or remove named steps of the fire procedure (``modifiers``, ``roll``,
    ``table``, ``apply``; see fire.py), applied in the order of ``hexwar.core.kit.Pipeline``.

    Called: once per game, when its fire procedure is first built.
    """
    raise NotImplementedError


class SkirmishHooks(SystemHooks):
    """Typed calls into the hooks above for one game; a hook no enabled rule implements costs
    one set lookup."""

    specs = sys.modules[__name__]
    prefix = "skirmish_"

    def fire_modifiers(self, attack: Attack) -> list[Modifier]:
        hook = self.hook.skirmish_fire_modifiers
        if hook not in self.live:
            return []
        return collect(hook(game=self.game, attack=attack))

    def fire_steps(self) -> list[Edit[FireStep]]:
        hook = self.hook.skirmish_fire_steps
        if hook not in self.live:
            return []
        return collect(hook(game=self.game))
