"""A foxhole's or trench's side of a fence hex (Firepower 12.7.4; docs/decisions.md FPD-136):
the scenario's ``side``, its checks and default, the hit location that rolls for the hole only
when its part is hit, and the soldiers who get in from its part only."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from hexwar.core.engine.game import Game
from hexwar.core.errors import RulesError
from hexwar.plugins.firepower import defenses
from tests.plugins.firepower.test_defenses import GameFactory
from tests.plugins.firepower.test_defenses import _impulse as _defence_impulse
from tests.plugins.firepower.test_defenses_more import _act as _defence_act
from tests.plugins.firepower.test_defenses_more import _refused as _defence_refused
from tests.plugins.firepower.test_worked_examples import _throw


def _fenced(fp_game: GameFactory, fence: str = "fence:2-6",
            b1: dict[str, Any] | None = None) -> Game:
    """A1 in 1C2 facing 4 with a hand grenade; B1 in 1C4, a fence hex (by default hexsides
    2-6: parts {1} and {3, 4, 5})."""
    return fp_game([("A1", "RFL", "A", "C2", 4, {"model": "RFL10"}),
                    ("B1", "RFL", "B", "C4", 1, {"model": "RFL10", **(b1 or {})})],
                   hexes=[{"at": "C4", "features": [fence]}], options=("firepower.advanced",))


def _bad(g: Game, spec: dict[str, Any], words: str) -> None:
    before = g.state.digest()
    with pytest.raises(RulesError, match=words) as exc:
        defenses.set_defences(g, [spec])
    assert exc.value.rule == "Firepower 12.7.4", exc.value.rule
    assert g.state.digest() == before and defenses.defences(g) == {}


def test_a_foxholes_side_is_a_hexside_of_a_fence_part(fp_game: GameFactory) -> None:
    """Firepower 12.7.4: ``side`` names a hexside on one part of the hex's fence; an end of the
    fence, a number off the hex, a side outside a fence hex or for a bunker is refused."""
    g = _fenced(fp_game)
    _bad(g, {"type": "SFX", "hex": "1C4", "side": 2}, "side is a hexside")  # an end
    _bad(g, {"type": "SFX", "hex": "1C4", "side": 7}, "side is a hexside")
    _bad(g, {"type": "SFX", "hex": "1C4", "side": True}, "side is a hexside")
    _bad(g, {"type": "SFX", "hex": "1C3", "side": 1}, "has no fence")
    _bad(g, {"type": "BKR", "hex": "1C4", "door": 1, "side": 1}, "only a foxhole or trench")
    got = defenses.set_defences(g, [{"type": "TRN", "hex": "1C4", "side": 4}])
    assert [d.side for d in got.values()] == [4]


def test_a_foxhole_without_a_side_lies_on_the_lowest_hexside_not_an_end(
        fp_game: GameFactory) -> None:
    """FPD-136: no ``side`` in a fence hex: the part of the lowest-numbered hexside that is not
    an end of the fence (fence 1-4: hexside 2); outside a fence hex, no side."""
    g = _fenced(fp_game, "fence:1-4")
    assert defenses.set_defences(g, [{"type": "DFX", "hex": "1C4"}])[g.board.parse("1C4")].side == 2
    assert defenses.hole_sides(g) == {g.board.parse("1C4"): 2}
    g2 = _fenced(fp_game)
    assert defenses.set_defences(g2, [{"type": "DFX", "hex": "1C5"}])[g2.board.parse("1C5")].side \
        is None
    assert defenses.hole_sides(g2) == {}


def test_the_hole_is_rolled_for_when_its_own_part_is_hit_even_if_not_part_one(
        fp_game: GameFactory) -> None:
    """Firepower 12.7.1, 12.7.4: the foxhole on the part of hexsides 3-5, the thrower's part 1
    (B1 is there); the part hit reads 9 - 2 = 7: part 2, hexside 1: no hole roll. Then a roll
    of 1: part 1, the foxhole's: the hole is rolled for."""
    g = _fenced(fp_game, b1={"in_defence": "SFX", "side": 4,
                             "stands_at": -defenses.types()["SFX"].depth})
    defenses.set_defences(g, [{"type": "SFX", "hex": "1C4", "side": 4}])
    g.state.units["A1"].state["equipment"] = {"HGN3": 2}
    ctx, asked = _throw(g, [1, 9])
    assert ctx.extra["impact_side"] == 1 and ctx.extra["summary"]["location"]["part"] == 2
    assert not any("into the hole" in p for p in asked) and "in_hole" not in ctx.extra
    assert ctx.extra["summary"]["hole"]["rule"] == "Firepower 12.7.4"
    ctx, asked = _throw(g, [1, 1, 3])
    assert ctx.extra["impact_side"] == 3 and "into the hole" in asked[2]
    assert ctx.extra["in_hole"] is True


