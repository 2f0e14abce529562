"""Combat Actions of the Basic Game (Firepower 6.2.5): fire, hand grenades, suppression and
melee (Firepower 6.3-6.5), as pure functions and procedures of named steps.

A fire procedure is a kit :class:`~hexwar.core.kit.Pipeline` of :class:`Step` run over a
:class:`FireContext` (:func:`procedure`, :func:`run`). Optional rules insert, replace or remove
steps by name with kit :class:`~hexwar.core.kit.Edit` records (hook ``firepower_fire_steps``),
applied in the kit's one documented order, and add modifiers (``firepower_fire_modifiers``).
Nothing here touches a game: the context collects effects (eliminations, status changes) that
:mod:`hexwar.plugins.firepower.actions`, or a table-side command, then applies.

Step names, for edit anchors: ``fire``: check, hit_number, modifiers, shots, suppression;
``grenade``: check, hit_number, throw, blast.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any, Literal

from hexwar.core.errors import RulesError
from hexwar.core.hexgrid import Hex, in_arc, rotate_direction, trace
from hexwar.core.kit import Edit, Pipeline
from hexwar.core.types import Modifier, sort_modifiers, total
from hexwar.plugins.firepower.los import LosResult, basic_los
from hexwar.plugins.firepower.soldiers import Soldier
from hexwar.plugins.firepower.tables import BasicCard
from hexwar.plugins.firepower.tables import card as _card
from hexwar.plugins.firepower.terrain import FpMap

Roller = Callable[[str], int]

# ---------------------------------------------------------------------------------------------
# Modifiers
# ---------------------------------------------------------------------------------------------


def target_cover(m: FpMap, target: Soldier, source: Hex) -> bool:
    """Firepower 6.3.6.2.2: a tree or rough hex (a crater too, Firepower 8.7), or a fence hex
    with the fence between."""
    if m.cover.get(target.hex) == "tree" or m.rough(target.hex):
        return True
    fence = m.fence.get(target.hex)
    return fence is not None and fence.between(target.fence_side, source)


def target_concealed(m: FpMap, target: Soldier, source: Hex) -> bool:
    """Firepower 6.3.6.2.3: a scrub or tree hex, or a hedge hex with the hedge between."""
    if m.cover.get(target.hex) in ("tree", "scrub"):
        return True
    hedge = m.hedge.get(target.hex)
    return hedge is not None and hedge.between(target.fence_side, source)


def _firing_terms(m: FpMap, firer: Soldier, target: Soldier, los: LosResult,
                  noncombat_mf: int) -> list[tuple[str, int]]:
    """The Basic Game firing modifiers that apply to one shot (Firepower 6.3.6.2), each as its
    term of :data:`_TERMS` and how many times it counts."""
    out: list[tuple[str, int]] = []
    if firer.suppressed:
        out.append(("suppressed", 1))
    if target_cover(m, target, firer.hex):
        out.append(("cover", 1))
    if target_concealed(m, target, firer.hex):
        out.append(("concealed", 1))
    if target.posture == "crouch":
        out.append(("crouching", 1))
    elif target.posture == "prone":
        out.append(("prone", 1))
    if los.trees:
        out.append(("trees", los.trees))
    if los.hedges:
        out.append(("hedges", los.hedges))
    if target.running:
        out.append(("running", 1))
    if noncombat_mf:
        out.append(("firer_mf", noncombat_mf))
    return out


#: each firing term: (its key in the BASIC GAME FIRING MODIFIERS table, the rule, its name for
#: a count)
_TERMS: dict[str, tuple[str, str, Callable[[int], str]]] = {
    "suppressed": ("firer_suppressed", "Firepower 6.3.6.2.1", lambda n: "firer suppressed"),
    "cover": ("target_in_cover", "Firepower 6.3.6.2.2", lambda n: "target in cover"),
    "concealed": ("target_concealed", "Firepower 6.3.6.2.3", lambda n: "target concealed"),
    "crouching": ("target_crouching", "Firepower 6.3.6.2.4", lambda n: "target crouching"),
    "prone": ("target_prone", "Firepower 6.3.6.2.4", lambda n: "target prone"),
    "trees": ("per_tree_or_hedge", "Firepower 6.3.6.2.5",
              lambda n: f"{n} tree hex(es) in the line of sight"),
    "hedges": ("per_tree_or_hedge", "Firepower 6.3.6.2.5",
               lambda n: f"{n} hedge(s) in the line of sight"),
    "running": ("target_running", "Firepower 6.3.6.2.6", lambda n: "target running"),
    "firer_mf": ("per_firer_mf", "Firepower 6.3.6.2.7",
                 lambda n: f"firer spends {n} MF on other actions"),
}


def fire_modifiers(m: FpMap, firer: Soldier, target: Soldier, los: LosResult,
                   noncombat_mf: int, card: BasicCard | None = None) -> list[Modifier]:
    """Every Basic Game firing modifier for one shot at ``target`` (Firepower 6.3.6.2); the
    values come from the BASIC GAME FIRING MODIFIERS table."""
    v = (card or _card()).mod
    mods = []
    for term, n in _firing_terms(m, firer, target, los, noncombat_mf):
        key, rule, name = _TERMS[term]
        mods.append(Modifier(name(n), v[key] * n, rule))
    return sort_modifiers(mods)


def fire_modifier_sum(m: FpMap, firer: Soldier, target: Soldier, los: LosResult,
                      noncombat_mf: int, card: BasicCard | None = None) -> int:
    """FPD-201: the sum of :func:`fire_modifiers` (the same terms, the same table values),
    without making and sorting the :class:`Modifier` records: the AI's estimates read only the
    sum, thousands of times a game. The table's values are whole numbers, so the sum is exact
    in any order (a test compares the two)."""
    v = (card or _card()).mod
    got = 0
    for term, n in _firing_terms(m, firer, target, los, noncombat_mf):
        got += v[_TERMS[term][0]] * n
    return got


def throw_modifiers(thrower: Soldier, los: LosResult,
                    card: BasicCard | None = None) -> list[Modifier]:
    """Modifiers of a hand grenade throw (Firepower 6.3.6.3.2): cover, concealment, posture,
    running and firer movement do not apply (Firepower 6.3.6.2.2-6.3.6.2.7); firer Suppressed and
    trees or hedges in the line of sight do, since no exception is written (docs/decisions.md
    FPD-18)."""
    v = (card or _card()).mod
    mods: list[Modifier] = []
    if thrower.suppressed:
        mods.append(Modifier("thrower suppressed", v["firer_suppressed"], "Firepower 6.3.6.2.1"))
    per = v["per_tree_or_hedge"]
    if los.trees:
        mods.append(Modifier(f"{los.trees} tree hex(es) in the line of sight", per * los.trees,
                             "Firepower 6.3.6.2.5"))
    if los.hedges:
        mods.append(Modifier(f"{los.hedges} hedge(s) in the line of sight", per * los.hedges,
                             "Firepower 6.3.6.2.5"))
    return sort_modifiers(mods)


def blast_modifiers(card: BasicCard, m: FpMap, soldier: Soldier, impact: Hex,
                    impact_side_point: Hex | None = None) -> list[Modifier]:
    """Modifiers of one blast roll (Firepower 6.3.6.3.2.2): the blast diagram's distance modifier,
    cover (Firepower 6.3.6.2.2 applies to blast) and Crouching/Prone (Firepower 6.3.6.2.4 applies
    to blast). Concealment, Running and firer movement never apply (Firepower 6.3.6.2.3,
    Firepower 6.3.6.2.6, Firepower 6.3.6.2.7; docs/decisions.md FPD-18).

    In the impact hex itself a fence is between when the soldier is on the other part of the
    hex from where the grenade came in (``impact_side_point``: the thrower's hex;
    docs/decisions.md FPD-20).
    """
    d = soldier.hex.distance(impact)
    dm = card.blast_modifier(d)
    if dm is None:
        raise RulesError(f"{soldier.id} is {d} hexes from the impact, outside the blast zone",
                         rule="Firepower 6.3.6.3.2.2")
    mods = [Modifier("blast zone" if d else "impact hex", dm, "Firepower 6.3.6.3.2.2")]
    source = impact if d else (impact_side_point or impact)
    covered = m.cover.get(soldier.hex) == "tree" or m.rough(soldier.hex)  # Firepower 8.7 too
    fence = m.fence.get(soldier.hex)
    if not covered and fence is not None and source != soldier.hex:
        covered = fence.between(soldier.fence_side, source)
    if covered:
        mods.append(Modifier("in cover", card.mod["target_in_cover"], "Firepower 6.3.6.2.2"))
    if soldier.posture == "crouch":
        mods.append(Modifier("crouching", card.mod["target_crouching"], "Firepower 6.3.6.2.4"))
    elif soldier.posture == "prone":
        mods.append(Modifier("prone", card.mod["target_prone"], "Firepower 6.3.6.2.4"))
    return sort_modifiers(mods)


def can_suppress_auto(mods: Iterable[Modifier]) -> bool:
    """Firepower 6.4.1: automatic fire suppresses when a modified 10 or less can be rolled."""
    return 1 + total(mods) <= 10


def blast_suppresses(mods: Iterable[Modifier], blast_hit: int = 5) -> bool:
    """Firepower 6.4.2: a blast-zone survivor is Suppressed if an unmodified 2 could have hit."""
    return 2 + total(mods) <= blast_hit


def melee_modifier(attackers: int, defenders: int) -> Modifier | None:
    """Firepower 6.5.2: -2 per attacker in excess, +2 per defender in excess."""
    if attackers > defenders:
        return Modifier(f"{attackers - defenders} attacker(s) in excess",
                        -2 * (attackers - defenders), "Firepower 6.5.2")
    if defenders > attackers:
        return Modifier(f"{defenders - attackers} defender(s) in excess",
                        2 * (defenders - attackers), "Firepower 6.5.2")
    return None


MELEE_HIT = 5  # Firepower 6.5.1


def melee_winner(roll: int, attackers: int, defenders: int) -> Literal["attacker", "defender"]:
    """Firepower 6.5.1: a modified 5 or less wins for the attacker, 6 or more for the defender."""
    mod = melee_modifier(attackers, defenders)
    return "attacker" if roll + (mod.value if mod else 0) <= MELEE_HIT else "defender"


def hit_probability(hit: int, modifier: float) -> float:
    """Chance that d10 + modifier <= hit (the die reads 1..10, Firepower 1.3, Firepower 4.2)."""
    n = int(hit - modifier)
    return max(0, min(10, n)) / 10.0


# ---------------------------------------------------------------------------------------------
# Legality
# ---------------------------------------------------------------------------------------------


def check_target_hex(card: BasicCard, m: FpMap, firer: Soldier, target_hex: Hex, weapon: str,
                     mode: str) -> int:
    """Range and arc of a shot at ``target_hex`` (Firepower 6.3.1-6.3.3); returns the range."""
    if target_hex not in m.hexes:
        raise RulesError(f"hex {target_hex!r} is not on the board", rule="Firepower 4.9")
    rng = firer.hex.distance(target_hex)
    if rng == 0:
        # docs/decisions.md FPD-14: no fire or grenade into one's own hex
        raise RulesError("a soldier may not fire into his own hex", rule="Firepower 6.3.2.1")
    if not in_arc(firer.hex, firer.facing, target_hex, "front60"):
        raise RulesError(f"{m.label(target_hex)} is outside {firer.id}'s firing arc",
                         rule="Firepower 6.3.3")
    if weapon == "HGN":
        line = card.weapons["HGN"].range_line or 5
        if rng > line and firer.posture != "stand" and card.in_range(weapon, mode, rng):
            raise RulesError(f"only a Standing soldier may throw a grenade beyond {line} hexes "
                             f"(range {rng})", rule="Firepower 6.3.2.1.1")
    card.hit_number(weapon, mode, rng)  # raises when out of range (Firepower 6.3.2)
    return rng


# ---------------------------------------------------------------------------------------------
# The pipeline
# ---------------------------------------------------------------------------------------------


@dataclass
class ShotRecord:
    target: str
    burst: int
    roll: int
    modified: int
    hit: bool


@dataclass
class FireContext:
    """Everything one fire action needs and produces. ``kind`` is ``fire`` or ``grenade``."""

    kind: str
    card: BasicCard
    map: FpMap
    soldiers: Mapping[str, Soldier]
    firer: Soldier
    weapon: str
    mode: str
    roll: Roller
    #: fire: the target units, one per burst (semi-automatic: one)
    targets: tuple[str, ...] = ()
    #: grenade: the target hex
    target_hex: Hex | None = None
    noncombat_mf: int = 0
    vertex_side: int | None = None
    extra_modifiers: Callable[[FireContext, Soldier], Sequence[Modifier]] | None = None
    # -- filled by the steps -----------------------------------------------------------------------
    range: int = 0
    hit: int = 0
    los: LosResult | None = None
    modifiers: dict[str, list[Modifier]] = field(default_factory=dict)
    shots: list[ShotRecord] = field(default_factory=list)
    eliminated: list[str] = field(default_factory=list)
    stunned: list[str] = field(default_factory=list)
    suppressed: list[str] = field(default_factory=list)
    throw_roll: int | None = None
    throw_modified: int | None = None
    outcome: str = ""
    impact: Hex | None = None
    spread_roll: int | None = None
    entry_side: int | None = None
    blast: list[dict[str, Any]] = field(default_factory=list)
    rules: list[str] = field(default_factory=list)
    #: what a rule's own steps read and write (the Advanced Game's weapon, ammunition, line of
    #: sight, smoke placed...; hook ``firepower_prepare_fire``); empty in the Basic Game
    extra: dict[str, Any] = field(default_factory=dict)

    def friendly_postures(self) -> dict[Hex, str]:
        """Highest posture of the firer's side per hex, other than the firer's own soldier."""
        from hexwar.plugins.firepower.tables import POSTURE_RANK

        out: dict[Hex, str] = {}
        for s in self.soldiers.values():
            if s.side != self.firer.side or s.id == self.firer.id:
                continue
            cur = out.get(s.hex)
            if cur is None or POSTURE_RANK[s.posture] > POSTURE_RANK[cur]:
                out[s.hex] = s.posture
        return out

    def mods_for(self, target: Soldier) -> list[Modifier]:
        assert self.los is not None
        mods = fire_modifiers(self.map, self.firer, target, self.los, self.noncombat_mf,
                              self.card)
        if self.extra_modifiers is not None:
            mods = sort_modifiers([*mods, *self.extra_modifiers(self, target)])
        return mods

    def summary(self) -> dict[str, Any]:
        return {
            "kind": self.kind, "firer": self.firer.id, "weapon": self.weapon, "mode": self.mode,
            "range": self.range, "hit_number": self.hit,
            "targets": list(self.targets),
            "target_hex": None if self.target_hex is None else self.map.label(self.target_hex),
            "modifiers": {k: [x.as_dict() for x in v] for k, v in self.modifiers.items()},
            "shots": [asdict(s) for s in self.shots],
            "throw_roll": self.throw_roll, "throw_modified": self.throw_modified,
            "outcome": self.outcome,
            "impact": None if self.impact is None else self.map.label(self.impact),
            "spread_roll": self.spread_roll, "blast": self.blast,
            "eliminated": self.eliminated, "stunned": self.stunned, "suppressed": self.suppressed,
            **dict(self.extra.get("summary") or {}),
        }


@dataclass(frozen=True)
class Step:
    """One named step of a fire procedure."""

    name: str
    run: Callable[[FireContext], None]
    rule: str = ""


#: an optional rule's change to a fire procedure (``Edit(op, anchor, name, step, rule)``); an
#: edit that brings a step without naming it takes the step's own name
FireEdit = Edit[Step]


# -- fire steps ------------------------------------------------------------------------------------


def step_check_fire(ctx: FireContext) -> None:
    """Firepower 6.3.1-6.3.5: targets in one hex, arc, range, line of sight, rate of fire."""
    if not ctx.targets:
        raise RulesError("name at least one target unit", rule="Firepower 6.3.1.1")
    w = ctx.card.weapons.get(ctx.weapon)
    if w is None or ctx.mode not in w.modes or ctx.mode == "throw":
        raise RulesError(f"{ctx.weapon} cannot fire {ctx.mode}", rule="Firepower 6.3.5")
    if ctx.firer.stunned:
        raise RulesError(f"{ctx.firer.id} is Stunned and may not spend MF",
                         rule="Firepower 6.2.8")
    targets = []
    for t in ctx.targets:
        s = ctx.soldiers.get(t)
        if s is None:
            raise RulesError(f"no target unit {t!r} on the board", rule="Firepower 6.3.1")
        if s.side == ctx.firer.side:
            raise RulesError(f"{t} is not an opposing soldier", rule="Firepower 6.3.1")
        targets.append(s)
    if len(set(ctx.targets)) != len(ctx.targets):
        raise RulesError("only one burst may be fired at any single target unit",
                         rule="Firepower 6.3.5.1")
    hexes = {s.hex for s in targets}
    if len(hexes) != 1:
        raise RulesError("every burst must be at a target unit in the same hex",
                         rule="Firepower 6.3.5.1")
    if ctx.mode == "auto":
        assert w.automatic is not None
        if len(targets) > w.automatic[0]:
            raise RulesError(f"{ctx.weapon} fires at most {w.automatic[0]} bursts",
                             rule="Firepower 6.3.5.1")
    elif len(targets) != 1:
        raise RulesError("semi-automatic shots go at a single target unit",
                         rule="Firepower 6.3.5.2")
    ctx.target_hex = hexes.pop()
    ctx.range = check_target_hex(ctx.card, ctx.map, ctx.firer, ctx.target_hex, ctx.weapon,
                                 ctx.mode)
    # Firepower 6.3.4: the fence rule looks at each target's posture, so check each target
    friendly = ctx.friendly_postures()
    for s in targets:
        los = basic_los(ctx.map, ctx.firer.hex, s.hex, firer_posture=ctx.firer.posture,
                        firer_side=ctx.firer.fence_side, target_posture=s.posture,
                        target_side=s.fence_side, friendly=friendly)
        if los.blocked:
            raise RulesError(f"no line of sight to {s.id}: {los.reason}", rule=los.rule)
        ctx.los = los


def step_hit_number(ctx: FireContext) -> None:
    """Firepower 6.3.6.1: cross the weapon's line with the range (rifle: auto left, semi right)."""
    ctx.hit = ctx.card.hit_number(ctx.weapon, ctx.mode, ctx.range)


