"""Entering the board later (Firepower 10.2): a squad the scenario brings on from a board side,
as set-up data and as an Impulse choice.

Scenario data: ``[sides.<side>.squads.<name>] enter = { edge = "5/6", turn = 2 }`` (the board
side its soldiers come on from, and the first Turn they may). Its soldiers are not set up
(``hidden_setup.phase_advanced_setup`` leaves them off the board, ``hex`` None) until the squad
takes an Impulse choice ``{"squad", "enter_board": true, "units": [...], "at": {id: [hex,
facing]}}``: every soldier of the squad still off the board at once (Firepower 10.2), each into
an edge hex of that side at the cost of entering it Standing. In that Impulse all of them act,
whatever hexes they are in (Firepower 10.2: the Impulse limits do not bind), and none of the
squad may make a Combat Action in that Impulse Phase (Firepower 10.2: "may not be fired",
docs/decisions.md FPD-75). Exiting the board: :mod:`~hexwar.plugins.firepower.exits`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from hexwar.core.errors import RulesError
from hexwar.core.hexgrid import Hex
from hexwar.plugins.firepower.setup import BOARD_SIDES
from hexwar.plugins.firepower.state import board_columns, column_of, data, rules_card

if TYPE_CHECKING:
    from hexwar.core.engine.game import Game
    from hexwar.core.engine.state import Unit

RULE = "Firepower 10.2"


def entry_of(game: Game, side: str, squad: str) -> tuple[str, int] | None:
    """(board side, first Turn) of a squad that enters later; None if it sets up."""
    table = ((game.scenario.sides.get(side) or {}).get("squads") or {}).get(squad) or {}
    e = table.get("enter")
    if e is None:
        return None
    if not isinstance(e, dict) or e.get("edge") not in BOARD_SIDES:
        raise RulesError(f"squad {squad}'s entry names a board side {'/'.join(BOARD_SIDES)} "
                         f"(enter = {{ edge = \"5/6\", turn = 1 }}), not {e!r}", rule=RULE)
    return str(e["edge"]), int(e.get("turn", 1))


def enters_later(game: Game, u: Unit) -> bool:
    """Whether a soldier belongs to a squad that enters the board later (not set up)."""
    from hexwar.plugins.firepower.squads import squad_of

    q = squad_of(u)
    return q is not None and entry_of(game, u.side, q) is not None


def off_board(game: Game, side: str, squad: str) -> list[str]:
    from hexwar.plugins.firepower.squads import squad_of

    return sorted(u.id for u in game.state.units_of(side)
                  if squad_of(u) == squad and u.hex is None and not u.state.get("eliminated")
                  and not u.state.get("exited"))  # Firepower 10.2: the exited never return


def edge_hexes(game: Game, edge: str) -> list[Hex]:
    """The board's edge hexes on ``edge`` (the first or last column), middle first."""
    lo, hi = board_columns(game)
    col = lo if edge == "5/6" else hi
    hexes = sorted((h for h in game.board.hexes if column_of(game, h) == col),
                   key=lambda h: game.board.label(h))
    mid = len(hexes) // 2
    return sorted(hexes, key=lambda h: (abs(hexes.index(h) - mid), game.board.label(h)))


def inward(game: Game, h: Hex, edge: str) -> int:
    """A facing from an edge hex toward the board's inside (the first hexside whose neighbour is
    a column further in)."""
    c = column_of(game, h)
    for d in range(1, 7):
        n = h.neighbor(d)
        if n in game.board.hexes and (column_of(game, n) > c if edge == "5/6"
                                      else column_of(game, n) < c):
            return d
    return 1


def entry_options(game: Game, side: str, squads: list[str]) -> list[dict[str, Any]]:
    """An entry for each squad of ``squads`` with soldiers off the board whose Turn has come:
    the soldiers in the edge hexes from the middle out, facing in."""
    out = []
    for q in squads:
        e = entry_of(game, side, q)
        ids = off_board(game, side, q)
        if e is None or not ids or game.state.turn < e[1]:
            continue
        hexes = [h for h in edge_hexes(game, e[0]) if not _enemy(game, side, h)]
        if not hexes:
            continue
        at = {uid: [game.board.label(hexes[i % len(hexes)]),
                    inward(game, hexes[i % len(hexes)], e[0])] for i, uid in enumerate(ids)}
        out.append({"squad": q, "enter_board": True, "units": ids, "at": at})
    return out


