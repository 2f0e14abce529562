"""Every decision of a game has a form on the web table: each system's own for its main
decision kinds, offering every legal option and nothing else, and the core's readable list for a
third-party system (the example plugin ``hexwar-skirmish``), never raw JSON."""

from __future__ import annotations

import re
from itertools import pairwise
from pathlib import Path

import pytest

from hexwar.core.engine.controllers import make_controller
from hexwar.core.engine.decisions import canonical
from hexwar.core.engine.game import Game
from hexwar.core.web.present import finish, generic_presentation, words

from .helpers import scenario

#: decision kinds each system presents with a form of its own
OWN_FORMS = {
    "firefight:scenario-7": {"firefight.deploy", "firefight.move", "firefight.step",
                             "firefight.direct_fire", "firefight.opportunity_fire",
                             "firefight.place_dummies"},
    "mbt:basic-a": {"mbt.place", "mbt.turret", "mbt.order", "mbt.move_unit", "mbt.move_to",
                    "mbt.fire"},
    "firepower:basic": {"board_side", "place", "impulse", "action"},
}
OPTIONS = {"firefight:scenario-7": ("firefight.observation", "firefight.dummies")}
#: the seed of each game: one whose first two turns reach every decision kind above (in
#: Firefight 7, opportunity fire within two turns)
SEEDS = {"firefight:scenario-7": 5}
JSONISH = re.compile(r'[{}\[\]"]')


def _forms(name: str, turns: int, limit: int = 400) -> dict[str, list[dict[str, object]]]:
    """Play ``name`` AI against AI; every decision's presentation, by kind."""
    options = OPTIONS.get(name, ())
    seed = SEEDS.get(name, 3)
    game = Game(scenario(name, turns=turns, options=options), seed=seed, options=options)
    offered = game.hooks.controllers()
    ais = {s: make_controller("ai", s, seed, offered) for s in game.state.sides}
    seen: dict[str, list[dict[str, object]]] = {}
    for _ in range(limit):
        d = game.pending
        if d is None:
            break
        view = game.view(d.side)
        form = finish(view, d, game.hooks.present_decision(view, d))
        generic = generic_presentation(view, d)
        form["generic"] = form["choices"] == finish(view, d, generic)["choices"]
        if form["widget"] == "choose":
            # every legal option is offered, and only those
            offered_choices = sorted(canonical(c["choice"]) for c in form["choices"])
            assert offered_choices == sorted(canonical(o) for o in d.options or ()), d.kind
        assert not JSONISH.search(str(form["title"])), (d.kind, form["title"])
        for c in form["choices"]:
            d.check(c["choice"])
            assert c["label"] and not JSONISH.search(c["label"]), (d.kind, c["label"])
        seen.setdefault(d.kind, []).append(form)
        game.answer(ais[d.side].choose(d, view))
    return seen


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(OWN_FORMS))
def test_each_system_presents_its_main_decisions(name: str) -> None:
    seen = _forms(name, turns=2)
    missing = OWN_FORMS[name] - set(seen)
    assert not missing, f"{name}: no game reached {missing}"
    for kind in OWN_FORMS[name]:
        assert any(not f["generic"] or f["notes"] for f in seen[kind]), kind


def test_firefight_steps_show_their_movement_cost() -> None:
    """Firefight 7.0: each next hex of a move shows the MP it costs."""
    from hexwar.plugins.firefight.movement import step_cost

    game = Game(scenario("firefight:scenario-1"), seed=3)
    offered = game.hooks.controllers()
    ais = {s: make_controller("ai", s, 3, offered) for s in game.state.sides}
    while (d := game.pending) is not None and d.kind != "firefight.step":
        game.answer(ais[d.side].choose(d, game.view(d.side)))
    assert d is not None
    view = game.view(d.side)
    form = game.hooks.present_decision(view, d)
    u = game.state.units[d.context["unit"]]
    assert u.hex is not None
    for c in form["choices"]:
        if isinstance(c["choice"], dict) and "to" in c["choice"]:
            cost = step_cost(game, game.board, u, u.hex, game.board.parse(c["choice"]["to"]))
            assert c["note"] == f"{cost:g} MP" and c["hex"] == c["choice"]["to"]


