"""TO&E prices for people and for JSON: the MBT B.3 breakdown of an organization, a single unit's
price, a larger organization's members (used by ``hexwar mbt points`` in
:mod:`hexwar.plugins.mbt.cli`)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from hexwar.plugins.mbt.toe.catalog import (
    Breakdown,
    LargerOrganization,
    Organization,
    Toe,
    UnitPrice,
    Variant,
    printed_price,
)
from hexwar.plugins.mbt.toe.points import Grade, multiplier, round_half_up

GRADES = ("crack", "average", "poor")


def fmt(x: Fraction) -> str:
    return str(int(x)) if x.denominator == 1 else f"{float(x):.2f}".rstrip("0").rstrip(".")


def doctrine_scope(variant: Variant, flag: bool | None) -> str | None:
    """``None``: as printed; True: the organization's doctrine ("all" if it has none); False: none."""
    if flag is None:
        return None
    if not flag:
        return "none"
    for p in variant.prices:
        if p.doctrine not in ("none", "unstated"):
            return p.doctrine
    return "all"


def breakdown_dict(toe: Toe, org: Organization, variant: Variant, bd: Breakdown) -> dict[str, Any]:
    lines = []
    for pl in bd.lines:
        c = pl.component
        f = Fraction(1) if bd.constant else multiplier(bd.grade, pl.doctrine)
        lines.append(
            {
                "count": c.n,
                "unit": c.label,
                "kind": c.kind,
                "average_each": pl.average_each,
                "status": pl.unit_price.status if pl.unit_price else ("constant" if bd.constant else "group"),
                "doctrine": pl.doctrine,
                "multiplier": str(f),
                "exact": fmt(c.n * pl.average_each * f) if pl.average_each is not None else None,
                "mine_plows": c.mine_plows,
                "note": pl.note,
            }
        )
    extra = []
    if bd.total is not None:
        extra = [
            {
                "label": ln.label,
                "count": ln.count,
                "average_each": ln.average,
                "multiplier": str(ln.factor(bd.grade)),
                "exact": fmt(ln.exact(bd.grade)),
            }
            for ln in bd.total.lines
            if ln.label == "mine plow" or ln.label.startswith("leg units as")
        ]
    errata = [
        {"field": e.grade, "printed": e.printed, "computed": e.computed, "kind": e.kind, "note": e.note}
        for e in toe.errata
        if e.nation == org.nation and e.organization == org.name and e.variant in (variant.id, "")
    ]
    return {
        "nation": org.nation,
        "organization": org.name,
        "variant": variant.id,
        "mount": variant.mount,
        "grade": bd.grade.value,
        "doctrine": bd.doctrine_scope,
        "constant": bd.constant,
        "lines": lines,
        "extra_lines": extra,
        "exact": fmt(bd.total.exact) if bd.total else None,
        "points": bd.points,
        "printed": bd.printed,
        "matches_printed": None if bd.printed is None or bd.points is None else bd.printed == bd.points,
        "missing": list(bd.missing),
        "rule": "MBT Doing Your Own Scenarios B.3.a-b; MBT 13.4.1",
        "source": org.source,
        "errata": errata,
    }


def render(d: dict[str, Any]) -> str:
    mount = f" ({d['mount']})" if d["mount"] else ""
    vid = f" {d['variant']}" if d["variant"] else ""
    out = [f"{d['nation']} {d['organization']}{vid}{mount}: {d['grade']}, doctrine: {d['doctrine']}"]
    if d["constant"]:
        out.append("  artillery: constant average value, grade and doctrine do not change it (MBT B.3)")
    for ln in d["lines"]:
        if ln["average_each"] is None:
            out.append(f"  {ln['count']} x {ln['unit']}: {ln['note'] or 'no value known'}")
            continue
        doc = ", doctrine" if ln["doctrine"] else ""
        out.append(
            f"  {ln['count']} x {ln['unit']}: {ln['average_each']} Av each [{ln['status']}]"
            f" x {ln['multiplier']}{doc} = {ln['exact']}"
        )
    for ln in d["extra_lines"]:
        out.append(
            f"  {ln['count']} x {ln['label']}: {ln['average_each']} Av x {ln['multiplier']} = {ln['exact']}"
        )
    if d["points"] is None:
        out.append(f"  not computable: {', '.join(d['missing'])}")
    else:
        out.append(f"  total {d['exact']} -> {d['points']} (MBT B.3.b: round once per organization, .5 up)")
    if d["printed"] is not None:
        verdict = (
            "" if d["matches_printed"] is None else (" (matches)" if d["matches_printed"] else " (DIFFERS)")
        )
        out.append(f"  printed in the TO&E: {d['printed']}{verdict}")
    field = {"crack": "cr", "average": "av", "poor": "pr"}[d["grade"]]
    notes: list[str] = []
    for e in d["errata"]:
        if e["field"] in ("cr", "av", "pr") and e["field"] != field:
            continue
        out.append(f"  erratum [{e['kind']}] {e['field']}: printed {e['printed']}, computed {e['computed']}")
        if e["note"] not in notes:
            notes.append(e["note"])
    out.extend(f"    {n}" for n in notes)
    return "\n".join(out)


