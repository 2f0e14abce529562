"""MBT 7.4, the Basic Game Firing Procedure: AP point effect fire as two pipelines of named steps.

The same procedure serves the game engine and the table-side ``hexwar mbt fire`` command: it reads
a :class:`Situation` (plain values: cards, ammunition, range, flags) and the dice, and returns a
:class:`ShotResult` that lists every modifier with its rule, the hit number, the rolls, and each
hit's location, armour basis, penetration and damage. Nothing here touches a game's state; the
engine applies the :attr:`HitResult.effect` afterwards (deferred in simultaneous steps, MBT 5.3).

The steps are two kit pipelines (:class:`hexwar.core.kit.Pipeline`); their names are the extension
points. An optional rule changes them with kit :class:`~hexwar.core.kit.Edit` records returned by
the ``mbt_fire_steps`` hook; an edit belongs to the pipeline that holds the step it names
(:class:`FireProcedure`), and edits apply in the kit's one documented order.

* the shot stage, once per shot: ``ap_factor`` (MBT 7.4.1), ``modifiers`` (MBT 7.4.2),
  ``hit_number`` (MBT 7.4.3), ``number_of_hits`` (MBT 7.4.4); a step is ``step(ctx, shot)``;
* the hit stage, once per hit: ``hit_location`` (MBT 7.4.5.1-7.4.5.2), ``special_hits``
  (MBT 7.4.5.3 track and main gun), ``armor`` (MBT 7.4.6.1-7.4.6.3), ``penetration``
  (MBT 7.4.6.4-7.4.6.5), ``damage`` (MBT 7.4.7); a step is ``step(ctx, shot, hit)``.

A step that sets ``done`` on the shot (or the hit) ends that stage.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol

from hexwar.core.errors import PluginError, RulesError
from hexwar.core.kit import Edit, Pipeline
from hexwar.core.types import Modifier
from hexwar.plugins.mbt.cards import TURRET_LOCATIONS, Card
from hexwar.plugins.mbt.tables import Charts


class DiceLike(Protocol):
    def d100(self, purpose: str) -> int: ...


@dataclass
class Situation:
    """Everything a shot depends on, as plain values (MBT 7.4)."""

    firer: Card
    weapon: str
    ammo: str
    target: Card
    range: int
    firer_moving: bool = False  # MBT 7.4.2.2: firer has FM orders
    target_moving: bool = False  # MBT 7.4.2.2: target has M, FM (or OR) orders
    overwatch: bool = False  # MBT 7.4.2.4: the firer fires on OW orders
    acquisition_turns: int = 0  # MBT 7.4.2.3.1: consecutive previous Turns this firer hit this target
    target_terrain: tuple[str, ...] = ("clear",)  # MBT 7.4.2.1: terrain kinds in the target hex
    brewup_hexes: int = 0  # MBT 7.4.2.3.3: brewed-up wreck hexes the line leaves, enters or passes
    elevation: Literal["Level", "Rising", "Falling"] = "Level"  # MBT 7.4.6.2
    angle: str = "Front"  # MBT 7.4.5.1 (the target's owner picks on a boundary)
    hull_down: bool = False  # MBT 13.2.2.3 (Advanced): starred locations miss
    air: bool = False  # MBT 20.1.3.2.2.1 (option): TTA/HDA columns
    target_has_gun: bool = True
    target_gun_hit: bool = False
    target_compartment: str | None = None
    extra_modifiers: tuple[Modifier, ...] = ()
    rof: int | None = None  # Basic Game: always the card's MAX ROF (MBT 7.4.4)
    target_open: bool = True  # MBT 14.3.3.4.1 (Advanced): the target's turret unit is open
    target_reactive: str | None = None  # MBT 14.3.4 (Advanced): "heavy" or "light" reactive armour


@dataclass
class HitResult:
    """One hit: where it landed and what it did."""

    n: int
    location_roll: int = 0
    location: str = ""
    above: bool = False
    angle: str = ""
    armor: int | None = None
    armor_source: str = ""
    pv: int | None = None
    penetrated: bool | None = None
    damage_roll: int | None = None
    damage: str = ""
    effect: str = "none"  # none | track | gun | turret_compartment | hull_compartment | KO | BU
    rules: list[str] = field(default_factory=list)
    done: bool = False
    #: Advanced MBT 14.3.3.4.2: the machineguns mounted where the hit landed, destroyed by it
    lost_mgs: list[str] = field(default_factory=list)

    def as_dict(self) -> dict[str, Any]:
        d = {k: getattr(self, k) for k in ("n", "location_roll", "location", "above", "angle",
                                            "armor", "armor_source", "pv", "penetrated",
                                            "damage_roll", "damage", "effect", "rules")}
        if self.lost_mgs:  # only then: a Basic Game's records stay as they were
            d["lost_mgs"] = list(self.lost_mgs)
        return d


#: the effect naming a machinegun a hit destroyed, ``"mg_lost:HMG TTO"`` (MBT 14.3.3.4.2)
MG_LOST = "mg_lost:"


@dataclass
class ShotResult:
    """A whole shot (all rounds of one weapon at one target)."""

    situation: Situation
    ap_factor: int | None = None
    ap_source: str = ""
    band: str = ""
    modifiers: list[Modifier] = field(default_factory=list)
    net: int = 0
    hit_number: int = 0
    hit_source: str = ""
    rof: int = 1
    roll: int | None = None
    hits: int = 0
    thresholds: dict[int, int] = field(default_factory=dict)
    hit_results: list[HitResult] = field(default_factory=list)
    done: bool = False
    notes: list[str] = field(default_factory=list)

    def as_dict(self) -> dict[str, Any]:
        s = self.situation
        return {
            "firer": s.firer.name, "weapon": s.weapon, "ammo": s.ammo, "target": s.target.name,
            "range": s.range, "band": self.band, "ap_factor": self.ap_factor,
            "ap_source": self.ap_source,
            "modifiers": [m.as_dict() for m in self.modifiers], "net": self.net,
            "hit_number": self.hit_number, "hit_source": self.hit_source, "rof": self.rof,
            "roll": self.roll, "thresholds": {str(k): v for k, v in self.thresholds.items()},
            "hits": self.hits, "hit_results": [h.as_dict() for h in self.hit_results],
            "notes": list(self.notes),
        }

    @property
    def effects(self) -> list[str]:
        return [*(h.effect for h in self.hit_results if h.effect != "none"),
                *(MG_LOST + n for h in self.hit_results for n in h.lost_mgs)]


@dataclass
class FireContext:
    charts: Charts
    dice: DiceLike


ShotStep = Callable[[FireContext, ShotResult], None]
HitStep = Callable[[FireContext, ShotResult, HitResult], None]
#: what ``mbt_fire_steps`` returns: kit edits whose step is a shot step or a hit step
FireEdit = Edit[Callable[..., None]]


# -- shot steps ------------------------------------------------------------------------------


def step_ap_factor(ctx: FireContext, shot: ShotResult) -> None:
    """MBT 7.4.1: the AP factor of the ammunition at the range (a blank band cannot fire, MBT 4.7.2)."""
    s = shot.situation
    weapon = s.firer.weapon(s.weapon)
    line = weapon.ammo_line(s.ammo)
    ap = line.ap_at(s.range)
    shot.band = line.band_label(s.range)
    if ap is None:
        raise RulesError(
            f"{s.firer.name} {s.weapon} {s.ammo} cannot fire at range {s.range}: its range is "
            f"{line.min_range}-{line.max_range} hexes", rule="MBT 4.7.2")
    i = line.band_index(s.range)
    shot.ap_factor = ap
    shot.ap_source = s.firer.source(_ammo_key(s.firer, s.weapon, s.ammo, "ap", i))
    shot.rof = s.rof if s.rof is not None else weapon.max_rof


def _ammo_key(card: Card, weapon: str, ammo: str, what: str, i: int | None) -> str:
    for wi, w in enumerate(card.weapons):
        if w.name == weapon:
            for ai, a in enumerate(w.ammo):
                if a == ammo:
                    return f"weapons[{wi}].ammo[{ai}].{what}[{i}]"
    return ""


def ap_modifiers(charts: Charts, s: Situation) -> list[Modifier]:
    """MBT 7.4.2: the Basic Game's four kinds of AP point effect modifier (all cumulative)."""
    mods: list[Modifier] = []
    # MBT 7.4.2.1 terrain in the target hex only; a mixed hex uses the entry best for the target
    # (docs/decisions.md MBTD-6)
    terr = [(charts.ap_terrain[t].value, t, charts.ap_terrain[t].source)
            for t in s.target_terrain if t in charts.ap_terrain] or [(0, "clear", "estimated")]
    value, name, src = min(terr)
    mods.append(Modifier(f"terrain: {name}", value, f"MBT 7.4.2.1 [{src}]", stage=1))
    # MBT 7.4.2.2 movement
    weapon = s.firer.weapon(s.weapon)
    line = weapon.movement_line
    fm = "MV" if s.firer_moving else "NM"
    tm = "MV" if s.target_moving else "NM"
    mv = charts.ap_movement.get((line, fm, tm))
    if mv is None:
        raise RulesError(f"the Movement Modifiers chart has no line {line!r}", rule="MBT 7.4.2.2")
    mods.append(Modifier(f"movement: {line} {fm} vs {tm}", mv.value, f"MBT 7.4.2.2 [{mv.source}]",
                         stage=2))
    # MBT 7.4.2.3.1 acquisition / turn bonus
    if s.acquisition_turns:
        g = charts.general["acquisition_per_turn"]
        mods.append(Modifier(f"acquisition: {s.acquisition_turns} Turn(s)",
                             g.value * s.acquisition_turns, f"MBT 7.4.2.3.1 [{g.source}]", stage=3))
    # MBT 7.4.2.3.2 target vehicle size
    mods.append(Modifier(f"target size: {s.target.name}", s.target.size,
                         f"MBT 7.4.2.3.2 [{s.target.source('target.size')}]", stage=3))
    # MBT 7.4.2.3.3 through brew-up smoke
    if s.brewup_hexes:
        g = charts.general["brewup_smoke_per_hex"]
        mods.append(Modifier(f"brew-up smoke: {s.brewup_hexes} hex(es)", g.value * s.brewup_hexes,
                             f"MBT 7.4.2.3.3 [{g.source}]", stage=3))
    # MBT 7.4.2.4 overwatch
    if s.overwatch:
        g = charts.general["overwatch_target_mv" if s.target_moving else "overwatch_target_nm"]
        mods.append(Modifier(f"overwatch: target {tm}", g.value, f"MBT 7.4.2.4 [{g.source}]",
                             stage=4))
    mods.extend(s.extra_modifiers)
    return mods


