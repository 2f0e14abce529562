"""The attacker in the defender's tunnels (Firepower 11.5 with Firepower 8.8.7 and Firepower
8.8.8), on stand-in panel 4: the caves of 4Y13 (back 4X13) and 4V13 (back 4W13); the defender's
tunnel runs 4X13, 4W13, 4W12."""

from __future__ import annotations

import json
from typing import Any

from hexwar.core.engine.game import Game
from hexwar.plugins.firepower import hidden_setup as hs
from hexwar.plugins.firepower import tunnels as tn
from hexwar.plugins.firepower.state import data
from tests.plugins.firepower.test_terrain import _do, _game, _impulse, _label, _refused

TUNNELS = ["4X13", "4W13", "4W12"]


def _setup(*extra: tuple[Any, ...]) -> Game:
    """A1 (attacker, crouching) in 4Z12 facing the cave of 4Y13; D1 (defender) in the tunnel
    hex 4W13."""
    game = _game([("A1", "RFL", "A", "Z12", 5, {"posture": "crouch"}),
                  ("D1", "RFL", "B", "W13", 1, {"posture": "crouch", "tunnel": True}),
                  *extra], extra="tunnels = 4")
    hs.secret(game, "B")["tunnels"] = list(TUNNELS)
    return game


def _fresh(game: Game, *uids: str) -> None:
    """A new Impulse Phase for the attacker's soldiers (their MF back)."""
    _impulse(game, *uids)


def _a_text(game: Game) -> str:
    view = game.view("A")
    return json.dumps([view.events()[1:], view.system_state], sort_keys=True)


def test_entering_a_cave_tells_the_attacker_the_tunnel_hexes_next_to_it_and_nothing_else() -> None:
    """Firepower 11.5: entering the cave of 4Y13 reveals the tunnel hex 4X13 behind it, empty, to
    side A alone; entering 4X13 reveals 4W13 and that it holds soldiers, not who or how."""
    game = _setup()
    _fresh(game, "A1")
    assert tn.known(game, "A") == {}
    _do(game, {"unit": "A1", "act": "enter"})
    assert _label(game, "A1") == "4Y13"
    assert tn.known(game, "A") == {"4X13": {"kind": "tunnel", "soldiers": False}}
    ev = [e for e in game.log.events if e.get("type") == "tunnel_reveal"]
    assert len(ev) == 1 and ev[0]["visible_to"] == ["A"]
    assert not any(e.get("type") == "tunnel_reveal" for e in game.view("B").events())
    assert game.view("A").system_state["secret"]["tunnels_known"] == tn.known(game, "A")
    _fresh(game, "A1")
    _do(game, {"unit": "A1", "act": "tunnel"})
    assert _label(game, "A1") == "4X13" and game.state.units["A1"].state["tunnel"] is True
    got = tn.known(game, "A")
    assert got["4W13"] == {"kind": "tunnel", "soldiers": True}  # D1 is there
    assert got["4Y13"] == {"kind": "cave", "soldiers": False}
    assert "4W12" not in got  # not next to a hex entered
    reveal = [e for e in game.view("A").events() if e.get("type") == "tunnel_reveal"][-1]
    assert set(reveal) <= {"type", "visible_to", "unit", "hex", "hexes", "rule", "seq", "turn",
                           "phase", "t"}
    assert all(set(h) == {"hex", "kind", "soldiers"} for h in reveal["hexes"])
    assert "D1" not in game.view("A").units


def test_the_defender_knows_the_attackers_tunnel_hex_numbers_but_not_posture_or_facing() -> None:
    """Firepower 11.5: the attacker's soldiers in tunnels are hex numbers in the defender's view
    and log (a public event) and nothing more; the Action itself stays the attacker's."""
    game = _setup()
    _fresh(game, "A1")
    _do(game, {"unit": "A1", "act": "enter"})
    _fresh(game, "A1")
    _do(game, {"unit": "A1", "act": "tunnel"})
    view = game.view("B")
    assert view.system_state["attacker_in_tunnels"] == {"A1": "4X13"}
    assert "A1" not in view.units  # posture and facing not shown
    hexes = [e for e in view.events() if e.get("type") == "tunnel_hex"]
    assert [(e["unit"], e["hex"]) for e in hexes] == [("A1", "4X13")]
    assert "posture" not in hexes[0] and "facing" not in hexes[0]
    assert not any(e.get("type") == "action" and e.get("unit") == "A1" and e.get("act") == "tunnel"
                   for e in view.events())
    assert game.view("A").system_state["attacker_in_tunnels"] == {"A1": "4X13"}


