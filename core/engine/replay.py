"""Rebuild a game from a save or a log, check it step by step, and go on playing."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING

from hexwar.core.engine.controllers import ReplayController
from hexwar.core.engine.record import SavedGame
from hexwar.core.errors import DataError, HexwarError, ReplayMismatch

if TYPE_CHECKING:
    from hexwar.core.engine.game import Game


def rebuild(saved: SavedGame, *, verify: bool = True,
            on_step: Callable[[int, int], None] | None = None,
            local_plugins: Iterable[object] = ()) -> Game:
    """Re-run the saved decisions from the saved seed; with ``verify`` compare the state hash
    after every decision. Returns the game positioned after the last saved decision."""
    from hexwar.core.engine.game import Game
    from hexwar.core.scenario import Scenario

    header = saved.header
    scenario = Scenario.from_text(header["scenario_text"], path=f"{saved.path}#scenario")
    if header.get("scenario_sha256") not in (None, scenario.sha256):
        raise DataError("the embedded scenario does not match its recorded hash", path=saved.path,
                        key="header.scenario_sha256")
    extra_rules = [r for r in header.get("rules", []) if r not in scenario.rules]
    game = Game(scenario, seed=int(header["seed"]), options=extra_rules,
                local_plugins=local_plugins)
    replay = ReplayController(saved.decisions)
    total = len(saved.decisions)
    while not replay.exhausted:
        decision = game.pending
        if decision is None:
            raise ReplayMismatch(
                f"the game ended after {replay.index} decisions but the record holds {total}"
            )
        index = replay.index
        choice = replay.choose(decision, game.view(decision.side))
        try:
            game.answer(choice)
        except HexwarError as exc:
            raise ReplayMismatch(f"decision {index + 1} no longer applies: {exc}") from exc
        recorded = saved.decisions[index].get("hash")
        if verify and recorded is not None and recorded != game.state.digest():
            raise ReplayMismatch(
                f"state differs after decision {index + 1} ({decision.kind} by {decision.side}): "
                f"recorded {recorded}, replayed {game.state.digest()}"
            )
        if on_step is not None:
            on_step(index + 1, total)
    return game
