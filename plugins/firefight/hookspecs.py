"""Firefight's own hooks: the extension points the Firefight II/III optional rules (Firefight 11-28) use.

``plugin.py`` adds them to the plugin manager (``hexwar_add_hookspecs``), so a rule plugin
implements them with ``from hexwar.core.markers import hookimpl``. Every hook is prefixed
``firefight_``. This module is kept stable: arguments may be added, none removed.

Firefight calls its hooks only through :class:`FirefightHooks` (end of this module), one method
per hook: ``FirefightHooks.of(game).fire_modifiers(attack)``. The facade knows which hooks some
enabled plugin implements, so a hook nobody implements costs one set lookup.

Conventions shared by the hooks
-------------------------------

**Hot paths.** No hook here is called per hex of a line of sight. LOS layers
(:func:`firefight_los_layers`) and options are collected once per game and cached; the rules
then call plain methods. Per-attack, per-step and per-decision hooks are fine.

**Units.** ``game.state.units[uid]`` is a core ``Unit``; Firefight keeps its status in
``unit.state`` (JSON values). Keys a rule may read or set (the rule modules ``fire.py``,
``movement.py``... use them with their rules):

* ``fired`` (bool, fired this Game-Turn, Firefight 6.11), ``moved`` (bool, moved this turn, Firefight 7.21),
  ``acted`` (bool, mounted/dismounted this turn, Firefight 7.42), ``mp`` (float, movement points left in
  the current move, Firefight 7.23);
* ``S`` (suppressed, Firefight 6.52), ``Kf``, ``Km`` (vehicle kills, Firefight 6.54), ``Kms``
  (missile killed, Firefight 8.65);
* ``carrier`` (id of the vehicle the unit rides in, or absent) and ``passengers`` (list of ids)
  Firefight 7.4;
* ``weapon`` (``"dragon"``/``"rpg7"``/absent: special weapon assigned before play, Firefight 6.81, 6.9),
  ``target_kind_used`` (``"personnel"``/``"vehicle"`` this turn, Firefight 6.83), ``weapon_used`` (the AT
  weapon used this turn, Firefight 6.82);
* ``exited`` (turn it left the map, Firefight 7.26), ``destroyed`` (turn it was destroyed);
* free for rules: ``face_down`` (Firefight 11), ``dummy`` (Firefight 12) (never counts for stacking
  or victory),
  ``exposed`` (Firefight 16.21), ``ip`` (Firefight 23), ``designated`` (Firefight 26)... (prefix new
  keys with the rule number when in doubt, e.g. ``r17_fired``).

Game-wide state lives in ``game.state.data["firefight"]`` (a dict); rules keep theirs under
their own key, e.g. ``game.state.data["firefight.smoke"]``.

**Attacks.** An attack is a dict (JSON values), built by
:func:`hexwar.plugins.firefight.fire.describe_attack` and passed to the fire hooks:

``{"firer": uid | None, "firer_side": str, "firer_type": "T62", "target": uid,
"target_type": "M60A1", "target_class": "personnel" | "apc" | "tank", "weapon": str,
"line": str (row of the fire table), "crt": "anti_personnel" | "anti_armor", "range": int,
"mode": str, "phase": str, "turn": int, "filters": [terrain filters on the target]}``

``mode`` is one of ``"direct"`` (Direct Fire Phase, Firefight 6.0), ``"opportunity"`` (at the mover
Firefight 7.5), ``"overwatch"`` (Firefight 15), ``"short_halt"`` (Firefight 17), ``"overrun"``
(Firefight 28), ``"mine"`` (Firefight 18, 25),
``"clgp"`` (Firefight 26), ``"indirect"`` (Firefight 8.6); a rule may add its own. Pure rules
functions take the attack and the ``FirefightRules`` context; they never touch the game unless asked
to apply.

**Terrain filters** (colour codes of the CRTs, Firefight 6.7): ``"forest"``, ``"town"``,
``"defilade"``. A rule changes them through :func:`firefight_terrain_filters`.

**Results** are ``"-"`` (no effect), ``"S"``, ``"Kf"``, ``"Km"``, ``"K"`` and, from indirect fire,
``"Kms"`` (Firefight 6.5, 8.65).

**Steps.** Hooks that return ``Step`` objects return generators used with ``yield from`` inside
a phase (core/engine/primitives.py): they may yield ``Decision`` objects and must not raise on a
choice that passed ``Decision.check``.

Phase names (for ``hexwar_sequence_edits`` anchors)
---------------------------------------------------

Setup (``when="setup"``), in order: ``firefight.draw_forces`` (Scn 7, 9 blind draws),
``firefight.fire_plan`` (Firefight 8.1, 8.12, 8.13 target lists and scheduled fires, secret),
``firefight.deploy`` (Firefight 9.13 deployment inside the scenario's areas), ``firefight.assign_weapons``
(Firefight 6.81, 6.9 Dragons, RPG-7s, secret).
Each Game-Turn (Firefight 4.1): ``firefight.direct_fire`` (A), ``firefight.movement`` (B),
``firefight.suppression_removal`` (C), ``firefight.if_cleanup`` (D1: impact markers removed),
``firefight.if_execute`` (D2-D3: missions due this turn), ``firefight.if_request`` (D4: new
requests, continuous fire), ``firefight.end_turn`` (E).
"""

