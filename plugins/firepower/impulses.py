"""The Basic Game Impulse Phase (Firepower 6.1): changes in speed and status as a sequence unit is
drawn (Firepower 6.1.1, Firepower 6.1.2) and as the Impulse Phase ends (Firepower 6.1.3), and the
two Impulses, each the Actions of soldiers in one hex (Firepower 6.1, Firepower 6.2,
Firepower 6.2.6). The Actions themselves are :mod:`hexwar.plugins.firepower.actions`.
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Iterable
from typing import TYPE_CHECKING, Any

from hexwar.core.engine.decisions import Decision
from hexwar.core.errors import RulesError
from hexwar.core.hexgrid import Hex
from hexwar.plugins.firepower.actions import (
    apply_action,
    check_action,
    legal_actions,
    note_underground,
)
from hexwar.plugins.firepower.hookspecs import FirepowerHooks
from hexwar.plugins.firepower.state import alive, data, fp_map, new_phase, side_setup, validator

if TYPE_CHECKING:
    from hexwar.core.engine.game import Game

Gen = Generator[Any, Any, None]


def start_impulse_phase(game: Game, side: str) -> None:
    """Firepower 6.1.1, Firepower 6.1.2: the phasing side's speed units and the other side's
    Suppressed units are removed."""
    for u in game.state.units.values():
        if not alive(u):
            continue
        if u.side == side:
            u.state["speed"] = "normal"
        elif u.state.get("status") == "suppressed":
            u.state["status"] = None
    data(game)["phase"] = new_phase(side)
    game.emit("impulse_phase", side=side, rule="Firepower 6.1")
    FirepowerHooks.of(game).impulse_phase_start(side)


def end_impulse_phase(game: Game, side: str) -> None:
    """Firepower 6.1.3: the phasing side's Stunned become Suppressed (docs/decisions.md FPD-10)."""
    for u in game.state.units_of(side):
        if alive(u) and u.state.get("status") == "stunned":
            u.state["status"] = "suppressed"
    data(game)["phase"] = None
    FirepowerHooks.of(game).impulse_phase_end(side)


def begin_impulse(game: Game, ids: Iterable[str]) -> None:
    """Firepower 6.1, Firepower 6.2: the soldiers of the next Impulse, each used for this Impulse
    Phase."""
    ph = data(game)["phase"]
    ph["impulse"] = int(ph["impulse"]) + 1
    ph["active"] = list(ids)
    ph["used"] = sorted(set(ph["used"]) | set(ids))
    ph["entered"] = {}
    ids = list(ids)
    under = [i for i in ids if game.state.units[i].state.get("tunnel")]
    if not under:
        game.emit("impulse", n=ph["impulse"], units=ids, rule="Firepower 6.1")
        return
    # Firepower 11.5, 8.8.8: soldiers in a tunnel act unseen: their side alone reads who they
    # are; the other sides read only that an Impulse began (docs/decisions.md FPD-137)
    side = str(ph["side"])
    for i in under:
        note_underground(ph, game.state.units[i])
    game.emit("impulse", visible_to=[side], n=ph["impulse"], units=ids, rule="Firepower 6.1")
    game.emit("impulse", visible_to=game.other_sides(side), n=ph["impulse"],
              units=[i for i in ids if i not in under], unseen=True, rule="Firepower 6.1")


def impulses_per_phase(game: Game, side: str) -> int:
    """Firepower 3.2, Firepower 6.1: two Impulses per Impulse Phase in the Basic Game."""
    return int(side_setup(game, side).get("impulses", 2))


def impulse_options(game: Game, side: str) -> list[Any]:
    """Stacks (or single soldiers of a stack) that may perform an Impulse (Firepower 6.1,
    Firepower 6.2, Firepower 6.2.6); Stunned soldiers spend no MF (Firepower 6.2.8)."""
    ph = data(game)["phase"]
    m = fp_map(game)
    stacks: dict[Hex, list[str]] = {}
    for u in game.state.units_of(side):
        if alive(u) and u.id not in ph["used"] and u.state.get("status") != "stunned":
            assert u.hex is not None
            stacks.setdefault(u.hex, []).append(u.id)
    out: list[Any] = []
    for h, ids in sorted(stacks.items()):
        out.append({"hex": m.label(h), "units": sorted(ids)})
        if len(ids) > 1:
            out.extend({"hex": m.label(h), "units": [i]} for i in sorted(ids))
    return out


