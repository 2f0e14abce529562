"""The Firepower AI makes sensible choices in set pieces."""

from __future__ import annotations

from typing import Any

from hexwar.core.engine.decisions import Decision
from hexwar.plugins.firepower import actions, impulses, state, victory
from hexwar.plugins.firepower.ai import make_ai


def ask_action(game: Any, side: str, *units: str) -> Any:
    impulses.start_impulse_phase(game, side)
    impulses.begin_impulse(game, units)
    opts = actions.legal_actions(game)
    d = Decision(side, "action", options=opts)
    return make_ai(side, 0).choose(d, game.view(side))


def test_ai_melees_at_favourable_odds(fp_game: Any) -> None:
    g = fp_game([("A1", "RFL", "A", "C2", 4), ("A2", "RFL", "A", "C2", 4),
                 ("A3", "RFL", "A", "C2", 4), ("B1", "PST", "B", "C3", 1, {"posture": "prone"})])
    choice = ask_action(g, "A", "A1", "A2", "A3")
    assert choice["act"] in ("melee", "fire", "grenade")
    # three against one Prone in a tree hex: shots hardly hit, melee wins nine times in ten
    g2 = fp_game([("A1", "RFL", "A", "C2", 4), ("A2", "RFL", "A", "C2", 4),
                  ("A3", "RFL", "A", "C2", 4), ("B1", "PST", "B", "C3", 1, {"posture": "prone"})],
                 hexes=[{"at": "C3", "terrain": "tree"}])
    choice = ask_action(g2, "A", "A1", "A2", "A3")
    assert choice == {"act": "melee", "units": ["A1", "A2", "A3"], "hex": "1C3"}


def test_ai_does_not_melee_at_bad_odds(fp_game: Any) -> None:
    g = fp_game([("A1", "PST", "A", "C2", 4), ("B1", "RFL", "B", "C3", 1),
                 ("B2", "RFL", "B", "C3", 1), ("B3", "RFL", "B", "C3", 1)])
    choice = ask_action(g, "A", "A1")
    assert choice == "end" or choice["act"] != "melee"


def test_ai_throws_a_grenade_at_a_stack(fp_game: Any) -> None:
    prone = {"posture": "prone"}
    g = fp_game([("A1", "PST", "A", "C2", 4), ("B1", "RFL", "B", "C6", 1, prone),
                 ("B2", "RFL", "B", "C6", 1, prone), ("B3", "RFL", "B", "C6", 1, prone)],
                hexes=[{"at": "C6", "terrain": "tree"}])
    choice = ask_action(g, "A", "A1")
    assert choice["act"] == "grenade" and choice["hex"] == "1C6"


def test_ai_fires_at_a_good_target(fp_game: Any) -> None:
    g = fp_game([("A1", "LMG", "A", "C2", 4), ("B1", "RFL", "B", "C12", 1),
                 ("B2", "RFL", "B", "C12", 1)])
    choice = ask_action(g, "A", "A1")
    assert choice["act"] == "fire" and choice["mode"] == "auto"
    assert sorted(choice["targets"]) == ["B1", "B2"]


def test_ai_gets_down_when_exposed(fp_game: Any) -> None:
    g = fp_game([("A1", "RFL", "A", "C2", 1), ("B1", "LMG", "B", "C8", 1),
                 ("B2", "RFL", "B", "D8", 1), ("B3", "RFL", "B", "B8", 1)])
    # A1 faces away and cannot shoot back; the enemy can hit him: he turns, goes down or moves
    choice = ask_action(g, "A", "A1")
    assert choice != "end"
    assert choice["act"] in ("posture", "turn", "enter")
    if choice["act"] == "posture":
        assert choice["to"] in ("crouch", "prone")


def test_ai_sets_up_in_cover() -> None:
    from hexwar.core.testing import make_game
    from hexwar.plugins.firepower.plugin import HERE

    g = make_game(HERE / "scenarios" / "basic.toml", seed=4)
    ai = {s: make_ai(s, 4) for s in ("A", "B")}
    while g.pending is not None and g.pending.kind in ("board_side", "place"):
        d = g.pending
        g.answer(ai[d.side].choose(d, g.view(d.side)))
    m = state.fp_map(g)
    covered = [u for u in g.state.units.values() if m.cover[u.hex] in ("tree", "rough", "scrub")]
    assert len(covered) >= 6


def test_terminal_explanation_of_actions(fp_game: Any) -> None:
    from hexwar.plugins.firepower.plugin import hexwar_explain_decision

    g = fp_game([("A1", "RFL", "A", "C2", 4), ("B1", "RFL", "B", "C8", 1)])
    impulses.start_impulse_phase(g, "A")
    impulses.begin_impulse(g, ["A1"])
    d = Decision("A", "action", options=actions.legal_actions(g), prompt="act",
                 rule="Firepower 6.2")
    text = hexwar_explain_decision(g.view("A"), d)
    assert text is not None
    assert "A1 RFL in 1C2" in text and "4 MF left" in text
    assert "fire semi at B1 +0, range 6, hit number 5" in text
    assert "enter 1C3 (1 MF)" in text and "end this Impulse" in text


