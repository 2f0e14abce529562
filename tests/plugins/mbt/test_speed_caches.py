"""The speed caches of the MBT movement search, sighting and AI give the answers of a fresh
computation, whatever was asked before (docs/decisions.md MBTD-186..)."""

from __future__ import annotations

import copy
from fractions import Fraction
from typing import Any

from hexwar.plugins.mbt import movement_costs
from hexwar.plugins.mbt.movement_costs import MoveContext
from hexwar.plugins.mbt.state import card_of, ctx
from hexwar.plugins.mbt.terrain import MapInfo


def _fresh(info: MapInfo) -> MapInfo:
    """The same board's facts with no search remembered."""
    own = copy.copy(info)
    own.move_succ, own.move_costs = {}, {}
    return own


def test_successor_lists_kept_between_searches_follow_each_context_8_4_8_5(make_game: Any) -> None:
    """MBT 8.4-8.5, Advanced MBT 15.6 (MBTD-186): the successor lists kept on the board's facts
    from one search do not leak into a search with an enemy, a wreck or a turret restriction, and
    those do not leak into a later search without them: each equals a search on fresh facts."""
    g = make_game([("N1", "Leopard 2", "NATO", "9J5", 1)], roads=[("9J5", "9J4"), ("9J4", "9J3")],
                  terrain={"9I5": "woods", "9K5": "woods"})
    u = g.state.units["N1"]
    card, info = card_of(g, u), ctx(g).info
    start, budget = (u.hex, u.facing, False), card.mf
    ahead, beyond = g.board.parse("9J4"), g.board.parse("9J3")
    contexts = [MoveContext(), MoveContext(enemies=frozenset({ahead})),
                MoveContext(wrecks=frozenset({beyond}), burning=frozenset({beyond})),
                MoveContext(extra={ahead: 3}), MoveContext(extra={ahead: None}),
                MoveContext(turret=2), MoveContext()]
    found = []
    for mctx in contexts:
        got = movement_costs.reach(card, info, start, budget, mctx)
        assert got == movement_costs.reach(card, _fresh(info), start, budget, mctx)
        found.append(got)
    # the contexts do change the answer, so the test would see an old one
    assert found[0] != found[1] and found[0] != found[2] and found[0] != found[3]
    assert (ahead, 1) not in found[4] and found[0] != found[5] and found[0] == found[6]
    # and in the other order: a search with an enemy first, then one without
    info2 = _fresh(info)
    movement_costs.reach(card, info2, start, budget, contexts[1])
    assert movement_costs.reach(card, info2, start, budget, MoveContext()) == found[0]


def test_fractions_of_a_search_are_exact_8_1() -> None:
    """MBT 8.1 (MBTD-187): the kept Fractions of search costs are the exact values."""
    for k in (6, 12):
        f = movement_costs._fractions(k)
        assert [f(c) for c in range(40)] == [Fraction(c, k) for c in range(40)]


def test_sight_answers_kept_for_one_moment_only_6_1(make_game: Any) -> None:
    """MBT 6.1, 6.1.2, 6.1.3 (MBTD-189): while one decision's options are listed a viewer-target
    answer is kept; it follows a unit that stands elsewhere (as a passenger aboard its carrier),
    and nothing is kept once the moment is over (a viewer buttoned up since sights less far)."""
    from hexwar.plugins.mbt.sighting import one_moment, seen_by_side, sees

    probe = make_game([("N1", "Leopard 2", "NATO", "9J5", 1)])
    h = probe.state.units["N1"].hex
    for _ in range(5):
        h = h.neighbor(4)
    woods = probe.board.label(h)  # five hexes away: Open sights a unit in woods there, Buttoned not
    g = make_game([("N1", "Leopard 2", "NATO", "9J5", 1), ("W1", "T-80A", "Soviet", woods, 1)],
                  terrain={woods: "woods", "9J3": "woods", "9J2": "woods"})
    n1, w1 = g.state.units["N1"], g.state.units["W1"]
    near, far = w1.hex, g.board.parse("9J1")
    w1.hex = far
    assert not sees(g, n1, w1) and not seen_by_side(g, "NATO", w1)  # behind the woods
    w1.hex = near
    assert sees(g, n1, w1) and seen_by_side(g, "NATO", w1)
    with one_moment(g):
        assert sees(g, n1, w1) and seen_by_side(g, "NATO", w1)
        w1.hex = far  # standing elsewhere: asked afresh
        assert not sees(g, n1, w1) and not seen_by_side(g, "NATO", w1)
        home, w1.hex = n1.hex, g.board.parse("9J4")
        assert sees(g, n1, w1)
        n1.hex = far  # the viewer elsewhere, behind the woods: asked afresh
        assert not sees(g, n1, w1)
        n1.hex, w1.hex = home, near
        with one_moment(g):  # nested: the same moment
            assert sees(g, n1, w1) and seen_by_side(g, "NATO", w1)
    n1.state["open"] = False  # MBT 6.1.3: buttoned, woods at five hexes is out of sight
    assert not sees(g, n1, w1) and not seen_by_side(g, "NATO", w1)


