"""What the Firepower rules keep per state or per terrain state (docs/decisions.md FPD-196 to
FPD-201) gives what a fresh computation gives, and is made again when what it depends on
changes."""

from __future__ import annotations

import itertools
import random
from typing import Any

import pytest

from hexwar.core.cli import _controllers, _resolve_scenario_path
from hexwar.core.engine.game import Game
from hexwar.core.hexgrid import Hex
from hexwar.core.scenario import load_and_validate
from hexwar.core.types import total
from hexwar.plugins.firepower import actions, advanced_fire, advanced_impulses, combat
from hexwar.plugins.firepower import knowledge as kn
from hexwar.plugins.firepower.los import basic_los
from hexwar.plugins.firepower.soldiers import Soldier, soldiers_of
from hexwar.plugins.firepower.terrain import FpMap, Picture


def _street_fight(actions_seen: int, fire: bool = False) -> Game:
    """The street fight, AI against AI (seed 1), stopped at its ``actions_seen``-th Action
    decision (with a fire among its options: ``fire``)."""
    game = Game(load_and_validate(_resolve_scenario_path("firepower:street-fight")), seed=1)
    controllers, _ = _controllers(game, "ai,ai", 1)
    seen = 0
    while (d := game.pending) is not None:
        if d.kind == "action" and d.options and len(d.options) > 3 and (not fire or any(
                isinstance(o, dict) and o.get("act") == "fire" for o in d.options)):
            seen += 1
            if seen >= actions_seen:
                return game
        game.answer(controllers[d.side].choose(d, game.view(d.side)))
    raise AssertionError("the game ended first")


def _preview(game: Game, side: str, o: dict[str, Any]) -> Any:
    ctx = game.view(side).rules.preview_fire(o["unit"], o)
    f = ctx.extra["firing"]
    return (ctx.hit, repr(sorted((k, repr(v)) for k, v in ctx.modifiers.items())),
            repr(sorted((k, repr(v)) for k, v in (ctx.extra.get("los") or {}).items())),
            f.models, f.armour, f.ups, f.positions, f.holes, f.hole_sides, f.peering,
            f.observation, f.observers, f.crew)


@pytest.mark.parametrize("at", [1, 4])
def test_fpd_196_198_kept_fire_tables_give_what_fresh_ones_give(at: int) -> None:
    """Firepower 12 (FPD-196, FPD-198): every fire the listing finds legal, previewed with the
    state's kept tables and lines of sight, has the hit number, modifiers, lines and tables it
    has when the tables are made afresh for it alone."""
    game = _street_fight(at, fire=True)
    d = game.pending
    assert d is not None
    fires = [o for o in advanced_impulses.legal_advanced_actions(game)
             if isinstance(o, dict) and o.get("act") == "fire"]
    assert fires
    kept = [_preview(game, d.side, o) for o in fires]
    for o, got in zip(fires, kept, strict=True):
        game.stash.pop(advanced_fire._FIRE_TABLES, None)  # fresh tables, no lines kept
        assert _preview(game, d.side, o) == got


def test_fpd_196_tables_are_made_again_when_the_state_changes() -> None:
    """FPD-196: one state, one set of tables; a write to a unit or to the system state makes
    new ones (the token sees it)."""
    game = _street_fight(6)
    first = advanced_fire.fire_tables(game)
    assert advanced_fire.fire_tables(game) is first
    u = next(u for u in game.state.units.values() if u.hex is not None)
    u.state["posture"] = "prone" if u.state.get("posture") != "prone" else "stand"
    second = advanced_fire.fire_tables(game)
    assert second is not first
    assert advanced_fire.fire_tables(game) is second
    game.state.data["firepower"]["smoke"] = [*game.state.data["firepower"].get("smoke", []),
                                             {"hex": game.board.label(u.hex), "source": "M",
                                              "height": 3,
                                              "turn": 1}]
    assert advanced_fire.fire_tables(game) is not second


