"""Victory of hexwar's own Advanced scenarios in casualties and survivors, as Firepower 23.6
frames a scenario's victory points (without the wounds of Option 23): each side scores
``casualty`` points per opposing soldier eliminated and ``survivor`` points per own soldier not
eliminated at the end, and ``objective_points`` more per own survivor in a hex of an objective
building (``objective``: building ids of the Advanced terrain) if it is the ``objective_side``
(any side when not given), or in one of the ``objective_hexes``. The keys are the
scenario's ``[victory]`` table (docs/decisions.md
FPD-68), with ``exit_points`` per own soldier who left the board (Firepower 10.2, FPD-140);
without them the Basic Game's victory (Firepower 7) stands."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from hexwar.core.engine.game import Game


def has_terms(game: Game) -> bool:
    v = game.scenario.raw.get("victory")
    return isinstance(v, dict) and bool(v)


def victory_points(game: Game) -> dict[str, int]:
    """Firepower 23.6: casualties and survivors, plus survivors in the objective buildings."""
    from hexwar.plugins.firepower.advanced_terrain import adv_map

    v = game.scenario.raw.get("victory") or {}
    per_cas, per_sur = int(v.get("casualty", 1)), int(v.get("survivor", 0))
    per_obj, obj_side = int(v.get("objective_points", 0)), v.get("objective_side")
    objective = {str(b) for b in v.get("objective", [])}
    spots = {game.board.parse(str(x)) for x in v.get("objective_hexes", [])}
    m = adv_map(game) if objective else None
    vp = {s: 0 for s in game.state.sides}
    for u in game.state.units.values():
        if u.state.get("eliminated"):
            for s in game.state.sides:
                if s != u.side:
                    vp[s] += per_cas
            continue
        vp[u.side] += per_sur
        h = u.hex
        if h is None or obj_side not in (None, u.side) or u.state.get("tunnel"):
            continue
        if h in spots or (m is not None and str(m.building_of.get(h)) in objective):
            vp[u.side] += per_obj
    from hexwar.plugins.firepower.exits import exit_points

    for s, n in exit_points(game).items():  # Firepower 10.2: exits, if they score (FPD-140)
        vp[s] += n
    return vp