def _numbered(text: str) -> dict[int, str]:
    out = {}
    for line in text.splitlines():
        head, dot, rest = line.strip().partition(". ")
        if dot and head.isdigit():
            out[int(head)] = rest
    return out


def test_the_explanation_numbers_options_as_the_terminal_reads_them(fp_game: Any) -> None:
    """Options are numbered from 1, and typing a number at the terminal picks the option that
    the explanation shows under it (through the core's explain hook, host-dispatched)."""
    import io

    from hexwar.core.engine.controllers import TerminalController

    g = fp_game([("A1", "RFL", "A", "C2", 4), ("B1", "RFL", "B", "C8", 1)])
    impulses.start_impulse_phase(g, "A")
    impulses.begin_impulse(g, ["A1"])
    options = actions.legal_actions(g)
    d = Decision("A", "action", options=options, prompt="act", rule="Firepower 6.2")
    view = g.view("A")
    text = g.hooks.explain_decision(view, d)
    numbers = _numbered(text)
    assert sorted(numbers) == list(range(1, len(options) + 1))
    assert numbers[len(options)] == "end this Impulse" and options[-1] == "end"
    pick = next(n for n, words in numbers.items() if words.startswith("A1: enter"))
    out = io.StringIO()
    terminal = TerminalController("A", stdin=io.StringIO(f"{pick}\n"), stdout=out,
                                  explain=g.hooks.explain_decision)
    choice = terminal.choose(d, view)
    assert choice == options[pick - 1] == {"unit": "A1", "act": "enter"}
    assert f"{pick:>3}. A1: enter 1C3 (1 MF)" in out.getvalue()


def test_every_kind_of_firepower_decision_is_explained_from_1(fp_game: Any) -> None:
    from hexwar.plugins.firepower.explain import explain_decision

    g = fp_game([("A1", "RFL", "A", "C2", 4), ("A2", "LMG", "A", "C2", 4),
                 ("B1", "RFL", "B", "C8", 1)])
    side = Decision("A", "board_side", options=["5/6", "2/3"], prompt="Pick",
                    rule="Firepower 2.2")
    assert _numbered(explain_decision(g, side)) == {
        1: "set up along side 5/6 of the mapboard", 2: "set up along side 2/3 of the mapboard"}
    impulses.start_impulse_phase(g, "A")
    opts = [*impulses.impulse_options(g, "A"), "pass"]
    imp = _numbered(explain_decision(g, Decision("A", "impulse", options=opts, prompt="Choose",
                                                 rule="Firepower 6.1")))
    assert imp[1] == "1C2: A1 RFL, A2 LMG" and imp[len(opts)].startswith("pass")
    places = [{"hex": f"1C{r}", "facing": 2, "posture": "stand"} for r in range(1, 16)] * 5
    text = explain_decision(g, Decision("A", "place", options=places, prompt="Set up",
                                        rule="Firepower 2.4"))
    assert min(_numbered(text)) == 1 and _numbered(text)[1] == "1C1 facing hexside 2, stand"
    assert "15 more" in text


def _run_impulse(game: Any, side: str, units: tuple[str, ...], **weights: Any) -> list[Any]:
    from hexwar.plugins.firepower.ai import FirepowerAI

    impulses.start_impulse_phase(game, side)
    impulses.begin_impulse(game, units)
    ai = FirepowerAI(side, 0, **weights)
    done: list[Any] = []
    while True:
        opts = actions.legal_actions(game)
        choice = ai.choose(Decision(side, "action", options=opts), game.view(side))
        if choice == "end":
            return done
        actions.apply_action(game, choice)
        done.append(choice)


def test_ai_plans_a_turn_and_a_dash_past_the_fold_in_the_last_turn(fp_game: Any) -> None:
    # Firepower 7: a survivor beyond the fold scores 3 VP. A1 faces away from the fold (column H
    # of the test panel); turning (1 MF) then entering three hexes (Firepower 6.2.1) takes him past it.
    g = fp_game([("A1", "RFL", "A", "F5", 5), ("B1", "RFL", "B", "P15", 5, {"posture": "prone"})],
                hexes=[{"at": "P15", "terrain": "tree"}])
    state.data(g)["board_side"] = {"A": "5/6", "B": "2/3"}
    g.state.turn = g.scenario.turns
    done = _run_impulse(g, "A", ("A1",))
    assert done and done[0]["act"] == "turn"
    u = g.state.units["A1"]
    assert u.hex is not None and victory.beyond_fold(g, "5/6", u.hex)
    assert victory.victory_points(g)["A"] == 3