def test_fpd_197_kept_sight_answers_are_the_fresh_ones_and_follow_the_terrain() -> None:
    """Firepower 12.1 (FPD-197): the answers kept for the terrain's state are those worked out
    afresh, for soldiers' places all over the board; closing a door makes a new terrain state,
    whose answers are worked out again (and are again the fresh ones)."""
    game = _street_fight(6)
    side = game.state.sides[0]
    rng = random.Random(3)
    hexes = sorted(game.board.hexes)
    locs = [(h, rng.choice([1, 1, 2]), rng.choice([0, 1, 2])) for h in rng.sample(hexes, 40)]
    rules = game.view(side).rules
    for src in locs[:8]:
        fresh = rules._sight_blocks_now(src, locs, frozenset(), frozenset())
        assert rules.sight_blocks(src, locs) == fresh
        assert rules.sight_blocks(src, locs) == fresh  # now from the kept answers
    sig = game.stash[kn.SIGHT_ANSWERS][0]
    keys = sorted(rules.opening_names())
    assert keys
    fp = game.state.data["firepower"]
    fp["openings"] = {**(fp.get("openings") or {}), **{k: "closed" for k in keys}}
    rules = game.view(side).rules  # a new decision's view
    for src in locs[:8]:
        assert rules.sight_blocks(src, locs) == rules._sight_blocks_now(src, locs, frozenset(),
                                                                        frozenset())
    assert game.stash[kn.SIGHT_ANSWERS][0] != sig


def test_fpd_197_the_phase_and_the_cup_are_not_terrain() -> None:
    """FPD-197: an Action's bookkeeping and a draw leave the kept answers in place."""
    game = _street_fight(6)
    side = game.state.sides[0]
    game.view(side).rules.sight_blocks((sorted(game.board.hexes)[0], 1, 2),
                                       [(sorted(game.board.hexes)[-1], 1, 2)])
    kept = game.stash[kn.SIGHT_ANSWERS]
    fp = game.state.data["firepower"]
    fp["phase"] = {**fp["phase"], "impulse": int(fp["phase"].get("impulse", 0)) + 1}
    fp["drawn"] = int(fp.get("drawn", 0)) + 1
    game.view(side).rules.sight_blocks((sorted(game.board.hexes)[0], 1, 2), [])
    assert game.stash[kn.SIGHT_ANSWERS] is kept


def test_fpd_199_a_listing_lists_what_checks_made_one_by_one_list(monkeypatch: Any) -> None:
    """Firepower 6.2, 12 (FPD-199): the Advanced listing with the Basic answers handed on lists
    exactly what it lists checking every choice afresh, and keeps nothing after it."""
    for at in (3, 9, 15):
        game = _street_fight(at)
        got = advanced_impulses.legal_advanced_actions(game)
        assert game.stash.get(actions._LISTED) is None

        class NoListing:
            def __init__(self, game: Game) -> None:
                pass

            def __enter__(self) -> None:
                pass

            def __exit__(self, *exc: object) -> None:
                pass

        with monkeypatch.context() as mp:
            mp.setattr(advanced_impulses, "listing", NoListing)
            assert advanced_impulses.legal_advanced_actions(game) == got


def test_fpd_199_an_answer_is_handed_out_once() -> None:
    """FPD-199: the answer of the listing's Basic check goes to the first fuller check alone;
    a second check of the same choice is made afresh."""
    game = _street_fight(3)
    with actions.listing(game):
        opts = actions.legal_actions(game)
        choice = next(o for o in opts if isinstance(o, dict))
        first = actions.listed_check(game, choice)
        second = actions.listed_check(game, choice)
        assert first is not second
        assert first.keys() == second.keys()
    assert game.stash.get(actions._LISTED) is None


def test_fpd_200_soldiers_follow_every_write_to_a_unit() -> None:
    """FPD-200: the soldiers' views kept between calls follow each write to a unit's hex,
    facing or state (its revision)."""
    game = _street_fight(3)
    units = game.state.units
    u = next(u for u in units.values() if u.hex is not None and not u.state.get("tunnel"))
    before = soldiers_of(units)[u.id]
    assert soldiers_of(units)[u.id] == before
    u.facing = u.facing % 6 + 1
    assert soldiers_of(units)[u.id].facing == u.facing
    u.state["posture"] = "crouch" if before.posture != "crouch" else "prone"
    assert soldiers_of(units)[u.id].posture == u.state["posture"]
    u.state["status"] = "suppressed"
    assert soldiers_of(units)[u.id].status == "suppressed"
    u.state["eliminated"] = True
    assert u.id not in soldiers_of(units)


