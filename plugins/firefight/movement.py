"""Movement (Firefight 7.0-7.5): movement points and terrain costs, exits, transport (Firefight 7.4), stacking
Firefight 7.3, and a unit's move hex by hex with the Opportunity Fire it draws (Firefight 7.5).

The checks (``*_problem``) return the reason with its case number or ``None``; ``do_*`` change
the game only after every check passed (else :class:`~hexwar.core.errors.RulesError`, game
unchanged). :func:`move_unit` is the sub-procedure of one unit's move, run by the Movement Phase
(``sequence.py``) and by the rules.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from hexwar.core.engine.decisions import Decision
from hexwar.core.errors import RulesError
from hexwar.core.hexgrid import Hex
from hexwar.core.types import total
from hexwar.plugins.firefight import indirect as IF
from hexwar.plugins.firefight.addenda import addenda
from hexwar.plugins.firefight.fire import attack_step, invalidate_targets
from hexwar.plugins.firefight.state import (
    carried,
    emit_about,
    enemy_of,
    ff,
    hexof,
    hooks,
    is_vehicle,
    rule_of,
    strip_rule,
    utype,
)
from hexwar.plugins.firefight.tables import ff_data

if TYPE_CHECKING:
    from hexwar.core.board import Board
    from hexwar.core.engine.game import Game
    from hexwar.core.engine.state import Unit
    from hexwar.plugins.firefight.hookspecs import Step


# ---------------------------------------------------------------------------------------------
# movement points and the checks of a step (Firefight 7.0-7.26)
# ---------------------------------------------------------------------------------------------



#: a dummy posing as a vehicle moves like one (MA 3, Firefight 7.0; docs/decisions.md FFD-25)
DUMMY_VEHICLE_MA = 3.0


def moves_as_vehicle(unit: Unit) -> bool:
    """Firefight 7.0: vehicles spend Movement Points, personnel move one hex. A dummy (Firefight 12.0) is used
    "as though it were a real unit": it moves like what its owner says it is (``state.claim``,
    Firefight 11.0; docs/decisions.md FFD-25), so a dummy claiming to be a vehicle moves like a vehicle."""
    if unit.state.get("dummy"):
        return unit.state.get("claim") == "vehicle"
    return is_vehicle(unit)


def movement_allowance(unit: Unit, game: Game | None = None) -> float:
    """Firefight 7.0, 27.x: a vehicle's MA from its data; personnel move one hex (counted as 1); a dummy
    claiming to be a vehicle has MA 3 (:func:`moves_as_vehicle`)."""
    ud = utype(unit)
    if unit.state.get("dummy"):
        base = DUMMY_VEHICLE_MA if moves_as_vehicle(unit) else 1.0
    else:
        base = ud.ma if ud.is_vehicle else 1.0
    if game is not None:
        over = hooks(game).movement_allowance(unit.id, base)
        if over is not None:
            return over
    return base


def step_cost(game: Game | None, board: Board, unit: Unit, src: Hex, dst: Hex) -> float:
    """MP to move from ``src`` into adjacent ``dst`` (Firefight 7.0, 7.1, TEC): along a road through its
    road hexside 1/2 (the stream is bridged) and other terrain ignored; along a trail 1; else
    the hex's cost; a stream hexside (unbridged) adds 1. Personnel pay 1 (one hex, Firefight 7.0)."""
    d = ff_data()
    side = board.hexside_of.get((src, dst), frozenset())
    if not moves_as_vehicle(unit):
        return 1.0
    if "bridge" in side and game is not None and frozenset((src, dst)) in addenda(game)["demolished"]:
        side = side - {"bridge"}  # Addenda: a demolished bridge is an unbridged stream hexside
    if "road" in side and ("bridge" in side or "stream" not in side):
        cost = d.feature_cost["road"]
    elif "road" in side:  # unbridged: hex cost plus stream (Firefight TEC Bridge; Firefight Addenda)
        cost = d.hex_cost.get(board.terrain_of.get(dst, "clear"), 1.0) + d.feature_cost["stream"]
    else:
        cost = d.feature_cost["trail"] if "trail" in side else d.hex_cost.get(
            board.terrain_of.get(dst, "clear"), 1.0)
        if "stream" in side and "bridge" not in side:
            cost += d.feature_cost["stream"]
    if game is not None and hooks(game).move_cost_live:
        cost += total(hooks(game).move_cost(unit.id, board.label(src), board.label(dst), cost))
    return cost