from __future__ import annotations

import sys
from collections.abc import Generator, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Protocol

from hexwar.core.kit import SystemHooks, collect
from hexwar.core.markers import hookspec

if TYPE_CHECKING:
    from hexwar.core.board import Board
    from hexwar.core.engine.game import Game
    from hexwar.core.hexgrid import Hex
    from hexwar.core.kit import Edit
    from hexwar.core.los import HexsideHow, LosContext, LosEffect
    from hexwar.core.types import Modifier
    from hexwar.plugins.firefight.fire import FireStep
    from hexwar.plugins.firefight.indirect import IfStep

#: A sub-procedure run inside a phase with ``yield from`` (may yield Decisions).
Step = Generator[Any, Any, Any]


class LosLayer(Protocol):
    """An extra effect on a Firefight line of sight, consulted after the terrain of (Firefight 5.0-5.21).

    ``hex_effect``/``hexside_effect`` have the meaning of core.los.LosRules (end hexes are never
    passed, Firefight 5.11); return ``None`` for no effect. Layers are plain objects collected once per
    game, so these are plain calls in the hot path. ``ctx.data`` is the game (may be ``None`` in
    table-side use) and ``ctx.a``/``ctx.b`` are the firer's and target's hexes.
    """

    name: str

    def hex_effect(self, board: Board, h: Hex, ctx: LosContext) -> LosEffect | None: ...

    def hexside_effect(
        self, board: Board, a: Hex, b: Hex, how: HexsideHow, ctx: LosContext
    ) -> LosEffect | None: ...


# ---------------------------------------------------------------------------------------------
# Line of sight and observation (Firefight 5.0-5.21; 11, 12, 13, 14)
# ---------------------------------------------------------------------------------------------


@hookspec
def firefight_los_layers(game: Game | None) -> Sequence[LosLayer]:
    """Add LOS layers (height/contour (Firefight 13), smoke (Firefight 14.11), impassable hexsides
    (Firefight Addenda)).

    Called: once per game when the LOS rules are built (and by the table-side commands with
    ``game=None``). Layers are consulted after the base terrain, in ``name`` order.
    """
    raise NotImplementedError


@hookspec
def firefight_los_options(game: Game | None) -> Mapping[str, Any]:
    """Switch base LOS behaviour. Known keys (merged over every answer; a conflict is an error):

    * ``"defilade_blocks"`` (bool, default True): an intervening defilade hexside blocks (Firefight 5.2);
      Firefight 13.0: turns it off.
    * ``"forest_town_block"`` (bool, default True): intervening Forest/Town hexes block absolutely
      Firefight 5.1; a height rule (Firefight 13.21) may turn it off and block by height in its layer.
    * ``"max_range"`` (int or None, default None): sighting range cap.

    Called: once per game, with :func:`firefight_los_layers`.
    """
    raise NotImplementedError


@hookspec(firstresult=True)
def firefight_target_in_defilade(game: Game | None, firer_hex: Hex, target_id: str,
                                 base: bool) -> bool | None:
    """Override whether a target counts as in defilade against this firer.

    ``base`` is the answer of Firefight 5.2 (fire enters through a defilade hexside of the target hex).
    Firefight 13.3: returns False when the firer is higher; (Firefight 23.1) returns True for personnel in an
    Improved Position. Called: once per attack.
    """


