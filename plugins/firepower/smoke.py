"""Smoke, illumination and Observation Conditions of the Advanced Game (Firepower 9.3,
Firepower 12.2.7, Firepower 12.2.11, Firepower 12.3.3, Firepower 12.3.7-12.3.9).

State (JSON, in ``game.state.data["firepower"]``): ``smoke``: a list of ``{"hex", "source",
"height", "turn"}`` (the smoke unit's hex label, the letter of what made it: F, M or W, its impact
height, the Turn it was started); ``illumination``: a list of ``{"hex", "turn"}``. Both are on the
board for everyone to see (they are units on the map, Firepower 1.2.3).

* smoke reaches five heights above its impact height and hinders +3 (F, M) or +2 (W) per hex
  (Firepower 12.2.7, Firepower 12.3.7); it lasts the rest of its Turn and the next: the Turn
  Record Phase removes every smoke unit not started in the Turn just ended (Firepower 9.3);
* illumination improves the Observation Conditions by up to two within 10 hexes of its impact
  hex and by one within 11-25 hexes, until the Turn Record Phase (Firepower 12.3.8, Firepower 9.3);
* the scenario's Observation Conditions (``[special] observation``, 1 to 3; 1 if not given) give
  +1 or +2 to fire into a hex of condition 2 or 3 (Firepower 12.2.11).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from hexwar.core.hexgrid import Hex
from hexwar.plugins.firepower.state import data, fp_map

if TYPE_CHECKING:
    from hexwar.core.engine.game import Game

#: Firepower 12.3.8: the two rings of an illumination round
ILLUMINATION_NEAR = 10
ILLUMINATION_FAR = 25


def smoke_map(game: Game) -> dict[Hex, tuple[str, int]]:
    """Hex -> (source letter, impact height) of every smoke unit on the board (the most
    hindering one where two share a hex: F or M smoke over W)."""
    m = fp_map(game)
    out: dict[Hex, tuple[str, int]] = {}
    for s in data(game).get("smoke") or []:
        h = m.parse(str(s["hex"]))
        cur = out.get(h)
        if cur is None or cur[0] == "W":
            out[h] = (str(s["source"]), int(s["height"]))
    return out


def place_smoke(game: Game, h: Hex, source: str, height: int) -> None:
    """Firepower 12.3.3, 12.3.7, 12.3.9: mark the impact hex with a smoke unit."""
    lst: list[dict[str, Any]] = data(game).setdefault("smoke", [])
    lst.append({"hex": fp_map(game).label(h), "source": source, "height": int(height),
                "turn": int(game.state.turn)})
    game.emit("smoke", hex=fp_map(game).label(h), source=source, rule="Firepower 12.3.7")


def place_illumination(game: Game, h: Hex) -> None:
    """Firepower 12.3.8: an illumination unit in the impact hex."""
    lst: list[dict[str, Any]] = data(game).setdefault("illumination", [])
    lst.append({"hex": fp_map(game).label(h), "turn": int(game.state.turn)})
    game.emit("illumination", hex=fp_map(game).label(h), rule="Firepower 12.3.8")


def turn_record_removals(game: Game) -> None:
    """Firepower 9.3: at the Turn Record Phase every illumination unit goes, and every smoke unit
    not started during the Turn just ended."""
    d = data(game)
    turn = int(game.state.turn)
    gone = [s for s in d.get("smoke") or [] if int(s["turn"]) != turn]
    if d.get("illumination") or gone:
        game.emit("turn_record_removals", smoke=[s["hex"] for s in gone],
                  illumination=[i["hex"] for i in d.get("illumination") or []],
                  rule="Firepower 9.3")
    if "smoke" in d:
        d["smoke"] = [s for s in d["smoke"] if int(s["turn"]) == turn]
    if "illumination" in d:
        d["illumination"] = []


def scenario_observation(game: Game) -> int:
    v = (game.scenario.raw.get("special") or {}).get("observation", 1)
    return min(max(int(v), 1), 3) if isinstance(v, int) and not isinstance(v, bool) else 1


def improved(base: int, distances: list[int]) -> int:
    """Firepower 12.3.8: the Observation Condition of a hex at the given distances from the
    illumination units: up to two better within 10 hexes, one better within 11-25, never better
    than 1."""
    best = 0
    for d in distances:
        if d <= ILLUMINATION_NEAR:
            best = max(best, 2)
        elif d <= ILLUMINATION_FAR:
            best = max(best, 1)
    return max(1, base - best)


def observation(game: Game, h: Hex) -> int:
    """Firepower 12.2.11, 12.3.8: the Observation Condition of hex ``h`` now."""
    m = fp_map(game)
    lights = [m.parse(str(i["hex"])) for i in data(game).get("illumination") or []]
    return improved(scenario_observation(game), [h.distance(x) for x in lights])
