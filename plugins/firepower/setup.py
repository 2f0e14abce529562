"""Basic Game set-up and preparation for play (Firepower 2): the soldiers' first markers, the
choice of board side (Firepower 2.2) and the set-up within five hexes of one's side (Firepower 2.4).

The two set-up phases are :class:`~hexwar.core.types.PhaseSpec` of ``when="setup"`` in
:data:`hexwar.plugins.firepower.sequence.PHASES`.
"""

from __future__ import annotations

from collections.abc import Generator
from typing import TYPE_CHECKING, Any

from hexwar.core.engine.decisions import Decision
from hexwar.core.engine.primitives import roll_off
from hexwar.core.errors import RulesError
from hexwar.core.hexgrid import Hex
from hexwar.core.kit.stash import StashKey
from hexwar.plugins.firepower.soldiers import initial_state
from hexwar.plugins.firepower.state import board_columns, column_of, data, fp_map, validator
from hexwar.plugins.firepower.tables import POSTURES

if TYPE_CHECKING:
    from hexwar.core.engine.game import Game
    from hexwar.core.engine.state import Unit

Gen = Generator[Any, Any, None]
BOARD_SIDES = ("5/6", "2/3")


def setup_units(game: Game) -> None:
    """Give every soldier his markers (Standing, Normal, no status) and weapon from his type
    (Firepower 1.2.1, Firepower 4.4-4.7)."""
    for u in game.state.units.values():
        t = game.unit_types.get(u.type)
        weapon = str((t.data if t else {}).get("weapon", "RFL"))
        state = initial_state(weapon, str(u.state.get("posture", "stand")))
        state.update({k: v for k, v in u.state.items() if k in state})
        u.state.update(state)
        if u.hex is not None:
            pic = fp_map(game).fence.get(u.hex) or fp_map(game).hedge.get(u.hex)
            if pic is not None and u.state.get("side") is None:
                u.state["side"] = _hole_side(game, u) or pic.default_side(u.facing)
    data(game).setdefault("cup", [])


def _hole_side(game: Game, u: Unit) -> int | None:
    """Firepower 12.7.4: a soldier set up in a foxhole or trench of a fence hex is on its part
    (docs/decisions.md FPD-136)."""
    if not u.state.get("in_defence") or u.hex is None:
        return None
    from hexwar.plugins.firepower.defenses import defences

    d = defences(game).get(u.hex)
    return d.side if d is not None and d.type.kind == "hole" else None


# ---------------------------------------------------------------------------------------------
# Set-up zones (Firepower 2.4, docs/decisions.md FPD-5)
# ---------------------------------------------------------------------------------------------


def setup_depth(game: Game) -> int:
    return int(game.scenario.raw.get("setup", {}).get("depth", 5))


def in_setup_zone(game: Game, board_side: str, h: Hex) -> bool:
    """Firepower 2.4: within five hexes of the side, the soldier's hex and the partial edge hexes
    included (edge column = the first hex)."""
    lo, hi = board_columns(game)
    c = column_of(game, h)
    depth = setup_depth(game)
    return c <= lo + depth - 1 if board_side == "5/6" else c >= hi - depth + 1


# ---------------------------------------------------------------------------------------------
# The set-up phases
# ---------------------------------------------------------------------------------------------


def phase_board_side(game: Game) -> Gen:
    """Firepower 2.2: the high roller picks board side 2/3 or 5/6; the other takes the opposite."""
    sides = list(game.state.sides)
    winner = roll_off(game, sides, purpose="Firepower 2.2 choice of board side")
    choice = yield Decision(winner, "board_side", options=list(BOARD_SIDES),
                            prompt="Pick the side of the mapboard to set up on",
                            rule="Firepower 2.2", context={"sides": list(BOARD_SIDES)})
    other = BOARD_SIDES[1] if choice == BOARD_SIDES[0] else BOARD_SIDES[0]
    data(game)["board_side"] = {s: (choice if s == winner else other) for s in sides}
    game.emit("board_side", sides=data(game)["board_side"], rule="Firepower 2.2")