def step_modifiers(ctx: FireContext) -> None:
    """Firepower 6.3.6.2: the modifiers of each target unit."""
    for t in ctx.targets:
        ctx.modifiers[t] = ctx.mods_for(ctx.soldiers[t])


def step_shots(ctx: FireContext) -> None:
    """Firepower 6.3.6.3.1: one roll per shot; the hit number or less eliminates the target."""
    w = ctx.card.weapons[ctx.weapon]
    shots = (w.automatic[1] if ctx.mode == "auto" and w.automatic else (w.semi or 1))
    for burst, t in enumerate(ctx.targets, start=1):
        mod = total(ctx.modifiers[t])
        for _ in range(shots):
            r = ctx.roll(f"{ctx.firer.id} {ctx.weapon} shot at {t}")
            hit = r + mod <= ctx.hit
            ctx.shots.append(ShotRecord(t, burst, r, int(r + mod), hit))
            if hit:
                ctx.eliminated.append(t)
                break


def step_auto_suppression(ctx: FireContext) -> None:
    """Firepower 6.4.1: after automatic fire every soldier in the target hex not hit is
    Suppressed, provided a modified 10 or less can be rolled (his own modifiers,
    docs/decisions.md FPD-22); semi-automatic fire never suppresses. A Stunned soldier stays
    Stunned (docs/decisions.md FPD-23)."""
    if ctx.mode != "auto":
        return
    for s in ctx.soldiers.values():
        if s.hex != ctx.target_hex or s.id in ctx.eliminated or s.stunned:
            continue
        mods = ctx.modifiers.get(s.id) or ctx.mods_for(s)
        if can_suppress_auto(mods):
            ctx.suppressed.append(s.id)


