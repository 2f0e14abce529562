"""Building blocks for sequences of play: roll-offs, alternation, secret simultaneous choices,
chit cups.

Phases are generators; these helpers are generators too, used with ``yield from``.
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Iterable, Sequence
from typing import TYPE_CHECKING, Any

from hexwar.core.engine.decisions import Decision, Simultaneous

if TYPE_CHECKING:
    from hexwar.core.engine.game import Game

Step = Generator[Decision | Simultaneous, Any, Any]


def roll_off(game: Game, sides: Sequence[str], *, purpose: str, die: str = "d10",
             high_wins: bool = True) -> str:
    """Each side rolls; the high (or low) roller wins; ties roll again."""
    while True:
        rolls = {s: getattr(game.dice, die)(f"{purpose}: {s}") for s in sides}
        best = max(rolls.values()) if high_wins else min(rolls.values())
        winners = [s for s in sides if rolls[s] == best]
        if len(winners) == 1:
            game.emit("roll_off", purpose=purpose, rolls=rolls, winner=winners[0])
            return winners[0]


def alternate(game: Game, sides: Sequence[str], act: Callable[[str], Step]) -> Step:
    """Sides act in turn, starting with ``sides[0]``, until every side passes in a row.

    ``act(side)`` is a generator returning ``True`` if the side did something, ``False`` if it
    passed (Firefight 4.1: attacks and moves alternate until both players are done).
    """
    passes = 0
    index = 0
    while passes < len(sides):
        side = sides[index % len(sides)]
        acted = yield from act(side)
        passes = 0 if acted else passes + 1
        index += 1


def ask_all(decisions: list[Decision]) -> Step:
    """Ask decisions in secret and reveal them together; returns the list of answers."""
    if not decisions:
        return []
    choices = yield Simultaneous(decisions)
    return choices


class ChitCup:
    """Chits drawn blind, one at a time, through the game's dice (Firepower 5, 6.1)."""

    def __init__(self, chits: Sequence[str]) -> None:
        self.chits = list(chits)

    def __len__(self) -> int:
        return len(self.chits)

    def draw(self, game: Game, purpose: str = "draw a chit", *,
             visible_to: Iterable[str] | None = None) -> str:
        """Draw one chit; ``visible_to`` limits who sees the draw (a secret draw: see
        :class:`hexwar.core.dice.Roll`)."""
        index = game.dice.choice_index(purpose, len(self.chits), visible_to=visible_to)
        return self.chits.pop(index)
