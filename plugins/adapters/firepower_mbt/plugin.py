"""Firepower/MBT adapter: Firepower squads as MBT leg units on an MBT-host battlefield, and town
fights zoomed in to Firepower's scale as nested games (docs/cross-system.md; docs/decisions.md
CORE-86..CORE-90).

The model: MBT is the host; its sequence of play runs and its rules decide everything at its own
scale. A guest Firepower squad is an MBT leg unit with the card ``firepower_in_mbt`` names for it
(``mbt_guest_card``), so MBT's orders, sighting, movement and fire treat it like any squad. At
the Town Fight Step, inserted after the Movement Step and the ATGM Resolution (or Overrun) Step
and before the Pivot Step, each town block the scenario names where both sides have leg units
within ``reach`` is fought out as a nested Firepower game on a Firepower board laid over the
block (core/engine/nested.py): each leg unit fields its surviving soldiers, Firepower's rules
decide the fight, and its casualties and winner come back as MBT results (knocked out,
suppressed, control of the block) through ``firepower_losses_in_mbt``. The log says which
system's rule produced each result.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from hexwar.core.markers import hookimpl
from hexwar.core.types import DataSource, PhaseSpec, PluginManifest, Problem, SequenceEdit
from hexwar.plugins.adapters.firepower_mbt.model import (
    ADAPTER,
    DATA,
    AdapterError,
    fight_param,
    leg_soldiers,
    loss_effect,
    mbt_profile,
    tables,
)

if TYPE_CHECKING:
    from hexwar.core.engine.game import Game
    from hexwar.core.engine.nested import NestedOutcome
    from hexwar.core.engine.state import Unit
    from hexwar.core.scenario import Scenario

PLUGIN = PluginManifest(
    name="firepower_mbt", system="mbt", kind="adapter",
    title="Firepower/MBT adapter (MBT host, nested Firepower town fights)",
    summary="Firepower squads as MBT leg units; a town block where both sides' squads meet is "
            "fought out as a nested Firepower game, its casualties reported as MBT results.",
    bridges=("firepower", "mbt"),
    # MBT leg units (MBT 15.1) extended to Firepower squads; Firepower's Basic Game for the fight
    implements=("MBT 15.1", "Firepower 2.3", "Firepower 7"),
)

HERE = Path(__file__).parent
HOST = "mbt"
GUEST = "firepower"
PHASE = "firepower_mbt.town_fight"
_KEYS = {"tables", "blocks"}


def _section(scenario: Scenario) -> dict[str, Any]:
    from hexwar.core.scenario import adapter_section

    return adapter_section(scenario, ADAPTER, tuple(sorted(_KEYS)))


def pack_of(scenario: Scenario) -> str | None:
    """The scenario's replacement tables, ``[adapters.firepower_mbt] tables = "folder"`` (inside
    the scenario's folder), or ``None`` for the shipped tables."""
    from hexwar.core.scenario import adapter_table_pack

    return adapter_table_pack(scenario, ADAPTER, tuple(sorted(_KEYS)))


def blocks_of(scenario: Scenario) -> tuple[str, ...]:
    """The MBT hex labels of the town blocks fought out at Firepower's scale
    (``[adapters.firepower_mbt] blocks = ["2O4"]``)."""
    from hexwar.core.errors import DataError

    raw = _section(scenario).get("blocks", [])
    if not isinstance(raw, list) or not all(isinstance(b, str) for b in raw):
        raise DataError("blocks must be a list of MBT hex labels", path=scenario.path,
                        key=f"adapters.{ADAPTER}.blocks")
    return tuple(raw)


@hookimpl
def hexwar_register_data() -> Sequence[DataSource]:
    return [
        DataSource(f"{ADAPTER}:tables", DATA, "tables",
                   "Firepower/MBT conversion tables (modelling choices, estimated)"),
        DataSource(f"{ADAPTER}:town-fight", HERE / "scenarios" / "town_fight.toml", "scenario",
                   "Cross-system: an MBT meeting engagement whose town fight Firepower resolves"),
    ]


