"""MBT 14.4, GP point effect fire (Advanced Game), against vehicles and leg units.

Any weapon with GP lines on its card may fire "GP" instead of its AP ammunition (MBT 14.1.1.2),
with F, FM, OW (and CA, OR) orders (MBT 14.1.4.1), at the ranges of its GP line. The procedure:

1. the GP factor: the weapon's NM line, or its MV line when the firer moves (FM or OR orders);
   no MV line, no fire on the move (MBT 14.4.1); the rate of fire is 1;
2. the net modifier (MBT 14.4.2, ``data/advanced/gp_modifiers.csv``): acquisition +5 a Turn,
   crew losses -10 each, firer suppressed -20, brew-up smoke -10 and other smoke -20 a hex, firing
   overwatch -5 / -15, and against vehicles: in a building hex -10, in woods -10, hull down -20,
   moving -10; firer grade by range (MBT 14.4.2.4);
3. two dice plus the net modifier against the GP COMBAT RESULTS TABLE line of the GP factor and
   the target's GP defense (MBT 14.4.4.1; stand-in): up to N no effect, up to S suppressed, above
   S effective;
4. the effect on a vehicle (MBT 14.4.4.2): suppressed (a buttoned one only by weapons other than
   small arms beyond 2 hexes), effective: a crew loss and suppressed if open, suppressed if
   buttoned, knocked out or brewed up when the weapon's card says so for that GP defense
   (MBT 14.4.4.2.3.3); no effect on a unit whose missile is still in flight gives it temporary
   suppression (MBT 14.4.4.2.1, 12.3.5).

The results are effect names that the fire step applies like AP damage (at once, or at the end of a
simultaneous step, MBT 5.3): ``suppress``, ``crew_loss``, ``temp_sup``, ``KO``, ``BU``
(:func:`hexwar.plugins.mbt.advanced_fire.after_damage`). GP fire at terrain markers is
:mod:`hexwar.plugins.mbt.gp_terrain` (MBT 12.4.2); canister and smoke rounds wait for their
rules (docs/mbt-advanced.md). A carrier's passengers are fired at with the
same roll (MBT 14.4.3.2.5, :func:`hexwar.plugins.mbt.transport.hit_passengers`).

Against a leg or towed unit (MBT 14.4.3.2, 14.4.4.2.3.4): its GP defense by terrain and status
(``data/advanced/leg_defense.csv``), a suppressed result suppresses, an effective one halves a
squad and suppresses it (``leg_ef``), and eliminates a half squad or a team.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from hexwar.core.engine.state import Unit
from hexwar.core.tables.bands import parse_band
from hexwar.core.types import Modifier
from hexwar.plugins.mbt.advanced_fire import THERMAL_RANGE, brewup_without_smoke
from hexwar.plugins.mbt.advanced_sighting import hull_down, unit_height, weapon_sights
from hexwar.plugins.mbt.advanced_tables import load_advanced
from hexwar.plugins.mbt.cards import derived
from hexwar.plugins.mbt.fire import brewup_hexes
from hexwar.plugins.mbt.grade import grade_of
from hexwar.plugins.mbt.smoke import covered, smoke_hexes_on_line, smoke_markers
from hexwar.plugins.mbt.state import MOVING_ORDERS, card_of, ctx, data, wreck_hexes
from hexwar.plugins.mbt.suppression import suppressed

if TYPE_CHECKING:
    from hexwar.core.engine.game import Game
    from hexwar.core.hexgrid import Hex
    from hexwar.plugins.mbt.cards import Card, Weapon

GP = "GP"
CANISTER = "canister"  # MBT 14.4.5.2: fired by the GP procedure (alternate_ammo.CANISTER)
FIRING_MOVE = ("FM", "OR")  # MBT 14.4.1: the MV line
_EFFECT = re.compile(r"EF\s*=\s*(KNK OUT|BRW UP)\s+if\s+GP\s+DEF\s*=\s*(\d+)(?:\s*-\s*(\d+))?",
                     re.IGNORECASE)


@dataclass
class GpShot:
    """One GP shot and everything it was resolved with."""

    factor: int
    defense: int
    modifiers: list[Modifier] = field(default_factory=list)
    roll: int = 0
    n: int = 0
    s: int = 0
    result: str = "N"  # N, S or EF (MBT 14.4.4.1)
    effects: list[str] = field(default_factory=list)
    source: str = ""
    passengers: list[Any] = field(default_factory=list)  # MBT 14.4.3.2.5: the carried units' results

    @property
    def net(self) -> int:
        return int(sum(m.value for m in self.modifiers))


def raw_weapon(card: Card, weapon: str) -> dict[str, Any]:
    """The weapon's table of the card file (its GP line and effect)."""
    for w in card.records.values.get("weapons", []):
        if isinstance(w, dict) and w.get("name") == weapon:
            return w
    return {}