def test_the_attacker_enters_only_tunnel_hexes_he_was_told_of() -> None:
    """Firepower 11.5: A2, set up crouching in the cave of 4V13 facing the real tunnel hex 4W13,
    may not go down until his side has been told of it; an unknown hex is refused with the rule
    and nothing changes."""
    game = _setup(("A2", "RFL", "A", "V13", 2, {"posture": "crouch"}))
    data(game)["phase"] = None
    hs.secret(game, "B")["tunnels"] = ["4X13", "4W13", "4W12"]
    game.state.units["D1"].hex = game.board.parse("4W12")  # out of the way
    _fresh(game, "A2")
    _refused(game, {"unit": "A2", "act": "tunnel"}, "Firepower 11.5")
    _fresh(game, "A1")
    _do(game, {"unit": "A1", "act": "enter"})
    _fresh(game, "A1")
    _do(game, {"unit": "A1", "act": "tunnel"})  # in 4X13: 4W13 revealed
    _fresh(game, "A2")
    _do(game, {"unit": "A2", "act": "tunnel"})
    assert _label(game, "A2") == "4W13"
    # from 4W13 the side learnt 4W12 (with D1 in it): entering it stops A2 there (FPD-119)
    assert tn.known(game, "A")["4W12"] == {"kind": "tunnel", "soldiers": True}
    _fresh(game, "A2")
    game.state.units["A2"].facing = 1
    assert _do(game, {"unit": "A2", "act": "enter"})["stopped"] is True
    assert _label(game, "A2") == "4W13"
    # A1 in 4X13 faces 4X14, no tunnel hex: refused under Firepower 11.5
    _fresh(game, "A1")
    game.state.units["A1"].facing = 4
    _refused(game, {"unit": "A1", "act": "enter"}, "Firepower 11.5")


def test_the_attacker_crouches_or_goes_prone_and_four_soldiers_fill_a_tunnel_hex() -> None:
    """Firepower 8.8.8 for the attacker: a Standing soldier and a fifth soldier of the side are
    refused, with the rule and the state unchanged."""
    four = [(f"A{i}", "RFL", "A", "X13", 2, {"posture": "prone", "tunnel": True})
            for i in range(2, 6)]
    game = _setup(("S1", "RFL", "A", "Y13", 5, {}), *four)
    _fresh(game, "A1")
    _do(game, {"unit": "A1", "act": "enter"})  # into the cave: 4X13 told of
    _fresh(game, "S1")
    _refused(game, {"unit": "S1", "act": "tunnel"}, "Firepower 8.8.8")  # Standing
    _fresh(game, "A1")
    _refused(game, {"unit": "A1", "act": "tunnel"}, "Firepower 8.8.8")  # a fifth soldier
    game.state.units["A5"].hex = game.board.parse("4Y13")
    game.state.units["A5"].state.pop("tunnel")
    _do(game, {"unit": "A1", "act": "tunnel"})  # three there now: he goes down
    assert _label(game, "A1") == "4X13"


def test_the_attackers_view_and_log_never_show_a_tunnel_hex_not_revealed() -> None:
    """Hidden information (Firepower 8.8.8, 11.5): as A1 goes down into the tunnel hex by hex,
    side A's view and log name only the tunnel hexes revealed to it so far."""
    game = _setup()
    game.state.units["D1"].hex = None  # an empty tunnel, to walk it through
    for h in TUNNELS:
        assert h not in _a_text(game)
    steps: list[dict[str, Any]] = [{"act": "enter"}, {"act": "tunnel"}, {"act": "enter", "face": 6}]
    for step in steps:
        _fresh(game, "A1")
        if "face" in step:
            game.state.units["A1"].facing = step["face"]
        _do(game, {"unit": "A1", "act": step["act"]})
        told = set(tn.known(game, "A"))
        text = _a_text(game)
        for h in TUNNELS:
            assert (h in text) == (h in told), (h, told)
    assert set(tn.known(game, "A")) == {"4X13", "4Y13", "4W13", "4W12", "4V13"}
    assert game.view("A").system_state["secret"].get("tunnels") is None