def placement_options(game: Game, side: str) -> list[Any]:
    """Firepower 2.4: hexes of the side's set-up zone, facing the enemy (others validate)."""
    bs = data(game)["board_side"][side]
    facings = (2, 3) if bs == "5/6" else (5, 6)
    m = fp_map(game)
    # Firepower 2.4 as in in_setup_zone, its columns and depth read once, not once a hex
    lo, hi = board_columns(game)
    depth = setup_depth(game)
    # the zone's hexes, sorted, with their labels: the board, its columns and the depth are the
    # game's for good, so they are found once a game and board side (FPD-203)
    key = (bs, lo, hi, depth)
    zones = game.stash.get(_ZONES)
    if zones is None:
        zones = game.stash[_ZONES] = {}
    labels = zones.get(key)
    if labels is None:
        cols = [(h, column_of(game, h)) for h in sorted(game.board.hexes)]
        labels = zones[key] = [m.label(h) for h, c in cols
                               if (c <= lo + depth - 1 if bs == "5/6" else c >= hi - depth + 1)]
    return [{"hex": lab, "facing": f, "posture": "stand"} for lab in labels for f in facings]


#: FPD-203: the labels of each set-up zone's hexes, by board side, columns and depth
_ZONES = StashKey[dict[tuple[str, int, int, int], list[str]]]("firepower.setup-zones")


def check_placement(game: Game, side: str, choice: Any) -> dict[str, Any]:
    """Check one soldier's placement (Firepower 2.4, Firepower 4.3, Firepower 4.4, Firepower 4.7);
    returns hex, facing, posture and the part of a fence or hedge hex."""
    if not isinstance(choice, dict):
        raise RulesError("a placement names hex, facing and posture", rule="Firepower 2.4")
    m = fp_map(game)
    try:
        h = m.parse(str(choice.get("hex")))
    except ValueError as exc:
        raise RulesError(str(exc), rule="Firepower 2.4") from None
    bs = data(game)["board_side"][side]
    if not in_setup_zone(game, bs, h):
        raise RulesError(f"{choice.get('hex')} is not within {setup_depth(game)} hexes of side "
                         f"{bs}", rule="Firepower 2.4")
    f = choice.get("facing")
    if not isinstance(f, int) or isinstance(f, bool) or not 1 <= f <= 6:
        raise RulesError("a soldier faces a hexside 1-6", rule="Firepower 4.3")
    if choice.get("posture", "stand") not in POSTURES:
        raise RulesError("posture is stand, crouch or prone", rule="Firepower 4.4")
    side_of = choice.get("side")
    pic = m.fence.get(h) or m.hedge.get(h)
    if pic is not None:
        if side_of is None:
            side_of = pic.default_side(f)
        try:
            pic.part_of(int(side_of))
        except (ValueError, TypeError) as exc:
            raise RulesError(str(exc), rule="Firepower 4.7") from None
    else:
        side_of = None
    return {"hex": h, "facing": f, "posture": choice.get("posture", "stand"), "side": side_of}


def phase_setup(game: Game) -> Gen:
    """Firepower 2.4: the low roller sets up first, anywhere within five hexes of his side, in the
    open; then the other player."""
    sides = list(game.state.sides)
    first = roll_off(game, sides, purpose="Firepower 2.4 set-up order", high_wins=False)
    order = [first, *[s for s in sides if s != first]]
    for side in order:
        for u in game.state.units_of(side):
            if u.hex is not None:
                continue

            def check(choice: Any, side: str = side) -> None:
                check_placement(game, side, choice)

            choice = yield Decision(side, "place", options=placement_options(game, side),
                                    validate=validator(check),
                                    context={"unit": u.id, "weapon": u.state.get("weapon")},
                                    prompt=f"Set up {u.id} ({u.state.get('weapon')})",
                                    rule="Firepower 2.4")
            p = check_placement(game, side, choice)
            u.hex, u.facing = p["hex"], p["facing"]
            u.state["posture"], u.state["side"] = p["posture"], p["side"]
            game.emit("placed", unit=u.id, hex=game.board.label(u.hex), facing=u.facing,
                      rule="Firepower 2.4")