def test_fpd_201_the_modifier_sum_is_the_sum_of_the_modifiers() -> None:
    """Firepower 6.3.6.2 (FPD-201): the AI's sum of the Basic firing modifiers is the total of
    the modifiers the fire procedure lists, for every cover, posture, speed, status, fence and
    hedge part and line of trees."""
    hexes = [Hex(q, r) for q in range(0, 7) for r in range(-3, 7)]
    m = FpMap.plain(hexes, cover={Hex(2, 1): "tree", Hex(3, 1): "rough", Hex(4, 0): "scrub",
                                  Hex(2, 2): "tree", Hex(5, 0): "tree"},
                    pictures=[Picture("fence", Hex(4, 2), 1, 4), Picture("hedge", Hex(1, 3), 2, 5),
                              Picture("hedge", Hex(3, 2), 3, 6), Picture("fence", Hex(5, 1), 2, 5)])
    spots = [Hex(0, 2), Hex(4, 2), Hex(1, 3), Hex(3, 1), Hex(5, 0), Hex(4, 0), Hex(6, 0),
             Hex(5, 1)]
    seen = set()
    for a, b in itertools.permutations(spots, 2):
        for fp, tp, speed, status, nc in itertools.product(
                ("stand", "prone"), ("stand", "crouch", "prone"), ("normal", "running"),
                (None, "suppressed"), (0, 2)):
            sides = [None, 1, 4] if b in m.fence or b in m.hedge else [None]
            for side in sides:
                firer = Soldier("f", "A", a, 1, "RFL", fp, "normal", status, None)
                target = Soldier("t", "B", b, 4, "RFL", tp, speed, None, side)
                los = basic_los(m, a, b, firer_posture=fp, target_posture=tp, target_side=side)
                want = total(combat.fire_modifiers(m, firer, target, los, nc))
                got = combat.fire_modifier_sum(m, firer, target, los, nc)
                assert got == want
                seen.add(got)
    assert len(seen) > 6


def _sides_as_before(m: Any, a: Hex, b: Hex) -> list[tuple[Hex, Hex]]:
    """The hexsides crossed as they were traced before FPD-205 (from ``a`` itself)."""
    from hexwar.plugins.firepower.advanced_terrain import _corners, side_key
    from hexwar.plugins.firepower.terrain import centre, intervening, segments_touch

    hexes = [a, *intervening(a, b), b]
    out: list[tuple[Hex, Hex]] = []
    pa, pb = centre(a), centre(b)
    seen: set[tuple[Hex, Hex]] = set()
    for h in hexes:
        for d in range(1, 7):
            n = h.neighbor(d)
            k = side_key(h, n)
            if k in seen or n not in hexes or n not in m.hexes or h not in m.hexes:
                continue
            seen.add(k)
            c1, c2 = _corners(h, d)
            if segments_touch(pa, pb, c1, c2):
                out.append(k)
    return out


