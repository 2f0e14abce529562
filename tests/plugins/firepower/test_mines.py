"""The Advanced Game's anti-personnel mines resolved by the Advanced fire (Firepower 12.4.4,
12.4.4.1.1, 12.4.4.1.2, 12.4.4.3, 8.8.9, 11.1.13; docs/decisions.md FPD-187..FPD-190): a PMN1 is
a G impact in its hex, a PMN2 canister fired along its facing, and an impact in a mined hex sets
its mines off after its own effects. Panel 4 (stand-in terrain): column C runs north (facing 1)
to south (facing 4) in the open."""

from __future__ import annotations

from typing import Any

from hexwar.core.engine.game import Game
from hexwar.plugins.firepower import hidden_setup as hs
from hexwar.plugins.firepower.state import data
from tests.plugins.firepower.test_terrain import _do, _game, _impulse


def _dice(game: Game, value: int) -> None:
    game.dice.d10 = lambda purpose, **_: value  # type: ignore[method-assign]


def _status(game: Game, uid: str) -> str:
    st = game.state.units[uid].state
    return "eliminated" if st.get("eliminated") else str(st.get("status"))


def _booms(game: Game) -> list[dict[str, Any]]:
    return [e for e in game.log.events if e.get("type") == "mine"]


def _pmn1_field() -> Game:
    """A's S1 in 4C5 facing 4 (south, toward the PMN1 in 4C6); A's S2 two hexes past the mine
    (4C8), B's D1 four hexes past it (4C10), out of a blast 7's zone."""
    return _game([("S1", "RFL", "A", "C5", 4, {}), ("S2", "RFL", "A", "C8", 1, {}),
                  ("D1", "RFL", "B", "C10", 1, {})])


def test_12_4_4_1_1_a_pmn1_is_a_g_impact_stunning_in_its_hex_suppressing_in_its_zone() -> None:
    """Firepower 12.4.4.1.1, 12.3.4.1, 12.3.4.2: the soldier entering a PMN1's hex sets it off; it
    is a G weapon of blast 7 exploding in that hex: the missed there are Stunned, the missed in
    its blast zone Suppressed when an unmodified 2 could have hit, and no one beyond it rolls."""
    game = _pmn1_field()
    hs.secret(game, "B")["mines"] = [{"kind": "PMN1", "hex": "4C6"}]
    _impulse(game, "S1")
    _dice(game, 10)
    _do(game, {"unit": "S1", "act": "enter"})
    assert (_status(game, "S1"), _status(game, "S2"), _status(game, "D1")) == (
        "stunned", "suppressed", "None")
    assert hs.secret(game, "B")["mines"] == []
    boom = _booms(game)
    assert len(boom) == 1 and boom[0]["rule"] == "Firepower 12.4.4.1.1"
    assert boom[0]["by"] == "S1" and "visible_to" not in boom[0]  # public once set off
    report = [e for e in game.log.events if "Firepower 12.4.4.1.1" in (e.get("rules") or [])]
    assert report and {b["unit"] for b in report[-1]["result"]["blast"]} == {"S1", "S2"}


def test_12_4_4_1_1_a_pmn1_kills_in_its_hex_and_zone_on_a_low_roll() -> None:
    """Firepower 12.4.4.1.1, 12.3.4.1: a modified roll of the blast number 7 or less eliminates,
    in the impact hex and in the blast zone alike."""
    game = _pmn1_field()
    hs.secret(game, "B")["mines"] = [{"kind": "PMN1", "hex": "4C6"}]
    _impulse(game, "S1")
    _dice(game, 1)
    _do(game, {"unit": "S1", "act": "enter"})
    assert (_status(game, "S1"), _status(game, "S2"), _status(game, "D1")) == (
        "eliminated", "eliminated", "None")
    assert game.state.units["S2"].state.get("eliminated_by") == "B"  # the mine's side


def test_12_4_4_1_1_either_sides_soldier_sets_a_pmn1_off_but_not_one_in_a_tunnel() -> None:
    """Firepower 12.4.4, 12.4.4.1.1, 8.8.8: the first soldier entering the hex sets the mine off,
    the defender's own too; one under the ground in a tunnel does not."""
    game = _game([("D1", "RFL", "B", "C5", 4, {}), ("D2", "RFL", "B", "C6", 1, {})])
    hs.secret(game, "B")["mines"] = [{"kind": "PMN1", "hex": "4C6"}]
    d1 = game.state.units["D1"]
    d1.hex = game.board.parse("4C6")
    d1.state["tunnel"] = True
    hs.after_entering(game, d1)
    assert hs.secret(game, "B")["mines"] and not _booms(game)
    d1.state.pop("tunnel")
    d1.hex = game.board.parse("4C5")
    _impulse(game, "D1")
    _dice(game, 10)
    _do(game, {"unit": "D1", "act": "enter"})
    assert _status(game, "D1") == "stunned" and _status(game, "D2") == "stunned"
    assert hs.secret(game, "B")["mines"] == []


