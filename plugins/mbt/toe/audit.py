"""Recompute every printed TO&E price and list the ones that do not reproduce.

Method ("Doing Your Own Scenarios" B.3.a-b, MBT 13.4.1): the sum of the components' average values
(TO&E part 1, or ``derived``), each times its grade/doctrine factor, rounded once per organization.
Artillery organizations are constant values (B.3) and have no per-battery prices in the text, so they
are not recomputable. Individual unit lines (part 1) are checked too: Cr and Pr against 1.2/.8 x Av,
and the Soviet parenthesised doctrine values against .9/.75/.6 x Av.
"""

from __future__ import annotations

from dataclasses import dataclass

from hexwar.plugins.mbt.toe.catalog import (
    MINE_PLOW_AV,
    Organization,
    Price,
    Toe,
    Variant,
    applies_doctrine,
    load,
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
    unpriced units that reproduces every printed grade at once (B.3.a-b)? A NATO triple must satisfy
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


def audit(toe: Toe | None = None) -> AuditResult:
    toe = toe or load()
    checked, mism = audit_units(toe)
    matched = checked - len(mism)
    not_recomputable: list[str] = []
    for org in toe.iter_organizations():
        if org.kind == "artillery":
            not_recomputable.append(f"{org.nation} {org.name}: artillery, priced only as a group (B.3)")
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
    return AuditResult(
        checked=checked,
        matched=matched,
        mismatches=tuple(sorted(mism)),
        not_recomputable=tuple(not_recomputable),
    )