@hookspec
def firefight_untargetable(game: Game, side: str) -> Mapping[str, str]:
    """Enemy units ``side`` may not attack now, with the reason and rule (``{uid: "the unit is
    face-down (Firefight 11.21)"}``). All answers are merged. The base caches the answer until the
    next decision, step, attack or result; call ``fire.invalidate_targets(game)`` after a change of
    your own (a reveal)."""
    raise NotImplementedError


@hookspec
def firefight_extra_targets(game: Game, side: str) -> Sequence[str]:
    """Units that may be attacked although the base rules protect them (a passenger exposed by
    firing from an M113, Firefight 16.21). Called: once per decision that lists targets."""
    raise NotImplementedError


@hookspec
def firefight_hidden_units(game: Game, side: str) -> Sequence[str]:
    """Units ``side`` may not see at all (e.g. a face-down unit out of observation, Firefight 11).
    Called: when a side's view is built. Dummies that show as counters are better left visible
    and disguised through :func:`firefight_unit_view`."""
    raise NotImplementedError


@hookspec(firstresult=True)
def firefight_unit_view(game: Game, side: str, unit_id: str,
                        shown: dict[str, Any]) -> dict[str, Any] | None:
    """Disguise what ``side`` sees of a unit (a face-down counter shows only its side and hex).
    ``shown`` is the full record; return a replacement or ``None``."""


# ---------------------------------------------------------------------------------------------
# Direct fire (Firefight 6.0-6.9)
# ---------------------------------------------------------------------------------------------


@hookspec
def firefight_fire_exemptions(game: Game, firer_id: str, mode: str) -> Sequence[str]:
    """Lift base restrictions on a firer for this ``mode``. Names: ``"moved"`` (fire after or
    during movement, Firefight 17, 27.5), ``"fired"`` (fire again, Firefight 28.2),
    ``"passenger"`` (fire while carried, Firefight 16), ``"not_mover"`` (fire in the Movement Phase
    at a unit that is not moving: overwatch (Firefight 15), short halt, Firefight 17.0
    (Clarifications)). Called: per candidate firer when options are built."""
    raise NotImplementedError


@hookspec
def firefight_fire_restrictions(game: Game, attack: dict[str, Any]) -> Sequence[str]:
    """Reasons (with rule refs) that forbid this attack, e.g. ``"the M60A2 may not fire missiles on a
    Short Halt (Firefight 17.12)"``. Any answer forbids. Called: per candidate (firer, target, weapon)."""
    raise NotImplementedError


@hookspec
def firefight_weapon_options(game: Game, firer_id: str, target_id: str,
                             mode: str) -> Sequence[Mapping[str, Any]]:
    """Extra weapons a firer may use on a target: ``{"line": "US-TM+", "crt":
    "anti_personnel", "kind": "small", "rule": "Firefight 24.0"}`` (small arms vs vehicles, Firefight 24).
    Called: per candidate firer and target, with ``mode="any"`` (restrict by mode in
    :func:`firefight_fire_restrictions`, which sees the attack's mode)."""
    raise NotImplementedError


@hookspec(firstresult=True)
def firefight_base_attack_rating(game: Game, attack: dict[str, Any],
                                 base: int | None) -> tuple[int | None, str] | None:
    """Replace the table Attack Rating (``base``, ``None`` beyond range) with a fixed one and its
    rule: (Firefight 27.23) mounted MICV infantry AR 7; (Firefight 28.5) Soviet TM without RPG-7 in
    Overrun AR 3; Firefight 16.1: range limit 4 (return ``(None, "Firefight 16.1")`` beyond it)."""


@hookspec
def firefight_fire_modifiers(game: Game, attack: dict[str, Any]) -> Sequence[Modifier]:
    """Attack Rating modifiers (value added to the AR), each with its case number: mounted fire
    Firefight 16.1 -4, Firefight 16.2 -1; Short Halt (Firefight 17.12) -2; future AFVs (Firefight
    27.22, 27.32, 27.42, 27.5). Combined additively in canonical order with the base modifiers
    (Firefight 6.52 suppression)."""
    raise NotImplementedError


