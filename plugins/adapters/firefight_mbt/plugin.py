"""Firefight/MBT adapter: MBT units on a Firefight-host battlefield (docs/cross-system.md).

The model (docs/decisions.md CORE-71..CORE-75): the host's rules decide. In a game whose
scenario names Firefight as its system, Firefight's sequence of play runs and Firefight's fire
procedure (Firefight 6.0) resolves every shot, whichever system the firer or target belongs to. An
MBT unit fights and is fought with the numbers of the Firefight type that the table
``mbt_in_firefight`` names for it (its Firefight profile: class, Movement Allowance, weapons
lines); a Firefight result on it is applied by Firefight's rules and reported in MBT terms through
the table ``firefight_result_in_mbt``. The log records, for every such result, that a Firefight
rule decided it and which adapter table translated it. The reverse direction, an MBT host with
Firefight guests, is :mod:`.mbt_host` (CORE-86): MBT's rules decide, a Firefight unit fights as an
MBT card.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from hexwar.core.markers import hookimpl
from hexwar.core.types import DataSource, PluginManifest, Problem

# the MBT-host direction's hooks, registered with this module (pluggy reads its attributes)
from hexwar.plugins.adapters.firefight_mbt.mbt_host import mbt_after_damage as mbt_after_damage
from hexwar.plugins.adapters.firefight_mbt.mbt_host import mbt_card
from hexwar.plugins.adapters.firefight_mbt.mbt_host import mbt_guest_card as mbt_guest_card
from hexwar.plugins.adapters.firefight_mbt.model import (
    ADAPTER,
    DATA,
    AdapterError,
    firefight_profile,
    mbt_effect,
    tables,
)

if TYPE_CHECKING:
    from hexwar.core.engine.game import Game
    from hexwar.core.scenario import Scenario

PLUGIN = PluginManifest(
    name="firefight_mbt", system="firefight", kind="adapter",
    title="Firefight/MBT adapter (Firefight or MBT host)",
    summary="MBT units on a Firefight battlefield: they fight with the numbers of a Firefight "
            "profile; Firefight results on them are reported in MBT terms.",
    bridges=("firefight", "mbt"),
    # Firefight's fire procedure and results, extended to MBT units
    implements=("Firefight 6.0", "Firefight 6.5"),
)

HERE = Path(__file__).parent
HOST = "firefight"


def pack_of(scenario: Scenario) -> str | None:
    """The scenario's replacement tables, ``[adapters.firefight_mbt] tables = "folder"``, or ``None``
    for the shipped tables."""
    from hexwar.core.scenario import adapter_table_pack

    return adapter_table_pack(scenario, ADAPTER)


@hookimpl
def hexwar_register_data() -> Sequence[DataSource]:
    return [
        DataSource(f"{ADAPTER}:tables", DATA, "tables",
                   "Firefight/MBT conversion tables (modelling choices, estimated)"),
        DataSource(f"{ADAPTER}:tanks-at-versbach", HERE / "scenarios" / "tanks_at_versbach.toml",
                   "scenario", "Cross-system: MBT T-72M1s against Firefight infantry"),
    ]


@hookimpl
def hexwar_validate_scenario(scenario: Scenario) -> Sequence[Problem]:
    """Refuse what the model does not cover: another host, an MBT type with no profile, or a
    profile of the other side (its Firefight weapons lines belong to one side)."""
    from hexwar.core.errors import DataError

    problems: list[Problem] = []
    guests = [u for u in scenario.units if u.type.startswith("mbt:")]
    try:
        pack = pack_of(scenario)
        if pack is not None:
            tables(pack)
    except DataError as exc:
        return [Problem(exc.message, scenario.path, exc.key or f"adapters.{ADAPTER}", exc.line,
                        exc.hint or "")]
    if scenario.system == "mbt":
        return _mbt_host_problems(scenario, pack)
    if guests and scenario.system != HOST:
        return [Problem(f"adapter {ADAPTER!r} models MBT units in a Firefight-host game only; "
                        f"host {scenario.system!r} is not modelled", scenario.path,
                        "scenario.system", hint="make Firefight the scenario's system")]
    ground = scenario.raw.get("ground")
    if guests and isinstance(ground, dict):
        problems.extend(_ground_problems(scenario, ground))
    for i, u in enumerate(scenario.units):
        if not u.type.startswith("mbt:"):
            continue
        try:
            _as, side = firefight_profile(u.type, pack)
        except AdapterError as exc:
            problems.append(Problem(str(exc), scenario.path, f"units[{i}].type"))
            continue
        if u.side != side:
            problems.append(Problem(
                f"{u.type} fights as a Firefight {side} unit ({_as}) in adapter {ADAPTER!r}, "
                f"but unit {u.id!r} is on side {u.side!r}", scenario.path, f"units[{i}].side"))
    return problems


def _mbt_host_problems(scenario: Scenario, pack: str | None) -> list[Problem]:
    """An MBT host (CORE-86): every Firefight unit needs an MBT card of its own side; a leg card
    needs the Advanced Game (MBT 15.1), the Basic Game has tanks only."""
    from hexwar.plugins.mbt.cards import load_cards

    problems: list[Problem] = []
    cards = {c.name: c for c in load_cards().values()}
    sides = {"US": "NATO", "SU": "Soviet"}
    ground = scenario.raw.get("ground")
    if isinstance(ground, dict) and any(u.type.startswith("firefight:") for u in scenario.units):
        problems.extend(_ground_problems(scenario, ground))
    for i, u in enumerate(scenario.units):
        if not u.type.startswith("firefight:"):
            continue
        try:
            card = mbt_card(u.type, pack)
        except AdapterError as exc:
            problems.append(Problem(str(exc), scenario.path, f"units[{i}].type"))
            continue
        code = u.type.split(":", 1)[1].split("-", 1)[0]
        if u.side != sides.get(code):
            problems.append(Problem(f"{u.type} fights as MBT {card} of side {sides.get(code)!r} in "
                                    f"adapter {ADAPTER!r}, but unit {u.id!r} is on side {u.side!r}",
                                    scenario.path, f"units[{i}].side"))
        kind = cards[card].kind if card in cards else "leg"
        if kind != "vehicle" and "mbt.advanced" not in scenario.rules:
            problems.append(Problem(f"{u.type} fights as MBT {card}, a card of the Advanced Game "
                                    "(MBT 15.1)", scenario.path, "scenario.rules",
                                    hint='add "mbt.advanced" to the rules'))
    return problems


def _ground_problems(scenario: Scenario, ground: dict[str, object]) -> list[Problem]:
    """The shared ground must lay a Firefight and an MBT board at their own scales."""
    from hexwar.core.errors import DataError
    from hexwar.core.ground import Ground

    try:
        g = Ground.from_mapping(ground, path=scenario.path)
    except DataError as exc:
        return [Problem(exc.message, scenario.path, exc.key or "ground", exc.line, exc.hint or "")]
    missing = sorted({"firefight", "mbt"} - set(g.layers))
    if missing:
        return [Problem(f"the ground lays no board for {', '.join(missing)}", scenario.path,
                        "ground.boards", hint="add [ground.boards.firefight] and [ground.boards.mbt]")]
    return []


@hookimpl(tryfirst=True)
def hexwar_setup_game(game: Game) -> None:
    """Give every MBT unit its Firefight profile before Firefight's own set-up reads it (in an
    MBT host: tell each side the MBT card of its own Firefight units)."""
    from hexwar.core.ground import Ground

    pack = pack_of(game.scenario)
    if game.scenario.system == "mbt":
        for u in game.state.units.values():
            if u.type.startswith("firefight:"):
                card = mbt_card(u.type, pack)
                game.emit("adapter", visible_to=(u.side,), adapter=ADAPTER, unit=u.id,
                          unit_type=u.type, mbt_as=card, table="firefight_in_mbt",
                          text=f"{u.id} ({u.type}) fights as MBT {card}")
        return
    raw_ground = game.scenario.raw.get("ground")
    ground = Ground.from_mapping(raw_ground, path=game.scenario.path) if isinstance(
        raw_ground, dict) else None
    for u in game.state.units.values():
        if u.type.startswith("mbt:"):
            profile, _side = firefight_profile(u.type, pack)
            u.state["firefight_as"] = profile
            u.state.setdefault("mbt_damage", [])
            where: dict[str, object] = {}
            if ground is not None and u.hex is not None:
                # where the unit stands on the MBT board laid over the same ground
                mh = ground.transfer(u.hex, HOST, "mbt")
                level = ground.height(game.board.height_of[u.hex], HOST, "mbt")
                where = {"mbt_hex": [mh.q, mh.r], "mbt_height": round(float(level), 2)}
            # only the owner learns the profile: a unit's type may be hidden from the enemy
            game.emit("adapter", visible_to=(u.side,), adapter=ADAPTER, unit=u.id, unit_type=u.type,
                      firefight_as=profile, table="mbt_in_firefight", **where,
                      text=f"{u.id} ({u.type}) fights as Firefight {profile}")


@hookimpl
def firefight_result_applied(game: Game, unit_id: str, result: str, source: str) -> None:
    """Report a Firefight result on an MBT unit in MBT terms; Firefight's rule decided it."""
    from hexwar.plugins.firefight.state import known_to

    u = game.state.units.get(unit_id)
    if u is None or not u.type.startswith("mbt:") or result == "-":
        return
    effect = mbt_effect(result, pack_of(game.scenario))
    if effect != "none":
        damage = list(u.state.get("mbt_damage", []))
        if effect not in damage:
            damage.append(effect)
        u.state["mbt_damage"] = damage
    # the record names the unit and its MBT type: only for sides that know the unit (a face-down
    # counter, Firefight 11, is not identified to the enemy by its result)
    game.report(f"{unit_id} ({u.type}) in MBT terms", result=effect,
                rules=("Firefight 6.5", f"adapter {ADAPTER} table firefight_result_in_mbt"),
                decided_by="firefight", adapter=ADAPTER, firefight_result=result,
                source_of_fire=source, visible_to=known_to(game, unit_id))
