"""Squad organizations as data (Firepower 8.5, Firepower 14, Firepower 14.1.2, Firepower
14.1.3, Firepower 26.2): ``data/advanced/squads.toml`` holds the American Rifle Squad of Firepower
26.2 (the one squad the text gives whole) and hexwar's stand-in squads (docs/decisions.md FPD-67).

A scenario's squad names its organization (``[sides.A.squads.A-1] organization =
"us-rifle-squad"``); :func:`organization_problems` checks that the squad's soldiers (the units
whose ``state.squad`` names it) carry the organization's weapons and leaders and that its P and I
are the organization's. The point formula of Firepower 26.2 (:func:`base_points`) and the
extra-equipment proportion of Firepower 14.1.3 (:func:`extra_equipment`) are pure functions.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from hexwar.core.errors import DataError, RulesError
from hexwar.core.provenance import Records, load_records
from hexwar.plugins.firepower.ammunition import split_version
from hexwar.plugins.firepower.weapon_chart import listing_problem

PATH = Path(__file__).parent / "data" / "advanced" / "squads.toml"


@dataclass(frozen=True)
class Organization:
    """One squad organization (Firepower 8.5): P and I, leaders' ranks, weapons and equipment
    counts, squad group (Firepower 14.1), and whether it is a stand-in."""

    id: str
    title: str
    stand_in: bool
    sequence_units: int
    impulses: int
    leaders: tuple[str, ...]
    weapons: Mapping[str, int]
    equipment: Mapping[str, int]
    group: int

    @property
    def soldiers(self) -> int:
        return sum(self.weapons.values())


@cache
def records() -> Records:
    return load_records(PATH)


@cache
def organizations() -> dict[str, Organization]:
    out: dict[str, Organization] = {}
    for oid, row in (records().values.get("squads") or {}).items():
        for model in row["weapons"]:
            problem = listing_problem(str(model))  # Firepower 10.7 item 2: never GMGn
            if problem is not None:
                raise DataError(f"squad organization {oid}: {problem}", path=str(PATH),
                                key=f"squads.{oid}.weapons")
        out[oid] = Organization(oid, str(row["title"]), bool(row["stand_in"]),
                                int(row["sequence_units"]), int(row["impulses"]),
                                tuple(str(x) for x in row["leaders"]),
                                {str(k): int(v) for k, v in row["weapons"].items()},
                                {str(k): int(v) for k, v in row["equipment"].items()},
                                int(row["group"]))
    return out


def organization(oid: str) -> Organization:
    org = organizations().get(oid)
    if org is None:
        raise RulesError(f"no squad organization {oid!r} (known: "
                         f"{', '.join(sorted(organizations()))})", rule="Firepower 8.5")
    return org


def points() -> dict[str, int]:
    return {str(k): int(v) for k, v in (records().values.get("points") or {}).items()}


def leader_points(ranks: tuple[str, ...]) -> int:
    """Firepower 26.2: L, the sum of the leaders' points (A 6, C 14, S 10)."""
    p = points()
    return sum(p[f"leader_{r}"] for r in ranks)


def squad_value(org: Organization) -> int:
    """Firepower 26.2: V, the points of the squad's weapons and equipment."""
    p = points()
    return (sum(p[w] * n for w, n in org.weapons.items())
            + sum(p[split_version(e)[0]] * n for e, n in org.equipment.items()))


def base_points(v: int, impulses: int, sequence_units: int, leaders: int, turns: int) -> int:
    """Firepower 26.2: ((V x I x P) + L) x T / 10, fractions rounded down."""
    return (v * impulses * sequence_units + leaders) * turns // 10


def squad_base_points(org: Organization, turns: int) -> int:
    return base_points(squad_value(org), org.impulses, org.sequence_units,
                       leader_points(org.leaders), turns)


