"""Developer tool: solve the unit values the TO&E uses but never prints (writes ``data/derived.toml``).

Squads, teams and helicopter configurations have their prices on data cards that are not in the text.
Each organization price is an equation (B.3: sum of average values x grade/doctrine factor, rounded
once per organization). Variants with a single unknown unit configuration determine it; the value
reproduced by the most variant prices wins and every variant it reproduces is recorded, so each
derived value names the printed prices it comes from. Run by hand:
``python -m hexwar.plugins.mbt.toe.derive > plugins/mbt/toe/data/derived.toml``.
"""

from __future__ import annotations

import json
from collections import defaultdict

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
from hexwar.plugins.mbt.toe.points import Grade, Line, organization_points

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


def matches(
    toe: Toe,
    org: Organization,
    v: Variant,
    p: Price,
    known: dict[UnitKey, int],
    unknown: UnitKey | None,
    x: int,
) -> bool:
    scope = "none" if p.doctrine == "unstated" else p.doctrine
    lines: list[Line] = []
    for c in v.components:
        k = toe.key(org.nation, c.unit, c.options, c.elite)
        av = x if k == unknown else known.get(k)
        if av is None:
            return False
        doc = applies_doctrine(scope, c)
        lines.append(Line(c.unit, c.n, av, doctrine=doc))
        if c.mine_plows:
            lines.append(Line("plow", c.mine_plows, MINE_PLOW_AV, doctrine=doc))
    # Solve on the average price when it is printed (the other grades are audited separately).
    grades = [Grade.AVERAGE] if p.av is not None else list(p.grades)
    for g in grades:
        want = p.get(g)
        if want is not None and organization_points(lines, g).points != want:
            return False
    return True


def solve(toe: Toe) -> dict[UnitKey, tuple[int, list[str], Component]]:
    known: dict[UnitKey, int] = {k: u.av for k, u in toe.units.items()}
    solved: dict[UnitKey, tuple[int, list[str], Component]] = {}
    while True:
        votes: dict[UnitKey, dict[int, list[str]]] = defaultdict(lambda: defaultdict(list))
        sample: dict[UnitKey, Component] = {}
        for org in toe.iter_organizations():
            if org.kind == "artillery":
                continue
            for v in org.variants:
                unk = {toe.key(org.nation, c.unit, c.options, c.elite) for c in v.components} - known.keys()
                if len(unk) != 1:
                    continue
                k = next(iter(unk))
                sample[k] = next(
                    c for c in v.components if toe.key(org.nation, c.unit, c.options, c.elite) == k
                )
                suspect = any(
                    (org.nation, toe.canon_unit(org.nation, c.unit)) in SUSPECT for c in v.components
                )
                for p in v.prices:
                    for x in range(MAX_VALUE):
                        if matches(toe, org, v, p, known, k, x):
                            tag = "~" if suspect else ""
                            votes[k][x].append(f"{tag}{org.name} {v.id or '(single)'}".strip())
        if not votes:
            return solved
        for k, per in votes.items():
            pref = PREFER.get((k[0], k[1], k[2]))
            if pref is not None:
                x = next(x for x, src in per.items() if pref[0] in src)
                known[k] = x
                solved[k] = (x, [pref[0]], sample[k])
                continue
            best = max(
                per.items(),
                key=lambda item: (
                    len({s.lstrip("~") for s in item[1] if not s.startswith("~")}),
                    len(set(item[1])),
                    -item[0],
                ),
            )
            known[k] = best[0]
            solved[k] = (best[0], sorted({s.lstrip("~") for s in best[1]}), sample[k])


def main() -> None:
    toe = build(derived=False)
    solved = solve(toe)
    print("# Unit values the TO&E does not print for a single unit (their data cards are not in the")
    print("# text) but that its organization prices determine. status = derived, never published.")
    print("# Generated by plugins/mbt/toe/derive.py: each value reproduces every printed price listed")
    print("# in solved_from (TO&E parts 2-3) when combined with the part-1 unit values (B.3 arithmetic).")
    print()
    print("[mine_plow]")
    print(f"av = {MINE_PLOW_AV}")
    print('status = "derived"')
    print(
        'note = "A mine plow adds 25 average points to its organization (plow variants minus plain '
        "variants, every nation; it takes the vehicle's grade/doctrine factor).\""
    )
    print()
    for k, (av, src, c) in sorted(solved.items()):
        nation, name, opts, elite = k
        print("[[units]]")
        print(f"nation = {json.dumps(nation)}")
        print(f"unit = {json.dumps(name, ensure_ascii=False)}")
        if opts:
            print("options = [" + ", ".join(json.dumps(o) for o in opts) + "]")
        if elite:
            print("elite = [" + ", ".join(json.dumps(o) for o in elite) + "]")
        print(f"card = {json.dumps(c.card)}")
        print(f"kind = {json.dumps(c.kind)}")
        print(f"av = {av}")
        print('status = "derived"')
        if (nation, name, opts) in PREFER:
            print(f"note = {json.dumps(PREFER[(nation, name, opts)][1])}")
        print("solved_from = [" + ", ".join(json.dumps(s, ensure_ascii=False) for s in src) + "]")
        print()


_ = UnitPrice  # re-exported type used in annotations of callers

if __name__ == "__main__":
    main()
