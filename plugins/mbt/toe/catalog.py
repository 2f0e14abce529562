"""The MBT TO&E as data: loading, name resolution, and recomputing organization prices.

Sources: the rulebook's TO&E section (parts 1-4 for USA, FRG, USSR), transcribed into
``data/{usa,frg,ussr}.toml``; ``data/derived.toml`` (values the text never prints for one unit but that
the organization prices determine, marked ``derived``); ``data/aliases.toml`` (spelling variants);
``data/errata.toml`` (printed values that do not recompute). Rules applied: "Doing Your Own Scenarios"
B.3 (grade, doctrine, rounding, constant artillery values), MBT 13.4.1 (doctrine scope), MBT 12.8
(basic and larger organizations).
"""

from __future__ import annotations

import difflib
import tomllib
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from typing import Any

from hexwar.plugins.mbt.toe.points import Grade, Line, Total, organization_points

NATIONS: tuple[str, ...] = ("USA", "FRG", "USSR")
NATION_NAMES: dict[str, str] = {
    "USA": "United States of America",
    "FRG": "Federal Republic of Germany",
    "USSR": "Union of Soviet Socialist Republics",
}
DOCTRINE_SCOPES = ("none", "all", "vehicle", "vehicle+SPG-9")
MINE_PLOW_AV = 25  # derived: +25 average points per mine plow (see data/derived.toml [mine_plow])
# Elite infantry costs (MBT 17.4.1.1 squad plus +15, MBT 17.4.1.2 assault +15 and one flamethrower +10,
# MBT 17.4.1.3.1 special forces +30), added to the plain squad's average value.
ELITE_AV: dict[str, int] = {"Squad Plus": 15, "Assault": 15, "Special Forces": 30}
FLAMETHROWER_AV = 10
ELITE_RULE = {"Squad Plus": "MBT 17.4.1.1", "Assault": "MBT 17.4.1.2", "Special Forces": "MBT 17.4.1.3.1"}


class ToeError(LookupError):
    """An unknown organization, variant, grade or doctrine request; the message names it."""


UnitKey = tuple[str, str, tuple[str, ...], tuple[str, ...]]  # nation, name, options, elite


@dataclass(frozen=True)
class UnitPrice:
    """An individual unit's average value with provenance (TO&E part 1, or derived)."""

    nation: str
    name: str
    options: tuple[str, ...]
    elite: tuple[str, ...]
    card: str
    kind: str
    cr: int | None
    av: int
    pr: int | None
    doctrine: tuple[int, int, int] | None
    printed: str
    source: str
    status: str  # "published" | "derived"
    note: str = ""

    @property
    def label(self) -> str:
        return describe(self.name, self.options, self.elite)


@dataclass(frozen=True)
class Component:
    n: int
    unit: str
    card: str
    kind: str
    options: tuple[str, ...] = ()
    elite: tuple[str, ...] = ()
    mine_plows: int = 0
    count_printed: bool = True

    @property
    def label(self) -> str:
        text = describe(self.unit, self.options, self.elite)
        if self.mine_plows:
            text += f" [{self.mine_plows} with mine plow]"
        return f"{text} ({self.card})"


@dataclass(frozen=True)
class Price:
    doctrine: str  # none | all | vehicle | vehicle+SPG-9 | unstated
    cr: int | None
    av: int | None
    pr: int | None
    printed: str
    av_garbled: str = ""

    def get(self, grade: Grade) -> int | None:
        return {Grade.CRACK: self.cr, Grade.AVERAGE: self.av, Grade.POOR: self.pr}[grade]

    @property
    def grades(self) -> tuple[Grade, ...]:
        return tuple(g for g in Grade if self.get(g) is not None)


@dataclass(frozen=True)
class Variant:
    id: str
    mount: str
    components: tuple[Component, ...]
    prices: tuple[Price, ...]

    @property
    def label(self) -> str:
        base = self.id or "(single)"
        return f"{base} ({self.mount})" if self.mount else base


