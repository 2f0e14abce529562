"""Controllers answer decisions: the random AI, a script, a human at the terminal, a replay.

A system may offer its own controllers (a sensible AI) through ``hexwar_register_controllers``;
``make_controller`` builds one from a ``--players`` word: ``ai``, ``random``, ``human`` or
``script:FILE``.
"""

from __future__ import annotations

import contextlib
import json
import random
import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any, Protocol

from hexwar.core.engine.decisions import Decision
from hexwar.core.engine.view import game_of
from hexwar.core.errors import DataError, HexwarError, RulesError
from hexwar.core.safeload import read_text
from hexwar.core.types import Choice

if TYPE_CHECKING:
    from hexwar.core.engine.game import Game
    from hexwar.core.engine.record import EventLog
    from hexwar.core.engine.view import SideView
    from hexwar.core.types import ControllerSpec


class Controller(Protocol):
    """Anything that answers a decision given the deciding side's view."""

    def choose(self, decision: Decision, view: SideView) -> Choice: ...


class RandomController:
    """Picks uniformly among the listed legal choices, with its own seeded generator."""

    name = "random"

    def __init__(self, side: str, seed: int) -> None:
        self.side = side
        self._rng = random.Random(f"{seed}:{side}:random")

    def choose(self, decision: Decision, view: SideView) -> Choice:
        if not decision.options:
            raise HexwarError(
                f"the random controller cannot answer {decision.kind!r}: the decision lists no options"
            )
        return self._rng.choice(list(decision.options))


class ScriptedController:
    """Answers from a list of choices (a JSON array, or one JSON value per line), in order. A
    file that is one JSON array is the list; a file whose first line is an array followed by
    more values is read one value a line."""

    name = "script"

    def __init__(self, choices: list[Choice], *, source: str = "<script>") -> None:
        self._choices = list(choices)
        self._index = 0
        self.source = source

    @classmethod
    def from_file(cls, path: str | Path) -> ScriptedController:
        p = Path(path)
        text = read_text(p, what="script")
        stripped = text.strip()
        if stripped.startswith("["):
            try:
                return cls(json.loads(stripped), source=str(p))
            except json.JSONDecodeError as exc:
                # more after a whole first value: one value a line, the first of them an array
                # (issue 9, item 12); anything else is a broken array
                if exc.msg != "Extra data":
                    raise DataError(f"not valid JSON: {exc.msg}", path=str(p),
                                    line=exc.lineno) from exc
        choices: list[Choice] = []
        for lineno, line in enumerate(text.splitlines(), start=1):
            if not line.strip() or line.lstrip().startswith("#"):
                continue
            try:
                choices.append(json.loads(line))
            except json.JSONDecodeError as exc:
                raise DataError(f"not a JSON value: {exc.msg}", path=str(p), line=lineno) from exc
        return cls(choices, source=str(p))

    def choose(self, decision: Decision, view: SideView) -> Choice:
        if self._index >= len(self._choices):
            raise HexwarError(f"script {self.source} ran out of choices at {decision.kind!r}")
        choice = self._choices[self._index]
        self._index += 1
        return choice


class ReplayController:
    """Answers with the recorded decisions of a saved game, checking each is asked of the same side."""

    def __init__(self, decisions: list[dict[str, Any]]) -> None:
        self.decisions = decisions
        self.index = 0

    @property
    def exhausted(self) -> bool:
        return self.index >= len(self.decisions)

    def choose(self, decision: Decision, view: SideView) -> Choice:
        record = self.decisions[self.index]
        if record["side"] != decision.side:
            raise HexwarError(
                f"replay diverged at decision {self.index + 1}: recorded side {record['side']!r}, "
                f"game asks {decision.side!r}"
            )
        self.index += 1
        return record["choice"]


