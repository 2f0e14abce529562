"""Advanced MBT 13.3 (OW), 14.1.4.3, 14.2.2: overwatch fire with missiles (docs/decisions.md
MBTD-121). An overwatch unit fires its gun or its missile; a missile fired at a mover races it
from the hex where the overwatch was triggered (MBT 14.2.2.2.2), one fired in the Overwatch Fire
Step at a unit going to move races from the hex it started the Turn in, and one at a unit that is
not moving resolves at once (MBT 14.2.2.1)."""

from __future__ import annotations

import json
from collections.abc import Generator
from typing import Any

import pytest

from hexwar.core.engine.decisions import Decision
from hexwar.core.errors import RulesError
from hexwar.plugins.mbt.advanced_movement import movement_phase
from hexwar.plugins.mbt.ai import MbtAI
from hexwar.plugins.mbt.overwatch import overwatch_fire_phase
from hexwar.plugins.mbt.state import data

ADV = ["mbt.advanced"]
MISSILE_SHOT = {"target": "N1", "shots": [["S1", "ATGM"]]}


def _events(g: Any, kind: str) -> list[dict[str, Any]]:
    return [e for e in g.log.for_side(None) if e.get("type") == kind]


def _shots(g: Any) -> list[dict[str, Any]]:
    return [e for e in g.log.for_side(None) if e.get("type") == "result"
            and e.get("what") == "AP point effect fire"]


def _far_game(make_game: Any, opts: list[str] | None = None) -> Any:
    """A T-80A on overwatch at 9J1 watching an M1 with M orders 13 hexes away, at 9J14."""
    g = make_game([("S1", "T-80A", "Soviet", "9J1", 4), ("N1", "M1", "NATO", "9J14", 4)],
                  options=ADV if opts is None else opts)
    g.state.units["S1"].state["order"] = "OW"
    g.state.units["N1"].state["order"] = "M"
    return g


def _mover_answers(fire_at: str, shot: Any, dest: str = "9J19") -> Any:
    """NATO moves N1 to ``dest`` (9J19: five hexes); the Soviets fire ``shot`` when N1 is in
    ``fire_at``."""
    def answer(d: Decision) -> Any:
        if d.kind == "mbt.move_unit":
            return "N1" if "N1" in (d.options or []) else "done"
        if d.kind == "mbt.move_to":
            return [dest, 4] if [dest, 4] in (d.options or []) else "stay"
        if d.kind == "mbt.overwatch":
            return shot if d.context.get("hex") == fire_at and shot in (d.options or []) \
                else "pass"
        for o in ("pass", "done", "stay", "none"):
            if o in (d.options or []):
                return o
        return (d.options or [None])[0]
    return answer


def test_missile_overwatch_at_a_mover_races_from_the_trigger_hex_14_2_2_2_2(
        make_game: Any, run: Any) -> None:
    """A scripted Movement Step: the Soviet T-80A on OW fires its Songster when the M1 enters
    9J16, and the M1 goes on to 9J19. The race starts at 9J16, 15 hexes away: 5 hexes entered,
    the 4+ speed 12 < 15, the M1 steps to 9J17 (16 hexes), 24 >= 16 and the missile strikes it
    there (from the Turn's start hex, 9J14, it would have struck at 9J15). The shot is overwatch
    fire at a moving target (MBT 7.4.2.4)."""
    g = _far_game(make_game)
    run(movement_phase(g), _mover_answers("9J16", MISSILE_SHOT))
    s1 = g.state.units["S1"]
    assert s1.state["fired"] and s1.state["spotted"] == "FIRED"
    race = _events(g, "atgm_race")
    assert len(race) == 1, race
    assert (race[0]["entered"], race[0]["speed"], race[0]["outcome"]) == (5, 12, "hit")
    assert race[0]["at"] == "9J17"
    shots = _shots(g)
    assert len(shots) == 1 and shots[0]["range"] == 16 and shots[0]["target_moving"] is True
    assert any("7.4.2.4" in str(m) for m in shots[0]["modifiers"]), shots[0]["modifiers"]
    assert data(g)["atgm"] == []