FIRE_STEPS: tuple[Step, ...] = (
    Step("check", step_check_fire, "Firepower 6.3.1"),
    Step("hit_number", step_hit_number, "Firepower 6.3.6.1"),
    Step("modifiers", step_modifiers, "Firepower 6.3.6.2"),
    Step("shots", step_shots, "Firepower 6.3.6.3.1"),
    Step("suppression", step_auto_suppression, "Firepower 6.4.1"),
)

# -- grenade steps ---------------------------------------------------------------------------------


def throw_range_limit(card: BasicCard, posture: str) -> int:
    """Firepower 6.3.2.1.1: beyond the range line only a Standing soldier may throw."""
    w = card.weapons["HGN"]
    return w.max_range if posture == "stand" else (w.range_line or w.max_range)


def step_check_grenade(ctx: FireContext) -> None:
    """Firepower 6.3.1.1, Firepower 6.3.2.1.1, Firepower 6.3.3, Firepower 6.3.4: a target hex in
    arc, range and sight."""
    if ctx.target_hex is None:
        raise RulesError("a grenade is thrown at a target hex", rule="Firepower 6.3.1.1")
    if ctx.firer.stunned:
        raise RulesError(f"{ctx.firer.id} is Stunned and may not spend MF",
                         rule="Firepower 6.2.8")
    ctx.range = check_target_hex(ctx.card, ctx.map, ctx.firer, ctx.target_hex, "HGN", "throw")
    ctx.los = basic_los(ctx.map, ctx.firer.hex, ctx.target_hex, firer_posture=ctx.firer.posture,
                        firer_side=ctx.firer.fence_side, target_posture=None,
                        friendly=ctx.friendly_postures())
    if ctx.los.blocked:
        raise RulesError(f"no line of sight to {ctx.map.label(ctx.target_hex)}: "
                         f"{ctx.los.reason}", rule=ctx.los.rule)
    sides = trace(ctx.firer.hex, ctx.target_hex).entry_hexsides()
    if len(sides) == 2:
        if ctx.vertex_side is None:
            # the thrower's choice, the first by default (docs/decisions.md FPD-19)
            ctx.vertex_side = sides[0]
        if ctx.vertex_side not in sides:
            raise RulesError(f"the line of sight crosses the angle of hexsides {sides}; choose "
                             "one of them", rule="Firepower 6.3.6.3.2.1")
        ctx.entry_side = ctx.vertex_side
    else:
        ctx.entry_side = sides[0]