@dataclass(frozen=True)
class Organization:
    nation: str
    name: str
    part: str  # basic | attached
    kind: str  # combat | headquarters | artillery
    officers: tuple[str, ...]
    source: str
    variants: tuple[Variant, ...]

    def variant(self, vid: str | None) -> Variant:
        if vid is None:
            if len(self.variants) == 1:
                return self.variants[0]
            raise ToeError(
                f"{self.nation} {self.name!r} has {len(self.variants)} variants; choose one with --variant "
                f"({', '.join(v.id for v in self.variants)})"
            )
        for v in self.variants:
            if v.id == vid.strip().lower() or (not v.id and vid.strip().lower() in ("", "-", "a")):
                return v
        ids = [v.id for v in self.variants]
        close = difflib.get_close_matches(vid, ids, n=5, cutoff=0.5)
        hint = f"; close matches: {', '.join(close)}" if close else ""
        raise ToeError(
            f"{self.nation} {self.name!r} has no variant {vid!r}{hint}; "
            f"variants: {', '.join(ids) or '(single)'}"
        )


@dataclass(frozen=True)
class Member:
    n: int
    name: str
    see: bool
    count_printed: bool


@dataclass(frozen=True)
class LargerOrganization:
    nation: str
    name: str
    reference_only: bool
    constraint: str
    members: tuple[Member, ...]
    source: str


@dataclass(frozen=True)
class Erratum:
    nation: str
    organization: str
    variant: str
    grade: str  # "cr" | "av" | "pr" | "card" | ...
    printed: str
    computed: str
    kind: str
    note: str


@dataclass(frozen=True)
class PricedLine:
    """One component of a breakdown."""

    component: Component
    unit_price: UnitPrice | None
    average_each: int | None
    doctrine: bool
    note: str = ""


@dataclass(frozen=True)
class Breakdown:
    """A computed price: per-line values, multipliers, exact sum and MBT B.3.b rounding."""

    nation: str
    organization: str
    variant: str
    grade: Grade
    doctrine_scope: str
    lines: tuple[PricedLine, ...]
    total: Total | None  # None when a component has no known value
    constant: bool  # artillery: constant value, MBT B.3
    printed: int | None
    missing: tuple[str, ...] = ()

    @property
    def points(self) -> int | None:
        return None if self.total is None else self.total.points


def describe(name: str, options: tuple[str, ...], elite: tuple[str, ...] = ()) -> str:
    inner = [" & ".join(options)] if options else []
    inner += [f'"{e}"' for e in elite]
    return f"{name} [{', '.join(inner)}]" if inner else name


def _load(name: str) -> dict[str, Any]:
    with resources.files("hexwar.plugins.mbt").joinpath("data", "toe", name).open("rb") as fh:
        return tomllib.load(fh)


