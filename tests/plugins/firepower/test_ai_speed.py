"""The Firepower AI's figures kept between decisions (docs/decisions.md FPD-192, FPD-193) give
what a fresh AI works out: each field of the two soldiers they hang on, and the terrain."""

from __future__ import annotations

from typing import Any

from hexwar.core.engine.decisions import Decision
from hexwar.plugins.firepower import state
from hexwar.plugins.firepower.ai import FirepowerAI, make_ai
from hexwar.plugins.firepower.soldiers import Soldier

HEXES = [{"at": "C6", "terrain": "tree"}, {"at": "D5", "terrain": "tree"},
         {"at": "E6", "terrain": "rough"}, {"at": "C4", "terrain": "scrub"}]


def _fresh(side: str, view: Any, me: Soldier, theirs: list[Soldier]) -> tuple[Any, float, float]:
    """What a new AI, with nothing kept, works out for ``me`` against ``theirs``."""
    ai = make_ai(side, 0)
    ai.choose(Decision(side, "board_side", options=["2/3"]), view)  # its per-decision set-up
    return ([(e.id, t) for e, t in ai._threats(view, me, theirs)],
            ai._threat(view, me, theirs), ai._offense(view, me, theirs))


def _kept(ai: FirepowerAI, view: Any, me: Soldier, theirs: list[Soldier]
          ) -> tuple[Any, float, float]:
    ai._memo = {}  # a new decision: only the game-long figures (FPD-192) carry over
    return ([(e.id, t) for e, t in ai._threats(view, me, theirs)],
            ai._threat(view, me, theirs), ai._offense(view, me, theirs))


def test_fpd_192_kept_pair_figures_follow_every_field_of_both_soldiers(fp_game: Any) -> None:
    """Firepower 6.3.3, 6.3.4, 6.3.6.2 (FPD-192): one AI asked of the same soldiers in every
    posture, speed, status, facing, hex and fence part in turn answers each time what a fresh AI
    answers, so no figure kept for one state is handed back for another."""
    game = fp_game([("A1", "LMG", "A", "C2", 4), ("A2", "RFL", "A", "E2", 4),
                    ("B1", "RFL", "B", "C8", 1), ("B2", "PST", "B", "D7", 1)], hexes=HEXES)
    view = game.view("A")
    ai = make_ai("A", 0)
    ai.choose(Decision("A", "board_side", options=["2/3"]), view)
    sol, _mine, theirs = ai._sol(view)
    me0 = sol["A1"]
    m = state.fp_map(game)
    variants = [me0, me0.with_(posture="crouch"), me0.with_(posture="prone"),
                me0.with_(speed="running"), me0.with_(status="suppressed"),
                me0.with_(facing=1), me0.with_(hex=m.parse("1C5")),
                me0.with_(weapon="PST"), me0.with_(hex=m.parse("1E5"))]
    enemy = [theirs, [e.with_(posture="prone") for e in theirs],
             [e.with_(facing=4) for e in theirs], [e.with_(status="suppressed") for e in theirs],
             [e.with_(speed="running") for e in theirs],
             [e.with_(status="stunned") for e in theirs],
             [e.with_(hex=m.parse("1D6")) for e in theirs]]
    seen = set()
    for them in enemy:
        for me in variants:
            got = _kept(ai, view, me, them)
            assert got == _fresh("A", view, me, them), (me, them)
            seen.add(repr(got))
    assert len(seen) > 8  # the variants do change the figures


def test_fpd_192_a_new_terrain_starts_the_kept_figures_afresh(fp_game: Any) -> None:
    """Firepower 8.7 (FPD-192): a crater placed under B1 is rough terrain, cover from the fire
    at him (Firepower 6.3.6.2.2): the game's map is a new one, and the AI that worked out A1's
    chance at B1 before works it out again."""
    game = fp_game([("A1", "RFL", "A", "C2", 4), ("B1", "RFL", "B", "C6", 1)])
    ai = make_ai("A", 0)
    view = game.view("A")
    ai.choose(Decision("A", "board_side", options=["2/3"]), view)
    sol, _mine, theirs = ai._sol(view)
    before = ai._offense(view, sol["A1"], theirs)
    state.data(game)["craters"] = {"1C6": 1}
    view = game.view("A")
    ai.choose(Decision("A", "board_side", options=["2/3"]), view)
    assert state.fp_map(game).rough(sol["B1"].hex)
    after = ai._offense(view, sol["A1"], theirs)
    assert after < before
    assert after == _fresh("A", view, sol["A1"], theirs)[2]