class UndoRequest(HexwarError):
    """A human asked to take back their last decision: the game is to be rebuilt from its first
    ``keep`` decisions (replay minus the rest, :func:`replay_minus`)."""

    def __init__(self, side: str, keep: int) -> None:
        super().__init__(f"{side} asked to undo: replay the game's first {keep} decisions")
        self.side, self.keep = side, keep


class QuitRequest(HexwarError):
    """A human ended the session (``quit``); the game stands after its last decision played."""

    def __init__(self, side: str) -> None:
        super().__init__(f"{side} quit the game")
        self.side = side


#: more options than this are chosen in two steps: first the unit (or hex), then the choice
TWO_STEP_OVER = 20
#: at most this many events since the last prompt are shown (the rest: the ``log`` command)
EVENTS_SHOWN = 40
#: option fields that name who acts, in the order they are looked for (a first step groups by it)
_ACTOR_FIELDS = ("unit", "firer", "firers", "move", "vehicle", "team", "mount", "dismount", "hex")

HELP = """Answer with the number of a choice, or type the choice as JSON.
With many choices you pick in two steps: first a unit (or hex), by its number or name,
then what it does; 'back' returns to the first step.
Commands:
  board        write the board as you see it to an SVG file (and open it if a display exists)
  log          show the last events again, in words
  undo         take back your last decision (the game is replayed without it)
  save [FILE]  save the game (resume it with 'hexwar resume FILE')
  quit         stop playing (the game is saved if you gave --save)
  help         this text"""


@dataclass
class Terminal:
    """One terminal and the human players at it: a hot-seat game (two humans at one screen)
    shows a "pass the device" screen between them, so neither sees the other's secrets.

    ``save(game, path)`` saves the game (``path``: the one typed after ``save``, or ``None``)
    and returns where; ``board_dir`` is where ``board`` writes its picture."""

    stdin: IO[str] | None = None
    stdout: IO[str] | None = None
    humans: int = 1
    save: Callable[[Game, str | None], str] | None = None
    board_dir: Path | None = None
    last_side: str | None = field(default=None, init=False)

    @property
    def out(self) -> IO[str]:
        return self.stdout or sys.stdout

    @property
    def inp(self) -> IO[str]:
        return self.stdin or sys.stdin

    def clear(self) -> None:
        self.out.write("\033[2J\033[H")  # ANSI: erase the screen, cursor home
        self.out.flush()

    def hand_to(self, side: str) -> None:
        """Before ``side`` reads its screen: in a hot-seat game with another side at the screen
        last, clear it, ask for the device to be passed, wait for Enter, clear it again."""
        if self.humans > 1 and self.last_side != side:
            self.clear()
            self.out.write(f"Pass the device to {side}, then press Enter.\n")
            self.out.flush()
            if not self.inp.readline():
                raise HexwarError("input ended before the device was passed")
            self.clear()
        self.last_side = side