def mover_problem(game: Game, unit: Unit) -> str | None:
    """Why ``unit`` may not start a move now (Firefight 6.11, 6.52, 6.54, 7.21, 7.22, 7.42)."""
    # a removed dummy (Firefight 12.0) is gone for good, whatever entry orders it had
    entering = unit.hex is None and "enter" in unit.state and not unit.state.get("exited") \
        and not unit.state.get("destroyed") and "removed" not in unit.state \
        and int(unit.state["enter"].get("turn", 1)) <= game.state.turn
    if unit.hex is None and not entering:
        return "the unit is not on the map"
    if carried(unit):
        return "a passenger moves with its vehicle (Firefight 7.41)"
    if unit.state.get("moved"):
        return "the unit has already moved this Game-Turn (Firefight 7.21)"
    if unit.state.get("fired"):
        return "the unit fired this Game-Turn (Firefight 7.22)"
    if unit.state.get("acted"):
        return "the unit mounted or dismounted this Game-Turn (Firefight 7.42)"
    if unit.state.get("Km"):
        return "a Km vehicle cannot move (Firefight 6.54)"
    if not is_vehicle(unit) and unit.state.get("S"):
        return "suppressed personnel may not move (Firefight 6.52)"
    if unit.state.get("frozen_until", 0) > game.state.turn:
        return "the scenario forbids this unit to move yet"
    return None


def step_problem(game: Game, unit: Unit, dst: Hex) -> str | None:
    """Why the moving ``unit`` may not enter ``dst`` now (Firefight 7.0, 7.23, 7.25)."""
    src = unit.hex
    mp = float(unit.state["mp"]) if unit.state.get("moved") else movement_allowance(unit, game)
    if dst not in game.board.hexes:
        return "not a hex of the map"
    vehicle = moves_as_vehicle(unit)  # asked once: the legal steps ask this of every neighbour
    facade = hooks(game)
    if src is None:
        entry = [hexof(game, x) for x in _entry_hexes(unit)]
        if dst not in entry:
            return "a unit enters the map at its scenario entry hexes (Firefight 9.13)"
        cost = 1.0 if not vehicle else (game.board.terrain_of.get(dst) and \
            ff_data().hex_cost.get(game.board.terrain_of[dst], 1.0)) or 1.0
    else:
        if src.distance(dst) != 1:
            return "a unit moves from hex to adjacent hex (Firefight 7.24)"
        cost = step_cost(game, game.board, unit, src, dst)
        if vehicle:
            pair = frozenset((src, dst))
            add = addenda(game)
            if pair in add["impassable"]:
                return "the hexside is impassable to vehicles (Firefight Addenda)"
            if pair in add["impassable_streams"] and (
                    "bridge" not in game.board.hexside_of.get((src, dst), frozenset())
                    or pair in add["demolished"]):
                return "the stream is impassable to vehicles (Firefight Addenda)"
        if facade.move_restrictions_live:
            reasons = facade.move_restrictions(unit.id, game.board.label(src),
                                               game.board.label(dst))
            if reasons:
                return reasons[0]
    if not vehicle:
        if unit.state.get("steps", 0) >= 1:
            return "infantry moves one hex per Game-Turn (Firefight 7.0)"
    elif cost > mp + 1e-9:
        return f"needs {cost:g} MP, {mp:g} left (Firefight 7.23)"
    if any(u.side != unit.side and not carried(u)
           for u in game.state.units_at(dst)) and not facade.may_enter_enemy_hex(
               unit.id, game.board.label(dst)):
        return "enemy units occupy that hex (Firefight 7.25)"
    return None


def _entry_hexes(unit: Unit) -> list[str]:
    e = unit.state.get("enter") or {}
    hexes = e.get("hexes") or ([e["hex"]] if "hex" in e else [])
    return [str(x) for x in hexes]


