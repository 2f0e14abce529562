"""MBT 2.0, Basic Game Set Up: the mapboard sides (MBT 2.4) and placing the units (MBT 2.5).

A scenario whose units all have a hex skips both; otherwise the high roller picks the mapboard
side, and the low roller sets up first, each unit within ``setup.depth`` hexes of its side's edge
(docs/decisions.md MBTD-2, MBTD-3).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from hexwar.core.engine.decisions import Decision
from hexwar.core.engine.primitives import roll_off
from hexwar.core.engine.state import Unit
from hexwar.core.hexgrid import Hex
from hexwar.core.types import Problem
from hexwar.plugins.mbt.hookspecs import MbtHooks
from hexwar.plugins.mbt.state import SIDES, Step, alive, card_of, ctx, data, enemy_of, init_unit

if TYPE_CHECKING:
    from hexwar.core.engine.game import Game
    from hexwar.core.scenario import Scenario

#: MBT Scenario One A: the printed panels as they are, or one of the suggested variations
TERRAIN_VARIANTS = ("standard", "open_plains", "unspoiled_mountains", "sunless_woods")


def setup_zone(game: Game, edge: str, chosen: list[str] | None = None) -> list[Hex]:
    """MBT 2.5: hexes within ``depth`` (4) hexes of mapboard side 1 (top) or 4 (bottom),
    counting the unit's own hex; with corner entry, of the ``chosen`` corners (default both)."""
    info = ctx(game).info
    setup = game.scenario.raw.get("setup", {})
    depth = int(setup.get("depth", 4))
    rows = {h: info.panel_row[h] for h in game.board.hexes}
    panels = sorted({p for p, _ in rows.values()})
    if edge == "1":
        top = panels[0]
        zone = sorted(h for h, (p, r) in rows.items() if p == top and r <= depth)
    else:
        bottom = panels[-1]
        last = max(r for p, r in rows.values() if p == bottom)
        zone = sorted(h for h, (p, r) in rows.items() if p == bottom and r > last - depth)
    if setup.get("entry") == "corners":
        # MBT Scenario One A, C: within 4 hexes (its own hex counted) of the side's corner or
        # corners entered by
        ends = corners(game, edge, chosen)
        zone = [h for h in zone if min(h.distance(c) for c in ends) < depth]
    return zone


#: MBT Scenario One A: the corners' numbers at the ends of side A (mapboard side 1) and side B
#: (side 4), the first column's end first (docs/decisions.md MBTD-125)
CORNER_NUMBERS = {"1": ("1", "3"), "4": ("2", "4")}


def corner_choices(edge: str) -> list[str]:
    """MBT Scenario One A: a side enters by corners 1 and/or 3 (or 2 and/or 4): both or one."""
    return ["both", *CORNER_NUMBERS[edge]]


def chosen_corners(game: Game, side: str) -> list[str] | None:
    """The corner numbers a side enters by (None: not chosen, both)."""
    got = data(game).get("corners", {}).get(side)
    return None if got is None else [str(x) for x in got]


def corners(game: Game, edge: str, chosen: list[str] | None = None) -> tuple[Hex, ...]:
    """The corner hexes at the ends of mapboard side 1 or 4 (Scenario One's corners 1 and 3
    at side A, 2 and 4 at side B): the first and last column's end hexes of that side; with
    ``chosen`` corner numbers, only those."""
    cols: dict[int, list[Hex]] = {}
    for h in game.board.hexes:
        cols.setdefault(h.q, []).append(h)
    ends = [sorted(cols[min(cols)], key=lambda h: h.r), sorted(cols[max(cols)], key=lambda h: h.r)]
    i = 0 if edge == "1" else -1
    both = (ends[0][i], ends[1][i])
    if not chosen:
        return both
    return tuple(h for h, n in zip(both, CORNER_NUMBERS[edge], strict=True) if n in chosen)


