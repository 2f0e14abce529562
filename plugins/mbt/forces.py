"""A scenario's forces given as TO&E organizations (MBT Scenario Format C, "Doing Your Own
Scenarios" B): each organization is expanded into its units by the TO&E data and priced by the
point system, and the scenario's printed totals are checked against the price.

A side lists its organizations under ``sides.<side>.forces`` (docs/scenario-format.md):

.. code-block:: toml

    [sides.NATO]
    title = "West German Panzer Company (Cross-Attached) (-)"
    points = 797                               # the total the scenario prints
    [[sides.NATO.forces]]
    id = "A"                                   # the scenario's numbering and lettering
    name = '"A" Panzer Company Headquarters'   # as the scenario names it
    nation = "FRG"
    organization = "Panzer Company Headquarters"
    variant = "c"
    grade = "average"
    officers = { CO = "Leopard 1A4", XO = "Squad Standard Infantry [PZF-44]" }

Optional keys: ``doctrine`` (Soviet only: ``none``, ``all``, ``vehicle``; default the TO&E's own
for the variant, MBT 13.4.1), ``counts`` (a component the scenario prints with another count than
the TO&E variant: the scenario's count is fielded and priced, and the difference reported) and
``cards`` (the card codes the scenario prints, checked against the TO&E's).

Organization variants (MBT 12.8.4, docs/decisions.md MBTD-182): ``counts`` may be 0 (a component
detached: understrength, 12.8.4.2), and ``attach = [{ unit = "Jaguar 2", n = 1 }]`` attaches extra
units of the organization's nation's TO&E (overstrength, 12.8.4.3; ``options`` names attached
weapons), fielded and priced with the organization. A name marked ``(-)``, ``(+)`` or ``(- & +)``
says which way it differs from its TO&E variant: a count changed that way is no misprint, a mark
the force does not bear out is reported. A company, troop or battery headquarters with fewer than
two other basic combat organizations on its side, or a battalion or squadron headquarters with
fewer than two company-level ones, is reported too (12.8.4). Task forces and cross-attaching
(12.8.4.1) are the basic organizations a side lists, of any TO&E, with ``[special] command``
grouping them under a headquarters (MBT 12.8.2.2).

Units are named ``<side initial><id>-<n>`` (``NA-1``, ``N1-3``); the members of a doctrine
organization (MBT 13.4.2.3) share the organization's name ``S1`` and are lettered ``S1a``,
``S1b``..., one doctrine unit per type (``S4a``, ``S4b`` the trucks, ``S4.2a``, ``S4.2b`` the guns,
MBT 13.4.2.2). Every unit carries its grade, organization and officer in its state (MBT 12.7, 12.8.2);
the units of a doctrine organization its ``doctrine`` (MBT 13.4.1).

The check (:func:`findings`) never changes a printed number: a printed total that the TO&E
prices do not give, a count or a card code that differs from the TO&E, is reported (``hexwar
mbt forces``, the ``forces`` record of the game log) and the game goes on with the scenario's
force as printed (docs/decisions.md MBTD-81).
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from hexwar.core.types import Problem
from hexwar.plugins.mbt.squads import mark_scenario_half, squad_of, start_half
from hexwar.plugins.mbt.toe.catalog import (
    Breakdown,
    Component,
    Organization,
    Toe,
    ToeError,
    Variant,
    applies_doctrine,
    default_scope,
    describe,
    load,
)
from hexwar.plugins.mbt.toe.points import Grade

if TYPE_CHECKING:
    from hexwar.core.engine.game import Game
    from hexwar.core.scenario import Scenario

OFFICERS = ("CO", "XO", "SP")  # MBT 12.8.2
# MBT 12.8.4.2-12.8.4.3: "(-)" understrength, "(+)" overstrength, "(- & +)" both
_MARK = re.compile(r"\((-|\+|- ?& ?\+)\)")
# MBT 12.8.4: the headquarters that need two or three lower echelon organizations under them
_BATTALION_HQ = ("battalion", "squadron")


@dataclass(frozen=True)
class Attachment:
    """MBT 12.8.4.3: extra units attached to a basic organization (``attach``)."""

    unit: str
    n: int
    options: tuple[str, ...] = ()


@dataclass(frozen=True)
class ForceOrg:
    """One organization of a side's force, as the scenario gives it."""

    side: str
    index: int
    id: str
    name: str
    nation: str
    organization: str
    variant: str | None
    grade: str
    doctrine: str | None
    officers: Mapping[str, str]
    counts: Mapping[str, int]
    cards: Mapping[str, str]
    attach: tuple[Attachment, ...] = ()

    @property
    def key(self) -> str:
        return f"sides.{self.side}.forces[{self.index}]"

    @property
    def marks(self) -> set[str]:
        """MBT 12.8.4.2-12.8.4.3: the strength marks of the organization's name."""
        out: set[str] = set()
        for m in _MARK.findall(self.name):
            out |= {c for c in m if c in "-+"}
        return out


