"""MBT 12.4.2, 14.4.3.3, 14.4.4.2.3.5: GP point effect fire at terrain (Advanced Game).

In the Direct Fire Step a unit with F or FM orders may fire GP at a hex's terrain instead of at a
unit: ``{"hex": LABEL, "at": KIND, "shots": [[FIRER, "GP"], ...]}`` (the options also carry
``"target": None``; docs/decisions.md MBTD-92); a vehicle's independent machinegun fires as
``[FIRER, "HMG TTC/GP"]`` (MBT 14.1.2, 14.4.3.3.1: a GP weapon that is not small arms; MBTD-148).

* what may be fired at: block and wire markers (the data holds the temporary bridge's too, for
  when option 22.0 places them), each with a GP defense factor that does not depend on the hex
  (MBT 14.4.3.3.1,
  ``data/advanced/terrain_gp_defense.csv``: block and wire are stand-ins, the temporary bridge's 7
  is MBT 22.5); ditch, hasty entrenchment and improved position markers are refused
  (MBT 12.4.2), and so are building hexes and printed bridges, which only artillery, bombs and
  assault infantry destroy (MBT 14.4.3.3.2: options this game does not have yet);
* who may fire: a weapon with a GP line at that range (MBT 14.4.1) that is not small arms
  (MBT 14.4.3.3.1), seeing the hex (a clear line of sight, MBT 13.2.1) in its arc (MBT 7.2.1): the
  main gun, or a machinegun under the rules of MBT 14.1.2-14.1.2.3 (with the main gun in the step,
  open if its location ends in "O", not with a crew loss beside the main gun, none if suppressed);
* the roll: the GP COMBAT RESULTS TABLE (MBT 14.4.4.1) with the general modifiers of
  MBT 14.4.2.1 that have a meaning against terrain (crew losses, firer suppressed, transported
  firer, smoke on the line, firer grade by range; no acquisition bonus, which counts Turns against
  the same target unit) and none of the vehicle modifiers of MBT 14.4.2.2;
* the result: no effect and suppressed do nothing (MBT 14.4.4.2.2.3); effective destroys the
  terrain (MBT 14.4.4.2.3.5, 14.4.3.3.3): the marker leaves the map and every ground unit in the
  hex is suppressed, at the end of the step like every result of it (MBT 5.3);
* a destroyed building hex (:func:`destroy_building`, for the artillery, bombs and assault
  infantry of MBT 14.4.3.3.2) gets a block marker that is never removed, and every ground unit in
  it is eliminated (MBT 14.4.3.3.3; MBTD-93).
"""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING, Any

from hexwar.core.engine.state import Unit
from hexwar.core.hexgrid import in_arc
from hexwar.core.tables import TableSet
from hexwar.plugins.mbt.advanced_tables import ADVANCED, load_advanced
from hexwar.plugins.mbt.gp_fire import FIRING_MOVE, GP, GpSituation, gp_factor, modifiers_of
from hexwar.plugins.mbt.grade import grade_of
from hexwar.plugins.mbt.markers import markers
from hexwar.plugins.mbt.orders import seen_by
from hexwar.plugins.mbt.smoke import covered, smoke_hexes_on_line
from hexwar.plugins.mbt.state import alive, card_of, data
from hexwar.plugins.mbt.suppression import suppress, suppressed

if TYPE_CHECKING:
    from hexwar.core.engine.game import Game
    from hexwar.core.hexgrid import Hex

#: MBT 12.4.2: terrain markers that cannot be destroyed (and so not fired at)
INDESTRUCTIBLE = ("ditch", "hasty_entrenchment", "improved_position")


@cache
def terrain_defense() -> dict[str, tuple[int, str]]:
    """MBT 14.4.3.3.1: marker kind -> (GP defense factor, source)."""
    table = TableSet.load_dir(str(ADVANCED))["terrain_gp_defense"]
    return {str(r.keys[0]): (int(c.value), c.source) for r, _c, c in table.cells()}


