"""MBT's own hooks (``mbt_`` prefix), the extension points for the Advanced Game and the optional
rules, and :class:`MbtHooks`, the typed facade through which MBT calls them.

The Basic Game (MBT 1.0-9.0) implements none of these; later plugins (Advanced Game MBT 10.0-16.0,
optional rules MBT 17.0-24.0) answer them. Hooks are called once per game (the fire steps) or once
per shot, order or unit, never per hex in a hot loop. MBT code calls them only through the facade::

    MbtHooks.of(game).ap_modifiers(situation, firer, target)

which skips a hook that no enabled plugin implements.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from hexwar.core.kit import SystemHooks, collect
from hexwar.core.markers import hookspec

if TYPE_CHECKING:
    from fractions import Fraction

    from hexwar.core.engine.game import Game
    from hexwar.core.engine.state import Unit
    from hexwar.core.hexgrid import Hex
    from hexwar.core.types import Modifier
    from hexwar.plugins.mbt.ap_fire import FireEdit, Situation


@hookspec
def mbt_fire_steps(game: Game) -> Sequence[FireEdit]:
    """Kit :class:`~hexwar.core.kit.Edit` records that insert, replace or remove named steps of
    the AP fire procedure (MBT 7.4; e.g. MBT 14.3.4 reactive armour after ``armor``, MBT 17.2.1
    turret facing after ``hit_location``, MBT 17.2.4 lower hull halving). An edit names a step of
    the shot stage (``ap_factor``, ``modifiers``, ``hit_number``, ``number_of_hits``) or of the hit
    stage (``hit_location``, ``special_hits``, ``armor``, ``penetration``, ``damage``) and is
    applied there (:class:`hexwar.plugins.mbt.ap_fire.FireProcedure`). Called once per game."""
    raise NotImplementedError


@hookspec
def mbt_ap_modifiers(game: Game, situation: Situation, firer: Unit, target: Unit) -> Sequence[Modifier]:
    """Extra AP point effect modifiers for one shot (MBT 14.3.1 smoke, suppression, crew losses,
    grade, sights, NBC...). Called once per shot, in a game and at the table (``hexwar mbt fire``:
    see :func:`hexwar.plugins.mbt.cli.table_game`); the answers are added to the Basic Game's four
    kinds (MBT 7.4.2)."""
    raise NotImplementedError


@hookspec
def mbt_orders(game: Game, unit: Unit, legal: Sequence[str]) -> Sequence[str]:
    """Orders a unit may take beyond the Basic Game's F, FM, M, OW, ATGM (MBT 13.3: CA, OR; leg and
    towed units; command control MBT 21.1 may also narrow them). Return the full list, or [] for no
    change."""
    raise NotImplementedError


@hookspec(firstresult=True)
def mbt_unit_height(game: Game, unit: Unit) -> float | None:
    """The height a unit sits at for LOS and rising/falling shots (Advanced MBT 12.1, 13.2:
    contours, UP floors of buildings, helicopters at NOE). None: the Basic Game heights
    (MBT 6.1.4)."""


@hookspec(firstresult=True)
def mbt_weapon_arc(game: Game, unit: Unit, weapon: str) -> str | None:
    """The firing arc name of a weapon (MBT 14.2.1: hull arcs 60, 60R, 120, 360, SID for
    hull-mounted weapons, leg and towed units), measured from the hull's facing. None: the Basic
    Game's turret arc (MBT 7.2.1)."""


@hookspec
def mbt_after_damage(game: Game, unit: Unit, effects: Sequence[str]) -> None:
    """Called after damage is applied to a unit (MBT 14.3.3 suppression and crew losses,
    MBT 17.2.3 bail-out, MBT 14.3.3.2 passengers)."""


@hookspec(firstresult=True)
def mbt_sees(game: Game, viewer: Unit, target: Unit, moving: bool) -> bool | None:
    """Whether ``viewer`` sees ``target`` now, when a rule replaces the Basic Game's sighting
    (Advanced MBT 13.1 sighting ranges, 13.2 line of sight, 12.3.1 suppressed sighting arc).
    None: the Basic Game's answer (MBT 6.1). Called once per sighting question."""


@hookspec
def mbt_shot_situation(game: Game, situation: Situation, firer: Unit, target: Unit) -> None:
    """Complete the :class:`Situation` of one shot from the game (Advanced MBT 13.2.2 hull down,
    12.2.2 stacking); called when the situation is built, before any modifier is read."""