def may_exit(game: Game, u: Unit, direction: int) -> bool:
    """MBT 4.6, 8.7: a unit may leave the map across any edge, unless the scenario allows exits
    only off the side its side set up by (MBT Scenario One B: ``[setup] exits = "own"``): the hex
    across ``direction`` must lie beyond that side; with ``entry = "corners"`` the unit must be
    within ``depth`` hexes of one of its side's corners (off either edge there)."""
    setup = game.scenario.raw.get("setup", {})
    if setup.get("exits", "any") != "own" or u.hex is None:
        return True
    edge = data(game).get("edge", {}).get(u.side)
    if edge not in ("1", "4"):
        return False
    if setup.get("entry") == "corners":
        # "sides within four hexes of their corners": either edge near one of the side's corners
        depth = int(setup.get("depth", 4))
        ends = corners(game, str(edge), chosen_corners(game, u.side))
        return min(u.hex.distance(c) for c in ends) < depth
    beyond = u.hex.neighbor(direction)
    column = [h.r for h in game.board.hexes if h.q == beyond.q]
    return bool(column) and (beyond.r < min(column) if edge == "1" else beyond.r > max(column))


def setup_phase(game: Game) -> Step:
    """MBT 2.4-2.5."""
    d = data(game)
    for u in game.state.units.values():
        init_unit(u)
    to_place = [u for u in game.state.units.values() if u.hex is None]
    from hexwar.plugins.mbt.marker_setup import marker_step

    if not to_place:
        d.setdefault("edge", {"NATO": "1", "Soviet": "4"})
        # MBT 12.4, 10.0: markers the scenario allots, placed before play (MBTD-168)
        yield from marker_step(game, SIDES, d["edge"], {})
        _initial_control(game)
        return
    sides = list(SIDES)
    high = roll_off(game, sides, purpose="MBT 2.4 mapboard side")
    edge = yield Decision(high, "mbt.edge", options=["1", "4"], rule="MBT 2.4",
                          prompt="Pick the mapboard side to set up on")
    d["edge"] = {high: edge, enemy_of(high): "4" if edge == "1" else "1"}
    game.emit("setup_edges", edges=d["edge"], rule="MBT 2.4")
    # MBT 2.5: the LOW roller sets up first
    low = roll_off(game, sides, purpose="MBT 2.5 set-up order", high_wins=False)
    if game.scenario.raw.get("setup", {}).get("entry") == "corners":
        # MBT Scenario One A: each side enters by one of its side's corners or by both
        for side in (low, enemy_of(low)):
            pick = yield Decision(side, "mbt.corners", options=corner_choices(d["edge"][side]),
                                  rule="MBT Scenario One A",
                                  prompt="Enter by which corner of your side (both: either)?")
            nums = list(CORNER_NUMBERS[d["edge"][side]]) if pick == "both" else [str(pick)]
            d.setdefault("corners", {})[side] = nums
            # told to its own side only: the side setting up second must not learn where the first
            # may be (placements are logged to their own side too)
            game.emit("setup_corners", visible_to=[side], side=side, corners=nums,
                      rule="MBT Scenario One A")
    # MBT 12.4, 10.0: each side's allotted terrain markers, before any unit (MBTD-168)
    yield from marker_step(game, (low, enemy_of(low)), d["edge"],
                           {s: chosen_corners(game, s) for s in SIDES})
    for side in (low, enemy_of(low)):
        zone = setup_zone(game, d["edge"][side], chosen_corners(game, side))
        # squads after the vehicles: each starts in its carrier (MBT 15.3.2.6) or beside it
        # (MBTD-82)
        for u in sorted((u for u in to_place if u.side == side),
                        key=lambda u: (bool(u.state.get("carried_by")),
                                       bool(u.state.get("assigned_carrier")), u.id)):
            if _with_leader(game, u):
                continue
            if u.state.get("carried_by"):
                from hexwar.plugins.mbt.transport import mount_at_setup

                mount_at_setup(game, u)
                continue
            occupied = {x.hex for x in game.state.units.values() if x.hex is not None}
            if MbtHooks.of(game).stacking_unlimited():
                occupied = {x.hex for x in game.state.units_of(enemy_of(side)) if x.hex}  # MBT 12.2
            options = [[game.board.label(h), f] for h in _beside_carrier(game, u, zone)
                       if h not in occupied for f in range(1, 7)]
            choice = yield Decision(side, "mbt.place", options=options, rule="MBT 2.5",
                                    context={"unit": u.id, "type": u.type},
                                    prompt=f"Set up {u.id} ({u.type}): [hex, facing]")
            u.hex = game.board.parse(choice[0])
            u.facing = int(choice[1])
            u.state["turret"] = u.facing
            if card_of(game, u).kind != "vehicle":
                # Advanced MBT 10.1, 13.1.4: turret units go on vehicles only; leg units are open
                game.emit("placed", visible_to=[side], unit=u.id, hex=choice[0], facing=u.facing)
                continue
            # MBT 2.5: each unit with its turret unit on top, facing any way, open or buttoned
            turret = yield Decision(side, "mbt.turret", rule="MBT 2.5",
                                    options=[[f, o] for f in range(1, 7) for o in ("open", "buttoned")],
                                    context={"unit": u.id, "turret": u.facing, "open": True},
                                    prompt=f"Turret of {u.id}: [facing, open|buttoned]")
            u.state["turret"] = int(turret[0])
            u.state["open"] = turret[1] == "open"
            game.emit("placed", visible_to=[side], unit=u.id, hex=choice[0], facing=u.facing,
                      turret=u.state["turret"], open=u.state["open"])
    _initial_control(game)