def _raw_weapon(game: Game, u: Unit, weapon: str) -> dict[str, Any]:
    return raw_weapon(card_of(game, u), weapon)


def card_gp_range(card: Card, weapon: str) -> tuple[int, int] | None:
    """The ranges of a weapon's GP line (None: it has no GP line)."""
    memo = derived(card)
    key = ("gp_range", weapon)
    if key in memo:
        got: tuple[int, int] | None = memo[key]
        return got
    w = raw_weapon(card, weapon)
    gp = w.get("gp") or {}
    if not gp.get("nm"):
        memo[key] = None
        return None
    bands = [parse_band(str(b)) for b in w.get("bands", [])]
    top = int(gp.get("max_range") or max((b.hi or 0) for b in bands))
    memo[key] = (1, top)
    return (1, top)


def gp_range(game: Game, u: Unit, weapon: str) -> tuple[int, int] | None:
    return card_gp_range(card_of(game, u), weapon)


def card_gp_factor(card: Card, weapon: str, rng: int, moving: bool) -> int | None:
    """MBT 14.4.1: the GP factor at a range from the NM or MV line (None: cannot fire)."""
    w = raw_weapon(card, weapon)
    gp = w.get("gp") or {}
    line = gp.get("mv" if moving else "nm")
    rr = card_gp_range(card, weapon)
    if not line or rr is None or not rr[0] <= rng <= rr[1]:
        return None
    for i, b in enumerate(w.get("bands", [])):
        if rng in parse_band(str(b)) and i < len(line):
            v = line[i]
            v = v.get("value") if isinstance(v, dict) else v
            return int(v) if isinstance(v, int) else None
    return None


def gp_factor(game: Game, u: Unit, weapon: str, rng: int, moving: bool) -> int | None:
    return card_gp_factor(card_of(game, u), weapon, rng, moving)


@dataclass(frozen=True)
class GpSituation:
    """Everything the modifiers of one GP shot depend on (MBT 14.4.2), as plain values."""

    range: int
    acquisition: int = 0
    crew_losses: int = 0
    suppressed: bool = False
    transported: bool = False
    brewup: int = 0
    other_smoke: int = 0
    overwatch: bool = False
    target_vehicle: bool = True
    building: bool = False
    woods: bool = False
    hull_down: bool = False
    target_moving: bool = False
    grade: str = "average"
    canister: bool = False
    building_heights: int = 0  # firing at a building hex, not its units (MBT 14.4.2.1.9)


SMALL_ARMS_REACH = 2  # MBT 14.4.4.2.2.1: small arms suppress a buttoned vehicle to 2 hexes


def small_arms(game: Game, f: Unit, weapon: str | None = None) -> bool:
    """The firing weapon (the main gun unless named) is "small arms" (its card says so)."""
    name = weapon or (w.name if (w := card_of(game, f).main_gun) is not None else None)
    return bool(name is not None and raw_weapon(card_of(game, f), name).get("small_arms"))


def leg_status(u: Unit, moving: bool) -> str:
    """MBT 14.4.3.2.1: FC (full cover), NM or MV."""
    if u.state.get("full_cover"):
        return "FC"
    return "MV" if moving else "NM"


def _ground_height(game: Game, u: Unit) -> int:
    """MBT 12.1.2, 15.4.1.1: the height a unit fires from or is fired at (a passenger its
    carrier's hex)."""
    from hexwar.plugins.mbt.advanced_sighting import hex_heights
    from hexwar.plugins.mbt.transport import hex_of

    h = hex_of(game, u)
    return (hex_heights(game, h)[0] if h is not None else 0) + int(u.state.get("up") or 0)


def ditch_row(game: Game, f: Unit, t: Unit) -> str:
    """MBT 14.4.3.2.3: which of a ditch's two GP defense rows holds, by whether the firer ``f`` is
    higher than the target ``t`` (MBTD-171)."""
    return "ditch_above" if _ground_height(game, f) > _ground_height(game, t) else "ditch_level"