def test_a_third_party_system_gets_the_readable_list(tmp_path: Path) -> None:
    pytest.importorskip("hexwar_skirmish")
    seen = _forms("skirmish:crossroads", turns=2, limit=150)
    assert seen
    for forms in seen.values():
        for f in forms:
            assert f["generic"] and f["widget"] in ("choose", "text")


@pytest.mark.parametrize(("value", "text"), [
    ("pass", "pass"), (["3P3", 1], "3P3, facing 1"), ({"move": "t62-su1"}, "move t62-su1"),
    ({}, "as it is"), ([], "none"), ({"target": "S2", "shots": [["N1", "APFSDS"]]},
                                     "target S2; shots N1, APFSDS"),
])
def test_choices_in_words(value: object, text: str) -> None:
    assert words(value) == text


def test_mbt_fire_form_shows_the_hit_number_the_shot_uses() -> None:
    """MBT 7.4.3: the hit number a fire form shows is the one the shot then rolls against
    (here at targets whose orders the firer knows or that do not move)."""
    game = Game(scenario("mbt:basic-a"), seed=3)
    offered = game.hooks.controllers()
    ais = {s: make_controller("ai", s, 3, offered) for s in game.state.sides}
    checked = 0
    for _ in range(2000):
        d = game.pending
        if d is None or checked >= 3:
            break
        if d.kind == "mbt.fire" and len(d.options or ()) > 1:
            form = game.hooks.present_decision(game.view(d.side), d)
            shot = next(c for c in form["choices"] if isinstance(c["choice"], dict))
            assert shot["note"].startswith("H ") and any("MBT 7.4.2" in x for x in shot["detail"])
            game.answer(shot["choice"])
            firer = shot["choice"]["shots"][0][0]
            while (p := game.pending) is not None and p.kind == "mbt.hit_angle":
                game.answer(ais[p.side].choose(p, game.view(p.side)))
            reports = [r for r in game.log.events if r.get("what") == "AP point effect fire"
                       and r.get("firer") == firer and r.get("target") == shot["choice"]["target"]
                       and r.get("turn") == game.state.turn]
            if reports:  # resolved now (else later in the step, after other declarations)
                assert shot["note"] == f"H {reports[-1]['hit_number']}"
                checked += 1
            continue
        game.answer(ais[d.side].choose(d, game.view(d.side)))
    assert checked


def _all_options(system: str) -> tuple[str, ...]:
    """Every optional rule of ``system`` that can be played with the others (MBT's umpired
    game is a game of its own: tests/web/test_umpired.py)."""
    from hexwar.core.manager import options_of

    return tuple(sorted(n for n, p in options_of(system).items()
                        if p.manifest.kind == "rule" and n != "mbt.umpired"))


@pytest.mark.slow
@pytest.mark.parametrize(("name", "system"), [
    ("firefight:scenario-7", "firefight"), ("firefight:scenario-1", "firefight"),
    ("mbt:advanced-a", "mbt"), ("firepower:basic", "firepower"),
])
def test_every_decision_of_every_option_has_a_readable_form(name: str, system: str) -> None:
    """Issue 10: every decision kind reached in an AI game with every optional rule of the
    system on (MBT's Advanced Game with command control) has a form whose every label is in
    words, offering every legal option and nothing else (checked in ``_forms``)."""
    options = _all_options(system)
    saved = OPTIONS.get(name)
    OPTIONS[name] = options
    try:
        seen = _forms(name, turns=2, limit=1500)
    finally:
        if saved is None:
            OPTIONS.pop(name)
        else:
            OPTIONS[name] = saved
    assert seen
    if system == "mbt":  # the Advanced Game's decisions have MBT's own forms (MBT 12.6.1, 15.7.3)
        advanced = {"mbt.smoke", "mbt.exhaust", "mbt.initiative"} & set(seen)
        assert advanced, sorted(seen)
        for kind in advanced:
            assert all(f["notes"] and not f["generic"] for f in seen[kind]), kind
    if name == "firefight:scenario-7":  # indirect fire and mines (Firefight 8.2, 8.51, 18.0)
        for kind in {"firefight.if_request", "firefight.adjust", "firefight.mines"} & set(seen):
            assert all(f["notes"] and not f["generic"] for f in seen[kind]), kind


