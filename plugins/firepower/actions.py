"""Action types beyond the Basic Game's (Advanced 11.1: climb, acquire, open a door, ...).

The Basic Actions (enter, turn, posture, cross, fire, grenade, melee; Firepower 6.2) are built into
``engine.check_action``. An optional rule or the Advanced Game adds its own through the hookspec
``firepower_action_types``: each :class:`ActionType` checks a choice (pure, raising RulesError
with the rule), says what it costs, applies it, and lists its choices for a soldier. The engine
charges the MF (counting them for the firer-movement modifier when ``combat`` is false, 6.3.6.2.7),
enforces one Combat Action per Impulse Phase (6.2.5) and the MF allowance (6.2, 6.2.8).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from hexwar.core.engine.game import Game

#: ``check(game, phase, choice) -> info``: info holds at least ``unit`` and ``cost``
Check = Callable[["Game", dict[str, Any], dict[str, Any]], dict[str, Any]]
Apply = Callable[["Game", dict[str, Any], dict[str, Any]], None]
Options = Callable[["Game", dict[str, Any], str], list[dict[str, Any]]]


@dataclass(frozen=True)
class ActionType:
    """One kind of Action a soldier of the current Impulse may perform (choice ``act = name``)."""

    name: str
    check: Check
    apply: Apply
    options: Options | None = None
    combat: bool = False
    rule: str = ""
