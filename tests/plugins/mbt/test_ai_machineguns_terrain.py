"""The MBT AI's machineguns at terrain and at infantry in cover (docs/decisions.md MBTD-154):
with an enemy in sight, a vehicle that has fired its main gun fires its machineguns at wire or a
block on the way forward or around enemy infantry (MBT 12.4.2, 14.1.2.1, 14.4.3.3.3); one that
has not fired keeps hidden (MBT 13.1); machineguns fire at a squad in the woods (MBT 14.4)."""

from __future__ import annotations

from typing import Any

from hexwar.core.engine.decisions import Decision
from hexwar.plugins.mbt import gp_terrain, machineguns
from hexwar.plugins.mbt.ai import MbtAI
from hexwar.plugins.mbt.fire import direct_fire_phase
from hexwar.plugins.mbt.markers import markers

ADV = ["mbt.advanced"]


def _game(make_game: Any, wire: str, extra: tuple[Any, ...] = (), **kw: Any) -> Any:
    g = make_game([("N1", "M1", "NATO", "9J12", 1), ("S9", "T-72M1", "Soviet", "9J4", 4),
                   *extra], options=ADV, **kw)
    markers(g)[wire] = "wire"
    g.state.units["N1"].state["order"] = "F"
    for u in g.state.units.values():
        if u.side == "Soviet":
            u.state["spotted"] = "FIRED"  # seen (MBT 13.1)
    g.state.phase = "mbt.direct_fire"
    return g


def _terrain_shots(g: Any) -> list[tuple[str, str]]:
    return [(e["hex"], e["weapon"]) for e in g.log.for_side("NATO")
            if e.get("what") == "GP point effect fire at terrain"]


def test_a_vehicle_that_fired_turns_its_machinegun_on_wire_on_the_way_14_1_2_1(
        make_game: Any, run: Any) -> None:
    """MBT 14.1.2.1, 12.4.2 (MBTD-154): the M1 fires its 105mm at the T-72 and, in the same
    step, its HMG at the wire between them."""
    g = _game(make_game, "9J9")
    ai = MbtAI("NATO", 1)
    run(direct_fire_phase(g), lambda d: ai.choose(d, g.view("NATO")) if d.side == "NATO"
        else "pass")
    fired = [(e.get("weapon"), e.get("target")) for e in g.log.for_side("NATO")
             if e.get("what") == "AP point effect fire"]
    assert ("105mm", "S9") in fired
    assert [h for h, w in _terrain_shots(g) if w != "105mm"] == ["9J9"], _terrain_shots(g)


def test_a_vehicle_that_has_not_fired_keeps_hidden_13_1(make_game: Any, run: Any) -> None:
    """MBT 13.1 (MBTD-154): with an enemy in sight, a unit that has no shot it would take at
    the enemy does not show itself by firing at terrain."""
    g = _game(make_game, "9J9")
    ai = MbtAI("NATO", 1)
    ai.fire_floor = 1.01  # no shot at the enemy is worth taking
    run(direct_fire_phase(g), lambda d: ai.choose(d, g.view("NATO")) if d.side == "NATO"
        else "pass")
    assert _terrain_shots(g) == []
    assert not g.state.units["N1"].state.get("fired")


def test_wire_around_enemy_infantry_is_fired_at_14_4_3_3_3(make_game: Any) -> None:
    """MBT 14.4.3.3.3 (MBTD-154): destroying a marker suppresses every ground unit in its hex, so
    wire off the way forward is worth the HMG's fire when an enemy squad stands in it; without
    the squad it is left alone."""
    for squad, fires in ((True, True), (False, False)):
        extra = (("S1", "Motor Rifle Squad", "Soviet", "9M11", 1),) if squad else ()
        g = _game(make_game, "9M11", extra)
        n1 = g.state.units["N1"]
        n1.state["fired"] = True
        machineguns.note_fired(g, n1, "APFSDS")  # its 105mm fired at the T-72 in this step
        opts = [o for o in gp_terrain.options(g, "NATO", ("F", "FM"), set())
                if o["shots"][0][1] != "GP"]
        assert opts, "the HMG may fire at the wire"
        got = MbtAI("NATO", 1)._terrain_declaration(g.view("NATO"), opts)
        if fires:
            assert got is not None and got["hex"] == "9M11"
            assert gp_terrain.choice_error(g, "NATO", got, ("F", "FM"), set()) is None
        else:
            assert got is None


def test_machineguns_fire_at_a_squad_in_the_woods_14_4(make_game: Any) -> None:
    """MBT 14.4, 14.1.2: a squad in the woods is still a target worth the HMG (the GP procedure's
    cover modifiers counted); the AI names the HMG at it."""
    g = make_game([("N1", "M1", "NATO", "9J12", 1),
                   ("S1", "Motor Rifle Squad", "Soviet", "9J8", 1)], options=ADV,
                  terrain={"9J8": "woods"})
    g.state.units["N1"].state["order"] = "F"
    g.state.units["S1"].state["spotted"] = "FIRED"
    g.state.phase = "mbt.direct_fire"
    from hexwar.plugins.mbt.fire import declaration_options

    opts = declaration_options(g, "NATO", [g.state.units["S1"]], orders=("F",), overwatch=False)
    ai = MbtAI("NATO", 1)
    got = ai.choose(Decision("NATO", "mbt.fire", options=["pass", *opts],
                             context={"step": "direct"}), g.view("NATO"))
    assert isinstance(got, dict) and got["target"] == "S1", got
    assert any("/" in a for _f, a in got["shots"]) or any(a == "GP" for _f, a in got["shots"])