def is_terrain_choice(choice: Any) -> bool:
    return isinstance(choice, dict) and "hex" in choice


def is_terrain_name(name: str) -> bool:
    """A table-side target that names terrain rather than a card (``hexwar mbt fire``)."""
    return name in terrain_defense() or name in INDESTRUCTIBLE or name in ("building", "bridge")


def kind_error(at: str) -> str | None:
    """Why terrain of kind ``at`` may not be fired at, wherever it is (None: it may)."""
    if at in INDESTRUCTIBLE:
        return f"a {at.replace('_', ' ')} marker cannot be destroyed or fired at (MBT 12.4.2)"
    if at in ("building", "bridge"):
        return (f"a {at} hex is destroyed only by artillery, bombs or assault infantry, not by "
                "direct GP fire (MBT 14.4.3.3.2)")
    if at not in terrain_defense():
        return f"{at!r} is not terrain with a GP defense factor (MBT 12.4.2, 14.4.3.3)"
    return None


def target_error(game: Game, label: Any, at: Any) -> str | None:
    """Why the terrain ``at`` in hex ``label`` may not be fired at (None: it may)."""
    if not isinstance(label, str) or not isinstance(at, str):
        return 'a shot at terrain is {"hex": LABEL, "at": KIND, "shots": [[FIRER, "GP"], ...]}'
    try:
        h = game.board.parse(label)
    except ValueError as exc:
        return f"hex {label!r}: {exc}"
    if h not in game.board.hexes:
        return f"{label} is not on the map"
    err = kind_error(at)
    if err:
        return err
    if markers(game).get(game.board.label(h)) != at:
        return f"there is no {at.replace('_', ' ')} marker in {label} (MBT 12.4.2)"
    if game.board.label(h) in data(game).get("permanent_blocks", []):
        return f"the block in {label} marks a destroyed building and is never removed (MBT 14.4.3.3.3)"
    return None


def _sees_hex(game: Game, f: Unit, h: Hex) -> bool:
    from hexwar.plugins.mbt.advanced_sighting import hex_heights, line_of_sight, unit_height

    assert f.hex is not None
    return line_of_sight(game, f.hex, unit_height(game, f), h, hex_heights(game, h)[0]).clear


def shot_weapon(game: Game, f: Unit, ammo: str) -> str | None:
    """The weapon a shot at terrain fires: ``GP`` is the main gun's, ``NAME/GP`` a vehicle's
    independent machinegun's (MBT 14.1.2); None: neither."""
    from hexwar.plugins.mbt.machineguns import split

    card = card_of(game, f)
    if ammo == GP:
        return card.main_gun.name if card.main_gun is not None else None
    m = split(card, ammo)
    return m.name if m is not None else None


def _mg_ready_error(game: Game, f: Unit, ammo: str, orders: tuple[str, ...]) -> str | None:
    """MBT 14.1.2-14.1.2.3, 12.3.2: why ``f`` may not fire the machinegun ``ammo`` names now."""
    from hexwar.plugins.mbt.machineguns import fired_error, split, use_error

    m = split(card_of(game, f), ammo)
    assert m is not None
    if not alive(f) or f.hex is None:
        return f"{f.id} is not on the map"
    if f.state.get("order") not in orders:
        return f"{f.id} has no {'/'.join(orders)} orders to fire in this step (MBT 7.1.1)"
    if f.state.get("fired"):
        err = fired_error(game, f, ammo, False)
        if err:
            return err
    return use_error(game, f, m)