def legal_steps(game: Game, unit: Unit) -> list[str]:
    if unit.hex is None:
        cands = [hexof(game, x) for x in _entry_hexes(unit)]
    else:
        cands = list(game.board.neighbors_of[unit.hex])
    return [game.board.label(h) for h in cands if step_problem(game, unit, h) is None]


def exit_problem(game: Game, unit: Unit) -> str | None:
    """Firefight 7.26: a unit on an edge hex may leave the map for 1 MP (infantry: as its one hex)."""
    if unit.hex is None:
        return "the unit is not on the map"
    if len(game.board.neighbors_of[unit.hex]) == 6:
        return "only a unit on a map-edge hex may exit (Firefight 7.26)"
    if moves_as_vehicle(unit):
        if float(unit.state.get("mp", 0)) < 1.0 - 1e-9:
            return "exiting the map costs one Movement Point (Firefight 7.26)"
    elif unit.state.get("steps", 0) >= 1:
        return "infantry moves one hex per Game-Turn (Firefight 7.0)"
    return None


def edge_of(game: Game, h: Hex) -> set[str]:
    """Which map edges a hex lies on (north/south/east/west), by its missing neighbours."""
    out = set()
    for d, name in ((1, "north"), (4, "south")):
        if h.neighbor(d) not in game.board.hexes:
            out.add(name)
    for ds, name in (((2, 3), "east"), ((5, 6), "west")):
        if all(h.neighbor(d) not in game.board.hexes for d in ds):
            out.add(name)
    return out


def do_exit(game: Game, unit: Unit) -> None:
    why = exit_problem(game, unit)
    if why:
        raise RulesError(why, rule=rule_of(why))
    assert unit.hex is not None
    unit.state["exit_edge"] = sorted(edge_of(game, unit.hex))
    unit.state["exit_hex"] = game.board.label(unit.hex)
    unit.state["exited"] = game.state.turn
    unit.hex = None
    for pid in unit.state.get("passengers", []):
        p = game.state.units[pid]
        p.hex = None
        p.state["exited"] = game.state.turn
        p.state["exit_edge"] = unit.state["exit_edge"]
    unit.state["mp"] = 0.0


def do_step(game: Game, unit: Unit, dst_label: str) -> float:
    """Move the unit one hex (checks first); returns the MP spent."""
    dst = hexof(game, dst_label)
    why = step_problem(game, unit, dst)
    if why:
        raise RulesError(f"{unit.id} may not enter {dst_label}: {strip_rule(why)}",
                         rule=rule_of(why))
    if unit.hex is None:
        cost = 1.0 if not moves_as_vehicle(unit) else ff_data().hex_cost.get(
            game.board.terrain_of.get(dst, "clear"), 1.0)
    else:
        cost = step_cost(game, game.board, unit, unit.hex, dst)
    unit.hex = dst
    invalidate_targets(game)
    for f in game.board.features_of.get(dst, ()):
        if f.startswith("name:"):  # places entered, for victory (Scn 1 "pass through")
            seen = ff(game).setdefault("visited", {}).setdefault(f[5:], [])
            if unit.id not in seen:
                seen.append(unit.id)
    unit.state["mp"] = float(unit.state.get("mp", 0.0)) - (cost if moves_as_vehicle(unit) else 0.0)
    unit.state["steps"] = int(unit.state.get("steps", 0)) + 1
    for pid in unit.state.get("passengers", []):
        game.state.units[pid].hex = dst
    return cost


@dataclass
class MountCheck:
    vehicle: Unit
    passengers: list[Unit] = field(default_factory=list)


def mount_problem(game: Game, vehicle: Unit, pax: Sequence[Unit]) -> str | None:
    """Firefight 7.42, 7.43: mount in the same hex, neither fired nor moved, within capacity in men."""
    if not is_vehicle(vehicle) or utype(vehicle).capacity <= 0:
        return "this vehicle carries no passengers (Firefight 7.43)"
    if not pax:
        return "nobody to mount"
    for u in [vehicle, *pax]:
        if u.hex is None or u.state.get("fired") or u.state.get("moved") or u.state.get("acted"):
            return "units that fired, moved or acted this turn may not mount (Firefight 7.42)"
    for p in pax:
        if p.state.get("dummy") or vehicle.state.get("dummy"):
            return "a dummy is nothing: it neither boards nor carries anyone (Firefight 12.0)"
        if is_vehicle(p) or carried(p) or p.hex != vehicle.hex or p.side != vehicle.side:
            return "mounting personnel must be in the vehicle's hex (Firefight 7.42)"
        if p.state.get("S"):
            return "suppressed personnel may not move (Firefight 6.52)"
    men = sum(utype(game.state.units[x]).men for x in vehicle.state.get("passengers", []))
    men += sum(utype(p).men for p in pax)
    if men > utype(vehicle).capacity:
        return f"{men} men exceed the capacity of {utype(vehicle).capacity} (Firefight 7.43)"
    return None