@hookspec
def firefight_terrain_filters(game: Game, attack: dict[str, Any]) -> Mapping[str, Sequence[str]]:
    """Change the terrain filters applied to the CRT result: ``{"add": ["forest"]}`` (smoke
    Firefight 14.12), ``{"remove": ["forest", "town", "defilade"]}`` (overrun (Firefight 28.1),
    mines, Firefight 18.0). All adds are applied, then all removes."""
    raise NotImplementedError


@hookspec
def firefight_fire_steps(game: Game) -> Sequence[Edit[FireStep]]:
    """Edits to the fire procedure, the :class:`~hexwar.core.kit.Pipeline` that resolves one
    unit's fire at one target (:data:`hexwar.plugins.firefight.fire.FIRE_STEPS`: ``target``,
    ``weapon``, ``attack``, ``dice``, ``base_rating``, ``modifiers``, ``range``,
    ``final_rating``, ``terrain_filters``, ``crt``, ``result_override``, ``mark_fired``,
    ``apply``, ``report``, ``attack_done``). Each edit inserts a step before or after a named
    one, replaces one or removes one; a step is a callable taking the
    :class:`~hexwar.plugins.firefight.fire.Shot`. The steps from ``base_rating`` to
    ``result_override`` are the pure part (``resolve_attack``), those before ``range`` the Attack
    Rating (``attack_rating``), which must not read the dice: it is worked out once for every
    roll an AI previews (docs/decisions.md FFD-50); these three may be replaced, not removed.
    Called: once per game,
    when the first shot is resolved."""
    raise NotImplementedError


@hookspec
def firefight_if_steps(game: Game) -> Sequence[Edit[IfStep]]:
    """Edits to the indirect-fire attack on one unit, the :class:`~hexwar.core.kit.Pipeline`
    of :data:`hexwar.plugins.firefight.indirect.IF_STEPS` (``dice``, ``crt``, ``apply``,
    ``report``; Firefight 8.6-8.65); a step is a callable taking the
    :class:`~hexwar.plugins.firefight.indirect.IfShot`. Called: once per game, when the first
    unit is attacked by indirect fire."""
    raise NotImplementedError


@hookspec
def firefight_result_override(game: Game, attack: dict[str, Any], roll: int,
                              result: str) -> Sequence[str]:
    """Weaken a CRT result: small arms vs vehicles turn any result into ``"S"`` (Firefight 24); an M113Z in
    defilade ignores rolls of 3 or more (Firefight 27.12). The weakest answer wins
    (order ``- < S < Kf = Km < K``), so the order of plugins never matters."""
    raise NotImplementedError


@hookspec
def firefight_attack_done(game: Game, attack: dict[str, Any], outcome: dict[str, Any]) -> None:
    """Observe a resolved attack (``outcome``: ``{"roll", "ar", "result", "applied"}``), e.g. to
    reveal a face-down firer (Firefight 11.0) or note fire for overwatch (Firefight 15)."""


@hookspec
def firefight_reactions(game: Game, attack: dict[str, Any],
                        outcome: dict[str, Any]) -> Sequence[Step]:
    """Sub-procedures to run right after an attack resolved in the Movement Phase (overwatch
    fire at the shooter, Firefight 15). Each is a generator run with ``yield from``; helper:
    :func:`hexwar.plugins.firefight.fire.attack_step`."""
    raise NotImplementedError


@hookspec
def firefight_result_applied(game: Game, unit_id: str, result: str, source: str) -> None:
    """Observe a result applied to a unit (``source``: the attack mode)."""


# ---------------------------------------------------------------------------------------------
# Movement (Firefight 7.0-7.5)
# ---------------------------------------------------------------------------------------------


@hookspec
def firefight_move_cost(game: Game, unit_id: str, src: str, dst: str,
                        base: float) -> Sequence[Modifier]:
    """Change the MP cost of one step (``src``/``dst`` board labels; ``base`` the cost of
    Firefight 7.0, 7.1 and the TEC). Return modifiers (e.g. ``Modifier("demolished bridge", 1,
    "Firefight Addenda")``)."""
    raise NotImplementedError


@hookspec
def firefight_move_restrictions(game: Game, unit_id: str, src: str, dst: str) -> Sequence[str]:
    """Reasons that forbid one step (impassable hexside for vehicles (Firefight Addenda))."""
    raise NotImplementedError


