"""The web table's game: one authoritative game, its seats, its AI players, undo and saves.

Nothing here knows about HTTP: :mod:`hexwar.core.web.server` calls these methods (one at a time,
under :attr:`Table.lock`) and sends each connection the message :meth:`Table.message` builds for
its seat. That message is made from the seat's own view only (``game.view(side)``: the units the
side's sighting rules show, its own log, its own pending decision), so nothing a side may not know
is ever put into it.

The game is its scenario, its seed and its decisions: it is saved atomically after every decision
(``record.save_game``), and :meth:`Table.resume` rebuilds it from the save after a restart.
"""

from __future__ import annotations

import hashlib
import json
import logging
import re
import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from hexwar.core.engine.record import SavedGame, load_save, save_game, write_atomic
from hexwar.core.errors import HexwarError, RulesError
from hexwar.core.web.players import PlayerView, Split, extra_plugins, owner
from hexwar.core.web.present import finish, for_page, generic_presentation
from hexwar.core.web.seats import Seat, make_seats, read_seats, write_seats

if TYPE_CHECKING:
    from hexwar.core.engine.controllers import Controller
    from hexwar.core.engine.decisions import Decision
    from hexwar.core.engine.game import Game
    from hexwar.core.engine.view import SideView

#: how the umpire's seat sees the game: the core's all-seeing view unless an umpire role
#: plugs in its own (anything with ``units``, ``events()``, ``system_state``, ``side``)
UmpireView = Callable[["Game"], "SideView"]
#: the side name of a decision the umpire makes (an umpire role's): the umpire's seat answers it,
#: or the automatic umpire given to the table
UMPIRE_SIDE = "umpire"


log = logging.getLogger("hexwar.web")


class SeatError(HexwarError):
    """A seat asked for something it may not do (not its decision, nothing to undo...)."""


@dataclass
class Proposal:
    """A seat's proposal to resume the game from one of its snapshots (docs/decisions.md
    CORE-104): it takes effect when every seat that must agree has agreed."""

    number: int
    snapshot: str
    turn: int
    by: str
    agreed: set[str]


def _default_umpire_view(game: Game) -> SideView:
    """The umpire's view: the core umpire role's own (``game.view("umpire")``, docs/umpire.md)
    where this hexwar has that role, else the all-seeing ``game.view(None)``."""
    if hasattr(game, "umpire"):
        return game.view(UMPIRE_SIDE)
    return game.view(None)


def _automatic_umpire() -> Controller | None:
    """The core's automatic umpire (docs/umpire.md) for a table without a person in the umpire's
    seat, where this hexwar has one."""
    import importlib

    try:
        module = importlib.import_module("hexwar.core.engine.umpire")
    except ImportError:
        return None
    factory = getattr(module, "AutomaticUmpire", None)
    return None if factory is None else cast("Controller", factory())


@dataclass
class _Shown:
    """The decision a seat was last shown, to read its answer: the decision itself, the seat's
    serial number for it and the presentation with the choices' values."""

    decision: Decision
    serial: int
    presentation: dict[str, Any]


