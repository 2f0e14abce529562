"""Decision points: what a phase asks of a side, and how an answer is checked."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from hexwar.core.errors import RulesError
from hexwar.core.types import Choice

PASS = "pass"


def canonical(choice: Choice) -> str:
    """A choice as canonical JSON: tuples and lists, key order and the like do not matter."""
    return json.dumps(choice, sort_keys=True, separators=(",", ":"))


def normalise(choice: Choice) -> Choice:
    """The choice as it reads back from a save, so live play and replay see the same value."""
    return json.loads(canonical(choice))


@dataclass
class Decision:
    """A question the game asks one side.

    ``options`` lists the legal choices when the space is small enough to list (an AI picks
    among them); ``validate`` checks a choice that is not listed and returns an error text, or
    ``None`` when it is legal. ``context`` carries what a controller needs to decide (the moving
    unit, the hexes in reach). ``rule`` cites the rule that creates the decision.
    """

    side: str
    kind: str
    options: Sequence[Choice] | None = None
    validate: Callable[[Choice], str | None] | None = None
    context: dict[str, Any] = field(default_factory=dict)
    prompt: str = ""
    rule: str = ""

    def check(self, choice: Choice) -> None:
        """Raise :class:`RulesError` if ``choice`` is not legal here; the game is left unchanged."""
        options = self.options
        if options is not None and _listed(choice, options):
            return
        try:
            text = canonical(choice)
        except (TypeError, ValueError) as exc:
            raise RulesError(f"{self.kind}: a choice must be a JSON value, not {choice!r}") from exc
        if options is not None and _equal_listed(choice, text, options):
            return
        if options is not None and text in self._option_texts():
            return
        choice = json.loads(text)  # what a save would give back: tuples are lists
        error = self._shape_error(choice)
        if error is None and self.validate is not None:
            try:
                error = self.validate(choice)
            except (TypeError, ValueError, KeyError, AttributeError, IndexError) as exc:
                # a validator that cannot read a malformed choice refuses it
                raise RulesError(f"{self.kind} for {self.side}: malformed choice "
                                 f"{_brief(choice)} ({type(exc).__name__})",
                                 rule=self.rule or None) from exc
            if error is None:
                return
        if error is not None:
            raise RulesError(f"{self.kind} for {self.side}: {error}", rule=self.rule or None)
        shown = ", ".join(json.dumps(o) for o in list(self.options or [])[:8])
        more = ", ..." if self.options and len(self.options) > 8 else ""
        raise RulesError(
            f"{self.kind} for {self.side}: {json.dumps(choice)} is not a legal choice "
            f"(legal: {shown}{more})",
            rule=self.rule or None,
        )

    def _shape_error(self, choice: Choice) -> str | None:
        """What makes ``choice`` malformed against the listed options, whatever the rules say:
        a null where no option has one, or a key no option has (when the options are tables
        with keys). ``None`` when the choice may go on to the validator."""
        options = list(self.options or ())
        if _has_null(choice) and not any(_has_null(o) for o in options):
            return f"{_brief(choice)} holds a null value; leave the field out or give a value"
        tables = [o for o in options if isinstance(o, dict)]
        if isinstance(choice, dict) and tables and all(tables):
            known = set().union(*(set(o) for o in tables))
            extra = sorted(set(choice) - known)
            if extra:
                return (f"unknown field(s) {', '.join(map(repr, extra))[:80]} in {_brief(choice)} "
                        f"(fields: {', '.join(sorted(known))})")
        if tables and len(tables) == len(options) and all(tables) and \
                not isinstance(choice, dict) and self.validate is None:
            return f"{_brief(choice)} is not a table of {', '.join(sorted(set().union(*tables)))}"
        return None

    def _option_texts(self) -> frozenset[str]:
        cached: frozenset[str] | None = self.__dict__.get("_texts")
        if cached is None:
            cached = frozenset(canonical(o) for o in self.options or ())
            self.__dict__["_texts"] = cached
        return cached

    def summary(self) -> dict[str, Any]:
        return {"side": self.side, "kind": self.kind, "rule": self.rule}


def _listed(choice: Choice, options: Sequence[Choice]) -> bool:
    """Whether ``choice`` is one of ``options`` itself (an AI hands back the option it picked),
    or text equal to a text option: legal without encoding every option as JSON. (Equality of
    tables is not enough: ``{"n": 1}`` equals ``{"n": True}``, whose JSON is another choice.)"""
    if type(choice) is str:
        return choice in options
    return any(o is choice for o in options)


def _equal_listed(choice: Choice, text: str, options: Sequence[Choice]) -> bool:
    """Whether an option equal to ``choice`` has its JSON text (an AI that builds its choice
    anew): only the equal options are encoded, where :meth:`Decision._option_texts` encodes
    them all. False says nothing (a tuple equals no list): the caller goes on to the texts."""
    return any(o == choice and canonical(o) == text for o in options)


def _has_null(value: Any) -> bool:
    if value is None:
        return True
    if isinstance(value, dict):
        return any(_has_null(v) for v in value.values())
    if isinstance(value, list):
        return any(_has_null(v) for v in value)
    return False


def _brief(value: Any) -> str:
    text = json.dumps(value)
    return text if len(text) <= 60 else text[:57] + "..."


@dataclass
class Simultaneous:
    """Decisions made in secret and revealed together (MBT orders, Firefight fire plans).

    The engine asks each decision in turn; no answer touches the game until all are in, and no
    side's controller sees another's answer. The phase receives the list of choices, in order.
    """

    decisions: list[Decision]