@hookspec(firstresult=True)
def firefight_may_enter_enemy_hex(game: Game, unit_id: str, dst: str) -> bool | None:
    """Allow entering an enemy-occupied hex (Firefight 7.25 forbids it; Overrun (Firefight 28) allows it).
    The step then runs the ``enter`` interrupts, where the rule runs its sub-procedure."""


@hookspec
def firefight_mover_interrupts(game: Game, unit_id: str, hex_label: str,
                               stage: str) -> Sequence[Step]:
    """Sub-procedures after a unit enters a hex, by ``stage`` (the order is
    docs/decisions.md FFD-10): ``"impact"`` (after the IF-zone attack (Firefight 8.8): nothing of
    the base), ``"mines"`` Firefight 18, 25, ``"spotting"`` (Firefight 11), then the base
    opportunity fire (Firefight 7.5), then ``"after_fire"`` (overrun, Firefight 28). The mover may
    be gone when a step starts; check ``unit.hex``."""
    raise NotImplementedError


@hookspec
def firefight_move_options(game: Game, unit_id: str) -> Sequence[Mapping[str, Any]]:
    """Extra choices offered to a moving unit between steps (e.g. ``{"action": "short_halt",
    "target": uid}`` (Firefight 17)). The choice is given to :func:`firefight_move_action`."""
    raise NotImplementedError


@hookspec(firstresult=True)
def firefight_move_action(game: Game, unit_id: str, choice: Mapping[str, Any]) -> Step | None:
    """Run one of the choices from :func:`firefight_move_options` (return a generator)."""


@hookspec
def firefight_move_done(game: Game, unit_id: str) -> None:
    """Observe the end of a unit's move (re-concealment, Firefight 11.2)."""


@hookspec
def firefight_phase_actions(game: Game, side: str, phase: str) -> Sequence[Mapping[str, Any]]:
    """Extra actions a side may take when it is its turn to act in the Direct Fire or Movement
    Phase (``phase`` is the phase name): CLGP designation (Firefight 26), instant smoke (Firefight
    27.6). Each is a dict with an ``"action"`` key; it is run by :func:`firefight_run_action` and
    counts as the side's action (not a pass)."""
    raise NotImplementedError


@hookspec(firstresult=True)
def firefight_run_action(game: Game, side: str, choice: Mapping[str, Any]) -> Step | None:
    """Run an action offered by :func:`firefight_phase_actions`."""


# ---------------------------------------------------------------------------------------------
# Indirect fire (Firefight 8.0-8.8; 14, 19, 21, 22, 25)
# ---------------------------------------------------------------------------------------------


@hookspec
def firefight_mission_kinds(game: Game, side: str, if_unit: str) -> Sequence[str]:
    """Extra mission kinds this IF unit may be asked for in a request (``"smoke"`` (Firefight 14),
    ``"suppressive"`` (Firefight 19), ``"mines"`` (Firefight 25)). The base offers ``"he"``."""
    raise NotImplementedError


@hookspec(firstresult=True)
def firefight_mission_delay(game: Game, mission: dict[str, Any], base: int) -> int | None:
    """Replace the delay of a new mission (suppressive -2 (Firefight 19.0); dedicated 1/2, Firefight 21.3).
    ``mission``: ``{"unit", "side", "hex", "kind", "planned", "continuous", "turn"}``."""


@hookspec(firstresult=True)
def firefight_scatter(game: Game, mission: dict[str, Any]) -> int | None:
    """Roll (with ``game.dice``) and return how many hexes a mission scatters, replacing (Firefight 8.52)
    (FF III odds (Firefight 22); suppressive always (Firefight 19.0); priority 1, Firefight 21.2).
    The direction is rolled by the base."""


@hookspec(firstresult=True)
def firefight_impact_pattern(game: Game, mission: dict[str, Any]) -> Sequence[int] | None:
    """Replace the (impact, adjacent, two-away) Attack Ratings of a mission (Firefight 21.22 priority
    fire impact 6)."""


@hookspec(firstresult=True)
def firefight_place_impact(game: Game, mission: dict[str, Any], hex_label: str) -> bool | None:
    """Place a non-HE impact (smoke marker (Firefight 14.1), artillery mines, Firefight 25); return
    True if handled (the base then places no HE marker)."""


@hookspec
def firefight_if_extra_missions(game: Game) -> Sequence[Step]:
    """Sub-procedures run at the start of D2 before the plotted missions (priority fire, Firefight 21.2)."""
    raise NotImplementedError