def step_grenade_hit(ctx: FireContext) -> None:
    """Firepower 6.3.6.1, Firepower 6.3.6.3.2: the grenade line's hit number and the throw modifiers."""
    ctx.hit = ctx.card.hit_number("HGN", "throw", ctx.range)
    assert ctx.los is not None
    ctx.modifiers["throw"] = throw_modifiers(ctx.firer, ctx.los, ctx.card)
    if ctx.extra_modifiers is not None:
        ctx.modifiers["throw"] = sort_modifiers(
            [*ctx.modifiers["throw"], *ctx.extra_modifiers(ctx, ctx.firer)])


def spread_hex(card: BasicCard, target: Hex, entry_side: int, roll: int) -> Hex:
    """The GRENADE SPREAD DIAGRAM hex for ``roll``, oriented on the entry hexside
    (Firepower 6.3.6.3.2.1)."""
    h = target
    for turn in card.spread_path(roll):
        h = h.neighbor(rotate_direction(entry_side, turn))
    return h


def step_throw(ctx: FireContext) -> None:
    """Firepower 6.3.6.3.2: hit number or less hits the target hex; over 10 misses completely;
    otherwise the spread decides the impact hex, which is a dud when off the map, beyond the
    grenade's range or completely blocked from the thrower's line of sight (Firepower 6.3.6.3.2.1)."""
    assert ctx.target_hex is not None and ctx.entry_side is not None
    r = ctx.roll(f"{ctx.firer.id} grenade at {ctx.map.label(ctx.target_hex)}")
    mod = int(total(ctx.modifiers["throw"]))
    ctx.throw_roll, ctx.throw_modified = r, r + mod
    if r + mod <= ctx.hit:
        ctx.outcome, ctx.impact = "hit", ctx.target_hex
        return
    if r + mod > 10:
        ctx.outcome = "complete miss"
        return
    ctx.spread_roll = ctx.roll(f"{ctx.firer.id} grenade spread")
    h = spread_hex(ctx.card, ctx.target_hex, ctx.entry_side, ctx.spread_roll)
    if h not in ctx.map.hexes:
        ctx.outcome = "dud (off the mapboard)"
        return
    if ctx.firer.hex.distance(h) > throw_range_limit(ctx.card, ctx.firer.posture):
        ctx.outcome = "dud (beyond the grenade's range)"
        return
    if h != ctx.firer.hex and basic_los(ctx.map, ctx.firer.hex, h,
                                        firer_posture=ctx.firer.posture,
                                        firer_side=ctx.firer.fence_side,
                                        friendly=ctx.friendly_postures()).blocked:
        ctx.outcome = "dud (blocked from the thrower's line of sight)"
        return
    ctx.outcome, ctx.impact = "spread", h


