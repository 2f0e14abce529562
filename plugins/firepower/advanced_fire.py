"""Fire combat of the Advanced Game (Firepower 12): the fire procedures of the Basic Game
(:mod:`~hexwar.plugins.firepower.combat`) with the Advanced steps in place of the Basic ones
(hook ``firepower_fire_steps``), so optional rules still edit them by name.

Two kinds, as in the Basic Game:

* ``fire`` (choice ``{"act": "fire", "unit", "mode", "targets", "ammo"?}``): "L" fire at target
  units (Firepower 12.3.6) with the firer's WEAPON CHART row (``state.model``): its rate of fire,
  ranges and hit numbers (Firepower 10.7), the Advanced line of sight (Firepower 12.1,
  :mod:`~hexwar.plugins.firepower.advanced_los`), the FIRING MODIFIERS whose letters include L
  (Firepower 12.2), penetrated cover as concealment (Firepower 12.3.6), crew losses
  (Firepower 10.1.2.2) and the suppression of automatic fire (Firepower 6.4.1);
* ``grenade`` (choice ``{"act": "grenade", "unit", "hex", "item"?, "ammo"?, "mode"?}``): fire at a
  hex: hand grenades of each version (HGN1-HGN6, HRG1; offensive or defensive, Firepower 12.4.1.3),
  grenade launchers, rifle grenades (Firepower 12.4.1.1), mortars with their minimum range and high
  trajectory (Firepower 12.4.2), launchers and recoilless guns, flamethrowers: G, H used as G
  (Firepower 12.3.5.2), F (12.3.3), W (12.3.9), M smoke (12.3.7), U illumination (12.3.8),
  C canister over the arc (12.3.2) and A or H used as armour-piercing against a fence
  (12.3.1, 12.3.5.1). The steps: check, hit_number, throw (the Basic spread diagram), location (the
  side of a fence hex or of a tree, stump or well hit, Firepower 12.7.1), blast (the BLAST
  DIAGRAM of the blast number, Firepower 12.3.4.1; stun in the impact hex and suppression in the
  blast zone, Firepower 6.4.2).

The steps are pure: they read ``ctx.extra`` (filled by :func:`prepare` from the game) and record
what to place (smoke, illumination) and what is used up (``ctx.extra["consume"]``); the game-side
:func:`applied` does both after the Basic effects. Demolition charges (Firepower 12.4.9) are armed
by an Action and explode at the end of their side's next Impulse Phase (:func:`explode_due`).

A hole in the impact hex (a foxhole or trench, Firepower 12.7.2) is the step ``hole`` after
``location``: it sets ``ctx.extra["in_hole"]``. Extension: another rule (buildings' openings:
Firepower 12.7.3) inserts its own step after ``location`` (an ``Edit("insert_after",
"location", ...)``) and sets ``ctx.extra["impact_side"]``; obstacles come in through
``firepower_los_obstacles``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from hexwar.core.engine.state import UNIT_REVISION, fingerprint
from hexwar.core.errors import RulesError
from hexwar.core.hexgrid import Hex, in_arc, trace
from hexwar.core.kit import Edit, StashKey
from hexwar.core.provenance import load_records
from hexwar.core.types import Modifier, sort_modifiers, total
from hexwar.plugins.firepower import combat
from hexwar.plugins.firepower.advanced_card import OC_LETTERS, AdvancedCard
from hexwar.plugins.firepower.advanced_los import (
    AdvancedLosResult,
    LosWorld,
    friendly_heads,
    line_of_sight,
    soldier_height,
    target_height,
)
from hexwar.plugins.firepower.combat import FireContext, ShotRecord, Step
from hexwar.plugins.firepower.soldiers import Soldier
from hexwar.plugins.firepower.squads import feet_height, head_height
from hexwar.plugins.firepower.terrain import FpMap
from hexwar.plugins.firepower.weapon_chart import ChartWeapon, weapon

if TYPE_CHECKING:
    from hexwar.core.engine.game import Game
    from hexwar.plugins.firepower.cover_sides import Sides

#: terrain values of the stand-in terrain (Firepower 12.5: a standard stone fence is 8)
FENCE_TV = 8
TREE_TV = 6
#: the items a soldier fires at a hex without carrying them as his major weapon
HAND_CLASSES = ("HGN", "HRG", "RGN")
#: Firepower 12.3.3, 12.3.9: F and W hit every part of a hex within three heights of the impact
FLAME_REACH = 3


# ---------------------------------------------------------------------------------------------
# Preparing a context from the game
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Firing:
    """What one Advanced fire reads from the game (``ctx.extra["firing"]``)."""

    world: LosWorld
    item: str
    ammo: str
    mode: str
    equipment: Mapping[str, int]
    models: Mapping[str, str]
    armour: frozenset[str]
    crew: int
    #: Observation Condition of each hex asked about (Firepower 12.2.11)
    observation: Mapping[Hex, int]
    #: the firer's soldiers who may observe for high-trajectory fire (docs/decisions.md FPD-56)
    observers: tuple[Soldier, ...]
    as_g: bool = False
    #: heights of soldiers marked Up (Firepower 10.5.1), by id
    ups: Mapping[str, int] = field(default_factory=dict)
    #: uses left of a weapon with limited uses (Firepower 12.3.3), None if unlimited
    uses_left: int | None = None
    #: suppressive fire: no hits, Suppressed wherever a modified 10 can be rolled (12.6.3)
    suppressive: bool = False
    #: soldier id -> the defensive position he is in (Firepower 8.8.1; defenses.positions)
    positions: Mapping[str, str] = field(default_factory=dict)
    #: the firer's weapon carries a scope he uses (Firepower 12.2.9, 12.4.7)
    scope: bool = False
    #: the firer's weapon carries a nightsight (Firepower 12.4.7)
    nightsight: bool = False
    #: hexes with a hole in the ground, by the hole's code (Firepower 12.7.2; defenses.holes)
    holes: Mapping[Hex, str] = field(default_factory=dict)
    #: the holes in fence hexes, by a hexside of their part (Firepower 12.7.4; defenses.hole_sides)
    hole_sides: Mapping[Hex, int] = field(default_factory=dict)
    #: Firepower 12.7.5: the firer announced "+" hit location modifiers (to stay out of a hole)
    location_plus: bool = False
    #: Firepower 8.9: the standing bridges' decks by hex, (bottom, floor), and the soldiers on
    #: them (docs/decisions.md FPD-126)
    decks: Mapping[Hex, tuple[int, int]] = field(default_factory=dict)
    on_deck: frozenset[str] = frozenset()
    #: the weapon unit fired, if the item is one (Firepower 10.1; weapon_units)
    weapon_unit: str | None = None
    #: rounds of the ammunition left for the weapon fired, None if unlimited (Firepower 8.5)
    rounds: int | None = None
    #: the carried item one grenade of the version fired is struck off (FPD-116), if one is
    stock: str | None = None
    #: soldier id -> (what, hexside or part, terrain value) of a climber peering over the top
    #: (Firepower 12.2.3; :func:`peering`, docs/decisions.md FPD-129)
    peering: Mapping[str, tuple[str, int, int]] = field(default_factory=dict)
    #: the places around trees, stumps and wells (Firepower 10.4; :mod:`cover_sides`)
    cover_sides: Sides | None = None
    #: the soldiers inside caves (Firepower 8.8.7; :mod:`caves`), and a cave's terrain value
    in_cave: frozenset[str] = frozenset()
    cave_value: int = 10_000
    #: lines of sight already traced in ``world`` for this state (FPD-198; :class:`FireTables`)
    lines: dict[tuple[Any, ...], AdvancedLosResult] | None = field(default=None, compare=False,
                                                                   repr=False)


def _versioned(item: str, asked: Any) -> tuple[str, str | None]:
    """Firepower 8.5: an item named with its version (``HGN4-M``) is its row and that
    version; an ammunition asked for besides must be the same."""
    from hexwar.plugins.firepower.ammunition import split_version

    row, version = split_version(item)
    if version is None:
        return item, str(asked) if isinstance(asked, str) else None
    if isinstance(asked, str) and asked and asked != version:
        raise RulesError(f"{item} is the {version} version of {row}, not {asked}",
                         rule="Firepower 8.5")
    return row, version


def _carried_version(game: Game, uid: str, item: str, equipment: Mapping[str, int]
                     ) -> str | None:
    """The version of ``item`` a grenade Action naming none uses: the one loaded on his rifle
    (Firepower 12.4.1.1), else the first of the row's versions he carries (FPD-116)."""
    from hexwar.plugins.firepower.ammunition import versions_carried
    from hexwar.plugins.firepower.loading import rifle_grenade

    w = _row(item)
    if w is None or w.cls not in HAND_CLASSES:
        return None
    on = rifle_grenade(game, game.state.units[uid])
    if on is not None and on.get("item") == item:
        return str(on["ammo"])
    have = versions_carried(equipment, item)
    return next((t for t in w.types if have.get(t, 0) > 0), None)


def _default_item(model: str | None, equipment: Mapping[str, int], ammo: str | None = None
                  ) -> str:
    """A grenade Action names no item: the soldier's own weapon if it fires at hexes (with the
    ammunition asked for), else his first hand grenade carried (docs/decisions.md FPD-57)."""
    w = _row(model) if model else None
    if w is not None and (set(w.types) - {"L"}) and w.cls not in ("DMC", "PMN", "VMN") and (
            ammo is None or ammo in w.types):
        return w.id
    from hexwar.plugins.firepower.ammunition import split_version

    for key in sorted(equipment):
        item, version = split_version(key)
        if equipment[key] > 0 and item[:3] in ("HGN", "HRG"):
            iw = _row(item)
            if ammo is None or (iw is not None and ammo in iw.types and version in (None, ammo)):
                return item
    return model or ""


#: the WEAPON CHART row of a soldier whose state names none: his Basic weapon's
#: (docs/decisions.md FPD-51)
BASIC_ROWS = {"RFL": "RFL10", "LMG": "LMG4", "PST": "PST1"}
#: the grenades of a soldier whose scenario lists no equipment: the Basic Game's, unlimited
#: (docs/decisions.md FPD-57)
BASIC_GRENADES = {"HGN3": 99}


def model_of(state: Mapping[str, Any]) -> str:
    """The soldier's WEAPON CHART row (``state.model``, else his Basic weapon's row)."""
    model = state.get("model")
    if isinstance(model, str):
        return model
    return BASIC_ROWS.get(str(state.get("weapon", "RFL")), "RFL10")


def equipment_of(state: Mapping[str, Any]) -> dict[str, int]:
    """Firepower 8.5: the items a soldier carries, with their counts."""
    if "equipment" not in state:
        return dict(BASIC_GRENADES)
    return {str(k): int(v) for k, v in dict(state.get("equipment") or {}).items()}


def crew_of(game: Game, uid: str) -> int:
    """Firepower 10.1: the soldier with the weapon and every soldier stacked with him as its
    crew (``state.crew_of`` = his id), in his hex, facing his way and not Stunned or Inactive:
    he and his effective crewmen (:func:`~hexwar.plugins.firepower.crews.crewmen_of`)."""
    from hexwar.plugins.firepower.crews import crewmen_of

    return 1 + len(crewmen_of(game, uid))


class FireTables:
    """FPD-196: the parts of a :class:`Firing` that depend on the game's state alone, not on
    the fire chosen (the line-of-sight world, every soldier's row, body armour, Up heights,
    defensive positions, holes, climbers peering, places round trees, caves, bridge decks; the
    Observation Condition of a hex and the buildings' openings and structures when first
    asked). Listing the legal Actions and the AI's estimates prepare a fire for every
    candidate with the state unchanged; these are worked out once per state."""

    def __init__(self, game: Game) -> None:
        from hexwar.plugins.firepower import cover_sides
        from hexwar.plugins.firepower.advanced_los import los_world
        from hexwar.plugins.firepower.defenses import hole_sides, holes, positions

        units = game.state.units
        self._game = game
        self.world = los_world(game)
        self.models = {uid: model_of(u.state) for uid, u in units.items()}
        self.armour = frozenset(uid for uid, u in units.items()
                                if int(dict(u.state.get("equipment") or {}).get("BDA", 0)) > 0)
        self.ups = {uid: int(u.state["up"]) for uid, u in units.items()
                    if isinstance(u.state.get("up"), int)}
        self.positions = positions(game)
        self.holes = holes(game)
        self.hole_sides = hole_sides(game)
        self.peering = peering(game)
        self.cover_sides = cover_sides.sides_of(game)
        self.caves = caves_of(game)
        self.decks = bridge_decks(game)
        #: FPD-198: the lines of sight traced in ``world`` (by firer, target, ammunition and
        #: the soldiers on the board): they depend on nothing else of the state
        self.lines: dict[tuple[Any, ...], AdvancedLosResult] = {}
        self._obs: dict[Hex, int] = {}
        self._lazy: dict[str, Any] = {}

    def observation(self, hexes: Sequence[Hex]) -> dict[Hex, int]:
        """Firepower 12.2.11: the Observation Condition of each of ``hexes`` (a new dict)."""
        from hexwar.plugins.firepower.smoke import observation

        obs = self._obs
        for h in hexes:
            if h not in obs:
                obs[h] = observation(self._game, h)
        return {h: obs[h] for h in hexes}

    def openings(self) -> Any:
        """Firepower 12.7.3: the buildings' openings view (``openings_fire.view``)."""
        if "openings" not in self._lazy:
            from hexwar.plugins.firepower.openings_fire import view

            self._lazy["openings"] = view(self._game)
        return self._lazy["openings"]

    def structures(self) -> dict[Hex, tuple[str, str, int]]:
        """Firepower 12.3.1.2: the standing structures (a new dict)."""
        if "structures" not in self._lazy:
            from hexwar.plugins.firepower.structure_fire import structures

            self._lazy["structures"] = structures(self._game)
        return dict(self._lazy["structures"])


