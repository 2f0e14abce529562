"""Bridge units (Firepower 8.9 with 12.3.4.2.5, 13 and 12.1; docs/decisions.md FPD-122 to
FPD-127). On the test panel column C runs down hexside 4; a bridge of two hexes, 1C4 and 1C5,
one contour level down (ground -3), links the originating hexes 1C3 and 1C6 (ground 0): its deck
is at 0, one height thick (its bottom at -1), and a Standing soldier's head under it is at -1.
1D4 lies beside 1C4 (1C4's hexside 3)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from hexwar.core.engine.game import Game
from hexwar.core.errors import RulesError
from hexwar.core.scenario import load_and_validate
from hexwar.plugins.firepower import bridges, defenses
from hexwar.plugins.firepower.advanced_los import line_of_sight, los_world, soldier_height
from hexwar.plugins.firepower.ai import _along_deck, make_ai
from hexwar.plugins.firepower.soldiers import soldiers_of
from hexwar.plugins.firepower.state import data, rules_card
from tests.plugins.firepower.test_defenses import GameFactory, _game, _impulse, _mods
from tests.plugins.firepower.test_defenses_more import FIRE, _act, _refused, _spent

BRG = [{"type": "BRG", "hexes": ["1C4", "1C5"], "ends": ["1C3", "1C6"]}]
LOW = [{"at": "C4", "height": -1}, {"at": "C5", "height": -1}]
SCENARIO = Path(__file__).parent / "scenarios" / "bridge-crossing.toml"


def _bridge_game(fp_game: GameFactory, units: list[tuple[Any, ...]],
                 specs: list[dict[str, Any]] | None = None,
                 hexes: list[dict[str, Any]] | None = None) -> Game:
    """The game with ``units``; their true/false state is set after (the panel text has none)."""
    flags = {u[0]: {k: v for k, v in u[5].items() if isinstance(v, bool)}
             for u in units if len(u) > 5}
    plain = [(*u[:5], {k: v for k, v in u[5].items() if not isinstance(v, bool)})
             if len(u) > 5 else u for u in units]
    g = _game(fp_game, plain, BRG if specs is None else specs,
              hexes=LOW if hexes is None else hexes)
    for uid, st in flags.items():
        g.state.units[uid].state.update(st)
    return g


def _walker(fp_game: GameFactory, at: str = "C3", facing: int = 4, **state: Any) -> Game:
    g = _bridge_game(fp_game, [("A1", "RFL", "A", at, facing, {"model": "RFL10", **state})])
    _impulse(g, "A", "A1")
    return g


def _deck(**more: Any) -> dict[str, Any]:
    """A soldier on the deck of 1C4 or 1C5 (ground -3): his feet three heights up."""
    return {"model": "RFL10", "deck": True, "stands_at": 3, **more}


# -- set-up (Firepower 8.9; FPD-122) ---------------------------------------------------------------


def test_the_bridge_row_cites_the_text() -> None:
    t = defenses.types()["BRG"]
    assert (t.kind, t.height) == ("bridge", 1)  # Firepower 8.9: one height thick


def test_a_bridge_is_set_up_in_each_of_its_hexes(fp_game: GameFactory) -> None:
    g = _bridge_game(fp_game, [])
    ds = defenses.defences(g)
    c4, c5 = g.board.parse("1C4"), g.board.parse("1C5")
    assert set(ds) == {c4, c5}
    br = ds[c4].bridge
    assert br is not None and br is ds[c5].bridge
    assert (br.deck, br.bottom) == (0, -1)  # the originating hexes' height, one height thick
    assert [g.board.label(h) for h in br.chain] == ["1C3", "1C4", "1C5", "1C6"]


@pytest.mark.parametrize(("specs", "hexes", "words"), [
    (BRG, [*LOW, {"at": "C6", "height": 1}], "not of equal height"),
    (BRG, [{"at": "C4", "height": -1}], "not low enough"),
    ([{"type": "BRG", "hexes": ["1C4", "1C6"], "ends": ["1C3", "1C7"]}], LOW, "not adjacent"),
    ([{"type": "BRG", "hexes": ["1C4", "1C5"]}], LOW, "two originating hexes"),
    ([{"type": "BRG", "hexes": [], "ends": ["1C3", "1C6"]}], LOW, "lists its bridge hexes"),
    ([{"type": "BRG", "hex": "1C4", "hexes": ["1C4", "1C5"], "ends": ["1C3", "1C6"]}], LOW,
     "not a 'hex'"),
    ([{"type": "BRG", "hexes": ["1C4", "1C5"], "ends": ["1C3", "1C4"]}], LOW, "named twice"),
    ([{"type": "BRG", "hexes": ["1C4", "1Z5"], "ends": ["1C3", "1C6"]}], LOW, "Z5"),
])
def test_a_bad_bridge_is_refused_naming_the_rule(fp_game: GameFactory, specs: list[Any],
                                                  hexes: list[Any], words: str) -> None:
    g = _bridge_game(fp_game, [], [{"type": "SFX", "hex": "1D8"}], hexes)
    before = dict(defenses.defences(g))
    with pytest.raises(RulesError, match=words) as exc:
        defenses.set_defences(g, specs)
    assert exc.value.rule == "Firepower 8.9"
    assert defenses.defences(g) == before


def test_a_bridge_hex_holds_no_other_defensive_unit(fp_game: GameFactory) -> None:
    g = _bridge_game(fp_game, [], [{"type": "SFX", "hex": "1D8"}])
    with pytest.raises(RulesError, match="already holds") as exc:
        defenses.set_defences(g, [*BRG, {"type": "SFX", "hex": "1C5"}])
    assert exc.value.rule == "Firepower 8.8"


def test_a_scenario_names_a_bridge_and_is_checked_before_play() -> None:
    g = Game(load_and_validate(SCENARIO), seed=1)
    assert sum(1 for d in defenses.defences(g).values() if d.bridge is not None) == 3


# -- on the deck and under it (Firepower 8.9; FPD-123) ---------------------------------------------


def test_along_the_bridge_he_is_on_the_deck_at_the_paved_cost(fp_game: GameFactory) -> None:
    g = _walker(fp_game)  # in 1C3, the originating hex, facing 1C4
    _act(g, {"act": "enter", "unit": "A1"})
    st = g.state.units["A1"].state
    assert st["deck"] is True and st["stands_at"] == 3  # the deck 0, the ground -3
    # paved: the hill hexside between 1C3 and 1C4 is not crossed on the deck
    assert _spent(g, "A1") == rules_card(g).mf_cost("enter", "stand")
    _act(g, {"act": "enter", "unit": "A1"})  # 1C5, along the deck
    assert g.state.units["A1"].state["deck"] is True and _spent(g, "A1") == 2


def test_from_the_side_he_is_under_the_deck(fp_game: GameFactory) -> None:
    g = _walker(fp_game, "D4", 6)  # beside 1C4, facing it
    _act(g, {"act": "enter", "unit": "A1"})
    st = g.state.units["A1"].state
    assert "deck" not in st and "stands_at" not in st
    c = rules_card(g)  # down the depression hexside: crossed as ever
    assert _spent(g, "A1") == c.mf_cost("enter", "stand") + c.mf_cost("cross", "stand")
    g2 = _walker(fp_game, "C4", 4)  # under 1C4 going on under the bridge to 1C5
    _act(g2, {"act": "enter", "unit": "A1"})
    assert "deck" not in g2.state.units["A1"].state


def test_off_the_deck_at_its_end_he_is_on_the_ground(fp_game: GameFactory) -> None:
    g = _walker(fp_game, "C5", 4, deck=True, stands_at=3)
    _act(g, {"act": "enter", "unit": "A1"})  # 1C6, the far originating hex
    st = g.state.units["A1"].state
    assert "deck" not in st and "stands_at" not in st
    assert _spent(g, "A1") == rules_card(g).mf_cost("enter", "stand")


def test_on_the_deck_he_leaves_only_along_the_bridge(fp_game: GameFactory) -> None:
    g = _walker(fp_game, "C4", 3, deck=True, stands_at=3)  # facing 1D4, off the side
    _refused(g, {"act": "enter", "unit": "A1"}, "Firepower 8.9", "only along the bridge")
    _refused(g, {"act": "scale", "unit": "A1", "to": "on"}, "Firepower 8.9", "moves only along")
    g2 = _walker(fp_game, "C4", 1, deck=True, stands_at=3)  # backing off the side: refused too
    g2.state.units["A1"].facing = 6
    _refused(g2, {"act": "back", "unit": "A1"}, "Firepower 8.9", "only along the bridge")


def test_backing_along_the_deck_crosses_no_hexside(fp_game: GameFactory) -> None:
    g = _walker(fp_game, "C4", 4, deck=True, stands_at=3)  # backs toward 1C3
    _act(g, {"act": "back", "unit": "A1"})
    u = g.state.units["A1"]
    assert g.board.label(u.hex) == "1C3" and "deck" not in u.state


def test_under_the_deck_the_levels_meet_only_at_the_ends(fp_game: GameFactory) -> None:
    # from under 1C4 into the originating hex 1C3: up the depression hexside, as ever
    g = _walker(fp_game, "C4", 1)
    _act(g, {"act": "enter", "unit": "A1"})
    c = rules_card(g)
    assert _spent(g, "A1") == c.mf_cost("enter", "stand") + c.mf_cost("cross", "stand")
    _act(g, {"act": "turn", "unit": "A1", "to": 4})
    _impulse(g, "A", "A1")
    _act(g, {"act": "enter", "unit": "A1"})  # and back along the bridge: on the deck
    assert g.state.units["A1"].state["deck"] is True


def test_a_destroyed_deck_is_not_walked_on(fp_game: GameFactory) -> None:
    g = _walker(fp_game, "C4", 4, deck=True, stands_at=3)
    d = defenses.defences(g)[g.board.parse("1C5")]
    defenses.damage(g, d, 100)
    _refused(g, {"act": "enter", "unit": "A1"}, "Firepower 8.9", "only along the bridge")


# -- the line of sight: the deck as a slab (Firepower 8.9, 12.1; FPD-124) --------------------------


def test_the_slab_blocks_only_where_the_line_passes_through_it() -> None:
    # heads at 2 and -2, three hexes apart, a slab from -1 to 0 in the hex two hexes on
    assert bridges.slab_blocks(2, -2, 3, 2, -1, 0)       # the line at 0 to -1.33 there
    assert not bridges.slab_blocks(-1, -1, 1, 1, -1, 0)  # level with its underside: under it
    assert not bridges.slab_blocks(2, 2, 3, 1, -1, 0)    # above its top
    assert not bridges.slab_blocks(0, -2, 3, 3, -1, 0)   # under it in the far end's half hex


def _los(g: Game, a: str, b: str) -> Any:
    world = los_world(g)
    sol = soldiers_of(g.state.units)
    s, t = sol[a], sol[b]
    return line_of_sight(world, s.hex, t.hex, soldier_height(world, s), soldier_height(world, t),
                         firer=s, target=t)


def test_fire_from_the_deck_down_under_it_is_blocked(fp_game: GameFactory) -> None:
    g = _bridge_game(fp_game, [("A1", "RFL", "A", "C4", 4, _deck()),
                               ("B1", "RFL", "B", "C5", 1, {"model": "RFL10"})])
    _impulse(g, "A", "A1")
    with pytest.raises(RulesError, match="deck of the bridge") as exc:
        _mods(g, "A1", FIRE, "B1")
    assert exc.value.rule == "Firepower 8.9"


def test_on_the_deck_and_under_it_in_one_hex_they_never_see_each_other(
        fp_game: GameFactory) -> None:
    g = _bridge_game(fp_game, [("A1", "RFL", "A", "C4", 4, _deck()),
                               ("B1", "RFL", "B", "C4", 1, {"model": "RFL10"})])
    res = _los(g, "A1", "B1")
    assert res.blocked and res.rule == "Firepower 8.9"
    g2 = _bridge_game(fp_game, [("A1", "RFL", "A", "C4", 4, _deck()),
                                ("B1", "RFL", "B", "C4", 1, _deck())])
    assert not _los(g2, "A1", "B1").blocked


def test_under_the_bridge_the_line_passes_beneath_the_deck(fp_game: GameFactory) -> None:
    g = _bridge_game(fp_game, [("A1", "RFL", "A", "C4", 4, {"model": "RFL10"}),
                               ("B1", "RFL", "B", "C5", 1, {"model": "RFL10"})])
    res = _los(g, "A1", "B1")  # both heads at -1, the deck's underside
    assert not res.blocked
    assert [s.verdict for s in res.steps if s.obstacle.bottom is not None] == ["clear", "clear"]


def test_a_deck_between_blocks_a_line_through_it(fp_game: GameFactory) -> None:
    # Standing in 1C2 (head 2) to a Crouching soldier under 1C5 (head -2): through 1C4's deck
    g = _bridge_game(fp_game, [("A1", "RFL", "A", "C2", 4, {"model": "RFL10"}),
                               ("B1", "RFL", "B", "C5", 1, {"model": "RFL10",
                                                           "posture": "crouch"})])
    res = _los(g, "A1", "B1")
    decks = {s.label: s.verdict for s in res.steps if s.obstacle.bottom is not None}
    assert decks == {"1C4": "blocked", "1C5": "clear"}
    assert res.blocked and res.rule == "Firepower 8.9"


def test_the_deck_over_a_soldier_under_it_hides_him_from_above(fp_game: GameFactory) -> None:
    # Standing in 1D6 beside the bridge (head 2) to a Standing soldier under 1C5 (head -1):
    # the line enters his hex above the deck's underside
    g = _bridge_game(fp_game, [("A1", "RFL", "A", "D6", 6, {"model": "RFL10"}),
                               ("B1", "RFL", "B", "C5", 3, {"model": "RFL10"})])
    res = _los(g, "A1", "B1")
    assert res.blocked and res.rule == "Firepower 8.9"
    # Prone in 1D6 (head 0) to a Prone soldier under the deck (head -3): below the underside
    g2 = _bridge_game(fp_game, [("A1", "RFL", "A", "D6", 6, {"model": "RFL10",
                                                            "posture": "prone"}),
                                ("B1", "RFL", "B", "C5", 3, {"model": "RFL10",
                                                            "posture": "prone"})])
    assert not any(s.verdict == "blocked" for s in _los(g2, "A1", "B1").steps
                   if s.obstacle.bottom is not None)


def test_the_ai_batch_sight_judges_the_deck_as_the_line_of_sight(fp_game: GameFactory) -> None:
    # FPD-99's batch against the traced line, for locations around and under the bridge
    g = _bridge_game(fp_game, [("A1", "RFL", "A", "C1", 4, {"model": "RFL10"})])
    rules = g.view("A").rules
    spots = [(g.board.parse(f"1{c}{r}"), 1, head) for c in "BCD" for r in range(1, 9)
             for head in (0, 2)]
    for src in spots[::3]:
        assert rules.sight_blocks(src, spots) == rules.sight_blocks_traced(src, spots)
    under = (g.board.parse("1C5"), 1, 0)
    assert rules.sight_blocks(under, [(g.board.parse("1C4"), 1, 0)]) == [False]


# -- melee (Firepower 13; FPD-125) ------------------------------------------------------------------


def _melee(g: Game, *att: str, hexlabel: str) -> dict[str, Any]:
    return {"act": "melee", "units": list(att), "hex": hexlabel}


def test_along_the_bridge_the_deck_is_meleed(fp_game: GameFactory) -> None:
    from hexwar.plugins.firepower.advanced_impulses import check_advanced_action

    g = _bridge_game(fp_game, [("A1", "RFL", "A", "C3", 4, {"model": "RFL10"}),
                               ("B1", "RFL", "B", "C4", 1, _deck())])
    _impulse(g, "A", "A1")
    info = check_advanced_action(g, _melee(g, "A1", hexlabel="1C4"))
    # FPD-125: level with the deck, no height changed with the last MF (Firepower 13.5)
    assert not any(m.rule == "Firepower 13.5" for m in info["extra"])


@pytest.mark.parametrize(("at", "facing", "dfn"), [("C3", 4, {"model": "RFL10"}),
                                                   ("D4", 6, _deck())])
def test_no_melee_between_the_deck_and_under_it(fp_game: GameFactory, at: str, facing: int,
                                                dfn: dict[str, Any]) -> None:
    g = _bridge_game(fp_game, [("A1", "RFL", "A", at, facing, {"model": "RFL10"}),
                               ("B1", "RFL", "B", "C4", 1, dfn)])
    _impulse(g, "A", "A1")
    _refused(g, _melee(g, "A1", hexlabel="1C4"), "Firepower 13")


def test_no_melee_into_a_bridge_hex_held_on_both_levels(fp_game: GameFactory) -> None:
    g = _bridge_game(fp_game, [("A1", "RFL", "A", "C3", 4, {"model": "RFL10"}),
                               ("B1", "RFL", "B", "C4", 1, _deck()),
                               ("B2", "RFL", "B", "C4", 1, {"model": "RFL10"})])
    _impulse(g, "A", "A1")
    _refused(g, _melee(g, "A1", hexlabel="1C4"), "Firepower 13", "both")


def test_winners_of_a_melee_along_the_bridge_are_on_the_deck(fp_game: GameFactory) -> None:
    g = _bridge_game(fp_game, [("A1", "RFL", "A", "C4", 4, {"model": "RFL10"})])
    u = g.state.units["A1"]  # as the melee left him: in 1C4, facing on from 1C3
    bridges.after_action(g, {"act": "melee", "winner": "attacker", "units": ["A1"]})
    assert u.state["deck"] is True and u.state["stands_at"] == 3
    u.state.pop("deck")
    u.state.pop("stands_at")
    u.facing = 6  # came in from 1D4, the side
    bridges.after_action(g, {"act": "melee", "winner": "attacker", "units": ["A1"]})
    assert "deck" not in u.state


# -- destroyed (Firepower 12.3.4.2.5; FPD-126) ------------------------------------------------------


def test_a_destroyed_bridge_kills_everyone_in_its_hex(fp_game: GameFactory) -> None:
    g = _bridge_game(fp_game, [("A1", "RFL", "A", "C4", 4, _deck()),
                               ("B1", "RFL", "B", "C4", 1, {"model": "RFL10"}),
                               ("B2", "RFL", "B", "C5", 1, _deck()),
                               ("B3", "RFL", "B", "C4", 1, {"model": "RFL10", "tunnel": True})])
    d = defenses.defences(g)[g.board.parse("1C4")]
    assert not defenses.damage(g, d, d.type.terrain_value - 1)
    assert defenses.damage(g, d, 1)
    st = {uid: bool(u.state.get("eliminated")) for uid, u in g.state.units.items()}
    assert st == {"A1": True, "B1": True, "B2": False, "B3": False}  # the tunnel is under it
    assert g.board.parse("1C4") not in bridges.spans(g)
    assert data(g)["destroyed"]["1C4"] == "rubble"


# -- the AI (FPD-127) --------------------------------------------------------------------------------


def test_the_ai_plans_along_the_deck_only(fp_game: GameFactory) -> None:
    g = _bridge_game(fp_game, [])
    decks = g.view("A").rules.bridges()
    p = g.board.parse
    assert _along_deck(decks, p("1C3"), p("1C4"), False)      # on from the originating hex
    assert _along_deck(decks, p("1C4"), p("1C5"), True)       # along it
    assert _along_deck(decks, p("1C5"), p("1C6"), True)       # off at its end
    assert not _along_deck(decks, p("1C4"), p("1C5"), False)  # under it: the ground's way
    assert not _along_deck(decks, p("1D4"), p("1C4"), False)  # from the side: under it
    assert not _along_deck(decks, p("1C4"), p("1D4"), True)   # off the side


def test_ai_against_ai_plays_the_bridge_scenario_to_its_end() -> None:
    g = Game(load_and_validate(SCENARIO), seed=3)
    ai = {"A": make_ai("A", 3), "B": make_ai("B", 4)}
    on_deck: set[str] = set()
    while g.pending is not None:
        d = g.pending
        g.answer(ai[d.side].choose(d, g.view(d.side)))
        on_deck |= {u.id for u in g.state.units.values() if u.state.get("deck")}
    assert g.state.phase == "over" and g.result is not None
    assert on_deck  # the AI crossed a bridge on its deck


def test_over_a_ravine_the_deck_is_walked_not_climbed(fp_game: GameFactory) -> None:
    # four levels down (12 heights): off the deck a height hexside over ten is climbed
    # (Firepower 11.2.4); on the deck nothing below is crossed (Firepower 8.9)
    deep = [{"at": "C4", "height": -4}, {"at": "C5", "height": -4}]
    g = _bridge_game(fp_game, [("A1", "RFL", "A", "C3", 4, {"model": "RFL10"}),
                               ("A2", "RFL", "A", "D4", 6, {"model": "RFL10"})], hexes=deep)
    _impulse(g, "A", "A1", "A2")
    _act(g, {"act": "enter", "unit": "A1"})
    assert g.state.units["A1"].state["stands_at"] == 12
    _refused(g, {"act": "enter", "unit": "A2"}, "Firepower 11.2.4", "climbed")


# -- blasts and the deck (Firepower 8.9, 12.2.3; FPD-126) ------------------------------------------


def test_a_blast_on_the_deck_does_not_reach_under_it(fp_game: GameFactory) -> None:
    from hexwar.plugins.firepower.actions import fire_context
    from hexwar.plugins.firepower.advanced_fire import blast_mods, firing

    g = _bridge_game(fp_game, [("A1", "RFL", "A", "C2", 4, {"model": "RFL10"}),
                               ("B1", "RFL", "B", "C4", 1, _deck()),
                               ("B2", "RFL", "B", "C4", 1, {"model": "RFL10"}),
                               ("B3", "RFL", "B", "C5", 1, {"model": "RFL10"}),
                               ("B4", "RFL", "B", "C5", 1, _deck())])
    g.state.units["A1"].state["equipment"] = {"HGN3": 1}
    _impulse(g, "A", "A1")
    ctx = fire_context(g, "A1", {"act": "grenade", "unit": "A1", "hex": "1C4", "item": "HGN3"})
    f = firing(ctx)
    sol = soldiers_of(g.state.units)
    c4 = g.board.parse("1C4")
    assert f.decks[c4] == (-1, 0) and f.on_deck == {"B1", "B4"}
    assert blast_mods(f, sol["B1"], c4, 0, 8) is not None  # on the deck with it
    assert blast_mods(f, sol["B2"], c4, 0, 8) is None      # under it: the slab between
    assert blast_mods(f, sol["B3"], c4, 1, 8) is None      # under the next deck
    assert blast_mods(f, sol["B4"], c4, 1, 8) is not None  # on the next deck


def test_the_ai_reads_a_soldier_on_the_deck_at_the_deck_s_height(fp_game: GameFactory) -> None:
    g = _bridge_game(fp_game, [("A1", "RFL", "A", "C4", 4, _deck()),
                               ("A2", "RFL", "A", "C5", 4, {"model": "RFL10"})])
    ai = make_ai("A", 1)
    ai._adv = True  # the Advanced reading of heights, as with the Advanced terrain files
    view = g.view("A")
    object.__setattr__(view.rules, "advanced", lambda: True)
    ai._adv_setup(view)
    sol = soldiers_of(g.state.units)
    assert ai._loc(sol["A1"])[2] == 3 + 2  # feet on the deck three up, Standing head two more
    assert ai._loc(sol["A2"])[2] == 2      # under it: on his hex's ground


# -- fire at an empty bridge hex aims at its deck (Firepower 8.9, 12.1; FPD-155) -----------------


def test_a_grenade_at_an_empty_bridge_hex_aims_at_the_deck(fp_game: GameFactory) -> None:
    """Firepower 8.9, 12.1 (FPD-155): over a ravine 12 heights deep, the empty bridge hex 1C4 is
    aimed at on its deck (height 0), not at the ravine's floor the bank hides."""
    from hexwar.plugins.firepower import combat
    from hexwar.plugins.firepower.actions import fire_context, fire_procedure

    deep = [{"at": "C4", "height": -4}, {"at": "C5", "height": -4}]
    g = _bridge_game(fp_game, [("A1", "RFL", "A", "C2", 4, {"model": "RFL10"})], hexes=deep)
    g.state.units["A1"].state["equipment"] = {"HGN3": 1}
    ctx = fire_context(g, "A1", {"act": "grenade", "unit": "A1", "hex": "1C4", "item": "HGN3"})
    combat.preview(ctx, fire_procedure(g, ctx.kind))
    assert ctx.extra["los_hex"].target_height == 0
