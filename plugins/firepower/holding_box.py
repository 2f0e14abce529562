"""The Holding Box Cards (Firepower 8.4, Firepower 8.8.1): where the soldiers "in" a defensive
position are kept, as game state a side reads.

A side that uses defensive units with room for soldiers in them (foxholes, trenches, bunkers,
pillboxes, towers) takes a Holding Box Card (Firepower 8.4; the vehicles' boxes are the optional
rules', not built). Each such unit on the board has a numbered box on the card: the scenario's
``box = n`` of the entry in ``special.defenses``, or else the next free number in the order the
units are listed (docs/decisions.md FPD-168). A soldier "in" the position (``state.in_defence``,
put there by the ``position`` Action, Firepower 8.8.1) is in its box, with his facing by the
card's direction 1 (the board's) and his posture. A box's soldiers are a part of the board
everyone sees: the card lies by the mapboard (Firepower 8.4). What stays hidden stays hidden:
the other side's soldiers in tunnels are never on it (Firepower 8.8.8, tunnels have no box) and
the other side reads no soldier's equipment there (Firepower 8.5, FPD-109).

:func:`cards` builds the cards for one side's view (``None``: the umpire's, everything);
``hexwar_describe_state`` shows them as ``holding_boxes``. :func:`check_boxes` refuses bad box
numbers before play, naming the rule.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from hexwar.core.errors import RulesError

if TYPE_CHECKING:
    from hexwar.core.engine.game import Game
    from hexwar.core.hexgrid import Hex

RULE = "Firepower 8.4"


def box_numbers(game: Game) -> dict[Hex, int]:
    """The box number of each defensive unit with room for soldiers (Firepower 8.8.1), by hex;
    raises RulesError for a box number given twice or not a positive whole number."""
    from hexwar.plugins.firepower.defenses import POSITIONS, _specs, types

    known = types()
    specs = _specs(game)
    wanted: list[tuple[int, Hex, int | None]] = []
    for i, spec in enumerate(specs):
        if not isinstance(spec, dict):
            continue
        t = known.get(str(spec.get("type")))
        if t is None or t.kind not in POSITIONS:
            if isinstance(spec, dict) and "box" in spec:
                raise RulesError(f"special.defenses[{i}]: only a foxhole, trench, bunker, "
                                 f"pillbox or tower has a box on the Holding Box Card",
                                 rule=RULE)
            continue
        try:
            h = game.board.parse(str(spec.get("hex")))
        except Exception:  # the defensive units' own check names the bad label
            continue
        n = spec.get("box")
        if n is not None and (not isinstance(n, int) or isinstance(n, bool) or n < 1):
            raise RulesError(f"special.defenses[{i}]: a box number is a whole number from 1, "
                             f"not {n!r}", rule=RULE)
        wanted.append((i, h, n))
    out: dict[Hex, int] = {}
    used: dict[int, int] = {}
    for i, h, n in wanted:
        if n is None:
            continue
        if n in used:
            raise RulesError(f"special.defenses[{i}]: box {n} is special.defenses[{used[n]}]'s "
                             "already: one position a box", rule=RULE)
        used[n] = i
        out[h] = n
    nxt = 1
    for i, h, n in wanted:
        if n is not None:
            continue
        while nxt in used:
            nxt += 1
        used[nxt] = i
        out[h] = nxt
    return out


def check_boxes(game: Game) -> None:
    """Before play: the box numbers are good (raises RulesError naming Firepower 8.4)."""
    box_numbers(game)


def takes_card(game: Game, side: str) -> bool:
    """Firepower 8.4: the side uses defensive units with boxes: it set them up (the defender) or
    has a soldier in one."""
    from hexwar.plugins.firepower.defenses import in_defence

    if not box_numbers(game):
        return False
    special = game.scenario.raw.get("special") or {}
    attacker = special.get("attacker") if isinstance(special, dict) else None
    if attacker is not None and side != attacker:
        return True
    return any(in_defence(u) and u.side == side for u in game.state.units.values()
               if not u.state.get("eliminated"))


def cards(game: Game, side: str | None) -> dict[str, Any]:
    """The Holding Box Cards as ``side`` reads them: ``{"taken_by": [...], "boxes": {n: {"hex",
    "type", "soldiers": [{"id", "side", "facing", "posture", "equipment"?}]}}}``; empty when no
    position on the board has a box."""
    from hexwar.plugins.firepower.defenses import defences, in_defence

    numbers = box_numbers(game)
    if not numbers:
        return {}
    ds = defences(game)
    boxes: dict[str, Any] = {}
    for h, n in sorted(numbers.items(), key=lambda x: x[1]):
        d = ds.get(h)
        if d is None:  # destroyed by fire (Firepower 12.3.4.2): its box is empty and gone
            continue
        inside = []
        for u in sorted(game.state.units.values(), key=lambda x: x.id):
            if u.hex != h or not in_defence(u) or u.state.get("eliminated"):
                continue
            if u.state.get("tunnel") and side is not None and u.side != side:
                continue  # Firepower 8.8.8: never shown to the other side
            rec: dict[str, Any] = {"id": u.id, "side": u.side, "facing": u.facing,
                                   "posture": str(u.state.get("posture", "stand"))}
            if (side is None or u.side == side) and "equipment" in u.state:
                rec["equipment"] = dict(u.state["equipment"])  # FPD-109: his own side's paper
            inside.append(rec)
        boxes[str(n)] = {"hex": game.board.label(h), "type": d.code, "soldiers": inside}
    taken = [s for s in sorted(game.scenario.sides) if takes_card(game, s)]
    return {"taken_by": taken, "boxes": boxes}
