"""MBT 13.4 and "Doing Your Own Scenarios" B.3: doctrine organizations in a scenario's forces,
priced and fielded as the text says."""

from __future__ import annotations

from typing import Any

from hexwar.core.scenario import Scenario
from hexwar.plugins.mbt import forces

FORCE = """
[scenario]
id = "mbt:doctrine-points"
system = "mbt"
rules = ["mbt.advanced"]
turns = 1
[sides.NATO]
[sides.Soviet]
{forces}
[board]
panels = []
"""


def _scenario(*orgs: str) -> Scenario:
    return Scenario.from_text(FORCE.format(forces="\n".join(orgs)), path="doctrine-points.toml")


def _org(fid: str, organization: str, variant: str | None, grade: str, extra: str = "") -> str:
    v = f'variant = "{variant}"\n' if variant else ""
    return (f'[[sides.Soviet.forces]]\nid = "{fid}"\nnation = "USSR"\n'
            f'organization = "{organization}"\n{v}grade = "{grade}"\n{extra}')


def _with_cards(monkeypatch: Any, *names: str) -> None:
    """Stand in a shipped card for the TO&E units that have no data card yet."""
    from hexwar.plugins.mbt import cards

    shipped = cards.load_cards()
    extra = dict(shipped, **{n: shipped["Transport BTR"] for n in names})
    monkeypatch.setattr(cards, "load_cards", lambda dirs=(): extra)


def test_a_unit_added_to_a_doctrine_organization_costs_its_value_in_parenthesis_b_3() -> None:
    """TO&E part 1 (the bracketed price holds for a unit joining a doctrine organization) with MBT
    12.8.4.3 (overstrength) and B.3.a-b: a fourth T-80A added to a doctrine platoon of three costs
    the doctrine value (60 average, 72 crack), not its 80/96; without doctrine it costs 80."""
    three = _org("1", "Tank Platoon (Tank Regiment)", "c", "average")
    four = _org("1", "Tank Platoon (Tank Regiment)", "c", "average", 'counts = { "T-80A" = 4 }\n')
    assert forces.side_points(_scenario(three))["Soviet"] == 180
    assert forces.side_points(_scenario(four))["Soviet"] == 240  # 180 + 60
    crack = _org("1", "Tank Platoon (Tank Regiment)", "c", "crack", 'counts = { "T-80A" = 4 }\n')
    assert forces.side_points(_scenario(crack))["Soviet"] == 288  # 4 x 72
    plain = _org("1", "Tank Platoon (Tank Regiment)", "c", "average",
                 'counts = { "T-80A" = 4 }\ndoctrine = "none"\n')
    assert forces.side_points(_scenario(plain))["Soviet"] == 320


def test_vehicle_doctrine_prices_the_squads_at_their_plain_value_13_4_1() -> None:
    """MBT 13.4.1 with B.3.a: "with vehicle doctrine" takes .9 of the crack vehicles' value and
    1.2 of the squads'; ordered to "all" the squads take .9 too, so the price falls."""
    org = _org("3", "Motorized Rifle Platoon", "a", "crack")
    vehicle = forces.side_points(_scenario(org))["Soviet"]
    everything = forces.side_points(_scenario(org + 'doctrine = "all"\n'))["Soviet"]
    assert vehicle == 273  # the TO&E's printed crack value
    assert everything is not None and everything < vehicle


def test_each_type_of_unit_is_its_own_doctrine_unit_13_4_2_2(monkeypatch: Any) -> None:
    """MBT 13.4.2.2: with doctrine, the units of one type in an organization are one doctrine
    unit; the Anti-Tank Platoon (Motorized Rifle Regiment) is one MT-LB unit of two and one T-12
    unit of two (MBT 13.4.2.3 lettering), not one unit of four."""
    _with_cards(monkeypatch, "MT-LB", "T-12")
    sc = _scenario(_org("4", "Anti-Tank Platoon (Motorized Rifle Regiment)", None, "average"))
    units = {uid: (utype, st) for uid, utype, _side, st in forces.expand(sc)}
    assert list(units) == ["S4a", "S4b", "S4.2a", "S4.2b"]
    assert {units[u][1]["doctrine"] for u in ("S4a", "S4b")} == {"S4"}
    assert {units[u][1]["doctrine"] for u in ("S4.2a", "S4.2b")} == {"S4.2"}
    assert forces.side_points(sc)["Soviet"] == 84  # the TO&E's 101Cr-84Av-67Pr


def test_vehicle_and_spg9_doctrine_makes_two_doctrine_units_13_4_2_2(monkeypatch: Any) -> None:
    """MBT 13.4.1, 13.4.2.2: "with vehicle & SPG-9 doctrine": the BTRs are one doctrine unit, the
    SPG-9s another, the teams none."""
    _with_cards(monkeypatch, "BTR-60/70PB", "Team [AT-3 & RPG-7 V/D]", "Team [AGS-17]", "SPG-9")
    sc = _scenario(_org("5", "Anti-Tank Platoon (BTR)", "a", "average"))
    groups: dict[str, list[str]] = {}
    for uid, _t, _s, st in forces.expand(sc):
        groups.setdefault(st.get("doctrine", "-"), []).append(uid)
    assert groups["S5"] == ["S5a", "S5b"] and groups["S5.2"] == ["S5.2a", "S5.2b"]
    assert len(groups["-"]) == 4


def test_mbt_177_airborne_at_platoon_sd44_is_two_doctrine_units_13_4_2_2(monkeypatch: Any) -> None:
    """MBT-177 (MBT 13.4.2.2): the Airborne Anti-Tank Platoon (SD-44) with doctrine is one truck
    unit of strength 2 and one SD-44 unit of strength 2 (stand-in cards), priced 85/71/56."""
    _with_cards(monkeypatch, "Medium Truck", "SD-44")
    for grade, want in (("crack", 85), ("average", 71), ("poor", 56)):
        sc = _scenario(_org("7", "Airborne Anti-Tank Platoon (SD-44)", None, grade))
        assert forces.side_points(sc)["Soviet"] == want
    groups: dict[str, list[str]] = {}
    for uid, _t, _s, st in forces.expand(sc):
        groups.setdefault(st["doctrine"], []).append(uid)
    assert groups == {"S7": ["S7a", "S7b"], "S7.2": ["S7.2a", "S7.2b"]}


def test_a_unit_attached_to_a_doctrine_platoon_costs_its_value_in_parenthesis_12_8_4_3() -> None:
    """MBT 12.8.4.3 (``attach``, MBTD-182) with TO&E part 1 (the bracketed price holds for a unit
    joining a doctrine organization) and B.3.b: a T-64B attached to a T-80A doctrine platoon (average)
    costs 56.25, its doctrine value, rounded once with the platoon (180 + 56.25 -> 236; 75
    without doctrine: 315); it is fielded as a doctrine unit of its own type (MBT 13.4.2.2)."""
    base = _org("1", "Tank Platoon (Tank Regiment)", "c", "average")
    plus = base + 'attach = [{ unit = "T-64B", n = 1 }]\n'
    assert forces.side_points(_scenario(plus))["Soviet"] == 236
    units = {uid: st for uid, _t, _s, st in forces.expand(_scenario(plus))}
    assert units["S1.2a"]["doctrine"] == "S1.2" and len(units) == 4
    plain = plus + 'doctrine = "none"\n'
    assert forces.side_points(_scenario(plain))["Soviet"] == 315
