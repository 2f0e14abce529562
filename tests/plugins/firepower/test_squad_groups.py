"""The squad groups guidance for custom scenarios (Firepower 14.1.2; docs/decisions.md
FPD-143): a side naming its squad group fields squads of that group, or the scenario is refused
with a problem naming the rule."""

from __future__ import annotations

from pathlib import Path

from hexwar.core.scenario import Scenario, validate_scenario
from hexwar.plugins.firepower import organizations as org

SCENARIO = Path(org.__file__).parent / "scenarios" / "street-fight.toml"


def _with_groups(a: int | None, b: int | None) -> Scenario:
    text = SCENARIO.read_text(encoding="utf-8")
    for side, g in (("A", a), ("B", b)):
        if g is not None:
            text = text.replace(f"[sides.{side}]\n", f"[sides.{side}]\ngroup = {g}\n", 1)
    return Scenario.from_text(text, path=str(SCENARIO))


def _problems(sc: Scenario) -> list[str]:
    return [str(p) for p in validate_scenario(sc)]


def test_squads_of_the_sides_group_pass() -> None:
    """Firepower 14.1.2: the attacker's squads are group 8 (data/advanced/squads.toml)."""
    assert _problems(_with_groups(8, None)) == []
    assert _problems(_with_groups(None, None)) == []  # no group named: nothing to check


def test_a_squad_of_another_group_is_named_with_the_rule() -> None:
    """Firepower 14.1.2: the defender's militia squad is group 4, its rifle squad group 8: each
    side group refuses the other squad, naming the squad, both groups and the rule."""
    got = _problems(_with_groups(8, 8))
    assert len(got) == 1 and "Firepower 14.1.2" in got[0]
    assert "group 4" in got[0] and "group 8" in got[0] and "militia" in got[0]
    got = _problems(_with_groups(4, 4))
    assert any("side A" in p and "Firepower 14.1.2" in p for p in got)
    assert any("side B" in p and "rifle squad" in p for p in got)
    assert org.squad_group_problems({"A": {"group": 8, "squads": {"x": {}}}}) == []
