"""MBT 14.0, Advanced Game firing, as far as the vehicles of the shipped cards need it:

* the Advanced AP modifiers (MBT 14.3.1): other smoke (smoke markers on the line and discharger
  smoke, MBT 14.3.1.1.1, 12.6.3), firer suppressed (MBT 14.3.1.1.2), crew losses
  (MBT 14.3.1.1.4), firer grade by range (MBT 14.3.1.3), sights (MBT 14.3.2: the best of the
  weapon's L, C or S sights; lasers not through smoke; a thermal imager ignores smoke but
  discharger smoke to 20 hexes);
* the situation of a shot: hull down (MBT 13.2.2, read by the fire procedure's hit location step,
  MBT 13.2.2.3), a hex of more than 10 stacking points is clear for fire (MBT 12.2.2);
* the Advanced damage effects (MBT 14.3.3.1 a compartment hit suppresses and costs a crew loss,
  MBT 14.3.3.3 a brew-up suppresses the hex, MBT 14.8 losing the whole crew knocks out);
* missiles (MBT 14.2.2): resolved at once against a target that is not moving or going to move,
  and during the target's move otherwise, by the race of the missile's speed against the hexes
  the target enters (MBT 14.2.2.2.1-14.2.2.2.4); a missile fired from overwatch (MBT 13.3,
  :mod:`hexwar.plugins.mbt.overwatch`) races from the hex it was fired at (MBT 14.2.2.2.2).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from hexwar.core.engine.decisions import Decision
from hexwar.core.engine.state import Unit
from hexwar.core.hexgrid import Hex, trace
from hexwar.core.kit import Edit
from hexwar.core.types import Modifier
from hexwar.plugins.mbt import doctrine, markers
from hexwar.plugins.mbt.advanced_sighting import (
    NO_LASER,
    hull_down,
    unit_height,
    visibility,
    weapon_sights,
)
from hexwar.plugins.mbt.advanced_tables import load_advanced
from hexwar.plugins.mbt.ap_fire import MG_LOST
from hexwar.plugins.mbt.fire import (
    atgm_options,
    commit_pending,
    destroy,
    fire_error,
    mark_fired,
    resolve_shot,
)
from hexwar.plugins.mbt.grade import grade_of
from hexwar.plugins.mbt.initiative import side_order
from hexwar.plugins.mbt.orders import seen_by
from hexwar.plugins.mbt.smoke import covered, smoke_hexes_on_line, smoke_markers
from hexwar.plugins.mbt.state import (
    MOVING_ORDERS,
    Step,
    alive,
    can_move,
    card_of,
    data,
    wreck_hexes,
)
from hexwar.plugins.mbt.suppression import suppress, suppressed

if TYPE_CHECKING:
    from hexwar.core.engine.game import Game
    from hexwar.plugins.mbt.ap_fire import FireContext, FireEdit, HitResult, ShotResult, Situation

WRECK_STACKING = 2  # MBT 12.2.1
THERMAL_RANGE = 20  # MBT 14.3.2 (T)


STACKING_LIMIT = 10  # MBT 12.2.2


# -- MBT 14.3.1: modifiers ------------------------------------------------------------------------


def ap_modifiers(game: Game, s: Situation, firer: Unit, target: Unit) -> list[Modifier]:
    """MBT 14.3.1: the Advanced AP point effect modifiers of one shot (cumulative)."""
    adv = load_advanced()
    g = adv.general
    mods: list[Modifier] = []
    assert firer.hex is not None and target.hex is not None
    sights = weapon_sights(game, firer, s.weapon)
    ds = sum(1 for u in (firer, target) if covered(game, u))
    hexes = smoke_hexes_on_line(game, firer.hex, target.hex, unit_height(game, firer),
                                unit_height(game, target))  # MBT 12.1.4: smoke's height
    if hexes and "T" in sights and s.range <= THERMAL_RANGE:
        hexes = 0  # MBT 14.3.2 (T): a thermal imager ignores all smoke but discharger smoke
    if ds or hexes:
        m = g["other_smoke_per_hex"]
        what = ", ".join(x for x in (f"{hexes} smoke hex(es)" if hexes else "",
                                     "discharger smoke" if ds else "") if x)
        mods.append(Modifier(f"through other smoke: {what}", m.value * (ds + hexes),
                             f"MBT 14.3.1.1.1 [{m.source}]", stage=3))
    best: tuple[int, str, str] | None = None
    fog = visibility(game) in NO_LASER
    for sight in sights:
        if sight in ("L", "C") and (ds or (hexes and sight == "L")):
            continue  # MBT 14.3.2: no laser through smoke (C: none through discharger smoke)
        if sight == "L" and fog:
            continue  # MBT 14.3.2: no laser sight in fog or blowing snow (C works there)
        got = adv.sight_modifier(sight, s.range)
        if got is not None and (best is None or got.value > best[0]):
            best = (got.value, sight, got.source)
    if best is not None and best[0]:
        mods.append(Modifier(f"sight: {best[1]}, range {s.range}", best[0],
                             f"MBT 14.3.2 [{best[2]}]", stage=3))
    if suppressed(firer):
        m = g["firer_suppressed"]
        mods.append(Modifier("firer suppressed", m.value, f"MBT 14.3.1.1.2 [{m.source}]", stage=3))
    if firer.state.get("mounted") and s.firer.kind == "leg":
        m = g["transported_firer"]  # MBT 15.3.4: a passenger firing from its carrier
        mods.append(Modifier("transported firer", m.value, f"MBT 14.3.1.1.3 [{m.source}]",
                             stage=3))
    losses = int(firer.state.get("crew_losses", 0))
    if losses:
        m = g["per_crew_loss"]
        mods.append(Modifier(f"firer crew losses: {losses}", m.value * losses,
                             f"MBT 14.3.1.1.4 [{m.source}]", stage=3))
    weapon = s.firer.weapon(s.weapon)
    if firer.state.get("temp_sup") and weapon.kind == "atgm" and not suppressed(firer):
        ap, _gp, src = adv.temp_sup.get(weapon.cls or 2, adv.temp_sup[2])
        mods.append(Modifier(f"firer temporarily suppressed: class {weapon.cls}", ap,
                             f"MBT 14.3.1.1.5 [{src}]", stage=3))
    grade = grade_of(firer)
    if grade != "average":
        m = adv.grade_modifier(grade, s.range)
        if m.value:
            mods.append(Modifier(f"firer grade: {grade}, range {s.range}", m.value,
                                 f"MBT 14.3.1.3 [{m.source}]", stage=3))
    return mods


# -- the situation of a shot ----------------------------------------------------------------------


def stacking_points(game: Game, h: Hex) -> int:
    """MBT 12.2.1-12.2.2: the stacking points in a hex, a wreck marker counting 2."""
    total = sum(card_of(game, u).stacking for u in game.state.units.values()
                if alive(u) and u.hex == h and not u.state.get("mounted"))
    if h in wreck_hexes(game):
        total += WRECK_STACKING
    return total


def brewup_without_smoke(game: Game, firer: Unit, target: Unit) -> int:
    """MBT 12.9.2: where a hex holds a burning wreck and a smoke (ON or OFF) marker, only the smoke
    marker counts for shots through it: the brew-up hexes on the line less those."""
    assert firer.hex is not None and target.hex is not None
    smoky = {game.board.parse(lab) for lab in smoke_markers(game)}
    burning = {h for h, kind in wreck_hexes(game).items() if kind == "burning"} - smoky
    count = 0
    counted: set[Hex] = set()
    for st in trace(firer.hex, target.hex).steps:
        hs = [h for h in st.hexes if h in burning and h not in counted]
        if len(st.hexes) == 2 and all(h in burning for h in st.hexes):
            count += 1 if hs else 0  # MBT 7.4.2.3.3: a hexside of two brew-ups counts once
            counted |= set(st.hexes)
        elif hs:
            count += len(hs)
            counted |= set(hs)
    return count


def shot_situation(game: Game, s: Situation, firer: Unit, target: Unit) -> None:
    """MBT 13.2.2 hull down; MBT 12.9.2 a smoke marker over a burning wreck counts alone;
    MBT 12.4.1.2, 14.3.1.2 improved position markers and the inside of buildings replace the
    hex's terrain; MBT 12.2.2 a crowded hex is clear for fire."""
    hd, _rule = hull_down(game, firer, target)
    s.hull_down = hd
    s.target_open = bool(target.state.get("open", True))
    reactive = target.state.get("reactive")
    s.target_reactive = str(reactive) if reactive in REACTIVE else None
    assert target.hex is not None
    if s.brewup_hexes and smoke_markers(game):
        s.brewup_hexes = brewup_without_smoke(game, firer, target)  # MBT 12.9.2
    replaced = markers.target_terrain(game, target)  # MBT 12.4.1.2, 14.3.1.2
    if replaced is not None:
        s.target_terrain = replaced
    if stacking_points(game, target.hex) > STACKING_LIMIT:
        s.target_terrain = ("clear",)


