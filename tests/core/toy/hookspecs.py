"""The toy system's own hooks (prefix ``toy_``) and its typed facade, as a real system has them."""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from hexwar.core.kit import SystemHooks, collect
from hexwar.core.markers import hookspec
from hexwar.core.types import Modifier, sort_modifiers

if TYPE_CHECKING:
    from hexwar.core.engine.game import Game


@hookspec
def toy_fire_modifiers(game: Game, attack: dict[str, Any]) -> Sequence[Modifier]:
    """Modifiers added to the die roll of one toy shot (toy 4)."""
    raise NotImplementedError


class ToyHooks(SystemHooks):
    """Typed calls into the toy system's hooks: ``ToyHooks.of(game).fire_modifiers(attack)``."""

    specs = sys.modules[__name__]
    prefix = "toy_"

    def fire_modifiers(self, attack: dict[str, Any]) -> list[Modifier]:
        hook = self.hook.toy_fire_modifiers
        if hook not in self.live:
            return []
        return sort_modifiers(collect(hook(game=self.game, attack=attack)))
