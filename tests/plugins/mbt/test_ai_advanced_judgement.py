"""The MBT AI weighs Advanced Game shots as the rules fire them (docs/decisions.md MBTD-152): its
AP kill chance takes the Advanced modifiers of MBT 14.3.1 (the ``mbt_ap_modifiers`` hook: firer
suppressed, grade, crew losses...), and its orders look at the arc the weapon fires in
(MBT 14.2.1), not always the turret's."""

from __future__ import annotations

from typing import Any

from hexwar.core.engine.controllers import RandomController
from hexwar.core.engine.decisions import Decision
from hexwar.core.errors import RulesError
from hexwar.core.testing import make_game as make_scenario
from hexwar.plugins.mbt.ai import MbtAI
from hexwar.plugins.mbt.ap_fire import kill_probability
from hexwar.plugins.mbt.fire import situation
from hexwar.plugins.mbt.hookspecs import MbtHooks
from hexwar.plugins.mbt.state import ctx

ADV = ["mbt.advanced"]
UNITS = [("A", "T-72M1", "Soviet", "9J2", 4), ("B", "Leopard 1A4", "NATO", "9J8", 1)]


def _game(make_game: Any, options: Any = ADV) -> Any:
    g = make_game(UNITS, options=options)
    g.state.units["B"].state["spotted"] = "FIRED"  # seen (MBT 13.1)
    g.state.units["A"].state["order"] = "F"
    return g


def _p(g: Any) -> float:
    return float(g.view("Soviet").rules.kill_probability("A", "B", "125mm", "APFSDS"))


def test_the_ais_kill_chance_takes_the_advanced_modifiers_14_3_1(make_game: Any) -> None:
    """MBT 14.3.1.1.2, 14.3.1.1.4, 14.3.1.3: a suppressed firer, a crew loss and a poor grade
    lower the AI's AP kill chance, a crack grade raises it, as they do the shot itself."""
    g = _game(make_game)
    base = _p(g)
    a = g.state.units["A"]
    for change, lower in (({"suppressed": "ON"}, True), ({"crew_losses": 1}, True),
                          ({"grade": "poor"}, True), ({"grade": "crack"}, False)):
        a.state.update(change)
        p = _p(g)
        assert (p < base) if lower else (p > base), (change, p, base)
        for k in change:
            a.state.pop(k)
    assert _p(g) == base


def test_the_ais_kill_chance_is_the_shots_own_14_3_1(make_game: Any) -> None:
    """The AI's number is the one the fire procedure's own modifiers give (the same hook the
    Direct Fire Step adds to the shot, MBT 14.3.1)."""
    g = _game(make_game)
    a, b = g.state.units["A"], g.state.units["B"]
    a.state.update(suppressed="ON", grade="poor")
    s = situation(g, a, "125mm", "APFSDS", b)
    s.extra_modifiers = tuple(MbtHooks.of(g).ap_modifiers(s, a, b))
    assert s.extra_modifiers
    assert _p(g) == kill_probability(ctx(g).charts, s)


def test_the_basic_games_kill_chance_is_unchanged(make_game: Any) -> None:
    """MBT 7.4: the Basic Game has no such modifiers: suppression state is not read."""
    g = _game(make_game, options=())
    base = _p(g)
    g.state.units["A"].state["suppressed"] = "ON"
    assert _p(g) == base


def test_an_order_looks_at_the_weapons_own_arc_14_2_1(make_game: Any) -> None:
    """MBT 14.2.1: a leg unit's small arms fire all round (360); the AI gives a squad with an
    enemy squad behind it F orders, where the turret arc alone said it had no shot."""
    g = make_game([("A", "Motor Rifle Squad", "Soviet", "9J5", 1),
                   ("B", "Squad Standard Infantry [PZF-44]", "NATO", "9J7", 1)], options=ADV)
    g.state.units["B"].state["spotted"] = "FIRED"
    view = g.view("Soviet")
    a = view.unit("A")
    assert a.hex is not None and view.unit("B").hex is not None
    ai = MbtAI("Soviet", 1)
    assert ai._in_arc(view, a, view.unit("B").hex)
    a.state["turret"] = 1  # the turret arc (a squad has none) would face away from B
    from hexwar.plugins.mbt.fire import in_turret_arc

    assert not in_turret_arc(a, view.unit("B").hex)
    assert ai._in_arc(view, a, view.unit("B").hex)


def _strict(ai: MbtAI, refused: list[str]) -> Any:
    """The AI, each answer checked as the engine checks it (a refusal is recorded)."""

    class Strict:
        name = "strict"

        def choose(self, d: Decision, view: Any) -> Any:
            choice = ai.choose(d, view)
            try:
                d.check(choice)
            except RulesError as exc:  # a refusal is the finding
                refused.append(f"{d.kind}: {exc}")
                return "pass" if "pass" in (d.options or []) else (d.options or [None])[0]
            return choice

    return Strict()


def test_the_ai_never_answers_what_the_rules_refuse() -> None:
    """MBT 7.3, 13.3 (MBTD-152): in whole Advanced games (both sides, doctrine platoons, squads,
    missiles on overwatch) every order, fire declaration and move the AI gives is one the rules
    accept."""
    refused: list[str] = []
    for scenario, seed in (("mbt:advanced-a", 1000), ("mbt:scenario-one-2", 1001)):
        g = make_scenario(scenario, seed=seed)
        g.play({"NATO": _strict(MbtAI("NATO", seed), refused),
                "Soviet": RandomController("Soviet", seed)})
        g = make_scenario(scenario, seed=seed)
        g.play({"NATO": RandomController("NATO", seed),
                "Soviet": _strict(MbtAI("Soviet", seed), refused)})
    assert refused == []
