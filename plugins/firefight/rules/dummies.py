"""Firefight [12.0] Dummies: face-down counters that are nothing.

Dummies are counters of type ``US-Dummy``/``SU-Dummy`` (the back of a Suppression marker) with
``state.dummy = true``, deployed face-down like real units ([11.0]; this rule requires
``firefight.observation``). They move like personnel (one hex; design 9.3 #9 until the system
offers a movement-allowance hook), never fire, never count for stacking [7.3], answer the
"personnel or vehicle?" question as their owner chose (``state.claim``) [11.0], and are removed
as soon as they are spotted [12.0] (observation.reveal). Scenarios 7 and 9 draw them from the
cup (the system's draw keeps them when this rule is on). Extra dummies for any scenario:
``[special] dummies = {US = ["1005", ...], SU = [...]}`` places one dummy per listed hex;
[12.0] advises at most six at a time, which :func:`dummy_problem` enforces as a sanity limit
of six per side when they are placed.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from hexwar.core.markers import hookimpl
from hexwar.core.types import PluginManifest, Problem
from hexwar.plugins.firefight.rules._common import is_ff

if TYPE_CHECKING:
    from hexwar.core.engine.game import Game
    from hexwar.core.scenario import Scenario

PLUGIN = PluginManifest(
    name="firefight.dummies", system="firefight", kind="rule",
    title="Dummies [12.0]",
    summary="FF II [12]: face-down dummy counters (up to six a side) removed when spotted.",
    implements=("[12.0]",),
    requires=("firefight.observation",),
)

VEHICLE_MA = 3.0  # [7.0] a vehicle has three Movement Points
MAX_DUMMIES = 6  # [12.0] "Rarely should he use more than six at a time"


def is_dummy(game: Game, uid: str) -> bool:
    u = game.state.units.get(uid)
    return u is not None and (bool(u.state.get("dummy")) or u.type.endswith("-Dummy"))


def dummy_problem(spec: Any) -> str | None:
    """Check ``[special] dummies``: {side: [hex labels]} with at most six per side [12.0]."""
    if not isinstance(spec, dict):
        return "dummies is a table {US = [hexes], SU = [hexes]}"
    for side, hexes in spec.items():
        if side not in ("US", "SU"):
            return f"unknown side {side!r}"
        if not isinstance(hexes, list) or len(hexes) > MAX_DUMMIES:
            return f"{side}: a list of at most {MAX_DUMMIES} hexes [12.0]"
    return None


@hookimpl
def hexwar_validate_scenario(scenario: Scenario) -> Sequence[Problem]:
    if scenario.system != "firefight":
        return []
    spec = scenario.raw.get("special", {}).get("dummies")
    if spec is None:
        return []
    why = dummy_problem(spec)
    return [Problem(why, scenario.path, "special.dummies")] if why else []


@hookimpl(tryfirst=True)
def hexwar_setup_game(game: Game) -> None:
    """Mark dummy counters and add the scenario's extra dummies (before [11] turns every counter
    face-down: tryfirst)."""
    if not is_ff(game):
        return
    from hexwar.core.engine.state import Unit

    for u in game.state.units.values():
        if u.type.endswith("-Dummy"):
            u.state["dummy"] = True
    spec = game.scenario.raw.get("special", {}).get("dummies") or {}
    for side in sorted(spec):
        for i, lbl in enumerate(spec[side], 1):
            uid = f"dummy-{side.lower()}-x{i}"
            game.state.units[uid] = Unit(uid, f"firefight:{side}-Dummy", side,
                                         game.board.parse(str(lbl)), 1, {"dummy": True})


@hookimpl
def firefight_counts_for_stacking(game: Game, unit_id: str) -> bool | None:
    """Dummies never count toward the four-unit limit (design 9.3 #9). (The system reads each
    answer as one bool, ``False`` excluding the unit.)"""
    return False if is_dummy(game, unit_id) else None


@hookimpl
def firefight_movement_allowance(game: Game, unit_id: str, base: float) -> float | None:
    """A dummy claiming to be a vehicle moves like one (MA 3 [7.0]; design 9.3 #9)."""
    u = game.state.units[unit_id]
    if is_dummy(game, unit_id) and u.state.get("claim") == "vehicle":
        return VEHICLE_MA
    return None