def step_blast(ctx: FireContext) -> None:
    """Firepower 6.3.6.3.2.2, Firepower 6.4.2: one blast roll per soldier within two hexes of the
    impact, of either side; survivors in the impact hex are Stunned, those in the blast zone
    Suppressed if an unmodified 2 could have hit. Nothing blocks the blast (docs/decisions.md
    FPD-21)."""
    if ctx.impact is None:
        return
    blast_hit = ctx.card.weapons["HGN"].blast_hit or 5
    for s in sorted(ctx.soldiers.values(), key=lambda s: s.id):
        d = s.hex.distance(ctx.impact)
        if ctx.card.blast_modifier(d) is None:
            continue
        mods = blast_modifiers(ctx.card, ctx.map, s, ctx.impact, ctx.firer.hex)
        ctx.modifiers[s.id] = mods
        blast_on(ctx, s, mods, blast_hit, label=f"grenade blast on {s.id}", distance=d)


def blast_on(ctx: FireContext, s: Any, mods: list[Modifier], hit: int, *, label: str,
             distance: int, stuns: bool = True) -> None:
    """One soldier under a blast (Firepower 6.3.6.3.2.2, 12.3.4.2): the roll against the blast
    hit number with ``mods``; a kill at or under it, else stunned in the impact hex (when the blast
    ``stuns``), else suppressed when the roll is close enough; recorded in ``ctx.blast``."""
    r = ctx.roll(label)
    modified = int(r + total(mods))
    if modified <= hit:
        result = "eliminated"
        ctx.eliminated.append(s.id)
    elif stuns and distance == 0:
        result = "stunned"
        ctx.stunned.append(s.id)
    elif blast_suppresses(mods, hit) and not s.stunned:
        result = "suppressed"
        ctx.suppressed.append(s.id)
    else:
        result = "no effect"
    ctx.blast.append({"unit": s.id, "distance": distance, "roll": r, "modified": modified,
                      "result": result})