#: the game's last :class:`FireTables`, with the state and its token it was made for (FPD-196)
_FIRE_TABLES = StashKey[tuple[object, tuple[Any, ...], FireTables]]("firepower.fire-tables")


def state_token(game: Game) -> tuple[Any, ...]:
    """What the game's state is made of, cheaply compared (FPD-196): its units in order with
    their revisions (every write to a unit draws a new one, CORE-133), the Turn and phase, and
    the system state's fingerprint (``state.fingerprint``: equal fingerprints, equal values,
    CORE-135). Two equal tokens of one state object are the same state."""
    st = game.state
    units = st.units
    return (st.turn, st.phase, list(units), list(map(UNIT_REVISION, units.values())),
            fingerprint(st.data))


def fire_tables(game: Game) -> FireTables:
    """The :class:`FireTables` of the game's state now: kept in the game's stash with the
    state's token, made again when the state changed (one kept: bounded, gone with the game)."""
    token = state_token(game)
    got = game.stash.get(_FIRE_TABLES)
    if got is not None and got[0] is game.state and got[1] == token:
        return got[2]
    tables = FireTables(game)
    game.stash[_FIRE_TABLES] = (game.state, token, tables)
    return tables


def prepare(game: Game, ctx: FireContext, choice: Mapping[str, Any]) -> None:
    """Hook ``firepower_prepare_fire``: fill ``ctx.extra["firing"]`` from the game and the
    choice."""
    from hexwar.plugins.firepower import cover_sides
    from hexwar.plugins.firepower import weapon_units as wu
    from hexwar.plugins.firepower.ammunition import grenade_stock_key, rounds_for
    from hexwar.plugins.firepower.crews import check_helper, check_squads, helpers
    from hexwar.plugins.firepower.loading import check_rgn_fire

    units = game.state.units
    me = units[ctx.firer.id]
    model = model_of(me.state)
    eq = equipment_of(me.state)
    w_unit: str | None = None
    crew = 0
    if ctx.kind == "fire":
        from hexwar.plugins.firepower.structure_fire import fire_item

        item = fire_item(model, eq, choice)  # Firepower 12.4.5: or the shotgun carried
        ammo = str(choice.get("ammo") or "L")
        mode = ctx.mode
        hexes = [ctx.soldiers[t].hex for t in ctx.targets if t in ctx.soldiers]
    else:
        raw = choice.get("item")
        asked = choice.get("ammo")
        if wu.is_unit(game, raw):  # Firepower 10.1: a crewman fires the weapon unit
            w_unit = str(raw)
            item, crew = wu.check_fire(game, ctx.firer.id, w_unit)
        else:
            item = str(raw) if isinstance(raw, str) else _default_item(
                model, eq, str(asked) if isinstance(asked, str) else None)
            item, asked = _versioned(item, asked)  # Firepower 8.5: HGN4-M is HGN4's M version
        w = _row(item)
        ammo = str(asked or _carried_version(game, ctx.firer.id, item, eq)
                   or (w.types[0] if w is not None else "G"))
        raw_mode = choice.get("mode")
        mode = str(raw_mode) if isinstance(raw_mode, str) else _default_mode(w)
        hexes = [ctx.target_hex] if ctx.target_hex is not None else []
    observers = tuple(s for s in ctx.soldiers.values()
                      if s.side == ctx.firer.side and s.id != ctx.firer.id and not s.stunned)
    left = uses_left(me.state, item) if _row(item) is not None else None
    own = item == model and bool(item)
    if own and me.state.get("weapon_side") not in (None, me.side):
        raise RulesError(f"{ctx.firer.id}'s {item} is an enemy weapon: acquired, it may be "
                         "carried but not used", rule="Firepower 11.1.6.1")
    check_rgn_fire(game, ctx.firer.id, item, mode, ammo)  # Firepower 12.4.1.1, 12.4.1.2
    from hexwar.plugins.firepower.confined_fire import check as check_confined

    check_confined(game, ctx.firer.id, _row(item), mode)  # Firepower 12.4.2, 12.4.3
    from hexwar.plugins.firepower.caves import check_firer as check_cave

    check_cave(game, me, hexes)  # Firepower 8.8.7: out of a cave's mouth only
    from hexwar.plugins.firepower.rests import check as check_rest

    ctx.extra["rest"] = check_rest(game, ctx.firer.id, _row(item), mode)  # Firepower 10.7 (10)
    check_helper(game, ctx.firer.id)  # Firepower 10.1.1
    cover_sides.check_firer(game, ctx, own or w_unit is not None)  # Firepower 10.4.2, 12.1.6
    crew = crew or crew_of(game, ctx.firer.id)
    if crew > 1:
        # Firepower 10.1.1: crewmen who used their own weapons this Impulse Phase do not help
        crew = 1 + len(helpers(game, ctx.firer.id, w_unit))
        check_squads(game, ctx.firer.id, w_unit)  # Firepower 9.2: two squads' crew
    # Firepower 8.5: a weapon's own rounds (a missile unit is its own round, 12.4.6)
    counted = own or (w_unit is not None and not wu.is_missile(game, w_unit))
    rounds = (rounds_for(game, ctx.firer.id, item, ammo)
              if counted and ammo != "L" and _row(item) is not None else None)
    scope, night = sights(item, eq, choice)
    sign = choice.get("location_sign", "-")
    if sign not in ("-", "+"):
        raise RulesError("'location_sign' is \"-\" (the hit location modifiers as given) or "
                         "\"+\" (reversed, to keep out of a hole)", rule="Firepower 12.7.5")
    key = (grenade_stock_key(eq, item, ammo) if item[:3] in HAND_CLASSES and item != model
           else None)
    # FPD-196: what depends on the state alone is worked out once per state, not per choice
    t = fire_tables(game)
    ctx.extra["firing"] = Firing(t.world, item, ammo, mode, eq, t.models, t.armour,
                                 crew, t.observation(hexes), observers, stock=key,
                                 as_g=bool(choice.get("as_g")), ups=t.ups, uses_left=left,
                                 suppressive=bool(choice.get("suppressive")),
                                 positions=t.positions, scope=scope, nightsight=night,
                                 holes=t.holes, hole_sides=t.hole_sides,
                                 location_plus=sign == "+",
                                 weapon_unit=w_unit, rounds=rounds, peering=t.peering,
                                 cover_sides=t.cover_sides, lines=t.lines, **t.caves,
                                 **t.decks)
    ctx.extra["summary"] = {"item": item, "ammo": ammo}
    if ctx.kind == "fire":  # Firepower 12.2.4: buildings, tunnels and water conceal
        from hexwar.plugins.firepower.concealment import concealed_places

        # the L modifiers are read for the soldiers of the target hexes only (step_modifiers,
        # step_suppression)
        aimed = {ctx.soldiers[t].hex for t in ctx.targets if t in ctx.soldiers}
        ctx.extra["concealed_in"] = concealed_places(
            game, [s.id for s in ctx.soldiers.values() if s.hex in aimed])
    if ctx.kind == "grenade":  # Firepower 12.7.3: the doors and windows a projectile passes
        ctx.extra["openings"] = t.openings()
        ctx.extra["structures"] = t.structures()  # Firepower 12.3.1.2
    row = _row(item)
    if ctx.kind == "grenade" and row is not None and (
            row.cls == "RGN" or (row.cls == "HRG" and mode == "rifle")):
        # Firepower 12.4.1.1 (FPD-132): a rifle grenade is fired from the rifle, not thrown;
        # the log names it and the rifle in place of the Basic context's HGN and "throw"
        ctx.extra["summary"].update(weapon=item, mode="rifle", rifle=model)


def caves_of(game: Game) -> dict[str, Any]:
    """Firepower 8.8.7: the :class:`Firing` fields of the caves (FPD-149)."""
    from hexwar.plugins.firepower.caves import insiders

    ids = insiders(game)
    if not ids:
        return {}
    from hexwar.plugins.firepower.cave_damage import terrain_value

    return {"in_cave": ids, "cave_value": terrain_value()}


def bridge_decks(game: Game) -> dict[str, Any]:
    """Firepower 8.9: the :class:`Firing` fields of the standing bridges (FPD-126)."""
    from hexwar.plugins.firepower.bridges import on_deck, spans

    got = spans(game)
    if not got:
        return {}
    decks = {h: (d.bridge.bottom, d.bridge.deck) for h, d in got.items() if d.bridge is not None}
    return {"decks": decks, "on_deck": frozenset(uid for uid, u in game.state.units.items()
                                                 if on_deck(u))}


def reach(game: Game, uid: str) -> tuple[Callable[[str, int], bool], Callable[[int], bool]]:
    """Cheap range screens for listing the choices (issue 14): ``fire(mode, rng)`` is false only
    when :func:`step_check_fire` would refuse L fire at that range (the row fires no L, or has no
    hit number there, Firepower 10.7), ``grenade(rng)`` only when :func:`step_check_hex` would
    refuse a grenade Action naming no item, ammunition or mode (the item :func:`prepare` picks,
    with its defaults) at that range. Each is a necessary condition of its full check, never a
    sufficient one."""
    from hexwar.plugins.firepower.advanced_card import advanced_card

    card = advanced_card()
    u = game.state.units[uid]
    model = model_of(u.state)
    fw = _row(model)

    def has(item: str, ammo: str, mode: str, rng: int) -> bool:
        try:
            card.hit_number(item, ammo, mode, rng)
        except RulesError:
            return False
        return True

    def fire(mode: str, rng: int) -> bool:
        return fw is None or ("L" in fw.types and has(fw.id, "L", mode, rng))

    item = _default_item(model, equipment_of(u.state), None)
    gw = _row(item)
    if gw is None or not gw.types or gw.types[0] == "C":
        return fire, lambda rng: True  # no range test before the other checks: no screen
    ammo = _carried_version(game, uid, item, equipment_of(u.state)) or gw.types[0]
    gmode = _default_mode(gw)
    if gw.by_hand and gmode == "hand":
        gmode = "semi"  # Firepower 12.4.2: by hand, the mortar's own hit numbers
    return fire, lambda rng: has(gw.id, ammo, gmode, rng)


def sights(item: str, equipment: Mapping[str, int], choice: Mapping[str, Any]
           ) -> tuple[bool, bool]:
    """Firepower 12.2.9, 12.4.7: whether the fire uses a scope (SCP) and a nightsight (NST or
    PNS) on the weapon fired: the soldier carries it (Firepower 8.5), the weapon's notes allow a
    scope ("S", Firepower 10.7), and the choice does not turn it down (``"sights": false``;
    sights need not be used). Raises RulesError for a scope on a weapon without "S"."""
    use = choice.get("sights", True)
    if not isinstance(use, bool):
        raise RulesError("'sights' is true (use the weapon's scope and nightsight) or false",
                         rule="Firepower 12.4.7")
    w = _row(item)
    if w is None or not use or item[:3] in HAND_CLASSES:
        return False, False
    scope = int(equipment.get("SCP", 0)) > 0
    if scope and "S" not in w.notes:
        raise RulesError(f"{item} takes no scope (its WEAPON CHART notes have no 'S')",
                         rule="Firepower 10.7")
    night = int(equipment.get("NST", 0)) > 0 or int(equipment.get("PNS", 0)) > 0
    return scope, night


def _row(item: str) -> ChartWeapon | None:
    try:
        return weapon(item)
    except RulesError:
        return None


def _default_mode(w: ChartWeapon | None) -> str:
    if w is None:
        return "semi"
    if w.modes:
        return w.modes[0]
    if w.is_grenade:
        return "throw"
    auto, _semi = w.rate(w.types[0]) if w.types else (None, None)
    return "auto" if auto and not _semi else "semi"


def firing(ctx: FireContext) -> Firing:
    f = ctx.extra.get("firing")
    if not isinstance(f, Firing):
        raise RulesError("an Advanced fire needs its weapon and ammunition (no Advanced context)",
                         rule="Firepower 12")
    return f


def _card(ctx: FireContext) -> AdvancedCard:
    return firing(ctx).world.card