def test_missile_overwatch_leaves_the_mover_moving(make_game: Any, run: Any,
                                                  dice_faces: Any) -> None:
    """MBT 14.2.2.2: a missile fired from overwatch is not resolved in the hex it was fired at:
    the mover is not stopped there and ends its move where it meant to (unless the hit stops it,
    MBTD-55)."""
    g = _far_game(make_game)
    g.dice.force(*dice_faces(*[99] * 10))  # misses: nothing stops the M1
    run(movement_phase(g), _mover_answers("9J15", MISSILE_SHOT))
    n1 = g.state.units["N1"]
    assert g.board.label(n1.hex) == "9J19"
    assert _events(g, "atgm_race")[0]["at"] in {"9J15", "9J16", "9J17", "9J18", "9J19"}


def test_overwatch_fire_step_missile_at_a_unit_going_to_move_waits_14_2_2_2(
        make_game: Any, run: Any) -> None:
    """MBT 11.3.4, 14.2.2.2.2: in the Overwatch Fire Step the OW T-80A fires its missile at an
    M1 with FM orders that fired: the shot waits for the M1's move, from the hex it started the
    Turn in."""
    g = _far_game(make_game)
    n1 = g.state.units["N1"]
    n1.state.update(order="FM", fired=True)
    run(overwatch_fire_phase(g), lambda d: MISSILE_SHOT if MISSILE_SHOT in (d.options or [])
        else "pass")
    assert data(g)["atgm"] == [{"firer": "S1", "target": "N1", "initial": "9J14",
                                "overwatch": True}]
    assert _shots(g) == []


def test_overwatch_fire_step_missile_at_a_non_mover_resolves_at_once_14_2_2_1(
        make_game: Any, run: Any) -> None:
    """MBT 14.2.2.1: at an M1 with F orders (not moving, not going to move) the missile fired on
    overwatch resolves in the step, at a non-moving target (MBT 7.4.2.4: -2)."""
    g = _far_game(make_game)
    g.state.units["N1"].state.update(order="F", fired=True)
    run(overwatch_fire_phase(g), lambda d: MISSILE_SHOT if MISSILE_SHOT in (d.options or [])
        else "pass")
    assert data(g)["atgm"] == []
    shots = _shots(g)
    assert len(shots) == 1 and shots[0]["weapon"] == "Songster"
    assert shots[0]["target_moving"] is False


def _first(gen: Generator[Any, Any, Any], kind: str, answer: Any) -> Decision:
    """Drive ``gen`` to its first decision of ``kind`` (answering others with ``answer``)."""
    d = gen.send(None)
    while d.kind != kind:
        d = gen.send(answer(d))
    assert isinstance(d, Decision)
    return d


def _state(g: Any) -> str:
    return json.dumps({u.id: [u.hex and g.board.label(u.hex), u.state] for u in
                       g.state.units.values()}, sort_keys=True, default=str) + json.dumps(
        data(g), sort_keys=True, default=str)