def step_modifiers(ctx: FireContext, shot: ShotResult) -> None:
    """MBT 7.4.2: the net modifier is the sum of every applicable modifier."""
    shot.modifiers = ap_modifiers(ctx.charts, shot.situation)
    shot.net = int(sum(m.value for m in shot.modifiers))


def step_hit_number(ctx: FireContext, shot: ShotResult) -> None:
    """MBT 7.4.3: AP POINT EFFECT HIT CHART, AP factor column x net modifier line."""
    assert shot.ap_factor is not None
    got = ctx.charts.hit_number(shot.ap_factor, shot.net)
    shot.hit_number, shot.hit_source = got.value, got.source


def step_number_of_hits(ctx: FireContext, shot: ShotResult) -> None:
    """MBT 7.4.4: one shot hits on a roll <= H; several use the NUMBER OF HITS TABLE."""
    h = shot.hit_number
    roll = ctx.dice.d100(f"to hit (H {h}, ROF {shot.rof})")
    shot.roll = roll
    if roll > h:
        shot.hits = 0
    elif shot.rof <= 1:
        shot.hits = 1
    else:
        shot.thresholds = ctx.charts.hit_thresholds(h, shot.rof)
        shot.hits = 1
        for k in sorted(shot.thresholds, reverse=True):
            if k <= shot.rof and roll <= shot.thresholds[k]:
                shot.hits = k
                break
    shot.hit_results = [HitResult(n=i + 1, angle=shot.situation.angle) for i in range(shot.hits)]