def unit_match(toe: Toe, name: str, nation: str | None) -> UnitPrice | None:
    want = name.strip().lower()
    hits = [
        u
        for u in toe.units.values()
        if u.status == "published"
        and (nation is None or u.nation == nation)
        and want in (u.name.lower(), u.label.lower())
    ]
    hits.sort(key=lambda u: (u.options != (), u.label))
    return hits[0] if hits else None


def unit_dict(u: UnitPrice, grade: Grade, doctrine: bool) -> dict[str, Any]:
    f = multiplier(grade, doctrine)
    exact = u.av * f
    printed: int | None
    if doctrine:
        printed = u.doctrine[list(Grade).index(grade)] if u.doctrine else None
    else:
        printed = {Grade.CRACK: u.cr, Grade.AVERAGE: u.av, Grade.POOR: u.pr}[grade]
    pts = round_half_up(exact)
    return {
        "nation": u.nation,
        "unit": u.label,
        "card": u.card,
        "grade": grade.value,
        "doctrine": doctrine,
        "average": u.av,
        "multiplier": str(f),
        "exact": fmt(exact),
        "points": pts,
        "printed": printed,
        "matches_printed": None if printed is None else printed == pts,
        "rule": "MBT Doing Your Own Scenarios B.3.a-b (one unit rounds on its own)",
        "source": u.source,
    }


def larger_dict(toe: Toe, lo: LargerOrganization, grade: Grade) -> dict[str, Any]:
    members = []
    lo_min = lo_max = 0
    complete = True
    for m in lo.members:
        names = toe.resolve_member(lo.nation, m.name)
        vals: list[int] = []
        for nm in names:
            org = toe.organizations.get((lo.nation, nm))
            if org is None:
                continue
            for v in org.variants:
                p = printed_price(v, "none") or (v.prices[0] if v.prices else None)
                val = None if p is None else (p.av if org.kind == "artillery" else p.get(grade))
                if val is not None:
                    vals.append(val)
        if vals:
            lo_min += m.n * min(vals)
            lo_max += m.n * max(vals)
        else:
            complete = False
        members.append(
            {
                "count": m.n,
                "name": m.name,
                "resolves_to": list(names),
                "larger": m.see,
                "printed_min": min(vals) if vals else None,
                "printed_max": max(vals) if vals else None,
            }
        )
    return {
        "nation": lo.nation,
        "organization": lo.name,
        "reference_only": lo.reference_only,
        "constraint": lo.constraint,
        "grade": grade.value,
        "members": members,
        "basic_total_min": lo_min,
        "basic_total_max": lo_max,
        "complete": complete,
        "source": lo.source,
        "rule": "MBT 12.8.3-12.8.4; printed basic-organization prices (MBT B.3.c)",
    }


def render_larger(d: dict[str, Any]) -> str:
    star = " (reference only)" if d["reference_only"] else ""
    out = [f"{d['nation']} {d['organization']}{star}: larger organization, {d['grade']}"]
    if d["constraint"]:
        out.append(f"  constraint: {d['constraint']}")
    for m in d["members"]:
        rng = (
            ""
            if m["printed_min"] is None
            else f": {m['printed_min']}-{m['printed_max']} each (printed variants)"
        )
        if m["larger"]:
            rng = " (larger organization, see its own entry)"
        out.append(f"  {m['count']} x {m['name']}{rng}")
    tail = "" if d["complete"] else " (larger members not included)"
    out.append(f"  basic organizations total: {d['basic_total_min']}-{d['basic_total_max']}{tail}")
    return "\n".join(out)
