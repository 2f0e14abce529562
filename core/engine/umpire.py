"""The umpire's seat: a seat that sees everything, screens what each side is told, reveals
information to a side, rolls dice in secret on the sides' behalf and makes the decisions the
rules leave to the umpire (docs/umpire.md; docs/decisions.md CORE-50 to CORE-53).

A game is *umpired* when a plugin installs an :class:`Umpire` on it (``install(game, umpire)``,
usually from ``hexwar_setup_game``). From then on every record the game logs passes through the
umpire (:meth:`Umpire.record`): the system's umpire narrows who may see it (:meth:`Umpire.screen`)
and may tell each side its own version (:meth:`Umpire.tell`). The umpire's own decisions are
ordinary :class:`~hexwar.core.engine.decisions.Decision` s asked of the seat :data:`UMPIRE`, so
a person (any controller: the terminal, a web seat) or the automatic umpire
(:class:`AutomaticUmpire`, which follows the system's documented policies) answers them, and a
replay answers them from the log like any other decision. The umpire's seat reads the game
through :class:`UmpireView`, the same reading interface as a side's
:class:`~hexwar.core.engine.view.SideView`, seeing everything.

Records for the umpire alone carry ``visible_to: []``: no side's log holds them
(:func:`hexwar.core.engine.record.side_events`); the umpire's log is the full log.
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from hexwar.core.engine.decisions import Decision, normalise
from hexwar.core.engine.view import SideView
from hexwar.core.errors import HexwarError, RulesError
from hexwar.core.kit.stash import StashKey
from hexwar.core.types import Choice

if TYPE_CHECKING:
    from hexwar.core.engine.game import Game
    from hexwar.core.engine.state import GameState

#: the seat of the umpire: the ``side`` of every decision the umpire makes
UMPIRE = "umpire"
#: ``visible_to`` of a record only the umpire may read
UMPIRE_ONLY: tuple[str, ...] = ()
#: the record type of what the umpire tells one side
REPORT = "umpire_report"
#: the longest message a person umpire may send a side (a radio message, MBT 24.4.2)
MAX_MESSAGE = 500
#: the message every reveal offers for each side
NO_NEWS = "nothing to report"

Step = Generator[Any, Any, Any]

#: side -> player -> the ids of the units that player commands, for a game with several players
#: on a side (a web table's seats, docs/decisions.md CORE-81). Kept in the game's stash, never
#: in its state: it changes what each player is told, not what the rules decide.
SEATING: StashKey[dict[str, dict[str, frozenset[str]]]] = StashKey("seating")


#: the same split when the game's record holds it (the header's ``seating``): then the rules
#: decide each player's options from his own knowledge (docs/decisions.md CORE-102)
RECORDED_SEATING: StashKey[dict[str, dict[str, frozenset[str]]]] = StashKey("recorded_seating")


def record_seating(game: Game, split: Mapping[str, Mapping[str, Any]]
                   ) -> dict[str, dict[str, frozenset[str]]]:
    """Check a recorded split (side -> player -> unit ids, in the players' order) against the
    game's units and put it in the stash; returns it. Every unit of a split side must have
    exactly one player."""
    out: dict[str, dict[str, frozenset[str]]] = {}
    for side, players in split.items():
        if side not in game.state.sides:
            raise HexwarError(f"seating: the game has no side {side!r} "
                              f"(its sides: {', '.join(game.state.sides)})")
        ids = {u.id for u in game.state.units_of(side)}
        taken: dict[str, str] = {}
        out[side] = {}
        for player, units in players.items():
            mine = frozenset(str(u) for u in units)
            for uid in sorted(mine):
                if uid not in ids:
                    raise HexwarError(f"seating: {side}:{player} names {uid!r}, not a unit of "
                                      f"{side}")
                if uid in taken:
                    raise HexwarError(f"seating: {uid} is given to both {taken[uid]} and {player}")
                taken[uid] = player
            out[side][str(player)] = mine
        left = sorted(ids - set(taken))
        if left:
            raise HexwarError(f"seating: every unit of {side} needs a player; "
                              f"{', '.join(left)} have none")
    if out:
        game.stash[SEATING] = out
        game.stash[RECORDED_SEATING] = out
    return out


def seating_record(split: Mapping[str, Mapping[str, frozenset[str]]]) -> list[dict[str, Any]]:
    """The header's form of a split: a list, so the players keep their order (the first is the
    side's commander, CORE-81) through JSON written with sorted keys."""
    return [{"side": side, "player": player, "units": sorted(units)}
            for side, players in split.items() for player, units in players.items()]


def seating_of_header(header: Mapping[str, Any]) -> dict[str, dict[str, list[str]]]:
    """The split a record's header holds (none: one player a side)."""
    out: dict[str, dict[str, list[str]]] = {}
    entries = header.get("seating") or []
    if not isinstance(entries, list):
        raise HexwarError("the header's seating must be a list of {side, player, units}")
    for e in entries:
        if not isinstance(e, Mapping) or not isinstance(e.get("units"), list):
            raise HexwarError("the header's seating must be a list of {side, player, units}")
        out.setdefault(str(e["side"]), {})[str(e["player"])] = [str(u) for u in e["units"]]
    return out


def recorded_seating(game: Game) -> dict[str, dict[str, frozenset[str]]]:
    """The split the game's record holds: the rules may decide from it (CORE-102)."""
    return game.stash.get(RECORDED_SEATING) or {}


def seating(game: Game) -> dict[str, dict[str, frozenset[str]]]:
    """The players of each side that has several (empty: one player a side)."""
    return game.stash.get(SEATING) or {}


def player_of(game: Game, unit_id: str) -> str | None:
    """The player who commands ``unit_id`` (``None``: its side has one player)."""
    for players in seating(game).values():
        for player, units in players.items():
            if unit_id in units:
                return player
    return None


@dataclass(frozen=True)
class Answered:
    """A decision the umpire answers itself (:meth:`Umpire.carry_out`)."""

    choice: Choice


#: what :meth:`Umpire.carry_out` does with one decision: answer it, or ask another instead
Handler = Callable[[Decision], "Answered | Decision"]


@dataclass(frozen=True)
class UmpireDecisionKind:
    """One kind of decision the umpire's seat is asked: what it decides (``summary``), the rule
    that gives it to the umpire, the shape of a choice, and what the automatic umpire does
    (``policy``, with the decision entry that documents it)."""

    kind: str
    rule: str
    summary: str
    choice: str
    policy: str

    def as_dict(self) -> dict[str, str]:
        return {"kind": self.kind, "rule": self.rule, "summary": self.summary,
                "choice": self.choice, "policy": self.policy}


#: the decision every umpire is offered, whatever the system
REVEAL = UmpireDecisionKind(
    "umpire.reveal", "",
    "tell one side something: a message, or a unit the system lets the umpire show it",
    '"done", {"side": SIDE, "message": TEXT} or one of the listed unit reveals '
    '{"side": SIDE, "unit": ID, ...}',
    'answers "done": the automatic umpire tells a side only what the rules report '
    "(docs/decisions.md CORE-52)")


class Umpire:
    """The umpire of one game. The core's services (telling a side, secret rolls, asking the
    umpire's seat) are here; a system subclasses it to screen its own records
    (:meth:`screen`, :meth:`follow_up`), to offer unit reveals (:meth:`reveal_options`,
    :meth:`reveal_unit`), and to give the automatic umpire its policies (:meth:`policy`,
    :attr:`kinds`). The base screens nothing: an installed base umpire changes no record."""

    #: the system's own umpire decision kinds (the core's :data:`REVEAL` is always offered)
    kinds: tuple[UmpireDecisionKind, ...] = ()
    #: fields the sides' logs leave out, named in the header as ``umpire_only``: the scenario's
    #: text and hash (the scenario is the umpire's; it lists every unit, MBT 24.1) and the number
    #: of a decision (``decision.n``, which would count the other sides' and the umpire's)
    header_secrets: tuple[str, ...] = ("scenario_text", "scenario_sha256", "decision.n")

    def __init__(self, game: Game) -> None:
        self.game = game

    # -- information ---------------------------------------------------------------------------
    def record(self, event: dict[str, Any], visible_to: tuple[str, ...] | None) -> None:
        """Log ``event`` (from ``game.emit`` or a die roll) as the umpire lets it through, then
        whatever the umpire tells the sides about it."""
        if event.get("type") == REPORT:
            self.game.log.append(event, visible_to=visible_to)
            return
        shown = self.screen(event, visible_to)
        self.game.log.append(event, visible_to=None if shown is None else tuple(shown))
        self.follow_up(event)

    def screen(self, event: dict[str, Any],
               visible_to: tuple[str, ...] | None) -> tuple[str, ...] | None:
        """Who may see ``event``: ``visible_to`` as the rules emitted it (``None``: everyone),
        narrowed as the system's umpire decides. The base lets it through unchanged."""
        return visible_to

    def follow_up(self, event: dict[str, Any]) -> None:
        """After ``event`` is logged: tell the sides what they learn of it (:meth:`tell`)."""

    def player_state(self, side: str, player: str, state: dict[str, Any]) -> dict[str, Any]:
        """``side``'s system ``state`` as its player ``player`` may know it, when a side is split
        among players (CORE-102). The base knows no per-player fog: the side's state."""
        return state

    def tell(self, side: str, what: str, *, rule: str = "", **payload: Any) -> None:
        """Report ``what`` (with ``payload``) to ``side`` alone: a record of type
        :data:`REPORT` in the log, visible to that side, so a replay reproduces it."""
        if side not in self.game.state.sides:
            raise RulesError(f"the umpire cannot tell {side!r}: not a side of this game "
                             f"({', '.join(self.game.state.sides)})")
        event = {"type": REPORT, "turn": self.game.state.turn, "phase": self.game.state.phase,
                 "what": what, **({"rule": rule} if rule else {}), **payload}
        self.game.log.append(event, visible_to=(side,))

    # -- reveals ---------------------------------------------------------------------------------
    def reveal_options(self, side: str) -> list[dict[str, Any]]:
        """The unit reveals the umpire may make to ``side`` now (the system's; base: none)."""
        return []

    def reveal_unit(self, choice: dict[str, Any]) -> None:
        """Carry out one of :meth:`reveal_options` (the system's)."""
        raise RulesError(f"this game's umpire reveals no units ({choice!r})")

    def player_units(self, side: str, player: str) -> dict[str, dict[str, Any]] | None:
        """What one player of a side with several (:data:`SEATING`) sees: unit id -> as shown,
        his own units and what his own units sighted; ``None`` when the system keeps no
        per-player fog (the player then sees his side's view). The base keeps none."""
        return None

    def reveal_step(self, sides: Sequence[str], *, rule: str = "", limit: int = 50) -> Step:
        """Ask the umpire's seat, until it answers ``"done"``, what to tell ``sides``: a
        message to one side, or one of the system's unit reveals (at most ``limit`` a call)."""
        for _ in range(limit):
            # a canned message per side lists the shape of a message among the options
            reveals = [*({"side": s, "message": NO_NEWS} for s in sides),
                       # a side split among players: a message to one of them (CORE-83)
                       *({"side": s, "player": p, "message": NO_NEWS} for s in sides
                         for p in seating(self.game).get(s, {})),
                       *(o for s in sides for o in self.reveal_options(s))]
            choice = yield from self.ask(
                REVEAL.kind, options=["done", *reveals], rule=rule,
                validate=self._reveal_validator(sides),
                context={"sides": list(sides)},
                prompt="Tell a side something (a message or a unit), or done")
            if choice == "done":
                return
            if "message" in choice:
                to = {"player": str(choice["player"])} if choice.get("player") else {}
                self.tell(str(choice["side"]), "message", message=str(choice["message"]),
                          rule=rule, **to)
            else:
                self.reveal_unit(dict(choice))

    def _reveal_validator(self, sides: Sequence[str]) -> Callable[[Choice], str | None]:
        def validate(choice: Choice) -> str | None:
            if not isinstance(choice, dict) or set(choice) - {"player"} != {"side", "message"}:
                return ('a reveal is "done", {"side": SIDE, "message": TEXT} (optionally with '
                        '"player": NAME) or one of the listed unit reveals')
            if choice["side"] not in sides:
                return f"{choice['side']!r} is not a side the umpire may tell now ({', '.join(sides)})"
            if "player" in choice:
                players = seating(self.game).get(str(choice["side"]), {})
                if choice["player"] not in players:
                    known = ", ".join(sorted(players)) or "it has one player"
                    return f"{choice['player']!r} is not a player of {choice['side']} ({known})"
            message = choice["message"]
            if not isinstance(message, str) or not message.strip():
                return "the message must be a text"
            if len(message) > MAX_MESSAGE:
                return f"the message is longer than {MAX_MESSAGE} characters"
            return None

        return validate

    # -- dice ------------------------------------------------------------------------------------
    def roll(self, die: str, purpose: str, *, for_side: str | None = None) -> int:
        """Roll ``die`` (``d10``, ``d10_zero``, ``d100``, ``d6``) for the umpire alone, on
        ``for_side``'s behalf when given (the purpose says so)."""
        method = getattr(self.game.dice, die, None)
        if die not in ("d10", "d10_zero", "d100", "d6") or method is None:
            raise HexwarError(f"the umpire has no die {die!r} (d10, d10_zero, d100, d6)")
        label = f"{purpose} (for {for_side})" if for_side else purpose
        return int(method(label, visible_to=UMPIRE_ONLY))

    def draw(self, purpose: str, n: int) -> int:
        """A secret draw of 0..n-1 (a coin flipped, a die rolled to settle a choice)."""
        return self.game.dice.choice_index(purpose, n, visible_to=UMPIRE_ONLY)

    # -- decisions -------------------------------------------------------------------------------
    def ask(self, kind: str, *, options: Sequence[Choice] | None = None,
            validate: Callable[[Choice], str | None] | None = None,
            context: dict[str, Any] | None = None, prompt: str = "", rule: str = "") -> Step:
        """Ask the umpire's seat a decision; returns the choice (``yield from``)."""
        choice = yield Decision(UMPIRE, kind, options=options, validate=validate,
                                context=dict(context or {}), prompt=prompt, rule=rule)
        return choice

    def carry_out(self, step: Step, handlers: Mapping[str, Handler]) -> Step:
        """Run ``step`` (a phase or part of one, written for sides that decide for themselves)
        with the umpire standing between it and the sides: a decision whose kind has a handler
        is given to it, and the handler either answers it itself (:class:`Answered`: the umpire
        carrying out a side's written instructions; the answer is checked like any choice) or
        returns the decision to ask instead (usually the umpire's seat's, :meth:`decision`).
        Every other decision goes to its side as written. Returns what ``step`` returns."""
        value: Any = None
        while True:
            try:
                item = step.send(value)
            except StopIteration as stop:
                return stop.value
            handler = handlers.get(item.kind) if isinstance(item, Decision) else None
            if handler is None:
                value = yield item
                continue
            assert isinstance(item, Decision)
            out = handler(item)
            if isinstance(out, Answered):
                item.check(out.choice)
                value = normalise(out.choice)
            else:
                value = yield out

    def decision(self, kind: str, like: Decision, **changes: Any) -> Decision:
        """``like`` asked of the umpire's seat as ``kind`` (its options, validator, context,
        prompt and rule unless ``changes`` say otherwise; the side it was meant for in
        ``context["for_side"]``)."""
        fields: dict[str, Any] = {
            "options": like.options, "validate": like.validate,
            "context": {**like.context, "for_side": like.side}, "prompt": like.prompt,
            "rule": like.rule}
        fields.update(changes)
        return Decision(UMPIRE, kind, **fields)

    def policy(self, decision: Decision, view: UmpireView) -> Choice | None:
        """The automatic umpire's answer to ``decision`` (the system's policies), or ``None``
        for the core's fallback (:class:`AutomaticUmpire`)."""
        return None

    def decision_kinds(self) -> list[UmpireDecisionKind]:
        """Every kind of decision this game's umpire seat may be asked."""
        return [REVEAL, *self.kinds]


def install(game: Game, umpire: Umpire) -> Umpire:
    """Make ``game`` umpired: every record it logs from now on passes through ``umpire``."""
    if umpire.game is not game:
        raise HexwarError("an umpire belongs to the game it was made for")
    if UMPIRE in game.state.sides:
        raise HexwarError(f"a side may not be called {UMPIRE!r} in an umpired game: it is the "
                          "umpire's seat")
    game.umpire = umpire
    return umpire


def umpire_of(game: Game) -> Umpire | None:
    """The game's umpire, or ``None`` when the game is not umpired."""
    return game.umpire


class UmpireView(SideView):
    """What the umpire's seat knows: everything.

    The reading interface of :class:`~hexwar.core.engine.view.SideView` (``turn``, ``phase``,
    ``board``, ``units``: every unit with its full state; ``system_state``: the system's state
    for the umpire; ``events()``: the full log; ``header``: with the seed), plus :attr:`state`
    (the whole game state), :meth:`side_view` (what one side knows now, to show the umpire
    beside the map), :meth:`hidden_from` and :meth:`decision_kinds`. ``side`` is ``None`` (the
    umpire, as in ``game.view(None)``); ``seat`` is :data:`UMPIRE`.
    """

    seat = UMPIRE

    def __init__(self, game: Game) -> None:
        super().__init__(game, None)
        self._game = game
        self.umpire: Umpire | None = game.umpire

    @property
    def state(self) -> GameState:
        """The whole game state: the umpire may know all of it."""
        return self._game.state

    @property
    def sides(self) -> tuple[str, ...]:
        return self._game.state.sides

    def side_view(self, side: str) -> SideView:
        """What ``side`` knows now (its units, contacts, log), as its own seat sees it."""
        if side not in self._game.state.sides:
            raise HexwarError(f"no side {side!r} in this game ({', '.join(self._game.state.sides)})")
        return self._game.view(side)

    def hidden_from(self, side: str) -> list[str]:
        """The units ``side`` cannot see now (their ids: the umpire's knowledge)."""
        seen = set(self._game.hooks.visible_units(self._game, side))
        return sorted(u for u in self._game.state.units if u not in seen)

    def decision_kinds(self) -> list[dict[str, str]]:
        """The kinds of decision this seat may be asked, with the automatic umpire's policy."""
        kinds = self.umpire.decision_kinds() if self.umpire is not None else [REVEAL]
        return [k.as_dict() for k in kinds]


class AutomaticUmpire:
    """The umpire's seat played by the computer: the system's documented policies
    (:meth:`Umpire.policy`); where the system has none, ``"done"`` or ``"pass"`` when offered,
    else the first listed option (docs/decisions.md CORE-52)."""

    name = "auto-umpire"

    def choose(self, decision: Decision, view: SideView) -> Choice:
        umpire = view.umpire if isinstance(view, UmpireView) else None
        if umpire is not None and isinstance(view, UmpireView):
            choice = umpire.policy(decision, view)
            if choice is not None:
                return choice
        options = list(decision.options or [])
        for word in ("done", "pass"):
            if word in options:
                return word
        if options:
            return options[0]
        raise HexwarError(f"the automatic umpire cannot answer {decision.kind!r}: it has no "
                          "policy for it and the decision lists no options")