def _enemy(game: Game, side: str, h: Hex) -> bool:
    return any(u.hex == h and u.side != side and not u.state.get("eliminated")
               for u in game.state.units.values())


def check_entry(game: Game, side: str, choice: dict[str, Any]) -> dict[str, tuple[Hex, int]]:
    """Firepower 10.2: the whole squad still off the board, each into an edge hex of its entry
    side free of opposing soldiers; returns id -> (hex, facing). Pure."""
    q = str(choice.get("squad"))
    e = entry_of(game, side, q)
    if e is None:
        raise RulesError(f"squad {q} does not enter the board later", rule=RULE)
    if game.state.turn < e[1]:
        raise RulesError(f"squad {q} enters from Turn {e[1]}, not {game.state.turn}", rule=RULE)
    ids = off_board(game, side, q)
    if sorted(choice.get("units") or []) != ids or not ids:
        raise RulesError(f"all of squad {q}'s soldiers off the board enter at once: {ids}",
                         rule=RULE)
    at = choice.get("at")
    if not isinstance(at, dict) or sorted(at) != ids:
        raise RulesError("name each entering soldier's edge hex and facing ('at')", rule=RULE)
    edge = set(edge_hexes(game, e[0]))
    out: dict[str, tuple[Hex, int]] = {}
    for uid in ids:
        spot = at[uid]
        if not isinstance(spot, list) or len(spot) != 2 or not isinstance(spot[0], str):
            raise RulesError(f"{uid}: [edge hex, facing]", rule=RULE)
        try:
            h = game.board.parse(spot[0])
        except ValueError as exc:
            raise RulesError(str(exc), rule=RULE) from None
        f = spot[1]
        if h not in edge:
            raise RulesError(f"{spot[0]} is not an edge hex of board side {e[0]}", rule=RULE)
        if not isinstance(f, int) or isinstance(f, bool) or not 1 <= f <= 6:
            raise RulesError(f"{uid}'s facing is a hexside 1-6", rule="Firepower 4.3")
        if _enemy(game, side, h):
            raise RulesError(f"{spot[0]} holds opposing soldiers: entered only by melee",
                             rule="Firepower 6.2.1")
        out[uid] = (h, f)
    return out


def enter_board(game: Game, side: str, choice: dict[str, Any]) -> list[str]:
    """Place the squad's soldiers, each having paid to enter his edge hex Standing; returns
    their ids (all active in this Impulse, Firepower 10.2)."""
    from hexwar.plugins.firepower.impulses import begin_impulse

    spots = check_entry(game, side, choice)
    ids = sorted(spots)
    begin_impulse(game, ids)
    ph = data(game)["phase"]
    from hexwar.plugins.firepower.weather import entry_extra

    base = rules_card(game).mf_cost("enter", "stand")
    for uid, (h, f) in spots.items():
        u = game.state.units[uid]
        cost = base + entry_extra(game, h)  # Firepower 11.2.2: snow or mud on the edge hex
        u.hex, u.facing = h, f
        u.state["posture"] = "stand"
        ph["spent"][uid] = cost
        ph["nc"][uid] = cost
        ph["entered"][uid] = 1
    ph.setdefault("entering", []).append(str(choice["squad"]))
    game.emit("enter_board", squad=choice["squad"], side=side,
              at={uid: game.board.label(h) for uid, (h, _f) in spots.items()}, rule=RULE)
    from hexwar.plugins.firepower.hidden_setup import after_entering
    from hexwar.plugins.firepower.state import alive

    for uid in ids:  # Firepower 12.4.4: entering a mined edge hex sets the mine off
        u = game.state.units[uid]
        if alive(u):
            after_entering(game, u)
    return ids


def check_no_fire(game: Game, choice: Any) -> None:
    """Firepower 10.2: no soldier of a squad entering this Impulse Phase makes a Combat Action."""
    from hexwar.plugins.firepower.squads import squad_of

    if not isinstance(choice, dict) or choice.get("act") not in ("fire", "grenade", "melee",
                                                                  "detonate"):
        return
    entering = (data(game).get("phase") or {}).get("entering") or []
    if not entering:
        return
    ids = [choice.get("unit"), *(choice.get("units") or [])]
    for i in ids:
        if isinstance(i, str) and i in game.state.units:
            q = squad_of(game.state.units[i])
            if q in entering:
                raise RulesError(f"{i}'s squad {q} enters the board this Impulse Phase: it may "
                                 "not fire", rule=RULE)