# -- MBT 14.3.3.4, 14.3.4: steps of the AP fire procedure ------------------------------------------

REACTIVE = ("heavy", "light")
REACTIVE_LOCATIONS = frozenset({"TF", "TS", "HS"})  # MBT 14.3.4.1-14.3.4.2
LIGHT_REACTIVE_BONUS = 80  # MBT 14.3.4.2
OPEN_CREW_LOCATIONS = frozenset({"TT", "HD"})  # MBT 14.3.3.4.1


def step_reactive_armor(ctx: FireContext, shot: ShotResult, hit: HitResult) -> None:
    """MBT 14.3.4: against CE ammunition at TF, TS or HS, heavy reactive armour stops the hit,
    light reactive armour adds 80 to the armour basis; KE ammunition ignores both."""
    s = shot.situation
    if s.target_reactive is None or hit.location not in REACTIVE_LOCATIONS:
        return
    line = s.firer.weapon(s.weapon).ammo_line(s.ammo)
    if line.energy != "CE" or hit.armor is None:
        return
    if s.target_reactive == "heavy":
        hit.penetrated, hit.done = False, True
        hit.rules.append("MBT 14.3.4.1")
    else:
        hit.armor += LIGHT_REACTIVE_BONUS
        hit.rules.append("MBT 14.3.4.2")