def firer_error(game: Game, f: Unit, h: Hex, ammo: str, orders: tuple[str, ...]) -> str | None:
    """Why ``f`` may not fire ``ammo`` at the terrain of hex ``h`` in this step: ``GP`` with its
    main gun or ``NAME/GP`` with an independent machinegun (MBT 14.1.2, MBTD-148)."""
    from hexwar.plugins.mbt.alternate_ammo import gun_ready_error
    from hexwar.plugins.mbt.fire import weapon_arc
    from hexwar.plugins.mbt.gp_fire import small_arms

    name = shot_weapon(game, f, ammo) if ammo != GP else None
    if ammo != GP and name is None:
        return f"terrain is fired at with GP point effect fire only, not {ammo} (MBT 12.4.2)"
    if name is not None:
        err = _mg_ready_error(game, f, ammo, orders)
    else:
        err = gun_ready_error(game, f, orders, f"{f.id} has no {'/'.join(orders)} orders to fire "
                                               "in this step (MBT 7.1.1)")
    if err:
        return err
    assert f.hex is not None
    if name is None:
        main = card_of(game, f).main_gun
        if main is None:
            return f"{f.id} has no gun to fire GP"
        name = main.name
    if small_arms(game, f, name):
        return f"{f.id}'s {name} is small arms and cannot fire at terrain (MBT 14.4.3.3.1)"
    rng = f.hex.distance(h)
    moving = f.state.get("order") in FIRING_MOVE
    if rng == 0 or gp_factor(game, f, name, rng, moving) is None:
        return (f"the {name} has no GP {'MV' if moving else 'NM'} factor at range {rng} "
                "(MBT 14.4.1)")
    if not _sees_hex(game, f, h):
        return f"{f.id} has no line of sight to {game.board.label(h)} (MBT 13.2.1)"
    arc, facing = weapon_arc(game, f, name)
    if not in_arc(f.hex, facing, h, arc):
        return f"{game.board.label(h)} is outside {f.id}'s {name} firing arc (MBT 7.2.1)"
    return None


def options(game: Game, side: str, orders: tuple[str, ...],
            declared: set[str]) -> list[dict[str, Any]]:
    """One single-shot declaration per firer, weapon (its main gun, each of its machineguns: MBT
    14.1.2) and destructible marker it can fire at."""
    from hexwar.plugins.mbt.machineguns import shot_ammo

    out: list[dict[str, Any]] = []
    permanent = set(data(game).get("permanent_blocks", []))
    for label, kind in sorted(markers(game).items()):
        if kind not in terrain_defense() or f"hex:{label}" in declared or label in permanent:
            continue
        h = game.board.parse(label)
        for f in game.state.units_of(side):
            for ammo in (GP, *shot_ammo(game, f)):
                if firer_error(game, f, h, ammo, orders) is None:
                    # "target": None keeps the shape of a declaration at a unit for the code
                    # that reads every option (the AI skips it: no unit of the enemy is None)
                    out.append({"target": None, "hex": label, "at": kind,
                                "shots": [[f.id, ammo]]})
    return out


def choice_error(game: Game, side: str, choice: Any, orders: tuple[str, ...],
                 declared: set[str]) -> str | None:
    """Why a declaration of fire at terrain is refused (the state is not touched)."""
    if set(choice) - {"target"} != {"hex", "at", "shots"} or choice.get("target") is not None:
        return 'a shot at terrain is {"hex": LABEL, "at": KIND, "shots": [[FIRER, "GP"], ...]}'
    err = target_error(game, choice["hex"], choice["at"])
    if err:
        return err
    h = game.board.parse(choice["hex"])
    if f"hex:{game.board.label(h)}" in declared:
        return f"{choice['hex']} has already been fired at in this step (MBT 7.3.2)"
    from hexwar.plugins.mbt.fire import shots_error
    from hexwar.plugins.mbt.machineguns import declaration_error

    err = shots_error(game, side, choice["shots"],
                      lambda f, ammo: firer_error(game, f, h, ammo, orders))
    return err or declaration_error(game, choice)  # MBT 14.1.2.3: crew loss, gun or MGs