def gp_defense(game: Game, f: Unit, t: Unit, moving: bool) -> int:
    """MBT 14.4.3.1 a vehicle's card value; MBT 14.4.3.2 a leg unit's by the hex's terrain (the
    best of a mixed hex, 14.4.3.2.4; an improved position marker counts, a ditch by the firer's
    height, 14.4.3.2.3) and its status, +1 with a block or wreck marker in the hex (14.4.3.2.2)."""
    card = card_of(game, t)
    if card.kind == "vehicle":
        return card.gp_defense
    assert t.hex is not None
    from hexwar.plugins.mbt.markers import marker_at

    table = load_advanced().leg_defense
    kinds = set(ctx(game).info.kinds[t.hex])
    marker = marker_at(game, t.hex)
    if marker == "improved_position":
        kinds.add("improved_position")
    if marker == "ditch":  # MBT 14.4.3.2.3: by where the fire comes from (MBTD-171)
        kinds.add(ditch_row(game, f, t))
    status = leg_status(t, moving)
    values = [table[(card.name, k, status)].value for k in kinds if (card.name, k, status) in table]
    value = max(values) if values else card.gp_defense
    if marker == "block" or t.hex in wreck_hexes(game):
        value += 1
    return value


def leg_effects(result: str) -> list[str]:
    """MBT 14.4.4.2.2.2 a suppressed result suppresses; MBT 14.4.4.2.3.4 an effective one halves a
    squad (and suppresses it) and eliminates a half squad or team."""
    return {"N": [], "S": ["suppress"], "EF": ["leg_ef"]}[result]


def modifiers_of(gs: GpSituation) -> list[Modifier]:
    """MBT 14.4.2: the modifiers of one GP shot (cumulative), each with its rule."""
    adv = load_advanced()
    g = adv.gp
    mods: list[Modifier] = []

    def add(name: str, key: str, times: int, rule: str) -> None:
        m = g[key]
        mods.append(Modifier(name, m.value * times, f"{rule} [{m.source}]", stage=1))

    if gs.acquisition:
        add(f"acquisition: {gs.acquisition} Turn(s)", "acquisition_per_turn", gs.acquisition,
            "MBT 14.4.2.1.1")
    if gs.crew_losses:
        add(f"firer crew losses: {gs.crew_losses}", "per_crew_loss", gs.crew_losses,
            "MBT 14.4.2.1.2")
    if gs.suppressed:
        add("firer suppressed", "firer_suppressed", 1, "MBT 14.4.2.1.3")
    if gs.transported:
        add("transported firer", "transported_firer", 1, "MBT 14.4.2.1.5")
    if gs.brewup:
        add(f"brew-up smoke: {gs.brewup} hex(es)", "brewup_smoke_per_hex", gs.brewup,
            "MBT 14.4.2.1.6")
    if gs.other_smoke:
        add(f"other smoke: {gs.other_smoke}", "other_smoke_per_hex", gs.other_smoke,
            "MBT 14.4.2.1.7")
    if gs.overwatch:
        key = "overwatch_target_mv" if gs.target_moving else "overwatch_target_nm"
        add("firing overwatch", key, 1, "MBT 14.4.2.1.8")
    if gs.building_heights:
        add(f"building target: {gs.building_heights} height(s)", "building_target_per_height",
            gs.building_heights, "MBT 14.4.2.1.9")
    if gs.canister:
        key = "canister_vs_vehicle" if gs.target_vehicle else "canister_vs_leg_or_towed"
        add("canister " + ("at a vehicle" if gs.target_vehicle else "at a leg or towed unit"), key,
            1, "MBT 14.4.2.3")
    if gs.target_vehicle:
        if gs.building:
            add("vehicle in a building hex", "vehicle_in_building_hex", 1, "MBT 14.4.2.2.1")
        if gs.woods:
            add("vehicle in woods", "vehicle_in_woods", 1, "MBT 14.4.2.2.2")
        if gs.hull_down:
            add("vehicle hull down", "vehicle_hull_down", 1, "MBT 14.4.2.2.3")
        if gs.target_moving:
            add("vehicle moving", "vehicle_moving", 1, "MBT 14.4.2.2.4")
    if gs.grade != "average":
        m = adv.gp_grade_modifier(gs.grade, gs.range)
        if m.value:
            mods.append(Modifier(f"firer grade: {gs.grade}, range {gs.range}", m.value,
                                 f"MBT 14.4.2.4 [{m.source}]", stage=1))
    return mods


