"""MBT 12.8.4: organization variants in a scenario's forces. Units detached (``counts`` down to
0, understrength "(-)", 12.8.4.2) or attached (``attach``, overstrength "(+)", 12.8.4.3) are
fielded and priced; a name's strength mark the force does not bear out is reported, as is a
headquarters with too few organizations to command (12.8.4); docs/decisions.md MBTD-182."""

from __future__ import annotations

from pathlib import Path

from hexwar.core.scenario import Scenario, validate_scenario
from hexwar.plugins.mbt import forces

SCENARIO = Path(forces.__file__).resolve().parent / "scenarios" / "scenario-one-3.toml"
PLATOON = "name = '1st Panzer Platoon'"
GRENADIERS = "name = '2nd Panzergrenadier Platoon'"


def _sc(*changes: tuple[str, str]) -> Scenario:
    text = SCENARIO.read_text()
    for old, new in changes:
        assert old in text, old
        text = text.replace(old, new, 1)
    return Scenario.from_text(text, path=str(SCENARIO))


def _nato(sc: Scenario) -> list[tuple[str, str, str, dict[str, object]]]:
    return [u for u in forces.expand(sc) if u[2] == "NATO"]


def _strength(sc: Scenario) -> list[forces.Finding]:
    return [f for f in forces.findings(sc) if f.side == "NATO" and f.what != "points"]


def test_an_attached_unit_is_fielded_and_priced_12_8_4_3() -> None:
    """MBT 12.8.4.3: a Leopard 1A4 attached to the (+) platoon is one more unit of the platoon,
    with its grade and organization, and prices as a fifth tank of the platoon would."""
    plus = _sc((PLATOON, "name = '1st Panzer Platoon (+)'\nattach = [{ unit = \"Leopard 1A4\" }]"))
    assert validate_scenario(plus) == []
    base = _nato(_sc())
    got = _nato(plus)
    assert len(got) == len(base) + 1
    extra = [u for u in got if u[0] == "N1-5"]
    assert extra and extra[0][1] == "mbt:Leopard 1A4"
    assert extra[0][3]["organization"] == "1st Panzer Platoon (+)"
    as_count = _sc((PLATOON, "name = '1st Panzer Platoon (+)'\ncounts = { \"Leopard 1A4\" = 5 }"))
    assert forces.side_points(plus)["NATO"] == forces.side_points(as_count)["NATO"]
    assert forces.side_points(plus)["NATO"] > forces.side_points(_sc())["NATO"]  # type: ignore[operator]
    assert _strength(plus) == [] and _strength(as_count) == []


def test_attached_units_without_a_plus_mark_are_reported_12_8_4_3() -> None:
    sc = _sc((PLATOON, PLATOON + "\nattach = [{ unit = \"Leopard 1A4\", n = 2 }]"))
    found = _strength(sc)
    assert len(found) == 1 and found[0].rule == "MBT 12.8.4.3" and "Leopard 1A4" in found[0].what
    assert len([u for u in _nato(sc) if u[1] == "mbt:Leopard 1A4"]) == 7


def test_an_unknown_attachment_is_refused_naming_the_rule_12_8_4_3() -> None:
    sc = _sc((PLATOON, PLATOON + "\nattach = [{ unit = \"Tiger II\" }]"))
    problems = validate_scenario(sc)
    assert any("MBT 12.8.4.3" in p.message and "Tiger II" in p.message
               and p.key.startswith("sides.NATO.forces[1]") for p in problems), problems


def test_an_understrength_platoon_detaches_units_12_8_4_2() -> None:
    """MBT 12.8.4.2: the (-) platoon fields two Marders and two squads of its three; a count of 0
    detaches a component altogether. A count below the TO&E under a (-) name is no misprint;
    under a plain name it is reported as before (MBTD-81)."""
    counts = ('counts = { "Marder A1" = 2, '
              '"Squad Light Panzergrenadier Infantry [PZF-44 & Milan]" = 2 }')
    minus = _sc((GRENADIERS, "name = '2nd Panzergrenadier Platoon (-)'\n" + counts))
    assert validate_scenario(minus) == []
    assert _strength(minus) == []
    units = [u for u in _nato(minus) if u[0].startswith("N2-")]
    assert len(units) == 4
    plain = _sc((GRENADIERS, GRENADIERS + "\n" + counts))
    assert sorted(f.rule for f in _strength(plain)) == ["TO&E FRG Panzergrenadier Platoon a"] * 2
    none = _sc((GRENADIERS, "name = '2nd Panzergrenadier Platoon (-)'\n"
                            'counts = { "Marder A1" = 0 }'))
    assert validate_scenario(none) == []
    assert not [u for u in _nato(none) if u[0].startswith("N2-") and u[1] == "mbt:Marder A1"]


def test_a_strength_mark_the_force_does_not_bear_out_is_reported_12_8_4_2() -> None:
    sc = _sc((GRENADIERS, "name = '2nd Panzergrenadier Platoon (-)'"))
    found = _strength(sc)
    assert [(f.what, f.rule) for f in found] == [("strength mark (-)", "MBT 12.8.4.2")]
    both = _sc((GRENADIERS, "name = '2nd Panzergrenadier Platoon (- & +)'\n"
                            'counts = { "Marder A1" = 2 }'))
    assert [(f.what, f.rule) for f in _strength(both)] == [("strength mark (+)", "MBT 12.8.4.3")]


def test_a_headquarters_with_too_few_organizations_is_reported_12_8_4() -> None:
    """MBT 12.8.4: the company headquarters with one platoon to command (the panzergrenadier
    platoon taken away) is reported; with two it is not."""
    text = SCENARIO.read_text()
    start = text.index("[[sides.NATO.forces]]\nid = \"2\"")
    end = text.index("# The printed 787")
    sc = Scenario.from_text(text[:start] + text[end:], path=str(SCENARIO))
    found = [f for f in forces.findings(sc) if f.rule == "MBT 12.8.4"]
    assert len(found) == 1 and found[0].side == "NATO" and found[0].printed == "1"
    assert not [f for f in forces.findings(_sc()) if f.rule == "MBT 12.8.4"]