def test_12_3_4_2_a_pmn1_damages_the_terrain_of_its_hex_by_its_penetration() -> None:
    """Firepower 12.3.4.2, 12.3.4.2.2, 12.3.4.2.7, 12.4.4.1.1: the PMN1's penetration 1 damages
    what has a terrain value in its hex: a tree, a building, a cave (whose damage reaching its
    value makes it rubble)."""
    game = _game([("S1", "RFL", "A", "C5", 4, {})])
    hs.secret(game, "B")["mines"] = [{"kind": "PMN1", "hex": "4EE2"},
                                     {"kind": "PMN1", "hex": "4G4"},
                                     {"kind": "PMN1", "hex": "4Y13"}]
    data(game)["cave_damage"] = {"4Y13": 9}
    _dice(game, 10)
    for h in ("4EE2", "4G4", "4Y13"):
        hs.mines_hit(game, game.board.parse(h))
    d = data(game)
    assert d["damage"] == {"4EE2": 1}
    assert d["building_damage"]["4G4"] == 1
    assert "4Y13" in d["caves_destroyed"] and d["destroyed"]["4Y13"] == "rubble"


def _claymore(trip: bool = True) -> Game:
    """B's PMN2 in 4C5 facing 4 (south); A's A1 in 4C7 facing 4, about to enter 4C8, the first
    hex of the trip wire; A2 in 4C9 (range 4), A3 in 4C15 (range 10, beyond the PMN2's
    modifiers), B's D1 behind the mine in 4C4 and D2 in the mine's own hex."""
    game = _game([("A1", "RFL", "A", "C7", 4, {}), ("A2", "RFL", "A", "C9", 1, {}),
                  ("A3", "RFL", "A", "C15", 1, {}), ("D1", "RFL", "B", "C4", 4, {}),
                  ("D2", "RFL", "B", "C5", 4, {})])
    rec: dict[str, Any] = {"kind": "PMN2", "hex": "4C5", "facing": 4}
    if trip:
        rec["trip"] = [f"4C{n}" for n in range(8, 14)]
    else:
        rec["trigger"] = "4C4"
    hs.secret(game, "B")["mines"] = [rec]
    return game


def test_12_4_4_1_2_a_trip_wire_fires_the_pmn2s_canister_along_its_facing() -> None:
    """Firepower 12.4.4.1.2, 12.3.2.1, 12.3.2.2: entering a trip wire hex fires the PMN2, a C
    weapon of blast 8, from its hex along its facing: every soldier in that arc within the
    PMN2's range modifiers rolls (none behind it, none in its hex, none beyond); a miss is
    Suppressed if an unmodified 2 could have hit, no one is Stunned."""
    game = _claymore()
    _impulse(game, "A1")
    _dice(game, 10)
    _do(game, {"unit": "A1", "act": "enter"})
    assert [_status(game, u) for u in ("A1", "A2", "A3", "D1", "D2")] == [
        "suppressed", "suppressed", "None", "None", "None"]
    boom = _booms(game)
    assert len(boom) == 1 and boom[0]["set_off_at"] == "4C8"
    assert boom[0]["rule"] == "Firepower 12.4.4.1.2" and hs.secret(game, "B")["mines"] == []


def test_12_4_4_1_2_the_pmn2_uses_its_own_range_modifiers() -> None:
    """Firepower 12.4.4.1.2, 12.3.2.1: the PMN2's canister modifier by range (its own row of
    stand-ins, marked estimated) is added to each roll: a roll of 6 hits at range 3 (+1) and
    misses at range 5 (+3)."""
    game = _claymore()
    game.state.units["A2"].hex = game.board.parse("4C10")  # range 5: +3
    _impulse(game, "A1")
    _dice(game, 6)
    _do(game, {"unit": "A1", "act": "enter"})
    assert _status(game, "A1") == "eliminated"  # range 3: 6 + 1 <= 8
    assert _status(game, "A2") == "suppressed"  # range 5: 6 + 3 > 8
    report = [e for e in game.log.events if "Firepower 12.4.4.1.2" in (e.get("rules") or [])]
    mods = report[-1]["result"]["modifiers"]
    assert [m["value"] for m in mods["A1"]] == [1] and [m["value"] for m in mods["A2"]] == [3]


