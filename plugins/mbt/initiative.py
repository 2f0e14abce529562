"""MBT 5.0, Initiative: who acts first in every phase and step of the Turn."""

from __future__ import annotations

from typing import TYPE_CHECKING

from hexwar.core.engine.decisions import Decision
from hexwar.core.engine.primitives import roll_off
from hexwar.plugins.mbt.state import SIDES, Step, data, enemy_of, init_unit

if TYPE_CHECKING:
    from hexwar.core.engine.game import Game


def side_order(game: Game) -> list[str]:
    """MBT 5.3: the side with the initiative acts first in every phase and step."""
    first = data(game).get("first", SIDES[0])
    return [first, enemy_of(first)]


def initiative_phase(game: Game) -> Step:
    """MBT 5.1-5.2 (and the start-of-Turn clean-up of per-Turn status)."""
    d = data(game)
    for u in game.state.units.values():
        init_unit(u)
        u.state.update(order=None, revealed=False, used=False, fired=False, moved=False,
                       entered=None, prev=None, trail=[], pending=[])
    d["atgm"] = []
    d["declared"] = []
    winner = roll_off(game, list(SIDES), purpose="MBT 5.1 initiative")
    choice = yield Decision(winner, "mbt.initiative", options=["first", "second"], rule="MBT 5.1",
                            prompt="Go first or second this Turn?")
    d["first"] = winner if choice == "first" else enemy_of(winner)
    game.emit("initiative", winner=winner, first=d["first"], rule="MBT 5.2")
