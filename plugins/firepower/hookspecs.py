"""Hooks of the Firepower system for its optional rules and the Advanced Game (prefix
``firepower_``). Exposed from ``plugin.py`` as ``HOOKSPECS``; the core manager adds them.

Discipline as for the core hooks: modifier hooks return lists combined in canonical order; edit
hooks return records applied sorted by (operation, anchor, name), so registration order never
changes a result.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from hexwar.core.markers import hookspec

if TYPE_CHECKING:
    from hexwar.core.engine.game import Game
    from hexwar.core.types import Modifier
    from hexwar.plugins.firepower.actions import ActionType
    from hexwar.plugins.firepower.combat import FireContext, StepEdit


@hookspec
def firepower_fire_modifiers(game: Game, ctx: FireContext, target: str) -> Sequence[Modifier]:
    """Add modifiers to one shot (or one throw, or one blast roll) of a fire procedure.

    Called: by the ``modifiers`` step for each target unit (``target`` is the unit id; for a
    grenade throw it is the thrower's id). Options such as Increased Fire (16.3.2) answer here.
    """
    raise NotImplementedError


@hookspec
def firepower_fire_step_edits(kind: str) -> Sequence[StepEdit]:
    """Insert, replace or remove named steps of a fire procedure (``kind``: ``fire`` or
    ``grenade``). The Basic steps are check, hit_number, modifiers, shots, suppression (fire) and
    check, hit_number, throw, blast (grenade).

    Called: once per fire action.
    """
    raise NotImplementedError


@hookspec
def firepower_action_types() -> Sequence[ActionType]:
    """Add kinds of Action (Advanced 11.1, Options): each checks, costs, applies and lists
    its choices; the engine charges MF and keeps the one-Combat-Action rule (6.2, 6.2.5).

    Called: whenever the Actions of an Impulse are checked or listed (only if implemented).
    """
    raise NotImplementedError


@hookspec
def firepower_mf_modifiers(game: Game, unit_id: str) -> Sequence[Modifier]:
    """Change a soldier's MF allowance (weapon Move column 10.7(9), wounds 23.1, leaders 11.1).

    Called: whenever the MF a soldier has left are computed (only when some plugin implements it);
    the Basic Game uses 4, -1 Suppressed, 0 Stunned (6.2.8). A Stunned soldier stays at 0.
    """
    raise NotImplementedError


@hookspec
def firepower_impulse_phase_start(game: Game, side: str) -> None:
    """Called: when a sequence unit of ``side`` has been drawn and 6.1.1-6.1.2 applied."""


@hookspec
def firepower_impulse_phase_end(game: Game, side: str) -> None:
    """Called: at the end of ``side``'s Impulse Phase, after Stunned became Suppressed (6.1.3)."""
