"""What a finished game tells a designer beyond its result: losses by unit type and who holds
the objectives at the end (docs/decisions.md CORE-37).

Both are read from the final state the same way for every system, through conventions the
built-in systems share rather than a system's private code:

- a **casualty** is a unit whose state marks it ``destroyed`` (Firefight, MBT) or
  ``eliminated`` (Firepower); dummies and units never drawn into play (state ``dummy``,
  ``not_drawn``) are not units and never count;
- the **objectives** are what the system's state description reports under ``control``
  (hex label -> side: MBT 4.8 stone buildings), else the areas and hexes the scenario's
  ``[victory]`` table names (``area``, ``areas``: board hexes tagged ``name:AREA``; ``hex``,
  ``crossroads``: one hex label), held by the one side with a unit still in play there, or
  ``contested``. An objective nobody holds is left out. A scenario with neither (Firepower's
  Basic Game scores the fold line, not a place) has no objectives, and the statistics say so.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from hexwar.core.engine.game import Game
    from hexwar.core.engine.state import Unit
    from hexwar.core.hexgrid import Hex

#: unit state keys that mark a loss, and that mark a counter that is not a unit
LOSS_KEYS = ("destroyed", "eliminated")
NOT_A_UNIT_KEYS = ("dummy", "not_drawn")
CONTESTED = "contested"


def _is_unit(u: Unit) -> bool:
    return not any(u.state.get(k) for k in NOT_A_UNIT_KEYS)


def _lost(u: Unit) -> bool:
    return any(u.state.get(k) for k in LOSS_KEYS)


def casualties(game: Game) -> dict[str, dict[str, int]]:
    """Losses of each side by unit type (``{side: {type: count}}``; a side without losses is
    left out)."""
    out: dict[str, dict[str, int]] = {}
    for u in game.state.units.values():
        if _is_unit(u) and _lost(u):
            by_type = out.setdefault(u.side, {})
            by_type[u.type] = by_type.get(u.type, 0) + 1
    return {s: dict(sorted(out[s].items())) for s in game.state.sides if s in out}


def _holder(game: Game, hexes: frozenset[Hex]) -> str | None:
    sides = {u.side for u in game.state.units.values()
             if u.hex is not None and u.hex in hexes and _is_unit(u) and not _lost(u)}
    if not sides:
        return None
    return sides.pop() if len(sides) == 1 else CONTESTED


def _named_area(game: Game, name: str) -> frozenset[Hex]:
    tag = f"name:{name}"
    return frozenset(h for h, fs in game.board.features_of.items() if tag in fs)


def _victory_places(game: Game) -> dict[str, frozenset[Hex]]:
    v: Mapping[str, Any] = game.scenario.victory
    places: dict[str, frozenset[Hex]] = {}
    names = [v["area"]] if isinstance(v.get("area"), str) else []
    names += [x for x in v.get("areas", []) if isinstance(x, str)] \
        if isinstance(v.get("areas"), list) else []
    for name in names:
        hexes = _named_area(game, name)
        if hexes:
            places[name] = hexes
    for key in ("hex", "crossroads"):
        label = v.get(key)
        if isinstance(label, str):
            try:
                places[label] = frozenset({game.board.parse(label)})
            except ValueError:
                continue
    return places


def objectives(game: Game) -> dict[str, str] | None:
    """Who holds each objective at the end (side or ``contested``; nobody: left out), or
    ``None`` when the scenario has no objectives."""
    described = game.hooks.describe_state(game, None)
    control = described.get("control")
    if isinstance(control, Mapping):
        return {str(k): str(v) for k, v in sorted(control.items()) if v is not None}
    places = _victory_places(game)
    if not places:
        return None
    held = {name: _holder(game, hexes) for name, hexes in sorted(places.items())}
    return {k: v for k, v in held.items() if v is not None}


def margin(sides: tuple[str, ...], scores: Mapping[str, float]) -> float | None:
    """The first side's score less the second's, where the result scores both of two sides."""
    if len(sides) != 2 or not all(s in scores for s in sides):
        return None
    return float(scores[sides[0]]) - float(scores[sides[1]])