def situation(game: Game, f: Unit, h: Hex, weapon: str | None = None) -> GpSituation:
    """MBT 14.4.2.1, 14.4.2.4: the modifiers that apply to a shot at terrain by ``weapon`` (the
    main gun unless named); a thermal imager ignores the smoke markers out to 20 hexes
    (MBT 14.3.2 (T), as in GP fire at units)."""
    from hexwar.plugins.mbt.advanced_fire import THERMAL_RANGE
    from hexwar.plugins.mbt.advanced_sighting import hex_heights, unit_height, weapon_sights
    from hexwar.plugins.mbt.fire import brewup_hexes

    assert f.hex is not None
    name = weapon or shot_weapon(game, f, GP)
    markers_on_line = smoke_hexes_on_line(game, f.hex, h, unit_height(game, f),
                                          hex_heights(game, h)[0])
    if name is not None and "T" in weapon_sights(game, f, name) \
            and f.hex.distance(h) <= THERMAL_RANGE:
        markers_on_line = 0
    return GpSituation(
        range=f.hex.distance(h), crew_losses=int(f.state.get("crew_losses", 0)),
        suppressed=suppressed(f), transported=bool(f.state.get("mounted")),
        brewup=brewup_hexes(game, f.hex, h),
        # MBT 12.1.4, 12.6: smoke between counts only where the line runs through it, from the
        # firer to the marker on the hex's ground (the heights of the other fire; MBTD-135)
        other_smoke=markers_on_line + (1 if covered(game, f) else 0),
        target_vehicle=False, grade=grade_of(f))


def resolve(game: Game, f: Unit, label: str, kind: str, ammo: str = GP) -> str:
    """MBT 14.4.4.1 one GP shot at a terrain marker, by the main gun (``GP``) or a machinegun
    (``NAME/GP``, MBT 14.1.2); the result N, S or EF."""
    from hexwar.plugins.mbt.gp_fire import outcome

    h = game.board.parse(label)
    weapon = shot_weapon(game, f, ammo)
    mg = ammo != GP
    assert weapon is not None and f.hex is not None
    rng = f.hex.distance(h)
    factor = gp_factor(game, f, weapon, rng, f.state.get("order") in FIRING_MOVE)
    assert factor is not None
    defense, dsource = terrain_defense()[kind]
    mods = modifiers_of(situation(game, f, h, weapon))
    net = int(sum(m.value for m in mods))
    n, s, source = load_advanced().gp_thresholds(factor, defense)
    roll = game.dice.d100(f"GP fire at terrain (GP {factor} vs {defense})")
    result = outcome(roll + net, n, s)
    game.report(
        "GP point effect fire at terrain",
        # MBT 6.1: only the sides that see the firer hear who fired and from how far
        visible_to=seen_by(game, [f]),
        result={"result": result, "effects": ["destroyed"] if result == "EF" else []},
        modifiers=mods, rules=["MBT 12.4.2", *(["MBT 14.1.2"] if mg else []), "MBT 14.4.4.1",
                               "MBT 14.4.4.2.2.3", "MBT 14.4.4.2.3.5"],
        firer=f.id, hex=label, at=kind, weapon=weapon, ammo=GP, range=rng, gp_factor=factor,
        gp_defense=defense, defense_source=dsource, net=net, roll=roll, modified=roll + net,
        n=n, s=s, crt_source=source)
    return result


def destroy(game: Game, label: str, kind: str) -> None:
    """MBT 14.4.3.3.3: the marker leaves the map and every ground unit in its hex is
    suppressed."""
    if markers(game).get(label) != kind:
        return  # already gone (two shots at it in one step)
    del markers(game)[label]
    h = game.board.parse(label)
    inside = [u for u in game.state.units.values() if u.hex == h and alive(u)]
    for u in inside:
        suppress(game, u, "MBT 14.4.3.3.3")
    # the marker's going is public; the units it suppresses are told by their own events, each
    # to the sides that see that unit (MBT 6.1)
    game.emit("terrain_destroyed", hex=label, kind=kind, rule="MBT 14.4.4.2.3.5")


