"""MBT 7.5, Triggering Overwatch Fire: the Overwatch Fire Step, overwatch at a moving unit, and
chains of overwatch fire (docs/decisions.md MBTD-12)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from hexwar.core.engine.decisions import Decision
from hexwar.core.engine.primitives import alternate
from hexwar.core.engine.state import Unit
from hexwar.plugins.mbt.fire import (
    commit_pending,
    declaration_options,
    declaration_validator,
    fire_group,
)
from hexwar.plugins.mbt.initiative import side_order
from hexwar.plugins.mbt.state import Step, alive, data, enemy_of

if TYPE_CHECKING:
    from hexwar.core.engine.game import Game


def overwatch_fire_phase(game: Game) -> Step:
    """MBT 3.3.3, 7.5.1: OW units fire at enemies that fired this Turn (including earlier in this
    step, so one shot can set off another); simultaneous (MBT 5.3)."""
    game.defer("MBT 5.3 Overwatch Fire Step results", lambda: commit_pending(game))
    declared: set[str] = set()

    def act(side: str) -> Step:
        targets = [e for e in game.state.units_of(enemy_of(side)) if alive(e) and e.state.get("fired")]
        options = declaration_options(game, side, targets, orders=("OW",), overwatch=True,
                                      declared=declared)
        if not options:
            return False
        choice = yield Decision(
            side, "mbt.fire", options=["pass", *options], rule="MBT 7.5.1",
            validate=declaration_validator(game, side, orders=("OW",), overwatch=True,
                                           targets={t.id for t in targets}, declared=declared),
            context={"step": "overwatch"}, prompt="Overwatch fire at a unit that fired, or pass")
        if choice == "pass":
            return False
        declared.add(choice["target"])
        yield from fire_group(game, side, choice, overwatch=True, simultaneous=True)
        return True

    yield from alternate(game, side_order(game), act)


def ow_targets_declared(game: Game) -> set[str]:
    """MBT 7.5.2: mover-and-hex pairs already fired at (one declaration per unit per hex)."""
    return set(data(game).setdefault("ow_declared", []))


def overwatch_window(game: Game, mover: Unit) -> Step:
    """MBT 7.5.2: the watching side may stop the mover in its hex and fire overwatch at it (all such
    fire at that unit in that hex declared together). Returns True if anyone fired."""
    watcher = enemy_of(mover.side)
    assert mover.hex is not None
    hex_key = f"{mover.id}@{game.board.label(mover.hex)}"
    done = ow_targets_declared(game)
    if hex_key in done:
        return False
    options = declaration_options(game, watcher, [mover], orders=("OW",), overwatch=True,
                                  moving_target=True)
    if not options:
        return False
    choice = yield Decision(
        watcher, "mbt.overwatch", options=["pass", *options], rule="MBT 7.5.2",
        validate=declaration_validator(game, watcher, orders=("OW",), overwatch=True,
                                       moving_target=True, targets={mover.id}),
        context={"mover": mover.id, "hex": game.board.label(mover.hex)},
        prompt=f"Stop {mover.id} in {game.board.label(mover.hex)} with overwatch fire, or pass")
    if choice == "pass":
        return False
    data(game).setdefault("ow_declared", []).append(hex_key)
    shooters = yield from fire_group(game, watcher, choice, overwatch=True, simultaneous=False,
                          target_moving=True)
    yield from overwatch_chain(game, mover.side, shooters)
    return True


def overwatch_chain(game: Game, side: str, targets: list[str]) -> Step:
    """MBT 7.5.3: units that just fired overwatch may be fired at by enemy overwatch units, and so
    on, until nobody fires; the whole chain ends before the mover continues."""
    declared: set[str] = set()
    while targets:
        tu = [game.state.units[t] for t in targets if alive(game.state.units[t])]
        options = declaration_options(game, side, tu, orders=("OW",), overwatch=True,
                                      declared=declared)
        if not options:
            return
        choice = yield Decision(
            side, "mbt.overwatch", options=["pass", *options], rule="MBT 7.5.3",
            validate=declaration_validator(game, side, orders=("OW",), overwatch=True,
                                           targets={t.id for t in tu}, declared=declared),
            context={"chain": targets}, prompt="Overwatch fire at a unit that just fired, or pass")
        if choice == "pass":
            return
        declared.add(choice["target"])
        shooters = yield from fire_group(game, side, choice, overwatch=True, simultaneous=False)
        side, targets = enemy_of(side), shooters