@pytest.mark.parametrize(("setup", "shot", "rule"), [
    ("basic", MISSILE_SHOT, "MBT 6.2.4"),
    ("fired", MISSILE_SHOT, "MBT 13.3"),
    ("order_f", MISSILE_SHOT, "MBT 6.2.4"),
    ("both", {"target": "N1", "shots": [["S1", "ATGM"], ["S1", "APFSDS"]]}, "named twice"),
])
def test_bad_missile_overwatch_is_refused_and_changes_nothing(
        make_game: Any, setup: str, shot: Any, rule: str) -> None:
    """Refusals name their rule and leave the game as it was: the Basic Game fires only main guns
    on OW (MBT 6.2.4); a unit that has fired fires neither again (MBT 13.3, 7.5.1); the missile
    needs OW (or ATGM) orders; one unit fires its gun or its missile, not both (MBT 13.3)."""
    g = _far_game(make_game, [] if setup == "basic" else None)
    s1 = g.state.units["S1"]
    if setup == "order_f":
        s1.state["order"] = "F"
    if setup == "fired":
        s1.state["fired"] = True
    if setup in ("basic", "both"):
        # a live window: the engine's check of the declaration refuses it
        gen = _basic_movement(g) if setup == "basic" else movement_phase(g)
        d = _first(gen, "mbt.overwatch", _mover_answers("never", None))
        before = _state(g)
        with pytest.raises(RulesError, match=rule.replace(".", r"\.")):
            d.check(shot)
    else:
        # no window opens for a unit that may not fire: the validator of one refuses it
        from hexwar.plugins.mbt.overwatch import ow_validator

        before = _state(g)
        err = ow_validator(g, "Soviet", targets={"N1"}, moving_target=True)(shot)
        assert err is not None and rule in err, err
    assert _state(g) == before


def _basic_movement(g: Any) -> Generator[Any, Any, Any]:
    from hexwar.plugins.mbt.movement import movement_phase as basic_phase

    return basic_phase(g)


def test_basic_game_offers_no_missile_on_overwatch(make_game: Any, run: Any) -> None:
    """MBT 6.2.4: in the Basic Game the T-80A on OW is offered its gun only."""
    g = _far_game(make_game, [])
    g.state.units["N1"].hex = g.board.parse("9J8")
    d = _first(_basic_movement(g), "mbt.overwatch", _mover_answers("never", None, "9J12"))
    shots = [s for o in d.options or [] if isinstance(o, dict) for s in o["shots"]]
    assert shots and all(a != "ATGM" for _f, a in shots)


def test_advanced_game_offers_gun_and_missile_on_overwatch(make_game: Any) -> None:
    """MBT 14.1.4.3: with OW orders the T-80A may fire its 125 mm gun or its Songster."""
    g = _far_game(make_game)
    g.state.units["N1"].hex = g.board.parse("9J8")
    d = _first(movement_phase(g), "mbt.overwatch", _mover_answers("never", None, "9J12"))
    ammo = {a for o in d.options or [] if isinstance(o, dict) for _f, a in o["shots"]}
    assert "ATGM" in ammo and ammo - {"ATGM"}


def test_the_ai_fires_its_missile_on_overwatch_when_the_gun_cannot(make_game: Any) -> None:
    """The MBT AI takes the missile shot when overwatch triggers: the T-80A's gun is hit, its
    Songster still fires (MBT 7.4.5.3.2: a main gun hit silences only the gun)."""
    g = _far_game(make_game)
    n1 = g.state.units["N1"]
    n1.hex = g.board.parse("9J8")
    g.state.units["S1"].state["damage"]["gun"] = True
    d = _first(movement_phase(g), "mbt.overwatch", _mover_answers("never", None, "9J12"))
    assert MISSILE_SHOT in (d.options or [])
    got = MbtAI("Soviet", 1).choose(d, g.view("Soviet"))
    assert got == MISSILE_SHOT
    d.check(got)


def test_missile_from_overwatch_misses_when_its_firer_is_knocked_out_first_14_2_2(
        make_game: Any, run: Any) -> None:
    """MBT 14.2.2: the T-80A fires its Songster on overwatch at an M1 going to move and is knocked
    out before the M1 moves (say by a chain of overwatch, MBT 7.5.3): the missile misses."""
    from hexwar.plugins.mbt.advanced_fire import missile_race
    from hexwar.plugins.mbt.fire import apply_effects

    g = _far_game(make_game)
    n1 = g.state.units["N1"]
    n1.state.update(order="FM", fired=True)
    run(overwatch_fire_phase(g), lambda d: MISSILE_SHOT if MISSILE_SHOT in (d.options or [])
        else "pass")
    apply_effects(g, g.state.units["S1"], ["KO"])
    path = [(g.board.parse(f"9J{r}"), 4) for r in range(14, 17)]
    n1.hex = path[-1][0]
    run(missile_race(g, n1, path), lambda d: (d.options or [None])[0])
    misses = [e for e in g.log.for_side(None) if e.get("type") == "result"
              and e.get("what") == "ATGM" and "automatic miss" in str(e.get("result"))]
    assert misses and _shots(g) == []


