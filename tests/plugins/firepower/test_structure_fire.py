"""A and H fire at bunkers, pillboxes and towers (Firepower 12.3.1.2) and the shotgun as extra
equipment (Firepower 12.4.5; :mod:`hexwar.plugins.firepower.structure_fire`)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from hexwar.core.engine.game import Game
from hexwar.core.errors import RulesError
from hexwar.plugins.firepower import combat, defenses
from hexwar.plugins.firepower.actions import fire_context, fire_procedure
from tests.plugins.firepower.test_advanced_fire import _resolve

GameFactory = Callable[..., Game]
ADV = ("firepower.advanced",)


def _game(fp_game: GameFactory, units: list[tuple[Any, ...]], defs: list[dict[str, Any]]
          ) -> Game:
    g = fp_game(units, options=ADV)
    defenses.set_defences(g, defs)
    return g


def test_h_penetrating_a_tower_blasts_only_those_inside_and_stuns_the_missed(
        fp_game: GameFactory) -> None:
    """Firepower 12.3.1.2: LPL3 (penetration 7) against a tower (terrain value 4, estimated):
    the H blast on B1 inside, missed and so Stunned; B2 in the hex outside the tower is not
    rolled for; no damage to the tower."""
    g = _game(fp_game, [("A1", "RFL", "A", "C2", 4, {"model": "LPL3"}),
                        ("B1", "RFL", "B", "C5", 1, {"in_defence": "TWR"}),
                        ("B2", "RFL", "B", "C5", 1)], [{"type": "TWR", "hex": "1C5"}])
    ctx = _resolve(g, "A1", {"act": "grenade", "hex": "1C5", "ammo": "H"}, [1, 10])
    assert [r["unit"] for r in ctx.blast] == ["B1"]
    assert ctx.blast[0]["result"] == "stunned"
    assert ctx.extra["summary"]["structure"]["rule"] == "Firepower 12.3.1.2"
    assert not ctx.extra.get("damage")  # A and H do no permanent damage
    assert defenses.defences(g)  # the tower stands


def test_h_that_does_not_penetrate_a_bunker_has_no_effect(fp_game: GameFactory) -> None:
    """Firepower 12.3.1.2: LCW1's H penetrates 10, a bunker's terrain value is 12 (estimated)."""
    g = _game(fp_game, [("A1", "RFL", "A", "C2", 4, {"model": "LCW1", "posture": "prone"}),
                        ("B1", "RFL", "B", "C5", 1, {"in_defence": "BKR"})],
              [{"type": "BKR", "hex": "1C5", "door": 4}])
    ctx = _resolve(g, "A1", {"act": "grenade", "hex": "1C5", "ammo": "H"}, [1])
    assert "no effect" in ctx.outcome and "bunker" in ctx.outcome
    assert not ctx.blast


def test_a_and_h_need_a_structure_in_the_hex(fp_game: GameFactory) -> None:
    """Firepower 12.3.1: no fence, bunker, pillbox or tower in the hex: refused."""
    g = _game(fp_game, [("A1", "RFL", "A", "C2", 4, {"model": "LPL3"})],
              [{"type": "TWR", "hex": "1C5"}])
    with pytest.raises(RulesError) as exc:
        ctx = fire_context(g, "A1", {"act": "grenade", "hex": "1C6", "ammo": "H"})
        combat.preview(ctx, fire_procedure(g, ctx.kind))
    assert exc.value.rule == "Firepower 12.3.1"


def test_a_soldier_with_a_shotgun_fires_it_or_his_rifle(fp_game: GameFactory) -> None:
    """Firepower 12.4.5: SHG carried as equipment: ``"item": "SHG1"`` fires the shotgun's row;
    without one it is refused, and nothing but the shotgun or his weapon may be named."""
    g = fp_game([("A1", "RFL", "A", "C2", 4), ("B1", "RFL", "B", "C4", 1)], options=ADV)
    a1 = g.state.units["A1"]
    a1.state["equipment"] = {"SHG": 1}
    choice = {"act": "fire", "unit": "A1", "mode": "semi", "targets": ["B1"], "item": "SHG1"}
    ctx = fire_context(g, "A1", choice)
    combat.preview(ctx, fire_procedure(g, ctx.kind))
    assert ctx.extra["firing"].item == "SHG1" and ctx.hit == 7  # SHG1 at 1-2 hexes (stand-in)
    rifle = fire_context(g, "A1", {**choice, "item": None})
    assert rifle.extra["firing"].item == "RFL10"
    a1.state["equipment"] = {}
    before = g.state.digest()
    with pytest.raises(RulesError) as exc:
        fire_context(g, "A1", choice)
    assert exc.value.rule == "Firepower 12.4.5" and g.state.digest() == before
    with pytest.raises(RulesError) as exc2:
        fire_context(g, "A1", {**choice, "item": "LMG4"})
    assert exc2.value.rule == "Firepower 12.4.5"
