"""An adapter from a third party: Skirmish units on a Firefight battlefield (Firefight host).

hexwar finds it through the entry point ``skirmish_firefight`` of the group ``hexwar.plugins``
(pyproject.toml), like any plugin; its manifest says ``kind = "adapter"`` and names the two systems
it bridges. A scenario whose system is ``firefight`` and that fields ``skirmish:`` units enables it
in ``rules``; without it the core refuses the scenario at load time.

The model, all of it in two tables of ``data/adapter/`` (every row ``estimated``):

* Firefight's sequence of play and fire procedure (Firefight 6.0) run; Skirmish's do not.
* A Skirmish unit fights and is fought as the Firefight type table ``skirmish_in_firefight`` names
  for its type and side (its Firefight profile, ``unit.state["firefight_as"]``, which Firefight
  reads for any guest unit).
* A Firefight result on it is applied by Firefight's rules and reported in Skirmish terms (table
  ``firefight_result_in_skirmish``): suppressed becomes pinned (Skirmish 2.5), destroyed becomes
  eliminated. The log says Firefight decided it and which table translated it.

docs/plugin-guide.md ("Writing an adapter") walks through this file.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import TYPE_CHECKING

from hexwar.core.errors import HexwarError
from hexwar.core.markers import hookimpl
from hexwar.core.tables import TableSet
from hexwar.core.types import DataSource, PluginManifest, Problem
from hexwar_skirmish.tables import DATA, SCENARIOS

if TYPE_CHECKING:
    from hexwar.core.engine.game import Game
    from hexwar.core.scenario import Scenario

ADAPTER = "skirmish_firefight"
HOST = "firefight"
GUEST = "skirmish"

PLUGIN = PluginManifest(
    name=ADAPTER, system=HOST, kind="adapter",
    title="Skirmish/Firefight adapter (Firefight host)",
    summary="Skirmish units on a Firefight battlefield, fighting as Firefight teams.",
    bridges=(HOST, GUEST),
    implements=("Firefight 6.0", "Firefight 6.5"),
    version="0.2.0",
)


class AdapterError(HexwarError, LookupError):
    """The adapter has no mapping for what was asked (named, with the adapter and the table)."""


@cache
def tables() -> TableSet:
    """The adapter's two conversion tables."""
    return TableSet.load_dir(DATA / "adapter")


def _value(table: str, column: str, **keys: str) -> str:
    try:
        return str(tables()[table].lookup_row(**keys)[column].value)
    except HexwarError:
        asked = ", ".join(f"{k} {v!r}" for k, v in keys.items())
        raise AdapterError(f"adapter {ADAPTER!r} has no mapping for {asked} in table {table!r}; "
                           "this interaction is not modelled") from None


def firefight_profile(unit_type: str, side: str) -> str:
    """The Firefight type a Skirmish unit (``skirmish:rifles``) of ``side`` fights as."""
    return _value("skirmish_in_firefight", "firefight_as",
                  skirmish_type=unit_type.split(":", 1)[-1], side=side)


def skirmish_status(result: str) -> str:
    """What a Firefight result means for a Skirmish unit: ``pinned`` or ``eliminated``."""
    return _value("firefight_result_in_skirmish", "skirmish_status", result=result)


@hookimpl
def hexwar_register_data() -> Sequence[DataSource]:
    return [DataSource(f"{ADAPTER}:tables", DATA / "adapter", "tables",
                       "Skirmish/Firefight conversion tables (modelling choices, estimated)"),
            DataSource(f"{ADAPTER}:patrol", SCENARIOS / "firefight_patrol.toml", "scenario",
                       "Cross-system: Skirmish squads against a Firefight team")]


@hookimpl
def hexwar_validate_scenario(scenario: Scenario) -> Sequence[Problem]:
    """Refuse a host other than Firefight and a unit the profile table does not map."""
    guests = [(i, u) for i, u in enumerate(scenario.units) if u.type.startswith(f"{GUEST}:")]
    if guests and scenario.system != HOST:
        return [Problem(f"adapter {ADAPTER!r} models Skirmish units in a Firefight-host game only",
                        scenario.path, "scenario.system")]
    problems = []
    for i, u in guests:
        try:
            firefight_profile(u.type, u.side)
        except AdapterError as exc:
            problems.append(Problem(str(exc), scenario.path, f"units[{i}].type"))
    return problems


@hookimpl(tryfirst=True)
def hexwar_setup_game(game: Game) -> None:
    """Give every Skirmish unit its Firefight profile before Firefight's own set-up reads it."""
    for u in game.state.units.values():
        if u.type.startswith(f"{GUEST}:"):
            u.state["firefight_as"] = firefight_profile(u.type, u.side)
            game.emit("adapter", visible_to=(u.side,), adapter=ADAPTER, unit=u.id,
                      firefight_as=u.state["firefight_as"], table="skirmish_in_firefight",
                      text=f"{u.id} ({u.type}) fights as Firefight {u.state['firefight_as']}")


@hookimpl
def firefight_result_applied(game: Game, unit_id: str, result: str, source: str) -> None:
    """A Firefight result on a Skirmish unit, in Skirmish terms; Firefight's rule decided it."""
    from hexwar.plugins.firefight.state import known_to

    u = game.state.units.get(unit_id)
    if u is None or not u.type.startswith(f"{GUEST}:") or result == "-":
        return
    status = "eliminated" if u.hex is None else skirmish_status(result)
    u.state[status] = True
    # only sides that know the unit read a record naming it (a face-down counter, Firefight 11)
    game.report(f"{unit_id} ({u.type}) in Skirmish terms", result=status,
                rules=("Firefight 6.5", f"adapter {ADAPTER} table firefight_result_in_skirmish"),
                decided_by="firefight", adapter=ADAPTER, firefight_result=result,
                source_of_fire=source, visible_to=known_to(game, unit_id))