@dataclass(frozen=True)
class Finding:
    """A printed value of the scenario that the TO&E does not give (reported, never fixed)."""

    side: str
    where: str
    what: str
    printed: str
    computed: str
    rule: str

    def __str__(self) -> str:
        return (f"{self.side} {self.where}: {self.what}: the scenario prints {self.printed}, "
                f"the TO&E gives {self.computed} ({self.rule})")


@dataclass(frozen=True)
class Priced:
    """An organization resolved in the TO&E and priced at its grade."""

    force: ForceOrg
    org: Organization
    variant: Variant
    breakdown: Breakdown


def side_forces(scenario: Scenario) -> dict[str, list[ForceOrg]]:
    """Every side's ``forces`` list (sides without one are left out). Malformed entries are left
    to :func:`problems`."""
    out: dict[str, list[ForceOrg]] = {}
    for side, spec in scenario.sides.items():
        items = spec.get("forces") if isinstance(spec, Mapping) else None
        if not isinstance(items, list):
            continue
        orgs: list[ForceOrg] = []
        for i, f in enumerate(items):
            if not isinstance(f, Mapping):
                continue
            orgs.append(ForceOrg(
                side=side, index=i, id=str(f.get("id", i + 1)), name=str(f.get("name", "")),
                nation=str(f.get("nation", "")), organization=str(f.get("organization", "")),
                variant=None if f.get("variant") is None else str(f.get("variant")),
                grade=str(f.get("grade", "average")),
                doctrine=None if f.get("doctrine") is None else str(f.get("doctrine")),
                officers=dict(f.get("officers", {})) if isinstance(f.get("officers"), Mapping) else {},
                counts=dict(f.get("counts", {})) if isinstance(f.get("counts"), Mapping) else {},
                cards=dict(f.get("cards", {})) if isinstance(f.get("cards"), Mapping) else {},
                attach=_attachments(f.get("attach")),
            ))
        out[side] = orgs
    return out


def _attachments(raw: Any) -> tuple[Attachment, ...]:
    if not isinstance(raw, list):
        return ()
    out = []
    for a in raw:
        if isinstance(a, Mapping):
            opts = a.get("options", [])
            out.append(Attachment(str(a.get("unit", "")), a.get("n", 1),
                                  tuple(str(o) for o in opts) if isinstance(opts, list) else ()))
    return tuple(out)


def _attached(force: ForceOrg, org: Organization, toe: Toe) -> list[Component]:
    """MBT 12.8.4.3: the attached units as components of the organization, from its nation's
    TO&E (its card code and kind; priced as any component)."""
    out = []
    for a in force.attach:
        if not isinstance(a.n, int) or isinstance(a.n, bool) or a.n < 1:
            raise ToeError(f"attach: {a.unit!r} must be a whole number of units, not {a.n!r} "
                           "(MBT 12.8.4.3)")
        c = Component(a.n, toe.canon_unit(org.nation, a.unit), "", "", toe.canon_options(a.options))
        up = toe.unit_price(org.nation, c)
        if up is None:
            raise ToeError(f"attach: {describe(a.unit, a.options)!r} is not a unit of the "
                           f"{org.nation} TO&E (MBT 12.8.4.3)")
        out.append(dataclasses.replace(c, card=up.card, kind=up.kind))
    return out