@dataclass
class Toe:
    """All three nations' TO&E plus aliases, derived values and errata."""

    units: dict[UnitKey, UnitPrice] = field(default_factory=dict)
    organizations: dict[tuple[str, str], Organization] = field(default_factory=dict)
    larger: dict[tuple[str, str], LargerOrganization] = field(default_factory=dict)
    unit_alias: dict[tuple[str, str], str] = field(default_factory=dict)
    option_alias: dict[str, str] = field(default_factory=dict)
    member_alias: dict[tuple[str, str], tuple[str, ...]] = field(default_factory=dict)
    errata: tuple[Erratum, ...] = ()
    mine_plow_note: str = ""

    # ---- names -------------------------------------------------------------------------------
    def canon_unit(self, nation: str, name: str) -> str:
        return self.unit_alias.get((nation, name), name)

    def canon_options(self, options: tuple[str, ...]) -> tuple[str, ...]:
        return tuple(sorted(self.option_alias.get(o, o) for o in options))

    def key(self, nation: str, name: str, options: tuple[str, ...], elite: tuple[str, ...] = ()) -> UnitKey:
        return (nation, self.canon_unit(nation, name), self.canon_options(options), tuple(sorted(elite)))

    def unit_price(self, nation: str, c: Component) -> UnitPrice | None:
        """A component's average value: its own line (TO&E part 1), else the plain squad plus the
        elite and flamethrower costs of MBT 17.4.1 (rule), else a derived value."""
        key = self.key(nation, c.unit, c.options, c.elite)
        own = self.units.get(key)
        if own is not None and own.status == "published":
            return own
        ruled = self._elite_price(key)
        return ruled if ruled is not None else own

    def _elite_price(self, key: UnitKey) -> UnitPrice | None:
        nation, name, options, elite = key
        ft = "Flamethrower" in options
        if not elite and not ft:
            return None
        base_key = (nation, name, tuple(o for o in options if o != "Flamethrower"), ())
        base = self.units.get(base_key)
        if base is None or any(e not in ELITE_AV for e in elite):
            return None
        extra = sum(ELITE_AV[e] for e in elite) + (FLAMETHROWER_AV if ft else 0)
        rules = sorted({ELITE_RULE[e] for e in elite} | ({"MBT 17.4.1.2"} if ft else set()))
        parts = [f"{ELITE_AV[e]} {e}" for e in elite] + ([f"{FLAMETHROWER_AV} flamethrower"] if ft else [])
        return UnitPrice(
            nation=nation,
            name=name,
            options=options,
            elite=elite,
            card=base.card,
            kind=base.kind,
            cr=None,
            av=base.av + extra,
            pr=None,
            doctrine=None,
            printed="",
            source=f"{base.label} ({base.status}, {base.av}) + {' + '.join(parts)} ({', '.join(rules)})",
            status="rule",
        )

    # ---- lookup ------------------------------------------------------------------------------
    def iter_organizations(self, nation: str | None = None) -> Iterator[Organization]:
        for (n, _), org in self.organizations.items():
            if nation is None or n == nation:
                yield org

    def find(self, name: str, nation: str | None = None) -> Organization | LargerOrganization:
        """Find a basic or larger organization by name (case-insensitive), optionally within a nation."""
        nat = _nation(nation)
        want = name.strip().lower()
        hits: list[Organization | LargerOrganization] = []
        for table in (self.organizations, self.larger):
            for (n, oname), org in table.items():
                if (nat is None or n == nat) and oname.lower() == want:
                    hits.append(org)
        if len(hits) == 1:
            return hits[0]
        if len(hits) > 1:
            where = ", ".join(f"{h.nation} {h.name!r}" for h in hits)
            raise ToeError(f"{name!r} names more than one organization ({where}); add --nation")
        names = sorted(
            {oname for (n, oname) in [*self.organizations, *self.larger] if nat is None or n == nat}
        )
        close = difflib.get_close_matches(name, names, n=6, cutoff=0.5)
        low = [x for x in names if want and want in x.lower() and x not in close]
        close += low[: max(0, 6 - len(close))]
        hint = f"; close matches: {', '.join(close)}" if close else ""
        scope = f" in the {nat} TO&E" if nat else ""
        raise ToeError(f"unknown organization {name!r}{scope}{hint}")

    def resolve_member(self, nation: str, member: str) -> tuple[str, ...]:
        """Basic or larger organization names a part-4 member line refers to."""
        if (nation, member) in self.member_alias:
            return self.member_alias[(nation, member)]
        names = {o for (n, o) in [*self.organizations, *self.larger] if n == nation}
        for cand in _singulars(member):
            if cand in names:
                return (cand,)
        return ()

    # ---- pricing -----------------------------------------------------------------------------
    def price(
        self, org: Organization, variant: Variant, grade: Grade, doctrine: str | None = None
    ) -> Breakdown:
        """Recompute ``variant`` at ``grade``; ``doctrine`` is a scope or None for the printed one."""
        scope = doctrine if doctrine is not None else default_scope(variant)
        if scope not in DOCTRINE_SCOPES:
            raise ToeError(f"unknown doctrine scope {scope!r} ({', '.join(DOCTRINE_SCOPES)})")
        if scope != "none" and org.nation != "USSR":
            raise ToeError(f"doctrine is a Soviet rule (MBT 13.4); {org.nation} {org.name!r} has none")
        printed = printed_price(variant, scope)
        printed_value = printed.get(grade) if printed else None
        if org.kind == "artillery":
            # MBT B.3: artillery values are constant (average) and already include quality and doctrine.
            av = printed.av if printed else None
            lines = tuple(
                PricedLine(c, None, None, False, "priced as a battery group") for c in variant.components
            )
            total = (
                organization_points([Line(org.name, 1, av, constant=True)], grade) if av is not None else None
            )
            return Breakdown(
                org.nation,
                org.name,
                variant.id,
                grade,
                scope,
                lines,
                total,
                True,
                printed.av if printed else None,
            )
        priced: list[PricedLine] = []
        plines: list[Line] = []
        missing: list[str] = []
        for c in variant.components:
            up = self.unit_price(org.nation, c)
            doc = applies_doctrine(scope, c)
            if up is None:
                missing.append(c.label)
                priced.append(PricedLine(c, None, None, doc))
                continue
            each = up.av
            priced.append(PricedLine(c, up, each, doc))
            plines.append(Line(c.label, c.n, each, doctrine=doc))
            if c.mine_plows:
                plines.append(Line("mine plow", c.mine_plows, MINE_PLOW_AV, doctrine=doc))
        if missing:
            group = self._group_price(org, variant, scope)
            if group is not None:
                label, av, doc = group
                missing = []
                plines.append(Line(label, 1, av, doctrine=doc))
                priced = [
                    PricedLine(
                        p.component, p.unit_price, p.average_each, p.doctrine, p.note or f"in: {label}"
                    )
                    if p.unit_price is None
                    else p
                    for p in priced
                ]
        total = None if missing else organization_points(plines, grade)
        return Breakdown(
            org.nation,
            org.name,
            variant.id,
            grade,
            scope,
            tuple(priced),
            total,
            False,
            printed_value,
            tuple(missing),
        )

    def _group_price(self, org: Organization, variant: Variant, scope: str) -> tuple[str, int, bool] | None:
        """Price the unpriced components as a group, from another variant made of exactly them.

        Derived rule (docs/decisions.md MBTD-19): a mounted variant costs its vehicles plus the
        printed average price of the dismounted variant with the same infantry. Used only when no
        per-unit value is known.
        """
        unpriced = [c for c in variant.components if self.unit_price(org.nation, c) is None]
        flags = {applies_doctrine(scope, c) for c in unpriced}
        if len(flags) != 1:
            return None
        want = sorted((self.key(org.nation, c.unit, c.options, c.elite), c.n) for c in unpriced)
        for other in self.iter_organizations(org.nation):
            for ov in other.variants:
                if ov is variant:
                    continue
                have = sorted((self.key(org.nation, c.unit, c.options, c.elite), c.n) for c in ov.components)
                if have != want:
                    continue
                p = printed_price(ov, "none")
                if p is not None and p.av is not None:
                    where = f"{other.name} {ov.id}".strip() if other is not org else f"variant {ov.label}"
                    return (f"leg units as {where} (printed {p.av} Av)", p.av, flags.pop())
        return None