def extra_equipment(smaller: int, groups: Mapping[str, int]) -> dict[str, int]:
    """Firepower 14.1.3: extra equipment in proportion to the sides' squad groups; the side of
    the lowest group gets ``smaller`` items (the text's guide: 10-20 grenades), each other side
    ``smaller`` times its group over the lowest, rounded down."""
    low = min(groups.values())
    return {side: smaller * g // low for side, g in groups.items()}


def organization_problems(sides: Mapping[str, Any], units: Sequence[Mapping[str, Any]]
                          ) -> list[str]:
    """Firepower 8.5, 14: each squad that names an organization has its P and I, its leaders'
    ranks and its weapons (the soldiers' ``state.model``)."""
    out: list[str] = []
    for _side, table in sorted(sides.items()):
        for name, sq in sorted(((table or {}).get("squads") or {}).items()):
            oid = sq.get("organization")
            if oid is None:
                continue
            try:
                org = organization(str(oid))
            except RulesError as exc:
                out.append(f"squad {name}: {exc}")
                continue
            if (int(sq.get("sequence_units", 0)), int(sq.get("impulses", 0))) != (
                    org.sequence_units, org.impulses):
                out.append(f"squad {name} is {sq.get('sequence_units')}/{sq.get('impulses')}; "
                           f"{org.title} is {org.sequence_units}/{org.impulses} "
                           "(Firepower 9.1)")
            members = [u for u in units if (u.get("state") or {}).get("squad") == name]
            models = Counter(str((u.get("state") or {}).get("model")) for u in members)
            ranks = sorted(str((u.get("state") or {}).get("rank")) for u in members
                           if (u.get("state") or {}).get("rank"))
            if dict(models) != dict(org.weapons):
                out.append(f"squad {name}'s weapons {dict(sorted(models.items()))} are not "
                           f"{org.title}'s {dict(sorted(org.weapons.items()))} (Firepower 8.5)")
            if ranks != sorted(org.leaders):
                out.append(f"squad {name}'s leaders {ranks} are not {org.title}'s "
                           f"{sorted(org.leaders)} (Firepower 8.5)")
    return out


def listing_problems(units: Sequence[Mapping[str, Any]],
                     weapon_units: Sequence[Mapping[str, Any]] = ()) -> list[str]:
    """Firepower 10.7 item 2 (docs/decisions.md FPD-172): a scenario lists a general purpose
    machinegun as LMGn (bipod) or MMGn (tripod), never as GMGn; each soldier (with his squad)
    or weapon unit that names a GMG row is named."""
    out: list[str] = []
    for u in units:
        st = u.get("state") or {}
        problem = listing_problem(str(st.get("model", "")))
        if problem is not None:
            squad = f" of squad {st['squad']}" if st.get("squad") is not None else ""
            out.append(f"soldier {u.get('id')}{squad}: {problem}")
    for wu in weapon_units:
        problem = listing_problem(str(wu.get("model", "")))
        if problem is not None:
            out.append(f"weapon unit {wu.get('id')}: {problem}")
    return out


def squad_group_problems(sides: Mapping[str, Any]) -> list[str]:
    """Firepower 14.1.2 (docs/decisions.md FPD-143): a side that names its squad group
    (``sides.<side>.group``) selects its squads from that group: each squad whose organization
    is of another group is named. A side with no group is not checked (the scenario's own
    organizations stand); nor is a squad without an organization, whose group is unknown."""
    out: list[str] = []
    for side, table in sorted(sides.items()):
        table = table or {}
        group = table.get("group")
        if group is None:
            continue
        squads = table.get("squads") or {}
        for name, sq in sorted(squads.items()):
            oid = (sq or {}).get("organization")
            if oid is None or str(oid) not in organizations():
                continue  # unknown: organization_problems names a bad one
            org = organizations()[str(oid)]
            if org.group != int(group):
                out.append(f"squad {name} of side {side} is {org.title}, of squad group "
                           f"{org.group}; the side's squads come from group {group} "
                           "(Firepower 14.1.2)")
    return out