@pytest.mark.parametrize("name", ["firepower:street-fight", "firepower:hill-assault"])
def test_fpd_205_sides_kept_per_offset_are_those_traced_from_the_ends(name: str) -> None:
    """Firepower 12.5 (FPD-205): the walled hexsides a line crosses, moved from the line out of
    ``(0, 0)``, are those traced from its own ends, in the same order, for lines all over the
    board (off the board's edge too), hexside-exact and corner-grazing ones among them."""
    from hexwar.plugins.firepower.advanced_terrain import adv_map

    game = Game(load_and_validate(_resolve_scenario_path(name)), seed=1)
    m = adv_map(game)
    rng = random.Random(5)
    hexes = sorted(game.board.hexes)
    pairs = [(rng.choice(hexes), rng.choice(hexes)) for _ in range(400)]
    a0 = hexes[len(hexes) // 2]
    pairs += [(a0, Hex(a0.q + dq, a0.r + dr)) for dq in range(-6, 7) for dr in range(-6, 7)]
    pairs += [(hexes[0], Hex(hexes[0].q - 3, hexes[0].r + 1))]
    crossing = 0
    for a, b in pairs:
        got = m.hexsides_crossed(a, b)
        assert got == _sides_as_before(m, a, b) == m.hexsides_crossed_traced(a, b), (a, b)
        crossing += bool(got)
    assert crossing > 100


@pytest.mark.parametrize("name", ["firepower:street-fight", "firepower:basic"])
def test_fpd_202_a_kept_procedure_is_the_one_its_edits_build(name: str) -> None:
    """Firepower 6.3, 12 (FPD-202): the fire procedures kept for the game have the steps that
    the rules' edits build afresh, one kept object for each kind."""
    from hexwar.plugins.firepower.hookspecs import FirepowerHooks

    game = Game(load_and_validate(_resolve_scenario_path(name)), seed=1)
    for kind in ("fire", "grenade"):
        got = actions.fire_procedure(game, kind)
        assert actions.fire_procedure(game, kind) is got
        fresh = combat.procedure(kind, FirepowerHooks.of(game).fire_steps(kind))
        assert [(s.name, s.run, s.rule) for s in got.steps] == \
            [(s.name, s.run, s.rule) for s in fresh.steps]
    assert actions.fire_procedure(game, "fire") is not actions.fire_procedure(game, "grenade")


def test_fpd_203_kept_set_up_zones_are_the_zones(fp_game: Any) -> None:
    """Firepower 2.4 (FPD-203): the kept zone of each board side lists the hexes
    ``in_setup_zone`` accepts, in the board's order, as new options every time."""
    from hexwar.plugins.firepower import setup, state

    game = fp_game([("A1", "RFL", "A", "C2", 4)])
    for bs in ("5/6", "2/3"):
        state.data(game)["board_side"] = {"A": bs, "B": "2/3" if bs == "5/6" else "5/6"}
        got = setup.placement_options(game, "A")
        want = [h for h in sorted(game.board.hexes) if setup.in_setup_zone(game, bs, h)]
        labels = list(dict.fromkeys(o["hex"] for o in got))
        assert labels == [state.fp_map(game).label(h) for h in want]
        got[0]["facing"] = 99
        assert setup.placement_options(game, "A")[0]["facing"] != 99


@pytest.mark.parametrize("name", ["firepower:basic", "firepower:street-fight"])
def test_fpd_206_static_line_of_plain_pairs_is_the_line_of_hexes(name: str) -> None:
    """Firepower 6.3.4 (FPD-206): what the terrain puts on a line, found on plain ``(q, r)``
    pairs, is what it is on the intervening hexes themselves: the same hills, fence and hedge
    pictures crossed and tree hexes, as hexes and in the line's order, and the same hexes for
    the friendly-soldiers check."""
    from hexwar.plugins.firepower.state import fp_map
    from hexwar.plugins.firepower.terrain import HILL, intervening

    game = Game(load_and_validate(_resolve_scenario_path(name)), seed=1)
    m = fp_map(game)
    rng = random.Random(11)
    hexes = sorted(game.board.hexes)
    met = 0
    for _ in range(600):
        a, b = rng.sample(hexes, 2)
        line = intervening(a, b)
        got = m.static_los(a, b)
        assert got.hills == tuple(h for h in line if m.level.get(h) == HILL)
        assert got.fences == tuple(h for h in line if h in m.fence
                                   and m.fence[h].crossed_by(a, b))
        assert got.trees == tuple(h for h in line if m.cover.get(h) == "tree")
        assert got.hedges == tuple(h for h in line if h in m.hedge
                                   and m.hedge[h].crossed_by(a, b))
        assert all(type(h) is Hex for h in (*got.hills, *got.fences, *got.trees, *got.hedges))
        assert got.hexes == frozenset(line) and all(h in got.hexes for h in line)
        met += bool(got.hills or got.fences or got.trees or got.hedges)
    assert met > 50