def applies_doctrine(scope: str, c: Component) -> bool:
    """MBT 13.4.1: "with doctrine" = every combat unit; "with vehicle doctrine" = only the named types."""
    if scope == "all":
        return True
    if scope in ("vehicle", "vehicle+SPG-9") and c.kind == "vehicle":
        return True
    return scope == "vehicle+SPG-9" and c.unit == "SPG-9"


def default_scope(variant: Variant) -> str:
    """The doctrine the TO&E prints for a variant (first price line); NATO and unstated lines: none."""
    if not variant.prices:
        return "none"
    d = variant.prices[0].doctrine
    return "none" if d == "unstated" else d


def printed_price(variant: Variant, scope: str) -> Price | None:
    for p in variant.prices:
        d = "none" if p.doctrine == "unstated" else p.doctrine
        if d == scope:
            return p
    return None


def _singulars(name: str) -> list[str]:
    out = [name]
    head, sep, tail = name.partition(" (")
    for a, b in (("Companies", "Company"), ("Batteries", "Battery"), ("Headquarters", "Headquarters")):
        if head.endswith(a):
            out.append(head[: -len(a)] + b + sep + tail)
    if head.endswith("s") and not head.endswith("Headquarters"):
        out.append(head[:-1] + sep + tail)
    if name.endswith("s") and not name.endswith("Headquarters"):
        out.append(name[:-1])  # "Flak (Gun) Sections"
    for a, b in (("Companies", "Company"), ("Batteries", "Battery")):
        if name.endswith(a):
            out.append(name[: -len(a)] + b)
    return out


def _nation(nation: str | None) -> str | None:
    if nation is None:
        return None
    n = nation.strip().upper()
    aliases = {
        "US": "USA",
        "GERMANY": "FRG",
        "WG": "FRG",
        "WEST GERMAN": "FRG",
        "SOVIET": "USSR",
        "SU": "USSR",
    }
    n = aliases.get(n, n)
    if n not in NATIONS:
        raise ToeError(f"unknown nation {nation!r} (USA, FRG or USSR)")
    return n


