"""The MBT-host direction of the Firefight/MBT adapter (plugins/adapters/firefight_mbt/mbt_host.py;
docs/decisions.md CORE-86): Firefight units as guests in an MBT-host game, fighting as MBT cards,
MBT damage on them reported in Firefight terms, and the refusals."""

from __future__ import annotations

from functools import cache
from pathlib import Path

import pytest

from hexwar.core.engine.game import Game
from hexwar.core.scenario import Scenario, validate_scenario
from hexwar.core.testing import make_game
from hexwar.plugins.adapters.firefight_mbt import mbt_host as H
from hexwar.plugins.adapters.firefight_mbt import model as M
from hexwar.plugins.firefight.tables import ff_data
from hexwar.plugins.mbt import ap_fire
from hexwar.plugins.mbt.ai import MbtAI
from hexwar.plugins.mbt.cards import load_cards
from hexwar.plugins.mbt.state import card_name, card_of

BASIC_A = Path(ap_fire.__file__).parent / "scenarios" / "basic-a.toml"


def _text(*, m60: str = "firefight:US-M60A1", side: str = "NATO") -> str:
    text = BASIC_A.read_text(encoding="utf-8")
    text = text.replace('id = "mbt:basic-a"', 'id = "test:ff-in-mbt"\nrules = ["firefight_mbt"]')
    return text.replace('id = "N3"\ntype = "mbt:M1A1"\nside = "NATO"',
                        f'id = "N3"\ntype = "{m60}"\nside = "{side}"')


@cache
def _played(seed: int) -> Game:
    g: Game = make_game(Scenario.from_text(_text()), seed=seed)
    g.play({s: MbtAI(s, seed) for s in g.state.sides})
    return g


def test_every_mapped_firefight_unit_is_an_mbt_card_of_its_side_and_kind() -> None:
    g = make_game(Scenario.from_text(_text()))
    cards = {c.name: c for c in load_cards().values()}
    sides = {"US": "NATO", "SU": "Soviet"}
    table = M.tables()["firefight_in_mbt"]
    for key in table.key_values("firefight_type"):
        ff = ff_data().units[str(key)]
        card = H.mbt_card(str(key))
        assert cards[card].side == sides[ff.side], key
        # a tank is an MBT vehicle, a team an MBT leg unit (Firefight 3.3, MBT 15.1)
        assert (cards[card].kind, ff.cls) in (("vehicle", "tank"), ("leg", "personnel")), key
    assert card_of(g, g.state.units["N3"]).name == "Leopard 1A4"


def test_every_mbt_effect_has_a_firefight_meaning() -> None:
    effects = {"KO", "BU", "gun", "track", "turret_compartment", "hull_compartment",
               "suppress", "temp_sup", "crew_loss"}  # MBT 7.4.5.3, 7.4.7, 12.3, 14.4.4
    assert {H.firefight_result(e) for e in effects} <= {"K", "Kf", "Km", "S", "none"}
    assert H.firefight_result("KO") == "K" and H.firefight_result("track") == "Km"
    for table in ("firefight_in_mbt", "mbt_damage_in_firefight"):
        assert {str(s.source) for _r, _c, s in M.tables()[table].cells()} == {"estimated"}


def test_refusals_in_an_mbt_host() -> None:
    ok = Scenario.from_text(_text())
    assert validate_scenario(ok) == []
    carrier = Scenario.from_text(_text(m60="firefight:US-M113"))
    assert any("adapter 'firefight_mbt' has no mapping for firefight_type 'US-M113' in table "
               "'firefight_in_mbt'" in p.message for p in validate_scenario(carrier))
    wrong_side = Scenario.from_text(_text(m60="firefight:SU-T62"))
    assert any("fights as MBT T-72M1 of side 'Soviet'" in p.message
               for p in validate_scenario(wrong_side))
    team = Scenario.from_text(_text(m60="firefight:US-TM"))
    assert any("a card of the Advanced Game (MBT 15.1)" in p.message
               for p in validate_scenario(team))
    g = make_game(ok)
    with pytest.raises(M.AdapterError, match="no mapping for firefight_type 'US-M113'"):
        card_name(g, "firefight:US-M113", "NATO")


def test_an_mbt_host_game_with_a_firefight_tank_plays_to_its_end_with_mbt_results() -> None:
    g = _played(1)
    assert g.result is not None and g.sequence[0].name == "mbt.setup"
    # only the unit's own side learns its card
    assert [e["mbt_as"] for e in g.view("NATO").events() if e.get("type") == "adapter"] == \
        ["Leopard 1A4"]
    assert not [e for e in g.view("Soviet").events() if e.get("type") == "adapter"]
    damage = [e for e in g.log.events if e.get("decided_by") == "mbt"]
    assert damage, "the Firefight tank was never hit in this game"
    for e in damage:
        assert e["result"] == H.firefight_result(e["mbt_effect"])
        assert "MBT 7.4.7" in e["rules"]
    assert g.state.units["N3"].state.get("firefight_damage")
    # the Firefight M60A1 fires at the MBT tanks by MBT's AP procedure (MBT 7.4), as the Leopard
    # 1A4 card: its 105 mm gun (Basic Scenario A's Soviets are T-64Bs)
    shots = [e for e in g.log.events if e.get("type") == "result" and e.get("firer") == "N3"]
    assert shots and all("MBT 7.4" in e["rules"] and e["weapon"] == "105mm" for e in shots)
    assert {g.state.units[e["target"]].type for e in shots} == {"mbt:T-64B"}


def test_lesser_damage_on_an_unseen_guest_is_reported_to_its_own_side_only() -> None:
    # MBT 6.1: a side never hears of a unit it cannot see; MBT's own suppression records go only
    # to the sides that see the unit, and so does the adapter's Firefight reading of them
    g = make_game(Scenario.from_text(_text()))
    n3 = g.state.units["N3"]  # not yet on the map: the Soviets see nothing of it
    H.mbt_after_damage(g, n3, ["suppress", "KO"])
    mine = [e for e in g.log.events if e.get("decided_by") == "mbt"]
    assert [(e["mbt_effect"], e.get("visible_to")) for e in mine] == [
        ("suppress", ["NATO"]), ("KO", None)]  # a knock-out is public, as MBT's damage record is
    assert [e["mbt_effect"] for e in g.view("Soviet").events() if e.get("decided_by") == "mbt"] \
        == ["KO"]