def test_12_4_4_1_2_entering_the_pmn2s_own_hex_does_not_set_it_off() -> None:
    """Firepower 12.4.4.1.2 (docs/decisions.md FPD-188): a PMN2 goes off by its trip wire or its
    trigger hex, not by a soldier stepping into its own hex."""
    game = _claymore()
    d1 = game.state.units["D1"]
    _impulse(game, "D1")
    _do(game, {"unit": "D1", "act": "enter"})
    assert d1.hex == game.board.parse("4C5") and not _booms(game)
    assert len(hs.secret(game, "B")["mines"]) == 1


def test_11_1_13_detonating_a_pmn2_from_its_trigger_hex_fires_its_canister() -> None:
    """Firepower 11.1.13, 12.4.4.1.2: the detonate Action fires the PMN2 as canister along its
    facing (not into the trigger hex behind it)."""
    game = _claymore(trip=False)
    _impulse(game, "D1")
    _dice(game, 1)
    _do(game, {"unit": "D1", "act": "detonate", "hex": "4C5"})
    assert [_status(game, u) for u in ("A1", "A2", "A3", "D1", "D2")] == [
        "eliminated", "eliminated", "None", "None", "None"]
    assert _booms(game)[0]["set_off_at"] == "4C4" and _booms(game)[0]["by"] == "D1"


def test_12_4_4_3_an_impact_sets_off_a_pmn2_which_fires_along_its_facing() -> None:
    """Firepower 12.4.4.3: a G impact in a PMN2's hex sets it off, with its usual effects: its
    canister along its facing."""
    game = _claymore()
    _dice(game, 1)
    assert hs.mines_hit(game, game.board.parse("4C5")) == ["A1", "A2"]
    assert _booms(game)[0]["rule"] == "Firepower 12.4.4.3" and _booms(game)[0]["by"] is None


def test_12_4_4_3_a_demolition_charge_sets_off_the_mines_of_its_hex_after_its_blast() -> None:
    """Firepower 12.4.4.3, 12.4.9: a demolition charge is a G impact: the mine in its hex goes
    off once the charge's own effects are applied."""
    from hexwar.plugins.firepower.advanced_fire import explode_due

    game = _game([("S1", "RFL", "A", "C5", 4, {}), ("S0", "RFL", "A", "C6", 4, {}),
                  ("D1", "RFL", "B", "C15", 1, {})])
    hs.secret(game, "B")["mines"] = [{"kind": "PMN1", "hex": "4C6"}]
    data(game)["charges"] = [{"hex": "4C6", "side": "A", "by": "S1", "item": "DMC1", "due": 1}]
    _impulse(game, "S1")
    _dice(game, 10)
    explode_due(game, "A")
    assert hs.secret(game, "B")["mines"] == []
    kinds = [e["type"] for e in game.log.events if e.get("type") in ("demolition", "mine")]
    assert kinds == ["demolition", "mine"]
    assert _status(game, "S1") == "suppressed"  # in the zone of both, never in an impact hex
    # on a low roll the charge's own blast kills S0 first: the mine finds him gone
    game = _game([("S1", "RFL", "A", "C5", 4, {}), ("S0", "RFL", "A", "C6", 4, {})])
    hs.secret(game, "B")["mines"] = [{"kind": "PMN1", "hex": "4C6"}]
    data(game)["charges"] = [{"hex": "4C6", "side": "A", "by": "S1", "item": "DMC1", "due": 1}]
    _impulse(game, "S1")
    _dice(game, 1)
    explode_due(game, "A")
    assert game.state.units["S0"].state.get("eliminated_by") == "A"
    assert "S0" not in _booms(game)[0]["eliminated"]


def test_12_4_4_the_mine_and_its_blast_in_words() -> None:
    """Firepower 12.4.4.1.2, 11.1.13, 12.4.4.3: the log says how a mine went off (entered,
    detonated, hit by an impact) and reads its blast as a mine's, with no firer or throw."""
    from hexwar.plugins.firepower.words import describe_event

    game = _claymore(trip=False)
    _impulse(game, "D1")
    _dice(game, 1)
    _do(game, {"unit": "D1", "act": "detonate", "hex": "4C5"})
    said = [describe_event(game, e) for e in game.log.events if e.get("type") == "mine"
            or "Firepower 12.4.4.1.2" in (e.get("rules") or [])]
    assert said[0] == ("a PMN2 mine in 4C5 is detonated by RFL D1 from 4C4: RFL A1, RFL A2 "
                       "eliminated [Firepower 12.4.4.1.2]"), said
    assert said[1] is not None and said[1].startswith(
        "PMN2 in 4C5 goes off (canister along its facing), blast RFL A1 1->1 eliminated"), said
    game = _claymore()
    _dice(game, 10)
    hs.mines_hit(game, game.board.parse("4C5"))
    boom = _booms(game)[0]
    assert describe_event(game, boom).startswith("a PMN2 mine in 4C5 goes off, its hex hit by")