# -- hit steps -------------------------------------------------------------------------------


def step_hit_location(ctx: FireContext, shot: ShotResult, hit: HitResult) -> None:
    """MBT 7.4.5.2: roll on the target's HIT LOCATION CHART line for the hit angle; a falling
    shot's TTG/HDG bands supersede (MBT 7.4.5.2.3) and turn the angle to "Above"."""
    s = shot.situation
    roll = ctx.dice.d100(f"hit location ({s.angle})")
    hit.location_roll = roll
    loc, above = s.target.locate(s.angle, roll, falling=s.elevation == "Falling", air=s.air)
    hit.above = above
    hit.angle = "Above" if above else s.angle
    hit.rules.append("MBT 7.4.5.2.3" if above else "MBT 7.4.5.2.2")
    if loc.endswith("*") and s.hull_down:
        hit.location, hit.effect, hit.done = loc, "none", True
        hit.rules.append("MBT 13.2.2.3")
        return
    hit.location = loc.rstrip("*")
    if hit.location == "miss":
        hit.done = True


def step_special_hits(ctx: FireContext, shot: ShotResult, hit: HitResult) -> None:
    """MBT 7.4.5.3: track and main gun hits are damage at once; no armour or damage roll."""
    s = shot.situation
    if hit.location == "TK":
        hit.effect, hit.done = "track", True
        hit.rules.append("MBT 7.4.5.3.1")
    elif hit.location == "GN":
        hit.rules.append("MBT 7.4.5.3.2")
        if s.target_has_gun and not s.target_gun_hit:
            hit.effect = "gun"
        else:
            hit.location, hit.effect = "miss", "none"
        hit.done = True