def resolve(force: ForceOrg, toe: Toe | None = None) -> Priced:
    """Find the organization and variant in the TO&E, apply the scenario's counts and price it at
    its grade ("Doing Your Own Scenarios" B.3); a :class:`ToeError` names what is unknown."""
    toe = toe or load()
    found = toe.find(force.organization, force.nation or None)
    if not isinstance(found, Organization):
        raise ToeError(f"{force.organization!r} is a larger organization: list its basic "
                       "organizations one by one (MBT 12.8.3)")
    variant = found.variant(force.variant)
    if force.counts:
        labels = {_card_name(c.unit, c.options): c for c in variant.components}
        for name, n in force.counts.items():
            if name not in labels:
                raise ToeError(f"counts: {name!r} is not a component of {found.name} "
                               f"{variant.label} ({', '.join(labels)})")
            # 0: the component is detached (MBT 12.8.4.2, understrength)
            if not isinstance(n, int) or isinstance(n, bool) or n < 0:
                raise ToeError(f"counts: {name!r} must be a whole number of units, not {n!r}")
        variant = dataclasses.replace(variant, components=tuple(
            dataclasses.replace(c, n=int(force.counts.get(_card_name(c.unit, c.options), c.n)))
            for c in variant.components))
    if force.attach:
        variant = dataclasses.replace(variant, components=(
            *variant.components, *_attached(force, found, toe)))
    try:
        grade = Grade.parse(force.grade)
    except ValueError as exc:
        raise ToeError(str(exc)) from None
    breakdown = toe.price(found, variant, grade, force.doctrine)
    return Priced(force, found, variant, breakdown)


def _card_name(unit: str, options: tuple[str, ...]) -> str:
    """The data card a TO&E component is fielded with: the unit with its attached weapons as the
    TO&E prints them (``Squad Heavy Motorized Rifle Infantry [RPG-7 V/D & SA-7B]``)."""
    return describe(unit, options)


def card_for(unit: str, options: tuple[str, ...], cards: Mapping[str, Any]) -> str | None:
    """The card name of a component: the unit with its options if such a card exists (attached
    weapons, a BMP-1's missile), else the plain unit (reactive armour and mine plows are unit
    status, not other cards)."""
    unit = squad_of(unit)[0]  # MBT 12.5, 15.1: a half squad is fielded on its squad's card
    full = _card_name(unit, options)
    if full in cards:
        return full
    return unit if unit in cards else None


def problems(scenario: Scenario) -> list[Problem]:
    """What is wrong with the ``forces`` of a scenario beyond its shape (keys and types are
    :func:`hexwar.plugins.mbt.setup.scenario_shapes`'): organizations, variants, grades, doctrine,
    officers and components without a data card. A printed total that does not
    recompute is not a problem (:func:`findings`)."""
    from hexwar.plugins.mbt.cards import load_cards

    path = scenario.path
    out: list[Problem] = []
    cards = load_cards()
    for side, orgs in side_forces(scenario).items():
        if side != "Soviet" and any(o.doctrine not in (None, "none") for o in orgs):
            out.append(Problem("doctrine applies only to Soviet organizations (MBT 13.4)", path,
                               f"sides.{side}.forces"))
        for force in orgs:
            try:
                priced = resolve(force)
            except ToeError as exc:
                out.append(Problem(str(exc), path, force.key))
                continue
            names = []
            labels = [_card_name(c.unit, c.options) for c in priced.variant.components]
            for c in priced.variant.components:
                name = card_for(c.unit, c.options, cards)
                if name is None:
                    out.append(Problem(f"{c.label}: no data card {_card_name(c.unit, c.options)!r} "
                                       "(MBT 1.3; add one with [special] cards)", path, force.key))
                names.append(name)
            for officer, carrier in force.officers.items():
                if officer not in OFFICERS:
                    out.append(Problem(f"officer {officer!r} is not one of {', '.join(OFFICERS)} "
                                       "(MBT 12.8.2)", path, f"{force.key}.officers"))
                elif carrier not in names and carrier not in labels:
                    out.append(Problem(f"the {officer} is with {carrier!r}, which is not a unit of "
                                       f"this organization ({', '.join(n or '?' for n in names)})",
                                       path, f"{force.key}.officers.{officer}"))
    return out