def building_target_heights(game: Game, h: Hex) -> int:
    """MBT 14.4.2.1.9: how many heights the buildings of a building hex stand (0: no buildings;
    the scenario's ``[special] heights`` or the STANDARD TERRAIN VALUES CHART, MBT 12.1.2)."""
    from hexwar.plugins.mbt.advanced_sighting import special
    from hexwar.plugins.mbt.buildings import BUILDINGS

    own = special(game).get("heights", {})
    chart = load_advanced().obstacle
    tall = 0
    for kind in ctx(game).info.kinds[h]:
        if kind not in BUILDINGS:
            continue
        if isinstance(own, dict) and kind in own:
            tall = max(tall, int(own[kind]))
        elif kind in chart:
            tall = max(tall, chart[kind].value)
    return tall


def building_target_modifiers(game: Game, f: Unit, h: Hex) -> list[Modifier]:
    """MBT 14.4.2.1.9: the modifiers of a GP shot at a building hex itself (not at units in it):
    the general ones of a shot at terrain (MBT 14.4.2.1) and -10 a height of its buildings.
    Direct GP fire may aim at a building hex (MBT 14.4.3.3.1) but destroys one only with the
    options of MBT 14.4.3.3.2, so the Direct Fire Step offers no such shot yet."""
    from dataclasses import replace

    from hexwar.plugins.mbt.gp_terrain import situation

    heights = building_target_heights(game, h)
    if not heights:
        raise ValueError(f"{game.board.label(h)} is not a building hex (MBT 14.4.2.1.9)")
    return modifiers_of(replace(situation(game, f, h), building_heights=heights))


def outcome(total: int, n: int, s: int) -> str:
    """MBT 14.4.4.1: up to N no effect, up to S suppressed, above S effective."""
    return "N" if total <= n else "S" if total <= s else "EF"


def effects_of(result: str, *, target_open: bool, explosive: str | None,
               missile_in_flight: bool, small_arms_far: bool = False) -> list[str]:
    """MBT 14.4.4.2 against a vehicle. ``small_arms_far``: small arms beyond 2 hexes, which do
    nothing to a buttoned vehicle (MBT 14.4.4.2.2.1, 14.4.4.2.3.1)."""
    if result == "N":
        return ["temp_sup"] if missile_in_flight else []  # MBT 14.4.4.2.1
    if small_arms_far and not target_open:
        return []
    if result == "S":
        return ["suppress"]  # MBT 14.4.4.2.2.1-14.4.4.2.2.2
    if explosive:
        return [explosive]  # MBT 14.4.4.2.3.3
    return ["crew_loss", "suppress"] if target_open else ["suppress"]  # MBT 14.4.4.2.3.1-2


def acquisition_turns(game: Game, f: Unit, t: Unit) -> int:
    """MBT 14.4.2.1.1: consecutive previous Turns this firer fired GP at this target."""
    turns = set(data(game).get("gp_fired", {}).get(f"{f.id}>{t.id}", []))
    n, turn = 0, game.state.turn - 1
    while turn in turns:
        n, turn = n + 1, turn - 1
    return n


def gp_modifiers(game: Game, f: Unit, t: Unit, *, overwatch: bool,
                 target_moving: bool, ammo: str = "GP", weapon: str | None = None
                 ) -> list[Modifier]:
    """MBT 14.4.2: the modifiers of one GP shot at a vehicle, from the game. ``weapon`` (the main
    gun unless named) matters for its sights: a thermal imager ignores the smoke markers on the
    line out to 20 hexes in GP fire too, not discharger smoke (MBT 14.3.2 (T))."""
    assert f.hex is not None and t.hex is not None
    vehicle = card_of(game, t).kind == "vehicle"
    kinds = set(ctx(game).info.kinds[t.hex])
    name = weapon or (w.name if (w := card_of(game, f).main_gun) is not None else None)
    rng = f.hex.distance(t.hex)
    markers_on_line = smoke_hexes_on_line(game, f.hex, t.hex, unit_height(game, f),
                                          unit_height(game, t))  # MBT 12.1.4
    if markers_on_line and name is not None and "T" in weapon_sights(game, f, name) \
            and rng <= THERMAL_RANGE:
        markers_on_line = 0  # MBT 14.3.2 (T): its smoke ability applies to GP fire
    return modifiers_of(GpSituation(
        range=rng, acquisition=acquisition_turns(game, f, t),
        crew_losses=int(f.state.get("crew_losses", 0)), suppressed=suppressed(f),
        transported=bool(f.state.get("mounted")),  # MBT 15.3.4: fired from its carrier
        brewup=(brewup_without_smoke(game, f, t) if smoke_markers(game)  # MBT 12.9.2
                else brewup_hexes(game, f.hex, t.hex)),
        other_smoke=markers_on_line + sum(1 for u in (f, t) if covered(game, u)),
        overwatch=overwatch, target_vehicle=vehicle, building=bool(kinds & {"brick", "stone"}),
        woods="woods" in kinds, hull_down=vehicle and hull_down(game, f, t)[0],
        target_moving=target_moving, grade=grade_of(f), canister=ammo == CANISTER))


