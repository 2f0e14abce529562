"""Exceptions raised by hexwar. Every error names what was wrong and where."""

from __future__ import annotations


class HexwarError(Exception):
    """Base class of every error hexwar raises on purpose."""


class DataError(HexwarError):
    """A data file (table, card, panel, scenario, save) is malformed.

    ``path``, ``line`` and ``key`` locate the problem; ``hint`` says how to fix it.
    """

    def __init__(
        self,
        message: str,
        *,
        path: str | None = None,
        line: int | None = None,
        key: str | None = None,
        hint: str | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.path = path
        self.line = line
        self.key = key
        self.hint = hint

    def __str__(self) -> str:
        where = ""
        if self.path:
            where = self.path
            if self.line is not None:
                where += f":{self.line}"
        if self.key:
            where = f"{where} [{self.key}]" if where else f"[{self.key}]"
        text = f"{where}: {self.message}" if where else self.message
        if self.hint:
            text += f" (hint: {self.hint})"
        return text


class PluginError(HexwarError):
    """A plugin is unknown, misdeclared, or conflicts with another enabled plugin."""


class PluginFailure(PluginError):
    """A plugin's code raised during a game (a hook or a phase): the game ends there.

    ``plugin`` names the plugin whose code raised, ``message`` is the original error (its type
    and text), ``decisions`` how many decisions the game kept (its state is as it was after the
    last of them, so a save of it resumes from there).
    """

    def __init__(self, plugin: str, message: str, *, decisions: int | None = None) -> None:
        super().__init__(plugin, message)
        self.plugin = plugin
        self.message = message
        self.decisions = decisions

    def __str__(self) -> str:
        text = f"plugin {self.plugin!r} failed: {self.message}"
        if self.decisions is not None:
            text += (f"; the game stops after decision {self.decisions}, the last one that "
                     "was played in full")
        return text


class RulesError(HexwarError):
    """An action the rules forbid: an illegal move, an attack that may not be made, and so on.

    ``rule`` is the rule reference that forbids it. The game state is unchanged when this is raised.
    """

    def __init__(self, message: str, *, rule: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.rule = rule

    def __str__(self) -> str:
        return f"{self.message} ({self.rule})" if self.rule else self.message


class ReplayMismatch(HexwarError):
    """A replayed game diverged from its log: the state hash differs at some step."""