def do_mount(game: Game, vehicle: Unit, pax: Sequence[Unit]) -> None:
    why = mount_problem(game, vehicle, pax)
    if why:
        raise RulesError(why, rule=rule_of(why))
    vehicle.state.setdefault("passengers", [])
    for p in pax:
        vehicle.state["passengers"].append(p.id)
        p.state["carrier"] = vehicle.id
        p.state["acted"] = True
    vehicle.state["acted"] = True


def dismount_problem(game: Game, vehicle: Unit) -> str | None:
    if not vehicle.state.get("passengers"):
        return "no passengers to dismount"
    if vehicle.hex is None:
        return "the vehicle is not on the map"
    for u in [vehicle] + [game.state.units[x] for x in vehicle.state["passengers"]]:
        if u.state.get("fired") or u.state.get("moved") or u.state.get("acted"):
            return "units that fired, moved or acted this turn may not dismount (Firefight 7.42)"
    return None


def do_dismount(game: Game, vehicle: Unit) -> None:
    why = dismount_problem(game, vehicle)
    if why:
        raise RulesError(why, rule=rule_of(why))
    for pid in vehicle.state.pop("passengers"):
        p = game.state.units[pid]
        p.state.pop("carrier", None)
        p.hex = vehicle.hex
        p.state["acted"] = True
    vehicle.state["acted"] = True


def stacking_violations(game: Game) -> dict[str, list[str]]:
    """Firefight 7.3, 7.31: hexes with more than four friendly units (a vehicle and its passengers count
    as one) at the end of the Movement Phase."""
    count: dict[tuple[str, Hex], list[str]] = {}
    facade = hooks(game)
    for u in game.state.units.values():
        if u.hex is None or carried(u):
            continue
        if not facade.counts_for_stacking(u.id):
            continue
        count.setdefault((u.side, u.hex), []).append(u.id)
    return {f"{s}@{game.board.label(h)}": ids for (s, h), ids in count.items() if len(ids) > 4}


# ---------------------------------------------------------------------------------------------
# a unit's move, hex by hex, and the fire it draws (Firefight 7.0-7.26, 7.5)
# ---------------------------------------------------------------------------------------------


def _friendly_count(game: Game, side: str, h: Any, exclude: str) -> int:
    return sum(1 for u in game.state.units_at(h)
               if u.side == side and not carried(u) and u.id != exclude
               and not u.state.get("dummy"))


def may_stop(game: Game, unit: Unit) -> bool:
    """Firefight 7.3: design: a unit may not end its move where it would make five friendly units (the
    limit is then kept at the end of the phase whatever the others do)."""
    return unit.hex is None or _friendly_count(game, unit.side, unit.hex, unit.id) < 4


def step_options(game: Game, unit: Unit) -> list[Any]:
    opts: list[Any] = []
    for lbl in legal_steps(game, unit):
        h = game.board.parse(lbl)
        full = _friendly_count(game, unit.side, h, unit.id) >= 4
        if full and (not moves_as_vehicle(unit) or float(unit.state.get("mp", 0)) < 2):
            continue
        opts.append({"to": lbl})
    if unit.hex is not None and exit_problem(game, unit) is None:
        opts.append({"exit": True})
    if may_stop(game, unit) or not opts:
        opts.append("stop")
    opts.extend(hooks(game).move_options(unit.id))
    return opts