def step_open_crew_hit(ctx: FireContext, shot: ShotResult, hit: HitResult) -> None:
    """MBT 14.3.3.4.1: a hit at TT or HD of an open vehicle that fails to penetrate costs one crew
    loss (run before the penetration step, which ends the hit when it fails)."""
    s = shot.situation
    if not s.target_open or hit.location not in OPEN_CREW_LOCATIONS or hit.armor is None:
        return
    pv = s.firer.weapon(s.weapon).ammo_line(s.ammo).pv_at(s.range)
    if pv is None or pv < hit.armor:
        hit.effect = "crew_loss"
        hit.rules.append("MBT 14.3.3.4.1")


def fire_steps() -> list[FireEdit]:
    """The Advanced Game's edits of the AP fire procedure (``mbt_fire_steps``)."""
    return [
        Edit("insert_after", "armor", "reactive_armor", step_reactive_armor, rule="MBT 14.3.4"),
        Edit("insert_before", "penetration", "open_crew_hit", step_open_crew_hit,
             rule="MBT 14.3.3.4.1"),
        Edit("insert_after", "open_crew_hit", "mg_hit", _mg_hit, rule="MBT 14.3.3.4.2"),
    ]


def _mg_hit(ctx: FireContext, shot: ShotResult, hit: HitResult) -> None:
    """MBT 14.3.3.4.2 (:func:`hexwar.plugins.mbt.machineguns.step_mg_hit`)."""
    from hexwar.plugins.mbt.machineguns import step_mg_hit

    step_mg_hit(ctx, shot, hit)


# -- MBT 14.3.3, 14.8: damage effects ----------------------------------------------------------


