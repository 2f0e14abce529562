"""Skirmish 3.0 Sequence of play: initiative (3.1), then the move, fire and rally phases.

Each phase is a generator (``run(game)``) that yields a ``Decision`` whenever a side must choose;
the phases of 4.0-6.0 live in the modules of their rules. The core builds the game's sequence from
:data:`PHASES` and the enabled rules' ``hexwar_sequence_edits``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from hexwar.core.engine.primitives import Step, roll_off
from hexwar.core.types import PhaseSpec
from hexwar_skirmish.fire import fire_phase
from hexwar_skirmish.movement import move_phase
from hexwar_skirmish.rally import rally_phase
from hexwar_skirmish.state import SYSTEM, turn_state

if TYPE_CHECKING:
    from hexwar.core.engine.game import Game


def initiative_phase(game: Game) -> Step:
    """Skirmish 3.1: both sides roll a die; the higher has the initiative (ties roll again)."""
    winner = roll_off(game, list(game.state.sides), purpose="initiative", die="d6")
    data = turn_state(game)
    data["initiative"] = winner
    data["moved"] = []
    data["acted"] = []
    game.report("initiative", result=winner, rules=["Skirmish 3.1"])
    yield from ()


PHASES = (
    PhaseSpec(f"{SYSTEM}.initiative", "Initiative", "Skirmish 3.1", initiative_phase),
    PhaseSpec(f"{SYSTEM}.move", "Move phase", "Skirmish 4.0", move_phase),
    PhaseSpec(f"{SYSTEM}.fire", "Fire phase", "Skirmish 5.0", fire_phase),
    PhaseSpec(f"{SYSTEM}.rally", "Rally phase", "Skirmish 6.0", rally_phase),
)