def test_sight_letters_kept_per_card_and_lost_compartment_14_3_2(make_game: Any) -> None:
    """MBT 14.3.2, 14.3.3.1 (MBTD-188): the sight letters kept per card follow a compartment hit
    that takes the turret's sights, and each unit's card is its own type's."""
    from hexwar.plugins.mbt.advanced_sighting import unit_sights

    g = make_game([("N1", "M1A1", "NATO", "9J5", 1), ("N2", "Leopard 2", "NATO", "9J6", 1),
                   ("W1", "T-80A", "Soviet", "9J3", 4)], options=["mbt.advanced"])
    n1, n2, w1 = g.state.units["N1"], g.state.units["N2"], g.state.units["W1"]
    assert [card_of(g, u).name for u in (n1, n2, w1)] == ["M1A1", "Leopard 2", "T-80A"]
    whole = unit_sights(g, n1)
    n1.state["damage"]["compartment"] = "turret"
    hit = unit_sights(g, n1)
    ctx(g).sights.clear()
    assert hit == unit_sights(g, n1) and hit != whole
    n1.state["damage"]["compartment"] = None
    assert unit_sights(g, n1) == whole


def test_card_values_kept_with_the_card_follow_the_game_14_1_2(make_game: Any) -> None:
    """MBT 14.1.1.2, 14.1.2 (MBTD-190): the other ammunition kept with a card is asked per game
    kind (the cards are shared by the games of a process: an Advanced game's machinegun shots are
    no Basic game's), and a card made from another has its own values."""
    import dataclasses

    from hexwar.plugins.mbt import machineguns
    from hexwar.plugins.mbt.cards import derived
    from hexwar.plugins.mbt.hookspecs import MbtHooks

    adv = make_game([("N1", "M1A1", "NATO", "9J5", 1)], options=["mbt.advanced"])
    basic = make_game([("N1", "M1A1", "NATO", "9J5", 1)])
    card = card_of(adv, adv.state.units["N1"])
    assert card is card_of(basic, basic.state.units["N1"])  # one card object for both games
    shots = MbtHooks.of(adv).other_ammo(adv.state.units["N1"], False)
    assert any(machineguns.SEP in a for a in shots)
    from hexwar.plugins.mbt.advanced import mbt_other_ammo

    assert not any(machineguns.SEP in a for a in mbt_other_ammo(basic, basic.state.units["N1"],
                                                                False))
    assert MbtHooks.of(adv).other_ammo(adv.state.units["N1"], False) == shots
    mgs = machineguns.machineguns(card)
    assert mgs
    bare = dataclasses.replace(card, weapons=tuple(w for w in card.weapons if w.main_gun))
    assert machineguns.machineguns(bare) == () and machineguns.machineguns(card) == mgs
    assert derived(bare) is not derived(card)