def step_armor(ctx: FireContext, shot: ShotResult, hit: HitResult) -> None:
    """MBT 7.4.6.1-7.4.6.3: armour basis by ammunition energy, elevation line, angle/location."""
    s = shot.situation
    line = s.firer.weapon(s.weapon).ammo_line(s.ammo)
    energy = "CE" if line.energy == "CE" else "KE"
    hit.armor = s.target.armor_basis(energy, s.elevation, hit.angle, hit.location)
    hit.armor_source = s.target.source(f"armor.{energy}.{s.elevation}.{hit.angle}.{hit.location}")
    hit.rules.append("MBT 7.4.6.3")


def step_penetration(ctx: FireContext, shot: ShotResult, hit: HitResult) -> None:
    """MBT 7.4.6.4-7.4.6.5: penetration value at the range; equal or more penetrates."""
    s = shot.situation
    line = s.firer.weapon(s.weapon).ammo_line(s.ammo)
    hit.pv = line.pv_at(s.range)
    assert hit.armor is not None
    hit.penetrated = hit.pv is not None and hit.pv >= hit.armor
    hit.rules.append("MBT 7.4.6.5")
    if not hit.penetrated:
        hit.done = True


def step_damage(ctx: FireContext, shot: ShotResult, hit: HitResult) -> None:
    """MBT 7.4.7: damage roll on the firing weapon's line; a second compartment hit knocks out."""
    s = shot.situation
    line = s.firer.weapon(s.weapon).ammo_line(s.ammo)
    roll = ctx.dice.d100("damage")
    hit.damage_roll = roll
    hit.damage = line.damage_of(roll)
    hit.rules.append("MBT 7.4.7")
    if hit.damage == "Cmp Hit":
        # MBT 7.4.7.2: a second compartment hit of either type knocks out
        earlier = s.target_compartment is not None or any(
            h.effect.endswith("compartment") for h in shot.hit_results if h.n < hit.n)
        if earlier:
            hit.effect = "KO"
            hit.rules.append("MBT 7.4.7.2")
        else:
            kind = "turret" if hit.location in TURRET_LOCATIONS else "hull"
            hit.effect = f"{kind}_compartment"
            hit.rules.append("MBT 7.4.7.2.1" if kind == "turret" else "MBT 7.4.7.2.2")
    elif hit.damage == "Knk Out":
        hit.effect = "KO"
        hit.rules.append("MBT 7.4.7.3")
    elif hit.damage == "Brw Up":
        hit.effect = "BU"
        hit.rules.append("MBT 7.4.7.4")
    hit.done = True


SHOT_STEPS: tuple[tuple[str, ShotStep], ...] = (
    ("ap_factor", step_ap_factor),
    ("modifiers", step_modifiers),
    ("hit_number", step_hit_number),
    ("number_of_hits", step_number_of_hits),
)
HIT_STEPS: tuple[tuple[str, HitStep], ...] = (
    ("hit_location", step_hit_location),
    ("special_hits", step_special_hits),
    ("armor", step_armor),
    ("penetration", step_penetration),
    ("damage", step_damage),
)

