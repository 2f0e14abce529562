"""Hooks of the Firepower system for its optional rules and the Advanced Game (prefix
``firepower_``), and :class:`FirepowerHooks`, the one way the system calls them.

``plugin.py`` adds these specifications to a game's plugin manager (``hexwar_add_hookspecs``); a
rule implements them with ``from hexwar.core.markers import hookimpl``. The system never calls a
hook by name: every call goes through :class:`FirepowerHooks`, e.g.
``FirepowerHooks.of(game).fire_modifiers(ctx, target)``, which skips a hook that no enabled
plugin implements.

Discipline as for the core hooks: modifier hooks return lists combined in canonical order; edit
hooks return kit :class:`~hexwar.core.kit.Edit` records applied in the kit's one documented order
(:mod:`hexwar.core.kit.pipeline`), so registration order never changes a result.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING

from hexwar.core.kit import SystemHooks, collect
from hexwar.core.markers import hookspec

if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any

    from hexwar.core.engine.game import Game
    from hexwar.core.hexgrid import Hex
    from hexwar.core.types import Modifier
    from hexwar.plugins.firepower.actions import ActionType
    from hexwar.plugins.firepower.advanced_los import Obstacle
    from hexwar.plugins.firepower.combat import FireContext, FireEdit
    from hexwar.plugins.firepower.soldiers import Soldier


@hookspec
def firepower_fire_modifiers(game: Game, ctx: FireContext, target: str) -> Sequence[Modifier]:
    """Add modifiers to one shot (or one throw, or one blast roll) of a fire procedure.

    Called: by the ``modifiers`` step for each target unit (``target`` is the unit id; for a
    grenade throw it is the thrower's id): in play, in previews for a terminal player and by
    ``hexwar firepower fire|grenade``.
    Options such as Increased Fire (Firepower 16.3.2) answer here.
    """
    raise NotImplementedError


@hookspec
def firepower_fire_steps(game: Game, kind: str) -> Sequence[FireEdit]:
    """Insert, replace or remove named steps of a fire procedure (``kind``: ``fire`` or
    ``grenade``) with kit ``Edit`` records. The Basic steps are check, hit_number, modifiers,
    shots, suppression (fire) and check, hit_number, throw, blast (grenade).

    Called: once per fire action, and whenever a shot is previewed (a terminal player's list of
    Actions, ``hexwar firepower fire|grenade``).
    """
    raise NotImplementedError


@hookspec
def firepower_action_types() -> Sequence[ActionType]:
    """Add kinds of Action (Firepower 11.1, Options): each checks, costs, applies and lists its
    choices; the system charges MF and keeps the one-Combat-Action rule (Firepower 6.2,
    Firepower 6.2.5).

    Called: once a game (only if implemented), at the first check or listing of an Impulse's
    Actions; the kinds returned are the game's from then on (docs/decisions.md FPD-194).
    """
    raise NotImplementedError


@hookspec
def firepower_mf_modifiers(game: Game, unit_id: str) -> Sequence[Modifier]:
    """Change a soldier's MF allowance (weapon Move column Firepower 10.7, wounds Firepower 23.1,
    leaders Firepower 11.1).

    Called: whenever the MF a soldier has left are computed (only when some plugin implements it);
    the Basic Game uses 4, -1 Suppressed, 0 Stunned (Firepower 6.2.8). A Stunned soldier stays at 0.
    """
    raise NotImplementedError


@hookspec
def firepower_prepare_fire(game: Game, ctx: FireContext, choice: Mapping[str, Any]) -> None:
    """Fill ``ctx.extra`` for a rule's own fire steps from the player's choice (the Advanced
    Game: the weapon or item fired, its ammunition and mode, the heights of the line of sight).

    Called: whenever a fire or grenade context is built (in play, in checks and previews).
    """


@hookspec
def firepower_fire_applied(game: Game, ctx: FireContext) -> None:
    """Called: after a fire's eliminations, stuns and suppressions are applied to the game (a
    rule marks smoke, illumination, items used up)."""


@hookspec
def firepower_los_obstacles(game: Game, a: Hex, b: Hex, hexes: tuple[Hex, ...],
                            ends: tuple[Soldier | None, Soldier | None]
                            ) -> Sequence[Obstacle]:
    """Add obstacles to an Advanced line of sight from ``a`` to ``b`` (``hexes``: the hexes the
    line passes through or along, ends excluded; ``ends``: the firer and the target soldier,
    None for a hex): walls, floors, windows, roofs (Firepower 12.1.5, Firepower 12.1.6),
    vehicles (Option 19). An :class:`~hexwar.plugins.firepower.advanced_los.Obstacle`
    with a height is judged by the LINE OF SIGHT CHART; one marked ``absolute`` blocks.

    Called: for every Advanced line of sight (fire, checks, previews, ``hexwar los``).
    """
    raise NotImplementedError


@hookspec
def firepower_melee_modifiers(game: Game, attackers: Sequence[str], defenders: Sequence[str],
                              hex: Hex) -> Sequence[Modifier]:
    """Add melee modifiers (the Advanced Game's Firepower 13.2-13.6), or refuse the melee with a
    RulesError (Firepower 13: no shared height, a closed door between).

    Called: when a melee is checked (before anything changes) and when it is resolved.
    """
    raise NotImplementedError


@hookspec
def firepower_melee_defenders(game: Game, attackers: Sequence[str], defenders: Sequence[str],
                              hex: Hex) -> Sequence[str] | None:
    """The opposing soldiers in the melee hex the attackers meet (the Advanced Game's Firepower
    13: only those who share a height with an attacker), or None to leave them all; a RulesError
    refuses the melee. Only those met count (6.5.2) and are eliminated (6.5.1).

    Called: when a melee is checked, before its modifiers.
    """
    raise NotImplementedError


@hookspec
def firepower_impulse_phase_start(game: Game, side: str) -> None:
    """Called: when a sequence unit of ``side`` has been drawn and Firepower 6.1.1-6.1.2 applied."""


@hookspec
def firepower_impulse_phase_end(game: Game, side: str) -> None:
    """Called: at the end of ``side``'s Impulse Phase, after Stunned became Suppressed
    (Firepower 6.1.3)."""


class FirepowerHooks(SystemHooks):
    """Typed calls into the ``firepower_`` hooks for one game: ``FirepowerHooks.of(game)``."""

    specs = sys.modules[__name__]  # the hook specifications above
    prefix = "firepower_"

    def fire_modifiers(self, ctx: FireContext, target: str) -> list[Modifier]:
        hook = self.hook.firepower_fire_modifiers
        if hook not in self.live:
            return []
        return collect(hook(game=self.game, ctx=ctx, target=target))

    def fire_steps(self, kind: str) -> list[FireEdit]:
        hook = self.hook.firepower_fire_steps
        if hook not in self.live:
            return []
        return collect(hook(game=self.game, kind=kind))

    def action_types(self) -> list[ActionType]:
        hook = self.hook.firepower_action_types
        if hook not in self.live:
            return []
        return collect(hook())

    def mf_modifiers(self, unit_id: str) -> list[Modifier]:
        hook = self.hook.firepower_mf_modifiers
        if hook not in self.live:
            return []
        return collect(hook(game=self.game, unit_id=unit_id))

    def prepare_fire(self, ctx: FireContext, choice: Mapping[str, Any]) -> None:
        hook = self.hook.firepower_prepare_fire
        if hook in self.live:
            hook(game=self.game, ctx=ctx, choice=choice)

    def fire_applied(self, ctx: FireContext) -> None:
        hook = self.hook.firepower_fire_applied
        if hook in self.live:
            hook(game=self.game, ctx=ctx)

    def los_obstacles(self, a: Hex, b: Hex, hexes: tuple[Hex, ...],
                      ends: tuple[Soldier | None, Soldier | None] = (None, None)
                      ) -> list[Obstacle]:
        hook = self.hook.firepower_los_obstacles
        if hook not in self.live:
            return []
        return collect(hook(game=self.game, a=a, b=b, hexes=hexes, ends=ends))

    def melee_modifiers(self, attackers: Sequence[str], defenders: Sequence[str],
                        hex: Hex) -> list[Modifier]:
        hook = self.hook.firepower_melee_modifiers
        if hook not in self.live:
            return []
        return collect(hook(game=self.game, attackers=attackers, defenders=defenders, hex=hex))

    def melee_defenders(self, attackers: Sequence[str], defenders: Sequence[str],
                        hex: Hex) -> list[str]:
        """``defenders`` less those a rule says the attackers do not meet."""
        hook = self.hook.firepower_melee_defenders
        if hook not in self.live:
            return list(defenders)
        kept = list(defenders)
        for got in hook(game=self.game, attackers=attackers, defenders=defenders, hex=hex):
            if got is not None:
                met = set(got)
                kept = [d for d in kept if d in met]
        return kept

    def impulse_phase_start(self, side: str) -> None:
        hook = self.hook.firepower_impulse_phase_start
        if hook in self.live:
            hook(game=self.game, side=side)

    def impulse_phase_end(self, side: str) -> None:
        hook = self.hook.firepower_impulse_phase_end
        if hook in self.live:
            hook(game=self.game, side=side)