def test_a_lone_sighting_rule_is_called_straight_13_1(make_game: Any) -> None:
    """Advanced MBT 13.1 (MBTD-191): ``mbt_sees`` is called straight only when one plain
    implementation answers it; with a second rule, or a wrapper, pluggy decides as before."""
    import pluggy

    from hexwar.core.markers import PROJECT, hookimpl
    from hexwar.plugins.mbt import hookspecs
    from hexwar.plugins.mbt.hookspecs import MbtHooks, _lone_impl
    from hexwar.plugins.mbt.sighting import sees

    names = ("game", "viewer", "target", "moving")

    class Never:
        @hookimpl
        def mbt_sees(self, game: Any, viewer: Any, target: Any, moving: bool) -> bool:
            return False

    class Wrap:
        @hookimpl(hookwrapper=True)
        def mbt_sees(self, game: Any, viewer: Any, target: Any, moving: bool) -> Any:
            yield

    pm = pluggy.PluginManager(PROJECT)
    pm.add_hookspecs(hookspecs)
    one = Never()
    pm.register(one)
    assert _lone_impl(pm.hook.mbt_sees, names) == one.mbt_sees
    assert _lone_impl(pm.hook.mbt_sees, ("game", "viewer", "target")) is None
    pm.register(Never())
    assert _lone_impl(pm.hook.mbt_sees, names) is None
    pm2 = pluggy.PluginManager(PROJECT)
    pm2.add_hookspecs(hookspecs)
    pm2.register(Wrap())  # a wrapper alone: pluggy's to call
    assert _lone_impl(pm2.hook.mbt_sees, names) is None
    # in an Advanced game the one rule answers as through pluggy
    g = make_game([("N1", "Leopard 2", "NATO", "9J5", 1), ("W1", "T-80A", "Soviet", "9J3", 4)],
                  options=["mbt.advanced"])
    n1, w1 = g.state.units["N1"], g.state.units["W1"]
    via = g.pm.hook.mbt_sees(game=g, viewer=n1, target=w1, moving=False)
    assert MbtHooks.of(g).sees(n1, w1, False) == via and sees(g, n1, w1) == via
    assert callable(MbtHooks.of(g).__dict__["_sees_direct"])


def test_list_per_cost_search_is_the_heap_search_8_1(make_game: Any) -> None:
    """MBT 8.1-8.5 (MBTD-192): the movement search with one list per cost settles the states of
    the core heap search in the same order, with the same costs and parents (every dict equal,
    keys in the same order), from any start, with free turns (0-cost steps), a road, woods, an
    enemy and a wreck about, a budget too small to move, and one already overspent (MBT 8.4.4:
    a unit may enter one hex whatever it costs, so what is left can be below zero)."""
    from hexwar.core.movement import reachable_tree

    g = make_game([("N1", "Leopard 2", "NATO", "9J5", 1)], roads=[("9J5", "9J4"), ("9J4", "9J3")],
                  terrain={"9I5": "woods", "9K5": "woods", "9J7": "rough"})
    u = g.state.units["N1"]
    card, info = card_of(g, u), ctx(g).info
    assert 0 in card.turn_costs  # a free turn: 0-cost steps join the list being read
    mi = movement_costs.move_index(info)
    k = movement_costs.scale_of(card)
    near = g.board.parse("9J4")
    for mctx in (MoveContext(), MoveContext(enemies=frozenset({near})),
                 MoveContext(wrecks=frozenset({near}), burning=frozenset({near}))):
        succ = movement_costs.int_successors(card, info, mctx)
        for i in range(0, len(mi.hexes), 7):
            for code in (i * 12, i * 12 + 5):
                for limit in (-3, -1, 0, 3, int(card.mf * k)):
                    heap = reachable_tree(code, limit, succ)
                    lists = movement_costs.int_tree(code, limit, succ)
                    for a, b in zip(heap, lists, strict=True):
                        assert list(a.items()) == list(b.items())


def test_overrun_reach_kept_per_search_inputs_14_7_1_2(make_game: Any) -> None:
    """MBT 14.7.1.2 (MBTD-193): the hexes an overrun search reaches, kept for the game, answer as
    a fresh search after the vehicle turned, moved or changed order, and after an enemy came to
    stand on its road; the memo is the game's and bounded."""
    from hexwar.plugins.mbt import overrun
    from hexwar.plugins.mbt.movement import move_context, movement_allowance

    g = make_game([("N1", "Leopard 2", "NATO", "9J5", 1), ("W1", "T-80A", "Soviet", "9A1", 1)],
                  roads=[("9J5", "9J4"), ("9J4", "9J3"), ("9J3", "9J2")],
                  terrain={"9I5": "woods", "9K5": "woods"}, options=["mbt.advanced"])
    u, w = g.state.units["N1"], g.state.units["W1"]
    hexes = sorted(g.board.hexes, key=lambda h: (h.q, h.r))

    def fresh(target: Any) -> bool:
        assert u.hex is not None
        found = movement_costs.reach(card_of(g, u), ctx(g).info, (u.hex, u.facing, False),
                                     movement_allowance(g, u), move_context(g, u),
                                     first_hex_rule=True)
        return any(h == target for h, _f in found)

    answers = []
    for change in (None, ("facing", 4), ("hex", "9J4"), ("order", "FM"), ("enemy", "9J3")):
        if change is not None:
            what, value = change
            if what == "facing":
                u.facing = value
            elif what == "hex":
                u.hex = g.board.parse(value)
            elif what == "order":
                u.state["order"] = value
            else:
                w.hex = g.board.parse(value)
        got = [overrun._reachable(g, u, h) for h in hexes]
        assert got == [fresh(h) for h in hexes]
        answers.append(got)
    assert len({tuple(a) for a in answers}) == len(answers)  # each change changed the answer
    memo = g.stash.get(overrun.REACHED)
    assert memo is not None and 0 < len(memo) <= overrun.REACHED_LIMIT