def ammo_error(game: Game, f: Unit, t: Unit, ammo: str) -> str | None:
    """MBT 14.1.1.2: AP point effect fire only at vehicles; MBT 14.4.1: why ``f`` cannot fire GP
    at ``t`` (its GP line at that range, on the move)."""
    if ammo not in (GP, CANISTER):
        if card_of(game, t).kind != "vehicle":
            return f"AP point effect fire ({ammo}) is only at vehicles (MBT 14.1.1.2)"
        return None
    assert f.hex is not None and t.hex is not None
    weapon = card_of(game, f).main_gun
    if weapon is None:
        return f"{f.id} has no gun to fire GP"
    rng = f.hex.distance(t.hex)
    if ammo == CANISTER:
        from hexwar.plugins.mbt.alternate_ammo import canister_error

        err = canister_error(game, f, rng)  # MBT 14.4.5, 14.4.5.2
        if err:
            return err
    moving = f.state.get("order") in FIRING_MOVE
    if gp_factor(game, f, weapon.name, rng, moving) is None:
        line = "MV" if moving else "NM"
        return f"the {weapon.name} has no GP {line} factor at range {rng} (MBT 14.4.1)"
    return None


def explosive_result(game: Game, f: Unit, weapon: str, defense: int) -> str | None:
    """MBT 14.4.4.2.3.3 in a game."""
    return card_explosive_result(card_of(game, f), weapon, defense)


def card_explosive_result(card: Card, weapon: str, defense: int) -> str | None:
    """MBT 14.4.4.2.3.3: "KO" or "BU" when the firing weapon's card destroys a vehicle of this GP
    defense with an effective result."""
    text = str((raw_weapon(card, weapon).get("gp") or {}).get("effect") or "")
    m = _EFFECT.search(text)
    if not m:
        return None
    lo = int(m.group(2))
    hi = int(m.group(3) or lo)
    if lo <= defense <= hi:
        return "KO" if m.group(1).upper().startswith("KNK") else "BU"
    return None


def missile_in_flight(game: Game, t: Unit) -> bool:
    """MBT 14.4.4.2.1: the unit fired a missile that has not struck yet."""
    return any(m["firer"] == t.id for m in data(game).get("atgm", []))


def target_is_moving(t: Unit, target_moving: bool | None) -> bool:
    return (t.state.get("order") in MOVING_ORDERS) if target_moving is None else target_moving


def _firing_weapon(game: Game, f: Unit, weapon: str | None) -> Weapon | None:
    """The weapon a GP shot fires: the main gun, or the one named (a vehicle's independent
    machinegun, MBT 14.1.2)."""
    return card_of(game, f).weapon(weapon) if weapon else card_of(game, f).main_gun