class Table:
    """One game at the web table. Build it with :meth:`new` or :meth:`resume`."""

    #: the most snapshots of one save kept beside it; a new one removes the oldest (CORE-105)
    max_snapshots: int = 20

    def __init__(self, game: Game, *, players: Mapping[str, str], seats: list[Seat],
                 save_path: Path, controllers: Mapping[str, Controller],
                 umpire_view: UmpireView | None = None,
                 umpire_controller: Controller | None = None,
                 split: Split | None = None, owners: Mapping[int, str] | None = None) -> None:
        self.game = game
        #: answers the umpire's decisions when no person sits in the umpire's seat
        if umpire_controller is None and not any(s.role == "umpire" for s in seats):
            umpire_controller = _automatic_umpire()
        self.umpire_controller = umpire_controller
        self.players = dict(players)
        self.seats = {s.token: s for s in seats}
        self.save_path = save_path
        self.controllers = dict(controllers)
        self.umpire_view = umpire_view or _default_umpire_view
        self.lock = threading.RLock()
        #: bumped by every decision and undo (the board pictures are cached by it)
        self.serial = 0
        #: the side holding the hot-seat device (``None``: the screen is hidden)
        self.hot_side: str | None = None
        #: a side split among players (player -> unit patterns), given to every rebuilt game
        self.split = {s: {p: tuple(u) for p, u in ps.items()} for s, ps in (split or {}).items()}
        #: decision number -> the player who made it (sides with several players)
        self.owners: dict[int, str] = dict(owners or {})
        #: per seat token: the decision it was last shown, and its own count of decisions shown
        #: (a page's answer names it; counted per seat, so no seat learns how many decisions the
        #: others made, CORE-63)
        self._shown: dict[str, _Shown] = {}
        self._serials: dict[str, int] = {}
        #: answers given ahead to simultaneous decisions, by ``id`` of the decision: played in
        #: the engine's order when each comes up (docs/decisions.md CORE-82)
        self._ahead: dict[int, tuple[Decision, Any, str]] = {}
        #: per decision count, what each side knew then (:meth:`_knowledge`)
        self._known: dict[int, dict[str, str]] = {}
        self._svg: dict[tuple[str | None, int], str] = {}
        #: the open proposal to resume from a snapshot, and the count of proposals made
        self.proposal: Proposal | None = None
        self._proposals = 0
        #: snapshot name -> ((mtime, size), its game-turn, its header): listing reads each once
        self._listed: dict[str, tuple[tuple[float, int], int, dict[str, Any]]] = {}

    # -- building ----------------------------------------------------------------------------
    @classmethod
    def new(cls, scenario: Any, *, seed: int, options: tuple[str, ...] = (),
            players: Mapping[str, str], save_path: Path, hotseat: bool = False,
            umpire: bool = False, umpire_view: UmpireView | None = None,
            split: Split | None = None) -> Table:
        """A new game of ``scenario`` (a loaded :class:`Scenario`), its seats, saved at once.
        ``split``: side -> player -> unit ids or patterns, a seat for each player (CORE-81)."""
        from hexwar.core.engine.game import Game
        from hexwar.core.engine.umpire import seating
        from hexwar.core.web.players import scenario_split

        # the scenario's players (a unit's state 'player'), overridden side by side by --player
        humans = [s for s in scenario.side_names() if players.get(s) == "human"]
        given = split
        split = {**({} if hotseat else scenario_split(scenario, humans)), **(given or {})}
        from hexwar.core.web.players import resolve_scenario

        # the split is part of the game's record: the rules tell each player his own (CORE-102)
        resolved = resolve_scenario(scenario, split) if split else {}
        game = Game(scenario, seed=seed, options=options, seating=resolved)
        words = _players(game, players)
        if given and hotseat:
            raise SeatError("several players on a side sit at seats of their own, not hot-seat")
        for side in split or {}:
            if words.get(side) != "human":
                raise SeatError(f"--player: {side} is played by the computer; only a side of "
                                "people is split among players")
        controllers = _ai_controllers(game, words)
        seats = make_seats(game.state.sides, words, hotseat=hotseat, umpire=umpire,
                           split=seating(game))
        table = cls(game, players=words, seats=seats, save_path=save_path,
                    controllers=controllers, umpire_view=umpire_view, split=seating(game))
        write_seats(save_path, seats)
        table.play_ai()
        table.save()
        return table

    @classmethod
    def resume(cls, save_path: Path, *, players: Mapping[str, str] | None = None,
               hotseat: bool = False, umpire: bool = False,
               umpire_view: UmpireView | None = None) -> Table:
        """The game of ``save_path`` rebuilt from its seed and decisions (checked against the
        recorded state hashes), with the seats kept beside it (new seats when there are none)."""
        saved = load_save(save_path)
        kept = read_seats(save_path, None)
        split = _split_of(kept or [])
        game, words, controllers, owners = _rebuild_table_game(saved, players or saved.players,
                                                               split)
        seats = read_seats(save_path, game.state.sides)
        if seats is None:
            seats = make_seats(game.state.sides, words, hotseat=hotseat, umpire=umpire)
            write_seats(save_path, seats)
        table = cls(game, players=words, seats=seats, save_path=save_path,
                    controllers=controllers, umpire_view=umpire_view, split=split,
                    owners=owners)
        table._load_ahead()  # the answers given ahead survive a restart (CORE-106)
        table.play_ai()
        table.save()
        return table

    # -- seats ---------------------------------------------------------------------------------
    def seat(self, token: str) -> Seat | None:
        """The seat of ``token``, compared in constant time, or ``None``."""
        import hmac

        found = None
        for known, seat in self.seats.items():
            if hmac.compare_digest(known.encode(), token.encode()):
                found = seat
        return found

    def side_of(self, seat: Seat) -> str | None:
        """The side whose eyes the seat sees with now (``None``: the umpire's, or a hidden
        hot-seat screen)."""
        if seat.role == "side":
            return seat.sides[0]
        if seat.role == "hotseat":
            return self.hot_side
        return None

    def handover_to(self, seat: Seat) -> str | None:
        """For a hot-seat seat: the side the device must be passed to before anything more is
        shown, or ``None``."""
        if seat.role != "hotseat":
            return None
        d = self.game.pending
        if d is not None and d.side in seat.sides and d.side != self.hot_side:
            return d.side
        if self.hot_side is None:
            return seat.sides[0]
        return None

    def take_device(self, seat: Seat, side: str) -> None:
        """The hot-seat device is now held by ``side`` (the player pressed "I am ...")."""
        if seat.role != "hotseat" or side not in seat.sides:
            raise SeatError(f"this seat does not play {side!r}")
        wanted = self.handover_to(seat)
        if wanted is not None and wanted != side:
            raise SeatError(f"the device goes to {wanted}, not {side}")
        self.hot_side = side

    # -- views ---------------------------------------------------------------------------------
    def view(self, seat: Seat) -> SideView | None:
        if seat.role == "umpire":
            return self.umpire_view(self.game)
        side = self.side_of(seat)
        if side is None:
            return None
        if seat.player and self.game.umpire is not None:
            # MBT 24.2 and the like: a player sees what his own units sighted (CORE-81)
            shown = self.game.umpire.player_units(side, seat.player)
            if shown is not None:
                return PlayerView(self.game, side, seat.player, shown, self.owners)
        return self.game.view(side)

    def _knowledge(self, side: str) -> str:
        """A digest of everything ``side`` can tell about the game: its units, its log, its
        system state and its pending decision. Undo is allowed while the other sides' digests
        are those before the decision."""
        view = self.game.view(side)
        mine = [d.summary() | {"prompt": d.prompt} for d in self.game.waiting if d.side == side]
        blob = json.dumps([view.units, len(view.events()), view.system_state, mine],
                          sort_keys=True, default=str)
        return hashlib.sha256(blob.encode()).hexdigest()

    def _remember(self) -> None:
        """What every side knows now, under the number of decisions made (kept for the last
        human decision only: an AI's never can be undone)."""
        n = len(self.game.decisions)
        known = {s: self._knowledge(s) for s in self.game.state.sides}
        self._known = {k: v for k, v in self._known.items() if k == n - 1} | {n: known}

    def _mine(self, seat: Seat, d: Decision) -> bool:
        """Whether ``d`` is the seat's to answer (its side's, its player's: CORE-81)."""
        if seat.role == "umpire":
            return d.side == UMPIRE_SIDE
        side = self.side_of(seat)
        if side is None or d.side != side or self.players.get(side) != "human":
            return False
        return not seat.player or owner(self.game, d) == seat.player

    def decisions_made(self, seat: Seat) -> int:
        """How many of the game's decisions the seat made: the game's count would tell it how
        many the other sides made in secret (CORE-63), a side's how many its other players made
        (MBT 24.2: one instruction a unit, CORE-81); the umpire's seat knows them all."""
        decisions = self.game.decisions
        if seat.role == "umpire":
            return len(decisions)
        return sum(1 for n, d in enumerate(decisions, start=1) if d["side"] in seat.sides
                   and (not seat.player or self.owners.get(n) == seat.player))

    def can_undo(self, seat: Seat) -> bool:
        """Whether the seat may take back an answer: one given ahead and not yet played, or the
        game's last decision when it was its own and no other side could tell it was made."""
        if any(token == seat.token for _d, _c, token in self._ahead.values()):
            return True
        decisions = self.game.decisions
        if not decisions or seat.role == "umpire" or decisions[-1]["side"] not in seat.sides:
            return False
        if seat.player and self.owners.get(len(decisions)) != seat.player:
            return False
        before, after = self._known.get(len(decisions) - 1), self._known.get(len(decisions))
        if before is None or after is None:
            return False
        side = decisions[-1]["side"]
        return all(before[s] == after[s] for s in self.game.state.sides if s != side)

    # -- acting --------------------------------------------------------------------------------
    def pending_for(self, seat: Seat) -> Decision | None:
        """The decision the seat answers now: the game's pending one when it is the seat's, or,
        among simultaneous decisions, the seat's first one not yet answered (a hot-seat device
        answers in the engine's order: one screen, one side at a time)."""
        waiting = self.game.waiting
        if seat.role == "hotseat":
            waiting = waiting[:1]
        for d in waiting:
            if id(d) not in self._ahead and self._mine(seat, d):
                return d
        return None

    def serial_of(self, seat: Seat) -> int:
        """The seat's number of the decision it is shown (counted per seat, CORE-63)."""
        d = self.pending_for(seat)
        shown = self._shown.get(seat.token)
        if d is not None and (shown is None or shown.decision is not d):
            self.presentation(seat)
        return self._serials.get(seat.token, 0)

    def presentation(self, seat: Seat) -> dict[str, Any] | None:
        """The seat's pending decision as a form (``hexwar_present_decision``), kept to read
        the answer; a system's form that cannot be shown falls back to the generic one."""
        d = self.pending_for(seat)
        view = self.view(seat)
        if d is None or view is None:
            return None
        shown = self._shown.get(seat.token)
        if shown is not None and shown.decision is d:
            return shown.presentation
        try:
            presentation = finish(view, d, self.game.hooks.present_decision(view, d))
        except Exception:  # a system's form that fails must not stop the game: the plain list
            presentation = finish(view, d, generic_presentation(view, d))
            presentation["notes"] = [*presentation["notes"],
                                     "(the system's form for this decision failed; showing the "
                                     "plain list)"]
        if d.kind == "umpire.reveal" and seat.role == "umpire":
            presentation["message"] = _message_form(self.game, d)
        serial = self._serials.get(seat.token, 0) + 1
        self._serials[seat.token] = serial
        self._shown[seat.token] = _Shown(d, serial, presentation)
        return presentation

    def answer(self, seat: Seat, serial: int, *, index: int | None = None,
               value: Any = None, has_value: bool = False, ai: bool = True) -> None:
        """Answer the seat's pending decision with the choice of that index in its form, or with
        a composed value (a widget's answer). The rules check it; an illegal one raises
        :class:`RulesError` and changes nothing. An answer to a simultaneous decision that the
        engine has not reached yet is kept and played when it comes up (CORE-82)."""
        d = self.pending_for(seat)
        if d is None:
            raise SeatError("it is not this seat's decision now")
        presentation = self.presentation(seat)
        assert presentation is not None
        if serial != self._serials.get(seat.token, 0):
            raise SeatError("that decision has already been answered or taken back; "
                            "the page now shows the current one")
        if index is not None:
            choices = presentation["choices"]
            if not 0 <= index < len(choices):
                raise SeatError(f"no choice number {index} (the form has {len(choices)})")
            choice = choices[index]["choice"]
        elif has_value:
            typed = presentation.get("message") is not None and isinstance(value, Mapping) \
                and "message" in value
            if presentation["widget"] == "choose" and not typed:
                raise SeatError("this decision is answered by picking one of its choices")
            choice = value
            if presentation["widget"] == "text" and isinstance(value, str):
                try:  # a typed list or number; anything else is the word itself
                    choice = json.loads(value)
                except json.JSONDecodeError:
                    choice = value.strip()
        else:
            raise SeatError("an answer needs a choice's index or a value")
        d.check(choice)
        # the seat's page sees a new serial even when it has nothing more to answer now
        self._serials[seat.token] = serial + 1
        self._shown.pop(seat.token, None)
        if d is not self.game.pending:
            self._ahead[id(d)] = (d, choice, seat.token)
            self._save_ahead()
            return
        self._known = {}
        self._remember()
        self._play(choice)
        self._remember()
        self._play_ahead()
        if ai:
            self.play_ai()
        self.save()

    def _play(self, choice: Any) -> None:
        d = self.game.pending
        mine = owner(self.game, d) if d is not None and self.split else None
        n = len(self.game.decisions) + 1
        self.game.answer(choice)
        if mine is not None:
            self.owners[n] = mine
        self.serial += 1

    def _play_ahead(self) -> int:
        """Play the answers given ahead while the pending decision has one."""
        played = 0
        while (d := self.game.pending) is not None and id(d) in self._ahead \
                and self.game.failure is None:
            _d, choice, _token = self._ahead.pop(id(d))
            self._play(choice)
            played += 1
        if self.game.pending is None or not self.game.waiting:
            self._ahead.clear()
        return played

    def play_ai(self, *, limit: int = 100_000) -> int:
        """Let the AI sides answer (and the answers given ahead be played) until a human's
        decision is pending or the game is over."""
        played = self._play_ahead()
        while (d := self.game.pending) is not None and (
                d.side in self.controllers
                or (d.side == UMPIRE_SIDE and self.umpire_controller is not None)):
            if self.game.failure is not None:
                break
            if d.side == UMPIRE_SIDE:
                assert self.umpire_controller is not None
                choice = self.umpire_controller.choose(d, self.umpire_view(self.game))
            else:
                choice = self.game.controller_for(d.side, self.controllers).choose(d, self.game.view(d.side))
            self._play(choice)
            played += 1 + self._play_ahead()
            if played >= limit:
                break
        return played

    def play_ai_and_save(self) -> int:
        """The AI sides' answers (:meth:`play_ai`), then a save when there were any."""
        played = self.play_ai()
        if played:
            self.save()
        return played

    def undo(self, seat: Seat) -> None:
        """Take back the seat's own last answer: one given ahead (not yet played), else the
        game's last decision (replay minus one) while no other side could tell it was made."""
        if not self.can_undo(seat):
            raise SeatError("nothing to undo: the last decision is not this seat's, or the other "
                            "side has already seen its effect")
        ahead = [k for k, (_d, _c, token) in self._ahead.items() if token == seat.token]
        if ahead:
            del self._ahead[ahead[-1]]
            self._save_ahead()
            return
        # the other seats' answers given ahead survive the undo: the same decisions, by their
        # place in the game's order, are asked again after it (CORE-82)
        waiting = self.game.waiting
        base = len(self.game.decisions)
        later = {base + i: (d.side, d.kind, choice, token) for i, d in enumerate(waiting)
                 if id(d) in self._ahead for _d, choice, token in [self._ahead[id(d)]]}
        kept = self.game.decisions[:-1]
        saved = SavedGame(dict(self.game.log.events[0]), [dict(d) for d in kept],
                          dict(self.players), str(self.save_path))
        built: dict[str, Any] = {}

        def controllers_of(game: Game) -> dict[str, Controller]:
            built["controllers"] = _ai_controllers(game, self.players)
            return dict(built["controllers"])

        self.game = _rebuild(saved, controllers_of, verify=False, split=self.split)
        self.controllers = built["controllers"]
        self.owners.pop(len(kept) + 1, None)
        self.serial += 1
        self._known = {}
        self._ahead.clear()
        for i, d in enumerate(self.game.waiting):
            again = later.get(len(kept) + i)
            if again is not None and again[:2] == (d.side, d.kind):
                self._ahead[id(d)] = (d, again[2], again[3])
        self._svg.clear()
        self.save()

    def save(self) -> None:
        """Save the game atomically (the previous save survives a crash mid-write), and the
        answers given ahead beside it."""
        save_game(self.game, self.save_path, players=self.players)
        self._save_ahead()

    def _ahead_path(self) -> Path:
        return self.save_path.with_name(self.save_path.name + ".ahead")

    def _save_ahead(self) -> None:
        """The answers given ahead (CORE-82), kept beside the save, owner-only, so a restart
        keeps them (docs/decisions.md CORE-106): each by its place among the decisions asked
        after the save's last one, with its seat's token; never part of the save or a
        snapshot, never sent to a seat."""
        import os

        base = len(self.game.decisions)
        kept = [{"at": base + i, "side": d.side, "kind": d.kind, "choice": choice,
                 "token": token}
                for i, d in enumerate(self.game.waiting) if id(d) in self._ahead
                for _d, choice, token in [self._ahead[id(d)]]]
        path = self._ahead_path()
        if not kept:
            path.unlink(missing_ok=True)
            return
        write_atomic(path, json.dumps({"format": "hexwar-ahead", "version": 1,
                                       "decisions": base, "answers": kept}, sort_keys=True))
        os.chmod(path, 0o600)

    def _load_ahead(self) -> None:
        """Take back the answers kept beside the save (:meth:`_save_ahead`) when they belong to
        the game as it stands: the same number of decisions made, each answer's decision asked
        again with the same side and kind, and still legal (checked again)."""
        path = self._ahead_path()
        try:
            doc = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, json.JSONDecodeError):
            return
        base = len(self.game.decisions)
        if not isinstance(doc, dict) or doc.get("decisions") != base:
            return
        waiting = self.game.waiting
        for entry in doc.get("answers", []):
            if not isinstance(entry, dict) or not isinstance(entry.get("at"), int):
                continue
            i = entry["at"] - base
            if not 0 < i < len(waiting) or entry.get("token") not in self.seats:
                continue  # the pending one itself is asked again, never answered ahead
            d = waiting[i]
            if (d.side, d.kind) != (entry.get("side"), entry.get("kind")):
                continue
            try:
                d.check(entry.get("choice"))
            except HexwarError:
                continue
            self._ahead[id(d)] = (d, entry.get("choice"), str(entry["token"]))

    def _snapshot_pattern(self) -> re.Pattern[str]:
        stem = self.save_path.name.removesuffix(".json")
        return re.compile(re.escape(stem) + r"\.snapshot-([1-9][0-9]{0,8})\.json")

    def snapshot(self) -> Path:
        """A copy of the save, kept apart from the running one (``NAME.snapshot-K.json``, K one
        more than any snapshot of it in the folder, so a restarted server overwrites none)."""
        pattern = self._snapshot_pattern()
        numbers = [int(m.group(1)) for p in self.save_path.parent.iterdir()
                   if (m := pattern.fullmatch(p.name))]
        stem = self.save_path.name.removesuffix(".json")
        # numbered by snapshot only: the game's count of decisions would tell a seat how many
        # the other sides made in secret (docs/decisions.md CORE-63)
        path = self.save_path.with_name(f"{stem}.snapshot-{max(numbers, default=0) + 1}.json")
        write_atomic(path, self.save_path.read_text(encoding="utf-8"))
        # its seats too: 'hexwar serve SNAPSHOT' resumes it with the same seats (the players of
        # a split side, the umpire's) and URLs, not a fresh seat per side
        write_seats(path, self.seats.values())
        self._rotate_snapshots(pattern)
        return path

    def _rotate_snapshots(self, pattern: re.Pattern[str]) -> None:
        """Keep at most :attr:`max_snapshots` snapshots of this save: the oldest (lowest
        numbers) go first, with their seats files (docs/decisions.md CORE-105)."""
        numbered = sorted((int(m.group(1)), p) for p in self.save_path.parent.iterdir()
                          if (m := pattern.fullmatch(p.name)) and not p.is_symlink())
        for _n, old in numbered[:max(0, len(numbered) - max(1, self.max_snapshots))]:
            old.unlink(missing_ok=True)
            old.with_name(old.name + ".seats").unlink(missing_ok=True)
            self._listed.pop(old.name, None)

    # -- resuming from a snapshot (docs/decisions.md CORE-104) ----------------------------------
    def _snapshot_file(self, name: Any) -> tuple[Path, SavedGame]:
        """The snapshot ``name`` of this game, read: a file name of the pattern of this game's
        snapshots, in the save's own folder, a save of this very game (same header: scenario,
        rules, seed). Anything else is refused in words that do not name the host's folders."""
        shown = repr(name[:60]) if isinstance(name, str) else "of that kind"
        refusal = (f"there is no snapshot {shown} of this game (pick one that Save lists)")
        if not isinstance(name, str) or self._snapshot_pattern().fullmatch(name) is None:
            raise SeatError(refusal)
        path = self.save_path.parent / name
        if path.is_symlink() or not path.is_file():
            raise SeatError(refusal)
        try:
            saved = load_save(path)
        except HexwarError as exc:
            log.warning("web table: snapshot %s cannot be read: %s", path, exc)
            raise SeatError(f"snapshot {name} cannot be resumed: it is not a readable save") \
                from None
        if saved.header != self.game.log.events[0]:
            raise SeatError(f"snapshot {name} is a save of another game")
        return path, saved

    def snapshots(self) -> list[dict[str, Any]]:
        """This game's snapshots, oldest first: name, game-turn and time (UTC) of each."""
        pattern = self._snapshot_pattern()
        found: list[tuple[int, dict[str, Any]]] = []
        header = self.game.log.events[0]
        for path in self.save_path.parent.iterdir():
            m = pattern.fullmatch(path.name)
            if m is None or path.is_symlink() or not path.is_file():
                continue
            st = path.stat()
            key = (st.st_mtime, st.st_size)
            known = self._listed.get(path.name)
            if known is None or known[0] != key:
                try:
                    saved = load_save(path)
                except HexwarError:
                    continue
                known = (key, int(saved.final.get("turn", 0) or 0), saved.header)
                self._listed[path.name] = known
            if known[2] != header:
                continue
            when = datetime.fromtimestamp(st.st_mtime, UTC)
            found.append((int(m.group(1)), {"name": path.name, "turn": known[1],
                                            "time": when.strftime("%Y-%m-%d %H:%M:%S UTC")}))
        return [entry for _n, entry in sorted(found, key=lambda x: x[0])]

    def voters(self) -> list[Seat]:
        """The seats that must agree to resume: every seat of people (a side's, the hot-seat
        device's, the umpire's); a seat whose side the computer now plays counts as agreeing."""
        return [s for s in self.seats.values()
                if s.role != "side" or self.players.get(s.sides[0]) == "human"]

    def _own_seat(self, seat: Seat) -> Seat:
        """``seat`` if it is one of this table's (a forged one is refused)."""
        known = self.seat(seat.token)
        if known is None or known != seat:
            raise SeatError("there is no seat with this URL at this table")
        return known

    def _open_proposal(self, number: int) -> Proposal:
        p = self.proposal
        if p is None or p.number != number:
            raise SeatError(f"there is no open proposal number {number} to resume (it was "
                            "withdrawn, refused or has taken effect)")
        return p

    def propose(self, seat: Seat, name: Any) -> str | None:
        """The seat proposes to resume from snapshot ``name``. It takes effect at once when no
        other seat must agree; returns the snapshot's name then, else ``None``."""
        seat = self._own_seat(seat)
        if seat not in self.voters():
            raise SeatError("this seat's side is played by the computer")
        if self.proposal is not None:
            raise SeatError(f"a proposal to resume from {self.proposal.snapshot} is open: "
                            "accept, refuse or withdraw it first")
        _path, saved = self._snapshot_file(name)
        self._proposals += 1
        self.proposal = Proposal(self._proposals, str(name), int(saved.final.get("turn", 0) or 0),
                                 seat.token, {seat.token})
        return self._agreed()

    def accept(self, seat: Seat, number: int) -> str | None:
        """The seat agrees to the open proposal ``number``; when every seat has, the game is
        resumed from the snapshot (returns its name)."""
        seat = self._own_seat(seat)
        p = self._open_proposal(number)
        if seat not in self.voters():
            raise SeatError("this seat's side is played by the computer")
        p.agreed.add(seat.token)
        return self._agreed()

    def refuse(self, seat: Seat, number: int, *, withdraw: bool = False) -> str:
        """The seat refuses (or, its proposer, withdraws) the open proposal ``number``: it is
        dropped and nothing else changes. Returns the words that tell every seat."""
        seat = self._own_seat(seat)
        p = self._open_proposal(number)
        if withdraw and seat.token != p.by:
            raise SeatError("only the seat that made a proposal withdraws it; refuse it instead")
        self.proposal = None
        how = "withdrew" if seat.token == p.by else "refused"
        return f"{seat.name} {how} the proposal to resume from {p.snapshot} (game-turn {p.turn})"

    def _agreed(self) -> str | None:
        p = self.proposal
        assert p is not None
        if any(s.token not in p.agreed for s in self.voters()):
            return None
        try:
            self.restore(p.snapshot)
        finally:
            self.proposal = None
        return p.snapshot

    def proposal_for(self, seat: Seat) -> dict[str, Any] | None:
        """What the seat's page shows of the open proposal: who made it, the snapshot and its
        game-turn, whether this seat has agreed and which seats have not yet."""
        p = self.proposal
        if p is None:
            return None
        by = self.seats.get(p.by)
        return {"number": p.number, "by": by.name if by is not None else "?",
                "snapshot": p.snapshot, "turn": p.turn, "mine": p.by == seat.token,
                "agreed": seat.token in p.agreed,
                "waiting": [s.name for s in self.voters() if s.token not in p.agreed]}

    def restore(self, name: str) -> None:
        """Replace the game by snapshot ``name`` of it, as ``hexwar serve SNAPSHOT`` would (its
        decisions replayed and checked against their hashes; the same seats, URLs and players).
        The game as it stood is kept first as a snapshot of its own. Nothing changes when the
        snapshot does not replay."""
        _path, saved = self._snapshot_file(name)
        try:
            game, _words, controllers, owners = _rebuild_table_game(saved, self.players,
                                                                    self.split)
        except HexwarError as exc:  # the reason, with the host's paths, goes to the host's log
            log.warning("web table: snapshot %s does not replay: %s", name, exc)
            raise SeatError(f"snapshot {name} does not replay (its decisions or hashes do not "
                            "match the rules); the game is as it was") from None
        self.snapshot()  # the game given up: a later agreement can come back to it
        self.game, self.controllers, self.owners = game, controllers, owners
        if not any(s.role == "umpire" for s in self.seats.values()):
            self.umpire_controller = _automatic_umpire() or self.umpire_controller
        self.serial += 1
        self.hot_side = None
        self._known, self._ahead, self._shown = {}, {}, {}
        self._svg.clear()
        self.play_ai()
        self.save()

    # -- what a seat is sent ------------------------------------------------------------------
    def board_svg(self, seat: Seat) -> str:
        """The board as the seat's side sees it (the core SVG renderer, the view's units)."""
        from hexwar.core.render import render_board

        view = self.view(seat)
        side = None if view is None else view.side
        key = (f"{side}/{seat.player}" if seat.role != "umpire" else "\0umpire", self.serial)
        cached = self._svg.get(key)
        if cached is not None:
            return cached
        units = list(view.units.values()) if view is not None else []
        markers: dict[Any, list[str]] = {}
        state = view.system_state if view is not None else {}
        if isinstance(state, Mapping) and isinstance(state.get("markers"), Mapping):
            for where, texts in state["markers"].items():
                markers[where] = [texts] if isinstance(texts, str) else [str(t) for t in texts]
        svg = render_board(self.game.board, terrain_types=self.game.hooks.terrain_types(),
                           units=units, markers=markers, legend=False, title="")
        self._svg = {k: v for k, v in self._svg.items() if k[1] == self.serial}
        self._svg[key] = svg
        return svg

    def _units(self, view: SideView) -> dict[str, dict[str, Any]]:
        """The view's units, each with its hex also as the board's label (``where``)."""
        from hexwar.core.hexgrid import Hex

        out: dict[str, dict[str, Any]] = {}
        for uid, u in view.units.items():
            shown = dict(u)
            where = u.get("hex")
            if isinstance(where, list) and len(where) == 2:
                h = Hex(int(where[0]), int(where[1]))
                if h in self.game.board.hexes:
                    shown["where"] = self.game.board.label(h)
            out[uid] = shown
        return out

    def hexes(self) -> dict[str, list[Any]]:
        """Every hex: label -> [terrain, height, features] (the board is known to all)."""
        board = self.game.board
        titles = {t.name: t.title for t in self.game.hooks.terrain_types().values()}
        short = {n.split(":", 1)[-1]: t for n, t in titles.items()}
        out: dict[str, list[Any]] = {}
        for h in board.hexes:
            terrain = board.terrain_of.get(h, "")
            out[board.label(h)] = [titles.get(terrain) or short.get(terrain) or terrain,
                                   board.height_of.get(h, 0), sorted(board.features_of.get(h, ()))]
        return out

    def hello(self, seat: Seat) -> dict[str, Any]:
        game = self.game
        return {"type": "hello", "seat": {"name": seat.name, "role": seat.role,
                                          "sides": list(seat.sides)},
                "scenario": {"id": game.scenario.id, "title": game.scenario.title,
                             "system": game.system.title or game.system.name,
                             "turns": game.scenario.turns, "sides": list(game.state.sides)},
                "players": {s: ("human" if w == "human" else "computer")
                            for s, w in self.players.items()},
                "hexes": self.hexes()}

    def log_lines(self, view: SideView | None) -> list[str]:
        if view is None:
            return []
        return [self.game.hooks.describe_event(self.game, r) for r in view.events()
                if r.get("type") not in ("header", "end")]

    def message(self, seat: Seat, *, log_from: int = 0) -> dict[str, Any]:
        """The state the seat may see now: a hot-seat screen to pass on, or its board, units,
        log lines from ``log_from`` on, the game's turn, phase and step, and its decision."""
        handover = self.handover_to(seat)
        if handover is not None:
            self.hot_side = None
            screen = {"type": "handover", "to": handover, "serial": self.serial_of(seat)}
            if self.proposal is not None:  # the device's people answer it behind the screen
                screen["proposal"] = self.proposal_for(seat)
            return screen
        game = self.game
        view = self.view(seat)
        assert view is not None
        lines = self.log_lines(view)
        pending = game.pending
        presentation = self.presentation(seat)
        mine = self.pending_for(seat)
        phase_rule = next((p.rule for p in game.sequence if p.name == game.state.phase), "")
        status: dict[str, Any] = {
            "turn": game.state.turn, "turns": game.scenario.turns,
            "phase": game.state.phase.split(".", 1)[-1].replace("_", " "),
            "phase_rule": phase_rule, "over": game.over,
            "result": game.result.as_dict() if game.result is not None and game.over else None,
            "failure": str(game.failure) if game.failure is not None else None,
            "waiting_for": pending.side if pending is not None else None,
            "step": mine.rule if presentation is not None and mine is not None else "",
            # answers this seat gave ahead, waiting for the others' (CORE-82)
            "ahead": sum(token == seat.token for _d, _c, token in self._ahead.values()),
        }
        return {"type": "state", "serial": self.serial_of(seat), "side": view.side,
                "player": seat.player or None,
                "status": status, "svg": self.board_svg(seat), "units": self._units(view),
                "log_from": min(log_from, len(lines)), "log": lines[log_from:],
                "log_total": len(lines),
                "decision": None if presentation is None else for_page(presentation),
                "can_undo": self.can_undo(seat), "proposal": self.proposal_for(seat)}