def _every_declaration(game: Any, side: str, targets: list[Any], orders: tuple[str, ...],
                       overwatch: bool) -> list[Any]:
    """The declarations of MBT 7.3.2 listed the long way: every unit of the side, every one of
    its ammunition types asked of ``fire_error`` for every target."""
    from hexwar.plugins.mbt.fire import ammo_options, best_ammo, fire_error
    from hexwar.plugins.mbt.hookspecs import MbtHooks
    from hexwar.plugins.mbt.state import alive

    options: list[Any] = []
    for t in targets:
        if not alive(t):
            continue
        group = []
        for f in game.state.units_of(side):
            legal = [a for a in ammo_options(game, f)
                     if fire_error(game, f, t, a, orders=orders, overwatch=overwatch) is None]
            options += [{"target": t.id, "shots": [[f.id, a]]} for a in legal]
            if legal:
                group.append([f.id, best_ammo(game, f, t, overwatch=overwatch,
                                              legal_only=tuple(legal))[0]])
        if len(group) > 1:
            options.append({"target": t.id, "shots": group})
    return MbtHooks.of(game).fire_options(side, options)


def test_declarations_list_each_firers_ammunition_once_7_3_2(make_game: Any) -> None:
    """MBT 7.3.2, 6.2.4, 14.1.2, 15.3.4 (MBTD-194): the declarations listed with each unit's
    ammunition found once, and the shots of a destroyed unit and the main gun shots of a unit
    without the orders left unasked, are those listed asking every unit every shot: a unit with F
    orders, one with M orders (its machineguns are asked), a destroyed one, a passenger."""
    from hexwar.plugins.mbt import transport
    from hexwar.plugins.mbt.fire import declaration_options

    g = make_game([("N1", "M1A1", "NATO", "9J5", 4), ("N2", "M1A1", "NATO", "9I5", 4),
                   ("N3", "Leopard 2", "NATO", "9K5", 4), ("C1", "Transport APC", "NATO", "9J6", 4),
                   ("S1", "Rifle Squad", "NATO", "9J6", 4),
                   ("W1", "T-80A", "Soviet", "9J2", 1), ("W2", "Motor Rifle Squad", "Soviet",
                                                         "9I2", 1)],
                  options=["mbt.advanced"])
    units = g.state.units
    c1, s1 = units["C1"], units["S1"]
    c1.state["order"] = s1.state["order"] = "M"
    transport.load(g, c1, s1)
    units["N1"].state["order"] = "F"
    units["N2"].state["order"] = "M"
    units["N3"].state.update(order="F", destroyed="KO")
    c1.state.update(order="F", open=True)
    s1.state["order"] = "F"
    targets = [units["W1"], units["W2"]]
    for orders, overwatch in ((("F", "FM"), False), (("OW",), True), (("M",), False)):
        got = declaration_options(g, "NATO", targets, orders=orders, overwatch=overwatch)
        assert got == _every_declaration(g, "NATO", targets, orders, overwatch)
    assert any(s[0][0] == "S1" for o in declaration_options(
        g, "NATO", targets, orders=("F", "FM"), overwatch=False) for s in [o["shots"]])


def test_a_blocked_line_of_sight_answers_first_13_2(make_game: Any) -> None:
    """Advanced MBT 13.1-13.2 (MBTD-195): with the lines of sight already traced, every viewer and
    target answers as with none traced: a blocked line says no before the range is read, a clear
    one still needs the range (buttoned at Night) and a suppressed viewer's arc."""
    from hexwar.plugins.mbt.advanced_sighting import LOS_CACHE, sees

    g = make_game([("N1", "M1A1", "NATO", "9J8", 1), ("W1", "T-80A", "Soviet", "9J2", 4)],
                  terrain={"9J5": "woods", "9I5": "woods", "9K4": "woods", "9H6": "brick"},
                  heights={"9J3": 1, "9J2": 1}, options=["mbt.advanced"])
    n1, w1 = g.state.units["N1"], g.state.units["W1"]
    places = sorted(g.board.hexes, key=lambda h: (h.q, h.r))[::5]
    setups = [{}, {"open": False}, {"suppressed": True}]

    def answers() -> list[bool]:
        out = []
        for state in setups:
            n1.state.update({"open": True, "suppressed": None} | state)
            for h in places:
                w1.hex = h
                out.append(sees(g, n1, w1, False))
        return out

    g.stash.pop(LOS_CACHE, None)
    first = answers()  # traces every line
    assert len(g.stash.get(LOS_CACHE) or {}) > 0
    again = answers()  # every line known now
    g.stash.pop(LOS_CACHE, None)
    assert first == again == answers() and True in first and False in first


