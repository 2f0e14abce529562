"""MBT 14.7 with 13.4: overrun by a Soviet doctrine organization (docs/decisions.md MBTD-105,
MBTD-106). The platoon 101a-101c (T-72M1, one counter, MBT 13.4.2.3) overruns NATO leg units:
one announcement for all (MBT 13.4.3.2), one approach together (MBT 13.4.3.1), the members one at
a time (MBT 14.7.1.5) with the defensive fire only at the first (MBT 14.7.2.1), a defender
eliminated by an earlier member (MBT 14.7.1.2), several defenders in one hex (MBT 14.7.1.3), a
member stopped by first fire abandoned (MBT 13.4.2.5), a member that cannot fight moving in with
the rest (MBT 14.7.1.1)."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from hexwar.core.errors import HexwarError
from hexwar.plugins.mbt import doctrine, overrun
from hexwar.plugins.mbt.advanced_movement import overrun_step
from hexwar.plugins.mbt.advanced_orders import orders_phase
from hexwar.plugins.mbt.state import data

ADV = ["mbt.advanced"]
PLATOON = ("101a", "101b", "101c")


def _platoon(make_game: Any, *defenders: tuple[str, str, str]) -> Any:
    units = [(i, "T-72M1", "Soviet", "9J10", 1) for i in PLATOON]
    units += [(i, card, "NATO", where, 4) for i, card, where in defenders]
    g = make_game(units, options=ADV)
    for i in PLATOON:
        g.state.units[i].state["doctrine"] = "101"
    data(g).pop("doctrine", None)
    seen = [i for i, _c, _w in defenders]
    data(g)["sighted"] = {i: list(seen) for i in PLATOON}
    return g


def _state(g: Any) -> Any:
    return copy.deepcopy({k: (u.hex, u.state) for k, u in g.state.units.items()})


def _answer(announce: Any) -> Any:
    def pick(d: Any) -> Any:
        if d.kind == "mbt.move_unit":
            return next((o for o in d.options if o in PLATOON), "done")
        if d.kind == "mbt.overrun":
            return announce
        for o in ("done", "stay", "pass", "none"):
            if o in d.options:
                return o
        return d.options[0]

    return pick


def _fires(g: Any) -> list[tuple[str, str, str]]:
    return [(e["what"], e["firer"], e["target"]) for e in g.log.for_side(None)
            if e.get("what") in ("overrun defensive fire", "overrun fire")]


def _moved_into(g: Any, uid: str, label: str) -> bool:
    return any(e.get("type") == "moved" and e.get("unit") == uid and e.get("hex") == label
               and e.get("rule") == "MBT 14.7" for e in g.log.for_side(None))


def test_a_doctrine_organization_takes_or_orders_and_announces_once_13_4_3_2(
        make_game: Any, run: Any) -> None:
    """MBT 13.3, 13.4.3.2, 14.7.1.2: every member can be offered the overrun (a doctrine unit is
    no longer refused), the organization takes one OR order, and the Overrun Step offers only its
    leader, whose one announcement moves them all."""
    g = _platoon(make_game, ("R1", "Rifle Squad", "9J7"))
    for i in PLATOON:
        assert [t.id for t in overrun.overrun_targets(g, g.state.units[i],
                                                      sighted_now=False)] == ["R1"]
    _v, asked = run(orders_phase(g), lambda d: "OR" if "OR" in d.options else d.options[0])
    soviet = [d for d in asked if d.side == "Soviet"]
    assert len(soviet) == 1 and "OR" in soviet[0].options
    assert [g.state.units[i].state["order"] for i in PLATOON] == ["OR"] * 3
    _v, asked = run(overrun_step(g), _answer("R1"))
    offered = [d.options for d in asked if d.kind == "mbt.move_unit" and d.side == "Soviet"]
    assert offered[0] == ["done", "101a"]  # MBT 13.4.3.2: the followers are not offered
    assert sum(d.kind == "mbt.overrun" for d in asked) == 1


def test_members_overrun_one_at_a_time_with_defensive_fire_at_the_first_14_7_1_5(
        make_game: Any, run: Any, dice_faces: Any) -> None:
    """MBT 14.7.1.5: the members resolve one at a time, in the organization's order (MBTD-105);
    MBT 14.7.2.1: the defender's overrun defensive fire only at the first of them."""
    g = _platoon(make_game, ("R1", "Rifle Squad", "9J7"))
    for i in PLATOON:
        g.state.units[i].state["order"] = "OR"
    g.dice.force(*dice_faces(50, 1, 1, 1))  # defensive fire and three overrun fires: no effect
    run(overrun_step(g), _answer("R1"))
    assert _fires(g) == [("overrun defensive fire", "R1", "101a"), ("overrun fire", "101a", "R1"),
                         ("overrun fire", "101b", "R1"), ("overrun fire", "101c", "R1")]
    assert all(_moved_into(g, i, "9J7") for i in PLATOON)