def test_a_soldier_gets_into_the_foxhole_from_its_part_only(fp_game: GameFactory) -> None:
    """Firepower 12.7.4 (with 8.8.2): B1 on the part of hexside 1 is refused the foxhole on the
    part of hexsides 3-5 (no option offered either); on its part he gets in."""
    g = _fenced(fp_game, b1={"side": 1})
    defenses.set_defences(g, [{"type": "SFX", "hex": "1C4", "side": 4}])
    _defence_impulse(g, "B", "B1")
    _defence_refused(g, {"act": "position", "unit": "B1", "into": True}, "Firepower 12.7.4",
                     "other part")
    ph: dict[str, Any] = {}
    assert defenses._position_options(g, ph, "B1") == []
    g.state.units["B1"].state["side"] = 5
    _defence_act(g, {"act": "position", "unit": "B1", "into": True})
    assert defenses.in_defence(g.state.units["B1"]) == "SFX"


def test_a_soldier_set_up_in_the_foxhole_is_on_its_part(fp_game: GameFactory) -> None:
    """Firepower 12.7.4 (FPD-136): a soldier set up in a foxhole of a fence hex with no side of
    his own is on the foxhole's part, not the part behind his facing."""
    from hexwar.plugins.firepower.setup import setup_units

    g = _fenced(fp_game, b1={"in_defence": "SFX"})
    defenses.set_defences(g, [{"type": "SFX", "hex": "1C4", "side": 4}])
    b1 = g.state.units["B1"]
    b1.state.pop("side", None)
    b1.facing = 4  # the part behind him is hexside 1's
    setup_units(g)
    assert b1.state["side"] == 4


def test_a_scenario_file_with_a_foxholes_side_passes_validation(tmp_path: Path) -> None:
    """docs/scenario-format.md: ``special.defenses[].side`` is part of the format (Firepower
    12.7.4); a side off 1-6 fails the schema."""
    from hexwar.core.engine.game import Game as G
    from hexwar.core.scenario import load_and_validate
    from tests.plugins.firepower.conftest import PANEL_HEAD

    (tmp_path / "p.toml").write_text(PANEL_HEAD + '\n[[hex]]\nat = "C4"\nfeatures = ["fence:2-6"]\n',
                                     encoding="utf-8")
    text = ('[scenario]\nid = "t"\nsystem = "firepower"\nturns = 1\n'
            '[sides.A]\nsequence_units = 3\n[sides.B]\nsequence_units = 3\n'
            '[board]\npanels = [{ file = "p.toml" }]\n'
            '[special]\nfold = "H"\ndefenses = [{ type = "SFX", hex = "1C4", side = SIDE }]\n'
            '[[units]]\nid = "A1"\ntype = "firepower:RFL"\nside = "A"\nhex = "1C2"\nfacing = 4\n')
    path = tmp_path / "s.toml"
    path.write_text(text.replace("SIDE", "4"), encoding="utf-8")
    game = G(load_and_validate(path), seed=1)
    assert defenses.defences(game)[game.board.parse("1C4")].side == 4
    path.write_text(text.replace("SIDE", "9"), encoding="utf-8")
    with pytest.raises(Exception, match="side"):
        load_and_validate(path)


def test_an_announced_plus_reverses_the_fence_parts_range_modifier(
        fp_game: GameFactory) -> None:
    """Firepower 12.7.1, 12.7.5: at two hexes a roll of 6 reads 6 - 2 = 4, part 1; with "+"
    announced it reads 6 + 2 = 8, part 2."""
    from tests.plugins.firepower.test_weapons_hole import _throw as _throw_signed

    for sign, reads, part in (("", 4, 1), ("+", 8, 2)):
        g = _fenced(fp_game)
        g.state.units["A1"].state["equipment"] = {"HGN3": 2}
        ctx = _throw_signed(g, [1, 6], **({"location_sign": sign} if sign else {}))
        loc = ctx.extra["summary"]["location"]
        assert (loc["modified"], loc["part"]) == (reads, part), sign