def _beside_carrier(game: Game, u: Unit, zone: list[Hex]) -> list[Hex]:
    """MBTD-82: a squad with a carrier set up starts dismounted in its hex or next to it (within
    the set-up zone); any zone hex without one."""
    carrier = game.state.units.get(str(u.state.get("assigned_carrier")))
    if carrier is None or carrier.hex is None:
        return zone
    near = [h for h in zone if h.distance(carrier.hex) <= 1]
    return near or zone


def _with_leader(game: Game, u: Unit) -> bool:
    """Advanced MBT 13.4.3.1: a doctrine organization's member is set up with the first one,
    in its hex, facing its way, its turret the same."""
    from hexwar.plugins.mbt import doctrine

    group = u.state.get("doctrine")
    ids = doctrine.organizations(game).get(str(group), []) if group else []
    if not ids or ids[0] == u.id or u.id not in ids:
        return False
    lead = game.state.units[ids[0]]
    if lead.hex is None:
        return False
    u.hex, u.facing = lead.hex, lead.facing
    doctrine.copy_orientation(game, lead)
    game.emit("placed", visible_to=[u.side], unit=u.id, hex=game.board.label(u.hex),
              facing=u.facing, turret=u.state["turret"], open=u.state["open"], rule="MBT 13.4.3.1")
    return True


def _initial_control(game: Game) -> None:
    ctl = data(game).setdefault("control", {})
    for u in game.state.units.values():
        if alive(u) and u.hex in ctx(game).info.objectives:
            ctl[game.board.label(u.hex)] = u.side


def scenario_shapes() -> dict[str, Any]:
    """MBT's part of the scenario format, by table: the keys the system reads and their types
    (docs/scenario-format.md lists every key; ``tests/test_scenario_format.py`` checks it)."""
    from hexwar.core.scenario import Either, IntRange, MapOf, OneOf

    points = IntRange(0, 1_000_000)
    files = Either((str, [str]))
    # MBT Scenario Format C, "Doing Your Own Scenarios" B: a side's force as TO&E organizations
    # (forces.py); officers CO/XO/SP name the card of the unit that carries them (MBT 12.8.2)
    force = {"id": str, "name": str, "nation": OneOf(("USA", "FRG", "USSR")),
             "organization": str, "variant": str, "grade": OneOf(("crack", "average", "poor")),
             "doctrine": OneOf(("none", "all", "vehicle", "vehicle+SPG-9")),
             "officers": MapOf(str, keys=("CO", "XO", "SP")), "counts": MapOf(IntRange(0, 100)),
             "cards": MapOf(str),
             # MBT 12.8.4.3: units attached to the organization (overstrength)
             "attach": [{"unit": str, "n": IntRange(1, 100), "options": [str]}]}
    return {
        # objective_terrain: a terrain kind or a list of them ("building" = brick and stone,
        # "bridge" = hexes with a bridge); objective_hexes: hex labels (MBT 9.4.2.2, Scenario D)
        "victory": {"objective_terrain": Either((str, [str])), "objective_hexes": [str],
                    "objective_points": points, "margin": points},
        # entry: the sides (A = mapboard side 1, B = side 4) or the corners at their ends
        # (MBT Scenario One A); exits: only off the side (or corners) a side set up by (B)
        "setup": {"depth": IntRange(1, 1000), "entry": OneOf(("sides", "corners")),
                  "exits": OneOf(("any", "own")),
                  # MBT 12.4, 10.0: terrain markers each side places at set-up (MBTD-168)
                  "markers": MapOf(MapOf(IntRange(0, 100),
                                         keys=("block", "ditch", "wire", "improved_position")),
                                   keys=SIDES)},
        "special": {"tables": files, "cards": files,
                    # MBT 13.1.1 conditions (or MBT Scenario One B.3 "chance"), MBT 10.2.2
                    # terrain heights: the Advanced Game's (mbt.advanced)
                    "conditions": OneOf(("Day", "Dusk", "Moonlight", "Night", "Fog",
                                         "Blowing Snow", "chance")),
                    "heights": MapOf(IntRange(-10, 20)),
                    # MBT 12.4 terrain markers (placement is checked on the board, markers.py)
                    "markers": [MapOf(str, keys=("hex", "kind"))],
                    # MBT Scenario One A: the terrain variants; C: optional rules a matchup bars
                    "terrain_variant": OneOf(TERRAIN_VARIANTS),
                    "barred_rules": [str],
                    # MBT 21.2 radio jamming points by side (mbt.command_control)
                    "jamming": MapOf(IntRange(0, 100)),
                    # MBT 12.8.2.2 the organizations under each headquarters (mbt.command_control)
                    "command": MapOf([str])},
        "sides": MapOf({"title": str, "points": points, "forces": [force]}),
    }