def test_a_defender_eliminated_by_an_earlier_member_the_rest_move_in_14_7_1_2(
        make_game: Any, run: Any, dice_faces: Any) -> None:
    """MBT 14.7.1.2 (doctrine exception): 101a's effective overrun fire eliminates the squad
    (MBT 14.7.2.2.2); 101b and 101c fire at nothing and move into the hex with it, the
    organization whole (MBT 13.4.3.1)."""
    g = _platoon(make_game, ("R1", "Rifle Squad", "9J7"))
    for i in PLATOON:
        g.state.units[i].state["order"] = "OR"
    g.dice.force(*dice_faces(50, 99))
    run(overrun_step(g), _answer("R1"))
    assert _fires(g) == [("overrun defensive fire", "R1", "101a"), ("overrun fire", "101a", "R1")]
    assert g.state.units["R1"].state["destroyed"] == "eliminated"
    here = {g.board.label(g.state.units[i].hex) for i in PLATOON}
    assert here == {"9J7"} and doctrine.organizations(g)["101"] == list(PLATOON)


def test_members_split_over_the_defenders_of_one_hex_14_7_1_3(
        make_game: Any, run: Any, dice_faces: Any) -> None:
    """MBT 14.7.1.3: an organization's vehicles may overrun different units of one hex, one
    defender per member; each defender fires its defensive fire at the first vehicle that attacks
    it (MBT 14.7.2.1); MBT 14.7.3, 8.8: with the defenders holding, the hex is adjusted."""
    g = _platoon(make_game, ("R1", "Rifle Squad", "9J7"), ("R2", "Rifle Team", "9J7"))
    for i in PLATOON:
        g.state.units[i].state["order"] = "OR"
    g.dice.force(*dice_faces(50, 1, 50, 1, 1))
    _v, asked = run(overrun_step(g), _answer(["R1", "R2", "R1"]))
    announce = next(d for d in asked if d.kind == "mbt.overrun")
    assert announce.options == ["none", "R1", "R2"]  # the split is valid, not listed (MBTD-105)
    assert announce.context["members"] == list(PLATOON)
    assert _fires(g) == [("overrun defensive fire", "R1", "101a"), ("overrun fire", "101a", "R1"),
                         ("overrun defensive fire", "R2", "101b"), ("overrun fire", "101b", "R2"),
                         ("overrun fire", "101c", "R1")]


def test_a_split_announcement_out_of_one_hex_or_of_the_wrong_length_is_refused_14_7_1_3(
        make_game: Any) -> None:
    """MBT 13.4.3.2, 14.7.1.3: a list names one defender per member, all in one hex; anything
    else is refused with the rule and changes nothing."""
    g = _platoon(make_game, ("R1", "Rifle Squad", "9J7"), ("R2", "Rifle Team", "9J6"))
    lead = g.state.units["101a"]
    lead.state["order"] = "OR"
    before = _state(g)
    check = overrun.overrun_validator(g, lead)
    assert "MBT 14.7.1.3" in (check(["R1", "R2", "R1"]) or "")
    assert "MBT 14.7.1.3" in (check(["R1", "R1"]) or "")
    assert check(["R1", "R1", "R1"]) is None and check("R2") is None
    with pytest.raises(HexwarError, match=r"MBT 14\.7\.1\.3"):
        list(overrun.overrun(g, lead, g.state.units["R1"], ["R1", "R2", "R1"]))
    assert _state(g) == before