def test_mbt_moves_preview_the_route_with_its_cost() -> None:
    """MBT 8.1: hovering a destination shows the route there, each hex with the MF spent so
    far, ending at the hex's least cost (the note on it); each step is to a neighbouring hex."""
    game = Game(scenario("mbt:basic-a"), seed=3)
    offered = game.hooks.controllers()
    ais = {s: make_controller("ai", s, 3, offered) for s in game.state.sides}
    while (d := game.pending) is not None and d.kind != "mbt.move_to":
        game.answer(ais[d.side].choose(d, game.view(d.side)))
    assert d is not None
    form = finish(game.view(d.side), d, game.hooks.present_decision(game.view(d.side), d))
    paths = form["paths"]
    notes = {c["hex"]: c["note"] for c in form["choices"] if "hex" in c}
    assert set(paths) == set(notes) and len(paths) > 3
    from fractions import Fraction

    from hexwar.plugins.mbt.movement import move_context
    from hexwar.plugins.mbt.movement_costs import plan
    from hexwar.plugins.mbt.state import card_of, ctx

    start = game.board.parse(d.context["hex"])
    u = game.state.units[d.context["unit"]]
    left = Fraction(d.context["mf_left"])
    first = not u.state.get("moved") and u.state.get("order") in ("M", "OR")
    for label, steps in paths.items():
        assert steps[-1] == [label, notes[label]]
        hexes = [start, *(game.board.parse(h) for h, _ in steps)]
        assert all(b == a or b in a.neighbors() for a, b in pairwise(hexes))
        costs = [float(c.removesuffix(" MF")) for _, c in steps]
        assert costs == sorted(costs)
        # the route is the one the move then takes to that hex (in one of its facings)
        taken = []
        for o in d.options or ():
            if isinstance(o, list) and o[0] == label:
                path = plan(card_of(game, u), ctx(game).info, (u.hex, u.facing, False),
                            (game.board.parse(label), o[1]), left, move_context(game, u),
                            first_hex_rule=first)
                assert path is not None
                labels = [game.board.label(h) for (h, _f, _t), _c in path[1:]]
                taken.append([x for i, x in enumerate(labels) if i == 0 or labels[i - 1] != x])
        shown = [h for h, _ in steps]
        assert shown in taken or shown in [t[1:] for t in taken], (label, shown, taken)


def _first_form(name: str, kind: str, *, seed: int = 3, limit: int = 600,
                want: object = None) -> tuple[Game, object, dict[str, object]]:
    game = Game(scenario(name), seed=seed)
    offered = game.hooks.controllers()
    ais = {s: make_controller("ai", s, seed, offered) for s in game.state.sides}
    for _ in range(limit):
        d = game.pending
        assert d is not None
        if d.kind == kind:
            view = game.view(d.side)
            form = finish(view, d, game.hooks.present_decision(view, d))
            if want is None or want(form):  # type: ignore[operator]
                return game, d, form
        game.answer(ais[d.side].choose(d, game.view(d.side)))
    raise AssertionError(f"no {kind} form")