# ---------------------------------------------------------------------------------------------
# Modifiers (Firepower 12.2), chosen by the ammunition's letter
# ---------------------------------------------------------------------------------------------


def peering(game: Game) -> dict[str, tuple[str, int, int]]:
    """Firepower 12.2.3 (docs/decisions.md FPD-129): the soldiers still marked climbing at the
    top of what they climb, who peer over it: a wall (feet on its top, the last height up), a
    height hexside climbed up (the last height before the edge: the next step enters the hex
    above, 11.1.11.2), a roadblock (feet on its top, 8.8.5.4). id -> (what, the hexside climbed
    or, for a roadblock, the part of the hex he climbs from, its terrain value, Firepower 12.5)."""
    from hexwar.plugins.firepower.advanced_terrain import ground_of
    from hexwar.plugins.firepower.defenses import defences
    from hexwar.plugins.firepower.state import alive

    out: dict[str, tuple[str, int, int]] = {}
    ds = None
    for uid, u in game.state.units.items():
        if u.hex is None or not alive(u):
            continue
        c, rb = u.state.get("climb"), u.state.get("rbl_climb")
        if isinstance(c, dict):
            step, total, side = int(c["step"]), int(c["total"]), int(c["side"])
            if c.get("kind") == "wall" and step == total // 2:
                out[uid] = ("wall", side, FENCE_TV)  # 12.5: a standard stone wall, as a fence
            elif c.get("kind") == "roof" and step == total - 1:
                out[uid] = ("wall", side, FENCE_TV)  # at the top of a building wall (FPD-176)
            elif (c.get("kind") == "hexside" and step == total - 1
                  and ground_of(game, u.hex.neighbor(side)) > ground_of(game, u.hex)):
                out[uid] = ("hexside", side, 10_000)  # the ground is never penetrated
        elif isinstance(rb, dict):
            ds = defences(game) if ds is None else ds
            d = ds.get(u.hex)
            if d is not None and int(rb["step"]) == int(d.type.height):
                out[uid] = ("roadblock", int(rb["from"]), int(d.type.terrain_value or FENCE_TV))
    return out


def _peers_over(f: Firing, target: Soldier, peer: tuple[str, int, int], source: Hex) -> bool:
    """Firepower 12.2.3: what the climber peers over lies between him and ``source``: beyond
    the hexside he climbs (wall, height hexside), or across the roadblock from his part."""
    from hexwar.plugins.firepower.terrain import centre, hexside_midpoint

    what, where, _ = peer
    if what == "roadblock":
        pic = f.world.map.fence.get(target.hex)
        return pic is not None and pic.between(where, source)
    (mx, my), (cx, cy) = hexside_midpoint(target.hex, where), centre(target.hex)
    sx, sy = centre(source)
    return (sx - mx) * (mx - cx) + (sy - my) * (my - cy) > 1e-9


def cover_of(f: Firing, target: Soldier, source: Hex, *, impact_side: int | None = None
             ) -> tuple[str, int] | None:
    """Firepower 12.2.3: the cover a soldier has against fire or blast from ``source``: a tree
    or rough hex or a crater (rough terrain, Firepower 8.7), in all directions (10.4's
    direction units are not built, docs/decisions.md FPD-58), or a fence with the fence
    between, or a cave against fire from outside it (Firepower 8.8.7); with its terrain value
    (Firepower 12.5) for Firepower 12.3.6. ``impact_side``: the
    part of the soldier's own fence hex a blast hit (Firepower 12.7.1)."""
    from hexwar.plugins.firepower import cover_sides, defenses

    pos = defenses.cover(f.positions.get(target.id))
    if pos is not None:  # Firepower 8.8.2.1, 8.8.2.2, 8.8.4.1: every direction
        code = f.positions[target.id]
        tv = defenses.types()[code].terrain_value or 10_000  # a hole is never penetrated
        return (pos[0], tv)
    if target.id in f.in_cave and source != target.hex:  # Firepower 8.8.7 (FPD-149)
        return ("cave", f.cave_value)
    peer = f.peering.get(target.id)
    if peer is not None and impact_side is None and source != target.hex \
            and _peers_over(f, target, peer, source):  # Firepower 12.2.3 (FPD-129)
        return (f"peering over the {peer[0]}", peer[2])
    m = f.world.map
    c = m.cover.get(target.hex)
    fence = m.fence.get(target.hex)
    if fence is not None:
        if impact_side is not None:
            if target.fence_side is not None and fence.part_of(target.fence_side) != \
                    fence.part_of(impact_side):
                return ("fence", FENCE_TV)
        elif source != target.hex and fence.between(target.fence_side, source):
            return ("fence", FENCE_TV)
    sided = cover_sides.sided_cover(f, target, source, impact_side=impact_side)
    if sided is not None or c == "tree":  # Firepower 10.4: by sides only (FPD-139)
        return sided
    if c == "rough":
        return ("rough", 10_000)  # rough ground has no terrain value: never penetrated
    if target.hex in m.craters:
        return ("crater", 10_000)  # Firepower 8.7: a crater is rough terrain
    return None


def concealed(f: Firing, target: Soldier, source: Hex) -> bool:
    """Firepower 12.2.4: a scrub or tree hex, or a hedge between."""
    from hexwar.plugins.firepower.defenses import concealed as in_position

    if in_position(f.positions.get(target.id)):
        return True  # Firepower 12.2.4: a foxhole, trench or loophole
    from hexwar.plugins.firepower.cover_sides import loophole_used

    if loophole_used(f, target, source):
        return True  # Firepower 12.2.4: a building wall's loophole (FPD-141)
    if target.id in f.in_cave and source != target.hex:
        return True  # Firepower 8.8.7: inside a cave, against fire from outside (FPD-149)
    m = f.world.map
    if m.cover.get(target.hex) in ("tree", "scrub"):
        return True
    hedge = m.hedge.get(target.hex)
    return hedge is not None and hedge.between(target.fence_side, source)


def concealment_mod(card: AdvancedCard) -> Modifier:
    """Firepower 12.2.4: +1 for a concealed target (once, whatever conceals him)."""
    return Modifier("target concealed", card.mod("target_concealed"), "Firepower 12.2.4")


def cover_mod(card: AdvancedCard, cover: tuple[str, int]) -> Modifier:
    """Firepower 12.2.3: +2 for a target using a loophole, +1 for other cover."""
    if cover[0].endswith("loophole"):
        return Modifier(f"target using a loophole ({cover[0]})", card.mod("target_loophole"),
                        "Firepower 12.2.3")
    return Modifier(f"target in cover ({cover[0]})", card.mod("target_in_cover"),
                    "Firepower 12.2.3")


def blast_target_mods(card: AdvancedCard, s: Soldier, cover: tuple[str, int] | None
                      ) -> list[Modifier]:
    """Firepower 12.2.3, 12.2.5: a soldier's cover and posture against a blast roll (blasts and
    canister)."""
    mods: list[Modifier] = []
    if cover is not None:
        mods.append(cover_mod(card, cover) if cover[0].endswith("loophole") else
                    Modifier(f"in cover ({cover[0]})", card.mod("target_in_cover"),
                             "Firepower 12.2.3"))
    if s.posture == "crouch":
        mods.append(Modifier("crouching", card.mod("target_crouching"), "Firepower 12.2.5"))
    elif s.posture == "prone":
        mods.append(Modifier("prone", card.mod("target_prone"), "Firepower 12.2.5"))
    return mods


def hinder_mods(card: AdvancedCard, los: AdvancedLosResult, letter: str, *,
                blast: bool = False) -> list[Modifier]:
    """Firepower 12.2.6, 12.2.7: trees and hedges that block by the chart (+1 each; hedges not
    for blast rolls), smoke hexes (+3 F or M smoke, +2 W)."""
    out: list[Modifier] = []
    n = los.trees + (0 if blast else los.hedges)
    if n and card.applies("per_tree_or_hedge", "B" if blast else letter):
        out.append(Modifier(f"{n} tree/hedge hex(es) blocking the line of sight",
                            card.mod("per_tree_or_hedge") * n, "Firepower 12.2.6"))
    if los.smoke and card.applies("per_smoke_fm", letter) and not blast:
        out.append(Modifier(f"{len(los.smoke)} smoke hex(es) in the line of sight",
                            sum(los.smoke), "Firepower 12.2.7"))
    return out


def posture_mod(w: ChartWeapon, posture: str) -> list[Modifier]:
    """Firepower 12.2.1: the weapon's Posture column."""
    v = w.posture_modifier(posture)
    return [Modifier(f"firing {posture}", v, "Firepower 12.2.1")] if v else []


def l_modifiers(ctx: FireContext, w: ChartWeapon, target: Soldier, los: AdvancedLosResult
                ) -> list[Modifier]:
    """Every FIRING MODIFIER with the letter L for one shot at ``target`` (Firepower 12.2)."""
    f, card = firing(ctx), _card(ctx)
    mods = posture_mod(w, ctx.firer.posture)
    if ctx.firer.suppressed:
        mods.append(Modifier("firer suppressed", card.mod("firer_suppressed"),
                             "Firepower 12.2.2"))
    cover = cover_of(f, target, ctx.firer.hex)
    pen = w.penetration.get("L", 0)
    hidden = concealed(f, target, ctx.firer.hex) or target.id in (
        ctx.extra.get("concealed_in") or {})  # Firepower 12.2.4 (concealment.py)
    if cover is not None:
        if pen >= cover[1]:  # Firepower 12.3.6: penetrated cover only conceals
            hidden = True
        else:
            mods.append(cover_mod(card, cover))
    if hidden:
        mods.append(concealment_mod(card))
    if target.posture == "crouch":
        mods.append(Modifier("target crouching", card.mod("target_crouching"),
                             "Firepower 12.2.5"))
    elif target.posture == "prone":
        mods.append(Modifier("target prone", card.mod("target_prone"), "Firepower 12.2.5"))
    mods.extend(hinder_mods(card, los, "L"))
    level = f.observation.get(target.hex, 1)
    if f.nightsight and level > 1:
        level = 1  # Firepower 12.4.7: a nightsight makes it Observation Condition 1
    oc = card.observation(level)
    if oc:
        mods.append(Modifier(f"Observation Condition {level}", oc, "Firepower 12.2.11"))
    _auto, semi = w.rate("L")
    if f.scope and ctx.mode == "semi" and semi in (1, 2):
        # Firepower 12.2.9: a scope helps a rate of fire of 1 or 2, never automatic fire
        mods.append(Modifier("scope", card.mod("scope"), "Firepower 12.2.9"))
    mv = card.movement(ctx.noncombat_mf, 4 if target.running else 0)
    if mv:
        mods.append(Modifier(f"movement: firer {ctx.noncombat_mf} MF, target "
                             f"{'running' if target.running else 'normal'}", mv,
                             "Firepower 12.2.12"))
    if target.id in f.armour and w.cls in ("PST", "SMG"):
        mods.append(Modifier("body armour", card.mod("body_armour"), "Firepower 12.4.8"))
    if ctx.extra_modifiers is not None:
        mods.extend(ctx.extra_modifiers(ctx, target))
    return sort_modifiers(mods)


# ---------------------------------------------------------------------------------------------
# The fire procedure (L fire at target units)
# ---------------------------------------------------------------------------------------------


def _los_to(ctx: FireContext, target: Soldier, ammo: str) -> AdvancedLosResult:
    """The line of sight from the firer to ``target``'s height for ``ammo`` (Firepower 12.1),
    traced once per state for the same firer, target and soldiers (FPD-198)."""
    f = firing(ctx)
    lines = f.lines
    if lines is None:
        return _trace_to(ctx, f, target, ammo)
    key = (ctx.firer, target, ammo, tuple(ctx.soldiers.items()))
    got = lines.get(key)
    if got is None:
        got = lines[key] = _trace_to(ctx, f, target, ammo)
    return got


def _trace_to(ctx: FireContext, f: Firing, target: Soldier, ammo: str) -> AdvancedLosResult:
    world = f.world
    fh = soldier_height(world, ctx.firer)
    th = target_height(world, ammo, target.hex, target, ctx.soldiers.values())
    friendly = friendly_heads(world, ctx.soldiers.values(), ctx.firer.side,
                              (ctx.firer.hex, target.hex))
    return line_of_sight(world, ctx.firer.hex, target.hex, fh, th, firer=ctx.firer,
                         target=target, friendly=friendly, exhaustive=False)


def _check_firer(ctx: FireContext, w: ChartWeapon) -> None:
    if ctx.firer.stunned:
        raise RulesError(f"{ctx.firer.id} is Stunned and may not spend MF",
                         rule="Firepower 6.2.8")
    if w.no_status and ctx.firer.status:
        raise RulesError(f"{w.id} may not be fired by a soldier marked {ctx.firer.status}",
                         rule="Firepower 12.4.3")
    if not w.may_fire(ctx.firer.posture):
        raise RulesError(f"{w.id} may not be fired {ctx.firer.posture} (its Posture column "
                         "shows \"-\")", rule="Firepower 10.7")