GRENADE_STEPS: tuple[Step, ...] = (
    Step("check", step_check_grenade, "Firepower 6.3.1.1"),
    Step("hit_number", step_grenade_hit, "Firepower 6.3.6.3.2"),
    Step("throw", step_throw, "Firepower 6.3.6.3.2"),
    Step("blast", step_blast, "Firepower 6.3.6.3.2.2"),
)


BASE_STEPS: dict[str, tuple[Step, ...]] = {"fire": FIRE_STEPS, "grenade": GRENADE_STEPS}
_BASIC = {kind: Pipeline([(s.name, s) for s in steps], what=f"{kind} step")
          for kind, steps in BASE_STEPS.items()}


def procedure(kind: str, edits: Iterable[FireEdit] = (), *,
              base: Sequence[Step] | None = None) -> Pipeline[Step]:
    """The fire procedure of ``kind`` (``fire`` or ``grenade``) with optional rules' edits, in the
    kit's order (:mod:`hexwar.core.kit.pipeline`); ``base`` replaces the Basic steps (the
    table-side command's check of a shot described by flags)."""
    named = [Edit(e.op, e.anchor, e.name or (e.step.name if e.step is not None else ""), e.step,
                  e.rule) for e in edits]
    if base is None and not named:
        return _BASIC[kind]
    steps = BASE_STEPS[kind] if base is None else base
    return Pipeline([(s.name, s) for s in steps], named, what=f"{kind} step")


