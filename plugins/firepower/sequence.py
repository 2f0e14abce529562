"""The Basic Game sequence of play (Firepower 3) and the turn structure: set-up once
(Firepower 2.2, Firepower 2.4), then every Turn the Mix Sequence Units Phase (Firepower 3.1,
Firepower 5), the Impulse Phases, one per sequence unit drawn blind from the cup (Firepower 3.2,
Firepower 6.1), and the Turn Record Phase (Firepower 3.3).

Phases are generators that yield :class:`~hexwar.core.engine.decisions.Decision`; the core runs
them in the order of :data:`PHASES` (with any optional rule's sequence edits, applied by the
core's kit pipeline). Phase names, for edit anchors: ``firepower.board_side``,
``firepower.setup`` (set-up), ``firepower.mix``, ``firepower.impulses``,
``firepower.turn_record`` (each Turn).
"""

from __future__ import annotations

from collections.abc import Generator
from typing import TYPE_CHECKING, Any

from hexwar.core.engine.primitives import ChitCup
from hexwar.core.errors import RulesError
from hexwar.core.types import PhaseSpec, SequenceEdit
from hexwar.plugins.firepower.impulses import run_impulse_phase
from hexwar.plugins.firepower.setup import phase_board_side, phase_setup
from hexwar.plugins.firepower.state import data, side_setup

if TYPE_CHECKING:
    from hexwar.core.engine.game import Game

Gen = Generator[Any, Any, None]


def phase_mix(game: Game) -> Gen:
    """Firepower 5, Firepower 3.1: every sequence unit goes back in the cup, face down."""
    cup: list[str] = []
    for side in game.state.sides:
        n = int(side_setup(game, side).get("sequence_units", 3))
        cup.extend(f"{side}{i + 1}" for i in range(n))
    d = data(game)
    d["cup"] = sorted(cup)
    d["drawn"] = 0
    game.emit("mix", count=len(cup), rule="Firepower 5")
    return
    yield


def draw(game: Game) -> str:
    """Firepower 6.1: draw one sequence unit blind; its colour is the phasing side."""
    d = data(game)
    cup = ChitCup(d["cup"])  # the cup's contents live in the game state (saves, hashes)
    chit = cup.draw(game, "Firepower 6.1 draw a sequence unit")
    d["cup"] = list(cup.chits)
    d["drawn"] = int(d.get("drawn", 0)) + 1
    for side in game.state.sides:
        if chit.startswith(side) and chit[len(side):].isdigit():
            return side
    raise RulesError(f"sequence unit {chit!r} belongs to no side", rule="Firepower 1.2.2")


def phase_impulses(game: Game) -> Gen:
    """Firepower 3.2, Firepower 6.1: draw sequence units one at a time until the cup is empty;
    each gives its side one Impulse Phase."""
    while data(game)["cup"]:
        side = draw(game)
        yield from run_impulse_phase(game, side)


def phase_turn_record(game: Game) -> Gen:
    """Firepower 3.3: advance the Turn marker (the core counts Turns)."""
    game.emit("turn_record", turn=game.state.turn, rule="Firepower 3.3")
    return
    yield


def phase_advanced_turn_record(game: Game) -> Gen:
    """Firepower 9.3: the Turn Record Phase also removes illumination and old smoke."""
    from hexwar.plugins.firepower.smoke import turn_record_removals

    turn_record_removals(game)
    yield from phase_turn_record(game)


PHASES = (
    PhaseSpec("firepower.board_side", "Choice of board side", "Firepower 2.2", phase_board_side,
              "setup"),
    PhaseSpec("firepower.setup", "Set-up", "Firepower 2.4", phase_setup, "setup"),
    PhaseSpec("firepower.mix", "Mix Sequence Units Phase", "Firepower 5", phase_mix),
    PhaseSpec("firepower.impulses", "Impulse Phases", "Firepower 6.1", phase_impulses),
    PhaseSpec("firepower.turn_record", "Turn Record Phase", "Firepower 3.3", phase_turn_record),
)


def advanced_edits() -> tuple[SequenceEdit, ...]:
    """Firepower 9: the edits that turn the Basic sequence into the Advanced one (lettered
    sequence units per squad, each squad's own Impulses; docs/decisions.md FPD-40, FPD-41)."""
    from hexwar.plugins.firepower import advanced_impulses as adv

    return (
        SequenceEdit("replace", "firepower.mix", PhaseSpec(
            "firepower.mix", "Mix Sequence Units Phase", "Firepower 9.1", adv.phase_mix),
            rule="Firepower 9.1"),
        SequenceEdit("replace", "firepower.impulses", PhaseSpec(
            "firepower.impulses", "Impulse Phases", "Firepower 9.2", adv.phase_impulses),
            rule="Firepower 9.2"),
        SequenceEdit("replace", "firepower.turn_record", PhaseSpec(
            "firepower.turn_record", "Turn Record Phase", "Firepower 9.3",
            phase_advanced_turn_record), rule="Firepower 9.3"),
    )
