"""The MBT AI in the Advanced Game takes hull-down positions and fires from them (MBT 13.2.2;
docs/decisions.md MBTD-153), and weighs a Soviet doctrine organization's one order over every
member's shots (MBT 13.4.3.1)."""

from __future__ import annotations

from typing import Any

from hexwar.core.engine.decisions import Decision
from hexwar.plugins.mbt.ai import MbtAI
from hexwar.plugins.mbt.state import data

ADV = ["mbt.advanced"]
IP = {"9J2": "improved_position"}  # MBT 12.4.5, 13.2.2.1.2: a vehicle in it is hull down


def _game(make_game: Any, terrain: dict[str, str] | None = None,
          soviets: tuple[str, ...] = ("A",)) -> Any:
    units = [(sid, "T-72M1", "Soviet", f"9{c}2", 4) for sid, c in zip(soviets, "JKL", strict=False)]
    g = make_game([*units, ("B", "Leopard 1A4", "NATO", "9J14", 1)], options=ADV,
                  terrain=terrain or {})
    g.state.units["B"].state["spotted"] = "FIRED"  # seen (MBT 13.1)
    sighted = data(g).setdefault("sighted", {})
    for sid in soviets:
        sighted[sid] = ["B"]
    return g


def _order(g: Any, ai: MbtAI, members: list[str]) -> Any:
    from hexwar.plugins.mbt.orders import legal_orders

    d = Decision("Soviet", "mbt.order", options=legal_orders(g, g.state.units[members[0]]),
                 context={"unit": members[0], "members": members})
    return ai.choose(d, g.view("Soviet"))


def test_a_hull_down_vehicle_stays_and_fires_13_2_2(make_game: Any) -> None:
    """MBT 13.2.2.1.2, 13.2.2.3: in an improved position the tank is hull down to the enemy it
    sees; with a shot it would otherwise close on the move for (FM, MBTD-97), it takes F."""
    ai = MbtAI("Soviet", 0)
    ai.stand_p = 0.99  # every shot "poor": the AI would close on the move
    open_ground, dug_in = _game(make_game), _game(make_game, IP)
    assert not open_ground.view("Soviet").rules.hull_down("A", open_ground.state.units["A"].hex, "B")
    assert dug_in.view("Soviet").rules.hull_down("A", dug_in.state.units["A"].hex, "B")
    assert _order(open_ground, ai, ["A"]) == "FM"
    assert _order(dug_in, ai, ["A"]) == "F"


def test_the_ai_prefers_a_hull_down_hex_13_2_2(make_game: Any) -> None:
    """MBT 13.2.2.3 (MBTD-153): a hex where the vehicle would be hull down to an enemy in sight
    scores ``hull_down_weight`` more than the same hex counted without it."""
    g = _game(make_game, IP)
    view = g.view("Soviet")
    ai = MbtAI("Soviet", 0)
    u = view.unit("A")
    assert u.hex is not None
    enemies = [view.unit("B")]
    ai._goals = ai._move_goals(view, u)
    with_hd, _w = ai._hex_score(view, u, u.hex, enemies)
    ai.hull_down_weight = 0.0
    without, _w = ai._hex_score(view, u, u.hex, enemies)
    assert with_hd == without + 0.6
    ai._goals = None  # the Basic Game's scoring has no hull down
    ai.hull_down_weight = 0.6
    basic, _w = ai._hex_score(view, u, u.hex, enemies)
    ai.hull_down_weight = 0.0
    assert ai._hex_score(view, u, u.hex, enemies)[0] == basic


def test_a_doctrine_order_is_weighed_over_all_members_shots_13_4_3_1(make_game: Any) -> None:
    """MBT 13.4.3.1 (MBTD-153): the organization's one order is weighed over every member's
    shots (the mean of their best shots): with the leader's turret turned away from the enemy,
    its two members' shots still earn the organization F orders, where the leader's shot alone
    gave none."""
    g = _game(make_game, soviets=("A1", "A2", "A3"))
    for sid in ("A1", "A2", "A3"):
        g.state.units[sid].state["doctrine"] = "101"
    data(g).pop("doctrine", None)
    g.state.units["A1"].state["turret"] = 1  # MBT 7.2.1: B is outside the leader's arc
    view = g.view("Soviet")
    ai = MbtAI("Soviet", 0)
    enemies = [view.unit("B")]
    leader = ai._group_p(view, [view.unit("A1")], enemies)
    member = ai._group_p(view, [view.unit("A2")], enemies)
    org = ai._group_p(view, [view.unit(s) for s in ("A1", "A2", "A3")], enemies)
    assert leader == 0.0 < member
    assert org == (0.0 + member + ai._group_p(view, [view.unit("A3")], enemies)) / 3
    assert _order(g, ai, ["A1"]) != "F"  # the leader's shot alone: no fire order
    assert _order(g, ai, ["A1", "A2", "A3"]) == "F"
