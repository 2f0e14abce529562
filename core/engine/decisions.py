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
        try:
            text = canonical(choice)
        except (TypeError, ValueError) as exc:
            raise RulesError(f"{self.kind}: a choice must be a JSON value, not {choice!r}") from exc
        if self.options is not None and text in self._option_texts():
            return
        if self.validate is not None:
            error = self.validate(choice)
            if error is None:
                return
            raise RulesError(f"{self.kind} for {self.side}: {error}", rule=self.rule or None)
        shown = ", ".join(json.dumps(o) for o in list(self.options or [])[:8])
        more = ", ..." if self.options and len(self.options) > 8 else ""
        raise RulesError(
            f"{self.kind} for {self.side}: {json.dumps(choice)} is not a legal choice "
            f"(legal: {shown}{more})",
            rule=self.rule or None,
        )

    def _option_texts(self) -> frozenset[str]:
        cached: frozenset[str] | None = self.__dict__.get("_texts")
        if cached is None:
            cached = frozenset(canonical(o) for o in self.options or ())
            self.__dict__["_texts"] = cached
        return cached

    def summary(self) -> dict[str, Any]:
        return {"side": self.side, "kind": self.kind, "rule": self.rule}


@dataclass
class Simultaneous:
    """Decisions made in secret and revealed together (MBT orders, Firefight fire plans).

    The engine asks each decision in turn; no answer touches the game until all are in, and no
    side's controller sees another's answer. The phase receives the list of choices, in order.
    """

    decisions: list[Decision]
