"""Rebuild a game from a save or a log, check it step by step, and go on playing."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping
from typing import TYPE_CHECKING, Any

from hexwar.core.engine.controllers import ReplayController, TerminalController
from hexwar.core.engine.record import SavedGame, header_scenario
from hexwar.core.errors import DataError, HexwarError, ReplayMismatch

if TYPE_CHECKING:
    from hexwar.core.engine.controllers import Controller
    from hexwar.core.engine.game import Game


def _plain(value: Any) -> Any:
    """``value`` as it reads back from a JSON line (tuples become lists, keys strings)."""
    return json.loads(json.dumps(value, sort_keys=True))


def _first_difference(recorded: Any, replayed: Any, where: str = "") -> str:
    if isinstance(recorded, dict) and isinstance(replayed, dict):
        for key in sorted(set(recorded) | set(replayed)):
            if recorded.get(key, "<absent>") != replayed.get(key, "<absent>"):
                return _first_difference(recorded.get(key, "<absent>"),
                                         replayed.get(key, "<absent>"), f"{where}.{key}")
    if isinstance(recorded, list) and isinstance(replayed, list) and len(recorded) == len(replayed):
        for i, (a, b) in enumerate(zip(recorded, replayed, strict=True)):
            if a != b:
                return _first_difference(a, b, f"{where}[{i}]")
    return (f"{where.lstrip('.') or 'the record'}: recorded {json.dumps(recorded)[:200]}, "
            f"replayed {json.dumps(replayed)[:200]}")


class _EventCheck:
    """Compares the replayed log with the recorded one, record by record, as the replay goes."""

    def __init__(self, saved: SavedGame) -> None:
        self.saved = saved
        events = saved.events
        if saved.end is None:
            # cut short: the records after the last complete decision belong to a decision that
            # was lost with the torn line; only the records up to that decision can be compared
            last = max((i for i, e in enumerate(events) if e.get("type") == "decision"), default=-1)
            events = events[: last + 1]
        self.recorded = events
        self.cursor = 0

    def check(self, game: Game, *, final: bool) -> None:
        replayed = game.log.events[1:]  # without the header
        upto = min(len(replayed), len(self.recorded))
        for i in range(self.cursor, upto):
            mine = _plain(replayed[i])
            if mine != self.recorded[i]:
                line = self.saved.event_lines[i]
                raise ReplayMismatch(
                    f"{self.saved.path}:{line}: the recorded {self.recorded[i].get('type')!r} "
                    f"record differs from the replayed one ({_first_difference(self.recorded[i], mine)})"
                )
        self.cursor = upto
        if final and len(self.recorded) > len(replayed):
            line = self.saved.event_lines[len(replayed)]
            raise ReplayMismatch(f"{self.saved.path}:{line}: the log holds records the replayed game "
                                 f"never made (from a {self.recorded[len(replayed)].get('type')!r} "
                                 f"record on)")
        if final and self.saved.end is not None and len(replayed) > len(self.recorded):
            raise ReplayMismatch(f"the replayed game made {len(replayed) - len(self.recorded)} "
                                 f"record(s) more than the log holds (from a "
                                 f"{replayed[len(self.recorded)].get('type')!r} record on)")


def check_data_packs(header: Mapping[str, Any], game: Game, path: str) -> None:
    """Refuse to replay a record on other data than it was played with (CORE-100): every user
    data pack the header names must be in effect now with the same digest, and none other."""
    recorded = header.get("data_packs") or {}
    if not isinstance(recorded, Mapping):
        raise DataError("the header's data packs must be {label: sha256}", path=path,
                        key="header.data_packs")
    now = game.hooks.data_packs(game)
    for label in sorted(set(recorded) | set(now)):
        if recorded.get(label) == now.get(label):
            continue
        if label not in now:
            why = "was played with it, but it is not in effect now"
        elif label not in recorded:
            why = "is in effect now, but the game was played without it"
        else:
            why = "has changed since the game was played"
        raise DataError(f"data pack {label} {why}; the same decisions on other data would make "
                        f"another game", path=path, key="header.data_packs",
                        hint="put back the data the game was played with (or unset the variable "
                             "that names a pack) and try again")


def rebuild(saved: SavedGame, *, verify: bool = True,
            on_step: Callable[[int, int], None] | None = None,
            local_plugins: Iterable[object] = (),
            extra_plugins: Iterable[tuple[str, object]] = (),
            controllers: Callable[[Game], Mapping[str, Controller]] | None = None) -> Game:
    """Re-run the saved decisions from the saved seed. Returns the game positioned after the last
    saved decision.

    With ``verify``, the state hash after every decision is compared with the recorded one (a
    decision without its hash is an error), the scenario text with its recorded hash, every
    event of a log with the replayed one, and a save's final state hash with the replayed state.

    ``controllers`` builds, for the fresh game, the controllers that will play on: each (a human
    at the terminal aside) is asked every replayed decision of its side too, and its answer is
    replaced by the recorded one, so that whatever it remembers is what it would have remembered
    had the game never been interrupted."""
    from hexwar.core.engine.game import Game

    header = saved.header
    scenario = header_scenario(header, saved.path, verify=verify)
    recorded_sha = header.get("scenario_sha256")
    if recorded_sha != scenario.sha256 and (verify or recorded_sha is not None):
        raise DataError("the embedded scenario does not match its recorded hash"
                        if recorded_sha is not None else "the header lacks the scenario's hash",
                        path=saved.path, key="header.scenario_sha256")
    extra_rules = [r for r in header.get("rules", []) if r not in scenario.rules]
    from hexwar.core.engine.umpire import seating_of_header

    try:
        seats = seating_of_header(header)
    except HexwarError as exc:
        raise DataError(str(exc), path=saved.path, key="header.seating") from None
    game = Game(scenario, seed=int(header["seed"]), options=extra_rules,
                local_plugins=local_plugins, extra_plugins=extra_plugins, seating=seats)
    check_data_packs(header, game, saved.path)
    shadows: dict[str, Controller] = {}
    if controllers is not None:
        shadows = {side: c for side, c in controllers(game).items()
                   if not isinstance(c, TerminalController)}
    events = _EventCheck(saved) if verify and saved.kind == "log" else None
    replay = ReplayController(saved.decisions)
    total = len(saved.decisions)
    while not replay.exhausted:
        decision = game.pending
        if decision is None:
            raise ReplayMismatch(
                f"the game ended after {replay.index} decisions but the record holds {total}"
            )
        index = replay.index
        view = game.view(decision.side)
        # a nested game's decisions are not the host controllers' to shadow (CORE-87)
        shadow = shadows.get(decision.side) if game.nested is None else None
        if shadow is not None:
            try:
                shadow.choose(decision, view)
            except HexwarError:  # it cannot answer what another player answered: stop asking it
                del shadows[decision.side]
        choice = replay.choose(decision, view)
        try:
            game.answer(choice)
        except HexwarError as exc:
            raise ReplayMismatch(f"decision {index + 1} no longer applies: {exc}") from exc
        recorded = saved.decisions[index].get("hash")
        if verify and recorded is None:
            raise ReplayMismatch(f"decision {index + 1} ({decision.kind} by {decision.side}) has "
                                 f"no state hash, so the record cannot be verified")
        if verify and recorded != game.state.digest():
            raise ReplayMismatch(
                f"state differs after decision {index + 1} ({decision.kind} by {decision.side}): "
                f"recorded {recorded}, replayed {game.state.digest()}"
            )
        if events is not None:
            events.check(game, final=False)
        if on_step is not None:
            on_step(index + 1, total)
    if events is not None:
        events.check(game, final=True)
    if verify and saved.kind == "save":
        final = saved.final.get("hash")
        if final is None:
            raise ReplayMismatch("the save does not record the state it ends in ('hash')")
        if final != game.state.digest():
            raise ReplayMismatch(
                f"the save says the game stands at state {final} but its {total} decisions lead "
                f"to {game.state.digest()}: decisions are missing or were changed")
    return game