#: the rule of each position's loopholes (Firepower 8.8.4.1 bunkers, 8.8.4.2 pillboxes, 8.8.6
#: sandbagged towers)
LOOPHOLE_RULE = {"BKR": "Firepower 8.8.4.1", "PBX": "Firepower 8.8.4.2", "TWR": "Firepower 8.8.6"}


def _check_position(ctx: FireContext, f: Firing) -> None:
    """Firepower 8.8.4.1, 8.8.4.2, 8.8.6: a soldier in a bunker, pillbox or sandbagged tower fires
    through its loopholes, in the postures that reach them (a bunker's and a tower's one to two
    heights above the floor: Standing or Crouching; a pillbox's one: Crouching)."""
    from hexwar.plugins.firepower.defenses import types

    code = f.positions.get(ctx.firer.id)
    t = types()[code] if code else None
    if t is not None and t.loophole is not None and ctx.firer.posture not in t.loophole_postures:
        lo, hi = t.loophole
        at = f"{lo}-{hi} heights" if lo != hi else f"{lo} height"
        raise RulesError(f"{ctx.firer.id} is {ctx.firer.posture} in a {t.name}: its loopholes are "
                         f"{at} above the floor, used {' or '.join(t.loophole_postures)} only",
                         rule=LOOPHOLE_RULE.get(t.code.split("+")[0], "Firepower 8.8.4.1"))


def step_check_fire(ctx: FireContext) -> None:
    """Firepower 12.3.6, Firepower 10.7, Firepower 12.1: L fire at opposing soldiers of one hex,
    in arc and in the weapon's range, at the rate of fire its row allows, along a clear Advanced
    line of sight to each target's head."""
    f = firing(ctx)
    if not f.item:
        raise RulesError(f"{ctx.firer.id} carries no major personal weapon (none listed, or "
                         "discarded: Firepower 11.1.6.1)", rule="Firepower 8.5")
    w = weapon(f.item)
    if f.ammo not in w.types:
        raise RulesError(f"{w.id} fires {'/'.join(w.types)} ammunition, not {f.ammo}",
                         rule="Firepower 10.7")
    if f.ammo != "L":
        rule = "Firepower 12.3.1" if f.ammo in "AH" else "Firepower 12.3.4.1"
        raise RulesError(f"{f.ammo} ammunition is fired at a hex or a structure, not at target "
                         "units (a grenade-kind Action with the item and ammunition)", rule=rule)
    _check_firer(ctx, w)
    _check_position(ctx, f)
    auto, semi = w.rate("L")
    if ctx.mode not in ("auto", "semi") or (ctx.mode == "auto" and auto is None) or (
            ctx.mode == "semi" and semi is None):
        raise RulesError(f"{w.id}'s rate of fire is {w.rof.get('L')}: no {ctx.mode} fire",
                         rule="Firepower 10.7")
    if not ctx.targets:
        raise RulesError("name at least one target unit", rule="Firepower 6.3.1.1")
    targets = []
    for t in ctx.targets:
        s = ctx.soldiers.get(t)
        if s is None or s.side == ctx.firer.side:
            raise RulesError(f"{t} is not an opposing soldier on the board", rule="Firepower 6.3.1")
        targets.append(s)
    if len(set(ctx.targets)) != len(ctx.targets):
        raise RulesError("only one burst may be fired at any single target unit",
                         rule="Firepower 6.3.5.1")
    hexes = sorted({s.hex for s in targets})
    if f.nightsight and ctx.mode == "auto" and len(hexes) > 1:
        raise RulesError(f"{w.id} fires automatic with a nightsight: targets in one hex only",
                         rule="Firepower 12.4.7")
    check_hexes(ctx, w, f, hexes)
    bursts = auto[0] if ctx.mode == "auto" and auto else 1
    if ctx.mode == "auto" and w.crew >= 2 and f.crew < 2:
        bursts = 1  # Firepower 10.1.2.2: a lone crewman fires one burst
    if len(targets) > bursts:
        raise RulesError(f"{w.id} fires at most {bursts} burst(s) here"
                         + (" (one crewman left)" if bursts == 1 and w.crew >= 2 else ""),
                         rule="Firepower 10.1.2.2" if w.crew >= 2 and f.crew < 2
                         else "Firepower 6.3.5.1")
    ctx.target_hex = targets[0].hex
    for h in hexes:
        rng = ctx.firer.hex.distance(h)
        if rng == 0:
            raise RulesError("a soldier may not fire into his own hex", rule="Firepower 6.3.2.1")
        if not in_arc(ctx.firer.hex, ctx.firer.facing, h, "front60"):
            raise RulesError(f"{ctx.map.label(h)} is outside {ctx.firer.id}'s firing arc",
                             rule="Firepower 6.3.3")
        _card(ctx).hit_number(w.id, "L", ctx.mode, rng)  # raises out of range
    ctx.range = ctx.firer.hex.distance(ctx.target_hex)
    los_by: dict[str, AdvancedLosResult] = {}
    for s in targets:
        los = _los_to(ctx, s, "L")
        if los.blocked:
            raise RulesError(f"no line of sight to {s.id}: {los.reason}", rule=los.rule)
        los_by[s.id] = los
    ctx.extra["los"] = los_by


def step_hit_number(ctx: FireContext) -> None:
    """Firepower 10.7 item 6: the WEAPON CHART hit number at the range (of each target hex when
    the bursts go at several, Firepower 12.6)."""
    f = firing(ctx)
    card = _card(ctx)
    ctx.hit = card.hit_number(f.item, "L", ctx.mode, ctx.range)
    ctx.extra["hits"] = {t: card.hit_number(f.item, "L", ctx.mode,
                                            ctx.firer.hex.distance(ctx.soldiers[t].hex))
                         for t in ctx.targets}


def step_modifiers(ctx: FireContext) -> None:
    """Firepower 12.2: the L modifiers of each target unit."""
    w = weapon(firing(ctx).item)
    for t in ctx.targets:
        ctx.modifiers[t] = l_modifiers(ctx, w, ctx.soldiers[t], ctx.extra["los"][t])


def step_shots(ctx: FireContext) -> None:
    """Firepower 12.3.6: each shot at or under the hit number eliminates the target."""
    w = weapon(firing(ctx).item)
    auto, semi = w.rate("L")
    shots = auto[1] if ctx.mode == "auto" and auto else (semi or 1)
    if firing(ctx).suppressive:
        return  # Firepower 12.6.3: suppressive fire scores no hits
    hits: Mapping[str, int] = ctx.extra.get("hits") or {}
    for burst, t in enumerate(ctx.targets, start=1):
        mod = total(ctx.modifiers[t])
        need = hits.get(t, ctx.hit)
        for _ in range(shots):
            r = ctx.roll(f"{ctx.firer.id} {w.id} shot at {t}")
            hit = r + mod <= need
            ctx.shots.append(ShotRecord(t, burst, r, int(r + mod), hit))
            if hit:
                ctx.eliminated.append(t)
                break


def step_suppression(ctx: FireContext) -> None:
    """Firepower 6.4.1, Firepower 12.3.6: automatic L fire suppresses every soldier of the target
    hex not hit, where a modified 10 or less could be rolled (each with his own modifiers and his
    own line of sight; docs/decisions.md FPD-22)."""
    if ctx.mode != "auto":
        return
    w = weapon(firing(ctx).item)
    hexes = {ctx.soldiers[t].hex for t in ctx.targets}
    for s in sorted(ctx.soldiers.values(), key=lambda s: s.id):
        if s.hex not in hexes or s.id in ctx.eliminated or s.stunned:
            continue
        mods = ctx.modifiers.get(s.id)
        if mods is None:
            los = _los_to(ctx, s, "L")
            if los.blocked:
                continue
            mods = l_modifiers(ctx, w, s, los)
        if combat.can_suppress_auto(mods):
            ctx.suppressed.append(s.id)


def check_hexes(ctx: FireContext, w: ChartWeapon, f: Firing, hexes: Sequence[Hex]) -> None:
    """Firepower 12.6: bursts go at one hex, except that a tripod weapon may spread its bursts over
    any hexes of its arc (12.6.1), a bipod weapon fired Prone over up to three hexes adjacent to
    each other (12.6.2; or at rest, :mod:`~hexwar.plugins.firepower.rests`), and any automatic
    weapon may fire suppressive fire at one burst per hex (12.6.3)."""
    if f.suppressive and ctx.mode != "auto":
        raise RulesError("suppressive fire is automatic fire", rule="Firepower 12.6.3")
    if len(hexes) == 1:
        return
    if ctx.mode != "auto":
        raise RulesError("semi-automatic shots go at a single target unit",
                         rule="Firepower 6.3.5.2")
    if f.suppressive:
        if len(hexes) != len(ctx.targets):
            raise RulesError("suppressive fire is one burst per hex", rule="Firepower 12.6.3")
        return
    if w.tripod:
        return
    if "B" in w.notes and (ctx.firer.posture == "prone" or ctx.extra.get("rest")):
        if len(hexes) > 3 or any(a.distance(b) != 1 for a in hexes for b in hexes if a != b):
            raise RulesError("a bipod weapon's bursts go at up to three hexes adjacent to each "
                             "other", rule="Firepower 12.6.2")
        return
    raise RulesError("every burst must be at a target unit in the same hex (a tripod, or a bipod "
                     "fired Prone, may spread its bursts)", rule="Firepower 12.6")


FIRE_STEPS: tuple[Step, ...] = (
    Step("check", step_check_fire, "Firepower 12.3.6"),
    Step("hit_number", step_hit_number, "Firepower 10.7"),
    Step("modifiers", step_modifiers, "Firepower 12.2"),
    Step("shots", step_shots, "Firepower 12.3.6"),
    Step("suppression", step_suppression, "Firepower 6.4.1"),
)


# ---------------------------------------------------------------------------------------------
# Fire at a hex: grenades, launchers, mortars, flame, smoke, illumination, canister, A/H
# ---------------------------------------------------------------------------------------------


def letter(f: Firing) -> str:
    """The letter whose modifiers apply: H used as G takes G's (Firepower 12.3.5.2)."""
    return "G" if f.ammo == "H" and f.as_g else f.ammo


def blast_number(f: Firing, w: ChartWeapon) -> int:
    """Firepower 10.7 item 7; H used as G: half the H blast, rounded down (Firepower 12.3.5.2);
    canister: the weapon's G blast number (Firepower 12.3.2.1)."""
    if f.ammo == "H" and f.as_g:
        return w.blast_of("H") // 2
    if f.ammo == "C" and "G" in w.blast:
        return w.blast["G"]
    return w.blast_of(f.ammo, f.mode)


def penetration(f: Firing, w: ChartWeapon) -> int:
    """Firepower 10.7 item 8; H used as G penetrates 1 (Firepower 12.3.5.2)."""
    if f.ammo == "H" and f.as_g:
        return 1
    return w.penetration.get(f.ammo, 0)


def damaged_hexes(f: Firing, w: ChartWeapon, impact: Hex) -> list[Hex]:
    """The hexes whose terrain a G or W hit at ``impact`` damages by its penetration: the impact
    hex (Firepower 12.3.4.2), and for W its whole blast zone (Firepower 12.3.9)."""
    hexes = [impact]
    if f.ammo == "W":
        reach = f.world.card.blast_reach(blast_number(f, w))
        hexes += sorted(h for h in impact.within(reach) if h != impact)
    return hexes