# -- MBT 13.3 OW, 14.1.4.3 (MBTD-134): OW for a unit whose gun is out but whose missile works ----


def test_ow_order_for_a_unit_whose_gun_is_out_but_missile_works_13_3(make_game: Any) -> None:
    """MBT 13.3 (OW), 14.1.4.3: in the Advanced Game a T-80A whose main gun took a hit may still
    take OW orders, for its Songster; with its turret compartment hit (gun and missile silent,
    MBT 7.4.7.2.1) it may not, and the refusal names the rules. The Basic Game keeps OW for main
    guns (MBT 6.2.4)."""
    from hexwar.plugins.mbt.advanced_orders import advanced_validator
    from hexwar.plugins.mbt.orders import legal_orders

    g = _far_game(make_game)
    s1 = g.state.units["S1"]
    s1.state["damage"]["gun"] = True
    assert "OW" in legal_orders(g, s1)
    s1.state["damage"]["compartment"] = "turret"
    assert "OW" not in legal_orders(g, s1)
    err = advanced_validator(g, s1)("OW")
    assert err is not None and "14.1.4.3" in err and "neither" in err

    basic = _far_game(make_game, opts=[])
    b1 = basic.state.units["S1"]
    b1.state["damage"]["gun"] = True
    assert "OW" not in legal_orders(basic, b1)


def test_ow_order_for_the_missile_alone_when_gun_and_machinegun_are_out_14_1_4_3(
        make_game: Any) -> None:
    """MBT 13.3 (OW), 14.1.4.3 (MBTD-134): with its main gun hit and its HMG destroyed (MBT
    14.3.3.4.2) the T-80A has no gun at all, yet its Songster still earns it OW orders. (The
    test above no longer shows this alone: since machineguns, MBTD-128, the working HMG gives a
    gunless T-80A its fire orders too.)"""
    from hexwar.plugins.mbt.orders import legal_orders

    g = _far_game(make_game)
    s1 = g.state.units["S1"]
    s1.state["damage"]["gun"] = True
    s1.state["mg_lost"] = ["HMG TTO"]
    assert "OW" in legal_orders(g, s1)


def test_overwatch_shot_of_a_gunless_missile_unit_is_the_missile_14_1_4_3(
        make_game: Any, run: Any) -> None:
    """MBT 14.1.4.3: the OW T-80A with its gun out is offered the missile shot at the M1 that
    fired and no main-gun shot (its machinegun's, MBT 14.1.2.1), and fires the missile (MBT
    14.2.2.1: the M1 has F orders, so the missile lands now)."""
    g = _far_game(make_game)
    s1 = g.state.units["S1"]
    s1.state["damage"]["gun"] = True
    g.state.units["N1"].state.update(order="F", fired=True)
    seen: list[Any] = []

    def answer(d: Decision) -> Any:
        seen.extend(o for o in (d.options or []) if o != "pass")
        return MISSILE_SHOT if MISSILE_SHOT in (d.options or []) else "pass"

    run(overwatch_fire_phase(g), answer)
    # no main-gun shot: the missile, or the independent machinegun (MBT 14.1.2.1, MBTD-128)
    assert {"target": "N1", "shots": [["S1", "ATGM"]]} in seen, seen
    assert all(o["shots"] == [["S1", "ATGM"]] or o["shots"][0][1].startswith(("HMG ", "MG "))
               for o in seen), seen
    assert len(_shots(g)) == 1 and s1.state["fired"]