def findings(scenario: Scenario) -> list[Finding]:
    """Every printed value of the scenario's forces that the TO&E does not give: the side's total
    against the sum of its organizations' prices, each count that differs from the TO&E variant,
    each card code that differs from the TO&E's ("Doing Your Own Scenarios" B.3; MBT Scenario
    Format C)."""
    out: list[Finding] = []
    for side, orgs in side_forces(scenario).items():
        total = 0
        complete = True
        for force in orgs:
            try:
                priced = resolve(force)
            except ToeError:
                complete = False
                continue
            where = force.name or force.organization
            if priced.breakdown.points is None:
                complete = False
            else:
                total += priced.breakdown.points
            base = priced.org.variant(force.variant)
            marks = force.marks
            fielded = priced.variant.components[:len(base.components)]
            for c, want in zip(base.components, fielded, strict=True):
                # MBT 12.8.4.2-12.8.4.3: a count changed the way the name's mark says is no misprint
                if c.n != want.n and ("-" if want.n < c.n else "+") not in marks:
                    out.append(Finding(side, where, f"{c.label}: count", str(want.n), str(c.n),
                                       f"TO&E {priced.org.nation} {priced.org.name} {base.label}"))
            out += _strength_findings(force, where, base.components, priced.variant.components)
            for unit, printed in force.cards.items():
                toe_card = next((c.card for c in base.components if c.unit == unit), None)
                if toe_card is not None and toe_card != printed:
                    out.append(Finding(side, where, f"card code of the {unit}", printed, toe_card,
                                       "MBT 1.3"))
        out += _headquarters_findings(side, orgs)
        spec = scenario.sides[side]
        total_printed = spec.get("points") if isinstance(spec, Mapping) else None
        if isinstance(total_printed, int) and complete and total_printed != total:
            out.append(Finding(side, str(spec.get("title", side)), "points", str(total_printed),
                               str(total), "Doing Your Own Scenarios B.3"))
    return out


def _strength_findings(force: ForceOrg, where: str, base: tuple[Component, ...],
                       fielded: tuple[Component, ...]) -> list[Finding]:
    """MBT 12.8.4.2-12.8.4.3: a strength mark of the name that the force does not bear out, and
    attached units under a name without ``(+)``."""
    actual: set[str] = set()
    if any(w.n < c.n for c, w in zip(base, fielded, strict=False)):
        actual.add("-")
    if any(w.n > c.n for c, w in zip(base, fielded, strict=False)) or len(fielded) > len(base):
        actual.add("+")
    out = []
    for mark, rule, what in (("-", "MBT 12.8.4.2", "understrength"),
                             ("+", "MBT 12.8.4.3", "overstrength")):
        if mark in force.marks and mark not in actual:
            out.append(Finding(force.side, where, f"strength mark ({mark})", f"{what}",
                               f"not {what}", rule))
    if len(fielded) > len(base) and "+" not in force.marks:
        added = ", ".join(c.label for c in fielded[len(base):])
        out.append(Finding(force.side, where, f"attached {added}", "no (+) after the name",
                           "an overstrength organization", "MBT 12.8.4.3"))
    return out


def _headquarters_findings(side: str, orgs: list[ForceOrg]) -> list[Finding]:
    """MBT 12.8.4: a company, troop or battery headquarters needs at least two lower echelon basic
    organizations to command (combat ones of its side), a battalion or squadron headquarters at
    least two company-level headquarters. Reported (a guideline), never refused."""
    kinds: list[tuple[ForceOrg, Organization]] = []
    for force in orgs:
        try:
            kinds.append((force, resolve(force).org))
        except ToeError:
            return []  # left to problems()
    hqs = [(f, o) for f, o in kinds if o.kind == "headquarters"]
    high = [(f, o) for f, o in hqs if any(w in o.name.lower() for w in _BATTALION_HQ)]
    company = [x for x in hqs if x not in high]
    combat = sum(1 for _f, o in kinds if o.kind == "combat")
    out = []
    for group, have, what in ((company, combat, "basic combat organizations"),
                              (high, len(company), "company-level headquarters")):
        for f, o in group:
            if have < 2:
                out.append(Finding(side, f.name or o.name, f"{what} to command", str(have),
                                   "at least 2", "MBT 12.8.4"))
    return out


def side_points(scenario: Scenario) -> dict[str, int | None]:
    """Each side's force priced by the TO&E (None where an organization has no price)."""
    out: dict[str, int | None] = {}
    for side, orgs in side_forces(scenario).items():
        total: int | None = 0
        for force in orgs:
            pts = resolve(force).breakdown.points
            total = None if pts is None or total is None else total + pts
        out[side] = total
    return out