@hookspec(firstresult=True)
def mbt_movement_allowance(game: Game, unit: Unit, allowance: Fraction) -> Fraction | None:
    """The movement factors of a unit this Movement Phase when a rule changes the Basic Game's
    (Advanced MBT 12.3.3.1: a suppressed vehicle gets half). None: ``allowance``."""


@hookspec(firstresult=True)
def mbt_stacking_unlimited(game: Game) -> bool | None:
    """Whether any number of one side's units may end a move in one hex (Advanced MBT 12.2,
    which replaces MBT 4.3). None: the Basic Game's one unit per hex."""

@hookspec
def mbt_unit_moved(game: Game, unit: Unit) -> None:
    """Called after a unit entered a hex or turned in its move (MBT 8.1; Soviet doctrine,
    MBT 13.4.3.1, moves the rest of the organization with it)."""


@hookspec(firstresult=True)
def mbt_fire_options(game: Game, side: str, options: list[Any]) -> list[Any] | None:
    """The fire declarations a side may make (MBT 7.3.2), when a rule changes which firers go
    together (Soviet doctrine, MBT 13.4.3.2). None: ``options``."""


@hookspec(firstresult=True)
def mbt_fire_error(game: Game, side: str, choice: dict[str, Any]) -> str | None:
    """Why a fire declaration breaks a rule on firing together (MBT 13.4.3.2), or None."""


@hookspec(firstresult=True)
def mbt_move_costs(game: Game, unit: Unit) -> dict[Hex, int | None] | None:
    """Extra movement factors for ``unit`` to enter hexes (None: prohibited), from what lies on
    the map in this game (Advanced MBT 12.4 terrain markers). Called once per move search."""


@hookspec
def mbt_other_ammo(game: Game, unit: Unit, missile: bool) -> Sequence[str]:
    """Ammunition a unit's weapon may fire beyond the AP ammunition of its card (Advanced
    MBT 14.1.1.2: "GP" for a weapon with GP lines)."""
    raise NotImplementedError


@hookspec(firstresult=True)
def mbt_ammo_error(game: Game, firer: Unit, target: Unit, ammo: str) -> str | None:
    """Why ``firer`` may not fire ``ammo`` at ``target`` under a rule (other ammunition: its
    range and line, MBT 14.4.1; AP ammunition only at vehicles, MBT 14.1.1.2), or None."""


@hookspec(firstresult=True)
def mbt_other_fire(game: Game, firer: Unit, target: Unit, ammo: str, overwatch: bool,
                   target_moving: bool | None) -> Sequence[str] | None:
    """Resolve one shot of other ammunition (Advanced MBT 14.4 GP point effect fire) and return
    its effects (``suppress``, ``crew_loss``, ``temp_sup``, ``KO``, ``BU``), applied like AP
    damage (MBT 5.3)."""


@hookspec(firstresult=True)
def mbt_weapon_fire_error(game: Game, firer: Unit, target: Unit, ammo: str,
                          orders: tuple[str, ...], moving_target: bool,
                          check_arc: bool) -> str | None:
    """Why ``firer`` may not fire a weapon the Basic Game does not know (Advanced MBT 14.1.2: an
    independent machinegun's ``WEAPON/GP`` shot) at ``target`` now: the reason, ``""`` when it
    may, None when ``ammo`` names no such weapon (the Basic Game's checks follow). Asked only for
    a shot that names a weapon (``WEAPON/AMMO``)."""


@hookspec(firstresult=True)
def mbt_fired_again_error(game: Game, firer: Unit, ammo: str, missile: bool) -> str | None:
    """Why a unit that has fired this Turn may not fire ``ammo`` as well, when a rule lets some
    fire again (Advanced MBT 14.1.2.1: a vehicle's other guns in the same step): the reason,
    ``""`` when it may, None for the Basic Game's refusal (MBT 7.1.5)."""


@hookspec
def mbt_shot_fired(game: Game, firer: Unit, ammo: str) -> None:
    """Called for each shot of a fire declaration as its firer is marked FIRED, before any shot
    resolves (Advanced MBT 14.1.2.1 notes which gun fired, and when)."""


@hookspec(firstresult=True)
def mbt_guns_usable(game: Game, unit: Unit) -> bool | None:
    """Whether a unit whose main gun cannot fire still has guns for F, FM and OW orders
    (Advanced MBT 14.1.2.1: a working independent machinegun). None: the Basic Game's answer,
    no (MBT 6.2.3)."""