def step_check_hex(ctx: FireContext) -> None:
    """Firepower 12.3, 12.4: the item may be fired by this soldier with this ammunition, at
    this range (minimum ranges, range lines), from his posture, and along the line of sight to
    the highest height in the target hex; high-trajectory mortar fire needs an observer's line
    of sight instead (docs/decisions.md FPD-56)."""
    f, card = firing(ctx), _card(ctx)
    if ctx.target_hex is None:
        raise RulesError("name the target hex", rule="Firepower 12.3.4.1")
    if ctx.target_hex not in ctx.map.hexes:
        raise RulesError(f"hex {ctx.target_hex!r} is not on the board", rule="Firepower 4.9")
    if not f.item:
        raise RulesError(f"{ctx.firer.id} carries nothing to fire at a hex", rule="Firepower 8.5")
    w = weapon(f.item)
    own = f.item == f.models.get(ctx.firer.id) or f.weapon_unit is not None
    if not own and f.equipment.get(f.stock or f.item, 0) <= 0:
        of = f" of the {f.ammo} version" if f.stock and f.stock != f.item else ""
        raise RulesError(f"{ctx.firer.id} carries no {f.item}{of} (his weapon is "
                         f"{f.models.get(ctx.firer.id)}, his equipment "
                         f"{dict(f.equipment) or 'none'})", rule="Firepower 8.5")
    if own and f.uses_left is not None and f.uses_left <= 0:
        raise RulesError(f"{w.id} may be fired {w.uses} times; none are left",
                         rule="Firepower 12.3.3")
    if w.cls == "DMC":
        raise RulesError("a demolition charge is armed in its hex, not fired (the arm Action)",
                         rule="Firepower 12.4.9")
    if w.cls in ("PMN", "VMN"):
        raise RulesError(f"{w.id} is a mine: it is set off, not fired", rule="Firepower 12.4.4")
    if f.ammo not in w.types:
        raise RulesError(f"{w.id} fires {'/'.join(w.types)} ammunition, not {f.ammo}",
                         rule="Firepower 10.7")
    if f.ammo == "L":
        raise RulesError("L fire is at target units (the fire Action)", rule="Firepower 12.3.6")
    if own and f.rounds is not None and f.rounds <= 0:
        raise RulesError(f"{ctx.firer.id} has no {f.ammo} rounds left for {w.id} "
                         f"({w.id}AMO-{f.ammo}; his crew's count too)", rule="Firepower 8.5")
    if f.as_g and f.ammo != "H":
        raise RulesError("only H ammunition may be used as G", rule="Firepower 12.3.5")
    if f.mode == "hand" and not w.by_hand:
        raise RulesError(f"{w.id} may not be fired by hand (only MRT4 and MRT5)",
                         rule="Firepower 12.4.2")
    if w.modes and f.mode not in w.modes:
        raise RulesError(f"{w.id} is thrown {' or '.join(w.modes)}, not {f.mode}",
                         rule="Firepower 12.4.1.3")
    _check_firer(ctx, w)
    rng = ctx.firer.hex.distance(ctx.target_hex)
    ctx.range = rng
    if rng == 0:
        raise RulesError("a soldier may not fire into his own hex", rule="Firepower 6.3.2.1")
    if not in_arc(ctx.firer.hex, ctx.firer.facing, ctx.target_hex, "front60"):
        raise RulesError(f"{ctx.map.label(ctx.target_hex)} is outside {ctx.firer.id}'s firing "
                         "arc", rule="Firepower 6.3.3")
    if (w.high_trajectory or w.cls in ("RGN",) or f.mode == "rifle") and ctx.noncombat_mf:
        rule = "Firepower 12.4.2" if w.high_trajectory else "Firepower 12.4.1.1"
        raise RulesError(f"{w.id} is fired only in an Impulse in which the firer spends no "
                         f"other MF ({ctx.noncombat_mf} spent or announced)", rule=rule)
    if w.min_range and rng < w.min_range and f.mode != "throw":
        rule = "Firepower 12.4.2" if w.cls == "MRT" else "Firepower 12.4.1.1"
        raise RulesError(f"{w.id}'s minimum range is {w.min_range} hexes; "
                         f"{ctx.map.label(ctx.target_hex)} is {rng}", rule=rule)
    if f.ammo == "A" or (f.ammo == "H" and not f.as_g):
        from hexwar.plugins.firepower.structure_fire import at as structure_at

        if ctx.target_hex not in f.world.map.fence and structure_at(ctx) is None:
            raise RulesError("A and H (armour-piercing) fire is at a vehicle or a structure "
                             "(a fence, wall, bunker, pillbox, tower...); this hex has none",
                             rule="Firepower 12.3.1")
        ctx.hit = card.hit_number(w.id, f.ammo, f.mode, rng)
    elif f.ammo == "C":
        pass  # Firepower 12.3.2.1: no hit number, every hex of the arc is in the blast zone
    else:
        # a mortar fired by hand reads its own hit numbers (Firepower 12.4.2)
        ctx.hit = card.hit_number(w.id, f.ammo, "semi" if by_hand(w, f) else f.mode, rng)
    if w.is_grenade and f.mode in ("throw", "offensive", "defensive"):
        line = w.range_line or 5
        if rng > line and ctx.firer.posture != "stand":
            raise RulesError(f"only a Standing soldier may throw {w.id} beyond {line} hexes",
                             rule="Firepower 6.3.2.1.1")
    from hexwar.plugins.firepower.bridges import aim_height

    world = f.world
    th = aim_height(f.decks, ctx.target_hex,  # Firepower 8.9: a bridge hex's deck (FPD-155)
                    target_height(world, f.ammo, ctx.target_hex, None, ctx.soldiers.values()))
    friendly = friendly_heads(world, ctx.soldiers.values(), ctx.firer.side,
                              (ctx.firer.hex, ctx.target_hex))
    fh = soldier_height(world, ctx.firer)
    los = line_of_sight(world, ctx.firer.hex, ctx.target_hex, fh, th, firer=ctx.firer,
                        friendly=friendly, exhaustive=False)
    high = w.high_trajectory and not by_hand(w, f)
    if los.blocked and high:
        seen = _observed(ctx, f, th)
        if seen is None:
            raise RulesError(f"no soldier of the firer's side sees "
                             f"{ctx.map.label(ctx.target_hex)} ({los.reason})",
                             rule="Firepower 12.4.2")
        ctx.extra["observer"] = seen
        los = line_of_sight(world, ctx.firer.hex, ctx.target_hex, 10_000, th)  # over the top
    elif los.blocked:
        raise RulesError(f"no line of sight to {ctx.map.label(ctx.target_hex)}: {los.reason}",
                         rule=los.rule)
    if f.ammo == "H" and (los.trees or los.hedges):
        raise RulesError("a shot with H ammunition cannot pass a tree or hedge that stands "
                         "in the way of the line of sight", rule="Firepower 12.2.6")
    ctx.los = None
    ctx.extra["los_hex"] = los
    sides = trace(ctx.firer.hex, ctx.target_hex).entry_hexsides()
    ctx.entry_side = (ctx.vertex_side if ctx.vertex_side in sides else sides[0])


def by_hand(w: ChartWeapon, f: Firing) -> bool:
    """Firepower 12.4.2: MRT4 and MRT5 may be fired "by hand" (mode ``hand``), flat, so out of
    covered structures and along the firer's own line of sight."""
    return w.by_hand and f.mode == "hand"


def _observed(ctx: FireContext, f: Firing, th: int) -> str | None:
    """docs/decisions.md FPD-56: high-trajectory fire at a hex some soldier of the firer's side
    sees along a clear Advanced line of sight (the first such soldier by id)."""
    assert ctx.target_hex is not None
    for s in sorted(f.observers, key=lambda s: s.id):
        if s.hex == ctx.target_hex:
            return s.id
        los = line_of_sight(f.world, s.hex, ctx.target_hex, soldier_height(f.world, s), th,
                            firer=s, exhaustive=False)
        if not los.blocked:
            return s.id
    return None


def step_hex_modifiers(ctx: FireContext) -> None:
    """Firepower 12.2: the modifiers of a shot at a hex by its letter: posture (12.2.1),
    Suppressed (12.2.2), trees/hedges and smoke (12.2.6, 12.2.7), each height of a fence in the
    target hex (12.2.10), Observation Conditions (12.2.11, not for F), and the movement chart for
    grenade launchers and launchers if the firer spent other MF (12.2.12.4)."""
    f, card = firing(ctx), _card(ctx)
    if f.ammo == "C":
        ctx.modifiers["throw"] = []
        return
    w = weapon(f.item)
    let = letter(f)
    assert ctx.target_hex is not None
    mods: list[Modifier] = [] if w.is_grenade else posture_mod(w, ctx.firer.posture)
    if ctx.firer.suppressed:
        mods.append(Modifier("firer suppressed", card.mod("firer_suppressed"),
                             "Firepower 12.2.2"))
    mods.extend(hinder_mods(card, ctx.extra["los_hex"], let))
    if ctx.target_hex in f.world.map.fence and card.applies("per_wall_height", let):
        hts = f.world.fence_top(ctx.target_hex)  # a roadblock is its own height (FPD-115)
        mods.append(Modifier(f"fence of {hts} height(s) in the target hex",
                             card.mod("per_wall_height") * hts, "Firepower 12.2.10"))
    oc = f.observation.get(ctx.target_hex, 1)
    if card.observation(oc) and let in OC_LETTERS:
        mods.append(Modifier(f"Observation Condition {oc}", card.observation(oc),
                             "Firepower 12.2.11"))
    if w.cls in ("GLR", "MPL") and let in "GMUH" and ctx.noncombat_mf:
        mods.append(Modifier(f"movement: firer {ctx.noncombat_mf} MF",
                             card.movement(ctx.noncombat_mf, 0), "Firepower 12.2.12.4"))
    if ctx.extra_modifiers is not None:
        mods.extend(ctx.extra_modifiers(ctx, ctx.firer))
    ctx.modifiers["throw"] = sort_modifiers(mods)


def step_throw(ctx: FireContext) -> None:
    """Firepower 12.3.4.1, 6.3.6.3.2: the hit number or less hits the target hex; over 10 misses
    completely; otherwise the spread diagram (the Basic one for every weapon, docs/decisions.md
    FPD-53) gives the impact hex, a dud off the board, beyond the range or out of the firer's
    line of sight. F ammunition has no spread: a miss fails to ignite (Firepower 12.3.3); A or H
    against a structure simply misses (Firepower 12.3.1.1). Canister has no throw."""
    f = firing(ctx)
    assert ctx.target_hex is not None and ctx.entry_side is not None
    if f.ammo == "C":
        ctx.outcome = "canister"
        return
    r = ctx.roll(f"{ctx.firer.id} {f.item} at {ctx.map.label(ctx.target_hex)}")
    mod = int(total(ctx.modifiers["throw"]))
    ctx.throw_roll, ctx.throw_modified = r, r + mod
    if r + mod <= ctx.hit:
        ctx.outcome, ctx.impact = "hit", ctx.target_hex
        return
    if f.ammo == "F":
        ctx.outcome = "failed to ignite"
        return
    if f.ammo == "A" or (f.ammo == "H" and not f.as_g):
        ctx.outcome = "miss"
        return
    if r + mod > 10:
        ctx.outcome = "complete miss"
        return
    ctx.spread_roll = ctx.roll(f"{ctx.firer.id} {f.item} spread")
    h = combat.spread_hex(ctx.card, ctx.target_hex, ctx.entry_side, ctx.spread_roll)
    if h not in ctx.map.hexes:
        ctx.outcome = "dud (off the mapboard)"
        return
    w = weapon(f.item)
    reach = _card(ctx).max_range(w.id, f.ammo, "semi" if by_hand(w, f) else f.mode)
    if ctx.firer.hex.distance(h) > reach:
        ctx.outcome = "dud (beyond the weapon's range)"
        return
    if h != ctx.firer.hex and "observer" not in ctx.extra:
        from hexwar.plugins.firepower.bridges import aim_height

        th = aim_height(f.decks, h, target_height(f.world, f.ammo, h, None,
                                                  ctx.soldiers.values()))
        if line_of_sight(f.world, ctx.firer.hex, h, soldier_height(f.world, ctx.firer), th,
                         firer=ctx.firer, exhaustive=False).blocked:
            ctx.outcome = "dud (blocked from the firer's line of sight)"
            return
    ctx.outcome, ctx.impact = "spread", h


def step_location(ctx: FireContext) -> None:
    """Firepower 12.7.1: a G (or H as G) impact in a fence hex: the firer numbers the two parts,
    the one he wants most 1 (the part with more opposing soldiers on it), and rolls, -2 at range
    1-3 (rolls read 1 to 10): 1-5 hits part 1, 6-10 part 2 (the table's split is a stand-in,
    docs/decisions.md FPD-53). The part hit decides who has the fence between him and the blast.
    In a tree, stump or well hex the trunk's two sides are rolled for instead
    (:func:`trunk_location`, FPD-162)."""
    f = firing(ctx)
    if ctx.impact is None or letter(f) != "G":
        return
    if ctx.impact not in f.world.map.fence:
        trunk_location(ctx, f)
        return
    pic = f.world.map.fence[ctx.impact]
    parts = pic.sides()
    counts = [0, 0]
    for s in ctx.soldiers.values():
        if s.hex == ctx.impact and s.side != ctx.firer.side and s.fence_side is not None:
            counts[pic.part_of(s.fence_side)] += 1
    want = 0 if counts[0] >= counts[1] else 1
    split, reach, by_range = side_table()
    r = ctx.roll(f"{f.item} hit location in {ctx.map.label(ctx.impact)}")
    mod = by_range if ctx.range <= reach else 0
    final = min(10, max(1, r + (-mod if f.location_plus else mod)))  # Firepower 12.7.5
    got = want if final <= split else 1 - want
    side = min(parts[got])
    ctx.extra["impact_side"] = side
    ctx.extra.setdefault("summary", {})["location"] = {
        "roll": r, "modified": final, "part": 1 if got == want else 2, "side": side,
        "rule": "Firepower 12.7.1"}


HIT_LOCATION = Path(__file__).parent / "data" / "advanced" / "hit_location.toml"


@cache
def side_table() -> tuple[int, int, int]:
    """Firepower 12.7.1: (the modified roll or less that hits side 1 of the TWO SIDES table, the
    longest range of the modifier, the modifier) of ``data/advanced/hit_location.toml`` (the
    split is a stand-in, docs/decisions.md FPD-53, FPD-162)."""
    v = load_records(HIT_LOCATION).values["sides"]
    return int(v["two"]), int(v["range"]), int(v["modifier"])