def test_12_4_4_attackers_who_win_a_melee_enter_the_hex_and_set_its_pmn1_off() -> None:
    """Firepower 12.4.4, 12.4.4.1.1, 6.5.1 (docs/decisions.md FPD-190): the winners of a melee
    enter its hex; the first soldier to enter a PMN1's hex sets it off, the defenders who set up
    there never having entered it."""
    game = _game([("A1", "RFL", "A", "C5", 4, {}), ("D1", "RFL", "B", "C6", 1, {})])
    hs.secret(game, "B")["mines"] = [{"kind": "PMN1", "hex": "4C6"}]
    _impulse(game, "A1")
    _dice(game, 1)  # the attacker wins the melee; the blast kills
    _do(game, {"act": "melee", "units": ["A1"], "hex": "4C6"})
    boom = _booms(game)
    assert len(boom) == 1 and boom[0]["by"] == "A1" and _status(game, "A1") == "eliminated"


def test_12_3_4_2_1_a_pmn1_damages_the_wire_in_its_hex() -> None:
    """Firepower 12.3.4.2, 12.3.4.2.1, 12.4.4.1.1: a defensive unit with a terrain value in the
    PMN1's hex takes its penetration; wire whose damage reaches its value is removed."""
    game = _game([("S1", "RFL", "A", "C5", 4, {})],
                 extra='defenses = [{ type = "WIR", hex = "4C8" }]')
    hs.secret(game, "B")["mines"] = [{"kind": "PMN1", "hex": "4C8"}]
    data(game)["defence_damage"] = {"4C8": 1}
    _dice(game, 10)
    hs.mines_hit(game, game.board.parse("4C8"))
    assert data(game)["defences_destroyed"] == ["4C8"]


def test_12_4_4_a_mine_going_off_tells_the_attacker_of_no_other_mine() -> None:
    """Firepower 8.8.9, 12.4.4 (hidden information): the mine that goes off is public; the
    defender's other mines, and an impact in an unmined hex, leave nothing in the attacker's
    view or log."""
    import json

    game = _pmn1_field()
    hs.secret(game, "B")["mines"] = [{"kind": "PMN1", "hex": "4C6"},
                                     {"kind": "PMN2", "hex": "4F9", "facing": 1,
                                      "trigger": "4F12"}]
    _dice(game, 10)
    assert hs.mines_hit(game, game.board.parse("4C7")) == [] and not _booms(game)
    _impulse(game, "S1")
    _do(game, {"unit": "S1", "act": "enter"})
    text = json.dumps([game.view("A").events(), game.view("A").system_state], default=str)
    assert "4C6" in text and "4F9" not in text and "4F12" not in text


def test_12_4_4_1_1_the_pmn1s_blast_number_is_seven() -> None:
    """Firepower 12.4.4.1.1: blast 7: the Standing soldier entering the hex in the open is
    eliminated on a 7 and only Stunned on an 8."""
    for roll, got in ((7, "eliminated"), (8, "stunned")):
        game = _pmn1_field()
        hs.secret(game, "B")["mines"] = [{"kind": "PMN1", "hex": "4C6"}]
        _impulse(game, "S1")
        _dice(game, roll)
        _do(game, {"unit": "S1", "act": "enter"})
        assert _status(game, "S1") == got, roll


def test_12_4_4_3_a_white_phosphorus_grenade_in_a_mined_hex_sets_the_mine_off() -> None:
    """Firepower 12.4.4.3: not only G: a W impact (an HGN6 thrown into 4C6) sets off the PMN1
    there after its own effects."""
    game = _pmn1_field()
    hs.secret(game, "B")["mines"] = [{"kind": "PMN1", "hex": "4C6"}]
    game.state.units["S1"].state["equipment"] = {"HGN6": 1}
    _impulse(game, "S1")
    _dice(game, 1)
    _do(game, {"unit": "S1", "act": "grenade", "hex": "4C6", "item": "HGN6"})
    boom = _booms(game)
    assert len(boom) == 1 and boom[0]["rule"] == "Firepower 12.4.4.3" and boom[0]["how"] == "impact"
    assert hs.secret(game, "B")["mines"] == []