def check_impulse(game: Game, side: str, choice: Any) -> list[str]:
    """Firepower 6.1, Firepower 6.2: an Impulse is the Actions of soldiers in one hex, none used
    before in this Impulse Phase; any subset of the hex's soldiers (docs/decisions.md FPD-11)."""
    ph = data(game)["phase"]
    if not isinstance(choice, dict) or not isinstance(choice.get("units"), list):
        raise RulesError("an Impulse names a hex and its soldiers", rule="Firepower 6.1")
    ids = choice["units"]
    if not all(isinstance(x, str) for x in ids) or not isinstance(choice.get("hex", ""), str):
        raise RulesError("an Impulse is {'hex': label, 'units': [soldier ids]}",
                         rule="Firepower 6.1")
    if not ids or len(set(ids)) != len(ids):
        raise RulesError("name each soldier once", rule="Firepower 6.1")
    hexes = set()
    for uid in ids:
        u = game.state.units.get(uid) if isinstance(uid, str) else None
        if u is None or u.side != side or not alive(u):
            raise RulesError(f"{uid!r} is not a soldier of {side} on the board",
                             rule="Firepower 6.1")
        if uid in ph["used"]:
            raise RulesError(f"{uid} already acted in this Impulse Phase", rule="Firepower 6.2")
        if u.state.get("status") == "stunned":
            raise RulesError(f"{uid} is Stunned and may not spend MF", rule="Firepower 6.2.8")
        hexes.add(u.hex)
    if len(hexes) != 1:
        raise RulesError("the soldiers of one Impulse are those of one hex", rule="Firepower 6.1")
    return [str(i) for i in ids]


def impulse_actions(game: Game, side: str, legal: Callable[[Game], list[Any]],
                    check: Callable[[Game, Any], Any], rule: str,
                    after: Callable[[Any, dict[str, Any]], None] | None = None) -> Gen:
    """The Actions of one Impulse (Firepower 6.2; the Advanced Game's, Firepower 11.1): ask for
    one of ``legal``'s Actions, checked by ``check``, until the side ends the Impulse or has none
    left; ``after(action, info)`` runs after each Action is applied, with what it did. The active
    soldiers are cleared at the end."""
    while True:
        options = legal(game)
        if options == ["end"]:
            break
        action = yield Decision(side, "action", options=options,
                                validate=validator(lambda ch: check(game, ch)),
                                context={"units": list(data(game)["phase"]["active"])},
                                prompt="Perform an Action, or end the Impulse", rule=rule)
        if action == "end":
            break
        info = apply_action(game, action)  # checked when answered (the decision's ``validate``)
        if after is not None:
            after(action, info)
    data(game)["phase"]["active"] = []


def run_impulse_phase(game: Game, side: str) -> Gen:
    """One Impulse Phase of ``side`` (Firepower 6.1): up to two Impulses, each a choice of
    soldiers, then their Actions until the player ends the Impulse."""
    start_impulse_phase(game, side)
    for _ in range(impulses_per_phase(game, side)):
        opts = impulse_options(game, side)
        if not opts:
            break
        choice = yield Decision(side, "impulse", options=[*opts, "pass"],
                                validate=validator(
                                    lambda ch: None if ch == "pass"
                                    else check_impulse(game, side, ch)),
                                prompt="Choose the soldiers of one hex for this Impulse, or pass",
                                rule="Firepower 6.1")
        if choice == "pass":
            break
        begin_impulse(game, check_impulse(game, side, choice))
        yield from impulse_actions(game, side, legal_actions, check_action, "Firepower 6.2")
    end_impulse_phase(game, side)
