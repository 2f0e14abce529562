"""Frozen records that plugins hand to the core through the registration hooks.

Every record is a plain value: comparable, hashable where it can be, free of pint quantities
except at the edges (``SystemInfo.scale``). The core sorts what it collects by name, so the order
in which plugins are registered never changes a result.
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

if TYPE_CHECKING:
    from hexwar.core.engine.game import Game
    from hexwar.core.kit.hooks import SystemHooks
    from hexwar.core.units import Scale

#: A choice a controller returns: any JSON value (str, int, float, bool, None, list, dict).
Choice = Any

#: A phase is a generator function: it yields decisions and receives the choices.
PhaseRun = Callable[["Game"], Generator[Any, Any, None]]


@dataclass(frozen=True)
class Modifier:
    """One named term of a sum: a die-roll modifier, a column shift, a cost change.

    ``stage`` orders the combination when stages matter (e.g. halving after adding); within a stage
    the core sums in ``(name, rule)`` order, never in hook order.
    """

    name: str
    value: float
    rule: str
    stage: int = 0

    def as_dict(self) -> dict[str, Any]:
        return {"name": self.name, "value": self.value, "rule": self.rule, "stage": self.stage}


def sort_modifiers(modifiers: Iterable[Modifier]) -> list[Modifier]:
    """The canonical order in which modifiers are shown and combined."""
    return sorted(modifiers, key=lambda m: (m.stage, m.name, m.rule, m.value))


def total(modifiers: Iterable[Modifier]) -> float:
    """Sum of the modifiers' values, in canonical order (so float rounding never depends on order)."""
    result = 0.0
    for m in sort_modifiers(modifiers):
        result += m.value
    return result


@dataclass(frozen=True)
class PluginManifest:
    """What an installed plugin declares about itself (module attribute ``PLUGIN``).

    ``kind`` is ``"system"`` for a game system, ``"rule"`` for an optional rule of a system,
    ``"adapter"`` for a plugin that lets units of two systems interact.
    """

    name: str
    system: str
    kind: Literal["system", "rule", "adapter"]
    title: str
    summary: str
    implements: tuple[str, ...] = ()
    requires: tuple[str, ...] = ()
    conflicts: tuple[str, ...] = ()
    version: str = "0"
    #: for adapters: the two systems whose units it lets interact
    bridges: tuple[str, ...] = ()


@dataclass(frozen=True)
class SystemInfo:
    """A game system's identity, scale and conventions."""

    name: str
    title: str
    publisher: str
    scale: Scale
    dice: tuple[str, ...]
    sides: tuple[str, ...] = ()
    rule: str = ""
    notes: str = ""
    #: the system's typed facade over its own hooks (a :class:`hexwar.core.kit.SystemHooks`
    #: subclass); ``check_plugin_contract`` reads from it which hooks the system calls
    hooks: type[SystemHooks] | None = None


@dataclass(frozen=True)
class PhaseSpec:
    """One named phase (or step) of a sequence of play."""

    name: str
    title: str
    rule: str
    run: PhaseRun
    #: "turn" phases run every game-turn; "setup" phases run once before the first turn
    when: Literal["turn", "setup"] = "turn"


@dataclass(frozen=True)
class SequenceEdit:
    """An optional rule's change to the sequence of play, by phase name."""

    op: Literal["insert_before", "insert_after", "replace", "remove"]
    anchor: str
    phase: PhaseSpec | None = None
    rule: str = ""


@dataclass(frozen=True)
class UnitType:
    """A kind of unit (a counter type or a data card): ``name`` is qualified, ``mbt:T-80A``."""

    name: str
    title: str
    kind: str
    data: Mapping[str, Any] = field(default_factory=dict)
    provenance: Mapping[str, str] = field(default_factory=dict)

    @property
    def system(self) -> str:
        return self.name.split(":", 1)[0]


@dataclass(frozen=True)
class TerrainType:
    """A terrain type, qualified by system: ``firefight:forest``."""

    name: str
    title: str
    rule: str
    color: str = "#dddddd"
    data: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class DataSource:
    """A named file or folder of data a plugin ships (tables, panels, scenarios, cards)."""

    name: str
    path: Path
    kind: Literal["tables", "panel", "scenario", "cards"]
    title: str = ""


@dataclass(frozen=True)
class ControllerSpec:
    """A controller a plugin offers for ``--players`` (e.g. the system's own AI)."""

    name: str
    system: str
    factory: Callable[[str, int], Any]
    summary: str = ""


@dataclass(frozen=True)
class Problem:
    """One problem found while validating: where it is and how to fix it."""

    message: str
    path: str = ""
    key: str = ""
    line: int | None = None
    hint: str = ""

    def __str__(self) -> str:
        where = self.path
        if self.line is not None:
            where += f":{self.line}"
        if self.key:
            where += f" [{self.key}]"
        text = f"{where}: {self.message}" if where else self.message
        return f"{text} (hint: {self.hint})" if self.hint else text


@dataclass(frozen=True)
class GameResult:
    """How a game ended: the winner (``None`` for a draw), the level of victory and the scores."""

    winner: str | None
    level: str
    scores: Mapping[str, float] = field(default_factory=dict)
    reasons: tuple[str, ...] = ()

    def as_dict(self) -> dict[str, Any]:
        return {
            "winner": self.winner,
            "level": self.level,
            "scores": dict(self.scores),
            "reasons": list(self.reasons),
        }