def test_a_member_stopped_by_first_fire_is_abandoned_and_the_rest_go_on_13_4_2_5(
        make_game: Any, run: Any, dice_faces: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """MBT 14.7.2.1.2: first fire that stops 101a (a track hit) leaves it next to the defender
    with no overrun fire; MBT 13.4.2.5: it is abandoned, and 101b and 101c overrun (no second
    defensive fire, MBT 14.7.2.1) and lead on."""
    real = overrun._fire

    def track_hit(game: Any, f: Any, t: Any, factor: int, *, overrun: bool) -> Any:
        shot = real(game, f, t, factor, overrun=overrun)
        if not overrun:
            shot.result, shot.effects = "EF", ["track"]
        return shot

    monkeypatch.setattr(overrun, "_fire", track_hit)
    g = _platoon(make_game, ("R1", "Rifle Squad", "9J7"))
    for i in PLATOON:
        g.state.units[i].state["order"] = "OR"
    g.dice.force(*dice_faces(50, 1, 1))
    run(overrun_step(g), _answer("R1"))
    assert _fires(g) == [("overrun defensive fire", "R1", "101a"), ("overrun fire", "101b", "R1"),
                         ("overrun fire", "101c", "R1")]
    a = g.state.units["101a"]
    assert a.state["abandoned"] and g.board.label(a.hex) == "9J8"
    assert doctrine.organizations(g)["101"] == ["101b", "101c"]
    assert doctrine.leader(g, g.state.units["101c"]).id == "101b"


def test_a_member_that_cannot_fight_moves_in_with_the_rest_14_7_1_1(
        make_game: Any, run: Any, dice_faces: Any) -> None:
    """MBT 14.7.1.1 with 13.4.3.2: 101b's gun is hit, so it makes no overrun; the organization
    still overruns (its order may be partly impossible) and 101b moves in with it; the
    announcement names one defender per member that fights. Even the leader's gun hit does not
    stop the others."""
    g = _platoon(make_game, ("R1", "Rifle Squad", "9J7"))
    for i in PLATOON:
        g.state.units[i].state["order"] = "OR"
    g.state.units["101b"].state["damage"]["gun"] = True
    lead = g.state.units["101a"]
    assert [m.id for m in overrun.attackers(g, lead)] == ["101a", "101c"]
    assert overrun.overrun_validator(g, lead)(["R1", "R1"]) is None
    g.dice.force(*dice_faces(50, 1, 1))
    run(overrun_step(g), _answer("R1"))
    assert _fires(g) == [("overrun defensive fire", "R1", "101a"), ("overrun fire", "101a", "R1"),
                         ("overrun fire", "101c", "R1")]
    assert _moved_into(g, "101b", "9J7")
    h = _platoon(make_game, ("R1", "Rifle Squad", "9J7"))
    h.state.units["101a"].state["damage"]["gun"] = True
    assert overrun.overrun_error(h, h.state.units["101a"], h.state.units["R1"],
                                 sighted_now=False) is None


def test_an_organization_weighs_every_member_overrun_for_the_ai_14_7_1_5(make_game: Any) -> None:
    """MBT 14.7.1.5: the chance that at least one member's overrun fire is effective (what the
    AI weighs, ``view.rules.overrun_value``) grows with the organization's strength."""
    g = _platoon(make_game, ("R1", "Rifle Squad", "9J7"))
    lead, r1 = g.state.units["101a"], g.state.units["R1"]
    three = overrun.overrun_chance(g, lead, r1)
    doctrine.abandon(g, g.state.units["101b"])
    doctrine.abandon(g, g.state.units["101c"])
    one = overrun.overrun_chance(g, lead, r1)
    assert 0 < one < 1 and three == pytest.approx(1 - (1 - one) ** 3)
