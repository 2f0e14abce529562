"""A destroyed tree leaves an abatis unit (Firepower 12.3.4.2.4 with 8.8.5.1, 11.2.1, 12.3.4.2.1;
docs/decisions.md FPD-130): a defensive unit with every abatis rule (FPD-95, FPD-111), which the
hit that felled the tree does not damage and a later one may destroy."""

from __future__ import annotations

from hexwar.core.engine.game import Game
from hexwar.plugins.firepower import advanced_fire as af
from hexwar.plugins.firepower import defenses
from hexwar.plugins.firepower.state import data
from tests.plugins.firepower.test_defenses import GameFactory, _game, _impulse
from tests.plugins.firepower.test_defenses_abatis_fire_climb import _grenade
from tests.plugins.firepower.test_defenses_more import _act, _refused, _spent

TREE = [{"at": "C5", "terrain": "tree"}]


def _felled(fp_game: GameFactory, defs: list[dict[str, object]] | None = None) -> Game:
    """A1 in 1C3 facing 1C4 (hexside 4); the tree of 1C5 destroyed by fire."""
    g = _game(fp_game, [("A1", "RFL", "A", "C3", 4, {"model": "RFL10"})], defs or [],
              hexes=TREE)
    h = g.board.parse("1C5")
    assert af.damage_terrain(g, h, af.TREE_TV) is True
    return g


def test_a_destroyed_tree_leaves_an_abatis_unit(fp_game: GameFactory) -> None:
    """Firepower 12.3.4.2.4: the tree's hex holds an abatis defensive unit, told to all."""
    g = _felled(fp_game)
    d = defenses.defences(g)[g.board.parse("1C5")]
    assert d.type.code == "ABS" and d.type.move_multiplier == 2
    assert data(g)["destroyed"] == {"1C5": "abatis"}
    ev = [e for e in g.log.events if e.get("type") == "defense_placed"]
    assert len(ev) == 1 and ev[0]["hex"] == "1C5" and ev[0].get("visible_to") is None
    from hexwar.plugins.firepower.words import describe_event

    assert "abatis unit is placed in 1C5" in (describe_event(g, ev[0]) or "")


def test_the_fallen_trees_abatis_doubles_moves_turns_and_postures(fp_game: GameFactory) -> None:
    """Firepower 8.8.5.1, 11.2.1 (FPD-95, FPD-111): into it twice the MF, and a turn in it."""
    g = _felled(fp_game)
    _impulse(g, "A", "A1")
    _act(g, {"act": "enter", "unit": "A1"})  # into 1C4: once
    assert _spent(g, "A1") == 1
    _act(g, {"act": "enter", "unit": "A1"})  # into the abatis of 1C5: twice
    assert _spent(g, "A1") == 3
    _refused(g, {"act": "turn", "unit": "A1", "to": 1}, "Firepower 11.2.1", "costs twice")
    _impulse(g, "A", "A1")
    _act(g, {"act": "turn", "unit": "A1", "to": 1})  # a turn in it: twice
    assert _spent(g, "A1") == 2


def test_the_hit_that_fells_the_tree_does_not_damage_its_abatis(fp_game: GameFactory) -> None:
    """Firepower 12.3.4.2.4: a grenade's G hit destroys the damaged tree of 1C5; the abatis it
    leaves stands, undamaged, whatever the hit's penetration; a later hit damages it."""
    g = _game(fp_game, [("A1", "RFL", "A", "C2", 4, {"model": "RFL10"})], [], hexes=TREE)
    g.state.units["A1"].state["equipment"] = {"HGN3": 2}
    data(g)["damage"] = {"1C5": af.TREE_TV - 1}
    _impulse(g, "A", "A1")
    _grenade(g, "1C5", [1, 10])
    h = g.board.parse("1C5")
    assert data(g)["destroyed"] == {"1C5": "abatis"}
    assert h in defenses.defences(g) and not (data(g).get("defence_damage") or {})
    _impulse(g, "A", "A1")
    _grenade(g, "1C5", [1, 10])
    assert data(g)["defence_damage"]["1C5"] > 0


def test_the_fallen_trees_abatis_is_destroyed_in_turn(fp_game: GameFactory) -> None:
    """Firepower 12.3.4.2.1: damaged to its terrain value the abatis is removed; the hex costs
    once again."""
    g = _felled(fp_game)
    d = defenses.defences(g)[g.board.parse("1C5")]
    assert defenses.damage(g, d, d.type.terrain_value) is True
    assert g.board.parse("1C5") not in defenses.defences(g)


def test_an_earlier_unit_destroyed_in_the_hex_does_not_remove_the_abatis(
        fp_game: GameFactory) -> None:
    """The wire of 1C5 was destroyed before the tree fell: the new abatis stands (FPD-130)."""
    g = _game(fp_game, [("A1", "RFL", "A", "C3", 4, {"model": "RFL10"})],
              [{"type": "WIR", "hex": "1C5"}], hexes=TREE)
    h = g.board.parse("1C5")
    wire = defenses.defences(g)[h]
    assert defenses.damage(g, wire, wire.type.terrain_value) is True
    assert h not in defenses.defences(g)
    assert af.damage_terrain(g, h, af.TREE_TV) is True
    assert defenses.defences(g)[h].type.code == "ABS"


def test_no_abatis_where_a_defensive_unit_stands(fp_game: GameFactory) -> None:
    """FPD-130: a hex holds one defensive unit; the foxhole of 1C5 stays, no abatis placed."""
    g = _game(fp_game, [("A1", "RFL", "A", "C3", 4, {"model": "RFL10"})],
              [{"type": "DFX", "hex": "1C5"}], hexes=TREE)
    h = g.board.parse("1C5")
    assert af.damage_terrain(g, h, af.TREE_TV) is False
    assert defenses.defences(g)[h].type.code == "DFX"
    assert not any(e.get("type") == "defense_placed" for e in g.log.events)