class TerminalController:
    """A human at the terminal: shows what happened since the last prompt, the decision as the
    game's system explains it, and reads a choice by number, by name (the first of two steps
    when there are many choices) or as JSON; ``board``, ``log``, ``undo``, ``save``, ``quit``
    and ``help`` are commands (:data:`HELP`)."""

    name = "human"

    def __init__(self, side: str, *, stdin: IO[str] | None = None, stdout: IO[str] | None = None,
                 explain: Callable[[SideView, Decision], str] | None = None,
                 terminal: Terminal | None = None) -> None:
        self.side = side
        self.terminal = terminal if terminal is not None else Terminal(stdin, stdout)
        self._explain = explain
        #: how many of the side's log records it has been shown (None: none yet)
        self._seen: int | None = None

    @property
    def _in(self) -> IO[str]:
        return self.terminal.inp

    @property
    def _out(self) -> IO[str]:
        return self.terminal.out

    def undone(self) -> None:
        """After an undo: the next prompt shows the rebuilt game's events (its last ones)."""
        self._seen = None

    def choose(self, decision: Decision, view: SideView) -> Choice:
        self.terminal.hand_to(self.side)
        self._show_events(view)
        options = list(decision.options or [])
        groups = option_groups(options) if len(options) > TWO_STEP_OVER else None
        while True:
            if groups is None:
                choice = self._ask(decision, view, decision, self._explanation(view, decision))
            else:
                choice = self._two_steps(decision, view, groups)
            if choice is _AGAIN:
                continue
            return choice

    # -- what the player sees ----------------------------------------------------------------
    def _explanation(self, view: SideView, decision: Decision) -> str:
        return self._explain(view, decision) if self._explain else default_explanation(decision)

    def _header(self, decision: Decision, view: SideView) -> str:
        from hexwar.core.words import phase_title

        game = game_of(view)
        phase = phase_title(game, view.phase) if view.phase else "-"
        return f"\n[{decision.side}] game-turn {view.turn}, {phase}"

    def _show_events(self, view: SideView, *, last: int | None = None) -> None:
        game = game_of(view)  # the engine's own words for the records this side may read
        events = view.events()
        # everything since the last prompt (the whole game at the first), or the last ``last``
        start = max(0, len(events) - last) if last else (self._seen or 0)
        new = events[start:]
        self._seen = len(events)
        if not new:
            return
        skipped = max(0, len(new) - EVENTS_SHOWN)
        if skipped:
            self._out.write(f"\n... {skipped} earlier event(s) (type 'log' for more)\n")
        else:
            self._out.write("\n")
        for record in new[skipped:]:
            if record.get("type") in ("header", "end") or (
                    record.get("type") == "decision" and record.get("side") == self.side):
                continue  # the player knows what they chose
            self._out.write(f"  - {game.hooks.describe_event(game, record)}\n")

    # -- reading -----------------------------------------------------------------------------
    def _read(self) -> str:
        self._out.write("choice> ")
        self._out.flush()
        line = self._in.readline()
        if not line:
            raise HexwarError("input ended before the decision was answered")
        return line.strip()

    def _command(self, line: str, view: SideView) -> bool:
        """Run ``line`` if it is a command; ``True`` when it was one."""
        word, _, rest = line.partition(" ")
        word = word.lower()
        if word == "help":
            self._out.write(HELP + "\n")
        elif word == "board":
            self._board(view)
        elif word == "log":
            self._show_events(view, last=EVENTS_SHOWN)
        elif word == "save":
            self._save(view, rest.strip() or None)
        elif word == "undo":
            game = game_of(view)
            own = [i for i, d in enumerate(game.decisions) if d.get("side") == self.side]
            if not own:
                self._out.write("  nothing of yours to undo yet\n")
            else:
                # counted among the side's own: the game's number would tell how many the
                # other sides made in secret (docs/decisions.md CORE-63)
                self._out.write(f"  undoing your decision {len(own)} "
                                f"({game.decisions[own[-1]].get('kind')}) and all after it\n")
                raise UndoRequest(self.side, own[-1])
        elif word == "quit":
            raise QuitRequest(self.side)
        else:
            return False
        return True

    def _board(self, view: SideView) -> None:
        import os
        import tempfile
        import webbrowser

        from hexwar.core.render import render_game

        game = game_of(view)
        folder = self.terminal.board_dir or Path(tempfile.gettempdir())
        safe = "".join(c if c.isalnum() or c in "-_" else "-" for c in f"{game.scenario.id}-{self.side}")
        path = folder / f"hexwar-board-{safe}.svg"
        path.write_text(render_game(game, self.side), encoding="utf-8")
        self._out.write(f"  the board as {self.side} sees it: {path}\n")
        if os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY") or \
                sys.platform in ("darwin", "win32"):
            webbrowser.open(path.resolve().as_uri())

    def _save(self, view: SideView, path: str | None) -> None:
        if self.terminal.save is not None:
            where = self.terminal.save(game_of(view), path)
        else:
            from hexwar.core.engine.record import save_game

            where = path or "hexwar-save.json"
            save_game(game_of(view), where)
        self._out.write(f"  saved to {where} (resume with: hexwar resume {where})\n")

    def _ask(self, decision: Decision, view: SideView, asked: Decision, text: str,
             *, back: bool = False) -> Any:
        """Show ``text`` and read an answer to ``asked`` (``decision`` or one step of it)."""
        self._out.write(f"{self._header(decision, view)}\n{text}\n")
        options = list(asked.options or [])
        while True:
            line = self._read()
            if self._command(line, view):
                continue
            if back and line.lower() in ("back", "0"):
                return _AGAIN
            choice: Choice
            if line.isdigit() and options and 1 <= int(line) <= len(options):
                choice = options[int(line) - 1]
            else:
                try:
                    choice = json.loads(line)
                except json.JSONDecodeError:
                    choice = line
            try:
                decision.check(choice)
            except RulesError as exc:
                self._out.write(f"  not legal: {exc}\n")
                continue
            return choice

    def _two_steps(self, decision: Decision, view: SideView,
                   groups: list[tuple[str, list[Choice]]]) -> Any:
        """Many choices: first the group (a unit, a hex), then a choice of that group, numbered
        from 1 as the system explains the group's choices."""
        from hexwar.core.words import unit_name

        game = game_of(view)
        head = decision.prompt or decision.kind
        lines = [f"{head} ({decision.rule})" if decision.rule else head,
                 f"  {len(decision.options or [])} choices: first choose one of these, then what "
                 f"it does ('help' for more)"]
        entries = [f"{i:>3}. {key}" if len(group) == 1 and key == canonical_text(group[0])
                   else f"{i:>3}. {unit_name(game, key)} ({len(group)})"
                   for i, (key, group) in enumerate(groups, start=1)]
        if len(entries) <= TWO_STEP_OVER:
            lines += [f"  {e}" for e in entries]
        else:  # many groups (the hexes of a set-up zone): in columns, typed by number or name
            width = max(len(e) for e in entries) + 2
            per_line = max(1, 96 // width)
            lines += ["  " + "".join(e.ljust(width) for e in entries[i:i + per_line]).rstrip()
                      for i in range(0, len(entries), per_line)]
            lines.append("  (type a number or a name, e.g. " + groups[0][0] + ")")
        self._out.write(f"{self._header(decision, view)}\n" + "\n".join(lines) + "\n")
        names = dict(groups)
        while True:
            line = self._read()
            if self._command(line, view):
                continue
            members: list[Choice] | None = None
            if line.isdigit() and 1 <= int(line) <= len(groups):
                members = groups[int(line) - 1][1]
            elif line in names:
                members = names[line]
            if members is None:
                try:
                    choice: Choice = json.loads(line)
                except json.JSONDecodeError:
                    self._out.write("  type the number or name of one of the above, or 'help'\n")
                    continue
                try:
                    decision.check(choice)
                except RulesError as exc:
                    self._out.write(f"  not legal: {exc}\n")
                    continue
                return choice
            if len(members) == 1:
                return members[0]
            step = replace(decision, options=members)
            text = self._explanation(view, step) + "\n  ('back': choose again)"
            return self._ask(decision, view, step, text, back=True)


#: a marker: the player stepped back, ask again
_AGAIN: Any = object()


def canonical_text(option: Any) -> str:
    return option if isinstance(option, str) else json.dumps(option, sort_keys=True)


def group_key(option: Any) -> str:
    """What a first step groups ``option`` under: who acts in it (its unit, firers, vehicle, hex
    field), the single key of a table such as ``{unit: hex}``, the first item of a list; an
    option with none of these stands alone (its JSON)."""
    if isinstance(option, dict):
        for f in _ACTOR_FIELDS:
            if f in option:
                v = option[f]
                return ", ".join(map(str, v)) if isinstance(v, list) else str(v)
        if len(option) == 1:
            return str(next(iter(option)))
        if option:
            return str(next(iter(option.values())))
    if isinstance(option, list | tuple) and option:
        return str(option[0])
    return canonical_text(option)


def option_groups(options: list[Choice]) -> list[tuple[str, list[Choice]]] | None:
    """``options`` grouped by :func:`group_key`, in the order of their first option; ``None``
    when grouping would not help: fewer than two groups of several options (one soldier's
    Actions and "end", the steps of one move and "stop" stay one list)."""
    groups: dict[str, list[Choice]] = {}
    for o in options:
        groups.setdefault(group_key(o), []).append(o)
    if sum(1 for members in groups.values() if len(members) > 1) < 2:
        return None
    return list(groups.items())


def replay_minus(game: Game, keep: int, *, log: EventLog | None = None,
                 remake: Callable[[Game], Mapping[str, Controller]] | None = None,
                 humans: Mapping[str, Controller] | None = None
                 ) -> tuple[Game, dict[str, Controller]]:
    """``game`` rebuilt from its scenario, seed, rules and first ``keep`` decisions (an undo:
    replay minus the rest), writing to ``log``. ``remake(new_game)`` builds fresh controllers;
    each (a human's aside) is asked every replayed decision of its side and its answer replaced
    by the recorded one, so an AI remembers only what it would have; the human controllers of
    ``humans`` stay (they keep their terminal)."""
    from hexwar.core.engine.game import Game as _Game

    again = _Game(game.scenario, seed=game.seed, options=game.rules_enabled,
                  extra_plugins=game._extra, local_plugins=game._local, log=log)
    made = dict(remake(again)) if remake is not None else {}
    for side, c in (humans or {}).items():
        if isinstance(c, TerminalController):
            made[side] = c
            c.undone()
    for record in game.decisions[:keep]:
        decision = again.pending
        if decision is None:
            break
        # a nested game's decisions are not the host controllers' to shadow (CORE-87)
        shadow = made.get(decision.side) if again.nested is None else None
        if shadow is not None and not isinstance(shadow, TerminalController):
            with contextlib.suppress(HexwarError):  # it cannot answer: the record answers
                shadow.choose(decision, again.view(decision.side))
        again.answer(record["choice"])
    return again, made


def default_explanation(decision: Decision) -> str:
    """The prompt and every option in words, numbered from 1 as :class:`TerminalController`
    reads them."""
    from hexwar.core.web.present import words

    lines = [decision.prompt or decision.kind]
    if decision.rule:
        lines[0] += f" ({decision.rule})"
    for i, option in enumerate(list(decision.options or [])[:60], start=1):
        lines.append(f"  {i:>3}. {words(option)}")
    if decision.options and len(decision.options) > 60:
        lines.append(f"  ... {len(decision.options) - 60} more (type the JSON of any legal choice)")
    return "\n".join(lines)


def explain_with_hooks(view: SideView, decision: Decision) -> str:
    """The game's ``hexwar_explain_decision`` answer: the system's explanation, or the core's
    :func:`default_explanation`."""

    return game_of(view).hooks.explain_decision(view, decision)


def make_controller(word: str, side: str, seed: int,
                    offered: Mapping[str, ControllerSpec], *,
                    terminal: Terminal | None = None) -> Controller:
    """Build a controller from a ``--players`` word. A human at the terminal sees each decision
    as the game's system explains it (``hexwar_explain_decision``); the humans of one game share
    ``terminal`` (a hot-seat game when there are two)."""
    if word.startswith("script:"):
        return ScriptedController.from_file(word.removeprefix("script:"))
    if word == "random":
        return RandomController(side, seed)
    if word == "human":
        return TerminalController(side, explain=explain_with_hooks, terminal=terminal)
    if word in offered:
        return offered[word].factory(side, seed)  # type: ignore[no-any-return]
    if word == "ai":  # the system offers no AI of its own
        return RandomController(side, seed)
    known = ["ai", "random", "human", "script:FILE", *sorted(offered)]
    raise HexwarError(f"unknown player {word!r} (known: {', '.join(known)})")