# ---------------------------------------------------------------------------------------------
# Set-up, stacking, end of turn
# ---------------------------------------------------------------------------------------------


@hookspec
def firefight_counts_for_stacking(game: Game, unit_id: str) -> bool | None:
    """Say whether a unit counts toward the 4-unit limit (Firefight 7.3): return ``False`` to exclude it
    (dummies, Firefight 12); ``None`` for no opinion. Any ``False`` answer excludes it."""


@hookspec(firstresult=True)
def firefight_public_ref(game: Game, unit_id: str) -> str | None:
    """The name under which sides other than the owner may see this unit now (an alias such as
    ``"?SU-3"`` for a concealed unit, Firefight 11.0, 12.0); ``None``: its real id.

    The base uses it wherever it writes a unit id that a non-owner can read: events (each side
    gets its own copy, the owner the real ids), dice purposes (always the public name) and the
    ``mover``/``attacked`` entries of ``hexwar_describe_state``. Requested by the rules helper.
    """


@hookspec(firstresult=True)
def firefight_movement_allowance(game: Game, unit_id: str, base: float) -> float | None:
    """Replace a unit's Movement Allowance for its move (``base``: (Firefight 7.0) and the unit data;
    a dummy claiming to be a vehicle, docs/decisions.md FFD-25)."""


@hookspec
def firefight_describe(game: Game, side: str | None) -> Mapping[str, Any]:
    """Public state a rule adds to ``hexwar_describe_state`` (smoke hexes, mine markers)."""
    raise NotImplementedError


# ---------------------------------------------------------------------------------------------
# The facade: Firefight calls its hooks only through it
# ---------------------------------------------------------------------------------------------


