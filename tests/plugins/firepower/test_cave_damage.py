"""Blast damage to caves (Firepower 12.3.4.2, Firepower 12.3.4.2.2;
:mod:`hexwar.plugins.firepower.cave_damage`, the stand-in value of ``data/advanced/caves.toml``;
docs/decisions.md FPD-145, FPD-146)."""

from __future__ import annotations

from typing import Any

from hexwar.core.engine.game import Game
from hexwar.core.provenance import load_records
from hexwar.plugins.firepower import cave_damage as cd
from hexwar.plugins.firepower import confined_fire as cf
from hexwar.plugins.firepower.advanced_terrain import ADV_MAP, CAVES_DESTROYED, adv_map
from hexwar.plugins.firepower.hidden_setup import cave_backs, secret
from hexwar.plugins.firepower.state import data
from hexwar.plugins.firepower.weapon_chart import weapon
from tests.plugins.firepower.test_terrain import _do, _face, _game, _impulse, _refused

# panel 4 (terrain-4.toml): a cave in 4V13, its mouth on hexside 5 (toward 4U14, 4T14), the
# height hexside at its back toward 4W13, where a tunnel may start


def _cave_game(*extra: tuple[Any, ...]) -> Game:
    g = _game([("T", "RFL", "A", "T14", 2, {}), ("IN", "RFL", "B", "V13", 5, {}),
               ("TOP", "RFL", "B", "V13", 5, {"on_top": True}),
               ("NEAR", "RFL", "B", "U14", 5, {}), *extra])
    t = g.state.units["T"]
    assert t.hex is not None
    t.state["equipment"] = {"HGN3": 2}
    cave = g.board.parse("4V13")
    _face(t, cave)
    return g


def test_the_caves_terrain_value_is_a_stand_in() -> None:
    """Firepower 12.3.4.2: the text gives no cave's terrain value; the data file's is estimated."""
    recs = load_records(cd.TABLE)
    assert recs.sources["cave.terrain_value"] == "estimated"
    assert cd.terrain_value() == 10


def test_damage_adds_up_until_the_cave_is_rubble_and_everyone_in_or_on_it_dies() -> None:
    """Firepower 12.3.4.2, 12.3.4.2.2: the damage adds up; at the terrain value the cave is
    destroyed: no longer a cave for this game (the board's shared map keeps it), rubble at the
    hex's own height, the soldiers inside and on top eliminated, the one beside it not."""
    g = _cave_game()
    h = g.board.parse("4V13")
    ground = adv_map(g).ground.get(h, 0)
    u = g.state.units
    u["IN"].state["model"] = "MRT6"
    assert cf.place(g, u["IN"]) == ("a cave", True)
    assert cd.damage(g, h, cd.terrain_value() - 1) is False
    assert h in adv_map(g).caves and not u["IN"].state.get("eliminated")
    assert cd.damage(g, h, 1) is True
    assert h not in adv_map(g).caves
    assert data(g)[CAVES_DESTROYED] == ["4V13"] and data(g)["destroyed"]["4V13"] == "rubble"
    assert adv_map(g).ground.get(h, 0) == ground  # the hex's normal height
    assert u["IN"].state.get("eliminated") and u["TOP"].state.get("eliminated")
    assert not u["NEAR"].state.get("eliminated")
    shared = next(iter(g.board.stash[ADV_MAP].values()))
    assert h in shared.caves  # never the board's data
    assert cd.damage(g, h, 5) is False  # nothing left to destroy
    ev = [e for e in g.log.events if e.get("type") == "terrain_destroyed"]
    assert ev and ev[-1]["was"] == "cave" and ev[-1]["rule"] == "Firepower 12.3.4.2.2"


def test_a_restored_state_gets_its_cave_back() -> None:
    """Firepower 12.3.4.2.2: the game's terrain follows its state (a replay or an undo)."""
    g = _cave_game()
    h = g.board.parse("4V13")
    cd.destroy(g, h)
    assert h not in adv_map(g).caves
    del data(g)[CAVES_DESTROYED]
    assert h in adv_map(g).caves