@hookimpl
def hexwar_validate_scenario(scenario: Scenario) -> Sequence[Problem]:
    """Refuse what the model does not cover: another host, a Firepower type with no MBT card for
    its side, an MBT game without leg units (the Advanced Game, MBT 15.1), a bad section."""
    from hexwar.core.errors import DataError

    try:
        pack = pack_of(scenario)
        if pack is not None:
            tables(pack)
        blocks = blocks_of(scenario)
    except DataError as exc:
        return [Problem(exc.message, scenario.path, exc.key or f"adapters.{ADAPTER}", exc.line,
                        exc.hint or "")]
    guests = [(i, u) for i, u in enumerate(scenario.units) if u.type.startswith(f"{GUEST}:")]
    if (guests or blocks) and scenario.system != HOST:
        return [Problem(f"adapter {ADAPTER!r} models Firepower squads in an MBT-host game only; "
                        f"host {scenario.system!r} is not modelled", scenario.path,
                        "scenario.system", hint="make MBT the scenario's system")]
    problems: list[Problem] = []
    if (guests or blocks) and "mbt.advanced" not in scenario.rules:
        problems.append(Problem(f"adapter {ADAPTER!r} makes Firepower squads MBT leg units, which "
                                "only the Advanced Game has (MBT 15.1)", scenario.path,
                                "scenario.rules", hint='add "mbt.advanced" to the rules'))
    for i, u in guests:
        try:
            mbt_profile(u.type, u.side, pack)
        except AdapterError as exc:
            problems.append(Problem(str(exc), scenario.path, f"units[{i}].type"))
    return problems


@hookimpl
def hexwar_sequence_edits(system: str) -> Sequence[SequenceEdit]:
    """The Town Fight Step: after movement and its fire, before the Pivot Step (CORE-88)."""
    if system != HOST:
        return []
    return [SequenceEdit("insert_before", "mbt.pivot", PhaseSpec(
        PHASE, "Town Fight Step", "Firepower 3", town_fight_step), rule="Firepower 3")]


@hookimpl
def hexwar_setup_game(game: Game) -> None:
    """Check the blocks on the board; tell each side the MBT card of its own guest squads."""
    from hexwar.core.errors import DataError

    for label in blocks_of(game.scenario):
        try:
            game.board.parse(label)
        except Exception:
            raise DataError(f"town block {label!r} is not a hex of the MBT board",
                            path=game.scenario.path, key=f"adapters.{ADAPTER}.blocks") from None
    pack = pack_of(game.scenario)
    for u in game.state.units.values():
        if u.type.startswith(f"{GUEST}:"):
            card, soldiers = mbt_profile(u.type, u.side, pack)
            u.state.setdefault("firepower_soldiers", list(soldiers))
            game.emit("adapter", visible_to=(u.side,), adapter=ADAPTER, unit=u.id, unit_type=u.type,
                      mbt_as=card, soldiers=list(soldiers), table="firepower_in_mbt",
                      text=f"{u.id} ({u.type} squad) fights as MBT {card}")


@hookimpl
def mbt_guest_card(game: Game, unit_type: str, side: str) -> str | None:
    """The MBT card of a guest Firepower squad; a type with no row fails naming the table."""
    if not unit_type.startswith(f"{GUEST}:"):
        return None
    return mbt_profile(unit_type, side, pack_of(game.scenario))[0]


# -- the town fight ------------------------------------------------------------------------


def _full_strength(game: Game, u: Unit, pack: str | None) -> tuple[str, ...]:
    """The soldiers ``u`` fields at full strength (raises :class:`AdapterError` for a unit the
    adapter does not model in a town fight, such as a vehicle)."""
    from hexwar.plugins.mbt.state import card_name

    if u.type.startswith(f"{GUEST}:"):
        return mbt_profile(u.type, u.side, pack)[1]
    return leg_soldiers(card_name(game, u.type, u.side), pack)