def destroy_building(game: Game, label: str, rule: str) -> None:
    """MBT 14.4.3.3.3: a destroyed building hex gets a block marker that can never be removed,
    and every ground unit in it is eliminated (vehicles leave no wreck). Only artillery, bombs and
    assault infantry destroy buildings (MBT 14.4.3.3.2), which call this with their rule; the
    hex keeps its printed building terrain under the block (docs/decisions.md MBTD-93)."""
    from hexwar.plugins.mbt.advanced_fire import eliminate

    h = game.board.parse(label)
    label = game.board.label(h)
    inside = [u for u in game.state.units.values() if u.hex == h and alive(u)]
    for u in inside:
        eliminate(game, u, "MBT 14.4.3.3.3")
    markers(game)[label] = "block"
    permanent = data(game).setdefault("permanent_blocks", [])
    if label not in permanent:
        permanent.append(label)
    game.emit("terrain_destroyed", hex=label, kind="building", eliminated=[u.id for u in inside],
              rule=rule)


def fire_at_terrain(game: Game, side: str, choice: dict[str, Any]) -> None:
    """MBT 7.3.2 every firer is declared first; the results wait for the end of the step
    (MBT 5.3)."""
    from hexwar.plugins.mbt.fire import mark_fired
    from hexwar.plugins.mbt.machineguns import note_fired

    label = game.board.label(game.board.parse(choice["hex"]))
    kind = str(choice["at"])
    pairs = [(game.state.units[fid], str(ammo)) for fid, ammo in choice["shots"]]
    shots = [f for f, _a in pairs]
    game.emit("declared", visible_to=seen_by(game, shots), side=side, hex=label, at=kind,
              firers=[f.id for f in shots], ammo=[a for _f, a in pairs], rule="MBT 7.3.2")
    for f, ammo in pairs:
        mark_fired(game, f)
        note_fired(game, f, ammo)  # MBT 14.1.2.1 (MBTD-143): each gun noted as it fires
    for f, ammo in pairs:
        if resolve(game, f, label, kind, ammo) == "EF":
            game.defer(f"MBT 5.3 {kind} in {label} destroyed",
                       lambda: destroy(game, label, kind))
            break  # later shots at a destroyed marker change nothing


def shot_odds(game: Game, f: Unit, label: str, kind: str, ammo: str = GP) -> float:
    """MBT 14.4.4.1: the chance that ``f``'s GP shot (its main gun's, or the machinegun a
    ``NAME/GP`` ``ammo`` names, MBT 14.1.2) destroys the ``kind`` marker in ``label``, with the
    factor, defense and modifiers :func:`resolve` uses (for the AI)."""
    from hexwar.plugins.mbt.close_assault import roll_odds

    h = game.board.parse(label)
    weapon = shot_weapon(game, f, ammo)
    if weapon is None or f.hex is None or kind not in terrain_defense():
        return 0.0
    factor = gp_factor(game, f, weapon, f.hex.distance(h),
                       f.state.get("order") in FIRING_MOVE)
    if factor is None:
        return 0.0
    net = int(sum(m.value for m in modifiers_of(situation(game, f, h, weapon))))
    n, s, _src = load_advanced().gp_thresholds(factor, terrain_defense()[kind][0])
    return roll_odds(n, s, net)[1]


def shots_if_ordered(game: Game, f: Unit, order: str = "F") -> list[tuple[str, str, float]]:
    """MBT 12.4.2, 14.4.3.3: the markers ``f`` could fire at with ``order`` (for the AI's
    orders: label, kind and the chance to destroy each)."""
    saved = f.state.get("order")
    f.state["order"] = order
    try:
        permanent = set(data(game).get("permanent_blocks", []))
        out: list[tuple[str, str, float]] = []
        for label, kind in sorted(markers(game).items()):
            if kind not in terrain_defense() or label in permanent:
                continue
            if firer_error(game, f, game.board.parse(label), GP, (order,)) is None:
                out.append((label, kind, shot_odds(game, f, label, kind)))
        return out
    finally:
        f.state["order"] = saved
