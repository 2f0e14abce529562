"""Controllers answer decisions: the random AI, a script, a human at the terminal, a replay.

A system may offer its own controllers (a sensible AI) through ``hexwar_register_controllers``;
``make_controller`` builds one from a ``--players`` word: ``ai``, ``random``, ``human`` or
``script:FILE``.
"""

from __future__ import annotations

import json
import random
import sys
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any, Protocol

from hexwar.core.engine.decisions import Decision
from hexwar.core.errors import DataError, HexwarError, RulesError
from hexwar.core.safeload import read_text
from hexwar.core.types import Choice

if TYPE_CHECKING:
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
    """Answers from a list of choices (a JSON array, or one JSON value per line), in order."""

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
                raise DataError(f"not valid JSON: {exc.msg}", path=str(p), line=exc.lineno) from exc
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


class TerminalController:
    """A human at the terminal: shows the decision and reads a choice by number or as JSON."""

    name = "human"

    def __init__(self, side: str, *, stdin: IO[str] | None = None, stdout: IO[str] | None = None,
                 explain: Callable[[SideView, Decision], str] | None = None) -> None:
        self.side = side
        self._in = stdin or sys.stdin
        self._out = stdout or sys.stdout
        self._explain = explain

    def choose(self, decision: Decision, view: SideView) -> Choice:
        text = self._explain(view, decision) if self._explain else default_explanation(decision)
        self._out.write(f"\n[{decision.side}] turn {view.turn}, {view.phase}\n{text}\n")
        while True:
            self._out.write("choice> ")
            self._out.flush()
            line = self._in.readline()
            if not line:
                raise HexwarError("input ended before the decision was answered")
            line = line.strip()
            options = list(decision.options or [])
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


def default_explanation(decision: Decision) -> str:
    """The prompt and every option, numbered from 1 as :class:`TerminalController` reads them."""
    lines = [decision.prompt or decision.kind]
    if decision.rule:
        lines[0] += f" ({decision.rule})"
    for i, option in enumerate(list(decision.options or [])[:60], start=1):
        lines.append(f"  {i:>3}. {json.dumps(option)}")
    if decision.options and len(decision.options) > 60:
        lines.append(f"  ... {len(decision.options) - 60} more (type the JSON of any legal choice)")
    return "\n".join(lines)


def explain_with_hooks(view: SideView, decision: Decision) -> str:
    """The game's ``hexwar_explain_decision`` answer: the system's explanation, or the core's
    :func:`default_explanation`."""
    from hexwar.core.engine.view import game_of

    return game_of(view).hooks.explain_decision(view, decision)


def make_controller(word: str, side: str, seed: int,
                    offered: Mapping[str, ControllerSpec]) -> Controller:
    """Build a controller from a ``--players`` word. A human at the terminal sees each decision
    as the game's system explains it (``hexwar_explain_decision``)."""
    if word.startswith("script:"):
        return ScriptedController.from_file(word.removeprefix("script:"))
    if word == "random":
        return RandomController(side, seed)
    if word == "human":
        return TerminalController(side, explain=explain_with_hooks)
    if word in offered:
        return offered[word].factory(side, seed)  # type: ignore[no-any-return]
    if word == "ai":  # the system offers no AI of its own
        return RandomController(side, seed)
    known = ["ai", "random", "human", "script:FILE", *sorted(offered)]
    raise HexwarError(f"unknown player {word!r} (known: {', '.join(known)})")