def test_ai_goal_distance_is_the_plain_sum_and_follows_the_goals() -> None:
    """MBTD-87, MBTD-196: the AI's kept distance to its goals is the one worked out plainly
    (nearest open objective, or the enemy less ``close_to``, never below 0), for goals changed
    between two questions and with no objective or no enemy left."""
    import random

    from hexwar.core.hexgrid import Hex
    from hexwar.plugins.mbt.ai import MbtAI

    ai = MbtAI("NATO", 1)
    rng = random.Random(3)

    def some(n: int) -> list[Hex]:
        return [Hex(rng.randrange(-20, 20), rng.randrange(-20, 20)) for _ in range(n)]

    for objs, enemy in ((some(3), some(30)), (some(2), some(30)), ([], some(5)), (some(4), []),
                        ([], [])):
        for h in some(60) + objs + enemy:
            plain = min([h.distance(o) for o in objs]
                        + [max(0, h.distance(e) - ai.close_to) for e in enemy], default=0)
            assert ai._goal_distance(h, objs, enemy) == plain
            assert ai._goal_distance(h, objs, enemy) == plain  # kept


def test_kept_successor_lists_are_not_tracked_by_the_collector_8_1(make_game: Any) -> None:
    """MBT 8.1 (MBTD-192): the successor lists a game keeps are tuples of integers, which the
    cyclic collector stops tracking: they do not push a game towards a full collection."""
    import gc

    g = make_game([("N1", "Leopard 2", "NATO", "9J5", 1)])
    u = g.state.units["N1"]
    card, info = card_of(g, u), ctx(g).info
    movement_costs.reach(card, info, (u.hex, u.facing, False), card.mf, MoveContext())
    kept = [steps for table in info.move_succ.values() for steps in table.values()]
    assert len(kept) > 100
    assert all(type(s) is tuple and all(type(p) is tuple and type(p[0]) is int
                                        and type(p[1]) is int for p in s) for s in kept)
    gc.collect()
    gc.collect()  # a tuple is let go once its items were
    assert sum(gc.is_tracked(s) for s in kept) < len(kept) // 10


def _brewup_traced(burning: set[Any], a: Any, b: Any) -> int:
    """MBT 7.4.2.3.3 counted on the line traced from ``a`` to ``b`` itself (before MBTD-197)."""
    from hexwar.core.hexgrid import trace

    count = 0
    counted: set[Any] = set()
    for st in trace(a, b).steps:
        hs = [h for h in st.hexes if h in burning and h not in counted]
        if len(st.hexes) == 2 and all(h in burning for h in st.hexes):
            if any(h not in counted for h in st.hexes):
                count += 1
            counted |= set(st.hexes)
        elif hs:
            count += len(hs)
            counted |= set(hs)
    return count


def test_brewup_hexes_on_lines_kept_per_offset_7_4_2_3_3(make_game: Any,
                                                         monkeypatch: Any) -> None:
    """MBT 7.4.2.3.3 (MBTD-197): the brewed-up wreck hexes a line meets, counted on the line of
    its offset moved to its start, are those counted on the line traced from its own ends, for
    lines in every direction (along hexsides and through corners too) and wrecks anywhere."""
    import random

    from hexwar.plugins.mbt import fire

    g = make_game([("N1", "Leopard 2", "NATO", "9J5", 1)])
    hexes = sorted(g.board.hexes)
    rng = random.Random(7)
    checked = 0
    for _ in range(40):
        burning = set(rng.sample(hexes, 25))
        monkeypatch.setattr(fire, "wreck_hexes", lambda game, w=burning: dict.fromkeys(w, "burning"))
        for _ in range(25):
            a, b = rng.sample(hexes, 2)
            want = _brewup_traced(burning, a, b)
            assert fire.brewup_hexes(g, a, b) == want
            checked += want > 0
    assert checked > 50  # most lines met a wreck: the counting was exercised