def opposite(side: int) -> int:
    """The hexside across the hex from ``side`` (1-6)."""
    return (side + 2) % 6 + 1


def trunk_location(ctx: FireContext, f: Firing) -> None:
    """Firepower 12.7.1 in a tree, stump or well hex (Firepower 10.4; docs/decisions.md FPD-162):
    the trunk makes two sides of the hex. The firer numbers as side 1 the part by the hexside
    where a burst leaves the most opposing soldiers of the hex without the trunk between them
    and it (ties: the lowest hexside), side 2 the part across the trunk (the opposite hexside),
    and rolls, -2 at range 1-3 (+2 if he announced "+", Firepower 12.7.5; read 1 to 10), on the
    TWO SIDES split of the fence. The burst lands by that hexside (``ctx.extra["impact_side"]``):
    a soldier whose place covers it has the trunk's cover against the blast (Firepower 10.4.1,
    10.4.2), the others do not. No roll when both sides leave everyone's cover as it is (it
    makes no difference, as 19.3.1.1.2 says of vehicles); the burst still lands by side 1, never
    on the line from the firer (FPD-162 replaces that part of FPD-139 for G)."""
    from hexwar.plugins.firepower import cover_sides

    impact = ctx.impact
    assert impact is not None
    kind = cover_sides.kind_at_fire(f, impact)
    if kind is None:
        return
    here = [s for s in ctx.soldiers.values() if s.hex == impact]
    src = ctx.firer.hex

    def bare(s: Soldier, side: int) -> bool:
        return cover_of(f, s, src, impact_side=side) is None

    exposed = {h: sum(1 for s in here if s.side != ctx.firer.side and bare(s, h))
               for h in range(1, 7)}
    first = max(range(1, 7), key=lambda h: (exposed[h], -h))
    second = opposite(first)
    summary: dict[str, Any] = {"kind": kind, "sides": [first, second],
                               "rule": "Firepower 12.7.1"}
    if all(bare(s, first) == bare(s, second) for s in here):
        side = first  # Firepower 12.7.1: no two sides to consider, nothing to roll
        summary.update(part=1, side=side, rolled=False)
    else:
        split, reach, by_range = side_table()
        r = ctx.roll(f"{f.item} hit location in {ctx.map.label(impact)}")
        mod = by_range if ctx.range <= reach else 0
        final = min(10, max(1, r + (-mod if f.location_plus else mod)))  # Firepower 12.7.5
        part = 1 if final <= split else 2
        side = first if part == 1 else second
        summary.update(roll=r, modified=final, part=part, side=side, rolled=True)
    ctx.extra["impact_side"] = side
    ctx.extra.setdefault("summary", {})["location"] = summary


@cache
def hole_table() -> tuple[dict[str, int], dict[int, int]]:
    """Firepower 12.7.2: (the modified roll or less that lands in each kind of hole, the range
    modifiers) of ``data/advanced/hit_location.toml`` (stand-in numbers, docs/decisions.md
    FPD-90)."""
    v = load_records(HIT_LOCATION).values
    return ({str(k): int(n) for k, n in v["into"].items()},
            {int(k): int(n) for k, n in v["range_modifier"].items()})


def into_hole(code: str, roll: int, rng: int, *, plus: bool = False) -> tuple[bool, int]:
    """Firepower 12.7.2, 12.7.5: whether a "G" hit in a hex with the hole ``code`` lands in it,
    and the modified roll (read 1 to 10, Firepower 12.7): -3 at one hex, -1 at two or three
    (``plus``: the firer announced the modifiers reversed)."""
    into, by_range = hole_table()
    if code not in into:
        raise RulesError(f"no hit location entry for a {code!r} hole", rule="Firepower 12.7.2")
    mod = by_range.get(rng, 0)
    final = min(10, max(1, roll + (-mod if plus else mod)))
    return final <= into[code], final


def step_hole(ctx: FireContext) -> None:
    """Firepower 12.7.2: a "G" (or H as G) impact in a hex with a foxhole or trench: a roll says
    whether it lands in the hole (no cover for the soldiers in it, and the blast starts at the
    bottom, so the others in the hex are heights above it, Firepower 12.2.8) or beside it (the
    hole's cover applies as before). A ditch fills its hex: always in. Rolled after the side of
    a fence hex (Firepower 12.7.4: the combination is rolled one location at a time), and only
    when the part hit is the hole's (docs/decisions.md FPD-136)."""
    f = firing(ctx)
    if ctx.impact is None or letter(f) != "G" or ctx.impact not in f.holes:
        return
    code = f.holes[ctx.impact]
    hit, mine = ctx.extra.get("impact_side"), f.hole_sides.get(ctx.impact)
    pic = f.world.map.fence.get(ctx.impact)
    if isinstance(hit, int) and mine is not None and pic is not None \
            and pic.part_of(hit) != pic.part_of(mine):
        # Firepower 12.7.4: the other part of the fence hex is hit, not the hole's: no roll
        ctx.extra.setdefault("summary", {})["hole"] = {
            "hole": code, "in": False, "other_part": True, "rule": "Firepower 12.7.4"}
        return
    r = ctx.roll(f"{f.item} into the hole in {ctx.map.label(ctx.impact)}")
    got, final = into_hole(code, r, ctx.range, plus=f.location_plus)
    ctx.extra["in_hole"] = got
    ctx.extra.setdefault("summary", {})["hole"] = {
        "hole": code, "roll": r, "modified": final, "in": got, "rule": "Firepower 12.7.2"}


def blast_mods(f: Firing, s: Soldier, impact: Hex, d: int, blast: int, *,
               impact_side: int | None = None, source: Hex | None = None,
               in_hole: bool = False, floor: int | None = None) -> list[Modifier] | None:
    """The modifiers of one blast roll (Firepower 12.2, letter B): the BLAST DIAGRAM's distance
    (Firepower 12.3.4.1), cover (12.2.3; not for F or W), Crouching/Prone (12.2.5; not for F or
    W), trees between the impact and the soldier (12.2.6), each height between the impact and
    the nearest part of the soldier (12.2.8), body armour (12.4.8). None: out of the blast zone
    or totally blocked from the impact (12.2.3)."""
    card = f.world.card
    dm = card.blast_modifier(blast, d)
    if dm is None:
        return None
    mods = [Modifier("impact hex" if d == 0 else f"blast zone, {d} hex(es)", dm,
                     "Firepower 12.3.4.1")] if dm or d == 0 else []
    ground = f.world.ground(impact)
    deck = f.decks.get(impact)
    if deck is not None:  # Firepower 8.9: an impact in a bridge hex is on its deck (FPD-126)
        ground = deck[1]
        if d == 0 and s.id not in f.on_deck:
            return None  # Firepower 12.2.3: under the deck, the slab totally blocks it
    mine = f.decks.get(s.hex) if d and s.id not in f.on_deck else None
    if mine is not None:  # Firepower 8.9, 12.2.3: the deck over a soldier under it
        from hexwar.plugins.firepower.bridges import slab_blocks

        if slab_blocks(ground, soldier_height(f.world, s), d, d, *mine):
            return None
    if floor is not None and d == 0:
        ground = floor  # Firepower 12.7.3: the burst on the shelter's floor (a tower's: 8.8.6)
    if in_hole and d == 0:  # Firepower 12.7.2: the blast is at the bottom of the hole
        from hexwar.plugins.firepower.defenses import types

        ground -= types()[f.holes[impact]].depth if f.holes.get(impact) in types() else 0
    if d:
        los = line_of_sight(f.world, impact, s.hex, ground, soldier_height(f.world, s),
                            exhaustive=False)
        if los.blocked and any(st.obstacle.kind in ("hill", "fence") or st.obstacle.absolute
                               or st.obstacle.bottom is not None  # a deck (FPD-126)
                               for st in los.steps if st.verdict == "blocked"):
            return None  # Firepower 12.2.3: totally blocked from the impact
        if los.trees:
            mods.append(Modifier(f"{los.trees} tree hex(es) between", los.trees *
                                 card.mod("per_tree_or_hedge"), "Firepower 12.2.6"))
    fw = f.ammo in ("F", "W")
    if not fw:
        cover = cover_of(f, s, source if (d == 0 and source is not None) else impact,
                         impact_side=impact_side if d == 0 else None)
        if d == 0 and in_hole and f.positions.get(s.id) == f.holes.get(impact):
            cover = None  # Firepower 12.7.2: in the hole with him, no cover modifier
        if d == 0 and floor is not None:
            cover = None  # Firepower 12.7.3: burst inside his shelter (FPD-148), no cover
        mods.extend(blast_target_mods(card, s, cover))
    feet = f.world.base(s) + feet_height(s.posture, f.ups.get(s.id))
    head = f.world.base(s) + head_height(s.posture, f.ups.get(s.id))
    diff = feet - ground if feet > ground else ground - head if head < ground else 0
    if diff:
        if fw and diff > FLAME_REACH:
            return None  # Firepower 12.3.3, 12.3.9: beyond three heights of the impact
        mods.append(Modifier(f"{diff} height(s) from the impact", diff *
                             card.mod("per_height_from_impact"), "Firepower 12.2.8"))
    if s.id in f.armour:
        mods.append(Modifier("body armour", card.mod("body_armour"), "Firepower 12.4.8"))
    return sort_modifiers(mods)


def resolve_blast(ctx: FireContext, f: Firing, impact: Hex, blast: int, *,
                  zone: bool = True, source: Hex | None = None) -> None:
    """One blast roll per soldier, of either side, in the impact hex and (``zone``) its blast
    zone: a modified roll at or under the blast number eliminates; a survivor in the impact hex
    is Stunned (Firepower 6.4.2, 12.3.4.2), one in the blast zone Suppressed if an unmodified 2
    could have hit (Firepower 6.4.2)."""
    side = ctx.extra.get("impact_side")
    in_hole = bool(ctx.extra.get("in_hole")) and impact == ctx.impact
    from hexwar.plugins.firepower.openings_fire import Shelter

    room = ctx.extra.get("shelter") if impact == ctx.impact else None
    room = room if isinstance(room, Shelter) else None
    pierces = room is not None and penetration(f, weapon(f.item)) >= room.terrain_value
    for s in sorted(ctx.soldiers.values(), key=lambda s: s.id):
        d = s.hex.distance(impact)
        if d and not zone:
            continue
        floor = None
        if room is not None:  # Firepower 12.7.3, 12.2.3 (FPD-148): in or outside a shelter
            if room.inside != (s.id in room.ids) and not (not room.inside and pierces):
                continue  # its walls stand between the burst and him
            floor = room.floor if room.inside else None
        mods = blast_mods(f, s, impact, d, blast, impact_side=side, source=source,
                          in_hole=in_hole, floor=floor)
        if mods is None:
            continue
        ctx.modifiers[s.id] = mods
        combat.blast_on(ctx, s, mods, blast, label=f"{f.item} blast on {s.id}", distance=d)


def step_blast(ctx: FireContext) -> None:
    """Firepower 12.3: the effect of the impact by ammunition: G and W (and H as G) blast the
    impact hex and the blast zone (12.3.4, 12.3.9, 12.3.5.2); F only the impact hex (12.3.3); M
    makes smoke and U illumination without hits (12.3.7, 12.3.8); F and W make smoke too; C rolls
    for every soldier in the arc (12.3.2); A or H that penetrates a fence blasts everyone in that
    hex and stuns whom it misses (12.3.1.2). The item used is used up (one grenade, one
    flamethrower load)."""
    f = firing(ctx)
    w = weapon(f.item)
    own = f.item == f.models.get(ctx.firer.id) or f.weapon_unit is not None
    ctx.extra["consume"] = ((f.stock or f.item) if (not own or w.uses) and f.weapon_unit is None
                            else None)
    # Firepower 8.5: a counted round of the weapon's own ammunition is used up, hit or miss
    ctx.extra["round"] = [f.item, f.ammo] if own and f.rounds is not None else None
    place: list[dict[str, Any]] = []
    ctx.extra["place"] = place
    if f.ammo == "C":
        _canister(ctx, f, w)
        return
    if ctx.impact is None:
        return
    ground = f.world.ground(ctx.impact)
    if f.ammo == "M":
        place.append({"smoke": "M", "hex": ctx.map.label(ctx.impact), "height": ground})
        return
    if f.ammo == "U":
        place.append({"illumination": True, "hex": ctx.map.label(ctx.impact)})
        return
    if f.ammo == "A" or (f.ammo == "H" and not f.as_g):
        pen = penetration(f, w)
        from hexwar.plugins.firepower.structure_fire import at as structure_at
        from hexwar.plugins.firepower.structure_fire import blast_inside

        if (aimed := structure_at(ctx)) is not None:  # Firepower 12.3.1.2: inside only
            blast_inside(ctx, f, w, pen, aimed)
            return
        if pen < FENCE_TV:
            ctx.outcome = f"hit; penetration {pen} < terrain value {FENCE_TV}: no effect"
            return
        b = w.blast_of(f.ammo)
        before = set(ctx.stunned)
        resolve_blast(ctx, f, ctx.impact, b, zone=False, source=ctx.firer.hex)
        # Firepower 12.3.1.2: everyone the penetrating blast misses is Stunned (no zone)
        for rec in ctx.blast:
            if rec["result"] == "no effect" and rec["unit"] not in before:
                rec["result"] = "stunned"
                ctx.stunned.append(rec["unit"])
        return
    b = blast_number(f, w)
    resolve_blast(ctx, f, ctx.impact, b, zone=f.ammo != "F", source=ctx.firer.hex)
    # Firepower 12.4.4.3: an F, G, H (as G) or W impact sets off the hex's mines, after its own
    # effects (applied with them, in :func:`applied`)
    if f.ammo in ("F", "G", "W") or (f.ammo == "H" and f.as_g):
        ctx.extra["mines_at"] = ctx.map.label(ctx.impact)
    if f.ammo in ("F", "W"):
        place.append({"smoke": f.ammo, "hex": ctx.map.label(ctx.impact), "height": ground})
    if f.ammo in ("G", "W", "H"):
        pen = penetration(f, w)
        hexes = [ctx.impact]
        if f.ammo == "W":  # Firepower 12.3.9: W penetrates in the blast zone too
            reach = f.world.card.blast_reach(b)
            hexes += sorted(h for h in ctx.impact.within(reach) if h in ctx.map.hexes
                            and h != ctx.impact)
        ctx.extra["damage"] = [{"hex": ctx.map.label(h), "penetration": pen} for h in hexes
                               if terrain_value(f.world.map, h) is not None]


