"""A "G" hit in a hex with a hole in the ground (Firepower 12.7.2, 12.7.4, 12.7.5): the roll that
says whether it lands in the foxhole or trench, and what that does to the blast."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from hexwar.core.engine.game import Game
from hexwar.core.errors import RulesError
from hexwar.core.provenance import load_records
from hexwar.plugins.firepower import advanced_fire as af
from hexwar.plugins.firepower import combat, defenses
from hexwar.plugins.firepower.actions import apply_effects, fire_context, fire_procedure

GameFactory = Callable[..., Game]
ADV = ("firepower.advanced",)


def _hole_game(fp_game: GameFactory, code: str = "SFX", rng: int = 2) -> Game:
    """A1 (side A) in 1C2 facing 4 (down the column) throws at 1C(2+rng), where B1 is in a
    ``code`` hole and B2 stands beside it."""
    tgt = f"C{2 + rng}"
    depth = defenses.types()[code].depth
    g = fp_game([("A1", "RFL", "A", "C2", 4, {"model": "RFL10"}),
                 ("B1", "RFL", "B", tgt, 1, {"model": "RFL10", "in_defence": code,
                                              "stands_at": -depth}),
                 ("B2", "RFL", "B", tgt, 1, {"model": "RFL10"})], options=ADV)
    defenses.set_defences(g, [{"type": code, "hex": f"1{tgt}"}])
    g.state.units["A1"].state["equipment"] = {"HGN3": 2}
    return g


def _throw(g: Game, faces: list[int], **kw: Any) -> combat.FireContext:
    tgt = g.board.label(g.state.units["B1"].hex)  # type: ignore[arg-type]
    choice = {"act": "grenade", "unit": "A1", "hex": tgt, "item": "HGN3", **kw}
    ctx = fire_context(g, "A1", choice)
    it = iter(faces)
    ctx.roll = lambda purpose: next(it, 9)  # then every blast roll misses
    combat.run(ctx, fire_procedure(g, ctx.kind))
    apply_effects(g, ctx)
    return ctx


def _mod_rules(ctx: combat.FireContext, uid: str) -> dict[str, int]:
    return {m.rule + ":" + m.name: int(m.value) for m in ctx.modifiers[uid]}


def test_the_table_cites_the_range_modifiers_and_the_ditch_and_marks_the_rest() -> None:
    recs = load_records(af.HIT_LOCATION)
    assert recs.sources["range_modifier.1"] == "Firepower 12.7.2"
    assert recs.sources["into.DCH"] == "Firepower 12.7.2"
    # the TWO SIDES split of Firepower 12.7.1 shares the file (FPD-162)
    assert set(recs.estimated_fields) == {"into.DFX", "into.SFX", "into.TRN", "sides.two"}


def test_the_range_modifiers_are_minus_three_at_one_hex_and_minus_one_at_two_or_three() -> None:
    # Firepower 12.7.2 (foxhole stand-in: 2 or less goes in); rolls read 1 to 10 (12.7)
    assert af.into_hole("SFX", 5, 1) == (True, 2)
    assert af.into_hole("SFX", 6, 1) == (False, 3)
    assert af.into_hole("SFX", 3, 2) == (True, 2)
    assert af.into_hole("SFX", 3, 3) == (True, 2)
    assert af.into_hole("SFX", 3, 4) == (False, 3)
    assert af.into_hole("SFX", 1, 1) == (True, 1)  # -2 read as 1
    # Firepower 12.7.5: announced "+", the modifiers are reversed
    assert af.into_hole("SFX", 1, 1, plus=True) == (False, 4)
    # a ditch fills its hex: every roll is in it
    assert af.into_hole("DCH", 10, 7) == (True, 10)
    with pytest.raises(RulesError) as exc:
        af.into_hole("XYZ", 1, 1)
    assert exc.value.rule == "Firepower 12.7.2"


def test_a_grenade_into_the_foxhole_takes_away_its_cover(fp_game: GameFactory) -> None:
    # hit roll 1 (hits the hex), hole roll 3 - 1 (range 2) = 2: in the foxhole; then B1's and
    # B2's blast rolls
    g = _hole_game(fp_game)
    ctx = _throw(g, [1, 3, 9, 9])
    assert ctx.extra["in_hole"] is True
    assert ctx.extra["summary"]["hole"] == {"hole": "SFX", "roll": 3, "modified": 2, "in": True,
                                            "rule": "Firepower 12.7.2"}
    b1 = _mod_rules(ctx, "B1")
    assert not any(k.startswith("Firepower 12.2.3") for k in b1)  # no cover in the hole
    # B2 stands on the ground beside it: the blast is one height (the depth) below his feet
    assert _mod_rules(ctx, "B2")["Firepower 12.2.8:1 height(s) from the impact"] == 1


def test_a_grenade_beside_the_foxhole_leaves_its_cover(fp_game: GameFactory) -> None:
    g = _hole_game(fp_game)
    ctx = _throw(g, [1, 4, 9, 9])  # hole roll 4 - 1 = 3 > 2: beside it
    assert ctx.extra["in_hole"] is False
    assert _mod_rules(ctx, "B1")["Firepower 12.2.3:in cover (shallow foxhole)"] == 1
    assert not any(k.startswith("Firepower 12.2.8") for k in _mod_rules(ctx, "B2"))


def test_the_firer_may_announce_plus_to_keep_out_of_the_hole(fp_game: GameFactory) -> None:
    g = _hole_game(fp_game)
    ctx = _throw(g, [1, 1, 9, 9], location_sign="+")  # 1 + 1 = 2: still in (the stand-in 2)
    assert ctx.extra["in_hole"] is True
    g = _hole_game(fp_game)
    ctx = _throw(g, [1, 2, 9, 9], location_sign="+")  # 2 + 1 = 3: out
    assert ctx.extra["in_hole"] is False
    g = _hole_game(fp_game)
    before = g.state.digest()
    with pytest.raises(RulesError) as exc:
        fire_context(g, "A1", {"act": "grenade", "unit": "A1", "hex": "1C4", "item": "HGN3",
                               "location_sign": "x"})
    assert exc.value.rule == "Firepower 12.7.5" and g.state.digest() == before


def test_a_trench_is_rolled_for_too_and_a_hit_elsewhere_is_not(fp_game: GameFactory) -> None:
    g = _hole_game(fp_game, "TRN", rng=3)
    ctx = _throw(g, [1, 4, 9, 9])  # 4 - 1 = 3: in a trench (stand-in 3)
    assert ctx.extra["in_hole"] is True
    # a miss that spreads to another hex rolls no hit location for the hole
    g = _hole_game(fp_game)
    ctx = _throw(g, [10, 1])
    assert ctx.outcome == "spread" and ctx.impact is not None
    assert ctx.impact not in defenses.holes(g) and "in_hole" not in ctx.extra


def test_smoke_and_flame_roll_no_hit_location(fp_game: GameFactory) -> None:
    # Firepower 12.7.2 is for "G" weapons; M hits every part of the hex (12.3.7)
    g = _hole_game(fp_game)
    g.state.units["A1"].state["equipment"] = {"HGN4-M": 1}
    tgt = g.board.label(g.state.units["B1"].hex)  # type: ignore[arg-type]
    ctx = fire_context(g, "A1", {"act": "grenade", "unit": "A1", "hex": tgt, "item": "HGN4",
                                 "ammo": "M"})
    it = iter([1])
    ctx.roll = lambda purpose: next(it)
    combat.run(ctx, fire_procedure(g, ctx.kind))
    assert "in_hole" not in ctx.extra
