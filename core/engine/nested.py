"""Nested games: a zoomed-in fight of another system played inside one phase of a host game.

A host phase (or an adapter's phase inserted into the host's sequence) calls
:func:`play_nested` with a scenario it built for the fight and ``yield from``\\ s it. The nested
game is an ordinary :class:`~hexwar.core.engine.game.Game` of its own system, seeded from the host's
seed and the fight's key; its decisions are yielded as the host's (so the host records them, a
save or log replays them, and the host's controllers answer them through the nested system's
controllers); its records go into the host's log marked with the fight's key and system; after
every decision the nested game's state hash is part of the host's state, so ``hexwar replay
--verify`` checks the fight decision by decision (docs/decisions.md CORE-87). When the nested game
ends its :class:`NestedOutcome` is returned to the phase, which applies it by the host's rules.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Generator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from hexwar.core.engine.decisions import Decision, Simultaneous
from hexwar.core.engine.record import EventLog
from hexwar.core.errors import HexwarError

if TYPE_CHECKING:
    from hexwar.core.engine.controllers import Controller
    from hexwar.core.engine.game import Game
    from hexwar.core.scenario import Scenario
    from hexwar.core.types import GameResult

__all__ = ["NestedGame", "NestedOutcome", "nested_seed", "play_nested"]

#: the host state key holding the running (and the last finished) nested game's identity and hash
STATE_KEY = "nested"


def nested_seed(host_seed: int, key: str) -> int:
    """The nested game's seed: the host's seed and the fight's key, hashed (BLAKE2b, like the
    dice, CORE-56), so each fight of a game has dice of its own and a replay the same ones."""
    digest = hashlib.blake2b(f"{host_seed}:{key}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") >> 1


@dataclass
class NestedOutcome:
    """What a finished nested game hands back to the host phase."""

    key: str
    system: str
    result: GameResult
    #: the nested game itself (units and state as it ended), for the adapter to read
    game: Game
    decisions: int = 0


class _ForwardLog(EventLog):
    """The nested game's log: every record goes into the host's log (through ``host.emit``, so an
    umpired host sees it too), marked with the fight's key and system. The nested game's own
    decision records are left out: the host records each decision once, with its own hash."""

    def __init__(self, host: Game, key: str, system: str) -> None:
        super().__init__()
        self._host, self._key, self._system = host, key, system

    def open(self, header: dict[str, Any]) -> None:
        # the fight's identity, not its whole header: the host's record already rebuilds it, and
        # the seed, which predicts every roll, is never a side's to see (record.UMPIRE_ONLY_HEADER)
        self._host.emit("nested_game", nested=self._key, system=self._system,
                        scenario=header.get("scenario"),
                        text=f"{self._system} game {self._key} begins")

    def append(self, event: dict[str, Any], *, visible_to: tuple[str, ...] | None) -> None:
        self.events.append(dict(event))
        if event.get("type") == "decision":
            return
        payload = {k: v for k, v in event.items() if k not in ("type", "turn", "phase")}
        payload.update(nested=self._key, system=self._system, nested_turn=event.get("turn"),
                       nested_phase=event.get("phase"))
        self._host.emit(str(event.get("type")), visible_to=visible_to, **payload)


@dataclass
class NestedGame:
    """A nested game while it runs (``host.nested``)."""

    key: str
    game: Game
    #: the nested system's controllers, by side, built on first need
    controllers: dict[str, Controller] = field(default_factory=dict)

    def controller(self, side: str, host_controller: Controller) -> Controller:
        """Who answers ``side``'s decision of the nested game: a human at the terminal stays at
        the terminal; any other player is replaced by the nested system's AI for the fight
        (a host system's AI knows nothing of another system's decisions)."""
        from hexwar.core.engine.controllers import ReplayController, ScriptedController, TerminalController

        if isinstance(host_controller, (TerminalController, ReplayController, ScriptedController)):
            return host_controller
        if side not in self.controllers:
            offered = self.game.hooks.controllers(host=self.game.scenario.system)
            spec = offered.get("ai")
            if spec is None:
                from hexwar.core.engine.controllers import RandomController

                self.controllers[side] = RandomController(side, self.game.seed)
            else:
                self.controllers[side] = spec.factory(side, self.game.seed)
        return self.controllers[side]


def play_nested(host: Game, scenario: Scenario, *, key: str, options: tuple[str, ...] = (),
                on_start: Callable[[Game], None] | None = None,
                ) -> Generator[Decision | Simultaneous, Any, NestedOutcome]:
    """Play ``scenario`` as a nested game of ``host`` (``yield from`` it in a host phase) and
    return its outcome. ``key`` names the fight uniquely within the host game (it seeds the
    dice). The scenario's sides must be sides of the host: a side's decisions in the fight are
    its decisions in the host game. ``on_start`` is called with the nested game once it is built
    (an adapter records there where the nested board lies over the host's ground)."""
    from hexwar.core.engine.game import Game

    if host.nested is not None:
        raise HexwarError(f"nested game {key!r} cannot start inside nested game {host.nested.key!r}")
    missing = [s for s in scenario.side_names() if s not in host.state.sides]
    if missing:
        raise HexwarError(f"nested game {key!r}: side(s) {', '.join(missing)} are not sides of the "
                          "host game")
    system = scenario.system
    child = Game(scenario, seed=nested_seed(host.seed, key), options=options,
                 log=_ForwardLog(host, key, system))
    running = NestedGame(key, child)
    host.nested = running
    record: dict[str, Any] = {"key": key, "system": system, "hash": child.state.digest(),
                              "decisions": 0, "over": False}
    host.state.data[STATE_KEY] = record
    if on_start is not None:
        on_start(child)
    try:
        while (decision := child.pending) is not None:
            if decision.side not in host.state.sides and decision.side != "umpire":
                raise HexwarError(f"nested game {key!r} asks side {decision.side!r}, not a side "
                                  "of the host game")
            # one decision at a time, also of a simultaneous set: the nested game keeps the set
            choice = yield decision
            child.answer(choice)
            record["hash"] = child.state.digest()
            record["decisions"] = int(record["decisions"]) + 1
    finally:
        host.nested = None
    if child.result is None:
        raise HexwarError(f"nested game {key!r} stopped without a result")
    record["over"] = True
    record["winner"] = child.result.winner
    host.emit("nested_result", nested=key, system=system, result=child.result.as_dict(),
              text=f"{system} game {key} ends: {child.result.winner or 'no winner'}")
    return NestedOutcome(key, system, child.result, child, int(record["decisions"]))

