"""Developer tool: solve the unit values the TO&E uses but never prints (writes ``derived.toml``).

Squads, teams and helicopter configurations have their prices on data cards that are not in the text.
Each organization price is an equation (MBT B.3: sum of average values x grade/doctrine factor,
rounded once per organization). Variants with a single unknown unit configuration determine it; the
value reproduced by the most variant prices wins and every variant it reproduces is recorded, so
each derived value names the printed prices it comes from.

Run by hand: ``python tools/mbt/derive_toe.py [OUTDIR]`` (OUTDIR defaults to the shipped
``plugins/mbt/data/toe``); it is not part of the installed package, and
``tests/plugins/mbt/test_tools.py`` checks that the shipped file is what it writes.
"""

from __future__ import annotations

import json
import sys
from collections import defaultdict
from collections.abc import Iterable
from pathlib import Path

from hexwar.plugins.mbt.toe.catalog import (
    MINE_PLOW_AV,
    Component,
    Organization,
    Price,
    Toe,
    UnitKey,
    UnitPrice,
    Variant,
    applies_doctrine,
    build,
)
from hexwar.plugins.mbt.toe.points import Grade, Line, organization_points, round_half_up

MAX_VALUE = 600
# Units whose printed individual value the organization lines contradict (see data/errata.toml);
# on a tie, values solved from variants without them are preferred.
SUSPECT = {("FRG", "Marder A3")}
# Where single-variant solutions disagree and no majority exists, the variant trusted, and why.
PREFER: dict[tuple[str, str, tuple[str, ...]], tuple[str, str]] = {
    ("USSR", "Squad Heavy Motorized Rifle Infantry", ("RPG-18", "SA-7B")): (
        "Motorized Rifle Platoon g",
        "variants g, h and i give 45, 36 and 42; g keeps the +1 step of RPG-18 over RPG-7 V/D that every "
        "other squad pairing shows (39/40, 46/47); h and i are listed in errata.toml",
    ),
}


def matching(toe: Toe, org: Organization, v: Variant, p: Price, unknown: UnitKey | None,
             xs: Iterable[int]) -> list[int]:
    """The values of ``xs`` that, given to ``unknown``, reproduce price ``p`` of variant ``v``.
    The priced components are looked up once, not once per value tried."""
    scope = "none" if p.doctrine == "unstated" else p.doctrine
    parts: list[tuple[Component, int | None, bool]] = []  # (component, av or None: unknown, doctrine)
    for c in v.components:
        k = toe.key(org.nation, c.unit, c.options, c.elite)
        if k == unknown:
            av = None
        else:
            up = toe.unit_price(org.nation, c)
            if up is None:
                return []
            av = up.av
        parts.append((c, av, applies_doctrine(scope, c)))
    # Solve on the average price when it is printed (the other grades are audited separately).
    grades = [Grade.AVERAGE] if p.av is not None else list(p.grades)
    # An organization's exact total is linear in the unknown value (MBT B.3.b: a sum of count x
    # value x factor, rounded once): fixed part + x * rate, per grade.
    known: list[Line] = []
    unit_rate: list[Line] = []
    for c, av, doc in parts:
        (unit_rate if av is None else known).append(Line(c.unit, c.n, 1 if av is None else av,
                                                         doctrine=doc))
        if c.mine_plows:
            known.append(Line("plow", c.mine_plows, MINE_PLOW_AV, doctrine=doc))
    wanted = [(organization_points(known, g).exact, organization_points(unit_rate, g).exact, want)
              for g in grades if (want := p.get(g)) is not None]
    return [x for x in xs
            if all(round_half_up(fixed + x * rate) == want for fixed, rate, want in wanted)]