def resolve(game: Game, f: Unit, t: Unit, *, overwatch: bool,
            target_moving: bool | None, ammo: str = GP, weapon_name: str | None = None,
            report: bool = True) -> GpShot | None:
    """MBT 14.4: resolve one GP shot at a vehicle (None: the weapon cannot fire GP there);
    ``ammo`` canister: the canister modifiers and no explosive power (MBT 14.4.5.2);
    ``weapon_name``: a weapon other than the main gun (MBT 14.1.2), whose caller reports the shot
    itself when ``report`` is False."""
    assert f.hex is not None and t.hex is not None
    weapon = _firing_weapon(game, f, weapon_name)
    if weapon is None:
        return None
    rng = f.hex.distance(t.hex)
    moving = f.state.get("order") in FIRING_MOVE
    factor = gp_factor(game, f, weapon.name, rng, moving)
    if factor is None:
        return None
    moving_t = target_is_moving(t, target_moving)
    defense = gp_defense(game, f, t, moving_t)
    shot = GpShot(factor, defense,
                  gp_modifiers(game, f, t, overwatch=overwatch, target_moving=moving_t,
                               ammo=ammo, weapon=weapon.name))
    shot.n, shot.s, shot.source = load_advanced().gp_thresholds(factor, defense)
    shot.roll = game.dice.d100(f"GP fire (GP {factor} vs {defense})")
    total = shot.roll + shot.net
    shot.result = outcome(total, shot.n, shot.s)
    if card_of(game, t).kind == "vehicle":
        shot.effects = effects_of(shot.result, target_open=bool(t.state.get("open", True)),
                                  explosive=(None if ammo == CANISTER  # MBT 14.4.5.2
                                             else explosive_result(game, f, weapon.name, defense)),
                                  missile_in_flight=missile_in_flight(game, t),
                                  small_arms_far=small_arms(game, f, weapon.name)
                                  and rng > SMALL_ARMS_REACH)
    else:
        shot.effects = leg_effects(shot.result)
    carried: list[Any] = []
    if t.state.get("carrying"):  # MBT 14.4.3.2.5: the passengers are fired at too
        from hexwar.plugins.mbt.transport import hit_passengers

        net_legs = sum(m.value for m in shot.modifiers if "MBT 14.4.2.2." not in m.rule)
        carried = hit_passengers(game, t, factor, shot.roll, int(net_legs))
    turns = data(game).setdefault("gp_fired", {}).setdefault(f"{f.id}>{t.id}", [])
    if game.state.turn not in turns:
        turns.append(game.state.turn)
    shot.passengers = carried
    if not report:
        return shot
    game.report(
        "GP point effect fire", result={"result": shot.result, "effects": shot.effects},
        modifiers=shot.modifiers,
        rules=["MBT 14.4", "MBT 14.4.4.1", *(["MBT 14.4.5.2"] if ammo == CANISTER else [])],
        firer=f.id, target=t.id,
        weapon=weapon.name, ammo=ammo, range=rng, gp_factor=factor, gp_defense=defense,
        net=shot.net, roll=shot.roll, modified=total, n=shot.n, s=shot.s, crt_source=shot.source,
        **({"passengers": carried} if carried else {}))
    return shot


def gp_odds(game: Game, f: Unit, t: Unit, *, overwatch: bool,
            ammo: str = GP, weapon_name: str | None = None) -> tuple[float, float, int] | None:
    """MBT 14.4.4.1: the chances (suppressed, effective) of ``f``'s GP shot at ``t`` (with the
    main gun, or ``weapon_name``) and the GP defense, from the factor, defense and modifiers of
    the shot (None: no GP shot)."""
    weapon = _firing_weapon(game, f, weapon_name)
    if f.hex is None or t.hex is None or weapon is None:
        return None
    rng = f.hex.distance(t.hex)
    factor = gp_factor(game, f, weapon.name, rng, f.state.get("order") in FIRING_MOVE)
    if factor is None:
        return None
    defense = gp_defense(game, f, t, target_is_moving(t, None))
    net = sum(m.value for m in gp_modifiers(game, f, t, overwatch=overwatch,
                                            target_moving=target_is_moving(t, None), ammo=ammo,
                                            weapon=weapon.name))
    n, s, _src = load_advanced().gp_thresholds(factor, defense)
    p_ef = max(0, min(100, 100 - (s - net))) / 100
    p_s = max(0, min(100, (s - net) - max(0, n - net))) / 100
    return p_s, p_ef, defense


def effect_value(game: Game, f: Unit, t: Unit, *, overwatch: bool, ammo: str = GP,
                 weapon_name: str | None = None) -> float:
    """For the AI: the chance of an effective result (a kill where the card's explosive power
    applies, never with canister), plus a quarter of the chance of a suppression."""
    got = gp_odds(game, f, t, overwatch=overwatch, ammo=ammo, weapon_name=weapon_name)
    if got is None:
        return 0.0
    p_s, p_ef, defense = got
    weapon = _firing_weapon(game, f, weapon_name)
    assert weapon is not None
    kill = p_ef if ammo != CANISTER and explosive_result(game, f, weapon.name, defense) else 0.0
    if card_of(game, t).kind != "vehicle":
        kill = p_ef * (1.0 if t.state.get("half") else 0.5)  # MBT 14.4.4.2.3.4
    return kill + 0.25 * (p_s + (p_ef if not kill else 0.0))