def _canister(ctx: FireContext, f: Firing, w: ChartWeapon) -> None:
    """Firepower 12.3.2: every soldier, friend or foe, in the firing arc and in line of sight:
    the G blast number, the canister range modifier plus the blast modifiers; misses are
    Suppressed if an unmodified 2 could have hit; no terrain damage."""
    card = f.world.card
    b = blast_number(f, w)
    fh = soldier_height(f.world, ctx.firer)
    for s in sorted(ctx.soldiers.values(), key=lambda s: s.id):
        if s.id == ctx.firer.id or s.hex == ctx.firer.hex:
            continue
        if not in_arc(ctx.firer.hex, ctx.firer.facing, s.hex, "front60"):
            continue
        rng = ctx.firer.hex.distance(s.hex)
        rm = card.canister(w.id, rng)
        if rm is None:
            continue
        los = line_of_sight(f.world, ctx.firer.hex, s.hex, fh, soldier_height(f.world, s),
                            firer=ctx.firer, target=s, exhaustive=False)
        if los.blocked:
            continue
        mods = [Modifier(f"canister at range {rng}", rm, "Firepower 12.3.2.1")]
        mods.extend(blast_target_mods(card, s, cover_of(f, s, ctx.firer.hex)))
        mods.extend(hinder_mods(card, los, "C", blast=True))
        mods = sort_modifiers(mods)
        ctx.modifiers[s.id] = mods
        # canister has no impact hex, so no one is stunned (Firepower 12.3.2)
        combat.blast_on(ctx, s, mods, b, label=f"{w.id} canister on {s.id}", distance=rng,
                        stuns=False)


HEX_STEPS: tuple[Step, ...] = (
    Step("check", step_check_hex, "Firepower 12.3"),
    Step("hit_number", step_hex_modifiers, "Firepower 12.2"),
    Step("throw", step_throw, "Firepower 12.3.4.1"),
    Step("location", step_location, "Firepower 12.7.1"),
    Step("hole", step_hole, "Firepower 12.7.2"),
    Step("blast", step_blast, "Firepower 12.3.4.2"),
)


def steps_for(kind: str) -> list[combat.FireEdit]:
    """Hook ``firepower_fire_steps``: the Advanced steps replace the Basic ones by name; the
    grenade procedure gains ``location``."""
    base = FIRE_STEPS if kind == "fire" else HEX_STEPS
    edits: list[combat.FireEdit] = []
    names = [s.name for s in combat.BASE_STEPS[kind]]
    for s in base:
        if s.name in names:
            edits.append(Edit("replace", s.name, s.name, s, s.rule))
    if kind == "grenade":
        from hexwar.plugins.firepower.openings_fire import step_opening

        # Firepower 12.7.3, 12.7.4: through the door or window first, then the side and the hole
        edits.append(Edit("insert_after", "throw", "opening",
                          Step("opening", step_opening, "Firepower 12.7.3"), "Firepower 12.7.3"))
        loc = next(s for s in base if s.name == "location")
        edits.append(Edit("insert_after", "opening", loc.name, loc, loc.rule))
        hole = next(s for s in base if s.name == "hole")
        edits.append(Edit("insert_after", "location", hole.name, hole, hole.rule))
    return edits


# ---------------------------------------------------------------------------------------------
# The game side: what a fire leaves behind; demolition charges
# ---------------------------------------------------------------------------------------------


def applied(game: Game, ctx: FireContext) -> None:
    """After the Basic effects of an Advanced fire: mark smoke and illumination (Firepower
    12.3.3, 12.3.7-12.3.9), strike off the item used (Firepower 8.5, 12.3.3: a flamethrower's
    uses, a grenade) and set off the mines of an F, G, H-as-G or W impact hex (Firepower
    12.4.4.3, :func:`~hexwar.plugins.firepower.hidden_setup.mines_hit`)."""
    from hexwar.plugins.firepower.smoke import place_illumination, place_smoke

    if "firing" not in ctx.extra:
        return
    m = ctx.map
    for p in ctx.extra.get("place") or []:
        if "smoke" in p:
            place_smoke(game, m.parse(p["hex"]), str(p["smoke"]), int(p["height"]))
        else:
            place_illumination(game, m.parse(p["hex"]))
    for dmg in ctx.extra.get("damage") or []:
        if damage_terrain(game, m.parse(str(dmg["hex"])), int(dmg["penetration"])):
            ctx.extra.setdefault("felled", []).append(m.parse(str(dmg["hex"])))
    from hexwar.plugins.firepower.building_damage import after_fire

    after_fire(game, ctx)  # Firepower 12.3.4.2.7: walls, openings and roofs of buildings
    from hexwar.plugins.firepower import cave_damage

    cave_damage.after_fire(game, ctx)  # Firepower 12.3.4.2.2: a cave destroyed becomes rubble
    item = ctx.extra.get("consume")
    if isinstance(item, str):
        consume(game, ctx.firer.id, item)
    _after_weapons(game, ctx)
    mines_at = ctx.extra.get("mines_at")
    if isinstance(mines_at, str):
        from hexwar.plugins.firepower.hidden_setup import mines_hit

        mines_hit(game, m.parse(mines_at))  # Firepower 12.4.4.3


def _after_weapons(game: Game, ctx: FireContext) -> None:
    """The game side of the weapons and ammunition of one fire: the round drawn from the stock
    (Firepower 8.5), the rifle grenade off the rifle (Firepower 12.4.1.1), the other crewing
    squads' Impulses (Firepower 9.2), and the weapon units left where their fallen holders were
    (Firepower 10.1)."""
    from hexwar.plugins.firepower import weapon_units as wu
    from hexwar.plugins.firepower.ammunition import draw
    from hexwar.plugins.firepower.crews import mark_helpers, use_squads
    from hexwar.plugins.firepower.loading import rgn_fired, settle

    f = firing(ctx)
    rnd = ctx.extra.get("round")
    if isinstance(rnd, list):
        settle(game, ctx.firer.id, f.item)
        draw(game, ctx.firer.id, str(rnd[0]), str(rnd[1]))
    rgn_fired(game, ctx.firer.id, f.item)
    if f.crew > 1:
        use_squads(game, ctx.firer.id, f.weapon_unit)
        mark_helpers(game, ctx.firer.id, f.weapon_unit)  # Firepower 10.1.1
    if f.weapon_unit is not None and wu.is_missile(game, f.weapon_unit):
        from hexwar.plugins.firepower.actions import mf_left
        from hexwar.plugins.firepower.state import data

        ph = data(game).get("phase")
        if isinstance(ph, dict) and "spent" in ph:  # Firepower 12.4.6: "all" his MF
            ph["spent"][ctx.firer.id] = int(ph["spent"].get(ctx.firer.id, 0)) + max(
                0, mf_left(game, ph, ctx.firer.id))
        wu.fired_missile(game, f.weapon_unit)
    for _wid, rec in sorted(wu.placed(game).items()):
        holder = rec.get("holder")
        if holder in ctx.eliminated and holder in ctx.soldiers:
            rec["hex"] = ctx.map.label(ctx.soldiers[str(holder)].hex)
            rec["facing"] = ctx.soldiers[str(holder)].facing
    wu.follow(game)


def consume(game: Game, uid: str, item: str) -> None:
    """Strike one ``item`` off a soldier's equipment, or one use off his weapon's uses
    (``state.used``: FTR1 fires six times, Firepower 12.3.3)."""
    u = game.state.units[uid]
    if "equipment" not in u.state and item in BASIC_GRENADES:
        return  # the Basic Game's grenades are not counted (docs/decisions.md FPD-57)
    eq = dict(u.state.get("equipment") or {})
    if int(eq.get(item, 0)) > 0:
        eq[item] = int(eq[item]) - 1
        if not eq[item]:
            del eq[item]
        u.state["equipment"] = eq
        return
    w = weapon(item)
    if w.uses:
        used = dict(u.state.get("used") or {})
        used[item] = int(used.get(item, 0)) + 1
        u.state["used"] = used


def uses_left(state: Mapping[str, Any], item: str) -> int | None:
    """Firepower 12.3.3: how often a weapon with limited uses may still fire (None: unlimited)."""
    w = weapon(item)
    if not w.uses:
        return None
    return w.uses - int(dict(state.get("used") or {}).get(item, 0))


def explode_due(game: Game, side: str) -> None:
    """Firepower 12.4.9: at the very end of ``side``'s Impulse Phase, every charge it armed in its
    previous Impulse Phase explodes (G blast and penetration of its row, no spread, no blast
    zone beyond its diagram)."""
    from hexwar.plugins.firepower.actions import apply_effects
    from hexwar.plugins.firepower.state import data, fp_map, rules_card, soldiers

    d = data(game)
    count = dict(d.get("side_phases") or {})
    count[side] = int(count.get(side, 0)) + 1
    d["side_phases"] = count
    left = []
    for ch in d.get("charges") or []:
        if ch["side"] != side or int(ch["due"]) > count[side]:
            left.append(ch)
            continue
        m = fp_map(game)
        impact = m.parse(str(ch["hex"]))
        sol = soldiers(game)
        w = weapon(str(ch["item"]))
        owner = sol.get(str(ch["by"])) or Soldier(str(ch["by"]), side, impact)
        ctx = FireContext("grenade", rules_card(game), m, sol, owner, "HGN", "throw",
                          game.dice.d10, target_hex=impact)
        from hexwar.plugins.firepower.advanced_los import los_world

        ctx.extra["firing"] = Firing(los_world(game), w.id, "G", "semi", {}, {}, frozenset(),
                                     1, {}, ())
        ctx.impact, ctx.outcome = impact, "demolition charge"
        resolve_blast(ctx, firing(ctx), impact, w.blast_of("G"), source=impact)
        ctx.rules.append("Firepower 12.4.9")
        if terrain_value(m, impact) is not None:  # Firepower 12.3.4.2: its penetration counts
            ctx.extra["damage"] = [{"hex": ch["hex"], "penetration": w.penetration.get("G", 0)}]
        ctx.extra["mines_at"] = ch["hex"]  # Firepower 12.4.4.3: a G impact in a mined hex
        game.emit("demolition", hex=ch["hex"], rule="Firepower 12.4.9")
        apply_effects(game, ctx)
    d["charges"] = left


# ---------------------------------------------------------------------------------------------
# Explosions with no firing soldier: mines (Firepower 12.4.4)
# ---------------------------------------------------------------------------------------------

#: Firepower 12.4.4.1: a mine lies on the ground; its canister is fired from there (FPD-188)
MINE_POSTURE = "prone"


def unfired(game: Game, item: str, ammo: str) -> Firing:
    """The :class:`Firing` of a weapon that goes off with no soldier firing it (a mine): what
    the blast rolls read from the game (body armour, Up heights, defensive positions, holes,
    bridge decks, climbers peering over the top, cover around trees and wells); no
    equipment, crew or sights."""
    from hexwar.plugins.firepower import cover_sides
    from hexwar.plugins.firepower.advanced_los import los_world
    from hexwar.plugins.firepower.defenses import hole_sides, holes, positions

    units = game.state.units
    armour = frozenset(uid for uid, u in units.items()
                       if int(dict(u.state.get("equipment") or {}).get("BDA", 0)) > 0)
    ups = {uid: int(u.state["up"]) for uid, u in units.items()
           if isinstance(u.state.get("up"), int)}
    return Firing(los_world(game), item, ammo, "semi", {}, {}, armour, 1, {}, (), ups=ups,
                  positions=positions(game), holes=holes(game), hole_sides=hole_sides(game),
                  peering=peering(game), cover_sides=cover_sides.sides_of(game),
                  **bridge_decks(game))