def solve(toe: Toe) -> dict[UnitKey, tuple[int, list[str], Component]]:
    """Solve unknown unit values round by round; solved values are added to ``toe.units``."""
    solved: dict[UnitKey, tuple[int, list[str], Component]] = {}
    # Keys with elite tags or a flamethrower whose plain squad also appears: priced by rule (MBT 17.4.1)
    # once the plain squad is known, so they are solved directly only as a last resort.
    plain = {
        toe.key(o.nation, c.unit, c.options, c.elite)
        for o in toe.iter_organizations()
        for v in o.variants
        for c in v.components
        if not c.elite and "Flamethrower" not in c.options
    }

    def deferred(k: UnitKey) -> bool:
        return (k[3] != () or "Flamethrower" in k[2]) and (
            k[0],
            k[1],
            tuple(o for o in k[2] if o != "Flamethrower"),
            (),
        ) in plain

    allow_deferred = False
    while True:
        votes: dict[UnitKey, dict[int, list[str]]] = defaultdict(lambda: defaultdict(list))
        sample: dict[UnitKey, Component] = {}
        for org in toe.iter_organizations():
            if org.kind == "artillery":
                continue
            for v in org.variants:
                unk = {
                    toe.key(org.nation, c.unit, c.options, c.elite)
                    for c in v.components
                    if toe.unit_price(org.nation, c) is None
                }
                if len(unk) != 1:
                    continue
                k = next(iter(unk))
                if deferred(k) and not allow_deferred:
                    continue
                sample[k] = next(
                    c for c in v.components if toe.key(org.nation, c.unit, c.options, c.elite) == k
                )
                suspect = any(
                    (org.nation, toe.canon_unit(org.nation, c.unit)) in SUSPECT for c in v.components
                )
                for p in v.prices:
                    for x in matching(toe, org, v, p, k, range(MAX_VALUE)):
                        tag = "~" if suspect else ""
                        votes[k][x].append(f"{tag}{org.name} {v.id or '(single)'}".strip())
        if not votes:
            if allow_deferred:
                return solved
            allow_deferred = True
            continue
        allow_deferred = False
        for k, per in votes.items():
            pref = PREFER.get((k[0], k[1], k[2]))
            if pref is not None:
                x = next(x for x, src in per.items() if pref[0] in src)
                chosen = (x, [pref[0]])
            else:
                best = max(
                    per.items(),
                    key=lambda item: (
                        len({s.lstrip("~") for s in item[1] if not s.startswith("~")}),
                        len(set(item[1])),
                        -item[0],
                    ),
                )
                chosen = (best[0], sorted({s.lstrip("~") for s in best[1]}))
            solved[k] = (chosen[0], chosen[1], sample[k])
            c = sample[k]
            toe.units[k] = UnitPrice(
                nation=k[0],
                name=k[1],
                options=k[2],
                elite=k[3],
                card=c.card,
                kind=c.kind,
                cr=None,
                av=chosen[0],
                pr=None,
                doctrine=None,
                printed="",
                source="derived",
                status="derived",
            )


#: where the derived values are shipped
SHIPPED = Path(__file__).resolve().parents[2] / "plugins" / "mbt" / "data" / "toe"


def render() -> str:
    """The text of ``derived.toml``."""
    toe = build(derived=False)
    solved = solve(toe)
    out: list[str] = []
    line = out.append
    line("# Unit values the TO&E does not print for a single unit (their data cards are not in the")
    line("# text) but that its organization prices determine. status = derived, never published.")
    line("# Generated by tools/mbt/derive_toe.py: each value reproduces every printed price listed")
    line("# in solved_from (TO&E parts 2-3) when combined with the part-1 unit values (B.3 arithmetic).")
    line("")
    line("[mine_plow]")
    line(f"av = {MINE_PLOW_AV}")
    line('status = "derived"')
    line(
        'note = "A mine plow adds 25 average points to its organization (plow variants minus plain '
        "variants, every nation; it takes the vehicle's grade/doctrine factor).\""
    )
    line("")
    for k, (av, src, c) in sorted(solved.items()):
        nation, name, opts, elite = k
        line("[[units]]")
        line(f"nation = {json.dumps(nation)}")
        line(f"unit = {json.dumps(name, ensure_ascii=False)}")
        if opts:
            line("options = [" + ", ".join(json.dumps(o) for o in opts) + "]")
        if elite:
            line("elite = [" + ", ".join(json.dumps(o) for o in elite) + "]")
        line(f"card = {json.dumps(c.card)}")
        line(f"kind = {json.dumps(c.kind)}")
        line(f"av = {av}")
        line('status = "derived"')
        if (nation, name, opts) in PREFER:
            line(f"note = {json.dumps(PREFER[(nation, name, opts)][1])}")
        line("solved_from = [" + ", ".join(json.dumps(s, ensure_ascii=False) for s in src) + "]")
        line("")
    return "\n".join(out) + "\n"


def main(argv: list[str] | None = None) -> None:
    """Write ``derived.toml`` into ``argv[0]`` (default: the shipped folder)."""
    args = sys.argv[1:] if argv is None else argv
    outdir = Path(args[0]) if args else SHIPPED
    (outdir / "derived.toml").write_text(render(), encoding="utf-8")


if __name__ == "__main__":
    main()