def test_firefight_moves_show_their_reach_with_the_least_cost_route() -> None:
    """Firefight 7.0 (CORE-84): every hex in reach costs at most the MP left, its cost is the
    sum of the Terrain Effects Chart steps along its route, each route step is adjacent to the
    last, the first is a step of the form, and no hex holds an enemy unit the side sees."""
    from hexwar.plugins.firefight.movement import step_cost

    game, d, form = _first_form("firefight:scenario-1", "firefight.step",
                                want=lambda f: any(len(r["route"]) > 2 for r in f["reach"]))
    u = game.state.units[d.context["unit"]]  # type: ignore[attr-defined]
    left = float(u.state["mp"])
    view = game.view(u.side)
    enemy = {tuple(v["hex"]) for v in view.units.values() if v.get("side") != u.side
             and v.get("hex") is not None}
    board = game.board
    reach = form["reach"]
    assert isinstance(reach, list) and reach
    for r in reach:
        here, spent = u.hex, 0.0
        assert here is not None
        for label, cost in r["route"]:
            h = board.parse(label)
            assert h in board.neighbors(here) and (h.q, h.r) not in enemy
            spent += step_cost(None, board, u, here, h)
            assert cost == f"{spent:g}"
            here = h
        assert r["cost"] == f"{spent:g}" and spent <= left
        choice = form["choices"][r["first"]]  # type: ignore[index]
        assert choice["hex"] == r["route"][0][0]
    # a cheaper way to the same hex would be a broken search: every neighbour pair agrees
    costs = {r["hex"]: float(r["cost"]) for r in reach}
    for r in reach:
        h = board.parse(r["hex"])
        for n in board.neighbors(h):
            if board.label(n) in costs:
                assert costs[r["hex"]] <= costs[board.label(n)] + step_cost(None, board, u, n, h) + 1e-9


def test_firepower_actions_show_each_soldiers_reach() -> None:
    """Firepower 6.2.1-6.2.2 (CORE-84): a soldier reaches a hex by turns and moves into the hex
    in front; the route's MF add up the chart's costs and never pass the MF he has left."""
    from hexwar.plugins.firepower.actions import mf_left
    from hexwar.plugins.firepower.state import phase_of, rules_card

    game, _d, form = _first_form("firepower:basic", "action",
                                want=lambda f: bool(f.get("reach")))
    reach = form["reach"]
    assert isinstance(reach, list)
    card = rules_card(game)
    for r in reach:
        uid = r.get("group") or next(c["choice"]["unit"] for c in form["choices"]  # type: ignore[index]
                                     if isinstance(c["choice"], dict) and "unit" in c["choice"])
        u = game.state.units[uid]
        posture = str(u.state.get("posture", "stand"))
        assert float(r["cost"]) <= mf_left(game, phase_of(game), uid)
        assert float(r["cost"]) >= len(r["route"]) * card.mf_cost("enter", posture)
        first = form["choices"][r["first"]]["choice"]  # type: ignore[index]
        assert first["unit"] == uid and first["act"] in ("enter", "turn")
        assert [float(c) for _h, c in r["route"]] == sorted(float(c) for _h, c in r["route"])


def test_mbt_fire_form_keeps_the_targets_secret_order() -> None:
    """MBT 6.2.1-6.2.2: an enemy's order stays face down until used; the fire form's preview
    (its hit number and the movement modifier, MBT 7.4.2.2) takes the target as the firing side
    knows it: a target whose order is not shown is not known to be moving, as the AI's own
    estimate does. A leak: seed 1 of basic-a has the Soviets fire at a NATO tank ordered to
    move before it has moved."""
    from hexwar.plugins.mbt.state import MOVING_ORDERS

    game = Game(scenario("mbt:basic-a"), seed=1)
    offered = game.hooks.controllers()
    ais = {s: make_controller("ai", s, 3, offered) for s in game.state.sides}
    checked = 0
    for _ in range(3000):
        d = game.pending
        if d is None:
            break
        if d.kind == "mbt.fire":
            view = game.view(d.side)
            form = finish(view, d, game.hooks.present_decision(view, d))
            for c in form["choices"]:
                target = c["choice"].get("target") if isinstance(c["choice"], dict) else None
                if target is None or game.state.units[target].state.get("order") \
                        not in MOVING_ORDERS:
                    continue
                shown = view.units[target]["state"].get("order")
                if shown in MOVING_ORDERS:
                    continue  # revealed: the side knows it moves
                checked += 1
                assert not any("vs MV" in line for line in c.get("detail", [])), c["detail"]
        game.answer(ais[d.side].choose(d, game.view(d.side)))
    assert checked, "no fire form at a target with a secret moving order"


