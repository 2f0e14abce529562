"""The turn engine: game state, decisions, controllers, primitives, and the game record."""

from hexwar.core.engine.decisions import Decision, Simultaneous
from hexwar.core.engine.state import GameState, Unit

__all__ = ["Decision", "GameState", "Simultaneous", "Unit"]
