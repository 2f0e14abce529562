"""Firefight/Firepower adapter: Firepower squads on a Firefight-host battlefield (docs/cross-system.md).

The model (docs/decisions.md CORE-91..CORE-95). Firefight is the host: its sequence of play and fire
procedure (Firefight 6.0) run. A Firepower squad is fielded as one counter: a unit whose type is
its leader's soldier (``firepower:LMG``) and whose ``state.squad`` lists the weapons of the other
soldiers (Firepower 1.2.1). On the Firefight board the squad is one Firefight team, of the type
table ``firepower_squad_in_firefight`` names (its Firefight profile). Its soldiers are the inside
of its hex: Firefight fire at it while it stands in a Town hex is played at Firepower scale (the
Firefight result becomes Firepower bursts at the soldiers, table ``firefight_fire_in_firepower``,
each shot a Firepower roll, Firepower 6.3.6.3.1) and the soldiers lost go back out as a Firefight
result (``firepower_losses_in_firefight``) that Firefight's rules apply. Any other result on it
(indirect fire, fire in the open) stands and is read in Firepower terms
(``firefight_result_in_firepower``). A squad's fire at a target class the adapter does not map
(a tank: table ``firepower_fire_in_firefight``) is not offered. The log records which system's
rule decided each result.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from hexwar.core.kit import StashKey
from hexwar.core.kit.pipeline import Edit
from hexwar.core.markers import hookimpl
from hexwar.core.types import DataSource, PluginManifest, Problem
from hexwar.plugins.adapters.firefight_firepower.model import (
    ADAPTER,
    DATA,
    AdapterError,
    best_weapon,
    fire_modelled,
    inside_fire,
    loss_result,
    profile,
    soldier_effect,
    tables,
)

if TYPE_CHECKING:
    from hexwar.core.engine.game import Game
    from hexwar.core.engine.state import Unit
    from hexwar.core.scenario import Scenario
    from hexwar.plugins.firefight.fire import Shot

PLUGIN = PluginManifest(
    name="firefight_firepower", system="firefight", kind="adapter",
    title="Firefight/Firepower adapter (Firefight host)",
    summary="Firepower squads as Firefight teams: fire at a squad in a Town hex is played at "
            "Firepower scale and its losses reported out as Firefight results.",
    bridges=("firefight", "firepower"),
    implements=("Firefight 6.0", "Firefight 6.5", "Firepower 6.3.6.3.1"),
)

HERE = Path(__file__).parent
HOST = "firefight"
GUEST = "firepower"
#: the Firefight terrain whose inside the squad's soldiers are (Firefight 5.1)
TOWN = "town"
#: units whose last Firefight result was already played out at Firepower scale (one shot's life)
#: soldier statuses of men no longer with their squad
GONE = frozenset({"eliminated", "dispersed"})
_INSIDE = StashKey[set[str]]("firefight_firepower.inside")


def is_squad(unit: Unit) -> bool:
    return unit.type.startswith(f"{GUEST}:")


def squad_weapons(unit_type: str, state: Mapping[str, Any]) -> list[str]:
    """The weapons of a squad's soldiers: its leader's (the unit type) then ``state.squad``."""
    others = state.get("squad", [])
    return [unit_type.split(":", 1)[1], *(str(w) for w in others)] if isinstance(
        others, list) else [unit_type.split(":", 1)[1]]


def pack_of(scenario: Scenario) -> str | None:
    """The scenario's replacement tables, ``[adapters.firefight_firepower] tables = "folder"``, or ``None``
    for the shipped tables."""
    from hexwar.core.scenario import adapter_table_pack

    return adapter_table_pack(scenario, ADAPTER)


@hookimpl
def hexwar_register_data() -> Sequence[DataSource]:
    return [
        DataSource(f"{ADAPTER}:tables", DATA, "tables",
                   "Firefight/Firepower conversion tables (modelling choices, estimated)"),
        DataSource(f"{ADAPTER}:versbach-block", HERE / "scenarios" / "versbach_block.toml",
                   "scenario", "Cross-system, all three: Firepower squads and a Firefight team "
                               "hold Versbach against MBT tanks and Firefight infantry"),
    ]


@hookimpl
def hexwar_validate_scenario(scenario: Scenario) -> Sequence[Problem]:
    """Refuse what the model does not cover: another host, a squad with no Firefight profile
    (an unknown weapon, or no fighting weapon), a ground without a Firepower board."""
    from hexwar.core.errors import DataError
    from hexwar.plugins.firepower.tables import card

    squads = [(i, u) for i, u in enumerate(scenario.units) if u.type.startswith(f"{GUEST}:")]
    try:
        pack = pack_of(scenario)
        if pack is not None:
            tables(pack)
    except DataError as exc:
        return [Problem(exc.message, scenario.path, exc.key or f"adapters.{ADAPTER}", exc.line,
                        exc.hint or "")]
    if not squads:
        return []
    if scenario.system != HOST:
        return [Problem(f"adapter {ADAPTER!r} models Firepower squads in a Firefight-host game "
                        f"only; host {scenario.system!r} is not modelled", scenario.path,
                        "scenario.system", hint="make Firefight the scenario's system")]
    problems: list[Problem] = []
    ground = scenario.raw.get("ground")
    if isinstance(ground, dict):
        problems.extend(_ground_problems(scenario, ground))
    known = set(card().weapons)
    for i, u in squads:
        weapons = squad_weapons(u.type, u.state)
        bad = [w for w in weapons if w not in known]
        if bad or not isinstance(u.state.get("squad", []), list):
            problems.append(Problem(
                f"squad {u.id!r}: state.squad must list Firepower weapons "
                f"({', '.join(sorted(known))}), not {bad or u.state.get('squad')!r}",
                scenario.path, f"units[{i}].state.squad"))
            continue
        try:
            profile(u.side, weapons, pack)
        except AdapterError as exc:
            problems.append(Problem(str(exc), scenario.path, f"units[{i}]"))
    return problems


def _ground_problems(scenario: Scenario, ground: dict[str, object]) -> list[Problem]:
    """The shared ground must lay a Firefight and a Firepower board at their own scales."""
    from hexwar.core.errors import DataError
    from hexwar.core.ground import Ground

    try:
        g = Ground.from_mapping(ground, path=scenario.path)
    except DataError as exc:
        return [Problem(exc.message, scenario.path, exc.key or "ground", exc.line, exc.hint or "")]
    missing = sorted({HOST, GUEST} - set(g.layers))
    if missing:
        return [Problem(f"the ground lays no board for {', '.join(missing)}", scenario.path,
                        "ground.boards",
                        hint="add [ground.boards.firefight] and [ground.boards.firepower]")]
    return []


@hookimpl(tryfirst=True)
def hexwar_setup_game(game: Game) -> None:
    """Give every squad its soldiers and its Firefight profile before Firefight's set-up reads
    it; a squad starts as the inside of a Town hex (Firefight 5.1) or is refused."""
    from hexwar.core.errors import DataError
    from hexwar.core.ground import Ground

    pack = pack_of(game.scenario)
    raw_ground = game.scenario.raw.get("ground")
    ground = Ground.from_mapping(raw_ground, path=game.scenario.path) if isinstance(
        raw_ground, dict) else None
    index = {u.id: i for i, u in enumerate(game.scenario.units)}
    for u in game.state.units.values():
        if not is_squad(u):
            continue
        if u.hex is not None and game.board.terrain_of.get(u.hex) != TOWN:
            raise DataError(f"squad {u.id!r} starts in {game.board.label(u.hex)}, not a Town "
                            f"hex: adapter {ADAPTER!r} models a squad as the inside of a Town "
                            "hex (Firefight 5.1)", path=game.scenario.path,
                            key=f"units[{index.get(u.id, '?')}].hex")
        weapons = squad_weapons(u.type, u.state)
        u.state["soldiers"] = [{"id": f"{u.id}.{n}", "weapon": w, "status": "ok"}
                               for n, w in enumerate(weapons, start=1)]
        u.state["firefight_as"] = profile(u.side, weapons, pack)
        where: dict[str, object] = {}
        if ground is not None and u.hex is not None and GUEST in ground.layers:
            # the Firepower hex under the centre of the Firefight hex, on the shared ground
            fh = ground.transfer(u.hex, HOST, GUEST)
            where = {"firepower_hex": [fh.q, fh.r]}
        # a squad's make-up is its owner's knowledge (the enemy sees a Firefight team)
        game.emit("adapter", visible_to=(u.side,), adapter=ADAPTER, unit=u.id, unit_type=u.type,
                  firefight_as=u.state["firefight_as"], soldiers=weapons,
                  table="firepower_squad_in_firefight", **where,
                  text=f"{u.id} ({len(weapons)} Firepower soldiers) fights as Firefight "
                       f"{u.state['firefight_as']}")


@hookimpl
def firefight_fire_steps(game: Game) -> Sequence[Edit[Any]]:
    """Fire at a squad in a Town hex is played at Firepower scale before the result applies."""
    return [Edit("insert_before", "apply", "firepower_inside", inside_step,
                 rule=f"adapter {ADAPTER}")]


def alive(unit: Unit) -> list[dict[str, Any]]:
    """The soldiers still with the squad (not eliminated, not dispersed)."""
    return [s for s in unit.state.get("soldiers", []) if s["status"] not in GONE]


def inside_step(shot: Shot) -> None:
    """Firefight's result at a squad in a Town hex becomes Firepower bursts at its soldiers
    (table ``firefight_fire_in_firepower``), each shot a roll of the decimal die against the
    Basic Game hit number with the cover modifier (Firepower 6.3.6.1, 6.3.6.2.2, 6.3.6.3.1); the
    soldiers lost become the Firefight result (``firepower_losses_in_firefight``)."""
    from hexwar.plugins.firepower.tables import card

    game = shot.game
    u = game.state.units[shot.target]
    if not is_squad(u) or u.hex is None or game.board.terrain_of.get(u.hex) != TOWN:
        return
    pack = pack_of(game.scenario)
    fire = inside_fire(shot.result, pack)
    inside = alive(u)
    if fire.bursts == 0 or not inside:
        return
    c = card()
    hit = c.hit_number(fire.weapon, fire.mode, fire.range)
    cover = c.mod["target_in_cover"]
    w = c.weapons[fire.weapon]
    per_burst = (w.automatic[1] if fire.mode == "auto" and w.automatic else int(w.semi or 1))
    rolls: list[int] = []
    lost: list[dict[str, Any]] = []
    for burst in range(fire.bursts):
        standing = [s for s in inside if s not in lost]
        if not standing:
            break
        soldier = standing[burst % len(standing)]
        for _ in range(per_burst):  # Firepower 6.3.6.3.1: a hit ends the burst
            # the fight inside the hex is the owner's knowledge (the squad's strength, CORE-92):
            # the firer learns the Firefight result only
            r = game.dice.d10(f"Firepower burst at {u.id}", visible_to=(u.side,))
            rolls.append(r)
            if r + cover <= hit:
                lost.append(soldier)
                break
    for s in lost:
        s["status"] = "eliminated"
    out = loss_result(len(lost), len(inside), pack)
    firefight_said = shot.result
    shot.result, shot.record = out, None
    left = alive(u)
    if left and out != "K":  # a squad that lost its LMG fights on as the lesser team
        u.state["firefight_as"] = profile(u.side, [s["weapon"] for s in left], pack)
    if out != "-":
        game.stash.setdefault(_INSIDE, set()).add(u.id)
    game.report(f"fire at {u.id} played inside its Town hex at Firepower scale",
                result=out, decided_by="firepower", adapter=ADAPTER, firefight_result=firefight_said,
                lost=len(lost), strength=len(inside), hit_number=hit, cover=cover, rolls=rolls,
                soldiers_lost=[f"{s['id']} ({s['weapon']})" for s in lost],
                firefight_as=u.state["firefight_as"], visible_to=(u.side,),
                rules=("Firepower 6.3.6.1", "Firepower 6.3.6.2.2", "Firepower 6.3.6.3.1",
                       f"adapter {ADAPTER} table firefight_fire_in_firepower",
                       f"adapter {ADAPTER} table firepower_losses_in_firefight"))


@hookimpl
def firefight_fire_restrictions(game: Game, attack: dict[str, Any]) -> Sequence[str]:
    """A squad's fire at a target class the adapter does not map is not offered (and refused if
    forced), the reason naming the adapter and the missing mapping."""
    firer = game.state.units.get(str(attack.get("firer")))
    if firer is None or not is_squad(firer):
        return []
    why = fire_modelled(str(attack.get("target_class")), pack_of(game.scenario))
    return [why] if why else []


@hookimpl
def firefight_result_applied(game: Game, unit_id: str, result: str, source: str) -> None:
    """A Firefight result on a squad, in Firepower terms; Firefight's rule decided it. A squad
    riding a vehicle that is destroyed dies with it (Firefight 6.55, 7.44): its soldiers too."""
    u = game.state.units.get(unit_id)
    if u is None or result == "-":
        return
    if not is_squad(u):
        for pid in u.state.get("passengers", []) if u.hex is None else ():
            p = game.state.units.get(str(pid))
            if p is not None and is_squad(p) and p.hex is None and alive(p):
                for s in alive(p):
                    s["status"] = "eliminated"
                game.report(f"{p.id} (Firepower squad) in Firepower terms", result="eliminated",
                            rules=("Firefight 6.55", "Firefight 7.44"), decided_by="firefight",
                            adapter=ADAPTER, firefight_result=result, carrier=unit_id,
                            source_of_fire=source, visible_to=(p.side,))
        return
    played = game.stash.get(_INSIDE)
    inside = played is not None and unit_id in played
    if inside:
        assert played is not None
        played.discard(unit_id)
    # a team destroyed after its fight inside: the survivors disperse (CORE-93)
    gone = "dispersed" if inside else "eliminated"
    effect = gone if u.hex is None else (
        "played inside" if inside else soldier_effect(result, pack_of(game.scenario)))
    if effect != "played inside":
        for s in alive(u):
            s["status"] = effect
    game.report(f"{unit_id} (Firepower squad) in Firepower terms", result=effect,
                rules=("Firefight 6.5", f"adapter {ADAPTER} table firefight_result_in_firepower"),
                decided_by="firefight", adapter=ADAPTER, firefight_result=result,
                source_of_fire=source, visible_to=(u.side,))


__all__ = ["PLUGIN", "alive", "best_weapon", "inside_step", "is_squad", "pack_of", "squad_weapons"]