class FirefightHooks(SystemHooks):
    """Typed calls into the ``firefight_*`` hooks for one game:
    ``FirefightHooks.of(game).fire_modifiers(attack)``.

    Each method answers what the base needs (merged, flattened or first) and skips a hook that no
    enabled plugin implements. The ``*_live`` properties tell a hot path whether building a
    hook's arguments is worth it at all.
    """

    specs = sys.modules[__name__]
    prefix = "firefight_"

    # -- hot-path tests ----------------------------------------------------------------------
    @property
    def fire_restrictions_live(self) -> bool:
        return self.hook.firefight_fire_restrictions in self.live

    @property
    def base_attack_rating_live(self) -> bool:
        return self.hook.firefight_base_attack_rating in self.live

    @property
    def move_cost_live(self) -> bool:
        return self.hook.firefight_move_cost in self.live

    @property
    def move_restrictions_live(self) -> bool:
        return self.hook.firefight_move_restrictions in self.live

    # -- line of sight and observation -------------------------------------------------------
    def los_layers(self) -> list[LosLayer]:
        hook = self.hook.firefight_los_layers
        if hook not in self.live:
            return []
        return collect(hook(game=self.game))

    def los_options(self) -> list[Mapping[str, Any]]:
        """Every rule's answer, in hook order (the caller merges them)."""
        hook = self.hook.firefight_los_options
        if hook not in self.live:
            return []
        return [dict(r or {}) for r in hook(game=self.game)]

    def target_in_defilade(self, firer_hex: Hex, target_id: str, base: bool) -> bool | None:
        hook = self.hook.firefight_target_in_defilade
        if hook not in self.live:
            return None
        over = hook(game=self.game, firer_hex=firer_hex, target_id=target_id, base=base)
        return None if over is None else bool(over)

    def untargetable(self, side: str) -> dict[str, str]:
        hook = self.hook.firefight_untargetable
        out: dict[str, str] = {}
        if hook in self.live:
            for res in hook(game=self.game, side=side):
                out.update(dict(res or {}))
        return out

    def extra_targets(self, side: str) -> set[str]:
        hook = self.hook.firefight_extra_targets
        if hook not in self.live:
            return set()
        return set(collect(hook(game=self.game, side=side)))

    def hidden_units(self, side: str) -> set[str]:
        hook = self.hook.firefight_hidden_units
        if hook not in self.live:
            return set()
        return set(collect(hook(game=self.game, side=side)))

    def unit_view(self, side: str, unit_id: str, shown: dict[str, Any]) -> dict[str, Any] | None:
        hook = self.hook.firefight_unit_view
        if hook not in self.live:
            return None
        over = hook(game=self.game, side=side, unit_id=unit_id, shown=shown)
        return None if over is None else dict(over)

    # -- direct fire -------------------------------------------------------------------------
    def fire_exemptions(self, firer_id: str, mode: str) -> set[str]:
        hook = self.hook.firefight_fire_exemptions
        if hook not in self.live:
            return set()
        return set(collect(hook(game=self.game, firer_id=firer_id, mode=mode)))

    def fire_restrictions(self, attack: dict[str, Any]) -> list[str]:
        """Every reason given, the first rule's first (any reason forbids the attack)."""
        hook = self.hook.firefight_fire_restrictions
        if hook not in self.live:
            return []
        return [str(r) for r in collect(hook(game=self.game, attack=attack))]

    def weapon_options(self, firer_id: str, target_id: str, mode: str) -> list[Mapping[str, Any]]:
        hook = self.hook.firefight_weapon_options
        if hook not in self.live:
            return []
        return collect(hook(game=self.game, firer_id=firer_id, target_id=target_id, mode=mode))

    def base_attack_rating(self, attack: dict[str, Any], base: int | None
                           ) -> tuple[int | None, str] | None:
        hook = self.hook.firefight_base_attack_rating
        if hook not in self.live:
            return None
        over = hook(game=self.game, attack=attack, base=base)
        return None if over is None else (over[0], str(over[1]))

    def fire_modifiers(self, attack: dict[str, Any]) -> list[Modifier]:
        hook = self.hook.firefight_fire_modifiers
        if hook not in self.live:
            return []
        return collect(hook(game=self.game, attack=attack))

    def terrain_filters(self, attack: dict[str, Any]) -> tuple[set[str], set[str]]:
        """The filters the rules add and those they remove."""
        hook = self.hook.firefight_terrain_filters
        adds: set[str] = set()
        removes: set[str] = set()
        if hook in self.live:
            for res in hook(game=self.game, attack=attack):
                adds.update((res or {}).get("add", ()))
                removes.update((res or {}).get("remove", ()))
        return adds, removes

    def fire_steps(self) -> list[Edit[FireStep]]:
        hook = self.hook.firefight_fire_steps
        if hook not in self.live:
            return []
        return collect(hook(game=self.game))

    def if_steps(self) -> list[Edit[IfStep]]:
        hook = self.hook.firefight_if_steps
        if hook not in self.live:
            return []
        return collect(hook(game=self.game))

    def result_override(self, attack: dict[str, Any], roll: int, result: str) -> list[str]:
        """Every weaker result the rules propose (the caller keeps the weakest)."""
        hook = self.hook.firefight_result_override
        if hook not in self.live:
            return []
        return [str(r) for r in collect(hook(game=self.game, attack=attack, roll=roll,
                                             result=result))]

    def attack_done(self, attack: dict[str, Any], outcome: dict[str, Any]) -> None:
        hook = self.hook.firefight_attack_done
        if hook in self.live:
            hook(game=self.game, attack=attack, outcome=outcome)

    def reactions(self, attack: dict[str, Any], outcome: dict[str, Any]) -> list[Step]:
        hook = self.hook.firefight_reactions
        if hook not in self.live:
            return []
        return collect(hook(game=self.game, attack=attack, outcome=outcome))

    def result_applied(self, unit_id: str, result: str, source: str) -> None:
        hook = self.hook.firefight_result_applied
        if hook in self.live:
            hook(game=self.game, unit_id=unit_id, result=result, source=source)

    # -- movement ----------------------------------------------------------------------------
    def move_cost(self, unit_id: str, src: str, dst: str, base: float) -> list[Modifier]:
        hook = self.hook.firefight_move_cost
        if hook not in self.live:
            return []
        return collect(hook(game=self.game, unit_id=unit_id, src=src, dst=dst, base=base))

    def move_restrictions(self, unit_id: str, src: str, dst: str) -> list[str]:
        hook = self.hook.firefight_move_restrictions
        if hook not in self.live:
            return []
        return [str(r) for r in collect(hook(game=self.game, unit_id=unit_id, src=src, dst=dst))]

    def may_enter_enemy_hex(self, unit_id: str, dst: str) -> bool:
        hook = self.hook.firefight_may_enter_enemy_hex
        if hook not in self.live:
            return False
        return bool(hook(game=self.game, unit_id=unit_id, dst=dst))

    def mover_interrupts(self, unit_id: str, hex_label: str, stage: str) -> list[Step]:
        hook = self.hook.firefight_mover_interrupts
        if hook not in self.live:
            return []
        return collect(hook(game=self.game, unit_id=unit_id, hex_label=hex_label, stage=stage))

    def move_options(self, unit_id: str) -> list[dict[str, Any]]:
        hook = self.hook.firefight_move_options
        if hook not in self.live:
            return []
        return [dict(x) for x in collect(hook(game=self.game, unit_id=unit_id))]

    def move_action(self, unit_id: str, choice: dict[str, Any]) -> Step | None:
        hook = self.hook.firefight_move_action
        if hook not in self.live:
            return None
        step: Step | None = hook(game=self.game, unit_id=unit_id, choice=choice)
        return step

    def move_done(self, unit_id: str) -> None:
        hook = self.hook.firefight_move_done
        if hook in self.live:
            hook(game=self.game, unit_id=unit_id)

    def phase_actions(self, side: str, phase: str) -> list[dict[str, Any]]:
        hook = self.hook.firefight_phase_actions
        if hook not in self.live:
            return []
        return [dict(x) for x in collect(hook(game=self.game, side=side, phase=phase))]

    def run_action(self, side: str, choice: dict[str, Any]) -> Step | None:
        hook = self.hook.firefight_run_action
        if hook not in self.live:
            return None
        step: Step | None = hook(game=self.game, side=side, choice=choice)
        return step

    # -- indirect fire -----------------------------------------------------------------------
    def mission_kinds(self, side: str, if_unit: str) -> list[str]:
        hook = self.hook.firefight_mission_kinds
        if hook not in self.live:
            return []
        return [str(k) for k in collect(hook(game=self.game, side=side, if_unit=if_unit))]

    def mission_delay(self, mission: dict[str, Any], base: int) -> int | None:
        hook = self.hook.firefight_mission_delay
        if hook not in self.live:
            return None
        over = hook(game=self.game, mission=mission, base=base)
        return None if over is None else int(over)

    def scatter(self, mission: dict[str, Any]) -> int | None:
        hook = self.hook.firefight_scatter
        if hook not in self.live:
            return None
        n = hook(game=self.game, mission=mission)
        return None if n is None else int(n)

    def impact_pattern(self, mission: dict[str, Any]) -> tuple[int, int, int] | None:
        hook = self.hook.firefight_impact_pattern
        if hook not in self.live:
            return None
        over = hook(game=self.game, mission=mission)
        return None if over is None else (int(over[0]), int(over[1]), int(over[2]))

    def place_impact(self, mission: dict[str, Any], hex_label: str) -> bool:
        hook = self.hook.firefight_place_impact
        if hook not in self.live:
            return False
        return bool(hook(game=self.game, mission=mission, hex_label=hex_label))

    def if_extra_missions(self) -> list[Step]:
        hook = self.hook.firefight_if_extra_missions
        if hook not in self.live:
            return []
        return collect(hook(game=self.game))

    # -- set-up, stacking, views -------------------------------------------------------------
    def counts_for_stacking(self, unit_id: str) -> bool:
        """False when some rule excludes the unit from the four-unit limit."""
        hook = self.hook.firefight_counts_for_stacking
        if hook not in self.live:
            return True
        return not any(r is False for r in hook(game=self.game, unit_id=unit_id))

    def public_ref(self, unit_id: str) -> str | None:
        hook = self.hook.firefight_public_ref
        if hook not in self.live:
            return None
        alias = hook(game=self.game, unit_id=unit_id)
        return None if alias is None else str(alias)

    def movement_allowance(self, unit_id: str, base: float) -> float | None:
        hook = self.hook.firefight_movement_allowance
        if hook not in self.live:
            return None
        over = hook(game=self.game, unit_id=unit_id, base=base)
        return None if over is None else float(over)

    def describe(self, side: str | None) -> dict[str, Any]:
        hook = self.hook.firefight_describe
        out: dict[str, Any] = {}
        if hook in self.live:
            for res in hook(game=self.game, side=side):
                out.update(dict(res or {}))
        return out