def _players(game: Game, given: Mapping[str, str]) -> dict[str, str]:
    """side -> player word for every side (``ai`` for a side not named)."""
    unknown = [s for s in given if s not in game.state.sides]
    if unknown:
        raise HexwarError(f"the scenario has no side {unknown[0]!r} (its sides: "
                          f"{', '.join(game.state.sides)})")
    words = {s: given.get(s, "ai") for s in game.state.sides}
    for side, word in words.items():
        if word.startswith("script:"):
            raise HexwarError(f"{side}: a script cannot sit at the web table (human, ai, random or "
                              f"a system's player)")
    return words


def _ai_controllers(game: Game, words: Mapping[str, str]) -> dict[str, Controller]:
    from hexwar.core.engine.controllers import make_controller

    offered = game.hooks.controllers(game.scenario.system)
    return {side: make_controller(word, side, game.seed, offered)
            for side, word in words.items() if word != "human"}


def _rebuild(saved: SavedGame, controllers: Callable[[Game], Mapping[str, Controller]], *,
             verify: bool, split: Split | None = None) -> Game:
    from hexwar.core.engine.replay import rebuild

    try:
        # a record without the split in its header (made before CORE-102): the seats' split
        # only changes what each player is shown, as it did then
        legacy = split if not saved.header.get("seating") else None
        return rebuild(saved, verify=verify, controllers=controllers,
                       extra_plugins=extra_plugins(legacy))
    except RulesError as exc:
        raise HexwarError(f"{saved.path}: the saved decisions do not replay: {exc}") from exc


