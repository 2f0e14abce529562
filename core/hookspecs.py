"""Every core hook, typed and documented.

Four kinds of hook, each with a fixed discipline:

* **Registration** hooks return records (``core/types.py``). The core collects them from every
  plugin, sorts them by name and rejects duplicates, so registration order never matters.
* **Modifier** hooks (a system's own: ``firefight_fire_modifiers``, ``mbt_ap_modifiers``...)
  return lists of :class:`~hexwar.core.types.Modifier`, combined in canonical order.
* **Decision** hooks are ``firstresult``: the first non-``None`` answer wins; the core's defaults
  are registered ``trylast`` so any system overrides them.
* **Lifecycle** hooks observe the game and return ``None``.

Hooks about one game or scenario are called with **host-system dispatch**
(:mod:`hexwar.core.kit.dispatch`): only the plugins of the game's system (and adapters) answer, so
an implementation never checks whose game it is. A system's own hooks (``firefight_``, ``mbt_``,
``firepower_``) are added with :func:`hexwar_add_hookspecs` and called through the system's typed
facade (:class:`hexwar.core.kit.SystemHooks`).

Each hook is documented in ``docs/hooks.md`` (a test checks this). Arguments may be added to a hook
in a later version; none is ever removed or renamed.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from hexwar.core.markers import hookspec

if TYPE_CHECKING:
    import click
    import pluggy

    from hexwar.core.engine.game import Game
    from hexwar.core.engine.umpire import Umpire
    from hexwar.core.engine.view import SideView
    from hexwar.core.los import LosRules
    from hexwar.core.scenario import Scenario
    from hexwar.core.tables import Disclosed
    from hexwar.core.types import (
        ControllerSpec,
        DataSource,
        GameResult,
        PhaseSpec,
        Problem,
        SequenceEdit,
        SystemInfo,
        TerrainType,
        UnitType,
    )

# ---------------------------------------------------------------------------------------------
# Registration
# ---------------------------------------------------------------------------------------------


@hookspec(historic=True)
def hexwar_add_hookspecs(pluginmanager: pluggy.PluginManager) -> None:
    """Add a system's own hook specifications: ``pluginmanager.add_hookspecs(hookspecs)``.

    Called: once for each plugin as it is registered (a historic hook), before any hook that
    uses the new specifications is called. A system's rules implement the hooks added here.
    """


@hookspec
def hexwar_register_systems() -> Sequence[SystemInfo]:
    """Declare the game systems this plugin defines.

    Called: when a plugin manager is built and by ``hexwar systems``.
    :returns: a list of :class:`SystemInfo` (usually one, from a system plugin; none from a rule).
    """
    raise NotImplementedError


@hookspec
def hexwar_register_phases(system: str) -> Sequence[PhaseSpec]:
    """Give the sequence of play of ``system``, in order.

    Called: once when a game is built. Only the plugin of ``system`` answers; optional rules change
    the sequence through :func:`hexwar_sequence_edits`.
    :returns: the phases in the order they run each game-turn (and any ``setup`` phases).
    """
    raise NotImplementedError


@hookspec
def hexwar_sequence_edits(system: str) -> Sequence[SequenceEdit]:
    """Insert, replace or remove phases of the sequence of play, by name.

    Called: once when a game is built, after :func:`hexwar_register_phases`. Edits are applied
    sorted by (operation, anchor, phase name), so the order plugins are registered never matters.
    :returns: a list of :class:`SequenceEdit`.
    """
    raise NotImplementedError


@hookspec
def hexwar_register_unit_types() -> Sequence[UnitType]:
    """Declare unit types (counters, data cards), qualified by system: ``mbt:T-80A``.

    Called: when a scenario is validated or a game is built.
    """
    raise NotImplementedError


@hookspec
def hexwar_register_terrain() -> Sequence[TerrainType]:
    """Declare terrain types, qualified by system: ``firefight:forest``.

    Called: when a board is assembled, validated or rendered.
    """
    raise NotImplementedError


@hookspec
def hexwar_register_data() -> Sequence[DataSource]:
    """Declare the data a plugin ships: table folders, panels, scenarios, card folders.

    Called: by the commands that list or check data, and when a scenario names a panel.
    """
    raise NotImplementedError


@hookspec
def hexwar_register_disclosed() -> Sequence[Disclosed]:
    """Declare every table value the rulebook text discloses, with its rule reference.

    Called: by ``hexwar data check``, which compares them with the tables in use (a user's pack
    included).
    """
    raise NotImplementedError


@hookspec
def hexwar_register_controllers() -> Sequence[ControllerSpec]:
    """Offer controllers (usually a system's own AI) for ``--players``.

    Called: when a game's players are set up.
    """
    raise NotImplementedError


@hookspec
def hexwar_register_commands(group: click.Group) -> None:
    """Add a system's own sub-commands (e.g. ``hexwar mbt points``) to the CLI.

    Called: once when the ``hexwar`` command starts, for every installed system.
    """


# ---------------------------------------------------------------------------------------------
# Scenario and game lifecycle
# ---------------------------------------------------------------------------------------------


@hookspec
def hexwar_validate_scenario(scenario: Scenario) -> Sequence[Problem]:
    """Check the parts of a scenario that only the system understands (victory, special rules).

    Called: by ``hexwar validate`` and before a game starts. Every plugin may answer; all problems
    are reported together.
    """
    raise NotImplementedError


@hookspec
def hexwar_setup_game(game: Game) -> None:
    """Prepare system state (markers, unit status, chit cups) once the board and units are built.

    Called: once, before the first phase of the first game-turn. Must only use ``game.dice`` for
    randomness.
    """


@hookspec
def hexwar_turn_start(game: Game) -> None:
    """Called: at the start of each game-turn, before its first phase."""


@hookspec
def hexwar_turn_end(game: Game) -> None:
    """Called: at the end of each game-turn, after its last phase and before victory is checked."""


@hookspec
def hexwar_phase_start(game: Game, phase: PhaseSpec) -> None:
    """Called: just before ``phase`` runs."""


@hookspec
def hexwar_phase_end(game: Game, phase: PhaseSpec) -> None:
    """Called: just after ``phase`` has run."""


@hookspec(firstresult=True)
def hexwar_game_over(game: Game) -> GameResult | None:
    """Decide whether the game ends now (an automatic victory, a side wiped out).

    Called: after every phase. Stops at the first non-``None`` result.
    """


@hookspec(firstresult=True)
def hexwar_final_result(game: Game) -> GameResult | None:
    """Evaluate the victory conditions when the last game-turn has ended.

    Called: once, after the last game-turn. Stops at the first non-``None`` result; the core's
    default is a draw with no scores.
    """


@hookspec
def hexwar_data_packs(game: Game) -> Mapping[str, str] | None:
    """Name the data the game reads beyond the shipped files (a user's table pack, card folder),
    each as ``{label: sha256 of its content}``.

    Called: once, when the log's or save's header is written, and again when a record is
    resumed or replayed, which refuses to go on if any recorded digest differs from the data now
    in effect (CORE-100): the same decisions on other tables would make a different game. Every
    implementation is called; the labels of all are merged. ``None`` or ``{}``: only shipped data.
    """


# ---------------------------------------------------------------------------------------------
# Line of sight
# ---------------------------------------------------------------------------------------------


@hookspec(firstresult=True)
def hexwar_los_rules(game: Game | None, system: str) -> LosRules | None:
    """Give the object that says what each hex and hexside does to a line of sight.

    Called: once per game (the result is cached; its methods are plain calls in the hot path).
    Stops at the first non-``None`` result. The core's default treats every hex as clear.
    """


# ---------------------------------------------------------------------------------------------
# Hidden information
# ---------------------------------------------------------------------------------------------


@hookspec(firstresult=True)
def hexwar_umpire(game: Game) -> Umpire | None:
    """Make the game umpired: return its :class:`~hexwar.core.engine.umpire.Umpire` (a system's
    subclass), through which every record then passes (docs/umpire.md).

    Called: once per game, when the board and units are built and before the log's header is
    written (an umpired game's side logs leave out what the umpire keeps:
    ``Umpire.header_secrets``). Stops at the first non-``None`` result; the core's default is no
    umpire.
    """


@hookspec(firstresult=True)
def hexwar_visible_units(game: Game, side: str) -> Iterable[str] | None:
    """Say which units ``side`` may see now (by id). Units not listed never enter its view.

    Called: whenever a side's view is built. Stops at the first non-``None`` result. The core's
    default shows every unit (open information).
    """


@hookspec(firstresult=True)
def hexwar_unit_view(game: Game, side: str, unit_id: str) -> dict[str, Any] | None:
    """Say what ``side`` knows of a unit it may see (a face-down counter shows less).

    Called: for each visible unit when a view is built. The core's default shows everything.
    """


@hookspec(firstresult=True)
def hexwar_side_rules(game: Game, view: SideView) -> object | None:
    """Give the rules computations a controller of ``view.side`` may make (a line of sight, a hit
    number): an object that answers only about units the side knows (``view.units``), as it
    knows them.

    Called: when a controller first reads ``view.rules``. A controller never gets the game
    itself (docs/decisions.md CORE-55).
    """


@hookspec(firstresult=True)
def hexwar_describe_state(game: Game, side: str | None) -> dict[str, Any] | None:
    """Give the system's own public state (markers, smoke, objectives) for a view or a render.

    Called: when a view or a picture is made. ``side`` is ``None`` for an umpire's view.
    """


@hookspec(firstresult=True)
def hexwar_describe_event(game: Game | None, record: Mapping[str, Any]) -> str | None:
    """One record of a game's log (a roll, a result, a move, a system's own event) in words, for
    a person: "T-62 t62-su1 fires at M150 m150-us1, range 12 ... [Firefight 6.57]".

    Called: by the running log of the web table, ``hexwar log`` and the HTML replay, with the game
    the record belongs to (``None`` when only the log is at hand). Stops at the first non-``None``
    result; the core's default names the record's type and its main fields.
    """


# ---------------------------------------------------------------------------------------------
# Controllers
# ---------------------------------------------------------------------------------------------


@hookspec(firstresult=True)
def hexwar_explain_decision(view: SideView, decision: Any) -> str | None:
    """Describe a decision for a human player at the terminal.

    Called: by the terminal controller (``--players human``) before it reads a choice. The
    terminal reads a number ``n`` as the ``n``-th option counted from 1, so number options from 1
    in the order of ``decision.options``. Stops at the first non-``None`` result; the core's
    default lists the prompt and the options.
    """


@hookspec(firstresult=True)
def hexwar_present_decision(view: SideView, decision: Any) -> dict[str, Any] | None:
    """Present a decision as a form of the web table (``hexwar serve``): which units and hexes
    to highlight, each choice with a readable label and its numbers (movement cost, hit number,
    modifiers with their rules), or a composing widget (hexes to pick, units to place in a zone).

    Called: by the web table for the seat whose decision it is, with that side's view. The
    answer is a mapping as ``docs/web.md`` describes (``widget``, ``choices``...), whose labels
    may hold only what the side knows. Stops at the first non-``None`` result; the core's
    default lists every option in words (``hexwar.core.web.present``), so a system without a
    form of its own is playable.
    """