def expand(scenario: Scenario) -> list[tuple[str, str, str, dict[str, Any]]]:
    """The units of every side's ``forces``: (id, unit type, side, starting state), in the
    scenario's order (MBT Scenario Format C)."""
    from hexwar.plugins.mbt.cards import load_cards

    cards = load_cards()
    out: list[tuple[str, str, str, dict[str, Any]]] = []
    for side, orgs in side_forces(scenario).items():
        for force in orgs:
            priced = resolve(force)
            scope = force.doctrine if force.doctrine is not None else default_scope(priced.variant)
            prefix = f"{side[0]}{force.id}"
            n_plain = 0
            # MBT 13.4.2.2: one doctrine unit per type of combat unit in the organization, the
            # first named as the organization, the others S4.2, S4.3... (docs/decisions.md MBTD-166)
            groups: dict[str, str] = {}
            letters: dict[str, Iterator[str]] = {}
            officers = dict(force.officers)
            carriers: list[str] = []
            squads: list[dict[str, Any]] = []
            firsts: dict[str, dict[str, Any]] = {}  # carrier name -> its first unit's state
            for c in priced.variant.components:
                name = card_for(c.unit, c.options, cards)
                if name is None:
                    raise ToeError(f"{c.label}: no data card (MBT 1.3)")
                doctrine = side == "Soviet" and applies_doctrine(scope, c)
                group = prefix
                if doctrine:
                    group = groups.setdefault(
                        name, prefix if not groups else f"{prefix}.{len(groups) + 1}")
                    letters.setdefault(group, iter("abcdefghijklmnopqrstuvwxyz"))
                for _ in range(c.n):
                    if doctrine:
                        uid = f"{group}{next(letters[group])}"
                    else:
                        n_plain += 1
                        uid = f"{prefix}-{n_plain}"
                    state: dict[str, Any] = {"grade": Grade.parse(force.grade).value,
                                             "organization": force.name or force.organization}
                    if doctrine:
                        state["doctrine"] = group  # MBT 13.4.2.3: 101a, 101b...
                    if squad_of(c.unit)[1]:
                        start_half(state)  # MBT 12.5: the TO&E fields a half squad
                    for officer, carrier in list(officers.items()):
                        if carrier in (name, _card_name(c.unit, c.options)):
                            firsts.setdefault(carrier, state)
                            state["officer"] = officer  # MBT 12.8.2: the first unit named
                            del officers[officer]
                            break
                    if "reactive armor" in c.options:
                        state["reactive"] = "heavy"
                    card = cards[name]
                    if card.kind == "vehicle" and card.records.values.get("card", {}).get("transport"):
                        carriers.append(uid)
                    elif card.kind == "leg":
                        squads.append(state)
                    out.append((uid, card.type_name, side, state))
            # MBT 12.8.2 with 21.1.3 (MBTD-167): an officer named with a unit that is the only
            # one of its kind, already carrying an officer, rides it as a second officer
            for officer, carrier in officers.items():
                if carrier in firsts:
                    firsts[carrier].setdefault("riders", []).append({"officer": officer})
            # MBTD-82: a squad starts in the carrier the TO&E gives it (paired in order, MBT
            # 15.3.2.6); the carrier is also kept as assigned_carrier for the record
            for state, carrier in zip(squads, carriers, strict=False):
                state["carried_by"] = state["assigned_carrier"] = carrier
    return out


def add_units(game: Game) -> None:
    """Before the set-up: the units of the scenario's ``forces``, with no hex (the set-up places
    them, MBT 10.0 and the scenario's C), and the ``forces`` record: each side's printed total,
    its TO&E price and every printed value that does not recompute."""
    from hexwar.core.engine.state import Unit
    from hexwar.core.errors import DataError

    scenario = game.scenario
    for u in game.state.units.values():
        mark_scenario_half(u)  # MBT 12.5: a [[units]] half squad, checked by hexwar validate
    if not side_forces(scenario):
        return
    try:
        units = expand(scenario)
    except ToeError as exc:  # hexwar validate names these first; a game refuses them too
        raise DataError(str(exc), path=scenario.path, key="sides") from None
    for uid, utype, side, state in units:
        if uid in game.state.units:
            raise DataError(f"unit {uid!r} of the forces is also a [[units]] entry",
                            path=scenario.path, key="units")
        game.state.units[uid] = Unit(uid, utype, side, None, 1, state)
    game.emit("forces", rule="MBT Scenario Format C",
              printed={s: spec.get("points") for s, spec in scenario.sides.items()
                       if isinstance(spec, Mapping)},
              priced=side_points(scenario), findings=[str(f) for f in findings(scenario)])