def _rebuild_table_game(saved: SavedGame, players: Mapping[str, str], split: Split
                        ) -> tuple[Game, dict[str, str], dict[str, Controller], dict[int, str]]:
    """A save's game rebuilt for the table (its hashes checked), with its players' words, its
    computer players and which player of a split side made each decision."""
    built: dict[str, Any] = {}

    def controllers_of(game: Game) -> dict[str, Controller]:
        built["words"] = _players(game, players)
        built["controllers"] = _ai_controllers(game, built["words"])
        return {**built["controllers"], **_owner_recorders(game, built)}

    game = _rebuild(saved, controllers_of, verify=True, split=split)
    return game, built["words"], built["controllers"], dict(built.get("owners", {}))


def _split_of(seats: list[Seat]) -> dict[str, dict[str, tuple[str, ...]]]:
    """The players of each split side, as the seats file keeps them (their unit ids)."""
    out: dict[str, dict[str, tuple[str, ...]]] = {}
    for seat in seats:
        if seat.player:
            out.setdefault(seat.sides[0], {})[seat.player] = seat.units
    return out


class _OwnerRecorder:
    """Asked every replayed decision of a split side (``rebuild``'s shadow controllers): notes
    which player made it, so each player's log keeps only his own (CORE-81)."""

    def __init__(self, game: Game, owners: dict[int, str]) -> None:
        self.game, self.owners = game, owners

    def choose(self, decision: Decision, view: SideView) -> Any:
        mine = owner(self.game, decision)
        if mine is not None:
            self.owners[len(self.game.decisions) + 1] = mine
        return None


def _owner_recorders(game: Game, built: dict[str, Any]) -> dict[str, Controller]:
    from hexwar.core.engine.umpire import seating

    owners: dict[int, str] = built.setdefault("owners", {})
    return {side: cast("Controller", _OwnerRecorder(game, owners)) for side in seating(game)
            if side not in built["controllers"]}


def _message_form(game: Game, decision: Decision) -> dict[str, Any]:
    """The umpire's typed message (docs/decisions.md CORE-83): to whom it may go (each side the
    reveal is for and each player of a split side) and how long it may be."""
    from hexwar.core.engine.umpire import MAX_MESSAGE, seating

    sides = [str(s) for s in decision.context.get("sides", game.state.sides)]
    to: list[dict[str, str]] = []
    for side in sides:
        to.append({"side": side, "label": f"{side} (every player)"
                   if seating(game).get(side) else side})
        to.extend({"side": side, "player": p, "label": f"{side}: {p}"}
                  for p in seating(game).get(side, {}))
    return {"to": to, "max": MAX_MESSAGE}