@cache
def load() -> Toe:
    """Load and index the TO&E data (cached)."""
    return build()


def build(derived: bool = True) -> Toe:
    """Build the index; ``derived=False`` leaves out data/derived.toml (used by derive.py)."""
    toe = Toe()
    al = _load("aliases.toml")
    for a in al.get("unit", []):
        toe.unit_alias[(a["nation"], a["printed"])] = a["canonical"]
    for a in al.get("option", []):
        toe.option_alias[a["printed"]] = a["canonical"]
    for a in al.get("member", []):
        toe.member_alias[(a["nation"], a["printed"])] = tuple(a["canonical"])
    for nation in NATIONS:
        d = _load(f"{nation.lower()}.toml")
        for u in d["units"]:
            opts = toe.canon_options(tuple(u.get("options", [])))
            dd = u.get("doctrine")
            up = UnitPrice(
                nation=nation,
                name=u["name"],
                options=opts,
                elite=(),
                card=u["card"],
                kind=u["kind"],
                cr=u["cr"],
                av=u["av"],
                pr=u["pr"],
                doctrine=(dd["cr"], dd["av"], dd["pr"]) if dd else None,
                printed=u["printed"],
                source=f"TO&E {nation} {u['source']}",
                status="published",
            )
            toe.units[(nation, up.name, opts, ())] = up
        for o in d["organizations"]:
            variants = tuple(
                Variant(
                    id=v["id"],
                    mount=v.get("mount", ""),
                    components=tuple(
                        Component(
                            n=c["n"],
                            unit=c["unit"],
                            card=c["card"],
                            kind=c["kind"],
                            options=tuple(c.get("options", [])),
                            elite=tuple(c.get("elite", [])),
                            mine_plows=c.get("mine_plows", 0),
                            count_printed=c.get("count_printed", True),
                        )
                        for c in v["components"]
                    ),
                    prices=tuple(
                        Price(
                            doctrine=p["doctrine"],
                            cr=p.get("cr"),
                            av=p.get("av"),
                            pr=p.get("pr"),
                            printed=p["printed"],
                            av_garbled=p.get("av_garbled", ""),
                        )
                        for p in v["prices"]
                    ),
                )
                for v in o["variants"]
            )
            toe.organizations[(nation, o["name"])] = Organization(
                nation=nation,
                name=o["name"],
                part=o["part"],
                kind=o["kind"],
                officers=tuple(o.get("officers", [])),
                source=f"TO&E {nation} {o['source']}",
                variants=variants,
            )
        for lo in d["larger"]:
            toe.larger[(nation, lo["name"])] = LargerOrganization(
                nation=nation,
                name=lo["name"],
                reference_only=lo["reference_only"],
                constraint=lo.get("constraint", ""),
                members=tuple(
                    Member(m["n"], m["name"], m.get("see", False), m.get("count_printed", True))
                    for m in lo["members"]
                ),
                source=f"TO&E {nation} {lo['source']}",
            )
    der = _load("derived.toml") if derived else {}
    toe.mine_plow_note = der.get("mine_plow", {}).get("note", "")
    for u in der.get("units", []):
        key = toe.key(u["nation"], u["unit"], tuple(u.get("options", [])), tuple(u.get("elite", [])))
        toe.units[key] = UnitPrice(
            nation=u["nation"],
            name=key[1],
            options=key[2],
            elite=key[3],
            card=u.get("card", ""),
            kind=u.get("kind", "leg"),
            cr=None,
            av=u["av"],
            pr=None,
            doctrine=None,
            printed="",
            source="derived from " + "; ".join(u["solved_from"]),
            status="derived",
            note=u.get("note", ""),
        )
    err = _load("errata.toml")
    toe.errata = tuple(
        Erratum(
            nation=e["nation"],
            organization=e["organization"],
            variant=e.get("variant", ""),
            grade=e["field"],
            printed=str(e["printed"]),
            computed=str(e["computed"]),
            kind=e["kind"],
            note=e["note"],
        )
        for e in err.get("erratum", [])
    )
    return toe