def move_options(game: Game, side: str) -> list[Any]:
    opts: list[Any] = []
    for u in game.state.units_of(side):
        if mover_problem(game, u) is None and (u.hex is not None or legal_steps(game, u)):
            opts.append({"move": u.id})
        if u.hex is not None and is_vehicle(u) and utype(u).capacity > 0:
            if dismount_problem(game, u) is None:
                opts.append({"dismount": u.id})
            here = sorted((p for p in game.state.units_at(u.hex) if p.side == side),
                          key=lambda p: p.id)
            for p in here:
                if not is_vehicle(p) and mount_problem(game, u, [p]) is None:
                    opts.append({"mount": u.id, "units": [p.id]})
    return opts


def move_validator(game: Game, side: str) -> Any:
    def validate(choice: Any) -> str | None:
        if isinstance(choice, Mapping) and "mount" in choice:
            v = game.state.units.get(str(choice["mount"]))
            pax = [game.state.units.get(str(x)) for x in choice.get("units", [])]
            if v is None or v.side != side or any(p is None or p.side != side for p in pax):
                return "unknown unit"
            return mount_problem(game, v, [p for p in pax if p is not None])
        return "not a legal choice"

    return validate


def run_interrupts(game: Game, unit: Unit) -> Step:
    """After a unit enters a hex (docs/decisions.md FFD-10): IF zone (Firefight 8.8); rules' mines and
    spotting stages; Opportunity Fire (Firefight 7.5, 7.51); rules' after-fire stage (overrun,
    Firefight 28)."""
    IF.attack_mover(game, unit)
    facade = hooks(game)
    label = game.board.label(unit.hex) if unit.hex is not None else ""
    for stage in ("impact", "mines", "spotting"):
        if unit.hex is None:
            break
        for st in facade.mover_interrupts(unit.id, label, stage):
            yield from st
    if unit.hex is not None:
        ff(game)["mover"] = unit.id
        yield from attack_step(game, enemy_of(unit.side), "opportunity", [unit.id])
    if unit.hex is not None:
        for st in facade.mover_interrupts(unit.id, label, "after_fire"):
            yield from st


def move_unit(game: Game, unit: Unit) -> Step:
    """Firefight 7.0-7.26, 7.5: move hex by hex; the opponent may fire after each hex entered."""
    unit.state["moved"] = True
    unit.state["mp"] = movement_allowance(unit, game)
    unit.state["steps"] = 0
    ff(game)["mover"] = unit.id
    emit_about(game, "move_start", [unit.id], unit=unit.id, rule="Firefight 7.0")
    actions = 0
    while unit.hex is not None or unit.state.get("steps", 0) == 0:
        if unit.state.get("Km") and unit.hex is not None:
            break  # Firefight 6.54: a Km from opportunity fire stops it
        opts = step_options(game, unit)
        if actions >= 8:  # guard: a rule's in-move action offered over and over
            opts = [o for o in opts if not (isinstance(o, Mapping) and "action" in o)]
        if unit.hex is None and not any(isinstance(o, Mapping) and "to" in o for o in opts):
            break
        choice = yield Decision(unit.side, "firefight.step", options=opts,
                                context={"unit": unit.id, "mp": unit.state.get("mp"),
                                         "hex": None if unit.hex is None
                                         else game.board.label(unit.hex)},
                                prompt=f"{unit.id}: next hex, exit or stop", rule="Firefight 7.24")
        if choice == "stop":
            break
        if isinstance(choice, Mapping) and choice.get("exit"):
            do_exit(game, unit)
            emit_about(game, "exit", [unit.id], unit=unit.id, edge=unit.state.get("exit_edge"),
                       rule="Firefight 7.26")
            break
        if isinstance(choice, Mapping) and "to" in choice:
            do_step(game, unit, str(choice["to"]))
            emit_about(game, "move", [unit.id], unit=unit.id, to=str(choice["to"]),
                       mp=unit.state.get("mp"))
            yield from run_interrupts(game, unit)
            if not moves_as_vehicle(unit):
                break  # infantry (and a dummy posing as it, Firefight 12.0): one hex a turn (7.0)
            continue
        actions += 1
        step = hooks(game).move_action(unit.id, dict(choice))
        if step is not None:
            yield from step
    ff(game)["mover"] = None
    hooks(game).move_done(unit.id)