def after_damage(game: Game, u: Unit, effects: list[str]) -> None:
    """MBT 14.3.3.1: a compartment hit suppresses the vehicle and the units it carries and costs
    one crew loss; MBT 14.8:
    as many crew losses as crew knock it out; MBT 14.3.3.3: a brew-up suppresses every other
    unit in the hex."""
    for e in effects:
        if not alive(u):
            break
        if e.endswith("compartment"):
            suppress(game, u, "MBT 14.3.3.1")
            if u.state.get("carrying"):  # MBT 14.3.3.1: its passengers are suppressed too
                from hexwar.plugins.mbt.transport import suppress_passengers

                suppress_passengers(game, u, "MBT 14.3.3.1")
            crew_loss(game, u, "MBT 14.3.3.1")
        elif e == "crew_loss":  # MBT 14.4.4.2.3.2
            crew_loss(game, u, "MBT 14.4.4.2.3.2")
        elif e == "suppress":  # MBT 14.4.4.2.2
            suppress(game, u, "MBT 14.4.4.2.2")
        elif e == "leg_elim":  # MBT 14.7.2.2.2: an effective overrun eliminates even a squad
            eliminate(game, u, "MBT 14.7.2.2.2")
        elif e == "leg_ef":  # MBT 14.4.4.2.3.4, 12.5
            if (u.state.get("half") or card_of(game, u).stacking < 2
                    or card_of(game, u).kind == "towed"):
                eliminate(game, u, "MBT 14.4.4.2.3.4")
            else:
                u.state["half"] = True
                game.emit("halved", visible_to=seen_by(game, [u]), unit=u.id, rule="MBT 12.5")
                suppress(game, u, "MBT 14.4.4.2.3.4")
        elif e.startswith(MG_LOST):  # MBT 14.3.3.4.2: a machinegun destroyed by the hit
            from hexwar.plugins.mbt.machineguns import lose

            lose(game, u, e[len(MG_LOST):])
        elif e == "temp_sup" and not suppressed(u):  # MBT 14.4.4.2.1, 12.3.5
            u.state["temp_sup"] = True
            game.emit("suppressed", visible_to=seen_by(game, [u]), unit=u.id, marker="temporary",
                      rule="MBT 12.3.5")
    if u.state.get("carrying"):
        from hexwar.plugins.mbt.transport import passengers_lost

        passengers_lost(game, u)  # MBT 14.3.3.2
    if "BU" in effects and u.state.get("destroyed") == "BU" and u.state.get("wreck_at"):
        h = game.board.parse(str(u.state["wreck_at"]))
        for other in game.state.units.values():
            if other.id != u.id and alive(other) and other.hex == h:
                suppress(game, other, "MBT 14.3.3.3")


def eliminate(game: Game, u: Unit, rule: str) -> None:
    """MBT 14.4.4.2.3.4: a leg or towed unit is removed from play; no wreck marker."""
    assert u.hex is not None
    u.state["destroyed"] = "eliminated"
    u.state["wreck_at"] = None
    u.hex = None
    game.emit("damage", unit=u.id, damage=dict(u.state["damage"]), destroyed="eliminated",
              rule=rule)


def crew_loss(game: Game, u: Unit, rule: str) -> None:
    """One crew loss; MBT 14.8: losing the whole crew knocks the vehicle out."""
    u.state["crew_losses"] = int(u.state.get("crew_losses", 0)) + 1
    game.emit("crew_loss", visible_to=seen_by(game, [u]), unit=u.id,
              losses=u.state["crew_losses"], rule=rule)
    if u.state["crew_losses"] >= card_of(game, u).crew:
        destroy(game, u, "KO")
        game.emit("damage", unit=u.id, damage=dict(u.state["damage"]), destroyed="KO",
                  rule="MBT 14.8")
        if u.state.get("carrying"):
            from hexwar.plugins.mbt.transport import passengers_lost

            passengers_lost(game, u)  # MBT 14.3.3.2


# -- MBT 14.2.2: missiles -----------------------------------------------------------------------


def going_to_move(u: Unit) -> bool:
    """MBT 14.2.2.2: a target with FM, M or OR orders is moving or going to move."""
    return u.state.get("order") in MOVING_ORDERS and not u.state.get("moved_done")


def atgm_announce_phase(game: Game) -> Step:
    """MBT 11.3.3, 14.2.2: ATGM units announce a shot and its target (simultaneous); a shot at a
    target that is not moving nor going to move resolves at once (MBT 14.2.2.1, results at the
    step's end, MBT 5.3); the others wait for the target's move (MBT 14.2.2.2)."""
    game.defer("MBT 5.3 ATGM Announcement Step results", lambda: commit_pending(game))
    d = data(game)
    for side in side_order(game):
        while True:
            options = atgm_options(game, side)
            if not options:
                break
            choice = yield Decision(side, "mbt.atgm", options=["pass", *options], rule="MBT 11.3.3",
                                    prompt="Announce an ATGM shot, or pass")
            if choice == "pass":
                break
            chosen = game.state.units[choice["firer"]]
            t = game.state.units[choice["target"]]
            # MBT 13.4.3.2: a doctrine organization's members fire at one target, together
            firers = [m for m in doctrine.members(game, chosen) if m.id == chosen.id or (
                m.state.get("order") == "ATGM" and not m.state.get("fired")
                and fire_error(game, m, t, "ATGM", orders=("ATGM",), missile=True) is None)]
            for f in firers:
                mark_fired(game, f)
                game.emit("atgm_announced", visible_to=seen_by(game, [f]), firer=f.id, target=t.id,
                          rule="MBT 11.3.3")
            for f in firers:
                if going_to_move(t):
                    assert t.hex is not None
                    d["atgm"].append({"firer": f.id, "target": t.id,
                                      "initial": game.board.label(t.hex)})  # MBT 14.2.2.2.2
                else:
                    yield from resolve_shot(game, f, t, "ATGM", overwatch=False,
                                            simultaneous=True, missile=True)