class FireProcedure:
    """The named steps of MBT 7.4 with optional rules' edits applied: :attr:`shot` and
    :attr:`hit`, two kit pipelines.

    Each edit goes to the pipeline that holds its anchor, among the base steps and the steps that
    other edits insert there; an edit whose anchor is in neither is an error listing both.
    """

    def __init__(self, edits: Iterable[FireEdit] = ()) -> None:
        shot_names = {n for n, _ in SHOT_STEPS}
        hit_names = {n for n, _ in HIT_STEPS}
        shot_edits: list[FireEdit] = []
        hit_edits: list[FireEdit] = []
        pending = list(edits)
        while pending:
            left = []
            for e in pending:
                if e.anchor in shot_names:
                    shot_edits.append(e)
                    shot_names.add(e.name or e.anchor)
                elif e.anchor in hit_names:
                    hit_edits.append(e)
                    hit_names.add(e.name or e.anchor)
                else:
                    left.append(e)
            if len(left) == len(pending):
                e = left[0]
                by = f" (by {e.rule})" if e.rule else ""
                raise PluginError(
                    f"fire step edit {e.op} {e.name!r}{by} names {e.anchor!r}, which is not a fire "
                    f"step (shot: {', '.join(sorted(shot_names))}; hit: {', '.join(sorted(hit_names))})")
            pending = left
        self.shot: Pipeline[ShotStep] = Pipeline(SHOT_STEPS, shot_edits, what="shot step")
        self.hit: Pipeline[HitStep] = Pipeline(HIT_STEPS, hit_edits, what="hit step")

    @property
    def names(self) -> list[str]:
        return [*self.shot.names, *self.hit.names]

    def resolve(self, situation: Situation, charts: Charts, dice: DiceLike) -> ShotResult:
        """Run the MBT 7.4.1-7.4.4 steps for one shot, then each hit's MBT 7.4.5-7.4.7 steps."""
        ctx = FireContext(charts, dice)
        shot = ShotResult(situation)
        for fn in self.shot.steps:
            fn(ctx, shot)
            if shot.done:
                return shot
        hit_steps = self.hit.steps
        for hit in shot.hit_results:
            for hfn in hit_steps:
                hfn(ctx, shot, hit)
                if hit.done:
                    break
        return shot


#: the Basic Game's procedure, with no edits
BASIC = FireProcedure()


def hit_probability(charts: Charts, s: Situation) -> tuple[int, float]:
    """(hit number, expected number of hits) without rolling: for the AI and for estimates."""
    weapon = s.firer.weapon(s.weapon)
    ap = weapon.ammo_line(s.ammo).ap_at(s.range)
    if ap is None:
        return 0, 0.0
    net = int(sum(m.value for m in ap_modifiers(charts, s)))
    h = charts.hit_number(ap, net).value
    rof = s.rof if s.rof is not None else weapon.max_rof
    if rof <= 1:
        return h, h / 100
    th = charts.hit_thresholds(h, rof)
    exp = 0.0
    prev = 0
    for k in sorted(th, reverse=True):
        exp += k * max(0, th[k] - prev) / 100
        prev = max(prev, th[k])
    exp += max(0, h - prev) / 100
    return h, exp


def kill_probability(charts: Charts, s: Situation) -> float:
    """Chance that the shot knocks out or brews up the target (expected, no dice): the AI's
    measure of a good shot."""
    h, exp_hits = hit_probability(charts, s)
    if h <= 0:
        return 0.0
    weapon = s.firer.weapon(s.weapon)
    line = weapon.ammo_line(s.ammo)
    pv = line.pv_at(s.range) or 0
    energy = "CE" if line.energy == "CE" else "KE"
    ko = sum(hi - lo + 1 for lo, hi, r in line.damage if r in ("Knk Out", "Brw Up")) / 100
    per_hit = 0.0
    for loc, lo, hi in s.target.hit_location.get(s.angle, ()):
        base = loc.rstrip("*")
        if base in ("TK", "GN"):
            continue
        if loc.endswith("*") and s.hull_down:
            continue
        armor = s.target.armor.get((energy, s.elevation, s.angle, base))
        if armor is not None and pv >= armor:
            per_hit += (hi - lo + 1) / 100 * ko
    p_one = min(1.0, per_hit)
    return 1.0 - (1.0 - p_one) ** max(exp_hits, 0.0) if exp_hits > 0 else 0.0