def soldiers_of(game: Game, u: Unit, pack: str | None = None) -> list[str]:
    """The soldiers ``u`` brings to a town fight: its survivors of earlier fights, else its full
    strength. A unit with no mapping fails with the adapter's error."""
    full = _full_strength(game, u, pack)
    kept = u.state.get("firepower_soldiers")
    soldiers = [str(s) for s in kept] if isinstance(kept, list) else list(full)
    if u.state.get("half"):
        # MBT 12.5: a unit at half strength fields at most half its soldiers, the first of its
        # list (the leader's weapons first), rounded up (docs/decisions.md CORE-101)
        soldiers = soldiers[:-(-len(full) // 2)]
    return soldiers


def fighters(game: Game, label: str, pack: str | None) -> dict[str, list[Unit]]:
    """Each side's units that join the fight for block ``label``: alive leg units within
    ``reach`` with soldiers left. A unit the adapter has no mapping for (a vehicle) is not
    offered a part: MBT's own rules deal with it."""
    from hexwar.plugins.mbt.state import alive

    block = game.board.parse(label)
    reach = fight_param("reach", pack)
    out: dict[str, list[Unit]] = {}
    for uid in sorted(game.state.units):
        u = game.state.units[uid]
        if not alive(u) or u.hex is None or u.hex.distance(block) > reach:
            continue
        try:
            if not soldiers_of(game, u, pack):
                continue
        except AdapterError:
            continue
        out.setdefault(u.side, []).append(u)
    return out


def fight_scenario_text(game: Game, key: str, sides: dict[str, list[Unit]], pack: str | None) -> str:
    """The nested Firepower game's scenario: the Basic Game Scenario's board and set-up
    (Firepower 2.1-2.4) with each fighting unit's soldiers, ids ``<unit>-<n>``."""
    q = json.dumps  # a JSON string is a TOML basic string: ids and side names quoted safely
    lines = [
        "[scenario]", f"id = {q(f'{ADAPTER}:{key}')}",
        f"title = {q(f'Town fight {key}: Firepower inside an MBT hex')}", f'system = "{GUEST}"',
        f"turns = {fight_param('turns', pack)}", "",
    ]
    for side in sorted(sides):
        lines += [f"[sides.{q(side)}]", f"title = {q(side)}",
                  f"sequence_units = {fight_param('sequence_units', pack)}",
                  f"impulses = {fight_param('impulses', pack)}", ""]
    lines += ["[board]", 'panels = [{ panel = "firepower:panel-1", offset = [0, 16] }, '
              '{ panel = "firepower:panel-2" }]', "", "[setup]",
              f"depth = {fight_param('depth', pack)}", "", "[special]", 'fold = "Q"', ""]
    for side in sorted(sides):
        for u in sides[side]:
            for n, soldier in enumerate(soldiers_of(game, u, pack), start=1):
                lines += ["[[units]]", f"id = {q(f'{u.id}-{n}')}",
                          f"type = {q(f'{GUEST}:{soldier}')}", f"side = {q(side)}", ""]
    return "\n".join(lines)


def _placement(game: Game, label: str, child: Game) -> dict[str, Any]:
    """Where the Firepower board lies over the ground: its middle hex on the block's centre."""
    from hexwar.core.ground import SHIPPED_SCALES, BoardLayer, Ground
    from hexwar.core.units import parse_quantity

    raw = game.scenario.raw.get("ground")
    block = game.board.parse(label)
    qs = [h.q for h in child.board.hexes]
    rs = [h.r for h in child.board.hexes]
    middle = ((min(qs) + max(qs)) // 2, (min(rs) + max(rs)) // 2)
    if isinstance(raw, dict):
        ground = Ground.from_mapping(raw, path=game.scenario.path)
        mbt = ground.layer(HOST)
        fp = ground.layers.get(GUEST)
    else:
        ground, mbt, fp = None, BoardLayer(HOST, parse_quantity("100 m", "[length]", "mbt"),
                                           parse_quantity("25 ft", "[length]", "mbt")), None
    if fp is None:
        size, unit, _src = SHIPPED_SCALES[GUEST]
        fp = BoardLayer(GUEST, parse_quantity(size, "[length]", GUEST),
                        parse_quantity(unit, "[length]", GUEST), mbt.datum, (0.0, 0.0),
                        mbt.rotation_deg)
    gx, gy = mbt.centre(block)
    zero = dataclasses.replace(fp, origin=(0.0, 0.0)).centre(middle)
    fp = dataclasses.replace(fp, origin=(round(gx - zero[0], 3), round(gy - zero[1], 3)))
    out: dict[str, Any] = {"firepower_origin_m": list(fp.origin), "block_centre_m": [gx, gy],
                           "firepower_middle": list(middle)}
    if ground is not None:
        out["lonlat"] = [round(v, 6) for v in ground.lonlat(block, HOST)]
    return out


def town_fight_step(game: Game) -> Any:
    """CORE-88: fight out each contested town block as a nested Firepower game, then apply its
    result by MBT's rules (knocked out MBT 7.4.7, suppressed MBT 12.3, control MBT 4.8)."""
    from hexwar.core.engine.nested import play_nested
    from hexwar.core.scenario import Scenario

    pack = pack_of(game.scenario)
    for label in blocks_of(game.scenario):
        sides = fighters(game, label, pack)
        if len(sides) < 2:
            continue
        key = f"{label}-t{game.state.turn}"
        scenario = Scenario.from_text(fight_scenario_text(game, key, sides, pack),
                                      path=f"<{ADAPTER} {key}>")
        game.emit("town_fight", adapter=ADAPTER, block=label, nested=key,
                  units={s: [u.id for u in us] for s, us in sides.items()},
                  text=f"town fight in {label}: fought out at Firepower's scale")
        def laid(child: Game, lab: str = label) -> None:
            # where the Firepower board lies over the ground, before the fight's first record
            game.emit("ground", adapter=ADAPTER, block=lab, **_placement(game, lab, child))

        outcome = yield from play_nested(game, scenario, key=key, on_start=laid)
        apply_outcome(game, label, sides, outcome, pack)


def apply_outcome(game: Game, label: str, sides: dict[str, list[Unit]], outcome: NestedOutcome,
                  pack: str | None) -> None:
    """Bring the fight back to the host: each unit's survivors, its MBT result by the share of
    its full strength lost, and control of the block for the side Firepower's victory rules name
    (a drawn fight leaves control as it was)."""
    from hexwar.plugins.mbt.fire import apply_effects
    from hexwar.plugins.mbt.state import card_of, data
    from hexwar.plugins.mbt.suppression import suppress

    child = outcome.game
    for side in sorted(sides):
        for u in sides[side]:
            entered = soldiers_of(game, u, pack)
            kept = [s for n, s in enumerate(entered, start=1)
                    if not child.state.units[f"{u.id}-{n}"].state.get("eliminated")]
            full = len(_full_strength(game, u, pack))
            u.state["firepower_soldiers"] = kept
            effect = loss_effect(full - len(kept), full, pack)
            rule = {"KO": "MBT 7.4.7", "suppressed": "MBT 12.3", "none": "MBT 15.1"}[effect]
            game.report(f"{u.id} ({u.type}) after the town fight in {label}", result=effect,
                        rules=("Firepower 6.2.8", rule), decided_by=GUEST, adapter=ADAPTER,
                        table="firepower_losses_in_mbt", nested=outcome.key,
                        soldiers_lost=len(entered) - len(kept), soldiers_left=len(kept))
            if effect == "KO":
                apply_effects(game, u, ["KO"])
                continue
            if effect == "suppressed":
                suppress(game, u, "MBT 12.3")
            if 2 * len(kept) <= full and not u.state.get("half") and card_of(game, u).stacking >= 2:
                # half its soldiers or fewer left: half strength in MBT too (MBT 12.5, CORE-101)
                u.state["half"] = True
                game.emit("halved", adapter=ADAPTER, unit=u.id, rule="MBT 12.5", nested=outcome.key)
    winner = outcome.result.winner
    if winner is not None:
        data(game).setdefault("control", {})[label] = winner
    game.report(f"who holds the town block {label}", result=winner or "unchanged",
                rules=("Firepower 7", "MBT 4.8"), decided_by=GUEST, adapter=ADAPTER,
                nested=outcome.key)
