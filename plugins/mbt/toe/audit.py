"""Recompute every printed TO&E price and list the ones that do not reproduce.

Method ("Doing Your Own Scenarios" B.3.a-b, MBT 13.4.1): the sum of the components' average values
(TO&E part 1, or ``derived``), each times its grade/doctrine factor, rounded once per organization.
Artillery organizations are constant values (MBT B.3) and have no per-battery prices in the text, so they
are not recomputable. Individual unit lines (part 1) are checked too: Cr and Pr against 1.2/.8 x Av,
and the Soviet parenthesised doctrine values against .9/.75/.6 x Av.
"""

from __future__ import annotations

from dataclasses import dataclass

from hexwar.plugins.mbt.toe.catalog import (
    ELITE_AV,
    FLAMETHROWER_AV,
    MINE_PLOW_AV,
    Component,
    Organization,
    Price,
    Toe,
    Variant,
    applies_doctrine,
    load,
    printed_price,
)
from hexwar.plugins.mbt.toe.points import Grade, Line, organization_points, unit_points


@dataclass(frozen=True, order=True)
class Mismatch:
    nation: str
    organization: str
    variant: str
    field: str  # "cr" | "av" | "pr" | "cr(doctrine)" ... | "av_garbled"
    printed: str
    computed: str

    @property
    def key(self) -> tuple[str, str, str, str]:
        return (self.nation, self.organization, self.variant, self.field)


@dataclass(frozen=True)
class AuditResult:
    checked: int  # printed numbers looked at
    matched: int  # printed numbers recomputed exactly
    mismatches: tuple[Mismatch, ...]
    not_recomputable: tuple[str, ...]  # "USA Organic Artillery": why


def audit_units(toe: Toe) -> tuple[int, list[Mismatch]]:
    checked = 0
    out: list[Mismatch] = []
    for up in toe.units.values():
        if up.status != "published":
            continue
        label = up.label
        for g, printed in ((Grade.CRACK, up.cr), (Grade.POOR, up.pr)):
            checked += 1
            want = unit_points(up.av, g)
            if printed != want:
                out.append(
                    Mismatch(up.nation, f"unit {label}", "", g.abbrev.lower(), str(printed), str(want))
                )
        if up.doctrine:
            for g, printed in zip(Grade, up.doctrine, strict=True):
                checked += 1
                want = unit_points(up.av, g, doctrine=True)
                if printed != want:
                    out.append(
                        Mismatch(
                            up.nation,
                            f"unit {label}",
                            "",
                            f"{g.abbrev.lower()}(doctrine)",
                            str(printed),
                            str(want),
                        )
                    )
    return checked, out


def grades_consistent(toe: Toe, org: Organization, v: Variant, p: Price) -> bool:
    """For a variant whose units cannot all be priced: is there any integer average total of the
    unpriced units that reproduces every printed grade at once (MBT B.3.a-b)? A NATO triple must satisfy
    Cr = round(1.2 Av) and Pr = round(.8 Av); doctrine triples are checked the same way."""
    scope = "none" if p.doctrine == "unstated" else p.doctrine
    known: list[Line] = []
    flags: set[bool] = set()
    for c in v.components:
        up = toe.unit_price(org.nation, c)
        doc = applies_doctrine(scope, c)
        if up is None:
            flags.add(doc)
            continue
        known.append(Line(c.unit, c.n, up.av, doctrine=doc))
        if c.mine_plows:
            known.append(Line("plow", c.mine_plows, MINE_PLOW_AV, doctrine=doc))
    if len(flags) != 1:
        return True  # cannot test a mixture of unknowns
    doc = flags.pop()
    for u in range(3000):
        lines = [*known, Line("unknown", 1, u, doctrine=doc)]
        if all(organization_points(lines, g).points == p.get(g) for g in p.grades):
            return True
    return False


def _extras(c: Component) -> int:
    return sum(ELITE_AV.get(e, 0) for e in c.elite) + (FLAMETHROWER_AV if "Flamethrower" in c.options else 0)


def _plain(c: Component) -> tuple[str, int, tuple[str, ...], int]:
    return (c.unit, c.n, tuple(sorted(o for o in c.options if o != "Flamethrower")), c.mine_plows)


def rule_pair_mismatch(toe: Toe, org: Organization, v1: Variant, v2: Variant) -> Mismatch | None:
    """Two variants that differ only in MBT 17.4.1 add-ons (elite status, flamethrower) must differ in
    average price by exactly those costs. Checked (from the cheaper to the dearer variant) only when
    ``v2`` cannot be recomputed unit by unit, with no doctrine on either."""
    if v1 is v2 or len(v1.components) != len(v2.components):
        return None
    pairs = list(zip(v1.components, v2.components, strict=True))
    if any(_plain(a) != _plain(b) for a, b in pairs):
        return None
    diff = sum(b.n * _extras(b) - a.n * _extras(a) for a, b in pairs)
    if diff <= 0:
        return None
    p1, p2 = printed_price(v1, "none"), printed_price(v2, "none")
    if not diff or p1 is None or p2 is None or p1.av is None or p2.av is None:
        return None
    if toe.price(org, v2, Grade.AVERAGE, "none").points is not None:
        return None
    if p2.av == p1.av + diff:
        return None
    return Mismatch(org.nation, org.name, v2.id, "av", str(p2.av), str(p1.av + diff))


def audit(toe: Toe | None = None) -> AuditResult:
    toe = toe or load()
    checked, mism = audit_units(toe)
    matched = checked - len(mism)
    not_recomputable: list[str] = []
    for org in toe.iter_organizations():
        if org.kind == "artillery":
            not_recomputable.append(f"{org.nation} {org.name}: artillery, priced only as a group (MBT B.3)")
            continue
        for v in org.variants:
            for p in v.prices:
                scope = "none" if p.doctrine == "unstated" else p.doctrine
                if p.av_garbled:
                    checked += 1
                    bd = toe.price(org, v, Grade.AVERAGE, scope)
                    mism.append(Mismatch(org.nation, org.name, v.id, "av", p.av_garbled, str(bd.points)))
                for g in p.grades:
                    checked += 1
                    bd = toe.price(org, v, g, scope)
                    printed = p.get(g)
                    if bd.points is None:
                        if g is p.grades[0]:
                            not_recomputable.append(
                                f"{org.nation} {org.name} {v.id}: no value for {bd.missing}"
                            )
                        if not grades_consistent(toe, org, v, p):
                            mism.append(
                                Mismatch(
                                    org.nation,
                                    org.name,
                                    v.id,
                                    g.abbrev.lower(),
                                    str(printed),
                                    "no consistent value",
                                )
                            )
                        continue
                    if bd.points == printed:
                        matched += 1
                    else:
                        mism.append(
                            Mismatch(
                                org.nation, org.name, v.id, g.abbrev.lower(), str(printed), str(bd.points)
                            )
                        )
    for org in toe.iter_organizations():
        for v1 in org.variants:
            for v2 in org.variants:
                m = rule_pair_mismatch(toe, org, v1, v2)
                if m is not None:
                    checked += 1
                    mism.append(m)
    return AuditResult(
        checked=checked,
        matched=matched,
        mismatches=tuple(sorted(mism)),
        not_recomputable=tuple(not_recomputable),
    )
