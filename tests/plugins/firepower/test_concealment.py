"""Concealment inside buildings and in the water (Firepower 12.2.4;
:mod:`hexwar.plugins.firepower.concealment`)."""

from __future__ import annotations

from hexwar.plugins.firepower import combat
from hexwar.plugins.firepower.actions import fire_context, fire_procedure
from hexwar.plugins.firepower.concealment import concealed_places
from hexwar.plugins.firepower.state import data
from tests.plugins.firepower.test_terrain import _face, _game

# panel 4: 4AA5 is in building A; its ground-floor window toward 4Z4 is open (unmarked)


def _mods(target_floor: int | None = None) -> dict[str, int]:
    st = {"floor": target_floor} if target_floor else {}
    g = _game([("OUT", "RFL", "A", "W3", 2, {}), ("IN", "RFL", "B", "AA5", 6, st)])
    u = g.state.units["OUT"]
    assert u.hex is not None
    t = g.board.parse("4AA5")
    _face(u, t)
    ctx = fire_context(g, "OUT", {"act": "fire", "unit": "OUT", "mode": "semi",
                                  "targets": ["IN"]})
    combat.preview(ctx, fire_procedure(g, ctx.kind))
    return {m.rule + ":" + m.name: int(m.value) for m in ctx.modifiers["IN"]}


def test_a_target_inside_a_building_is_concealed() -> None:
    """Firepower 12.2.4: IN, at the window of 4AA5, is concealed from OUT: +1."""
    mods = _mods()
    assert mods.get("Firepower 12.2.4:target concealed") == 1


def test_the_places_that_conceal() -> None:
    """Firepower 12.2.4: inside a building; not in the open; not in a hex whose walls are
    destroyed (FPD-159)."""
    g = _game([("OUT", "RFL", "A", "W3", 2, {}), ("IN", "RFL", "B", "AA5", 6, {})])
    assert concealed_places(g) == {"IN": "inside building A"}
    data(g)["ruined"] = ["4AA5"]
    assert concealed_places(g) == {}


def test_fording_and_swimming_conceal() -> None:
    """Firepower 12.2.4: in the water of panel 2's gully (2U6), Crouching is fording, Prone is
    swimming: both concealed; beside it, not."""
    g = _game([("F", "RFL", "A", "U6", 2, {"posture": "crouch"}),
               ("S", "RFL", "A", "V6", 2, {"posture": "prone"}),
               ("D", "RFL", "A", "U3", 2, {})], panel=2)
    assert concealed_places(g) == {"F": "fording", "S": "swimming"}
