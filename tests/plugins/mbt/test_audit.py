"""Audit tests of the Basic Game (rules MBT 3.0-9.0) added after review: corners of simultaneity (MBT 5.3),
markers (MBT 3.4.1), fire once per Turn (MBT 7.1.5), ATGM range at resolution (MBT 7.2.2.2) and hidden
information in whole games (MBT 6.1, 6.2.1)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import hexwar.plugins.mbt as mbt_pkg
from hexwar.core.engine.controllers import RandomController
from hexwar.core.testing import make_game as core_make_game
from hexwar.plugins.mbt.fire import atgm_announce_phase, direct_fire_phase
from hexwar.plugins.mbt.movement import move_unit
from hexwar.plugins.mbt.overwatch import overwatch_window
from hexwar.plugins.mbt.sequence import atgm_resolution_step
from hexwar.plugins.mbt.state import data

NATO, SOV = "NATO", "Soviet"
PKG = Path(mbt_pkg.__file__).parent


def order(game: Any, **orders: str) -> None:
    for uid, o in orders.items():
        game.state.units[uid].state["order"] = o


def shots(game: Any, firer: str) -> list[dict[str, Any]]:
    return [e for e in game.log.for_side(None)
            if e.get("what") == "AP point effect fire" and e.get("firer") == firer]


def test_5_3_brew_up_smoke_of_the_same_step_is_ignored(make_game: Any, run: Any,
                                                       dice_faces: Any) -> None:
    """MBT 5.3 (last sentence): a wreck brewed up in a simultaneous step gives no smoke modifier to
    later shots of that step; it does from the next step on (MBT 7.4.2.3.3)."""
    g = make_game([("A", "M1A1", NATO, "9J2", 4), ("X", "T-72M1", SOV, "9J5", 1),
                   ("B", "T-72M1", SOV, "9J8", 1)])
    order(g, A="F", B="F", X="M")
    # A (ROF 2): roll 01 = 2 hits; 1st hit TF (05), damage 99 = brew-up; 2nd hit TF, damage 50.
    # B: roll 99, a miss, its line to A passes through X's hex J5.
    g.dice.force(*dice_faces(1, 5, 99, 5, 50, 99))
    run(direct_fire_phase(g), [{"target": "X", "shots": [["A", "APFSDS"]]},
                               {"target": "A", "shots": [["B", "APFSDS"]]}])
    assert g.state.units["X"].state["pending"][0] == "BU"
    (b_shot,) = shots(g, "B")
    assert not [m for m in b_shot["modifiers"] if m["name"].startswith("brew-up")]
    g.apply_deferred()
    assert data(g)["wrecks"] == {"9J5": "burning"}
    # the next step sees the smoke: the same line now carries the -5
    from hexwar.plugins.mbt.fire import brewup_hexes
    assert brewup_hexes(g, g.board.parse("9J8"), g.board.parse("9J2")) == 1


def test_3_4_1_moved_replaces_fired_on_a_unit_that_fired_then_moved(make_game: Any, run: Any,
                                                                      dice_faces: Any) -> None:
    """MBT 3.4.1 NOTE: an FM unit that fired (FIRED marker) and then moves carries MOVED."""
    g = make_game([("A", "M1A1", NATO, "9J2", 4), ("B", "T-72M1", SOV, "9J9", 1)])
    order(g, A="FM", B="M")
    g.dice.force(*dice_faces(99))
    run(direct_fire_phase(g), [{"target": "B", "shots": [["A", "APFSDS"]]}])
    g.apply_deferred()
    a = g.state.units["A"]
    assert a.state["spotted"] == "FIRED"
    run(move_unit(g, a), lambda d: ["9J3", 4] if d.kind == "mbt.move_to"
        and ["9J3", 4] in d.options else ("stay" if d.kind == "mbt.move_to" else "pass"))
    assert g.board.label(a.hex) == "9J3" and a.state["spotted"] == "MOVED"


def test_7_1_5_overwatch_unit_that_fired_is_not_offered_fire_at_a_mover(make_game: Any,
                                                                          run: Any) -> None:
    """MBT 7.1.5, 7.5.1: an OW unit fires once per Turn; after it fired (e.g. in the Overwatch
    Fire Step) a moving enemy triggers nothing from it."""
    g = make_game([("M", "T-80A", SOV, "9J10", 1), ("W", "M1A1", NATO, "9J2", 4)])
    order(g, M="M", W="OW")
    m = g.state.units["M"]
    # before W fired, the window opens with a declaration for W
    gen = overwatch_window(g, m)
    d = gen.send(None)
    assert d.kind == "mbt.overwatch" and any(isinstance(o, dict) for o in d.options)
    g.state.units["W"].state["fired"] = True
    _, asked = run(overwatch_window(g, m), [])
    assert asked == []


def test_7_2_2_2_atgm_target_moved_out_of_missile_range_misses(make_game: Any, run: Any) -> None:
    """MBT 7.2.2.2: resolution uses the target's position after movement; out of missile range
    (here closer than the Songster's minimum range 2, MBT 4.7.2) the shot is an automatic miss."""
    g = make_game([("A", "T-80A", SOV, "9J2", 4), ("B", "M1A1", NATO, "9J6", 1)])
    data(g)["first"] = SOV
    order(g, A="ATGM", B="M")
    run(atgm_announce_phase(g), [{"firer": "A", "target": "B"}])
    g.state.units["B"].hex = g.board.parse("9J3")  # B drove up next to A
    run(atgm_resolution_step(g), lambda d: "pass")
    g.apply_deferred()
    misses = [e for e in g.log.for_side(None) if e.get("what") == "ATGM"]
    assert misses and "automatic miss" in misses[0]["result"]
    assert "range" in misses[0]["result"]
    assert not shots(g, "A")
    b = g.state.units["B"]
    assert b.hex is not None and not b.state.get("destroyed") and not any(b.state["damage"].values())


HIDDEN_TYPES = {"order", "moved", "sighting", "placed", "exited", "pivot"}


def test_hidden_information_never_reaches_the_other_side_in_a_whole_game() -> None:
    """MBT 6.1, 6.2.1: a side's log never holds the other side's secret orders, its sightings,
    its unspotted moves or its decisions; its view never holds enemy units it cannot see."""
    from hexwar.plugins.mbt.sighting import seen_by_side

    g = core_make_game("mbt:basic-c", seed=11)
    ctl = {s: RandomController(s, 11) for s in (NATO, SOV)}
    steps = 0
    while g.pending is not None and g.state.turn <= 3:
        d = g.pending
        if steps % 7 == 0:
            for side in (NATO, SOV):
                view = g.view(side)
                for uid, u in view.units.items():
                    unit = g.state.units[uid]
                    if u["side"] != side and unit.hex is not None and g.state.turn >= 1:
                        assert seen_by_side(g, side, unit), f"{uid} in {side}'s view unseen"
                        if not unit.state.get("revealed"):
                            assert "order" not in u["state"]
                for e in view.events():
                    if e.get("type") == "decision":
                        assert e["side"] == side
                    if e.get("type") in HIDDEN_TYPES and "unit" in e:
                        assert g.state.units[e["unit"]].side == side, e
        steps += 1
        g.answer(ctl[d.side].choose(d, g.view(d.side)))
    assert steps > 50


def test_8_1_4_turret_keeps_its_own_facing_when_the_hull_moves_or_pivots(make_game: Any,
                                                                           run: Any) -> None:
    """MBT 4.4.2, 8.1.4: the turret faces its own way and turns only in the Adjust Turrets Step;
    hull turns in movement (MBT 8.3) and pivots (MBT 9.1) leave it where it points."""
    from hexwar.plugins.mbt.adjustment import pivot_phase

    g = make_game([("A", "M1A1", NATO, "9J5", 1), ("B", "M1A1", NATO, "9L5", 1)])
    order(g, A="M", B="M")
    a, b = g.state.units["A"], g.state.units["B"]
    a.state["turret"] = 2
    b.state["turret"] = 5
    run(move_unit(g, a), lambda d: ["9J7", 4] if d.kind == "mbt.move_to"
        and ["9J7", 4] in d.options else ("stay" if d.kind == "mbt.move_to" else "pass"))
    assert g.board.label(a.hex) == "9J7" and a.facing == 4 and a.state["turret"] == 2
    run(pivot_phase(g), lambda d: 3)  # only B (did not move) pivots
    assert b.facing == 3 and b.state["turret"] == 5


def test_7_4_5_2_2_hit_angle_from_the_hull_whatever_the_turret(make_game: Any) -> None:
    """MBT 7.4.5.2.2: in the Basic Game the hit angle is read from the hull's front; the turret's
    own facing does not change it."""
    from hexwar.plugins.mbt.fire import hit_angle

    g = make_game([("T", "T-80A", SOV, "9J5", 1)])
    t = g.state.units["T"]
    p = g.board.parse
    for turret in (1, 3, 4, 6):
        t.state["turret"] = turret
        assert hit_angle(p("9J2"), t) == "Front" and hit_angle(p("9J8"), t) == "Rear"
    t.facing = 4  # turn the hull about: the same firers now see its rear and front
    assert hit_angle(p("9J2"), t) == "Rear" and hit_angle(p("9J8"), t) == "Front"


def test_9_1_pivot_step_reveals_every_order_to_the_other_side(make_game: Any, run: Any) -> None:
    """MBT 9.1: all command markers still face down are turned up in the Pivot Step."""
    from hexwar.plugins.mbt.adjustment import pivot_phase

    g = make_game([("A", "T-80A", SOV, "9J2", 4), ("B", "M1A1", NATO, "9J6", 1)])
    order(g, A="OW", B="F")
    assert "order" not in g.view(NATO).units["A"]["state"]
    run(pivot_phase(g), [])
    assert g.view(NATO).units["A"]["state"]["order"] == "OW"
    assert g.view(SOV).units["B"]["state"]["order"] == "F"
    assert "spotted" not in g.state.units["A"].state or g.state.units["A"].state["spotted"] is None


def test_5_3_atgm_resolution_step_is_simultaneous(make_game: Any, run: Any,
                                                  dice_faces: Any) -> None:
    """MBT 3.4.2, 5.3: the ATGM Resolution Step is simultaneous: a firer knocked out by the first
    side's missile in this step still resolves its own missile; both results apply at the end.
    (Only the Soviet Basic cards carry missiles; a T-80A on each side shows the rule.)"""
    g = make_game([("N", "T-80A", NATO, "9J2", 1), ("S", "T-80A", SOV, "9J6", 4)])
    g.state.units["N"].state["turret"] = 4  # turrets face each other, hulls face away (rear hits)
    g.state.units["S"].state["turret"] = 1
    order(g, N="ATGM", S="ATGM")
    run(atgm_announce_phase(g), lambda d: {"firer": "N", "target": "S"} if d.side == NATO
        else {"firer": "S", "target": "N"})
    # each missile: roll 01 hits, location 10 = TR (Rear), damage 50 = KNK OUT
    g.dice.force(*dice_faces(1, 10, 50, 1, 10, 50))
    run(atgm_resolution_step(g), lambda d: "pass")
    assert len(shots(g, "N")) == 1 and len(shots(g, "S")) == 1  # S fired although already hit
    g.apply_deferred()
    assert g.state.units["N"].state["destroyed"] == "KO"
    assert g.state.units["S"].state["destroyed"] == "KO"


def test_malformed_card_files_fail_naming_the_file_and_the_key(tmp_path: Path) -> None:
    """A card file with a syntax error, a misspelt section, a missing chart or an unknown angle is
    refused when read, with the file and the dotted key in the message (cards/README.md)."""
    import pytest
    from click.testing import CliRunner

    from hexwar.core.cli import cli
    from hexwar.core.errors import DataError
    from hexwar.plugins.mbt.cards import load_card
    from hexwar.plugins.mbt.plugin import hexwar_register_commands

    if "mbt" not in getattr(cli, "commands", {}):
        hexwar_register_commands(cli)

    text = (PKG / "data" / "cards" / "ussr-1a_t-80a.toml").read_text(encoding="utf-8")
    cases = [
        ("[card]", "[card", "invalid TOML", None),
        ("[speeds]", "[speedz]", "unknown section 'speedz'", "speedz"),
        ("normal = { value = 6", "mud_normal = { value = 6", "Normal speed", "speeds.normal"),
        ("Rear = { TR = \"01-25\"", "Back = { TR = \"01-25\"", "no hit location row for Rear",
         "hit_location"),
        ("[armor.KE.Level]\n", "[armor.KE.Level]\nSide = { TF = 1 }\n", "unknown hit angle 'Side'",
         "armor.KE.Level.Side"),
    ]
    for old, new, message, key in cases:
        assert old in text, old
        p = tmp_path / "bad.toml"
        p.write_text(text.replace(old, new, 1), encoding="utf-8")
        with pytest.raises(DataError, match=message) as exc:
            load_card(p)
        assert "bad.toml" in str(exc.value)
        if key is not None:
            assert f"[{key}]" in str(exc.value)
    # the table-side command reports it and stops
    res = CliRunner().invoke(cli, ["mbt", "fire", "T-72M1", "Leopard 1A4", "--range", "5",
                                   "--cards", str(tmp_path / "bad.toml")])
    assert res.exit_code != 0 and "bad.toml" in res.output


def test_5_1_initiative_roll_off_ties_roll_again_and_the_winner_chooses(make_game: Any,
                                                                        run: Any) -> None:
    """MBT 5.1-5.2 (and MBT 4.2: one die's 0 reads 10): ties roll again; the winner picks first or
    second; per-Turn status is cleared at the start of the Turn."""
    from hexwar.plugins.mbt.initiative import initiative_phase

    g = make_game([("A", "M1A1", NATO, "9J2", 4), ("B", "T-72M1", SOV, "9J9", 1)])
    b = g.state.units["B"]
    b.state.update(order="F", fired=True, revealed=True)
    g.dice.force(3, 3, 9, 0)  # NATO 3, Soviet 3: tie; NATO 9, Soviet 0 = 10: Soviet wins
    _, asked = run(initiative_phase(g), ["second"])
    assert [d.side for d in asked] == [SOV] and asked[0].kind == "mbt.initiative"
    assert data(g)["first"] == NATO  # the Soviet winner chose to go second
    roll = [e for e in g.log.for_side(None) if e.get("type") == "roll_off"][-1]
    assert roll["rolls"] == {NATO: 9, SOV: 10} and roll["winner"] == SOV
    assert b.state["order"] is None and not b.state["fired"] and not b.state["revealed"]
    g.dice.force(7, 2)
    run(initiative_phase(g), ["first"])
    assert data(g)["first"] == NATO


def test_mbt_163_a_lead_of_exactly_30_wins_29_ties(make_game: Any, monkeypatch: Any) -> None:
    """MBT 9.4.3: NATO 110 VP against 80 wins; 109 against 80 is a tie; each
    stone building hex a side controls is worth 10 (MBT 9.4.2.2)."""
    from hexwar.plugins.mbt import victory

    g = make_game([("A", "M1A1", NATO, "9J2", 4), ("B", "T-72M1", SOV, "9J9", 1)],
                  terrain={"9E5": "stone", "9F5": "stone"})
    data(g)["control"] = {"9E5": NATO, "9F5": NATO}
    assert victory.objective_points(g, NATO) == 20 and victory.objective_points(g, SOV) == 0
    for nato, result in ((110.0, NATO), (109.0, None)):
        monkeypatch.setattr(victory, "victory_points",
                            lambda _g, n=nato: {NATO: n, SOV: 80.0})
        r = victory.final(g)
        assert r.winner == result and r.scores == {NATO: nato, SOV: 80.0}
    monkeypatch.setattr(victory, "victory_points", lambda _g: {NATO: 80.0, SOV: 110.0})
    assert victory.final(g).winner == SOV


def test_mbt_110_a_unit_sent_back_into_a_disputed_hex_goes_back_again(make_game: Any,
                                                                        run: Any) -> None:
    """MBT 8.8.2: a unit moved back may land in a hex that is disputed in turn; that hex is judged
    the same way (the unit entered it this Turn, the enemy there did not), so it goes back again."""
    from hexwar.plugins.mbt.movement import adjust_contested

    g = make_game([("X", "M1A1", NATO, "9J7", 1), ("Z", "T-80A", SOV, "9J5", 4),
                   ("W", "T-80A", SOV, "9J4", 4)])
    order(g, X="M", Z="F", W="F")
    run(move_unit(g, g.state.units["X"]), lambda d: ["9J4", 1] if d.kind == "mbt.move_to"
        and ["9J4", 1] in d.options else ("stay" if d.kind == "mbt.move_to" else "pass"))
    x = g.state.units["X"]
    assert g.board.label(x.hex) == "9J4"  # it passed through Z's hex into W's
    adjust_contested(g)
    assert g.board.label(x.hex) == "9J6"  # back to J5 (W stays), then back to J6 (Z stays)
    assert g.board.label(g.state.units["Z"].hex) == "9J5"
    assert g.board.label(g.state.units["W"].hex) == "9J4"
    adjusted = [e["hex"] for e in g.log.for_side(None) if e.get("type") == "adjusted"]
    assert adjusted == ["9J5", "9J6"]


def test_7_4_2_2_a_target_with_move_orders_counts_as_moving_before_it_moves_unrevealed(
        make_game: Any, run: Any, dice_faces: Any) -> None:
    """MBT 7.4.2.2: the target is moving by its orders (M, FM), not by having moved; MBT 6.2.2: the
    modifier is applied without the order itself being shown to the firer's side."""
    g = make_game([("A", "M1A1", NATO, "9J2", 4), ("B", "T-72M1", SOV, "9J6", 1),
                   ("C", "T-72M1", SOV, "9K6", 1)])
    order(g, A="F", B="M", C="OW")
    g.dice.force(*dice_faces(99))
    run(direct_fire_phase(g), [{"target": "B", "shots": [["A", "APFSDS"]]}])
    (shot,) = shots(g, "A")
    (mv,) = [m for m in shot["modifiers"] if m["name"].startswith("movement")]
    assert mv["name"].endswith("NM vs MV") and shot["target_moving"] is True
    assert "order" not in g.view(NATO).units["B"]["state"]  # B's M order is still face down
    assert not g.state.units["B"].state["revealed"]


def test_6_1_4_6_and_7_units_sit_at_ground_level_and_never_block_sight(make_game: Any) -> None:
    """MBT 6.1.4.6: a unit in woods is at the hex's ground level (a shot at it is Level, not
    Rising); MBT 6.1.4.7: units of either side never block a line of sight."""
    from hexwar.plugins.mbt.fire import elevation
    from hexwar.plugins.mbt.sighting import sees
    from hexwar.plugins.mbt.state import ctx

    g = make_game([("A", "M1A1", NATO, "9J2", 4), ("B", "T-72M1", SOV, "9J6", 1),
                   ("C", "M1A1", NATO, "9J4", 4), ("D", "T-72M1", SOV, "9J3", 1),
                   ("W", "T-72M1", SOV, "9K6", 1)], terrain={"9K6": "woods"})
    a, b, w = g.state.units["A"], g.state.units["B"], g.state.units["W"]
    assert sees(g, a, b)  # through a friendly (J4) and an enemy (J3) unit
    p = g.board.parse
    assert elevation(ctx(g).info, p("9J2"), p("9K6")) == "Level"  # the woods' +2 is the treetops
    assert a.hex is not None and w.hex is not None and a.hex.distance(w.hex) <= 5
    assert sees(g, a, w)  # into the woods hex itself: only intervening woods block (MBT 6.1.4.5)


def test_mbt_17_moved_marker_doubles_the_buttoned_range_too(make_game: Any) -> None:
    """MBT 6.1.3.5: a vehicle in scrub with a spotted (MOVED) marker is seen by a
    buttoned sighter out to 20 hexes (10 doubled), not at 21; with FIRED, at any range."""
    from hexwar.plugins.mbt.sighting import sees

    g0 = make_game([("A", "M1A1", NATO, "9J1", 4)])
    start = g0.board.parse("9J1")
    at = {start.distance(h): g0.board.label(h) for h in sorted(g0.board.hexes, key=lambda h: (h.q, h.r))}
    g = make_game([("A", "M1A1", NATO, "9J1", 4), ("B", "T-72M1", SOV, at[20], 1),
                   ("C", "T-72M1", SOV, at[21], 1)], terrain={at[20]: "scrub", at[21]: "scrub"})
    a, b, c = (g.state.units[k] for k in "ABC")
    a.state["open"] = False
    assert not sees(g, a, b)
    b.state["spotted"] = c.state["spotted"] = "MOVED"
    assert sees(g, a, b) and not sees(g, a, c)
    c.state["spotted"] = "FIRED"
    assert sees(g, a, c)


def test_mbt_98_first_hex_rule_in_play_m_not_fm_and_in_reverse(make_game: Any) -> None:
    """MBT 8.4.4: with M orders and nothing spent on turns a vehicle may always
    enter one new hex, forward or in reverse, whatever it costs; FM orders do not get this."""
    hills = {"9J4": 2, "9J6": 2}
    g = make_game([("A", "T-80A", SOV, "9J5", 1)], terrain={"9J4": "rough", "9J6": "rough"},
                  heights=hills)
    a = g.state.units["A"]
    order(g, A="M")
    d = move_unit(g, a).send(None)
    assert ["9J4", 1] in d.options  # 7 MF with 6: allowed as the first hex
    assert ["9J6", 1] in d.options  # reverse into it: 14 MF, still allowed
    order(g, A="FM")
    d = move_unit(g, a).send(None)
    assert ["9J4", 1] not in d.options and ["9J6", 1] not in d.options


def test_7_5_2_overwatch_before_or_after_the_mover_turns_in_a_hex(make_game: Any, run: Any,
                                                                  dice_faces: Any) -> None:
    """MBT 7.5.2: the watcher may fire when the mover enters a hex or after it turns there; a pass
    on entry leaves the second chance, and the shot uses the facing the mover has then."""
    g = make_game([("M", "T-80A", SOV, "9J10", 1), ("W", "M1A1", NATO, "9J2", 4)])
    order(g, M="M", W="OW")
    g.dice.force(*dice_faces(99))  # a miss
    windows: list[str] = []

    def answer(d: Any) -> Any:
        if d.kind == "mbt.move_to":
            return ["9J9", 4] if ["9J9", 4] in d.options else "stay"
        if d.kind == "mbt.overwatch":
            windows.append(f'{d.context["hex"]}/{g.state.units["M"].facing}')
            return "pass" if len(windows) == 1 else {"target": "M", "shots": [["W", "APFSDS"]]}
        return "pass"

    run(move_unit(g, g.state.units["M"]), answer)
    assert windows == ["9J9/1", "9J9/4"]  # entered facing 1, then turned to 4 in the same hex
    (shot,) = shots(g, "W")
    assert shot["angle"] == "Rear"  # W (at J2) is behind M once M faces 4