def _missile_ok(game: Game, f: Unit, t: Unit) -> str | None:
    """MBT 14.2.2, 14.2.2.2.4: the firer still stands; the target is sighted, in range and in a
    clear line of sight where it is now (the firing arc no longer matters, MBT 7.2.2.2)."""
    if not alive(f):
        return "the firer was destroyed before the missile struck (MBT 14.2.2)"
    f.state["fired"] = False
    try:
        # MBT 13.3, 14.1.4.3: a missile fired from overwatch flies the same way
        return fire_error(game, f, t, "ATGM", orders=("ATGM", "OW"), missile=True,
                          check_arc=False, moving_target=True)
    finally:
        f.state["fired"] = True


def missile_race(game: Game, u: Unit, path: list[tuple[Hex, int]]) -> Step:
    """MBT 14.2.2.2: resolve the missiles announced at ``u`` against the move it just made
    (``path``: its initial hex and every hex it entered, with its facing there). The target goes
    back to its initial hex; each missile advances its speed (the ``1-3`` or ``4+`` column by the
    hexes entered, MBT 14.2.2.2.3), then the target one hex, until the missile reaches the target
    (the shot is resolved there) or the target stands where the firer cannot sight it, is out of
    the missile's range or behind blocking terrain (a miss). A target stopped by the hit (knocked
    out, brewed up, a track or hull compartment hit) stays where it was hit; otherwise it goes on
    to the end of its move (docs/decisions.md MBTD-55)."""
    d = data(game)
    mine = [m for m in d.get("atgm", []) if m["target"] == u.id]
    if not mine:
        return
    d["atgm"] = [m for m in d["atgm"] if m["target"] != u.id]
    end_hex, end_facing = u.hex, u.facing
    entered = len(path) - 1
    for m in mine:
        if not alive(u):
            break
        f = game.state.units[m["firer"]]
        weapon = card_of(game, f).missiles[0] if card_of(game, f).missiles else None
        if weapon is None or f.hex is None:
            game.report("ATGM", result="automatic miss: the firer is gone", firer=f.id,
                        target=u.id, rules=["MBT 14.2.2"])
            continue
        speed = int(weapon.speeds.get("1-3" if entered <= 3 else "4+", 1)) or 1
        start = next((i for i, (h, _f) in enumerate(path)
                      if game.board.label(h) == m.get("initial")), 0)
        pos, flown = start, 0
        outcome = "hit"
        while True:
            u.hex, u.facing = path[pos]
            err = _missile_ok(game, f, u)
            if err:
                outcome = err
                break
            flown += speed
            if flown >= f.hex.distance(path[pos][0]) or pos == len(path) - 1:
                break
            pos += 1
        game.emit("atgm_race", visible_to=seen_by(game, [f, u]), firer=f.id, target=u.id,
                  speed=speed, entered=entered, at=game.board.label(path[pos][0]),
                  outcome=outcome, rule="MBT 14.2.2.2.4")
        if outcome == "hit":
            # MBT 7.4.2.4: a missile fired from overwatch takes the overwatch modifier
            yield from resolve_shot(game, f, u, "ATGM", overwatch=bool(m.get("overwatch")),
                                    simultaneous=False, missile=True, target_moving=True)
        else:
            game.report("ATGM", result=f"automatic miss: {outcome}", firer=f.id, target=u.id,
                        rules=["MBT 14.2.2.2.4"])
        if alive(u) and not can_move(u):
            end_hex, end_facing = u.hex, u.facing  # stopped where it was hit
    if alive(u):
        u.hex, u.facing = end_hex, end_facing


def resolve_remaining(game: Game) -> Step:
    """MBT 14.2.2.2: missiles whose target, though it had moving orders, did not move this
    Movement Phase strike it where it stands."""
    for m in list(data(game).get("atgm", [])):
        u = game.state.units[m["target"]]
        if alive(u):
            assert u.hex is not None
            yield from missile_race(game, u, [(u.hex, u.facing)])
    data(game)["atgm"] = []