def test_advanced_firepower_reach_keeps_to_doors_and_pays_snow_and_hexsides() -> None:
    """Firepower 11.1.3, 11.1.9, 11.1.4, 11.2.2 (FPD-186): in the Advanced Game a soldier's reach
    crosses a building's outer wall only through an open door or window on the ground floor, and
    its costs include the snow's extra and a height hexside's MF, as the Actions charge them."""
    from hexwar.plugins.firepower import weather
    from hexwar.plugins.firepower.advanced_terrain import adv_map, is_open
    from hexwar.plugins.firepower.present import _reach

    game, d, form = _first_form("firepower:street-fight", "action", limit=900,
                                want=lambda f: any(len(r["route"]) > 2
                                                   for r in f.get("reach", ())))
    m, board = adv_map(game), game.board
    starts = {c["choice"]["unit"]: game.state.units[c["choice"]["unit"]].hex
              for c in form["choices"]  # type: ignore[attr-defined]
              if isinstance(c["choice"], dict) and "unit" in c["choice"]}

    def crossings(reach: list[dict[str, object]]) -> int:
        n = 0
        for r in reach:
            here = starts[r.get("group") or next(iter(starts))]
            for label, _cost in r["route"]:
                h = board.parse(label)
                if m.wall_between(here, h):
                    o = m.opening(here, h, 1)
                    assert o is not None and is_open(game, o), (r["hex"], label)
                    n += 1
                here = h
        return n

    crossings(form["reach"])  # type: ignore[arg-type]
    # the same soldier's reach in snow: each hex costs at least the snow's extra more
    uid = next(iter(starts))
    view = game.view(d.side)  # type: ignore[attr-defined]
    clear = {r["hex"]: float(r["cost"]) for r in _reach(view, d, uid, form["choices"])}
    game.scenario.raw.setdefault("special", {})["weather"] = "snow"
    snow = {r["hex"]: float(r["cost"]) for r in _reach(view, d, uid, form["choices"])}
    extra = weather.extras()["snow"]["enter"]
    assert extra > 0 and snow and set(snow) <= set(clear)
    assert all(snow[h] >= clear[h] + extra for h in snow if not m.building_of.get(board.parse(h)))


def test_advanced_firepower_reach_goes_in_by_an_open_door_only() -> None:
    """Firepower 11.1.3, 11.1.9 (FPD-186): a soldier outside a building's door reaches the hexes
    inside through it while it is open (the crossing and the entering paid), not once it is
    closed, and never through the walls round it."""
    from hexwar.core.engine.decisions import Decision
    from hexwar.plugins.firepower.advanced_terrain import adv_map, direction, is_open
    from hexwar.plugins.firepower.present import _reach
    from hexwar.plugins.firepower.state import data, rules_card
    from tests.plugins.firepower.test_terrain import _game, _impulse

    game = _game([("A1", "RFL", "A", "Z4", 1, {})])
    board, m = game.board, adv_map(game)
    door, inside = board.parse("4Z4"), board.parse("4AA4")
    game.state.units["A1"].facing = direction(door, inside)
    _impulse(game, "A1")
    choices = [{"choice": {"unit": "A1", "act": "enter"}, "hex": "4AA4"},
               *({"choice": {"unit": "A1", "act": "turn", "to": f}} for f in range(1, 7))]
    d = Decision("A", "action", options=[c["choice"] for c in choices])
    card = rules_card(game)
    reach = {r["hex"]: r for r in _reach(game.view("A"), d, "A1", choices)}
    assert float(reach["4AA4"]["cost"]) == card.mf_cost("cross", "stand") + card.mf_cost(
        "enter", "stand")
    for r in reach.values():  # in by an opening, or not in at all
        here = door
        for label, _c in r["route"]:
            h = board.parse(label)
            if m.wall_between(here, h):
                o = m.opening(here, h, 1)
                assert o is not None and is_open(game, o)
            here = h
    keys = {o.key for o in m.openings_of(door)}
    data(game)["openings"] = dict.fromkeys(keys, "closed")
    shut = _reach(game.view("A"), d, "A1", choices)
    assert not any(m.building_of.get(board.parse(r["hex"])) for r in shut)
