"""A game: one scenario, one seed, one plugin manager, driven decision by decision.

The sequence of play is a list of phases; each phase is a generator that yields
:class:`Decision` or :class:`Simultaneous` and receives the choice (or the list of choices). The
engine owns the loop, the record of every decision and the state hash after each, so human, AI,
scripted and replayed play all run the same code.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Generator, Iterable, Mapping
from typing import TYPE_CHECKING, Any

from hexwar.core.dice import Dice, Roll
from hexwar.core.engine.decisions import Decision, Simultaneous, normalise
from hexwar.core.engine.record import EventLog
from hexwar.core.engine.state import GameState, Unit, _reject
from hexwar.core.engine.umpire import (
    UMPIRE,
    AutomaticUmpire,
    Umpire,
    UmpireView,
    install,
    record_seating,
    seating_record,
)
from hexwar.core.errors import HexwarError, PluginFailure, RulesError
from hexwar.core.kit.stash import Stash
from hexwar.core.manager import Hooks, build_plugin_manager, local_plugin, plugin_of_traceback
from hexwar.core.types import Choice, GameResult, Modifier, PhaseSpec

if TYPE_CHECKING:
    from hexwar.core.board import Board
    from hexwar.core.engine.controllers import Controller
    from hexwar.core.engine.nested import NestedGame
    from hexwar.core.engine.view import SideView
    from hexwar.core.los import LosRules
    from hexwar.core.scenario import Scenario


class Game:
    """One game of a scenario. Build it, then call :meth:`play` with a controller per side, or
    drive it yourself with :attr:`pending` and :meth:`answer`."""

    def __init__(
        self,
        scenario: Scenario,
        *,
        seed: int = 0,
        options: Iterable[str] = (),
        extra_plugins: Iterable[tuple[str, object]] = (),
        local_plugins: Iterable[object] = (),
        log: EventLog | None = None,
        seating: Mapping[str, Mapping[str, Iterable[str]]] | None = None,
    ) -> None:
        self.scenario = scenario
        self.seed = seed
        #: per-game derived data of plugins (caches, hook facades), under typed keys
        self.stash = Stash()
        self.rules_enabled = tuple(sorted(set(scenario.rules) | set(options)))
        self._extra, self._local = list(extra_plugins), list(local_plugins)
        self.pm = build_plugin_manager(
            scenario.system, self.rules_enabled, guests=scenario.guest_systems(),
            extra=self._extra, local=[local_plugin(m) for m in self._local],
        )
        self.hooks = Hooks(self.pm)
        self.system = self.hooks.system_info(scenario.system)
        self.board: Board = scenario.build_board(self.hooks)
        self.unit_types = self.hooks.unit_types()
        self.state = GameState(
            units=scenario.build_units(self.board, self.unit_types), sides=scenario.side_names()
        )
        self.log = log if log is not None else EventLog()
        self.dice = Dice(seed, on_roll=self._on_roll)
        self.sequence = self.hooks.sequence(scenario.system)
        self._los_rules: LosRules | None = None
        self.result: GameResult | None = None
        self.decisions: list[dict[str, Any]] = []
        self._deferred: list[tuple[str, Callable[[], None]]] = []
        self._pending: list[Decision] = []
        self._answers: list[Choice] = []
        self._simultaneous = False
        #: the error that ended the game when a plugin's code raised (:meth:`answer`)
        self.failure: HexwarError | None = None
        #: the umpire every record passes through (``hexwar_umpire``; docs/umpire.md)
        self.umpire: Umpire | None = None
        #: the nested game being played inside a phase of this one (core/engine/nested.py)
        self.nested: NestedGame | None = None
        self._nested_of: tuple[str, str] | None = None
        umpire = self.hooks.umpire(self)
        if umpire is not None:
            install(self, umpire)
        #: a side split among players, recorded in the header (docs/decisions.md CORE-102)
        self.seating = record_seating(self, seating or {})
        self.log.open(self._header())
        self._gen = self._main()
        try:
            self._advance(None)
        except Exception as exc:
            failure = self._failed(exc, None)
            if failure is exc:
                raise
            raise failure from exc

    # -- identity ----------------------------------------------------------------------------
    def _header(self) -> dict[str, Any]:
        from hexwar.core.manager import installed_plugins

        installed = installed_plugins()
        names = [self.scenario.system, *self.scenario.guest_systems(), *self.rules_enabled]
        # an umpired game: header fields its sides' logs leave out (docs/log-format.md)
        secret = {"umpire_only": list(self.umpire.header_secrets)} if self.umpire else {}
        return {
            **secret,
            "hexwar": _hexwar_version(),
            "plugins": {n: installed[n].version for n in names if n in installed},
            "system": self.scenario.system,
            "rules": list(self.rules_enabled),
            "scenario": self.scenario.id,
            "scenario_sha256": self.scenario.sha256,
            "scenario_text": self.scenario.text,
            # the panel files the board is built from, so the record rebuilds anywhere (CORE-57)
            **({"scenario_files": files} if (files := self.scenario.embedded_files()) else {}),
            # user data packs (tables, cards) by digest: a replay on other data is refused (CORE-100)
            **({"data_packs": packs} if (packs := self.hooks.data_packs(self)) else {}),
            "seed": self.seed,
            # several players on a side: the rules tell each his own (CORE-102)
            **({"seating": seating_record(self.seating)} if self.seating else {}),
        }

    # -- the loop ------------------------------------------------------------------------------
    def _main(self) -> Generator[Decision | Simultaneous, Any, None]:
        self.hooks.setup_game(self)
        for phase in (p for p in self.sequence if p.when == "setup"):
            yield from self._run_phase(phase)
            if self._check_over():
                return
        turn_phases = [p for p in self.sequence if p.when == "turn"]
        while self.state.turn < self.scenario.turns:
            self.state.turn += 1
            self.emit("turn", turn=self.state.turn)
            self.hooks.turn_start(self)
            for phase in turn_phases:
                yield from self._run_phase(phase)
                if self._check_over():
                    return
            self.hooks.turn_end(self)
            if self._check_over():
                return
        self._finish(self.hooks.final_result(self))

    def _run_phase(self, phase: PhaseSpec) -> Generator[Decision | Simultaneous, Any, None]:
        self.state.phase = phase.name
        self.emit("phase", phase=phase.name, rule=phase.rule)
        self.hooks.phase_start(self, phase)
        yield from phase.run(self)
        self.apply_deferred()
        self.hooks.phase_end(self, phase)

    def _check_over(self) -> bool:
        if self.result is not None:
            return True
        result = self.hooks.game_over(self)
        if result is not None:
            self._finish(result)
            return True
        return False

    def _finish(self, result: GameResult) -> None:
        self.result = result
        self.state.phase = "over"
        self.emit("game_over", result=result.as_dict())

    def end_now(self, result: GameResult) -> None:
        """End the game at the next check (a system's automatic victory)."""
        if self.result is None:
            self._finish(result)

    @property
    def over(self) -> bool:
        return self.result is not None and not self._pending

    # -- decisions -----------------------------------------------------------------------------
    @property
    def pending(self) -> Decision | None:
        """The decision waiting for an answer, or ``None`` when the game is over."""
        if not self._pending:
            return None
        return self._pending[len(self._answers)] if self._simultaneous else self._pending[0]

    @property
    def waiting(self) -> list[Decision]:
        """Every decision asked now and not yet answered: the pending one and, in a set of
        simultaneous decisions, those after it (none of them depends on the answers before it:
        no answer touches the game until all are in). A web table lets each seat answer its own
        ahead and plays them in this order (docs/decisions.md CORE-82)."""
        if not self._pending:
            return []
        return self._pending[len(self._answers):] if self._simultaneous else self._pending[:1]

    def answer(self, choice: Choice) -> None:
        """Answer the pending decision. An illegal choice raises :class:`RulesError` and changes
        nothing."""
        if self.failure is not None:
            raise self.failure
        decision = self.pending
        if decision is None:
            raise HexwarError("the game is over; there is no decision to answer")
        decision.check(choice)
        choice = normalise(choice)
        # a nested game's decision says so in the log (CORE-87): the fight may end with it
        self._nested_of = (self.nested.key, self.nested.game.scenario.system) if self.nested else None
        self.decisions.append({"side": decision.side, "kind": decision.kind, "choice": choice})
        if self._simultaneous:
            self._answers.append(choice)
            if len(self._answers) < len(self._pending):
                self._record_decision(decision, choice)
                return
            answers, self._answers = self._answers, []
            digest = self._guarded_advance(answers)
        else:
            digest = self._guarded_advance(choice)
        self._record_decision(decision, choice, digest)

    def _guarded_advance(self, value: Any) -> str:
        """Advance the sequence of play and return the state hash after it; when a plugin's code
        raises (or leaves a value in the state that is not JSON), put the game back as it was
        after the last decision played in full, end it, and raise :class:`PluginFailure` naming
        the plugin (any other error too is raised with the game put back)."""
        kept = len(self.decisions) - 1
        try:
            self._advance(value)
            try:
                return self.state.digest()
            except TypeError as exc:
                owner, where = self._non_json_owner()
                raise PluginFailure(owner, f"{exc} (at {where})", decisions=kept) from exc
        except Exception as exc:
            del self.decisions[kept:]
            self._pending, self._answers, self._simultaneous, self._deferred = [], [], False, []
            self._restore(kept)
            failure = self._failed(exc, kept)
            self.failure = failure if isinstance(failure, HexwarError) else None
            if failure is exc:
                raise
            raise failure from exc

    def _non_json_owner(self) -> tuple[str, str]:
        """Which plugin's state holds a value that is not JSON, and where: a top-level key of
        the system state is the plugin of that name (the system's by default)."""
        import json

        def bad(value: Any) -> bool:
            try:
                json.dumps(value, default=_reject)
            except TypeError:
                return True
            return False

        for key, value in sorted(self.state.data.items()):
            if bad(value):
                owner = key if key in {n for n, _ in self.pm.list_name_plugin()} else None
                return owner or self.scenario.system, f"state data {key!r}"
        for uid, unit in sorted(self.state.units.items()):
            for key, value in sorted(unit.state.items()):
                if bad(value):
                    return self.scenario.system, f"unit {uid!r} state {key!r}"
        return self.scenario.system, "the game state"

    def _restore(self, kept: int) -> None:
        """Put the state back as it was after decision ``kept``: the same scenario, seed and
        plugins re-run over the decisions kept (a copy of the state before every decision would
        slow every game down; this costs only when a game fails)."""
        try:
            again = Game(self.scenario, seed=self.seed, options=self.rules_enabled,
                         extra_plugins=self._extra, local_plugins=self._local)
            for record in self.decisions[:kept]:
                again.answer(record["choice"])
        except Exception:  # a plugin that fails differently the second time: keep what is there
            return
        self.state, self.result = again.state, again.result

    def _failed(self, exc: Exception, kept: int | None) -> Exception:
        """The error to raise for ``exc`` raised by the sequence of play: a
        :class:`PluginFailure` naming the plugin whose code raised, unless ``exc`` already is a
        deliberate hexwar error or no plugin's code raised it."""
        if isinstance(exc, HexwarError):
            return exc
        systems = [self.scenario.system, *self.scenario.guest_systems()]
        plugin = plugin_of_traceback(self.pm, exc.__traceback__, systems)
        if plugin is None:
            return exc
        return PluginFailure(plugin, f"{type(exc).__name__}: {exc}", decisions=kept)

    def _record_decision(self, decision: Decision, choice: Choice, digest: str | None = None) -> None:
        digest = digest if digest is not None else self.state.digest()
        self.decisions[-1]["hash"] = digest
        # a secret choice is the deciding side's alone until the phase reveals it (the
        # umpire's, the umpire's alone: docs/decisions.md CORE-50)
        record = {"type": "decision", "n": len(self.decisions), "side": decision.side,
                  "kind": decision.kind, "choice": choice, "hash": digest}
        if self._nested_of is not None:
            record["nested"], record["system"] = self._nested_of
        self.log.append(record, visible_to=() if decision.side == UMPIRE else (decision.side,))

    def _advance(self, value: Any) -> None:
        try:
            item = self._gen.send(value)
        except StopIteration:
            self._pending = []
            self._simultaneous = False
            return
        if isinstance(item, Simultaneous):
            if not item.decisions:
                raise HexwarError("a phase yielded an empty set of simultaneous decisions")
            self._pending, self._simultaneous = list(item.decisions), True
        elif isinstance(item, Decision):
            self._pending, self._simultaneous = [item], False
        else:
            raise HexwarError(f"phase {self.state.phase!r} yielded {item!r}, not a Decision")

    def play(
        self,
        controllers: Mapping[str, Controller],
        *,
        on_decision: Callable[[Game], None] | None = None,
        max_decisions: int = 1_000_000,
    ) -> GameResult:
        """Run to the end, asking each side's controller; returns the result."""
        missing = [s for s in self.state.sides if s not in controllers]
        if missing:
            raise HexwarError(f"no controller for side(s) {', '.join(missing)}")
        # the umpire's seat, when no controller is given for it: the automatic umpire
        controllers = {UMPIRE: AutomaticUmpire(), **controllers}
        count = 0
        while (decision := self.pending) is not None:
            view = self.view(decision.side)
            choice = self.controller_for(decision.side, controllers).choose(decision, view)
            self.answer(choice)
            count += 1
            if on_decision is not None:
                on_decision(self)
            if count >= max_decisions:
                raise HexwarError(f"game did not end within {max_decisions} decisions")
        assert self.result is not None
        return self.result

    def controller_for(self, side: str, controllers: Mapping[str, Controller]) -> Controller:
        """Who answers ``side``'s pending decision: its controller, or while a nested game runs,
        the one the nested game names (the nested system's AI for an AI player, CORE-87)."""
        if self.nested is not None:
            return self.nested.controller(side, controllers[side])
        return controllers[side]

    # -- services for phases ------------------------------------------------------------------
    def emit(self, type: str, *, visible_to: Iterable[str] | None = None, **payload: Any) -> None:
        """Log an event. ``visible_to`` limits it to those sides (``None``: everyone)."""
        event = {"type": type, "turn": self.state.turn, "phase": self.state.phase, **payload}
        shown = None if visible_to is None else tuple(visible_to)
        if self.umpire is not None:  # an umpired game: every record passes the umpire
            self.umpire.record(event, shown)
            return
        self.log.append(event, visible_to=shown)

    def report(
        self,
        what: str,
        *,
        result: Any,
        modifiers: Iterable[Modifier] = (),
        rules: Iterable[str] = (),
        visible_to: Iterable[str] | None = None,
        **payload: Any,
    ) -> None:
        """Log a rules result with the modifiers and rule references that produced it."""
        self.emit(
            "result", visible_to=visible_to, what=what, result=result,
            modifiers=[m.as_dict() for m in modifiers], rules=sorted(set(rules)), **payload,
        )

    def defer(self, label: str, effect: Callable[[], None]) -> None:
        """Queue an effect to apply when the current step ends (MBT 5.3: simultaneous steps)."""
        self._deferred.append((label, effect))

    def apply_deferred(self) -> None:
        """Apply every queued effect, in the order they were queued."""
        queued, self._deferred = self._deferred, []
        for _label, effect in queued:
            effect()

    @property
    def los_rules(self) -> LosRules:
        if self._los_rules is None:
            self._los_rules = self.hooks.los_rules(self, self.scenario.system)
        return self._los_rules

    def unit(self, unit_id: str) -> Unit:
        try:
            return self.state.units[unit_id]
        except KeyError:
            raise RulesError(f"no unit with id {unit_id!r} in this game") from None

    def other_sides(self, side: str) -> list[str]:
        return [s for s in self.state.sides if s != side]

    def view(self, side: str | None) -> SideView:
        """What ``side`` may know now (``None``: the umpire, who knows everything; the umpire's
        seat ``"umpire"``: an :class:`~hexwar.core.engine.umpire.UmpireView`)."""
        from hexwar.core.engine.view import build_view

        if self.nested is not None:  # the pending decision is the nested game's: so is the view
            return self.nested.game.view(side)
        if side == UMPIRE and UMPIRE not in self.state.sides:
            return UmpireView(self)
        return build_view(self, side)

    def _on_roll(self, roll: Roll) -> None:
        event = {"type": "roll", "turn": self.state.turn, "phase": self.state.phase,
                 **roll.as_dict()}
        if self.umpire is not None:  # the umpire handles every die roll
            self.umpire.record(event, roll.visible_to)
            return
        self.log.append(event, visible_to=roll.visible_to)


@functools.cache
def _hexwar_version() -> str:
    """hexwar's installed version (looked up once: a metadata search costs 10 ms a game)."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("hexwar")
    except PackageNotFoundError:  # running from a source tree without an install
        return "0+unknown"