@hookspec(firstresult=True)
def mbt_guest_card(game: Game, unit_type: str, side: str) -> str | None:
    """The MBT unit card a guest unit of another system fights with in an MBT-host game (its MBT
    profile, e.g. a Firepower squad as a ``Rifle Squad``), named by the adapter that bridges the
    two systems (docs/cross-system.md, docs/decisions.md CORE-86). Called once per guest type and
    side; None: no adapter models the type."""
    raise NotImplementedError


def _lone_impl(hook: Any, argnames: tuple[str, ...]) -> Callable[..., Any] | None:
    """The function of a hook's only implementation when pluggy would just call it with the
    hook's arguments in order (no wrapper, the same argument names); else None."""
    impls = hook.get_hookimpls()
    if len(impls) != 1:
        return None
    one = impls[0]
    if one.hookwrapper or getattr(one, "wrapper", False) or tuple(one.argnames) != argnames:
        return None
    fn: Callable[..., Any] = one.function
    return fn


class MbtHooks(SystemHooks):
    """Typed calls into the ``mbt_`` hooks of one game (``MbtHooks.of(game)``)."""

    specs = sys.modules[__name__]
    prefix = "mbt_"

    def guest_card(self, unit_type: str, side: str) -> str | None:
        """The card name an adapter gives a guest unit type of ``side``, or None."""
        hook = self.hook.mbt_guest_card
        if hook not in self.live:
            return None
        got = hook(game=self.game, unit_type=unit_type, side=side)
        return None if got is None else str(got)

    def fire_steps(self) -> list[FireEdit]:
        """Every enabled rule's edits of the fire procedure."""
        hook = self.hook.mbt_fire_steps
        if hook not in self.live:
            return []
        return collect(hook(game=self.game))

    def ap_modifiers(self, situation: Situation, firer: Unit, target: Unit) -> list[Modifier]:
        """The extra modifiers of one shot, every rule's answers in one list."""
        hook = self.hook.mbt_ap_modifiers
        if hook not in self.live:
            return []
        return collect(hook(game=self.game, situation=situation, firer=firer, target=target))

    def orders(self, unit: Unit, legal: Sequence[str]) -> list[str]:
        """The orders ``unit`` may take: ``legal``, or the last non-empty answer of the rules."""
        out = list(legal)
        hook = self.hook.mbt_orders
        if hook not in self.live:
            return out
        for answer in hook(game=self.game, unit=unit, legal=tuple(legal)):
            if answer:
                out = list(answer)
        return out

    def unit_height(self, unit: Unit) -> float | None:
        """The height a rule puts ``unit`` at, or None for the Basic Game heights."""
        hook = self.hook.mbt_unit_height
        if hook not in self.live:
            return None
        h = hook(game=self.game, unit=unit)
        return None if h is None else float(h)

    def weapon_arc(self, unit: Unit, weapon: str) -> str | None:
        """The arc a rule gives ``weapon`` of ``unit``, or None for the turret arc."""
        hook = self.hook.mbt_weapon_arc
        if hook not in self.live:
            return None
        arc = hook(game=self.game, unit=unit, weapon=weapon)
        return None if arc is None else str(arc)

    def after_damage(self, unit: Unit, effects: Sequence[str]) -> None:
        """Tell the rules that ``effects`` were applied to ``unit``."""
        hook = self.hook.mbt_after_damage
        if hook in self.live:
            hook(game=self.game, unit=unit, effects=list(effects))

    def sees(self, viewer: Unit, target: Unit, moving: bool) -> bool | None:
        """A rule's sighting answer, or None for the Basic Game's. Asked for every viewer and
        target pair, so a lone plain implementation is called straight, not through pluggy's
        loop (the same answer: ``firstresult`` of one; docs/decisions.md MBTD-191)."""
        hook = self.hook.mbt_sees
        if hook not in self.live:
            return None
        direct: Callable[..., Any] | bool | None = self.__dict__.get("_sees_direct")
        if direct is None:
            direct = self.__dict__["_sees_direct"] = _lone_impl(
                hook, ("game", "viewer", "target", "moving")) or False
        if callable(direct):
            got = direct(self.game, viewer, target, moving)
        else:
            got = hook(game=self.game, viewer=viewer, target=target, moving=moving)
        return None if got is None else bool(got)

    def shot_situation(self, situation: Situation, firer: Unit, target: Unit) -> None:
        """Let the rules complete the situation of a shot."""
        hook = self.hook.mbt_shot_situation
        if hook in self.live:
            hook(game=self.game, situation=situation, firer=firer, target=target)

    def movement_allowance(self, unit: Unit, allowance: Fraction) -> Fraction:
        """The unit's movement factors after the rules (``allowance`` when none changes it)."""
        hook = self.hook.mbt_movement_allowance
        if hook not in self.live:
            return allowance
        got = hook(game=self.game, unit=unit, allowance=allowance)
        return allowance if got is None else got

    def stacking_unlimited(self) -> bool:
        """MBT 12.2: True when a rule lets one side stack any number of units in a hex."""
        hook = self.hook.mbt_stacking_unlimited
        if hook not in self.live:
            return False
        return bool(hook(game=self.game))

    def unit_moved(self, unit: Unit) -> None:
        """Tell the rules that ``unit`` entered a hex or turned."""
        hook = self.hook.mbt_unit_moved
        if hook in self.live:
            hook(game=self.game, unit=unit)

    def fire_options(self, side: str, options: list[Any]) -> list[Any]:
        """The declarations after the rules (``options`` when none changes them)."""
        hook = self.hook.mbt_fire_options
        if hook not in self.live:
            return options
        got = hook(game=self.game, side=side, options=options)
        return options if got is None else list(got)

    def fire_error(self, side: str, choice: dict[str, Any]) -> str | None:
        """A rule's objection to a fire declaration, or None."""
        hook = self.hook.mbt_fire_error
        if hook not in self.live:
            return None
        got = hook(game=self.game, side=side, choice=choice)
        return None if got is None else str(got)

    def move_costs(self, unit: Unit) -> dict[Hex, int | None]:
        """The rules' extra entry costs by hex for ``unit`` ({} when none)."""
        hook = self.hook.mbt_move_costs
        if hook not in self.live:
            return {}
        return dict(hook(game=self.game, unit=unit) or {})

    def other_ammo(self, unit: Unit, missile: bool) -> list[str]:
        """The other ammunition names the rules give the unit's weapon."""
        hook = self.hook.mbt_other_ammo
        if hook not in self.live:
            return []
        return [a for answer in hook(game=self.game, unit=unit, missile=missile) for a in answer]

    def ammo_error(self, firer: Unit, target: Unit, ammo: str) -> str | None:
        """A rule's reason why the other ammunition cannot be fired at the target, or None."""
        hook = self.hook.mbt_ammo_error
        if hook not in self.live:
            return None
        got = hook(game=self.game, firer=firer, target=target, ammo=ammo)
        return None if got is None else str(got)

    def other_fire(self, firer: Unit, target: Unit, ammo: str, *, overwatch: bool,
                   target_moving: bool | None) -> list[str]:
        """Resolve a shot of other ammunition; its effects ([] when no rule resolves it)."""
        hook = self.hook.mbt_other_fire
        if hook not in self.live:
            return []
        got = hook(game=self.game, firer=firer, target=target, ammo=ammo, overwatch=overwatch,
                   target_moving=target_moving)
        return list(got or [])

    def weapon_fire_error(self, firer: Unit, target: Unit, ammo: str, *,
                          orders: tuple[str, ...], moving_target: bool,
                          check_arc: bool) -> tuple[bool, str | None]:
        """(whether a rule knows the weapon ``ammo`` names, its reason to refuse the shot or
        None); (False, None) when no rule knows it."""
        hook = self.hook.mbt_weapon_fire_error
        if hook not in self.live:
            return False, None
        got = hook(game=self.game, firer=firer, target=target, ammo=ammo, orders=orders,
                   moving_target=moving_target, check_arc=check_arc)
        if got is None:
            return False, None
        return True, str(got) or None

    def fired_again_error(self, firer: Unit, ammo: str, missile: bool) -> str | None:
        """Why a unit that has fired may not fire ``ammo`` too: a rule's answer, else the Basic
        Game's (MBT 7.1.5: once a Turn)."""
        basic = f"{firer.id} has already fired this Turn (MBT 7.1.5)"
        hook = self.hook.mbt_fired_again_error
        if hook not in self.live:
            return basic
        got = hook(game=self.game, firer=firer, ammo=ammo, missile=missile)
        return basic if got is None else (str(got) or None)

    def shot_fired(self, firer: Unit, ammo: str) -> None:
        """Tell the rules that ``firer`` fires ``ammo`` in a declaration."""
        hook = self.hook.mbt_shot_fired
        if hook in self.live:
            hook(game=self.game, firer=firer, ammo=ammo)

    def guns_usable(self, unit: Unit) -> bool:
        """Whether a rule gives a unit without a working main gun guns to fire (False: none)."""
        hook = self.hook.mbt_guns_usable
        if hook not in self.live:
            return False
        return bool(hook(game=self.game, unit=unit))
