"""MBT 7.5, Triggering Overwatch Fire: the Overwatch Fire Step, overwatch at a moving unit, and
chains of overwatch fire (docs/decisions.md MBTD-12).

In the Advanced Game an overwatch unit may fire its missile instead of its gun (MBT 13.3 OW,
14.1.4.3; docs/decisions.md MBTD-121): the shot names the ammunition ``"ATGM"``. It is announced
with the gun shots at the same target; at a target that is not moving nor going to move it is
resolved at once (MBT 14.2.2.1), otherwise it races the target's move from the initial hex
(MBT 14.2.2.2.2: where the target started the Turn for a shot of the Overwatch Fire Step, where
it was when the overwatch was triggered for a shot during its move).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from hexwar.core.engine.decisions import Decision
from hexwar.core.engine.primitives import alternate
from hexwar.core.engine.state import Unit
from hexwar.plugins.mbt.fire import (
    commit_pending,
    declaration_options,
    declaration_validator,
    fire_error,
    fire_group,
    known_to,
    mark_fired,
    resolve_shot,
    shots_error,
    unseen_target,
)
from hexwar.plugins.mbt.hookspecs import MbtHooks
from hexwar.plugins.mbt.initiative import side_order
from hexwar.plugins.mbt.orders import seen_by
from hexwar.plugins.mbt.state import MOVING_ORDERS, Step, alive, card_of, data, enemy_of

if TYPE_CHECKING:
    from hexwar.core.engine.game import Game


def overwatch_fire_phase(game: Game) -> Step:
    """MBT 3.3.3, 7.5.1: OW units fire at enemies that fired this Turn (including earlier in this
    step, so one shot can set off another); simultaneous (MBT 5.3)."""
    game.defer("MBT 5.3 Overwatch Fire Step results", lambda: commit_pending(game))
    declared: set[str] = set()

    def act(side: str) -> Step:
        targets = [e for e in game.state.units_of(enemy_of(side)) if alive(e) and e.state.get("fired")]
        options = ow_options(game, side, targets, declared=declared)
        if not options:
            return False
        choice = yield Decision(
            side, "mbt.fire", options=["pass", *options], rule="MBT 7.5.1",
            validate=ow_validator(game, side, targets={t.id for t in targets}, declared=declared),
            context={"step": "overwatch"}, prompt="Overwatch fire at a unit that fired, or pass")
        if choice == "pass":
            return False
        declared.add(choice["target"])
        yield from ow_fire_group(game, side, choice, simultaneous=True)
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
    options = ow_options(game, watcher, [mover], moving_target=True)
    if not options:
        return False
    choice = yield Decision(
        watcher, "mbt.overwatch", options=["pass", *options], rule="MBT 7.5.2",
        validate=ow_validator(game, watcher, moving_target=True, targets={mover.id}),
        context={"mover": mover.id, "hex": game.board.label(mover.hex)},
        prompt=f"Stop {mover.id} in {game.board.label(mover.hex)} with overwatch fire, or pass")
    if choice == "pass":
        return False
    data(game).setdefault("ow_declared", []).append(hex_key)
    shooters = yield from ow_fire_group(game, watcher, choice, simultaneous=False,
                                        target_moving=True)
    yield from overwatch_chain(game, mover.side, shooters)
    return True


def overwatch_chain(game: Game, side: str, targets: list[str]) -> Step:
    """MBT 7.5.3: units that just fired overwatch may be fired at by enemy overwatch units, and so
    on, until nobody fires; the whole chain ends before the mover continues."""
    declared: set[str] = set()
    while targets:
        tu = [game.state.units[t] for t in targets if alive(game.state.units[t])]
        options = ow_options(game, side, tu, declared=declared)
        if not options:
            return
        choice = yield Decision(
            side, "mbt.overwatch", options=["pass", *options], rule="MBT 7.5.3",
            validate=ow_validator(game, side, targets={t.id for t in tu}, declared=declared),
            context={"chain": targets}, prompt="Overwatch fire at a unit that just fired, or pass")
        if choice == "pass":
            return
        declared.add(choice["target"])
        shooters = yield from ow_fire_group(game, side, choice, simultaneous=False)
        side, targets = enemy_of(side), shooters


# -- MBT 13.3, 14.1.4.3: overwatch fire with missiles (Advanced Game) -----------------------------

MISSILE = "ATGM"  # the ammunition a missile shot names (the missiles' one line, MBT 7.4.1.2)


def missiles_on_overwatch(game: Game) -> bool:
    """MBT 13.3 OW: the Advanced Game lets overwatch units fire missiles (MBT 6.2.4: the Basic
    Game, main guns only)."""
    return "mbt.advanced" in game.rules_enabled


def is_missile_shot(game: Game, f: Unit, ammo: str) -> bool:
    """A ``[FIRER, "ATGM"]`` shot fires the missile, unless the gun itself has such a line."""
    gun = card_of(game, f).main_gun
    return ammo == MISSILE and (gun is None or MISSILE not in gun.ammo)


def missile_error(game: Game, f: Unit, t: Unit, *, moving_target: bool = False) -> str | None:
    """Why ``f`` may not fire its missile at ``t`` as overwatch fire now (None if it may)."""
    if not missiles_on_overwatch(game):
        return (f"{f.id}: in the Basic Game only main guns fire with OW orders; missiles need "
                "ATGM orders (MBT 6.2.4)")
    if not card_of(game, f).missiles:
        return f"{f.id} has no missile (MBT 14.1.4.3)"
    if f.state.get("order") == "OW" and f.state.get("fired"):
        # MBT 13.3: the gun or the missile, not both; MBT 7.5.1: once a Turn
        return (f"{f.id} has already fired this Turn: an overwatch unit fires its gun or its "
                "missile, once (MBT 13.3, 7.5.1)")
    return fire_error(game, f, t, MISSILE, orders=("OW",), overwatch=True,
                      moving_target=moving_target, missile=True)


def ow_options(game: Game, side: str, targets: list[Unit], *, moving_target: bool = False,
               declared: set[str] | None = None) -> list[Any]:
    """The overwatch declarations ``side`` may make at ``targets``: the gun shots (MBT 7.5) and,
    in the Advanced Game, each missile shot (MBT 13.3, 14.1.4.3; a doctrine organization's
    members together, MBT 13.4.3.2)."""
    from hexwar.plugins.mbt.sighting import one_moment

    with one_moment(game):
        return _ow_options(game, side, targets, moving_target=moving_target, declared=declared)


def _ow_options(game: Game, side: str, targets: list[Unit], *, moving_target: bool,
                declared: set[str] | None) -> list[Any]:
    options = declaration_options(game, side, targets, orders=("OW",), overwatch=True,
                                  moving_target=moving_target, declared=declared)
    if not missiles_on_overwatch(game):
        return options
    extra: list[Any] = []
    firers = [f for f in game.state.units_of(side)
              if f.state.get("order") == "OW" and not f.state.get("fired")
              and card_of(game, f).missiles]
    for t in targets:
        if (declared and t.id in declared) or not alive(t):
            continue
        extra += [{"target": t.id, "shots": [[f.id, MISSILE]]} for f in firers
                  if missile_error(game, f, t, moving_target=moving_target) is None]
    if extra:
        extra = MbtHooks.of(game).fire_options(side, extra)
    return [*options, *extra]


def ow_validator(game: Game, side: str, *, targets: set[str], moving_target: bool = False,
                 declared: set[str] | None = None) -> Any:
    """The gun validator of MBT 7.3.2, and for a declaration with missile shots the same checks
    with :func:`missile_error` for those (every refusal names its rule; nothing changes)."""
    guns = declaration_validator(game, side, orders=("OW",), overwatch=True,
                                 moving_target=moving_target, targets=targets, declared=declared)

    def validate(choice: Any) -> str | None:
        shots = choice.get("shots") if isinstance(choice, dict) else None
        if not isinstance(shots, list) or not any(
                isinstance(s, list) and len(s) == 2 and s[1] == MISSILE
                and s[0] in game.state.units and is_missile_shot(game, game.state.units[s[0]],
                                                                 MISSILE) for s in shots):
            err: str | None = guns(choice)
            return err
        if set(choice) != {"target", "shots"}:
            return 'a declaration is {"target": ID, "shots": [[FIRER, AMMO], ...]} or "pass"'
        tid = choice["target"]
        if not isinstance(tid, str) or tid not in game.state.units or tid not in known_to(
                game, side):
            return unseen_target(str(tid))
        if tid not in targets:
            return f"{tid} is not a target that can be fired at in this step"
        if declared and tid in declared:
            return f"{tid} has already been fired at in this step (MBT 7.3.2)"
        t = game.state.units[tid]

        def firer_error(f: Unit, ammo: str) -> str | None:
            if is_missile_shot(game, f, ammo):
                return missile_error(game, f, t, moving_target=moving_target)
            return fire_error(game, f, t, ammo, orders=("OW",), overwatch=True,
                              moving_target=moving_target)

        err = shots_error(game, side, shots, firer_error)
        if err:
            return err
        named = {str(fid) for fid, _a in shots}
        launchers = {str(fid) for fid, a in shots if is_missile_shot(game, game.state.units[fid], a)}
        for fid, ammo in shots:  # MBT 14.1.4.3: its missile, or its guns (machineguns too)
            if fid in launchers and not is_missile_shot(game, game.state.units[fid], ammo):
                return f"{fid} fires its missile or its guns on overwatch, not both (MBT 14.1.4.3)"
        for fid, ammo in shots:
            f = game.state.units[fid]
            if not is_missile_shot(game, f, ammo):
                continue
            from hexwar.plugins.mbt import doctrine

            for m in doctrine.members(game, f):  # MBT 13.4.3.2: the members fire together
                if m.id not in named and missile_error(game, m, t,
                                                       moving_target=moving_target) is None:
                    return (f"doctrine organization {f.state.get('doctrine')}: {m.id} fires its "
                            f"missile with {fid}, at the same target (MBT 13.4.3.2)")
        gun_shots = [s for s in shots if not is_missile_shot(game, game.state.units[s[0]], s[1])]
        if gun_shots:
            return MbtHooks.of(game).fire_error(side, {"target": tid, "shots": gun_shots})
        return None

    return validate


def ow_fire_group(game: Game, side: str, choice: dict[str, Any], *, simultaneous: bool,
                  target_moving: bool | None = None) -> Step:
    """MBT 7.5.2, 7.3.2: every overwatch shot at the target is announced first (the missile
    firers are marked FIRED with the gun firers); the gun shots resolve now; a missile at a
    target that is not moving nor going to move resolves now too (MBT 14.2.2.1), one at a mover
    waits for its move and races it from the initial hex, the target's hex now (MBT 14.2.2.2.2).
    Returns the firers (for a chain of overwatch fire, MBT 7.5.3)."""
    from hexwar.plugins.mbt.advanced_fire import going_to_move

    t = game.state.units[choice["target"]]
    missiles = [game.state.units[fid] for fid, a in choice["shots"]
                if is_missile_shot(game, game.state.units[fid], str(a))]
    if not missiles:
        got: list[str] = yield from fire_group(game, side, choice, overwatch=True,
                                               simultaneous=simultaneous,
                                               target_moving=target_moving)
        return got
    assert t.hex is not None
    initial = game.board.label(t.hex)
    for f in missiles:
        mark_fired(game, f)
        game.emit("atgm_announced", visible_to=seen_by(game, [f]), firer=f.id, target=t.id,
                  overwatch=True, rule="MBT 13.3")
    ids = {f.id for f in missiles}
    guns = [s for s in choice["shots"] if s[0] not in ids]
    shooters = [f.id for f in missiles]
    if guns:
        shooters += yield from fire_group(game, side, {"target": t.id, "shots": guns},
                                          overwatch=True, simultaneous=simultaneous,
                                          target_moving=target_moving)
    moving = bool(target_moving) or (t.state.get("order") in MOVING_ORDERS and going_to_move(t))
    for f in missiles:
        if moving and alive(t):
            data(game)["atgm"].append({"firer": f.id, "target": t.id, "initial": initial,
                                       "overwatch": True})  # MBT 14.2.2.2.2
        else:
            yield from resolve_shot(game, f, t, MISSILE, overwatch=True,
                                    simultaneous=simultaneous, missile=True)
    return shooters