def test_fpd_193_with_gives_what_dataclasses_replace_gives() -> None:
    """FPD-193: :meth:`Soldier.with_` copies as :func:`dataclasses.replace` does (equal, same
    hash, the original unchanged) and refuses a field a soldier has not."""
    import dataclasses

    import pytest

    from hexwar.core.hexgrid import Hex

    s = Soldier("A1", "A", Hex(2, 3), 4, "LMG", "crouch", "normal", None, 2)
    for kw in ({"facing": 1}, {"posture": "prone", "hex": Hex(3, 3)}, {"fence_side": None},
               {"speed": "running", "status": "stunned"}, {}):
        t = s.with_(**kw)
        want = dataclasses.replace(s, **kw)
        assert t == want and hash(t) == hash(want) and type(t) is Soldier
        assert dataclasses.astuple(t) == dataclasses.astuple(want)
    assert s == Soldier("A1", "A", Hex(2, 3), 4, "LMG", "crouch", "normal", None, 2)
    with pytest.raises(TypeError):
        s.with_(bogus=1)
    with pytest.raises(dataclasses.FrozenInstanceError):
        s.with_(facing=2).facing = 3  # type: ignore[misc]


class _CountedRule:
    """A stand-in optional rule with one Action, counting the calls of its hook."""

    def __init__(self) -> None:
        from hexwar.core.types import PluginManifest

        self.PLUGIN = PluginManifest("firepower.countrule", "firepower", "rule", "count rule",
                                     "for tests", implements=("Firepower 11.1",))
        self.calls = 0

    from hexwar.core.markers import hookimpl

    @hookimpl
    def firepower_action_types(self) -> list[Any]:
        from hexwar.plugins.firepower.actions import ActionType

        self.calls += 1

        def check(game: Any, ph: dict[str, Any], choice: dict[str, Any]) -> dict[str, Any]:
            return {"cost": 1}

        def options(game: Any, ph: dict[str, Any], uid: str) -> list[dict[str, Any]]:
            return [{"unit": uid, "act": "wave"}]

        return [ActionType("wave", check, lambda g, p, i: None, options, rule="Firepower 11.1")]


def test_fpd_194_action_types_are_asked_once_a_game_and_each_game_its_own(fp_game: Any) -> None:
    """Firepower 6.2, 11.1 (FPD-194): the optional rules' kinds of Action are asked once a game,
    however many Actions are checked and listed; a game without the rule lists none of them
    (nothing kept from the game before), and one with it lists them again."""
    from hexwar.plugins.firepower import actions, impulses

    units = [("A1", "RFL", "A", "C2", 4), ("A2", "RFL", "A", "E2", 4), ("B1", "RFL", "B", "C9", 1)]

    def listed(g: Any) -> list[Any]:
        impulses.start_impulse_phase(g, "A")
        impulses.begin_impulse(g, ["A1", "A2"])
        return [o for o in actions.legal_actions(g) + actions.legal_actions(g)
                if isinstance(o, dict) and o.get("act") == "wave"]

    rule = _CountedRule()
    g1 = fp_game(units, options=("firepower.countrule",), local_plugins=(rule,))
    assert len(listed(g1)) == 4 and rule.calls == 1
    g2 = fp_game(units, local_plugins=(_CountedRule(),))  # offered, not enabled
    assert listed(g2) == []
    rule3 = _CountedRule()
    g3 = fp_game(units, options=("firepower.countrule",), local_plugins=(rule3,))
    assert len(listed(g3)) == 4 and rule3.calls == 1


def test_fpd_204_kept_sums_are_per_set_of_enemies_and_match_a_fresh_ai(fp_game: Any) -> None:
    """FPD-204: the Basic threat and offense of a position are kept for the game per set of
    enemies: asked again in a later decision they come from the kept sums, and a set with one
    enemy moved or turned is a new set, worked out afresh (and as a fresh AI works it out)."""
    game = fp_game([("A1", "LMG", "A", "C2", 4), ("B1", "RFL", "B", "C8", 1),
                    ("B2", "PST", "B", "D7", 1)], hexes=HEXES)
    view = game.view("A")
    ai = make_ai("A", 0)
    ai.choose(Decision("A", "board_side", options=["2/3"]), view)
    sol, _mine, theirs = ai._sol(view)
    me = sol["A1"]
    first = _kept(ai, view, me, theirs)
    assert ai._sum_memo is not None
    sums = ai._sum_memo[2]
    assert len(sums) == 2  # the threat and the offense of A1 against B1 and B2
    assert _kept(ai, view, me, list(theirs)) == first  # the same enemies in a new list
    assert len(sums) == 2
    m = state.fp_map(game)
    for them in ([theirs[0].with_(hex=m.parse("1C4")), theirs[1]],
                 [theirs[0].with_(facing=4), theirs[1]], [theirs[1], theirs[0]]):
        assert _kept(ai, view, me, them) == _fresh("A", view, me, them)
    assert len(ai._sum_memo[1]) == 4  # four sets of enemies seen