def test_the_tunnel_behind_stays_but_leads_out_no_more() -> None:
    """Firepower 12.3.4.2.2, 8.8.8, 11.5 (FPD-146): a defender in the tunnel at the cave's back
    lives and keeps his record, but may not come up into the rubble; the attacker's note of the
    cave goes, his note of the tunnel stays."""
    g = _cave_game(("DOWN", "RFL", "B", "W13", 5, {"tunnel": True, "posture": "crouch"}))
    secret(g, "B")["tunnels"] = ["4W13"]
    secret(g, "A")["tunnels_known"] = {"4V13": {"kind": "cave", "soldiers": True},
                                       "4W13": {"kind": "tunnel", "soldiers": True}}
    w13 = g.board.parse("4W13")
    assert w13 in cave_backs(g)
    _impulse(g, "DOWN")
    from hexwar.plugins.firepower.advanced_impulses import check_advanced_action

    check_advanced_action(g, {"act": "tunnel", "unit": "DOWN"})  # up into the cave: allowed
    cd.destroy(g, g.board.parse("4V13"))
    assert not g.state.units["DOWN"].state.get("eliminated")
    assert secret(g, "B")["tunnels"] == ["4W13"]
    assert w13 not in cave_backs(g)
    _refused(g, {"act": "tunnel", "unit": "DOWN"}, "Firepower 8.8.8")
    assert secret(g, "A")["tunnels_known"] == {"4W13": {"kind": "tunnel", "soldiers": True}}


def test_a_soldier_in_a_tunnel_under_the_cave_hex_is_not_eliminated() -> None:
    """Firepower 12.3.4.2.2, 8.8.8: in a tunnel is under the ground, not in or on the cave."""
    g = _cave_game(("UNDER", "RFL", "B", "V13", 5, {"tunnel": True, "posture": "prone"}))
    assert cd.destroy(g, g.board.parse("4V13")) == ["IN", "TOP"]
    assert not g.state.units["UNDER"].state.get("eliminated")


def test_a_grenade_thrown_into_the_cave_destroys_it_in_play() -> None:
    """Firepower 12.3.4.2, 12.3.4.2.2, whole flow: T throws a real HGN3 (G, penetration 1) into
    the cave through the Impulse Phase's Action; the cave, damaged to one short of its value,
    goes, its two soldiers are eliminated, NEAR in the blast zone is only suppressed."""
    g = _cave_game()
    assert weapon("HGN3").penetration["G"] == 1
    data(g)[cd.DAMAGE] = {"4V13": cd.terrain_value() - 1}
    _impulse(g, "T")
    asked: list[str] = []

    def d10(purpose: str, **_: Any) -> int:
        asked.append(purpose)
        return 1 if purpose.startswith("T HGN3 at") or "through" in purpose else 10

    g.dice.d10 = d10  # type: ignore[method-assign]
    _do(g, {"act": "grenade", "unit": "T", "hex": "4V13", "item": "HGN3"})
    assert asked[0] == "T HGN3 at 4V13"
    u = g.state.units
    assert u["IN"].state.get("eliminated") and u["TOP"].state.get("eliminated")
    assert not u["NEAR"].state.get("eliminated") and not u["T"].state.get("eliminated")
    assert g.board.parse("4V13") not in adv_map(g).caves
    assert data(g)["destroyed"]["4V13"] == "rubble"
    elim = [e for e in g.log.events if e.get("type") == "eliminated"]
    assert {e["unit"] for e in elim} == {"IN", "TOP"}
    assert all(e["rule"] == "Firepower 12.3.4.2.2" for e in elim)


def test_a_grenade_short_of_the_value_only_adds_damage() -> None:
    """Firepower 12.3.4.2: one HGN3 in a fresh cave notes 1 damage and destroys nothing."""
    g = _cave_game()
    _impulse(g, "T")
    g.dice.d10 = lambda purpose, **_: (  # type: ignore[method-assign]
        1 if purpose.startswith("T HGN3 at") or "through" in purpose else 10)
    _do(g, {"act": "grenade", "unit": "T", "hex": "4V13", "item": "HGN3"})
    assert data(g)[cd.DAMAGE] == {"4V13": 1}
    assert g.board.parse("4V13") in adv_map(g).caves
    assert not g.state.units["IN"].state.get("eliminated")


def test_a_white_phosphorus_blast_zone_damages_the_cave_beside_its_impact() -> None:
    """Firepower 12.3.9, 12.3.4.2.2: a W grenade (HGN6) bursting in 4U14, beside the cave, damages
    every hex of its blast zone, so the cave one short of its value goes; a G grenade (HGN3)
    bursting there damages only its impact hex and leaves the cave."""
    for item, gone in (("HGN6", True), ("HGN3", False)):
        g = _cave_game()
        g.state.units["T"].state["equipment"] = {item: 1}
        data(g)[cd.DAMAGE] = {"4V13": cd.terrain_value() - 1}
        _impulse(g, "T")
        g.dice.d10 = lambda purpose, **_: (  # type: ignore[method-assign]
            1 if purpose.startswith("T ") else 10)
        _do(g, {"act": "grenade", "unit": "T", "hex": "4U14", "item": item})
        assert (g.board.parse("4V13") not in adv_map(g).caves) is gone, item
        assert bool(g.state.units["IN"].state.get("eliminated")) is gone, item