def mine_fire(game: Game, kind: str, at: Hex, side: str, rule: str, *,
              facing: int | None = None) -> FireContext:
    """Firepower 12.4.4.1: the mine ``kind`` in ``at``, laid by ``side``, goes off, resolved by
    the Advanced fire's own procedures with the mine in place of a firer (nothing is thrown, so
    no hit number, spread or dud):

    * PMN1, a G weapon exploding in its own hex (Firepower 12.4.4.1.1): the G blast of its row
      (7) on every soldier, of either side, in the hex and its blast zone, stunning the missed in
      the hex and suppressing those in the zone an unmodified 2 could have hit (Firepower
      12.3.4.1, 12.3.4.2, 6.4.2); its penetration (1) damages the hex's terrain with a terrain
      value, its buildings, cave and defensive units (Firepower 12.3.4.2, 12.3.4.2.7);
    * PMN2, a C weapon (Firepower 12.4.4.1.2): its canister is fired from its hex along its
      recorded ``facing`` at every soldier in that arc and line of sight, with the PMN2's own
      range modifiers (Firepower 12.3.2.1, ``canister_range``: estimated) and its blast number
      (8); no one is stunned and no terrain is damaged (Firepower 12.3.2.2).

    Returns the resolved context; :func:`mine_applied` applies it."""
    from hexwar.plugins.firepower.state import fp_map, rules_card, soldiers

    m = fp_map(game)
    w = weapon(kind)
    if w.cls != "PMN":
        raise RulesError(f"{kind} is not an anti-personnel mine (PMN1, PMN2)",
                         rule="Firepower 12.4.4.1")
    ammo = w.types[0]
    if ammo == "C" and facing not in range(1, 7):
        raise RulesError(f"the {kind} in {m.label(at)} has no facing to fire along",
                         rule="Firepower 8.8.9")
    mine = Soldier(f"{kind} in {m.label(at)}", side, at, facing=facing or 1, weapon=kind,
                   posture=MINE_POSTURE)
    ctx = FireContext("grenade", rules_card(game), m, soldiers(game), mine, kind, "semi",
                      game.dice.d10, target_hex=at)
    f = unfired(game, kind, ammo)
    ctx.extra["firing"] = f
    ctx.extra["summary"] = {"item": kind, "ammo": ammo, "mine": True}
    ctx.rules.append(rule)
    if ammo == "C":
        _canister(ctx, f, w)  # Firepower 12.3.2: over the arc of its facing
        ctx.outcome = "canister"
        return ctx
    ctx.impact, ctx.outcome = at, "mine"
    resolve_blast(ctx, f, at, blast_number(f, w), source=at)
    pen = penetration(f, w)
    ctx.extra["damage"] = ([{"hex": m.label(at), "penetration": pen}]
                           if terrain_value(f.world.map, at) is not None else [])
    return ctx


def mine_applied(game: Game, ctx: FireContext) -> None:
    """Apply a mine's results at once (Firepower 6.6), as a fire's, credited to the side that
    laid it: the hits, stuns and suppressions, then the terrain its impact damages (Firepower
    12.3.4.2: terrain values, buildings 12.3.4.2.7, caves 12.3.4.2.2, defensive units), and
    the report with every modifier. No soldier acted, so no one's Action is marked."""
    from hexwar.plugins.firepower import building_damage, cave_damage, defenses
    from hexwar.plugins.firepower.state import alive, eliminate, fp_map, stun, suppress

    units = game.state.units
    for t in ctx.eliminated:
        if alive(units[t]):
            eliminate(game, t, ctx.firer.side, "Firepower 12.4.4")
    for t in ctx.stunned:
        if alive(units[t]):
            stun(game, t)
    for t in ctx.suppressed:
        if alive(units[t]):
            suppress(game, t)
    m = fp_map(game)
    for dmg in ctx.extra.get("damage") or []:
        if damage_terrain(game, m.parse(str(dmg["hex"])), int(dmg["penetration"])):
            ctx.extra.setdefault("felled", []).append(m.parse(str(dmg["hex"])))
    building_damage.after_fire(game, ctx)  # Firepower 12.3.4.2.7
    cave_damage.after_fire(game, ctx)  # Firepower 12.3.4.2.2
    defenses.fire_applied(game, ctx)  # Firepower 12.3.4.2: towers, wire, abatis...
    mods = [x for ms in ctx.modifiers.values() for x in ms]
    game.report(f"{ctx.firer.id} goes off", result=ctx.summary(), modifiers=mods,
                rules=ctx.rules)


def arm_charge(game: Game, uid: str, item: str) -> dict[str, Any]:
    """Firepower 12.4.9, 11.1.13: arm a demolition charge the soldier carries in his hex; it
    explodes at the end of his side's next Impulse Phase."""
    from hexwar.plugins.firepower.state import data, fp_map

    u = game.state.units[uid]
    assert u.hex is not None
    d = data(game)
    done = int(dict(d.get("side_phases") or {}).get(u.side, 0))
    ch = {"hex": fp_map(game).label(u.hex), "side": u.side, "by": uid, "item": item,
          "due": done + 2}
    d.setdefault("charges", []).append(ch)
    consume(game, uid, item)
    return ch


def charges_seen(game: Game) -> Sequence[Mapping[str, Any]]:
    """The armed charges on the board (a DMC unit marks each: public, Firepower 12.4.9)."""
    from hexwar.plugins.firepower.state import data

    return list(data(game).get("charges") or [])


# ---------------------------------------------------------------------------------------------
# Listing the Advanced fire at hexes (for controllers)
# ---------------------------------------------------------------------------------------------


def hex_items(state: Mapping[str, Any]) -> list[str]:
    """What a soldier may fire at a hex: the items he carries that are fired (grenades, rifle
    grenades) and his own weapon if its row fires anything but L (Firepower 10.7 item 4)."""
    from hexwar.plugins.firepower.ammunition import split_version

    out = sorted({split_version(i)[0] for i, n in equipment_of(state).items()
                  if n > 0 and i[:3] in HAND_CLASSES})
    model = model_of(state)
    w = _row(model)
    if w is not None and set(w.types) - {"L"} and w.cls not in ("DMC", "PMN", "VMN"):
        left = uses_left(state, model)
        if left is None or left > 0:
            out.append(model)
    return out


def hex_options(game: Game) -> list[dict[str, Any]]:
    """Fire at a hex the Basic list does not offer: every item a soldier of the current Impulse
    may fire at a hex, with each of its ammunition types, at the hexes holding opposing soldiers
    (and, for hand grenades, the default item at their neighbours is already listed). Whether
    each is legal is for the caller's check."""
    from hexwar.plugins.firepower.ammunition import versions_carried
    from hexwar.plugins.firepower.state import data, fp_map, soldiers

    ph = data(game).get("phase") or {}
    m = fp_map(game)
    sol = soldiers(game)
    enemy_hexes = sorted({s.hex for s in sol.values() if s.side != ph.get("side")})
    out: list[dict[str, Any]] = []
    for uid in ph.get("active") or []:
        u = game.state.units[uid]
        if uid in ph.get("combat", []) or u.hex is None or u.state.get("eliminated"):
            continue
        eq = equipment_of(u.state)
        default = _default_item(model_of(u.state), eq)
        for item in hex_items(u.state):
            w = weapon(item)
            # Firepower 8.5: a carried grenade is thrown in the versions carried (FPD-116)
            have = versions_carried(eq, item) if item[:3] in HAND_CLASSES else None
            types = [t for t in w.types if have is None or have.get(t, 0) > 0]
            for ammo in types:
                if ammo in ("L", "A"):
                    continue
                variants: list[dict[str, Any]] = []
                if ammo == "H":
                    variants.append({"ammo": "H", "as_g": True})
                else:
                    variants.append({"ammo": ammo})
                modes = list(w.modes) or [""]
                for v in variants:
                    for mode in modes:
                        if item == default and ammo == types[0] and mode == modes[0] \
                                and not v.get("as_g") and ammo != "M":  # M: screens too
                            continue  # the Basic list's grenade at these hexes
                        targets = enemy_hexes if ammo != "C" else enemy_hexes[:1]
                        if ammo == "M":  # a screen toward the nearest enemies too (12.3.7)
                            targets = sorted({*targets, *screen_hexes(u.hex, enemy_hexes)}
                                             & m.hexes)
                        for h in targets:
                            ch: dict[str, Any] = {"unit": uid, "act": "grenade",
                                                  "hex": m.label(h), "item": item, **v}
                            if mode:
                                ch["mode"] = mode
                            out.append(ch)
    return out


def screen_hexes(at: Hex, enemy_hexes: Sequence[Hex], n: int = 2) -> list[Hex]:
    """Hexes two and three along the line from ``at`` toward its ``n`` nearest enemy hexes:
    where a smoke screen would cut the enemy's line of fire (Firepower 12.2.7)."""
    from hexwar.plugins.firepower.terrain import intervening

    near = sorted(enemy_hexes, key=lambda h: (at.distance(h), h))[:n]
    out: set[Hex] = set()
    for e in near:
        for h in intervening(at, e):
            if 2 <= at.distance(h) <= 3:
                out.add(h)
    return sorted(out)


# ---------------------------------------------------------------------------------------------
# Terrain damage (Firepower 12.3.4.2)
# ---------------------------------------------------------------------------------------------

#: a stand-in hedge's terrain value (docs/decisions.md FPD-54)
HEDGE_TV = 3


def terrain_value(m: FpMap, h: Hex) -> int | None:
    """Firepower 12.5: the terrain value of what stands in ``h`` (the highest there): a fence 8,
    a tree 6, a hedge 3; None for terrain without one, which is never damaged (12.3.4.2)."""
    tvs = [tv for present, tv in ((h in m.fence, FENCE_TV), (m.cover.get(h) == "tree", TREE_TV),
                                  (h in m.hedge, HEDGE_TV)) if present]
    return max(tvs) if tvs else None


#: Firepower 12.3.4.2.1, 12.3.4.2.4, 12.3.4.2.5: what destroyed terrain becomes
BECOMES = {"fence": "rubble", "tree": "abatis", "hedge": "clear"}


def damage_terrain(game: Game, h: Hex, penetration: int) -> bool:
    """Firepower 12.3.4.2: a hit's penetration damages the terrain with a terrain value in the
    hex (the damage adds up, noted in ``state.data["firepower"]["damage"]``); once it reaches the
    value the terrain is destroyed: a fence becomes rubble, a tree an abatis hex (an abatis
    defensive unit, :func:`~hexwar.plugins.firepower.defenses.place_abatis`), a hedge the hex's
    own terrain (12.3.4.2.1, .4, .5), and soldiers Up a destroyed fence or tree are eliminated.
    Returns whether an abatis was placed (this hit does not damage it, FPD-130)."""
    from hexwar.plugins.firepower.state import data, eliminate, fp_map

    m = fp_map(game)
    d = data(game)
    label = m.label(h)
    gone = dict(d.get("destroyed") or {})
    if label in gone:
        return False
    tv = terrain_value(m, h)
    if tv is None:
        return False
    dmg = dict(d.get("damage") or {})
    dmg[label] = int(dmg.get(label, 0)) + penetration
    d["damage"] = dmg
    if dmg[label] < tv:
        return False
    kind = "fence" if h in m.fence else "tree" if m.cover.get(h) == "tree" else "hedge"
    gone[label] = BECOMES[kind]
    d["destroyed"] = gone
    game.emit("terrain_destroyed", hex=label, was=kind, becomes=BECOMES[kind],
              rule="Firepower 12.3.4.2")
    for u in game.state.units.values():
        if u.hex == h and u.state.get("posture") == "up" and not u.state.get("eliminated"):
            eliminate(game, u.id, None, "Firepower 12.3.4.2.4" if kind == "tree"
                      else "Firepower 12.3.4.2.5")
    if kind != "tree":
        return False
    from hexwar.plugins.firepower.defenses import place_abatis

    return place_abatis(game, h)  # Firepower 12.3.4.2.4: the abatis unit (FPD-130)


def damaged_map(m: FpMap, destroyed: Mapping[str, str]) -> FpMap:
    """The map with destroyed terrain replaced (Firepower 12.3.4.2): rubble is cover in all
    directions (12.2.3, read as rough), abatis and a hedge's ground are clear for fire."""
    from dataclasses import replace as dc_replace

    if not destroyed:
        return m
    cover = dict(m.cover)
    fence = dict(m.fence)
    hedge = dict(m.hedge)
    for label, becomes in destroyed.items():
        h = m.parse(label)
        fence.pop(h, None)
        hedge.pop(h, None)
        cover[h] = "rough" if becomes == "rubble" else "clear"
    return dc_replace(m, cover=cover, fence=fence, hedge=hedge, _static={})