def validate_scenario(scenario: Scenario) -> list[Problem]:
    """What an MBT scenario must say: the sides NATO and Soviet (MBT 1.2.1), whole-number victory
    points (MBT 9.4.2-9.4.3) and a set-up depth of at least one hex (MBT 2.5); every MBT part
    of the file has the keys and types the system reads, and its table and card files lie in the
    scenario's folder."""
    from pathlib import Path

    from hexwar.core.errors import DataError
    from hexwar.core.safeload import confined
    from hexwar.core.scenario import shape_problems

    path = scenario.path
    problems: list[Problem] = []
    if set(scenario.sides) != set(SIDES):
        problems.append(Problem("an MBT scenario has the sides NATO and Soviet", path, "sides"))
    for part, shape in scenario_shapes().items():
        value = dict(scenario.sides) if part == "sides" else scenario.raw.get(part, {})
        problems.extend(shape_problems(value, shape, path, part))
    special = scenario.raw.get("special", {})
    base = Path(path).parent if path else Path(".")
    for key in ("tables", "cards"):
        names = special.get(key, []) if isinstance(special, dict) else []
        for name in names if isinstance(names, list) else [names]:
            if isinstance(name, str):
                try:
                    confined(base, name, key=f"special.{key}", path=path, folder=True)
                except DataError as exc:
                    problems.append(Problem(exc.message, path, f"special.{key}",
                                            hint=exc.hint or ""))
    from hexwar.plugins.mbt.forces import problems as force_problems

    problems.extend(force_problems(scenario))
    from hexwar.plugins.mbt.variants import problems as variant_problems

    problems.extend(variant_problems(scenario))
    from hexwar.plugins.mbt.cards import load_cards
    from hexwar.plugins.mbt.grade import state_problems
    from hexwar.plugins.mbt.squads import state_problems as squad_problems

    known = load_cards()  # the shipped cards (a scenario's own are checked as forces.problems does)
    for u in scenario.units:
        if u.type.startswith("mbt:") and u.side not in SIDES:
            problems.append(Problem(f"unit {u.id}: side must be NATO or Soviet", path, "units"))
        for msg in state_problems(u.state):  # MBT 12.7, 12.8.2
            problems.append(Problem(f"unit {u.id}: {msg}", path, "units", u.line))
        for msg in squad_problems(u.state, known.get(u.type.removeprefix("mbt:"))):  # MBT 12.5
            problems.append(Problem(f"unit {u.id}: {msg}", path, "units", u.line))
        if isinstance(u.state, dict) and u.state.get("doctrine") is not None and u.side != "Soviet":
            problems.append(Problem(f"unit {u.id}: doctrine applies only to Soviet units "
                                    "(MBT 13.4)", path, "units", u.line))
    return problems