def run(ctx: FireContext, steps: Pipeline[Step] | None = None) -> FireContext:
    """Run a fire procedure (the Basic one of ``ctx.kind`` by default). RulesError from a check
    step leaves nothing changed."""
    for step in (steps if steps is not None else procedure(ctx.kind)).steps:
        step.run(ctx)
        if step.rule:
            ctx.rules.append(step.rule)
    return ctx


class NeedsDie(Exception):
    """Raised by :func:`preview`'s roller at the procedure's first die roll."""


def _needs_die(purpose: str) -> int:
    raise NeedsDie(purpose)


def preview(ctx: FireContext, steps: Pipeline[Step] | None = None) -> str | None:
    """Run a procedure up to its first die roll, rolling nothing (hit number and modifiers of a
    shot, for the terminal and the table-side commands); returns that roll's purpose, or None if
    the procedure needs no die. ``ctx.roll`` is left as it was."""
    roll = ctx.roll
    ctx.roll = _needs_die
    try:
        run(ctx, steps)
    except NeedsDie as stop:
        return str(stop)
    finally:
        ctx.roll = roll
    return None


def check_only(ctx: FireContext) -> FireContext:
    """Run only the Basic legality step (no dice)."""
    BASE_STEPS[ctx.kind][0].run(ctx)
    return ctx