def test_the_tunnel_events_in_words() -> None:
    """The log reads the attacker's tunnel events (Firepower 11.5)."""
    from hexwar.plugins.firepower.words import describe_event

    game = _setup()
    _fresh(game, "A1")
    _do(game, {"unit": "A1", "act": "enter"})
    _fresh(game, "A1")
    _do(game, {"unit": "A1", "act": "tunnel"})
    said = [describe_event(game, e) for e in game.log.events
            if e.get("type") in ("tunnel_reveal", "tunnel_hex")]
    assert any(s and "tunnel 4X13 empty" in s and "Firepower 11.5" in s for s in said), said
    assert any(s and "tunnel 4W13 with soldiers" in s for s in said), said
    assert any(s and "is in the tunnel hex 4X13" in s for s in said), said


def test_underground_the_surface_soldiers_are_not_met_but_a_held_cave_is_not_entered() -> None:
    """Firepower 8.8.8, 6.2.1: A1 in the tunnel hex 4X13 moves on to 4W13 under a defender
    standing on it; coming up into a cave held by the defender is refused (melee only)."""
    game = _setup(("D2", "RFL", "B", "W13", 1, {}), ("D3", "RFL", "B", "Y13", 1, {}))
    game.state.units["D1"].hex = None
    a1 = game.state.units["A1"]
    a1.hex, a1.state["tunnel"], a1.facing = game.board.parse("4X13"), True, 2
    hs.secret(game, "A")["tunnels_known"] = {"4X13": {"kind": "tunnel", "soldiers": False},
                                             "4W13": {"kind": "tunnel", "soldiers": False}}
    _fresh(game, "A1")
    _refused(game, {"unit": "A1", "act": "tunnel"}, "Firepower 6.2.1")  # D3 in the cave
    a1.facing = 6
    _do(game, {"unit": "A1", "act": "enter"})
    assert _label(game, "A1") == "4W13" and a1.state["tunnel"] is True


class _Scripted:
    """Side B records the tunnel 4X13-4W13-4W12; side A takes A1 into the cave of 4Y13 and down
    the tunnel; anything else is the Firepower AI's."""

    def __init__(self, side: str) -> None:
        from hexwar.plugins.firepower.ai import make_ai

        self.side, self.ai, self.name = side, make_ai(side, 5), f"tunnel-{side}"

    def choose(self, decision: Any, view: Any) -> Any:
        opts = list(decision.options or [])
        if decision.kind == "firepower.tunnels":
            return {"tunnels": list(TUNNELS)}
        if self.side == "A" and decision.kind == "impulse":
            for o in opts:
                if isinstance(o, dict) and "A1" in (o.get("units") or []):
                    return o
        if self.side == "A" and decision.kind == "action":
            a1 = view.unit("A1")
            for o in opts:
                if isinstance(o, dict) and o.get("unit") == "A1" and (
                        (o.get("act") == "tunnel" and not a1.state.get("tunnel"))
                        or (o.get("act") == "enter" and a1.hex is not None
                        and view.board.label(a1.hex) == "4Z12")):
                    return o
        return self.ai.choose(decision, view)


def test_a_played_game_never_shows_the_attacker_a_tunnel_hex_not_revealed() -> None:
    """Hidden information in a played Turn (Firepower 8.8.8, 11.5): at every decision, no tunnel
    hex the attacker has not been told of is in his view's state or in a log record that is not
    his own soldiers' Action; and he does get into the tunnel."""
    game = _game([("A1", "RFL", "A", "Z12", 5, {"posture": "crouch"}),
                  ("D1", "RFL", "B", "C5", 2, {})], extra="tunnels = 4")
    leaks: list[tuple[str, str]] = []

    def check(g: Game) -> None:
        told = set(tn.known(g, "A"))
        view = g.view("A")
        events = [e for e in view.events()[1:]
                  if not (e.get("type") == "action" and e.get("unit") == "A1"
                          and not g.state.units["A1"].state.get("tunnel"))]
        text = json.dumps([events, view.system_state], sort_keys=True)
        leaks.extend((h, str(sorted(told))) for h in TUNNELS if h in text and h not in told)

    game.play({"A": _Scripted("A"), "B": _Scripted("B")}, on_decision=check)
    assert hs.secret(game, "B")["tunnels"] == TUNNELS
    assert "4X13" in tn.known(game, "A"), "A1 never went into the cave"
    assert any(e.get("type") == "tunnel_hex" for e in game.log.events)
    assert leaks == []
