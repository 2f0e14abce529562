"""MBT 13.4.3.1 EXCEPTION: a doctrine organization crosses a bridge one vehicle at a time
(docs/decisions.md MBTD-124)."""

from __future__ import annotations

from typing import Any

from hexwar.plugins.mbt import doctrine
from hexwar.plugins.mbt.advanced_movement import move_one
from hexwar.plugins.mbt.state import data

ADV = ["mbt.advanced"]
ROAD = [("9J10", "9J9"), ("9J9", "9J8"), ("9J8", "9J7"), ("9J7", "9J6")]
FEATURES = {"9J10": ["road"], "9J9": ["road"], "9J8": ["road", "stream", "bridge"],
            "9J7": ["road"], "9J6": ["road"]}


def _platoon(make_game: Any) -> Any:
    g = make_game([("101a", "T-72M1", "Soviet", "9J10", 1), ("101b", "T-72M1", "Soviet", "9J10", 1),
                   ("101c", "T-72M1", "Soviet", "9J10", 1)], options=ADV, roads=ROAD,
                  features=FEATURES)
    for i in ("101a", "101b", "101c"):
        g.state.units[i].state.update(doctrine="101", order="M")
    data(g).pop("doctrine", None)
    return g


def _answer(g: Any, a: Any, goal: str) -> Any:
    def answer(d: Any) -> Any:
        if d.kind == "mbt.move_to" and g.board.label(a.hex) == "9J10":
            return [goal, 1]
        return "stay" if "stay" in (d.options or []) else (d.options or [None])[0]

    return answer


def test_the_members_wait_while_the_leader_is_on_the_bridge_13_4_3_1(
        make_game: Any, run: Any, monkeypatch: Any) -> None:
    """MBT 13.4.3.1: moving over the bridge at J8, the leader is alone on it (the others wait at
    J9, so an overwatch shot at the bridge finds one vehicle there); as it goes on to J7 they cross
    after it one at a time and the organization is together again."""
    g = _platoon(make_game)
    a, b, c = (g.state.units[i] for i in ("101a", "101b", "101c"))
    states: list[tuple[str, list[str]]] = []
    orig = doctrine.follow

    def spy(game: Any, u: Any) -> None:
        orig(game, u)
        if u is a:
            states.append((g.board.label(a.hex), sorted(g.board.label(m.hex) for m in (b, c))))

    monkeypatch.setattr(doctrine, "follow", spy)
    run(move_one(g, a), _answer(g, a, "9J7"))
    assert ("9J9", ["9J9", "9J9"]) in states
    assert ("9J8", ["9J9", "9J9"]) in states  # alone on the bridge
    assert states[-1] == ("9J7", ["9J7", "9J7"])
    assert all(m.hex == a.hex and m.facing == a.facing for m in (b, c))
    assert not any(m.state.get("bridge_wait") for m in (b, c))
    crossed = [e for e in g.log.for_side(None) if e.get("type") == "bridge_crossing"]
    assert [e["order"] for e in crossed] == [["101b", "101c"]]
    assert crossed[0]["rule"] == "MBT 13.4.3.1"


def test_a_move_ending_on_the_bridge_closes_up_and_off_the_road_is_the_stream_13_4_3_1(
        make_game: Any, run: Any) -> None:
    """MBT 13.4.3.1 (MBTD-124): a move that ends on the bridge ends with the organization
    together, the others having crossed onto it after the leader; a bridge hex entered other than
    along the road is the stream (MBT 8.6), not a crossing, and the others follow at once."""
    g = _platoon(make_game)
    a, b, c = (g.state.units[i] for i in ("101a", "101b", "101c"))
    run(move_one(g, a), _answer(g, a, "9J8"))
    assert g.board.label(a.hex) == "9J8"
    assert b.hex == a.hex and c.hex == a.hex
    assert not any(m.state.get("bridge_wait") for m in (b, c))
    # off the road: from I8 into the bridge hex J8 is the stream
    a.hex = b.hex = c.hex = g.board.parse("9I8")
    a.state["prev"] = "9I8"
    a.hex = g.board.parse("9J8")
    assert not doctrine.on_bridge(g, a)
    a.state["prev"] = "9J9"
    assert doctrine.on_bridge(g, a)
